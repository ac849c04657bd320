/*
 * TEMPLATE kernels_f64.tmpl.h, instantiated once per ISA by avx2.c and
 * avx512.c.
 *
 * Expects  X86_AVX512   1 to add the 8-lane widths, else 0;
 *          vec.h and <string.h> included.
 * Defines  kernels_f64_4 and, with X86_AVX512, kernels_f64_8: static
 *          kern_u64 tables; the d* helpers below (static); instantiates
 *          lanes_f64.tmpl.h once per width (f64x4_*, f64x8_*); leaves
 *          defined the macros F64_WIDE, F64_LEAF, F64_LEAVES.
 *
 * The u64 kernels for primes
 * p < 2^51 (the 50-bit course modulus 1337006139375617 is one), as FLINT's
 * fft_small does: doubles holding exact integers, signed and lazy, with
 * FMA.
 *
 * Multiplication by a twiddle w (stored centred, |w| <= p/2, with
 * w' = fl(w/p)): h = fl(y w) and l = y w - h exactly (one FMA), the
 * quotient q = round(fl(y w')), and r = (h - q p) + l, both steps exact
 * because the results are integers below 2^53.  With |y| <= 4p the error of
 * fl(y w') against y w/p is at most p 2^-51 <= 1, so |r| <= 1.5p.
 * Reduction of a value x, |x| <= 4p: x - p round(fl(x fl(1/p))), in
 * [-p/2 - 1, p/2 + 1].
 *
 * Invariant: every value between passes has |v| <= 2p.  A Cooley-Tukey
 * butterfly adds / subtracts t = w y to x, reducing x first on every second
 * level: (|x| <= 2p, |y| <= 2p) gives |t| <= p and outputs <= 3p, and the
 * next level (x reduced, |y| <= 3p) gives |t| <= 1.25p and outputs <= 2p
 * again.  A Gentleman-Sande butterfly reduces x + y and multiplies x - y.  The
 * arrays are uint64_t; inside a transform their words hold the doubles'
 * bits (to_internal converts, reduce and inv_root convert back).
 *
 * The butterflies, the wide levels and the leaves (lanes_f64.tmpl.h) run on
 * 4 lanes and, in the AVX-512 unit, on 8 (the wide levels wherever their
 * count of positions allows, 8-lane leaves from n = 256 on).  The last four
 * levels of every 16-element block (six of every 64-element one on 8
 * lanes) run in registers: the levels that pair whole vectors first, then
 * a transpose makes the rest pair whole vectors too (arrange() regroups
 * their twiddles so that each such vector pair reads one load).  The first
 * and last passes of a product (load_top, inv_root) stay on 4 lanes.  Other
 * moduli and kinds run the scalar u64 kernels.
 */

NTT_INLINE double dbits(uint64_t u)
{
    double d;
    memcpy(&d, &u, sizeof d);
    return d;
}

NTT_INLINE uint64_t dword(double d)
{
    uint64_t u;
    memcpy(&u, &d, sizeof u);
    return u;
}

/* The butterflies, wide levels and leaves on each vector width. */
#define VEC f64x4
#define VEC_LANES 4
#include "lanes_f64.tmpl.h"
#if X86_AVX512
#define VEC f64x8
#define VEC_LANES 8
#include "lanes_f64.tmpl.h"
#endif

/* F64_WIDE(f, cnt, ...) calls the widest f of lanes_f64.tmpl.h whose lanes
   divide cnt; F64_LEAF(lanes, f, ...) the f of leaves of that many lanes
   (4, or 8 in the AVX-512 unit). */
#if X86_AVX512
#define F64_WIDE(f, cnt, ...) ((cnt) % 8 == 0 ? f64x8_##f(__VA_ARGS__) : f64x4_##f(__VA_ARGS__))
#define F64_LEAF(lanes, f, ...) ((lanes) == 8 ? f64x8_##f(__VA_ARGS__) : f64x4_##f(__VA_ARGS__))
#else
#define F64_WIDE(f, cnt, ...) f64x4_##f(__VA_ARGS__)
#define F64_LEAF(lanes, f, ...) f64x4_##f(__VA_ARGS__)
#endif

/* |x| <= 4p -> [0, p). */
NTT_INLINE f64x4 dfull(f64x4 x, f64x4_cst C)
{
    const f64x4 r = f64x4_red(x, C);
    return f64x4_add(r, _mm256_and_pd(_mm256_cmp_pd(r, _mm256_setzero_pd(), _CMP_LT_OQ), C.p));
}

