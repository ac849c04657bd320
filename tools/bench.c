/* ntt bench: polynomial products timed side by side with FLINT and NTL,
   following docs/BENCHMARKING.md: every row verified against GMP before it
   is timed, repetitions interleaved across rows, medians with min/max, the
   machine stated, results written as JSON with the raw repetitions. */
#include "ref.h"
#include "tool.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

enum row_kind { ROW_NTT, ROW_REF };

typedef struct {
    char name[96];
    enum row_kind kind;
    ref_lib lib;     /* ROW_REF */
    ntt_backend backend;
    mul_opts opts;
    bool cold;       /* clear the plan cache before every call (timed after the other rows) */
    ref_job *job;
    bench_series s;
} row;

typedef struct {
    size_t n;
    int reps, baseline_reps;
    bool quick;
    uint64_t seed;
    const char *json;
} options;

static int cmp_double(const void *x, const void *y)
{
    double a = *(const double *)x, b = *(const double *)y;
    return (a > b) - (a < b);
}

void bench_stats(const double *x, int n, double *median, double *min, double *max)
{
    double *s = n > 0 ? malloc((size_t)n * sizeof *s) : NULL;
    if (!s) return;
    memcpy(s, x, (size_t)n * sizeof *s);
    qsort(s, (size_t)n, sizeof *s, cmp_double);
    *min = s[0];
    *max = s[n - 1];
    *median = n % 2 ? s[n / 2] : 0.5 * (s[n / 2 - 1] + s[n / 2]);
    free(s);
}

void bench_series_run(const bench_ops *ops, void *ctx, int nrows, bool warm)
{
    int rounds = 0;
    for (int k = 0; k < nrows; k++) {
        bench_series *s = ops->series(ctx, k);
        if (s->why[0]) continue;
        s->ok = ops->check(ctx, k, false);
        if (!s->ok) continue;
        for (int w = 0; w < 2; w++) (void)ops->call(ctx, k);
        s->reps = malloc((size_t)s->want * sizeof *s->reps);
        if (!s->reps) {
            s->ok = false;
            snprintf(s->why, sizeof s->why, "FAILED (out of memory)");
        }
        if (s->want > rounds) rounds = s->want;
    }
    for (int r = 0; r < rounds; r++) {
        for (int k = 0; k < nrows; k++) {
            bench_series *s = ops->series(ctx, k);
            if (!s->ok || s->nreps >= s->want) continue;
            if (warm) (void)ops->call(ctx, k);
            const double t0 = now_seconds();
            const ntt_status st = ops->call(ctx, k);
            const double t1 = now_seconds();
            if (st != NTT_OK) {
                s->ok = false;
                snprintf(s->why, sizeof s->why, "FAILED (%s)", ntt_status_string(st));
                continue;
            }
            s->reps[s->nreps++] = t1 - t0;
        }
    }
    for (int k = 0; k < nrows; k++) {
        bench_series *s = ops->series(ctx, k);
        if (!s->ok) continue;
        s->ok = ops->check(ctx, k, true);
        if (s->ok && s->nreps == 0) {
            s->ok = false;
            snprintf(s->why, sizeof s->why, "FAILED (no repetitions taken)");
        }
        if (s->ok) bench_stats(s->reps, s->nreps, &s->median, &s->min, &s->max);
    }
}

void bench_series_json(FILE *f, const bench_series *s)
{
    fprintf(f, ", \"verified\": %s", s->ok ? "true" : "false");
    if (s->ok) {
        fprintf(f, ", \"median_s\": %.9g, \"min_s\": %.9g, \"max_s\": %.9g, \"reps_s\": [",
                s->median, s->min, s->max);
        for (int t = 0; t < s->nreps; t++) fprintf(f, "%s%.9g", t ? ", " : "", s->reps[t]);
        fprintf(f, "]");
    } else {
        fprintf(f, ", \"error\": ");
        cli_json_string(f, s->why);
    }
}

/* One modulus's table as bench_series_run sees it: its row k is rows[idx[k]]. */
typedef struct {
    row *rows;
    const int *idx;
    uint64_t *c;
    const uint64_t *a, *b, *ref;
    size_t n;
    uint64_t p;
    bool mismatch; /* a verified row computed a wrong product */
} table_ctx;

