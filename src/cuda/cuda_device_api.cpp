// Device-pointer calls (ntt_cuda_*, validated in src/core/cuda_api.c):
// enqueued on the caller's stream, no copies, no allocation, no
// synchronization; the backend's ops table, which gathers every entry
// point; and the device's description (ntt_cuda_get_info).  Host code over
// the CUDA runtime API.
#include "cuda_plan.h"

#include <cstring>

namespace nttc {

namespace {

ntt_status dev_transform(ntt_plan *plan, void *d, size_t count, size_t stride, size_t item0,
                         void *stream, bool inv)
{
    return run_transform(plan, d, count, stride, item0, static_cast<cudaStream_t>(stream), inv);
}

ntt_status dev_pointwise(ntt_plan *plan, void *c, const void *a, const void *b, size_t count,
                         size_t stride, size_t item0, void *stream)
{
    return run_pointwise(plan, c, a, b, count, stride, item0, static_cast<cudaStream_t>(stream));
}

ntt_status dev_polymul(ntt_plan *plan, void *c, size_t lc, const void *a, size_t la, const void *b,
                       size_t lb, size_t count, size_t stride, size_t item0, void *stream)
{
    return run_polymul(plan, c, lc, a, la, b, lb, count, stride, item0,
                       static_cast<cudaStream_t>(stream), nullptr);
}

int dev_last_error(const ntt_plan *plan)
{
    if (!plan) return g_last_error;
    return plan->backend_data ? cp_of(plan)->last_error : 0;
}

}  // namespace

}  // namespace nttc

extern "C" {

const ntt_backend_ops ntt_cuda_ops = {
    "cuda",
    NTT_BACKEND_CUDA,
    nttc::cuda_available,
    nttc::cuda_supports,
    nttc::cuda_plan_init,
    nttc::cuda_plan_free,
    nttc::cuda_forward,
    nttc::cuda_inverse,
    nttc::cuda_pointwise,
    nttc::cuda_polymul,
    nttc::dev_transform,
    nttc::dev_pointwise,
    nttc::dev_polymul,
    nttc::dev_last_error,
    nullptr,  // ntt_polymul_mod's input check: the CPU's (ntt_any_geq_u64)
    true,     // cuda_polymul checks its inputs beside the device's work
    false,    // (everything, so not only single products)
    false,    // pointwise: the inputs come checked (plan.c)
};

ntt_status ntt_cuda_get_info_impl(ntt_cuda_info *info)
{
    if (!nttc::cuda_available()) return NTT_EUNSUPPORTED;
    memset(info, 0, sizeof *info);
    int dev = 0;
    cudaDeviceProp prop;
    if (cudaGetDevice(&dev) != cudaSuccess || cudaGetDeviceProperties(&prop, dev) != cudaSuccess) {
        (void)cudaGetLastError();
        return NTT_EBACKEND;
    }
    // prop.name may be longer than ours: truncation is fine.
    memcpy(info->name, prop.name, sizeof info->name - 1);
    info->name[sizeof info->name - 1] = '\0';
    info->device = dev;
    info->cc_major = prop.major;
    info->cc_minor = prop.minor;
    info->sm_count = prop.multiProcessorCount;
    info->l2_bytes = (size_t)prop.l2CacheSize;
    info->global_mem_bytes = prop.totalGlobalMem;
    info->smem_per_block_optin = prop.sharedMemPerBlockOptin;
    int v = 0;
    if (cudaDeviceGetAttribute(&v, cudaDevAttrClockRate, dev) == cudaSuccess) info->clock_khz = v;
    if (cudaDeviceGetAttribute(&v, cudaDevAttrMemoryClockRate, dev) == cudaSuccess)
        info->mem_clock_khz = v;
    if (cudaDeviceGetAttribute(&v, cudaDevAttrGlobalMemoryBusWidth, dev) == cudaSuccess)
        info->mem_bus_bits = v;
    cudaDriverGetVersion(&info->driver_version);
    cudaRuntimeGetVersion(&info->runtime_version);
    (void)cudaGetLastError();
    return NTT_OK;
}

}  // extern "C"
