/* Internal plan layout and the backend interface.  Not installed. */
#ifndef NTT_INTERNAL_H
#define NTT_INTERNAL_H

#include "ntt.h"
#include "../include/ntt_internal.h" /* what the in-tree programs use too */
#include "../arith/modarith.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/*
 * Twiddles are kept in "tree order": node i (1 <= i < n) of the binary
 * splitting tree of the transform.  Level m (m = 1, 2, 4, ..., n/2) has m
 * nodes i = m + k, k = 0..m-1; node i owns the block [k*2h, (k+1)*2h) with
 * h = n / (2m), and its Cooley-Tukey butterflies pair j and j + h with
 * twiddle w[i].  Node i represents the factor x^(2h) - r^E(i), where r is a
 * root of order N (N = n cyclic, 2n negacyclic), E(1) = 0 or n, and the
 * children split it: E(2i) = E(i)/2, E(2i+1) = E(i)/2 + N/2; w[i] = r^(E(i)/2).
 * This is bit-reversed order with the negacyclic twist folded in, and the
 * forward output is in bit-reversed order.
 */

/* The canonical tables of one modulus, shared by all backends.  w and winv
   exist only while the backend's plan_init runs (it builds its own tables
   from them); ntt_plan_create frees them after, 16n bytes per modulus. */
typedef struct ntt_modulus {
    uint64_t p;
    uint64_t root;   /* r, of order n (cyclic) or 2n (negacyclic) */
    uint64_t *w;     /* w[1..n-1], forward twiddles in tree order, [0, p) */
    uint64_t *winv;  /* winv[i] = w[i]^-1 */
    uint64_t n_inv;  /* n^-1 mod p */
    /* Montgomery constants (R = 2^32 for u32 plans, 2^64 for u64 plans). */
    uint64_t pinv;   /* -p^-1 mod R */
    uint64_t r_mod;  /* R mod p */
    uint64_t r2_mod; /* R^2 mod p */
    /* Barrett constants. */
    uint64_t mu;     /* u32: floor(2^64/p); u64: floor(2^(2k)/p) */
    unsigned k;      /* bit length of p */
} ntt_modulus;

struct ntt_backend_ops;
struct ntt_cpu_kernel_choice; /* src/cpu/cpu.h */

/* The u64 kernel family a CPU plan is held to (ntt_plan.k64): the
   backend's rule by prime size, or one family that the planner
   (planner.c) times as a candidate; a family that does not apply to a
   modulus gives it the scalar kernels (x86/backend.tmpl.h). */
enum {
    NTT_K64_RULE = 0,
    NTT_K64_SCALAR = 1,
    NTT_K64_FP64 = 2,
    NTT_K64_LANES64 = 3,
    NTT_K64_IFMA = 4,
    NTT_K64_COUNT = 5
};

struct ntt_plan {
    size_t n;
    unsigned logn;
    ntt_width width;
    unsigned flags;
    ntt_modmul modmul;
    int threads;          /* the option as given */
    /* For the threaded driver (src/cpu/openmp.c), set by core from the
       registry before plan_init: the kernels it runs (ntt_backend_kernels)
       and its thread count (ntt_backend_thread_count). */
    const struct ntt_cpu_kernel_choice *cpu_kernels;
    int run_threads;
    unsigned k64;         /* NTT_K64_*: the u64 kernel family (the rule by default) */
    ntt_plan_choice_info choice; /* what ntt_plan_choice returns */
    size_t batch;         /* >= 1 */
    ntt_backend backend;
    const struct ntt_backend_ops *ops;
    size_t nmod;
    uint64_t *moduli;     /* nmod primes */
    ntt_modulus *mod;     /* nmod entries */
    void *backend_data;   /* owned by the backend (plan_init / plan_free) */
};

/*
 * Every backend exports one const ops table.  Entry points receive
 * validated arguments: non-NULL pointers, matching width, stride >= n,
 * count >= 1, inputs in [0, p).  Data pointers are uint32_t* or uint64_t*
 * according to plan->width.  A NULL forward, inverse, pointwise or polymul
 * falls back to the scalar one (NTT_OP).  The table lives in the backend's
 * file; its row in the registry (registry.c) adds the AUTO priority, the
 * kernels and the CRT primes.
 */
