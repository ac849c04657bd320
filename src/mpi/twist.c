/* The four-step's element-wise kernels: the column twists (twiddles made on
   the fly) and the tiled transposes around the all-to-all.  The u32 twist
   and the transposes have AVX-512 / AVX2 forms chosen at run time (the
   compiler does not vectorize the 32x32->64-bit REDC on its own); the u64
   twist is scalar (64x64->128-bit products have no vector form below
   AVX-512 IFMA). */
#include "mpi_internal.h"
#include "../core/cpu_features.h"

#include <string.h>

/* The factors g^j of a column, TW lanes at a time: z[l] holds g^(j+l) in
   Montgomery form, so x * z is one REDC and the next lanes are z times the
   fixed s = g^L (a Shoup product keeps the Montgomery factor R).  Two
   multiplications per element and no table: a table of the n/P factors
   would be read from memory on every call. */
static void twist_u32_portable(uint32_t *dst, const uint32_t *src, size_t len, uint32_t *z,
                               uint32_t s, uint32_t sq, uint32_t q, uint32_t pinv)
{
    enum { L = TW_LANES_U32 };
    size_t j = 0;
    for (; j + L <= len; j += L) {
        for (int l = 0; l < L; l++) dst[j + l] = ntt_csub32(ntt_mont32(src[j + l], z[l], q, pinv), q);
        for (int l = 0; l < L; l++) z[l] = ntt_csub32(ntt_shoup32(z[l], s, sq, q), q);
    }
    for (int l = 0; j + (size_t)l < len; l++)
        dst[j + l] = ntt_csub32(ntt_mont32(src[j + l], z[l], q, pinv), q);
}

#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>
#define HAVE_X86_TWIST 1

/* The vector forms below run where the CPU has every extension that
   their target attributes allow the compiler to use: "avx512f" (which
   implies AVX2 for the compiler) and "avx2". */
static bool cpu_avx2(void) { return ntt_cpu_features_get()->avx2; }
static bool cpu_avx512(void) { return ntt_cpu_features_get()->avx512f && cpu_avx2(); }

/* The same on vectors of 16 (AVX-512) or 8 (AVX2) lanes: REDC of the 64-bit products
   of the even and the odd 32-bit lanes, recombined; Shoup's quotient is
   the high half of z * s', the remainder z s - quotient q in 32 bits.
   Results in [0, 2q), then min(r, r - q) (r - q wraps above r when r < q). */
__attribute__((target("avx512f"))) static inline __m512i mont16(__m512i a, __m512i z,
                                                                __m512i vq, __m512i vp)
{
    __m512i te = _mm512_mul_epu32(a, z);
    __m512i to = _mm512_mul_epu32(_mm512_srli_epi64(a, 32), _mm512_srli_epi64(z, 32));
    te = _mm512_add_epi64(te, _mm512_mul_epu32(_mm512_mul_epu32(te, vp), vq));
    to = _mm512_add_epi64(to, _mm512_mul_epu32(_mm512_mul_epu32(to, vp), vq));
    const __m512i r = _mm512_mask_blend_epi32(0xAAAA, _mm512_srli_epi64(te, 32), to);
    return _mm512_min_epu32(r, _mm512_sub_epi32(r, vq));
}

__attribute__((target("avx512f"))) static inline __m512i shoup16(__m512i z, __m512i vs,
                                                                 __m512i vsq, __m512i vq)
{
    const __m512i he = _mm512_srli_epi64(_mm512_mul_epu32(z, vsq), 32);
    const __m512i ho = _mm512_mul_epu32(_mm512_srli_epi64(z, 32), vsq);
    const __m512i h = _mm512_mask_blend_epi32(0xAAAA, he, ho);
    const __m512i r = _mm512_sub_epi32(_mm512_mullo_epi32(z, vs), _mm512_mullo_epi32(h, vq));
    return _mm512_min_epu32(r, _mm512_sub_epi32(r, vq));
}

/* Four independent 16-lane chains: one chain's next factors wait on a
   multiply-low's latency, four hide it. */
