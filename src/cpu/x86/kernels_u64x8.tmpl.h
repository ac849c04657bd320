/*
 * TEMPLATE kernels_u64x8.tmpl.h, instantiated once by ifma.c and once by
 * kernels_u64_lanes.c, each after u64x8.h and its lanes' arithmetic header
 * (u64x8_ifma.h, u64x8_lanes64.h), which define what it expects.
 *
 * Expects (defined by that arithmetic header):
 *   icst                     its constants, with members p, p2 (V) and r,
 *                            rq (the pair of M->fix);
 *   icst icst_of(const mod_u64 *M);
 *   V mulw(V y, V w, V wq, const icst *C)
 *                            y w mod p in [0, 2p) for y below 4p (narrow)
 *                            or 2p (wide), with wq the table's companion;
 *   V mont(V a, V b, const icst *C)
 *                            a b R^-1 mod p in [0, 2p) for a b < p R and
 *                            a, b below the multiplier's input width
 *                            (Montgomery's product, R = 2^52 or 2^64);
 *   tw_u64 kern_tw(uint64_t w, uint64_t p, int rng)
 *                            a constant w < p in the tables' form;
 *   uint64_t kern_fix(uint64_t p)
 *                            R mod p, the factor that mont leaves undone;
 *   void kern_forms(mod_u64 *M, size_t n, int rng)
 *                            the plan's twiddle tables (plain values with
 *                            their 64-bit Shoup companions) brought to the
 *                            tables' form;
 *   KERN_MULMOD              1 if it has V mulmod(V a, V b, const icst *C),
 *                            a b mod p in [0, p) for a, b < p, for the
 *                            public pointwise product (else mul2), else 0;
 *   KERN_NAME                the kernel family's name (kern_u64.name);
 *   KERN_FULL                1 to build the wide and full tables too (with
 *                            V mulw_full(V y, V w, V wq, const icst *C):
 *                            y w mod p in [0, 2p) for y < 2^52 and a
 *                            Montgomery-form twiddle), else 0.
 * Defines  the static kern_u64 tables narrow_kernels and (KERN_FULL)
 *          wide_kernels and full_kernels; leaves U64X8_AHEAD defined.
 *
 * The u64 kernels on eight 64-bit lanes (AVX-512), shared by the IFMA
 * kernels (ifma.c, p < 2^52) and the 64-bit-lane kernels
 * (kernels_u64_lanes.c, 2^51 <= p < 2^62), which differ only in their modular products.  Harvey's
 * butterflies with lazy ranges chosen per prime (the `rng` argument):
 *  - narrow: forward values in [0, 4p), inverse values in [0, 2p).  A CT
 *    butterfly takes x, y in [0, 4p), brings x to [0, 2p), t = w y in
 *    [0, 2p), gives x + t and x - t + 2p in [0, 4p).  A GS butterfly takes
 *    x, y in [0, 2p), gives x + y brought to [0, 2p) and w (x - y + 2p)
 *    (multiplier input below 4p) in [0, 2p).  For a multiplier that takes
 *    inputs below 4p: IFMA's 52 bits for p < 2^50, or 64 bits.
 *  - wide: forward values stay in [0, 2p) too (x + t and x - t each
 *    brought back), and the GS butterfly brings x - y to [0, 2p) before
 *    the multiplication: IFMA for 2^50 <= p < 2^51, where 2p <= 2^52 < 4p.
 *  - full: every value in [0, p), each product reduced to it too: IFMA
 *    for 2^51 <= p < 2^52, where only p <= 2^52 < 2p.  The Shoup product's
 *    remainder, up to 2p, would not fit IFMA's 52-bit low halves there, so
 *    these tables hold twiddles in Montgomery's form (mulw_full).
 * Values are plain integers in the arrays, so public values need no
 * conversion in or out.  Leaves: the last six levels of every 64-element
 * block in registers, three on whole vectors with broadcast twiddles, an
 * 8 x 8 transpose, three more with one twiddle per lane from the tables
 * that ntt_cpu_regroup() lays out for 8 lanes.
 *
 * The product path leaves the factor R^-1 of its pointwise products
 * (mont, on values of both transforms) in place and folds R into the
 * scale of its root level (s_mul = R n^-1): one multiplication per
 * element fewer.  The public pointwise product multiplies by R mod p
 * (mul2), or uses the includer's mulmod.  The product's first pass
 * (load_top) copies, zero-pads, checks the range of and runs the first
 * level(s) on the operands in one pass;
 * load_top_scaled also multiplies the shorter operand of a cyclic product
 * by s_mul, so that the root's outputs need no multiplication.
 */

