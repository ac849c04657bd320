/*
 * test_crt: ntt_polymul_mod against the GMP oracle (bench/gmp_oracle.c) for
 * random moduli in [2, 2^63) (bit length uniform in 2..63, primes and
 * composites) and lengths up to 2^16, the named moduli, all-(p-1) inputs
 * at the largest length and at the exact edge between the two- and the
 * three-prime CRT, ntt_cache_clear() in the middle and at the end, and two
 * threads calling ntt_polymul_mod at once (the plan cache).
 */
#include "gmp_oracle.h"
#include "ntt_internal.h" /* ntt_crt_primes */
#include "test_common.h"

#include <inttypes.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

static uint64_t random_modulus(void)
{
    unsigned bits = 2 + (unsigned)rnd_below(62); /* 2 .. 63 */
    uint64_t lo = (uint64_t)1 << (bits - 1), hi = ((uint64_t)1 << bits) - 1;
    uint64_t p = rnd_range(lo, hi);
    if (rnd_below(2)) { /* a prime of that length half of the time */
        uint64_t q = p;
        while (q >= lo && !ntt_is_prime(q)) q--;
        if (q >= lo) p = q;
    }
    return p;
}

static void fill(uint64_t *a, size_t n, uint64_t p, int allmax)
{
    for (size_t i = 0; i < n; i++) a[i] = allmax ? p - 1 : rnd_below(p);
}

/* One product against the oracle; returns false on a mismatch. */
static bool crt_case(size_t la, size_t lb, uint64_t p, int allmax, ntt_backend be, const char *why)
{
    const size_t lc = la + lb - 1;
    uint64_t *a = xmalloc(la * 8), *b = xmalloc(lb * 8), *c = xmalloc((lc + 1) * 8), *e = xmalloc(lc * 8);
    fill(a, la, p, allmax);
    fill(b, lb, p, allmax);
    c[lc] = 0x5555555555555555ull;
    bool ok = true;
    if (oracle_polymul(e, a, la, b, lb, p) != 0) {
        fprintf(stderr, "test_crt: oracle out of memory\n");
        exit(2);
    }
    ntt_status s = ntt_polymul_mod(c, a, la, b, lb, p, be);
    CHECK_STATUS(NTT_OK, s, "%s: ntt_polymul_mod(la=%zu, lb=%zu, p=%" PRIu64 ")", why, la, lb, p);
    if (s == NTT_OK)
        ok = CHECK_ARR64(e, c, lc, "%s: ntt_polymul_mod(la=%zu, lb=%zu, p=%" PRIu64 ", backend=%s)%s vs GMP", why, la,
                         lb, p, ntt_backend_name(be), allmax ? " all p-1" : "");
    CHECK_EQ(0x5555555555555555ull, c[lc], "%s: ntt_polymul_mod(la=%zu, lb=%zu) wrote c[la+lb-1]", why, la, lb);
    free(a);
    free(b);
    free(c);
    free(e);
    return ok && s == NTT_OK;
}

static ntt_backend any_backend(void) { return rnd_below(2) ? NTT_BACKEND_AUTO : NTT_BACKEND_SCALAR; }

static void test_random(int many)
{
    for (int it = 0; it < many; it++) {
        size_t la = rnd_len(512), lb = rnd_len(512);
        if (it % 10 == 0) la = rnd_len(4096);
        if (it % 10 == 5) lb = rnd_len(4096);
        crt_case(la, lb, random_modulus(), rnd_below(8) == 0, any_backend(), "random modulus");
    }
}

static void test_named(void)
{
    static const uint64_t named[] = {
        1000000007, 2305843009213693951ull /* 2^61-1 */, 1337006139375617ull,
        9223372036854775783ull /* 2^63-25 */, 9223372036854775807ull /* 2^63-1 */,
        4611686018427387847ull /* largest prime < 2^62, 2 || p-1 */, 4611685941117976577ull, /* CRT prime */
        4611685692009873409ull, 4611685606110527489ull, 4611686018427387904ull /* 2^62 */,
        4611686018427387903ull /* 2^62-1 */, 2, 3, 65536, 998244353,
    };
    for (size_t i = 0; i < COUNT(named); i++) {
        crt_case(rnd_len(2048), rnd_len(2048), named[i], 0, any_backend(), "named modulus");
        crt_case(rnd_len(300), rnd_len(300), named[i], 1, any_backend(), "named modulus");
    }
}

/* The largest lengths: 2^16 each, all p-1 (the largest exact coefficients). */
static void test_large(void)
{
    const size_t L = (size_t)1 << 16;
    crt_case(L, L, 9223372036854775807ull, 1, NTT_BACKEND_AUTO, "largest, all p-1");
    crt_case(L, L, 9223372036854775783ull, 1, NTT_BACKEND_SCALAR, "largest, all p-1");
    crt_case(L, L - 1, 2305843009213693951ull, 0, NTT_BACKEND_AUTO, "largest");
    crt_case(L / 2 + 3, L, random_modulus(), 0, NTT_BACKEND_AUTO, "large");
    crt_case(L, 17, 1000000007, 1, NTT_BACKEND_AUTO, "large, unequal");
}

