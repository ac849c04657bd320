/* ntt_polymul_mod: products modulo any p in [2, 2^63), with a plan cache,
   the direct NTT path, the multi-prime CRT path and schoolbook for tiny
   inputs. */
#include "addon_plan.h"
#include "alloc.h"
#include "crt.h"
#include "detail.h"
#include "internal.h"
#include "planner.h"
#include "registry.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

/* What the transforms of one call run with: the caller's options and, for
   an add-on's product, the add-on. */
typedef struct {
    ntt_plan_options o;
    const ntt_addon_init *addon; /* NULL: the library's plans (cached) */
    /* The backend as the caller gave it: a planned mode (o.mode not
       ESTIMATE) creates its plans with AUTO unresolved, so that the
       planner may choose the CPU row. */
    ntt_backend asked;
} mul_opts;

/* ---- plan cache ----------------------------------------------------------- */

typedef struct {
    ntt_plan *plan; /* NULL: empty slot */
    uint64_t p;
    size_t n;
    ntt_width width;
    ntt_backend backend;
    ntt_modmul modmul;
    int threads;
    ntt_plan_mode mode;
    bool in_use;
    uint64_t last_use;
} cache_entry;

#define CACHE_SLOTS 16
static cache_entry cache[CACHE_SLOTS];
static uint64_t cache_clock;
static pthread_mutex_t cache_lock = PTHREAD_MUTEX_INITIALIZER;

static bool entry_matches(const cache_entry *e, uint64_t p, size_t n, ntt_width w, ntt_backend b,
                          const mul_opts *m)
{
    return e->plan && e->p == p && e->n == n && e->width == w && e->backend == b &&
           e->modmul == m->o.modmul && e->threads == m->o.threads && e->mode == m->o.mode;
}

/* A cyclic plan for (n, p) that the caller has to itself until plan_release. */
static ntt_status plan_acquire(ntt_plan **out, size_t n, uint64_t p, ntt_width w, ntt_backend b,
                               const mul_opts *m)
{
    ntt_plan_options po = m->o;
    po.flags = 0;
    po.work = NTT_WORK_POLYMUL;
    if (m->addon) return ntt_plan_create_addon(out, n, &p, 1, w, b, &po, m->addon->ops, m->addon->arg);
    pthread_mutex_lock(&cache_lock);
    for (int i = 0; i < CACHE_SLOTS; i++) {
        cache_entry *e = &cache[i];
        if (!e->in_use && entry_matches(e, p, n, w, b, m)) {
            e->in_use = true;
            e->last_use = ++cache_clock;
            *out = e->plan;
            pthread_mutex_unlock(&cache_lock);
            return NTT_OK;
        }
    }
    pthread_mutex_unlock(&cache_lock);
    const bool planned_auto = m->o.mode != NTT_PLAN_ESTIMATE && m->asked == NTT_BACKEND_AUTO;
    return ntt_plan_create_rns(out, n, &p, 1, w, planned_auto ? NTT_BACKEND_AUTO : b, &po);
}

/* Back to the cache under the key it was asked by (b: the resolved
   backend asked for, which a planned plan may not run). */
static void plan_release(ntt_plan *plan, ntt_backend b, const mul_opts *m)
{
    if (m->addon) {
        ntt_plan_destroy(plan);
        return;
    }
    pthread_mutex_lock(&cache_lock);
    for (int i = 0; i < CACHE_SLOTS; i++) {
        if (cache[i].plan == plan) {
            cache[i].in_use = false;
            pthread_mutex_unlock(&cache_lock);
            return;
        }
    }
    /* Not cached yet: take an empty slot, else evict the least recently used
       idle one, else give the plan up. */
    int victim = -1;
    for (int i = 0; i < CACHE_SLOTS; i++) {
        if (!cache[i].plan) { victim = i; break; }
        if (!cache[i].in_use && (victim < 0 || cache[i].last_use < cache[victim].last_use))
            victim = i;
    }
    ntt_plan *drop = plan;
    if (victim >= 0) {
        cache_entry *e = &cache[victim];
        drop = e->plan;
        e->plan = plan;
        e->p = plan->mod[0].p;
        e->n = plan->n;
        e->width = plan->width;
        e->backend = b;
        e->modmul = m->o.modmul;
        e->threads = m->o.threads;
        e->mode = m->o.mode;
        e->in_use = false;
        e->last_use = ++cache_clock;
    }
    pthread_mutex_unlock(&cache_lock);
    ntt_plan_destroy(drop);
}

