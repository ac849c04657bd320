/*
 * test_rns_contracts: what ntt_rns.h promises about keys (issue 62 item 7),
 * each held from the header's text alone, with GMP for the big integers:
 *  - Key contents: a key built by the stated rule (key_{j,0} = -a_j s +
 *    P g_j s', key_{j,1} = a_j, g_j = 1 mod digit j's primes and 0 mod the
 *    other q's) switches keys: with a_j = 0 the key switch gives exactly
 *    out0 = x s', out1 = 0; with random a_j and ternary s, s', out0 + out1 s
 *    - x s' is below K (1 + N) in every coefficient (CRT over Q_l, centred);
 *  - dnum against digits: the pairs j >= beta(L) are never read: with them
 *    on a PROT_NONE page every call still works (key_check included), and
 *    garbage there changes no output word;
 *  - key words >= their prime: every output word stays below its prime;
 *  - ntt_rns_create on AUTO while NTT_BACKEND names no backend: refused.
 * On every CPU backend (AVX-512 contexts with primes >= 2^30 run the IFMA
 * kernels where the CPU has them).
 */
#define _DEFAULT_SOURCE /* MAP_ANONYMOUS */
#include "rns_oracle.h"

#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

typedef struct {
    size_t n, nq, np, dnum;
    int kind;
} shape;

static const shape shapes[] = {
    {16, 5, 2, 4, PR_MIXED}, /* alpha 2: three digits, dnum four (the header's example) */
    {32, 4, 1, 2, PR_TOP},
    {8, 3, 3, 3, PR_50},
    {64, 6, 2, 1, PR_MIXED},
    {16, 7, 2, 3, PR_MIXED}, /* alpha 3: 7 = 3 + 3 + 1 */
};

/* threads: of an OPENMP context (one for the others).  Two threads only
   where it matters (the unread pairs): on a loaded machine OpenMP's
   spinning threads make every small call slow. */
static ntt_rns *make_ctx(const uint64_t *pr, const shape *sh, ntt_backend b, int threads)
{
    const ntt_rns_params prm = {.n = sh->n, .q = pr, .q_count = sh->nq, .p = pr + sh->nq,
                                .p_count = sh->np, .dnum = sh->dnum, .backend = b,
                                .threads = b == NTT_BACKEND_OPENMP ? threads : 0};
    ntt_rns *ctx = NULL;
    CHECK_STATUS(NTT_OK, ntt_rns_create(&ctx, &prm), "ntt_rns_create %s", ntt_backend_name(b));
    return ctx;
}

/* pg[j * nl + t] = P g_j mod prime t, from the header's definition of g_j. */
static void gadget(uint64_t *pg, const oracle *o)
{
    mpz_t Q, P, D, hat, inv, g;
    mpz_inits(Q, P, D, hat, inv, g, NULL);
    mpz_set_ui(Q, 1);
    mpz_set_ui(P, 1);
    for (size_t i = 0; i < o->nq; i++) mpz_mul_ui(Q, Q, o->primes[i]);
    for (size_t k = 0; k < o->np; k++) mpz_mul_ui(P, P, o->primes[o->nq + k]);
    const size_t beta = (o->nq + o->alpha - 1) / o->alpha;
    for (size_t j = 0; j < beta; j++) {
        mpz_set_ui(D, 1);
        for (size_t i = j * o->alpha; i < (j + 1) * o->alpha && i < o->nq; i++)
            mpz_mul_ui(D, D, o->primes[i]);
        mpz_divexact(hat, Q, D);
        if (!mpz_invert(inv, hat, D)) {
            fprintf(stderr, "gadget: not invertible\n");
            exit(2);
        }
        mpz_mul(g, hat, inv);
        mpz_mul(g, g, P);
        for (size_t t = 0; t < o->nl; t++) pg[j * o->nl + t] = mpz_fdiv_ui(g, o->primes[t]);
    }
    mpz_clears(Q, P, D, hat, inv, g, NULL);
}

/* A polynomial with coefficients in {-1, 0, 1}, in evaluation form on every
   limb (nl rows). */
