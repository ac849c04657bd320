/* `ntt-bench mpi`: strong scaling of the distributed four-step product over
   the ranks it is launched with, beside the OpenMP backend with as many
   threads in one process and the seed's master-slave design, in one run.

   Per size n (a cyclic product of size n: two operands of n/2 coefficients,
   so the product is the linear one, checked against ntt_polymul_mod on
   rank 0 before the timing and again after it):
     four-step     ntt_mpi_polymul on operands already distributed;
     openmp        ntt_polymul_mod_ex on rank 0, threads = ranks, while the
                   other ranks sleep (a polled MPI_Ibarrier, not a spin);
     master-slave  rank 0 transforms, broadcast, slices, MPI_Allgatherv,
                   rank 0 inverts (src/course/mpi_master_slave.c).
   Repetitions run in rounds, one call of each row per round (drift hits
   all rows alike).  A repetition's time is the slowest rank's, between a
   barrier and the end of the call.  Every MPI call inside a timed call is
   counted, timed and its bytes added up by the PMPI wrapper (mpi_pmpi.c):
   the all-to-all count per product is measured, not assumed.  A row's
   compute time is the call's time less the time inside MPI calls (per
   rank; the slowest rank's).
   Besides the rows: the memcpy bandwidth of one rank alone and of every
   rank at once, and an MPI_Alltoall sweep over message sizes, for the
   cost model (scripts/mpi_model.py). */
#include "bench.h"
#include "sysinfo.h"
#include "mpi_pmpi.h"
#include "mpi_master_slave.h"
#include "mpi_internal.h" /* ntt_mpi_stats_*, ntt_mpi_mode_get */

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>


static int g_rank, g_size;

static void say(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void say(const char *fmt, ...)
{
    if (g_rank != 0) return;
    va_list ap;
    va_start(ap, fmt);
    vfprintf(stdout, fmt, ap);
    va_end(ap);
    fflush(stdout);
}

/* ---- options ---------------------------------------------------------------------- */

#define MAX_SIZES 16

typedef struct {
    int logn[MAX_SIZES], nsizes;
    uint64_t p;
    int reps;
    ntt_backend backend;
    int threads;       /* threads per rank of the four-step (the plan's option) */
    int omp, baseline, sweep;
    int verify_max;    /* largest log2 n checked against ntt_polymul_mod */
    uint64_t seed;
    const char *json;
} options;

static void usage(FILE *f)
{
    if (g_rank) return;
    fputs("usage: mpiexec -n P ntt-bench mpi [--n L1,L2,..] [--p P] [--reps R] [--backend B]\n"
          "                 [--threads T] [--no-openmp] [--no-baseline] [--no-sweep]\n"
          "                 [--verify-max L] [--seed S] [--json FILE]\n"
          "\n"
          "Strong scaling of distributed products (libntt_mpi) over the launched ranks:\n"
          "the four-step product, the OpenMP backend with as many threads in one\n"
          "process, and the seed's master-slave design, interleaved, each verified.\n"
          "  --n         log2 of the product sizes (default 20,21,22,23,24,25,26)\n"
          "  --p         modulus (default 469762049 = 7*2^26+1; any p in [2, 2^63))\n"
          "  --reps      timed repetitions per row (default 10)\n"
          "  --backend   local backend of each rank (default auto)\n"
          "  --threads   threads per rank of the four-step (0 or 1: one; openmp: 0 = all\n"
          "              cores); the openmp row runs ranks x threads threads\n"
          "  --verify-max  check against ntt_polymul_mod up to 2^L (default 26)\n"
          "Run with --bind-to none: the OpenMP row needs every core for rank 0.\n",
          f);
}

static int parse_list(const char *s, int *out, int max)
{
    int k = 0;
    while (*s) {
        char *end;
        const long v = strtol(s, &end, 10);
        if (end == s || v < 1 || v > NTT_MPI_MAX_LOG2_N || k == max) return -1;
        out[k++] = (int)v;
        s = *end == ',' ? end + 1 : end;
        if (*end && *end != ',') return -1;
    }
    return k;
}

static int parse_options(int argc, char **argv, options *o)
{
    *o = (options){.p = 469762049, .reps = 10, .backend = NTT_BACKEND_AUTO, .omp = 1,
                   .baseline = 1, .sweep = 1, .verify_max = 26, .seed = 0x6e7474u};
    for (int l = 20; l <= 26; l++) o->logn[o->nsizes++] = l;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        const char *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            usage(stdout);
            return 1;
        } else if (!strcmp(a, "--no-openmp")) {
            o->omp = 0;
        } else if (!strcmp(a, "--no-baseline")) {
            o->baseline = 0;
        } else if (!strcmp(a, "--no-sweep")) {
            o->sweep = 0;
        } else if (v && !strcmp(a, "--n")) {
            if ((o->nsizes = parse_list(v, o->logn, MAX_SIZES)) <= 0) return -1;
            i++;
        } else if (v && !strcmp(a, "--p")) {
            o->p = strtoull(v, NULL, 10);
            if (o->p < 2 || o->p >= (uint64_t)1 << 63) return -1;
            i++;
        } else if (v && !strcmp(a, "--reps")) {
            o->reps = atoi(v);
            if (o->reps < 1 || o->reps > 100000) return -1;
            i++;
        } else if (v && !strcmp(a, "--threads")) {
            o->threads = atoi(v);
            if (o->threads < 0) return -1;
            i++;
        } else if (v && !strcmp(a, "--verify-max")) {
            o->verify_max = atoi(v);
            i++;
        } else if (v && !strcmp(a, "--seed")) {
            o->seed = strtoull(v, NULL, 10);
            i++;
        } else if (v && !strcmp(a, "--backend")) {
            if (ntt_backend_from_name(v, &o->backend) != NTT_OK) return -1;
            i++;
        } else if (v && !strcmp(a, "--json")) {
            o->json = v;
            i++;
        } else {
            return -1;
        }
    }
    return 0;
}

