/*
 * The u64 Shoup kernels for primes p < 2^51 on AVX-512 IFMA (vpmadd52luq /
 * vpmadd52huq: the low or high 52 bits of the 104-bit product of the low
 * 52 bits of two lanes, added to a third).  The only file of the NTTs
 * built with -mavx512ifma; the AVX-512 backend (and OpenMP where it runs
 * the AVX-512 kernels) picks these kernels, where the CPU has IFMA, instead
 * of the FP64 ones (kernels_f64.inc), which stay for CPUs without it.
 *
 * Arithmetic: Harvey's butterflies with 52-bit Shoup constants.  A twiddle
 * w in [0, p) carries w' = floor(w 2^52 / p) (the table's 64-bit Shoup
 * companion shifted right by 12).  For y < 2^52, q = hi52(y w') and
 * r = lo52(y w) - lo52(q p) mod 2^52 is y w - q p, which lies in [0, 2p):
 * q >= y w / p - y / 2^52 - 1.  Since 2p < 2^52 the low 52 bits hold r
 * exactly.
 *
 * Lazy ranges, both chosen per prime (the `wide` argument):
 *  - narrow, p < 2^50: forward values in [0, 4p) (4p < 2^52, so every
 *    value is a valid multiplier input), inverse values in [0, 2p).  A CT
 *    butterfly takes x, y in [0, 4p), brings x to [0, 2p), t = w y in
 *    [0, 2p), gives x + t and x - t + 2p in [0, 4p).  A GS butterfly takes
 *    x, y in [0, 2p), gives x + y brought to [0, 2p) and w (x - y + 2p)
 *    (multiplier input below 4p) in [0, 2p).
 *  - wide, 2^50 <= p < 2^51: 4p would not fit 52 bits, so forward values
 *    stay in [0, 2p) too: x + t and x - t + 2p are each brought back to
 *    [0, 2p), and the GS butterfly brings x - y + 2p to [0, 2p) before
 *    the multiplication.
 * Products of two variables (the pointwise products) are Montgomery's in
 * radix 2^52 on a in [0, p) and b in [0, 2p), giving a b 2^-52 in [0, 2p),
 * then a Shoup product by 2^52 mod p, so they leave no factor (F = 1).
 *
 * Values are plain integers in the arrays, so public values need no
 * conversion in or out.  Leaves: the last six levels of every 64-element
 * block in registers, three on whole vectors with broadcast twiddles, an
 * 8 x 8 transpose, three more with one twiddle per lane from the tables
 * that regroup() lays out for 8 lanes.
 */
#include "vec.h"

#include <string.h>

typedef __m512i V;

#define M52 (((uint64_t)1 << 52) - 1)

NTT_INLINE V v1(uint64_t x) { return _mm512_set1_epi64((long long)x); }
NTT_INLINE V vld(const uint64_t *a) { return _mm512_loadu_si512((const void *)a); }
NTT_INLINE void vst(uint64_t *a, V x) { _mm512_storeu_si512((void *)a, x); }
NTT_INLINE V vadd(V a, V b) { return _mm512_add_epi64(a, b); }
NTT_INLINE V vsub(V a, V b) { return _mm512_sub_epi64(a, b); }
/* x in [0, 2m) -> [0, m): below m, x - m wraps above x. */
NTT_INLINE V vcsub(V x, V m) { return _mm512_min_epu64(x, vsub(x, m)); }

/* Lanes [j, len) of a vector at j: the tails of ranges that are not a
   multiple of eight. */
NTT_INLINE __mmask8 tail(size_t j, size_t len)
{
    return len - j >= 8 ? (__mmask8)0xFF : (__mmask8)((1u << (len - j)) - 1);
}

typedef struct {
    V p, p2, np, m52; /* p, 2p, 2^52 - p, 2^52 - 1 */
    V pinv;           /* -p^-1 mod 2^52 */
    V r, rq;          /* M->fix: 2^52 mod p and its companion */
} icst;

