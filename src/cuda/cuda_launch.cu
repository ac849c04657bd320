// The fast path on the device: which kernel each pass of a plan's geometry
// runs (the only translation unit that instantiates the fast path's
// kernels, cuda_fast_kernels.cuh), their launches for transforms, products,
// pointwise products and bit reversals, and the kernels' shared-memory
// attributes at plan time.  Exported per width and kind as FastPath
// (cuda_plan.h).
#include "cuda_fast_kernels.cuh"
#include "cuda_plan.h"

#include <cstring>
#include <utility>

namespace nttc {

namespace {

// Launches a pass kernel over `items` batch items in chunks of at most
// 65535 (gridDim.y), moving the operand pointers along.
template <class T>
ntt_status launch_tiles(ntt_plan *plan, void (*kern)(PassArgs<T>), const Geom &g, PassArgs<T> a,
                        size_t items, int nz, bool fused, cudaStream_t st)
{
    const dim3 block(pass_block(sizeof(T), g, fused));
    const size_t smem = pass_smem(sizeof(T), g, fused);
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

// ---- kernel choice ------------------------------------------------------------------
// The kernels made for column height P (1 .. kMaxP), by run-time P.  Each
// step instantiates only the variants cuda_geometry.h says exist (has_*)
// and falls back to the plainer kernel elsewhere, which the geometry never
// asks for (tests/test_cuda_geometry.cpp).

template <class T> using PassKernel = void (*)(PassArgs<T>);

template <class T, int K, int P, bool CT, int OCC, int CAP>
PassKernel<T> family_kernel(Family f, const Geom &g)
{
    constexpr size_t E = sizeof(T);
    if (f == FWD_PASS) {
        if constexpr (has_stw_kernel(K, E, P, CT, FWD_PASS, OCC))
            if (g.stw) return k_pass<T, K, false, P, CT, OCC, CAP, true>;
        return k_pass<T, K, false, P, CT, OCC, CAP>;
    }
    if (f == INV_PASS) {
        if constexpr (has_stw_kernel(K, E, P, CT, INV_PASS, OCC))
            if (g.stw) return k_pass<T, K, true, P, CT, OCC, CAP, true>;
        return k_pass<T, K, true, P, CT, OCC, CAP>;
    }
    if constexpr (has_levels(E, P, FUSED)) {
        if constexpr (has_stw_kernel(K, E, P, CT, FUSED, OCC_FREE))
            if (g.stw) return k_polymul_bottom<T, K, P, CT, CAP, true>;
        return k_polymul_bottom<T, K, P, CT, CAP, false>;
    } else {
        return nullptr;
    }
}

template <class T, int K, int P, int OCC, bool CT> PassKernel<T> cap_kernel(Family f, const Geom &g)
{
    if constexpr (has_cap8(K, sizeof(T)))
        if (g.cap == 8) return family_kernel<T, K, P, CT, OCC, 8>(f, g);
    return family_kernel<T, K, P, CT, OCC, 4>(f, g);
}

template <class T, int K, int P, int OCC> PassKernel<T> ct_kernel(Family f, const Geom &g)
{
    if constexpr (has_ct(K, sizeof(T), P))
        if (g.ct) return cap_kernel<T, K, P, OCC, true>(f, g);
    return cap_kernel<T, K, P, OCC, false>(f, g);
}

// Compact-twiddle kernels exist only where plans use them (plan_geometry),
// WIDE and BIG ones where has_occ says, 14-level ones for u32 transforms
// (plan_passes; the fused kernel has its own bounds), those of the wider
// ranges for the u32 Shoup kind (plan_cap).
template <class T, int K, int P> PassKernel<T> pass_kernel(Family f, const Geom &g, int occ)
{
    if constexpr (!has_levels(sizeof(T), P, FWD_PASS)) {
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

// ---- launches --------------------------------------------------------------------------

template <class T, int K, bool INV>
ntt_status launch_pass(ntt_plan *plan, const Geom &g, PassArgs<T> a, size_t items, int nz,
                       cudaStream_t st)
{
    const CudaPlan *cp = cp_of(plan);
    const Geom gk = launch_geom(cp->geo, sizeof(T), cp->sms, g, items, nz, INV);
    return launch_tiles<T>(plan, fast_kernel<T, K>(INV ? INV_PASS : FWD_PASS, gk), gk, a, items,
                           nz, false, st);
}

template <class T, int K>
ntt_status launch_bottom(ntt_plan *plan, const Geom &g, PassArgs<T> a, size_t items, cudaStream_t st)
{
    return launch_tiles<T>(plan, fast_kernel<T, K>(FUSED, g), g, a, items, 1, true, st);
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

template <class T, int K>
ntt_status fast_transform(ntt_plan *plan, T *d, size_t count, size_t stride, size_t item0,
                          cudaStream_t st, bool inv)
{
    const PlanGeometry &geo = cp_of(plan)->geo;
    const bool natural = (plan->flags & NTT_FLAG_NATURAL_ORDER) != 0;
    if (inv && natural) TRY(launch_bitrev(plan, d, count, stride, st));
    const size_t np = (size_t)geo.npasses;
    for (size_t q = 0; q < np; q++) {
        const Geom &g = geo.passes[inv ? np - 1 - q : q];
        PassArgs<T> a = base_args<T>(plan, item0);
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
                        size_t lb, size_t count, size_t stride, size_t item0, cudaStream_t st,
                        const Arrival *arr)
{
    CudaPlan *cp = cp_of(plan);
    const PlanGeometry &geo = cp->geo;
    const size_t n = plan->n, np = (size_t)geo.nmpasses;
    const cudaEvent_t b_ready = arr ? arr->b_ready : nullptr;
    if (np == 1) {
        if (b_ready) CK(plan, cudaStreamWaitEvent(st, b_ready, 0));
        if (!passes_gate(arr)) return NTT_ERANGE;
        PassArgs<T> x = base_args<T>(plan, item0);
        x.in[0] = a;
        x.in[1] = b;
        x.out[0] = c;
        x.in_stride = x.out_stride = stride;
        x.in_len[0] = la;
        x.in_len[1] = lb;
        x.out_len = lc;
        return launch_bottom<T, K>(plan, geo.fused, x, count, st);
    }
    T *A = static_cast<T *>(cp->dA), *B = static_cast<T *>(cp->dB);
    const Geom &g0 = arr ? geo.bus0 : geo.mpasses[0];  // the passes on a, b and c
    for (size_t i0 = 0; i0 < count; i0 += plan->batch) {
        const size_t ni = count - i0 < plan->batch ? count - i0 : plan->batch;
        PassArgs<T> x = base_args<T>(plan, item0 + i0);
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
        for (size_t q = 1; q + 1 < np; q++)
            TRY((launch_pass<T, K, false>(plan, geo.mpasses[q], x, ni, 2, st)));
        TRY((launch_bottom<T, K>(plan, geo.fused, x, ni, st)));
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
            TRY((launch_pass<T, K, true>(plan, q ? geo.mpasses[q] : g0, x, ni, 1, st)));
        }
    }
    return NTT_OK;
}

template <class T, int K>
ntt_status launch_pointwise(ntt_plan *plan, T *c, const T *a, const T *b, size_t count,
                            size_t stride, size_t item0, cudaStream_t st)
{
    for (size_t i0 = 0; i0 < count; i0 += kMaxGridY) {
        const size_t ni = count - i0 < kMaxGridY ? count - i0 : kMaxGridY;
        const size_t o = i0 * stride;
        void (*kern)(T *, const T *, const T *, size_t, size_t, const Mod<T> *, int, int) =
            k_pointwise<T, K>;
        NTT_LAUNCH_THREADS(kern, grid1d(plan->n, ni, 256), 256, 0, st, c + o, a + o, b + o,
                           plan->n, stride, dmods<T>(plan), (int)plan->nmod,
                           (int)((item0 + i0) % plan->nmod));
        CK(plan, cudaGetLastError());
    }
    return NTT_OK;
}

// ---- the kernels' attributes ------------------------------------------------------------

// The dynamic shared-memory limit is an attribute of the kernel, shared by
// every plan in the process: raised to the device's maximum, never set to
// one plan's need (which would starve a larger plan made earlier).  The
// driver sizes each kernel's shared memory against its L1; one carveout
// for all, so that consecutive kernels share an SM's configuration, lost
// (the most shared memory a little, the most L1 up to twice the time), so
// the tuning's carveout sets one only for such runs.
template <class T, int K> ntt_status prepare(ntt_plan *p, int smem_max)
{
    const CudaPlan *cp = cp_of(p);
    const int carve = cp->carveout;
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
    auto both = [&](Geom g) -> ntt_status {
        // Either shape of pass_occ, the second only where it differs.
        Geom gm = g;
        gm.many = 1;
        g.many = 0;
        const int shapes = pass_occ(sizeof(T), gm) != pass_occ(sizeof(T), g) ? 2 : 1;
        for (; g.many < shapes; g.many++) {
            TRY(allow(FWD_PASS, g));
            Geom gi = g;
            gi.stw = inv_stw(cp->geo, g);
            TRY(allow(INV_PASS, gi));
        }
        return NTT_OK;
    };
    const PlanGeometry &geo = cp->geo;
    for (int i = 0; i < geo.npasses; i++) TRY(both(geo.passes[i]));
    for (int i = 0; i + 1 < geo.nmpasses; i++) TRY(both(geo.mpasses[i]));
    TRY(allow(FUSED, geo.fused));
    return NTT_OK;
}

// ---- the path per width and kind -----------------------------------------------------

template <class T, int K> struct Fast {
    static ntt_status transform(ntt_plan *p, void *d, size_t count, size_t stride,
                                size_t item0, cudaStream_t st, bool inv)
    {
        return fast_transform<T, K>(p, static_cast<T *>(d), count, stride, item0, st, inv);
    }
    static ntt_status polymul(ntt_plan *p, void *c, size_t lc, const void *a, size_t la,
                              const void *b, size_t lb, size_t count, size_t stride,
                              size_t item0, cudaStream_t st, const Arrival *arr)
    {
        return fast_polymul<T, K>(p, static_cast<T *>(c), lc, static_cast<const T *>(a), la,
                                  static_cast<const T *>(b), lb, count, stride, item0, st, arr);
    }
    static ntt_status pointwise(ntt_plan *p, void *c, const void *a, const void *b, size_t count,
                                size_t stride, size_t item0, cudaStream_t st)
    {
        return launch_pointwise<T, K>(p, static_cast<T *>(c), static_cast<const T *>(a),
                                      static_cast<const T *>(b), count, stride, item0, st);
    }
    static ntt_status bitrev(ntt_plan *p, void *d, size_t count, size_t stride, cudaStream_t st)
    {
        return launch_bitrev<T>(p, static_cast<T *>(d), count, stride, st);
    }
};

template <class T, int K> constexpr FastPath path_of()
{
    return FastPath{Fast<T, K>::transform, Fast<T, K>::polymul, Fast<T, K>::pointwise,
                    Fast<T, K>::bitrev, prepare<T, K>};
}

const FastPath kPaths[2][4] = {
    {path_of<uint32_t, K_NAIVE>(), path_of<uint32_t, K_BARRETT>(), path_of<uint32_t, K_MONT>(),
     path_of<uint32_t, K_SHOUP>()},
    {path_of<uint64_t, K_NAIVE>(), path_of<uint64_t, K_BARRETT>(), path_of<uint64_t, K_MONT>(),
     path_of<uint64_t, K_SHOUP>()}};

const FastPath kFp64Path = path_of<uint64_t, K_FP64>();

}  // namespace

const FastPath &fast_path(size_t elem, int kind)
{
    return kind == K_FP64 ? kFp64Path : kPaths[elem == 8][kind - 1];
}

}  // namespace nttc
