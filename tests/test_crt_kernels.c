/*
 * test_crt_kernels: the CRT kernels of ntt_polymul_mod (src/core/crt.h), a
 * white-box test of that unit.  Each vector kernel this CPU runs (AVX-512,
 * IFMA) against the scalar one, and the scalar one against a 128-bit
 * reconstruction where two primes hold the value: every prime set of the
 * registry (the default, the FP64 and IFMA ones), output moduli odd and
 * even, below and above 2^52, 2 and 3, lengths with every vector tail,
 * residues at 0 and q-1; the input reduction likewise.  Then the threaded
 * Garner step (plan option threads = 2) against one thread, through the
 * public call.
 */
#include "crt.h"
#include "cpu_features.h"
#include "ntt_internal.h"
#include "test_common.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

/* The sets of crt_sets.c, spelt out again: what the tests recompute. */
static const uint64_t set62[] = {4611685941117976577ull, 4611685692009873409ull,
                                 4611685606110527489ull};
static const uint64_t set50[] = {1125845146009601ull, 1125844072267777ull, 1125825818656769ull,
                                 1125818302464001ull};
static const uint64_t set51[] = {2251792297492481ull, 2251756864012289ull, 2251747200335873ull,
                                 2251740757884929ull};
static const uint64_t set52[] = {4503579226275841ull, 4503567415115777ull, 4503557751439361ull,
                                 4503556677697537ull};

typedef struct {
    const char *name;
    ntt_garner_fn fn;
    bool needs_ifma_q;
} kernel;

/* a^-1 mod m for gcd(a, m) = 1 (extended Euclid). */
static uint64_t inv_mod(uint64_t a, uint64_t m)
{
    __int128 t = 0, nt = 1, r = m, nr = a % m;
    while (nr) {
        const __int128 qq = r / nr, tt = t - qq * nt, rr = r - qq * nr;
        t = nt, nt = tt, r = nr, nr = rr;
    }
    return (uint64_t)(t < 0 ? t + m : t);
}

static void check_set(const uint64_t *q, size_t nq, const kernel *ks, size_t nk)
{
    const uint64_t ps[] = {2, 3, 4, 1000000007, (1ull << 40), (1ull << 51) - 1, (1ull << 52) - 3,
                           (1ull << 52) + 1, 2305843009213693951ull, 9223372036854775783ull,
                           (1ull << 63) - 2};
    const size_t len = 203; /* every tail of eight lanes on the way */
    uint64_t *r[NTT_GARNER_MAX], *c0 = xmalloc(len * 8), *c1 = xmalloc(len * 8);
    for (size_t k = 0; k < NTT_GARNER_MAX; k++) r[k] = xmalloc(len * 8);
    for (size_t t = 1; t <= nq; t++)
        for (size_t pi = 0; pi < COUNT(ps); pi++) {
            const uint64_t p = ps[pi];
            ntt_garner g;
            ntt_garner_init(&g, q, t, p);
            for (size_t k = 0; k < t; k++)
                for (size_t i = 0; i < len; i++)
                    r[k][i] = i < 3 ? (i == 0 ? 0 : q[k] - 1) : rnd_below(q[k]);
            ntt_garner_scalar(c0, (const uint64_t *const *)r, len, &g);
            if (t <= 2) { /* the value itself fits 128 bits */
                uint64_t e[203];
                const uint64_t inv = t == 2 ? inv_mod(q[0], q[1]) : 0;
                for (size_t i = 0; i < len; i++) {
                    tu128 x = r[0][i];
                    if (t == 2) {
                        const uint64_t y1 = t_mulmod((r[1][i] + q[1] - r[0][i] % q[1]) % q[1],
                                                           inv, q[1]);
                        x += (tu128)y1 * q[0];
                    }
                    e[i] = (uint64_t)(x % p);
                }
                CHECK_ARR64(e, c0, len, "scalar Garner, t = %zu, q0 = %" PRIu64 ", p = %" PRIu64,
                            t, q[0], p);
            }
            for (size_t j = 0; j < nk; j++) {
                if (ks[j].needs_ifma_q && !g.ifma_q) continue;
                /* In place, as ntt_polymul_mod runs it: r[0] is c. */
                uint64_t *rr[NTT_GARNER_MAX];
                memcpy(c1, r[0], len * 8);
                rr[0] = c1;
                for (size_t k = 1; k < t; k++) rr[k] = r[k];
                ks[j].fn(c1, (const uint64_t *const *)rr, len, &g);
                CHECK_ARR64(c0, c1, len, "%s Garner, t = %zu, q0 = %" PRIu64 ", p = %" PRIu64,
                            ks[j].name, t, q[0], p);
            }
        }
    for (size_t k = 0; k < NTT_GARNER_MAX; k++) free(r[k]);
    free(c0);
    free(c1);
}

