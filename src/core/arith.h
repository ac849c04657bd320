/*
 * Inline modular arithmetic.  Each function states the ranges it accepts and
 * returns (Kyber style); callers keep lazy values inside those ranges.
 *
 * Widths: the 32-bit forms need p < 2^30 (so 4p < 2^32), the 64-bit forms
 * p < 2^62 (so 4p < 2^64), except where a function says otherwise.
 */
#ifndef NTT_ARITH_H
#define NTT_ARITH_H

#include <stdint.h>

typedef unsigned __int128 ntt_u128;

#define NTT_INLINE static inline __attribute__((always_inline))

/* ---- helpers ---------------------------------------------------------- */

/* x in [0, 2m) -> [0, m), for m <= 2^31 (32-bit) / 2^63 (64-bit).
   Then x - m lies in [-m, m), so its sign bit tells whether to add m back.
   An arithmetic-shift mask (GCC and Clang shift signed values
   arithmetically) vectorizes to four SSE2 instructions, where x >= m ? ..
   needs an emulated unsigned compare. */
NTT_INLINE uint32_t ntt_csub32(uint32_t x, uint32_t m)
{
    uint32_t d = x - m;
    return d + (m & (uint32_t)((int32_t)d >> 31));
}
NTT_INLINE uint64_t ntt_csub64(uint64_t x, uint64_t m)
{
    uint64_t d = x - m;
    return d + (m & (uint64_t)((int64_t)d >> 63));
}

NTT_INLINE uint64_t ntt_mulhi64(uint64_t a, uint64_t b)
{
    return (uint64_t)(((ntt_u128)a * b) >> 64);
}

/* a*b mod p for any p in [1, 2^64), any a, b.  Slow (128-bit division):
   for set-up code and oracles only. */
NTT_INLINE uint64_t ntt_mulmod_slow(uint64_t a, uint64_t b, uint64_t p)
{
    return (uint64_t)(((ntt_u128)a * b) % p);
}

/* a + b mod p, a, b in [0, p), p < 2^63. */
NTT_INLINE uint64_t ntt_addmod(uint64_t a, uint64_t b, uint64_t p)
{
    uint64_t s = a + b;
    return s >= p ? s - p : s;
}
/* a - b mod p, a, b in [0, p). */
NTT_INLINE uint64_t ntt_submod(uint64_t a, uint64_t b, uint64_t p)
{
    return a >= b ? a - b : a + p - b;
}

uint64_t ntt_powmod(uint64_t a, uint64_t e, uint64_t p); /* any p >= 1 */
uint64_t ntt_invmod(uint64_t a, uint64_t p);            /* gcd(a,p)=1, p>1 */

/* ---- Shoup: multiplication by a fixed w -------------------------------- */
/*
 * w in [0, p), w' = floor(w * 2^k / p) (k = 32 or 64).
 * For any y < 2^k: returns r == y*w (mod p) with r in [0, 2p).
 * The 64-bit form is valid for any p < 2^63.
 */
NTT_INLINE uint32_t ntt_shoup32(uint32_t y, uint32_t w, uint32_t wq, uint32_t p)
{
    uint32_t q = (uint32_t)(((uint64_t)y * wq) >> 32);
    return y * w - q * p;
}
NTT_INLINE uint64_t ntt_shoup64(uint64_t y, uint64_t w, uint64_t wq, uint64_t p)
{
    uint64_t q = ntt_mulhi64(y, wq);
    return y * w - q * p;
}
/* The companion w' of w; p < 2^31 (32-bit) or p < 2^63 (64-bit), w < p. */
NTT_INLINE uint32_t ntt_shoup_pre32(uint32_t w, uint32_t p)
{
    return (uint32_t)(((uint64_t)w << 32) / p);
}
uint64_t ntt_shoup_pre64(uint64_t w, uint64_t p); /* one 128-bit division */

/* Many companions for one p without divisions: m = floor(2^128 / p) once,
   then floor(w 2^64 / p) = floor(w m / 2^64) + (0, 1 or 2).  The 32-bit
   companion floor(w 2^32 / p) is that value >> 32.  Needs 2 < p < 2^63. */
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

/* ---- Montgomery --------------------------------------------------------- */
/*
 * R = 2^32 (or 2^64), pinv = -p^-1 mod R, p odd.
 * REDC(T) for T < p*R returns T/R mod p in [0, 2p).
 * ntt_mont32(a, b) = REDC(a*b) needs a*b < p*2^32, e.g. a < 4p, b < p when
 * p < 2^30.
 */
NTT_INLINE uint32_t ntt_redc32(uint64_t t, uint32_t p, uint32_t pinv)
{
    uint32_t m = (uint32_t)t * pinv;
    return (uint32_t)((t + (uint64_t)m * p) >> 32);
}
NTT_INLINE uint32_t ntt_mont32(uint32_t a, uint32_t b, uint32_t p, uint32_t pinv)
{
    return ntt_redc32((uint64_t)a * b, p, pinv);
}
NTT_INLINE uint64_t ntt_redc64(ntt_u128 t, uint64_t p, uint64_t pinv)
{
    uint64_t m = (uint64_t)t * pinv;
    /* t + m*p < 2^128 because t < p*2^64 and m*p < p*2^64, p < 2^63. */
    return (uint64_t)((t + (ntt_u128)m * p) >> 64);
}
NTT_INLINE uint64_t ntt_mont64(uint64_t a, uint64_t b, uint64_t p, uint64_t pinv)
{
    return ntt_redc64((ntt_u128)a * b, p, pinv);
}
/* -p^-1 mod 2^32 / 2^64 for odd p (Newton iteration). */
NTT_INLINE uint64_t ntt_mont_pinv64(uint64_t p)
{
    uint64_t x = p; /* p*p == 1 mod 8: 3 correct bits */
    for (int i = 0; i < 5; i++) x *= 2 - p * x;
    return (uint64_t)0 - x;
}
NTT_INLINE uint32_t ntt_mont_pinv32(uint32_t p) { return (uint32_t)ntt_mont_pinv64(p); }

/* ---- Barrett ------------------------------------------------------------ */
/*
 * 32-bit: mu = floor(2^64 / p).  For any x < 2^64 returns x mod p in [0, 2p):
 * q = floor(x*mu / 2^64) is floor(x/p) or one less.
 */
NTT_INLINE uint32_t ntt_barrett32(uint64_t x, uint64_t mu, uint32_t p)
{
    uint64_t q = ntt_mulhi64(x, mu);
    return (uint32_t)(x - q * p);
}
/*
 * 64-bit: k = bit length of p (p < 2^62), mu = floor(2^(2k) / p) < 2^(k+1).
 * For x < p^2 returns x mod p in [0, 3p) (HAC 14.42: q is at most two short).
 */
NTT_INLINE uint64_t ntt_barrett64(ntt_u128 x, uint64_t mu, unsigned k, uint64_t p)
{
    uint64_t x1 = (uint64_t)(x >> (k - 1));
    uint64_t q = (uint64_t)(((ntt_u128)x1 * mu) >> (k + 1));
    return (uint64_t)x - q * p;
}

#endif /* NTT_ARITH_H */
