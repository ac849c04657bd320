/* Moduli, random operands and their GMP product (operands.h). */
#include "operands.h"

#include "cli.h"
#include "gmp_oracle.h"
#include "rng.h"

#include <stdio.h>
#include <string.h>

int bench_parse_moduli(const char *cmd, const char *list, uint64_t *p, int *count)
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
    return EXIT_USAGE;
}

int bench_operands(size_t n, uint64_t p, uint64_t seed, uint64_t *a, uint64_t *b, uint64_t *ref)
{
    rng_t r;
    rng_seed(&r, seed);
    for (size_t i = 0; i < n; i++) a[i] = rng_below(&r, p);
    for (size_t i = 0; i < n; i++) b[i] = rng_below(&r, p);
    return oracle_polymul(ref, a, n, b, n, p);
}
