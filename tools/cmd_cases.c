/* ntt cases: every <id>.in of a directory multiplied, timed and checked
   against its <id>.out; one table row per case and backend. */
#include "cli.h"
#include "commands.h"
#include "product.h"
#include "sysinfo.h"

#include <dirent.h>
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static void cases_usage(FILE *f)
{
    fputs("usage: ntt cases DIR [--backend B|all] [--modmul M] [--variant V] [--reps R]\n"
          "                 [--json FILE]\n"
          "\n"
          "Runs every DIR/<id>.in (numeric ids in numeric order, then the others by\n"
          "name): reads it, multiplies once to warm up, then times R calls of\n"
          "ntt_polymul_mod_ex (CLOCK_MONOTONIC; file I/O excluded) and checks the\n"
          "product against DIR/<id>.out when there is one.  Prints one row per case and\n"
          "backend with the median, min and max time; a row whose check failed shows\n"
          "FAILED instead of times.\n"
          "\n"
          "  --backend B   all (default: every available backend), auto, scalar, avx2,\n"
          "                openmp, cuda\n"
          "  --modmul M    default, naive, barrett, montgomery, shoup\n"
          "  --variant V   fast (default), baseline, gpu-table, gpu-async, gpu-shared\n"
          "  --reps R      timed repetitions per row (default 5)\n"
          "  --json FILE   also write every row with its raw times (seconds) and the\n"
          "                machine description to FILE (atomically; - is standard\n"
          "                output, after the table)\n"
          "\n"
          "exit status: 0 all correct (or no .out), 1 a product was WRONG, 2 usage,\n"
          "3 DIR or a file unreadable, 4 malformed file, 5 coefficient >= p,\n"
          "6 cannot write the JSON file, 7 backend or variant unavailable, 8 other.\n",
          f);
}

typedef enum {
    ROW_CORRECT,   /* checked against .out */
    ROW_NO_OUT,    /* timed, nothing to check against */
    ROW_WRONG,     /* product differs from .out */
    ROW_BAD_INPUT, /* the .in could not be read */
    ROW_BAD_OUT,   /* the .out could not be read */
    ROW_ERROR      /* the product failed */
} row_status;

static const char *row_status_text(row_status s)
{
    switch (s) {
    case ROW_CORRECT: return "correct";
    case ROW_NO_OUT: return "no .out";
    case ROW_WRONG: return "WRONG";
    case ROW_BAD_INPUT: return "BAD INPUT";
    case ROW_BAD_OUT: return "BAD .out";
    case ROW_ERROR: return "ERROR";
    }
    return "?";
}

typedef struct {
    char *id;
    size_t n;      /* 0 when the input could not be read */
    uint64_t p;
    const char *backend; /* NULL when no backend ran */
    row_status status;
    double *times; /* reps seconds when the row has times, else NULL */
    double median, min, max;
    char *error;   /* the message of a failed row */
} case_row;

typedef struct {
    case_row *rows;
    size_t count, cap;
} row_list;

typedef struct {
    char *id;
    bool numeric;
} case_name;

/* Numeric ids in numeric order (without a length limit: compare digit
   counts after leading zeros), then every other id by strcmp. */
static int case_cmp(const void *x, const void *y)
{
    const case_name *a = x, *b = y;
    if (a->numeric != b->numeric) return a->numeric ? -1 : 1;
    if (a->numeric) {
        const char *p = a->id, *q = b->id;
        while (*p == '0' && p[1]) p++;
        while (*q == '0' && q[1]) q++;
        size_t lp = strlen(p), lq = strlen(q);
        if (lp != lq) return lp < lq ? -1 : 1;
        int r = strcmp(p, q);
        if (r) return r;
    }
    return strcmp(a->id, b->id);
}

static bool all_digits(const char *s, size_t len)
{
    if (!len) return false;
    for (size_t i = 0; i < len; i++)
        if (s[i] < '0' || s[i] > '9') return false;
    return true;
}

static void free_names(case_name *names, size_t count)
{
    for (size_t i = 0; i < count; i++) free(names[i].id);
    free(names);
}

