/*
 * The AVX2 backend: the only file compiled with -mavx2 -mfma -mbmi2.  The
 * library picks it at run time (available() asks the CPU), so it runs
 * everywhere.
 *
 * u32: 8-lane Harvey butterflies with Shoup (default) or Montgomery
 * multiplication built from vpmuludq on the even and odd lanes; the wide
 * levels are radix-4 passes with broadcast twiddles, the last six levels
 * of every 64-element block one register-resident kernel that reaches the
 * in-vector levels (distance 4, 2, 1) through an 8x8 transpose.  Same tree
 * order as the scalar backend, so results are bit-identical and the
 * multiply path has no bit-reversal pass.
 *
 * Kinds and sizes this file does not vectorize run the scalar kernels: %
 * and Barrett (slow by design, kept for the reports' comparison), and
 * plans shorter than 256.
 */
#include "cpu.h"

#include <immintrin.h>
#include <string.h>

typedef __m256i V;

/* Lane constants of one modulus. */
typedef struct {
    V p, p2, pinv;
} vcst;

/* A twiddle vector: values, companions (Shoup quotient or Montgomery form)
   and the companions of the odd lanes moved to the even ones, which is
   what vpmuludq reads. */
typedef struct {
    V w, x, xo;
} vtw;

NTT_INLINE vcst vcst_of(const mod_u32 *M)
{
    vcst c = {_mm256_set1_epi32((int)M->c.p), _mm256_set1_epi32((int)M->c.p2),
              _mm256_set1_epi32((int)M->c.pinv)};
    return c;
}

NTT_INLINE vtw tw_bcast(const uint32_t *w, const uint32_t *x, size_t i)
{
    vtw t;
    t.w = _mm256_set1_epi32((int)w[i]);
    t.x = _mm256_set1_epi32((int)x[i]);
    t.xo = t.x;
    return t;
}

NTT_INLINE vtw tw_scalar(tw_u32 s)
{
    vtw t;
    t.w = _mm256_set1_epi32((int)s.w);
    t.x = _mm256_set1_epi32((int)s.x);
    t.xo = t.x;
    return t;
}

/* Eight consecutive tree-order twiddles, one per lane. */
NTT_INLINE vtw tw_load8(const uint32_t *w, const uint32_t *x, size_t i)
{
    vtw t;
    t.w = _mm256_loadu_si256((const V *)(w + i));
    t.x = _mm256_loadu_si256((const V *)(x + i));
    t.xo = _mm256_srli_epi64(t.x, 32);
    return t;
}

/* x in [0, 2m) -> [0, m): x - m wraps above x exactly when x < m. */
NTT_INLINE V csub(V x, V m) { return _mm256_min_epu32(x, _mm256_sub_epi32(x, m)); }

/* The high halves of the 64-bit products in the even lanes (e) and the odd
   lanes (o), as one vector of 32-bit lanes. */
NTT_INLINE V hi_halves(V e, V o) { return _mm256_blend_epi32(_mm256_srli_epi64(e, 32), o, 0xAA); }

/* y in [0, 4p) (any 32-bit y for Shoup) -> y*w mod p in [0, 2p).
   Shoup: q = hi(y w'), r = y w - q p (mod 2^32).
   Montgomery: REDC(y W) with W = w R mod p: y W < 4p^2 < p 2^32. */
NTT_INLINE V mulw(V y, vtw W, vcst C, const int kind)
{
    const V yo = _mm256_srli_epi64(y, 32);
    if (kind == NTT_MODMUL_SHOUP) {
        const V q = hi_halves(_mm256_mul_epu32(y, W.x), _mm256_mul_epu32(yo, W.xo));
        return _mm256_sub_epi32(_mm256_mullo_epi32(y, W.w), _mm256_mullo_epi32(q, C.p));
    }
    const V te = _mm256_mul_epu32(y, W.x), to = _mm256_mul_epu32(yo, W.xo);
    const V m = _mm256_mullo_epi32(_mm256_mullo_epi32(y, W.x), C.pinv);
    const V ue = _mm256_mul_epu32(m, C.p), uo = _mm256_mul_epu32(_mm256_srli_epi64(m, 32), C.p);
    return hi_halves(_mm256_add_epi64(te, ue), _mm256_add_epi64(to, uo));
}

/* Montgomery product of two variables: a in [0, p), b < 4p -> a b R^-1 in
   [0, 2p). */
NTT_INLINE V mont2(V a, V b, vcst C)
{
    const V te = _mm256_mul_epu32(a, b);
    const V to = _mm256_mul_epu32(_mm256_srli_epi64(a, 32), _mm256_srli_epi64(b, 32));
    const V m = _mm256_mullo_epi32(_mm256_mullo_epi32(a, b), C.pinv);
    const V ue = _mm256_mul_epu32(m, C.p), uo = _mm256_mul_epu32(_mm256_srli_epi64(m, 32), C.p);
    return hi_halves(_mm256_add_epi64(te, ue), _mm256_add_epi64(to, uo));
}

