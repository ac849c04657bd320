/*
 * test_badinput: every rejected input, one function per case, each
 * asserting the exact status and that nothing the caller owns was touched
 * (outputs are poisoned first and compared afterwards):
 *  - ntt_plan_create / ntt_plan_create_rns: sizes, moduli, widths, options,
 *    NULL pointers (*plan is NULL after every failure);
 *  - execution: NULL data, NULL plan, wrong width, stride < n;
 *  - ntt_polymul_mod(_ex): NULL pointers, empty inputs, moduli out of
 *    range, coefficients >= p, aliasing, the length bound (checked before
 *    any read), bad options, unavailable backends;
 *  - the course file reader and the coefficient files (src/core/io.c).
 */
#include "test_common.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))
#define POISON32 0xA5A5A5A5u
#define POISON64 0xA5A5A5A5A5A5A5A5ull

/* ==== plan creation ===================================================================== */

static ntt_plan *const PLAN_POISON = (ntt_plan *)(uintptr_t)0x1234;

/* Creates a plan that must fail with `want`, and checks *plan == NULL. */
static void expect_create(ntt_status want, size_t n, uint64_t p, ntt_width w, ntt_backend be,
                          const test_opts *o, const char *what)
{
    ntt_plan *pl = PLAN_POISON;
    ntt_status s = test_plan_create(&pl, n, p, w, be, o);
    CHECK_STATUS(want, s, "ntt_plan_create(n=%zu, p=%" PRIu64 ", u%d): %s", n, p, (int)w, what);
    CHECK(pl == NULL, "ntt_plan_create(%s) failed but *plan = %p, not NULL", what, (void *)pl);
    if (s == NTT_OK && pl != PLAN_POISON) ntt_plan_destroy(pl);
}

static void plan_n0(void) { expect_create(NTT_EINVAL, 0, 998244353, NTT_U32, NTT_BACKEND_AUTO, NULL, "n = 0"); }
static void plan_n1(void) { expect_create(NTT_EINVAL, 1, 998244353, NTT_U32, NTT_BACKEND_AUTO, NULL, "n = 1"); }
static void plan_n3(void) { expect_create(NTT_EINVAL, 3, 998244353, NTT_U32, NTT_BACKEND_AUTO, NULL, "n = 3"); }
static void plan_n_not_pow2(void)
{
    expect_create(NTT_EINVAL, 6, 998244353, NTT_U32, NTT_BACKEND_AUTO, NULL, "n = 6");
    expect_create(NTT_EINVAL, 1000, 1337006139375617ull, NTT_U64, NTT_BACKEND_SCALAR, NULL, "n = 1000");
    expect_create(NTT_EINVAL, ((size_t)1 << 20) + 1, 998244353, NTT_U32, NTT_BACKEND_AUTO, NULL, "n = 2^20 + 1");
}
static void plan_n_too_large(void)
{
    /* 2^31 > 2^NTT_MAX_LOG2_N even though the prime has 2^33 | p-1 */
    expect_create(NTT_EINVAL, (size_t)1 << 31, 4611685941117976577ull, NTT_U64, NTT_BACKEND_AUTO, NULL, "n = 2^31");
    expect_create(NTT_EINVAL, (size_t)1 << 40, 4611685941117976577ull, NTT_U64, NTT_BACKEND_AUTO, NULL, "n = 2^40");
    expect_create(NTT_EINVAL, (size_t)1 << 63, 4611685941117976577ull, NTT_U64, NTT_BACKEND_AUTO, NULL, "n = 2^63");
    expect_create(NTT_EINVAL, SIZE_MAX, 4611685941117976577ull, NTT_U64, NTT_BACKEND_AUTO, NULL, "n = SIZE_MAX");
}
static void plan_p0(void) { expect_create(NTT_EMODULUS, 2, 0, NTT_U32, NTT_BACKEND_AUTO, NULL, "p = 0"); }
static void plan_p1(void) { expect_create(NTT_EMODULUS, 2, 1, NTT_U64, NTT_BACKEND_AUTO, NULL, "p = 1"); }
static void plan_p2(void)
{
    /* 2 is prime, but the width's range is 2 < p */
    expect_create(NTT_EMODULUS, 2, 2, NTT_U32, NTT_BACKEND_AUTO, NULL, "p = 2");
    expect_create(NTT_EMODULUS, 2, 2, NTT_U64, NTT_BACKEND_AUTO, NULL, "p = 2");
}
static void plan_p4_composite(void)
{
    expect_create(NTT_EMODULUS, 2, 4, NTT_U32, NTT_BACKEND_AUTO, NULL, "p = 4");
    expect_create(NTT_EMODULUS, 4, 17 * 97, NTT_U32, NTT_BACKEND_AUTO, NULL, "p = 17 * 97 (p-1 divisible by 4)");
    /* composites with a large 2-adic p-1 */
    expect_create(NTT_EMODULUS, 16, 65537ull * 65537ull, NTT_U64, NTT_BACKEND_AUTO, NULL, "p = 65537^2");
    expect_create(NTT_EMODULUS, 2, 561, NTT_U32, NTT_BACKEND_AUTO, NULL, "p = 561 (Carmichael)");
}
static void plan_u32_p_above_2p30(void)
{
    /* 3 2^30 + 1 is prime with 2^30 | p-1 but does not fit the u32 range */
    expect_create(NTT_EMODULUS, 16, 3221225473ull, NTT_U32, NTT_BACKEND_AUTO, NULL, "u32 p = 3 2^30 + 1");
    expect_create(NTT_EMODULUS, 2, 1073741827ull, NTT_U32, NTT_BACKEND_AUTO, NULL, "u32 p = smallest prime > 2^30");
    /* the same primes are fine for u64 plans */
    ntt_plan *pl = NULL;
    CHECK_STATUS(NTT_OK, test_plan_create(&pl, 16, 3221225473ull, NTT_U64, NTT_BACKEND_AUTO, NULL), "u64 p = 3 2^30 + 1");
    ntt_plan_destroy(pl);
}
static void plan_u64_p_at_least_2p62(void)
{
    expect_create(NTT_EMODULUS, 16, 4611686018428108801ull, NTT_U64, NTT_BACKEND_AUTO, NULL,
                  "u64 p = smallest prime >= 2^62 with 2^16 | p-1");
    expect_create(NTT_EMODULUS, 16, 9223372006790004737ull, NTT_U64, NTT_BACKEND_AUTO, NULL,
                  "u64 p = largest prime < 2^63 with 2^32 | p-1");
    expect_create(NTT_EMODULUS, 2, (uint64_t)1 << 62, NTT_U64, NTT_BACKEND_AUTO, NULL, "u64 p = 2^62");
    expect_create(NTT_EMODULUS, 2, 18446744073709551557ull, NTT_U64, NTT_BACKEND_AUTO, NULL, "u64 p = 2^64 - 59");
}
static void plan_cyclic_n_not_dividing(void)
{
    expect_create(NTT_EMODULUS, (size_t)1 << 21, 7340033, NTT_U32, NTT_BACKEND_AUTO, NULL, "n = 2^21, 2^20 || p-1");
    expect_create(NTT_EMODULUS, 4, 4611686018427387847ull, NTT_U64, NTT_BACKEND_AUTO, NULL, "n = 4, 2 || p-1");
    expect_create(NTT_EMODULUS, 8192, 4611686018427277313ull, NTT_U64, NTT_BACKEND_AUTO, NULL, "n = 2^13, 2^12 || p-1");
}
static void plan_negacyclic_2n_not_dividing(void)
{
    test_opts o = {0};
    o.flags = NTT_FLAG_NEGACYCLIC;
    expect_create(NTT_EMODULUS, (size_t)1 << 20, 7340033, NTT_U32, NTT_BACKEND_AUTO, &o, "negacyclic n = 2^20, 2^20 || p-1");
    expect_create(NTT_EMODULUS, 2, 4611686018427387847ull, NTT_U64, NTT_BACKEND_AUTO, &o, "negacyclic n = 2, 2 || p-1");
    /* ... while the cyclic plan of the same size exists */
    ntt_plan *pl = NULL;
    CHECK_STATUS(NTT_OK, test_plan_create(&pl, (size_t)1 << 20, 7340033, NTT_U32, NTT_BACKEND_AUTO, NULL), "cyclic n = 2^20");
    ntt_plan_destroy(pl);
}
static void plan_bad_width(void)
{
    static const int widths[] = {0, 16, 33, 63, 128, -32};
    for (size_t i = 0; i < COUNT(widths); i++)
        expect_create(NTT_EINVAL, 16, 998244353, (ntt_width)widths[i], NTT_BACKEND_AUTO, NULL, "bad width");
}
static void plan_bad_modmul(void)
{
    test_opts o = {0};
    o.modmul = (ntt_modmul)99;
    expect_create(NTT_EINVAL, 16, 998244353, NTT_U32, NTT_BACKEND_AUTO, &o, "modmul = 99");
    o.modmul = (ntt_modmul)5;
    expect_create(NTT_EINVAL, 16, 998244353, NTT_U32, NTT_BACKEND_AUTO, &o, "modmul = 5");
    o.modmul = (ntt_modmul)-1;
    expect_create(NTT_EINVAL, 16, 998244353, NTT_U32, NTT_BACKEND_AUTO, &o, "modmul = -1");
}
static void plan_bad_variant(void)
{
    test_opts o = {0};
    o.variant = (ntt_variant)99;
    expect_create(NTT_EINVAL, 16, 998244353, NTT_U32, NTT_BACKEND_AUTO, &o, "variant = 99");
    o.variant = (ntt_variant)-1;
    expect_create(NTT_EINVAL, 16, 998244353, NTT_U32, NTT_BACKEND_AUTO, &o, "variant = -1");
}
static void plan_gpu_variant_on_cpu(void)
{
    test_opts o = {0};
    for (int v = NTT_VARIANT_GPU_TABLE; v <= NTT_VARIANT_GPU_SHARED; v++) {
        o.variant = (ntt_variant)v;
        expect_create(NTT_EUNSUPPORTED, 16, 998244353, NTT_U32, NTT_BACKEND_SCALAR, &o, ntt_variant_name(o.variant));
    }
}
static void plan_baseline_fast_modmul(void)
{
    test_opts o = {0};
    o.variant = NTT_VARIANT_BASELINE;
    for (int m = NTT_MODMUL_BARRETT; m <= NTT_MODMUL_SHOUP; m++) {
        o.modmul = (ntt_modmul)m;
        expect_create(NTT_EUNSUPPORTED, 16, 998244353, NTT_U32, NTT_BACKEND_SCALAR, &o, "baseline with a fast modmul");
        expect_create(NTT_EUNSUPPORTED, 16, 1337006139375617ull, NTT_U64, NTT_BACKEND_SCALAR, &o, "baseline with a fast modmul");
    }
}
static void plan_unknown_flags(void)
{
    static const unsigned flags[] = {4, 8, 1u << 31, NTT_FLAG_NEGACYCLIC | 16, ~0u};
    for (size_t i = 0; i < COUNT(flags); i++) {
        test_opts o = {0};
        o.flags = flags[i];
        expect_create(NTT_EINVAL, 16, 998244353, NTT_U32, NTT_BACKEND_AUTO, &o, "unknown flag bits");
    }
}
static void plan_negative_threads(void)
{
    test_opts o = {0};
    o.threads = -1;
    expect_create(NTT_EINVAL, 16, 998244353, NTT_U32, NTT_BACKEND_AUTO, &o, "threads = -1");
    o.threads = -1000000;
    expect_create(NTT_EINVAL, 16, 998244353, NTT_U32, NTT_BACKEND_SCALAR, &o, "threads = -10^6");
}
static void plan_bad_backend_value(void)
{
    expect_create(NTT_EINVAL, 16, 998244353, NTT_U32, (ntt_backend)99, NULL, "backend = 99");
    expect_create(NTT_EINVAL, 16, 998244353, NTT_U32, (ntt_backend)-1, NULL, "backend = -1");
}
static void plan_unavailable_backend(void)
{
    int any = 0;
    for (int b = NTT_BACKEND_AVX2; b < NTT_BACKEND_COUNT; b++) {
        if (ntt_backend_available((ntt_backend)b)) continue;
        any = 1;
        expect_create(NTT_EUNSUPPORTED, 16, 998244353, NTT_U32, (ntt_backend)b, NULL, ntt_backend_name((ntt_backend)b));
    }
    if (!any) printf("plan_unavailable_backend: every backend is available, nothing to check\n");
}
static void plan_null_out(void)
{
    CHECK_STATUS(NTT_EINVAL, test_plan_create(NULL, 16, 998244353, NTT_U32, NTT_BACKEND_AUTO, NULL), "ntt_plan_create(NULL, ...)");
    uint64_t m[1] = {998244353};
    CHECK_STATUS(NTT_EINVAL, test_plan_create_rns(NULL, 16, m, 1, NTT_U32, NTT_BACKEND_AUTO, NULL), "ntt_plan_create_rns(NULL, ...)");
}
static void plan_rns_bad(void)
{
    const uint64_t good[3] = {998244353, 469762049, 7340033};
    const uint64_t bad_mid[3] = {998244353, 998244355 /* composite */, 7340033};
    const uint64_t bad_last[3] = {998244353, 469762049, 1073741827 /* prime > 2^30 */};
    ntt_plan *pl = PLAN_POISON;
    CHECK_STATUS(NTT_EINVAL, test_plan_create_rns(&pl, 16, good, 0, NTT_U32, NTT_BACKEND_AUTO, NULL), "rns count 0");
    CHECK(pl == NULL, "rns count 0: *plan not NULL");
    pl = PLAN_POISON;
    CHECK_STATUS(NTT_EINVAL, test_plan_create_rns(&pl, 16, NULL, 3, NTT_U32, NTT_BACKEND_AUTO, NULL), "rns moduli NULL");
    CHECK(pl == NULL, "rns moduli NULL: *plan not NULL");
    pl = PLAN_POISON;
    CHECK_STATUS(NTT_EMODULUS, test_plan_create_rns(&pl, 16, bad_mid, 3, NTT_U32, NTT_BACKEND_AUTO, NULL), "rns composite modulus");
    CHECK(pl == NULL, "rns composite modulus: *plan not NULL");
    pl = PLAN_POISON;
    CHECK_STATUS(NTT_EMODULUS, test_plan_create_rns(&pl, 16, bad_last, 3, NTT_U32, NTT_BACKEND_AUTO, NULL), "rns modulus > 2^30");
    CHECK(pl == NULL, "rns modulus > 2^30: *plan not NULL");
    pl = PLAN_POISON;
    /* 2^21 | p-1 fails only for 7340033 */
    CHECK_STATUS(NTT_EMODULUS, test_plan_create_rns(&pl, (size_t)1 << 21, good, 3, NTT_U32, NTT_BACKEND_AUTO, NULL),
                 "rns: n does not divide p-1 of the last modulus");
    CHECK(pl == NULL, "rns size: *plan not NULL");
    pl = PLAN_POISON;
    CHECK_STATUS(NTT_EINVAL, test_plan_create_rns(&pl, 12, good, 3, NTT_U32, NTT_BACKEND_AUTO, NULL), "rns n = 12");
    CHECK(pl == NULL, "rns n = 12: *plan not NULL");
}