typedef struct ntt_backend_ops {
    const char *name;
    ntt_backend id;
    int (*available)(void);
    /* 1 if the backend implements this modmul kind (DEFAULT stands for
       the kind it would pick). */
    int (*supports)(ntt_modmul m);
    /* Resolves plan->modmul DEFAULT; returns NTT_EUNSUPPORTED exactly when
       supports() says 0. */
    ntt_status (*plan_init)(ntt_plan *plan);
    void (*plan_free)(ntt_plan *plan);
    ntt_status (*forward)(ntt_plan *plan, void *a, size_t count, size_t stride);
    ntt_status (*inverse)(ntt_plan *plan, void *a, size_t count, size_t stride);
    ntt_status (*pointwise)(ntt_plan *plan, void *c, const void *a, const void *b,
                            size_t count, size_t stride);
    /* c = a*b mod (x^n -+ 1), where a has la <= n and b lb <= n leading
       coefficients (the rest are zero) and only the first lc <= n
       coefficients of c are written.  c may alias a or b exactly.  With
       io64 the three arrays hold uint64_t even in a u32 plan (inputs < p),
       so ntt_polymul_mod needs no conversion buffers. */
    ntt_status (*polymul)(ntt_plan *plan, void *c, size_t lc, const void *a,
                          size_t la, const void *b, size_t lb, size_t count,
                          size_t stride, bool io64);

    /* Device-pointer entry points (CUDA only; NULL elsewhere): they enqueue
       on `stream` and return; no copies, no allocation, no synchronization.
       Arguments arrive validated as for the host calls, ranges unchecked.
       Item i uses the plan's modulus (item0 + i) mod nmod: the public calls
       pass 0; the RNS stages pass a range's first limb. */
    ntt_status (*dev_transform)(ntt_plan *plan, void *d_a, size_t count, size_t stride,
                                size_t item0, void *stream, bool inverse);
    ntt_status (*dev_pointwise)(ntt_plan *plan, void *d_c, const void *d_a, const void *d_b,
                                size_t count, size_t stride, size_t item0, void *stream);
    ntt_status (*dev_polymul)(ntt_plan *plan, void *d_c, size_t lc, const void *d_a, size_t la,
                              const void *d_b, size_t lb, size_t count, size_t stride,
                              size_t item0, void *stream);
    int (*dev_last_error)(const ntt_plan *plan);

    /* Whether some a[i] >= p, on the call's `threads` (0: the backend's
       default): ntt_polymul_mod's input check (NULL: ntt_any_geq_u64, one
       thread).  The threaded driver's splits it. */
    bool (*any_geq_u64)(const uint64_t *a, size_t len, uint64_t p, int threads);

    /* The polymul entry checks a and b itself when io64 is false (as
       ntt_out_of_range), returning NTT_ERANGE with c untouched, so that the
       check can run while the device works (CUDA); the plan calls then
       skip theirs.  io64 calls come checked from ntt_polymul_mod. */
    bool polymul_checks_inputs;
    /* The same for single products only (count 1, io64 or not: the
       coefficients of io64 calls checked as 64-bit values), which the CPU
       backends check as they load the operands; batches, and io64 calls
       without it, come checked (plan.c, ntt_polymul_mod). */
    bool polymul_checks_single;
    /* The pointwise entry checks its inputs itself, chunk by chunk in the
       pass that multiplies (ntt.h: on NTT_ERANGE a c[i] is either untouched
       or its product, and untouched where a[i] or b[i] is out of range), so
       that the inputs are not read in a pass of their own. */
    bool pointwise_checks_inputs;
} ntt_backend_ops;

extern const ntt_backend_ops ntt_scalar_ops;

/* Op `op` (forward, inverse, pointwise, polymul) of the ops table `ops`,
   the scalar backend's where the table leaves it NULL: the one place the
   fallback is written. */
#define NTT_OP(ops, op) ((ops)->op ? (ops)->op : ntt_scalar_ops.op)

