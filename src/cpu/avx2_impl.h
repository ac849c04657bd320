/*
 * The AVX2 backend's u64 kernels, included by avx2.c (so compiled with its
 * flags only).  Technique: double-precision FMA, for primes p < 2^51 (the
 * 50-bit course modulus 1337006139375617 is one), as FLINT's fft_small
 * does: 4 lanes of doubles holding exact integers, signed and lazy.
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
 * The butterflies, the wide levels and the leaves are in avx2_f64.h, built
 * for 4 lanes and, in the AVX-512 build, for 8 (the wide levels wherever
 * their count of positions allows, 8-lane leaves from n = 256 on).  The
 * last four levels of every 16-element block (six of every 64-element one
 * on 8 lanes) run in registers: the levels that pair whole vectors first,
 * then a transpose makes the rest pair whole vectors too (arrange()
 * regroups their twiddles so that each such vector pair reads one load).
 * The first and last passes of a product (load_top, inv_root) stay on 4
 * lanes.  Other moduli and kinds run the scalar u64 kernels.
 */

typedef __m256d D;

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

#define DLD(p) _mm256_loadu_pd((const double *)(p))
#define DST(p, v) _mm256_storeu_pd((double *)(p), (v))

/* See avx2_f64.h. */
#define DI(op) VCAT(_mm, DW, _##op)
#define DS(name) VCAT(name, DSFX, )

#define DW 256
#define DT D
#define DLANES 4
#define DSFX
#include "avx2_f64.h"

#ifdef NTT_AVX512
#define DW 512
#define DT __m512d
#define DLANES 8
#define DSFX 8
#include "avx2_f64.h"
/* The wide levels on 8 lanes where cnt allows; leaves of 4 or 8 lanes. */
#define DWIDE(f, cnt, ...) ((cnt) % 8 == 0 ? f##8(__VA_ARGS__) : f(__VA_ARGS__))
#define DLEAF(lanes, f, ...) ((lanes) == 8 ? f##8(__VA_ARGS__) : f(__VA_ARGS__))
#else
#define DWIDE(f, cnt, ...) f(__VA_ARGS__)
#define DLEAF(lanes, f, ...) f(__VA_ARGS__)
#endif

/* |x| <= 4p -> [0, p). */
NTT_INLINE D dfull(D x, dcst C)
{
    const D r = dred(x, C);
    return _mm256_add_pd(r, _mm256_and_pd(_mm256_cmp_pd(r, _mm256_setzero_pd(), _CMP_LT_OQ), C.p));
}

/* Integers in [0, 2^52) <-> doubles, through the bits of 2^52 + x. */
NTT_INLINE D from_u64(V x)
{
    const V magic = _mm256_set1_epi64x(0x4330000000000000ll);
    return _mm256_sub_pd(_mm256_castsi256_pd(_mm256_or_si256(x, magic)), _mm256_castsi256_pd(magic));
}

NTT_INLINE V to_u64(D x)
{
    const D magic = _mm256_set1_pd(4503599627370496.0);
    return _mm256_xor_si256(_mm256_castpd_si256(_mm256_add_pd(x, magic)), _mm256_castpd_si256(magic));
}

/* Levels of subtree i above its leaf blocks (lanes^2 elements, L >=
   lanes^2); returns the node of the first block. */
NTT_INLINE size_t dfwd_upper(uint64_t *a, size_t L, size_t i, const mod_u64 *M, const size_t lanes)
{
    size_t len = L, node = i;
    if (ntt_log2(L) & 1) {
        DWIDE(dfwd2, L / 2, a, L / 2, L / 2, i, M);
        len = L / 2;
        node = 2 * i;
    }
    for (; len > lanes * lanes; len >>= 2, node <<= 2)
        for (size_t g = 0; g < L / len; g++) DWIDE(dfwd4, len / 4, a + g * len, len / 4, len / 4, node + g, M);
    return node;
}

NTT_INLINE void dinv_upper(uint64_t *a, size_t L, size_t i, const mod_u64 *M, const size_t lanes)
{
    size_t len = 4 * lanes * lanes;
    for (; len <= L; len <<= 2)
        for (size_t g = 0; g < L / len; g++)
            DWIDE(dinv4, len / 4, a + g * len, len / 4, len / 4, i * (L / len) + g, M);
    if (len / 4 != L) DWIDE(dinv2, L / 2, a, L / 2, L / 2, i, M);
}

