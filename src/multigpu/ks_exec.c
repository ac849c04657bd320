/* The key switch with limbs partitioned: the device-pointer call
   (ntt_multigpu.h).  Each GPU's work goes to two streams: its context
   stream S (the input's INTT, each digit's conversion and transforms, the
   inner product, modDown) and its gathers' stream K (one NCCL group of
   sends and receives per digit, one for modDown's P rows; or, within one
   process, peer copies from the rows' owners), ordered by events: K starts
   when S has the input in coefficient form (with peer copies: when every
   GPU's S has it); digit j's conversion on S waits for digit
   j's gather only, so that the gather of digit j+1 runs meanwhile, and a
   GPU converts first the digits it owns whole, which wait for none; S's
   modDown waits for the P rows' gather, which waits for S's inner product
   (with peer copies: every GPU's, and S's modDown for every GPU's gather,
   so that no GPU's next call overwrites rows another is still copying).
   The stages are the window pieces of the CUDA RNS stages
   (src/rns/rns_cuda.h) on the GPU's limbs. */
#include "mgpu_internal.h"
#include "ntt_internal.h"

typedef struct {
    ntt_mgpu_ks *ks;
    size_t l, beta, j;
    size_t e; /* the event gather_done records, peers_ready waits for */
    const uint64_t *const *in, *const *key;
    uint64_t *const *out0, *const *out1;
} ks_call;

/* GPU g's rows at level l: its Q limbs of Q_l, then its P limbs. */
static ntt_rns_win window(const ntt_mgpu_ks *ks, int g, size_t l)
{
    return (ntt_rns_win){ks->q0[g], ks_qlevel(ks, g, l), ks->p0[g], ks_pcount(ks, g)};
}

static ntt_status rec(ntt_mgpu_ctx *ctx, const ntt_mgpu_ks *ks, int l, size_t e, cudaStream_t s)
{
    return mgpu_cuda(ctx, cudaEventRecord(ks->ev[l][e], s));
}

/* s waits for event e. */
static ntt_status after(ntt_mgpu_ctx *ctx, const ntt_mgpu_ks *ks, int l, size_t e, cudaStream_t s)
{
    return mgpu_cuda(ctx, cudaStreamWaitEvent(s, ks->ev[l][e], 0));
}

/* An RNS stage's status, its CUDA error kept as the context's. */
static ntt_status rns(ntt_mgpu_ctx *ctx, const ntt_mgpu_ks *ks, int l, ntt_status st)
{
    if (st == NTT_EBACKEND) mgpu_set_error(ctx, ntt_rns_cuda_last_error(ks->rns[l]));
    return st;
}

/* S: the input's limbs into their rows of coef, to coefficient form; then
   K may start. */
static ntt_status start_gpu(ntt_mgpu_ctx *ctx, int l, void *arg)
{
    const ks_call *c = arg;
    const ntt_mgpu_ks *ks = c->ks;
    const int g = ctx->first + l;
    const size_t n = ks->n, q0 = ks->q0[g], qn = ks_qlevel(ks, g, c->l);
    const cudaStream_t s = ctx->stream[l];
    uint64_t *mine = ks->coef[l] + q0 * n;
    ntt_status st = rec(ctx, ks, l, KS_EV_START, s);
    if (st == NTT_OK && qn)
        st = mgpu_cuda(ctx, cudaMemcpyAsync(mine, c->in[l], qn * n * 8, cudaMemcpyDeviceToDevice, s));
    if (st == NTT_OK && qn)
        st = rns(ctx, ks, l, ntt_rns_cuda_win_transform(ks->rns[l], q0, qn, mine, s, true));
    if (st == NTT_OK) st = rec(ctx, ks, l, KS_EV_INTT, s);
    if (st == NTT_OK) st = after(ctx, ks, l, KS_EV_INTT, ks->gather[l]);
    return st;
}

