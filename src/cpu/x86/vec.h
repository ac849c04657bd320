/*
 * The x86 kernels' vector types, named by element and lane count, and the
 * operations on them that the per-width templates (lanes_u32.tmpl.h,
 * lanes_f64.tmpl.h) use: each a thin wrapper of one intrinsic, or a fixed
 * sequence such as a transpose.  Included by the ISA translation units
 * (avx2.c, avx512.c) through backend.tmpl.h, so every operation compiles to
 * what that unit's flags allow: the 512-bit types exist only in the
 * AVX-512 unit, and there u32x8_hi_halves takes AVX-512 VL's masked
 * shuffle.  It needs nothing of the CPU backends' plan data (cpu.h), so
 * that other modules' vector kernels (src/rns/kernels_ifma.c) take their
 * helpers from here instead of copying them.
 */
#ifndef NTT_X86_VEC_H
#define NTT_X86_VEC_H

#include "../../arith/modarith.h"

#include <immintrin.h>
#include <stddef.h>
#include <stdint.h>

/* X86_CAT(a, b) is a_b with a and b expanded first: the templates name
   what they define after the vector type they are instantiated for
   (VEC_(csub) is u32x8_csub on 8 lanes). */
#define X86_CAT_(a, b) a##_##b
#define X86_CAT(a, b) X86_CAT_(a, b)

/* Builds instrumented by a sanitizer or for coverage (fuzzing): not for
   speed.  NTT_SANITIZE is the CMake option's; clang says which of its
   instrumentations are on, GCC 12 only ASan's and TSan's. */
#if defined(NTT_SANITIZE) || defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define X86_INSTRUMENTED 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(undefined_behavior_sanitizer) ||     \
    __has_feature(coverage_sanitizer) || __has_feature(thread_sanitizer) ||                \
    __has_feature(memory_sanitizer)
#define X86_INSTRUMENTED 1
#endif
#endif

/* Complete unrolling of the loops over a block's vectors.  Rolled, GCC 12
   kept the 16-lane leaves' vectors in an array on the stack (their level
   loops pass its limits for complete peeling): two loads and two stores
   per butterfly.  Unrolled, the vectors stay in registers.  Clang takes
   its own pragma: it reads GCC's as an unroll count, which it cannot
   honour at every level of optimization (-Wpass-failed).  Without
   optimization GCC cannot honour its pragma either and warns ("ignoring
   loop annotation"), nor can it with UBSan's checks in the loops.  In
   instrumented builds the fully unrolled always-inline chains made single
   functions so large that clang did not finish compiling them at -O1, so
   those builds go without. */
#if !defined(__OPTIMIZE__) || defined(X86_INSTRUMENTED)
#define UNROLL
#elif defined(__clang__)
#define UNROLL _Pragma("clang loop unroll(full)")
#else
#define UNROLL _Pragma("GCC unroll 16")
#endif

/* ---- 8 x uint32_t (or 4 x uint64_t) ------------------------------------------ */

typedef __m256i u32x8;
typedef __m256i u64x4;

/* Callers' arrays need not be 32-byte aligned (batch items start at any
   stride). */
NTT_INLINE u32x8 u32x8_load(const void *p) { return _mm256_loadu_si256((const __m256i *)p); }
NTT_INLINE void u32x8_store(void *p, u32x8 v) { _mm256_storeu_si256((__m256i *)p, v); }
NTT_INLINE u32x8 u32x8_set1(uint32_t x) { return _mm256_set1_epi32((int)x); }
NTT_INLINE u32x8 u32x8_add(u32x8 a, u32x8 b) { return _mm256_add_epi32(a, b); }
NTT_INLINE u32x8 u32x8_sub(u32x8 a, u32x8 b) { return _mm256_sub_epi32(a, b); }
NTT_INLINE u32x8 u32x8_min(u32x8 a, u32x8 b) { return _mm256_min_epu32(a, b); }
NTT_INLINE u32x8 u32x8_mullo(u32x8 a, u32x8 b) { return _mm256_mullo_epi32(a, b); }
/* The 64-bit products of the even lanes (vpmuludq). */
NTT_INLINE u32x8 u32x8_mul_even(u32x8 a, u32x8 b) { return _mm256_mul_epu32(a, b); }
NTT_INLINE u32x8 u32x8_add64(u32x8 a, u32x8 b) { return _mm256_add_epi64(a, b); }
/* The odd lanes moved to the even ones, where mul_even reads. */
NTT_INLINE u32x8 u32x8_odd(u32x8 a) { return _mm256_srli_epi64(a, 32); }

