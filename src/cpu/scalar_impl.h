/*
 * Width-generic body of the scalar backend, included by scalar.c once per
 * element width with:
 *   T     element type (uint32_t / uint64_t)
 *   SFX   name suffix macro
 *   W64   1 for the 64-bit instance
 *
 * The fast path: Harvey's lazy butterflies (values in [0, 4p) through the
 * forward transform, [0, 2p) through the inverse), two levels per pass
 * (radix 4), depth-first over blocks that fit in L1, twiddles in tree order
 * so that no bit-reversal pass is needed on the multiply path, the
 * negacyclic twist folded into the twiddles, and the 1/n scaling folded into
 * the last inverse pass.  The modmul kind is a compile-time constant in
 * every inner loop (each kind gets its own instance of the loops).
 */

/* A twiddle with its kind-specific companion: the Shoup quotient, or the
   Montgomery form w*R mod p. */
typedef struct { T w, x; } SFX(tw);

/* Arithmetic constants.  Kernels copy them into a local (by value) so that
   stores to the data, which may alias any T in memory, do not force the
   compiler to reload them. */
typedef struct {
    T p, p2;          /* p, 2p */
    T pinv;           /* -p^-1 mod R */
    uint64_t mu;      /* Barrett */
    unsigned k;
} SFX(cst);

typedef struct {
    SFX(cst) c;
    /* Tree-order tables, index 1..n-1: values and companions. */
    T *fw, *fwx, *iw, *iwx;
    SFX(tw) s_inv, s1_inv;   /* n^-1 and winv[1]*n^-1: ntt_inverse */
    SFX(tw) s_mul, s1_mul;   /* the same times F^-1: polymul (see mul2) */
    SFX(tw) fix;             /* F^-1: public pointwise */
    bool cyclic;             /* node 2^k has twiddle 1 */
    T root;                  /* root used by the baseline variant */
} SFX(mod);

/* ---- multiplication by a fixed twiddle ----------------------------------
 * y in [0, 4p), returns y*w mod p in [0, 2p).                             */
NTT_INLINE T SFX(mulw)(T y, SFX(tw) W, const SFX(cst) C, const int kind)
{
#if W64
    switch (kind) {
    case NTT_MODMUL_NAIVE:
        return (T)(((ntt_u128)y * W.w) % C.p);
    case NTT_MODMUL_BARRETT: {
        T r = ntt_csub64(ntt_csub64(y, C.p2), C.p); /* x < p^2 below */
        return ntt_csub64(ntt_barrett64((ntt_u128)r * W.w, C.mu, C.k, C.p), C.p2);
    }
    case NTT_MODMUL_MONTGOMERY:
        return ntt_mont64(y, W.x, C.p, C.pinv);
    default:
        return ntt_shoup64(y, W.w, W.x, C.p);
    }
#else
    switch (kind) {
    case NTT_MODMUL_NAIVE:
        return (T)(((uint64_t)y * W.w) % C.p);
    case NTT_MODMUL_BARRETT:
        return ntt_barrett32((uint64_t)y * W.w, C.mu, C.p);
    case NTT_MODMUL_MONTGOMERY:
        return ntt_mont32(y, W.x, C.p, C.pinv);
    default:
        return ntt_shoup32(y, W.w, W.x, C.p);
    }
#endif
}

/* ---- product of two variables -------------------------------------------
 * a, b in [0, 4p); returns a*b*F mod p in [0, 2p), where F = 1 for NAIVE
 * and BARRETT and F = R^-1 for MONTGOMERY and SHOUP (Shoup needs a fixed
 * operand, so its pointwise products use Montgomery).                       */
NTT_INLINE T SFX(mul2)(T a, T b, const SFX(cst) C, const int kind)
{
#if W64
    switch (kind) {
    case NTT_MODMUL_NAIVE:
        return (T)(((ntt_u128)a * b) % C.p);
    case NTT_MODMUL_BARRETT: {
        T ra = ntt_csub64(ntt_csub64(a, C.p2), C.p);
        T rb = ntt_csub64(ntt_csub64(b, C.p2), C.p);
        return ntt_csub64(ntt_barrett64((ntt_u128)ra * rb, C.mu, C.k, C.p), C.p2);
    }
    default: {
        T ra = ntt_csub64(ntt_csub64(a, C.p2), C.p); /* a*b < p*4p < p*R */
        return ntt_mont64(ra, b, C.p, C.pinv);
    }
    }
#else
    switch (kind) {
    case NTT_MODMUL_NAIVE:
        return (T)(((uint64_t)a * b) % C.p);
    case NTT_MODMUL_BARRETT:
        return ntt_barrett32((uint64_t)a * b, C.mu, C.p); /* 16p^2 < 2^64 */
    default: {
        T ra = ntt_csub32(ntt_csub32(a, C.p2), C.p);
        return ntt_mont32(ra, b, C.p, C.pinv);
    }
    }
#endif
}

