/* ntt-mpi: `ntt mul` across the ranks of MPI_COMM_WORLD.
     mpiexec -n P ntt-mpi mul FILE [-o OUT] [--backend B] [--threads T]
   Rank 0 reads the course file and writes the product; the product itself
   is ntt_mpi_polymul on a distributed plan.  Exit codes and messages are
   those of `ntt mul` (tools/tool.h, tools/cmd_mul.c), with "ntt-mpi" for
   "ntt"; every rank exits with the same code, and only rank 0 prints. */
#include "ntt_mpi.h"

#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The ntt command's exit codes (tools/tool.h). */
enum {
    EXIT_OK = 0,
    EXIT_USAGE = 2,
    EXIT_INPUT_IO = 3,
    EXIT_FORMAT = 4,
    EXIT_RANGE = 5,
    EXIT_OUTPUT_IO = 6,
    EXIT_UNSUPPORTED = 7,
    EXIT_FAILURE_LIB = 8
};

static int g_rank;

static void say(FILE *f, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void say(FILE *f, const char *fmt, ...)
{
    if (g_rank != 0) return;
    va_list ap;
    va_start(ap, fmt);
    vfprintf(f, fmt, ap);
    va_end(ap);
}

static void usage(FILE *f)
{
    say(f, "usage: mpiexec -n P ntt-mpi mul FILE [-o OUT] [--backend B] [--threads T]\n"
           "\n"
           "Multiplies the two polynomials of a course input file (\"n p\", n coefficients\n"
           "of a, n of b) modulo p across the MPI ranks (a distributed four-step NTT\n"
           "product, libntt_mpi) and writes the 2n-1 coefficients of the product on one\n"
           "line.  Rank 0 reads FILE and writes OUT.  Any p in [2, 2^63) works.\n"
           "\n"
           "  -o, --output OUT  write to OUT (atomically: on any failure OUT is left as it\n"
           "                    was) instead of standard output\n"
           "  --backend B       each rank's local backend: auto (default), scalar, avx2,\n"
           "                    avx512, openmp, cuda\n"
           "  --threads T       OpenMP threads per rank with --backend openmp (0: default)\n"
           "\n"
           "exit status: 0 ok, 2 usage, 3 unreadable input, 4 malformed input,\n"
           "5 coefficient >= p, 6 cannot write OUT, 7 backend unavailable, 8 other.\n");
}

/* As tools/ntt.c: a status from reading the input. */
static int exit_code_for(ntt_status s)
{
    switch (s) {
    case NTT_OK: return EXIT_OK;
    case NTT_EIO: return EXIT_INPUT_IO;
    case NTT_EFORMAT:
    case NTT_EINVAL: return EXIT_FORMAT;
    case NTT_ERANGE: return EXIT_RANGE;
    case NTT_EUNSUPPORTED: return EXIT_UNSUPPORTED;
    default: return EXIT_FAILURE_LIB;
    }
}

/* The same status on every rank: the largest. */
static ntt_status agree(ntt_status st)
{
    int mine = (int)st, all;
    if (MPI_Allreduce(&mine, &all, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD) != MPI_SUCCESS)
        return NTT_EBACKEND;
    return (ntt_status)all;
}

/* "--lng VALUE", "--lng=VALUE" or "-s VALUE": 1 with *val, 0 for another
   argument, -1 after a usage error. */
static int option(int argc, char **argv, int *i, const char *lng, const char *shrt,
                  const char **val)
{
    const char *arg = argv[*i];
    const size_t ll = strlen(lng);
    if (strncmp(arg, lng, ll) == 0 && arg[ll] == '=') {
        *val = arg + ll + 1;
        return 1;
    }
    if (strcmp(arg, lng) != 0 && !(shrt && strcmp(arg, shrt) == 0)) return 0;
    if (*i + 1 >= argc) {
        say(stderr, "ntt-mpi mul: option '%s' needs a value\n", arg);
        return -1;
    }
    *val = argv[++*i];
    return 1;
}

typedef struct {
    const char *file, *out, *backend;
    int threads;
} mul_args;

/* 0 to go on, else exit code + 1 (help: EXIT_OK + 1). */
static int parse_mul(int argc, char **argv, mul_args *m)
{
    bool opts_done = false;
    for (int i = 1; i < argc; i++) {
        const char *arg = argv[i], *v;
        if (!opts_done && arg[0] == '-' && arg[1] != '\0') {
            if (strcmp(arg, "--") == 0) {
                opts_done = true;
                continue;
            }
            if (strcmp(arg, "--help") == 0 || strcmp(arg, "-h") == 0) {
                usage(stdout);
                return EXIT_OK + 1;
            }
            int r;
            if ((r = option(argc, argv, &i, "--output", "-o", &v)) != 0) {
                if (r < 0) return EXIT_USAGE + 1;
                if (!*v) {
                    say(stderr, "ntt-mpi mul: the output file name is empty\n");
                    return EXIT_USAGE + 1;
                }
                m->out = v;
                continue;
            }
            if ((r = option(argc, argv, &i, "--backend", NULL, &v)) != 0) {
                if (r < 0) return EXIT_USAGE + 1;
                m->backend = v;
                continue;
            }
            if ((r = option(argc, argv, &i, "--threads", NULL, &v)) != 0) {
                if (r < 0) return EXIT_USAGE + 1;
                char *end;
                errno = 0;
                const long t = strtol(v, &end, 10);
                if (errno || *v < '0' || *v > '9' || *end || t > 4096) {
                    say(stderr, "ntt-mpi mul: --threads must be 0 .. 4096\n");
                    return EXIT_USAGE + 1;
                }
                m->threads = (int)t;
                continue;
            }
            say(stderr, "ntt-mpi mul: unknown option '%s'\nTry 'ntt-mpi mul --help'.\n", arg);
            return EXIT_USAGE + 1;
        }
        if (m->file) {
            say(stderr, "ntt-mpi mul: unexpected argument '%s'\nTry 'ntt-mpi mul --help'.\n",
                arg);
            return EXIT_USAGE + 1;
        }
        m->file = arg;
    }
    if (!m->file) {
        say(stderr, "ntt-mpi mul: missing input FILE\nTry 'ntt-mpi mul --help'.\n");
        return EXIT_USAGE + 1;
    }
    return 0;
}

/* As ntt mul's backend check: 2 for an unknown name, 7 for one that cannot
   run here (on any rank). */
static int parse_backend(const char *name, ntt_backend *b)
{
    if (ntt_backend_from_name(name, b) != NTT_OK) {
        say(stderr, "ntt-mpi mul: unknown backend '%s' (valid: ", name);
        for (int i = 0; i < NTT_BACKEND_COUNT; i++)
            say(stderr, "%s%s", i ? ", " : "", ntt_backend_name((ntt_backend)i));
        say(stderr, ")\n");
        return EXIT_USAGE;
    }
    if (agree(ntt_backend_available(*b) ? NTT_OK : NTT_EUNSUPPORTED) != NTT_OK) {
        say(stderr, "ntt-mpi mul: backend '%s' is not available on this machine (available:",
            ntt_backend_name(*b));
        for (int i = 0; i < NTT_BACKEND_COUNT; i++)
            if (ntt_backend_available((ntt_backend)i))
                say(stderr, " %s", ntt_backend_name((ntt_backend)i));
        say(stderr, ")\n");
        return EXIT_UNSUPPORTED;
    }
    return 0;
}

static void print_io_error(const char *path, ntt_status st, const ntt_io_error *e)
{
    const char *msg = e->message[0] ? e->message : ntt_status_string(st);
    if (e->line && e->token)
        say(stderr, "ntt-mpi mul: %s:%zu: token %zu: %s\n", path, e->line, e->token, msg);
    else if (e->line)
        say(stderr, "ntt-mpi mul: %s:%zu: %s\n", path, e->line, msg);
    else
        say(stderr, "ntt-mpi mul: %s: %s\n", path, msg);
}

/* Rank 0's arrays of the product, in the plan's width. */
typedef struct {
    void *a, *b, *c; /* natural order, n_plan elements each */
    void *la, *lb;   /* the rank's shares (alloc elements) */
} buffers;

static void put(void *x, ntt_width w, size_t i, uint64_t v)
{
    if (w == NTT_U32)
        ((uint32_t *)x)[i] = (uint32_t)v;
    else
        ((uint64_t *)x)[i] = v;
}

static uint64_t get(const void *x, ntt_width w, size_t i)
{
    return w == NTT_U32 ? ((const uint32_t *)x)[i] : ((const uint64_t *)x)[i];
}

/* The distributed product c = a b of rank 0's course input (zero-padded to
   the plan's size N >= 2n-1, so the cyclic product is the linear one). */
static ntt_status product(ntt_mpi_plan *plan, ntt_width w, const ntt_course_input *in, size_t N,
                          uint64_t *c_out)
{
    ntt_mpi_local loc;
    ntt_status st = ntt_mpi_local_size(plan, &loc);
    const size_t esz = w == NTT_U32 ? 4 : 8;
    buffers B = {0};
    if (st == NTT_OK) {
        B.la = calloc(loc.alloc + 1, esz);
        B.lb = calloc(loc.alloc + 1, esz);
        if (!B.la || !B.lb) st = NTT_ENOMEM;
    }
    if (st == NTT_OK && g_rank == 0) {
        B.a = calloc(N, esz);
        B.b = calloc(N, esz);
        if (!B.a || !B.b) st = NTT_ENOMEM;
        for (size_t i = 0; st == NTT_OK && i < in->n; i++) {
            put(B.a, w, i, in->a[i]);
            put(B.b, w, i, in->b[i]);
        }
    }
    st = agree(st);
#define CALL(f, ...) (w == NTT_U32 ? f##_u32(__VA_ARGS__) : f##_u64(__VA_ARGS__))
    if (st == NTT_OK) st = CALL(ntt_mpi_scatter, plan, NTT_MPI_COEFFS, 0, B.a, B.la);
    if (st == NTT_OK) st = CALL(ntt_mpi_scatter, plan, NTT_MPI_COEFFS, 0, B.b, B.lb);
    if (st == NTT_OK) st = CALL(ntt_mpi_polymul, plan, B.la, B.la, B.lb);
    /* The product goes back into rank 0's copy of a. */
    if (st == NTT_OK) st = CALL(ntt_mpi_gather, plan, NTT_MPI_COEFFS, 0, B.la, B.a);
#undef CALL
    if (st == NTT_OK && g_rank == 0)
        for (size_t i = 0; i < 2 * in->n - 1; i++) c_out[i] = get(B.a, w, i);
    free(B.a);
    free(B.b);
    free(B.la);
    free(B.lb);
    return st;
}

static int cmd_mul(int argc, char **argv)
{
    mul_args m = {.backend = "auto"};
    int e = parse_mul(argc, argv, &m);
    if (e) return e - 1;
    ntt_backend b;
    if ((e = parse_backend(m.backend, &b)) != 0) return e;

    ntt_course_input in = {0};
    ntt_io_error err = {0};
    ntt_status st = NTT_OK;
    if (g_rank == 0) st = ntt_course_read(m.file, &in, &err);
    /* n and p, and whether reading worked, to every rank. */
    uint64_t hdr[3] = {(uint64_t)st, in.n, in.p};
    if (MPI_Bcast(hdr, 3, MPI_UINT64_T, 0, MPI_COMM_WORLD) != MPI_SUCCESS) return EXIT_FAILURE_LIB;
    st = (ntt_status)hdr[0];
    if (st != NTT_OK) {
        print_io_error(m.file, st, &err);
        return exit_code_for(st);
    }
    const size_t n = (size_t)hdr[1], lc = 2 * n - 1;
    const uint64_t p = hdr[2];
    size_t N = 2;
    while (N < lc) N <<= 1;
    const ntt_width w = p < ((uint64_t)1 << 30) ? NTT_U32 : NTT_U64;
    uint64_t *c = NULL;
    if (g_rank == 0 && !(c = malloc(lc * sizeof *c))) st = NTT_ENOMEM;
    st = agree(st);
    ntt_mpi_plan *plan = NULL;
    const ntt_plan_options o = {.threads = m.threads};
    if (st == NTT_OK) st = ntt_mpi_plan_create(&plan, MPI_COMM_WORLD, N, p, w, b, &o);
    if (st == NTT_OK) st = product(plan, w, &in, N, c);
    ntt_mpi_plan_destroy(plan);
    ntt_course_free(&in);
    int size;
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int rc = EXIT_OK;
    if (st != NTT_OK) {
        const ntt_backend ran = b == NTT_BACKEND_AUTO ? ntt_backend_resolve_auto() : b;
        say(stderr, "ntt-mpi mul: %s: product failed on backend %s%s across %d ranks: %s\n",
            m.file, b == NTT_BACKEND_AUTO ? "auto = " : "", ntt_backend_name(ran), size,
            ntt_status_string(st));
        rc = st == NTT_EUNSUPPORTED ? EXIT_UNSUPPORTED : EXIT_FAILURE_LIB;
    } else if (g_rank == 0) {
        if (m.out) {
            st = ntt_coeffs_write(m.out, c, lc, &err);
            if (st != NTT_OK) {
                const char *why = err.message[0] ? err.message : ntt_status_string(st);
                if (strncmp(why, "cannot write: ", 14) == 0) why += 14;
                say(stderr, "ntt-mpi mul: %s: cannot write: %s\n", m.out, why);
                rc = EXIT_OUTPUT_IO;
            }
        } else if (ntt_coeffs_fwrite(stdout, c, lc) != NTT_OK) {
            say(stderr, "ntt-mpi mul: standard output: cannot write: %s\n", strerror(errno));
            rc = EXIT_OUTPUT_IO;
        }
    }
    free(c);
    /* Rank 0's output status is every rank's exit code. */
    if (MPI_Bcast(&rc, 1, MPI_INT, 0, MPI_COMM_WORLD) != MPI_SUCCESS) rc = EXIT_FAILURE_LIB;
    return rc;
}

int main(int argc, char **argv)
{
    if (MPI_Init(&argc, &argv) != MPI_SUCCESS) {
        fputs("ntt-mpi: MPI_Init failed\n", stderr);
        return EXIT_FAILURE_LIB;
    }
    MPI_Comm_rank(MPI_COMM_WORLD, &g_rank);
    int rc;
    if (argc < 2) {
        usage(stderr);
        rc = EXIT_USAGE;
    } else if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0) {
        usage(stdout);
        rc = EXIT_OK;
    } else if (strcmp(argv[1], "--version") == 0) {
        say(stdout, "ntt-mpi %d.%d.%d\n", NTT_VERSION_MAJOR, NTT_VERSION_MINOR, NTT_VERSION_PATCH);
        rc = EXIT_OK;
    } else if (strcmp(argv[1], "mul") == 0) {
        rc = cmd_mul(argc - 1, argv + 1);
    } else {
        say(stderr, "ntt-mpi: unknown command '%s'\n\n", argv[1]);
        usage(stderr);
        rc = EXIT_USAGE;
    }
    fflush(stdout);
    MPI_Finalize();
    return rc;
}
