/*
 * TEMPLATE kernels_u32.tmpl.h, instantiated once per ISA by avx2.c and
 * avx512.c.
 *
 * Expects  X86_AVX512   1 to add the 16-lane widths (the unit allows
 *                       AVX-512 F, VL, BW, DQ), else 0;
 *          vec.h and <string.h> included.
 * Defines  kernels_shoup8, kernels_mont8 and, with X86_AVX512,
 *          kernels_shoup16, kernels_mont16: static kern_u32 tables;
 *          the helpers below (static); instantiates lanes_u32.tmpl.h
 *          once per width (u32x8_*, u32x16_*); leaves defined the macros
 *          AHEAD, BY_RANGE, WIDE, LEAF, U32_KINDS, U32_LEAVES,
 *          X86_BLOCK32 (and lanes_u32.tmpl.h's LEAF_AHEAD).
 *
 * The u32 kernels: Harvey
 * butterflies on 8 lanes (16 in the AVX-512 unit) with Shoup (default) or
 * Montgomery multiplication built from vpmuludq on the even and odd lanes;
 * the wide levels are radix-4 passes with broadcast twiddles; the last six
 * levels of every 64-element block are one register-resident kernel that
 * reaches the in-vector levels (distance 4, 2, 1) through an 8x8
 * transpose (the AVX-512 unit, from n = 1024 on: the last eight levels of
 * every 256-element block on 16 lanes, through a 16x16 transpose).  Same
 * tree order as the scalar backend, so results are bit-identical and the
 * multiply path has no bit-reversal pass.  For p < 2^29 the leaf kernels
 * reduce on one forward level of three (lazy_red).  The kernels are bound
 * by the vector ALUs, so they work on two independent blocks at once where
 * that measured faster: the product's 8-lane leaf runs a's and b's levels
 * side by side on shared twiddles.
 *
 * Kinds and sizes this file does not vectorize run the scalar kernels: %
 * and Barrett (slow by design, kept for the reports' comparison), and
 * plans shorter than 256.
 */

/* Lazy forward levels, for p < 2^29 (8p <= 2^32): r, the bound of the
   values entering a level in units of p, runs 4, 6, 8, 4, ...: two levels
   leave x unreduced (mulw takes any 32-bit y) and the third reduces it from
   [0, 8p), so a third of the reductions go.  A kernel's last level (fin)
   reduces whatever it gets, so that it stores [0, 4p) like every other
   kernel.  r = 0: not lazy, every level reduces. */
NTT_INLINE int lazy_red(int r, int fin) { return r == 0 ? 1 : fin ? (r == 4 ? 1 : 2) : r == 8 ? 2 : 0; }
NTT_INLINE int lazy_next(int r, int fin) { return r == 0 ? 0 : fin || r == 8 ? 4 : r + 2; }

/* Calls CALL(r) with r a constant, so that each range gets its own code. */
#define BY_RANGE(r, CALL)                                                                   \
    switch (r) {                                                                            \
    case 4: CALL(4); break;                                                                 \
    case 6: CALL(6); break;                                                                 \
    case 8: CALL(8); break;                                                                 \
    default: CALL(0); break;                                                                \
    }

/* The butterflies, wide levels and leaves on each vector width. */
#define VEC u32x8
#define VEC_LANES 8
#include "lanes_u32.tmpl.h"
#if X86_AVX512
#define VEC u32x16
#define VEC_LANES 16
#include "lanes_u32.tmpl.h"
#endif

/* WIDE(f, cnt, ...) calls the widest f of lanes_u32.tmpl.h whose lanes divide
   cnt (16 lanes wherever the count of positions allows, in the AVX-512
   unit); LEAF(lv, f, ...) the f of leaves of lv lanes (8, or 16 in the
   AVX-512 unit). */
#if X86_AVX512
#define WIDE(f, cnt, ...) ((cnt) % 16 == 0 ? u32x16_##f(__VA_ARGS__) : u32x8_##f(__VA_ARGS__))
#define LEAF(lv, f, ...) ((lv) == 16 ? u32x16_##f(__VA_ARGS__) : u32x8_##f(__VA_ARGS__))
#else
#define WIDE(f, cnt, ...) u32x8_##f(__VA_ARGS__)
#define LEAF(lv, f, ...) u32x8_##f(__VA_ARGS__)
#endif

