/*
 * TEMPLATE scalar.tmpl.h, instantiated by scalar.c once per element width:
 * the width-generic body of the scalar backend.
 *
 * Expects  T     element type (uint32_t / uint64_t);
 *          SFX   name suffix macro (SFX(x) is x##_u32 / x##_u64);
 *          W64   1 for the 64-bit instance, else 0.
 * Defines  SFX(ntt_scalar_kernels), the scalar kernel table of each modmul
 *          kind (declared in cpu_types.tmpl.h), and the static kernels;
 *          leaves defined the macros SFX_CT, SFX_CT1, SFX_GS, SFX_GS1,
 *          SFX_CTW, SFX_GSW, TW, SFX_INSTANCE (the same text in both
 *          instances) and SFX_BLOCK (scalar.c undefines it).
 *
 * The fast path: Harvey's lazy butterflies (values in [0, 4p) through the
 * forward transform, [0, 2p) through the inverse), two levels per pass
 * (radix 4), depth-first over blocks that fit in L1, twiddles in tree order
 * so that no bit-reversal pass is needed on the multiply path, the
 * negacyclic twist folded into the twiddles, and the 1/n scaling folded into
 * the last inverse pass.  The modmul kind is a compile-time constant in
 * every inner loop (each kind gets its own instance of the loops).
 */

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

/* Two levels on a block owned by node i: (i) and (2i, 2i+1); quarters q
   apart, positions [0, cnt) of each. */
NTT_INLINE void SFX(fwd4)(T *a, size_t q, size_t cnt, size_t i, const SFX(mod) *M,
                          const int kind, const int one)
{
    const SFX(cst) C = M->c;
    const SFX(tw) w1 = TW(fw, i), w2 = TW(fw, 2 * i), w3 = TW(fw, 2 * i + 1);
    T *a0 = a, *a1 = a + q, *a2 = a + 2 * q, *a3 = a + 3 * q;
    for (size_t j = 0; j < cnt; j++) {
        T x0 = a0[j], x1 = a1[j], x2 = a2[j], x3 = a3[j];
        SFX_CTW(x0, x2, w1, one);
        SFX_CTW(x1, x3, w1, one);
        SFX_CTW(x0, x1, w2, one);
        SFX_CT(x2, x3, w3);
        a0[j] = x0; a1[j] = x1; a2[j] = x2; a3[j] = x3;
    }
}

