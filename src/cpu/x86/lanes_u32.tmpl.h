/*
 * TEMPLATE lanes_u32.tmpl.h, instantiated once per vector width by
 * kernels_u32.tmpl.h: 8 lanes, and 16 more in the AVX-512 translation unit.
 *
 * Expects  VEC        the vector type of vec.h, u32x8 or u32x16;
 *          VEC_LANES  its lane count, 8 or 16;
 *          (this file undefines both at its end).
 * Defines  VEC_(name) for every name below: this width's u32 butterflies,
 *          wide (radix-4 and radix-2) levels and register-resident leaves
 *          (VEC_(csub) is u32x8_csub on 8 lanes), static inline; leaves
 *          LEAF_AHEAD defined.  VEC_ names vec.h's operations the same way
 *          (VEC_(add) is u32x8_add), so that both widths live in one
 *          translation unit.
 */

#define VEC_(name) X86_CAT(VEC, name)

/* Lane constants of one modulus. */
typedef struct {
    VEC p, p2, p4, pinv;
} VEC_(cst);

/* A twiddle vector: values, companions (Shoup quotient or Montgomery form)
   and the companions of the odd lanes moved to the even ones, which is
   what vpmuludq reads. */
typedef struct {
    VEC w, x, xo;
} VEC_(tw);

NTT_INLINE VEC_(cst) VEC_(cst_of)(const mod_u32 *M)
{
    VEC_(cst) c = {VEC_(set1)(M->c.p), VEC_(set1)(M->c.p2), VEC_(set1)(4 * M->c.p),
                   VEC_(set1)(M->c.pinv)};
    return c;
}

NTT_INLINE VEC_(tw) VEC_(tw_bcast)(const uint32_t *w, const uint32_t *x, size_t i)
{
    VEC_(tw) t;
    t.w = VEC_(set1)(w[i]);
    t.x = VEC_(set1)(x[i]);
    t.xo = t.x;
    return t;
}

NTT_INLINE VEC_(tw) VEC_(tw_scalar)(tw_u32 s)
{
    VEC_(tw) t;
    t.w = VEC_(set1)(s.w);
    t.x = VEC_(set1)(s.x);
    t.xo = t.x;
    return t;
}

/* x in [0, 2m) -> [0, m): x - m wraps above x exactly when x < m. */
NTT_INLINE VEC VEC_(csub)(VEC x, VEC m) { return VEC_(min)(x, VEC_(sub)(x, m)); }

/* y in [0, 4p) (any 32-bit y for Shoup) -> y*w mod p in [0, 2p).
   Shoup: q = hi(y w'), r = y w - q p (mod 2^32).
   Montgomery: REDC(y W) with W = w R mod p: y W < 4p^2 < p 2^32. */
NTT_INLINE VEC VEC_(mulw)(VEC y, VEC_(tw) W, VEC_(cst) C, const int kind)
{
    const VEC yo = VEC_(odd)(y);
    if (kind == NTT_MODMUL_SHOUP) {
        const VEC q = VEC_(hi_halves)(VEC_(mul_even)(y, W.x), VEC_(mul_even)(yo, W.xo));
        return VEC_(sub)(VEC_(mullo)(y, W.w), VEC_(mullo)(q, C.p));
    }
    const VEC te = VEC_(mul_even)(y, W.x), to = VEC_(mul_even)(yo, W.xo);
    const VEC m = VEC_(mullo)(VEC_(mullo)(y, W.x), C.pinv);
    const VEC ue = VEC_(mul_even)(m, C.p), uo = VEC_(mul_even)(VEC_(odd)(m), C.p);
    return VEC_(hi_halves)(VEC_(add64)(te, ue), VEC_(add64)(to, uo));
}

/* Montgomery product of two variables: a in [0, p), b < 4p -> a b R^-1 in
   [0, 2p). */