/* Integers in [0, 2^52) <-> doubles, through the bits of 2^52 + x. */
NTT_INLINE f64x4 from_u64(u64x4 x)
{
    const u64x4 magic = _mm256_set1_epi64x(0x4330000000000000ll);
    return f64x4_sub(_mm256_castsi256_pd(_mm256_or_si256(x, magic)), _mm256_castsi256_pd(magic));
}

NTT_INLINE u64x4 to_u64(f64x4 x)
{
    const f64x4 magic = _mm256_set1_pd(4503599627370496.0);
    return _mm256_xor_si256(_mm256_castpd_si256(f64x4_add(x, magic)), _mm256_castpd_si256(magic));
}

/* Levels of subtree i above its leaf blocks (lanes^2 elements, L >=
   lanes^2); returns the node of the first block. */
NTT_INLINE size_t dfwd_upper(uint64_t *a, size_t L, size_t i, const mod_u64 *M, const size_t lanes)
{
    size_t len = L, node = i;
    if (ntt_log2(L) & 1) {
        F64_WIDE(fwd2, L / 2, a, L / 2, L / 2, i, M);
        len = L / 2;
        node = 2 * i;
    }
    for (; len > lanes * lanes; len >>= 2, node <<= 2)
        for (size_t g = 0; g < L / len; g++) F64_WIDE(fwd4, len / 4, a + g * len, len / 4, len / 4, node + g, M);
    return node;
}

NTT_INLINE void dinv_upper(uint64_t *a, size_t L, size_t i, const mod_u64 *M, const size_t lanes)
{
    size_t len = 4 * lanes * lanes;
    for (; len <= L; len <<= 2)
        for (size_t g = 0; g < L / len; g++)
            F64_WIDE(inv4, len / 4, a + g * len, len / 4, len / 4, i * (L / len) + g, M);
    if (len / 4 != L) F64_WIDE(inv2, L / 2, a, L / 2, L / 2, i, M);
}

NTT_INLINE void dfwd_smallv(uint64_t *a, size_t L, size_t i, const mod_u64 *M, const int t,
                            const size_t lanes)
{
    const size_t node = dfwd_upper(a, L, i, M, lanes);
    F64_LEAF(lanes, fwd_leaves, a, L, node, M, t);
}

NTT_INLINE void dinv_smallv(uint64_t *a, size_t L, size_t i, const mod_u64 *M, const int t,
                            const size_t lanes)
{
    F64_LEAF(lanes, inv_leaves, a, L, i * (L / (lanes * lanes)), M, t);
    dinv_upper(a, L, i, M, lanes);
}

/* a's whole forward subtree first (transposed leaves), then b's, the
   product and b's inverse leaf by leaf. */
NTT_INLINE void dmul_smallv(uint64_t *b, uint64_t *a, size_t L, size_t i, const mod_u64 *M,
                            const size_t lanes)
{
    dfwd_smallv(a, L, i, M, 0, lanes);
    const size_t node = dfwd_upper(b, L, i, M, lanes);
    F64_LEAF(lanes, mul_leaves, b, a, L, node, M);
    dinv_upper(b, L, i, M, lanes);
}

/* ---- conversions, products, root ---- */

static void dto_internal(uint64_t *a, size_t len, const mod_u64 *M)
{
    (void)M;
    size_t j = 0;
    for (; j + 4 <= len; j += 4) f64x4_store(a + j, from_u64(u64x4_load(a + j)));
    for (; j < len; j++) a[j] = dword((double)a[j]);
}

/* Four lanes at a + j, the ones past len as zero, and their store. */
NTT_INLINE u64x4 dmask(size_t j, size_t len)
{
    const u64x4 idx = _mm256_add_epi64(_mm256_set1_epi64x((long long)j), _mm256_setr_epi64x(0, 1, 2, 3));
    return _mm256_cmpgt_epi64(_mm256_set1_epi64x((long long)len), idx);
}

static void dreduce(uint64_t *a, size_t len, const mod_u64 *M)
{
    const f64x4_cst C = f64x4_cst_of(M);
    size_t j = 0;
    for (; j + 4 <= len; j += 4) u64x4_store(a + j, to_u64(dfull(f64x4_load(a + j), C)));
    for (; j < len; j += 4) {
        const u64x4 m = dmask(j, len);
        const f64x4 x = _mm256_maskload_pd((const double *)(a + j), m);
        _mm256_maskstore_epi64((long long *)(a + j), m, to_u64(dfull(x, C)));
    }
}

