/* The CUDA backend's tuning switches (cuda_tuning.h): the process-wide
   settings, their checks and their lock.  Plain C, built with or without
   the CUDA backend; the backend reads the settings when it creates a plan. */
#include "cuda_tuning.h"

#include <pthread.h>

static pthread_mutex_t g_lock = PTHREAD_MUTEX_INITIALIZER;
static ntt_cuda_tuning g_tuning = {NTT_CUDA_AUTO, NTT_CUDA_AUTO, NTT_CUDA_AUTO, NTT_CUDA_AUTO,
                                   NTT_CUDA_AUTO, NTT_CUDA_AUTO, NTT_CUDA_AUTO, NTT_CUDA_AUTO};

void ntt_cuda_tuning_default(ntt_cuda_tuning *t)
{
    t->fp64 = t->cap = t->stw = t->rho = NTT_CUDA_AUTO;
    t->logc = t->bottom = t->compact_log = t->carveout = NTT_CUDA_AUTO;
}

void ntt_cuda_tuning_get(ntt_cuda_tuning *t)
{
    pthread_mutex_lock(&g_lock);
    *t = g_tuning;
    pthread_mutex_unlock(&g_lock);
}

/* AUTO, or a value in [lo, hi]. */
static int auto_or(int v, int lo, int hi) { return v == NTT_CUDA_AUTO || (v >= lo && v <= hi); }

ntt_status ntt_cuda_tuning_set(const ntt_cuda_tuning *t)
{
    ntt_cuda_tuning v;
    if (t)
        v = *t;
    else
        ntt_cuda_tuning_default(&v);
    if (!auto_or(v.fp64, 0, 1) || !(v.cap == NTT_CUDA_AUTO || v.cap == 4) ||
        !auto_or(v.stw, 0, 1) || !auto_or(v.rho, 0, 1) || !auto_or(v.logc, 0, 8) ||
        !auto_or(v.bottom, 1, NTT_CUDA_TUNING_MAX_LEVELS) || !auto_or(v.compact_log, 1, 31) ||
        !auto_or(v.carveout, 0, 100))
        return NTT_EINVAL;
    pthread_mutex_lock(&g_lock);
    g_tuning = v;
    pthread_mutex_unlock(&g_lock);
    return NTT_OK;
}