typedef struct {
    V w, q;
} itw;

NTT_INLINE icst icst_of(const mod_u64 *M)
{
    const uint64_t p = M->c.p;
    icst C;
    C.p = v1(p);
    C.p2 = v1(2 * p);
    C.np = v1(((uint64_t)1 << 52) - p);
    C.m52 = v1(M52);
    C.pinv = v1(M->c.pinv & M52);
    C.r = v1(M->fix.w);
    C.rq = v1(M->fix.x);
    return C;
}

/* y < 2^52 -> y w mod p in [0, 2p). */
NTT_INLINE V mulw(V y, V w, V wq, const icst *C)
{
    const V z = _mm512_setzero_si512();
    const V q = _mm512_madd52hi_epu64(z, y, wq);
    const V lo = _mm512_madd52lo_epu64(z, y, w);
    return _mm512_and_si512(_mm512_madd52lo_epu64(lo, q, C->np), C->m52);
}

/* a < p, b < 2p -> a b mod p in [0, 2p). */
NTT_INLINE V mul2(V a, V b, const icst *C)
{
    const V z = _mm512_setzero_si512();
    const V lo = _mm512_madd52lo_epu64(z, a, b);
    V hi = _mm512_madd52hi_epu64(z, a, b);
    const V t = _mm512_madd52lo_epu64(z, lo, C->pinv);
    /* lo + lo52(t p) is 0 when lo is, else 2^52: the carry into hi. */
    hi = _mm512_mask_add_epi64(hi, _mm512_test_epi64_mask(lo, lo), hi, v1(1));
    const V m = _mm512_madd52hi_epu64(hi, t, C->p); /* a b 2^-52 mod p, [0, 2p) */
    return mulw(m, C->r, C->rq, C);
}

NTT_INLINE itw tw_bcast(const uint64_t *w, const uint64_t *x, size_t i)
{
    itw t = {v1(w[i]), v1(x[i])};
    return t;
}

NTT_INLINE itw tw_loadv(const uint64_t *w, const uint64_t *x, size_t i)
{
    itw t = {vld(w + i), vld(x + i)};
    return t;
}

/* See the head of this file for the ranges. */
NTT_INLINE void ct(V *x, V *y, itw W, const icst *C, const int wide)
{
    const V t = mulw(*y, W.w, W.q, C);
    if (wide) {
        *y = vcsub(vadd(vsub(*x, t), C->p2), C->p2);
        *x = vcsub(vadd(*x, t), C->p2);
    } else {
        const V xr = vcsub(*x, C->p2);
        *x = vadd(xr, t);
        *y = vadd(vsub(xr, t), C->p2);
    }
}

NTT_INLINE void gs(V *x, V *y, itw W, const icst *C, const int wide)
{
    const V s = vcsub(vadd(*x, *y), C->p2);
    V d = vadd(vsub(*x, *y), C->p2);
    if (wide) d = vcsub(d, C->p2);
    *y = mulw(d, W.w, W.q, C);
    *x = s;
}

/* A forward value -> [0, p). */
NTT_INLINE V full(V x, const icst *C, const int wide)
{
    if (!wide) x = vcsub(x, C->p2);
    return vcsub(x, C->p);
}

/* ---- wide levels: positions [0, cnt) of each quarter or half ---- */

