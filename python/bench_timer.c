/* bench_timer.c: the C side of bench_polymul.py and bench_cuda.py.  Times
   one ntt_polymul_mod call, or a loop of ntt_cuda_forward_u64 calls, with
   CLOCK_MONOTONIC inside C, so that the Python benchmarks compare the
   wrappers with the bare C calls in the same process, on the same arrays,
   with the same libntt (the one the package loaded: this file is linked
   against it and resolves to it by its soname). */
#include <ntt.h>
#include <time.h>

/* One call; returns its wall time (CLOCK_MONOTONIC) and stores the calling
   thread's CPU time (CLOCK_THREAD_CPUTIME_ID: time the thread was scheduled
   out of the CPU does not count) in *cpu_ns, both in nanoseconds. */
int64_t ntt_bench_polymul_ns(uint64_t *c, const uint64_t *a, size_t la, const uint64_t *b,
                             size_t lb, uint64_t p, int backend, int *status, int64_t *cpu_ns);

static int64_t ns_between(const struct timespec *t0, const struct timespec *t1)
{
    return (int64_t)(t1->tv_sec - t0->tv_sec) * 1000000000 + (t1->tv_nsec - t0->tv_nsec);
}

int64_t ntt_bench_polymul_ns(uint64_t *c, const uint64_t *a, size_t la, const uint64_t *b,
                             size_t lb, uint64_t p, int backend, int *status, int64_t *cpu_ns)
{
    struct timespec t0, t1, c0, c1;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &c0);
    clock_gettime(CLOCK_MONOTONIC, &t0);
    *status = (int)ntt_polymul_mod(c, a, la, b, lb, p, (ntt_backend)backend);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &c1);
    *cpu_ns = ns_between(&c0, &c1);
    return ns_between(&t0, &t1);
}

/* reps back-to-back ntt_cuda_forward_u64 calls on a device array (enqueue
   only: the caller synchronizes); the host time of the loop. */
int64_t ntt_bench_cuda_forward_ns(ntt_plan *plan, uint64_t *d_a, size_t count, size_t stride,
                                  ntt_cuda_stream stream, int reps, int *status);

int64_t ntt_bench_cuda_forward_ns(ntt_plan *plan, uint64_t *d_a, size_t count, size_t stride,
                                  ntt_cuda_stream stream, int reps, int *status)
{
    struct timespec t0, t1;
    *status = 0;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    for (int r = 0; r < reps && *status == 0; r++)
        *status = (int)ntt_cuda_forward_u64(plan, d_a, count, stride, stream);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    return ns_between(&t0, &t1);
}
