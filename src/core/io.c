/* The course file format: reading with exact error positions, atomic
   writing. */
/* realpath is X/Open's (the build asks for POSIX 2008 only). */
#define _XOPEN_SOURCE 700
#include "internal.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define MAX_COURSE_N ((size_t)1 << (NTT_MAX_LOG2_N - 1))

static void set_err(ntt_io_error *err, size_t line, size_t token, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

static void set_err(ntt_io_error *err, size_t line, size_t token, const char *fmt, ...)
{
    if (!err) return;
    err->line = line;
    err->token = token;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err->message, sizeof err->message, fmt, ap);
    va_end(ap);
}

/* ---- tokenizer ------------------------------------------------------------ */

typedef struct {
    FILE *f;
    size_t line;      /* current line, 1-based */
    size_t tok_line;  /* line of the last token */
    size_t tok_index; /* its 1-based number within that line */
    size_t on_line;   /* tokens seen so far on the current line */
    /* The token's first bytes as they are (NULs included), enough that the
       rendering in messages (NTT_ESCAPE_CAP) ends in "..." whenever bytes
       are left out. */
    unsigned char raw[NTT_ESCAPE_CAP + 4];
    size_t len;       /* its full length */
    /* Parsed on the fly, so that a long token (leading zeros) is judged by
       its value and not by its truncated text. */
    uint64_t value;
    bool digits;      /* only decimal digits */
    bool overflow;    /* value >= 2^64 */
} lexer;