NTT_INLINE VEC VEC_(mont2)(VEC a, VEC b, VEC_(cst) C)
{
    const VEC te = VEC_(mul_even)(a, b);
    const VEC to = VEC_(mul_even)(VEC_(odd)(a), VEC_(odd)(b));
    const VEC m = VEC_(mullo)(VEC_(mullo)(a, b), C.pinv);
    const VEC ue = VEC_(mul_even)(m, C.p), uo = VEC_(mul_even)(VEC_(odd)(m), C.p);
    return VEC_(hi_halves)(VEC_(add64)(te, ue), VEC_(add64)(to, uo));
}

/* Cooley-Tukey: x + wy, x - wy + 2p.  red 1: x in [0, 4p) is reduced to
   [0, 2p) first, so the outputs are in [0, 4p); red 2: the same for x in
   [0, 8p); red 0: x is left as it is and the outputs grow by 2p (see
   lazy_red). */
NTT_INLINE void VEC_(ctr)(VEC *x, VEC *y, VEC_(tw) W, VEC_(cst) C, const int kind, const int red)
{
    const VEC xr = red == 2 ? VEC_(csub)(*x, C.p4) : *x;
    const VEC x0 = red ? VEC_(csub)(xr, C.p2) : xr, t = VEC_(mulw)(*y, W, C, kind);
    *x = VEC_(add)(x0, t);
    *y = VEC_(add)(VEC_(sub)(x0, t), C.p2);
}

NTT_INLINE void VEC_(ct)(VEC *x, VEC *y, VEC_(tw) W, VEC_(cst) C, const int kind)
{
    VEC_(ctr)(x, y, W, C, kind, 1);
}

/* The same with w = 1. */
NTT_INLINE void VEC_(ct1)(VEC *x, VEC *y, VEC_(cst) C)
{
    const VEC x0 = VEC_(csub)(*x, C.p2), t = VEC_(csub)(*y, C.p2);
    *x = VEC_(add)(x0, t);
    *y = VEC_(add)(VEC_(sub)(x0, t), C.p2);
}

/* Gentleman-Sande: x, y in [0, 2p) -> x + y, (x - y) w in [0, 2p). */
NTT_INLINE void VEC_(gs)(VEC *x, VEC *y, VEC_(tw) W, VEC_(cst) C, const int kind)
{
    const VEC s = VEC_(csub)(VEC_(add)(*x, *y), C.p2);
    *y = VEC_(mulw)(VEC_(add)(VEC_(sub)(*x, *y), C.p2), W, C, kind);
    *x = s;
}

NTT_INLINE void VEC_(gs1)(VEC *x, VEC *y, VEC_(cst) C)
{
    const VEC s = VEC_(csub)(VEC_(add)(*x, *y), C.p2);
    *y = VEC_(csub)(VEC_(add)(VEC_(sub)(*x, *y), C.p2), C.p2);
    *x = s;
}

/* ---- wide levels ----------------------------------------------------------- */

/* Two forward levels (node i; 2i, 2i+1) over quarters q apart, positions
   [0, cnt), cnt a multiple of VEC_LANES (the drivers split no finer than 8;
   kernels_u32.tmpl.h's WIDE picks the width); `one`: node i (and so 2i) has
   twiddle 1; r: see lazy_red (0 for the drivers' calls).  nb = 2: the
   same on b too, interleaved. */
