/*
 * ntt_multigpu_mpi.h - a multi-GPU context over an MPI communicator: one
 * process per GPU, so that the GPUs of several hosts join one NCCL
 * communicator (libntt_multigpu built where MPI is found too).  Every call
 * of ntt_multigpu.h then works across the processes; the large transform's
 * calls are collective over them.
 */
#ifndef NTT_MULTIGPU_MPI_H
#define NTT_MULTIGPU_MPI_H

#include <mpi.h>

#include "ntt_multigpu.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Collective over comm: rank r of comm becomes global GPU r, on the CUDA
   device `device` of its host (device < 0: the process's rank among the
   ranks of its host, modulo the host's device count).  Rank 0 makes the
   ncclUniqueId and broadcasts it (MPI_Bcast); every rank calls
   ncclCommInitRank.  The status is agreed (MPI_Allreduce, the largest code
   wins): every rank gets the same one, and *ctx is NULL on every rank on
   failure.  Errors: as ntt_mgpu_create; NTT_EINVAL for comm
   MPI_COMM_NULL (that rank only) or a device out of range. */
NTT_API NTT_NODISCARD ntt_status ntt_mgpu_create_mpi(ntt_mgpu_ctx **ctx, MPI_Comm comm,
                                                     int device);

#ifdef __cplusplus
}
#endif

#endif /* NTT_MULTIGPU_MPI_H */
