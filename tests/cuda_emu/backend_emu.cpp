// The CUDA backend compiled by the host C++ compiler against the CPU
// stand-in (cuda_runtime.h in this directory).
#include "../../src/cuda/cuda_backend.cu"
