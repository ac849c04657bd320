/*
 * Multi-word arithmetic modulo a big odd p (src/field): the one place the
 * field module's words are added, subtracted, compared and multiplied.
 * Not installed.
 *
 * An element of a w-word field is w little-endian uint64_t.  Every function
 * takes w as an argument and is always inlined: called with a constant w
 * (the kernels' instances for 4, 6 and 8 words, field_kernels.c) the
 * loops unroll into straight-line code, with a run-time w (the generic
 * instance, any 2 <= w <= 16) they stay loops.  So the simplest correct
 * form (CIOS, below) and the fast forms are the same source.
 *
 * Ranges: inputs of the modular functions below p, outputs below p;
 * outputs may alias inputs exactly.
 */
#ifndef NTT_FIELD_ARITH_H
#define NTT_FIELD_ARITH_H

#include "ntt_field.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#if defined(__GNUC__) || defined(__clang__)
#define FA_INLINE static inline __attribute__((always_inline))
#else
#define FA_INLINE static inline
#endif
#if defined(__GNUC__) || defined(__clang__)
#define FA_NOINLINE __attribute__((noinline))
#else
#define FA_NOINLINE
#endif
#if defined(__clang__)
#define FA_UNROLL
#elif defined(__GNUC__)
#define FA_UNROLL _Pragma("GCC unroll 16")
#else
#define FA_UNROLL
#endif

typedef unsigned __int128 fa_u128;

/* The temporaries below are arrays of NTT_FIELD_MAX_WORDS of which the
   first w are written and read; with a run-time w, GCC's vectorizer
   assumes the others may be read and warns. */
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif

/* The modulus and its Montgomery constants, R = 2^(64 w). */
typedef struct field_mod {
    size_t w;                         /* words per element, 2..16 */
    uint64_t pinv;                    /* -p^-1 mod 2^64 */
    uint64_t p[NTT_FIELD_MAX_WORDS];  /* p, odd, p >= 2^(64 (w - 1)) */
    uint64_t one[NTT_FIELD_MAX_WORDS]; /* R mod p: the Montgomery form of 1 */
    uint64_t r2[NTT_FIELD_MAX_WORDS]; /* R^2 mod p */
} field_mod;

/* -1, 0 or 1 as a <, =, > b (w words). */
FA_INLINE int fa_cmp(const uint64_t *a, const uint64_t *b, size_t w)
{
    for (size_t i = w; i-- > 0;)
        if (a[i] != b[i]) return a[i] < b[i] ? -1 : 1;
    return 0;
}

FA_INLINE bool fa_is_zero(const uint64_t *a, size_t w)
{
    uint64_t o = 0;
    for (size_t i = 0; i < w; i++) o |= a[i];
    return o == 0;
}

FA_INLINE void fa_copy(uint64_t *r, const uint64_t *a, size_t w)
{
    FA_UNROLL
    for (size_t i = 0; i < w; i++) r[i] = a[i];
}

/* r = a + b mod p. */
FA_INLINE void fa_add(uint64_t *r, const uint64_t *a, const uint64_t *b, const uint64_t *p,
                      size_t w)
{
    uint64_t s[NTT_FIELD_MAX_WORDS], t[NTT_FIELD_MAX_WORDS];
    uint64_t c = 0, bw = 0;
    FA_UNROLL
    for (size_t i = 0; i < w; i++) {
        fa_u128 x = (fa_u128)a[i] + b[i] + c;
        s[i] = (uint64_t)x;
        c = (uint64_t)(x >> 64);
    }
    FA_UNROLL
    for (size_t i = 0; i < w; i++) {
        fa_u128 x = (fa_u128)s[i] - p[i] - bw;
        t[i] = (uint64_t)x;
        bw = (uint64_t)(x >> 64) & 1;
    }
    /* s >= p exactly when the sum carried out or s - p did not borrow. */
    const uint64_t keep_t = (uint64_t)0 - (c | (bw ^ 1));
    FA_UNROLL
    for (size_t i = 0; i < w; i++) r[i] = (t[i] & keep_t) | (s[i] & ~keep_t);
}

/* r = a - b mod p. */
FA_INLINE void fa_sub(uint64_t *r, const uint64_t *a, const uint64_t *b, const uint64_t *p,
                      size_t w)
{
    uint64_t d[NTT_FIELD_MAX_WORDS];
    uint64_t bw = 0, c = 0;
    FA_UNROLL
    for (size_t i = 0; i < w; i++) {
        fa_u128 x = (fa_u128)a[i] - b[i] - bw;
        d[i] = (uint64_t)x;
        bw = (uint64_t)(x >> 64) & 1;
    }
    const uint64_t mask = (uint64_t)0 - bw;
    FA_UNROLL
    for (size_t i = 0; i < w; i++) {
        fa_u128 x = (fa_u128)d[i] + (p[i] & mask) + c;
        r[i] = (uint64_t)x;
        c = (uint64_t)(x >> 64);
    }
}

/* r = a / 2 mod p (p odd). */
FA_INLINE void fa_half(uint64_t *r, const uint64_t *a, const uint64_t *p, size_t w)
{
    uint64_t s[NTT_FIELD_MAX_WORDS];
    const uint64_t mask = (uint64_t)0 - (a[0] & 1);
    uint64_t c = 0;
    for (size_t i = 0; i < w; i++) {
        fa_u128 x = (fa_u128)a[i] + (p[i] & mask) + c;
        s[i] = (uint64_t)x;
        c = (uint64_t)(x >> 64);
    }
    for (size_t i = 0; i + 1 < w; i++) r[i] = (s[i] >> 1) | (s[i + 1] << 63);
    r[w - 1] = (s[w - 1] >> 1) | (c << 63);
}

