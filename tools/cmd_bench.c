/* ntt bench ARGS: runs `ntt-bench ARGS`, the benchmark program, which is a
   separate binary so that the command itself needs no GMP, FLINT or NTL.
   It is looked for beside this binary first (a build tree, an installed
   prefix), then in PATH. */
#include "cli.h"
#include "commands.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define BENCH_NAME "ntt-bench"

/* The directory of the running binary into dir; 0 when unknown. */
static int self_dir(char *dir, size_t len)
{
    ssize_t n = readlink("/proc/self/exe", dir, len - 1);
    if (n <= 0) return 0;
    dir[n] = '\0';
    char *slash = strrchr(dir, '/');
    if (!slash) return 0;
    *slash = '\0';
    return 1;
}

int cmd_bench(int argc, char **argv)
{
    char **args = calloc((size_t)argc + 1, sizeof *args);
    if (!args) {
        fputs("ntt bench: out of memory\n", stderr);
        return EXIT_FAILURE_LIB;
    }
    args[0] = BENCH_NAME;
    for (int i = 1; i < argc; i++) args[i] = argv[i];

    /* The first failure other than "no such file" is the one worth telling. */
    int why = 0;
    char dir[PATH_MAX], path[PATH_MAX + sizeof BENCH_NAME + 1];
    const int have_dir = self_dir(dir, sizeof dir);
    if (have_dir) {
        snprintf(path, sizeof path, "%s/%s", dir, BENCH_NAME);
        execv(path, args);
        if (errno != ENOENT) why = errno;
    }
    execvp(BENCH_NAME, args);
    if (!why && errno != ENOENT) why = errno;
    free(args);
    if (why) {
        fprintf(stderr, "ntt bench: cannot run %s: %s\n", BENCH_NAME, strerror(why));
        return EXIT_FAILURE_LIB;
    }
    fprintf(stderr,
            "ntt bench: %s is not built or not installed (looked in %s and in PATH).\n"
            "It is built where GMP is found (Debian: apt-get install libgmp-dev).\n",
            BENCH_NAME, have_dir ? dir : "this binary's directory");
    return EXIT_UNSUPPORTED;
}
