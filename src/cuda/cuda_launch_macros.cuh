// How the CUDA kernels are launched: the launch macros (which the CPU
// stand-in, tests/cuda_emu, defines first and so replaces), the
// programmatic-dependent launch and its wait, and the one-dimensional grid.
// Used by the backend's kernels, the RNS kernels and the course ladder's.
#pragma once

#include <cstddef>
#include <cuda_runtime.h>

// Kernel launches and dynamic shared memory go through these macros so that
// tests/cuda_emu can run the same code on a CPU (it defines them first).
#ifndef NTT_LAUNCH_BLOCK
// Kernels that stride over their work by blockDim.x and meet at barriers.
#define NTT_LAUNCH_BLOCK(k, g, b, s, st, ...) k<<<(g), (b), (s), (st)>>>(__VA_ARGS__)
// Kernels with one thread per item and no barriers.
#define NTT_LAUNCH_THREADS(k, g, b, s, st, ...) k<<<(g), (b), (s), (st)>>>(__VA_ARGS__)
#define NTT_DYN_SMEM(name) extern __shared__ __align__(16) unsigned char name[]
// The pass kernels: as NTT_LAUNCH_BLOCK, launched as programmatic dependents
// of the kernel before them in the stream (see grid_dep_wait); returns the
// launch's cudaError_t.
#define NTT_LAUNCH_PDL(k, g, b, s, st, ...) nttc::launch_pdl((k), (g), (b), (s), (st), __VA_ARGS__)
#endif

namespace nttc {

// ---- launches -----------------------------------------------------------------

#ifndef NTT_CUDA_EMU  // the CPU stand-in launches through its own macros
template <class... A>
cudaError_t launch_pdl(void (*k)(A...), dim3 g, dim3 b, size_t smem, cudaStream_t st, A... args)
{
    cudaLaunchConfig_t cfg = {};
    cfg.gridDim = g;
    cfg.blockDim = b;
    cfg.dynamicSmemBytes = smem;
    cfg.stream = st;
    cudaLaunchAttribute at[1];
    at[0].id = cudaLaunchAttributeProgrammaticStreamSerialization;
    at[0].val.programmaticStreamSerializationAllowed = 1;
    cfg.attrs = at;
    cfg.numAttrs = 1;
    return cudaLaunchKernelEx(&cfg, k, args...);
}
#endif

// Batch items per launch: launches take them along gridDim.y, which stops here.
constexpr size_t kMaxGridY = 65535;

// One thread per element: n <= 2^30 gives at most 2^22 blocks of 256, well
// inside gridDim.x's 2^31 - 1; items along y.
inline dim3 grid1d(size_t n, size_t items, int block)
{
    return dim3((unsigned)((n + block - 1) / block), (unsigned)items);
}

// A kernel launched by NTT_LAUNCH_PDL may be scheduled while the kernel
// before it in the stream is still draining (its blocks exiting, its
// writes being flushed), which hides most of the launch gap between
// dependent kernels.  It waits here, before its first access to memory,
// until that kernel has finished and its writes are visible.  The kernels
// never signal their dependents early (griddepcontrol.launch_dependents):
// that made the product slower, early blocks crowding SMs the running
// kernel still used, where leaving it to block exit gained.
__device__ __forceinline__ void grid_dep_wait()
{
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    asm volatile("griddepcontrol.wait;" ::: "memory");
#endif
}

}  // namespace nttc
