/*
 * test_prime: ntt_is_prime against a sieve and trial division and against
 * an independent Miller-Rabin (the first twelve prime bases) on random
 * 64-bit numbers; known primes, Carmichael numbers and strong pseudoprimes;
 * ntt_primitive_root (a generator, and the smallest one), ntt_root_of_unity
 * (exact order), ntt_find_prime (prime, bound, 2-power, descending, nothing
 * skipped, the CRT primes) and the error statuses.
 */
#include "ntt_internal.h" /* ntt_crt_primes */
#include "test_common.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#define SIEVE_N 100000
static unsigned char composite_tab[SIEVE_N];
static uint32_t small_primes[7000];
static size_t n_small_primes;

static void sieve(void)
{
    composite_tab[0] = composite_tab[1] = 1;
    for (size_t i = 2; i < SIEVE_N; i++) {
        if (composite_tab[i]) continue;
        if (i < 65536) small_primes[n_small_primes++] = (uint32_t)i;
        for (size_t j = i * i; j < SIEVE_N; j += i) composite_tab[j] = 1;
    }
}

/* Trial division, for n < 2^32 (small_primes covers sqrt(n) < 65536). */
static bool trial_prime32(uint64_t n)
{
    if (n < 2) return false;
    for (size_t i = 0; i < n_small_primes; i++) {
        uint64_t q = small_primes[i];
        if (q * q > n) break;
        if (n % q == 0) return n == q;
    }
    return true;
}

/* Independent Miller-Rabin: bases 2..37 are deterministic below 3.3e24. */
static bool mr_prime(uint64_t n)
{
    static const uint64_t bases[] = {2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37};
    if (n < 2) return false;
    for (size_t i = 0; i < 12; i++)
        if (n % bases[i] == 0) return n == bases[i];
    uint64_t d = n - 1;
    unsigned s = 0;
    while (!(d & 1)) d >>= 1, s++;
    for (size_t i = 0; i < 12; i++) {
        uint64_t x = t_powmod(bases[i], d, n);
        if (x == 1 || x == n - 1) continue;
        bool witness = true;
        for (unsigned r = 1; r < s && witness; r++) {
            x = t_mulmod(x, x, n);
            if (x == n - 1) witness = false;
        }
        if (witness) return false;
    }
    return true;
}

/* Distinct prime factors of m by trial division up to 2^20 and a prime
   cofactor; returns 0 when m has a composite cofactor beyond that. */
static size_t factor(uint64_t m, uint64_t f[64])
{
    size_t k = 0;
    for (uint64_t q = 2; q < ((uint64_t)1 << 20) && q * q <= m; q += q == 2 ? 1 : 2) {
        if (m % q == 0) {
            f[k++] = q;
            while (m % q == 0) m /= q;
        }
    }
    if (m > 1) {
        if (!mr_prime(m)) return 0;
        f[k++] = m;
    }
    return k;
}

/* ---- ntt_is_prime ------------------------------------------------------------ */

