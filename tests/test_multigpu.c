/* libntt_multigpu (include/ntt_multigpu.h): batches split across GPUs and
   the four-step across GPUs, bit-identical to one GPU's CUDA plans; bad
   arguments.  Runs on real GPUs (label gpu: exit 77 with fewer than two,
   or without NCCL) and, as test_multigpu_emu, on the CPU stand-ins of
   CUDA and NCCL with NTT_EMU_DEVICES devices (tests/cuda_emu,
   tests/nccl_emu).  NTT_TEST_MAX_LOG bounds the sizes. */
#include "mgpu_test.h"
#include "test_common.h"

#include <cuda_runtime_api.h>
#include <stdlib.h>
#include <string.h>

static unsigned max_log = 14;

/* nmod distinct primes below 2^bits with 2^log | p - 1. */
static void primes(uint64_t *q, size_t nmod, unsigned bits, unsigned log)
{
    for (size_t k = 0; k < nmod; k++)
        if (ntt_find_prime(bits, log, (unsigned)k, &q[k]) != NTT_OK) {
            fprintf(stderr, "no prime\n");
            exit(2);
        }
}

static void fill_items(uint64_t *a, size_t count, size_t stride, size_t n, const uint64_t *q,
                       size_t nmod)
{
    for (size_t i = 0; i < count; i++) {
        rnd_fill64(a + i * stride, n, q[i % nmod]);
        for (size_t j = n; j < stride; j++) a[i * stride + j] = rnd64(); /* gaps: untouched */
    }
}

/* ---- batches ------------------------------------------------------------------ */

/* Host and device pointers against one GPU's RNS plan: forward, inverse,
   products (host: full length; device: short operands). */
