// The CPU stand-in's runtime calls: host memory, no streams, no errors but
// allocation failures (and allocations above 64 GiB, to make "device out of
// memory" reproducible).
#include "cuda_runtime.h"

#include <cstdio>

dim3 threadIdx, blockIdx, blockDim, gridDim;
unsigned char *emu_smem;

static const size_t kDeviceMemory = (size_t)64 << 30;

extern "C" {

cudaError_t cudaGetDeviceCount(int *count)
{
    *count = 1;
    return cudaSuccess;
}
cudaError_t cudaGetDevice(int *dev)
{
    *dev = 0;
    return cudaSuccess;
}
cudaError_t cudaGetDeviceProperties(struct cudaDeviceProp *prop, int)
{
    memset(prop, 0, sizeof *prop);
    snprintf(prop->name, sizeof prop->name, "CPU emulation");
    prop->totalGlobalMem = kDeviceMemory;
    prop->sharedMemPerBlockOptin = 227 * 1024;
    prop->multiProcessorCount = 1;
    prop->l2CacheSize = 1 << 20;
    prop->major = 9;
    return cudaSuccess;
}
cudaError_t cudaDeviceGetAttribute(int *v, enum cudaDeviceAttr, int)
{
    *v = 0;
    return cudaSuccess;
}
cudaError_t cudaDriverGetVersion(int *v)
{
    *v = 0;
    return cudaSuccess;
}
cudaError_t cudaRuntimeGetVersion(int *v)
{
    *v = 0;
    return cudaSuccess;
}
cudaError_t cudaGetLastError(void) { return cudaSuccess; }
const char *cudaGetErrorString(cudaError_t e)
{
    return e == cudaSuccess ? "no error" : e == cudaErrorMemoryAllocation ? "out of memory" : "error";
}
cudaError_t cudaMalloc(void **p, size_t bytes)
{
    *p = bytes > kDeviceMemory ? nullptr : malloc(bytes ? bytes : 1);
    if (!*p) return cudaErrorMemoryAllocation;
    memset(*p, 0x5A, bytes);  // device memory starts as garbage
    return cudaSuccess;
}
cudaError_t cudaFree(void *p)
{
    free(p);
    return cudaSuccess;
}
cudaError_t cudaMallocHost(void **p, size_t bytes) { return cudaMalloc(p, bytes); }
cudaError_t cudaFreeHost(void *p) { return cudaFree(p); }
cudaError_t cudaMemcpy(void *dst, const void *src, size_t bytes, enum cudaMemcpyKind)
{
    memmove(dst, src, bytes);
    return cudaSuccess;
}
cudaError_t cudaMemcpyAsync(void *dst, const void *src, size_t bytes, enum cudaMemcpyKind k,
                            cudaStream_t)
{
    return cudaMemcpy(dst, src, bytes, k);
}
cudaError_t cudaMemcpy2DAsync(void *dst, size_t dpitch, const void *src, size_t spitch,
                              size_t width, size_t height, enum cudaMemcpyKind, cudaStream_t)
{
    if (width > dpitch || width > spitch) return cudaErrorInvalidValue;
    for (size_t r = 0; r < height; r++)
        memmove((char *)dst + r * dpitch, (const char *)src + r * spitch, width);
    return cudaSuccess;
}
cudaError_t cudaMemset(void *p, int v, size_t bytes)
{
    memset(p, v, bytes);
    return cudaSuccess;
}
// Every pointer counts as unregistered host memory: the staged path.
cudaError_t cudaPointerGetAttributes(struct cudaPointerAttributes *a, const void *)
{
    memset(a, 0, sizeof *a);
    return cudaSuccess;
}
cudaError_t cudaStreamCreate(cudaStream_t *s)
{
    *s = nullptr;
    return cudaSuccess;
}
cudaError_t cudaStreamCreateWithFlags(cudaStream_t *s, unsigned) { return cudaStreamCreate(s); }
cudaError_t cudaStreamDestroy(cudaStream_t) { return cudaSuccess; }
cudaError_t cudaStreamSynchronize(cudaStream_t) { return cudaSuccess; }
cudaError_t cudaDeviceSynchronize(void) { return cudaSuccess; }
cudaError_t emu_func_set_attribute(const void *, int, int v)
{
    return v > 227 * 1024 ? cudaErrorInvalidValue : cudaSuccess;
}

}  // extern "C"
