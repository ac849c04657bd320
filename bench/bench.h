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
#ifdef NTT_HAVE_CUDA
int bench_gpu(int argc, char **argv);        /* gpu.cu */
int bench_gpu_modmul(int argc, char **argv); /* gpu_modmul.cu */
#endif

#ifdef __cplusplus
}
#endif

#endif