/* Cooley-Tukey: x, y in [0, 4p) -> x + wy, x - wy in [0, 4p). */
NTT_INLINE void ct(V *x, V *y, vtw W, vcst C, const int kind)
{
    const V x0 = csub(*x, C.p2), t = mulw(*y, W, C, kind);
    *x = _mm256_add_epi32(x0, t);
    *y = _mm256_add_epi32(_mm256_sub_epi32(x0, t), C.p2);
}

/* The same with w = 1. */
NTT_INLINE void ct1(V *x, V *y, vcst C)
{
    const V x0 = csub(*x, C.p2), t = csub(*y, C.p2);
    *x = _mm256_add_epi32(x0, t);
    *y = _mm256_add_epi32(_mm256_sub_epi32(x0, t), C.p2);
}

/* Gentleman-Sande: x, y in [0, 2p) -> x + y, (x - y) w in [0, 2p). */
NTT_INLINE void gs(V *x, V *y, vtw W, vcst C, const int kind)
{
    const V s = csub(_mm256_add_epi32(*x, *y), C.p2);
    *y = mulw(_mm256_add_epi32(_mm256_sub_epi32(*x, *y), C.p2), W, C, kind);
    *x = s;
}

NTT_INLINE void gs1(V *x, V *y, vcst C)
{
    const V s = csub(_mm256_add_epi32(*x, *y), C.p2);
    *y = csub(_mm256_add_epi32(_mm256_sub_epi32(*x, *y), C.p2), C.p2);
    *x = s;
}

/* Callers' arrays need not be 32-byte aligned (batch items start at any
   stride). */
#define LD(p) _mm256_loadu_si256((const V *)(p))
#define ST(p, v) _mm256_storeu_si256((V *)(p), (v))

/* ---- wide levels ----------------------------------------------------------- */

/* Two forward levels (node i; 2i, 2i+1) over quarters q apart, positions
   [0, cnt), cnt a multiple of 8 (the drivers split no finer); `one`: node
   i (and so 2i) has twiddle 1. */
NTT_INLINE void fwd4v(uint32_t *a, size_t q, size_t cnt, size_t i, const mod_u32 *M,
                      const int kind, const int one)
{
    const vcst C = vcst_of(M);
    const vtw w1 = tw_bcast(M->fw, M->fwx, i), w2 = tw_bcast(M->fw, M->fwx, 2 * i);
    const vtw w3 = tw_bcast(M->fw, M->fwx, 2 * i + 1);
    uint32_t *a0 = a, *a1 = a + q, *a2 = a + 2 * q, *a3 = a + 3 * q;
    for (size_t j = 0; j < cnt; j += 8) {
        V x0 = LD(a0 + j), x1 = LD(a1 + j), x2 = LD(a2 + j), x3 = LD(a3 + j);
        if (one) {
            ct1(&x0, &x2, C);
            ct1(&x1, &x3, C);
            ct1(&x0, &x1, C);
        } else {
            ct(&x0, &x2, w1, C, kind);
            ct(&x1, &x3, w1, C, kind);
            ct(&x0, &x1, w2, C, kind);
        }
        ct(&x2, &x3, w3, C, kind);
        ST(a0 + j, x0);
        ST(a1 + j, x1);
        ST(a2 + j, x2);
        ST(a3 + j, x3);
    }
}

NTT_INLINE void fwd2v(uint32_t *a, size_t h, size_t cnt, size_t i, const mod_u32 *M,
                      const int kind)
{
    const vcst C = vcst_of(M);
    const vtw w = tw_bcast(M->fw, M->fwx, i);
    for (size_t j = 0; j < cnt; j += 8) {
        V x = LD(a + j), y = LD(a + j + h);
        ct(&x, &y, w, C, kind);
        ST(a + j, x);
        ST(a + j + h, y);
    }
}

NTT_INLINE void inv4v(uint32_t *a, size_t q, size_t cnt, size_t i, const mod_u32 *M,
                      const int kind, const int one)
{
    const vcst C = vcst_of(M);
    const vtw w1 = tw_bcast(M->iw, M->iwx, i), w2 = tw_bcast(M->iw, M->iwx, 2 * i);
    const vtw w3 = tw_bcast(M->iw, M->iwx, 2 * i + 1);
    uint32_t *a0 = a, *a1 = a + q, *a2 = a + 2 * q, *a3 = a + 3 * q;
    for (size_t j = 0; j < cnt; j += 8) {
        V x0 = LD(a0 + j), x1 = LD(a1 + j), x2 = LD(a2 + j), x3 = LD(a3 + j);
        gs(&x2, &x3, w3, C, kind);
        if (one) {
            gs1(&x0, &x1, C);
            gs1(&x0, &x2, C);
            gs1(&x1, &x3, C);
        } else {
            gs(&x0, &x1, w2, C, kind);
            gs(&x0, &x2, w1, C, kind);
            gs(&x1, &x3, w1, C, kind);
        }
        ST(a0 + j, x0);
        ST(a1 + j, x1);
        ST(a2 + j, x2);
        ST(a3 + j, x3);
    }
}

