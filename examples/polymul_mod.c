/*
 * polymul_mod: multiply two polynomials modulo any p in [2, 2^63) with one
 * call, and check the result.
 *
 * ntt_polymul_mod chooses the route by itself: a prime with enough roots of
 * unity (998244353 = 119 * 2^23 + 1) is used directly, any other modulus
 * (10^9 + 7 below, or a composite) goes through the Chinese remainder
 * theorem over primes of the library's own.  Either way the result is
 * exact.  The program compares each product with the schoolbook one.
 *
 *   cc polymul_mod.c $(pkg-config --cflags --libs ntt) -o polymul_mod
 *   ./polymul_mod        # prints one line per modulus, exits 0 when all match
 */
#include <ntt.h>

#include <stdio.h>
#include <stdlib.h>

/* Any source of coefficients below p will do; this one is short. */
static uint64_t next_random(uint64_t *state)
{
    *state ^= *state << 13;
    *state ^= *state >> 7;
    *state ^= *state << 17;
    return *state;
}

/* The reference: c = a * b mod p term by term.  With p < 2^32 no product of
   two coefficients overflows 64 bits. */
static void schoolbook(uint64_t *c, const uint64_t *a, size_t la, const uint64_t *b, size_t lb,
                       uint64_t p)
{
    for (size_t k = 0; k < la + lb - 1; k++) c[k] = 0;
    for (size_t i = 0; i < la; i++)
        for (size_t j = 0; j < lb; j++) c[i + j] = (c[i + j] + a[i] * b[j] % p) % p;
}

/* Multiplies random a (la coefficients) and b (lb) mod p both ways; 0 when
   they agree. */
static int check_product(uint64_t p, size_t la, size_t lb)
{
    const size_t lc = la + lb - 1; /* the product's length */
    uint64_t *a = malloc(la * sizeof *a), *b = malloc(lb * sizeof *b);
    uint64_t *c = malloc(lc * sizeof *c), *ref = malloc(lc * sizeof *ref);
    int bad = 1;
    if (!a || !b || !c || !ref) {
        fprintf(stderr, "out of memory\n");
        goto done;
    }
    uint64_t state = 88172645463325252ull;
    for (size_t i = 0; i < la; i++) a[i] = next_random(&state) % p; /* inputs must be < p */
    for (size_t i = 0; i < lb; i++) b[i] = next_random(&state) % p;

    /* NTT_BACKEND_AUTO: the fastest backend this machine offers. */
    ntt_status s = ntt_polymul_mod(c, a, la, b, lb, p, NTT_BACKEND_AUTO);
    if (s != NTT_OK) {
        fprintf(stderr, "ntt_polymul_mod: %s\n", ntt_status_string(s));
        goto done;
    }
    schoolbook(ref, a, la, b, lb, p);
    for (size_t k = 0; k < lc; k++)
        if (c[k] != ref[k]) {
            fprintf(stderr, "p = %llu: coefficient %zu is %llu, expected %llu\n",
                    (unsigned long long)p, k, (unsigned long long)c[k],
                    (unsigned long long)ref[k]);
            goto done;
        }
    printf("p = %llu: %zu x %zu coefficients, the product matches the schoolbook one\n",
           (unsigned long long)p, la, lb);
    bad = 0;
done:
    free(a);
    free(b);
    free(c);
    free(ref);
    return bad;
}

int main(void)
{
    int bad = check_product(998244353, 1000, 700)   /* an NTT prime: direct */
              | check_product(1000000007, 1000, 700) /* not NTT-friendly: CRT */
              | check_product(4294967291u, 300, 300); /* 2^32 - 5 */
    /* ntt_polymul_mod keeps the plans it made for the next call of the same
       shape; this frees them. */
    ntt_cache_clear();
    return bad;
}
