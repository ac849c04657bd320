// The CPU stand-in's runtime calls: host memory, streams and events as
// tokens, no errors but allocation failures (and allocations above 64 GiB,
// to make "device out of memory" reproducible) and those injected through
// emu_faults.h.
#include "cuda_runtime.h"
#include "emu_faults.h"

#include <chrono>
#include <cstdio>

thread_local dim3 threadIdx, blockIdx, blockDim, gridDim;
thread_local unsigned char *emu_smem;

static const size_t kDeviceMemory = (size_t)64 << 30;
static const int kSmemDefault = 48 * 1024, kSmemOptin = 227 * 1024;
// Kernels whose limit was raised: every pass kernel a test's plans can pick
// (sizes, kinds, shapes, forced geometries) fits.
static const int kMaxAttr = 1024;

// Per-kernel dynamic shared-memory limits, and the error the next
// cudaGetLastError returns.
static struct {
    const void *f;
    int limit;
} g_attr[kMaxAttr];
static int g_nattr;
static thread_local cudaError_t g_pending = cudaSuccess;

bool emu_smem_allowed(const void *f, size_t smem)
{
    int limit = kSmemDefault;
    for (int i = 0; i < g_nattr; i++)
        if (g_attr[i].f == f) limit = g_attr[i].limit;
    return smem <= (size_t)limit;
}

void emu_set_error(cudaError_t e) { g_pending = e; }