static void ternary(uint64_t *s, const oracle *o)
{
    const size_t n = o->n;
    int8_t *c = xmalloc(n);
    for (size_t k = 0; k < n; k++) c[k] = (int8_t)((int)rnd_below(3) - 1);
    for (size_t t = 0; t < o->nl; t++) {
        const uint64_t q = o->primes[t];
        for (size_t k = 0; k < n; k++) s[t * n + k] = c[k] < 0 ? q - 1 : (uint64_t)c[k];
        o_ntt(o, t, s + t * n, false);
    }
    free(c);
}

/* The key from s' to s by the rule; a NULL: a_j = 0. */
static void build_key(uint64_t *key, const oracle *o, const uint64_t *pg, const uint64_t *s,
                      const uint64_t *s2, const uint64_t *a)
{
    const size_t n = o->n, nl = o->nl, beta = (o->nq + o->alpha - 1) / o->alpha;
    for (size_t j = 0; j < beta; j++)
        for (size_t t = 0; t < nl; t++) {
            const uint64_t q = o->primes[t];
            uint64_t *k0 = key + ((2 * j) * nl + t) * n, *k1 = key + ((2 * j + 1) * nl + t) * n;
            for (size_t k = 0; k < n; k++) {
                const uint64_t at = a ? a[(j * nl + t) * n + k] : 0;
                const uint64_t as = t_mulmod(at, s[t * n + k], q);
                k0[k] = t_addmod(q - as == q ? 0 : q - as, t_mulmod(pg[j * nl + t], s2[t * n + k], q), q);
                k1[k] = at;
            }
        }
}

static void random_rows(uint64_t *x, const oracle *o, size_t rows, const size_t *limb)
{
    for (size_t r = 0; r < rows; r++)
        for (size_t k = 0; k < o->n; k++) x[r * o->n + k] = rnd_below(o->primes[limb[r]]);
}

/* ---- key contents -------------------------------------------------------------- */

static void test_key_contents(const uint64_t *pr, const shape *sh, ntt_backend b)
{
    ntt_rns *ctx = make_ctx(pr, sh, b, 1);
    if (!ctx) return;
    oracle o;
    oracle_init(&o, ctx);
    const size_t n = o.n, nl = o.nl, nq = o.nq, K = o.np, kl = 2 * o.dnum * nl;
    uint64_t *pg = xmalloc(o.dnum * nl * sizeof *pg);
    gadget(pg, &o);
    uint64_t *s = xmalloc(nl * n * 8), *s2 = xmalloc(nl * n * 8), *a = xmalloc(o.dnum * nl * n * 8);
    uint64_t *key = xmalloc(kl * n * 8), *key0 = xmalloc(kl * n * 8);
    ternary(s, &o);
    ternary(s2, &o);
    size_t *lim = xmalloc(o.dnum * nl * sizeof *lim);
    for (size_t r = 0; r < o.dnum * nl; r++) lim[r] = r % nl;
    random_rows(a, &o, o.dnum * nl, lim);
    /* Pairs past beta(L) are never read: garbage there. */
    memset(key, 0xa5, kl * n * 8);
    memset(key0, 0x5a, kl * n * 8);
    build_key(key, &o, pg, s, s2, a);
    build_key(key0, &o, pg, s, s2, NULL);
    CHECK_STATUS(NTT_OK, ntt_rns_key_check(ctx, n, key, kl), "key_check of a key by the rule");

    uint64_t *x = xmalloc(nq * n * 8), *out = xmalloc(2 * nq * n * 8), *r = xmalloc(nq * n * 8);
    for (size_t l = 0; l < nq; l++) {
        char tag[96];
        snprintf(tag, sizeof tag, "%s N=%zu L+1=%zu K=%zu dnum=%zu l=%zu", ntt_backend_name(b), n,
                 nq, K, o.dnum, l);
        random_rows(x, &o, l + 1, lim);
        uint64_t *o0 = out, *o1 = out + (l + 1) * n;
        /* a_j = 0: exactly x s' and 0. */
        CHECK_STATUS(NTT_OK, ntt_rns_keyswitch(ctx, n, l, x, l + 1, key0, kl, o0, o1, l + 1),
                     "%s: keyswitch", tag);
        for (size_t t = 0; t <= l; t++)
            for (size_t k = 0; k < n; k++) r[t * n + k] = t_mulmod(x[t * n + k], s2[t * n + k], o.primes[t]);
        CHECK_ARR64(r, o0, (l + 1) * n, "%s: a = 0: out0 = x s'", tag);
        memset(r, 0, (l + 1) * n * 8);
        CHECK_ARR64(r, o1, (l + 1) * n, "%s: a = 0: out1 = 0", tag);

        /* Random a_j: out0 + out1 s - x s' is small. */
        CHECK_STATUS(NTT_OK, ntt_rns_keyswitch(ctx, n, l, x, l + 1, key, kl, o0, o1, l + 1),
                     "%s: keyswitch", tag);
        for (size_t t = 0; t <= l; t++) {
            const uint64_t q = o.primes[t];
            for (size_t k = 0; k < n; k++) {
                const size_t i = t * n + k;
                const uint64_t v = t_addmod(o0[i], t_mulmod(o1[i], s[i], q), q),
                               w = t_mulmod(x[i], s2[i], q);
                r[i] = v >= w ? v - w : v + q - w;
            }
            o_ntt(&o, t, r + t * n, true);
        }
        bigbase z;
        bigbase_init(&z, o.primes, l + 1);
        mpz_t *E = bigvec(n), half, bound;
        mpz_inits(half, bound, NULL);
        big_crt(E, &z, r, n);
        mpz_fdiv_q_2exp(half, z.B, 1);
        mpz_set_ui(bound, (unsigned long)(K * (1 + n)));
        size_t worst = 0, bad = 0;
        for (size_t k = 0; k < n; k++) {
            if (mpz_cmp(E[k], half) > 0) mpz_sub(E[k], E[k], z.B);
            if (mpz_cmpabs(E[k], bound) >= 0) bad++;
            if (mpz_sizeinbase(E[k], 2) > worst) worst = mpz_sizeinbase(E[k], 2);
        }
        CHECK(bad == 0, "%s: out0 + out1 s - x s' has %zu coefficients of %zu at or above K (1 + N) "
              "= %zu (largest %zu bits)", tag, bad, n, K * (1 + n), worst);
        mpz_clears(half, bound, NULL);
        bigvec_free(E, n);
        bigbase_clear(&z);
    }
    free(x), free(out), free(r), free(lim), free(key), free(key0), free(s), free(s2), free(a), free(pg);
    oracle_free(&o);
    ntt_rns_destroy(ctx);
}

