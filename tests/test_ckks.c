/*
 * test_ckks: the CKKS operations (ntt_ckks.h).
 *
 * The automorphism against the direct coefficient-form map
 * X^i -> (-1)^floor(i g / N) X^(i g mod N) (both sides moved to evaluation
 * form by the RNS context's transforms); HMult (with and without rescale),
 * the plaintext product, rotations and conjugation checked by decryption
 * against the exact expected integers, within worst-case noise bounds
 * computed from the parameters (below); additions exactly (decryption is
 * linear); hoisted rotations word for word against single rotations;
 * every operation word for word across the CPU backends built and usable
 * here (scalar the reference); then each documented error.
 *
 * Noise bounds (infinity norm, worst case; B = NTT_CKKS_ERR_BOUND, s
 * ternary, beta digits of at most alpha primes, D the largest digit
 * modulus, K special primes of product P):
 *   fresh:        |e| <= B
 *   key switch:   beta alpha N B D/P  (the raised digits times the keys'
 *                 errors, divided by P)  +  K (N + 1)  (modDown's
 *                 Conv_{P->Q} is x_P + u P, 0 <= u < K, in both parts)
 *   HMult:        N B Delta (|m1| + |m2|) + N B^2 + key switch
 *   rescale by q: (bound) / q + N + 1, plus 1/2 for rounding the expected
 *   plain mult:   N B Delta |m_p|
 *   rotation:     B + key switch
 */
#include "ntt_ckks.h"
#include "test_common.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

__extension__ typedef __int128 i128;

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))
#define MMAX 2 /* message coefficients in [-MMAX, MMAX] */

typedef struct {
    size_t logn, dnum;
} config;

static const config configs[] = {{10, 4}, {11, 2}, {12, 2}};
enum { NQ = 4, NP = 2 };
static const uint64_t DELTA = (uint64_t)1 << 40;

static uint64_t qs[NQ], ps[NP];

static void make_primes(void)
{
    /* q_0 of 60 bits, q_1.. near Delta, P of 61 bits; 2^17 | p - 1 for N up to 2^16. */
    CHECK_STATUS(NTT_OK, ntt_find_prime(60, 17, 0, &qs[0]), "q0");
    for (unsigned i = 1; i < NQ; i++) CHECK_STATUS(NTT_OK, ntt_find_prime(41, 17, i - 1, &qs[i]), "q");
    for (unsigned i = 0; i < NP; i++) CHECK_STATUS(NTT_OK, ntt_find_prime(61, 17, i, &ps[i]), "p");
}

static uint64_t smod(int64_t v, uint64_t p)
{
    int64_t r = v % (int64_t)p;
    return (uint64_t)(r < 0 ? r + (int64_t)p : r);
}

/* c = a b mod X^N + 1, exact integers. */
static void nega_mul(int64_t *c, const int64_t *a, const int64_t *b, size_t n)
{
    memset(c, 0, n * sizeof *c);
    for (size_t i = 0; i < n; i++) {
        if (!a[i]) continue;
        for (size_t j = 0; j < n; j++) {
            size_t k = i + j;
            if (k < n) c[k] += a[i] * b[j];
            else c[k - n] -= a[i] * b[j];
        }
    }
}

/* a(X^g), exact. */
static void galois_int(int64_t *out, const int64_t *a, size_t n, uint64_t g)
{
    for (size_t i = 0; i < n; i++) {
        uint64_t e = (uint64_t)i * g % (2 * n);
        out[e % n] = e < n ? a[i] : -a[i];
    }
}

typedef struct {
    ntt_rns *rns;
    ntt_ckks *ck;
    size_t n, kl;
} env;

static bool env_make(env *e, size_t n, size_t dnum, ntt_backend be, int threads)
{
    ntt_rns_params pa = {.n = n, .q = qs, .q_count = NQ, .p = ps, .p_count = NP, .dnum = dnum,
                         .backend = be, .threads = threads};
    ntt_status s = ntt_rns_create(&e->rns, &pa);
    CHECK_STATUS(NTT_OK, s, "rns create N=%zu dnum=%zu %s", n, dnum, ntt_backend_name(be));
    if (s) return false;
    s = ntt_ckks_create(&e->ck, e->rns);
    CHECK_STATUS(NTT_OK, s, "ckks create");
    e->n = n;
    e->kl = ntt_ckks_key_limbs(e->ck);
    return s == NTT_OK;
}

static void env_free(env *e)
{
    ntt_ckks_destroy(e->ck);
    ntt_rns_destroy(e->rns);
}

