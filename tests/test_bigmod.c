/*
 * test_bigmod: products modulo a big modulus (ntt_bigmod.h) against GMP
 * (Kronecker substitution: the coefficients packed into one integer each,
 * mpz_mul, the slots unpacked and reduced mod M).  Random M of 64 .. 4096
 * bits, powers of two, even and composite M, M = 2, 3, M just above 2^63,
 * 2^64 - 1 and 2^64 + 1; lengths 1 .. 2^12, unbalanced and balanced;
 * all-(M-1) inputs; a context used again for shorter products; two
 * threads against one; every bad input's status with nothing written.
 * Everything twice: with the IFMA kernels where the CPU has them, and
 * with the portable ones (the switch of ntt_internal.h).
 * NTT_TEST_BIGMOD_LARGE=1 adds M of 65536 bits and lengths up to 2^16.
 */
#include "ntt_bigmod.h"
#include "ntt_internal.h" /* ntt_cpu_use_ifma */
#include "test_common.h"

#include <gmp.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

/* A value of w words as an mpz and back (w words, zero-filled). */
static void to_mpz(mpz_t z, const uint64_t *x, size_t w) { mpz_import(z, w, -1, 8, 0, 0, x); }

static void from_mpz(uint64_t *x, size_t w, const mpz_t z)
{
    memset(x, 0, w * 8);
    size_t cnt = 0;
    mpz_export(x, &cnt, -1, 8, 0, 0, z);
}

/* e = a * b mod M by Kronecker substitution: slots of whole words, wide
   enough for every exact coefficient, packed and unpacked in linear time. */
static void oracle(uint64_t *e, const uint64_t *a, size_t la, const uint64_t *b, size_t lb,
                   const uint64_t *m, size_t w)
{
    mpz_t M, A, Bz, C, x;
    mpz_inits(M, A, Bz, C, x, NULL);
    to_mpz(M, m, w);
    const size_t sw = (2 * mpz_sizeinbase(M, 2) + 64 + 63) / 64, lc = la + lb - 1;
    uint64_t *buf = calloc((lc + 1) * sw, 8);
    const uint64_t *src[2] = {a, b};
    const size_t len[2] = {la, lb};
    mpz_ptr dst[2] = {A, Bz};
    for (int k = 0; k < 2; k++) {
        memset(buf, 0, (lc + 1) * sw * 8);
        for (size_t i = 0; i < len[k]; i++) memcpy(buf + i * sw, src[k] + i * w, w * 8);
        mpz_import(dst[k], len[k] * sw, -1, 8, 0, 0, buf);
    }
    mpz_mul(C, A, Bz);
    memset(buf, 0, (lc + 1) * sw * 8);
    mpz_export(buf, NULL, -1, 8, 0, 0, C);
    for (size_t i = 0; i < lc; i++) {
        mpz_import(x, sw, -1, 8, 0, 0, buf + i * sw);
        mpz_mod(x, x, M);
        from_mpz(e + i * w, w, x);
    }
    free(buf);
    mpz_clears(M, A, Bz, C, x, NULL);
}

/* Random coefficients below M (or all M - 1). */
static void fill(uint64_t *a, size_t len, const uint64_t *m, size_t w, int allmax)
{
    mpz_t M, x;
    mpz_inits(M, x, NULL);
    to_mpz(M, m, w);
    uint64_t *tmp = xmalloc(w * 8);
    for (size_t i = 0; i < len; i++) {
        if (allmax) {
            mpz_sub_ui(x, M, 1);
        } else {
            for (size_t j = 0; j < w; j++) tmp[j] = rnd_range(0, ~(uint64_t)0);
            to_mpz(x, tmp, w);
            mpz_mod(x, x, M);
        }
        from_mpz(a + i * w, w, x);
    }
    free(tmp);
    mpz_clears(M, x, NULL);
}

static int cases_run;

