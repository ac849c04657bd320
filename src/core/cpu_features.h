/* The CPU's instruction-set features, read once (cpuid and XCR0) and
   cached: the one place the library asks the CPU what it has.  Every
   backend's available(), the vector range checks, the IFMA kernels of the
   NTT and RNS stages and the MPI twists ask here.  Not installed. */
#ifndef NTT_CPU_FEATURES_H
#define NTT_CPU_FEATURES_H

#include <stdbool.h>

/* Each flag is set only where the CPU reports the instructions and the OS
   saves the registers they use (XCR0: YMM state for AVX2 and FMA, opmask
   and ZMM state too for AVX-512); all false off x86-64. */
typedef struct ntt_cpu_features {
    bool avx2, fma, bmi2;
    bool avx512f, avx512vl, avx512bw, avx512dq, avx512ifma;
} ntt_cpu_features;

/* The features of this CPU.  The first call reads them; later calls, from
   any thread, return the same object.  Never NULL. */
const ntt_cpu_features *ntt_cpu_features_get(void);

/* The CPU's model string as cpuid gives it (at most 48 bytes, as the CPU
   pads it); "" where there is none (off x86-64).  Read with the features;
   never NULL. */
const char *ntt_cpu_brand(void);

/* What the x86 backends' translation units are compiled for: AVX2 with
   FMA and BMI2 (avx2.c); that and AVX-512 F, VL, BW, DQ (avx512.c,
   kernels_u64_lanes.c); that and IFMA (x86/ifma.c, rns/kernels_ifma.c). */
static inline bool ntt_cpu_has_avx2(void)
{
    const ntt_cpu_features *f = ntt_cpu_features_get();
    return f->avx2 && f->fma && f->bmi2;
}

static inline bool ntt_cpu_has_avx512(void)
{
    const ntt_cpu_features *f = ntt_cpu_features_get();
    return ntt_cpu_has_avx2() && f->avx512f && f->avx512vl && f->avx512bw && f->avx512dq;
}

static inline bool ntt_cpu_has_ifma(void)
{
    return ntt_cpu_has_avx512() && ntt_cpu_features_get()->avx512ifma;
}

#endif /* NTT_CPU_FEATURES_H */
