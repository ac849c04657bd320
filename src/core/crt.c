/* Garner's CRT of ntt_polymul_mod (crt.h): the constants, the scalar
   kernel and the driver that shares the coefficients out in blocks. */
#include "crt.h"
#include "../arith/modarith.h"

/* (W, W') of w < q for odd q < 2^52 (crt.h). */
static void ifma_form(uint64_t *W, uint64_t *Wq, uint64_t w, uint64_t q)
{
    *W = (uint64_t)(((ntt_u128)w << 52) % q);
    *Wq = (*W * (0 - ntt_mont_pinv64(q))) & NTT_MASK52; /* W q^-1 */
}

void ntt_garner_init(ntt_garner *g, const uint64_t *q, size_t t, uint64_t p)
{
    g->t = t;
    g->p = p;
    for (size_t k = 0; k < t; k++) {
        g->q[k] = q[k];
        for (size_t j = 0; j < k; j++) {
            g->inv[j][k] = ntt_invmod(q[j] % q[k], q[k]);
            g->invq[j][k] = ntt_shoup_pre64(g->inv[j][k], q[k]);
        }
    }
    /* qp[0] = 1 turns y0 into y0 mod p. */
    g->qp[0] = 1 % p;
    for (size_t k = 1; k < t; k++) g->qp[k] = ntt_mulmod_slow(g->qp[k - 1], q[k - 1] % p, p);
    for (size_t k = 0; k < t; k++) g->qpq[k] = ntt_shoup_pre64(g->qp[k], p);
    g->ifma_q = true;
    for (size_t k = 0; k < t; k++) g->ifma_q = g->ifma_q && q[k] < ((uint64_t)1 << 52);
    g->ifma_p = g->ifma_q && (p & 1) && p < ((uint64_t)1 << 52);
    if (g->ifma_q)
        for (size_t k = 0; k < t; k++)
            for (size_t j = 0; j < k; j++)
                ifma_form(&g->iw[j][k], &g->iwq[j][k], g->inv[j][k], q[k]);
    if (g->ifma_p)
        for (size_t k = 0; k < t; k++) ifma_form(&g->pw[k], &g->pwq[k], g->qp[k], p);
}

void ntt_garner_scalar(uint64_t *c, const uint64_t *const *r, size_t len, const ntt_garner *g)
{
    const size_t t = g->t;
    const uint64_t p = g->p;
    for (size_t i = 0; i < len; i++) {
        uint64_t y[NTT_GARNER_MAX];
        uint64_t x = 0;
        for (size_t k = 0; k < t; k++) {
            const uint64_t qk = g->q[k];
            uint64_t v = r[k][i];
            for (size_t j = 0; j < k; j++) {
                v = ntt_submod(v, ntt_csub64(y[j], qk), qk);
                v = ntt_csub64(ntt_shoup64(v, g->inv[j][k], g->invq[j][k], qk), qk);
            }
            y[k] = v;
            x = ntt_addmod(x, ntt_csub64(ntt_shoup64(v, g->qp[k], g->qpq[k], p), p), p);
        }
        c[i] = x;
    }
}

/* x mod q: a Shoup product by 1, [0, 2q), then one subtraction. */
void ntt_reduce_scalar(uint64_t *dst, const uint64_t *src, size_t len, uint64_t q)
{
    const uint64_t oneq = ntt_shoup_pre64(1, q);
    for (size_t i = 0; i < len; i++) dst[i] = ntt_csub64(ntt_shoup64(src[i], 1, oneq, q), q);
}

/* 4096 coefficients: with four primes 160 KiB of residues and output per
   block, a unit large enough that claiming it costs nothing. */
#define GARNER_BLOCK 4096

typedef struct {
    ntt_garner_fn fn;
    uint64_t *c;
    const uint64_t *const *r;
    size_t len;
    const ntt_garner *g;
} garner_job;

static void garner_unit(void *arg, unsigned phase, size_t unit, int thread)
{
    (void)phase, (void)thread;
    const garner_job *J = arg;
    const size_t b = unit * GARNER_BLOCK;
    const size_t e = b + GARNER_BLOCK < J->len ? b + GARNER_BLOCK : J->len;
    const uint64_t *rb[NTT_GARNER_MAX];
    for (size_t k = 0; k < J->g->t; k++) rb[k] = J->r[k] + b;
    J->fn(J->c + b, rb, e - b, J->g);
}

void ntt_garner_run(ntt_pool *pool, ntt_garner_fn fn, uint64_t *c, const uint64_t *const *r,
                    size_t len, const ntt_garner *g)
{
    if (!pool || len <= GARNER_BLOCK) {
        fn(c, r, len, g);
        return;
    }
    garner_job J = {fn, c, r, len, g};
    ntt_pool_for(pool, (len + GARNER_BLOCK - 1) / GARNER_BLOCK, garner_unit, &J);
}
