/*
 * test_rns: the RNS module (ntt_rns.h) against exact big-integer arithmetic.
 *
 * Each operation is recomputed from its definition with GMP on random
 * inputs: base conversions as the sum of [x_i (B/b_i)^-1]_{b_i} (B/b_i)
 * (and that sum checked to be X + u B, 0 <= u < s, for the CRT value X);
 * modDown and rescale as the exact quotient (X - S) / P of big integers
 * (X reconstructed by CRT), reduced mod each q_i; the inner product as a
 * big sum of products; the key switch as the composition of those oracles.
 * Moving between evaluation and coefficient form uses scalar-backend plans
 * of ntt.h (tested on their own in test_ntt); all other arithmetic of an
 * oracle is GMP's.  Several N (2 .. 2^14), limb counts up to 60, dnum 1..4,
 * primes just below 2^61, at 50 bits, and of random lengths.  Every CPU
 * backend built and usable here must give the same words (those absent are
 * listed as skipped).  Then each documented error, with its exact status
 * and outputs left untouched.
 */
#include "rns_oracle.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

/* ---- configurations ------------------------------------------------------------- */

typedef struct {
    size_t n, nq, np, dnum;
    int kind;
} config;

/* The backends compared: scalar first (the reference the others must
   equal), then each other CPU backend that is built and usable. */
typedef struct {
    ntt_backend be;
    int threads;
} bk;
static const bk all_backends[] = {{NTT_BACKEND_SCALAR, 0}, {NTT_BACKEND_AVX2, 0},
                                  {NTT_BACKEND_AVX512, 0}, {NTT_BACKEND_OPENMP, 2},
                                  {NTT_BACKEND_OPENMP, 3}, {NTT_BACKEND_AUTO, 0}};
static bk backends[COUNT(all_backends)];
static size_t nbackends;

static void pick_backends(void)
{
    for (size_t i = 0; i < COUNT(all_backends); i++) {
        if (!ntt_backend_available(all_backends[i].be)) {
            printf("  backend %s: not available here, skipped\n",
                   ntt_backend_name(all_backends[i].be));
            continue;
        }
        backends[nbackends++] = all_backends[i];
    }
    printf("  comparing %zu backend settings:", nbackends);
    for (size_t i = 0; i < nbackends; i++)
        printf(" %s%s", ntt_backend_name(backends[i].be),
               backends[i].threads ? (backends[i].threads == 2 ? "(2 threads)" : "(3 threads)") : "");
    printf("\n");
}

/* Levels worth testing: the top, one in the middle, 0 and (rescale) 1. */
static size_t pick_levels(size_t nq, size_t *lv)
{
    size_t c = 0;
    lv[c++] = nq - 1;
    if (nq > 2) lv[c++] = 1 + rnd_below(nq - 2);
    if (nq > 1) lv[c++] = 0;
    return c;
}

