/* Plan creation, argument validation and dispatch to the backend ops. */
#include "addon_plan.h"
#include "detail.h"
#include "internal.h"
#include "planner.h"
#include "registry.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static bool pow2_in_range(size_t n)
{
    return n >= 2 && (n & (n - 1)) == 0 && n <= ((size_t)1 << NTT_MAX_LOG2_N);
}

void ntt_plan_destroy(ntt_plan *plan)
{
    if (!plan) return;
    if (plan->ops && plan->ops->plan_free) plan->ops->plan_free(plan);
    for (size_t i = 0; i < plan->nmod; i++) ntt_modulus_free(&plan->mod[i]);
    free(plan->mod);
    free(plan->moduli);
    free(plan);
}

/* Builds the plan of rq with cfg; addon: an add-on's plan (addon.h), which
   runs through the adapter ops.  The choice is recorded as the rule's. */
static ntt_status plan_build(ntt_plan **out, const ntt_plan_request *rq,
                             const ntt_plan_config *cfg, const ntt_addon_init *addon)
{
    *out = NULL;
    /* The backend's table, or the threaded driver over its kernels. */
    const ntt_backend_ops *ops =
        addon ? &ntt_addon_backend_ops : ntt_backend_exec_ops(cfg->backend, cfg->threads);
    ntt_plan *plan = calloc(1, sizeof *plan);
    if (!plan) return NTT_ENOMEM;
    const size_t n = rq->n, count = rq->count;
    plan->n = n;
    plan->logn = ntt_log2(n);
    plan->width = rq->width;
    plan->flags = rq->o.flags;
    plan->modmul = cfg->modmul;
    plan->threads = cfg->threads;
    plan->cpu_kernels = ntt_backend_kernels(cfg->backend);
    plan->run_threads = ntt_backend_thread_count(cfg->backend, cfg->threads);
    plan->k64 = cfg->k64;
    plan->batch = rq->o.batch;
    plan->backend = cfg->backend;
    plan->mod = calloc(count, sizeof *plan->mod);
    plan->moduli = malloc(count * sizeof *plan->moduli);
    if (!plan->mod || !plan->moduli) {
        ntt_plan_destroy(plan);
        return NTT_ENOMEM;
    }
    memcpy(plan->moduli, rq->moduli, count * sizeof *rq->moduli);
    plan->nmod = count;
    for (size_t i = 0; i < count; i++) {
        ntt_status s = ntt_modulus_init(&plan->mod[i], rq->moduli[i], n, rq->width, rq->o.flags);
        if (s != NTT_OK) {
            ntt_plan_destroy(plan);
            return s;
        }
    }
    plan->backend_data = (void *)addon; /* what the adapter's plan_init reads */
    ntt_status s = ops->plan_init(plan);
    plan->ops = ops; /* after init: plan_free runs only on an initialised plan */
    if (s != NTT_OK) {
        /* plan_init cleans up after itself on failure. */
        plan->ops = NULL;
        ntt_plan_destroy(plan);
        return s;
    }
    for (size_t i = 0; i < count; i++) ntt_modulus_free(&plan->mod[i]);
    ntt_plan_choice_info *c = &plan->choice;
    c->mode = rq->o.mode;
    c->source = NTT_CHOSEN_BY_RULE;
    c->backend = plan->backend;
    c->modmul = plan->modmul;
    c->threads = plan->run_threads;
    const char *name = "addon";
    if (!addon) (void)ntt_backend_kernels_for(plan->backend, plan, &plan->mod[0], &name);
    snprintf(c->kernels, sizeof c->kernels, "%s", name);
    *out = plan;
    return NTT_OK;
}

ntt_status ntt_plan_build(ntt_plan **out, const ntt_plan_request *rq, const ntt_plan_config *cfg)
{
    return plan_build(out, rq, cfg, NULL);
}

/* Every plan is made here: a library backend's (addon NULL) or an add-on's
   (addon.h).  Checks everything, then builds by the rules (ESTIMATE, an
   add-on) or through the planner. */
