// The device state of a CUDA RNS context (rns_cuda_dev.h): the batched
// plans, the constants (one upload at creation) and the scratch.  Host
// C-style C++ over the runtime API (no exceptions, no C++ runtime).
#include "rns_cuda_dev.h"

#include <cstdlib>
#include <cstring>

namespace {

// Words of the constants: pm, the nq shape tables (2s + nlimb s each),
// pconv (2K + nq K), pinv/pinvq (2 nq), qlinv/qlinvq (2 nq^2), gen (2
// nlimb + nlimb^2).
size_t const_words(const ntt_rns *c)
{
    const size_t nl = c->nlimb, nq = c->nq, np = c->np;
    size_t w = nl * (sizeof(rns_prime) / 8);
    for (size_t l = 0; l < nq; l++) w += c->shape[l].s * (2 + nl);
    w += np * (2 + nq) + 2 * nq + 2 * nq * nq + 2 * nl + nl * nl;
    return w;
}

ntt_status fail(ntt_rns *c, cudaError_t e)
{
    c->dev->last_error = (int)e;
    (void)cudaGetLastError();
    return e == cudaErrorMemoryAllocation ? NTT_ENOMEM : NTT_EBACKEND;
}

uint64_t *put(uint64_t *host, size_t &at, const uint64_t *src, size_t words)
{
    if (words) memcpy(host + at, src, words * 8);
    at += words;
    return host + at - words;
}

}  // namespace

extern "C" {

ntt_status ntt_rns_cuda_init(ntt_rns *c)
{
    rns_cuda *d = static_cast<rns_cuda *>(calloc(1, sizeof *d));
    if (!d) return NTT_ENOMEM;
    c->dev = d;
    d->fuse = RNS_FUSE_ALL;
    d->shape = static_cast<nttr::ConvTab *>(calloc(c->nq, sizeof *d->shape));
    if (!d->shape) return NTT_ENOMEM;
    ntt_plan_options po{};
    po.flags = NTT_FLAG_NEGACYCLIC;
    po.threads = 1;
    po.batch = 1;
    ntt_status s = ntt_plan_create_rns(&d->plan, c->n, c->primes, c->nlimb, NTT_U64,
                                       NTT_BACKEND_CUDA, &po);
    if (s == NTT_OK && c->np)
        s = ntt_plan_create_rns(&d->plan_p, c->n, c->primes + c->nq, c->np, NTT_U64,
                                NTT_BACKEND_CUDA, &po);
    if (s != NTT_OK) return s;
    // The stages run the plans through the device calls, which only the
    // CUDA backend's plans take.
    if (ntt_plan_backend(d->plan) != NTT_BACKEND_CUDA ||
        (d->plan_p && ntt_plan_backend(d->plan_p) != NTT_BACKEND_CUDA))
        return NTT_EUNSUPPORTED;

    // The constants, laid out on the host, then one copy.
    const size_t nl = c->nlimb, nq = c->nq, np = c->np, n = c->n;
    const size_t words = const_words(c);
    uint64_t *h = static_cast<uint64_t *>(malloc(words * 8));
    if (!h) return NTT_ENOMEM;
    cudaError_t e = cudaMalloc(&d->dconst, words * 8);
    if (e != cudaSuccess) {
        free(h);
        return fail(c, e);
    }
    uint64_t *base = static_cast<uint64_t *>(d->dconst);
    size_t at = 0;
    // Device addresses of what put() places at host offsets.
    auto dev = [&](const uint64_t *hp) { return base + (hp - h); };
    d->pm = reinterpret_cast<rns_prime *>(
        dev(put(h, at, reinterpret_cast<const uint64_t *>(c->pm), nl * sizeof(rns_prime) / 8)));
    for (size_t l = 0; l < nq; l++) {
        const rns_conv_tab &t = c->shape[l];
        d->shape[l].s = t.s;
        d->shape[l].inv = dev(put(h, at, t.inv, t.s));
        d->shape[l].invq = dev(put(h, at, t.invq, t.s));
        d->shape[l].w = dev(put(h, at, t.w, nl * t.s));
    }
    d->pconv.s = np;
    d->pconv.inv = dev(put(h, at, c->pconv.inv, np));
    d->pconv.invq = dev(put(h, at, c->pconv.invq, np));
    d->pconv.w = dev(put(h, at, c->pconv.w, nq * np));
    d->pinv = dev(put(h, at, c->pinv, np ? nq : 0));
    d->pinvq = dev(put(h, at, c->pinvq, np ? nq : 0));
    d->qlinv = dev(put(h, at, c->qlinv, nq * nq));
    d->qlinvq = dev(put(h, at, c->qlinvq, nq * nq));
    d->gen = base + at;
    at += 2 * nl + nl * nl;
    e = cudaMemcpy(d->dconst, h, at * 8, cudaMemcpyHostToDevice);
    free(h);
    if (e != cudaSuccess) return fail(c, e);
    // From pageable memory the copy may return before its DMA lands, and
    // the stages' streams need not wait for the legacy stream.
    e = cudaStreamSynchronize(nullptr);
    if (e != cudaSuccess) return fail(c, e);

    // Scratch.
    const size_t xr = nq, tr = c->dnum * nl > 2 * nq ? c->dnum * nl : 2 * nq, pr = 2 * np;
    e = cudaMalloc(&d->dscratch, (xr + tr + pr + nl) * n * 8);
    if (e != cudaSuccess) return fail(c, e);
    d->X = static_cast<uint64_t *>(d->dscratch);
    d->T = d->X + xr * n;
    d->PP = d->T + tr * n;
    d->Y = d->PP + pr * n;
    return NTT_OK;
}

void ntt_rns_cuda_free(ntt_rns *c)
{
    rns_cuda *d = c->dev;
    if (!d) return;
    ntt_plan_destroy(d->plan);
    ntt_plan_destroy(d->plan_p);
    if (d->dconst) cudaFree(d->dconst);
    if (d->dscratch) cudaFree(d->dscratch);
    free(d->shape);
    free(d);
    c->dev = nullptr;
}

ntt_status ntt_rns_cuda_set_fusion(ntt_rns *c, unsigned mask)
{
    if (!c || !c->dev || (mask & ~(unsigned)(RNS_FUSE_ALL | RNS_NTT_ONLY))) return NTT_EINVAL;
    c->dev->fuse = mask;
    return NTT_OK;
}

int ntt_rns_cuda_error(const ntt_rns *c) { return c->dev ? c->dev->last_error : 0; }

}  // extern "C"
