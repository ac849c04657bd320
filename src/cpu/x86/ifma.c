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
#include "u64x8_ifma.h"
#include "../../core/cpu_features.h"

#include <string.h>

#include "kernels_u64x8.tmpl.h"

const kern_u64 *ntt_ifma_kernels_u64(const ntt_plan *plan, const ntt_modulus *m)
{
    if (plan->modmul != NTT_MODMUL_SHOUP || m->p >> 52 || !ntt_cpu_ifma_enabled() ||
        !ntt_cpu_has_ifma())
        return NULL;
    return m->p >> 51 ? &full_kernels : m->p >> 50 ? &wide_kernels : &narrow_kernels;
}
