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

/* The libraries, for the dispatching calls below (ref.c), which callers
   use: a library the build did not find has no name (NULL) and prepares
   no job; run, result and free take the lib the job was prepared for. */
typedef enum { REF_FLINT, REF_NTL, REF_COUNT } ref_lib;
const char *ref_name(ref_lib lib);
/* NULL when the library is not built in or cannot take p. */
ref_job *ref_prepare(ref_lib lib, const uint64_t *a, size_t la, const uint64_t *b, size_t lb,
                     uint64_t p);
/* Why ref_prepare gave NULL for a built-in library, for a row's note. */
const char *ref_unprepared(ref_lib lib);
void ref_run(ref_lib lib, ref_job *j);
void ref_result(ref_lib lib, ref_job *j, uint64_t *c); /* la + lb - 1 coefficients */
void ref_free(ref_lib lib, ref_job *j);                /* j may be NULL */

/* Each library's own calls (ref_flint.c, ref_ntl.cpp), built when found. */

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