/* ---- pairs past beta(L) never read ----------------------------------------------- */

static void test_unread_pairs(ntt_backend b)
{
    /* L+1 = 5, K = 1, dnum = 4: alpha 2, three digits.  A pair is 2 * 6 *
       256 words = 24 KiB, whole pages: the fourth lies alone on its pages. */
    const shape sh = {256, 5, 1, 4, PR_MIXED};
    uint64_t pr[6];
    make_primes(pr, 6, sh.n, sh.kind, NULL, 0);
    ntt_rns *ctx = make_ctx(pr, &sh, b, 2);
    if (!ctx) return;
    CHECK_EQ(3, ntt_rns_digits(ctx, 4), "digits at L");
    oracle o;
    oracle_init(&o, ctx);
    const size_t n = o.n, nl = o.nl, nq = o.nq, kl = 2 * o.dnum * nl, pair = 2 * nl * n * 8;
    const long page = sysconf(_SC_PAGESIZE);
    const bool guard = page > 0 && pair % (size_t)page == 0;
    uint64_t *key = guard ? mmap(NULL, kl * n * 8, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0)
                          : xmalloc(kl * n * 8);
    if (guard && key == MAP_FAILED) {
        CHECK(0, "mmap failed");
        return;
    }
    uint64_t *ref = xmalloc(kl * n * 8);
    size_t *lim = xmalloc(kl * sizeof *lim);
    for (size_t r = 0; r < kl; r++) lim[r] = r % nl;
    random_rows(ref, &o, kl, lim);
    memcpy(key, ref, 3 * pair);
    memset((char *)key + 3 * pair, 0xff, pair);
    if (guard)
        CHECK(mprotect((char *)key + 3 * pair, pair, PROT_NONE) == 0, "mprotect");
    else
        printf("note: page size %ld: the fourth pair is garbage but readable\n", page);
    CHECK_STATUS(NTT_OK, ntt_rns_key_check(ctx, n, key, kl), "%s: key_check with pair 3 unreadable",
                 ntt_backend_name(b));

    uint64_t *x = xmalloc(nq * n * 8), *o1 = xmalloc(2 * nq * n * 8), *o2 = xmalloc(2 * nq * n * 8);
    uint64_t *ext = xmalloc(3 * (nq + 1) * n * 8), *acc1 = xmalloc(2 * (nq + 1) * n * 8),
             *acc2 = xmalloc(2 * (nq + 1) * n * 8);
    for (size_t l = 0; l < nq; l++) {
        const size_t e = l + 2, beta = ntt_rns_digits(ctx, l);
        random_rows(x, &o, l + 1, lim);
        CHECK_STATUS(NTT_OK, ntt_rns_keyswitch(ctx, n, l, x, l + 1, ref, kl, o1, o1 + (l + 1) * n, l + 1),
                     "keyswitch, readable key");
        CHECK_STATUS(NTT_OK, ntt_rns_keyswitch(ctx, n, l, x, l + 1, key, kl, o2, o2 + (l + 1) * n, l + 1),
                     "keyswitch, pair 3 unreadable");
        CHECK_ARR64(o1, o2, 2 * (l + 1) * n, "%s l=%zu: keyswitch depends on pair 3", ntt_backend_name(b), l);
        for (size_t j = 0; j < beta; j++) {
            size_t first, cnt;
            CHECK_STATUS(NTT_OK, ntt_rns_digit_range(ctx, l, j, &first, &cnt), "digit_range");
            CHECK_STATUS(NTT_OK, ntt_rns_modup(ctx, n, l, j, x + first * n, cnt, ext + j * e * n, e), "modup");
        }
        CHECK_STATUS(NTT_OK, ntt_rns_ks_inner(ctx, n, l, ext, beta * e, ref, kl, acc1, acc1 + e * n, e),
                     "ks_inner, readable key");
        CHECK_STATUS(NTT_OK, ntt_rns_ks_inner(ctx, n, l, ext, beta * e, key, kl, acc2, acc2 + e * n, e),
                     "ks_inner, pair 3 unreadable");
        CHECK_ARR64(acc1, acc2, 2 * e * n, "%s l=%zu: ks_inner depends on pair 3", ntt_backend_name(b), l);
    }
    if (guard)
        munmap(key, kl * n * 8);
    else
        free(key);
    free(ref), free(lim), free(x), free(o1), free(o2), free(ext), free(acc1), free(acc2);
    oracle_free(&o);
    ntt_rns_destroy(ctx);
}

