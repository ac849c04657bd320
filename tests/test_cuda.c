/* The CUDA backend against the scalar one, bit for bit: every power of two
   2^1 .. 2^24 (NTT_TEST_MAX_LOG lowers the top, for compute-sanitizer runs)
   and u32 2^25 and 2^26, both widths, cyclic and negacyclic, natural and
   bit-reversed spectra, every modmul kind of the fast path and every ladder
   kernel, batches and RNS plans, the host-pointer and the device-pointer
   calls, ntt_polymul_mod on the GPU (CRT included); and the errors: bad
   sizes, device memory exhausted, wrong plans.  NTT_TEST_PART (main) runs
   one part of it.  NTT_TEST_CUDA_<SWITCH> sets the CUDA tuning switches
   (src/core/cuda_tuning_env.h: COMPACT_LOG, RHO, BOTTOM, ...) for the whole
   run, so that small sizes reach the kernels of large ones.  Exits 77
   without a usable GPU. */
#include "cuda_tuning_env.h"
#include "test_common.h"

#include <cuda_runtime_api.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    ntt_variant v;
    ntt_modmul m;
} config;

static const config CONFIGS[] = {
    {NTT_VARIANT_FAST, NTT_MODMUL_DEFAULT},      {NTT_VARIANT_FAST, NTT_MODMUL_NAIVE},
    {NTT_VARIANT_FAST, NTT_MODMUL_BARRETT},      {NTT_VARIANT_FAST, NTT_MODMUL_MONTGOMERY},
    {NTT_VARIANT_FAST, NTT_MODMUL_SHOUP},        {NTT_VARIANT_BASELINE, NTT_MODMUL_NAIVE},
    {NTT_VARIANT_BASELINE, NTT_MODMUL_BARRETT},  {NTT_VARIANT_BASELINE, NTT_MODMUL_MONTGOMERY},
    {NTT_VARIANT_GPU_TABLE, NTT_MODMUL_NAIVE},   {NTT_VARIANT_GPU_TABLE, NTT_MODMUL_MONTGOMERY},
    {NTT_VARIANT_GPU_ASYNC, NTT_MODMUL_BARRETT}, {NTT_VARIANT_GPU_ASYNC, NTT_MODMUL_SHOUP},
    {NTT_VARIANT_GPU_SHARED, NTT_MODMUL_NAIVE},  {NTT_VARIANT_GPU_SHARED, NTT_MODMUL_BARRETT},
    {NTT_VARIANT_GPU_SHARED, NTT_MODMUL_MONTGOMERY}, {NTT_VARIANT_GPU_SHARED, NTT_MODMUL_SHOUP},
};
#define NCONFIGS (sizeof CONFIGS / sizeof CONFIGS[0])

static int max_log = 24;

/* Primes with 2^26 | p-1 (u32: cyclic sizes to 2^26, negacyclic to 2^25)
   and 2^32 | p-1 (u64): every size and both flags up to 2^24. */
static const uint64_t P32 = 469762049, P64 = 4611685941117976577ull;
/* A u32 prime above 2^29 (45 2^24 + 1: cyclic sizes to 2^24, negacyclic to
   2^23), for which the fast path keeps the narrower ranges (plan_cap). */
static const uint64_t P32_WIDE = 754974721;
/* The largest prime below 2^50 with 2^25 | p-1: the u64 Shoup kind's FP64
   kernels (every prime below 2^50), at the top of their ranges. */
static const uint64_t P64_FP = 1125899437080577ull;

static size_t esz(ntt_width w) { return w == NTT_U32 ? 4 : 8; }

static void fill(void *a, size_t n, ntt_width w, uint64_t p)
{
    if (w == NTT_U32)
        rnd_fill32(a, n, (uint32_t)p);
    else
        rnd_fill64(a, n, p);
}

static bool same(const void *e, const void *g, size_t n, ntt_width w, const char *ctx)
{
    return w == NTT_U32 ? CHECK_ARR32(e, g, n, "%s", ctx) : CHECK_ARR64(e, g, n, "%s", ctx);
}

typedef ntt_status (*xform_fn)(ntt_plan *, void *);
static ntt_status fwd(ntt_plan *p, void *a)
{
    return ntt_plan_width(p) == NTT_U32 ? ntt_forward_u32(p, a) : ntt_forward_u64(p, a);
}
static ntt_status inv(ntt_plan *p, void *a)
{
    return ntt_plan_width(p) == NTT_U32 ? ntt_inverse_u32(p, a) : ntt_inverse_u64(p, a);
}
static ntt_status pmul(ntt_plan *p, void *c, const void *a, const void *b)
{
    return ntt_plan_width(p) == NTT_U32 ? ntt_polymul_u32(p, c, a, b) : ntt_polymul_u64(p, c, a, b);
}
static ntt_status lmul(ntt_plan *p, void *c, const void *a, size_t la, const void *b, size_t lb)
{
    return ntt_plan_width(p) == NTT_U32 ? ntt_polymul_linear_u32(p, c, a, la, b, lb)
                                        : ntt_polymul_linear_u64(p, c, a, la, b, lb);
}

static bool cuda_ok(cudaError_t e, const char *what)
{
    CHECK(e == cudaSuccess, "%s: %s", what, cudaGetErrorString(e));
    return e == cudaSuccess;
}

/* Inputs and scalar results for one (width, size, flags), shared by every
   configuration tested on them. */
typedef struct {
    ntt_width w;
    uint64_t p;
    size_t n, la, lb;
    unsigned flags;
    void *a, *b, *fwd, *prod, *lin;
} reference;