static void arrange_v(mod_u32 *M, size_t n, size_t lanes)
{
    ntt_cpu_regroup(M->fw, sizeof *M->fw, n, lanes);
    ntt_cpu_regroup(M->fwx, sizeof *M->fwx, n, lanes);
    ntt_cpu_regroup(M->iw, sizeof *M->iw, n, lanes);
    ntt_cpu_regroup(M->iwx, sizeof *M->iwx, n, lanes);
}

/* ---- whole subtrees inside one cache block ------------------------------------- */

/* The levels of subtree i above its leaf blocks (lv^2 elements) on a block
   of L >= lv^2 elements: an odd level first (while the distance is long),
   then radix-4 passes, on b too when nb = 2.  Returns the node of the first
   leaf block; *r: the range in and out (see lazy_red). */
NTT_INLINE size_t fwd_upper(uint32_t *a, uint32_t *b, size_t L, size_t i, const mod_u32 *M,
                            const int kind, int *r, const int nb, const size_t lv)
{
    size_t len = L, node = i;
    if (ntt_log2(L) & 1) {
#define FWD2(R) WIDE(fwd2v, L / 2, a, b, L / 2, L / 2, i, M, kind, R, nb)
        BY_RANGE(*r, FWD2)
#undef FWD2
        *r = lazy_next(*r, 0);
        len = L / 2;
        node = 2 * i;
    }
    for (; len > lv * lv; len >>= 2, node <<= 2) {
        for (size_t g = 0; g < L / len; g++) {
#define FWD4(R)                                                                             \
    WIDE(fwd4v, len / 4, a + g * len, b + g * len, len / 4, len / 4, node + g, M, kind, 0, R, nb)
            BY_RANGE(*r, FWD4)
#undef FWD4
        }
        *r = lazy_next(lazy_next(*r, 0), 0);
    }
    return node;
}

/* The range a leaf block's forward starts in: lazy when 8p <= 2^32. */
NTT_INLINE int lazy_start(const mod_u32 *M) { return M->c.p < (1u << 29) ? 4 : 0; }

NTT_INLINE void inv_upper(uint32_t *a, size_t L, size_t i, const mod_u32 *M, const int kind,
                          const size_t lv)
{
    size_t len = 4 * lv * lv;
    for (; len <= L; len <<= 2)
        for (size_t g = 0; g < L / len; g++)
            WIDE(inv4v, len / 4, a + g * len, len / 4, len / 4, i * (L / len) + g, M, kind, 0);
    if (len / 4 != L) WIDE(inv2v, L / 2, a, L / 2, L / 2, i, M, kind);
}

/* t: natural order at the leaves (else the transposed order of the polymul
   path).  8-lane leaf blocks go in pairs (see fwdleaf) where there are
   two. */
NTT_INLINE void fwd_smallv(uint32_t *a, size_t L, size_t i, const mod_u32 *M, const int kind,
                           const int t, const size_t lv)
{
    const size_t lf = lv * lv;
    int r = lazy_start(M);
    const size_t node = fwd_upper(a, a, L, i, M, kind, &r, 1, lv);
    if (lv == 8 && L > lf) {
#define LAST(R) \
    for (size_t g = 0; g < L / lf; g += 2) LEAF(lv, fwd_last, a + lf * g, node + g, M, kind, t, R, 2)
        BY_RANGE(r, LAST)
#undef LAST
        return;
    }
#define LAST(R) \
    for (size_t g = 0; g < L / lf; g++) LEAF(lv, fwd_last, a + lf * g, node + g, M, kind, t, R, 1)
    BY_RANGE(r, LAST)
#undef LAST
}

NTT_INLINE void inv_smallv(uint32_t *a, size_t L, size_t i, const mod_u32 *M, const int kind,
                           const int t, const size_t lv)
{
    const size_t lf = lv * lv, nb = L / lf;
    if (lv == 8 && nb > 1)
        for (size_t g = 0; g < nb; g += 2) LEAF(lv, inv_last, a + lf * g, i * nb + g, M, kind, t, 2);
    else
        for (size_t g = 0; g < nb; g++) LEAF(lv, inv_last, a + lf * g, i * nb + g, M, kind, t, 1);
    inv_upper(a, L, i, M, kind, lv);
}

/* ---- root, pointwise, reduction ------------------------------------------------- */

/* Arrays of at least this many bytes written in one pass take streaming
   stores: far larger than the caches, they would only be read in first
   (a read for ownership per line: a third of the pass's memory traffic). */
