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
 * before each call, untimed: cold caches, as product_loop), OP (polymul, the
 * default: ntt_polymul_mod; forward, inverse or pointwise: that u64 call on
 * a negacyclic plan of size N for P, which must then be an NTT prime below
 * 2^62, each build with its own plan; the calls work in place, so their
 * outputs are compared after one call on the same input, before the timing).
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
/* The few calls of include/ntt.h the transform modes need, by their ABI. */
typedef struct {
    unsigned modmul, flags;
    int threads;
    size_t batch;
} plan_opts;
typedef int (*plan_create_fn)(void **, size_t, uint64_t, int, int, const plan_opts *);
typedef int (*transform_fn)(void *, uint64_t *);
typedef int (*pointwise_fn)(void *, uint64_t *, const uint64_t *, const uint64_t *);

enum { OP_POLYMUL, OP_FORWARD, OP_INVERSE, OP_POINTWISE };

/* One build's entry points and, in the transform modes, its plan. */
typedef struct {
    polymul_fn polymul;
    transform_fn transform;
    pointwise_fn pointwise;
    void *plan;
} build;

/* One timed call of build b on operands x, y into z. */
static int call(const build *b, int op, uint64_t *z, const uint64_t *x, const uint64_t *y,
                size_t n, uint64_t p, int be)
{
    switch (op) {
    case OP_POLYMUL: return b->polymul(z, x, n, y, n, p, be);
    case OP_POINTWISE: return b->pointwise(b->plan, z, x, y);
    default: return b->transform(b->plan, z);
    }
}

int main(int argc, char **argv)
{
    if (argc < 5) {
        fprintf(stderr, "usage: [P=prime] [BE=n] [FLUSH=MiB] [OP=op] product_ab LIB_A LIB_B N REPS\n");
        return 2;
    }
    const char *ps = getenv("P"), *bs = getenv("BE"), *fs = getenv("FLUSH"), *os = getenv("OP");
    const char *ops[] = {"polymul", "forward", "inverse", "pointwise"};
    int op = -1;
    for (int i = 0; i < 4; i++)
        if (!os || strcmp(os, ops[i]) == 0) {
            op = i;
            break;
        }
    if (op < 0) {
        fprintf(stderr, "OP must be polymul, forward, inverse or pointwise\n");
        return 2;
    }
    const size_t n = (size_t)atol(argv[3]);
    const int reps = atoi(argv[4]);
    const uint64_t p = ps ? strtoull(ps, NULL, 10) : 469762049;
    const int be = bs ? atoi(bs) : 5;
    build f[2] = {{0}};
    for (int i = 0; i < 2; i++) {
        void *h = dlopen(argv[1 + i], RTLD_NOW | RTLD_LOCAL | RTLD_DEEPBIND);
        if (!h || !(f[i].polymul = (polymul_fn)dlsym(h, "ntt_polymul_mod"))) {
            fprintf(stderr, "%s: %s\n", argv[1 + i], dlerror());
            return 1;
        }
        if (op == OP_POLYMUL) continue;
        const char *name = op == OP_FORWARD ? "ntt_forward_u64" : "ntt_inverse_u64";
        plan_create_fn create = (plan_create_fn)dlsym(h, "ntt_plan_create");
        f[i].transform = (transform_fn)dlsym(h, name);
        f[i].pointwise = (pointwise_fn)dlsym(h, "ntt_pointwise_u64");
        const plan_opts o = {0, 1u /* NTT_FLAG_NEGACYCLIC */, 0, 0};
        if (!create || !f[i].transform || !f[i].pointwise ||
            create(&f[i].plan, n, p, 64 /* NTT_U64 */, be, &o) != 0) {
            fprintf(stderr, "%s: no u64 negacyclic plan of size %zu for %llu\n", argv[1 + i], n,
                    (unsigned long long)p);
            return 1;
        }
    }
    const size_t flush = fs ? (size_t)atol(fs) << 20 : 0;
    unsigned char *junk = flush ? malloc(flush) : NULL;
    uint64_t *x = malloc(n * 8), *y = malloc(n * 8), *z[2] = {malloc(2 * n * 8), malloc(2 * n * 8)};
    double *t[2] = {malloc((size_t)reps * 8), malloc((size_t)reps * 8)}, *r = malloc((size_t)reps * 8);
    if (n < 1 || reps < 1 || p < 2 || !x || !y || !z[0] || !z[1] || !t[0] || !t[1] || !r ||
        (flush && !junk)) {
        fprintf(stderr, "bad arguments or out of memory\n");
        return 1;
    }
    random_operands(x, y, n, p);
    /* The outputs compared: the product's 2n - 1 words, or one call on x. */
    const size_t words = op == OP_POLYMUL ? 2 * n - 1 : n;
    for (int k = 0; k < 2; k++) {
        if (op != OP_POLYMUL) memcpy(z[k], x, n * 8);
        if (call(&f[k], op, z[k], x, y, n, p, be) != 0) {
            fprintf(stderr, "build %c: the first call failed\n", 'A' + k);
            return 1;
        }
    }
    if (memcmp(z[0], z[1], words * 8) != 0) {
        fprintf(stderr, "the two builds' outputs differ\n");
        return 1;
    }
    /* The in-place calls then run on their own outputs, which stay below p.
       The first build in a pair flips every pair. */
    for (int i = 0; i < reps; i++)
        for (int j = 0; j < 2; j++) {
            const int k = (i & 1) ? 1 - j : j;
            if (junk) {
                memset(junk, i + k, flush);
                for (size_t o = 0; o < flush; o += 64) sink += junk[o];
            }
            const double t0 = now();
            if (call(&f[k], op, z[k], x, y, n, p, be) != 0) {
                fprintf(stderr, "build %c: a call failed\n", 'A' + k);
                return 1;
            }
            t[k][i] = now() - t0;
        }
    /* Both builds made the same calls on the same words. */
    if (memcmp(z[0], z[1], words * 8) != 0) {
        fprintf(stderr, "the two builds' outputs differ\n");
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