static void run_config(const config *cf)
{
    uint64_t *q = xmalloc(cf->nq * 8), *p = xmalloc((cf->np + 1) * 8);
    make_primes(q, cf->nq, cf->n, cf->kind, NULL, 0);
    make_primes(p, cf->np, cf->n, cf->kind, q, cf->nq);
    ntt_rns *ctx[COUNT(all_backends)];
    for (size_t b = 0; b < nbackends; b++) {
        const ntt_rns_params prm = {.n = cf->n, .q = q, .q_count = cf->nq, .p = p,
                                    .p_count = cf->np, .dnum = cf->dnum, .backend = backends[b].be,
                                    .threads = backends[b].threads};
        ntt_status s = ntt_rns_create(&ctx[b], &prm);
        CHECK_STATUS(NTT_OK, s, "create N=%zu L+1=%zu K=%zu dnum=%zu backend %s", cf->n, cf->nq,
                     cf->np, cf->dnum, ntt_backend_name(backends[b].be));
        if (s != NTT_OK) {
            for (size_t k = 0; k < b; k++) ntt_rns_destroy(ctx[k]);
            free(q);
            free(p);
            return;
        }
    }
    oracle o;
    oracle_init(&o, ctx[0]);
    const size_t n = cf->n, nl = o.nl, kl = 2 * cf->dnum * nl;
    const int mode = (int)rnd_below(6) == 0 ? 1 + (int)rnd_below(2) : 0; /* extremes now and then */
    char tag[160];
    snprintf(tag, sizeof tag, "N=%zu L+1=%zu K=%zu dnum=%zu %s%s", n, cf->nq, cf->np, cf->dnum,
             cf->kind == PR_TOP ? "61-bit" : cf->kind == PR_50 ? "50-bit" : "mixed",
             mode == 1 ? " all p-1" : mode == 2 ? " near p-1" : "");
    uint64_t *key = xmalloc(kl * n * 8);
    fill_key(key, &o, mode);
    for (size_t b = 0; b < nbackends; b++)
        CHECK_STATUS(cf->np ? NTT_OK : NTT_EINVAL, ntt_rns_key_check(ctx[b], n, key, kl),
                     "%s: key_check", tag);

    /* FastBConv between random disjoint lists, and from all limbs but one
       (more than RNS_CHUNK sources where the context has them). */
    for (int round = 0; round < 2; round++) {
        size_t perm[NTT_RNS_MAX_LIMBS];
        rnd_perm(perm, nl);
        if (nl >= 2) {
            const size_t fs = round ? nl - 1 : 1 + rnd_below(nl - 1), ts = 1 + rnd_below(nl - fs);
            const size_t *from = perm, *to = perm + fs;
            uint64_t *in = xmalloc(fs * n * 8), *exp = xmalloc(ts * n * 8), *got = xmalloc(ts * n * 8);
            for (size_t i = 0; i < fs; i++)
                for (size_t m = 0; m < n; m++)
                    in[i * n + m] = mode == 1 ? o.primes[from[i]] - 1 : rnd_below(o.primes[from[i]]);
            uint64_t *bp = xmalloc(fs * 8);
            for (size_t i = 0; i < fs; i++) bp[i] = o.primes[from[i]];
            bigbase z;
            bigbase_init(&z, bp, fs);
            mpz_t *S = bigvec(n);
            big_conv(S, &z, in, n, "fastbconv oracle");
            for (size_t j = 0; j < ts; j++) big_reduce(exp + j * n, S, n, o.primes[to[j]]);
            for (size_t b = 0; b < nbackends; b++) {
                memset(got, 0xa5, ts * n * 8);
                CHECK_STATUS(NTT_OK, ntt_rns_fastbconv(ctx[b], n, from, fs, in, to, ts, got),
                             "%s: fastbconv", tag);
                CHECK_ARR64(exp, got, ts * n, "%s: fastbconv %zu -> %zu limbs, backend %s vs GMP",
                            tag, fs, ts, ntt_backend_name(backends[b].be));
            }
            bigvec_free(S, n);
            bigbase_clear(&z);
            free(bp);
            free(in);
            free(exp);
            free(got);
        }
    }

    size_t lv[3];
    const size_t nlv = pick_levels(cf->nq, lv);
    for (size_t li = 0; li < nlv; li++) {
        const size_t l = lv[li], e = l + 1 + cf->np, beta = l / o.alpha + 1;
        uint64_t *x = xmalloc((l + 1) * n * 8), *ext = xmalloc(beta * e * n * 8);
        uint64_t *exp = xmalloc(2 * e * n * 8), *got = xmalloc(2 * e * n * 8);
        uint64_t *acc = xmalloc(2 * e * n * 8);
        fill_poly(x, &o, l + 1, l, false, mode);

        if (cf->np > 0) {
            /* modUp of every digit; ext collects the oracle's results. */
            for (size_t j = 0; j < beta; j++) {
                size_t first, s;
                CHECK_STATUS(NTT_OK, ntt_rns_digit_range(ctx[0], l, j, &first, &s), "%s: digit_range", tag);
                ora_modup(&o, l, j, x + first * n, ext + j * e * n);
                for (size_t b = 0; b < nbackends; b++) {
                    memset(got, 0x5a, e * n * 8);
                    CHECK_STATUS(NTT_OK, ntt_rns_modup(ctx[b], n, l, j, x + first * n, s, got, e),
                                 "%s: modup l=%zu j=%zu", tag, l, j);
                    CHECK_ARR64(ext + j * e * n, got, e * n, "%s: modUp l=%zu digit %zu, backend %s vs GMP",
                                tag, l, j, ntt_backend_name(backends[b].be));
                }
            }

            /* The inner product of those digits with the key. */
            ora_inner(&o, l, ext, key, acc, acc + e * n);
            for (size_t b = 0; b < nbackends; b++) {
                memset(got, 0x33, 2 * e * n * 8);
                CHECK_STATUS(NTT_OK, ntt_rns_ks_inner(ctx[b], n, l, ext, beta * e, key, kl, got, got + e * n, e),
                             "%s: ks_inner l=%zu", tag, l);
                CHECK_ARR64(acc, got, 2 * e * n, "%s: inner product l=%zu, backend %s vs GMP", tag, l,
                            ntt_backend_name(backends[b].be));
            }

            /* modDown of both sums: the key switch's expected outputs. */
            ora_moddown(&o, l, acc, exp);
            ora_moddown(&o, l, acc + e * n, exp + (l + 1) * n);
            for (size_t b = 0; b < nbackends; b++) {
                memset(got, 0x11, 2 * e * n * 8);
                CHECK_STATUS(NTT_OK, ntt_rns_moddown(ctx[b], n, l, acc, e, got, l + 1), "%s: moddown", tag);
                CHECK_ARR64(exp, got, (l + 1) * n, "%s: modDown l=%zu, backend %s vs GMP", tag, l,
                            ntt_backend_name(backends[b].be));
                /* In place (out == in). */
                memcpy(got, acc + e * n, e * n * 8);
                CHECK_STATUS(NTT_OK, ntt_rns_moddown(ctx[b], n, l, got, e, got, l + 1), "%s: moddown in place", tag);
                CHECK_ARR64(exp + (l + 1) * n, got, (l + 1) * n, "%s: modDown in place l=%zu, backend %s vs GMP",
                            tag, l, ntt_backend_name(backends[b].be));
                memset(got, 0x77, 2 * e * n * 8);
                CHECK_STATUS(NTT_OK, ntt_rns_keyswitch(ctx[b], n, l, x, l + 1, key, kl, got, got + (l + 1) * n, l + 1),
                             "%s: keyswitch l=%zu", tag, l);
                CHECK_ARR64(exp, got, 2 * (l + 1) * n, "%s: key switch l=%zu, backend %s vs GMP", tag, l,
                            ntt_backend_name(backends[b].be));
            }
        } else {
            size_t first, s;
            CHECK_STATUS(NTT_OK, ntt_rns_digit_range(ctx[0], l, 0, &first, &s), "%s: digit_range", tag);
            CHECK_STATUS(NTT_EINVAL, ntt_rns_modup(ctx[0], n, l, 0, x, s, got, e), "%s: modup without P", tag);
            CHECK_STATUS(NTT_EINVAL, ntt_rns_moddown(ctx[0], n, l, x, e, got, l + 1), "%s: moddown without P", tag);
            CHECK_STATUS(NTT_EINVAL, ntt_rns_keyswitch(ctx[0], n, l, x, l + 1, key, kl, got, got + e * n, l + 1),
                         "%s: keyswitch without P", tag);
            CHECK_STATUS(NTT_EINVAL, ntt_rns_ks_inner(ctx[0], n, l, x, beta * e, key, kl, got, got + e * n, e),
                         "%s: ks_inner without P", tag);
        }

        /* Rescale of x. */
        if (l >= 1) {
            ora_rescale(&o, l, x, exp);
            for (size_t b = 0; b < nbackends; b++) {
                memset(got, 0x22, (l + 1) * n * 8);
                CHECK_STATUS(NTT_OK, ntt_rns_rescale(ctx[b], n, l, x, l + 1, got, l), "%s: rescale", tag);
                CHECK_ARR64(exp, got, l * n, "%s: rescale l=%zu, backend %s vs GMP", tag, l,
                            ntt_backend_name(backends[b].be));
                memcpy(got, x, (l + 1) * n * 8);
                CHECK_STATUS(NTT_OK, ntt_rns_rescale(ctx[b], n, l, got, l + 1, got, l), "%s: rescale in place", tag);
                CHECK_ARR64(exp, got, l * n, "%s: rescale in place l=%zu, backend %s vs GMP", tag, l,
                            ntt_backend_name(backends[b].be));
            }
        }

        /* Limb transforms: the context's forward and inverse are the plans'. */
        {
            size_t *limbs = xmalloc(e * sizeof *limbs);
            for (size_t k = 0; k < e; k++) limbs[k] = qp(&o, l, k);
            fill_poly(acc, &o, e, l, true, mode);
            memcpy(exp, acc, e * n * 8);
            for (size_t k = 0; k < e; k++) o_ntt(&o, limbs[k], exp + k * n, true);
            for (size_t b = 0; b < nbackends; b++) {
                memcpy(got, acc, e * n * 8);
                CHECK_STATUS(NTT_OK, ntt_rns_inverse(ctx[b], n, limbs, e, got), "%s: inverse", tag);
                CHECK_ARR64(exp, got, e * n, "%s: inverse of the extended limbs l=%zu, backend %s", tag,
                            l, ntt_backend_name(backends[b].be));
                CHECK_STATUS(NTT_OK, ntt_rns_forward(ctx[b], n, limbs, e, got), "%s: forward", tag);
                CHECK_ARR64(acc, got, e * n, "%s: forward(inverse) l=%zu, backend %s", tag, l,
                            ntt_backend_name(backends[b].be));
            }
            free(limbs);
        }
        free(x);
        free(ext);
        free(exp);
        free(got);
        free(acc);
    }
    free(key);
    oracle_free(&o);
    for (size_t b = 0; b < nbackends; b++) ntt_rns_destroy(ctx[b]);
    free(q);
    free(p);
}

