/*
 * test_course: the course ladder as an add-on (src/course), linked against
 * the shared libntt as the ntt command links it.  The CPU baseline gives
 * the same spectra and products as the fast path of the scalar backend, bit
 * for bit (transforms, both orders, cyclic and negacyclic, batches over two
 * moduli, pointwise, products, ntt_polymul_mod over a direct prime and
 * through CRT primes); the variant names round-trip; the errors are the
 * library's (NTT_EINVAL for bad variants and block sizes, NTT_EUNSUPPORTED
 * for a kind or backend the variant does not offer, NTT_ERANGE before it);
 * an add-on plan refuses the device-pointer calls.
 */
#include "test_common.h"

#include <stdlib.h>
#include <string.h>

static const uint64_t P32[2] = {469762049, 7340033};            /* < 2^30 */
static const uint64_t P64[2] = {4611685941117976577ull, 998244353}; /* u64 plans */

static ntt_status make(ntt_plan **pl, ntt_variant v, size_t n, const uint64_t *q, size_t nq,
                       ntt_width w, ntt_backend b, unsigned flags, ntt_modmul mm)
{
    ntt_plan_options o = {0};
    o.flags = flags;
    o.modmul = mm;
    const ntt_variant_options vo = {v, 0};
    return ntt_plan_create_variant(pl, n, q, nq, w, b, &o, &vo);
}

/* Runs op on u32 or u64 arrays by the plan's width. */
static ntt_status run(ntt_plan *pl, int op, void *c, void *a, void *b, size_t count, size_t n)
{
    if (ntt_plan_width(pl) == NTT_U32) {
        switch (op) {
        case 0: return ntt_forward_batch_u32(pl, a, count, n);
        case 1: return ntt_inverse_batch_u32(pl, a, count, n);
        case 2: return ntt_pointwise_batch_u32(pl, c, a, b, count, n);
        default: return ntt_polymul_batch_u32(pl, c, a, b, count, n);
        }
    }
    switch (op) {
    case 0: return ntt_forward_batch_u64(pl, a, count, n);
    case 1: return ntt_inverse_batch_u64(pl, a, count, n);
    case 2: return ntt_pointwise_batch_u64(pl, c, a, b, count, n);
    default: return ntt_polymul_batch_u64(pl, c, a, b, count, n);
    }
}

static const char *const OPS[4] = {"forward", "inverse", "pointwise", "polymul"};

/* Baseline against the scalar fast path, every operation, bit for bit. */
static void baseline_matches_fast(void)
{
    for (int wi = 0; wi < 2; wi++)
        for (unsigned flags = 0; flags < 4; flags++)
            for (unsigned lg = 1; lg <= 11; lg += 5) {
                const size_t n = (size_t)1 << lg, count = 3;
                const ntt_width w = wi ? NTT_U64 : NTT_U32;
                const uint64_t *q = wi ? P64 : P32;
                const size_t e = wi ? 8 : 4;
                ntt_plan *fast = NULL, *base = NULL;
                ntt_status s1 = make(&fast, NTT_VARIANT_FAST, n, q, 2, w, NTT_BACKEND_SCALAR, flags,
                                     NTT_MODMUL_DEFAULT);
                ntt_status s2 = make(&base, NTT_VARIANT_BASELINE, n, q, 2, w, NTT_BACKEND_SCALAR,
                                     flags, NTT_MODMUL_DEFAULT);
                CHECK_STATUS(NTT_OK, s1, "fast plan n=%zu u%d flags %u", n, wi ? 64 : 32, flags);
                CHECK_STATUS(NTT_OK, s2, "baseline plan n=%zu u%d flags %u", n, wi ? 64 : 32, flags);
                if (s1 != NTT_OK || s2 != NTT_OK) {
                    ntt_plan_destroy(fast);
                    ntt_plan_destroy(base);
                    continue;
                }
                CHECK_EQ(NTT_VARIANT_BASELINE, ntt_plan_variant(base), "ntt_plan_variant");
                CHECK_EQ(NTT_VARIANT_FAST, ntt_plan_variant(fast), "ntt_plan_variant");
                CHECK_EQ(NTT_MODMUL_NAIVE, ntt_plan_modmul(base), "baseline's kind");
                CHECK_EQ(NTT_BACKEND_SCALAR, ntt_plan_backend(base), "baseline's backend");
                uint64_t *a = xmalloc(4 * count * n * 8), *b = a + count * n;
                uint64_t *c1 = b + count * n, *c2 = c1 + count * n;
                for (int op = 0; op < 4; op++) {
                    for (size_t it = 0; it < count; it++) {
                        const uint64_t p = q[it % 2];
                        for (size_t j = 0; j < n; j++) {
                            const uint64_t x = rnd_below(p), y = rnd_below(p);
                            if (e == 4) {
                                ((uint32_t *)a)[it * n + j] = (uint32_t)x;
                                ((uint32_t *)b)[it * n + j] = (uint32_t)y;
                            } else {
                                a[it * n + j] = x;
                                b[it * n + j] = y;
                            }
                        }
                    }
                    /* Transforms work in place: c1, c2 start as copies of a. */
                    memcpy(c1, a, count * n * e);
                    memcpy(c2, a, count * n * e);
                    void *x1 = op < 2 ? c1 : a, *x2 = op < 2 ? c2 : a;
                    s1 = run(fast, op, c1, x1, b, count, n);
                    s2 = run(base, op, c2, x2, b, count, n);
                    CHECK_STATUS(NTT_OK, s1, "fast %s", OPS[op]);
                    CHECK_STATUS(NTT_OK, s2, "baseline %s", OPS[op]);
                    CHECK_MEM(c1, c2, count * n * e, "baseline %s n=%zu u%d flags %u", OPS[op], n,
                              wi ? 64 : 32, flags);
                }
                free(a);
                ntt_plan_destroy(fast);
                ntt_plan_destroy(base);
            }
}

