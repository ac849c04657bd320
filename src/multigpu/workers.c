/* mgpu_each and the context's launching threads.  A call that spreads
   work over several GPUs is bound by the host as much as by the GPUs: one
   thread enqueuing a batch of small launches on every GPU in turn keeps
   each GPU idle while it serves the others.  So a context keeps one
   thread per local GPU after the first (the calling thread serves GPU 0),
   started at its first threaded call and joined when it is destroyed.
   A call posts a round; each GPU's share goes to whichever side claims it
   first: its thread, or the caller once GPU 0's share is enqueued.  A
   thread that sleeps takes tens of microseconds to wake (more in a
   virtual machine), as long as a GPU's share of a small call, so after a
   pause the caller enqueues every share itself, as one thread would,
   while in back-to-back calls the threads, spinning between rounds,
   claim theirs at once.  Both sides spin SPIN_NS before they sleep. */
#include "mgpu_internal.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <time.h>
#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#define SPIN_PAUSE() _mm_pause()
#else
#define SPIN_PAUSE() ((void)0)
#endif

#define SPIN_NS 500000L

struct mgpu_workers {
    pthread_mutex_t mu;
    pthread_cond_t go, done;
    atomic_ulong round; /* the round posted last (the first is 1) */
    atomic_bool quit;
    mgpu_fn fn;         /* the round's, set before it is posted */
    void *arg;
    /* Per GPU: 2 r + 1 when its thread claimed round r's share, 2 r when
       the caller did; the round its thread finished last. */
    atomic_ulong claim[NTT_MGPU_MAX_LOCAL], finished[NTT_MGPU_MAX_LOCAL];
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

static long elapsed_ns(const struct timespec *t0)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (t.tv_sec - t0->tv_sec) * 1000000000L + (t.tv_nsec - t0->tv_nsec);
}

/* Spins up to SPIN_NS until ready(w, l, x) holds; whether it did. */
typedef bool (*ready_fn)(struct mgpu_workers *w, int l, unsigned long x);
static bool spin(struct mgpu_workers *w, ready_fn ready, int l, unsigned long x)
{
    struct timespec t0;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    for (unsigned i = 1;; i++) {
        if (ready(w, l, x)) return true;
        SPIN_PAUSE();
        if (i % 64 == 0 && elapsed_ns(&t0) > SPIN_NS) return false;
    }
}

/* Spins, then sleeps on cv, until ready(w, l, x) holds.  The side that
   makes it hold signals cv under the mutex, so a sleeper is either before
   its check or inside its wait. */
static void await(struct mgpu_workers *w, pthread_cond_t *cv, ready_fn ready, int l,
                  unsigned long x)
{
    if (spin(w, ready, l, x)) return;
    pthread_mutex_lock(&w->mu);
    while (!ready(w, l, x)) pthread_cond_wait(cv, &w->mu);
    pthread_mutex_unlock(&w->mu);
}

static bool posted(struct mgpu_workers *w, int l, unsigned long seen)
{
    (void)l;
    return atomic_load_explicit(&w->round, memory_order_acquire) != seen ||
           atomic_load_explicit(&w->quit, memory_order_acquire);
}

static bool finished(struct mgpu_workers *w, int l, unsigned long r)
{
    return atomic_load_explicit(&w->finished[l], memory_order_acquire) == r;
}

/* Claims GPU l's share of round r for its thread (who 1) or the caller
   (who 0); false if the other side has. */
static bool claim(struct mgpu_workers *w, int l, unsigned long r, unsigned long who)
{
    unsigned long old = atomic_load_explicit(&w->claim[l], memory_order_acquire);
    while (old / 2 < r)
        if (atomic_compare_exchange_weak_explicit(&w->claim[l], &old, 2 * r + who,
                                                  memory_order_acq_rel, memory_order_acquire))
            return true;
    return false;
}

static void *worker(void *p)
{
    worker_arg a = *(worker_arg *)p;
    free(p);
    struct mgpu_workers *w = a.w;
    unsigned long seen = 0;
    for (;;) {
        await(w, &w->go, posted, a.l, seen);
        if (atomic_load_explicit(&w->quit, memory_order_acquire)) break;
        seen = atomic_load_explicit(&w->round, memory_order_acquire);
        /* A share claimed here belongs to the round posted last: the
           caller posts no other before this one finishes it. */
        if (!claim(w, a.l, seen, 1)) continue;
        w->st[a.l] = run_on(w->ctx, a.l, w->fn, w->arg);
        atomic_store_explicit(&w->finished[a.l], seen, memory_order_release);
        pthread_mutex_lock(&w->mu);
        pthread_cond_signal(&w->done);
        pthread_mutex_unlock(&w->mu);
    }
    return NULL;
}

static void workers_stop(struct mgpu_workers *w)
{
    pthread_mutex_lock(&w->mu);
    atomic_store_explicit(&w->quit, true, memory_order_release);
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
    atomic_init(&w->round, 0);
    atomic_init(&w->quit, false);
    for (int l = 0; l < NTT_MGPU_MAX_LOCAL; l++) {
        atomic_init(&w->claim[l], 0);
        atomic_init(&w->finished[l], 0);
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
        w->fn = fn;
        w->arg = arg;
        pthread_mutex_lock(&w->mu);
        const unsigned long r = atomic_fetch_add_explicit(&w->round, 1, memory_order_release) + 1;
        pthread_cond_broadcast(&w->go);
        pthread_mutex_unlock(&w->mu);
        st = run_on(ctx, 0, fn, arg);
        for (int l = 1; l < ctx->local; l++) {
            if (!claim(w, l, r, 0)) continue;
            const ntt_status s = run_on(ctx, l, fn, arg);
            if ((int)s > (int)st) st = s;
        }
        for (int l = 1; l < ctx->local; l++) {
            if (atomic_load_explicit(&w->claim[l], memory_order_acquire) != 2 * r + 1) continue;
            await(w, &w->done, finished, l, r);
            if ((int)w->st[l] > (int)st) st = w->st[l];
        }
    } else {
        for (int l = 0; l < ctx->local; l++) {
            const ntt_status s = run_on(ctx, l, fn, arg);
            if ((int)s > (int)st) st = s;
        }
    }
    const ntt_status s2 = mgpu_cuda(ctx, cudaSetDevice(dev0));
    return st != NTT_OK ? st : s2;
}
