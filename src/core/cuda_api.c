/* The device-pointer API: validation here, the work in the CUDA backend's
   dev_* ops.  Built with or without CUDA, so that callers link either way
   and learn NTT_EUNSUPPORTED at run time. */
#include "addon_plan.h"
#include "internal.h"

static ntt_status dev_check(const ntt_plan *plan, ntt_width w, const void *p1, const void *p2,
                            const void *p3, size_t count, size_t stride)
{
    if (!plan || !p1 || !p2 || !p3) return NTT_EINVAL;
    if (!plan->ops || !plan->ops->dev_transform || !ntt_addon_on_device(plan))
        return NTT_EUNSUPPORTED;
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

/* The public calls, one line each into the shared dev_* above; each call
   without _at is its _at form with item0 0. */
ntt_status ntt_cuda_forward_at_u32(ntt_plan *plan, uint32_t *d_a, size_t count, size_t stride,
                                     size_t item0, ntt_cuda_stream stream)
{ return dev_transform(plan, NTT_U32, d_a, count, stride, item0, stream, false); }

ntt_status ntt_cuda_forward_u32(ntt_plan *plan, uint32_t *d_a, size_t count, size_t stride,
                                  ntt_cuda_stream stream)
{ return dev_transform(plan, NTT_U32, d_a, count, stride, 0, stream, false); }

ntt_status ntt_cuda_inverse_at_u32(ntt_plan *plan, uint32_t *d_a, size_t count, size_t stride,
                                     size_t item0, ntt_cuda_stream stream)
{ return dev_transform(plan, NTT_U32, d_a, count, stride, item0, stream, true); }

ntt_status ntt_cuda_inverse_u32(ntt_plan *plan, uint32_t *d_a, size_t count, size_t stride,
                                  ntt_cuda_stream stream)
{ return dev_transform(plan, NTT_U32, d_a, count, stride, 0, stream, true); }

ntt_status ntt_cuda_pointwise_at_u32(ntt_plan *plan, uint32_t *d_c, const uint32_t *d_a,
                                       const uint32_t *d_b, size_t count, size_t stride,
                                       size_t item0, ntt_cuda_stream stream)
{ return dev_pointwise(plan, NTT_U32, d_c, d_a, d_b, count, stride, item0, stream); }

ntt_status ntt_cuda_pointwise_u32(ntt_plan *plan, uint32_t *d_c, const uint32_t *d_a,
                                    const uint32_t *d_b, size_t count, size_t stride,
                                    ntt_cuda_stream stream)
{ return dev_pointwise(plan, NTT_U32, d_c, d_a, d_b, count, stride, 0, stream); }

ntt_status ntt_cuda_polymul_at_u32(ntt_plan *plan, uint32_t *d_c, size_t lc, const uint32_t *d_a,
                                     size_t la, const uint32_t *d_b, size_t lb, size_t count,
                                     size_t stride, size_t item0, ntt_cuda_stream stream)
{ return dev_polymul(plan, NTT_U32, d_c, lc, d_a, la, d_b, lb, count, stride, item0, stream); }

ntt_status ntt_cuda_polymul_u32(ntt_plan *plan, uint32_t *d_c, size_t lc, const uint32_t *d_a,
                                  size_t la, const uint32_t *d_b, size_t lb, size_t count,
                                  size_t stride, ntt_cuda_stream stream)
{ return dev_polymul(plan, NTT_U32, d_c, lc, d_a, la, d_b, lb, count, stride, 0, stream); }

ntt_status ntt_cuda_forward_at_u64(ntt_plan *plan, uint64_t *d_a, size_t count, size_t stride,
                                     size_t item0, ntt_cuda_stream stream)
{ return dev_transform(plan, NTT_U64, d_a, count, stride, item0, stream, false); }

ntt_status ntt_cuda_forward_u64(ntt_plan *plan, uint64_t *d_a, size_t count, size_t stride,
                                  ntt_cuda_stream stream)
{ return dev_transform(plan, NTT_U64, d_a, count, stride, 0, stream, false); }

ntt_status ntt_cuda_inverse_at_u64(ntt_plan *plan, uint64_t *d_a, size_t count, size_t stride,
                                     size_t item0, ntt_cuda_stream stream)
{ return dev_transform(plan, NTT_U64, d_a, count, stride, item0, stream, true); }

ntt_status ntt_cuda_inverse_u64(ntt_plan *plan, uint64_t *d_a, size_t count, size_t stride,
                                  ntt_cuda_stream stream)
{ return dev_transform(plan, NTT_U64, d_a, count, stride, 0, stream, true); }

ntt_status ntt_cuda_pointwise_at_u64(ntt_plan *plan, uint64_t *d_c, const uint64_t *d_a,
                                       const uint64_t *d_b, size_t count, size_t stride,
                                       size_t item0, ntt_cuda_stream stream)
{ return dev_pointwise(plan, NTT_U64, d_c, d_a, d_b, count, stride, item0, stream); }

ntt_status ntt_cuda_pointwise_u64(ntt_plan *plan, uint64_t *d_c, const uint64_t *d_a,
                                    const uint64_t *d_b, size_t count, size_t stride,
                                    ntt_cuda_stream stream)
{ return dev_pointwise(plan, NTT_U64, d_c, d_a, d_b, count, stride, 0, stream); }

ntt_status ntt_cuda_polymul_at_u64(ntt_plan *plan, uint64_t *d_c, size_t lc, const uint64_t *d_a,
                                     size_t la, const uint64_t *d_b, size_t lb, size_t count,
                                     size_t stride, size_t item0, ntt_cuda_stream stream)
{ return dev_polymul(plan, NTT_U64, d_c, lc, d_a, la, d_b, lb, count, stride, item0, stream); }

ntt_status ntt_cuda_polymul_u64(ntt_plan *plan, uint64_t *d_c, size_t lc, const uint64_t *d_a,
                                  size_t la, const uint64_t *d_b, size_t lb, size_t count,
                                  size_t stride, ntt_cuda_stream stream)
{ return dev_polymul(plan, NTT_U64, d_c, lc, d_a, la, d_b, lb, count, stride, 0, stream); }

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
