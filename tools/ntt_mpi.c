/* ntt-mpi: `ntt mul` across the ranks of MPI_COMM_WORLD.
     mpiexec -n P ntt-mpi mul FILE [-o OUT] [--backend B] [--threads T]
   Rank 0 reads the course file and writes the product; the product itself
   is ntt_mpi_polymul on a distributed plan.  Exit codes and messages are
   those of `ntt mul` (tools/cli.h), with "ntt-mpi" for "ntt"; every rank
   exits with the same code, and only rank 0 prints.

   Every rank parses its own command line (an MPMD launch gives each rank
   its own), and the ranks agree on the outcome before anything else, so an
   error on some ranks only (a bad option, --help, a backend missing there)
   ends every rank with the same code instead of leaving the others waiting
   in a collective call. */
#include "cli.h"
#include "ntt_mpi.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int g_rank, g_size;

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
    fputs("usage: mpiexec -n P ntt-mpi mul FILE [-o OUT] [--backend B] [--threads T]\n"
          "\n"
          "Multiplies the two polynomials of a course input file (\"n p\", n coefficients\n"
          "of a, n of b) modulo p across the MPI ranks (a distributed four-step NTT\n"
          "product, libntt_mpi) and writes the 2n-1 coefficients of the product on one\n"
          "line.  Rank 0 reads FILE (- : its standard input) and writes OUT.  Any p in\n"
          "[2, 2^63) works.\n"
          "\n"
          "  -o, --output OUT  write to OUT (atomically: on any failure OUT is left as it\n"
          "                    was) instead of standard output; -o - is standard output\n"
          "  --backend B       each rank's local backend: auto (default), scalar, avx2,\n"
          "                    avx512, openmp, cuda\n"
          "  --threads T       threads per rank for its local work (0 or 1: one; with\n"
          "                    --backend openmp 0 is OMP_NUM_THREADS or all cores); the\n"
          "                    product's words do not depend on it\n"
          "\n"
          "exit status: 0 ok, 2 usage, 3 unreadable input, 4 malformed input,\n"
          "5 coefficient >= p, 6 cannot write OUT, 7 backend unavailable, 8 other.\n",
          f);
}

/* The same status on every rank: the largest. */
static ntt_status agree(ntt_status st)
{
    int mine = (int)st, all;
    if (MPI_Allreduce(&mine, &all, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD) != MPI_SUCCESS)
        return NTT_EBACKEND;
    return (ntt_status)all;
}

typedef struct {
    const char *file, *out, *backend;
    uint64_t threads;
    ntt_backend b;
} mul_args;

/* ---- the command line, on each rank ------------------------------------------- */

/* --backend's name to *b: 2 for an unknown name, 7 for a backend that
   cannot run on this rank (the message names the rank: in an MPMD launch
   or on mixed hosts the ranks differ). */
static int check_backend(FILE *err, const char *name, ntt_backend *b)
{
    if (ntt_backend_from_name(name, b) != NTT_OK) {
        fprintf(err, "ntt-mpi mul: unknown backend '%s' (valid: ", cli_show(name).s);
        for (int i = 0; i < NTT_BACKEND_COUNT; i++)
            fprintf(err, "%s%s", i ? ", " : "", ntt_backend_name((ntt_backend)i));
        fputs(")\n", err);
        return EXIT_USAGE;
    }
    if (!ntt_backend_available(*b)) {
        fprintf(err, "ntt-mpi mul: backend '%s' is not available on rank %d (available there:",
                ntt_backend_name(*b), g_rank);
        for (int i = 0; i < NTT_BACKEND_COUNT; i++)
            if (ntt_backend_available((ntt_backend)i))
                fprintf(err, " %s", ntt_backend_name((ntt_backend)i));
        fputs(")\n", err);
        return EXIT_UNSUPPORTED;
    }
    return 0;
}

/* This rank's command line: CLI_GO, or the exit code after writing help or
   the reason on out / err. */
static int parse(int argc, char **argv, FILE *out, FILE *err, mul_args *m)
{
    if (argc < 2) {
        usage(err);
        return EXIT_USAGE;
    }
    if (cli_is_help(argv[1])) {
        usage(out);
        return EXIT_OK;
    }
    if (strcmp(argv[1], "--version") == 0) {
        fprintf(out, "ntt-mpi %d.%d.%d\n", NTT_VERSION_MAJOR, NTT_VERSION_MINOR,
                NTT_VERSION_PATCH);
        return EXIT_OK;
    }
    if (strcmp(argv[1], "mul") != 0) {
        fprintf(err, "ntt-mpi: unknown command '%s'\n\n", cli_show(argv[1]).s);
        usage(err);
        return EXIT_USAGE;
    }
    const cli_opt opts[] = {
        {"--output", "-o", CLI_FILE, &m->out, 0, 0, NULL},
        {"--backend", NULL, CLI_TEXT, &m->backend, 0, 0, NULL},
        {"--threads", NULL, CLI_NUMBER, &m->threads, 0, 4096, NULL},
        {NULL, NULL, CLI_TEXT, NULL, 0, 0, NULL},
    };
    const cli_command line = {"ntt-mpi mul", usage, opts, &m->file, 1, 1, "missing input FILE",
                              out, err};
    const int e = cli_parse(&line, argc - 1, argv + 1, NULL);
    if (e != CLI_GO) return e;
    const int be = check_backend(err, m->backend, &m->b);
    return be ? be : CLI_GO;
}

/* ---- agreeing on the outcome ------------------------------------------------------ */

/* What a rank would print: the bytes of a memory stream. */
typedef struct {
    FILE *f;
    char *text;
    size_t len;
} capture;