/* ==== execution ======================================================================== */

static ntt_plan *make(size_t n, uint64_t p, ntt_width w)
{
    ntt_plan *pl = NULL;
    ntt_status s = test_plan_create(&pl, n, p, w, NTT_BACKEND_SCALAR, NULL);
    CHECK_STATUS(NTT_OK, s, "ntt_plan_create(n=%zu, p=%" PRIu64 ")", n, p);
    return s == NTT_OK ? pl : NULL;
}

static void exec_null_data(void)
{
    for (int wi = 0; wi < 2; wi++) {
        ntt_plan *pl = make(16, wi ? 1337006139375617ull : 998244353, wi ? NTT_U64 : NTT_U32);
        if (!pl) continue;
        uint32_t a32[64], c32[64];
        uint64_t a64[64], c64[64];
        for (int i = 0; i < 64; i++) a32[i] = c32[i] = (uint32_t)i, a64[i] = c64[i] = (uint64_t)i;
        uint32_t s32[64];
        uint64_t s64[64];
        memcpy(s32, c32, sizeof s32);
        memcpy(s64, c64, sizeof s64);
        if (!wi) {
            CHECK_STATUS(NTT_EINVAL, ntt_forward_u32(pl, NULL), "forward_u32(NULL)");
            CHECK_STATUS(NTT_EINVAL, ntt_inverse_u32(pl, NULL), "inverse_u32(NULL)");
            CHECK_STATUS(NTT_EINVAL, ntt_pointwise_u32(pl, NULL, a32, a32), "pointwise_u32(c NULL)");
            CHECK_STATUS(NTT_EINVAL, ntt_pointwise_u32(pl, c32, NULL, a32), "pointwise_u32(a NULL)");
            CHECK_STATUS(NTT_EINVAL, ntt_pointwise_u32(pl, c32, a32, NULL), "pointwise_u32(b NULL)");
            CHECK_STATUS(NTT_EINVAL, ntt_polymul_u32(pl, NULL, a32, a32), "polymul_u32(c NULL)");
            CHECK_STATUS(NTT_EINVAL, ntt_polymul_u32(pl, c32, NULL, a32), "polymul_u32(a NULL)");
            CHECK_STATUS(NTT_EINVAL, ntt_polymul_u32(pl, c32, a32, NULL), "polymul_u32(b NULL)");
            CHECK_STATUS(NTT_EINVAL, ntt_forward_batch_u32(pl, NULL, 2, 16), "forward_batch_u32(NULL)");
            CHECK_STATUS(NTT_EINVAL, ntt_inverse_batch_u32(pl, NULL, 2, 16), "inverse_batch_u32(NULL)");
            CHECK_STATUS(NTT_EINVAL, ntt_pointwise_batch_u32(pl, c32, NULL, a32, 2, 16), "pointwise_batch_u32(a NULL)");
            CHECK_STATUS(NTT_EINVAL, ntt_polymul_batch_u32(pl, c32, a32, NULL, 2, 16), "polymul_batch_u32(b NULL)");
            CHECK_STATUS(NTT_EINVAL, ntt_polymul_batch_u32(pl, NULL, a32, a32, 2, 16), "polymul_batch_u32(c NULL)");
            CHECK_MEM(s32, c32, sizeof c32, "u32 calls with NULL pointers wrote c");
        } else {
            CHECK_STATUS(NTT_EINVAL, ntt_forward_u64(pl, NULL), "forward_u64(NULL)");
            CHECK_STATUS(NTT_EINVAL, ntt_inverse_u64(pl, NULL), "inverse_u64(NULL)");
            CHECK_STATUS(NTT_EINVAL, ntt_pointwise_u64(pl, NULL, a64, a64), "pointwise_u64(c NULL)");
            CHECK_STATUS(NTT_EINVAL, ntt_pointwise_u64(pl, c64, NULL, a64), "pointwise_u64(a NULL)");
            CHECK_STATUS(NTT_EINVAL, ntt_pointwise_u64(pl, c64, a64, NULL), "pointwise_u64(b NULL)");
            CHECK_STATUS(NTT_EINVAL, ntt_polymul_u64(pl, NULL, a64, a64), "polymul_u64(c NULL)");
            CHECK_STATUS(NTT_EINVAL, ntt_polymul_u64(pl, c64, NULL, a64), "polymul_u64(a NULL)");
            CHECK_STATUS(NTT_EINVAL, ntt_polymul_u64(pl, c64, a64, NULL), "polymul_u64(b NULL)");
            CHECK_STATUS(NTT_EINVAL, ntt_forward_batch_u64(pl, NULL, 2, 16), "forward_batch_u64(NULL)");
            CHECK_STATUS(NTT_EINVAL, ntt_inverse_batch_u64(pl, NULL, 2, 16), "inverse_batch_u64(NULL)");
            CHECK_STATUS(NTT_EINVAL, ntt_pointwise_batch_u64(pl, c64, NULL, a64, 2, 16), "pointwise_batch_u64(a NULL)");
            CHECK_STATUS(NTT_EINVAL, ntt_polymul_batch_u64(pl, c64, a64, NULL, 2, 16), "polymul_batch_u64(b NULL)");
            CHECK_STATUS(NTT_EINVAL, ntt_polymul_batch_u64(pl, NULL, a64, a64, 2, 16), "polymul_batch_u64(c NULL)");
            CHECK_MEM(s64, c64, sizeof c64, "u64 calls with NULL pointers wrote c");
        }
        ntt_plan_destroy(pl);
    }
}