/* The ids of DIR/<id>.in, sorted.  Returns 0 or an exit code. */
static int list_cases(const char *dir, case_name **out, size_t *count)
{
    *out = NULL;
    *count = 0;
    DIR *d = opendir(dir);
    if (!d) {
        fprintf(stderr, "ntt cases: %s: cannot open directory: %s\n", dir, strerror(errno));
        return EXIT_INPUT_IO;
    }
    case_name *names = NULL;
    size_t n = 0, cap = 0;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        size_t len = strlen(e->d_name);
        if (len <= 3 || strcmp(e->d_name + len - 3, ".in") != 0) continue;
        if (n == cap) {
            size_t nc = cap ? 2 * cap : 16;
            case_name *nn = realloc(names, nc * sizeof *nn);
            if (!nn) goto oom;
            names = nn;
            cap = nc;
        }
        char *id = malloc(len - 2);
        if (!id) goto oom;
        memcpy(id, e->d_name, len - 3);
        id[len - 3] = '\0';
        names[n].id = id;
        names[n].numeric = all_digits(id, len - 3);
        n++;
    }
    closedir(d);
    if (n) qsort(names, n, sizeof *names, case_cmp);
    *out = names;
    *count = n;
    return 0;
oom:
    closedir(d);
    free_names(names, n);
    fputs("ntt cases: out of memory\n", stderr);
    return EXIT_FAILURE_LIB;
}

static char *path_join(const char *dir, const char *id, const char *ext)
{
    size_t len = strlen(dir) + strlen(id) + strlen(ext) + 2;
    char *s = malloc(len);
    if (s) snprintf(s, len, "%s/%s%s", dir, id, ext);
    return s;
}

static int cmp_double(const void *x, const void *y)
{
    double a = *(const double *)x, b = *(const double *)y;
    return (a > b) - (a < b);
}

/* Formats seconds with three decimals in the unit that puts the number in
   [1, 1000): "6.214 ms".  The unit is chosen after rounding, so 999.9996 us
   prints as "1.000 ms", not "1000.000 us". */
static void format_time(char *buf, size_t len, double s)
{
    static const char *const units[] = {"ns", "us", "ms", "s"};
    double v = s * 1e9;
    int u = 0;
    while (u < 3 && v >= 999.9995) {
        v /= 1000.0;
        u++;
    }
    snprintf(buf, len, "%.3f %s", v, units[u]);
}

static int row_push(row_list *l, const case_row *r)
{
    if (l->count == l->cap) {
        size_t nc = l->cap ? 2 * l->cap : 16;
        case_row *nr = realloc(l->rows, nc * sizeof *nr);
        if (!nr) return -1;
        l->rows = nr;
        l->cap = nc;
    }
    l->rows[l->count++] = *r;
    return 0;
}

static void rows_free(row_list *l)
{
    for (size_t i = 0; i < l->count; i++) {
        free(l->rows[i].id);
        free(l->rows[i].times);
        free(l->rows[i].error);
    }
    free(l->rows);
}

static char *dup_string(const char *s)
{
    size_t n = strlen(s) + 1;
    char *d = malloc(n);
    if (d) memcpy(d, s, n);
    return d;
}

/* The message of a failed read, kept for the table and the JSON file. */
static char *io_error_text(const char *path, ntt_status st, const ntt_io_error *e)
{
    char buf[512];
    cli_io_error_text(buf, sizeof buf, path, st, e);
    return dup_string(buf);
}

typedef struct {
    int idw; /* width of the id column */
} table_layout;

static void print_header(const table_layout *t)
{
    printf("%-*s  %9s  %-19s  %-8s  %11s  %11s  %11s  %s\n", t->idw, "id", "n", "p", "backend",
           "median", "min", "max", "result");
}

static void print_row(const table_layout *t, const case_row *r)
{
    char n[24] = "-", p[24] = "-", med[32], mn[32], mx[32];
    if (r->n) {
        snprintf(n, sizeof n, "%zu", r->n);
        snprintf(p, sizeof p, "%llu", (unsigned long long)r->p);
    }
    if (r->times) {
        format_time(med, sizeof med, r->median);
        format_time(mn, sizeof mn, r->min);
        format_time(mx, sizeof mx, r->max);
    } else {
        snprintf(med, sizeof med, "FAILED");
        snprintf(mn, sizeof mn, "FAILED");
        snprintf(mx, sizeof mx, "FAILED");
    }
    printf("%-*s  %9s  %-19s  %-8s  %11s  %11s  %11s  %s\n", t->idw, r->id, n, p,
           r->backend ? r->backend : "-", med, mn, mx, row_status_text(r->status));
    /* The reason goes to stderr right under its row. */
    fflush(stdout);
    if (r->error) fprintf(stderr, "ntt cases: %s\n", r->error);
}

