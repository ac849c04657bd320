/* Field plans (include/ntt_field.h): tables, argument checks, and the
   drivers that run the kernels (field_kernels.c) on one thread or on the
   plan's pool (src/pool). */
#include "field_internal.h"
#include "../core/alloc.h"
#include "../include/ntt_internal.h" /* ntt_fail, ntt_detail_clear, ntt_overlaps */

#include <stdlib.h>
#include <string.h>

/* Transforms from this size on are split across the plan's threads;
   smaller ones (and each item of a batch) run on one. */
#define FIELD_PAR_MIN ((size_t)1 << 12)
/* Units per thread in a threaded phase: the others absorb a thread that a
   busy host slows down (as the threaded CPU driver, ARCHITECTURE.md). */
#define FIELD_UNITS_PER_THREAD 4

struct ntt_field_plan {
    field_mod m;
    const field_kern *k;
    size_t n, w;
    unsigned logn, flags;
    ntt_pool *pool;
    int threads;
    uint64_t *tw, *itw;  /* n/2 each: r^brv(k), r^-brv(k) (Montgomery form) */
    uint64_t *gpow;      /* coset: g^i, i < n (Montgomery form); else NULL */
    uint64_t *iscale;    /* coset: g^-i n^-1, i < n; else n^-1 (one element) */
    size_t iss;          /* iscale's stride in elements: 1 or 0 */
    uint64_t *scratch;   /* 2n elements: the products' operands */
    const uint64_t *post; /* pointwise's second factor: R^2 (canonical), NULL */
    uint64_t r2[NTT_FIELD_MAX_WORDS];
    uint64_t root[NTT_FIELD_MAX_WORDS]; /* canonical */
};

#define ALL_FLAGS (NTT_FLAG_NATURAL_ORDER | NTT_FIELD_FLAG_COSET | NTT_FIELD_FLAG_MONTGOMERY)

static size_t brv(size_t x, unsigned bits)
{
    size_t r = 0;
    for (unsigned i = 0; i < bits; i++, x >>= 1) r = (r << 1) | (x & 1);
    return r;
}

static void plan_free(ntt_field_plan *pl)
{
    if (!pl) return;
    ntt_pool_destroy(pl->pool);
    free(pl->tw);
    free(pl->itw);
    free(pl->gpow);
    free(pl->iscale);
    free(pl->scratch);
    free(pl);
}

void ntt_field_plan_destroy(ntt_field_plan *plan) { plan_free(plan); }

size_t ntt_field_plan_size(const ntt_field_plan *plan) { return plan ? plan->n : 0; }
size_t ntt_field_plan_words(const ntt_field_plan *plan) { return plan ? plan->w : 0; }

ntt_status ntt_field_plan_root(const ntt_field_plan *plan, uint64_t *root)
{
    ntt_detail_clear();
    if (!plan || !root) return ntt_fail(NTT_EINVAL, "%s is NULL", !plan ? "plan" : "root");
    memcpy(root, plan->root, plan->w * sizeof(uint64_t));
    return NTT_OK;
}

static uint64_t *alloc_elems(size_t count, size_t w)
{
    return ntt_alloc_aligned(count * w * sizeof(uint64_t));
}

/* t[i] = x^i (Montgomery form), i < count, each scaled by `by` when given. */
static void powers(const field_mod *m, uint64_t *t, const uint64_t *x, const uint64_t *by,
                   size_t count)
{
    const size_t w = m->w;
    fa_copy(t, by ? by : m->one, w);
    for (size_t i = 1; i < count; i++) field_mul(m, t + i * w, t + (i - 1) * w, x);
}