typedef struct {
    V w, q;
} itw;

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

/* The bound that sums and differences come back below: 2p, or p (full). */
NTT_INLINE V rbound(const icst *C, const int rng) { return rng == R_FULL ? C->p : C->p2; }

/* y w mod p for a twiddle W of the tables' form: in [0, 2p), or [0, p)
   (full). */
NTT_INLINE V mulr(V y, itw W, const icst *C, const int rng)
{
#if KERN_FULL
    if (rng == R_FULL) return vcsub(mulw_full(y, W.w, W.q, C), C->p);
#else
    (void)rng;
#endif
    return mulw(y, W.w, W.q, C);
}

/* See the head of this file for the ranges.  xlow: x is known to be below
   2p already (narrow: no reduction of x first). */
NTT_INLINE void ctx(V *x, V *y, itw W, const icst *C, const int rng, const int xlow)
{
    const V t = mulr(*y, W, C, rng);
    if (rng != R_NARROW) {
        const V m = rbound(C, rng);
        *y = vcadd(vsub(*x, t), m);
        *x = vcsub(vadd(*x, t), m);
    } else {
        const V xr = xlow ? *x : vcsub(*x, C->p2);
        *x = vadd(xr, t);
        *y = vsub(vadd(xr, C->p2), t);
    }
}

NTT_INLINE void ct(V *x, V *y, itw W, const icst *C, const int rng) { ctx(x, y, W, C, rng, 0); }

/* x - y for inverse values x, y: back in their range when low, else
   x - y + 2p in (0, 4p) (narrow; one operation fewer). */
NTT_INLINE V gdiff(V x, V y, const icst *C, const int rng, const int low)
{
    return low ? vcadd(vsub(x, y), rbound(C, rng)) : vadd(vsub(x, y), C->p2);
}

NTT_INLINE void gs(V *x, V *y, itw W, const icst *C, const int rng)
{
    const V s = vcsub(vadd(*x, *y), rbound(C, rng));
    *y = mulr(gdiff(*x, *y, C, rng, rng != R_NARROW), W, C, rng);
    *x = s;
}

/* A forward value -> [0, p). */
NTT_INLINE V full(V x, const icst *C, const int rng)
{
    if (rng == R_FULL) return x;
    if (rng == R_NARROW) x = vcsub(x, C->p2);
    return vcsub(x, C->p);
}

/* ---- wide levels: positions [0, cnt) of each quarter or half ---- */

NTT_INLINE void lvl4(uint64_t *a, size_t q, size_t cnt, size_t i, const mod_u64 *M,
                     const int inv, const int rng)
{
    const icst C = icst_of(M);
    const uint64_t *w = inv ? M->iw : M->fw, *wx = inv ? M->iwx : M->fwx;
    const itw w1 = tw_bcast(w, wx, i), w2 = tw_bcast(w, wx, 2 * i), w3 = tw_bcast(w, wx, 2 * i + 1);
    uint64_t *a0 = a, *a1 = a + q, *a2 = a + 2 * q, *a3 = a + 3 * q;
    for (size_t j = 0; j < cnt; j += 8) {
        const __mmask8 k = tail(j, cnt);
        V x0 = vldk(k, a0 + j), x1 = vldk(k, a1 + j);
        V x2 = vldk(k, a2 + j), x3 = vldk(k, a3 + j);
        if (!inv) {
            ct(&x0, &x2, w1, &C, rng);
            ct(&x1, &x3, w1, &C, rng);
            ct(&x0, &x1, w2, &C, rng);
            ct(&x2, &x3, w3, &C, rng);
        } else {
            gs(&x0, &x1, w2, &C, rng);
            gs(&x2, &x3, w3, &C, rng);
            gs(&x0, &x2, w1, &C, rng);
            gs(&x1, &x3, w1, &C, rng);
        }
        vstk(a0 + j, k, x0);
        vstk(a1 + j, k, x1);
        vstk(a2 + j, k, x2);
        vstk(a3 + j, k, x3);
    }
}