__attribute__((target("avx512f"))) static void twist_u32_avx512(uint32_t *dst,
                                                                const uint32_t *src, size_t len,
                                                                uint32_t *zs, uint32_t s,
                                                                uint32_t sq, uint32_t q,
                                                                uint32_t pinv, bool stream)
{
    const __m512i vq = _mm512_set1_epi32((int)q), vp = _mm512_set1_epi32((int)pinv);
    const __m512i vs = _mm512_set1_epi32((int)s), vsq = _mm512_set1_epi32((int)sq);
    __m512i z[4];
    for (int c = 0; c < 4; c++) z[c] = _mm512_loadu_si512(zs + 16 * c);
    size_t j = 0;
    for (; j + 64 <= len; j += 64)
        for (int c = 0; c < 4; c++) {
            const __m512i a = _mm512_loadu_si512(src + j + 16 * c);
            const __m512i r = mont16(a, z[c], vq, vp);
            if (stream)
                _mm512_stream_si512((void *)(dst + j + 16 * c), r);
            else
                _mm512_storeu_si512(dst + j + 16 * c, r);
            z[c] = shoup16(z[c], vs, vsq, vq);
        }
    for (int c = 0; c < 4; c++) _mm512_storeu_si512(zs + 16 * c, z[c]);
    twist_u32_portable(dst + j, src + j, len - j, zs, s, sq, q, pinv);
}

__attribute__((target("avx2"))) static inline __m256i mont8(__m256i a, __m256i z, __m256i vq,
                                                            __m256i vp)
{
    __m256i te = _mm256_mul_epu32(a, z);
    __m256i to = _mm256_mul_epu32(_mm256_srli_epi64(a, 32), _mm256_srli_epi64(z, 32));
    te = _mm256_add_epi64(te, _mm256_mul_epu32(_mm256_mul_epu32(te, vp), vq));
    to = _mm256_add_epi64(to, _mm256_mul_epu32(_mm256_mul_epu32(to, vp), vq));
    const __m256i r = _mm256_blend_epi32(_mm256_srli_epi64(te, 32), to, 0xAA);
    return _mm256_min_epu32(r, _mm256_sub_epi32(r, vq));
}

__attribute__((target("avx2"))) static inline __m256i shoup8(__m256i z, __m256i vs, __m256i vsq,
                                                             __m256i vq)
{
    const __m256i he = _mm256_srli_epi64(_mm256_mul_epu32(z, vsq), 32);
    const __m256i ho = _mm256_mul_epu32(_mm256_srli_epi64(z, 32), vsq);
    const __m256i h = _mm256_blend_epi32(he, ho, 0xAA);
    const __m256i r = _mm256_sub_epi32(_mm256_mullo_epi32(z, vs), _mm256_mullo_epi32(h, vq));
    return _mm256_min_epu32(r, _mm256_sub_epi32(r, vq));
}

__attribute__((target("avx2"))) static void twist_u32_avx2(uint32_t *dst, const uint32_t *src,
                                                           size_t len, uint32_t *zs, uint32_t s,
                                                           uint32_t sq, uint32_t q, uint32_t pinv,
                                                           bool stream)
{
    const __m256i vq = _mm256_set1_epi32((int)q), vp = _mm256_set1_epi32((int)pinv);
    const __m256i vs = _mm256_set1_epi32((int)s), vsq = _mm256_set1_epi32((int)sq);
    __m256i z[8];
    for (int c = 0; c < 8; c++) z[c] = _mm256_loadu_si256((const __m256i *)(zs + 8 * c));
    size_t j = 0;
    for (; j + 64 <= len; j += 64)
        for (int c = 0; c < 8; c++) {
            const __m256i a = _mm256_loadu_si256((const __m256i *)(src + j + 8 * c));
            const __m256i r = mont8(a, z[c], vq, vp);
            if (stream)
                _mm256_stream_si256((__m256i *)(dst + j + 8 * c), r);
            else
                _mm256_storeu_si256((__m256i *)(dst + j + 8 * c), r);
            z[c] = shoup8(z[c], vs, vsq, vq);
        }
    for (int c = 0; c < 8; c++) _mm256_storeu_si256((__m256i *)(zs + 8 * c), z[c]);
    twist_u32_portable(dst + j, src + j, len - j, zs, s, sq, q, pinv);
}
#endif

