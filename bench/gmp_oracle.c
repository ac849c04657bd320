/* Exact products through GMP (gmp_oracle.h). */
#include "gmp_oracle.h"

#include <gmp.h>
#include <stdlib.h>

/* Each coefficient occupies `w` whole limbs, enough for every coefficient of
   the exact product: min(la,lb) (p-1)^2 < 2^(64w). */
static size_t limbs_per_coeff(size_t la, size_t lb, uint64_t p)
{
    size_t l = la < lb ? la : lb, bits = 1;
    while (((size_t)1 << bits) <= l && bits < 63) bits++;
    uint64_t q = p - 1;
    unsigned pb = 0;
    while (pb < 64 && (q >> pb) != 0) pb++;
    bits += 2 * pb + 1;
    return (bits + 63) / 64;
}

int oracle_polymul(uint64_t *c, const uint64_t *a, size_t la, const uint64_t *b, size_t lb,
                   uint64_t p)
{
    const size_t w = limbs_per_coeff(la, lb, p), lc = la + lb - 1;
    mp_limb_t *pa = calloc(la * w, sizeof *pa), *pb = calloc(lb * w, sizeof *pb);
    mp_limb_t *pc = calloc((la + lb) * w, sizeof *pc);
    if (!pa || !pb || !pc) {
        free(pa);
        free(pb);
        free(pc);
        return -1;
    }
    for (size_t i = 0; i < la; i++) pa[i * w] = a[i];
    for (size_t i = 0; i < lb; i++) pb[i * w] = b[i];
    /* Trim high zero limbs: mpn_mul needs nonzero top limbs only for speed,
       but requires the first operand to be at least as long. */
    size_t na = la * w, nb = lb * w;
    while (na > 1 && pa[na - 1] == 0) na--;
    while (nb > 1 && pb[nb - 1] == 0) nb--;
    if (na >= nb)
        mpn_mul(pc, pa, (mp_size_t)na, pb, (mp_size_t)nb);
    else
        mpn_mul(pc, pb, (mp_size_t)nb, pa, (mp_size_t)na);
    for (size_t i = 0; i < lc; i++) c[i] = mpn_mod_1(pc + i * w, (mp_size_t)w, p);
    free(pa);
    free(pb);
    free(pc);
    return 0;
}
