/* The key switch with limbs partitioned: the host-pointer call
   (ntt_multigpu.h).  Whole polynomials in ntt_rns.h's layout: the input's
   limbs of this process's GPUs range-checked, each GPU's shares copied to
   the buffers its first call made, the device-pointer call, the results
   copied back; each GPU's copies from its own host thread. */
#include "mgpu_internal.h"
#include "ntt_internal.h"

enum { H_IN, H_KEY, H_OUT0, H_OUT1 };

typedef struct {
    ntt_mgpu_ks *ks;
    size_t l;
    const uint64_t *in, *key;
    uint64_t *out0, *out1;
    bool back; /* the key switch ran: copy its results back */
} host_call;

static ntt_status alloc_gpu(ntt_mgpu_ctx *ctx, int l, void *arg)
{
    ntt_mgpu_ks *ks = arg;
    const int g = ctx->first + l;
    const size_t qc = ks_qcount(ks, g), rows[4] = {qc, 2 * ks->dnum * (qc + ks_pcount(ks, g)), qc, qc};
    ntt_status st = NTT_OK;
    for (int b = 0; b < 4 && st == NTT_OK; b++)
        if (!ks->hbuf[l][b])
            st = mgpu_cuda(ctx, cudaMalloc((void **)&ks->hbuf[l][b], (rows[b] ? rows[b] : 1) * ks->n * 8));
    return st;
}

/* NTT_ERANGE if a word of the GPU's input limbs is not below its prime. */
static ntt_status check_gpu(ntt_mgpu_ctx *ctx, int l, void *arg)
{
    const host_call *h = arg;
    const ntt_mgpu_ks *ks = h->ks;
    const int g = ctx->first + l;
    const size_t n = ks->n, q0 = ks->q0[g], qn = ks_qlevel(ks, g, h->l);
    for (size_t i = q0; i < q0 + qn; i++) {
        const uint64_t p = ks->primes[i], *x = h->in + i * n;
        for (size_t k = 0; k < n; k++)
            if (x[k] >= p) return NTT_ERANGE;
    }
    return NTT_OK;
}

static ntt_status h2d(ntt_mgpu_ctx *ctx, int l, uint64_t *d, const uint64_t *h, size_t words)
{
    if (!words) return NTT_OK;
    return mgpu_cuda(ctx, cudaMemcpyAsync(d, h, words * 8, cudaMemcpyHostToDevice, ctx->stream[l]));
}

/* The input limbs and the key limbs the call reads (digits j < beta(l), of
   each polynomial the GPU's Q limbs of Q_l and its P limbs), on the
   context stream, ahead of the key switch's work there. */
static ntt_status up_gpu(ntt_mgpu_ctx *ctx, int l, void *arg)
{
    const host_call *h = arg;
    const ntt_mgpu_ks *ks = h->ks;
    const int g = ctx->first + l;
    const size_t n = ks->n, q0 = ks->q0[g], qn = ks_qlevel(ks, g, h->l), qc = ks_qcount(ks, g);
    const size_t p0 = ks->p0[g], pn = ks_pcount(ks, g), nl = ks->nq + ks->np;
    const size_t beta = ntt_rns_digits(ks->rns[l], h->l);
    ntt_status st = h2d(ctx, l, ks->hbuf[l][H_IN], h->in + q0 * n, qn * n);
    for (size_t poly = 0; poly < 2 * beta && st == NTT_OK; poly++) {
        uint64_t *dst = ks->hbuf[l][H_KEY] + poly * (qc + pn) * n;
        st = h2d(ctx, l, dst, h->key + (poly * nl + q0) * n, qn * n);
        if (st == NTT_OK)
            st = h2d(ctx, l, dst + qc * n, h->key + (poly * nl + ks->nq + p0) * n, pn * n);
    }
    return st;
}

/* The results back, once the GPU is done (waited for after a failure too,
   without the copies: no work may still use the buffers afterwards). */
static ntt_status down_gpu(ntt_mgpu_ctx *ctx, int l, void *arg)
{
    const host_call *h = arg;
    const ntt_mgpu_ks *ks = h->ks;
    const int g = ctx->first + l;
    const size_t n = ks->n, q0 = ks->q0[g], qn = ks_qlevel(ks, g, h->l);
    const cudaStream_t s = ctx->stream[l];
    ntt_status st = NTT_OK;
    for (int z = 0; z < 2 && st == NTT_OK && qn && h->back; z++)
        st = mgpu_cuda(ctx, cudaMemcpyAsync((z ? h->out1 : h->out0) + q0 * n,
                                            ks->hbuf[l][z ? H_OUT1 : H_OUT0], qn * n * 8,
                                            cudaMemcpyDeviceToHost, s));
    const ntt_status s2 = mgpu_cuda(ctx, cudaStreamSynchronize(s));
    return st != NTT_OK ? st : s2;
}

ntt_status ntt_mgpu_keyswitch_host(ntt_mgpu_ks *ks, size_t n, size_t level, const uint64_t *in,
                                   size_t in_limbs, const uint64_t *key, size_t key_limbs,
                                   uint64_t *out0, uint64_t *out1, size_t out_limbs)
{
    if (!ks) return NTT_EINVAL;
    ntt_mgpu_ctx *ctx = ks->ctx;
    ntt_status st = mgpu_ks_args(ks, n, level, in_limbs, key_limbs, out_limbs);
    if (st == NTT_OK) {
        const size_t b = (level + 1) * n * 8, kb = key_limbs * n * 8;
        if (!in || !key || !out0 || !out1 || ntt_overlaps(out0, b, out1, b) ||
            ntt_overlaps(out0, b, in, b) || ntt_overlaps(out1, b, in, b) ||
            ntt_overlaps(out0, b, key, kb) || ntt_overlaps(out1, b, key, kb))
            st = NTT_EINVAL;
    }
    host_call h = {ks, level, in, key, out0, out1, false};
    if (st == NTT_OK) st = mgpu_each(ctx, true, check_gpu, &h);
    st = mgpu_agree(ctx, st);
    if (st == NTT_OK) st = mgpu_agree(ctx, mgpu_each(ctx, false, alloc_gpu, ks));
    if (st == NTT_OK) st = mgpu_agree(ctx, mgpu_each(ctx, true, up_gpu, &h));
    if (st != NTT_OK) return st;
    const uint64_t *din[NTT_MGPU_MAX_LOCAL], *dkey[NTT_MGPU_MAX_LOCAL];
    uint64_t *dout0[NTT_MGPU_MAX_LOCAL], *dout1[NTT_MGPU_MAX_LOCAL];
    for (int l = 0; l < ctx->local; l++) {
        din[l] = ks->hbuf[l][H_IN];
        dkey[l] = ks->hbuf[l][H_KEY];
        dout0[l] = ks->hbuf[l][H_OUT0];
        dout1[l] = ks->hbuf[l][H_OUT1];
    }
    st = mgpu_ks_run(ks, level, din, dkey, dout0, dout1);
    h.back = st == NTT_OK;
    const ntt_status s2 = mgpu_each(ctx, true, down_gpu, &h);
    return mgpu_agree(ctx, st != NTT_OK ? st : s2);
}
