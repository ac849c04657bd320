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
 * variables are Montgomery's (R = 2^64) on a < p and b < 2p, giving
 * a b / R in [0, 2p), then a Shoup product by R mod p, so they leave no
 * factor.
 */
#include "u64x8.h"

#include <string.h>

typedef struct {
    V p, p2, pinv; /* p, 2p, -p^-1 mod 2^64 */
    V r, rq;       /* M->fix: 2^64 mod p and its companion */
} icst;

NTT_INLINE icst icst_of(const mod_u64 *M)
{
    icst C;
    C.p = v1(M->c.p);
    C.p2 = v1(2 * M->c.p);
    C.pinv = v1(M->c.pinv);
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

/* a < p, b < 2p -> a b mod p in [0, 2p). */
NTT_INLINE V mul2(V a, V b, const icst *C)
{
    const V lo = _mm512_mullo_epi64(a, b);
    V hi = mulhi(a, b);
    const V t = mulhi(_mm512_mullo_epi64(lo, C->pinv), C->p);
    /* lo + lo64(m p) is 0 when lo is, else 2^64: the carry into hi. */
    hi = _mm512_mask_add_epi64(hi, _mm512_test_epi64_mask(lo, lo), hi, v1(1));
    return mulw(vadd(hi, t), C->r, C->rq, C); /* a b 2^-64 mod p, [0, 2p), times 2^64 */
}

/* Tables as the scalar kernels hold them, regrouped for 8-lane leaves.
   The products leave no factor, so the scales are the inverse's; fix is
   2^64 mod p, the inverse of mul2's Montgomery factor. */
static void larrange(mod_u64 *M, size_t n)
{
    const uint64_t p = M->c.p, r = (uint64_t)(((unsigned __int128)1 << 64) % p);
    M->fix.w = r;
    M->fix.x = (uint64_t)(((unsigned __int128)r << 64) / p);
    ntt_cpu_regroup(M->fw, sizeof *M->fw, n, 8);
    ntt_cpu_regroup(M->fwx, sizeof *M->fwx, n, 8);
    ntt_cpu_regroup(M->iw, sizeof *M->iw, n, 8);
    ntt_cpu_regroup(M->iwx, sizeof *M->iwx, n, 8);
    M->s_mul = M->s_inv;
    M->s1_mul = M->s1_inv;
}

#define KERN_WIDE 0
#define KERN_ARRANGE larrange
#include "kernels_u64x8.inc"

const kern_u64 *ntt_lanes64_kernels_u64(const ntt_plan *plan, const ntt_modulus *m)
{
    if (plan->modmul != NTT_MODMUL_SHOUP || m->p >> 62 || m->p < ((uint64_t)1 << 51))
        return NULL;
    return &narrow_kernels;
}
