/* Contexts over a list of devices: streams, NCCL communicators
   (ncclCommInitAll), NCCL groups and the status agreement. */
#include "mgpu_internal.h"

#include <stdlib.h>
#include <string.h>

ntt_status mgpu_group(ntt_mgpu_ctx *ctx, mgpu_fn fn, void *arg)
{
    ntt_status st = mgpu_nccl(ctx, ncclGroupStart());
    if (st != NTT_OK) return st;
    st = mgpu_each(ctx, false, fn, arg);
    const ntt_status s2 = mgpu_nccl(ctx, ncclGroupEnd());
    return st != NTT_OK ? st : s2;
}

typedef struct {
    uint64_t *v;
    int count;
} agree_arg;

static ntt_status agree_post(ntt_mgpu_ctx *ctx, int l, void *arg)
{
    const agree_arg *a = arg;
    ntt_status st = mgpu_cuda(ctx, cudaMemcpyAsync(ctx->dstatus[l], a->v, (size_t)a->count * 8,
                                                   cudaMemcpyHostToDevice, ctx->stream[l]));
    if (st == NTT_OK)
        st = mgpu_nccl(ctx, ncclAllReduce(ctx->dstatus[l], ctx->dstatus[l], (size_t)a->count,
                                          ncclUint64, ncclMax, ctx->comm[l], ctx->stream[l]));
    return st;
}

static ntt_status agree_read(ntt_mgpu_ctx *ctx, int l, void *arg)
{
    agree_arg *a = arg;
    uint64_t v[MGPU_AGREE_MAX];
    ntt_status st = mgpu_cuda(ctx, cudaMemcpyAsync(v, ctx->dstatus[l], (size_t)a->count * 8,
                                                   cudaMemcpyDeviceToHost, ctx->stream[l]));
    if (st == NTT_OK) st = mgpu_cuda(ctx, cudaStreamSynchronize(ctx->stream[l]));
    for (int i = 0; i < a->count && st == NTT_OK; i++)
        if (v[i] > a->v[i]) a->v[i] = v[i];
    return st;
}

ntt_status mgpu_agree_max(ntt_mgpu_ctx *ctx, uint64_t *v, int count)
{
    if (ctx->processes <= 1) return NTT_OK;
    if (count < 1 || count > MGPU_AGREE_MAX) return NTT_EINVAL;
    agree_arg a = {v, count};
    ntt_status s = mgpu_group(ctx, agree_post, &a);
    if (s == NTT_OK) s = mgpu_each(ctx, false, agree_read, &a);
    ctx->stats.agreements++;
    return s;
}

ntt_status mgpu_agree(ntt_mgpu_ctx *ctx, ntt_status st)
{
    uint64_t v = (uint64_t)st;
    /* A failed agreement leaves the processes' views apart; NTT_EBACKEND
       is the worst code any of them can see. */
    if (mgpu_agree_max(ctx, &v, 1) != NTT_OK) return NTT_EBACKEND;
    return (ntt_status)v;
}

/* Streams and the agreement's ints of local GPU l. */
static ntt_status gpu_init(ntt_mgpu_ctx *ctx, int l, void *arg)
{
    (void)arg;
    ntt_status st = mgpu_cuda(ctx, cudaStreamCreateWithFlags(&ctx->stream[l], cudaStreamNonBlocking));
    if (st == NTT_OK) st = mgpu_cuda(ctx, cudaMalloc((void **)&ctx->dstatus[l], MGPU_AGREE_MAX * 8));
    return st;
}

static ntt_status gpu_fini(ntt_mgpu_ctx *ctx, int l, void *arg)
{
    (void)arg;
    if (ctx->comm[l]) ncclCommDestroy(ctx->comm[l]);
    if (ctx->stream[l]) cudaStreamDestroy(ctx->stream[l]);
    if (ctx->dstatus[l]) cudaFree(ctx->dstatus[l]);
    ctx->comm[l] = NULL;
    ctx->stream[l] = NULL;
    ctx->dstatus[l] = NULL;
    return NTT_OK;
}

void mgpu_ctx_fini(ntt_mgpu_ctx *ctx)
{
    mgpu_workers_free(ctx);
    if (ctx->local > 0) (void)mgpu_each(ctx, false, gpu_fini, NULL);
    (void)cudaGetLastError();
}

/* Peer access between every pair of the context's GPUs, where the system
   allows it; peer_ok tells whether every pair has it.  Access is
   process-wide and may already be on (NCCL turns it on for its own
   transfers within a process), which counts as success. */
static ntt_status peer_gpu(ntt_mgpu_ctx *ctx, int l, void *arg)
{
    (void)arg;
    for (int k = 0; k < ctx->local && ctx->peer_ok; k++) {
        int can = 0;
        if (k == l) continue;
        if (cudaDeviceCanAccessPeer(&can, ctx->dev[l], ctx->dev[k]) != cudaSuccess || !can) {
            ctx->peer_ok = false;
        } else {
            const cudaError_t e = cudaDeviceEnablePeerAccess(ctx->dev[k], 0);
            if (e != cudaSuccess && e != cudaErrorPeerAccessAlreadyEnabled) ctx->peer_ok = false;
        }
        (void)cudaGetLastError();
    }
    return NTT_OK;
}

