/*
 * ntt-bench ladder: the reports' CPU ladder, measured as BENCHMARKING.md
 * asks (and as `ntt-bench table` does): every row verified first (products
 * against GMP, transforms against the scalar backend), warm-up calls,
 * repetitions interleaved across the rows of one table, CLOCK_MONOTONIC
 * around one call, median / min / max, every repetition in the JSON.
 *
 *  1. the ladder at one length (default 131072) for each modulus: the
 *     reports' serial baseline, the scalar backend, AVX2, AVX-512, OpenMP
 *     (around the best of those kernels) on 1, 2, ... threads, FLINT and NTL;
 *  2. time against length for every backend, FLINT and NTL;
 *  3. the thread-scaling curve, products and forward transforms;
 *  4. cycles per butterfly of a forward u32 transform of 2^16 in cache,
 *     with the core clock calibrated in the same run.
 */
#include "bench.h"

#include "cli.h"
#include "operands.h"
#include "ref.h"
#include "rng.h"
#include "series.h"
#include "sysinfo.h"
#include "course.h" /* the course ladder (src/course, not installed) */
#include "ntt_internal.h" /* ntt_backend_best_cpu */

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

enum job_kind { J_MUL, J_FWD, J_REF };

typedef struct {
    char name[64];
    enum job_kind kind;
    ntt_backend backend;
    ntt_plan_options plan_opts;
    ntt_variant variant;
    int threads;          /* OpenMP threads, 0 for the single-thread rows */
    size_t n;             /* input length (products), transform length (J_FWD) */
    uint64_t p;
    const uint64_t *a, *b, *ref; /* products: inputs and the GMP product */
    uint64_t *c;
    ntt_plan *plan;       /* J_FWD */
    uint32_t *x;
    const uint32_t *xin, *xref; /* J_FWD: input and the scalar spectrum */
    ref_lib lib;          /* J_REF */
    ref_job *rj;
    bench_series s;
} job;

/* One kind's cycles per butterfly (section 4). */
typedef struct {
    ntt_modmul kind;
    double median, min, max, cycles;
} cpb_row;

typedef struct {
    bench_args cpu;
    int threads[16];
    int nthreads;
    unsigned sweep_max, scaling_min, scaling_max;
    unsigned sections; /* SEC_* bits */
} options;

enum { SEC_CYCLES = 1, SEC_LADDER = 2, SEC_CRT = 4, SEC_SWEEP = 8, SEC_SCALING = 16 };

/* ---- interference --------------------------------------------------------------- */

/* What else used the machine while a table ran: CPU seconds of all other
   processes (busy time in /proc/stat minus this process's own) and the
   time the hypervisor gave this machine's CPUs to others (steal).
   Negative when /proc/stat cannot be read. */
typedef struct {
    double busy, steal, self;
} usage;

static usage usage_now(void)
{
    usage u = {-1, -1, 0};
    FILE *f = fopen("/proc/stat", "r");
    if (f) {
        unsigned long long v[8] = {0};
        if (fscanf(f, "cpu %llu %llu %llu %llu %llu %llu %llu %llu", &v[0], &v[1], &v[2], &v[3],
                   &v[4], &v[5], &v[6], &v[7]) == 8) {
            const double hz = (double)sysconf(_SC_CLK_TCK);
            u.busy = (double)(v[0] + v[1] + v[2] + v[5] + v[6]) / hz; /* user nice system irq softirq */
            u.steal = (double)v[7] / hz;
        }
        fclose(f);
    }
    struct rusage r;
    if (getrusage(RUSAGE_SELF, &r) == 0)
        u.self = (double)r.ru_utime.tv_sec + 1e-6 * (double)r.ru_utime.tv_usec +
                 (double)r.ru_stime.tv_sec + 1e-6 * (double)r.ru_stime.tv_usec;
    return u;
}

/* ---- one job ---------------------------------------------------------------- */

static ntt_status job_call(job *j)
{
    switch (j->kind) {
    case J_MUL:
        return ntt_polymul_mod_variant(j->c, j->a, j->n, j->b, j->n, j->p, j->backend,
                                       &j->plan_opts, j->variant);
    case J_FWD: return ntt_forward_u32(j->plan, j->x); /* spectra are valid inputs again */
    case J_REF: ref_run(j->lib, j->rj); return NTT_OK;
    }
    return NTT_EINVAL;
}

/* Runs the job on fresh inputs and compares its result; false with why. */
static bool job_check(job *j)
{
    if (j->kind == J_FWD) {
        memcpy(j->x, j->xin, j->n * sizeof *j->x);
        ntt_status s = ntt_forward_u32(j->plan, j->x);
        if (s != NTT_OK) {
            snprintf(j->s.why, sizeof j->s.why, "FAILED (%s)", ntt_status_string(s));
            return false;
        }
        if (memcmp(j->x, j->xref, j->n * sizeof *j->x) != 0) {
            snprintf(j->s.why, sizeof j->s.why, "FAILED (differs from the scalar backend)");
            return false;
        }
        return true;
    }
    const size_t lc = 2 * j->n - 1;
    memset(j->c, 0xA5, lc * sizeof *j->c);
    ntt_status s = job_call(j);
    if (s != NTT_OK) {
        snprintf(j->s.why, sizeof j->s.why, "FAILED (%s)", ntt_status_string(s));
        return false;
    }
    if (j->kind == J_REF) ref_result(j->lib, j->rj, j->c);
    if (memcmp(j->c, j->ref, lc * sizeof *j->c) != 0) {
        snprintf(j->s.why, sizeof j->s.why, "FAILED (differs from GMP)");
        return false;
    }
    return true;
}

