/* The key switch with the RNS limbs partitioned across GPUs
   (ntt_multigpu.h): the limbs each GPU owns (the batches' range rule), one
   CUDA RNS context per local GPU over every prime, the gathers' streams,
   buffers and events; the counters. */
#include "mgpu_internal.h"
#include "fourstep.h"

#include <stdlib.h>
#include <string.h>

typedef struct {
    ntt_mgpu_ks *ks;
    const ntt_rns_params *params;
} ks_arg;

static ntt_status ks_gpu(ntt_mgpu_ctx *ctx, int l, void *arg)
{
    const ks_arg *a = arg;
    ntt_mgpu_ks *ks = a->ks;
    const int g = ctx->first + l;
    ntt_rns_params p = *a->params;
    p.backend = NTT_BACKEND_CUDA;
    p.threads = 0;
    /* The context checks the parameters before the sizes below use them. */
    ntt_status st = ntt_rns_create(&ks->rns[l], &p);
    if (st == NTT_OK)
        st = mgpu_cuda(ctx, cudaStreamCreateWithFlags(&ks->gather[l], cudaStreamNonBlocking));
    uint64_t **bufs[3] = {&ks->coef[l], &ks->ext[l], &ks->pp[l]};
    const size_t rows[3] = {ks->nq, ks->dnum * (ks_qcount(ks, g) + ks_pcount(ks, g)), 2 * ks->np};
    for (int b = 0; b < 3 && st == NTT_OK; b++)
        st = mgpu_cuda(ctx, cudaMalloc((void **)bufs[b], (rows[b] ? rows[b] : 1) * ks->n * 8));
    const size_t ne = ks_events(ks->dnum);
    if (st == NTT_OK && !(ks->ev[l] = calloc(ne, sizeof(cudaEvent_t)))) st = NTT_ENOMEM;
    for (size_t e = 0; e < ne && st == NTT_OK; e++)
        st = mgpu_cuda(ctx, cudaEventCreate(&ks->ev[l][e]));
    return st;
}

static ntt_status ks_gpu_free(ntt_mgpu_ctx *ctx, int l, void *arg)
{
    ntt_mgpu_ks *ks = arg;
    /* Nothing may still run on what is freed. */
    (void)cudaStreamSynchronize(ctx->stream[l]);
    if (ks->gather[l]) {
        (void)cudaStreamSynchronize(ks->gather[l]);
        cudaStreamDestroy(ks->gather[l]);
    }
    ntt_rns_destroy(ks->rns[l]);
    void *bufs[7] = {ks->coef[l], ks->ext[l], ks->pp[l], ks->hbuf[l][0], ks->hbuf[l][1],
                     ks->hbuf[l][2], ks->hbuf[l][3]};
    for (int b = 0; b < 7; b++)
        if (bufs[b]) cudaFree(bufs[b]);
    if (ks->ev[l]) {
        for (size_t e = 0; e < ks_events(ks->dnum); e++)
            if (ks->ev[l][e]) cudaEventDestroy(ks->ev[l][e]);
        free(ks->ev[l]);
    }
    return NTT_OK;
}

void ntt_mgpu_ks_destroy(ntt_mgpu_ks *ks)
{
    if (!ks) return;
    if (ks->q0) (void)mgpu_each(ks->ctx, false, ks_gpu_free, ks);
    (void)cudaGetLastError();
    free(ks->q0);
    free(ks->p0);
    free(ks);
}

/* FNV-1a over the primes, for the processes' agreement on them. */
static uint64_t primes_hash(const ntt_rns_params *p)
{
    uint64_t h = 0xcbf29ce484222325u;
    for (size_t i = 0; p->q && i < p->q_count; i++) h = (h ^ p->q[i]) * 0x100000001b3u;
    for (size_t i = 0; p->p && i < p->p_count; i++) h = (h ^ p->p[i]) * 0x100000001b3u;
    return h;
}