NTT_INLINE void lvl4(uint64_t *a, size_t q, size_t cnt, size_t i, const mod_u64 *M,
                     const int inv, const int wide)
{
    const icst C = icst_of(M);
    const uint64_t *w = inv ? M->iw : M->fw, *wx = inv ? M->iwx : M->fwx;
    const itw w1 = tw_bcast(w, wx, i), w2 = tw_bcast(w, wx, 2 * i), w3 = tw_bcast(w, wx, 2 * i + 1);
    uint64_t *a0 = a, *a1 = a + q, *a2 = a + 2 * q, *a3 = a + 3 * q;
    for (size_t j = 0; j < cnt; j += 8) {
        const __mmask8 k = tail(j, cnt);
        V x0 = _mm512_maskz_loadu_epi64(k, a0 + j), x1 = _mm512_maskz_loadu_epi64(k, a1 + j);
        V x2 = _mm512_maskz_loadu_epi64(k, a2 + j), x3 = _mm512_maskz_loadu_epi64(k, a3 + j);
        if (!inv) {
            ct(&x0, &x2, w1, &C, wide);
            ct(&x1, &x3, w1, &C, wide);
            ct(&x0, &x1, w2, &C, wide);
            ct(&x2, &x3, w3, &C, wide);
        } else {
            gs(&x0, &x1, w2, &C, wide);
            gs(&x2, &x3, w3, &C, wide);
            gs(&x0, &x2, w1, &C, wide);
            gs(&x1, &x3, w1, &C, wide);
        }
        _mm512_mask_storeu_epi64(a0 + j, k, x0);
        _mm512_mask_storeu_epi64(a1 + j, k, x1);
        _mm512_mask_storeu_epi64(a2 + j, k, x2);
        _mm512_mask_storeu_epi64(a3 + j, k, x3);
    }
}

NTT_INLINE void lvl2(uint64_t *a, size_t h, size_t cnt, size_t i, const mod_u64 *M,
                     const int inv, const int wide)
{
    const icst C = icst_of(M);
    const itw w = inv ? tw_bcast(M->iw, M->iwx, i) : tw_bcast(M->fw, M->fwx, i);
    for (size_t j = 0; j < cnt; j += 8) {
        const __mmask8 k = tail(j, cnt);
        V x = _mm512_maskz_loadu_epi64(k, a + j), y = _mm512_maskz_loadu_epi64(k, a + j + h);
        if (inv) gs(&x, &y, w, &C, wide);
        else ct(&x, &y, w, &C, wide);
        _mm512_mask_storeu_epi64(a + j, k, x);
        _mm512_mask_storeu_epi64(a + j + h, k, y);
    }
}

/* ---- leaves: the last six levels of each 64-element block ---- */

NTT_INLINE void transpose(V v[8])
{
    f64x8 d[8];
    UNROLL for (int k = 0; k < 8; k++) d[k] = _mm512_castsi512_pd(v[k]);
    f64x8_transpose(d);
    UNROLL for (int k = 0; k < 8; k++) v[k] = _mm512_castpd_si512(d[k]);
}

/* Leaves the block transposed: vector j holds elements 8 k + j. */
NTT_INLINE void fwdleaf(V *v, size_t nd, const mod_u64 *M, const icst *C, const int wide)
{
    const uint64_t *fw = M->fw, *fx = M->fwx;
    UNROLL for (int s = 0; s < 3; s++) {
        const int dv = 8 >> (s + 1);
        UNROLL for (int g = 0; g < 1 << s; g++) {
            const itw w = tw_bcast(fw, fx, (nd << s) + (size_t)g);
            UNROLL for (int i = 0; i < dv; i++)
                ct(v + 2 * dv * g + i, v + 2 * dv * g + i + dv, w, C, wide);
        }
    }
    transpose(v);
    UNROLL for (int s = 0; s < 3; s++) {
        const int dv = 8 >> (s + 1);
        UNROLL for (int g = 0; g < 1 << s; g++) {
            const itw w = tw_loadv(fw, fx, (nd * 8 << s) + 8 * (size_t)g);
            UNROLL for (int i = 0; i < dv; i++)
                ct(v + 2 * dv * g + i, v + 2 * dv * g + i + dv, w, C, wide);
        }
    }
}