static ntt_status plan_create(ntt_plan **out, size_t n, const uint64_t *moduli, size_t count,
                              ntt_width width, ntt_backend backend, const ntt_plan_options *opts,
                              const ntt_addon_init *addon)
{
    ntt_detail_clear();
    if (!out) return ntt_fail(NTT_EINVAL, "the plan pointer is NULL");
    *out = NULL;
    if (!moduli || count == 0 || !pow2_in_range(n))
        return ntt_fail(NTT_EINVAL, "n = %zu must be a power of two in [2, 2^%d], moduli non-NULL "
                        "(%s) and count >= 1 (%zu)", n, NTT_MAX_LOG2_N, moduli ? "it is" : "NULL",
                        count);
    if (width != NTT_U32 && width != NTT_U64)
        return ntt_fail(NTT_EINVAL, "width %d is neither NTT_U32 nor NTT_U64", (int)width);
    ntt_plan_options o = {0};
    if (opts) o = *opts;
    if ((unsigned)o.modmul > NTT_MODMUL_SHOUP ||
        (o.flags & ~(NTT_FLAG_NEGACYCLIC | NTT_FLAG_NATURAL_ORDER)) != 0 || o.threads < 0)
        return ntt_fail(NTT_EINVAL, "an option out of range: modmul %d, flags 0x%x, threads %d "
                        "(modmul 0..NTT_MODMUL_SHOUP, flags NEGACYCLIC and NATURAL_ORDER only, "
                        "threads >= 0)", (int)o.modmul, o.flags, o.threads);
    if ((unsigned)o.mode > NTT_PLAN_WISDOM_ONLY || (unsigned)o.work > NTT_WORK_POLYMUL ||
        !(o.time_limit >= 0))
        return ntt_fail(NTT_EINVAL, "a planner option out of range: mode %d, work %d, time_limit "
                        "%g (mode 0..NTT_PLAN_WISDOM_ONLY, work 0..NTT_WORK_POLYMUL, time_limit "
                        ">= 0)", (int)o.mode, (int)o.work, o.time_limit);
    if (o.batch == 0) o.batch = 1;
    if (o.batch > ((size_t)1 << 40) / n)
        return ntt_fail(NTT_EINVAL, "batch %zu (at most 2^40 / n = %zu) out of range", o.batch,
                        ((size_t)1 << 40) / n);
    if ((unsigned)backend >= NTT_BACKEND_COUNT)
        return ntt_fail(NTT_EINVAL, "backend %d is not an ntt_backend", (int)backend);
    const bool auto_free = backend == NTT_BACKEND_AUTO && ntt_backend_auto_free();
    ntt_status rs = ntt_backend_resolve(&backend);
    if (rs != NTT_OK) return rs;
    if (!ntt_backend_available(backend)) return ntt_fail_backend(backend);
    if (addon && !addon->ops->supports(backend, o.modmul, addon->arg))
        return ntt_fail(NTT_EUNSUPPORTED, "the add-on does not offer this backend with "
                                          "this modular multiplication");
    const ntt_plan_request rq = {n, moduli, count, width, backend, auto_free, o};
    if (!addon && o.mode != NTT_PLAN_ESTIMATE) return ntt_planner_create(out, &rq);
    const ntt_plan_config cfg = {backend, o.modmul, o.threads, NTT_K64_RULE};
    return plan_build(out, &rq, &cfg, addon);
}

ntt_status ntt_plan_create_addon(ntt_plan **plan, size_t n, const uint64_t *moduli, size_t count,
                                 ntt_width width, ntt_backend backend,
                                 const ntt_plan_options *opts, const ntt_addon_ops *ops,
                                 const void *arg)
{
    if (!ops) {
        if (plan) *plan = NULL;
        return NTT_EINVAL;
    }
    const ntt_addon_init in = {ops, arg};
    return plan_create(plan, n, moduli, count, width, backend, opts, &in);
}

ntt_status ntt_plan_create_rns(ntt_plan **plan, size_t n, const uint64_t *moduli, size_t count,
                               ntt_width width, ntt_backend backend,
                               const ntt_plan_options *opts)
{
    return plan_create(plan, n, moduli, count, width, backend, opts, NULL);
}

ntt_status ntt_plan_create(ntt_plan **plan, size_t n, uint64_t p, ntt_width width,
                           ntt_backend backend, const ntt_plan_options *opts)
{
    return ntt_plan_create_rns(plan, n, &p, 1, width, backend, opts);
}

size_t ntt_plan_size(const ntt_plan *plan) { return plan ? plan->n : 0; }
ntt_width ntt_plan_width(const ntt_plan *plan) { return plan ? plan->width : NTT_U32; }
ntt_backend ntt_plan_backend(const ntt_plan *plan) { return plan ? plan->backend : NTT_BACKEND_AUTO; }
ntt_modmul ntt_plan_modmul(const ntt_plan *plan) { return plan ? plan->modmul : NTT_MODMUL_DEFAULT; }

ntt_status ntt_plan_choice(const ntt_plan *plan, ntt_plan_choice_info *info)
{
    if (!plan || !info) return NTT_EINVAL;
    *info = plan->choice;
    return NTT_OK;
}

size_t ntt_plan_moduli(const ntt_plan *plan, const uint64_t **moduli)
{
    if (!plan) return 0;
    if (moduli) *moduli = plan->moduli;
    return plan->nmod;
}

