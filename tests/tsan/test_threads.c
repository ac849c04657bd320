/* The thread-safety promise of ntt.h under ThreadSanitizer (issue 51):
   threads that start before the library has done anything (its lazy
   initialisations race) hammer ntt_polymul_mod with mixed moduli, lengths
   and backends, so its plan cache is shared and evicted, while one of them
   calls ntt_cache_clear; others use plans of their own concurrently (the
   threaded backend's pools inside them, src/pool).  Every product is
   checked against a schoolbook one, every plan's results against a direct
   cyclic product.  Built with NTT_TSAN=ON. */
#include "test_common.h"

#include "ntt_rns.h"

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

/* Work large enough that the threaded backend's pool shares it out
   (src/pool): a 2^14-point transform pair and product and a batch on 3
   threads against one thread, and an RNS key switch on 2 threads against
   one; run by two workers at once, so two pools work side by side. */
#define BN ((size_t)1 << 14)
static void pool_work(worker *w)
{
    uint64_t p = 0;
    if (ntt_find_prime(30, 15, (unsigned)(next(&w->seed) % 4), &p) != NTT_OK) {
        w->failures++;
        return;
    }
    ntt_plan *pl[2] = {NULL, NULL};
    uint32_t *x = malloc(6 * 4 * BN * sizeof *x);
    if (!x) {
        w->failures++;
        return;
    }
    for (int f = 0; f < 2; f++) {
        const ntt_plan_options o = {.threads = f ? 3 : 1};
        if (ntt_plan_create(&pl[f], BN, p, NTT_U32, NTT_BACKEND_OPENMP, &o) != NTT_OK) w->failures++;
    }
    if (pl[0] && pl[1]) {
        uint32_t *a = x, *b = x + 4 * BN, *c[2] = {x + 8 * BN, x + 12 * BN},
                 *t[2] = {x + 16 * BN, x + 20 * BN};
        for (size_t i = 0; i < 4 * BN; i++) a[i] = (uint32_t)(next(&w->seed) % p), b[i] = (uint32_t)(next(&w->seed) % p);
        for (int f = 0; f < 2; f++) {
            if (ntt_polymul_u32(pl[f], c[f], a, b) != NTT_OK) w->failures++;
            memcpy(t[f], a, 4 * BN * sizeof *a);
            if (ntt_forward_u32(pl[f], t[f]) != NTT_OK || ntt_inverse_u32(pl[f], t[f]) != NTT_OK ||
                ntt_forward_batch_u32(pl[f], t[f], 4, BN) != NTT_OK)
                w->failures++;
        }
        if (memcmp(c[0], c[1], BN * sizeof *a) != 0 || memcmp(t[0], t[1], 4 * BN * sizeof *a) != 0) {
            fprintf(stderr, "worker %d: 3 threads differ from 1\n", w->id);
            w->failures++;
        }
    }
    for (int f = 0; f < 2; f++) ntt_plan_destroy(pl[f]);
    free(x);

    enum { RLOG = 12, RQ = 3, RP = 2, RL = RQ + RP, RK = 2 * 2 * RL };
    const size_t n = (size_t)1 << RLOG;
    uint64_t primes[RL];
    for (unsigned i = 0; i < RL; i++)
        if (ntt_find_prime(50, RLOG + 1, i, &primes[i]) != NTT_OK) w->failures++;
    uint64_t *in = malloc((RQ + RK + 4 * RQ) * n * sizeof *in);
    if (!in) {
        w->failures++;
        return;
    }
    uint64_t *key = in + RQ * n, *o0[2] = {key + RK * n, key + (RK + RQ) * n},
             *o1[2] = {key + (RK + 2 * RQ) * n, key + (RK + 3 * RQ) * n};
    for (size_t k = 0; k < RQ; k++)
        for (size_t i = 0; i < n; i++) in[k * n + i] = next(&w->seed) % primes[k];
    for (size_t r = 0; r < RK; r++)
        for (size_t i = 0; i < n; i++) key[r * n + i] = next(&w->seed) % primes[r % RL];
    for (int f = 0; f < 2; f++) {
        const ntt_rns_params prm = {.n = n, .q = primes, .q_count = RQ, .p = primes + RQ,
                                    .p_count = RP, .dnum = 2, .backend = NTT_BACKEND_OPENMP,
                                    .threads = f ? 2 : 1};
        ntt_rns *ctx = NULL;
        if (ntt_rns_create(&ctx, &prm) != NTT_OK ||
            ntt_rns_keyswitch(ctx, n, RQ - 1, in, RQ, key, RK, o0[f], o1[f], RQ) != NTT_OK)
            w->failures++;
        ntt_rns_destroy(ctx);
    }
    if (memcmp(o0[0], o0[1], RQ * n * sizeof *in) != 0 || memcmp(o1[0], o1[1], RQ * n * sizeof *in) != 0) {
        fprintf(stderr, "worker %d: RNS key switch on 2 threads differs from 1\n", w->id);
        w->failures++;
    }
    free(in);
    w->plans += 2;
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
    if (w->id < 2 && ntt_backend_available(NTT_BACKEND_OPENMP)) pool_work(w);
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
