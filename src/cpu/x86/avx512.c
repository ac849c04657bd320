/*
 * The AVX-512 backend: the x86 kernels (kernels_u32.tmpl.h,
 * kernels_f64.tmpl.h) with the 512-bit widths added, compiled with AVX-512
 * F, VL, BW and DQ (and PREFETCHW) allowed in this file only.  Like the
 * AVX2 backend it is picked at run time, only on a CPU (and OS) that has
 * all four.  Its row in the backend registry (core/registry.c) names its
 * kernels and CRT primes.
 */
#define X86_AVX512 1
#define X86_NAME(name) ntt_avx512_##name
/* The kernels (each with its vector widths), then the backend's choice
   among them: one level of templates above the per-width ones. */
#include "../cpu.h"
#include "vec.h"

#include <string.h>

#include "kernels_u32.tmpl.h"
#include "kernels_f64.tmpl.h"
#include "backend.tmpl.h"
#include "../../core/cpu_features.h"

/* What this file is compiled for (cpu_features.h). */
static int avx512_available(void) { return ntt_cpu_has_avx512(); }

const ntt_backend_ops ntt_avx512_ops = {
    .name = "avx512",
    .id = NTT_BACKEND_AVX512,
    .available = avx512_available,
    .supports = x86_supports,
    .plan_init = x86_plan_init,
    .plan_free = ntt_cpu_plan_free,
    .forward = ntt_cpu_forward,
    .inverse = ntt_cpu_inverse,
    .pointwise = ntt_cpu_pointwise,
    .polymul = ntt_cpu_polymul,
    .polymul_checks_single = true,
    .pointwise_checks_inputs = true,
};
