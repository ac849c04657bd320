/*
 * The u32 butterflies and the wide (radix-4 and radix-2) levels of the
 * AVX2 backend, on one vector width: avx2.c includes this file once for
 * 256-bit vectors and, in the AVX-512 build, once more for 512-bit ones.
 * Parameters (avx2.c defines them before each inclusion; the end of this
 * file undefines them):
 * VW the width in bits, VT the vector type, VLANES its 32-bit lanes, VEVEN
 * the mask of its even lanes, VLOAD / VSTORE unaligned accesses; VS(name)
 * is the width's name of a function or type here (name itself for 256
 * bits), VI(op) the width's intrinsic _mmVW_op.
 */

/* Lane constants of one modulus. */
typedef struct {
    VT p, p2, p4, pinv;
} VS(vcst);

/* A twiddle vector: values, companions (Shoup quotient or Montgomery form)
   and the companions of the odd lanes moved to the even ones, which is
   what vpmuludq reads. */
typedef struct {
    VT w, x, xo;
} VS(vtw);

NTT_INLINE VS(vcst) VS(vcst_of)(const mod_u32 *M)
{
    VS(vcst) c = {VI(set1_epi32)((int)M->c.p), VI(set1_epi32)((int)M->c.p2),
                  VI(set1_epi32)((int)(4 * M->c.p)), VI(set1_epi32)((int)M->c.pinv)};
    return c;
}

NTT_INLINE VS(vtw) VS(tw_bcast)(const uint32_t *w, const uint32_t *x, size_t i)
{
    VS(vtw) t;
    t.w = VI(set1_epi32)((int)w[i]);
    t.x = VI(set1_epi32)((int)x[i]);
    t.xo = t.x;
    return t;
}

NTT_INLINE VS(vtw) VS(tw_scalar)(tw_u32 s)
{
    VS(vtw) t;
    t.w = VI(set1_epi32)((int)s.w);
    t.x = VI(set1_epi32)((int)s.x);
    t.xo = t.x;
    return t;
}

/* x in [0, 2m) -> [0, m): x - m wraps above x exactly when x < m. */
NTT_INLINE VT VS(csub)(VT x, VT m) { return VI(min_epu32)(x, VI(sub_epi32)(x, m)); }

/* The high halves of the 64-bit products in the even lanes (e) and the odd
   lanes (o), as one vector of 32-bit lanes. */
NTT_INLINE VT VS(hi_halves)(VT e, VT o)
{
#ifdef __AVX512VL__
    /* One masked shuffle: e's odd words into the even lanes of o. */
    return VI(mask_shuffle_epi32)(o, VEVEN, e, (_MM_PERM_ENUM)_MM_SHUFFLE(2, 3, 0, 1));
#else
    return VI(blend_epi32)(VI(srli_epi64)(e, 32), o, 0xAA);
#endif
}

/* y in [0, 4p) (any 32-bit y for Shoup) -> y*w mod p in [0, 2p).
   Shoup: q = hi(y w'), r = y w - q p (mod 2^32).
   Montgomery: REDC(y W) with W = w R mod p: y W < 4p^2 < p 2^32. */
NTT_INLINE VT VS(mulw)(VT y, VS(vtw) W, VS(vcst) C, const int kind)
{
    const VT yo = VI(srli_epi64)(y, 32);
    if (kind == NTT_MODMUL_SHOUP) {
        const VT q = VS(hi_halves)(VI(mul_epu32)(y, W.x), VI(mul_epu32)(yo, W.xo));
        return VI(sub_epi32)(VI(mullo_epi32)(y, W.w), VI(mullo_epi32)(q, C.p));
    }
    const VT te = VI(mul_epu32)(y, W.x), to = VI(mul_epu32)(yo, W.xo);
    const VT m = VI(mullo_epi32)(VI(mullo_epi32)(y, W.x), C.pinv);
    const VT ue = VI(mul_epu32)(m, C.p), uo = VI(mul_epu32)(VI(srli_epi64)(m, 32), C.p);
    return VS(hi_halves)(VI(add_epi64)(te, ue), VI(add_epi64)(to, uo));
}