/* The rows [first, end) of digit j of Q_l. */
static void digit_rows(const ntt_mgpu_ks *ks, size_t l, size_t j, size_t *first, size_t *end)
{
    *first = j * ks->alpha;
    *end = *first + ks->alpha < l + 1 ? *first + ks->alpha : l + 1;
}

/* The rows [a, b) of digit j of Q_l that global GPU o owns. */
static void owned(const ntt_mgpu_ks *ks, int o, size_t l, size_t j, size_t *a, size_t *b)
{
    size_t first, end;
    digit_rows(ks, l, j, &first, &end);
    *a = ks->q0[o] > first ? ks->q0[o] : first;
    *b = ks->q0[o + 1] < end ? ks->q0[o + 1] : end;
    if (*b < *a) *b = *a;
}

/* Local GPU l's part of spreading `blocks` blocks of `words` words, at
   buf[.] + off + b pitch (b < blocks), which global GPU o owns, to every
   other GPU, into the same places.  With NCCL (inside a group) o sends
   each block to each peer (point to point, so that every pair's NVLink
   carries its share at once, where a broadcast's ring would pass them on
   hop by hop) and the others receive them; with peer copies (one process:
   local and global indices agree) every other GPU copies them from o on
   its gathers' stream, all blocks in one copy (each copy has a fixed
   cost).  Adds the bytes received to *in, and those delivered to the
   owner's sent_bytes. */
static ntt_status spread(ntt_mgpu_ctx *ctx, ntt_mgpu_ks *ks, int l, uint64_t *const *buf,
                         size_t off, size_t words, size_t blocks, size_t pitch, int o, uint64_t *in)
{
    const int g = ctx->first + l;
    const size_t bytes = words * 8;
    if (mgpu_peer(ctx)) {
        if (g == o) return NTT_OK;
        *in += blocks * bytes;
        ks->stats.sent_bytes[o] += blocks * bytes;
        if (blocks == 1)
            return mgpu_cuda(ctx, cudaMemcpyPeerAsync(buf[l] + off, ctx->dev[l], buf[o] + off,
                                                      ctx->dev[o], bytes, ks->gather[l]));
        return mgpu_cuda(ctx, cudaMemcpy2DAsync(buf[l] + off, pitch * 8, buf[o] + off, pitch * 8,
                                                bytes, blocks, cudaMemcpyDefault, ks->gather[l]));
    }
    ntt_status st = NTT_OK;
    for (size_t b = 0; b < blocks && st == NTT_OK; b++) {
        uint64_t *rows = buf[l] + off + b * pitch;
        if (g != o) {
            *in += bytes;
            st = mgpu_nccl(ctx, ncclRecv(rows, words, ncclUint64, o, ctx->comm[l], ks->gather[l]));
            continue;
        }
        for (int peer = 0; peer < ctx->gpus && st == NTT_OK; peer++)
            if (peer != g)
                st = mgpu_nccl(ctx, ncclSend(rows, words, ncclUint64, peer, ctx->comm[l], ks->gather[l]));
        ks->stats.sent_bytes[l] += bytes * (uint64_t)(ctx->gpus - 1);
    }
    return st;
}

/* Inside a group, local GPU l's part of digit j's gather: each GPU's
   rows of the digit to every other, in place in coef. */
static ntt_status gather_digit(ntt_mgpu_ctx *ctx, int l, void *arg)
{
    ks_call *c = arg;
    ntt_mgpu_ks *ks = c->ks;
    const size_t n = ks->n;
    ntt_status st = NTT_OK;
    for (int o = 0; o < ctx->gpus && st == NTT_OK; o++) {
        size_t a, b;
        owned(ks, o, c->l, c->j, &a, &b);
        if (a < b)
            st = spread(ctx, ks, l, ks->coef, a * n, (b - a) * n, 1, 0, o, &ks->stats.modup_bytes[l]);
    }
    return st;
}

