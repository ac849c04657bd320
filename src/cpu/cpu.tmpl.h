/*
 * TEMPLATE cpu.tmpl.h, instantiated by cpu.c once per element width.
 *
 * Expects  T     element type (uint32_t / uint64_t);
 *          SFX   name suffix macro (SFX(x) is x##_u32 / x##_u64);
 *          W64   1 for the 64-bit instance, else 0.
 * Defines  the SFX(ntt_cpu_*) functions declared in cpu_types.tmpl.h (mod
 *          tables, drivers, loads, item operations) and their static
 *          helpers; no macros left defined.
 *
 * What every CPU backend shares: the per-modulus tables, the depth-first
 * drivers (a block larger than the kernels' leaf block gets one radix-4
 * pass, then its four quarters recursively, so every level below the top
 * few runs in L1; a block larger than the L2 gets two or three radix-4
 * steps in one sweep, then its 16 or 64 parts), the zero-padded load, the
 * item-level operations.  Kernels are reached through M->K only.  (The
 * course reports' baseline is an add-on of its own: src/course.)
 */

/* ---- depth-first drivers --------------------------------------------------- */

/* In a cyclic plan the leftmost node of every level, a power of two, has
   twiddle 1. */
static bool SFX(one)(const SFX(mod) *M, size_t i) { return M->cyclic && (i & (i - 1)) == 0; }

/* Blocks of at least this many bytes take several levels per sweep: beyond
   the L2 a radix-4 pass streams the block from L3 or DRAM, and two of them
   cost two trips where one would do. */
static const size_t SFX(kBig) = (size_t)2 << 20;
/* A sweep's chunk of columns, all its rows, stays in L2 between steps. */
static const size_t SFX(kSweepBytes) = (size_t)256 << 10;

/* Three steps from 4 MiB on: the 64 parts of blocks up to 64 MiB are then
   no larger than an L2 (one step fewer left them twice as large as the L2
   and cost a second trip through L3 or DRAM on the way down). */
unsigned SFX(ntt_cpu_sweep_steps)(const SFX(mod) *M, size_t L)
{
    if (L / 4 <= M->K->block || L * sizeof(T) < SFX(kBig)) return 1;
    return L * sizeof(T) > ((size_t)4 << 20) ? 3 : 2;
}

size_t SFX(ntt_cpu_sweep_cols)(size_t L, unsigned k)
{
    const size_t s = L >> (2 * k), c = SFX(kSweepBytes) / (sizeof(T) << (2 * k));
    return s < c ? s : c;
}

/* Step st of a sweep: the 4^st nodes below i, each a radix-4 pass over the
   chunk's columns in every row of its quarters. */
static void SFX(cols_step)(T *a, size_t L, size_t i, unsigned k, unsigned st, size_t j0, size_t c,
                           bool inverse, const SFX(mod) *M)
{
    const SFX(kern) *K = M->K;
    const size_t s = L >> (2 * k), nodes = (size_t)1 << (2 * st), len = L >> (2 * st);
    const size_t q = len / 4, rows = q / s;
    for (size_t g = 0; g < nodes; g++) {
        const size_t node = i * nodes + g;
        void (*f)(T *, size_t, size_t, size_t, const SFX(mod) *) =
            inverse ? (SFX(one)(M, node) ? K->inv4one : K->inv4)
                    : (SFX(one)(M, node) ? K->fwd4one : K->fwd4);
        for (size_t r = 0; r < rows; r++) f(a + g * len + r * s + j0, q, c, node, M);
    }
}

void SFX(ntt_cpu_fwd_cols)(T *a, size_t L, size_t i, unsigned k, size_t j0, size_t c,
                           const SFX(mod) *M)
{
    for (unsigned st = 0; st < k; st++) SFX(cols_step)(a, L, i, k, st, j0, c, false, M);
}

void SFX(ntt_cpu_inv_cols)(T *a, size_t L, size_t i, unsigned k, size_t j0, size_t c,
                           const SFX(mod) *M)
{
    for (unsigned st = k; st-- > 0;) SFX(cols_step)(a, L, i, k, st, j0, c, true, M);
}