NTT_INLINE void invleaf(V *v, size_t nd, const mod_u64 *M, const icst *C, const int wide)
{
    const uint64_t *iw = M->iw, *ix = M->iwx;
    UNROLL for (int s = 2; s >= 0; s--) {
        const int dv = 8 >> (s + 1);
        UNROLL for (int g = 0; g < 1 << s; g++) {
            const itw w = tw_loadv(iw, ix, (nd * 8 << s) + 8 * (size_t)g);
            UNROLL for (int i = 0; i < dv; i++)
                gs(v + 2 * dv * g + i, v + 2 * dv * g + i + dv, w, C, wide);
        }
    }
    transpose(v);
    UNROLL for (int s = 2; s >= 0; s--) {
        const int dv = 8 >> (s + 1);
        UNROLL for (int g = 0; g < 1 << s; g++) {
            const itw w = tw_bcast(iw, ix, (nd << s) + (size_t)g);
            UNROLL for (int i = 0; i < dv; i++)
                gs(v + 2 * dv * g + i, v + 2 * dv * g + i + dv, w, C, wide);
        }
    }
}

/* The leaf blocks of L elements from node nd on; t: in natural order, else
   transposed (the product path's own order). */
NTT_INLINE void leaves(uint64_t *a, size_t L, size_t nd, const mod_u64 *M, const int t,
                       const int inv, const int wide)
{
    const icst C = icst_of(M);
    for (size_t g = 0; g < L / 64; g++) {
        uint64_t *x = a + 64 * g;
        V v[8];
        UNROLL for (int k = 0; k < 8; k++) v[k] = vld(x + 8 * k);
        if (!inv) {
            fwdleaf(v, nd + g, M, &C, wide);
            if (t) transpose(v);
        } else {
            if (t) transpose(v);
            invleaf(v, nd + g, M, &C, wide);
        }
        UNROLL for (int k = 0; k < 8; k++) vst(x + 8 * k, v[k]);
    }
}

/* Levels of subtree i above its 64-element leaves; returns the node of the
   first leaf. */
NTT_INLINE size_t fwd_upper(uint64_t *a, size_t L, size_t i, const mod_u64 *M, const int wide)
{
    size_t len = L, node = i;
    if (ntt_log2(L) & 1) {
        lvl2(a, L / 2, L / 2, i, M, 0, wide);
        len = L / 2;
        node = 2 * i;
    }
    for (; len > 64; len >>= 2, node <<= 2)
        for (size_t g = 0; g < L / len; g++) lvl4(a + g * len, len / 4, len / 4, node + g, M, 0, wide);
    return node;
}

NTT_INLINE void inv_upper(uint64_t *a, size_t L, size_t i, const mod_u64 *M, const int wide)
{
    size_t len = 256;
    for (; len <= L; len <<= 2)
        for (size_t g = 0; g < L / len; g++)
            lvl4(a + g * len, len / 4, len / 4, i * (L / len) + g, M, 1, wide);
    if (len / 4 != L) lvl2(a, L / 2, L / 2, i, M, 1, wide);
}

NTT_INLINE void fwd_smallv(uint64_t *a, size_t L, size_t i, const mod_u64 *M, const int t,
                           const int wide)
{
    const size_t node = fwd_upper(a, L, i, M, wide);
    leaves(a, L, node, M, t, 0, wide);
}

NTT_INLINE void inv_smallv(uint64_t *a, size_t L, size_t i, const mod_u64 *M, const int t,
                           const int wide)
{
    leaves(a, L, i * (L / 64), M, t, 1, wide);
    inv_upper(a, L, i, M, wide);
}

/* a's forward subtree first (transposed leaves), then b's, the product and
   b's inverse leaf by leaf. */
