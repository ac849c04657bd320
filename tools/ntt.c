/* The ntt command: subcommand dispatch, exit codes, and the small helpers
   the subcommands share (strict number parsing, option values, atomic file
   output, JSON strings). */
#include "tool.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void usage(FILE *f)
{
    fputs("usage: ntt <command> [options]\n"
          "\n"
          "Number-theoretic transforms and polynomial multiplication modulo p.\n"
          "\n"
          "commands:\n"
          "  mul FILE [-o OUT]     multiply the two polynomials of a course input file\n"
          "  cases DIR             run, time and check every DIR/<id>.in against <id>.out\n"
          "  gen N P --seed S      write a random course input file (and its product)\n"
          "  verify OUT EXPECTED   compare two coefficient lists\n"
          "  bench                 measure transforms and products\n"
          "  info                  library, backends and machine\n"
          "  help [COMMAND]        this text, or a command's usage\n"
          "\n"
          "options of every command: --help, -h\n"
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
          "  7  backend or variant not available on this machine\n"
          "  8  any other failure (out of memory, backend run-time error)\n",
          f);
}

int exit_code_for(ntt_status s)
{
    switch (s) {
    case NTT_OK: return EXIT_OK;
    case NTT_EIO: return EXIT_INPUT_IO;
    case NTT_EFORMAT: return EXIT_FORMAT;
    /* The command validates its own arguments, so an EINVAL that reaches
       here comes from the contents of an input file. */
    case NTT_EINVAL: return EXIT_FORMAT;
    case NTT_ERANGE: return EXIT_RANGE;
    case NTT_EUNSUPPORTED: return EXIT_UNSUPPORTED;
    case NTT_EMODULUS:
    case NTT_ENOMEM:
    case NTT_EBACKEND: return EXIT_FAILURE_LIB;
    }
    return EXIT_FAILURE_LIB;
}

/* ---- helpers shared by the subcommands ------------------------------------ */

int cli_is_help(const char *arg) { return strcmp(arg, "--help") == 0 || strcmp(arg, "-h") == 0; }

/* A whole token of decimal digits, no sign, no spaces, no overflow: strtoull
   would accept " 12", "+12", "-1" (as 2^64-1) and "12abc" up to the junk. */
int cli_parse_u64(const char *s, uint64_t *v)
{
    if (!s || !*s) return 0;
    uint64_t x = 0;
    for (const char *q = s; *q; q++) {
        if (*q < '0' || *q > '9') return 0;
        unsigned d = (unsigned)(*q - '0');
        if (x > (UINT64_MAX - d) / 10) return 0;
        x = x * 10 + d;
    }
    *v = x;
    return 1;
}

/* Matches argv[*i] against an option that takes a value: "--lng VALUE",
   "--lng=VALUE" or "-s VALUE".  Returns 1 with *val set (and *i advanced
   past a separate value), 0 when argv[*i] is another option, -1 after
   printing a usage error. */
int cli_option(const char *sub, int argc, char **argv, int *i, const char *lng,
               const char *shrt, const char **val)
{
    const char *arg = argv[*i];
    size_t ll = lng ? strlen(lng) : 0;
    int matched = 0;
    if (lng && strncmp(arg, lng, ll) == 0 && arg[ll] == '=') {
        *val = arg + ll + 1;
        return 1;
    }
    if (lng && strcmp(arg, lng) == 0) matched = 1;
    if (shrt && strcmp(arg, shrt) == 0) matched = 1;
    if (!matched) return 0;
    if (*i + 1 >= argc) {
        fprintf(stderr, "ntt %s: option '%s' needs a value\n", sub, arg);
        return -1;
    }
    *val = argv[++*i];
    return 1;
}

/* Writes a file under a unique temporary name beside `path` (so that the
   final rename() stays within one file system and is atomic) and renames it
   over `path` only when emit() and every write succeeded: readers see the
   old file or the whole new one, never a partial one.  Returns 0, or -1
   with the reason in why. */