/* K: a gather is done (event c->e). */
static ntt_status gather_done(ntt_mgpu_ctx *ctx, int l, void *arg)
{
    const ks_call *c = arg;
    return rec(ctx, c->ks, l, c->e, c->ks->gather[l]);
}

/* Peer copies: K waits for event c->e of every other GPU (the rows it
   copies from them are ready). */
static ntt_status peers_ready(ntt_mgpu_ctx *ctx, int l, void *arg)
{
    const ks_call *c = arg;
    ntt_status st = NTT_OK;
    for (int k = 0; k < ctx->local && st == NTT_OK; k++)
        if (k != l) st = mgpu_cuda(ctx, cudaStreamWaitEvent(c->ks->gather[l], c->ks->ev[k][c->e], 0));
    return st;
}

/* Whether global GPU g owns every limb of digit j of Q_l: then its
   conversion needs no gather. */
static bool own_digit(const ntt_mgpu_ks *ks, int g, size_t l, size_t j)
{
    size_t first, end, a, b;
    digit_rows(ks, l, j, &first, &end);
    owned(ks, g, l, j, &a, &b);
    return a == first && b == end;
}

/* S: digit j converted to the GPU's rows outside it, once gathered. */
static ntt_status convert(ntt_mgpu_ctx *ctx, int l, const ks_call *c, size_t j)
{
    const ntt_mgpu_ks *ks = c->ks;
    const int g = ctx->first + l;
    const ntt_rns_win w = window(ks, g, c->l);
    const cudaStream_t s = ctx->stream[l];
    const size_t n = ks->n, dn = ks->dnum;
    ntt_status st = own_digit(ks, g, c->l, j) ? NTT_OK : after(ctx, ks, l, KS_EV_DIG + j, s);
    if (st == NTT_OK) st = rec(ctx, ks, l, KS_EV_DIG + dn + j, s);
    if (st == NTT_OK)
        st = rns(ctx, ks, l,
                 ntt_rns_cuda_win_modup(ks->rns[l], c->l, j, ks->coef[l] + j * ks->alpha * n, w,
                                        ks->ext[l] + j * (w.qn + w.pn) * n, s));
    if (st == NTT_OK) st = rec(ctx, ks, l, KS_EV_DIG + 2 * dn + j, s);
    return st;
}

/* S: every digit converted, those the GPU owns first (they wait for no
   gather, so the first gathers run meanwhile); then the inner product on
   the GPU's P rows (into their places in pp) and those rows to
   coefficient form, after which K may gather them, while S goes on with
   the inner product on the GPU's Q rows. */
static ntt_status compute_gpu(ntt_mgpu_ctx *ctx, int l, void *arg)
{
    ks_call *c = arg;
    ntt_mgpu_ks *ks = c->ks;
    const int g = ctx->first + l;
    ntt_status st = NTT_OK;
    for (int owned_pass = 1; owned_pass >= 0; owned_pass--)
        for (size_t j = 0; j < c->beta && st == NTT_OK; j++)
            if (own_digit(ks, g, c->l, j) == (owned_pass == 1)) {
                st = convert(ctx, l, c, j);
                ks->last_digit[l] = j;
            }
    const ntt_rns_win w = window(ks, g, c->l);
    const cudaStream_t s = ctx->stream[l];
    const size_t n = ks->n;
    uint64_t *p0 = ks->pp[l] + w.p0 * n, *p1 = ks->pp[l] + (ks->np + w.p0) * n;
    for (int part = 0; part < 2 && st == NTT_OK; part++) {
        const size_t r0 = part ? 0 : w.qn, count = part ? w.qn : w.pn;
        st = rns(ctx, ks, l,
                 ntt_rns_cuda_win_inner(ks->rns[l], c->l, w, r0, count, ks->ext[l], c->in[l],
                                        c->key[l], ks_qcount(ks, g), c->out0[l], c->out1[l], p0,
                                        p1, s));
        for (int z = 0; z < 2 && st == NTT_OK && w.pn && !part; z++)
            st = rns(ctx, ks, l, ntt_rns_cuda_win_transform(ks->rns[l], ks->nq + w.p0, w.pn,
                                                            z ? p1 : p0, s, true));
        if (st == NTT_OK) st = rec(ctx, ks, l, part ? KS_EV_QIN : KS_EV_INNER, s);
        if (st == NTT_OK && !part) st = after(ctx, ks, l, KS_EV_INNER, ks->gather[l]);
    }
    return st;
}