NTT_INLINE void inv2v(uint32_t *a, size_t h, size_t cnt, size_t i, const mod_u32 *M,
                      const int kind)
{
    const vcst C = vcst_of(M);
    const vtw w = tw_bcast(M->iw, M->iwx, i);
    for (size_t j = 0; j < cnt; j += 8) {
        V x = LD(a + j), y = LD(a + j + h);
        gs(&x, &y, w, C, kind);
        ST(a + j, x);
        ST(a + j + h, y);
    }
}

/* ---- the last six levels of a 64-element block ---------------------------------
 * Block node nd; its eight vectors v0..v7 hold elements 8k .. 8k+7.  The
 * distance-32, -16 and -8 levels pair whole vectors (broadcast twiddles).
 * After an 8x8 transpose, vector t_j holds elements 8k + j (lane k), so the
 * distance-4, -2 and -1 levels pair whole vectors too, with one twiddle per
 * lane: lane k of the distance-4 level is node 8nd+k (contiguous in tree
 * order); the distance-2 and -1 levels want every second / fourth node,
 * which is why arrange() regroups those two levels of the tables (see
 * there).  The polymul path leaves the block transposed (the pointwise
 * product does not care) and so pays one transpose per transform. */

NTT_INLINE void transpose8(V v[8])
{
    V t[8], u[8];
    for (int k = 0; k < 8; k += 2) {
        t[k] = _mm256_unpacklo_epi32(v[k], v[k + 1]);
        t[k + 1] = _mm256_unpackhi_epi32(v[k], v[k + 1]);
    }
    for (int k = 0; k < 8; k += 4) {
        u[k] = _mm256_unpacklo_epi64(t[k], t[k + 2]);
        u[k + 1] = _mm256_unpackhi_epi64(t[k], t[k + 2]);
        u[k + 2] = _mm256_unpacklo_epi64(t[k + 1], t[k + 3]);
        u[k + 3] = _mm256_unpackhi_epi64(t[k + 1], t[k + 3]);
    }
    for (int k = 0; k < 4; k++) {
        v[k] = _mm256_permute2x128_si256(u[k], u[k + 4], 0x20);
        v[k + 4] = _mm256_permute2x128_si256(u[k], u[k + 4], 0x31);
    }
}

/* The six levels on the block's vectors, leaving them transposed. */
NTT_INLINE void fwd6(V v[8], size_t nd, const mod_u32 *M, vcst C, const int kind)
{
    const uint32_t *fw = M->fw, *fx = M->fwx;
    vtw w = tw_bcast(fw, fx, nd);
    for (int k = 0; k < 4; k++) ct(&v[k], &v[k + 4], w, C, kind);
    for (int h = 0; h < 2; h++) {
        w = tw_bcast(fw, fx, 2 * nd + h);
        ct(&v[4 * h], &v[4 * h + 2], w, C, kind);
        ct(&v[4 * h + 1], &v[4 * h + 3], w, C, kind);
    }
    for (int k = 0; k < 4; k++) ct(&v[2 * k], &v[2 * k + 1], tw_bcast(fw, fx, 4 * nd + k), C, kind);
    transpose8(v);
    w = tw_load8(fw, fx, 8 * nd);
    for (int k = 0; k < 4; k++) ct(&v[k], &v[k + 4], w, C, kind);
    for (int h = 0; h < 2; h++) {
        w = tw_load8(fw, fx, 16 * nd + 8 * h);
        ct(&v[4 * h], &v[4 * h + 2], w, C, kind);
        ct(&v[4 * h + 1], &v[4 * h + 3], w, C, kind);
    }
    for (int k = 0; k < 4; k++) ct(&v[2 * k], &v[2 * k + 1], tw_load8(fw, fx, 32 * nd + 8 * k), C, kind);
}

