/*
 * thread_loop N REPS: the product of two random length-N polynomials mod
 * 469762049 (ntt_polymul_mod_ex, OpenMP backend) on one thread and on two,
 * alternated REPS times, each call's result compared with the scalar
 * backend's.  Prints both medians and minima and their ratios: the
 * two-thread speed-up without the rest of `ntt-bench ladder` between the
 * calls.
 *   cmake --build build --target thread_loop
 *   build/bench/probes/thread_loop 4194304 9
 */
#include <ntt.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "loop_timing.h"

int main(int argc, char **argv)
{
    const size_t n = argc > 1 ? (size_t)atol(argv[1]) : (size_t)1 << 22;
    const int reps = argc > 2 ? atoi(argv[2]) : 9;
    const uint64_t p = 469762049;
    if (n < 1 || reps < 1) {
        fprintf(stderr, "usage: thread_loop N REPS\n");
        return 2;
    }
    uint64_t *x = malloc(n * 8), *y = malloc(n * 8), *z = malloc(2 * n * 8), *ref = malloc(2 * n * 8);
    double *t[2] = {malloc((size_t)reps * sizeof(double)), malloc((size_t)reps * sizeof(double))};
    if (!x || !y || !z || !ref || !t[0] || !t[1]) {
        fprintf(stderr, "out of memory\n");
        return 1;
    }
    random_operands(x, y, n, p);
    ntt_status s = ntt_polymul_mod(ref, x, n, y, n, p, NTT_BACKEND_SCALAR);
    if (s != NTT_OK) {
        fprintf(stderr, "reference product: status %d\n", (int)s);
        return 1;
    }
    for (int r = 0; r < reps; r++) {
        for (int k = 0; k < 2; k++) {
            ntt_plan_options o = {0};
            o.threads = k + 1;
            memset(z, 0, 2 * n * 8);
            const double t0 = now();
            s = ntt_polymul_mod_ex(z, x, n, y, n, p, NTT_BACKEND_OPENMP, &o);
            t[k][r] = now() - t0;
            if (s != NTT_OK || memcmp(z, ref, (2 * n - 1) * 8) != 0) {
                fprintf(stderr, "%d thread(s): status %d or a wrong product\n", k + 1, (int)s);
                return 1;
            }
        }
    }
    qsort(t[0], (size_t)reps, sizeof(double), cmp);
    qsort(t[1], (size_t)reps, sizeof(double), cmp);
    const double m1 = t[0][reps / 2], m2 = t[1][reps / 2];
    printf("n %zu  1 thread median %.0f us min %.0f | 2 threads median %.0f us min %.0f | "
           "2 vs 1: medians %.2f minima %.2f\n",
           n, m1 * 1e6, t[0][0] * 1e6, m2 * 1e6, t[1][0] * 1e6, m1 / m2, t[0][0] / t[1][0]);
    free(x), free(y), free(z), free(ref), free(t[0]), free(t[1]);
    return 0;
}
