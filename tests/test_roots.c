/*
 * test_roots: which root of unity a transform uses (issue 62 item 7), the
 * contract of ntt.h ("forward") and ntt_rns.h ("Forms"):
 *  - ntt_plan_root and ntt_rns_root return z^((p-1)/N) for the smallest
 *    quadratic non-residue z, computed here from that rule alone (Euler's
 *    criterion with the test's own 128-bit arithmetic), for several hundred
 *    primes of both widths, cyclic and negacyclic;
 *  - the transform of a unit vector x^j is the powers of that root the
 *    header names: word k is r^(j E(k)), E(k) = 2 brv(k) + 1 (negacyclic)
 *    or brv(k) (cyclic), or 2k + 1 / k in natural order; on every CPU
 *    backend, and limb by limb on RNS contexts;
 *  - the rule is not ntt_root_of_unity's (they differ for some primes,
 *    which is why the contract had to be written down);
 *  - the calls' errors, and ntt_rns_primes(ctx, NULL).
 */
#include "test_common.h"
#include "ntt_rns.h"

#include <stdlib.h>
#include <string.h>

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

/* The rule of the headers, from scratch. */
static uint64_t rule_root(uint64_t p, uint64_t N)
{
    uint64_t z = 2;
    while (t_powmod(z, (p - 1) / 2, p) != p - 1) z++;
    return t_powmod(z, (p - 1) / N, p);
}

/* The exponent of r at output word k of a plan of size n. */
static uint64_t expo(size_t k, size_t n, bool nega, bool natural)
{
    const uint64_t e = natural ? k : t_bitrev(k, t_log2(n));
    return nega ? 2 * e + 1 : e;
}

/* forward(x^j) on the plan, against r^(j E(k)) with r from the rule. */
static void check_unit_vectors(ntt_plan *pl, size_t n, uint64_t p, uint64_t r, bool nega,
                               bool natural, const char *tag)
{
    const ntt_width w = ntt_plan_width(pl);
    const uint64_t N = nega ? 2 * (uint64_t)n : n;
    uint64_t *a = xmalloc(n * sizeof *a), *e = xmalloc(n * sizeof *e);
    uint32_t *a32 = xmalloc(n * sizeof *a32);
    const size_t js[3] = {1, n > 2 ? 2 + (size_t)rnd_below(n - 2) : 1, n - 1};
    for (int t = 0; t < 3; t++) {
        const size_t j = js[t];
        memset(a, 0, n * sizeof *a);
        a[j] = 1;
        for (size_t k = 0; k < n; k++) e[k] = t_powmod(r, (j * expo(k, n, nega, natural)) % N, p);
        ntt_status s;
        if (w == NTT_U32) {
            for (size_t k = 0; k < n; k++) a32[k] = (uint32_t)a[k];
            s = ntt_forward_u32(pl, a32);
            for (size_t k = 0; k < n; k++) a[k] = a32[k];
        } else {
            s = ntt_forward_u64(pl, a);
        }
        CHECK_STATUS(NTT_OK, s, "%s: forward", tag);
        CHECK_ARR64(e, a, n, "%s: forward(x^%zu) against powers of the rule's root", tag, j);
    }
    free(a), free(e), free(a32);
}