static void exec_null_plan(void)
{
    uint32_t a32[16] = {1, 2, 3}, s32[16];
    uint64_t a64[16] = {1, 2, 3}, s64[16];
    memcpy(s32, a32, sizeof a32);
    memcpy(s64, a64, sizeof a64);
    CHECK_STATUS(NTT_EINVAL, ntt_forward_u32(NULL, a32), "forward_u32(NULL plan)");
    CHECK_STATUS(NTT_EINVAL, ntt_inverse_u64(NULL, a64), "inverse_u64(NULL plan)");
    CHECK_STATUS(NTT_EINVAL, ntt_pointwise_u32(NULL, a32, a32, a32), "pointwise_u32(NULL plan)");
    CHECK_STATUS(NTT_EINVAL, ntt_polymul_u64(NULL, a64, a64, a64), "polymul_u64(NULL plan)");
    CHECK_STATUS(NTT_EINVAL, ntt_forward_batch_u64(NULL, a64, 1, 16), "forward_batch_u64(NULL plan)");
    CHECK_STATUS(NTT_EINVAL, ntt_polymul_batch_u32(NULL, a32, a32, a32, 1, 16), "polymul_batch_u32(NULL plan)");
    CHECK_MEM(s32, a32, sizeof a32, "calls with a NULL plan wrote data");
    CHECK_MEM(s64, a64, sizeof a64, "calls with a NULL plan wrote data");
}

static void exec_wrong_width(void)
{
    ntt_plan *p32 = make(16, 998244353, NTT_U32), *p64 = make(16, 1337006139375617ull, NTT_U64);
    if (!p32 || !p64) {
        ntt_plan_destroy(p32);
        ntt_plan_destroy(p64);
        return;
    }
    uint64_t a[32], c[32], s[32];
    uint32_t A[32], C[32], S[32];
    for (int i = 0; i < 32; i++) a[i] = (uint64_t)i * 3, c[i] = POISON64, A[i] = (uint32_t)i * 3, C[i] = POISON32;
    memcpy(s, a, sizeof a);
    memcpy(S, A, sizeof A);
    CHECK_STATUS(NTT_EINVAL, ntt_forward_u64(p32, a), "forward_u64 on a u32 plan");
    CHECK_STATUS(NTT_EINVAL, ntt_inverse_u64(p32, a), "inverse_u64 on a u32 plan");
    CHECK_STATUS(NTT_EINVAL, ntt_pointwise_u64(p32, c, a, a), "pointwise_u64 on a u32 plan");
    CHECK_STATUS(NTT_EINVAL, ntt_polymul_u64(p32, c, a, a), "polymul_u64 on a u32 plan");
    CHECK_STATUS(NTT_EINVAL, ntt_forward_batch_u64(p32, a, 2, 16), "forward_batch_u64 on a u32 plan");
    CHECK_STATUS(NTT_EINVAL, ntt_inverse_batch_u64(p32, a, 2, 16), "inverse_batch_u64 on a u32 plan");
    CHECK_STATUS(NTT_EINVAL, ntt_pointwise_batch_u64(p32, c, a, a, 2, 16), "pointwise_batch_u64 on a u32 plan");
    CHECK_STATUS(NTT_EINVAL, ntt_polymul_batch_u64(p32, c, a, a, 2, 16), "polymul_batch_u64 on a u32 plan");
    CHECK_STATUS(NTT_EINVAL, ntt_forward_u32(p64, A), "forward_u32 on a u64 plan");
    CHECK_STATUS(NTT_EINVAL, ntt_inverse_u32(p64, A), "inverse_u32 on a u64 plan");
    CHECK_STATUS(NTT_EINVAL, ntt_pointwise_u32(p64, C, A, A), "pointwise_u32 on a u64 plan");
    CHECK_STATUS(NTT_EINVAL, ntt_polymul_u32(p64, C, A, A), "polymul_u32 on a u64 plan");
    CHECK_STATUS(NTT_EINVAL, ntt_forward_batch_u32(p64, A, 2, 16), "forward_batch_u32 on a u64 plan");
    CHECK_STATUS(NTT_EINVAL, ntt_inverse_batch_u32(p64, A, 2, 16), "inverse_batch_u32 on a u64 plan");
    CHECK_STATUS(NTT_EINVAL, ntt_pointwise_batch_u32(p64, C, A, A, 2, 16), "pointwise_batch_u32 on a u64 plan");
    CHECK_STATUS(NTT_EINVAL, ntt_polymul_batch_u32(p64, C, A, A, 2, 16), "polymul_batch_u32 on a u64 plan");
    CHECK_MEM(s, a, sizeof a, "wrong-width calls wrote a");
    CHECK_MEM(S, A, sizeof A, "wrong-width calls wrote A");
    for (int i = 0; i < 32; i++) {
        CHECK_EQ(POISON64, c[i], "wrong-width call wrote c[%d]", i);
        CHECK_EQ(POISON32, C[i], "wrong-width call wrote C[%d]", i);
    }
    ntt_plan_destroy(p32);
    ntt_plan_destroy(p64);
}

static void exec_stride_below_n(void)
{
    ntt_plan *pl = make(16, 998244353, NTT_U32), *pq = make(16, 1337006139375617ull, NTT_U64);
    if (!pl || !pq) {
        ntt_plan_destroy(pl);
        ntt_plan_destroy(pq);
        return;
    }
    uint32_t a[64], c[64], s[64], cs[64];
    uint64_t A[64], S[64];
    for (int i = 0; i < 64; i++) a[i] = (uint32_t)i, c[i] = POISON32, A[i] = (uint64_t)i;
    memcpy(s, a, sizeof a);
    memcpy(cs, c, sizeof c);
    memcpy(S, A, sizeof A);
    static const size_t strides[] = {15, 8, 1, 0};
    for (size_t k = 0; k < COUNT(strides); k++) {
        const size_t st = strides[k];
        for (size_t count = 1; count <= 3; count += 2) {
            CHECK_STATUS(NTT_EINVAL, ntt_forward_batch_u32(pl, a, count, st), "forward_batch count=%zu stride=%zu < n=16", count, st);
            CHECK_STATUS(NTT_EINVAL, ntt_inverse_batch_u32(pl, a, count, st), "inverse_batch count=%zu stride=%zu", count, st);
            CHECK_STATUS(NTT_EINVAL, ntt_pointwise_batch_u32(pl, c, a, a, count, st), "pointwise_batch count=%zu stride=%zu", count, st);
            CHECK_STATUS(NTT_EINVAL, ntt_polymul_batch_u32(pl, c, a, a, count, st), "polymul_batch count=%zu stride=%zu", count, st);
            CHECK_STATUS(NTT_EINVAL, ntt_forward_batch_u64(pq, A, count, st), "forward_batch_u64 count=%zu stride=%zu", count, st);
            CHECK_STATUS(NTT_EINVAL, ntt_polymul_batch_u64(pq, A, A, A, count, st), "polymul_batch_u64 count=%zu stride=%zu", count, st);
        }
    }
    CHECK_MEM(s, a, sizeof a, "stride < n: a written");
    CHECK_MEM(cs, c, sizeof c, "stride < n: c written");
    CHECK_MEM(S, A, sizeof A, "stride < n: A written");
    /* a stride so large that the last item's index overflows */
    CHECK_STATUS(NTT_EINVAL, ntt_forward_batch_u32(pl, a, 3, SIZE_MAX / 2), "forward_batch stride=SIZE_MAX/2 count=3");
    CHECK_STATUS(NTT_EINVAL, ntt_polymul_batch_u64(pq, A, A, A, 5, SIZE_MAX / 4), "polymul_batch stride=SIZE_MAX/4 count=5");
    CHECK_MEM(s, a, sizeof a, "huge stride: a written");
    ntt_plan_destroy(pl);
    ntt_plan_destroy(pq);
}

