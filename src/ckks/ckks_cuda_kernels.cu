// The element-wise kernels of the CKKS operations on the device
// (ckks_cuda.h): products and sums of residues on the arithmetic layer's
// Barrett form, as ckks.c computes them on the host, so that both give the
// same words; and the automorphism's index permutation, computed per word
// from the bit reversal of the spectrum's order.  The transforms, modUp,
// inner product, modDown and rescale are the RNS context's public device
// calls (ckks.c).
#include "ckks_cuda.h"
#include "../cuda/cuda_device_arith.cuh"
#include "../cuda/cuda_launch_macros.cuh"
#include "../rns/galois_index.cuh"

namespace {

constexpr int kBlock = 256;

dim3 grid(size_t n, size_t rows) { return dim3((unsigned)((n + kBlock - 1) / kBlock), (unsigned)rows, 1); }

__device__ __forceinline__ uint64_t mulm(const ckks_prime &m, uint64_t a, uint64_t b)
{
    const uint64_t r = ntt_barrett64((ntt_u128)a * b, m.mu, m.k, m.p);  // [0, 3p)
    return ntt_csub64(ntt_csub64(r, 2 * m.p), m.p);
}

__global__ void k_tensor(const ckks_prime *pm, size_t n, const uint64_t *a0, const uint64_t *a1,
                         const uint64_t *b0, const uint64_t *b1, uint64_t *d0, uint64_t *d1,
                         uint64_t *d2)
{
    const size_t k = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (k >= n) return;
    const ckks_prime m = pm[blockIdx.y];
    const size_t x = (size_t)blockIdx.y * n + k;
    const uint64_t u0 = a0[x], u1 = a1[x], v0 = b0[x], v1 = b1[x];
    d0[x] = mulm(m, u0, v0);
    d1[x] = ntt_addmod(mulm(m, u0, v1), mulm(m, u1, v0), m.p);
    d2[x] = mulm(m, u1, v1);
}

__global__ void k_addmul(const ckks_prime *pm, size_t n, int mul, const uint64_t *x0,
                         const uint64_t *x1, const uint64_t *y0, const uint64_t *y1, uint64_t *o0,
                         uint64_t *o1)
{
    const size_t k = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (k >= n) return;
    const ckks_prime m = pm[blockIdx.y];
    const size_t x = (size_t)blockIdx.y * n + k;
    if (mul) {
        const uint64_t w = y0[x];
        o0[x] = mulm(m, x0[x], w);
        o1[x] = mulm(m, x1[x], y1 ? y1[x] : w);
    } else {
        o0[x] = ntt_addmod(x0[x], y0[x], m.p);
        if (o1) o1[x] = y1 ? ntt_addmod(x1[x], y1[x], m.p) : x1[x];
    }
}

__global__ void k_perm(const ckks_prime *pm, size_t n, unsigned logn, uint64_t g, const uint64_t *in,
                       const uint64_t *acc, uint64_t *out)
{
    const size_t k = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (k >= n) return;
    const size_t src = ntt_galois_src(k, logn, g), row = (size_t)blockIdx.y * n;
    const uint64_t v = in[row + src];
    out[row + k] = acc ? ntt_addmod(v, acc[row + k], pm[blockIdx.y].p) : v;
}

}  // namespace

extern "C" {

int ntt_ckks_cu_init(ckks_dev *d, const ckks_prime *pm, size_t nl, size_t n, size_t ext_words,
                     size_t acc_words, size_t t_words)
{
    memset(d, 0, sizeof *d);
    const size_t pmw = (nl * sizeof(ckks_prime) + 7) / 8;
    const size_t words = pmw + 2 * ext_words + 2 * acc_words + 4 * t_words;
    (void)n;
    cudaError_t e = cudaMalloc(&d->base, words * 8);
    if (e != cudaSuccess) {
        (void)cudaGetLastError();
        d->base = nullptr;
        return (int)e;
    }
    uint64_t *w = static_cast<uint64_t *>(d->base);
    d->pm = reinterpret_cast<ckks_prime *>(w);
    w += pmw;
    d->ext = w;
    d->extp = w + ext_words;
    w += 2 * ext_words;
    d->acc0 = w;
    d->acc1 = w + acc_words;
    w += 2 * acc_words;
    for (int i = 0; i < 4; i++) d->t[i] = w + i * t_words;
    e = cudaMemcpy(d->pm, pm, nl * sizeof(ckks_prime), cudaMemcpyHostToDevice);
    if (e != cudaSuccess) {
        (void)cudaGetLastError();
        ntt_ckks_cu_free(d);
        return (int)e;
    }
    return 0;
}

void ntt_ckks_cu_free(ckks_dev *d)
{
    if (d->base) cudaFree(d->base);
    memset(d, 0, sizeof *d);
}

int ntt_ckks_cu_tensor(const ckks_dev *d, size_t n, size_t rows, const uint64_t *a0,
                       const uint64_t *a1, const uint64_t *b0, const uint64_t *b1, uint64_t *d0,
                       uint64_t *d1, uint64_t *d2, void *stream)
{
    cudaStream_t st = static_cast<cudaStream_t>(stream);
    NTT_LAUNCH_THREADS(k_tensor, grid(n, rows), kBlock, 0, st, (const ckks_prime *)d->pm, n, a0,
                       a1, b0, b1, d0, d1, d2);
    return (int)cudaGetLastError();
}

int ntt_ckks_cu_addmul(const ckks_dev *d, size_t n, size_t rows, int mul, const uint64_t *x0,
                       const uint64_t *x1, const uint64_t *y0, const uint64_t *y1, uint64_t *o0,
                       uint64_t *o1, void *stream)
{
    cudaStream_t st = static_cast<cudaStream_t>(stream);
    NTT_LAUNCH_THREADS(k_addmul, grid(n, rows), kBlock, 0, st, (const ckks_prime *)d->pm, n, mul,
                       x0, x1, y0, y1, o0, o1);
    return (int)cudaGetLastError();
}

int ntt_ckks_cu_perm(const ckks_dev *d, size_t n, unsigned logn, uint64_t g, size_t rows,
                     const uint64_t *in, const uint64_t *acc, uint64_t *out, void *stream)
{
    cudaStream_t st = static_cast<cudaStream_t>(stream);
    NTT_LAUNCH_THREADS(k_perm, grid(n, rows), kBlock, 0, st, (const ckks_prime *)d->pm, n, logn, g,
                       in, acc, out);
    return (int)cudaGetLastError();
}

int ntt_ckks_cu_copy(uint64_t *dst, const uint64_t *src, size_t words, void *stream)
{
    return (int)cudaMemcpyAsync(dst, src, words * 8, cudaMemcpyDeviceToDevice,
                                static_cast<cudaStream_t>(stream));
}

}  // extern "C"
