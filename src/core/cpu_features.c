/* The CPU probe (cpu_features.h), after FFTW's simd-support and HEXL's
   cpu-features: cpuid leaves 1 and 7, and XCR0 through xgetbv, read
   once.  xgetbv is written as its bytes' assembly so that this file needs
   no ISA flags (the intrinsic wants -mxsave). */
#include "cpu_features.h"

#include <pthread.h>

static ntt_cpu_features features;
static char brand[49];
static pthread_once_t once = PTHREAD_ONCE_INIT;

#if defined(__x86_64__) && defined(__GNUC__)
#include <cpuid.h>

static unsigned long long xcr0(void)
{
    unsigned lo, hi;
    __asm__ volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
    return ((unsigned long long)hi << 32) | lo;
}

/* The model string of cpuid leaves 0x80000002..4, where the CPU has them. */
static void read_brand(void)
{
    unsigned r[12];
    if ((unsigned)__get_cpuid_max(0x80000000u, NULL) < 0x80000004u) return;
    for (unsigned i = 0; i < 3; i++)
        __cpuid(0x80000002u + i, r[4 * i], r[4 * i + 1], r[4 * i + 2], r[4 * i + 3]);
    for (unsigned i = 0; i < 48; i++) brand[i] = (char)(r[i / 4] >> (8 * (i % 4)));
    brand[48] = 0;
}

static void probe(void)
{
    unsigned a, b, c, d, b7 = 0;
    read_brand();
    if (!__get_cpuid(1, &a, &b, &c, &d)) return;
    const bool fma = (c >> 12) & 1, osxsave = (c >> 27) & 1, avx = (c >> 28) & 1;
    if (__get_cpuid_max(0, NULL) >= 7) {
        unsigned a7, c7, d7;
        __cpuid_count(7, 0, a7, b7, c7, d7);
        (void)a7, (void)c7, (void)d7;
    }
    features.bmi2 = (b7 >> 8) & 1;
    if (!osxsave || !avx) return;
    const unsigned long long x = xcr0();
    /* XMM and YMM state (bits 1, 2); opmask, ZMM0-15 upper and ZMM16-31
       (bits 5, 6, 7). */
    if ((x & 0x6) != 0x6) return;
    features.fma = fma;
    features.avx2 = (b7 >> 5) & 1;
    if ((x & 0xe0) != 0xe0) return;
    features.avx512f = (b7 >> 16) & 1;
    features.avx512dq = (b7 >> 17) & 1;
    features.avx512ifma = (b7 >> 21) & 1;
    features.avx512bw = (b7 >> 30) & 1;
    features.avx512vl = (b7 >> 31) & 1;
}
#else
static void probe(void) {}
#endif

const ntt_cpu_features *ntt_cpu_features_get(void)
{
    (void)pthread_once(&once, probe);
    return &features;
}

const char *ntt_cpu_brand(void)
{
    (void)pthread_once(&once, probe);
    return brand;
}
