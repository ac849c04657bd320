// The CUDA backend: plan set-up (tables uploaded once, scratch and pinned
// staging buffers allocated once), launches of the fast path and of the
// reports' ladder, host-pointer calls staged through the plan's pinned
// buffers, and the device-pointer entry points.
#include "cuda_fast.cuh"
#include "cuda_ladder.cuh"

extern "C" {
#include "../core/internal.h"
}

#include <pthread.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <utility>

using namespace nttc;

// The host code is C-style C++ (malloc, fixed arrays, no exceptions, no
// guarded statics) so that the static library links into C programs
// without the C++ runtime.

namespace {

const int kMaxPasses = 8;

struct CudaPlan {
    int device;
    cudaStream_t stream;  // host-pointer calls
    cudaStream_t stream2; // ... the second operand's copy, beside the first's transform
    cudaEvent_t b_in;     // ... that copy has landed
    void *dmods;          // Mod<T>[nmod] in device memory
    void **dallocs;       // tables, ndallocs of them
    size_t ndallocs, cap_dallocs;
    void *dA, *dB;        // scratch, batch * n elements each
    void *hA, *hB, *hC;   // pinned staging, same size
    size_t elem;
    Geom passes[kMaxPasses];  // a transform's, forward order
    int npasses;
    Geom mpasses[kMaxPasses];  // a product's (plan_passes), its last as the fused kernel's
    int nmpasses;
    Geom fused;                // mpasses' last, as the fused kernel takes it
    Geom bus0;                 // mpasses[0] for products on host memory (init_mods)
    size_t max_smem;
    int kind;                  // the kernels' arithmetic: plan->modmul, or K_FP64 (plan_kind)
    int last_error;
    bool widen;                // group_log may widen column groups (no NTT_CUDA_LOGC)
    bool rho;                  // the bottom passes compute their staged twiddles (rtw, irtw)
    size_t l2;                 // the device's L2 bytes
    int sms;                   // the device's multiprocessors
};

CudaPlan *cp_of(const ntt_plan *plan) { return static_cast<CudaPlan *>(plan->backend_data); }

// The last CUDA error of any plan, for ntt_cuda_last_error(NULL): plans made
// inside ntt_polymul_mod are not the caller's to ask.
volatile int g_last_error;

ntt_status fail(const ntt_plan *plan, cudaError_t e)
{
    if (plan && plan->backend_data) cp_of(plan)->last_error = (int)e;
    g_last_error = (int)e;
    (void)cudaGetLastError();  // clear a non-sticky error so later calls start clean
    return e == cudaErrorMemoryAllocation ? NTT_ENOMEM : NTT_EBACKEND;
}

#define CK(plan, call)                                   \
    do {                                                 \
        cudaError_t e_ = (call);                         \
        if (e_ != cudaSuccess) return fail((plan), e_);  \
    } while (0)

// ---- availability --------------------------------------------------------------

pthread_once_t avail_once = PTHREAD_ONCE_INIT;
int avail_result;

void probe_devices(void)
{
    int n = 0;
    if (cudaGetDeviceCount(&n) != cudaSuccess) {
        (void)cudaGetLastError();
        n = 0;
    }
    avail_result = n > 0 ? 1 : 0;
}

int cuda_available(void)
{
    pthread_once(&avail_once, probe_devices);
    return avail_result;
}

int cuda_supports(ntt_variant v, ntt_modmul m)
{
    switch (v) {
    case NTT_VARIANT_FAST:
        return 1;
    case NTT_VARIANT_BASELINE:  // powers in the kernel: no Shoup companions
        return m != NTT_MODMUL_SHOUP;
    case NTT_VARIANT_GPU_TABLE:
    case NTT_VARIANT_GPU_ASYNC:
    case NTT_VARIANT_GPU_SHARED:
        return 1;
    }
    return 0;
}

// ---- host-side constants ------------------------------------------------------------

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

#define TRY(x)                          \
    do {                                \
        ntt_status s_ = (x);            \
        if (s_ != NTT_OK) return s_;    \
    } while (0)

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
        if (cp->passes[cp->npasses - 1].ct || cp->fused.ct)
            TRY(build_compact(plan, cp, H, fw, iw, &M));
        if (cp->rho) {  // rtw[2^l + t] = w(l, t) / w(l, 0) (rho_stage), irtw the inverse's
            HostBuf<Tw<T>> rt((size_t)1 << cp->passes[cp->npasses - 1].P), irt(rt.n);
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

// ---- pass geometry -----------------------------------------------------------------
// The A/B knob `name` (NTT_CUDA_LOGC, NTT_CUDA_BOTTOM, ...) as a number, or
// `unset` where it is not set or empty.
int env_int(const char *name, int unset)
{
    const char *e = getenv(name);
    return e && *e ? atoi(e) : unset;
}
int env_logc() { return env_int("NTT_CUDA_LOGC", -1); }

// Up to 2^19 the bottom pass takes the last min(D, 11) levels on contiguous
// tiles (u32 of 2^12 .. 2^16: 9 or 10, below) and one pass above takes the
// rest over 128-byte (32 u32) or 64-byte (8 u64) column groups; u32 at 2^18
// and 2^19 take 64-byte groups, twice the blocks of that pass (64 or 128
// against the H100's 132 SMs): forward 2^19 12.7 -> 12.0 us, product 2^19
// 20.7 -> 19.6 us, 2^18 15.5 -> 15.2 us, where 2^13 to 2^17 lost 1-2%
// (gpu-h100-2026-11-22g-lc.txt).
// Beyond, both passes grow to tiles of up to 64 KiB (u64: the top pass over
// 32-byte column groups) or 128 KiB (u32: 64-byte groups), the bottom up to
// 2^13 elements, so that every size up to 2^24 takes two passes through
// memory; larger sizes add passes of at most 11 levels (u32 Shoup: 12) on
// top.  The u32 top passes of 2^20 to 2^22 took 32-byte groups until
// 64-byte ones measured faster on an H100: forward 2^21 22.8-23.3 -> 21.8-22.3
// us, 2^22 37.5-38.1 -> 36.5-37.1 us, 2^20 x 4 39.0-39.4 -> 34.7-35.0 us,
// products 2^20 34.3-34.9 -> 32.5-32.7 us and 2^21 65.3-65.6 -> 63.3-63.8 us,
// forward 2^20 level (bench/results/gpu-h100-2026-11-23h-lc.txt).
//
// u32 transforms from 2^23 take a 14-level bottom pass, which leaves the
// top pass 9 or 10 levels at 2^23 and 2^24: few enough for 128-byte column
// groups in a tile of at most 128 KiB.  On an H100 (graph warm, two runs
// alternated) the forward 2^23 went from 140 to 87 us (its top pass had
// 32-byte groups) and 2^24 from 187 to 174 us; 2^20 to 2^22 lost or stayed
// level (bench/results/gpu-h100-2026-11-22c-geo*).  At 2^25 it makes two
// passes of three (513 -> 348 us), and at 2^26, with a 12-level top pass
// (below), two of three (1053 -> 784-799 us; gpu-h100-2026-11-22f-*).
// Products keep the fused bottom at 13 levels or fewer (a 14-level fused
// kernel, two 66 KiB tiles and one block per SM, took the 2^24 product
// from 509 to 737 us); at 2^22 a 13-level one under a 9-level top pass
// with 128-byte groups took the product from 142 to 136 us, where at 2^23
// (10 + 13) it went from 253 to 256 us and is not taken.  NTT_CUDA_BOTTOM=b
// (transforms; b <= kMaxP for u32, kMaxFusedP for u64) forces the bottom
// levels, so that the sanitizers reach the 14-level kernels at small
// sizes and sweeps need no rebuild; NTT_CUDA_LOGC=c likewise gives the
// upper passes (transforms and products) groups of 2^c columns where the
// tile stays within 128 KiB, and no wider ones at launch (group_log).
int plan_passes(int D, size_t elem, int rmax, bool product, bool shoup32, Geom *g)
{
    int k = 0;
    // u64: 2^10-element bottom tiles, twice the blocks (58 against 69 us at
    // 2^16 x 40 on an H200), unless that would add a pass.
    int bottom = D < 11 ? D : 11;
    int logC = elem == 4 ? (D >= 18 ? 4 : 5) : 3, maxP = 8;
    if (elem == 8 && D >= 10 && D - 10 <= maxP) bottom = 10;
    // u32 of 2^12 .. 2^16: smaller bottom tiles, more blocks on a GPU these
    // sizes leave mostly idle.  On an H100 with 9 levels the forward 2^13
    // went from 7.7 to 6.8 us and the product 2^14 from 12.2 to 10.5 us, with
    // 10 the forward 2^16 from 8.5 to 7.7 us and the product from 13.0 to
    // 12.1 us; 2^17 stayed level or lost, 2^18 and 2^19 lost
    // (gpu-h100-2026-11-22g-bottom.txt).
    if (elem == 4 && D >= 12 && D <= 16) bottom = D <= 15 ? 9 : 10;
    if (D > 19) {
        logC = elem == 4 ? 4 : 2;
        maxP = 11;
        bottom = D - 11 < 13 ? (D - 11 > 11 ? D - 11 : 11) : 13;
        if (elem == 4 && (product ? D == 22 : D >= 23)) bottom = product ? 13 : 14;
        // u64 transforms of 2^22: 12 + 10 levels, whose top pass takes
        // 64-byte groups (below), rather than 11 + 11: on an H100 with the
        // conflict-free tiles, FP64 97.5-98.5 -> 88.3-88.8 us, 62-bit
        // 120.1-120.6 -> 112.6-113.1 us; 13 + 10 at 2^23 and 12-level bottom
        // passes at 2^18 and 2^20 stayed level or lost
        // (bench/results/gpu-h100-2026-11-23g-bottom.txt).
        if (elem == 8 && !product && D == 22) bottom = 12;
        // u32 Shoup beyond 2^24: one 12-level top pass over 32-byte groups
        // (128 KiB tiles) rather than two of 6: the 2^26 forward 808 ->
        // 784-799 us, the 2^25 product 1.18 -> 1.13 ms on an H100; u64 2^25
        // lost 2% (gpu-h100-2026-11-22f-top12.txt).  The other u32 kinds'
        // 12-level kernels spill (ptxas: up to 476 bytes) and were not timed.
        if (shoup32 && D >= 25) maxP = 12;
    }
    const int fb = !product ? env_int("NTT_CUDA_BOTTOM", 0) : 0;
    if (fb >= 1 && fb <= (elem == 4 ? kMaxP : kMaxFusedP)) bottom = fb < D ? fb : D;
    const int fc = env_logc();
    const int top = D - bottom;
    const int npass = (top + maxP - 1) / maxP;
    int d = 0;
    for (int i = 0; i < npass; i++) {
        const int P = (top - d) / (npass - i);
        const int lo = D - d - P;
        // u32 passes over 2^13 columns and more: the widest groups, up to
        // 128 bytes, whose 2^P rows fit a 128 KiB tile (64-byte ones at 2^24
        // took the forward from 193 to 176 us on an H200, where u64 lost
        // with them, 494 -> 550 us).  Products beyond 2^24 keep 64-byte
        // groups at most: on an H100 128-byte ones took the 2^25 and 2^26
        // products from 1.18 / 2.42 to 1.21 / 2.77 ms, where the 2^26
        // forward went from 889 to 808 us (gpu-h100-2026-11-22f-big.txt).
        int lc = logC;
        // u64 transforms beyond 2^19: 64-byte groups in passes of 10 levels
        // or fewer (tiles of at most 66 KiB, padded: three blocks per SM),
        // 32-byte ones above.  On an H100, forward 2^20 30.3 -> 29.0 us, 2^21
        // 60.7 -> 58.0 us, 2^25 (two top passes of 6 levels) 1.053 -> 0.971
        // ms; the 11-level top passes of 2^22 and 2^24 lost with them (122.5
        // -> 129.0, 456 -> 493-502 us; gpu-h100-2026-11-22j-u64groups.txt).
        // Products take them in top passes of 9 levels (2^20): FP64 79.5-80.7
        // -> 76.4 us, 62-bit 84.5-85.1 -> 81.0-81.1 us, where 2^21 (10
        // levels) stayed level and 2^22 (11) lost 10-15%
        // (gpu-h100-2026-11-23h-u64prod.txt); beyond 2^24, not measured, they
        // keep 32-byte ones.
        if (elem == 8 && D > 19 && (product ? P <= 9 && D <= 24 : P <= 10)) lc = 3;
        if (elem == 4 && lo >= 13) {
            lc = 15 - P < 5 ? 15 - P : 5;  // 2^(P + lc) u32 in 128 KiB
            if (product && D > 24 && lc > 4) lc = 4;
        }
        if (fc >= 0 && fc <= 8 && (elem << (P + fc)) <= ((size_t)128 << 10)) lc = fc;
        g[k++] = Geom{d, P, lo, lc < lo ? lc : lo, rmax, 0, 4, 0, 0};
        d += P;
    }
    // The bottom pass: lo = 0, one column per block, which the kernels that run
    // only bottom passes take as constants (bottom_geom).
    g[k++] = Geom{d, bottom, 0, 0, rmax, 0, 4, 0, 0};
    return k;  /* at most 1 + ceil(17 / 11) for D <= 30 */
}

// u32 (radix-16 kernels): one thread per group of the smallest round, the
// larger rounds leave some idle.  u64 (radix-8 kernels): one thread per
// radix-8 group, a shorter round's groups take two turns: fewer, fuller
// threads measured faster for u64 (60 against 69 us at 2^16 x 40), the
// other way round for u32.  At most the kernel's bound.
int pass_threads(const Geom &g, int max_threads)
{
    const int last = round_count(g.P, g.rmax) - 1;
    const int r = g.rmax == 3 && g.P > 3 ? 3 : round_size(g.P, g.rmax, last);
    const int groups = (1 << g.logC) << (g.P - r);
    return groups < 32 ? 32 : groups > max_threads ? max_threads : groups;
}

template <class T> size_t pass_smem(const Geom &g, bool fused)
{
    const size_t t = (tile_bytes<T>(g) + 15) & ~(size_t)15;
    const int tables = fused ? 2 : 1;
    return tables * t + (g.stw ? stw_bytes<T>(g.P, tables) : 0);
}

template <class T> const Mod<T> *dmods(const ntt_plan *plan)
{
    return static_cast<const Mod<T> *>(cp_of(plan)->dmods);
}

// ---- fast path launches -----------------------------------------------------------

const size_t kMaxGridY = 65535;

// A pass's blocks along x: one per column group of every node.
inline size_t pass_grid_x(const Geom &g) { return (size_t)1 << (g.d0 + g.lo - g.logC); }

// Launches a pass kernel over `items` batch items in chunks of at most
// 65535 (gridDim.y), moving the operand pointers along.
template <class T>
ntt_status launch_tiles(ntt_plan *plan, void (*kern)(PassArgs<T>), const Geom &g, PassArgs<T> a,
                        size_t items, int nz, bool fused, cudaStream_t st)
{
    const int tmax = pass_max_threads(sizeof(T), pass_occ(sizeof(T), g));
    // The fused kernel: one half of the block per operand.
    const dim3 block(fused ? 2 * pass_threads(g, 256) : pass_threads(g, tmax));
    const size_t smem = pass_smem<T>(g, fused);
    const size_t gx = pass_grid_x(g);
    for (size_t i0 = 0; i0 < items; i0 += kMaxGridY) {
        const size_t ni = items - i0 < kMaxGridY ? items - i0 : kMaxGridY;
        PassArgs<T> b = a;
        b.g = g;
        for (int z = 0; z < 2; z++) {
            if (b.in[z]) b.in[z] += i0 * a.in_stride;
            if (b.out[z]) b.out[z] += i0 * a.out_stride;
        }
        b.item0 = a.item0 + (int)(i0 % (size_t)a.nmod);
        CK(plan, NTT_LAUNCH_PDL(kern, dim3((unsigned)gx, (unsigned)ni, nz), block, smem, st, b));
        CK(plan, cudaGetLastError());
    }
    return NTT_OK;
}

// The kernels made for column height P (1 .. kMaxP), by run-time P.
template <class T> using PassKernel = void (*)(PassArgs<T>);
enum Family { FWD_PASS, INV_PASS, FUSED };

template <class T, int K, int P, bool CT, int OCC, int CAP>
PassKernel<T> family_kernel(Family f, const Geom &g)
{
    if (f == FWD_PASS) {
        if constexpr (has_stw<T>(K, P, CT, false) && OCC != OCC_BIG)
            if (g.stw) return k_pass<T, K, false, P, CT, OCC, CAP, true>;
        return k_pass<T, K, false, P, CT, OCC, CAP>;
    }
    if (f == INV_PASS) {
        if constexpr (K == K_FP64 && has_stw<T>(K, P, CT, false) && OCC != OCC_BIG)
            if (g.stw) return k_pass<T, K, true, P, CT, OCC, CAP, true>;
        return k_pass<T, K, true, P, CT, OCC, CAP>;
    }
    if constexpr (P <= kMaxFusedP) {
        if constexpr (has_stw<T>(K, P, CT, true))
            if (g.stw) return k_polymul_bottom<T, K, P, CT, CAP, true>;
        return k_polymul_bottom<T, K, P, CT, CAP, false>;
    } else {
        return nullptr;
    }
}

template <class T, int K, int P, int OCC, bool CT> PassKernel<T> cap_kernel(Family f, const Geom &g)
{
    if constexpr (K == K_SHOUP && sizeof(T) == 4)
        if (g.cap == 8) return family_kernel<T, K, P, CT, OCC, 8>(f, g);
    return family_kernel<T, K, P, CT, OCC, 4>(f, g);
}

template <class T, int K, int P, int OCC> PassKernel<T> ct_kernel(Family f, const Geom &g)
{
    if constexpr (((K == K_SHOUP && sizeof(T) == 4) || K == K_FP64) && P >= kMinCompactP)
        if (g.ct) return cap_kernel<T, K, P, OCC, true>(f, g);
    return cap_kernel<T, K, P, OCC, false>(f, g);
}

// Compact-twiddle kernels exist only where plans use them (init_mods), WIDE
// and BIG ones where has_occ says, 14-level ones for u32 transforms
// (plan_passes; the fused kernel has its own bounds), those of the wider
// ranges for the u32 Shoup kind (plan_cap).
template <class T, int K, int P> PassKernel<T> pass_kernel(Family f, const Geom &g, int occ)
{
    if constexpr (P > kMaxFusedP && sizeof(T) != 4) {
        return nullptr;
    } else {
        if constexpr (has_occ(sizeof(T), P, OCC_WIDE))
            if (occ == OCC_WIDE && f != FUSED) return ct_kernel<T, K, P, OCC_WIDE>(f, g);
        if constexpr (has_occ(sizeof(T), P, OCC_BIG))
            if (occ == OCC_BIG && f != FUSED) return ct_kernel<T, K, P, OCC_BIG>(f, g);
        return ct_kernel<T, K, P, OCC_FREE>(f, g);
    }
}

template <class T, int K, int... I>
PassKernel<T> fast_kernel(Family f, const Geom &g, std::integer_sequence<int, I...>)
{
    PassKernel<T> k = nullptr;
    const int occ = pass_occ(sizeof(T), g);
    ((g.P == I + 1 ? (void)(k = pass_kernel<T, K, I + 1>(f, g, occ)) : (void)0), ...);
    return k;
}
template <class T, int K> PassKernel<T> fast_kernel(Family f, const Geom &g)
{
    return fast_kernel<T, K>(f, g, std::make_integer_sequence<int, kMaxP>());
}

// The column groups of an upper pass at launch.  u64 passes of six levels
// or fewer (transforms of 2^16 and less) hold only 2^(P + 3) elements per
// block in 64-byte groups; where a batch leaves two blocks per SM and more,
// groups of up to 2^(10 - P) columns (128 at most) make blocks of 2^10
// elements (FP64 forward 2^12 x 640 on an H100: 72 -> 30 us).  Single
// transforms keep the plan's groups: wider ones leave too few blocks
// (ARCHITECTURE, Passes).
template <class T> int group_log(const ntt_plan *plan, const Geom &g, size_t items, int nz)
{
    if (sizeof(T) != 8 || g.lo == 0 || g.P > 6 || !cp_of(plan)->widen) return g.logC;
    int lc = 10 - g.P < 7 ? 10 - g.P : 7;
    if (lc > g.lo) lc = g.lo;
    const size_t cols = (items * (size_t)nz) << (g.d0 + g.lo);
    while (lc > g.logC && (cols >> lc) < 2 * (size_t)cp_of(plan)->sms) lc--;
    return lc > g.logC ? lc : g.logC;
}

// An inverse pass's first round reads its largest levels: it stages only
// what it computes (rho_stage).
bool inv_stw(const ntt_plan *plan, const Geom &g) { return g.stw && cp_of(plan)->rho; }

template <class T, int K, bool INV>
ntt_status launch_pass(ntt_plan *plan, const Geom &g, PassArgs<T> a, size_t items, int nz,
                       cudaStream_t st)
{
    Geom gk = g;
    gk.logC = group_log<T>(plan, g, items, nz);
    if (INV) gk.stw = inv_stw(plan, g);
    gk.many = items * (size_t)nz * pass_grid_x(gk) > (size_t)cp_of(plan)->sms;
    return launch_tiles<T>(plan, fast_kernel<T, K>(INV ? INV_PASS : FWD_PASS, gk), gk, a, items,
                           nz, false, st);
}

template <class T, int K>
ntt_status launch_bottom(ntt_plan *plan, const Geom &g, PassArgs<T> a, size_t items, cudaStream_t st)
{
    return launch_tiles<T>(plan, fast_kernel<T, K>(FUSED, g), g, a, items, 1, true, st);
}

// One thread per element: n <= 2^30 gives at most 2^22 blocks of 256, well
// inside gridDim.x's 2^31 - 1.
dim3 grid1d(size_t n, size_t items, int block)
{
    return dim3((unsigned)((n + block - 1) / block), (unsigned)items);
}

template <class T>
ntt_status launch_bitrev(ntt_plan *plan, T *a, size_t count, size_t stride, cudaStream_t st)
{
    for (size_t i0 = 0; i0 < count; i0 += kMaxGridY) {
        const size_t ni = count - i0 < kMaxGridY ? count - i0 : kMaxGridY;
        void (*kern)(T *, int, size_t) = k_bitrev<T>;
        NTT_LAUNCH_THREADS(kern, grid1d(plan->n, ni, 256), 256, 0, st, a + i0 * stride,
                           (int)plan->logn, stride);
        CK(plan, cudaGetLastError());
    }
    return NTT_OK;
}

template <class T> PassArgs<T> base_args(const ntt_plan *plan, size_t item0)
{
    PassArgs<T> a;
    memset(&a, 0, sizeof a);
    a.mods = dmods<T>(plan);
    a.nmod = (int)plan->nmod;
    a.item0 = (int)(item0 % plan->nmod);
    return a;
}

// A host-pointer product's operands may still be landing (b_ready: b's
// copy; null when both are there), and it may write c only once the CPU's
// check of the inputs has passed (gate(ctx), called just before the first
// launch that writes c; null: no check).  Device-pointer calls pass none.
struct Arrival {
    cudaEvent_t b_ready;
    bool (*gate)(const void *ctx);
    const void *ctx;
};

bool passes_gate(const Arrival *arr) { return !arr || !arr->gate || arr->gate(arr->ctx); }

template <class T, int K>
ntt_status fast_transform(ntt_plan *plan, T *d, size_t count, size_t stride, cudaStream_t st,
                          bool inv)
{
    CudaPlan *cp = cp_of(plan);
    const bool natural = (plan->flags & NTT_FLAG_NATURAL_ORDER) != 0;
    if (inv && natural) TRY(launch_bitrev(plan, d, count, stride, st));
    const size_t np = (size_t)cp->npasses;
    for (size_t q = 0; q < np; q++) {
        const Geom &g = cp->passes[inv ? np - 1 - q : q];
        PassArgs<T> a = base_args<T>(plan, 0);
        a.in[0] = d;
        a.out[0] = d;
        a.in_stride = a.out_stride = stride;
        a.in_len[0] = a.out_len = plan->n;
        if (q == np - 1) a.flags = inv ? F_REDUCE | F_SCALE_INV : F_REDUCE;
        if (inv)
            TRY((launch_pass<T, K, true>(plan, g, a, count, 1, st)));
        else
            TRY((launch_pass<T, K, false>(plan, g, a, count, 1, st)));
    }
    if (!inv && natural) TRY(launch_bitrev(plan, d, count, stride, st));
    return NTT_OK;
}

// c = a b: top forward passes of both operands into the scratch buffers, the
// fused bottom pass, the top inverse passes; one or two launches per pass.
// When arr->b_ready is given, b is still arriving: a's first pass runs
// before st waits for it.
template <class T, int K>
ntt_status fast_polymul(ntt_plan *plan, T *c, size_t lc, const T *a, size_t la, const T *b,
                        size_t lb, size_t count, size_t stride, cudaStream_t st,
                        const Arrival *arr)
{
    CudaPlan *cp = cp_of(plan);
    const size_t n = plan->n, np = (size_t)cp->nmpasses;
    const cudaEvent_t b_ready = arr ? arr->b_ready : nullptr;
    if (np == 1) {
        if (b_ready) CK(plan, cudaStreamWaitEvent(st, b_ready, 0));
        if (!passes_gate(arr)) return NTT_ERANGE;
        PassArgs<T> x = base_args<T>(plan, 0);
        x.in[0] = a;
        x.in[1] = b;
        x.out[0] = c;
        x.in_stride = x.out_stride = stride;
        x.in_len[0] = la;
        x.in_len[1] = lb;
        x.out_len = lc;
        return launch_bottom<T, K>(plan, cp->fused, x, count, st);
    }
    T *A = static_cast<T *>(cp->dA), *B = static_cast<T *>(cp->dB);
    const Geom &g0 = arr ? cp->bus0 : cp->mpasses[0];  // the passes on a, b and c
    for (size_t i0 = 0; i0 < count; i0 += plan->batch) {
        const size_t ni = count - i0 < plan->batch ? count - i0 : plan->batch;
        PassArgs<T> x = base_args<T>(plan, i0);
        x.in[0] = a + i0 * stride;
        x.in[1] = b + i0 * stride;
        x.out[0] = A;
        x.out[1] = B;
        x.in_stride = stride;
        x.out_stride = n;
        x.in_len[0] = la;
        x.in_len[1] = lb;
        x.out_len = n;
        if (b_ready) {
            PassArgs<T> y = x;
            y.in[1] = nullptr;
            y.out[1] = nullptr;
            TRY((launch_pass<T, K, false>(plan, g0, y, ni, 1, st)));
            CK(plan, cudaStreamWaitEvent(st, b_ready, 0));
            y.in[0] = x.in[1];
            y.out[0] = B;
            y.in_len[0] = lb;
            TRY((launch_pass<T, K, false>(plan, g0, y, ni, 1, st)));
        } else {
            TRY((launch_pass<T, K, false>(plan, g0, x, ni, 2, st)));
        }
        x.in[0] = A;
        x.in[1] = B;
        x.in_stride = n;
        x.in_len[0] = x.in_len[1] = n;
        for (size_t q = 1; q + 1 < np; q++) TRY((launch_pass<T, K, false>(plan, cp->mpasses[q], x, ni, 2, st)));
        TRY((launch_bottom<T, K>(plan, cp->fused, x, ni, st)));
        x.in[1] = nullptr;
        x.out[1] = nullptr;
        for (size_t q = np - 1; q-- > 0;) {
            if (q == 0) {
                // the first chunk's last pass is the first launch to write c
                if (i0 == 0 && !passes_gate(arr)) return NTT_ERANGE;
                x.out[0] = c + i0 * stride;
                x.out_stride = stride;
                x.out_len = lc;
                x.flags = F_REDUCE | F_SCALE_MUL;
            }
            TRY((launch_pass<T, K, true>(plan, q ? cp->mpasses[q] : g0, x, ni, 1, st)));
        }
    }
    return NTT_OK;
}

template <class T, int K>
ntt_status launch_pointwise(ntt_plan *plan, T *c, const T *a, const T *b, size_t count,
                            size_t stride, cudaStream_t st)
{
    for (size_t i0 = 0; i0 < count; i0 += kMaxGridY) {
        const size_t ni = count - i0 < kMaxGridY ? count - i0 : kMaxGridY;
        const size_t o = i0 * stride;
        void (*kern)(T *, const T *, const T *, size_t, size_t, const Mod<T> *, int, int) =
            k_pointwise<T, K>;
        NTT_LAUNCH_THREADS(kern, grid1d(plan->n, ni, 256), 256, 0, st, c + o, a + o, b + o,
                           plan->n, stride, dmods<T>(plan), (int)plan->nmod,
                           (int)(i0 % plan->nmod));
        CK(plan, cudaGetLastError());
    }
    return NTT_OK;
}

// ---- the reports' ladder ----------------------------------------------------------

template <class T, int K>
ntt_status ladder_dit(ntt_plan *plan, T *d, size_t count, size_t stride, cudaStream_t st, bool inv)
{
    const size_t n = plan->n;
    const int blk = plan->cuda_block;
    const bool sync = plan->variant == NTT_VARIANT_BASELINE || plan->variant == NTT_VARIANT_GPU_TABLE;
    size_t m0 = 2;
    typedef void (*stage_fn)(T *, size_t, size_t, size_t, const Mod<T> *, int, int, bool);
    stage_fn shared_k = k_lshared<T, K>, tab_k = k_lstage<T, K, false>, pow_k = tab_k;
    if constexpr (K != K_SHOUP) pow_k = k_lstage<T, K, true>;
    stage_fn stage_k = plan->variant == NTT_VARIANT_BASELINE ? pow_k : tab_k;
    for (size_t i0 = 0; i0 < count; i0 += kMaxGridY) {
        const size_t ni = count - i0 < kMaxGridY ? count - i0 : kMaxGridY;
        T *v = d + i0 * stride;
        const int item0 = (int)(i0 % plan->nmod);
        if (plan->variant == NTT_VARIANT_GPU_SHARED) {
            const size_t chunk = 2 * (size_t)blk;
            const size_t gx = (n + chunk - 1) / chunk;
            NTT_LAUNCH_BLOCK(shared_k, dim3((unsigned)gx, (unsigned)ni), blk, chunk * sizeof(T), st,
                             v, n, chunk, stride, dmods<T>(plan), (int)plan->nmod, item0, inv);
            CK(plan, cudaGetLastError());
            m0 = chunk * 2;
        }
        for (size_t m = m0; m <= n; m <<= 1) {
            const dim3 grid((unsigned)((n / 2 + blk - 1) / blk), (unsigned)ni);
            NTT_LAUNCH_THREADS(stage_k, grid, blk, 0, st, v, n, m, stride, dmods<T>(plan),
                               (int)plan->nmod, item0, inv);
            CK(plan, cudaGetLastError());
            // The first report synchronized after every stage.
            if (sync) CK(plan, cudaStreamSynchronize(st));
        }
    }
    return NTT_OK;
}

template <class T>
ntt_status ladder_twist(ntt_plan *plan, T *d, size_t count, size_t stride, cudaStream_t st, int mode)
{
    for (size_t i0 = 0; i0 < count; i0 += kMaxGridY) {
        const size_t ni = count - i0 < kMaxGridY ? count - i0 : kMaxGridY;
        void (*kern)(T *, size_t, size_t, const Mod<T> *, int, int, int) = k_ltwist<T>;
        NTT_LAUNCH_THREADS(kern, grid1d(plan->n, ni, 256), 256, 0, st, d + i0 * stride, plan->n,
                           stride, dmods<T>(plan), (int)plan->nmod, (int)(i0 % plan->nmod), mode);
        CK(plan, cudaGetLastError());
    }
    return NTT_OK;
}

// Transforms with the plan's spectrum order: the DIT stages want bit-reversed
// input and give natural order, so a bit-reversed spectrum costs one more
// permutation going forward and none coming back.
template <class T, int K>
ntt_status ladder_transform(ntt_plan *plan, T *d, size_t count, size_t stride, cudaStream_t st,
                            bool inv)
{
    const bool nega = (plan->flags & NTT_FLAG_NEGACYCLIC) != 0;
    const bool natural = (plan->flags & NTT_FLAG_NATURAL_ORDER) != 0;
    if (!inv) {
        if (nega) TRY(ladder_twist<T>(plan, d, count, stride, st, 0));
        TRY(launch_bitrev(plan, d, count, stride, st));
        TRY((ladder_dit<T, K>(plan, d, count, stride, st, false)));
        if (!natural) TRY(launch_bitrev(plan, d, count, stride, st));
    } else {
        if (natural) TRY(launch_bitrev(plan, d, count, stride, st));
        TRY((ladder_dit<T, K>(plan, d, count, stride, st, true)));
        TRY(ladder_twist<T>(plan, d, count, stride, st, nega ? 1 : 2));
    }
    return NTT_OK;
}

template <class T, int K>
ntt_status ladder_polymul(ntt_plan *plan, T *c, size_t lc, const T *a, size_t la, const T *b,
                          size_t lb, size_t count, size_t stride, cudaStream_t st,
                          const Arrival *arr)
{
    CudaPlan *cp = cp_of(plan);
    if (arr && arr->b_ready) CK(plan, cudaStreamWaitEvent(st, arr->b_ready, 0));
    if (!passes_gate(arr)) return NTT_ERANGE;  // before the pads, which may write c
    const size_t n = plan->n;
    T *A = static_cast<T *>(cp->dA), *B = static_cast<T *>(cp->dB);
    const bool nega = (plan->flags & NTT_FLAG_NEGACYCLIC) != 0;
    for (size_t i0 = 0; i0 < count; i0 += plan->batch) {
        const size_t ni = count - i0 < plan->batch ? count - i0 : plan->batch;
        void (*pad)(T *, const T *, size_t, size_t, size_t, size_t) = k_pad<T>;
        NTT_LAUNCH_THREADS(pad, grid1d(n, ni, 256), 256, 0, st, A, a + i0 * stride, n, la, n, stride);
        CK(plan, cudaGetLastError());
        NTT_LAUNCH_THREADS(pad, grid1d(n, ni, 256), 256, 0, st, B, b + i0 * stride, n, lb, n, stride);
        CK(plan, cudaGetLastError());
        // The reports' order: natural-order spectra, a permutation before each DIT.
        T *ops[2] = {A, B};
        for (int o = 0; o < 2; o++) {
            if (nega) TRY(ladder_twist<T>(plan, ops[o], ni, n, st, 0));
            TRY(launch_bitrev(plan, ops[o], ni, n, st));
            TRY((ladder_dit<T, K>(plan, ops[o], ni, n, st, false)));
        }
        TRY((launch_pointwise<T, K>(plan, A, A, B, ni, n, st)));
        TRY(launch_bitrev(plan, A, ni, n, st));
        TRY((ladder_dit<T, K>(plan, A, ni, n, st, true)));
        TRY(ladder_twist<T>(plan, A, ni, n, st, nega ? 1 : 2));
        if (c + i0 * stride != A)
            CK(plan, cudaMemcpy2DAsync(c + i0 * stride, stride * sizeof(T), A, n * sizeof(T),
                                       lc * sizeof(T), ni, cudaMemcpyDeviceToDevice, st));
    }
    return NTT_OK;
}

// ---- dispatch on width and kind ----------------------------------------------------

template <class T, int K> struct Impl {
    static ntt_status transform(ntt_plan *p, void *d, size_t count, size_t stride, cudaStream_t st,
                                bool inv)
    {
        if (p->variant == NTT_VARIANT_FAST)
            return fast_transform<T, K>(p, static_cast<T *>(d), count, stride, st, inv);
        if constexpr (K != K_FP64)  // the fast path's only (plan_kind)
            return ladder_transform<T, K>(p, static_cast<T *>(d), count, stride, st, inv);
        return NTT_EUNSUPPORTED;
    }
    static ntt_status pointwise(ntt_plan *p, void *c, const void *a, const void *b, size_t count,
                                size_t stride, cudaStream_t st)
    {
        return launch_pointwise<T, K>(p, static_cast<T *>(c), static_cast<const T *>(a),
                                      static_cast<const T *>(b), count, stride, st);
    }
    static ntt_status polymul(ntt_plan *p, void *c, size_t lc, const void *a, size_t la,
                              const void *b, size_t lb, size_t count, size_t stride, cudaStream_t st,
                              const Arrival *arr)
    {
        if (p->variant == NTT_VARIANT_FAST)
            return fast_polymul<T, K>(p, static_cast<T *>(c), lc, static_cast<const T *>(a), la,
                                      static_cast<const T *>(b), lb, count, stride, st, arr);
        if constexpr (K != K_FP64)
            return ladder_polymul<T, K>(p, static_cast<T *>(c), lc, static_cast<const T *>(a), la,
                                        static_cast<const T *>(b), lb, count, stride, st, arr);
        return NTT_EUNSUPPORTED;
    }
    // The dynamic shared-memory limit is an attribute of the kernel, shared by
    // every plan in the process: raised to the device's maximum, never set to
    // one plan's need (which would starve a larger plan made earlier).
    static ntt_status prepare(ntt_plan *p, int smem_max)
    {
        if (p->variant != NTT_VARIANT_FAST) return NTT_OK;
        // The driver sizes each kernel's shared memory against its L1 (at
        // 2^18: 64 KiB for the passes, 164 KiB for the fused kernel).  One
        // preference for all, so that consecutive kernels share an SM's
        // configuration, lost: the most shared memory took the 2^24 forward
        // from 159 to 164 us and the 2^18 product from 13.8 to 14.1 us, and
        // the least (the most L1) up to twice the time (H100,
        // gpu-h100-2026-11-24t-carveout.txt).  NTT_CUDA_CARVEOUT=percent sets
        // one for such runs.
        const int carve = env_int("NTT_CUDA_CARVEOUT", -1);
        // Only the kernels this plan launches: the passes of its transforms
        // and its products both ways, and the fused kernel.
        auto allow = [&](Family f, const Geom &g) -> ntt_status {
            CK(p, cudaFuncSetAttribute(fast_kernel<T, K>(f, g),
                                       cudaFuncAttributeMaxDynamicSharedMemorySize, smem_max));
            if (carve >= 0)
                CK(p, cudaFuncSetAttribute(fast_kernel<T, K>(f, g),
                                           cudaFuncAttributePreferredSharedMemoryCarveout, carve));
            return NTT_OK;
        };
        const CudaPlan *cp = cp_of(p);
        auto both = [&](Geom g) -> ntt_status {
            // Either shape of pass_occ, the second only where it differs.
            Geom gm = g;
            gm.many = 1;
            g.many = 0;
            const int shapes = pass_occ(sizeof(T), gm) != pass_occ(sizeof(T), g) ? 2 : 1;
            for (; g.many < shapes; g.many++) {
                TRY(allow(FWD_PASS, g));
                Geom gi = g;
                gi.stw = inv_stw(p, g);
                TRY(allow(INV_PASS, gi));
            }
            return NTT_OK;
        };
        for (int i = 0; i < cp->npasses; i++) TRY(both(cp->passes[i]));
        for (int i = 0; i + 1 < cp->nmpasses; i++) TRY(both(cp->mpasses[i]));
        TRY(allow(FUSED, cp->fused));
        return NTT_OK;
    }
};

struct Table {
    ntt_status (*transform)(ntt_plan *, void *, size_t, size_t, cudaStream_t, bool);
    ntt_status (*pointwise)(ntt_plan *, void *, const void *, const void *, size_t, size_t,
                            cudaStream_t);
    ntt_status (*polymul)(ntt_plan *, void *, size_t, const void *, size_t, const void *, size_t,
                          size_t, size_t, cudaStream_t, const Arrival *);
    ntt_status (*prepare)(ntt_plan *, int);
};

template <class T, int K> constexpr Table table_of()
{
    return Table{Impl<T, K>::transform, Impl<T, K>::pointwise, Impl<T, K>::polymul,
                 Impl<T, K>::prepare};
}

const Table kTables[2][4] = {
    {table_of<uint32_t, K_NAIVE>(), table_of<uint32_t, K_BARRETT>(), table_of<uint32_t, K_MONT>(),
     table_of<uint32_t, K_SHOUP>()},
    {table_of<uint64_t, K_NAIVE>(), table_of<uint64_t, K_BARRETT>(), table_of<uint64_t, K_MONT>(),
     table_of<uint64_t, K_SHOUP>()}};

const Table kFp64Table = table_of<uint64_t, K_FP64>();

const Table &tab(const ntt_plan *p)
{
    const int kind = cp_of(p)->kind;
    return kind == K_FP64 ? kFp64Table : kTables[p->width == NTT_U64][kind - 1];
}

// ---- plan set-up ----------------------------------------------------------------------

void cuda_plan_free(ntt_plan *plan)
{
    CudaPlan *cp = cp_of(plan);
    if (!cp) return;
    for (size_t i = 0; i < cp->ndallocs; i++) cudaFree(cp->dallocs[i]);
    free(cp->dallocs);
    cudaFree(cp->dmods);
    cudaFree(cp->dA);
    cudaFree(cp->dB);
    cudaFreeHost(cp->hA);
    cudaFreeHost(cp->hB);
    cudaFreeHost(cp->hC);
    if (cp->stream) cudaStreamDestroy(cp->stream);
    if (cp->stream2) cudaStreamDestroy(cp->stream2);
    if (cp->b_in) cudaEventDestroy(cp->b_in);
    (void)cudaGetLastError();
    free(cp);
    plan->backend_data = nullptr;
}

// The plans whose fast-path kernels have variants of their own: compact
// twiddles (init_mods) and the wider ranges (plan_cap); and the only ones
// whose 12-level kernels run as top passes (plan_passes).
bool u32_shoup_fast(const ntt_plan *plan)
{
    return plan->variant == NTT_VARIANT_FAST && plan->width == NTT_U32 &&
           plan->modmul == NTT_MODMUL_SHOUP;
}

// The u64 Shoup kind of the fast path computes in FP64 (K_FP64,
// cuda_common.cuh) when every prime lies below 2^50; NTT_CUDA_FP64=0 keeps
// the integer kernels, for A/B runs.
int plan_kind(const ntt_plan *plan)
{
    const char *e = getenv("NTT_CUDA_FP64");
    if ((e && atoi(e) == 0) || plan->variant != NTT_VARIANT_FAST || plan->width != NTT_U64 ||
        plan->modmul != NTT_MODMUL_SHOUP)
        return plan->modmul;
    for (size_t i = 0; i < plan->nmod; i++)
        if (plan->mod[i].p >= ((uint64_t)1 << kFp64Bits)) return plan->modmul;
    return K_FP64;
}

// The ranges the fast path's kernels keep (Geom::cap, group_butterflies):
// below 8p where the u32 Shoup kernels have every prime below 2^29, else
// below 4p.  NTT_CUDA_CAP=4 keeps the narrower ones, for A/B runs.
int plan_cap(const ntt_plan *plan)
{
    const char *e = getenv("NTT_CUDA_CAP");
    if ((e && atoi(e) == 4) || !u32_shoup_fast(plan)) return 4;
    for (size_t i = 0; i < plan->nmod; i++)
        if (plan->mod[i].p >= ((uint64_t)1 << 29)) return 4;
    return 8;
}

template <class T> ntt_status init_mods(ntt_plan *plan, CudaPlan *cp)
{
    const int D = (int)plan->logn;
    const bool s32 = u32_shoup_fast(plan);
    cp->npasses = plan_passes(D, sizeof(T), pass_rmax<T>(), false, s32, cp->passes);
    cp->nmpasses = plan_passes(D, sizeof(T), pass_rmax<T>(), true, s32, cp->mpasses);
    // Compact twiddles (group_butterflies) from 2^22 on for the u32 Shoup
    // kind: on an H100, u32 forward 2^22 / 2^23 / 2^24 took 55.9 / 158.5 / 196 us with
    // the tree's tables and 54.4 / 148 / 192 us with them, 2^20 and 2^21
    // (tables in L2) 17.5 -> 19.0 and 29.5 -> 32.9 us; u64 2^24 in the
    // integer kernels, bound by arithmetic, 521 -> 547 us (gpu-h100-2026-11-21l-ct.txt).
    // The FP64 kernels (u64, plan_kind), whose products are cheap, take them
    // from 2^19: u64 forward 2^24 432 -> 401 us, 2^22 116 -> 106 us, 2^20
    // 23.4 -> 22.9 us on an H100 (gpu-h100-2026-11-23a-fp64.txt).  Below,
    // their bottom passes stage the tree's twiddles (has_stw), which beat
    // compact ones: forward 2^16 9.2 -> 8.5 us, 2^16 x 40 35.4 -> 34.8 us,
    // 2^17 10.3 -> 9.5 us, products 2^16 15.3 -> 14.2 us, 2^17 17.5 ->
    // 16.4 us, 2^18 level (gpu-h100-2026-11-23e-fp64stw.txt).
    // NTT_CUDA_COMPACT_LOG=k moves the threshold, for tests and A/B runs.
    cp->widen = env_logc() < 0;
    const int compact_log = env_int("NTT_CUDA_COMPACT_LOG", cp->kind == K_FP64 ? 19 : 22);
    const int cap = plan_cap(plan);
    for (int m = 0; m < 2; m++) {
        Geom *g = m ? cp->mpasses : cp->passes;
        const int np = m ? cp->nmpasses : cp->npasses;
        g[np - 1].ct = (s32 || cp->kind == K_FP64) && np > 1 && g[np - 1].P >= kMinCompactP &&
                       D >= compact_log;
        for (int i = 0; i < np; i++) g[i].cap = cap;
    }
    cp->fused = cp->mpasses[cp->nmpasses - 1];
    // A host-pointer product's first pass reads its operands over the bus,
    // and its last writes c: 128-byte rows there, where the plan's are
    // narrower (2^18 on an H100: 70.0-72.1 us host to host against 73.0-90.7
    // with 64-byte rows, four runs alternated; gpu-h100-2026-11-22g-lc.txt).
    cp->bus0 = cp->mpasses[0];
    if (sizeof(T) == 4 && D <= 19) cp->bus0.logC = cp->bus0.lo < 5 ? cp->bus0.lo : 5;
    cp->fused.rmax = 3;  // k_polymul_bottom's rounds
    // Staged twiddles (cuda_fast.cuh, has_stw) in the bottom passes whose
    // column's table takes at most 16 KiB.  On an H100, graph warm, u32
    // products of 2^12 / 2^16 / 2^18 / 2^20 / 2^21 went from 10.1 / 12.5 /
    // 15.0 / 38.0 / 74.8 us to 9.6 / 11.5 / 14.2 / 34.3 / 66.8 us, u64
    // products of 2^12 to 2^17 gained 4-9%; forward transforms gained up
    // to 4% (u64 2^16 x 40, 62-bit: 48.7 -> 46.8 us) or 10% (FP64 2^14 and
    // 2^15), the u32 2^18 forward stayed level or lost 1-2% (8.5 against
    // 8.6-8.7 us).  The u64 2^20 product, 64 KiB of twiddles per column
    // (two blocks per SM), lost 2%: hence the bound
    // (bench/results/gpu-h100-2026-11-23d-stw.txt).
    // NTT_CUDA_STW=0 or 1 turns them off or on wherever the kernels can.
    const char *se = getenv("NTT_CUDA_STW");
    auto stw = [&](Geom &g, bool fused) {
        const bool want = se && *se ? atoi(se) != 0 : (sizeof(Tw<T>) << g.P) <= (16u << 10);
        g.stw = want && has_stw<T>(cp->kind, g.P, g.ct, fused) && g.lo == 0 &&
                (fused || pass_occ(sizeof(T), g) != OCC_BIG);
    };
    stw(cp->fused, true);
    stw(cp->passes[cp->npasses - 1], false);
    // The bottom passes of the FP64 kind compute their staged twiddles
    // (rho_stage) where the tree tables of the moduli one call reaches take
    // more than half the L2: RNS batches, a modulus per item.  On an H100,
    // graph warm, 40 moduli: forward 2^16 x 40 46.5-47.0 -> 37.5 us, inverse
    // 56.6-57.0 -> 39.9-40.2 us.  Forced, the forward lost with 16 moduli
    // (16 MiB of tables, 18.8-19.2 -> 19.8-20.2 us) and with one (2^16 x 40
    // 32.1 -> 37.2-37.3 us), whose tables stay in L2.  The integer kinds'
    // companions cost more than the tables: u32 (a 64-bit division per
    // entry) RNS 2^16 x 40 23.6 -> 40.1 us, 62-bit (an FP64 estimate and an
    // exact 128-bit remainder) 53.9-54.2 -> 62.1-62.5 us, so only the FP64
    // kind computes.  ARCHITECTURE.md has the other sizes
    // (bench/results/gpu-h100-2026-11-23l-rho.txt).  NTT_CUDA_RHO=0 or 1
    // forces it (FP64).
    const char *re = getenv("NTT_CUDA_RHO");
    const size_t reach = plan->nmod < plan->batch ? plan->nmod : plan->batch;
    const bool rho_big = reach * plan->n * sizeof(Tw<T>) > cp->l2 / 2;
    cp->rho = cp->passes[cp->npasses - 1].stw && cp->kind == K_FP64 &&
              (re && *re ? atoi(re) != 0 : rho_big);
    HostBuf<Mod<T>> mods(plan->nmod);
    if (!mods.p) return NTT_ENOMEM;
    for (size_t i = 0; i < plan->nmod; i++) TRY(build_mod<T>(plan, cp, &plan->mod[i], &mods[i]));
    CK(plan, cudaMalloc(&cp->dmods, mods.n * sizeof(Mod<T>)));
    CK(plan, cudaMemcpy(cp->dmods, mods.p, mods.n * sizeof(Mod<T>), cudaMemcpyHostToDevice));
    // The largest tile of any kernel the plan launches: the fused one, the
    // transform's passes, the product's above the fused one and bus0.
    auto fit = [cp](const Geom &g, bool fused) {
        const size_t s = pass_smem<T>(g, fused);
        if (s > cp->max_smem) cp->max_smem = s;
    };
    cp->max_smem = 0;
    fit(cp->fused, true);
    for (int i = 0; i < cp->npasses; i++) fit(cp->passes[i], false);
    for (int i = 0; i + 1 < cp->nmpasses; i++) fit(cp->mpasses[i], false);
    if (cp->nmpasses > 1) fit(cp->bus0, false);
    return NTT_OK;
}

ntt_status cuda_plan_init_inner(ntt_plan *plan)
{
    CudaPlan *cp = cp_of(plan);
    CK(plan, cudaGetDevice(&cp->device));
    cudaDeviceProp prop;
    CK(plan, cudaGetDeviceProperties(&prop, cp->device));
    cp->elem = plan->width == NTT_U32 ? 4 : 8;
    cp->sms = prop.multiProcessorCount;
    cp->l2 = (size_t)prop.l2CacheSize;
    cp->kind = plan_kind(plan);
    TRY(plan->width == NTT_U32 ? init_mods<uint32_t>(plan, cp) : init_mods<uint64_t>(plan, cp));
    if (cp->max_smem > prop.sharedMemPerBlockOptin) return NTT_EUNSUPPORTED;
    TRY(tab(plan).prepare(plan, (int)prop.sharedMemPerBlockOptin));
    const size_t bytes = plan->batch * plan->n * cp->elem;
    CK(plan, cudaMalloc(&cp->dA, bytes));
    CK(plan, cudaMalloc(&cp->dB, bytes));
    CK(plan, cudaMallocHost(&cp->hA, bytes));
    CK(plan, cudaMallocHost(&cp->hB, bytes));
    CK(plan, cudaMallocHost(&cp->hC, bytes));
    CK(plan, cudaStreamCreateWithFlags(&cp->stream, cudaStreamNonBlocking));
    CK(plan, cudaStreamCreateWithFlags(&cp->stream2, cudaStreamNonBlocking));
    CK(plan, cudaEventCreateWithFlags(&cp->b_in, cudaEventDisableTiming));
    return NTT_OK;
}

ntt_status cuda_plan_init(ntt_plan *plan)
{
    if (!cuda_supports(plan->variant, plan->modmul)) return NTT_EUNSUPPORTED;
    if (plan->modmul == NTT_MODMUL_DEFAULT)
        plan->modmul = plan->variant == NTT_VARIANT_FAST ? NTT_MODMUL_SHOUP
                                                         : NTT_MODMUL_BARRETT;
    CudaPlan *cp = static_cast<CudaPlan *>(calloc(1, sizeof(CudaPlan)));
    if (!cp) return NTT_ENOMEM;
    plan->backend_data = cp;
    ntt_status s = cuda_plan_init_inner(plan);
    if (s != NTT_OK) cuda_plan_free(plan);
    return s;
}

// ---- host-pointer calls: staged through the plan's pinned buffers ------------------

// Copies count items of len elements (item stride `stride` in src, n in the
// pinned buffer), converting from uint64_t when src64.
void stage_in(void *dst, const void *src, bool src64, size_t elem, size_t len, size_t count,
              size_t stride, size_t n)
{
    for (size_t it = 0; it < count; it++) {
        char *d = static_cast<char *>(dst) + it * n * elem;
        if (src64 && elem == 4) {
            const uint64_t *s = static_cast<const uint64_t *>(src) + it * stride;
            uint32_t *o = reinterpret_cast<uint32_t *>(d);
            for (size_t i = 0; i < len; i++) o[i] = (uint32_t)s[i];
        } else {
            memcpy(d, static_cast<const char *>(src) + it * stride * elem, len * elem);
        }
    }
}

void stage_out(void *dst, const void *src, bool dst64, size_t elem, size_t len, size_t count,
               size_t stride, size_t n)
{
    for (size_t it = 0; it < count; it++) {
        const char *s = static_cast<const char *>(src) + it * n * elem;
        if (dst64 && elem == 4) {
            const uint32_t *v = reinterpret_cast<const uint32_t *>(s);
            uint64_t *o = static_cast<uint64_t *>(dst) + it * stride;
            for (size_t i = 0; i < len; i++) o[i] = v[i];
        } else {
            memcpy(static_cast<char *>(dst) + it * stride * elem, s, len * elem);
        }
    }
}

ntt_status h2d(ntt_plan *plan, void *d, const void *h, size_t len, size_t count)
{
    CudaPlan *cp = cp_of(plan);
    const size_t pitch = plan->n * cp->elem;
    CK(plan, cudaMemcpy2DAsync(d, pitch, h, pitch, len * cp->elem, count, cudaMemcpyHostToDevice,
                               cp->stream));
    return NTT_OK;
}

ntt_status d2h(ntt_plan *plan, void *h, const void *d, size_t len, size_t count)
{
    CudaPlan *cp = cp_of(plan);
    const size_t pitch = plan->n * cp->elem;
    CK(plan, cudaMemcpy2DAsync(h, pitch, d, pitch, len * cp->elem, count, cudaMemcpyDeviceToHost,
                               cp->stream));
    return NTT_OK;
}

ntt_status cuda_transform_host(ntt_plan *plan, void *a, size_t count, size_t stride, bool inv)
{
    CudaPlan *cp = cp_of(plan);
    const size_t n = plan->n;
    for (size_t i0 = 0; i0 < count; i0 += plan->batch) {
        const size_t ni = count - i0 < plan->batch ? count - i0 : plan->batch;
        char *src = static_cast<char *>(a) + i0 * stride * cp->elem;
        stage_in(cp->hA, src, false, cp->elem, n, ni, stride, n);
        TRY(h2d(plan, cp->dA, cp->hA, n, ni));
        TRY(tab(plan).transform(plan, cp->dA, ni, n, cp->stream, inv));
        TRY(d2h(plan, cp->hA, cp->dA, n, ni));
        CK(plan, cudaStreamSynchronize(cp->stream));
        stage_out(src, cp->hA, false, cp->elem, n, ni, stride, n);
    }
    return NTT_OK;
}

ntt_status cuda_forward(ntt_plan *plan, void *a, size_t count, size_t stride)
{
    return cuda_transform_host(plan, a, count, stride, false);
}

ntt_status cuda_inverse(ntt_plan *plan, void *a, size_t count, size_t stride)
{
    return cuda_transform_host(plan, a, count, stride, true);
}

ntt_status cuda_pointwise(ntt_plan *plan, void *c, const void *a, const void *b, size_t count,
                          size_t stride)
{
    CudaPlan *cp = cp_of(plan);
    const size_t n = plan->n;
    for (size_t i0 = 0; i0 < count; i0 += plan->batch) {
        const size_t ni = count - i0 < plan->batch ? count - i0 : plan->batch;
        const size_t off = i0 * stride * cp->elem;
        stage_in(cp->hA, static_cast<const char *>(a) + off, false, cp->elem, n, ni, stride, n);
        stage_in(cp->hB, static_cast<const char *>(b) + off, false, cp->elem, n, ni, stride, n);
        TRY(h2d(plan, cp->dA, cp->hA, n, ni));
        TRY(h2d(plan, cp->dB, cp->hB, n, ni));
        TRY(tab(plan).pointwise(plan, cp->dA, cp->dA, cp->dB, ni, n, cp->stream));
        TRY(d2h(plan, cp->hC, cp->dA, n, ni));
        CK(plan, cudaStreamSynchronize(cp->stream));
        stage_out(static_cast<char *>(c) + off, cp->hC, false, cp->elem, n, ni, stride, n);
    }
    return NTT_OK;
}

// Page-locked host memory (cudaMallocHost / cudaHostRegister) can be the
// source or target of a copy directly, with no staging copy on the CPU.
// *mapped: the address kernels may read and write it through (the same one
// under UVA), or null when it is not mapped into the device's space.
bool pinned(const void *p, void **mapped = nullptr)
{
    cudaPointerAttributes at;
    if (cudaPointerGetAttributes(&at, p) != cudaSuccess) {
        (void)cudaGetLastError();
        return false;
    }
    if (mapped) *mapped = at.type == cudaMemoryTypeHost ? at.devicePointer : nullptr;
    return at.type == cudaMemoryTypeHost;
}

// The inputs' range check as an Arrival gate.
struct Operands {
    ntt_plan *plan;
    const void *a, *b;
    size_t la, lb, count, stride;
};

bool in_range(const void *ctx)
{
    const Operands *o = static_cast<const Operands *>(ctx);
    return !ntt_operands_out_of_range(o->plan, o->a, o->la, o->b, o->lb, o->count, o->stride);
}

ntt_status cuda_polymul(ntt_plan *plan, void *c, size_t lc, const void *a, size_t la,
                        const void *b, size_t lb, size_t count, size_t stride, bool io64)
{
    CudaPlan *cp = cp_of(plan);
    // The inputs' range check (ops.polymul_checks_inputs), unless they come
    // checked (io64: ntt_polymul_mod).
    const Operands ops = {plan, a, b, la, lb, count, stride};
    auto bad = [&]() { return !io64 && !in_range(&ops); };
    void *cmap = nullptr, *amap = nullptr, *bmap = nullptr;
    if (count == 1 && !io64 && pinned(a, &amap) && pinned(b, &bmap) && pinned(c, &cmap)) {
        // The fast path reads a and b over the bus in its first pass and
        // stores c in its last, when the memory is mapped into the device's
        // space: no copies, and their transfers overlap the passes' work
        // (2^18 product on an H100: 68-82 us against 79-81 with the copies;
        // bench/results/h2h-modes-h100-2026-11-21q.txt).
        // The CPU checks the inputs meanwhile; c is written only when they
        // pass (Arrival's gate).
        const size_t e = cp->elem;
        const bool fast = plan->variant == NTT_VARIANT_FAST;
        const bool direct_in = amap && bmap && fast, direct_out = cmap && fast;
        Arrival arr = {nullptr, direct_out ? in_range : nullptr, &ops};
        const void *da = amap, *db = bmap;
        if (!direct_in) {
            // b's copy on the second stream, beside a's copy and under a's
            // first pass (b copied after a measured slower in every pair,
            // gpu-h200-2026-11-21e-h2d-*).
            CK(plan, cudaMemcpyAsync(cp->dA, a, la * e, cudaMemcpyHostToDevice, cp->stream));
            CK(plan, cudaMemcpyAsync(cp->dB, b, lb * e, cudaMemcpyHostToDevice, cp->stream2));
            CK(plan, cudaEventRecord(cp->b_in, cp->stream2));
            arr.b_ready = cp->b_in;
            da = cp->dA;
            db = cp->dB;
        }
        ntt_status s = tab(plan).polymul(plan, direct_out ? cmap : cp->dA, lc, da, la, db, lb, 1,
                                         plan->n, cp->stream, &arr);
        if (s == NTT_OK && !direct_out) {
            if (bad()) {
                s = NTT_ERANGE;
            } else {
                CK(plan, cudaMemcpyAsync(c, cp->dA, lc * e, cudaMemcpyDeviceToHost, cp->stream));
            }
        }
        CK(plan, cudaStreamSynchronize(cp->stream));  // the plan's buffers idle again
        return s;
    }
    if (bad()) return NTT_ERANGE;
    const size_t n = plan->n, ue = io64 ? 8 : cp->elem;
    for (size_t i0 = 0; i0 < count; i0 += plan->batch) {
        const size_t ni = count - i0 < plan->batch ? count - i0 : plan->batch;
        const size_t off = i0 * stride * ue;
        stage_in(cp->hA, static_cast<const char *>(a) + off, io64, cp->elem, la, ni, stride, n);
        stage_in(cp->hB, static_cast<const char *>(b) + off, io64, cp->elem, lb, ni, stride, n);
        TRY(h2d(plan, cp->dA, cp->hA, la, ni));
        TRY(h2d(plan, cp->dB, cp->hB, lb, ni));
        // The product reads its operands before writing c (= dA) and may
        // use dA, dB as its own scratch: operands and scratch coincide here.
        TRY(tab(plan).polymul(plan, cp->dA, lc, cp->dA, la, cp->dB, lb, ni, n, cp->stream, nullptr));
        TRY(d2h(plan, cp->hC, cp->dA, lc, ni));
        CK(plan, cudaStreamSynchronize(cp->stream));
        stage_out(static_cast<char *>(c) + off, cp->hC, io64, cp->elem, lc, ni, stride, n);
    }
    return NTT_OK;
}

// ---- device-pointer entry points ------------------------------------------------------

ntt_status dev_transform(ntt_plan *plan, void *d, size_t count, size_t stride, void *stream,
                         bool inv)
{
    return tab(plan).transform(plan, d, count, stride, static_cast<cudaStream_t>(stream), inv);
}

ntt_status dev_pointwise(ntt_plan *plan, void *c, const void *a, const void *b, size_t count,
                         size_t stride, void *stream)
{
    return tab(plan).pointwise(plan, c, a, b, count, stride, static_cast<cudaStream_t>(stream));
}

ntt_status dev_polymul(ntt_plan *plan, void *c, size_t lc, const void *a, size_t la, const void *b,
                       size_t lb, size_t count, size_t stride, void *stream)
{
    return tab(plan).polymul(plan, c, lc, a, la, b, lb, count, stride,
                             static_cast<cudaStream_t>(stream), nullptr);
}

int dev_last_error(const ntt_plan *plan)
{
    if (!plan) return g_last_error;
    return plan->backend_data ? cp_of(plan)->last_error : 0;
}

}  // namespace

extern "C" {

const ntt_backend_ops ntt_cuda_ops = {
    "cuda",
    NTT_BACKEND_CUDA,
    cuda_available,
    cuda_supports,
    cuda_plan_init,
    cuda_plan_free,
    cuda_forward,
    cuda_inverse,
    cuda_pointwise,
    cuda_polymul,
    dev_transform,
    dev_pointwise,
    dev_polymul,
    dev_last_error,
    nullptr,  // the input checks (ntt_polymul_mod's, u64 and u32): the CPU's
    nullptr,
    true,     // cuda_polymul checks its inputs beside the device's work
    false,    // (everything, so not only single products)
};

ntt_status ntt_cuda_get_info_impl(ntt_cuda_info *info)
{
    if (!cuda_available()) return NTT_EUNSUPPORTED;
    memset(info, 0, sizeof *info);
    int dev = 0;
    cudaDeviceProp prop;
    if (cudaGetDevice(&dev) != cudaSuccess || cudaGetDeviceProperties(&prop, dev) != cudaSuccess) {
        (void)cudaGetLastError();
        return NTT_EBACKEND;
    }
    // prop.name may be longer than ours: truncation is fine.
    memcpy(info->name, prop.name, sizeof info->name - 1);
    info->name[sizeof info->name - 1] = '\0';
    info->device = dev;
    info->cc_major = prop.major;
    info->cc_minor = prop.minor;
    info->sm_count = prop.multiProcessorCount;
    info->l2_bytes = (size_t)prop.l2CacheSize;
    info->global_mem_bytes = prop.totalGlobalMem;
    info->smem_per_block_optin = prop.sharedMemPerBlockOptin;
    int v = 0;
    if (cudaDeviceGetAttribute(&v, cudaDevAttrClockRate, dev) == cudaSuccess) info->clock_khz = v;
    if (cudaDeviceGetAttribute(&v, cudaDevAttrMemoryClockRate, dev) == cudaSuccess)
        info->mem_clock_khz = v;
    if (cudaDeviceGetAttribute(&v, cudaDevAttrGlobalMemoryBusWidth, dev) == cudaSuccess)
        info->mem_bus_bits = v;
    cudaDriverGetVersion(&info->driver_version);
    cudaRuntimeGetVersion(&info->runtime_version);
    (void)cudaGetLastError();
    return NTT_OK;
}

}  // extern "C"
