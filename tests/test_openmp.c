/* test_openmp: the OpenMP backend bit for bit against the scalar one
   (backend_check.c) on 1, 2 and 3 threads and on more threads than the
   machine has cores; skipped (exit 77) in a build without OpenMP. */
#include "backend_check.h"

#include <unistd.h>

int main(void)
{
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    int threads[4] = {1, 2, 3, cores > 0 && cores < 64 ? 2 * (int)cores + 1 : 5};
    return backend_check_main("test_openmp", NTT_BACKEND_OPENMP, threads, 4);
}