typedef struct {
    const char *dir;
    unsigned reps;
    const product_opts *opts;
    const sysinfo *si;
    const row_list *rows;
} json_ctx;

static int emit_json(FILE *f, void *vctx)
{
    const json_ctx *x = vctx;
    fputs("{\n  \"command\": \"ntt cases\",\n  \"dir\": ", f);
    cli_json_string(f, x->dir);
    fprintf(f,
            ",\n  \"version\": \"%d.%d.%d\",\n"
            "  \"timing\": {\"clock\": \"CLOCK_MONOTONIC\", \"warmup\": 1, \"reps\": %u, "
            "\"statistic\": \"median\", \"region\": \"one ntt_polymul_mod_ex call, file I/O "
            "excluded\"},\n"
            "  \"modmul\": \"%s\",\n  \"variant\": \"%s\",\n  \"system\": {\n",
            NTT_VERSION_MAJOR, NTT_VERSION_MINOR, NTT_VERSION_PATCH, x->reps,
            ntt_modmul_name(x->opts->plan.modmul), ntt_variant_name(x->opts->variant));
    sysinfo_json(f, x->si, "    ");
    fputs("\n  },\n  \"rows\": [", f);
    for (size_t i = 0; i < x->rows->count; i++) {
        const case_row *r = &x->rows->rows[i];
        fputs(i ? ",\n    {" : "\n    {", f);
        fputs("\"id\": ", f);
        cli_json_string(f, r->id);
        if (r->n) fprintf(f, ", \"n\": %zu, \"p\": %llu", r->n, (unsigned long long)r->p);
        if (r->backend) {
            fputs(", \"backend\": ", f);
            cli_json_string(f, r->backend);
        }
        fputs(", \"result\": ", f);
        cli_json_string(f, row_status_text(r->status));
        if (r->times) {
            fprintf(f, ", \"median_s\": %.9e, \"min_s\": %.9e, \"max_s\": %.9e, \"times_s\": [",
                    r->median, r->min, r->max);
            for (unsigned k = 0; k < x->reps; k++)
                fprintf(f, "%s%.9e", k ? ", " : "", r->times[k]);
            fputc(']', f);
        }
        if (r->error) {
            fputs(", \"error\": ", f);
            cli_json_string(f, r->error);
        }
        fputc('}', f);
    }
    fputs(x->rows->count ? "\n  ]\n}\n" : "]\n}\n", f);
    return 0;
}

/* The row of a case whose .in (in == NULL) or .out could not be read,
   printed and kept; false when out of memory. */
static bool unreadable_row(const table_layout *t, row_list *rows, const char *id,
                           const ntt_course_input *in, row_status status, const char *path,
                           ntt_status st, const ntt_io_error *err)
{
    case_row r = {.id = dup_string(id), .status = status};
    if (in) {
        r.n = in->n;
        r.p = in->p;
    }
    r.error = io_error_text(path, st, err);
    print_row(t, &r);
    if (r.id && r.error && row_push(rows, &r) == 0) return true;
    free(r.id);
    free(r.error);
    return false;
}

/* Fills c with a value no product can contain, so that a call which fails
   to write part of c cannot pass the check on an earlier call's output. */
static void poison(uint64_t *c, size_t len) { memset(c, 0xff, len * sizeof *c); }

static bool same(const uint64_t *c, const uint64_t *e, size_t len)
{
    return memcmp(c, e, len * sizeof *c) == 0;
}

/* Times one backend on one case.  Fills r (times, status, error) and returns
   the status of a failed product (NTT_OK otherwise, WRONG included). */
