/*
 * The threaded driver: a CPU backend's kernels on several threads, the
 * plan's own pool (src/pool/pool.h), started at plan creation.  Core
 * gives it the kernels (plan->cpu_kernels, from the registry): the plan's
 * backend's own (SCALAR, AVX2, AVX-512 with the plan option threads > 1),
 * or for NTT_BACKEND_OPENMP the best ISA of this CPU; and the thread count
 * (plan->run_threads: the option, else for OPENMP OMP_NUM_THREADS at plan
 * time).  A batch whose items are enough to share evenly runs one item per
 * thread; otherwise each item runs on all threads (openmp.tmpl.h), so a
 * large transform, each prime of the CRT path and each RNS limb of a large
 * plan get every thread.  Work too small to share runs on the calling
 * thread.  Nothing is allocated while a call runs.
 */
#include "cpu.h"
#include "../pool/pool.h"

#include <stdatomic.h>
#include <stdlib.h>

/* Sweeps in a frontier plan: at most one per two levels of a 2^63 array. */
#define OMP_MAX_SWEEPS 32

/* What a phase of a threaded item does (openmp.tmpl.h). */
enum {
    PH_TO_INTERNAL, /* kern.to_internal, split by positions */
    PH_FWD_ROOT,    /* the forward root level(s), split by positions */
    PH_FWD_SWEEP,   /* a forward frontier sweep, chunks of columns */
    PH_FWD_TREE,    /* forward subtrees, one a unit */
    PH_REDUCE,      /* the forward output's reduction, by positions */
    PH_INV_TREE,    /* inverse subtrees */
    PH_INV_SWEEP,   /* an inverse frontier sweep */
    PH_ROOT,        /* the inverse root kernel's outputs, by positions */
    PH_LOAD_SWEEP,  /* a product's load fused with its first sweep */
    PH_LOAD_PART,   /* a product's load, by positions (no sweep) */
    PH_FUSED_TREE,  /* a product's fused subtrees */
    PH_SWEEP_ROOT   /* a product's last sweep fused with the output */
};

#define T uint32_t
#define SFX(name) name##_u32
#include "openmp.tmpl.h"
#undef T
#undef SFX

#define T uint64_t
#define SFX(name) name##_u64
#include "openmp.tmpl.h"
#undef T
#undef SFX

/* Below this size a transform is not split, and a batch whose items
   together are smaller runs on the calling thread: handing work to a
   pool thread costs about what a transform of 2^12 takes on one core. */
#define OMP_MIN_SPLIT ((size_t)1 << 13)

/* Workspaces of polymul items running side by side stop at this many bytes;
   a plan whose per-thread workspaces would need more runs its items one at
   a time, each on all threads. */
#define OMP_WS_LIMIT ((size_t)256 << 20)

static int omp_available(void) { return 1; }

static int omp_supports(ntt_modmul m) { return ntt_scalar_ops.supports(m); }

static ntt_status omp_plan_init(ntt_plan *plan)
{
    const ntt_cpu_kernel_choice *kc = plan->cpu_kernels;
    if (!kc) return NTT_EUNSUPPORTED; /* not a CPU backend: not reached */
    const int nt = plan->run_threads > 1 ? plan->run_threads : 1;
    const size_t ws = 2 * plan->n * (plan->width == NTT_U32 ? 4 : 8);
    const size_t nws = nt > 1 && ws * (size_t)nt <= OMP_WS_LIMIT ? (size_t)nt : 1;
    ntt_status s = ntt_cpu_plan_init(plan, kc, nws);
    if (s != NTT_OK) return s;
    ntt_cpu_data *d = plan->backend_data;
    d->threads = nt;
    s = ntt_pool_create(&d->pool, nt, NTT_POOL_SPIN_NS);
    if (s != NTT_OK) ntt_cpu_plan_free(plan);
    return s;
}

