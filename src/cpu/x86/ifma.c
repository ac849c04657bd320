/*
 * The u64 Shoup kernels for primes p < 2^51 on AVX-512 IFMA (vpmadd52luq /
 * vpmadd52huq: the low or high 52 bits of the 104-bit product of the low
 * 52 bits of two lanes, added to a third).  The only file of the NTTs
 * built with -mavx512ifma; the AVX-512 backend (and OpenMP where it runs
 * the AVX-512 kernels) picks these kernels, where the CPU has IFMA, instead
 * of the FP64 ones (kernels_f64.inc), which stay for CPUs without it.  The
 * butterflies, leaves and lazy ranges are kernels_u64x8.inc's: narrow for
 * p < 2^50 (4p < 2^52, so every forward value is a valid multiplier
 * input), wide for 2^50 <= p < 2^51.
 *
 * A twiddle w in [0, p) carries w' = floor(w 2^52 / p) (the table's 64-bit
 * Shoup companion shifted right by 12).  For y < 2^52, q = hi52(y w') and
 * r = lo52(y w) - lo52(q p) mod 2^52 is y w - q p, which lies in [0, 2p):
 * q >= y w / p - y / 2^52 - 1.  Since 2p < 2^52 the low 52 bits hold r
 * exactly.  Products of two variables (the pointwise products) are
 * Montgomery's in radix 2^52 (mont), a b 2^-52 in [0, 2p) for a b < p 2^52;
 * the public one then multiplies by 2^52 mod p (mul2), the product path
 * folds 2^52 into its scale (kernels_u64x8.inc).
 */
#include "u64x8.h"

#include <string.h>

#define M52 (((uint64_t)1 << 52) - 1)

typedef struct {
    V p, p2, np, m52; /* p, 2p, 2^52 - p, 2^52 - 1 */
    V pinv;           /* p^-1 mod 2^52 */
    V r, rq;          /* M->fix: 2^52 mod p and its companion */
} icst;

NTT_INLINE icst icst_of(const mod_u64 *M)
{
    const uint64_t p = M->c.p;
    icst C;
    C.p = v1(p);
    C.p2 = v1(2 * p);
    C.np = v1(((uint64_t)1 << 52) - p);
    C.m52 = v1(M52);
    C.pinv = v1((0 - M->c.pinv) & M52); /* c.pinv is -p^-1 mod 2^64 */
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

/* The tables' companion of a constant: floor(w 2^52 / p). */
static uint64_t shoup_of(uint64_t w, uint64_t p)
{
    return (uint64_t)(((unsigned __int128)w << 52) / p);
}

#define KERN_WIDE 1
#define KERN_ARRANGE iarrange
static void iarrange(mod_u64 *M, size_t n);

#include "kernels_u64x8.inc"

/* Tables: 52-bit Shoup companions, in the template's layout; fix, the
   inverse of the factor 2^-52 that mont leaves, is 2^52 mod p. */
static void iarrange(mod_u64 *M, size_t n)
{
    const uint64_t p = M->c.p, r = ((uint64_t)1 << 52) % p;
    M->fix.w = r;
    M->fix.x = (uint64_t)(((unsigned __int128)r << 52) / p);
    M->one.x >>= 12;
    for (size_t i = 1; i < n; i++) {
        M->fwx[i] >>= 12;
        M->iwx[i] >>= 12;
    }
    M->s_inv.x >>= 12;
    M->s1_inv.x >>= 12;
    arrange_tables(M, n);
}


bool ntt_ifma_available(void)
{
    return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512vl") &&
           __builtin_cpu_supports("avx512bw") && __builtin_cpu_supports("avx512dq") &&
           __builtin_cpu_supports("avx512ifma");
}

const kern_u64 *ntt_ifma_kernels_u64(const ntt_plan *plan, const ntt_modulus *m)
{
    if (plan->modmul != NTT_MODMUL_SHOUP || m->p >> 51 || !ntt_cpu_ifma_enabled() ||
        !ntt_ifma_available())
        return NULL;
    return m->p >> 50 ? &wide_kernels : &narrow_kernels;
}