/* One level owned by node i: halves h apart, positions [0, cnt). */
NTT_INLINE void SFX(fwd2)(T *a, size_t h, size_t cnt, size_t i, const SFX(mod) *M,
                          const int kind, const int one)
{
    const SFX(cst) C = M->c;
    const SFX(tw) w = TW(fw, i);
    for (size_t j = 0; j < cnt; j++) {
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
    if (lead) SFX(fwd4)(a, q, q, i, M, kind, 1), g = 1;
    for (; g < L / (4 * q); g++) SFX(fwd4)(a + g * 4 * q, q, q, i + g, M, kind, 0);
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
        if (lead) SFX(fwd2)(a, L / 2, L / 2, i, M, kind, 1);
        else SFX(fwd2)(a, L / 2, L / 2, i, M, kind, 0);
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

NTT_INLINE void SFX(inv4)(T *a, size_t q, size_t cnt, size_t i, const SFX(mod) *M,
                          const int kind, const int one)
{
    const SFX(cst) C = M->c;
    const SFX(tw) w1 = TW(iw, i), w2 = TW(iw, 2 * i), w3 = TW(iw, 2 * i + 1);
    T *a0 = a, *a1 = a + q, *a2 = a + 2 * q, *a3 = a + 3 * q;
    for (size_t j = 0; j < cnt; j++) {
        T x0 = a0[j], x1 = a1[j], x2 = a2[j], x3 = a3[j];
        SFX_GSW(x0, x1, w2, one);
        SFX_GS(x2, x3, w3);
        SFX_GSW(x0, x2, w1, one);
        SFX_GSW(x1, x3, w1, one);
        a0[j] = x0; a1[j] = x1; a2[j] = x2; a3[j] = x3;
    }
}

NTT_INLINE void SFX(inv2)(T *a, size_t h, size_t cnt, size_t i, const SFX(mod) *M,
                          const int kind, const int one)
{
    const SFX(cst) C = M->c;
    const SFX(tw) w = TW(iw, i);
    for (size_t j = 0; j < cnt; j++) {
        T x = a[j], y = a[j + h];
        SFX_GSW(x, y, w, one);
        a[j] = x; a[j + h] = y;
    }
}

NTT_INLINE void SFX(inv4_level)(T *a, size_t L, size_t q, size_t i, const SFX(mod) *M,
                                const int kind, const bool lead)
{
    size_t g = 0;
    if (lead) SFX(inv4)(a, q, q, i, M, kind, 1), g = 1;
    for (; g < L / (4 * q); g++) SFX(inv4)(a + g * 4 * q, q, q, i + g, M, kind, 0);
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
        SFX(inv2)(a, 1, 1, i, M, kind, 0);
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
        if (lead) SFX(inv2)(a, L / 2, L / 2, i, M, kind, 1);
        else SFX(inv2)(a, L / 2, L / 2, i, M, kind, 0);
    }
}

/* The last (root) level(s) of the inverse on the whole array, with the 1/n
   scaling, writing fully reduced values to out[0 .. lc).  out may be a.
   The main loops write every output; only the tail, where some outputs lie
   past lc, tests positions (a loop with conditional stores does not
   vectorize). */
NTT_INLINE void SFX(inv_root)(T *a, void *outv, size_t n, size_t lc, size_t j0, size_t j1,
                              SFX(tw) s, SFX(tw) s1, const SFX(mod) *M, const int kind,
                              const int out64)
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
        const size_t jf = full < j0 ? j0 : full > j1 ? j1 : full;
        for (size_t j = j0; j < jf; j++) {
            T x = a[j], y = a[j + h];
            OUT(j, SFX(csub)(SFX(mulw)(x + y, s, C, kind), p));
            OUT(j + h, SFX(csub)(SFX(mulw)(x - y + C.p2, s1, C, kind), p));
        }
        for (size_t j = jf; j < j1 && j < lc; j++)
            OUT(j, SFX(csub)(SFX(mulw)(a[j] + a[j + h], s, C, kind), p));
        return;
    }
    const size_t q = n / 4;
    const SFX(tw) w2 = TW(iw, 2), w3 = TW(iw, 3);
    const size_t full = lc >= n ? q : lc > 3 * q ? lc - 3 * q : 0;
    const size_t jf = full < j0 ? j0 : full > j1 ? j1 : full;
    for (size_t j = j0; j < jf; j++) {
        T x0 = a[j], x1 = a[j + q], x2 = a[j + 2 * q], x3 = a[j + 3 * q];
        SFX_GS(x0, x1, w2);
        SFX_GS(x2, x3, w3);
        OUT(j, SFX(csub)(SFX(mulw)(x0 + x2, s, C, kind), p));
        OUT(j + q, SFX(csub)(SFX(mulw)(x1 + x3, s, C, kind), p));
        OUT(j + 2 * q, SFX(csub)(SFX(mulw)(x0 - x2 + C.p2, s1, C, kind), p));
        OUT(j + 3 * q, SFX(csub)(SFX(mulw)(x1 - x3 + C.p2, s1, C, kind), p));
    }
    /* Past `full` some outputs lie beyond lc. */
    for (size_t j = jf; j < j1 && j < lc; j++) {
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
/* Each kind's loops are compiled with the kind as a constant. */

static void SFX(reduce)(T *a, size_t n, const SFX(mod) *M)
{
    const SFX(cst) C = M->c;
    for (size_t j = 0; j < n; j++) a[j] = SFX(csub)(SFX(csub)(a[j], C.p2), C.p);
}

#define SFX_INSTANCE(K, NAME)                                                           \
    static void SFX(fwd4_##NAME)(T *a, size_t q, size_t c, size_t i, const SFX(mod) *M)  \
    { SFX(fwd4)(a, q, c, i, M, K, 0); }                                                 \
    static void SFX(fwd4one_##NAME)(T *a, size_t q, size_t c, size_t i, const SFX(mod) *M) \
    { SFX(fwd4)(a, q, c, i, M, K, 1); }                                                 \
    static void SFX(fwd2_##NAME)(T *a, size_t h, size_t c, size_t i, const SFX(mod) *M)  \
    {                                                                                   \
        if (M->cyclic && (i & (i - 1)) == 0) SFX(fwd2)(a, h, c, i, M, K, 1);            \
        else SFX(fwd2)(a, h, c, i, M, K, 0);                                            \
    }                                                                                   \
    static void SFX(inv2_##NAME)(T *a, size_t h, size_t c, size_t i, const SFX(mod) *M)  \
    {                                                                                   \
        if (M->cyclic && (i & (i - 1)) == 0) SFX(inv2)(a, h, c, i, M, K, 1);            \
        else SFX(inv2)(a, h, c, i, M, K, 0);                                            \
    }                                                                                   \
    static void SFX(fwd_small_##NAME)(T *a, size_t L, size_t i, const SFX(mod) *M)       \
    { SFX(fwd_small)(a, L, i, M, K); }                                                  \
    static void SFX(inv4_##NAME)(T *a, size_t q, size_t c, size_t i, const SFX(mod) *M)  \
    { SFX(inv4)(a, q, c, i, M, K, 0); }                                                 \
    static void SFX(inv4one_##NAME)(T *a, size_t q, size_t c, size_t i, const SFX(mod) *M) \
    { SFX(inv4)(a, q, c, i, M, K, 1); }                                                 \
    static void SFX(inv_small_##NAME)(T *a, size_t L, size_t i, const SFX(mod) *M)       \
    { SFX(inv_small)(a, L, i, M, K); }                                                  \
    static void SFX(inv_root_##NAME)(T *a, void *o, size_t n, size_t lc, size_t j0,      \
                                     size_t j1, SFX(tw) s, SFX(tw) s1, const SFX(mod) *M) \
    { SFX(inv_root)(a, o, n, lc, j0, j1, s, s1, M, K, 0); }                             \
    static void SFX(inv_root64_##NAME)(T *a, void *o, size_t n, size_t lc, size_t j0,    \
                                       size_t j1, SFX(tw) s, SFX(tw) s1,                  \
                                       const SFX(mod) *M)                                \
    { SFX(inv_root)(a, o, n, lc, j0, j1, s, s1, M, K, 1); }                             \
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
    static const SFX(kern) SFX(kernels_##NAME) = {                                      \
        .block = SFX_BLOCK,                                                             \
        .fwd4 = SFX(fwd4_##NAME),                                                       \
        .fwd4one = SFX(fwd4one_##NAME),                                                 \
        .fwd2 = SFX(fwd2_##NAME),                                                       \
        .inv2 = SFX(inv2_##NAME),                                                       \
        .fwd_small = SFX(fwd_small_##NAME),                                             \
        .fwd_small_p = SFX(fwd_small_##NAME),                                           \
        .inv4 = SFX(inv4_##NAME),                                                       \
        .inv4one = SFX(inv4one_##NAME),                                                 \
        .inv_small = SFX(inv_small_##NAME),                                             \
        .inv_small_p = SFX(inv_small_##NAME),                                           \
        .inv_root = SFX(inv_root_##NAME),                                               \
        .inv_root64 = SFX(inv_root64_##NAME),                                           \
        .pointwise = SFX(pointwise_##NAME),                                             \
        .pointwise_full = SFX(pointwise_full_##NAME),                                   \
        .reduce = SFX(reduce),                                                          \
        .min_n = 2,                                                                     \
        .name = "scalar"};

SFX_INSTANCE(NTT_MODMUL_NAIVE, naive)
SFX_INSTANCE(NTT_MODMUL_BARRETT, barrett)
SFX_INSTANCE(NTT_MODMUL_MONTGOMERY, mont)
SFX_INSTANCE(NTT_MODMUL_SHOUP, shoup)

const SFX(kern) *SFX(ntt_scalar_kernels)(ntt_modmul m)
{
    switch (m) {
    case NTT_MODMUL_NAIVE: return &SFX(kernels_naive);
    case NTT_MODMUL_BARRETT: return &SFX(kernels_barrett);
    case NTT_MODMUL_MONTGOMERY: return &SFX(kernels_mont);
    default: return &SFX(kernels_shoup);
    }
}