/* One sweep of k steps over a whole block, chunk by chunk. */
static void SFX(sweep)(T *a, size_t L, size_t i, unsigned k, bool inverse, const SFX(mod) *M)
{
    const size_t s = L >> (2 * k), c = SFX(ntt_cpu_sweep_cols)(L, k);
    for (size_t j0 = 0; j0 < s; j0 += c)
        (inverse ? SFX(ntt_cpu_inv_cols) : SFX(ntt_cpu_fwd_cols))(a, L, i, k, j0, c, M);
}

/* Subtree of node i over a[0 .. L): one sweep (two levels, or four or six
   when the block is larger than the L2), then the parts depth-first, until
   a block fits the kernels' leaf block. */
void SFX(ntt_cpu_fwd_tree)(T *a, size_t L, size_t i, const SFX(mod) *M, bool perm)
{
    const SFX(kern) *K = M->K;
    if (L <= K->block) {
        (perm ? K->fwd_small_p : K->fwd_small)(a, L, i, M);
        return;
    }
    const unsigned k = SFX(ntt_cpu_sweep_steps)(M, L);
    const size_t parts = (size_t)1 << (2 * k), s = L >> (2 * k);
    SFX(sweep)(a, L, i, k, false, M);
    for (size_t g = 0; g < parts; g++) SFX(ntt_cpu_fwd_tree)(a + g * s, s, parts * i + g, M, perm);
}

void SFX(ntt_cpu_inv_tree)(T *a, size_t L, size_t i, const SFX(mod) *M, bool perm)
{
    const SFX(kern) *K = M->K;
    if (L <= K->block) {
        (perm ? K->inv_small_p : K->inv_small)(a, L, i, M);
        return;
    }
    const unsigned k = SFX(ntt_cpu_sweep_steps)(M, L);
    const size_t parts = (size_t)1 << (2 * k), s = L >> (2 * k);
    for (size_t g = 0; g < parts; g++) SFX(ntt_cpu_inv_tree)(a + g * s, s, parts * i + g, M, perm);
    SFX(sweep)(a, L, i, k, true, M);
}

void SFX(ntt_cpu_inv_below_root)(T *a, size_t n, const SFX(mod) *M, bool perm)
{
    if (ntt_log2(n) & 1) {
        if (n >= 4) {
            SFX(ntt_cpu_inv_tree)(a, n / 2, 2, M, perm);
            SFX(ntt_cpu_inv_tree)(a + n / 2, n / 2, 3, M, perm);
        }
    } else {
        for (size_t g = 0; g < 4 && n >= 8; g++)
            SFX(ntt_cpu_inv_tree)(a + g * (n / 4), n / 4, 4 + g, M, perm);
    }
}

bool SFX(ntt_cpu_load_top)(T *dst, const void *src, bool src64, size_t len, size_t n, size_t j0,
                           size_t j1, const SFX(mod) *M)
{
    const SFX(kern) *K = M->K;
    const uint64_t *s64 = src;
    const T *sT = src;
    bool bad = false;
#define SRC(j) ((j) < len ? (src64 ? s64[j] : sT[j]) : 0)
    const bool pad = len <= n / 2, odd = (ntt_log2(n) & 1) != 0;
    const size_t span = ntt_cpu_root_span(n), cnt = j1 - j0;
    /* Segment k of the root span starts at k * span: two segments (the
       halves) for an odd log2 n, else four (the quarters). */
    const size_t segs = odd ? 2 : 4;
    for (size_t k = 0; k < segs; k++) {
        /* With zero padding the upper half repeats the lower one. */
        const size_t from = (pad ? k % (segs / 2) : k) * span;
        for (size_t j = j0; j < j1; j++) {
            const uint64_t v = SRC(from + j);
            bad |= v >= M->c.p;
            dst[k * span + j] = (T)v;
        }
        if (K->to_internal) K->to_internal(dst + k * span + j0, cnt, M);
    }
#undef SRC
    if (odd) {
        if (!pad) K->fwd2(dst + j0, span, cnt, 1, M);
    } else if (pad) {
        K->fwd2(dst + j0, span, cnt, 2, M);
        K->fwd2(dst + 2 * span + j0, span, cnt, 3, M);
    } else {
        (SFX(one)(M, 1) ? K->fwd4one : K->fwd4)(dst + j0, span, cnt, 1, M);
    }
    return bad;
}

