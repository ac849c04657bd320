/* What the CPU tables of ntt-bench multiply: the options they share (length,
   moduli, seed, repetitions, output file), random operands from the seed, and
   their product from GMP, the independent answer every row is checked
   against. */
#ifndef NTT_BENCH_OPERANDS_H
#define NTT_BENCH_OPERANDS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The course's moduli, the default of the CPU tables. */
#define BENCH_COURSE_MODULI {7340033, 104857601, 469762049, 1337006139375617ull}
#define BENCH_MAX_MODULI 16

/* The options every CPU table takes; the caller sets the defaults. */
typedef struct {
    size_t n;                          /* --n N: operand length, 2 .. 2^24 */
    uint64_t primes[BENCH_MAX_MODULI]; /* --primes P1,P2,...: each in [2, 2^63) */
    int nprimes;
    uint64_t seed;                     /* --seed S: of the random operands */
    int reps;                          /* --reps R: 1 .. 10000 */
    bool reps_given;
    bool quick;                        /* --quick: fewer repetitions and rows */
    const char *json;                  /* --json FILE */
} bench_args;

/* One of those options at argv[*i] into a: 1 if it was one, 0 if not, -1
   after printing a usage error under `cmd`. */
int bench_args_option(const char *cmd, int argc, char **argv, int *i, bench_args *a);

/* a, b: n random coefficients in [0, p) each, the same for the same seed;
   ref: their 2n-1 coefficient product mod p from GMP.  0, or -1 when out of
   memory. */
int bench_operands(size_t n, uint64_t p, uint64_t seed, uint64_t *a, uint64_t *b, uint64_t *ref);

#endif
