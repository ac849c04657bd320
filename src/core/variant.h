/*
 * The CUDA backend's part of the course ladder, until it moves to
 * src/course as an add-on of its own (addon.h): the GPU variants still run
 * inside the CUDA backend, picked by the plan's variant.  Not installed; the
 * course module (src/course/course.h) is the only caller, through the
 * functions below, which the shared library exports for it.
 */
#ifndef NTT_VARIANT_H
#define NTT_VARIANT_H

#include "ntt.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Every variant gives the same results.  FAST is the library's fast path;
   the CUDA backend runs BASELINE and the GPU_* variants (the CPU baseline is
   the course module's add-on); other combinations give NTT_EUNSUPPORTED. */
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

/* What a ladder plan runs: the variant and, for the GPU_* variants, the
   threads per block of their kernels (a power of two in [32, 1024]; 0 means
   128).  NULL means {NTT_VARIANT_FAST, 0}. */
typedef struct ntt_variant_options {
    ntt_variant variant;
    int cuda_block;
} ntt_variant_options;

/* ntt_plan_create_rns with a variant.  Errors as ntt_plan_create_rns, and
   NTT_EINVAL for a variant or block size out of range, NTT_EUNSUPPORTED
   where the backend does not offer the variant with the plan's modmul. */
NTT_API NTT_NODISCARD ntt_status ntt_plan_create_ladder(ntt_plan **plan, size_t n,
                                                        const uint64_t *moduli, size_t count,
                                                        ntt_width width, ntt_backend backend,
                                                        const ntt_plan_options *opts,
                                                        const ntt_variant_options *vopts);

/* The variant a plan runs (NTT_VARIANT_FAST for NULL and add-on plans). */
NTT_API ntt_variant ntt_plan_ladder(const ntt_plan *plan);

/* ntt_polymul_mod_ex whose transforms run the variant v. */
NTT_API NTT_NODISCARD ntt_status ntt_polymul_mod_ladder(uint64_t *c, const uint64_t *a, size_t la,
                                                        const uint64_t *b, size_t lb, uint64_t p,
                                                        ntt_backend backend,
                                                        const ntt_plan_options *opts,
                                                        ntt_variant v);

#ifdef __cplusplus
}
#endif

#endif
