/*
 * tour: the README's tour of the API as a whole program: a product modulo
 * any p, a negacyclic plan's forward, pointwise and inverse calls (and the
 * product in one call), an RNS plan over 40 primes, and the error detail.
 * Each result is checked; exit 0 when all are right.
 *
 *   cc examples/tour.c $(pkg-config --cflags --libs ntt) -o tour && ./tour
 */
#include <ntt.h>

#include <stdio.h>
#include <stdlib.h>

#define N (1 << 16)

static int fail(const char *what, ntt_status s)
{
    fprintf(stderr, "%s: %s (%s)\n", what, ntt_status_string(s), ntt_error_detail());
    return 1;
}

static int wrong(const char *what)
{
    fprintf(stderr, "wrong result: %s\n", what);
    return 1;
}

int main(void)
{
    /* Any modulus p in [2, 2^63): NTT primes go direct, others through CRT. */
    const uint64_t a[4] = {4, 1, 5, 2}, b[4] = {1, 5, 5, 4};
    uint64_t c[7];
    ntt_status s = ntt_polymul_mod(c, a, 4, b, 4, 7340033, NTT_BACKEND_AUTO);
    if (s != NTT_OK) return fail("ntt_polymul_mod", s);
    printf("c = %llu %llu %llu %llu %llu %llu %llu\n", (unsigned long long)c[0],
           (unsigned long long)c[1], (unsigned long long)c[2], (unsigned long long)c[3],
           (unsigned long long)c[4], (unsigned long long)c[5], (unsigned long long)c[6]);
    const uint64_t want[7] = {4, 21, 30, 48, 39, 30, 8};
    for (int i = 0; i < 7; i++)
        if (c[i] != want[i]) return wrong("ntt_polymul_mod: wrong product");

    /* Plans, FFTW style: tables built once, nothing allocated when executing. */
    ntt_plan *plan;
    ntt_plan_options o = {.flags = NTT_FLAG_NEGACYCLIC};
    s = ntt_plan_create(&plan, N, 998244353, NTT_U32, NTT_BACKEND_AUTO, &o);
    if (s != NTT_OK) return fail("ntt_plan_create", s);
    uint32_t *x = calloc(N, 4), *y = calloc(N, 4), *z = calloc(N, 4);
    if (!x || !y || !z) return wrong("out of memory");
    x[N - 1] = 1; /* x^(N-1) */
    y[1] = 1;     /* x: x^(N-1) * x = x^N = -1 mod x^N + 1 */
    if ((s = ntt_forward_u32(plan, x)) != NTT_OK ||  /* natural order in, bit-reversed out */
        (s = ntt_forward_u32(plan, y)) != NTT_OK ||
        (s = ntt_pointwise_u32(plan, z, x, y)) != NTT_OK || /* z may alias x or y exactly */
        (s = ntt_inverse_u32(plan, z)) != NTT_OK) /* bit-reversed in, natural out, 1/n included */
        return fail("forward, pointwise, inverse", s);
    for (size_t i = 0; i < N; i++)
        if (z[i] != (i == 0 ? 998244353 - 1 : 0)) return wrong("x^(N-1) * x != -1");
    if ((s = ntt_inverse_u32(plan, x)) != NTT_OK || (s = ntt_inverse_u32(plan, y)) != NTT_OK)
        return fail("inverse", s);
    s = ntt_polymul_u32(plan, z, x, y); /* all three in one call: z = x*y mod x^N + 1 */
    if (s != NTT_OK) return fail("ntt_polymul_u32", s);
    if (z[0] != 998244353 - 1) return wrong("ntt_polymul_u32: x^(N-1) * x != -1");
    printf("x^%d * x = -1 mod x^%d + 1: ok\n", N - 1, N);
    ntt_plan_destroy(plan);
    free(x), free(y), free(z);

    /* RNS: one prime per limb; item i of a batch uses moduli[i % count]. */
    uint64_t q[40];
    for (unsigned i = 0; i < 40; i++)
        if ((s = ntt_find_prime(62, 17, i, &q[i])) != NTT_OK) return fail("ntt_find_prime", s);
    s = ntt_plan_create_rns(&plan, N, q, 40, NTT_U64, NTT_BACKEND_AUTO, &o);
    if (s != NTT_OK) return fail("ntt_plan_create_rns", s);
    uint64_t *limbs = calloc((size_t)40 * N, 8);
    if (!limbs) return wrong("out of memory");
    for (size_t k = 0; k < 40; k++) limbs[k * N] = k; /* limb k: the constant k */
    s = ntt_forward_batch_u64(plan, limbs, 40, N); /* count, stride */
    if (s != NTT_OK) return fail("ntt_forward_batch_u64", s);
    /* The transform of a constant is that constant at every point. */
    for (size_t k = 0; k < 40; k++)
        if (limbs[k * N + N / 2] != k) return wrong("forward of a constant");
    printf("40 limbs of 2^16 coefficients, one 62-bit prime each: ok\n");
    ntt_plan_destroy(plan);
    free(limbs);

    /* Errors: a status, and the detail of the condition that failed. */
    s = ntt_plan_create(&plan, N, 100, NTT_U64, NTT_BACKEND_AUTO, NULL);
    printf("p = 100: %s: %s\n", ntt_status_string(s), ntt_error_detail());
    return s == NTT_EMODULUS ? 0 : 1;
}