/* ---- work buffers of the CRT path ----------------------------------------- */

/* The residues and reduced inputs of one CRT product, and the threads of
   its Garner step, kept between calls as the plans are: at n = 2^17 the
   buffer is 6 MiB, and faulting it in afresh on every call cost an eighth
   of the product's time.  A caller takes a slot to itself (in_use), so
   concurrent calls never share one; a caller that finds every slot busy
   works on buffers of its own, which it caches or frees on release. */
typedef struct {
    uint64_t *buf; /* NULL: empty slot */
    size_t cap;    /* words */
    ntt_pool *pool;
    int pool_threads;
    bool in_use;
    uint64_t last_use;
} work_entry;

#define WORK_SLOTS 4
static work_entry work[WORK_SLOTS];

static void work_drop(work_entry *w)
{
    free(w->buf);
    ntt_pool_destroy(w->pool);
    memset(w, 0, sizeof *w);
}

/* *w: a buffer of at least `words` words and, for threads > 1, a pool of
   that many threads (NULL where one could not be made: the Garner step
   then runs on the caller); *slot the cache slot it came from, -1 for
   none.  NTT_ENOMEM where the buffer could not be had. */
static ntt_status work_acquire(work_entry *w, int *slot, size_t words, int threads)
{
    *slot = -1;
    memset(w, 0, sizeof *w);
    pthread_mutex_lock(&cache_lock);
    /* The smallest idle buffer that is large enough, else the largest
       idle one, to be grown. */
    int best = -1;
    for (int i = 0; i < WORK_SLOTS; i++) {
        const work_entry *e = &work[i];
        if (!e->buf || e->in_use) continue;
        if (best < 0) { best = i; continue; }
        const work_entry *b = &work[best];
        const bool fits = e->cap >= words, bfits = b->cap >= words;
        if (fits ? !bfits || e->cap < b->cap : !bfits && e->cap > b->cap) best = i;
    }
    if (best >= 0) {
        work[best].in_use = true;
        work[best].last_use = ++cache_clock;
        *w = work[best];
        *slot = best;
    }
    pthread_mutex_unlock(&cache_lock);
    if (w->cap < words) {
        free(w->buf);
        w->cap = 0;
        w->buf = ntt_alloc_aligned(words * sizeof *w->buf);
        if (!w->buf) {
            if (*slot >= 0) {
                pthread_mutex_lock(&cache_lock);
                ntt_pool_destroy(work[*slot].pool);
                memset(&work[*slot], 0, sizeof work[*slot]);
                pthread_mutex_unlock(&cache_lock);
            }
            ntt_pool_destroy(w->pool);
            return NTT_ENOMEM;
        }
        w->cap = words;
    }
    if (threads > 1 && w->pool_threads != threads) {
        ntt_pool_destroy(w->pool);
        w->pool = NULL;
        if (ntt_pool_create(&w->pool, threads, NTT_POOL_SPIN_NS) != NTT_OK) w->pool = NULL;
        w->pool_threads = w->pool ? threads : 0;
    }
    return NTT_OK;
}

/* Gives *w back to its slot, else to an empty slot or in place of the
   least recently used idle one, else frees it. */
static void work_release(work_entry *w, int slot)
{
    work_entry drop = {0};
    pthread_mutex_lock(&cache_lock);
    if (slot < 0) {
        for (int i = 0; i < WORK_SLOTS; i++) {
            if (!work[i].buf) { slot = i; break; }
            if (!work[i].in_use && (slot < 0 || work[i].last_use < work[slot].last_use))
                slot = i;
        }
        if (slot >= 0) drop = work[slot];
    }
    if (slot >= 0) {
        w->in_use = false;
        w->last_use = ++cache_clock;
        work[slot] = *w;
    } else {
        drop = *w;
    }
    pthread_mutex_unlock(&cache_lock);
    if (drop.buf) work_drop(&drop);
}

