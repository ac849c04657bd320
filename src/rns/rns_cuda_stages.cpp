// The RNS stages on the device (ntt_rns_cuda_*, arguments checked in
// cuda_api.c): the CUDA backend's batched transforms over runs of
// consecutive limbs (item0: the run's first limb) and the element-wise
// kernels (rns_cuda_kernels.cu), all enqueued on the caller's stream.
// The order of work is that of the host forms (ops.c), so the words are
// theirs.
#include "rns_cuda_dev.h"

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

#define TRY(x)                          \
    do {                                \
        ntt_status s_ = (x);            \
        if (s_ != NTT_OK) return s_;    \
    } while (0)

// count rows of d, limbs first.. (plan: every limb) or P's limbs first..
// (plan_p, first counted inside P).
ntt_status rows_ntt(ntt_rns *c, ntt_plan *plan, uint64_t *d, size_t count, size_t first,
                    cudaStream_t st, bool inv)
{
    if (count == 0) return NTT_OK;
    const ntt_status s = plan->ops->dev_transform(plan, d, count, c->n, first, st, inv);
    if (s != NTT_OK) c->dev->last_error = plan->ops->dev_last_error ? plan->ops->dev_last_error(plan) : 0;
    return s;
}

// Rows [a, b) of an extended polynomial at level l (limb qp_limb(l, k) for
// row k): at most two runs of consecutive limbs.
ntt_status ext_ntt(ntt_rns *c, size_t l, uint64_t *d, size_t a, size_t b, cudaStream_t st,
                   bool inv)
{
    const size_t q = l + 1, n = c->n;
    if (a < q) TRY(rows_ntt(c, c->dev->plan, d + a * n, (b < q ? b : q) - a, a, st, inv));
    if (b > q) {
        const size_t a2 = a > q ? a : q;
        TRY(rows_ntt(c, c->dev->plan, d + a2 * n, b - a2, c->nq + (a2 - q), st, inv));
    }
    return NTT_OK;
}

cudaError_t copy(void *dst, const void *src, size_t words, cudaStream_t st)
{
    return cudaMemcpyAsync(dst, src, words * 8, cudaMemcpyDeviceToDevice, st);
}

size_t qp_limb(const ntt_rns *c, size_t l, size_t k) { return k <= l ? k : c->nq + (k - l - 1); }

// Digit j at level l: its rows (coefficient form) at x; converted to every
// other row of the extended polynomial at dst (rows laid out as at level
// l), coefficient form.
ntt_status digit_conv(ntt_rns *c, size_t l, size_t j, const uint64_t *x, uint64_t *dst,
                      cudaStream_t st)
{
    const size_t first = j * c->alpha, e = l + 1 + c->np;
    const ConvTab &tab = c->dev->shape[j < l / c->alpha ? first + c->alpha - 1 : l];
    ConvLists L;
    for (size_t i = 0; i < tab.s; i++) L.src[i] = (uint8_t)(first + i);
    size_t t = 0;
    for (size_t k = 0; k < e; k++) {
        if (k >= first && k < first + tab.s) continue;
        const size_t limb = qp_limb(c, l, k);
        L.dst[t] = L.wrow[t] = (uint8_t)limb;
        L.row[t] = (uint8_t)k;
        t++;
    }
    CKR(c, nttr::conv(c->dev, c->n, x, 0, tab, L, t, dst, 0, 1, fused(c, RNS_FUSE_CONV), st));
    return NTT_OK;
}

// modDown's common part: the P rows of npoly sums at xp (poly z at xp + z
// K n), transformed in place; x the Q rows (xpoly words apart), out
// likewise (may be x).
ntt_status moddown_core(ntt_rns *c, size_t l, const uint64_t *x, size_t xpoly, uint64_t *xp,
                        uint64_t *out, size_t opoly, unsigned npoly, cudaStream_t st)
{
    rns_cuda *d = c->dev;
    const size_t n = c->n, q = l + 1, np = c->np;
    TRY(rows_ntt(c, d->plan_p, xp, npoly * np, 0, st, true));
    if (!ntt_only(c)) {
        ConvLists L;
        for (size_t i = 0; i < np; i++) L.src[i] = (uint8_t)(c->nq + i);
        for (size_t i = 0; i < q; i++) L.dst[i] = L.row[i] = L.wrow[i] = (uint8_t)i;
        CKR(c, nttr::conv(d, n, xp, np * n, d->pconv, L, q, d->T, q * n, npoly,
                          fused(c, RNS_FUSE_CONV), st));
    }
    for (unsigned z = 0; z < npoly; z++) TRY(rows_ntt(c, d->plan, d->T + z * q * n, q, 0, st, false));
    if (!ntt_only(c))
        CKR(c, nttr::subc(d, n, x, xpoly, d->T, q * n, out, opoly, d->pinv, d->pinvq, q, npoly,
                          fused(c, RNS_FUSE_SUBC), st));
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
    const size_t n = c->n, first = j * c->alpha, e = l + 1 + c->np;
    const size_t s = first + c->alpha < l + 1 ? c->alpha : l + 1 - first;
    if (!ntt_only(c)) {
        CKR(c, copy(d->X, in, s * n, st));
        CKR(c, copy(out + first * n, in, s * n, st));
    }
    TRY(rows_ntt(c, d->plan, d->X, s, first, st, true));
    if (!ntt_only(c)) TRY(digit_conv(c, l, j, d->X, out, st));
    TRY(ext_ntt(c, l, out, 0, first, st, false));
    TRY(ext_ntt(c, l, out, first + s, e, st, false));
    return NTT_OK;
}