NTT_INLINE void lvl2(uint64_t *a, size_t h, size_t cnt, size_t i, const mod_u64 *M,
                     const int inv, const int rng)
{
    const icst C = icst_of(M);
    const itw w = inv ? tw_bcast(M->iw, M->iwx, i) : tw_bcast(M->fw, M->fwx, i);
    for (size_t j = 0; j < cnt; j += 8) {
        const __mmask8 k = tail(j, cnt);
        V x = vldk(k, a + j), y = vldk(k, a + j + h);
        if (inv) gs(&x, &y, w, &C, rng);
        else ct(&x, &y, w, &C, rng);
        vstk(a + j, k, x);
        vstk(a + j + h, k, y);
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

/* The leaves work on nb blocks at once (two where the subtree has an even
   number, vectors 8 b .. 8 b + 7 holding block b), level by level: the
   butterflies of one block's level depend on each other's inputs only
   four at a time, and a chain of modular products is long (two IFMA
   latencies and more), so one block left the units waiting; two blocks'
   butterflies interleaved keep eight independent ones in flight. */

/* Leaves the blocks transposed: vector 8 b + j holds elements 8 k + j. */
NTT_INLINE void fwdleaf(V *v, size_t nd, const mod_u64 *M, const icst *C, const int rng,
                        const int nb)
{
    const uint64_t *fw = M->fw, *fx = M->fwx;
    UNROLL for (int s = 0; s < 3; s++) {
        const int dv = 8 >> (s + 1);
        UNROLL for (int b = 0; b < nb; b++) {
            UNROLL for (int g = 0; g < 1 << s; g++) {
                const itw w = tw_bcast(fw, fx, ((nd + (size_t)b) << s) + (size_t)g);
                V *u = v + 8 * b + 2 * dv * g;
                UNROLL for (int i = 0; i < dv; i++) ct(u + i, u + i + dv, w, C, rng);
            }
        }
    }
    UNROLL for (int b = 0; b < nb; b++) transpose(v + 8 * b);
    UNROLL for (int s = 0; s < 3; s++) {
        const int dv = 8 >> (s + 1);
        UNROLL for (int b = 0; b < nb; b++) {
            UNROLL for (int g = 0; g < 1 << s; g++) {
                const itw w = tw_loadv(fw, fx, ((nd + (size_t)b) * 8 << s) + 8 * (size_t)g);
                V *u = v + 8 * b + 2 * dv * g;
                UNROLL for (int i = 0; i < dv; i++) ct(u + i, u + i + dv, w, C, rng);
            }
        }
    }
}

NTT_INLINE void invleaf(V *v, size_t nd, const mod_u64 *M, const icst *C, const int rng,
                        const int nb)
{
    const uint64_t *iw = M->iw, *ix = M->iwx;
    UNROLL for (int s = 2; s >= 0; s--) {
        const int dv = 8 >> (s + 1);
        UNROLL for (int b = 0; b < nb; b++) {
            UNROLL for (int g = 0; g < 1 << s; g++) {
                const itw w = tw_loadv(iw, ix, ((nd + (size_t)b) * 8 << s) + 8 * (size_t)g);
                V *u = v + 8 * b + 2 * dv * g;
                UNROLL for (int i = 0; i < dv; i++) gs(u + i, u + i + dv, w, C, rng);
            }
        }
    }
    UNROLL for (int b = 0; b < nb; b++) transpose(v + 8 * b);
    UNROLL for (int s = 2; s >= 0; s--) {
        const int dv = 8 >> (s + 1);
        UNROLL for (int b = 0; b < nb; b++) {
            UNROLL for (int g = 0; g < 1 << s; g++) {
                const itw w = tw_bcast(iw, ix, ((nd + (size_t)b) << s) + (size_t)g);
                V *u = v + 8 * b + 2 * dv * g;
                UNROLL for (int i = 0; i < dv; i++) gs(u + i, u + i + dv, w, C, rng);
            }
        }
    }
}

/* Asks for the twiddles (values w, companions x) of leaf blocks nd ..
   nd + nb - 1, line by line. */
NTT_INLINE void prefetch_leaf_tw(const uint64_t *w, const uint64_t *x, size_t nd, size_t nb)
{
    for (unsigned s = 0; s < 3; s++) {
        for (size_t i = (nd * 8) << s; i < ((nd + nb) * 8) << s; i += 8) {
            _mm_prefetch((const char *)(w + i), _MM_HINT_T0);
            _mm_prefetch((const char *)(x + i), _MM_HINT_T0);
        }
        _mm_prefetch((const char *)(w + (nd << s)), _MM_HINT_T0);
        _mm_prefetch((const char *)(x + (nd << s)), _MM_HINT_T0);
    }
}

/* nb leaf blocks at x, from node nd on; t: in natural order, else
   transposed (the product path's own order). */
NTT_INLINE void leafblocks(uint64_t *x, size_t nd, const mod_u64 *M, const icst *C,
                           const int t, const int inv, const int rng, const int nb)
{
    V v[16];
    UNROLL for (int k = 0; k < 8 * nb; k++) v[k] = vld(x + 8 * k);
    if (!inv) {
        fwdleaf(v, nd, M, C, rng, nb);
        if (t) UNROLL for (int b = 0; b < nb; b++) transpose(v + 8 * b);
    } else {
        if (t) UNROLL for (int b = 0; b < nb; b++) transpose(v + 8 * b);
        invleaf(v, nd, M, C, rng, nb);
    }
    UNROLL for (int k = 0; k < 8 * nb; k++) vst(x + 8 * k, v[k]);
}

/* The leaf blocks of L elements from node nd on (see leafblocks). */
NTT_INLINE void leaves(uint64_t *a, size_t L, size_t nd, const mod_u64 *M, const int t,
                       const int inv, const int rng)
{
    const icst C = icst_of(M);
    size_t g = 0;
    for (; g + 2 <= L / 64; g += 2) {
        if (g + 4 <= L / 64) prefetch_leaf_tw(inv ? M->iw : M->fw, inv ? M->iwx : M->fwx, nd + g + 2, 2);
        leafblocks(a + 64 * g, nd + g, M, &C, t, inv, rng, 2);
    }
    if (g < L / 64) leafblocks(a + 64 * g, nd + g, M, &C, t, inv, rng, 1);
}

/* Levels of subtree i above its 64-element leaves; returns the node of the
   first leaf. */
NTT_INLINE size_t fwd_upper(uint64_t *a, size_t L, size_t i, const mod_u64 *M, const int rng)
{
    size_t len = L, node = i;
    if (ntt_log2(L) & 1) {
        lvl2(a, L / 2, L / 2, i, M, 0, rng);
        len = L / 2;
        node = 2 * i;
    }
    for (; len > 64; len >>= 2, node <<= 2)
        for (size_t g = 0; g < L / len; g++) lvl4(a + g * len, len / 4, len / 4, node + g, M, 0, rng);
    return node;
}

NTT_INLINE void inv_upper(uint64_t *a, size_t L, size_t i, const mod_u64 *M, const int rng)
{
    size_t len = 256;
    for (; len <= L; len <<= 2)
        for (size_t g = 0; g < L / len; g++)
            lvl4(a + g * len, len / 4, len / 4, i * (L / len) + g, M, 1, rng);
    if (len / 4 != L) lvl2(a, L / 2, L / 2, i, M, 1, rng);
}

NTT_INLINE void fwd_smallv(uint64_t *a, size_t L, size_t i, const mod_u64 *M, const int t,
                           const int rng)
{
    const size_t node = fwd_upper(a, L, i, M, rng);
    leaves(a, L, node, M, t, 0, rng);
}

NTT_INLINE void inv_smallv(uint64_t *a, size_t L, size_t i, const mod_u64 *M, const int t,
                           const int rng)
{
    leaves(a, L, i * (L / 64), M, t, 1, rng);
    inv_upper(a, L, i, M, rng);
}

/* Forward values a, b -> a b R^-1 mod p, an inverse value: mont on a and
   b below 2p (narrow: 4 p^2 < p R since 4p <= 2^52, or 4p < 2^64), on a
   below p (wide: 2 p^2 < p 2^52), on both below p then reduced (full). */
NTT_INLINE V lazy_prod(V a, V b, const icst *C, const int rng)
{
    if (rng == R_FULL) return vcsub(mont(a, b, C), C->p);
    if (rng == R_WIDE) return mont(vcsub(a, C->p), b, C);
    return mont(vcsub(a, C->p2), vcsub(b, C->p2), C);
}

/* nb leaf blocks of b at x: forward, times a's (y, forward and transposed
   already), inverse. */
NTT_INLINE void mul_leafblocks(uint64_t *x, const uint64_t *y, size_t nd, const mod_u64 *M,
                               const icst *C, const int rng, const int nb)
{
    V v[16];
    prefetch_leaf_tw(M->iw, M->iwx, nd, (size_t)nb);
    UNROLL for (int k = 0; k < 8 * nb; k++) v[k] = vld(x + 8 * k);
    fwdleaf(v, nd, M, C, rng, nb);
    UNROLL for (int k = 0; k < 8 * nb; k++) v[k] = lazy_prod(v[k], vld(y + 8 * k), C, rng);
    invleaf(v, nd, M, C, rng, nb);
    UNROLL for (int k = 0; k < 8 * nb; k++) vst(x + 8 * k, v[k]);
}

/* a's forward subtree first (transposed leaves), then b's, the product and
   b's inverse leaf by leaf. */
NTT_INLINE void mul_smallv(uint64_t *b, uint64_t *a, size_t L, size_t i, const mod_u64 *M,
                           const int rng)
{
    fwd_smallv(a, L, i, M, 0, rng);
    const size_t nd = fwd_upper(b, L, i, M, rng);
    const icst C = icst_of(M);
    size_t g = 0;
    for (; g + 2 <= L / 64; g += 2) mul_leafblocks(b + 64 * g, a + 64 * g, nd + g, M, &C, rng, 2);
    if (g < L / 64) mul_leafblocks(b + 64 * g, a + 64 * g, nd + g, M, &C, rng, 1);
    inv_upper(b, L, i, M, rng);
}

/* ---- products, reduction, root ---- */

/* Lazy: forward values in -> a b R^-1 mod p, inverse values (lazy_prod). */
NTT_INLINE void pointwisev(uint64_t *c, const uint64_t *a, const uint64_t *b, size_t len,
                           const mod_u64 *M, const int rng)
{
    const icst C = icst_of(M);
    for (size_t j = 0; j < len; j += 8) {
        const __mmask8 k = tail(j, len);
        const V x = vldk(k, a + j), y = vldk(k, b + j);
        vstk(c + j, k, lazy_prod(x, y, &C, rng));
    }
}

/* a < p, b < p -> a b mod p in [0, 2p): Montgomery's product (a b < p^2),
   then fix = R mod p to undo its factor (the full range's multiplier
   input below p). */
NTT_INLINE V mul2(V a, V b, const icst *C, const int rng)
{
    const V m = mont(a, b, C);
    const itw F = {C->r, C->rq};
    return mulr(rng == R_FULL ? vcsub(m, C->p) : m, F, C, rng);
}

/* a, b < p -> a b mod p in [0, p): the includer's own product where it
   has one (KERN_MULMOD), else mul2 and a subtraction. */
NTT_INLINE V pw_mul(V a, V b, const icst *C, const int rng)
{
#if KERN_MULMOD
    (void)rng;
    return mulmod(a, b, C);
#else
    return vcsub(mul2(a, b, C, rng), C->p);
#endif
}

/* Public values in and out, with the range check (kern.pointwise_checked):
   a vector with an input >= p ends it, nothing of it written. */
NTT_INLINE bool pointwise_checkedv(uint64_t *c, const uint64_t *a, const uint64_t *b, size_t len,
                                   const mod_u64 *M, const int rng)
{
    const icst C = icst_of(M);
    size_t j = 0;
    for (; j + 16 <= len; j += 16) {
        const V x0 = vld(a + j), y0 = vld(b + j), x1 = vld(a + j + 8), y1 = vld(b + j + 8);
        if (_mm512_cmpge_epu64_mask(_mm512_max_epu64(x0, y0), C.p)) return true;
        vst(c + j, pw_mul(x0, y0, &C, rng));
        if (_mm512_cmpge_epu64_mask(_mm512_max_epu64(x1, y1), C.p)) return true;
        vst(c + j + 8, pw_mul(x1, y1, &C, rng));
    }
    for (; j < len; j += 8) {
        const __mmask8 k = tail(j, len);
        const V x = vldk(k, a + j), y = vldk(k, b + j);
        if (_mm512_mask_cmpge_epu64_mask(k, _mm512_max_epu64(x, y), C.p)) return true;
        vstk(c + j, k, pw_mul(x, y, &C, rng));
    }
    return false;
}

NTT_INLINE void reducev(uint64_t *a, size_t len, const mod_u64 *M, const int rng)
{
    const icst C = icst_of(M);
    for (size_t j = 0; j < len; j += 8) {
        const __mmask8 k = tail(j, len);
        vstk(a + j, k, full(vldk(k, a + j), &C, rng));
    }
}

/* An inverse value x, below 2p -> x s mod p in [0, p); unit: s is one (then
   the narrow differences, multiplier inputs below 4p otherwise, come below
   2p). */
NTT_INLINE V scale(V x, itw S, const icst *C, const int rng, const int unit)
{
    return vcsub(unit ? x : mulr(x, S, C, rng), C->p);
}

/* out[j .. j+8) <- x in the lanes of k below lc, the caller's array end.
   Past lc lies memory that may be unmapped, and on AMD Zen a masked store
   into an unmapped page costs a microcode assist even with every lane off,
   which slowed every product whose length is no power of two: no store at
   all there (vstk). */
NTT_INLINE void put_out(uint64_t *out, size_t j, size_t lc, __mmask8 k, V x)
{
    if (j < lc) vstk(out + j, k & tail(j, lc), x);
}

/* See kern.inv_root: inverse values in, the output uint64_t. */
NTT_INLINE void inv_rootu(uint64_t *a, void *outv, size_t n, size_t lc, size_t j0, size_t j1,
                          tw_u64 s, tw_u64 s1, const mod_u64 *M, const int rng, const int unit)
{
    const icst C = icst_of(M);
    uint64_t *out = outv;
    const itw S = {v1(s.w), v1(s.x)}, S1 = {v1(s1.w), v1(s1.x)};
    const size_t e = j1 < lc ? j1 : lc; /* positions of the lowest part written */
    if (ntt_log2(n) & 1) {
        const size_t h = n / 2;
        for (size_t j = j0; j < e; j += 8) {
            const __mmask8 k = tail(j, e);
            const V x = vldk(k, a + j), y = vldk(k, a + j + h);
            const V d = gdiff(x, y, &C, rng, rng != R_NARROW || unit);
            put_out(out, j, lc, k, scale(vcsub(vadd(x, y), rbound(&C, rng)), S, &C, rng, unit));
            put_out(out, j + h, lc, k, scale(d, S1, &C, rng, unit));
        }
        return;
    }
    const size_t q = n / 4;
    const itw w2 = tw_bcast(M->iw, M->iwx, 2), w3 = tw_bcast(M->iw, M->iwx, 3);
    for (size_t j = j0; j < e; j += 8) {
        const __mmask8 k = tail(j, e);
        V x0 = vldk(k, a + j), x1 = vldk(k, a + j + q);
        V x2 = vldk(k, a + j + 2 * q), x3 = vldk(k, a + j + 3 * q);
        gs(&x0, &x1, w2, &C, rng);
        gs(&x2, &x3, w3, &C, rng);
        const int low = rng != R_NARROW || unit;
        const V d0 = gdiff(x0, x2, &C, rng, low), d1 = gdiff(x1, x3, &C, rng, low);
        put_out(out, j, lc, k, scale(vcsub(vadd(x0, x2), rbound(&C, rng)), S, &C, rng, unit));
        put_out(out, j + q, lc, k, scale(vcsub(vadd(x1, x3), rbound(&C, rng)), S, &C, rng, unit));
        put_out(out, j + 2 * q, lc, k, scale(d0, S1, &C, rng, unit));
        put_out(out, j + 3 * q, lc, k, scale(d1, S1, &C, rng, unit));
    }
}

/* A scale of one (after load_top_scaled; M->one in the tables' form)
   costs no multiplications. */
NTT_INLINE void inv_rootv(uint64_t *a, void *out, size_t n, size_t lc, size_t j0, size_t j1,
                          tw_u64 s, tw_u64 s1, const mod_u64 *M, const int rng)
{
    if (s.w == M->one.w && s1.w == M->one.w) inv_rootu(a, out, n, lc, j0, j1, s, s1, M, rng, 1);
    else inv_rootu(a, out, n, lc, j0, j1, s, s1, M, rng, 0);
}

/* ---- the product's first pass ---- */

/* The caller's operands are cold or in L3, read through two streams, and
   the hardware prefetchers bring them too late (as for the u32 kernels'
   load_top): each load asks for the line this many bytes further on.  The
   address is an integer, so no out-of-bounds pointer is formed. */
#define U64X8_AHEAD 2048

/* s[j .. j+8), zero at and past len, folded into the running maximum mx. */
NTT_INLINE V load_src(const uint64_t *s, size_t j, size_t len, V *mx)
{
    if (j >= len) return _mm512_setzero_si512();
    _mm_prefetch((const char *)((uintptr_t)s + 8 * j + U64X8_AHEAD), _MM_HINT_T0);
    const V x = vldk(tail(j, len), s + j);
    *mx = _mm512_max_epu64(*mx, x);
    return x;
}

/* kern.load_top for len <= n/2 (else the generic one): both copies of the
   zero-padded root level and, when log2 n is even, the level of nodes 2
   and 3, in one pass, with the range check.  Inputs below p need no
   reduction first: x, and the scaled x (sc: times s_mul, in mulr's range),
   are the low x of ctx.  sc also scales the y side, through the twiddles
   s_mul w2 and s_mul w3.  A cyclic plan's node 2 has twiddle one: x + y
   and x - y + p are below 2p, in range for narrow and wide, and one
   subtraction each brings them below p for full. */
NTT_INLINE bool load_topv(uint64_t *dst, const void *src, bool src64, size_t len, size_t n,
                          size_t j0, size_t j1, const mod_u64 *M, const int sc, const int rng)
{
    /* src64 or not, a u64 plan reads uint64_t. */
    if (len > n / 2) return ntt_cpu_load_top_u64(dst, src, src64, len, n, j0, j1, M);
    const uint64_t *s = src;
    const icst C = icst_of(M);
    const itw S = {v1(M->s_mul.w), v1(M->s_mul.x)};
    const size_t h = n / 2;
    V mx = _mm512_setzero_si512();
    if (ntt_log2(n) & 1) {
        for (size_t j = j0; j < j1; j += 8) {
            V x = load_src(s, j, len, &mx);
            if (sc) x = mulr(x, S, &C, rng);
            vst(dst + j, x);
            vst(dst + h + j, x);
        }
    } else {
        const size_t q = n / 4;
        const itw w2 = sc ? (itw){v1(M->s_mul_w2.w), v1(M->s_mul_w2.x)} : tw_bcast(M->fw, M->fwx, 2);
        const itw w3 = sc ? (itw){v1(M->s_mul_w3.w), v1(M->s_mul_w3.x)} : tw_bcast(M->fw, M->fwx, 3);
        const int one = M->cyclic && !sc;
        for (size_t j = j0; j < j1; j += 8) {
            V x = load_src(s, j, len, &mx);
            const V y = load_src(s, q + j, len, &mx);
            if (sc) x = mulr(x, S, &C, rng);
            V x0 = x, y0 = y, x1 = x, y1 = y;
            if (one && rng == R_FULL) {
                x0 = vcsub(vadd(x, y), C.p);
                y0 = vcadd(vsub(x, y), C.p);
            } else if (one) {
                x0 = vadd(x, y);
                y0 = vadd(vsub(x, y), C.p);
            } else {
                ctx(&x0, &y0, w2, &C, rng, 1);
            }
            ctx(&x1, &y1, w3, &C, rng, 1);
            vst(dst + j, x0);
            vst(dst + q + j, y0);
            vst(dst + h + j, x1);
            vst(dst + h + q + j, y1);
        }
    }
    return _mm512_cmpge_epu64_mask(mx, C.p) != 0;
}

/* The constants in the tables' form (kern_tw) and the product's scales
   (see the head of this file), from the plain values mod_init left in
   M->s_inv.w, M->s1_inv.w and the tables (w[2], w[3]: called before the
   includer changes the tables' form); fix: R mod p. */
static void arrange_scales(mod_u64 *M, uint64_t fix, const int rng)
{
    const uint64_t p = M->c.p, s = M->s_inv.w, s1 = M->s1_inv.w;
    const uint64_t sm = ntt_mulmod_slow(s, fix, p), sm1 = ntt_mulmod_slow(s1, fix, p);
    M->s_inv = kern_tw(s, p, rng);
    M->s1_inv = kern_tw(s1, p, rng);
    M->s_mul = kern_tw(sm, p, rng);
    M->s1_mul = kern_tw(sm1, p, rng);
    M->s_mul_w2 = kern_tw(ntt_mulmod_slow(sm, M->fw[2], p), p, rng);
    M->s_mul_w3 = kern_tw(ntt_mulmod_slow(sm, M->fw[3], p), p, rng);
    M->fix = kern_tw(fix, p, rng);
    M->one = kern_tw(1, p, rng);
}

/* The body of kern.arrange: the scales from the plain tables first, then
   the tables in their form, regrouped for 8-lane leaves. */
static void arrange_tables(mod_u64 *M, size_t n, const int rng)
{
    arrange_scales(M, kern_fix(M->c.p), rng);
    kern_forms(M, n, rng);
    ntt_cpu_regroup(M->fw, sizeof *M->fw, n, 8);
    ntt_cpu_regroup(M->fwx, sizeof *M->fwx, n, 8);
    ntt_cpu_regroup(M->iw, sizeof *M->iw, n, 8);
    ntt_cpu_regroup(M->iwx, sizeof *M->iwx, n, 8);
}

/* One kernel table per lazy range. */
#define U64X8_KERNELS(NAME, RNG)                                                              \
    static void NAME##fwd4(uint64_t *a, size_t q, size_t c, size_t i, const mod_u64 *M)       \
    { lvl4(a, q, c, i, M, 0, RNG); }                                                         \
    static void NAME##inv4(uint64_t *a, size_t q, size_t c, size_t i, const mod_u64 *M)       \
    { lvl4(a, q, c, i, M, 1, RNG); }                                                         \
    static void NAME##fwd2(uint64_t *a, size_t h, size_t c, size_t i, const mod_u64 *M)       \
    { lvl2(a, h, c, i, M, 0, RNG); }                                                         \
    static void NAME##inv2(uint64_t *a, size_t h, size_t c, size_t i, const mod_u64 *M)       \
    { lvl2(a, h, c, i, M, 1, RNG); }                                                         \
    static void NAME##fwd_small(uint64_t *a, size_t L, size_t i, const mod_u64 *M)            \
    { fwd_smallv(a, L, i, M, 1, RNG); }                                                      \
    static void NAME##fwd_small_p(uint64_t *a, size_t L, size_t i, const mod_u64 *M)          \
    { fwd_smallv(a, L, i, M, 0, RNG); }                                                      \
    static void NAME##inv_small(uint64_t *a, size_t L, size_t i, const mod_u64 *M)            \
    { inv_smallv(a, L, i, M, 1, RNG); }                                                      \
    static void NAME##inv_small_p(uint64_t *a, size_t L, size_t i, const mod_u64 *M)          \
    { inv_smallv(a, L, i, M, 0, RNG); }                                                      \
    static void NAME##mul_small(uint64_t *b, uint64_t *a, size_t L, size_t i, const mod_u64 *M) \
    { mul_smallv(b, a, L, i, M, RNG); }                                                      \
    static void NAME##pointwise(uint64_t *c, const uint64_t *a, const uint64_t *b, size_t len, \
                                const mod_u64 *M)                                             \
    { pointwisev(c, a, b, len, M, RNG); }                                                    \
    static void NAME##reduce(uint64_t *a, size_t len, const mod_u64 *M)                       \
    { reducev(a, len, M, RNG); }                                                             \
    static bool NAME##load_top(uint64_t *d, const void *s, bool s64, size_t len, size_t n,    \
                               size_t j0, size_t j1, const mod_u64 *M)                        \
    { return load_topv(d, s, s64, len, n, j0, j1, M, 0, RNG); }                              \
    static bool NAME##load_top_scaled(uint64_t *d, const void *s, bool s64, size_t len,       \
                                      size_t n, size_t j0, size_t j1, const mod_u64 *M)       \
    { return load_topv(d, s, s64, len, n, j0, j1, M, 1, RNG); }                              \
    static bool NAME##pointwise_checked(uint64_t *c, const uint64_t *a, const uint64_t *b,   \
                                        size_t len, const mod_u64 *M)                         \
    { return pointwise_checkedv(c, a, b, len, M, RNG); }                                     \
    static void NAME##pointwise_full(uint64_t *c, const uint64_t *a, const uint64_t *b,      \
                                     size_t len, const mod_u64 *M)                            \
    { (void)pointwise_checkedv(c, a, b, len, M, RNG); }                                      \
    static void NAME##arrange(mod_u64 *M, size_t n) { arrange_tables(M, n, RNG); }            \
    static void NAME##inv_root(uint64_t *a, void *out, size_t n, size_t lc, size_t j0,        \
                               size_t j1, tw_u64 s, tw_u64 s1, const mod_u64 *M)              \
    { inv_rootv(a, out, n, lc, j0, j1, s, s1, M, RNG); }                                     \
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
        .load_top = NAME##load_top,                                                           \
        .load_top_scaled = NAME##load_top_scaled,                                             \
        .pointwise = NAME##pointwise,                                                         \
        .pointwise_full = NAME##pointwise_full,                                               \
        .pointwise_checked = NAME##pointwise_checked,                                         \
        .reduce = NAME##reduce,                                                               \
        .arrange = NAME##arrange,                                                             \
        .min_n = 256,                                                                         \
        .name = KERN_NAME};

U64X8_KERNELS(narrow_, R_NARROW)
#if KERN_FULL
U64X8_KERNELS(wide_, R_WIDE)
U64X8_KERNELS(full_, R_FULL)
#endif

#undef U64X8_KERNELS