static void ref_make(reference *r, ntt_width w, uint64_t p, size_t n, unsigned flags)
{
    const size_t e = esz(w);
    memset(r, 0, sizeof *r);
    r->w = w;
    r->p = p;
    r->n = n;
    r->flags = flags;
    r->a = xmalloc(n * e);
    r->b = xmalloc(n * e);
    r->fwd = xmalloc(n * e);
    r->prod = xmalloc(n * e);
    r->lin = xmalloc(n * e);
    fill(r->a, n, w, p);
    fill(r->b, n, w, p);
    r->la = n >= 4 ? 1 + rnd_below(n / 2) : 1;
    r->lb = n >= 4 ? n / 2 - rnd_below(n / 4) : 1;
    test_opts o = {.flags = flags};
    ntt_plan *ps = NULL;
    CHECK_STATUS(NTT_OK, test_plan_create(&ps, n, p, w, NTT_BACKEND_SCALAR, &o), "scalar plan");
    if (!ps) return;
    memcpy(r->fwd, r->a, n * e);
    CHECK_STATUS(NTT_OK, fwd(ps, r->fwd), "scalar forward");
    CHECK_STATUS(NTT_OK, pmul(ps, r->prod, r->a, r->b), "scalar polymul");
    CHECK_STATUS(NTT_OK, lmul(ps, r->lin, r->a, r->la, r->b, r->lb), "scalar linear");
    ntt_plan_destroy(ps);
}

static void ref_free(reference *r)
{
    free(r->a);
    free(r->b);
    free(r->fwd);
    free(r->prod);
    free(r->lin);
}

/* Forward, inverse and products through the host-pointer calls of a CUDA
   plan with configuration c, against the scalar results. */
static void host_calls(const reference *r, config c)
{
    const ntt_width w = r->w;
    const size_t n = r->n, e = esz(w);
    const uint64_t p = r->p;
    char ctx[160];
    snprintf(ctx, sizeof ctx, "u%d p=%llu n=%zu flags=%u %s/%s", (int)w, (unsigned long long)p, n,
             r->flags, ntt_variant_name(c.v), ntt_modmul_name(c.m));
    test_opts go = {.flags = r->flags, .variant = c.v, .modmul = c.m};
    ntt_plan *pg = NULL;
    CHECK_STATUS(NTT_OK, test_plan_create(&pg, n, p, w, NTT_BACKEND_CUDA, &go), "%s cuda", ctx);
    if (!pg) return;
    unsigned char *g = xmalloc(n * e);
    memcpy(g, r->a, n * e);
    CHECK_STATUS(NTT_OK, fwd(pg, g), "%s forward", ctx);
    same(r->fwd, g, n, w, ctx);
    CHECK_STATUS(NTT_OK, inv(pg, g), "%s inverse", ctx);
    same(r->a, g, n, w, ctx); /* round trip */
    CHECK_STATUS(NTT_OK, pmul(pg, g, r->a, r->b), "%s polymul", ctx);
    same(r->prod, g, n, w, ctx);
    if (n >= 4) { /* a linear product with unequal lengths */
        memset(g, 0xA5, n * e);
        CHECK_STATUS(NTT_OK, lmul(pg, g, r->a, r->la, r->b, r->lb), "%s linear %zu x %zu", ctx,
                     r->la, r->lb);
        same(r->lin, g, r->la + r->lb - 1, w, ctx);
    }
    free(g);
    ntt_plan_destroy(pg);
}

/* The host-pointer batched calls of an RNS CUDA plan, which stage `batch`
   items at a time: every chunk's items keep their own moduli (item i,
   modulus i % nm), also where a chunk starts at an item whose modulus is
   not the first.  Against the scalar plans ps[i % nm], item by item. */
static void host_batches(ntt_plan *pg, ntt_plan *const *ps, size_t nm, const unsigned char *a,
                         const unsigned char *b, size_t count, size_t stride, const char *ctx)
{
    const ntt_width w = ntt_plan_width(pg);
    const size_t n = ntt_plan_size(pg), e = esz(w), total = (count - 1) * stride + n;
    unsigned char *g = xmalloc(total * e), *r = xmalloc(n * e), *q = xmalloc(n * e);
    memcpy(g, a, total * e);
    CHECK_STATUS(NTT_OK,
                 w == NTT_U32 ? ntt_forward_batch_u32(pg, (uint32_t *)g, count, stride)
                              : ntt_forward_batch_u64(pg, (uint64_t *)g, count, stride),
                 "%s host forward batch", ctx);
    for (size_t it = 0; it < count; it++) {
        memcpy(r, a + it * stride * e, n * e);
        CHECK_STATUS(NTT_OK, fwd(ps[it % nm], r), "%s", ctx);
        same(r, g + it * stride * e, n, w, ctx);
    }
    CHECK_STATUS(NTT_OK,
                 w == NTT_U32 ? ntt_inverse_batch_u32(pg, (uint32_t *)g, count, stride)
                              : ntt_inverse_batch_u64(pg, (uint64_t *)g, count, stride),
                 "%s host inverse batch", ctx);
    for (size_t it = 0; it < count; it++) same(a + it * stride * e, g + it * stride * e, n, w, ctx);
    CHECK_STATUS(NTT_OK,
                 w == NTT_U32 ? ntt_pointwise_batch_u32(pg, (uint32_t *)g, (const uint32_t *)a,
                                                        (const uint32_t *)b, count, stride)
                              : ntt_pointwise_batch_u64(pg, (uint64_t *)g, (const uint64_t *)a,
                                                        (const uint64_t *)b, count, stride),
                 "%s host pointwise batch", ctx);
    for (size_t it = 0; it < count; it++) {
        const void *x = a + it * stride * e, *y = b + it * stride * e;
        CHECK_STATUS(NTT_OK,
                     w == NTT_U32 ? ntt_pointwise_u32(ps[it % nm], (uint32_t *)q, x, y)
                                  : ntt_pointwise_u64(ps[it % nm], (uint64_t *)q, x, y),
                     "%s", ctx);
        same(q, g + it * stride * e, n, w, ctx);
    }
    CHECK_STATUS(NTT_OK,
                 w == NTT_U32 ? ntt_polymul_batch_u32(pg, (uint32_t *)g, (const uint32_t *)a,
                                                      (const uint32_t *)b, count, stride)
                              : ntt_polymul_batch_u64(pg, (uint64_t *)g, (const uint64_t *)a,
                                                      (const uint64_t *)b, count, stride),
                 "%s host polymul batch", ctx);
    for (size_t it = 0; it < count; it++) {
        CHECK_STATUS(NTT_OK, pmul(ps[it % nm], q, a + it * stride * e, b + it * stride * e), "%s",
                     ctx);
        same(q, g + it * stride * e, n, w, ctx);
    }
    free(g);
    free(r);
    free(q);
}

