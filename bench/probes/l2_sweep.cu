// l2_sweep: device memory bandwidth by footprint, to see where the L2 stops
// holding a buffer between launches.  In-place copy
// (read + write), read-only and write-only kernels over 1 MB .. 256 MB,
// each launched 50 times on the same buffer (warm), events around each
// launch, median of the last 40; "empty" is an empty kernel's time, the
// floor each row includes.  Stream launches, not graph replays: the
// rows include the host's launch call, as the empty kernel's row shows.
// Built with the CUDA backend:
//   cmake --build build --target l2_sweep && build/bench/probes/l2_sweep
#include <cstdint>

#include "probe_cuda.h"

__global__ void k_copy(uint4 *x, size_t n)
{
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x) {
        uint4 v = x[i];
        v.x += 1;
        x[i] = v;
    }
}

__global__ void k_read(const uint4 *x, size_t n, unsigned *o)
{
    unsigned s = 0;
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x) {
        const uint4 v = x[i];
        s ^= v.x ^ v.y ^ v.z ^ v.w;
    }
    if (s == 0x12345678) o[0] = s;  // keeps the loads
}

__global__ void k_write(uint4 *x, size_t n)
{
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x)
        x[i] = make_uint4((unsigned)i, 1, 2, 3);
}

__global__ void k_empty() {}

int main()
{
    const size_t maxb = (size_t)256 << 20;
    uint4 *x;
    unsigned *o;
    CK(cudaMalloc(&x, maxb));
    CK(cudaMalloc(&o, 4));
    CK(cudaMemset(x, 0, maxb));
    int sms = 0;
    CK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
    cudaEvent_t a, b;
    CK(cudaEventCreate(&a));
    CK(cudaEventCreate(&b));
    const size_t mbs[] = {1, 2, 4, 8, 12, 16, 21, 24, 32, 40, 64, 128, 256};
    const char *names[] = {"copy ", "read ", "write", "empty"};
    for (int k = 0; k < 4; k++) {
        for (size_t mb : mbs) {
            const size_t n = (mb << 20) / 16;
            std::vector<float> t;
            for (int r = 0; r < 50; r++) {
                CK(cudaEventRecord(a));
                if (k == 0) k_copy<<<sms * 8, 256>>>(x, n);
                if (k == 1) k_read<<<sms * 8, 256>>>(x, n, o);
                if (k == 2) k_write<<<sms * 8, 256>>>(x, n);
                if (k == 3) k_empty<<<sms * 8, 256>>>();
                CK(cudaEventRecord(b));
                CK(cudaEventSynchronize(b));
                CK(cudaGetLastError());
                float ms;
                CK(cudaEventElapsedTime(&ms, a, b));
                if (r >= 10) t.push_back(ms * 1000);
            }
            std::sort(t.begin(), t.end());
            const double us = t[t.size() / 2], bytes = (double)(mb << 20) * (k == 0 ? 2 : 1);
            printf("%s %4zu MB median %8.2f us min %8.2f  %6.2f TB/s\n", names[k], mb, us, t[0],
                   bytes / us / 1e6);
            if (k == 3) break;
        }
    }
    return 0;
}
