/* ntt-bench field: big prime fields (include/ntt_field.h, issue 59), one
   thread.  The forward NTT at n = 2^10 .. 2^20 for BN254 r, BLS12-381 r
   and a 1024-bit prime (the smallest p = 2^1023 + k 2^32 + 1, found here
   with GMP), wall and thread CPU time per point; every row checked first
   (the round trip, and two outputs against a GMP evaluation of the input
   polynomial at the plan's root).  Then the field multiplication: the
   library's (a Montgomery-form pointwise product of 2^12 elements) against
   GMP's mpn_mul_n followed by a word-by-word Montgomery reduction
   (mpn_addmul_1), on the same operands, checked equal, alternated. */
#include "ntt_field.h"

#include "bench.h"
#include "cli.h"
#include "sysinfo.h"

#include <gmp.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double clock_ns(clockid_t id)
{
    struct timespec t;
    clock_gettime(id, &t);
    return (double)t.tv_sec * 1e9 + (double)t.tv_nsec;
}

static int cmp_d(const void *x, const void *y)
{
    const double a = *(const double *)x, b = *(const double *)y;
    return a < b ? -1 : a > b;
}

static double median(double *v, int k)
{
    qsort(v, (size_t)k, sizeof(double), cmp_d);
    return v[k / 2];
}

static void usage(FILE *f)
{
    fputs("usage: ntt-bench field [--reps R] [--max-log L] [--quick] [--json FILE]\n"
          "  one thread: the forward NTT of 2^10 .. 2^L points (default L = 20;\n"
          "  --quick: 16) over BN254 r, BLS12-381 r and a 1024-bit prime, wall and\n"
          "  thread CPU time per point, every row checked; then the time per field\n"
          "  multiplication against GMP's mpn_mul_n + Montgomery reduction.\n"
          "  --reps R      samples per row (default 7; --quick: 3)\n"
          "  --json FILE   the rows with their medians\n",
          f);
}

static void to_mpz(mpz_t z, const uint64_t *x, size_t w) { mpz_import(z, w, -1, 8, 0, 0, x); }

/* Elements below p from a xorshift stream. */
static void fill(uint64_t *a, size_t count, const uint64_t *p, size_t w, uint64_t seed)
{
    uint64_t s = seed | 1;
    for (size_t i = 0; i < count * w; i++) {
        s ^= s << 13, s ^= s >> 7, s ^= s << 17;
        a[i] = s;
    }
    for (size_t i = 0; i < count; i++) a[i * w + w - 1] %= p[w - 1];
}

static size_t brv(size_t x, unsigned bits)
{
    size_t r = 0;
    for (unsigned i = 0; i < bits; i++, x >>= 1) r = (r << 1) | (x & 1);
    return r;
}

/* The forward transform's output k against A(r^brv(k)) in GMP. */
static bool spot_check(const uint64_t *in, const uint64_t *out, size_t n, unsigned lg, size_t w,
                       const uint64_t *pw, const uint64_t *rw, size_t k)
{
    mpz_t p, r, x, acc, c;
    mpz_inits(p, r, x, acc, c, NULL);
    to_mpz(p, pw, w);
    to_mpz(r, rw, w);
    mpz_powm_ui(x, r, brv(k, lg), p);
    for (size_t i = n; i-- > 0;) {
        mpz_mul(acc, acc, x);
        to_mpz(c, in + i * w, w);
        mpz_add(acc, acc, c);
        mpz_mod(acc, acc, p);
    }
    to_mpz(c, out + k * w, w);
    const bool ok = mpz_cmp(acc, c) == 0;
    mpz_clears(p, r, x, acc, c, NULL);
    return ok;
}

/* GMP's Montgomery product: t = a b (mpn_mul_n), then w steps of
   t += (t_i (-p^-1) mod 2^64) p 2^(64 i) (mpn_addmul_1), the top half,
   one conditional subtraction: a b R^-1 mod p, as the library's. */
static void gmp_mont(mp_limb_t *r, const mp_limb_t *a, const mp_limb_t *b, const mp_limb_t *p,
                     mp_limb_t pinv, mp_size_t w, mp_limb_t *t)
{
    mpn_mul_n(t, a, b, w);
    mp_limb_t hi = 0;
    for (mp_size_t i = 0; i < w; i++) {
        const mp_limb_t m = t[i] * pinv;
        const mp_limb_t c = mpn_addmul_1(t + i, p, w, m);
        hi += mpn_add_1(t + i + w, t + i + w, w - i, c);
    }
    if (hi || mpn_cmp(t + w, p, w) >= 0) mpn_sub_n(r, t + w, p, w);
    else mpn_copyi(r, t + w, w);
}

