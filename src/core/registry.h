/* The backend registry (registry.c): the one table of backends, with
   their ops, AUTO priority, kernels and CRT prime sets, and every choice
   among them.  No other file orders the backends.  Not installed. */
#ifndef NTT_REGISTRY_H
#define NTT_REGISTRY_H

#include "crt.h"
#include "internal.h"

/* src/cpu/cpu.h: a CPU backend's kernels for a modulus, chosen by its size
   (and the plan's modmul kind); each serial backend's file defines its
   own, which cpu.h declares.  The registry reaches the CPU backends through
   their ops tables and kernel choices only; the threaded driver
   (src/cpu/openmp.c) gets its kernels and thread count from core through
   the plan (ntt_plan.cpu_kernels, .run_threads), so it does not call back
   into the registry. */
struct ntt_cpu_kernel_choice;

/* One row of the table. */
typedef struct ntt_backend_entry {
    ntt_backend id;
    const ntt_backend_ops *ops;
    /* AUTO takes the available row with the highest; 0: never by AUTO. */
    unsigned auto_priority;
    /* A serial CPU backend: its kernels, which the threaded driver runs
       too (plan option threads > 1).  NULL for the others. */
    const struct ntt_cpu_kernel_choice *kernels;
    /* The CRT prime sets its kernels multiply fastest on (crt_sets.c);
       NULL: ntt_crt_primes alone. */
    size_t (*crt_sets)(const ntt_crt_set **sets);
    /* The kernels of the CRT around those products for a set (crt.h),
       NULL: the scalar ones. */
    ntt_crt_kernels (*crt_kernels)(const ntt_garner *g);
    /* OPENMP: no kernels of its own; it runs the best serial CPU row's
       (ntt_backend_best_cpu) on several threads. */
    bool threads_best_cpu;
} ntt_backend_entry;

/* The row of b, NULL where b is not built into this library (or not a
   backend: AUTO, out of range). */
const ntt_backend_entry *ntt_backend_entry_of(ntt_backend b);

/* The ops table of b as the table lists it, NULL as ntt_backend_entry_of.
   Its NULL entries stand for the scalar backend's (NTT_OP). */
const ntt_backend_ops *ntt_backend_lookup(ntt_backend b);

/* ntt_backend_best_cpu: declared in ntt_internal.h (the benchmarks use it). */

/* NTT_EUNSUPPORTED for ntt_polymul_mod, its detail saying whether backend
   b is unusable (ntt_fail_backend, declared in ntt_internal.h) or lacks
   the modmul m; addon, the add-on's name when one was asked for: it does
   not run there with m. */
ntt_status ntt_fail_unsupported(ntt_backend b, ntt_modmul m, const char *addon);

/* *b resolved where it is AUTO (ntt_backend_resolve_auto): NTT_OK, or
   NTT_EINVAL with the detail text (ntt_error_detail) where NTT_BACKEND
   names no backend.  Every call that takes AUTO resolves it here. */
ntt_status ntt_backend_resolve(ntt_backend *b);

/* The serial CPU backend whose kernels a plan of b runs: b itself for a
   serial CPU backend, ntt_backend_best_cpu() for OPENMP; AUTO for the
   others (CUDA) and for b not built. */
ntt_backend ntt_backend_kernels_of(ntt_backend b);

/* The kernels of ntt_backend_kernels_of(b); NULL where that is AUTO. */
const struct ntt_cpu_kernel_choice *ntt_backend_kernels(ntt_backend b);

/* The ops table a plan of b with the option `threads` (>= 0) runs: the
   threaded driver for OPENMP, and for a serial CPU backend when threads
   > 1 and the library has OpenMP; b's own table otherwise (threads 0 or
   1 on a serial backend is one thread).  NULL where b is not built. */
const ntt_backend_ops *ntt_backend_exec_ops(ntt_backend b, int threads);

/* How many threads a plan of b with the option `threads` runs on: the
   option, or for OPENMP with threads 0 ntt_pool_default_threads()
   (omp_get_max_threads()); 1 where
   ntt_backend_exec_ops gives b's own table. */
int ntt_backend_thread_count(ntt_backend b, int threads);

/* The CRT prime sets of ntt_polymul_mod on b: those of the kernels it
   runs (ntt_backend_kernels_of), else ntt_crt_primes alone.  Returns how
   many, at least 1, each of at most NTT_CRT_SET_MAX primes. */
size_t ntt_backend_crt_sets(ntt_backend b, const ntt_crt_set **sets);

/* The CRT kernels of ntt_polymul_mod on b for the set of g: those of the
   row whose kernels it runs (ntt_backend_kernels_of), else the scalar
   ones. */
ntt_crt_kernels ntt_backend_crt_kernels(ntt_backend b, const ntt_garner *g);

/* ---- for the planner (planner.c) ---------------------------------------- */

/* Whether a plan asked for AUTO leaves the choice of CPU backend to the
   planner: NTT_BACKEND unset, empty or "auto" (a backend it names is kept
   as if asked for by name). */
bool ntt_backend_auto_free(void);

/* The backends the planner may run a plan asked for `asked` (resolved,
   never AUTO) on, `asked` first: with auto_free every available serial
   CPU row, in the table's order; else `asked` alone.  Returns how many
   (at most NTT_BACKEND_COUNT). */
size_t ntt_backend_plan_rows(ntt_backend asked, bool auto_free, ntt_backend *out);

/* Whether plans of b have CPU kernels whose family and thread count the
   planner may vary (the serial CPU rows and OPENMP). */
bool ntt_backend_is_cpu(ntt_backend b);

/* The kernel table modulus m of a plan of b would run (plan: n, width,
   modmul as the plan would resolve it, k64; m: p), without building one,
   and its family's name in *name ("scalar", "u32x8", "ifma", ...); NULL
   (and *name "cuda" or "") where b has no CPU kernels.  Two candidates
   whose moduli get the same tables, kind and thread count are the same
   work. */
const void *ntt_backend_kernels_for(ntt_backend b, const ntt_plan *plan, const ntt_modulus *m,
                                    const char **name);

/* Every CRT set of every row, the default set too (the planner times
   each), at most cap of them; returns how many. */
size_t ntt_crt_sets_all(const ntt_crt_set **sets, size_t cap);

/* crt_sets.c: the sets of the rows.  The x86 ones: the FP64 kernels'
   (AVX2, and AVX-512 without IFMA), and the AVX-512 row's, which are the
   IFMA kernels' where those run (ntt_cpu_ifma_enabled and the CPU). */
size_t ntt_crt_sets_default(const ntt_crt_set **sets);
size_t ntt_crt_sets_fp64(const ntt_crt_set **sets);
size_t ntt_crt_sets_avx512(const ntt_crt_set **sets);
/* The AVX-512 row's CRT kernels: its IFMA Garner where the IFMA kernels
   run and the set is below 2^52, else its 64-bit lanes'. */
ntt_crt_kernels ntt_crt_kernels_avx512(const ntt_garner *g);
#define NTT_CRT_SET_MAX 4

#endif /* NTT_REGISTRY_H */
