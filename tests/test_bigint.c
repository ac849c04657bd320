/*
 * test_bigint: ntt_mpn_mul (ntt_bigint.h) against GMP's mpz_mul: random
 * operands of 1 .. 2^14 words, balanced and unbalanced, on both sides of
 * the schoolbook threshold, all-ones words (the worst case of every
 * coefficient), leading zero words, two threads against GMP, and every bad
 * input's status with nothing written.  NTT_TEST_BIGINT_LARGE=1 adds 2^20
 * words (about 2 10^7 decimal digits).
 */
#include "ntt_bigint.h"
#include "test_common.h"

#include <gmp.h>
#include <stdlib.h>
#include <string.h>

static int cases_run;

static void check(size_t na, size_t nb, int kind, int threads, const char *why)
{
    uint64_t *a = xmalloc(na * 8), *b = xmalloc(nb * 8), *c = xmalloc((na + nb + 1) * 8),
             *e = xmalloc((na + nb) * 8);
    for (size_t i = 0; i < na; i++) a[i] = kind == 1 ? ~(uint64_t)0 : rnd_range(0, ~(uint64_t)0);
    for (size_t i = 0; i < nb; i++) b[i] = kind == 1 ? ~(uint64_t)0 : rnd_range(0, ~(uint64_t)0);
    if (kind == 2) a[na - 1] = 0, b[0] = 0; /* zero words at the ends */
    c[na + nb] = 0x5555555555555555ull;
    mpz_t A, B, P;
    mpz_inits(A, B, P, NULL);
    mpz_import(A, na, -1, 8, 0, 0, a);
    mpz_import(B, nb, -1, 8, 0, 0, b);
    mpz_mul(P, A, B);
    memset(e, 0, (na + nb) * 8);
    mpz_export(e, NULL, -1, 8, 0, 0, P);
    mpz_clears(A, B, P, NULL);
    ntt_plan_options o = {.threads = threads};
    const ntt_status s = ntt_mpn_mul(c, a, na, b, nb, NTT_BACKEND_AUTO, &o);
    CHECK_STATUS(NTT_OK, s, "%s: ntt_mpn_mul(na %zu, nb %zu)", why, na, nb);
    if (s == NTT_OK)
        CHECK_ARR64(e, c, na + nb, "%s: na %zu, nb %zu, kind %d, %d threads, vs mpz_mul", why, na, nb,
                    kind, threads);
    CHECK_EQ(0x5555555555555555ull, c[na + nb], "%s: wrote past c", why);
    cases_run++;
    free(a), free(b), free(c), free(e);
}

static void test_bad(void)
{
    uint64_t a[4] = {1, 2, 3, 4}, b[4] = {5, 6, 7, 8}, c[8];
    for (int i = 0; i < 8; i++) c[i] = 0xAAAA;
    CHECK_STATUS(NTT_EINVAL, ntt_mpn_mul(NULL, a, 4, b, 4, NTT_BACKEND_AUTO, NULL), "c NULL");
    CHECK_STATUS(NTT_EINVAL, ntt_mpn_mul(c, NULL, 4, b, 4, NTT_BACKEND_AUTO, NULL), "a NULL");
    CHECK_STATUS(NTT_EINVAL, ntt_mpn_mul(c, a, 0, b, 4, NTT_BACKEND_AUTO, NULL), "na 0");
    CHECK_STATUS(NTT_EINVAL, ntt_mpn_mul(c, a, 4, b, 0, NTT_BACKEND_AUTO, NULL), "nb 0");
    CHECK_STATUS(NTT_EINVAL, ntt_mpn_mul(a + 1, a, 2, b, 2, NTT_BACKEND_AUTO, NULL), "c overlaps a");
    CHECK_STATUS(NTT_EINVAL, ntt_mpn_mul(c, a, NTT_POLYMUL_MAX_LEN, b, 2, NTT_BACKEND_AUTO, NULL),
                 "length bound");
    CHECK_STATUS(NTT_EINVAL, ntt_mpn_mul(c, a, 4, b, 4, (ntt_backend)99, NULL), "bad backend");
    ntt_plan_options o = {.threads = -1};
    CHECK_STATUS(NTT_EINVAL, ntt_mpn_mul(c, a, 4, b, 4, NTT_BACKEND_AUTO, &o), "threads -1");
    for (int i = 0; i < 8; i++) CHECK_EQ(0xAAAA, c[i], "c[%d] written by a failing call", i);
}

int main(void)
{
    test_init("test_bigint");
    test_bad();
    const size_t sizes[] = {1, 2, 31, 32, 33, 100, 1000, 4096, 5000, 16384};
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
        check(sizes[i], sizes[i], 0, 1, "balanced");
        check(sizes[i], sizes[i], 1, 1, "balanced, all ones");
    }
    for (int r = 0; r < 12; r++)
        check(1 + (size_t)rnd_below(1 << 14), 1 + (size_t)rnd_below(1 << 12), r % 3, 1, "random");
    check(40, 16384, 1, 1, "unbalanced, all ones");
    check(16384, 33, 2, 1, "unbalanced, zero ends");
    check(9000, 7000, 0, 2, "two threads");
    const char *big = getenv("NTT_TEST_BIGINT_LARGE");
    if (big && *big && *big != '0') {
        check((size_t)1 << 20, (size_t)1 << 20, 0, 1, "2^20 words");
        check((size_t)1 << 20, (size_t)1 << 20, 1, 2, "2^20 words, all ones, two threads");
    }
    printf("test_bigint: %d products against mpz_mul\n", cases_run);
    return test_finish();
}