static void test_is_prime(void)
{
    for (uint64_t n = 0; n < SIEVE_N; n++)
        CHECK_EQ(composite_tab[n] ? 0 : 1, ntt_is_prime(n), "ntt_is_prime(%" PRIu64 ") vs sieve", n);

    for (int it = 0; it < 20000; it++) {
        uint64_t n = (uint32_t)rnd64();
        if (it % 4 == 0) n |= 1;
        if (it < 64) n = UINT32_MAX - (uint64_t)it;
        CHECK_EQ(trial_prime32(n) ? 1 : 0, ntt_is_prime(n), "ntt_is_prime(%" PRIu64 ") vs trial division", n);
    }

    for (int it = 0; it < 20000; it++) {
        uint64_t n = rnd64() >> rnd_below(30);
        n |= 1;
        if (it < 200) n = UINT64_MAX - 2 * (uint64_t)it;
        CHECK_EQ(mr_prime(n) ? 1 : 0, ntt_is_prime(n), "ntt_is_prime(%" PRIu64 ") vs Miller-Rabin bases 2..37", n);
    }

    /* Products of two random primes (semiprimes of every balance) and squares. */
    for (int it = 0; it < 300; it++) {
        unsigned b1 = 2 + (unsigned)rnd_below(31), b2 = 2 + (unsigned)rnd_below(62 - b1 + 1);
        if (b2 > 32) b2 = 32;
        uint64_t p, q;
        do p = rnd_range((uint64_t)1 << (b1 - 1), ((uint64_t)1 << b1) - 1);
        while (!mr_prime(p));
        do q = rnd_range((uint64_t)1 << (b2 - 1), ((uint64_t)1 << b2) - 1);
        while (!mr_prime(q));
        CHECK_EQ(1, ntt_is_prime(p), "ntt_is_prime(prime %" PRIu64 ")", p);
        CHECK_EQ(0, ntt_is_prime(p * q), "ntt_is_prime(%" PRIu64 " * %" PRIu64 ")", p, q);
        CHECK_EQ(0, ntt_is_prime(p * p), "ntt_is_prime(%" PRIu64 "^2)", p);
    }

    static const struct { uint64_t n; int prime; const char *what; } known[] = {
        {18446744073709551557ull, 1, "2^64 - 59"},
        {18446744073709551615ull, 0, "2^64 - 1"},
        {18446744073709551613ull, 0, "2^64 - 3"},
        {2305843009213693951ull, 1, "2^61 - 1"},
        {9223372036854775783ull, 1, "2^63 - 25"},
        {9223372036854775807ull, 0, "2^63 - 1"},
        {4611686018427387847ull, 1, "2^62 - 57"},
        {4611685941117976577ull, 1, "CRT prime 1"},
        {1337006139375617ull, 1, "19 2^46 + 1"},
        {998244353, 1, "998244353"},
        {4294967291ull, 1, "2^32 - 5"},
        {4294967297ull, 0, "F5 = 641 * 6700417"},
        {561, 0, "Carmichael 561"},
        {41041, 0, "Carmichael 41041"},
        {825265, 0, "Carmichael 825265"},
        {3215031751ull, 0, "Carmichael and spsp(2,3,5,7) 3215031751"},
        {2047, 0, "spsp(2) 2047"},
        {1373653, 0, "spsp(2,3) 1373653"},
        {25326001, 0, "spsp(2,3,5) 25326001"},
        {3825123056546413051ull, 0, "spsp(2..23) 3825123056546413051"},
        {2152302898747ull, 0, "spsp(2..11) 2152302898747"},
        {3474749660383ull, 0, "spsp(2..13) 3474749660383"},
        {341550071728321ull, 0, "spsp(2..17) 341550071728321"},
        {18446743979220271189ull, 0, "(2^32-5)(2^32-17)"},
        {18446744030759878681ull, 0, "(2^32-5)^2"},
        {0, 0, "0"},
        {1, 0, "1"},
        {2, 1, "2"},
        {3, 1, "3"},
        {4, 0, "4"},
        {37, 1, "37"},
        {41, 1, "41"},
        {1369, 0, "37^2"},
    };
    for (size_t i = 0; i < sizeof known / sizeof known[0]; i++)
        CHECK_EQ(known[i].prime, ntt_is_prime(known[i].n), "ntt_is_prime(%s = %" PRIu64 ")",
                 known[i].what, known[i].n);
}

/* ---- primitive roots and roots of unity ------------------------------------------ */

/* g generates (Z/p)^*: g^((p-1)/q) != 1 for every prime q | p-1. */
static bool is_generator(uint64_t g, uint64_t p, const uint64_t *f, size_t nf)
{
    if (g == 0 || g >= p) return false;
    for (size_t i = 0; i < nf; i++)
        if (t_powmod(g, (p - 1) / f[i], p) == 1) return false;
    return true;
}

