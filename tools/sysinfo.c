/* The machine a result was measured on, its clock and the host bandwidths
   (sysinfo.h). */
#include "sysinfo.h"

#include "cli.h"

#include <stdbool.h>
#include <stdint.h>
#ifdef _OPENMP
#include <omp.h>
#endif
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

/* Written at every build by cmake/git_commit.cmake; other builds may pass
   -DNTT_GIT_COMMIT instead. */
#if !defined(NTT_GIT_COMMIT) && defined(__has_include)
#if __has_include("ntt_git_commit.h")
#include "ntt_git_commit.h"
#endif
#endif
#ifndef NTT_GIT_COMMIT
#define NTT_GIT_COMMIT "unknown"
#endif

const char *build_commit(void)
{
    return NTT_GIT_COMMIT;
}

double now_seconds(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* Copies the value of a "key<tabs>: value" line of /proc/cpuinfo. */
static bool cpuinfo_value(const char *line, const char *key, char *dst, size_t len)
{
    size_t kl = strlen(key);
    if (strncmp(line, key, kl) != 0) return false;
    const char *q = line + kl;
    while (*q == ' ' || *q == '\t') q++;
    if (*q != ':') return false;
    q++;
    while (*q == ' ' || *q == '\t') q++;
    snprintf(dst, len, "%s", q);
    size_t l = strlen(dst);
    while (l && (dst[l - 1] == '\n' || dst[l - 1] == ' ')) dst[--l] = '\0';
    return true;
}

/* Keeps the flags that matter to the kernels, in this order. */
static void simd_flags(const char *all, char *dst, size_t len)
{
    static const char *const wanted[] = {
        "sse2",     "ssse3",      "sse4_1",     "sse4_2",      "avx",         "avx2",
        "fma",      "bmi2",       "adx",        "avx512f",     "avx512dq",    "avx512bw",
        "avx512vl", "avx512ifma", "avx512vbmi", "avx512_vbmi2", "neon",       "asimd",
        "sve",      "sve2",
    };
    size_t used = 0;
    dst[0] = '\0';
    for (size_t i = 0; i < sizeof wanted / sizeof wanted[0]; i++) {
        const size_t wl = strlen(wanted[i]);
        bool found = false;
        for (const char *q = all; *q && !found;) {
            while (*q == ' ') q++;
            const char *e = q;
            while (*e && *e != ' ') e++;
            if ((size_t)(e - q) == wl && strncmp(q, wanted[i], wl) == 0) found = true;
            q = e;
        }
        if (found && used + wl + 2 < len) {
            used += (size_t)snprintf(dst + used, len - used, "%s%s", used ? " " : "", wanted[i]);
        }
    }
}

void sysinfo_read(sysinfo *si)
{
    memset(si, 0, sizeof *si);
    snprintf(si->cpu_model, sizeof si->cpu_model, "unknown");
    FILE *f = fopen("/proc/cpuinfo", "r");
    if (f) {
        char line[4096], flags[4096] = "";
        bool have_model = false, have_flags = false;
        int processors = 0;
        while (fgets(line, sizeof line, f)) {
            char tmp[8];
            if (cpuinfo_value(line, "processor", tmp, sizeof tmp)) processors++;
            if (!have_model)
                have_model = cpuinfo_value(line, "model name", si->cpu_model, sizeof si->cpu_model) ||
                             cpuinfo_value(line, "Model", si->cpu_model, sizeof si->cpu_model);
            /* A flags line longer than the buffer is cut; the SIMD flags
               come early in it. */
            if (!have_flags)
                have_flags = cpuinfo_value(line, "flags", flags, sizeof flags) ||
                             cpuinfo_value(line, "Features", flags, sizeof flags);
        }
        fclose(f);
        simd_flags(flags, si->cpu_flags, sizeof si->cpu_flags);
        si->logical_cpus = processors;
    }
#ifdef _SC_NPROCESSORS_ONLN
    long online = sysconf(_SC_NPROCESSORS_ONLN);
    if (online > 0) si->logical_cpus = (int)online;
#endif
    struct utsname u;
    if (uname(&u) == 0)
        snprintf(si->kernel, sizeof si->kernel, "%.40s %.60s %.20s", u.sysname, u.release,
                 u.machine);
    else
        snprintf(si->kernel, sizeof si->kernel, "unknown");
#if defined(__clang__)
    snprintf(si->compiler, sizeof si->compiler, "clang %d.%d.%d", __clang_major__,
             __clang_minor__, __clang_patchlevel__);
#elif defined(__GNUC__)
    snprintf(si->compiler, sizeof si->compiler, "gcc %d.%d.%d", __GNUC__, __GNUC_MINOR__,
             __GNUC_PATCHLEVEL__);
#else
    snprintf(si->compiler, sizeof si->compiler, "unknown");
#endif
    snprintf(si->commit, sizeof si->commit, "%s", build_commit());
    time_t now = time(NULL);
    struct tm tm;
    if (gmtime_r(&now, &tm) == NULL ||
        strftime(si->date, sizeof si->date, "%Y-%m-%dT%H:%M:%SZ", &tm) == 0)
        snprintf(si->date, sizeof si->date, "unknown");
}

/* Members only, one per line, the last without a comma or newline, so that
   callers write the braces and may append members of their own with ",\n". */
void sysinfo_json(FILE *f, const sysinfo *si, const char *indent)
{
    const struct {
        const char *key;
        const char *val;
    } s[] = {
        {"cpu_model", si->cpu_model}, {"cpu_flags", si->cpu_flags}, {"kernel", si->kernel},
        {"compiler", si->compiler},   {"commit", si->commit},       {"date", si->date},
    };
    fprintf(f, "%s\"logical_cpus\": %d", indent, si->logical_cpus);
    for (size_t i = 0; i < sizeof s / sizeof s[0]; i++) {
        fprintf(f, ",\n%s\"%s\": ", indent, s[i].key);
        cli_json_string(f, s[i].val);
    }
}

static int cmp_double(const void *x, const void *y)
{
    double a = *(const double *)x, b = *(const double *)y;
    return (a > b) - (a < b);
}

double sysinfo_memcpy_gbps(size_t bytes)
{
    enum { REPS = 7 };
    if (bytes == 0) return 0.0;
    unsigned char *src = malloc(bytes), *dst = malloc(bytes);
    if (!src || !dst) {
        free(src);
        free(dst);
        return 0.0;
    }
    /* Touch every page of both buffers first: the first write to a fresh page
       costs a fault, which is not copy bandwidth. */
    memset(src, 1, bytes);
    memset(dst, 2, bytes);
    memcpy(dst, src, bytes);
    /* Reading a byte of each copy keeps the compiler from dropping copies
       whose result is never used. */
    volatile unsigned char sink = dst[bytes / 2];
    double t[REPS];
    for (int k = 0; k < REPS; k++) {
        src[(size_t)k % bytes] = (unsigned char)k;
        const double t0 = now_seconds();
        memcpy(dst, src, bytes);
        t[k] = now_seconds() - t0;
        sink = (unsigned char)(sink + dst[(size_t)k % bytes]);
    }
    (void)sink;
    free(src);
    free(dst);
    qsort(t, REPS, sizeof t[0], cmp_double);
    const double med = t[REPS / 2];
    /* Each copy reads `bytes` and writes `bytes`. */
    return med > 0 ? 2.0 * (double)bytes / med / 1e9 : 0.0;
}

/* Sum of words [b, e) of w. */
static uint64_t read_pass(const uint64_t *w, size_t b, size_t e)
{
    uint64_t s = 0;
    for (size_t i = b; i < e; i++) s += w[i];
    return s;
}

void sysinfo_read_gbps(size_t bytes, const int *threads, int count, double *gbps)
{
    enum { REPS = 7 };
    const size_t nw = bytes / sizeof(uint64_t);
    for (int c = 0; c < count; c++) gbps[c] = 0.0;
    uint64_t *w = nw ? malloc(nw * sizeof *w) : NULL;
    if (!w) return;
    for (size_t i = 0; i < nw; i++) w[i] = i; /* pages touched before timing */
    /* The sums go somewhere the compiler cannot drop. */
    volatile uint64_t sink = 0;
    for (int c = 0; c < count; c++) {
        const int nt = threads[c];
#ifndef _OPENMP
        if (nt != 1) continue;
#endif
        if (nt < 1) continue;
        double t[REPS];
        bool all = true;
        for (int k = 0; k < REPS; k++) {
            uint64_t s = 0;
            const double t0 = now_seconds();
            /* OpenMP threads, placed as the library's are (OMP_PROC_BIND,
               OMP_PLACES): threads started here would inherit the binding
               of the calling thread, one CPU under OMP_PROC_BIND=true. */
#ifdef _OPENMP
#pragma omp parallel num_threads(nt) reduction(+ : s)
            {
                const size_t i = (size_t)omp_get_thread_num(), m = (size_t)omp_get_num_threads();
                if (m != (size_t)nt) {
#pragma omp atomic write
                    all = false;
                }
                s += read_pass(w, nw * i / m, nw * (i + 1) / m);
            }
#else
            s = read_pass(w, 0, nw);
#endif
            t[k] = now_seconds() - t0;
            sink += s;
        }
        qsort(t, REPS, sizeof t[0], cmp_double);
        if (all && t[REPS / 2] > 0) gbps[c] = (double)(nw * sizeof *w) / t[REPS / 2] / 1e9;
    }
    (void)sink;
    free(w);
}
