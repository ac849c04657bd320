/*
 * The u64 double-precision butterflies, wide levels and leaves of the AVX2
 * backend (arithmetic and ranges: avx2_impl.h), on one vector width:
 * avx2_impl.h includes this file once for 256-bit vectors and, in the
 * AVX-512 build, once more for 512-bit ones.  Parameters (defined before
 * each inclusion, undefined at the end of this file):
 * DW the width in bits, DT the vector type, DLANES its lanes; DS(name) is
 * the width's name of a function or type here (name itself for 256 bits),
 * DI(op) the width's intrinsic _mmDW_op.
 */

#define DLD_(p) DI(loadu_pd)((const double *)(p))
#define DST_(p, v) DI(storeu_pd)((double *)(p), (v))

/* p and fl(1/p) in every lane. */
typedef struct {
    DT p, pinv;
} DS(dcst);

NTT_INLINE DS(dcst) DS(dcst_of)(const mod_u64 *M)
{
    DS(dcst) c = {DI(set1_pd)((double)M->c.p), DI(set1_pd)(1.0 / (double)M->c.p)};
    return c;
}

NTT_INLINE DT DS(dround)(DT x)
{
#if DW == 256
    return _mm256_round_pd(x, _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
#else
    return _mm512_roundscale_pd(x, _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
#endif
}

/* |x| <= 4p -> x mod p in [-p/2 - 1, p/2 + 1]. */
NTT_INLINE DT DS(dred)(DT x, DS(dcst) C)
{
    return DI(fnmadd_pd)(DS(dround)(DI(mul_pd)(x, C.pinv)), C.p, x);
}

/* |y| <= 4p -> y w mod p, |.| <= 1.5p. */
NTT_INLINE DT DS(dmulw)(DT y, DT w, DT wq, DS(dcst) C)
{
    const DT h = DI(mul_pd)(y, w), l = DI(fmsub_pd)(y, w, h);
    const DT q = DS(dround)(DI(mul_pd)(y, wq));
    return DI(add_pd)(DI(fnmadd_pd)(q, C.p, h), l);
}

/* |a| <= 2p, |b| <= 2p -> a b mod p, |.| <= p (a is reduced first, so that
   |a b / p| <= 2p as in dmulw). */
NTT_INLINE DT DS(dmul2)(DT a, DT b, DS(dcst) C)
{
    const DT ar = DS(dred)(a, C);
    const DT h = DI(mul_pd)(ar, b), l = DI(fmsub_pd)(ar, b, h);
    const DT q = DS(dround)(DI(mul_pd)(h, C.pinv));
    return DI(add_pd)(DI(fnmadd_pd)(q, C.p, h), l);
}

typedef struct {
    DT w, q;
} DS(dtw);

NTT_INLINE DS(dtw) DS(dtw_bcast)(const uint64_t *w, const uint64_t *x, size_t i)
{
    DS(dtw) t = {DI(set1_pd)(dbits(w[i])), DI(set1_pd)(dbits(x[i]))};
    return t;
}

/* DLANES consecutive (regrouped) twiddles, one per lane. */
NTT_INLINE DS(dtw) DS(dtw_loadv)(const uint64_t *w, const uint64_t *x, size_t i)
{
    DS(dtw) t = {DLD_(w + i), DLD_(x + i)};
    return t;
}

/* red: reduce x first (see the invariant in avx2_impl.h). */
NTT_INLINE void DS(dct)(DT *x, DT *y, DS(dtw) W, DS(dcst) C, const int red)
{
    const DT xr = red ? DS(dred)(*x, C) : *x, t = DS(dmulw)(*y, W.w, W.q, C);
    *x = DI(add_pd)(xr, t);
    *y = DI(sub_pd)(xr, t);
}

NTT_INLINE void DS(dgs)(DT *x, DT *y, DS(dtw) W, DS(dcst) C)
{
    const DT s = DS(dred)(DI(add_pd)(*x, *y), C);
    *y = DS(dmulw)(DI(sub_pd)(*x, *y), W.w, W.q, C);
    *x = s;
}

/* ---- wide levels (cnt a multiple of DLANES) ---- */

/* Two levels (node i; 2i, 2i+1) over quarters q apart: forward (CT, node
   i's level first) or inverse (GS, the children's level first). */
NTT_INLINE void DS(d4)(uint64_t *a, size_t q, size_t cnt, size_t i, const mod_u64 *M,
                       const int inv)
{
    const DS(dcst) C = DS(dcst_of)(M);
    const uint64_t *w = inv ? M->iw : M->fw, *wx = inv ? M->iwx : M->fwx;
    const DS(dtw) w1 = DS(dtw_bcast)(w, wx, i), w2 = DS(dtw_bcast)(w, wx, 2 * i);
    const DS(dtw) w3 = DS(dtw_bcast)(w, wx, 2 * i + 1);
    uint64_t *a0 = a, *a1 = a + q, *a2 = a + 2 * q, *a3 = a + 3 * q;
    for (size_t j = 0; j < cnt; j += DLANES) {
        DT x0 = DLD_(a0 + j), x1 = DLD_(a1 + j), x2 = DLD_(a2 + j), x3 = DLD_(a3 + j);
        if (!inv) {
            DS(dct)(&x0, &x2, w1, C, 0);
            DS(dct)(&x1, &x3, w1, C, 0);
            DS(dct)(&x0, &x1, w2, C, 1);
            DS(dct)(&x2, &x3, w3, C, 1);
        } else {
            DS(dgs)(&x0, &x1, w2, C);
            DS(dgs)(&x2, &x3, w3, C);
            DS(dgs)(&x0, &x2, w1, C);
            DS(dgs)(&x1, &x3, w1, C);
        }
        DST_(a0 + j, x0);
        DST_(a1 + j, x1);
        DST_(a2 + j, x2);
        DST_(a3 + j, x3);
    }
}

static void DS(dfwd4)(uint64_t *a, size_t q, size_t cnt, size_t i, const mod_u64 *M)
{
    DS(d4)(a, q, cnt, i, M, 0);
}

static void DS(dinv4)(uint64_t *a, size_t q, size_t cnt, size_t i, const mod_u64 *M)
{
    DS(d4)(a, q, cnt, i, M, 1);
}

static void DS(dfwd2)(uint64_t *a, size_t h, size_t cnt, size_t i, const mod_u64 *M)
{
    const DS(dcst) C = DS(dcst_of)(M);
    const DS(dtw) w = DS(dtw_bcast)(M->fw, M->fwx, i);
    for (size_t j = 0; j < cnt; j += DLANES) {
        DT x = DLD_(a + j), y = DLD_(a + j + h);
        DS(dct)(&x, &y, w, C, 1);
        DST_(a + j, x);
        DST_(a + j + h, y);
    }
}

static void DS(dinv2)(uint64_t *a, size_t h, size_t cnt, size_t i, const mod_u64 *M)
{
    const DS(dcst) C = DS(dcst_of)(M);
    const DS(dtw) w = DS(dtw_bcast)(M->iw, M->iwx, i);
    for (size_t j = 0; j < cnt; j += DLANES) {
        DT x = DLD_(a + j), y = DLD_(a + j + h);
        DS(dgs)(&x, &y, w, C);
        DST_(a + j, x);
        DST_(a + j + h, y);
    }
}

/* ---- leaves: the last 2 log2(DLANES) levels of a DLANES^2-element block ----
 * The same scheme as the u32 leaves (avx2_vec.h): broadcast twiddles while
 * the levels pair whole vectors, a DLANES x DLANES transpose, then one
 * twiddle per lane from the regrouped tables.  Forward levels alternate
 * not reducing x and reducing it (the invariant of avx2_impl.h), so a leaf
 * of an even number of levels takes |v| <= 2p in and gives it out. */

#define DLG (DLANES == 8 ? 3 : 2)

NTT_INLINE void DS(dtranspose)(DT v[DLANES])
{
#if DW == 256
    const DT a0 = _mm256_unpacklo_pd(v[0], v[1]), a1 = _mm256_unpackhi_pd(v[0], v[1]);
    const DT a2 = _mm256_unpacklo_pd(v[2], v[3]), a3 = _mm256_unpackhi_pd(v[2], v[3]);
    v[0] = _mm256_permute2f128_pd(a0, a2, 0x20);
    v[1] = _mm256_permute2f128_pd(a1, a3, 0x20);
    v[2] = _mm256_permute2f128_pd(a0, a2, 0x31);
    v[3] = _mm256_permute2f128_pd(a1, a3, 0x31);
#else
    /* t[2k + c], 128-bit lane l: rows 2k, 2k+1 of column 2l + c; column
       2l + c gathers lane l of t[c], t[2 + c], t[4 + c], t[6 + c]. */
    DT t[8];
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
#endif
}

/* Leaves the block transposed: vector j holds elements DLANES k + j. */
NTT_INLINE void DS(dfwdleaf)(DT *v, size_t nd, const mod_u64 *M, DS(dcst) C)
{
    const uint64_t *fw = M->fw, *fx = M->fwx;
    UNROLL for (int s = 0; s < DLG; s++) {
        const int dv = DLANES >> (s + 1);
        UNROLL for (int g = 0; g < 1 << s; g++) {
            const DS(dtw) w = DS(dtw_bcast)(fw, fx, (nd << s) + (size_t)g);
            UNROLL for (int i = 0; i < dv; i++)
                DS(dct)(v + 2 * dv * g + i, v + 2 * dv * g + i + dv, w, C, s & 1);
        }
    }
    DS(dtranspose)(v);
    UNROLL for (int s = 0; s < DLG; s++) {
        const int dv = DLANES >> (s + 1);
        UNROLL for (int g = 0; g < 1 << s; g++) {
            const DS(dtw) w = DS(dtw_loadv)(fw, fx, (nd * DLANES << s) + DLANES * (size_t)g);
            UNROLL for (int i = 0; i < dv; i++)
                DS(dct)(v + 2 * dv * g + i, v + 2 * dv * g + i + dv, w, C, (DLG + s) & 1);
        }
    }
}

NTT_INLINE void DS(dinvleaf)(DT *v, size_t nd, const mod_u64 *M, DS(dcst) C)
{
    const uint64_t *iw = M->iw, *ix = M->iwx;
    UNROLL for (int s = DLG - 1; s >= 0; s--) {
        const int dv = DLANES >> (s + 1);
        UNROLL for (int g = 0; g < 1 << s; g++) {
            const DS(dtw) w = DS(dtw_loadv)(iw, ix, (nd * DLANES << s) + DLANES * (size_t)g);
            UNROLL for (int i = 0; i < dv; i++)
                DS(dgs)(v + 2 * dv * g + i, v + 2 * dv * g + i + dv, w, C);
        }
    }
    DS(dtranspose)(v);
    UNROLL for (int s = DLG - 1; s >= 0; s--) {
        const int dv = DLANES >> (s + 1);
        UNROLL for (int g = 0; g < 1 << s; g++) {
            const DS(dtw) w = DS(dtw_bcast)(iw, ix, (nd << s) + (size_t)g);
            UNROLL for (int i = 0; i < dv; i++)
                DS(dgs)(v + 2 * dv * g + i, v + 2 * dv * g + i + dv, w, C);
        }
    }
}

/* The leaf blocks of a subtree of L elements (from node nd on), forward
   or inverse; t: they are (inverse) or are left (forward) transposed, the
   polymul path's order, else natural order. */
NTT_INLINE void DS(d_leaves)(uint64_t *a, size_t L, size_t nd, const mod_u64 *M, const int t,
                             const int inv)
{
    const DS(dcst) C = DS(dcst_of)(M);
    for (size_t g = 0; g < L / (DLANES * DLANES); g++) {
        uint64_t *x = a + DLANES * DLANES * g;
        DT v[DLANES];
        UNROLL for (int k = 0; k < DLANES; k++) v[k] = DLD_(x + DLANES * k);
        if (!inv) {
            DS(dfwdleaf)(v, nd + g, M, C);
            if (t) DS(dtranspose)(v);
        } else {
            if (t) DS(dtranspose)(v);
            DS(dinvleaf)(v, nd + g, M, C);
        }
        UNROLL for (int k = 0; k < DLANES; k++) DST_(x + DLANES * k, v[k]);
    }
}

NTT_INLINE void DS(dfwd_leaves)(uint64_t *a, size_t L, size_t nd, const mod_u64 *M, const int t)
{
    DS(d_leaves)(a, L, nd, M, t, 0);
}

NTT_INLINE void DS(dinv_leaves)(uint64_t *a, size_t L, size_t nd, const mod_u64 *M, const int t)
{
    DS(d_leaves)(a, L, nd, M, t, 1);
}

/* b's forward leaves, the product with a's (already forward, transposed)
   and b's inverse leaves, a block at a time. */
NTT_INLINE void DS(dmul_leaves)(uint64_t *b, const uint64_t *a, size_t L, size_t nd,
                                const mod_u64 *M)
{
    const DS(dcst) C = DS(dcst_of)(M);
    for (size_t g = 0; g < L / (DLANES * DLANES); g++) {
        uint64_t *x = b + DLANES * DLANES * g;
        const uint64_t *y = a + DLANES * DLANES * g;
        DT v[DLANES];
        UNROLL for (int k = 0; k < DLANES; k++) v[k] = DLD_(x + DLANES * k);
        DS(dfwdleaf)(v, nd + g, M, C);
        UNROLL for (int k = 0; k < DLANES; k++) v[k] = DS(dmul2)(v[k], DLD_(y + DLANES * k), C);
        DS(dinvleaf)(v, nd + g, M, C);
        UNROLL for (int k = 0; k < DLANES; k++) DST_(x + DLANES * k, v[k]);
    }
}

#undef DLG
#undef DLD_
#undef DST_
#undef DW
#undef DT
#undef DLANES
#undef DSFX
