/* FLINT's fmpz_mod_poly_mul behind bigmod_ref.h. */
#include "bigmod_ref.h"

#include <flint/flint.h>
#include <flint/fmpz.h>
#include <flint/fmpz_mod.h>
#include <flint/fmpz_mod_poly.h>

#include <stdlib.h>
#include <string.h>

struct bigmod_ref_job {
    fmpz_mod_ctx_t ctx;
    fmpz_mod_poly_t a, b, c;
    size_t w, lc;
};

static void to_poly(fmpz_mod_poly_t p, const uint64_t *x, size_t len, size_t w,
                    const fmpz_mod_ctx_t ctx)
{
    fmpz_t v;
    fmpz_init(v);
    fmpz_mod_poly_init2(p, (slong)len, ctx);
    for (size_t i = 0; i < len; i++) {
        fmpz_set_ui_array(v, (const ulong *)(x + i * w), (slong)w);
        fmpz_mod_poly_set_coeff_fmpz(p, (slong)i, v, ctx);
    }
    fmpz_clear(v);
}

static bigmod_ref_job *prepare(const uint64_t *m, size_t w, const uint64_t *a, size_t la,
                               const uint64_t *b, size_t lb)
{
    bigmod_ref_job *j = malloc(sizeof *j);
    if (!j) return NULL;
    fmpz_t M;
    fmpz_init(M);
    fmpz_set_ui_array(M, (const ulong *)m, (slong)w);
    fmpz_mod_ctx_init(j->ctx, M);
    fmpz_clear(M);
    to_poly(j->a, a, la, w, j->ctx);
    to_poly(j->b, b, lb, w, j->ctx);
    fmpz_mod_poly_init(j->c, j->ctx);
    j->w = w;
    j->lc = la + lb - 1;
    return j;
}

static void run(bigmod_ref_job *j) { fmpz_mod_poly_mul(j->c, j->a, j->b, j->ctx); }

static void result(bigmod_ref_job *j, uint64_t *c)
{
    fmpz_t v;
    fmpz_init(v);
    for (size_t i = 0; i < j->lc; i++) {
        fmpz_mod_poly_get_coeff_fmpz(v, j->c, (slong)i, j->ctx);
        fmpz_get_ui_array((ulong *)(c + i * j->w), (slong)j->w, v);
    }
    fmpz_clear(v);
}

static void release(bigmod_ref_job *j)
{
    fmpz_mod_poly_clear(j->a, j->ctx);
    fmpz_mod_poly_clear(j->b, j->ctx);
    fmpz_mod_poly_clear(j->c, j->ctx);
    fmpz_mod_ctx_clear(j->ctx);
    free(j);
}

const bigmod_ref_ops bigmod_flint_ops = {"FLINT " FLINT_VERSION " fmpz_mod_poly_mul", prepare, run,
                                         result, release};