/* The inverse of fwd6: transposed vectors in, natural order out. */
NTT_INLINE void inv6(V v[8], size_t nd, const mod_u32 *M, vcst C, const int kind)
{
    const uint32_t *iw = M->iw, *ix = M->iwx;
    for (int k = 0; k < 4; k++) gs(&v[2 * k], &v[2 * k + 1], tw_load8(iw, ix, 32 * nd + 8 * k), C, kind);
    for (int h = 0; h < 2; h++) {
        const vtw w = tw_load8(iw, ix, 16 * nd + 8 * h);
        gs(&v[4 * h], &v[4 * h + 2], w, C, kind);
        gs(&v[4 * h + 1], &v[4 * h + 3], w, C, kind);
    }
    vtw w = tw_load8(iw, ix, 8 * nd);
    for (int k = 0; k < 4; k++) gs(&v[k], &v[k + 4], w, C, kind);
    transpose8(v);
    for (int k = 0; k < 4; k++) gs(&v[2 * k], &v[2 * k + 1], tw_bcast(iw, ix, 4 * nd + k), C, kind);
    for (int h = 0; h < 2; h++) {
        w = tw_bcast(iw, ix, 2 * nd + h);
        gs(&v[4 * h], &v[4 * h + 2], w, C, kind);
        gs(&v[4 * h + 1], &v[4 * h + 3], w, C, kind);
    }
    w = tw_bcast(iw, ix, nd);
    for (int k = 0; k < 4; k++) gs(&v[k], &v[k + 4], w, C, kind);
}

/* tout: leave the block in natural order (public forward). */
NTT_INLINE void fwd_last6(uint32_t *a, size_t nd, const mod_u32 *M, vcst C, const int kind,
                          const int tout)
{
    V v[8];
    for (int k = 0; k < 8; k++) v[k] = LD(a + 8 * k);
    fwd6(v, nd, M, C, kind);
    if (tout) transpose8(v);
    for (int k = 0; k < 8; k++) ST(a + 8 * k, v[k]);
}

/* tin: the block comes in natural order (public inverse). */
NTT_INLINE void inv_last6(uint32_t *a, size_t nd, const mod_u32 *M, vcst C, const int kind,
                          const int tin)
{
    V v[8];
    for (int k = 0; k < 8; k++) v[k] = LD(a + 8 * k);
    if (tin) transpose8(v);
    inv6(v, nd, M, C, kind);
    for (int k = 0; k < 8; k++) ST(a + 8 * k, v[k]);
}

/* Regroups the distance-2 level (nodes n/4 .. n/2-1) in runs of 16 as
   [even nodes, odd nodes] and the distance-1 level (n/2 .. n-1) in runs of
   32 as [nodes 4k, 4k+1, 4k+2, 4k+3 for k = 0..7]: within each 64-element
   block the twiddles of one transposed vector pair are then one load. */
static void regroup(uint32_t *t, size_t n)
{
    uint32_t tmp[32];
    for (size_t g = n / 4; g < n / 2; g += 16) {
        for (size_t k = 0; k < 8; k++) tmp[k] = t[g + 2 * k], tmp[8 + k] = t[g + 2 * k + 1];
        for (size_t k = 0; k < 16; k++) t[g + k] = tmp[k];
    }
    for (size_t g = n / 2; g < n; g += 32) {
        for (size_t k = 0; k < 8; k++)
            for (size_t c = 0; c < 4; c++) tmp[8 * c + k] = t[g + 4 * k + c];
        for (size_t k = 0; k < 32; k++) t[g + k] = tmp[k];
    }
}

static void arrange32(mod_u32 *M, size_t n)
{
    regroup(M->fw, n);
    regroup(M->fwx, n);
    regroup(M->iw, n);
    regroup(M->iwx, n);
}

/* ---- whole subtrees inside one cache block ------------------------------------- */

/* The levels of subtree i above its 64-element blocks on a block of L >= 64
   elements: an odd level first (while the distance is long), then radix-4
   passes.  Returns the node of the first 64-element block. */
NTT_INLINE size_t fwd_upper(uint32_t *a, size_t L, size_t i, const mod_u32 *M, const int kind)
{
    size_t len = L, node = i;
    if (ntt_log2(L) & 1) {
        fwd2v(a, L / 2, L / 2, i, M, kind);
        len = L / 2;
        node = 2 * i;
    }
    for (; len > 64; len >>= 2, node <<= 2)
        for (size_t g = 0; g < L / len; g++)
            fwd4v(a + g * len, len / 4, len / 4, node + g, M, kind, 0);
    return node;
}

NTT_INLINE void inv_upper(uint32_t *a, size_t L, size_t i, const mod_u32 *M, const int kind)
{
    size_t len = 256;
    for (; len <= L; len <<= 2)
        for (size_t g = 0; g < L / len; g++)
            inv4v(a + g * len, len / 4, len / 4, i * (L / len) + g, M, kind, 0);
    if (len / 4 != L) inv2v(a, L / 2, L / 2, i, M, kind);
}

/* t: natural order at the leaves (else the transposed order of the polymul
   path). */
