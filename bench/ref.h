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

/* Each library's calls (ref_flint.c, ref_ntl.cpp), built when found. */
typedef struct {
    const char *name; /* e.g. "FLINT 2.9.0 nmod_poly_mul" */
    /* NULL when the library cannot take p. */
    ref_job *(*prepare)(const uint64_t *a, size_t la, const uint64_t *b, size_t lb, uint64_t p);
    void (*run)(ref_job *j);
    void (*result)(ref_job *j, uint64_t *c);
    void (*free)(ref_job *j); /* j not NULL */
} ref_ops;
extern const ref_ops ref_flint_ops, ref_ntl_ops;

#ifdef __cplusplus
}
#endif

#endif
