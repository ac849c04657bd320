/* Canonical twiddle tables (tree order, see internal.h) and constants. */
#include "detail.h"
#include "internal.h"

#include <stdlib.h>
#include <string.h>

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

/* The root every plan uses (ntt.h, ntt_plan_root): r = z^((p-1)/N) for the
   smallest quadratic non-residue z.  r has order exactly N (a power of two
   >= 2 dividing p-1) iff r^(N/2) = z^((p-1)/2) = -1, Euler's criterion for
   z, so the loop's first hit is that z.  Not ntt_root_of_unity's
   g^((p-1)/N) for the smallest primitive root g, which differs where g is
   not the smallest non-residue; the choice is public now and stays. */
uint64_t ntt_root_of_order(uint64_t p, uint64_t N)
{
    for (uint64_t x = 2; x < p; x++) {
        uint64_t r = ntt_powmod(x, (p - 1) / N, p);
        if (ntt_powmod(r, N / 2, p) == p - 1) return r;
    }
    return 0;
}

/* z[k] = g^brv_D(k) for k < len = 2^D: brv_D(h + k) = brv_D(k) + len/2h for
   k < h, so each half is the one before it times g^(len/2h). */
static void brv_powers(uint64_t *z, size_t len, uint64_t g, uint64_t p)
{
    uint64_t sq[64]; /* g^(2^i) */
    unsigned D = ntt_log2(len);
    for (unsigned i = 0; i < D; i++, g = ntt_mulmod_slow(g, g, p)) sq[i] = g;
    z[0] = 1;
    for (size_t h = 1; h < len; h <<= 1) {
        const uint64_t w = sq[--D], wq = ntt_shoup_pre64(w, p);
        for (size_t k = 0; k < h; k++) z[h + k] = ntt_csub64(ntt_shoup64(z[k], w, wq, p), p);
    }
}

/* dst[k] = c src[k] for k < len; dst == src allowed. */
static void scale_copy(uint64_t *dst, const uint64_t *src, size_t len, uint64_t c, uint64_t p)
{
    if (c == 1) {
        memmove(dst, src, len * sizeof *dst);
        return;
    }
    const uint64_t cq = ntt_shoup_pre64(c, p);
    for (size_t k = 0; k < len; k++) dst[k] = ntt_csub64(ntt_shoup64(src[k], c, cq, p), p);
}

ntt_status ntt_modulus_init(ntt_modulus *m, uint64_t p, size_t n, ntt_width width,
                            unsigned flags)
{
    memset(m, 0, sizeof *m);
    const uint64_t limit = width == NTT_U32 ? (uint64_t)1 << 30 : (uint64_t)1 << 62;
    if (p < 3 || p >= limit)
        return ntt_fail(NTT_EMODULUS, "modulus %llu is out of range for u%d elements (3 <= p < "
                        "2^%d)", (unsigned long long)p, width == NTT_U32 ? 32 : 64,
                        width == NTT_U32 ? 30 : 62);
    if (!ntt_prime_u64(p))
        return ntt_fail(NTT_EMODULUS, "modulus %llu is not prime", (unsigned long long)p);
    const bool nega = (flags & NTT_FLAG_NEGACYCLIC) != 0;
    const uint64_t N = nega ? 2 * (uint64_t)n : (uint64_t)n;
    if ((p - 1) % N != 0)
        return ntt_fail(NTT_EMODULUS, "modulus %llu has no root of unity of order %llu: a %s "
                        "plan of size n = %zu needs %s | p-1, and p-1 = 2^%d * odd",
                        (unsigned long long)p, (unsigned long long)N,
                        nega ? "negacyclic" : "cyclic", n, nega ? "2n" : "n",
                        __builtin_ctzll(p - 1));
    const uint64_t r = ntt_root_of_order(p, N);
    if (r == 0)
        return ntt_fail(NTT_EMODULUS, "modulus %llu: no root of unity of order %llu found",
                        (unsigned long long)p, (unsigned long long)N);

    /* Node lvl+k at level lvl = 2^d has exponent t = (e0 + N*brv_d(k)) / (2 lvl)
       with e0 = 0 (cyclic) or N/2 (negacyclic): w[lvl + k] = c_d u_d^brv_d(k)
       with u_d = r^(N / 2lvl), c_d = r^(e0 / 2lvl).  As brv_d(k) 2^(D-d) =
       brv_D(k) for k < 2^d, u_d^brv_d(k) = g^brv_D(k) with g = u_D (D: the
       top level): every level's table is c_d times a prefix of the top
       level's z[k] = g^brv_D(k), which brv_powers builds in sequential
       passes (a table of r^j read in bit-reversed order cost a cache miss
       per entry, seconds at 2^25). */
    m->w = malloc(n * sizeof *m->w);
    m->winv = malloc(n * sizeof *m->winv);
    if (!m->w || !m->winv) {
        ntt_modulus_free(m);
        return NTT_ENOMEM;
    }
    m->w[0] = m->winv[0] = 0; /* unused */
    if (n >= 2) {
        const size_t top = n / 2;
        const uint64_t e0 = nega ? N / 2 : 0, g = ntt_powmod(r, N / n, p);
        brv_powers(m->w + top, top, g, p);
        brv_powers(m->winv + top, top, ntt_powmod(g, N - 1, p), p);
        /* Top level last: the lower ones read its unscaled prefix. */
        for (size_t lvl = 1; lvl <= top; lvl <<= 1) {
            const uint64_t t = e0 / (2 * lvl), c = ntt_powmod(r, t, p);
            scale_copy(m->w + lvl, m->w + top, lvl, c, p);
            scale_copy(m->winv + lvl, m->winv + top, lvl, ntt_powmod(r, (N - t) % N, p), p);
        }
    }

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
