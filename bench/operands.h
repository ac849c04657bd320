/* What the CPU tables of ntt-bench multiply: moduli lists from the command
   line, random operands from a seed, and their product from GMP, the
   independent answer every row is checked against. */
#ifndef NTT_BENCH_OPERANDS_H
#define NTT_BENCH_OPERANDS_H

#include <stddef.h>
#include <stdint.h>

/* The course's moduli, the default of the CPU tables. */
#define BENCH_COURSE_MODULI {7340033, 104857601, 469762049, 1337006139375617ull}
#define BENCH_MAX_MODULI 16

/* "P1,P2,..." into p[0..*count): at most BENCH_MAX_MODULI, each in
   [2, 2^63).  0, or EXIT_USAGE after printing why under `cmd`. */
int bench_parse_moduli(const char *cmd, const char *list, uint64_t *p, int *count);

/* a, b: n random coefficients in [0, p) each, the same for the same seed;
   ref: their 2n-1 coefficient product mod p from GMP.  0, or -1 when out of
   memory. */
int bench_operands(size_t n, uint64_t p, uint64_t seed, uint64_t *a, uint64_t *b, uint64_t *ref);

#endif