NTT_INLINE void fwd_smallv(uint32_t *a, size_t L, size_t i, const mod_u32 *M, const int kind,
                           const int t)
{
    const vcst C = vcst_of(M);
    const size_t node = fwd_upper(a, L, i, M, kind);
    for (size_t g = 0; g < L / 64; g++) fwd_last6(a + 64 * g, node + g, M, C, kind, t);
}

NTT_INLINE void inv_smallv(uint32_t *a, size_t L, size_t i, const mod_u32 *M, const int kind,
                           const int t)
{
    const vcst C = vcst_of(M);
    const size_t nb = L / 64;
    for (size_t g = 0; g < nb; g++) inv_last6(a + 64 * g, i * nb + g, M, C, kind, t);
    inv_upper(a, L, i, M, kind);
}

/* See kern.mul_small: the forward leaves of b, the product with a and the
   inverse leaves meet in registers, 64 elements at a time. */
NTT_INLINE void mul_smallv(uint32_t *b, const uint32_t *a, size_t L, size_t i, const mod_u32 *M,
                           const int kind);

/* ---- root, pointwise, reduction ------------------------------------------------- */

/* Fully reduced outputs of 8 lanes at out[j .. j+8). */
NTT_INLINE void store_out(void *out, size_t j, V v, const int out64)
{
    if (out64) {
        uint64_t *o = (uint64_t *)out + j;
        _mm256_storeu_si256((V *)o, _mm256_cvtepu32_epi64(_mm256_castsi256_si128(v)));
        _mm256_storeu_si256((V *)(o + 4), _mm256_cvtepu32_epi64(_mm256_extracti128_si256(v, 1)));
    } else {
        _mm256_storeu_si256((V *)((uint32_t *)out + j), v);
    }
}

NTT_INLINE void inv_rootv(uint32_t *a, void *out, size_t n, size_t lc, size_t j0, size_t j1,
                          tw_u32 s, tw_u32 s1, const mod_u32 *M, const int kind, const int out64)
{
    const vcst C = vcst_of(M);
    const vtw S = tw_scalar(s), S1 = tw_scalar(s1);
    size_t j = j0;
    if (ntt_log2(n) & 1) {
        const size_t h = n / 2;
        const size_t full = lc >= n ? h : lc > h ? lc - h : 0;
        for (; j + 8 <= j1 && j + 8 <= full; j += 8) {
            const V x = _mm256_loadu_si256((const V *)(a + j));
            const V y = _mm256_loadu_si256((const V *)(a + j + h));
            const V u = csub(mulw(_mm256_add_epi32(x, y), S, C, kind), C.p);
            const V v = csub(mulw(_mm256_add_epi32(_mm256_sub_epi32(x, y), C.p2), S1, C, kind), C.p);
            store_out(out, j, u, out64);
            store_out(out, j + h, v, out64);
        }
    } else {
        const size_t q = n / 4;
        const size_t full = lc >= n ? q : lc > 3 * q ? lc - 3 * q : 0;
        const vtw w2 = tw_bcast(M->iw, M->iwx, 2), w3 = tw_bcast(M->iw, M->iwx, 3);
        for (; j + 8 <= j1 && j + 8 <= full; j += 8) {
            V x0 = _mm256_loadu_si256((const V *)(a + j));
            V x1 = _mm256_loadu_si256((const V *)(a + j + q));
            V x2 = _mm256_loadu_si256((const V *)(a + j + 2 * q));
            V x3 = _mm256_loadu_si256((const V *)(a + j + 3 * q));
            gs(&x0, &x1, w2, C, kind);
            gs(&x2, &x3, w3, C, kind);
            const V y0 = csub(mulw(_mm256_add_epi32(x0, x2), S, C, kind), C.p);
            const V y1 = csub(mulw(_mm256_add_epi32(x1, x3), S, C, kind), C.p);
            const V y2 = csub(mulw(_mm256_add_epi32(_mm256_sub_epi32(x0, x2), C.p2), S1, C, kind), C.p);
            const V y3 = csub(mulw(_mm256_add_epi32(_mm256_sub_epi32(x1, x3), C.p2), S1, C, kind), C.p);
            store_out(out, j, y0, out64);
            store_out(out, j + q, y1, out64);
            store_out(out, j + 2 * q, y2, out64);
            store_out(out, j + 3 * q, y3, out64);
        }
    }
    /* The rest (outputs past lc, a span shorter than a vector) as scalar
       code. */
    if (j < j1) {
        const kern_u32 *K = ntt_scalar_kernels_u32((ntt_modmul)kind);
        (out64 ? K->inv_root64 : K->inv_root)(a, out, n, lc, j, j1, s, s1, M);
    }
}

/* a, b in [0, 4p) -> a b R^-1 in [0, 2p) (the factor F of the scalar
   kernels' mul2: both vectorized kinds use Montgomery here). */
