/*
 * The library's own threads (pool.c): what the threaded CPU driver
 * (src/cpu/openmp.c) and the RNS stages (src/rns/ops.c) run their loops on,
 * instead of OpenMP parallel regions.  Not installed.
 *
 * Why not OpenMP: libgomp's threads spin between and inside regions for as
 * long as OMP_WAIT_POLICY / GOMP_SPINCOUNT say, read once when the process
 * starts; on a machine whose cores other processes keep busy, a spinning
 * thread takes the core from the one that holds the work, and 2 threads
 * on 2 busy vCPUs took 20-100x one thread's time (issue 62).  libgomp also
 * allocates a team for a region, even a one-thread one.
 *
 * The model: a job is a sequence of phases, each a number of units; phase
 * k + 1 starts when every unit of phase k is done.  Units are claimed one
 * at a time by whichever thread comes first, the caller included, so the
 * caller alone can finish a job whose workers never wake, and a worker
 * that a busy host deschedules holds at most one unit.  No thread waits
 * for another to arrive: a barrier is the end of a phase, i.e. of the
 * units, not of the threads.  A waiting thread spins briefly (a few tens
 * of microseconds), then sleeps on a condition variable.
 *
 * Thread index: the caller is 0, the workers 1 .. threads-1; fn gets the
 * index of the thread that runs the unit, for per-thread scratch.
 */
#ifndef NTT_POOL_H
#define NTT_POOL_H

#include "ntt.h"

#include <stddef.h>

typedef struct ntt_pool ntt_pool;

/* Unit `unit` of phase `phase`, run by thread `thread`. */
typedef void (*ntt_pool_fn)(void *arg, unsigned phase, size_t unit, int thread);

/* At most this many phases per job (the threaded driver's deepest product
   has 2 * 32 sweeps and 4 more). */
#define NTT_POOL_MAX_PHASES 72

typedef struct {
    ntt_pool_fn fn;
    void *arg;
    unsigned phases;                   /* <= NTT_POOL_MAX_PHASES */
    size_t units[NTT_POOL_MAX_PHASES]; /* 0 units: a phase skipped */
} ntt_pool_job;

/* How long a waiting thread spins before it sleeps, by default: long
   enough that back-to-back calls find the workers awake (a sleeper takes
   tens of microseconds to wake, more in a VM), short enough that on a
   busy host a waiting thread soon gives its core to the thread that holds
   the work, where libgomp's default spins for milliseconds. */
#define NTT_POOL_SPIN_NS 50000L

/* A pool for jobs on `threads` threads, at most the online CPUs (more
   never run at once, and the units go to whichever thread is free, so the
   count changes no result): the caller's and the others, started here and
   sleeping until a job comes; waits spin for spin_ns (>= 0) before they
   sleep.  threads (so capped) <= 1 makes no pool: *out = NULL, NTT_OK
   (ntt_pool_run then runs on the caller).  NTT_ENOMEM where
   memory or a thread could not be had, *out NULL and nothing left behind.
   Allocates the pool once; nothing after. */
ntt_status ntt_pool_create(ntt_pool **out, int threads, long spin_ns);

/* Stops and joins the workers and frees the pool; NULL is a no-op.  Not
   while a job runs on it. */
void ntt_pool_destroy(ntt_pool *p);

/* The pool's thread count, the caller's included; 1 for NULL. */
int ntt_pool_threads(const ntt_pool *p);

/* Runs job on the pool's threads and returns when every unit has run; the
   units of a phase in any order and concurrently, phase after phase
   (everything a phase's units wrote is visible to the next phase's).  With
   p NULL, or p busy with another caller's job, or backing off (after a
   job in which the caller waited for the others longer than it worked,
   the next 2, 4 .. 64 run alone), the calling thread runs every unit
   itself, in order, as thread 0.  Allocates nothing, makes no system call
   unless a thread has gone to sleep. */
void ntt_pool_run(ntt_pool *p, const ntt_pool_job *job);

/* One phase of `units` units: fn(arg, 0, unit, thread). */
void ntt_pool_for(ntt_pool *p, size_t units, ntt_pool_fn fn, void *arg);

/* [*b, *e): share u of `shares` of [0, total), in whole units of 16
   elements (a 64-byte line of u32, whole vectors for every kernel); empty
   where there is too little to go round. */
void ntt_pool_share(size_t total, size_t shares, size_t u, size_t *b, size_t *e);

/* The thread count a threaded call with threads = 0 takes: OMP_NUM_THREADS
   (omp_get_max_threads()) where the library has OpenMP, else the online
   CPUs. */
int ntt_pool_default_threads(void);

#endif /* NTT_POOL_H */
