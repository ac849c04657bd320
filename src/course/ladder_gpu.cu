// The course reports' GPU ladder as an add-on (addon.h) on NTT_BACKEND_CUDA
// (kernels: ladder_kernels.cuh): BASELINE on CUDA and the GPU_* variants,
// their transforms and products launch by launch as the reports ran them,
// for ntt-bench's ladder table.  The add-on's plans hold their own device
// state (constants, stage tables, scratch, pinned staging, a stream) on the
// device current when they are made; the library checks every call's
// arguments and inputs before it reaches these entry points.  The device
// arithmetic, the bit reversal and the pointwise product are the CUDA
// backend's kernels (src/cuda), instantiated here.
#include "course_internal.h"

#include <cuda_runtime.h>

#include <cstdlib>
#include <cstring>

#include "ladder_kernels.cuh"
#include "../cuda/cuda_elementwise_kernels.cuh"
#include "../cuda/cuda_host_copy.h"
#include "../cuda/cuda_mod_host.h"
#include "../cuda/cuda_try.h"

namespace nttc {

namespace {

// One ladder plan's state (the add-on's `state`).
struct LadderPlan {
    size_t n;
    unsigned logn;
    unsigned flags;
    size_t nmod, batch, elem;
    int kind;            // K_NAIVE .. K_SHOUP: the plan's modmul
    ntt_variant variant; // BASELINE, GPU_TABLE, GPU_ASYNC, GPU_SHARED
    int cuda_block;      // the stage kernels' threads per block
    int last_error;
    cudaStream_t stream; // host-pointer calls
    void *dmods;         // Mod<T>[nmod]: the pointwise product's constants
    void *dlmods;        // LadderMod<T>[nmod]
    void **dallocs;      // stage tables, ndallocs of them
    size_t ndallocs;
    void *dA, *dB;       // device scratch, batch * n elements each
    void *hA, *hB, *hC;  // pinned staging, same size
};

// Records e as the plan's last CUDA error, clears a non-sticky error, and
// maps e to a status (as the CUDA backend does for its plans).
ntt_status fail(LadderPlan *plan, cudaError_t e)
{
    plan->last_error = (int)e;
    (void)cudaGetLastError();
    return e == cudaErrorMemoryAllocation ? NTT_ENOMEM : NTT_EBACKEND;
}

#define CK(plan, call)                                     \
    do {                                                   \
        cudaError_t e_ = (call);                           \
        if (e_ != cudaSuccess) return fail((plan), e_);    \
    } while (0)

template <class T> const LadderMod<T> *lmods(const LadderPlan *plan)
{
    return static_cast<const LadderMod<T> *>(plan->dlmods);
}

// ---- the launches ---------------------------------------------------------------

template <class T, int K>
ntt_status ladder_dit(LadderPlan *plan, T *d, size_t count, size_t stride, size_t item0_,
                      cudaStream_t st, bool inv)
{
    const size_t n = plan->n;
    const int blk = plan->cuda_block;
    const bool sync = plan->variant == NTT_VARIANT_BASELINE || plan->variant == NTT_VARIANT_GPU_TABLE;
    size_t m0 = 2;
    typedef void (*stage_fn)(T *, size_t, size_t, size_t, const LadderMod<T> *, int, int, bool);
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
                             v, n, chunk, stride, lmods<T>(plan), (int)plan->nmod, item0, inv);
            CK(plan, cudaGetLastError());
            m0 = chunk * 2;
        }
        for (size_t m = m0; m <= n; m <<= 1) {
            const dim3 grid((unsigned)((n / 2 + blk - 1) / blk), (unsigned)ni);
            NTT_LAUNCH_THREADS(stage_k, grid, blk, 0, st, v, n, m, stride, lmods<T>(plan),
                               (int)plan->nmod, item0, inv);
            CK(plan, cudaGetLastError());
            // The first report synchronized after every stage.
            if (sync) CK(plan, cudaStreamSynchronize(st));
        }
    }
    return NTT_OK;
}

