/* ntt_error_detail(): one bounded thread-local text per thread, written
   only when a call fails (detail.h says which calls set it). */
#include "detail.h"
#include "internal.h"

#include <stdarg.h>
#include <stdio.h>

/* Long enough for two 20-digit numbers and a sentence; longer texts are
   cut, never overrun. */
static _Thread_local char detail[256];

const char *ntt_error_detail(void) { return detail; }

void ntt_detail_clear(void) { detail[0] = '\0'; }

ntt_status ntt_fail(ntt_status s, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(detail, sizeof detail, fmt, ap);
    va_end(ap);
    return s;
}

ntt_status ntt_fail_range(const ntt_plan *plan, const char *name, const void *a, size_t len,
                          size_t count, size_t stride)
{
    for (size_t i = 0; i < count; i++) {
        const uint64_t p = plan->mod[i % plan->nmod].p;
        for (size_t j = 0; j < len; j++) {
            const size_t k = i * stride + j;
            const uint64_t v = plan->width == NTT_U32 ? ((const uint32_t *)a)[k]
                                                      : ((const uint64_t *)a)[k];
            if (v < p) continue;
            if (count == 1)
                return ntt_fail(NTT_ERANGE, "%s[%zu] = %llu is not below the modulus %llu", name,
                                j, (unsigned long long)v, (unsigned long long)p);
            return ntt_fail(NTT_ERANGE,
                            "%s[%zu] (item %zu, coefficient %zu) = %llu is not below its modulus "
                            "%llu", name, k, i, j, (unsigned long long)v, (unsigned long long)p);
        }
    }
    return ntt_fail(NTT_ERANGE, "an input coefficient is not below its modulus");
}

static bool any_out_of_range(const ntt_plan *plan, const void *a, size_t len, size_t count,
                             size_t stride)
{
    return a && len > 0 && ntt_out_of_range(plan, a, len, count, stride);
}

ntt_status ntt_fail_operands_range(const ntt_plan *plan, const void *a, size_t la, const void *b,
                                   size_t lb, size_t count, size_t stride)
{
    if (any_out_of_range(plan, a, la, count, stride))
        return ntt_fail_range(plan, "a", a, la, count, stride);
    return ntt_fail_range(plan, "b", b, lb, count, stride);
}

ntt_status ntt_detail_operands(ntt_status s, const ntt_plan *plan, const void *a, size_t la,
                               const void *b, size_t lb, size_t count, size_t stride)
{
    if (s == NTT_ERANGE) ntt_fail_operands_range(plan, a, la, b, lb, count, stride);
    return s;
}

ntt_status ntt_fail_geq(const uint64_t *a, size_t la, const uint64_t *b, size_t lb, uint64_t p)
{
    for (size_t i = 0; i < la + lb; i++) {
        const uint64_t v = i < la ? a[i] : b[i - la];
        if (v >= p)
            return ntt_fail(NTT_ERANGE, "%s[%zu] = %llu is not below the modulus %llu",
                            i < la ? "a" : "b", i < la ? i : i - la, (unsigned long long)v,
                            (unsigned long long)p);
    }
    return ntt_fail(NTT_ERANGE, "an input coefficient is not below the modulus %llu",
                    (unsigned long long)p);
}

ntt_status ntt_detail_geq(ntt_status s, const uint64_t *a, size_t la, const uint64_t *b,
                          size_t lb, uint64_t p)
{
    if (s == NTT_ERANGE) ntt_fail_geq(a, la, b, lb, p);
    return s;
}