static void batch_case(ntt_mgpu_ctx *ctx, int G, size_t n, size_t nmod, size_t count,
                       size_t stride, unsigned flags)
{
    uint64_t q[8];
    primes(q, nmod, 60, t_log2(n) + 1);
    ntt_plan_options o = {.flags = flags, .batch = 3};
    ntt_plan *one = NULL;
    CHECK_STATUS(NTT_OK, cudaSetDevice(0) == cudaSuccess ? NTT_OK : NTT_EBACKEND, "device 0");
    CHECK_STATUS(NTT_OK, ntt_plan_create_rns(&one, n, q, nmod, NTT_U64, NTT_BACKEND_CUDA, &o),
                 "single-GPU plan");
    ntt_mgpu_plan *mp = NULL;
    CHECK_STATUS(NTT_OK, ntt_mgpu_plan_create(&mp, ctx, n, q, nmod, NTT_U64, &o), "mgpu plan");
    if (!one || !mp) {
        ntt_plan_destroy(one);
        ntt_mgpu_plan_destroy(mp);
        return;
    }
    const size_t len = count * stride + 1;
    uint64_t *a = xmalloc(len * 8), *b = xmalloc(len * 8), *ref = xmalloc(len * 8),
             *got = xmalloc(len * 8), *c = xmalloc(len * 8);
    fill_items(a, count, stride, n, q, nmod);
    fill_items(b, count, stride, n, q, nmod);
    a[len - 1] = b[len - 1] = 0;

    /* host: forward, inverse */
    for (int inv = 0; inv < 2; inv++) {
        memcpy(ref, a, len * 8);
        memcpy(got, a, len * 8);
        CHECK_STATUS(NTT_OK, inv ? ntt_inverse_batch_u64(one, ref, count, stride)
                                 : ntt_forward_batch_u64(one, ref, count, stride), "one GPU");
        CHECK_STATUS(NTT_OK, inv ? ntt_mgpu_inverse_host_u64(mp, got, count, stride)
                                 : ntt_mgpu_forward_host_u64(mp, got, count, stride),
                     "host %s G=%d n=%zu count=%zu", inv ? "inverse" : "forward", G, n, count);
        CHECK_ARR64(ref, got, len, "host %s G=%d n=%zu count=%zu stride=%zu",
                    inv ? "inverse" : "forward", G, n, count, stride);
    }
    /* host: products, c aliasing a too */
    memcpy(ref, a, len * 8);
    CHECK_STATUS(NTT_OK, ntt_polymul_batch_u64(one, ref, a, b, count, stride), "one GPU product");
    memcpy(c, a, len * 8);
    CHECK_STATUS(NTT_OK, ntt_mgpu_polymul_host_u64(mp, c, a, b, count, stride), "host product");
    CHECK_ARR64(ref, c, len, "host product G=%d n=%zu count=%zu", G, n, count);
    memcpy(c, a, len * 8);
    CHECK_STATUS(NTT_OK, ntt_mgpu_polymul_host_u64(mp, c, c, b, count, stride), "aliased");
    CHECK_ARR64(ref, c, len, "host product c == a, G=%d n=%zu count=%zu", G, n, count);

    /* device pointers: each GPU's range in its own memory */
    uint64_t *da[NTT_MGPU_MAX_LOCAL] = {0}, *db[NTT_MGPU_MAX_LOCAL] = {0};
    const size_t la = n / 2 + 1, lb = n / 3 + 1, lc = n - 1;
    for (int op = 0; op < 4; op++) {
        for (int l = 0; l < G; l++) {
            const ntt_mgpu_range r = ntt_mgpu_range_of(ctx, count, l);
            if (!r.count) continue;
            (void)cudaSetDevice(l);
            CHECK(cudaMalloc((void **)&da[l], r.count * stride * 8) == cudaSuccess, "malloc");
            CHECK(cudaMalloc((void **)&db[l], r.count * stride * 8) == cudaSuccess, "malloc");
            (void)cudaMemcpy(da[l], a + r.first * stride, r.count * stride * 8, cudaMemcpyHostToDevice);
            (void)cudaMemcpy(db[l], b + r.first * stride, r.count * stride * 8, cudaMemcpyHostToDevice);
        }
        memcpy(ref, a, len * 8);
        ntt_status s1 = NTT_OK, s2 = NTT_OK;
        (void)cudaSetDevice(0);
        uint64_t *ra = NULL, *rb = NULL;
        CHECK(cudaMalloc((void **)&ra, len * 8) == cudaSuccess && cudaMalloc((void **)&rb, len * 8) == cudaSuccess, "malloc");
        (void)cudaMemcpy(ra, a, len * 8, cudaMemcpyHostToDevice);
        (void)cudaMemcpy(rb, b, len * 8, cudaMemcpyHostToDevice);
        switch (op) {
        case 0:
            s1 = ntt_cuda_forward_u64(one, ra, count, stride, NULL);
            s2 = ntt_mgpu_forward_u64(mp, da, count, stride);
            break;
        case 1:
            s1 = ntt_cuda_inverse_u64(one, ra, count, stride, NULL);
            s2 = ntt_mgpu_inverse_u64(mp, da, count, stride);
            break;
        case 2:
            s1 = ntt_cuda_pointwise_u64(one, ra, ra, rb, count, stride, NULL);
            s2 = ntt_mgpu_pointwise_u64(mp, da, da, db, count, stride);
            break;
        default:
            s1 = ntt_cuda_polymul_u64(one, ra, lc, ra, la, rb, lb, count, stride, NULL);
            s2 = ntt_mgpu_polymul_u64(mp, da, lc, da, la, db, lb, count, stride);
        }
        CHECK_STATUS(NTT_OK, s1, "one GPU, device op %d", op);
        CHECK_STATUS(NTT_OK, s2, "device op %d G=%d n=%zu count=%zu", op, G, n, count);
        CHECK_STATUS(NTT_OK, ntt_mgpu_sync(ctx), "sync");
        (void)cudaSetDevice(0);
        (void)cudaDeviceSynchronize();
        (void)cudaMemcpy(ref, ra, len * 8, cudaMemcpyDeviceToHost);
        memcpy(got, ref, len * 8);
        for (int l = 0; l < G; l++) {
            const ntt_mgpu_range r = ntt_mgpu_range_of(ctx, count, l);
            if (!r.count) continue;
            (void)cudaSetDevice(l);
            (void)cudaMemcpy(got + r.first * stride, da[l], r.count * stride * 8, cudaMemcpyDeviceToHost);
            cudaFree(da[l]);
            cudaFree(db[l]);
            da[l] = db[l] = NULL;
        }
        cudaFree(ra);
        cudaFree(rb);
        CHECK_ARR64(ref, got, len, "device op %d G=%d n=%zu count=%zu stride=%zu", op, G, n,
                    count, stride);
    }

    /* an input out of range: NTT_ERANGE, nothing written */
    if (count > 0) {
        memcpy(got, a, len * 8);
        got[(count - 1) * stride + n - 1] = q[(count - 1) % nmod];
        memcpy(ref, got, len * 8);
        CHECK_STATUS(NTT_ERANGE, ntt_mgpu_forward_host_u64(mp, got, count, stride), "range");
        CHECK_ARR64(ref, got, len, "nothing written after NTT_ERANGE");
    }
    free(a);
    free(b);
    free(c);
    free(ref);
    free(got);
    ntt_plan_destroy(one);
    ntt_mgpu_plan_destroy(mp);
}