static void check_reduce(void)
{
    const uint64_t qs[] = {3, 1000000007, set50[0], set52[3], set62[0], (1ull << 62) - 57};
    const size_t len = 101;
    uint64_t *x = xmalloc(len * 8), *e = xmalloc(len * 8), *d = xmalloc(len * 8);
    for (size_t i = 0; i < len; i++) x[i] = i < 2 ? (i ? ~(uint64_t)0 : 0) : rnd_range(0, ~(uint64_t)0);
    for (size_t j = 0; j < COUNT(qs); j++) {
        for (size_t i = 0; i < len; i++) e[i] = x[i] % qs[j];
        ntt_reduce_scalar(d, x, len, qs[j]);
        CHECK_ARR64(e, d, len, "scalar reduction mod %" PRIu64, qs[j]);
#ifdef NTT_HAVE_AVX512
        if (ntt_cpu_has_avx512()) {
            ntt_reduce_avx512(d, x, len, qs[j]);
            CHECK_ARR64(e, d, len, "AVX-512 reduction mod %" PRIu64, qs[j]);
        }
#endif
    }
    free(x);
    free(e);
    free(d);
}

/* The Garner step shared among two threads gives one thread's words. */
static void check_threads(void)
{
    const size_t la = 40000, lb = 30000, lc = la + lb - 1;
    const uint64_t p = 2305843009213693951ull;
    uint64_t *a = xmalloc(la * 8), *b = xmalloc(lb * 8), *c1 = xmalloc(lc * 8), *c2 = xmalloc(lc * 8);
    rnd_fill64(a, la, p);
    rnd_fill64(b, lb, p);
    ntt_plan_options o = {0};
    CHECK_STATUS(NTT_OK, ntt_polymul_mod_ex(c1, a, la, b, lb, p, NTT_BACKEND_AUTO, &o), "one thread");
    o.threads = 2;
    CHECK_STATUS(NTT_OK, ntt_polymul_mod_ex(c2, a, la, b, lb, p, NTT_BACKEND_AUTO, &o), "two threads");
    CHECK_ARR64(c1, c2, lc, "ntt_polymul_mod_ex, two threads against one");
    free(a);
    free(b);
    free(c1);
    free(c2);
}

int main(void)
{
    test_init("test_crt_kernels");
    kernel ks[4];
    size_t nk = 0;
#ifdef NTT_HAVE_AVX512
    if (ntt_cpu_has_avx512()) ks[nk++] = (kernel){"AVX-512", ntt_garner_avx512, false};
#endif
#ifdef NTT_HAVE_IFMA
    if (ntt_cpu_has_ifma()) ks[nk++] = (kernel){"IFMA", ntt_garner_ifma, true};
#endif
    check_set(set62, COUNT(set62), ks, nk);
    check_set(set50, COUNT(set50), ks, nk);
    check_set(set51, COUNT(set51), ks, nk);
    check_set(set52, COUNT(set52), ks, nk);
    check_reduce();
    check_threads();
    ntt_cache_clear();
    return test_finish();
}
