// CUDA plan set-up and teardown: the device's availability, the kernels'
// kind and range for a plan, its geometry under the tuning switches
// (read once here), its tables uploaded once, the kernels' attributes, and
// its scratch, pinned staging buffers, streams and event, all allocated
// once.  Host code over the CUDA runtime API.
#include "cuda_plan.h"

#include <pthread.h>

#include <cstdlib>

namespace nttc {

volatile int g_last_error;

ntt_status fail(const ntt_plan *plan, cudaError_t e)
{
    if (plan && plan->backend_data) cp_of(plan)->last_error = (int)e;
    g_last_error = (int)e;
    (void)cudaGetLastError();  // clear a non-sticky error so later calls start clean
    return e == cudaErrorMemoryAllocation ? NTT_ENOMEM : NTT_EBACKEND;
}

namespace {

pthread_once_t avail_once = PTHREAD_ONCE_INIT;
int avail_result;

void probe_devices(void)
{
    int n = 0;
    if (cudaGetDeviceCount(&n) != cudaSuccess) {
        (void)cudaGetLastError();
        n = 0;
    }
    avail_result = n > 0 ? 1 : 0;
}

// The plans whose kernels have variants of their own: compact twiddles and
// the wider ranges (plan_cap); and the only ones whose 12-level kernels run
// as top passes (plan_passes).
bool u32_shoup_fast(const ntt_plan *plan)
{
    return plan->width == NTT_U32 && plan->modmul == NTT_MODMUL_SHOUP;
}

// The u64 Shoup kind computes in FP64 (K_FP64,
// cuda_device_arith.cuh) when every prime lies below 2^50; the tuning's fp64 = 0
// keeps the integer kernels, for A/B runs.
int plan_kind(const ntt_plan *plan, const ntt_cuda_tuning &t)
{
    if (t.fp64 == 0 || plan->width != NTT_U64 || plan->modmul != NTT_MODMUL_SHOUP)
        return plan->modmul;
    for (size_t i = 0; i < plan->nmod; i++)
        if (plan->mod[i].p >= ((uint64_t)1 << kFp64Bits)) return plan->modmul;
    return K_FP64;
}

// The ranges the fast path's kernels keep (Geom::cap, group_butterflies):
// below 8p where the u32 Shoup kernels have every prime below 2^29, else
// below 4p.  The tuning's cap = 4 keeps the narrower ones, for A/B runs.
int plan_cap(const ntt_plan *plan, const ntt_cuda_tuning &t)
{
    if (t.cap == 4 || !u32_shoup_fast(plan)) return 4;
    for (size_t i = 0; i < plan->nmod; i++)
        if (plan->mod[i].p >= ((uint64_t)1 << 29)) return 4;
    return 8;
}

ntt_status plan_init_inner(ntt_plan *plan)
{
    CudaPlan *cp = cp_of(plan);
    CK(plan, cudaGetDevice(&cp->device));
    cudaDeviceProp prop;
    CK(plan, cudaGetDeviceProperties(&prop, cp->device));
    ntt_cuda_tuning t;
    ntt_cuda_tuning_get(&t);
    cp->elem = plan->width == NTT_U32 ? 4 : 8;
    cp->sms = prop.multiProcessorCount;
    cp->l2 = (size_t)prop.l2CacheSize;
    cp->kind = plan_kind(plan, t);
    cp->carveout = t.carveout;
    const GeometryInput in = {(int)plan->logn, cp->elem, cp->kind, u32_shoup_fast(plan),
                              plan_cap(plan, t), plan->nmod, plan->batch, cp->l2};
    plan_geometry(in, t, &cp->geo);
    TRY(upload_mods(plan, cp));
    if (cp->geo.max_smem > prop.sharedMemPerBlockOptin) return NTT_EUNSUPPORTED;
    TRY(run_prepare(plan, (int)prop.sharedMemPerBlockOptin));
    const size_t bytes = plan->batch * plan->n * cp->elem;
    CK(plan, cudaMalloc(&cp->dA, bytes));
    CK(plan, cudaMalloc(&cp->dB, bytes));
    CK(plan, cudaMallocHost(&cp->hA, bytes));
    CK(plan, cudaMallocHost(&cp->hB, bytes));
    CK(plan, cudaMallocHost(&cp->hC, bytes));
    CK(plan, cudaStreamCreateWithFlags(&cp->stream, cudaStreamNonBlocking));
    CK(plan, cudaStreamCreateWithFlags(&cp->stream2, cudaStreamNonBlocking));
    CK(plan, cudaEventCreateWithFlags(&cp->b_in, cudaEventDisableTiming));
    // The tables went up by cudaMemcpy from pageable memory, which may
    // return before its DMA lands, on the legacy stream, which the plan's
    // non-blocking streams do not wait for.
    CK(plan, cudaStreamSynchronize(nullptr));
    return NTT_OK;
}

}  // namespace

int cuda_available(void)
{
    pthread_once(&avail_once, probe_devices);
    return avail_result;
}

// Every kind.
int cuda_supports(ntt_modmul m)
{
    (void)m;
    return 1;
}

void cuda_plan_free(ntt_plan *plan)
{
    CudaPlan *cp = cp_of(plan);
    if (!cp) return;
    for (size_t i = 0; i < cp->ndallocs; i++) cudaFree(cp->dallocs[i]);
    free(cp->dallocs);
    cudaFree(cp->dmods);
    cudaFree(cp->dA);
    cudaFree(cp->dB);
    cudaFreeHost(cp->hA);
    cudaFreeHost(cp->hB);
    cudaFreeHost(cp->hC);
    if (cp->stream) cudaStreamDestroy(cp->stream);
    if (cp->stream2) cudaStreamDestroy(cp->stream2);
    if (cp->b_in) cudaEventDestroy(cp->b_in);
    (void)cudaGetLastError();
    free(cp);
    plan->backend_data = nullptr;
}

ntt_status cuda_plan_init(ntt_plan *plan)
{
    if (!cuda_supports(plan->modmul)) return NTT_EUNSUPPORTED;
    if (plan->modmul == NTT_MODMUL_DEFAULT) plan->modmul = NTT_MODMUL_SHOUP;
    CudaPlan *cp = static_cast<CudaPlan *>(calloc(1, sizeof(CudaPlan)));
    if (!cp) return NTT_ENOMEM;
    plan->backend_data = cp;
    ntt_status s = plan_init_inner(plan);
    if (s != NTT_OK) cuda_plan_free(plan);
    return s;
}

}  // namespace nttc
