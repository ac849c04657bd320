/*
 * TEMPLATE lanes_f64.tmpl.h, instantiated once per vector width by
 * kernels_f64.tmpl.h: 4 lanes, and 8 more in the AVX-512 translation unit.
 *
 * Expects  VEC        the vector type of vec.h, f64x4 or f64x8;
 *          VEC_LANES  its lane count, 4 or 8;
 *          (this file undefines both at its end).
 * Defines  VEC_(name) for every name below: this width's u64
 *          double-precision butterflies, wide levels and leaves (arithmetic
 *          and ranges: the head of kernels_f64.tmpl.h), static inline
 *          (VEC_(red) is f64x4_red on 4 lanes).  VEC_ names vec.h's
 *          operations the same way, so that both widths live in one
 *          translation unit.
 */

#define VEC_(name) X86_CAT(VEC, name)

/* p and fl(1/p) in every lane. */
typedef struct {
    VEC p, pinv;
} VEC_(cst);

NTT_INLINE VEC_(cst) VEC_(cst_of)(const mod_u64 *M)
{
    VEC_(cst) c = {VEC_(set1)((double)M->c.p), VEC_(set1)(1.0 / (double)M->c.p)};
    return c;
}

/* |x| <= 4p -> x mod p in [-p/2 - 1, p/2 + 1]. */
NTT_INLINE VEC VEC_(red)(VEC x, VEC_(cst) C)
{
    return VEC_(fnmadd)(VEC_(round)(VEC_(mul)(x, C.pinv)), C.p, x);
}

/* |y| <= 4p -> y w mod p, |.| <= 1.5p. */
NTT_INLINE VEC VEC_(mulw)(VEC y, VEC w, VEC wq, VEC_(cst) C)
{
    const VEC h = VEC_(mul)(y, w), l = VEC_(fmsub)(y, w, h);
    const VEC q = VEC_(round)(VEC_(mul)(y, wq));
    return VEC_(add)(VEC_(fnmadd)(q, C.p, h), l);
}

/* |a| <= 2p, |b| <= 2p -> a b mod p, |.| <= p (a is reduced first, so that
   |a b / p| <= 2p as in mulw). */
NTT_INLINE VEC VEC_(mul2)(VEC a, VEC b, VEC_(cst) C)
{
    const VEC ar = VEC_(red)(a, C);
    const VEC h = VEC_(mul)(ar, b), l = VEC_(fmsub)(ar, b, h);
    const VEC q = VEC_(round)(VEC_(mul)(h, C.pinv));
    return VEC_(add)(VEC_(fnmadd)(q, C.p, h), l);
}

typedef struct {
    VEC w, q;
} VEC_(tw);

NTT_INLINE VEC_(tw) VEC_(tw_bcast)(const uint64_t *w, const uint64_t *x, size_t i)
{
    VEC_(tw) t = {VEC_(set1)(dbits(w[i])), VEC_(set1)(dbits(x[i]))};
    return t;
}

/* VEC_LANES consecutive (regrouped) twiddles, one per lane. */
NTT_INLINE VEC_(tw) VEC_(tw_loadv)(const uint64_t *w, const uint64_t *x, size_t i)
{
    VEC_(tw) t = {VEC_(load)(w + i), VEC_(load)(x + i)};
    return t;
}

/* red: reduce x first (see the invariant at the head of kernels_f64.tmpl.h). */
NTT_INLINE void VEC_(ct)(VEC *x, VEC *y, VEC_(tw) W, VEC_(cst) C, const int red)
{
    const VEC xr = red ? VEC_(red)(*x, C) : *x, t = VEC_(mulw)(*y, W.w, W.q, C);
    *x = VEC_(add)(xr, t);
    *y = VEC_(sub)(xr, t);
}

NTT_INLINE void VEC_(gs)(VEC *x, VEC *y, VEC_(tw) W, VEC_(cst) C)
{
    const VEC s = VEC_(red)(VEC_(add)(*x, *y), C);
    *y = VEC_(mulw)(VEC_(sub)(*x, *y), W.w, W.q, C);
    *x = s;
}

/* ---- wide levels (cnt a multiple of VEC_LANES) ---- */

/* Two levels (node i; 2i, 2i+1) over quarters q apart: forward (CT, node
   i's level first) or inverse (GS, the children's level first). */
