/* ntt mul: the product of a course file's two polynomials. */
#include "cli.h"
#include "commands.h"
#include "product.h"

#include <stdio.h>
#include <stdlib.h>

static void mul_usage(FILE *f)
{
    fputs("usage: ntt mul FILE [-o OUT] [--backend B] [--modmul M] [--variant V]\n"
          "\n"
          "Multiplies the two polynomials of a course input file (\"n p\", n coefficients\n"
          "of a, n of b) modulo p and writes the 2n-1 coefficients of the product on one\n"
          "line.  Any p in [2, 2^63) works: NTT-friendly primes directly, other moduli\n"
          "through the CRT over internal primes.  FILE - reads standard input.\n"
          "\n"
          "  -o, --output OUT  write to OUT (atomically: on any failure OUT is left as it\n"
          "                    was) instead of standard output; -o - is standard output\n"
          "  --backend B       auto (default), scalar, avx2, avx512, openmp, cuda\n"
          "  --modmul M        default, naive, barrett, montgomery, shoup\n"
          "  --variant V       fast (default), baseline, gpu-table, gpu-async, gpu-shared\n"
          "\n"
          "exit status: 0 ok, 2 usage, 3 unreadable input, 4 malformed input,\n"
          "5 coefficient >= p, 6 cannot write OUT, 7 backend unavailable, 8 other.\n",
          f);
}

int cmd_mul(int argc, char **argv)
{
    static const char cmd[] = "ntt mul";
    const char *file = NULL, *out = NULL, *bname = "auto";
    product_opts o = {0};
    const cli_opt opts[] = {
        {"--output", "-o", CLI_FILE, &out, 0, 0, NULL},
        PRODUCT_OPTIONS(&bname, &o),
        {NULL, NULL, CLI_TEXT, NULL, 0, 0, NULL},
    };
    const cli_command line = {cmd, mul_usage, opts, &file, 1, 1, "missing input FILE", NULL, NULL};
    int e = cli_parse(&line, argc, argv, NULL);
    if (e != CLI_GO) return e;
    ntt_backend b;
    e = product_backend(cmd, bname, false, &b);
    if (e) return e;

    ntt_course_input in;
    ntt_io_error err;
    ntt_status st = cli_course_read(file, &in, &err);
    if (st != NTT_OK) {
        cli_print_io_error(cmd, file, st, &err);
        return cli_exit_code(st);
    }
    const size_t lc = 2 * in.n - 1;
    uint64_t *c = malloc(lc * sizeof *c);
    if (!c) {
        fprintf(stderr, "%s: %s: out of memory for %zu product coefficients\n", cmd,
                cli_input_name(file), lc);
        ntt_course_free(&in);
        return EXIT_FAILURE_LIB;
    }
    st = product_run(&in, b, &o, c);
    ntt_course_free(&in);
    int rc;
    if (st != NTT_OK) {
        char why[PRODUCT_FAILURE_LEN];
        product_failure_text(why, sizeof why, cli_input_name(file), st, b, &o);
        fprintf(stderr, "%s: %s\n", cmd, why);
        rc = cli_exit_code(st);
    } else {
        rc = cli_write_coeffs(cmd, out, c, lc);
    }
    free(c);
    ntt_cache_clear();
    return rc;
}
