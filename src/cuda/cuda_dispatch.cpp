// The kernels a plan's calls run, by its width and kind (plan_kind).
// Every call on the device, host-pointer (cuda_staging.cpp) or
// device-pointer (cuda_device_api.cpp), goes through here.
#include "cuda_plan.h"

namespace nttc {

namespace {

const FastPath &fast(const ntt_plan *p) { return fast_path(cp_of(p)->elem, cp_of(p)->kind); }

}  // namespace

ntt_status run_transform(ntt_plan *p, void *d, size_t count, size_t stride, size_t item0,
                         cudaStream_t st, bool inv)
{
    return fast(p).transform(p, d, count, stride, item0, st, inv);
}

ntt_status run_pointwise(ntt_plan *p, void *c, const void *a, const void *b, size_t count,
                         size_t stride, size_t item0, cudaStream_t st)
{
    return fast(p).pointwise(p, c, a, b, count, stride, item0, st);
}

ntt_status run_polymul(ntt_plan *p, void *c, size_t lc, const void *a, size_t la, const void *b,
                       size_t lb, size_t count, size_t stride, size_t item0, cudaStream_t st,
                       const Arrival *arr)
{
    return fast(p).polymul(p, c, lc, a, la, b, lb, count, stride, item0, st, arr);
}

ntt_status run_prepare(ntt_plan *p, int smem_max) { return fast(p).prepare(p, smem_max); }

}  // namespace nttc