static void job_free(job *j)
{
    if (j->kind == J_REF) ref_free(j->lib, j->rj);
    ntt_plan_destroy(j->plan);
    free(j->x);
    free(j->c);
    free(j->s.reps);
}

static bench_series *job_series(void *ctx, int k)
{
    return &((job *)ctx)[k].s;
}

static ntt_status job_call_k(void *ctx, int k)
{
    return job_call(&((job *)ctx)[k]);
}

/* Transforms run in place, so the last timed result is not checkable: both
   checks run the job again on fresh inputs. */
static bool job_check_k(void *ctx, int k, bool after)
{
    (void)after;
    return job_check(&((job *)ctx)[k]);
}

/* warm: see bench_series_run. */
static void run_jobs(job *js, int nj, bool warm)
{
    static const bench_ops ops = {job_series, job_call_k, job_check_k};
    bench_series_run(&ops, js, nj, warm);
}

/* ---- building the tables ------------------------------------------------------ */

/* Inputs, the GMP product and a place for results, shared by a table's
   product rows. */
typedef struct {
    size_t n;
    uint64_t p, *a, *b, *ref;
} product;

static int product_make(product *pr, size_t n, uint64_t p, uint64_t seed)
{
    memset(pr, 0, sizeof *pr);
    pr->n = n;
    pr->p = p;
    pr->a = malloc(n * sizeof *pr->a);
    pr->b = malloc(n * sizeof *pr->b);
    pr->ref = malloc((2 * n - 1) * sizeof *pr->ref);
    if (!pr->a || !pr->b || !pr->ref) return -1;
    return bench_operands(n, p, seed, pr->a, pr->b, pr->ref);
}

static void product_free(product *pr)
{
    free(pr->a);
    free(pr->b);
    free(pr->ref);
}

static job *add_job(job *js, int *nj, const char *name, enum job_kind kind, int want)
{
    job *j = &js[(*nj)++];
    memset(j, 0, sizeof *j);
    snprintf(j->name, sizeof j->name, "%s", name);
    j->kind = kind;
    j->s.want = want;
    return j;
}

/* A product row; unavailable backends are listed as such. */
static job *add_mul(job *js, int *nj, const char *name, const product *pr, ntt_backend be,
                    ntt_variant v, int threads, int want)
{
    job *j = add_job(js, nj, name, J_MUL, want);
    j->backend = be;
    j->variant = v;
    j->plan_opts.threads = threads;
    j->threads = threads;
    j->n = pr->n;
    j->p = pr->p;
    j->a = pr->a;
    j->b = pr->b;
    j->ref = pr->ref;
    j->c = malloc((2 * pr->n - 1) * sizeof *j->c);
    if (!ntt_backend_available(be)) snprintf(j->s.why, sizeof j->s.why, "unavailable");
    else if (!j->c) snprintf(j->s.why, sizeof j->s.why, "FAILED (out of memory)");
    return j;
}

static void add_refs(job *js, int *nj, const product *pr, int want)
{
    for (int lib = 0; lib < REF_COUNT; lib++) {
        const char *name = ref_name((ref_lib)lib);
        if (!name) continue;
        job *j = add_job(js, nj, name, J_REF, want);
        j->lib = (ref_lib)lib;
        j->n = pr->n;
        j->p = pr->p;
        j->ref = pr->ref;
        j->c = malloc((2 * pr->n - 1) * sizeof *j->c);
        j->rj = ref_prepare(j->lib, pr->a, pr->n, pr->b, pr->n, pr->p);
        if (!j->c) snprintf(j->s.why, sizeof j->s.why, "FAILED (out of memory)");
        else if (!j->rj) snprintf(j->s.why, sizeof j->s.why, "%s", ref_unprepared(j->lib));
    }
}

/* ---- printing and JSON ---------------------------------------------------------- */

static const job *find_flint(const job *js, int nj)
{
    for (int i = 0; i < nj; i++)
        if (js[i].kind == J_REF && js[i].lib == REF_FLINT && js[i].s.ok) return &js[i];
    return NULL;
}

/* ladder: speed-up columns against the first row and the row before. */
static void print_jobs(const job *js, int nj, bool ladder)
{
    const job *flint = find_flint(js, nj);
    printf("  %-36s %11s %11s %11s %5s %9s %9s %9s\n", "implementation", "median", "min", "max",
           "reps", ladder ? "x base" : "", ladder ? "x prev" : "", flint ? "x FLINT" : "");
    const job *first = NULL, *prev = NULL;
    for (int k = 0; k < nj; k++) {
        const job *j = &js[k];
        if (!j->s.ok) {
            printf("  %-36s %11s\n", j->name, j->s.why);
            continue;
        }
        char med[32], lo[32], hi[32], c1[16] = "", c2[16] = "", c3[16] = "";
        fmt_time(med, sizeof med, j->s.median);
        fmt_time(lo, sizeof lo, j->s.min);
        fmt_time(hi, sizeof hi, j->s.max);
        const bool rung = j->kind == J_MUL || j->kind == J_FWD;
        if (ladder && rung) {
            if (!first) first = j;
            snprintf(c1, sizeof c1, "%.2f", first->s.median / j->s.median);
            if (prev) snprintf(c2, sizeof c2, "%.2f", prev->s.median / j->s.median);
            prev = j;
        }
        if (flint) snprintf(c3, sizeof c3, "%.2f", flint->s.median / j->s.median);
        printf("  %-36s %11s %11s %11s %5d %9s %9s %9s\n", j->name, med, lo, hi, j->s.nreps, c1, c2,
               c3);
    }
}

