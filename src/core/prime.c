/* Primality, roots of unity, NTT prime search. */
#include "internal.h"

/* Miller-Rabin with the seven bases of Jim Sinclair, deterministic for all
   n < 2^64. */
bool ntt_prime_u64(uint64_t n)
{
    static const uint64_t small[] = {2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37};
    if (n < 2) return false;
    for (size_t i = 0; i < sizeof small / sizeof small[0]; i++) {
        if (n == small[i]) return true;
        if (n % small[i] == 0) return false;
    }
    uint64_t d = n - 1;
    unsigned s = 0;
    while ((d & 1) == 0) { d >>= 1; s++; }
    static const uint64_t bases[] = {2, 325, 9375, 28178, 450775, 9780504, 1795265022};
    for (size_t i = 0; i < sizeof bases / sizeof bases[0]; i++) {
        uint64_t a = bases[i] % n;
        if (a == 0) continue;
        uint64_t x = ntt_powmod(a, d, n);
        if (x == 1 || x == n - 1) continue;
        bool composite = true;
        for (unsigned r = 1; r < s; r++) {
            x = ntt_mulmod_slow(x, x, n);
            if (x == n - 1) { composite = false; break; }
        }
        if (composite) return false;
    }
    return true;
}

int ntt_is_prime(uint64_t n) { return ntt_prime_u64(n) ? 1 : 0; }

static uint64_t gcd64(uint64_t a, uint64_t b)
{
    while (b) { uint64_t t = a % b; a = b; b = t; }
    return a;
}

/* Pollard-Brent rho: a non-trivial factor of the odd composite n. */
static uint64_t rho(uint64_t n)
{
    for (uint64_t c = 1;; c++) {
        uint64_t y = 2, x = 2, g = 1, q = 1, ys = 2;
        uint64_t r = 1;
        const uint64_t m = 128;
        do {
            x = y;
            for (uint64_t i = 0; i < r; i++) y = ntt_addmod(ntt_mulmod_slow(y, y, n), c, n);
            uint64_t k = 0;
            do {
                ys = y;
                for (uint64_t i = 0; i < m && i < r - k; i++) {
                    y = ntt_addmod(ntt_mulmod_slow(y, y, n), c, n);
                    q = ntt_mulmod_slow(q, x > y ? x - y : y - x, n);
                }
                g = gcd64(q, n);
                k += m;
            } while (k < r && g == 1);
            r <<= 1;
        } while (g == 1);
        if (g == n) {
            do {
                ys = ntt_addmod(ntt_mulmod_slow(ys, ys, n), c, n);
                g = gcd64(x > ys ? x - ys : ys - x, n);
            } while (g == 1);
        }
        if (g != n) return g;
    }
}

/* Distinct prime factors of n >= 1 into f (at most 15 exist below 2^64). */
static size_t factor_distinct(uint64_t n, uint64_t f[16])
{
    size_t cnt = 0;
    uint64_t stack[64];
    size_t sp = 0;
    for (uint64_t q = 2; q < 64 && n > 1; q++) {
        if (n % q == 0) {
            f[cnt++] = q;
            while (n % q == 0) n /= q;
        }
    }
    if (n > 1) stack[sp++] = n;
    while (sp) {
        uint64_t m = stack[--sp];
        if (m == 1) continue;
        if (ntt_prime_u64(m)) {
            bool seen = false;
            for (size_t i = 0; i < cnt; i++) seen |= f[i] == m;
            if (!seen && cnt < 16) f[cnt++] = m;
            continue;
        }
        uint64_t d = rho(m);
        stack[sp++] = d;
        stack[sp++] = m / d;
    }
    return cnt;
}

ntt_status ntt_primitive_root(uint64_t p, uint64_t *g)
{
    if (!g) return NTT_EINVAL;
    if (!ntt_prime_u64(p)) return NTT_EMODULUS;
    if (p == 2) { *g = 1; return NTT_OK; }
    uint64_t f[16];
    size_t nf = factor_distinct(p - 1, f);
    for (uint64_t c = 2; c < p; c++) {
        bool ok = true;
        for (size_t i = 0; i < nf && ok; i++) ok = ntt_powmod(c, (p - 1) / f[i], p) != 1;
        if (ok) { *g = c; return NTT_OK; }
    }
    return NTT_EMODULUS; /* unreachable for a prime */
}

ntt_status ntt_root_of_unity(uint64_t p, uint64_t order, uint64_t *w)
{
    if (!w || order == 0) return NTT_EINVAL;
    if (!ntt_prime_u64(p) || (p - 1) % order != 0) return NTT_EMODULUS;
    uint64_t g;
    ntt_status s = ntt_primitive_root(p, &g);
    if (s != NTT_OK) return s;
    *w = ntt_powmod(g, (p - 1) / order, p);
    return NTT_OK;
}

ntt_status ntt_find_prime(unsigned bits, unsigned log2_order, unsigned index, uint64_t *p)
{
    if (!p || bits < 2 || bits > 63 || log2_order >= bits) return NTT_EINVAL;
    const uint64_t step = (uint64_t)1 << log2_order;
    const uint64_t top = (uint64_t)1 << bits;
    /* Candidates c*step + 1 < 2^bits, from the largest down. */
    uint64_t c = (top - 2) / step;
    for (;; c--) {
        uint64_t q = c * step + 1;
        if (q >= 2 && ntt_prime_u64(q)) {
            if (index == 0) { *p = q; return NTT_OK; }
            index--;
        }
        if (c == 0) break;
    }
    return NTT_EINVAL;
}
