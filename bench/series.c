/* Timed rows (series.h). */
#include "series.h"

#include "cli.h"
#include "sysinfo.h"

#include <stdlib.h>
#include <string.h>

static int cmp_double(const void *x, const void *y)
{
    double a = *(const double *)x, b = *(const double *)y;
    return (a > b) - (a < b);
}

void bench_stats(const double *x, int n, double *median, double *min, double *max)
{
    double *s = n > 0 ? malloc((size_t)n * sizeof *s) : NULL;
    if (!s) return;
    memcpy(s, x, (size_t)n * sizeof *s);
    qsort(s, (size_t)n, sizeof *s, cmp_double);
    *min = s[0];
    *max = s[n - 1];
    *median = n % 2 ? s[n / 2] : 0.5 * (s[n / 2 - 1] + s[n / 2]);
    free(s);
}

void bench_series_run(const bench_ops *ops, void *ctx, int nrows, bool warm)
{
    int rounds = 0;
    for (int k = 0; k < nrows; k++) {
        bench_series *s = ops->series(ctx, k);
        if (s->why[0]) continue;
        s->ok = ops->check(ctx, k, false);
        if (!s->ok) continue;
        for (int w = 0; w < 2; w++) (void)ops->call(ctx, k);
        s->reps = malloc((size_t)s->want * sizeof *s->reps);
        if (!s->reps) {
            s->ok = false;
            snprintf(s->why, sizeof s->why, "FAILED (out of memory)");
        }
        if (s->want > rounds) rounds = s->want;
    }
    for (int r = 0; r < rounds; r++) {
        for (int k = 0; k < nrows; k++) {
            bench_series *s = ops->series(ctx, k);
            if (!s->ok || s->nreps >= s->want) continue;
            if (warm) (void)ops->call(ctx, k);
            const double t0 = now_seconds();
            const ntt_status st = ops->call(ctx, k);
            const double t1 = now_seconds();
            if (st != NTT_OK) {
                s->ok = false;
                snprintf(s->why, sizeof s->why, "FAILED (%s)", ntt_status_string(st));
                continue;
            }
            s->reps[s->nreps++] = t1 - t0;
        }
    }
    for (int k = 0; k < nrows; k++) {
        bench_series *s = ops->series(ctx, k);
        if (!s->ok) continue;
        s->ok = ops->check(ctx, k, true);
        if (s->ok && s->nreps == 0) {
            s->ok = false;
            snprintf(s->why, sizeof s->why, "FAILED (no repetitions taken)");
        }
        if (s->ok) bench_stats(s->reps, s->nreps, &s->median, &s->min, &s->max);
    }
}

void bench_series_json(FILE *f, const bench_series *s)
{
    fprintf(f, ", \"verified\": %s", s->ok ? "true" : "false");
    if (s->ok) {
        fprintf(f, ", \"median_s\": %.9g, \"min_s\": %.9g, \"max_s\": %.9g, \"reps_s\": [",
                s->median, s->min, s->max);
        for (int t = 0; t < s->nreps; t++) fprintf(f, "%s%.9g", t ? ", " : "", s->reps[t]);
        fprintf(f, "]");
    } else {
        fprintf(f, ", \"error\": ");
        cli_json_string(f, s->why);
    }
}

void fmt_time(char *buf, size_t len, double s)
{
    if (s < 1e-6)
        snprintf(buf, len, "%.1f ns", s * 1e9);
    else if (s < 1e-3)
        snprintf(buf, len, "%.2f us", s * 1e6);
    else if (s < 1)
        snprintf(buf, len, "%.3f ms", s * 1e3);
    else
        snprintf(buf, len, "%.3f s", s);
}

const char *product_path(size_t n, uint64_t p)
{
    size_t t = 1;
    while (t < 2 * n - 1) t <<= 1;
    if (p >= ((uint64_t)1 << 62) || (p - 1) % t != 0 || !ntt_is_prime(p)) return "CRT over NTT primes";
    return p < ((uint64_t)1 << 30) ? "u32, direct" : "u64, direct";
}