#ifdef HAVE_X86_TWIST
__attribute__((target("avx2"))) static void copy_stream_avx2(void *dst, const void *src,
                                                             size_t bytes)
{
    char *d = dst;
    const char *q = src;
    size_t i = 0;
    for (; i + 32 <= bytes; i += 32)
        _mm256_stream_si256((__m256i *)(d + i), _mm256_loadu_si256((const __m256i *)(q + i)));
    _mm_sfence();
    memcpy(d + i, q + i, bytes - i);
}
#endif

void mpi_twist_run_u32(uint32_t *dst, const uint32_t *src, size_t len, uint32_t *z,
                       const mpi_twist *t, const mpi_mod *m, bool stream)
{
    const uint32_t q = (uint32_t)m->q, pinv = (uint32_t)m->pinv;
    const uint32_t s = (uint32_t)t->s, sq = (uint32_t)t->sq;
#ifdef HAVE_X86_TWIST
    stream = stream && (uintptr_t)dst % 64 == 0;
    if (cpu_avx512()) {
        twist_u32_avx512(dst, src, len, z, s, sq, q, pinv, stream);
        if (stream) _mm_sfence();
        return;
    }
    if (cpu_avx2()) {
        twist_u32_avx2(dst, src, len, z, s, sq, q, pinv, stream);
        if (stream) _mm_sfence();
        return;
    }
#endif
    (void)stream;
    twist_u32_portable(dst, src, len, z, s, sq, q, pinv);
}

void mpi_twist_run_u64(uint64_t *dst, const uint64_t *src, size_t len, uint64_t *z,
                       const mpi_twist *t, const mpi_mod *m, bool stream)
{
    enum { L = TW_LANES_U64 };
    const uint64_t q = m->q, pinv = m->pinv, s = t->s, sq = t->sq;
    size_t j = 0;
    for (; j + L <= len; j += L) {
        for (int l = 0; l < L; l++) {
            const uint64_t r = ntt_csub64(ntt_mont64(src[j + l], z[l], q, pinv), q);
#ifdef HAVE_X86_TWIST
            if (stream) {
                _mm_stream_si64((long long *)&dst[j + l], (long long)r);
                continue;
            }
#endif
            dst[j + l] = r;
        }
        for (int l = 0; l < L; l++) z[l] = ntt_csub64(ntt_shoup64(z[l], s, sq, q), q);
    }
    for (int l = 0; j + (size_t)l < len; l++)
        dst[j + l] = ntt_csub64(ntt_mont64(src[j + l], z[l], q, pinv), q);
#ifdef HAVE_X86_TWIST
    if (stream) _mm_sfence();
#else
    (void)stream;
#endif
}

/* dst = src, bytes long; stream: past the caches where dst is aligned. */
void mpi_copy(void *dst, const void *src, size_t bytes, bool stream)
{
#ifdef HAVE_X86_TWIST
    if (stream && (uintptr_t)dst % 32 == 0 && cpu_avx2()) {
        copy_stream_avx2(dst, src, bytes);
        return;
    }
#endif
    (void)stream;
    memcpy(dst, src, bytes);
}

/* ---- transposes ------------------------------------------------------------------- */

/* Edges (and CPUs without AVX2): element by element. */
#define TRANSPOSE(T)                                                                           \
    static void transpose_##T(T *dst, size_t ds, const T *src, size_t ss, size_t i0, size_t i1, \
                              size_t j0, size_t j1)                                            \
    {                                                                                          \
        for (size_t j = j0; j < j1; j++)                                                       \
            for (size_t i = i0; i < i1; i++) dst[j * ds + i] = src[i * ss + j];                \
    }
TRANSPOSE(uint32_t)
TRANSPOSE(uint64_t)

