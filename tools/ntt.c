/* The ntt command: usage and subcommand dispatch. */
#include "cli.h"
#include "commands.h"
#include "sysinfo.h"

#include <stdio.h>
#include <string.h>

static void usage(FILE *f)
{
    fputs("usage: ntt <command> [options]\n"
          "\n"
          "Number-theoretic transforms and polynomial multiplication modulo p.\n"
          "\n"
          "commands:\n"
          "  mul FILE [-o OUT]     multiply the two polynomials of a course input file\n"
          "  cases DIR             run, time and check every DIR/<id>.in against <id>.out\n"
          "  gen N P --seed S      write a random course input file\n"
          "  verify OUT EXPECTED   compare two coefficient lists\n"
          "  info                  library, backends and machine\n"
          "  wisdom [-o FILE]      plan common sizes by measuring; write the wisdom\n"
          "  bench ...             run ntt-bench, the benchmarks (built where GMP is)\n"
          "  help [COMMAND]        this text, or a command's usage\n"
          "\n"
          "options of every command: --help, -h\n"
          "A file argument - is standard input (FILE) or output (-o -).\n"
          "ntt --version prints the version.\n"
          "\n"
          "A course input file holds \"n p\", then n coefficients of a, then n of b\n"
          "(decimal, any whitespace), with 1 <= n <= 2^29, 2 <= p < 2^63 and every\n"
          "coefficient in [0, p).\n"
          "\n"
          "exit status:\n"
          "  0  success\n"
          "  1  a result differs from the expected one (verify, cases)\n"
          "  2  bad command line\n"
          "  3  an input file is missing or unreadable\n"
          "  4  malformed input (bad token, n or p out of range, missing or extra numbers)\n"
          "  5  a coefficient is not below p\n"
          "  6  the output file cannot be written\n"
          "  7  backend or variant not available on this machine (bench: ntt-bench missing)\n"
          "  8  any other failure (out of memory, backend run-time error)\n",
          f);
}

static const struct {
    const char *name;
    int (*run)(int argc, char **argv);
} commands[] = {
    {"mul", cmd_mul},       {"cases", cmd_cases}, {"gen", cmd_gen},
    {"verify", cmd_verify}, {"info", cmd_info},   {"bench", cmd_bench},
    {"wisdom", cmd_wisdom},
};

#define NCOMMANDS (sizeof commands / sizeof commands[0])

static int find_command(const char *name)
{
    for (size_t i = 0; i < NCOMMANDS; i++)
        if (strcmp(commands[i].name, name) == 0) return (int)i;
    return -1;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        usage(stderr);
        return EXIT_USAGE;
    }
    const char *sub = argv[1];
    if (cli_is_help(sub)) {
        usage(stdout);
        return EXIT_OK;
    }
    if (strcmp(sub, "--version") == 0) {
        printf("ntt %d.%d.%d (commit %s)\n", NTT_VERSION_MAJOR, NTT_VERSION_MINOR,
               NTT_VERSION_PATCH, build_commit());
        return EXIT_OK;
    }
    if (strcmp(sub, "help") == 0) {
        if (argc == 2) {
            usage(stdout);
            return EXIT_OK;
        }
        int k = find_command(argv[2]);
        if (k < 0 || argc > 3) {
            fprintf(stderr, "ntt help: unknown command '%s'\n", argv[2]);
            usage(stderr);
            return EXIT_USAGE;
        }
        char *hargv[] = {argv[2], "--help", NULL};
        return commands[k].run(2, hargv);
    }
    int k = find_command(sub);
    if (k < 0) {
        fprintf(stderr, "ntt: unknown command '%s'\n\n", sub);
        usage(stderr);
        return EXIT_USAGE;
    }
    return commands[k].run(argc - 1, argv + 1);
}