#if W64
NTT_INLINE T SFX(csub)(T x, T m) { return ntt_csub64(x, m); }
#else
NTT_INLINE T SFX(csub)(T x, T m) { return ntt_csub32(x, m); }
#endif

/* Cooley-Tukey (Harvey): x, y in [0, 4p) -> x + wy, x - wy, both [0, 4p). */
#define SFX_CT(x, y, W)                                  \
    do {                                                 \
        T x_ = SFX(csub)(x, C.p2);                       \
        T t_ = SFX(mulw)(y, W, C, kind);                 \
        x = x_ + t_;                                     \
        y = x_ - t_ + C.p2;                              \
    } while (0)

/* The same with w = 1 (the leftmost node of every level of a cyclic
   transform): no multiplication, only the reduction mulw would have done. */
#define SFX_CT1(x, y)                                    \
    do {                                                 \
        T x_ = SFX(csub)(x, C.p2);                       \
        T t_ = SFX(csub)(y, C.p2);                       \
        x = x_ + t_;                                     \
        y = x_ - t_ + C.p2;                              \
    } while (0)

/* Gentleman-Sande (Harvey): x, y in [0, 2p) -> x + y, (x - y) w, both
   [0, 2p). */
#define SFX_GS(x, y, W)                                  \
    do {                                                 \
        T s_ = SFX(csub)(x + y, C.p2);                   \
        y = SFX(mulw)(x - y + C.p2, W, C, kind);         \
        x = s_;                                          \
    } while (0)

#define SFX_GS1(x, y)                                    \
    do {                                                 \
        T s_ = SFX(csub)(x + y, C.p2);                   \
        y = SFX(csub)(x - y + C.p2, C.p2);               \
        x = s_;                                          \
    } while (0)

/* Butterflies whose twiddle is 1 when `one` (a compile-time constant). */
#define SFX_CTW(x, y, W, one) do { if (one) SFX_CT1(x, y); else SFX_CT(x, y, W); } while (0)
#define SFX_GSW(x, y, W, one) do { if (one) SFX_GS1(x, y); else SFX_GS(x, y, W); } while (0)

/* Elements per block finished depth-first; blocks of 16 KiB leave L1 room
   for the block's twiddles. */
#define SFX_BLOCK ((size_t)16384 / sizeof(T))

/* Every inner loop below has the shape GCC's vectorizer accepts: a long
   unit-stride j loop with broadcast twiddles for the wide levels, and a loop
   over 4-element groups for the last two levels, whose twiddles are then
   contiguous in tree order (that is why the tables are stored as separate
   value and companion arrays). */
#define TW(tab, i) ((SFX(tw)){M->tab[i], M->tab##x[i]})

/* ---- forward ------------------------------------------------------------ */

/* Two levels on a block of length L owned by node i: (i) and (2i, 2i+1). */
NTT_INLINE void SFX(fwd4)(T *a, size_t L, size_t i, const SFX(mod) *M, const int kind,
                          const int one)
{
    const SFX(cst) C = M->c;
    const size_t q = L / 4;
    const SFX(tw) w1 = TW(fw, i), w2 = TW(fw, 2 * i), w3 = TW(fw, 2 * i + 1);
    T *a0 = a, *a1 = a + q, *a2 = a + 2 * q, *a3 = a + 3 * q;
    for (size_t j = 0; j < q; j++) {
        T x0 = a0[j], x1 = a1[j], x2 = a2[j], x3 = a3[j];
        SFX_CTW(x0, x2, w1, one);
        SFX_CTW(x1, x3, w1, one);
        SFX_CTW(x0, x1, w2, one);
        SFX_CT(x2, x3, w3);
        a0[j] = x0; a1[j] = x1; a2[j] = x2; a3[j] = x3;
    }
}

/* One level on a block of length L owned by node i. */
NTT_INLINE void SFX(fwd2)(T *a, size_t L, size_t i, const SFX(mod) *M, const int kind,
                          const int one)
{
    const SFX(cst) C = M->c;
    const size_t h = L / 2;
    const SFX(tw) w = TW(fw, i);
    for (size_t j = 0; j < h; j++) {
        T x = a[j], y = a[j + h];
        SFX_CTW(x, y, w, one);
        a[j] = x; a[j + h] = y;
    }
}

/* Two levels over a whole block of length L: groups of length len = 4q
   owned by nodes i, i+1, ...  With q a compile-time constant (the callers
   below pass 4 and 16) the j loop needs no aliasing checks or remainder
   code, which otherwise cost more than the butterflies at these sizes. */
NTT_INLINE void SFX(fwd4_level)(T *a, size_t L, size_t q, size_t i, const SFX(mod) *M,
                                const int kind, const bool lead)
{
    size_t g = 0;
    if (lead) SFX(fwd4)(a, 4 * q, i, M, kind, 1), g = 1;
    for (; g < L / (4 * q); g++) SFX(fwd4)(a + g * 4 * q, 4 * q, i + g, M, kind, 0);
}

