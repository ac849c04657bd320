/*
 * TEMPLATE openmp.tmpl.h, instantiated by openmp.c once per element width.
 *
 * Expects  T     element type (uint32_t / uint64_t);
 *          SFX   name suffix macro (SFX(x) is x##_u32 / x##_u64);
 *          OMP_MAX_SWEEPS and the phase kinds PH_*, from openmp.c;
 *          src/pool/pool.h.
 * Defines  static SFX(forward_par), SFX(inverse_par), SFX(polymul_par)
 *          (the threaded item operations openmp.c's ops call) and their
 *          helpers; no macros.
 *
 * One transform on all threads of the plan's pool, as a pool job whose
 * phases are: the root level(s), then a sweep or two over the "frontier"
 * nodes (two to six levels per trip through memory, chunks of columns as
 * units), until there are enough subtrees for every thread; then whole
 * subtrees, depth first, with the serial drivers (all remaining levels).
 * A phase ends when its units are done, whichever threads ran them.
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

/* One pool job over one item: its arrays, the frontier plan, and per phase
   what it does (kind) and on which front (sweep). */
typedef struct {
    ntt_pool_job job;
    unsigned char kind[NTT_POOL_MAX_PHASES], sweep[NTT_POOL_MAX_PHASES];
    const ntt_plan *plan;
    const SFX(mod) *M;
    SFX(front) f[OMP_MAX_SWEEPS + 1];
    unsigned d;
    T *a, *b; /* the transformed arrays; b NULL but in a product */
    /* A product's operands, output and root scale. */
    const void *src_a, *src_b;
    void *out;
    size_t la, lb, lc, cols, nch;
    size_t shares; /* units of the phases split by positions: 4 per thread */
    bool io64, pre;
    SFX(tw) s, s1;
    atomic_bool bad; /* an input >= p: the phases after the load do nothing */
} SFX(par);

static void SFX(add)(SFX(par) *q, int kind, unsigned sweep, size_t units)
{
    const unsigned k = q->job.phases++;
    q->kind[k] = (unsigned char)kind;
    q->sweep[k] = (unsigned char)sweep;
    q->job.units[k] = units;
}

/* The units of a sweep over the nodes of f, in a and (two) b: column
   chunks of each node. */
static size_t SFX(sweep_units)(SFX(front) f, bool two)
{
    const size_t c = SFX(ntt_cpu_sweep_cols)(f.len, f.k), nch = (f.len >> (2 * f.k)) / c;
    return (two ? 2 : 1) * f.count * nch;
}

