/* Command-line helpers of the ntt command and ntt-bench (cli.h). */
#include "cli.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int cli_exit_code(ntt_status s)
{
    switch (s) {
    case NTT_OK: return EXIT_OK;
    case NTT_EIO: return EXIT_INPUT_IO;
    case NTT_EFORMAT:
    case NTT_EMACHINE: return EXIT_FORMAT;
    /* The programs validate their own arguments, so an EINVAL that reaches
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

int cli_is_help(const char *arg) { return strcmp(arg, "--help") == 0 || strcmp(arg, "-h") == 0; }

/* strtoull would accept " 12", "+12", "-1" (as 2^64-1) and "12abc" up to
   the junk. */
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

int cli_parse_list(const char *list, uint64_t lo, uint64_t hi, uint64_t *v, int max)
{
    int count = 0;
    for (const char *q = list;;) {
        char tok[24];
        const size_t len = strcspn(q, ",");
        uint64_t x;
        if (count == max || len == 0 || len >= sizeof tok) return -1;
        memcpy(tok, q, len);
        tok[len] = '\0';
        if (!cli_parse_u64(tok, &x) || x < lo || x > hi) return -1;
        v[count++] = x;
        if (!q[len]) return count;
        q += len + 1;
    }
}

cli_shown cli_show(const char *text)
{
    cli_shown t;
    (void)ntt_escape_bytes(t.s, sizeof t.s, text, text ? strlen(text) : 0);
    return t;
}

static FILE *or_stderr(FILE *f) { return f ? f : stderr; }

/* cli_option's work, its messages on err. */
static int take_value(const char *cmd, FILE *err, int argc, char **argv, int *i,
                      const char *lng, const char *shrt, const char **val)
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
        fprintf(err, "%s: option '%s' needs a value\n", cmd, cli_show(arg).s);
        return -1;
    }
    *val = argv[++*i];
    return 1;
}

static int check_file_name(const char *cmd, FILE *err, const char *lng, const char *path)
{
    if (*path) return 1;
    fprintf(err, "%s: the %s file name is empty\n", cmd, lng);
    return -1;
}

static int check_number(const char *cmd, FILE *err, const char *lng, const char *text,
                        uint64_t lo, uint64_t hi, uint64_t *v)
{
    if (cli_parse_u64(text, v) && *v >= lo && *v <= hi) return 1;
    fprintf(err, "%s: %s wants a whole number in [%llu, %llu], not '%s'\n", cmd, lng,
            (unsigned long long)lo, (unsigned long long)hi, cli_show(text).s);
    return -1;
}

static int usage_error(const char *cmd, FILE *err, const char *what, const char *arg)
{
    fprintf(err, "%s: %s '%s'\nTry '%s --help'.\n", cmd, what, cli_show(arg).s, cmd);
    return EXIT_USAGE;
}

int cli_option(const char *cmd, int argc, char **argv, int *i, const char *lng,
               const char *shrt, const char **val)
{
    return take_value(cmd, stderr, argc, argv, i, lng, shrt, val);
}

int cli_file_option(const char *cmd, int argc, char **argv, int *i, const char *lng,
                    const char *shrt, const char **path)
{
    const int r = take_value(cmd, stderr, argc, argv, i, lng, shrt, path);
    return r > 0 ? check_file_name(cmd, stderr, lng, *path) : r;
}

int cli_number_option(const char *cmd, int argc, char **argv, int *i, const char *lng,
                      uint64_t lo, uint64_t hi, uint64_t *v)
{
    const char *text;
    const int r = take_value(cmd, stderr, argc, argv, i, lng, NULL, &text);
    return r > 0 ? check_number(cmd, stderr, lng, text, lo, hi, v) : r;
}

int cli_unknown_option(const char *cmd, const char *arg)
{
    return usage_error(cmd, stderr, "unknown option", arg);
}

int cli_extra_argument(const char *cmd, const char *arg)
{
    return usage_error(cmd, stderr, "unexpected argument", arg);
}

/* One table entry at argv[*i]: 1 taken, 0 not this option, or -(exit code). */
static int take_option(const cli_command *c, FILE *err, const cli_opt *o, int argc, char **argv,
                       int *i)
{
    const char *v;
    int r = take_value(c->cmd, err, argc, argv, i, o->name, o->alias, &v);
    if (r <= 0) return r < 0 ? -EXIT_USAGE : 0;
    uint64_t x = 0;
    if (o->kind == CLI_FILE) r = check_file_name(c->cmd, err, o->name, v);
    if (o->kind == CLI_NUMBER) r = check_number(c->cmd, err, o->name, v, o->lo, o->hi, &x);
    if (r < 0) return -EXIT_USAGE;
    if (o->take) {
        const int e = o->take(c->cmd, err, v, o->dest);
        return e ? -e : 1;
    }
    if (o->kind == CLI_NUMBER)
        *(uint64_t *)o->dest = x;
    else
        *(const char **)o->dest = v;
    return 1;
}