static ntt_ckks_ct ct_new(size_t n)
{
    ntt_ckks_ct c = {xmalloc(NQ * n * 8), xmalloc(NQ * n * 8), n, 0, NQ};
    return c;
}
static void ct_free(ntt_ckks_ct *c)
{
    free(c->c0);
    free(c->c1);
}
static bool ct_same(const ntt_ckks_ct *a, const ntt_ckks_ct *b)
{
    size_t w = (a->level + 1) * a->n * 8;
    return a->level == b->level && !memcmp(a->c0, b->c0, w) && !memcmp(a->c1, b->c1, w);
}

/* Decrypts `c` and checks it against exp (int64 per coefficient) within
   `bound`: the residues of dec - exp must be one small integer. */
static void check_dec(env *e, const int8_t *s, const ntt_ckks_ct *c, const int64_t *exp_small,
                      const i128 *exp_big, double bound, const char *what)
{
    const size_t n = e->n, q = c->level + 1;
    uint64_t *d = xmalloc(q * n * 8);
    int64_t *v = xmalloc(n * 8);
    CHECK_STATUS(NTT_OK, ntt_ckks_decrypt(e->ck, s, n, c, d, q), "%s: decrypt", what);
    for (size_t k = 0; k < q; k++)
        for (size_t i = 0; i < n; i++) {
            uint64_t x = exp_big ? (uint64_t)(((exp_big[i] % (i128)qs[k]) + qs[k]) % qs[k])
                                 : smod(exp_small[i], qs[k]);
            d[k * n + i] = (d[k * n + i] + qs[k] - x) % qs[k];
        }
    ntt_status st = ntt_ckks_decode_small(e->ck, n, d, q, v);
    CHECK_STATUS(NTT_OK, st, "%s: the difference from the expected is not small", what);
    double worst = 0;
    for (size_t i = 0; i < n && st == NTT_OK; i++) worst = fmax(worst, fabs((double)v[i]));
    CHECK(worst <= bound, "%s: noise %.3g above the bound %.3g", what, worst, bound);
    printf("    %-28s noise %9.3g  bound %9.3g  (log2 %.1f of %.1f)\n", what, worst, bound,
           log2(worst + 1), log2(bound));
    free(d);
    free(v);
}

/* ---- the automorphism against coefficient form ------------------------------------------ */

static void test_automorphism(env *e)
{
    const size_t n = e->n, nl = NQ + NP;
    const uint64_t *pr;
    ntt_rns_primes(e->rns, &pr);
    size_t limbs[NQ + NP];
    for (size_t k = 0; k < nl; k++) limbs[k] = k;
    uint64_t *a = xmalloc(nl * n * 8), *b = xmalloc(nl * n * 8), *got = xmalloc(nl * n * 8);
    const uint64_t gs[] = {5, 25, ntt_ckks_galois_rot(e->ck, 7), ntt_ckks_galois_rot(e->ck, -1),
                           2 * n - 1, 3, 1};
    for (size_t t = 0; t < COUNT(gs); t++) {
        const uint64_t g = gs[t];
        for (size_t k = 0; k < nl; k++) rnd_fill64(a + k * n, n, pr[k]);
        for (size_t k = 0; k < nl; k++)
            for (size_t i = 0; i < n; i++) {
                uint64_t x = (uint64_t)i * g % (2 * n), v = a[k * n + i];
                b[k * n + x % n] = x < n ? v : (v ? pr[k] - v : 0);
            }
        CHECK_STATUS(NTT_OK, ntt_rns_forward(e->rns, n, limbs, nl, a), "forward");
        CHECK_STATUS(NTT_OK, ntt_rns_forward(e->rns, n, limbs, nl, b), "forward");
        CHECK_STATUS(NTT_OK, ntt_ckks_automorphism(e->ck, n, g, a, nl, got), "automorphism");
        CHECK_ARR64(b, got, nl * n, "automorphism g=%llu N=%zu vs coefficient form",
                    (unsigned long long)g, n);
    }
    CHECK_EQ(1, ntt_ckks_galois_rot(e->ck, 0), "5^0");
    CHECK_EQ(5, ntt_ckks_galois_rot(e->ck, 1), "5^1");
    CHECK_EQ(ntt_ckks_galois_rot(e->ck, (long)n / 2 - 1), ntt_ckks_galois_rot(e->ck, -1), "5^-1");
    free(a);
    free(b);
    free(got);
}

/* ---- the operations by decryption -------------------------------------------------------- */

typedef struct {
    int8_t *s;
    uint64_t *rlk, *gk[4];
    uint64_t g[4];
} keys;

