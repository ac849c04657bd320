// The RNS stages on the device (ntt_rns_cuda_*, arguments checked in
// cuda_api.c): the CUDA backend's batched transforms over runs of
// consecutive limbs (item0: the run's first limb) and the element-wise
// kernels (rns_cuda_kernels.cu), all enqueued on the caller's stream.
// The order of work is that of the host forms (ops.c), so the words are
// theirs.
#include "rns_cuda_dev.h"
#include "../cuda/cuda_try.h"

namespace {

using nttr::ConvLists;
using nttr::ConvTab;

bool fused(const ntt_rns *c, unsigned what) { return (c->dev->fuse & what) != 0; }
bool ntt_only(const ntt_rns *c) { return (c->dev->fuse & RNS_NTT_ONLY) != 0; }

ntt_status fail(ntt_rns *c, cudaError_t e)
{
    c->dev->last_error = (int)e;
    return NTT_EBACKEND;
}

#define CKR(c, call)                                       \
    do {                                                   \
        cudaError_t e_ = (call);                           \
        if (e_ != cudaSuccess) return fail((c), e_);       \
    } while (0)

// count rows of d, limbs first.. (plan: every limb) or P's limbs first..
// (plan_p, first counted inside P), through the public device calls.
ntt_status rows_ntt(ntt_rns *c, ntt_plan *plan, uint64_t *d, size_t count, size_t first,
                    cudaStream_t st, bool inv)
{
    if (count == 0) return NTT_OK;
    const ntt_status s = inv ? ntt_cuda_inverse_at_u64(plan, d, count, c->n, first, st)
                             : ntt_cuda_forward_at_u64(plan, d, count, c->n, first, st);
    if (s != NTT_OK) c->dev->last_error = ntt_cuda_last_error(plan);
    return s;
}

// The rows of window w (ntt_rns_win, rns_cuda.h) of d, but its Q limbs in
// [skip0, skip1): at most three runs of consecutive limbs.
ntt_status win_ntt(ntt_rns *c, const ntt_rns_win &w, uint64_t *d, size_t skip0, size_t skip1,
                   cudaStream_t st, bool inv)
{
    const size_t n = c->n, qe = w.q0 + w.qn;
    const size_t a = skip0 < w.q0 ? w.q0 : skip0 > qe ? qe : skip0;
    const size_t b = skip1 < a ? a : skip1 > qe ? qe : skip1;
    ntt_plan *plan = c->dev->plan;
    TRY(rows_ntt(c, plan, d, a - w.q0, w.q0, st, inv));
    TRY(rows_ntt(c, plan, d + (b - w.q0) * n, qe - b, b, st, inv));
    return rows_ntt(c, plan, d + w.qn * n, w.pn, c->nq + w.p0, st, inv);
}

cudaError_t copy(void *dst, const void *src, size_t words, cudaStream_t st)
{
    return cudaMemcpyAsync(dst, src, words * 8, cudaMemcpyDeviceToDevice, st);
}

// The limb count of digit j at level l.
size_t digit_len(const ntt_rns *c, size_t l, size_t j)
{
    const size_t first = j * c->alpha;
    return first + c->alpha < l + 1 ? c->alpha : l + 1 - first;
}

// Digit j at level l: its rows (coefficient form) at x; converted to every
// row of window w outside the digit, at dst (w's rows), coefficient form.
ntt_status digit_conv(ntt_rns *c, size_t l, size_t j, const uint64_t *x, const ntt_rns_win &w,
                      uint64_t *dst, cudaStream_t st)
{
    const size_t first = j * c->alpha;
    const ConvTab &tab = c->dev->shape[j < l / c->alpha ? first + c->alpha - 1 : l];
    ConvLists L;
    for (size_t i = 0; i < tab.s; i++) L.src[i] = (uint8_t)(first + i);
    size_t t = 0;
    for (size_t r = 0; r < w.qn + w.pn; r++) {
        const size_t limb = r < w.qn ? w.q0 + r : c->nq + w.p0 + (r - w.qn);
        if (limb >= first && limb < first + tab.s) continue;
        L.dst[t] = L.wrow[t] = (uint8_t)limb;
        L.row[t] = (uint8_t)r;
        t++;
    }
    if (t) CKR(c, nttr::conv(c->dev, c->n, x, 0, tab, L, t, dst, 0, 1, fused(c, RNS_FUSE_CONV), st));
    return NTT_OK;
}

// modDown's conversion, transform and subtraction for the Q limbs q0 ..
// q0+qn-1 of npoly sums: xp their P rows in coefficient form (poly z at xp
// + z K n), x their Q rows (xpoly words apart), out likewise (may be x).
ntt_status moddown_tail(ntt_rns *c, size_t q0, size_t qn, const uint64_t *xp, const uint64_t *x,
                        size_t xpoly, uint64_t *out, size_t opoly, unsigned npoly, cudaStream_t st)
{
    rns_cuda *d = c->dev;
    const size_t n = c->n, np = c->np;
    if (qn == 0) return NTT_OK;
    if (!ntt_only(c)) {
        ConvLists L;
        for (size_t i = 0; i < np; i++) L.src[i] = (uint8_t)(c->nq + i);
        for (size_t i = 0; i < qn; i++) {
            L.dst[i] = L.wrow[i] = (uint8_t)(q0 + i);
            L.row[i] = (uint8_t)i;
        }
        CKR(c, nttr::conv(d, n, xp, np * n, d->pconv, L, qn, d->T, qn * n, npoly,
                          fused(c, RNS_FUSE_CONV), st));
    }
    for (unsigned z = 0; z < npoly; z++)
        TRY(rows_ntt(c, d->plan, d->T + z * qn * n, qn, q0, st, false));
    if (!ntt_only(c))
        CKR(c, nttr::subc(d, n, x, xpoly, d->T, qn * n, out, opoly, d->pinv + q0, d->pinvq + q0,
                          q0, qn, npoly, fused(c, RNS_FUSE_SUBC), st));
    return NTT_OK;
}

}  // namespace