static FILE *capture_open(capture *c, FILE *fallback)
{
    c->text = NULL;
    c->len = 0;
    c->f = open_memstream(&c->text, &c->len);
    /* Without memory for the text the message goes out directly (maybe
       once per rank): the outcome is still agreed on. */
    return c->f ? c->f : fallback;
}

static void capture_close(capture *c)
{
    if (c->f) fclose(c->f); /* sets text and len */
    c->f = NULL;
}

/* The most of one rank's text that reaches rank 0 (the usage is 1 KiB). */
#define FORWARD_MAX 8192

/* Writes rank `from`'s text on rank 0's stream f. */
static void forward(int from, const capture *c, FILE *f)
{
    int len = c->len < FORWARD_MAX ? (int)c->len : FORWARD_MAX;
    if (from == 0) {
        if (g_rank == 0 && len) fwrite(c->text, 1, (size_t)len, f);
        return;
    }
    if (g_rank == from) {
        MPI_Send(&len, 1, MPI_INT, 0, 0, MPI_COMM_WORLD);
        if (len) MPI_Send(c->text, len, MPI_CHAR, 0, 1, MPI_COMM_WORLD);
    } else if (g_rank == 0) {
        static char buf[FORWARD_MAX];
        MPI_Recv(&len, 1, MPI_INT, from, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        if (len) MPI_Recv(buf, len, MPI_CHAR, from, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        fwrite(buf, 1, (size_t)len, f);
    }
}

/* Every rank's outcome of parse() (CLI_GO or an exit code, with its texts)
   made one: the lowest rank's error, else the lowest rank's help or
   version, else CLI_GO.  Rank 0 prints the deciding rank's texts, naming
   that rank when the ranks did not all end the same way. */
static int agree_outcome(int code, const capture *out, const capture *err)
{
    const int key = code == CLI_GO ? 2 * g_size : code != EXIT_OK ? g_rank : g_size + g_rank;
    int v[3] = {key, code, -code}, r[3];
    if (MPI_Allreduce(v, r, 3, MPI_INT, MPI_MIN, MPI_COMM_WORLD) != MPI_SUCCESS)
        return EXIT_FAILURE_LIB;
    if (r[0] == 2 * g_size) return CLI_GO;
    const int from = r[0] % g_size;
    int agreed = code;
    if (MPI_Bcast(&agreed, 1, MPI_INT, from, MPI_COMM_WORLD) != MPI_SUCCESS)
        return EXIT_FAILURE_LIB;
    forward(from, out, stdout);
    forward(from, err, stderr);
    if (agreed != EXIT_OK && r[1] != -r[2])
        say(stderr, "ntt-mpi: the error above is rank %d's (of %d ranks); not every rank had it\n",
            from, g_size);
    return agreed;
}

/* ---- the product ----------------------------------------------------------------- */

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

/* The product of rank 0's input file, once every rank has agreed to go on. */
static int run_mul(const mul_args *m)
{
    const ntt_backend b = m->b;
    ntt_course_input in = {0};
    ntt_io_error err = {0};
    ntt_status st = NTT_OK;
    if (g_rank == 0) st = cli_course_read(m->file, &in, &err);
    /* n and p, and whether reading worked, to every rank. */
    uint64_t hdr[3] = {(uint64_t)st, in.n, in.p};
    if (MPI_Bcast(hdr, 3, MPI_UINT64_T, 0, MPI_COMM_WORLD) != MPI_SUCCESS) return EXIT_FAILURE_LIB;
    st = (ntt_status)hdr[0];
    if (st != NTT_OK) {
        char why[512];
        cli_io_error_text(why, sizeof why, m->file, st, &err);
        say(stderr, "ntt-mpi mul: %s\n", why);
        return cli_exit_code(st);
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
    const ntt_plan_options o = {.threads = (int)m->threads};
    if (st == NTT_OK) st = ntt_mpi_plan_create(&plan, MPI_COMM_WORLD, N, p, w, b, &o);
    if (st == NTT_OK) st = product(plan, w, &in, N, c);
    ntt_mpi_plan_destroy(plan);
    ntt_course_free(&in);
    int rc = EXIT_OK;
    if (st != NTT_OK) {
        /* Rank 0's detail of the failure (its own, or the agreement's
           "another rank failed: ..."), escaped as ntt's are (issue 61). */
        const char *detail = ntt_error_detail();
        char shown[4 * 256 + 4];
        (void)ntt_escape_bytes(shown, sizeof shown, detail, strlen(detail));
        const ntt_backend ran = b == NTT_BACKEND_AUTO ? ntt_backend_resolve_auto() : b;
        say(stderr, "ntt-mpi mul: %s: product failed on backend %s%s across %d ranks: %s%s%s\n",
            cli_input_name(m->file), b == NTT_BACKEND_AUTO && ran != b ? "auto = " : "",
            ntt_backend_name(ran), g_size, ntt_status_string(st), shown[0] ? ": " : "", shown);
        rc = st == NTT_EUNSUPPORTED ? EXIT_UNSUPPORTED : EXIT_FAILURE_LIB;
    } else if (g_rank == 0) {
        rc = cli_write_coeffs("ntt-mpi mul", m->out, c, lc);
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
    MPI_Comm_size(MPI_COMM_WORLD, &g_size);
    mul_args m = {.backend = "auto"};
    capture out, err;
    FILE *fo = capture_open(&out, stdout), *fe = capture_open(&err, stderr);
    int rc = parse(argc, argv, fo, fe, &m);
    capture_close(&out);
    capture_close(&err);
    rc = agree_outcome(rc, &out, &err);
    free(out.text);
    free(err.text);
    if (rc == CLI_GO) rc = run_mul(&m);
    fflush(stdout);
    MPI_Finalize();
    return rc;
}