/* The device-pointer calls on a stream, batched with a gap between items
   and an RNS plan of three primes, against item-by-item scalar results. */
/* The device-pointer calls on plan configuration c (the fast path, or a
   course ladder plan: an add-on's device entries, addon.h). */
static void device_calls(config c, ntt_width w, size_t n, unsigned flags, size_t count,
                         size_t stride, bool fp)
{
    const uint64_t rns32[3] = {469762049, 104857601, 998244353};
    const uint64_t rns64[3] = {4611685941117976577ull, 1337006139375617ull,
                               4611685692009873409ull};
    /* below 2^50: the FP64 kernels, one plan constant per item */
    const uint64_t rnsfp[3] = {P64_FP, 1125899302862849ull, 1099712954369ull};
    const uint64_t *mods = w == NTT_U32 ? rns32 : fp ? rnsfp : rns64;
    /* 104857601 = 25 2^22 + 1 takes negacyclic sizes up to 2^21 only */
    const size_t nm = w == NTT_U32 && n > ((size_t)1 << 21) ? 1 : 3;
    char ctx[160];
    snprintf(ctx, sizeof ctx, "device u%d n=%zu flags=%u count=%zu stride=%zu rns=%zu%s %s/%s",
             (int)w, n, flags, count, stride, nm, fp ? " fp64" : "", ntt_variant_name(c.v),
             ntt_modmul_name(c.m));
    test_opts o = {.flags = flags, .batch = 2, .variant = c.v, .modmul = c.m};
    ntt_plan *pg = NULL, *ps[3] = {NULL, NULL, NULL};
    CHECK_STATUS(NTT_OK, test_plan_create_rns(&pg, n, mods, nm, w, NTT_BACKEND_CUDA, &o), "%s", ctx);
    const test_opts os = {.flags = flags, .batch = 2};
    for (size_t i = 0; i < nm; i++)
        CHECK_STATUS(NTT_OK, test_plan_create(&ps[i], n, mods[i], w, NTT_BACKEND_SCALAR, &os), "%s", ctx);
    const size_t e = esz(w), total = (count - 1) * stride + n;
    unsigned char *a = xmalloc(total * e), *b = xmalloc(total * e), *r = xmalloc(total * e),
                  *g = xmalloc(total * e);
    void *da = NULL, *db = NULL, *dc = NULL;
    cudaStream_t st = NULL;
    if (!pg || !ps[0] || !cuda_ok(cudaMalloc(&da, total * e), "cudaMalloc") ||
        !cuda_ok(cudaMalloc(&db, total * e), "cudaMalloc") ||
        !cuda_ok(cudaMalloc(&dc, total * e), "cudaMalloc") ||
        !cuda_ok(cudaStreamCreate(&st), "stream"))
        goto out;
    for (size_t it = 0; it < count; it++) {
        const uint64_t p = mods[it % nm];
        fill(a + it * stride * e, n, w, p);
        fill(b + it * stride * e, n, w, p);
    }
    /* forward, in place */
    memcpy(r, a, total * e);
    cuda_ok(cudaMemcpy(da, a, total * e, cudaMemcpyHostToDevice), "h2d");
    CHECK_STATUS(NTT_OK,
                 w == NTT_U32 ? ntt_cuda_forward_u32(pg, da, count, stride, st)
                              : ntt_cuda_forward_u64(pg, da, count, stride, st),
                 "%s forward", ctx);
    cuda_ok(cudaStreamSynchronize(st), "sync");
    cuda_ok(cudaMemcpy(g, da, total * e, cudaMemcpyDeviceToHost), "d2h");
    for (size_t it = 0; it < count; it++) {
        CHECK_STATUS(NTT_OK, fwd(ps[it % nm], r + it * stride * e), "%s", ctx);
        same(r + it * stride * e, g + it * stride * e, n, w, ctx);
    }
    /* the gaps between items are untouched */
    for (size_t it = 0; it + 1 < count; it++)
        CHECK_MEM(a + (it * stride + n) * e, g + (it * stride + n) * e, (stride - n) * e,
                  "%s gap after item %zu", ctx, it);
    /* inverse brings the inputs back */
    CHECK_STATUS(NTT_OK,
                 w == NTT_U32 ? ntt_cuda_inverse_u32(pg, da, count, stride, st)
                              : ntt_cuda_inverse_u64(pg, da, count, stride, st),
                 "%s inverse", ctx);
    cuda_ok(cudaMemcpy(g, da, total * e, cudaMemcpyDeviceToHost), "d2h");
    for (size_t it = 0; it < count; it++)
        same(a + it * stride * e, g + it * stride * e, n, w, ctx);
    /* products with short operands: c = a b for la, lb, lc */
    const size_t la = 1 + rnd_below(n), lb = 1 + rnd_below(n), lc = 1 + rnd_below(n);
    cuda_ok(cudaMemcpy(da, a, total * e, cudaMemcpyHostToDevice), "h2d");
    cuda_ok(cudaMemcpy(db, b, total * e, cudaMemcpyHostToDevice), "h2d");
    cuda_ok(cudaMemset(dc, 0xA5, total * e), "memset");
    CHECK_STATUS(NTT_OK,
                 w == NTT_U32 ? ntt_cuda_polymul_u32(pg, dc, lc, da, la, db, lb, count, stride, st)
                              : ntt_cuda_polymul_u64(pg, dc, lc, da, la, db, lb, count, stride, st),
                 "%s polymul %zu %zu %zu", ctx, la, lb, lc);
    cuda_ok(cudaMemcpy(g, dc, total * e, cudaMemcpyDeviceToHost), "d2h");
    unsigned char *x = xmalloc(n * e), *y = xmalloc(n * e), *z = xmalloc(n * e);
    for (size_t it = 0; it < count; it++) {
        memset(x, 0, n * e);
        memset(y, 0, n * e);
        memcpy(x, a + it * stride * e, la * e);
        memcpy(y, b + it * stride * e, lb * e);
        CHECK_STATUS(NTT_OK, pmul(ps[it % nm], z, x, y), "%s", ctx);
        same(z, g + it * stride * e, lc, w, ctx);
        /* nothing written past lc */
        unsigned char poison[8];
        memset(poison, 0xA5, sizeof poison);
        for (size_t j = lc; j < n; j += 1 + n / 7)
            CHECK_MEM(poison, g + (it * stride + j) * e, e, "%s c[%zu] written", ctx, j);
    }
    free(x);
    free(y);
    free(z);
    /* pointwise, in place on a */
    CHECK_STATUS(NTT_OK,
                 w == NTT_U32 ? ntt_cuda_pointwise_u32(pg, da, da, db, count, stride, st)
                              : ntt_cuda_pointwise_u64(pg, da, da, db, count, stride, st),
                 "%s pointwise", ctx);
    cuda_ok(cudaMemcpy(g, da, total * e, cudaMemcpyDeviceToHost), "d2h");
    for (size_t it = 0; it < count; it++) {
        unsigned char *q = xmalloc(n * e);
        CHECK_STATUS(NTT_OK,
                     w == NTT_U32 ? ntt_pointwise_u32(ps[it % nm], (void *)q, (void *)(a + it * stride * e),
                                                      (void *)(b + it * stride * e))
                                  : ntt_pointwise_u64(ps[it % nm], (void *)q, (void *)(a + it * stride * e),
                                                      (void *)(b + it * stride * e)),
                     "%s", ctx);
        same(q, g + it * stride * e, n, w, ctx);
        free(q);
    }
    host_batches(pg, ps, nm, a, b, count, stride, ctx);
    CHECK_EQ(0, ntt_cuda_last_error(pg), "%s: last CUDA error", ctx);
out:
    cudaFree(da);
    cudaFree(db);
    cudaFree(dc);
    if (st) cudaStreamDestroy(st);
    free(a);
    free(b);
    free(r);
    free(g);
    ntt_plan_destroy(pg);
    for (size_t i = 0; i < 3; i++) ntt_plan_destroy(ps[i]);
}

