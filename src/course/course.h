/*
 * The course reports' ladder as an add-on to libntt: the algorithm variants
 * other than the library's fast path, kept so that ntt-bench and
 * `ntt mul --variant` can reproduce the reports' tables.  An internal static
 * library (ntt_course, not installed) that the command, the benchmark and
 * the tests link beside libntt (shared or static).  Production plans carry
 * no variant: every variant other than FAST makes an add-on plan
 * (src/core/addon.h) running this module's code, BASELINE on a CPU backend
 * (baseline.c) or the GPU ladder on CUDA (ladder_gpu.cu, built where CUDA
 * is).  Every variant's plan is an ordinary ntt_plan: the public calls run
 * it (the device-pointer ntt_cuda_* calls too, on a GPU ladder plan) and
 * ntt_plan_destroy frees it.
 */
#ifndef NTT_COURSE_H
#define NTT_COURSE_H

#include "ntt.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Every variant gives the same results.  FAST is the library's fast path;
   the others are the course's add-ons: BASELINE on a CPU backend, and on
   CUDA BASELINE and the GPU_* variants; other combinations give
   NTT_EUNSUPPORTED. */
typedef enum ntt_variant {
    NTT_VARIANT_FAST = 0,       /* the library's fast path */
    NTT_VARIANT_BASELINE = 1,   /* the reports' design: bit-reversal pass, then
                                   radix-2 Cooley-Tukey stages with twiddles
                                   computed by powers as they go */
    NTT_VARIANT_GPU_TABLE = 2,  /* GPU ladder: one launch per stage,
                                   precomputed twiddles, host sync per stage */
    NTT_VARIANT_GPU_ASYNC = 3,  /* ... without the per-stage host sync */
    NTT_VARIANT_GPU_SHARED = 4  /* ... plus a shared-memory kernel for the
                                   small stages (the reports' best) */
} ntt_variant;
#define NTT_VARIANT_COUNT 5

/* What a variant's plan runs: the variant and, for the GPU ladder, the
   threads per block of its stage kernels (a power of two in [32, 1024]; 0
   means 128).  NULL means {NTT_VARIANT_FAST, 0}. */
typedef struct ntt_variant_options {
    ntt_variant variant;
    int cuda_block;
} ntt_variant_options;

/* "fast", "baseline", "gpu-table", "gpu-async", "gpu-shared"; "unknown"
   for other values. */
const char *ntt_variant_name(ntt_variant v);
/* Case-insensitive; NTT_EINVAL (and *v untouched) for an unknown name or
   NULL arguments. */
NTT_NODISCARD ntt_status ntt_variant_from_name(const char *name, ntt_variant *v);

/* ntt_plan_create_rns with a variant (vopts NULL: {NTT_VARIANT_FAST, 0}).
   FAST makes the library's own plan; BASELINE on a CPU backend (AUTO
   included) the course's add-on plan (NTT_MODMUL_NAIVE or DEFAULT only);
   BASELINE on CUDA and the GPU_* variants the course's GPU ladder plan
   (every kind but Shoup for BASELINE; DEFAULT: Barrett), on the current
   device, with device memory, pinned buffers and a stream of its own;
   NTT_EUNSUPPORTED where this build has no CUDA.  Errors as
   ntt_plan_create_rns, and NTT_EINVAL for a variant or block size out of
   range, NTT_EUNSUPPORTED where the backend does not offer the variant with
   the plan's modmul.  *plan is NULL on failure. */
NTT_NODISCARD ntt_status ntt_plan_create_variant(ntt_plan **plan, size_t n,
                                                 const uint64_t *moduli, size_t count,
                                                 ntt_width width, ntt_backend backend,
                                                 const ntt_plan_options *opts,
                                                 const ntt_variant_options *vopts);

/* The variant a plan runs (NTT_VARIANT_FAST for NULL). */
ntt_variant ntt_plan_variant(const ntt_plan *plan);

/* ntt_polymul_mod_ex whose transforms run the variant v: the same checks
   and errors, NTT_EINVAL for v out of range, NTT_EUNSUPPORTED where the
   backend does not offer v with opts' modmul (decided after the range check
   of the inputs, as ntt_polymul_mod_ex decides a backend's). */
NTT_NODISCARD ntt_status ntt_polymul_mod_variant(uint64_t *c, const uint64_t *a, size_t la,
                                                 const uint64_t *b, size_t lb, uint64_t p,
                                                 ntt_backend backend,
                                                 const ntt_plan_options *opts, ntt_variant v);

#ifdef __cplusplus
}
#endif

#endif
