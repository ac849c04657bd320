/*
 * Modular arithmetic on words, written once for every layer: the core and
 * the CPU backends (C17), the MPI and RNS modules, and the CUDA kernels
 * (nvcc, where every function is __host__ __device__).  Each function
 * states the ranges it accepts and returns (Kyber style); callers keep lazy
 * values inside those ranges.  The GPU's own forms (the FP64 products,
 * the NTT kernels' 64-bit conditional subtraction) live in
 * src/cuda/cuda_device_arith.cuh, which says why.
 *
 * Widths: the 32-bit forms need p < 2^30 (so 4p < 2^32), the 64-bit forms
 * p < 2^62 (so 4p < 2^64), except where a function says otherwise.
 * Where host and device compute one formula with different instructions
 * (the high products, the 32-bit conditional subtraction, the Shoup
 * companion), the function holds both behind __CUDA_ARCH__ and says why.
 */
#ifndef NTT_MODARITH_H
#define NTT_MODARITH_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" { /* the out-of-line helpers have C linkage in C++ files too */
#endif

/* The qualifier of every function below: inline everywhere, and callable
   from device code under nvcc.  (Host-only inline helpers elsewhere use
   NTT_INLINE.) */
#ifdef __CUDACC__
#define NTT_ARITH_FN static __host__ __device__ __forceinline__
#else
#define NTT_ARITH_FN static inline __attribute__((always_inline))
#endif
#define NTT_INLINE static inline __attribute__((always_inline))

typedef unsigned __int128 ntt_u128;

/* 2^52 - 1: the lanes of the AVX-512 IFMA multiply-adds. */
#define NTT_MASK52 (((uint64_t)1 << 52) - 1)

/* ---- high products ------------------------------------------------------ */

/* floor(a b / 2^32), floor(a b / 2^64): any a, b.  The device has one
   instruction for each (mul.hi); on the host the compilers make one
   multiply of the widened product. */
NTT_ARITH_FN uint32_t ntt_mulhi32(uint32_t a, uint32_t b)
{
#ifdef __CUDA_ARCH__
    return __umulhi(a, b);
#else
    return (uint32_t)(((uint64_t)a * b) >> 32);
#endif
}
NTT_ARITH_FN uint64_t ntt_mulhi64(uint64_t a, uint64_t b)
{
#ifdef __CUDA_ARCH__
    return __umul64hi(a, b);
#else
    return (uint64_t)(((ntt_u128)a * b) >> 64);
#endif
}

/* ---- conditional subtraction, addition, subtraction -------------------- */

/* x in [0, 2m) -> [0, m), for m <= 2^31 (32-bit) / m <= 2^63 (64-bit).
   Then x - m lies in [-m, m), so its sign bit tells whether to add m back.
   Host: an arithmetic-shift mask (GCC and Clang shift signed values
   arithmetically) vectorizes to four SSE2 instructions, where x >= m ? ..
   needs an emulated unsigned compare.  Device, 32 bits: below m the
   difference wraps above x, so min(x, x - m) is two instructions.  The
   64-bit form is the mask on the device too (the RNS kernels); the NTT
   kernels use their own select form (src/cuda, csub). */
NTT_ARITH_FN uint32_t ntt_csub32(uint32_t x, uint32_t m)
{
#ifdef __CUDA_ARCH__
    return min(x, x - m);
#else
    uint32_t d = x - m;
    return d + (m & (uint32_t)((int32_t)d >> 31));
#endif
}
NTT_ARITH_FN uint64_t ntt_csub64(uint64_t x, uint64_t m)
{
    uint64_t d = x - m;
    return d + (m & (uint64_t)((int64_t)d >> 63));
}

/* a + b mod p, a, b in [0, p), p < 2^63; result in [0, p). */
NTT_ARITH_FN uint64_t ntt_addmod(uint64_t a, uint64_t b, uint64_t p)
{
    uint64_t s = a + b;
    return s >= p ? s - p : s;
}
/* a - b mod p, a, b in [0, p), p < 2^64; result in [0, p). */
NTT_ARITH_FN uint64_t ntt_submod(uint64_t a, uint64_t b, uint64_t p)
{
    return a >= b ? a - b : a + p - b;
}

/* a b mod p in [0, p) for any p in [1, 2^64), any a, b.  Slow (a 128-bit
   division): for set-up code, oracles and the naive kinds. */
NTT_ARITH_FN uint64_t ntt_mulmod_slow(uint64_t a, uint64_t b, uint64_t p)
{
    return (uint64_t)(((ntt_u128)a * b) % p);
}

/* The same for p < 2^32 in [1, 2^32): one 64-bit division. */
NTT_ARITH_FN uint32_t ntt_mulmod_slow32(uint32_t a, uint32_t b, uint32_t p)
{
    return (uint32_t)(((uint64_t)a * b) % p);
}

/* Set-up helpers, host only (src/arith/modarith.c). */
/* a^e mod p in [0, p): any a, e, p >= 1 (p = 1 gives 0). */
uint64_t ntt_powmod(uint64_t a, uint64_t e, uint64_t p);
/* a^-1 mod p in [0, p): p > 1, gcd(a, p) = 1, any a. */
uint64_t ntt_invmod(uint64_t a, uint64_t p);