template <class T>
ntt_status ladder_twist(LadderPlan *plan, T *d, size_t count, size_t stride, size_t item0,
                        cudaStream_t st, int mode)
{
    for (size_t i0 = 0; i0 < count; i0 += kMaxGridY) {
        const size_t ni = count - i0 < kMaxGridY ? count - i0 : kMaxGridY;
        void (*kern)(T *, size_t, size_t, const LadderMod<T> *, int, int, int) = k_ltwist<T>;
        NTT_LAUNCH_THREADS(kern, grid1d(plan->n, ni, 256), 256, 0, st, d + i0 * stride, plan->n,
                           stride, lmods<T>(plan), (int)plan->nmod,
                           (int)((item0 + i0) % plan->nmod), mode);
        CK(plan, cudaGetLastError());
    }
    return NTT_OK;
}

// The CUDA backend's bit reversal and pointwise product (its kernels, its
// launch geometry: cuda_launch.cu).
template <class T>
ntt_status bitrev(LadderPlan *plan, T *a, size_t count, size_t stride, cudaStream_t st)
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

template <class T, int K>
ntt_status pointwise(LadderPlan *plan, T *c, const T *a, const T *b, size_t count, size_t stride,
                     size_t item0, cudaStream_t st)
{
    for (size_t i0 = 0; i0 < count; i0 += kMaxGridY) {
        const size_t ni = count - i0 < kMaxGridY ? count - i0 : kMaxGridY;
        const size_t o = i0 * stride;
        void (*kern)(T *, const T *, const T *, size_t, size_t, const Mod<T> *, int, int) =
            k_pointwise<T, K>;
        NTT_LAUNCH_THREADS(kern, grid1d(plan->n, ni, 256), 256, 0, st, c + o, a + o, b + o,
                           plan->n, stride, static_cast<const Mod<T> *>(plan->dmods),
                           (int)plan->nmod, (int)((item0 + i0) % plan->nmod));
        CK(plan, cudaGetLastError());
    }
    return NTT_OK;
}

// Transforms with the plan's spectrum order: the DIT stages want bit-reversed
// input and give natural order, so a bit-reversed spectrum costs one more
// permutation going forward and none coming back.
template <class T, int K>
ntt_status ladder_transform(LadderPlan *plan, T *d, size_t count, size_t stride, size_t item0,
                            cudaStream_t st, bool inv)
{
    const bool nega = (plan->flags & NTT_FLAG_NEGACYCLIC) != 0;
    const bool natural = (plan->flags & NTT_FLAG_NATURAL_ORDER) != 0;
    if (!inv) {
        if (nega) TRY(ladder_twist<T>(plan, d, count, stride, item0, st, 0));
        TRY(bitrev<T>(plan, d, count, stride, st));
        TRY((ladder_dit<T, K>(plan, d, count, stride, item0, st, false)));
        if (!natural) TRY(bitrev<T>(plan, d, count, stride, st));
    } else {
        if (natural) TRY(bitrev<T>(plan, d, count, stride, st));
        TRY((ladder_dit<T, K>(plan, d, count, stride, item0, st, true)));
        TRY(ladder_twist<T>(plan, d, count, stride, item0, st, nega ? 1 : 2));
    }
    return NTT_OK;
}

// a, b and c on the device; the plan's dA, dB the scratch (c may be dA,
// and a and b dA and dB: the pads read each operand before anything
// else writes there).
template <class T, int K>
ntt_status ladder_polymul(LadderPlan *plan, T *c, size_t lc, const T *a, size_t la, const T *b,
                          size_t lb, size_t count, size_t stride, size_t item0, cudaStream_t st)
{
    const size_t n = plan->n;
    T *A = static_cast<T *>(plan->dA), *B = static_cast<T *>(plan->dB);
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
        const size_t m0 = item0 + i0;  // the chunk's first item's modulus
        for (int o = 0; o < 2; o++) {
            if (nega) TRY(ladder_twist<T>(plan, ops[o], ni, n, m0, st, 0));
            TRY(bitrev<T>(plan, ops[o], ni, n, st));
            TRY((ladder_dit<T, K>(plan, ops[o], ni, n, m0, st, false)));
        }
        TRY((pointwise<T, K>(plan, A, A, B, ni, n, m0, st)));
        TRY(bitrev<T>(plan, A, ni, n, st));
        TRY((ladder_dit<T, K>(plan, A, ni, n, m0, st, true)));
        TRY(ladder_twist<T>(plan, A, ni, n, m0, st, nega ? 1 : 2));
        if (c + i0 * stride != A)
            CK(plan, cudaMemcpy2DAsync(c + i0 * stride, stride * sizeof(T), A, n * sizeof(T),
                                       lc * sizeof(T), ni, cudaMemcpyDeviceToDevice, st));
    }
    return NTT_OK;
}