NTT_INLINE u64x4 u64x4_load(const void *p) { return _mm256_loadu_si256((const __m256i *)p); }
NTT_INLINE void u64x4_store(void *p, u64x4 v) { _mm256_storeu_si256((__m256i *)p, v); }

/* x >= p, unsigned, per lane: the signed compare with both sides biased by
   2^63, against lim = u64x4_geq_lim(p). */
NTT_INLINE u64x4 u64x4_geq_lim(uint64_t p)
{
    return _mm256_set1_epi64x((long long)((p - 1) ^ 0x8000000000000000ull));
}
NTT_INLINE u64x4 u64x4_geq(u64x4 x, u64x4 lim)
{
    return _mm256_cmpgt_epi64(_mm256_xor_si256(x, _mm256_set1_epi64x(INT64_MIN)), lim);
}

/* The high halves of the 64-bit products in the even lanes (e) and the odd
   lanes (o), as one vector of 32-bit lanes. */
NTT_INLINE u32x8 u32x8_hi_halves(u32x8 e, u32x8 o)
{
#ifdef __AVX512VL__
    /* One masked shuffle: e's odd words into the even lanes of o. */
    return _mm256_mask_shuffle_epi32(o, 0x55, e, (_MM_PERM_ENUM)_MM_SHUFFLE(2, 3, 0, 1));
#else
    return _mm256_blend_epi32(_mm256_srli_epi64(e, 32), o, 0xAA);
#endif
}

/* ---- 4 x double ------------------------------------------------------------- */

typedef __m256d f64x4;

