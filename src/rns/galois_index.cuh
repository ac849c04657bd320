// The Galois automorphism X -> X^g (g odd, below 2N) as an index map on
// evaluation-form rows in the library's spectrum order (bit-reversed: slot
// k holds the value at psi^(2 brv(k) + 1)): slot k of a(X^g) is slot
// pi(k) of a, pi(k) = brv(((2 brv(k) + 1) g mod 2N - 1) / 2).  Device code
// (the CKKS permutation kernel and the inner product that reads its terms
// through the map); ckks.c builds the same table on the host.
#ifndef NTT_GALOIS_INDEX_CUH
#define NTT_GALOIS_INDEX_CUH

#include <stddef.h>
#include <stdint.h>

// brv over log2 N bits.
__device__ __forceinline__ size_t ntt_brv_bits(size_t k, unsigned logn)
{
    return logn ? (size_t)(__brevll((unsigned long long)k) >> (64 - logn)) : 0;
}

__device__ __forceinline__ size_t ntt_galois_src(size_t k, unsigned logn, uint64_t g)
{
    const uint64_t two_n_mask = (2ull << logn) - 1;
    const uint64_t e = ((2 * (uint64_t)ntt_brv_bits(k, logn) + 1) * g) & two_n_mask;
    return ntt_brv_bits((size_t)((e - 1) / 2), logn);
}

#endif
