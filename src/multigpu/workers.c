/* mgpu_each and the context's launching threads.  A call that spreads
   work over several GPUs is bound by the host as much as by the GPUs: one
   thread enqueuing a batch of small launches on every GPU in turn keeps
   each GPU idle while it serves the others.  So a context keeps one
   thread per local GPU after the first (the calling thread is the other),
   a pool of the library's kind (src/pool, compiled into this library too),
   started at its first threaded call and joined when it is destroyed.
   Each GPU's share is a unit of the pool's job, claimed by whichever
   thread comes first, the caller included: after a pause, when the
   threads sleep (waking takes tens of microseconds, more in a virtual
   machine, as long as a GPU's share of a small call), the caller enqueues
   every share itself, as one thread would, while in back-to-back calls
   the threads, spinning between rounds, claim theirs at once.  Waits spin
   SPIN_NS, longer than the pool's default, since a call here is mostly
   enqueuing and its rounds come close together. */
#include "mgpu_internal.h"
#include "../pool/pool.h"

#define SPIN_NS 500000L

typedef struct {
    ntt_mgpu_ctx *ctx;
    mgpu_fn fn;
    void *arg;
    ntt_status st[NTT_MGPU_MAX_LOCAL];
} each_job;

static ntt_status run_on(ntt_mgpu_ctx *ctx, int l, mgpu_fn fn, void *arg)
{
    const ntt_status st = mgpu_cuda(ctx, cudaSetDevice(ctx->dev[l]));
    return st == NTT_OK ? fn(ctx, l, arg) : st;
}

static void each_unit(void *arg, unsigned phase, size_t l, int thread)
{
    (void)phase;
    (void)thread;
    each_job *j = arg;
    j->st[l] = run_on(j->ctx, (int)l, j->fn, j->arg);
}

void mgpu_workers_free(ntt_mgpu_ctx *ctx)
{
    ntt_pool_destroy(ctx->workers);
    ctx->workers = NULL;
}

ntt_status mgpu_each(ntt_mgpu_ctx *ctx, bool threads, mgpu_fn fn, void *arg)
{
    int dev0 = 0;
    ntt_status st = mgpu_cuda(ctx, cudaGetDevice(&dev0));
    if (st != NTT_OK) return st;
    /* Without the threads (none could be made) the caller serves every
       GPU itself. */
    if (threads && ctx->local > 1 && !ctx->workers)
        (void)ntt_pool_create(&ctx->workers, ctx->local, SPIN_NS);
    each_job j = {.ctx = ctx, .fn = fn, .arg = arg};
    ntt_pool_for(threads ? ctx->workers : NULL, (size_t)ctx->local, each_unit, &j);
    for (int l = 0; l < ctx->local; l++)
        if ((int)j.st[l] > (int)st) st = j.st[l];
    const ntt_status s2 = mgpu_cuda(ctx, cudaSetDevice(dev0));
    return st != NTT_OK ? st : s2;
}
