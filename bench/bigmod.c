/* ntt-bench bigmod: products modulo a big M (ntt_bigmod.h, issue 60), one
   thread, against FLINT's fmpz_mod_poly_mul and NTL's ZZ_pX mul where the
   build has them.  M of 256, 1024 and 4096 bits (random, odd, top bit
   set), la = lb = n for n = 2^10, 2^14, 2^16.  Every row is checked first:
   ntt's product against FLINT's and NTL's, or, with neither, against GMP
   (Kronecker substitution).  The implementations' samples alternate, so
   that all see the same machine state; medians, minima and maxima of wall
   time, and every implementation's thread CPU time (all run on the
   calling thread; on a shared machine the CPU times are the fairer
   comparison, and the ratios are given for both).  The context's set-up is not timed, as
   FLINT's and NTL's conversions are not. */
#include "ntt_bigint.h"
#include "ntt_bigmod.h"

#include "bench.h"
#include "bigmod_ref.h"
#include "cli.h"
#include "sysinfo.h"

#include <gmp.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double clock_us(clockid_t id)
{
    struct timespec t;
    clock_gettime(id, &t);
    return (double)t.tv_sec * 1e6 + (double)t.tv_nsec * 1e-3;
}

static int cmp_d(const void *x, const void *y)
{
    const double a = *(const double *)x, b = *(const double *)y;
    return a < b ? -1 : a > b;
}

static uint64_t xs(uint64_t *s)
{
    *s ^= *s << 13, *s ^= *s >> 7, *s ^= *s << 17;
    return *s;
}

/* Random coefficients below M: the top word below M's. */
static void fill(uint64_t *a, size_t len, const uint64_t *m, size_t w, uint64_t *s)
{
    for (size_t i = 0; i < len; i++) {
        for (size_t j = 0; j < w; j++) a[i * w + j] = xs(s);
        a[i * w + w - 1] %= m[w - 1];
    }
}

/* c = a b mod M through GMP (Kronecker substitution), the check where
   neither FLINT nor NTL is built. */
static void gmp_product(uint64_t *c, const uint64_t *a, size_t la, const uint64_t *b, size_t lb,
                        const uint64_t *m, size_t w)
{
    mpz_t M, A, B, C, x;
    mpz_inits(M, A, B, C, x, NULL);
    mpz_import(M, w, -1, 8, 0, 0, m);
    /* Slots of whole words, wide enough for every exact coefficient. */
    const size_t sw = (2 * mpz_sizeinbase(M, 2) + 64 + 63) / 64, lc = la + lb - 1;
    uint64_t *buf = calloc((lc + 1) * sw, 8);
    const uint64_t *src[2] = {a, b};
    const size_t len[2] = {la, lb};
    mpz_ptr dst[2] = {A, B};
    for (int k = 0; k < 2; k++) {
        memset(buf, 0, (lc + 1) * sw * 8);
        for (size_t i = 0; i < len[k]; i++) memcpy(buf + i * sw, src[k] + i * w, w * 8);
        mpz_import(dst[k], len[k] * sw, -1, 8, 0, 0, buf);
    }
    mpz_mul(C, A, B);
    memset(buf, 0, (lc + 1) * sw * 8);
    mpz_export(buf, NULL, -1, 8, 0, 0, C);
    for (size_t i = 0; i < lc; i++) {
        mpz_import(x, sw, -1, 8, 0, 0, buf + i * sw);
        mpz_mod(x, x, M);
        memset(c + i * w, 0, w * 8);
        mpz_export(c + i * w, NULL, -1, 8, 0, 0, x);
    }
    free(buf);
    mpz_clears(M, A, B, C, x, NULL);
}

#define MAXI 3 /* ntt and at most two anchors */
#define MAXR 99

/* --mpn: ntt_mpn_mul against mpz_mul at about 10^5 .. 10^7 decimal digits
   (and 10^8 with --large), one thread, alternated, every row checked. */
