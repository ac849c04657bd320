/*
 * The AVX-512 backend: the x86 kernels (kernels_u32.tmpl.h,
 * kernels_f64.tmpl.h) with the 512-bit widths added, compiled with AVX-512
 * F, VL, BW and DQ (and PREFETCHW) allowed in this file only.  Like the
 * AVX2 backend it is picked at run time, only on a CPU (and OS) that has
 * all four.  Its CRT primes are the AVX2 backend's; its range checks its
 * own.
 */
#define X86_AVX512 1
#define X86_NAME(name) ntt_avx512_##name
/* The kernels (each with its vector widths), then the backend's choice
   among them: one level of templates above the per-width ones. */
#include "vec.h"

#include <string.h>

#include "kernels_u32.tmpl.h"
#include "kernels_f64.tmpl.h"
#include "backend.tmpl.h"

/* GCC's __builtin_cpu_supports counts AVX and AVX-512 only where the OS
   saves their registers (XCR0). */
static int avx512_available(void)
{
    return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma") &&
           __builtin_cpu_supports("bmi2") && __builtin_cpu_supports("avx512f") &&
           __builtin_cpu_supports("avx512vl") && __builtin_cpu_supports("avx512bw") &&
           __builtin_cpu_supports("avx512dq");
}

/* The unsigned maximum of each block against p: one instruction per eight
   (sixteen) values, where AVX2 has no unsigned 64-bit maximum or compare
   (avx2.c: three per four).  One thread, whatever `threads` asks. */
static bool avx512_any_geq_u64(const uint64_t *a, size_t len, uint64_t p, int threads)
{
    (void)threads;
    const __m512i lim = _mm512_set1_epi64((long long)p);
    size_t i = 0;
    while (i + 32 <= len) {
        const size_t e = len - i > 8192 ? i + 8192 : len - (len - i) % 32;
        __m512i m0 = _mm512_setzero_si512(), m1 = m0;
        for (; i < e; i += 32) {
            m0 = _mm512_max_epu64(m0, _mm512_max_epu64(_mm512_loadu_si512(a + i), _mm512_loadu_si512(a + i + 8)));
            m1 = _mm512_max_epu64(m1, _mm512_max_epu64(_mm512_loadu_si512(a + i + 16),
                                                       _mm512_loadu_si512(a + i + 24)));
        }
        if (_mm512_cmpge_epu64_mask(_mm512_max_epu64(m0, m1), lim)) return true;
    }
    for (; i < len; i++)
        if (a[i] >= p) return true;
    return false;
}

static bool avx512_any_geq_u32(const uint32_t *a, size_t len, uint32_t p, int threads)
{
    (void)threads;
    const __m512i lim = _mm512_set1_epi32((int)p);
    size_t i = 0;
    while (i + 64 <= len) {
        const size_t e = len - i > 16384 ? i + 16384 : len - (len - i) % 64;
        __m512i m0 = _mm512_setzero_si512(), m1 = m0;
        for (; i < e; i += 64) {
            m0 = _mm512_max_epu32(m0, _mm512_max_epu32(_mm512_loadu_si512(a + i), _mm512_loadu_si512(a + i + 16)));
            m1 = _mm512_max_epu32(m1, _mm512_max_epu32(_mm512_loadu_si512(a + i + 32),
                                                       _mm512_loadu_si512(a + i + 48)));
        }
        if (_mm512_cmpge_epu32_mask(_mm512_max_epu32(m0, m1), lim)) return true;
    }
    for (; i < len; i++)
        if (a[i] >= p) return true;
    return false;
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
    .any_geq_u64 = avx512_any_geq_u64,
    .any_geq_u32 = avx512_any_geq_u32,
    .polymul_checks_single = true,
    .pointwise_checks_inputs = true,
};