/* ---- key words >= their prime: outputs still reduced ---------------------------- */

static void check_below(const uint64_t *a, const oracle *o, size_t l, bool ext, const char *what)
{
    const size_t rows = ext ? l + 1 + o->np : l + 1;
    size_t bad = 0;
    for (size_t r = 0; r < rows; r++) {
        const uint64_t q = o->primes[qp(o, l, r)];
        for (size_t k = 0; k < o->n; k++) bad += a[r * o->n + k] >= q;
    }
    CHECK(bad == 0, "%s: %zu output words not below their prime", what, bad);
}

static void test_big_key_words(const uint64_t *pr, const shape *sh, ntt_backend b)
{
    ntt_rns *ctx = make_ctx(pr, sh, b, 1);
    if (!ctx) return;
    oracle o;
    oracle_init(&o, ctx);
    const size_t n = o.n, nl = o.nl, nq = o.nq, kl = 2 * o.dnum * nl, e = nl;
    uint64_t *key = xmalloc(kl * n * 8), *x = xmalloc(nq * n * 8), *out = xmalloc(2 * nq * n * 8);
    uint64_t *ext = xmalloc(nq * e * n * 8), *acc = xmalloc(2 * e * n * 8);
    size_t *lim = xmalloc(nl * sizeof *lim);
    for (size_t r = 0; r < nl; r++) lim[r] = r;
    for (int mode = 0; mode < 3; mode++) {
        for (size_t r = 0; r < kl; r++) {
            const uint64_t q = o.primes[r % nl];
            for (size_t k = 0; k < n; k++) {
                uint64_t *w = &key[r * n + k];
                *w = mode == 0 ? UINT64_MAX : mode == 1 ? rnd64() : q + rnd_below(UINT64_MAX - q);
            }
        }
        CHECK_STATUS(NTT_ERANGE, ntt_rns_key_check(ctx, n, key, kl), "key_check of big words");
        for (size_t l = 0; l < nq; l++) {
            char tag[96];
            snprintf(tag, sizeof tag, "%s N=%zu L+1=%zu dnum=%zu l=%zu key mode %d",
                     ntt_backend_name(b), n, nq, o.dnum, l, mode);
            const size_t el = l + 1 + o.np, beta = ntt_rns_digits(ctx, l);
            random_rows(x, &o, l + 1, lim);
            CHECK_STATUS(NTT_OK, ntt_rns_keyswitch(ctx, n, l, x, l + 1, key, kl, out, out + (l + 1) * n, l + 1),
                         "%s: keyswitch", tag);
            check_below(out, &o, l, false, tag);
            check_below(out + (l + 1) * n, &o, l, false, tag);
            for (size_t j = 0; j < beta; j++) {
                size_t first, cnt;
                CHECK_STATUS(NTT_OK, ntt_rns_digit_range(ctx, l, j, &first, &cnt), "digit_range");
                CHECK_STATUS(NTT_OK, ntt_rns_modup(ctx, n, l, j, x + first * n, cnt, ext + j * el * n, el),
                             "modup");
            }
            CHECK_STATUS(NTT_OK, ntt_rns_ks_inner(ctx, n, l, ext, beta * el, key, kl, acc, acc + el * n, el),
                         "%s: ks_inner", tag);
            check_below(acc, &o, l, true, tag);
            check_below(acc + el * n, &o, l, true, tag);
            /* The outputs are inputs a later call accepts. */
            CHECK_STATUS(NTT_OK, ntt_rns_moddown(ctx, n, l, acc, el, out, l + 1), "%s: moddown of the sums", tag);
        }
    }
    free(key), free(x), free(out), free(ext), free(acc), free(lim);
    oracle_free(&o);
    ntt_rns_destroy(ctx);
}