/* A set of CRT primes for ntt_polymul_mod: count primes of one bit length
   in descending order, each with 2^30 | q-1, and the time one product
   takes on them relative to the backend's other sets (cost).  polymul_mod.c
   multiplies over the set whose primes, as many as the product needs,
   cost least.  The sets are in crt_sets.c; the registry says which
   backend's kernels like which (ntt_backend_crt_sets, registry.h). */
typedef struct {
    const uint64_t *q;
    size_t count;
    unsigned cost;
} ntt_crt_set;

/* The other backends' tables, which the registry lists (registry.c).
   Declared here too for the C++ file that defines the CUDA one: a const
   object there has external linkage only after an extern declaration. */
#ifdef NTT_HAVE_AVX2
extern const ntt_backend_ops ntt_avx2_ops;
#endif
#ifdef NTT_HAVE_AVX512
extern const ntt_backend_ops ntt_avx512_ops;
#endif
#ifdef NTT_HAVE_OPENMP
extern const ntt_backend_ops ntt_openmp_ops;
#endif
#ifdef NTT_HAVE_CUDA
extern const ntt_backend_ops ntt_cuda_ops;
ntt_status ntt_cuda_get_info_impl(ntt_cuda_info *info);
#endif

/* plan.c: the execution seam.  The transforms of count items (stride
   apart) in place, as ntt_forward_batch_* / ntt_inverse_batch_* run them
   after their checks, with no checks at all: for the library's own callers
   (the RNS stages) whose arguments are right by construction and whose
   values are residues they made or checked. */
ntt_status ntt_exec_transform(ntt_plan *plan, void *a, size_t count, size_t stride, bool inverse);

/* registry.c (registry.h): the ops table of backend b, NULL where b is not
   built into this library. */
const ntt_backend_ops *ntt_backend_lookup(ntt_backend b);

/* tables.c: builds plan->mod[i] for modulus p.  Returns NTT_EMODULUS when p
   is unusable for this size/width/flags. */
ntt_status ntt_modulus_init(ntt_modulus *m, uint64_t p, size_t n, ntt_width width,
                            unsigned flags);
void ntt_modulus_free(ntt_modulus *m);
/* The root of order N (a power of two, N | p-1) that plans of the prime p
   use: z^((p-1)/N), z the smallest quadratic non-residue; 0 if none. */
uint64_t ntt_root_of_order(uint64_t p, uint64_t N);

/* io.c: writes a file as ntt_coeffs_write does (under a temporary name
   beside it, renamed over path when complete; devices and FIFOs in place;
   links followed), its contents from emit (NTT_OK, or NTT_EIO with errno
   set).  err may be NULL.  Errors: NTT_EIO, NTT_ENOMEM. */
typedef ntt_status (*ntt_emit_fn)(FILE *f, const void *arg);
ntt_status ntt_write_atomic(const char *path, ntt_emit_fn emit, const void *arg,
                            ntt_io_error *err);

/* prime.c */
bool ntt_prime_u64(uint64_t n);

/* Helpers shared by the CPU backends. */
unsigned ntt_log2(size_t n);             /* n a power of two */
size_t ntt_bitrev(size_t x, unsigned bits);
/* range.c: 1 if some a[i] >= p, on one thread (the widest vector form
   this CPU has, else the portable code, which is exposed for the
   tests). */
bool ntt_any_geq_u32(const uint32_t *a, size_t len, uint32_t p);
bool ntt_any_geq_u64(const uint64_t *a, size_t len, uint64_t p);
bool ntt_any_geq_portable_u32(const uint32_t *a, size_t len, uint32_t p);
bool ntt_any_geq_portable_u64(const uint64_t *a, size_t len, uint64_t p);
/* range.c: whether any of the first len coefficients of count items
   (stride apart, plan->width wide) is >= its item's modulus. */
bool ntt_out_of_range(const ntt_plan *plan, const void *a, size_t len, size_t count, size_t stride);
/* The same for a (la coefficients per item) or b (lb). */
bool ntt_operands_out_of_range(const ntt_plan *plan, const void *a, size_t la, const void *b,
                               size_t lb, size_t count, size_t stride);

#endif /* NTT_INTERNAL_H */
