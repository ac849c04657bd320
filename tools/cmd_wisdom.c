/* ntt wisdom: makes wisdom for common sizes (as fftw-wisdom does): MEASURE
   (or EXHAUSTIVE) plans of every size in a range, for the prime sizes
   whose kernels differ, for the transforms and the products (what
   ntt_polymul_mod plans, its CRT primes included), then writes the store
   (docs/PLANNER.md).  A progress line per size on standard error. */
#include "commands.h"

#include "cli.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static void wisdom_usage(FILE *f)
{
    fputs("usage: ntt wisdom [-o FILE] [--min-log2 K] [--max-log2 K] [--mode MODE]\n"
          "                  [--time-limit S] [--backend B]\n"
          "\n"
          "Plans every size 2^min .. 2^max (default 2^10 .. 2^20) the way ntt's\n"
          "MEASURE mode does, for a 30-bit prime (u32) and 50-, 51-, 52-, 60- and\n"
          "62-bit primes (u64), each for the transforms and for products (the\n"
          "plans ntt_polymul_mod makes, the CRT primes' sizes included), and\n"
          "writes the wisdom (the store, this machine's system wisdom included)\n"
          "to FILE (default: standard output; docs/PLANNER.md).  Install it as\n"
          "/etc/ntt/wisdom, or name it in NTT_WISDOM, for every program to read.\n"
          "\n"
          "  -o, --output FILE  where the wisdom goes (- : standard output)\n"
          "  --min-log2 K       smallest size 2^K (1 .. 30, default 10)\n"
          "  --max-log2 K       largest size 2^K (1 .. 30, default 20)\n"
          "  --mode MODE        measure (default) or exhaustive\n"
          "  --time-limit S     seconds each plan may take timing (default: no bound)\n"
          "  --backend B        the backend plans ask for (default auto: the planner\n"
          "                     picks the CPU backend)\n"
          "\n"
          "A line per size on standard error: the size, the plans made, the seconds.\n",
          f);
}

static double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static int take_mode(const char *cmd, FILE *err, const char *value, void *dest)
{
    if (strcmp(value, "measure") == 0) {
        *(ntt_plan_mode *)dest = NTT_PLAN_MEASURE;
    } else if (strcmp(value, "exhaustive") == 0) {
        *(ntt_plan_mode *)dest = NTT_PLAN_EXHAUSTIVE;
    } else {
        fprintf(err, "%s: --mode must be measure or exhaustive, not \"%s\"\n", cmd,
                cli_show(value).s);
        return EXIT_USAGE;
    }
    return 0;
}

static int take_seconds(const char *cmd, FILE *err, const char *value, void *dest)
{
    char *end;
    const double s = strtod(value, &end);
    if (*end || !isfinite(s) || s < 0) {
        fprintf(err, "%s: --time-limit must be seconds >= 0, not \"%s\"\n", cmd, cli_show(value).s);
        return EXIT_USAGE;
    }
    *(double *)dest = s;
    return 0;
}

static int take_backend(const char *cmd, FILE *err, const char *value, void *dest)
{
    if (ntt_backend_from_name(value, dest) != NTT_OK) {
        fprintf(err, "%s: unknown backend \"%s\"\n", cmd, cli_show(value).s);
        return EXIT_USAGE;
    }
    return 0;
}

int cmd_wisdom(int argc, char **argv)
{
    static const char cmd[] = "ntt wisdom";
    const char *out = "-";
    uint64_t lo = 10, hi = 20;
    ntt_plan_mode mode = NTT_PLAN_MEASURE;
    double limit = 0;
    ntt_backend backend = NTT_BACKEND_AUTO;
    const cli_opt opts[] = {{"--output", "-o", CLI_FILE, &out, 0, 0, NULL},
                            {"--min-log2", NULL, CLI_NUMBER, &lo, 1, NTT_MAX_LOG2_N, NULL},
                            {"--max-log2", NULL, CLI_NUMBER, &hi, 1, NTT_MAX_LOG2_N, NULL},
                            {"--mode", NULL, CLI_TEXT, &mode, 0, 0, take_mode},
                            {"--time-limit", NULL, CLI_TEXT, &limit, 0, 0, take_seconds},
                            {"--backend", NULL, CLI_TEXT, &backend, 0, 0, take_backend},
                            {NULL, NULL, CLI_TEXT, NULL, 0, 0, NULL}};
    const cli_command line = {cmd, wisdom_usage, opts, NULL, 0, 0, NULL, NULL, NULL};
    const int e = cli_parse(&line, argc, argv, NULL);
    if (e != CLI_GO) return e;
    if (lo > hi) {
        fprintf(stderr, "%s: --min-log2 %llu is above --max-log2 %llu\n", cmd,
                (unsigned long long)lo, (unsigned long long)hi);
        return EXIT_USAGE;
    }
    /* The prime sizes whose kernels differ (docs/ARCHITECTURE.md): u32;
       IFMA's three lazy ranges and FP64 below 2^51; the 64-bit lanes; the
       default CRT primes' 62 bits. */
    static const unsigned bits[] = {30, 50, 51, 52, 60, 62};
    static const ntt_plan_work works[] = {NTT_WORK_TRANSFORMS, NTT_WORK_POLYMUL};
    for (uint64_t lg = lo; lg <= hi; lg++) {
        const double t0 = now_s();
        const size_t n = (size_t)1 << lg;
        int made = 0;
        for (size_t i = 0; i < sizeof bits / sizeof bits[0]; i++) {
            /* The largest prime of the size that takes every plan of n
               (negacyclic: 2n | p - 1). */
            uint64_t p;
            if (ntt_find_prime(bits[i], (unsigned)lg + 1, 0, &p) != NTT_OK) continue;
            const ntt_width w = p >> 30 ? NTT_U64 : NTT_U32;
            for (size_t k = 0; k < sizeof works / sizeof works[0]; k++) {
                ntt_plan_options o = {.mode = mode, .time_limit = limit, .work = works[k]};
                ntt_plan *plan;
                const ntt_status s = ntt_plan_create(&plan, n, p, w, backend, &o);
                if (s != NTT_OK) {
                    fprintf(stderr, "%s: 2^%llu, %u-bit prime: %s (%s)\n", cmd,
                            (unsigned long long)lg, bits[i], ntt_status_string(s),
                            ntt_error_detail());
                    return cli_exit_code(s);
                }
                ntt_plan_destroy(plan);
                made++;
            }
        }
        fprintf(stderr, "%s: 2^%llu: %d plans, %.2f s\n", cmd, (unsigned long long)lg, made,
                now_s() - t0);
    }
    char *text;
    ntt_status s = ntt_wisdom_export_to_string(&text);
    if (s != NTT_OK) return cli_exit_code(s);
    int rc = EXIT_OK;
    if (strcmp(out, "-") == 0) {
        if (fputs(text, stdout) == EOF || fflush(stdout) != 0) rc = EXIT_OUTPUT_IO;
    } else {
        s = ntt_wisdom_export_to_file(out);
        if (s != NTT_OK) {
            fprintf(stderr, "%s: cannot write %s: %s\n", cmd, cli_show(out).s,
                    ntt_status_string(s));
            rc = s == NTT_EIO ? EXIT_OUTPUT_IO : cli_exit_code(s);
        }
    }
    free(text);
    return rc;
}