ntt_status ntt_rns_cuda_do_moddown(ntt_rns *c, size_t l, const uint64_t *in, uint64_t *out,
                                   void *stream)
{
    const cudaStream_t st = static_cast<cudaStream_t>(stream);
    const size_t n = c->n, q = l + 1;
    if (!ntt_only(c)) CKR(c, copy(c->dev->PP, in + q * n, c->np * n, st));
    return moddown_core(c, l, in, 0, c->dev->PP, out, 0, 1, st);
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
                          d->qlinvq + l * c->nq, l, 1, fused(c, RNS_FUSE_SUBC), st));
    return NTT_OK;
}

ntt_status ntt_rns_cuda_do_inner(ntt_rns *c, size_t l, const uint64_t *ext, const uint64_t *key,
                                 uint64_t *acc0, uint64_t *acc1, void *stream)
{
    const cudaStream_t st = static_cast<cudaStream_t>(stream);
    if (ntt_only(c)) return NTT_OK;
    const size_t n = c->n, q = l + 1;
    nttr::InnerArgs a = {ext, nullptr, key, acc0, acc1, acc0 + q * n, acc1 + q * n,
                         l, q, q + c->np, ntt_rns_digits(c, l), c->alpha, c->nq, c->nlimb};
    CKR(c, nttr::inner(c->dev, n, a, fused(c, RNS_FUSE_INNER), st));
    return NTT_OK;
}

// The whole key switch: the input once into coefficient form (every digit
// in one batched call), each digit's conversion into its block of T (laid
// out as an extended polynomial) and the transforms of its new rows, the
// inner product over all digits of a row in one pass (the digits' own
// rows read from the input, so they are never converted back), then
// modDown of both sums at once (their P rows in PP, 2K rows in one call).
ntt_status ntt_rns_cuda_do_keyswitch(ntt_rns *c, size_t l, const uint64_t *in,
                                     const uint64_t *key, uint64_t *out0, uint64_t *out1,
                                     void *stream)
{
    const cudaStream_t st = static_cast<cudaStream_t>(stream);
    rns_cuda *d = c->dev;
    const size_t n = c->n, q = l + 1, e = q + c->np, beta = ntt_rns_digits(c, l);
    if (!ntt_only(c)) CKR(c, copy(d->X, in, q * n, st));
    TRY(rows_ntt(c, d->plan, d->X, q, 0, st, true));
    for (size_t j = 0; j < beta; j++) {
        const size_t first = j * c->alpha, s = first + c->alpha < q ? c->alpha : q - first;
        uint64_t *dst = d->T + j * e * n;
        if (!ntt_only(c)) TRY(digit_conv(c, l, j, d->X + first * n, dst, st));
        TRY(ext_ntt(c, l, dst, 0, first, st, false));
        TRY(ext_ntt(c, l, dst, first + s, e, st, false));
    }
    if (!ntt_only(c)) {
        nttr::InnerArgs a = {d->T, in, key, out0, out1, d->PP, d->PP + c->np * n,
                             l, q, e, beta, c->alpha, c->nq, c->nlimb};
        CKR(c, nttr::inner(d, n, a, fused(c, RNS_FUSE_INNER), st));
    }
    // out1 - out0 as the second polynomial's stride: both sums in one pass
    // when out1 lies after out0 at a whole number of words.
    const uintptr_t a0 = reinterpret_cast<uintptr_t>(out0), a1 = reinterpret_cast<uintptr_t>(out1);
    if (a1 > a0 && (a1 - a0) % 8 == 0)
        return moddown_core(c, l, out0, (a1 - a0) / 8, d->PP, out0, (a1 - a0) / 8, 2, st);
    TRY(moddown_core(c, l, out0, 0, d->PP, out0, 0, 1, st));
    return moddown_core(c, l, out1, 0, d->PP + c->np * n, out1, 0, 1, st);
}

}  // extern "C"