/* Montgomery product of two variables: a in [0, p), b < 4p -> a b R^-1 in
   [0, 2p). */
NTT_INLINE VT VS(mont2)(VT a, VT b, VS(vcst) C)
{
    const VT te = VI(mul_epu32)(a, b);
    const VT to = VI(mul_epu32)(VI(srli_epi64)(a, 32), VI(srli_epi64)(b, 32));
    const VT m = VI(mullo_epi32)(VI(mullo_epi32)(a, b), C.pinv);
    const VT ue = VI(mul_epu32)(m, C.p), uo = VI(mul_epu32)(VI(srli_epi64)(m, 32), C.p);
    return VS(hi_halves)(VI(add_epi64)(te, ue), VI(add_epi64)(to, uo));
}

/* Cooley-Tukey: x + wy, x - wy + 2p.  red 1: x in [0, 4p) is reduced to
   [0, 2p) first, so the outputs are in [0, 4p); red 2: the same for x in
   [0, 8p); red 0: x is left as it is and the outputs grow by 2p (see
   lazy_red). */
NTT_INLINE void VS(ctr)(VT *x, VT *y, VS(vtw) W, VS(vcst) C, const int kind, const int red)
{
    const VT xr = red == 2 ? VS(csub)(*x, C.p4) : *x;
    const VT x0 = red ? VS(csub)(xr, C.p2) : xr, t = VS(mulw)(*y, W, C, kind);
    *x = VI(add_epi32)(x0, t);
    *y = VI(add_epi32)(VI(sub_epi32)(x0, t), C.p2);
}

NTT_INLINE void VS(ct)(VT *x, VT *y, VS(vtw) W, VS(vcst) C, const int kind)
{
    VS(ctr)(x, y, W, C, kind, 1);
}

/* The same with w = 1. */
NTT_INLINE void VS(ct1)(VT *x, VT *y, VS(vcst) C)
{
    const VT x0 = VS(csub)(*x, C.p2), t = VS(csub)(*y, C.p2);
    *x = VI(add_epi32)(x0, t);
    *y = VI(add_epi32)(VI(sub_epi32)(x0, t), C.p2);
}

/* Gentleman-Sande: x, y in [0, 2p) -> x + y, (x - y) w in [0, 2p). */
NTT_INLINE void VS(gs)(VT *x, VT *y, VS(vtw) W, VS(vcst) C, const int kind)
{
    const VT s = VS(csub)(VI(add_epi32)(*x, *y), C.p2);
    *y = VS(mulw)(VI(add_epi32)(VI(sub_epi32)(*x, *y), C.p2), W, C, kind);
    *x = s;
}

NTT_INLINE void VS(gs1)(VT *x, VT *y, VS(vcst) C)
{
    const VT s = VS(csub)(VI(add_epi32)(*x, *y), C.p2);
    *y = VS(csub)(VI(add_epi32)(VI(sub_epi32)(*x, *y), C.p2), C.p2);
    *x = s;
}

/* ---- wide levels ----------------------------------------------------------- */

/* Two forward levels (node i; 2i, 2i+1) over quarters q apart, positions
   [0, cnt), cnt a multiple of VLANES (the drivers split no finer than 8;
   avx2.c's WIDE picks the width); `one`: node i (and so 2i) has twiddle 1;
   r: see lazy_red (0 for the drivers' calls).
   nb = 2: the same on b too, interleaved (as fwd6 does). */