NTT_INLINE void VEC_(lvl4)(uint64_t *a, size_t q, size_t cnt, size_t i, const mod_u64 *M,
                           const int inv)
{
    const VEC_(cst) C = VEC_(cst_of)(M);
    const uint64_t *w = inv ? M->iw : M->fw, *wx = inv ? M->iwx : M->fwx;
    const VEC_(tw) w1 = VEC_(tw_bcast)(w, wx, i), w2 = VEC_(tw_bcast)(w, wx, 2 * i);
    const VEC_(tw) w3 = VEC_(tw_bcast)(w, wx, 2 * i + 1);
    uint64_t *a0 = a, *a1 = a + q, *a2 = a + 2 * q, *a3 = a + 3 * q;
    for (size_t j = 0; j < cnt; j += VEC_LANES) {
        VEC x0 = VEC_(load)(a0 + j), x1 = VEC_(load)(a1 + j);
        VEC x2 = VEC_(load)(a2 + j), x3 = VEC_(load)(a3 + j);
        if (!inv) {
            VEC_(ct)(&x0, &x2, w1, C, 0);
            VEC_(ct)(&x1, &x3, w1, C, 0);
            VEC_(ct)(&x0, &x1, w2, C, 1);
            VEC_(ct)(&x2, &x3, w3, C, 1);
        } else {
            VEC_(gs)(&x0, &x1, w2, C);
            VEC_(gs)(&x2, &x3, w3, C);
            VEC_(gs)(&x0, &x2, w1, C);
            VEC_(gs)(&x1, &x3, w1, C);
        }
        VEC_(store)(a0 + j, x0);
        VEC_(store)(a1 + j, x1);
        VEC_(store)(a2 + j, x2);
        VEC_(store)(a3 + j, x3);
    }
}

static void VEC_(fwd4)(uint64_t *a, size_t q, size_t cnt, size_t i, const mod_u64 *M)
{
    VEC_(lvl4)(a, q, cnt, i, M, 0);
}

static void VEC_(inv4)(uint64_t *a, size_t q, size_t cnt, size_t i, const mod_u64 *M)
{
    VEC_(lvl4)(a, q, cnt, i, M, 1);
}

static void VEC_(fwd2)(uint64_t *a, size_t h, size_t cnt, size_t i, const mod_u64 *M)
{
    const VEC_(cst) C = VEC_(cst_of)(M);
    const VEC_(tw) w = VEC_(tw_bcast)(M->fw, M->fwx, i);
    for (size_t j = 0; j < cnt; j += VEC_LANES) {
        VEC x = VEC_(load)(a + j), y = VEC_(load)(a + j + h);
        VEC_(ct)(&x, &y, w, C, 1);
        VEC_(store)(a + j, x);
        VEC_(store)(a + j + h, y);
    }
}

static void VEC_(inv2)(uint64_t *a, size_t h, size_t cnt, size_t i, const mod_u64 *M)
{
    const VEC_(cst) C = VEC_(cst_of)(M);
    const VEC_(tw) w = VEC_(tw_bcast)(M->iw, M->iwx, i);
    for (size_t j = 0; j < cnt; j += VEC_LANES) {
        VEC x = VEC_(load)(a + j), y = VEC_(load)(a + j + h);
        VEC_(gs)(&x, &y, w, C);
        VEC_(store)(a + j, x);
        VEC_(store)(a + j + h, y);
    }
}

/* ---- leaves: the last 2 log2(l) levels of an l^2-element block (l lanes) ----
 * The same scheme as the u32 leaves (lanes_u32.tmpl.h): broadcast twiddles
 * while the levels pair whole vectors, an l x l transpose, then one twiddle
 * per lane from the regrouped tables.  Forward levels alternate not
 * reducing x and reducing it (the invariant of kernels_f64.tmpl.h), so a leaf
 * of an even number of levels takes |v| <= 2p in and gives it out. */

/* log2 VEC_LANES: the leaf levels on each side of the transpose. */
#define VEC_LG (VEC_LANES == 8 ? 3 : 2)

/* Leaves the block transposed: vector j holds elements VEC_LANES k + j. */
NTT_INLINE void VEC_(fwdleaf)(VEC *v, size_t nd, const mod_u64 *M, VEC_(cst) C)
{
    const uint64_t *fw = M->fw, *fx = M->fwx;
    UNROLL for (int s = 0; s < VEC_LG; s++) {
        const int dv = VEC_LANES >> (s + 1);
        UNROLL for (int g = 0; g < 1 << s; g++) {
            const VEC_(tw) w = VEC_(tw_bcast)(fw, fx, (nd << s) + (size_t)g);
            UNROLL for (int i = 0; i < dv; i++)
                VEC_(ct)(v + 2 * dv * g + i, v + 2 * dv * g + i + dv, w, C, s & 1);
        }
    }
    VEC_(transpose)(v);
    UNROLL for (int s = 0; s < VEC_LG; s++) {
        const int dv = VEC_LANES >> (s + 1);
        UNROLL for (int g = 0; g < 1 << s; g++) {
            const size_t o = (nd * VEC_LANES << s) + VEC_LANES * (size_t)g;
            const VEC_(tw) w = VEC_(tw_loadv)(fw, fx, o);
            UNROLL for (int i = 0; i < dv; i++)
                VEC_(ct)(v + 2 * dv * g + i, v + 2 * dv * g + i + dv, w, C, (VEC_LG + s) & 1);
        }
    }
}

