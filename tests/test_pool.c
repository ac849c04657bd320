/*
 * The library's thread pool (src/pool/pool.h), white box: every unit runs
 * once, phases in order (a unit sees every unit of the phase before done),
 * thread indices in range, the caller alone when there is no pool or the
 * pool is busy, jobs back to back and from two callers at once, the
 * position shares.
 */
#include "test_common.h"

#include "../src/pool/pool.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <unistd.h>

enum { PHASES = 6, MAXU = 300 };

typedef struct {
    int threads;
    size_t units[PHASES];
    atomic_int ran[PHASES][MAXU];
    atomic_size_t done[PHASES];
    atomic_int bad_order, bad_thread;
} rec;

static void unit(void *arg, unsigned phase, size_t u, int thread)
{
    rec *r = arg;
    if (thread < 0 || thread >= r->threads) atomic_fetch_add(&r->bad_thread, 1);
    if (phase > 0 && atomic_load(&r->done[phase - 1]) != r->units[phase - 1])
        atomic_fetch_add(&r->bad_order, 1);
    atomic_fetch_add(&r->ran[phase][u], 1);
    atomic_fetch_add(&r->done[phase], 1);
}

static void reset(rec *r, int threads)
{
    r->threads = threads;
    for (int k = 0; k < PHASES; k++) {
        atomic_store(&r->done[k], 0);
        for (int u = 0; u < MAXU; u++) atomic_store(&r->ran[k][u], 0);
    }
    atomic_store(&r->bad_order, 0);
    atomic_store(&r->bad_thread, 0);
}

static void run_and_check(ntt_pool *p, rec *r, const char *what)
{
    ntt_pool_job job = {.fn = unit, .arg = r, .phases = PHASES};
    for (int k = 0; k < PHASES; k++) {
        /* Empty phases and phases of one unit among the others. */
        r->units[k] = k == 2 ? 0 : k == 4 ? 1 : 1 + rnd_below(MAXU);
        job.units[k] = r->units[k];
    }
    reset(r, ntt_pool_threads(p));
    ntt_pool_run(p, &job);
    int once = 1;
    for (int k = 0; k < PHASES; k++)
        for (size_t u = 0; u < MAXU; u++)
            once &= atomic_load(&r->ran[k][u]) == (u < r->units[k] ? 1 : 0);
    CHECK(once, "%s: a unit ran other than once", what);
    CHECK_EQ(0, (uint64_t)atomic_load(&r->bad_order), "%s: a phase began early", what);
    CHECK_EQ(0, (uint64_t)atomic_load(&r->bad_thread), "%s: thread index out of range", what);
}

typedef struct {
    ntt_pool *p;
    rec r;
} caller;

static void *second_caller(void *arg)
{
    caller *c = arg;
    for (int i = 0; i < 50; i++) run_and_check(c->p, &c->r, "second caller");
    return NULL;
}

int main(void)
{
    test_init("test_pool");
    static rec r, r2;
    ntt_pool *p = (ntt_pool *)&r; /* overwritten */
    CHECK_STATUS(NTT_OK, ntt_pool_create(&p, 1, NTT_POOL_SPIN_NS), "one thread");
    CHECK(p == NULL, "one thread makes no pool");
    CHECK_EQ(1, (uint64_t)ntt_pool_threads(NULL), "threads of no pool");
    run_and_check(NULL, &r, "no pool");

    for (int nt = 2; nt <= 5; nt++) {
        /* Odd counts never spin: every wait sleeps.  On one CPU no pool. */
        CHECK_STATUS(NTT_OK, ntt_pool_create(&p, nt, nt % 2 ? 0 : NTT_POOL_SPIN_NS), "%d threads", nt);
        if (!p) continue;
        const long cpus = sysconf(_SC_NPROCESSORS_ONLN);
        CHECK_EQ((uint64_t)(nt < cpus ? nt : cpus), (uint64_t)ntt_pool_threads(p), "thread count");
        for (int i = 0; i < 200; i++) run_and_check(p, &r, "back to back");
        ntt_pool_destroy(p);
    }

    /* Two callers on one pool: one of them runs on its own thread. */
    CHECK_STATUS(NTT_OK, ntt_pool_create(&p, 3, NTT_POOL_SPIN_NS), "3 threads");
    caller c = {.p = p};
    pthread_t t;
    CHECK(pthread_create(&t, NULL, second_caller, &c) == 0, "pthread_create");
    for (int i = 0; i < 50; i++) run_and_check(p, &r2, "first caller");
    pthread_join(t, NULL);
    ntt_pool_destroy(p);
    ntt_pool_destroy(NULL);

    /* Shares: whole 16-element units, in order, covering [0, total). */
    for (int i = 0; i < 1000; i++) {
        const size_t total = rnd_below(5000), shares = 1 + rnd_below(40);
        size_t end = 0;
        for (size_t u = 0; u < shares; u++) {
            size_t b, e;
            ntt_pool_share(total, shares, u, &b, &e);
            CHECK(b == end && e >= b && e <= total && (b % 16 == 0 || b == total) && (e % 16 == 0 || e == total),
                  "share %zu of %zu of %zu: [%zu, %zu)", u, shares, total, b, e);
            end = e;
        }
        CHECK_EQ(total, end, "shares of %zu cover it", total);
    }
    CHECK(ntt_pool_default_threads() >= 1, "default thread count");
    return test_finish();
}
