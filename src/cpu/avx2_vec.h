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

/* ---- leaves: the last 2 log2(VLANES) levels of a VLANES^2-element block ------
 * Block node nd; vector k holds elements VLANES k .. VLANES k + VLANES - 1.
 * The levels of distance VLANES^2/2 down to VLANES pair whole vectors
 * (broadcast twiddles).  After a VLANES x VLANES transpose, vector j holds
 * element VLANES k + j in lane k, so the levels of distance VLANES/2 down
 * to 1 pair whole vectors too, with one twiddle per lane: at the s-th of
 * them (distance VLANES / 2^(s+1)), the g-th group of vector pairs wants
 * nodes 2^s (VLANES nd + k) + g in lanes k, a stride the tables' regroup()
 * (avx2.c) turns into one load.  The polymul path leaves the block
 * transposed (the pointwise product does not care) and so pays one
 * transpose per transform. */

#define VLG (VLANES == 16 ? 4 : 3)

/* VLANES consecutive (regrouped) twiddles, one per lane. */
NTT_INLINE VS(vtw) VS(tw_loadv)(const uint32_t *w, const uint32_t *x, size_t i)
{
    VS(vtw) t;
    t.w = VLOAD(w + i);
    t.x = VLOAD(x + i);
    t.xo = VI(srli_epi64)(t.x, 32);
    return t;
}

NTT_INLINE void VS(transpose)(VT v[VLANES])
{
    VT t[VLANES], u[VLANES];
    UNROLL for (int k = 0; k < VLANES; k += 2) {
        t[k] = VI(unpacklo_epi32)(v[k], v[k + 1]);
        t[k + 1] = VI(unpackhi_epi32)(v[k], v[k + 1]);
    }
    /* u[4m + c], 128-bit lane l: rows 4m .. 4m+3 of column 4l + c. */
    UNROLL for (int k = 0; k < VLANES; k += 4) {
        u[k] = VI(unpacklo_epi64)(t[k], t[k + 2]);
        u[k + 1] = VI(unpackhi_epi64)(t[k], t[k + 2]);
        u[k + 2] = VI(unpacklo_epi64)(t[k + 1], t[k + 3]);
        u[k + 3] = VI(unpackhi_epi64)(t[k + 1], t[k + 3]);
    }
#if VLANES == 8
    UNROLL for (int k = 0; k < 4; k++) {
        v[k] = _mm256_permute2x128_si256(u[k], u[k + 4], 0x20);
        v[k + 4] = _mm256_permute2x128_si256(u[k], u[k + 4], 0x31);
    }
#else
    /* Column 4l + c gathers lane l of u[c], u[4 + c], u[8 + c], u[12 + c]. */
    UNROLL for (int c = 0; c < 4; c++) {
        VT o[4];
        lanes4x4(u[c], u[4 + c], u[8 + c], u[12 + c], o);
        UNROLL for (int l = 0; l < 4; l++) v[4 * l + c] = o[l];
    }
#endif
}

/* The leaf levels on nb blocks' vectors (VLANES each), the second at node
   nd + dn (dn = 0: two arrays' blocks at one node), leaving them
   transposed, in [0, 4p); r: the range they come in (see lazy_red).  Two
   blocks at a time give the core independent work while one waits on its
   multiplications (8 lanes; 16 lanes have eight independent butterflies per
   level in one block, and two blocks would not fit the registers). */
NTT_INLINE void VS(fwdleaf)(VT *v, size_t nd, size_t dn, const mod_u32 *M, VS(vcst) C,
                            const int kind, const int r, const int nb)
{
    const uint32_t *fw = M->fw, *fx = M->fwx;
    int rr = r;
    UNROLL for (int s = 0; s < VLG; s++, rr = lazy_next(rr, 0)) {
        const int red = lazy_red(rr, 0), dv = VLANES >> (s + 1);
        UNROLL for (int b = 0; b < nb; b++)
            UNROLL for (int g = 0; g < 1 << s; g++) {
                const VS(vtw) w = VS(tw_bcast)(fw, fx, ((nd + b * dn) << s) + (size_t)g);
                UNROLL for (int i = 0; i < dv; i++) {
                    VT *x = v + VLANES * b + 2 * dv * g + i;
                    VS(ctr)(x, x + dv, w, C, kind, red);
                }
            }
    }
    UNROLL for (int b = 0; b < nb; b++) VS(transpose)(v + VLANES * b);
    UNROLL for (int s = 0; s < VLG; s++, rr = lazy_next(rr, 0)) {
        const int red = lazy_red(rr, s == VLG - 1), dv = VLANES >> (s + 1);
        UNROLL for (int b = 0; b < nb; b++)
            UNROLL for (int g = 0; g < 1 << s; g++) {
                const VS(vtw) w = VS(tw_loadv)(fw, fx, ((nd + b * dn) * VLANES << s) + VLANES * (size_t)g);
                UNROLL for (int i = 0; i < dv; i++) {
                    VT *x = v + VLANES * b + 2 * dv * g + i;
                    VS(ctr)(x, x + dv, w, C, kind, red);
                }
            }
    }
}