NTT_INLINE V mul2(V a, V b, vcst C) { return mont2(csub(csub(a, C.p2), C.p), b, C); }

static void pointwise_lazy(uint32_t *c, const uint32_t *a, const uint32_t *b, size_t len,
                           const mod_u32 *M)
{
    const vcst C = vcst_of(M);
    size_t j = 0;
    for (; j + 8 <= len; j += 8)
        _mm256_storeu_si256((V *)(c + j), mul2(_mm256_loadu_si256((const V *)(a + j)),
                                               _mm256_loadu_si256((const V *)(b + j)), C));
    for (; j < len; j++) {
        const uint32_t x = ntt_csub32(ntt_csub32(a[j], M->c.p2), M->c.p);
        c[j] = ntt_mont32(x, b[j], M->c.p, M->c.pinv);
    }
}

NTT_INLINE void mul_smallv(uint32_t *b, const uint32_t *a, size_t L, size_t i, const mod_u32 *M,
                           const int kind)
{
    const vcst C = vcst_of(M);
    const size_t node = fwd_upper(b, L, i, M, kind);
    for (size_t g = 0; g < L / 64; g++) {
        uint32_t *x = b + 64 * g;
        V v[8];
        for (int k = 0; k < 8; k++) v[k] = LD(x + 8 * k);
        fwd6(v, node + g, M, C, kind);
        for (int k = 0; k < 8; k++) v[k] = mul2(v[k], LD(a + 64 * g + 8 * k), C);
        inv6(v, node + g, M, C, kind);
        for (int k = 0; k < 8; k++) ST(x + 8 * k, v[k]);
    }
    inv_upper(b, L, i, M, kind);
}

NTT_INLINE void pointwise_fullv(uint32_t *c, const uint32_t *a, const uint32_t *b, size_t len,
                                const mod_u32 *M, const int kind)
{
    const vcst C = vcst_of(M);
    const vtw F = tw_scalar(M->fix);
    size_t j = 0;
    for (; j + 8 <= len; j += 8) {
        const V v = mont2(_mm256_loadu_si256((const V *)(a + j)),
                          _mm256_loadu_si256((const V *)(b + j)), C);
        _mm256_storeu_si256((V *)(c + j), csub(mulw(v, F, C, kind), C.p));
    }
    if (j < len) ntt_scalar_kernels_u32((ntt_modmul)kind)->pointwise_full(c + j, a + j, b + j, len - j, M);
}

static void reduce4(uint32_t *a, size_t len, const mod_u32 *M)
{
    const vcst C = vcst_of(M);
    size_t j = 0;
    for (; j + 8 <= len; j += 8) {
        const V x = _mm256_loadu_si256((const V *)(a + j));
        _mm256_storeu_si256((V *)(a + j), csub(csub(x, C.p2), C.p));
    }
    for (; j < len; j++) a[j] = ntt_csub32(ntt_csub32(a[j], M->c.p2), M->c.p);
}

/* ---- loading a zero-padded input ------------------------------------------------ */

/* src[j .. j+8) as u32 lanes, zero at and past len. */
NTT_INLINE V load_src(const void *src, bool src64, size_t j, size_t len)
{
    if (j + 8 <= len) {
        if (!src64) return LD((const uint32_t *)src + j);
        const uint64_t *s = (const uint64_t *)src + j;
        const __m256 lo = _mm256_castsi256_ps(LD(s)), hi = _mm256_castsi256_ps(LD(s + 4));
        /* The low halves: e0 e1 e4 e5 | e2 e3 e6 e7, then in order. */
        return _mm256_permute4x64_epi64(_mm256_castps_si256(_mm256_shuffle_ps(lo, hi, 0x88)), 0xD8);
    }
    uint32_t t[8] = {0};
    for (size_t k = 0; j + k < len && k < 8; k++)
        t[k] = src64 ? (uint32_t)((const uint64_t *)src)[j + k] : ((const uint32_t *)src)[j + k];
    return LD(t);
}

/* kern.load_top for len <= n/2, n >= 256: one pass writes both copies of
   the zero-padded root level and, when log2 n is even, does the level of
   nodes 2 and 3 on the way (inputs < p need no reduction first). */