static void dpointwise(uint64_t *c, const uint64_t *a, const uint64_t *b, size_t len,
                       const mod_u64 *M)
{
    const f64x4_cst C = f64x4_cst_of(M);
    for (size_t j = 0; j < len; j += 4) {
        const u64x4 m = dmask(j, len);
        const f64x4 x = _mm256_maskload_pd((const double *)(a + j), m);
        const f64x4 y = _mm256_maskload_pd((const double *)(b + j), m);
        _mm256_maskstore_pd((double *)(c + j), m, f64x4_mul2(x, y, C));
    }
}

/* Public values in and out. */
static void dpointwise_full(uint64_t *c, const uint64_t *a, const uint64_t *b, size_t len,
                            const mod_u64 *M)
{
    const f64x4_cst C = f64x4_cst_of(M);
    for (size_t j = 0; j < len; j += 4) {
        const u64x4 m = dmask(j, len);
        const f64x4 x = from_u64(_mm256_maskload_epi64((const long long *)(a + j), m));
        const f64x4 y = from_u64(_mm256_maskload_epi64((const long long *)(b + j), m));
        _mm256_maskstore_epi64((long long *)(c + j), m, to_u64(dfull(f64x4_mul2(x, y, C), C)));
    }
}

/* out[j .. j+4) <- v in the lanes of m0 below lc, the end of the caller's
   array.  Past it lies memory that may be unmapped, and on AMD Zen a
   masked store into an unmapped page takes a microcode assist even with
   every lane off, which slowed every product whose length is no power of
   two: no store at all there. */
NTT_INLINE void dput(uint64_t *out, size_t j, size_t lc, u64x4 m0, u64x4 v)
{
    if (j < lc) _mm256_maskstore_epi64((long long *)(out + j), _mm256_and_si256(m0, dmask(j, lc)), v);
}

/* See kern.inv_root; the output is always uint64_t here.  Outputs past lc
   are masked off lane by lane. */
static void dinv_root(uint64_t *a, void *outv, size_t n, size_t lc, size_t j0, size_t j1,
                      tw_u64 s, tw_u64 s1, const mod_u64 *M)
{
    const f64x4_cst C = f64x4_cst_of(M);
    uint64_t *out = outv;
    const f64x4 S = _mm256_set1_pd(dbits(s.w)), Sq = _mm256_set1_pd(dbits(s.x));
    const f64x4 S1 = _mm256_set1_pd(dbits(s1.w)), S1q = _mm256_set1_pd(dbits(s1.x));
    if (ntt_log2(n) & 1) {
        const size_t h = n / 2;
        size_t j = j0;
        for (; j + 4 <= j1 && j + h + 4 <= lc; j += 4) {
            const f64x4 x = f64x4_load(a + j), y = f64x4_load(a + j + h);
            u64x4_store(out + j, to_u64(dfull(f64x4_mulw(f64x4_add(x, y), S, Sq, C), C)));
            u64x4_store(out + j + h, to_u64(dfull(f64x4_mulw(f64x4_sub(x, y), S1, S1q, C), C)));
        }
        for (; j < (j1 < lc ? j1 : lc); j += 4) {
            const u64x4 m0 = dmask(j, j1 < lc ? j1 : lc);
            const f64x4 x = _mm256_maskload_pd((const double *)(a + j), m0);
            const f64x4 y = _mm256_maskload_pd((const double *)(a + j + h), m0);
            _mm256_maskstore_epi64((long long *)(out + j), m0,
                                   to_u64(dfull(f64x4_mulw(f64x4_add(x, y), S, Sq, C), C)));
            dput(out, j + h, lc, m0, to_u64(dfull(f64x4_mulw(f64x4_sub(x, y), S1, S1q, C), C)));
        }
        return;
    }
    const size_t q = n / 4;
    const f64x4_tw w2 = f64x4_tw_bcast(M->iw, M->iwx, 2), w3 = f64x4_tw_bcast(M->iw, M->iwx, 3);
    size_t j = j0;
    for (; j + 4 <= j1 && j + 3 * q + 4 <= lc; j += 4) {
        f64x4 x0 = f64x4_load(a + j), x1 = f64x4_load(a + j + q), x2 = f64x4_load(a + j + 2 * q), x3 = f64x4_load(a + j + 3 * q);
        f64x4_gs(&x0, &x1, w2, C);
        f64x4_gs(&x2, &x3, w3, C);
        u64x4_store(out + j, to_u64(dfull(f64x4_mulw(f64x4_add(x0, x2), S, Sq, C), C)));
        u64x4_store(out + j + q, to_u64(dfull(f64x4_mulw(f64x4_add(x1, x3), S, Sq, C), C)));
        u64x4_store(out + j + 2 * q, to_u64(dfull(f64x4_mulw(f64x4_sub(x0, x2), S1, S1q, C), C)));
        u64x4_store(out + j + 3 * q, to_u64(dfull(f64x4_mulw(f64x4_sub(x1, x3), S1, S1q, C), C)));
    }
    for (; j < (j1 < lc ? j1 : lc); j += 4) {
        const u64x4 m0 = dmask(j, j1 < lc ? j1 : lc);
        f64x4 x0 = _mm256_maskload_pd((const double *)(a + j), m0);
        f64x4 x1 = _mm256_maskload_pd((const double *)(a + j + q), m0);
        f64x4 x2 = _mm256_maskload_pd((const double *)(a + j + 2 * q), m0);
        f64x4 x3 = _mm256_maskload_pd((const double *)(a + j + 3 * q), m0);
        f64x4_gs(&x0, &x1, w2, C);
        f64x4_gs(&x2, &x3, w3, C);
        _mm256_maskstore_epi64((long long *)(out + j), m0,
                               to_u64(dfull(f64x4_mulw(f64x4_add(x0, x2), S, Sq, C), C)));
        dput(out, j + q, lc, m0, to_u64(dfull(f64x4_mulw(f64x4_add(x1, x3), S, Sq, C), C)));
        dput(out, j + 2 * q, lc, m0, to_u64(dfull(f64x4_mulw(f64x4_sub(x0, x2), S1, S1q, C), C)));
        dput(out, j + 3 * q, lc, m0, to_u64(dfull(f64x4_mulw(f64x4_sub(x1, x3), S1, S1q, C), C)));
    }
}