extern "C" {

ntt_status ntt_rns_cuda_do_transform(ntt_rns *c, const size_t *limbs, size_t count, uint64_t *d,
                                     void *stream, bool inverse)
{
    const cudaStream_t st = static_cast<cudaStream_t>(stream);
    // Runs of rows whose limbs are consecutive: one batched call each.
    for (size_t k = 0; k < count;) {
        size_t e = k + 1;
        while (e < count && limbs[e] == limbs[e - 1] + 1) e++;
        TRY(rows_ntt(c, c->dev->plan, d + k * c->n, e - k, limbs[k], st, inverse));
        k = e;
    }
    return NTT_OK;
}

ntt_status ntt_rns_cuda_do_fastbconv(ntt_rns *c, const size_t *from, size_t s, const uint64_t *in,
                                     const size_t *to, size_t t, uint64_t *out, void *stream)
{
    const cudaStream_t st = static_cast<cudaStream_t>(stream);
    rns_cuda *d = c->dev;
    ConvLists L;
    for (size_t i = 0; i < s; i++) L.src[i] = (uint8_t)from[i];
    for (size_t j = 0; j < t; j++) {
        L.dst[j] = (uint8_t)to[j];
        L.row[j] = L.wrow[j] = (uint8_t)j;
    }
    CKR(c, nttr::gen_consts(d, c->nlimb, L, s, t, st));
    const ConvTab tab = {d->gen, d->gen + c->nlimb, d->gen + 2 * c->nlimb, s};
    CKR(c, nttr::conv(d, c->n, in, 0, tab, L, t, out, 0, 1, fused(c, RNS_FUSE_CONV), st));
    return NTT_OK;
}

ntt_status ntt_rns_cuda_do_modup(ntt_rns *c, size_t l, size_t j, const uint64_t *in,
                                 uint64_t *out, void *stream)
{
    const cudaStream_t st = static_cast<cudaStream_t>(stream);
    rns_cuda *d = c->dev;
    const size_t n = c->n, first = j * c->alpha, s = digit_len(c, l, j);
    if (!ntt_only(c)) {
        CKR(c, copy(d->X, in, s * n, st));
        CKR(c, copy(out + first * n, in, s * n, st));
    }
    TRY(rows_ntt(c, d->plan, d->X, s, first, st, true));
    return ntt_rns_cuda_win_modup(c, l, j, d->X, ntt_rns_win{0, l + 1, 0, c->np}, out, stream);
}

ntt_status ntt_rns_cuda_do_moddown(ntt_rns *c, size_t l, const uint64_t *in, uint64_t *out,
                                   void *stream)
{
    const cudaStream_t st = static_cast<cudaStream_t>(stream);
    const size_t n = c->n, q = l + 1;
    if (!ntt_only(c)) CKR(c, copy(c->dev->PP, in + q * n, c->np * n, st));
    TRY(rows_ntt(c, c->dev->plan_p, c->dev->PP, c->np, 0, st, true));
    return moddown_tail(c, 0, q, c->dev->PP, in, 0, out, 0, 1, st);
}

ntt_status ntt_rns_cuda_do_rescale(ntt_rns *c, size_t l, const uint64_t *in, uint64_t *out,
                                   void *stream)
{
    const cudaStream_t st = static_cast<cudaStream_t>(stream);
    rns_cuda *d = c->dev;
    const size_t n = c->n;
    if (!ntt_only(c)) CKR(c, copy(d->X, in + l * n, n, st));
    TRY(rows_ntt(c, d->plan, d->X, 1, l, st, true));
    if (!ntt_only(c)) CKR(c, nttr::bcast_reduce(d, n, d->X, d->T, l, st));
    TRY(rows_ntt(c, d->plan, d->T, l, 0, st, false));
    if (!ntt_only(c))
        CKR(c, nttr::subc(d, n, in, 0, d->T, 0, out, 0, d->qlinv + l * c->nq,
                          d->qlinvq + l * c->nq, 0, l, 1, fused(c, RNS_FUSE_SUBC), st));
    return NTT_OK;
}

ntt_status ntt_rns_cuda_do_inner(ntt_rns *c, size_t l, const uint64_t *ext, const uint64_t *key,
                                 uint64_t *acc0, uint64_t *acc1, void *stream)
{
    const size_t q = l + 1, n = c->n;
    return ntt_rns_cuda_win_inner(c, l, ntt_rns_win{0, q, 0, c->np}, 0, q + c->np, ext, nullptr,
                                  key, c->nq, acc0, acc1, acc0 + q * n, acc1 + q * n, stream);
}

// The whole key switch: the input once into coefficient form (every digit
// in one batched call), each digit's conversion into its block of T (laid
// out as an extended polynomial) and the transforms of its new rows, the
// inner product over all digits of a row in one pass (the digits' own
// rows read from the input, so they are never converted back), then
// modDown of both sums (their P rows in PP, 2K rows transformed in one
// call).  The same pieces as the key switch with limbs partitioned across
// GPUs (ntt_rns_cuda_win_*), here on the window of every row.
ntt_status ntt_rns_cuda_do_keyswitch(ntt_rns *c, size_t l, const uint64_t *in,
                                     const uint64_t *key, uint64_t *out0, uint64_t *out1,
                                     void *stream)
{
    const cudaStream_t st = static_cast<cudaStream_t>(stream);
    rns_cuda *d = c->dev;
    const size_t n = c->n, q = l + 1, e = q + c->np, beta = ntt_rns_digits(c, l);
    const ntt_rns_win w = {0, q, 0, c->np};
    if (!ntt_only(c)) CKR(c, copy(d->X, in, q * n, st));
    TRY(rows_ntt(c, d->plan, d->X, q, 0, st, true));
    for (size_t j = 0; j < beta; j++)
        TRY(ntt_rns_cuda_win_modup(c, l, j, d->X + j * c->alpha * n, w, d->T + j * e * n, stream));
    TRY(ntt_rns_cuda_win_inner(c, l, w, 0, e, d->T, in, key, c->nq, out0, out1, d->PP,
                               d->PP + c->np * n, stream));
    TRY(rows_ntt(c, d->plan_p, d->PP, 2 * c->np, 0, st, true));
    return ntt_rns_cuda_win_moddown(c, w, d->PP, out0, out1, stream);
}

ntt_status ntt_rns_cuda_ks_raise(ntt_rns *c, size_t l, const uint64_t *in, uint64_t *ext,
                                 void *stream)
{
    const cudaStream_t st = static_cast<cudaStream_t>(stream);
    rns_cuda *d = c->dev;
    const size_t n = c->n, q = l + 1, e = q + c->np, beta = ntt_rns_digits(c, l);
    const ntt_rns_win w = {0, q, 0, c->np};
    if (!ntt_only(c)) {
        CKR(c, copy(d->X, in, q * n, st));
        for (size_t j = 0; j < beta; j++)
            CKR(c, copy(ext + (j * e + j * c->alpha) * n, in + j * c->alpha * n,
                        digit_len(c, l, j) * n, st));
    }
    TRY(rows_ntt(c, d->plan, d->X, q, 0, st, true));
    for (size_t j = 0; j < beta; j++)
        TRY(ntt_rns_cuda_win_modup(c, l, j, d->X + j * c->alpha * n, w, ext + j * e * n, stream));
    return NTT_OK;
}

ntt_status ntt_rns_cuda_ks_inner_perm(ntt_rns *c, size_t l, const uint64_t *ext,
                                      const uint64_t *key, uint64_t g, bool accumulate,
                                      uint64_t *out0, uint64_t *out1, void *stream)
{
    if (ntt_only(c)) return NTT_OK;
    const size_t q = l + 1, n = c->n;
    unsigned logn = 0;
    while (((size_t)1 << logn) < n) logn++;
    const nttr::InnerArgs a = {ext,     nullptr, key,   out0,  out1,         c->dev->PP,
                               c->dev->PP + c->np * n, 0,     q,     0,            q + c->np,
                               ntt_rns_digits(c, l),  c->alpha, c->nq, c->nq + c->np, c->nq,
                               0,       q + c->np, g,     logn,  accumulate};
    CKR(c, nttr::inner(c->dev, n, a, true, static_cast<cudaStream_t>(stream)));
    return NTT_OK;
}

ntt_status ntt_rns_cuda_ks_moddown_pp(ntt_rns *c, size_t l, uint64_t *out0, uint64_t *out1,
                                      void *stream)
{
    const cudaStream_t st = static_cast<cudaStream_t>(stream);
    TRY(rows_ntt(c, c->dev->plan_p, c->dev->PP, 2 * c->np, 0, st, true));
    return ntt_rns_cuda_win_moddown(c, ntt_rns_win{0, l + 1, 0, c->np}, c->dev->PP, out0, out1,
                                    stream);
}

ntt_status ntt_rns_cuda_win_transform(ntt_rns *c, size_t first, size_t count, uint64_t *d,
                                      void *stream, bool inverse)
{
    return rows_ntt(c, c->dev->plan, d, count, first, static_cast<cudaStream_t>(stream), inverse);
}

ntt_status ntt_rns_cuda_win_modup(ntt_rns *c, size_t l, size_t j, const uint64_t *digit,
                                  ntt_rns_win w, uint64_t *dst, void *stream)
{
    const cudaStream_t st = static_cast<cudaStream_t>(stream);
    const size_t first = j * c->alpha;
    if (!ntt_only(c)) TRY(digit_conv(c, l, j, digit, w, dst, st));
    return win_ntt(c, w, dst, first, first + digit_len(c, l, j), st, false);
}

ntt_status ntt_rns_cuda_win_inner(ntt_rns *c, size_t l, ntt_rns_win w, size_t r0, size_t count,
                                  const uint64_t *ext, const uint64_t *own, const uint64_t *key,
                                  size_t key_q, uint64_t *out0, uint64_t *out1, uint64_t *p0,
                                  uint64_t *p1, void *stream)
{
    if (ntt_only(c) || count == 0) return NTT_OK;
    const nttr::InnerArgs a = {ext, own, key, out0, out1, p0, p1, w.q0, w.qn, w.p0, w.qn + w.pn,
                               ntt_rns_digits(c, l), c->alpha, c->nq, key_q + w.pn, key_q, r0, count,
                               0, 0, false};
    CKR(c, nttr::inner(c->dev, c->n, a, fused(c, RNS_FUSE_INNER), static_cast<cudaStream_t>(stream)));
    return NTT_OK;
}

// out1 - out0 as the second polynomial's stride: both sums in one pass when
// out1 lies after out0 at a whole number of words.
ntt_status ntt_rns_cuda_win_moddown(ntt_rns *c, ntt_rns_win w, const uint64_t *pp, uint64_t *out0,
                                    uint64_t *out1, void *stream)
{
    const cudaStream_t st = static_cast<cudaStream_t>(stream);
    const uintptr_t a0 = reinterpret_cast<uintptr_t>(out0), a1 = reinterpret_cast<uintptr_t>(out1);
    if (a1 > a0 && (a1 - a0) % 8 == 0)
        return moddown_tail(c, w.q0, w.qn, pp, out0, (a1 - a0) / 8, out0, (a1 - a0) / 8, 2, st);
    TRY(moddown_tail(c, w.q0, w.qn, pp, out0, 0, out0, 0, 1, st));
    return moddown_tail(c, w.q0, w.qn, pp + c->np * c->n, out1, 0, out1, 0, 1, st);
}

}  // extern "C"
