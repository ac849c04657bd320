/* The four-step plan across GPUs: the split and every GPU's rows and
   columns (src/core/fourstep.h, as libntt_mpi), the column twists as
   tables (applied by the CUDA plans' pointwise product), message buffers,
   events, and the scatter/gather between a host array and the shares. */
#include "mgpu_internal.h"
#include "fourstep.h"

#include <stdlib.h>
#include <string.h>

/* A copy on GPU l's stream, complete on return: ordered after the work
   enqueued there (cudaMemcpy runs on the legacy stream, which the
   context's non-blocking streams do not wait for, and from pageable
   memory it may return before its DMA lands). */
static ntt_status copy_on_stream(ntt_mgpu_ctx *ctx, int l, void *dst, const void *src,
                                 size_t bytes, enum cudaMemcpyKind kind)
{
    ntt_status st = mgpu_cuda(ctx, cudaMemcpyAsync(dst, src, bytes, kind, ctx->stream[l]));
    const ntt_status s2 = mgpu_cuda(ctx, cudaStreamSynchronize(ctx->stream[l]));
    return st != NTT_OK ? st : s2;
}

static void store(void *t, size_t i, uint64_t v, size_t esz)
{
    if (esz == 4)
        ((uint32_t *)t)[i] = (uint32_t)v;
    else
        ((uint64_t *)t)[i] = v;
}

/* Column k's twist factors: g^j1 (forward) and g^-j1 (inverse), j1 < n1,
   with g = w^k2 (cyclic, w of order n) or psi^(2 k2 + 1) (negacyclic, psi
   of order 2n: the psi^j twist of the coefficients and the w^(j1 k2)
   twiddles in one factor), k2 = brv(k, n2). */
static void twists(const ntt_mgpu_large *pl, size_t k, void *fw, void *inv, size_t at)
{
    const bool nega = (pl->flags & NTT_FLAG_NEGACYCLIC) != 0;
    const uint64_t N = nega ? 2 * (uint64_t)pl->n : (uint64_t)pl->n, q = pl->p;
    const uint64_t root = ntt_fs_root(q, N), k2 = ntt_fs_brv(k, pl->n2);
    const uint64_t e = nega ? 2 * k2 + 1 : k2;
    const uint64_t g = ntt_fs_powmod(root, e, q), gi = ntt_fs_powmod(root, (N - e) % N, q);
    uint64_t f = 1, fi = 1;
    for (size_t j = 0; j < pl->n1; j++) {
        store(fw, at + j, f, pl->esz);
        store(inv, at + j, fi, pl->esz);
        f = ntt_mulmod_slow(f, g, q);
        fi = ntt_mulmod_slow(fi, gi, q);
    }
}

static ntt_status large_gpu(ntt_mgpu_ctx *ctx, int l, void *arg)
{
    ntt_mgpu_large *pl = arg;
    const int g = ctx->first + l;
    const size_t rows = mgpu_rows(pl, g), cols = mgpu_cols(pl, g);
    const size_t in = rows * pl->n2, out = cols * pl->n1, alloc = in > out ? in : out;
    ntt_plan_options lo = {0};
    lo.modmul = pl->modmul;
    ntt_status st = ntt_plan_create(&pl->col[l], pl->n1, pl->p, pl->width, NTT_BACKEND_CUDA, &lo);
    if (st == NTT_OK && pl->n2 > 1) {
        lo.flags = pl->flags;
        st = ntt_plan_create(&pl->row[l], pl->n2, pl->p, pl->width, NTT_BACKEND_CUDA, &lo);
    }
    void **bufs[4] = {&pl->sbuf[l], &pl->rbuf[l], &pl->twf[l], &pl->twi[l]};
    const size_t sizes[4] = {alloc, alloc, out, out};
    for (int b = 0; b < 4 && st == NTT_OK; b++)
        st = mgpu_cuda(ctx, cudaMalloc(bufs[b], (sizes[b] ? sizes[b] : 1) * pl->esz));
    for (int e = 0; e < EV_COUNT && st == NTT_OK; e++)
        st = mgpu_cuda(ctx, cudaEventCreate(&pl->ev[l][e]));
    if (st != NTT_OK || out == 0) return st;
    void *hf = malloc(out * pl->esz), *hi = malloc(out * pl->esz);
    if (!hf || !hi) st = NTT_ENOMEM;
    for (size_t c = 0; c < cols && st == NTT_OK; c++)
        twists(pl, pl->col0[g] + c, hf, hi, c * pl->n1);
    if (st == NTT_OK)
        st = copy_on_stream(ctx, l, pl->twf[l], hf, out * pl->esz, cudaMemcpyHostToDevice);
    if (st == NTT_OK)
        st = copy_on_stream(ctx, l, pl->twi[l], hi, out * pl->esz, cudaMemcpyHostToDevice);
    free(hf);
    free(hi);
    return st;
}

