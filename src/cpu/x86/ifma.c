/*
 * The u64 kernels for primes p < 2^52 on AVX-512 IFMA (vpmadd52luq /
 * vpmadd52huq: the low or high 52 bits of the 104-bit product of the low
 * 52 bits of two lanes, added to a third).  The only file of the NTTs
 * built with -mavx512ifma; the AVX-512 backend (and OpenMP where it runs
 * the AVX-512 kernels) picks these kernels, where the CPU has IFMA, instead
 * of the FP64 ones (kernels_f64.tmpl.h) below 2^51 and the 64-bit-lane ones
 * (kernels_u64_lanes.c) above, which stay for CPUs without it.  The butterflies,
 * leaves and lazy ranges are kernels_u64x8.tmpl.h's: narrow for p < 2^50 (4p
 * <= 2^52, so every forward value is a valid multiplier input), wide for
 * 2^50 <= p < 2^51, full for 2^51 <= p < 2^52.
 *
 * A twiddle w in [0, p) carries w' = floor(w 2^52 / p) (the table's 64-bit
 * Shoup companion shifted right by 12).  For y < 2^52, q = hi52(y w') and
 * r = lo52(y w) - lo52(q p) mod 2^52 is y w - q p, which lies in [0, 2p):
 * q >= y w / p - y / 2^52 - 1.  Since 2p < 2^52 the low 52 bits hold r
 * exactly (narrow and wide; the full range's twiddles are Montgomery's,
 * see mulw_full).  Products of two variables (the pointwise products) are
 * Montgomery's in radix 2^52 (mont), a b 2^-52 in [0, 2p) for a b < p 2^52;
 * the public one then multiplies by 2^52 mod p (mul2), the product path
 * folds 2^52 into its scale (kernels_u64x8.tmpl.h).
 */
#include "../cpu.h"
#include "u64x8.h"
#include "../../core/cpu_features.h"

#include <string.h>

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

static tw_u64 kern_tw(uint64_t w, uint64_t p, int rng);
#define KERN_ARRANGE iarrange
static void iarrange(mod_u64 *M, size_t n, int rng);
#define KERN_FULL 1
#define KERN_MULMOD 0

#include "kernels_u64x8.tmpl.h"

/* A constant w < p in the tables' form: (w, floor(w 2^52 / p)), or for the
   full range (W, W') of mulw_full, W = w 2^52 mod p. */
static tw_u64 kern_tw(uint64_t w, uint64_t p, const int rng)
{
    if (rng != R_FULL) return (tw_u64){w, (uint64_t)(((unsigned __int128)w << 52) / p)};
    const uint64_t W = (uint64_t)(((unsigned __int128)w << 52) % p);
    const uint64_t pinv = (uint64_t)0 - ntt_mont_pinv64(p); /* p^-1 mod 2^64 */
    return (tw_u64){W, (W * pinv) & M52};
}

/* The tables: 52-bit Shoup companions (the 64-bit ones shifted), or the
   full range's form; fix, the inverse of the factor 2^-52 that mont
   leaves, is 2^52 mod p. */
static void iarrange(mod_u64 *M, size_t n, const int rng)
{
    const uint64_t p = M->c.p, r = ((uint64_t)1 << 52) % p;
    arrange_scales(M, r, rng);
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
    regroup_tables(M, n);
}

const kern_u64 *ntt_ifma_kernels_u64(const ntt_plan *plan, const ntt_modulus *m)
{
    if (plan->modmul != NTT_MODMUL_SHOUP || m->p >> 52 || !ntt_cpu_ifma_enabled() ||
        !ntt_cpu_has_ifma())
        return NULL;
    return m->p >> 51 ? &full_kernels : m->p >> 50 ? &wide_kernels : &narrow_kernels;
}
