/* Counting and timing of MPI calls through the MPI profiling interface: the
   benchmark binary defines the MPI_* functions below, each calls its PMPI_*
   twin, so every call libntt_mpi makes is seen, counted, timed and its
   bytes added up without the library's help.  Link mpi_pmpi.c's object
   into the program itself (not from an archive that might be skipped). */
#ifndef NTT_MPI_PMPI_H
#define NTT_MPI_PMPI_H

#include <stdint.h>

enum {
    PM_ALLTOALL, PM_ALLTOALLV, PM_ALLTOALLW, PM_IALLTOALL, PM_IALLTOALLV,
    PM_ALLGATHER, PM_ALLGATHERV, PM_BCAST, PM_ALLREDUCE, PM_REDUCE, PM_REDUCE_SCATTER,
    PM_BARRIER, PM_GATHER, PM_GATHERV, PM_SCATTER, PM_SCATTERV, PM_SEND, PM_RECV,
    PM_SENDRECV, PM_WAIT, PM_TEST, PM_WIN_SYNC, PM_COUNT
};

typedef struct {
    uint64_t calls[PM_COUNT];
    double seconds[PM_COUNT];
    /* Bytes this rank hands MPI for other ranks: the send counts to every
       other rank (all-to-alls, gathers, sends), the send count times P-1
       for allgathers and a broadcast's root, the count for reductions. */
    uint64_t bytes[PM_COUNT];
} pmpi_counters;

/* The MPI function name of counter k ("MPI_Alltoallv"). */
const char *pmpi_name(int k);
/* Whether counter k is an all-to-all (the collective the four-step
   budgets: one per transform). */
int pmpi_is_alltoall(int k);
/* Whether counter k's time is the exchange's: the all-to-alls, the waits
   and tests of the nonblocking ones (the part of an overlapped exchange
   that the work did not hide), the shared window's syncs. */
int pmpi_is_exchange(int k);
void pmpi_reset(void);
void pmpi_get(pmpi_counters *c);
/* Counting off (the benchmark's own bookkeeping) or on (the default). */
void pmpi_enable(int on);

#endif
