/*
 * Width-generic part of openmp.c, included once per element width with
 *   T     element type (uint32_t / uint64_t)
 *   SFX   name suffix macro
 *
 * One transform on all threads: the root level(s), then a few radix-4
 * passes over the "frontier" nodes, each split by positions among the
 * threads (one barrier per pass, not per level), until there are at least
 * four subtrees per thread; then every thread finishes whole subtrees,
 * depth first, with the serial drivers (all remaining levels, no barrier).
 * The inverse mirrors it; a product runs both with the leaves of b's
 * forward, the pointwise product and the inverse's leaves fused, as the
 * serial path does.
 */

/* Nodes first .. first+count-1, each of length len, contiguous from a. */
typedef struct {
    size_t first, count, len;
} SFX(front);

/* The frontier below the root kernel's levels, and how many radix-4 passes
   deeper the threads start their subtrees: as few as give every thread the
   same number of (equal) subtrees, or at least four each when the count
   cannot divide evenly. */
static unsigned SFX(depth)(size_t n, int nt, const SFX(mod) *M, SFX(front) *f0)
{
    size_t len, nc = ntt_cpu_root_children(n, &len);
    *f0 = (SFX(front)){nc, nc, len};
    const size_t minlen = M->K->block > 4096 ? M->K->block : 4096, t = (size_t)nt;
    unsigned d = 0;
    for (size_t c = nc; !(c >= t && (c % t == 0 || c >= 4 * t)) && len / 4 >= minlen; c *= 4, len /= 4)
        d++;
    return d;
}

static SFX(front) SFX(down)(SFX(front) f, unsigned d)
{
    for (; d > 0; d--) f = (SFX(front)){4 * f.first, 4 * f.count, f.len / 4};
    return f;
}

/* A radix-4 pass over the nodes of f: this thread's share of the
   count * len/4 positions. */
static void SFX(pass4)(T *a, SFX(front) f, const SFX(mod) *M, bool inverse, int nt, int t)
{
    const SFX(kern) *K = M->K;
    const size_t q = f.len / 4;
    size_t b, e;
    ntt_omp_share(f.count * q, nt, t, &b, &e);
    while (b < e) {
        const size_t g = b / q, j = b % q, cnt = q - j < e - b ? q - j : e - b;
        const size_t node = f.first + g;
        const bool one = M->cyclic && (node & (node - 1)) == 0;
        if (inverse) (one ? K->inv4one : K->inv4)(a + g * f.len + j, q, cnt, node, M);
        else (one ? K->fwd4one : K->fwd4)(a + g * f.len + j, q, cnt, node, M);
        b += cnt;
    }
}

/* This thread's share of to_internal over a[0 .. n). */
static void SFX(to_internal)(T *a, size_t n, const SFX(mod) *M, int nt, int t)
{
    size_t b, e;
    ntt_omp_share(n, nt, t, &b, &e);
    if (M->K->to_internal && b < e) M->K->to_internal(a + b, e - b, M);
}

/* Forward levels below the root: frontier passes, then whole subtrees. */
static void SFX(fwd_below)(T *a, size_t n, const SFX(mod) *M, bool perm, int nt, int t)
{
    SFX(front) f;
    const unsigned d = SFX(depth)(n, nt, M, &f);
    for (unsigned k = 0; k < d; k++) {
        SFX(pass4)(a, SFX(down)(f, k), M, false, nt, t);
#pragma omp barrier
    }
    f = SFX(down)(f, d);
#pragma omp for schedule(static)
    for (size_t g = 0; g < f.count; g++)
        SFX(ntt_cpu_fwd_tree)(a + g * f.len, f.len, f.first + g, M, perm);
}

static void SFX(inv_below)(T *a, size_t n, const SFX(mod) *M, bool perm, int nt, int t)
{
    SFX(front) f;
    const unsigned d = SFX(depth)(n, nt, M, &f);
    const SFX(front) leaves = SFX(down)(f, d);
#pragma omp for schedule(static)
    for (size_t g = 0; g < leaves.count; g++)
        SFX(ntt_cpu_inv_tree)(a + g * leaves.len, leaves.len, leaves.first + g, M, perm);
    for (unsigned k = d; k-- > 0;) {
        SFX(pass4)(a, SFX(down)(f, k), M, true, nt, t);
#pragma omp barrier
    }
}

