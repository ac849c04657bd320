/* The portable element-wise kernels of the RNS stages (rns_internal.h):
   64-bit integer code, 128-bit sums, one reduction per output. */
#include "rns_internal.h"

/* Targets summed together: each y value loaded is used this many times. */
#define TGROUP 4

static void conv(const rns_conv_job *J, size_t k0, size_t k1, uint64_t *y)
{
    const size_t len = k1 - k0, s = J->s;
    for (size_t i = 0; i < s; i++) {
        const uint64_t *x = J->x[i] + k0;
        uint64_t *yi = y + i * len;
        const uint64_t w = J->inv[i], wq = J->invq[i], p = J->src[i]->p;
        for (size_t k = 0; k < len; k++) yi[k] = rns_mulc(x[k], w, wq, p);
    }
    size_t j = 0;
    for (; j + TGROUP <= J->t; j += TGROUP) {
        const uint64_t *w0 = J->w[j], *w1 = J->w[j + 1], *w2 = J->w[j + 2], *w3 = J->w[j + 3];
        uint64_t *o0 = J->out[j] + k0, *o1 = J->out[j + 1] + k0, *o2 = J->out[j + 2] + k0,
                 *o3 = J->out[j + 3] + k0;
        for (size_t k = 0; k < len; k++) {
            ntt_u128 a0 = 0, a1 = 0, a2 = 0, a3 = 0;
            for (size_t i0 = 0; i0 < s; i0 += RNS_CHUNK) {
                const size_t i1 = s - i0 > RNS_CHUNK ? i0 + RNS_CHUNK : s;
                if (i0) {
                    a0 = rns_reduce128(a0, J->dst[j]);
                    a1 = rns_reduce128(a1, J->dst[j + 1]);
                    a2 = rns_reduce128(a2, J->dst[j + 2]);
                    a3 = rns_reduce128(a3, J->dst[j + 3]);
                }
                for (size_t i = i0; i < i1; i++) {
                    const uint64_t v = y[i * len + k];
                    a0 += rns_term(v, w0[i]);
                    a1 += rns_term(v, w1[i]);
                    a2 += rns_term(v, w2[i]);
                    a3 += rns_term(v, w3[i]);
                }
            }
            o0[k] = rns_reduce128(a0, J->dst[j]);
            o1[k] = rns_reduce128(a1, J->dst[j + 1]);
            o2[k] = rns_reduce128(a2, J->dst[j + 2]);
            o3[k] = rns_reduce128(a3, J->dst[j + 3]);
        }
    }
    for (; j < J->t; j++) {
        const uint64_t *w0 = J->w[j];
        uint64_t *o0 = J->out[j] + k0;
        for (size_t k = 0; k < len; k++) {
            ntt_u128 a0 = 0;
            for (size_t i = 0; i < s; i++) {
                if (i && i % RNS_CHUNK == 0) a0 = rns_reduce128(a0, J->dst[j]);
                a0 += rns_term(y[i * len + k], w0[i]);
            }
            o0[k] = rns_reduce128(a0, J->dst[j]);
        }
    }
}

static void subc(uint64_t *out, const uint64_t *x, const uint64_t *t, size_t len, uint64_t w,
                 uint64_t wq, const rns_prime *m)
{
    const uint64_t p = m->p;
    for (size_t k = 0; k < len; k++) out[k] = rns_subc(x[k], t[k], w, wq, p);
}

static void reduce(uint64_t *out, const uint64_t *x, size_t len, const rns_prime *m)
{
    const rns_prime c = *m;
    for (size_t k = 0; k < len; k++) out[k] = rns_reduce64(x[k], &c);
}

static void dot2(uint64_t *acc0, uint64_t *acc1, const uint64_t *const *e,
                 const uint64_t *const *k0, const uint64_t *const *k1, size_t cnt, size_t len,
                 const rns_prime *m)
{
    const rns_prime c = *m;
    for (size_t k = 0; k < len; k++) {
        ntt_u128 a0 = 0, a1 = 0;
        for (size_t j = 0; j < cnt; j++) {
            if (j && j % RNS_CHUNK == 0) {
                a0 = rns_reduce128(a0, &c);
                a1 = rns_reduce128(a1, &c);
            }
            const uint64_t v = e[j][k];
            a0 += rns_term(v, k0[j][k]);
            a1 += rns_term(v, k1[j][k]);
        }
        acc0[k] = rns_reduce128(a0, &c);
        acc1[k] = rns_reduce128(a1, &c);
    }
}

const rns_kernels ntt_rns_kernels_portable = {
    .name = "portable",
    .conv = conv,
    .subc = subc,
    .reduce = reduce,
    .dot2 = dot2,
};
