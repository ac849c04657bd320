/* FLINT's nmod_poly_mul behind the ref.h interface. */
#include "ref.h"

#include <flint/flint.h>
#include <flint/nmod_poly.h>
#include <stdlib.h>

struct ref_job {
    nmod_poly_t a, b, c;
    size_t lc;
};

static ref_job *prepare(const uint64_t *a, size_t la, const uint64_t *b, size_t lb, uint64_t p)
{
    ref_job *j = malloc(sizeof *j);
    if (!j) return NULL;
    nmod_poly_init2(j->a, p, (slong)la);
    nmod_poly_init2(j->b, p, (slong)lb);
    nmod_poly_init2(j->c, p, (slong)(la + lb - 1));
    for (size_t i = 0; i < la; i++) nmod_poly_set_coeff_ui(j->a, (slong)i, a[i]);
    for (size_t i = 0; i < lb; i++) nmod_poly_set_coeff_ui(j->b, (slong)i, b[i]);
    j->lc = la + lb - 1;
    return j;
}

static void run(ref_job *j) { nmod_poly_mul(j->c, j->a, j->b); }

static void result(ref_job *j, uint64_t *c)
{
    /* Trailing zero coefficients are not stored by FLINT. */
    for (size_t i = 0; i < j->lc; i++) c[i] = nmod_poly_get_coeff_ui(j->c, (slong)i);
}

static void release(ref_job *j)
{
    nmod_poly_clear(j->a);
    nmod_poly_clear(j->b);
    nmod_poly_clear(j->c);
    free(j);
}

const ref_ops ref_flint_ops = {"FLINT " FLINT_VERSION " nmod_poly_mul", prepare, run, result, release};