/* ==== ntt_polymul_mod ========================================================================= */

/* How many leading elements of a and b expect_mod snapshots (at most 64). */
static size_t snap_limit = 64;

/* Runs ntt_polymul_mod(_ex) expecting `want`; c (room for lc_room) must stay
   poisoned, a and b unchanged. */
static void expect_mod(ntt_status want, uint64_t *c, size_t lc_room, const uint64_t *a, size_t la, const uint64_t *b,
                       size_t lb, uint64_t p, ntt_backend be, const test_opts *o, const char *what)
{
    const size_t na = a ? (la < snap_limit ? la : snap_limit) : 0, nb = b ? (lb < snap_limit ? lb : snap_limit) : 0;
    uint64_t a0[64], b0[64];
    if (na) memcpy(a0, a, na * 8);
    if (nb) memcpy(b0, b, nb * 8);
    for (size_t i = 0; c && i < lc_room; i++) c[i] = POISON64;
    ntt_status s = o ? test_polymul_mod_ex(c, a, la, b, lb, p, be, o) : ntt_polymul_mod(c, a, la, b, lb, p, be);
    CHECK_STATUS(want, s, "%s(la=%zu, lb=%zu, p=%" PRIu64 "): %s", o ? "ntt_polymul_mod_ex" : "ntt_polymul_mod", la, lb, p,
                 what);
    size_t touched = 0;
    for (size_t i = 0; c && i < lc_room; i++) touched += c[i] != POISON64;
    if (c && lc_room) CHECK(touched == 0, "%s: c written (%zu elements)", what, touched);
    if (na) CHECK_ARR64(a0, a, na, "%s: a modified", what);
    if (nb) CHECK_ARR64(b0, b, nb, "%s: b modified", what);
}

static void mod_null_pointers(void)
{
    uint64_t a[4] = {1, 2, 3, 4}, b[4] = {5, 6, 7, 8}, c[8];
    expect_mod(NTT_EINVAL, NULL, 0, a, 4, b, 4, 17, NTT_BACKEND_AUTO, NULL, "c NULL");
    expect_mod(NTT_EINVAL, c, 8, NULL, 4, b, 4, 17, NTT_BACKEND_AUTO, NULL, "a NULL");
    expect_mod(NTT_EINVAL, c, 8, a, 4, NULL, 4, 17, NTT_BACKEND_AUTO, NULL, "b NULL");
    test_opts o = {0};
    expect_mod(NTT_EINVAL, c, 8, NULL, 4, b, 4, 17, NTT_BACKEND_AUTO, &o, "a NULL (_ex)");
}
static void mod_la_zero(void)
{
    uint64_t a[4] = {1, 2, 3, 4}, b[4] = {5, 6, 7, 8}, c[8];
    expect_mod(NTT_EINVAL, c, 8, a, 0, b, 4, 17, NTT_BACKEND_AUTO, NULL, "la == 0");
}
static void mod_lb_zero(void)
{
    uint64_t a[4] = {1, 2, 3, 4}, b[4] = {5, 6, 7, 8}, c[8];
    expect_mod(NTT_EINVAL, c, 8, a, 4, b, 0, 17, NTT_BACKEND_AUTO, NULL, "lb == 0");
    expect_mod(NTT_EINVAL, c, 8, a, 0, b, 0, 17, NTT_BACKEND_AUTO, NULL, "la == lb == 0");
}
static void mod_p_out_of_range(void)
{
    uint64_t a[20] = {0}, b[20] = {0}, c[40];
    static const uint64_t ps[] = {0, 1, (uint64_t)1 << 63, ((uint64_t)1 << 63) + 1, 18446744073709551557ull, UINT64_MAX};
    for (size_t i = 0; i < COUNT(ps); i++) {
        expect_mod(NTT_EINVAL, c, 40, a, 2, b, 2, ps[i], NTT_BACKEND_AUTO, NULL, "p out of [2, 2^63) (short)");
        expect_mod(NTT_EINVAL, c, 40, a, 20, b, 20, ps[i], NTT_BACKEND_SCALAR, NULL, "p out of [2, 2^63) (long)");
    }
}
/* On every CPU backend: the direct products check their inputs as they load
   them, the others (schoolbook, CRT) before anything. */
static void mod_coefficient_equals_p(void)
{
    const uint64_t ps[] = {17, 998244353, 1000000007, 4611685941117976577ull, 9223372036854775783ull};
    for (int be = NTT_BACKEND_SCALAR; be < NTT_BACKEND_COUNT; be++) {
        if (be == NTT_BACKEND_CUDA || !ntt_backend_available((ntt_backend)be)) continue;
        for (size_t k = 0; k < COUNT(ps); k++) {
            const uint64_t p = ps[k];
            for (size_t len = 1; len <= 400; len = len * 3 + 1) {
                uint64_t *a = xmalloc(len * 8), *b = xmalloc(len * 8), *c = xmalloc(2 * len * 8);
                rnd_fill64(a, len, p);
                rnd_fill64(b, len, p);
                a[len - 1] = p;
                expect_mod(NTT_ERANGE, c, 2 * len, a, len, b, len, p, (ntt_backend)be, NULL, "a[la-1] == p");
                a[len - 1] = 0;
                b[len / 2] = p;
                expect_mod(NTT_ERANGE, c, 2 * len, a, len, b, len, p, (ntt_backend)be, NULL, "b[lb/2] == p");
                b[len / 2] = p - 1; /* fine */
                for (size_t i = 0; i < 2 * len; i++) c[i] = 0;
                CHECK_STATUS(NTT_OK, ntt_polymul_mod(c, a, len, b, len, p, (ntt_backend)be),
                             "coefficient p-1 is fine (%s)", ntt_backend_name((ntt_backend)be));
                free(a), free(b), free(c);
            }
        }
    }
}
static void mod_coefficient_uint64_max(void)
{
    uint64_t a[30], b[30], c[60];
    rnd_fill64(a, 30, 1000000007);
    rnd_fill64(b, 30, 1000000007);
    a[0] = UINT64_MAX;
    expect_mod(NTT_ERANGE, c, 60, a, 30, b, 30, 1000000007, NTT_BACKEND_AUTO, NULL, "a[0] == UINT64_MAX");
    expect_mod(NTT_ERANGE, c, 60, b, 30, a, 30, 9223372036854775807ull, NTT_BACKEND_AUTO, NULL, "b[0] == UINT64_MAX");
    expect_mod(NTT_ERANGE, c, 60, a, 1, b, 1, 1000000007, NTT_BACKEND_AUTO, NULL, "a[0] == UINT64_MAX (la = 1)");
}
/* The OpenMP backend shares the input check out across its threads (long
   inputs only): a bad coefficient in any thread's share must be seen. */