static row *ctx_row(void *ctx, int k)
{
    table_ctx *t = ctx;
    return &t->rows[t->idx[k]];
}

static bench_series *row_series(void *ctx, int k)
{
    return &ctx_row(ctx, k)->s;
}

/* One call of the row's product; the library status for ntt rows. */
static ntt_status row_call(void *ctx, int k)
{
    table_ctx *t = ctx;
    row *r = ctx_row(ctx, k);
    switch (r->kind) {
    case ROW_NTT:
        if (r->cold) ntt_cache_clear();
        return ntt_polymul_mod_variant(t->c, t->a, t->n, t->b, t->n, t->p, r->backend,
                                       &r->opts.plan, r->opts.variant);
    case ROW_REF: ref_run(r->lib, r->job); return NTT_OK;
    }
    return NTT_EINVAL;
}

/* Before the timing: one call on a poisoned output.  After: the product the
   last timed call left. */
static bool row_check(void *ctx, int k, bool after)
{
    table_ctx *t = ctx;
    row *r = ctx_row(ctx, k);
    const size_t lc = 2 * t->n - 1;
    if (!after) {
        memset(t->c, 0xA5, lc * sizeof *t->c);
        const ntt_status s = row_call(ctx, k);
        if (s != NTT_OK) {
            snprintf(r->s.why, sizeof r->s.why, "FAILED (%s)", ntt_status_string(s));
            return false;
        }
    }
    if (r->kind == ROW_REF) ref_result(r->lib, r->job, t->c);
    if (memcmp(t->c, t->ref, lc * sizeof *t->c) != 0) {
        snprintf(r->s.why, sizeof r->s.why, "FAILED (%s differs from GMP)",
                 after ? "last timed result" : "result");
        t->mismatch = true;
        return false;
    }
    return true;
}

static void free_row(row *r)
{
    if (r->kind == ROW_REF) ref_free(r->lib, r->job);
    free(r->s.reps);
}

void fmt_time(char *buf, size_t len, double s)
{
    if (s < 1e-6)
        snprintf(buf, len, "%.1f ns", s * 1e9);
    else if (s < 1e-3)
        snprintf(buf, len, "%.2f us", s * 1e6);
    else if (s < 1)
        snprintf(buf, len, "%.3f ms", s * 1e3);
    else
        snprintf(buf, len, "%.3f s", s);
}

const char *product_path(size_t n, uint64_t p)
{
    size_t t = 1;
    while (t < 2 * n - 1) t <<= 1;
    if (p >= ((uint64_t)1 << 62) || (p - 1) % t != 0 || !ntt_is_prime(p)) return "CRT over NTT primes";
    return p < ((uint64_t)1 << 30) ? "u32, direct" : "u64, direct";
}

static row *add_row(row *rows, int *count, const char *name, enum row_kind kind)
{
    row *r = &rows[(*count)++];
    memset(r, 0, sizeof *r);
    snprintf(r->name, sizeof r->name, "%s", name);
    r->kind = kind;
    r->backend = NTT_BACKEND_SCALAR;
    return r;
}

