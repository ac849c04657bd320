/*
 * crt_probe [LOG2_LEN ...]: the word-size CRT step of ntt_polymul_mod
 * (src/core/crt.h) alone, per output coefficient, against its memory
 * floor.  For each length (default 2^18 and 2^21 coefficients, the
 * products of n = 2^17 and 2^20) and each set the AVX-512 row picks for
 * p = 10^9+7 (two 50-bit primes), 2^61-1 and 2^63-25 (three), it times
 * every Garner kernel this CPU runs (scalar, AVX-512, IFMA) in place, as
 * ntt_polymul_mod runs it (r[0] is c), and the floor: one pass that reads
 * the same t arrays and writes c (a sum, no arithmetic to speak of).
 * Medians of 15 runs, one thread, nanoseconds per coefficient.
 *   cmake --build build --target crt_probe && build/bench/probes/crt_probe
 */
#include "crt.h"
#include "cpu_features.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double now_ns(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec * 1e9 + (double)t.tv_nsec;
}

static int cmp_d(const void *x, const void *y)
{
    const double a = *(const double *)x, b = *(const double *)y;
    return a < b ? -1 : a > b;
}

/* The floor: t arrays in, one out, as the kernels stream them. */
static void floor_pass(uint64_t *c, const uint64_t *const *r, size_t len, const ntt_garner *g)
{
    const size_t t = g->t;
    for (size_t i = 0; i < len; i++) {
        uint64_t x = r[0][i];
        for (size_t k = 1; k < t; k++) x += r[k][i];
        c[i] = x;
    }
}

typedef struct {
    const char *name;
    ntt_garner_fn fn;
} kern;

int main(int argc, char **argv)
{
    static const uint64_t set50[] = {1125845146009601ull, 1125844072267777ull,
                                     1125825818656769ull};
    static const struct {
        uint64_t p;
        size_t t;
        const char *name;
    } P[] = {{1000000007ull, 2, "1e9+7"},
             {2305843009213693951ull, 3, "2^61-1"},
             {9223372036854775783ull, 3, "2^63-25"}};
    kern K[4];
    int nk = 0;
    K[nk++] = (kern){"floor", floor_pass};
    K[nk++] = (kern){"scalar", ntt_garner_scalar};
#ifdef NTT_HAVE_AVX512
    if (ntt_cpu_has_avx512()) K[nk++] = (kern){"avx512", ntt_garner_avx512};
#endif
#ifdef NTT_HAVE_IFMA
    if (ntt_cpu_has_ifma()) K[nk++] = (kern){"ifma", ntt_garner_ifma};
#endif
    int logs[8] = {18, 21}, nl = 2;
    if (argc > 1) {
        nl = 0;
        for (int i = 1; i < argc && nl < 8; i++) logs[nl++] = atoi(argv[i]);
    }
    printf("| len | p | primes |");
    for (int k = 0; k < nk; k++) printf(" %s ns/coef |", K[k].name);
    printf("\n|---|---|---|");
    for (int k = 0; k < nk; k++) printf("---|");
    printf("\n");
    for (int li = 0; li < nl; li++) {
        const size_t len = (size_t)1 << logs[li];
        uint64_t *r[3], *c = malloc(len * 8);
        for (int k = 0; k < 3; k++) {
            r[k] = malloc(len * 8);
            uint64_t s = 0x9E3779B97F4A7C15ull + (uint64_t)k;
            for (size_t i = 0; i < len; i++) {
                s ^= s << 13, s ^= s >> 7, s ^= s << 17;
                r[k][i] = s % set50[k];
            }
        }
        for (size_t pi = 0; pi < sizeof P / sizeof P[0]; pi++) {
            ntt_garner g;
            ntt_garner_init(&g, set50, P[pi].t, P[pi].p);
            printf("| 2^%d | %s | %zu |", logs[li], P[pi].name, P[pi].t);
            double med[4];
            double ts[4][15];
            for (int rep = 0; rep < 15; rep++)
                for (int k = 0; k < nk; k++) {
                    /* In place: r[0] is c, refilled from the residues. */
                    memcpy(c, r[0], len * 8);
                    const uint64_t *rr[3] = {c, r[1], r[2]};
                    const double t0 = now_ns();
                    K[k].fn(c, rr, len, &g);
                    ts[k][rep] = (now_ns() - t0) / (double)len;
                }
            for (int k = 0; k < nk; k++) {
                qsort(ts[k], 15, sizeof(double), cmp_d);
                med[k] = ts[k][7];
                printf(" %.2f |", med[k]);
            }
            printf("\n");
        }
        for (int k = 0; k < 3; k++) free(r[k]);
        free(c);
    }
    return 0;
}
