/* TEMPORARY: the MPI benchmark as a program of its own, until `ntt-bench mpi`
   calls bench_mpi (mpiexec -n P ntt_bench_mpi [options]). */
#include "mpi_bench.h"

int main(int argc, char **argv)
{
    char name[] = "mpi";
    argv[0] = name;
    return bench_mpi(argc, argv);
}
