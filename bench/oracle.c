/* ntt-bench oracle: the expected output of a course file, its product
   computed with GMP rather than with the NTT code. */
#include "bench.h"

#include "cli.h"
#include "gmp_oracle.h"

#include <stdio.h>
#include <stdlib.h>

static void usage(FILE *f)
{
    fputs("usage: ntt-bench oracle IN [-o OUT]\n"
          "\n"
          "Writes the product of the two polynomials of the course input file IN\n"
          "modulo its p, as `ntt mul` would, but computed with GMP (Kronecker\n"
          "substitution), independently of the NTT code: the expected output that\n"
          "`ntt verify` and `ntt cases` check against.  IN - reads standard input.\n"
          "\n"
          "  -o, --output OUT  write to OUT (atomically: on any failure OUT is left as it\n"
          "                    was) instead of standard output; -o - is standard output\n"
          "\n"
          "exit status: 0 ok, 2 usage, 3 unreadable input, 4 malformed input,\n"
          "5 coefficient >= p, 6 cannot write OUT, 8 out of memory.\n",
          f);
}

int bench_oracle(int argc, char **argv)
{
    static const char cmd[] = "ntt-bench oracle";
    const char *file = NULL, *out = NULL;
    const cli_opt opts[] = {
        {"--output", "-o", CLI_FILE, &out, 0, 0, NULL},
        {NULL, NULL, CLI_TEXT, NULL, 0, 0, NULL},
    };
    const cli_command line = {cmd, usage, opts, &file, 1, 1, "missing input file IN", NULL, NULL};
    const int e = cli_parse(&line, argc, argv, NULL);
    if (e != CLI_GO) return e;
    ntt_course_input in;
    ntt_io_error err;
    const ntt_status st = cli_course_read(file, &in, &err);
    if (st != NTT_OK) {
        cli_print_io_error(cmd, file, st, &err);
        return cli_exit_code(st);
    }
    const size_t lc = 2 * in.n - 1;
    uint64_t *c = malloc(lc * sizeof *c);
    int rc;
    if (!c || oracle_polymul(c, in.a, in.n, in.b, in.n, in.p) != 0) {
        fprintf(stderr, "%s: %s: out of memory for the product\n", cmd, cli_input_name(file));
        rc = EXIT_FAILURE_LIB;
    } else {
        rc = cli_write_coeffs(cmd, out, c, lc);
    }
    free(c);
    ntt_course_free(&in);
    return rc;
}