/* One product on a context (made here where ctx is NULL) against GMP. */
static void check(ntt_bigmod *ctx, const uint64_t *m, size_t w, size_t la, size_t lb, int allmax,
                  int threads, const char *why)
{
    const size_t lc = la + lb - 1;
    uint64_t *a = xmalloc(la * w * 8), *b = xmalloc(lb * w * 8), *c = xmalloc((lc * w + 1) * 8),
             *e = xmalloc(lc * w * 8);
    fill(a, la, m, w, allmax);
    fill(b, lb, m, w, allmax);
    c[lc * w] = 0x5555555555555555ull;
    oracle(e, a, la, b, lb, m, w);
    ntt_bigmod *own = NULL;
    if (!ctx) {
        ntt_plan_options o = {.threads = threads};
        CHECK_STATUS(NTT_OK, ntt_bigmod_create(&own, m, w, lc, NTT_BACKEND_AUTO, &o),
                     "%s: create (words %zu, len %zu)", why, w, lc);
        ctx = own;
    }
    if (ctx) {
        const ntt_status s = ntt_bigmod_mul(ctx, c, a, la, b, lb);
        CHECK_STATUS(NTT_OK, s, "%s: mul (words %zu, la %zu, lb %zu)", why, w, la, lb);
        if (s == NTT_OK)
            CHECK_ARR64(e, c, lc * w, "%s: words %zu, top %" PRIx64 ", la %zu, lb %zu%s, %d threads",
                        why, w, m[w - 1], la, lb, allmax ? ", all M-1" : "", threads);
        CHECK_EQ(0x5555555555555555ull, c[lc * w], "%s: wrote past c", why);
    }
    ntt_bigmod_destroy(own);
    cases_run++;
    free(a);
    free(b);
    free(c);
    free(e);
}

/* A random M of exactly `bits` bits (odd or even as it comes). */
static size_t random_m(uint64_t *m, unsigned bits)
{
    const size_t w = (bits + 63) / 64;
    for (size_t j = 0; j < w; j++) m[j] = rnd_range(0, ~(uint64_t)0);
    const unsigned top = bits - 64 * (unsigned)(w - 1); /* 1 .. 64 */
    if (top < 64) m[w - 1] &= ((uint64_t)1 << top) - 1;
    m[w - 1] |= (uint64_t)1 << (top - 1);
    return w;
}

static size_t len_upto(size_t max) { return 1 + (size_t)rnd_below(max); }

static void test_random(void)
{
    uint64_t m[64];
    const unsigned bits[] = {64, 65, 100, 127, 128, 192, 256, 521, 1024, 2048, 4096};
    for (size_t i = 0; i < sizeof bits / sizeof bits[0]; i++) {
        const size_t w = random_m(m, bits[i]);
        const size_t maxl = bits[i] > 1024 ? 64 : 1024;
        check(NULL, m, w, len_upto(maxl), len_upto(maxl), 0, 1, "random M");
        check(NULL, m, w, len_upto(8), len_upto(maxl), 0, 1, "random M, unbalanced");
    }
    /* Random bit lengths, one of them even. */
    for (int r = 0; r < 6; r++) {
        const size_t w = random_m(m, 64 + (unsigned)rnd_below(960));
        if (r == 0) m[0] &= ~(uint64_t)1;
        check(NULL, m, w, len_upto(200), len_upto(200), r == 1, 1, "random length of M");
    }
}

static void test_named(void)
{
    uint64_t m[70];
    /* Powers of two: 2^64, 2^100, 2^4096 (65 words). */
    const unsigned pw[] = {64, 100, 4096};
    for (size_t i = 0; i < 3; i++) {
        const size_t w = pw[i] / 64 + 1;
        memset(m, 0, sizeof m);
        m[w - 1] = (uint64_t)1 << (pw[i] % 64);
        check(NULL, m, w, 37, 50, 0, 1, "power of two");
        check(NULL, m, w, 12, 9, 1, 1, "power of two, all M-1");
    }
    const uint64_t small[] = {2, 3, 4, 1000000007, ((uint64_t)1 << 63) + 1, ((uint64_t)1 << 63) + 25,
                              ~(uint64_t)0};
    for (size_t i = 0; i < sizeof small / sizeof small[0]; i++) {
        m[0] = small[i];
        check(NULL, m, 1, 300, 200, 0, 1, "one-word M");
        check(NULL, m, 1, 64, 64, 1, 1, "one-word M, all M-1");
    }
    m[0] = 1, m[1] = 1; /* 2^64 + 1 */
    check(NULL, m, 2, 100, 100, 1, 1, "2^64 + 1");
    /* A composite: (2^127 - 1) * 3, odd, and 2^200 * 3 + 2, even. */
    m[0] = ~(uint64_t)0 - 2, m[1] = ((uint64_t)1 << 63) - 1 + ((uint64_t)1 << 63), m[2] = 1;
    check(NULL, m, 3, 40, 60, 0, 1, "composite");
    memset(m, 0, sizeof m);
    m[0] = 2, m[3] = 3 << 8;
    check(NULL, m, 4, 77, 33, 0, 1, "even composite");
    /* A multiple of the context's first prime (the largest below 2^50
       that is 1 mod 2^30): its table entry takes the other way. */
    uint64_t k = ((uint64_t)1 << 20) - 1;
    while (!ntt_is_prime((k << 30) + 1)) k--;
    const uint64_t q0 = (k << 30) + 1;
    memset(m, 0, sizeof m);
    const uint64_t f[3] = {0x123456789ABCDEFull, 0xFEDCBA9876543210ull, 0x1234567ull};
    uint64_t c = 0;
    for (int j = 0; j < 3; j++) {
        const tu128 v = (tu128)f[j] * q0 + c;
        m[j] = (uint64_t)v;
        c = (uint64_t)(v >> 64);
    }
    m[3] = c;
    check(NULL, m, m[3] ? 4 : 3, 50, 40, 0, 1, "a multiple of an NTT prime");
    check(NULL, m, m[3] ? 4 : 3, 20, 20, 1, 1, "a multiple of an NTT prime, all M-1");
}