ntt_status ntt_field_plan_create(ntt_field_plan **out, const ntt_field *f, size_t n,
                                 const ntt_field_plan_options *opts)
{
    ntt_detail_clear();
    if (!out) return ntt_fail(NTT_EINVAL, "plan is NULL");
    *out = NULL;
    if (!f) return ntt_fail(NTT_EINVAL, "f is NULL");
    const ntt_field_plan_options defaults = {0};
    if (!opts) opts = &defaults;
    if (n < 2 || (n & (n - 1)) || n > ((size_t)1 << NTT_MAX_LOG2_N))
        return ntt_fail(NTT_EINVAL, "n = %zu is not a power of two in [2, 2^%d]", n,
                        NTT_MAX_LOG2_N);
    if (opts->flags & ~ALL_FLAGS)
        return ntt_fail(NTT_EINVAL, "flags 0x%x has bits a field plan does not take (0x%x)",
                        opts->flags, opts->flags & ~ALL_FLAGS);
    if (opts->threads < 0) return ntt_fail(NTT_EINVAL, "threads = %d < 0", opts->threads);
    unsigned logn = 0;
    while (((size_t)1 << logn) < n) logn++;
    if (logn > f->s)
        return ntt_fail(NTT_EMODULUS,
                        "n = 2^%u does not divide p - 1: the %u-bit prime's 2-adicity is %u, "
                        "so transforms of at most 2^%u points",
                        logn, f->bits, f->s, f->s);
    const field_mod *m = &f->m;
    const size_t w = m->w;
    const bool coset = opts->flags & NTT_FIELD_FLAG_COSET;
    uint64_t gm[NTT_FIELD_MAX_WORDS] = {0};
    if (coset) {
        if (opts->coset_shift) {
            if (fa_is_zero(opts->coset_shift, w))
                return ntt_fail(NTT_EINVAL, "the coset shift is 0");
            if (fa_cmp(opts->coset_shift, m->p, w) >= 0)
                return ntt_fail(NTT_EINVAL, "the coset shift is not below p");
            field_mul(m, gm, opts->coset_shift, m->r2);
        } else {
            field_from_small(m, gm, f->g);
        }
    }

    ntt_field_plan *pl = calloc(1, sizeof *pl);
    if (!pl) return ntt_fail(NTT_ENOMEM, "no memory for the plan");
    pl->m = *m;
    pl->k = field_kern_for(m->p, w);
    pl->n = n;
    pl->w = w;
    pl->logn = logn;
    pl->flags = opts->flags;
    pl->threads = opts->threads > 1 ? opts->threads : 1;
    const size_t half = n / 2;
    pl->tw = alloc_elems(half, w);
    pl->itw = alloc_elems(half, w);
    pl->gpow = coset ? alloc_elems(n, w) : NULL;
    pl->iscale = alloc_elems(coset ? n : 1, w);
    pl->scratch = alloc_elems(2 * n, w);
    if (!pl->tw || !pl->itw || (coset && !pl->gpow) || !pl->iscale || !pl->scratch) {
        plan_free(pl);
        return ntt_fail(NTT_ENOMEM, "no memory for the plan's tables (%zu elements of %zu words)",
                        n, w);
    }

    /* r = omega^(2^(s - log n)), of order n; r^-1 = r^(n-1). */
    uint64_t r[NTT_FIELD_MAX_WORDS], ri[NTT_FIELD_MAX_WORDS];
    fa_copy(r, f->omega, w);
    for (unsigned i = logn; i < f->s; i++) field_mul(m, r, r, r);
    fa_copy(ri, m->one, w);
    for (size_t i = 1; i < n; i++) field_mul(m, ri, ri, r);
    uint64_t unit[NTT_FIELD_MAX_WORDS] = {1};
    field_mul(m, pl->root, r, unit);

    /* The powers r^t (t < n/2) in order through the scratch, then the
       tables in bit-reversed order. */
    uint64_t *pw = pl->scratch, *ipw = pl->scratch + half * w;
    powers(m, pw, r, NULL, half);
    powers(m, ipw, ri, NULL, half);
    for (size_t k = 0; k < half; k++) {
        const size_t e = brv(k, logn - 1);
        fa_copy(pl->tw + k * w, pw + e * w, w);
        fa_copy(pl->itw + k * w, ipw + e * w, w);
    }

    /* n^-1 = 2^-log n by halving. */
    uint64_t ninv[NTT_FIELD_MAX_WORDS];
    fa_copy(ninv, m->one, w);
    for (unsigned i = 0; i < logn; i++) fa_half(ninv, ninv, m->p, w);
    if (coset) {
        /* g^-1 = g^(p-2) */
        uint64_t e[NTT_FIELD_MAX_WORDS], gi[NTT_FIELD_MAX_WORDS];
        fa_copy(e, m->p, w);
        e[0] -= 2; /* p odd and > 2^64: no borrow */
        field_pow(m, gi, gm, e, w);
        powers(m, pl->gpow, gm, NULL, n);
        powers(m, pl->iscale, gi, ninv, n);
        pl->iss = 1;
    } else {
        fa_copy(pl->iscale, ninv, w);
        pl->iss = 0;
    }
    fa_copy(pl->r2, m->r2, w);
    pl->post = (opts->flags & NTT_FIELD_FLAG_MONTGOMERY) ? NULL : pl->r2;

    if (pl->threads > 1) {
        ntt_status s = ntt_pool_create(&pl->pool, pl->threads, NTT_POOL_SPIN_NS);
        if (s != NTT_OK) {
            const int th = pl->threads;
            plan_free(pl);
            return ntt_fail(s, "the plan's %d threads could not be started", th);
        }
    }
    *out = pl;
    return NTT_OK;
}

