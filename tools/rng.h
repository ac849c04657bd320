/* Deterministic random numbers (xoshiro256** seeded through splitmix64):
   the same seed gives the same inputs on every machine, so `ntt gen` files
   and benchmark operands can be made again.  Part of the ntt_tool_support
   library; not installed. */
#ifndef NTT_RNG_H
#define NTT_RNG_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct { uint64_t s[4]; } rng_t;
void rng_seed(rng_t *r, uint64_t seed);
uint64_t rng_next(rng_t *r);
uint64_t rng_below(rng_t *r, uint64_t bound); /* uniform in [0, bound), bound >= 1 */

#ifdef __cplusplus
}
#endif

#endif
