// What the device benchmarks (rns_gpu.cu, ckks_gpu.cu) measure alike: medians and the
// device-to-device copy bandwidth that their floors are set by.
#ifndef NTT_BENCH_GPU_COMMON_H
#define NTT_BENCH_GPU_COMMON_H

#include "ntt.h"

#include <cuda_runtime_api.h>

#include <cstdio>
#include <cstdlib>

#include <functional>
#include <vector>

// Exit with the call's text and error where a CUDA call (BENCH_CUDA) or a library call
// (BENCH_NTT) fails; `who` names the benchmark ("ntt-bench rns --gpu").
#define BENCH_CUDA(who, x)                                                             \
    do {                                                                               \
        cudaError_t e_ = (x);                                                          \
        if (e_ != cudaSuccess) {                                                       \
            fprintf(stderr, "%s: %s: %s\n", who, #x, cudaGetErrorString(e_));          \
            exit(1);                                                                   \
        }                                                                              \
    } while (0)
#define BENCH_NTT(who, x)                                                                    \
    do {                                                                                     \
        ntt_status s_ = (x);                                                                 \
        if (s_ != NTT_OK) {                                                                  \
            fprintf(stderr, "%s: %s: %s (%s)\n", who, #x, ntt_status_string(s_),             \
                    ntt_error_detail());                                                     \
            exit(1);                                                                         \
        }                                                                                    \
    } while (0)

// The median of v (the mean of the middle two for an even count); v not empty.
double bench_median(std::vector<double> v);

// Bytes read plus written per second, in GB/s, of a 1 GiB device-to-device copy on st: the
// median of reps copies after one warm-up.  0 where the buffers or events cannot be had.
double bench_copy_gbps(cudaStream_t st, int reps);

// Times reps calls of enqueue (which enqueues work on st) after two warm-ups: CUDA events on st
// around each call alone, as stream launches, or (graph) as replays of one CUDA graph captured
// from one call; cold: `flush` (flush_bytes) memset on st before each, outside the events.
// The median in microseconds, the fastest and slowest in *lo, *hi (either may be NULL); -1
// after a CUDA error (left to the caller to report; the error is cleared).
double bench_time_device(cudaStream_t st, void *flush, size_t flush_bytes, bool cold, bool graph,
                         int reps, const std::function<void()> &enqueue, double *lo, double *hi);

#endif
