/* The portable scalar backend: the reference fast path and the reports'
   baseline, for both element widths. */
#include "../core/internal.h"

#include <stdlib.h>
#include <string.h>

#define T uint32_t
#define SFX(name) name##_u32
#define W64 0
#include "scalar_impl.h"
#undef T
#undef SFX
#undef W64

#define T uint64_t
#define SFX(name) name##_u64
#define W64 1
#include "scalar_impl.h"
#undef T
#undef SFX
#undef W64

typedef struct {
    mod_u32 *m32; /* plan->nmod entries, for u32 plans */
    mod_u64 *m64; /* ... for u64 plans */
    void *ws;     /* 2n elements of polymul scratch */
} scalar_data;

static int scalar_available(void) { return 1; }

static void scalar_plan_free(ntt_plan *plan)
{
    scalar_data *d = plan->backend_data;
    if (!d) return;
    for (size_t i = 0; i < plan->nmod; i++) {
        if (d->m32) mod_free_u32(&d->m32[i]);
        if (d->m64) mod_free_u64(&d->m64[i]);
    }
    free(d->m32);
    free(d->m64);
    ntt_aligned_free(d->ws);
    free(d);
    plan->backend_data = NULL;
}

/* The fast path takes every kind; the reports' baseline reduces with %
   only; the GPU ladder variants are the CUDA backend's. */
static int scalar_supports(ntt_variant v, ntt_modmul m)
{
    if (v == NTT_VARIANT_FAST) return 1;
    return v == NTT_VARIANT_BASELINE && (m == NTT_MODMUL_DEFAULT || m == NTT_MODMUL_NAIVE);
}

static ntt_status scalar_plan_init(ntt_plan *plan)
{
    if (!scalar_supports(plan->variant, plan->modmul)) return NTT_EUNSUPPORTED;
    if (plan->modmul == NTT_MODMUL_DEFAULT)
        plan->modmul = plan->variant == NTT_VARIANT_BASELINE ? NTT_MODMUL_NAIVE : NTT_MODMUL_SHOUP;

    scalar_data *d = calloc(1, sizeof *d);
    if (!d) return NTT_ENOMEM;
    plan->backend_data = d;
    const bool tables = plan->variant == NTT_VARIANT_FAST;
    const size_t elem = plan->width == NTT_U32 ? 4 : 8;
    d->ws = ntt_aligned_alloc(2 * plan->n * elem);
    if (plan->width == NTT_U32)
        d->m32 = calloc(plan->nmod, sizeof *d->m32);
    else
        d->m64 = calloc(plan->nmod, sizeof *d->m64);
    if (!d->ws || (!d->m32 && !d->m64)) {
        scalar_plan_free(plan);
        return NTT_ENOMEM;
    }
    for (size_t i = 0; i < plan->nmod; i++) {
        ntt_status s = plan->width == NTT_U32
                           ? mod_init_u32(&d->m32[i], &plan->mod[i], plan->n, plan->modmul, tables)
                           : mod_init_u64(&d->m64[i], &plan->mod[i], plan->n, plan->modmul, tables);
        if (s != NTT_OK) {
            scalar_plan_free(plan);
            return s;
        }
    }
    return NTT_OK;
}

/* Item i of a batch uses modulus i % nmod. */
#define FOR_ITEMS(plan, count)                                   \
    scalar_data *d = (plan)->backend_data;                       \
    for (size_t it = 0; it < (count); it++)

static ntt_status scalar_forward(ntt_plan *plan, void *a, size_t count, size_t stride)
{
    FOR_ITEMS(plan, count) {
        size_t mi = it % plan->nmod;
        if (plan->width == NTT_U32)
            forward_item_u32(plan, (uint32_t *)a + it * stride, &d->m32[mi]);
        else
            forward_item_u64(plan, (uint64_t *)a + it * stride, &d->m64[mi]);
    }
    return NTT_OK;
}

static ntt_status scalar_inverse(ntt_plan *plan, void *a, size_t count, size_t stride)
{
    FOR_ITEMS(plan, count) {
        size_t mi = it % plan->nmod;
        if (plan->width == NTT_U32)
            inverse_item_u32(plan, (uint32_t *)a + it * stride, &d->m32[mi]);
        else
            inverse_item_u64(plan, (uint64_t *)a + it * stride, &d->m64[mi]);
    }
    return NTT_OK;
}

static ntt_status scalar_pointwise(ntt_plan *plan, void *c, const void *a, const void *b,
                                   size_t count, size_t stride)
{
    FOR_ITEMS(plan, count) {
        size_t mi = it % plan->nmod, o = it * stride;
        if (plan->width == NTT_U32)
            pointwise_item_u32(plan, (uint32_t *)c + o, (const uint32_t *)a + o,
                               (const uint32_t *)b + o, &d->m32[mi]);
        else
            pointwise_item_u64(plan, (uint64_t *)c + o, (const uint64_t *)a + o,
                               (const uint64_t *)b + o, &d->m64[mi]);
    }
    return NTT_OK;
}

static ntt_status scalar_polymul(ntt_plan *plan, void *c, size_t lc, const void *a, size_t la,
                                 const void *b, size_t lb, size_t count, size_t stride,
                                 bool io64)
{
    const size_t esz = io64 || plan->width == NTT_U64 ? 8 : 4;
    FOR_ITEMS(plan, count) {
        size_t mi = it % plan->nmod, o = it * stride * esz;
        if (plan->width == NTT_U32)
            polymul_item_u32(plan, (char *)c + o, lc, (const char *)a + o, la,
                             (const char *)b + o, lb, io64, &d->m32[mi], d->ws);
        else
            polymul_item_u64(plan, (char *)c + o, lc, (const char *)a + o, la,
                             (const char *)b + o, lb, io64, &d->m64[mi], d->ws);
    }
    return NTT_OK;
}

const ntt_backend_ops ntt_scalar_ops = {
    .name = "scalar",
    .id = NTT_BACKEND_SCALAR,
    .available = scalar_available,
    .supports = scalar_supports,
    .plan_init = scalar_plan_init,
    .plan_free = scalar_plan_free,
    .forward = scalar_forward,
    .inverse = scalar_inverse,
    .pointwise = scalar_pointwise,
    .polymul = scalar_polymul,
};