/* Loads 4 sources (positions j .. j+3 below len, else 0; see prefetch_src)
   as doubles; bad collects the lanes >= p (lim: u64x4_geq_lim).  Past len
   nothing is read (see dput). */
NTT_INLINE f64x4 dload_src(const uint64_t *s, size_t j, size_t len, u64x4 lim, u64x4 *bad)
{
    if (j >= len) return _mm256_setzero_pd();
    prefetch_src(s, true, j);
    const u64x4 x = _mm256_maskload_epi64((const long long *)(s + j), dmask(j, len));
    *bad = _mm256_or_si256(*bad, u64x4_geq(x, lim));
    return from_u64(x);
}

/* kern.load_top for len <= n/2 (else the generic one): the copy into both
   halves, the conversion and, when log2 n is even, the level of nodes 2
   and 3, in one pass, with the range check. */
static bool dload_top(uint64_t *dst, const void *src, bool src64, size_t len, size_t n,
                      size_t j0, size_t j1, const mod_u64 *M)
{
    /* src64 or not, a u64 plan reads uint64_t. */
    if (len > n / 2) return ntt_cpu_load_top_u64(dst, src, src64, len, n, j0, j1, M);
    const uint64_t *s = src;
    const size_t h = n / 2;
    const u64x4 lim = u64x4_geq_lim(M->c.p);
    u64x4 bad = _mm256_setzero_si256();
    if (ntt_log2(n) & 1) {
        for (size_t j = j0; j < j1; j += 4) {
            const f64x4 x = dload_src(s, j, len, lim, &bad);
            f64x4_store(dst + j, x);
            f64x4_store(dst + h + j, x);
        }
        return !_mm256_testz_si256(bad, bad);
    }
    const f64x4_cst C = f64x4_cst_of(M);
    const size_t q = n / 4;
    const f64x4_tw w2 = f64x4_tw_bcast(M->fw, M->fwx, 2), w3 = f64x4_tw_bcast(M->fw, M->fwx, 3);
    for (size_t j = j0; j < j1; j += 4) {
        const f64x4 x = dload_src(s, j, len, lim, &bad);
        const f64x4 y = dload_src(s, q + j, len, lim, &bad);
        f64x4 x0 = x, y0 = y, x1 = x, y1 = y;
        f64x4_ct(&x0, &y0, w2, C, 0);
        f64x4_ct(&x1, &y1, w3, C, 0);
        f64x4_store(dst + j, x0);
        f64x4_store(dst + q + j, y0);
        f64x4_store(dst + h + j, x1);
        f64x4_store(dst + h + q + j, y1);
    }
    return !_mm256_testz_si256(bad, bad);
}

/* Twiddle w in [0, p) -> the bits of centred w and of fl(w/p). */
static void dtw_convert(uint64_t *w, uint64_t *x, uint64_t p)
{
    const double c = (double)(*w > p / 2 ? (int64_t)(*w - p) : (int64_t)*w);
    *w = dword(c);
    *x = dword(c / (double)p);
}

