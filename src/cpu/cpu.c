/* What the CPU backends share: plan data, tables, depth-first drivers,
   item-level operations and the serial batch loops (see cpu.h). */
#include "cpu.h"

#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#define T uint32_t
#define SFX(name) name##_u32
#define W64 0
#include "cpu.tmpl.h"
#undef T
#undef SFX
#undef W64

#define T uint64_t
#define SFX(name) name##_u64
#define W64 1
#include "cpu.tmpl.h"
#undef T
#undef SFX
#undef W64

void ntt_cpu_plan_free(ntt_plan *plan)
{
    ntt_cpu_data *d = plan->backend_data;
    if (!d) return;
    for (size_t i = 0; i < plan->nmod; i++) {
        if (d->m32) ntt_cpu_mod_free_u32(&d->m32[i]);
        if (d->m64) ntt_cpu_mod_free_u64(&d->m64[i]);
    }
    free(d->m32);
    free(d->m64);
    free(d->ws);
    free(d);
    plan->backend_data = NULL;
}

ntt_status ntt_cpu_plan_init(ntt_plan *plan, const ntt_cpu_kernel_choice *kc, size_t nws)
{
    if (!ntt_scalar_ops.supports(plan->modmul)) return NTT_EUNSUPPORTED;
    plan->modmul = ntt_cpu_resolve_modmul(plan->modmul);
    ntt_cpu_data *d = calloc(1, sizeof *d);
    if (!d) return NTT_ENOMEM;
    plan->backend_data = d;
    const size_t elem = plan->width == NTT_U32 ? 4 : 8;
    d->nws = nws;
    d->threads = 1;
    d->ws = ntt_alloc_aligned(nws * 2 * plan->n * elem);
    if (plan->width == NTT_U32)
        d->m32 = calloc(plan->nmod, sizeof *d->m32);
    else
        d->m64 = calloc(plan->nmod, sizeof *d->m64);
    if (!d->ws || (!d->m32 && !d->m64)) {
        ntt_cpu_plan_free(plan);
        return NTT_ENOMEM;
    }
    for (size_t i = 0; i < plan->nmod; i++) {
        const ntt_modulus *cm = &plan->mod[i];
        ntt_status s;
        if (plan->width == NTT_U32) {
            mod_u32 *M = &d->m32[i];
            s = ntt_cpu_mod_init_u32(M, cm, plan->n, plan->modmul);
            M->K = ntt_cpu_pick_u32(plan, kc, cm);
            if (s == NTT_OK && M->K->arrange) M->K->arrange(M, plan->n);
        } else {
            mod_u64 *M = &d->m64[i];
            s = ntt_cpu_mod_init_u64(M, cm, plan->n, plan->modmul);
            M->K = ntt_cpu_pick_u64(plan, kc, cm);
            if (s == NTT_OK && M->K->arrange) M->K->arrange(M, plan->n);
        }
        if (s != NTT_OK) {
            ntt_cpu_plan_free(plan);
            return s;
        }
    }
    return NTT_OK;
}

/* Item i of a batch uses modulus i % nmod. */
#define FOR_ITEMS(plan, count)                                   \
    ntt_cpu_data *d = (plan)->backend_data;                      \
    for (size_t it = 0; it < (count); it++)

ntt_status ntt_cpu_forward(ntt_plan *plan, void *a, size_t count, size_t stride)
{
    FOR_ITEMS(plan, count) {
        size_t mi = it % plan->nmod;
        if (plan->width == NTT_U32)
            ntt_cpu_forward_item_u32(plan, (uint32_t *)a + it * stride, &d->m32[mi]);
        else
            ntt_cpu_forward_item_u64(plan, (uint64_t *)a + it * stride, &d->m64[mi]);
    }
    return NTT_OK;
}

ntt_status ntt_cpu_inverse(ntt_plan *plan, void *a, size_t count, size_t stride)
{
    FOR_ITEMS(plan, count) {
        size_t mi = it % plan->nmod;
        if (plan->width == NTT_U32)
            ntt_cpu_inverse_item_u32(plan, (uint32_t *)a + it * stride, &d->m32[mi]);
        else
            ntt_cpu_inverse_item_u64(plan, (uint64_t *)a + it * stride, &d->m64[mi]);
    }
    return NTT_OK;
}

ntt_status ntt_cpu_pointwise(ntt_plan *plan, void *c, const void *a, const void *b, size_t count,
                             size_t stride)
{
    FOR_ITEMS(plan, count) {
        size_t mi = it % plan->nmod, o = it * stride;
        const ntt_status s =
            plan->width == NTT_U32
                ? ntt_cpu_pointwise_item_u32(plan, (uint32_t *)c + o, (const uint32_t *)a + o,
                                             (const uint32_t *)b + o, &d->m32[mi])
                : ntt_cpu_pointwise_item_u64(plan, (uint64_t *)c + o, (const uint64_t *)a + o,
                                             (const uint64_t *)b + o, &d->m64[mi]);
        if (s != NTT_OK) return s;
    }
    return NTT_OK;
}

/* A single product checks its operands as it loads them (load_top;
   polymul_checks_single); batches come checked. */
ntt_status ntt_cpu_polymul(ntt_plan *plan, void *c, size_t lc, const void *a, size_t la,
                           const void *b, size_t lb, size_t count, size_t stride, bool io64)
{
    const size_t esz = io64 || plan->width == NTT_U64 ? 8 : 4;
    FOR_ITEMS(plan, count) {
        size_t mi = it % plan->nmod, o = it * stride * esz;
        const ntt_status s =
            plan->width == NTT_U32
                ? ntt_cpu_polymul_item_u32(plan, (char *)c + o, lc, (const char *)a + o, la,
                                           (const char *)b + o, lb, io64, &d->m32[mi], d->ws)
                : ntt_cpu_polymul_item_u64(plan, (char *)c + o, lc, (const char *)a + o, la,
                                           (const char *)b + o, lb, io64, &d->m64[mi], d->ws);
        if (s != NTT_OK) return s;
    }
    return NTT_OK;
}

void ntt_cpu_regroup(void *t, size_t esz, size_t n, size_t lanes)
{
    unsigned char tmp[128 * 8], *b = t;
    for (size_t c = 2; c < lanes; c <<= 1) {
        const size_t d = lanes / (2 * c), run = lanes * c;
        for (size_t g = n / (2 * d); g < n / d; g += run) {
            for (size_t k = 0; k < lanes; k++)
                for (size_t e = 0; e < c; e++)
                    memcpy(tmp + (lanes * e + k) * esz, b + (g + c * k + e) * esz, esz);
            memcpy(b + g * esz, tmp, run * esz);
        }
    }
}

static atomic_bool ifma_on = true;

void ntt_cpu_use_ifma(bool on) { atomic_store(&ifma_on, on); }
bool ntt_cpu_ifma_enabled(void) { return atomic_load(&ifma_on); }