/* ---- Shoup: multiplication by a fixed w -------------------------------- */
/*
 * w in [0, p), w' = floor(w * 2^k / p) (k = 32 or 64).
 * For any y < 2^k: returns r == y*w (mod p) with r in [0, 2p).
 * 32-bit: p < 2^31; 64-bit: p < 2^63.
 */
NTT_ARITH_FN uint32_t ntt_shoup32(uint32_t y, uint32_t w, uint32_t wq, uint32_t p)
{
    uint32_t q = ntt_mulhi32(y, wq);
    return y * w - q * p;
}
NTT_ARITH_FN uint64_t ntt_shoup64(uint64_t y, uint64_t w, uint64_t wq, uint64_t p)
{
    return y * w - ntt_mulhi64(y, wq) * p;
}
/* ntt_shoup64 with np = -p mod 2^64 given: y w + q np is one multiply-add
   chain on the GPU, without the two instructions that negate q p. */
NTT_ARITH_FN uint64_t ntt_shoup64_np(uint64_t y, uint64_t w, uint64_t wq, uint64_t np)
{
    uint64_t q = ntt_mulhi64(y, wq);
    return y * w + q * np;
}
/* The companion w' of w; w < p, p < 2^31 (32-bit) or p < 2^63 (64-bit). */
NTT_ARITH_FN uint32_t ntt_shoup_pre32(uint32_t w, uint32_t p)
{
    return (uint32_t)(((uint64_t)w << 32) / p);
}
/* The 52-bit companion floor(w 2^52 / p) of the IFMA kernels, for w < p <
   2^52, from the 64-bit one wq = floor(w 2^64 / p): floor(floor(x) / 2^12)
   = floor(x / 2^12). */
NTT_ARITH_FN uint64_t ntt_shoup_pre52(uint64_t wq) { return wq >> 12; }

/* floor(w 2^64 / p) for w < p < 2^64 (device: p < 2^63).  The host
   divides once in 128 bits, out of line (modarith.c: set-up code, where
   an inlined division only grows its callers); the device has no such
   division, so it takes 64 steps of long division. */
uint64_t ntt_shoup_pre64_div(uint64_t w, uint64_t p);
NTT_ARITH_FN uint64_t ntt_shoup_pre64(uint64_t w, uint64_t p)
{
#ifdef __CUDA_ARCH__
    uint64_t r = w, q = 0;
    for (int b = 0; b < 64; b++) {
        r <<= 1;
        q <<= 1;
        if (r >= p) {
            r -= p;
            q |= 1;
        }
    }
    return q;
#else
    return ntt_shoup_pre64_div(w, p);
#endif
}

/* Host only: many companions for one p without divisions.  m =
   floor(2^128 / p) once, then floor(w 2^64 / p) = floor(w m / 2^64) + (0,
   1 or 2).  The 32-bit companion floor(w 2^32 / p) is that value >> 32.
   Needs 2 < p < 2^63, p odd; w in [0, p). */
typedef struct { uint64_t p, mhi, mlo; } ntt_shoup_ctx;
void ntt_shoup_ctx_init(ntt_shoup_ctx *c, uint64_t p);
NTT_INLINE uint64_t ntt_shoup_pre_fast(const ntt_shoup_ctx *c, uint64_t w)
{
    uint64_t q = w * c->mhi + ntt_mulhi64(w, c->mlo);
    uint64_t r = (uint64_t)0 - q * c->p; /* w 2^64 - q p, which is < 3p */
    while (r >= c->p) {
        r -= c->p;
        q++;
    }
    return q;
}

/* ---- Montgomery (REDC with -p^-1) ------------------------------------- */
/*
 * R = 2^32 (or 2^64), pinv = -p^-1 mod R, p odd.
 * REDC(T) for T < p*R returns T/R mod p in [0, 2p).
 * ntt_mont32(a, b) = REDC(a*b) needs a*b < p*2^32, e.g. a < 4p, b < p when
 * p < 2^30; ntt_mont64 likewise with p < 2^63.
 * To the form: ntt_mont(a, R^2 mod p) = a R mod p (in [0, 2p)); from it:
 * ntt_redc(a) = a R^-1 mod p (a < p R).
 */
NTT_ARITH_FN uint32_t ntt_redc32(uint64_t t, uint32_t p, uint32_t pinv)
{
    uint32_t m = (uint32_t)t * pinv;
    return (uint32_t)((t + (uint64_t)m * p) >> 32);
}
NTT_ARITH_FN uint32_t ntt_mont32(uint32_t a, uint32_t b, uint32_t p, uint32_t pinv)
{
    return ntt_redc32((uint64_t)a * b, p, pinv);
}
NTT_ARITH_FN uint64_t ntt_redc64(ntt_u128 t, uint64_t p, uint64_t pinv)
{
    uint64_t m = (uint64_t)t * pinv;
    /* t + m*p < 2^128 because t < p*2^64 and m*p < p*2^64, p < 2^63. */
    return (uint64_t)((t + (ntt_u128)m * p) >> 64);
}
NTT_ARITH_FN uint64_t ntt_mont64(uint64_t a, uint64_t b, uint64_t p, uint64_t pinv)
{
    return ntt_redc64((ntt_u128)a * b, p, pinv);
}
/* -p^-1 mod 2^64 / 2^32 / 2^52 for odd p (Newton iteration: each step
   doubles the correct low bits). */