/* ---- drivers --------------------------------------------------------------- */

/* Swaps element i with element brv(i) for i in [i0, i1) with i < brv(i):
   each pair is swapped once, by the unit holding its smaller index. */
static void bitrev_range(const ntt_field_plan *pl, uint64_t *a, size_t i0, size_t i1)
{
    const size_t w = pl->w;
    for (size_t i = i0; i < i1; i++) {
        const size_t j = brv(i, pl->logn);
        if (i < j) {
            uint64_t t[NTT_FIELD_MAX_WORDS];
            memcpy(t, a + i * w, w * sizeof(uint64_t));
            memcpy(a + i * w, a + j * w, w * sizeof(uint64_t));
            memcpy(a + j * w, t, w * sizeof(uint64_t));
        }
    }
}

/* One item, on the calling thread. */
static void forward_serial(const ntt_field_plan *pl, uint64_t *a, bool perm)
{
    const field_kern *k = pl->k;
    const size_t h = pl->n / 2, w = pl->w;
    k->fwd_top(&pl->m, a, h, pl->gpow, 0, h);
    if (h > 1) {
        k->fwd_tree(&pl->m, a, h / 2, 0, pl->tw);
        k->fwd_tree(&pl->m, a + h * w, h / 2, 1, pl->tw);
    }
    if (perm) bitrev_range(pl, a, 0, pl->n);
}

static void inverse_serial(const ntt_field_plan *pl, uint64_t *a, bool perm)
{
    const field_kern *k = pl->k;
    const size_t h = pl->n / 2, w = pl->w;
    if (perm) bitrev_range(pl, a, 0, pl->n);
    if (h > 1) {
        k->inv_tree(&pl->m, a, h / 2, 0, pl->itw);
        k->inv_tree(&pl->m, a + h * w, h / 2, 1, pl->itw);
    }
    k->inv_top(&pl->m, a, h, pl->iscale, pl->iss, 0, h);
}

/*
 * One item on all the plan's threads.  The phases: the levels whose nodes
 * are fewer than the units, each split by butterfly positions (a unit: a
 * range of the level's n/2 butterflies); then one phase of whole subtrees;
 * and the permutation, split by positions.  The inverse runs them in the
 * reverse order.  Every butterfly computes the same words whichever thread
 * runs it.
 */
typedef struct par_job {
    const ntt_field_plan *pl;
    uint64_t *a;
    bool inverse;
    unsigned levels; /* levels split by positions: nodes 1 .. 2^levels - 1 */
    size_t units;    /* units of a positions phase */
    bool perm;       /* a permutation phase */
} par_job;

static void unit_range(size_t total, size_t units, size_t u, size_t *b, size_t *e)
{
    *b = total / units * u + (u < total % units ? u : total % units);
    *e = *b + total / units + (u < total % units);
}

/* Butterflies [b, e) of level t (2^t nodes of half-size h = n / 2^(t+1)). */
static void level_range(const ntt_field_plan *pl, uint64_t *a, unsigned t, size_t b, size_t e,
                        bool inverse)
{
    const field_kern *k = pl->k;
    const size_t w = pl->w, h = pl->n >> (t + 1);
    while (b < e) {
        const size_t node = b / h, j0 = b % h;
        const size_t j1 = (e - node * h < h) ? e - node * h : h;
        uint64_t *blk = a + node * 2 * h * w;
        if (t == 0) {
            if (inverse) k->inv_top(&pl->m, blk, h, pl->iscale, pl->iss, j0, j1);
            else k->fwd_top(&pl->m, blk, h, pl->gpow, j0, j1);
        } else {
            if (inverse) k->inv_node(&pl->m, blk, h, pl->itw + node * w, j0, j1);
            else k->fwd_node(&pl->m, blk, h, pl->tw + node * w, j0, j1);
        }
        b += j1 - j0;
    }
}

