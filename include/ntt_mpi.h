/*
 * ntt_mpi.h - number-theoretic transforms and polynomial products spread over
 * the ranks of an MPI communicator (libntt_mpi, built where MPI is found).
 *
 * The model is FFTW's MPI interface: a distributed plan is made collectively
 * for one size n and modulus p; each rank asks which part of the data it
 * holds (ntt_mpi_local_size), keeps only that part, and every transform or
 * product is a collective call on all ranks of the plan.
 *
 * The transform is the four-step one.  n = n1 * n2 (powers of two, n1 >= n2,
 * n2 = 1 only for n = 2); a coefficient index j is j1 + n1 * j2 with
 * j1 < n1 and j2 < n2, and
 *
 *   - each rank holds whole rows j1 (a block of consecutive j1): row j1 is
 *     the length-n2 subsequence a[j1], a[j1 + n1], a[j1 + 2 n1], ...;
 *     the rank runs the n2-point transforms of its rows;
 *   - ONE all-to-all turns rows into columns;
 *   - each rank multiplies its columns by the twiddles and runs the n1-point
 *     transforms.
 *
 * The forward output (the spectrum) is in the single-process library's
 * order, bit-reversed (see ntt.h): rank r holds the positions
 * [out_start, out_start + out_count) of exactly the array ntt_forward_*
 * would return, in that order.  So a gathered spectrum equals the
 * single-process one, and pointwise work on spectra needs no index maps.
 * The input is in the "row" layout above, not in natural order: a natural
 * block distribution cannot work with one all-to-all, because the first
 * butterflies of a size-n transform pair coefficients n/2 apart, on
 * different ranks.  ntt_mpi_scatter_* / ntt_mpi_gather_* convert between
 * natural order on one rank and the plan's layouts.
 *
 *   forward:  one exchange;  inverse:  one exchange;
 *   product:  two exchanges (the first carries both operands).
 * An exchange is one of:
 *   - every rank of the plan on one node (MPI_Comm_split_type with
 *     MPI_COMM_TYPE_SHARED): the message buffers live in one MPI-3 shared
 *     window (MPI_Win_allocate_shared) and each rank reads the blocks meant
 *     for it where their owner wrote them: nothing is sent, each byte is
 *     copied once (by the reader) instead of twice; the status agreement
 *     below is the synchronisation, and one more agreement ends each call
 *     (no rank writes its buffers while another still reads them).
 *     Environment: NTT_MPI_SHM=0 on any rank (read at plan creation) turns
 *     this off for the plan;
 *   - otherwise: forward and inverse one MPI_Alltoallv; the product's two
 *     exchanges in K pieces of columns (MPI_Ialltoallv each), piece k + 1
 *     of the operands and piece k - 1 of the result travelling while the
 *     columns of piece k are worked on.  K: pieces of at least 128 KiB
 *     per pair of ranks, at most 8, 1 on one rank; NTT_MPI_CHUNKS=K (1 ..
 *     64; the largest over the ranks) at plan creation overrides it.
 * Besides these, each exchange ends with one MPI_Allreduce of a single int
 * (the status agreement below; the product in pieces agrees once, after
 * the last piece); nothing else communicates (with NTT_BACKEND_CUDA as the
 * local backend one more allreduce ends each call, as a GPU can fail after
 * the last exchange).
 *
 * Conventions (as ntt.h unless said otherwise):
 *  - Every function returns an ntt_status; NTT_OK is 0.  Nothing prints,
 *    aborts or exits.
 *  - Collective calls: every rank of the plan's communicator makes the same
 *    call with the same plan, in the same order.  A collective call returns
 *    the SAME status on every rank: each rank's own result (bad argument,
 *    NTT_ERANGE input, NTT_ENOMEM, MPI failure) is agreed by one
 *    MPI_Allreduce (MPI_MAX) of the status code, so the largest code among
 *    the ranks wins (an MPI failure, NTT_EBACKEND, over a range error).
 *    On an error, no output array of any rank has been written.
 *  - MPI errors: the plan works on its own duplicate of the communicator
 *    with MPI_ERRORS_RETURN, so a failing MPI call comes back as
 *    NTT_EBACKEND instead of aborting.  A rank whose MPI call failed still
 *    joins the agreement; if the communicator itself is broken, what MPI
 *    does is up to MPI.
 *  - Element widths as in ntt.h: NTT_U32 arrays (uint32_t) need p < 2^30;
 *    NTT_U64 arrays (uint64_t) take any p in [2, 2^63).
 *  - Local work (row and column transforms, the twiddles, the column
 *    products) runs on the library's batched plans (AUTO: the fastest,
 *    AVX-512 / AVX2 where the CPU has them), in bands of rows or columns
 *    shared among the rank's threads: opts->threads threads per rank
 *    with AUTO, SCALAR, AVX2 or AVX512 (0 or 1: one thread), with
 *    NTT_BACKEND_OPENMP opts->threads (0: OMP_NUM_THREADS or all cores),
 *    each on the best serial kernels.  So a run is ranks x threads: one
 *    rank per node or per socket with a thread per core, or a rank per
 *    core.  The threads are the plan's own (src/pool, started at
 *    creation, joined by ntt_mpi_plan_destroy; they wait briefly, then
 *    sleep, whatever OMP_WAIT_POLICY says); only the calling thread calls
 *    MPI (MPI_THREAD_FUNNELED is enough).
 *    Ranks may use different backends and thread counts; the results are
 *    the same words whatever the threads, backends and exchange.
 */
