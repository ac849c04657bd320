/* Whether some a[i] >= p: the input checks of every backend (plan.c,
   ntt_polymul_mod, the CPU kernels' loads, the RNS operations).  The
   widest vector form the build and the CPU allow (cpu_features.h), else
   portable code.  The vector forms carry their ISA as target attributes,
   so that this file needs no ISA flags. */
#include "internal.h"
#include "cpu_features.h"

bool ntt_any_geq_portable_u32(const uint32_t *a, size_t len, uint32_t p)
{
    for (size_t i = 0; i < len;) {
        const size_t e = len - i > 4096 ? i + 4096 : len;
        uint32_t bad = 0;
        for (; i < e; i++) bad |= a[i] >= p;
        if (bad) return true;
    }
    return false;
}

/* x >= p exactly when x - p does not borrow: the borrows, ANDed branch-free
   over blocks, vectorize on plain SSE2, which has no 64-bit compare. */
bool ntt_any_geq_portable_u64(const uint64_t *a, size_t len, uint64_t p)
{
    for (size_t i = 0; i < len;) {
        const size_t e = len - i > 4096 ? i + 4096 : len;
        uint64_t borrows = ~(uint64_t)0;
        for (; i < e; i++) {
            const uint64_t x = a[i], d = x - p;
            borrows &= (~x & p) | ((~x | p) & d);
        }
        if (!(borrows >> 63)) return true;
    }
    return false;
}

#if defined(NTT_HAVE_AVX2) || defined(NTT_HAVE_AVX512)
#include <immintrin.h>
#endif

#ifdef NTT_HAVE_AVX2
#define AVX2 __attribute__((target("avx2")))

/* The unsigned maximum of each block against p - 1: one instruction per
   eight values. */
AVX2 static bool avx2_u32(const uint32_t *a, size_t len, uint32_t p)
{
    const __m256i lim = _mm256_set1_epi32((int)(p - 1));
    size_t i = 0;
    while (i + 32 <= len) {
        const size_t e = len - i > 8192 ? i + 8192 : len - (len - i) % 32;
        __m256i m0 = _mm256_setzero_si256(), m1 = m0;
        for (; i < e; i += 32) {
            const __m256i x0 = _mm256_loadu_si256((const __m256i *)(a + i));
            const __m256i x1 = _mm256_loadu_si256((const __m256i *)(a + i + 8));
            const __m256i x2 = _mm256_loadu_si256((const __m256i *)(a + i + 16));
            const __m256i x3 = _mm256_loadu_si256((const __m256i *)(a + i + 24));
            m0 = _mm256_max_epu32(m0, _mm256_max_epu32(x0, x1));
            m1 = _mm256_max_epu32(m1, _mm256_max_epu32(x2, x3));
        }
        const __m256i m = _mm256_max_epu32(_mm256_max_epu32(m0, m1), lim);
        if (_mm256_movemask_epi8(_mm256_cmpeq_epi32(m, lim)) != -1) return true;
    }
    for (; i < len; i++)
        if (a[i] >= p) return true;
    return false;
}

/* AVX2 has no unsigned 64-bit compare: x >= p as the signed x ^ 2^63 >
   (p - 1) ^ 2^63, three instructions per four values. */
AVX2 static bool avx2_u64(const uint64_t *a, size_t len, uint64_t p)
{
    const __m256i lim = _mm256_set1_epi64x((long long)((p - 1) ^ 0x8000000000000000ull));
    const __m256i sign = _mm256_set1_epi64x(INT64_MIN);
    size_t i = 0;
    while (i + 16 <= len) {
        const size_t e = len - i > 4096 ? i + 4096 : len - (len - i) % 16;
        __m256i bad = _mm256_setzero_si256();
        for (; i < e; i += 16)
            for (int k = 0; k < 16; k += 4) {
                const __m256i x = _mm256_loadu_si256((const __m256i *)(a + i + k));
                bad = _mm256_or_si256(bad, _mm256_cmpgt_epi64(_mm256_xor_si256(x, sign), lim));
            }
        if (!_mm256_testz_si256(bad, bad)) return true;
    }
    for (; i < len; i++)
        if (a[i] >= p) return true;
    return false;
}
#endif

#ifdef NTT_HAVE_AVX512
#define AVX512 __attribute__((target("avx512f")))

