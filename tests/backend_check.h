/* A CPU backend checked bit for bit against the scalar backend; shared by
   test_avx2 and test_openmp. */
#ifndef NTT_BACKEND_CHECK_H
#define NTT_BACKEND_CHECK_H

#include "test_common.h"

/* Runs every check on `backend` and returns the program's exit code
   (TEST_SKIP when the backend is not available here).  Each configuration
   uses one of threads[0 .. nthreads) as its plan's thread count (none: 0). */
int backend_check_main(const char *prog, ntt_backend backend, const int *threads, int nthreads);

#endif