static void par_unit(void *arg, unsigned phase, size_t unit, int thread)
{
    (void)thread;
    const par_job *J = arg;
    const ntt_field_plan *pl = J->pl;
    const unsigned L = J->levels;
    /* Phase order, forward: levels 0 .. L-1, subtrees, permutation;
       inverse: permutation, subtrees, levels L-1 .. 0. */
    unsigned ph = phase;
    if (J->inverse && J->perm) {
        if (ph == 0) goto perm;
        ph--;
    }
    if (!J->inverse) {
        if (ph < L) {
            size_t b, e;
            unit_range(pl->n / 2, J->units, unit, &b, &e);
            level_range(pl, J->a, ph, b, e, false);
            return;
        }
        if (ph == L) {
            const size_t h = pl->n >> (L + 1);
            pl->k->fwd_tree(&pl->m, J->a + unit * 2 * h * pl->w, h, unit, pl->tw);
            return;
        }
        goto perm;
    }
    if (ph == 0) {
        const size_t h = pl->n >> (L + 1);
        pl->k->inv_tree(&pl->m, J->a + unit * 2 * h * pl->w, h, unit, pl->itw);
        return;
    }
    {
        size_t b, e;
        unit_range(pl->n / 2, J->units, unit, &b, &e);
        level_range(pl, J->a, L - ph, b, e, true);
    }
    return;
perm : {
    size_t b, e;
    unit_range(pl->n, J->units, unit, &b, &e);
    bitrev_range(pl, J->a, b, e);
}
}

/* perm: the natural-order permutation (the public calls of a plan with
   NTT_FLAG_NATURAL_ORDER; never the products, whose pointwise step takes
   the spectra in any order). */
static void transform_one(const ntt_field_plan *pl, uint64_t *a, bool inverse, bool perm)
{
    const int th = ntt_pool_threads(pl->pool);
    if (th <= 1 || pl->n < FIELD_PAR_MIN) {
        if (inverse) inverse_serial(pl, a, perm);
        else forward_serial(pl, a, perm);
        return;
    }
    par_job J = {.pl = pl, .a = a, .inverse = inverse,
                 .units = (size_t)th * FIELD_UNITS_PER_THREAD, .perm = perm};
    /* Split by positions until the subtrees are at least the units. */
    unsigned L = 1;
    while (((size_t)1 << L) < J.units && L + 1 < pl->logn) L++;
    J.levels = L;
    ntt_pool_job job = {.fn = par_unit, .arg = &J, .phases = 0};
    if (J.perm && inverse) job.units[job.phases++] = J.units;
    if (inverse) job.units[job.phases++] = (size_t)1 << L;
    for (unsigned t = 0; t < L; t++) job.units[job.phases++] = J.units;
    if (!inverse) job.units[job.phases++] = (size_t)1 << L;
    if (J.perm && !inverse) job.units[job.phases++] = J.units;
    ntt_pool_run(pl->pool, &job);
}

/* Items of a batch, one per unit. */
typedef struct batch_job {
    const ntt_field_plan *pl;
    uint64_t *a, *c;
    const uint64_t *x, *y;
    size_t stride, units, count;
    int op; /* 0 forward, 1 inverse, 2 pointwise */
} batch_job;

static void pointwise_range(const ntt_field_plan *pl, uint64_t *c, const uint64_t *a,
                            const uint64_t *b, size_t i0, size_t i1)
{
    pl->k->pointwise(&pl->m, c, a, b, pl->post, i0, i1);
}

static void batch_unit(void *arg, unsigned phase, size_t unit, int thread)
{
    (void)phase;
    (void)thread;
    const batch_job *B = arg;
    const ntt_field_plan *pl = B->pl;
    const size_t off = unit * B->stride * pl->w;
    const bool perm = pl->flags & NTT_FLAG_NATURAL_ORDER;
    if (B->op == 0) forward_serial(pl, B->a + off, perm);
    else if (B->op == 1) inverse_serial(pl, B->a + off, perm);
    else pointwise_range(pl, B->c + off, B->x + off, B->y + off, 0, pl->n);
}

static void pw_unit(void *arg, unsigned phase, size_t unit, int thread)
{
    (void)phase;
    (void)thread;
    const batch_job *B = arg;
    size_t b, e;
    unit_range(B->pl->n, B->units, unit, &b, &e);
    pointwise_range(B->pl, B->c, B->x, B->y, b, e);
}