NTT_INLINE void load_topv(uint32_t *dst, const void *src, bool src64, size_t len, size_t n,
                          size_t j0, size_t j1, const mod_u32 *M, const int kind)
{
    if (len > n / 2) {
        ntt_cpu_load_top_u32(dst, src, src64, len, n, j0, j1, M);
        return;
    }
    const vcst C = vcst_of(M);
    const size_t h = n / 2;
    if (ntt_log2(n) & 1) {
        for (size_t j = j0; j < j1; j += 8) {
            const V x = j < len ? load_src(src, src64, j, len) : _mm256_setzero_si256();
            ST(dst + j, x);
            ST(dst + h + j, x);
        }
        return;
    }
    const size_t q = n / 4;
    const vtw w2 = tw_bcast(M->fw, M->fwx, 2), w3 = tw_bcast(M->fw, M->fwx, 3);
    const bool one = M->cyclic;
    for (size_t j = j0; j < j1; j += 8) {
        const V x = j < len ? load_src(src, src64, j, len) : _mm256_setzero_si256();
        const V y = j + q < len ? load_src(src, src64, j + q, len) : _mm256_setzero_si256();
        V x0 = x, y0 = y, x1 = x, y1 = y;
        if (one) ct1(&x0, &y0, C);
        else ct(&x0, &y0, w2, C, kind);
        ct(&x1, &y1, w3, C, kind);
        ST(dst + j, x0);
        ST(dst + q + j, y0);
        ST(dst + h + j, x1);
        ST(dst + h + q + j, y1);
    }
}

/* ---- per-kind kernel tables ------------------------------------------------------ */

/* Leaf blocks of 4096 elements (16 KiB) leave L1 room for their twiddles. */
#define AVX2_BLOCK32 4096

#define AVX2_INSTANCE(K, NAME)                                                              \
    static void fwd4_##NAME(uint32_t *a, size_t q, size_t c, size_t i, const mod_u32 *M)     \
    { fwd4v(a, q, c, i, M, K, 0); }                                                         \
    static void fwd4one_##NAME(uint32_t *a, size_t q, size_t c, size_t i, const mod_u32 *M)  \
    { fwd4v(a, q, c, i, M, K, 1); }                                                         \
    static void fwd2_##NAME(uint32_t *a, size_t h, size_t c, size_t i, const mod_u32 *M)     \
    { fwd2v(a, h, c, i, M, K); }                                                            \
    static void inv2_##NAME(uint32_t *a, size_t h, size_t c, size_t i, const mod_u32 *M)     \
    { inv2v(a, h, c, i, M, K); }                                                            \
    static void mul_small_##NAME(uint32_t *b, const uint32_t *a, size_t L, size_t i,         \
                                 const mod_u32 *M)                                           \
    { mul_smallv(b, a, L, i, M, K); }                                                       \
    static void fwd_small_##NAME(uint32_t *a, size_t L, size_t i, const mod_u32 *M)          \
    { fwd_smallv(a, L, i, M, K, 1); }                                                       \
    static void fwd_small_p_##NAME(uint32_t *a, size_t L, size_t i, const mod_u32 *M)        \
    { fwd_smallv(a, L, i, M, K, 0); }                                                       \
    static void inv4_##NAME(uint32_t *a, size_t q, size_t c, size_t i, const mod_u32 *M)     \
    { inv4v(a, q, c, i, M, K, 0); }                                                         \
    static void inv4one_##NAME(uint32_t *a, size_t q, size_t c, size_t i, const mod_u32 *M)  \
    { inv4v(a, q, c, i, M, K, 1); }                                                         \
    static void inv_small_##NAME(uint32_t *a, size_t L, size_t i, const mod_u32 *M)          \
    { inv_smallv(a, L, i, M, K, 1); }                                                       \
    static void inv_small_p_##NAME(uint32_t *a, size_t L, size_t i, const mod_u32 *M)        \
    { inv_smallv(a, L, i, M, K, 0); }                                                       \
    static void inv_root_##NAME(uint32_t *a, void *o, size_t n, size_t lc, size_t j0,        \
                                size_t j1, tw_u32 s, tw_u32 s1, const mod_u32 *M)            \
    { inv_rootv(a, o, n, lc, j0, j1, s, s1, M, K, 0); }                                     \
    static void inv_root64_##NAME(uint32_t *a, void *o, size_t n, size_t lc, size_t j0,      \
                                  size_t j1, tw_u32 s, tw_u32 s1, const mod_u32 *M)          \
    { inv_rootv(a, o, n, lc, j0, j1, s, s1, M, K, 1); }                                     \
    static void load_top_##NAME(uint32_t *d, const void *s, bool s64, size_t len, size_t n,  \
                                size_t j0, size_t j1, const mod_u32 *M)                      \
    { load_topv(d, s, s64, len, n, j0, j1, M, K); }                                         \
    static void pointwise_full_##NAME(uint32_t *c, const uint32_t *a, const uint32_t *b,     \
                                      size_t len, const mod_u32 *M)                          \
    { pointwise_fullv(c, a, b, len, M, K); }                                                \
    static const kern_u32 kernels_##NAME = {                                                \
        .block = AVX2_BLOCK32,                                                              \
        .fwd4 = fwd4_##NAME,                                                                \
        .fwd4one = fwd4one_##NAME,                                                          \
        .fwd2 = fwd2_##NAME,                                                                \
        .inv2 = inv2_##NAME,                                                                \
        .mul_small = mul_small_##NAME,                                                      \
        .load_top = load_top_##NAME,                                                        \
        .fwd_small = fwd_small_##NAME,                                                      \
        .fwd_small_p = fwd_small_p_##NAME,                                                  \
        .inv4 = inv4_##NAME,                                                                \
        .inv4one = inv4one_##NAME,                                                          \
        .inv_small = inv_small_##NAME,                                                      \
        .inv_small_p = inv_small_p_##NAME,                                                  \
        .inv_root = inv_root_##NAME,                                                        \
        .inv_root64 = inv_root64_##NAME,                                                    \
        .pointwise = pointwise_lazy,                                                        \
        .pointwise_full = pointwise_full_##NAME,                                            \
        .reduce = reduce4,                                                                  \
        .arrange = arrange32,                                                               \
        .min_n = 256};

