// The four-step's transposes on the device: 32 x 32 tiles through shared
// memory (a padded row, so the column reads hit distinct banks), so that
// both the reads and the writes are coalesced.  Kernels in the style of
// src/cuda (loops over the block's threads, NTT_LAUNCH_BLOCK), so that the
// CPU stand-in of tests/cuda_emu runs them too.
#include <cuda_runtime.h>

#include <stdint.h>

#include "mgpu_internal.h"

#ifndef NTT_LAUNCH_BLOCK
#define NTT_LAUNCH_BLOCK(k, g, b, s, st, ...) k<<<(g), (b), (s), (st)>>>(__VA_ARGS__)
#endif
#ifndef NTT_DYN_SMEM
#define NTT_DYN_SMEM(name) extern __shared__ __align__(16) unsigned char name[]
#endif

namespace {

const unsigned kTile = 32, kThreads = 256;

template <class T>
__global__ void __launch_bounds__(256)
    transpose_kernel(T *dst, size_t dstride, const T *src, size_t sstride, size_t h, size_t w)
{
    NTT_DYN_SMEM(smem);
    T *tile = reinterpret_cast<T *>(smem);
    const size_t i0 = (size_t)blockIdx.y * kTile, j0 = (size_t)blockIdx.x * kTile;
    for (unsigned t = threadIdx.x; t < kTile * kTile; t += blockDim.x) {
        const unsigned ti = t / kTile, tj = t % kTile;
        if (i0 + ti < h && j0 + tj < w) tile[ti * (kTile + 1) + tj] = src[(i0 + ti) * sstride + j0 + tj];
    }
    __syncthreads();
    for (unsigned t = threadIdx.x; t < kTile * kTile; t += blockDim.x) {
        const unsigned tj = t / kTile, ti = t % kTile;
        if (i0 + ti < h && j0 + tj < w) dst[(j0 + tj) * dstride + i0 + ti] = tile[ti * (kTile + 1) + tj];
    }
}

}  // namespace

extern "C" cudaError_t mgpu_transpose(void *dst, size_t dstride, const void *src, size_t sstride,
                                      size_t h, size_t w, size_t esz, cudaStream_t st)
{
    if (h == 0 || w == 0) return cudaSuccess;
    const size_t gx = (w + kTile - 1) / kTile, gy = (h + kTile - 1) / kTile;
    if (gx > 0x7fffffffu || gy > 65535u || (esz != 4 && esz != 8)) return cudaErrorInvalidValue;
    const dim3 grid((unsigned)gx, (unsigned)gy), block(kThreads);
    const size_t smem = kTile * (kTile + 1) * esz;
    if (esz == 4)
        NTT_LAUNCH_BLOCK(transpose_kernel<uint32_t>, grid, block, smem, st,
                         static_cast<uint32_t *>(dst), dstride, static_cast<const uint32_t *>(src),
                         sstride, h, w);
    else
        NTT_LAUNCH_BLOCK(transpose_kernel<uint64_t>, grid, block, smem, st,
                         static_cast<uint64_t *>(dst), dstride, static_cast<const uint64_t *>(src),
                         sstride, h, w);
    return cudaGetLastError();
}
