// The element-wise kernels of every plan's calls: the public pointwise
// product and the in-place bit reversal (natural-order spectra).  The
// backend's (cuda_launch.cu) and the course ladder's (src/course) plans
// launch them.
#pragma once

#include "cuda_device_arith.cuh"

namespace nttc {

// Public pointwise product: a, b in [0, p) -> a b mod p.
template <class T, int K>
__global__ void k_pointwise(T *c, const T *a, const T *b, size_t n, size_t stride,
                            const Mod<T> *mods, int nmod, int item0)
{
    const size_t item = blockIdx.y;
    const Mod<T> &Mg = mods[(item0 + item) % nmod];
    const Ar<T> M = Mg.a;
    const size_t off = item * stride;
    for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n;
         i += (size_t)gridDim.x * blockDim.x) {
        if constexpr (K == K_FP64) {
            const double v = fmul2(from_u64(a[off + i]), from_u64(b[off + i]), M.dp, M.dpi);
            c[off + i] = to_u64(v, M.dp);
            continue;
        }
        T v = mul2<K, T>(a[off + i], b[off + i], M);
        if (K == K_MONT || K == K_SHOUP) v = mulw<K, T>(v, Mg.fix, M);
        c[off + i] = csub(v, M.p);
    }
}

// In-place bit-reversal permutation of each item (natural-order spectra).
template <class T> __global__ void k_bitrev(T *a, int D, size_t stride)
{
    T *v = a + (size_t)blockIdx.y * stride;
    const size_t n = (size_t)1 << D;
    for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n;
         i += (size_t)gridDim.x * blockDim.x) {
        size_t j = (size_t)(__brevll((unsigned long long)i) >> (64 - D));
        if (i < j) {
            T t = v[i];
            v[i] = v[j];
            v[j] = t;
        }
    }
}

}  // namespace nttc
