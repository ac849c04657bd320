/* Multiplication of big naturals (ntt_bigint.h): four products of the
   words modulo 50-bit primes, the explicit CRT of each coefficient, one
   pass of carries. */
#include "ntt_bigint.h"

#include "../arith/modarith.h"
#include "../core/alloc.h"
#include "../core/detail.h"
#include "../include/ntt_internal.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#define NP 4
/* The shorter operand's length up to which schoolbook runs. */
#define SCHOOL_MAX 32

/* The primes and the CRT's constants, made once. */
static struct {
    uint64_t q[NP], oneq[NP], inv[NP], invq[NP];
    double qinv[NP];
    uint64_t qk[NP][3]; /* Q / q_k, below 2^150 */
    uint64_t Q[4];      /* the product, below 2^200 */
    ntt_status status;
} C;
static pthread_once_t C_once = PTHREAD_ONCE_INIT;

/* x (len words) times m, into x (len words; the product fits). */
static void mul_word(uint64_t *x, size_t len, uint64_t m)
{
    uint64_t c = 0;
    for (size_t j = 0; j < len; j++) {
        const ntt_u128 v = (ntt_u128)x[j] * m + c;
        x[j] = (uint64_t)v;
        c = (uint64_t)(v >> 64);
    }
}

static void init_constants(void)
{
    for (unsigned k = 0; k < NP; k++) {
        const ntt_status s = ntt_find_prime(50, 30, k, &C.q[k]);
        if (s != NTT_OK) {
            C.status = s;
            return;
        }
    }
    memset(C.Q, 0, sizeof C.Q);
    C.Q[0] = 1;
    for (int k = 0; k < NP; k++) mul_word(C.Q, 4, C.q[k]);
    for (int k = 0; k < NP; k++) {
        const uint64_t q = C.q[k];
        uint64_t prod = 1;
        memset(C.qk[k], 0, sizeof C.qk[k]);
        C.qk[k][0] = 1;
        for (int i = 0; i < NP; i++)
            if (i != k) {
                prod = ntt_mulmod_slow(prod, C.q[i] % q, q);
                mul_word(C.qk[k], 3, C.q[i]);
            }
        C.inv[k] = ntt_invmod(prod, q);
        C.invq[k] = ntt_shoup_pre64(C.inv[k], q);
        C.oneq[k] = ntt_shoup_pre64(1, q);
        C.qinv[k] = 1.0 / (double)q;
    }
    C.status = NTT_OK;
}

/* c = a b by schoolbook, na <= nb.  c is zeroed first. */
static void school(uint64_t *c, const uint64_t *a, size_t na, const uint64_t *b, size_t nb)
{
    memset(c, 0, (na + nb) * sizeof *c);
    for (size_t i = 0; i < na; i++) {
        uint64_t carry = 0;
        for (size_t j = 0; j < nb; j++) {
            const ntt_u128 v = (ntt_u128)a[i] * b[j] + c[i + j] + carry;
            c[i + j] = (uint64_t)v;
            carry = (uint64_t)(v >> 64);
        }
        c[i + nb] = carry;
    }
}

/* The exact coefficient from its residues: e_k = r_k (Q / q_k)^-1 mod
   q_k, x = sum e_k Q / q_k - u Q with u the nearest integer to the float
   sum e_k / q_k (x below Q / 2^8, so that sum is u plus less than 2^-8,
   plus rounding far below it).  x < 2^(128 + 30): three words. */
static void crt_one(uint64_t x[3], const uint64_t r[NP])
{
    uint64_t e[NP];
    double f = 0;
    for (int k = 0; k < NP; k++) {
        e[k] = ntt_csub64(ntt_shoup64(r[k], C.inv[k], C.invq[k], C.q[k]), C.q[k]);
        f += (double)e[k] * C.qinv[k];
    }
    const uint64_t u = (uint64_t)(f + 0.5);
    /* s = sum e_k Q / q_k (below 4 Q < 2^202), then less u Q: x. */
    uint64_t s[4] = {0, 0, 0, 0};
    for (int k = 0; k < NP; k++) {
        uint64_t carry = 0;
        for (int j = 0; j < 3; j++) {
            const ntt_u128 p = (ntt_u128)e[k] * C.qk[k][j] + s[j] + carry;
            s[j] = (uint64_t)p;
            carry = (uint64_t)(p >> 64);
        }
        s[3] += carry;
    }
    /* s -= u Q. */
    uint64_t borrow = 0, mc = 0;
    for (int j = 0; j < 4; j++) {
        const ntt_u128 p = (ntt_u128)u * C.Q[j] + mc;
        mc = (uint64_t)(p >> 64);
        const uint64_t lo = (uint64_t)p, v = s[j];
        const uint64_t d = v - lo, d2 = d - borrow;
        borrow = (uint64_t)(v < lo) + (uint64_t)(d < borrow);
        s[j] = d2;
    }
    x[0] = s[0], x[1] = s[1], x[2] = s[2];
}