NTT_ARITH_FN uint64_t ntt_mont_pinv64(uint64_t p)
{
    uint64_t x = p; /* p*p == 1 mod 8: 3 correct bits */
    for (int i = 0; i < 5; i++) x *= 2 - p * x;
    return (uint64_t)0 - x;
}
NTT_ARITH_FN uint32_t ntt_mont_pinv32(uint32_t p) { return (uint32_t)ntt_mont_pinv64(p); }
NTT_ARITH_FN uint64_t ntt_mont_pinv52(uint64_t p) { return ntt_mont_pinv64(p) & NTT_MASK52; }

/* ---- signed Montgomery (with +p^-1), the GPU kernels' form ------------- */
/*
 * pinv = p^-1 mod R (R = 2^32 or 2^64), p odd, p < R/4.  For a b < p R:
 * with m = lo(a b) pinv, m p and a b agree in their low k bits, so
 * t = hi(a b) - hi(m p) = (a b - m p) / R exactly, in (-p, p) as a
 * wrapped k-bit value: two high products and no carry out of a 2k-bit
 * sum, which is why the GPU uses this form.  t + p lies in (0, 2p);
 * t >= p ? t + p : t (a wrapped negative t lies above p) in [0, p).
 * The functions stop at t: the GPU kernels add p where p is a load from
 * their constants, which lets nvcc fold a following csub(t + p, p) into
 * min(t, t + p); given p as an argument here, it reassociates the sum
 * first and the fold is lost (one more instruction per product).
 *   ntt_smont_t*:   t for a, b with a b < p R: a b R^-1 mod p.
 *   ntt_smont_w_t*: t for the product by a fixed w held as W = w R mod p
 *                   with W' = W pinv mod R: y W R^-1 = y w mod p, for any
 *                   y < R.
 */
NTT_ARITH_FN uint32_t ntt_smont_t32(uint32_t a, uint32_t b, uint32_t p, uint32_t pinv)
{
    uint32_t lo = a * b;
    return ntt_mulhi32(a, b) - ntt_mulhi32(lo * pinv, p);
}
NTT_ARITH_FN uint64_t ntt_smont_t64(uint64_t a, uint64_t b, uint64_t p, uint64_t pinv)
{
    uint64_t lo = a * b;
    return ntt_mulhi64(a, b) - ntt_mulhi64(lo * pinv, p);
}
NTT_ARITH_FN uint32_t ntt_smont_w_t32(uint32_t y, uint32_t W, uint32_t Wq, uint32_t p)
{
    uint32_t m = y * Wq;
    return ntt_mulhi32(y, W) - ntt_mulhi32(m, p);
}
NTT_ARITH_FN uint64_t ntt_smont_w_t64(uint64_t y, uint64_t W, uint64_t Wq, uint64_t p)
{
    uint64_t m = y * Wq;
    return ntt_mulhi64(y, W) - ntt_mulhi64(m, p);
}

/* ---- Barrett ------------------------------------------------------------ */
/*
 * One word: mu = floor(2^64 / p), 1 < p < 2^63.  For any x < 2^64 returns
 * x mod p in [0, 2p): q = floor(x*mu / 2^64) is floor(x/p) or one less.
 * ntt_barrett32: the same for p < 2^31, so that [0, 2p) fits 32 bits.
 */
NTT_ARITH_FN uint64_t ntt_barrett_w64(uint64_t x, uint64_t mu, uint64_t p)
{
    return x - ntt_mulhi64(x, mu) * p;
}
/* Written out rather than as (uint32_t)ntt_barrett_w64(): so GCC narrows
   the product q p and the subtraction to 32 bits, in the vectorized loops
   too. */
NTT_ARITH_FN uint32_t ntt_barrett32(uint64_t x, uint64_t mu, uint32_t p)
{
    uint64_t q = ntt_mulhi64(x, mu);
    return (uint32_t)(x - q * p);
}
/*
 * 64-bit: k = bit length of p (p < 2^62), mu = floor(2^(2k) / p) < 2^(k+1).
 * For x < p^2 returns x mod p in [0, 3p) (HAC 14.42: q is at most two short).
 */
NTT_ARITH_FN uint64_t ntt_barrett64(ntt_u128 x, uint64_t mu, unsigned k, uint64_t p)
{
    uint64_t x1 = (uint64_t)(x >> (k - 1));
    uint64_t q = (uint64_t)(((ntt_u128)x1 * mu) >> (k + 1));
    return (uint64_t)x - q * p;
}

#ifdef __cplusplus
}
#endif

#endif /* NTT_MODARITH_H */