static void keys_make(env *e, keys *k)
{
    const size_t n = e->n;
    k->s = xmalloc(n);
    CHECK_STATUS(NTT_OK, ntt_ckks_secret_gen(e->ck, 11, k->s, n), "secret");
    k->rlk = xmalloc(e->kl * n * 8);
    CHECK_STATUS(NTT_OK, ntt_ckks_keygen_relin(e->ck, k->s, n, 12, k->rlk, e->kl), "relin key");
    k->g[0] = ntt_ckks_galois_rot(e->ck, 1);
    k->g[1] = ntt_ckks_galois_rot(e->ck, 3);
    k->g[2] = ntt_ckks_galois_rot(e->ck, -1);
    k->g[3] = ntt_ckks_galois_conj(e->ck);
    for (int i = 0; i < 4; i++) {
        k->gk[i] = xmalloc(e->kl * n * 8);
        CHECK_STATUS(NTT_OK, ntt_ckks_keygen_galois(e->ck, k->s, n, k->g[i], 13 + (uint64_t)i,
                                                    k->gk[i], e->kl),
                     "galois key");
    }
    CHECK_STATUS(NTT_OK, ntt_rns_key_check(e->rns, n, k->rlk, e->kl), "relin key in range");
}

static void keys_free(keys *k)
{
    free(k->s);
    free(k->rlk);
    for (int i = 0; i < 4; i++) free(k->gk[i]);
}

static double ks_bound(env *e, size_t level)
{
    const size_t n = e->n, alpha = ntt_rns_alpha(e->rns), beta = ntt_rns_digits(e->rns, level);
    double lgD = 0, lgP = 0;
    for (size_t j = 0; j < beta; j++) {
        size_t f, c;
        double d = 0;
        CHECK_STATUS(NTT_OK, ntt_rns_digit_range(e->rns, level, j, &f, &c), "digit");
        for (size_t i = f; i < f + c; i++) d += log2((double)qs[i]);
        lgD = fmax(lgD, d);
    }
    for (size_t i = 0; i < NP; i++) lgP += log2((double)ps[i]);
    return (double)(beta * alpha * n) * NTT_CKKS_ERR_BOUND * exp2(lgD - lgP) +
           (double)NP * (double)(n + 1);
}