ntt_status ntt_plan_root(const ntt_plan *plan, size_t i, uint64_t *root)
{
    if (!plan || !root || i >= plan->nmod) return NTT_EINVAL;
    *root = plan->mod[i].root;
    return NTT_OK;
}

/* ---- validation ----------------------------------------------------------- */

static ntt_status check_call(const ntt_plan *plan, ntt_width w, const void *p1, const void *p2,
                             const void *p3, size_t count, size_t stride)
{
    if (!plan || !p1 || !p2 || !p3)
        return ntt_fail(NTT_EINVAL, plan ? "an array pointer is NULL" : "the plan is NULL");
    if (plan->width != w)
        return ntt_fail(NTT_EINVAL, "a u%d call on a u%d plan", w == NTT_U32 ? 32 : 64,
                        plan->width == NTT_U32 ? 32 : 64);
    if (count > 0 && stride < plan->n)
        return ntt_fail(NTT_EINVAL, "stride %zu is below n = %zu", stride, plan->n);
    /* The batch's last element index must not overflow. */
    if (count > 1 && stride > (SIZE_MAX / 8 - plan->n) / (count - 1))
        return ntt_fail(NTT_EINVAL, "count %zu times stride %zu overflows", count, stride);
    return NTT_OK;
}


/* The products' check, unless the backend's polymul makes it itself. */
static bool product_out_of_range(const ntt_plan *plan, const void *a, size_t la, const void *b,
                                 size_t lb, size_t count, size_t stride)
{
    const ntt_backend_ops *ops = plan->ops;
    const bool checked_there =
        ops->polymul && (ops->polymul_checks_inputs || (ops->polymul_checks_single && count == 1));
    return !checked_there && ntt_operands_out_of_range(plan, a, la, b, lb, count, stride);
}

ntt_status ntt_exec_transform(ntt_plan *plan, void *a, size_t count, size_t stride, bool inverse)
{
    const ntt_backend_ops *ops = plan->ops;
    if (inverse) return NTT_OP(ops, inverse)(plan, a, count, stride);
    return NTT_OP(ops, forward)(plan, a, count, stride);
}

static ntt_status run_transform(ntt_plan *plan, ntt_width w, void *a, size_t count, size_t stride,
                                bool inverse)
{
    ntt_status s = check_call(plan, w, a, a, a, count, stride);
    if (s != NTT_OK || count == 0) return s;
    if (ntt_out_of_range(plan, a, plan->n, count, stride))
        return ntt_fail_range(plan, "a", a, plan->n, count, stride);
    return ntt_exec_transform(plan, a, count, stride, inverse);
}

static ntt_status run_pointwise(ntt_plan *plan, ntt_width w, void *c, const void *a,
                                const void *b, size_t count, size_t stride)
{
    ntt_status s = check_call(plan, w, c, a, b, count, stride);
    if (s != NTT_OK || count == 0) return s;
    const ntt_backend_ops *ops = plan->ops;
    if (!(ops->pointwise && ops->pointwise_checks_inputs) &&
        ntt_operands_out_of_range(plan, a, plan->n, b, plan->n, count, stride))
        return ntt_fail_operands_range(plan, a, plan->n, b, plan->n, count, stride);
    s = NTT_OP(ops, pointwise)(plan, c, a, b, count, stride);
    return ntt_detail_operands(s, plan, a, plan->n, b, plan->n, count, stride);
}

static ntt_status run_polymul(ntt_plan *plan, ntt_width w, void *c, const void *a, const void *b,
                              size_t count, size_t stride)
{
    ntt_status s = check_call(plan, w, c, a, b, count, stride);
    if (s != NTT_OK || count == 0) return s;
    if (product_out_of_range(plan, a, plan->n, b, plan->n, count, stride))
        return ntt_fail_operands_range(plan, a, plan->n, b, plan->n, count, stride);
    const ntt_backend_ops *ops = plan->ops;
    const size_t n = plan->n;
    s = NTT_OP(ops, polymul)(plan, c, n, a, n, b, n, count, stride, false);
    return ntt_detail_operands(s, plan, a, n, b, n, count, stride);
}

static ntt_status run_linear(ntt_plan *plan, ntt_width w, void *c, const void *a, size_t la,
                             const void *b, size_t lb)
{
    ntt_status s = check_call(plan, w, c, a, b, 1, plan ? plan->n : 0);
    if (s != NTT_OK) return s;
    if (la == 0 || lb == 0 || la > plan->n || lb > plan->n - la + 1)
        return ntt_fail(NTT_EINVAL, "la = %zu and lb = %zu must be >= 1, la + lb - 1 <= n = %zu",
                        la, lb, plan->n);
    const size_t e = w == NTT_U32 ? 4 : 8, lc = la + lb - 1;
    if (ntt_overlaps(c, lc * e, a, la * e) || ntt_overlaps(c, lc * e, b, lb * e))
        return ntt_fail(NTT_EINVAL, "c overlaps a or b");
    if (product_out_of_range(plan, a, la, b, lb, 1, plan->n))
        return ntt_fail_operands_range(plan, a, la, b, lb, 1, plan->n);
    const ntt_backend_ops *ops = plan->ops;
    s = NTT_OP(ops, polymul)(plan, c, lc, a, la, b, lb, 1, plan->n, false);
    return ntt_detail_operands(s, plan, a, la, b, lb, 1, plan->n);
}

