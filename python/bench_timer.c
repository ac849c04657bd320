/* bench_timer.c: the C side of bench_polymul.py.  Times one ntt_polymul_mod
   call with CLOCK_MONOTONIC inside C, so that the Python benchmark compares
   its wrapper with the bare C call in the same process, on the same
   arrays, with the same libntt (the one the package loaded: this file is
   linked against it and resolves to it by its soname). */
#include <ntt.h>
#include <time.h>

int64_t ntt_bench_polymul_ns(uint64_t *c, const uint64_t *a, size_t la, const uint64_t *b,
                             size_t lb, uint64_t p, int backend, int *status);

int64_t ntt_bench_polymul_ns(uint64_t *c, const uint64_t *a, size_t la, const uint64_t *b,
                             size_t lb, uint64_t p, int backend, int *status)
{
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    *status = (int)ntt_polymul_mod(c, a, la, b, lb, p, (ntt_backend)backend);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    return (int64_t)(t1.tv_sec - t0.tv_sec) * 1000000000 + (t1.tv_nsec - t0.tv_nsec);
}
