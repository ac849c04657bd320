// What the CUDA probes share: CK(call), which prints a failed CUDA
// call's place and error and returns 1 from the caller (CHECK_OR_1), and
// the timing of a graph's replays.
#pragma once
#include <algorithm>
#include <cstdio>
#include <vector>

#include <cuda_runtime.h>

// Returns 1 from the caller, after printing the place and what went wrong,
// when x (of type Type) is not ok; CK for CUDA calls, and the same shape for
// any other library's status codes (pipes_probe's NK).
#define CHECK_OR_1(Type, ok, str, x)                                                       \
    do {                                                                                   \
        Type e_ = (x);                                                                     \
        if (e_ != (ok)) {                                                                  \
            fprintf(stderr, "%s:%d %s\n", __FILE__, __LINE__, str(e_));                    \
            return 1;                                                                      \
        }                                                                                  \
    } while (0)
#define CK(x) CHECK_OR_1(cudaError_t, cudaSuccess, cudaGetErrorString, x)

struct GraphTimes {
    float median, min, max;  // microseconds
};

// Replays ex on st warm + reps times, events around each; the statistics of
// the last reps.  0, or 1 after printing the failed call.
inline int time_graph(cudaGraphExec_t ex, cudaStream_t st, int warm, int reps, GraphTimes *out)
{
    cudaEvent_t e0, e1;
    CK(cudaEventCreate(&e0));
    CK(cudaEventCreate(&e1));
    std::vector<float> t;
    for (int r = 0; r < warm + reps; r++) {
        CK(cudaEventRecord(e0, st));
        CK(cudaGraphLaunch(ex, st));
        CK(cudaEventRecord(e1, st));
        CK(cudaEventSynchronize(e1));
        CK(cudaGetLastError());
        float ms;
        CK(cudaEventElapsedTime(&ms, e0, e1));
        if (r >= warm) t.push_back(ms * 1000);
    }
    CK(cudaEventDestroy(e0));
    CK(cudaEventDestroy(e1));
    std::sort(t.begin(), t.end());
    *out = GraphTimes{t[t.size() / 2], t.front(), t.back()};
    return 0;
}