static const size_t kStreamBytes = (size_t)32 << 20;

/* The product's first and last passes (load_top, inv_root) read the
   caller's inputs and write its output, cold or in L3, through two to four
   streams each, and the hardware prefetchers bring them too late: the
   misses had cost about as much as the loads' arithmetic.  So each such
   access asks for the line this many bytes further on (the best distance
   of those tried, 0.5 to 8 KiB).  A prefetch never faults, past the end
   included; its address is made as an integer, so that no out-of-bounds
   pointer is formed. */
#define AHEAD 2048

NTT_INLINE void put16(void *p, __m128i v, const int nt)
{
    if (nt) _mm_stream_si128((__m128i *)p, v);
    else _mm_storeu_si128((__m128i *)p, v);
}

/* The same for 32 bytes at p, 32-byte aligned when nt. */
NTT_INLINE void put32(void *p, u32x8 v, const int nt)
{
    if (nt) _mm256_stream_si256((__m256i *)p, v);
    else u32x8_store(p, v);
}

/* Fully reduced outputs of 8 lanes at out[j .. j+8); nt: streaming, out
   16-byte aligned (the caller's arrays may be no more).  Cached stores ask
   for their line AHEAD on first, for writing where the build allows
   (PREFETCHW, in the AVX-512 one). */
NTT_INLINE void store_out(void *out, size_t j, u32x8 v, const int out64, const int nt)
{
    if (!nt)
        __builtin_prefetch((const char *)((uintptr_t)out + (j << (out64 ? 3 : 2)) + AHEAD), 1, 3);
    if (out64) {
        uint64_t *o = (uint64_t *)out + j;
        const u32x8 lo = _mm256_cvtepu32_epi64(_mm256_castsi256_si128(v));
        const u32x8 hi = _mm256_cvtepu32_epi64(_mm256_extracti128_si256(v, 1));
        put16(o, _mm256_castsi256_si128(lo), nt);
        put16(o + 2, _mm256_extracti128_si256(lo, 1), nt);
        put16(o + 4, _mm256_castsi256_si128(hi), nt);
        put16(o + 6, _mm256_extracti128_si256(hi, 1), nt);
    } else {
        uint32_t *o = (uint32_t *)out + j;
        put16(o, _mm256_castsi256_si128(v), nt);
        put16(o + 4, _mm256_extracti128_si256(v, 1), nt);
    }
}

/* x in [0, 4p) times S, fully reduced; unit (S = 1): no multiplication. */
NTT_INLINE u32x8 scale_out(u32x8 x, u32x8_tw S, u32x8_cst C, const int kind, const int unit)
{
    return unit ? u32x8_csub(u32x8_csub(x, C.p2), C.p) : u32x8_csub(u32x8_mulw(x, S, C, kind), C.p);
}

NTT_INLINE void inv_rootu(uint32_t *a, void *out, size_t n, size_t lc, size_t j0, size_t j1,
                          tw_u32 s, tw_u32 s1, const mod_u32 *M, const int kind, const int out64,
                          const int unit)
{
    const u32x8_cst C = u32x8_cst_of(M);
    const u32x8_tw S = u32x8_tw_scalar(s), S1 = u32x8_tw_scalar(s1);
    const int nt = lc * (out64 ? 8 : 4) >= kStreamBytes && ((uintptr_t)out & 15) == 0;
    size_t j = j0;
    if (ntt_log2(n) & 1) {
        const size_t h = n / 2;
        const size_t full = lc >= n ? h : lc > h ? lc - h : 0;
        for (; j + 8 <= j1 && j + 8 <= full; j += 8) {
            const u32x8 x = u32x8_load(a + j);
            const u32x8 y = u32x8_load(a + j + h);
            const u32x8 u = scale_out(u32x8_add(x, y), S, C, kind, unit);
            const u32x8 v = scale_out(u32x8_add(u32x8_sub(x, y), C.p2), S1, C, kind, unit);
            store_out(out, j, u, out64, nt);
            store_out(out, j + h, v, out64, nt);
        }
    } else {
        const size_t q = n / 4;
        const size_t full = lc >= n ? q : lc > 3 * q ? lc - 3 * q : 0;
        const u32x8_tw w2 = u32x8_tw_bcast(M->iw, M->iwx, 2), w3 = u32x8_tw_bcast(M->iw, M->iwx, 3);
        for (; j + 8 <= j1 && j + 8 <= full; j += 8) {
            u32x8 x0 = u32x8_load(a + j);
            u32x8 x1 = u32x8_load(a + j + q);
            u32x8 x2 = u32x8_load(a + j + 2 * q);
            u32x8 x3 = u32x8_load(a + j + 3 * q);
            u32x8_gs(&x0, &x1, w2, C, kind);
            u32x8_gs(&x2, &x3, w3, C, kind);
            const u32x8 y0 = scale_out(u32x8_add(x0, x2), S, C, kind, unit);
            const u32x8 y1 = scale_out(u32x8_add(x1, x3), S, C, kind, unit);
            const u32x8 y2 = scale_out(u32x8_add(u32x8_sub(x0, x2), C.p2), S1, C, kind, unit);
            const u32x8 y3 = scale_out(u32x8_add(u32x8_sub(x1, x3), C.p2), S1, C, kind, unit);
            store_out(out, j, y0, out64, nt);
            store_out(out, j + q, y1, out64, nt);
            store_out(out, j + 2 * q, y2, out64, nt);
            store_out(out, j + 3 * q, y3, out64, nt);
        }
    }
    /* Streaming stores are weakly ordered: drained before the caller (or
       another thread past its barrier) reads the output. */
    if (nt) _mm_sfence();
    /* The rest (outputs past lc, a span shorter than a vector) as scalar
       code. */
    if (j < j1) {
        const kern_u32 *K = ntt_scalar_kernels_u32((ntt_modmul)kind);
        (out64 ? K->inv_root64 : K->inv_root)(a, out, n, lc, j, j1, s, s1, M);
    }
}