static ntt_status large_gpu_free(ntt_mgpu_ctx *ctx, int l, void *arg)
{
    (void)ctx;
    ntt_mgpu_large *pl = arg;
    ntt_plan_destroy(pl->row[l]);
    ntt_plan_destroy(pl->col[l]);
    void *bufs[4] = {pl->sbuf[l], pl->rbuf[l], pl->twf[l], pl->twi[l]};
    for (int b = 0; b < 4; b++)
        if (bufs[b]) cudaFree(bufs[b]);
    for (int e = 0; e < EV_COUNT; e++)
        if (pl->ev[l][e]) cudaEventDestroy(pl->ev[l][e]);
    return NTT_OK;
}

void ntt_mgpu_large_destroy(ntt_mgpu_large *pl)
{
    if (!pl) return;
    if (pl->row0) (void)mgpu_each(pl->ctx, false, large_gpu_free, pl);
    (void)cudaGetLastError();
    free(pl->row0);
    free(pl->col0);
    free(pl);
}

/* An NTT prime for the plan (n | p-1, 2n | p-1 negacyclic, below the
   width's limit). */
static bool prime_ok(uint64_t p, size_t n, ntt_width w, unsigned flags)
{
    const uint64_t N = (flags & NTT_FLAG_NEGACYCLIC) ? 2 * (uint64_t)n : (uint64_t)n;
    const uint64_t lim = w == NTT_U32 ? (uint64_t)1 << 30 : (uint64_t)1 << 62;
    return p > 2 && p < lim && ntt_is_prime(p) && (p - 1) % N == 0;
}

ntt_status ntt_mgpu_large_create(ntt_mgpu_large **out, ntt_mgpu_ctx *ctx, size_t n, uint64_t p,
                                 ntt_width width, const ntt_plan_options *opts)
{
    if (out) *out = NULL;
    if (!ctx) return NTT_EINVAL;
    ntt_plan_options o = {0};
    if (opts) o = *opts;
    ntt_status st = NTT_OK;
    if (!out || n < 2 || (n & (n - 1)) || n > ((size_t)1 << NTT_MAX_LOG2_N) ||
        (width != NTT_U32 && width != NTT_U64) || (o.flags & ~NTT_FLAG_NEGACYCLIC) ||
        (unsigned)o.modmul > NTT_MODMUL_SHOUP)
        st = NTT_EINVAL;
    else if (!prime_ok(p, n, width, o.flags))
        st = NTT_EMODULUS;
    /* Every process must pass the same n, p, width and flags: each value
       and its complement, maximised, give the maximum and the minimum. */
    const uint64_t mine[4] = {n, p, (uint64_t)width, o.flags};
    uint64_t v[9] = {(uint64_t)st};
    for (int i = 0; i < 4; i++) {
        v[1 + 2 * i] = mine[i];
        v[2 + 2 * i] = ~mine[i];
    }
    if (mgpu_agree_max(ctx, v, 9) != NTT_OK) return NTT_EBACKEND;
    st = (ntt_status)v[0];
    for (int i = 0; i < 4 && st == NTT_OK; i++)
        if (v[1 + 2 * i] != ~v[2 + 2 * i]) st = NTT_EINVAL;
    if (st != NTT_OK) return st;
    ntt_mgpu_large *pl = calloc(1, sizeof *pl);
    if (!pl) return mgpu_agree(ctx, NTT_ENOMEM);
    pl->ctx = ctx;
    pl->n = n;
    pl->p = p;
    pl->width = width;
    pl->esz = width == NTT_U32 ? 4 : 8;
    pl->flags = o.flags;
    pl->modmul = o.modmul;
    ntt_fs_split(n, &pl->n1, &pl->n2);
    pl->row0 = malloc(((size_t)ctx->gpus + 1) * sizeof *pl->row0);
    pl->col0 = malloc(((size_t)ctx->gpus + 1) * sizeof *pl->col0);
    if (!pl->row0 || !pl->col0) {
        free(pl->row0);
        pl->row0 = NULL;
        st = NTT_ENOMEM;
    } else {
        for (int g = 0; g <= ctx->gpus; g++) {
            pl->row0[g] = ntt_fs_block_start(pl->n1, g, ctx->gpus);
            pl->col0[g] = ntt_fs_block_start(pl->n2, g, ctx->gpus);
        }
        st = mgpu_each(ctx, false, large_gpu, pl);
    }
    st = mgpu_agree(ctx, st);
    if (st != NTT_OK) {
        ntt_mgpu_large_destroy(pl);
        return st;
    }
    *out = pl;
    return NTT_OK;
}

