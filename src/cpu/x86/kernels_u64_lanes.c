/*
 * The u64 Shoup kernels for primes 2^51 <= p < 2^62 on eight 64-bit lanes
 * (AVX-512 F and DQ), which the AVX-512 backend picks there instead of the
 * scalar u64 kernels.  The butterflies, leaves and lazy ranges are
 * kernels_u64x8.tmpl.h's, narrow (forward values in [0, 4p), 4p < 2^64).
 *
 * A twiddle w carries the table's w' = floor(w 2^64 / p).  For any 64-bit
 * y, the exact q = hi64(y w') would leave y w - q p in [0, 2p)
 * (q > y w / p - y / 2^64 - 1); mulw takes a q up to two below it from
 * three 32 x 32 products (vpmuludq, mulhi_low) instead of four and one
 * conditional subtraction, cheaper than the carries of the fourth.  The
 * low halves come from vpmullq.  Products of two variables in the product
 * path are Montgomery's (R = 2^64, mont), a b / R in [0, 2p) for a b < p R,
 * and the product path folds R into its scale (kernels_u64x8.tmpl.h); the
 * public pointwise product is Barrett's (mulmod), with no factor to undo.
 */
#include "../cpu.h"
#include "u64x8.h"
#include "u64x8_lanes64.h"

#include <string.h>

#include "kernels_u64x8.tmpl.h"

const kern_u64 *ntt_lanes64_kernels_u64(const ntt_plan *plan, const ntt_modulus *m)
{
    if (plan->modmul != NTT_MODMUL_SHOUP || m->p >> 62 || m->p < ((uint64_t)1 << 51))
        return NULL;
    return &narrow_kernels;
}
