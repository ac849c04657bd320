/* The device-pointer API: validation here, the work in the CUDA backend's
   dev_* ops.  Built with or without CUDA, so that callers link either way
   and learn NTT_EUNSUPPORTED at run time. */
#include "internal.h"

static ntt_status dev_check(const ntt_plan *plan, ntt_width w, const void *p1, const void *p2,
                            const void *p3, size_t count, size_t stride)
{
    if (!plan || !p1 || !p2 || !p3) return NTT_EINVAL;
    if (!plan->ops || !plan->ops->dev_transform) return NTT_EUNSUPPORTED;
    if (plan->width != w) return NTT_EINVAL;
    if (count > 0 && stride < plan->n) return NTT_EINVAL;
    if (count > 1 && stride > (SIZE_MAX / 8 - plan->n) / (count - 1)) return NTT_EINVAL;
    return NTT_OK;
}

static ntt_status dev_transform(ntt_plan *plan, ntt_width w, void *a, size_t count, size_t stride,
                                size_t item0, ntt_cuda_stream stream, bool inverse)
{
    ntt_status s = dev_check(plan, w, a, a, a, count, stride);
    if (s != NTT_OK || count == 0) return s;
    return plan->ops->dev_transform(plan, a, count, stride, item0, stream, inverse);
}

static ntt_status dev_pointwise(ntt_plan *plan, ntt_width w, void *c, const void *a,
                                const void *b, size_t count, size_t stride, size_t item0,
                                ntt_cuda_stream stream)
{
    ntt_status s = dev_check(plan, w, c, a, b, count, stride);
    if (s != NTT_OK || count == 0) return s;
    return plan->ops->dev_pointwise(plan, c, a, b, count, stride, item0, stream);
}

static ntt_status dev_polymul(ntt_plan *plan, ntt_width w, void *c, size_t lc, const void *a,
                              size_t la, const void *b, size_t lb, size_t count, size_t stride,
                              size_t item0, ntt_cuda_stream stream)
{
    ntt_status s = dev_check(plan, w, c, a, b, count, stride);
    if (s != NTT_OK || count == 0) return s;
    if (la == 0 || lb == 0 || lc == 0 || la > plan->n || lb > plan->n || lc > plan->n)
        return NTT_EINVAL;
    return plan->ops->dev_polymul(plan, c, lc, a, la, b, lb, count, stride, item0, stream);
}

/* Each call with item0 0 and as the _at form. */
#define NTT_CUDA_API(SUF, TY, W)                                                              \
    ntt_status ntt_cuda_forward_at_##SUF(ntt_plan *plan, TY *d_a, size_t count, size_t stride, \
                                         size_t item0, ntt_cuda_stream stream)                \
    { return dev_transform(plan, W, d_a, count, stride, item0, stream, false); }              \
    ntt_status ntt_cuda_forward_##SUF(ntt_plan *plan, TY *d_a, size_t count, size_t stride,   \
                                      ntt_cuda_stream stream)                                 \
    { return dev_transform(plan, W, d_a, count, stride, 0, stream, false); }                  \
    ntt_status ntt_cuda_inverse_at_##SUF(ntt_plan *plan, TY *d_a, size_t count, size_t stride, \
                                         size_t item0, ntt_cuda_stream stream)                \
    { return dev_transform(plan, W, d_a, count, stride, item0, stream, true); }               \
    ntt_status ntt_cuda_inverse_##SUF(ntt_plan *plan, TY *d_a, size_t count, size_t stride,   \
                                      ntt_cuda_stream stream)                                 \
    { return dev_transform(plan, W, d_a, count, stride, 0, stream, true); }                   \
    ntt_status ntt_cuda_pointwise_at_##SUF(ntt_plan *plan, TY *d_c, const TY *d_a,            \
                                           const TY *d_b, size_t count, size_t stride,        \
                                           size_t item0, ntt_cuda_stream stream)              \
    { return dev_pointwise(plan, W, d_c, d_a, d_b, count, stride, item0, stream); }           \
    ntt_status ntt_cuda_pointwise_##SUF(ntt_plan *plan, TY *d_c, const TY *d_a,               \
                                        const TY *d_b, size_t count, size_t stride,           \
                                        ntt_cuda_stream stream)                               \
    { return dev_pointwise(plan, W, d_c, d_a, d_b, count, stride, 0, stream); }               \
    ntt_status ntt_cuda_polymul_at_##SUF(ntt_plan *plan, TY *d_c, size_t lc, const TY *d_a,   \
                                         size_t la, const TY *d_b, size_t lb, size_t count,   \
                                         size_t stride, size_t item0, ntt_cuda_stream stream) \
    { return dev_polymul(plan, W, d_c, lc, d_a, la, d_b, lb, count, stride, item0, stream); } \
    ntt_status ntt_cuda_polymul_##SUF(ntt_plan *plan, TY *d_c, size_t lc, const TY *d_a,      \
                                      size_t la, const TY *d_b, size_t lb, size_t count,      \
                                      size_t stride, ntt_cuda_stream stream)                  \
    { return dev_polymul(plan, W, d_c, lc, d_a, la, d_b, lb, count, stride, 0, stream); }

NTT_CUDA_API(u32, uint32_t, NTT_U32)
NTT_CUDA_API(u64, uint64_t, NTT_U64)

int ntt_cuda_last_error(const ntt_plan *plan)
{
    if (!plan) {
#ifdef NTT_HAVE_CUDA
        return ntt_cuda_ops.dev_last_error(NULL);
#else
        return 0;
#endif
    }
    if (!plan->ops || !plan->ops->dev_last_error) return 0;
    return plan->ops->dev_last_error(plan);
}

ntt_status ntt_cuda_get_info(ntt_cuda_info *info)
{
    if (!info) return NTT_EINVAL;
#ifdef NTT_HAVE_CUDA
    return ntt_cuda_get_info_impl(info);
#else
    return NTT_EUNSUPPORTED;
#endif
}
