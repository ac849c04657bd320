/*
 * The arithmetic of the 64-bit-lane u64 kernels (kernels_u64_lanes.c),
 * which kernels_u64x8.tmpl.h is instantiated with: the constants, the
 * Shoup, Montgomery and Barrett products (on u64x8.h's high products) and
 * the tables' form (the template's Expects block).  Included by
 * kernels_u64_lanes.c alone, after u64x8.h; its functions are static as the
 * template's are.
 */
#ifndef NTT_X86_U64X8_LANES64_H
#define NTT_X86_U64X8_LANES64_H

#include "../cpu.h"
#include "u64x8.h"

typedef struct {
    V p, p2, pinv; /* p, 2p, p^-1 mod 2^64 */
    V r, rq;       /* M->fix (2^64 mod p) in the tables' form */
    V mu;          /* floor(2^2k / p), p of k bits: Barrett (mulmod) */
    __m128i sl, sr; /* shift counts 128 - 2k, 2k - 64 */
} icst;

NTT_INLINE icst icst_of(const mod_u64 *M)
{
    icst C;
    C.p = v1(M->c.p);
    C.p2 = v1(2 * M->c.p);
    C.pinv = v1(0 - M->c.pinv); /* c.pinv is -p^-1 mod 2^64 */
    C.r = v1(M->fix.w);
    C.rq = v1(M->fix.x);
    C.mu = v1(M->c.mu);
    C.sl = _mm_cvtsi64_si128(128 - 2 * (long long)M->c.k);
    C.sr = _mm_cvtsi64_si128(2 * (long long)M->c.k - 64);
    return C;
}

/* Any 64-bit y -> y w mod p in [0, 2p).  q = hi64(y w') - e (mulhi_low) is
   at most y w / p, so r = y w - q p >= 0, and r < 2p + e p <= 4p < 2^64
   (p < 2^62): the low 64 bits of y w and q p give r exactly, and one
   subtraction of 2p where it does not wrap brings it below 2p. */
NTT_INLINE V mulw(V y, V w, V wq, const icst *C)
{
    const V q = mulhi_low(y, wq);
    return vcsub(vsub(_mm512_mullo_epi64(y, w), _mm512_mullo_epi64(q, C->p)), C->p2);
}

/* a b < p 2^64 -> a b 2^-64 mod p in [1, 2p): with t = lo64(a b) p^-1,
   t p and a b agree in their low 64 bits, so p + hi64(a b) - hi64(t p) is
   p + (a b - t p) / 2^64, in [1, 2p) as both products are below p 2^64
   (and below 2^63 as a sum: p < 2^62). */
NTT_INLINE V mont(V a, V b, const icst *C)
{
    const V lo = _mm512_mullo_epi64(a, b);
    const V t = _mm512_mullo_epi64(lo, C->pinv);
    return vsub(vadd(mulhi(a, b), C->p), mulhi(t, C->p));
}

/* a, b < p -> a b mod p in [0, p), Barrett's product, for the public
   pointwise product (KERN_MULMOD).  X = a b < p^2 < 2^2k, d = 2k - 64 (in
   [40, 60]): c = floor(X / 2^d) < 2^64, and with mu > 2^2k / p - 1,
   c mu / 2^64 > X / p - 2^d / p - c / 2^64 > X / p - 3/2 (2^d / p <=
   2^(k-63) <= 1/2 as p >= 2^(k-1); c / 2^64 < p^2 / 2^2k < 1), while
   c mu / 2^64 <= X / p.  So q = hi64(c mu) - e (mulhi_1, e <= 1; the
   floor loses below one more) leaves r = X - q p in [0, 7p/2), below 2^64
   (p < 2^62): the low 64 bits give it exactly, and subtracting 2p, then p,
   where that does not wrap brings it below p. */
NTT_INLINE V mulmod(V a, V b, const icst *C)
{
    const V lo = _mm512_mullo_epi64(a, b);
    const V c = _mm512_or_si512(_mm512_sll_epi64(mulhi(a, b), C->sl), _mm512_srl_epi64(lo, C->sr));
    const V r = vsub(lo, _mm512_mullo_epi64(mulhi_1(c, C->mu), C->p));
    return vcsub(vcsub(r, C->p2), C->p);
}

/* A constant w < p in the tables' form: (w, floor(w 2^64 / p)). */
static tw_u64 kern_tw(uint64_t w, uint64_t p, const int rng)
{
    (void)rng;
    return (tw_u64){w, (uint64_t)(((unsigned __int128)w << 64) / p)};
}

/* The inverse of the factor 2^-64 that mont leaves. */
static uint64_t kern_fix(uint64_t p) { return (uint64_t)(((unsigned __int128)1 << 64) % p); }

/* The tables keep the scalar kernels' companions. */
static void kern_forms(mod_u64 *M, size_t n, const int rng)
{
    (void)M, (void)n, (void)rng;
}

#define KERN_NAME "lanes64"
#define KERN_FULL 0
#define KERN_MULMOD 1

#endif /* NTT_X86_U64X8_LANES64_H */