static void SFX(sweep_unit)(T *a, T *b, SFX(front) f, const SFX(mod) *M, bool inverse, size_t u)
{
    const size_t c = SFX(ntt_cpu_sweep_cols)(f.len, f.k), nch = (f.len >> (2 * f.k)) / c;
    const size_t units = f.count * nch, v = u % units, g = v / nch, j0 = (v % nch) * c;
    T *x = (u < units ? a : b) + g * f.len;
    (inverse ? SFX(ntt_cpu_inv_cols) : SFX(ntt_cpu_fwd_cols))(x, f.len, f.first + g, f.k, j0, c, M);
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

static void SFX(unit)(void *arg, unsigned phase, size_t u, int thread)
{
    (void)thread;
    SFX(par) *q = arg;
    const SFX(mod) *M = q->M;
    const SFX(kern) *K = M->K;
    const size_t n = q->plan->n, span = ntt_cpu_root_span(n);
    const SFX(front) *f = q->f;
    const unsigned d = q->d, sw = q->sweep[phase];
    size_t b, e;
    if (atomic_load_explicit(&q->bad, memory_order_relaxed)) return;
    switch (q->kind[phase]) {
    case PH_TO_INTERNAL:
        ntt_pool_share(n, q->shares, u, &b, &e);
        if (b < e) K->to_internal(q->a + b, e - b, M);
        break;
    case PH_FWD_ROOT:
        ntt_pool_share(span, q->shares, u, &b, &e);
        if (b < e) {
            if (ntt_log2(n) & 1) K->fwd2(q->a + b, span, e - b, 1, M);
            else (M->cyclic ? K->fwd4one : K->fwd4)(q->a + b, span, e - b, 1, M);
        }
        break;
    case PH_FWD_SWEEP: SFX(sweep_unit)(q->a, q->b, f[sw], M, false, u); break;
    case PH_INV_SWEEP: SFX(sweep_unit)(q->b, NULL, f[sw], M, true, u); break;
    case PH_FWD_TREE: SFX(ntt_cpu_fwd_tree)(q->a + u * f[d].len, f[d].len, f[d].first + u, M, false); break;
    case PH_INV_TREE: SFX(ntt_cpu_inv_tree)(q->a + u * f[d].len, f[d].len, f[d].first + u, M, false); break;
    case PH_REDUCE:
        ntt_pool_share(n, q->shares, u, &b, &e);
        if (b < e) K->reduce(q->a + b, e - b, M);
        break;
    case PH_LOAD_SWEEP: {
        const size_t j0 = (u % q->nch) * q->cols;
        const bool bad = u < q->nch ? SFX(load_sweep)(q->a, q->src_a, q->io64, q->la, n, f[0].k, j0, q->cols, q->pre, M)
                                    : SFX(load_sweep)(q->b, q->src_b, q->io64, q->lb, n, f[0].k, j0, q->cols, false, M);
        if (bad) atomic_store_explicit(&q->bad, true, memory_order_relaxed);
        break;
    }
    case PH_LOAD_PART: {
        ntt_pool_share(span, q->shares, u, &b, &e);
        if (b < e) {
            bool bad = SFX(ntt_cpu_load_part)(q->a, q->src_a, q->io64, q->la, n, b, e, q->pre, M);
            if (q->b != q->a) bad |= SFX(ntt_cpu_load_part)(q->b, q->src_b, q->io64, q->lb, n, b, e, false, M);
            if (bad) atomic_store_explicit(&q->bad, true, memory_order_relaxed);
        }
        break;
    }
    case PH_FUSED_TREE:
        SFX(ntt_cpu_fused_tree)(q->b + u * f[d].len, q->a + u * f[d].len, f[d].len, f[d].first + u, M);
        break;
    case PH_SWEEP_ROOT:
        SFX(sweep_root)(q->b, q->out, n, q->lc, f[0].k, u * q->cols, q->cols, q->s, q->s1, q->io64, M);
        break;
    case PH_ROOT:
        ntt_pool_share(span, q->shares, u, &b, &e);
        if (b < e) (q->io64 ? K->inv_root64 : K->inv_root)(q->b, q->out, n, q->lc, b, e, q->s, q->s1, M);
        break;
    default: break;
    }
}

static void SFX(par_init)(SFX(par) *q, const ntt_plan *plan, const SFX(mod) *M, ntt_pool *pool)
{
    q->job = (ntt_pool_job){.fn = SFX(unit), .arg = q};
    q->plan = plan;
    q->M = M;
    q->d = SFX(plan)(plan->n, ntt_pool_threads(pool), M, q->f);
    q->shares = 4 * (size_t)ntt_pool_threads(pool);
    atomic_init(&q->bad, false);
}

static void SFX(forward_par)(const ntt_plan *plan, T *a, const SFX(mod) *M, ntt_pool *pool)
{
    SFX(par) q;
    SFX(par_init)(&q, plan, M, pool);
    q.a = a;
    q.b = NULL; /* the sweeps' second array */
    SFX(add)(&q, PH_TO_INTERNAL, 0, M->K->to_internal ? q.shares : 0);
    SFX(add)(&q, PH_FWD_ROOT, 0, q.shares);
    for (unsigned k = 0; k < q.d; k++) SFX(add)(&q, PH_FWD_SWEEP, k, SFX(sweep_units)(q.f[k], false));
    SFX(add)(&q, PH_FWD_TREE, 0, q.f[q.d].count);
    SFX(add)(&q, PH_REDUCE, 0, q.shares);
    ntt_pool_run(pool, &q.job);
    if (plan->flags & NTT_FLAG_NATURAL_ORDER) SFX(ntt_cpu_bitrev_permute)(a, plan->n);
}

static void SFX(inverse_par)(const ntt_plan *plan, T *a, const SFX(mod) *M, ntt_pool *pool)
{
    if (plan->flags & NTT_FLAG_NATURAL_ORDER) SFX(ntt_cpu_bitrev_permute)(a, plan->n);
    SFX(par) q;
    SFX(par_init)(&q, plan, M, pool);
    q.a = q.b = a; /* the inverse sweeps and the root read b */
    q.out = a;
    q.lc = plan->n;
    q.io64 = false;
    q.s = M->s_inv;
    q.s1 = M->s1_inv;
    SFX(add)(&q, PH_TO_INTERNAL, 0, M->K->to_internal ? q.shares : 0);
    SFX(add)(&q, PH_INV_TREE, 0, q.f[q.d].count);
    for (unsigned k = q.d; k-- > 0;) SFX(add)(&q, PH_INV_SWEEP, k, SFX(sweep_units)(q.f[k], false));
    SFX(add)(&q, PH_ROOT, 0, q.shares);
    ntt_pool_run(pool, &q.job);
}

/* c[0..lc) = a * b on all threads; ws holds 2n elements.  NTT_ERANGE, c
   untouched, when an input is >= p (each unit checks what it loads). */
static ntt_status SFX(polymul_par)(const ntt_plan *plan, void *c, size_t lc, const void *a,
                                   size_t la, const void *b, size_t lb, bool io64,
                                   const SFX(mod) *M, T *ws, ntt_pool *pool)
{
    const size_t n = plan->n;
    SFX(par) q;
    SFX(par_init)(&q, plan, M, pool);
    q.a = ws;
    q.b = b == a && lb == la ? ws : ws + n; /* a square transforms a only */
    const bool two = q.b != q.a;
    q.pre = SFX(ntt_cpu_prescale)(M, two, la, n);
    q.s = q.pre ? M->one : M->s_mul;
    q.s1 = q.pre ? M->one : M->s1_mul;
    q.src_a = a;
    q.src_b = b;
    q.la = la;
    q.lb = lb;
    q.lc = lc;
    q.out = c;
    q.io64 = io64;
    const unsigned d = q.d;
    if (d > 0) {
        /* The first and last sweeps fused with the load and the output,
           chunk by chunk of columns (see load_sweep). */
        q.cols = SFX(ntt_cpu_sweep_cols)(q.f[0].len, q.f[0].k);
        q.nch = (q.f[0].len >> (2 * q.f[0].k)) / q.cols;
        SFX(add)(&q, PH_LOAD_SWEEP, 0, (two ? 2 : 1) * q.nch);
    } else {
        SFX(add)(&q, PH_LOAD_PART, 0, q.shares);
    }
    for (unsigned k = 1; k < d; k++) SFX(add)(&q, PH_FWD_SWEEP, k, SFX(sweep_units)(q.f[k], two));
    SFX(add)(&q, PH_FUSED_TREE, 0, q.f[d].count);
    for (unsigned k = d; k-- > 1;) SFX(add)(&q, PH_INV_SWEEP, k, SFX(sweep_units)(q.f[k], false));
    if (d > 0) SFX(add)(&q, PH_SWEEP_ROOT, 0, q.nch);
    else SFX(add)(&q, PH_ROOT, 0, q.shares);
    ntt_pool_run(pool, &q.job);
    return atomic_load(&q.bad) ? NTT_ERANGE : NTT_OK;
}