NTT_INLINE void dfwd_smallv(uint64_t *a, size_t L, size_t i, const mod_u64 *M, const int t,
                            const size_t lanes)
{
    const size_t node = dfwd_upper(a, L, i, M, lanes);
    DLEAF(lanes, dfwd_leaves, a, L, node, M, t);
}

NTT_INLINE void dinv_smallv(uint64_t *a, size_t L, size_t i, const mod_u64 *M, const int t,
                            const size_t lanes)
{
    DLEAF(lanes, dinv_leaves, a, L, i * (L / (lanes * lanes)), M, t);
    dinv_upper(a, L, i, M, lanes);
}

/* a's whole forward subtree first (transposed leaves), then b's, the
   product and b's inverse leaf by leaf. */
NTT_INLINE void dmul_smallv(uint64_t *b, uint64_t *a, size_t L, size_t i, const mod_u64 *M,
                            const size_t lanes)
{
    dfwd_smallv(a, L, i, M, 0, lanes);
    const size_t node = dfwd_upper(b, L, i, M, lanes);
    DLEAF(lanes, dmul_leaves, b, a, L, node, M);
    dinv_upper(b, L, i, M, lanes);
}

/* ---- conversions, products, root ---- */

static void dto_internal(uint64_t *a, size_t len, const mod_u64 *M)
{
    (void)M;
    size_t j = 0;
    for (; j + 4 <= len; j += 4) DST(a + j, from_u64(LD(a + j)));
    for (; j < len; j++) a[j] = dword((double)a[j]);
}

/* Four lanes at a + j, the ones past len as zero, and their store. */
NTT_INLINE V dmask(size_t j, size_t len)
{
    const V idx = _mm256_add_epi64(_mm256_set1_epi64x((long long)j), _mm256_setr_epi64x(0, 1, 2, 3));
    return _mm256_cmpgt_epi64(_mm256_set1_epi64x((long long)len), idx);
}

static void dreduce(uint64_t *a, size_t len, const mod_u64 *M)
{
    const dcst C = dcst_of(M);
    size_t j = 0;
    for (; j + 4 <= len; j += 4) ST(a + j, to_u64(dfull(DLD(a + j), C)));
    for (; j < len; j += 4) {
        const V m = dmask(j, len);
        const D x = _mm256_maskload_pd((const double *)(a + j), m);
        _mm256_maskstore_epi64((long long *)(a + j), m, to_u64(dfull(x, C)));
    }
}

static void dpointwise(uint64_t *c, const uint64_t *a, const uint64_t *b, size_t len,
                       const mod_u64 *M)
{
    const dcst C = dcst_of(M);
    for (size_t j = 0; j < len; j += 4) {
        const V m = dmask(j, len);
        const D x = _mm256_maskload_pd((const double *)(a + j), m);
        const D y = _mm256_maskload_pd((const double *)(b + j), m);
        _mm256_maskstore_pd((double *)(c + j), m, dmul2(x, y, C));
    }
}

/* Public values in and out. */
static void dpointwise_full(uint64_t *c, const uint64_t *a, const uint64_t *b, size_t len,
                            const mod_u64 *M)
{
    const dcst C = dcst_of(M);
    for (size_t j = 0; j < len; j += 4) {
        const V m = dmask(j, len);
        const D x = from_u64(_mm256_maskload_epi64((const long long *)(a + j), m));
        const D y = from_u64(_mm256_maskload_epi64((const long long *)(b + j), m));
        _mm256_maskstore_epi64((long long *)(c + j), m, to_u64(dfull(dmul2(x, y, C), C)));
    }
}

/* See kern.inv_root; the output is always uint64_t here.  Outputs past lc
   are masked off lane by lane. */
