/* The planner (planner.h, docs/PLANNER.md): a plan chosen by timing the
   candidates the backend registry offers, FFTW's MEASURE.  The rule's
   candidate (what ESTIMATE builds) is timed first, so there is always an
   answer, and another candidate replaces it only when it is clearly
   faster. */
#include "planner.h"
#include "alloc.h"
#include "registry.h"
#include "../pool/pool.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static double now_ns(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec * 1e9 + (double)t.tv_nsec;
}

/* ---- candidates ------------------------------------------------------------ */

#define MAX_CANDIDATES 256

/* The thread counts worth timing: the online CPUs bound what runs at once
   (the pool caps there too), OMP_NUM_THREADS what the caller allows. */
static int max_threads(void)
{
    const long cpus = sysconf(_SC_NPROCESSORS_ONLN);
    int t = ntt_pool_default_threads();
    if (cpus > 0 && t > cpus) t = (int)cpus;
    return t < 1 ? 1 : t;
}

/* Whether a and b would run the same work: the same kernels for every
   modulus (the registry's dry run), kind and thread count.  Backends
   without CPU kernels (CUDA) differ by backend. */
static bool same_work(const ntt_plan_request *rq, const ntt_plan_config *a,
                      const ntt_plan_config *b)
{
    if (ntt_backend_thread_count(a->backend, a->threads) !=
        ntt_backend_thread_count(b->backend, b->threads))
        return false;
    ntt_plan pa = {.n = rq->n, .width = rq->width, .flags = rq->o.flags, .modmul = a->modmul,
                   .k64 = a->k64};
    ntt_plan pb = pa;
    pb.modmul = b->modmul;
    pb.k64 = b->k64;
    for (size_t i = 0; i < rq->count; i++) {
        const ntt_modulus m = {.p = rq->moduli[i]};
        const char *na, *nb;
        const void *ka = ntt_backend_kernels_for(a->backend, &pa, &m, &na);
        const void *kb = ntt_backend_kernels_for(b->backend, &pb, &m, &nb);
        if (!ka || !kb) return a->backend == b->backend && a->modmul == b->modmul;
        if (ka != kb) return false;
    }
    return true;
}

static size_t add_candidate(const ntt_plan_request *rq, ntt_plan_config *c, size_t k,
                            ntt_plan_config x)
{
    if (k >= MAX_CANDIDATES) return k;
    for (size_t i = 0; i < k; i++)
        if (same_work(rq, &c[i], &x)) return k;
    c[k] = x;
    return k + 1;
}

/* The candidates of rq, the rule's first: each backend row the registry
   offers, each modmul kind (where the caller left it DEFAULT), each
   thread count (where the caller left it 0, on the CPU rows) and each u64
   kernel family (CPU rows), one of each work. */
static size_t candidates(const ntt_plan_request *rq, ntt_plan_config *c)
{
    const bool exhaustive = rq->o.mode == NTT_PLAN_EXHAUSTIVE;
    size_t k = 0;
    c[k++] = (ntt_plan_config){rq->asked, rq->o.modmul, rq->o.threads, NTT_K64_RULE};

    ntt_modmul kinds[4] = {rq->o.modmul};
    size_t nkinds = 1;
    if (rq->o.modmul == NTT_MODMUL_DEFAULT) {
        kinds[nkinds++] = NTT_MODMUL_MONTGOMERY;
        if (exhaustive) kinds[nkinds++] = NTT_MODMUL_BARRETT, kinds[nkinds++] = NTT_MODMUL_NAIVE;
    }
    ntt_backend rows[NTT_BACKEND_COUNT];
    const size_t nrows = ntt_backend_plan_rows(rq->asked, rq->auto_free, rows);
    for (size_t r = 0; r < nrows; r++) {
        const bool cpu = ntt_backend_is_cpu(rows[r]);
        const unsigned nk64 = cpu && rq->width == NTT_U64 ? NTT_K64_COUNT : 1;
        /* The threads asked for bound the counts timed (FFTW's
           plan_with_nthreads): a plan never starts threads the caller did
           not allow, as with ESTIMATE (a serial row's 0 is one thread). */
        int threads[32] = {rq->o.threads};
        size_t nthreads = 1;
        int top = ntt_backend_thread_count(rows[r], rq->o.threads);
        if (top > max_threads()) top = max_threads();
        if (top > 1) {
            threads[nthreads++] = 1;
            for (int t = 2; exhaustive && t < top && nthreads < 31; t *= 2) threads[nthreads++] = t;
            threads[nthreads++] = top;
        }
        for (size_t m = 0; m < nkinds; m++)
            for (size_t t = 0; t < (cpu ? nthreads : 1); t++)
                for (unsigned f = 0; f < nk64; f++)
                    k = add_candidate(rq, c, k, (ntt_plan_config){rows[r], kinds[m], threads[t], f});
    }
    return k;
}