static void test_ops(env *e)
{
    const size_t n = e->n, top = NQ - 1;
    const double B = NTT_CKKS_ERR_BOUND, D = (double)DELTA;
    keys k;
    keys_make(e, &k);
    int64_t *m1 = xmalloc(n * 8), *m2 = xmalloc(n * 8), *mm = xmalloc(n * 8), *ex = xmalloc(n * 8);
    i128 *big = xmalloc(n * sizeof *big);
    for (size_t i = 0; i < n; i++) {
        m1[i] = (int64_t)rnd_range(0, 2 * MMAX) - MMAX;
        m2[i] = (int64_t)rnd_range(0, 2 * MMAX) - MMAX;
    }
    nega_mul(mm, m1, m2, n);
    ntt_ckks_ct a = ct_new(n), b = ct_new(n), c = ct_new(n), d = ct_new(n);
    CHECK_STATUS(NTT_OK, ntt_ckks_encrypt(e->ck, k.s, n, m1, DELTA, top, 21, &a), "encrypt a");
    CHECK_STATUS(NTT_OK, ntt_ckks_encrypt(e->ck, k.s, n, m2, DELTA, top, 22, &b), "encrypt b");
    CHECK_EQ(top, a.level, "encrypt sets the level");
    for (size_t i = 0; i < n; i++) ex[i] = m1[i] * (int64_t)DELTA;
    check_dec(e, k.s, &a, ex, NULL, B, "fresh");

    /* HMult at each level from the top down to 1, with and without rescale. */
    for (size_t lv = top; lv >= 1; lv--) {
        char tag[64];
        ntt_ckks_ct al = a, bl = b; /* the same buffers read at a lower level */
        al.level = bl.level = lv;
        const double bm = (double)n * B * D * 2 * MMAX + (double)n * B * B + ks_bound(e, lv);
        for (size_t i = 0; i < n; i++) big[i] = (i128)mm[i] * DELTA * DELTA;
        snprintf(tag, sizeof tag, "HMult l=%zu", lv);
        CHECK_STATUS(NTT_OK, ntt_ckks_mul(e->ck, &al, &bl, k.rlk, e->kl, 0, &c), "mul");
        CHECK_EQ(lv, c.level, "mul level");
        check_dec(e, k.s, &c, NULL, big, bm, tag);
        for (size_t i = 0; i < n; i++) {
            i128 x = big[i], q = qs[lv], r = (x >= 0 ? x + q / 2 : x - q / 2) / q;
            ex[i] = (int64_t)r;
        }
        snprintf(tag, sizeof tag, "HMult+rescale l=%zu", lv);
        CHECK_STATUS(NTT_OK, ntt_ckks_mul(e->ck, &al, &bl, k.rlk, e->kl, 1, &d), "mul rescale");
        CHECK_EQ(lv - 1, d.level, "mul rescale level");
        check_dec(e, k.s, &d, ex, NULL, bm / (double)qs[lv] + (double)n + 2, tag);
        /* mul then rescale by the separate call: the same words */
        CHECK_STATUS(NTT_OK, ntt_ckks_rescale(e->ck, &c, &c), "rescale in place");
        CHECK(ct_same(&c, &d), "mul(rescale) == rescale(mul) at l=%zu", lv);
    }
    /* different levels: the lower one wins */
    {
        ntt_ckks_ct bl = b;
        bl.level = 1;
        CHECK_STATUS(NTT_OK, ntt_ckks_mul(e->ck, &a, &bl, k.rlk, e->kl, 0, &c), "mul mixed");
        CHECK_EQ(1, c.level, "mixed levels");
    }

    /* plaintext product and additions */
    uint64_t *pt = xmalloc(NQ * n * 8);
    CHECK_STATUS(NTT_OK, ntt_ckks_plain(e->ck, n, m2, DELTA, top, pt, NQ), "plain");
    for (size_t i = 0; i < n; i++) big[i] = (i128)mm[i] * DELTA * DELTA;
    CHECK_STATUS(NTT_OK, ntt_ckks_mul_plain(e->ck, &a, pt, NQ, &c), "mul_plain");
    check_dec(e, k.s, &c, NULL, big, (double)n * B * D * MMAX, "plain mult");
    {
        uint64_t *da = xmalloc(NQ * n * 8), *db = xmalloc(NQ * n * 8), *dc = xmalloc(NQ * n * 8);
        CHECK_STATUS(NTT_OK, ntt_ckks_decrypt(e->ck, k.s, n, &a, da, NQ), "dec a");
        CHECK_STATUS(NTT_OK, ntt_ckks_decrypt(e->ck, k.s, n, &b, db, NQ), "dec b");
        CHECK_STATUS(NTT_OK, ntt_ckks_add(e->ck, &a, &b, &c), "add");
        CHECK_STATUS(NTT_OK, ntt_ckks_decrypt(e->ck, k.s, n, &c, dc, NQ), "dec a+b");
        for (size_t l = 0; l < NQ; l++)
            for (size_t i = 0; i < n; i++) da[l * n + i] = (da[l * n + i] + db[l * n + i]) % qs[l];
        CHECK_ARR64(da, dc, NQ * n, "dec(a + b) == dec(a) + dec(b)");
        /* a + pt: pt's decryption is itself, its inverse transform */
        CHECK_STATUS(NTT_OK, ntt_ckks_add_plain(e->ck, &b, pt, NQ, &c), "add_plain");
        CHECK_STATUS(NTT_OK, ntt_ckks_decrypt(e->ck, k.s, n, &c, dc, NQ), "dec b+pt");
        size_t lim[NQ] = {0, 1, 2, 3};
        memcpy(da, pt, NQ * n * 8);
        CHECK_STATUS(NTT_OK, ntt_rns_inverse(e->rns, n, lim, NQ, da), "inverse pt");
        for (size_t l = 0; l < NQ; l++)
            for (size_t i = 0; i < n; i++) da[l * n + i] = (da[l * n + i] + db[l * n + i]) % qs[l];
        CHECK_ARR64(da, dc, NQ * n, "dec(b + pt) == dec(b) + pt");
        free(da);
        free(db);
        free(dc);
    }

    /* rotations and conjugation, single and hoisted, at the top and one level down */
    for (size_t lv = top; lv + 2 >= top && lv >= 1; lv--) {
        ntt_ckks_ct al = a;
        al.level = lv;
        ntt_ckks_ct single[4], hoist[4];
        for (int i = 0; i < 4; i++) {
            single[i] = ct_new(n);
            hoist[i] = ct_new(n);
        }
        const long ks[3] = {1, 3, -1};
        for (int i = 0; i < 3; i++)
            CHECK_STATUS(NTT_OK, ntt_ckks_rotate(e->ck, &al, ks[i], k.gk[i], e->kl, &single[i]),
                         "rotate %ld", ks[i]);
        CHECK_STATUS(NTT_OK, ntt_ckks_conjugate(e->ck, &al, k.gk[3], e->kl, &single[3]), "conj");
        const uint64_t *const gks[4] = {k.gk[0], k.gk[1], k.gk[2], k.gk[3]};
        CHECK_STATUS(NTT_OK, ntt_ckks_rotate_hoisted(e->ck, &al, k.g, 4, gks, e->kl, hoist),
                     "hoisted");
        for (int i = 0; i < 4; i++) {
            char tag[64];
            CHECK(ct_same(&single[i], &hoist[i]), "hoisted rotation %d == single at l=%zu", i, lv);
            galois_int(ex, m1, n, k.g[i]);
            for (size_t j = 0; j < n; j++) ex[j] *= (int64_t)DELTA;
            snprintf(tag, sizeof tag, "%s g=%llu l=%zu", i == 3 ? "conjugate" : "rotate",
                     (unsigned long long)k.g[i], lv);
            check_dec(e, k.s, &single[i], ex, NULL, B + ks_bound(e, lv), tag);
        }
        /* the sum of the four with one modDown: decrypts to the sum of the
           rotated messages, in place gives the same words */
        {
            ntt_ckks_ct sum = ct_new(n), y = ct_new(n);
            CHECK_STATUS(NTT_OK, ntt_ckks_rotate_sum(e->ck, &al, k.g, 4, gks, e->kl, &sum),
                         "rotate_sum");
            CHECK_EQ(lv, sum.level, "rotate_sum level");
            int64_t *one = xmalloc(n * 8);
            memset(ex, 0, n * 8);
            for (int i = 0; i < 4; i++) {
                galois_int(one, m1, n, k.g[i]);
                for (size_t j = 0; j < n; j++) ex[j] += one[j] * (int64_t)DELTA;
            }
            char tag[64];
            snprintf(tag, sizeof tag, "sum of 4 rotations l=%zu", lv);
            check_dec(e, k.s, &sum, ex, NULL, 4 * (B + ks_bound(e, lv)), tag);
            memcpy(y.c0, al.c0, (lv + 1) * n * 8);
            memcpy(y.c1, al.c1, (lv + 1) * n * 8);
            y.level = lv;
            CHECK_STATUS(NTT_OK, ntt_ckks_rotate_sum(e->ck, &y, k.g, 4, gks, e->kl, &y),
                         "rotate_sum in place");
            CHECK(ct_same(&y, &sum), "rotate_sum in place == out of place at l=%zu", lv);
            /* r = 1 is the single rotation */
            CHECK_STATUS(NTT_OK, ntt_ckks_rotate_sum(e->ck, &al, k.g, 1, gks, e->kl, &y),
                         "rotate_sum r=1");
            CHECK(ct_same(&y, &single[0]), "rotate_sum of one == rotate at l=%zu", lv);
            free(one);
            ct_free(&sum);
            ct_free(&y);
        }
        /* in place: out == in exactly */
        ntt_ckks_ct x = ct_new(n);
        memcpy(x.c0, al.c0, (lv + 1) * n * 8);
        memcpy(x.c1, al.c1, (lv + 1) * n * 8);
        x.level = lv;
        CHECK_STATUS(NTT_OK, ntt_ckks_rotate(e->ck, &x, 1, k.gk[0], e->kl, &x), "rotate in place");
        CHECK(ct_same(&x, &single[0]), "rotate in place == out of place");
        /* two rotations compose: rot(rot(a, 1), 1) decrypts to rot by 2 */
        ct_free(&x);
        for (int i = 0; i < 4; i++) {
            ct_free(&single[i]);
            ct_free(&hoist[i]);
        }
    }
    free(pt);
    ct_free(&a);
    ct_free(&b);
    ct_free(&c);
    ct_free(&d);
    free(m1);
    free(m2);
    free(mm);
    free(ex);
    free(big);
    keys_free(&k);
}

