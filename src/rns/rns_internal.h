/* The RNS context's layout and the element-wise kernel interface.  Not
   installed. */
#ifndef NTT_RNS_INTERNAL_H
#define NTT_RNS_INTERNAL_H

#include "ntt_rns.h"
#include "rns_arith.h"
#include "../core/internal.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Coefficients per block of a base conversion: the block's y values (s
   rows) stay in L1/L2 while every target is summed from them. */
#define RNS_BLOCK 128

/* One base conversion, as the kernels see it (coefficient form). */
typedef struct rns_conv_job {
    size_t s, t;                   /* source and target counts */
    const uint64_t *const *x;      /* s source rows, values in [0, b_i) */
    const rns_prime *const *src;   /* s */
    const uint64_t *inv, *invq;    /* s: (B/b_i)^-1 mod b_i, Shoup companions */
    uint64_t *const *out;          /* t target rows */
    const rns_prime *const *dst;   /* t */
    const uint64_t *const *w;      /* t rows of s words: (B/b_i) mod c_j */
    const void *prep;              /* what the kernels' prepare made of it */
    bool stream;                   /* outputs are read back much later: the
                                      kernels may store past the caches */
} rns_conv_job;

/* Scratch for a kernel's prepare: enough for any job of the context. */
static inline size_t rns_prep_words(size_t nlimb) { return 4 * nlimb + 2 * nlimb * nlimb; }

/* The element-wise work, one instruction set's version.  Every entry gives
   the formulas of rns_arith.h exactly. */
typedef struct rns_kernels {
    const char *name;
    /* Optional: turns the job's constants into the kernels' form, once per
       conversion (before its blocks run, on one thread); prep holds
       rns_prep_words(nlimb) words. */
    void (*prepare)(const rns_conv_job *job, uint64_t *prep);
    /* out[j][k] = [sum_i [x_i[k] inv_i]_{b_i} w_j[i]]_{c_j} for k in
       [k0, k1), k1 - k0 <= RNS_BLOCK; y: s * RNS_BLOCK words of scratch. */
    void (*conv)(const rns_conv_job *job, size_t k0, size_t k1, uint64_t *y);
    /* out[k] = rns_subc(x[k], t[k], w, wq); out may be x or t. */
    void (*subc)(uint64_t *out, const uint64_t *x, const uint64_t *t, size_t len, uint64_t w,
                 uint64_t wq, const rns_prime *m);
    /* out[k] = [x[k]]_p for 64-bit x[k]. */
    void (*reduce)(uint64_t *out, const uint64_t *x, size_t len, const rns_prime *m);
    /* acc_c[k] = [sum_{j < cnt} e_j[k] key_{j,c}[k]]_p, c = 0, 1, for k <
       len: e[j], k0[j], k1[j] are the rows of term j. */
    void (*dot2)(uint64_t *acc0, uint64_t *acc1, const uint64_t *const *e,
                 const uint64_t *const *k0, const uint64_t *const *k1, size_t cnt, size_t len,
                 const rns_prime *m);
} rns_kernels;

extern const rns_kernels ntt_rns_kernels_portable;
#ifdef NTT_RNS_IFMA
/* kernels_ifma.c: NULL when the CPU lacks AVX-512 IFMA.  A context uses
   them only where every prime is at least 2^RNS_IFMA_MIN_BITS and N >= 8. */
const rns_kernels *ntt_rns_kernels_ifma(void);
#define RNS_IFMA_MIN_BITS 30
#endif

/* The constants of a conversion from a base B of s limbs to any limb of
   the context: the target rows of limbs in B are not used. */
typedef struct rns_conv_tab {
    size_t s;
    uint64_t *inv, *invq; /* s */
    uint64_t *w;          /* nlimb rows of s: w[t*s + i] = (B/b_i) mod prime_t */
} rns_conv_tab;

struct ntt_rns {
    size_t n;
    size_t nq, np, nlimb;    /* L+1, K, L+1+K */
    size_t dnum, alpha;
    ntt_backend backend;     /* resolved; the plans run plan_backend */
    ntt_backend plan_backend;
    int threads;
    struct ntt_pool *pool;   /* threads > 1: the context's threads (src/pool) */
    const rns_kernels *K;
    uint64_t *primes;        /* nlimb */
    rns_prime *pm;           /* nlimb */
    ntt_plan **plans;        /* nlimb negacyclic plans, one prime each */