static bool is_space(int c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f'; }

/* 1: a token was read, 0: end of file, -1: read error. */
static int next_token(lexer *lx)
{
    int c;
    for (;;) {
        c = getc_unlocked(lx->f);
        if (c == EOF) return ferror(lx->f) ? -1 : 0;
        if (c == '\n') { lx->line++; lx->on_line = 0; continue; }
        if (!is_space(c)) break;
    }
    lx->tok_line = lx->line;
    lx->tok_index = ++lx->on_line;
    lx->len = 0;
    lx->value = 0;
    lx->digits = true;
    lx->overflow = false;
    do {
        if (lx->len < sizeof lx->raw) lx->raw[lx->len] = (unsigned char)c;
        lx->len++;
        if (c >= '0' && c <= '9') {
            unsigned d = (unsigned)(c - '0');
            if (lx->value > (UINT64_MAX - d) / 10) lx->overflow = true;
            lx->value = lx->value * 10 + d;
        } else {
            lx->digits = false;
        }
        c = getc_unlocked(lx->f);
    } while (c != EOF && !is_space(c));
    if (c == '\n') { lx->line++; lx->on_line = 0; }
    if (c == EOF && ferror(lx->f)) return -1;
    return 1;
}

/* The last token as messages show it: input bytes are untrusted (escape
   sequences, a NUL inside the token), so they are escaped and bounded. */
typedef struct {
    char s[NTT_ESCAPE_CAP];
} shown_token;

static shown_token show(const lexer *lx)
{
    shown_token t;
    const size_t kept = lx->len < sizeof lx->raw ? lx->len : sizeof lx->raw;
    (void)ntt_escape_bytes(t.s, sizeof t.s, lx->raw, kept);
    return t;
}

/* The token as an unsigned decimal.  Returns false (and says why in err)
   for anything else. */
static bool token_u64(const lexer *lx, uint64_t *v, const char *what, ntt_io_error *err)
{
    /* The token is rendered only on failure: this runs once per number. */
    if (lx->raw[0] == '-') {
        set_err(err, lx->tok_line, lx->tok_index, "%s \"%s\" is negative", what, show(lx).s);
        return false;
    }
    if (!lx->digits) {
        set_err(err, lx->tok_line, lx->tok_index, "%s \"%s\" is not a decimal number", what,
                show(lx).s);
        return false;
    }
    if (lx->overflow) {
        set_err(err, lx->tok_line, lx->tok_index, "%s \"%s\" does not fit in 64 bits", what,
                show(lx).s);
        return false;
    }
    *v = lx->value;
    return true;
}

static FILE *open_read(const char *path, ntt_io_error *err)
{
    FILE *f = fopen(path, "rb");
    if (!f) set_err(err, 0, 0, "cannot open: %s", strerror(errno));
    return f;
}

/* Reads up to `want` numbers into a growing array (never trusting `want`
   for the allocation, so a lying header cannot exhaust memory), each below
   `below` unless that is 0.  Returns how many were read, or sets *st. */
static size_t read_numbers(lexer *lx, uint64_t **out, size_t want, uint64_t below,
                           const char *what, ntt_status *st, ntt_io_error *err)
{
    size_t cap = 0, k = 0;
    uint64_t *v = NULL;
    while (k < want) {
        int r = next_token(lx);
        if (r < 0) {
            set_err(err, lx->line, 0, "read error: %s", strerror(errno));
            *st = NTT_EIO;
            break;
        }
        if (r == 0) break;
        uint64_t x;
        if (!token_u64(lx, &x, what, err)) { *st = NTT_EFORMAT; break; }
        if (below && x >= below) {
            set_err(err, lx->tok_line, lx->tok_index, "%s %s is not below p = %llu", what,
                    show(lx).s, (unsigned long long)below);
            *st = NTT_ERANGE;
            break;
        }
        if (k == cap) {
            size_t nc = cap ? 2 * cap : 1024;
            if (nc > want) nc = want;
            uint64_t *nv = realloc(v, nc * sizeof *nv);
            if (!nv) { *st = NTT_ENOMEM; set_err(err, 0, 0, "out of memory"); break; }
            v = nv;
            cap = nc;
        }
        v[k++] = x;
    }
    *out = v;
    return k;
}

void ntt_course_free(ntt_course_input *in)
{
    if (!in) return;
    free(in->a);
    free(in->b);
    memset(in, 0, sizeof *in);
}

/* The course format from f (the callers have cleared *in and err). */
static ntt_status course_parse(FILE *f, ntt_course_input *in, ntt_io_error *err)
{
    lexer lx = {.f = f, .line = 1};
    ntt_status st = NTT_OK;
    uint64_t hdr[2];
    size_t hline[2] = {0, 0}, htok[2] = {0, 0};
    static const char *const names[2] = {"n", "p"};
    for (int i = 0; i < 2 && st == NTT_OK; i++) {
        int r = next_token(&lx);
        if (r < 0) {
            set_err(err, lx.line, 0, "read error: %s", strerror(errno));
            st = NTT_EIO;
        } else if (r == 0) {
            set_err(err, lx.line, 0, "file ends before the header \"n p\" is complete");
            st = NTT_EFORMAT;
        } else if (!token_u64(&lx, &hdr[i], names[i], err)) {
            st = NTT_EFORMAT;
        }
        hline[i] = lx.tok_line;
        htok[i] = lx.tok_index;
    }
    if (st == NTT_OK && (hdr[0] < 1 || hdr[0] > MAX_COURSE_N)) {
        set_err(err, hline[0], htok[0], "n = %llu is out of range [1, %zu]", (unsigned long long)hdr[0], MAX_COURSE_N);
        st = NTT_EFORMAT;
    }
    if (st == NTT_OK && (hdr[1] < 2 || hdr[1] >= ((uint64_t)1 << 63))) {
        set_err(err, hline[1], htok[1], "p = %llu is out of range [2, 2^63)",
                (unsigned long long)hdr[1]);
        st = NTT_EFORMAT;
    }
    const size_t n = (size_t)hdr[0];
    const uint64_t p = hdr[1];
    uint64_t *a = NULL, *b = NULL;
    if (st == NTT_OK) {
        size_t ka = read_numbers(&lx, &a, n, p, "coefficient", &st, err);
        if (st == NTT_OK && ka < n) {
            set_err(err, lx.line, 0, "file ends after %zu of the %zu coefficients of a", ka, n);
            st = NTT_EFORMAT;
        }
    }
    if (st == NTT_OK) {
        size_t kb = read_numbers(&lx, &b, n, p, "coefficient", &st, err);
        if (st == NTT_OK && kb < n) {
            set_err(err, lx.line, 0, "file ends after %zu of the %zu coefficients of b", kb, n);
            st = NTT_EFORMAT;
        }
    }
    if (st == NTT_OK) {
        int r = next_token(&lx);
        if (r < 0) {
            set_err(err, lx.line, 0, "read error: %s", strerror(errno));
            st = NTT_EIO;
        } else if (r > 0) {
            set_err(err, lx.tok_line, lx.tok_index,
                    "unexpected \"%s\" after the 2n = %zu coefficients", show(&lx).s, 2 * n);
            st = NTT_EFORMAT;
        }
    }
    if (st != NTT_OK) {
        free(a);
        free(b);
        return st;
    }
    in->n = n;
    in->p = p;
    in->a = a;
    in->b = b;
    return NTT_OK;
}

ntt_status ntt_course_read(const char *path, ntt_course_input *in, ntt_io_error *err)
{
    if (err) memset(err, 0, sizeof *err);
    if (!in) return NTT_EINVAL;
    memset(in, 0, sizeof *in);
    if (!path) return NTT_EINVAL;
    FILE *f = open_read(path, err);
    if (!f) return NTT_EIO;
    const ntt_status st = course_parse(f, in, err);
    fclose(f);
    return st;
}

ntt_status ntt_course_fread(FILE *f, ntt_course_input *in, ntt_io_error *err)
{
    if (err) memset(err, 0, sizeof *err);
    if (!in) return NTT_EINVAL;
    memset(in, 0, sizeof *in);
    if (!f) return NTT_EINVAL;
    return course_parse(f, in, err);
}

/* The list from f into *c and *len (the callers have cleared them and err). */
static ntt_status coeffs_parse(FILE *f, uint64_t **c, size_t *len, ntt_io_error *err)
{
    lexer lx = {.f = f, .line = 1};
    ntt_status st = NTT_OK;
    uint64_t *v = NULL;
    size_t k = read_numbers(&lx, &v, SIZE_MAX / sizeof(uint64_t), 0, "value", &st, err);
    if (st != NTT_OK) {
        free(v);
        return st;
    }
    *c = v;
    *len = k;
    return NTT_OK;
}

ntt_status ntt_coeffs_read(const char *path, uint64_t **c, size_t *len, ntt_io_error *err)
{
    if (err) memset(err, 0, sizeof *err);
    if (!path || !c || !len) return NTT_EINVAL;
    *c = NULL;
    *len = 0;
    FILE *f = open_read(path, err);
    if (!f) return NTT_EIO;
    const ntt_status st = coeffs_parse(f, c, len, err);
    fclose(f);
    return st;
}

ntt_status ntt_coeffs_fread(FILE *f, uint64_t **c, size_t *len, ntt_io_error *err)
{
    if (err) memset(err, 0, sizeof *err);
    if (!f || !c || !len) return NTT_EINVAL;
    *c = NULL;
    *len = 0;
    return coeffs_parse(f, c, len, err);
}

/* ---- writing ---------------------------------------------------------------- */

ntt_status ntt_coeffs_fwrite(FILE *f, const uint64_t *c, size_t len)
{
    if (!f || (!c && len)) return NTT_EINVAL;
    char buf[1 << 16];
    size_t used = 0;
    for (size_t i = 0; i < len; i++) {
        if (used > sizeof buf - 24) {
            if (fwrite(buf, 1, used, f) != used) return NTT_EIO;
            used = 0;
        }
        char tmp[24];
        int k = 0;
        uint64_t x = c[i];
        do { tmp[k++] = (char)('0' + x % 10); x /= 10; } while (x);
        if (i) buf[used++] = ' ';
        while (k) buf[used++] = tmp[--k];
    }
    buf[used++] = '\n';
    if (fwrite(buf, 1, used, f) != used || fflush(f) != 0) return NTT_EIO;
    return NTT_OK;
}

typedef struct {
    const uint64_t *c;
    size_t len;
} coeffs_arg;

static ntt_status coeffs_emit(FILE *f, const void *arg)
{
    const coeffs_arg *x = arg;
    return ntt_coeffs_fwrite(f, x->c, x->len);
}

static ntt_status write_in_place(const char *path, ntt_emit_fn emit, const void *arg,
                                 ntt_io_error *err)
{
    FILE *f = fopen(path, "wb");
    if (!f) {
        set_err(err, 0, 0, "cannot open: %s", strerror(errno));
        return NTT_EIO;
    }
    ntt_status st = emit(f, arg);
    int saved = st != NTT_OK ? errno : 0;
    if (fclose(f) != 0 && st == NTT_OK) {
        saved = errno;
        st = NTT_EIO;
    }
    if (st != NTT_OK) set_err(err, 0, 0, "cannot write: %s", saved ? strerror(saved) : "write error");
    return st;
}

ntt_status ntt_coeffs_write(const char *path, const uint64_t *c, size_t len, ntt_io_error *err)
{
    if (err) memset(err, 0, sizeof *err);
    if (!path || !*path || (!c && len)) return NTT_EINVAL;
    const coeffs_arg arg = {c, len};
    return ntt_write_atomic(path, coeffs_emit, &arg, err);
}

ntt_status ntt_write_atomic(const char *path, ntt_emit_fn emit, const void *arg,
                            ntt_io_error *err)
{
    /* Something other than a regular file or a directory (a device such as
       /dev/stdout or /dev/full, a FIFO) cannot be replaced atomically, and
       renaming over it would destroy it (a device node, for root): it is
       written in place. */
    struct stat sb;
    const bool exists = stat(path, &sb) == 0;
    if (exists && !S_ISREG(sb.st_mode) && !S_ISDIR(sb.st_mode))
        return write_in_place(path, emit, arg, err);
    /* A symbolic link stays one: the file it names is replaced (beside
       that file, so the rename stays atomic); a dangling link is written
       through, which creates the file it names. */
    struct stat lsb;
    char *target = NULL;
    if (lstat(path, &lsb) == 0 && S_ISLNK(lsb.st_mode)) {
        if (!exists) return write_in_place(path, emit, arg, err);
        target = realpath(path, NULL);
        if (!target) {
            set_err(err, 0, 0, "cannot resolve the link: %s", strerror(errno));
            return errno == ENOMEM ? NTT_ENOMEM : NTT_EIO;
        }
        path = target;
    }
    /* A unique name beside the target, so that rename() is atomic; O_EXCL
       keeps two writers apart.  The mode obeys the umask like fopen for a
       new file and is the old file's when one is replaced. */
    static _Atomic unsigned counter;
    size_t pl = strlen(path);
    char *tmp = malloc(pl + 48);
    if (!tmp) {
        set_err(err, 0, 0, "out of memory");
        free(target);
        return NTT_ENOMEM;
    }
    int fd = -1;
    for (int attempt = 0; attempt < 100 && fd < 0; attempt++) {
        snprintf(tmp, pl + 48, "%s.tmp.%ld.%u", path, (long)getpid(), counter++);
        fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL, 0666);
        if (fd < 0 && errno != EEXIST) break;
    }
    if (fd < 0) {
        set_err(err, 0, 0, "cannot create a temporary file beside it: %s", strerror(errno));
        free(tmp);
        free(target);
        return NTT_EIO;
    }
    /* errno is saved where a step fails: later cleanup calls overwrite it. */
    int saved = 0;
    ntt_status st = NTT_OK;
    if (exists && S_ISREG(sb.st_mode) && fchmod(fd, sb.st_mode & 07777) != 0) {
        saved = errno;
        st = NTT_EIO;
    }
    FILE *f = st == NTT_OK ? fdopen(fd, "wb") : NULL;
    if (st != NTT_OK) {
        close(fd);
    } else if (!f) {
        saved = errno;
        close(fd);
        st = NTT_EIO;
    } else {
        st = emit(f, arg);
        if (st != NTT_OK) saved = errno;
        /* fsync: after a crash the renamed file holds the data, not nothing. */
        if (st == NTT_OK && fsync(fileno(f)) != 0) {
            saved = errno;
            st = NTT_EIO;
        }
        if (fclose(f) != 0 && st == NTT_OK) {
            saved = errno;
            st = NTT_EIO;
        }
    }
    if (st == NTT_OK && rename(tmp, path) != 0) {
        saved = errno;
        st = NTT_EIO;
    }
    if (st != NTT_OK) {
        set_err(err, 0, 0, "cannot write: %s", saved ? strerror(saved) : "write error");
        unlink(tmp);
    }
    free(tmp);
    free(target);
    return st;
}

