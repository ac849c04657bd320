/* Canonical twiddle tables (tree order, see internal.h) and constants. */
#include "internal.h"

#include <stdlib.h>
#include <string.h>

void *ntt_aligned_alloc(size_t bytes)
{
    if (bytes == 0) bytes = 64;
    void *p = NULL;
    if (posix_memalign(&p, 64, bytes) != 0) return NULL;
    return p;
}

void ntt_aligned_free(void *p) { free(p); }

unsigned ntt_log2(size_t n)
{
    unsigned l = 0;
    while (((size_t)1 << l) < n) l++;
    return l;
}

size_t ntt_bitrev(size_t x, unsigned bits)
{
    size_t r = 0;
    for (unsigned i = 0; i < bits; i++) {
        r = (r << 1) | (x & 1);
        x >>= 1;
    }
    return r;
}

/* An element of order exactly N (a power of two >= 2) mod the prime p:
   r has order N iff r^(N/2) == -1. */
static uint64_t root_of_order(uint64_t p, uint64_t N)
{
    for (uint64_t x = 2; x < p; x++) {
        uint64_t r = ntt_powmod(x, (p - 1) / N, p);
        if (ntt_powmod(r, N / 2, p) == p - 1) return r;
    }
    return 0;
}

ntt_status ntt_modulus_init(ntt_modulus *m, uint64_t p, size_t n, ntt_width width,
                            unsigned flags)
{
    memset(m, 0, sizeof *m);
    const uint64_t limit = width == NTT_U32 ? (uint64_t)1 << 30 : (uint64_t)1 << 62;
    if (p < 3 || p >= limit || !ntt_prime_u64(p)) return NTT_EMODULUS;
    const bool nega = (flags & NTT_FLAG_NEGACYCLIC) != 0;
    const uint64_t N = nega ? 2 * (uint64_t)n : (uint64_t)n;
    if ((p - 1) % N != 0) return NTT_EMODULUS;
    const uint64_t r = root_of_order(p, N);
    if (r == 0) return NTT_EMODULUS;

    /* Node m+k at level m (m = 2^d) has exponent t = (e0 + N*brv_d(k)) / (2m)
       with e0 = 0 (cyclic) or N/2 (negacyclic); every t is < N/2, so one
       table of r^j, j < N/2, serves both directions: r^-t = -r^(N/2 - t). */
    const size_t half = (size_t)(N / 2);
    uint64_t *pw = malloc(half * sizeof *pw);
    m->w = malloc(n * sizeof *m->w);
    m->winv = malloc(n * sizeof *m->winv);
    if (!pw || !m->w || !m->winv) {
        free(pw);
        ntt_modulus_free(m);
        return NTT_ENOMEM;
    }
    const uint64_t rq = ntt_shoup_pre64(r, p);
    pw[0] = 1;
    for (size_t j = 1; j < half; j++) pw[j] = ntt_csub64(ntt_shoup64(pw[j - 1], r, rq, p), p);

    const uint64_t e0 = nega ? N / 2 : 0;
    m->w[0] = m->winv[0] = 0; /* unused */
    unsigned d = 0;
    for (size_t lvl = 1; lvl < n; lvl <<= 1, d++) {
        /* r runs through brv_d(k) by a reversed-order increment. */
        size_t rv = 0;
        for (size_t k = 0; k < lvl; k++) {
            const uint64_t t = (e0 + N * (uint64_t)rv) >> (d + 1);
            m->w[lvl + k] = pw[t];
            m->winv[lvl + k] = t == 0 ? 1 : p - pw[half - t];
            size_t bit = lvl >> 1;
            while (rv & bit) {
                rv ^= bit;
                bit >>= 1;
            }
            rv |= bit;
        }
    }
    free(pw);

    m->p = p;
    m->root = r;
    m->n_inv = ntt_invmod(n % p, p);
    unsigned k = 0;
    while (k < 64 && (p >> k) != 0) k++;
    m->k = k;
    if (width == NTT_U32) {
        m->pinv = ntt_mont_pinv32((uint32_t)p);
        m->r_mod = ((uint64_t)1 << 32) % p;
        m->mu = UINT64_MAX / p;
    } else {
        m->pinv = ntt_mont_pinv64(p);
        m->r_mod = (UINT64_MAX % p + 1) % p;
        m->mu = (uint64_t)(((ntt_u128)1 << (2 * k)) / p);
    }
    m->r2_mod = ntt_mulmod_slow(m->r_mod, m->r_mod, p);
    return NTT_OK;
}

void ntt_modulus_free(ntt_modulus *m)
{
    if (!m) return;
    free(m->w);
    free(m->winv);
    m->w = m->winv = NULL;
}
