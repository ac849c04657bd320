/* test_avx512: the AVX-512 backend bit for bit against the scalar one
   (backend_check.c), with its FP64 u64 kernels also where the CPU has IFMA
   (test_ifma checks those); skipped (exit 77) on a CPU without AVX-512 F,
   VL, BW and DQ, or a build without the backend. */
#include "backend_check.h"

#include "ntt_internal.h"

int main(void)
{
    ntt_cpu_use_ifma(false);
    return backend_check_main("test_avx512", NTT_BACKEND_AVX512, NULL, 0);
}
