/* The portable scalar backend: the reference fast path, for both element
   widths.  Its kernels (scalar.tmpl.h) are also
   what the other CPU backends fall back to. */
#include "cpu.h"

#include <stdlib.h>
#include <string.h>

#define T uint32_t
#define SFX(name) name##_u32
#define W64 0
#include "scalar.tmpl.h"
#undef T
#undef SFX
#undef W64
#undef SFX_BLOCK

#define T uint64_t
#define SFX(name) name##_u64
#define W64 1
#include "scalar.tmpl.h"
#undef T
#undef SFX
#undef W64
#undef SFX_BLOCK

static int scalar_available(void) { return 1; }

/* Every kind. */
static int scalar_supports(ntt_modmul m)
{
    (void)m;
    return 1;
}

static const kern_u32 *pick32(const ntt_plan *plan, const ntt_modulus *m)
{
    (void)m;
    return ntt_scalar_kernels_u32(plan->modmul);
}

static const kern_u64 *pick64(const ntt_plan *plan, const ntt_modulus *m)
{
    (void)m;
    return ntt_scalar_kernels_u64(plan->modmul);
}

const ntt_cpu_kernel_choice ntt_scalar_kernel_choice = {pick32, pick64};

static ntt_status scalar_plan_init(ntt_plan *plan)
{
    return ntt_cpu_plan_init(plan, &ntt_scalar_kernel_choice, 1);
}

const ntt_backend_ops ntt_scalar_ops = {
    .name = "scalar",
    .id = NTT_BACKEND_SCALAR,
    .available = scalar_available,
    .supports = scalar_supports,
    .plan_init = scalar_plan_init,
    .plan_free = ntt_cpu_plan_free,
    .forward = ntt_cpu_forward,
    .inverse = ntt_cpu_inverse,
    .pointwise = ntt_cpu_pointwise,
    .polymul = ntt_cpu_polymul,
    .polymul_checks_single = true,
    .pointwise_checks_inputs = true,
};
