/* What the course module's files share.  Not for its callers (course.h). */
#ifndef NTT_COURSE_INTERNAL_H
#define NTT_COURSE_INTERNAL_H

#include "addon.h"
#include "../arith/modarith.h"
#include "course.h"

#ifdef __cplusplus
extern "C" {
#endif

/* baseline.c: the reports' CPU design. */
extern const ntt_addon_ops ntt_course_baseline_ops;

/* The reports' GPU designs on NTT_BACKEND_CUDA, one table per variant from
   BASELINE (index 0) to GPU_SHARED; their init takes the plan's
   ntt_variant_options as arg.  ladder_gpu.cu where CUDA is built
   (NTT_COURSE_CUDA), else course.c's, which run nowhere. */
extern const ntt_addon_ops ntt_course_gpu_ops[NTT_VARIANT_COUNT - 1];

#ifdef __cplusplus
}
#endif

#endif
