/* `ntt-bench mpi`: strong scaling of distributed products (mpi_bench.c). */
#ifndef NTT_MPI_BENCH_H
#define NTT_MPI_BENCH_H

/* argv[0] is the section name ("mpi").  Initializes MPI if the caller has
   not (and then finalizes it).  Returns an exit status: 0, 1 if a product
   was wrong, 2 for a bad command line, 8 for other failures. */
int bench_mpi(int argc, char **argv);

#endif
