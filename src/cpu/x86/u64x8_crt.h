/*
 * The products by constants of the CRT kernels on eight 64-bit lanes:
 * Shoup's on 64-bit lanes (AVX-512 F and DQ) and, where the includer is
 * built with IFMA, on 52-bit multiply-adds.  Included by the word-size
 * CRT's kernels (crt_avx512.c, crt_ifma.c) and the big modulus's
 * (src/bigmod/bigmod_ifma.c), after u64x8.h.
 */
#ifndef NTT_X86_U64X8_CRT_H
#define NTT_X86_U64X8_CRT_H

#include "u64x8.h"

/* y w mod q in [0, q) for any y, q < 2^62, wq = floor(w 2^64 / q): Shoup
   with hi64(y wq) - e, e <= 2 (mulhi_low), leaves y w - e' q in [0, 4q). */
NTT_INLINE V shoup_q(V y, V w, V wq, V q, V q2)
{
    const V e = mulhi_low(y, wq);
    const V r = vsub(_mm512_mullo_epi64(y, w), _mm512_mullo_epi64(e, q));
    return vcsub(vcsub(r, q2), q);
}

/* y w mod p in [0, p) for any y, p < 2^63: the exact high product leaves
   the remainder in [0, 2p). */
NTT_INLINE V shoup_p(V y, V w, V wq, V p)
{
    const V r = vsub(_mm512_mullo_epi64(y, w), _mm512_mullo_epi64(mulhi(y, wq), p));
    return vcsub(r, p);
}

#ifdef __AVX512IFMA__
/* y w mod q in (0, 2q) for y < 2^52 and odd q < 2^52, w in the form
   W = w 2^52 mod q, W' = W q^-1 mod 2^52: with s = lo52(y W'), s q and
   y W agree in their low 52 bits, so q + hi52(y W) - hi52(s q) =
   q + (y W - s q) / 2^52, congruent to y W 2^-52 = y w, and both products
   are below q 2^52. */
NTT_INLINE V mul52(V y, V W, V Wq, V q)
{
    const V z = vz();
    const V s = _mm512_madd52lo_epu64(z, y, Wq);
    return vsub(_mm512_madd52hi_epu64(q, y, W), _mm512_madd52hi_epu64(z, s, q));
}
#endif

#endif /* NTT_X86_U64X8_CRT_H */
