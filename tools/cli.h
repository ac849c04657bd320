/* What the ntt command, ntt-mpi and ntt-bench share about their command
   lines: exit codes, the argument loop (an option table), "-" as standard
   input or output, messages about input files, atomic output and JSON
   strings.  Part of the ntt_tool_support library; not installed. */
#ifndef NTT_CLI_H
#define NTT_CLI_H

#include "ntt.h"

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Exit codes of every program (README and `ntt --help` document them). */
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

/* ---- the argument loop ------------------------------------------------------ */

typedef enum {
    CLI_TEXT,  /* any value */
    CLI_FILE,  /* a file name, not empty ("-": standard input or output) */
    CLI_NUMBER /* a whole number in [lo, hi] (uint64_t) */
} cli_kind;

/* One option of a command's table, taking a value as "--name VALUE",
   "--name=VALUE" or "ALIAS VALUE".  The value, once the kind's checks pass,
   goes to take(cmd, err, value, dest) when take is set (which returns 0, or
   an exit code after printing why on err), else into dest: a const char **
   for CLI_TEXT and CLI_FILE, a uint64_t * for CLI_NUMBER.  A table ends with
   an entry whose name is NULL. */
typedef struct cli_opt {
    const char *name;  /* "--output" */
    const char *alias; /* "-o", or NULL */
    cli_kind kind;
    void *dest;
    uint64_t lo, hi; /* CLI_NUMBER's range */
    int (*take)(const char *cmd, FILE *err, const char *value, void *dest);
} cli_opt;

/* A command line: options from the table anywhere, "--help" or "-h"
   (usage on `out`, exit 0), "--" ending the options, "-" and every other
   word not starting with '-' a positional argument, in order into
   pos[0..pos_max).  Fewer than pos_min of them: "CMD: MISSING" and a
   pointer to --help. */
typedef struct cli_command {
    const char *cmd;
    void (*usage)(FILE *f);
    const cli_opt *opts;
    const char **pos;
    int pos_min, pos_max;
    const char *missing; /* "missing input FILE" */
    FILE *out, *err;     /* where help and messages go; NULL: stdout, stderr */
} cli_command;

/* The argument loop, over argv[1..argc) (argv[0] is the command's name).
   CLI_GO to go on (then *npos, when not NULL, holds how many positional
   arguments there were); otherwise the exit code, after printing help
   (EXIT_OK) or why (EXIT_USAGE, or what a take() returned). */
#define CLI_GO (-1)
int cli_parse(const cli_command *c, int argc, char **argv, int *npos);

/* ---- pieces of the loop, for the loops of ntt-bench's other subcommands ---- */

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

/* ---- untrusted text in messages --------------------------------------------- */

/* An argument or other user text as messages quote it: escaped and bounded
   by ntt_escape_bytes, so that escape sequences and control bytes never
   reach the terminal.  Use the result within the same expression:
   fprintf(f, "'%s'", cli_show(arg).s). */
typedef struct {
    char s[NTT_ESCAPE_CAP];
} cli_shown;
cli_shown cli_show(const char *text);

/* ---- files, "-" included ------------------------------------------------------ */

/* "-" names standard input (reading) or standard output (writing); a file
   called "-" is ./-. */
int cli_is_stdio(const char *path);
/* How messages name an input file: "standard input" for "-". */
const char *cli_input_name(const char *path);
/* The readers of the library on `path`, or on standard input for "-". */
ntt_status cli_course_read(const char *path, ntt_course_input *in, ntt_io_error *err);
ntt_status cli_coeffs_read(const char *path, uint64_t **c, size_t *len, ntt_io_error *err);

/* "PATH:LINE: token K: MESSAGE" of a failed read, leaving out the parts the
   reader could not pin down; "-" is named "standard input". */
void cli_io_error_text(char *buf, size_t len, const char *path, ntt_status st,
                       const ntt_io_error *e);
/* The same on standard error, after "CMD: ". */
void cli_print_io_error(const char *cmd, const char *path, ntt_status st, const ntt_io_error *e);

/* Writes c[0..len) as an output file: to `path` atomically (ntt_coeffs_write),
   or to standard output when path is NULL or "-".  EXIT_OK, or
   EXIT_OUTPUT_IO after printing why. */
int cli_write_coeffs(const char *cmd, const char *path, const uint64_t *c, size_t len);

/* Writes `path` through a unique temporary file renamed over it only when
   emit() returned 0 and every write succeeded.  0, or -1 with why set. */
int cli_atomic_write(const char *path, int (*emit)(FILE *f, void *ctx), void *ctx, char *why,
                     size_t whylen);
/* emit() to `path` (cli_atomic_write), or to standard output when path is
   NULL or "-".  EXIT_OK, or EXIT_OUTPUT_IO after printing why. */
int cli_write_file(const char *cmd, const char *path, int (*emit)(FILE *f, void *ctx),
                   void *ctx);
void cli_json_string(FILE *f, const char *s); /* a JSON string literal */

#ifdef __cplusplus
}
#endif

#endif