static ntt_status run_row(case_row *r, const ntt_course_input *in, ntt_backend b,
                          const product_opts *o, unsigned reps, const uint64_t *expect,
                          size_t elen, bool have_out, uint64_t *c, const char *path,
                          const char *outpath)
{
    const size_t lc = 2 * in->n - 1;
    r->backend = ntt_backend_name(b);
    poison(c, lc);
    ntt_status st = product_run(in, b, o, c);
    bool ok = st == NTT_OK && (!have_out || (elen == lc && same(c, expect, lc)));
    double *t = NULL;
    if (ok) {
        t = malloc(reps * sizeof *t);
        if (!t) st = NTT_ENOMEM;
    }
    for (unsigned k = 0; t && st == NTT_OK && k < reps; k++) {
        poison(c, lc);
        const double t0 = now_seconds();
        st = product_run(in, b, o, c);
        t[k] = now_seconds() - t0;
    }
    /* The last timed call's output must be right as well: a time is only
       shown for a product that was checked. */
    if (st == NTT_OK && ok && have_out) ok = same(c, expect, lc);
    if (st != NTT_OK) {
        char buf[PRODUCT_FAILURE_LEN];
        product_failure_text(buf, sizeof buf, path, st, b, o);
        r->error = dup_string(buf);
        r->status = ROW_ERROR;
        free(t);
        return st;
    }
    if (!ok) {
        char buf[512];
        size_t i = 0;
        while (i < lc && i < elen && c[i] == expect[i]) i++;
        if (elen != lc)
            snprintf(buf, sizeof buf, "%s: the product has %zu coefficients, %s has %zu", path,
                     lc, outpath, elen);
        else
            snprintf(buf, sizeof buf,
                     "%s: the product on backend %s differs from %s at index %zu: %llu, "
                     "expected %llu",
                     path, ntt_backend_name(b), outpath, i, (unsigned long long)c[i],
                     (unsigned long long)expect[i]);
        r->error = dup_string(buf);
        r->status = ROW_WRONG;
        free(t);
        return NTT_OK;
    }
    double *sorted = malloc(reps * sizeof *sorted);
    if (!sorted) {
        r->status = ROW_ERROR;
        r->error = dup_string("out of memory");
        free(t);
        return NTT_ENOMEM;
    }
    memcpy(sorted, t, reps * sizeof *t);
    qsort(sorted, reps, sizeof *sorted, cmp_double);
    r->min = sorted[0];
    r->max = sorted[reps - 1];
    r->median = reps % 2 ? sorted[reps / 2] : 0.5 * (sorted[reps / 2 - 1] + sorted[reps / 2]);
    free(sorted);
    r->times = t;
    r->status = have_out ? ROW_CORRECT : ROW_NO_OUT;
    return NTT_OK;
}