int cli_parse(const cli_command *c, int argc, char **argv, int *npos)
{
    FILE *err = or_stderr(c->err);
    int n = 0, opts_done = 0;
    for (int i = 1; i < argc; i++) {
        const char *arg = argv[i];
        if (!opts_done && arg[0] == '-' && arg[1] != '\0') {
            if (strcmp(arg, "--") == 0) {
                opts_done = 1;
                continue;
            }
            if (cli_is_help(arg)) {
                c->usage(c->out ? c->out : stdout);
                return EXIT_OK;
            }
            int r = 0;
            for (const cli_opt *o = c->opts; o && o->name && r == 0; o++)
                r = take_option(c, err, o, argc, argv, &i);
            if (r < 0) return -r;
            if (r == 0) return usage_error(c->cmd, err, "unknown option", arg);
            continue;
        }
        if (n == c->pos_max) return usage_error(c->cmd, err, "unexpected argument", arg);
        c->pos[n++] = arg;
    }
    if (n < c->pos_min) {
        fprintf(err, "%s: %s\nTry '%s --help'.\n", c->cmd, c->missing, c->cmd);
        return EXIT_USAGE;
    }
    if (npos) *npos = n;
    return CLI_GO;
}

int cli_is_stdio(const char *path) { return path && strcmp(path, "-") == 0; }

const char *cli_input_name(const char *path)
{
    return cli_is_stdio(path) ? "standard input" : path;
}

ntt_status cli_course_read(const char *path, ntt_course_input *in, ntt_io_error *err)
{
    return cli_is_stdio(path) ? ntt_course_fread(stdin, in, err) : ntt_course_read(path, in, err);
}

ntt_status cli_coeffs_read(const char *path, uint64_t **c, size_t *len, ntt_io_error *err)
{
    return cli_is_stdio(path) ? ntt_coeffs_fread(stdin, c, len, err)
                              : ntt_coeffs_read(path, c, len, err);
}

void cli_io_error_text(char *buf, size_t len, const char *path, ntt_status st,
                       const ntt_io_error *e)
{
    const char *msg = e->message[0] ? e->message : ntt_status_string(st);
    path = cli_input_name(path);
    if (e->line && e->token)
        snprintf(buf, len, "%s:%zu: token %zu: %s", path, e->line, e->token, msg);
    else if (e->line)
        snprintf(buf, len, "%s:%zu: %s", path, e->line, msg);
    else
        snprintf(buf, len, "%s: %s", path, msg);
}

void cli_print_io_error(const char *cmd, const char *path, ntt_status st, const ntt_io_error *e)
{
    char buf[512];
    cli_io_error_text(buf, sizeof buf, path, st, e);
    fprintf(stderr, "%s: %s\n", cmd, buf);
}

int cli_write_coeffs(const char *cmd, const char *path, const uint64_t *c, size_t len)
{
    if (!path || cli_is_stdio(path)) {
        if (ntt_coeffs_fwrite(stdout, c, len) == NTT_OK && fflush(stdout) == 0) return EXIT_OK;
        fprintf(stderr, "%s: standard output: cannot write: %s\n", cmd, strerror(errno));
        return EXIT_OUTPUT_IO;
    }
    ntt_io_error err;
    const ntt_status st = ntt_coeffs_write(path, c, len, &err);
    if (st == NTT_OK) return EXIT_OK;
    const char *why = err.message[0] ? err.message : ntt_status_string(st);
    /* The library's message may already start with "cannot write". */
    if (strncmp(why, "cannot write: ", 14) == 0) why += 14;
    fprintf(stderr, "%s: %s: cannot write: %s\n", cmd, path, why);
    return EXIT_OUTPUT_IO;
}

/* The temporary file lies beside `path`, so that the final rename() stays
   within one file system and is atomic: readers see the old file or the
   whole new one, never a partial one. */
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

int cli_write_file(const char *cmd, const char *path, int (*emit)(FILE *f, void *ctx),
                   void *ctx)
{
    if (!path || cli_is_stdio(path)) {
        if (emit(stdout, ctx) == 0 && fflush(stdout) == 0 && !ferror(stdout)) return EXIT_OK;
        fprintf(stderr, "%s: standard output: cannot write: %s\n", cmd, strerror(errno));
        return EXIT_OUTPUT_IO;
    }
    char why[256];
    if (cli_atomic_write(path, emit, ctx, why, sizeof why) == 0) return EXIT_OK;
    fprintf(stderr, "%s: %s: cannot write: %s\n", cmd, path, why);
    return EXIT_OUTPUT_IO;
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