#ifdef HAVE_X86_TWIST
/* Stores of whole destination lines bypass the cache where they are
   aligned (the message buffers are written once and read by MPI or by the
   other phase much later): no read for ownership. */
__attribute__((target("avx2"))) static inline void put(__m256i *p, __m256i v, bool stream)
{
    if (stream)
        _mm256_stream_si256(p, v);
    else
        _mm256_storeu_si256(p, v);
}

/* 8 x 8 of u32 in eight AVX2 registers: pairs of rows interleaved by 32,
   then by 64 bits, then the 128-bit halves exchanged. */
__attribute__((target("avx2"))) static void tile8_u32(uint32_t *dst, size_t ds, const uint32_t *src,
                                                      size_t ss, bool stream)
{
    __m256i r[8], t[8], u[8];
    for (int i = 0; i < 8; i++) r[i] = _mm256_loadu_si256((const __m256i *)(src + i * ss));
    for (int i = 0; i < 8; i += 2) {
        t[i] = _mm256_unpacklo_epi32(r[i], r[i + 1]);
        t[i + 1] = _mm256_unpackhi_epi32(r[i], r[i + 1]);
    }
    for (int i = 0; i < 8; i += 4) {
        u[i] = _mm256_unpacklo_epi64(t[i], t[i + 2]);
        u[i + 1] = _mm256_unpackhi_epi64(t[i], t[i + 2]);
        u[i + 2] = _mm256_unpacklo_epi64(t[i + 1], t[i + 3]);
        u[i + 3] = _mm256_unpackhi_epi64(t[i + 1], t[i + 3]);
    }
    for (int k = 0; k < 4; k++) {
        put((__m256i *)(dst + k * ds), _mm256_permute2x128_si256(u[k], u[k + 4], 0x20), stream);
        put((__m256i *)(dst + (k + 4) * ds), _mm256_permute2x128_si256(u[k], u[k + 4], 0x31),
            stream);
    }
}

/* 4 x 4 of u64. */
__attribute__((target("avx2"))) static void tile4_u64(uint64_t *dst, size_t ds, const uint64_t *src,
                                                      size_t ss, bool stream)
{
    __m256i r[4];
    for (int i = 0; i < 4; i++) r[i] = _mm256_loadu_si256((const __m256i *)(src + i * ss));
    const __m256i t0 = _mm256_unpacklo_epi64(r[0], r[1]), t1 = _mm256_unpackhi_epi64(r[0], r[1]);
    const __m256i t2 = _mm256_unpacklo_epi64(r[2], r[3]), t3 = _mm256_unpackhi_epi64(r[2], r[3]);
    put((__m256i *)dst, _mm256_permute2x128_si256(t0, t2, 0x20), stream);
    put((__m256i *)(dst + ds), _mm256_permute2x128_si256(t1, t3, 0x20), stream);
    put((__m256i *)(dst + 2 * ds), _mm256_permute2x128_si256(t0, t2, 0x31), stream);
    put((__m256i *)(dst + 3 * ds), _mm256_permute2x128_si256(t1, t3, 0x31), stream);
}

/* Whole tiles, destination rows outermost (each destination line is
   completed before the next), the edges element by element.  Streaming
   stores need every tile row 32-byte aligned. */
#define TILED(T, B, tile)                                                                      \
    __attribute__((target("avx2"))) static void tiled_##T(T *dst, size_t ds, const T *src,     \
                                                          size_t ss, size_t h, size_t w,       \
                                                          bool stream)                         \
    {                                                                                          \
        const size_t hb = h / B * B, wb = w / B * B;                                           \
        stream = stream && ((uintptr_t)dst % 32 == 0) && (ds * sizeof(T)) % 32 == 0;           \
        for (size_t j0 = 0; j0 < wb; j0 += B)                                                  \
            for (size_t i0 = 0; i0 < hb; i0 += B)                                              \
                tile(dst + j0 * ds + i0, ds, src + i0 * ss + j0, ss, stream);                  \
        if (stream) _mm_sfence();                                                              \
        transpose_##T(dst, ds, src, ss, hb, h, 0, w);                                          \
        transpose_##T(dst, ds, src, ss, 0, hb, wb, w);                                         \
    }
