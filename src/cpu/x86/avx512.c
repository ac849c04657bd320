/*
 * The AVX-512 backend: the kernels of backend.inc with the 512-bit widths
 * added, compiled with AVX-512 F, VL, BW and DQ (and PREFETCHW) allowed in
 * this file only.  Like the AVX2 backend it is picked at run time, only on
 * a CPU (and OS) that has all four.  Its range checks and CRT primes are
 * the AVX2 backend's.
 */
#define X86_AVX512 1
#define X86_NAME(name) ntt_avx512_##name
#include "backend.inc"

/* GCC's __builtin_cpu_supports counts AVX and AVX-512 only where the OS
   saves their registers (XCR0). */
static int avx512_available(void)
{
    return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma") &&
           __builtin_cpu_supports("bmi2") && __builtin_cpu_supports("avx512f") &&
           __builtin_cpu_supports("avx512vl") && __builtin_cpu_supports("avx512bw") &&
           __builtin_cpu_supports("avx512dq");
}

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
