/*
 * The per-element formulas of the RNS stages, written once: the CPU kernels
 * (kernels.c, kernels_ifma.c) and the CUDA kernels (rns_cuda_kernels.cu)
 * compute exactly these, so that every backend gives the same words.  Their
 * primitives (high product, conditional subtraction, Shoup) are the
 * arithmetic layer's (src/arith/modarith.h); under nvcc RNS_FN makes the
 * formulas __host__ __device__ as that layer's are.  Ranges are stated
 * Kyber style; every prime is below 2^61 (ntt_rns.h), which the bounds
 * below use.
 */
#ifndef NTT_RNS_ARITH_H
#define NTT_RNS_ARITH_H

#include "../arith/modarith.h"

#include <stdint.h>

#define RNS_FN NTT_ARITH_FN

/* Products of two residues are below 2^122, so 63 of them plus a residue
   fit in 128 bits: a sum is reduced at least every RNS_CHUNK terms. */
#define RNS_CHUNK 63

/* What reducing modulo one prime needs. */
typedef struct rns_prime {
    uint64_t p;
    uint64_t r64, r64q; /* 2^64 mod p and its Shoup companion */
    uint64_t bar;       /* floor(2^64 / p) */
} rns_prime;

/* [x]_p for any 64-bit x: Barrett's x - q p is in [0, 2p). */
RNS_FN uint64_t rns_reduce64(uint64_t x, const rns_prime *m)
{
    return ntt_csub64(ntt_barrett_w64(x, m->bar, m->p), m->p);
}

/* [s]_p for any s < 2^128: s = hi 2^64 + lo; hi (2^64 mod p) by Shoup and
   lo by Barrett, each in [0, 2p), so their sum is below 4p < 2^63. */
RNS_FN uint64_t rns_reduce128(ntt_u128 s, const rns_prime *m)
{
    const uint64_t hi = (uint64_t)(s >> 64), lo = (uint64_t)s, p = m->p;
    const uint64_t a = ntt_shoup64(hi, m->r64, m->r64q, p);
    const uint64_t b = ntt_barrett_w64(lo, m->bar, p);
    return ntt_csub64(ntt_csub64(a + b, 2 * p), p);
}

/* [x w]_p for x < 2^64, w in [0, p), wq = floor(w 2^64 / p). */
RNS_FN uint64_t rns_mulc(uint64_t x, uint64_t w, uint64_t wq, uint64_t p)
{
    return ntt_csub64(ntt_shoup64(x, w, wq, p), p);
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