/* ---- timing ---------------------------------------------------------------- */

/* The buffers the candidates run on, allocated once per planning: count
   items (as the plan's batched calls: item i under modulus i % nmod), the
   inputs below their moduli, which every work keeps them. */
typedef struct {
    const ntt_plan_request *rq;
    void *a, *b, *c;
    size_t count;
    int reps;
    double sample_ns; /* the least time one sample takes */
} bench;

#define BENCH_MAX_ELEMS ((size_t)1 << 22)

static ntt_status bench_init(bench *B, const ntt_plan_request *rq)
{
    memset(B, 0, sizeof *B);
    B->rq = rq;
    const size_t n = rq->n, esz = rq->width == NTT_U32 ? 4 : 8;
    size_t count = BENCH_MAX_ELEMS / n;
    if (count < 1) count = 1;
    if (count > rq->o.batch) count = rq->o.batch;
    B->count = count;
    const size_t arrays = rq->o.work == NTT_WORK_POLYMUL ? 3 : 1, len = count * n;
    unsigned char *mem = ntt_alloc_aligned(arrays * len * esz);
    if (!mem) return NTT_ENOMEM;
    B->a = mem;
    B->b = arrays > 1 ? mem + len * esz : NULL;
    B->c = arrays > 1 ? mem + 2 * len * esz : NULL;
    for (size_t it = 0; it < count; it++) {
        const uint64_t q = rq->moduli[it % rq->count];
        for (size_t j = 0; j < n; j++) {
            const uint64_t x = (j * 0x9E3779B97F4A7C15ull + it + 1) % q;
            const uint64_t y = (j * 0xC2B2AE3D27D4EB4Full + 3 * it + 2) % q;
            if (rq->width == NTT_U32) {
                ((uint32_t *)B->a)[it * n + j] = (uint32_t)x;
                if (B->b) ((uint32_t *)B->b)[it * n + j] = (uint32_t)y;
            } else {
                ((uint64_t *)B->a)[it * n + j] = x;
                if (B->b) ((uint64_t *)B->b)[it * n + j] = y;
            }
        }
    }
    const bool exhaustive = rq->o.mode == NTT_PLAN_EXHAUSTIVE;
    B->reps = exhaustive ? 9 : 5;
    B->sample_ns = exhaustive ? 200e3 : 50e3;
    return NTT_OK;
}

static ntt_status run_work(ntt_plan *plan, const bench *B)
{
    const size_t n = plan->n, count = B->count;
    ntt_status s;
    switch (B->rq->o.work) {
    case NTT_WORK_FORWARD: return ntt_exec_transform(plan, B->a, count, n, false);
    case NTT_WORK_INVERSE: return ntt_exec_transform(plan, B->a, count, n, true);
    case NTT_WORK_POLYMUL:
        return NTT_OP(plan->ops, polymul)(plan, B->c, n, B->a, n, B->b, n, count, n, false);
    default:
        s = ntt_exec_transform(plan, B->a, count, n, false);
        return s != NTT_OK ? s : ntt_exec_transform(plan, B->a, count, n, true);
    }
}

static int cmp_double(const void *x, const void *y)
{
    const double a = *(const double *)x, b = *(const double *)y;
    return (a > b) - (a < b);
}

/* The median over B->reps samples of one call's time (3 where a call
   takes 5 ms or more), each sample enough calls to last sample_ns.  A
   candidate slower than `beat` (> 0, the best so far) by far is given up
   early, since it cannot win: after its warm-up call where that took four
   times as long (a cold call, so the margin is wide), else after its
   first sample where that took twice as long. */
