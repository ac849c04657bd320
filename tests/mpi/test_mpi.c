/* libntt_mpi against the single-process library, bit for bit (run under
   mpiexec with any number of ranks):
     test_mpi [--max-log L] [--all-log A]   every configuration for
         n = 2 .. 2^A, a few (u32 direct cyclic, u64 CRT negacyclic, u64
         direct negacyclic) up to 2^L: layouts round trip through scatter
         and gather; forward equals ntt_forward of the whole array (the
         gathered spectrum), inverse takes it back, also from a scattered
         spectrum and in place; products equal ntt_polymul_mod's (folded
         for the wrap-around), cyclic and negacyclic, any modulus, c
         aliasing a; zero-padded linear products equal it directly.
     test_mpi --fail-differently S   ranks break the same call in
         different ways (NULL array, input = p, nothing; mismatched plan
         arguments and a missing backend): one status on every rank, the
         largest, and the whole run within S seconds (a watchdog ends a
         hung rank, and mpiexec the rest);
     --expect-shm 0|1, --expect-chunks K   the exchange this launch gets
         (shared memory, pieces of the product's all-to-alls) is that one;
     test_mpi --errors   every error on one rank comes back on all ranks,
         with nothing written: bad input (NTT_ERANGE), NULL arrays, plans
         whose n, p, width or flags differ on one rank, an unavailable
         backend on one rank, a products-only plan's transforms, a root
         that differs, a bad layout.
   Random data come from rank 0 with test_common's seed (NTT_TEST_SEED
   replays it on every rank); every rank checks, the exit status is common. */
#include "ntt_mpi.h"
#include "test_common.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int R, P;

typedef struct {
    uint64_t p;
    ntt_width w;
    unsigned flags;
    ntt_backend b;
    int threads;
} cfg;

static const char *kind(unsigned flags) { return flags ? "negacyclic" : "cyclic"; }

#define LABEL "n=%zu p=%" PRIu64 " %s %s backend %s threads %d P=%d rank %d", n, c->p, \
              c->w == NTT_U32 ? "u32" : "u64", kind(c->flags), ntt_backend_name(c->b),  \
              c->threads, P, R

/* Arrays of the plan's width, handled as bytes plus the width. */
static void *alloc_w(size_t count, ntt_width w) { return xmalloc((count + 1) * (w == NTT_U32 ? 4 : 8)); }
static void to_w(void *dst, const uint64_t *src, size_t n, ntt_width w)
{
    for (size_t i = 0; i < n; i++) {
        if (w == NTT_U32)
            ((uint32_t *)dst)[i] = (uint32_t)src[i];
        else
            ((uint64_t *)dst)[i] = src[i];
    }
}
static void from_w(uint64_t *dst, const void *src, size_t n, ntt_width w)
{
    for (size_t i = 0; i < n; i++)
        dst[i] = w == NTT_U32 ? ((const uint32_t *)src)[i] : ((const uint64_t *)src)[i];
}

#define W(f, w, ...) ((w) == NTT_U32 ? f##_u32(__VA_ARGS__) : f##_u64(__VA_ARGS__))

/* Rank 0's gathered natural-order array (u64) of what local holds. */
static ntt_status gather64(ntt_mpi_plan *plan, ntt_mpi_layout l, const void *local, uint64_t *g,
                           size_t n, ntt_width w)
{
    void *tmp = R == 0 ? alloc_w(n, w) : NULL;
    ntt_status st = W(ntt_mpi_gather, w, plan, l, 0, local, tmp);
    if (R == 0 && st == NTT_OK) from_w(g, tmp, n, w);
    free(tmp);
    return st;
}

static ntt_status scatter64(ntt_mpi_plan *plan, ntt_mpi_layout l, const uint64_t *g, void *local,
                            size_t n, ntt_width w)
{
    void *tmp = NULL;
    if (R == 0) {
        tmp = alloc_w(n, w);
        to_w(tmp, g, n, w);
    }
    ntt_status st = W(ntt_mpi_scatter, w, plan, l, 0, tmp, local);
    free(tmp);
    return st;
}