/* ntt_polymul_mod through the baseline: a direct NTT prime (u32 and u64
   plans), a prime that is not NTT-friendly (CRT), schoolbook sizes. */
static void polymul_mod_matches(void)
{
    static const uint64_t ps[] = {7340033, 469762049, 4611685941117976577ull, 1000000007,
                                  (1ull << 61) - 1};
    static const size_t lens[][2] = {{1, 1}, {5, 9}, {100, 37}, {1000, 1000}};
    for (size_t pi = 0; pi < sizeof ps / sizeof ps[0]; pi++)
        for (size_t li = 0; li < sizeof lens / sizeof lens[0]; li++) {
            const size_t la = lens[li][0], lb = lens[li][1], lc = la + lb - 1;
            uint64_t *a = xmalloc((la + lb + 2 * lc) * 8), *b = a + la, *c1 = b + lb, *c2 = c1 + lc;
            rnd_fill64(a, la, ps[pi]);
            rnd_fill64(b, lb, ps[pi]);
            ntt_status s1 = ntt_polymul_mod(c1, a, la, b, lb, ps[pi], NTT_BACKEND_SCALAR);
            ntt_status s2 = ntt_polymul_mod_variant(c2, a, la, b, lb, ps[pi], NTT_BACKEND_AUTO, NULL,
                                                    NTT_VARIANT_BASELINE);
            CHECK_STATUS(NTT_OK, s1, "fast polymul_mod p=%llu", (unsigned long long)ps[pi]);
            CHECK_STATUS(NTT_OK, s2, "baseline polymul_mod p=%llu", (unsigned long long)ps[pi]);
            CHECK_ARR64(c1, c2, lc, "baseline polymul_mod p=%llu la=%zu lb=%zu",
                        (unsigned long long)ps[pi], la, lb);
            s2 = ntt_polymul_mod_variant(c2, a, la, b, lb, ps[pi], NTT_BACKEND_SCALAR, NULL,
                                         NTT_VARIANT_FAST);
            CHECK_STATUS(NTT_OK, s2, "fast through the course");
            CHECK_ARR64(c1, c2, lc, "fast through the course p=%llu", (unsigned long long)ps[pi]);
            free(a);
        }
}

static void names(void)
{
    static const char *const vn[NTT_VARIANT_COUNT] = {"fast", "baseline", "gpu-table",
                                                      "gpu-async", "gpu-shared"};
    for (int i = 0; i < NTT_VARIANT_COUNT; i++) {
        CHECK(strcmp(ntt_variant_name((ntt_variant)i), vn[i]) == 0, "ntt_variant_name(%d)", i);
        ntt_variant v = (ntt_variant)77;
        CHECK_STATUS(NTT_OK, ntt_variant_from_name(vn[i], &v), "from_name(%s)", vn[i]);
        CHECK_EQ(i, v, "from_name(%s)", vn[i]);
    }
    ntt_variant v = NTT_VARIANT_GPU_ASYNC;
    CHECK_STATUS(NTT_OK, ntt_variant_from_name("GPU-Shared", &v), "case-insensitive");
    CHECK_EQ(NTT_VARIANT_GPU_SHARED, v, "case-insensitive");
    CHECK_STATUS(NTT_EINVAL, ntt_variant_from_name("warp", &v), "unknown name");
    CHECK_EQ(NTT_VARIANT_GPU_SHARED, v, "untouched on failure");
    CHECK_STATUS(NTT_EINVAL, ntt_variant_from_name(NULL, &v), "NULL name");
    CHECK_STATUS(NTT_EINVAL, ntt_variant_from_name("fast", NULL), "NULL out");
    CHECK(strcmp(ntt_variant_name((ntt_variant)99), "unknown") == 0, "name of 99");
    CHECK_EQ(NTT_VARIANT_FAST, ntt_plan_variant(NULL), "variant of NULL");
}