/* u32 limbs: host forward against one GPU. */
static void batch_u32(ntt_mgpu_ctx *ctx, int G, size_t n, size_t count)
{
    uint64_t q[3];
    primes(q, 3, 30, t_log2(n) + 1);
    ntt_plan *one = NULL;
    ntt_mgpu_plan *mp = NULL;
    (void)cudaSetDevice(0);
    CHECK_STATUS(NTT_OK, ntt_plan_create_rns(&one, n, q, 3, NTT_U32, NTT_BACKEND_CUDA, NULL), "u32");
    CHECK_STATUS(NTT_OK, ntt_mgpu_plan_create(&mp, ctx, n, q, 3, NTT_U32, NULL), "u32 mgpu");
    if (one && mp) {
        uint32_t *a = xmalloc(count * n * 4), *b = xmalloc(count * n * 4);
        for (size_t i = 0; i < count; i++) rnd_fill32(a + i * n, n, (uint32_t)q[i % 3]);
        memcpy(b, a, count * n * 4);
        CHECK_STATUS(NTT_OK, ntt_forward_batch_u32(one, a, count, n), "u32 one");
        CHECK_STATUS(NTT_OK, ntt_mgpu_forward_host_u32(mp, b, count, n), "u32 mgpu forward");
        CHECK_ARR32(a, b, count * n, "u32 host forward G=%d n=%zu count=%zu", G, n, count);
        uint64_t *const *bad = NULL;
        CHECK_STATUS(NTT_EINVAL, ntt_mgpu_forward_u64((ntt_mgpu_plan *)mp, bad, count, n),
                     "width not the plan's");
        free(a);
        free(b);
    }
    ntt_plan_destroy(one);
    ntt_mgpu_plan_destroy(mp);
}