static void omp_plan_free(ntt_plan *plan)
{
    ntt_cpu_data *d = plan->backend_data;
    if (d) ntt_pool_destroy(d->pool);
    ntt_cpu_plan_free(plan);
}

/* Items side by side when they share out evenly (or are many, or too small
   to split); a transform split across threads otherwise.  Products need a
   workspace per thread for the former. */
static bool per_item(const ntt_plan *plan, size_t count, bool product)
{
    const ntt_cpu_data *d = plan->backend_data;
    const size_t nt = (size_t)d->threads;
    if (nt == 1 || count == 1) return false;
    if (product && d->nws < nt) return false;
    return plan->n < OMP_MIN_SPLIT || count % nt == 0 || count >= 4 * nt;
}

/* Whether one item is worth splitting. */
static bool split(const ntt_plan *plan)
{
    const ntt_cpu_data *d = plan->backend_data;
    return d->threads > 1 && plan->n >= OMP_MIN_SPLIT;
}

/* Whether a batch is too small to hand to other threads. */
static bool tiny(const ntt_plan *plan, size_t count) { return plan->n * count < OMP_MIN_SPLIT; }

/* One item of a batch, serially (item it uses modulus it % nmod). */
static ntt_status item_serial(const ntt_plan *plan, int op, void *c, const void *a, const void *b,
                        size_t it, size_t stride, size_t lc, size_t la, size_t lb, bool io64,
                        void *ws)
{
    const ntt_cpu_data *d = plan->backend_data;
    const size_t mi = it % plan->nmod;
    if (plan->width == NTT_U32) {
        const size_t o = it * stride;
        const mod_u32 *M = &d->m32[mi];
        switch (op) {
        case 0: ntt_cpu_forward_item_u32(plan, (uint32_t *)c + o, M); break;
        case 1: ntt_cpu_inverse_item_u32(plan, (uint32_t *)c + o, M); break;
        case 2: return ntt_cpu_pointwise_item_u32(plan, (uint32_t *)c + o, (const uint32_t *)a + o,
                                                  (const uint32_t *)b + o, M);
        default: {
            const size_t ob = o * (io64 ? 8 : 4);
            return ntt_cpu_polymul_item_u32(plan, (char *)c + ob, lc, (const char *)a + ob, la,
                                            (const char *)b + ob, lb, io64, M, ws);
        }
        }
    } else {
        const size_t o = it * stride;
        const mod_u64 *M = &d->m64[mi];
        switch (op) {
        case 0: ntt_cpu_forward_item_u64(plan, (uint64_t *)c + o, M); break;
        case 1: ntt_cpu_inverse_item_u64(plan, (uint64_t *)c + o, M); break;
        case 2: return ntt_cpu_pointwise_item_u64(plan, (uint64_t *)c + o, (const uint64_t *)a + o,
                                                  (const uint64_t *)b + o, M);
        default:
            return ntt_cpu_polymul_item_u64(plan, (uint64_t *)c + o, lc, (const uint64_t *)a + o,
                                            la, (const uint64_t *)b + o, lb, io64, M, ws);
        }
    }
    return NTT_OK;
}

enum { OP_FWD, OP_INV, OP_PW, OP_MUL };

/* A batch, one item a unit (per_item). */
typedef struct {
    ntt_plan *plan;
    int op;
    void *c;
    const void *a, *b;
    size_t stride, lc, la, lb, wsz;
    bool io64;
    _Atomic ntt_status st;
} items_job;

static void item_unit(void *arg, unsigned phase, size_t it, int thread)
{
    (void)phase;
    items_job *j = arg;
    const ntt_cpu_data *d = j->plan->backend_data;
    const ntt_status s = item_serial(j->plan, j->op, j->c, j->a, j->b, it, j->stride, j->lc, j->la,
                                     j->lb, j->io64, (char *)d->ws + (size_t)thread * j->wsz);
    if (s != NTT_OK) atomic_store(&j->st, s);
}

