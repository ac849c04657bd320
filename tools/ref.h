/* Other libraries' polynomial products, for side-by-side benchmarks.
   Each implementation converts the inputs once into its own types, so that
   the timed call is that library's multiplication alone.  Not installed. */
#ifndef NTT_REF_H
#define NTT_REF_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct ref_job ref_job;

/* name: e.g. "FLINT 2.9.0 nmod_poly_mul"; NULL when the library is not
   built in or cannot take this modulus. */
const char *ref_flint_name(void);
ref_job *ref_flint_prepare(const uint64_t *a, size_t la, const uint64_t *b, size_t lb,
                           uint64_t p);
void ref_flint_run(ref_job *j);
void ref_flint_result(ref_job *j, uint64_t *c); /* la + lb - 1 coefficients */
void ref_flint_free(ref_job *j);

const char *ref_ntl_name(void);
/* NULL when p is beyond NTL's single-precision bound. */
ref_job *ref_ntl_prepare(const uint64_t *a, size_t la, const uint64_t *b, size_t lb,
                         uint64_t p);
void ref_ntl_run(ref_job *j);
void ref_ntl_result(ref_job *j, uint64_t *c);
void ref_ntl_free(ref_job *j);

#ifdef __cplusplus
}
#endif

#endif
