// Host-built twiddle tables and per-modulus constants (Mod<T>, cuda_mod.h)
// for a plan's kind and geometry, uploaded once when the plan is created:
// the tree-order tables with their companions (fast path), the compact
// tables and rho roots (group_butterflies), the staged twiddles' roots
// (rho_stage), the Montgomery kind's power tables, and the ladder's
// per-stage tables.  Host code over the CUDA runtime API.
#include "cuda_plan.h"

#include <cstdlib>
#include <cstring>

namespace nttc {

namespace {

template <class T> struct HostMod {
    const ntt_modulus *cm;
    int kind;
    T pinv_pos;  // p^-1 mod 2^k

    uint64_t mulmod(uint64_t a, uint64_t b) const { return ntt_mulmod_slow(a, b, cm->p); }
    // v in Montgomery form: v R mod p.
    T mform(uint64_t v) const { return (T)mulmod(v, cm->r_mod); }
    Tw<T> tw(uint64_t v, int k) const
    {
        const uint64_t p = cm->p;
        switch (k) {
        case K_SHOUP:
            return Tw<T>{(T)v, sizeof(T) == 4 ? (T)(ntt_shoup_pre64(v, p) >> 32)
                                              : (T)ntt_shoup_pre64(v, p)};
        case K_FP64: {  // w and w/p as doubles' bits (exact: v < p < 2^50)
            const double w = (double)v, q = w / (double)p;
            T bw, bq;
            memcpy(&bw, &w, sizeof bw);
            memcpy(&bq, &q, sizeof bq);
            return Tw<T>{bw, bq};
        }
        case K_MONT: {
            T w = mform(v);
            return Tw<T>{w, (T)(w * pinv_pos)};
        }
        default:
            return Tw<T>{(T)v, 0};
        }
    }
    Tw<T> tw(uint64_t v) const { return tw(v, kind); }
};

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
template <class T> Tw<T> rho_entry(const HostMod<T> &H, size_t j, bool inv)
{
    size_t b = j;  // 2^l: j's highest bit
    while (b & (b - 1)) b &= b - 1;
    const ntt_modulus *cm = H.cm;
    return H.tw(inv ? H.mulmod(cm->winv[j], cm->w[b]) : H.mulmod(cm->w[j], cm->winv[b]));
}

// The compact-twiddle tables (see group_butterflies): every 2^l-th node of
// each level, copied from the tree tables fw, iw (companions included), and
// the roots rho_l(t) read off the tree at level l.
template <class T>
ntt_status build_compact(const ntt_plan *plan, CudaPlan *cp, const HostMod<T> &H,
                         HostBuf<Tw<T>> &fw, HostBuf<Tw<T>> &iw, Mod<T> *M)
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
            M->rho[0][j] = rho_entry(H, j, false);
            M->rho[1][j] = rho_entry(H, j, true);
        }
    }
    return NTT_OK;
}

