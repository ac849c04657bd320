/* Garner's CRT of ntt_polymul_mod's multi-prime path (crt.c): the
   constants of one prime set and output modulus, the kernels that turn
   residues into coefficients mod p (scalar here, AVX-512 in
   src/cpu/x86/crt_avx512.c; the registry says which a backend runs,
   ntt_backend_garner), and the blocked, threaded driver.  Not installed. */
#ifndef NTT_CORE_CRT_H
#define NTT_CORE_CRT_H

#include "../pool/pool.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* At most this many primes (NTT_CRT_SET_MAX, registry.h, is checked
   against it). */
#define NTT_GARNER_MAX 4

/* Mixed radix: x = y0 + q0 (y1 + q1 (y2 + ...)), y_k = ((r_k - y_0) /
   q_0 - y_1) / q_1 ... mod q_k; then c = sum y_k (q_0 .. q_{k-1} mod p)
   mod p.  The primes descend and share their bit length (so y_j < q_j <
   2 q_k for j < k), each below 2^62; p < 2^63. */
typedef struct ntt_garner {
    size_t t;
    uint64_t p;
    uint64_t q[NTT_GARNER_MAX];
    uint64_t inv[NTT_GARNER_MAX][NTT_GARNER_MAX];  /* [j][k]: q_j^-1 mod q_k, j < k */
    uint64_t invq[NTT_GARNER_MAX][NTT_GARNER_MAX]; /* their Shoup companions */
    uint64_t qp[NTT_GARNER_MAX], qpq[NTT_GARNER_MAX]; /* q_0 .. q_{k-1} mod p */
    /* The IFMA kernel's forms (crt_ifma.c), where every q < 2^52 (ifma_q):
       W = w 2^52 mod q, W' = W q^-1 mod 2^52 for each inv; for the qp too
       where p is odd and below 2^52 (ifma_p). */
    bool ifma_q, ifma_p;
    uint64_t iw[NTT_GARNER_MAX][NTT_GARNER_MAX], iwq[NTT_GARNER_MAX][NTT_GARNER_MAX];
    uint64_t pw[NTT_GARNER_MAX], pwq[NTT_GARNER_MAX];
} ntt_garner;

/* g for the t (1 .. NTT_GARNER_MAX) primes q and the modulus p. */
void ntt_garner_init(ntt_garner *g, const uint64_t *q, size_t t, uint64_t p);

/* c[i] for i < len from the residues r[k][i] < q_k (k < g->t); r[0] may be
   c itself (the kernels read each r[0][i] before they write c[i]), no
   other r[k] may overlap c.  Every kernel gives the same words. */
typedef void (*ntt_garner_fn)(uint64_t *c, const uint64_t *const *r, size_t len,
                              const ntt_garner *g);

void ntt_garner_scalar(uint64_t *c, const uint64_t *const *r, size_t len, const ntt_garner *g);
#ifdef NTT_HAVE_AVX512
/* Eight coefficients per vector (AVX-512 F and DQ). */
void ntt_garner_avx512(uint64_t *c, const uint64_t *const *r, size_t len, const ntt_garner *g);
#endif
#ifdef NTT_HAVE_IFMA
/* The same with the primes' products on IFMA's 52-bit multiply-adds;
   only for g->ifma_q. */
void ntt_garner_ifma(uint64_t *c, const uint64_t *const *r, size_t len, const ntt_garner *g);
#endif

/* dst[i] = src[i] mod q for i < len, any src[i], q < 2^62; dst may be
   src. */
typedef void (*ntt_reduce_fn)(uint64_t *dst, const uint64_t *src, size_t len, uint64_t q);
void ntt_reduce_scalar(uint64_t *dst, const uint64_t *src, size_t len, uint64_t q);
#ifdef NTT_HAVE_AVX512
void ntt_reduce_avx512(uint64_t *dst, const uint64_t *src, size_t len, uint64_t q);
#endif

/* The kernels of one CRT product, as the registry picks them for a
   backend and a set (ntt_backend_crt_kernels). */
typedef struct {
    ntt_garner_fn garner;
    ntt_reduce_fn reduce;
} ntt_crt_kernels;

/* fn over [0, len) in blocks of a few thousand coefficients, shared among
   the threads of pool (NULL: the caller alone). */
void ntt_garner_run(ntt_pool *pool, ntt_garner_fn fn, uint64_t *c, const uint64_t *const *r,
                    size_t len, const ntt_garner *g);

#endif /* NTT_CORE_CRT_H */
