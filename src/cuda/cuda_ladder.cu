// The course reports' GPU ladder on the device (kernels: cuda_ladder.cuh):
// its transforms and products, launch by launch as the reports ran them,
// for ntt-bench's ladder table.  The only translation unit that
// instantiates the ladder's kernels; the bit reversal and the pointwise
// product are the fast path's (fast_path).  Exported per width and kind as
// LadderPath (cuda_plan.h).
#include "cuda_ladder.cuh"
#include "cuda_plan.h"

namespace nttc {

namespace {

template <class T, int K>
ntt_status ladder_dit(ntt_plan *plan, T *d, size_t count, size_t stride, size_t item0_,
                      cudaStream_t st, bool inv)
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
        const int item0 = (int)((item0_ + i0) % plan->nmod);
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
ntt_status ladder_twist(ntt_plan *plan, T *d, size_t count, size_t stride, size_t item0,
                        cudaStream_t st, int mode)
{
    for (size_t i0 = 0; i0 < count; i0 += kMaxGridY) {
        const size_t ni = count - i0 < kMaxGridY ? count - i0 : kMaxGridY;
        void (*kern)(T *, size_t, size_t, const Mod<T> *, int, int, int) = k_ltwist<T>;
        NTT_LAUNCH_THREADS(kern, grid1d(plan->n, ni, 256), 256, 0, st, d + i0 * stride, plan->n,
                           stride, dmods<T>(plan), (int)plan->nmod,
                           (int)((item0 + i0) % plan->nmod), mode);
        CK(plan, cudaGetLastError());
    }
    return NTT_OK;
}

template <class T, int K>
ntt_status bitrev(ntt_plan *plan, T *d, size_t count, size_t stride, cudaStream_t st)
{
    return fast_path(sizeof(T), K).bitrev(plan, d, count, stride, st);
}

// Transforms with the plan's spectrum order: the DIT stages want bit-reversed
// input and give natural order, so a bit-reversed spectrum costs one more
// permutation going forward and none coming back.
template <class T, int K>
ntt_status ladder_transform(ntt_plan *plan, T *d, size_t count, size_t stride, size_t item0,
                            cudaStream_t st, bool inv)
{
    const bool nega = (plan->flags & NTT_FLAG_NEGACYCLIC) != 0;
    const bool natural = (plan->flags & NTT_FLAG_NATURAL_ORDER) != 0;
    if (!inv) {
        if (nega) TRY(ladder_twist<T>(plan, d, count, stride, item0, st, 0));
        TRY((bitrev<T, K>(plan, d, count, stride, st)));
        TRY((ladder_dit<T, K>(plan, d, count, stride, item0, st, false)));
        if (!natural) TRY((bitrev<T, K>(plan, d, count, stride, st)));
    } else {
        if (natural) TRY((bitrev<T, K>(plan, d, count, stride, st)));
        TRY((ladder_dit<T, K>(plan, d, count, stride, item0, st, true)));
        TRY(ladder_twist<T>(plan, d, count, stride, item0, st, nega ? 1 : 2));
    }
    return NTT_OK;
}

template <class T, int K>
ntt_status ladder_polymul(ntt_plan *plan, T *c, size_t lc, const T *a, size_t la, const T *b,
                          size_t lb, size_t count, size_t stride, size_t item0, cudaStream_t st,
                          const Arrival *arr)
{
    CudaPlan *cp = cp_of(plan);
    if (arr && arr->b_ready) CK(plan, cudaStreamWaitEvent(st, arr->b_ready, 0));
    if (!passes_gate(arr)) return NTT_ERANGE;  // before the pads, which may write c
    const size_t n = plan->n;
    T *A = static_cast<T *>(cp->dA), *B = static_cast<T *>(cp->dB);
    const bool nega = (plan->flags & NTT_FLAG_NEGACYCLIC) != 0;
    const PointwiseFn pointwise = fast_path(sizeof(T), K).pointwise;
    for (size_t i0 = 0; i0 < count; i0 += plan->batch) {
        const size_t ni = count - i0 < plan->batch ? count - i0 : plan->batch;
        void (*pad)(T *, const T *, size_t, size_t, size_t, size_t) = k_pad<T>;
        NTT_LAUNCH_THREADS(pad, grid1d(n, ni, 256), 256, 0, st, A, a + i0 * stride, n, la, n, stride);
        CK(plan, cudaGetLastError());
        NTT_LAUNCH_THREADS(pad, grid1d(n, ni, 256), 256, 0, st, B, b + i0 * stride, n, lb, n, stride);
        CK(plan, cudaGetLastError());
        // The reports' order: natural-order spectra, a permutation before each DIT.
        T *ops[2] = {A, B};
        const size_t m0 = item0 + i0;  // the chunk's first item's modulus
        for (int o = 0; o < 2; o++) {
            if (nega) TRY(ladder_twist<T>(plan, ops[o], ni, n, m0, st, 0));
            TRY((bitrev<T, K>(plan, ops[o], ni, n, st)));
            TRY((ladder_dit<T, K>(plan, ops[o], ni, n, m0, st, false)));
        }
        TRY(pointwise(plan, A, A, B, ni, n, m0, st));
        TRY((bitrev<T, K>(plan, A, ni, n, st)));
        TRY((ladder_dit<T, K>(plan, A, ni, n, m0, st, true)));
        TRY(ladder_twist<T>(plan, A, ni, n, m0, st, nega ? 1 : 2));
        if (c + i0 * stride != A)
            CK(plan, cudaMemcpy2DAsync(c + i0 * stride, stride * sizeof(T), A, n * sizeof(T),
                                       lc * sizeof(T), ni, cudaMemcpyDeviceToDevice, st));
    }
    return NTT_OK;
}

template <class T, int K> struct Ladder {
    static ntt_status transform(ntt_plan *p, void *d, size_t count, size_t stride,
                                size_t item0, cudaStream_t st, bool inv)
    {
        return ladder_transform<T, K>(p, static_cast<T *>(d), count, stride, item0, st, inv);
    }
    static ntt_status polymul(ntt_plan *p, void *c, size_t lc, const void *a, size_t la,
                              const void *b, size_t lb, size_t count, size_t stride,
                              size_t item0, cudaStream_t st, const Arrival *arr)
    {
        return ladder_polymul<T, K>(p, static_cast<T *>(c), lc, static_cast<const T *>(a), la,
                                    static_cast<const T *>(b), lb, count, stride, item0, st, arr);
    }
};

template <class T, int K> constexpr LadderPath path_of()
{
    return LadderPath{Ladder<T, K>::transform, Ladder<T, K>::polymul};
}

const LadderPath kPaths[2][4] = {
    {path_of<uint32_t, K_NAIVE>(), path_of<uint32_t, K_BARRETT>(), path_of<uint32_t, K_MONT>(),
     path_of<uint32_t, K_SHOUP>()},
    {path_of<uint64_t, K_NAIVE>(), path_of<uint64_t, K_BARRETT>(), path_of<uint64_t, K_MONT>(),
     path_of<uint64_t, K_SHOUP>()}};

}  // namespace

const LadderPath &ladder_path(size_t elem, int kind) { return kPaths[elem == 8][kind - 1]; }

}  // namespace nttc