int cli_atomic_write(const char *path, int (*emit)(FILE *f, void *ctx), void *ctx, char *why,
                     size_t whylen)
{
    static unsigned counter;
    if (!path || !*path) {
        snprintf(why, whylen, "empty file name");
        return -1;
    }
    const size_t cap = strlen(path) + 48;
    char *tmp = malloc(cap);
    if (!tmp) {
        snprintf(why, whylen, "out of memory");
        return -1;
    }
    int fd = -1;
    for (int attempt = 0; attempt < 100 && fd < 0; attempt++) {
        snprintf(tmp, cap, "%s.tmp.%ld.%u", path, (long)getpid(), counter++);
        fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL, 0666);
        if (fd < 0 && errno != EEXIST) break;
    }
    if (fd < 0) {
        snprintf(why, whylen, "cannot create a temporary file beside it: %s", strerror(errno));
        free(tmp);
        return -1;
    }
    FILE *f = fdopen(fd, "w");
    if (!f) {
        snprintf(why, whylen, "%s", strerror(errno));
        close(fd);
        unlink(tmp);
        free(tmp);
        return -1;
    }
    errno = 0;
    int bad = emit(f, ctx) != 0 || ferror(f) || fflush(f) != 0;
    int saved = errno;
    if (fclose(f) != 0 && !bad) {
        bad = 1;
        saved = errno;
    }
    if (!bad && rename(tmp, path) != 0) {
        bad = 1;
        saved = errno;
    }
    if (bad) {
        snprintf(why, whylen, "%s", saved ? strerror(saved) : "write failed");
        unlink(tmp);
    }
    free(tmp);
    return bad ? -1 : 0;
}

/* Length of the well-formed UTF-8 sequence at q, or 0. */
static size_t utf8_len(const unsigned char *q)
{
    if (q[0] < 0xc2 || q[0] > 0xf4) return 0;
    const size_t len = q[0] < 0xe0 ? 2 : q[0] < 0xf0 ? 3 : 4;
    const unsigned min = len == 2 ? 0x80 : len == 3 ? 0x800 : 0x10000;
    unsigned cp = q[0] & (0x7fu >> len);
    for (size_t i = 1; i < len; i++) {
        if ((q[i] & 0xc0) != 0x80) return 0; /* also stops at the terminating NUL */
        cp = (cp << 6) | (q[i] & 0x3fu);
    }
    if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) return 0;
    return len;
}

/* File names and tokens quoted in messages are user data and may be any
   bytes (or a UTF-8 sequence cut by the reader's truncation); JSON must be
   UTF-8, so a byte that does not start a well-formed sequence becomes
   U+FFFD. */
void cli_json_string(FILE *f, const char *s)
{
    fputc('"', f);
    for (const unsigned char *q = (const unsigned char *)s; *q; q++) {
        if (*q >= 0x80) {
            size_t len = utf8_len(q);
            if (len) {
                fwrite(q, 1, len, f);
                q += len - 1;
            } else {
                fputs("\\ufffd", f);
            }
            continue;
        }
        switch (*q) {
        case '"': fputs("\\\"", f); break;
        case '\\': fputs("\\\\", f); break;
        case '\n': fputs("\\n", f); break;
        case '\r': fputs("\\r", f); break;
        case '\t': fputs("\\t", f); break;
        default:
            if (*q < 0x20)
                fprintf(f, "\\u%04x", *q);
            else
                fputc(*q, f);
        }
    }
    fputc('"', f);
}

/* ---- dispatch --------------------------------------------------------------- */

static const struct {
    const char *name;
    int (*run)(int argc, char **argv);
} commands[] = {
    {"mul", cmd_mul},       {"cases", cmd_cases}, {"gen", cmd_gen},
    {"verify", cmd_verify}, {"bench", cmd_bench}, {"info", cmd_info},
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
