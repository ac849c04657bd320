/*
 * ckks: the CKKS operations of ntt_ckks.h at N = 2^12 - key generation,
 * encryption, HMult with relinearisation and rescale, a rotation, hoisted
 * rotations, decryption.  The keys come from a seeded deterministic
 * generator: for examples, tests and timing, never for security.  There is
 * no encoder: the messages are integer polynomials scaled by Delta = 2^40,
 * and "rotation by k" is the automorphism X -> X^(5^k mod 2N) of the
 * polynomial, which the program checks coefficient by coefficient.
 *
 *   cc ckks.c $(pkg-config --cflags --libs ntt) -o ckks
 *   ./ckks     # exits 0 when every decryption rounds to the expected message
 */
#include <ntt_ckks.h>

#include <stdio.h>
#include <stdlib.h>

enum { N = 1 << 12, NQ = 3, NP = 1, DNUM = 3 };
#define DELTA ((uint64_t)1 << 40)

static int failures;

/* v should be Delta * expect + noise with |noise| < Delta / 2. */
static void expect_rounds_to(const char *what, const int64_t *v, const int64_t *expect)
{
    int64_t worst = 0;
    for (size_t i = 0; i < N; i++) {
        int64_t noise = v[i] - expect[i] * (int64_t)DELTA;
        if (noise < 0) noise = -noise;
        if (noise > worst) worst = noise;
    }
    int ok = worst < (int64_t)(DELTA / 2);
    printf("%-24s noise %lld (2^%d), %s\n", what, (long long)worst, 63 - __builtin_clzll((uint64_t)worst | 1),
           ok ? "ok" : "WRONG");
    failures += !ok;
}

int main(void)
{
    /* q_0: 60 bits (the last level's headroom), q_1, q_2 just below
       Delta, one 61-bit special prime; 2^13 | q - 1 for the negacyclic
       NTT of size 2^12. */
    uint64_t q[NQ], p[NP];
    if (ntt_find_prime(60, 13, 0, &q[0]) || ntt_find_prime(40, 13, 0, &q[1]) ||
        ntt_find_prime(40, 13, 1, &q[2]) || ntt_find_prime(61, 13, 0, &p[0]))
        return 1;
    ntt_rns_params pa = {.n = N, .q = q, .q_count = NQ, .p = p, .p_count = NP, .dnum = DNUM,
                         .backend = NTT_BACKEND_AUTO};
    ntt_rns *rns;
    ntt_ckks *ck;
    if (ntt_rns_create(&rns, &pa) || ntt_ckks_create(&ck, rns)) {
        fprintf(stderr, "context: %s\n", ntt_error_detail());
        return 1;
    }
    printf("N = %d, L+1 = %d, K = %d, dnum = %d, backend %s\n", N, NQ, NP, DNUM,
           ntt_backend_name(ntt_rns_backend(rns)));

    const size_t kl = ntt_ckks_key_limbs(ck);
    int8_t *s = malloc(N);
    uint64_t *rlk = malloc(kl * N * 8), *rot[2] = {malloc(kl * N * 8), malloc(kl * N * 8)};
    uint64_t g[2] = {ntt_ckks_galois_rot(ck, 1), ntt_ckks_galois_rot(ck, 2)};
    int64_t *m1 = malloc(N * 8), *m2 = malloc(N * 8), *v = malloc(N * 8);
    uint64_t *dec = malloc(NQ * N * 8);
    ntt_ckks_ct ct[6];
    for (int i = 0; i < 6; i++) ct[i] = (ntt_ckks_ct){malloc(NQ * N * 8), malloc(NQ * N * 8), N, 0, NQ};
    for (size_t i = 0; i < N; i++) {
        m1[i] = (int64_t)(i % 7) - 3;
        m2[i] = i < 4 ? (int64_t)i + 1 : 0; /* 1 + 2X + 3X^2 + 4X^3: a short product */
    }

    ntt_status st = ntt_ckks_secret_gen(ck, 2026, s, N);
    if (!st) st = ntt_ckks_keygen_relin(ck, s, N, 1, rlk, kl);
    for (int i = 0; i < 2 && !st; i++) st = ntt_ckks_keygen_galois(ck, s, N, g[i], 2 + i, rot[i], kl);
    if (!st) st = ntt_ckks_encrypt(ck, s, N, m1, DELTA, NQ - 1, 10, &ct[0]);
    if (!st) st = ntt_ckks_encrypt(ck, s, N, m2, DELTA, NQ - 1, 11, &ct[1]);
    /* HMult: tensor product, relinearisation, rescale by q_2 (about Delta) */
    if (!st) st = ntt_ckks_mul(ck, &ct[0], &ct[1], rlk, kl, 1, &ct[2]);
    /* rotation by 1 of the product, then two hoisted rotations of m1 */
    if (!st) st = ntt_ckks_rotate(ck, &ct[2], 1, rot[0], kl, &ct[3]);
    const uint64_t *const keys[2] = {rot[0], rot[1]};
    if (!st) st = ntt_ckks_rotate_hoisted(ck, &ct[0], g, 2, keys, kl, &ct[4]);
    if (st) {
        fprintf(stderr, "%s: %s\n", ntt_status_string(st), ntt_error_detail());
        return 1;
    }

    /* m1 m2 mod X^N + 1, then X -> X^g */
    int64_t *prod = malloc(N * 8), *tmp = malloc(N * 8);
    for (size_t i = 0; i < N; i++) prod[i] = 0;
    for (size_t i = 0; i < N; i++)
        for (size_t j = 0; j < 4; j++) {
            size_t k = i + j;
            if (k < N) prod[k] += m1[i] * m2[j];
            else prod[k - N] -= m1[i] * m2[j];
        }
    struct {
        const char *what;
        int c;
        const int64_t *m;
        uint64_t g;
    } checks[] = {{"fresh m1", 0, m1, 1},      {"HMult + rescale", 2, prod, 1},
                  {"rotate(HMult, 1)", 3, prod, g[0]}, {"hoisted rotate(m1, 1)", 4, m1, g[0]},
                  {"hoisted rotate(m1, 2)", 5, m1, g[1]}};
    for (size_t t = 0; t < sizeof checks / sizeof checks[0]; t++) {
        const ntt_ckks_ct *c = &ct[checks[t].c];
        if (ntt_ckks_decrypt(ck, s, N, c, dec, c->level + 1) ||
            ntt_ckks_decode_small(ck, N, dec, c->level + 1, v)) {
            printf("%s: %s\n", checks[t].what, ntt_error_detail());
            failures++;
            continue;
        }
        for (size_t i = 0; i < N; i++) {
            uint64_t e = (uint64_t)i * checks[t].g % (2 * N);
            tmp[e % N] = e < N ? checks[t].m[i] : -checks[t].m[i];
        }
        /* After the rescale the scale is Delta^2 / q_2, within 2^-20 of
           Delta for these primes, and |m1 m2| <= 30: the scale's error
           adds less than Delta / 2^15. */
        expect_rounds_to(checks[t].what, v, tmp);
    }

    for (int i = 0; i < 6; i++) {
        free(ct[i].c0);
        free(ct[i].c1);
    }
    free(s);
    free(rlk);
    free(rot[0]);
    free(rot[1]);
    free(m1);
    free(m2);
    free(v);
    free(dec);
    free(prod);
    free(tmp);
    ntt_ckks_destroy(ck);
    ntt_rns_destroy(rns);
    return failures ? 1 : 0;
}