NTT_INLINE void VEC_(invleaf)(VEC *v, size_t nd, const mod_u64 *M, VEC_(cst) C)
{
    const uint64_t *iw = M->iw, *ix = M->iwx;
    UNROLL for (int s = VEC_LG - 1; s >= 0; s--) {
        const int dv = VEC_LANES >> (s + 1);
        UNROLL for (int g = 0; g < 1 << s; g++) {
            const size_t o = (nd * VEC_LANES << s) + VEC_LANES * (size_t)g;
            const VEC_(tw) w = VEC_(tw_loadv)(iw, ix, o);
            UNROLL for (int i = 0; i < dv; i++)
                VEC_(gs)(v + 2 * dv * g + i, v + 2 * dv * g + i + dv, w, C);
        }
    }
    VEC_(transpose)(v);
    UNROLL for (int s = VEC_LG - 1; s >= 0; s--) {
        const int dv = VEC_LANES >> (s + 1);
        UNROLL for (int g = 0; g < 1 << s; g++) {
            const VEC_(tw) w = VEC_(tw_bcast)(iw, ix, (nd << s) + (size_t)g);
            UNROLL for (int i = 0; i < dv; i++)
                VEC_(gs)(v + 2 * dv * g + i, v + 2 * dv * g + i + dv, w, C);
        }
    }
}

/* The leaf blocks of a subtree of L elements (from node nd on), forward
   or inverse; t: they are (inverse) or are left (forward) transposed, the
   polymul path's order, else natural order. */
NTT_INLINE void VEC_(leaves)(uint64_t *a, size_t L, size_t nd, const mod_u64 *M, const int t,
                             const int inv)
{
    const VEC_(cst) C = VEC_(cst_of)(M);
    for (size_t g = 0; g < L / (VEC_LANES * VEC_LANES); g++) {
        uint64_t *x = a + VEC_LANES * VEC_LANES * g;
        VEC v[VEC_LANES];
        UNROLL for (int k = 0; k < VEC_LANES; k++) v[k] = VEC_(load)(x + VEC_LANES * k);
        if (!inv) {
            VEC_(fwdleaf)(v, nd + g, M, C);
            if (t) VEC_(transpose)(v);
        } else {
            if (t) VEC_(transpose)(v);
            VEC_(invleaf)(v, nd + g, M, C);
        }
        UNROLL for (int k = 0; k < VEC_LANES; k++) VEC_(store)(x + VEC_LANES * k, v[k]);
    }
}

NTT_INLINE void VEC_(fwd_leaves)(uint64_t *a, size_t L, size_t nd, const mod_u64 *M, const int t)
{
    VEC_(leaves)(a, L, nd, M, t, 0);
}

NTT_INLINE void VEC_(inv_leaves)(uint64_t *a, size_t L, size_t nd, const mod_u64 *M, const int t)
{
    VEC_(leaves)(a, L, nd, M, t, 1);
}

/* b's forward leaves, the product with a's (already forward, transposed)
   and b's inverse leaves, a block at a time. */
NTT_INLINE void VEC_(mul_leaves)(uint64_t *b, const uint64_t *a, size_t L, size_t nd,
                                 const mod_u64 *M)
{
    const VEC_(cst) C = VEC_(cst_of)(M);
    for (size_t g = 0; g < L / (VEC_LANES * VEC_LANES); g++) {
        uint64_t *x = b + VEC_LANES * VEC_LANES * g;
        const uint64_t *y = a + VEC_LANES * VEC_LANES * g;
        VEC v[VEC_LANES];
        UNROLL for (int k = 0; k < VEC_LANES; k++) v[k] = VEC_(load)(x + VEC_LANES * k);
        VEC_(fwdleaf)(v, nd + g, M, C);
        UNROLL for (int k = 0; k < VEC_LANES; k++)
            v[k] = VEC_(mul2)(v[k], VEC_(load)(y + VEC_LANES * k), C);
        VEC_(invleaf)(v, nd + g, M, C);
        UNROLL for (int k = 0; k < VEC_LANES; k++) VEC_(store)(x + VEC_LANES * k, v[k]);
    }
}

#undef VEC_LG
#undef VEC_
#undef VEC
#undef VEC_LANES
