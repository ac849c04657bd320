/* The four-step transforms across GPUs (the layout of large_plan.c).
   Forward on GPU g: row transforms in place, one transpose into the
   outgoing blocks (block d: the columns of GPU d, each a run of g's rows),
   the exchange, the runs gathered into whole columns (2D copies), the
   column twists (pointwise product with a table), the column transforms.
   Inverse: the mirror image.  Every GPU's work is enqueued on its stream
   (the exchange too: NCCL, or within one process each GPU copying its
   blocks from the others, ntt_mgpu_set_copy), then the call waits for all
   of them. */
#include "mgpu_internal.h"

#define AT(base, i) ((char *)(base) + (size_t)(i) * pl->esz)

typedef struct {
    ntt_mgpu_large *pl;
    void *const *in;
    void *const *out;
    bool inverse;
    double exchange_ms, compute_ms; /* the slowest local GPU's */
} large_call;

static ntt_status transform(ntt_plan *p, ntt_width w, void *d, size_t count, size_t stride,
                            cudaStream_t s, bool inverse)
{
    if (!p || count == 0) return NTT_OK;
    const ntt_cuda_stream ns = (ntt_cuda_stream)s;
    if (w == NTT_U32)
        return inverse ? ntt_cuda_inverse_u32(p, d, count, stride, ns)
                       : ntt_cuda_forward_u32(p, d, count, stride, ns);
    return inverse ? ntt_cuda_inverse_u64(p, d, count, stride, ns)
                   : ntt_cuda_forward_u64(p, d, count, stride, ns);
}

static ntt_status twist(ntt_plan *p, ntt_width w, void *d, const void *tw, size_t count,
                        size_t stride, cudaStream_t s)
{
    if (count == 0) return NTT_OK;
    const ntt_cuda_stream ns = (ntt_cuda_stream)s;
    if (w == NTT_U32) return ntt_cuda_pointwise_u32(p, d, d, tw, count, stride, ns);
    return ntt_cuda_pointwise_u64(p, d, d, tw, count, stride, ns);
}

/* Before the exchange. */
static ntt_status phase1(ntt_mgpu_ctx *ctx, int l, void *arg)
{
    const large_call *c = arg;
    ntt_mgpu_large *pl = c->pl;
    const int g = ctx->first + l;
    const size_t R = mgpu_rows(pl, g), C = mgpu_cols(pl, g), n1 = pl->n1, n2 = pl->n2;
    const cudaStream_t s = ctx->stream[l];
    ntt_status st = mgpu_cuda(ctx, cudaEventRecord(pl->ev[l][EV_START], s));
    if (st != NTT_OK) return st;
    if (!c->inverse) {
        st = transform(pl->row[l], pl->width, c->in[l], R, n2, s, false);
        if (st == NTT_OK && R)
            st = mgpu_cuda(ctx, mgpu_transpose(pl->sbuf[l], R, c->in[l], n2, R, n2, pl->esz, s));
    } else {
        st = transform(pl->col[l], pl->width, c->in[l], C, n1, s, true);
        if (st == NTT_OK) st = twist(pl->col[l], pl->width, c->in[l], pl->twi[l], C, n1, s);
        /* Column runs for GPU r: its rows, block [c][j] at C * row0[r]. */
        for (int r = 0; r < ctx->gpus && st == NTT_OK && C; r++) {
            const size_t Rr = mgpu_rows(pl, r);
            if (Rr == 0) continue;
            st = mgpu_cuda(ctx, cudaMemcpy2DAsync(AT(pl->sbuf[l], C * pl->row0[r]), Rr * pl->esz,
                                                  AT(c->in[l], pl->row0[r]), n1 * pl->esz,
                                                  Rr * pl->esz, C, cudaMemcpyDeviceToDevice, s));
        }
    }
    if (st == NTT_OK) st = mgpu_cuda(ctx, cudaEventRecord(pl->ev[l][EV_SEND], s));
    return st;
}