/* The public calls, one line each into the shared run_* above. */
ntt_status ntt_forward_u32(ntt_plan *plan, uint32_t *a)
{ return run_transform(plan, NTT_U32, a, 1, plan ? plan->n : 0, false); }

ntt_status ntt_inverse_u32(ntt_plan *plan, uint32_t *a)
{ return run_transform(plan, NTT_U32, a, 1, plan ? plan->n : 0, true); }

ntt_status ntt_pointwise_u32(ntt_plan *plan, uint32_t *c, const uint32_t *a, const uint32_t *b)
{ return run_pointwise(plan, NTT_U32, c, a, b, 1, plan ? plan->n : 0); }

ntt_status ntt_polymul_u32(ntt_plan *plan, uint32_t *c, const uint32_t *a, const uint32_t *b)
{ return run_polymul(plan, NTT_U32, c, a, b, 1, plan ? plan->n : 0); }

ntt_status ntt_forward_batch_u32(ntt_plan *plan, uint32_t *a, size_t count, size_t stride)
{ return run_transform(plan, NTT_U32, a, count, stride, false); }

ntt_status ntt_inverse_batch_u32(ntt_plan *plan, uint32_t *a, size_t count, size_t stride)
{ return run_transform(plan, NTT_U32, a, count, stride, true); }

ntt_status ntt_pointwise_batch_u32(ntt_plan *plan, uint32_t *c, const uint32_t *a,
                                    const uint32_t *b, size_t count, size_t stride)
{ return run_pointwise(plan, NTT_U32, c, a, b, count, stride); }

ntt_status ntt_polymul_batch_u32(ntt_plan *plan, uint32_t *c, const uint32_t *a,
                                  const uint32_t *b, size_t count, size_t stride)
{ return run_polymul(plan, NTT_U32, c, a, b, count, stride); }

ntt_status ntt_polymul_linear_u32(ntt_plan *plan, uint32_t *c, const uint32_t *a, size_t la,
                                   const uint32_t *b, size_t lb)
{ return run_linear(plan, NTT_U32, c, a, la, b, lb); }

ntt_status ntt_forward_u64(ntt_plan *plan, uint64_t *a)
{ return run_transform(plan, NTT_U64, a, 1, plan ? plan->n : 0, false); }

ntt_status ntt_inverse_u64(ntt_plan *plan, uint64_t *a)
{ return run_transform(plan, NTT_U64, a, 1, plan ? plan->n : 0, true); }

ntt_status ntt_pointwise_u64(ntt_plan *plan, uint64_t *c, const uint64_t *a, const uint64_t *b)
{ return run_pointwise(plan, NTT_U64, c, a, b, 1, plan ? plan->n : 0); }

ntt_status ntt_polymul_u64(ntt_plan *plan, uint64_t *c, const uint64_t *a, const uint64_t *b)
{ return run_polymul(plan, NTT_U64, c, a, b, 1, plan ? plan->n : 0); }

ntt_status ntt_forward_batch_u64(ntt_plan *plan, uint64_t *a, size_t count, size_t stride)
{ return run_transform(plan, NTT_U64, a, count, stride, false); }

ntt_status ntt_inverse_batch_u64(ntt_plan *plan, uint64_t *a, size_t count, size_t stride)
{ return run_transform(plan, NTT_U64, a, count, stride, true); }

ntt_status ntt_pointwise_batch_u64(ntt_plan *plan, uint64_t *c, const uint64_t *a,
                                    const uint64_t *b, size_t count, size_t stride)
{ return run_pointwise(plan, NTT_U64, c, a, b, count, stride); }

ntt_status ntt_polymul_batch_u64(ntt_plan *plan, uint64_t *c, const uint64_t *a,
                                  const uint64_t *b, size_t count, size_t stride)
{ return run_polymul(plan, NTT_U64, c, a, b, count, stride); }

ntt_status ntt_polymul_linear_u64(ntt_plan *plan, uint64_t *c, const uint64_t *a, size_t la,
                                   const uint64_t *b, size_t lb)
{ return run_linear(plan, NTT_U64, c, a, la, b, lb); }