static void test_plan_roots(void)
{
    size_t primes = 0, differ = 0;
    /* Several hundred primes: for each size, the largest few with 2^log2
       | p-1 for a few log2 (many have a small smallest non-residue, some a
       large one). */
    for (unsigned bits = 12; bits <= 62; bits++) {
        const ntt_width w = bits <= 30 ? NTT_U32 : NTT_U64;
        for (unsigned lg = 2; lg <= 10 && lg + 2 < bits; lg += 4)
            for (unsigned idx = 0; idx < 4; idx++) {
                uint64_t p;
                if (ntt_find_prime(bits, lg, idx, &p) != NTT_OK) continue;
                primes++;
                for (int nega = 0; nega < 2; nega++) {
                    const size_t n = (size_t)1 << (lg - (unsigned)nega); /* N = 2^lg */
                    const uint64_t N = (uint64_t)1 << lg, want = rule_root(p, N);
                    uint64_t u;
                    CHECK_STATUS(NTT_OK, ntt_root_of_unity(p, N, &u), "ntt_root_of_unity");
                    differ += u != want;
                    for (int natural = 0; natural < 2; natural++) {
                        char tag[160];
                        snprintf(tag, sizeof tag, "p=%llu n=%zu %s%s", (unsigned long long)p, n,
                                 nega ? "negacyclic" : "cyclic", natural ? " natural" : "");
                        const test_opts o = {.flags = (nega ? NTT_FLAG_NEGACYCLIC : 0u) |
                                                      (natural ? NTT_FLAG_NATURAL_ORDER : 0u)};
                        ntt_plan *pl = NULL;
                        CHECK_STATUS(NTT_OK, test_plan_create(&pl, n, p, w, NTT_BACKEND_AUTO, &o),
                                     "%s: plan", tag);
                        if (!pl) continue;
                        uint64_t r = 0;
                        CHECK_STATUS(NTT_OK, ntt_plan_root(pl, 0, &r), "%s: ntt_plan_root", tag);
                        CHECK_EQ(want, r, "%s: ntt_plan_root against the rule", tag);
                        if (n >= 2 && idx < 2) check_unit_vectors(pl, n, p, want, nega, natural, tag);
                        ntt_plan_destroy(pl);
                    }
                }
            }
    }
    printf("plan roots: %zu primes, ntt_root_of_unity differs from the rule for %zu of %zu orders\n",
           primes, differ, 2 * primes);
    CHECK(primes >= 300, "only %zu primes", primes);
    CHECK(differ > 0, "the rule never differs from ntt_root_of_unity: the test shows nothing");

    /* Every CPU backend, at sizes where the vector kernels run, and an RNS
       plan: each modulus its own root. */
    static const uint64_t rns[] = {998244353, 469762049, 167772161, 754974721};
    uint64_t rns64[3];
    for (unsigned i = 0; i < 3; i++)
        CHECK_STATUS(NTT_OK, ntt_find_prime(62 - 2 * i, 11, i, &rns64[i]), "ntt_find_prime");
    for (int b = NTT_BACKEND_SCALAR; b < NTT_BACKEND_COUNT; b++) {
        if (b == NTT_BACKEND_CUDA || !ntt_backend_available((ntt_backend)b)) continue;
        for (int wi = 0; wi < 2; wi++) {
            const uint64_t *mods = wi ? rns64 : rns;
            const size_t cnt = wi ? COUNT(rns64) : COUNT(rns);
            const ntt_width w = wi ? NTT_U64 : NTT_U32;
            for (int nega = 0; nega < 2; nega++) {
                const size_t n = 1024;
                const test_opts o = {.flags = nega ? NTT_FLAG_NEGACYCLIC : 0u};
                ntt_plan *pl = NULL;
                CHECK_STATUS(NTT_OK, test_plan_create_rns(&pl, n, mods, cnt, w, (ntt_backend)b, &o),
                             "%s u%d rns plan", ntt_backend_name((ntt_backend)b), (int)w);
                if (!pl) continue;
                for (size_t i = 0; i < cnt; i++) {
                    const uint64_t want = rule_root(mods[i], nega ? 2 * n : n);
                    uint64_t r = 0;
                    CHECK_STATUS(NTT_OK, ntt_plan_root(pl, i, &r), "ntt_plan_root(%zu)", i);
                    CHECK_EQ(want, r, "%s u%d modulus %zu: root", ntt_backend_name((ntt_backend)b),
                             (int)w, i);
                }
                /* Item i of a batch runs modulus i: x^1 in each. */
                uint64_t *a = xmalloc(cnt * n * sizeof *a), *e = xmalloc(n * sizeof *e);
                uint32_t *a32 = xmalloc(cnt * n * sizeof *a32);
                memset(a, 0, cnt * n * sizeof *a);
                for (size_t i = 0; i < cnt; i++) a[i * n + 1] = 1;
                ntt_status s;
                if (w == NTT_U32) {
                    for (size_t k = 0; k < cnt * n; k++) a32[k] = (uint32_t)a[k];
                    s = ntt_forward_batch_u32(pl, a32, cnt, n);
                    for (size_t k = 0; k < cnt * n; k++) a[k] = a32[k];
                } else {
                    s = ntt_forward_batch_u64(pl, a, cnt, n);
                }
                CHECK_STATUS(NTT_OK, s, "batch forward");
                for (size_t i = 0; i < cnt; i++) {
                    const uint64_t N = nega ? 2 * n : n, r = rule_root(mods[i], N);
                    for (size_t k = 0; k < n; k++) e[k] = t_powmod(r, expo(k, n, nega, false), mods[i]);
                    CHECK_ARR64(e, a + i * n, n, "%s u%d %s item %zu: forward(x)",
                                ntt_backend_name((ntt_backend)b), (int)w,
                                nega ? "negacyclic" : "cyclic", i);
                }
                free(a), free(e), free(a32);
                ntt_plan_destroy(pl);
            }
        }
    }

    /* Errors: nothing written. */
    ntt_plan *pl = NULL;
    CHECK_STATUS(NTT_OK, test_plan_create_rns(&pl, 8, rns, 2, NTT_U32, NTT_BACKEND_SCALAR, NULL), "plan");
    uint64_t r = 777;
    CHECK_STATUS(NTT_EINVAL, ntt_plan_root(NULL, 0, &r), "ntt_plan_root(NULL plan)");
    CHECK_STATUS(NTT_EINVAL, ntt_plan_root(pl, 2, &r), "ntt_plan_root(modulus 2 of 2)");
    CHECK_STATUS(NTT_EINVAL, ntt_plan_root(pl, (size_t)-1, &r), "ntt_plan_root(SIZE_MAX)");
    CHECK_EQ(777, r, "ntt_plan_root wrote its output on failure");
    CHECK_STATUS(NTT_EINVAL, ntt_plan_root(pl, 0, NULL), "ntt_plan_root(NULL root)");
    CHECK_STATUS(NTT_OK, ntt_plan_root(pl, 1, &r), "ntt_plan_root(1)");
    CHECK_EQ(rule_root(rns[1], 8), r, "second modulus of a cyclic n = 8 plan");
    ntt_plan_destroy(pl);
}