static void check_primitive_root(uint64_t p, uint64_t expected /* 0: unknown */)
{
    uint64_t g = 12345, f[64];
    ntt_status s = ntt_primitive_root(p, &g);
    CHECK_STATUS(NTT_OK, s, "ntt_primitive_root(%" PRIu64 ")", p);
    if (s != NTT_OK) return;
    if (expected) CHECK_EQ(expected, g, "ntt_primitive_root(%" PRIu64 ")", p);
    if (p == 2) {
        CHECK_EQ(1, g, "ntt_primitive_root(2)");
        return;
    }
    size_t nf = factor(p - 1, f);
    if (nf == 0) {
        CHECK(0, "test cannot factor p-1 for p = %" PRIu64, p);
        return;
    }
    CHECK(is_generator(g, p, f, nf), "ntt_primitive_root(%" PRIu64 ") = %" PRIu64 " is not a generator", p, g);
    for (uint64_t c = 2; c < g && c < p; c++)
        CHECK(!is_generator(c, p, f, nf),
              "ntt_primitive_root(%" PRIu64 ") = %" PRIu64 " but %" PRIu64 " is a smaller generator", p, g, c);
}

/* w has multiplicative order exactly `order` mod p;
   f[0 .. nf) are the prime factors of p-1, so they include those of order. */
static bool exact_order(uint64_t w, uint64_t order, uint64_t p, const uint64_t *f, size_t nf)
{
    if (t_powmod(w, order, p) != 1) return false;
    for (size_t i = 0; i < nf; i++)
        if (order % f[i] == 0 && t_powmod(w, order / f[i], p) == 1) return false;
    return true;
}

static void check_roots_of_unity(uint64_t p)
{
    uint64_t g;
    if (ntt_primitive_root(p, &g) != NTT_OK) {
        CHECK(0, "ntt_primitive_root(%" PRIu64 ") failed", p);
        return;
    }
    uint64_t f[64];
    size_t nf = factor(p - 1, f);
    /* orders: 1, every power of two dividing p-1, each prime factor, p-1,
       and a few random divisors */
    uint64_t orders[128];
    size_t no = 0;
    orders[no++] = 1;
    orders[no++] = p - 1;
    for (uint64_t o = 2; (p - 1) % o == 0 && no < 80; o *= 2) orders[no++] = o;
    for (size_t i = 0; i < nf && no < 100; i++) orders[no++] = f[i];
    for (int k = 0; k < 10 && nf; k++) {
        uint64_t d = p - 1;
        for (size_t i = 0; i < nf; i++)
            if (rnd_below(2)) d /= f[i];
        orders[no++] = d;
    }
    for (size_t i = 0; i < no; i++) {
        uint64_t w = 0;
        ntt_status s = ntt_root_of_unity(p, orders[i], &w);
        CHECK_STATUS(NTT_OK, s, "ntt_root_of_unity(%" PRIu64 ", %" PRIu64 ")", p, orders[i]);
        if (s != NTT_OK) continue;
        CHECK(w < p, "ntt_root_of_unity(%" PRIu64 ", %" PRIu64 ") = %" PRIu64 " not < p", p, orders[i], w);
        CHECK(exact_order(w, orders[i], p, f, nf), "ntt_root_of_unity(%" PRIu64 ", %" PRIu64 ") = %" PRIu64 " has the wrong order",
              p, orders[i], w);
        CHECK_EQ(t_powmod(g, (p - 1) / orders[i], p), w, "ntt_root_of_unity(%" PRIu64 ", %" PRIu64 ") = g^((p-1)/order)",
                 p, orders[i]);
    }
}

