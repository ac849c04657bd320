/* Garner's CRT (src/core/crt.h) on eight coefficients per vector: the
   scalar kernel's steps lane by lane, so the words are the same.  The
   primes' products take u64x8.h's high product less at most 2 (the
   primes are below 2^62, so the remainder below 4q fits), the output
   modulus's its exact one (p < 2^63: the remainder is below 2p). */
#include "../../core/crt.h"
#include "u64x8_crt.h"

/* The loop for t primes, t a constant where it is inlined, so that the
   digits stay in registers. */
NTT_INLINE void garner_t(uint64_t *c, const uint64_t *const *r, size_t len, const ntt_garner *g,
                         const size_t t)
{
    V q[NTT_GARNER_MAX], q2[NTT_GARNER_MAX], qp[NTT_GARNER_MAX], qpq[NTT_GARNER_MAX];
    V inv[NTT_GARNER_MAX][NTT_GARNER_MAX], invq[NTT_GARNER_MAX][NTT_GARNER_MAX];
    for (size_t k = 0; k < t; k++) {
        q[k] = v1(g->q[k]);
        q2[k] = v1(2 * g->q[k]);
        qp[k] = v1(g->qp[k]);
        qpq[k] = v1(g->qpq[k]);
        for (size_t j = 0; j < k; j++) {
            inv[j][k] = v1(g->inv[j][k]);
            invq[j][k] = v1(g->invq[j][k]);
        }
    }
    const V p = v1(g->p);
    for (size_t i = 0; i < len; i += 8) {
        const __mmask8 m = tail(i, len);
        V y[NTT_GARNER_MAX];
        V x = vz();
        for (size_t k = 0; k < t; k++) {
            V v = vldk(m, r[k] + i);
            for (size_t j = 0; j < k; j++) {
                v = vcadd(vsub(v, vcsub(y[j], q[k])), q[k]);
                v = shoup_q(v, inv[j][k], invq[j][k], q[k], q2[k]);
            }
            y[k] = v;
            x = vcsub(vadd(x, shoup_p(v, qp[k], qpq[k], p)), p);
        }
        vstk(c + i, m, x);
    }
}

void ntt_reduce_avx512(uint64_t *dst, const uint64_t *src, size_t len, uint64_t q)
{
    const V one = v1(1), oneq = v1(ntt_shoup_pre64(1, q)), vq = v1(q), q2 = v1(2 * q);
    for (size_t i = 0; i < len; i += 8) {
        const __mmask8 m = tail(i, len);
        vstk(dst + i, m, shoup_q(vldk(m, src + i), one, oneq, vq, q2));
    }
}

void ntt_garner_avx512(uint64_t *c, const uint64_t *const *r, size_t len, const ntt_garner *g)
{
    switch (g->t) {
    case 1: garner_t(c, r, len, g, 1); break;
    case 2: garner_t(c, r, len, g, 2); break;
    case 3: garner_t(c, r, len, g, 3); break;
    default: garner_t(c, r, len, g, 4); break;
    }
}