static void mod_coefficient_threaded_check(void)
{
    if (!ntt_backend_available(NTT_BACKEND_OPENMP)) return;
    const uint64_t p = 998244353;
    const size_t len = 3 * ((size_t)1 << 13) + 5;
    uint64_t *a = xmalloc(len * 8), *b = xmalloc(len * 8), *c = xmalloc(2 * len * 8);
    rnd_fill64(a, len, p);
    rnd_fill64(b, len, p);
    const size_t where[] = {0, len / 3, len / 2, len - 17, len - 1};
    for (int threads = 1; threads <= 3; threads++) {
        test_opts o = {0};
        o.threads = threads;
        for (size_t k = 0; k < COUNT(where); k++) {
            uint64_t *x = k % 2 ? b : a;
            const uint64_t keep = x[where[k]];
            x[where[k]] = p + k;
            expect_mod(NTT_ERANGE, c, 2 * len, a, len, b, len, p, NTT_BACKEND_OPENMP, &o,
                       "one coefficient >= p, threaded check");
            x[where[k]] = keep;
        }
        CHECK_STATUS(NTT_OK, test_polymul_mod_ex(c, a, len, b, len, p, NTT_BACKEND_OPENMP, &o),
                     "all coefficients < p, threaded check (%d threads)", threads);
    }
    free(a), free(b), free(c);
}
static void mod_c_aliases_a(void)
{
    uint64_t buf[200];
    for (int i = 0; i < 200; i++) buf[i] = (uint64_t)i;
    uint64_t b[50];
    rnd_fill64(b, 50, 1000);
    /* exact alias, partial overlaps from both sides, and c == b */
    expect_mod(NTT_EINVAL, buf, 0, buf, 50, b, 50, 1009, NTT_BACKEND_AUTO, NULL, "c == a");
    expect_mod(NTT_EINVAL, buf + 10, 0, buf, 50, b, 50, 1009, NTT_BACKEND_AUTO, NULL, "c overlaps a (c = a + 10)");
    expect_mod(NTT_EINVAL, buf, 0, buf + 98, 50, b, 50, 1009, NTT_BACKEND_AUTO, NULL, "c overlaps a (a = c + 98)");
    expect_mod(NTT_EINVAL, buf, 0, b, 50, buf + 40, 50, 1009, NTT_BACKEND_AUTO, NULL, "c overlaps b (b = c + 40)");
    expect_mod(NTT_EINVAL, buf, 0, buf, 3, buf, 3, 1009, NTT_BACKEND_AUTO, NULL, "c == a == b (short)");
    for (int i = 0; i < 200; i++) CHECK_EQ(i, buf[i], "aliasing calls wrote buf[%d]", i);
    /* adjacent but not overlapping is fine */
    uint64_t e[99];
    t_schoolbook(e, buf + 99, 50, b, 50, 1009);
    for (int i = 99; i < 149; i++) buf[i] %= 1009;
    CHECK_STATUS(NTT_OK, ntt_polymul_mod(buf, buf + 99, 50, b, 50, 1009, NTT_BACKEND_AUTO), "c just before a");
    CHECK_ARR64(e, buf, 99, "c just before a");
}
static void mod_too_long(void)
{
    /* The bound is checked before anything is read: tiny buffers. */
    uint64_t a[2] = {1, 1}, b[2] = {1, 1}, c[4];
    snap_limit = 2; /* the real buffers hold 2 elements */
    expect_mod(NTT_EINVAL, c, 4, a, NTT_POLYMUL_MAX_LEN, b, 2, 17, NTT_BACKEND_AUTO, NULL, "la = MAX, lb = 2");
    expect_mod(NTT_EINVAL, c, 4, a, 2, b, NTT_POLYMUL_MAX_LEN, 17, NTT_BACKEND_AUTO, NULL, "la = 2, lb = MAX");
    expect_mod(NTT_EINVAL, c, 4, a, NTT_POLYMUL_MAX_LEN + 1, b, 1, 17, NTT_BACKEND_AUTO, NULL, "la = MAX + 1, lb = 1");
    expect_mod(NTT_EINVAL, c, 4, a, NTT_POLYMUL_MAX_LEN / 2 + 1, b, NTT_POLYMUL_MAX_LEN / 2 + 1, 17, NTT_BACKEND_AUTO, NULL,
               "la = lb = MAX/2 + 1");
    expect_mod(NTT_EINVAL, c, 4, a, SIZE_MAX, b, SIZE_MAX, 17, NTT_BACKEND_AUTO, NULL, "la = lb = SIZE_MAX");
    expect_mod(NTT_EINVAL, c, 4, a, SIZE_MAX, b, 2, 17, NTT_BACKEND_AUTO, NULL, "la = SIZE_MAX, lb = 2");
    expect_mod(NTT_EINVAL, c, 4, a, 2, b, SIZE_MAX / 8, 17, NTT_BACKEND_AUTO, NULL, "la = 2, lb = SIZE_MAX / 8");
    snap_limit = 64;
}
static void mod_bad_options(void)
{
    uint64_t a[20], b[20], c[40];
    rnd_fill64(a, 20, 97);
    rnd_fill64(b, 20, 97);
    test_opts o = {0};
    o.modmul = (ntt_modmul)99;
    expect_mod(NTT_EINVAL, c, 40, a, 20, b, 20, 97, NTT_BACKEND_AUTO, &o, "modmul = 99");
    o.modmul = NTT_MODMUL_DEFAULT;
    o.variant = (ntt_variant)99;
    expect_mod(NTT_EINVAL, c, 40, a, 20, b, 20, 97, NTT_BACKEND_AUTO, &o, "variant = 99");
    o.variant = NTT_VARIANT_FAST;
    o.threads = -1;
    expect_mod(NTT_EINVAL, c, 40, a, 20, b, 20, 97, NTT_BACKEND_AUTO, &o, "threads = -1");
    expect_mod(NTT_EINVAL, c, 40, a, 20, b, 20, 97, (ntt_backend)99, NULL, "backend = 99");
    expect_mod(NTT_EINVAL, c, 40, a, 2, b, 2, 97, (ntt_backend)-1, NULL, "backend = -1");
}
static void mod_unavailable_backend(void)
{
    int any = 0;
    uint64_t a[40], b[40], c[80];
    rnd_fill64(a, 40, 998244353);
    rnd_fill64(b, 40, 998244353);
    for (int be = NTT_BACKEND_AVX2; be < NTT_BACKEND_COUNT; be++) {
        if (ntt_backend_available((ntt_backend)be)) continue;
        any = 1;
        expect_mod(NTT_EUNSUPPORTED, c, 80, a, 40, b, 40, 998244353, (ntt_backend)be, NULL, ntt_backend_name((ntt_backend)be));
        expect_mod(NTT_EUNSUPPORTED, c, 80, a, 2, b, 3, 1000000007, (ntt_backend)be, NULL, ntt_backend_name((ntt_backend)be));
    }
    if (!any) printf("mod_unavailable_backend: every backend is available, nothing to check\n");
}

/* ==== course files ============================================================================= */

static char tmpdir[512];

static void make_tmpdir(void)
{
    const char *base = getenv("TMPDIR");
    if (!base || !*base) base = "/tmp";
    snprintf(tmpdir, sizeof tmpdir, "%s/ntt_test_io_XXXXXX", base);
    if (!mkdtemp(tmpdir)) {
        fprintf(stderr, "test_badinput: mkdtemp(%s) failed: %s\n", tmpdir, strerror(errno));
        exit(2);
    }
}

static void rm_rf(const char *path)
{
    struct stat st;
    if (lstat(path, &st) != 0) return;
    if (S_ISDIR(st.st_mode)) {
        chmod(path, 0700);
        DIR *d = opendir(path);
        if (d) {
            struct dirent *e;
            while ((e = readdir(d))) {
                if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, "..")) continue;
                char sub[1024];
                snprintf(sub, sizeof sub, "%s/%s", path, e->d_name);
                rm_rf(sub);
            }
            closedir(d);
        }
        rmdir(path);
    } else {
        unlink(path);
    }
}

/* Writes `text` to a fresh file (mkstemp) in tmpdir; returns its path. */
static const char *write_file(const char *text, size_t len)
{
    static char path[600];
    snprintf(path, sizeof path, "%s/in_XXXXXX", tmpdir);
    int fd = mkstemp(path);
    if (fd < 0) {
        fprintf(stderr, "test_badinput: mkstemp failed: %s\n", strerror(errno));
        exit(2);
    }
    size_t off = 0;
    while (off < len) {
        ssize_t w = write(fd, text + off, len - off);
        if (w <= 0) {
            fprintf(stderr, "test_badinput: write failed\n");
            exit(2);
        }
        off += (size_t)w;
    }
    close(fd);
    return path;
}

static bool all_zero(const void *p, size_t bytes)
{
    const unsigned char *c = p;
    for (size_t i = 0; i < bytes; i++)
        if (c[i]) return false;
    return true;
}

static void expect_coeffs(const char *text, ntt_status want, size_t line, size_t token, const uint64_t *v, size_t n,
                          const char *what);

/* Reads `text` as a course file expecting `want` (and, for failures, the
   error position line/token; 0 = not checked). */
static void expect_course(const char *text, ntt_status want, size_t line, size_t token, const char *what)
{
    const char *path = write_file(text, strlen(text));
    ntt_course_input in;
    memset(&in, 0x5a, sizeof in);
    ntt_io_error err;
    memset(&err, 0x5a, sizeof err);
    ntt_status s = ntt_course_read(path, &in, &err);
    CHECK_STATUS(want, s, "ntt_course_read(%s)", what);
    if (s != NTT_OK && want != NTT_OK) {
        CHECK(all_zero(&in, sizeof in), "ntt_course_read(%s) failed but *in is not zeroed", what);
        if (line) CHECK_EQ(line, err.line, "ntt_course_read(%s): err.line (message \"%.150s\")", what, err.message);
        if (token) CHECK_EQ(token, err.token, "ntt_course_read(%s): err.token (message \"%.150s\")", what, err.message);
        CHECK(memchr(err.message, '\0', sizeof err.message) && err.message[0], "ntt_course_read(%s): no error message", what);
    }
    if (s == NTT_OK) ntt_course_free(&in);
    unlink(path);
}

/* A valid file read back exactly. */
static void expect_course_ok(const char *text, size_t n, uint64_t p, const uint64_t *a, const uint64_t *b,
                             const char *what)
{
    const char *path = write_file(text, strlen(text));
    ntt_course_input in;
    ntt_io_error err;
    ntt_status s = ntt_course_read(path, &in, &err);
    CHECK_STATUS(NTT_OK, s, "ntt_course_read(%s): %.150s", what, s ? err.message : "");
    if (s == NTT_OK) {
        CHECK_EQ(n, in.n, "ntt_course_read(%s): n", what);
        CHECK_EQ(p, in.p, "ntt_course_read(%s): p", what);
        if (in.n == n && in.a && in.b) {
            CHECK_ARR64(a, in.a, n, "ntt_course_read(%s): a", what);
            CHECK_ARR64(b, in.b, n, "ntt_course_read(%s): b", what);
        }
        ntt_course_free(&in);
        CHECK(in.a == NULL && in.b == NULL && in.n == 0, "ntt_course_free did not reset the struct");
    }
    unlink(path);
}