/* The rows for one modulus. */
static int make_rows(row *rows, const options *o, const uint64_t *a, const uint64_t *b,
                     uint64_t p)
{
    int k = 0;
    row *r;
    r = add_row(rows, &k, "reports' baseline: radix-2, bit-reversal, %", ROW_NTT);
    r->opts.variant = NTT_VARIANT_BASELINE;
    r->s.want = o->baseline_reps;
    if (!o->quick) {
        static const ntt_modmul mm[] = {NTT_MODMUL_NAIVE, NTT_MODMUL_BARRETT,
                                        NTT_MODMUL_MONTGOMERY};
        for (size_t i = 0; i < sizeof mm / sizeof mm[0]; i++) {
            char nm[96];
            snprintf(nm, sizeof nm, "ntt scalar, %s", ntt_modmul_name(mm[i]));
            r = add_row(rows, &k, nm, ROW_NTT);
            r->opts.plan.modmul = mm[i];
            r->s.want = o->reps;
        }
    }
    r = add_row(rows, &k, "ntt scalar, shoup (default)", ROW_NTT);
    r->s.want = o->reps;
    r = add_row(rows, &k, "ntt scalar, shoup (default) again", ROW_NTT);
    r->s.want = o->reps;
    r = add_row(rows, &k, "ntt scalar, cold: plan built in the call", ROW_NTT);
    r->cold = true;
    r->s.want = o->baseline_reps;
    for (int be = NTT_BACKEND_SCALAR + 1; be < NTT_BACKEND_COUNT; be++) {
        if (be == NTT_BACKEND_CUDA || !ntt_backend_available((ntt_backend)be)) continue;
        char nm[96];
        snprintf(nm, sizeof nm, "ntt %s", ntt_backend_name((ntt_backend)be));
        r = add_row(rows, &k, nm, ROW_NTT);
        r->backend = (ntt_backend)be;
        r->opts.plan.threads = 1;
        r->s.want = o->reps;
    }
    for (int lib = 0; lib < REF_COUNT; lib++) {
        if (!ref_name((ref_lib)lib)) continue;
        r = add_row(rows, &k, ref_name((ref_lib)lib), ROW_REF);
        r->lib = (ref_lib)lib;
        r->job = ref_prepare(r->lib, a, o->n, b, o->n, p);
        r->s.want = o->reps;
        if (!r->job) snprintf(r->s.why, sizeof r->s.why, "%s", ref_unprepared(r->lib));
    }
    return k;
}

typedef struct {
    uint64_t p;
    row rows[24];
    int nrows;
} modulus_result;

static void print_table(const modulus_result *m, size_t n)
{
    const row *flint = NULL;
    for (int i = 0; i < m->nrows; i++)
        if (m->rows[i].kind == ROW_REF && m->rows[i].lib == REF_FLINT && m->rows[i].s.ok)
            flint = &m->rows[i];
    printf("\np = %llu (%s)\n", (unsigned long long)m->p, product_path(n, m->p));
    printf("  %-46s %12s %12s %12s %6s %9s\n", "implementation", "median", "min", "max", "reps",
           flint ? "vs FLINT" : "");
    for (int i = 0; i < m->nrows; i++) {
        const row *r = &m->rows[i];
        if (!r->s.ok) {
            printf("  %-46s %s\n", r->name, r->s.why);
            continue;
        }
        char med[32], lo[32], hi[32], ratio[32] = "";
        fmt_time(med, sizeof med, r->s.median);
        fmt_time(lo, sizeof lo, r->s.min);
        fmt_time(hi, sizeof hi, r->s.max);
        if (flint) snprintf(ratio, sizeof ratio, "%.2fx", flint->s.median / r->s.median);
        printf("  %-46s %12s %12s %12s %6d %9s\n", r->name, med, lo, hi, r->s.nreps, ratio);
    }
}

typedef struct {
    const options *o;
    const sysinfo *si;
    double memcpy_gbps;
    const modulus_result *res;
    int nres;
} json_ctx;

static int emit_json(FILE *f, void *ctxp)
{
    const json_ctx *x = ctxp;
    fprintf(f, "{\n  \"benchmark\": \"polymul\",\n  \"machine\": {\n");
    sysinfo_json(f, x->si, "    ");
    fprintf(f, ",\n    \"memcpy_gbps\": %.3f\n  },\n", x->memcpy_gbps);
    fprintf(f, "  \"method\": \"each row verified against a GMP product first; 2 warm-up "
               "calls; repetitions interleaved across rows, the cold row's after the others'; "
               "CLOCK_MONOTONIC around one call; single thread\",\n");
    fprintf(f, "  \"n\": %zu,\n  \"seed\": %llu,\n  \"moduli\": [\n", x->o->n,
            (unsigned long long)x->o->seed);
    for (int i = 0; i < x->nres; i++) {
        const modulus_result *m = &x->res[i];
        fprintf(f, "    {\"p\": %llu, \"rows\": [\n", (unsigned long long)m->p);
        for (int k = 0; k < m->nrows; k++) {
            const row *r = &m->rows[k];
            fprintf(f, "      {\"name\": ");
            cli_json_string(f, r->name);
            bench_series_json(f, &r->s);
            fprintf(f, "}%s\n", k + 1 < m->nrows ? "," : "");
        }
        fprintf(f, "    ]}%s\n", i + 1 < x->nres ? "," : "");
    }
    fprintf(f, "  ]\n}\n");
    return 0;
}

