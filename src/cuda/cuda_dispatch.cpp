// The path a plan's calls take: the fast path (cuda_launch.cu) or the
// reports' ladder (cuda_ladder.cu) by the plan's variant, their kernels by
// its width and kind (plan_kind).  Every call on the device, host-pointer
// (cuda_staging.cpp) or device-pointer (cuda_device_api.cpp), goes through
// here.
#include "cuda_plan.h"

namespace nttc {

namespace {

const FastPath &fast(const ntt_plan *p) { return fast_path(cp_of(p)->elem, cp_of(p)->kind); }

const LadderPath &ladder(const ntt_plan *p) { return ladder_path(cp_of(p)->elem, cp_of(p)->kind); }

// The ladder has no FP64 kernels, which only fast plans take (plan_kind).
bool no_ladder(const ntt_plan *p) { return cp_of(p)->kind == K_FP64; }

}  // namespace

ntt_status run_transform(ntt_plan *p, void *d, size_t count, size_t stride, size_t item0,
                         cudaStream_t st, bool inv)
{
    if (p->variant == NTT_VARIANT_FAST)
        return fast(p).transform(p, d, count, stride, item0, st, inv);
    if (no_ladder(p)) return NTT_EUNSUPPORTED;
    return ladder(p).transform(p, d, count, stride, item0, st, inv);
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
    if (p->variant == NTT_VARIANT_FAST)
        return fast(p).polymul(p, c, lc, a, la, b, lb, count, stride, item0, st, arr);
    if (no_ladder(p)) return NTT_EUNSUPPORTED;
    return ladder(p).polymul(p, c, lc, a, la, b, lb, count, stride, item0, st, arr);
}

// The ladder's kernels take no dynamic shared memory beyond the default.
ntt_status run_prepare(ntt_plan *p, int smem_max)
{
    if (p->variant != NTT_VARIANT_FAST) return NTT_OK;
    return fast(p).prepare(p, smem_max);
}

}  // namespace nttc