static void io_valid_trailing_space_no_newline(void)
{
    const uint64_t a[3] = {1, 2, 16}, b[3] = {0, 5, 7};
    expect_course_ok("3 17 \n1 2 16 \n0 5 7 ", 3, 17, a, b, "trailing space, no final newline");
    expect_course_ok("3 17\n1 2 16\n0 5 7", 3, 17, a, b, "no final newline");
    expect_course_ok("\n\n  3   17\n\n1\n2\n16\n0 5\n7\n\n\n", 3, 17, a, b, "blank lines and one number per line");
    const uint64_t big_a[1] = {9223372036854775806ull}, big_b[1] = {0};
    expect_course_ok("1 9223372036854775807\n9223372036854775806\n0\n", 1, 9223372036854775807ull, big_a, big_b,
                     "p = 2^63 - 1");
    const uint64_t two_a[2] = {1, 0}, two_b[2] = {1, 1};
    expect_course_ok("2 2\n1 0\n1 1\n", 2, 2, two_a, two_b, "p = 2");
}
static void io_valid_crlf(void)
{
    const uint64_t a[2] = {1, 2}, b[2] = {3, 4};
    expect_course_ok("2 7\r\n1 2\r\n3 4\r\n", 2, 7, a, b, "CRLF line ends");
    expect_course_ok("2 7\r\n1 2\r\n3 4", 2, 7, a, b, "CRLF, no final newline");
}
static void io_valid_tabs(void)
{
    const uint64_t a[2] = {1, 2}, b[2] = {3, 4};
    expect_course_ok("2\t7\n1\t2\t3\t4\n", 2, 7, a, b, "tabs");
    expect_course_ok("\t2 \t 7\t\n\t1\t\t2\n3\t4\t\n", 2, 7, a, b, "tabs and spaces");
}
static void io_n_zero(void) { expect_course("0 17\n", NTT_EFORMAT, 1, 1, "n = 0"); }
static void io_n_too_large(void)
{
    expect_course("536870913 17\n1 2 3\n", NTT_EFORMAT, 1, 1, "n = 2^29 + 1");
    expect_course("18446744073709551615 17\n", NTT_EFORMAT, 1, 1, "n = 2^64 - 1");
}
static void io_p_one(void)
{
    expect_course("2 1\n0 0\n0 0\n", NTT_EFORMAT, 1, 2, "p = 1");
    expect_course("2 0\n0 0\n0 0\n", NTT_EFORMAT, 1, 2, "p = 0");
}
static void io_p_2p63(void)
{
    expect_course("2 9223372036854775808\n0 0\n0 0\n", NTT_EFORMAT, 1, 2, "p = 2^63");
    expect_course("1\n18446744073709551615\n0\n0\n", NTT_EFORMAT, 2, 1, "p = 2^64 - 1");
}
static void io_missing_file(void)
{
    char path[700];
    snprintf(path, sizeof path, "%s/does_not_exist.txt", tmpdir);
    ntt_course_input in;
    memset(&in, 0x5a, sizeof in);
    ntt_io_error err;
    CHECK_STATUS(NTT_EIO, ntt_course_read(path, &in, &err), "ntt_course_read(missing file)");
    CHECK(all_zero(&in, sizeof in), "ntt_course_read(missing file): *in not zeroed");
    uint64_t *c = (uint64_t *)&in;
    size_t len = 99;
    CHECK_STATUS(NTT_EIO, ntt_coeffs_read(path, &c, &len, &err), "ntt_coeffs_read(missing file)");
    CHECK(c == NULL && len == 0, "ntt_coeffs_read(missing file): outputs not reset");
    snprintf(path, sizeof path, "%s", tmpdir);
    CHECK(ntt_course_read(path, &in, NULL) != NTT_OK, "ntt_course_read(a directory) succeeded");
}
static void io_coefficient_ge_p(void)
{
    expect_course("3 17\n1 2 3\n4 17 5\n", NTT_ERANGE, 3, 2, "b[1] == p");
    expect_course("3 17\n1 2 18\n4 5 6\n", NTT_ERANGE, 2, 3, "a[2] == p + 1");
    expect_course("2 17 99 1 2 3\n", NTT_ERANGE, 1, 3, "a[0] >= p on the header line");
    expect_course("2 1000000007\n\t1 18446744073709551615\n0 0\n", NTT_ERANGE, 2, 2, "a[1] == 2^64 - 1");
}
static void io_negative(void)
{
    expect_course("2 17\n1 -5\n3 4\n", NTT_EFORMAT, 2, 2, "-5");
    expect_course("-2 17\n1 5\n3 4\n", NTT_EFORMAT, 1, 1, "n = -2");
    expect_course("2 -17\n1 5\n3 4\n", NTT_EFORMAT, 1, 2, "p = -17");
}
static void io_non_numeric(void)
{
    expect_course("2 17\n1 5\n3 12x\n", NTT_EFORMAT, 3, 2, "12x");
    expect_course("2 17\n0x1 5\n3 4\n", NTT_EFORMAT, 2, 1, "0x1");
    expect_course("2 17\n1 5\n+3 4\n", NTT_EFORMAT, 3, 1, "+3");
    expect_course("2 17\n1 5.0\n3 4\n", NTT_EFORMAT, 2, 2, "5.0");
    expect_course("two 17\n1 5\n3 4\n", NTT_EFORMAT, 1, 1, "n = two");
    expect_course("2 17\n1 5\n3 1e3\n", NTT_EFORMAT, 3, 2, "1e3");
}
static void io_number_above_2p64(void)
{
    expect_course("2 17\n1 18446744073709551616\n3 4\n", NTT_EFORMAT, 2, 2, "2^64");
    expect_course("2 17\n1 5\n3 99999999999999999999999999999999999999999999999999\n", NTT_EFORMAT, 3, 2, "50 digits");
    expect_course("18446744073709551616 17\n", NTT_EFORMAT, 1, 1, "n = 2^64");
}
static void io_leading_zeros(void)
{
    /* Leading zeros are still decimal numbers, whatever their length. */
    const uint64_t a[2] = {1, 5}, b[2] = {3, 4};
    expect_course_ok("2 17\n01 005\n3 0004\n", 2, 17, a, b, "a few leading zeros");
    expect_course_ok("2 17\n1 5\n3 0000000000000000000000000000000000000000000000000004\n", 2, 17, a, b,
                     "a 52-character numeral of value 4");
    const uint64_t v[2] = {7, 18446744073709551615ull};
    expect_coeffs("0000000000000000000000000000000000000000007 000018446744073709551615\n", NTT_OK, 0, 0, v, 2,
                  "leading zeros (43 characters)");
}
static void io_truncated(void)
{
    expect_course("3 17\n1 2 3\n4 5\n", NTT_EFORMAT, 0, 0, "5 of 6 coefficients");
    expect_course("3 17\n1 2\n", NTT_EFORMAT, 0, 0, "2 of 6 coefficients");
    expect_course("3 17\n", NTT_EFORMAT, 0, 0, "header only");
    expect_course("3", NTT_EFORMAT, 0, 0, "n only");
}
static void io_trailing_garbage(void)
{
    expect_course("2 17\n1 2\n3 4\n5\n", NTT_EFORMAT, 4, 1, "a 2n+1-th number");
    expect_course("2 17\n1 2\n3 4 junk\n", NTT_EFORMAT, 3, 3, "text after the coefficients");
    expect_course("2 17\r\n1 2\r\n3 4\r\n\r\nx", NTT_EFORMAT, 5, 1, "text after blank lines");
}
static void io_empty_file(void)
{
    expect_course("", NTT_EFORMAT, 0, 0, "empty file");
    expect_course(" \n\t\r\n\n", NTT_EFORMAT, 0, 0, "whitespace only");
}
static void io_null_arguments(void)
{
    ntt_course_input in;
    ntt_io_error err;
    CHECK_STATUS(NTT_EINVAL, ntt_course_read(NULL, &in, &err), "ntt_course_read(NULL path)");
    CHECK_STATUS(NTT_EINVAL, ntt_course_read("/nonexistent", NULL, &err), "ntt_course_read(NULL in)");
    uint64_t *c;
    size_t len;
    CHECK_STATUS(NTT_EINVAL, ntt_coeffs_read(NULL, &c, &len, &err), "ntt_coeffs_read(NULL path)");
    CHECK_STATUS(NTT_EINVAL, ntt_coeffs_read("/nonexistent", NULL, &len, &err), "ntt_coeffs_read(NULL c)");
    CHECK_STATUS(NTT_EINVAL, ntt_coeffs_read("/nonexistent", &c, NULL, &err), "ntt_coeffs_read(NULL len)");
    uint64_t v[2] = {1, 2};
    CHECK_STATUS(NTT_EINVAL, ntt_coeffs_write(NULL, v, 2, &err), "ntt_coeffs_write(NULL path)");
    CHECK_STATUS(NTT_EINVAL, ntt_coeffs_write("", v, 2, &err), "ntt_coeffs_write(\"\")");
    char path[700];
    snprintf(path, sizeof path, "%s/null_data.txt", tmpdir);
    CHECK_STATUS(NTT_EINVAL, ntt_coeffs_write(path, NULL, 2, &err), "ntt_coeffs_write(NULL data, len 2)");
    CHECK(access(path, F_OK) != 0, "ntt_coeffs_write(NULL data) created the file");
}

/* ---- coefficient files ---- */

static void expect_coeffs(const char *text, ntt_status want, size_t line, size_t token, const uint64_t *v, size_t n,
                          const char *what)
{
    const char *path = write_file(text, strlen(text));
    uint64_t *c = (uint64_t *)&want;
    size_t len = 12345;
    ntt_io_error err;
    ntt_status s = ntt_coeffs_read(path, &c, &len, &err);
    CHECK_STATUS(want, s, "ntt_coeffs_read(%s)", what);
    if (s == NTT_OK) {
        CHECK_EQ(n, len, "ntt_coeffs_read(%s): length", what);
        if (len == n && n) CHECK_ARR64(v, c, n, "ntt_coeffs_read(%s)", what);
        free(c);
    } else if (want != NTT_OK) {
        CHECK(c == NULL && len == 0, "ntt_coeffs_read(%s) failed but did not reset its outputs", what);
        if (line) CHECK_EQ(line, err.line, "ntt_coeffs_read(%s): err.line", what);
        if (token) CHECK_EQ(token, err.token, "ntt_coeffs_read(%s): err.token", what);
    }
    unlink(path);
}