static void dinv_root(uint64_t *a, void *outv, size_t n, size_t lc, size_t j0, size_t j1,
                      tw_u64 s, tw_u64 s1, const mod_u64 *M)
{
    const dcst C = dcst_of(M);
    uint64_t *out = outv;
    const D S = _mm256_set1_pd(dbits(s.w)), Sq = _mm256_set1_pd(dbits(s.x));
    const D S1 = _mm256_set1_pd(dbits(s1.w)), S1q = _mm256_set1_pd(dbits(s1.x));
    if (ntt_log2(n) & 1) {
        const size_t h = n / 2;
        size_t j = j0;
        for (; j + 4 <= j1 && j + h + 4 <= lc; j += 4) {
            const D x = DLD(a + j), y = DLD(a + j + h);
            ST(out + j, to_u64(dfull(dmulw(_mm256_add_pd(x, y), S, Sq, C), C)));
            ST(out + j + h, to_u64(dfull(dmulw(_mm256_sub_pd(x, y), S1, S1q, C), C)));
        }
        for (; j < j1; j += 4) {
            const V m0 = dmask(j, j1 < lc ? j1 : lc), m1 = dmask(j + h, lc);
            const D x = _mm256_maskload_pd((const double *)(a + j), m0);
            const D y = _mm256_maskload_pd((const double *)(a + j + h), m0);
            _mm256_maskstore_epi64((long long *)(out + j), m0,
                                   to_u64(dfull(dmulw(_mm256_add_pd(x, y), S, Sq, C), C)));
            _mm256_maskstore_epi64((long long *)(out + j + h), _mm256_and_si256(m0, m1),
                                   to_u64(dfull(dmulw(_mm256_sub_pd(x, y), S1, S1q, C), C)));
        }
        return;
    }
    const size_t q = n / 4;
    const dtw w2 = dtw_bcast(M->iw, M->iwx, 2), w3 = dtw_bcast(M->iw, M->iwx, 3);
    size_t j = j0;
    for (; j + 4 <= j1 && j + 3 * q + 4 <= lc; j += 4) {
        D x0 = DLD(a + j), x1 = DLD(a + j + q), x2 = DLD(a + j + 2 * q), x3 = DLD(a + j + 3 * q);
        dgs(&x0, &x1, w2, C);
        dgs(&x2, &x3, w3, C);
        ST(out + j, to_u64(dfull(dmulw(_mm256_add_pd(x0, x2), S, Sq, C), C)));
        ST(out + j + q, to_u64(dfull(dmulw(_mm256_add_pd(x1, x3), S, Sq, C), C)));
        ST(out + j + 2 * q, to_u64(dfull(dmulw(_mm256_sub_pd(x0, x2), S1, S1q, C), C)));
        ST(out + j + 3 * q, to_u64(dfull(dmulw(_mm256_sub_pd(x1, x3), S1, S1q, C), C)));
    }
    for (; j < j1; j += 4) {
        const V m0 = dmask(j, j1 < lc ? j1 : lc);
        D x0 = _mm256_maskload_pd((const double *)(a + j), m0);
        D x1 = _mm256_maskload_pd((const double *)(a + j + q), m0);
        D x2 = _mm256_maskload_pd((const double *)(a + j + 2 * q), m0);
        D x3 = _mm256_maskload_pd((const double *)(a + j + 3 * q), m0);
        dgs(&x0, &x1, w2, C);
        dgs(&x2, &x3, w3, C);
        _mm256_maskstore_epi64((long long *)(out + j), m0,
                               to_u64(dfull(dmulw(_mm256_add_pd(x0, x2), S, Sq, C), C)));
        _mm256_maskstore_epi64((long long *)(out + j + q), _mm256_and_si256(m0, dmask(j + q, lc)),
                               to_u64(dfull(dmulw(_mm256_add_pd(x1, x3), S, Sq, C), C)));
        _mm256_maskstore_epi64((long long *)(out + j + 2 * q), _mm256_and_si256(m0, dmask(j + 2 * q, lc)),
                               to_u64(dfull(dmulw(_mm256_sub_pd(x0, x2), S1, S1q, C), C)));
        _mm256_maskstore_epi64((long long *)(out + j + 3 * q), _mm256_and_si256(m0, dmask(j + 3 * q, lc)),
                               to_u64(dfull(dmulw(_mm256_sub_pd(x1, x3), S1, S1q, C), C)));
    }
}

/* Loads 4 sources (positions j .. j+3 below len, else 0; see prefetch_src)
   as doubles; bad collects the lanes >= p (lim: geq64_lim). */