ntt_status ntt_mgpu_large_local(const ntt_mgpu_large *pl, int g, ntt_mgpu_local *l)
{
    if (!pl || !l || g < 0 || g >= pl->ctx->gpus) return NTT_EINVAL;
    memset(l, 0, sizeof *l);
    l->n = pl->n;
    l->n1 = pl->n1;
    l->n2 = pl->n2;
    l->row_start = pl->row0[g];
    l->rows = mgpu_rows(pl, g);
    l->in_count = l->rows * pl->n2;
    l->col_start = pl->col0[g];
    l->cols = mgpu_cols(pl, g);
    l->out_start = l->col_start * pl->n1;
    l->out_count = l->cols * pl->n1;
    l->alloc = l->in_count > l->out_count ? l->in_count : l->out_count;
    return NTT_OK;
}

/* ---- scatter and gather ---------------------------------------------------------- */

typedef struct {
    ntt_mgpu_large *pl;
    int spectrum;
    void *host;
    void *const *d;
    bool to_device;
} xfer_arg;

static ntt_status xfer_gpu(ntt_mgpu_ctx *ctx, int l, void *arg)
{
    const xfer_arg *x = arg;
    const ntt_mgpu_large *pl = x->pl;
    const int g = ctx->first + l;
    const size_t esz = pl->esz;
    if (x->spectrum) {
        const size_t start = pl->col0[g] * pl->n1, count = mgpu_cols(pl, g) * pl->n1;
        if (count == 0) return NTT_OK;
        char *h = (char *)x->host + start * esz;
        return x->to_device ? copy_on_stream(ctx, l, x->d[l], h, count * esz, cudaMemcpyHostToDevice)
                            : copy_on_stream(ctx, l, h, x->d[l], count * esz, cudaMemcpyDeviceToHost);
    }
    const size_t R = mgpu_rows(pl, g), r0 = pl->row0[g], n1 = pl->n1, n2 = pl->n2;
    if (R == 0) return NTT_OK;
    char *tmp = malloc(R * n2 * esz);
    if (!tmp) return NTT_ENOMEM;
    ntt_status st = NTT_OK;
    /* Local element (j1 - r0) * n2 + j2 is coefficient j1 + n1 * j2. */
    if (x->to_device) {
        for (size_t j = 0; j < R; j++)
            for (size_t j2 = 0; j2 < n2; j2++)
                memcpy(tmp + (j * n2 + j2) * esz, (const char *)x->host + (r0 + j + n1 * j2) * esz, esz);
        st = copy_on_stream(ctx, l, x->d[l], tmp, R * n2 * esz, cudaMemcpyHostToDevice);
    } else {
        st = copy_on_stream(ctx, l, tmp, x->d[l], R * n2 * esz, cudaMemcpyDeviceToHost);
        for (size_t j = 0; j < R && st == NTT_OK; j++)
            for (size_t j2 = 0; j2 < n2; j2++)
                memcpy((char *)x->host + (r0 + j + n1 * j2) * esz, tmp + (j * n2 + j2) * esz, esz);
    }
    free(tmp);
    return st;
}

static ntt_status xfer(ntt_mgpu_large *pl, ntt_width w, int spectrum, void *host, void *const *d,
                       bool to_device)
{
    if (!pl || w != pl->width || !host || !d || (spectrum != 0 && spectrum != 1)) return NTT_EINVAL;
    ntt_mgpu_ctx *ctx = pl->ctx;
    for (int l = 0; l < ctx->local; l++) {
        const int g = ctx->first + l;
        const size_t cnt = spectrum ? mgpu_cols(pl, g) * pl->n1 : mgpu_rows(pl, g) * pl->n2;
        if (cnt && !d[l]) return NTT_EINVAL;
    }
    xfer_arg x = {pl, spectrum, host, d, to_device};
    return mgpu_each(ctx, false, xfer_gpu, &x);
}

#define XFER_API(SUF, TY, W)                                                                  \
    ntt_status ntt_mgpu_large_scatter_##SUF(ntt_mgpu_large *plan, int spectrum, const TY *host, \
                                            TY *const *d_local)                               \
    { return xfer(plan, W, spectrum, (void *)host, (void *const *)d_local, true); }           \
    ntt_status ntt_mgpu_large_gather_##SUF(ntt_mgpu_large *plan, int spectrum,                \
                                           TY *const *d_local, TY *host)                      \
    { return xfer(plan, W, spectrum, host, (void *const *)d_local, false); }

XFER_API(u32, uint32_t, NTT_U32)
XFER_API(u64, uint64_t, NTT_U64)