NTT_INLINE void mul_smallv(uint64_t *b, uint64_t *a, size_t L, size_t i, const mod_u64 *M,
                           const int wide)
{
    fwd_smallv(a, L, i, M, 0, wide);
    const size_t nd = fwd_upper(b, L, i, M, wide);
    const icst C = icst_of(M);
    for (size_t g = 0; g < L / 64; g++) {
        uint64_t *x = b + 64 * g;
        const uint64_t *y = a + 64 * g;
        V v[8];
        UNROLL for (int k = 0; k < 8; k++) v[k] = vld(x + 8 * k);
        fwdleaf(v, nd + g, M, &C, wide);
        UNROLL for (int k = 0; k < 8; k++)
            v[k] = mul2(full(v[k], &C, wide), vcsub(vld(y + 8 * k), C.p2), &C);
        invleaf(v, nd + g, M, &C, wide);
        UNROLL for (int k = 0; k < 8; k++) vst(x + 8 * k, v[k]);
    }
    inv_upper(b, L, i, M, wide);
}

/* ---- products, reduction, root ---- */

/* Lazy: forward values in -> a b mod p in [0, 2p). */
NTT_INLINE void pointwisev(uint64_t *c, const uint64_t *a, const uint64_t *b, size_t len,
                           const mod_u64 *M, const int wide)
{
    const icst C = icst_of(M);
    for (size_t j = 0; j < len; j += 8) {
        const __mmask8 k = tail(j, len);
        const V x = full(_mm512_maskz_loadu_epi64(k, a + j), &C, wide);
        V y = _mm512_maskz_loadu_epi64(k, b + j);
        if (!wide) y = vcsub(y, C.p2);
        _mm512_mask_storeu_epi64(c + j, k, mul2(x, y, &C));
    }
}

/* Public values in and out. */
static void ipointwise_full(uint64_t *c, const uint64_t *a, const uint64_t *b, size_t len,
                            const mod_u64 *M)
{
    const icst C = icst_of(M);
    size_t j = 0;
    for (; j + 16 <= len; j += 16) {
        const V x0 = vld(a + j), y0 = vld(b + j), x1 = vld(a + j + 8), y1 = vld(b + j + 8);
        vst(c + j, vcsub(mul2(x0, y0, &C), C.p));
        vst(c + j + 8, vcsub(mul2(x1, y1, &C), C.p));
    }
    for (; j < len; j += 8) {
        const __mmask8 k = tail(j, len);
        const V x = _mm512_maskz_loadu_epi64(k, a + j), y = _mm512_maskz_loadu_epi64(k, b + j);
        _mm512_mask_storeu_epi64(c + j, k, vcsub(mul2(x, y, &C), C.p));
    }
}

NTT_INLINE void reducev(uint64_t *a, size_t len, const mod_u64 *M, const int wide)
{
    const icst C = icst_of(M);
    for (size_t j = 0; j < len; j += 8) {
        const __mmask8 k = tail(j, len);
        _mm512_mask_storeu_epi64(a + j, k, full(_mm512_maskz_loadu_epi64(k, a + j), &C, wide));
    }
}

/* x in [0, 2p) -> x s mod p in [0, p). */
NTT_INLINE V scale(V x, itw S, const icst *C) { return vcsub(mulw(x, S.w, S.q, C), C->p); }

