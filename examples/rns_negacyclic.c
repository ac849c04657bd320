/*
 * rns_negacyclic: products in Z_Q[x]/(x^n + 1) with Q a product of word-size
 * primes, as lattice and FHE code computes them: each polynomial is stored
 * as one "limb" per prime (its coefficients mod that prime), and one
 * negacyclic RNS plan transforms all limbs of a polynomial in one batched
 * call.
 *
 *   cc rns_negacyclic.c $(pkg-config --cflags --libs ntt) -o rns_negacyclic
 *   ./rns_negacyclic     # exits 0 when every limb matches the reference
 */
#include <ntt.h>

#include <stdio.h>
#include <stdlib.h>

enum { LOG_N = 9, N = 1 << LOG_N, LIMBS = 4 };

static uint64_t next_random(uint64_t *state)
{
    *state ^= *state << 13;
    *state ^= *state >> 7;
    *state ^= *state << 17;
    return *state;
}

/* a * b mod q for q < 2^62 in portable C: shift and add. */
static uint64_t mulmod(uint64_t a, uint64_t b, uint64_t q)
{
    uint64_t r = 0;
    for (; b; b >>= 1) {
        if (b & 1) r = r + a >= q ? r + a - q : r + a;
        a = a + a >= q ? a + a - q : a + a;
    }
    return r;
}

/* The reference for one limb: c = a * b mod (x^n + 1, q), where x^n = -1
   folds the upper half of the product back with a minus sign. */
static void negacyclic_schoolbook(uint64_t *c, const uint64_t *a, const uint64_t *b, uint64_t q)
{
    for (size_t k = 0; k < N; k++) c[k] = 0;
    for (size_t i = 0; i < N; i++)
        for (size_t j = 0; j < N; j++) {
            const uint64_t t = mulmod(a[i], b[j], q);
            const size_t k = (i + j) % N;
            if (i + j < N)
                c[k] = c[k] + t >= q ? c[k] + t - q : c[k] + t;
            else
                c[k] = c[k] >= t ? c[k] - t : c[k] + q - t;
        }
}

int main(void)
{
    /* LIMBS primes below 2^50 with 2n | q - 1, which a negacyclic transform
       of size n needs; index i gives the i-th largest such prime. */
    uint64_t q[LIMBS];
    for (unsigned i = 0; i < LIMBS; i++)
        if (ntt_find_prime(50, LOG_N + 1, i, &q[i]) != NTT_OK) return 1;

    /* One plan for all limbs: item i of a batch is reduced mod q[i % LIMBS]. */
    ntt_plan *plan;
    ntt_plan_options opts = {.flags = NTT_FLAG_NEGACYCLIC};
    ntt_status s = ntt_plan_create_rns(&plan, N, q, LIMBS, NTT_U64, NTT_BACKEND_AUTO, &opts);
    if (s != NTT_OK) {
        fprintf(stderr, "ntt_plan_create_rns: %s\n", ntt_status_string(s));
        return 1;
    }

    /* a, b: LIMBS limbs of N coefficients each, limb i at [i*N, (i+1)*N).
       The transforms work in place, so they run on copies fa, fb. */
    const size_t len = (size_t)LIMBS * N;
    uint64_t *a = malloc(len * sizeof *a), *b = malloc(len * sizeof *b);
    uint64_t *fa = malloc(len * sizeof *fa), *fb = malloc(len * sizeof *fb);
    uint64_t *c = malloc(len * sizeof *c), *ref = malloc(N * sizeof *ref);
    if (!a || !b || !fa || !fb || !c || !ref) {
        fprintf(stderr, "out of memory\n");
        return 1;
    }
    uint64_t state = 2463534242u;
    for (size_t i = 0; i < LIMBS; i++)
        for (size_t k = 0; k < N; k++) {
            fa[i * N + k] = a[i * N + k] = next_random(&state) % q[i];
            fb[i * N + k] = b[i * N + k] = next_random(&state) % q[i];
        }

    /* Forward both operands (all limbs at once: count LIMBS, stride N),
       multiply the spectra, transform back; the inverse includes 1/n. */
    if ((s = ntt_forward_batch_u64(plan, fa, LIMBS, N)) != NTT_OK ||
        (s = ntt_forward_batch_u64(plan, fb, LIMBS, N)) != NTT_OK ||
        (s = ntt_pointwise_batch_u64(plan, c, fa, fb, LIMBS, N)) != NTT_OK ||
        (s = ntt_inverse_batch_u64(plan, c, LIMBS, N)) != NTT_OK) {
        fprintf(stderr, "batched transform: %s\n", ntt_status_string(s));
        return 1;
    }

    int bad = 0;
    for (size_t i = 0; i < LIMBS; i++) {
        negacyclic_schoolbook(ref, a + i * N, b + i * N, q[i]);
        for (size_t k = 0; k < N && !bad; k++)
            if (c[i * N + k] != ref[k]) {
                fprintf(stderr, "limb %zu (q = %llu), coefficient %zu: %llu, expected %llu\n", i,
                        (unsigned long long)q[i], k, (unsigned long long)c[i * N + k],
                        (unsigned long long)ref[k]);
                bad = 1;
            }
    }
    if (!bad)
        printf("%d limbs of x^%d + 1 products, each prime below 2^50: all match the "
               "schoolbook product\n", LIMBS, N);
    ntt_plan_destroy(plan);
    free(a);
    free(b);
    free(fa);
    free(fb);
    free(c);
    free(ref);
    return bad;
}
