/* ntt gen: random course input files.  Their expected products come from
   elsewhere (ntt-bench oracle computes them with GMP), so that a check does
   not rest on the code it checks. */
#include "cli.h"
#include "commands.h"
#include "rng.h"

#include <stdio.h>
#include <stdlib.h>

#define GEN_MAX_N ((uint64_t)1 << 29)

static void gen_usage(FILE *f)
{
    fputs("usage: ntt gen N P --seed S [-o OUT]\n"
          "\n"
          "Writes a course input file: \"N P\", then N random coefficients of a on one\n"
          "line and N of b on the next, uniform in [0, P).  The same N, P and S always\n"
          "give the same file.\n"
          "\n"
          "  N                 1 <= N <= 2^29\n"
          "  P                 2 <= P < 2^63 (any modulus, prime or not)\n"
          "  --seed S          seed of the random generator (0 <= S < 2^64), required\n"
          "  -o, --output OUT  write to OUT (atomically) instead of standard output;\n"
          "                    -o - is standard output\n"
          "\n"
          "The expected product, computed with GMP rather than the NTT code:\n"
          "  ntt-bench oracle OUT -o EXPECTED\n"
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
    fprintf(stderr, "ntt gen: %s must be a whole number in %s, not '%s'\n", what, range,
            cli_show(text).s);
    return EXIT_USAGE;
}

int cmd_gen(int argc, char **argv)
{
    static const char cmd[] = "ntt gen";
    const char *pos[2] = {NULL, NULL}, *seed_text = NULL, *out = NULL;
    const cli_opt opts[] = {
        {"--seed", NULL, CLI_TEXT, &seed_text, 0, 0, NULL},
        {"--output", "-o", CLI_FILE, &out, 0, 0, NULL},
        {NULL, NULL, CLI_TEXT, NULL, 0, 0, NULL},
    };
    const cli_command line = {cmd, gen_usage, opts, pos, 2, 2, "needs N and P", NULL, NULL};
    const int e = cli_parse(&line, argc, argv, NULL);
    if (e != CLI_GO) return e;
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

    course_text text = {.n = n, .p = p, .a = a, .b = b};
    const int rc = cli_write_file(cmd, out, emit_course, &text);
    free(a);
    return rc;
}