/* Lengths 1 .. 2^12 balanced and unbalanced on one context, used again. */
static void test_lengths(void)
{
    uint64_t m[4];
    const size_t w = random_m(m, 200);
    ntt_bigmod *ctx;
    const size_t maxl = (size_t)1 << 13;
    CHECK_STATUS(NTT_OK, ntt_bigmod_create(&ctx, m, w, maxl, NTT_BACKEND_AUTO, NULL), "create");
    if (!ctx) return;
    CHECK_EQ(w, ntt_bigmod_words(ctx), "words");
    CHECK_EQ(maxl, ntt_bigmod_max_len(ctx), "max_len");
    const size_t L = (size_t)1 << 12;
    check(ctx, m, w, L, L, 0, 1, "2^12 x 2^12");
    check(ctx, m, w, 1, L, 0, 1, "1 x 2^12");
    check(ctx, m, w, L, 1, 1, 1, "2^12 x 1");
    check(ctx, m, w, 1, 1, 0, 1, "1 x 1");
    check(ctx, m, w, L - 3, 5, 0, 1, "unbalanced");
    check(ctx, m, w, L, L, 1, 1, "2^12 x 2^12, all M-1");
    ntt_bigmod_destroy(ctx);
    /* Two threads give one thread's words (checked against GMP). */
    check(NULL, m, w, 1500, 1700, 0, 2, "two threads");
}