static void json_jobs(FILE *f, const job *js, int nj, const char *indent)
{
    for (int k = 0; k < nj; k++) {
        const job *j = &js[k];
        fprintf(f, "%s{\"name\": ", indent);
        cli_json_string(f, j->name);
        fprintf(f, ", \"kind\": \"%s\", \"threads\": %d",
                j->kind == J_MUL ? "ntt" : j->kind == J_FWD ? "forward"
                                   : j->lib == REF_FLINT ? "flint" : "ntl",
                j->threads);
        if (j->kind == J_MUL || j->kind == J_FWD)
            fprintf(f, ", \"backend\": \"%s\"", ntt_backend_name(j->backend));
        bench_series_json(f, &j->s);
        fprintf(f, "}%s\n", k + 1 < nj ? "," : "");
    }
}

/* A finished table, kept for the JSON. */
typedef struct {
    const char *section; /* "ladder", "sweep", "scaling" */
    const char *op;      /* "polymul" or "forward" */
    size_t n;
    uint64_t p;
    job *js;
    int nj;
    double others_s, steal_s; /* see usage; < 0: unknown */
    int read_threads;         /* the table's most threads; 0: no threaded row */
    double read1, readt;      /* read GB/s right after it, on 1 and read_threads */
} table;

typedef struct {
    table *t;
    int nt, cap;
} tables;

/* The interference since u0, printed under the table just shown. */
static void interference(usage u0, double *others, double *steal)
{
    const usage u1 = usage_now();
    *others = u0.busy < 0 || u1.busy < 0 ? -1 : (u1.busy - u0.busy) - (u1.self - u0.self);
    *steal = u0.steal < 0 || u1.steal < 0 ? -1 : u1.steal - u0.steal;
    if (*others < 0) *others = *others < -0.5 ? -1 : 0; /* clock-tick rounding */
    if (*others >= 0) printf("  (meanwhile other processes used %.2f s of CPU, steal %.2f s)\n", *others, *steal);
}

static int keep(tables *ts, const char *section, const char *op, size_t n, uint64_t p, job *js,
                int nj, usage u0)
{
    if (ts->nt == ts->cap) {
        int cap = ts->cap ? 2 * ts->cap : 16;
        table *t = realloc(ts->t, (size_t)cap * sizeof *t);
        if (!t) return -1;
        ts->t = t;
        ts->cap = cap;
    }
    table *t = &ts->t[ts->nt++];
    *t = (table){section, op, n, p, js, nj, 0, 0, 0, 0, 0};
    interference(u0, &t->others_s, &t->steal_s);
    /* The read bandwidth on one thread and on the table's most, after each
       table with threaded rows: it tells the states of a shared host apart
       (docs/BENCHMARKING.md).  Not stated when the probe could not run. */
    for (int k = 0; k < nj; k++)
        if (js[k].threads > t->read_threads) t->read_threads = js[k].threads;
    if (t->read_threads > 1) {
        const int th[2] = {1, t->read_threads};
        double g[2];
        sysinfo_read_gbps((size_t)128 << 20, th, 2, g);
        if (g[0] > 0 && g[1] > 0) {
            t->read1 = g[0];
            t->readt = g[1];
            printf("  (memory read after the table: %.1f GB/s on 1 thread, %.1f GB/s on %d)\n",
                   g[0], g[1], t->read_threads);
        } else {
            t->read_threads = 0;
        }
    }
    return 0;
}

typedef struct {
    const options *o;
    const sysinfo *si;
    double memcpy_gbps, ghz0, ghz1;
    const char *cpb_backend;
    const cpb_row *cpb;
    int ncpb;
    const tables *ts;
} json_ctx;

