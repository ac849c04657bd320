/* The thread-safety promise of ntt.h under ThreadSanitizer (issue 51):
   threads that start before the library has done anything (its lazy
   initialisations race) hammer ntt_polymul_mod with mixed moduli, lengths
   and backends, so its plan cache is shared and evicted, while one of them
   calls ntt_cache_clear; others use plans of their own concurrently (the
   OpenMP backend's teams inside them).  Every product is checked against
   a schoolbook one, every plan's results against a direct cyclic product.
   Built with NTT_TSAN=ON; NTT_TSAN_NO_OPENMP=1 leaves the OpenMP backend
   out (where TSan cannot follow libomp). */
#include "test_common.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#define THREADS 8
#define ROUNDS 24
#define MAXLEN 160
#define PN 128

static const ntt_backend all_backends[] = {NTT_BACKEND_SCALAR, NTT_BACKEND_AVX2,
                                           NTT_BACKEND_AVX512, NTT_BACKEND_OPENMP,
                                           NTT_BACKEND_AUTO};
#define NB (sizeof all_backends / sizeof all_backends[0])

static const uint64_t moduli[] = {7340033, 998244353, 1000000007, 4611686018326724609ull,
                                  ((uint64_t)1 << 63) - 25, 65537, 2};
#define NP (sizeof moduli / sizeof moduli[0])

typedef struct worker {
    int id;
    uint64_t seed;
    unsigned long products, plans, failures;
} worker;

static uint64_t next(uint64_t *s)
{
    uint64_t z = (*s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

static ntt_backend pick_backend(uint64_t *s)
{
    for (;;) {
        ntt_backend b = all_backends[next(s) % NB];
        if (b == NTT_BACKEND_OPENMP && getenv("NTT_TSAN_NO_OPENMP")) continue;
        if (ntt_backend_available(b)) return b;
    }
}

/* ntt_polymul_mod on the shared cache; worker 0 also clears it. */
static void products(worker *w)
{
    uint64_t a[MAXLEN], b[MAXLEN], c[2 * MAXLEN], want[2 * MAXLEN];
    for (int r = 0; r < ROUNDS; r++) {
        const uint64_t p = moduli[next(&w->seed) % NP];
        const ntt_backend be = pick_backend(&w->seed);
        const size_t la = 1 + next(&w->seed) % MAXLEN, lb = 1 + next(&w->seed) % MAXLEN;
        for (size_t i = 0; i < la; i++) a[i] = next(&w->seed) % p;
        for (size_t i = 0; i < lb; i++) b[i] = next(&w->seed) % p;
        ntt_status st = ntt_polymul_mod(c, a, la, b, lb, p, be);
        t_schoolbook(want, a, la, b, lb, p);
        if (st != NTT_OK || memcmp(c, want, (la + lb - 1) * sizeof *c) != 0) {
            fprintf(stderr, "worker %d: polymul_mod p %llu la %zu lb %zu %s: %s\n", w->id,
                    (unsigned long long)p, la, lb, ntt_backend_name(be), ntt_status_string(st));
            w->failures++;
        }
        w->products++;
        if (w->id == 0 && r % 3 == 2) ntt_cache_clear();
    }
}

/* A plan of this worker's own: forward and inverse round trip, cyclic
   product against a direct one. */
static void own_plan(worker *w)
{
    uint64_t p = 0;
    const bool u32 = next(&w->seed) & 1;
    if (ntt_find_prime(u32 ? 30 : 62, 10, (unsigned)(next(&w->seed) % 4), &p) != NTT_OK) {
        w->failures++;
        return;
    }
    const ntt_backend be = pick_backend(&w->seed);
    ntt_plan_options o = {.threads = be == NTT_BACKEND_OPENMP ? 2 : 0};
    ntt_plan *plan = NULL;
    if (ntt_plan_create(&plan, PN, p, u32 ? NTT_U32 : NTT_U64, be, &o) != NTT_OK) {
        w->failures++;
        return;
    }
    uint64_t a[PN], b[PN], c[PN], want[PN];
    uint32_t a32[PN], b32[PN], c32[PN], keep[PN];
    for (size_t i = 0; i < PN; i++) {
        a[i] = next(&w->seed) % p, b[i] = next(&w->seed) % p;
        a32[i] = (uint32_t)a[i], b32[i] = (uint32_t)b[i], keep[i] = a32[i];
    }
    t_cyclic_mul(want, a, b, PN, p, false);
    bool ok;
    if (u32) {
        ok = ntt_forward_u32(plan, a32) == NTT_OK && ntt_inverse_u32(plan, a32) == NTT_OK &&
             memcmp(a32, keep, sizeof a32) == 0 && ntt_polymul_u32(plan, c32, a32, b32) == NTT_OK;
        for (size_t i = 0; ok && i < PN; i++) ok = c32[i] == want[i];
    } else {
        ok = ntt_polymul_u64(plan, c, a, b) == NTT_OK && memcmp(c, want, sizeof c) == 0;
    }
    if (!ok) {
        fprintf(stderr, "worker %d: own %s plan, p %llu: wrong result\n", w->id,
                ntt_backend_name(be), (unsigned long long)p);
        w->failures++;
    }
    ntt_plan_destroy(plan);
    w->plans++;
}

static void *run(void *arg)
{
    worker *w = arg;
    /* The first library calls of the process, in every thread at once. */
    (void)ntt_backend_resolve_auto();
    for (int r = 0; r < 4; r++) {
        if (w->id % 2) own_plan(w);
        products(w);
        if (w->id % 2 == 0) own_plan(w);
    }
    return NULL;
}

int main(void)
{
    /* The seed comes from test_init, which touches no library state. */
    test_init("test_threads");
    uint64_t seed = test_seed();
    pthread_t th[THREADS];
    worker ws[THREADS];
    for (int i = 0; i < THREADS; i++) {
        ws[i] = (worker){.id = i, .seed = seed + (uint64_t)i * 0x1234567};
        CHECK(pthread_create(&th[i], NULL, run, &ws[i]) == 0, "pthread_create %d", i);
    }
    unsigned long products_total = 0, plans_total = 0;
    for (int i = 0; i < THREADS; i++) {
        pthread_join(th[i], NULL);
        CHECK_EQ(0, ws[i].failures, "worker %d: failures", i);
        products_total += ws[i].products;
        plans_total += ws[i].plans;
    }
    ntt_cache_clear();
    printf("test_threads: %d threads, %lu products, %lu own plans\n", THREADS, products_total,
           plans_total);
    return test_finish();
}
