/* The device side of the CPU stand-in (C++ only): qualifiers become plain
   C++, intrinsics become portable code, and a launch runs each block in
   turn.  Kernels that loop over their work with a stride of blockDim.x and
   meet at barriers (NTT_LAUNCH_BLOCK) run as one thread per block, which
   makes every barrier a no-op; kernels with one thread per item and no
   barriers (NTT_LAUNCH_THREADS) run every thread in turn. */
#ifndef NTT_CUDA_EMU_RUNTIME_H
#define NTT_CUDA_EMU_RUNTIME_H

#include "cuda_runtime_api.h"

#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>

#define __device__
#define __global__
#define __host__
#define __forceinline__ inline
#define __launch_bounds__(...)
#define __align__(n) alignas(n)

struct dim3 {
    unsigned x, y, z;
    dim3(unsigned a = 1, unsigned b = 1, unsigned c = 1) : x(a), y(b), z(c) {}
};
// Per host thread, as each thread of a program may launch (libntt_multigpu
// stages from one thread per device).
extern thread_local dim3 threadIdx, blockIdx, blockDim, gridDim;
extern thread_local unsigned char *emu_smem;

inline void __syncthreads() {}
inline uint32_t __umulhi(uint32_t a, uint32_t b) { return (uint32_t)(((uint64_t)a * b) >> 32); }
inline uint64_t __umul64hi(uint64_t a, uint64_t b)
{
    return (uint64_t)(((unsigned __int128)a * b) >> 64);
}
inline uint32_t __brev(uint32_t x)
{
    uint32_t r = 0;
    for (int i = 0; i < 32; i++, x >>= 1) r = (r << 1) | (x & 1);
    return r;
}
inline unsigned long long __brevll(unsigned long long x)
{
    unsigned long long r = 0;
    for (int i = 0; i < 64; i++, x >>= 1) r = (r << 1) | (x & 1);
    return r;
}
/* Double precision as the device rounds it: every operation once, to
   nearest (the emulator is built with -ffp-contract=off). */
inline double __dmul_rn(double a, double b) { return a * b; }
inline double __dadd_rn(double a, double b) { return a + b; }
inline double __ddiv_rn(double a, double b) { return a / b; }
inline double __fma_rn(double a, double b, double c) { return std::fma(a, b, c); }
inline double __longlong_as_double(long long x)
{
    double d;
    memcpy(&d, &x, sizeof d);
    return d;
}
inline long long __double_as_longlong(double d)
{
    long long x;
    memcpy(&x, &d, sizeof x);
    return x;
}
inline int __clz(int x) { return x == 0 ? 32 : __builtin_clz((unsigned)x); }
template <class T> inline T min(T a, T b) { return b < a ? b : a; }
template <class T> inline T __ldg(const T *p) { return *p; }

template <class F> cudaError_t cudaFuncSetAttribute(F f, cudaFuncAttribute a, int v)
{
    return emu_func_set_attribute((const void *)f, (int)a, v);
}
/* As a GPU does: a launch asking more dynamic shared memory than the
   kernel's attribute allows (48 KiB unless raised) fails with
   cudaErrorInvalidValue, reported by the next cudaGetLastError. */
bool emu_smem_allowed(const void *f, size_t smem);
void emu_set_error(cudaError_t e);
/* An injected launch failure (emu_faults.h). */
bool emu_launch_fails(void);

/* Runs body() for every block (and, for per-thread kernels, every thread)
   with a fresh, poisoned dynamic shared memory area per block. */
template <class B> void emu_launch(const void *f, dim3 g, dim3 b, size_t smem, bool per_thread, B body)
{
    if (!emu_smem_allowed(f, smem)) {
        emu_set_error(cudaErrorInvalidValue);
        return;
    }
    if (emu_launch_fails()) {
        emu_set_error(cudaErrorLaunchFailure);
        return;
    }
    unsigned char *buf = (unsigned char *)malloc(smem ? smem : 1);
    gridDim = g;
    blockDim = per_thread ? b : dim3(1, 1, 1);
    for (unsigned z = 0; z < g.z; z++)
        for (unsigned y = 0; y < g.y; y++)
            for (unsigned x = 0; x < g.x; x++) {
                blockIdx = dim3(x, y, z);
                memset(buf, 0xA5, smem ? smem : 1);
                emu_smem = buf;
                for (unsigned t = 0; t < blockDim.x; t++) {
                    threadIdx = dim3(t, 0, 0);
                    body();
                }
            }
    free(buf);
}

#define NTT_DYN_SMEM(name) unsigned char *name = emu_smem
#define NTT_LAUNCH_BLOCK(k, g, b, s, st, ...) \
    ((void)(st), emu_launch((const void *)(k), (g), (b), (s), false, [&] { k(__VA_ARGS__); }))
#define NTT_LAUNCH_THREADS(k, g, b, s, st, ...) \
    ((void)(st), emu_launch((const void *)(k), (g), (b), (s), true, [&] { k(__VA_ARGS__); }))
#define NTT_LAUNCH_PDL(k, g, b, s, st, ...) (NTT_LAUNCH_BLOCK(k, g, b, s, st, __VA_ARGS__), cudaSuccess)

#endif