static void batch_bad(ntt_mgpu_ctx *ctx, int G)
{
    uint64_t q[2];
    primes(q, 2, 60, 12);
    ntt_mgpu_plan *mp = NULL;
    CHECK_STATUS(NTT_EINVAL, ntt_mgpu_plan_create(NULL, ctx, 64, q, 2, NTT_U64, NULL), "NULL out");
    CHECK_STATUS(NTT_EINVAL, ntt_mgpu_plan_create(&mp, NULL, 64, q, 2, NTT_U64, NULL), "NULL ctx");
    CHECK_STATUS(NTT_EINVAL, ntt_mgpu_plan_create(&mp, ctx, 64, q, 0, NTT_U64, NULL), "no moduli");
    CHECK_STATUS(NTT_EINVAL, ntt_mgpu_plan_create(&mp, ctx, 48, q, 2, NTT_U64, NULL), "n not 2^k");
    const uint64_t notprime[1] = {1000001};
    CHECK_STATUS(NTT_EMODULUS, ntt_mgpu_plan_create(&mp, ctx, 64, notprime, 1, NTT_U64, NULL),
                 "modulus");
    CHECK(mp == NULL, "plan NULL after failures");
    CHECK_STATUS(NTT_OK, ntt_mgpu_plan_create(&mp, ctx, 64, q, 2, NTT_U64, NULL), "plan");
    if (!mp) return;
    uint64_t *d[NTT_MGPU_MAX_LOCAL] = {0};
    for (int l = 0; l < G; l++) {
        (void)cudaSetDevice(l);
        (void)cudaMalloc((void **)&d[l], 4 * 64 * 8);
    }
    CHECK_STATUS(NTT_EINVAL, ntt_mgpu_forward_u64(mp, d, 2 * (size_t)G, 63), "stride < n");
    CHECK_STATUS(NTT_EINVAL, ntt_mgpu_forward_u64(NULL, d, 2, 64), "NULL plan");
    CHECK_STATUS(NTT_EINVAL, ntt_mgpu_forward_u64(mp, NULL, 2, 64), "NULL array");
    /* With G - 1 items the first GPU has none (ranges start at
       floor(count g / G)). */
    uint64_t *keep = d[0];
    d[0] = NULL;
    CHECK_EQ(0, ntt_mgpu_range_of(ctx, (size_t)G - 1, 0).count, "GPU 0 idle");
    CHECK_STATUS(NTT_EINVAL, ntt_mgpu_forward_u64(mp, d, (size_t)G, 64), "NULL of a GPU with items");
    CHECK_STATUS(NTT_OK, ntt_mgpu_forward_u64(mp, d, (size_t)G - 1, 64),
                 "NULL of a GPU without items");
    d[0] = keep;
    CHECK_STATUS(NTT_EINVAL, ntt_mgpu_polymul_u64(mp, d, 65, d, 64, d, 64, 1, 64), "lc > n");
    CHECK_STATUS(NTT_EINVAL, ntt_mgpu_forward_u32(mp, (uint32_t *const *)d, 1, 64), "width");
    uint64_t h[64];
    CHECK_STATUS(NTT_EINVAL, ntt_mgpu_forward_host_u64(mp, h, 1, 32), "host stride < n");
    CHECK_STATUS(NTT_OK, ntt_mgpu_forward_host_u64(mp, h, 0, 32), "count 0");
    CHECK_STATUS(NTT_OK, ntt_mgpu_sync(ctx), "sync");
    for (int l = 0; l < G; l++) {
        (void)cudaSetDevice(l);
        cudaFree(d[l]);
    }
    ntt_mgpu_plan_destroy(mp);
}

/* ---- the four-step ------------------------------------------------------------ */