/* See kern.inv_root: inverse values in [0, 2p), the output uint64_t. */
NTT_INLINE void inv_rootv(uint64_t *a, void *outv, size_t n, size_t lc, size_t j0, size_t j1,
                          tw_u64 s, tw_u64 s1, const mod_u64 *M, const int wide)
{
    const icst C = icst_of(M);
    uint64_t *out = outv;
    const itw S = {v1(s.w), v1(s.x)}, S1 = {v1(s1.w), v1(s1.x)};
    const size_t e = j1 < lc ? j1 : lc; /* positions of the lowest part written */
    if (ntt_log2(n) & 1) {
        const size_t h = n / 2;
        for (size_t j = j0; j < e; j += 8) {
            const __mmask8 k = tail(j, e), k1 = j + h < lc ? k & tail(j + h, lc) : 0;
            const V x = _mm512_maskz_loadu_epi64(k, a + j), y = _mm512_maskz_loadu_epi64(k, a + j + h);
            V d = vadd(vsub(x, y), C.p2);
            if (wide) d = vcsub(d, C.p2);
            _mm512_mask_storeu_epi64(out + j, k, scale(vcsub(vadd(x, y), C.p2), S, &C));
            _mm512_mask_storeu_epi64(out + j + h, k1, scale(d, S1, &C));
        }
        return;
    }
    const size_t q = n / 4;
    const itw w2 = tw_bcast(M->iw, M->iwx, 2), w3 = tw_bcast(M->iw, M->iwx, 3);
    for (size_t j = j0; j < e; j += 8) {
        const __mmask8 k = tail(j, e);
        V x0 = _mm512_maskz_loadu_epi64(k, a + j), x1 = _mm512_maskz_loadu_epi64(k, a + j + q);
        V x2 = _mm512_maskz_loadu_epi64(k, a + j + 2 * q), x3 = _mm512_maskz_loadu_epi64(k, a + j + 3 * q);
        gs(&x0, &x1, w2, &C, wide);
        gs(&x2, &x3, w3, &C, wide);
        V d0 = vadd(vsub(x0, x2), C.p2), d1 = vadd(vsub(x1, x3), C.p2);
        if (wide) {
            d0 = vcsub(d0, C.p2);
            d1 = vcsub(d1, C.p2);
        }
        const __mmask8 k1 = j + q < lc ? k & tail(j + q, lc) : 0;
        const __mmask8 k2 = j + 2 * q < lc ? k & tail(j + 2 * q, lc) : 0;
        const __mmask8 k3 = j + 3 * q < lc ? k & tail(j + 3 * q, lc) : 0;
        _mm512_mask_storeu_epi64(out + j, k, scale(vcsub(vadd(x0, x2), C.p2), S, &C));
        _mm512_mask_storeu_epi64(out + j + q, k1, scale(vcsub(vadd(x1, x3), C.p2), S, &C));
        _mm512_mask_storeu_epi64(out + j + 2 * q, k2, scale(d0, S1, &C));
        _mm512_mask_storeu_epi64(out + j + 3 * q, k3, scale(d1, S1, &C));
    }
}

/* Tables: 52-bit Shoup companions, regrouped for 8-lane leaves.  The
   products leave no factor, so the scales are the inverse's; fix, the
   inverse of the factor 2^-52 that mul2's Montgomery step leaves, is
   2^52 mod p. */
static void iarrange(mod_u64 *M, size_t n)
{
    const uint64_t p = M->c.p, r = ((uint64_t)1 << 52) % p;
    M->fix.w = r;
    M->fix.x = (uint64_t)(((unsigned __int128)r << 52) / p);
    M->one.x >>= 12;
    for (size_t i = 1; i < n; i++) {
        M->fwx[i] >>= 12;
        M->iwx[i] >>= 12;
    }
    ntt_cpu_regroup(M->fw, sizeof *M->fw, n, 8);
    ntt_cpu_regroup(M->fwx, sizeof *M->fwx, n, 8);
    ntt_cpu_regroup(M->iw, sizeof *M->iw, n, 8);
    ntt_cpu_regroup(M->iwx, sizeof *M->iwx, n, 8);
    M->s_inv.x >>= 12;
    M->s1_inv.x >>= 12;
    M->s_mul = M->s_inv;
    M->s1_mul = M->s1_inv;
}

