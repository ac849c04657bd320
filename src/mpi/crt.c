/* The moduli of a distributed plan: p itself where it is an NTT prime for
   the plan, else a set of CRT primes and Garner's reconstruction, run per
   coefficient on the rank that holds it (no communication). */
#include "../include/ntt_internal.h" /* ntt_fail, ntt_fail_backend, ntt_detail_clear */
#include "mpi_internal.h"
#include "fourstep.h"

#include <string.h>

uint64_t mpi_powmod(uint64_t a, uint64_t e, uint64_t q) { return ntt_fs_powmod(a, e, q); }

/* The library's rule (tables.c): x^((q-1)/N) has order N exactly when
   x^((q-1)/2) == -1, so the smallest quadratic non-residue x gives every
   order's root, and r_N^(N/M) = r_M: the local plans' roots are powers of
   the plan's. */
uint64_t mpi_root(uint64_t q, uint64_t order) { return ntt_fs_root(q, order); }

static uint64_t shoup_pre(uint64_t w, uint64_t q)
{
    return (uint64_t)(((ntt_u128)w << 64) / q);
}

/* ---- the CRT primes ---------------------------------------------------------- */

/* Multiword unsigned integers, little-endian 64-bit limbs. */
#define LIMBS 6
typedef struct { uint64_t w[LIMBS]; } big;

static void big_mul_small(big *x, uint64_t m)
{
    ntt_u128 carry = 0;
    for (int i = 0; i < LIMBS; i++) {
        carry += (ntt_u128)x->w[i] * m;
        x->w[i] = (uint64_t)carry;
        carry >>= 64;
    }
}

static int big_cmp(const big *x, const big *y)
{
    for (int i = LIMBS - 1; i >= 0; i--)
        if (x->w[i] != y->w[i]) return x->w[i] < y->w[i] ? -1 : 1;
    return 0;
}

/* How many of q[0..nq) the product needs.  Every exact coefficient c of a
   product of size n with inputs below p has |c| <= B = n (p-1)^2 (cyclic:
   0 <= c <= B).  Cyclic: the product Q of the first t primes must exceed B.
   Negacyclic: Garner's value x in [0, Q) is c or Q + c; with
   Q' = Q / q_last and Q' (q_last - 1) / 2 >= B the last mixed-radix digit
   tells them apart (at most (q_last - 1) / 2 for c >= 0, above it for
   c < 0), see mpi_crt_store.  0 if even all nq are too few. */
static size_t crt_count(size_t n, uint64_t p, const uint64_t *q, size_t nq, bool nega)
{
    big bound = {{0}}, prod = {{1}};
    bound.w[0] = p - 1;
    big_mul_small(&bound, p - 1);
    big_mul_small(&bound, (uint64_t)n);
    for (size_t t = 1; t <= nq; t++) {
        if (nega) {
            big half = prod; /* Q' (q_last - 1) / 2 */
            big_mul_small(&half, (q[t - 1] - 1) / 2);
            if (big_cmp(&half, &bound) >= 0) return t;
        }
        big_mul_small(&prod, q[t - 1]);
        if (!nega && big_cmp(&prod, &bound) > 0) return t;
    }
    return 0;
}

/* The sets of ntt_polymul_mod: below 2^51 (small) for the AVX2, AVX-512
   and OpenMP backends (their double-precision kernels; the largest four
   with 2^30 | q-1), else the three largest below 2^62 with 2^32 | q-1.
   Returns how many, 0 on failure. */
static size_t crt_set(bool small, uint64_t *q)
{
    const unsigned bits = small ? 51 : 62, order = small ? 30 : 32;
    const size_t count = small ? 4 : 3;
    for (size_t i = 0; i < count; i++)
        if (ntt_find_prime(bits, order, (unsigned)i, &q[i]) != NTT_OK) return 0;
    return count;
}

static void mod_init(mpi_mod *m, uint64_t q, ntt_width ww, uint64_t order)
{
    m->q = q;
    if (ww == NTT_U32) {
        m->pinv = ntt_mont_pinv32((uint32_t)q);
        m->one = ((uint64_t)1 << 32) % q;
    } else {
        m->pinv = ntt_mont_pinv64(q);
        m->one = (UINT64_MAX % q + 1) % q;
    }
    m->root = mpi_root(q, order);
}