/* A scale of one (see kern.load_top_scaled) costs no multiplications. */
NTT_INLINE void inv_rootv(uint32_t *a, void *out, size_t n, size_t lc, size_t j0, size_t j1,
                          tw_u32 s, tw_u32 s1, const mod_u32 *M, const int kind, const int out64)
{
    if (s.w == 1 && s1.w == 1) inv_rootu(a, out, n, lc, j0, j1, s, s1, M, kind, out64, 1);
    else inv_rootu(a, out, n, lc, j0, j1, s, s1, M, kind, out64, 0);
}

/* a, b in [0, 4p) -> a b R^-1 in [0, 2p) (the factor F of the scalar
   kernels' mul2: both vectorized kinds use Montgomery here). */
NTT_INLINE u32x8 mul2(u32x8 a, u32x8 b, u32x8_cst C)
{
    return u32x8_mont2(u32x8_csub(u32x8_csub(a, C.p2), C.p), b, C);
}

static void pointwise_lazy(uint32_t *c, const uint32_t *a, const uint32_t *b, size_t len,
                           const mod_u32 *M)
{
    const u32x8_cst C = u32x8_cst_of(M);
    size_t j = 0;
    for (; j + 8 <= len; j += 8)
        u32x8_store(c + j, mul2(u32x8_load(a + j),
                                               u32x8_load(b + j), C));
    for (; j < len; j++) {
        const uint32_t x = ntt_csub32(ntt_csub32(a[j], M->c.p2), M->c.p);
        c[j] = ntt_mont32(x, b[j], M->c.p, M->c.pinv);
    }
}

/* See kern.mul_small: a's and b's leaves, the product and b's inverse leaves
   meet in registers, a leaf block at a time (mul_last). */
NTT_INLINE void mul_smallv(uint32_t *b, uint32_t *a, size_t L, size_t i, const mod_u32 *M,
                           const int kind, const size_t lv)
{
    const size_t lf = lv * lv;
    int r = lazy_start(M);
    const size_t node = fwd_upper(b, a, L, i, M, kind, &r, 2, lv);
#define LEAVES(R) \
    for (size_t g = 0; g < L / lf; g++) LEAF(lv, mul_last, b + lf * g, a + lf * g, node + g, M, kind, R)
    BY_RANGE(r, LEAVES)
#undef LEAVES
    inv_upper(b, L, i, M, kind, lv);
}

NTT_INLINE void pointwise_fullv(uint32_t *c, const uint32_t *a, const uint32_t *b, size_t len,
                                const mod_u32 *M, const int kind)
{
    const u32x8_cst C = u32x8_cst_of(M);
    const u32x8_tw F = u32x8_tw_scalar(M->fix);
    size_t j = 0;
    for (; j + 8 <= len; j += 8) {
        const u32x8 v = u32x8_mont2(u32x8_load(a + j),
                          u32x8_load(b + j), C);
        u32x8_store(c + j, u32x8_csub(u32x8_mulw(v, F, C, kind), C.p));
    }
    if (j < len) ntt_scalar_kernels_u32((ntt_modmul)kind)->pointwise_full(c + j, a + j, b + j, len - j, M);
}

