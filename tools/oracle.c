/* Independent oracles for tests and verification: exact products through
   GMP (Kronecker substitution), and a seeded random number generator. */
#include "tool.h"

#include <gmp.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

double now_seconds(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

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

/* xoshiro256** seeded through splitmix64. */
static uint64_t splitmix(uint64_t *x)
{
    uint64_t z = (*x += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

void rng_seed(rng_t *r, uint64_t seed)
{
    for (int i = 0; i < 4; i++) r->s[i] = splitmix(&seed);
}

static uint64_t rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

uint64_t rng_next(rng_t *r)
{
    uint64_t *s = r->s;
    uint64_t res = rotl(s[1] * 5, 7) * 9, t = s[1] << 17;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = rotl(s[3], 45);
    return res;
}

uint64_t rng_below(rng_t *r, uint64_t bound)
{
    /* Rejection keeps it exactly uniform. */
    uint64_t lim = UINT64_MAX - UINT64_MAX % bound;
    uint64_t x;
    do x = rng_next(r);
    while (x >= lim);
    return x % bound;
}
