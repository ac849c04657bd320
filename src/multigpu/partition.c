/* The batch ranges: contiguous, in GPU order, as even as integers allow
   (the four-step's block rule, src/core/fourstep.h). */
#include "mgpu_internal.h"
#include "fourstep.h"

ntt_mgpu_range ntt_mgpu_range_of(const ntt_mgpu_ctx *ctx, size_t total, int g)
{
    ntt_mgpu_range r = {0, 0};
    if (!ctx || g < 0 || g >= ctx->gpus) return r;
    r.first = ntt_fs_block_start(total, g, ctx->gpus);
    r.count = ntt_fs_block_start(total, g + 1, ctx->gpus) - r.first;
    return r;
}
