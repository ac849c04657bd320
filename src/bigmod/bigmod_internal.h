/* The big modulus's context and kernels (bigmod.c, bigmod_ifma.c).  Not
   installed. */
#ifndef NTT_BIGMOD_INTERNAL_H
#define NTT_BIGMOD_INTERNAL_H

#include "ntt_bigmod.h"
#include "../pool/pool.h"

#include <stdbool.h>

/* Coefficients per block of the reduction and the reconstruction: the
   tables' rows are read once per block, the block's words stay in L1
   meanwhile; eight are one vector of the IFMA kernels. */
#define BLOCK 8

/* The CRT's float estimate of the multiple of Q needs the product below
   Q / 2^MARGIN_BITS (see crt_block). */
#define MARGIN_BITS 8

/* The IFMA reconstruction sums up to t + 1 terms below 2^52 + 2^50 in a
   64-bit lane: at most this many primes. */
#define IFMA_MAX_PRIMES 3000

struct ntt_bigmod {
    size_t w, max_len, n, t;
    unsigned s;         /* M' = M 2^s has its top bit set */
    uint64_t *m, *mn;   /* M, M' (w words) */
    uint64_t *md;       /* (M - Q mod M) mod M, times 2^s (w words) */
    uint64_t *q, *oneq, *r64, *r64q, *inv, *invq; /* per prime */
    double *qinv;       /* 1 / q_k */
    uint64_t *pt;       /* [k][j]: 2^(64 j) mod q_k, t x w */
    uint64_t *ct;       /* [j][k]: word j of ((Q / q_k) mod M) 2^s, w x t */
    uint64_t *ra, *rb;  /* residues: [k][i], t x n each */
    uint64_t *scratch;  /* per thread */
    size_t scratch_words;
    ntt_plan *plan;
    ntt_pool *pool;
    int threads;
    /* The IFMA kernels' tables (bigmod_ifma.c), where they run (ifma):
       tp = t rounded up to 8; li = 52-bit limbs of a coefficient, lc = of
       a table entry, rounded up to 8. */
    bool ifma;
    size_t tp, li, lcp;
    uint64_t *p52t;     /* [l][k]: 2^(52 l) mod q_k, li x tp (0 past t) */
    uint64_t *qv, *oneqv, *r52v, *r52qv; /* per prime, tp (padded by q_0) */
    uint64_t *iw, *iwq; /* inv in mul52's form */
    uint64_t *cl;       /* [k][l]: 52-bit limbs of C'_k, and of md' as row t: (t+1) x lcp */
};

/* y (w + 1 words, y < 2^64 M') -> y mod M' in y[0 .. w), y[w] = 0. */
void ntt_bigmod_reduce_norm(uint64_t *y, const uint64_t *mn, size_t w);

#ifdef NTT_HAVE_IFMA
/* Residues of coefficients [i0, i1) (i1 - i0 <= BLOCK) of x into r[k][i]. */
void ntt_bigmod_reduce_ifma(const ntt_bigmod *B, uint64_t *r, const uint64_t *x, size_t i0,
                            size_t i1, uint64_t *scr);
/* Coefficients [i0, i1) (i1 - i0 <= BLOCK) of the product into c. */
void ntt_bigmod_crt_ifma(const ntt_bigmod *B, uint64_t *c, size_t i0, size_t i1, uint64_t *scr);
#endif

#endif /* NTT_BIGMOD_INTERNAL_H */