static int bench_mpn(int reps, bool large, FILE *jf)
{
    static const double digits[] = {1e5, 1e6, 1e7, 1e8};
    const int rows = large ? 4 : 3;
    printf("| digits | words | ntt_mpn_mul | mpz_mul | / ntt |\n|---|---|---|---|---|\n");
    if (jf) fputs(",\n  \"mpn_rows\": [\n", jf);
    int rc = 0;
    for (int ri = 0; ri < rows; ri++) {
        const size_t w = (size_t)(digits[ri] * 3.3219280948873623 / 64) + 1;
        uint64_t *a = malloc(w * 8), *b = malloc(w * 8), *c = malloc(2 * w * 8), *e = malloc(2 * w * 8);
        if (!a || !b || !c || !e) {
            free(a), free(b), free(c), free(e);
            return 1;
        }
        uint64_t seed = 0x9E3779B97F4A7C15ull ^ w;
        for (size_t i = 0; i < w; i++) a[i] = xs(&seed), b[i] = xs(&seed);
        mpz_t A, B, P;
        mpz_inits(A, B, P, NULL);
        mpz_import(A, w, -1, 8, 0, 0, a);
        mpz_import(B, w, -1, 8, 0, 0, b);
        ntt_plan_options o = {.threads = 1};
        bool ok = ntt_mpn_mul(c, a, w, b, w, NTT_BACKEND_AUTO, &o) == NTT_OK;
        mpz_mul(P, A, B);
        memset(e, 0, 2 * w * 8);
        mpz_export(e, NULL, -1, 8, 0, 0, P);
        ok = ok && memcmp(c, e, 2 * w * 8) == 0;
        if (!ok) {
            fprintf(stderr, "ntt-bench bigmod --mpn: ntt_mpn_mul differs from mpz_mul at %zu words\n", w);
            rc = 1;
        } else {
            double t[2][MAXR], cp[2][MAXR];
            for (int r = 0; r < reps; r++)
                for (int k0 = 0; k0 < 2; k0++) {
                    const int k = (k0 + r) % 2;
                    const double w0 = clock_us(CLOCK_MONOTONIC), c0 = clock_us(CLOCK_THREAD_CPUTIME_ID);
                    if (k == 0) {
                        if (ntt_mpn_mul(c, a, w, b, w, NTT_BACKEND_AUTO, &o) != NTT_OK) rc = 1;
                    } else {
                        mpz_mul(P, A, B);
                    }
                    cp[k][r] = (clock_us(CLOCK_THREAD_CPUTIME_ID) - c0) / 1e3;
                    t[k][r] = (clock_us(CLOCK_MONOTONIC) - w0) / 1e3;
                }
            if (jf) {
                fprintf(jf, "%s    {\"digits\": %.0f, \"words\": %zu, \"verified\": true", ri ? ",\n" : "",
                        digits[ri], w);
                const char *nm[2] = {"ntt", "mpz_mul"};
                for (int k = 0; k < 2; k++) {
                    fprintf(jf, ", \"%s_ms\": [", nm[k]);
                    for (int r = 0; r < reps; r++) fprintf(jf, "%s%.3f", r ? ", " : "", t[k][r]);
                    fprintf(jf, "], \"%s_cpu_ms\": [", nm[k]);
                    for (int r = 0; r < reps; r++) fprintf(jf, "%s%.3f", r ? ", " : "", cp[k][r]);
                    fputc(']', jf);
                }
                fputc('}', jf);
            }
            double med[2], cm[2];
            for (int k = 0; k < 2; k++) {
                qsort(t[k], (size_t)reps, sizeof(double), cmp_d);
                qsort(cp[k], (size_t)reps, sizeof(double), cmp_d);
                med[k] = t[k][reps / 2], cm[k] = cp[k][reps / 2];
            }
            printf("| %.0e | %zu | %.2f / %.2f | %.2f / %.2f | %.2f / %.2f |\n", digits[ri], w, med[0],
                   cm[0], med[1], cm[1], med[1] / med[0], cm[1] / cm[0]);
            fflush(stdout);
        }
        mpz_clears(A, B, P, NULL);
        free(a), free(b), free(c), free(e);
    }
    if (jf) fputs("\n  ]", jf);
    return rc;
}

static void usage(FILE *f)
{
    fputs("usage: ntt-bench bigmod [--reps R] [--quick] [--bits B,...] [--n N,...] [--mpn [--large]]\n"
          "                         [--json FILE]\n"
          "  one thread: products mod M of B bits (default 256,1024,4096), la = lb = N\n"
          "  (default 1024,16384,65536), ntt_bigmod_mul against FLINT's\n"
          "  fmpz_mod_poly_mul and NTL's ZZ_pX mul where built, samples alternated,\n"
          "  every row checked first.\n"
          "  --reps R      samples per implementation and row (default 5; --quick: 3)\n"
          "  --mpn         instead: ntt_mpn_mul against GMP's mpz_mul at 1e5, 1e6, 1e7\n"
          "                decimal digits (--large: 1e8 too), ms wall / thread CPU\n"
          "  --json FILE   every sample of every row\n",
          f);
}


