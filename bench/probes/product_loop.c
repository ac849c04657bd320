/*
 * product_loop N REPS: the product of two random length-N polynomials mod P
 * (ntt_polymul_mod; P from the environment, default 469762049) on the
 * AVX-512 backend (BE=avx2: AVX2), REPS calls in a loop on the same buffers,
 * after one checked against the scalar backend and before a check of the
 * last.  Prints the median, the minimum and the 10th / 90th percentiles:
 * a kernel's time without the other rows of a table between its calls.
 * FLUSH=MiB writes and reads a buffer of that size before each call (not
 * timed), so that the call starts with the caches holding other data, as
 * the interleaved rows of `ntt-bench table` leave them.
 *   cmake --build build --target product_loop
 *   build/bench/probes/product_loop 131072 300
 * To compare two builds, build the probe in both trees and alternate:
 *   for i in 1 2 3; do old/bench/probes/product_loop 131072 300
 *                      new/bench/probes/product_loop 131072 300; done
 * (product_ab compares two builds inside one process, which is steadier.)
 */
#include <ntt.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "loop_timing.h"

int main(int argc, char **argv)
{
    const size_t n = argc > 1 ? (size_t)atol(argv[1]) : 131072;
    const int reps = argc > 2 ? atoi(argv[2]) : 200;
    const char *be = getenv("BE"), *ps = getenv("P");
    const ntt_backend b = be && !strcmp(be, "avx2") ? NTT_BACKEND_AVX2 : NTT_BACKEND_AVX512;
    const uint64_t p = ps ? strtoull(ps, NULL, 10) : 469762049;
    if (n < 1 || reps < 1 || p < 2) {
        fprintf(stderr, "usage: P=prime [BE=avx2] product_loop N REPS\n");
        return 2;
    }
    uint64_t *x = malloc(n * 8), *y = malloc(n * 8), *z = malloc(2 * n * 8), *ref = malloc(2 * n * 8);
    double *t = malloc((size_t)reps * sizeof *t);
    const char *fs = getenv("FLUSH");
    const size_t flush = fs ? (size_t)atol(fs) << 20 : 0;
    unsigned char *junk = flush ? malloc(flush) : NULL;
    unsigned sink = 0;
    if (!x || !y || !z || !ref || !t) {
        fprintf(stderr, "out of memory\n");
        return 1;
    }
    random_operands(x, y, n, p);
    ntt_status s = ntt_polymul_mod(ref, x, n, y, n, p, NTT_BACKEND_SCALAR);
    if (s == NTT_OK) s = ntt_polymul_mod(z, x, n, y, n, p, b);
    if (s != NTT_OK || memcmp(z, ref, (2 * n - 1) * 8) != 0) {
        fprintf(stderr, "first product: status %d or differs from the scalar backend\n", (int)s);
        return 1;
    }
    for (int r = 0; r < reps; r++) {
        if (junk) {
            memset(junk, r, flush);
            for (size_t i = 0; i < flush; i += 64) sink += junk[i];
        }
        const double t0 = now();
        s = ntt_polymul_mod(z, x, n, y, n, p, b);
        t[r] = now() - t0;
        if (s != NTT_OK) {
            fprintf(stderr, "status %d\n", (int)s);
            return 1;
        }
    }
    if (memcmp(z, ref, (2 * n - 1) * 8) != 0) {
        fprintf(stderr, "last product differs from the scalar backend\n");
        return 1;
    }
    qsort(t, (size_t)reps, sizeof *t, cmp);
    if (sink == 1) putchar(' '); /* keeps the flush's reads */
    printf("n %zu p %llu median %.1f us min %.1f p10 %.1f p90 %.1f\n", n, (unsigned long long)p,
           t[reps / 2] * 1e6, t[0] * 1e6, t[reps / 10] * 1e6, t[reps * 9 / 10] * 1e6);
    free(x), free(y), free(z), free(ref), free(t), free(junk);
    return 0;
}