int bench_field(int argc, char **argv)
{
    static const char cmd[] = "ntt-bench field";
    uint64_t reps64 = 7, maxlog = 20;
    const char *json = NULL;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        int r;
        if (cli_is_help(a)) {
            usage(stdout);
            return EXIT_OK;
        } else if (!strcmp(a, "--quick")) {
            reps64 = 3;
            maxlog = 16;
        } else if ((r = cli_number_option(cmd, argc, argv, &i, "--reps", 1, 99, &reps64)) != 0 ||
                   (r = cli_number_option(cmd, argc, argv, &i, "--max-log", 10, 24, &maxlog)) != 0 ||
                   (r = cli_file_option(cmd, argc, argv, &i, "--json", NULL, &json)) != 0) {
            if (r < 0) return EXIT_USAGE;
        } else {
            return cli_unknown_option(cmd, a);
        }
    }
    const int reps = (int)reps64;

    /* The fields: two presets and the 1024-bit prime. */
    ntt_field *F[3] = {NULL, NULL, NULL};
    const char *names[3] = {"bn254-r", "bls12-381-r", "p1024"};
    int rc = 0;
    if (ntt_field_create_preset(&F[0], NTT_FIELD_BN254_R) != NTT_OK ||
        ntt_field_create_preset(&F[1], NTT_FIELD_BLS12_381_R) != NTT_OK) {
        fprintf(stderr, "%s: presets: %s\n", cmd, ntt_error_detail());
        return 1;
    }
    {
        mpz_t p;
        mpz_init(p);
        for (unsigned long k = 1;; k++) {
            mpz_set_ui(p, k);
            mpz_mul_2exp(p, p, 32);
            mpz_setbit(p, 1023);
            mpz_add_ui(p, p, 1);
            if (mpz_probab_prime_p(p, 30)) break;
        }
        uint64_t pw[16] = {0};
        size_t cnt = 0;
        mpz_export(pw, &cnt, -1, 8, 0, 0, p);
        mpz_clear(p);
        if (ntt_field_create(&F[2], pw, 16) != NTT_OK) {
            fprintf(stderr, "%s: the 1024-bit prime: %s\n", cmd, ntt_error_detail());
            rc = 1;
            goto out;
        }
    }

    FILE *jf = json ? fopen(json, "w") : NULL;
    if (json && !jf) {
        fprintf(stderr, "%s: cannot write %s\n", cmd, json);
        rc = 1;
        goto out;
    }
    sysinfo si;
    sysinfo_read(&si);
    if (jf) {
        fputs("{\n", jf);
        sysinfo_json(jf, &si, "  ");
        fprintf(jf, ",\n  \"reps\": %d,\n  \"forward\": [\n", reps);
    }
    printf("# %s; one thread; forward NTT, medians of %d samples (ns per point)\n", si.cpu_model,
           reps);
    printf("| field | bits | N | wall ns/pt | thread CPU ns/pt | products | CPU ns/product |\n"
           "|---|---|---|---|---|---|---|\n");
    bool first = true;
    for (int fi = 0; fi < 3; fi++) {
        const size_t w = ntt_field_words(F[fi]);
        const uint64_t *p = ntt_field_modulus(F[fi]);
        for (unsigned lg = 10; lg <= maxlog; lg++) {
            const size_t n = (size_t)1 << lg;
            ntt_field_plan *pl = NULL;
            ntt_field_plan_options o = {.threads = 1};
            if (ntt_field_plan_create(&pl, F[fi], n, &o) != NTT_OK) {
                fprintf(stderr, "%s: %s n = 2^%u: %s\n", cmd, names[fi], lg, ntt_error_detail());
                rc = 1;
                continue;
            }
            uint64_t *a = malloc(n * w * 8), *x = malloc(n * w * 8);
            if (!a || !x) {
                free(a), free(x);
                ntt_field_plan_destroy(pl);
                rc = 1;
                break;
            }
            fill(a, n, p, w, 0x9E3779B97F4A7C15ull + lg + 100 * (uint64_t)fi);
            /* The check: two outputs against GMP, then the round trip. */
            uint64_t root[16];
            bool ok = ntt_field_plan_root(pl, root) == NTT_OK;
            memcpy(x, a, n * w * 8);
            ok &= ntt_field_forward(pl, x) == NTT_OK;
            ok &= spot_check(a, x, n, lg, w, p, root, 1) &&
                  spot_check(a, x, n, lg, w, p, root, n - 2);
            ok &= ntt_field_inverse(pl, x) == NTT_OK && memcmp(x, a, n * w * 8) == 0;
            if (!ok) {
                fprintf(stderr, "%s: %s n = 2^%u: the forward transform is wrong\n", cmd,
                        names[fi], lg);
                rc = 1;
                free(a), free(x);
                ntt_field_plan_destroy(pl);
                continue;
            }
            /* Samples of k calls, at least ~2^16 points' work each. */
            const int k = n >= 65536 ? 1 : (int)(65536 / n);
            double tw[99], tc[99];
            for (int r = 0; r < reps; r++) {
                const double w0 = clock_ns(CLOCK_MONOTONIC), c0 = clock_ns(CLOCK_THREAD_CPUTIME_ID);
                for (int i = 0; i < k; i++) ok &= ntt_field_forward(pl, x) == NTT_OK;
                tc[r] = (clock_ns(CLOCK_THREAD_CPUTIME_ID) - c0) / k / (double)n;
                tw[r] = (clock_ns(CLOCK_MONOTONIC) - w0) / k / (double)n;
            }
            if (!ok) rc = 1;
            const double mw = median(tw, reps), mc = median(tc, reps);
            /* Products: one per butterfly below the top level. */
            const double prods = (double)(n / 2) * (lg - 1);
            printf("| %s | %u | 2^%u | %.1f | %.1f | %.0f | %.2f |\n", names[fi],
                   ntt_field_bits(F[fi]), lg, mw, mc, prods, mc * (double)n / prods);
            fflush(stdout);
            if (jf) {
                fprintf(jf,
                        "%s    {\"field\": \"%s\", \"bits\": %u, \"n\": %zu, \"threads\": 1, "
                        "\"wall_ns_per_point\": %.3f, \"cpu_ns_per_point\": %.3f, "
                        "\"products\": %.0f, \"verified\": true}",
                        first ? "" : ",\n", names[fi], ntt_field_bits(F[fi]), n, mw, mc, prods);
                first = false;
            }
            free(a), free(x);
            ntt_field_plan_destroy(pl);
        }
    }

    /* Field multiplication: the library against GMP's. */
    if (jf) fputs("\n  ],\n  \"multiply\": [\n", jf);
    printf("\n# field multiplication, a b R^-1 mod p over 2^12 operand pairs, thread CPU ns per "
           "product, medians of %d, alternated\n",
           reps);
    printf("| field | bits | ntt | GMP mpn_mul_n + REDC | GMP / ntt |\n|---|---|---|---|---|\n");
    first = true;
    for (int fi = 0; fi < 3; fi++) {
        const size_t w = ntt_field_words(F[fi]), n = 4096;
        const uint64_t *p = ntt_field_modulus(F[fi]);
        ntt_field_plan *pl = NULL;
        ntt_field_plan_options o = {.flags = NTT_FIELD_FLAG_MONTGOMERY, .threads = 1};
        if (ntt_field_plan_create(&pl, F[fi], n, &o) != NTT_OK) {
            rc = 1;
            continue;
        }
        uint64_t *a = malloc(n * w * 8), *b = malloc(n * w * 8), *c = malloc(n * w * 8),
                 *d = malloc(n * w * 8), t[34];
        fill(a, n, p, w, 11 + (uint64_t)fi);
        fill(b, n, p, w, 23 + (uint64_t)fi);
        uint64_t pinv = p[0];
        for (int i = 0; i < 6; i++) pinv *= 2 - p[0] * pinv;
        pinv = (uint64_t)0 - pinv;
        bool ok = ntt_field_pointwise(pl, c, a, b) == NTT_OK;
        for (size_t i = 0; i < n; i++)
            gmp_mont((mp_limb_t *)d + i * w, (const mp_limb_t *)a + i * w,
                     (const mp_limb_t *)b + i * w, (const mp_limb_t *)p, pinv, (mp_size_t)w,
                     (mp_limb_t *)t);
        ok &= memcmp(c, d, n * w * 8) == 0;
        if (!ok) {
            fprintf(stderr, "%s: %s: the products differ from GMP's\n", cmd, names[fi]);
            rc = 1;
        } else {
            double tn[99], tg[99];
            const int k = 16;
            for (int r = 0; r < reps; r++) {
                double c0 = clock_ns(CLOCK_THREAD_CPUTIME_ID);
                for (int i = 0; i < k; i++) ok &= ntt_field_pointwise(pl, c, a, b) == NTT_OK;
                tn[r] = (clock_ns(CLOCK_THREAD_CPUTIME_ID) - c0) / k / (double)n;
                c0 = clock_ns(CLOCK_THREAD_CPUTIME_ID);
                for (int i = 0; i < k; i++)
                    for (size_t j = 0; j < n; j++)
                        gmp_mont((mp_limb_t *)d + j * w, (const mp_limb_t *)a + j * w,
                                 (const mp_limb_t *)b + j * w, (const mp_limb_t *)p, pinv,
                                 (mp_size_t)w, (mp_limb_t *)t);
                tg[r] = (clock_ns(CLOCK_THREAD_CPUTIME_ID) - c0) / k / (double)n;
            }
            const double mn = median(tn, reps), mg = median(tg, reps);
            printf("| %s | %u | %.1f | %.1f | %.2f |\n", names[fi], ntt_field_bits(F[fi]), mn, mg,
                   mg / mn);
            if (jf) {
                fprintf(jf,
                        "%s    {\"field\": \"%s\", \"bits\": %u, \"ntt_cpu_ns\": %.3f, "
                        "\"gmp_cpu_ns\": %.3f, \"verified\": true}",
                        first ? "" : ",\n", names[fi], ntt_field_bits(F[fi]), mn, mg);
                first = false;
            }
        }
        free(a), free(b), free(c), free(d);
        ntt_field_plan_destroy(pl);
    }
    if (jf) {
        fputs("\n  ]\n}\n", jf);
        fclose(jf);
    }
out:
    for (int i = 0; i < 3; i++) ntt_field_destroy(F[i]);
    return rc;
}
