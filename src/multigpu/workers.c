/* mgpu_each and the context's launching threads.  A call that spreads
   work over several GPUs is bound by the host as much as by the GPUs: one
   thread enqueuing a batch of small launches on every GPU in turn keeps
   each GPU idle while it serves the others.  So a context keeps one
   waiting thread per local GPU after the first (the calling thread serves
   GPU 0), started at its first threaded call and joined when it is
   destroyed; a call hands each of them its share and waits for all. */
#include "mgpu_internal.h"

#include <pthread.h>
#include <stdlib.h>

struct mgpu_workers {
    pthread_mutex_t mu;
    pthread_cond_t go, done;
    unsigned long round; /* bumped by each call; a thread runs each round once */
    int pending;         /* threads yet to finish this round */
    bool quit;
    mgpu_fn fn;
    void *arg;
    ntt_status st[NTT_MGPU_MAX_LOCAL];
    pthread_t tid[NTT_MGPU_MAX_LOCAL];
    int started; /* threads for GPUs 1 .. started */
    ntt_mgpu_ctx *ctx;
};

typedef struct {
    struct mgpu_workers *w;
    int l;
} worker_arg;

static ntt_status run_on(ntt_mgpu_ctx *ctx, int l, mgpu_fn fn, void *arg)
{
    const ntt_status st = mgpu_cuda(ctx, cudaSetDevice(ctx->dev[l]));
    return st == NTT_OK ? fn(ctx, l, arg) : st;
}

static void *worker(void *p)
{
    worker_arg a = *(worker_arg *)p;
    free(p);
    struct mgpu_workers *w = a.w;
    unsigned long seen = 0;
    pthread_mutex_lock(&w->mu);
    for (;;) {
        while (w->round == seen && !w->quit) pthread_cond_wait(&w->go, &w->mu);
        if (w->quit) break;
        seen = w->round;
        const mgpu_fn fn = w->fn;
        void *arg = w->arg;
        pthread_mutex_unlock(&w->mu);
        const ntt_status st = run_on(w->ctx, a.l, fn, arg);
        pthread_mutex_lock(&w->mu);
        w->st[a.l] = st;
        if (--w->pending == 0) pthread_cond_signal(&w->done);
    }
    pthread_mutex_unlock(&w->mu);
    return NULL;
}

static void workers_stop(struct mgpu_workers *w)
{
    pthread_mutex_lock(&w->mu);
    w->quit = true;
    pthread_cond_broadcast(&w->go);
    pthread_mutex_unlock(&w->mu);
    for (int l = 1; l <= w->started; l++) pthread_join(w->tid[l], NULL);
    pthread_cond_destroy(&w->done);
    pthread_cond_destroy(&w->go);
    pthread_mutex_destroy(&w->mu);
    free(w);
}

/* The threads for GPUs 1 .. local-1; NULL when any could not be made (the
   caller then serves every GPU itself). */
static struct mgpu_workers *workers_start(ntt_mgpu_ctx *ctx)
{
    struct mgpu_workers *w = calloc(1, sizeof *w);
    if (!w) return NULL;
    if (pthread_mutex_init(&w->mu, NULL) != 0) {
        free(w);
        return NULL;
    }
    if (pthread_cond_init(&w->go, NULL) != 0) {
        pthread_mutex_destroy(&w->mu);
        free(w);
        return NULL;
    }
    if (pthread_cond_init(&w->done, NULL) != 0) {
        pthread_cond_destroy(&w->go);
        pthread_mutex_destroy(&w->mu);
        free(w);
        return NULL;
    }
    w->ctx = ctx;
    for (int l = 1; l < ctx->local; l++) {
        worker_arg *a = malloc(sizeof *a);
        if (a) *a = (worker_arg){w, l};
        if (!a || pthread_create(&w->tid[l], NULL, worker, a) != 0) {
            free(a);
            workers_stop(w);
            return NULL;
        }
        w->started = l;
    }
    return w;
}

void mgpu_workers_free(ntt_mgpu_ctx *ctx)
{
    if (ctx->workers) workers_stop(ctx->workers);
    ctx->workers = NULL;
}

ntt_status mgpu_each(ntt_mgpu_ctx *ctx, bool threads, mgpu_fn fn, void *arg)
{
    int dev0 = 0;
    ntt_status st = mgpu_cuda(ctx, cudaGetDevice(&dev0));
    if (st != NTT_OK) return st;
    if (threads && ctx->local > 1 && !ctx->workers) ctx->workers = workers_start(ctx);
    struct mgpu_workers *w = threads && ctx->local > 1 ? ctx->workers : NULL;
    if (w) {
        pthread_mutex_lock(&w->mu);
        w->fn = fn;
        w->arg = arg;
        w->pending = ctx->local - 1;
        w->round++;
        pthread_cond_broadcast(&w->go);
        pthread_mutex_unlock(&w->mu);
        st = run_on(ctx, 0, fn, arg);
        pthread_mutex_lock(&w->mu);
        while (w->pending > 0) pthread_cond_wait(&w->done, &w->mu);
        for (int l = 1; l < ctx->local; l++)
            if ((int)w->st[l] > (int)st) st = w->st[l];
        pthread_mutex_unlock(&w->mu);
    } else {
        for (int l = 0; l < ctx->local; l++) {
            const ntt_status s = run_on(ctx, l, fn, arg);
            if ((int)s > (int)st) st = s;
        }
    }
    const ntt_status s2 = mgpu_cuda(ctx, cudaSetDevice(dev0));
    return st != NTT_OK ? st : s2;
}
