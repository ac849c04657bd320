/*
 * test_detail: ntt_error_detail() names the condition behind a status
 * (include/ntt.h): which modulus check failed, with the numbers; which
 * argument of plan creation; which backend and why; which coefficient is
 * out of range; ntt_polymul_mod's errors.  Also: "" before any failure,
 * cleared by the next plan creation, and each thread's own.
 */
#include "test_common.h"

#include <pthread.h>
#include <string.h>


/* The detail holds every fragment of `want` (a NULL-terminated list). */
static void expect_detail(ntt_status want, ntt_status got, const char *what,
                          const char *const *frags)
{
    CHECK_STATUS(want, got, "%s", what);
    const char *d = ntt_error_detail();
    CHECK(d != NULL, "%s: ntt_error_detail() is NULL", what);
    if (!d) return;
    CHECK(strlen(d) < 256, "%s: detail longer than 255 bytes", what);
    for (size_t i = 0; frags[i]; i++)
        CHECK(strstr(d, frags[i]) != NULL, "%s: detail \"%s\" lacks \"%s\"", what, d, frags[i]);
}
#define EXPECT(want, got, what, ...) \
    expect_detail(want, got, what, (const char *const[]){__VA_ARGS__, NULL})

static ntt_status create(size_t n, uint64_t p, ntt_width w, ntt_backend b, unsigned flags)
{
    ntt_plan *plan = NULL;
    ntt_plan_options o = {.flags = flags};
    ntt_status s = ntt_plan_create(&plan, n, p, w, b, &o);
    ntt_plan_destroy(plan);
    return s;
}

static void *other_thread(void *arg)
{
    (void)arg;
    /* A new thread has had no failure. */
    return (void *)(uintptr_t)(ntt_error_detail()[0] == '\0');
}

static void test_modulus(void)
{
    EXPECT(NTT_EMODULUS, create(16, 100, NTT_U64, NTT_BACKEND_SCALAR, 0), "p = 100",
           "modulus 100 is not prime");
    EXPECT(NTT_EMODULUS, create(16, 2013265921, NTT_U32, NTT_BACKEND_SCALAR, 0),
           "p above 2^30 in a u32 plan", "2013265921", "out of range", "u32", "2^30");
    EXPECT(NTT_EMODULUS, create(16, (1ull << 62) + 1, NTT_U64, NTT_BACKEND_SCALAR, 0),
           "p above 2^62", "4611686018427387905", "out of range", "2^62");
    /* 7681 - 1 = 2^9 * 15: n = 512 cyclic works, negacyclic needs 1024. */
    CHECK_STATUS(NTT_OK, create(512, 7681, NTT_U32, NTT_BACKEND_SCALAR, 0), "7681, n = 512");
    EXPECT(NTT_EMODULUS, create(512, 7681, NTT_U32, NTT_BACKEND_SCALAR, NTT_FLAG_NEGACYCLIC),
           "7681 negacyclic n = 512", "modulus 7681 has no root of unity of order 1024",
           "negacyclic", "2n | p-1", "2^9");
    EXPECT(NTT_EMODULUS, create(1024, 7681, NTT_U32, NTT_BACKEND_SCALAR, 0),
           "7681 cyclic n = 1024", "order 1024", "cyclic plan of size n = 1024");
}

static void test_arguments(void)
{
    EXPECT(NTT_EINVAL, create(12, 7681, NTT_U32, NTT_BACKEND_SCALAR, 0), "n = 12", "n = 12",
           "power of two");
    EXPECT(NTT_EINVAL, create(16, 7681, (ntt_width)7, NTT_BACKEND_SCALAR, 0), "width 7",
           "width 7");
    EXPECT(NTT_EINVAL, create(16, 7681, NTT_U32, (ntt_backend)99, 0), "backend 99",
           "backend 99");
    EXPECT(NTT_EINVAL, create(16, 7681, NTT_U32, NTT_BACKEND_SCALAR, 0x100), "flags 0x100",
           "flags 0x100");
    ntt_plan *plan = NULL;
    ntt_plan_options o = {.threads = -1};
    EXPECT(NTT_EINVAL, ntt_plan_create(&plan, 16, 7681, NTT_U32, NTT_BACKEND_SCALAR, &o),
           "threads -1", "threads -1");
    EXPECT(NTT_EINVAL, ntt_plan_create(NULL, 16, 7681, NTT_U32, NTT_BACKEND_SCALAR, NULL),
           "NULL plan pointer", "plan pointer is NULL");
    /* A success clears what an earlier creation left. */
    CHECK_STATUS(NTT_OK, create(16, 7681, NTT_U32, NTT_BACKEND_SCALAR, 0), "good plan");
    CHECK(ntt_error_detail()[0] == '\0', "detail after a successful creation: \"%s\"",
          ntt_error_detail());
}

