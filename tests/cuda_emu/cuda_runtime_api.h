/* A CPU stand-in for the part of the CUDA runtime API that ntt uses, so the
   CUDA backend's kernels and host logic can be tested on machines without
   a GPU (CI).  Device memory is host memory; a kernel launch runs every
   block in turn (see cuda_runtime.h).  C-compatible declarations. */
#ifndef NTT_CUDA_EMU_RUNTIME_API_H
#define NTT_CUDA_EMU_RUNTIME_API_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef enum cudaError {
    cudaSuccess = 0,
    cudaErrorInvalidValue = 1,
    cudaErrorMemoryAllocation = 2,
    cudaErrorLaunchFailure = 719,
    cudaErrorNoDevice = 100,
    cudaErrorPeerAccessAlreadyEnabled = 704
} cudaError_t;

typedef enum cudaMemcpyKind {
    cudaMemcpyHostToHost = 0,
    cudaMemcpyHostToDevice = 1,
    cudaMemcpyDeviceToHost = 2,
    cudaMemcpyDeviceToDevice = 3,
    cudaMemcpyDefault = 4
} cudaMemcpyKind_t;

typedef struct CUstream_st *cudaStream_t;
typedef struct CUevent_st *cudaEvent_t;
#define cudaEventDisableTiming 0x02

enum cudaDeviceAttr {
    cudaDevAttrClockRate = 13,
    cudaDevAttrMemoryClockRate = 36,
    cudaDevAttrGlobalMemoryBusWidth = 37
};

enum cudaFuncAttribute {
    cudaFuncAttributeMaxDynamicSharedMemorySize = 8,
    cudaFuncAttributePreferredSharedMemoryCarveout = 9
};

#define cudaStreamNonBlocking 0x01

enum cudaMemoryType {
    cudaMemoryTypeUnregistered = 0,
    cudaMemoryTypeHost = 1,
    cudaMemoryTypeDevice = 2
};
struct cudaPointerAttributes {
    enum cudaMemoryType type;
    int device;
    void *devicePointer, *hostPointer;
};

struct cudaDeviceProp {
    char name[256];
    size_t totalGlobalMem;
    size_t sharedMemPerBlockOptin;
    int multiProcessorCount;
    int l2CacheSize;
    int major, minor;
};

cudaError_t cudaGetDeviceCount(int *count);
cudaError_t cudaGetDevice(int *dev);
/* Several devices: NTT_EMU_DEVICES (default 1) of them, the current one per
   host thread; they share the host's memory, as UVA would show it. */
cudaError_t cudaSetDevice(int dev);
cudaError_t cudaGetDeviceProperties(struct cudaDeviceProp *prop, int dev);
cudaError_t cudaDeviceGetAttribute(int *v, enum cudaDeviceAttr a, int dev);
cudaError_t cudaDriverGetVersion(int *v);
cudaError_t cudaRuntimeGetVersion(int *v);
cudaError_t cudaGetLastError(void);
const char *cudaGetErrorString(cudaError_t e);
cudaError_t cudaMalloc(void **p, size_t bytes);
cudaError_t cudaFree(void *p);
cudaError_t cudaMallocHost(void **p, size_t bytes);
cudaError_t cudaFreeHost(void *p);
#define cudaHostRegisterDefault 0u
cudaError_t cudaHostRegister(void *p, size_t bytes, unsigned flags);
cudaError_t cudaHostUnregister(void *p);
cudaError_t cudaMemcpy(void *dst, const void *src, size_t bytes, enum cudaMemcpyKind k);
cudaError_t cudaMemcpyAsync(void *dst, const void *src, size_t bytes, enum cudaMemcpyKind k,
                            cudaStream_t s);
cudaError_t cudaMemcpy2DAsync(void *dst, size_t dpitch, const void *src, size_t spitch,
                              size_t width, size_t height, enum cudaMemcpyKind k, cudaStream_t s);
cudaError_t cudaMemset(void *p, int v, size_t bytes);
/* Peer access: every pair of distinct devices may (NTT_EMU_NO_PEER set:
   none may); enabling it twice fails as CUDA does, with
   cudaErrorPeerAccessAlreadyEnabled, also left for cudaGetLastError. */
cudaError_t cudaDeviceCanAccessPeer(int *can, int dev, int peer);
cudaError_t cudaDeviceEnablePeerAccess(int peer, unsigned flags);
cudaError_t cudaMemcpyPeerAsync(void *dst, int dst_dev, const void *src, int src_dev, size_t bytes,
                                cudaStream_t s);
cudaError_t cudaPointerGetAttributes(struct cudaPointerAttributes *a, const void *p);
cudaError_t cudaStreamCreate(cudaStream_t *s);
cudaError_t cudaStreamCreateWithFlags(cudaStream_t *s, unsigned flags);
cudaError_t cudaStreamDestroy(cudaStream_t s);
cudaError_t cudaStreamSynchronize(cudaStream_t s);
cudaError_t cudaDeviceSynchronize(void);
/* Work runs when it is issued, so events are always complete; an event
   keeps the host's clock when it is recorded. */
cudaError_t cudaEventCreateWithFlags(cudaEvent_t *e, unsigned flags);
cudaError_t cudaEventCreate(cudaEvent_t *e);
cudaError_t cudaEventSynchronize(cudaEvent_t e);
cudaError_t cudaEventElapsedTime(float *ms, cudaEvent_t start, cudaEvent_t end);
cudaError_t cudaMemsetAsync(void *p, int v, size_t bytes, cudaStream_t s);
cudaError_t cudaEventDestroy(cudaEvent_t e);
cudaError_t cudaEventRecord(cudaEvent_t e, cudaStream_t s);
cudaError_t cudaStreamWaitEvent(cudaStream_t s, cudaEvent_t e, unsigned flags);
cudaError_t emu_func_set_attribute(const void *f, int attr, int value);

#ifdef __cplusplus
}
#endif

#endif
