/* The clock and the sort order of the CPU probes, and the operands of those
   that multiply: small on purpose, so that each probe reads on its own. */
#ifndef NTT_BENCH_LOOP_TIMING_H
#define NTT_BENCH_LOOP_TIMING_H

#include <stdint.h>
#include <stdlib.h>
#include <time.h>

static inline double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* qsort order of doubles. */
static inline int cmp(const void *a, const void *b)
{
    const double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* x[0..n), y[0..n): the same pseudo-random values below p in every run. */
static inline void random_operands(uint64_t *x, uint64_t *y, size_t n, uint64_t p)
{
    srand(1);
    for (size_t i = 0; i < n; i++) {
        x[i] = ((uint64_t)rand() << 31 ^ (uint64_t)rand()) % p;
        y[i] = ((uint64_t)rand() << 31 ^ (uint64_t)rand()) % p;
    }
}

#endif