/* ---- the same words on every CPU backend ------------------------------------------- */

typedef struct {
    ntt_ckks_ct fresh, mul, mulr, rot[4], sum;
    uint64_t *rlk;
} outputs;

static void run_all(env *e, outputs *o)
{
    const size_t n = e->n;
    keys k;
    keys_make(e, &k);
    int64_t *m1 = xmalloc(n * 8), *m2 = xmalloc(n * 8);
    for (size_t i = 0; i < n; i++) {
        m1[i] = (int64_t)(i % 5) - 2;
        m2[i] = (int64_t)(i % 3) - 1;
    }
    ntt_ckks_ct b = ct_new(n);
    o->fresh = ct_new(n);
    o->mul = ct_new(n);
    o->mulr = ct_new(n);
    CHECK_STATUS(NTT_OK, ntt_ckks_encrypt(e->ck, k.s, n, m1, DELTA, NQ - 1, 1, &o->fresh), "enc");
    CHECK_STATUS(NTT_OK, ntt_ckks_encrypt(e->ck, k.s, n, m2, DELTA, NQ - 1, 2, &b), "enc");
    CHECK_STATUS(NTT_OK, ntt_ckks_mul(e->ck, &o->fresh, &b, k.rlk, e->kl, 0, &o->mul), "mul");
    CHECK_STATUS(NTT_OK, ntt_ckks_mul(e->ck, &o->fresh, &b, k.rlk, e->kl, 1, &o->mulr), "mulr");
    for (int i = 0; i < 4; i++) o->rot[i] = ct_new(n);
    const uint64_t *const gks[4] = {k.gk[0], k.gk[1], k.gk[2], k.gk[3]};
    CHECK_STATUS(NTT_OK, ntt_ckks_rotate_hoisted(e->ck, &o->mulr, k.g, 4, gks, e->kl, o->rot),
                 "hoisted");
    o->sum = ct_new(n);
    CHECK_STATUS(NTT_OK, ntt_ckks_rotate_sum(e->ck, &o->mulr, k.g, 4, gks, e->kl, &o->sum),
                 "rotate_sum");
    o->rlk = k.rlk;
    k.rlk = NULL;
    keys_free(&k);
    ct_free(&b);
    free(m1);
    free(m2);
}

