// pipes_probe: can one batch use both of an SM's arithmetic pipes?  The u64
// forward 2^16 x 40 (negacyclic) runs its FP64 kernels (primes below 2^50)
// with the integer multiply pipe idle, and its integer kernels (62-bit
// primes) with the FP64 pipe idle.  Here k items go to an FP64 plan and
// 40 - k to an integer plan, on two streams forked and joined in one graph,
// so that their blocks share the SMs.  Each plan's output is checked against
// the scalar backend before timing.  Graph replays, events around each,
// median / min / max of 50.
// Built with the CUDA backend:
//   cmake --build build --target pipes_probe && build/bench/probes/pipes_probe
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <vector>

#include "probe_cuda.h"
#include "ntt.h"

#define NK(x) CHECK_OR_1(ntt_status, NTT_OK, ntt_status_string, x)

constexpr size_t kN = 1 << 16, kItems = 40;

static uint64_t state = 0x9e3779b97f4a7c15ull;
static uint64_t next_below(uint64_t p)
{
    state ^= state << 13;
    state ^= state >> 7;
    state ^= state << 17;
    return state % p;
}

// Forward transforms of items [0, k) mod p50 (FP64 kernels) and [k, 40) mod
// p62 (integer kernels), concurrently; 50 timed graph replays.
static int run(size_t k, uint64_t p50, uint64_t p62, uint64_t *d, cudaStream_t s0,
               cudaStream_t s1)
{
    ntt_plan_options o = {};
    o.flags = NTT_FLAG_NEGACYCLIC;
    ntt_plan *pa = nullptr, *pb = nullptr, *sa = nullptr, *sb = nullptr;
    const size_t ka = k, kb = kItems - k;
    o.batch = ka ? ka : 1;
    NK(ntt_plan_create(&pa, kN, p50, NTT_U64, NTT_BACKEND_CUDA, &o));
    NK(ntt_plan_create(&sa, kN, p50, NTT_U64, NTT_BACKEND_SCALAR, &o));
    o.batch = kb ? kb : 1;
    NK(ntt_plan_create(&pb, kN, p62, NTT_U64, NTT_BACKEND_CUDA, &o));
    NK(ntt_plan_create(&sb, kN, p62, NTT_U64, NTT_BACKEND_SCALAR, &o));
    std::vector<uint64_t> h(kN * kItems), got(kN * kItems);
    for (size_t i = 0; i < kN * kItems; i++) h[i] = next_below(i < ka * kN ? p50 : p62);
    CK(cudaMemcpy(d, h.data(), h.size() * 8, cudaMemcpyHostToDevice));
    auto both = [&]() -> int {
        cudaEvent_t fork, join;
        CK(cudaEventCreateWithFlags(&fork, cudaEventDisableTiming));
        CK(cudaEventCreateWithFlags(&join, cudaEventDisableTiming));
        CK(cudaEventRecord(fork, s0));
        CK(cudaStreamWaitEvent(s1, fork, 0));
        if (ka) NK(ntt_cuda_forward_u64(pa, d, ka, kN, s0));
        if (kb) NK(ntt_cuda_forward_u64(pb, d + ka * kN, kb, kN, s1));
        CK(cudaEventRecord(join, s1));
        CK(cudaStreamWaitEvent(s0, join, 0));
        CK(cudaEventDestroy(fork));
        CK(cudaEventDestroy(join));
        return 0;
    };
    if (both()) return 1;
    CK(cudaStreamSynchronize(s0));
    CK(cudaMemcpy(got.data(), d, got.size() * 8, cudaMemcpyDeviceToHost));
    if (ka) NK(ntt_forward_batch_u64(sa, h.data(), ka, kN));
    if (kb) NK(ntt_forward_batch_u64(sb, h.data() + ka * kN, kb, kN));
    if (memcmp(got.data(), h.data(), h.size() * 8) != 0) {
        printf("k = %2zu: FAILED (differs from the scalar backend)\n", k);
        return 1;
    }
    cudaGraph_t g;
    cudaGraphExec_t ex;
    CK(cudaStreamBeginCapture(s0, cudaStreamCaptureModeThreadLocal));
    const int bad = both();
    CK(cudaStreamEndCapture(s0, &g));
    if (bad) return 1;
    CK(cudaGraphInstantiate(&ex, g, 0));
    GraphTimes t;
    if (time_graph(ex, s0, 3, 50, &t)) return 1;
    printf("k = %2zu FP64 + %2zu integer items: verified; median %7.2f us  min %7.2f  max %7.2f\n",
           ka, kb, t.median, t.min, t.max);
    CK(cudaGraphExecDestroy(ex));
    CK(cudaGraphDestroy(g));
    ntt_plan_destroy(pa);
    ntt_plan_destroy(pb);
    ntt_plan_destroy(sa);
    ntt_plan_destroy(sb);
    return 0;
}

int main(int argc, char **argv)
{
    uint64_t p50, p62;
    NK(ntt_find_prime(50, 17, 0, &p50));
    NK(ntt_find_prime(62, 17, 0, &p62));
    uint64_t *d;
    CK(cudaMalloc(&d, kN * kItems * 8));
    cudaStream_t s0, s1;
    CK(cudaStreamCreateWithFlags(&s0, cudaStreamNonBlocking));
    CK(cudaStreamCreateWithFlags(&s1, cudaStreamNonBlocking));
    std::vector<size_t> ks = {40, 0, 32, 28, 24, 20, 16, 40};
    if (argc > 1) {
        ks.clear();
        for (int i = 1; i < argc; i++) ks.push_back((size_t)atoi(argv[i]));
    }
    int rc = 0;
    for (size_t k : ks) rc |= run(std::min(k, kItems), p50, p62, d, s0, s1);
    CK(cudaFree(d));
    return rc;
}