/* The inverse of fwdleaf on the blocks at nodes nd .. nd + nb - 1:
   transposed vectors in, natural order out. */
NTT_INLINE void VS(invleaf)(VT *v, size_t nd, const mod_u32 *M, VS(vcst) C, const int kind,
                            const int nb)
{
    const uint32_t *iw = M->iw, *ix = M->iwx;
    UNROLL for (int s = VLG - 1; s >= 0; s--) {
        const int dv = VLANES >> (s + 1);
        UNROLL for (int b = 0; b < nb; b++)
            UNROLL for (int g = 0; g < 1 << s; g++) {
                const VS(vtw) w = VS(tw_loadv)(iw, ix, ((nd + b) * VLANES << s) + VLANES * (size_t)g);
                UNROLL for (int i = 0; i < dv; i++) {
                    VT *x = v + VLANES * b + 2 * dv * g + i;
                    VS(gs)(x, x + dv, w, C, kind);
                }
            }
    }
    UNROLL for (int b = 0; b < nb; b++) VS(transpose)(v + VLANES * b);
    UNROLL for (int s = VLG - 1; s >= 0; s--) {
        const int dv = VLANES >> (s + 1);
        UNROLL for (int b = 0; b < nb; b++)
            UNROLL for (int g = 0; g < 1 << s; g++) {
                const VS(vtw) w = VS(tw_bcast)(iw, ix, ((nd + b) << s) + (size_t)g);
                UNROLL for (int i = 0; i < dv; i++) {
                    VT *x = v + VLANES * b + 2 * dv * g + i;
                    VS(gs)(x, x + dv, w, C, kind);
                }
            }
    }
}

/* Leaves ahead of the one at work whose twiddles leaf_prefetch asks for
   (-DLEAF_AHEAD=d for sweeps: 2 to 16 measured alike on the EPYC VM). */
#ifndef LEAF_AHEAD
#define LEAF_AHEAD 4
#endif

/* Asks for the lines of table t (fw, fwx, iw or iwx) that the leaf at node
   nd reads.  The product's leaves read 4 KiB of twiddles each (16 lanes),
   a quarter of them per table; with the tables in DRAM, as they are when
   other work ran between two products, the hardware prefetchers left each
   leaf waiting on its misses.  Addresses are made as integers: nd may be
   past the last leaf, and a prefetch never faults. */
NTT_INLINE void VS(leaf_prefetch)(const uint32_t *t, size_t nd)
{
    const uintptr_t base = (uintptr_t)t;
    for (int s = 0; s < VLG; s++) {
        _mm_prefetch((const char *)(base + ((nd << s) << 2)), _MM_HINT_T0);
        const uintptr_t v = base + ((nd * VLANES << s) << 2);
        for (size_t o = 0; o < (size_t)(VLANES * 4) << s; o += 64)
            _mm_prefetch((const char *)(v + o), _MM_HINT_T0);
    }
}

/* nb blocks from node nd on; tout: leave them in natural order (public
   forward). */