/* ntt_polymul_mod on the GPU (direct u32, direct u64, CRT) against scalar. */
static void polymul_mod(void)
{
    static const uint64_t moduli[] = {469762049, 1337006139375617ull, 1000000007ull,
                                      9223372036854775783ull, 65536};
    for (size_t k = 0; k < sizeof moduli / sizeof moduli[0]; k++) {
        for (int rep = 0; rep < 4; rep++) {
            const uint64_t p = moduli[k];
            const size_t top = (size_t)1 << (max_log < 16 ? max_log : 16);
            const size_t la = rnd_len(top), lb = rnd_len(top);
            uint64_t *a = xmalloc(la * 8), *b = xmalloc(lb * 8), *r = xmalloc((la + lb) * 8),
                     *g = xmalloc((la + lb) * 8);
            rnd_fill64(a, la, p);
            rnd_fill64(b, lb, p);
            CHECK_STATUS(NTT_OK, ntt_polymul_mod(r, a, la, b, lb, p, NTT_BACKEND_SCALAR), "scalar");
            ntt_status s = ntt_polymul_mod(g, a, la, b, lb, p, NTT_BACKEND_CUDA);
            CHECK_STATUS(NTT_OK, s, "cuda p=%llu la=%zu lb=%zu (CUDA error of the last failing plan: %d)",
                         (unsigned long long)p, la, lb, ntt_cuda_last_error(NULL));
            CHECK_ARR64(r, g, la + lb - 1, "ntt_polymul_mod cuda p=%llu la=%zu lb=%zu",
                        (unsigned long long)p, la, lb);
            free(a);
            free(b);
            free(r);
            free(g);
        }
    }
}