static void pointwise_one(const ntt_field_plan *pl, uint64_t *c, const uint64_t *a,
                          const uint64_t *b)
{
    const int th = ntt_pool_threads(pl->pool);
    if (th <= 1 || pl->n < FIELD_PAR_MIN) {
        pointwise_range(pl, c, a, b, 0, pl->n);
        return;
    }
    batch_job B = {.pl = pl, .c = c, .x = a, .y = b,
                   .units = (size_t)th * FIELD_UNITS_PER_THREAD};
    ntt_pool_for(pl->pool, B.units, pw_unit, &B);
}

static void run_batch(const ntt_field_plan *pl, int op, uint64_t *a, uint64_t *c,
                      const uint64_t *x, const uint64_t *y, size_t count, size_t stride)
{
    if (count == 1 || ntt_pool_threads(pl->pool) <= 1) {
        const bool perm = pl->flags & NTT_FLAG_NATURAL_ORDER;
        for (size_t i = 0; i < count; i++) {
            const size_t off = i * stride * pl->w;
            if (op == 0) transform_one(pl, a + off, false, perm);
            else if (op == 1) transform_one(pl, a + off, true, perm);
            else pointwise_one(pl, c + off, x + off, y + off);
        }
        return;
    }
    batch_job B = {.pl = pl, .a = a, .c = c, .x = x, .y = y, .stride = stride, .op = op,
                   .count = count};
    ntt_pool_for(pl->pool, count, batch_unit, &B);
}

/* ---- checked public calls ---------------------------------------------- */

/* NTT_ERANGE naming the first element >= p of count items (n each, stride
   apart) of operand `name`; NTT_OK if none. */
static ntt_status check_range(const ntt_field_plan *pl, const char *name, const uint64_t *a,
                              size_t len, size_t count, size_t stride)
{
    for (size_t i = 0; i < count; i++) {
        const size_t bad = field_first_geq(&pl->m, a + i * stride * pl->w, len);
        if (bad < len) {
            if (count == 1) return ntt_fail(NTT_ERANGE, "%s[%zu] is not below p", name, bad);
            return ntt_fail(NTT_ERANGE, "%s[%zu] of item %zu is not below p", name, bad, i);
        }
    }
    return NTT_OK;
}

static ntt_status transform_checked(ntt_field_plan *pl, uint64_t *a, size_t count, size_t stride,
                                    bool inverse)
{
    ntt_detail_clear();
    if (!pl || !a) return ntt_fail(NTT_EINVAL, "%s is NULL", !pl ? "plan" : "a");
    if (count > 1 && stride < pl->n)
        return ntt_fail(NTT_EINVAL, "stride = %zu is below n = %zu", stride, pl->n);
    ntt_status s = check_range(pl, "a", a, pl->n, count, stride);
    if (s != NTT_OK) return s;
    run_batch(pl, inverse ? 1 : 0, a, NULL, NULL, NULL, count, stride);
    return NTT_OK;
}

ntt_status ntt_field_forward(ntt_field_plan *plan, uint64_t *a)
{
    return transform_checked(plan, a, 1, plan ? plan->n : 0, false);
}

ntt_status ntt_field_inverse(ntt_field_plan *plan, uint64_t *a)
{
    return transform_checked(plan, a, 1, plan ? plan->n : 0, true);
}

ntt_status ntt_field_forward_batch(ntt_field_plan *plan, uint64_t *a, size_t count, size_t stride)
{
    return transform_checked(plan, a, count, stride, false);
}

ntt_status ntt_field_inverse_batch(ntt_field_plan *plan, uint64_t *a, size_t count, size_t stride)
{
    return transform_checked(plan, a, count, stride, true);
}

/* c aliasing x exactly is allowed, any other overlap of the count items'
   spans is not. */
static bool partial_overlap(const ntt_field_plan *pl, const uint64_t *c, const uint64_t *x,
                            size_t count, size_t stride)
{
    if (c == x) return false;
    const size_t bytes = ((count - 1) * stride + pl->n) * pl->w * sizeof(uint64_t);
    return ntt_overlaps(c, bytes, x, bytes);
}