/*
 * r = a b R^-1 mod p, Montgomery's product by coarsely integrated operand
 * scanning (CIOS, Koc, Acar and Kaliski 1996): for each word of b, add
 * a b_i to the accumulator t, then add m p with m = t_0 (-p^-1) mod 2^64,
 * which clears t's low word, and shift t down one word.  t stays below 2p
 * (w + 1 words, the top one 0 or 1) for a, b < p, and one conditional
 * subtraction brings it below p.  Any odd p below 2^(64 w).
 */
FA_INLINE void fa_mont_mul(uint64_t *r, const uint64_t *a, const uint64_t *b, const uint64_t *p,
                           uint64_t pinv, size_t w)
{
    uint64_t t[NTT_FIELD_MAX_WORDS + 2];
    FA_UNROLL
    for (size_t j = 0; j < w + 2; j++) t[j] = 0;
    FA_UNROLL
    for (size_t i = 0; i < w; i++) {
        uint64_t c = 0;
        const uint64_t bi = b[i];
        FA_UNROLL
        for (size_t j = 0; j < w; j++) {
            fa_u128 x = (fa_u128)a[j] * bi + t[j] + c;
            t[j] = (uint64_t)x;
            c = (uint64_t)(x >> 64);
        }
        fa_u128 x = (fa_u128)t[w] + c;
        t[w] = (uint64_t)x;
        t[w + 1] = (uint64_t)(x >> 64);
        const uint64_t m = t[0] * pinv;
        x = (fa_u128)m * p[0] + t[0];
        c = (uint64_t)(x >> 64);
        FA_UNROLL
        for (size_t j = 1; j < w; j++) {
            x = (fa_u128)m * p[j] + t[j] + c;
            t[j - 1] = (uint64_t)x;
            c = (uint64_t)(x >> 64);
        }
        x = (fa_u128)t[w] + c;
        t[w - 1] = (uint64_t)x;
        t[w] = t[w + 1] + (uint64_t)(x >> 64);
    }
    uint64_t s[NTT_FIELD_MAX_WORDS];
    uint64_t bw = 0;
    FA_UNROLL
    for (size_t i = 0; i < w; i++) {
        fa_u128 x = (fa_u128)t[i] - p[i] - bw;
        s[i] = (uint64_t)x;
        bw = (uint64_t)(x >> 64) & 1;
    }
    /* t >= p exactly when its top word is set or t - p did not borrow. */
    const uint64_t keep_s = (uint64_t)0 - (t[w] | (bw ^ 1));
    FA_UNROLL
    for (size_t i = 0; i < w; i++) r[i] = (s[i] & keep_s) | (t[i] & ~keep_s);
}

/* The same product for p < 2^(64 w - 1) - 2^(64 (w-1)) (p's top word below
   2^63 - 1, a spare bit, as the pairing curves' fields have): t then stays
   below 2p < R with no word above the w, so the two inner loops fuse and
   carry nothing past t's top word (the "no-carry" form of gnark-crypto,
   after Koc et al.); the final subtraction is the same. */
FA_INLINE void fa_mont_mul_nc(uint64_t *r, const uint64_t *a, const uint64_t *b, const uint64_t *p,
                           uint64_t pinv, size_t w)
{
    uint64_t t[NTT_FIELD_MAX_WORDS];
    FA_UNROLL
    for (size_t j = 0; j < w; j++) t[j] = 0;
    FA_UNROLL
    for (size_t i = 0; i < w; i++) {
        const uint64_t bi = b[i];
        fa_u128 x = (fa_u128)a[0] * bi + t[0];
        uint64_t A = (uint64_t)(x >> 64);
        const uint64_t m = (uint64_t)x * pinv;
        fa_u128 y = (fa_u128)m * p[0] + (uint64_t)x;
        uint64_t C = (uint64_t)(y >> 64);
        FA_UNROLL
        for (size_t j = 1; j < w; j++) {
            x = (fa_u128)a[j] * bi + t[j] + A;
            A = (uint64_t)(x >> 64);
            y = (fa_u128)m * p[j] + (uint64_t)x + C;
            t[j - 1] = (uint64_t)y;
            C = (uint64_t)(y >> 64);
        }
        t[w - 1] = C + A;
    }
    uint64_t s[NTT_FIELD_MAX_WORDS];
    uint64_t bw = 0;
    FA_UNROLL
    for (size_t i = 0; i < w; i++) {
        fa_u128 x = (fa_u128)t[i] - p[i] - bw;
        s[i] = (uint64_t)x;
        bw = (uint64_t)(x >> 64) & 1;
    }
    const uint64_t keep_t = (uint64_t)0 - bw;
    FA_UNROLL
    for (size_t i = 0; i < w; i++) r[i] = (t[i] & keep_t) | (s[i] & ~keep_t);
}

/* Whether p (w words) admits fa_mont_mul_nc. */
static inline bool fa_nc_ok(const uint64_t *p, size_t w) { return p[w - 1] < 0x7ffffffffffffffeull; }

/* -p^-1 mod 2^64 for odd p0 (Newton: each step doubles the good bits). */
static inline uint64_t fa_neg_inv64(uint64_t p0)
{
    uint64_t x = p0; /* p0 p0 = 1 mod 8: three good bits */
    for (int i = 0; i < 5; i++) x *= 2 - p0 * x;
    return (uint64_t)0 - x;
}

#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic pop
#endif

#endif /* NTT_FIELD_ARITH_H */