/* floor(sqrt(x)) for a 128-bit x. */
static uint64_t isqrt128(tu128 x)
{
    uint64_t lo = 0, hi = (uint64_t)1 << 63; /* x < 2^126 here */
    while (lo < hi) {
        uint64_t mid = lo + (hi - lo + 1) / 2;
        if ((tu128)mid * mid <= x) lo = mid;
        else hi = mid - 1;
    }
    return lo;
}

/* All-(p-1) inputs with min(la, lb) (p-1)^2 right at q1 q2, where the
   library has to switch from two CRT primes to three. */
static void test_crt_edge(void)
{
    const tu128 q12 = (tu128)ntt_crt_primes[0] * ntt_crt_primes[1];
    static const size_t ls[] = {9, 10, 16, 33, 100, 1000, 4096};
    for (size_t i = 0; i < COUNT(ls); i++) {
        const size_t l = ls[i];
        /* the largest p with l (p-1)^2 < q1 q2, and the next ones */
        uint64_t pm = isqrt128((q12 - 1) / l) + 1;
        for (uint64_t d = 0; d < 3; d++) {
            size_t lb = l + (size_t)rnd_below(64);
            if (!crt_case(l, lb, pm + d, 1, any_backend(), "two/three CRT primes edge"))
                break;
            crt_case(lb, l, pm - d, 1, any_backend(), "two/three CRT primes edge");
        }
    }
}

/* ---- threads ---------------------------------------------------------------- */

typedef struct {
    uint64_t seed;
    int cases;
    int failures;
    char msg[256];
} job_t;

static void *worker(void *arg)
{
    job_t *j = arg;
    uint64_t x = j->seed;
    /* thread-local generator (the shared one is not thread-safe) */
    for (int it = 0; it < j->cases; it++) {
        x = x * 6364136223846793005ull + 1442695040888963407ull;
        static const uint64_t mods[] = {1000000007, 998244353, 2305843009213693951ull, 9223372036854775783ull,
                                        1337006139375617ull};
        uint64_t p = mods[(x >> 33) % COUNT(mods)];
        size_t la = 1 + (size_t)((x >> 20) % 700), lb = 1 + (size_t)((x >> 40) % 700);
        uint64_t *a = malloc(la * 8), *b = malloc(lb * 8), *c = malloc((la + lb) * 8), *e = malloc((la + lb) * 8);
        if (!a || !b || !c || !e) {
            j->failures++;
            snprintf(j->msg, sizeof j->msg, "out of memory");
            free(a), free(b), free(c), free(e);
            return NULL;
        }
        uint64_t y = x;
        for (size_t i = 0; i < la; i++) y = y * 6364136223846793005ull + 1, a[i] = (y >> 1) % p;
        for (size_t i = 0; i < lb; i++) y = y * 6364136223846793005ull + 1, b[i] = (y >> 1) % p;
        int orc = oracle_polymul(e, a, la, b, lb, p);
        ntt_status s = ntt_polymul_mod(c, a, la, b, lb, p, NTT_BACKEND_AUTO);
        if (orc != 0 || s != NTT_OK || memcmp(c, e, (la + lb - 1) * 8) != 0) {
            if (!j->failures++)
                snprintf(j->msg, sizeof j->msg, "case %d: la=%zu lb=%zu p=%" PRIu64 ": status %d, %s", it, la, lb, p,
                         (int)s, orc ? "oracle failed" : "product differs from GMP");
        }
        if (it % 25 == 24) ntt_cache_clear(); /* while the other thread works */
        free(a);
        free(b);
        free(c);
        free(e);
    }
    return NULL;
}

static void test_threads(void)
{
    job_t jobs[2];
    pthread_t th[2];
    for (int i = 0; i < 2; i++) {
        memset(&jobs[i], 0, sizeof jobs[i]);
        jobs[i].seed = rnd64();
        jobs[i].cases = 120;
    }
    int started = 0;
    for (int i = 0; i < 2; i++) {
        int rc = pthread_create(&th[i], NULL, worker, &jobs[i]);
        CHECK(rc == 0, "pthread_create failed (%d)", rc);
        if (rc == 0) started++;
        else break;
    }
    for (int i = 0; i < started; i++) pthread_join(th[i], NULL);
    for (int i = 0; i < started; i++)
        CHECK(jobs[i].failures == 0, "thread %d (seed %" PRIu64 "): %d failed products, first: %s", i, jobs[i].seed,
              jobs[i].failures, jobs[i].msg);
}

int main(void)
{
    test_init("test_crt");
    test_named();
    test_random(150);
    test_crt_edge();
    ntt_cache_clear();
    test_random(100); /* the cache refills after a clear */
    test_large();
    test_threads();
    ntt_cache_clear();
    test_random(20); /* and again */
    ntt_cache_clear();
    return test_finish();
}