/* The last two levels: L/4 groups of 4, group g owned by node i + g. */
NTT_INLINE void SFX(fwd_last2)(T *a, size_t L, size_t i, const SFX(mod) *M, const int kind)
{
    const SFX(cst) C = M->c;
    for (size_t g = 0; g < L / 4; g++) {
        const size_t nd = i + g;
        T x0 = a[4 * g], x1 = a[4 * g + 1], x2 = a[4 * g + 2], x3 = a[4 * g + 3];
        SFX_CT(x0, x2, TW(fw, nd));
        SFX_CT(x1, x3, TW(fw, nd));
        SFX_CT(x0, x1, TW(fw, 2 * nd));
        SFX_CT(x2, x3, TW(fw, 2 * nd + 1));
        a[4 * g] = x0; a[4 * g + 1] = x1; a[4 * g + 2] = x2; a[4 * g + 3] = x3;
    }
}

/* The whole subtree of node i on a block of length L >= 2 that fits in
   cache: an odd level first (while strides are long), then two levels at a
   time, the last two as a group loop. */
NTT_INLINE void SFX(fwd_small)(T *a, size_t L, size_t i, const SFX(mod) *M,
                               const int kind)
{
    /* In a cyclic plan the leftmost node of every level, a power of two,
       has twiddle 1; it heads the first group whenever node i does. */
    const bool lead = M->cyclic && (i & (i - 1)) == 0;
    size_t len = L, node = i;
    if (ntt_log2(L) & 1) {
        if (lead) SFX(fwd2)(a, L, i, M, kind, 1);
        else SFX(fwd2)(a, L, i, M, kind, 0);
        len = L / 2;
        node = 2 * i;
    }
    for (; len > 4; len >>= 2, node <<= 2) {
        if (len == 16)
            SFX(fwd4_level)(a, L, 4, node, M, kind, lead);
        else if (len == 64)
            SFX(fwd4_level)(a, L, 16, node, M, kind, lead);
        else
            SFX(fwd4_level)(a, L, len / 4, node, M, kind, lead);
    }
    if (len == 4) SFX(fwd_last2)(a, L, node, M, kind);
}

/* ---- inverse ------------------------------------------------------------ */

NTT_INLINE void SFX(inv4)(T *a, size_t L, size_t i, const SFX(mod) *M, const int kind,
                          const int one)
{
    const SFX(cst) C = M->c;
    const size_t q = L / 4;
    const SFX(tw) w1 = TW(iw, i), w2 = TW(iw, 2 * i), w3 = TW(iw, 2 * i + 1);
    T *a0 = a, *a1 = a + q, *a2 = a + 2 * q, *a3 = a + 3 * q;
    for (size_t j = 0; j < q; j++) {
        T x0 = a0[j], x1 = a1[j], x2 = a2[j], x3 = a3[j];
        SFX_GSW(x0, x1, w2, one);
        SFX_GS(x2, x3, w3);
        SFX_GSW(x0, x2, w1, one);
        SFX_GSW(x1, x3, w1, one);
        a0[j] = x0; a1[j] = x1; a2[j] = x2; a3[j] = x3;
    }
}

NTT_INLINE void SFX(inv2)(T *a, size_t L, size_t i, const SFX(mod) *M, const int kind,
                          const int one)
{
    const SFX(cst) C = M->c;
    const size_t h = L / 2;
    const SFX(tw) w = TW(iw, i);
    for (size_t j = 0; j < h; j++) {
        T x = a[j], y = a[j + h];
        SFX_GSW(x, y, w, one);
        a[j] = x; a[j + h] = y;
    }
}

NTT_INLINE void SFX(inv4_level)(T *a, size_t L, size_t q, size_t i, const SFX(mod) *M,
                                const int kind, const bool lead)
{
    size_t g = 0;
    if (lead) SFX(inv4)(a, 4 * q, i, M, kind, 1), g = 1;
    for (; g < L / (4 * q); g++) SFX(inv4)(a + g * 4 * q, 4 * q, i + g, M, kind, 0);
}

NTT_INLINE void SFX(inv_last2)(T *a, size_t L, size_t i, const SFX(mod) *M, const int kind)
{
    const SFX(cst) C = M->c;
    for (size_t g = 0; g < L / 4; g++) {
        const size_t nd = i + g;
        T x0 = a[4 * g], x1 = a[4 * g + 1], x2 = a[4 * g + 2], x3 = a[4 * g + 3];
        SFX_GS(x0, x1, TW(iw, 2 * nd));
        SFX_GS(x2, x3, TW(iw, 2 * nd + 1));
        SFX_GS(x0, x2, TW(iw, nd));
        SFX_GS(x1, x3, TW(iw, nd));
        a[4 * g] = x0; a[4 * g + 1] = x1; a[4 * g + 2] = x2; a[4 * g + 3] = x3;
    }
}

/* Mirror of fwd_small: the last two levels as a group loop, then two levels
   at a time upwards, an odd level last. */
