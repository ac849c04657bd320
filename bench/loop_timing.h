/* The clock and the sort order of bench/product_loop.c and bench/product_ab.c,
   standalone programs built by hand (their comments give the commands). */
#ifndef NTT_BENCH_LOOP_TIMING_H
#define NTT_BENCH_LOOP_TIMING_H

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

#endif