static void errors(void)
{
    ntt_plan *pl = (ntt_plan *)1;
    CHECK_STATUS(NTT_EINVAL, test_plan_create(&pl, 3, P32, NTT_U32, NTT_BACKEND_CUDA, NULL), "n=3");
    CHECK(pl == NULL, "plan not cleared");
    CHECK_STATUS(NTT_EINVAL, test_plan_create(&pl, (size_t)1 << 31, P32, NTT_U32, NTT_BACKEND_CUDA, NULL),
                 "n=2^31");
    CHECK_STATUS(NTT_EMODULUS, test_plan_create(&pl, (size_t)1 << 27, P32, NTT_U32, NTT_BACKEND_CUDA, NULL),
                 "2^27 does not divide p-1");
    test_opts o = {.variant = NTT_VARIANT_BASELINE, .modmul = NTT_MODMUL_SHOUP};
    CHECK_STATUS(NTT_EUNSUPPORTED, test_plan_create(&pl, 1024, P32, NTT_U32, NTT_BACKEND_CUDA, &o),
                 "baseline with Shoup");
    /* Device memory exhausted: 2^39 elements of scratch. */
    test_opts big = {.batch = (size_t)1 << 19};
    CHECK_STATUS(NTT_ENOMEM, test_plan_create(&pl, (size_t)1 << 20, P32, NTT_U32, NTT_BACKEND_CUDA, &big),
                 "device out of memory");
    CHECK(pl == NULL, "plan not cleared after ENOMEM");
    /* ... and the device still works afterwards. */
    reference r;
    ref_make(&r, NTT_U32, P32, 1024, 0);
    host_calls(&r, CONFIGS[0]);
    ref_free(&r);
    /* device-pointer calls on a CPU plan, NULL pointers, short stride */
    ntt_plan *ps = NULL, *pg = NULL;
    CHECK_STATUS(NTT_OK, test_plan_create(&ps, 64, P32, NTT_U32, NTT_BACKEND_SCALAR, NULL), "scalar");
    CHECK_STATUS(NTT_OK, test_plan_create(&pg, 64, P32, NTT_U32, NTT_BACKEND_CUDA, NULL), "cuda");
    uint32_t *d = NULL;
    if (cuda_ok(cudaMalloc((void **)&d, 64 * 4 * 4), "cudaMalloc") && ps && pg) {
        CHECK_STATUS(NTT_EUNSUPPORTED, ntt_cuda_forward_u32(ps, d, 1, 64, NULL), "scalar plan");
        /* an add-on plan without device entries: the course's CPU baseline */
        ntt_plan *pb = NULL;
        test_opts ob = {.variant = NTT_VARIANT_BASELINE};
        CHECK_STATUS(NTT_OK, test_plan_create(&pb, 64, P32, NTT_U32, NTT_BACKEND_SCALAR, &ob), "baseline");
        CHECK_STATUS(NTT_EUNSUPPORTED, ntt_cuda_forward_u32(pb, d, 1, 64, NULL), "CPU add-on plan");
        CHECK_STATUS(NTT_EUNSUPPORTED, ntt_cuda_polymul_u32(pb, d, 64, d, 1, d, 1, 1, 64, NULL),
                     "CPU add-on plan, polymul");
        CHECK_EQ(0, ntt_cuda_last_error(pb), "last error of a CPU add-on plan");
        ntt_plan_destroy(pb);
        CHECK_STATUS(NTT_EINVAL, ntt_cuda_forward_u32(pg, NULL, 1, 64, NULL), "NULL");
        CHECK_STATUS(NTT_EINVAL, ntt_cuda_forward_u32(pg, d, 2, 63, NULL), "stride < n");
        CHECK_STATUS(NTT_EINVAL, ntt_cuda_forward_u64(pg, (uint64_t *)d, 1, 64, NULL), "width");
        CHECK_STATUS(NTT_EINVAL, ntt_cuda_polymul_u32(pg, d, 65, d, 1, d, 1, 1, 64, NULL), "lc > n");
        CHECK_STATUS(NTT_OK, ntt_cuda_forward_u32(pg, d, 0, 64, NULL), "count 0");
        CHECK_EQ(0, ntt_cuda_last_error(pg), "no CUDA error recorded");
    }
    cudaFree(d);
    /* host calls still check ranges */
    uint32_t a[64] = {0};
    a[5] = (uint32_t)P32;
    if (pg) CHECK_STATUS(NTT_ERANGE, ntt_forward_u32(pg, a), "input = p");
    /* ... and products, from page-locked memory (checked while the device
       works) as from ordinary memory: NTT_ERANGE with c untouched, and the
       same buffers then multiply correctly. */
    uint32_t *pa = NULL, *pb = NULL, *pc = NULL, ord[3][64], want[64];
    if (pg && ps && cuda_ok(cudaMallocHost((void **)&pa, 64 * 4), "cudaMallocHost") &&
        cuda_ok(cudaMallocHost((void **)&pb, 64 * 4), "cudaMallocHost") &&
        cuda_ok(cudaMallocHost((void **)&pc, 64 * 4), "cudaMallocHost")) {
        for (int pinned = 1; pinned >= 0; pinned--) {
            uint32_t *x = pinned ? pa : ord[0], *y = pinned ? pb : ord[1], *z = pinned ? pc : ord[2];
            for (int i = 0; i < 64; i++) {
                x[i] = (uint32_t)(7 * i + 1);
                y[i] = (uint32_t)(P32 - 1 - (uint32_t)i);
            }
            for (int bad = 0; bad < 3; bad++) {
                uint32_t *v = bad == 1 ? x : y;
                const int at = bad == 1 ? 0 : 31;
                const uint32_t keep = v[at];
                v[at] = (uint32_t)P32 + (uint32_t)bad;
                for (int i = 0; i < 64; i++) z[i] = 0xdeadbeefu;
                ntt_status st = bad == 2 ? ntt_polymul_u32(pg, z, x, y)
                                         : ntt_polymul_linear_u32(pg, z, x, 32, y, 32);
                CHECK_STATUS(NTT_ERANGE, st, "product, %s, coefficient %u", pinned ? "pinned" : "pageable",
                             (unsigned)v[at]);
                int kept = 1;
                for (int i = 0; i < 64; i++) kept &= z[i] == 0xdeadbeefu;
                CHECK(kept, "c written by a refused product (%s)", pinned ? "pinned" : "pageable");
                v[at] = keep;
            }
            CHECK_STATUS(NTT_OK, ntt_polymul_linear_u32(pg, z, x, 32, y, 32), "valid product");
            CHECK_STATUS(NTT_OK, ntt_polymul_linear_u32(ps, want, x, 32, y, 32), "scalar product");
            CHECK(memcmp(z, want, 63 * 4) == 0, "product after refusals (%s)", pinned ? "pinned" : "pageable");
        }
    }
    cudaFreeHost(pa);
    cudaFreeHost(pb);
    cudaFreeHost(pc);
    ntt_plan_destroy(ps);
    ntt_plan_destroy(pg);
    ntt_cuda_info info;
    CHECK_STATUS(NTT_OK, ntt_cuda_get_info(&info), "info");
    printf("device: %s, %d SMs, L2 %zu KiB, cc %d.%d\n", info.name, info.sm_count,
           info.l2_bytes >> 10, info.cc_major, info.cc_minor);
}