// ---- per width and kind -----------------------------------------------------------

typedef ntt_status (*TransformFn)(LadderPlan *plan, void *d, size_t count, size_t stride,
                                  size_t item0, cudaStream_t st, bool inv);
typedef ntt_status (*PointwiseFn)(LadderPlan *plan, void *c, const void *a, const void *b,
                                  size_t count, size_t stride, size_t item0, cudaStream_t st);
typedef ntt_status (*PolymulFn)(LadderPlan *plan, void *c, size_t lc, const void *a, size_t la,
                                const void *b, size_t lb, size_t count, size_t stride,
                                size_t item0, cudaStream_t st);

struct LadderPath {
    TransformFn transform;
    PointwiseFn pointwise;
    PolymulFn polymul;
};

template <class T, int K> struct Ladder {
    static ntt_status transform(LadderPlan *p, void *d, size_t count, size_t stride,
                                size_t item0, cudaStream_t st, bool inv)
    {
        return ladder_transform<T, K>(p, static_cast<T *>(d), count, stride, item0, st, inv);
    }
    static ntt_status pw(LadderPlan *p, void *c, const void *a, const void *b, size_t count,
                         size_t stride, size_t item0, cudaStream_t st)
    {
        return pointwise<T, K>(p, static_cast<T *>(c), static_cast<const T *>(a),
                               static_cast<const T *>(b), count, stride, item0, st);
    }
    static ntt_status polymul(LadderPlan *p, void *c, size_t lc, const void *a, size_t la,
                              const void *b, size_t lb, size_t count, size_t stride,
                              size_t item0, cudaStream_t st)
    {
        return ladder_polymul<T, K>(p, static_cast<T *>(c), lc, static_cast<const T *>(a), la,
                                    static_cast<const T *>(b), lb, count, stride, item0, st);
    }
};

template <class T, int K> constexpr LadderPath path_of()
{
    return LadderPath{Ladder<T, K>::transform, Ladder<T, K>::pw, Ladder<T, K>::polymul};
}

const LadderPath kPaths[2][4] = {
    {path_of<uint32_t, K_NAIVE>(), path_of<uint32_t, K_BARRETT>(), path_of<uint32_t, K_MONT>(),
     path_of<uint32_t, K_SHOUP>()},
    {path_of<uint64_t, K_NAIVE>(), path_of<uint64_t, K_BARRETT>(), path_of<uint64_t, K_MONT>(),
     path_of<uint64_t, K_SHOUP>()}};

const LadderPath &path(const LadderPlan *p) { return kPaths[p->elem == 8][p->kind - 1]; }

// ---- plan set-up ----------------------------------------------------------------

template <class T> ntt_status upload(LadderPlan *plan, const T *v, size_t count, const T **dst)
{
    void *d = nullptr;
    CK(plan, cudaMalloc(&d, count * sizeof(T)));
    plan->dallocs[plan->ndallocs++] = d;
    CK(plan, cudaMemcpy(d, v, count * sizeof(T), cudaMemcpyHostToDevice));
    *dst = static_cast<const T *>(d);
    return NTT_OK;
}

// Modulus i's constants and, for the table variants, its stage tables.
template <class T>
ntt_status build_mod(LadderPlan *plan, const ntt_addon_modulus *am, Mod<T> *base, LadderMod<T> *out)
{
    const uint64_t p = am->p;
    const size_t n = plan->n;
    const HostMod<T> H(p, plan->kind);
    *base = H.base();
    LadderMod<T> M;
    memset(&M, 0, sizeof M);
    M.a = base->a;
    M.one_m = base->one_m;
    const bool nega = (plan->flags & NTT_FLAG_NEGACYCLIC) != 0;
    const uint64_t r = am->root, rinv = am->root_inv;
    const uint64_t omega = nega ? H.mulmod(r, r) : r, omega_inv = nega ? H.mulmod(rinv, rinv) : rinv;
    M.omega = (T)omega;
    M.omega_inv = (T)omega_inv;
    M.omega_m = H.mform(omega);
    M.omega_inv_m = H.mform(omega_inv);
    M.psi_m = H.mform(nega ? r : 1);
    M.psi_inv_m = H.mform(nega ? rinv : 1);
    M.ninv_m = H.tw(am->n_inv, K_MONT);
    if (plan->variant != NTT_VARIANT_BASELINE) {
        // Stage m of the DIT transform uses w_m^j, j < m/2, at m/2 - 1 + j.
        T *fw = static_cast<T *>(calloc(4 * n, sizeof(T)));
        if (!fw) return NTT_ENOMEM;
        T *fwx = fw + n, *iw = fw + 2 * n, *iwx = fw + 3 * n;
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
        ntt_status s = upload(plan, fw, n, &M.lfw);
        if (s == NTT_OK) s = upload(plan, fwx, n, &M.lfwx);
        if (s == NTT_OK) s = upload(plan, iw, n, &M.liw);
        if (s == NTT_OK) s = upload(plan, iwx, n, &M.liwx);
        free(fw);
        TRY(s);
    }
    *out = M;
    return NTT_OK;
}

