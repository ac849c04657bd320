/* The big modulus's reduction and reconstruction on AVX-512 IFMA
   (bigmod_internal.h): the dot products of the portable kernels (words of
   a coefficient times 2^(64 j) mod q_k; residues times (Q / q_k) mod M)
   in 52-bit limbs, eight lanes of 52 x 52-bit multiply-adds, where the
   portable ones take one 64 x 64-bit product per term.  The same words as
   the portable kernels: both compute the exact residues and the exact
   reconstruction. */
#include "bigmod_internal.h"

#include "../arith/modarith.h"
#include "../cpu/x86/u64x8_crt.h"

#include <string.h>

#define M52 (((uint64_t)1 << 52) - 1)

/* x (w words) as li 52-bit limbs. */
static void limbs52(uint64_t *l, const uint64_t *x, size_t w, size_t li)
{
    for (size_t k = 0; k < li; k++) {
        const size_t bit = 52 * k, j = bit / 64, sh = bit % 64;
        uint64_t v = j < w ? x[j] >> sh : 0;
        if (sh > 12 && j + 1 < w) v |= x[j + 1] << (64 - sh);
        l[k] = v & M52;
    }
}

/* Lanes over primes: for eight primes at once and up to four
   coefficients, lo = sum lo52(x_l P_l), hi = sum hi52(x_l P_l) over the
   limbs (below li 2^52 < 2^63 and li 2^50), the residue lo + hi 2^52 mod
   q by two 64-bit Shoup products. */
void ntt_bigmod_reduce_ifma(const ntt_bigmod *B, uint64_t *r, const uint64_t *x, size_t i0,
                            size_t i1, uint64_t *scr)
{
    const size_t w = B->w, li = B->li, t = B->t, n = B->n;
    uint64_t *xl = scr; /* BLOCK x li */
    const size_t nb = i1 - i0;
    for (size_t b = 0; b < nb; b++) limbs52(xl + b * li, x + (i0 + b) * w, w, li);
    uint64_t out[8];
    for (size_t kb = 0; kb < B->tp; kb += 8) {
        const V q = vld(B->qv + kb), q2 = vadd(q, q), oneq = vld(B->oneqv + kb);
        const V r52 = vld(B->r52v + kb), r52q = vld(B->r52qv + kb), one = v1(1);
        const size_t kn = t - kb < 8 ? t - kb : 8;
        for (size_t b0 = 0; b0 < nb; b0 += 4) {
            V lo[4] = {vz(), vz(), vz(), vz()}, hi[4] = {vz(), vz(), vz(), vz()};
            const size_t bn = nb - b0 < 4 ? nb - b0 : 4;
            for (size_t l = 0; l < li; l++) {
                const V P = vld(B->p52t + l * B->tp + kb);
                for (size_t b = 0; b < 4; b++) {
                    if (b >= bn) break;
                    const V xv = v1(xl[(b0 + b) * li + l]);
                    lo[b] = _mm512_madd52lo_epu64(lo[b], xv, P);
                    hi[b] = _mm512_madd52hi_epu64(hi[b], xv, P);
                }
            }
            for (size_t b = 0; b < bn; b++) {
                const V v = vcsub(vadd(shoup_q(lo[b], one, oneq, q, q2), shoup_q(hi[b], r52, r52q, q, q2)), q);
                vst(out, v);
                for (size_t k = 0; k < kn; k++) r[(kb + k) * n + i0 + b0 + b] = out[k];
            }
        }
    }
}

/* Lanes over eight coefficients: e_k = r_k (Q / q_k)^-1 mod q_k and the
   float sum of e_k / q_k (u, as in bigmod.c's crt_block), then the limbs
   of sum e_k C'_k + u md' in radix 2^52, eight limbs per pass over the
   table rows; each lane's limbs then as words, one quotient step by M'. */
void ntt_bigmod_crt_ifma(const ntt_bigmod *B, uint64_t *c, size_t i0, size_t i1, uint64_t *scr)
{
    const size_t w = B->w, t = B->t, n = B->n, lcp = B->lcp, nb = i1 - i0;
    const unsigned s = B->s;
    uint64_t *E = scr;                      /* (t + 1) x 8 */
    uint64_t *acc = E + (t + 1) * 8;        /* (lcp + 1) x 8 */
    uint64_t *y = acc + (lcp + 1) * 8;      /* w + 3 */
    const __mmask8 m = tail(0, nb);
    __m512d f = _mm512_setzero_pd();
    for (size_t k = 0; k < t; k++) {
        const V q = v1(B->q[k]);
        const V v = vldk(m, B->ra + k * n + i0);
        const V e = vcsub(mul52(v, v1(B->iw[k]), v1(B->iwq[k]), q), q);
        vst(E + k * 8, e);
        f = _mm512_fmadd_pd(_mm512_cvtepu64_pd(e), _mm512_set1_pd(B->qinv[k]), f);
    }
    /* u: the nearest integer (see crt_block). */
    vst(E + t * 8, _mm512_cvtpd_epu64(_mm512_roundscale_pd(f, _MM_FROUND_TO_NEAREST_INT)));
    memset(acc, 0, (lcp + 1) * 8 * 8);
    for (size_t l0 = 0; l0 < lcp; l0 += 8) {
        V a[9];
        for (int j = 0; j < 9; j++) a[j] = vld(acc + (l0 + j) * 8);
        for (size_t k = 0; k <= t; k++) {
            const V e = vld(E + k * 8);
            const uint64_t *row = B->cl + k * lcp + l0;
            for (int j = 0; j < 8; j++) {
                const V cb = v1(row[j]);
                a[j] = _mm512_madd52lo_epu64(a[j], e, cb);
                a[j + 1] = _mm512_madd52hi_epu64(a[j + 1], e, cb);
            }
        }
        for (int j = 0; j < 9; j++) vst(acc + (l0 + j) * 8, a[j]);
    }
    for (size_t b = 0; b < nb; b++) {
        memset(y, 0, (w + 3) * 8);
        for (size_t l = 0; l <= lcp; l++) {
            const uint64_t v = acc[l * 8 + b];
            const size_t bit = 52 * l, j = bit / 64, sh = bit % 64;
            if (j >= w + 1) break; /* zero, as the value is below 2^(64 (w + 1)) */
            ntt_u128 add = (ntt_u128)v << sh;
            for (size_t i = j; add && i < w + 3; i++) {
                const ntt_u128 sum = (ntt_u128)y[i] + (uint64_t)add;
                y[i] = (uint64_t)sum;
                add = (add >> 64) + (sum >> 64);
            }
        }
        ntt_bigmod_reduce_norm(y, B->mn, w);
        uint64_t *cb = c + (i0 + b) * w;
        for (size_t j = 0; j < w; j++) cb[j] = s ? (y[j] >> s) | (y[j + 1] << (64 - s)) : y[j];
    }
}
