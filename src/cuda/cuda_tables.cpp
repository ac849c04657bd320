// Host-built twiddle tables and per-modulus constants (Mod<T>, cuda_mod.h)
// for a plan's kind and geometry, uploaded once when the plan is created:
// the tree-order tables with their companions (fast path), the compact
// tables and rho roots (group_butterflies), the staged twiddles' roots
// (rho_stage) and the Montgomery kind's power tables.  Host code over the
// CUDA runtime API.
#include "cuda_mod_host.h"
#include "cuda_plan.h"

#include <cstdlib>
#include <cstring>

namespace nttc {

namespace {

// A host array that frees itself.
template <class T> struct HostBuf {
    T *p;
    size_t n;
    explicit HostBuf(size_t count) : p(static_cast<T *>(calloc(count ? count : 1, sizeof(T)))), n(count) {}
    ~HostBuf() { free(p); }
    HostBuf(const HostBuf &) = delete;
    HostBuf &operator=(const HostBuf &) = delete;
    T &operator[](size_t i) { return p[i]; }
};

template <class T> ntt_status upload(const ntt_plan *plan, CudaPlan *cp, const HostBuf<T> &v,
                                     const T **dst)
{
    if (!v.p) return NTT_ENOMEM;
    if (cp->ndallocs == cp->cap_dallocs) {
        size_t cap = cp->cap_dallocs ? 2 * cp->cap_dallocs : 16;
        void **np = static_cast<void **>(realloc(cp->dallocs, cap * sizeof *np));
        if (!np) return NTT_ENOMEM;
        cp->dallocs = np;
        cp->cap_dallocs = cap;
    }
    void *d = nullptr;
    CK(plan, cudaMalloc(&d, v.n * sizeof(T)));
    cp->dallocs[cp->ndallocs++] = d;
    CK(plan, cudaMemcpy(d, v.p, v.n * sizeof(T), cudaMemcpyHostToDevice));
    *dst = static_cast<const T *>(d);
    return NTT_OK;
}

// rho_l(t) = w(l, t) / w(l, 0) at j = 2^l + t (inv: of the inverse's tree),
// with its companion: what takes a level's first node to its t-th, for
// every hi and d0 (the compact twiddles' Mod::rho, rho_stage's Mod::rtw).
template <class T> Tw<T> rho_entry(const HostMod<T> &H, const ntt_modulus *cm, size_t j, bool inv)
{
    size_t b = j;  // 2^l: j's highest bit
    while (b & (b - 1)) b &= b - 1;
    return H.tw(inv ? H.mulmod(cm->winv[j], cm->w[b]) : H.mulmod(cm->w[j], cm->winv[b]));
}

// The compact-twiddle tables (see group_butterflies): every 2^l-th node of
// each level, copied from the tree tables fw, iw (companions included), and
// the roots rho_l(t) read off the tree at level l.
template <class T>
ntt_status build_compact(const ntt_plan *plan, CudaPlan *cp, const HostMod<T> &H,
                         const ntt_modulus *cm, HostBuf<Tw<T>> &fw, HostBuf<Tw<T>> &iw, Mod<T> *M)
{
    const size_t n = plan->n;
    for (int l = 1; l < 4 && ((size_t)2 << l) <= n; l++) {
        HostBuf<Tw<T>> fl(n >> l), il(n >> l);
        if (!fl.p || !il.p) return NTT_ENOMEM;
        for (size_t i = 1; i < (n >> l); i++) {  // node i << l: level + l, index times 2^l
            fl[i] = fw[i << l];
            il[i] = iw[i << l];
        }
        TRY(upload(plan, cp, fl, &M->ftl[l]));
        TRY(upload(plan, cp, il, &M->itl[l]));
        for (size_t j = (size_t)1 << l; j < ((size_t)2 << l); j++) {
            M->rho[0][j] = rho_entry(H, cm, j, false);
            M->rho[1][j] = rho_entry(H, cm, j, true);
        }
    }
    return NTT_OK;
}

template <class T>
ntt_status build_mod(const ntt_plan *plan, CudaPlan *cp, const ntt_modulus *cm, Mod<T> *out)
{
    const size_t n = plan->n;
    const int kind = cp->kind;
    const PlanGeometry &geo = cp->geo;
    const HostMod<T> H(cm->p, kind);
    Mod<T> M = H.base();
    const bool redc = kind == K_MONT || kind == K_SHOUP;
    const uint64_t finv = redc ? H.r_mod : 1 % cm->p;
    const uint64_t w1 = cm->winv[1], s = cm->n_inv, sm = H.mulmod(s, finv);
    M.s_inv = H.tw(s);
    M.s1_inv = H.tw(H.mulmod(s, w1));
    M.s_mul = H.tw(sm);
    M.s1_mul = H.tw(H.mulmod(sm, w1));
    const bool nega = (plan->flags & NTT_FLAG_NEGACYCLIC) != 0;
    M.nfull = nega ? 2 * (uint64_t)n : (uint64_t)n;
    M.e0 = nega ? M.nfull / 2 : 0;
    const uint64_t r = cm->root;

    if (kind == K_MONT) {
        // r^t for t < N/2 as a product of two table entries.
        const uint64_t half = M.nfull / 2;
        unsigned A = 0;
        while (A < 12 && ((uint64_t)1 << A) < half) A++;
        M.A = A;
        const size_t nlo = (size_t)1 << A, nhi = (size_t)((half + nlo - 1) / nlo);
        HostBuf<T> lo(nlo), hi(nhi > 0 ? nhi : 1);
        if (!lo.p || !hi.p) return NTT_ENOMEM;
        uint64_t x = 1;
        for (size_t j = 0; j < nlo; j++, x = H.mulmod(x, r)) lo[j] = H.mform(x);
        const uint64_t step = x;  // r^(2^A)
        x = 1;
        for (size_t j = 0; j < hi.n; j++, x = H.mulmod(x, step)) hi[j] = H.mform(x);
        TRY(upload(plan, cp, lo, &M.rlo));
        TRY(upload(plan, cp, hi, &M.rhi));
    } else {
        HostBuf<Tw<T>> fw(n), iw(n);
        if (!fw.p || !iw.p) return NTT_ENOMEM;
        for (size_t i = 1; i < n; i++) {
            fw[i] = H.tw(cm->w[i]);
            iw[i] = H.tw(cm->winv[i]);
        }
        TRY(upload(plan, cp, fw, &M.ftw));
        TRY(upload(plan, cp, iw, &M.itw));
        const Geom &bottom = geo.passes[geo.npasses - 1];
        if (bottom.ct || geo.fused.ct) TRY(build_compact(plan, cp, H, cm, fw, iw, &M));
        if (geo.rho) {  // rtw[2^l + t] = w(l, t) / w(l, 0) (rho_stage), irtw the inverse's
            HostBuf<Tw<T>> rt((size_t)1 << bottom.P), irt(rt.n);
            if (!rt.p || !irt.p) return NTT_ENOMEM;
            for (size_t j = 1; j < rt.n; j++) {
                rt[j] = rho_entry(H, cm, j, false);
                irt[j] = rho_entry(H, cm, j, true);
            }
            TRY(upload(plan, cp, rt, &M.rtw));
            TRY(upload(plan, cp, irt, &M.irtw));
        }
    }
    *out = M;
    return NTT_OK;
}

template <class T> ntt_status upload_mods_t(ntt_plan *plan, CudaPlan *cp)
{
    HostBuf<Mod<T>> mods(plan->nmod);
    if (!mods.p) return NTT_ENOMEM;
    for (size_t i = 0; i < plan->nmod; i++) TRY(build_mod<T>(plan, cp, &plan->mod[i], &mods[i]));
    CK(plan, cudaMalloc(&cp->dmods, mods.n * sizeof(Mod<T>)));
    CK(plan, cudaMemcpy(cp->dmods, mods.p, mods.n * sizeof(Mod<T>), cudaMemcpyHostToDevice));
    return NTT_OK;
}

}  // namespace

ntt_status upload_mods(ntt_plan *plan, CudaPlan *cp)
{
    return plan->width == NTT_U32 ? upload_mods_t<uint32_t>(plan, cp)
                                  : upload_mods_t<uint64_t>(plan, cp);
}

}  // namespace nttc