NTT_INLINE void VS(fwd_last)(uint32_t *a, size_t nd, const mod_u32 *M, const int kind,
                             const int tout, const int r, const int nb)
{
    const VS(vcst) C = VS(vcst_of)(M);
    VT v[2 * VLANES];
    UNROLL for (int b = 0; b < nb; b++) {
        VS(leaf_prefetch)(M->fw, nd + LEAF_AHEAD + b);
        VS(leaf_prefetch)(M->fwx, nd + LEAF_AHEAD + b);
    }
    UNROLL for (int k = 0; k < VLANES * nb; k++) v[k] = VLOAD(a + VLANES * k);
    VS(fwdleaf)(v, nd, 1, M, C, kind, r, nb);
    UNROLL for (int b = 0; b < nb && tout; b++) VS(transpose)(v + VLANES * b);
    UNROLL for (int k = 0; k < VLANES * nb; k++) VSTORE(a + VLANES * k, v[k]);
}

/* tin: the blocks come in natural order (public inverse). */
NTT_INLINE void VS(inv_last)(uint32_t *a, size_t nd, const mod_u32 *M, const int kind,
                             const int tin, const int nb)
{
    const VS(vcst) C = VS(vcst_of)(M);
    VT v[2 * VLANES];
    UNROLL for (int b = 0; b < nb; b++) {
        VS(leaf_prefetch)(M->iw, nd + LEAF_AHEAD + b);
        VS(leaf_prefetch)(M->iwx, nd + LEAF_AHEAD + b);
    }
    UNROLL for (int k = 0; k < VLANES * nb; k++) v[k] = VLOAD(a + VLANES * k);
    UNROLL for (int b = 0; b < nb && tin; b++) VS(transpose)(v + VLANES * b);
    VS(invleaf)(v, nd, M, C, kind, nb);
    UNROLL for (int k = 0; k < VLANES * nb; k++) VSTORE(a + VLANES * k, v[k]);
}

/* The blocks at node nd of b and a: their forward leaves, the product and
   b's inverse leaves.  8 lanes: a's and b's levels side by side on shared
   twiddles, and a's spectrum is never stored; 16 lanes: a's block goes
   first and back to memory (L1), since both would not fit the registers.
   When lazy (r), 8p <= 2^32 lets mont2 take its first factor in [0, 2p)
   against the second in [0, 4p): the product stays below p 2^32;
   otherwise both are reduced to [0, p) (mul2, the factor F of the scalar
   kernels: both vectorized kinds use Montgomery here). */
NTT_INLINE void VS(mul_last)(uint32_t *b, uint32_t *a, size_t nd, const mod_u32 *M,
                             const int kind, const int r)
{
    const VS(vcst) C = VS(vcst_of)(M);
    VT v[2 * VLANES];
    VS(leaf_prefetch)(M->fw, nd + LEAF_AHEAD);
    if (VLANES == 8) {
        UNROLL for (int k = 0; k < VLANES; k++) {
            v[k] = VLOAD(b + VLANES * k);
            v[VLANES + k] = VLOAD(a + VLANES * k);
        }
        VS(fwdleaf)(v, nd, 0, M, C, kind, r, 2);
    } else {
        UNROLL for (int k = 0; k < VLANES; k++) v[k] = VLOAD(a + VLANES * k);
        VS(fwdleaf)(v, nd, 0, M, C, kind, r, 1);
        UNROLL for (int k = 0; k < VLANES; k++) VSTORE(a + VLANES * k, v[k]);
        VS(leaf_prefetch)(M->fwx, nd + LEAF_AHEAD);
        UNROLL for (int k = 0; k < VLANES; k++) v[k] = VLOAD(b + VLANES * k);
        VS(fwdleaf)(v, nd, 0, M, C, kind, r, 1);
        UNROLL for (int k = 0; k < VLANES; k++) v[VLANES + k] = VLOAD(a + VLANES * k);
    }
    UNROLL for (int k = 0; k < VLANES; k++) {
        const VT x = r ? VS(csub)(v[k], C.p2) : VS(csub)(VS(csub)(v[k], C.p2), C.p);
        v[k] = VS(mont2)(x, v[VLANES + k], C);
    }
    VS(leaf_prefetch)(M->iw, nd + LEAF_AHEAD);
    VS(leaf_prefetch)(M->iwx, nd + LEAF_AHEAD);
    VS(invleaf)(v, nd, M, C, kind, 1);
    UNROLL for (int k = 0; k < VLANES; k++) VSTORE(b + VLANES * k, v[k]);
}

#undef VLG

#undef VW
#undef VSFX
#undef VT
#undef VLANES
#undef VEVEN
#undef VLOAD
#undef VSTORE