int cmd_cases(int argc, char **argv)
{
    static const char cmd[] = "ntt cases";
    const char *dir = NULL, *json = NULL, *bname = "all";
    uint64_t reps64 = 5;
    product_opts o = {0};
    const cli_opt opts[] = {
        {"--reps", NULL, CLI_NUMBER, &reps64, 1, 1000000, NULL},
        {"--json", NULL, CLI_FILE, &json, 0, 0, NULL},
        PRODUCT_OPTIONS(&bname, &o),
        {NULL, NULL, CLI_TEXT, NULL, 0, 0, NULL},
    };
    const cli_command line = {cmd, cases_usage, opts, &dir, 1, 1, "missing DIR", NULL, NULL};
    const int e = cli_parse(&line, argc, argv, NULL);
    if (e != CLI_GO) return e;
    const unsigned reps = (unsigned)reps64;

    ntt_backend backends[NTT_BACKEND_COUNT];
    int nb = 0;
    if (strcmp(bname, "all") == 0) {
        for (int i = 1; i < NTT_BACKEND_COUNT; i++)
            if (ntt_backend_available((ntt_backend)i)) backends[nb++] = (ntt_backend)i;
    } else {
        const int be = product_backend(cmd, bname, true, &backends[0]);
        if (be) return be;
        /* Rows name the backend that actually ran. */
        if (backends[0] == NTT_BACKEND_AUTO) backends[0] = ntt_backend_resolve_auto();
        nb = 1;
    }

    case_name *names;
    size_t ncases;
    int rc = list_cases(dir, &names, &ncases);
    if (rc) return rc;
    if (!ncases) {
        fprintf(stderr, "ntt cases: %s: no <id>.in files\n", dir);
        free(names);
        return EXIT_INPUT_IO;
    }

    sysinfo si;
    sysinfo_read(&si);
    table_layout t = {.idw = 2};
    for (size_t i = 0; i < ncases; i++) {
        int w = (int)strlen(names[i].id);
        if (w > t.idw) t.idw = w;
    }
    printf("ntt cases %s: %zu case%s, backend%s", dir, ncases, ncases == 1 ? "" : "s",
           nb == 1 ? "" : "s");
    for (int k = 0; k < nb; k++) printf(" %s", ntt_backend_name(backends[k]));
    printf(", modmul %s, variant %s\n", ntt_modmul_name(o.plan.modmul), ntt_variant_name(o.variant));
    printf("machine: %s, %d logical CPUs\n", si.cpu_model, si.logical_cpus);
    printf("timing:  median of %u run%s after 1 warm-up, CLOCK_MONOTONIC, single call of "
           "ntt_polymul_mod_ex, excludes file I/O\n",
           reps, reps == 1 ? "" : "s");
    for (int k = 0; k < nb; k++)
        if (backends[k] == NTT_BACKEND_OPENMP)
            printf("threads: openmp uses OMP_NUM_THREADS or all logical CPUs, not pinned; "
                   "the other backends run on the calling thread\n");
    putchar('\n');
    print_header(&t);
    fflush(stdout);

    row_list rows = {0};
    bool wrong = false, oom = false;
    int fail_rc = 0; /* exit code of the first failed row other than WRONG */
    for (size_t ci = 0; ci < ncases && !oom; ci++) {
        const char *id = names[ci].id;
        char *inpath = path_join(dir, id, ".in"), *outpath = path_join(dir, id, ".out");
        if (!inpath || !outpath) {
            free(inpath);
            free(outpath);
            oom = true;
            break;
        }
        ntt_course_input in;
        ntt_io_error err;
        ntt_status st = ntt_course_read(inpath, &in, &err);
        if (st != NTT_OK) {
            if (!fail_rc) fail_rc = cli_exit_code(st);
            oom = !unreadable_row(&t, &rows, id, NULL, ROW_BAD_INPUT, inpath, st, &err);
            free(inpath);
            free(outpath);
            continue;
        }
        uint64_t *expect = NULL;
        size_t elen = 0;
        bool have_out = false;
        struct stat sb;
        if (stat(outpath, &sb) == 0) {
            st = ntt_coeffs_read(outpath, &expect, &elen, &err);
            if (st != NTT_OK) {
                if (!fail_rc) fail_rc = cli_exit_code(st);
                oom = !unreadable_row(&t, &rows, id, &in, ROW_BAD_OUT, outpath, st, &err);
                ntt_course_free(&in);
                free(inpath);
                free(outpath);
                continue;
            }
            have_out = true;
        }
        const size_t lc = 2 * in.n - 1;
        uint64_t *c = malloc(lc * sizeof *c);
        for (int k = 0; k < nb && !oom; k++) {
            case_row r = {.id = dup_string(id), .n = in.n, .p = in.p};
            if (!r.id) {
                oom = true;
                break;
            }
            if (c) {
                st = run_row(&r, &in, backends[k], &o, reps, expect, elen, have_out, c, inpath,
                             outpath);
            } else {
                /* One huge case must not stop the others. */
                st = NTT_ENOMEM;
                r.backend = ntt_backend_name(backends[k]);
                r.status = ROW_ERROR;
                r.error = dup_string("out of memory for the product");
            }
            if (r.status == ROW_WRONG) wrong = true;
            if (st != NTT_OK && !fail_rc) fail_rc = cli_exit_code(st);
            print_row(&t, &r);
            if (row_push(&rows, &r)) {
                free(r.id);
                free(r.times);
                free(r.error);
                oom = true;
            }
        }
        free(c);
        free(expect);
        ntt_course_free(&in);
        free(inpath);
        free(outpath);
        ntt_cache_clear();
    }
    free_names(names, ncases);

    if (oom) {
        fputs("ntt cases: out of memory\n", stderr);
        rows_free(&rows);
        return EXIT_FAILURE_LIB;
    }
    rc = wrong ? EXIT_MISMATCH : fail_rc;
    if (json) {
        json_ctx x = {.dir = dir, .reps = reps, .opts = &o, .si = &si, .rows = &rows};
        const int wrc = cli_write_file(cmd, json, emit_json, &x);
        if (wrc != EXIT_OK && rc == EXIT_OK) rc = wrc;
    }
    rows_free(&rows);
    return rc;
}