static void test_roots(void)
{
    static const struct { uint64_t p, g; } named[] = {
        {2, 1}, {3, 2}, {5, 2}, {7, 3}, {23, 5}, {41, 6}, {7340033, 3}, {998244353, 3},
        {469762049, 3}, {104857601, 3}, {2305843009213693951ull, 37}, {1337006139375617ull, 3},
        {4611685941117976577ull, 3}, {9223372036854775783ull, 3}, {4611686018427387847ull, 6},
        {18446744073709551557ull, 2}, {1053818881, 0}, {4611686018427277313ull, 0},
    };
    for (size_t i = 0; i < sizeof named / sizeof named[0]; i++) {
        check_primitive_root(named[i].p, named[i].g);
        if (named[i].p > 2) check_roots_of_unity(named[i].p);
    }
    /* random primes of every size whose p-1 the test can factor */
    for (int it = 0; it < 60; it++) {
        unsigned bits = 3 + (unsigned)rnd_below(62);
        uint64_t lo = (uint64_t)1 << (bits - 1), hi = bits == 64 ? UINT64_MAX : ((uint64_t)1 << bits) - 1;
        uint64_t p, f[64];
        do p = rnd_range(lo, hi) | 1;
        while (!mr_prime(p) || factor(p - 1, f) == 0);
        check_primitive_root(p, 0);
        check_roots_of_unity(p);
    }

    /* errors */
    uint64_t g = 777;
    CHECK_STATUS(NTT_EINVAL, ntt_primitive_root(7, NULL), "ntt_primitive_root(7, NULL)");
    static const uint64_t composites[] = {0, 1, 4, 561, 3215031751ull, 18446744073709551615ull,
                                          3825123056546413051ull};
    for (size_t i = 0; i < sizeof composites / sizeof composites[0]; i++) {
        g = 777;
        CHECK_STATUS(NTT_EMODULUS, ntt_primitive_root(composites[i], &g), "ntt_primitive_root(%" PRIu64 ")", composites[i]);
        CHECK_EQ(777, g, "ntt_primitive_root(%" PRIu64 ") wrote its output on failure", composites[i]);
        g = 777;
        CHECK_STATUS(NTT_EMODULUS, ntt_root_of_unity(composites[i], 2, &g), "ntt_root_of_unity(%" PRIu64 ", 2)", composites[i]);
        CHECK_EQ(777, g, "ntt_root_of_unity(%" PRIu64 ", 2) wrote its output on failure", composites[i]);
    }
    CHECK_STATUS(NTT_EINVAL, ntt_root_of_unity(998244353, 2, NULL), "ntt_root_of_unity(.., NULL)");
    g = 777;
    CHECK_STATUS(NTT_EINVAL, ntt_root_of_unity(998244353, 0, &g), "ntt_root_of_unity(998244353, 0)");
    CHECK_EQ(777, g, "ntt_root_of_unity(998244353, 0) wrote its output");
    static const uint64_t bad_orders[] = {5, 1u << 24, 998244352 * 2ull, 998244354, 11, 998244351};
    for (size_t i = 0; i < sizeof bad_orders / sizeof bad_orders[0]; i++) {
        g = 777;
        CHECK_STATUS(NTT_EMODULUS, ntt_root_of_unity(998244353, bad_orders[i], &g),
                     "ntt_root_of_unity(998244353, %" PRIu64 ")", bad_orders[i]);
        CHECK_EQ(777, g, "ntt_root_of_unity(998244353, %" PRIu64 ") wrote its output", bad_orders[i]);
    }
    g = 777;
    CHECK_STATUS(NTT_EMODULUS, ntt_root_of_unity(7340033, (uint64_t)1 << 21, &g), "ntt_root_of_unity(7340033, 2^21)");
}

/* ---- ntt_find_prime ------------------------------------------------------------------ */

