/* ntt-bench u64: one-thread u64 forward, inverse and pointwise (issue 47)
   at N = 2^12 .. 2^17 for 50-, 51-, 52- and 60-bit primes, negacyclic, the
   x86 kernels of this build against the ones they replace, in one
   process, samples alternated.  "old" is the AVX-512 backend with the IFMA
   kernels turned off below 2^52 (FP64 kernels below 2^51, 64-bit lanes
   above) and the scalar backend (the kernels the AVX-512 backend ran there
   before the 64-bit-lane ones) for the 60-bit prime; "new" is the AVX-512
   backend as built.  Every row's outputs are compared with the scalar
   backend's first. */
#include "ntt.h"

#include "ntt_internal.h"
#include "bench.h"
#include "cli.h"
#include "sysinfo.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double now_us(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec * 1e6 + (double)t.tv_nsec * 1e-3;
}

static int cmp_d(const void *x, const void *y)
{
    const double a = *(const double *)x, b = *(const double *)y;
    return a < b ? -1 : a > b;
}

enum { OP_FWD, OP_INV, OP_PW };
static const char *const OPS[] = {"forward", "inverse", "pointwise"};

static ntt_status run_op(ntt_plan *pl, int op, uint64_t *x, const uint64_t *a, const uint64_t *b)
{
    switch (op) {
    case OP_FWD: return ntt_forward_u64(pl, x);
    case OP_INV: return ntt_inverse_u64(pl, x);
    default: return ntt_pointwise_u64(pl, x, a, b);
    }
}

/* Mean time of k calls, microseconds. */
static double sample(ntt_plan *pl, int op, uint64_t *x, const uint64_t *a, const uint64_t *b,
                     int k, bool *fail)
{
    const double t0 = now_us();
    for (int i = 0; i < k; i++) *fail |= run_op(pl, op, x, a, b) != NTT_OK;
    return (now_us() - t0) / k;
}

static ntt_status make(ntt_plan **pl, size_t n, uint64_t p, ntt_backend be, bool ifma)
{
    ntt_plan_options o = {.modmul = NTT_MODMUL_SHOUP, .flags = NTT_FLAG_NEGACYCLIC, .threads = 1};
    ntt_cpu_use_ifma(ifma);
    const ntt_status s = ntt_plan_create(pl, n, p, NTT_U64, be, &o);
    ntt_cpu_use_ifma(true);
    return s;
}

static void usage(FILE *f)
{
    fputs("usage: ntt-bench u64 [--reps R] [--quick] [--json FILE]\n"
          "  one thread, negacyclic, N = 2^12 .. 2^17, 50-, 51-, 52- and 60-bit primes:\n"
          "  forward, inverse and pointwise on the AVX-512 backend as built (new)\n"
          "  and on the kernels it replaces (old), samples alternated, every row\n"
          "  checked against the scalar backend first.\n"
          "  --reps R      samples per column and row (default 9; --quick: 3)\n"
          "  --json FILE   the rows with their medians\n",
          f);
}