ntt_status ntt_mpn_mul(uint64_t *c, const uint64_t *a, size_t na, const uint64_t *b, size_t nb,
                       ntt_backend backend, const ntt_plan_options *opts)
{
    ntt_detail_clear();
    if (!c || !a || !b) return ntt_fail(NTT_EINVAL, "c, a and b must be non-NULL");
    if (na == 0 || nb == 0) return ntt_fail(NTT_EINVAL, "na = %zu, nb = %zu: both must be >= 1", na, nb);
    if (na > NTT_POLYMUL_MAX_LEN || nb > NTT_POLYMUL_MAX_LEN - na + 1)
        return ntt_fail(NTT_EINVAL, "na + nb - 1 = %zu + %zu - 1 exceeds 2^%d", na, nb, NTT_MAX_LOG2_N);
    if (ntt_overlaps(c, (na + nb) * 8, a, na * 8) || ntt_overlaps(c, (na + nb) * 8, b, nb * 8))
        return ntt_fail(NTT_EINVAL, "c overlaps a or b");
    if (opts && opts->threads < 0) return ntt_fail(NTT_EINVAL, "threads = %d is negative", opts->threads);
    if ((unsigned)backend >= NTT_BACKEND_COUNT)
        return ntt_fail(NTT_EINVAL, "backend %d is not an ntt_backend", (int)backend);
    if (!ntt_backend_available(backend)) return ntt_fail_backend(backend);
    if ((na < nb ? na : nb) <= SCHOOL_MAX) {
        if (na <= nb)
            school(c, a, na, b, nb);
        else
            school(c, b, nb, a, na);
        return NTT_OK;
    }
    pthread_once(&C_once, init_constants);
    if (C.status != NTT_OK) return ntt_fail(C.status, "the CRT primes could not be found");
    const size_t lc = na + nb - 1;
    uint64_t *buf = ntt_alloc_aligned((NP * (na + nb) + NP * lc) * sizeof *buf);
    if (!buf) return ntt_fail(NTT_ENOMEM, "out of memory (%zu words)", NP * (na + nb + lc));
    uint64_t *ra = buf, *rb = ra + NP * na, *rc = rb + NP * nb;
    ntt_status s = NTT_OK;
    for (int k = 0; k < NP && s == NTT_OK; k++) {
        const uint64_t q = C.q[k], oq = C.oneq[k];
        uint64_t *ak = ra + k * na, *bk = rb + k * nb;
        for (size_t i = 0; i < na; i++) ak[i] = ntt_csub64(ntt_shoup64(a[i], 1, oq, q), q);
        for (size_t i = 0; i < nb; i++) bk[i] = ntt_csub64(ntt_shoup64(b[i], 1, oq, q), q);
        s = ntt_polymul_mod_ex(rc + k * lc, ak, na, bk, nb, q, backend, opts);
    }
    if (s != NTT_OK) {
        free(buf);
        return s;
    }
    /* Coefficient i adds x_i 2^(64 i): a running three-word carry. */
    uint64_t pend[3] = {0, 0, 0};
    for (size_t i = 0; i < lc; i++) {
        uint64_t r[NP], x[3];
        for (int k = 0; k < NP; k++) r[k] = rc[k * lc + i];
        crt_one(x, r);
        ntt_u128 v = (ntt_u128)pend[0] + x[0];
        c[i] = (uint64_t)v;
        v = (v >> 64) + pend[1] + x[1];
        pend[0] = (uint64_t)v;
        v = (v >> 64) + pend[2] + x[2];
        pend[1] = (uint64_t)v;
        pend[2] = (uint64_t)(v >> 64);
    }
    c[lc] = pend[0];
    free(buf);
    return NTT_OK;
}
