/* Batched plans across GPUs: one CUDA plan per local GPU (with every
   modulus; each GPU's range passes its first item's index as item0, so the
   items keep their moduli), and the device-pointer calls, enqueued on the
   GPUs' streams without communication, each GPU's by its own host thread. */
#include "mgpu_internal.h"

#include <stdlib.h>
#include <string.h>

#define DEFAULT_CHUNK 8

typedef struct {
    ntt_mgpu_plan *p;
    const ntt_plan_options *o;
} plan_arg;

static ntt_status plan_gpu(ntt_mgpu_ctx *ctx, int l, void *arg)
{
    const plan_arg *a = arg;
    ntt_mgpu_plan *p = a->p;
    ntt_plan_options o = *a->o;
    o.batch = 1; /* the CUDA plan's own staging is not used */
    ntt_status st = ntt_plan_create_rns(&p->local[l], p->n, p->moduli, p->nmod, p->width,
                                        NTT_BACKEND_CUDA, &o);
    const size_t bytes = p->chunk * p->n * p->esz;
    for (int b = 0; b < 2 && st == NTT_OK; b++) {
        st = mgpu_cuda(ctx, cudaMallocHost(&p->pin[l][b], bytes));
        if (st == NTT_OK) st = mgpu_cuda(ctx, cudaMalloc(&p->dbuf[l][b], bytes));
    }
    return st;
}

static ntt_status plan_gpu_free(ntt_mgpu_ctx *ctx, int l, void *arg)
{
    (void)ctx;
    ntt_mgpu_plan *p = arg;
    ntt_plan_destroy(p->local[l]);
    for (int b = 0; b < 2; b++) {
        if (p->pin[l][b]) cudaFreeHost(p->pin[l][b]);
        if (p->dbuf[l][b]) cudaFree(p->dbuf[l][b]);
    }
    return NTT_OK;
}

void ntt_mgpu_plan_destroy(ntt_mgpu_plan *plan)
{
    if (!plan) return;
    (void)mgpu_each(plan->ctx, false, plan_gpu_free, plan);
    (void)cudaGetLastError();
    free(plan->moduli);
    free(plan);
}

ntt_status ntt_mgpu_plan_create(ntt_mgpu_plan **out, ntt_mgpu_ctx *ctx, size_t n,
                                const uint64_t *moduli, size_t count, ntt_width width,
                                const ntt_plan_options *opts)
{
    if (out) *out = NULL;
    if (!out || !ctx || !moduli || count == 0 || (width != NTT_U32 && width != NTT_U64))
        return NTT_EINVAL;
    ntt_plan_options o = {0};
    if (opts) o = *opts;
    ntt_mgpu_plan *p = calloc(1, sizeof *p);
    if (!p) return NTT_ENOMEM;
    p->ctx = ctx;
    p->n = n;
    p->nmod = count;
    p->width = width;
    p->esz = width == NTT_U32 ? 4 : 8;
    p->chunk = o.batch ? o.batch : DEFAULT_CHUNK;
    p->moduli = malloc(count * sizeof *moduli);
    if (!p->moduli) {
        free(p);
        return NTT_ENOMEM;
    }
    memcpy(p->moduli, moduli, count * sizeof *moduli);
    /* n is checked by the CUDA plans; the buffers' size only after that. */
    if (n < 2 || n > ((size_t)1 << NTT_MAX_LOG2_N) || p->chunk > ((size_t)1 << 40) / n) {
        ntt_mgpu_plan_destroy(p);
        return NTT_EINVAL;
    }
    plan_arg a = {p, &o};
    const ntt_status st = mgpu_each(ctx, false, plan_gpu, &a);
    if (st != NTT_OK) {
        ntt_mgpu_plan_destroy(p);
        return st;
    }
    *out = p;
    return NTT_OK;
}

/* ---- device pointers ------------------------------------------------------------- */

enum { OP_FORWARD, OP_INVERSE, OP_POINTWISE, OP_POLYMUL };

typedef struct {
    ntt_mgpu_plan *p;
    int op;
    void *const *c;
    void *const *a;
    void *const *b;
    size_t lc, la, lb, count, stride;
} dev_call;

