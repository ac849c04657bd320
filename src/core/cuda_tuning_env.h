/*
 * The CUDA tuning switches (cuda_tuning.h) read from environment variables,
 * for ntt-bench (the device scripts' NTT_CUDA_* names) and the tests (their
 * own NTT_TEST_CUDA_* names).  Header-only and outside the library, which
 * reads no such variable.
 *
 *   <prefix>FP64=0         the integer kernels for u64 Shoup plans (other
 *                          values: automatic)
 *   <prefix>CAP=4          the narrower ranges (other values: automatic)
 *   <prefix>STW=0|1        staged twiddles off, or on wherever they can be
 *   <prefix>RHO=0|1        FP64 staged twiddles computed, off or on
 *   <prefix>LOGC=c         column groups of 2^c in the upper passes, 0..8
                            (negative: automatic)
 *   <prefix>BOTTOM=b       the transforms' bottom levels (values outside
 *                          1..14: automatic)
 *   <prefix>COMPACT_LOG=k  compact twiddles from 2^k on (k < 1 reads as 1,
 *                          k > 31 as 31: never)
 *   <prefix>CARVEOUT=pct   the kernels' shared-memory carveout, 0..100
                            (negative: the driver's)
 *
 * Unset or empty variables leave the automatic choice; STW and RHO read any
 * number but 0 as 1, as the library did when it read these itself.
 */
#ifndef NTT_CUDA_TUNING_ENV_H
#define NTT_CUDA_TUNING_ENV_H

#include "cuda_tuning.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>

/* Reads <prefix>NAME (NULL prefix: "NTT_CUDA_") into *v: 0 when unset or
   empty (*v untouched), 1 when read, -1 when it is no integer. */
static inline int ntt_cuda_tuning_env_int(const char *prefix, const char *name, int *v)
{
    char key[96];
    snprintf(key, sizeof key, "%s%s", prefix ? prefix : "NTT_CUDA_", name);
    const char *e = getenv(key);
    if (!e || !*e) return 0;
    char *end;
    errno = 0;
    const long x = strtol(e, &end, 10);
    if (*end || errno || x < INT_MIN || x > INT_MAX) return -1;
    *v = (int)x;
    return 1;
}

/* Fills *t from the environment, starting from the defaults.  NTT_EINVAL
   when a variable is set to no integer, or LOGC or CARVEOUT above its range;
   *bad (when not NULL) then names it, without the prefix. */
static inline ntt_status ntt_cuda_tuning_from_env(ntt_cuda_tuning *t, const char *prefix,
                                                  const char **bad)
{
    static const char *const names[] = {"FP64", "CAP",  "STW",         "RHO",
                                        "LOGC", "BOTTOM", "COMPACT_LOG", "CARVEOUT"};
    int *const fields[] = {&t->fp64, &t->cap,    &t->stw,         &t->rho,
                           &t->logc, &t->bottom, &t->compact_log, &t->carveout};
    ntt_cuda_tuning_default(t);
    for (int i = 0; i < 8; i++) {
        int v = 0;
        const int r = ntt_cuda_tuning_env_int(prefix, names[i], &v);
        if (r == 0) continue;
        int ok = r > 0;
        switch (i) {
        case 0: *fields[i] = v == 0 ? 0 : NTT_CUDA_AUTO; break;
        case 1: *fields[i] = v == 4 ? 4 : NTT_CUDA_AUTO; break;
        case 2:
        case 3: *fields[i] = v != 0; break;
        case 4: ok = ok && v <= 8; *fields[i] = v < 0 ? NTT_CUDA_AUTO : v; break;
        case 5: *fields[i] = v >= 1 && v <= NTT_CUDA_TUNING_MAX_LEVELS ? v : NTT_CUDA_AUTO; break;
        case 6: *fields[i] = v < 1 ? 1 : v > 31 ? 31 : v; break;
        default: ok = ok && v <= 100; *fields[i] = v < 0 ? NTT_CUDA_AUTO : v; break;
        }
        if (!ok) {
            if (bad) *bad = names[i];
            ntt_cuda_tuning_default(t);
            return NTT_EINVAL;
        }
    }
    return NTT_OK;
}

#endif