static void outputs_free(outputs *o)
{
    ct_free(&o->fresh);
    ct_free(&o->mul);
    ct_free(&o->mulr);
    for (int i = 0; i < 4; i++) ct_free(&o->rot[i]);
    ct_free(&o->sum);
    free(o->rlk);
}

static void test_backends(size_t n, size_t dnum)
{
    static const struct {
        ntt_backend be;
        int threads;
    } bks[] = {{NTT_BACKEND_AVX2, 0}, {NTT_BACKEND_AVX512, 0}, {NTT_BACKEND_OPENMP, 2}};
    env r;
    if (!env_make(&r, n, dnum, NTT_BACKEND_SCALAR, 0)) return;
    outputs ref;
    run_all(&r, &ref);
    for (size_t b = 0; b < COUNT(bks); b++) {
        if (!ntt_backend_available(bks[b].be)) {
            printf("  backend %s: not available here, skipped\n", ntt_backend_name(bks[b].be));
            continue;
        }
        env e;
        if (!env_make(&e, n, dnum, bks[b].be, bks[b].threads)) continue;
        outputs o;
        run_all(&e, &o);
        const char *nm = ntt_backend_name(bks[b].be);
        CHECK_MEM(ref.rlk, o.rlk, e.kl * n * 8, "relin key, %s vs scalar", nm);
        CHECK(ct_same(&ref.fresh, &o.fresh), "encryption, %s vs scalar", nm);
        CHECK(ct_same(&ref.mul, &o.mul), "HMult, %s vs scalar", nm);
        CHECK(ct_same(&ref.mulr, &o.mulr), "HMult+rescale, %s vs scalar", nm);
        for (int i = 0; i < 4; i++)
            CHECK(ct_same(&ref.rot[i], &o.rot[i]), "rotation %d, %s vs scalar", i, nm);
        CHECK(ct_same(&ref.sum, &o.sum), "sum of rotations, %s vs scalar", nm);
        printf("  N=%zu dnum=%zu: %s gives the scalar backend's words\n", n, dnum, nm);
        outputs_free(&o);
        env_free(&e);
    }
    outputs_free(&ref);
    env_free(&r);
}

/* ---- errors -------------------------------------------------------------------------- */

