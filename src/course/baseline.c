/* The course reports' CPU design as an add-on (course.h): a bit-reversal
   pass, then radix-2 Cooley-Tukey (DIT) stages whose twiddles are powers
   computed as the loop goes, % for every reduction; natural-order input
   and output inside a product.  Both element widths, each with the reports'
   own reduction (a 64-bit % for u32, a 128-bit % for u64). */
#include "course_internal.h"

#include <stdlib.h>
#include <string.h>

typedef struct {
    size_t n;
    unsigned logn;
    ntt_width width;
    bool nega, natural;
    size_t nmod;
    ntt_addon_modulus *mod;
    void *ws; /* 2n elements: a product's operands */
} baseline;

/* The two widths from one body: T the element, MULMOD its product. */
#define BASELINE_FUNCTIONS(SFX, T, MULMOD)                                                        \
    static void bitrev_##SFX(T *a, size_t n)                                                      \
    {                                                                                             \
        for (size_t i = 1, j = 0; i < n; i++) {                                                   \
            size_t bit = n >> 1;                                                                  \
            for (; j & bit; bit >>= 1) j ^= bit;                                                  \
            j ^= bit;                                                                             \
            if (i < j) {                                                                          \
                T t = a[i];                                                                       \
                a[i] = a[j];                                                                      \
                a[j] = t;                                                                         \
            }                                                                                     \
        }                                                                                         \
    }                                                                                             \
    /* Cyclic DIT with root omega of order n, a already bit-reversed; output                      \
       natural.  Stage len's root omega^(n/len) comes from squaring omega. */                     \
    static void dit_##SFX(T *a, size_t n, unsigned logn, T omega, T p)                            \
    {                                                                                             \
        T wl[64];                                                                                 \
        wl[logn] = omega;                                                                         \
        for (unsigned k = logn; k > 1; k--) wl[k - 1] = MULMOD(wl[k], wl[k], p);                  \
        for (unsigned k = 1; k <= logn; k++) {                                                    \
            const size_t len = (size_t)1 << k;                                                    \
            const T wlen = wl[k];                                                                 \
            for (size_t i = 0; i < n; i += len) {                                                 \
                T w = 1;                                                                          \
                for (size_t j = 0; j < len / 2; j++) {                                            \
                    T u = a[i + j];                                                               \
                    T v = MULMOD(a[i + j + len / 2], w, p);                                       \
                    a[i + j] = (T)((u + v) % p);                                                  \
                    a[i + j + len / 2] = (T)((u - v + p) % p);                                    \
                    w = MULMOD(w, wlen, p);                                                       \
                }                                                                                 \
            }                                                                                     \
        }                                                                                         \
    }                                                                                             \
    /* The negacyclic twist multiplies by powers of psi (the root of order                        \
       2n, whose square is the cyclic root) before and after. */                                  \
    static void forward_##SFX(const baseline *B, T *a, const ntt_addon_modulus *M, bool natural)  \
    {                                                                                             \
        const T p = (T)M->p, psi = (T)M->root;                                                    \
        T omega = psi;                                                                            \
        if (B->nega) {                                                                            \
            T t = 1;                                                                              \
            for (size_t j = 0; j < B->n; j++) {                                                   \
                a[j] = MULMOD(a[j], t, p);                                                        \
                t = MULMOD(t, psi, p);                                                            \
            }                                                                                     \
            omega = MULMOD(psi, psi, p);                                                          \
        }                                                                                         \
        bitrev_##SFX(a, B->n);                                                                    \
        dit_##SFX(a, B->n, B->logn, omega, p);                                                    \
        if (!natural) bitrev_##SFX(a, B->n);                                                      \
    }                                                                                             \
    static void inverse_##SFX(const baseline *B, T *a, const ntt_addon_modulus *M, bool natural)  \
    {                                                                                             \
        const T p = (T)M->p, psi_inv = (T)M->root_inv;                                            \
        const T omega_inv = B->nega ? MULMOD(psi_inv, psi_inv, p) : psi_inv;                      \
        /* DIT wants bit-reversed input: a bit-reversed spectrum already is. */                   \
        if (natural) bitrev_##SFX(a, B->n);                                                       \
        dit_##SFX(a, B->n, B->logn, omega_inv, p);                                                \
        T t = (T)M->n_inv;                                                                        \
        for (size_t j = 0; j < B->n; j++) {                                                       \
            a[j] = MULMOD(a[j], t, p);                                                            \
            if (B->nega) t = MULMOD(t, psi_inv, p);                                               \
        }                                                                                         \
    }                                                                                             \
    /* As the reports do it: natural-order spectra, a bit-reversal pass                           \
       before each of the three DIT transforms. */                                                \
    static void polymul_##SFX(const baseline *B, void *c, size_t lc, const void *a, size_t la,    \
                              const void *b, size_t lb, bool io64, const ntt_addon_modulus *M)    \
    {                                                                                             \
        const size_t n = B->n;                                                                    \
        T *A = B->ws, *Bv = A + n;                                                                \
        for (size_t j = 0; j < n; j++) {                                                          \
            A[j] = j >= la ? 0 : io64 ? (T)((const uint64_t *)a)[j] : ((const T *)a)[j];          \
            Bv[j] = j >= lb ? 0 : io64 ? (T)((const uint64_t *)b)[j] : ((const T *)b)[j];         \
        }                                                                                         \
        forward_##SFX(B, A, M, true);                                                             \
        forward_##SFX(B, Bv, M, true);                                                            \
        for (size_t j = 0; j < n; j++) A[j] = MULMOD(A[j], Bv[j], (T)M->p);                       \
        inverse_##SFX(B, A, M, true);                                                             \
        for (size_t j = 0; j < lc; j++) {                                                         \
            if (io64)                                                                             \
                ((uint64_t *)c)[j] = A[j];                                                        \
            else                                                                                  \
                ((T *)c)[j] = A[j];                                                               \
        }                                                                                         \
    }