void ntt_cache_clear(void)
{
    ntt_plan *drop[CACHE_SLOTS];
    work_entry wdrop[WORK_SLOTS];
    int k = 0, kw = 0;
    pthread_mutex_lock(&cache_lock);
    for (int i = 0; i < CACHE_SLOTS; i++) {
        if (cache[i].plan && !cache[i].in_use) {
            drop[k++] = cache[i].plan;
            memset(&cache[i], 0, sizeof cache[i]);
        }
    }
    for (int i = 0; i < WORK_SLOTS; i++) {
        if (work[i].buf && !work[i].in_use) {
            wdrop[kw++] = work[i];
            memset(&work[i], 0, sizeof work[i]);
        }
    }
    pthread_mutex_unlock(&cache_lock);
    for (int i = 0; i < k; i++) ntt_plan_destroy(drop[i]);
    for (int i = 0; i < kw; i++) work_drop(&wdrop[i]);
}

/* ---- schoolbook ------------------------------------------------------------ */

/* c = a*b mod p, la <= lb; each a[i] is a fixed multiplier of b (Shoup). */
static void schoolbook(uint64_t *c, const uint64_t *a, size_t la, const uint64_t *b, size_t lb,
                       uint64_t p)
{
    memset(c, 0, (la + lb - 1) * sizeof *c);
    for (size_t i = 0; i < la; i++) {
        const uint64_t w = a[i], wq = ntt_shoup_pre64(w, p);
        for (size_t j = 0; j < lb; j++) {
            uint64_t t = ntt_csub64(ntt_shoup64(b[j], w, wq, p), p);
            c[i + j] = ntt_addmod(c[i + j], t, p);
        }
    }
}

/* ---- NTT paths ----------------------------------------------------------- */

static ntt_status polymul_on_plan(ntt_plan *plan, void *c, size_t lc, const void *a, size_t la,
                                  const void *b, size_t lb)
{
    const ntt_backend_ops *ops = plan->ops;
    return NTT_OP(ops, polymul)(plan, c, lc, a, la, b, lb, 1, plan->n, true);
}

/* p is an NTT prime for size n: one product, on u32 elements when p < 2^30
   (the backend reads and writes the caller's uint64_t arrays directly). */
static ntt_status direct(uint64_t *c, const uint64_t *a, size_t la, const uint64_t *b, size_t lb,
                         uint64_t p, size_t n, ntt_backend be, const mul_opts *m)
{
    const size_t lc = la + lb - 1;
    const ntt_width w = p < ((uint64_t)1 << 30) ? NTT_U32 : NTT_U64;
    ntt_plan *plan;
    ntt_status s = plan_acquire(&plan, n, p, w, be, m);
    if (s != NTT_OK) return s;
    s = polymul_on_plan(plan, c, lc, a, la, b, lb);
    plan_release(plan, be, m);
    return s;
}

/* Every CRT set (ntt_backend_crt_sets) has at most CRT_MAX primes, whose
   product exceeds 2^185 > min(la,lb) (p-1)^2 for every admissible input. */
#define CRT_MAX NTT_CRT_SET_MAX
_Static_assert(CRT_MAX <= NTT_GARNER_MAX, "Garner's step takes every CRT set");

/* How many CRT primes hold every coefficient of the exact product, at most
   min(la,lb) (p-1)^2: the first t whose product exceeds it (compared in
   64-bit limbs; the set always has enough). */