/* Reference product mod (x^n -+ 1) from the linear one of ntt_polymul_mod. */
static void fold(uint64_t *c, const uint64_t *lin, size_t n, uint64_t p, bool nega)
{
    for (size_t k = 0; k < n; k++) {
        uint64_t hi = k + n < 2 * n - 1 ? lin[k + n] : 0;
        if (nega) hi = hi ? p - hi : 0;
        c[k] = t_addmod(lin[k], hi, p);
    }
}

static void run_case(size_t n, const cfg *c)
{
    const ntt_width w = c->w;
    const ntt_plan_options o = {.flags = c->flags, .threads = c->threads};
    ntt_mpi_plan *plan = NULL;
    ntt_status st = ntt_mpi_plan_create(&plan, MPI_COMM_WORLD, n, c->p, w, c->b, &o);
    CHECK_STATUS(NTT_OK, st, "plan " LABEL);
    if (st != NTT_OK) return;
    ntt_mpi_local loc;
    CHECK_STATUS(NTT_OK, ntt_mpi_local_size(plan, &loc), "local size " LABEL);
    CHECK(loc.n1 * loc.n2 == n && loc.n1 >= loc.n2, "n1 * n2 = n, n1 >= n2: " LABEL);
    /* The shares tile the whole array, in rank order. */
    unsigned long long mine[2] = {loc.in_count, loc.out_count}, tot[2];
    MPI_Allreduce(mine, tot, 2, MPI_UNSIGNED_LONG_LONG, MPI_SUM, MPI_COMM_WORLD);
    CHECK(tot[0] == n && tot[1] == n, "shares sum to n: " LABEL);
    CHECK(loc.in_count == loc.rows * loc.n2 && loc.out_start == loc.col_start * loc.n1,
          "layout fields " LABEL);

    uint64_t *a = NULL, *b = NULL, *g = NULL, *ref = NULL, *lin = NULL;
    if (R == 0) {
        a = xmalloc(n * 8);
        b = xmalloc(n * 8);
        g = xmalloc(n * 8);
        ref = xmalloc(n * 8);
        lin = xmalloc(2 * n * 8);
        rnd_fill64(a, n, c->p);
        rnd_fill64(b, n, c->p);
    }
    void *la = alloc_w(loc.alloc, w), *lb = alloc_w(loc.alloc, w), *lx = alloc_w(loc.alloc, w);
    CHECK_STATUS(NTT_OK, scatter64(plan, NTT_MPI_COEFFS, a, la, n, w), "scatter " LABEL);
    CHECK_STATUS(NTT_OK, scatter64(plan, NTT_MPI_COEFFS, b, lb, n, w), "scatter " LABEL);
    /* The row layout: local (j1 - row_start) n2 + j2 is a[j1 + n1 j2]. */
    CHECK_STATUS(NTT_OK, gather64(plan, NTT_MPI_COEFFS, la, g, n, w), "gather " LABEL);
    if (R == 0) CHECK_ARR64(a, g, n, "scatter/gather round trip " LABEL);

    if (loc.transforms) {
        /* The single-process spectrum. */
        if (R == 0) {
            ntt_plan *sp = NULL;
            const ntt_plan_options so = {.flags = c->flags};
            st = ntt_plan_create(&sp, n, c->p, w, NTT_BACKEND_AUTO, &so);
            CHECK_STATUS(NTT_OK, st, "single-process plan " LABEL);
            void *x = alloc_w(n, w);
            to_w(x, a, n, w);
            if (st == NTT_OK) CHECK_STATUS(NTT_OK, W(ntt_forward, w, sp, x), "ntt_forward " LABEL);
            from_w(ref, x, n, w);
            free(x);
            ntt_plan_destroy(sp);
        }
        CHECK_STATUS(NTT_OK, W(ntt_mpi_forward, w, plan, la, lx), "forward " LABEL);
        CHECK_STATUS(NTT_OK, gather64(plan, NTT_MPI_SPECTRUM, lx, g, n, w), "gather spectrum " LABEL);
        if (R == 0) CHECK_ARR64(ref, g, n, "forward vs ntt_forward " LABEL);
        /* Inverse of the distributed spectrum, then of the scattered
           single-process one, in place (in == out). */
        CHECK_STATUS(NTT_OK, W(ntt_mpi_inverse, w, plan, lx, lx), "inverse in place " LABEL);
        CHECK_STATUS(NTT_OK, gather64(plan, NTT_MPI_COEFFS, lx, g, n, w), "gather " LABEL);
        if (R == 0) CHECK_ARR64(a, g, n, "inverse(forward(a)) " LABEL);
        CHECK_STATUS(NTT_OK, scatter64(plan, NTT_MPI_SPECTRUM, ref, lx, n, w), "scatter spectrum " LABEL);
        CHECK_STATUS(NTT_OK, W(ntt_mpi_inverse, w, plan, lx, lx), "inverse " LABEL);
        CHECK_STATUS(NTT_OK, gather64(plan, NTT_MPI_COEFFS, lx, g, n, w), "gather " LABEL);
        if (R == 0) CHECK_ARR64(a, g, n, "inverse(scattered spectrum) " LABEL);
        /* Forward in place. */
        memcpy(lx, la, loc.in_count * (w == NTT_U32 ? 4 : 8));
        CHECK_STATUS(NTT_OK, W(ntt_mpi_forward, w, plan, lx, lx), "forward in place " LABEL);
        CHECK_STATUS(NTT_OK, gather64(plan, NTT_MPI_SPECTRUM, lx, g, n, w), "gather " LABEL);
        if (R == 0) CHECK_ARR64(ref, g, n, "forward in place " LABEL);
    } else {
        CHECK_STATUS(NTT_EMODULUS, W(ntt_mpi_forward, w, plan, la, lx), "forward, products only " LABEL);
    }

    /* The product, c aliasing a, against ntt_polymul_mod folded. */
    if (R == 0) {
        st = ntt_polymul_mod(lin, a, n, b, n, c->p, NTT_BACKEND_AUTO);
        CHECK_STATUS(NTT_OK, st, "ntt_polymul_mod " LABEL);
        fold(ref, lin, n, c->p, c->flags != 0);
    }
    CHECK_STATUS(NTT_OK, W(ntt_mpi_polymul, w, plan, lx, la, lb), "polymul " LABEL);
    CHECK_STATUS(NTT_OK, gather64(plan, NTT_MPI_COEFFS, lx, g, n, w), "gather " LABEL);
    if (R == 0) CHECK_ARR64(ref, g, n, "polymul vs ntt_polymul_mod " LABEL);
    CHECK_STATUS(NTT_OK, W(ntt_mpi_polymul, w, plan, la, la, lb), "polymul c == a " LABEL);
    CHECK_STATUS(NTT_OK, gather64(plan, NTT_MPI_COEFFS, la, g, n, w), "gather " LABEL);
    if (R == 0) CHECK_ARR64(ref, g, n, "polymul c == a " LABEL);

    /* A linear product of two halves: ntt_polymul_mod's output itself. */
    if (R == 0) {
        memset(a + n / 2, 0, n / 2 * 8);
        memset(b + n / 2, 0, n / 2 * 8);
        st = ntt_polymul_mod(ref, a, n / 2, b, n / 2, c->p, NTT_BACKEND_AUTO);
        CHECK_STATUS(NTT_OK, st, "ntt_polymul_mod " LABEL);
        ref[n - 1] = 0;
    }
    CHECK_STATUS(NTT_OK, scatter64(plan, NTT_MPI_COEFFS, a, la, n, w), "scatter " LABEL);
    CHECK_STATUS(NTT_OK, scatter64(plan, NTT_MPI_COEFFS, b, lb, n, w), "scatter " LABEL);
    CHECK_STATUS(NTT_OK, W(ntt_mpi_polymul, w, plan, lx, la, lb), "linear polymul " LABEL);
    CHECK_STATUS(NTT_OK, gather64(plan, NTT_MPI_COEFFS, lx, g, n, w), "gather " LABEL);
    if (R == 0) CHECK_ARR64(ref, g, n, "linear product vs ntt_polymul_mod " LABEL);

    free(la);
    free(lb);
    free(lx);
    free(a);
    free(b);
    free(g);
    free(ref);
    free(lin);
    ntt_mpi_plan_destroy(plan);
}

