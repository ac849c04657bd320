/* The machine a result was measured on (BENCHMARKING.md: the machine is
   stated), its clock, and the host bandwidths that bound memory-bound
   kernels.  Part of the ntt_tool_support library; not installed. */
#ifndef NTT_SYSINFO_H
#define NTT_SYSINFO_H

#include <stddef.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
    char cpu_model[128];
    int logical_cpus;
    char cpu_flags[256];   /* the SIMD-relevant flags present: "sse2 avx2 ..." */
    char kernel[128];      /* uname -srm */
    char compiler[96];     /* compiler that built the program */
    char commit[48];       /* git commit the program was built from */
    char date[32];         /* UTC, ISO 8601 */
} sysinfo;

void sysinfo_read(sysinfo *si);
/* The git commit the program was built from, "-dirty" when tracked files
   differed. */
const char *build_commit(void);
/* Writes the fields as members of a JSON object (no braces), indented. */
void sysinfo_json(FILE *f, const sysinfo *si, const char *indent);
/* Host memcpy bandwidth over `bytes`-byte buffers, GB/s (read + write);
   0 when the buffers cannot be had. */
double sysinfo_memcpy_gbps(size_t bytes);
/* Host read bandwidth, GB/s, into gbps[c] for each thread count
   threads[c]: the median of 7 passes that sum one buffer of `bytes` split
   among that many OpenMP threads; 0 where the buffer or the threads cannot
   be had (more than one in a build without OpenMP). */
void sysinfo_read_gbps(size_t bytes, const int *threads, int count, double *gbps);

double now_seconds(void); /* CLOCK_MONOTONIC */

#ifdef __cplusplus
}
#endif

#endif