static int emit_json(FILE *f, void *ctxp)
{
    const json_ctx *x = ctxp;
    fprintf(f, "{\n  \"benchmark\": \"ladder\",\n  \"machine\": {\n");
    sysinfo_json(f, x->si, "    ");
    fprintf(f, ",\n    \"memcpy_gbps\": %.3f,\n    \"clock_ghz_start\": %.4f,\n"
               "    \"clock_ghz_end\": %.4f\n  },\n",
            x->memcpy_gbps, x->ghz0, x->ghz1);
    fprintf(f, "  \"method\": \"rows verified first (products against GMP, transforms against "
               "the scalar backend); 2 warm-up calls; repetitions interleaved across the rows of "
               "one table; CLOCK_MONOTONIC around one call; section ladder: each timed call after "
               "the other rows' calls; ladder_warm: each timed call right after an untimed call "
               "of the same row; sweep and scaling as ladder; threads as listed (0: "
               "single-thread backend); pinning only as omp_proc_bind and omp_places say; "
               "others_cpu_s and steal_s: CPU time other processes used and hypervisor steal "
               "while the table ran; read_gbps_after: a 128 MiB buffer summed by 1 and by the "
               "table's most threads, median of 7 passes, right after a table with threaded rows\",\n");
    fprintf(f, "  \"omp_proc_bind\": ");
    cli_json_string(f, getenv("OMP_PROC_BIND") ? getenv("OMP_PROC_BIND") : "");
    fprintf(f, ",\n  \"omp_places\": ");
    cli_json_string(f, getenv("OMP_PLACES") ? getenv("OMP_PLACES") : "");
    fprintf(f, ",\n  \"seed\": %llu,\n  \"threads\": [", (unsigned long long)x->o->cpu.seed);
    for (int i = 0; i < x->o->nthreads; i++) fprintf(f, "%s%d", i ? ", " : "", x->o->threads[i]);
    fprintf(f, "],\n  \"cycles_per_butterfly\": {\"n\": 65536, \"p\": 469762049, "
               "\"butterflies\": 524288, \"backend\": \"%s\", \"counted\": \"median time of "
               "ntt_forward_u32 (all 16 levels and the final reduction) times the core clock from "
               "a dependent-add loop, over n/2 log2 n butterflies\", \"kinds\": [",
            x->cpb_backend ? x->cpb_backend : "");
    for (int k = 0; k < x->ncpb; k++)
        fprintf(f, "%s{\"modmul\": \"%s\", \"median_s\": %.9g, \"min_s\": %.9g, \"max_s\": %.9g, "
                   "\"cycles\": %.4f}",
                k ? ", " : "", ntt_modmul_name(x->cpb[k].kind), x->cpb[k].median, x->cpb[k].min,
                x->cpb[k].max, x->cpb[k].cycles);
    fprintf(f, "]},\n");
    fprintf(f, "  \"tables\": [\n");
    for (int i = 0; i < x->ts->nt; i++) {
        const table *t = &x->ts->t[i];
        fprintf(f, "    {\"section\": \"%s\", \"op\": \"%s\", \"n\": %zu, \"p\": %llu, "
                   "\"others_cpu_s\": %.2f, \"steal_s\": %.2f, ",
                t->section, t->op, t->n, (unsigned long long)t->p, t->others_s, t->steal_s);
        if (t->read_threads > 1)
            fprintf(f, "\"read_gbps_after\": [{\"threads\": 1, \"gbps\": %.2f}, "
                       "{\"threads\": %d, \"gbps\": %.2f}], ",
                    t->read1, t->read_threads, t->readt);
        fprintf(f, "\"rows\": [\n");
        json_jobs(f, t->js, t->nj, "      ");
        fprintf(f, "    ]}%s\n", i + 1 < x->ts->nt ? "," : "");
    }
    fprintf(f, "  ]\n}\n");
    return 0;
}

/* ---- the core clock --------------------------------------------------------------- */

/* GHz from a chain of dependent adds (one per cycle), the median of 9
   runs of about 2 ms.  Register operands: recent Intel cores fold chains of
   adds of an immediate in the renamer. */
static double clock_ghz(void)
{
    double g[9];
    for (int r = 0; r < 9; r++) {
        uint64_t x = 0, one = 1;
        const long iters = 2000000;
        const double t0 = now_seconds();
        for (long i = 0; i < iters; i++) {
#if defined(__x86_64__) || defined(__i386__)
            __asm__ volatile("add %1, %0\n\tadd %1, %0\n\tadd %1, %0\n\tadd %1, %0"
                             : "+r"(x)
                             : "r"(one));
#else
            (void)one;
            x += 4;
            __asm__ volatile("" : "+r"(x));
#endif
        }
        g[r] = 4.0 * (double)iters / (now_seconds() - t0) / 1e9;
    }
    double med, lo, hi;
    bench_stats(g, 9, &med, &lo, &hi);
    return med;
}

/* ---- the sections ------------------------------------------------------------------ */

static void name_threads(char *buf, size_t len, const char *base, int t)
{
    snprintf(buf, len, "%s, %d thread%s", base, t, t == 1 ? "" : "s");
}

/* The OpenMP backend runs the best serial kernels of this CPU; its rows say
   which. */
static const char *omp_label(void)
{
    switch (ntt_backend_best_cpu()) {
    case NTT_BACKEND_AVX512: return "AVX-512 + OpenMP";
    case NTT_BACKEND_AVX2: return "AVX2 + OpenMP";
    default: return "scalar + OpenMP";
    }
}

/* The single-thread SIMD rows: AVX2, and AVX-512 where the CPU has it. */
static void add_simd(job *js, int *nj, const product *pr, int want)
{
    add_mul(js, nj, "AVX2", pr, NTT_BACKEND_AVX2, NTT_VARIANT_FAST, 0, want);
    if (ntt_backend_available(NTT_BACKEND_AVX512))
        add_mul(js, nj, "AVX-512", pr, NTT_BACKEND_AVX512, NTT_VARIANT_FAST, 0, want);
}

