/* What the multi-GPU test programs (test_multigpu, test_multigpu_ks) share:
   their start and the contexts they make. */
#ifndef NTT_MGPU_TEST_H
#define NTT_MGPU_TEST_H

#include "ntt_multigpu.h"

/* NVLink multicast off (before NCCL starts), test_init(program), max_log
   from NTT_TEST_MAX_LOG when set, then the context of every GPU (*all, of
   *gpus GPUs; *ndev devices are visible).  Returns -1 to go on, else the
   exit code: TEST_SKIP with fewer than two GPUs or without NCCL,
   test_finish's when the context failed. */
int mgpu_test_start(const char *program, unsigned *max_log, int *ndev, ntt_mgpu_ctx **all,
                    int *gpus);
/* A context over the devices 0 .. g-1 (NULL, with a failed check, if it
   cannot be made). */
ntt_mgpu_ctx *mgpu_test_ctx_first(int g);
/* The context sizes a program runs: want[0 .. count) that are at most
   gpus, in order, a size equal to the one before dropped; returns how many
   (at most count) are in sizes. */
int mgpu_test_sizes(const int *want, int count, int gpus, int *sizes);

#endif