/* ---- errors ------------------------------------------------------------------------------ */

/* Each rank in turn (or none, bad == -1) breaks something; every rank must
   get `want`. */
static void check_all(ntt_status got, ntt_status want, const char *what, int bad)
{
    CHECK_STATUS(want, got, "%s (bad rank %d, P=%d, rank %d)", what, bad, P, R);
    int g = (int)got, lo, hi;
    MPI_Allreduce(&g, &lo, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
    MPI_Allreduce(&g, &hi, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    CHECK(lo == hi, "%s: statuses differ between ranks (%d .. %d)", what, lo, hi);
}

static void errors(void)
{
    const size_t n = 1 << 10;
    const uint64_t p = 998244353;
    for (int bad = 0; bad < P; bad++) {
        /* Mismatched arguments at plan creation. */
        const struct {
            const char *what;
            size_t n;
            uint64_t p;
            ntt_width w;
            unsigned flags;
        } mm[] = {{"n differs", n * 2, p, NTT_U32, 0},
                  {"p differs", n, 469762049, NTT_U32, 0},
                  {"width differs", n, p, NTT_U64, 0},
                  {"flags differ", n, p, NTT_U32, NTT_FLAG_NEGACYCLIC}};
        for (size_t i = 0; i < sizeof mm / sizeof mm[0]; i++) {
            static char junk;
            ntt_mpi_plan *pl = (ntt_mpi_plan *)&junk; /* must come back NULL on failure */
            const bool me = R == bad;
            const ntt_plan_options o = {.flags = me ? mm[i].flags : 0};
            ntt_status st = ntt_mpi_plan_create(&pl, MPI_COMM_WORLD, me ? mm[i].n : n,
                                                me ? mm[i].p : p, me ? mm[i].w : NTT_U32,
                                                NTT_BACKEND_AUTO, &o);
            check_all(st, P == 1 ? NTT_OK : NTT_EINVAL, mm[i].what, bad);
            CHECK((st == NTT_OK) == (pl != NULL), "%s: plan pointer", mm[i].what);
            ntt_mpi_plan_destroy(st == NTT_OK ? pl : NULL);
        }
        /* A bad argument on one rank only. */
        ntt_mpi_plan *pl = NULL;
        ntt_status st = ntt_mpi_plan_create(R == bad ? NULL : &pl, MPI_COMM_WORLD, n, p, NTT_U32,
                                            NTT_BACKEND_AUTO, NULL);
        check_all(st, NTT_EINVAL, "plan pointer NULL on one rank", bad);
        ntt_mpi_plan_destroy(pl);
        const ntt_plan_options neg = {.flags = R == bad ? 7u : 0u};
        st = ntt_mpi_plan_create(&pl, MPI_COMM_WORLD, n, p, NTT_U32, NTT_BACKEND_AUTO, &neg);
        check_all(st, NTT_EINVAL, "unknown flag on one rank", bad);
        st = ntt_mpi_plan_create(&pl, MPI_COMM_WORLD, R == bad ? 3 * n : n, p, NTT_U32,
                                 NTT_BACKEND_AUTO, NULL);
        check_all(st, NTT_EINVAL, "n not a power of two on one rank", bad);
        if (!ntt_backend_available(NTT_BACKEND_CUDA)) {
            st = ntt_mpi_plan_create(&pl, MPI_COMM_WORLD, n, p, NTT_U32,
                                     R == bad ? NTT_BACKEND_CUDA : NTT_BACKEND_AUTO, NULL);
            check_all(st, NTT_EUNSUPPORTED, "backend unavailable on one rank", bad);
        }
        /* Calls on a good plan. */
        st = ntt_mpi_plan_create(&pl, MPI_COMM_WORLD, n, p, NTT_U32, NTT_BACKEND_AUTO, NULL);
        CHECK_STATUS(NTT_OK, st, "plan");
        if (st != NTT_OK) continue;
        ntt_mpi_local loc;
        CHECK_STATUS(NTT_OK, ntt_mpi_local_size(pl, &loc), "local size");
        uint32_t *x = xmalloc((loc.alloc + 1) * 4), *y = xmalloc((loc.alloc + 1) * 4);
        uint32_t *y0 = xmalloc((loc.alloc + 1) * 4);
        rnd_fill32(x, loc.alloc, (uint32_t)p);
        for (size_t i = 0; i < loc.alloc; i++) y[i] = y0[i] = 0xdeadbeefu;
        /* The bad rank's last input coefficient is p (if it holds any). */
        int holds = loc.in_count > 0, any;
        MPI_Allreduce(&holds, &any, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
        if (R == bad && holds) x[loc.in_count - 1] = (uint32_t)p;
        int bad_holds = R == bad && holds, have;
        MPI_Allreduce(&bad_holds, &have, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
        const ntt_status want = have ? NTT_ERANGE : NTT_OK;
        st = ntt_mpi_forward_u32(pl, x, y);
        check_all(st, want, "forward, an input = p on one rank", bad);
        if (have) CHECK_MEM(y0, y, loc.alloc * 4, "forward wrote its output after NTT_ERANGE");
        st = ntt_mpi_polymul_u32(pl, y, x, x);
        check_all(st, want, "polymul, an input = p on one rank", bad);
        if (have) CHECK_MEM(y0, y, loc.alloc * 4, "polymul wrote c after NTT_ERANGE");
        if (R == bad && holds) x[loc.in_count - 1] = 0;
        /* The spectrum side: an entry = p in the inverse's input. */
        int sp = R == bad && loc.out_count > 0, sp_any;
        MPI_Allreduce(&sp, &sp_any, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
        if (sp) x[loc.out_count - 1] = (uint32_t)p + 1;
        for (size_t i = 0; i < loc.alloc; i++) y[i] = 0xdeadbeefu;
        st = ntt_mpi_inverse_u32(pl, x, y);
        check_all(st, sp_any ? NTT_ERANGE : NTT_OK, "inverse, an entry > p on one rank", bad);
        if (sp_any) CHECK_MEM(y0, y, loc.alloc * 4, "inverse wrote its output after NTT_ERANGE");
        if (sp) x[loc.out_count - 1] = 0;
        /* NULL arrays where the rank holds something. */
        st = ntt_mpi_forward_u32(pl, R == bad && loc.in_count ? NULL : x, y);
        int nul = R == bad && loc.in_count, nul_any;
        MPI_Allreduce(&nul, &nul_any, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
        check_all(st, nul_any ? NTT_EINVAL : NTT_OK, "forward, NULL input on one rank", bad);
        st = ntt_mpi_polymul_u32(pl, y, x, R == bad && loc.in_count ? NULL : x);
        check_all(st, nul_any ? NTT_EINVAL : NTT_OK, "polymul, NULL operand on one rank", bad);
        /* The wrong width on one rank. */
        st = R == bad ? ntt_mpi_forward_u64(pl, (const uint64_t *)x, (uint64_t *)y)
                      : ntt_mpi_forward_u32(pl, x, y);
        check_all(st, NTT_EINVAL, "forward, u64 call on a u32 plan on one rank", bad);
        /* Scatter: a different root on one rank, a bad layout on one rank. */
        st = ntt_mpi_scatter_u32(pl, NTT_MPI_COEFFS, R == bad ? (bad + 1) % P : bad, x, y);
        check_all(st, P == 1 ? NTT_OK : NTT_EINVAL, "scatter, root differs on one rank", bad);
        st = ntt_mpi_gather_u32(pl, R == bad ? (ntt_mpi_layout)5 : NTT_MPI_COEFFS, 0, y, x);
        check_all(st, NTT_EINVAL, "gather, bad layout on one rank", bad);
        st = ntt_mpi_gather_u32(pl, NTT_MPI_COEFFS, P, y, x);
        check_all(st, NTT_EINVAL, "gather, root out of range", bad);
        /* The plan still works after all that. */
        for (size_t i = 0; i < loc.alloc; i++) x[i] %= (uint32_t)p;
        st = ntt_mpi_polymul_u32(pl, y, x, x);
        check_all(st, NTT_OK, "polymul after the errors", bad);
        free(x);
        free(y);
        free(y0);
        ntt_mpi_plan_destroy(pl);
    }
    /* A products-only plan, and sizes out of range. */
    ntt_mpi_plan *pl = NULL;
    ntt_status st = ntt_mpi_plan_create(&pl, MPI_COMM_WORLD, n, 1000000007, NTT_U32,
                                        NTT_BACKEND_AUTO, NULL);
    check_all(st, NTT_OK, "products-only plan", -1);
    if (st == NTT_OK) {
        ntt_mpi_local loc;
        CHECK_STATUS(NTT_OK, ntt_mpi_local_size(pl, &loc), "local size");
        CHECK(loc.transforms == 0 && loc.moduli >= 2, "products-only plan: transforms %d moduli %zu",
              loc.transforms, loc.moduli);
        uint32_t *x = xmalloc((loc.alloc + 1) * 4);
        memset(x, 0, (loc.alloc + 1) * 4);
        check_all(ntt_mpi_forward_u32(pl, x, x), NTT_EMODULUS, "forward on a products-only plan", -1);
        check_all(ntt_mpi_inverse_u32(pl, x, x), NTT_EMODULUS, "inverse on a products-only plan", -1);
        free(x);
        ntt_mpi_plan_destroy(pl);
    }
    st = ntt_mpi_plan_create(&pl, MPI_COMM_WORLD, (size_t)1 << (NTT_MPI_MAX_LOG2_N + 1), p,
                             NTT_U32, NTT_BACKEND_AUTO, NULL);
    check_all(st, NTT_EINVAL, "n above 2^NTT_MPI_MAX_LOG2_N", -1);
    st = ntt_mpi_plan_create(&pl, MPI_COMM_WORLD, 1, p, NTT_U32, NTT_BACKEND_AUTO, NULL);
    check_all(st, NTT_EINVAL, "n = 1", -1);
    st = ntt_mpi_plan_create(&pl, MPI_COMM_WORLD, n, (uint64_t)1 << 30, NTT_U32, NTT_BACKEND_AUTO,
                             NULL);
    check_all(st, NTT_EMODULUS, "u32 with p = 2^30", -1);
    st = ntt_mpi_plan_create(&pl, MPI_COMM_WORLD, n, 1, NTT_U64, NTT_BACKEND_AUTO, NULL);
    check_all(st, NTT_EMODULUS, "p = 1", -1);
    CHECK_STATUS(NTT_EINVAL, ntt_mpi_plan_create(&pl, MPI_COMM_NULL, n, p, NTT_U32,
                                                 NTT_BACKEND_AUTO, NULL),
                 "MPI_COMM_NULL");
    CHECK_STATUS(NTT_EINVAL, ntt_mpi_forward_u32(NULL, NULL, NULL), "NULL plan");
    CHECK_STATUS(NTT_EINVAL, ntt_mpi_local_size(NULL, NULL), "NULL plan");
}

/* ---- ranks that fail differently, within a time bound ---------------------------------------- */

/* How the plan exchanges (src/mpi, exported from the static library for
   the benchmark and this test). */
void ntt_mpi_mode_get(const ntt_mpi_plan *plan, int *shm, size_t *chunks, int *threads);

/* Each rank breaks the same call in its own way (a NULL array, an input
   = p, nothing), in rounds that move the faults from rank to rank, on
   products, transforms and plan creation: every rank must get the same
   status, the largest of the faults, and no rank may wait for ever.  A
   watchdog (SIGALRM, whose default action ends the process, and mpiexec
   then every rank) bounds the run: a hang fails in seconds, not at the
   harness's timeout. */
static void fail_differently(int bound_s)
{
    alarm((unsigned)bound_s);
    const double t0 = MPI_Wtime();
    const size_t n = 1 << 12;
    const uint64_t p = 998244353;
    ntt_mpi_plan *pl = NULL;
    ntt_status st = ntt_mpi_plan_create(&pl, MPI_COMM_WORLD, n, p, NTT_U32, NTT_BACKEND_AUTO, NULL);
    check_all(st, NTT_OK, "plan for the faults", -1);
    if (st != NTT_OK) return;
    int shm = 0, threads = 0;
    size_t chunks = 0;
    ntt_mpi_mode_get(pl, &shm, &chunks, &threads);
    if (R == 0) printf("test_mpi: faults on a plan with %s, %zu piece(s)\n",
                       shm ? "shared memory" : "all-to-alls", chunks);
    ntt_mpi_local loc;
    CHECK_STATUS(NTT_OK, ntt_mpi_local_size(pl, &loc), "local size");
    uint32_t *x = xmalloc((loc.alloc + 1) * 4), *y = xmalloc((loc.alloc + 1) * 4);
    rnd_fill32(x, loc.alloc, (uint32_t)p);
    for (int round = 0; round < 3 * (P < 3 ? 3 : P); round++) {
        /* Rank r's fault this round: 0 none, 1 NULL array, 2 an input = p. */
        const int fault = (R + round) % 3;
        const int holds = loc.in_count > 0;
        ntt_status mine = NTT_OK;
        if (fault == 1 && holds) mine = NTT_EINVAL;
        if (fault == 2 && holds) {
            mine = NTT_ERANGE;
            x[loc.in_count - 1] = (uint32_t)p;
        }
        int m = (int)mine, w;
        MPI_Allreduce(&m, &w, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
        const ntt_status want = (ntt_status)w;
        const uint32_t *in = fault == 1 && holds ? NULL : x;
        switch (round % 3) {
        case 0: st = ntt_mpi_polymul_u32(pl, y, in, x); break;
        case 1: st = ntt_mpi_polymul_u32(pl, y, x, in); break;
        default: st = ntt_mpi_forward_u32(pl, in, y); break;
        }
        check_all(st, want, "faults differing between ranks", round);
        if (fault == 2 && holds) x[loc.in_count - 1] = 0;
        /* Plan creation: one rank's n differs, another's backend is
           missing (NTT_EUNSUPPORTED outranks NTT_EINVAL). */
        ntt_mpi_plan *q = NULL;
        const bool nbad = R == round % P, bbad = P > 1 && R == (round + 1) % P;
        const bool no_cuda = !ntt_backend_available(NTT_BACKEND_CUDA);
        st = ntt_mpi_plan_create(&q, MPI_COMM_WORLD, nbad ? 2 * n : n, p, NTT_U32,
                                 bbad && no_cuda ? NTT_BACKEND_CUDA : NTT_BACKEND_AUTO, NULL);
        check_all(st, P > 1 && no_cuda ? NTT_EUNSUPPORTED : P > 1 ? NTT_EINVAL : NTT_OK,
                  "plan creation failing differently", round);
        ntt_mpi_plan_destroy(st == NTT_OK ? q : NULL);
    }
    /* And the plan still multiplies. */
    st = ntt_mpi_polymul_u32(pl, y, x, x);
    check_all(st, NTT_OK, "a product after the faults", -1);
    free(x);
    free(y);
    ntt_mpi_plan_destroy(pl);
    alarm(0);
    if (R == 0) printf("test_mpi: faults done in %.2f s (bound %d s)\n", MPI_Wtime() - t0, bound_s);
}

/* ---- the configurations ---------------------------------------------------------------- */

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &R);
    MPI_Comm_size(MPI_COMM_WORLD, &P);
    /* One seed for every rank: rank 0's. */
    uint64_t seed = 0;
    if (R == 0) {
        test_init("test_mpi");
        seed = test_seed();
    }
    MPI_Bcast(&seed, 1, MPI_UINT64_T, 0, MPI_COMM_WORLD);
    if (R != 0) {
        char s[32];
        snprintf(s, sizeof s, "%" PRIu64, seed);
        setenv("NTT_TEST_SEED", s, 1);
        fclose(stdout); /* one copy of the seed line */
        stdout = fopen("/dev/null", "w");
        test_init("test_mpi");
    }
    int max_log = 16, all_log = 10, faults = 0, want_shm = -1, want_chunks = -1;
    bool errs = false;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--errors")) errs = true;
        else if (!strcmp(argv[i], "--fail-differently") && i + 1 < argc) faults = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--expect-shm") && i + 1 < argc) want_shm = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--expect-chunks") && i + 1 < argc) want_chunks = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--max-log") && i + 1 < argc) max_log = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--all-log") && i + 1 < argc) all_log = atoi(argv[++i]);
    }
    if (want_shm >= 0 || want_chunks >= 0) {
        /* The exchange this launch should get (the environment and the
           node decide): the tests of each path must run that path. */
        ntt_mpi_plan *pl = NULL;
        ntt_status st = ntt_mpi_plan_create(&pl, MPI_COMM_WORLD, (size_t)1 << 16, 469762049,
                                            NTT_U32, NTT_BACKEND_AUTO, NULL);
        CHECK_STATUS(NTT_OK, st, "plan for the mode");
        int shm = -1;
        size_t chunks = 0;
        if (st == NTT_OK) ntt_mpi_mode_get(pl, &shm, &chunks, NULL);
        if (want_shm >= 0) CHECK(shm == want_shm, "shared memory %d, expected %d", shm, want_shm);
        if (want_chunks >= 0)
            CHECK(chunks == (size_t)want_chunks, "%zu pieces, expected %d", chunks, want_chunks);
        ntt_mpi_plan_destroy(pl);
    }
    if (faults > 0) {
        fail_differently(faults);
    } else if (errs) {
        errors();
    } else {
        uint64_t q62, q50;
        if (ntt_find_prime(62, 32, 0, &q62) != NTT_OK || ntt_find_prime(50, 30, 0, &q50) != NTT_OK)
            return 2;
        const ntt_backend omp = ntt_backend_available(NTT_BACKEND_OPENMP) ? NTT_BACKEND_OPENMP
                                                                          : NTT_BACKEND_AUTO;
        const cfg all[] = {
            {998244353, NTT_U32, 0, NTT_BACKEND_AUTO, 0},
            {998244353, NTT_U32, NTT_FLAG_NEGACYCLIC, NTT_BACKEND_SCALAR, 0},
            {7340033, NTT_U64, 0, NTT_BACKEND_AUTO, 0},
            {q62, NTT_U64, NTT_FLAG_NEGACYCLIC, NTT_BACKEND_AUTO, 0},
            {q50, NTT_U64, 0, omp, 2},
            {1337006139375617ull, NTT_U64, NTT_FLAG_NEGACYCLIC, NTT_BACKEND_AVX2, 0},
            /* threads over a serial backend's kernels (ntt.h: threads > 1) */
            {998244353, NTT_U32, NTT_FLAG_NEGACYCLIC, NTT_BACKEND_SCALAR, 3},
            {1000000007, NTT_U32, 0, NTT_BACKEND_AUTO, 0},
            {1000000007, NTT_U64, NTT_FLAG_NEGACYCLIC, omp, 2},
            /* ranks x threads on the fastest kernels: the same words as
               one thread and as ntt_polymul_mod */
            {998244353, NTT_U32, 0, NTT_BACKEND_AUTO, 2},
            {(1ull << 63) - 25, NTT_U64, NTT_FLAG_NEGACYCLIC, NTT_BACKEND_AUTO, 2},
            {(1ull << 61) - 1, NTT_U64, NTT_FLAG_NEGACYCLIC, NTT_BACKEND_AUTO, 0},
            {(1ull << 61) - 1, NTT_U64, 0, NTT_BACKEND_SCALAR, 0},
            {(1ull << 63) - 25, NTT_U64, 0, NTT_BACKEND_AUTO, 0},
            {(1ull << 63) - 25, NTT_U64, NTT_FLAG_NEGACYCLIC, NTT_BACKEND_AUTO, 0},
            {2, NTT_U32, NTT_FLAG_NEGACYCLIC, NTT_BACKEND_AUTO, 0},
            {3, NTT_U64, 0, NTT_BACKEND_AUTO, 0},
        };
        /* The large sizes: the course prime directly, a CRT negacyclic
           product at the top of the range, a 62-bit prime directly. */
        const cfg big[] = {
            {469762049, NTT_U32, 0, NTT_BACKEND_AUTO, 0},
            {(1ull << 63) - 25, NTT_U64, NTT_FLAG_NEGACYCLIC, NTT_BACKEND_AUTO, 0},
            {q62, NTT_U64, NTT_FLAG_NEGACYCLIC, omp, 2},
        };
        for (int l = 1; l <= max_log; l++) {
            const size_t n = (size_t)1 << l;
            const bool every = l <= all_log;
            const cfg *list = every ? all : big;
            const size_t count = every ? sizeof all / sizeof all[0] : sizeof big / sizeof big[0];
            for (size_t i = 0; i < count; i++) {
                const cfg *c = &list[i];
                if (!ntt_backend_available(c->b)) continue;
                run_case(n, c);
            }
            if (R == 0) {
                printf("test_mpi: P=%d n=2^%d done (%lu checks, %lu failures)\n", P, l,
                       test_checks, test_failures);
                fflush(stdout);
            }
        }
    }
    /* One verdict for every rank. */
    unsigned long f = test_failures, total = 0;
    MPI_Allreduce(&f, &total, 1, MPI_UNSIGNED_LONG, MPI_SUM, MPI_COMM_WORLD);
    if (R == 0) printf("test_mpi: P=%d, %lu failures on all ranks\n", P, total);
    (void)test_finish();
    MPI_Finalize();
    return total ? 1 : 0;
}
