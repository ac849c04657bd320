/*
 * ntt_bigint.h - multiplication of big natural numbers (mpn-style).
 *
 * A natural number is an array of little-endian 64-bit words.  The
 * product of two goes through NTT products of their words as polynomial
 * coefficients modulo four primes below 2^50 (1 mod 2^30: every length has
 * its roots), each an ntt_polymul_mod product on that prime (its plans
 * cached as ntt_polymul_mod caches them), then the explicit CRT of each
 * exact coefficient (below min(na, nb) 2^128 < Q / 2^8, Q the primes'
 * product) and one pass of carries.  Short operands (the shorter at most
 * 32 words) are multiplied by schoolbook instead.
 *
 * Errors are statuses of ntt.h; on failure nothing the caller owns has
 * been written.
 */
#ifndef NTT_BIGINT_H
#define NTT_BIGINT_H

#include "ntt.h"

#ifdef __cplusplus
extern "C" {
#endif

/* c[0 .. na+nb) = a * b, every word written (the top one may be 0).  a: na
   words, b: nb words, na, nb >= 1, na + nb - 1 <= NTT_POLYMUL_MAX_LEN; any
   words (no normalisation needed).  c may not overlap a or b.  backend
   and opts as for ntt_polymul_mod_ex (opts may be NULL; threads > 1 shares
   the transforms among that many threads).
   Allocates, per call of the NTT path, one buffer of 4 (na + nb) + 4
   (na + nb - 1) words, freed before it returns, besides the plans that
   ntt_polymul_mod caches (ntt_cache_clear frees them); schoolbook
   allocates nothing.
   Errors: NTT_EINVAL (NULL pointer, na or nb 0, length bound, c
   overlapping a or b, bad options), NTT_EUNSUPPORTED (backend
   unavailable), NTT_ENOMEM. */
NTT_API NTT_NODISCARD ntt_status ntt_mpn_mul(uint64_t *c, const uint64_t *a, size_t na,
                                             const uint64_t *b, size_t nb, ntt_backend backend,
                                             const ntt_plan_options *opts);

#ifdef __cplusplus
}
#endif

#endif /* NTT_BIGINT_H */