static void test_env_backend(void)
{
    uint64_t pr[3];
    make_primes(pr, 3, 8, PR_TOP, NULL, 0);
    const ntt_rns_params prm = {.n = 8, .q = pr, .q_count = 2, .p = pr + 2, .p_count = 1, .dnum = 1};
    setenv("NTT_BACKEND", "bogus", 1);
    ntt_rns *ctx = (ntt_rns *)&ctx;
    CHECK_STATUS(NTT_EINVAL, ntt_rns_create(&ctx, &prm), "ntt_rns_create AUTO with NTT_BACKEND=bogus");
    CHECK(ctx == NULL, "a refused context is not NULL");
    CHECK(strstr(ntt_error_detail(), "NTT_BACKEND=\"bogus\" names no backend") != NULL,
          "detail: \"%s\"", ntt_error_detail());
    ntt_rns_params scalar = prm;
    scalar.backend = NTT_BACKEND_SCALAR;
    CHECK_STATUS(NTT_OK, ntt_rns_create(&ctx, &scalar), "a named backend ignores NTT_BACKEND");
    ntt_rns_destroy(ctx);
    unsetenv("NTT_BACKEND");
    CHECK_STATUS(NTT_OK, ntt_rns_create(&ctx, &prm), "ntt_rns_create AUTO");
    ntt_rns_destroy(ctx);
}

int main(void)
{
    test_init("test_rns_contracts");
    unsetenv("NTT_BACKEND");
    for (size_t i = 0; i < sizeof shapes / sizeof shapes[0]; i++) {
        const shape *sh = &shapes[i];
        uint64_t pr[16];
        make_primes(pr, sh->nq + sh->np, sh->n, sh->kind, NULL, 0);
        for (int b = NTT_BACKEND_SCALAR; b < NTT_BACKEND_COUNT; b++) {
            if (b == NTT_BACKEND_CUDA || !ntt_backend_available((ntt_backend)b)) continue;
            test_key_contents(pr, sh, (ntt_backend)b);
            test_big_key_words(pr, sh, (ntt_backend)b);
        }
    }
    for (int b = NTT_BACKEND_SCALAR; b < NTT_BACKEND_COUNT; b++)
        if (b != NTT_BACKEND_CUDA && ntt_backend_available((ntt_backend)b)) test_unread_pairs((ntt_backend)b);
    test_env_backend();
    return test_finish();
}
