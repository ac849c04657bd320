/* What the ntt command and ntt-bench share about their command lines: exit
   codes, strict option parsing, messages about input files, atomic output
   and JSON strings.  Part of the ntt_tool_support library; not installed. */
#ifndef NTT_CLI_H
#define NTT_CLI_H

#include "ntt.h"

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Exit codes of both programs (README and `ntt --help` document them). */
enum {
    EXIT_OK = 0,
    EXIT_MISMATCH = 1,    /* a result differs from the expected one */
    EXIT_USAGE = 2,       /* bad command line */
    EXIT_INPUT_IO = 3,    /* an input file is missing or unreadable */
    EXIT_FORMAT = 4,      /* malformed input (NTT_EFORMAT, bad n or p) */
    EXIT_RANGE = 5,       /* a coefficient is >= p (NTT_ERANGE) */
    EXIT_OUTPUT_IO = 6,   /* the output file cannot be written */
    EXIT_UNSUPPORTED = 7, /* backend, variant or program not available here */
    EXIT_FAILURE_LIB = 8  /* any other failure (memory, backend error) */
};

/* The exit code for a library status from reading an input file or running
   a product. */
int cli_exit_code(ntt_status s);

/* In what follows `cmd` is the command as messages name it: "ntt mul",
   "ntt-bench oracle". */

int cli_is_help(const char *arg); /* "--help" or "-h" */
/* A whole token of decimal digits: no sign, no spaces, no overflow. */
int cli_parse_u64(const char *s, uint64_t *v);
/* "X1,X2,...": at most max whole numbers, each in [lo, hi], into v; the
   count, or -1 for an empty item, a bad number or too many. */
int cli_parse_list(const char *list, uint64_t lo, uint64_t hi, uint64_t *v, int max);
/* "--lng VALUE", "--lng=VALUE" or "-s VALUE" at argv[*i]: 1 with *val set
   (and *i past a separate value), 0 when argv[*i] is something else, -1
   after printing a usage error. */
int cli_option(const char *cmd, int argc, char **argv, int *i, const char *lng,
               const char *shrt, const char **val);
/* An option whose value is a file name: as cli_option, and -1 also after an
   empty name. */
int cli_file_option(const char *cmd, int argc, char **argv, int *i, const char *lng,
                    const char *shrt, const char **path);
/* An option whose value is a whole number in [lo, hi]: as cli_option, with
   *v set, and -1 also after a value out of range or not a number. */
int cli_number_option(const char *cmd, int argc, char **argv, int *i, const char *lng,
                      uint64_t lo, uint64_t hi, uint64_t *v);
/* Print "CMD: unknown option 'ARG'" / "CMD: unexpected argument 'ARG'" and
   a pointer to --help; return EXIT_USAGE. */
int cli_unknown_option(const char *cmd, const char *arg);
int cli_extra_argument(const char *cmd, const char *arg);

/* "PATH:LINE: token K: MESSAGE" of a failed read, leaving out the parts the
   reader could not pin down. */
void cli_io_error_text(char *buf, size_t len, const char *path, ntt_status st,
                       const ntt_io_error *e);
/* The same on standard error, after "CMD: ". */
void cli_print_io_error(const char *cmd, const char *path, ntt_status st, const ntt_io_error *e);

/* Writes c[0..len) as an output file: to `path` atomically (ntt_coeffs_write),
   or to standard output when path is NULL.  EXIT_OK, or EXIT_OUTPUT_IO after
   printing why. */
int cli_write_coeffs(const char *cmd, const char *path, const uint64_t *c, size_t len);

/* Writes `path` through a unique temporary file renamed over it only when
   emit() returned 0 and every write succeeded.  0, or -1 with why set. */
int cli_atomic_write(const char *path, int (*emit)(FILE *f, void *ctx), void *ctx, char *why,
                     size_t whylen);
void cli_json_string(FILE *f, const char *s); /* a JSON string literal */

#ifdef __cplusplus
}
#endif

#endif
