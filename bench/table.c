/* ntt-bench table: polynomial products timed side by side with FLINT and
   NTL, following docs/BENCHMARKING.md: every row verified against GMP before
   it is timed, repetitions interleaved across rows, medians with min/max,
   the machine stated, results written as JSON with the raw repetitions. */
#include "bench.h"

#include "cli.h"
#include "operands.h"
#include "ref.h"
#include "series.h"
#include "sysinfo.h"
#include "course.h" /* the course ladder (src/course, not installed) */

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

enum row_kind { ROW_NTT, ROW_REF };

typedef struct {
    char name[96];
    enum row_kind kind;
    ref_lib lib;     /* ROW_REF */
    ntt_backend backend;
    ntt_plan_options plan;
    ntt_variant variant;
    bool cold;       /* clear the plan cache before every call (timed after the other rows) */
    ref_job *job;
    bench_series s;
} row;

typedef struct {
    bench_args cpu;
    int baseline_reps; /* of the slow rows */
} options;

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
                                       &r->plan, r->variant);
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
    r->variant = NTT_VARIANT_BASELINE;
    r->s.want = o->baseline_reps;
    if (!o->cpu.quick) {
        static const ntt_modmul mm[] = {NTT_MODMUL_NAIVE, NTT_MODMUL_BARRETT,
                                        NTT_MODMUL_MONTGOMERY};
        for (size_t i = 0; i < sizeof mm / sizeof mm[0]; i++) {
            char nm[96];
            snprintf(nm, sizeof nm, "ntt scalar, %s", ntt_modmul_name(mm[i]));
            r = add_row(rows, &k, nm, ROW_NTT);
            r->plan.modmul = mm[i];
            r->s.want = o->cpu.reps;
        }
    }
    r = add_row(rows, &k, "ntt scalar, shoup (default)", ROW_NTT);
    r->s.want = o->cpu.reps;
    r = add_row(rows, &k, "ntt scalar, shoup (default) again", ROW_NTT);
    r->s.want = o->cpu.reps;
    r = add_row(rows, &k, "ntt scalar, cold: plan built in the call", ROW_NTT);
    r->cold = true;
    r->s.want = o->baseline_reps;
    for (int be = NTT_BACKEND_SCALAR + 1; be < NTT_BACKEND_COUNT; be++) {
        if (be == NTT_BACKEND_CUDA || !ntt_backend_available((ntt_backend)be)) continue;
        char nm[96];
        snprintf(nm, sizeof nm, "ntt %s", ntt_backend_name((ntt_backend)be));
        r = add_row(rows, &k, nm, ROW_NTT);
        r->backend = (ntt_backend)be;
        r->plan.threads = 1;
        r->s.want = o->cpu.reps;
    }
    for (int lib = 0; lib < REF_COUNT; lib++) {
        if (!ref_name((ref_lib)lib)) continue;
        r = add_row(rows, &k, ref_name((ref_lib)lib), ROW_REF);
        r->lib = (ref_lib)lib;
        r->job = ref_prepare(r->lib, a, o->cpu.n, b, o->cpu.n, p);
        r->s.want = o->cpu.reps;
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
    fprintf(f, "  \"n\": %zu,\n  \"seed\": %llu,\n  \"moduli\": [\n", x->o->cpu.n,
            (unsigned long long)x->o->cpu.seed);
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
    fputs("usage: ntt-bench table [--n N] [--primes P1,P2,...] [--reps R] [--seed S] [--quick]\n"
          "                       [--json FILE]\n"
          "\n"
          "Times the product of two random length-N polynomials mod each P (default\n"
          "N = 131072 and the course's moduli 7340033, 104857601, 469762049,\n"
          "1337006139375617), single thread: the reports' baseline, the scalar backend\n"
          "with each modular multiplication, every other available CPU backend, and\n"
          "FLINT and NTL when built in.  Every row is verified against GMP before it is\n"
          "timed; a row that fails prints FAILED and no time.  Repetitions (default 31,\n"
          "7 for the slow rows) are interleaved across rows; the table shows median,\n"
          "min and max.\n"
          "\n"
          "  --n N         operand length, 2 <= N <= 2^24\n"
          "  --primes LIST moduli, comma-separated, each in [2, 2^63)\n"
          "  --reps R      repetitions per row, 1 <= R <= 10000\n"
          "  --seed S      seed of the random operands\n"
          "  --quick       11 repetitions (3 for slow rows), no scalar modmul rows\n"
          "  --json FILE   write every row with every repetition to FILE (atomically)\n"
          "\n"
          "exit status: 0 ok, 1 a row computed a wrong product, 2 usage,\n"
          "6 cannot write FILE, 8 out of memory.\n",
          f);
}