static void check_find_prime_sequence(unsigned bits, unsigned k, unsigned count)
{
    const uint64_t step = (uint64_t)1 << k;
    const uint64_t top = bits == 64 ? UINT64_MAX : ((uint64_t)1 << bits);
    uint64_t prev = 0;
    for (unsigned i = 0; i < count; i++) {
        uint64_t p = 0;
        ntt_status s = ntt_find_prime(bits, k, i, &p);
        const uint64_t upper0 = i == 0 ? top : prev; /* the next result lies below */
        if (s == NTT_EINVAL && (upper0 - 1) / step < 1000000) {
            /* Correct only when no prime of the form c 2^k + 1 is left. */
            for (uint64_t c = (upper0 - 2) / step + 1; c-- > 0;) {
                uint64_t q = c * step + 1;
                if (q < upper0 && mr_prime(q)) {
                    CHECK(0, "ntt_find_prime(%u, %u, %u) failed but %" PRIu64 " qualifies", bits, k, i, q);
                    break;
                }
            }
            CHECK_EQ(0, p, "ntt_find_prime(%u, %u, %u) wrote its output on failure", bits, k, i);
            return;
        }
        CHECK_STATUS(NTT_OK, s, "ntt_find_prime(%u, %u, %u)", bits, k, i);
        if (s != NTT_OK) return;
        CHECK(mr_prime(p), "ntt_find_prime(%u, %u, %u) = %" PRIu64 " is not prime", bits, k, i, p);
        CHECK(p < top, "ntt_find_prime(%u, %u, %u) = %" PRIu64 " not < 2^bits", bits, k, i, p);
        CHECK((p - 1) % step == 0, "ntt_find_prime(%u, %u, %u) = %" PRIu64 ": 2^k does not divide p-1", bits, k, i, p);
        if (i > 0) CHECK(p < prev, "ntt_find_prime(%u, %u, %u) = %" PRIu64 " not below index %u's %" PRIu64, bits, k, i, p, i - 1, prev);
        /* Nothing skipped: every candidate c 2^k + 1 strictly between this
           result and the previous one (or 2^bits) is composite. */
        uint64_t upper = i == 0 ? top : prev;
        if (p < upper && (upper - p) / step < 20000) {
            for (uint64_t q = p + step; q < upper && q > p; q += step)
                CHECK(!mr_prime(q), "ntt_find_prime(%u, %u, %u) = %" PRIu64 " skipped the prime %" PRIu64, bits, k, i, p, q);
        }
        prev = p;
    }
}