AVX2_INSTANCE(NTT_MODMUL_SHOUP, shoup)
AVX2_INSTANCE(NTT_MODMUL_MONTGOMERY, mont)

#include "avx2_impl.h"

/* ---- helpers for the rest of the library ------------------------------------------ */

bool ntt_avx2_any_geq_u64(const uint64_t *a, size_t len, uint64_t p)
{
    /* Unsigned compare through the signed one, both sides biased by 2^63. */
    const V bias = _mm256_set1_epi64x((long long)0x8000000000000000ull);
    const V lim = _mm256_set1_epi64x((long long)((p - 1) ^ 0x8000000000000000ull));
    size_t i = 0;
    while (i + 16 <= len) {
        const size_t e = len - i > 4096 ? i + 4096 : len - (len - i) % 16;
        V bad = _mm256_setzero_si256();
        for (; i < e; i += 16)
            for (int k = 0; k < 16; k += 4)
                bad = _mm256_or_si256(bad, _mm256_cmpgt_epi64(_mm256_xor_si256(LD(a + i + k), bias), lim));
        if (!_mm256_testz_si256(bad, bad)) return true;
    }
    for (; i < len; i++)
        if (a[i] >= p) return true;
    return false;
}

/* ---- the backend ------------------------------------------------------------------ */

/* The CRT primes of ntt_polymul_mod here: below 2^51, so that the products
   run on the double-precision kernels (three times as fast as the integer
   ones at 62 bits, more than paying for a fourth prime); the largest four
   with 2^30 | q-1 (ntt_find_prime(51, 30, i)).  Products of the first two,
   three, four: above 2^101.99, 2^152.99, 2^203.99. */
static const uint64_t crt51[4] = {2251792297492481ull, 2251756864012289ull,
                                  2251747200335873ull, 2251740757884929ull};

size_t ntt_avx2_crt_primes(const uint64_t **q)
{
    *q = crt51;
    return 4;
}

static int avx2_available(void)
{
    return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma") &&
           __builtin_cpu_supports("bmi2");
}

/* As the scalar backend: the reports' baseline (% only) runs the shared
   scalar code, so that NTT_BACKEND_AUTO offers every CPU variant. */
static int avx2_supports(ntt_variant v, ntt_modmul m)
{
    return ntt_scalar_ops.supports(v, m);
}

static const kern_u32 *pick32(const ntt_plan *plan, const ntt_modulus *m)
{
    (void)m;
    if (plan->modmul == NTT_MODMUL_SHOUP) return &kernels_shoup;
    if (plan->modmul == NTT_MODMUL_MONTGOMERY) return &kernels_mont;
    return ntt_scalar_kernels_u32(plan->modmul);
}

static const kern_u64 *pick64(const ntt_plan *plan, const ntt_modulus *m)
{
    if (plan->modmul == NTT_MODMUL_SHOUP && m->p < ((uint64_t)1 << 51)) return &kernels_f64;
    return ntt_scalar_kernels_u64(plan->modmul);
}

const ntt_cpu_kernel_choice ntt_avx2_kernel_choice = {pick32, pick64};

static ntt_status avx2_plan_init(ntt_plan *plan)
{
    return ntt_cpu_plan_init(plan, &ntt_avx2_kernel_choice, 1);
}

const ntt_backend_ops ntt_avx2_ops = {
    .name = "avx2",
    .id = NTT_BACKEND_AVX2,
    .available = avx2_available,
    .supports = avx2_supports,
    .plan_init = avx2_plan_init,
    .plan_free = ntt_cpu_plan_free,
    .forward = ntt_cpu_forward,
    .inverse = ntt_cpu_inverse,
    .pointwise = ntt_cpu_pointwise,
    .polymul = ntt_cpu_polymul,
};