#ifndef NTT_MPI_H
#define NTT_MPI_H

#include <mpi.h>

#include "ntt.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Largest distributed transform: n <= 2^NTT_MPI_MAX_LOG2_N.  Each rank's
   share must also fit MPI's int counts: a plan whose largest local message
   buffer would exceed INT_MAX elements is refused (NTT_EINVAL); more ranks
   make it fit. */
#define NTT_MPI_MAX_LOG2_N 40

typedef struct ntt_mpi_plan ntt_mpi_plan;

/* What one rank holds (ntt_mpi_local_size).  All counts in elements. */
typedef struct ntt_mpi_local {
    size_t n;          /* transform size */
    size_t n1, n2;     /* n = n1 * n2 */
    /* Coefficient ("row") layout: the input of forward and products, the
       output of inverse and products.  The rank holds the rows
       j1 in [row_start, row_start + rows); local element
       (j1 - row_start) * n2 + j2 is coefficient a[j1 + n1 * j2]. */
    size_t row_start, rows;
    size_t in_count;   /* rows * n2 */
    /* Spectrum layout: the output of forward, the input of inverse.  Local
       element i is position out_start + i of the single-process spectrum
       (bit-reversed order: the value at the (brv_n(out_start + i))-th
       power of the root).  out_start = col_start * n1, where the rank owns
       the columns [col_start, col_start + cols) of the four-step. */
    size_t col_start, cols;
    size_t out_start, out_count; /* col_start * n1, cols * n1 */
    size_t alloc;      /* max(in_count, out_count): one array of this many
                          elements serves as input and output of every call */
    int transforms;    /* 1: forward and inverse are available (p is a
                          prime with n | p-1, 2n | p-1 for negacyclic, and
                          below the width's limit); 0: products only */
    size_t moduli;     /* primes the products run over: 1 when transforms
                          is 1, else the CRT primes used (2 to 4) */
} ntt_mpi_local;

/* Which layout a scatter or gather converts natural order to or from. */
typedef enum ntt_mpi_layout {
    NTT_MPI_COEFFS = 0,  /* coefficients: natural order <-> row layout */
    NTT_MPI_SPECTRUM = 1 /* spectra: the single-process spectrum order (ntt.h,
                            bit-reversed) <-> the spectrum layout */
} ntt_mpi_layout;

/* Creates a plan for transforms and products of size n modulo p over the
   ranks of comm (collective over comm).
     - n: a power of two in [2, 2^NTT_MPI_MAX_LOG2_N].  Any number of ranks
       works, also ranks that hold nothing (n < P^2) or a count that does
       not divide n.
     - p: transforms and direct products need a prime p with n | p-1
       (2n | p-1 negacyclic) below 2^30 (NTT_U32) or 2^62 (NTT_U64).  Any
       other p in [2, 2^63) (2^30 for NTT_U32) gives a products-only plan:
       the product runs over 2 to 4 internal NTT primes and Garner's CRT,
       locally per coefficient after the inverse, with no extra
       communication (the primes' product exceeds every exact coefficient,
       n (p-1)^2 in magnitude).
     - backend: any backend of ntt.h; NTT_BACKEND_OPENMP runs
       opts->threads threads per rank (0: all cores), as does any other
       CPU backend (AUTO included) with opts->threads > 1 (0 or 1: one).
     - opts (may be NULL): flags NTT_FLAG_NEGACYCLIC or 0 (others:
       NTT_EINVAL), threads, modmul, batch as in ntt.h for the local plans.
   n, p, width and flags must be the same on every rank; a mismatch is
   detected and every rank gets NTT_EINVAL.  The backend and options other
   than flags may differ between ranks.
   Allocates everything the calls need: message buffers of about
   5 * moduli * alloc elements (of 4 bytes for direct u32 plans, else 8;
   about 3 * moduli * alloc in a shared window where the ranks share a
   node, 7 * moduli * alloc with the product in pieces), per-thread
   workspaces of about 512 KiB and the local plans' tables.  Where every
   rank is on one node it also makes the shared window (collective; a
   window that cannot be had on some rank leaves every rank on the
   all-to-alls).
   On failure *plan is NULL on every rank (plan == NULL on one rank is a
   bad argument like any other, agreed).  Only a rank with comm ==
   MPI_COMM_NULL cannot tell the others: it returns NTT_EINVAL at once
   (the other ranks then block in the collective, as in any MPI program
   with mismatched calls).
   Errors: NTT_EINVAL (bad or mismatched arguments, n too large for the
   ranks' int counts), NTT_EMODULUS (p < 2 or p above the width's limit),
   NTT_EUNSUPPORTED (backend unavailable on some rank), NTT_ENOMEM,
   NTT_EBACKEND (an MPI call failed). */