static ntt_status run(ntt_plan *plan, int op, void *c, const void *a, const void *b, size_t count,
                      size_t stride, size_t lc, size_t la, size_t lb, bool io64)
{
    ntt_cpu_data *d = plan->backend_data;
    const size_t wsz = 2 * plan->n * (plan->width == NTT_U32 ? 4 : 8);
    /* As ntt_cpu_polymul: a single product checks its operands as it loads
       them; batches come checked. */
    ntt_status st = NTT_OK;
    if (per_item(plan, count, op == OP_MUL)) {
        items_job j = {.plan = plan, .op = op, .c = c, .a = a, .b = b, .stride = stride, .lc = lc,
                       .la = la, .lb = lb, .wsz = wsz, .io64 = io64};
        atomic_init(&j.st, NTT_OK);
        ntt_pool_for(tiny(plan, count) ? NULL : d->pool, count, item_unit, &j);
        return atomic_load(&j.st);
    }
    const bool par = split(plan);
    for (size_t it = 0; it < count && st == NTT_OK; it++) {
        if (!par || op == OP_PW) {
            st = item_serial(plan, op, c, a, b, it, stride, lc, la, lb, io64, d->ws);
            continue;
        }
        const size_t mi = it % plan->nmod, o = it * stride;
        if (plan->width == NTT_U32) {
            uint32_t *x = (uint32_t *)c + o;
            if (op == OP_FWD) forward_par_u32(plan, x, &d->m32[mi], d->pool);
            else if (op == OP_INV) inverse_par_u32(plan, x, &d->m32[mi], d->pool);
            else {
                const size_t ob = o * (io64 ? 8 : 4);
                st = polymul_par_u32(plan, (char *)c + ob, lc, (const char *)a + ob, la,
                                     (const char *)b + ob, lb, io64, &d->m32[mi], d->ws, d->pool);
            }
        } else {
            uint64_t *x = (uint64_t *)c + o;
            if (op == OP_FWD) forward_par_u64(plan, x, &d->m64[mi], d->pool);
            else if (op == OP_INV) inverse_par_u64(plan, x, &d->m64[mi], d->pool);
            else st = polymul_par_u64(plan, x, lc, (const uint64_t *)a + o, la,
                                      (const uint64_t *)b + o, lb, io64, &d->m64[mi], d->ws,
                                      d->pool);
        }
    }
    return st;
}

static ntt_status omp_forward(ntt_plan *plan, void *a, size_t count, size_t stride)
{
    return run(plan, OP_FWD, a, NULL, NULL, count, stride, 0, 0, 0, false);
}

static ntt_status omp_inverse(ntt_plan *plan, void *a, size_t count, size_t stride)
{
    return run(plan, OP_INV, a, NULL, NULL, count, stride, 0, 0, 0, false);
}

/* Memory-bound: items side by side or one at a time, never split. */
static ntt_status omp_pointwise(ntt_plan *plan, void *c, const void *a, const void *b,
                                size_t count, size_t stride)
{
    return run(plan, OP_PW, c, a, b, count, stride, 0, 0, 0, false);
}

static ntt_status omp_polymul(ntt_plan *plan, void *c, size_t lc, const void *a, size_t la,
                              const void *b, size_t lb, size_t count, size_t stride, bool io64)
{
    return run(plan, OP_MUL, c, a, b, count, stride, lc, la, lb, io64);
}

const ntt_backend_ops ntt_openmp_ops = {
    .name = "openmp",
    .id = NTT_BACKEND_OPENMP,
    .available = omp_available,
    .supports = omp_supports,
    .plan_init = omp_plan_init,
    .plan_free = omp_plan_free,
    .forward = omp_forward,
    .inverse = omp_inverse,
    .pointwise = omp_pointwise,
    .polymul = omp_polymul,
    .polymul_checks_single = true,
    .pointwise_checks_inputs = true,
};
