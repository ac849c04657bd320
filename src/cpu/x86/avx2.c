/*
 * The AVX2 backend: the x86 kernels (kernels_u32.tmpl.h,
 * kernels_f64.tmpl.h) on 256-bit vectors, compiled with -mavx2 -mfma
 * -mbmi2 in this file only, so that the rest of the library stays baseline
 * x86-64.  The library picks it at run time, where
 * available() finds the CPU features, so it runs everywhere.
 *
 * It also holds the vector range checks that every backend's inputs take
 * where the CPU has AVX2 (cpu.c reaches them through this ops table) and
 * the CRT primes of ntt_polymul_mod on both x86 backends.
 */
#define X86_AVX512 0
#define X86_NAME(name) ntt_avx2_##name
/* The kernels (each with its vector widths), then the backend's choice
   among them: one level of templates above the per-width ones. */
#include "vec.h"

#include <string.h>

#include "kernels_u32.tmpl.h"
#include "kernels_f64.tmpl.h"
#include "backend.tmpl.h"

/* GCC's __builtin_cpu_supports counts AVX only where the OS saves its
   registers (XCR0). */
static int avx2_available(void)
{
    return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma") &&
           __builtin_cpu_supports("bmi2");
}

/* The unsigned maximum of each block against p - 1: one instruction per
   eight values.  One thread, whatever `threads` asks. */
static bool avx2_any_geq_u32(const uint32_t *a, size_t len, uint32_t p, int threads)
{
    (void)threads;
    const u32x8 lim = u32x8_set1(p - 1);
    size_t i = 0;
    while (i + 32 <= len) {
        const size_t e = len - i > 8192 ? i + 8192 : len - (len - i) % 32;
        u32x8 m0 = _mm256_setzero_si256(), m1 = m0;
        for (; i < e; i += 32) {
            const u32x8 x0 = u32x8_load(a + i), x1 = u32x8_load(a + i + 8);
            const u32x8 x2 = u32x8_load(a + i + 16), x3 = u32x8_load(a + i + 24);
            m0 = _mm256_max_epu32(m0, _mm256_max_epu32(x0, x1));
            m1 = _mm256_max_epu32(m1, _mm256_max_epu32(x2, x3));
        }
        const u32x8 m = _mm256_max_epu32(_mm256_max_epu32(m0, m1), lim);
        if (_mm256_movemask_epi8(_mm256_cmpeq_epi32(m, lim)) != -1) return true;
    }
    for (; i < len; i++)
        if (a[i] >= p) return true;
    return false;
}

static bool avx2_any_geq_u64(const uint64_t *a, size_t len, uint64_t p, int threads)
{
    (void)threads;
    const u64x4 lim = u64x4_geq_lim(p);
    size_t i = 0;
    while (i + 16 <= len) {
        const size_t e = len - i > 4096 ? i + 4096 : len - (len - i) % 16;
        u64x4 bad = _mm256_setzero_si256();
        for (; i < e; i += 16)
            for (int k = 0; k < 16; k += 4)
                bad = _mm256_or_si256(bad, u64x4_geq(u64x4_load(a + i + k), lim));
        if (!_mm256_testz_si256(bad, bad)) return true;
    }
    for (; i < len; i++)
        if (a[i] >= p) return true;
    return false;
}

/* The CRT primes of ntt_polymul_mod on the x86 backends: the largest four
   of a bit length with 2^30 | q-1 (ntt_find_prime(bits, 30, i)).  Below
   2^51 the products run on the FP64 kernels, faster than the 62-bit
   integer ones by more than a fourth prime costs.  Where the IFMA kernels
   run, each size has its own lazy range (ifma.c), the 51- and 52-bit ones
   with more reductions per butterfly; the costs are the relative product
   times measured on an AMD EPYC (docs/EXPERIMENTS.md), and a larger prime
   pays where it saves a prime.
   Products of the first two, three, four primes: above 2^99.99, 2^149.98,
   2^199.97 (50 bits), 2^101.99, 2^152.99, 2^203.99 (51), 2^103.99,
   2^155.99, 2^207.98 (52). */
static const uint64_t crt50[4] = {1125845146009601ull, 1125844072267777ull,
                                  1125825818656769ull, 1125818302464001ull};
static const uint64_t crt51[4] = {2251792297492481ull, 2251756864012289ull,
                                  2251747200335873ull, 2251740757884929ull};
static const uint64_t crt52[4] = {4503579226275841ull, 4503567415115777ull,
                                  4503557751439361ull, 4503556677697537ull};

size_t ntt_x86_crt_sets(bool avx512, const ntt_crt_set **sets)
{
    static const ntt_crt_set fp64[] = {{crt51, 4, 100}};
    static const ntt_crt_set ifma[] = {{crt50, 4, 100}, {crt51, 4, 116}, {crt52, 4, 134}};
#ifdef NTT_HAVE_IFMA
    if (avx512 && ntt_cpu_ifma_enabled() && ntt_ifma_available()) {
        *sets = ifma;
        return 3;
    }
#else
    (void)avx512;
    (void)ifma;
#endif
    *sets = fp64;
    return 1;
}

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
    .any_geq_u64 = avx2_any_geq_u64,
    .any_geq_u32 = avx2_any_geq_u32,
    .polymul_checks_single = true,
    .pointwise_checks_inputs = true,
};
