/*
 * The per-element formulas of the RNS stages, written once: the CPU kernels
 * (kernels.c, kernels_ifma.c) and the CUDA kernels (rns_cuda_kernels.cu)
 * compute exactly these, so that every backend gives the same words.  Under
 * nvcc RNS_FN makes them __host__ __device__ and the high product is
 * __umul64hi; the three primitives below are core/arith.h's ntt_mulhi64,
 * ntt_csub64 and ntt_shoup64 again, because those are host-only.  Ranges
 * are stated Kyber style; every prime is below 2^61 (ntt_rns.h), which the
 * bounds below use.
 */
#ifndef NTT_RNS_ARITH_H
#define NTT_RNS_ARITH_H

#include "../core/arith.h"

#include <stdint.h>

#ifdef __CUDACC__
#define RNS_FN static __host__ __device__ __forceinline__
#else
#define RNS_FN static inline __attribute__((always_inline))
#endif

/* Products of two residues are below 2^122, so 63 of them plus a residue
   fit in 128 bits: a sum is reduced at least every RNS_CHUNK terms. */
#define RNS_CHUNK 63

/* What reducing modulo one prime needs. */
typedef struct rns_prime {
    uint64_t p;
    uint64_t r64, r64q; /* 2^64 mod p and its Shoup companion */
    uint64_t bar;       /* floor(2^64 / p) */
} rns_prime;

RNS_FN uint64_t rns_mulhi(uint64_t a, uint64_t b)
{
#ifdef __CUDA_ARCH__
    return __umul64hi(a, b);
#else
    return (uint64_t)(((ntt_u128)a * b) >> 64);
#endif
}

/* x in [0, 2m) -> [0, m), m < 2^63. */
RNS_FN uint64_t rns_csub(uint64_t x, uint64_t m)
{
    const uint64_t d = x - m;
    return d + (m & (uint64_t)((int64_t)d >> 63));
}

/* Shoup: y w mod p in [0, 2p) for any y < 2^64, w < p < 2^63,
   wq = floor(w 2^64 / p). */
RNS_FN uint64_t rns_shoup(uint64_t y, uint64_t w, uint64_t wq, uint64_t p)
{
    return y * w - rns_mulhi(y, wq) * p;
}

/* [x]_p for any 64-bit x: q = floor(x bar / 2^64) is floor(x/p) or one
   less, so x - q p is in [0, 2p). */
RNS_FN uint64_t rns_reduce64(uint64_t x, const rns_prime *m)
{
    const uint64_t r = x - rns_mulhi(x, m->bar) * m->p;
    return rns_csub(r, m->p);
}

/* [s]_p for any s < 2^128: s = hi 2^64 + lo; hi (2^64 mod p) by Shoup and
   lo by Barrett, each in [0, 2p), so their sum is below 4p < 2^63. */
RNS_FN uint64_t rns_reduce128(ntt_u128 s, const rns_prime *m)
{
    const uint64_t hi = (uint64_t)(s >> 64), lo = (uint64_t)s, p = m->p;
    const uint64_t a = rns_shoup(hi, m->r64, m->r64q, p);
    const uint64_t b = lo - rns_mulhi(lo, m->bar) * p;
    return rns_csub(rns_csub(a + b, 2 * p), p);
}

/* [x w]_p for x < 2^64, w in [0, p), wq = floor(w 2^64 / p). */
RNS_FN uint64_t rns_mulc(uint64_t x, uint64_t w, uint64_t wq, uint64_t p)
{
    return rns_csub(rns_shoup(x, w, wq, p), p);
}

/* modDown's and rescale's last step: [(x - t) w]_p for x in [0, 2p), t in
   [0, p); x + p - t is in (0, 3p). */
RNS_FN uint64_t rns_subc(uint64_t x, uint64_t t, uint64_t w, uint64_t wq, uint64_t p)
{
    return rns_mulc(x + p - t, w, wq, p);
}

/* One term of a base conversion's sum: the 128-bit product y w, y < b_i
   (a source prime), w < c_j (the target), below 2^122. */
RNS_FN ntt_u128 rns_term(uint64_t y, uint64_t w) { return (ntt_u128)y * w; }

#endif /* NTT_RNS_ARITH_H */