ntt_status ntt_field_pointwise_batch(ntt_field_plan *pl, uint64_t *c, const uint64_t *a,
                                     const uint64_t *b, size_t count, size_t stride)
{
    ntt_detail_clear();
    if (!pl || !c || !a || !b)
        return ntt_fail(NTT_EINVAL, "%s is NULL", !pl ? "plan" : !c ? "c" : !a ? "a" : "b");
    if (count > 1 && stride < pl->n)
        return ntt_fail(NTT_EINVAL, "stride = %zu is below n = %zu", stride, pl->n);
    if (count == 0) return NTT_OK;
    if (partial_overlap(pl, c, a, count, stride) || partial_overlap(pl, c, b, count, stride))
        return ntt_fail(NTT_EINVAL, "c partly overlaps a or b");
    ntt_status s = check_range(pl, "a", a, pl->n, count, stride);
    if (s == NTT_OK) s = check_range(pl, "b", b, pl->n, count, stride);
    if (s != NTT_OK) return s;
    run_batch(pl, 2, NULL, c, a, b, count, stride);
    return NTT_OK;
}

ntt_status ntt_field_pointwise(ntt_field_plan *plan, uint64_t *c, const uint64_t *a,
                               const uint64_t *b)
{
    return ntt_field_pointwise_batch(plan, c, a, b, 1, plan ? plan->n : 0);
}

/* c = a b mod (x^n - shift^n), c holding a's n words (transformed in place)
   and t b's. */
static void product(const ntt_field_plan *pl, uint64_t *c, uint64_t *t)
{
    transform_one(pl, c, false, false);
    transform_one(pl, t, false, false);
    pointwise_one(pl, c, c, t);
    transform_one(pl, c, true, false);
}

ntt_status ntt_field_polymul(ntt_field_plan *pl, uint64_t *c, const uint64_t *a, const uint64_t *b)
{
    ntt_detail_clear();
    if (!pl || !c || !a || !b)
        return ntt_fail(NTT_EINVAL, "%s is NULL", !pl ? "plan" : !c ? "c" : !a ? "a" : "b");
    if (partial_overlap(pl, c, a, 1, pl->n) || partial_overlap(pl, c, b, 1, pl->n))
        return ntt_fail(NTT_EINVAL, "c partly overlaps a or b");
    ntt_status s = check_range(pl, "a", a, pl->n, 1, pl->n);
    if (s == NTT_OK) s = check_range(pl, "b", b, pl->n, 1, pl->n);
    if (s != NTT_OK) return s;
    const size_t bytes = pl->n * pl->w * sizeof(uint64_t);
    memcpy(pl->scratch, b, bytes);
    if (c != a) memmove(c, a, bytes);
    product(pl, c, pl->scratch);
    return NTT_OK;
}

ntt_status ntt_field_polymul_linear(ntt_field_plan *pl, uint64_t *c, const uint64_t *a, size_t la,
                                    const uint64_t *b, size_t lb)
{
    ntt_detail_clear();
    if (!pl || !c || !a || !b)
        return ntt_fail(NTT_EINVAL, "%s is NULL", !pl ? "plan" : !c ? "c" : !a ? "a" : "b");
    if (la == 0 || lb == 0) return ntt_fail(NTT_EINVAL, "la = %zu, lb = %zu: both must be >= 1", la, lb);
    if (la > pl->n || lb > pl->n || la + lb - 1 > pl->n)
        return ntt_fail(NTT_EINVAL, "la + lb - 1 = %zu exceeds n = %zu", la + lb - 1, pl->n);
    const size_t w = pl->w, lc = la + lb - 1, eb = w * sizeof(uint64_t);
    if (ntt_overlaps(c, lc * eb, a, la * eb) || ntt_overlaps(c, lc * eb, b, lb * eb))
        return ntt_fail(NTT_EINVAL, "c overlaps a or b");
    ntt_status s = check_range(pl, "a", a, la, 1, la);
    if (s == NTT_OK) s = check_range(pl, "b", b, lb, 1, lb);
    if (s != NTT_OK) return s;
    uint64_t *x = pl->scratch, *y = pl->scratch + pl->n * w;
    memcpy(x, a, la * eb);
    memset(x + la * w, 0, (pl->n - la) * eb);
    memcpy(y, b, lb * eb);
    memset(y + lb * w, 0, (pl->n - lb) * eb);
    product(pl, x, y);
    memcpy(c, x, lc * eb);
    return NTT_OK;
}