static void errors(void)
{
    ntt_plan *pl = (ntt_plan *)&pl;
    ntt_plan_options o = {0};
    ntt_variant_options vo = {(ntt_variant)99, 0};
    CHECK_STATUS(NTT_EINVAL, ntt_plan_create_variant(&pl, 16, P32, 1, NTT_U32, NTT_BACKEND_SCALAR, &o, &vo),
                 "variant 99");
    CHECK(pl == NULL, "plan NULL on failure");
    static const int blocks[] = {16, 48, 2048, -128};
    for (size_t i = 0; i < sizeof blocks / sizeof blocks[0]; i++) {
        vo = (ntt_variant_options){NTT_VARIANT_GPU_SHARED, blocks[i]};
        CHECK_STATUS(NTT_EINVAL,
                     ntt_plan_create_variant(&pl, 16, P32, 1, NTT_U32, NTT_BACKEND_CUDA, &o, &vo),
                     "block %d", blocks[i]);
    }
    for (int m = NTT_MODMUL_BARRETT; m <= NTT_MODMUL_SHOUP; m++) {
        o.modmul = (ntt_modmul)m;
        vo = (ntt_variant_options){NTT_VARIANT_BASELINE, 0};
        CHECK_STATUS(NTT_EUNSUPPORTED,
                     ntt_plan_create_variant(&pl, 16, P32, 1, NTT_U32, NTT_BACKEND_SCALAR, &o, &vo),
                     "baseline with %s", ntt_modmul_name(o.modmul));
    }
    o.modmul = NTT_MODMUL_DEFAULT;
    for (int v = NTT_VARIANT_GPU_TABLE; v <= NTT_VARIANT_GPU_SHARED; v++) {
        vo = (ntt_variant_options){(ntt_variant)v, 0};
        CHECK_STATUS(NTT_EUNSUPPORTED,
                     ntt_plan_create_variant(&pl, 16, P32, 1, NTT_U32, NTT_BACKEND_SCALAR, &o, &vo),
                     "%s on the CPU", ntt_variant_name((ntt_variant)v));
    }
    vo = (ntt_variant_options){NTT_VARIANT_BASELINE, 0};
    static const uint64_t bad = 7340035; /* not prime */
    CHECK_STATUS(NTT_EMODULUS,
                 ntt_plan_create_variant(&pl, 16, &bad, 1, NTT_U32, NTT_BACKEND_SCALAR, &o, &vo),
                 "baseline, modulus not prime");
    CHECK_STATUS(NTT_EINVAL,
                 ntt_plan_create_variant(&pl, 12, P32, 1, NTT_U32, NTT_BACKEND_SCALAR, &o, &vo),
                 "baseline, n not a power of two");

    uint64_t a[20], b[20], c[39];
    for (int i = 0; i < 20; i++) a[i] = b[i] = (uint64_t)i;
    o.modmul = NTT_MODMUL_SHOUP;
    CHECK_STATUS(NTT_EUNSUPPORTED,
                 ntt_polymul_mod_variant(c, a, 20, b, 20, 7340033, NTT_BACKEND_SCALAR, &o,
                                         NTT_VARIANT_BASELINE),
                 "polymul_mod baseline with shoup");
    a[3] = 7340033;
    CHECK_STATUS(NTT_ERANGE,
                 ntt_polymul_mod_variant(c, a, 20, b, 20, 7340033, NTT_BACKEND_SCALAR, &o,
                                         NTT_VARIANT_BASELINE),
                 "range before support");
    a[3] = 3;
    CHECK_STATUS(NTT_EINVAL,
                 ntt_polymul_mod_variant(c, a, 20, b, 20, 7340033, NTT_BACKEND_SCALAR, NULL,
                                         (ntt_variant)99),
                 "polymul_mod variant 99");
    CHECK_STATUS(NTT_EUNSUPPORTED,
                 ntt_polymul_mod_variant(c, a, 20, b, 20, 7340033, NTT_BACKEND_SCALAR, NULL,
                                         NTT_VARIANT_GPU_ASYNC),
                 "polymul_mod gpu-async on the CPU");

    /* An add-on plan has no device-pointer calls. */
    o.modmul = NTT_MODMUL_DEFAULT;
    CHECK_STATUS(NTT_OK, ntt_plan_create_variant(&pl, 16, P32, 1, NTT_U32, NTT_BACKEND_SCALAR, &o, &vo),
                 "baseline plan");
    if (pl) {
        uint32_t x[16] = {0};
        CHECK_STATUS(NTT_EUNSUPPORTED, ntt_cuda_forward_u32(pl, x, 1, 16, NULL),
                     "device call on an add-on plan");
        uint32_t y[16];
        for (int i = 0; i < 16; i++) y[i] = i == 5 ? (uint32_t)P32[0] : (uint32_t)i;
        CHECK_STATUS(NTT_ERANGE, ntt_forward_u32(pl, y), "input out of range");
        CHECK_STATUS(NTT_EINVAL, ntt_forward_u64(pl, (uint64_t *)y), "width mismatch");
        ntt_plan_destroy(pl);
    }
}

int main(void)
{
    test_init("test_course");
    names();
    errors();
    baseline_matches_fast();
    polymul_mod_matches();
    return test_finish();
}
