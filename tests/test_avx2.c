/* test_avx2: the AVX2 backend bit for bit against the scalar one
   (backend_check.c); skipped (exit 77) on a CPU without AVX2. */
#include "backend_check.h"

int main(void) { return backend_check_main("test_avx2", NTT_BACKEND_AVX2, NULL, 0); }