static void large_case(ntt_mgpu_ctx *ctx, int G, size_t n, ntt_width w, unsigned flags)
{
    const unsigned lg = t_log2(n) + ((flags & NTT_FLAG_NEGACYCLIC) ? 1 : 0);
    uint64_t p;
    if (ntt_find_prime(w == NTT_U32 ? 30 : 62, lg, 0, &p) != NTT_OK) return;
    const size_t esz = w == NTT_U32 ? 4 : 8;
    ntt_plan_options o = {.flags = flags};
    ntt_plan *one = NULL;
    ntt_mgpu_large *pl = NULL;
    (void)cudaSetDevice(0);
    CHECK_STATUS(NTT_OK, ntt_plan_create(&one, n, p, w, NTT_BACKEND_CUDA, &o), "one GPU plan");
    CHECK_STATUS(NTT_OK, ntt_mgpu_large_create(&pl, ctx, n, p, w, &o), "large n=%zu G=%d", n, G);
    if (!one || !pl) {
        ntt_plan_destroy(one);
        ntt_mgpu_large_destroy(pl);
        return;
    }
    uint64_t *a = xmalloc(n * 8), *ref = xmalloc(n * 8), *got = xmalloc(n * 8);
    rnd_fill64(a, n, p);
    void *d[NTT_MGPU_MAX_LOCAL] = {0};
    for (int l = 0; l < G; l++) {
        ntt_mgpu_local loc;
        CHECK_STATUS(NTT_OK, ntt_mgpu_large_local(pl, l, &loc), "local");
        (void)cudaSetDevice(l);
        CHECK(cudaMalloc(&d[l], (loc.alloc + 1) * esz) == cudaSuccess, "malloc");
    }
    ntt_mgpu_stats s0, s1;
    CHECK_STATUS(NTT_OK, ntt_mgpu_stats_get(ctx, &s0), "stats");
    if (w == NTT_U64) {
        memcpy(ref, a, n * 8);
        CHECK_STATUS(NTT_OK, ntt_forward_u64(one, ref), "one GPU forward");
        CHECK_STATUS(NTT_OK, ntt_mgpu_large_scatter_u64(pl, 0, a, (uint64_t *const *)d), "scatter");
        CHECK_STATUS(NTT_OK, ntt_mgpu_large_forward_u64(pl, (uint64_t *const *)d, (uint64_t *const *)d),
                     "forward n=%zu G=%d", n, G);
        CHECK_STATUS(NTT_OK, ntt_mgpu_large_gather_u64(pl, 1, (uint64_t *const *)d, got), "gather");
        CHECK_ARR64(ref, got, n, "large forward n=%zu G=%d flags=%u", n, G, flags);
        CHECK_STATUS(NTT_OK, ntt_mgpu_large_inverse_u64(pl, (uint64_t *const *)d, (uint64_t *const *)d),
                     "inverse");
        CHECK_STATUS(NTT_OK, ntt_mgpu_large_gather_u64(pl, 0, (uint64_t *const *)d, got), "gather");
        CHECK_ARR64(a, got, n, "large inverse(forward) n=%zu G=%d flags=%u", n, G, flags);
    } else {
        uint32_t *a32 = xmalloc(n * 4), *r32 = xmalloc(n * 4), *g32 = xmalloc(n * 4);
        for (size_t i = 0; i < n; i++) a32[i] = (uint32_t)a[i];
        memcpy(r32, a32, n * 4);
        CHECK_STATUS(NTT_OK, ntt_forward_u32(one, r32), "one GPU forward");
        CHECK_STATUS(NTT_OK, ntt_mgpu_large_scatter_u32(pl, 0, a32, (uint32_t *const *)d), "scatter");
        CHECK_STATUS(NTT_OK, ntt_mgpu_large_forward_u32(pl, (uint32_t *const *)d, (uint32_t *const *)d),
                     "forward u32");
        CHECK_STATUS(NTT_OK, ntt_mgpu_large_gather_u32(pl, 1, (uint32_t *const *)d, g32), "gather");
        CHECK_ARR32(r32, g32, n, "large forward u32 n=%zu G=%d flags=%u", n, G, flags);
        CHECK_STATUS(NTT_OK, ntt_mgpu_large_inverse_u32(pl, (uint32_t *const *)d, (uint32_t *const *)d),
                     "inverse u32");
        CHECK_STATUS(NTT_OK, ntt_mgpu_large_gather_u32(pl, 0, (uint32_t *const *)d, g32), "gather");
        CHECK_ARR32(a32, g32, n, "large inverse(forward) u32 n=%zu G=%d", n, G);
        free(a32);
        free(r32);
        free(g32);
    }
    CHECK_STATUS(NTT_OK, ntt_mgpu_stats_get(ctx, &s1), "stats");
    CHECK_EQ(s0.exchanges + 2, s1.exchanges, "one exchange per transform");
    /* Every GPU keeps 1/G of what it sends itself: (G-1)/G of the data
       crosses, each way. */
    uint64_t cross = 0;
    for (int g = 0; g < G; g++) {
        ntt_mgpu_local lg_, lh;
        CHECK_STATUS(NTT_OK, ntt_mgpu_large_local(pl, g, &lg_), "local");
        for (int h = 0; h < G; h++) {
            CHECK_STATUS(NTT_OK, ntt_mgpu_large_local(pl, h, &lh), "local");
            if (h != g) cross += lg_.rows * lh.cols;
        }
    }
    CHECK_EQ(2 * cross * esz, s1.bytes_sent - s0.bytes_sent, "bytes exchanged n=%zu G=%d", n, G);
    for (int l = 0; l < G; l++) {
        (void)cudaSetDevice(l);
        cudaFree(d[l]);
    }
    free(a);
    free(ref);
    free(got);
    ntt_plan_destroy(one);
    ntt_mgpu_large_destroy(pl);
}