static size_t crt_count(size_t la, size_t lb, uint64_t p, const uint64_t *q, size_t nq)
{
    uint64_t bound[5] = {0}, prod[5] = {1, 0, 0, 0, 0};
    const ntt_u128 sq = (ntt_u128)(p - 1) * (p - 1);
    const size_t l = la < lb ? la : lb;
    const ntt_u128 lo = (ntt_u128)(uint64_t)sq * l;
    const ntt_u128 hi = (ntt_u128)(uint64_t)(sq >> 64) * l + (uint64_t)(lo >> 64);
    bound[0] = (uint64_t)lo;
    bound[1] = (uint64_t)hi;
    bound[2] = (uint64_t)(hi >> 64);
    for (size_t t = 1; t <= nq; t++) {
        ntt_u128 carry = 0;
        for (int w = 0; w < 5; w++) {
            carry += (ntt_u128)prod[w] * q[t - 1];
            prod[w] = (uint64_t)carry;
            carry >>= 64;
        }
        /* prod > bound? */
        int w = 4;
        while (w > 0 && prod[w] == bound[w]) w--;
        if (prod[w] > bound[w]) return t;
    }
    return nq;
}

/* The primes (*q, how many returned) of be's set that multiplies this
   product fastest: as many as it needs (crt_count) times the set's cost,
   the first set on a tie.  The product is exact on any of them. */
static size_t crt_pick(ntt_backend be, size_t la, size_t lb, uint64_t p, const uint64_t **q)
{
    const ntt_crt_set *s;
    const size_t ns = ntt_backend_crt_sets(be, &s);
    size_t best = 0, t = 0;
    for (size_t k = 0; k < ns; k++) {
        const size_t tk = crt_count(la, lb, p, s[k].q, s[k].count);
        if (k == 0 || tk * s[k].cost < t * s[best].cost) best = k, t = tk;
    }
    *q = s[best].q;
    return t;
}

/* Garner's step shares its blocks out from this length on (2^15: 0.25
   MiB per prime, where a job's hand-off costs a few percent). */
#define GARNER_THREADS_FROM ((size_t)1 << 15)

/* A planned mode's set: every set the registry knows (ntt_crt_sets_all),
   each costed by the planned product time of its first prime (the
   planner's, or the wisdom's, measure) times the primes it needs; the
   rule's set unless another costs NTT_PLANNER_MARGIN of it or less; the
   rule's pick where a plan reports no time (CUDA, an add-on). */
static ntt_status crt_pick_measured(ntt_backend be, size_t la, size_t lb, uint64_t p, size_t n,
                                    const mul_opts *m, const uint64_t **q, size_t *t)
{
    const ntt_crt_set *sets[8];
    const size_t ns = ntt_crt_sets_all(sets, 8);
    double best = 0, rule_cost = 0;
    *t = crt_pick(be, la, lb, p, q);
    const uint64_t *rule_q = *q;
    const size_t rule_t = *t;
    for (size_t k = 0; k < ns; k++) {
        ntt_plan *plan;
        const ntt_status s = plan_acquire(&plan, n, sets[k]->q[0], NTT_U64, be, m);
        if (s != NTT_OK) return s;
        const double cost = plan->choice.time_ns;
        plan_release(plan, be, m);
        if (cost <= 0) {
            *t = crt_pick(be, la, lb, p, q);
            return NTT_OK;
        }
        const size_t tk = crt_count(la, lb, p, sets[k]->q, sets[k]->count);
        if (sets[k]->q == rule_q) rule_cost = (double)tk * cost;
        if (k == 0 || (double)tk * cost < best) best = (double)tk * cost, *q = sets[k]->q, *t = tk;
    }
    if (rule_cost > 0 && best > NTT_PLANNER_MARGIN * rule_cost) *q = rule_q, *t = rule_t;
    return NTT_OK;
}