/* Whether a product loads its first operand times s_mul (see
   kern.load_top_scaled): a cyclic one of two operands, the first at most
   n/2 long.  Cyclic: winv[1] = 1, so s1_mul = s_mul and both go into a. */
bool SFX(ntt_cpu_prescale)(const SFX(mod) *M, bool two, size_t la, size_t n)
{
    return M->K->load_top_scaled && two && M->cyclic && la <= n / 2;
}

bool SFX(ntt_cpu_load_part)(T *dst, const void *src, bool src64, size_t len, size_t n, size_t j0,
                            size_t j1, bool scaled, const SFX(mod) *M)
{
    const SFX(kern) *K = M->K;
    if (scaled) return K->load_top_scaled(dst, src, src64, len, n, j0, j1, M);
    return (K->load_top ? K->load_top : SFX(ntt_cpu_load_top))(dst, src, src64, len, n, j0, j1, M);
}

void SFX(ntt_cpu_fused_tree)(T *b, T *a, size_t L, size_t i, const SFX(mod) *M)
{
    const SFX(kern) *K = M->K;
    if (L <= K->block) {
        if (L < 2) {
            K->pointwise(b, b, a, L, M);
        } else if (b == a) {
            K->fwd_small_p(a, L, i, M);
            K->pointwise(a, a, a, L, M);
            K->inv_small_p(a, L, i, M);
        } else if (K->mul_small) {
            K->mul_small(b, a, L, i, M);
        } else {
            K->fwd_small_p(a, L, i, M);
            K->fwd_small_p(b, L, i, M);
            K->pointwise(b, b, a, L, M);
            K->inv_small_p(b, L, i, M);
        }
        return;
    }
    const unsigned k = SFX(ntt_cpu_sweep_steps)(M, L);
    const size_t parts = (size_t)1 << (2 * k), s = L >> (2 * k);
    SFX(sweep)(a, L, i, k, false, M);
    if (b != a) SFX(sweep)(b, L, i, k, false, M);
    for (size_t g = 0; g < parts; g++)
        SFX(ntt_cpu_fused_tree)(b + g * s, a + g * s, s, parts * i + g, M);
    SFX(sweep)(b, L, i, k, true, M);
}