/* Products between page-locked buffers take their own path (the fast
   variant's kernels read a, b and write c over the bus; the others copy):
   two passes from 2^12, a short result, c from cudaMallocHost and from
   cudaHostRegister memory, c aliasing a (cyclic), and a ladder kernel. */
static void pinned_products(void)
{
    /* 2^18 on a GPU; the CPU stand-in and the sanitizer runs take 2^max_log */
    const size_t n = (size_t)1 << (max_log < 9 ? 9 : max_log > 18 ? 18 : max_log);
    const size_t la = n / 2, lb = n / 2 - 77, lc = la + lb - 1;
    uint32_t *want = xmalloc(lc * 4), *reg = xmalloc(lc * 4);
    uint32_t *pa = NULL, *pb = NULL, *pc = NULL;
    ntt_plan *ps = NULL;
    CHECK_STATUS(NTT_OK, test_plan_create(&ps, n, P32, NTT_U32, NTT_BACKEND_SCALAR, NULL), "scalar");
    const bool registered = cuda_ok(cudaHostRegister(reg, lc * 4, cudaHostRegisterDefault),
                                    "cudaHostRegister");
    if (ps && cuda_ok(cudaMallocHost((void **)&pa, n * 4), "cudaMallocHost") &&
        cuda_ok(cudaMallocHost((void **)&pb, n * 4), "cudaMallocHost") &&
        cuda_ok(cudaMallocHost((void **)&pc, n * 4), "cudaMallocHost")) {
        memset(pa, 0, n * 4);
        memset(pb, 0, n * 4);
        rnd_fill32(pa, la, (uint32_t)P32);
        rnd_fill32(pb, lb, (uint32_t)P32);
        CHECK_STATUS(NTT_OK, ntt_polymul_linear_u32(ps, want, pa, la, pb, lb), "scalar product");
        static const config cs[] = {{NTT_VARIANT_FAST, NTT_MODMUL_DEFAULT},
                                    {NTT_VARIANT_FAST, NTT_MODMUL_MONTGOMERY},
                                    {NTT_VARIANT_GPU_SHARED, NTT_MODMUL_SHOUP}};
        for (size_t k = 0; k < sizeof cs / sizeof cs[0]; k++) {
            test_opts o = {.variant = cs[k].v, .modmul = cs[k].m};
            ntt_plan *pg = NULL;
            CHECK_STATUS(NTT_OK, test_plan_create(&pg, n, P32, NTT_U32, NTT_BACKEND_CUDA, &o), "cuda");
            if (!pg) continue;
            const char *name = ntt_variant_name(cs[k].v);
            for (size_t i = 0; i < n; i++) pc[i] = 0xdeadbeefu;
            const uint32_t keep = pb[lb - 1];
            pb[lb - 1] = (uint32_t)P32;  /* refused before the pass that writes c */
            CHECK_STATUS(NTT_ERANGE, ntt_polymul_linear_u32(pg, pc, pa, la, pb, lb), "pinned, b = p");
            int kept = 1;
            for (size_t i = 0; i < n; i++) kept &= pc[i] == 0xdeadbeefu;
            CHECK(kept, "c written by a refused pinned product (%s)", name);
            pb[lb - 1] = keep;
            CHECK_STATUS(NTT_OK, ntt_polymul_linear_u32(pg, pc, pa, la, pb, lb), "pinned %s", name);
            CHECK_ARR32(want, pc, lc, "pinned product, %s", name);
            CHECK(pc[lc] == 0xdeadbeefu, "pinned product wrote past lc (%s)", name);
            if (registered) {
                memset(reg, 0, lc * 4);
                CHECK_STATUS(NTT_OK, ntt_polymul_linear_u32(pg, reg, pa, la, pb, lb), "registered %s", name);
                CHECK_ARR32(want, reg, lc, "product into registered memory, %s", name);
            }
            /* c = a; cyclic, which equals the linear product since lc < n */
            memcpy(pc, pa, n * 4);
            CHECK_STATUS(NTT_OK, ntt_polymul_u32(pg, pc, pc, pb), "c = a, %s", name);
            CHECK_ARR32(want, pc, lc, "pinned cyclic product into its operand, %s", name);
            CHECK(pc[lc] == 0, "pinned cyclic product, coefficient %zu (%s)", lc, name);
            ntt_plan_destroy(pg);
        }
    }
    if (registered) cudaHostUnregister(reg);
    cudaFreeHost(pa);
    cudaFreeHost(pb);
    cudaFreeHost(pc);
    free(want);
    free(reg);
    ntt_plan_destroy(ps);
    /* u64 takes the same path; a and b hold only la and lb elements, so
       that memcheck (GPU) and ASan (the stand-in) see any read past them */
    uint64_t *qa = NULL, *qb = NULL, *qc = NULL, *want64 = xmalloc(lc * 8);
    ntt_plan *ps64 = NULL, *pg64 = NULL;
    CHECK_STATUS(NTT_OK, test_plan_create(&ps64, n, P64, NTT_U64, NTT_BACKEND_SCALAR, NULL), "scalar");
    CHECK_STATUS(NTT_OK, test_plan_create(&pg64, n, P64, NTT_U64, NTT_BACKEND_CUDA, NULL), "cuda");
    if (ps64 && pg64 && cuda_ok(cudaMallocHost((void **)&qa, la * 8), "cudaMallocHost") &&
        cuda_ok(cudaMallocHost((void **)&qb, lb * 8), "cudaMallocHost") &&
        cuda_ok(cudaMallocHost((void **)&qc, n * 8), "cudaMallocHost")) {
        rnd_fill64(qa, la, P64);
        rnd_fill64(qb, lb, P64);
        CHECK_STATUS(NTT_OK, ntt_polymul_linear_u64(ps64, want64, qa, la, qb, lb), "scalar product");
        for (size_t i = 0; i < n; i++) qc[i] = ~(uint64_t)0;
        const uint64_t keep = qa[7];
        qa[7] = P64;
        CHECK_STATUS(NTT_ERANGE, ntt_polymul_linear_u64(pg64, qc, qa, la, qb, lb), "pinned u64, a = p");
        int kept = 1;
        for (size_t i = 0; i < n; i++) kept &= qc[i] == ~(uint64_t)0;
        CHECK(kept, "c written by a refused pinned product (u64)");
        qa[7] = keep;
        CHECK_STATUS(NTT_OK, ntt_polymul_linear_u64(pg64, qc, qa, la, qb, lb), "pinned u64");
        CHECK_ARR64(want64, qc, lc, "pinned product, u64");
        CHECK(qc[lc] == ~(uint64_t)0, "pinned u64 product wrote past lc");
    }
    cudaFreeHost(qa);
    cudaFreeHost(qb);
    cudaFreeHost(qc);
    free(want64);
    ntt_plan_destroy(ps64);
    ntt_plan_destroy(pg64);
}

