/*
 * ntt_bigmod.h - polynomial products modulo a big modulus M.
 *
 * M is any integer >= 2 of up to NTT_BIGMOD_MAX_BITS bits (prime or not,
 * even, a power of two, 2 itself), given as `words` little-endian 64-bit
 * words with the top one non-zero.  A coefficient is `words` words,
 * little-endian, below M; a polynomial of length l is l coefficients one
 * after the other (l * words words).  The product c = a * b (la + lb - 1
 * coefficients) is reduced mod M, every word of it written, nothing past
 * it.
 *
 * How: the exact integer product of the coefficients is at most
 * min(la, lb) (M - 1)^2; a context takes enough NTT primes (below 2^50,
 * each = 1 mod 2^30) that their product exceeds 2^8 times the bound for its
 * longest product, multiplies the residues of a and b modulo all of them in
 * one batch (an RNS plan, ntt_plan_create_rns), and reconstructs each
 * coefficient mod M by the explicit CRT (the sum of the residues times
 * (Q / q_k)^-1 mod q_k times the tables (Q / q_k) mod M, less the
 * multiple of Q that a floating-point sum of the fractions gives), then
 * one quotient step by M's normalised top word.  The input reduction and the
 * reconstruction work on blocks of coefficients so that the tables
 * (t * words words each) stay in cache, and are shared among the
 * context's threads.
 *
 * Contexts, as plans (ntt.h): everything is allocated at creation, the
 * products allocate nothing.  A context may be used by one thread at a
 * time; different contexts are independent.  Memory: the RNS plan (about
 * 32 n bytes per prime on the CPU backends, n the power of two >= the
 * longest product), two residue buffers of t n words, the tables
 * (about 2 t words words).  Setup time: Q mod M word by word (t words
 * word operations), then each table entry (Q / q_k) mod M in O(words)
 * (O(t words) where the prime q_k divides M), and t^2 products for the
 * inverses.
 *
 * Errors are statuses of ntt.h; on failure nothing the caller owns has
 * been written, and ntt_error_detail says why.
 */
#ifndef NTT_BIGMOD_H
#define NTT_BIGMOD_H

#include "ntt.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Bits of the largest modulus a context takes; above it, or where the
   bound needs more than NTT_BIGMOD_MAX_PRIMES primes, NTT_EINVAL. */
#define NTT_BIGMOD_MAX_BITS 65536
#define NTT_BIGMOD_MAX_PRIMES 4096

typedef struct ntt_bigmod ntt_bigmod;

/* A context for products mod M (m: `words` words, m[words-1] != 0, M >= 2)
   of at most max_len coefficients (la + lb - 1 <= max_len, max_len >= 1,
   at most NTT_POLYMUL_MAX_LEN).  backend and opts as for a plan (opts may
   be NULL; its flags are ignored; opts->threads > 1 shares the
   transforms, the reduction and the reconstruction among that many
   threads, started here).  M is copied.  *ctx is NULL on failure.
   Errors: NTT_EINVAL (ctx or m NULL, words 0 or above
   NTT_BIGMOD_MAX_BITS / 64, m[words-1] == 0, M < 2, max_len 0 or too long,
   more than NTT_BIGMOD_MAX_PRIMES primes needed, which within the limits
   above never happens, bad options), NTT_EUNSUPPORTED (backend
   unavailable), NTT_ENOMEM (also, before any allocation, where the
   estimate of 48 t n bytes exceeds the machine's physical memory). */
NTT_API NTT_NODISCARD ntt_status ntt_bigmod_create(ntt_bigmod **ctx, const uint64_t *m,
                                                   size_t words, size_t max_len,
                                                   ntt_backend backend,
                                                   const ntt_plan_options *opts);

/* Frees everything the context owns; NULL is ignored. */
NTT_API void ntt_bigmod_destroy(ntt_bigmod *ctx);

/* The words per coefficient, the longest product, the NTT primes used. */
NTT_API size_t ntt_bigmod_words(const ntt_bigmod *ctx);
NTT_API size_t ntt_bigmod_max_len(const ntt_bigmod *ctx);
NTT_API size_t ntt_bigmod_primes(const ntt_bigmod *ctx);

/* c = a * b mod M: c holds (la + lb - 1) * words words, a la * words, b
   lb * words.  la, lb >= 1, la + lb - 1 <= the context's max_len.  c may
   not overlap a or b.  Every input coefficient is checked (< M) before
   anything is written.  Allocates nothing.
   Errors: NTT_EINVAL (NULL pointer, la or lb 0, la + lb - 1 above
   max_len, c overlapping a or b), NTT_ERANGE (a coefficient >= M). */
NTT_API NTT_NODISCARD ntt_status ntt_bigmod_mul(ntt_bigmod *ctx, uint64_t *c, const uint64_t *a,
                                                size_t la, const uint64_t *b, size_t lb);

/* One product without a context kept: creates one for la + lb - 1,
   multiplies, destroys it (so it allocates what ntt_bigmod_create does).
   The arguments and errors of ntt_bigmod_create and ntt_bigmod_mul. */
NTT_API NTT_NODISCARD ntt_status ntt_bigmod_polymul(uint64_t *c, const uint64_t *a, size_t la,
                                                    const uint64_t *b, size_t lb,
                                                    const uint64_t *m, size_t words,
                                                    ntt_backend backend);

#ifdef __cplusplus
}
#endif

#endif /* NTT_BIGMOD_H */