/* In-place bit-reversal permutation (natural-order spectra). */
void SFX(ntt_cpu_bitrev_permute)(T *a, size_t n)
{
    for (size_t i = 1, j = 0; i < n; i++) {
        size_t bit = n >> 1;
        for (; j & bit; bit >>= 1) j ^= bit;
        j ^= bit;
        if (i < j) { T t = a[i]; a[i] = a[j]; a[j] = t; }
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

ntt_status SFX(ntt_cpu_mod_init)(SFX(mod) *M, const ntt_modulus *cm, size_t n, ntt_modmul kind)
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
    M->cyclic = cm->w && n >= 2 && cm->w[1] == 1;
    M->fw = ntt_alloc_aligned(4 * n * sizeof(T));
    if (!M->fw) return NTT_ENOMEM;
    M->fwx = M->fw + n;
    M->iw = M->fw + 2 * n;
    M->iwx = M->fw + 3 * n;
    M->fw[0] = M->fwx[0] = M->iw[0] = M->iwx[0] = 0;
    for (size_t i = 1; i < n; i++) {
        SFX(tw) f = SFX(make_tw)(cm->w[i], &X, kind), v = SFX(make_tw)(cm->winv[i], &X, kind);
        M->fw[i] = f.w;
        M->fwx[i] = f.x;
        M->iw[i] = v.w;
        M->iwx[i] = v.x;
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
    if (n >= 4) {
        M->s_mul_w2 = SFX(make_tw)(ntt_mulmod_slow(sm, cm->w[2], p), &X, kind);
        M->s_mul_w3 = SFX(make_tw)(ntt_mulmod_slow(sm, cm->w[3], p), &X, kind);
    }
    M->fix = SFX(make_tw)(finv, &X, kind);
    M->one = SFX(make_tw)(1 % p, &X, kind);
    return NTT_OK;
}

void SFX(ntt_cpu_mod_free)(SFX(mod) *M)
{
    free(M->fw);
    M->fw = M->fwx = M->iw = M->iwx = NULL;
}

/* ---- item-level operations ---------------------------------------------- */

void SFX(ntt_cpu_forward_item)(const ntt_plan *plan, T *a, const SFX(mod) *M)
{
    const size_t n = plan->n;
    const bool natural = (plan->flags & NTT_FLAG_NATURAL_ORDER) != 0;
    if (M->K->to_internal) M->K->to_internal(a, n, M);
    SFX(ntt_cpu_fwd_tree)(a, n, 1, M, false);
    M->K->reduce(a, n, M);
    if (natural) SFX(ntt_cpu_bitrev_permute)(a, n);
}

void SFX(ntt_cpu_inverse_item)(const ntt_plan *plan, T *a, const SFX(mod) *M)
{
    const size_t n = plan->n;
    const bool natural = (plan->flags & NTT_FLAG_NATURAL_ORDER) != 0;
    if (natural) SFX(ntt_cpu_bitrev_permute)(a, n);
    if (M->K->to_internal) M->K->to_internal(a, n, M);
    SFX(ntt_cpu_inv_below_root)(a, n, M, false);
    M->K->inv_root(a, a, n, n, 0, ntt_cpu_root_span(n), M->s_inv, M->s1_inv, M);
}

static bool SFX(chunk_geq)(const T *a, size_t len, T p)
{
    return sizeof(T) == 4 ? ntt_any_geq_u32((const uint32_t *)(const void *)a, len, (uint32_t)p)
                          : ntt_any_geq_u64((const uint64_t *)(const void *)a, len, (uint64_t)p);
}

/* Chunks small enough that the check leaves both operands' chunk in L1 for
   the product, so the inputs are read from memory once. */
#define PW_CHUNK 1024

ntt_status SFX(ntt_cpu_pointwise_item)(const ntt_plan *plan, T *c, const T *a, const T *b,
                                       const SFX(mod) *M)
{
    const size_t n = plan->n;
    const T p = M->c.p;
    if (M->K->pointwise_checked)
        return M->K->pointwise_checked(c, a, b, n, M) ? NTT_ERANGE : NTT_OK;
    for (size_t j = 0; j < n; j += PW_CHUNK) {
        const size_t len = n - j < PW_CHUNK ? n - j : PW_CHUNK;
        if (SFX(chunk_geq)(a + j, len, p) || SFX(chunk_geq)(b + j, len, p)) return NTT_ERANGE;
        M->K->pointwise_full(c + j, a + j, b + j, len, M);
    }
    return NTT_OK;
}

#undef PW_CHUNK

ntt_status SFX(ntt_cpu_polymul_item)(const ntt_plan *plan, void *c, size_t lc, const void *a,
                                     size_t la, const void *b, size_t lb, bool io64,
                                     const SFX(mod) *M, T *ws)
{
    const size_t n = plan->n;
    T *A = ws, *B = ws + n;
    const SFX(kern) *K = M->K;
    /* A square transforms a only (R == A). */
    T *R = b == a && lb == la ? A : B;
    const bool pre = SFX(ntt_cpu_prescale)(M, R != A, la, n);
    const SFX(tw) so = pre ? M->one : M->s_mul, s1o = pre ? M->one : M->s1_mul;
    const size_t span = ntt_cpu_root_span(n);
    bool bad = SFX(ntt_cpu_load_part)(A, a, io64, la, n, 0, span, pre, M);
    if (R != A) bad |= SFX(ntt_cpu_load_part)(B, b, io64, lb, n, 0, span, false, M);
    if (bad) return NTT_ERANGE;
    size_t L, nc = ntt_cpu_root_children(n, &L);
    for (size_t g = 0; g < nc; g++) SFX(ntt_cpu_fused_tree)(R + g * L, A + g * L, L, nc + g, M);
    if (nc == 0) K->pointwise(R, R, A, n, M);
    (io64 ? K->inv_root64 : K->inv_root)(R, c, n, lc, 0, span, so, s1o, M);
    return NTT_OK;
}