int bench_table(int argc, char **argv)
{
    static const char cmd[] = "ntt-bench table";
    options o = {.cpu = {.n = 131072, .primes = BENCH_COURSE_MODULI, .nprimes = 4, .reps = 31,
                         .seed = 20261121},
                 .baseline_reps = 7};
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        int r;
        if (cli_is_help(a)) {
            usage(stdout);
            return EXIT_OK;
        } else if ((r = bench_args_option(cmd, argc, argv, &i, &o.cpu)) != 0) {
            if (r < 0) return EXIT_USAGE;
        } else if (a[0] == '-') {
            return cli_unknown_option(cmd, a);
        } else {
            return cli_extra_argument(cmd, a);
        }
    }
    if (o.cpu.reps_given) {
        o.baseline_reps = o.cpu.reps < 7 ? o.cpu.reps : 7;
    } else if (o.cpu.quick) {
        o.cpu.reps = 11;
        o.baseline_reps = 3;
    }
    const uint64_t *primes = o.cpu.primes;
    const int nprimes = o.cpu.nprimes;

    sysinfo si;
    sysinfo_read(&si);
    const double bw = sysinfo_memcpy_gbps((size_t)64 << 20);
    const size_t n = o.cpu.n, lc = 2 * n - 1;
    printf("%s: product of two random length-%zu polynomials (%zu coefficients out), "
           "single thread\n",
           cmd, n, lc);
    printf("machine: %s, %d logical CPUs, %s; %s; commit %s\n", si.cpu_model, si.logical_cpus,
           si.cpu_flags, si.compiler, si.commit);
    printf("method: each row verified against GMP, then 2 warm-up calls, then %d repetitions "
           "(%d for slow rows)\n        interleaved across rows (the cold row's after the others'), "
           "CLOCK_MONOTONIC around one call;\n        times exclude converting inputs\n",
           o.cpu.reps, o.baseline_reps);
    const double bytes = (double)(2 * n + lc) * 8;
    printf("memory floor: %.1f MB in and out at the measured memcpy rate %.1f GB/s = %.1f us\n",
           bytes / 1e6, bw, bytes / (bw * 1e9) * 1e6);

    uint64_t *a = malloc(n * sizeof *a), *b = malloc(n * sizeof *b);
    uint64_t *c = malloc(lc * sizeof *c), *ref = malloc(lc * sizeof *ref);
    modulus_result *res = calloc((size_t)nprimes, sizeof *res);
    if (!a || !b || !c || !ref || !res) {
        fprintf(stderr, "%s: out of memory\n", cmd);
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
        if (bench_operands(n, p, o.cpu.seed + (uint64_t)pi, a, b, ref) != 0) {
            fprintf(stderr, "%s: out of memory in the GMP oracle\n", cmd);
            rc = EXIT_FAILURE_LIB;
            break;
        }
        modulus_result *m = &res[pi];
        m->p = p;
        m->nrows = make_rows(m->rows, &o, a, b, p);
        /* The cold rows empty the whole plan cache, the other rows' plans
           too: interleaved with them, the other rows' calls would often
           rebuild their plans.  So the warm rows are interleaved among
           themselves first, then the cold ones. */
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
    if (o.cpu.json && rc != EXIT_FAILURE_LIB) {
        json_ctx jc = {&o, &si, bw, res, nprimes};
        char why[160];
        if (cli_atomic_write(o.cpu.json, emit_json, &jc, why, sizeof why) != 0) {
            fprintf(stderr, "%s: %s: cannot write: %s\n", cmd, o.cpu.json, why);
            if (rc == EXIT_OK) rc = EXIT_OUTPUT_IO;
        } else {
            printf("\nwrote %s\n", o.cpu.json);
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
