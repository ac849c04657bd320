/* The PMPI wrapper (mpi_pmpi.h). */
#include "mpi_pmpi.h"

#include <mpi.h>
#include <string.h>

static pmpi_counters g;
static int g_on = 1;

static const char *const names[PM_COUNT] = {
    "MPI_Alltoall", "MPI_Alltoallv", "MPI_Alltoallw", "MPI_Ialltoall", "MPI_Ialltoallv",
    "MPI_Allgather", "MPI_Allgatherv", "MPI_Bcast", "MPI_Allreduce", "MPI_Reduce",
    "MPI_Reduce_scatter", "MPI_Barrier", "MPI_Gather", "MPI_Gatherv", "MPI_Scatter",
    "MPI_Scatterv", "MPI_Send", "MPI_Recv", "MPI_Sendrecv", "MPI_Wait", "MPI_Test",
    "MPI_Win_sync"};

const char *pmpi_name(int k) { return k >= 0 && k < PM_COUNT ? names[k] : "?"; }
int pmpi_is_alltoall(int k)
{
    return k == PM_ALLTOALL || k == PM_ALLTOALLV || k == PM_ALLTOALLW || k == PM_IALLTOALL ||
           k == PM_IALLTOALLV;
}
int pmpi_is_exchange(int k)
{
    return pmpi_is_alltoall(k) || k == PM_WAIT || k == PM_TEST || k == PM_WIN_SYNC;
}
void pmpi_reset(void) { memset(&g, 0, sizeof g); }
void pmpi_get(pmpi_counters *c) { *c = g; }
void pmpi_enable(int on) { g_on = on; }

static uint64_t tsize(MPI_Datatype t)
{
    int s = 0;
    PMPI_Type_size(t, &s);
    return (uint64_t)s;
}

static int me(MPI_Comm c)
{
    int r = 0;
    PMPI_Comm_rank(c, &r);
    return r;
}

static int nranks(MPI_Comm c)
{
    int s = 1;
    PMPI_Comm_size(c, &s);
    return s;
}

static uint64_t sum_others(const int *counts, MPI_Datatype t, MPI_Comm c)
{
    const int r = me(c), n = nranks(c);
    uint64_t b = 0;
    for (int i = 0; i < n; i++)
        if (i != r) b += (uint64_t)counts[i];
    return b * tsize(t);
}

static void note(int k, double t0, uint64_t bytes)
{
    if (!g_on) return;
    g.calls[k]++;
    g.seconds[k] += PMPI_Wtime() - t0;
    g.bytes[k] += bytes;
}

#define TIMED(k, bytes, call)                                                                  \
    do {                                                                                       \
        const double t0_ = PMPI_Wtime();                                                       \
        const int rc_ = call;                                                                  \
        note(k, t0_, bytes);                                                                   \
        return rc_;                                                                            \
    } while (0)

int MPI_Alltoall(const void *sb, int sc, MPI_Datatype st, void *rb, int rc, MPI_Datatype rt,
                 MPI_Comm c)
{
    TIMED(PM_ALLTOALL, (uint64_t)sc * tsize(st) * (uint64_t)(nranks(c) - 1),
          PMPI_Alltoall(sb, sc, st, rb, rc, rt, c));
}

int MPI_Alltoallv(const void *sb, const int sc[], const int sd[], MPI_Datatype st, void *rb,
                  const int rc[], const int rd[], MPI_Datatype rt, MPI_Comm c)
{
    TIMED(PM_ALLTOALLV, sum_others(sc, st, c), PMPI_Alltoallv(sb, sc, sd, st, rb, rc, rd, rt, c));
}

int MPI_Alltoallw(const void *sb, const int sc[], const int sd[], const MPI_Datatype st[],
                  void *rb, const int rc[], const int rd[], const MPI_Datatype rt[], MPI_Comm c)
{
    uint64_t b = 0;
    const int r = me(c), n = nranks(c);
    for (int i = 0; i < n; i++)
        if (i != r) b += (uint64_t)sc[i] * tsize(st[i]);
    TIMED(PM_ALLTOALLW, b, PMPI_Alltoallw(sb, sc, sd, st, rb, rc, rd, rt, c));
}

int MPI_Ialltoall(const void *sb, int sc, MPI_Datatype st, void *rb, int rc, MPI_Datatype rt,
                  MPI_Comm c, MPI_Request *q)
{
    TIMED(PM_IALLTOALL, (uint64_t)sc * tsize(st) * (uint64_t)(nranks(c) - 1),
          PMPI_Ialltoall(sb, sc, st, rb, rc, rt, c, q));
}

int MPI_Ialltoallv(const void *sb, const int sc[], const int sd[], MPI_Datatype st, void *rb,
                   const int rc[], const int rd[], MPI_Datatype rt, MPI_Comm c, MPI_Request *q)
{
    TIMED(PM_IALLTOALLV, sum_others(sc, st, c),
          PMPI_Ialltoallv(sb, sc, sd, st, rb, rc, rd, rt, c, q));
}

