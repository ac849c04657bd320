/* The anchors of `ntt-bench bigmod` (bigmod.c): products mod a big M by
   another library, each behind the same four calls; a file per library,
   built where the library is found (bench/CMakeLists.txt). */
#ifndef NTT_BENCH_BIGMOD_REF_H
#define NTT_BENCH_BIGMOD_REF_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct bigmod_ref_job bigmod_ref_job;

typedef struct {
    const char *name; /* e.g. "FLINT 2.9.0 fmpz_mod_poly_mul" */
    /* The operands (words-word coefficients below M) in the library's
       form, untimed; NULL where it cannot. */
    bigmod_ref_job *(*prepare)(const uint64_t *m, size_t words, const uint64_t *a, size_t la,
                               const uint64_t *b, size_t lb);
    void (*run)(bigmod_ref_job *j); /* the timed product */
    /* The product's la + lb - 1 coefficients, words words each. */
    void (*result)(bigmod_ref_job *j, uint64_t *c);
    void (*release)(bigmod_ref_job *j);
} bigmod_ref_ops;

#ifdef NTT_HAVE_FLINT
extern const bigmod_ref_ops bigmod_flint_ops; /* bigmod_flint.c */
#endif
#ifdef NTT_HAVE_NTL
extern const bigmod_ref_ops bigmod_ntl_ops; /* bigmod_ntl.cpp */
#endif

#ifdef __cplusplus
}
#endif

#endif