static inline uint32_t mulmod_u32(uint32_t a, uint32_t b, uint32_t p)
{
    return (uint32_t)(((uint64_t)a * b) % p);
}
static inline uint64_t mulmod_u64(uint64_t a, uint64_t b, uint64_t p)
{
    return (uint64_t)(((ntt_u128)a * b) % p);
}

BASELINE_FUNCTIONS(u32, uint32_t, mulmod_u32)
BASELINE_FUNCTIONS(u64, uint64_t, mulmod_u64)

/* The reports reduce with % only; the GPU variants are the CUDA ladder's. */
static int baseline_supports(ntt_backend b, ntt_modmul m, const void *arg)
{
    (void)arg;
    return b != NTT_BACKEND_CUDA && (m == NTT_MODMUL_DEFAULT || m == NTT_MODMUL_NAIVE);
}

static void baseline_free(void *state)
{
    baseline *B = state;
    if (!B) return;
    free(B->mod);
    free(B->ws);
    free(B);
}

static ntt_status baseline_init(void **state, ntt_modmul *modmul, const ntt_addon_plan *P)
{
    *state = NULL;
    if (!baseline_supports(P->backend, P->modmul, P->arg)) return NTT_EUNSUPPORTED;
    baseline *B = calloc(1, sizeof *B);
    if (!B) return NTT_ENOMEM;
    B->n = P->n;
    while (((size_t)1 << B->logn) < P->n) B->logn++;
    B->width = P->width;
    B->nega = (P->flags & NTT_FLAG_NEGACYCLIC) != 0;
    B->natural = (P->flags & NTT_FLAG_NATURAL_ORDER) != 0;
    B->nmod = P->nmod;
    B->mod = malloc(P->nmod * sizeof *B->mod);
    B->ws = malloc(2 * P->n * (P->width == NTT_U32 ? 4 : 8));
    if (!B->mod || !B->ws) {
        baseline_free(B);
        return NTT_ENOMEM;
    }
    memcpy(B->mod, P->mod, P->nmod * sizeof *B->mod);
    *modmul = NTT_MODMUL_NAIVE;
    *state = B;
    return NTT_OK;
}

static ntt_status transform(void *state, void *a, size_t count, size_t stride, bool inv)
{
    const baseline *B = state;
    for (size_t it = 0; it < count; it++) {
        const ntt_addon_modulus *M = &B->mod[it % B->nmod];
        if (B->width == NTT_U32) {
            uint32_t *v = (uint32_t *)a + it * stride;
            if (inv)
                inverse_u32(B, v, M, B->natural);
            else
                forward_u32(B, v, M, B->natural);
        } else {
            uint64_t *v = (uint64_t *)a + it * stride;
            if (inv)
                inverse_u64(B, v, M, B->natural);
            else
                forward_u64(B, v, M, B->natural);
        }
    }
    return NTT_OK;
}

static ntt_status baseline_forward(void *state, void *a, size_t count, size_t stride)
{
    return transform(state, a, count, stride, false);
}

static ntt_status baseline_inverse(void *state, void *a, size_t count, size_t stride)
{
    return transform(state, a, count, stride, true);
}

static ntt_status baseline_pointwise(void *state, void *c, const void *a, const void *b,
                                     size_t count, size_t stride)
{
    const baseline *B = state;
    for (size_t it = 0; it < count; it++) {
        const size_t o = it * stride;
        const uint64_t p = B->mod[it % B->nmod].p;
        for (size_t k = 0; k < B->n; k++) {
            if (B->width == NTT_U32)
                ((uint32_t *)c)[o + k] = mulmod_u32(((const uint32_t *)a)[o + k],
                                                    ((const uint32_t *)b)[o + k], (uint32_t)p);
            else
                ((uint64_t *)c)[o + k] =
                    mulmod_u64(((const uint64_t *)a)[o + k], ((const uint64_t *)b)[o + k], p);
        }
    }
    return NTT_OK;
}

static ntt_status baseline_polymul(void *state, void *c, size_t lc, const void *a, size_t la,
                                   const void *b, size_t lb, size_t count, size_t stride,
                                   bool io64)
{
    const baseline *B = state;
    const size_t e = io64 || B->width == NTT_U64 ? 8 : 4;
    for (size_t it = 0; it < count; it++) {
        const ntt_addon_modulus *M = &B->mod[it % B->nmod];
        const size_t o = it * stride * e;
        char *ci = (char *)c + o;
        const char *ai = (const char *)a + o, *bi = (const char *)b + o;
        if (B->width == NTT_U32)
            polymul_u32(B, ci, lc, ai, la, bi, lb, io64, M);
        else
            polymul_u64(B, ci, lc, ai, la, bi, lb, io64, M);
    }
    return NTT_OK;
}

const ntt_addon_ops ntt_course_baseline_ops = {
    .name = "baseline",
    .supports = baseline_supports,
    .init = baseline_init,
    .free = baseline_free,
    .forward = baseline_forward,
    .inverse = baseline_inverse,
    .pointwise = baseline_pointwise,
    .polymul = baseline_polymul,
};
