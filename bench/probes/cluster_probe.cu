// cluster_probe: what moving the data of a batched u64 transform costs on
// the GPU, two passes through global memory (L2) against one kernel whose
// blocks exchange their columns through a thread block cluster's
// distributed shared memory.  No arithmetic: each model moves the bytes a
// forward transform of 2^16 x 40 u64 moves (top pass: 8 rows at stride
// 2^13, one radix-8 round in registers; bottom pass: a contiguous 2^13
// chunk through shared memory, ROUNDS round trips), in place, warm L2,
// graph replays timed with events.
// Built with the CUDA backend:
//   cmake --build build --target cluster_probe
//   build/bench/probes/cluster_probe [ROUNDS] [PERSIST]
// PERSIST = 1 gives every launch an L2 access policy window over the data
// (hits persisting, as much of the window as the set-aside holds), to see
// whether the second pass can find the first one's output in L2.
#include <cooperative_groups.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>

#include "probe_cuda.h"

namespace cg = cooperative_groups;

constexpr int kItems = 40, kLog = 16, kRows = 8, kChunk = 1 << (kLog - 3), kThreads = 256;
constexpr int kCols = kChunk / kRows;  // columns per block in the top pass

__host__ __device__ __forceinline__ int pad(int m) { return m + (m >> 5); }

// Round trips through shared memory with a barrier each (the bottom pass's rounds).
__device__ __forceinline__ void smem_rounds(uint64_t *t, int rounds)
{
    for (int r = 0; r < rounds; r++) {
        __syncthreads();
        uint64_t v[8];
        for (int g = threadIdx.x; g < kChunk / 8; g += kThreads) {
#pragma unroll
            for (int e = 0; e < 8; e++) v[e] = t[pad(g + e * (kChunk / 8))];
#pragma unroll
            for (int e = 0; e < 8; e++) t[pad(g + e * (kChunk / 8))] = v[e] + (uint64_t)r;
        }
    }
    __syncthreads();
}

__global__ void k_copy(uint4 *x, size_t n)
{
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n;
         i += (size_t)gridDim.x * blockDim.x) {
        uint4 v = x[i];
        v.x += 1;
        x[i] = v;
    }
}

// Top pass: block (column group, item), 8 rows of kCols columns, one round in registers.
__global__ void __launch_bounds__(kThreads) k_top(uint64_t *x)
{
    uint64_t *v = x + ((size_t)blockIdx.y << kLog) + blockIdx.x * kCols;
    for (int c = threadIdx.x; c < kCols; c += kThreads) {
        uint64_t r[kRows];
#pragma unroll
        for (int e = 0; e < kRows; e++) r[e] = v[(size_t)e * kChunk + c];
#pragma unroll
        for (int e = 0; e < kRows; e++) v[(size_t)e * kChunk + c] = r[e] + 1;
    }
}

// Bottom pass: block (chunk, item), the chunk through shared memory.
__global__ void __launch_bounds__(kThreads) k_bottom(uint64_t *x, int rounds)
{
    extern __shared__ uint64_t t[];
    uint64_t *v = x + ((size_t)blockIdx.y << kLog) + (size_t)blockIdx.x * kChunk;
    for (int i = threadIdx.x; i < kChunk / 2; i += kThreads) {
        const uint4 q = reinterpret_cast<const uint4 *>(v)[i];
        t[pad(2 * i)] = (uint64_t)q.y << 32 | q.x;
        t[pad(2 * i + 1)] = (uint64_t)q.w << 32 | q.z;
    }
    smem_rounds(t, rounds);
    for (int i = threadIdx.x; i < kChunk / 2; i += kThreads) {
        const uint64_t a = t[pad(2 * i)], b = t[pad(2 * i + 1)];
        reinterpret_cast<uint4 *>(v)[i] =
            make_uint4((uint32_t)a, (uint32_t)(a >> 32), (uint32_t)b, (uint32_t)(b >> 32));
    }
}

// One kernel: cluster of 8 blocks per item.  Block b reads the top pass's
// columns [b kCols, (b+1) kCols) of all 8 rows and stores row e's values in
// block e's shared chunk (distributed shared memory); after the cluster's
// barrier each block finishes its own chunk as the bottom pass does.
__global__ void __launch_bounds__(kThreads) k_cluster(uint64_t *x, int rounds)
{
    extern __shared__ uint64_t t[];
    cg::cluster_group cl = cg::this_cluster();
    const int b = (int)cl.block_rank();
    uint64_t *item = x + ((size_t)blockIdx.y << kLog);
    uint64_t *dst[kRows];
#pragma unroll
    for (int e = 0; e < kRows; e++) dst[e] = cl.map_shared_rank(t, e);
    cl.sync();  // every block of the cluster has started
    const uint64_t *v = item + b * kCols;
    for (int c = threadIdx.x; c < kCols; c += kThreads) {
        uint64_t r[kRows];
#pragma unroll
        for (int e = 0; e < kRows; e++) r[e] = v[(size_t)e * kChunk + c];
#pragma unroll
        for (int e = 0; e < kRows; e++) dst[e][pad(b * kCols + c)] = r[e] + 1;
    }
    cl.sync();
    smem_rounds(t, rounds);
    uint64_t *w = item + (size_t)b * kChunk;
    for (int i = threadIdx.x; i < kChunk / 2; i += kThreads) {
        const uint64_t a = t[pad(2 * i)], c = t[pad(2 * i + 1)];
        reinterpret_cast<uint4 *>(w)[i] =
            make_uint4((uint32_t)a, (uint32_t)(a >> 32), (uint32_t)c, (uint32_t)(c >> 32));
    }
}