static void io_coeffs_read_cases(void)
{
    const uint64_t v[4] = {0, 18446744073709551615ull, 7, 1};
    expect_coeffs("0 18446744073709551615 7 1\n", NTT_OK, 0, 0, v, 4, "valid");
    expect_coeffs("0\r\n18446744073709551615\t7 1 ", NTT_OK, 0, 0, v, 4, "valid, mixed whitespace");
    expect_coeffs("", NTT_OK, 0, 0, v, 0, "empty file");
    expect_coeffs("\n\n", NTT_OK, 0, 0, v, 0, "blank lines");
    expect_coeffs("1 2\n3 12x\n", NTT_EFORMAT, 2, 2, v, 0, "12x");
    expect_coeffs("1 -5\n", NTT_EFORMAT, 1, 2, v, 0, "-5");
    expect_coeffs("1 2 18446744073709551616\n", NTT_EFORMAT, 1, 3, v, 0, "2^64");
}

/* Files in dir whose name contains ".tmp.". */
static int count_tmp_files(const char *dir)
{
    DIR *d = opendir(dir);
    if (!d) return -1;
    int k = 0;
    struct dirent *e;
    while ((e = readdir(d)))
        if (strstr(e->d_name, ".tmp.")) k++;
    closedir(d);
    return k;
}

static void io_coeffs_write_roundtrip(void)
{
    char path[700];
    snprintf(path, sizeof path, "%s/out_roundtrip.txt", tmpdir);
    const size_t n = 1000;
    uint64_t *v = xmalloc(n * 8);
    for (size_t i = 0; i < n; i++) v[i] = i % 3 == 0 ? rnd64() : i % 3 == 1 ? rnd_below(10) : UINT64_MAX - i;
    v[0] = 0;
    ntt_io_error err;
    CHECK_STATUS(NTT_OK, ntt_coeffs_write(path, v, n, &err), "ntt_coeffs_write");
    uint64_t *c = NULL;
    size_t len = 0;
    CHECK_STATUS(NTT_OK, ntt_coeffs_read(path, &c, &len, &err), "ntt_coeffs_read of a written file");
    CHECK_EQ(n, len, "round trip length");
    if (c && len == n) CHECK_ARR64(v, c, n, "ntt_coeffs_write -> ntt_coeffs_read");
    free(c);
    /* zero length: a lone newline, read back as nothing */
    CHECK_STATUS(NTT_OK, ntt_coeffs_write(path, NULL, 0, &err), "ntt_coeffs_write(len 0)");
    c = NULL;
    len = 7;
    CHECK_STATUS(NTT_OK, ntt_coeffs_read(path, &c, &len, &err), "ntt_coeffs_read of an empty product");
    CHECK_EQ(0, len, "empty round trip length");
    free(c);
    CHECK_EQ(0, count_tmp_files(tmpdir), "temporary files left in %s", tmpdir);
    unlink(path);
    free(v);
}

static void io_coeffs_write_missing_dir(void)
{
    char path[700];
    snprintf(path, sizeof path, "%s/no/such/dir/out.txt", tmpdir);
    uint64_t v[3] = {1, 2, 3};
    ntt_io_error err;
    CHECK_STATUS(NTT_EIO, ntt_coeffs_write(path, v, 3, &err), "ntt_coeffs_write into a missing directory");
    CHECK(access(path, F_OK) != 0, "ntt_coeffs_write into a missing directory created the file");
}

/* A FIFO (or a device) is written in place: renaming a finished temporary
   file over it would remove it (as root, /dev/full or /dev/stdout). */
static void io_coeffs_write_fifo(void)
{
    char path[700];
    snprintf(path, sizeof path, "%s/fifo", tmpdir);
    if (mkfifo(path, 0600) != 0) {
        CHECK(0, "mkfifo(%s) failed", path);
        return;
    }
    /* A reader is open before the write, so that opening it does not block. */
    int fd = open(path, O_RDONLY | O_NONBLOCK);
    CHECK(fd >= 0, "opening the FIFO for reading");
    uint64_t v[3] = {1, 22, 333};
    ntt_io_error err;
    CHECK_STATUS(NTT_OK, ntt_coeffs_write(path, v, 3, &err), "ntt_coeffs_write to a FIFO");
    char buf[64] = {0};
    ssize_t got = fd >= 0 ? read(fd, buf, sizeof buf - 1) : -1;
    CHECK(got == 9 && strcmp(buf, "1 22 333\n") == 0, "the FIFO carried \"%s\"", buf);
    struct stat sb;
    CHECK(stat(path, &sb) == 0 && S_ISFIFO(sb.st_mode), "the FIFO was replaced");
    CHECK_EQ(0, count_tmp_files(tmpdir), "temporary files left in %s", tmpdir);
    if (fd >= 0) close(fd);
    unlink(path);
    /* A full device: NTT_EIO, the device still there. */
    if (stat("/dev/full", &sb) == 0 && S_ISCHR(sb.st_mode) && access("/dev/full", W_OK) == 0) {
        CHECK_STATUS(NTT_EIO, ntt_coeffs_write("/dev/full", v, 3, &err), "ntt_coeffs_write to /dev/full");
        CHECK(strstr(err.message, "cannot write") != NULL, "message: %s", err.message);
        CHECK(stat("/dev/full", &sb) == 0 && S_ISCHR(sb.st_mode), "/dev/full is no longer a device");
    }
}

/* A link stays a link (the file it names is replaced), a dangling one is
   written through, and a replaced file keeps its permission bits. */
static void io_coeffs_write_symlink(void)
{
    char dir[700], file[760], link[760], dangling[760], missing[760];
    snprintf(dir, sizeof dir, "%s/links", tmpdir);
    if (mkdir(dir, 0700) != 0) {
        CHECK(0, "mkdir(%s) failed", dir);
        return;
    }
    snprintf(file, sizeof file, "%s/file.txt", dir);
    snprintf(link, sizeof link, "%s/link.txt", dir);
    snprintf(dangling, sizeof dangling, "%s/dangling.txt", dir);
    snprintf(missing, sizeof missing, "%s/missing.txt", dir);
    uint64_t old[2] = {11, 22}, v[3] = {1, 22, 333};
    ntt_io_error err;
    CHECK_STATUS(NTT_OK, ntt_coeffs_write(file, old, 2, &err), "ntt_coeffs_write (old content)");
    CHECK(chmod(file, 0640) == 0, "chmod");
    /* relative targets are resolved from the link's directory */
    CHECK(symlink("file.txt", link) == 0 && symlink("missing.txt", dangling) == 0, "symlink");
    CHECK_STATUS(NTT_OK, ntt_coeffs_write(link, v, 3, &err), "ntt_coeffs_write through a link");
    struct stat sb;
    CHECK(lstat(link, &sb) == 0 && S_ISLNK(sb.st_mode), "the link was replaced by a file");
    CHECK(stat(file, &sb) == 0 && (sb.st_mode & 07777) == 0640, "mode %o, not 0640",
          (unsigned)(sb.st_mode & 07777));
    uint64_t *c = NULL;
    size_t len = 0;
    CHECK_STATUS(NTT_OK, ntt_coeffs_read(file, &c, &len, &err), "reading the linked file");
    CHECK(len == 3 && c && c[0] == 1 && c[1] == 22 && c[2] == 333, "the linked file's content");
    free(c);
    CHECK_STATUS(NTT_OK, ntt_coeffs_write(dangling, v, 3, &err), "ntt_coeffs_write to a dangling link");
    CHECK(lstat(dangling, &sb) == 0 && S_ISLNK(sb.st_mode), "the dangling link was replaced");
    c = NULL;
    CHECK_STATUS(NTT_OK, ntt_coeffs_read(missing, &c, &len, &err), "the file a dangling link names");
    CHECK(len == 3 && c && c[2] == 333, "the dangling link's file content");
    free(c);
    CHECK_EQ(0, count_tmp_files(dir), "temporary files left in %s", dir);
    unlink(link);
    unlink(dangling);
    unlink(missing);
    unlink(file);
    rmdir(dir);
}