/* 1: the ladder at length o->cpu.n for each modulus; warm: see run_jobs. */
static int section_ladder(const options *o, bool warm, tables *ts)
{
    const uint64_t *primes = o->cpu.primes;
    const int np = o->cpu.nprimes;
    printf("\n== the CPU ladder: product of two random length-%zu polynomials, %s ==\n", o->cpu.n,
           warm ? "warm (each timed call right after an untimed one of the same row)"
                : "interleaved (each timed call after the other rows' calls)");
    for (int pi = 0; pi < np; pi++) {
        product pr;
        if (product_make(&pr, o->cpu.n, primes[pi], o->cpu.seed + (uint64_t)pi) != 0) return -1;
        job *js = calloc(24, sizeof *js);
        if (!js) return -1;
        int nj = 0;
        const int slow = o->cpu.reps < 5 ? o->cpu.reps : 5;
        add_mul(js, &nj, "reports' baseline (scalar, radix 2, %)", &pr, NTT_BACKEND_SCALAR,
                NTT_VARIANT_BASELINE, 0, slow);
        add_mul(js, &nj, "fast scalar", &pr, NTT_BACKEND_SCALAR, NTT_VARIANT_FAST, 0, o->cpu.reps);
        add_simd(js, &nj, &pr, o->cpu.reps);
        for (int t = 0; t < o->nthreads; t++) {
            char nm[64];
            name_threads(nm, sizeof nm, omp_label(), o->threads[t]);
            add_mul(js, &nj, nm, &pr, NTT_BACKEND_OPENMP, NTT_VARIANT_FAST, o->threads[t], o->cpu.reps);
        }
        add_refs(js, &nj, &pr, o->cpu.reps);
        const usage u0 = usage_now();
        run_jobs(js, nj, warm);
        printf("\np = %llu (%s)\n", (unsigned long long)pr.p, product_path(o->cpu.n, pr.p));
        print_jobs(js, nj, true);
        fflush(stdout);
        product_free(&pr);
        for (int k = 0; k < nj; k++) js[k].a = js[k].b = js[k].ref = NULL;
        if (keep(ts, warm ? "ladder_warm" : "ladder", "polymul", o->cpu.n, primes[pi], js, nj, u0) != 0)
            return -1;
    }
    return 0;
}

/* 1b: the CRT path (moduli that are not NTT primes) at length o->cpu.n. */
static int section_crt(const options *o, tables *ts)
{
    static const uint64_t mods[] = {1000000007, 9223372036854775783ull /* 2^63 - 25 */};
    const int tmax = o->threads[o->nthreads - 1];
    printf("\n== any modulus (the CRT path): product of two random length-%zu polynomials ==\n",
           o->cpu.n);
    for (size_t pi = 0; pi < sizeof mods / sizeof mods[0]; pi++) {
        product pr;
        if (product_make(&pr, o->cpu.n, mods[pi], o->cpu.seed + 50 + pi) != 0) return -1;
        job *js = calloc(8, sizeof *js);
        if (!js) return -1;
        int nj = 0;
        add_mul(js, &nj, "scalar", &pr, NTT_BACKEND_SCALAR, NTT_VARIANT_FAST, 0, o->cpu.reps);
        add_simd(js, &nj, &pr, o->cpu.reps);
        char nm[64];
        name_threads(nm, sizeof nm, omp_label(), tmax);
        add_mul(js, &nj, nm, &pr, NTT_BACKEND_OPENMP, NTT_VARIANT_FAST, tmax, o->cpu.reps);
        add_refs(js, &nj, &pr, o->cpu.reps);
        const usage u0 = usage_now();
        run_jobs(js, nj, false);
        printf("\np = %llu\n", (unsigned long long)pr.p);
        print_jobs(js, nj, true);
        fflush(stdout);
        product_free(&pr);
        for (int k = 0; k < nj; k++) js[k].a = js[k].b = js[k].ref = NULL;
        if (keep(ts, "crt", "polymul", o->cpu.n, mods[pi], js, nj, u0) != 0) return -1;
    }
    return 0;
}

/* 2: time against length, every backend, FLINT and NTL, one modulus. */
static int section_sweep(const options *o, tables *ts)
{
    const uint64_t p = 469762049;
    const int tmax = o->threads[o->nthreads - 1];
    printf("\n== time against length, p = %llu (all backends, FLINT, NTL) ==\n",
           (unsigned long long)p);
    for (unsigned lg = 8; lg <= o->sweep_max; lg += 2) {
        const size_t n = (size_t)1 << lg;
        product pr;
        if (product_make(&pr, n, p, o->cpu.seed + 100 + lg) != 0) return -1;
        job *js = calloc(12, sizeof *js);
        if (!js) return -1;
        int nj = 0;
        const int want = lg <= 14 ? o->cpu.reps : lg <= 18 ? (o->cpu.reps + 1) / 2 : 5;
        if (lg <= 16)
            add_mul(js, &nj, "reports' baseline", &pr, NTT_BACKEND_SCALAR, NTT_VARIANT_BASELINE, 0,
                    want < 5 ? want : 5);
        add_mul(js, &nj, "scalar", &pr, NTT_BACKEND_SCALAR, NTT_VARIANT_FAST, 0, want);
        add_simd(js, &nj, &pr, want);
        char nm[64];
        name_threads(nm, sizeof nm, omp_label(), tmax);
        add_mul(js, &nj, nm, &pr, NTT_BACKEND_OPENMP, NTT_VARIANT_FAST, tmax, want);
        add_refs(js, &nj, &pr, want);
        const usage u0 = usage_now();
        run_jobs(js, nj, false);
        printf("\nn = %zu\n", n);
        print_jobs(js, nj, false);
        fflush(stdout);
        product_free(&pr);
        for (int k = 0; k < nj; k++) js[k].a = js[k].b = js[k].ref = NULL;
        if (keep(ts, "sweep", "polymul", n, p, js, nj, u0) != 0) return -1;
    }
    return 0;
}

/* Forward-transform rows for each thread count, against the scalar
   spectrum of the same input. */