TILED(uint32_t, 8, tile8_u32)
TILED(uint64_t, 4, tile4_u64)

/* 16 x 16 of u32 in sixteen AVX-512 registers: rows interleaved by 32 and
   64 bits within 128-bit lanes (register 4i+k then holds column 4l+k of
   rows 4i..4i+3 in lane l), then two rounds of 128-bit lane shuffles.
   Each destination row is one whole cache line where it is aligned. */
__attribute__((target("avx512f"))) static void tile16_u32(uint32_t *dst, size_t ds,
                                                          const uint32_t *src, size_t ss)
{
    __m512i r[16], t[16];
    for (int i = 0; i < 16; i++) r[i] = _mm512_loadu_si512(src + i * ss);
    for (int i = 0; i < 16; i += 2) {
        t[i] = _mm512_unpacklo_epi32(r[i], r[i + 1]);
        t[i + 1] = _mm512_unpackhi_epi32(r[i], r[i + 1]);
    }
    for (int i = 0; i < 16; i += 4) {
        r[i] = _mm512_unpacklo_epi64(t[i], t[i + 2]);
        r[i + 1] = _mm512_unpackhi_epi64(t[i], t[i + 2]);
        r[i + 2] = _mm512_unpacklo_epi64(t[i + 1], t[i + 3]);
        r[i + 3] = _mm512_unpackhi_epi64(t[i + 1], t[i + 3]);
    }
    for (int h = 0; h < 16; h += 8)
        for (int k = 0; k < 4; k++) {
            t[h + k] = _mm512_shuffle_i32x4(r[h + k], r[h + 4 + k], 0x88);
            t[h + 4 + k] = _mm512_shuffle_i32x4(r[h + k], r[h + 4 + k], 0xDD);
        }
    for (int m = 0; m < 8; m++) {
        _mm512_storeu_si512(dst + (size_t)m * ds, _mm512_shuffle_i32x4(t[m], t[8 + m], 0x88));
        _mm512_storeu_si512(dst + (size_t)(m + 8) * ds, _mm512_shuffle_i32x4(t[m], t[8 + m], 0xDD));
    }
}

/* Whole 16 x 16 tiles, destination rows outermost; the strips left over
   by the 8 x 8 form. */
__attribute__((target("avx512f"))) static void tiled16_u32(uint32_t *dst, size_t ds,
                                                           const uint32_t *src, size_t ss,
                                                           size_t h, size_t w)
{
    const size_t hb = h / 16 * 16, wb = w / 16 * 16;
    for (size_t j0 = 0; j0 < wb; j0 += 16)
        for (size_t i0 = 0; i0 < hb; i0 += 16) tile16_u32(dst + j0 * ds + i0, ds, src + i0 * ss + j0, ss);
    if (h > hb) tiled_uint32_t(dst + hb, ds, src + hb * ss, ss, h - hb, w, false);
    if (w > wb) tiled_uint32_t(dst + wb * ds, ds, src + wb, ss, hb, w - wb, false);
}
#endif

void mpi_transpose(void *dst, size_t dstride, const void *src, size_t sstride, size_t h, size_t w,
                   size_t esz, bool stream)
{
#ifdef HAVE_X86_TWIST
    if (esz == 4 && cpu_avx512()) {
        tiled16_u32(dst, dstride, src, sstride, h, w);
        return;
    }
    if (cpu_avx2()) {
        if (esz == 4)
            tiled_uint32_t(dst, dstride, src, sstride, h, w, stream);
        else
            tiled_uint64_t(dst, dstride, src, sstride, h, w, stream);
        return;
    }
#else
    (void)stream;
#endif
    if (esz == 4)
        transpose_uint32_t(dst, dstride, src, sstride, 0, h, 0, w);
    else
        transpose_uint64_t(dst, dstride, src, sstride, 0, h, 0, w);
}