/* The planner has no CUDA candidates yet (docs/PLANNER.md): a MEASURE
   plan is the rules' plan, says so, and gives its words; no wisdom is
   made for it. */
static void planner_modes(void)
{
    setenv("NTT_WISDOM", "off", 1); /* no system wisdom in the store */
    ntt_plan *e = NULL, *m = NULL;
    ntt_plan_options mo = {.mode = NTT_PLAN_MEASURE, .work = NTT_WORK_FORWARD};
    CHECK_STATUS(NTT_OK, ntt_plan_create(&e, 1024, P32, NTT_U32, NTT_BACKEND_CUDA, NULL), "estimate");
    CHECK_STATUS(NTT_OK, ntt_plan_create(&m, 1024, P32, NTT_U32, NTT_BACKEND_CUDA, &mo), "measure");
    ntt_plan_choice_info c;
    if (m && ntt_plan_choice(m, &c) == NTT_OK) {
        CHECK_EQ(NTT_CHOSEN_BY_RULE, c.source, "a CUDA MEASURE plan is the rules'");
        CHECK_EQ(NTT_PLAN_MEASURE, c.mode, "mode recorded");
        CHECK_EQ(NTT_BACKEND_CUDA, c.backend, "backend");
        CHECK(strcmp(c.kernels, "cuda") == 0, "kernels \"%s\"", c.kernels);
    }
    uint32_t x[1024], y[1024];
    for (int i = 0; i < 1024; i++) x[i] = y[i] = (uint32_t)(i * 7919u % P32);
    if (e && m) {
        CHECK_STATUS(NTT_OK, ntt_forward_u32(e, x), "forward");
        CHECK_STATUS(NTT_OK, ntt_forward_u32(m, y), "forward");
        CHECK_ARR32(x, y, 1024, "MEASURE CUDA plan's words");
    }
    char *w = NULL;
    CHECK_STATUS(NTT_OK, ntt_wisdom_export_to_string(&w), "export");
    CHECK(w && !strstr(w, "\nplan "), "a CUDA plan made wisdom");
    free(w);
    ntt_plan_destroy(e);
    ntt_plan_destroy(m);
}

