/*
 * Threads on a busy machine (issue 62, item 6): while two spinning child
 * processes keep the cores busy, a product of 131072 points on 2 threads
 * and a small key switch on 2 threads must not take much longer than the
 * same call on one thread, measured in the same load.  Under libgomp's
 * default wait policy, threads spinning at a barrier took the cores from
 * the thread with the work, and 2 threads took 20-100x one thread's time
 * on a 2-vCPU VM.  The bound is 3x (medians; the aim is 1.5x), loose
 * enough for a shared CI host, and a measure over it is taken again, up
 * to three times, as other work on the host (not the test's load) can
 * hold a thread off its core for a while; the collapse it guards against
 * is 20x and more, every time.  The figures are printed.
 */
#include "test_common.h"

#include "ntt_rns.h"

#include <signal.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define BOUND 3.0

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static int cmp_double(const void *a, const void *b)
{
    const double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double median(double *v, int k)
{
    qsort(v, (size_t)k, sizeof *v, cmp_double);
    return v[k / 2];
}

enum { REPS = 21 };

/* Alternates the two forms (one thread, two) REPS times each, so that both
   see the same load; the medians' ratio two / one. */
typedef ntt_status (*run_fn)(void *arg, int form);
static double ratio_once(const char *what, run_fn fn, void *arg)
{
    double t[2][REPS];
    for (int f = 0; f < 2; f++) CHECK_STATUS(NTT_OK, fn(arg, f), "%s: warm-up", what);
    for (int r = 0; r < REPS; r++)
        for (int f = 0; f < 2; f++) {
            const double t0 = now();
            CHECK_STATUS(NTT_OK, fn(arg, f), "%s", what);
            t[f][r] = now() - t0;
        }
    const double one = median(t[0], REPS), two = median(t[1], REPS);
    printf("%s: 1 thread %.3f ms, 2 threads %.3f ms (medians under load): %.2fx\n", what,
           1e3 * one, 1e3 * two, two / one);
    return two / one;
}

/* The best of up to three measures, stopping at the first within BOUND. */
static double ratio(const char *what, run_fn fn, void *arg)
{
    double best = ratio_once(what, fn, arg);
    for (int a = 1; a < 3 && best > BOUND; a++) {
        const double r = ratio_once(what, fn, arg);
        if (r < best) best = r;
    }
    return best;
}

typedef struct {
    ntt_plan *plan[2];
    uint32_t *a, *b, *c;
    size_t n;
} product;

static ntt_status run_product(void *arg, int form)
{
    product *p = arg;
    return ntt_polymul_u32(p->plan[form], p->c, p->a, p->b);
}

typedef struct {
    ntt_rns *ctx[2];
    size_t n, nq, klimbs;
    uint64_t *in, *key, *out0, *out1;
} keyswitch;

static ntt_status run_keyswitch(void *arg, int form)
{
    keyswitch *k = arg;
    return ntt_rns_keyswitch(k->ctx[form], k->n, k->nq - 1, k->in, k->nq, k->key, k->klimbs,
                             k->out0, k->out1, k->nq);
}

int main(void)
{
    test_init("test_busy");
    if (!ntt_backend_available(NTT_BACKEND_OPENMP)) {
        printf("SKIP: the library has no threaded backend\n");
        return 77;
    }
    /* The load: one spinning process per core of a 2-vCPU machine. */
    pid_t kids[2];
    for (int i = 0; i < 2; i++) {
        kids[i] = fork();
        if (kids[i] == 0) {
            volatile unsigned long x = 0;
            for (;;) x++;
        }
        CHECK(kids[i] > 0, "fork failed");
    }

    product p = {.n = (size_t)1 << 17};
    uint64_t q;
    if (ntt_find_prime(30, 18, 0, &q) != NTT_OK) return 2;
    p.a = xmalloc(p.n * 4);
    p.b = xmalloc(p.n * 4);
    p.c = xmalloc(p.n * 4);
    rnd_fill32(p.a, p.n, (uint32_t)q);
    rnd_fill32(p.b, p.n, (uint32_t)q);
    for (int f = 0; f < 2; f++) {
        const ntt_plan_options o = {.threads = f + 1};
        CHECK_STATUS(NTT_OK, ntt_plan_create(&p.plan[f], p.n, q, NTT_U32, NTT_BACKEND_OPENMP, &o),
                     "plan, %d threads", f + 1);
    }

    /* Large enough that its loops are shared out (src/rns/ops.c). */
    enum { LOGN = 14, NQ = 4, NP = 2, DNUM = 2 };
    keyswitch k = {.n = (size_t)1 << LOGN, .nq = NQ, .klimbs = 2 * DNUM * (NQ + NP)};
    uint64_t primes[NQ + NP];
    for (unsigned i = 0; i < NQ + NP; i++)
        if (ntt_find_prime(50, LOGN + 1, i, &primes[i]) != NTT_OK) return 2;
    k.in = xmalloc(NQ * k.n * 8);
    k.key = xmalloc(k.klimbs * k.n * 8);
    k.out0 = xmalloc(NQ * k.n * 8);
    k.out1 = xmalloc(NQ * k.n * 8);
    for (size_t i = 0; i < NQ; i++) rnd_fill64(k.in + i * k.n, k.n, primes[i]);
    for (size_t r = 0; r < k.klimbs; r++) rnd_fill64(k.key + r * k.n, k.n, primes[r % (NQ + NP)]);
    for (int f = 0; f < 2; f++) {
        const ntt_rns_params prm = {.n = k.n, .q = primes, .q_count = NQ, .p = primes + NQ,
                                    .p_count = NP, .dnum = DNUM, .backend = NTT_BACKEND_OPENMP,
                                    .threads = f + 1};
        CHECK_STATUS(NTT_OK, ntt_rns_create(&k.ctx[f], &prm), "RNS context, %d threads", f + 1);
    }

    if (p.plan[0] && p.plan[1]) {
        const double r = ratio("product n = 131072", run_product, &p);
        CHECK(r <= BOUND, "2 threads took %.1fx one thread's time on the product", r);
    }
    if (k.ctx[0] && k.ctx[1]) {
        const double r = ratio("key switch n = 16384, L+1 = 4, K = 2", run_keyswitch, &k);
        CHECK(r <= BOUND, "2 threads took %.1fx one thread's time on the key switch", r);
    }

    for (int i = 0; i < 2; i++)
        if (kids[i] > 0) {
            kill(kids[i], SIGKILL);
            waitpid(kids[i], NULL, 0);
        }
    for (int f = 0; f < 2; f++) {
        ntt_plan_destroy(p.plan[f]);
        ntt_rns_destroy(k.ctx[f]);
    }
    free(p.a);
    free(p.b);
    free(p.c);
    free(k.in);
    free(k.key);
    free(k.out0);
    free(k.out1);
    return test_finish();
}
