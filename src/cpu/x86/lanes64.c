/*
 * The u64 Shoup kernels for primes 2^51 <= p < 2^62 on eight 64-bit lanes
 * (AVX-512 F and DQ), which the AVX-512 backend picks there instead of the
 * scalar u64 kernels.  The butterflies, leaves and lazy ranges are
 * kernels_u64x8.inc's, narrow (forward values in [0, 4p), 4p < 2^64).
 *
 * A twiddle w carries the table's w' = floor(w 2^64 / p).  For any 64-bit
 * y, q = hi64(y w') and r = lo64(y w) - lo64(q p) = y w - q p lies in
 * [0, 2p): q > y w / p - y / 2^64 - 1.  The high halves come from four
 * 32 x 32 products (vpmuludq), the low ones from vpmullq.  Products of two
 * variables are Montgomery's (R = 2^64, mont), a b / R in [0, 2p) for
 * a b < p R; the public one then multiplies by R mod p (mul2), the product
 * path folds R into its scale (kernels_u64x8.inc).
 */
#include "u64x8.h"

#include <string.h>

typedef struct {
    V p, p2, pinv; /* p, 2p, p^-1 mod 2^64 */
    V r, rq;       /* M->fix (2^64 mod p) in the tables' form */
} icst;

NTT_INLINE icst icst_of(const mod_u64 *M)
{
    icst C;
    C.p = v1(M->c.p);
    C.p2 = v1(2 * M->c.p);
    C.pinv = v1(0 - M->c.pinv); /* c.pinv is -p^-1 mod 2^64 */
    C.r = v1(M->fix.w);
    C.rq = v1(M->fix.x);
    return C;
}

/* The high 64 bits of a b, lane by lane. */
NTT_INLINE V mulhi(V a, V b)
{
    const V m32 = v1(0xFFFFFFFFu);
    const V ah = _mm512_srli_epi64(a, 32), bh = _mm512_srli_epi64(b, 32);
    const V ll = _mm512_mul_epu32(a, b), lh = _mm512_mul_epu32(a, bh);
    const V hl = _mm512_mul_epu32(ah, b), hh = _mm512_mul_epu32(ah, bh);
    const V mid = vadd(vadd(_mm512_srli_epi64(ll, 32), _mm512_and_si512(lh, m32)),
                       _mm512_and_si512(hl, m32));
    return vadd(vadd(hh, _mm512_srli_epi64(lh, 32)),
                vadd(_mm512_srli_epi64(hl, 32), _mm512_srli_epi64(mid, 32)));
}

/* y w mod p in [0, 2p). */
NTT_INLINE V mulw(V y, V w, V wq, const icst *C)
{
    const V q = mulhi(y, wq);
    return vsub(_mm512_mullo_epi64(y, w), _mm512_mullo_epi64(q, C->p));
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

/* A constant w < p in the tables' form: (w, floor(w 2^64 / p)). */
static tw_u64 kern_tw(uint64_t w, uint64_t p, const int rng)
{
    (void)rng;
    return (tw_u64){w, (uint64_t)(((unsigned __int128)w << 64) / p)};
}

#define KERN_ARRANGE larrange
static void larrange(mod_u64 *M, size_t n, int rng);
#define KERN_FULL 0

#include "kernels_u64x8.inc"

/* The tables keep the scalar kernels' companions; fix, the inverse of the
   factor 2^-64 that mont leaves, is 2^64 mod p. */
static void larrange(mod_u64 *M, size_t n, const int rng)
{
    arrange_scales(M, (uint64_t)(((unsigned __int128)1 << 64) % M->c.p), rng);
    regroup_tables(M, n);
}

const kern_u64 *ntt_lanes64_kernels_u64(const ntt_plan *plan, const ntt_modulus *m)
{
    if (plan->modmul != NTT_MODMUL_SHOUP || m->p >> 62 || m->p < ((uint64_t)1 << 51))
        return NULL;
    return &narrow_kernels;
}