NTT_INLINE void VEC_(fwd4v)(uint32_t *a, uint32_t *b, size_t q, size_t cnt, size_t i,
                            const mod_u32 *M, const int kind, const int one, const int r,
                            const int nb)
{
    const int ra = lazy_red(r, 0), rb = lazy_red(lazy_next(r, 0), 0);
    const VEC_(cst) C = VEC_(cst_of)(M);
    const VEC_(tw) w1 = VEC_(tw_bcast)(M->fw, M->fwx, i), w2 = VEC_(tw_bcast)(M->fw, M->fwx, 2 * i);
    const VEC_(tw) w3 = VEC_(tw_bcast)(M->fw, M->fwx, 2 * i + 1);
    uint32_t *const c[2] = {a, b};
    for (size_t j = 0; j < cnt; j += VEC_LANES) {
        VEC x[8];
        for (int s = 0; s < 4 * nb; s++) x[s] = VEC_(load)(c[s / 4] + (size_t)(s % 4) * q + j);
        for (int s = 0; s < 4 * nb; s += 4) {
            if (one) {
                VEC_(ct1)(&x[s], &x[s + 2], C);
                VEC_(ct1)(&x[s + 1], &x[s + 3], C);
            } else {
                VEC_(ctr)(&x[s], &x[s + 2], w1, C, kind, ra);
                VEC_(ctr)(&x[s + 1], &x[s + 3], w1, C, kind, ra);
            }
        }
        for (int s = 0; s < 4 * nb; s += 4) {
            if (one) VEC_(ct1)(&x[s], &x[s + 1], C);
            else VEC_(ctr)(&x[s], &x[s + 1], w2, C, kind, rb);
            VEC_(ctr)(&x[s + 2], &x[s + 3], w3, C, kind, rb);
        }
        for (int s = 0; s < 4 * nb; s++) VEC_(store)(c[s / 4] + (size_t)(s % 4) * q + j, x[s]);
    }
}

NTT_INLINE void VEC_(fwd2v)(uint32_t *a, uint32_t *b, size_t h, size_t cnt, size_t i,
                            const mod_u32 *M, const int kind, const int r, const int nb)
{
    const VEC_(cst) C = VEC_(cst_of)(M);
    const VEC_(tw) w = VEC_(tw_bcast)(M->fw, M->fwx, i);
    uint32_t *const c[2] = {a, b};
    for (size_t j = 0; j < cnt; j += VEC_LANES) {
        for (int s = 0; s < nb; s++) {
            VEC x = VEC_(load)(c[s] + j), y = VEC_(load)(c[s] + j + h);
            VEC_(ctr)(&x, &y, w, C, kind, lazy_red(r, 0));
            VEC_(store)(c[s] + j, x);
            VEC_(store)(c[s] + j + h, y);
        }
    }
}

NTT_INLINE void VEC_(inv4v)(uint32_t *a, size_t q, size_t cnt, size_t i, const mod_u32 *M,
                            const int kind, const int one)
{
    const VEC_(cst) C = VEC_(cst_of)(M);
    const VEC_(tw) w1 = VEC_(tw_bcast)(M->iw, M->iwx, i), w2 = VEC_(tw_bcast)(M->iw, M->iwx, 2 * i);
    const VEC_(tw) w3 = VEC_(tw_bcast)(M->iw, M->iwx, 2 * i + 1);
    uint32_t *a0 = a, *a1 = a + q, *a2 = a + 2 * q, *a3 = a + 3 * q;
    for (size_t j = 0; j < cnt; j += VEC_LANES) {
        VEC x0 = VEC_(load)(a0 + j), x1 = VEC_(load)(a1 + j);
        VEC x2 = VEC_(load)(a2 + j), x3 = VEC_(load)(a3 + j);
        VEC_(gs)(&x2, &x3, w3, C, kind);
        if (one) {
            VEC_(gs1)(&x0, &x1, C);
            VEC_(gs1)(&x0, &x2, C);
            VEC_(gs1)(&x1, &x3, C);
        } else {
            VEC_(gs)(&x0, &x1, w2, C, kind);
            VEC_(gs)(&x0, &x2, w1, C, kind);
            VEC_(gs)(&x1, &x3, w1, C, kind);
        }
        VEC_(store)(a0 + j, x0);
        VEC_(store)(a1 + j, x1);
        VEC_(store)(a2 + j, x2);
        VEC_(store)(a3 + j, x3);
    }
}

NTT_INLINE void VEC_(inv2v)(uint32_t *a, size_t h, size_t cnt, size_t i, const mod_u32 *M,
                            const int kind)
{
    const VEC_(cst) C = VEC_(cst_of)(M);
    const VEC_(tw) w = VEC_(tw_bcast)(M->iw, M->iwx, i);
    for (size_t j = 0; j < cnt; j += VEC_LANES) {
        VEC x = VEC_(load)(a + j), y = VEC_(load)(a + j + h);
        VEC_(gs)(&x, &y, w, C, kind);
        VEC_(store)(a + j, x);
        VEC_(store)(a + j + h, y);
    }
}