int main(void)
{
    test_init("test_cuda");
    if (!ntt_backend_available(NTT_BACKEND_CUDA)) {
        printf("test_cuda: no usable CUDA device: skipped\n");
        return TEST_SKIP;
    }
    ntt_cuda_tuning tuning;
    const char *bad = "";
    CHECK_STATUS(NTT_OK, ntt_cuda_tuning_from_env(&tuning, "NTT_TEST_CUDA_", &bad),
                 "NTT_TEST_CUDA_%s", bad);
    CHECK_STATUS(NTT_OK, ntt_cuda_tuning_set(&tuning), "tuning");
    printf("tuning: fp64 %d cap %d stw %d rho %d logc %d bottom %d compact_log %d carveout %d\n",
           tuning.fp64, tuning.cap, tuning.stw, tuning.rho, tuning.logc, tuning.bottom,
           tuning.compact_log, tuning.carveout);
    const char *ml = getenv("NTT_TEST_MAX_LOG");
    if (ml) max_log = atoi(ml) < 1 ? 1 : atoi(ml) > 24 ? 24 : atoi(ml);
    /* NTT_TEST_FAST_ONLY=1: the fast path only (racecheck runs reach the
       multi-pass sizes that way). */
    const char *fo = getenv("NTT_TEST_FAST_ONLY");
    const size_t nconfigs = fo && *fo == '1' ? 1 : NCONFIGS;
    /* NTT_TEST_PART=1: u32 and the API checks; 2: u64; 3: the sizes beyond
       2^24.  The whole run takes 400-510 s on an H100, close to what one
       call of the device machine may take. */
    const char *pt = getenv("NTT_TEST_PART");
    const int part = pt && *pt >= '1' && *pt <= '3' ? *pt - '0' : 0;
    const bool run_u32 = part <= 1, run_u64 = part == 0 || part == 2,
               run_big = part == 0 || part == 3;
    if (part == 3 && max_log < 24) {
        printf("test_cuda: part 3 (beyond 2^24) needs NTT_TEST_MAX_LOG=24: skipped\n");
        return TEST_SKIP;
    }
    if (run_u32) {
        errors();
        planner_modes();
        pinned_products();
    }
    static const unsigned FLAGS[] = {0, NTT_FLAG_NEGACYCLIC, NTT_FLAG_NATURAL_ORDER,
                                     NTT_FLAG_NEGACYCLIC | NTT_FLAG_NATURAL_ORDER};
    for (int wi = 0; wi < 2; wi++) {
        if (!(wi ? run_u64 : run_u32)) continue;
        const ntt_width w = wi ? NTT_U64 : NTT_U32;
        for (size_t fi = 0; fi < 4; fi++) {
            for (int lg = 1; lg <= max_log; lg++) {
                reference r;
                ref_make(&r, w, wi ? P64 : P32, (size_t)1 << lg, FLAGS[fi]);
                host_calls(&r, CONFIGS[0]);
                /* the other kinds and ladder kernels: every size up to 2^14, then the top */
                if (lg <= 14 || lg == max_log)
                    for (size_t c = 1; c < nconfigs; c++) host_calls(&r, CONFIGS[c]);
                ref_free(&r);
                /* the default kind's narrower ranges, where the prime asks for them:
                   every size up to 2^16, then the top (its 14-level passes) */
                if (!wi && (lg <= 16 || lg == max_log) &&
                    (lg < 24 || !(FLAGS[fi] & NTT_FLAG_NEGACYCLIC))) {
                    ref_make(&r, w, P32_WIDE, (size_t)1 << lg, FLAGS[fi]);
                    host_calls(&r, CONFIGS[0]);
                    ref_free(&r);
                }
                /* u64: the default kind's FP64 kernels, every size */
                if (wi) {
                    ref_make(&r, w, P64_FP, (size_t)1 << lg, FLAGS[fi]);
                    host_calls(&r, CONFIGS[0]);
                    ref_free(&r);
                }
            }
            for (int lg = 1; lg <= max_log; lg += lg < 12 ? 1 : 4)
                for (int fp = 0; fp <= wi; fp++)
                    device_calls(CONFIGS[0], w, (size_t)1 << lg, FLAGS[fi], lg > 20 ? 2 : 5,
                                 ((size_t)1 << lg) + (lg > 20 ? 0 : 3), fp);
            /* the ladder's device-pointer calls (the course add-on's): a few sizes */
            static const int LADDER_LG[] = {1, 6, 10};
            for (size_t li = 0; li < sizeof LADDER_LG / sizeof LADDER_LG[0]; li++)
                for (size_t c = 1; c < nconfigs && LADDER_LG[li] <= max_log; c++)
                    if (CONFIGS[c].v != NTT_VARIANT_FAST)
                        device_calls(CONFIGS[c], w, (size_t)1 << LADDER_LG[li], FLAGS[fi], 3,
                                     ((size_t)1 << LADDER_LG[li]) + 3, false);
        }
    }
    /* Beyond 2^24, u32 only, every kind of the fast path: a top pass of 11
       levels over 64-byte groups (2^25), one of 12 (Shoup) or two (the
       others) above the 14-level bottom pass (2^26), and the products'
       plans. */
    if (max_log >= 24 && run_big) {
        static const struct { int lg; unsigned flags; } BIG[] = {
            {25, 0}, {25, NTT_FLAG_NEGACYCLIC}, {26, 0}};
        for (size_t i = 0; i < sizeof BIG / sizeof BIG[0]; i++) {
            reference r;
            ref_make(&r, NTT_U32, P32, (size_t)1 << BIG[i].lg, BIG[i].flags);
            for (size_t c = 0; c < nconfigs && CONFIGS[c].v == NTT_VARIANT_FAST; c++)
                host_calls(&r, CONFIGS[c]);
            ref_free(&r);
        }
    }
    if (run_u32) polymul_mod();
    ntt_cache_clear();
    return test_finish();
}