static int forward_rows(job *js, int *nj, const options *o, size_t n, uint64_t p, uint32_t *xin,
                        uint32_t *xref, int want)
{
    for (int t = 0; t < o->nthreads; t++) {
        char nm[64];
        name_threads(nm, sizeof nm, "forward", o->threads[t]);
        job *j = add_job(js, nj, nm, J_FWD, want);
        j->backend = NTT_BACKEND_OPENMP;
        j->threads = o->threads[t];
        j->plan_opts.threads = o->threads[t];
        j->n = n;
        j->p = p;
        j->xin = xin;
        j->xref = xref;
        if (!ntt_backend_available(NTT_BACKEND_OPENMP)) {
            snprintf(j->s.why, sizeof j->s.why, "unavailable");
            continue;
        }
        j->x = malloc(n * sizeof *j->x);
        if (!j->x || ntt_plan_create(&j->plan, n, p, NTT_U32, NTT_BACKEND_OPENMP, &j->plan_opts) != NTT_OK)
            snprintf(j->s.why, sizeof j->s.why, "FAILED (plan)");
    }
    return 0;
}

/* 3: speed-up against threads. */
static int section_scaling(const options *o, tables *ts)
{
    const uint64_t p = 469762049; /* 7 2^26 + 1: every length up to 2^25 */
    printf("\n== thread scaling, p = %llu: products of two length-n polynomials and forward "
           "transforms of length n ==\n",
           (unsigned long long)p);
    for (unsigned lg = o->scaling_min; lg <= o->scaling_max; lg++) {
        const size_t n = (size_t)1 << lg;
        /* Eleven from 2^19 on (default): five let one slow repetition of a noisy
           shared host move a median of the thread ratios by 0.2. */
        const int want = lg <= 18 ? o->cpu.reps : (o->cpu.reps + 1) / 2;
        product pr;
        if (product_make(&pr, n, p, o->cpu.seed + 200 + lg) != 0) return -1;
        job *js = calloc(16, sizeof *js);
        if (!js) return -1;
        int nj = 0;
        for (int t = 0; t < o->nthreads; t++) {
            char nm[64];
            name_threads(nm, sizeof nm, "polymul", o->threads[t]);
            add_mul(js, &nj, nm, &pr, NTT_BACKEND_OPENMP, NTT_VARIANT_FAST, o->threads[t], want);
        }
        usage u0 = usage_now();
        run_jobs(js, nj, false);
        printf("\nn = 2^%u: product\n", lg);
        print_jobs(js, nj, true);
        product_free(&pr);
        for (int k = 0; k < nj; k++) js[k].a = js[k].b = js[k].ref = NULL;
        if (keep(ts, "scaling", "polymul", n, p, js, nj, u0) != 0) return -1;

        /* The forward transform of length n. */
        uint32_t *xin = malloc(n * sizeof *xin), *xref = malloc(n * sizeof *xref);
        job *fs = calloc(16, sizeof *fs);
        if (!xin || !xref || !fs) return -1;
        rng_t r;
        rng_seed(&r, o->cpu.seed + 300 + lg);
        for (size_t i = 0; i < n; i++) xin[i] = xref[i] = (uint32_t)rng_below(&r, p);
        ntt_plan *sp;
        if (ntt_plan_create(&sp, n, p, NTT_U32, NTT_BACKEND_SCALAR, NULL) != NTT_OK) return -1;
        ntt_status s = ntt_forward_u32(sp, xref);
        ntt_plan_destroy(sp);
        if (s != NTT_OK) return -1;
        int nf = 0;
        forward_rows(fs, &nf, o, n, p, xin, xref, want);
        u0 = usage_now();
        run_jobs(fs, nf, false);
        printf("n = 2^%u: forward transform\n", lg);
        print_jobs(fs, nf, true);
        fflush(stdout);
        if (keep(ts, "scaling", "forward", n, p, fs, nf, u0) != 0) return -1;
        /* xin and xref stay with the table (freed at the end); the cached
           plans of this length go, as the next length needs the memory. */
        ntt_cache_clear();
    }
    return 0;
}

/* 4: cycles per butterfly, forward u32 of 2^16 in cache, single thread, on
   the best single-thread backend with its default kind (Shoup) and, on
   AVX-512 or AVX2, Montgomery too: calls alternate between the two plans. */