/* ---- leaves: the last 2 log2(l) levels of an l^2-element block (l lanes) ----
 * Block node nd; vector k holds elements l k .. l k + l - 1.  The levels of
 * distance l^2/2 down to l pair whole vectors (broadcast twiddles).  After
 * an l x l transpose, vector j holds element l k + j in lane k, so the
 * levels of distance l/2 down to 1 pair whole vectors too, with one twiddle
 * per lane: at the s-th of them (distance l / 2^(s+1)), the g-th group of
 * vector pairs wants nodes 2^s (l nd + k) + g in lanes k, a stride that
 * the tables' regroup() (backend.tmpl.h) turns into one load.  The polymul
 * path leaves the block transposed (the pointwise product does not care)
 * and so pays one transpose per transform. */

/* log2 VEC_LANES: the leaf levels on each side of the transpose. */
#define VEC_LG (VEC_LANES == 16 ? 4 : 3)

/* VEC_LANES consecutive (regrouped) twiddles, one per lane. */
NTT_INLINE VEC_(tw) VEC_(tw_loadv)(const uint32_t *w, const uint32_t *x, size_t i)
{
    VEC_(tw) t;
    t.w = VEC_(load)(w + i);
    t.x = VEC_(load)(x + i);
    t.xo = VEC_(odd)(t.x);
    return t;
}

/* The leaf levels on nb blocks' vectors (VEC_LANES each), the second at node
   nd + dn (dn = 0: two arrays' blocks at one node), leaving them
   transposed, in [0, 4p); r: the range they come in (see lazy_red).  Two
   blocks at a time give the core independent work while one waits on its
   multiplications (8 lanes; 16 lanes have eight independent butterflies per
   level in one block, and two blocks would not fit the registers). */
NTT_INLINE void VEC_(fwdleaf)(VEC *v, size_t nd, size_t dn, const mod_u32 *M, VEC_(cst) C,
                              const int kind, const int r, const int nb)
{
    const uint32_t *fw = M->fw, *fx = M->fwx;
    int rr = r;
    UNROLL for (int s = 0; s < VEC_LG; s++, rr = lazy_next(rr, 0)) {
        const int red = lazy_red(rr, 0), dv = VEC_LANES >> (s + 1);
        UNROLL for (int b = 0; b < nb; b++)
            UNROLL for (int g = 0; g < 1 << s; g++) {
                const VEC_(tw) w = VEC_(tw_bcast)(fw, fx, ((nd + b * dn) << s) + (size_t)g);
                UNROLL for (int i = 0; i < dv; i++) {
                    VEC *x = v + VEC_LANES * b + 2 * dv * g + i;
                    VEC_(ctr)(x, x + dv, w, C, kind, red);
                }
            }
    }
    UNROLL for (int b = 0; b < nb; b++) VEC_(transpose)(v + VEC_LANES * b);
    UNROLL for (int s = 0; s < VEC_LG; s++, rr = lazy_next(rr, 0)) {
        const int red = lazy_red(rr, s == VEC_LG - 1), dv = VEC_LANES >> (s + 1);
        UNROLL for (int b = 0; b < nb; b++)
            UNROLL for (int g = 0; g < 1 << s; g++) {
                const size_t o = ((nd + b * dn) * VEC_LANES << s) + VEC_LANES * (size_t)g;
                const VEC_(tw) w = VEC_(tw_loadv)(fw, fx, o);
                UNROLL for (int i = 0; i < dv; i++) {
                    VEC *x = v + VEC_LANES * b + 2 * dv * g + i;
                    VEC_(ctr)(x, x + dv, w, C, kind, red);
                }
            }
    }
}

/* The inverse of fwdleaf on the blocks at nodes nd .. nd + nb - 1:
   transposed vectors in, natural order out. */
