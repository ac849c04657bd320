/* ntt-bench planner (issue 63): ESTIMATE against MEASURE against imported
   wisdom, side by side in one process.  Rows: ntt_polymul_mod of two
   length-N polynomials, N = 2^12 .. 2^20, for a u32 NTT prime, 50- and
   60-bit NTT primes and a modulus that goes through CRT; u64 forward
   transforms (negacyclic) at N = 2^12 .. 2^17 for 50-, 51-, 52- and
   60-bit primes.  Per row: the wisdom store is emptied and the plan cache
   cleared; the ESTIMATE column's plans are made, then the MEASURE
   column's (which time their candidates), then the store is exported,
   emptied and imported again, and the third column's plans (WISDOM_ONLY)
   come from that text.  Each column's planning time is the first call
   (polymul_mod: from an empty cache; forward: the plan's creation); then
   the three are timed interleaved, each checked before and after (GMP's
   product; the forward against a scalar plan's). */
#include "ntt.h"

#include "ntt_internal.h"
#include "bench.h"
#include "cli.h"
#include "gmp_oracle.h"
#include "series.h"
#include "sysinfo.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { COLS = 3 };
static const char *const COL[COLS] = {"estimate", "measure", "wisdom"};
static const ntt_plan_mode MODE[COLS] = {NTT_PLAN_ESTIMATE, NTT_PLAN_MEASURE,
                                         NTT_PLAN_WISDOM_ONLY};

typedef struct {
    bool forward; /* else polymul_mod */
    size_t n;
    uint64_t p;
    const char *pname;
    uint64_t *a, *b, *expect, *c[COLS];
    ntt_plan *plan[COLS];
    ntt_plan_options o[COLS];
    bench_series s[COLS];
    double first_s[COLS]; /* the first call, or the plan's creation */
    char choice[COLS][96];
} row;

static bench_series *series_of(void *ctx, int k) { return &((row *)ctx)->s[k]; }

static ntt_status call(void *ctx, int k)
{
    row *r = ctx;
    if (r->forward) return ntt_forward_u64(r->plan[k], r->c[k]);
    return ntt_polymul_mod_ex(r->c[k], r->a, r->n, r->b, r->n, r->p, NTT_BACKEND_AUTO, &r->o[k]);
}

static bool check(void *ctx, int k, bool after)
{
    (void)after;
    row *r = ctx;
    bench_series *s = &r->s[k];
    if (r->forward) memcpy(r->c[k], r->a, r->n * 8);
    const ntt_status st = call(ctx, k);
    const size_t len = r->forward ? r->n : 2 * r->n - 1;
    if (st != NTT_OK || memcmp(r->c[k], r->expect, len * 8) != 0) {
        snprintf(s->why, sizeof s->why, "FAILED (%s)",
                 st != NTT_OK ? ntt_status_string(st) : "wrong words");
        return false;
    }
    return true;
}

static void describe(char *buf, size_t len, const ntt_plan *plan)
{
    ntt_plan_choice_info c;
    if (!plan || ntt_plan_choice(plan, &c) != NTT_OK) {
        snprintf(buf, len, "?");
        return;
    }
    snprintf(buf, len, "%s %s %s %dt", ntt_backend_name(c.backend), c.kernels,
             ntt_modmul_name(c.modmul), c.threads);
}

/* What a polymul_mod column runs: the plan of its direct prime (made as
   polymul_mod makes it; from the cache, the wisdom or the rules), or the
   CRT set it picks. */
static void describe_mod(row *r, int k)
{
    size_t t = 1;
    while (t < 2 * r->n - 1) t <<= 1;
    ntt_plan_options o = r->o[k];
    o.work = NTT_WORK_POLYMUL;
    if (strcmp(product_path(r->n, r->p), "CRT over NTT primes") == 0) {
        const uint64_t *q = NULL;
        const size_t cnt = ntt_polymul_mod_crt_pick(r->n, r->n, r->p, NTT_BACKEND_AUTO, &o, &q);
        unsigned bits = 0;
        while (q && bits < 64 && q[0] >> bits) bits++;
        ntt_plan *pl = NULL;
        char d[64] = "?";
        if (q && ntt_plan_create(&pl, t, q[0], NTT_U64, NTT_BACKEND_AUTO, &o) == NTT_OK)
            describe(d, sizeof d, pl);
        ntt_plan_destroy(pl);
        snprintf(r->choice[k], sizeof r->choice[k], "CRT %zu x %u-bit; %s", cnt, bits, d);
        return;
    }
    ntt_plan *pl = NULL;
    const ntt_width w = r->p >> 30 ? NTT_U64 : NTT_U32;
    if (ntt_plan_create(&pl, t, r->p, w, NTT_BACKEND_AUTO, &o) == NTT_OK)
        describe(r->choice[k], sizeof r->choice[k], pl);
    ntt_plan_destroy(pl);
}

