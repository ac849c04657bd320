/* The subcommands of ntt-bench.  argv[0] is the subcommand's name; each
   handles --help and returns an exit code of cli.h. */
#ifndef NTT_BENCH_H
#define NTT_BENCH_H

#ifdef __cplusplus
extern "C" {
#endif

int bench_table(int argc, char **argv);  /* table.c */
int bench_ladder(int argc, char **argv); /* ladder.c */
int bench_oracle(int argc, char **argv); /* oracle.c */
int bench_rns(int argc, char **argv);    /* rns_stages.c: RNS/CKKS stages (issue 46) */
int bench_u64(int argc, char **argv);    /* u64.c: the u64 x86 kernels, old and new (issue 47) */
int bench_bigmod(int argc, char **argv); /* bigmod.c: products mod a big M (issue 60) */
int bench_field(int argc, char **argv);  /* field.c: big prime fields (issue 59) */
int bench_planner(int argc, char **argv); /* planner.c: ESTIMATE, MEASURE, wisdom (issue 63) */
#ifdef NTT_HAVE_MPI_BENCH
/* mpi_bench.c: distributed products under mpiexec (issue 49).  Initializes
   MPI if the caller has not (and then finalizes it); 0, 1 if a product was
   wrong, 2 for a bad command line, 8 for other failures. */
int bench_mpi(int argc, char **argv);
#endif
#ifdef NTT_HAVE_MULTIGPU_BENCH
/* multigpu_bench.c: libntt_multigpu on 1, 2, 4 GPUs (issue 50); 0, 1 if a
   row differs from one GPU's, 2 for a bad command line, 8 otherwise. */
int bench_multigpu(int argc, char **argv);
#endif
#ifdef NTT_HAVE_CUDA
int bench_gpu(int argc, char **argv);        /* gpu.cu */
int bench_gpu_modmul(int argc, char **argv); /* gpu_modmul.cu */
/* rns_gpu.cu: `ntt-bench rns --gpu`, the RNS stages on the device. */
int bench_rns_gpu(int argc, char **argv);
/* ckks_gpu.cu: `ntt-bench ckks --gpu`, the CKKS operations on the device (issue 58). */
int bench_ckks_gpu(int argc, char **argv);
#endif

#ifdef __cplusplus
}
#endif

#endif