static ntt_status via_crt(uint64_t *c, const uint64_t *a, size_t la, const uint64_t *b, size_t lb,
                          uint64_t p, size_t n, ntt_backend be, const mul_opts *m)
{
    const uint64_t *q = NULL;
    size_t t = 0;
    if (m->o.mode == NTT_PLAN_ESTIMATE || m->addon) {
        t = crt_pick(be, la, lb, p, &q);
    } else {
        const ntt_status s = crt_pick_measured(be, la, lb, p, n, m, &q, &t);
        if (s != NTT_OK) return s;
    }
    const size_t lc = la + lb - 1;
    const int threads = lc >= GARNER_THREADS_FROM ? ntt_backend_thread_count(be, m->o.threads) : 1;
    work_entry w;
    int slot;
    /* The first prime's residues go to c itself, which Garner's step
       then rewrites in place. */
    ntt_status s = work_acquire(&w, &slot, (t - 1) * lc + la + lb, threads);
    if (s != NTT_OK) return s;
    uint64_t *r[CRT_MAX];
    r[0] = c;
    for (size_t k = 1; k < t; k++) r[k] = w.buf + (k - 1) * lc;
    uint64_t *ar = w.buf + (t - 1) * lc, *br = ar + la;
    ntt_garner g;
    ntt_garner_init(&g, q, t, p);
    const ntt_crt_kernels K = ntt_backend_crt_kernels(be, &g);
    /* Every plan before the first product writes into c, so that a plan
       that cannot be had leaves c as it was. */
    ntt_plan *plan[CRT_MAX];
    size_t got = 0;
    while (got < t && (s = plan_acquire(&plan[got], n, q[got], NTT_U64, be, m)) == NTT_OK) got++;
    /* The first prime's product, the one into c, runs last: a product
       that fails (a device's error) leaves c as it was, as the direct
       path's does. */
    for (size_t j = 0; j < t && s == NTT_OK; j++) {
        const size_t k = (j + 1) % t;
        /* Inputs below q need no copy. */
        const uint64_t *ak = a, *bk = b;
        if (p > q[k]) {
            K.reduce(ar, a, la, q[k]);
            K.reduce(br, b, lb, q[k]);
            ak = ar;
            bk = br;
        }
        s = polymul_on_plan(plan[k], r[k], lc, ak, la, bk, lb);
    }
    for (size_t k = 0; k < got; k++) plan_release(plan[k], be, m);
    if (s == NTT_OK)
        ntt_garner_run(threads > 1 ? w.pool : NULL, K.garner, c, (const uint64_t *const *)r, lc,
                       &g);
    work_release(&w, slot);
    return s;
}

size_t ntt_polymul_mod_crt_pick(size_t la, size_t lb, uint64_t p, ntt_backend backend,
                                const ntt_plan_options *opts, const uint64_t **q)
{
    mul_opts m = {.asked = backend};
    if (opts) m.o = *opts;
    m.o.flags = 0;
    if (ntt_backend_resolve(&backend) != NTT_OK) return 0;
    size_t n = 2, t = 0;
    while (n < la + lb - 1) n <<= 1;
    if (m.o.mode == NTT_PLAN_ESTIMATE) return crt_pick(backend, la, lb, p, q);
    return crt_pick_measured(backend, la, lb, p, n, &m, q, &t) == NTT_OK ? t : 0;
}

/* 1 if an input is >= p.  Every input is read before anything is written;
   a threaded backend shares the reading out (64 MB at 2^22, serial work
   otherwise). */
static bool inputs_geq(const ntt_backend_ops *ops, const uint64_t *a, size_t la, const uint64_t *b,
                       size_t lb, uint64_t p, int threads)
{
    if (ops && ops->any_geq_u64)
        return ops->any_geq_u64(a, la, p, threads) || ops->any_geq_u64(b, lb, p, threads);
    return ntt_any_geq_u64(a, la, p) || ntt_any_geq_u64(b, lb, p);
}

