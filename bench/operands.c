/* Moduli, random operands and their GMP product (operands.h). */
#include "operands.h"

#include "cli.h"
#include "gmp_oracle.h"
#include "rng.h"

#include <stdio.h>
#include <string.h>

/* "P1,P2,..." into p[0..*count).  0, or -1 after printing why. */
static int parse_moduli(const char *cmd, const char *list, uint64_t *p, int *count)
{
    int k = 0;
    const char *q = list;
    for (;;) {
        const char *e = strchr(q, ',');
        const size_t len = e ? (size_t)(e - q) : strlen(q);
        char tok[32];
        uint64_t v;
        if (k == BENCH_MAX_MODULI || len == 0 || len >= sizeof tok) break;
        memcpy(tok, q, len);
        tok[len] = '\0';
        if (!cli_parse_u64(tok, &v) || v < 2 || v >= ((uint64_t)1 << 63)) break;
        p[k++] = v;
        if (!e) {
            *count = k;
            return 0;
        }
        q = e + 1;
    }
    fprintf(stderr, "%s: bad modulus list '%s' (1 to %d moduli, each in [2, 2^63), "
                    "separated by commas)\n", cmd, list, BENCH_MAX_MODULI);
    return -1;
}

int bench_args_option(const char *cmd, int argc, char **argv, int *i, bench_args *a)
{
    const char *v;
    uint64_t x;
    int r;
    if (!strcmp(argv[*i], "--quick")) {
        a->quick = true;
        return 1;
    }
    if ((r = cli_number_option(cmd, argc, argv, i, "--n", 2, 1u << 24, &x)) != 0) {
        if (r > 0) a->n = (size_t)x;
        return r;
    }
    if ((r = cli_number_option(cmd, argc, argv, i, "--reps", 1, 10000, &x)) != 0) {
        if (r > 0) {
            a->reps = (int)x;
            a->reps_given = true;
        }
        return r;
    }
    if ((r = cli_number_option(cmd, argc, argv, i, "--seed", 0, UINT64_MAX, &x)) != 0) {
        if (r > 0) a->seed = x;
        return r;
    }
    if ((r = cli_file_option(cmd, argc, argv, i, "--json", NULL, &a->json)) != 0) return r;
    if ((r = cli_option(cmd, argc, argv, i, "--primes", NULL, &v)) != 0)
        return r < 0 ? r : parse_moduli(cmd, v, a->primes, &a->nprimes) == 0 ? 1 : -1;
    return 0;
}

int bench_operands(size_t n, uint64_t p, uint64_t seed, uint64_t *a, uint64_t *b, uint64_t *ref)
{
    rng_t r;
    rng_seed(&r, seed);
    for (size_t i = 0; i < n; i++) a[i] = rng_below(&r, p);
    for (size_t i = 0; i < n; i++) b[i] = rng_below(&r, p);
    return oracle_polymul(ref, a, n, b, n, p);
}
