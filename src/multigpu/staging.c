/* Host-pointer calls of batched plans: every local GPU stages its range
   through its pinned buffers in chunks, from its own host thread (the
   copies into and out of pinned memory are CPU work), after one pass that
   range-checks every input of this process's ranges. */
#include "mgpu_internal.h"

#include <string.h>

enum { H_FORWARD, H_INVERSE, H_POLYMUL };

typedef struct {
    ntt_mgpu_plan *p;
    int op;
    void *c;
    const void *a, *b;
    size_t count, stride;
} host_call;

/* Some input of items [first, first + count) is >= its modulus. */
static bool out_of_range(const ntt_mgpu_plan *p, const void *x, size_t first, size_t count,
                         size_t stride)
{
    for (size_t i = first; i < first + count; i++) {
        const uint64_t q = p->moduli[i % p->nmod];
        if (p->width == NTT_U32) {
            const uint32_t *v = (const uint32_t *)x + i * stride;
            for (size_t j = 0; j < p->n; j++)
                if (v[j] >= q) return true;
        } else {
            const uint64_t *v = (const uint64_t *)x + i * stride;
            for (size_t j = 0; j < p->n; j++)
                if (v[j] >= q) return true;
        }
    }
    return false;
}

static ntt_status check_gpu(ntt_mgpu_ctx *ctx, int l, void *arg)
{
    const host_call *h = arg;
    const ntt_mgpu_range r = ntt_mgpu_range_of(ctx, h->count, ctx->first + l);
    const void *x = h->op == H_POLYMUL ? h->a : h->c;
    if (out_of_range(h->p, x, r.first, r.count, h->stride)) return NTT_ERANGE;
    if (h->op == H_POLYMUL && out_of_range(h->p, h->b, r.first, r.count, h->stride))
        return NTT_ERANGE;
    return NTT_OK;
}

static void stage(void *dst, size_t dstride, const void *src, size_t sstride, size_t count,
                  size_t len, size_t esz)
{
    for (size_t i = 0; i < count; i++)
        memcpy((char *)dst + i * dstride * esz, (const char *)src + i * sstride * esz, len * esz);
}

static ntt_status run_gpu(ntt_mgpu_ctx *ctx, int l, void *arg)
{
    const host_call *h = arg;
    ntt_mgpu_plan *p = h->p;
    const ntt_mgpu_range r = ntt_mgpu_range_of(ctx, h->count, ctx->first + l);
    const size_t n = p->n, esz = p->esz;
    const cudaStream_t s = ctx->stream[l];
    const ntt_cuda_stream ns = (ntt_cuda_stream)s;
    ntt_plan *pl = p->local[l];
    void *d0 = p->dbuf[l][0], *d1 = p->dbuf[l][1];
    for (size_t i0 = 0; i0 < r.count; i0 += p->chunk) {
        const size_t ni = r.count - i0 < p->chunk ? r.count - i0 : p->chunk;
        const size_t item = r.first + i0, off = item * h->stride * esz, bytes = ni * n * esz;
        ntt_status st;
        const void *src = h->op == H_POLYMUL ? h->a : h->c;
        stage(p->pin[l][0], n, (const char *)src + off, h->stride, ni, n, esz);
        st = mgpu_cuda(ctx, cudaMemcpyAsync(d0, p->pin[l][0], bytes, cudaMemcpyHostToDevice, s));
        if (st == NTT_OK && h->op == H_POLYMUL) {
            stage(p->pin[l][1], n, (const char *)h->b + off, h->stride, ni, n, esz);
            st = mgpu_cuda(ctx, cudaMemcpyAsync(d1, p->pin[l][1], bytes, cudaMemcpyHostToDevice, s));
        }
        if (st != NTT_OK) return st;
        if (p->width == NTT_U32)
            st = h->op == H_FORWARD ? ntt_cuda_forward_at_u32(pl, d0, ni, n, item, ns)
                 : h->op == H_INVERSE
                     ? ntt_cuda_inverse_at_u32(pl, d0, ni, n, item, ns)
                     : ntt_cuda_polymul_at_u32(pl, d0, n, d0, n, d1, n, ni, n, item, ns);
        else
            st = h->op == H_FORWARD ? ntt_cuda_forward_at_u64(pl, d0, ni, n, item, ns)
                 : h->op == H_INVERSE
                     ? ntt_cuda_inverse_at_u64(pl, d0, ni, n, item, ns)
                     : ntt_cuda_polymul_at_u64(pl, d0, n, d0, n, d1, n, ni, n, item, ns);
        if (st == NTT_OK)
            st = mgpu_cuda(ctx, cudaMemcpyAsync(p->pin[l][0], d0, bytes, cudaMemcpyDeviceToHost, s));
        if (st == NTT_OK) st = mgpu_cuda(ctx, cudaStreamSynchronize(s));
        if (st != NTT_OK) return st;
        stage((char *)h->c + off, h->stride, p->pin[l][0], n, ni, n, esz);
    }
    return NTT_OK;
}

static ntt_status host_run(ntt_mgpu_plan *p, ntt_width w, host_call *h)
{
    if (!p || w != p->width || !h->c || (h->op == H_POLYMUL && (!h->a || !h->b))) return NTT_EINVAL;
    if (h->count == 0) return NTT_OK;
    if (h->stride < p->n || h->stride > (SIZE_MAX / p->esz - p->n) / h->count) return NTT_EINVAL;
    h->p = p;
    ntt_status st = mgpu_each(p->ctx, true, check_gpu, h);
    if (st == NTT_OK) st = mgpu_each(p->ctx, true, run_gpu, h);
    return st;
}

#define HOST_API(SUF, TY, W)                                                                  \
    ntt_status ntt_mgpu_forward_host_##SUF(ntt_mgpu_plan *plan, TY *a, size_t count,          \
                                           size_t stride)                                     \
    {                                                                                         \
        host_call h = {NULL, H_FORWARD, a, NULL, NULL, count, stride};                        \
        return host_run(plan, W, &h);                                                         \
    }                                                                                         \
    ntt_status ntt_mgpu_inverse_host_##SUF(ntt_mgpu_plan *plan, TY *a, size_t count,          \
                                           size_t stride)                                     \
    {                                                                                         \
        host_call h = {NULL, H_INVERSE, a, NULL, NULL, count, stride};                        \
        return host_run(plan, W, &h);                                                         \
    }                                                                                         \
    ntt_status ntt_mgpu_polymul_host_##SUF(ntt_mgpu_plan *plan, TY *c, const TY *a,           \
                                           const TY *b, size_t count, size_t stride)          \
    {                                                                                         \
        host_call h = {NULL, H_POLYMUL, c, a, b, count, stride};                              \
        return host_run(plan, W, &h);                                                         \
    }

HOST_API(u32, uint32_t, NTT_U32)
HOST_API(u64, uint64_t, NTT_U64)