static void test_backends(void)
{
    for (int b = 1; b < NTT_BACKEND_COUNT; b++) {
        if (ntt_backend_available((ntt_backend)b)) continue;
        char what[64];
        snprintf(what, sizeof what, "backend %s", ntt_backend_name((ntt_backend)b));
        char quoted[32];
        snprintf(quoted, sizeof quoted, "\"%s\"", ntt_backend_name((ntt_backend)b));
        EXPECT(NTT_EUNSUPPORTED, create(16, 7681, NTT_U32, (ntt_backend)b, 0), what, quoted);
        const uint64_t a[16] = {1}, bb[16] = {2};
        uint64_t c[31];
        EXPECT(NTT_EUNSUPPORTED, ntt_polymul_mod(c, a, 16, bb, 16, 7681, (ntt_backend)b), what,
               quoted);
    }
}

static void test_execution(void)
{
    ntt_plan *plan = NULL;
    CHECK_STATUS(NTT_OK, ntt_plan_create(&plan, 16, 7681, NTT_U32, NTT_BACKEND_SCALAR, NULL),
                 "plan");
    if (!plan) return;
    uint32_t x[32] = {0}, y[32] = {0}, z[32];
    x[5] = 7681;
    EXPECT(NTT_ERANGE, ntt_forward_u32(plan, x), "forward, x[5] = p",
           "a[5] = 7681 is not below the modulus 7681");
    x[5] = 0;
    y[16 + 3] = 9000;
    EXPECT(NTT_ERANGE, ntt_polymul_batch_u32(plan, z, x, y, 2, 16), "polymul batch, b[19]",
           "b[19]", "item 1, coefficient 3", "9000");
    EXPECT(NTT_ERANGE, ntt_pointwise_batch_u32(plan, z, x, y, 2, 16), "pointwise batch",
           "b[19]", "9000");
    EXPECT(NTT_EINVAL, ntt_forward_batch_u32(plan, x, 2, 8), "stride 8", "stride 8",
           "n = 16");
    uint64_t w[16] = {0};
    EXPECT(NTT_EINVAL, ntt_forward_u64(plan, w), "u64 call, u32 plan", "u64 call on a u32 plan");
    EXPECT(NTT_EINVAL, ntt_polymul_linear_u32(plan, z, x, 10, y, 10), "linear 10 + 10",
           "la = 10", "lb = 10");
    ntt_plan_destroy(plan);
}

static void test_polymul_mod(void)
{
    const uint64_t a[4] = {4, 1, 5, 2}, b[4] = {1, 5, 100, 4};
    uint64_t c[7];
    EXPECT(NTT_ERANGE, ntt_polymul_mod(c, a, 4, b, 4, 97, NTT_BACKEND_SCALAR), "b[2] = 100",
           "b[2] = 100 is not below the modulus 97");
    /* Long enough for a transform rather than schoolbook. */
    static uint64_t la[64], lb[64], lc[127];
    la[40] = 7340033;
    EXPECT(NTT_ERANGE, ntt_polymul_mod(lc, la, 64, lb, 64, 7340033, NTT_BACKEND_AUTO),
           "a[40] = p, direct", "a[40] = 7340033");
    la[40] = 0;
    EXPECT(NTT_EINVAL, ntt_polymul_mod(c, a, 4, b, 4, 1, NTT_BACKEND_SCALAR), "p = 1",
           "modulus 1 is not in [2, 2^63)");
    EXPECT(NTT_EINVAL, ntt_polymul_mod(c, a, 0, b, 4, 97, NTT_BACKEND_SCALAR), "la = 0",
           "la = 0");
    EXPECT(NTT_EINVAL, ntt_polymul_mod(c, a, 4, b, NTT_POLYMUL_MAX_LEN, 97, NTT_BACKEND_SCALAR),
           "too long", "exceeds 2^30");
    CHECK_STATUS(NTT_OK, ntt_polymul_mod(lc, la, 64, lb, 64, 7340033, NTT_BACKEND_SCALAR),
                 "a good product");
    CHECK(ntt_error_detail()[0] == '\0', "detail after a good product: \"%s\"",
          ntt_error_detail());
}

int main(void)
{
    test_init("test_detail");
    CHECK(ntt_error_detail() != NULL && ntt_error_detail()[0] == '\0',
          "the detail before any failure is \"\"");
    test_modulus();
    test_arguments();
    test_backends();
    test_execution();
    test_polymul_mod();
    /* The thread-local text: the failures above are this thread's alone. */
    CHECK_STATUS(NTT_EMODULUS, create(16, 100, NTT_U64, NTT_BACKEND_SCALAR, 0), "p = 100");
    pthread_t t;
    void *clean = NULL;
    CHECK(pthread_create(&t, NULL, other_thread, NULL) == 0, "pthread_create");
    CHECK(pthread_join(t, &clean) == 0 && clean, "a new thread's detail is \"\"");
    CHECK(strstr(ntt_error_detail(), "not prime") != NULL, "this thread keeps its detail");
    return test_finish();
}
