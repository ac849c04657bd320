// gpu_common.h: medians and the copy bandwidth of the device benchmarks.
#include "gpu_common.h"

#include <algorithm>

double bench_median(std::vector<double> v)
{
    std::sort(v.begin(), v.end());
    const size_t m = v.size();
    return m % 2 ? v[m / 2] : 0.5 * (v[m / 2 - 1] + v[m / 2]);
}

double bench_copy_gbps(cudaStream_t st, int reps)
{
    const size_t bytes = (size_t)1 << 30;
    void *a = nullptr, *c = nullptr;
    cudaEvent_t e0 = nullptr, e1 = nullptr;
    std::vector<double> t;
    bool ok = cudaMalloc(&a, bytes) == cudaSuccess && cudaMalloc(&c, bytes) == cudaSuccess &&
              cudaEventCreate(&e0) == cudaSuccess && cudaEventCreate(&e1) == cudaSuccess;
    for (int r = -1; ok && r < reps; r++) {
        float ms = 0;
        ok = cudaEventRecord(e0, st) == cudaSuccess &&
             cudaMemcpyAsync(c, a, bytes, cudaMemcpyDeviceToDevice, st) == cudaSuccess &&
             cudaEventRecord(e1, st) == cudaSuccess && cudaEventSynchronize(e1) == cudaSuccess &&
             cudaEventElapsedTime(&ms, e0, e1) == cudaSuccess;
        if (ok && r >= 0) t.push_back(ms * 1e-3);
    }
    if (e0) cudaEventDestroy(e0);
    if (e1) cudaEventDestroy(e1);
    cudaFree(a);
    cudaFree(c);
    (void)cudaGetLastError();
    return ok && !t.empty() ? 2.0 * (double)bytes / bench_median(t) / 1e9 : 0;
}

double bench_time_device(cudaStream_t st, void *flush, size_t flush_bytes, bool cold, bool graph,
                         int reps, const std::function<void()> &enqueue, double *lo, double *hi)
{
    cudaEvent_t e0 = nullptr, e1 = nullptr;
    cudaGraphExec_t exec = nullptr;
    std::vector<double> t;
    bool ok = cudaEventCreate(&e0) == cudaSuccess && cudaEventCreate(&e1) == cudaSuccess;
    if (ok && graph) {
        cudaGraph_t g = nullptr;
        ok = cudaStreamBeginCapture(st, cudaStreamCaptureModeThreadLocal) == cudaSuccess;
        if (ok) enqueue();
        ok = cudaStreamEndCapture(st, &g) == cudaSuccess && ok &&
             cudaGraphInstantiate(&exec, g, 0) == cudaSuccess;
        if (g) cudaGraphDestroy(g);
    }
    for (int r = -2; ok && r < reps; r++) {
        float ms = 0;
        if (cold) ok = cudaMemsetAsync(flush, r & 0xff, flush_bytes, st) == cudaSuccess;
        ok = ok && cudaEventRecord(e0, st) == cudaSuccess;
        if (ok && graph) ok = cudaGraphLaunch(exec, st) == cudaSuccess;
        else if (ok) enqueue();
        ok = ok && cudaEventRecord(e1, st) == cudaSuccess &&
             cudaEventSynchronize(e1) == cudaSuccess &&
             cudaEventElapsedTime(&ms, e0, e1) == cudaSuccess;
        if (ok && r >= 0) t.push_back(ms * 1e3);
    }
    if (exec) cudaGraphExecDestroy(exec);
    if (e0) cudaEventDestroy(e0);
    if (e1) cudaEventDestroy(e1);
    if (!ok || t.empty()) {
        (void)cudaGetLastError();
        return -1;
    }
    if (lo) *lo = *std::min_element(t.begin(), t.end());
    if (hi) *hi = *std::max_element(t.begin(), t.end());
    return bench_median(t);
}
