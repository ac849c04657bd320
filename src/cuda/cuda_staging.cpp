// Host-pointer calls: operands staged through the plan's pinned buffers
// (copies on the plan's streams, in chunks of at most plan->batch items),
// or, for single products between page-locked buffers, read and written by
// the kernels over the bus while the CPU checks the inputs.  Host code over
// the CUDA runtime API.
#include "cuda_host_copy.h"
#include "cuda_plan.h"

#include <cstring>

namespace nttc {

namespace {

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
        TRY(run_transform(plan, cp->dA, ni, n, i0, cp->stream, inv));
        TRY(d2h(plan, cp->hA, cp->dA, n, ni));
        CK(plan, cudaStreamSynchronize(cp->stream));
        stage_out(src, cp->hA, false, cp->elem, n, ni, stride, n);
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

}  // namespace

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
        TRY(run_pointwise(plan, cp->dA, cp->dA, cp->dB, ni, n, i0, cp->stream));
        TRY(d2h(plan, cp->hC, cp->dA, n, ni));
        CK(plan, cudaStreamSynchronize(cp->stream));
        stage_out(static_cast<char *>(c) + off, cp->hC, false, cp->elem, n, ni, stride, n);
    }
    return NTT_OK;
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
        // The kernels read a and b over the bus in its first pass and
        // stores c in its last, when the memory is mapped into the device's
        // space: no copies, and their transfers overlap the passes' work.
        // The CPU checks the inputs meanwhile; c is written only when they
        // pass (Arrival's gate).
        const size_t e = cp->elem;
        const bool direct_in = amap && bmap, direct_out = cmap != nullptr;
        Arrival arr = {nullptr, direct_out ? in_range : nullptr, &ops};
        const void *da = amap, *db = bmap;
        if (!direct_in) {
            // b's copy on the second stream, beside a's copy and under a's
            // first pass (b copied after a measured slower in every pair).
            CK(plan, cudaMemcpyAsync(cp->dA, a, la * e, cudaMemcpyHostToDevice, cp->stream));
            CK(plan, cudaMemcpyAsync(cp->dB, b, lb * e, cudaMemcpyHostToDevice, cp->stream2));
            CK(plan, cudaEventRecord(cp->b_in, cp->stream2));
            arr.b_ready = cp->b_in;
            da = cp->dA;
            db = cp->dB;
        }
        ntt_status s = run_polymul(plan, direct_out ? cmap : cp->dA, lc, da, la, db, lb, 1,
                                   plan->n, 0, cp->stream, &arr);
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
        TRY(run_polymul(plan, cp->dA, lc, cp->dA, la, cp->dB, lb, ni, n, i0, cp->stream, nullptr));
        TRY(d2h(plan, cp->hC, cp->dA, lc, ni));
        CK(plan, cudaStreamSynchronize(cp->stream));
        stage_out(static_cast<char *>(c) + off, cp->hC, io64, cp->elem, lc, ni, stride, n);
    }
    return NTT_OK;
}

}  // namespace nttc