int main(int argc, char **argv)
{
    const int rounds = argc > 1 ? atoi(argv[1]) : 0;
    const int persist = argc > 2 ? atoi(argv[2]) : 0;
    const size_t n = (size_t)kItems << kLog;
    const size_t smem = (size_t)pad(kChunk) * 8 + 64;
    uint64_t *x;
    CK(cudaMalloc(&x, n * 8));
    CK(cudaMemset(x, 0, n * 8));
    CK(cudaFuncSetAttribute(k_bottom, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)smem));
    CK(cudaFuncSetAttribute(k_cluster, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)smem));
    cudaDeviceProp prop;
    CK(cudaGetDeviceProperties(&prop, 0));
    cudaStream_t st;
    CK(cudaStreamCreateWithFlags(&st, cudaStreamNonBlocking));
    cudaLaunchAttribute win = {};
    win.id = cudaLaunchAttributeAccessPolicyWindow;
    if (persist) {
        const size_t aside = std::min((size_t)prop.persistingL2CacheMaxSize, n * 8);
        CK(cudaDeviceSetLimit(cudaLimitPersistingL2CacheSize, aside));
        size_t got = 0;
        CK(cudaDeviceGetLimit(&got, cudaLimitPersistingL2CacheSize));
        win.val.accessPolicyWindow.base_ptr = x;
        win.val.accessPolicyWindow.num_bytes =
            std::min(n * 8, (size_t)prop.accessPolicyMaxWindowSize);
        win.val.accessPolicyWindow.hitRatio =
            std::min(1.0f, (float)got / (float)win.val.accessPolicyWindow.num_bytes);
        win.val.accessPolicyWindow.hitProp = cudaAccessPropertyPersisting;
        win.val.accessPolicyWindow.missProp = cudaAccessPropertyStreaming;
        printf("L2 %d bytes, persisting max %d, set aside %zu, window %zu bytes, hit ratio %.3f\n",
               prop.l2CacheSize, prop.persistingL2CacheMaxSize, got,
               win.val.accessPolicyWindow.num_bytes, win.val.accessPolicyWindow.hitRatio);
    }
    // Every launch goes through one config: grid, block, smem and the
    // cluster attribute vary per kernel, the window (if any) stays.
    cudaLaunchAttribute at[2];
    at[0] = win;
    at[1].id = cudaLaunchAttributeClusterDimension;
    at[1].val.clusterDim.x = kRows;
    at[1].val.clusterDim.y = 1;
    at[1].val.clusterDim.z = 1;
    cudaLaunchConfig_t cfg = {};
    cfg.gridDim = dim3(kRows, kItems);
    cfg.blockDim = dim3(kThreads);
    cfg.dynamicSmemBytes = smem;
    cfg.stream = st;
    cfg.attrs = at + 1;
    cfg.numAttrs = 1;
    int clusters = 0;
    CK(cudaOccupancyMaxActiveClusters(&clusters, k_cluster, &cfg));
    const char *names[] = {"copy 21 MB in place (16-byte accesses)", "copy twice (two kernels)",
                           "top pass model", "bottom pass model", "top + bottom (two kernels)",
                           "cluster of 8, one kernel"};
    cudaLaunchConfig_t copy = cfg, top = cfg, bot = cfg, clu = cfg;
    copy.gridDim = dim3(prop.multiProcessorCount * 8);
    copy.dynamicSmemBytes = 0;
    top.dynamicSmemBytes = 0;
    copy.attrs = top.attrs = bot.attrs = at;
    copy.numAttrs = top.numAttrs = bot.numAttrs = persist ? 1 : 0;
    clu.attrs = persist ? at : at + 1;
    clu.numAttrs = persist ? 2 : 1;
    uint4 *x4 = reinterpret_cast<uint4 *>(x);
    // Each model is captured once and its graph replayed, as ntt bench's
    // "graph" rows are, so that a model's time and a transform's compare.
    auto launch = [&](int m) {
        cudaError_t e = cudaSuccess;
        if (m <= 1) e = cudaLaunchKernelEx(&copy, k_copy, x4, n / 2);
        if (m == 1 && e == cudaSuccess) e = cudaLaunchKernelEx(&copy, k_copy, x4, n / 2);
        if (m == 2 || m == 4) e = cudaLaunchKernelEx(&top, k_top, x);
        if ((m == 3 || m == 4) && e == cudaSuccess) e = cudaLaunchKernelEx(&bot, k_bottom, x, rounds);
        if (m == 5) e = cudaLaunchKernelEx(&clu, k_cluster, x, rounds);
        return e;
    };
    for (int m = 0; m < 6; m++) {
        cudaGraph_t g;
        cudaGraphExec_t ex;
        CK(cudaStreamBeginCapture(st, cudaStreamCaptureModeThreadLocal));
        const cudaError_t le = launch(m);
        CK(cudaStreamEndCapture(st, &g));
        CK(le);
        CK(cudaGraphInstantiate(&ex, g, 0));
        GraphTimes t;
        if (time_graph(ex, st, 10, 50, &t)) return 1;
        CK(cudaGraphExecDestroy(ex));
        CK(cudaGraphDestroy(g));
        printf("%-40s rounds %d persist %d  median %7.2f us  min %7.2f  max %7.2f\n", names[m],
               rounds, persist, t.median, t.min, t.max);
    }
    printf("active clusters of 8 (occupancy): %d; smem per block %zu bytes\n", clusters, smem);
    return 0;
}