extern "C" {

static int device_count(void)
{
    const char *e = getenv("NTT_EMU_DEVICES");
    const int n = e ? atoi(e) : 1;
    return n >= 1 && n <= 64 ? n : 1;
}
static thread_local int t_device;
cudaError_t cudaGetDeviceCount(int *count)
{
    *count = device_count();
    return cudaSuccess;
}
cudaError_t cudaGetDevice(int *dev)
{
    *dev = t_device;
    return cudaSuccess;
}
cudaError_t cudaSetDevice(int dev)
{
    if (dev < 0 || dev >= device_count()) return cudaErrorInvalidValue;
    t_device = dev;
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
cudaError_t cudaGetLastError(void)
{
    cudaError_t e = g_pending;
    g_pending = cudaSuccess;
    return e;
}
const char *cudaGetErrorString(cudaError_t e)
{
    return e == cudaSuccess ? "no error" : e == cudaErrorMemoryAllocation ? "out of memory" : "error";
}
static cudaError_t alloc(void **p, size_t bytes, emu_fault_kind kind)
{
    *p = bytes > kDeviceMemory || emu_fault_hit(kind) ? nullptr : malloc(bytes ? bytes : 1);
    if (!*p) return cudaErrorMemoryAllocation;
    memset(*p, 0x5A, bytes);  // device memory starts as garbage
    emu_fault_track(1);
    return cudaSuccess;
}
cudaError_t cudaMalloc(void **p, size_t bytes) { return alloc(p, bytes, EMU_FAULT_MALLOC); }
cudaError_t cudaFree(void *p)
{
    if (p) emu_fault_track(-1);
    free(p);
    return cudaSuccess;
}
// Page-locked ranges (cudaMallocHost, cudaHostRegister): reported as host
// memory mapped at the same address, as under UVA, so that the backend's
// path for them (kernels reading and writing them directly) runs here too.
// Three per live CUDA plan (its staging buffers), and the tests' own.
static const int kMaxLocked = 1024;
static struct {
    uintptr_t p;
    size_t bytes;
} g_locked[kMaxLocked];
static int g_nlocked;

static cudaError_t lock(void *p, size_t bytes)
{
    if (g_nlocked == kMaxLocked) return cudaErrorMemoryAllocation;
    g_locked[g_nlocked].p = reinterpret_cast<uintptr_t>(p);
    g_locked[g_nlocked++].bytes = bytes;
    return cudaSuccess;
}
static bool unlock(const void *p)
{
    for (int i = 0; i < g_nlocked; i++)
        if (g_locked[i].p == reinterpret_cast<uintptr_t>(p)) {
            g_locked[i] = g_locked[--g_nlocked];
            return true;
        }
    return false;
}
cudaError_t cudaMallocHost(void **p, size_t bytes)
{
    cudaError_t e = alloc(p, bytes, EMU_FAULT_MALLOC_HOST);
    if (e == cudaSuccess && lock(*p, bytes) != cudaSuccess) {
        cudaFree(*p);
        *p = nullptr;
        return cudaErrorMemoryAllocation;
    }
    return e;
}
cudaError_t cudaFreeHost(void *p)
{
    unlock(p);
    return cudaFree(p);
}
cudaError_t cudaHostRegister(void *p, size_t bytes, unsigned)
{
    if (emu_fault_hit(EMU_FAULT_MALLOC_HOST)) return cudaErrorMemoryAllocation;
    cudaError_t e = lock(p, bytes);
    if (e == cudaSuccess) emu_fault_track(1);
    return e;
}
cudaError_t cudaHostUnregister(void *p)
{
    if (unlock(p)) emu_fault_track(-1);
    return cudaSuccess;
}
cudaError_t cudaMemcpy(void *dst, const void *src, size_t bytes, enum cudaMemcpyKind)
{
    if (emu_fault_hit(EMU_FAULT_COPY)) return cudaErrorLaunchFailure;
    memmove(dst, src, bytes);
    return cudaSuccess;
}
cudaError_t cudaMemcpyAsync(void *dst, const void *src, size_t bytes, enum cudaMemcpyKind k,
                            cudaStream_t)
{
    return cudaMemcpy(dst, src, bytes, k);
}
static bool g_peer[64][64];
cudaError_t cudaDeviceCanAccessPeer(int *can, int dev, int peer)
{
    const int n = device_count();
    if (dev < 0 || dev >= n || peer < 0 || peer >= n) return cudaErrorInvalidValue;
    *can = dev != peer && !getenv("NTT_EMU_NO_PEER");
    return cudaSuccess;
}
cudaError_t cudaDeviceEnablePeerAccess(int peer, unsigned flags)
{
    int can = 0;
    if (flags || cudaDeviceCanAccessPeer(&can, t_device, peer) != cudaSuccess || !can)
        return cudaErrorInvalidValue;
    if (g_peer[t_device][peer]) {
        g_pending = cudaErrorPeerAccessAlreadyEnabled;
        return cudaErrorPeerAccessAlreadyEnabled;
    }
    g_peer[t_device][peer] = true;
    return cudaSuccess;
}
cudaError_t cudaMemcpyPeerAsync(void *dst, int dst_dev, const void *src, int src_dev, size_t bytes,
                                cudaStream_t)
{
    const int n = device_count();
    if (dst_dev < 0 || dst_dev >= n || src_dev < 0 || src_dev >= n) return cudaErrorInvalidValue;
    return cudaMemcpy(dst, src, bytes, cudaMemcpyDeviceToDevice);
}
cudaError_t cudaMemcpy2DAsync(void *dst, size_t dpitch, const void *src, size_t spitch,
                              size_t width, size_t height, enum cudaMemcpyKind, cudaStream_t)
{
    if (width > dpitch || width > spitch) return cudaErrorInvalidValue;
    if (emu_fault_hit(EMU_FAULT_COPY)) return cudaErrorLaunchFailure;
    for (size_t r = 0; r < height; r++)
        memmove((char *)dst + r * dpitch, (const char *)src + r * spitch, width);
    return cudaSuccess;
}
cudaError_t cudaMemset(void *p, int v, size_t bytes)
{
    if (emu_fault_hit(EMU_FAULT_COPY)) return cudaErrorLaunchFailure;
    memset(p, v, bytes);
    return cudaSuccess;
}
// Page-locked ranges are mapped host memory; any other pointer is ordinary
// host memory (the staged path).
cudaError_t cudaPointerGetAttributes(struct cudaPointerAttributes *a, const void *p)
{
    memset(a, 0, sizeof *a);
    const uintptr_t c = reinterpret_cast<uintptr_t>(p);
    for (int i = 0; i < g_nlocked; i++)
        if (c - g_locked[i].p < g_locked[i].bytes) {  // wraps above when c is below
            a->type = cudaMemoryTypeHost;
            a->devicePointer = a->hostPointer = const_cast<void *>(p);
        }
    return cudaSuccess;
}
// Streams and events are distinct tokens, so that creation and destruction
// can be counted.
static void *token(size_t bytes = 1)
{
    void *t = malloc(bytes);
    if (t) emu_fault_track(1);
    return t;
}
static void untoken(void *t)
{
    if (t) emu_fault_track(-1);
    free(t);
}
cudaError_t cudaStreamCreate(cudaStream_t *s)
{
    *s = emu_fault_hit(EMU_FAULT_CREATE) ? nullptr : static_cast<cudaStream_t>(token());
    return *s ? cudaSuccess : cudaErrorMemoryAllocation;
}
cudaError_t cudaStreamCreateWithFlags(cudaStream_t *s, unsigned) { return cudaStreamCreate(s); }
cudaError_t cudaStreamDestroy(cudaStream_t s)
{
    untoken(s);
    return cudaSuccess;
}
static cudaError_t sync_point(void)
{
    return emu_fault_hit(EMU_FAULT_SYNC) ? cudaErrorLaunchFailure : cudaSuccess;
}
cudaError_t cudaStreamSynchronize(cudaStream_t) { return sync_point(); }
cudaError_t cudaDeviceSynchronize(void) { return sync_point(); }
// An event is the host clock's reading when it was last recorded.
struct CUevent_st {
    double t;
};
static double now_s()
{
    using namespace std::chrono;
    return duration<double>(steady_clock::now().time_since_epoch()).count();
}
cudaError_t cudaEventCreateWithFlags(cudaEvent_t *e, unsigned)
{
    *e = emu_fault_hit(EMU_FAULT_CREATE) ? nullptr
                                         : static_cast<cudaEvent_t>(token(sizeof(CUevent_st)));
    if (!*e) return cudaErrorMemoryAllocation;
    (*e)->t = now_s();
    return cudaSuccess;
}
cudaError_t cudaEventCreate(cudaEvent_t *e) { return cudaEventCreateWithFlags(e, 0); }
cudaError_t cudaEventDestroy(cudaEvent_t e)
{
    untoken(e);
    return cudaSuccess;
}
cudaError_t cudaEventRecord(cudaEvent_t e, cudaStream_t)
{
    e->t = now_s();
    return sync_point();
}
cudaError_t cudaEventSynchronize(cudaEvent_t) { return sync_point(); }
cudaError_t cudaEventElapsedTime(float *ms, cudaEvent_t a, cudaEvent_t b)
{
    *ms = (float)((b->t - a->t) * 1e3);
    return cudaSuccess;
}
cudaError_t cudaMemsetAsync(void *p, int v, size_t bytes, cudaStream_t) { return cudaMemset(p, v, bytes); }
cudaError_t cudaStreamWaitEvent(cudaStream_t, cudaEvent_t, unsigned) { return sync_point(); }
cudaError_t emu_func_set_attribute(const void *f, int a, int v)
{
    if (a == cudaFuncAttributePreferredSharedMemoryCarveout)  // a hint: no effect here
        return v >= -1 && v <= 100 ? cudaSuccess : cudaErrorInvalidValue;
    if (v > kSmemOptin) return cudaErrorInvalidValue;
    for (int i = 0; i < g_nattr; i++)
        if (g_attr[i].f == f) {
            g_attr[i].limit = v;
            return cudaSuccess;
        }
    if (g_nattr == kMaxAttr) return cudaErrorInvalidValue;
    g_attr[g_nattr].f = f;
    g_attr[g_nattr++].limit = v;
    return cudaSuccess;
}

}  // extern "C"

bool emu_launch_fails(void) { return emu_fault_hit(EMU_FAULT_LAUNCH) != 0; }
