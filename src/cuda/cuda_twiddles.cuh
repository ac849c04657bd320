// The fast kernels' twiddles of the tree (core/internal.h's tree order):
// read from the tables, or computed from the Montgomery kind's two small
// power tables (Mod::rlo, Mod::rhi).
#pragma once

#include "cuda_device_arith.cuh"

namespace nttc {

// r^t R mod p for t < N/2, from the two small tables.
template <class T> __device__ __forceinline__ T pow_m(uint64_t t, const Mod<T> &M)
{
    const uint64_t mask = ((uint64_t)1 << M.A) - 1;
    T lo = M.rlo[t & mask];
    if ((t >> M.A) == 0) return lo;
    return mont_canon(M.rhi[t >> M.A], lo, M.a);
}

// Exponent of tree node m + k (m = 2^d): (E(1) + N brv_d(k)) / 2m.
__device__ __forceinline__ uint64_t node_exp(unsigned d, uint32_t k, uint64_t e0, uint64_t nfull)
{
    uint64_t brv = d ? (uint64_t)(__brev(k) >> (32 - d)) : 0;
    return (e0 + nfull * brv) >> (d + 1);
}

// The twiddle of tree node (2^d + k), forward or inverse, for kind K.
template <int K, class T>
__device__ __forceinline__ Tw<T> node_tw(unsigned d, uint32_t k, bool inv, const Mod<T> &M)
{
    if (K == K_MONT) {
        uint64_t t = node_exp(d, k, M.e0, M.nfull);
        T w;
        if (!inv)
            w = pow_m<T>(t, M);
        else  // r^-t = -r^(N/2 - t)
            w = t == 0 ? M.one_m : M.a.p - pow_m<T>(M.nfull / 2 - t, M);
        return Tw<T>{w, w * M.a.pinv};
    } else {
        size_t i = ((size_t)1 << d) + k;
        return inv ? M.itw[i] : M.ftw[i];
    }
}

}  // namespace nttc
