// The arithmetic kinds and the per-modulus constants: what the host builds
// once per plan (cuda_tables.cpp) and every kernel reads (cuda_device_arith.cuh).
// Plain C++, no CUDA: the host files and the geometry's unit test include it
// without nvcc.
#pragma once

#include <cstddef>
#include <cstdint>

namespace nttc {

// Modular multiplication kinds, numbered as ntt_modmul, and K_FP64: the
// u64 Shoup kind of the fast path when every prime lies below 2^kFp64Bits
// (plan_kind), computed in the FP64 units (cuda_device_arith.cuh).
enum { K_NAIVE = 1, K_BARRETT = 2, K_MONT = 3, K_SHOUP = 4, K_FP64 = 5 };
constexpr int kFp64Bits = 50;

// A twiddle and its kind-specific companion: nothing (naive, Barrett), the
// Shoup quotient floor(w 2^k / p), or for Montgomery the value in
// Montgomery form wR mod p with x = (wR) p^-1 mod 2^k.
// Aligned to its size, so that one 8- or 16-byte load brings both.
template <class T> struct alignas(2 * sizeof(T)) Tw {
    T w, x;
};
static_assert(sizeof(Tw<uint32_t>) == 8 && sizeof(Tw<uint64_t>) == 16,
              "a twiddle takes two elements (stw_bytes, cuda_geometry.h)");

// The constants the arithmetic needs, small enough for registers.
template <class T> struct Ar {
    T p, p2, p4;  // p, 2p, 4p
    T pinv;       // p^-1 mod 2^k (signed Montgomery: t = hi(ab) - hi(lo(ab) pinv p))
    T np;         // -p mod 2^k (u64 Shoup, mulw)
    uint64_t mu;  // Barrett: u32 floor(2^64 / p); u64 floor(2^(2k) / p)
    unsigned k;   // bit length of p
    double dp, dpi;  // K_FP64: p and 1/p rounded
};

// Everything a kernel needs about one modulus; lives in device memory, one
// per plan modulus.
template <class T> struct Mod {
    Ar<T> a;
    T one_m;      // R mod p, Montgomery form of 1
    // 1/n scaling folded into the last inverse level: s for x+y, s1 = s winv[1]
    // for (x-y); the _mul pair also undoes the pointwise product's factor F.
    Tw<T> s_inv, s1_inv, s_mul, s1_mul, fix;
    // On-the-fly twiddles (Montgomery kind): r^j R for j < 2^A in rlo, and
    // r^(j 2^A) R in rhi; any r^t, t < N/2, is one Montgomery product.
    const T *rlo, *rhi;
    unsigned A;
    uint64_t e0, nfull;  // E(1) and the order N of r (n or 2n)
    // Tree-order tables (other kinds), each twiddle beside its companion so
    // that one 8- or 16-byte load brings both.
    const Tw<T> *ftw, *itw;
    // Compact twiddles (cuda_fast_kernels.cuh, group_butterflies; u32 Shoup and FP64 plans):
    // ftl[l][2^j + m] = ftw[2^(j+l) + m 2^l] for l = 1..3 (itl: itw), and
    // rho[0][2^l + t] = w(l, t) / w(l, 0) for t < 2^l (rho[1]: inverse).
    const Tw<T> *ftl[4], *itl[4];
    Tw<T> rho[2][16];
    // Computed staging (cuda_fast_kernels.cuh, rho_stage): rtw[2^l + t] = w(l, t) / w(l, 0)
    // for the levels l of a transform's bottom pass (irtw: the inverse's); null
    // where the forward's copies the tree's twiddles and the inverse's reads them.
    const Tw<T> *rtw, *irtw;
};

}  // namespace nttc
