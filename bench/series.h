/* Timed rows, as every ntt-bench table takes them (docs/BENCHMARKING.md):
   each row checked before it is timed and after, warm-up calls, repetitions
   interleaved across the rows of a table, median / min / max, every
   repetition kept for the JSON. */
#ifndef NTT_BENCH_SERIES_H
#define NTT_BENCH_SERIES_H

#include "ntt.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

/* One row of a timing table, its repetitions and their summary. */
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

/* Median, min and max of x[0..n), n >= 1. */
void bench_stats(const double *x, int n, double *median, double *min, double *max);
/* "12.345 ms" style. */
void fmt_time(char *buf, size_t len, double s);
/* How ntt_polymul_mod multiplies two length-n polynomials modulo p:
   "u32, direct", "u64, direct" or "CRT over NTT primes" (polymul_mod.c's rule). */
const char *product_path(size_t n, uint64_t p);

#ifdef __cplusplus
}
#endif

#endif
