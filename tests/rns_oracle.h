/* The exact reference of the RNS tests (test_rns, test_rns_cuda): the
   operations of ntt_rns.h recomputed from their definitions with GMP, the
   transforms by scalar plans of ntt.h, and the random inputs.  See
   test_rns.c for what each oracle checks. */
#ifndef NTT_TESTS_RNS_ORACLE_H
#define NTT_TESTS_RNS_ORACLE_H

#include "test_common.h"
#include "ntt_rns.h"

#include <gmp.h>
#include <stdbool.h>

/* Prime kinds of a configuration. */
enum { PR_TOP, PR_50, PR_MIXED };

/* count distinct NTT primes for 2N (none in avoid[0 .. navoid)), by kind:
   the largest below 2^61, the largest below 2^50, or random lengths
   (2N < 2^bits) with a 61-bit one now and then. */
void make_primes(uint64_t *out, size_t count, size_t n, int kind, const uint64_t *avoid,
                 size_t navoid);

typedef struct {
    size_t n, nl, nq, np, dnum, alpha;
    const uint64_t *primes;
    ntt_plan **plans; /* scalar, negacyclic, one per limb */
} oracle;

void oracle_init(oracle *o, const ntt_rns *ctx);
void oracle_free(oracle *o);
void o_ntt(const oracle *o, size_t limb, uint64_t *a, bool inverse);

/* Limb k of a polynomial at level l (extended: Q_l then P). */
static inline size_t qp(const oracle *o, size_t l, size_t k) { return k <= l ? k : o->nq + k - l - 1; }

/* A base B = b_0 .. b_{s-1} with B, B/b_i and (B/b_i)^-1 mod b_i. */
typedef struct {
    size_t s;
    const uint64_t *b;
    mpz_t B, *hat, *inv;
} bigbase;

void bigbase_init(bigbase *z, const uint64_t *b, size_t s);
void bigbase_clear(bigbase *z);
/* S[k] = sum_i [x_i[k] inv_i]_{b_i} hat_i (checked to be X + u B, 0 <= u < s). */
void big_conv(mpz_t *S, const bigbase *z, const uint64_t *x, size_t n, const char *what);
void big_crt(mpz_t *X, const bigbase *z, const uint64_t *x, size_t n);
mpz_t *bigvec(size_t n);
void bigvec_free(mpz_t *v, size_t n);
void big_reduce(uint64_t *row, mpz_t *v, size_t n, uint64_t p);

/* The operations (evaluation form in and out, layouts of ntt_rns.h). */
void ora_modup(const oracle *o, size_t l, size_t j, const uint64_t *in, uint64_t *out);
void ora_moddown(const oracle *o, size_t l, const uint64_t *in, uint64_t *out);
void ora_rescale(const oracle *o, size_t l, const uint64_t *in, uint64_t *out);
void ora_inner(const oracle *o, size_t l, const uint64_t *ext, const uint64_t *key,
               uint64_t *acc0, uint64_t *acc1);
void ora_keyswitch(const oracle *o, size_t l, const uint64_t *in, const uint64_t *key,
                   uint64_t *out0, uint64_t *out1);

/* Random residues of limbs rows (of an extended polynomial at level l when
   ext); mode 1: every word p - 1, mode 2: many near p - 1. */
void fill_poly(uint64_t *a, const oracle *o, size_t limbs, size_t l, bool ext, int mode);
void fill_key(uint64_t *key, const oracle *o, int mode);

#endif
