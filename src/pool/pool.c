/* The library's threads (pool.h): phases of units claimed from one counter,
   waits that spin briefly and then sleep. */
#include "pool.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>
#ifdef _OPENMP
#include <omp.h>
#endif
#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#define SPIN_PAUSE() _mm_pause()
#else
#define SPIN_PAUSE() ((void)0)
#endif

struct worker {
    ntt_pool *p;
    int id;
    pthread_t tid;
};

struct ntt_pool {
    /* The job: written by the caller while no worker is inside (active 0,
       open false), read by workers that entered while open. */
    ntt_pool_fn fn;
    void *arg;
    unsigned phases;
    size_t start[NTT_POOL_MAX_PHASES + 1]; /* phase k: units [start[k], start[k+1]) */
    _Alignas(64) atomic_size_t next;        /* the next unit to claim */
    _Alignas(64) atomic_size_t done;        /* units finished */
    _Alignas(64) atomic_ulong epoch;        /* jobs posted */
    atomic_bool open;                       /* a job is posted and not finished */
    atomic_int active;                      /* workers inside a job */
    atomic_int sleepers;                    /* threads asleep on `phase` */
    atomic_int idle;                        /* workers asleep on `go` */
    atomic_bool quit;
    atomic_flag busy;                       /* a caller is running a job */
    pthread_mutex_t mu;
    pthread_cond_t go, phase;
    int threads, started;
    long spin_ns; /* spin this long, then sleep */
    /* The caller's, under `busy`: jobs left to run alone, and how many
       the last back-off took (see ntt_pool_run). */
    int backoff, penalty;
    struct worker w[];
};

static long elapsed_ns(const struct timespec *t0)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (t.tv_sec - t0->tv_sec) * 1000000000L + (t.tv_nsec - t0->tv_nsec);
}

static bool phase_over(ntt_pool *p, size_t target) { return atomic_load(&p->done) >= target; }

/* Until `target` units are done: spin, then sleep on `phase`.  The thread
   that finishes a phase broadcasts under the mutex when it sees a sleeper;
   a sleeper counts itself before it checks, so one of the two sees the
   other.  *waited (unless NULL) grows by the time it took. */
static void wait_done(ntt_pool *p, size_t target, long *waited)
{
    if (phase_over(p, target)) return;
    struct timespec t0;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    if (waited) {
        wait_done(p, target, NULL);
        *waited += elapsed_ns(&t0);
        return;
    }
    for (unsigned i = 1; !phase_over(p, target); i++) {
        SPIN_PAUSE();
        if (i % 64 == 0 && elapsed_ns(&t0) > p->spin_ns) {
            pthread_mutex_lock(&p->mu);
            atomic_fetch_add(&p->sleepers, 1);
            while (!phase_over(p, target)) pthread_cond_wait(&p->phase, &p->mu);
            atomic_fetch_sub(&p->sleepers, 1);
            pthread_mutex_unlock(&p->mu);
            return;
        }
    }
}

/* Claims and runs units until none is left.  A thread claims units in
   increasing order, so its phase k only advances. */
static void work(ntt_pool *p, int id, long *waited)
{
    const size_t total = p->start[p->phases];
    unsigned k = 0;
    for (;;) {
        const size_t u = atomic_fetch_add(&p->next, 1);
        if (u >= total) return;
        while (u >= p->start[k + 1]) k++;
        wait_done(p, p->start[k], waited);
        p->fn(p->arg, k, u - p->start[k], id);
        const size_t d = atomic_fetch_add(&p->done, 1) + 1;
        if (d == p->start[k + 1] && atomic_load(&p->sleepers) > 0) {
            pthread_mutex_lock(&p->mu);
            pthread_cond_broadcast(&p->phase);
            pthread_mutex_unlock(&p->mu);
        }
    }
}

static bool posted(ntt_pool *p, unsigned long seen)
{
    return atomic_load(&p->epoch) != seen || atomic_load(&p->quit);
}

static void *worker_main(void *arg)
{
    const struct worker *me = arg;
    ntt_pool *p = me->p;
    unsigned long seen = 0;
    for (;;) {
        struct timespec t0;
        clock_gettime(CLOCK_MONOTONIC, &t0);
        for (unsigned i = 1; !posted(p, seen); i++) {
            SPIN_PAUSE();
            if (i % 64 == 0 && elapsed_ns(&t0) > p->spin_ns) {
                pthread_mutex_lock(&p->mu);
                atomic_fetch_add(&p->idle, 1);
                while (!posted(p, seen)) pthread_cond_wait(&p->go, &p->mu);
                atomic_fetch_sub(&p->idle, 1);
                pthread_mutex_unlock(&p->mu);
                break;
            }
        }
        if (atomic_load(&p->quit)) return NULL;
        /* Counted in before looking: while a worker is inside, the caller
           neither closes its wait nor writes the next job. */
        atomic_fetch_add(&p->active, 1);
        seen = atomic_load(&p->epoch);
        if (atomic_load(&p->open)) work(p, me->id, NULL);
        atomic_fetch_sub(&p->active, 1);
    }
}

static void solo(const ntt_pool_job *job)
{
    for (unsigned k = 0; k < job->phases; k++)
        for (size_t u = 0; u < job->units[k]; u++) job->fn(job->arg, k, u, 0);
}

/* Whether every worker has left the last job, after a short spin; a worker
   that a busy host descheduled inside it may take a time slice to leave,
   and the caller does not wait for that. */
static bool quiet(ntt_pool *p)
{
    struct timespec t0;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    for (unsigned i = 1; atomic_load(&p->active) != 0; i++) {
        SPIN_PAUSE();
        if (i % 64 == 0 && elapsed_ns(&t0) > p->spin_ns) return false;
    }
    return true;
}

