/* A program built against an installed libntt_mpi, through pkg-config and
   through find_package(ntt_mpi): it must compile, link and compute the
   course's first product across the ranks it is started with. */
#include <ntt_mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    /* (4 + x + 5x^2 + 2x^3)(1 + 5x + 5x^2 + 4x^3), zero-padded to n = 8. */
    const uint64_t a[8] = {4, 1, 5, 2}, b[8] = {1, 5, 5, 4}, want[8] = {4, 21, 30, 48, 39, 30, 8};
    uint64_t la[8], lb[8], c[8] = {0};
    ntt_mpi_plan *plan = NULL;
    ntt_mpi_local loc;
    ntt_status s = ntt_mpi_plan_create(&plan, MPI_COMM_WORLD, 8, 7340033, NTT_U64,
                                       NTT_BACKEND_AUTO, NULL);
    if (s == NTT_OK) s = ntt_mpi_local_size(plan, &loc);
    if (s == NTT_OK) s = ntt_mpi_scatter_u64(plan, NTT_MPI_COEFFS, 0, a, la);
    if (s == NTT_OK) s = ntt_mpi_scatter_u64(plan, NTT_MPI_COEFFS, 0, b, lb);
    if (s == NTT_OK) s = ntt_mpi_polymul_u64(plan, la, la, lb);
    if (s == NTT_OK) s = ntt_mpi_gather_u64(plan, NTT_MPI_COEFFS, 0, la, c);
    ntt_mpi_plan_destroy(plan);
    int bad = s != NTT_OK;
    if (s != NTT_OK && rank == 0) fprintf(stderr, "ntt_mpi: %s\n", ntt_status_string(s));
    for (int i = 0; i < 8 && rank == 0 && !bad; i++)
        if (c[i] != want[i]) {
            fprintf(stderr, "c[%d] = %llu, want %llu\n", i, (unsigned long long)c[i],
                    (unsigned long long)want[i]);
            bad = 1;
        }
    MPI_Bcast(&bad, 1, MPI_INT, 0, MPI_COMM_WORLD);
    if (rank == 0 && !bad) puts("ok");
    MPI_Finalize();
    return bad;
}