/* One kernel table per lazy range. */
#define IFMA_KERNELS(NAME, WIDE)                                                              \
    static void NAME##fwd4(uint64_t *a, size_t q, size_t c, size_t i, const mod_u64 *M)       \
    { lvl4(a, q, c, i, M, 0, WIDE); }                                                         \
    static void NAME##inv4(uint64_t *a, size_t q, size_t c, size_t i, const mod_u64 *M)       \
    { lvl4(a, q, c, i, M, 1, WIDE); }                                                         \
    static void NAME##fwd2(uint64_t *a, size_t h, size_t c, size_t i, const mod_u64 *M)       \
    { lvl2(a, h, c, i, M, 0, WIDE); }                                                         \
    static void NAME##inv2(uint64_t *a, size_t h, size_t c, size_t i, const mod_u64 *M)       \
    { lvl2(a, h, c, i, M, 1, WIDE); }                                                         \
    static void NAME##fwd_small(uint64_t *a, size_t L, size_t i, const mod_u64 *M)            \
    { fwd_smallv(a, L, i, M, 1, WIDE); }                                                      \
    static void NAME##fwd_small_p(uint64_t *a, size_t L, size_t i, const mod_u64 *M)          \
    { fwd_smallv(a, L, i, M, 0, WIDE); }                                                      \
    static void NAME##inv_small(uint64_t *a, size_t L, size_t i, const mod_u64 *M)            \
    { inv_smallv(a, L, i, M, 1, WIDE); }                                                      \
    static void NAME##inv_small_p(uint64_t *a, size_t L, size_t i, const mod_u64 *M)          \
    { inv_smallv(a, L, i, M, 0, WIDE); }                                                      \
    static void NAME##mul_small(uint64_t *b, uint64_t *a, size_t L, size_t i, const mod_u64 *M) \
    { mul_smallv(b, a, L, i, M, WIDE); }                                                      \
    static void NAME##pointwise(uint64_t *c, const uint64_t *a, const uint64_t *b, size_t len, \
                                const mod_u64 *M)                                             \
    { pointwisev(c, a, b, len, M, WIDE); }                                                    \
    static void NAME##reduce(uint64_t *a, size_t len, const mod_u64 *M)                       \
    { reducev(a, len, M, WIDE); }                                                             \
    static void NAME##inv_root(uint64_t *a, void *out, size_t n, size_t lc, size_t j0,        \
                               size_t j1, tw_u64 s, tw_u64 s1, const mod_u64 *M)              \
    { inv_rootv(a, out, n, lc, j0, j1, s, s1, M, WIDE); }                                     \
    static const kern_u64 NAME##kernels = {                                                   \
        .block = 2048,                                                                        \
        .fwd4 = NAME##fwd4,                                                                   \
        .fwd4one = NAME##fwd4,                                                                \
        .fwd2 = NAME##fwd2,                                                                   \
        .inv2 = NAME##inv2,                                                                   \
        .fwd_small = NAME##fwd_small,                                                         \
        .fwd_small_p = NAME##fwd_small_p,                                                     \
        .inv4 = NAME##inv4,                                                                   \
        .inv4one = NAME##inv4,                                                                \
        .inv_small = NAME##inv_small,                                                         \
        .inv_small_p = NAME##inv_small_p,                                                     \
        .inv_root = NAME##inv_root,                                                           \
        .inv_root64 = NAME##inv_root,                                                         \
        .mul_small = NAME##mul_small,                                                         \
        .pointwise = NAME##pointwise,                                                         \
        .pointwise_full = ipointwise_full,                                                    \
        .reduce = NAME##reduce,                                                               \
        .arrange = iarrange,                                                                  \
        .min_n = 256};

IFMA_KERNELS(narrow_, 0)
IFMA_KERNELS(wide_, 1)

bool ntt_ifma_available(void)
{
    return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512vl") &&
           __builtin_cpu_supports("avx512bw") && __builtin_cpu_supports("avx512dq") &&
           __builtin_cpu_supports("avx512ifma");
}

const kern_u64 *ntt_ifma_kernels_u64(const ntt_plan *plan, const ntt_modulus *m)
{
    if (plan->modmul != NTT_MODMUL_SHOUP || m->p >> 51 || !ntt_cpu_ifma_enabled() ||
        !ntt_ifma_available())
        return NULL;
    return m->p >> 50 ? &wide_kernels : &narrow_kernels;
}
