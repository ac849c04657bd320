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
 * The last four levels of every 16-element block run in registers: the
 * distance-8 and -4 levels pair whole vectors, then a 4x4 transpose makes
 * the distance-2 and -1 levels pair whole vectors too (arrange() regroups
 * the last level's twiddles so that each such vector pair reads one load).
 * Other moduli and kinds run the scalar u64 kernels.
 */

typedef __m256d D;

/* p and fl(1/p) in every lane. */
typedef struct {
    D p, pinv;
} dcst;

NTT_INLINE dcst dcst_of(const mod_u64 *M)
{
    dcst c = {_mm256_set1_pd((double)M->c.p), _mm256_set1_pd(1.0 / (double)M->c.p)};
    return c;
}

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

NTT_INLINE D dround(D x) { return _mm256_round_pd(x, _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC); }

/* |x| <= 4p -> x mod p in [-p/2 - 1, p/2 + 1]. */
NTT_INLINE D dred(D x, dcst C) { return _mm256_fnmadd_pd(dround(_mm256_mul_pd(x, C.pinv)), C.p, x); }

/* |y| <= 4p -> y w mod p, |.| <= 1.5p. */
NTT_INLINE D dmulw(D y, D w, D wq, dcst C)
{
    const D h = _mm256_mul_pd(y, w), l = _mm256_fmsub_pd(y, w, h);
    const D q = dround(_mm256_mul_pd(y, wq));
    return _mm256_add_pd(_mm256_fnmadd_pd(q, C.p, h), l);
}

/* |a| <= 2p, |b| <= 2p -> a b mod p, |.| <= p (a is reduced first, so that
   |a b / p| <= 2p as in dmulw). */
NTT_INLINE D dmul2(D a, D b, dcst C)
{
    const D ar = dred(a, C);
    const D h = _mm256_mul_pd(ar, b), l = _mm256_fmsub_pd(ar, b, h);
    const D q = dround(_mm256_mul_pd(h, C.pinv));
    return _mm256_add_pd(_mm256_fnmadd_pd(q, C.p, h), l);
}

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

typedef struct {
    D w, q;
} dtw;

NTT_INLINE dtw dtw_bcast(const uint64_t *w, const uint64_t *x, size_t i)
{
    dtw t = {_mm256_set1_pd(dbits(w[i])), _mm256_set1_pd(dbits(x[i]))};
    return t;
}

NTT_INLINE dtw dtw_load4(const uint64_t *w, const uint64_t *x, size_t i)
{
    dtw t = {DLD(w + i), DLD(x + i)};
    return t;
}

/* red: reduce x first (see the invariant above). */
NTT_INLINE void dct(D *x, D *y, dtw W, dcst C, const int red)
{
    const D xr = red ? dred(*x, C) : *x, t = dmulw(*y, W.w, W.q, C);
    *x = _mm256_add_pd(xr, t);
    *y = _mm256_sub_pd(xr, t);
}

NTT_INLINE void dgs(D *x, D *y, dtw W, dcst C)
{
    const D s = dred(_mm256_add_pd(*x, *y), C);
    *y = dmulw(_mm256_sub_pd(*x, *y), W.w, W.q, C);
    *x = s;
}

/* ---- wide levels (cnt a multiple of 4) ---- */

static void dfwd4(uint64_t *a, size_t q, size_t cnt, size_t i, const mod_u64 *M)
{
    const dcst C = dcst_of(M);
    const dtw w1 = dtw_bcast(M->fw, M->fwx, i), w2 = dtw_bcast(M->fw, M->fwx, 2 * i);
    const dtw w3 = dtw_bcast(M->fw, M->fwx, 2 * i + 1);
    uint64_t *a0 = a, *a1 = a + q, *a2 = a + 2 * q, *a3 = a + 3 * q;
    for (size_t j = 0; j < cnt; j += 4) {
        D x0 = DLD(a0 + j), x1 = DLD(a1 + j), x2 = DLD(a2 + j), x3 = DLD(a3 + j);
        dct(&x0, &x2, w1, C, 0);
        dct(&x1, &x3, w1, C, 0);
        dct(&x0, &x1, w2, C, 1);
        dct(&x2, &x3, w3, C, 1);
        DST(a0 + j, x0);
        DST(a1 + j, x1);
        DST(a2 + j, x2);
        DST(a3 + j, x3);
    }
}

static void dinv4(uint64_t *a, size_t q, size_t cnt, size_t i, const mod_u64 *M)
{
    const dcst C = dcst_of(M);
    const dtw w1 = dtw_bcast(M->iw, M->iwx, i), w2 = dtw_bcast(M->iw, M->iwx, 2 * i);
    const dtw w3 = dtw_bcast(M->iw, M->iwx, 2 * i + 1);
    uint64_t *a0 = a, *a1 = a + q, *a2 = a + 2 * q, *a3 = a + 3 * q;
    for (size_t j = 0; j < cnt; j += 4) {
        D x0 = DLD(a0 + j), x1 = DLD(a1 + j), x2 = DLD(a2 + j), x3 = DLD(a3 + j);
        dgs(&x0, &x1, w2, C);
        dgs(&x2, &x3, w3, C);
        dgs(&x0, &x2, w1, C);
        dgs(&x1, &x3, w1, C);
        DST(a0 + j, x0);
        DST(a1 + j, x1);
        DST(a2 + j, x2);
        DST(a3 + j, x3);
    }
}

static void dfwd2(uint64_t *a, size_t h, size_t cnt, size_t i, const mod_u64 *M)
{
    const dcst C = dcst_of(M);
    const dtw w = dtw_bcast(M->fw, M->fwx, i);
    for (size_t j = 0; j < cnt; j += 4) {
        D x = DLD(a + j), y = DLD(a + j + h);
        dct(&x, &y, w, C, 1);
        DST(a + j, x);
        DST(a + j + h, y);
    }
}

static void dinv2(uint64_t *a, size_t h, size_t cnt, size_t i, const mod_u64 *M)
{
    const dcst C = dcst_of(M);
    const dtw w = dtw_bcast(M->iw, M->iwx, i);
    for (size_t j = 0; j < cnt; j += 4) {
        D x = DLD(a + j), y = DLD(a + j + h);
        dgs(&x, &y, w, C);
        DST(a + j, x);
        DST(a + j + h, y);
    }
}

/* ---- the last four levels of a 16-element block (node nd) ---- */

NTT_INLINE void dtranspose4(D v[4])
{
    const D a0 = _mm256_unpacklo_pd(v[0], v[1]), a1 = _mm256_unpackhi_pd(v[0], v[1]);
    const D a2 = _mm256_unpacklo_pd(v[2], v[3]), a3 = _mm256_unpackhi_pd(v[2], v[3]);
    v[0] = _mm256_permute2f128_pd(a0, a2, 0x20);
    v[1] = _mm256_permute2f128_pd(a1, a3, 0x20);
    v[2] = _mm256_permute2f128_pd(a0, a2, 0x31);
    v[3] = _mm256_permute2f128_pd(a1, a3, 0x31);
}

/* Leaves the block transposed: vector t_j holds elements 4k + j. */
NTT_INLINE void dfwd4l(D v[4], size_t nd, const mod_u64 *M, dcst C)
{
    const uint64_t *fw = M->fw, *fx = M->fwx;
    const dtw w = dtw_bcast(fw, fx, nd);
    dct(&v[0], &v[2], w, C, 0);
    dct(&v[1], &v[3], w, C, 0);
    dct(&v[0], &v[1], dtw_bcast(fw, fx, 2 * nd), C, 1);
    dct(&v[2], &v[3], dtw_bcast(fw, fx, 2 * nd + 1), C, 1);
    dtranspose4(v);
    const dtw w2 = dtw_load4(fw, fx, 4 * nd);
    dct(&v[0], &v[2], w2, C, 0);
    dct(&v[1], &v[3], w2, C, 0);
    dct(&v[0], &v[1], dtw_load4(fw, fx, 8 * nd), C, 1);
    dct(&v[2], &v[3], dtw_load4(fw, fx, 8 * nd + 4), C, 1);
}

NTT_INLINE void dinv4l(D v[4], size_t nd, const mod_u64 *M, dcst C)
{
    const uint64_t *iw = M->iw, *ix = M->iwx;
    dgs(&v[0], &v[1], dtw_load4(iw, ix, 8 * nd), C);
    dgs(&v[2], &v[3], dtw_load4(iw, ix, 8 * nd + 4), C);
    const dtw w2 = dtw_load4(iw, ix, 4 * nd);
    dgs(&v[0], &v[2], w2, C);
    dgs(&v[1], &v[3], w2, C);
    dtranspose4(v);
    dgs(&v[0], &v[1], dtw_bcast(iw, ix, 2 * nd), C);
    dgs(&v[2], &v[3], dtw_bcast(iw, ix, 2 * nd + 1), C);
    const dtw w = dtw_bcast(iw, ix, nd);
    dgs(&v[0], &v[2], w, C);
    dgs(&v[1], &v[3], w, C);
}

/* Levels of subtree i above its 16-element blocks (L >= 16); returns the
   node of the first block. */
static size_t dfwd_upper(uint64_t *a, size_t L, size_t i, const mod_u64 *M)
{
    size_t len = L, node = i;
    if (ntt_log2(L) & 1) {
        dfwd2(a, L / 2, L / 2, i, M);
        len = L / 2;
        node = 2 * i;
    }
    for (; len > 16; len >>= 2, node <<= 2)
        for (size_t g = 0; g < L / len; g++) dfwd4(a + g * len, len / 4, len / 4, node + g, M);
    return node;
}

static void dinv_upper(uint64_t *a, size_t L, size_t i, const mod_u64 *M)
{
    size_t len = 64;
    for (; len <= L; len <<= 2)
        for (size_t g = 0; g < L / len; g++) dinv4(a + g * len, len / 4, len / 4, i * (L / len) + g, M);
    if (len / 4 != L) dinv2(a, L / 2, L / 2, i, M);
}

NTT_INLINE void dfwd_smallv(uint64_t *a, size_t L, size_t i, const mod_u64 *M, const int t)
{
    const dcst C = dcst_of(M);
    const size_t node = dfwd_upper(a, L, i, M);
    for (size_t g = 0; g < L / 16; g++) {
        uint64_t *x = a + 16 * g;
        D v[4] = {DLD(x), DLD(x + 4), DLD(x + 8), DLD(x + 12)};
        dfwd4l(v, node + g, M, C);
        if (t) dtranspose4(v);
        for (int k = 0; k < 4; k++) DST(x + 4 * k, v[k]);
    }
}

NTT_INLINE void dinv_smallv(uint64_t *a, size_t L, size_t i, const mod_u64 *M, const int t)
{
    const dcst C = dcst_of(M);
    const size_t nb = L / 16;
    for (size_t g = 0; g < nb; g++) {
        uint64_t *x = a + 16 * g;
        D v[4] = {DLD(x), DLD(x + 4), DLD(x + 8), DLD(x + 12)};
        if (t) dtranspose4(v);
        dinv4l(v, i * nb + g, M, C);
        for (int k = 0; k < 4; k++) DST(x + 4 * k, v[k]);
    }
    dinv_upper(a, L, i, M);
}

static void dfwd_small(uint64_t *a, size_t L, size_t i, const mod_u64 *M) { dfwd_smallv(a, L, i, M, 1); }
static void dfwd_small_p(uint64_t *a, size_t L, size_t i, const mod_u64 *M) { dfwd_smallv(a, L, i, M, 0); }
static void dinv_small(uint64_t *a, size_t L, size_t i, const mod_u64 *M) { dinv_smallv(a, L, i, M, 1); }
static void dinv_small_p(uint64_t *a, size_t L, size_t i, const mod_u64 *M) { dinv_smallv(a, L, i, M, 0); }

static void dmul_small(uint64_t *b, uint64_t *a, size_t L, size_t i, const mod_u64 *M)
{
    const dcst C = dcst_of(M);
    dfwd_smallv(a, L, i, M, 0);
    const size_t node = dfwd_upper(b, L, i, M);
    for (size_t g = 0; g < L / 16; g++) {
        uint64_t *x = b + 16 * g;
        const uint64_t *y = a + 16 * g;
        D v[4] = {DLD(x), DLD(x + 4), DLD(x + 8), DLD(x + 12)};
        dfwd4l(v, node + g, M, C);
        for (int k = 0; k < 4; k++) v[k] = dmul2(v[k], DLD(y + 4 * k), C);
        dinv4l(v, node + g, M, C);
        for (int k = 0; k < 4; k++) DST(x + 4 * k, v[k]);
    }
    dinv_upper(b, L, i, M);
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

/* Tables to doubles; the last level (nodes n/2 .. n-1) regrouped in runs of
   8 as [even nodes, odd nodes], which is what the transposed distance-1
   level reads; the scale constants without the Montgomery factor (dmul2
   leaves none). */
static void darrange(mod_u64 *M, size_t n)
{
    const uint64_t p = M->c.p;
    for (size_t i = 1; i < n; i++) {
        dtw_convert(&M->fw[i], &M->fwx[i], p);
        dtw_convert(&M->iw[i], &M->iwx[i], p);
    }
    uint64_t *tabs[4] = {M->fw, M->fwx, M->iw, M->iwx};
    for (int t = 0; t < 4; t++) {
        uint64_t tmp[8];
        for (size_t g = n / 2; g < n; g += 8) {
            for (size_t k = 0; k < 4; k++) tmp[k] = tabs[t][g + 2 * k], tmp[4 + k] = tabs[t][g + 2 * k + 1];
            memcpy(tabs[t] + g, tmp, sizeof tmp);
        }
    }
    dtw_convert(&M->s_inv.w, &M->s_inv.x, p);
    dtw_convert(&M->s1_inv.w, &M->s1_inv.x, p);
    M->s_mul = M->s_inv;
    M->s1_mul = M->s1_inv;
}

/* Shoup, u64, p < 2^51: see the top of this file. */
static const kern_u64 kernels_f64 = {
    .block = 2048,
    .fwd4 = dfwd4,
    .fwd4one = dfwd4,
    .fwd2 = dfwd2,
    .inv2 = dinv2,
    .fwd_small = dfwd_small,
    .fwd_small_p = dfwd_small_p,
    .inv4 = dinv4,
    .inv4one = dinv4,
    .inv_small = dinv_small,
    .inv_small_p = dinv_small_p,
    .inv_root = dinv_root,
    .inv_root64 = dinv_root,
    .mul_small = dmul_small,
    .load_top = dload_top,
    .pointwise = dpointwise,
    .pointwise_full = dpointwise_full,
    .reduce = dreduce,
    .to_internal = dto_internal,
    .arrange = darrange,
    .min_n = 64,
};