/* ---- untrusted bytes in messages ------------------------------------------ */

/* Characters that ntt_escape_bytes writes for the byte c. */
static size_t escaped_len(unsigned char c)
{
    if (c == '\\' || c == '"' || c == '\'') return 2;
    return c >= 0x20 && c < 0x7f ? 1 : 4;
}

size_t ntt_escape_bytes(char *out, size_t cap, const void *bytes, size_t len)
{
    static const char hex[] = "0123456789abcdef";
    if (!out || cap == 0) return 0;
    const unsigned char *b = bytes;
    /* The whole rendering when it fits; else room is kept for "...". */
    size_t total = 0;
    for (size_t i = 0; i < len && total <= cap - 1; i++) total += escaped_len(b[i]);
    const size_t room = total <= cap - 1 ? cap - 1 : (cap - 1 >= 3 ? cap - 1 - 3 : 0);
    size_t used = 0, shown = 0;
    for (; shown < len; shown++) {
        const unsigned char c = b[shown];
        const size_t el = escaped_len(c);
        if (used + el > room) break;
        if (el == 1) {
            out[used] = (char)c;
        } else if (el == 2) {
            out[used] = '\\';
            out[used + 1] = (char)c;
        } else {
            out[used] = '\\';
            out[used + 1] = 'x';
            out[used + 2] = hex[c >> 4];
            out[used + 3] = hex[c & 15];
        }
        used += el;
    }
    for (const char *d = "..."; shown < len && *d && used < cap - 1; d++) out[used++] = *d;
    out[used] = '\0';
    return shown;
}