/* Longest run of jobs a pool runs alone after threads did not pay off. */
#define MAX_BACKOFF 64

void ntt_pool_run(ntt_pool *p, const ntt_pool_job *job)
{
    if (!p || atomic_flag_test_and_set(&p->busy)) {
        solo(job);
        return;
    }
    if (p->backoff > 0 || !quiet(p)) {
        if (p->backoff > 0) p->backoff--;
        atomic_flag_clear(&p->busy);
        solo(job);
        return;
    }
    struct timespec t0;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    long waited = 0;
    p->fn = job->fn;
    p->arg = job->arg;
    p->phases = job->phases;
    p->start[0] = 0;
    for (unsigned k = 0; k < job->phases; k++) p->start[k + 1] = p->start[k] + job->units[k];
    atomic_store(&p->next, 0);
    atomic_store(&p->done, 0);
    atomic_store(&p->open, true);
    atomic_fetch_add(&p->epoch, 1);
    if (atomic_load(&p->idle) > 0) {
        pthread_mutex_lock(&p->mu);
        pthread_cond_broadcast(&p->go);
        pthread_mutex_unlock(&p->mu);
    }
    work(p, 0, &waited);
    wait_done(p, p->start[p->phases], &waited);
    /* Workers still inside find no unit left and touch nothing else; the
       next job waits for them to leave (quiet). */
    atomic_store(&p->open, false);
    /* Threads that do not pay off: when the caller waited for the others
       longer than it worked (a host whose cores other processes keep busy
       takes a worker off its core while it holds a unit, for a time slice
       of milliseconds), the next jobs run on the caller alone, 2, 4 ..
       MAX_BACKOFF of them while it lasts, then the threads are tried
       again; each job that pays off halves the next back-off.  On an idle
       host the caller waits only for a phase's last units, a small part of
       its own work. */
    const long worked = elapsed_ns(&t0) - waited;
    if (waited > worked) {
        p->penalty = p->penalty ? (p->penalty < MAX_BACKOFF ? 2 * p->penalty : MAX_BACKOFF) : 2;
        p->backoff = p->penalty;
    } else {
        p->penalty /= 2;
    }
    atomic_flag_clear(&p->busy);
}

void ntt_pool_for(ntt_pool *p, size_t units, ntt_pool_fn fn, void *arg)
{
    ntt_pool_job job = {.fn = fn, .arg = arg, .phases = 1};
    job.units[0] = units;
    ntt_pool_run(p, &job);
}

static void stop(ntt_pool *p)
{
    pthread_mutex_lock(&p->mu);
    atomic_store(&p->quit, true);
    pthread_cond_broadcast(&p->go);
    pthread_mutex_unlock(&p->mu);
    for (int i = 1; i <= p->started; i++) pthread_join(p->w[i].tid, NULL);
    pthread_cond_destroy(&p->phase);
    pthread_cond_destroy(&p->go);
    pthread_mutex_destroy(&p->mu);
    free(p);
}

static int online_cpus(void)
{
    const long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n > 0 && n < 65536 ? (int)n : 1;
}

ntt_status ntt_pool_create(ntt_pool **out, int threads, long spin_ns)
{
    *out = NULL;
    const int cpus = online_cpus();
    if (threads > cpus) threads = cpus;
    if (threads <= 1) return NTT_OK;
    ntt_pool *p = calloc(1, sizeof *p + (size_t)threads * sizeof p->w[0]);
    if (!p) return NTT_ENOMEM;
    if (pthread_mutex_init(&p->mu, NULL) != 0) {
        free(p);
        return NTT_ENOMEM;
    }
    if (pthread_cond_init(&p->go, NULL) != 0) {
        pthread_mutex_destroy(&p->mu);
        free(p);
        return NTT_ENOMEM;
    }
    if (pthread_cond_init(&p->phase, NULL) != 0) {
        pthread_cond_destroy(&p->go);
        pthread_mutex_destroy(&p->mu);
        free(p);
        return NTT_ENOMEM;
    }
    atomic_init(&p->next, 0);
    atomic_init(&p->done, 0);
    atomic_init(&p->epoch, 0);
    atomic_init(&p->open, false);
    atomic_init(&p->active, 0);
    atomic_init(&p->sleepers, 0);
    atomic_init(&p->idle, 0);
    atomic_init(&p->quit, false);
    atomic_flag_clear(&p->busy);
    p->threads = threads;
    p->spin_ns = spin_ns > 0 ? spin_ns : 0;
    for (int i = 1; i < threads; i++) {
        p->w[i] = (struct worker){.p = p, .id = i};
        if (pthread_create(&p->w[i].tid, NULL, worker_main, &p->w[i]) != 0) {
            stop(p);
            return NTT_ENOMEM;
        }
        p->started = i;
    }
    *out = p;
    return NTT_OK;
}

void ntt_pool_destroy(ntt_pool *p)
{
    if (p) stop(p);
}

int ntt_pool_threads(const ntt_pool *p) { return p ? p->threads : 1; }

void ntt_pool_share(size_t total, size_t shares, size_t u, size_t *b, size_t *e)
{
    const size_t units = (total + 15) / 16, per = units / shares, rem = units % shares;
    const size_t ub = u * per + (u < rem ? u : rem), ue = ub + per + (u < rem ? 1 : 0);
    *b = ub * 16 < total ? ub * 16 : total;
    *e = ue * 16 < total ? ue * 16 : total;
}

int ntt_pool_default_threads(void)
{
#ifdef _OPENMP
    return omp_get_max_threads();
#else
    return online_cpus();
#endif
}
