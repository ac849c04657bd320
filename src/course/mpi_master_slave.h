/* The seed report's MPI design, kept as the baseline of the MPI ladder:
   rank 0 runs both forward NTTs, broadcasts the two spectra, every rank
   multiplies a slice of them, MPI_Allgather(v) gives every rank the whole
   product spectrum, rank 0 runs the inverse.  Only the pointwise product is
   parallel, so Amdahl's law bounds it (the report: 2.2x on 2 ranks).
   Part of the course module (not of libntt_mpi): the benchmark's row, not
   an API, built into ntt-bench where MPI is.  Collective calls; statuses
   agreed as in ntt_mpi.h. */
#ifndef NTT_COURSE_MPI_MASTER_SLAVE_H
#define NTT_COURSE_MPI_MASTER_SLAVE_H

#include "ntt_mpi.h"

typedef struct ntt_mpi_ms ntt_mpi_ms;

/* A baseline for size n and an NTT prime p (n | p-1; NTT_EMODULUS
   otherwise), cyclic; rank 0 plans the transforms on `backend`. */
ntt_status ntt_mpi_ms_create(ntt_mpi_ms **ms, MPI_Comm comm, size_t n, uint64_t p,
                             ntt_width width, ntt_backend backend);
void ntt_mpi_ms_destroy(ntt_mpi_ms *ms);

/* c = a * b mod (x^n - 1): a, b, c natural order, n elements, on rank 0
   only (NULL elsewhere); every rank takes part.  c may alias a or b. */
ntt_status ntt_mpi_ms_polymul_u32(ntt_mpi_ms *ms, uint32_t *c, const uint32_t *a,
                                  const uint32_t *b);
ntt_status ntt_mpi_ms_polymul_u64(ntt_mpi_ms *ms, uint64_t *c, const uint64_t *a,
                                  const uint64_t *b);

#endif /* NTT_COURSE_MPI_MASTER_SLAVE_H */
