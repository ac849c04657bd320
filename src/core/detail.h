/* The detail text behind ntt_error_detail() (detail.c).  Not installed.

   Set only on failure paths, so that a call that succeeds costs nothing
   here: the calls that set a detail for every failure they return clear it
   when they start (plan creation, ntt_polymul_mod), or set one on each of
   their error returns (the plan execution calls).  Each setter returns
   its status, so that an error return stays one line:
       return ntt_fail(NTT_EINVAL, "n = %zu is not a power of two", n); */
#ifndef NTT_DETAIL_H
#define NTT_DETAIL_H

#include "ntt.h"
#include "../include/ntt_internal.h" /* ntt_fail, ntt_detail_clear, ntt_fail_backend */

#include <stdbool.h>
#include <stddef.h>

/* NTT_ERANGE naming the first coefficient of count items (stride apart,
   the first len of each, plan->width wide) not below its item's modulus;
   `name` is the operand's name in the call ("a", "b").  Called after a
   check found one. */
struct ntt_plan;
ntt_status ntt_fail_range(const struct ntt_plan *plan, const char *name, const void *a,
                          size_t len, size_t count, size_t stride);
/* The same for two operands: a (la per item), then b (lb). */
ntt_status ntt_fail_operands_range(const struct ntt_plan *plan, const void *a, size_t la,
                                   const void *b, size_t lb, size_t count, size_t stride);
/* s unchanged; where s is NTT_ERANGE, the detail names the first
   offending coefficient of a or b (for a backend that checked them
   itself). */
ntt_status ntt_detail_operands(ntt_status s, const struct ntt_plan *plan, const void *a,
                               size_t la, const void *b, size_t lb, size_t count, size_t stride);

/* ntt_polymul_mod's: NTT_ERANGE naming the first a[i] or b[i] >= p; s
   unchanged, with that detail where s is NTT_ERANGE.  (Its
   NTT_EUNSUPPORTED detail, ntt_fail_unsupported, is the registry's.) */
ntt_status ntt_fail_geq(const uint64_t *a, size_t la, const uint64_t *b, size_t lb, uint64_t p);
ntt_status ntt_detail_geq(ntt_status s, const uint64_t *a, size_t la, const uint64_t *b,
                          size_t lb, uint64_t p);

#endif /* NTT_DETAIL_H */