static void test_find_prime(void)
{
    for (unsigned i = 0; i < 3; i++) {
        uint64_t p = 0;
        CHECK_STATUS(NTT_OK, ntt_find_prime(62, 32, i, &p), "ntt_find_prime(62, 32, %u)", i);
        CHECK_EQ(ntt_crt_primes[i], p, "ntt_find_prime(62, 32, %u) vs ntt_crt_primes[%u]", i, i);
    }
    CHECK_EQ(4611685941117976577ull, ntt_crt_primes[0], "ntt_crt_primes[0]");
    CHECK_EQ(4611685692009873409ull, ntt_crt_primes[1], "ntt_crt_primes[1]");
    CHECK_EQ(4611685606110527489ull, ntt_crt_primes[2], "ntt_crt_primes[2]");

    uint64_t p = 0;
    CHECK_STATUS(NTT_OK, ntt_find_prime(30, 20, 0, &p), "ntt_find_prime(30, 20, 0)");
    CHECK_EQ(1053818881, p, "ntt_find_prime(30, 20, 0)");
    CHECK_STATUS(NTT_OK, ntt_find_prime(30, 23, 0, &p), "ntt_find_prime(30, 23, 0)");
    CHECK_EQ(998244353, p, "ntt_find_prime(30, 23, 0)");
    CHECK_STATUS(NTT_OK, ntt_find_prime(30, 26, 0, &p), "ntt_find_prime(30, 26, 0)");
    CHECK_EQ(469762049, p, "ntt_find_prime(30, 26, 0)");
    CHECK_STATUS(NTT_OK, ntt_find_prime(23, 20, 0, &p), "ntt_find_prime(23, 20, 0)");
    CHECK_EQ(7340033, p, "ntt_find_prime(23, 20, 0)");
    CHECK_STATUS(NTT_OK, ntt_find_prime(64 - 1, 0, 0, &p), "ntt_find_prime(63, 0, 0)");
    CHECK_EQ(9223372036854775783ull, p, "ntt_find_prime(63, 0, 0): the largest prime below 2^63");
    CHECK_STATUS(NTT_OK, ntt_find_prime(62, 0, 0, &p), "ntt_find_prime(62, 0, 0)");
    CHECK_EQ(4611686018427387847ull, p, "ntt_find_prime(62, 0, 0)");
    CHECK_STATUS(NTT_OK, ntt_find_prime(2, 0, 0, &p), "ntt_find_prime(2, 0, 0)");
    CHECK_EQ(3, p, "ntt_find_prime(2, 0, 0)");
    CHECK_STATUS(NTT_OK, ntt_find_prime(2, 0, 1, &p), "ntt_find_prime(2, 0, 1)");
    CHECK_EQ(2, p, "ntt_find_prime(2, 0, 1)");
    CHECK_STATUS(NTT_OK, ntt_find_prime(2, 1, 0, &p), "ntt_find_prime(2, 1, 0)");
    CHECK_EQ(3, p, "ntt_find_prime(2, 1, 0)");

    check_find_prime_sequence(62, 32, 4);
    check_find_prime_sequence(30, 20, 6);
    check_find_prime_sequence(63, 40, 3);
    check_find_prime_sequence(20, 10, 20);
    check_find_prime_sequence(12, 2, 40);
    check_find_prime_sequence(8, 0, 54);  /* all 54 primes below 256 */
    for (int it = 0; it < 30; it++) {
        unsigned bits = 2 + (unsigned)rnd_below(62);
        unsigned k = (unsigned)rnd_below(bits < 40 ? bits - 1 : 38);
        check_find_prime_sequence(bits, k, 1 + (unsigned)rnd_below(4));
    }
    /* below 16 with k = 0, exhaustively against the sieve */
    {
        unsigned idx = 0;
        for (uint64_t q = 15; q >= 2; q--) {
            if (composite_tab[q]) continue;
            CHECK_STATUS(NTT_OK, ntt_find_prime(4, 0, idx, &p), "ntt_find_prime(4, 0, %u)", idx);
            CHECK_EQ(q, p, "ntt_find_prime(4, 0, %u)", idx);
            idx++;
        }
        p = 999;
        CHECK_STATUS(NTT_EINVAL, ntt_find_prime(4, 0, idx, &p), "ntt_find_prime(4, 0, %u): only %u primes", idx, idx);
        CHECK_EQ(999, p, "ntt_find_prime failure wrote its output");
    }

    /* errors */
    struct { unsigned bits, k, i; } bad[] = {
        {0, 0, 0}, {1, 0, 0}, {64, 10, 0}, {65, 0, 0}, {10, 10, 0}, {10, 11, 0},
        {63, 62, 0} /* 2^62+1 = 5 * ...: no such prime */, {3, 1, 3} /* only 7, 5, 3 */,
        {2, 1, 1} /* only 3 */, {2, 0, 2},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        p = 999;
        CHECK_STATUS(NTT_EINVAL, ntt_find_prime(bad[i].bits, bad[i].k, bad[i].i, &p), "ntt_find_prime(%u, %u, %u)",
                     bad[i].bits, bad[i].k, bad[i].i);
        CHECK_EQ(999, p, "ntt_find_prime(%u, %u, %u) wrote its output on failure", bad[i].bits, bad[i].k, bad[i].i);
    }
    CHECK_STATUS(NTT_EINVAL, ntt_find_prime(30, 20, 0, NULL), "ntt_find_prime(.., NULL)");
}

int main(void)
{
    test_init("test_prime");
    sieve();
    test_is_prime();
    test_roots();
    test_find_prime();
    return test_finish();
}
