/* Garner's CRT (src/core/crt.h) with the primes' products on IFMA's
   52-bit multiply-adds, for prime sets below 2^52 (the IFMA kernels'
   sets): three multiply-adds per product where the 64-bit lanes take
   seven 32 x 32 products and two 64-bit low products.  The output
   modulus's products too where p is odd and below 2^52; otherwise those
   take the exact 64-bit Shoup product.  The same words as the scalar
   kernel. */
#include "../../core/crt.h"
#include "u64x8_crt.h"

NTT_INLINE void garner_t(uint64_t *c, const uint64_t *const *r, size_t len, const ntt_garner *g,
                         const size_t t, const bool p52)
{
    V q[NTT_GARNER_MAX], pw[NTT_GARNER_MAX], pwq[NTT_GARNER_MAX];
    V iw[NTT_GARNER_MAX][NTT_GARNER_MAX], iwq[NTT_GARNER_MAX][NTT_GARNER_MAX];
    for (size_t k = 0; k < t; k++) {
        q[k] = v1(g->q[k]);
        pw[k] = v1(p52 ? g->pw[k] : g->qp[k]);
        pwq[k] = v1(p52 ? g->pwq[k] : g->qpq[k]);
        for (size_t j = 0; j < k; j++) {
            iw[j][k] = v1(g->iw[j][k]);
            iwq[j][k] = v1(g->iwq[j][k]);
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
                v = vcsub(mul52(v, iw[j][k], iwq[j][k], q[k]), q[k]);
            }
            y[k] = v;
            const V u = p52 ? vcsub(mul52(v, pw[k], pwq[k], p), p) : shoup_p(v, pw[k], pwq[k], p);
            x = vcsub(vadd(x, u), p);
        }
        vstk(c + i, m, x);
    }
}

void ntt_garner_ifma(uint64_t *c, const uint64_t *const *r, size_t len, const ntt_garner *g)
{
    const bool p52 = g->ifma_p;
    switch (g->t * 2 + p52) {
    case 2: garner_t(c, r, len, g, 1, false); break;
    case 3: garner_t(c, r, len, g, 1, true); break;
    case 4: garner_t(c, r, len, g, 2, false); break;
    case 5: garner_t(c, r, len, g, 2, true); break;
    case 6: garner_t(c, r, len, g, 3, false); break;
    case 7: garner_t(c, r, len, g, 3, true); break;
    case 8: garner_t(c, r, len, g, 4, false); break;
    default: garner_t(c, r, len, g, 4, true); break;
    }
}
