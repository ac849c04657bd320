/* Plan creation, argument validation and dispatch to the backend ops. */
#include "addon_plan.h"

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

/* Every plan is made here: a library backend's (addon NULL) or an add-on's
   (addon.h), which runs through the adapter ops. */
static ntt_status plan_create(ntt_plan **out, size_t n, const uint64_t *moduli, size_t count,
                              ntt_width width, ntt_backend backend, const ntt_plan_options *opts,
                              const ntt_variant_options *vopts, const ntt_addon_init *addon)
{
    if (!out) return NTT_EINVAL;
    *out = NULL;
    if (!moduli || count == 0 || !pow2_in_range(n)) return NTT_EINVAL;
    if (width != NTT_U32 && width != NTT_U64) return NTT_EINVAL;
    ntt_plan_options o = {0};
    if (opts) o = *opts;
    ntt_variant_options vo = {NTT_VARIANT_FAST, 0};
    if (vopts) vo = *vopts;
    if ((unsigned)o.modmul > NTT_MODMUL_SHOUP || (unsigned)vo.variant >= NTT_VARIANT_COUNT ||
        (o.flags & ~(NTT_FLAG_NEGACYCLIC | NTT_FLAG_NATURAL_ORDER)) != 0 || o.threads < 0)
        return NTT_EINVAL;
    if (o.batch == 0) o.batch = 1;
    if (vo.cuda_block == 0) vo.cuda_block = 128;
    if (vo.cuda_block < 32 || vo.cuda_block > 1024 || (vo.cuda_block & (vo.cuda_block - 1)) != 0 ||
        o.batch > ((size_t)1 << 40) / n)
        return NTT_EINVAL;
    if ((unsigned)backend >= NTT_BACKEND_COUNT) return NTT_EINVAL;
    if (backend == NTT_BACKEND_AUTO) backend = ntt_backend_resolve_auto();
    const ntt_backend_ops *ops = ntt_backend_lookup(backend);
    if (!ops || !ops->available()) return NTT_EUNSUPPORTED;
    if (addon) {
        if (!addon->ops->supports(backend, o.modmul, addon->arg)) return NTT_EUNSUPPORTED;
        ops = &ntt_addon_backend_ops;
    }

    ntt_plan *plan = calloc(1, sizeof *plan);
    if (!plan) return NTT_ENOMEM;
    plan->n = n;
    plan->logn = ntt_log2(n);
    plan->width = width;
    plan->flags = o.flags;
    plan->modmul = o.modmul;
    plan->variant = vo.variant;
    plan->threads = o.threads;
    plan->batch = o.batch;
    plan->cuda_block = vo.cuda_block;
    plan->backend = backend;
    plan->mod = calloc(count, sizeof *plan->mod);
    plan->moduli = malloc(count * sizeof *plan->moduli);
    if (!plan->mod || !plan->moduli) {
        ntt_plan_destroy(plan);
        return NTT_ENOMEM;
    }
    memcpy(plan->moduli, moduli, count * sizeof *moduli);
    plan->nmod = count;
    for (size_t i = 0; i < count; i++) {
        ntt_status s = ntt_modulus_init(&plan->mod[i], moduli[i], n, width, o.flags);
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
    *out = plan;
    return NTT_OK;
}

ntt_status ntt_plan_create_ladder(ntt_plan **plan, size_t n, const uint64_t *moduli,
                                   size_t count, ntt_width width, ntt_backend backend,
                                  const ntt_plan_options *opts, const ntt_variant_options *vopts)
{
    return plan_create(plan, n, moduli, count, width, backend, opts, vopts, NULL);
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
    return plan_create(plan, n, moduli, count, width, backend, opts, NULL, &in);
}

ntt_status ntt_plan_create_rns(ntt_plan **plan, size_t n, const uint64_t *moduli, size_t count,
                               ntt_width width, ntt_backend backend,
                               const ntt_plan_options *opts)
{
    return plan_create(plan, n, moduli, count, width, backend, opts, NULL, NULL);
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
ntt_variant ntt_plan_ladder(const ntt_plan *plan) { return plan ? plan->variant : NTT_VARIANT_FAST; }

size_t ntt_plan_moduli(const ntt_plan *plan, const uint64_t **moduli)
{
    if (!plan) return 0;
    if (moduli) *moduli = plan->moduli;
    return plan->nmod;
}

/* ---- validation ----------------------------------------------------------- */

/* 1 if any of the batch's inputs is >= its modulus. */
bool ntt_out_of_range(const ntt_plan *plan, const void *a, size_t len, size_t count,
                      size_t stride)
{
    for (size_t it = 0; it < count; it++) {
        const uint64_t p = plan->mod[it % plan->nmod].p;
        const bool bad = plan->width == NTT_U32
                             ? ntt_any_geq_u32((const uint32_t *)a + it * stride, len, (uint32_t)p)
                             : ntt_any_geq_u64((const uint64_t *)a + it * stride, len, p);
        if (bad) return true;
    }
    return false;
}

static ntt_status check_call(const ntt_plan *plan, ntt_width w, const void *p1, const void *p2,
                             const void *p3, size_t count, size_t stride)
{
    if (!plan || !p1 || !p2 || !p3) return NTT_EINVAL;
    if (plan->width != w) return NTT_EINVAL;
    if (count > 0 && stride < plan->n) return NTT_EINVAL;
    /* The batch's last element index must not overflow. */
    if (count > 1 && stride > (SIZE_MAX / 8 - plan->n) / (count - 1)) return NTT_EINVAL;
    return NTT_OK;
}

bool ntt_operands_out_of_range(const ntt_plan *plan, const void *a, size_t la, const void *b,
                               size_t lb, size_t count, size_t stride)
{
    return ntt_out_of_range(plan, a, la, count, stride) ||
           ntt_out_of_range(plan, b, lb, count, stride);
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

static ntt_status run_transform(ntt_plan *plan, ntt_width w, void *a, size_t count, size_t stride,
                                bool inverse)
{
    ntt_status s = check_call(plan, w, a, a, a, count, stride);
    if (s != NTT_OK || count == 0) return s;
    if (ntt_out_of_range(plan, a, plan->n, count, stride)) return NTT_ERANGE;
    const ntt_backend_ops *ops = plan->ops;
    if (inverse)
        return (ops->inverse ? ops->inverse : ntt_scalar_ops.inverse)(plan, a, count, stride);
    return (ops->forward ? ops->forward : ntt_scalar_ops.forward)(plan, a, count, stride);
}

static ntt_status run_pointwise(ntt_plan *plan, ntt_width w, void *c, const void *a,
                                const void *b, size_t count, size_t stride)
{
    ntt_status s = check_call(plan, w, c, a, b, count, stride);
    if (s != NTT_OK || count == 0) return s;
    const ntt_backend_ops *ops = plan->ops;
    if (!(ops->pointwise && ops->pointwise_checks_inputs) &&
        ntt_operands_out_of_range(plan, a, plan->n, b, plan->n, count, stride))
        return NTT_ERANGE;
    return (ops->pointwise ? ops->pointwise : ntt_scalar_ops.pointwise)(plan, c, a, b, count,
                                                                       stride);
}

static ntt_status run_polymul(ntt_plan *plan, ntt_width w, void *c, const void *a, const void *b,
                              size_t count, size_t stride)
{
    ntt_status s = check_call(plan, w, c, a, b, count, stride);
    if (s != NTT_OK || count == 0) return s;
    if (product_out_of_range(plan, a, plan->n, b, plan->n, count, stride)) return NTT_ERANGE;
    const ntt_backend_ops *ops = plan->ops;
    const size_t n = plan->n;
    return (ops->polymul ? ops->polymul : ntt_scalar_ops.polymul)(plan, c, n, a, n, b, n, count,
                                                                 stride, false);
}

static ntt_status run_linear(ntt_plan *plan, ntt_width w, void *c, const void *a, size_t la,
                             const void *b, size_t lb)
{
    ntt_status s = check_call(plan, w, c, a, b, 1, plan ? plan->n : 0);
    if (s != NTT_OK) return s;
    if (la == 0 || lb == 0 || la > plan->n || lb > plan->n - la + 1) return NTT_EINVAL;
    const size_t e = w == NTT_U32 ? 4 : 8, lc = la + lb - 1;
    if (ntt_overlaps(c, lc * e, a, la * e) || ntt_overlaps(c, lc * e, b, lb * e)) return NTT_EINVAL;
    if (product_out_of_range(plan, a, la, b, lb, 1, plan->n)) return NTT_ERANGE;
    const ntt_backend_ops *ops = plan->ops;
    return (ops->polymul ? ops->polymul : ntt_scalar_ops.polymul)(plan, c, lc, a, la, b, lb, 1,
                                                                 plan->n, false);
}

#define NTT_EXEC_API(SUF, TY, W)                                                             \
    ntt_status ntt_forward_##SUF(ntt_plan *plan, TY *a)                                      \
    { return run_transform(plan, W, a, 1, plan ? plan->n : 0, false); }                      \
    ntt_status ntt_inverse_##SUF(ntt_plan *plan, TY *a)                                      \
    { return run_transform(plan, W, a, 1, plan ? plan->n : 0, true); }                       \
    ntt_status ntt_pointwise_##SUF(ntt_plan *plan, TY *c, const TY *a, const TY *b)          \
    { return run_pointwise(plan, W, c, a, b, 1, plan ? plan->n : 0); }                       \
    ntt_status ntt_polymul_##SUF(ntt_plan *plan, TY *c, const TY *a, const TY *b)            \
    { return run_polymul(plan, W, c, a, b, 1, plan ? plan->n : 0); }                         \
    ntt_status ntt_forward_batch_##SUF(ntt_plan *plan, TY *a, size_t count, size_t stride)   \
    { return run_transform(plan, W, a, count, stride, false); }                              \
    ntt_status ntt_inverse_batch_##SUF(ntt_plan *plan, TY *a, size_t count, size_t stride)   \
    { return run_transform(plan, W, a, count, stride, true); }                               \
    ntt_status ntt_pointwise_batch_##SUF(ntt_plan *plan, TY *c, const TY *a, const TY *b,    \
                                         size_t count, size_t stride)                        \
    { return run_pointwise(plan, W, c, a, b, count, stride); }                               \
    ntt_status ntt_polymul_batch_##SUF(ntt_plan *plan, TY *c, const TY *a, const TY *b,      \
                                       size_t count, size_t stride)                          \
    { return run_polymul(plan, W, c, a, b, count, stride); }                                \
    ntt_status ntt_polymul_linear_##SUF(ntt_plan *plan, TY *c, const TY *a, size_t la,       \
                                        const TY *b, size_t lb)                              \
    { return run_linear(plan, W, c, a, la, b, lb); }

NTT_EXEC_API(u32, uint32_t, NTT_U32)
NTT_EXEC_API(u64, uint64_t, NTT_U64)