static ntt_status time_candidate(ntt_plan *plan, const bench *B, double beat, double *median)
{
    double t = now_ns();
    ntt_status s = run_work(plan, B); /* warm: caches, pages, the pool's threads */
    if (s != NTT_OK) return s;
    const double warm = now_ns() - t;
    if (beat > 0 && warm > 4 * beat) {
        *median = warm;
        return NTT_OK;
    }
    t = now_ns();
    s = run_work(plan, B);
    if (s != NTT_OK) return s;
    const double once = now_ns() - t;
    long inner = once >= B->sample_ns ? 1 : (long)(B->sample_ns / (once > 1 ? once : 1)) + 1;
    if (inner > 10000) inner = 10000;
    const int reps = once >= 5e6 && B->reps > 3 ? 3 : B->reps;
    double samples[16];
    int r = 0;
    for (; r < reps; r++) {
        t = now_ns();
        for (long i = 0; i < inner; i++) (void)run_work(plan, B);
        samples[r] = (now_ns() - t) / (double)inner;
        if (r == 0 && beat > 0 && samples[0] > 2 * beat) {
            r = 1;
            break;
        }
    }
    qsort(samples, (size_t)r, sizeof *samples, cmp_double);
    *median = samples[r / 2];
    return NTT_OK;
}

/* The medians of a's and b's call times over B->reps samples each,
   taken alternately (each sample enough calls of its plan to last
   sample_ns, as a's calls take). */
static ntt_status duel(ntt_plan *a, ntt_plan *b, const bench *B, double *ma, double *mb)
{
    double t = now_ns();
    ntt_status s = run_work(a, B);
    if (s != NTT_OK) return s;
    const double once = now_ns() - t;
    long inner = once >= B->sample_ns ? 1 : (long)(B->sample_ns / (once > 1 ? once : 1)) + 1;
    if (inner > 10000) inner = 10000;
    const int reps = once >= 5e6 && B->reps > 3 ? 3 : B->reps;
    double sa[16], sb[16];
    for (int r = 0; r < reps; r++) {
        for (int k = 0; k < 2; k++) {
            ntt_plan *p = k ? b : a;
            t = now_ns();
            for (long i = 0; i < inner; i++) (void)run_work(p, B);
            (k ? sb : sa)[r] = (now_ns() - t) / (double)inner;
        }
    }
    qsort(sa, (size_t)reps, sizeof *sa, cmp_double);
    qsort(sb, (size_t)reps, sizeof *sb, cmp_double);
    *ma = sa[reps / 2];
    *mb = sb[reps / 2];
    return NTT_OK;
}

/* ---- choosing ---------------------------------------------------------------- */

#define RULE_MARGIN NTT_PLANNER_MARGIN

/* Whether this library, now, can follow ans for rq: a backend the
   planner would offer, usable here, and the kernels it was timed on
   (the IFMA switch may have changed since, or the answer come from a
   build without them). */
static bool answer_valid(const ntt_plan_request *rq, const ntt_wisdom_answer *ans)
{
    const ntt_plan_config *c = &ans->cfg;
    ntt_backend rows[NTT_BACKEND_COUNT];
    const size_t nrows = ntt_backend_plan_rows(rq->asked, rq->auto_free, rows);
    bool offered = false;
    for (size_t i = 0; i < nrows; i++) offered = offered || rows[i] == c->backend;
    if (!offered || !ntt_backend_available(c->backend) || c->threads < 0 ||
        (rq->o.modmul != NTT_MODMUL_DEFAULT && c->modmul != rq->o.modmul) ||
        ntt_backend_thread_count(c->backend, c->threads) >
            ntt_backend_thread_count(c->backend, rq->o.threads))
        return false;
    const ntt_plan p = {.n = rq->n, .width = rq->width, .modmul = c->modmul, .k64 = c->k64};
    const ntt_modulus m = {.p = rq->moduli[0]};
    const char *name;
    (void)ntt_backend_kernels_for(c->backend, &p, &m, &name);
    return strcmp(name, ans->kernels) == 0;
}