ntt_status ntt_mgpu_ks_create(ntt_mgpu_ks **out, ntt_mgpu_ctx *ctx, const ntt_rns_params *params)
{
    if (out) *out = NULL;
    if (!ctx) return NTT_EINVAL;
    ntt_status st = NTT_OK;
    if (!out || !params || params->p_count == 0 ||
        (params->backend != NTT_BACKEND_CUDA && params->backend != NTT_BACKEND_AUTO) ||
        params->threads < 0 || params->threads > 1)
        st = NTT_EINVAL;
    /* Every process must pass the same parameters: each value and its
       complement, maximised, give the maximum and the minimum. */
    enum { NV = 5 };
    uint64_t mine[NV] = {0};
    if (params) {
        const uint64_t v[NV] = {params->n, params->q_count, params->p_count, params->dnum,
                                primes_hash(params)};
        memcpy(mine, v, sizeof v);
    }
    uint64_t v[1 + 2 * NV] = {(uint64_t)st};
    for (int i = 0; i < NV; i++) {
        v[1 + 2 * i] = mine[i];
        v[2 + 2 * i] = ~mine[i];
    }
    if (mgpu_agree_max(ctx, v, 1 + 2 * NV) != NTT_OK) return NTT_EBACKEND;
    st = (ntt_status)v[0];
    for (int i = 0; i < NV && st == NTT_OK; i++)
        if (v[1 + 2 * i] != ~v[2 + 2 * i]) st = NTT_EINVAL;
    if (st != NTT_OK) return st;

    ntt_mgpu_ks *ks = calloc(1, sizeof *ks);
    if (!ks) return mgpu_agree(ctx, NTT_ENOMEM);
    ks->ctx = ctx;
    ks->n = params->n;
    ks->nq = params->q_count;
    ks->np = params->p_count;
    ks->dnum = params->dnum;
    ks->q0 = malloc(((size_t)ctx->gpus + 1) * sizeof *ks->q0);
    ks->p0 = malloc(((size_t)ctx->gpus + 1) * sizeof *ks->p0);
    if (!ks->q0 || !ks->p0) {
        free(ks->q0);
        ks->q0 = NULL;
        st = NTT_ENOMEM;
    } else {
        for (int g = 0; g <= ctx->gpus; g++) {
            ks->q0[g] = ntt_fs_block_start(ks->nq, g, ctx->gpus);
            /* ceil(K g / G): ntt_multigpu.h's rule. */
            ks->p0[g] = ks->np - ntt_fs_block_start(ks->np, ctx->gpus - g, ctx->gpus);
        }
        ks_arg a = {ks, params};
        st = mgpu_each(ctx, false, ks_gpu, &a);
    }
    if (st == NTT_OK) {
        ks->alpha = ntt_rns_alpha(ks->rns[0]);
        (void)ntt_rns_primes(ks->rns[0], &ks->primes);
    }
    st = mgpu_agree(ctx, st);
    if (st != NTT_OK) {
        ntt_mgpu_ks_destroy(ks);
        return st;
    }
    *out = ks;
    return NTT_OK;
}

ntt_status ntt_mgpu_ks_share_of(const ntt_mgpu_ks *ks, int g, size_t level, ntt_mgpu_ks_share *s)
{
    if (!ks || !s || g < 0 || g >= ks->ctx->gpus || level >= ks->nq) return NTT_EINVAL;
    memset(s, 0, sizeof *s);
    s->q_first = ks->q0[g];
    s->q_count = ks_qcount(ks, g);
    s->q_level = ks_qlevel(ks, g, level);
    s->p_first = ks->p0[g];
    s->p_count = ks_pcount(ks, g);
    s->key_limbs = 2 * ks->dnum * (s->q_count + s->p_count);
    return NTT_OK;
}

/* ---- counters ----------------------------------------------------------------- */

typedef struct {
    ntt_mgpu_ks *ks;
    double total, compute, up, down; /* milliseconds, the slowest local GPU's */
} times_arg;

static ntt_status times_gpu(ntt_mgpu_ctx *ctx, int l, void *arg)
{
    times_arg *t = arg;
    const ntt_mgpu_ks *ks = t->ks;
    cudaEvent_t *ev = ks->ev[l];
    const size_t beta = ks->last_beta, dn = ks->dnum;
    ntt_status st = mgpu_cuda(ctx, cudaEventSynchronize(ev[KS_EV_END]));
    /* The spans: compute-stream segments between its waits, and the two
       gathers on the other stream. */
    const cudaEvent_t seg[][2] = {{ev[KS_EV_START], ev[KS_EV_INTT]},
                                  {ev[KS_EV_DIG + 2 * dn + ks->last_digit[l]], ev[KS_EV_QIN]},
                                  {ev[KS_EV_DOWN], ev[KS_EV_END]},
                                  {ev[KS_EV_START], ev[KS_EV_END]},
                                  {ev[KS_EV_INTT], ev[KS_EV_DIG + beta - 1]},
                                  {ev[KS_EV_INNER], ev[KS_EV_PG]}};
    float ms[6] = {0};
    for (int i = 0; i < 6 && st == NTT_OK; i++)
        st = mgpu_cuda(ctx, cudaEventElapsedTime(&ms[i], seg[i][0], seg[i][1]));
    double compute = (double)ms[0] + ms[1] + ms[2];
    for (size_t j = 0; j < beta && st == NTT_OK; j++) {
        float c = 0;
        st = mgpu_cuda(ctx, cudaEventElapsedTime(&c, ev[KS_EV_DIG + dn + j], ev[KS_EV_DIG + 2 * dn + j]));
        compute += c;
    }
    if (st != NTT_OK) return st;
    if (ms[3] > t->total) t->total = ms[3];
    if (compute > t->compute) t->compute = compute;
    if (ms[4] > t->up) t->up = ms[4];
    if (ms[5] > t->down) t->down = ms[5];
    return NTT_OK;
}

ntt_status ntt_mgpu_ks_stats_get(ntt_mgpu_ks *ks, ntt_mgpu_ks_stats *s)
{
    if (!ks || !s) return NTT_EINVAL;
    if (ks->timed) {
        times_arg t = {ks, 0, 0, 0, 0};
        const ntt_status st = mgpu_each(ks->ctx, false, times_gpu, &t);
        if (st != NTT_OK) return st;
        ks->stats.total_s = t.total * 1e-3;
        ks->stats.compute_s = t.compute * 1e-3;
        ks->stats.modup_gather_s = t.up * 1e-3;
        ks->stats.moddown_gather_s = t.down * 1e-3;
        ks->timed = false;
    }
    *s = ks->stats;
    return NTT_OK;
}

void ntt_mgpu_ks_stats_reset(ntt_mgpu_ks *ks)
{
    if (!ks) return;
    memset(&ks->stats, 0, sizeof ks->stats);
    ks->timed = false;
}