static void test_configs(void)
{
    static const config fixed[] = {
        {2, 1, 1, 1, PR_TOP},       {4, 2, 1, 2, PR_MIXED},     {16, 3, 2, 2, PR_TOP},
        {1024, 1, 1, 1, PR_TOP},    {1024, 5, 3, 2, PR_MIXED},  {1024, 8, 4, 4, PR_TOP},
        {2048, 13, 5, 3, PR_50},    {4096, 6, 2, 3, PR_MIXED},  {1024, 45, 15, 3, PR_MIXED},
        {1024, 24, 15, 2, PR_TOP},  {1024, 60, 0, 1, PR_TOP},   {1024, 30, 30, 4, PR_MIXED},
        {1024, 10, 1, 1, PR_TOP},   {16384, 4, 2, 2, PR_TOP},
        /* More than 63 sources in one sum (the kernels reduce part way),
           and 66 digits of one limb each. */
        {256, 70, 10, 2, PR_MIXED}, {64, 66, 2, 66, PR_TOP},
    };
    for (size_t i = 0; i < COUNT(fixed); i++) run_config(&fixed[i]);
    /* Random shapes. */
    for (int r = 0; r < 6; r++) {
        config cf;
        cf.n = (size_t)1 << rnd_range(3, 11);
        cf.nq = 1 + rnd_below(20);
        cf.np = rnd_below(8);
        cf.dnum = 1 + rnd_below(cf.nq < 4 ? cf.nq : 4);
        cf.kind = (int)rnd_below(3);
        run_config(&cf);
    }
}

/* Sums of more than 63 products of residues near 2^61 overflow 128 bits
   unless the kernels reduce part way: the inner product of 66 digits,
   every word p - 1. */
static void test_long_sums(void)
{
    const size_t n = 64, nq = 66, np = 2, dnum = 66, nl = nq + np, e = nl, kl = 2 * dnum * nl;
    uint64_t pr[68];
    make_primes(pr, nl, n, PR_TOP, NULL, 0);
    ntt_rns *ctx[COUNT(all_backends)];
    size_t made = 0;
    for (size_t b = 0; b < nbackends; b++) {
        const ntt_rns_params prm = {.n = n, .q = pr, .q_count = nq, .p = pr + nq, .p_count = np,
                                    .dnum = dnum, .backend = backends[b].be,
                                    .threads = backends[b].threads};
        CHECK_STATUS(NTT_OK, ntt_rns_create(&ctx[b], &prm), "long sums: create");
        if (!ctx[b]) break;
        made++;
    }
    if (made == nbackends) {
        oracle o;
        oracle_init(&o, ctx[0]);
        uint64_t *ext = xmalloc(dnum * e * n * 8), *key = xmalloc(kl * n * 8);
        uint64_t *exp = xmalloc(2 * e * n * 8), *got = xmalloc(2 * e * n * 8);
        for (size_t j = 0; j < dnum; j++) fill_poly(ext + j * e * n, &o, e, nq - 1, true, 1);
        fill_key(key, &o, 1);
        ora_inner(&o, nq - 1, ext, key, exp, exp + e * n);
        for (size_t b = 0; b < nbackends; b++) {
            CHECK_STATUS(NTT_OK, ntt_rns_ks_inner(ctx[b], n, nq - 1, ext, dnum * e, key, kl, got,
                                                  got + e * n, e),
                         "long sums: ks_inner");
            CHECK_ARR64(exp, got, 2 * e * n, "inner product of 66 digits, all p-1, backend %s vs GMP",
                        ntt_backend_name(backends[b].be));
        }
        free(ext);
        free(key);
        free(exp);
        free(got);
        oracle_free(&o);
    }
    for (size_t b = 0; b < made; b++) ntt_rns_destroy(ctx[b]);
}

/* ---- errors ------------------------------------------------------------------------ */

static uint64_t *snap;

/* The call must return `expect` and leave buf (bytes) as it was. */
#define EXPECT_UNTOUCHED(expect, call, buf, bytes, ...)                    \
    do {                                                                   \
        memcpy(snap, (buf), (bytes));                                      \
        CHECK_STATUS((expect), (call), __VA_ARGS__);                       \
        CHECK_MEM(snap, (buf), (bytes), __VA_ARGS__);                      \
    } while (0)