static ntt_status measure(ntt_plan **out, const ntt_plan_request *rq, double t0)
{
    ntt_plan_config *cand = malloc(MAX_CANDIDATES * sizeof *cand);
    if (!cand) return NTT_ENOMEM;
    bench B;
    ntt_status s = bench_init(&B, rq);
    if (s != NTT_OK) {
        free(cand);
        return s;
    }
    const size_t nc = candidates(rq, cand);
    const double limit = rq->o.time_limit * 1e9;
    /* The rule's plan stays until the end, for the duel below. */
    ntt_plan *best = NULL, *rule = NULL;
    size_t best_i = 0;
    double best_ns = 0, rule_ns = 0;
    unsigned timed = 0;
    int limited = 0;
    for (size_t i = 0; i < nc; i++) {
        if (i > 0 && limit > 0 && now_ns() - t0 > limit) {
            limited = 1;
            break;
        }
        ntt_plan *p;
        s = ntt_plan_build(&p, rq, &cand[i]);
        if (s == NTT_OK) {
            double t;
            s = time_candidate(p, &B, best_ns, &t);
            if (s == NTT_OK) {
                timed++;
                if (i == 0) rule = p, rule_ns = t;
                const double bar = best_i == 0 ? RULE_MARGIN * best_ns : best_ns;
                if (!best || t < bar) {
                    if (best != rule) ntt_plan_destroy(best);
                    best = p, best_i = i, best_ns = t;
                }
            }
            if (p != best && p != rule) ntt_plan_destroy(p);
        }
        /* The rule's candidate is the ESTIMATE plan: its failure is the
           plan's.  Another may fail where its configuration cannot run
           (it is passed over), but memory is memory. */
        if (s != NTT_OK && (i == 0 || s == NTT_ENOMEM)) break;
        s = NTT_OK;
    }
    /* The winner against the rule once more, their samples alternated, so
       that a load that came and went during the race (another process, a
       VM's neighbour) cannot have made the choice. */
    if (s == NTT_OK && best && best != rule) {
        double d_rule, d_best;
        s = duel(rule, best, &B, &d_rule, &d_best);
        if (s == NTT_OK) {
            rule_ns = d_rule;
            if (d_best < RULE_MARGIN * d_rule) {
                best_ns = d_best;
            } else {
                ntt_plan_destroy(best);
                best = rule, best_i = 0, best_ns = d_rule;
            }
        }
    }
    if (rule != best) ntt_plan_destroy(rule);
    free(B.a);
    if (s == NTT_OK && !limited) {
        ntt_wisdom_key key;
        ntt_wisdom_key_of(&key, rq);
        ntt_wisdom_answer ans = {.mode = rq->o.mode, .cfg = cand[best_i], .time_ns = best_ns};
        snprintf(ans.kernels, sizeof ans.kernels, "%s", best->choice.kernels);
        s = ntt_wisdom_add(&key, &ans);
    }
    free(cand);
    if (s != NTT_OK) {
        ntt_plan_destroy(best);
        return s;
    }
    ntt_plan_choice_info *c = &best->choice;
    c->source = NTT_CHOSEN_BY_MEASURE;
    c->time_ns = best_ns;
    c->rule_ns = rule_ns;
    c->candidates = timed;
    c->time_limited = limited;
    *out = best;
    return NTT_OK;
}

ntt_status ntt_planner_create(ntt_plan **out, const ntt_plan_request *rq)
{
    const double t0 = now_ns();
    *out = NULL;
    ntt_wisdom_key key;
    ntt_wisdom_key_of(&key, rq);
    ntt_wisdom_answer ans;
    ntt_status s;
    if (ntt_wisdom_lookup(&key, rq->o.mode, &ans) && answer_valid(rq, &ans)) {
        s = ntt_plan_build(out, rq, &ans.cfg);
        if (s == NTT_OK) {
            (*out)->choice.source = NTT_CHOSEN_BY_WISDOM;
            (*out)->choice.time_ns = ans.time_ns;
            (*out)->choice.planning_ns = now_ns() - t0;
            return NTT_OK;
        }
        if (s == NTT_ENOMEM) return s;
        /* An answer this plan cannot follow after all: plan anew. */
    }
    if (rq->o.mode == NTT_PLAN_WISDOM_ONLY || !ntt_backend_is_cpu(rq->asked)) {
        /* No timing: the rules (CUDA has no candidates yet). */
        const ntt_plan_config rule = {rq->asked, rq->o.modmul, rq->o.threads, NTT_K64_RULE};
        s = ntt_plan_build(out, rq, &rule);
    } else {
        s = measure(out, rq, t0);
    }
    if (s == NTT_OK) (*out)->choice.planning_ns = now_ns() - t0;
    return s;
}