/* The exchange's sends and receives of local GPU l (inside a group). */
static ntt_status exchange(ntt_mgpu_ctx *ctx, int l, void *arg)
{
    const large_call *c = arg;
    ntt_mgpu_large *pl = c->pl;
    const int g = ctx->first + l;
    const size_t R = mgpu_rows(pl, g), C = mgpu_cols(pl, g);
    const ncclDataType_t t = pl->width == NTT_U32 ? ncclUint32 : ncclUint64;
    const cudaStream_t s = ctx->stream[l];
    ntt_status st = NTT_OK;
    for (int d = 0; d < ctx->gpus && st == NTT_OK; d++) {
        const size_t Rd = mgpu_rows(pl, d), Cd = mgpu_cols(pl, d);
        /* Forward: to d the columns of d of my rows, from d my columns of
           d's rows; inverse: the reverse. */
        const size_t sn = c->inverse ? C * Rd : Cd * R, rn = c->inverse ? Cd * R : C * Rd;
        const size_t so = c->inverse ? C * pl->row0[d] : pl->col0[d] * R;
        const size_t ro = c->inverse ? pl->col0[d] * R : C * pl->row0[d];
        if (sn) {
            st = mgpu_nccl(ctx, ncclSend(AT(pl->sbuf[l], so), sn, t, d, ctx->comm[l], s));
            if (d != g) ctx->stats.bytes_sent += sn * pl->esz;
        }
        if (st == NTT_OK && rn)
            st = mgpu_nccl(ctx, ncclRecv(AT(pl->rbuf[l], ro), rn, t, d, ctx->comm[l], s));
    }
    return st;
}

/* The exchange by peer copies (one process: local and global indices
   agree): GPU l copies each GPU d's block for it, once d's blocks are
   ready, on its own stream.  No call starts before the last one's copies
   are done (run waits for every stream). */
static ntt_status exchange_peer(ntt_mgpu_ctx *ctx, int l, void *arg)
{
    const large_call *c = arg;
    ntt_mgpu_large *pl = c->pl;
    const size_t R = mgpu_rows(pl, l), C = mgpu_cols(pl, l);
    const cudaStream_t s = ctx->stream[l];
    ntt_status st = NTT_OK;
    for (int d = 0; d < ctx->gpus && st == NTT_OK; d++) {
        const size_t Rd = mgpu_rows(pl, d), Cd = mgpu_cols(pl, d);
        /* exchange()'s receive from d, and d's send to l. */
        const size_t rn = c->inverse ? Cd * R : C * Rd;
        const size_t ro = c->inverse ? pl->col0[d] * R : C * pl->row0[d];
        const size_t so = c->inverse ? Cd * pl->row0[l] : pl->col0[l] * Rd;
        if (!rn) continue;
        if (d != l) {
            st = mgpu_cuda(ctx, cudaStreamWaitEvent(s, pl->ev[d][EV_SEND], 0));
            ctx->stats.bytes_sent += rn * pl->esz;
        }
        if (st == NTT_OK)
            st = mgpu_cuda(ctx, cudaMemcpyPeerAsync(AT(pl->rbuf[l], ro), ctx->dev[l],
                                                    AT(pl->sbuf[d], so), ctx->dev[d], rn * pl->esz, s));
    }
    return st;
}

/* After the exchange. */
static ntt_status phase2(ntt_mgpu_ctx *ctx, int l, void *arg)
{
    const large_call *c = arg;
    ntt_mgpu_large *pl = c->pl;
    const int g = ctx->first + l;
    const size_t R = mgpu_rows(pl, g), C = mgpu_cols(pl, g), n1 = pl->n1, n2 = pl->n2;
    const cudaStream_t s = ctx->stream[l];
    ntt_status st = mgpu_cuda(ctx, cudaEventRecord(pl->ev[l][EV_RECV], s));
    if (st != NTT_OK) return st;
    if (!c->inverse) {
        /* From GPU r: block [c][j] (j < rows of r) at C * row0[r]. */
        for (int r = 0; r < ctx->gpus && st == NTT_OK && C; r++) {
            const size_t Rr = mgpu_rows(pl, r);
            if (Rr == 0) continue;
            st = mgpu_cuda(ctx, cudaMemcpy2DAsync(AT(c->out[l], pl->row0[r]), n1 * pl->esz,
                                                  AT(pl->rbuf[l], C * pl->row0[r]), Rr * pl->esz,
                                                  Rr * pl->esz, C, cudaMemcpyDeviceToDevice, s));
        }
        if (st == NTT_OK) st = twist(pl->col[l], pl->width, c->out[l], pl->twf[l], C, n1, s);
        if (st == NTT_OK) st = transform(pl->col[l], pl->width, c->out[l], C, n1, s, false);
    } else {
        /* The blocks arrived as the n2 x R transpose of the rows. */
        if (R) st = mgpu_cuda(ctx, mgpu_transpose(c->out[l], n2, pl->rbuf[l], R, n2, R, pl->esz, s));
        if (st == NTT_OK) st = transform(pl->row[l], pl->width, c->out[l], R, n2, s, true);
    }
    if (st == NTT_OK) st = mgpu_cuda(ctx, cudaEventRecord(pl->ev[l][EV_END], s));
    return st;
}

