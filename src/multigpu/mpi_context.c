/* A context over an MPI communicator: one GPU per process, the NCCL
   communicator made from a ncclUniqueId that rank 0 broadcasts; the rest
   is context.c's.  Built where MPI is found. */
#include "ntt_multigpu_mpi.h"
#include "mgpu_internal.h"

#include <stdlib.h>

/* The process's rank among the ranks of its host. */
static int host_rank(MPI_Comm comm)
{
    MPI_Comm node;
    int r = 0;
    if (MPI_Comm_split_type(comm, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node) != MPI_SUCCESS)
        return 0;
    MPI_Comm_rank(node, &r);
    MPI_Comm_free(&node);
    return r;
}

ntt_status ntt_mgpu_create_mpi(ntt_mgpu_ctx **out, MPI_Comm comm, int device)
{
    if (out) *out = NULL;
    if (comm == MPI_COMM_NULL) return NTT_EINVAL;
    int rank = 0, size = 1, ndev = 0;
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &size);
    ntt_status st = NTT_OK;
    if (!out) st = NTT_EINVAL;
    if (cudaGetDeviceCount(&ndev) != cudaSuccess || ndev < 1) {
        (void)cudaGetLastError();
        if (st == NTT_OK) st = NTT_EUNSUPPORTED;
    }
    const int hr = host_rank(comm);
    if (st == NTT_OK && device < 0) device = hr % ndev;
    if (st == NTT_OK && device >= ndev) st = NTT_EINVAL;
    ncclUniqueId id;
    if (rank == 0 && ncclGetUniqueId(&id) != ncclSuccess && st == NTT_OK) st = NTT_EBACKEND;
    /* Agree before NCCL: ncclCommInitRank blocks until every rank is in. */
    int mine = (int)st, all = 0;
    if (MPI_Allreduce(&mine, &all, 1, MPI_INT, MPI_MAX, comm) != MPI_SUCCESS) return NTT_EBACKEND;
    if (all != NTT_OK) return (ntt_status)all;
    if (MPI_Bcast(&id, (int)sizeof id, MPI_BYTE, 0, comm) != MPI_SUCCESS) return NTT_EBACKEND;
    ntt_mgpu_ctx *ctx = calloc(1, sizeof *ctx);
    if (!ctx) st = NTT_ENOMEM;
    else st = mgpu_ctx_init_rank(ctx, device, &id, size, rank);
    mine = (int)st;
    if (MPI_Allreduce(&mine, &all, 1, MPI_INT, MPI_MAX, comm) != MPI_SUCCESS) all = NTT_EBACKEND;
    if (all != NTT_OK) {
        if (ctx) ntt_mgpu_destroy(ctx);
        return (ntt_status)all;
    }
    *out = ctx;
    return NTT_OK;
}