/* Inside a group, local GPU l's part of modDown's gather: each GPU's P
   rows of both sums to every other, in place in pp. */
static ntt_status gather_p(ntt_mgpu_ctx *ctx, int l, void *arg)
{
    ks_call *c = arg;
    ntt_mgpu_ks *ks = c->ks;
    const size_t n = ks->n;
    ntt_status st = NTT_OK;
    for (int o = 0; o < ctx->gpus && st == NTT_OK; o++)
        if (ks_pcount(ks, o))
            st = spread(ctx, ks, l, ks->pp, ks->p0[o] * n, ks_pcount(ks, o) * n, 2, ks->np * n, o,
                        &ks->stats.moddown_bytes[l]);
    return st;
}

/* S: modDown on the GPU's Q limbs once every P row is in (with peer
   copies: once every GPU's are). */
static ntt_status down_gpu(ntt_mgpu_ctx *ctx, int l, void *arg)
{
    const ks_call *c = arg;
    const ntt_mgpu_ks *ks = c->ks;
    const cudaStream_t s = ctx->stream[l];
    ntt_status st = NTT_OK;
    for (int k = 0; k < ctx->local && st == NTT_OK; k++)
        if (k == l || mgpu_peer(ctx))
            st = mgpu_cuda(ctx, cudaStreamWaitEvent(s, ks->ev[k][KS_EV_PG], 0));
    if (st == NTT_OK) st = rec(ctx, ks, l, KS_EV_DOWN, s);
    if (st == NTT_OK)
        st = rns(ctx, ks, l,
                 ntt_rns_cuda_win_moddown(ks->rns[l], window(ks, ctx->first + l, c->l), ks->pp[l],
                                          c->out0[l], c->out1[l], s));
    if (st == NTT_OK) st = rec(ctx, ks, l, KS_EV_END, s);
    return st;
}

/* One NCCL group of every local GPU's part; in a multi-process context
   posted even after a failure here (the data are then not used), or the
   other processes would wait for ever. */
static ntt_status gather(ntt_mgpu_ks *ks, mgpu_fn fn, ks_call *c, ntt_status st, size_t ops)
{
    ntt_mgpu_ctx *ctx = ks->ctx;
    if (ctx->gpus == 1 || (st != NTT_OK && ctx->processes == 1)) return st;
    const ntt_status s2 = mgpu_peer(ctx) ? mgpu_each(ctx, false, fn, c) : mgpu_group(ctx, fn, c);
    ks->stats.groups++;
    ks->stats.collectives += ops;
    return st != NTT_OK ? st : s2;
}

