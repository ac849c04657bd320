/*
 * TEMPLATE openmp.tmpl.h, instantiated by openmp.c once per element width.
 *
 * Expects  T     element type (uint32_t / uint64_t);
 *          SFX   name suffix macro (SFX(x) is x##_u32 / x##_u64);
 *          OMP_MAX_SWEEPS, ntt_omp_share() and ntt_omp_flag(), from openmp.c.
 * Defines  static SFX(forward_par), SFX(inverse_par), SFX(polymul_par)
 *          (the threaded item operations openmp.c's ops call) and their
 *          helpers; no macros.
 *
 * One transform on all threads: the root level(s), then a sweep or two
 * over the "frontier" nodes (two to six levels per trip through memory,
 * chunks of columns shared among the threads, one barrier per sweep),
 * until there are enough subtrees for every thread; then the threads
 * finish whole subtrees, depth first, with the serial drivers (all
 * remaining levels, no barrier).
 * The inverse mirrors it; a product runs both with the leaves of b's
 * forward, the pointwise product and the inverse's leaves fused, as the
 * serial path does, and its first sweep fused with the load of the
 * operands, its last with the output (see load_sweep).
 */

/* Nodes first .. first+count-1, each of length len, contiguous from a; k:
   the radix-4 steps of the sweep that runs on them. */
typedef struct {
    size_t first, count, len;
    unsigned k;
} SFX(front);

/* The frontier sweeps below the root kernel's levels, f[0 .. return), and
   the subtrees' frontier f[return]: as few as give every thread at least
   four subtrees, each sweep as many steps as the serial drivers take on a
   block of its length, so no level streams the array twice.  One or two
   subtrees per thread (two threads, by the parity of log2 n) left a thread
   that fell behind, on a shared host a vCPU taken away for a while, with
   work no other thread could take. */
static unsigned SFX(plan)(size_t n, int nt, const SFX(mod) *M, SFX(front) *f)
{
    size_t len, nc = ntt_cpu_root_children(n, &len);
    const size_t minlen = M->K->block > 4096 ? M->K->block : 4096, t = (size_t)nt;
    unsigned d = 0;
    f[0] = (SFX(front)){nc, nc, len, 0};
    while (d < OMP_MAX_SWEEPS && f[d].count < 4 * t) {
        unsigned k = SFX(ntt_cpu_sweep_steps)(M, f[d].len);
        while (k > 0 && (f[d].len >> (2 * k)) < minlen) k--;
        if (k == 0) break;
        f[d].k = k;
        f[d + 1] = (SFX(front)){f[d].first << (2 * k), f[d].count << (2 * k), f[d].len >> (2 * k), 0};
        d++;
    }
    return d;
}

/* One sweep over the nodes of f in a and, unless NULL, in b, on all threads:
   chunks of columns handed out as threads come free. */
static void SFX(sweep_par)(T *a, T *b, SFX(front) f, const SFX(mod) *M, bool inverse)
{
    const size_t c = SFX(ntt_cpu_sweep_cols)(f.len, f.k), nch = (f.len >> (2 * f.k)) / c;
    const size_t units = f.count * nch;
#pragma omp for schedule(dynamic, 1)
    for (size_t u = 0; u < (b ? 2 : 1) * units; u++) {
        const size_t v = u % units, g = v / nch, j0 = (v % nch) * c;
        T *x = (u < units ? a : b) + g * f.len;
        (inverse ? SFX(ntt_cpu_inv_cols) : SFX(ntt_cpu_fwd_cols))(x, f.len, f.first + g, f.k, j0, c, M);
    }
}

/* This thread's share of to_internal over a[0 .. n). */
static void SFX(to_internal)(T *a, size_t n, const SFX(mod) *M, int nt, int t)
{
    size_t b, e;
    ntt_omp_share(n, nt, t, &b, &e);
    if (M->K->to_internal && b < e) M->K->to_internal(a + b, e - b, M);
}

/* Forward levels below the root: frontier sweeps, then whole subtrees. */
static void SFX(fwd_below)(T *a, size_t n, const SFX(mod) *M, bool perm, int nt)
{
    SFX(front) f[OMP_MAX_SWEEPS + 1];
    const unsigned d = SFX(plan)(n, nt, M, f);
    for (unsigned k = 0; k < d; k++) SFX(sweep_par)(a, NULL, f[k], M, false);
#pragma omp for schedule(dynamic, 1)
    for (size_t g = 0; g < f[d].count; g++)
        SFX(ntt_cpu_fwd_tree)(a + g * f[d].len, f[d].len, f[d].first + g, M, perm);
}

static void SFX(inv_below)(T *a, size_t n, const SFX(mod) *M, bool perm, int nt)
{
    SFX(front) f[OMP_MAX_SWEEPS + 1];
    const unsigned d = SFX(plan)(n, nt, M, f);
#pragma omp for schedule(dynamic, 1)
    for (size_t g = 0; g < f[d].count; g++)
        SFX(ntt_cpu_inv_tree)(a + g * f[d].len, f[d].len, f[d].first + g, M, perm);
    for (unsigned k = d; k-- > 0;) SFX(sweep_par)(a, NULL, f[k], M, true);
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
        SFX(fwd_below)(a, n, M, false, nt);
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
        SFX(inv_below)(a, n, M, false, nt);
        SFX(root)(a, a, n, n, M->s_inv, M->s1_inv, false, M, nt, t);
    }
}