/* The unsigned maximum of each block against p: one instruction per
   sixteen (eight) values. */
AVX512 static bool avx512_u32(const uint32_t *a, size_t len, uint32_t p)
{
    const __m512i lim = _mm512_set1_epi32((int)p);
    size_t i = 0;
    while (i + 64 <= len) {
        const size_t e = len - i > 16384 ? i + 16384 : len - (len - i) % 64;
        __m512i m0 = _mm512_setzero_si512(), m1 = m0;
        for (; i < e; i += 64) {
            m0 = _mm512_max_epu32(m0, _mm512_max_epu32(_mm512_loadu_si512(a + i),
                                                       _mm512_loadu_si512(a + i + 16)));
            m1 = _mm512_max_epu32(m1, _mm512_max_epu32(_mm512_loadu_si512(a + i + 32),
                                                       _mm512_loadu_si512(a + i + 48)));
        }
        if (_mm512_cmpge_epu32_mask(_mm512_max_epu32(m0, m1), lim)) return true;
    }
    for (; i < len; i++)
        if (a[i] >= p) return true;
    return false;
}

AVX512 static bool avx512_u64(const uint64_t *a, size_t len, uint64_t p)
{
    const __m512i lim = _mm512_set1_epi64((long long)p);
    size_t i = 0;
    while (i + 32 <= len) {
        const size_t e = len - i > 8192 ? i + 8192 : len - (len - i) % 32;
        __m512i m0 = _mm512_setzero_si512(), m1 = m0;
        for (; i < e; i += 32) {
            m0 = _mm512_max_epu64(m0, _mm512_max_epu64(_mm512_loadu_si512(a + i),
                                                       _mm512_loadu_si512(a + i + 8)));
            m1 = _mm512_max_epu64(m1, _mm512_max_epu64(_mm512_loadu_si512(a + i + 16),
                                                       _mm512_loadu_si512(a + i + 24)));
        }
        if (_mm512_cmpge_epu64_mask(_mm512_max_epu64(m0, m1), lim)) return true;
    }
    for (; i < len; i++)
        if (a[i] >= p) return true;
    return false;
}
#endif

/* Each form runs where the CPU has what its target attribute allows the
   compiler to use ("avx512f" implies AVX2 for the compiler). */
bool ntt_any_geq_u32(const uint32_t *a, size_t len, uint32_t p)
{
#if defined(NTT_HAVE_AVX2) || defined(NTT_HAVE_AVX512)
    const ntt_cpu_features *f = ntt_cpu_features_get();
#endif
#ifdef NTT_HAVE_AVX512
    if (f->avx512f && f->avx2) return avx512_u32(a, len, p);
#endif
#ifdef NTT_HAVE_AVX2
    if (f->avx2) return avx2_u32(a, len, p);
#endif
    return ntt_any_geq_portable_u32(a, len, p);
}

bool ntt_any_geq_u64(const uint64_t *a, size_t len, uint64_t p)
{
#if defined(NTT_HAVE_AVX2) || defined(NTT_HAVE_AVX512)
    const ntt_cpu_features *f = ntt_cpu_features_get();
#endif
#ifdef NTT_HAVE_AVX512
    if (f->avx512f && f->avx2) return avx512_u64(a, len, p);
#endif
#ifdef NTT_HAVE_AVX2
    if (f->avx2) return avx2_u64(a, len, p);
#endif
    return ntt_any_geq_portable_u64(a, len, p);
}

/* The plan-level checks (internal.h): 1 if any of the batch's inputs is
   >= its item's modulus. */
bool ntt_out_of_range(const ntt_plan *plan, const void *a, size_t len, size_t count,
                      size_t stride)
{
    for (size_t it = 0; it < count; it++) {
        const uint64_t p = plan->mod[it % plan->nmod].p;
        const bool bad = plan->width == NTT_U32
                             ? ntt_any_geq_u32((const uint32_t *)a + it * stride, len, (uint32_t)p)
                             : ntt_any_geq_u64((const uint64_t *)a + it * stride, len, p);
        if (bad) return true;
    }
    return false;
}

bool ntt_operands_out_of_range(const ntt_plan *plan, const void *a, size_t la, const void *b,
                               size_t lb, size_t count, size_t stride)
{
    return ntt_out_of_range(plan, a, la, count, stride) ||
           ntt_out_of_range(plan, b, lb, count, stride);
}
