/* ntt verify: compares two coefficient lists. */
#include "cli.h"
#include "commands.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void verify_usage(FILE *f)
{
    fputs("usage: ntt verify OUT EXPECTED\n"
          "\n"
          "Compares two whitespace-separated lists of decimal numbers.  Prints\n"
          "\"OK (L coefficients)\" and exits 0 when they are equal; otherwise prints the\n"
          "first differing index with both values (or both lengths) and exits 1.\n"
          "Either file may be - (standard input).\n"
          "exit status: 0 equal, 1 different, 2 usage, 3 unreadable file, 4 malformed file.\n",
          f);
}

int cmd_verify(int argc, char **argv)
{
    static const char cmd[] = "ntt verify";
    const char *files[2] = {NULL, NULL};
    const cli_opt opts[] = {{NULL, NULL, CLI_TEXT, NULL, 0, 0, NULL}};
    const cli_command line = {cmd, verify_usage, opts, files, 2, 2,
                              "needs two files: OUT EXPECTED", NULL, NULL};
    const int e = cli_parse(&line, argc, argv, NULL);
    if (e != CLI_GO) return e;
    if (cli_is_stdio(files[0]) && cli_is_stdio(files[1])) {
        fprintf(stderr, "%s: standard input (-) can be only one of OUT and EXPECTED\n", cmd);
        return EXIT_USAGE;
    }
    uint64_t *v[2] = {NULL, NULL};
    size_t len[2] = {0, 0};
    for (int k = 0; k < 2; k++) {
        ntt_io_error err;
        ntt_status st = cli_coeffs_read(files[k], &v[k], &len[k], &err);
        if (st != NTT_OK) {
            cli_print_io_error(cmd, files[k], st, &err);
            free(v[0]);
            return cli_exit_code(st);
        }
    }
    const char *name[2] = {cli_input_name(files[0]), cli_input_name(files[1])};
    const size_t common = len[0] < len[1] ? len[0] : len[1];
    size_t first = common, ndiff = 0;
    for (size_t i = 0; i < common; i++) {
        if (v[0][i] != v[1][i]) {
            if (first == common) first = i;
            ndiff++;
        }
    }
    int rc = EXIT_OK;
    if (len[0] != len[1]) {
        printf("MISMATCH: lengths differ: %s has %zu coefficients, %s has %zu", name[0], len[0],
               name[1], len[1]);
        if (first < common)
            printf("; first difference at index %zu: %llu vs %llu", first,
                   (unsigned long long)v[0][first], (unsigned long long)v[1][first]);
        putchar('\n');
        rc = EXIT_MISMATCH;
    } else if (ndiff) {
        printf("MISMATCH at index %zu: %s has %llu, %s has %llu (%zu of %zu coefficients "
               "differ)\n",
               first, name[0], (unsigned long long)v[0][first], name[1],
               (unsigned long long)v[1][first], ndiff, common);
        rc = EXIT_MISMATCH;
    } else {
        printf("OK (%zu coefficients)\n", common);
    }
    free(v[0]);
    free(v[1]);
    return rc;
}
