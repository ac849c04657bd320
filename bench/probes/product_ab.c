/*
 * product_ab LIB_A LIB_B N REPS: A/B timing of two builds of libntt.so in one
 * process, the way BENCHMARKING.md compares builds on a shared machine.  Both
 * are dlopen'ed (RTLD_LOCAL | RTLD_DEEPBIND: each keeps its own symbols and
 * plan cache), and their ntt_polymul_mod calls alternate on the same inputs
 * (the order within a pair flips every pair), so that both see the same
 * machine state, where separate runs of a drifting VM could not tell a few
 * percent apart.  Prints each build's median, 10th percentile and minimum,
 * and the median and quartiles of the per-pair ratio B/A.  The two builds'
 * products must agree.
 * Environment: P (prime, default 469762049), BE (backend number of
 * include/ntt.h, default 5 = AVX-512), FLUSH=MiB (write and read that much
 * before each call, untimed: cold caches, as product_loop).
 *   cmake --build build --target product_ab
 *   build/bench/probes/product_ab old/libntt.so build/libntt.so 131072 400
 */
#define _GNU_SOURCE /* RTLD_DEEPBIND */
#include <dlfcn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "loop_timing.h"

/* The flush adds into it, so that the compiler keeps the flush's reads. */
static volatile unsigned sink;

typedef int (*polymul_fn)(uint64_t *, const uint64_t *, size_t, const uint64_t *, size_t,
                          uint64_t, int);

int main(int argc, char **argv)
{
    if (argc < 5) {
        fprintf(stderr, "usage: [P=prime] [BE=n] [FLUSH=MiB] product_ab LIB_A LIB_B N REPS\n");
        return 2;
    }
    polymul_fn f[2];
    for (int i = 0; i < 2; i++) {
        void *h = dlopen(argv[1 + i], RTLD_NOW | RTLD_LOCAL | RTLD_DEEPBIND);
        if (!h || !(f[i] = (polymul_fn)dlsym(h, "ntt_polymul_mod"))) {
            fprintf(stderr, "%s: %s\n", argv[1 + i], dlerror());
            return 1;
        }
    }
    const size_t n = (size_t)atol(argv[3]);
    const int reps = atoi(argv[4]);
    const char *ps = getenv("P"), *bs = getenv("BE"), *fs = getenv("FLUSH");
    const uint64_t p = ps ? strtoull(ps, NULL, 10) : 469762049;
    const int be = bs ? atoi(bs) : 5;
    const size_t flush = fs ? (size_t)atol(fs) << 20 : 0;
    unsigned char *junk = flush ? malloc(flush) : NULL;
    uint64_t *x = malloc(n * 8), *y = malloc(n * 8), *z[2] = {malloc(2 * n * 8), malloc(2 * n * 8)};
    double *t[2] = {malloc((size_t)reps * 8), malloc((size_t)reps * 8)}, *r = malloc((size_t)reps * 8);
    if (n < 1 || reps < 1 || p < 2 || !x || !y || !z[0] || !z[1] || !t[0] || !t[1] || !r ||
        (flush && !junk)) {
        fprintf(stderr, "bad arguments or out of memory\n");
        return 1;
    }
    srand(1);
    for (size_t i = 0; i < n; i++) {
        x[i] = ((uint64_t)rand() << 31 ^ (uint64_t)rand()) % p;
        y[i] = ((uint64_t)rand() << 31 ^ (uint64_t)rand()) % p;
    }
    for (int k = 0; k < 2; k++)
        if (f[k](z[k], x, n, y, n, p, be) != 0) {
            fprintf(stderr, "build %c: the first product failed\n", 'A' + k);
            return 1;
        }
    if (memcmp(z[0], z[1], (2 * n - 1) * 8) != 0) {
        fprintf(stderr, "the two builds' products differ\n");
        return 1;
    }
    for (int i = 0; i < reps; i++)
        for (int j = 0; j < 2; j++) {
            const int k = (i & 1) ? 1 - j : j;
            if (junk) {
                memset(junk, i + k, flush);
                for (size_t o = 0; o < flush; o += 64) sink += junk[o];
            }
            const double t0 = now();
            if (f[k](z[k], x, n, y, n, p, be) != 0) {
                fprintf(stderr, "build %c: a product failed\n", 'A' + k);
                return 1;
            }
            t[k][i] = now() - t0;
        }
    if (memcmp(z[0], z[1], (2 * n - 1) * 8) != 0) {
        fprintf(stderr, "the two builds' products differ\n");
        return 1;
    }
    for (int i = 0; i < reps; i++) r[i] = t[1][i] / t[0][i];
    for (int k = 0; k < 2; k++) {
        qsort(t[k], (size_t)reps, 8, cmp);
        printf("%c: median %.1f p10 %.1f min %.1f us\n", 'A' + k, t[k][reps / 2] * 1e6,
               t[k][reps / 10] * 1e6, t[k][0] * 1e6);
    }
    qsort(r, (size_t)reps, 8, cmp);
    printf("B/A per pair: median %.4f, quartiles %.4f %.4f\n", r[reps / 2], r[reps / 4],
           r[3 * reps / 4]);
    return 0;
}
