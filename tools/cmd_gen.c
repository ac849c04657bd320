/* ntt gen: random course input files, and their products from the GMP
   oracle (independent of the NTT code) as the expected output. */
#include "tool.h"

#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#define GEN_MAX_N ((uint64_t)1 << 29)

static void gen_usage(FILE *f)
{
    fputs("usage: ntt gen N P --seed S [-o OUT] [--expect EXP]\n"
          "\n"
          "Writes a course input file: \"N P\", then N random coefficients of a on one\n"
          "line and N of b on the next, uniform in [0, P).  The same N, P and S always\n"
          "give the same file.\n"
          "\n"
          "  N                 1 <= N <= 2^29\n"
          "  P                 2 <= P < 2^63 (any modulus, prime or not)\n"
          "  --seed S          seed of the random generator (0 <= S < 2^64), required\n"
          "  -o, --output OUT  write to OUT (atomically) instead of standard output\n"
          "  --expect EXP      also write the product a*b mod P to EXP, computed with\n"
          "                    GMP, not with the NTT code\n"
          "\n"
          "exit status: 0 ok, 2 usage, 6 cannot write, 8 out of memory.\n",
          f);
}

typedef struct {
    uint64_t n, p;
    const uint64_t *a, *b;
} course_text;

static int emit_course(FILE *f, void *vctx)
{
    const course_text *x = vctx;
    if (fprintf(f, "%llu %llu\n", (unsigned long long)x->n, (unsigned long long)x->p) < 0)
        return -1;
    if (ntt_coeffs_fwrite(f, x->a, (size_t)x->n) != NTT_OK) return -1;
    if (ntt_coeffs_fwrite(f, x->b, (size_t)x->n) != NTT_OK) return -1;
    return 0;
}

static int bad_number(const char *what, const char *text, const char *range)
{
    fprintf(stderr, "ntt gen: %s must be a whole number in %s, not '%s'\n", what, range, text);
    return EXIT_USAGE;
}

int cmd_gen(int argc, char **argv)
{
    const char *pos[2] = {NULL, NULL}, *seed_text = NULL, *out = NULL, *expect = NULL;
    int npos = 0;
    bool opts_done = false;
    for (int i = 1; i < argc; i++) {
        const char *arg = argv[i], *v;
        if (!opts_done && arg[0] == '-' && arg[1] != '\0') {
            if (strcmp(arg, "--") == 0) {
                opts_done = true;
                continue;
            }
            if (cli_is_help(arg)) {
                gen_usage(stdout);
                return EXIT_OK;
            }
            int r;
            if ((r = cli_option("gen", argc, argv, &i, "--seed", NULL, &v)) != 0) {
                if (r < 0) return EXIT_USAGE;
                seed_text = v;
                continue;
            }
            if ((r = cli_option("gen", argc, argv, &i, "--output", "-o", &v)) != 0) {
                if (r < 0) return EXIT_USAGE;
                out = v;
                continue;
            }
            if ((r = cli_option("gen", argc, argv, &i, "--expect", NULL, &v)) != 0) {
                if (r < 0) return EXIT_USAGE;
                expect = v;
                continue;
            }
            fprintf(stderr, "ntt gen: unknown option '%s'\nTry 'ntt gen --help'.\n", arg);
            return EXIT_USAGE;
        }
        if (npos == 2) {
            fprintf(stderr, "ntt gen: unexpected argument '%s'\nTry 'ntt gen --help'.\n", arg);
            return EXIT_USAGE;
        }
        pos[npos++] = arg;
    }
    if (npos < 2) {
        fputs("ntt gen: needs N and P\nTry 'ntt gen --help'.\n", stderr);
        return EXIT_USAGE;
    }
    uint64_t n, p, seed;
    if (!cli_parse_u64(pos[0], &n) || n < 1 || n > GEN_MAX_N)
        return bad_number("N", pos[0], "[1, 2^29]");
    if (!cli_parse_u64(pos[1], &p) || p < 2 || p >= ((uint64_t)1 << 63))
        return bad_number("P", pos[1], "[2, 2^63)");
    if (!seed_text) {
        fputs("ntt gen: --seed S is required (the same seed gives the same file)\n", stderr);
        return EXIT_USAGE;
    }
    if (!cli_parse_u64(seed_text, &seed)) return bad_number("--seed", seed_text, "[0, 2^64)");
    if ((out && !*out) || (expect && !*expect)) {
        fputs("ntt gen: an output file name is empty\n", stderr);
        return EXIT_USAGE;
    }

    uint64_t *a = malloc(2 * (size_t)n * sizeof *a);
    if (!a) {
        fprintf(stderr, "ntt gen: out of memory for %llu coefficients\n",
                (unsigned long long)(2 * n));
        return EXIT_FAILURE_LIB;
    }
    uint64_t *b = a + n;
    rng_t rng;
    rng_seed(&rng, seed);
    for (uint64_t i = 0; i < 2 * n; i++) a[i] = rng_below(&rng, p);

    /* The product first: if it cannot be computed, nothing is written. */
    uint64_t *c = NULL;
    if (expect) {
        c = malloc((2 * (size_t)n - 1) * sizeof *c);
        if (!c || oracle_polymul(c, a, (size_t)n, b, (size_t)n, p) != 0) {
            fputs("ntt gen: out of memory for the expected product\n", stderr);
            free(c);
            free(a);
            return EXIT_FAILURE_LIB;
        }
    }

    int rc = EXIT_OK;
    course_text text = {.n = n, .p = p, .a = a, .b = b};
    if (out) {
        char why[256];
        if (cli_atomic_write(out, emit_course, &text, why, sizeof why) != 0) {
            fprintf(stderr, "ntt gen: %s: cannot write: %s\n", out, why);
            rc = EXIT_OUTPUT_IO;
        }
    } else if (emit_course(stdout, &text) != 0 || fflush(stdout) != 0) {
        fprintf(stderr, "ntt gen: standard output: cannot write: %s\n", strerror(errno));
        rc = EXIT_OUTPUT_IO;
    }
    if (rc == EXIT_OK && expect) {
        ntt_io_error err;
        ntt_status st = ntt_coeffs_write(expect, c, 2 * (size_t)n - 1, &err);
        if (st != NTT_OK) {
            const char *why = err.message[0] ? err.message : ntt_status_string(st);
            if (strncmp(why, "cannot write: ", 14) == 0) why += 14;
            fprintf(stderr, "ntt gen: %s: cannot write: %s\n", expect, why);
            rc = EXIT_OUTPUT_IO;
        }
    }
    free(c);
    free(a);
    return rc;
}
