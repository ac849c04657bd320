/*
 * Eight 64-bit lanes (AVX-512 F): the vector helpers of the u64 kernel
 * families on them (kernels_u64x8.tmpl.h), included by their translation
 * units (ifma.c, kernels_u64_lanes.c) before their lanes' arithmetic
 * (u64x8_ifma.h, u64x8_lanes64.h), and by
 * the RNS stages' IFMA kernels (src/rns/kernels_ifma.c) and the CRT's
 * (crt_avx512.c).  The high products from 32 x 32 ones are here, as
 * the 64-bit-lane kernels and the CRT both take them.
 */
#ifndef NTT_X86_U64X8_H
#define NTT_X86_U64X8_H

#include "vec.h"

typedef __m512i V;

/* The lazy ranges of the eight-lane u64 kernels (kernels_u64x8.tmpl.h):
   forward values below 4p, below 2p, or below p. */
enum { R_NARROW, R_WIDE, R_FULL };

NTT_INLINE V vz(void) { return _mm512_setzero_si512(); }
NTT_INLINE V v1(uint64_t x) { return _mm512_set1_epi64((long long)x); }
NTT_INLINE V vld(const uint64_t *a) { return _mm512_loadu_si512((const void *)a); }
NTT_INLINE void vst(uint64_t *a, V x) { _mm512_storeu_si512((void *)a, x); }
NTT_INLINE V vadd(V a, V b) { return _mm512_add_epi64(a, b); }
NTT_INLINE V vsub(V a, V b) { return _mm512_sub_epi64(a, b); }
/* x in [0, 2m) -> [0, m): below m, x - m wraps above x. */
NTT_INLINE V vcsub(V x, V m) { return _mm512_min_epu64(x, vsub(x, m)); }

/* d in (-m, m), as two's complement -> d mod m in [0, m): below zero, d
   wraps above d + m. */
NTT_INLINE V vcadd(V d, V m) { return _mm512_min_epu64(d, vadd(d, m)); }

/* Lanes [j, len) of a vector at j: the tails of ranges that are not a
   multiple of eight. */
NTT_INLINE __mmask8 tail(size_t j, size_t len)
{
    return len - j >= 8 ? (__mmask8)0xFF : (__mmask8)((1u << (len - j)) - 1);
}

/* The lanes of k at a: a plain load or store where k holds all eight (a
   masked one costs more on AMD Zen, where only a tail needs it), none at
   all where k is empty (see put_out in kernels_u64x8.tmpl.h). */
NTT_INLINE V vldk(__mmask8 k, const uint64_t *a)
{
    return k == 0xFF ? vld(a) : _mm512_maskz_loadu_epi64(k, a);
}

NTT_INLINE void vstk(uint64_t *a, __mmask8 k, V x)
{
    if (k == 0xFF) vst(a, x);
    else if (k) _mm512_mask_storeu_epi64(a, k, x);
}

/* The high 64 bits of a b, lane by lane.  With a = ah 2^32 + al and b
   likewise, a b = hh 2^64 + (lh + hl) 2^32 + ll for the four 32 x 32
   products; t = ll / 2^32 + lh and u = (t mod 2^32) + hl are each at most
   (2^32 - 1) + (2^32 - 1)^2 < 2^64, and a b = (hh + t / 2^32 + u / 2^32)
   2^64 + (u mod 2^32) 2^32 + (ll mod 2^32), the last two terms below
   2^64 (floors throughout). */
NTT_INLINE V mulhi(V a, V b)
{
    const V ah = _mm512_srli_epi64(a, 32), bh = _mm512_srli_epi64(b, 32);
    const V ll = _mm512_mul_epu32(a, b), lh = _mm512_mul_epu32(a, bh);
    const V hl = _mm512_mul_epu32(ah, b), hh = _mm512_mul_epu32(ah, bh);
    const V t = vadd(_mm512_srli_epi64(ll, 32), lh);
    const V u = vadd(_mm512_and_si512(t, v1(0xFFFFFFFFu)), hl);
    return vadd(vadd(hh, _mm512_srli_epi64(t, 32)), _mm512_srli_epi64(u, 32));
}

/* hi64(a b) - e with e in {0, 1, 2}: hh + lh / 2^32 + hl / 2^32 (floors)
   leaves out ll / 2^64 < 1 and the fractions of the other two, each below
   one, so e, an integer, is below three. */
NTT_INLINE V mulhi_low(V a, V b)
{
    const V ah = _mm512_srli_epi64(a, 32), bh = _mm512_srli_epi64(b, 32);
    const V lh = _mm512_mul_epu32(a, bh), hl = _mm512_mul_epu32(ah, b);
    const V hh = _mm512_mul_epu32(ah, bh);
    return vadd(vadd(hh, _mm512_srli_epi64(lh, 32)), _mm512_srli_epi64(hl, 32));
}

/* hi64(a b) - e with e in {0, 1}: with hl = hl1 2^32 + hl0, a b =
   (hh + hl1) 2^64 + s 2^32 + ll for s = lh + hl0 < 2^64, and the carry
   that s mod 2^32 and ll would give is e. */
NTT_INLINE V mulhi_1(V a, V b)
{
    const V ah = _mm512_srli_epi64(a, 32), bh = _mm512_srli_epi64(b, 32);
    const V lh = _mm512_mul_epu32(a, bh), hl = _mm512_mul_epu32(ah, b);
    const V hh = _mm512_mul_epu32(ah, bh);
    const V s = vadd(lh, _mm512_and_si512(hl, v1(0xFFFFFFFFu)));
    return vadd(vadd(hh, _mm512_srli_epi64(hl, 32)), _mm512_srli_epi64(s, 32));
}

#endif /* NTT_X86_U64X8_H */
