/* ntt verify: compares two coefficient lists. */
#include "cli.h"
#include "commands.h"

#include <stdbool.h>
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
          "exit status: 0 equal, 1 different, 2 usage, 3 unreadable file, 4 malformed file.\n",
          f);
}

int cmd_verify(int argc, char **argv)
{
    static const char cmd[] = "ntt verify";
    const char *files[2] = {NULL, NULL};
    int nfiles = 0;
    bool opts_done = false;
    for (int i = 1; i < argc; i++) {
        const char *arg = argv[i];
        if (!opts_done && arg[0] == '-' && arg[1] != '\0') {
            if (strcmp(arg, "--") == 0) {
                opts_done = true;
                continue;
            }
            if (cli_is_help(arg)) {
                verify_usage(stdout);
                return EXIT_OK;
            }
            return cli_unknown_option(cmd, arg);
        }
        if (nfiles == 2) return cli_extra_argument(cmd, arg);
        files[nfiles++] = arg;
    }
    if (nfiles < 2) {
        fprintf(stderr, "%s: needs two files: OUT EXPECTED\nTry '%s --help'.\n", cmd, cmd);
        return EXIT_USAGE;
    }
    uint64_t *v[2] = {NULL, NULL};
    size_t len[2] = {0, 0};
    for (int k = 0; k < 2; k++) {
        ntt_io_error err;
        ntt_status st = ntt_coeffs_read(files[k], &v[k], &len[k], &err);
        if (st != NTT_OK) {
            cli_print_io_error(cmd, files[k], st, &err);
            free(v[0]);
            return cli_exit_code(st);
        }
    }
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
        printf("MISMATCH: lengths differ: %s has %zu coefficients, %s has %zu", files[0], len[0],
               files[1], len[1]);
        if (first < common)
            printf("; first difference at index %zu: %llu vs %llu", first,
                   (unsigned long long)v[0][first], (unsigned long long)v[1][first]);
        putchar('\n');
        rc = EXIT_MISMATCH;
    } else if (ndiff) {
        printf("MISMATCH at index %zu: %s has %llu, %s has %llu (%zu of %zu coefficients "
               "differ)\n",
               first, files[0], (unsigned long long)v[0][first], files[1],
               (unsigned long long)v[1][first], ndiff, common);
        rc = EXIT_MISMATCH;
    } else {
        printf("OK (%zu coefficients)\n", common);
    }
    free(v[0]);
    free(v[1]);
    return rc;
}