template <class T> ntt_status upload_mods(LadderPlan *plan, const ntt_addon_modulus *mod)
{
    Mod<T> *base = static_cast<Mod<T> *>(calloc(plan->nmod, sizeof(Mod<T>)));
    LadderMod<T> *lm = static_cast<LadderMod<T> *>(calloc(plan->nmod, sizeof(LadderMod<T>)));
    ntt_status s = base && lm ? NTT_OK : NTT_ENOMEM;
    for (size_t i = 0; i < plan->nmod && s == NTT_OK; i++)
        s = build_mod<T>(plan, &mod[i], &base[i], &lm[i]);
    cudaError_t e = cudaSuccess;
    if (s == NTT_OK) e = cudaMalloc(&plan->dmods, plan->nmod * sizeof(Mod<T>));
    if (s == NTT_OK && e == cudaSuccess)
        e = cudaMemcpy(plan->dmods, base, plan->nmod * sizeof(Mod<T>), cudaMemcpyHostToDevice);
    if (s == NTT_OK && e == cudaSuccess) e = cudaMalloc(&plan->dlmods, plan->nmod * sizeof(LadderMod<T>));
    if (s == NTT_OK && e == cudaSuccess)
        e = cudaMemcpy(plan->dlmods, lm, plan->nmod * sizeof(LadderMod<T>), cudaMemcpyHostToDevice);
    free(base);
    free(lm);
    if (s == NTT_OK && e != cudaSuccess) s = fail(plan, e);
    return s;
}

void plan_free(LadderPlan *plan)
{
    if (!plan) return;
    for (size_t i = 0; i < plan->ndallocs; i++) cudaFree(plan->dallocs[i]);
    free(plan->dallocs);
    cudaFree(plan->dmods);
    cudaFree(plan->dlmods);
    cudaFree(plan->dA);
    cudaFree(plan->dB);
    cudaFreeHost(plan->hA);
    cudaFreeHost(plan->hB);
    cudaFreeHost(plan->hC);
    if (plan->stream) cudaStreamDestroy(plan->stream);
    (void)cudaGetLastError();
    free(plan);
}

ntt_status plan_init_inner(LadderPlan *plan, const ntt_addon_plan *info)
{
    plan->dallocs = static_cast<void **>(calloc(4 * info->nmod, sizeof(void *)));
    if (!plan->dallocs) return NTT_ENOMEM;
    TRY(plan->elem == 4 ? upload_mods<uint32_t>(plan, info->mod) : upload_mods<uint64_t>(plan, info->mod));
    const size_t bytes = plan->batch * plan->n * plan->elem;
    CK(plan, cudaMalloc(&plan->dA, bytes));
    CK(plan, cudaMalloc(&plan->dB, bytes));
    CK(plan, cudaMallocHost(&plan->hA, bytes));
    CK(plan, cudaMallocHost(&plan->hB, bytes));
    CK(plan, cudaMallocHost(&plan->hC, bytes));
    CK(plan, cudaStreamCreateWithFlags(&plan->stream, cudaStreamNonBlocking));
    // The tables went up by cudaMemcpy from pageable memory, which may
    // return before its DMA lands, on the legacy stream, which the plan's
    // non-blocking stream does not wait for.
    CK(plan, cudaStreamSynchronize(nullptr));
    return NTT_OK;
}

// ---- host-pointer calls: staged through the pinned buffers, batch items at a time ----

ntt_status h2d(LadderPlan *plan, void *d, const void *h, size_t len, size_t count)
{
    const size_t pitch = plan->n * plan->elem;
    CK(plan, cudaMemcpy2DAsync(d, pitch, h, pitch, len * plan->elem, count,
                               cudaMemcpyHostToDevice, plan->stream));
    return NTT_OK;
}

