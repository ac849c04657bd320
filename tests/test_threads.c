/* test_threads BACKEND: threads as an option of a serial CPU backend.  The
   plan option threads > 1 on SCALAR, AVX2 or AVX512 runs that backend's
   kernels (AVX2's on an AVX-512 host too) on several threads; every
   transform, pointwise product, product, batch and ntt_polymul_mod must
   give the words of the scalar backend on one thread (backend_check.c),
   and the plan must keep its backend.  Skipped (exit 77) where the backend
   is not available or the library has no OpenMP (threads > 1 then runs
   one thread, which test_avx2 and the others cover). */
#include "backend_check.h"

#include <string.h>

int main(int argc, char **argv)
{
    ntt_backend be;
    if (argc != 2 || ntt_backend_from_name(argv[1], &be) != NTT_OK ||
        (be != NTT_BACKEND_SCALAR && be != NTT_BACKEND_AVX2 && be != NTT_BACKEND_AVX512)) {
        fprintf(stderr, "usage: test_threads scalar|avx2|avx512\n");
        return 1;
    }
    if (!ntt_backend_available(NTT_BACKEND_OPENMP)) {
        printf("test_threads: no OpenMP in this library: skipped\n");
        return TEST_SKIP;
    }
    if (ntt_backend_available(be)) {
        /* The plan keeps the backend it was asked for. */
        ntt_plan_options o;
        memset(&o, 0, sizeof o);
        o.threads = 3;
        ntt_plan *pl = NULL;
        if (ntt_plan_create(&pl, 1024, 469762049, NTT_U32, be, &o) != NTT_OK ||
            ntt_plan_backend(pl) != be) {
            fprintf(stderr, "test_threads: a %s plan of 3 threads is not a %s plan\n", argv[1],
                    argv[1]);
            ntt_plan_destroy(pl);
            return 1;
        }
        ntt_plan_destroy(pl);
    }
    static const int threads[] = {2, 3, 4};
    char prog[64];
    snprintf(prog, sizeof prog, "test_threads_%s", argv[1]);
    return backend_check_main(prog, be, threads, 3);
}