/* RNS contexts: ntt_rns_root for every limb, against the rule, and
   ntt_rns_forward of x^j against its powers. */
static void test_rns_roots(void)
{
    static const size_t sizes[] = {2, 8, 64, 1024};
    for (size_t si = 0; si < COUNT(sizes); si++) {
        const size_t n = sizes[si];
        const unsigned lg = t_log2(2 * n);
        /* Q: 61-, 50- and 35-bit primes; P: two more. */
        uint64_t pr[7];
        const unsigned bits[7] = {61, 61, 50, 35, 61, 50, 40};
        const unsigned idx[7] = {0, 1, 0, 0, 2, 1, 0};
        for (int i = 0; i < 7; i++)
            if (ntt_find_prime(bits[i], lg, idx[i], &pr[i]) != NTT_OK) pr[i] = 0;
        for (int b = NTT_BACKEND_AUTO; b < NTT_BACKEND_COUNT; b++) {
            if (b == NTT_BACKEND_CUDA || !ntt_backend_available((ntt_backend)b)) continue;
            const ntt_rns_params prm = {.n = n, .q = pr, .q_count = 4, .p = pr + 4, .p_count = 3,
                                        .dnum = 2, .backend = (ntt_backend)b};
            ntt_rns *ctx = NULL;
            CHECK_STATUS(NTT_OK, ntt_rns_create(&ctx, &prm), "rns n=%zu %s", n,
                         ntt_backend_name((ntt_backend)b));
            if (!ctx) continue;
            const uint64_t *got = NULL;
            CHECK_EQ(7, ntt_rns_primes(ctx, NULL), "ntt_rns_primes(ctx, NULL)");
            CHECK_EQ(7, ntt_rns_primes(ctx, &got), "ntt_rns_primes");
            CHECK(got && got[6] == pr[6], "ntt_rns_primes: the context's primes");
            uint64_t *a = xmalloc(7 * n * sizeof *a), *e = xmalloc(n * sizeof *e);
            size_t limbs[7];
            const size_t j = 1 + (size_t)rnd_below(n - 1);
            memset(a, 0, 7 * n * sizeof *a);
            for (size_t t = 0; t < 7; t++) {
                limbs[t] = t;
                a[t * n + j] = 1;
            }
            CHECK_STATUS(NTT_OK, ntt_rns_forward(ctx, n, limbs, 7, a), "ntt_rns_forward");
            for (size_t t = 0; t < 7; t++) {
                const uint64_t q = pr[t], want = rule_root(q, 2 * n);
                uint64_t r = 0;
                CHECK_STATUS(NTT_OK, ntt_rns_root(ctx, t, &r), "ntt_rns_root(%zu)", t);
                CHECK_EQ(want, r, "n=%zu %s limb %zu (q=%llu): ntt_rns_root against the rule", n,
                         ntt_backend_name((ntt_backend)b), t, (unsigned long long)q);
                for (size_t k = 0; k < n; k++)
                    e[k] = t_powmod(want, (j * expo(k, n, true, false)) % (2 * n), q);
                CHECK_ARR64(e, a + t * n, n, "n=%zu %s limb %zu: forward(x^%zu) against the rule's root",
                            n, ntt_backend_name((ntt_backend)b), t, j);
            }
            uint64_t r = 777;
            CHECK_STATUS(NTT_EINVAL, ntt_rns_root(ctx, 7, &r), "ntt_rns_root(limb L+K+1)");
            CHECK_STATUS(NTT_EINVAL, ntt_rns_root(NULL, 0, &r), "ntt_rns_root(NULL ctx)");
            CHECK_EQ(777, r, "ntt_rns_root wrote its output on failure");
            CHECK_STATUS(NTT_EINVAL, ntt_rns_root(ctx, 0, NULL), "ntt_rns_root(NULL root)");
            free(a), free(e);
            ntt_rns_destroy(ctx);
        }
    }
    CHECK_EQ(0, ntt_rns_primes(NULL, NULL), "ntt_rns_primes(NULL, NULL)");
    static const uint64_t mark[1] = {1};
    const uint64_t *keep = mark;
    CHECK_EQ(0, ntt_rns_primes(NULL, &keep), "ntt_rns_primes(NULL, &p)");
    CHECK(keep == mark, "ntt_rns_primes(NULL, &p) wrote p");
}

int main(void)
{
    test_init("test_roots");
    test_plan_roots();
    test_rns_roots();
    return test_finish();
}
