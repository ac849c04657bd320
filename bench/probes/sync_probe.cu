// sync_probe: what a dependency between two phases of work over the whole
// GPU costs when the phases carry data, four ways, with programmatic
// dependent launch (PDL) as the library's kernels use it.  Each phase reads
// and writes 2^18 u32 (1 MiB, in L2), every element feeding another block's
// (j -> j ^ 4096), over 128 blocks of 512 threads, as the 2^18 product's
// passes: (a) one kernel per phase with PDL, (b) one kernel per phase,
// (c) one cooperative kernel with cooperative_groups grid syncs, (d) the
// same with a barrier of our own (one atomic per block, release / acquire
// flag).  Phases alternate between two buffers; each configuration runs
// once from zeros and is checked (every element equal to the phase count),
// then its graph is timed (time_graph).  The slope over the phase count is
// what a boundary plus a phase's work costs (docs/EXPERIMENTS.md has what
// it found).  Built with the CUDA backend:
//   cmake --build build --target sync_probe && build/bench/probes/sync_probe
#include <cooperative_groups.h>
#include <cstdint>

#include "probe_cuda.h"

namespace cg = cooperative_groups;

constexpr int kBlocks = 128, kThreads = 512, kN = 1 << 18;

__device__ __forceinline__ void phase(uint32_t *a, int p)
{
    const uint32_t *src = a + (p & 1) * kN;
    uint32_t *dst = a + ((p + 1) & 1) * kN;
    for (int j = blockIdx.x * kThreads + threadIdx.x; j < kN; j += kBlocks * kThreads)
        dst[j ^ 4096] = src[j] + 1;
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

// Between launches bar_count = bar_gen * kBlocks.
__device__ unsigned int bar_count, bar_gen;

__global__ void k_hand(uint32_t *a, int phases)
{
    unsigned gen = bar_gen;
    for (int p = 0; p < phases; p++) {
        phase(a, p);
        __syncthreads();
        if (threadIdx.x == 0) {
            gen++;
            __threadfence();
            if (atomicAdd(&bar_count, 1) + 1 == gen * kBlocks) {
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
}

int main()
{
    uint32_t *a;
    CK(cudaMalloc(&a, 2 * kN * sizeof(uint32_t)));
    std::vector<uint32_t> h(kN);
    cudaStream_t s;
    CK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
    const char *names[] = {"kernels+PDL", "kernels", "coop cg.sync", "coop hand bar"};
    for (int phases : {1, 2, 3, 8, 32}) {
        for (int mode = 0; mode < 4; mode++) {
            cudaLaunchConfig_t c = {};
            c.gridDim = kBlocks;
            c.blockDim = kThreads;
            c.stream = s;
            cudaLaunchAttribute at;
            if (mode == 1) {
                c.numAttrs = 0;
            } else {
                at.id = mode == 0 ? cudaLaunchAttributeProgrammaticStreamSerialization
                                  : cudaLaunchAttributeCooperative;
                if (mode == 0)
                    at.val.programmaticStreamSerializationAllowed = 1;
                else
                    at.val.cooperative = 1;
                c.attrs = &at;
                c.numAttrs = 1;
            }
            cudaGraph_t gr;
            cudaGraphExec_t ge;
            CK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
            if (mode <= 1)
                for (int p = 0; p < phases; p++) CK(cudaLaunchKernelEx(&c, k_phase, a, p, mode == 0));
            else
                CK(cudaLaunchKernelEx(&c, mode == 2 ? k_coop : k_hand, a, phases));
            CK(cudaStreamEndCapture(s, &gr));
            CK(cudaGraphInstantiate(&ge, gr, 0));
            CK(cudaMemset(a, 0, 2 * kN * sizeof(uint32_t)));
            CK(cudaGraphLaunch(ge, s));
            CK(cudaMemcpyAsync(h.data(), a + (phases & 1) * kN, kN * sizeof(uint32_t),
                               cudaMemcpyDeviceToHost, s));
            CK(cudaStreamSynchronize(s));
            for (int j = 0; j < kN; j++)
                if (h[j] != (uint32_t)phases) {
                    fprintf(stderr, "%s, %d phases: element %d is %u\n", names[mode], phases, j, h[j]);
                    return 1;
                }
            GraphTimes t;
            if (time_graph(ge, s, 10, 50, &t)) return 1;
            printf("phases %2d %-14s median %8.2f us  min %8.2f  max %8.2f\n", phases, names[mode],
                   t.median, t.min, t.max);
            CK(cudaGraphExecDestroy(ge));
            CK(cudaGraphDestroy(gr));
        }
    }
    printf("every configuration checked: each element equal to the phase count\n");
    return 0;
}