    /* modUp: shape[l] converts from the digit that is last at level l
       (digit l / alpha, (l % alpha) + 1 limbs); the full digit j is
       shape[j*alpha + alpha - 1]. */
    rns_conv_tab *shape;     /* nq */
    /* modDown: from P. */
    rns_conv_tab pconv;
    uint64_t *pinv, *pinvq;  /* nq: P^-1 mod q_i */
    /* rescale: qlinv[l*nq + i] = q_l^-1 mod q_i, i < l. */
    uint64_t *qlinv, *qlinvq;
    /* The generic conversion's table and its two prime lists (nlimb words
       in all), filled per call. */
    rns_conv_tab gen;
    uint64_t *lists;

    /* Scratch (words): X alpha*n (a digit or one limb in coefficient form),
       T dnum*nlimb*n (conversion outputs: the key switch's digits, each
       laid out as an extended polynomial), PP 2*np*n (P parts), and per
       thread n + nlimb*RNS_BLOCK. */
    uint64_t *X, *T, *PP, *thr;
    size_t thr_words;
    uint64_t *prep;          /* rns_prep_words(nlimb) */
    /* Pointer arrays of a conversion job (targets and sources). */
    const uint64_t **jx, **jw;
    uint64_t **jout;
    const rns_prime **jsrc, **jdst;
    uint64_t *jinv, *jinvq;

    /* CUDA contexts (backend NTT_BACKEND_CUDA): the device state
       (rns_cuda.h); such contexts have no plans, kernels or host scratch
       above, only the constants. */
    struct rns_cuda *dev;
};

/* context.c: the constants of the conversion from the base b[0 .. s) to the
   primes tgt[0 .. t): inv[i] = (B/b_i)^-1 mod b_i, invq[i] its Shoup
   companion, and w[j*s + i] = (B/b_i) mod tgt[j].  pre: 2s + 2 words of
   scratch. */
void ntt_rns_conv_consts(const uint64_t *b, size_t s, const uint64_t *tgt, size_t t,
                         uint64_t *inv, uint64_t *invq, uint64_t *w, uint64_t *pre);

/* args.c: the argument checks of the calls, host and device forms alike
   (all but the inputs' range checks); NTT_OK or NTT_EINVAL. */
size_t ntt_rns_key_limbs(const ntt_rns *c); /* 2 dnum (L+1+K) */
ntt_status ntt_rns_args_transform(const ntt_rns *c, size_t n, const size_t *limbs, size_t count,
                                  const uint64_t *a);
ntt_status ntt_rns_args_fastbconv(const ntt_rns *c, size_t n, const size_t *from,
                                  size_t from_count, const uint64_t *in, const size_t *to,
                                  size_t to_count, const uint64_t *out);
ntt_status ntt_rns_args_modup(const ntt_rns *c, size_t n, size_t level, size_t digit,
                              const uint64_t *in, size_t in_limbs, const uint64_t *out,
                              size_t out_limbs);
ntt_status ntt_rns_args_moddown(const ntt_rns *c, size_t n, size_t level, const uint64_t *in,
                                size_t in_limbs, const uint64_t *out, size_t out_limbs);
ntt_status ntt_rns_args_rescale(const ntt_rns *c, size_t n, size_t level, const uint64_t *in,
                                size_t in_limbs, const uint64_t *out, size_t out_limbs);
ntt_status ntt_rns_args_inner(const ntt_rns *c, size_t n, size_t level, const uint64_t *ext,
                              size_t ext_limbs, const uint64_t *key, size_t key_limbs,
                              const uint64_t *acc0, const uint64_t *acc1, size_t acc_limbs);
ntt_status ntt_rns_args_keyswitch(const ntt_rns *c, size_t n, size_t level, const uint64_t *in,
                                  size_t in_limbs, const uint64_t *key, size_t key_limbs,
                                  const uint64_t *out0, const uint64_t *out1, size_t out_limbs);

#endif /* NTT_RNS_INTERNAL_H */