/* ---- helpers ---------------------------------------------------------------------- */

static uint64_t splitmix(uint64_t *s)
{
    uint64_t z = (*s += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

static int cmp_double(const void *x, const void *y)
{
    const double a = *(const double *)x, b = *(const double *)y;
    return (a > b) - (a < b);
}

static double median(const double *x, int n)
{
    double *t = malloc((size_t)n * sizeof *t);
    if (!t) return 0;
    memcpy(t, x, (size_t)n * sizeof *t);
    qsort(t, (size_t)n, sizeof *t, cmp_double);
    const double m = n % 2 ? t[n / 2] : 0.5 * (t[n / 2 - 1] + t[n / 2]);
    free(t);
    return m;
}

static double cpu_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static double max_over_ranks(double x)
{
    double m = x;
    MPI_Allreduce(&x, &m, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    return m;
}

/* Waits for every rank without spinning: the OpenMP row's rank 0 needs the
   cores the other ranks would burn in MPI_Barrier. */
static void quiet_barrier(void)
{
    MPI_Request r;
    int done = 0;
    MPI_Ibarrier(MPI_COMM_WORLD, &r);
    const struct timespec nap = {0, 200000};
    while (MPI_Test(&r, &done, MPI_STATUS_IGNORE) == MPI_SUCCESS && !done) nanosleep(&nap, NULL);
}

/* Element i of an array of the given width. */
static uint64_t get(const void *x, ntt_width w, size_t i)
{
    return w == NTT_U32 ? ((const uint32_t *)x)[i] : ((const uint64_t *)x)[i];
}
static void put(void *x, ntt_width w, size_t i, uint64_t v)
{
    if (w == NTT_U32)
        ((uint32_t *)x)[i] = (uint32_t)v;
    else
        ((uint64_t *)x)[i] = v;
}

/* Host memcpy bandwidth of each rank (read + write, GB/s), with `all`
   ranks copying at once or rank 0 alone; 64 MiB buffers. */
static double memcpy_gbps(int all)
{
    const size_t bytes = (size_t)64 << 20;
    double gbps = 0;
    char *x = malloc(bytes), *y = malloc(bytes);
    const int active = x && y && (all || g_rank == 0);
    if (x && y) {
        memset(x, 1, bytes);
        memset(y, 2, bytes);
    }
    double t[5];
    for (int r = 0; r < 5; r++) {
        MPI_Barrier(MPI_COMM_WORLD);
        const double t0 = MPI_Wtime();
        if (active) memcpy(r % 2 ? x : y, r % 2 ? y : x, bytes);
        t[r] = MPI_Wtime() - t0;
    }
    if (active) gbps = 2.0 * (double)bytes / median(t, 5) / 1e9;
    free(x);
    free(y);
    return gbps;
}

/* ---- rows --------------------------------------------------------------------------- */

enum { ROW_FOUR, ROW_OMP, ROW_MS, ROW_COUNT };
static const char *const row_names[ROW_COUNT] = {"four-step", "openmp", "master-slave"};

typedef struct {
    int active;
    int ok;
    char why[160];
    double *reps, *mpi_s, *a2a_s, *comp_s; /* per repetition, slowest rank */
    double *cpu_s;             /* per repetition: the CPU time of the slowest rank's
                                  process (all its threads), on a loaded host the
                                  steadier figure */
    int nreps;
    pmpi_counters per_call;    /* rank 0's counts of one call, bytes of one call */
    uint64_t moved;            /* four-step: the largest count of bytes any rank's data
                                  crossed to other ranks in one product (the library's
                                  count: through MPI or read from a shared window) */
    uint64_t *bytes_rank;      /* bytes each rank sent in one call (rank 0 only) */
    int counts_agree;          /* every rank made the same calls */
    double plan_s;
    int threads;
} row;

typedef struct {
    const options *o;
    size_t n, h;               /* size, operand length */
    ntt_width w;
    uint64_t p;
    ntt_mpi_plan *plan;
    ntt_mpi_local loc;
    int shm;                   /* the plan's exchange: shared window or all-to-alls */
    size_t chunks;             /* pieces of the product's all-to-alls */
    ntt_mpi_ms *ms;
    void *la, *lb, *lc;        /* this rank's shares */
    void *ga, *gb, *gc;        /* rank 0: natural order, width w, n each */
    uint64_t *a64, *b64, *ref, *c64; /* rank 0: operands, reference, openmp result */
    row rows[ROW_COUNT];
} sizecase;

/* One call of a row, as it is timed.  Returns the agreed status. */
static ntt_status call_row(sizecase *s, int k)
{
    ntt_status st = NTT_OK;
    switch (k) {
    case ROW_FOUR:
        st = s->w == NTT_U32 ? ntt_mpi_polymul_u32(s->plan, s->lc, s->la, s->lb)
                             : ntt_mpi_polymul_u64(s->plan, s->lc, s->la, s->lb);
        break;
    case ROW_OMP:
        if (g_rank == 0) {
            const ntt_plan_options po = {.threads = s->rows[ROW_OMP].threads};
            st = ntt_polymul_mod_ex(s->c64, s->a64, s->h, s->b64, s->h, s->p, NTT_BACKEND_OPENMP,
                                    &po);
        }
        break;
    case ROW_MS:
        st = s->w == NTT_U32 ? ntt_mpi_ms_polymul_u32(s->ms, s->gc, s->ga, s->gb)
                             : ntt_mpi_ms_polymul_u64(s->ms, s->gc, s->ga, s->gb);
        break;
    }
    return st;
}

/* Whether rank 0's result of row k equals the reference (agreed). */
static int check_row(sizecase *s, int k, char *why, size_t len)
{
    ntt_status st = NTT_OK;
    if (k == ROW_FOUR)
        st = s->w == NTT_U32 ? ntt_mpi_gather_u32(s->plan, NTT_MPI_COEFFS, 0, s->lc, s->gc)
                             : ntt_mpi_gather_u64(s->plan, NTT_MPI_COEFFS, 0, s->lc, s->gc);
    int bad = st != NTT_OK;
    if (st != NTT_OK) snprintf(why, len, "gather failed: %s", ntt_status_string(st));
    if (!bad && g_rank == 0) {
        for (size_t i = 0; i < s->n && !bad; i++) {
            const uint64_t got = k == ROW_OMP ? (i < s->n - 1 ? s->c64[i] : 0) : get(s->gc, s->w, i);
            if (got != s->ref[i]) {
                snprintf(why, len, "FAILED: coefficient %zu is %llu, expected %llu", i,
                         (unsigned long long)got, (unsigned long long)s->ref[i]);
                bad = 1;
            }
        }
    }
    MPI_Bcast(&bad, 1, MPI_INT, 0, MPI_COMM_WORLD);
    MPI_Bcast(why, (int)len, MPI_CHAR, 0, MPI_COMM_WORLD);
    return !bad;
}

/* One timed repetition of row k: barrier, the call, the slowest rank's
   time, and what the PMPI wrapper saw. */
static ntt_status time_row(sizecase *s, int k, int rep)
{
    row *r = &s->rows[k];
    pmpi_enable(0);
    if (k == ROW_OMP)
        quiet_barrier();
    else
        MPI_Barrier(MPI_COMM_WORLD);
    pmpi_reset();
    if (k == ROW_FOUR) ntt_mpi_stats_reset(s->plan);
    pmpi_enable(1);
    const double c0 = cpu_now(), t0 = MPI_Wtime();
    ntt_status st = call_row(s, k);
    const double t = MPI_Wtime() - t0, cpu = cpu_now() - c0;
    pmpi_enable(0);
    pmpi_counters c;
    pmpi_get(&c);
    if (k == ROW_OMP) quiet_barrier();
    double in_mpi = 0, in_a2a = 0;
    for (int i = 0; i < PM_COUNT; i++) {
        in_mpi += c.seconds[i];
        if (pmpi_is_exchange(i)) in_a2a += c.seconds[i];
    }
    int bad = st != NTT_OK, any_bad = 0;
    MPI_Allreduce(&bad, &any_bad, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    if (any_bad) return NTT_EBACKEND;
    r->reps[rep] = max_over_ranks(t);
    r->mpi_s[rep] = max_over_ranks(in_mpi);
    r->a2a_s[rep] = max_over_ranks(in_a2a);
    r->comp_s[rep] = max_over_ranks(t - in_mpi);
    r->cpu_s[rep] = max_over_ranks(cpu);
    r->nreps = rep + 1;
    if (rep == 0) {
        /* The counts of one call; each rank's bytes; do all ranks agree? */
        r->per_call = c;
        uint64_t mine[PM_COUNT], lo[PM_COUNT], hi[PM_COUNT];
        for (int i = 0; i < PM_COUNT; i++) mine[i] = c.calls[i];
        MPI_Allreduce(mine, lo, PM_COUNT, MPI_UINT64_T, MPI_MIN, MPI_COMM_WORLD);
        MPI_Allreduce(mine, hi, PM_COUNT, MPI_UINT64_T, MPI_MAX, MPI_COMM_WORLD);
        r->counts_agree = !memcmp(lo, hi, sizeof lo);
        uint64_t bytes = 0;
        for (int i = 0; i < PM_COUNT; i++) bytes += c.bytes[i];
        MPI_Gather(&bytes, 1, MPI_UINT64_T, r->bytes_rank, 1, MPI_UINT64_T, 0, MPI_COMM_WORLD);
        if (k == ROW_FOUR) {
            ntt_mpi_stats ps;
            ntt_mpi_stats_get(s->plan, &ps);
            MPI_Allreduce(&ps.bytes_sent, &r->moved, 1, MPI_UINT64_T, MPI_MAX, MPI_COMM_WORLD);
        }
    }
    return NTT_OK;
}

/* ---- one size ------------------------------------------------------------------------- */

static void free_case(sizecase *s)
{
    ntt_mpi_plan_destroy(s->plan);
    ntt_mpi_ms_destroy(s->ms);
    free(s->la);
    free(s->lb);
    free(s->lc);
    free(s->ga);
    free(s->gb);
    free(s->gc);
    free(s->a64);
    free(s->b64);
    free(s->ref);
    free(s->c64);
    for (int k = 0; k < ROW_COUNT; k++) {
        free(s->rows[k].reps);
        free(s->rows[k].bytes_rank);
    }
}

/* Sets up every row of size 2^logn (operands, reference, plans) and says
   which rows run. */
static ntt_status setup_case(sizecase *s, const options *o, int logn)
{
    memset(s, 0, sizeof *s);
    s->o = o;
    s->n = (size_t)1 << logn;
    s->h = s->n / 2;
    s->p = o->p;
    s->w = o->p < ((uint64_t)1 << 30) ? NTT_U32 : NTT_U64;
    const size_t esz = s->w == NTT_U32 ? 4 : 8;
    ntt_status st = NTT_OK;
    for (int k = 0; k < ROW_COUNT; k++) {
        row *r = &s->rows[k];
        r->reps = calloc(5 * (size_t)o->reps, sizeof(double));
        r->bytes_rank = calloc((size_t)g_size, sizeof(uint64_t));
        if (!r->reps || !r->bytes_rank) st = NTT_ENOMEM;
        else {
            r->mpi_s = r->reps + o->reps;
            r->a2a_s = r->mpi_s + o->reps;
            r->comp_s = r->a2a_s + o->reps;
            r->cpu_s = r->comp_s + o->reps;
        }
        r->ok = 1;
    }
    if (g_rank == 0 && st == NTT_OK) {
        s->ga = calloc(s->n, esz);
        s->gb = calloc(s->n, esz);
        s->gc = calloc(s->n, esz);
        s->a64 = malloc(s->h * 8);
        s->b64 = malloc(s->h * 8);
        s->ref = calloc(s->n, 8);
        s->c64 = malloc(s->n * 8);
        if (!s->ga || !s->gb || !s->gc || !s->a64 || !s->b64 || !s->ref || !s->c64)
            st = NTT_ENOMEM;
        uint64_t seed = o->seed ^ (uint64_t)logn;
        for (size_t i = 0; st == NTT_OK && i < s->h; i++) {
            s->a64[i] = splitmix(&seed) % s->p;
            s->b64[i] = splitmix(&seed) % s->p;
            put(s->ga, s->w, i, s->a64[i]);
            put(s->gb, s->w, i, s->b64[i]);
        }
        /* The single-process library's product is the reference. */
        if (st == NTT_OK && logn <= o->verify_max)
            st = ntt_polymul_mod(s->ref, s->a64, s->h, s->b64, s->h, s->p, NTT_BACKEND_AUTO);
    }
    int e = (int)st, all;
    MPI_Allreduce(&e, &all, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    if (all != NTT_OK) return (ntt_status)all;

    const ntt_plan_options po = {.threads = o->threads};
    row *four = &s->rows[ROW_FOUR];
    four->active = 1;
    MPI_Barrier(MPI_COMM_WORLD);
    double t0 = MPI_Wtime();
    st = ntt_mpi_plan_create(&s->plan, MPI_COMM_WORLD, s->n, s->p, s->w, o->backend, &po);
    four->plan_s = max_over_ranks(MPI_Wtime() - t0);
    if (st == NTT_OK) st = ntt_mpi_local_size(s->plan, &s->loc);
    if (st == NTT_OK) ntt_mpi_mode_get(s->plan, &s->shm, &s->chunks, &four->threads);
    if (st == NTT_OK) {
        s->la = calloc(s->loc.alloc + 1, esz);
        s->lb = calloc(s->loc.alloc + 1, esz);
        s->lc = calloc(s->loc.alloc + 1, esz);
        e = !s->la || !s->lb || !s->lc;
        MPI_Allreduce(&e, &all, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
        st = all ? NTT_ENOMEM : NTT_OK;
    }
#define SCATTER(x, l)                                                                          \
    (s->w == NTT_U32 ? ntt_mpi_scatter_u32(s->plan, NTT_MPI_COEFFS, 0, x, l)                   \
                     : ntt_mpi_scatter_u64(s->plan, NTT_MPI_COEFFS, 0, x, l))
    if (st == NTT_OK) st = SCATTER(s->ga, s->la);
    if (st == NTT_OK) st = SCATTER(s->gb, s->lb);
#undef SCATTER
    if (st != NTT_OK) return st;

    s->rows[ROW_OMP].active = o->omp && ntt_backend_available(NTT_BACKEND_OPENMP);
    s->rows[ROW_OMP].threads = g_size * (four->threads > 1 ? four->threads : 1);
    if (o->omp && !s->rows[ROW_OMP].active) snprintf(s->rows[ROW_OMP].why, 160, "unavailable");
    row *ms = &s->rows[ROW_MS];
    ms->threads = 1;
    if (o->baseline) {
        MPI_Barrier(MPI_COMM_WORLD);
        t0 = MPI_Wtime();
        const ntt_status ms_st = ntt_mpi_ms_create(&s->ms, MPI_COMM_WORLD, s->n, s->p, s->w,
                                                   o->backend == NTT_BACKEND_OPENMP
                                                       ? NTT_BACKEND_AUTO
                                                       : o->backend);
        ms->plan_s = max_over_ranks(MPI_Wtime() - t0);
        ms->active = ms_st == NTT_OK;
        if (!ms->active)
            snprintf(ms->why, sizeof ms->why, "not run: %s (needs an NTT prime for n)",
                     ntt_status_string(ms_st));
    }
    return NTT_OK;
}

/* ---- JSON ------------------------------------------------------------------------------- */

static void json_array(FILE *f, const double *x, int n)
{
    fputc('[', f);
    for (int i = 0; i < n; i++) fprintf(f, "%s%.9g", i ? ", " : "", x[i]);
    fputc(']', f);
}

static void json_row(FILE *f, const sizecase *s, int k, int first)
{
    const row *r = &s->rows[k];
    const options *o = s->o;
    fprintf(f, "%s    {\"row\": \"%s\", \"ranks\": %d, \"n\": %zu, \"p\": %llu, \"width\": \"%s\"",
            first ? "" : ",\n", row_names[k], g_size, s->n, (unsigned long long)s->p,
            s->w == NTT_U32 ? "u32" : "u64");
    fprintf(f, ", \"threads_per_rank\": %d", r->threads);
    if (k == ROW_OMP)
        fprintf(f, ", \"processes\": 1, \"backend\": \"openmp\"");
    else
        fprintf(f, ", \"processes\": %d, \"backend\": \"%s\"", g_size,
                ntt_backend_name(o->backend == NTT_BACKEND_AUTO ? ntt_backend_resolve_auto()
                                                                : o->backend));
    if (k == ROW_FOUR)
        fprintf(f, ", \"n1\": %zu, \"n2\": %zu, \"moduli\": %zu, \"path\": \"%s\", "
                   "\"exchange\": \"%s\", \"pieces\": %zu, \"bytes_per_rank_per_product\": %llu",
                s->loc.n1, s->loc.n2, s->loc.moduli, s->loc.transforms ? "direct" : "crt",
                s->shm ? "shared-window" : "alltoall", s->chunks,
                (unsigned long long)r->moved);
    if (k != ROW_OMP) fprintf(f, ", \"plan_s\": %.6g", r->plan_s);
    if (!r->active || !r->ok || r->nreps == 0) {
        fprintf(f, ", \"verified\": false, \"error\": ");
        fputc('"', f);
        for (const char *q = r->why[0] ? r->why : "not run"; *q; q++)
            fputc(*q == '"' || *q == '\\' ? '\'' : *q, f);
        fputs("\"}", f);
        return;
    }
    const int n = r->nreps;
    double lo = r->reps[0], hi = r->reps[0];
    for (int i = 1; i < n; i++) {
        lo = r->reps[i] < lo ? r->reps[i] : lo;
        hi = r->reps[i] > hi ? r->reps[i] : hi;
    }
    fprintf(f, ", \"verified\": %s, \"median_s\": %.9g, \"min_s\": %.9g, \"max_s\": %.9g",
            s->n <= ((size_t)1 << o->verify_max) ? "true" : "false", median(r->reps, n), lo, hi);
    fprintf(f, ", \"alltoall_s\": %.9g, \"mpi_s\": %.9g, \"compute_s\": %.9g, \"cpu_s\": %.9g",
            median(r->a2a_s, n), median(r->mpi_s, n), median(r->comp_s, n), median(r->cpu_s, n));
    uint64_t a2a = 0;
    for (int i = 0; i < PM_COUNT; i++)
        if (pmpi_is_alltoall(i)) a2a += r->per_call.calls[i];
    fprintf(f, ", \"alltoalls_per_call\": %llu, \"calls_same_on_all_ranks\": %s",
            (unsigned long long)a2a, r->counts_agree ? "true" : "false");
    fputs(", \"mpi_calls_per_call\": {", f);
    int any = 0;
    for (int i = 0; i < PM_COUNT; i++)
        if (r->per_call.calls[i]) {
            fprintf(f, "%s\"%s\": %llu", any++ ? ", " : "", pmpi_name(i),
                    (unsigned long long)r->per_call.calls[i]);
        }
    fputs("}, \"bytes_sent_per_rank\": [", f);
    for (int i = 0; i < g_size; i++)
        fprintf(f, "%s%llu", i ? ", " : "", (unsigned long long)r->bytes_rank[i]);
    fputs("], \"reps_s\": ", f);
    json_array(f, r->reps, n);
    fputs(", \"alltoall_reps_s\": ", f);
    json_array(f, r->a2a_s, n);
    fputs(", \"compute_reps_s\": ", f);
    json_array(f, r->comp_s, n);
    fputs(", \"cpu_reps_s\": ", f);
    json_array(f, r->cpu_s, n);
    fputc('}', f);
}

/* ---- the MPI_Alltoall sweep -------------------------------------------------------------- */

#define SWEEP_MAX 24
typedef struct {
    int count;
    size_t bytes[SWEEP_MAX];
    double med[SWEEP_MAX], lo[SWEEP_MAX];
} sweep_result;

/* MPI_Alltoall of m bytes to every rank, m = 8 B .. 4 MiB: the alpha-beta
   fit's data for this host. */
static void alltoall_sweep(sweep_result *sw)
{
    memset(sw, 0, sizeof *sw);
    const size_t maxm = (size_t)4 << 20;
    char *sb = malloc(maxm * (size_t)g_size), *rb = malloc(maxm * (size_t)g_size);
    int ok = sb && rb, all;
    MPI_Allreduce(&ok, &all, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
    if (all) {
        memset(sb, 3, maxm * (size_t)g_size);
        memset(rb, 0, maxm * (size_t)g_size);
        for (size_t m = 8; m <= maxm && sw->count < SWEEP_MAX; m *= 4) {
            enum { R = 15 };
            double t[R];
            for (int r = 0; r < R; r++) {
                MPI_Barrier(MPI_COMM_WORLD);
                const double t0 = MPI_Wtime();
                MPI_Alltoall(sb, (int)m, MPI_BYTE, rb, (int)m, MPI_BYTE, MPI_COMM_WORLD);
                t[r] = max_over_ranks(MPI_Wtime() - t0);
            }
            double lo = t[0];
            for (int r = 1; r < R; r++) lo = t[r] < lo ? t[r] : lo;
            sw->bytes[sw->count] = m;
            sw->med[sw->count] = median(t + 2, R - 2); /* the first two warm up */
            sw->lo[sw->count] = lo;
            sw->count++;
        }
    }
    free(sb);
    free(rb);
}

/* ---- the section ---------------------------------------------------------------------------- */

static void machine_json(FILE *f, const double bw[2], const sweep_result *sw)
{
    char cpu[128] = "unknown", lib[MPI_MAX_LIBRARY_VERSION_STRING] = "";
    FILE *ci = fopen("/proc/cpuinfo", "r");
    if (ci) {
        char line[512];
        while (fgets(line, sizeof line, ci))
            if (!strncmp(line, "model name", 10)) {
                const char *c = strchr(line, ':');
                if (c) snprintf(cpu, sizeof cpu, "%s", c + 2);
                cpu[strcspn(cpu, "\n")] = 0;
                break;
            }
        fclose(ci);
    }
    int len = 0;
    MPI_Get_library_version(lib, &len);
    lib[strcspn(lib, "\n")] = 0;
    char host[256] = "";
    gethostname(host, sizeof host - 1);
    time_t now = time(NULL);
    char date[32] = "";
    strftime(date, sizeof date, "%Y-%m-%dT%H:%M:%SZ", gmtime(&now));
    fprintf(f, "  \"commit\": \"%s\",\n  \"date\": \"%s\",\n", build_commit(), date);
    fprintf(f, "  \"machine\": {\"cpu\": \"%s\", \"online_cpus\": %ld, \"host\": \"%s\", "
               "\"mpi_library\": \"",
            cpu, sysconf(_SC_NPROCESSORS_ONLN), host);
    for (const char *q = lib; *q; q++) fputc(*q == '"' || *q == '\\' ? '\'' : *q, f);
    fprintf(f, "\", \"ranks\": %d,\n    \"memcpy_gbps_one_rank\": %.3f, "
               "\"memcpy_gbps_per_rank_all\": %.3f},\n",
            g_size, bw[0], bw[1]);
    fputs("  \"alltoall_sweep\": [", f);
    for (int i = 0; i < sw->count; i++)
        fprintf(f, "%s{\"bytes_per_pair\": %zu, \"median_s\": %.9g, \"min_s\": %.9g}",
                i ? ", " : "", sw->bytes[i], sw->med[i], sw->lo[i]);
    fputs("],\n", f);
}

int bench_mpi(int argc, char **argv)
{
    int inited = 0, we_init = 0;
    MPI_Initialized(&inited);
    if (!inited) {
        if (MPI_Init(&argc, &argv) != MPI_SUCCESS) return 8;
        we_init = 1;
    }
    MPI_Comm_rank(MPI_COMM_WORLD, &g_rank);
    MPI_Comm_size(MPI_COMM_WORLD, &g_size);
    pmpi_enable(0);
    options o;
    const int pr = parse_options(argc, argv, &o);
    int rc = 0;
    if (pr != 0) {
        if (pr < 0) {
            usage(stderr);
            rc = 2;
        }
        goto done;
    }
    FILE *json = NULL;
    if (g_rank == 0 && o.json && !(json = fopen(o.json, "w"))) {
        fprintf(stderr, "ntt-bench mpi: cannot write %s: %s\n", o.json, strerror(errno));
        rc = 8;
    }
    MPI_Bcast(&rc, 1, MPI_INT, 0, MPI_COMM_WORLD);
    if (rc) goto done;

    say("ntt-bench mpi: %d ranks x %d threads, p = %llu, backend %s, %d reps\n", g_size,
        o.threads > 1 ? o.threads : 1, (unsigned long long)o.p, ntt_backend_name(o.backend),
        o.reps);
    double bw[2] = {memcpy_gbps(0), memcpy_gbps(1)};
    say("memcpy (read+write): %.1f GB/s one rank alone, %.1f GB/s per rank with all copying\n",
        bw[0], bw[1]);
    sweep_result sw = {0};
    if (o.sweep) alltoall_sweep(&sw);
    for (int i = 0; i < sw.count; i++)
        say("MPI_Alltoall %8zu B per pair: %10.3f us\n", sw.bytes[i], 1e6 * sw.med[i]);
    if (json) {
        fputs("{\n  \"bench\": \"mpi\",\n", json);
        machine_json(json, bw, &sw);
        fprintf(json, "  \"options\": {\"p\": %llu, \"reps\": %d, \"backend\": \"%s\", "
                      "\"threads\": %d, \"seed\": %llu},\n  \"rows\": [\n",
                (unsigned long long)o.p, o.reps, ntt_backend_name(o.backend), o.threads,
                (unsigned long long)o.seed);
    }
    say("%-13s %5s %3s %10s %12s %12s %12s %12s %12s %6s %12s\n", "row", "ranks", "thr", "n",
        "median", "min", "cpu", "alltoall", "compute", "a2a/c", "MB sent/rk");
    int first = 1;
    for (int si = 0; si < o.nsizes; si++) {
        sizecase s;
        ntt_status st = setup_case(&s, &o, o.logn[si]);
        if (st != NTT_OK) {
            say("n = 2^%d: set-up failed: %s\n", o.logn[si], ntt_status_string(st));
            snprintf(s.rows[ROW_FOUR].why, 160, "set-up failed: %s", ntt_status_string(st));
            s.rows[ROW_FOUR].ok = 0;
            rc = rc ? rc : 8;
        }
        const int verify = o.logn[si] <= o.verify_max;
        /* Verify each row once before timing it; a row that fails is not
           timed. */
        for (int k = 0; k < ROW_COUNT && st == NTT_OK; k++) {
            row *r = &s.rows[k];
            if (!r->active) continue;
            const ntt_status cs = call_row(&s, k);
            int e = cs != NTT_OK, any;
            MPI_Allreduce(&e, &any, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
            if (k == ROW_OMP) quiet_barrier();
            if (any) {
                snprintf(r->why, sizeof r->why, "FAILED: %s", ntt_status_string(cs));
                r->ok = 0;
            } else if (verify && !check_row(&s, k, r->why, sizeof r->why)) {
                r->ok = 0;
            }
            if (!r->ok) rc = 1;
        }
        for (int rep = 0; rep < o.reps && st == NTT_OK; rep++)
            for (int k = 0; k < ROW_COUNT; k++) {
                row *r = &s.rows[k];
                if (!r->active || !r->ok) continue;
                if (time_row(&s, k, rep) != NTT_OK) {
                    snprintf(r->why, sizeof r->why, "FAILED in a timed call");
                    r->ok = 0;
                    rc = 1;
                }
            }
        /* And the last timed result again. */
        for (int k = 0; k < ROW_COUNT && st == NTT_OK; k++) {
            row *r = &s.rows[k];
            if (r->active && r->ok && verify && !check_row(&s, k, r->why, sizeof r->why)) {
                r->ok = 0;
                rc = 1;
            }
        }
        if (st == NTT_OK)
            say("n = 2^%d: exchange %s, %zu piece(s), %d thread(s) per rank\n", o.logn[si],
                s.shm ? "through a shared window" : "by all-to-alls", s.chunks,
                s.rows[ROW_FOUR].threads);
        for (int k = 0; k < ROW_COUNT; k++) {
            const row *r = &s.rows[k];
            if (!r->active && !r->why[0]) continue;
            if (r->active && r->ok && r->nreps) {
                uint64_t a2a = 0, mx = 0;
                double lo = r->reps[0];
                for (int i = 0; i < PM_COUNT; i++)
                    if (pmpi_is_alltoall(i)) a2a += r->per_call.calls[i];
                for (int i = 0; i < g_size; i++) mx = r->bytes_rank[i] > mx ? r->bytes_rank[i] : mx;
                if (k == ROW_FOUR) mx = r->moved; /* also what a shared window carries */
                for (int i = 1; i < r->nreps; i++) lo = r->reps[i] < lo ? r->reps[i] : lo;
                say("%-13s %5d %3d %10zu %10.3f ms %10.3f ms %10.3f ms %10.3f ms %10.3f ms %6llu "
                    "%12.2f\n",
                    row_names[k], k == ROW_OMP ? 1 : g_size, r->threads, s.n,
                    1e3 * median(r->reps, r->nreps), 1e3 * lo, 1e3 * median(r->cpu_s, r->nreps),
                    1e3 * median(r->a2a_s, r->nreps),
                    1e3 * median(r->comp_s, r->nreps), (unsigned long long)a2a, (double)mx / 1e6);
            } else {
                say("%-13s %5d %10zu %s\n", row_names[k], g_size, s.n, r->why);
            }
            if (json) {
                json_row(json, &s, k, first);
                first = 0;
            }
        }
        free_case(&s);
    }
    if (json) {
        fputs("\n  ]\n}\n", json);
        if (fclose(json) != 0 && rc == 0) rc = 8;
    }
done:
    if (we_init) MPI_Finalize();
    return rc;
}