static ntt_status devices_ok(const int *devices, int count, int *ndev)
{
    int n = 0;
    if (cudaGetDeviceCount(&n) != cudaSuccess || n < 1) {
        (void)cudaGetLastError();
        return NTT_EUNSUPPORTED;
    }
    *ndev = n;
    for (int i = 0; devices && i < count; i++) {
        if (devices[i] < 0 || devices[i] >= n) return NTT_EINVAL;
        for (int j = 0; j < i; j++)
            if (devices[j] == devices[i]) return NTT_EINVAL;
    }
    return NTT_OK;
}

ntt_status ntt_mgpu_create(ntt_mgpu_ctx **out, const int *devices, int count)
{
    if (out) *out = NULL;
    if (!out || count < 0 || count > NTT_MGPU_MAX_LOCAL || (count == 0 && devices) ||
        (count > 0 && !devices))
        return NTT_EINVAL;
    int ndev = 0;
    ntt_status st = devices_ok(devices, count, &ndev);
    if (st != NTT_OK) return st;
    if (count == 0) count = ndev < NTT_MGPU_MAX_LOCAL ? ndev : NTT_MGPU_MAX_LOCAL;
    ntt_mgpu_ctx *ctx = calloc(1, sizeof *ctx);
    if (!ctx) return NTT_ENOMEM;
    ctx->local = ctx->gpus = count;
    ctx->processes = 1;
    for (int l = 0; l < count; l++) ctx->dev[l] = devices ? devices[l] : l;
    st = mgpu_each(ctx, false, gpu_init, NULL);
    if (st == NTT_OK) st = mgpu_nccl(ctx, ncclCommInitAll(ctx->comm, count, ctx->dev));
    if (st == NTT_OK) st = mgpu_nccl(ctx, ncclGetVersion(&ctx->nccl_version));
    ctx->peer_ok = count > 1;
    if (st == NTT_OK && count > 1) st = mgpu_each(ctx, false, peer_gpu, NULL);
    if (st != NTT_OK) {
        if (st == NTT_EBACKEND && ntt_mgpu_last_error(ctx) == (int)cudaErrorNoDevice) st = NTT_EUNSUPPORTED;
        ntt_mgpu_destroy(ctx);
        return st;
    }
    *out = ctx;
    return NTT_OK;
}

ntt_status mgpu_ctx_init_rank(ntt_mgpu_ctx *ctx, int dev, const ncclUniqueId *id, int nranks,
                              int rank)
{
    memset(ctx, 0, sizeof *ctx);
    int ndev = 0;
    ntt_status st = devices_ok(&dev, 1, &ndev);
    if (st != NTT_OK) return st;
    ctx->local = 1;
    ctx->gpus = nranks;
    ctx->first = rank;
    ctx->processes = nranks;
    ctx->dev[0] = dev;
    st = mgpu_each(ctx, false, gpu_init, NULL);
    if (st == NTT_OK) {
        int dev0 = 0;
        (void)cudaGetDevice(&dev0);
        st = mgpu_cuda(ctx, cudaSetDevice(dev));
        if (st == NTT_OK) st = mgpu_nccl(ctx, ncclCommInitRank(&ctx->comm[0], nranks, *id, rank));
        (void)cudaSetDevice(dev0);
    }
    if (st == NTT_OK) st = mgpu_nccl(ctx, ncclGetVersion(&ctx->nccl_version));
    return st;
}

void ntt_mgpu_destroy(ntt_mgpu_ctx *ctx)
{
    if (!ctx) return;
    mgpu_ctx_fini(ctx);
    free(ctx);
}

ntt_status ntt_mgpu_get_info(const ntt_mgpu_ctx *ctx, ntt_mgpu_info *info)
{
    if (!ctx || !info) return NTT_EINVAL;
    memset(info, 0, sizeof *info);
    info->gpus = ctx->gpus;
    info->local = ctx->local;
    info->first_gpu = ctx->first;
    info->processes = ctx->processes;
    for (int l = 0; l < ctx->local; l++) info->devices[l] = ctx->dev[l];
    info->nccl_version = ctx->nccl_version;
    info->peer_copies = mgpu_peer(ctx);
    return NTT_OK;
}

ntt_status ntt_mgpu_set_copy(ntt_mgpu_ctx *ctx, ntt_mgpu_copy how)
{
    if (!ctx || (how != NTT_MGPU_COPY_AUTO && how != NTT_MGPU_COPY_NCCL && how != NTT_MGPU_COPY_PEER))
        return NTT_EINVAL;
    if (how == NTT_MGPU_COPY_PEER && !ctx->peer_ok) return NTT_EUNSUPPORTED;
    ctx->copy = how;
    return NTT_OK;
}

ntt_cuda_stream ntt_mgpu_stream(const ntt_mgpu_ctx *ctx, int l)
{
    if (!ctx || l < 0 || l >= ctx->local) return NULL;
    return (ntt_cuda_stream)ctx->stream[l];
}

static ntt_status sync_one(ntt_mgpu_ctx *ctx, int l, void *arg)
{
    (void)arg;
    return mgpu_cuda(ctx, cudaStreamSynchronize(ctx->stream[l]));
}

ntt_status ntt_mgpu_sync(ntt_mgpu_ctx *ctx)
{
    return ctx ? mgpu_each(ctx, false, sync_one, NULL) : NTT_EINVAL;
}

ntt_status ntt_mgpu_stats_get(const ntt_mgpu_ctx *ctx, ntt_mgpu_stats *s)
{
    if (!ctx || !s) return NTT_EINVAL;
    *s = ctx->stats;
    return NTT_OK;
}

void ntt_mgpu_stats_reset(ntt_mgpu_ctx *ctx)
{
    if (ctx) memset(&ctx->stats, 0, sizeof ctx->stats);
}