/* A product's first sweep (k steps over each root child; see
   ntt_cpu_root_children) fused with the load: for the chunk [j0, j0 + c) of
   its columns, the chunk's rows loaded into x (ntt_cpu_load_part), then swept
   while they sit in L2, so the operand is not written to memory and read
   back between the two (the serial path, depth first below the root,
   keeps a root child's data in L3 instead, and measured faster on one
   core so).  Returns whether an input is >= p. */
static bool SFX(load_sweep)(T *x, const void *src, bool src64, size_t len, size_t n, unsigned k,
                            size_t j0, size_t c, bool scaled, const SFX(mod) *M)
{
    size_t L;
    const size_t nc = ntt_cpu_root_children(n, &L), s = L >> (2 * k);
    bool bad = false;
    for (size_t r = j0; r < L; r += s)
        bad |= SFX(ntt_cpu_load_part)(x, src, src64, len, n, r, r + c, scaled, M);
    for (size_t g = 0; g < nc; g++) SFX(ntt_cpu_fwd_cols)(x + g * L, L, nc + g, k, j0, c, M);
    return bad;
}

/* The same at the other end: the chunk's last inverse sweep, then the root
   kernel's outputs (kern.inv_root, inv_root64 when out64) of its rows. */
static void SFX(sweep_root)(T *a, void *out, size_t n, size_t lc, unsigned k, size_t j0,
                            size_t c, SFX(tw) s, SFX(tw) s1, bool out64, const SFX(mod) *M)
{
    size_t L;
    const size_t nc = ntt_cpu_root_children(n, &L), st = L >> (2 * k);
    for (size_t g = 0; g < nc; g++) SFX(ntt_cpu_inv_cols)(a + g * L, L, nc + g, k, j0, c, M);
    for (size_t r = j0; r < L; r += st)
        (out64 ? M->K->inv_root64 : M->K->inv_root)(a, out, n, lc, r, r + c, s, s1, M);
}

/* c[0..lc) = a * b on all threads; ws holds 2n elements.  NTT_ERANGE, c
   untouched, when an input is >= p (each thread checks what it loads). */
static ntt_status SFX(polymul_par)(const ntt_plan *plan, void *c, size_t lc, const void *a,
                                   size_t la, const void *b, size_t lb, bool io64,
                                   const SFX(mod) *M, T *ws, int nt)
{
    const size_t n = plan->n, span = ntt_cpu_root_span(n);
    T *A = ws, *R = b == a && lb == la ? ws : ws + n; /* a square transforms a only */
    const bool pre = SFX(ntt_cpu_prescale)(M, R != A, la, n);
    const SFX(tw) so = pre ? M->one : M->s_mul, s1o = pre ? M->one : M->s1_mul;
    bool bad = false;
#pragma omp parallel num_threads(nt)
    {
        const int t = omp_get_thread_num();
        SFX(front) f[OMP_MAX_SWEEPS + 1];
        const unsigned d = SFX(plan)(n, nt, M, f);
        const size_t s = f[0].len >> (2 * f[0].k), cols = SFX(ntt_cpu_sweep_cols)(f[0].len, f[0].k);
        const size_t nch = d > 0 ? s / cols : 0;
        if (d > 0) {
            /* The first and last sweeps fused with the load and the output,
               chunk by chunk of columns (see load_sweep). */
#pragma omp for schedule(dynamic, 1)
            for (size_t u = 0; u < (R != A ? 2 : 1) * nch; u++) {
                const size_t j0 = (u % nch) * cols;
                const bool mine =
                    u < nch ? SFX(load_sweep)(A, a, io64, la, n, f[0].k, j0, cols, pre, M)
                            : SFX(load_sweep)(R, b, io64, lb, n, f[0].k, j0, cols, false, M);
                if (mine) ntt_omp_flag(&bad);
            }
        } else {
            size_t j0, j1;
            ntt_omp_share(span, nt, t, &j0, &j1);
            if (j0 < j1) {
                bool mine = SFX(ntt_cpu_load_part)(A, a, io64, la, n, j0, j1, pre, M);
                if (R != A) mine |= SFX(ntt_cpu_load_part)(R, b, io64, lb, n, j0, j1, false, M);
                if (mine) ntt_omp_flag(&bad);
            }
#pragma omp barrier
        }
        bool stop;
#pragma omp atomic read
        stop = bad;
        if (!stop) {
            for (unsigned k = 1; k < d; k++) SFX(sweep_par)(A, R != A ? R : NULL, f[k], M, false);
#pragma omp for schedule(dynamic, 1)
            for (size_t g = 0; g < f[d].count; g++)
                SFX(ntt_cpu_fused_tree)(R + g * f[d].len, A + g * f[d].len, f[d].len,
                                        f[d].first + g, M);
            for (unsigned k = d; k-- > 1;) SFX(sweep_par)(R, NULL, f[k], M, true);
            if (d > 0) {
#pragma omp for schedule(dynamic, 1)
                for (size_t u = 0; u < nch; u++)
                    SFX(sweep_root)(R, c, n, lc, f[0].k, u * cols, cols, so, s1o, io64, M);
            } else {
                SFX(root)(R, c, n, lc, so, s1o, io64, M, nt, t);
            }
        }
    }
    return bad ? NTT_ERANGE : NTT_OK;
}

/* This thread's share of the root kernel's span. */
static void SFX(root)(T *a, void *out, size_t n, size_t lc, SFX(tw) s, SFX(tw) s1, bool out64,
                      const SFX(mod) *M, int nt, int t)
{
    size_t b, e;
    ntt_omp_share(ntt_cpu_root_span(n), nt, t, &b, &e);
    if (b < e) (out64 ? M->K->inv_root64 : M->K->inv_root)(a, out, n, lc, b, e, s, s1, M);
}
