/*
 * state_probe N_LOG2 ROUNDS: what state the machine is in, round after
 * round.  Each round: the read bandwidth on one OpenMP thread and on two
 * (the probe `ntt-bench ladder` runs after each threaded table), then two
 * products of two random polynomials of length 2^(N_LOG2-1) mod 469762049
 * on the OpenMP backend, on one thread and on two, each checked against the
 * scalar backend's product.  One line per round:
 *   read GB/s on 1, on 2, their ratio | product ms on 1, on 2, their ratio
 * On a shared VM it tells the host's slow spells (two threads reading
 * unusually fast against one, two-thread products unusually slow) from the
 * code's own behaviour (docs/PERFORMANCE.md).
 *   cmake --build build --target state_probe
 *   OMP_PROC_BIND=true build/bench/probes/state_probe 23 600
 */
#include <ntt.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "loop_timing.h"
#include "sysinfo.h"

int main(int argc, char **argv)
{
    const int lg = argc > 1 ? atoi(argv[1]) : 23, rounds = argc > 2 ? atoi(argv[2]) : 100;
    const uint64_t p = 469762049;
    if (lg < 2 || lg > 28 || rounds < 1) {
        fprintf(stderr, "usage: state_probe N_LOG2 ROUNDS\n");
        return 2;
    }
    const size_t n = (size_t)1 << lg, h = n / 2;
    uint64_t *x = malloc(h * 8), *y = malloc(h * 8);
    uint32_t *a = malloc(h * 4), *b = malloc(h * 4), *c = malloc(n * 4), *r = malloc(n * 4);
    ntt_plan *P[2] = {NULL, NULL};
    if (!x || !y || !a || !b || !c || !r) {
        fprintf(stderr, "out of memory\n");
        return 1;
    }
    random_operands(x, y, h, p);
    for (size_t i = 0; i < h; i++) {
        a[i] = (uint32_t)x[i];
        b[i] = (uint32_t)y[i];
    }
    for (int k = 0; k < 2; k++) {
        ntt_plan_options o = {0};
        o.threads = k + 1;
        if (ntt_plan_create(&P[k], n, p, NTT_U32, NTT_BACKEND_OPENMP, &o) != NTT_OK) {
            fprintf(stderr, "no OpenMP plan of 2^%d\n", lg);
            return 1;
        }
    }
    ntt_plan *S = NULL;
    if (ntt_plan_create(&S, n, p, NTT_U32, NTT_BACKEND_SCALAR, NULL) != NTT_OK ||
        ntt_polymul_linear_u32(S, r, a, h, b, h) != NTT_OK) {
        fprintf(stderr, "no scalar reference product\n");
        return 1;
    }
    ntt_plan_destroy(S);
    for (int i = 0; i < rounds; i++) {
        const int th[2] = {1, 2};
        double g[2];
        sysinfo_read_gbps((size_t)128 << 20, th, 2, g);
        double t[2];
        for (int k = 0; k < 2; k++) {
            const double t0 = now();
            for (int j = 0; j < 2; j++)
                if (ntt_polymul_linear_u32(P[k], c, a, h, b, h) != NTT_OK) return 1;
            t[k] = (now() - t0) / 2;
            if (memcmp(c, r, (n - 1) * 4) != 0) {
                fprintf(stderr, "%d thread(s): a wrong product\n", k + 1);
                return 1;
            }
        }
        printf("%.1f %.1f %.2f | %.2f %.2f %.2f\n", g[0], g[1], g[1] / g[0], t[0] * 1e3, t[1] * 1e3,
               t[0] / t[1]);
        fflush(stdout);
    }
    ntt_plan_destroy(P[0]);
    ntt_plan_destroy(P[1]);
    free(x);
    free(y);
    free(a);
    free(b);
    free(c);
    free(r);
    return 0;
}
