// CK(call): for the standalone probes' main functions, print a failed CUDA
// call's place and error and return 1.
#pragma once
#include <cstdio>

#include <cuda_runtime.h>

#define CK(x)                                                                              \
    do {                                                                                   \
        cudaError_t e_ = (x);                                                              \
        if (e_ != cudaSuccess) {                                                           \
            fprintf(stderr, "%s:%d %s\n", __FILE__, __LINE__, cudaGetErrorString(e_));    \
            return 1;                                                                      \
        }                                                                                  \
    } while (0)