NTT_INLINE void SFX(inv_small)(T *a, size_t L, size_t i, const SFX(mod) *M,
                               const int kind)
{
    if (L == 2) {
        SFX(inv2)(a, 2, i, M, kind, 0);
        return;
    }
    const bool lead = M->cyclic && (i & (i - 1)) == 0;
    SFX(inv_last2)(a, L, i * (L / 4), M, kind);
    size_t len = 16;
    for (; len <= L; len <<= 2) {
        if (len == 16)
            SFX(inv4_level)(a, L, 4, i * (L / len), M, kind, lead);
        else if (len == 64)
            SFX(inv4_level)(a, L, 16, i * (L / len), M, kind, lead);
        else
            SFX(inv4_level)(a, L, len / 4, i * (L / len), M, kind, lead);
    }
    if (len / 4 != L) {
        if (lead) SFX(inv2)(a, L, i, M, kind, 1);
        else SFX(inv2)(a, L, i, M, kind, 0);
    }
}

/* The last (root) level(s) of the inverse on the whole array, with the 1/n
   scaling, writing fully reduced values to out[0 .. lc).  out may be a.
   The main loops write every output; only the tail, where some outputs lie
   past lc, tests positions (a loop with conditional stores does not
   vectorize). */
NTT_INLINE void SFX(inv_root)(T *a, void *outv, size_t n, size_t lc, SFX(tw) s, SFX(tw) s1,
                              const SFX(mod) *M, const int kind, const int out64)
{
    /* out64 (a constant): the caller's array is uint64_t, as in
       ntt_polymul_mod, and the widening is folded into these stores. */
#define OUT(j, v)                                                    \
    do {                                                             \
        if (out64) ((uint64_t *)outv)[j] = (v);                      \
        else ((T *)outv)[j] = (v);                                   \
    } while (0)
    const SFX(cst) C = M->c;
    const T p = C.p;
    if (ntt_log2(n) & 1) {
        const size_t h = n / 2;
        const size_t full = lc >= n ? h : lc > h ? lc - h : 0;
        for (size_t j = 0; j < full; j++) {
            T x = a[j], y = a[j + h];
            OUT(j, SFX(csub)(SFX(mulw)(x + y, s, C, kind), p));
            OUT(j + h, SFX(csub)(SFX(mulw)(x - y + C.p2, s1, C, kind), p));
        }
        for (size_t j = full; j < h && j < lc; j++)
            OUT(j, SFX(csub)(SFX(mulw)(a[j] + a[j + h], s, C, kind), p));
        return;
    }
    const size_t q = n / 4;
    const SFX(tw) w2 = TW(iw, 2), w3 = TW(iw, 3);
    const size_t full = lc >= n ? q : lc > 3 * q ? lc - 3 * q : 0;
    for (size_t j = 0; j < full; j++) {
        T x0 = a[j], x1 = a[j + q], x2 = a[j + 2 * q], x3 = a[j + 3 * q];
        SFX_GS(x0, x1, w2);
        SFX_GS(x2, x3, w3);
        OUT(j, SFX(csub)(SFX(mulw)(x0 + x2, s, C, kind), p));
        OUT(j + q, SFX(csub)(SFX(mulw)(x1 + x3, s, C, kind), p));
        OUT(j + 2 * q, SFX(csub)(SFX(mulw)(x0 - x2 + C.p2, s1, C, kind), p));
        OUT(j + 3 * q, SFX(csub)(SFX(mulw)(x1 - x3 + C.p2, s1, C, kind), p));
    }
    for (size_t j = full; j < q && j < lc; j++) {
        T x0 = a[j], x1 = a[j + q], x2 = a[j + 2 * q], x3 = a[j + 3 * q];
        SFX_GS(x0, x1, w2);
        SFX_GS(x2, x3, w3);
        OUT(j, SFX(csub)(SFX(mulw)(x0 + x2, s, C, kind), p));
        if (j + q < lc) OUT(j + q, SFX(csub)(SFX(mulw)(x1 + x3, s, C, kind), p));
        if (j + 2 * q < lc) OUT(j + 2 * q, SFX(csub)(SFX(mulw)(x0 - x2 + C.p2, s1, C, kind), p));
    }
}
#undef OUT

/* ---- per-kind instances ------------------------------------------------- */
/* The depth-first drivers below recurse through these, so that each kind's
   inner loops are compiled with the kind as a constant. */