static void reduce4(uint32_t *a, size_t len, const mod_u32 *M)
{
    const u32x8_cst C = u32x8_cst_of(M);
    size_t j = 0;
    for (; j + 8 <= len; j += 8) {
        const u32x8 x = u32x8_load(a + j);
        u32x8_store(a + j, u32x8_csub(u32x8_csub(x, C.p2), C.p));
    }
    for (; j < len; j++) a[j] = ntt_csub32(ntt_csub32(a[j], M->c.p2), M->c.p);
}

/* ---- loading a zero-padded input ------------------------------------------------ */

/* The range check of what load_src reads: the largest low word, and the
   OR of the 64-bit sources (whose high words must be zero). */
typedef struct {
    u32x8 mx, or64;
} vchk;

NTT_INLINE vchk chk_init(void)
{
    vchk k = {_mm256_setzero_si256(), _mm256_setzero_si256()};
    return k;
}

/* Whether a value checked was >= p. */
NTT_INLINE bool chk_bad(vchk k, uint32_t p)
{
    const u32x8 lim = _mm256_set1_epi32((int)(p - 1)), hi = _mm256_set1_epi64x((long long)0xFFFFFFFF00000000ull);
    const u32x8 over = _mm256_xor_si256(_mm256_max_epu32(k.mx, lim), lim);
    return !_mm256_testz_si256(_mm256_or_si256(over, _mm256_and_si256(k.or64, hi)),
                               _mm256_set1_epi32(-1));
}

/* See AHEAD. */
NTT_INLINE void prefetch_src(const void *src, bool src64, size_t j)
{
    _mm_prefetch((const char *)((uintptr_t)src + (j << (src64 ? 3 : 2)) + AHEAD), _MM_HINT_T0);
}

/* src[j .. j+8) as u32 lanes, zero at and past len, folded into the check k. */
NTT_INLINE u32x8 load_src(const void *src, bool src64, size_t j, size_t len, vchk *k)
{
    prefetch_src(src, src64, j);
    u32x8 x;
    if (j + 8 <= len) {
        if (!src64) {
            x = u32x8_load((const uint32_t *)src + j);
        } else {
            const uint64_t *s = (const uint64_t *)src + j;
            const u64x4 u = u64x4_load(s), v = u64x4_load(s + 4);
            k->or64 = _mm256_or_si256(k->or64, _mm256_or_si256(u, v));
            /* The low halves: e0 e1 e4 e5 | e2 e3 e6 e7, then in order. */
            const __m256 lo = _mm256_castsi256_ps(u), hi = _mm256_castsi256_ps(v);
            x = _mm256_permute4x64_epi64(_mm256_castps_si256(_mm256_shuffle_ps(lo, hi, 0x88)), 0xD8);
        }
    } else {
        uint32_t t[8] = {0};
        for (size_t i = 0; j + i < len && i < 8; i++) {
            const uint64_t w = src64 ? ((const uint64_t *)src)[j + i] : ((const uint32_t *)src)[j + i];
            t[i] = (uint32_t)w;
            /* A high word makes the value >= p: keep it where chk_bad looks. */
            if (w >> 32) k->or64 = _mm256_set1_epi32(-1);
        }
        x = u32x8_load(t);
    }
    k->mx = _mm256_max_epu32(k->mx, x);
    return x;
}

/* kern.load_top for len <= n/2, n >= 256: one pass writes both copies of
   the zero-padded root level and, when log2 n is even, does the level of
   nodes 2 and 3 on the way (inputs below p need no reduction first).  sc:
   kern.load_top_scaled, the inputs times s_mul (the y side through the
   plan's twiddles s_mul w2, s_mul w3).  Returns whether an input is >= p. */
