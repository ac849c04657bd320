/* The four-step's element-wise kernels: the column twists (twiddles made on
   the fly) and the tiled transposes around the all-to-all.  Built for
   AVX-512, AVX2 and baseline x86-64 and chosen at load time (target_clones),
   so the compiler's vectorization of the 32-bit loops runs at the CPU's
   width without an intrinsics path of our own. */
#include "mpi_internal.h"

#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__) && !defined(NTT_SANITIZE)
#define MPI_CLONES __attribute__((target_clones("avx512f", "avx2", "default")))
#else
#define MPI_CLONES
#endif

/* The factors g^j of a column, TW lanes at a time: z[l] holds g^(j+l) in
   Montgomery form, so x * z is one REDC and the next lanes are z times the
   fixed s = g^L (a Shoup product keeps the Montgomery factor R).  Two
   multiplications per element and no table: a table of the n/P factors
   would be read from memory on every call. */
MPI_CLONES void mpi_twist_u32(uint32_t *x, size_t len, const mpi_twist *t, const mpi_mod *m)
{
    enum { L = TW_LANES_U32 };
    const uint32_t q = (uint32_t)m->q, pinv = (uint32_t)m->pinv;
    const uint32_t g = (uint32_t)t->m, s = (uint32_t)t->s, sq = (uint32_t)t->sq;
    uint32_t z[L];
    z[0] = (uint32_t)m->one;
    for (int l = 1; l < L; l++) z[l] = ntt_csub32(ntt_mont32(z[l - 1], g, q, pinv), q);
    size_t j = 0;
    for (; j + L <= len; j += L) {
        for (int l = 0; l < L; l++) x[j + l] = ntt_csub32(ntt_mont32(x[j + l], z[l], q, pinv), q);
        for (int l = 0; l < L; l++) z[l] = ntt_csub32(ntt_shoup32(z[l], s, sq, q), q);
    }
    for (int l = 0; j + (size_t)l < len; l++)
        x[j + l] = ntt_csub32(ntt_mont32(x[j + l], z[l], q, pinv), q);
}

MPI_CLONES void mpi_twist_u64(uint64_t *x, size_t len, const mpi_twist *t, const mpi_mod *m)
{
    enum { L = TW_LANES_U64 };
    const uint64_t q = m->q, pinv = m->pinv, g = t->m, s = t->s, sq = t->sq;
    uint64_t z[L];
    z[0] = m->one;
    for (int l = 1; l < L; l++) z[l] = ntt_csub64(ntt_mont64(z[l - 1], g, q, pinv), q);
    size_t j = 0;
    for (; j + L <= len; j += L) {
        for (int l = 0; l < L; l++) x[j + l] = ntt_csub64(ntt_mont64(x[j + l], z[l], q, pinv), q);
        for (int l = 0; l < L; l++) z[l] = ntt_csub64(ntt_shoup64(z[l], s, sq, q), q);
    }
    for (int l = 0; j + (size_t)l < len; l++)
        x[j + l] = ntt_csub64(ntt_mont64(x[j + l], z[l], q, pinv), q);
}

/* Tiles of one cache line per row of the destination. */
#define TRANSPOSE(T, B)                                                                        \
    static void transpose_##T(T *dst, size_t ds, const T *src, size_t ss, size_t h, size_t w) \
    {                                                                                          \
        for (size_t i0 = 0; i0 < h; i0 += B) {                                                 \
            const size_t i1 = i0 + B < h ? i0 + B : h;                                         \
            for (size_t j0 = 0; j0 < w; j0 += B) {                                             \
                const size_t j1 = j0 + B < w ? j0 + B : w;                                     \
                for (size_t j = j0; j < j1; j++)                                               \
                    for (size_t i = i0; i < i1; i++) dst[j * ds + i] = src[i * ss + j];        \
            }                                                                                  \
        }                                                                                      \
    }
TRANSPOSE(uint32_t, 16)
TRANSPOSE(uint64_t, 8)

MPI_CLONES void mpi_transpose(void *dst, size_t dstride, const void *src, size_t sstride,
                              size_t h, size_t w, size_t esz)
{
    if (esz == 4)
        transpose_uint32_t(dst, dstride, src, sstride, h, w);
    else
        transpose_uint64_t(dst, dstride, src, sstride, h, w);
}