ntt_status mgpu_ks_run(ntt_mgpu_ks *ks, size_t l, const uint64_t *const *in,
                       const uint64_t *const *key, uint64_t *const *out0, uint64_t *const *out1)
{
    ntt_mgpu_ctx *ctx = ks->ctx;
    ks_call c = {ks, l, ntt_rns_digits(ks->rns[0], l), 0, 0, in, key, out0, out1};
    const bool peer = mgpu_peer(ctx);
    ks->timed = false;
    ks->stats.calls++;
    /* The GPUs' own streams are fed by their launching threads; the
       gathers by this one (NCCL groups of every local GPU have one
       issuer). */
    ntt_status st = mgpu_each(ctx, true, start_gpu, &c);
    c.e = KS_EV_INTT;
    if (st == NTT_OK && peer) st = mgpu_each(ctx, false, peers_ready, &c);
    /* Every gather first, so that K has them all while S converts. */
    for (c.j = 0; c.j < c.beta; c.j++) {
        size_t owners = 0;
        for (int o = 0; o < ctx->gpus; o++) {
            size_t a, b;
            owned(ks, o, l, c.j, &a, &b);
            owners += a < b;
        }
        st = gather(ks, gather_digit, &c, st, owners * (size_t)(ctx->gpus - 1));
        c.e = KS_EV_DIG + c.j;
        if (st == NTT_OK) st = mgpu_each(ctx, false, gather_done, &c);
    }
    if (st == NTT_OK) st = mgpu_each(ctx, true, compute_gpu, &c);
    c.e = KS_EV_INNER;
    if (st == NTT_OK && peer) st = mgpu_each(ctx, false, peers_ready, &c);
    size_t powners = 0;
    for (int o = 0; o < ctx->gpus; o++) powners += ks_pcount(ks, o) > 0;
    st = gather(ks, gather_p, &c, st, 2 * powners * (size_t)(ctx->gpus - 1));
    c.e = KS_EV_PG;
    if (st == NTT_OK) st = mgpu_each(ctx, false, gather_done, &c);
    if (st == NTT_OK) st = mgpu_each(ctx, true, down_gpu, &c);
    if (st == NTT_OK) {
        ks->timed = true;
        ks->last_beta = c.beta;
    }
    return st;
}

ntt_status mgpu_ks_args(const ntt_mgpu_ks *ks, size_t n, size_t level, size_t in_limbs,
                        size_t key_limbs, size_t out_limbs)
{
    if (!ks || n != ks->n || level >= ks->nq || in_limbs != level + 1 || out_limbs != level + 1 ||
        key_limbs != 2 * ks->dnum * (ks->nq + ks->np))
        return NTT_EINVAL;
    return NTT_OK;
}

/* Local GPU l's shares: present where it has limbs, apart where they must
   be. */
static bool shares_ok(const ntt_mgpu_ks *ks, int l, size_t level, const uint64_t *in,
                      const uint64_t *key, const uint64_t *o0, const uint64_t *o1)
{
    const int g = ks->ctx->first + l;
    const size_t qn = ks_qlevel(ks, g, level), pn = ks_pcount(ks, g), n = ks->n;
    if (qn + pn && !key) return false;
    if (!qn) return true;
    if (!in || !o0 || !o1) return false;
    const size_t b = qn * n * 8, kb = 2 * ks->dnum * (ks_qcount(ks, g) + pn) * n * 8;
    return !ntt_overlaps(o0, b, o1, b) && !ntt_overlaps(o0, b, in, b) &&
           !ntt_overlaps(o1, b, in, b) && !ntt_overlaps(o0, b, key, kb) &&
           !ntt_overlaps(o1, b, key, kb);
}

ntt_status ntt_mgpu_keyswitch(ntt_mgpu_ks *ks, size_t n, size_t level, const uint64_t *const *d_in,
                              size_t in_limbs, const uint64_t *const *d_key, size_t key_limbs,
                              uint64_t *const *d_out0, uint64_t *const *d_out1, size_t out_limbs)
{
    if (!ks) return NTT_EINVAL;
    ntt_status st = mgpu_ks_args(ks, n, level, in_limbs, key_limbs, out_limbs);
    if (st == NTT_OK && (!d_in || !d_key || !d_out0 || !d_out1)) st = NTT_EINVAL;
    for (int l = 0; l < ks->ctx->local && st == NTT_OK; l++)
        if (!shares_ok(ks, l, level, d_in[l], d_key[l], d_out0[l], d_out1[l])) st = NTT_EINVAL;
    st = mgpu_agree(ks->ctx, st);
    if (st != NTT_OK) return st;
    return mgpu_ks_run(ks, level, d_in, d_key, d_out0, d_out1);
}