static int cycles_per_butterfly(double ghz, const char **backend, cpb_row *rows)
{
    const size_t n = 65536;
    const uint64_t p = 469762049;
    const ntt_backend be = ntt_backend_best_cpu();
    const int nk = be == NTT_BACKEND_SCALAR ? 1 : 2;
    ntt_plan *pl[2] = {NULL, NULL};
    uint32_t *x[2] = {malloc(n * sizeof *x[0]), malloc(n * sizeof *x[1])};
    enum { R = 201 };
    double t[2][R];
    ntt_status s = x[0] && x[1] ? NTT_OK : NTT_ENOMEM;
    for (int k = 0; k < nk && s == NTT_OK; k++) {
        ntt_plan_options o = {0};
        o.modmul = k ? NTT_MODMUL_MONTGOMERY : NTT_MODMUL_DEFAULT;
        s = ntt_plan_create(&pl[k], n, p, NTT_U32, be, &o);
        if (s != NTT_OK) break;
        rows[k].kind = ntt_plan_modmul(pl[k]);
        for (size_t i = 0; i < n; i++) x[k][i] = (uint32_t)(i * 2654435761u % p);
        for (int w = 0; w < 20; w++) s |= ntt_forward_u32(pl[k], x[k]);
    }
    for (int r = 0; r < R && s == NTT_OK; r++)
        for (int k = 0; k < nk; k++) {
            const double t0 = now_seconds();
            s |= ntt_forward_u32(pl[k], x[k]);
            t[k][r] = now_seconds() - t0;
        }
    *backend = ntt_backend_name(be);
    printf("\n== cycles per butterfly: forward u32, n = 2^16 (in cache), %s backend ==\n", *backend);
    for (int k = 0; k < nk && s == NTT_OK; k++) {
        cpb_row *c = &rows[k];
        bench_stats(t[k], R, &c->median, &c->min, &c->max);
        c->cycles = c->median * ghz * 1e9 / ((double)n / 2 * 16);
        printf("  %-10s median %.1f us (min %.1f, max %.1f, %d calls on one buffer) x %.3f GHz / "
               "524288 butterflies = %.3f cycles per butterfly\n",
               ntt_modmul_name(c->kind), c->median * 1e6, c->min * 1e6, c->max * 1e6, R, ghz,
               c->cycles);
    }
    printf("  (butterflies counted as n/2 log2 n; the time includes the final reduction to "
           "[0, p);\n   the clock comes from a chain of dependent adds in this run)\n");
    for (int k = 0; k < 2; k++) {
        ntt_plan_destroy(pl[k]);
        free(x[k]);
    }
    return s == NTT_OK ? nk : 0;
}

/* ---- command line ------------------------------------------------------------------ */

static void print_usage(FILE *f)
{
    fputs("usage: ntt-bench ladder [--n N] [--primes P1,...] [--threads T1,T2,...] [--reps R]\n"
          "                        [--sweep-max LOG] [--scaling LO-HI] [--quick] [--seed S]\n"
          "                        [--sections cycles,ladder,crt,sweep,scaling] [--json FILE]\n"
          "\n"
          "The reports' CPU ladder for products of two random length-N polynomials (default\n"
          "N = 131072; moduli 7340033, 104857601, 469762049, 1337006139375617): serial\n"
          "baseline, scalar, AVX2, AVX-512 (where the CPU has it), OpenMP around the best\n"
          "of those kernels on each thread count (default 1, 2, 4, ... up to the logical\n"
          "CPUs), FLINT and NTL; twice: interleaved (each timed call after the other rows'\n"
          "calls) and warm (each right after an untimed call of the same row).  Then the\n"
          "CRT path at length N for 10^9+7 and 2^63-25, time against length (2^8 ..\n"
          "2^sweep-max, default 20) and thread scaling (lengths 2^LO .. 2^HI, default\n"
          "16-24) for products and forward transforms; first, cycles per butterfly of a\n"
          "forward u32 transform of 2^16.\n"
          "Every row is verified first; repetitions (default 21, fewer for slow rows) are\n"
          "interleaved across a table's rows; --json writes them all.\n"
          "\n"
          "  --quick      7 repetitions, sweep to 2^16, scaling 2^16-2^20\n"
          "  --sections   only those parts (default all)\n"
          "\n"
          "exit status: 0 ok, 1 a row failed its check, 2 usage, 6 cannot write FILE,\n"
          "8 out of memory.\n",
          f);
}

/* "T1,T2,..." into o->threads: at most 16 counts in [1, 1024]. */
static bool parse_threads(const char *list, options *o)
{
    uint64_t v[16];
    const int k = cli_parse_list(list, 1, 1024, v, 16);
    if (k < 0) return false;
    o->nthreads = k;
    for (int i = 0; i < k; i++) o->threads[i] = (int)v[i];
    return true;
}

/* "cycles,ladder,..." into o->sections; false at an unknown name. */
static bool parse_sections(const char *cmd, const char *list, options *o)
{
    static const char *const names[] = {"cycles", "ladder", "crt", "sweep", "scaling"};
    o->sections = 0;
    for (const char *q = list;;) {
        const size_t len = strcspn(q, ",");
        unsigned bit = 0;
        for (unsigned k = 0; k < 5; k++)
            if (strlen(names[k]) == len && !strncmp(q, names[k], len)) bit = 1u << k;
        if (!bit) {
            fprintf(stderr, "%s: unknown section '%.*s' (valid: cycles, ladder, crt, sweep, "
                            "scaling)\n", cmd, (int)len, q);
            return false;
        }
        o->sections |= bit;
        if (!q[len]) return true;
        q += len + 1;
    }
}