NTT_INLINE bool load_topv(uint32_t *dst, const void *src, bool src64, size_t len, size_t n,
                          size_t j0, size_t j1, const mod_u32 *M, const int kind, const int sc)
{
    if (len > n / 2) return ntt_cpu_load_top_u32(dst, src, src64, len, n, j0, j1, M);
    vchk k = chk_init();
    const u32x8_cst C = u32x8_cst_of(M);
    const u32x8_tw S = u32x8_tw_scalar(M->s_mul);
    const size_t h = n / 2;
    /* By the bytes this call writes (the range in every segment of the
       span): a chunk of a sweep's columns stays cached for the sweep. */
    const int nt = (j1 - j0) * (n / ntt_cpu_root_span(n)) * 4 >= kStreamBytes &&
                   ((uintptr_t)dst & 31) == 0;
    if (ntt_log2(n) & 1) {
        for (size_t j = j0; j < j1; j += 8) {
            u32x8 x = j < len ? load_src(src, src64, j, len, &k) : _mm256_setzero_si256();
            if (sc) x = u32x8_mulw(x, S, C, kind);
            put32(dst + j, x, nt);
            put32(dst + h + j, x, nt);
        }
        if (nt) _mm_sfence();
        return chk_bad(k, M->c.p);
    }
    const size_t q = n / 4;
    const u32x8_tw w2 = sc ? u32x8_tw_scalar(M->s_mul_w2) : u32x8_tw_bcast(M->fw, M->fwx, 2);
    const u32x8_tw w3 = sc ? u32x8_tw_scalar(M->s_mul_w3) : u32x8_tw_bcast(M->fw, M->fwx, 3);
    const bool one = M->cyclic && !sc;
    for (size_t j = j0; j < j1; j += 8) {
        u32x8 x = j < len ? load_src(src, src64, j, len, &k) : _mm256_setzero_si256();
        const u32x8 y = j + q < len ? load_src(src, src64, j + q, len, &k) : _mm256_setzero_si256();
        /* x below p, or below 2p when scaled, needs no reduction: the
           outputs stay below 4p. */
        if (sc) x = u32x8_mulw(x, S, C, kind);
        u32x8 x0 = x, y0 = y, x1 = x, y1 = y;
        if (one) {
            x0 = u32x8_add(x, y);
            y0 = u32x8_add(u32x8_sub(x, y), C.p2);
        } else {
            u32x8_ctr(&x0, &y0, w2, C, kind, 0);
        }
        u32x8_ctr(&x1, &y1, w3, C, kind, 0);
        put32(dst + j, x0, nt);
        put32(dst + q + j, y0, nt);
        put32(dst + h + j, x1, nt);
        put32(dst + h + q + j, y1, nt);
    }
    if (nt) _mm_sfence();
    return chk_bad(k, M->c.p);
}

/* ---- per-kind kernel tables ------------------------------------------------------ */

/* Leaf blocks of 4096 elements (16 KiB) leave L1 room for their twiddles. */
#define X86_BLOCK32 4096

static void arrange8(mod_u32 *M, size_t n) { arrange_v(M, n, 8); }
#if X86_AVX512
static void arrange16(mod_u32 *M, size_t n) { arrange_v(M, n, 16); }
#endif

/* The kernels of kind K that do not depend on the leaves. */
#define U32_KINDS(K, NAME)                                                                  \
    static void fwd4_##NAME(uint32_t *a, size_t q, size_t c, size_t i, const mod_u32 *M)    \
    { WIDE(fwd4v, c, a, a, q, c, i, M, K, 0, 0, 1); }                                       \
    static void fwd4one_##NAME(uint32_t *a, size_t q, size_t c, size_t i, const mod_u32 *M) \
    { WIDE(fwd4v, c, a, a, q, c, i, M, K, 1, 0, 1); }                                       \
    static void fwd2_##NAME(uint32_t *a, size_t h, size_t c, size_t i, const mod_u32 *M)    \
    { WIDE(fwd2v, c, a, a, h, c, i, M, K, 0, 1); }                                          \
    static void inv2_##NAME(uint32_t *a, size_t h, size_t c, size_t i, const mod_u32 *M)    \
    { WIDE(inv2v, c, a, h, c, i, M, K); }                                                   \
    static void inv4_##NAME(uint32_t *a, size_t q, size_t c, size_t i, const mod_u32 *M)    \
    { WIDE(inv4v, c, a, q, c, i, M, K, 0); }                                                \
    static void inv4one_##NAME(uint32_t *a, size_t q, size_t c, size_t i, const mod_u32 *M) \
    { WIDE(inv4v, c, a, q, c, i, M, K, 1); }                                                \
    static void inv_root_##NAME(uint32_t *a, void *o, size_t n, size_t lc, size_t j0,       \
                                size_t j1, tw_u32 s, tw_u32 s1, const mod_u32 *M)           \
    { inv_rootv(a, o, n, lc, j0, j1, s, s1, M, K, 0); }                                     \
    static void inv_root64_##NAME(uint32_t *a, void *o, size_t n, size_t lc, size_t j0,     \
                                  size_t j1, tw_u32 s, tw_u32 s1, const mod_u32 *M)         \
    { inv_rootv(a, o, n, lc, j0, j1, s, s1, M, K, 1); }                                     \
    static bool load_top_##NAME(uint32_t *d, const void *s, bool s64, size_t len, size_t n, \
                                size_t j0, size_t j1, const mod_u32 *M)                     \
    { return load_topv(d, s, s64, len, n, j0, j1, M, K, 0); }                               \
    static bool load_top_scaled_##NAME(uint32_t *d, const void *s, bool s64, size_t len,    \
                                       size_t n, size_t j0, size_t j1, const mod_u32 *M)    \
    { return load_topv(d, s, s64, len, n, j0, j1, M, K, 1); }                               \
    static void pointwise_full_##NAME(uint32_t *c, const uint32_t *a, const uint32_t *b,    \
                                      size_t len, const mod_u32 *M)                         \
    { pointwise_fullv(c, a, b, len, M, K); }

