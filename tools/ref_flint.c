/* FLINT's nmod_poly_mul behind the ref.h interface. */
#include "ref.h"

#include <flint/flint.h>
#include <flint/nmod_poly.h>
#include <stdlib.h>

struct ref_job {
    nmod_poly_t a, b, c;
    size_t lc;
};

const char *ref_flint_name(void) { return "FLINT " FLINT_VERSION " nmod_poly_mul"; }

ref_job *ref_flint_prepare(const uint64_t *a, size_t la, const uint64_t *b, size_t lb,
                           uint64_t p)
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

void ref_flint_run(ref_job *j) { nmod_poly_mul(j->c, j->a, j->b); }

void ref_flint_result(ref_job *j, uint64_t *c)
{
    /* Trailing zero coefficients are not stored by FLINT. */
    for (size_t i = 0; i < j->lc; i++) c[i] = nmod_poly_get_coeff_ui(j->c, (slong)i);
}

void ref_flint_free(ref_job *j)
{
    if (!j) return;
    nmod_poly_clear(j->a);
    nmod_poly_clear(j->b);
    nmod_poly_clear(j->c);
    free(j);
}