typedef struct {
    void (*fwd4)(T *, size_t, size_t, const SFX(mod) *);
    void (*fwd4one)(T *, size_t, size_t, const SFX(mod) *); /* node twiddle 1 */
    void (*fwd_small)(T *, size_t, size_t, const SFX(mod) *);
    void (*inv4)(T *, size_t, size_t, const SFX(mod) *);
    void (*inv4one)(T *, size_t, size_t, const SFX(mod) *);
    void (*inv_small)(T *, size_t, size_t, const SFX(mod) *);
    void (*inv_root)(T *, void *, size_t, size_t, SFX(tw), SFX(tw), const SFX(mod) *);
    void (*inv_root64)(T *, void *, size_t, size_t, SFX(tw), SFX(tw), const SFX(mod) *);
    /* Lazy product for polymul: a, b in [0, 4p) -> a*b*F in [0, 2p). */
    void (*pointwise)(T *, const T *, const T *, size_t, const SFX(mod) *);
    /* Public product: a, b in [0, p) -> a*b in [0, p). */
    void (*pointwise_full)(T *, const T *, const T *, size_t, const SFX(mod) *);
} SFX(kernels);

#define SFX_INSTANCE(K, NAME)                                                           \
    static void SFX(fwd4_##NAME)(T *a, size_t L, size_t i, const SFX(mod) *M)            \
    { SFX(fwd4)(a, L, i, M, K, 0); }                                                    \
    static void SFX(fwd4one_##NAME)(T *a, size_t L, size_t i, const SFX(mod) *M)         \
    { SFX(fwd4)(a, L, i, M, K, 1); }                                                    \
    static void SFX(fwd_small_##NAME)(T *a, size_t L, size_t i, const SFX(mod) *M)       \
    { SFX(fwd_small)(a, L, i, M, K); }                                                  \
    static void SFX(inv4_##NAME)(T *a, size_t L, size_t i, const SFX(mod) *M)            \
    { SFX(inv4)(a, L, i, M, K, 0); }                                                    \
    static void SFX(inv4one_##NAME)(T *a, size_t L, size_t i, const SFX(mod) *M)         \
    { SFX(inv4)(a, L, i, M, K, 1); }                                                    \
    static void SFX(inv_small_##NAME)(T *a, size_t L, size_t i, const SFX(mod) *M)       \
    { SFX(inv_small)(a, L, i, M, K); }                                                  \
    static void SFX(inv_root_##NAME)(T *a, void *o, size_t n, size_t lc, SFX(tw) s,      \
                                     SFX(tw) s1, const SFX(mod) *M)                      \
    { SFX(inv_root)(a, o, n, lc, s, s1, M, K, 0); }                                     \
    static void SFX(inv_root64_##NAME)(T *a, void *o, size_t n, size_t lc, SFX(tw) s,    \
                                       SFX(tw) s1, const SFX(mod) *M)                    \
    { SFX(inv_root)(a, o, n, lc, s, s1, M, K, 1); }                                     \
    static void SFX(pointwise_##NAME)(T *c, const T *a, const T *b, size_t n,            \
                                      const SFX(mod) *M)                                 \
    {                                                                                   \
        const SFX(cst) C = M->c;                                                        \
        for (size_t j = 0; j < n; j++) c[j] = SFX(mul2)(a[j], b[j], C, K);              \
    }                                                                                   \
    static void SFX(pointwise_full_##NAME)(T *c, const T *a, const T *b, size_t n,       \
                                           const SFX(mod) *M)                            \
    {                                                                                   \
        const SFX(cst) C = M->c;                                                        \
        for (size_t j = 0; j < n; j++) {                                                \
            T v = SFX(mul2)(a[j], b[j], C, K);                                          \
            if (K == NTT_MODMUL_MONTGOMERY || K == NTT_MODMUL_SHOUP)                    \
                v = SFX(mulw)(v, M->fix, C, K);                                         \
            c[j] = SFX(csub)(v, C.p);                                                   \
        }                                                                               \
    }                                                                                   \
    static const SFX(kernels) SFX(kernels_##NAME) = {                                    \
        SFX(fwd4_##NAME), SFX(fwd4one_##NAME), SFX(fwd_small_##NAME),                   \
        SFX(inv4_##NAME), SFX(inv4one_##NAME),                                          \
        SFX(inv_small_##NAME), SFX(inv_root_##NAME), SFX(inv_root64_##NAME),            \
        SFX(pointwise_##NAME),                                                          \
        SFX(pointwise_full_##NAME)};

SFX_INSTANCE(NTT_MODMUL_NAIVE, naive)
SFX_INSTANCE(NTT_MODMUL_BARRETT, barrett)
SFX_INSTANCE(NTT_MODMUL_MONTGOMERY, mont)
SFX_INSTANCE(NTT_MODMUL_SHOUP, shoup)

static const SFX(kernels) *SFX(kernels_for)(ntt_modmul m)
{
    switch (m) {
    case NTT_MODMUL_NAIVE: return &SFX(kernels_naive);
    case NTT_MODMUL_BARRETT: return &SFX(kernels_barrett);
    case NTT_MODMUL_MONTGOMERY: return &SFX(kernels_mont);
    default: return &SFX(kernels_shoup);
    }
}

/* Subtree of node i over a[0 .. L): two levels over the whole block, then
   the four quarter blocks depth-first, until a block fits in L1. */
static void SFX(fwd_tree)(T *a, size_t L, size_t i, const SFX(mod) *M, const SFX(kernels) *K)
{
    if (L <= SFX_BLOCK) {
        K->fwd_small(a, L, i, M);
        return;
    }
    if (M->cyclic && (i & (i - 1)) == 0) K->fwd4one(a, L, i, M);
    else K->fwd4(a, L, i, M);
    const size_t q = L / 4;
    for (size_t g = 0; g < 4; g++) SFX(fwd_tree)(a + g * q, q, 4 * i + g, M, K);
}

static void SFX(inv_tree)(T *a, size_t L, size_t i, const SFX(mod) *M, const SFX(kernels) *K)
{
    if (L <= SFX_BLOCK) {
        K->inv_small(a, L, i, M);
        return;
    }
    const size_t q = L / 4;
    for (size_t g = 0; g < 4; g++) SFX(inv_tree)(a + g * q, q, 4 * i + g, M, K);
    if (M->cyclic && (i & (i - 1)) == 0) K->inv4one(a, L, i, M);
    else K->inv4(a, L, i, M);
}

/* Inverse of the whole array except the root level(s) that inv_root does:
   one level (n = 2^odd) or two. */
static void SFX(inv_below_root)(T *a, size_t n, const SFX(mod) *M, const SFX(kernels) *K)
{
    if (ntt_log2(n) & 1) {
        if (n >= 4) {
            SFX(inv_tree)(a, n / 2, 2, M, K);
            SFX(inv_tree)(a + n / 2, n / 2, 3, M, K);
        }
    } else {
        for (size_t g = 0; g < 4 && n >= 8; g++) SFX(inv_tree)(a + g * (n / 4), n / 4, 4 + g, M, K);
    }
}

/* Forward transform of a (values [0, 4p)), leaving values in [0, 4p). */
static void SFX(fwd_lazy)(T *a, size_t n, const SFX(mod) *M, const SFX(kernels) *K)
{
    SFX(fwd_tree)(a, n, 1, M, K);
}

/* Copies src (len <= n coefficients, zero above; uint64_t when src64, else
   T) into dst and runs the forward transform.  When len <= n/2 the root
   level has a zero upper half, so it is a copy: both halves get src. */
static void SFX(fwd_padded)(T *dst, const void *src, bool src64, size_t len, size_t n,
                            const SFX(mod) *M, const SFX(kernels) *K)
{
    const uint64_t *s64 = src;
    const T *sT = src;
    if (len <= n / 2) {
        const size_t h = n / 2;
        if (src64)
            for (size_t j = 0; j < len; j++) dst[j] = dst[j + h] = (T)s64[j];
        else
            for (size_t j = 0; j < len; j++) dst[j] = dst[j + h] = sT[j];
        for (size_t j = len; j < h; j++) dst[j] = dst[j + h] = 0;
        if (h >= 2) {
            SFX(fwd_tree)(dst, h, 2, M, K);
            SFX(fwd_tree)(dst + h, h, 3, M, K);
        }
        return;
    }
    if (src64)
        for (size_t j = 0; j < len; j++) dst[j] = (T)s64[j];
    else if (dst != sT)
        memcpy(dst, sT, len * sizeof(T));
    memset(dst + len, 0, (n - len) * sizeof(T));
    SFX(fwd_tree)(dst, n, 1, M, K);
}

/* ---- baseline: the course reports' design -------------------------------
 * Bit-reversal permutation, then radix-2 DIT stages whose twiddles are
 * powers computed as the loop goes, % for every reduction.  Natural-order
 * input and output.                                                         */

static void SFX(bitrev_permute)(T *a, size_t n)
{
    for (size_t i = 1, j = 0; i < n; i++) {
        size_t bit = n >> 1;
        for (; j & bit; bit >>= 1) j ^= bit;
        j ^= bit;
        if (i < j) { T t = a[i]; a[i] = a[j]; a[j] = t; }
    }
}

NTT_INLINE T SFX(mulmod)(T a, T b, T p)
{
#if W64
    return (T)(((ntt_u128)a * b) % p);
#else
    return (T)(((uint64_t)a * b) % p);
#endif
}

/* Cyclic DIT with root of order n, a already bit-reversed; output natural. */
static void SFX(baseline_dit)(T *a, size_t n, T omega, T p)
{
    for (size_t len = 2; len <= n; len <<= 1) {
        T wlen = (T)ntt_powmod(omega, n / len, p);
        for (size_t i = 0; i < n; i += len) {
            T w = 1;
            for (size_t j = 0; j < len / 2; j++) {
                T u = a[i + j];
                T v = SFX(mulmod)(a[i + j + len / 2], w, p);
                a[i + j] = (T)((u + v) % p);
                a[i + j + len / 2] = (T)((u - v + p) % p);
                w = SFX(mulmod)(w, wlen, p);
            }
        }
    }
}

/* Baseline forward/inverse over one item, honouring the plan's spectrum
   order and the negacyclic twist (a pre-/post-multiplication by powers of
   psi, the root of order 2n, whose square is the cyclic root). */
static void SFX(baseline_forward)(T *a, size_t n, bool nega, bool natural, const SFX(mod) *M)
{
    const T p = M->c.p;
    T omega = M->root;
    if (nega) {
        T t = 1;
        for (size_t j = 0; j < n; j++) { a[j] = SFX(mulmod)(a[j], t, p); t = SFX(mulmod)(t, M->root, p); }
        omega = SFX(mulmod)(M->root, M->root, p);
    }
    SFX(bitrev_permute)(a, n);
    SFX(baseline_dit)(a, n, omega, p);
    if (!natural) SFX(bitrev_permute)(a, n);
}

static void SFX(baseline_inverse)(T *a, size_t n, bool nega, bool natural, const SFX(mod) *M)
{
    const T p = M->c.p;
    T psi_inv = (T)ntt_invmod(M->root, p);
    T omega_inv = nega ? SFX(mulmod)(psi_inv, psi_inv, p) : psi_inv;
    /* DIT wants bit-reversed input: a bit-reversed spectrum already is. */
    if (natural) SFX(bitrev_permute)(a, n);
    SFX(baseline_dit)(a, n, omega_inv, p);
    T ninv = (T)ntt_invmod(n % p, p);
    T t = ninv;
    for (size_t j = 0; j < n; j++) {
        a[j] = SFX(mulmod)(a[j], t, p);
        if (nega) t = SFX(mulmod)(t, psi_inv, p);
    }
}

/* ---- plan set-up -------------------------------------------------------- */

/* Twiddle w with its companion for `kind`; X carries what computing the
   companions quickly needs. */
typedef struct {
    ntt_shoup_ctx sc;
    uint64_t r, rq; /* R mod p and its 64-bit Shoup companion */
} SFX(mkctx);

static void SFX(mkctx_init)(SFX(mkctx) *X, const ntt_modulus *cm)
{
    ntt_shoup_ctx_init(&X->sc, cm->p);
    X->r = cm->r_mod;
    X->rq = ntt_shoup_pre_fast(&X->sc, cm->r_mod);
}

static SFX(tw) SFX(make_tw)(uint64_t w, const SFX(mkctx) *X, ntt_modmul kind)
{
    SFX(tw) r;
    r.w = (T)w;
    switch (kind) {
#if W64
    case NTT_MODMUL_SHOUP: r.x = ntt_shoup_pre_fast(&X->sc, w); break;
#else
    case NTT_MODMUL_SHOUP: r.x = (T)(ntt_shoup_pre_fast(&X->sc, w) >> 32); break;
#endif
    case NTT_MODMUL_MONTGOMERY:
        r.x = (T)ntt_csub64(ntt_shoup64(w, X->r, X->rq, X->sc.p), X->sc.p);
        break;
    default: r.x = 0; break;
    }
    return r;
}

static ntt_status SFX(mod_init)(SFX(mod) *M, const ntt_modulus *cm, size_t n, ntt_modmul kind,
                                bool tables)
{
    memset(M, 0, sizeof *M);
    const uint64_t p = cm->p;
    SFX(mkctx) X;
    SFX(mkctx_init)(&X, cm);
    M->c.p = (T)p;
    M->c.p2 = (T)(2 * p);
    M->c.pinv = (T)cm->pinv;
    M->c.mu = cm->mu;
    M->c.k = cm->k;
    M->root = (T)cm->root;
    M->cyclic = cm->w && n >= 2 && cm->w[1] == 1;
    if (tables) {
        M->fw = ntt_aligned_alloc(n * sizeof(T));
        M->fwx = ntt_aligned_alloc(n * sizeof(T));
        M->iw = ntt_aligned_alloc(n * sizeof(T));
        M->iwx = ntt_aligned_alloc(n * sizeof(T));
        if (!M->fw || !M->fwx || !M->iw || !M->iwx) return NTT_ENOMEM;
        M->fw[0] = M->fwx[0] = M->iw[0] = M->iwx[0] = 0;
        for (size_t i = 1; i < n; i++) {
            SFX(tw) f = SFX(make_tw)(cm->w[i], &X, kind), v = SFX(make_tw)(cm->winv[i], &X, kind);
            M->fw[i] = f.w;
            M->fwx[i] = f.x;
            M->iw[i] = v.w;
            M->iwx[i] = v.x;
        }
    }
    /* F^-1: mul2 leaves a factor R^-1 for the Montgomery-based kinds. */
    const bool redc = kind == NTT_MODMUL_MONTGOMERY || kind == NTT_MODMUL_SHOUP;
    const uint64_t finv = redc ? cm->r_mod : 1 % p;
    const uint64_t w1 = n >= 2 ? cm->winv[1] : 1;
    const uint64_t s = cm->n_inv, sm = ntt_mulmod_slow(s, finv, p);
    M->s_inv = SFX(make_tw)(s, &X, kind);
    M->s1_inv = SFX(make_tw)(ntt_mulmod_slow(s, w1, p), &X, kind);
    M->s_mul = SFX(make_tw)(sm, &X, kind);
    M->s1_mul = SFX(make_tw)(ntt_mulmod_slow(sm, w1, p), &X, kind);
    M->fix = SFX(make_tw)(finv, &X, kind);
    return NTT_OK;
}

static void SFX(mod_free)(SFX(mod) *M)
{
    ntt_aligned_free(M->fw);
    ntt_aligned_free(M->fwx);
    ntt_aligned_free(M->iw);
    ntt_aligned_free(M->iwx);
    M->fw = M->fwx = M->iw = M->iwx = NULL;
}

/* ---- item-level operations ---------------------------------------------- */

static void SFX(reduce4)(T *a, size_t n, const SFX(mod) *M)
{
    for (size_t j = 0; j < n; j++) a[j] = SFX(csub)(SFX(csub)(a[j], M->c.p2), M->c.p);
}

static void SFX(forward_item)(const ntt_plan *plan, T *a, const SFX(mod) *M)
{
    const size_t n = plan->n;
    const bool natural = (plan->flags & NTT_FLAG_NATURAL_ORDER) != 0;
    if (plan->variant == NTT_VARIANT_BASELINE) {
        SFX(baseline_forward)(a, n, (plan->flags & NTT_FLAG_NEGACYCLIC) != 0, natural, M);
        return;
    }
    SFX(fwd_lazy)(a, n, M, SFX(kernels_for)(plan->modmul));
    SFX(reduce4)(a, n, M);
    if (natural) SFX(bitrev_permute)(a, n);
}

static void SFX(inverse_item)(const ntt_plan *plan, T *a, const SFX(mod) *M)
{
    const size_t n = plan->n;
    const bool natural = (plan->flags & NTT_FLAG_NATURAL_ORDER) != 0;
    if (plan->variant == NTT_VARIANT_BASELINE) {
        SFX(baseline_inverse)(a, n, (plan->flags & NTT_FLAG_NEGACYCLIC) != 0, natural, M);
        return;
    }
    const SFX(kernels) *K = SFX(kernels_for)(plan->modmul);
    if (natural) SFX(bitrev_permute)(a, n);
    SFX(inv_below_root)(a, n, M, K);
    K->inv_root(a, a, n, n, M->s_inv, M->s1_inv, M);
}

static void SFX(pointwise_item)(const ntt_plan *plan, T *c, const T *a, const T *b,
                                const SFX(mod) *M)
{
    const size_t n = plan->n;
    if (plan->variant == NTT_VARIANT_BASELINE) {
        for (size_t j = 0; j < n; j++) c[j] = SFX(mulmod)(a[j], b[j], M->c.p);
        return;
    }
    SFX(kernels_for)(plan->modmul)->pointwise_full(c, a, b, n, M);
}

/* c[0..lc) = a * b mod (x^n -+ 1); a has la, b has lb coefficients.  With
   io64, a, b and c are uint64_t arrays whatever T is.  ws holds 2n
   elements. */
static void SFX(polymul_item)(const ntt_plan *plan, void *c, size_t lc, const void *a,
                              size_t la, const void *b, size_t lb, bool io64, const SFX(mod) *M,
                              T *ws)
{
    const size_t n = plan->n;
    T *A = ws, *B = ws + n;
    if (plan->variant == NTT_VARIANT_BASELINE) {
        const bool nega = (plan->flags & NTT_FLAG_NEGACYCLIC) != 0;
        for (size_t j = 0; j < n; j++) {
            A[j] = j >= la ? 0 : io64 ? (T)((const uint64_t *)a)[j] : ((const T *)a)[j];
            B[j] = j >= lb ? 0 : io64 ? (T)((const uint64_t *)b)[j] : ((const T *)b)[j];
        }
        /* As the reports do it: natural-order spectra, a bit-reversal pass
           before each of the three DIT transforms. */
        SFX(baseline_forward)(A, n, nega, true, M);
        SFX(baseline_forward)(B, n, nega, true, M);
        for (size_t j = 0; j < n; j++) A[j] = SFX(mulmod)(A[j], B[j], M->c.p);
        SFX(baseline_inverse)(A, n, nega, true, M);
        for (size_t j = 0; j < lc; j++) {
            if (io64) ((uint64_t *)c)[j] = A[j];
            else ((T *)c)[j] = A[j];
        }
        return;
    }
    const SFX(kernels) *K = SFX(kernels_for)(plan->modmul);
    SFX(fwd_padded)(A, a, io64, la, n, M, K);
    if (b == a && lb == la) {
        K->pointwise(A, A, A, n, M);
    } else {
        SFX(fwd_padded)(B, b, io64, lb, n, M, K);
        K->pointwise(A, A, B, n, M);
    }
    SFX(inv_below_root)(A, n, M, K);
    (io64 ? K->inv_root64 : K->inv_root)(A, c, n, lc, M->s_mul, M->s1_mul, M);
}