/* Tables to doubles, regrouped for leaves of `lanes` lanes (see ntt_cpu_regroup);
   the scale constants without the Montgomery factor (dmul2 leaves none). */
static void darrange_v(mod_u64 *M, size_t n, size_t lanes)
{
    const uint64_t p = M->c.p;
    for (size_t i = 1; i < n; i++) {
        dtw_convert(&M->fw[i], &M->fwx[i], p);
        dtw_convert(&M->iw[i], &M->iwx[i], p);
    }
    ntt_cpu_regroup(M->fw, sizeof *M->fw, n, lanes);
    ntt_cpu_regroup(M->fwx, sizeof *M->fwx, n, lanes);
    ntt_cpu_regroup(M->iw, sizeof *M->iw, n, lanes);
    ntt_cpu_regroup(M->iwx, sizeof *M->iwx, n, lanes);
    dtw_convert(&M->s_inv.w, &M->s_inv.x, p);
    dtw_convert(&M->s1_inv.w, &M->s1_inv.x, p);
    M->s_mul = M->s_inv;
    M->s1_mul = M->s1_inv;
}

static void dfwd4w(uint64_t *a, size_t q, size_t c, size_t i, const mod_u64 *M)
{ F64_WIDE(fwd4, c, a, q, c, i, M); }
static void dinv4w(uint64_t *a, size_t q, size_t c, size_t i, const mod_u64 *M)
{ F64_WIDE(inv4, c, a, q, c, i, M); }
static void dfwd2w(uint64_t *a, size_t h, size_t c, size_t i, const mod_u64 *M)
{ F64_WIDE(fwd2, c, a, h, c, i, M); }
static void dinv2w(uint64_t *a, size_t h, size_t c, size_t i, const mod_u64 *M)
{ F64_WIDE(inv2, c, a, h, c, i, M); }

/* Shoup, u64, p < 2^51 (see the top of this file), with leaves of LV
   lanes.  min_n: the product's subtrees below its root levels (n/4) hold
   whole leaf blocks. */
#define F64_LEAVES(LV)                                                                      \
    static void dfwd_small##LV(uint64_t *a, size_t L, size_t i, const mod_u64 *M)           \
    { dfwd_smallv(a, L, i, M, 1, LV); }                                                     \
    static void dfwd_small_p##LV(uint64_t *a, size_t L, size_t i, const mod_u64 *M)         \
    { dfwd_smallv(a, L, i, M, 0, LV); }                                                     \
    static void dinv_small##LV(uint64_t *a, size_t L, size_t i, const mod_u64 *M)           \
    { dinv_smallv(a, L, i, M, 1, LV); }                                                     \
    static void dinv_small_p##LV(uint64_t *a, size_t L, size_t i, const mod_u64 *M)         \
    { dinv_smallv(a, L, i, M, 0, LV); }                                                     \
    static void dmul_small##LV(uint64_t *b, uint64_t *a, size_t L, size_t i, const mod_u64 *M) \
    { dmul_smallv(b, a, L, i, M, LV); }                                                     \
    static void darrange##LV(mod_u64 *M, size_t n) { darrange_v(M, n, LV); }                \
    static const kern_u64 kernels_f64_##LV = {                                              \
        .block = 2048,                                                                      \
        .fwd4 = dfwd4w,                                                                     \
        .fwd4one = dfwd4w,                                                                  \
        .fwd2 = dfwd2w,                                                                     \
        .inv2 = dinv2w,                                                                     \
        .fwd_small = dfwd_small##LV,                                                        \
        .fwd_small_p = dfwd_small_p##LV,                                                    \
        .inv4 = dinv4w,                                                                     \
        .inv4one = dinv4w,                                                                  \
        .inv_small = dinv_small##LV,                                                        \
        .inv_small_p = dinv_small_p##LV,                                                    \
        .inv_root = dinv_root,                                                              \
        .inv_root64 = dinv_root,                                                            \
        .mul_small = dmul_small##LV,                                                        \
        .load_top = dload_top,                                                              \
        .pointwise = dpointwise,                                                            \
        .pointwise_full = dpointwise_full,                                                  \
        .reduce = dreduce,                                                                  \
        .to_internal = dto_internal,                                                        \
        .arrange = darrange##LV,                                                            \
        .min_n = 4 * LV * LV,                                                               \
        .name = "fp64x" #LV};

F64_LEAVES(4)
#if X86_AVX512
F64_LEAVES(8)
#endif
