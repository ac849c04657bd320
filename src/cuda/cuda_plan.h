// What the CUDA backend's files share: the plan's state (CudaPlan), error
// handling, and the functions each file offers the others.  Plain C++ over
// the CUDA runtime API (no kernels), so that the host-only files compile
// with the host compiler.
//
//   cuda_plan.cpp        availability, plan set-up and teardown, the
//                        tuning and the kind chosen for a plan
//   cuda_geometry.cpp    the pass plans (cuda_geometry.h)
//   cuda_tables.cpp      twiddle tables and per-modulus constants, uploaded
//   cuda_launch.cu       kernel choice and launches
//   cuda_dispatch.cpp    the kernels for a plan's width and kind
//   cuda_staging.cpp     host-pointer calls, staged through pinned buffers
//   cuda_device_api.cpp  device-pointer calls, the ops table, device info
//
// The host code is C-style C++ (malloc, fixed arrays, no exceptions, no
// guarded statics) so that the static library links into C programs
// without the C++ runtime.
#pragma once

extern "C" {
#include "../core/internal.h"
}

#include <cuda_runtime_api.h>

#include "cuda_geometry.h"
#include "cuda_try.h"

namespace nttc {

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
    PlanGeometry geo;     // the passes (cuda_geometry.h)
    int kind;             // the kernels' arithmetic: plan->modmul, or K_FP64 (plan_kind)
    int carveout;         // the kernels' shared-memory carveout, NTT_CUDA_AUTO: the driver's
    int last_error;
    size_t l2;            // the device's L2 bytes
    int sms;              // the device's multiprocessors
};

inline CudaPlan *cp_of(const ntt_plan *plan) { return static_cast<CudaPlan *>(plan->backend_data); }

template <class T> const Mod<T> *dmods(const ntt_plan *plan)
{
    return static_cast<const Mod<T> *>(cp_of(plan)->dmods);
}

// ---- errors (cuda_plan.cpp) -------------------------------------------------------

// Records e as the plan's last CUDA error (and the process's, for
// ntt_cuda_last_error(NULL)), clears a non-sticky error, and maps e to a
// status.
ntt_status fail(const ntt_plan *plan, cudaError_t e);
// The last CUDA error of any plan: plans made inside ntt_polymul_mod are
// not the caller's to ask.
extern volatile int g_last_error;

#define CK(plan, call)                                            \
    do {                                                          \
        cudaError_t e_ = (call);                                  \
        if (e_ != cudaSuccess) return nttc::fail((plan), e_);     \
    } while (0)

// ---- products on operands still arriving ------------------------------------------

// A host-pointer product's operands may still be landing (b_ready: b's
// copy; null when both are there), and it may write c only once the CPU's
// check of the inputs has passed (gate(ctx), called just before the first
// launch that writes c; null: no check).  Device-pointer calls pass none.
struct Arrival {
    cudaEvent_t b_ready;
    bool (*gate)(const void *ctx);
    const void *ctx;
};

inline bool passes_gate(const Arrival *arr) { return !arr || !arr->gate || arr->gate(arr->ctx); }

// ---- the paths, per width and kind (cuda_launch.cu) --------------------------------
// Data pointers are uint32_t or uint64_t by the plan's width; st is the
// stream every launch goes to; item i of a call uses the plan's modulus
// (item0 + i) mod nmod, so that a call on part of a batch (a chunk of the
// staged calls, a range of an RNS polynomial's limbs) keeps its items' moduli.

typedef ntt_status (*TransformFn)(ntt_plan *plan, void *d, size_t count, size_t stride,
                                  size_t item0, cudaStream_t st, bool inv);
typedef ntt_status (*PolymulFn)(ntt_plan *plan, void *c, size_t lc, const void *a, size_t la,
                                const void *b, size_t lb, size_t count, size_t stride,
                                size_t item0, cudaStream_t st, const Arrival *arr);
typedef ntt_status (*PointwiseFn)(ntt_plan *plan, void *c, const void *a, const void *b,
                                  size_t count, size_t stride, size_t item0, cudaStream_t st);

struct FastPath {
    TransformFn transform;
    PolymulFn polymul;
    PointwiseFn pointwise;  // the public pointwise product
    // In-place bit reversal of each item (natural-order spectra).
    ntt_status (*bitrev)(ntt_plan *plan, void *d, size_t count, size_t stride, cudaStream_t st);
    // Raises the shared-memory limit of the kernels the plan launches.
    ntt_status (*prepare)(ntt_plan *plan, int smem_max);
};
// elem 4 or 8; kind K_NAIVE .. K_FP64 (K_FP64 only with elem 8).
const FastPath &fast_path(size_t elem, int kind);

// ---- dispatch on width and kind (cuda_dispatch.cpp) ---------------------------------

ntt_status run_transform(ntt_plan *plan, void *d, size_t count, size_t stride, size_t item0,
                         cudaStream_t st, bool inv);
ntt_status run_pointwise(ntt_plan *plan, void *c, const void *a, const void *b, size_t count,
                         size_t stride, size_t item0, cudaStream_t st);
ntt_status run_polymul(ntt_plan *plan, void *c, size_t lc, const void *a, size_t la,
                       const void *b, size_t lb, size_t count, size_t stride, size_t item0,
                       cudaStream_t st, const Arrival *arr);
ntt_status run_prepare(ntt_plan *plan, int smem_max);

// ---- tables (cuda_tables.cpp) ------------------------------------------------------

// Builds every modulus's constants and twiddle tables for the plan's kind
// and geometry, uploads them (cp->dallocs) and the Mod<T> array (cp->dmods).
ntt_status upload_mods(ntt_plan *plan, CudaPlan *cp);

// ---- the ops table's entries ---------------------------------------------------------

// cuda_plan.cpp
int cuda_available(void);
int cuda_supports(ntt_modmul m);
ntt_status cuda_plan_init(ntt_plan *plan);
void cuda_plan_free(ntt_plan *plan);
// cuda_staging.cpp
ntt_status cuda_forward(ntt_plan *plan, void *a, size_t count, size_t stride);
ntt_status cuda_inverse(ntt_plan *plan, void *a, size_t count, size_t stride);
ntt_status cuda_pointwise(ntt_plan *plan, void *c, const void *a, const void *b, size_t count,
                          size_t stride);
ntt_status cuda_polymul(ntt_plan *plan, void *c, size_t lc, const void *a, size_t la,
                        const void *b, size_t lb, size_t count, size_t stride, bool io64);

}  // namespace nttc