static void large_bad(ntt_mgpu_ctx *ctx)
{
    ntt_mgpu_large *pl = NULL;
    uint64_t p = 0;
    /* 2^12 divides p - 1, 2^13 does not. */
    for (unsigned k = 0; k < 64 && (p == 0 || ((p - 1) >> 12) % 2 == 0); k++)
        if (ntt_find_prime(62, 12, k, &p) != NTT_OK) return;
    ntt_plan_options nat = {.flags = NTT_FLAG_NATURAL_ORDER};
    CHECK_STATUS(NTT_EINVAL, ntt_mgpu_large_create(&pl, ctx, 96, p, NTT_U64, NULL), "n");
    CHECK_STATUS(NTT_EINVAL, ntt_mgpu_large_create(&pl, ctx, 1, p, NTT_U64, NULL), "n = 1");
    CHECK_STATUS(NTT_EINVAL, ntt_mgpu_large_create(&pl, NULL, 64, p, NTT_U64, NULL), "ctx");
    CHECK_STATUS(NTT_EINVAL, ntt_mgpu_large_create(&pl, ctx, 64, p, NTT_U64, &nat), "flags");
    CHECK_STATUS(NTT_EMODULUS, ntt_mgpu_large_create(&pl, ctx, 8192, p, NTT_U64, NULL), "2^13 !| p-1");
    CHECK_STATUS(NTT_EMODULUS, ntt_mgpu_large_create(&pl, ctx, 64, p, NTT_U32, NULL), "p >= 2^30");
    CHECK_STATUS(NTT_EMODULUS, ntt_mgpu_large_create(&pl, ctx, 64, 1000003, NTT_U64, NULL), "p");
    CHECK(pl == NULL, "NULL after failures");
    CHECK_STATUS(NTT_OK, ntt_mgpu_large_create(&pl, ctx, 64, p, NTT_U64, NULL), "ok");
    if (!pl) return;
    ntt_mgpu_local loc;
    CHECK_STATUS(NTT_EINVAL, ntt_mgpu_large_local(pl, -1, &loc), "g < 0");
    CHECK_STATUS(NTT_EINVAL, ntt_mgpu_large_local(pl, 99, &loc), "g too large");
    CHECK_STATUS(NTT_EINVAL, ntt_mgpu_large_forward_u64(pl, NULL, NULL), "NULL arrays");
    uint64_t *none[NTT_MGPU_MAX_LOCAL] = {0};
    CHECK_STATUS(NTT_EINVAL, ntt_mgpu_large_forward_u64(pl, none, none), "NULL shares");
    CHECK_STATUS(NTT_EINVAL, ntt_mgpu_large_forward_u32(pl, (uint32_t *const *)none,
                                                        (uint32_t *const *)none), "width");
    CHECK_STATUS(NTT_EINVAL, ntt_mgpu_large_scatter_u64(pl, 2, (uint64_t *)none, none), "layout");
    ntt_mgpu_large_destroy(pl);
}