int MPI_Allgather(const void *sb, int sc, MPI_Datatype st, void *rb, int rc, MPI_Datatype rt,
                  MPI_Comm c)
{
    const uint64_t one = sb == MPI_IN_PLACE ? (uint64_t)rc * tsize(rt) : (uint64_t)sc * tsize(st);
    TIMED(PM_ALLGATHER, one * (uint64_t)(nranks(c) - 1), PMPI_Allgather(sb, sc, st, rb, rc, rt, c));
}

int MPI_Allgatherv(const void *sb, int sc, MPI_Datatype st, void *rb, const int rc[],
                   const int rd[], MPI_Datatype rt, MPI_Comm c)
{
    const uint64_t one =
        sb == MPI_IN_PLACE ? (uint64_t)rc[me(c)] * tsize(rt) : (uint64_t)sc * tsize(st);
    TIMED(PM_ALLGATHERV, one * (uint64_t)(nranks(c) - 1),
          PMPI_Allgatherv(sb, sc, st, rb, rc, rd, rt, c));
}

int MPI_Bcast(void *b, int n, MPI_Datatype t, int root, MPI_Comm c)
{
    TIMED(PM_BCAST, me(c) == root ? (uint64_t)n * tsize(t) * (uint64_t)(nranks(c) - 1) : 0,
          PMPI_Bcast(b, n, t, root, c));
}

int MPI_Allreduce(const void *sb, void *rb, int n, MPI_Datatype t, MPI_Op op, MPI_Comm c)
{
    TIMED(PM_ALLREDUCE, (uint64_t)n * tsize(t), PMPI_Allreduce(sb, rb, n, t, op, c));
}

int MPI_Reduce(const void *sb, void *rb, int n, MPI_Datatype t, MPI_Op op, int root, MPI_Comm c)
{
    TIMED(PM_REDUCE, (uint64_t)n * tsize(t), PMPI_Reduce(sb, rb, n, t, op, root, c));
}

int MPI_Reduce_scatter(const void *sb, void *rb, const int rc[], MPI_Datatype t, MPI_Op op,
                       MPI_Comm c)
{
    TIMED(PM_REDUCE_SCATTER, sum_others(rc, t, c), PMPI_Reduce_scatter(sb, rb, rc, t, op, c));
}

int MPI_Barrier(MPI_Comm c) { TIMED(PM_BARRIER, 0, PMPI_Barrier(c)); }

int MPI_Gather(const void *sb, int sc, MPI_Datatype st, void *rb, int rc, MPI_Datatype rt,
               int root, MPI_Comm c)
{
    TIMED(PM_GATHER, me(c) == root ? 0 : (uint64_t)sc * tsize(st),
          PMPI_Gather(sb, sc, st, rb, rc, rt, root, c));
}

int MPI_Gatherv(const void *sb, int sc, MPI_Datatype st, void *rb, const int rc[], const int rd[],
                MPI_Datatype rt, int root, MPI_Comm c)
{
    TIMED(PM_GATHERV, me(c) == root ? 0 : (uint64_t)sc * tsize(st),
          PMPI_Gatherv(sb, sc, st, rb, rc, rd, rt, root, c));
}

int MPI_Scatter(const void *sb, int sc, MPI_Datatype st, void *rb, int rc, MPI_Datatype rt,
                int root, MPI_Comm c)
{
    TIMED(PM_SCATTER, me(c) == root ? (uint64_t)sc * tsize(st) * (uint64_t)(nranks(c) - 1) : 0,
          PMPI_Scatter(sb, sc, st, rb, rc, rt, root, c));
}

int MPI_Scatterv(const void *sb, const int sc[], const int sd[], MPI_Datatype st, void *rb,
                 int rc, MPI_Datatype rt, int root, MPI_Comm c)
{
    TIMED(PM_SCATTERV, me(c) == root ? sum_others(sc, st, c) : 0,
          PMPI_Scatterv(sb, sc, sd, st, rb, rc, rt, root, c));
}

int MPI_Send(const void *b, int n, MPI_Datatype t, int dest, int tag, MPI_Comm c)
{
    TIMED(PM_SEND, (uint64_t)n * tsize(t), PMPI_Send(b, n, t, dest, tag, c));
}

int MPI_Recv(void *b, int n, MPI_Datatype t, int src, int tag, MPI_Comm c, MPI_Status *s)
{
    TIMED(PM_RECV, 0, PMPI_Recv(b, n, t, src, tag, c, s));
}

int MPI_Sendrecv(const void *sb, int sc, MPI_Datatype st, int dest, int stag, void *rb, int rc,
                 MPI_Datatype rt, int src, int rtag, MPI_Comm c, MPI_Status *s)
{
    TIMED(PM_SENDRECV, (uint64_t)sc * tsize(st),
          PMPI_Sendrecv(sb, sc, st, dest, stag, rb, rc, rt, src, rtag, c, s));
}

int MPI_Wait(MPI_Request *q, MPI_Status *s) { TIMED(PM_WAIT, 0, PMPI_Wait(q, s)); }

int MPI_Test(MPI_Request *q, int *flag, MPI_Status *s) { TIMED(PM_TEST, 0, PMPI_Test(q, flag, s)); }

int MPI_Win_sync(MPI_Win w) { TIMED(PM_WIN_SYNC, 0, PMPI_Win_sync(w)); }