/* The table of kind K with leaves of LV lanes.  min_n: the product's
   subtrees below its root levels (n/4) hold whole leaf blocks. */
#define U32_LEAVES(K, NAME, LV)                                                             \
    static void mul_small_##NAME##LV(uint32_t *b, uint32_t *a, size_t L, size_t i,          \
                                     const mod_u32 *M)                                      \
    { mul_smallv(b, a, L, i, M, K, LV); }                                                   \
    static void fwd_small_##NAME##LV(uint32_t *a, size_t L, size_t i, const mod_u32 *M)     \
    { fwd_smallv(a, L, i, M, K, 1, LV); }                                                   \
    static void fwd_small_p_##NAME##LV(uint32_t *a, size_t L, size_t i, const mod_u32 *M)   \
    { fwd_smallv(a, L, i, M, K, 0, LV); }                                                   \
    static void inv_small_##NAME##LV(uint32_t *a, size_t L, size_t i, const mod_u32 *M)     \
    { inv_smallv(a, L, i, M, K, 1, LV); }                                                   \
    static void inv_small_p_##NAME##LV(uint32_t *a, size_t L, size_t i, const mod_u32 *M)   \
    { inv_smallv(a, L, i, M, K, 0, LV); }                                                   \
    static const kern_u32 kernels_##NAME##LV = {                                            \
        .block = X86_BLOCK32,                                                               \
        .fwd4 = fwd4_##NAME,                                                                \
        .fwd4one = fwd4one_##NAME,                                                          \
        .fwd2 = fwd2_##NAME,                                                                \
        .inv2 = inv2_##NAME,                                                                \
        .mul_small = mul_small_##NAME##LV,                                                  \
        .load_top = load_top_##NAME,                                                        \
        .load_top_scaled = load_top_scaled_##NAME,                                          \
        .fwd_small = fwd_small_##NAME##LV,                                                  \
        .fwd_small_p = fwd_small_p_##NAME##LV,                                              \
        .inv4 = inv4_##NAME,                                                                \
        .inv4one = inv4one_##NAME,                                                          \
        .inv_small = inv_small_##NAME##LV,                                                  \
        .inv_small_p = inv_small_p_##NAME##LV,                                              \
        .inv_root = inv_root_##NAME,                                                        \
        .inv_root64 = inv_root64_##NAME,                                                    \
        .pointwise = pointwise_lazy,                                                        \
        .pointwise_full = pointwise_full_##NAME,                                            \
        .reduce = reduce4,                                                                  \
        .arrange = arrange##LV,                                                             \
        .min_n = 4 * LV * LV,                                                               \
        .name = "u32x" #LV};

U32_KINDS(NTT_MODMUL_SHOUP, shoup)
U32_KINDS(NTT_MODMUL_MONTGOMERY, mont)
U32_LEAVES(NTT_MODMUL_SHOUP, shoup, 8)
U32_LEAVES(NTT_MODMUL_MONTGOMERY, mont, 8)
#if X86_AVX512
U32_LEAVES(NTT_MODMUL_SHOUP, shoup, 16)
U32_LEAVES(NTT_MODMUL_MONTGOMERY, mont, 16)
#endif
