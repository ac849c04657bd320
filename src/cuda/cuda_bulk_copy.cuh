// Copies into shared memory on the device: the L2 prefetch hint and sm_90's
// bulk copies completing on an mbarrier (the pass kernels' tiles and
// twiddles, cuda_fast_kernels.cuh).
#pragma once

#include <cstdint>
#include <cstring>
#include <cuda_runtime.h>

namespace nttc {

// A hint that L2 fetch the line of p (no effect in the CPU stand-in).
__device__ __forceinline__ void prefetch_l2(const void *p)
{
#if defined(__CUDA_ARCH__)
    asm volatile("prefetch.global.L2 [%0];" ::"l"(p));
#else
    (void)p;
#endif
}

// ---- bulk copies into shared memory (sm_90's copy engine) -----------------
// One thread inits an mbarrier, tells it how many bytes to expect and asks
// the copy engine for them (each copy a multiple of 16 bytes, both
// addresses 16-byte aligned); the phase completes when all have landed.
// Threads that wait must have passed a __syncthreads after the init.  The
// CPU stand-in copies at once and never waits.
#if defined(__CUDA_ARCH__)
__device__ __forceinline__ uint32_t smem_u32(const void *p)
{
    return (uint32_t)__cvta_generic_to_shared(p);
}
#endif
__device__ __forceinline__ void mbar_init_expect(uint64_t *bar, uint32_t bytes)
{
#if defined(__CUDA_ARCH__)
    asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" ::"r"(smem_u32(bar)) : "memory");
    asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
    asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(smem_u32(bar)),
                 "r"(bytes)
                 : "memory");
#else
    *bar = bytes;
#endif
}
__device__ __forceinline__ void bulk_load(void *dst, const void *src, uint32_t bytes,
                                          uint64_t *bar)
{
#if defined(__CUDA_ARCH__)
    asm volatile(
        "cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], %2, "
        "[%3];" ::"r"(smem_u32(dst)),
        "l"(src), "r"(bytes), "r"(smem_u32(bar))
        : "memory");
#else
    memcpy(dst, src, bytes);
    (void)bar;
#endif
}
__device__ __forceinline__ void mbar_wait(uint64_t *bar, unsigned phase)
{
#if defined(__CUDA_ARCH__)
    asm volatile(
        "{\n.reg .pred p;\nWAIT_%=:\n"
        "mbarrier.try_wait.parity.shared::cta.b64 p, [%0], %1;\n"
        "@!p bra WAIT_%=;\n}" ::"r"(smem_u32(bar)),
        "r"(phase)
        : "memory");
#else
    (void)bar;
    (void)phase;
#endif
}

}  // namespace nttc
