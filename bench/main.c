/* ntt-bench: every measurement of ntt, one subcommand each.  A new
   benchmark (rns, mpi, multigpu, ...) is a file with an entry point of
   bench.h's shape and one row of `subcommands` below; a row whose entry
   point was not built here (run == NULL) still answers --help and says why
   it cannot run. */
#include "bench.h"

#include "cli.h"
#include "sysinfo.h"

#include <stdio.h>
#include <string.h>

typedef struct {
    const char *name;
    int (*run)(int argc, char **argv); /* NULL: not in this build */
    const char *args;                  /* the usage line after the name */
    const char *what;                  /* one line for the list */
    const char *missing;               /* why run is NULL */
} subcommand;

#ifdef NTT_HAVE_CUDA
#define CUDA_ONLY(f) f
#else
#define CUDA_ONLY(f) NULL
#endif
#define NO_CUDA "this build has no CUDA backend (nvcc was not found when it was configured)"
#ifdef NTT_HAVE_MPI_BENCH
#define MPI_ONLY(f) f
#else
#define MPI_ONLY(f) NULL
#endif
#ifdef NTT_HAVE_MULTIGPU_BENCH
#define MGPU_ONLY(f) f
#else
#define MGPU_ONLY(f) NULL
#endif
#define NO_MGPU "this build has no libntt_multigpu (CUDA and NCCL were not both found)"
#define NO_MPI "this build has no MPI (libopenmpi-dev was not found when it was configured)"

static const subcommand subcommands[] = {
    {"table", bench_table, "[--n N] [--primes P,...] [--reps R] [--quick] [--json FILE]",
     "one product, every CPU backend and modmul, FLINT and NTL", NULL},
    {"ladder", bench_ladder,
     "[--threads T,...] [--n N] [--reps R] [--quick] [--sections S] [--json FILE]",
     "the reports' CPU ladder, time against length, thread scaling", NULL},
    {"gpu", CUDA_ONLY(bench_gpu), "[--quick] [--headline] [--json FILE]",
     "the CUDA backend: headline, launch floor, host to host, the reports' GPU ladder", NO_CUDA},
    {"gpu-modmul", CUDA_ONLY(bench_gpu_modmul), "[--json FILE]",
     "modular multiplication chains on the GPU", NO_CUDA},
    {"rns", bench_rns, "[--gpu] [--n N] [--reps R] [--threads T] [--flush MIB] [--quick] [--json FILE]",
     "RNS/CKKS stages: modUp, modDown, rescale, key switch, cold, with NTT shares", NULL},
    {"ckks", CUDA_ONLY(bench_ckks_gpu),
     "--gpu [--n N] [--reps R] [--cpu-reps R] [--no-cpu] [--quick] [--json FILE]",
     "CKKS operations on the device (HMult, rotations, hoisting, rescale), CPU rows beside",
     NO_CUDA},
    {"mpi", MPI_ONLY(bench_mpi), "[--n L1,L2,..] [--p P] [--reps R] [--backend B] [--json FILE] (under mpiexec)",
     "distributed products: four-step and the reports' master-slave, all-to-alls counted",
     NO_MPI},
    {"multigpu", MGPU_ONLY(bench_multigpu),
     "[--reps R] [--limbs L] [--log-n LOG] [--large L1,L2,..] [--quick] [--json FILE]",
     "several GPUs (NCCL): limb-batched NTTs, batched products, the four-step; 1, 2, 4 GPUs",
     NO_MGPU},
    {"u64", bench_u64, "[--reps R] [--quick] [--json FILE]",
     "u64 forward, inverse, pointwise, one thread: the x86 kernels against the ones they replace", NULL},
    {"bigmod", bench_bigmod,
     "[--reps R] [--quick] [--bits B,...] [--n N,...] [--mpn [--large]] [--json FILE]",
     "products mod a big M, one thread, against FLINT's fmpz_mod_poly_mul and NTL's ZZ_pX", NULL},
    {"field", bench_field, "[--reps R] [--max-log L] [--quick] [--json FILE]",
     "big prime fields, one thread: forward NTT per point, field multiplication against GMP",
     NULL},
    {"planner", bench_planner, "[--reps R] [--quick] [--max-log2 K] [--json FILE]",
     "ESTIMATE vs MEASURE vs imported wisdom: polymul_mod and u64 forward, planning times", NULL},
    {"oracle", bench_oracle, "IN [-o OUT]",
     "the GMP product of a course file (its expected output)", NULL},
};

#define NSUB (sizeof subcommands / sizeof subcommands[0])

static void usage(FILE *f)
{
    fputs("usage: ntt-bench <subcommand> [options]\n"
          "\n"
          "The measurements of ntt (docs/BENCHMARKING.md): every row checked before it is\n"
          "timed, the machine stated, --json FILE keeps every repetition.\n"
          "\n"
          "subcommands:\n",
          f);
    for (size_t i = 0; i < NSUB; i++)
        fprintf(f, "  %-11s %s%s\n", subcommands[i].name, subcommands[i].what,
                subcommands[i].run ? "" : " (not in this build)");
    fputs("  help        this text; help SUBCOMMAND: its usage\n"
          "\n"
          "ntt-bench SUBCOMMAND --help gives its options; ntt-bench --version the build.\n",
          f);
}

static const subcommand *find(const char *name)
{
    for (size_t i = 0; i < NSUB; i++)
        if (strcmp(subcommands[i].name, name) == 0) return &subcommands[i];
    return NULL;
}

static int run(const subcommand *s, int argc, char **argv)
{
    if (s->run) return s->run(argc, argv);
    for (int i = 1; i < argc; i++)
        if (cli_is_help(argv[i])) {
            printf("usage: ntt-bench %s %s\n\n%s.\nNot in this build: %s.\n", s->name, s->args,
                   s->what, s->missing);
            return EXIT_OK;
        }
    fprintf(stderr, "ntt-bench %s: %s\n", s->name, s->missing);
    return EXIT_UNSUPPORTED;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        usage(stderr);
        return EXIT_USAGE;
    }
    const char *name = argv[1];
    if (cli_is_help(name)) {
        usage(stdout);
        return EXIT_OK;
    }
    if (strcmp(name, "--version") == 0) {
        printf("ntt-bench %d.%d.%d (commit %s)\n", NTT_VERSION_MAJOR, NTT_VERSION_MINOR,
               NTT_VERSION_PATCH, build_commit());
        return EXIT_OK;
    }
    if (strcmp(name, "help") == 0) {
        if (argc == 2) {
            usage(stdout);
            return EXIT_OK;
        }
        const subcommand *s = find(argv[2]);
        if (!s || argc > 3) {
            fprintf(stderr, "ntt-bench help: unknown subcommand '%s'\n", argv[2]);
            usage(stderr);
            return EXIT_USAGE;
        }
        char *hargv[] = {argv[2], "--help", NULL};
        return run(s, 2, hargv);
    }
    const subcommand *s = find(name);
    if (!s) {
        fprintf(stderr, "ntt-bench: unknown subcommand '%s'\n\n", name);
        usage(stderr);
        return EXIT_USAGE;
    }
    return run(s, argc - 1, argv + 1);
}