static void SFX(root)(T *a, void *out, size_t n, size_t lc, SFX(tw) s, SFX(tw) s1, bool out64,
                      const SFX(mod) *M, int nt, int t);

static void SFX(forward_par)(const ntt_plan *plan, T *a, const SFX(mod) *M, int nt)
{
    const SFX(kern) *K = M->K;
    const size_t n = plan->n, span = ntt_cpu_root_span(n);
#pragma omp parallel num_threads(nt)
    {
        const int t = omp_get_thread_num();
        SFX(to_internal)(a, n, M, nt, t);
#pragma omp barrier
        size_t b, e;
        ntt_omp_share(span, nt, t, &b, &e);
        if (b < e) {
            if (ntt_log2(n) & 1) K->fwd2(a + b, span, e - b, 1, M);
            else (M->cyclic ? K->fwd4one : K->fwd4)(a + b, span, e - b, 1, M);
        }
#pragma omp barrier
        SFX(fwd_below)(a, n, M, false, nt, t);
        ntt_omp_share(n, nt, t, &b, &e);
        if (b < e) K->reduce(a + b, e - b, M);
    }
    if (plan->flags & NTT_FLAG_NATURAL_ORDER) SFX(ntt_cpu_bitrev_permute)(a, n);
}

static void SFX(inverse_par)(const ntt_plan *plan, T *a, const SFX(mod) *M, int nt)
{
    const size_t n = plan->n;
    if (plan->flags & NTT_FLAG_NATURAL_ORDER) SFX(ntt_cpu_bitrev_permute)(a, n);
#pragma omp parallel num_threads(nt)
    {
        const int t = omp_get_thread_num();
        SFX(to_internal)(a, n, M, nt, t);
#pragma omp barrier
        SFX(inv_below)(a, n, M, false, nt, t);
        SFX(root)(a, a, n, n, M->s_inv, M->s1_inv, false, M, nt, t);
    }
}

/* c[0..lc) = a * b on all threads; ws holds 2n elements. */
static void SFX(polymul_par)(const ntt_plan *plan, void *c, size_t lc, const void *a, size_t la,
                             const void *b, size_t lb, bool io64, const SFX(mod) *M, T *ws,
                             int nt)
{
    const SFX(kern) *K = M->K;
    const size_t n = plan->n, span = ntt_cpu_root_span(n);
    void (*load)(T *, const void *, bool, size_t, size_t, size_t, size_t, const SFX(mod) *) =
        K->load_top ? K->load_top : SFX(ntt_cpu_load_top);
    T *A = ws, *R = b == a && lb == la ? ws : ws + n; /* a square transforms a only */
#pragma omp parallel num_threads(nt)
    {
        const int t = omp_get_thread_num();
        size_t j0, j1;
        ntt_omp_share(span, nt, t, &j0, &j1);
        if (j0 < j1) {
            load(A, a, io64, la, n, j0, j1, M);
            if (R != A) load(R, b, io64, lb, n, j0, j1, M);
        }
#pragma omp barrier
        SFX(front) f;
        const unsigned d = SFX(depth)(n, nt, M, &f);
        for (unsigned k = 0; k < d; k++) {
            SFX(pass4)(A, SFX(down)(f, k), M, false, nt, t);
            if (R != A) SFX(pass4)(R, SFX(down)(f, k), M, false, nt, t);
#pragma omp barrier
        }
        const SFX(front) leaves = SFX(down)(f, d);
#pragma omp for schedule(static)
        for (size_t g = 0; g < leaves.count; g++)
            SFX(ntt_cpu_fused_tree)(R + g * leaves.len, A + g * leaves.len, leaves.len,
                                    leaves.first + g, M);
        for (unsigned k = d; k-- > 0;) {
            SFX(pass4)(R, SFX(down)(f, k), M, true, nt, t);
#pragma omp barrier
        }
        SFX(root)(R, c, n, lc, M->s_mul, M->s1_mul, io64, M, nt, t);
    }
}

/* This thread's share of the root kernel's span. */
static void SFX(root)(T *a, void *out, size_t n, size_t lc, SFX(tw) s, SFX(tw) s1, bool out64,
                      const SFX(mod) *M, int nt, int t)
{
    size_t b, e;
    ntt_omp_share(ntt_cpu_root_span(n), nt, t, &b, &e);
    if (b < e) (out64 ? M->K->inv_root64 : M->K->inv_root)(a, out, n, lc, b, e, s, s1, M);
}