NTT_INLINE D dload_src(const uint64_t *s, size_t j, size_t len, V lim, V *bad)
{
    prefetch_src(s, true, j);
    const V x = _mm256_maskload_epi64((const long long *)(s + j), dmask(j, len));
    *bad = _mm256_or_si256(*bad, geq64(x, lim));
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
    const V lim = geq64_lim(M->c.p);
    V bad = _mm256_setzero_si256();
    if (ntt_log2(n) & 1) {
        for (size_t j = j0; j < j1; j += 4) {
            const D x = dload_src(s, j, len, lim, &bad);
            DST(dst + j, x);
            DST(dst + h + j, x);
        }
        return !_mm256_testz_si256(bad, bad);
    }
    const dcst C = dcst_of(M);
    const size_t q = n / 4;
    const dtw w2 = dtw_bcast(M->fw, M->fwx, 2), w3 = dtw_bcast(M->fw, M->fwx, 3);
    for (size_t j = j0; j < j1; j += 4) {
        const D x = dload_src(s, j, len, lim, &bad);
        const D y = dload_src(s, q + j, len, lim, &bad);
        D x0 = x, y0 = y, x1 = x, y1 = y;
        dct(&x0, &y0, w2, C, 0);
        dct(&x1, &y1, w3, C, 0);
        DST(dst + j, x0);
        DST(dst + q + j, y0);
        DST(dst + h + j, x1);
        DST(dst + h + q + j, y1);
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

/* Tables to doubles, regrouped for leaves of `lanes` lanes (see regroup);
   the scale constants without the Montgomery factor (dmul2 leaves none). */
static void darrange_v(mod_u64 *M, size_t n, size_t lanes)
{
    const uint64_t p = M->c.p;
    for (size_t i = 1; i < n; i++) {
        dtw_convert(&M->fw[i], &M->fwx[i], p);
        dtw_convert(&M->iw[i], &M->iwx[i], p);
    }
    regroup(M->fw, sizeof *M->fw, n, lanes);
    regroup(M->fwx, sizeof *M->fwx, n, lanes);
    regroup(M->iw, sizeof *M->iw, n, lanes);
    regroup(M->iwx, sizeof *M->iwx, n, lanes);
    dtw_convert(&M->s_inv.w, &M->s_inv.x, p);
    dtw_convert(&M->s1_inv.w, &M->s1_inv.x, p);
    M->s_mul = M->s_inv;
    M->s1_mul = M->s1_inv;
}

static void dfwd4w(uint64_t *a, size_t q, size_t c, size_t i, const mod_u64 *M)
{ DWIDE(dfwd4, c, a, q, c, i, M); }
static void dinv4w(uint64_t *a, size_t q, size_t c, size_t i, const mod_u64 *M)
{ DWIDE(dinv4, c, a, q, c, i, M); }
static void dfwd2w(uint64_t *a, size_t h, size_t c, size_t i, const mod_u64 *M)
{ DWIDE(dfwd2, c, a, h, c, i, M); }
static void dinv2w(uint64_t *a, size_t h, size_t c, size_t i, const mod_u64 *M)
{ DWIDE(dinv2, c, a, h, c, i, M); }

/* Shoup, u64, p < 2^51 (see the top of this file), with leaves of LV
   lanes.  min_n: the product's subtrees below its root levels (n/4) hold
   whole leaf blocks. */
#define F64_LEAVES(LV)                                                                      \
    static void dfwd_small##LV(uint64_t *a, size_t L, size_t i, const mod_u64 *M)            \
    { dfwd_smallv(a, L, i, M, 1, LV); }                                                     \
    static void dfwd_small_p##LV(uint64_t *a, size_t L, size_t i, const mod_u64 *M)          \
    { dfwd_smallv(a, L, i, M, 0, LV); }                                                     \
    static void dinv_small##LV(uint64_t *a, size_t L, size_t i, const mod_u64 *M)            \
    { dinv_smallv(a, L, i, M, 1, LV); }                                                     \
    static void dinv_small_p##LV(uint64_t *a, size_t L, size_t i, const mod_u64 *M)          \
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
        .min_n = 4 * LV * LV};

F64_LEAVES(4)
#ifdef NTT_AVX512
F64_LEAVES(8)
#endif
