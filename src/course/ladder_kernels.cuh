// The course reports' GPU design, kept for the ladder benchmark: a
// bit-reversal pass, then one launch per radix-2 DIT stage with one thread
// per butterfly; twiddles computed by powers in the kernel (the first
// report's kernel) or read from per-stage tables; a shared-memory kernel for
// the stages that fit in one block (the reports' best).  Values stay fully
// reduced, as in the reports.  The device arithmetic and the launch macros
// are the CUDA backend's (src/cuda), taken as they are.
#pragma once

#include "../cuda/cuda_device_arith.cuh"
#include "../cuda/cuda_launch_macros.cuh"

namespace nttc {

// What the ladder's kernels read of one modulus (device memory, one per
// plan modulus): the arithmetic's constants, stage tables in DIT order
// (offset m/2 - 1 for stage m, values and companions), and the roots of the
// power-computed twiddles.
template <class T> struct LadderMod {
    Ar<T> a;
    T one_m;                      // R mod p, Montgomery form of 1
    const T *lfw, *lfwx, *liw, *liwx;
    T omega, omega_inv;           // root of order n and its inverse, plain
    T omega_m, omega_inv_m;       // ... in Montgomery form
    T psi_m, psi_inv_m;           // negacyclic twist root (order 2n), Montgomery form
    Tw<T> ninv_m;                 // 1/n as a Montgomery-kind twiddle
};

// Fully reduced product of a value in [0, p) and a fixed twiddle.
template <int K, class T> __device__ __forceinline__ T lmul(T a, Tw<T> W, const Ar<T> &M)
{
    return csub(mulw<K, T>(a, W, M), M.p);
}

// w^e in the kind's domain: plain for naive and Barrett and Shoup (whose
// companion needs a division, so Shoup twiddles come only from tables),
// Montgomery form for Montgomery.  base is in that domain too.
template <int K, class T> __device__ Tw<T> lpow(T base, uint64_t e, const LadderMod<T> &Mg)
{
    const Ar<T> &M = Mg.a;
    T r = K == K_MONT ? Mg.one_m : T(1), b = base;
    while (e) {
        if (e & 1) r = csub(mul2<K, T>(r, b, M), M.p);
        b = csub(mul2<K, T>(b, b, M), M.p);
        e >>= 1;
    }
    return Tw<T>{r, K == K_MONT ? r * M.pinv : T(0)};
}

// Stage m of the DIT transform, one thread per butterfly; the twiddle
// w_m^j comes from the per-stage table, or (POW) is computed by powers as the
// first report did, w_m itself by a power of the root of order n.
template <class T, int K, bool POW>
__global__ void k_lstage(T *a, size_t n, size_t m, size_t stride, const LadderMod<T> *mods, int nmod,
                         int item0, bool inv)
{
    const size_t tid = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (tid >= n / 2) return;
    const LadderMod<T> &Mg = mods[(item0 + blockIdx.y) % nmod];
    const Ar<T> M = Mg.a;
    T *v = a + (size_t)blockIdx.y * stride;
    const size_t half = m / 2, j = tid % half, k = (tid / half) * m;
    Tw<T> w;
    if (POW) {
        T root = K == K_MONT ? (inv ? Mg.omega_inv_m : Mg.omega_m) : (inv ? Mg.omega_inv : Mg.omega);
        w = lpow<K, T>(lpow<K, T>(root, n / m, Mg).w, j, Mg);
    } else {
        const T *tw = inv ? Mg.liw : Mg.lfw, *twx = inv ? Mg.liwx : Mg.lfwx;
        w = Tw<T>{tw[half - 1 + j], twx[half - 1 + j]};
    }
    T u = v[k + j], t = lmul<K, T>(v[k + j + half], w, M);
    v[k + j] = csub(u + t, M.p);
    v[k + j + half] = csub(u - t + M.p, M.p);
}

// Every stage m <= chunk in one launch: a block owns `chunk` consecutive
// elements in shared memory (the reports' hybrid; chunk = 2 blockDim.x).
template <class T, int K>
__global__ void k_lshared(T *a, size_t n, size_t chunk, size_t stride, const LadderMod<T> *mods,
                          int nmod, int item0, bool inv)
{
    NTT_DYN_SMEM(smem);
    T *s = reinterpret_cast<T *>(smem);
    const LadderMod<T> &Mg = mods[(item0 + blockIdx.y) % nmod];
    const Ar<T> M = Mg.a;
    const size_t base = (size_t)blockIdx.x * chunk;
    T *v = a + (size_t)blockIdx.y * stride + base;
    const size_t len = n - base < chunk ? n - base : chunk;
    for (size_t i = threadIdx.x; i < len; i += blockDim.x) s[i] = v[i];
    __syncthreads();
    const T *tw = inv ? Mg.liw : Mg.lfw, *twx = inv ? Mg.liwx : Mg.lfwx;
    for (size_t m = 2; m <= len; m <<= 1) {
        const size_t half = m / 2;
        for (size_t t = threadIdx.x; t < len / 2; t += blockDim.x) {
            const size_t j = t % half, k = (t / half) * m;
            const Tw<T> w = {tw[half - 1 + j], twx[half - 1 + j]};
            T u = s[k + j], x = lmul<K, T>(s[k + j + half], w, M);
            s[k + j] = csub(u + x, M.p);
            s[k + j + half] = csub(u - x + M.p, M.p);
        }
        __syncthreads();
    }
    for (size_t i = threadIdx.x; i < len; i += blockDim.x) v[i] = s[i];
}

// mode 0: a[i] *= psi^i (negacyclic twist); 1: a[i] *= psi^-i / n (untwist
// and scale); 2: a[i] *= 1/n.  Montgomery arithmetic whatever the plan's
// kind: the reports had no negacyclic transform to compare.
template <class T>
__global__ void k_ltwist(T *a, size_t n, size_t stride, const LadderMod<T> *mods, int nmod, int item0,
                         int mode)
{
    const size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    const LadderMod<T> &Mg = mods[(item0 + blockIdx.y) % nmod];
    const Ar<T> M = Mg.a;
    T *v = a + (size_t)blockIdx.y * stride;
    T x = v[i];
    if (mode != 2) x = lmul<K_MONT, T>(x, lpow<K_MONT, T>(mode == 0 ? Mg.psi_m : Mg.psi_inv_m, i, Mg), M);
    if (mode != 0) x = lmul<K_MONT, T>(x, Mg.ninv_m, M);
    v[i] = x;
}

// dst[i] = i < len ? src[i] : 0, for each item (zero padding on the device).
template <class T>
__global__ void k_pad(T *dst, const T *src, size_t n, size_t len, size_t dstride, size_t sstride)
{
    const size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    dst[(size_t)blockIdx.y * dstride + i] = i < len ? src[(size_t)blockIdx.y * sstride + i] : T(0);
}

}  // namespace nttc