static ntt_status dev_gpu(ntt_mgpu_ctx *ctx, int l, void *arg)
{
    const dev_call *d = arg;
    const ntt_mgpu_range r = ntt_mgpu_range_of(ctx, d->count, ctx->first + l);
    if (r.count == 0) return NTT_OK;
    ntt_plan *pl = d->p->local[l];
    const ntt_cuda_stream s = (ntt_cuda_stream)ctx->stream[l];
    if (d->p->width == NTT_U32) {
        uint32_t *a = d->a[l];
        switch (d->op) {
        case OP_FORWARD: return ntt_cuda_forward_at_u32(pl, a, r.count, d->stride, r.first, s);
        case OP_INVERSE: return ntt_cuda_inverse_at_u32(pl, a, r.count, d->stride, r.first, s);
        case OP_POINTWISE:
            return ntt_cuda_pointwise_at_u32(pl, d->c[l], a, d->b[l], r.count, d->stride, r.first, s);
        default:
            return ntt_cuda_polymul_at_u32(pl, d->c[l], d->lc, a, d->la, d->b[l], d->lb, r.count,
                                           d->stride, r.first, s);
        }
    }
    uint64_t *a = d->a[l];
    switch (d->op) {
    case OP_FORWARD: return ntt_cuda_forward_at_u64(pl, a, r.count, d->stride, r.first, s);
    case OP_INVERSE: return ntt_cuda_inverse_at_u64(pl, a, r.count, d->stride, r.first, s);
    case OP_POINTWISE:
        return ntt_cuda_pointwise_at_u64(pl, d->c[l], a, d->b[l], r.count, d->stride, r.first, s);
    default:
        return ntt_cuda_polymul_at_u64(pl, d->c[l], d->lc, a, d->la, d->b[l], d->lb, r.count,
                                       d->stride, r.first, s);
    }
}

static ntt_status dev_run(ntt_mgpu_plan *p, ntt_width w, dev_call *d)
{
    if (!p || w != p->width || !d->a) return NTT_EINVAL;
    const bool two = d->op == OP_POINTWISE || d->op == OP_POLYMUL;
    if (two && (!d->b || !d->c)) return NTT_EINVAL;
    if (d->count > 0 && d->stride < p->n) return NTT_EINVAL;
    if (d->op == OP_POLYMUL && (d->la == 0 || d->lb == 0 || d->lc == 0 || d->la > p->n ||
                                d->lb > p->n || d->lc > p->n))
        return NTT_EINVAL;
    ntt_mgpu_ctx *ctx = p->ctx;
    for (int l = 0; l < ctx->local; l++) {
        if (ntt_mgpu_range_of(ctx, d->count, ctx->first + l).count == 0) continue;
        if (!d->a[l] || (two && (!d->b[l] || !d->c[l]))) return NTT_EINVAL;
    }
    d->p = p;
    /* A product's share is several transforms and a pointwise product per
       chunk of items: each GPU's thread enqueues it (workers.c).  A
       transform's or pointwise product's share is a few launches, which
       the caller enqueues on every GPU in turn as soon as a thread would
       take its share (docs/MULTIGPU.md, Results). */
    return mgpu_each(ctx, d->op == OP_POLYMUL, dev_gpu, d);
}

#define DEV_API(SUF, TY, W)                                                                   \
    ntt_status ntt_mgpu_forward_##SUF(ntt_mgpu_plan *plan, TY *const *d_a, size_t count,      \
                                      size_t stride)                                          \
    {                                                                                         \
        dev_call d = {NULL, OP_FORWARD, NULL, (void *const *)d_a, NULL, 0, 0, 0, count, stride}; \
        return dev_run(plan, W, &d);                                                          \
    }                                                                                         \
    ntt_status ntt_mgpu_inverse_##SUF(ntt_mgpu_plan *plan, TY *const *d_a, size_t count,      \
                                      size_t stride)                                          \
    {                                                                                         \
        dev_call d = {NULL, OP_INVERSE, NULL, (void *const *)d_a, NULL, 0, 0, 0, count, stride}; \
        return dev_run(plan, W, &d);                                                          \
    }                                                                                         \
    ntt_status ntt_mgpu_pointwise_##SUF(ntt_mgpu_plan *plan, TY *const *d_c, TY *const *d_a,  \
                                        TY *const *d_b, size_t count, size_t stride)          \
    {                                                                                         \
        dev_call d = {NULL, OP_POINTWISE, (void *const *)d_c, (void *const *)d_a,             \
                      (void *const *)d_b, 0, 0, 0, count, stride};                            \
        return dev_run(plan, W, &d);                                                          \
    }                                                                                         \
    ntt_status ntt_mgpu_polymul_##SUF(ntt_mgpu_plan *plan, TY *const *d_c, size_t lc,         \
                                      TY *const *d_a, size_t la, TY *const *d_b, size_t lb,   \
                                      size_t count, size_t stride)                            \
    {                                                                                         \
        dev_call d = {NULL, OP_POLYMUL, (void *const *)d_c, (void *const *)d_a,               \
                      (void *const *)d_b, lc, la, lb, count, stride};                         \
        return dev_run(plan, W, &d);                                                          \
    }

DEV_API(u32, uint32_t, NTT_U32)
DEV_API(u64, uint64_t, NTT_U64)