static ntt_status polymul_mod(uint64_t *c, const uint64_t *a, size_t la, const uint64_t *b,
                              size_t lb, uint64_t p, ntt_backend backend,
                              const ntt_plan_options *opts, const ntt_addon_init *addon)
{
    ntt_detail_clear();
    if (!c || !a || !b || la == 0 || lb == 0)
        return ntt_fail(NTT_EINVAL, "c, a and b must be non-NULL and la, lb >= 1 (la = %zu, lb = "
                        "%zu)", la, lb);
    if (p < 2 || p >= ((uint64_t)1 << 63))
        return ntt_fail(NTT_EINVAL, "modulus %llu is not in [2, 2^63)", (unsigned long long)p);
    if (la > NTT_POLYMUL_MAX_LEN || lb > NTT_POLYMUL_MAX_LEN - la + 1)
        return ntt_fail(NTT_EINVAL, "la + lb - 1 = %zu + %zu - 1 exceeds 2^%d", la, lb,
                        NTT_MAX_LOG2_N);
    const size_t lc = la + lb - 1;
    if (ntt_overlaps(c, lc * 8, a, la * 8) || ntt_overlaps(c, lc * 8, b, lb * 8))
        return ntt_fail(NTT_EINVAL, "c overlaps a or b");
    if ((unsigned)backend >= NTT_BACKEND_COUNT)
        return ntt_fail(NTT_EINVAL, "backend %d is not an ntt_backend", (int)backend);
    mul_opts m = {.addon = addon, .asked = backend};
    if (opts) m.o = *opts;
    m.o.flags = 0;
    if ((unsigned)m.o.modmul > NTT_MODMUL_SHOUP || m.o.threads < 0 ||
        (unsigned)m.o.mode > NTT_PLAN_WISDOM_ONLY || !(m.o.time_limit >= 0))
        return ntt_fail(NTT_EINVAL, "an option out of range: modmul %d, threads %d, mode %d, "
                        "time_limit %g", (int)m.o.modmul, m.o.threads, (int)m.o.mode,
                        m.o.time_limit);
    const ntt_status rs = ntt_backend_resolve(&backend);
    if (rs != NTT_OK) return rs;
    /* The table the plans will run (the threaded driver where threads ask
       for it), whose input check is the one to take. */
    const ntt_backend_ops *ops = ntt_backend_exec_ops(backend, m.o.threads);
    const bool usable = ops && ops->available() &&
                        (addon ? addon->ops->supports(backend, m.o.modmul, addon->arg) != 0
                               : ops->supports(m.o.modmul) != 0);
    const bool school = la < lb ? la <= 8 : lb <= 8;
    size_t n = 2;
    while (n < lc) n <<= 1;
    /* Only where it will be used: the prime test is the costly part. */
    const bool is_direct =
        usable && !school && p < ((uint64_t)1 << 62) && (p - 1) % n == 0 && ntt_prime_u64(p);
    /* A direct product on a backend that checks what it loads reads the
       inputs once; every other path checks them first, before the status
       of an unusable backend, as always. */
    const bool checked_there = is_direct && !addon && ops->polymul_checks_single;
    if (!checked_there && inputs_geq(ops, a, la, b, lb, p, m.o.threads))
        return ntt_fail_geq(a, la, b, lb, p);
    /* Decided here, not by the plan, so that the answer does not depend on
       whether the inputs are short enough for schoolbook. */
    if (!usable)
        return ntt_fail_unsupported(backend, m.o.modmul,
                                    addon ? (addon->ops->name ? addon->ops->name : "?") : NULL);

    if (school) {
        if (la <= lb)
            schoolbook(c, a, la, b, lb, p);
        else
            schoolbook(c, b, lb, a, la, p);
        return NTT_OK;
    }
    if (is_direct)
        return ntt_detail_geq(direct(c, a, la, b, lb, p, n, backend, &m), a, la, b, lb, p);
    return via_crt(c, a, la, b, lb, p, n, backend, &m);
}

ntt_status ntt_polymul_mod_ex(uint64_t *c, const uint64_t *a, size_t la, const uint64_t *b,
                              size_t lb, uint64_t p, ntt_backend backend,
                              const ntt_plan_options *opts)
{
    return polymul_mod(c, a, la, b, lb, p, backend, opts, NULL);
}

ntt_status ntt_polymul_mod_addon(uint64_t *c, const uint64_t *a, size_t la, const uint64_t *b,
                                 size_t lb, uint64_t p, ntt_backend backend,
                                 const ntt_plan_options *opts, const ntt_addon_ops *ops,
                                 const void *arg)
{
    if (!ops) return NTT_EINVAL;
    const ntt_addon_init in = {ops, arg};
    return polymul_mod(c, a, la, b, lb, p, backend, opts, &in);
}

ntt_status ntt_polymul_mod(uint64_t *c, const uint64_t *a, size_t la, const uint64_t *b,
                           size_t lb, uint64_t p, ntt_backend backend)
{
    return ntt_polymul_mod_ex(c, a, la, b, lb, p, backend, NULL);
}
