/* The four-step split shared by the distributed transforms (src/mpi, over
   MPI ranks; src/multigpu, over GPUs): how n is cut into n1 * n2, which
   rows and columns each of P parts holds, the bit reversal that names a
   column, and the library's roots of unity (tables.c's choice, so that a
   distributed spectrum is the single-process one).  Header-only: libntt_mpi
   and libntt_multigpu reach libntt through its public API and cannot link
   its hidden symbols.

   A coefficient index j is j1 + n1 * j2 (j1 < n1, j2 < n2); part r holds
   the rows j1 in [block_start(n1, r, P), block_start(n1, r+1, P)) and the
   columns k in [block_start(n2, r, P), block_start(n2, r+1, P)); column k
   is the four-step's k2 = brv(k, n2), and its n1 outputs are the positions
   k * n1 .. k * n1 + n1 - 1 of the bit-reversed spectrum. */
#ifndef NTT_FOURSTEP_H
#define NTT_FOURSTEP_H

#include "../arith/modarith.h"

#include <stddef.h>
#include <stdint.h>

/* n = n1 * n2 with n2 = 2^floor(log2(n) / 2), so n1 >= n2 (n2 = 1 for n = 2). */
static inline void ntt_fs_split(size_t n, size_t *n1, size_t *n2)
{
    unsigned logn = 0;
    while (((size_t)1 << logn) < n) logn++;
    *n2 = (size_t)1 << (logn / 2);
    *n1 = n / *n2;
}

/* The first of part r's items among total split over size parts:
   floor(total r / size), so the parts differ by at most one item. */
static inline size_t ntt_fs_block_start(size_t total, int r, int size)
{
    return (size_t)(((ntt_u128)total * (unsigned)r) / (unsigned)size);
}

/* x's bits reversed over log2(n) bits (n a power of two). */
static inline size_t ntt_fs_brv(size_t x, size_t n)
{
    size_t r = 0;
    for (size_t m = n >> 1; m; m >>= 1, x >>= 1) r = (r << 1) | (x & 1);
    return r;
}

static inline uint64_t ntt_fs_powmod(uint64_t a, uint64_t e, uint64_t q)
{
    uint64_t r = 1 % q;
    a %= q;
    for (; e; e >>= 1, a = ntt_mulmod_slow(a, a, q))
        if (e & 1) r = ntt_mulmod_slow(r, a, q);
    return r;
}

/* The root of order `order` the library's plans use for the prime q:
   x^((q-1)/order) for the smallest quadratic non-residue x; 0 if none. */
static inline uint64_t ntt_fs_root(uint64_t q, uint64_t order)
{
    for (uint64_t x = 2; x < q; x++)
        if (ntt_fs_powmod(x, (q - 1) / 2, q) == q - 1) return ntt_fs_powmod(x, (q - 1) / order, q);
    return 0;
}

#endif /* NTT_FOURSTEP_H */
