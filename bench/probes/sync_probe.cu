// sync_probe.cu: what a dependency between two phases of work over the whole
// GPU costs, four ways.  Each phase reads and writes 2^18 u32 (1 MiB, in L2)
// across blocks (element j feeds j ^ 4096, another block's); 128 blocks of
// 512 threads, as the 2^18 product's passes.  (a) one kernel per phase with
// programmatic dependent launch, (b) one kernel per phase, (c) one
// cooperative kernel with cooperative_groups grid syncs between phases,
// (d) the same with a barrier of our own (one atomic per block, release /
// acquire flag).  All in CUDA graphs, timed with events; the slope over the
// phase count is the cost of a boundary plus a phase's work.  Phases
// alternate between two buffers; each config is first run once from zeros
// and its result checked (every element = the phase count).  Not part of
// the build:
//   nvcc -O3 -arch=sm_90 -Werror all-warnings -o sync_probe bench/probes/sync_probe.cu && ./sync_probe
// Results: bench/results/gpu-h100-2026-11-24n-sync-probe.txt.
#include <cooperative_groups.h>
#include <cstdio>
#include <cstdint>
#include <vector>
#include <algorithm>
namespace cg = cooperative_groups;
#define CK(x) do { cudaError_t e = (x); if (e != cudaSuccess) { printf("%s:%d %s\n", __FILE__, __LINE__, cudaGetErrorString(e)); return 1; } } while (0)
const int NB = 128, NT = 512, N = 1 << 18;
__device__ __forceinline__ void phase(uint32_t *a, int p)
{
    const uint32_t *src = a + (p & 1) * N;
    uint32_t *dst = a + ((p + 1) & 1) * N;
    int i = blockIdx.x * NT + threadIdx.x;
    for (int j = i; j < N; j += NB * NT) dst[j ^ 4096] = src[j] + 1;  // another block's element
}
__global__ void k_phase(uint32_t *a, int p, int pdl)
{
    if (pdl) cudaGridDependencySynchronize();
    phase(a, p);
}
__global__ void k_coop(uint32_t *a, int phases)
{
    cg::grid_group g = cg::this_grid();
    for (int p = 0; p < phases; p++) {
        phase(a, p);
        g.sync();
    }
}
__device__ unsigned int bar_count, bar_gen;
__device__ __forceinline__ void grid_bar(unsigned &gen)
{
    __syncthreads();
    if (threadIdx.x == 0) {
        gen++;
        __threadfence();
        unsigned arrived = atomicAdd(&bar_count, 1) + 1;
        if (arrived == gen * NB) {
            asm volatile("st.release.gpu.u32 [%0], %1;" ::"l"(&bar_gen), "r"(gen) : "memory");
        } else {
            unsigned v;
            do {
                asm volatile("ld.acquire.gpu.u32 %0, [%1];" : "=r"(v) : "l"(&bar_gen) : "memory");
            } while (v < gen);
        }
    }
    __syncthreads();
}
__global__ void k_hand(uint32_t *a, int phases)
{
    unsigned gen = bar_gen;  // from the launch before: bar_count = bar_gen * NB between launches
    for (int p = 0; p < phases; p++) {
        phase(a, p);
        grid_bar(gen);
    }
}
int main()
{
    uint32_t *a;
    CK(cudaMalloc(&a, 2 * N * 4));
    std::vector<uint32_t> h(N);
    cudaStream_t s;
    CK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
    cudaEvent_t e0, e1;
    CK(cudaEventCreate(&e0));
    CK(cudaEventCreate(&e1));
    for (int phases : {1, 2, 3, 8, 32}) {
        for (int mode = 0; mode < 4; mode++) {
            cudaGraph_t gr;
            cudaGraphExec_t ge;
            CK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
            if (mode <= 1) {
                for (int p = 0; p < phases; p++) {
                    cudaLaunchConfig_t c = {};
                    c.gridDim = NB; c.blockDim = NT; c.stream = s;
                    cudaLaunchAttribute at[1];
                    at[0].id = cudaLaunchAttributeProgrammaticStreamSerialization;
                    at[0].val.programmaticStreamSerializationAllowed = 1;
                    c.attrs = at; c.numAttrs = mode == 0 ? 1 : 0;
                    CK(cudaLaunchKernelEx(&c, k_phase, a, p, mode == 0 ? 1 : 0));
                }
            } else {
                cudaLaunchConfig_t c = {};
                c.gridDim = NB; c.blockDim = NT; c.stream = s;
                cudaLaunchAttribute at[1];
                at[0].id = cudaLaunchAttributeCooperative;
                at[0].val.cooperative = 1;
                c.attrs = at; c.numAttrs = 1;
                if (mode == 2) CK(cudaLaunchKernelEx(&c, k_coop, a, phases));
                else CK(cudaLaunchKernelEx(&c, k_hand, a, phases));
            }
            CK(cudaStreamEndCapture(s, &gr));
            CK(cudaGraphInstantiate(&ge, gr, 0));
            CK(cudaMemset(a, 0, 2 * N * 4));
            CK(cudaGraphLaunch(ge, s));
            CK(cudaMemcpyAsync(h.data(), a + (phases & 1) * N, N * 4, cudaMemcpyDeviceToHost, s));
            CK(cudaStreamSynchronize(s));
            for (int j = 0; j < N; j++)
                if (h[j] != (uint32_t)phases) {
                    printf("mode %d phases %d: element %d is %u\n", mode, phases, j, h[j]);
                    return 1;
                }
            std::vector<float> t;
            for (int r = 0; r < 60; r++) {
                CK(cudaEventRecord(e0, s));
                CK(cudaGraphLaunch(ge, s));
                CK(cudaEventRecord(e1, s));
                CK(cudaEventSynchronize(e1));
                float ms;
                CK(cudaEventElapsedTime(&ms, e0, e1));
                if (r >= 10) t.push_back(ms * 1000);
            }
            std::sort(t.begin(), t.end());
            const char *nm[] = {"kernels+PDL", "kernels", "coop cg.sync", "coop hand bar"};
            printf("phases %2d %-14s median %8.2f us  min %8.2f  max %8.2f\n", phases, nm[mode], t[t.size() / 2], t[0], t.back());
            CK(cudaGraphExecDestroy(ge));
            CK(cudaGraphDestroy(gr));
        }
    }
    printf("every config checked: each element equal to the phase count\n");
    return 0;
}
