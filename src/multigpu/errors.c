/* The context's last error: the CUDA or NCCL result behind its last
   NTT_EBACKEND or NTT_ENOMEM, and the statuses those results map to. */
#include "mgpu_internal.h"

/* NCCL results are kept apart from CUDA errors in last_error. */
#define NCCL_FLAG (1 << 16)

void mgpu_set_error(ntt_mgpu_ctx *ctx, int code)
{
    /* The launching threads (workers.c) may fail at once: one of them wins. */
    if (ctx) __atomic_store_n(&ctx->last_error, code, __ATOMIC_RELAXED);
}

ntt_status mgpu_cuda(ntt_mgpu_ctx *ctx, cudaError_t e)
{
    if (e == cudaSuccess) return NTT_OK;
    (void)cudaGetLastError(); /* a non-sticky error must not fail the next call */
    mgpu_set_error(ctx, (int)e);
    return e == cudaErrorMemoryAllocation ? NTT_ENOMEM : NTT_EBACKEND;
}

ntt_status mgpu_nccl(ntt_mgpu_ctx *ctx, ncclResult_t r)
{
    if (r == ncclSuccess) return NTT_OK;
    mgpu_set_error(ctx, NCCL_FLAG | (int)r);
    return NTT_EBACKEND;
}

int ntt_mgpu_last_error(const ntt_mgpu_ctx *ctx)
{
    return ctx ? __atomic_load_n(&ctx->last_error, __ATOMIC_RELAXED) : 0;
}
