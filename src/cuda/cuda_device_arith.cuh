// Device arithmetic shared by the CUDA kernels (the per-modulus constants
// they read: cuda_mod.h); nothing else (launches: cuda_launch_macros.cuh,
// bulk copies: cuda_bulk_copy.cuh, tree twiddles: cuda_twiddles.cuh).
// The scalar formulas are the arithmetic layer's (src/arith/modarith.h),
// here chosen by kind and element type; the GPU's own are the FP64
// products and the 64-bit conditional subtraction (csub), each said why.  Ranges follow that layer: u32 needs p < 2^30, u64 p < 2^62,
// so that 4p fits in an element; the fast path's u32 Shoup kernels let
// values reach 8p when p < 2^29 (group_butterflies).
#pragma once

#include <cstddef>
#include <cstdint>
#include <cuda_runtime.h>

#include "../arith/modarith.h"
#include "cuda_mod.h"

namespace nttc {

typedef unsigned __int128 u128;

// ---- the layer's functions by element type ------------------------------------
// (modarith.h is C: one name per width.)

__device__ __forceinline__ uint32_t csub(uint32_t x, uint32_t m) { return ntt_csub32(x, m); }
// The NTT kernels' own form of ntt_csub64 (m < 2^63): x - m lies in [-m,
// m), so its sign says x < m.  A signed test of the high word and two
// selects, where the layer's mask takes a shift, an and and a 64-bit add
// and the unsigned min a 64-bit compare (two instructions) and two
// selects.  The RNS kernels keep the layer's mask form, so that their code
// did not change when the copies became one layer (which form is faster
// there is not measured).
__device__ __forceinline__ uint64_t csub(uint64_t x, uint64_t m)
{
    const uint64_t t = x - m;
    return (int64_t)t < 0 ? x : t;
}
__device__ __forceinline__ uint32_t smont_t(uint32_t a, uint32_t b, uint32_t p, uint32_t pinv)
{
    return ntt_smont_t32(a, b, p, pinv);
}
__device__ __forceinline__ uint64_t smont_t(uint64_t a, uint64_t b, uint64_t p, uint64_t pinv)
{
    return ntt_smont_t64(a, b, p, pinv);
}
__device__ __forceinline__ uint32_t smont_w_t(uint32_t y, uint32_t w, uint32_t wq, uint32_t p)
{
    return ntt_smont_w_t32(y, w, wq, p);
}
__device__ __forceinline__ uint64_t smont_w_t(uint64_t y, uint64_t w, uint64_t wq, uint64_t p)
{
    return ntt_smont_w_t64(y, w, wq, p);
}
__device__ __forceinline__ uint32_t mulmod_slow(uint32_t a, uint32_t b, uint32_t p)
{
    return ntt_mulmod_slow32(a, b, p);
}
__device__ __forceinline__ uint64_t mulmod_slow(uint64_t a, uint64_t b, uint64_t p)
{
    return ntt_mulmod_slow(a, b, p);
}

// ---- FP64 arithmetic (K_FP64) --------------------------------------------------
// The GPU's own formulas, not the layer's: the CPU's FP64 path is vector
// code (src/cpu/x86/kernels_f64.inc): the same method on vector lanes.
// A u64 modular product is a chain of 32-bit partial products on the
// integer multiply-add pipe (the high word of y w', the low words of y w
// and q p), which kept that pipe the busiest in the u64 passes; a Hopper
// SM has as many FP64 lanes as INT32 ones, idle until then.  For p < 2^50
// the product is six FP64 operations (the FFT-over-doubles method of
// FLINT's fft_small): with w' = w/p rounded, q = round(y w') is the
// quotient within 0.75, and y w - q p = (h - q p) + l, where h + l = y w
// exactly (l = fma(y, w, -h)), is an exact integer of magnitude below
// 0.75p.  Values are integers held in doubles (bit patterns in the u64
// arrays and tiles between rounds and passes), converted from and to
// [0, p) where a transform reads its input and writes its output.  The _rn
// intrinsics keep the compiler from fusing or reordering any of it.
constexpr double kTwo52 = 4503599627370496.0;           // 2^52
constexpr uint64_t kTwo52Bits = 0x4330000000000000ull;  // its bits
// 1.5 2^52: for |x| < 2^51, x + kRound - kRound is x rounded to an integer.
constexpr double kRound = 6755399441055744.0;

__device__ __forceinline__ double as_dbl(uint64_t x) { return __longlong_as_double((long long)x); }
__device__ __forceinline__ uint64_t as_bits(double x) { return (uint64_t)__double_as_longlong(x); }

// a b rounded to an integer, |a b| < 2^51: the quotient estimate.
__device__ __forceinline__ double fround(double a, double b)
{
    return __dadd_rn(__fma_rn(a, b, kRound), -kRound);
}
// y w - q p for q = round(y_q wq) (y_q = y, wq = w/p; or y_q = y w rounded,
// wq = 1/p): exact when |y w| / p < 2^51 and the quotient is right within 1.
__device__ __forceinline__ double fmul_q(double y, double w, double y_q, double wq, double p)
{
    const double h = __dmul_rn(y, w);
    const double l = __fma_rn(y, w, -h);
    return __dadd_rn(__fma_rn(-fround(y_q, wq), p, h), l);
}
// y w mod p for |y| < 2^51, w < p < 2^50, W = (w, w/p): magnitude at most
// 0.75p (|y w'| < 2^51 for the rounding, |y w' - y w/p| <= 2^51 2^-53).
__device__ __forceinline__ double fmulw(double y, double w, double wq, double p)
{
    return fmul_q(y, w, y, wq, p);
}
// a b mod p for |a b| / p < 2^50: magnitude below 0.875p (the quotient
// from h/p, relative error 3 2^-53).
__device__ __forceinline__ double fmul2(double a, double b, double p, double pi)
{
    return fmul_q(a, b, __dmul_rn(a, b), pi, p);
}
// An integer double -> the same mod p, magnitude at most p/2 + 1.
__device__ __forceinline__ double freduce(double x, double p, double pi)
{
    return __fma_rn(-fround(x, pi), p, x);
}
// [0, 2^52) -> the same integer as a double.
__device__ __forceinline__ double from_u64(uint64_t v)
{
    return __dadd_rn(as_dbl(v | kTwo52Bits), -kTwo52);
}
// An integer double in (-p, p) -> [0, p).
__device__ __forceinline__ uint64_t to_u64(double x, double p)
{
    x = x < 0 ? __dadd_rn(x, p) : x;
    return as_bits(__dadd_rn(x, kTwo52)) & ((1ull << 52) - 1);
}

// ---- multiplication by a fixed twiddle ---------------------------------------
// y in [0, 4p) (any y < 2^k for Shoup and Montgomery); result y w mod p in
// [0, 2p).
template <int K, class T>
__device__ __forceinline__ T mulw(T y, Tw<T> W, const Ar<T> &M)
{
    if constexpr (K == K_FP64) {  // doubles' bits; |y| < 2^51, result below 0.75p
        return as_bits(fmulw(as_dbl(y), as_dbl(W.w), as_dbl(W.x), M.dp));
    } else if constexpr (K == K_SHOUP) {
        if constexpr (sizeof(T) == 8) return ntt_shoup64_np(y, W.w, W.x, M.np);
        else return ntt_shoup32(y, W.w, W.x, M.p);
    } else if constexpr (K == K_MONT) {
        // The layer's t in (-p, p); p added here, from M (see modarith.h).
        return smont_w_t(y, W.w, W.x, M.p) + M.p;
    } else if constexpr (K == K_BARRETT) {
        if constexpr (sizeof(T) == 4) {
            return ntt_barrett32((uint64_t)y * W.w, M.mu, M.p);
        } else {
            T r = csub(csub(y, M.p2), M.p);  // x < p^2 below
            return csub(ntt_barrett64((u128)r * W.w, M.mu, M.k, M.p), M.p2);
        }
    } else {
        return mulmod_slow(y, W.w, M.p);
    }
}

// ---- product of two variables -------------------------------------------------
// a, b in [0, 4p); returns a b F mod p in [0, 2p), F = 1 (naive, Barrett) or
// R^-1 (Montgomery, Shoup).
template <int K, class T>
__device__ __forceinline__ T mul2(T a, T b, const Ar<T> &M)
{
    if constexpr (K == K_FP64) {  // doubles' bits, |a b| / p < 2^50; F = 1, result below 0.875p
        return as_bits(fmul2(as_dbl(a), as_dbl(b), M.dp, M.dpi));
    } else if constexpr (K == K_MONT || K == K_SHOUP) {
        T ra = csub(csub(a, M.p2), M.p);  // a b < p 4p, so hi(a b) < p
        return smont_t(ra, b, M.p, M.pinv) + M.p;
    } else if constexpr (K == K_BARRETT) {
        if constexpr (sizeof(T) == 4) {
            return ntt_barrett32((uint64_t)a * b, M.mu, M.p);  // a b < 16 p^2 < 2^64
        } else {
            Tw<T> W = {csub(csub(b, M.p2), M.p), 0};
            return mulw<K_BARRETT, T>(a, W, M);
        }
    } else {
        return mulmod_slow(a, b, M.p);
    }
}

// Montgomery product of two Montgomery-form values, fully reduced: the
// building block of on-the-fly twiddles.
template <class T> __device__ __forceinline__ T mont_canon(T a, T b, const Ar<T> &M)
{
    T t = smont_t(a, b, M.p, M.pinv);  // (-p, p)
    return t >= M.p ? t + M.p : t;      // wrapped negative -> add p
}

}  // namespace nttc