/* The first calls of every column, with the store's round trip before the
   wisdom column; false (and why set) where something fails. */
static bool prepare(row *r, ntt_plan *ref)
{
    ntt_wisdom_forget();
    ntt_cache_clear();
    for (int k = 0; k < COLS; k++) {
        if (k == 2) {
            char *text = NULL;
            ntt_status s = ntt_wisdom_export_to_string(&text);
            ntt_wisdom_forget();
            if (s == NTT_OK) s = ntt_wisdom_import_from_string(text);
            free(text);
            if (s != NTT_OK) {
                snprintf(r->s[k].why, sizeof r->s[k].why, "FAILED (wisdom: %s)",
                         ntt_status_string(s));
                return false;
            }
        }
        const double t0 = now_seconds();
        ntt_status s;
        if (r->forward) {
            s = ntt_plan_create(&r->plan[k], r->n, r->p, NTT_U64, NTT_BACKEND_AUTO, &r->o[k]);
        } else {
            s = call(r, k);
        }
        r->first_s[k] = now_seconds() - t0;
        if (s != NTT_OK) {
            snprintf(r->s[k].why, sizeof r->s[k].why, "FAILED (%s)", ntt_status_string(s));
            return false;
        }
        if (r->forward)
            describe(r->choice[k], sizeof r->choice[k], r->plan[k]);
        else
            describe_mod(r, k);
    }
    if (r->forward) {
        memcpy(r->expect, r->a, r->n * 8);
        return ntt_forward_u64(ref, r->expect) == NTT_OK;
    }
    return oracle_polymul(r->expect, r->a, r->n, r->b, r->n, r->p) == 0;
}

static void usage(FILE *f)
{
    fputs("usage: ntt-bench planner [--reps R] [--quick] [--max-log2 K] [--json FILE]\n"
          "  ESTIMATE, MEASURE and imported wisdom side by side: ntt_polymul_mod of two\n"
          "  length-N polynomials (N = 2^12 .. 2^20; a u32 prime, 50- and 60-bit primes,\n"
          "  a CRT modulus) and u64 forward transforms (N = 2^12 .. 2^17; 50-, 51-, 52-\n"
          "  and 60-bit primes), each row's planning time (the first call), every\n"
          "  row checked before and after it is timed.\n"
          "  --reps R      timed calls per column and row (default 15; --quick: 5)\n"
          "  --max-log2 K  largest polymul_mod N = 2^K (default 20; --quick: 16)\n"
          "  --json FILE   the rows, with every repetition\n",
          f);
}

