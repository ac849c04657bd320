/*
 * The course reports' ladder as an add-on to libntt: the algorithm variants
 * other than the library's fast path, kept so that ntt-bench and
 * `ntt mul --variant` can reproduce the reports' tables.  An internal static
 * library (ntt_course, not installed) that the command, the benchmark and
 * the tests link beside libntt (shared or static).  Production plans carry
 * no variant: a BASELINE plan on a CPU backend is an add-on plan
 * (src/core/addon.h) running this module's code; the GPU variants still
 * run inside the CUDA backend (src/core/variant.h) until they move here.
 * Every variant's plan is an ordinary ntt_plan: the public calls run it and
 * ntt_plan_destroy frees it.
 */
#ifndef NTT_COURSE_H
#define NTT_COURSE_H

#include "ntt.h"
#include "variant.h" /* ntt_variant, ntt_variant_options */

#ifdef __cplusplus
extern "C" {
#endif

/* "fast", "baseline", "gpu-table", "gpu-async", "gpu-shared"; "unknown"
   for other values. */
const char *ntt_variant_name(ntt_variant v);
/* Case-insensitive; NTT_EINVAL (and *v untouched) for an unknown name or
   NULL arguments. */
NTT_NODISCARD ntt_status ntt_variant_from_name(const char *name, ntt_variant *v);

/* ntt_plan_create_rns with a variant (vopts NULL: {NTT_VARIANT_FAST, 0}).
   FAST makes the library's own plan; BASELINE on a CPU backend (AUTO
   included) the course's add-on plan (NTT_MODMUL_NAIVE or DEFAULT only);
   BASELINE on CUDA and the GPU_* variants a CUDA ladder plan.  Errors as
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
