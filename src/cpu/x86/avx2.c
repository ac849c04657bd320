/*
 * The AVX2 backend: the x86 kernels (kernels_u32.tmpl.h,
 * kernels_f64.tmpl.h) on 256-bit vectors, compiled with -mavx2 -mfma
 * -mbmi2 in this file only, so that the rest of the library stays baseline
 * x86-64.  The library picks it at run time, where available() finds the
 * CPU features, so it runs everywhere.  Its row in the backend registry
 * (core/registry.c) names its kernels and CRT primes.
 */
#define X86_AVX512 0
#define X86_NAME(name) ntt_avx2_##name
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
static int avx2_available(void) { return ntt_cpu_has_avx2(); }

const ntt_backend_ops ntt_avx2_ops = {
    .name = "avx2",
    .id = NTT_BACKEND_AVX2,
    .available = avx2_available,
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
