/* What the CPU backends (scalar.c, x86/avx2.c, x86/avx512.c) and the
   threaded driver over them (openmp.c) share: the per-modulus tables, the kernel-table interface, the
   depth-first drivers and the plan data.  Not installed. */
#ifndef NTT_CPU_H
#define NTT_CPU_H

#include "../core/alloc.h"
#include "../core/internal.h"

/* The subtrees below the inverse root kernel's levels: nodes 2, 3 when
   log2 n is odd, else nodes 4 .. 7 (none when n < 4).  Returns their count,
   the first one's node; *len is their length. */
static inline size_t ntt_cpu_root_children(size_t n, size_t *len)
{
    if (n < 4) return *len = 0;
    if (ntt_log2(n) & 1) return *len = n / 2, 2;
    return *len = n / 4, 4;
}

#define T uint32_t
#define SFX(name) name##_u32
#include "cpu_types.tmpl.h"
#undef T
#undef SFX

#define T uint64_t
#define SFX(name) name##_u64
#include "cpu_types.tmpl.h"
#undef T
#undef SFX

/* plan->backend_data of every CPU backend. */
typedef struct {
    mod_u32 *m32;  /* plan->nmod entries, for u32 plans */
    mod_u64 *m64;  /* ... for u64 plans */
    void *ws;      /* nws polymul workspaces of 2n elements each */
    size_t nws;
    int threads;   /* the threaded driver's thread count (openmp.c); 1 elsewhere */
    struct ntt_pool *pool; /* the threaded driver's threads (src/pool); NULL elsewhere */
} ntt_cpu_data;

/* The kernels a backend runs a modulus with (the plan's modmul resolved),
   by the modulus' size.  Each serial backend defines one (scalar.c,
   x86/backend.tmpl.h) and the registry lists it (ntt_backend_kernels); the
   threaded driver (openmp.c) runs the one the registry gives it. */
typedef struct ntt_cpu_kernel_choice {
    const kern_u32 *(*k32)(const ntt_plan *plan, const ntt_modulus *m);
    const kern_u64 *(*k64)(const ntt_plan *plan, const ntt_modulus *m);
} ntt_cpu_kernel_choice;

/* The kind DEFAULT stands for on every CPU backend. */
static inline ntt_modmul ntt_cpu_resolve_modmul(ntt_modmul m)
{
    return m == NTT_MODMUL_DEFAULT ? NTT_MODMUL_SHOUP : m;
}

/* The kernels modulus m of the plan runs under the choice kc: kc's, or
   the scalar ones of the plan's kind where kc's need a larger plan.  The
   plan's init builds with them, and the registry names them for the
   planner without building a plan (ntt_backend_kernels_for), so both see
   the same kernels.  plan->modmul must be resolved (not DEFAULT). */
static inline const kern_u32 *ntt_cpu_pick_u32(const ntt_plan *plan,
                                               const ntt_cpu_kernel_choice *kc,
                                               const ntt_modulus *m)
{
    const kern_u32 *K = kc->k32(plan, m);
    return K->min_n > plan->n ? ntt_scalar_kernels_u32(plan->modmul) : K;
}
static inline const kern_u64 *ntt_cpu_pick_u64(const ntt_plan *plan,
                                               const ntt_cpu_kernel_choice *kc,
                                               const ntt_modulus *m)
{
    const kern_u64 *K = kc->k64(plan, m);
    return K->min_n > plan->n ? ntt_scalar_kernels_u64(plan->modmul) : K;
}

/* Each serial backend's, which the registry lists (registry.c includes
   this header; this one includes no registry). */
extern const ntt_cpu_kernel_choice ntt_scalar_kernel_choice;
#ifdef NTT_HAVE_AVX2
extern const ntt_cpu_kernel_choice ntt_avx2_kernel_choice;
#endif
#ifdef NTT_HAVE_AVX512
extern const ntt_cpu_kernel_choice ntt_avx512_kernel_choice;
#endif
#ifdef NTT_HAVE_AVX512
/* x86/kernels_u64_lanes.c: the 64-bit-lane kernels for modulus m of the plan (Shoup,
   2^51 <= p < 2^62; the caller checks the CPU), else NULL. */
const kern_u64 *ntt_lanes64_kernels_u64(const ntt_plan *plan, const ntt_modulus *m);
#endif
#ifdef NTT_HAVE_IFMA
/* x86/ifma.c: the IFMA kernels for modulus m of the plan (Shoup, p <
   2^52, a CPU with IFMA, ntt_cpu_ifma_enabled), else NULL. */
const kern_u64 *ntt_ifma_kernels_u64(const ntt_plan *plan, const ntt_modulus *m);
#endif

/* Lays out the tree-order table t (elements of esz bytes) of an n-point
   transform (n >= lanes^2) for leaves of `lanes` lanes: within each run
   of lanes 2^s nodes of the s-th in-vector level (s >= 1; distance
   lanes / 2^(s+1)), node 2^s k + g moves to lanes g + k, so that every
   twiddle vector of a transposed leaf is one load. */
void ntt_cpu_regroup(void *t, size_t esz, size_t n, size_t lanes);

/* Checks the kind against the scalar backend's rules (every
   CPU backend takes the same), resolves the default kind, then builds the
   tables of every modulus with the chosen kernels and nws workspaces;
   cleans up after itself on failure. */
ntt_status ntt_cpu_plan_init(ntt_plan *plan, const ntt_cpu_kernel_choice *kc, size_t nws);
void ntt_cpu_plan_free(ntt_plan *plan);

/* Span of the inverse root kernel: n/2 positions when log2 n is odd, else
   n/4. */
static inline size_t ntt_cpu_root_span(size_t n) { return ntt_log2(n) & 1 ? n / 2 : n / 4; }

/* The serial batch loops (item i uses modulus i % nmod), for the ops tables
   of the serial backends. */
ntt_status ntt_cpu_forward(ntt_plan *plan, void *a, size_t count, size_t stride);
ntt_status ntt_cpu_inverse(ntt_plan *plan, void *a, size_t count, size_t stride);
ntt_status ntt_cpu_pointwise(ntt_plan *plan, void *c, const void *a, const void *b, size_t count,
                             size_t stride);
ntt_status ntt_cpu_polymul(ntt_plan *plan, void *c, size_t lc, const void *a, size_t la,
                           const void *b, size_t lb, size_t count, size_t stride, bool io64);

#endif /* NTT_CPU_H */
