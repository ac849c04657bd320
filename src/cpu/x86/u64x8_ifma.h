/*
 * The arithmetic of the IFMA u64 kernels (ifma.c) on eight lanes of
 * 52-bit products, which kernels_u64x8.tmpl.h is instantiated with: the
 * constants, the Shoup and Montgomery products and the tables' form (the
 * template's Expects block).  Included by ifma.c alone, after u64x8.h; its
 * functions are static as the template's are.
 */
#ifndef NTT_X86_U64X8_IFMA_H
#define NTT_X86_U64X8_IFMA_H

#include "../cpu.h"
#include "u64x8.h"

#define M52 (((uint64_t)1 << 52) - 1)

typedef struct {
    V p, p2, np, m52; /* p, 2p, 2^52 - p, 2^52 - 1 */
    V pinv;           /* p^-1 mod 2^52 */
    V r, rq;          /* M->fix (2^52 mod p) in the tables' form */
} icst;

/* p^-1 mod 2^52 from the plan's -p^-1 mod 2^64. */
NTT_INLINE uint64_t pinv52(const mod_u64 *M) { return (0 - M->c.pinv) & M52; }

NTT_INLINE icst icst_of(const mod_u64 *M)
{
    const uint64_t p = M->c.p;
    icst C;
    C.p = v1(p);
    C.p2 = v1(2 * p);
    C.np = v1(((uint64_t)1 << 52) - p);
    C.m52 = v1(M52);
    C.pinv = v1(pinv52(M));
    C.r = v1(M->fix.w);
    C.rq = v1(M->fix.x);
    return C;
}

/* y < 2^52 -> y w mod p in [0, 2p). */
NTT_INLINE V mulw(V y, V w, V wq, const icst *C)
{
    const V z = _mm512_setzero_si512();
    const V q = _mm512_madd52hi_epu64(z, y, wq);
    const V lo = _mm512_madd52lo_epu64(z, y, w);
    return _mm512_and_si512(_mm512_madd52lo_epu64(lo, q, C->np), C->m52);
}

/* a, b < 2^52, a b < p 2^52 -> a b 2^-52 mod p in [1, 2p).  With
   t = lo52(a b) p^-1 mod 2^52, t p and a b agree in their low 52 bits, so
   a b - t p = 2^52 (hi52(a b) - hi52(t p)) exactly, and
   p + hi52(a b) - hi52(t p) = p + (a b - t p) / 2^52 lies in [1, 2p):
   0 <= t p < p 2^52, 0 <= a b < p 2^52.  The p rides in as the
   accumulator of the high product. */
NTT_INLINE V mont(V a, V b, const icst *C)
{
    const V z = _mm512_setzero_si512();
    const V lo = _mm512_madd52lo_epu64(z, a, b);
    const V hi = _mm512_madd52hi_epu64(C->p, a, b);
    const V t = _mm512_madd52lo_epu64(z, lo, C->pinv);
    return vsub(hi, _mm512_madd52hi_epu64(z, t, C->p));
}

/* The full range's twiddles, for 2^51 <= p < 2^52: a twiddle w is held as
   W = w 2^52 mod p with W' = W p^-1 mod 2^52.  For y < 2^52, q = lo52(y W')
   makes q p and y W agree in their low 52 bits, so y W - q p =
   2^52 (hi52(y W) - hi52(q p)) exactly, and p + hi52(y W) - hi52(q p) =
   p + (y W - q p) / 2^52, congruent to y W 2^-52 = y w, lies in (0, 2p)
   as both products are below p 2^52: no low half to mask, so no bit of a
   result up to 2p (above 2^52 here) is lost. */
NTT_INLINE V mulw_full(V y, V w, V wq, const icst *C)
{
    const V z = _mm512_setzero_si512();
    const V q = _mm512_madd52lo_epu64(z, y, wq);
    return vsub(_mm512_madd52hi_epu64(C->p, y, w), _mm512_madd52hi_epu64(z, q, C->p));
}

#define KERN_NAME "ifma"
#define KERN_FULL 1
#define KERN_MULMOD 0

/* A constant w < p in the tables' form: (w, floor(w 2^52 / p)), or for the
   full range (W, W') of mulw_full, W = w 2^52 mod p. */
static tw_u64 kern_tw(uint64_t w, uint64_t p, const int rng)
{
    if (rng != R_FULL) return (tw_u64){w, (uint64_t)(((unsigned __int128)w << 52) / p)};
    const uint64_t W = (uint64_t)(((unsigned __int128)w << 52) % p);
    const uint64_t pinv = (uint64_t)0 - ntt_mont_pinv64(p); /* p^-1 mod 2^64 */
    return (tw_u64){W, (W * pinv) & M52};
}

/* The inverse of the factor 2^-52 that mont leaves. */
static uint64_t kern_fix(uint64_t p) { return ((uint64_t)1 << 52) % p; }

/* The tables: 52-bit Shoup companions (the 64-bit ones shifted), or the
   full range's form. */
static void kern_forms(mod_u64 *M, size_t n, const int rng)
{
    const uint64_t p = M->c.p, r = kern_fix(p);
    if (rng == R_FULL) {
        /* W = w r mod p through r's 64-bit Shoup companion, not a 128-bit
           division per entry. */
        const uint64_t rq = ntt_shoup_pre64(r, p), pi = pinv52(M);
        uint64_t *const t[2][2] = {{M->fw, M->fwx}, {M->iw, M->iwx}};
        for (int k = 0; k < 2; k++)
            for (size_t i = 1; i < n; i++) {
                const uint64_t W = ntt_csub64(ntt_shoup64(t[k][0][i], r, rq, p), p);
                t[k][0][i] = W;
                t[k][1][i] = (W * pi) & M52;
            }
    } else {
        for (size_t i = 1; i < n; i++) {
            M->fwx[i] >>= 12;
            M->iwx[i] >>= 12;
        }
    }
}

#endif /* NTT_X86_U64X8_IFMA_H */
