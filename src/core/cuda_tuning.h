/*
 * The CUDA backend's tuning switches: one process-wide struct that the
 * tests and ntt-bench set to reach kernels and geometries the automatic
 * choice would not take on a given size, or to compare two choices in one
 * run.  Not installed and not part of the public API: users never need it,
 * and the library reads no environment variable for it (ntt-bench and the
 * tests parse theirs with cuda_tuning_env.h).
 *
 * Every field's value NTT_CUDA_AUTO (-1) means "as the library decides",
 * which is what ntt_cuda_tuning_default() gives.  A CUDA plan copies the
 * settings once, when it is created (ntt_plan_create*): plans created after
 * a change see it, plans that exist keep what they had.  The functions are
 * thread-safe (a mutex guards the struct); a plan created while another
 * thread sets it sees either the old or the new settings, whole.  Built
 * with or without the CUDA backend, so that callers link either way.
 */
#ifndef NTT_CUDA_TUNING_H
#define NTT_CUDA_TUNING_H

#include "ntt.h"

#ifdef __cplusplus
extern "C" {
#endif

#define NTT_CUDA_AUTO (-1)
/* The most levels a pass kernel takes (the kernels' kMaxP, checked there). */
#define NTT_CUDA_TUNING_MAX_LEVELS 14

typedef struct ntt_cuda_tuning {
    /* 0: u64 Shoup plans keep the integer kernels where every prime lies
       below 2^50 and the FP64 ones would run.  AUTO or 1: the FP64 ones. */
    int fp64;
    /* 4: the u32 Shoup kernels keep values below 4p even where every prime
       lies below 2^29 and they would let them reach 8p.  AUTO: 8p there. */
    int cap;
    /* 0 or 1: the bottom passes (transforms' and the product's fused one)
       stage their column's twiddles in shared memory wherever a kernel for
       it exists, or never.  AUTO: where the column's table takes at most
       16 KiB. */
    int stw;
    /* 0 or 1: FP64 bottom passes that stage twiddles compute them from a
       small table instead of copying the tree's (never where they stage
       none).  AUTO: where the tables of the moduli one call reaches take
       more than half the L2. */
    int rho;
    /* 0 .. 8: the upper passes (transforms and products) take column groups
       of 2^logc columns wherever the tile stays within 128 KiB, and u64
       batches are not widened at launch.  AUTO: per size and width. */
    int logc;
    /* 1 .. NTT_CUDA_TUNING_MAX_LEVELS: transforms' bottom pass takes this
       many levels (at most the transform's; u64 plans ignore values above
       13).  Products keep theirs.  AUTO: per size and width. */
    int bottom;
    /* 1 .. 31: the bottom passes of the u32 Shoup and FP64 kinds take
       compact twiddles from size 2^compact_log on (31: never).  AUTO: from
       2^19 (FP64) or 2^22 (u32 Shoup). */
    int compact_log;
    /* 0 .. 100: the shared-memory carveout (percent of the L1) every pass
       kernel of a plan prefers.  AUTO: the driver's choice per kernel. */
    int carveout;
} ntt_cuda_tuning;

/* Every field NTT_CUDA_AUTO.  t must not be NULL. */
void ntt_cuda_tuning_default(ntt_cuda_tuning *t);

/* The settings in force.  t must not be NULL. */
void ntt_cuda_tuning_get(ntt_cuda_tuning *t);

/* Replaces the settings for plans created from now on; NULL restores the
   defaults.  NTT_EINVAL, with nothing changed, when a field lies outside
   its range above. */
NTT_NODISCARD ntt_status ntt_cuda_tuning_set(const ntt_cuda_tuning *t);

#ifdef __cplusplus
}
#endif

#endif