static void test_errors(void)
{
    const size_t n = 1024;
    env e;
    if (!env_make(&e, n, 2, NTT_BACKEND_SCALAR, 0)) return;
    keys k;
    keys_make(&e, &k);
    int64_t *m = xmalloc(n * 8);
    for (size_t i = 0; i < n; i++) m[i] = (int64_t)(i % 3) - 1;
    ntt_ckks_ct a = ct_new(n), o = ct_new(n);
    CHECK_STATUS(NTT_OK, ntt_ckks_encrypt(e.ck, k.s, n, m, DELTA, NQ - 1, 5, &a), "encrypt");
    memset(o.c0, 0xab, NQ * n * 8);
    uint64_t first = o.c0[0];

    /* create */
    ntt_ckks *ck = (ntt_ckks *)&e; /* overwritten with NULL on failure */
    CHECK_STATUS(NTT_EINVAL, ntt_ckks_create(&ck, NULL), "create(NULL rns)");
    CHECK(ck == NULL, "create sets *ck to NULL on failure");
    CHECK_STATUS(NTT_EINVAL, ntt_ckks_create(NULL, e.rns), "create(NULL ck)");
    {
        ntt_rns *r0;
        ntt_rns_params pa = {.n = n, .q = qs, .q_count = NQ, .dnum = 1,
                             .backend = NTT_BACKEND_SCALAR};
        CHECK_STATUS(NTT_OK, ntt_rns_create(&r0, &pa), "rns K=0");
        CHECK_STATUS(NTT_EINVAL, ntt_ckks_create(&ck, r0), "create on K = 0");
        ntt_rns_destroy(r0);
    }
    CHECK_EQ(0, ntt_ckks_key_limbs(NULL), "key_limbs(NULL)");
    CHECK(ntt_ckks_rns(NULL) == NULL, "rns(NULL)");

    /* NULL pointers */
    CHECK_STATUS(NTT_EINVAL, ntt_ckks_mul(NULL, &a, &a, k.rlk, e.kl, 0, &o), "mul NULL ctx");
    CHECK_STATUS(NTT_EINVAL, ntt_ckks_mul(e.ck, NULL, &a, k.rlk, e.kl, 0, &o), "mul NULL a");
    CHECK_STATUS(NTT_EINVAL, ntt_ckks_mul(e.ck, &a, &a, NULL, e.kl, 0, &o), "mul NULL key");
    CHECK_STATUS(NTT_EINVAL, ntt_ckks_mul(e.ck, &a, &a, k.rlk, e.kl, 0, NULL), "mul NULL out");
    CHECK_STATUS(NTT_EINVAL, ntt_ckks_add(e.ck, &a, NULL, &o), "add NULL b");
    CHECK_STATUS(NTT_EINVAL, ntt_ckks_rotate(e.ck, &a, 1, NULL, e.kl, &o), "rotate NULL key");
    CHECK_STATUS(NTT_EINVAL, ntt_ckks_decrypt(e.ck, NULL, n, &a, o.c0, NQ), "decrypt NULL s");
    {
        ntt_ckks_ct z = a;
        z.c1 = NULL;
        CHECK_STATUS(NTT_EINVAL, ntt_ckks_rescale(e.ck, &z, &o), "rescale NULL c1");
    }
    /* wrong levels */
    {
        ntt_ckks_ct hi = a;
        hi.level = NQ;
        CHECK_STATUS(NTT_EINVAL, ntt_ckks_add(e.ck, &hi, &a, &o), "level above L");
        CHECK(strstr(ntt_error_detail(), "level") != NULL, "detail names the level: %s",
              ntt_error_detail());
        CHECK_STATUS(NTT_EINVAL, ntt_ckks_encrypt(e.ck, k.s, n, m, DELTA, NQ, 5, &o), "encrypt level");
        ntt_ckks_ct z = a;
        z.level = 0;
        CHECK_STATUS(NTT_EINVAL, ntt_ckks_rescale(e.ck, &z, &o), "rescale at level 0");
        CHECK_STATUS(NTT_EINVAL, ntt_ckks_mul(e.ck, &z, &z, k.rlk, e.kl, 1, &o), "mul+rescale at 0");
        ntt_ckks_ct small = o;
        small.cap = NQ - 1;
        CHECK_STATUS(NTT_EINVAL, ntt_ckks_add(e.ck, &a, &a, &small), "out cap too small");
        uint64_t *pt = xmalloc(NQ * n * 8);
        CHECK_STATUS(NTT_OK, ntt_ckks_plain(e.ck, n, m, 1, 1, pt, 2), "plain at 1");
        CHECK_STATUS(NTT_EINVAL, ntt_ckks_mul_plain(e.ck, &a, pt, 2, &o), "plaintext below level");
        CHECK_STATUS(NTT_EINVAL, ntt_ckks_plain(e.ck, n, m, 1, 1, pt, 3), "plain limbs");
        free(pt);
    }
    /* mismatched contexts: n, key sizes */
    {
        ntt_ckks_ct w = a;
        w.n = 2048;
        CHECK_STATUS(NTT_EINVAL, ntt_ckks_add(e.ck, &w, &a, &o), "ciphertext of another N");
        CHECK_STATUS(NTT_EINVAL, ntt_ckks_mul(e.ck, &a, &a, k.rlk, e.kl - 1, 0, &o), "key_limbs");
        CHECK_STATUS(NTT_EINVAL, ntt_ckks_keygen_relin(e.ck, k.s, 2048, 1, k.rlk, e.kl), "keygen n");
        CHECK_STATUS(NTT_EINVAL, ntt_ckks_secret_gen(e.ck, 1, k.s, 512), "secret n");
    }
    /* Galois elements */
    {
        uint64_t g[2] = {4, 2 * n + 1};
        const uint64_t *const ks[1] = {k.gk[0]};
        CHECK_STATUS(NTT_EINVAL, ntt_ckks_rotate_hoisted(e.ck, &a, &g[0], 1, ks, e.kl, &o), "g even");
        CHECK_STATUS(NTT_EINVAL, ntt_ckks_rotate_hoisted(e.ck, &a, &g[1], 1, ks, e.kl, &o), "g >= 2N");
        CHECK_STATUS(NTT_EINVAL, ntt_ckks_rotate_hoisted(e.ck, &a, &g[1], 0, ks, e.kl, &o), "r = 0");
        CHECK_STATUS(NTT_EINVAL, ntt_ckks_rotate_sum(e.ck, &a, &g[0], 1, ks, e.kl, &o), "sum g even");
        CHECK_STATUS(NTT_EINVAL, ntt_ckks_rotate_sum(e.ck, &a, &g[1], 0, ks, e.kl, &o), "sum r = 0");
        CHECK_STATUS(NTT_EINVAL, ntt_ckks_rotate_sum(e.ck, &a, &g[1], 1, NULL, e.kl, &o), "sum keys");
        CHECK_STATUS(NTT_EINVAL, ntt_ckks_automorphism(e.ck, n, 2, a.c0, 1, o.c0), "automorphism g");
        CHECK_STATUS(NTT_EINVAL, ntt_ckks_automorphism(e.ck, n, 5, a.c0, 2, a.c0 + n), "overlap");
        CHECK_STATUS(NTT_EINVAL, ntt_ckks_keygen_galois(e.ck, k.s, n, 6, 1, k.gk[0], e.kl), "keygen g");
    }
    /* overlaps other than exact, a bad secret, out-of-range words */
    {
        ntt_ckks_ct a2 = a, sh = a;
        a2.level = 2;
        sh.c0 = a.c0 + n; /* shifted by one limb: partial overlap */
        sh.cap = NQ - 1;
        sh.c1 = o.c1;
        CHECK_STATUS(NTT_EINVAL, ntt_ckks_add(e.ck, &a2, &a2, &sh), "partial overlap");
        int8_t bad = k.s[3];
        k.s[3] = 2;
        CHECK_STATUS(NTT_EINVAL, ntt_ckks_encrypt(e.ck, k.s, n, m, DELTA, 1, 5, &o), "secret value");
        k.s[3] = bad;
        uint64_t keep = a.c1[n + 7];
        a.c1[n + 7] = qs[1];
        CHECK_STATUS(NTT_ERANGE, ntt_ckks_rotate(e.ck, &a, 1, k.gk[0], e.kl, &o), "word >= prime");
        CHECK_STATUS(NTT_ERANGE, ntt_ckks_mul(e.ck, &a, &a, k.rlk, e.kl, 1, &o), "mul word >= prime");
        CHECK_STATUS(NTT_ERANGE, ntt_ckks_rescale(e.ck, &a, &o), "rescale c1 word >= prime");
        /* In place, a bad word in either component leaves a as it was (rescale
           relies on the stages' own checks, which come before any write). */
        const size_t words = (a.level + 1) * n;
        uint64_t *c0 = xmalloc(words * 8), *c1 = xmalloc(words * 8);
        memcpy(c0, a.c0, words * 8);
        memcpy(c1, a.c1, words * 8);
        ntt_ckks_ct in = a;
        CHECK_STATUS(NTT_ERANGE, ntt_ckks_rescale(e.ck, &in, &in), "rescale in place, c1 bad");
        a.c1[n + 7] = keep;
        keep = a.c0[2 * n + 3];
        a.c0[2 * n + 3] = qs[2] + 1;
        c0[2 * n + 3] = qs[2] + 1;
        in = a;
        CHECK_STATUS(NTT_ERANGE, ntt_ckks_rescale(e.ck, &in, &in), "rescale in place, c0 bad");
        CHECK_EQ(a.level, in.level, "a failed rescale keeps the level");
        CHECK_ARR64(c0, a.c0, words, "a failed in-place rescale leaves c0");
        c1[n + 7] = a.c1[n + 7];
        CHECK_ARR64(c1, a.c1, words, "a failed in-place rescale leaves c1");
        CHECK_STATUS(NTT_ERANGE, ntt_ckks_rescale(e.ck, &a, &o), "rescale c0 word >= prime");
        a.c0[2 * n + 3] = keep;
        free(c0);
        free(c1);
    }
    CHECK_EQ(first, o.c0[0], "failed calls wrote nothing to the output");
    CHECK_EQ(0xababababababababull, o.c0[NQ * n - 1], "failed calls wrote nothing (last word)");
    ct_free(&a);
    ct_free(&o);
    free(m);
    keys_free(&k);
    env_free(&e);
}

int main(void)
{
    test_init("test_ckks");
    make_primes();
    for (size_t c = 0; c < COUNT(configs); c++) {
        const size_t n = (size_t)1 << configs[c].logn;
        printf("  N=%zu L+1=%d K=%d dnum=%zu Delta=2^40\n", n, NQ, NP, configs[c].dnum);
        env e;
        if (!env_make(&e, n, configs[c].dnum, NTT_BACKEND_SCALAR, 0)) continue;
        test_automorphism(&e);
        test_ops(&e);
        env_free(&e);
    }
    test_backends(1024, 2);
    test_backends(4096, 3);
    test_errors();
    return test_finish();
}