static void usage(FILE *f)
{
    fprintf(f,
            "usage: ntt bench [--n N] [--primes P1,P2,...] [--reps R] [--seed S] [--quick]\n"
            "                 [--json FILE]\n"
            "Times the product of two random length-N polynomials mod each P (default\n"
            "N = 131072 and the course's moduli 7340033, 104857601, 469762049,\n"
            "1337006139375617), single thread: the reports' baseline, the scalar backend\n"
            "with each modular multiplication, every other available CPU backend, and\n"
            "FLINT and NTL when built in.  Every row is verified against GMP before it is\n"
            "timed; a row that fails prints FAILED and no time.  Repetitions (default 31,\n"
            "7 for the slow rows) are interleaved across rows; the table shows median,\n"
            "min and max.  --json writes every repetition.\n"
            "ntt bench --ladder [...]: the CPU ladder and thread scaling (--ladder --help).\n"
            "ntt bench --gpu [--quick] [--headline] [--json FILE]: the CUDA tables\n"
            "(--headline: the headline, launch floor and host-to-host ones only);\n"
            "ntt bench --gpu-modmul [--json FILE]: the modular multiplication chains.\n");
}

int cmd_bench(int argc, char **argv)
{
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--gpu") || !strcmp(argv[i], "--gpu-modmul")) {
#ifdef NTT_HAVE_CUDA
            return argv[i][5] ? bench_gpu_modmul(argc, argv) : bench_gpu(argc, argv);
#else
            fprintf(stderr, "ntt bench: %s: this build has no CUDA backend\n", argv[i]);
            return EXIT_UNSUPPORTED;
#endif
        }
    }
    for (int i = 1; i < argc; i++)
        if (!strcmp(argv[i], "--ladder")) return cmd_ladder(argc, argv);
    options o = {.n = 131072, .reps = 31, .baseline_reps = 7, .seed = 20261121};
    uint64_t primes[16] = {7340033, 104857601, 469762049, 1337006139375617ull};
    int nprimes = 4;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        uint64_t v;
        if (cli_is_help(a)) {
            usage(stdout);
            return EXIT_OK;
        } else if (!strcmp(a, "--quick")) {
            o.quick = true;
            o.reps = 11;
            o.baseline_reps = 3;
        } else if (!strcmp(a, "--n") && i + 1 < argc && cli_parse_u64(argv[i + 1], &v) && v >= 2 &&
                   v <= (1u << 24)) {
            o.n = (size_t)v;
            i++;
        } else if (!strcmp(a, "--reps") && i + 1 < argc && cli_parse_u64(argv[i + 1], &v) && v >= 1 &&
                   v <= 10000) {
            o.reps = (int)v;
            o.baseline_reps = o.reps < 7 ? o.reps : 7;
            i++;
        } else if (!strcmp(a, "--seed") && i + 1 < argc && cli_parse_u64(argv[i + 1], &v)) {
            o.seed = v;
            i++;
        } else if (!strcmp(a, "--json") && i + 1 < argc) {
            o.json = argv[++i];
        } else if (!strcmp(a, "--primes") && i + 1 < argc) {
            nprimes = 0;
            char *list = argv[++i], *save = NULL;
            for (char *tok = strtok_r(list, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
                if (nprimes == 16 || !cli_parse_u64(tok, &v) || v < 2 || v >= (1ull << 63)) {
                    fprintf(stderr, "ntt bench: bad modulus list (at most 16, each in [2, 2^63))\n");
                    return EXIT_USAGE;
                }
                primes[nprimes++] = v;
            }
            if (nprimes == 0) {
                fprintf(stderr, "ntt bench: empty modulus list\n");
                return EXIT_USAGE;
            }
        } else {
            fprintf(stderr, "ntt bench: unknown or incomplete option '%s'\n", a);
            usage(stderr);
            return EXIT_USAGE;
        }
    }

    sysinfo si;
    sysinfo_read(&si);
    const double bw = sysinfo_memcpy_gbps((size_t)64 << 20);
    const size_t n = o.n, lc = 2 * n - 1;
    printf("ntt bench: product of two random length-%zu polynomials (%zu coefficients out), "
           "single thread\n",
           n, lc);
    printf("machine: %s, %d logical CPUs, %s; %s; commit %s\n", si.cpu_model, si.logical_cpus,
           si.cpu_flags, si.compiler, si.commit);
    printf("method: each row verified against GMP, then 2 warm-up calls, then %d repetitions "
           "(%d for slow rows)\n        interleaved across rows (the cold row's after the others'), "
           "CLOCK_MONOTONIC around one call;\n        times exclude converting inputs\n",
           o.reps, o.baseline_reps);
    const double bytes = (double)(2 * n + lc) * 8;
    printf("memory floor: %.1f MB in and out at the measured memcpy rate %.1f GB/s = %.1f us\n",
           bytes / 1e6, bw, bytes / (bw * 1e9) * 1e6);

    uint64_t *a = malloc(n * sizeof *a), *b = malloc(n * sizeof *b);
    uint64_t *c = malloc(lc * sizeof *c), *ref = malloc(lc * sizeof *ref);
    modulus_result *res = calloc((size_t)nprimes, sizeof *res);
    if (!a || !b || !c || !ref || !res) {
        fprintf(stderr, "ntt bench: out of memory\n");
        free(a);
        free(b);
        free(c);
        free(ref);
        free(res);
        return EXIT_FAILURE_LIB;
    }
    int rc = EXIT_OK;
    for (int pi = 0; pi < nprimes; pi++) {
        const uint64_t p = primes[pi];
        rng_t rng;
        rng_seed(&rng, o.seed + (uint64_t)pi);
        for (size_t i = 0; i < n; i++) a[i] = rng_below(&rng, p);
        for (size_t i = 0; i < n; i++) b[i] = rng_below(&rng, p);
        if (oracle_polymul(ref, a, n, b, n, p) != 0) {
            fprintf(stderr, "ntt bench: out of memory in the GMP oracle\n");
            rc = EXIT_FAILURE_LIB;
            break;
        }
        modulus_result *m = &res[pi];
        m->p = p;
        m->nrows = make_rows(m->rows, &o, a, b, p);
        /* The cold rows empty the whole plan cache, the other rows' plans
           too: interleaved, they made a third of the other ntt rows' calls
           build their plans (at 131072 the AVX-512 row's maxima 5.3-5.5 ms
           against 1.8, its medians 0.04-0.10 ms higher).  So the warm rows
           are interleaved among themselves first, then the cold ones. */
        int idx[sizeof m->rows / sizeof m->rows[0]], nwarm = 0, nall = 0;
        for (int cold = 0; cold < 2; cold++) {
            for (int k = 0; k < m->nrows; k++)
                if (m->rows[k].cold == (cold == 1)) idx[nall++] = k;
            if (!cold) nwarm = nall;
        }
        static const bench_ops ops = {row_series, row_call, row_check};
        table_ctx t = {m->rows, idx, c, a, b, ref, n, p, false};
        bench_series_run(&ops, &t, nwarm, false);
        table_ctx tc = {m->rows, idx + nwarm, c, a, b, ref, n, p, false};
        bench_series_run(&ops, &tc, nall - nwarm, false);
        t.mismatch |= tc.mismatch;
        if (t.mismatch) rc = EXIT_MISMATCH;
        print_table(m, n);
        fflush(stdout);
    }
    if (o.json) {
        json_ctx jc = {&o, &si, bw, res, nprimes};
        char why[160];
        if (cli_atomic_write(o.json, emit_json, &jc, why, sizeof why) != 0) {
            fprintf(stderr, "ntt bench: %s: cannot write: %s\n", o.json, why);
            if (rc == EXIT_OK) rc = EXIT_OUTPUT_IO;
        } else {
            printf("\nwrote %s\n", o.json);
        }
    }
    for (int pi = 0; pi < nprimes; pi++)
        for (int k = 0; k < res[pi].nrows; k++) free_row(&res[pi].rows[k]);
    ntt_cache_clear();
    free(a);
    free(b);
    free(c);
    free(ref);
    free(res);
    return rc;
}