NTT_INLINE void VEC_(invleaf)(VEC *v, size_t nd, const mod_u32 *M, VEC_(cst) C, const int kind,
                              const int nb)
{
    const uint32_t *iw = M->iw, *ix = M->iwx;
    UNROLL for (int s = VEC_LG - 1; s >= 0; s--) {
        const int dv = VEC_LANES >> (s + 1);
        UNROLL for (int b = 0; b < nb; b++)
            UNROLL for (int g = 0; g < 1 << s; g++) {
                const size_t o = ((nd + b) * VEC_LANES << s) + VEC_LANES * (size_t)g;
                const VEC_(tw) w = VEC_(tw_loadv)(iw, ix, o);
                UNROLL for (int i = 0; i < dv; i++) {
                    VEC *x = v + VEC_LANES * b + 2 * dv * g + i;
                    VEC_(gs)(x, x + dv, w, C, kind);
                }
            }
    }
    UNROLL for (int b = 0; b < nb; b++) VEC_(transpose)(v + VEC_LANES * b);
    UNROLL for (int s = VEC_LG - 1; s >= 0; s--) {
        const int dv = VEC_LANES >> (s + 1);
        UNROLL for (int b = 0; b < nb; b++)
            UNROLL for (int g = 0; g < 1 << s; g++) {
                const VEC_(tw) w = VEC_(tw_bcast)(iw, ix, ((nd + b) << s) + (size_t)g);
                UNROLL for (int i = 0; i < dv; i++) {
                    VEC *x = v + VEC_LANES * b + 2 * dv * g + i;
                    VEC_(gs)(x, x + dv, w, C, kind);
                }
            }
    }
}

/* Leaves ahead of the one at work whose twiddles leaf_prefetch asks for
   (-DLEAF_AHEAD=d for sweeps; distances from 2 to 16 did alike). */
#ifndef LEAF_AHEAD
#define LEAF_AHEAD 4
#endif

/* Asks for the lines of table t (fw, fwx, iw or iwx) that the leaf at node
   nd reads.  The product's leaves read 4 KiB of twiddles each (16 lanes),
   a quarter of them per table; with the tables in DRAM, as they are when
   other work ran between two products, the hardware prefetchers left each
   leaf waiting on its misses.  Addresses are made as integers: nd may be
   past the last leaf, and a prefetch never faults. */
NTT_INLINE void VEC_(leaf_prefetch)(const uint32_t *t, size_t nd)
{
    const uintptr_t base = (uintptr_t)t;
    for (int s = 0; s < VEC_LG; s++) {
        _mm_prefetch((const char *)(base + ((nd << s) << 2)), _MM_HINT_T0);
        const uintptr_t v = base + ((nd * VEC_LANES << s) << 2);
        for (size_t o = 0; o < (size_t)(VEC_LANES * 4) << s; o += 64)
            _mm_prefetch((const char *)(v + o), _MM_HINT_T0);
    }
}

/* nb blocks from node nd on; tout: leave them in natural order (public
   forward). */
NTT_INLINE void VEC_(fwd_last)(uint32_t *a, size_t nd, const mod_u32 *M, const int kind,
                               const int tout, const int r, const int nb)
{
    const VEC_(cst) C = VEC_(cst_of)(M);
    VEC v[2 * VEC_LANES];
    UNROLL for (int b = 0; b < nb; b++) {
        VEC_(leaf_prefetch)(M->fw, nd + LEAF_AHEAD + b);
        VEC_(leaf_prefetch)(M->fwx, nd + LEAF_AHEAD + b);
    }
    UNROLL for (int k = 0; k < VEC_LANES * nb; k++) v[k] = VEC_(load)(a + VEC_LANES * k);
    VEC_(fwdleaf)(v, nd, 1, M, C, kind, r, nb);
    UNROLL for (int b = 0; b < nb && tout; b++) VEC_(transpose)(v + VEC_LANES * b);
    UNROLL for (int k = 0; k < VEC_LANES * nb; k++) VEC_(store)(a + VEC_LANES * k, v[k]);
}