static void ctx_bad(int ndev)
{
    ntt_mgpu_ctx *ctx = (ntt_mgpu_ctx *)1;
    const int dup[2] = {0, 0}, out[2] = {0, ndev}, neg[2] = {-1, 0};
    CHECK_STATUS(NTT_EINVAL, ntt_mgpu_create(&ctx, dup, 2), "duplicate devices");
    CHECK(ctx == NULL, "ctx NULL on failure");
    CHECK_STATUS(NTT_EINVAL, ntt_mgpu_create(&ctx, out, 2), "device id out of range");
    CHECK_STATUS(NTT_EINVAL, ntt_mgpu_create(&ctx, neg, 2), "negative id");
    CHECK_STATUS(NTT_EINVAL, ntt_mgpu_create(&ctx, NULL, 2), "NULL list with count");
    CHECK_STATUS(NTT_EINVAL, ntt_mgpu_create(&ctx, dup, 0), "list with count 0");
    CHECK_STATUS(NTT_EINVAL, ntt_mgpu_create(&ctx, dup, -1), "count < 0");
    CHECK_STATUS(NTT_EINVAL, ntt_mgpu_create(&ctx, dup, NTT_MGPU_MAX_LOCAL + 1), "too many");
    CHECK_STATUS(NTT_EINVAL, ntt_mgpu_create(NULL, dup, 1), "NULL out");
    ntt_mgpu_info info;
    CHECK_STATUS(NTT_EINVAL, ntt_mgpu_get_info(NULL, &info), "info NULL");
    CHECK(ntt_mgpu_stream(NULL, 0) == NULL, "stream of NULL");
    CHECK_STATUS(NTT_EINVAL, ntt_mgpu_sync(NULL), "sync NULL");
    ntt_mgpu_destroy(NULL);
}

int main(void)
{
    int ndev = 0, G = 0;
    ntt_mgpu_ctx *all = NULL;
    const int rc = mgpu_test_start("test_multigpu", &max_log, &ndev, &all, &G);
    if (rc >= 0) return rc;
    CHECK_EQ(ndev < NTT_MGPU_MAX_LOCAL ? ndev : NTT_MGPU_MAX_LOCAL, G, "every device");
    ctx_bad(ndev);

    /* Contexts of 2, 3 (uneven splits) and all GPUs. */
    const int want[3] = {2, 3, G};
    int sizes[3];
    const int nsizes = mgpu_test_sizes(want, 3, G, sizes);
    for (int si = 0; si < nsizes; si++) {
        const int g = sizes[si];
        ntt_mgpu_ctx *ctx = g == G ? all : mgpu_test_ctx_first(g);
        if (!ctx) continue;
        /* The ranges cover the batch in order. */
        for (size_t total = 0; total < 11; total++) {
            size_t next = 0;
            for (int k = 0; k < g; k++) {
                const ntt_mgpu_range r = ntt_mgpu_range_of(ctx, total, k);
                CHECK_EQ(next, r.first, "range start");
                next += r.count;
                CHECK(r.count <= total / (size_t)g + 1, "ranges even");
            }
            CHECK_EQ(total, next, "ranges cover the batch");
        }
        const size_t nb = (size_t)1 << (max_log < 12 ? max_log : 12);
        const size_t counts[] = {1, (size_t)g - 1, (size_t)g + 1, 7, 13};
        for (size_t ci = 0; ci < sizeof counts / sizeof counts[0]; ci++) {
            if (counts[ci] == 0) continue;
            batch_case(ctx, g, nb, 5, counts[ci], nb, NTT_FLAG_NEGACYCLIC);
            batch_case(ctx, g, nb / 2, 3, counts[ci], nb / 2 + 8, 0);
        }
        batch_u32(ctx, g, nb, 5);
        batch_bad(ctx, g);
        for (unsigned lg = 1; lg <= max_log; lg += (lg < 6 ? 1 : 3)) {
            large_case(ctx, g, (size_t)1 << lg, NTT_U64, 0);
            large_case(ctx, g, (size_t)1 << lg, NTT_U64, NTT_FLAG_NEGACYCLIC);
        }
        large_case(ctx, g, (size_t)1 << (max_log < 11 ? max_log : 11), NTT_U32, NTT_FLAG_NEGACYCLIC);
        large_case(ctx, g, (size_t)1 << (max_log < 9 ? max_log : 9), NTT_U32, 0);
        large_bad(ctx);
        if (ctx != all) ntt_mgpu_destroy(ctx);
    }
    ntt_mgpu_destroy(all);
    return test_finish();
}