ntt_status mpi_moduli_init(ntt_mpi_plan *plan, bool small)
{
    const uint64_t p = plan->p;
    const bool nega = (plan->flags & NTT_FLAG_NEGACYCLIC) != 0;
    const uint64_t order = nega ? 2 * (uint64_t)plan->n : (uint64_t)plan->n;
    const uint64_t wlimit = plan->width == NTT_U32 ? (uint64_t)1 << 30 : (uint64_t)1 << 63;
    if (p < 2 || p >= wlimit)
        return ntt_fail(NTT_EMODULUS, "modulus %llu is not in [2, 2^%d) for u%d arrays",
                        (unsigned long long)p, plan->width == NTT_U32 ? 30 : 63,
                        plan->width == NTT_U32 ? 32 : 64);
    const uint64_t dlimit = plan->width == NTT_U32 ? (uint64_t)1 << 30 : (uint64_t)1 << 62;
    plan->direct = p > 2 && p < dlimit && (p - 1) % order == 0 && ntt_is_prime(p);
    if (plan->direct) {
        plan->nmod = 1;
        plan->ww = plan->width;
        mod_init(&plan->mod[0], p, plan->ww, order);
    } else {
        uint64_t q[MPI_MAX_MOD];
        /* Sizes beyond the small set's roots take the large set. */
        const bool use_small = small && order <= (uint64_t)1 << 30;
        if (order > (uint64_t)1 << (use_small ? 30 : 32))
            return ntt_fail(NTT_EMODULUS, "modulus %llu is not an NTT prime for order %llu, and "
                            "the CRT primes have no root of that order", (unsigned long long)p,
                            (unsigned long long)order);
        const size_t nq = crt_set(use_small, q);
        if (nq == 0) return ntt_fail(NTT_EMODULUS, "no CRT prime set for these ranks' backends");
        const size_t t = crt_count(plan->n, p, q, nq, nega);
        if (t == 0)
            return ntt_fail(NTT_EMODULUS, "modulus %llu at n = %zu: the CRT primes' product "
                            "cannot hold the exact coefficients", (unsigned long long)p, plan->n);
        plan->nmod = t;
        plan->ww = NTT_U64;
        for (size_t k = 0; k < t; k++) mod_init(&plan->mod[k], q[k], NTT_U64, order);
        /* Garner (as polymul_mod.c): q_j^-1 mod q_k, and q_0 .. q_{k-1} mod p. */
        for (size_t k = 0; k < t; k++)
            for (size_t j = 0; j < k; j++) {
                plan->crt_inv[j][k] = mpi_powmod(q[j] % q[k], q[k] - 2, q[k]);
                plan->crt_invq[j][k] = shoup_pre(plan->crt_inv[j][k], q[k]);
            }
        uint64_t acc = 1 % p;
        for (size_t k = 0; k < t; k++) {
            plan->crt_qp[k] = acc;
            plan->crt_qpq[k] = shoup_pre(acc, p);
            acc = ntt_mulmod_slow(acc, q[k] % p, p);
        }
        plan->crt_Qp = acc;
    }
    plan->esz = plan->ww == NTT_U32 ? 4 : 8;
    plan->etype = plan->ww == NTT_U32 ? MPI_UINT32_T : MPI_UINT64_T;
    return NTT_OK;
}

/* ---- loading the caller's input ---------------------------------------------- */

bool mpi_load(const ntt_mpi_plan *plan, void *dst, const void *src, size_t len, size_t k)
{
    const uint64_t p = plan->p;
    bool bad = false;
    /* The check and the copy in one pass (the compiler vectorizes both):
       the input is read from memory once. */
    if (plan->width == NTT_U32) {
        const uint32_t *s = src;
        uint32_t any = 0;
        if (plan->direct) {
            uint32_t *d = dst;
            for (size_t i = 0; i < len; i++) {
                any |= (uint32_t)(s[i] >= (uint32_t)p);
                d[i] = s[i];
            }
        } else { /* p < 2^30 lies below every CRT prime: widen only */
            uint64_t *d = dst;
            for (size_t i = 0; i < len; i++) {
                any |= (uint32_t)(s[i] >= (uint32_t)p);
                d[i] = s[i];
            }
        }
        return any != 0;
    }
    const uint64_t *s = src;
    uint64_t any = 0;
    const uint64_t q = plan->mod[k].q;
    if (plan->direct || p <= q) {
        uint64_t *d = dst;
        for (size_t i = 0; i < len; i++) {
            any |= (uint64_t)(s[i] >= p);
            d[i] = s[i];
        }
        return any != 0;
    }
    for (size_t i = 0; i < len; i++) any |= (uint64_t)(s[i] >= p);
    bad = any != 0;
    /* x mod q for any x < 2^64: a Shoup product by 1, [0, 2q), then one
       subtraction. */
    uint64_t *d = dst;
    const uint64_t oneq = shoup_pre(1, q);
    for (size_t i = 0; i < len; i++) d[i] = ntt_csub64(ntt_shoup64(s[i], 1, oneq, q), q);
    return bad;
}

/* ---- Garner ------------------------------------------------------------------------ */

void mpi_crt_store(const ntt_mpi_plan *plan, void *dst, const uint64_t *r, size_t stride,
                   size_t len)
{
    const size_t t = plan->nmod;
    const uint64_t p = plan->p, qlast = plan->mod[t - 1].q;
    const bool nega = (plan->flags & NTT_FLAG_NEGACYCLIC) != 0;
    for (size_t i = 0; i < len; i++) {
        uint64_t y[MPI_MAX_MOD], x = 0;
        for (size_t k = 0; k < t; k++) {
            const uint64_t q = plan->mod[k].q;
            uint64_t v = r[k * stride + i];
            for (size_t j = 0; j < k; j++) {
                v = ntt_submod(v, ntt_csub64(y[j], q), q);
                v = ntt_csub64(ntt_shoup64(v, plan->crt_inv[j][k], plan->crt_invq[j][k], q), q);
            }
            y[k] = v;
            x = ntt_addmod(x, ntt_csub64(ntt_shoup64(v, plan->crt_qp[k], plan->crt_qpq[k], p), p),
                           p);
        }
        /* A negative coefficient c came back as Q + c. */
        if (nega && y[t - 1] > (qlast - 1) / 2) x = ntt_submod(x, plan->crt_Qp, p);
        if (plan->width == NTT_U32)
            ((uint32_t *)dst)[i] = (uint32_t)x;
        else
            ((uint64_t *)dst)[i] = x;
    }
}