int bench_bigmod(int argc, char **argv)
{
    static const char cmd[] = "ntt-bench bigmod";
    uint64_t reps64 = 5, bits[8] = {256, 1024, 4096}, ns[8] = {1024, 16384, 65536};
    int nbits = 3, nn = 3;
    const char *json = NULL, *val;
    bool mpn = false, large = false;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        int r;
        if (cli_is_help(a)) {
            usage(stdout);
            return EXIT_OK;
        } else if (!strcmp(a, "--quick")) {
            reps64 = 3;
        } else if (!strcmp(a, "--mpn")) {
            mpn = true;
        } else if (!strcmp(a, "--large")) {
            large = true;
        } else if ((r = cli_option(cmd, argc, argv, &i, "--bits", NULL, &val)) != 0) {
            if (r < 0 || (nbits = cli_parse_list(val, 2, NTT_BIGMOD_MAX_BITS, bits, 8)) < 0) {
                fprintf(stderr, "%s: --bits takes a list of 2 .. %d\n", cmd, NTT_BIGMOD_MAX_BITS);
                return EXIT_USAGE;
            }
        } else if ((r = cli_option(cmd, argc, argv, &i, "--n", NULL, &val)) != 0) {
            if (r < 0 || (nn = cli_parse_list(val, 1, (uint64_t)1 << 22, ns, 8)) < 0) {
                fprintf(stderr, "%s: --n takes a list of 1 .. 2^22\n", cmd);
                return EXIT_USAGE;
            }
        } else if ((r = cli_number_option(cmd, argc, argv, &i, "--reps", 1, MAXR, &reps64)) != 0 ||
                   (r = cli_file_option(cmd, argc, argv, &i, "--json", NULL, &json)) != 0) {
            if (r < 0) return EXIT_USAGE;
        } else {
            return cli_unknown_option(cmd, a);
        }
    }
    const int reps = (int)reps64;
    const bigmod_ref_ops *refs[MAXI - 1];
    int nref = 0;
#ifdef NTT_HAVE_FLINT
    refs[nref++] = &bigmod_flint_ops;
#endif
#ifdef NTT_HAVE_NTL
    refs[nref++] = &bigmod_ntl_ops;
