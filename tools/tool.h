/* Shared declarations of the ntt command's parts.  Not installed. */
#ifndef NTT_TOOL_H
#define NTT_TOOL_H

#ifdef __cplusplus
extern "C" {
#endif

#include "ntt.h"
#include "variant.h" /* the course ladder (src/core, not installed) */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* Exit codes of the ntt command (documented in README and `ntt --help`). */
enum {
    EXIT_OK = 0,
    EXIT_MISMATCH = 1,    /* verify/cases: a result differs from the expected one */
    EXIT_USAGE = 2,       /* bad command line */
    EXIT_INPUT_IO = 3,    /* an input file is missing or unreadable */
    EXIT_FORMAT = 4,      /* malformed input (NTT_EFORMAT, bad n or p) */
    EXIT_RANGE = 5,       /* a coefficient is >= p (NTT_ERANGE) */
    EXIT_OUTPUT_IO = 6,   /* the output file cannot be written */
    EXIT_UNSUPPORTED = 7, /* backend or variant not available here */
    EXIT_FAILURE_LIB = 8  /* any other library failure (memory, backend error) */
};

/* What a product of the command runs with: the public plan options and the
   course-ladder variant. */
typedef struct {
    ntt_plan_options plan;
    ntt_variant variant;
} mul_opts;

/* Subcommands: argv[0] is the subcommand name.  Each handles --help. */
int cmd_mul(int argc, char **argv);
int cmd_cases(int argc, char **argv);
int cmd_gen(int argc, char **argv);
int cmd_verify(int argc, char **argv);
int cmd_info(int argc, char **argv);
int cmd_bench(int argc, char **argv);
#ifdef NTT_HAVE_CUDA
/* bench_gpu.cu, bench_modmul.cu: `ntt bench --gpu`, `ntt bench --gpu-modmul`. */
int bench_gpu(int argc, char **argv);
int bench_gpu_modmul(int argc, char **argv);
#endif
int cmd_ladder(int argc, char **argv); /* ntt bench --ladder (ladder.c) */

/* Exit code for a library status from reading an input / running a product. */
int exit_code_for(ntt_status s);

/* ---- ntt.c: helpers the subcommands share ---- */
int cli_is_help(const char *arg);                 /* "--help" or "-h" */
/* A whole token of decimal digits: no sign, no spaces, no overflow. */
int cli_parse_u64(const char *s, uint64_t *v);
/* "--lng VALUE", "--lng=VALUE" or "-s VALUE" at argv[*i]: 1 with *val set,
   0 when argv[*i] is something else, -1 after printing a usage error. */
int cli_option(const char *sub, int argc, char **argv, int *i, const char *lng,
               const char *shrt, const char **val);
/* Writes `path` through a unique temporary file renamed over it only when
   emit() returned 0 and every write succeeded.  0, or -1 with why set. */
int cli_atomic_write(const char *path, int (*emit)(FILE *f, void *ctx), void *ctx, char *why,
                     size_t whylen);
void cli_json_string(FILE *f, const char *s); /* a JSON string literal */

/* ---- sysinfo.c: the machine, stated in every report ---- */
typedef struct {
    char cpu_model[128];
    int logical_cpus;
    char cpu_flags[256];   /* the SIMD-relevant flags present: "sse2 avx2 ..." */
    char kernel[128];      /* uname -srm */
    char compiler[96];     /* compiler that built the tool */
    char commit[48];       /* git commit the tool was built from */
    char date[32];         /* UTC, ISO 8601 */
} sysinfo;
void sysinfo_read(sysinfo *si);
/* The git commit the tool was built from, "-dirty" when tracked files differed. */
const char *build_commit(void);
/* Writes the fields as members of a JSON object (no braces), indented. */
void sysinfo_json(FILE *f, const sysinfo *si, const char *indent);
/* Host memcpy bandwidth over `bytes`-byte buffers, GB/s (read + write). */
double sysinfo_memcpy_gbps(size_t bytes);
/* Host read bandwidth, GB/s, into gbps[c] for each thread count
   threads[c]: the median of 7 passes that sum one buffer of `bytes` split
   among that many OpenMP threads; 0 where the buffer or the threads cannot
   be had (more than one in a build without OpenMP). */
void sysinfo_read_gbps(size_t bytes, const int *threads, int count, double *gbps);

/* ---- timing helpers ---- */
double now_seconds(void); /* CLOCK_MONOTONIC */
/* bench.c: median, min and max of x[0..n), n >= 1; "12.345 ms" style. */
void bench_stats(const double *x, int n, double *median, double *min, double *max);
void fmt_time(char *buf, size_t len, double s);
/* How ntt_polymul_mod multiplies two length-n polynomials modulo p:
   "u32, direct", "u64, direct" or "CRT over NTT primes" (polymul_mod.c's rule). */
const char *product_path(size_t n, uint64_t p);

/* bench.c: one row of a timing table, its repetitions and their summary. */
typedef struct {
    int want, nreps;         /* repetitions to take, taken */
    double *reps;            /* seconds, one per timed call */
    bool ok;                 /* verified, and every timed call succeeded */
    char why[128];           /* when not ok: the reason ("unavailable", "FAILED (...)") */
    double median, min, max; /* of reps, when ok */
} bench_series;

/* What bench_series_run does with row k of ctx. */
typedef struct {
    bench_series *(*series)(void *ctx, int k);
    ntt_status (*call)(void *ctx, int k); /* one call, as it is timed */
    /* Whether the row's result is right, else false with why set.  Before
       the timing it must run the row itself; after (after == true) it may
       check what the last timed call left instead. */
    bool (*check)(void *ctx, int k, bool after);
} bench_ops;

/* Checks every row whose why is still empty, warms it up with two calls,
   times the rows in rounds of one call each (interleaved, so drift hits all
   rows alike; warm: each timed call right after an untimed one of the same
   row), checks each row again and summarizes it. */
void bench_series_run(const bench_ops *ops, void *ctx, int nrows, bool warm);
/* `, "verified": ...` and the summary with the raw repetitions, or the error. */
void bench_series_json(FILE *f, const bench_series *s);

/* ---- oracle.c: exact products with GMP (Kronecker substitution) ---- */
/* c[0..la+lb-2] = a*b mod p for any p in [2, 2^64); inputs < p.
   Returns 0 on success, -1 when out of memory. */
int oracle_polymul(uint64_t *c, const uint64_t *a, size_t la, const uint64_t *b, size_t lb,
                   uint64_t p);

/* ---- deterministic random numbers (xoshiro256**) ---- */
typedef struct { uint64_t s[4]; } rng_t;
void rng_seed(rng_t *r, uint64_t seed);
uint64_t rng_next(rng_t *r);
uint64_t rng_below(rng_t *r, uint64_t bound); /* uniform in [0, bound), bound >= 1 */

#ifdef __cplusplus
}
#endif

#endif