NTT_INLINE void VS(fwd4v)(uint32_t *a, uint32_t *b, size_t q, size_t cnt, size_t i,
                          const mod_u32 *M, const int kind, const int one, const int r,
                          const int nb)
{
    const int ra = lazy_red(r, 0), rb = lazy_red(lazy_next(r, 0), 0);
    const VS(vcst) C = VS(vcst_of)(M);
    const VS(vtw) w1 = VS(tw_bcast)(M->fw, M->fwx, i), w2 = VS(tw_bcast)(M->fw, M->fwx, 2 * i);
    const VS(vtw) w3 = VS(tw_bcast)(M->fw, M->fwx, 2 * i + 1);
    uint32_t *const c[2] = {a, b};
    for (size_t j = 0; j < cnt; j += VLANES) {
        VT x[8];
        for (int s = 0; s < 4 * nb; s++) x[s] = VLOAD(c[s / 4] + (size_t)(s % 4) * q + j);
        for (int s = 0; s < 4 * nb; s += 4) {
            if (one) {
                VS(ct1)(&x[s], &x[s + 2], C);
                VS(ct1)(&x[s + 1], &x[s + 3], C);
            } else {
                VS(ctr)(&x[s], &x[s + 2], w1, C, kind, ra);
                VS(ctr)(&x[s + 1], &x[s + 3], w1, C, kind, ra);
            }
        }
        for (int s = 0; s < 4 * nb; s += 4) {
            if (one) VS(ct1)(&x[s], &x[s + 1], C);
            else VS(ctr)(&x[s], &x[s + 1], w2, C, kind, rb);
            VS(ctr)(&x[s + 2], &x[s + 3], w3, C, kind, rb);
        }
        for (int s = 0; s < 4 * nb; s++) VSTORE(c[s / 4] + (size_t)(s % 4) * q + j, x[s]);
    }
}

NTT_INLINE void VS(fwd2v)(uint32_t *a, uint32_t *b, size_t h, size_t cnt, size_t i,
                          const mod_u32 *M, const int kind, const int r, const int nb)
{
    const VS(vcst) C = VS(vcst_of)(M);
    const VS(vtw) w = VS(tw_bcast)(M->fw, M->fwx, i);
    uint32_t *const c[2] = {a, b};
    for (size_t j = 0; j < cnt; j += VLANES) {
        for (int s = 0; s < nb; s++) {
            VT x = VLOAD(c[s] + j), y = VLOAD(c[s] + j + h);
            VS(ctr)(&x, &y, w, C, kind, lazy_red(r, 0));
            VSTORE(c[s] + j, x);
            VSTORE(c[s] + j + h, y);
        }
    }
}

NTT_INLINE void VS(inv4v)(uint32_t *a, size_t q, size_t cnt, size_t i, const mod_u32 *M,
                          const int kind, const int one)
{
    const VS(vcst) C = VS(vcst_of)(M);
    const VS(vtw) w1 = VS(tw_bcast)(M->iw, M->iwx, i), w2 = VS(tw_bcast)(M->iw, M->iwx, 2 * i);
    const VS(vtw) w3 = VS(tw_bcast)(M->iw, M->iwx, 2 * i + 1);
    uint32_t *a0 = a, *a1 = a + q, *a2 = a + 2 * q, *a3 = a + 3 * q;
    for (size_t j = 0; j < cnt; j += VLANES) {
        VT x0 = VLOAD(a0 + j), x1 = VLOAD(a1 + j), x2 = VLOAD(a2 + j), x3 = VLOAD(a3 + j);
        VS(gs)(&x2, &x3, w3, C, kind);
        if (one) {
            VS(gs1)(&x0, &x1, C);
            VS(gs1)(&x0, &x2, C);
            VS(gs1)(&x1, &x3, C);
        } else {
            VS(gs)(&x0, &x1, w2, C, kind);
            VS(gs)(&x0, &x2, w1, C, kind);
            VS(gs)(&x1, &x3, w1, C, kind);
        }
        VSTORE(a0 + j, x0);
        VSTORE(a1 + j, x1);
        VSTORE(a2 + j, x2);
        VSTORE(a3 + j, x3);
    }
}

NTT_INLINE void VS(inv2v)(uint32_t *a, size_t h, size_t cnt, size_t i, const mod_u32 *M,
                          const int kind)
{
    const VS(vcst) C = VS(vcst_of)(M);
    const VS(vtw) w = VS(tw_bcast)(M->iw, M->iwx, i);
    for (size_t j = 0; j < cnt; j += VLANES) {
        VT x = VLOAD(a + j), y = VLOAD(a + j + h);
        VS(gs)(&x, &y, w, C, kind);
        VSTORE(a + j, x);
        VSTORE(a + j + h, y);
    }
}

#undef VW
#undef VSFX
#undef VT
#undef VLANES
#undef VEVEN
#undef VLOAD
#undef VSTORE