static void io_coeffs_write_replaces_atomically(void)
{
    char dir[700], path[760];
    snprintf(dir, sizeof dir, "%s/atomic", tmpdir);
    if (mkdir(dir, 0700) != 0) {
        CHECK(0, "mkdir(%s) failed", dir);
        return;
    }
    snprintf(path, sizeof path, "%s/out.txt", dir);
    /* an old, short file */
    uint64_t old[2] = {11, 22};
    ntt_io_error err;
    CHECK_STATUS(NTT_OK, ntt_coeffs_write(path, old, 2, &err), "ntt_coeffs_write (old content)");
    /* replaced by a big one (several stdio buffers) */
    const size_t n = 300000;
    uint64_t *v = xmalloc(n * 8);
    for (size_t i = 0; i < n; i++) v[i] = rnd64();
    CHECK_STATUS(NTT_OK, ntt_coeffs_write(path, v, n, &err), "ntt_coeffs_write over an existing file");
    uint64_t *c = NULL;
    size_t len = 0;
    CHECK_STATUS(NTT_OK, ntt_coeffs_read(path, &c, &len, &err), "read back the replaced file");
    CHECK_EQ(n, len, "replaced file length");
    if (c && len == n) CHECK_ARR64(v, c, n, "replaced file content");
    free(c);
    CHECK_EQ(0, count_tmp_files(dir), "temporary files left after a successful write");

    /* failure 1: the target is a non-empty directory, so the final rename
       fails after the data was written; nothing may be left behind */
    char tdir[800], inner[860];
    snprintf(tdir, sizeof tdir, "%s/target_is_dir", dir);
    snprintf(inner, sizeof inner, "%s/keep", tdir);
    if (mkdir(tdir, 0700) == 0) {
        FILE *f = fopen(inner, "w");
        if (f) fclose(f);
        CHECK_STATUS(NTT_EIO, ntt_coeffs_write(tdir, v, 1000, &err), "ntt_coeffs_write onto a non-empty directory");
        struct stat st;
        CHECK(stat(inner, &st) == 0, "the directory written onto lost its content");
        CHECK_EQ(0, count_tmp_files(dir), "temporary files left after a failed write (rename failed)");
    } else {
        CHECK(0, "mkdir(%s) failed", tdir);
    }

    /* failure 2: an unwritable directory (meaningless for root) */
    if (geteuid() == 0) {
        printf("io_coeffs_write_replaces_atomically: running as root, skipping the unwritable-directory sub-case\n");
    } else {
        char ro[800], ropath[860];
        snprintf(ro, sizeof ro, "%s/readonly", dir);
        snprintf(ropath, sizeof ropath, "%s/out.txt", ro);
        if (mkdir(ro, 0700) == 0) {
            CHECK_STATUS(NTT_OK, ntt_coeffs_write(ropath, old, 2, &err), "write before chmod");
            chmod(ro, 0500);
            CHECK_STATUS(NTT_EIO, ntt_coeffs_write(ropath, v, n, &err), "ntt_coeffs_write into an unwritable directory");
            chmod(ro, 0700);
            uint64_t *r = NULL;
            size_t rl = 0;
            CHECK_STATUS(NTT_OK, ntt_coeffs_read(ropath, &r, &rl, &err), "read the old file after a failed replace");
            CHECK(rl == 2 && r && r[0] == 11 && r[1] == 22, "a failed replace changed the old file");
            free(r);
            CHECK_EQ(0, count_tmp_files(ro), "temporary files left after a failed write (unwritable directory)");
        }
    }
    free(v);
}

/* Untrusted bytes as messages show them (ntt_escape_bytes): exact texts at
   the bounds, and the readers' messages carrying every byte of a token. */
static void expect_escape(const char *bytes, size_t len, size_t cap, const char *want, size_t shown)
{
    char out[200];
    memset(out, 'Z', sizeof out);
    const size_t got = ntt_escape_bytes(out, cap, bytes, len);
    CHECK(strcmp(out, want) == 0, "ntt_escape_bytes(cap %zu): \"%s\", expected \"%s\"", cap, out, want);
    CHECK_EQ(shown, got, "ntt_escape_bytes(cap %zu, \"%s\"): bytes shown", cap, want);
    CHECK(out[cap] == 'Z', "ntt_escape_bytes(cap %zu) wrote past cap", cap);
}
static void io_escape_bytes(void)
{
    expect_escape("12x", 3, 44, "12x", 3);
    expect_escape("33\0" "7", 4, 44, "33\\x007", 4);
    expect_escape("\033]0;t\007", 6, 44, "\\x1b]0;t\\x07", 6);
    expect_escape("a\\\"'", 4, 44, "a\\\\\\\"\\'", 4);
    expect_escape("\x80\xff\x7f", 3, 44, "\\x80\\xff\\x7f", 3);
    expect_escape("", 0, 44, "", 0);
    /* A rendering of exactly cap - 1 characters is whole; one more is cut
       to leave room for "...". */
    expect_escape("abcdefg", 7, 8, "abcdefg", 7);
    expect_escape("abcdefgh", 8, 8, "abcd...", 4);
    expect_escape("\001\002\003", 3, 8, "\\x01...", 1);
    expect_escape("abcdef", 6, 3, "..", 0);
    expect_escape("abcdef", 6, 1, "", 0);
    char out[4] = "ZZZ";
    CHECK_EQ(0, ntt_escape_bytes(out, 0, "ab", 2), "ntt_escape_bytes(cap 0)");
    CHECK(out[0] == 'Z', "ntt_escape_bytes(cap 0) wrote");
    /* The readers show the bytes after a NUL, escaped, at most 40 bytes. */
    const char nul[] = "2 17\n1 33\0" "7\033c\n3 4\n";
    const char *path = write_file(nul, sizeof nul - 1);
    ntt_course_input in;
    ntt_io_error err;
    CHECK_STATUS(NTT_EFORMAT, ntt_course_read(path, &in, &err), "a NUL inside a token");
    CHECK(strstr(err.message, "\"33\\x007\\x1bc\"") != NULL, "NUL token: message %s", err.message);
    char longtok[200];
    memset(longtok, 'x', sizeof longtok);
    memcpy(longtok, "1 7\n", 4);
    longtok[sizeof longtok - 1] = '\n';
    path = write_file(longtok, sizeof longtok);
    CHECK_STATUS(NTT_EFORMAT, ntt_course_read(path, &in, &err), "a long token");
    CHECK(strstr(err.message, "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx...\"") != NULL &&
              strstr(err.message, "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx") == NULL,
          "long token: message %s", err.message);
}

/* The stream readers: the same results as the path readers, the stream
   left open. */
static void io_stream_read(void)
{
    static const char text[] = "2 17\n1 5\n3 4\n";
    FILE *f = fmemopen((void *)text, sizeof text - 1, "r");
    ntt_course_input in;
    ntt_io_error err;
    CHECK_STATUS(NTT_OK, ntt_course_fread(f, &in, &err), "ntt_course_fread");
    CHECK(in.n == 2 && in.p == 17 && in.a[1] == 5 && in.b[0] == 3, "ntt_course_fread: values");
    ntt_course_free(&in);
    CHECK(getc(f) == EOF && !ferror(f), "ntt_course_fread: stream not read to its end, or closed");
    fclose(f);
    static const char bad[] = "2 17\n1 5\n3 4 9\n";
    f = fmemopen((void *)bad, sizeof bad - 1, "r");
    CHECK_STATUS(NTT_EFORMAT, ntt_course_fread(f, &in, &err), "ntt_course_fread(trailing)");
    CHECK(err.line == 3 && err.token == 3 && all_zero(&in, sizeof in), "ntt_course_fread(trailing)");
    fclose(f);
    static const char list[] = "7 8 9";
    f = fmemopen((void *)list, sizeof list - 1, "r");
    uint64_t *c = NULL;
    size_t len = 0;
    CHECK_STATUS(NTT_OK, ntt_coeffs_fread(f, &c, &len, &err), "ntt_coeffs_fread");
    CHECK(len == 3 && c && c[0] == 7 && c[2] == 9, "ntt_coeffs_fread: values");
    free(c);
    fclose(f);
    CHECK_STATUS(NTT_EINVAL, ntt_course_fread(NULL, &in, &err), "ntt_course_fread(NULL)");
    CHECK_STATUS(NTT_EINVAL, ntt_coeffs_fread(NULL, &c, &len, &err), "ntt_coeffs_fread(NULL)");
}

/* ==== driver ==================================================================================== */

typedef struct {
    const char *name;
    void (*fn)(void);
} test_case;

#define T(f) {#f, f}
static const test_case cases[] = {
    T(plan_n0), T(plan_n1), T(plan_n3), T(plan_n_not_pow2), T(plan_n_too_large), T(plan_p0), T(plan_p1), T(plan_p2),
    T(plan_p4_composite), T(plan_u32_p_above_2p30), T(plan_u64_p_at_least_2p62), T(plan_cyclic_n_not_dividing),
    T(plan_negacyclic_2n_not_dividing), T(plan_bad_width), T(plan_bad_modmul), T(plan_bad_variant),
    T(plan_gpu_variant_on_cpu), T(plan_baseline_fast_modmul), T(plan_unknown_flags), T(plan_negative_threads),
    T(plan_bad_backend_value), T(plan_unavailable_backend), T(plan_null_out), T(plan_rns_bad),
    T(exec_null_data), T(exec_null_plan), T(exec_wrong_width), T(exec_stride_below_n),
    T(mod_null_pointers), T(mod_la_zero), T(mod_lb_zero), T(mod_p_out_of_range), T(mod_coefficient_equals_p),
    T(mod_coefficient_uint64_max), T(mod_coefficient_threaded_check), T(mod_c_aliases_a), T(mod_too_long), T(mod_bad_options), T(mod_unavailable_backend),
    T(io_valid_trailing_space_no_newline), T(io_valid_crlf), T(io_valid_tabs), T(io_n_zero), T(io_n_too_large),
    T(io_p_one), T(io_p_2p63), T(io_missing_file), T(io_coefficient_ge_p), T(io_negative), T(io_non_numeric),
    T(io_number_above_2p64), T(io_leading_zeros), T(io_truncated), T(io_trailing_garbage), T(io_empty_file), T(io_null_arguments),
    T(io_coeffs_read_cases), T(io_coeffs_write_roundtrip), T(io_coeffs_write_missing_dir), T(io_coeffs_write_fifo), T(io_coeffs_write_symlink),
    T(io_coeffs_write_replaces_atomically), T(io_escape_bytes), T(io_stream_read),
};

int main(void)
{
    test_init("test_badinput");
    make_tmpdir();
    for (size_t i = 0; i < COUNT(cases); i++) {
        unsigned long before = test_failures;
        cases[i].fn();
        if (test_failures != before) printf("  ^ in case %s\n", cases[i].name);
    }
    rm_rf(tmpdir);
    return test_finish();
}