static ntt_status finish(ntt_mgpu_ctx *ctx, int l, void *arg)
{
    large_call *c = arg;
    ntt_mgpu_large *pl = c->pl;
    ntt_status st = mgpu_cuda(ctx, cudaStreamSynchronize(ctx->stream[l]));
    float a = 0, b = 0, x = 0;
    cudaEvent_t *ev = pl->ev[l];
    if (st == NTT_OK) st = mgpu_cuda(ctx, cudaEventElapsedTime(&a, ev[EV_START], ev[EV_SEND]));
    if (st == NTT_OK) st = mgpu_cuda(ctx, cudaEventElapsedTime(&x, ev[EV_SEND], ev[EV_RECV]));
    if (st == NTT_OK) st = mgpu_cuda(ctx, cudaEventElapsedTime(&b, ev[EV_RECV], ev[EV_END]));
    if (st == NTT_OK) {
        if (x > c->exchange_ms) c->exchange_ms = x;
        if (a + b > c->compute_ms) c->compute_ms = a + b;
    }
    return st;
}

static ntt_status run(ntt_mgpu_large *pl, ntt_width w, void *const *in, void *const *out,
                      bool inverse)
{
    if (!pl) return NTT_EINVAL;
    ntt_mgpu_ctx *ctx = pl->ctx;
    ntt_status st = NTT_OK;
    if (w != pl->width || !in || !out) st = NTT_EINVAL;
    for (int l = 0; l < ctx->local && st == NTT_OK; l++) {
        const int g = ctx->first + l;
        const size_t ic = mgpu_rows(pl, g) * pl->n2, oc = mgpu_cols(pl, g) * pl->n1;
        if (((inverse ? oc : ic) && !in[l]) || ((inverse ? ic : oc) && !out[l])) st = NTT_EINVAL;
    }
    st = mgpu_agree(ctx, st);
    if (st != NTT_OK) return st;
    large_call call = {pl, in, out, inverse, 0, 0};
    st = mgpu_each(ctx, false, phase1, &call);
    /* Other processes exchange whatever happened here: join them (the
       data is not used then), or they would wait for ever. */
    if (st == NTT_OK || ctx->processes > 1) {
        const ntt_status s2 = mgpu_peer(ctx) ? mgpu_each(ctx, false, exchange_peer, &call)
                                             : mgpu_group(ctx, exchange, &call);
        if (st == NTT_OK) st = s2;
        ctx->stats.exchanges++;
    }
    if (st == NTT_OK) st = mgpu_each(ctx, false, phase2, &call);
    /* Wait even after a failure: no work may still use the caller's arrays. */
    const ntt_status s3 = mgpu_each(ctx, false, finish, &call);
    if (st == NTT_OK) st = s3;
    ctx->stats.exchange_s += call.exchange_ms * 1e-3;
    ctx->stats.compute_s += call.compute_ms * 1e-3;
    /* A GPU can fail after the exchange: one more agreement. */
    return mgpu_agree(ctx, st);
}

#define LARGE_API(SUF, TY, W)                                                                 \
    ntt_status ntt_mgpu_large_forward_##SUF(ntt_mgpu_large *plan, TY *const *d_in,            \
                                            TY *const *d_out)                                 \
    { return run(plan, W, (void *const *)d_in, (void *const *)d_out, false); }               \
    ntt_status ntt_mgpu_large_inverse_##SUF(ntt_mgpu_large *plan, TY *const *d_in,            \
                                            TY *const *d_out)                                 \
    { return run(plan, W, (void *const *)d_in, (void *const *)d_out, true); }

LARGE_API(u32, uint32_t, NTT_U32)
LARGE_API(u64, uint64_t, NTT_U64)