int bench_ladder(int argc, char **argv)
{
    static const char cmd[] = "ntt-bench ladder";
    options o = {.cpu = {.n = 131072, .primes = BENCH_COURSE_MODULI, .nprimes = 4, .reps = 21,
                         .seed = 20261121},
                 .sweep_max = 20, .scaling_min = 16, .scaling_max = 24,
                 .sections = SEC_CYCLES | SEC_LADDER | SEC_CRT | SEC_SWEEP | SEC_SCALING};
    bool threads_given = false, sweep_given = false, scaling_given = false;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v;
        uint64_t x;
        int r;
        if (cli_is_help(a)) {
            print_usage(stdout);
            return EXIT_OK;
        } else if ((r = bench_args_option(cmd, argc, argv, &i, &o.cpu)) != 0) {
            if (r < 0) return EXIT_USAGE;
        } else if ((r = cli_number_option(cmd, argc, argv, &i, "--sweep-max", 8, 24, &x)) != 0) {
            if (r < 0) return EXIT_USAGE;
            o.sweep_max = (unsigned)x;
            sweep_given = true;
        } else if ((r = cli_option(cmd, argc, argv, &i, "--threads", NULL, &v)) != 0) {
            if (r < 0) return EXIT_USAGE;
            if (!parse_threads(v, &o)) {
                fprintf(stderr, "%s: bad thread list '%s' (1 to 16 counts in [1, 1024])\n", cmd, v);
                return EXIT_USAGE;
            }
            threads_given = true;
        } else if ((r = cli_option(cmd, argc, argv, &i, "--scaling", NULL, &v)) != 0) {
            if (r < 0) return EXIT_USAGE;
            unsigned lo, hi;
            char tail;
            if (sscanf(v, "%u-%u%c", &lo, &hi, &tail) != 2 || lo < 10 || hi > 25 || lo > hi) {
                fprintf(stderr, "%s: --scaling LO-HI with 10 <= LO <= HI <= 25, not '%s'\n", cmd, v);
                return EXIT_USAGE;
            }
            o.scaling_min = lo;
            o.scaling_max = hi;
            scaling_given = true;
        } else if ((r = cli_option(cmd, argc, argv, &i, "--sections", NULL, &v)) != 0) {
            if (r < 0 || !parse_sections(cmd, v, &o)) return EXIT_USAGE;
        } else if (a[0] == '-') {
            return cli_unknown_option(cmd, a);
        } else {
            return cli_extra_argument(cmd, a);
        }
    }
    if (o.cpu.quick) {
        o.cpu.reps = o.cpu.reps < 7 ? o.cpu.reps : 7;
        if (!sweep_given) o.sweep_max = 16;
        if (!scaling_given) o.scaling_max = 20;
    }

    sysinfo si;
    sysinfo_read(&si);
    if (!threads_given) {
        o.nthreads = 0;
        for (int t = 1; t < si.logical_cpus && o.nthreads < 15; t *= 2) o.threads[o.nthreads++] = t;
        o.threads[o.nthreads++] = si.logical_cpus > 0 ? si.logical_cpus : 1;
    }
    const double bw = sysinfo_memcpy_gbps((size_t)64 << 20);
    const double ghz0 = clock_ghz();
    printf("%s\nmachine: %s, %d logical CPUs, %s; %s; commit %s\n", cmd, si.cpu_model,
           si.logical_cpus, si.cpu_flags, si.compiler, si.commit);
    printf("core clock %.3f GHz (dependent adds), memcpy %.1f GB/s; threads:", ghz0, bw);
    for (int t = 0; t < o.nthreads; t++) printf(" %d", o.threads[t]);
    printf(" (OMP_PROC_BIND=%s, OMP_PLACES=%s)\nmethod: every row verified first (products against GMP, transforms "
           "against the scalar backend),\n        2 warm-up calls, repetitions interleaved "
           "across a table's rows, CLOCK_MONOTONIC around one call\n",
           getenv("OMP_PROC_BIND") ? getenv("OMP_PROC_BIND") : "unset",
           getenv("OMP_PLACES") ? getenv("OMP_PLACES") : "unset");

    tables ts = {0};
    int rc = EXIT_OK;
    cpb_row cpb[2];
    const char *cpb_backend = NULL;
    const int ncpb = o.sections & SEC_CYCLES ? cycles_per_butterfly(ghz0, &cpb_backend, cpb) : 0;
    if ((o.sections & SEC_LADDER && (section_ladder(&o, false, &ts) != 0 ||
                                     section_ladder(&o, true, &ts) != 0)) ||
        (o.sections & SEC_CRT && section_crt(&o, &ts) != 0) ||
        (o.sections & SEC_SWEEP && section_sweep(&o, &ts) != 0) ||
        (o.sections & SEC_SCALING && section_scaling(&o, &ts) != 0)) {
        fprintf(stderr, "%s: out of memory\n", cmd);
        rc = EXIT_FAILURE_LIB;
    }
    const double ghz1 = clock_ghz();
    printf("\ncore clock at the end: %.3f GHz\n", ghz1);
    for (int i = 0; i < ts.nt; i++)
        for (int k = 0; k < ts.t[i].nj; k++)
            if (!ts.t[i].js[k].s.ok && strncmp(ts.t[i].js[k].s.why, "FAILED", 6) == 0) rc = EXIT_MISMATCH;
    if (o.cpu.json && rc != EXIT_FAILURE_LIB) {
        json_ctx jc = {&o, &si, bw, ghz0, ghz1, cpb_backend, cpb, ncpb, &ts};
        char why[160];
        if (cli_atomic_write(o.cpu.json, emit_json, &jc, why, sizeof why) != 0) {
            fprintf(stderr, "%s: %s: cannot write: %s\n", cmd, o.cpu.json, why);
            if (rc == EXIT_OK) rc = EXIT_OUTPUT_IO;
        } else {
            printf("wrote %s\n", o.cpu.json);
        }
    }
    for (int i = 0; i < ts.nt; i++) {
        for (int k = 0; k < ts.t[i].nj; k++) {
            if (ts.t[i].js[k].kind == J_FWD && k == 0) {
                free((void *)ts.t[i].js[k].xin);
                free((void *)ts.t[i].js[k].xref);
            }
            job_free(&ts.t[i].js[k]);
        }
        free(ts.t[i].js);
    }
    free(ts.t);
    ntt_cache_clear();
    return rc;
}