ntt_status d2h(LadderPlan *plan, void *h, const void *d, size_t len, size_t count)
{
    const size_t pitch = plan->n * plan->elem;
    CK(plan, cudaMemcpy2DAsync(h, pitch, d, pitch, len * plan->elem, count,
                               cudaMemcpyDeviceToHost, plan->stream));
    return NTT_OK;
}

ntt_status transform_host(LadderPlan *plan, void *a, size_t count, size_t stride, bool inv)
{
    const size_t n = plan->n, e = plan->elem;
    for (size_t i0 = 0; i0 < count; i0 += plan->batch) {
        const size_t ni = count - i0 < plan->batch ? count - i0 : plan->batch;
        char *src = static_cast<char *>(a) + i0 * stride * e;
        stage_in(plan->hA, src, false, e, n, ni, stride, n);
        TRY(h2d(plan, plan->dA, plan->hA, n, ni));
        TRY(path(plan).transform(plan, plan->dA, ni, n, i0, plan->stream, inv));
        TRY(d2h(plan, plan->hA, plan->dA, n, ni));
        CK(plan, cudaStreamSynchronize(plan->stream));
        stage_out(src, plan->hA, false, e, n, ni, stride, n);
    }
    return NTT_OK;
}

}  // namespace

}  // namespace nttc

using nttc::LadderPlan;

// ---- the add-on's entry points (addon.h) -----------------------------------------------

static int gpu_supports(ntt_backend b, ntt_modmul m, const void *arg)
{
    const ntt_variant v = static_cast<const ntt_variant_options *>(arg)->variant;
    // BASELINE computes its twiddles by powers: no Shoup companions.
    return b == NTT_BACKEND_CUDA && (v != NTT_VARIANT_BASELINE || m != NTT_MODMUL_SHOUP);
}

static ntt_status gpu_init(void **state, ntt_modmul *modmul, const ntt_addon_plan *info)
{
    const ntt_variant_options *vo = static_cast<const ntt_variant_options *>(info->arg);
    if (!gpu_supports(info->backend, info->modmul, vo)) return NTT_EUNSUPPORTED;
    LadderPlan *plan = static_cast<LadderPlan *>(calloc(1, sizeof(LadderPlan)));
    if (!plan) return NTT_ENOMEM;
    plan->n = info->n;
    while (((size_t)1 << plan->logn) < info->n) plan->logn++;
    plan->flags = info->flags;
    plan->nmod = info->nmod;
    plan->batch = info->batch;
    plan->elem = info->width == NTT_U32 ? 4 : 8;
    plan->variant = vo->variant;
    plan->cuda_block = vo->cuda_block ? vo->cuda_block : 128;
    *modmul = info->modmul == NTT_MODMUL_DEFAULT ? NTT_MODMUL_BARRETT : info->modmul;
    plan->kind = (int)*modmul;
    ntt_status s = nttc::plan_init_inner(plan, info);
    if (s != NTT_OK) {
        nttc::plan_free(plan);
        return s;
    }
    *state = plan;
    return NTT_OK;
}

static void gpu_free(void *state) { nttc::plan_free(static_cast<LadderPlan *>(state)); }

static ntt_status gpu_forward(void *state, void *a, size_t count, size_t stride)
{
    return nttc::transform_host(static_cast<LadderPlan *>(state), a, count, stride, false);
}

static ntt_status gpu_inverse(void *state, void *a, size_t count, size_t stride)
{
    return nttc::transform_host(static_cast<LadderPlan *>(state), a, count, stride, true);
}

static ntt_status gpu_pointwise(void *state, void *c, const void *a, const void *b, size_t count,
                                size_t stride)
{
    LadderPlan *plan = static_cast<LadderPlan *>(state);
    const size_t n = plan->n, e = plan->elem;
    for (size_t i0 = 0; i0 < count; i0 += plan->batch) {
        const size_t ni = count - i0 < plan->batch ? count - i0 : plan->batch;
        const size_t off = i0 * stride * e;
        nttc::stage_in(plan->hA, static_cast<const char *>(a) + off, false, e, n, ni, stride, n);
        nttc::stage_in(plan->hB, static_cast<const char *>(b) + off, false, e, n, ni, stride, n);
        TRY(nttc::h2d(plan, plan->dA, plan->hA, n, ni));
        TRY(nttc::h2d(plan, plan->dB, plan->hB, n, ni));
        TRY(nttc::path(plan).pointwise(plan, plan->dA, plan->dA, plan->dB, ni, n, i0, plan->stream));
        TRY(nttc::d2h(plan, plan->hC, plan->dA, n, ni));
        const cudaError_t err = cudaStreamSynchronize(plan->stream);
        if (err != cudaSuccess) return nttc::fail(plan, err);
        nttc::stage_out(static_cast<char *>(c) + off, plan->hC, false, e, n, ni, stride, n);
    }
    return NTT_OK;
}