NTT_INLINE f64x4 f64x4_load(const void *p) { return _mm256_loadu_pd((const double *)p); }
NTT_INLINE void f64x4_store(void *p, f64x4 v) { _mm256_storeu_pd((double *)p, v); }
NTT_INLINE f64x4 f64x4_set1(double x) { return _mm256_set1_pd(x); }
NTT_INLINE f64x4 f64x4_add(f64x4 a, f64x4 b) { return _mm256_add_pd(a, b); }
NTT_INLINE f64x4 f64x4_sub(f64x4 a, f64x4 b) { return _mm256_sub_pd(a, b); }
NTT_INLINE f64x4 f64x4_mul(f64x4 a, f64x4 b) { return _mm256_mul_pd(a, b); }
/* a b - c and c - a b, each rounded once. */
NTT_INLINE f64x4 f64x4_fmsub(f64x4 a, f64x4 b, f64x4 c) { return _mm256_fmsub_pd(a, b, c); }
NTT_INLINE f64x4 f64x4_fnmadd(f64x4 a, f64x4 b, f64x4 c) { return _mm256_fnmadd_pd(a, b, c); }
NTT_INLINE f64x4 f64x4_round(f64x4 x)
{
    return _mm256_round_pd(x, _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
}

NTT_INLINE void f64x4_transpose(f64x4 v[4])
{
    const f64x4 a0 = _mm256_unpacklo_pd(v[0], v[1]), a1 = _mm256_unpackhi_pd(v[0], v[1]);
    const f64x4 a2 = _mm256_unpacklo_pd(v[2], v[3]), a3 = _mm256_unpackhi_pd(v[2], v[3]);
    v[0] = _mm256_permute2f128_pd(a0, a2, 0x20);
    v[1] = _mm256_permute2f128_pd(a1, a3, 0x20);
    v[2] = _mm256_permute2f128_pd(a0, a2, 0x31);
    v[3] = _mm256_permute2f128_pd(a1, a3, 0x31);
}

NTT_INLINE void u32x8_transpose(u32x8 v[8])
{
    u32x8 t[8], u[8];
    UNROLL for (int k = 0; k < 8; k += 2) {
        t[k] = _mm256_unpacklo_epi32(v[k], v[k + 1]);
        t[k + 1] = _mm256_unpackhi_epi32(v[k], v[k + 1]);
    }
    /* u[4m + c], 128-bit lane l: rows 4m .. 4m+3 of column 4l + c. */
    UNROLL for (int k = 0; k < 8; k += 4) {
        u[k] = _mm256_unpacklo_epi64(t[k], t[k + 2]);
        u[k + 1] = _mm256_unpackhi_epi64(t[k], t[k + 2]);
        u[k + 2] = _mm256_unpacklo_epi64(t[k + 1], t[k + 3]);
        u[k + 3] = _mm256_unpackhi_epi64(t[k + 1], t[k + 3]);
    }
    UNROLL for (int k = 0; k < 4; k++) {
        v[k] = _mm256_permute2x128_si256(u[k], u[k + 4], 0x20);
        v[k + 4] = _mm256_permute2x128_si256(u[k], u[k + 4], 0x31);
    }
}

#ifdef __AVX512F__

/* ---- 16 x uint32_t ---------------------------------------------------------- */

typedef __m512i u32x16;

NTT_INLINE u32x16 u32x16_load(const void *p) { return _mm512_loadu_si512(p); }
NTT_INLINE void u32x16_store(void *p, u32x16 v) { _mm512_storeu_si512(p, v); }
NTT_INLINE u32x16 u32x16_set1(uint32_t x) { return _mm512_set1_epi32((int)x); }
NTT_INLINE u32x16 u32x16_add(u32x16 a, u32x16 b) { return _mm512_add_epi32(a, b); }
NTT_INLINE u32x16 u32x16_sub(u32x16 a, u32x16 b) { return _mm512_sub_epi32(a, b); }
NTT_INLINE u32x16 u32x16_min(u32x16 a, u32x16 b) { return _mm512_min_epu32(a, b); }
NTT_INLINE u32x16 u32x16_mullo(u32x16 a, u32x16 b) { return _mm512_mullo_epi32(a, b); }
NTT_INLINE u32x16 u32x16_mul_even(u32x16 a, u32x16 b) { return _mm512_mul_epu32(a, b); }
NTT_INLINE u32x16 u32x16_add64(u32x16 a, u32x16 b) { return _mm512_add_epi64(a, b); }
NTT_INLINE u32x16 u32x16_odd(u32x16 a) { return _mm512_srli_epi64(a, 32); }
NTT_INLINE u32x16 u32x16_hi_halves(u32x16 e, u32x16 o)
{
    return _mm512_mask_shuffle_epi32(o, 0x5555, e, (_MM_PERM_ENUM)_MM_SHUFFLE(2, 3, 0, 1));
}

/* The 4x4 transpose of the 128-bit lanes of a, b, c, d: o[l] gathers lane l
   of each (the last stage of the 16x16 and 8x8 leaf transposes). */
NTT_INLINE void lanes4x4(__m512i a, __m512i b, __m512i c, __m512i d, __m512i o[4])
{
    const __m512i s0 = _mm512_shuffle_i32x4(a, b, 0x44), s1 = _mm512_shuffle_i32x4(a, b, 0xEE);
    const __m512i s2 = _mm512_shuffle_i32x4(c, d, 0x44), s3 = _mm512_shuffle_i32x4(c, d, 0xEE);
    o[0] = _mm512_shuffle_i32x4(s0, s2, 0x88);
    o[1] = _mm512_shuffle_i32x4(s0, s2, 0xDD);
    o[2] = _mm512_shuffle_i32x4(s1, s3, 0x88);
    o[3] = _mm512_shuffle_i32x4(s1, s3, 0xDD);
}

NTT_INLINE void u32x16_transpose(u32x16 v[16])
{
    u32x16 t[16], u[16];
    UNROLL for (int k = 0; k < 16; k += 2) {
        t[k] = _mm512_unpacklo_epi32(v[k], v[k + 1]);
        t[k + 1] = _mm512_unpackhi_epi32(v[k], v[k + 1]);
    }
    /* u[4m + c], 128-bit lane l: rows 4m .. 4m+3 of column 4l + c. */
    UNROLL for (int k = 0; k < 16; k += 4) {
        u[k] = _mm512_unpacklo_epi64(t[k], t[k + 2]);
        u[k + 1] = _mm512_unpackhi_epi64(t[k], t[k + 2]);
        u[k + 2] = _mm512_unpacklo_epi64(t[k + 1], t[k + 3]);
        u[k + 3] = _mm512_unpackhi_epi64(t[k + 1], t[k + 3]);
    }
    /* Column 4l + c gathers lane l of u[c], u[4 + c], u[8 + c], u[12 + c]. */
    UNROLL for (int c = 0; c < 4; c++) {
        u32x16 o[4];
        lanes4x4(u[c], u[4 + c], u[8 + c], u[12 + c], o);
        UNROLL for (int l = 0; l < 4; l++) v[4 * l + c] = o[l];
    }
}

/* ---- 8 x double ------------------------------------------------------------- */

typedef __m512d f64x8;

NTT_INLINE f64x8 f64x8_load(const void *p) { return _mm512_loadu_pd((const double *)p); }
NTT_INLINE void f64x8_store(void *p, f64x8 v) { _mm512_storeu_pd((double *)p, v); }
NTT_INLINE f64x8 f64x8_set1(double x) { return _mm512_set1_pd(x); }
NTT_INLINE f64x8 f64x8_add(f64x8 a, f64x8 b) { return _mm512_add_pd(a, b); }
NTT_INLINE f64x8 f64x8_sub(f64x8 a, f64x8 b) { return _mm512_sub_pd(a, b); }
NTT_INLINE f64x8 f64x8_mul(f64x8 a, f64x8 b) { return _mm512_mul_pd(a, b); }
NTT_INLINE f64x8 f64x8_fmsub(f64x8 a, f64x8 b, f64x8 c) { return _mm512_fmsub_pd(a, b, c); }
NTT_INLINE f64x8 f64x8_fnmadd(f64x8 a, f64x8 b, f64x8 c) { return _mm512_fnmadd_pd(a, b, c); }
NTT_INLINE f64x8 f64x8_round(f64x8 x)
{
    return _mm512_roundscale_pd(x, _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
}

NTT_INLINE void f64x8_transpose(f64x8 v[8])
{
    /* t[2k + c], 128-bit lane l: rows 2k, 2k+1 of column 2l + c; column
       2l + c gathers lane l of t[c], t[2 + c], t[4 + c], t[6 + c]. */
    f64x8 t[8];
    UNROLL for (int k = 0; k < 8; k += 2) {
        t[k] = _mm512_unpacklo_pd(v[k], v[k + 1]);
        t[k + 1] = _mm512_unpackhi_pd(v[k], v[k + 1]);
    }
    UNROLL for (int c = 0; c < 2; c++) {
        __m512i o[4];
        lanes4x4(_mm512_castpd_si512(t[c]), _mm512_castpd_si512(t[2 + c]),
                 _mm512_castpd_si512(t[4 + c]), _mm512_castpd_si512(t[6 + c]), o);
        UNROLL for (int l = 0; l < 4; l++) v[2 * l + c] = _mm512_castsi512_pd(o[l]);
    }
}

#endif /* __AVX512F__ */

#endif /* NTT_X86_VEC_H */