static void test_bad(void)
{
    uint64_t m[2] = {1000000007, 0}, a[4] = {1, 2, 3, 4}, b[4] = {5, 6, 7, 8}, c[8];
    ntt_bigmod *ctx = (ntt_bigmod *)&ctx;
    CHECK_STATUS(NTT_EINVAL, ntt_bigmod_create(&ctx, m, 2, 8, NTT_BACKEND_AUTO, NULL), "top word 0");
    CHECK(ctx == NULL, "create sets *ctx NULL on failure");
    uint64_t one = 1, zero = 0;
    CHECK_STATUS(NTT_EINVAL, ntt_bigmod_create(&ctx, &one, 1, 8, NTT_BACKEND_AUTO, NULL), "M = 1");
    CHECK_STATUS(NTT_EINVAL, ntt_bigmod_create(&ctx, &zero, 1, 8, NTT_BACKEND_AUTO, NULL), "M = 0");
    CHECK_STATUS(NTT_EINVAL, ntt_bigmod_create(&ctx, NULL, 1, 8, NTT_BACKEND_AUTO, NULL), "m NULL");
    CHECK_STATUS(NTT_EINVAL, ntt_bigmod_create(NULL, m, 1, 8, NTT_BACKEND_AUTO, NULL), "ctx NULL");
    CHECK_STATUS(NTT_EINVAL, ntt_bigmod_create(&ctx, m, 0, 8, NTT_BACKEND_AUTO, NULL), "words 0");
    CHECK_STATUS(NTT_EINVAL, ntt_bigmod_create(&ctx, m, 1, 0, NTT_BACKEND_AUTO, NULL), "max_len 0");
    CHECK_STATUS(NTT_EINVAL,
                 ntt_bigmod_create(&ctx, m, NTT_BIGMOD_MAX_BITS / 64 + 1, 8, NTT_BACKEND_AUTO, NULL),
                 "M too long");
    /* 65536 bits at 2^30 coefficients: 2623 primes (within the set) at
       size 2^30, more memory than any machine has: refused before any
       allocation. */
    uint64_t *big = calloc(NTT_BIGMOD_MAX_BITS / 64, 8);
    big[NTT_BIGMOD_MAX_BITS / 64 - 1] = ~(uint64_t)0;
    CHECK_STATUS(NTT_ENOMEM,
                 ntt_bigmod_create(&ctx, big, NTT_BIGMOD_MAX_BITS / 64, NTT_POLYMUL_MAX_LEN,
                                   NTT_BACKEND_AUTO, NULL),
                 "more memory than the machine's");
    free(big);
    CHECK_STATUS(NTT_OK, ntt_bigmod_create(&ctx, m, 1, 7, NTT_BACKEND_AUTO, NULL), "create");
    if (!ctx) return;
    for (int i = 0; i < 8; i++) c[i] = 0xAAAA;
    CHECK_STATUS(NTT_EINVAL, ntt_bigmod_mul(ctx, c, a, 4, b, 5), "la + lb - 1 > max_len");
    CHECK_STATUS(NTT_EINVAL, ntt_bigmod_mul(ctx, c, a, 0, b, 4), "la 0");
    CHECK_STATUS(NTT_EINVAL, ntt_bigmod_mul(ctx, NULL, a, 4, b, 4), "c NULL");
    CHECK_STATUS(NTT_EINVAL, ntt_bigmod_mul(ctx, c, NULL, 4, b, 4), "a NULL");
    CHECK_STATUS(NTT_EINVAL, ntt_bigmod_mul(NULL, c, a, 4, b, 4), "ctx NULL");
    CHECK_STATUS(NTT_EINVAL, ntt_bigmod_mul(ctx, a + 1, a, 2, b, 2), "c overlaps a");
    b[3] = 1000000007;
    CHECK_STATUS(NTT_ERANGE, ntt_bigmod_mul(ctx, c, a, 4, b, 4), "b[3] = M");
    a[0] = ~(uint64_t)0;
    b[3] = 8;
    CHECK_STATUS(NTT_ERANGE, ntt_bigmod_mul(ctx, c, a, 4, b, 4), "a[0] > M");
    for (int i = 0; i < 8; i++) CHECK_EQ(0xAAAA, c[i], "c[%d] written by a failing call", i);
    CHECK_STATUS(NTT_ERANGE, ntt_bigmod_polymul(c, a, 4, b, 4, m, 1, NTT_BACKEND_AUTO),
                 "one-shot, a[0] > M");
    a[0] = 1;
    CHECK_STATUS(NTT_OK, ntt_bigmod_polymul(c, a, 4, b, 4, m, 1, NTT_BACKEND_AUTO), "one-shot");
    const uint64_t e0 = 5, e6 = 32; /* 1 * 5, 4 * 8 */
    CHECK_EQ(e0, c[0], "one-shot c[0]");
    CHECK_EQ(e6, c[6], "one-shot c[6]");
    ntt_bigmod_destroy(ctx);
}

static void test_large(void)
{
    uint64_t *m = xmalloc(NTT_BIGMOD_MAX_BITS / 8);
    size_t w = random_m(m, NTT_BIGMOD_MAX_BITS);
    check(NULL, m, w, 3, 5, 0, 1, "65536 bits");
    w = random_m(m, 1024);
    check(NULL, m, w, (size_t)1 << 16, (size_t)1 << 16, 0, 2, "2^16 x 2^16, 1024 bits");
    free(m);
}

int main(void)
{
    test_init("test_bigmod");
    test_bad();
    /* The IFMA kernels where this CPU has them, then the portable ones. */
    for (int pass = 0; pass < 2; pass++) {
        ntt_cpu_use_ifma(pass == 0);
        test_named();
        test_random();
        test_lengths();
    }
    ntt_cpu_use_ifma(true);
    const char *big = getenv("NTT_TEST_BIGMOD_LARGE");
    if (big && *big && *big != '0') test_large();
    printf("test_bigmod: %d products against GMP\n", cases_run);
    return test_finish();
}