int bench_u64(int argc, char **argv)
{
    static const char cmd[] = "ntt-bench u64";
    uint64_t reps64 = 9;
    const char *json = NULL;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        int r;
        if (cli_is_help(a)) {
            usage(stdout);
            return EXIT_OK;
        } else if (!strcmp(a, "--quick")) {
            reps64 = 3;
        } else if ((r = cli_number_option(cmd, argc, argv, &i, "--reps", 1, 99, &reps64)) != 0 ||
                   (r = cli_file_option(cmd, argc, argv, &i, "--json", NULL, &json)) != 0) {
            if (r < 0) return EXIT_USAGE;
        } else {
            return cli_unknown_option(cmd, a);
        }
    }
    const int reps = (int)reps64;
    if (!ntt_backend_available(NTT_BACKEND_AVX512)) {
        fprintf(stderr, "ntt-bench u64: the AVX-512 backend does not run here\n");
        return 1;
    }
    static const struct {
        uint64_t p;
        const char *name;
    } P[] = {{1125899437080577ull, "50-bit"}, {1337006139375617ull, "51-bit"},
             {4503599409266689ull, "52-bit"}, {1152921504577486849ull, "60-bit"}};
    FILE *jf = json ? fopen(json, "w") : NULL;
    if (json && !jf) {
        fprintf(stderr, "ntt-bench u64: cannot write %s\n", json);
        return 1;
    }
    sysinfo si;
    sysinfo_read(&si);
    if (jf) {
        fputs("{\n", jf);
        sysinfo_json(jf, &si, "  ");
        fprintf(jf, ",\n  \"reps\": %d,\n  \"rows\": [\n", reps);
    }
    printf("# %s; one thread; medians of %d samples, old and new alternated (us)\n", si.cpu_model, reps);
    printf("| op | N | prime | old | new | new / old |\n|---|---|---|---|---|---|\n");
    int rc = 0;
    bool first = true;
    for (size_t pi = 0; pi < sizeof P / sizeof P[0]; pi++) {
        const uint64_t p = P[pi].p;
        const bool ifma = p >> 52 == 0; /* old: IFMA off; else scalar */
        for (unsigned lg = 12; lg <= 17; lg++) {
            const size_t n = (size_t)1 << lg;
            ntt_plan *ref = NULL, *pl[2] = {NULL, NULL};
            if (make(&ref, n, p, NTT_BACKEND_SCALAR, true) != NTT_OK ||
                make(&pl[0], n, p, ifma ? NTT_BACKEND_AVX512 : NTT_BACKEND_SCALAR, false) != NTT_OK ||
                make(&pl[1], n, p, NTT_BACKEND_AVX512, true) != NTT_OK) {
                fprintf(stderr, "ntt-bench u64: no plan for n = %zu, p = %" PRIu64 "\n", n, p);
                rc = 1;
                goto next;
            }
            uint64_t *a = malloc(n * 8), *b = malloc(n * 8), *x = malloc(n * 8), *y = malloc(n * 8);
            if (!a || !b || !x || !y) {
                free(a), free(b), free(x), free(y);
                rc = 1;
                goto next;
            }
            uint64_t s = 0x9E3779B97F4A7C15ull ^ (p + lg);
            for (size_t i = 0; i < n; i++) {
                s ^= s << 13, s ^= s >> 7, s ^= s << 17;
                a[i] = s % p;
                s ^= s << 13, s ^= s >> 7, s ^= s << 17;
                b[i] = s % p;
            }
            for (int op = 0; op < 3; op++) {
                bool fail = false;
                /* The check: old and new against the scalar backend. */
                memcpy(y, a, n * 8);
                fail |= run_op(ref, op, y, a, b) != NTT_OK;
                for (int k = 0; k < 2; k++) {
                    memcpy(x, a, n * 8);
                    fail |= run_op(pl[k], op, x, a, b) != NTT_OK || memcmp(x, y, n * 8) != 0;
                }
                if (fail) {
                    fprintf(stderr, "ntt-bench u64: %s n = %zu p = %" PRIu64 " differs from scalar\n",
                            OPS[op], n, p);
                    rc = 1;
                    continue;
                }
                const int k = n >= 65536 ? 4 : (int)(262144 / n);
                double t[2][99];
                memcpy(x, a, n * 8);
                for (int r = 0; r < reps; r++)
                    for (int c = 0; c < 2; c++) t[c][r] = sample(pl[c], op, x, a, b, k, &fail);
                double med[2];
                for (int c = 0; c < 2; c++) {
                    qsort(t[c], (size_t)reps, sizeof(double), cmp_d);
                    med[c] = t[c][reps / 2];
                }
                if (fail) rc = 1;
                printf("| %s | 2^%u | %s | %.1f | %.1f | %.2f |\n", OPS[op], lg, P[pi].name, med[0],
                       med[1], med[1] / med[0]);
                if (jf) {
                    fprintf(jf,
                            "%s    {\"op\": \"%s\", \"n\": %zu, \"p\": %" PRIu64
                            ", \"old\": \"%s\", \"old_us\": %.3f, \"new_us\": %.3f, \"verified\": true}",
                            first ? "" : ",\n", OPS[op], n, p,
                            !ifma ? "scalar" : p >> 51 ? "avx512 lanes64" : "avx512 fp64", med[0],
                            med[1]);
                    first = false;
                }
            }
            free(a), free(b), free(x), free(y);
        next:
            ntt_plan_destroy(ref);
            ntt_plan_destroy(pl[0]);
            ntt_plan_destroy(pl[1]);
        }
    }
    if (jf) {
        fputs("\n  ]\n}\n", jf);
        fclose(jf);
    }
    return rc;
}