int bench_planner(int argc, char **argv)
{
    static const char cmd[] = "ntt-bench planner";
    uint64_t reps = 15, maxlg = 20;
    const char *json = NULL;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        int r;
        if (cli_is_help(a)) {
            usage(stdout);
            return EXIT_OK;
        } else if (!strcmp(a, "--quick")) {
            reps = 5, maxlg = 16;
        } else if ((r = cli_number_option(cmd, argc, argv, &i, "--reps", 1, 999, &reps)) != 0 ||
                   (r = cli_number_option(cmd, argc, argv, &i, "--max-log2", 12, 22, &maxlg)) != 0 ||
                   (r = cli_file_option(cmd, argc, argv, &i, "--json", NULL, &json)) != 0) {
            if (r < 0) return EXIT_USAGE;
        } else {
            return cli_unknown_option(cmd, a);
        }
    }
    FILE *jf = json ? fopen(json, "w") : NULL;
    if (json && !jf) {
        fprintf(stderr, "%s: cannot write %s\n", cmd, json);
        return EXIT_OUTPUT_IO;
    }
    uint64_t p50, p51, p52, p60, p50n, p60n;
    if (ntt_find_prime(50, 22, 0, &p50n) != NTT_OK || ntt_find_prime(60, 22, 0, &p60n) != NTT_OK ||
        ntt_find_prime(50, 20, 0, &p50) != NTT_OK || ntt_find_prime(51, 20, 0, &p51) != NTT_OK ||
        ntt_find_prime(52, 20, 0, &p52) != NTT_OK || ntt_find_prime(60, 20, 0, &p60) != NTT_OK)
        return EXIT_FAILURE_LIB;
    const struct {
        bool forward;
        uint64_t p;
        const char *name;
    } P[] = {{false, 998244353, "u32 prime"},     {false, p50n, "50-bit prime"},
             {false, p60n, "60-bit prime"},      {false, (1ull << 61) - 1, "CRT 2^61-1"},
             {true, p50, "50-bit"},              {true, p51, "51-bit"},
             {true, p52, "52-bit"},              {true, p60, "60-bit"}};
    sysinfo si;
    sysinfo_read(&si);
    if (jf) {
        fputs("{\n", jf);
        sysinfo_json(jf, &si, "  ");
        fprintf(jf, ",\n  \"reps\": %d,\n  \"rows\": [\n", (int)reps);
    }
    printf("# %s, %d logical CPUs; medians of %d interleaved calls; first: the first call\n"
           "# (polymul_mod from an empty plan cache) or the plan's creation (forward)\n",
           si.cpu_model, si.logical_cpus, (int)reps);
    printf("| op | N | modulus | estimate | measure | wisdom | measure / estimate | first: "
           "estimate / measure / wisdom | rule's choice | measured choice |\n"
           "|---|---|---|---|---|---|---|---|---|---|\n");
    int rc = 0;
    bool first_row = true;
    for (size_t pi = 0; pi < sizeof P / sizeof P[0]; pi++) {
        const unsigned top = P[pi].forward ? 17 : (unsigned)maxlg;
        for (unsigned lg = 12; lg <= top; lg++) {
            row r;
            memset(&r, 0, sizeof r);
            r.forward = P[pi].forward;
            r.n = (size_t)1 << lg;
            r.p = P[pi].p;
            r.pname = P[pi].name;
            const size_t out = r.forward ? r.n : 2 * r.n;
            r.a = malloc(r.n * 8);
            r.b = malloc(r.n * 8);
            r.expect = malloc(out * 8);
            bool ok = r.a && r.b && r.expect;
            for (int k = 0; k < COLS; k++) {
                r.c[k] = malloc(out * 8);
                ok = ok && r.c[k];
                r.o[k] = (ntt_plan_options){.mode = MODE[k]};
                if (r.forward) {
                    r.o[k].flags = NTT_FLAG_NEGACYCLIC;
                    r.o[k].work = NTT_WORK_FORWARD;
                }
                r.s[k].want = (int)reps;
            }
            ntt_plan *ref = NULL;
            if (ok && r.forward) {
                ntt_plan_options ro = {.flags = NTT_FLAG_NEGACYCLIC};
                ok = ntt_plan_create(&ref, r.n, r.p, NTT_U64, NTT_BACKEND_SCALAR, &ro) == NTT_OK;
            }
            if (ok) {
                uint64_t s = 0x9E3779B97F4A7C15ull ^ (r.p + lg);
                for (size_t i = 0; i < r.n; i++) {
                    s ^= s << 13, s ^= s >> 7, s ^= s << 17;
                    r.a[i] = s % r.p;
                    s ^= s << 13, s ^= s >> 7, s ^= s << 17;
                    r.b[i] = s % r.p;
                }
                ok = prepare(&r, ref);
            }
            if (ok) bench_series_run(&(bench_ops){series_of, call, check}, &r, COLS, true);
            char t[COLS][24];
            for (int k = 0; k < COLS; k++) {
                if (!ok && !r.s[k].why[0]) snprintf(r.s[k].why, sizeof r.s[k].why, "FAILED");
                if (r.s[k].ok)
                    fmt_time(t[k], sizeof t[k], r.s[k].median);
                else /* the reason, cut to the column */
                    snprintf(t[k], sizeof t[k], "%.23s", r.s[k].why);
                if (!r.s[k].ok) rc = 1;
            }
            char f[COLS][24];
            for (int k = 0; k < COLS; k++) fmt_time(f[k], sizeof f[k], r.first_s[k]);
            const double ratio = r.s[0].ok && r.s[1].ok ? r.s[1].median / r.s[0].median : 0;
            printf("| %s | 2^%u | %s | %s | %s | %s | %.3f | %s / %s / %s | %s | %s |\n",
                   r.forward ? "forward u64" : "polymul_mod", lg, r.pname, t[0], t[1], t[2], ratio,
                   f[0], f[1], f[2], r.choice[0], r.choice[1]);
            fflush(stdout);
            if (jf) {
                fprintf(jf, "%s    {\"op\": \"%s\", \"n\": %zu, \"p\": %" PRIu64 ", \"modulus\": ",
                        first_row ? "" : ",\n", r.forward ? "forward_u64" : "polymul_mod", r.n,
                        r.p);
                cli_json_string(jf, r.pname);
                fprintf(jf, ", \"columns\": [");
                for (int k = 0; k < COLS; k++) {
                    fprintf(jf, "%s{\"mode\": \"%s\", \"first_call_s\": %.9g, \"choice\": ",
                            k ? ", " : "", COL[k], r.first_s[k]);
                    cli_json_string(jf, r.choice[k]);
                    bench_series_json(jf, &r.s[k]);
                    fputc('}', jf);
                }
                fputs("]}", jf);
                first_row = false;
            }
            for (int k = 0; k < COLS; k++) {
                ntt_plan_destroy(r.plan[k]);
                free(r.c[k]);
                free(r.s[k].reps);
            }
            ntt_plan_destroy(ref);
            free(r.a), free(r.b), free(r.expect);
        }
    }
    ntt_cache_clear();
    if (jf) {
        fputs("\n  ]\n}\n", jf);
        fclose(jf);
    }
    return rc;
}
