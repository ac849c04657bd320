// cluster_probe: what moving the data of a batched u64 transform costs on
// the GPU, two passes through global memory (L2) against one kernel whose
// blocks exchange their columns through a thread block cluster's
// distributed shared memory.  No arithmetic: each model moves the bytes a
// forward transform of 2^16 x 40 u64 moves (top pass: 8 rows at stride
// 2^13, one radix-8 round in registers; bottom pass: a contiguous 2^13
// chunk through shared memory, ROUNDS round trips), in place, warm L2.
//   nvcc -O3 -arch=sm_90 -std=c++17 bench/cluster_probe.cu -o cluster_probe
//   ./cluster_probe [ROUNDS]
#include <cooperative_groups.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <vector>

namespace cg = cooperative_groups;

constexpr int kItems = 40, kLog = 16, kRows = 8, kChunk = 1 << (kLog - 3), kThreads = 256;
constexpr int kCols = kChunk / kRows;  // columns per block in the top pass

#define CK(x)                                                                              \
    do {                                                                                   \
        cudaError_t e_ = (x);                                                              \
        if (e_ != cudaSuccess) {                                                           \
            fprintf(stderr, "%s:%d %s\n", __FILE__, __LINE__, cudaGetErrorString(e_));    \
            return 1;                                                                      \
        }                                                                                  \
    } while (0)

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
    const size_t n = (size_t)kItems << kLog;
    const size_t smem = (size_t)pad(kChunk) * 8 + 64;
    uint64_t *x;
    CK(cudaMalloc(&x, n * 8));
    CK(cudaMemset(x, 0, n * 8));
    CK(cudaFuncSetAttribute(k_bottom, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)smem));
    CK(cudaFuncSetAttribute(k_cluster, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)smem));
    cudaLaunchConfig_t cfg = {};
    cfg.gridDim = dim3(kRows, kItems);
    cfg.blockDim = dim3(kThreads);
    cfg.dynamicSmemBytes = smem;
    cudaLaunchAttribute at[1];
    at[0].id = cudaLaunchAttributeClusterDimension;
    at[0].val.clusterDim.x = kRows;
    at[0].val.clusterDim.y = 1;
    at[0].val.clusterDim.z = 1;
    cfg.attrs = at;
    cfg.numAttrs = 1;
    int clusters = 0;
    CK(cudaOccupancyMaxActiveClusters(&clusters, k_cluster, &cfg));
    cudaEvent_t e0, e1;
    CK(cudaEventCreate(&e0));
    CK(cudaEventCreate(&e1));
    const char *names[] = {"copy 21 MB in place (16-byte accesses)", "top pass model",
                           "bottom pass model", "top + bottom (two kernels)",
                           "cluster of 8, one kernel"};
    for (int m = 0; m < 5; m++) {
        std::vector<float> t;
        for (int r = 0; r < 60; r++) {
            CK(cudaEventRecord(e0));
            if (m == 0) k_copy<<<132 * 8, 256>>>(reinterpret_cast<uint4 *>(x), n / 2);
            if (m == 1 || m == 3) k_top<<<dim3(kRows, kItems), kThreads>>>(x);
            if (m == 2 || m == 3) k_bottom<<<dim3(kRows, kItems), kThreads, smem>>>(x, rounds);
            if (m == 4) CK(cudaLaunchKernelEx(&cfg, k_cluster, x, rounds));
            CK(cudaEventRecord(e1));
            CK(cudaEventSynchronize(e1));
            CK(cudaGetLastError());
            float ms;
            CK(cudaEventElapsedTime(&ms, e0, e1));
            if (r >= 10) t.push_back(ms * 1000);
        }
        std::sort(t.begin(), t.end());
        printf("%-40s rounds %d  median %7.2f us  min %7.2f  max %7.2f\n", names[m], rounds,
               t[t.size() / 2], t.front(), t.back());
    }
    printf("active clusters of 8 (occupancy): %d; smem per block %zu bytes\n", clusters, smem);
    return 0;
}
