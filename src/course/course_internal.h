/* What the course module's files share.  Not for its callers (course.h). */
#ifndef NTT_COURSE_INTERNAL_H
#define NTT_COURSE_INTERNAL_H

#include "addon.h"
#include "../arith/modarith.h"
#include "course.h"

/* baseline.c: the reports' CPU design. */
extern const ntt_addon_ops ntt_course_baseline_ops;

#endif