template <class T>
ntt_status build_mod(const ntt_plan *plan, CudaPlan *cp, const ntt_modulus *cm, Mod<T> *out)
{
    const uint64_t p = cm->p;
    const size_t n = plan->n;
    const int kind = cp->kind;
    const PlanGeometry &geo = cp->geo;
    HostMod<T> H{cm, kind, 0};
    H.pinv_pos = (T)(0 - ntt_mont_pinv64(p));  // -(-p^-1 mod 2^64), truncated to T's width

    Mod<T> M;
    memset(&M, 0, sizeof M);
    M.a.p = (T)p;
    M.a.p2 = (T)(2 * p);
    M.a.p4 = (T)(4 * p);
    M.a.pinv = H.pinv_pos;
    M.a.np = (T)(0 - p);
    M.a.mu = cm->mu;
    M.a.k = cm->k;
    M.a.dp = (double)p;
    M.a.dpi = 1.0 / (double)p;
    M.one_m = (T)cm->r_mod;
    const bool redc = kind == K_MONT || kind == K_SHOUP;
    const uint64_t finv = redc ? cm->r_mod : 1 % p;
    const uint64_t w1 = cm->winv[1], s = cm->n_inv, sm = H.mulmod(s, finv);
    M.s_inv = H.tw(s);
    M.s1_inv = H.tw(H.mulmod(s, w1));
    M.s_mul = H.tw(sm);
    M.s1_mul = H.tw(H.mulmod(sm, w1));
    M.fix = H.tw(finv);
    const bool nega = (plan->flags & NTT_FLAG_NEGACYCLIC) != 0;
    M.nfull = nega ? 2 * (uint64_t)n : (uint64_t)n;
    M.e0 = nega ? M.nfull / 2 : 0;
    const uint64_t r = cm->root, rinv = ntt_invmod(r, p);
    const uint64_t omega = nega ? H.mulmod(r, r) : r, omega_inv = ntt_invmod(omega, p);
    M.omega = (T)omega;
    M.omega_inv = (T)omega_inv;
    M.omega_m = H.mform(omega);
    M.omega_inv_m = H.mform(omega_inv);
    M.psi_m = H.mform(nega ? r : 1);
    M.psi_inv_m = H.mform(nega ? rinv : 1);
    M.ninv_m = H.tw(s, K_MONT);

    if (plan->variant == NTT_VARIANT_FAST && kind == K_MONT) {
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
    } else if (plan->variant == NTT_VARIANT_FAST) {
        HostBuf<Tw<T>> fw(n), iw(n);
        if (!fw.p || !iw.p) return NTT_ENOMEM;
        for (size_t i = 1; i < n; i++) {
            fw[i] = H.tw(cm->w[i]);
            iw[i] = H.tw(cm->winv[i]);
        }
        TRY(upload(plan, cp, fw, &M.ftw));
        TRY(upload(plan, cp, iw, &M.itw));
        const Geom &bottom = geo.passes[geo.npasses - 1];
        if (bottom.ct || geo.fused.ct) TRY(build_compact(plan, cp, H, fw, iw, &M));
        if (geo.rho) {  // rtw[2^l + t] = w(l, t) / w(l, 0) (rho_stage), irtw the inverse's
            HostBuf<Tw<T>> rt((size_t)1 << bottom.P), irt(rt.n);
            if (!rt.p || !irt.p) return NTT_ENOMEM;
            for (size_t j = 1; j < rt.n; j++) {
                rt[j] = rho_entry(H, j, false);
                irt[j] = rho_entry(H, j, true);
            }
            TRY(upload(plan, cp, rt, &M.rtw));
            TRY(upload(plan, cp, irt, &M.irtw));
        }
    } else if (plan->variant != NTT_VARIANT_BASELINE) {
        // Stage m of the DIT transform uses w_m^j, j < m/2, at m/2 - 1 + j.
        HostBuf<T> fw(n), fwx(n), iw(n), iwx(n);
        if (!fw.p || !fwx.p || !iw.p || !iwx.p) return NTT_ENOMEM;
        for (size_t m = 2; m <= n; m <<= 1) {
            const uint64_t wm = ntt_powmod(omega, n / m, p), wim = ntt_powmod(omega_inv, n / m, p);
            uint64_t a = 1, b = 1;
            for (size_t j = 0; j < m / 2; j++, a = H.mulmod(a, wm), b = H.mulmod(b, wim)) {
                Tw<T> f = H.tw(a), g = H.tw(b);
                fw[m / 2 - 1 + j] = f.w;
                fwx[m / 2 - 1 + j] = f.x;
                iw[m / 2 - 1 + j] = g.w;
                iwx[m / 2 - 1 + j] = g.x;
            }
        }
        TRY(upload(plan, cp, fw, &M.lfw));
        TRY(upload(plan, cp, fwx, &M.lfwx));
        TRY(upload(plan, cp, iw, &M.liw));
        TRY(upload(plan, cp, iwx, &M.liwx));
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