static void test_create_errors(void)
{
    const size_t n = 16;
    uint64_t q[4], p[2], big[NTT_RNS_MAX_LIMBS + 1];
    make_primes(q, 4, n, PR_TOP, NULL, 0);
    make_primes(p, 2, n, PR_TOP, q, 4);
    const ntt_rns_params good = {.n = n, .q = q, .q_count = 4, .p = p, .p_count = 2, .dnum = 2};
    ntt_rns *c = (ntt_rns *)&c;
    ntt_rns_params b;
#define CREATE(expect, ...)                                                          \
    do {                                                                             \
        c = (ntt_rns *)&c;                                                           \
        CHECK_STATUS((expect), ntt_rns_create(&c, &b), __VA_ARGS__);                 \
        if ((expect) != NTT_OK) CHECK(c == NULL, "%s: *ctx not NULL after failure", #expect); \
        ntt_rns_destroy((expect) == NTT_OK ? c : NULL);                              \
    } while (0)
    b = good;
    CREATE(NTT_OK, "good parameters");
    CHECK_STATUS(NTT_EINVAL, ntt_rns_create(NULL, &good), "create(NULL ctx)");
    c = (ntt_rns *)&c;
    CHECK_STATUS(NTT_EINVAL, ntt_rns_create(&c, NULL), "create(NULL params)");
    CHECK(c == NULL, "create(NULL params) left *ctx");
    b = good; b.q = NULL; CREATE(NTT_EINVAL, "q NULL");
    b = good; b.q_count = 0; CREATE(NTT_EINVAL, "q_count 0");
    b = good; b.p = NULL; CREATE(NTT_EINVAL, "p NULL with K = 2");
    b = good; b.p = NULL; b.p_count = 0; CREATE(NTT_OK, "p NULL with K = 0");
    static const size_t bad_n[] = {0, 1, 3, 24, (size_t)1 << (NTT_MAX_LOG2_N + 1)};
    for (size_t i = 0; i < COUNT(bad_n); i++) {
        b = good; b.n = bad_n[i]; CREATE(NTT_EINVAL, "N = %zu", bad_n[i]);
    }
    memset(big, 0, sizeof big);
    b = good; b.q = big; b.q_count = NTT_RNS_MAX_LIMBS - 1; b.p = big; b.p_count = 2;
    CREATE(NTT_EINVAL, "L+1+K = NTT_RNS_MAX_LIMBS + 1");
    b = good; b.dnum = 0; CREATE(NTT_EINVAL, "dnum 0");
    b = good; b.dnum = 5; CREATE(NTT_EINVAL, "dnum > L+1");
    b = good; b.dnum = 4; CREATE(NTT_OK, "dnum = L+1");
    b = good; b.backend = (ntt_backend)99; CREATE(NTT_EINVAL, "backend 99");
    b = good; b.threads = -1; CREATE(NTT_EINVAL, "threads -1");
    b = good; b.backend = NTT_BACKEND_SCALAR; b.threads = 2; CREATE(NTT_EINVAL, "scalar with 2 threads");
    b = good; b.backend = NTT_BACKEND_SCALAR; b.threads = 1; CREATE(NTT_OK, "scalar with 1 thread");
    b = good; b.backend = NTT_BACKEND_CUDA;
    CREATE(ntt_backend_available(NTT_BACKEND_CUDA) ? NTT_OK : NTT_EUNSUPPORTED,
           "CUDA (a context for ntt_rns_cuda_*: test_rns_cuda), where a GPU is usable");
    b = good;
    {
        /* The device forms on a CPU context, with valid arguments. */
        ntt_rns *cpu = NULL;
        CHECK_STATUS(NTT_OK, ntt_rns_create(&cpu, &b), "create");
        const size_t lim[1] = {0};
        uint64_t dummy[16] = {0};
        CHECK_STATUS(NTT_EUNSUPPORTED, ntt_rns_cuda_forward(cpu, b.n, lim, 1, dummy, NULL),
                     "ntt_rns_cuda_forward on a CPU context");
        CHECK_EQ(0, (uint64_t)ntt_rns_cuda_last_error(cpu), "cuda_last_error of a CPU context");
        ntt_rns_destroy(cpu);
    }
    static const ntt_backend cpu[] = {NTT_BACKEND_AVX2, NTT_BACKEND_AVX512, NTT_BACKEND_OPENMP};
    for (size_t i = 0; i < COUNT(cpu); i++) {
        b = good; b.backend = cpu[i];
        if (ntt_backend_available(cpu[i])) CREATE(NTT_OK, "backend %s", ntt_backend_name(cpu[i]));
        else CREATE(NTT_EUNSUPPORTED, "backend %s (not available here)", ntt_backend_name(cpu[i]));
    }
    /* Primes. */
    uint64_t q2[4], p2[2], above;
    CHECK_STATUS(NTT_OK, ntt_find_prime(62, 5, 0, &above), "find_prime(62)");
    const uint64_t badp[] = {33 /* 3*11, = 1 mod 32 */, 1000000007 /* 32 does not divide p-1 */,
                             above /* >= 2^61 */, 2, 0, 1};
    for (size_t i = 0; i < COUNT(badp); i++) {
        memcpy(q2, q, sizeof q);
        q2[2] = badp[i];
        b = good; b.q = q2; CREATE(NTT_EMODULUS, "q_2 = %" PRIu64, badp[i]);
        memcpy(p2, p, sizeof p);
        p2[1] = badp[i];
        b = good; b.p = p2; CREATE(NTT_EMODULUS, "p_1 = %" PRIu64, badp[i]);
    }
    memcpy(q2, q, sizeof q); q2[3] = q2[0];
    b = good; b.q = q2; CREATE(NTT_EMODULUS, "a prime twice in Q");
    memcpy(p2, p, sizeof p); p2[1] = p2[0];
    b = good; b.p = p2; CREATE(NTT_EMODULUS, "a prime twice in P");
    memcpy(p2, p, sizeof p); p2[1] = q[2];
    b = good; b.p = p2; CREATE(NTT_EMODULUS, "a prime in both Q and P");
#undef CREATE
    /* Queries on NULL. */
    CHECK_EQ(0, ntt_rns_n(NULL), "n(NULL)");
    CHECK_EQ(0, ntt_rns_q_count(NULL), "q_count(NULL)");
    CHECK_EQ(0, ntt_rns_p_count(NULL), "p_count(NULL)");
    CHECK_EQ(0, ntt_rns_dnum(NULL), "dnum(NULL)");
    CHECK_EQ(0, ntt_rns_alpha(NULL), "alpha(NULL)");
    CHECK_EQ(0, ntt_rns_digits(NULL, 0), "digits(NULL)");
    CHECK_EQ(0, ntt_rns_primes(NULL, NULL), "primes(NULL)");
    CHECK_EQ(0, ntt_rns_threads(NULL), "threads(NULL)");
    CHECK_EQ(NTT_BACKEND_AUTO, ntt_rns_backend(NULL), "backend(NULL)");
    ntt_rns_destroy(NULL);
}

static void test_op_errors(void)
{
    const size_t n = 16, nq = 5, np = 2, nl = nq + np, dnum = 2; /* alpha 3 */
    uint64_t pr[7];
    make_primes(pr, nl, n, PR_TOP, NULL, 0);
    const ntt_rns_params prm = {.n = n, .q = pr, .q_count = nq, .p = pr + nq, .p_count = np,
                                .dnum = dnum, .backend = NTT_BACKEND_SCALAR};
    ntt_rns *c;
    CHECK_STATUS(NTT_OK, ntt_rns_create(&c, &prm), "create for the error tests");
    if (!c) return;
    oracle o;
    oracle_init(&o, c);
    /* Queries. */
    CHECK_EQ(n, ntt_rns_n(c), "n");
    CHECK_EQ(nq, ntt_rns_q_count(c), "q_count");
    CHECK_EQ(np, ntt_rns_p_count(c), "p_count");
    CHECK_EQ(dnum, ntt_rns_dnum(c), "dnum");
    CHECK_EQ(3, ntt_rns_alpha(c), "alpha");
    CHECK_EQ(2, ntt_rns_digits(c, 4), "digits(4)");
    CHECK_EQ(1, ntt_rns_digits(c, 2), "digits(2)");
    CHECK_EQ(2, ntt_rns_digits(c, 3), "digits(3)");
    CHECK_EQ(0, ntt_rns_digits(c, 5), "digits(5)");
    CHECK_EQ(NTT_BACKEND_SCALAR, ntt_rns_backend(c), "backend");
    CHECK_EQ(1, ntt_rns_threads(c), "threads");
    const uint64_t *cp;
    CHECK_EQ(nl, ntt_rns_primes(c, &cp), "primes");
    CHECK_MEM(pr, cp, sizeof pr, "primes: Q then P");
    size_t f, s;
    CHECK_STATUS(NTT_OK, ntt_rns_digit_range(c, 4, 1, &f, &s), "digit_range(4, 1)");
    CHECK(f == 3 && s == 2, "digit_range(4, 1) = %zu, %zu (3, 2)", f, s);
    CHECK_STATUS(NTT_OK, ntt_rns_digit_range(c, 2, 0, &f, &s), "digit_range(2, 0)");
    CHECK(f == 0 && s == 3, "digit_range(2, 0) = %zu, %zu (0, 3)", f, s);
    CHECK_STATUS(NTT_EINVAL, ntt_rns_digit_range(c, 5, 0, &f, &s), "digit_range level 5");
    CHECK_STATUS(NTT_EINVAL, ntt_rns_digit_range(c, 2, 1, &f, &s), "digit_range digit 1 at level 2");
    CHECK_STATUS(NTT_EINVAL, ntt_rns_digit_range(c, 4, 0, NULL, &s), "digit_range NULL first");
    CHECK_STATUS(NTT_EINVAL, ntt_rns_digit_range(c, 4, 0, &f, NULL), "digit_range NULL count");
    CHECK_STATUS(NTT_EINVAL, ntt_rns_digit_range(NULL, 4, 0, &f, &s), "digit_range NULL ctx");

    const size_t L = nq - 1, e = nq + np, kl = 2 * dnum * nl, W = n * 8;
    uint64_t *x = xmalloc(e * W), *ext = xmalloc(2 * e * W), *key = xmalloc(kl * W);
    uint64_t *out = xmalloc(4 * e * W);
    snap = xmalloc(4 * e * W);
    fill_poly(x, &o, e, L, true, 0);
    fill_poly(ext, &o, e, L, true, 0);
    fill_poly(ext + e * n, &o, e, L, true, 0);
    fill_key(key, &o, 0);
    const size_t OB = 4 * e * W; /* the whole out buffer */
    memset(out, 0xee, OB);

    /* modUp: digit 1 at level 4 is limbs 3, 4. */
    const uint64_t *d1 = x + 3 * n;
    EXPECT_UNTOUCHED(NTT_OK, ntt_rns_modup(c, n, L, 1, d1, 2, out, e), out, 0, "modup good");
    memset(out, 0xee, OB);
    EXPECT_UNTOUCHED(NTT_EINVAL, ntt_rns_modup(NULL, n, L, 1, d1, 2, out, e), out, OB, "modup NULL ctx");
    EXPECT_UNTOUCHED(NTT_EINVAL, ntt_rns_modup(c, 2 * n, L, 1, d1, 2, out, e), out, OB, "modup N mismatch");
    EXPECT_UNTOUCHED(NTT_EINVAL, ntt_rns_modup(c, n, L + 1, 1, d1, 2, out, e + 1), out, OB, "modup level > L");
    EXPECT_UNTOUCHED(NTT_EINVAL, ntt_rns_modup(c, n, L, 2, d1, 2, out, e), out, OB, "modup digit >= beta");
    EXPECT_UNTOUCHED(NTT_EINVAL, ntt_rns_modup(c, n, 2, 1, d1, 2, out, 3 + np), out, OB, "modup digit 1 at level 2");
    EXPECT_UNTOUCHED(NTT_EINVAL, ntt_rns_modup(c, n, L, 1, NULL, 2, out, e), out, OB, "modup NULL in");
    EXPECT_UNTOUCHED(NTT_EINVAL, ntt_rns_modup(c, n, L, 1, d1, 2, NULL, e), out, OB, "modup NULL out");
    EXPECT_UNTOUCHED(NTT_EINVAL, ntt_rns_modup(c, n, L, 1, d1, 3, out, e), out, OB, "modup in_limbs 3 for a digit of 2");
    EXPECT_UNTOUCHED(NTT_EINVAL, ntt_rns_modup(c, n, L, 1, d1, 2, out, e - 1), out, OB, "modup out_limbs");
    memcpy(out, x, e * W);
    EXPECT_UNTOUCHED(NTT_EINVAL, ntt_rns_modup(c, n, L, 1, out + 3 * n, 2, out, e), out, OB, "modup out overlapping in");
    memcpy(out + e * n, d1, 2 * W);
    out[e * n + n + 7] = pr[4];
    EXPECT_UNTOUCHED(NTT_ERANGE, ntt_rns_modup(c, n, L, 1, out + e * n, 2, out + 3 * e * n, e), out, OB, "modup input = its prime");
    memset(out, 0xee, OB);

    /* modDown. */
    EXPECT_UNTOUCHED(NTT_OK, ntt_rns_moddown(c, n, L, x, e, out, nq), out, 0, "moddown good");
    memset(out, 0xee, OB);
    EXPECT_UNTOUCHED(NTT_EINVAL, ntt_rns_moddown(NULL, n, L, x, e, out, nq), out, OB, "moddown NULL ctx");
    EXPECT_UNTOUCHED(NTT_EINVAL, ntt_rns_moddown(c, n / 2, L, x, e, out, nq), out, OB, "moddown N mismatch");
    EXPECT_UNTOUCHED(NTT_EINVAL, ntt_rns_moddown(c, n, L + 1, x, e + 1, out, nq + 1), out, OB, "moddown level > L");
    EXPECT_UNTOUCHED(NTT_EINVAL, ntt_rns_moddown(c, n, L, NULL, e, out, nq), out, OB, "moddown NULL in");
    EXPECT_UNTOUCHED(NTT_EINVAL, ntt_rns_moddown(c, n, L, x, e, NULL, nq), out, OB, "moddown NULL out");
    EXPECT_UNTOUCHED(NTT_EINVAL, ntt_rns_moddown(c, n, L, x, e - 1, out, nq), out, OB, "moddown in_limbs");
    EXPECT_UNTOUCHED(NTT_EINVAL, ntt_rns_moddown(c, n, L, x, e, out, nq - 1), out, OB, "moddown out_limbs");
    EXPECT_UNTOUCHED(NTT_EINVAL, ntt_rns_moddown(c, n, L - 1, x, e, out, nq), out, OB, "moddown limbs of another level");
    memcpy(out, x, e * W);
    EXPECT_UNTOUCHED(NTT_EINVAL, ntt_rns_moddown(c, n, L, out, e, out + n, nq), out, OB, "moddown out overlapping in, not exactly");
    out[(e - 1) * n + 3] = pr[nl - 1];
    EXPECT_UNTOUCHED(NTT_ERANGE, ntt_rns_moddown(c, n, L, out, e, out, nq), out, OB, "moddown P input = its prime (in place)");
    memset(out, 0xee, OB);

    /* Rescale. */
    EXPECT_UNTOUCHED(NTT_OK, ntt_rns_rescale(c, n, L, x, nq, out, nq - 1), out, 0, "rescale good");
    memset(out, 0xee, OB);
    EXPECT_UNTOUCHED(NTT_EINVAL, ntt_rns_rescale(NULL, n, L, x, nq, out, nq - 1), out, OB, "rescale NULL ctx");
    EXPECT_UNTOUCHED(NTT_EINVAL, ntt_rns_rescale(c, 4 * n, L, x, nq, out, nq - 1), out, OB, "rescale N mismatch");
    EXPECT_UNTOUCHED(NTT_EINVAL, ntt_rns_rescale(c, n, 0, x, 1, out, 0), out, OB, "rescale level 0");
    EXPECT_UNTOUCHED(NTT_EINVAL, ntt_rns_rescale(c, n, L + 1, x, nq + 1, out, nq), out, OB, "rescale level > L");
    EXPECT_UNTOUCHED(NTT_EINVAL, ntt_rns_rescale(c, n, L, NULL, nq, out, nq - 1), out, OB, "rescale NULL in");
    EXPECT_UNTOUCHED(NTT_EINVAL, ntt_rns_rescale(c, n, L, x, nq, NULL, nq - 1), out, OB, "rescale NULL out");
    EXPECT_UNTOUCHED(NTT_EINVAL, ntt_rns_rescale(c, n, L, x, nq - 1, out, nq - 1), out, OB, "rescale in_limbs");
    EXPECT_UNTOUCHED(NTT_EINVAL, ntt_rns_rescale(c, n, L, x, nq, out, nq), out, OB, "rescale out_limbs");
    memcpy(out, x, nq * W);
    EXPECT_UNTOUCHED(NTT_EINVAL, ntt_rns_rescale(c, n, L, out + n, nq, out, nq - 1), out, OB, "rescale out overlapping in");
    out[L * n] = pr[L];
    EXPECT_UNTOUCHED(NTT_ERANGE, ntt_rns_rescale(c, n, L, out, nq, out, nq - 1), out, OB, "rescale input = its prime");
    memset(out, 0xee, OB);

    /* Inner product (beta 2 at level L). */
    uint64_t *a0 = out, *a1 = out + e * n;
    EXPECT_UNTOUCHED(NTT_OK, ntt_rns_ks_inner(c, n, L, ext, 2 * e, key, kl, a0, a1, e), out, 0, "ks_inner good");
    memset(out, 0xee, OB);
    EXPECT_UNTOUCHED(NTT_EINVAL, ntt_rns_ks_inner(NULL, n, L, ext, 2 * e, key, kl, a0, a1, e), out, OB, "ks_inner NULL ctx");
    EXPECT_UNTOUCHED(NTT_EINVAL, ntt_rns_ks_inner(c, n + 1, L, ext, 2 * e, key, kl, a0, a1, e), out, OB, "ks_inner N mismatch");
    EXPECT_UNTOUCHED(NTT_EINVAL, ntt_rns_ks_inner(c, n, L + 1, ext, 2 * e, key, kl, a0, a1, e), out, OB, "ks_inner level > L");
    EXPECT_UNTOUCHED(NTT_EINVAL, ntt_rns_ks_inner(c, n, L, NULL, 2 * e, key, kl, a0, a1, e), out, OB, "ks_inner NULL ext");
    EXPECT_UNTOUCHED(NTT_EINVAL, ntt_rns_ks_inner(c, n, L, ext, 2 * e, NULL, kl, a0, a1, e), out, OB, "ks_inner NULL key");
    EXPECT_UNTOUCHED(NTT_EINVAL, ntt_rns_ks_inner(c, n, L, ext, 2 * e, key, kl, NULL, a1, e), out, OB, "ks_inner NULL acc0");
    EXPECT_UNTOUCHED(NTT_EINVAL, ntt_rns_ks_inner(c, n, L, ext, 2 * e, key, kl, a0, NULL, e), out, OB, "ks_inner NULL acc1");
    EXPECT_UNTOUCHED(NTT_EINVAL, ntt_rns_ks_inner(c, n, L, ext, e, key, kl, a0, a1, e), out, OB, "ks_inner ext of one digit at a level of two");
    EXPECT_UNTOUCHED(NTT_EINVAL, ntt_rns_ks_inner(c, n, L, ext, 2 * e, key, kl - nl, a0, a1, e), out, OB, "ks_inner key_limbs");
    EXPECT_UNTOUCHED(NTT_EINVAL, ntt_rns_ks_inner(c, n, L, ext, 2 * e, key, kl, a0, a1, e - 1), out, OB, "ks_inner acc_limbs");
    EXPECT_UNTOUCHED(NTT_EINVAL, ntt_rns_ks_inner(c, n, L, ext, 2 * e, key, kl, a0, a0 + n, e), out, OB, "ks_inner acc1 overlapping acc0");
    EXPECT_UNTOUCHED(NTT_EINVAL, ntt_rns_ks_inner(c, n, L, ext, 2 * e, key, kl, a0, a0, e), out, OB, "ks_inner acc1 == acc0");
    memcpy(out + 2 * e * n, ext, 2 * e * W);
    EXPECT_UNTOUCHED(NTT_EINVAL, ntt_rns_ks_inner(c, n, L, out + 2 * e * n, 2 * e, key, kl, a0, out + 3 * e * n, e), out, OB, "ks_inner acc1 overlapping ext");
    EXPECT_UNTOUCHED(NTT_EINVAL, ntt_rns_ks_inner(c, n, L, ext, 2 * e, key, kl, a0, key + 3 * n, e), key, kl * W, "ks_inner acc1 overlapping key");
    out[2 * e * n + (e + nq) * n + 1] = pr[nq]; /* digit 1, limb p_0 */
    EXPECT_UNTOUCHED(NTT_ERANGE, ntt_rns_ks_inner(c, n, L, out + 2 * e * n, 2 * e, key, kl, a0, a1, e), out, OB, "ks_inner ext = its prime");
    memset(out, 0xee, OB);

    /* The whole key switch. */
    uint64_t *o0 = out, *o1 = out + nq * n;
    EXPECT_UNTOUCHED(NTT_OK, ntt_rns_keyswitch(c, n, L, x, nq, key, kl, o0, o1, nq), out, 0, "keyswitch good");
    memset(out, 0xee, OB);
    EXPECT_UNTOUCHED(NTT_EINVAL, ntt_rns_keyswitch(NULL, n, L, x, nq, key, kl, o0, o1, nq), out, OB, "keyswitch NULL ctx");
    EXPECT_UNTOUCHED(NTT_EINVAL, ntt_rns_keyswitch(c, n * 2, L, x, nq, key, kl, o0, o1, nq), out, OB, "keyswitch N mismatch");
    EXPECT_UNTOUCHED(NTT_EINVAL, ntt_rns_keyswitch(c, n, L + 1, x, nq + 1, key, kl, o0, o1, nq + 1), out, OB, "keyswitch level > L");
    EXPECT_UNTOUCHED(NTT_EINVAL, ntt_rns_keyswitch(c, n, L, NULL, nq, key, kl, o0, o1, nq), out, OB, "keyswitch NULL in");
    EXPECT_UNTOUCHED(NTT_EINVAL, ntt_rns_keyswitch(c, n, L, x, nq, NULL, kl, o0, o1, nq), out, OB, "keyswitch NULL key");
    EXPECT_UNTOUCHED(NTT_EINVAL, ntt_rns_keyswitch(c, n, L, x, nq, key, kl, NULL, o1, nq), out, OB, "keyswitch NULL out0");
    EXPECT_UNTOUCHED(NTT_EINVAL, ntt_rns_keyswitch(c, n, L, x, nq, key, kl, o0, NULL, nq), out, OB, "keyswitch NULL out1");
    EXPECT_UNTOUCHED(NTT_EINVAL, ntt_rns_keyswitch(c, n, L, x, nq - 1, key, kl, o0, o1, nq), out, OB, "keyswitch in_limbs");
    EXPECT_UNTOUCHED(NTT_EINVAL, ntt_rns_keyswitch(c, n, L, x, nq, key, kl + 1, o0, o1, nq), out, OB, "keyswitch key_limbs");
    EXPECT_UNTOUCHED(NTT_EINVAL, ntt_rns_keyswitch(c, n, L, x, nq, key, kl, o0, o1, nq + np), out, OB, "keyswitch out_limbs (extended)");
    EXPECT_UNTOUCHED(NTT_EINVAL, ntt_rns_keyswitch(c, n, L, x, nq, key, kl, o0, o0 + n, nq), out, OB, "keyswitch out1 overlapping out0");
    memcpy(out + 2 * nq * n, x, nq * W);
    EXPECT_UNTOUCHED(NTT_EINVAL, ntt_rns_keyswitch(c, n, L, out + 2 * nq * n, nq, key, kl, o0, out + 2 * nq * n, nq), out, OB, "keyswitch out1 == in");
    EXPECT_UNTOUCHED(NTT_EINVAL, ntt_rns_keyswitch(c, n, L, x, nq, key, kl, key + n, o1, nq), key, kl * W, "keyswitch out0 overlapping key");
    out[2 * nq * n + 2 * n] = pr[2];
    EXPECT_UNTOUCHED(NTT_ERANGE, ntt_rns_keyswitch(c, n, L, out + 2 * nq * n, nq, key, kl, o0, o1, nq), out, OB, "keyswitch input = its prime (first digit)");
    memcpy(out + 2 * nq * n, x, nq * W);
    out[2 * nq * n + L * n + n - 1] = pr[L];
    EXPECT_UNTOUCHED(NTT_ERANGE, ntt_rns_keyswitch(c, n, L, out + 2 * nq * n, nq, key, kl, o0, o1, nq), out, OB, "keyswitch input = its prime (last word of the last digit)");
    memset(out, 0xee, OB);

    /* Keys are not scanned: an out-of-range key gives some result, no error. */
    uint64_t *badkey = xmalloc(kl * W);
    memset(badkey, 0xff, kl * W);
    CHECK_STATUS(NTT_OK, ntt_rns_keyswitch(c, n, L, x, nq, badkey, kl, o0, o1, nq), "keyswitch with key words 2^64-1");
    CHECK_STATUS(NTT_ERANGE, ntt_rns_key_check(c, n, badkey, kl), "key_check of key words 2^64-1");
    memcpy(badkey, key, kl * W);
    badkey[(kl - 1) * n + n - 1] = pr[nl - 1];
    CHECK_STATUS(NTT_ERANGE, ntt_rns_key_check(c, n, badkey, kl), "key_check of the last word = its prime");
    CHECK_STATUS(NTT_OK, ntt_rns_key_check(c, n, key, kl), "key_check good");
    CHECK_STATUS(NTT_EINVAL, ntt_rns_key_check(c, n, key, kl - 1), "key_check key_limbs");
    CHECK_STATUS(NTT_EINVAL, ntt_rns_key_check(c, n / 2, key, kl), "key_check N mismatch");
    CHECK_STATUS(NTT_EINVAL, ntt_rns_key_check(c, n, NULL, kl), "key_check NULL key");
    CHECK_STATUS(NTT_EINVAL, ntt_rns_key_check(NULL, n, key, kl), "key_check NULL ctx");
    free(badkey);

    /* FastBConv. */
    const size_t from[] = {1, 5, 2}, to[] = {0, 6, 3, 4};
    uint64_t fin[3 * 16];
    for (size_t k = 0; k < 3; k++) rnd_fill64(fin + k * n, n, pr[from[k]]);
    EXPECT_UNTOUCHED(NTT_OK, ntt_rns_fastbconv(c, n, from, 3, fin, to, 4, out), out, 0, "fastbconv good");
    memset(out, 0xee, OB);
    EXPECT_UNTOUCHED(NTT_EINVAL, ntt_rns_fastbconv(NULL, n, from, 3, fin, to, 4, out), out, OB, "fastbconv NULL ctx");
    EXPECT_UNTOUCHED(NTT_EINVAL, ntt_rns_fastbconv(c, 2 * n, from, 3, fin, to, 4, out), out, OB, "fastbconv N mismatch");
    EXPECT_UNTOUCHED(NTT_EINVAL, ntt_rns_fastbconv(c, n, NULL, 3, fin, to, 4, out), out, OB, "fastbconv NULL from");
    EXPECT_UNTOUCHED(NTT_EINVAL, ntt_rns_fastbconv(c, n, from, 3, NULL, to, 4, out), out, OB, "fastbconv NULL in");
    EXPECT_UNTOUCHED(NTT_EINVAL, ntt_rns_fastbconv(c, n, from, 3, fin, NULL, 4, out), out, OB, "fastbconv NULL to");
    EXPECT_UNTOUCHED(NTT_EINVAL, ntt_rns_fastbconv(c, n, from, 3, fin, to, 4, NULL), out, OB, "fastbconv NULL out");
    EXPECT_UNTOUCHED(NTT_EINVAL, ntt_rns_fastbconv(c, n, from, 0, fin, to, 4, out), out, OB, "fastbconv from_count 0");
    EXPECT_UNTOUCHED(NTT_EINVAL, ntt_rns_fastbconv(c, n, from, 3, fin, to, 0, out), out, OB, "fastbconv to_count 0");
    const size_t from_big[] = {1, 7, 2}, from_dup[] = {1, 5, 1}, to_dup[] = {0, 6, 0, 4}, to_shared[] = {0, 6, 5, 4};
    EXPECT_UNTOUCHED(NTT_EINVAL, ntt_rns_fastbconv(c, n, from_big, 3, fin, to, 4, out), out, OB, "fastbconv limb index > L+K");
    EXPECT_UNTOUCHED(NTT_EINVAL, ntt_rns_fastbconv(c, n, from_dup, 3, fin, to, 4, out), out, OB, "fastbconv a limb twice in the source base");
    EXPECT_UNTOUCHED(NTT_EINVAL, ntt_rns_fastbconv(c, n, from, 3, fin, to_dup, 4, out), out, OB, "fastbconv a limb twice in the target base");
    EXPECT_UNTOUCHED(NTT_EINVAL, ntt_rns_fastbconv(c, n, from, 3, fin, to_shared, 4, out), out, OB, "fastbconv a limb in both bases");
    memcpy(out, fin, 3 * W);
    EXPECT_UNTOUCHED(NTT_EINVAL, ntt_rns_fastbconv(c, n, from, 3, out, to, 4, out + 2 * n), out, OB, "fastbconv out overlapping in");
    out[2 * n + 9] = pr[2]; /* from[2] = limb 2 */
    EXPECT_UNTOUCHED(NTT_ERANGE, ntt_rns_fastbconv(c, n, from, 3, out, to, 4, out + 3 * n), out, OB, "fastbconv input = its prime");
    memset(out, 0xee, OB);

    /* Limb transforms. */
    const size_t lim[] = {6, 0, 3}, lim_big[] = {6, 0, 9}, lim_dup[] = {6, 0, 6};
    memcpy(out, x, 3 * W);
    for (size_t k = 0; k < 3; k++) rnd_fill64(out + k * n, n, pr[lim[k]]);
    CHECK_STATUS(NTT_OK, ntt_rns_forward(c, n, lim, 3, out), "forward good");
    CHECK_STATUS(NTT_OK, ntt_rns_inverse(c, n, lim, 3, out), "inverse good");
    EXPECT_UNTOUCHED(NTT_EINVAL, ntt_rns_forward(NULL, n, lim, 3, out), out, OB, "forward NULL ctx");
    EXPECT_UNTOUCHED(NTT_EINVAL, ntt_rns_inverse(c, 2 * n, lim, 3, out), out, OB, "inverse N mismatch");
    EXPECT_UNTOUCHED(NTT_EINVAL, ntt_rns_forward(c, n, NULL, 3, out), out, OB, "forward NULL limbs");
    EXPECT_UNTOUCHED(NTT_EINVAL, ntt_rns_forward(c, n, lim, 3, NULL), out, OB, "forward NULL a");
    EXPECT_UNTOUCHED(NTT_EINVAL, ntt_rns_forward(c, n, lim, 0, out), out, OB, "forward count 0");
    EXPECT_UNTOUCHED(NTT_EINVAL, ntt_rns_inverse(c, n, lim_big, 3, out), out, OB, "inverse limb index > L+K");
    EXPECT_UNTOUCHED(NTT_EINVAL, ntt_rns_forward(c, n, lim_dup, 3, out), out, OB, "forward a limb twice");
    out[n + 4] = pr[0];
    EXPECT_UNTOUCHED(NTT_ERANGE, ntt_rns_forward(c, n, lim, 3, out), out, OB, "forward input = its prime");
    EXPECT_UNTOUCHED(NTT_ERANGE, ntt_rns_inverse(c, n, lim, 3, out), out, OB, "inverse input = its prime");

    free(x);
    free(ext);
    free(key);
    free(out);
    free(snap);
    oracle_free(&o);
    ntt_rns_destroy(c);
}

int main(void)
{
    test_init("test_rns");
    pick_backends();
    test_create_errors();
    test_op_errors();
    test_long_sums();
    test_configs();
    return test_finish();
}