/* tin: the blocks come in natural order (public inverse). */
NTT_INLINE void VEC_(inv_last)(uint32_t *a, size_t nd, const mod_u32 *M, const int kind,
                               const int tin, const int nb)
{
    const VEC_(cst) C = VEC_(cst_of)(M);
    VEC v[2 * VEC_LANES];
    UNROLL for (int b = 0; b < nb; b++) {
        VEC_(leaf_prefetch)(M->iw, nd + LEAF_AHEAD + b);
        VEC_(leaf_prefetch)(M->iwx, nd + LEAF_AHEAD + b);
    }
    UNROLL for (int k = 0; k < VEC_LANES * nb; k++) v[k] = VEC_(load)(a + VEC_LANES * k);
    UNROLL for (int b = 0; b < nb && tin; b++) VEC_(transpose)(v + VEC_LANES * b);
    VEC_(invleaf)(v, nd, M, C, kind, nb);
    UNROLL for (int k = 0; k < VEC_LANES * nb; k++) VEC_(store)(a + VEC_LANES * k, v[k]);
}

/* The blocks at node nd of b and a: their forward leaves, the product and
   b's inverse leaves.  8 lanes: a's and b's levels side by side on shared
   twiddles, and a's spectrum is never stored; 16 lanes: a's block goes
   first and back to memory (L1), since both would not fit the registers.
   When lazy (r), 8p <= 2^32 lets mont2 take its first factor in [0, 2p)
   against the second in [0, 4p): the product stays below p 2^32;
   otherwise both are reduced to [0, p) (mul2, the factor F of the scalar
   kernels: both vectorized kinds use Montgomery here). */
NTT_INLINE void VEC_(mul_last)(uint32_t *b, uint32_t *a, size_t nd, const mod_u32 *M,
                               const int kind, const int r)
{
    const VEC_(cst) C = VEC_(cst_of)(M);
    VEC v[2 * VEC_LANES];
    VEC_(leaf_prefetch)(M->fw, nd + LEAF_AHEAD);
    if (VEC_LANES == 8) {
        UNROLL for (int k = 0; k < VEC_LANES; k++) {
            v[k] = VEC_(load)(b + VEC_LANES * k);
            v[VEC_LANES + k] = VEC_(load)(a + VEC_LANES * k);
        }
        VEC_(fwdleaf)(v, nd, 0, M, C, kind, r, 2);
    } else {
        UNROLL for (int k = 0; k < VEC_LANES; k++) v[k] = VEC_(load)(a + VEC_LANES * k);
        VEC_(fwdleaf)(v, nd, 0, M, C, kind, r, 1);
        UNROLL for (int k = 0; k < VEC_LANES; k++) VEC_(store)(a + VEC_LANES * k, v[k]);
        VEC_(leaf_prefetch)(M->fwx, nd + LEAF_AHEAD);
        UNROLL for (int k = 0; k < VEC_LANES; k++) v[k] = VEC_(load)(b + VEC_LANES * k);
        VEC_(fwdleaf)(v, nd, 0, M, C, kind, r, 1);
        UNROLL for (int k = 0; k < VEC_LANES; k++) v[VEC_LANES + k] = VEC_(load)(a + VEC_LANES * k);
    }
    UNROLL for (int k = 0; k < VEC_LANES; k++) {
        const VEC x = r ? VEC_(csub)(v[k], C.p2) : VEC_(csub)(VEC_(csub)(v[k], C.p2), C.p);
        v[k] = VEC_(mont2)(x, v[VEC_LANES + k], C);
    }
    VEC_(leaf_prefetch)(M->iw, nd + LEAF_AHEAD);
    VEC_(leaf_prefetch)(M->iwx, nd + LEAF_AHEAD);
    VEC_(invleaf)(v, nd, M, C, kind, 1);
    UNROLL for (int k = 0; k < VEC_LANES; k++) VEC_(store)(b + VEC_LANES * k, v[k]);
}

#undef VEC_LG
#undef VEC_
#undef VEC
#undef VEC_LANES