static ntt_status gpu_polymul(void *state, void *c, size_t lc, const void *a, size_t la,
                              const void *b, size_t lb, size_t count, size_t stride, bool io64)
{
    LadderPlan *plan = static_cast<LadderPlan *>(state);
    const size_t n = plan->n, e = plan->elem, ue = io64 ? 8 : e;
    for (size_t i0 = 0; i0 < count; i0 += plan->batch) {
        const size_t ni = count - i0 < plan->batch ? count - i0 : plan->batch;
        const size_t off = i0 * stride * ue;
        nttc::stage_in(plan->hA, static_cast<const char *>(a) + off, io64, e, la, ni, stride, n);
        nttc::stage_in(plan->hB, static_cast<const char *>(b) + off, io64, e, lb, ni, stride, n);
        TRY(nttc::h2d(plan, plan->dA, plan->hA, la, ni));
        TRY(nttc::h2d(plan, plan->dB, plan->hB, lb, ni));
        // The product reads its operands before writing c (= dA), and uses
        // dA, dB as its scratch: operands and scratch coincide here.
        TRY(nttc::path(plan).polymul(plan, plan->dA, lc, plan->dA, la, plan->dB, lb, ni, n, i0,
                                     plan->stream));
        TRY(nttc::d2h(plan, plan->hC, plan->dA, lc, ni));
        const cudaError_t err = cudaStreamSynchronize(plan->stream);
        if (err != cudaSuccess) return nttc::fail(plan, err);
        nttc::stage_out(static_cast<char *>(c) + off, plan->hC, io64, e, lc, ni, stride, n);
    }
    return NTT_OK;
}

static ntt_status gpu_dev_transform(void *state, void *d_a, size_t count, size_t stride,
                                    size_t item0, void *stream, bool inverse)
{
    LadderPlan *plan = static_cast<LadderPlan *>(state);
    return nttc::path(plan).transform(plan, d_a, count, stride, item0,
                                      static_cast<cudaStream_t>(stream), inverse);
}

static ntt_status gpu_dev_pointwise(void *state, void *d_c, const void *d_a, const void *d_b,
                                    size_t count, size_t stride, size_t item0, void *stream)
{
    LadderPlan *plan = static_cast<LadderPlan *>(state);
    return nttc::path(plan).pointwise(plan, d_c, d_a, d_b, count, stride, item0,
                                      static_cast<cudaStream_t>(stream));
}

static ntt_status gpu_dev_polymul(void *state, void *d_c, size_t lc, const void *d_a, size_t la,
                                  const void *d_b, size_t lb, size_t count, size_t stride,
                                  size_t item0, void *stream)
{
    LadderPlan *plan = static_cast<LadderPlan *>(state);
    return nttc::path(plan).polymul(plan, d_c, lc, d_a, la, d_b, lb, count, stride, item0,
                                    static_cast<cudaStream_t>(stream));
}

static int gpu_last_error(const void *state)
{
    return static_cast<const LadderPlan *>(state)->last_error;
}

// One table per variant, the same entry points (the variant comes in the
// options, init's arg): which table a plan runs says its variant
// (ntt_plan_variant).
#define GPU_OPS(name)                                                                 \
    {name,          gpu_supports,      gpu_init,          gpu_free,                   \
     gpu_forward,   gpu_inverse,       gpu_pointwise,     gpu_polymul,                \
     gpu_dev_transform, gpu_dev_pointwise, gpu_dev_polymul, gpu_last_error}
extern "C" const ntt_addon_ops ntt_course_gpu_ops[NTT_VARIANT_COUNT - 1] = {
    GPU_OPS("baseline"), GPU_OPS("gpu-table"), GPU_OPS("gpu-async"), GPU_OPS("gpu-shared")};