#endif
    FILE *jf = json ? fopen(json, "w") : NULL;
    if (json && !jf) {
        fprintf(stderr, "%s: cannot write %s\n", cmd, json);
        return 1;
    }
    sysinfo si;
    sysinfo_read(&si);
    if (jf) {
        fputs("{\n", jf);
        sysinfo_json(jf, &si, "  ");
        fprintf(jf, ",\n  \"section\": \"bigmod\",\n  \"threads\": 1,\n  \"reps\": %d,\n  \"rows\": [\n",
                reps);
    }
    if (mpn) {
        printf("# %s; one thread; medians of %d samples, alternated (ms): wall / thread CPU\n",
               si.cpu_model, reps);
        if (jf) fputs("  ]", jf); /* no polynomial rows */
        const int r = bench_mpn(reps, large, jf);
        if (jf) {
            fputs("\n}\n", jf);
            fclose(jf);
        }
        return r;
    }
    printf("# %s; one thread; la = lb = n; medians of %d samples, alternated (ms): wall "
           "[min, max] / thread CPU; the anchors' ratios to ntt, wall / CPU\n",
           si.cpu_model, reps);
    printf("| bits | n | primes | ntt |");
    for (int k = 0; k < nref; k++) printf(" %s | / ntt |", refs[k]->name);
    printf("\n|---|---|---|---|");
    for (int k = 0; k < nref; k++) printf("---|---|");
    printf("\n");
    int rc = 0;
    bool first = true;
    for (int bi = 0; bi < nbits; bi++)
        for (int ni = 0; ni < nn; ni++) {
            const size_t w = (size_t)(bits[bi] + 63) / 64, n = (size_t)ns[ni], lc = 2 * n - 1;
            uint64_t seed = 0x9E3779B97F4A7C15ull ^ (bits[bi] * 1000003 + n);
            uint64_t *m = calloc(w, 8), *a = malloc(n * w * 8), *b = malloc(n * w * 8),
                     *c = malloc(lc * w * 8), *e = malloc(lc * w * 8);
            bigmod_ref_job *jobs[MAXI - 1] = {NULL, NULL};
            ntt_bigmod *ctx = NULL;
            if (!m || !a || !b || !c || !e) {
                fprintf(stderr, "%s: out of memory at %" PRIu64 " bits, n = %zu\n", cmd, bits[bi], n);
                rc = 1;
                goto next;
            }
            for (size_t j = 0; j < w; j++) m[j] = xs(&seed);
            const unsigned top = (unsigned)(bits[bi] - 64 * (w - 1));
            if (top < 64) m[w - 1] &= ((uint64_t)1 << top) - 1;
            m[w - 1] |= (uint64_t)1 << (top - 1);
            m[0] |= 1;
            fill(a, n, m, w, &seed);
            fill(b, n, m, w, &seed);
            ntt_plan_options o = {.threads = 1};
            ntt_status st = ntt_bigmod_create(&ctx, m, w, lc, NTT_BACKEND_AUTO, &o);
            if (st == NTT_OK) st = ntt_bigmod_mul(ctx, c, a, n, b, n);
            if (st != NTT_OK) {
                fprintf(stderr, "%s: %s at %" PRIu64 " bits, n = %zu: %s\n", cmd,
                        ntt_status_string(st), bits[bi], n, ntt_error_detail());
                rc = 1;
                goto next;
            }
            /* The check: ntt against every anchor, or GMP. */
            bool ok = true;
            for (int k = 0; k < nref; k++) {
                jobs[k] = refs[k]->prepare(m, w, a, n, b, n);
                if (!jobs[k]) {
                    ok = false;
                    continue;
                }
                refs[k]->run(jobs[k]);
                refs[k]->result(jobs[k], e);
                if (memcmp(c, e, lc * w * 8) != 0) {
                    fprintf(stderr, "%s: ntt and %s differ at %" PRIu64 " bits, n = %zu\n", cmd,
                            refs[k]->name, bits[bi], n);
                    ok = false;
                }
            }
            if (nref == 0) {
                gmp_product(e, a, n, b, n, m, w);
                ok = memcmp(c, e, lc * w * 8) == 0;
            }
            if (!ok) {
                rc = 1;
                goto next;
            }
            double t[MAXI][MAXR], cpu[MAXI][MAXR];
            for (int r = 0; r < reps; r++)
                for (int k0 = 0; k0 <= nref; k0++) {
                    /* The order turns every sample. */
                    const int k = (k0 + r) % (nref + 1);
                    const double w0 = clock_us(CLOCK_MONOTONIC), c0 = clock_us(CLOCK_THREAD_CPUTIME_ID);
                    if (k == nref) {
                        if (ntt_bigmod_mul(ctx, c, a, n, b, n) != NTT_OK) rc = 1;
                    } else {
                        refs[k]->run(jobs[k]);
                    }
                    cpu[k][r] = (clock_us(CLOCK_THREAD_CPUTIME_ID) - c0) / 1e3;
                    t[k][r] = (clock_us(CLOCK_MONOTONIC) - w0) / 1e3;
                }
            double med[MAXI], lo[MAXI], hi[MAXI], cmed[MAXI];
            if (jf) {
                fprintf(jf, "%s    {\"bits\": %" PRIu64 ", \"n\": %zu, \"primes\": %zu, \"verified\": true",
                        first ? "" : ",\n", bits[bi], n, ntt_bigmod_primes(ctx));
                first = false;
            }
            for (int k = 0; k <= nref; k++) {
                if (jf) {
                    const char *nm = k == nref ? "ntt" : refs[k]->name[0] == 'F' ? "flint" : "ntl";
                    fprintf(jf, ", \"%s_ms\": [", nm);
                    for (int r = 0; r < reps; r++) fprintf(jf, "%s%.3f", r ? ", " : "", t[k][r]);
                    fprintf(jf, "], \"%s_cpu_ms\": [", nm);
                    for (int r = 0; r < reps; r++) fprintf(jf, "%s%.3f", r ? ", " : "", cpu[k][r]);
                    fputc(']', jf);
                }
                qsort(t[k], (size_t)reps, sizeof(double), cmp_d);
                qsort(cpu[k], (size_t)reps, sizeof(double), cmp_d);
                med[k] = t[k][reps / 2], lo[k] = t[k][0], hi[k] = t[k][reps - 1];
                cmed[k] = cpu[k][reps / 2];
            }
            if (jf) {
                for (int k = 0; k < nref; k++)
                    fprintf(jf, ", \"anchor%d\": \"%s\"", k, refs[k]->name);
                fputc('}', jf);
            }
            printf("| %" PRIu64 " | %zu | %zu | %.2f [%.2f, %.2f] / %.2f |", bits[bi],
                   n, ntt_bigmod_primes(ctx), med[nref], lo[nref], hi[nref],
                   cmed[nref]);
            for (int k = 0; k < nref; k++)
                printf(" %.2f [%.2f, %.2f] / %.2f | %.2f / %.2f |", med[k], lo[k], hi[k], cmed[k],
                       med[k] / med[nref], cmed[k] / cmed[nref]);
            printf("\n");
            fflush(stdout);
        next:
            for (int k = 0; k < nref; k++)
                if (jobs[k]) refs[k]->release(jobs[k]);
            ntt_bigmod_destroy(ctx);
            free(m), free(a), free(b), free(c), free(e);
        }
    if (jf) {
        fputs("\n  ]\n}\n", jf);
        fclose(jf);
    }
    return rc;
}