NTT_API NTT_NODISCARD ntt_status ntt_mpi_plan_create(ntt_mpi_plan **plan, MPI_Comm comm, size_t n,
                                                     uint64_t p, ntt_width width,
                                                     ntt_backend backend,
                                                     const ntt_plan_options *opts);

/* Frees the plan and its communicator (collective: MPI_Comm_free).  NULL
   is ignored (locally). */
NTT_API void ntt_mpi_plan_destroy(ntt_mpi_plan *plan);

/* This rank's share (local, no communication).  Errors: NTT_EINVAL. */
NTT_API NTT_NODISCARD ntt_status ntt_mpi_local_size(const ntt_mpi_plan *plan,
                                                    ntt_mpi_local *local);

/* Forward transform (collective): in holds in_count coefficients in the
   row layout, out receives out_count spectrum entries in the spectrum
   layout.  out may be in, or overlap it anyhow (all of in is read before
   out is written); in is not modified otherwise.  Every in[i] must be
   below p (else NTT_ERANGE on every rank).
   Errors: NTT_EINVAL (NULL array where the rank's count is not 0, width
   not the plan's), NTT_EMODULUS (a products-only plan), NTT_ERANGE,
   NTT_EBACKEND. */
NTT_API NTT_NODISCARD ntt_status ntt_mpi_forward_u32(ntt_mpi_plan *plan, const uint32_t *in,
                                                     uint32_t *out);
NTT_API NTT_NODISCARD ntt_status ntt_mpi_forward_u64(ntt_mpi_plan *plan, const uint64_t *in,
                                                     uint64_t *out);

/* Inverse transform (collective), scaled by 1/n: in holds out_count entries
   in the spectrum layout, out receives in_count coefficients in the row
   layout; inverse(forward(a)) == a.  Aliasing, ranges and errors as
   forward. */
NTT_API NTT_NODISCARD ntt_status ntt_mpi_inverse_u32(ntt_mpi_plan *plan, const uint32_t *in,
                                                     uint32_t *out);
NTT_API NTT_NODISCARD ntt_status ntt_mpi_inverse_u64(ntt_mpi_plan *plan, const uint64_t *in,
                                                     uint64_t *out);

/* Product (collective): c = a * b mod (x^n - 1), or mod (x^n + 1) for a
   negacyclic plan, modulo p; a, b and c in the row layout (in_count
   elements each).  For a linear product of la + lb - 1 <= n coefficients
   pad a and b with zeros to n (the cyclic product is then the linear one).
   c may alias a and/or b, or overlap them anyhow.  Inputs must be below p
   (NTT_ERANGE).  Any p of the plan: direct, or over the CRT primes.
   Errors: NTT_EINVAL, NTT_ERANGE, NTT_EBACKEND. */
NTT_API NTT_NODISCARD ntt_status ntt_mpi_polymul_u32(ntt_mpi_plan *plan, uint32_t *c,
                                                     const uint32_t *a, const uint32_t *b);
NTT_API NTT_NODISCARD ntt_status ntt_mpi_polymul_u64(ntt_mpi_plan *plan, uint64_t *c,
                                                     const uint64_t *a, const uint64_t *b);

/* Scatter (collective): rank `root` holds all n elements in `global`
   (natural coefficient order for NTT_MPI_COEFFS, the single-process
   spectrum order for NTT_MPI_SPECTRUM); every rank receives its share into
   `local` (in_count or out_count elements).  global is read on root only
   (may be NULL elsewhere); values are moved, not checked.
   Gather (collective): the reverse; global (n elements) is written on root
   only.  Root sends (receives) one rank's share at a time, for coefficients
   through a temporary of the largest share (the transpose).  One
   MPI_Allreduce agrees on the arguments before anything moves, one on the
   MPI status after.
   Errors: NTT_EINVAL (root out of range or differing between ranks, NULL
   arrays, width not the plan's), NTT_EBACKEND. */
NTT_API NTT_NODISCARD ntt_status ntt_mpi_scatter_u32(ntt_mpi_plan *plan, ntt_mpi_layout layout,
                                                     int root, const uint32_t *global,
                                                     uint32_t *local);
NTT_API NTT_NODISCARD ntt_status ntt_mpi_scatter_u64(ntt_mpi_plan *plan, ntt_mpi_layout layout,
                                                     int root, const uint64_t *global,
                                                     uint64_t *local);
NTT_API NTT_NODISCARD ntt_status ntt_mpi_gather_u32(ntt_mpi_plan *plan, ntt_mpi_layout layout,
                                                    int root, const uint32_t *local,
                                                    uint32_t *global);
NTT_API NTT_NODISCARD ntt_status ntt_mpi_gather_u64(ntt_mpi_plan *plan, ntt_mpi_layout layout,
                                                    int root, const uint64_t *local,
                                                    uint64_t *global);

#ifdef __cplusplus
}
#endif

#endif /* NTT_MPI_H */
