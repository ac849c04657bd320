/* test_ifma: the AVX-512 backend bit for bit against the scalar one
   (backend_check.c) where it runs the IFMA kernels for u64 primes below
   2^52 (backend_check's primes include one below 2^50, two between 2^50
   and 2^51 and one between 2^51 and 2^52, the kernels' three lazy
   ranges); skipped (exit 77) on a CPU without AVX-512 IFMA.  test_avx512
   covers the FP64 and 64-bit-lane kernels there. */
#include "backend_check.h"

int main(void)
{
#if defined(__x86_64__) || defined(_M_X64)
    if (!__builtin_cpu_supports("avx512ifma")) return TEST_SKIP;
    return backend_check_main("test_ifma", NTT_BACKEND_AVX512, NULL, 0);
#else
    return TEST_SKIP;
#endif
}
