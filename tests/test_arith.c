/*
 * test_arith: every function of the arithmetic layer (src/arith/modarith.h)
 * against unsigned __int128 '%', on random inputs spanning each function's
 * documented input range, with the documented output ranges asserted, and
 * on the edges (0, p-1, 2p-1, 4p-1, moduli next to 2^30, 2^62, 2^63).
 */
#include "test_common.h"

#include "../src/arith/modarith.h"
#include "../src/core/internal.h"

#include <inttypes.h>

#define ITERS 200000

/* Edge moduli of each documented range (primes and a few composites). */
static const uint64_t P32[] = {3, 5, 7, 17, 7340033, 998244353, 469762049,
                               1073741789 /* largest prime < 2^30 */,
                               1073741823 /* 2^30 - 1, odd composite */,
                               1053818881};
static const uint64_t P62[] = {3, 1337006139375617ull, 4611685941117976577ull,
                               4611686018427387847ull /* largest prime < 2^62 */,
                               4611686018427387903ull /* 2^62 - 1, composite */,
                               2305843009213693951ull /* 2^61 - 1 */};
static const uint64_t P63[] = {3, 4611686018427387847ull, 9223372036854775783ull /* 2^63 - 25 */,
                               9223372036854775807ull /* 2^63 - 1 */,
                               9223372036854775805ull, 4611686018427387905ull};

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

/* A random modulus in [lo, hi], sometimes forced odd, often from the edge list,
   with a random bit length so small ones appear too. */
static uint64_t pick_mod(const uint64_t *edges, size_t ne, uint64_t lo, uint64_t hi, bool odd)
{
    uint64_t p;
    do {
        unsigned r = (unsigned)rnd_below(4);
        if (r == 0) {
            p = edges[rnd_below(ne)];
        } else {
            unsigned hb = 63 - (unsigned)__builtin_clzll(hi);
            unsigned b = 1 + (unsigned)rnd_below(hb);
            uint64_t top = b >= 63 ? hi : ((uint64_t)1 << (b + 1)) - 1;
            if (top > hi) top = hi;
            uint64_t bot = (uint64_t)1 << b;
            if (bot < lo) bot = lo;
            if (bot > top) bot = lo;
            p = rnd_range(bot, top);
            if (r == 3) {
                uint64_t d = rnd_below(64);
                p = hi - d < lo ? lo : hi - d;
            }
        }
        if (odd) p |= 1;
    } while (p < lo || p > hi);
    return p;
}

/* A value in [0, bound) that is an edge (0, 1, bound-1, ...) a quarter of
   the time. */
static uint64_t pick_val(uint64_t bound, uint64_t p)
{
    switch (rnd_below(8)) {
    case 0: return 0;
    case 1: return bound - 1;
    case 2: return p - 1 < bound ? p - 1 : bound - 1;
    case 3: return bound - 1 - rnd_below(bound < 8 ? bound : 8);
    default: return rnd_below(bound);
    }
}

/* ---- csub ---------------------------------------------------------------------- */

static void test_csub(void)
{
    for (int it = 0; it < ITERS; it++) {
        /* 32-bit: m <= 2^31, x in [0, 2m) */
        uint32_t m = (uint32_t)rnd_range(1, (uint64_t)1 << 31);
        if (it < 4) m = it == 0 ? 1u : it == 1 ? (1u << 31) : it == 2 ? (1u << 31) - 1 : 2;
        uint32_t x = (uint32_t)pick_val(2 * (uint64_t)m, m);
        if (it % 5 == 1) x = m;
        uint32_t r = ntt_csub32(x, m);
        CHECK_EQ(x % m, r, "ntt_csub32(%" PRIu32 ", %" PRIu32 ")", x, m);

        uint64_t m64 = rnd_range(1, (uint64_t)1 << 63);
        if (it < 4)
            m64 = it == 0 ? 1 : it == 1 ? ((uint64_t)1 << 63) : it == 2 ? ((uint64_t)1 << 63) - 1 : 2;
        uint64_t x64 = (uint64_t)((tu128)rnd64() * (2 * (tu128)m64) >> 64);
        if (it % 7 == 0) x64 = 2 * m64 - 1;
        if (it % 7 == 1) x64 = m64;
        if (it % 7 == 2) x64 = m64 - 1;
        if (it % 7 == 3) x64 = 0;
        uint64_t r64 = ntt_csub64(x64, m64);
        CHECK_EQ(x64 % m64, r64, "ntt_csub64(%" PRIu64 ", %" PRIu64 ")", x64, m64);
    }
}

/* ---- small helpers ---------------------------------------------------------------- */

static void test_helpers(void)
{
    for (int it = 0; it < ITERS; it++) {
        uint64_t a = rnd64(), b = rnd64();
        if (it == 0) a = b = UINT64_MAX;
        CHECK_EQ((uint64_t)(((tu128)a * b) >> 64), ntt_mulhi64(a, b), "ntt_mulhi64(%" PRIu64 ", %" PRIu64 ")", a, b);
        uint32_t a32 = (uint32_t)a, b32 = (uint32_t)b;
        if (it == 2) a32 = b32 = UINT32_MAX;
        if (it == 3) a32 = 0;
        CHECK_EQ(((uint64_t)a32 * b32) >> 32, ntt_mulhi32(a32, b32),
                 "ntt_mulhi32(%" PRIu32 ", %" PRIu32 ")", a32, b32);
        uint32_t p32 = (uint32_t)rnd_range(1, UINT32_MAX);
        if (it == 4) p32 = UINT32_MAX;
        if (it == 5) p32 = 1;
        CHECK_EQ((uint64_t)a32 * b32 % p32, ntt_mulmod_slow32(a32, b32, p32),
                 "ntt_mulmod_slow32(%" PRIu32 ", %" PRIu32 ", %" PRIu32 ")", a32, b32, p32);
        uint64_t p = rnd_range(1, UINT64_MAX);
        if (it == 1) p = UINT64_MAX;
        CHECK_EQ((uint64_t)(((tu128)a * b) % p), ntt_mulmod_slow(a, b, p),
                 "ntt_mulmod_slow(%" PRIu64 ", %" PRIu64 ", %" PRIu64 ")", a, b, p);
        uint64_t q = pick_mod(P63, COUNT(P63), 1, ((uint64_t)1 << 63) - 1, false);
        uint64_t x = pick_val(q, q), y = pick_val(q, q);
        uint64_t s = ntt_addmod(x, y, q), d = ntt_submod(x, y, q);
        CHECK_EQ((uint64_t)(((tu128)x + y) % q), s, "ntt_addmod(%" PRIu64 ", %" PRIu64 ", %" PRIu64 ")", x, y, q);
        CHECK_EQ((uint64_t)(((tu128)x + q - y) % q), d, "ntt_submod(%" PRIu64 ", %" PRIu64 ", %" PRIu64 ")", x, y, q);
    }
}

/* ---- Shoup ------------------------------------------------------------------------ */

static void test_shoup(void)
{
    for (int it = 0; it < ITERS; it++) {
        /* 32-bit: p < 2^31 for the companion, r in [0, 2p) */
        uint32_t p = (uint32_t)pick_mod(P32, COUNT(P32), 2, ((uint64_t)1 << 31) - 1, false);
        uint32_t w = (uint32_t)pick_val(p, p);
        uint32_t wq = ntt_shoup_pre32(w, p);
        CHECK_EQ((uint64_t)(((uint64_t)w << 32) / p), wq, "ntt_shoup_pre32(w=%" PRIu32 ", p=%" PRIu32 ")", w, p);
        uint32_t y = (uint32_t)rnd64();
        if (it % 6 == 0) y = UINT32_MAX;
        if (it % 6 == 1) y = 4 * p - 1 < (uint64_t)UINT32_MAX ? 4 * p - 1 : UINT32_MAX;
        if (it % 6 == 2) y = 0;
        uint32_t r = ntt_shoup32(y, w, wq, p);
        CHECK(r < 2 * (uint64_t)p, "ntt_shoup32(y=%" PRIu32 ", w=%" PRIu32 ", p=%" PRIu32 ") = %" PRIu32 " not < 2p", y, w, p, r);
        CHECK_EQ((uint64_t)y * w % p, r % p, "ntt_shoup32(y=%" PRIu32 ", w=%" PRIu32 ", p=%" PRIu32 ") mod p", y, w, p);

        /* 64-bit: any p < 2^63 */
        uint64_t P = pick_mod(P63, COUNT(P63), 2, ((uint64_t)1 << 63) - 1, false);
        uint64_t W = pick_val(P, P);
        uint64_t WQ = ntt_shoup_pre64(W, P);
        CHECK_EQ((uint64_t)(((tu128)W << 64) / P), WQ, "ntt_shoup_pre64(w=%" PRIu64 ", p=%" PRIu64 ")", W, P);
        uint64_t Y = rnd64();
        if (it % 6 == 0) Y = UINT64_MAX;
        if (it % 6 == 1) Y = P - 1;
        if (it % 6 == 2) Y = 0;
        if (it % 6 == 3) Y = 2 * P - 1;
        uint64_t R = ntt_shoup64(Y, W, WQ, P);
        CHECK(R < 2 * P, "ntt_shoup64(y=%" PRIu64 ", w=%" PRIu64 ", p=%" PRIu64 ") = %" PRIu64 " not < 2p", Y, W, P, R);
        CHECK_EQ((uint64_t)((tu128)Y * W % P), R % P, "ntt_shoup64(y=%" PRIu64 ", w=%" PRIu64 ", p=%" PRIu64 ") mod p", Y, W, P);
        CHECK_EQ(R, ntt_shoup64_np(Y, W, WQ, (uint64_t)0 - P),
                 "ntt_shoup64_np(y=%" PRIu64 ", w=%" PRIu64 ", p=%" PRIu64 ") != ntt_shoup64", Y, W, P);

        /* 52-bit companion: w < p < 2^52, floor(w 2^52 / p) from the 64-bit one */
        uint64_t P52 = pick_mod(P62, COUNT(P62), 2, ((uint64_t)1 << 52) - 1, false);
        if (it % 11 == 0) P52 = ((uint64_t)1 << 52) - 1 - rnd_below(64);
        uint64_t W52 = pick_val(P52, P52);
        CHECK_EQ((uint64_t)(((tu128)W52 << 52) / P52), ntt_shoup_pre52(ntt_shoup_pre64(W52, P52)),
                 "ntt_shoup_pre52(w=%" PRIu64 ", p=%" PRIu64 ")", W52, P52);

        /* fast companions: 2 < p < 2^63 */
        uint64_t F = pick_mod(P63, COUNT(P63), 3, ((uint64_t)1 << 63) - 1, it % 2 == 0);
        if (it % 97 == 5) F = (uint64_t)1 << (2 + rnd_below(61)); /* powers of two too */
        ntt_shoup_ctx ctx;
        ntt_shoup_ctx_init(&ctx, F);
        for (int k = 0; k < 4; k++) {
            uint64_t v = k == 0 ? 0 : k == 1 ? F - 1 : k == 2 ? 1 : rnd_below(F);
            uint64_t fast = ntt_shoup_pre_fast(&ctx, v);
            CHECK_EQ(ntt_shoup_pre64(v, F), fast, "ntt_shoup_pre_fast(w=%" PRIu64 ", p=%" PRIu64 ")", v, F);
            CHECK_EQ((uint64_t)(((tu128)v << 64) / F), fast, "ntt_shoup_pre_fast vs 128-bit division (w=%" PRIu64 ", p=%" PRIu64 ")", v, F);
        }
    }
}

/* ---- Montgomery --------------------------------------------------------------------- */

static void test_montgomery(void)
{
    for (int it = 0; it < ITERS; it++) {
        /* 32-bit: odd p < 2^30; a < 4p, b < p; REDC(T) for T < p 2^32 */
        uint32_t p = (uint32_t)pick_mod(P32, COUNT(P32), 3, ((uint64_t)1 << 30) - 1, true);
        uint32_t pinv = ntt_mont_pinv32(p);
        CHECK_EQ(UINT32_MAX, (uint32_t)(p * pinv), "ntt_mont_pinv32(%" PRIu32 "): p*pinv != -1 mod 2^32", p);
        uint32_t a = (uint32_t)pick_val(4 * (uint64_t)p, p), b = (uint32_t)pick_val(p, p);
        if (it % 9 == 0) a = 4 * p - 1, b = p - 1;
        uint32_t r = ntt_mont32(a, b, p, pinv);
        CHECK(r < 2 * (uint64_t)p, "ntt_mont32(%" PRIu32 ", %" PRIu32 ", p=%" PRIu32 ") = %" PRIu32 " not < 2p", a, b, p, r);
        CHECK_EQ((uint64_t)a * b % p, ((uint64_t)r << 32) % p, "ntt_mont32(%" PRIu32 ", %" PRIu32 ", p=%" PRIu32 ") * 2^32 mod p", a, b, p);
        uint64_t t = (uint64_t)((tu128)rnd64() * ((uint64_t)p << 32) >> 64); /* [0, p 2^32) */
        if (it % 9 == 1) t = ((uint64_t)p << 32) - 1;
        if (it % 9 == 2) t = 0;
        uint32_t rr = ntt_redc32(t, p, pinv);
        CHECK(rr < 2 * (uint64_t)p, "ntt_redc32(%" PRIu64 ", p=%" PRIu32 ") = %" PRIu32 " not < 2p", t, p, rr);
        CHECK_EQ(t % p, ((uint64_t)rr << 32) % p, "ntt_redc32(%" PRIu64 ", p=%" PRIu32 ") * 2^32 mod p", t, p);

        /* 64-bit: odd p < 2^62 for mont64 (a < 4p, b < p) */
        uint64_t P = pick_mod(P62, COUNT(P62), 3, ((uint64_t)1 << 62) - 1, true);
        uint64_t PI = ntt_mont_pinv64(P);
        CHECK_EQ(UINT64_MAX, P * PI, "ntt_mont_pinv64(%" PRIu64 "): p*pinv != -1 mod 2^64", P);
        CHECK_EQ(NTT_MASK52, (P * ntt_mont_pinv52(P)) & NTT_MASK52,
                 "ntt_mont_pinv52(%" PRIu64 "): p*pinv != -1 mod 2^52", P);
        CHECK(ntt_mont_pinv52(P) <= NTT_MASK52, "ntt_mont_pinv52(%" PRIu64 ") not below 2^52", P);
        const uint64_t r64 = (uint64_t)(((tu128)1 << 64) % P);
        uint64_t A = pick_val(4 * P, P), B = pick_val(P, P);
        if (it % 9 == 0) A = 4 * P - 1, B = P - 1;
        uint64_t R = ntt_mont64(A, B, P, PI);
        CHECK(R < 2 * P, "ntt_mont64(%" PRIu64 ", %" PRIu64 ", p=%" PRIu64 ") = %" PRIu64 " not < 2p", A, B, P, R);
        CHECK_EQ((uint64_t)((tu128)A * B % P), (uint64_t)((tu128)R * r64 % P),
                 "ntt_mont64(%" PRIu64 ", %" PRIu64 ", p=%" PRIu64 ") * 2^64 mod p", A, B, P);

        /* to the form and back: a R = mont(a, R^2 mod p), a = redc(a R) */
        const uint64_t r2 = (uint64_t)((tu128)r64 * r64 % P);
        const uint64_t a0 = pick_val(P, P);
        const uint64_t am = ntt_mont64(a0, r2, P, PI);
        CHECK_EQ((uint64_t)((tu128)a0 * r64 % P), am % P, "ntt_mont64 to form (a=%" PRIu64 ", p=%" PRIu64 ")", a0, P);
        CHECK_EQ(a0, ntt_csub64(ntt_redc64(am, P, PI), P), "ntt_redc64 from form (a=%" PRIu64 ", p=%" PRIu64 ")", a0, P);
        const uint32_t r32 = (uint32_t)(((uint64_t)1 << 32) % p), r2_32 = (uint32_t)((uint64_t)r32 * r32 % p);
        const uint32_t b0 = (uint32_t)pick_val(p, p);
        const uint32_t bm = ntt_mont32(b0, r2_32, p, pinv);
        CHECK_EQ((uint64_t)b0 * r32 % p, bm % p, "ntt_mont32 to form (a=%" PRIu32 ", p=%" PRIu32 ")", b0, p);
        CHECK_EQ(b0, ntt_csub32(ntt_redc32(bm, p, pinv), p), "ntt_redc32 from form (a=%" PRIu32 ", p=%" PRIu32 ")", b0, p);

        /* REDC64: odd p < 2^63, T < p 2^64 */
        uint64_t Q = pick_mod(P63, COUNT(P63), 3, ((uint64_t)1 << 63) - 1, true);
        uint64_t QI = ntt_mont_pinv64(Q);
        const uint64_t q64 = (uint64_t)(((tu128)1 << 64) % Q);
        tu128 T = ((tu128)rnd_below(Q) << 64) | rnd64();
        if (it % 9 == 1) T = ((tu128)Q << 64) - 1;
        if (it % 9 == 2) T = 0;
        uint64_t RR = ntt_redc64(T, Q, QI);
        CHECK(RR < 2 * Q, "ntt_redc64(T, p=%" PRIu64 ") = %" PRIu64 " not < 2p", Q, RR);
        CHECK_EQ((uint64_t)(T % Q), (uint64_t)((tu128)RR * q64 % Q),
                 "ntt_redc64(T=%" PRIu64 ":%" PRIu64 ", p=%" PRIu64 ") * 2^64 mod p",
                 (uint64_t)(T >> 64), (uint64_t)T, Q);
    }
}

/* ---- signed Montgomery (the GPU kernels' form) -------------------------------------------- */

static void test_smont(void)
{
    for (int it = 0; it < ITERS; it++) {
        /* 32-bit: odd p < 2^30, pinv = p^-1 mod 2^32; a < p, b < 4p (a b < p 2^32).
           t in (-p, p) wrapped: t + p in (0, 2p), congruent to a b 2^-32. */
        uint32_t p = (uint32_t)pick_mod(P32, COUNT(P32), 3, ((uint64_t)1 << 30) - 1, true);
        uint32_t pinv = 0u - ntt_mont_pinv32(p);
        const uint64_t r32 = ((uint64_t)1 << 32) % p;
        uint32_t a = (uint32_t)pick_val(p, p), b = (uint32_t)pick_val(4 * (uint64_t)p, p);
        if (it % 9 == 0) a = p - 1, b = 4 * p - 1;
        uint32_t r = ntt_smont_t32(a, b, p, pinv) + p;
        CHECK(r > 0 && r < 2 * (uint64_t)p, "ntt_smont_t32(%" PRIu32 ", %" PRIu32 ", p=%" PRIu32 ") + p = %" PRIu32 " not in (0, 2p)", a, b, p, r);
        CHECK_EQ((uint64_t)a * b % p, r * r32 % p, "ntt_smont_t32(%" PRIu32 ", %" PRIu32 ", p=%" PRIu32 ") R mod p", a, b, p);
        /* fixed w: W = w R mod p, W' = W pinv; any y < 2^32 */
        uint32_t w = (uint32_t)pick_val(p, p), y = (uint32_t)rnd64();
        if (it % 5 == 0) y = UINT32_MAX;
        if (it % 5 == 1) y = 0;
        uint32_t W = (uint32_t)((uint64_t)w * r32 % p);
        uint32_t rw = ntt_smont_w_t32(y, W, W * pinv, p) + p;
        CHECK(rw > 0 && rw < 2 * (uint64_t)p, "ntt_smont_w_t32(y=%" PRIu32 ", w=%" PRIu32 ", p=%" PRIu32 ") + p = %" PRIu32 " not in (0, 2p)", y, w, p, rw);
        CHECK_EQ((uint64_t)y * w % p, rw % p, "ntt_smont_w_t32(y=%" PRIu32 ", w=%" PRIu32 ", p=%" PRIu32 ")", y, w, p);

        /* 64-bit: odd p < 2^62 */
        uint64_t P = pick_mod(P62, COUNT(P62), 3, ((uint64_t)1 << 62) - 1, true);
        uint64_t PI = 0 - ntt_mont_pinv64(P);
        const uint64_t r64 = (uint64_t)(((tu128)1 << 64) % P);
        uint64_t A = pick_val(P, P), B = pick_val(4 * P, P);
        if (it % 9 == 0) A = P - 1, B = 4 * P - 1;
        uint64_t R = ntt_smont_t64(A, B, P, PI) + P;
        CHECK(R > 0 && R < 2 * P, "ntt_smont_t64(%" PRIu64 ", %" PRIu64 ", p=%" PRIu64 ") + p = %" PRIu64 " not in (0, 2p)", A, B, P, R);
        CHECK_EQ((uint64_t)((tu128)A * B % P), (uint64_t)((tu128)R * r64 % P), "ntt_smont_t64(%" PRIu64 ", %" PRIu64 ", p=%" PRIu64 ") R mod p", A, B, P);
        uint64_t w64 = pick_val(P, P), Y = rnd64();
        if (it % 5 == 0) Y = UINT64_MAX;
        if (it % 5 == 1) Y = 0;
        uint64_t W64 = (uint64_t)((tu128)w64 * r64 % P);
        uint64_t RW = ntt_smont_w_t64(Y, W64, W64 * PI, P) + P;
        CHECK(RW > 0 && RW < 2 * P, "ntt_smont_w_t64(y=%" PRIu64 ", w=%" PRIu64 ", p=%" PRIu64 ") + p = %" PRIu64 " not in (0, 2p)", Y, w64, P, RW);
        CHECK_EQ((uint64_t)((tu128)Y * w64 % P), RW % P, "ntt_smont_w_t64(y=%" PRIu64 ", w=%" PRIu64 ", p=%" PRIu64 ")", Y, w64, P);
    }
}

/* ---- Barrett -------------------------------------------------------------------------- */

static unsigned bitlen(uint64_t x) { return x ? 64 - (unsigned)__builtin_clzll(x) : 0; }

static void test_barrett(void)
{
    for (int it = 0; it < ITERS; it++) {
        /* 32-bit: mu = floor(2^64 / p); any x < 2^64 -> [0, 2p) */
        uint32_t p = (uint32_t)pick_mod(P32, COUNT(P32), 2, ((uint64_t)1 << 30) - 1, false);
        const uint64_t mu_exact = (uint64_t)(((tu128)1 << 64) / p);
        const uint64_t mu_lib = UINT64_MAX / p; /* what the plans store */
        uint64_t x = rnd64();
        switch (it % 8) {
        case 0: x = UINT64_MAX; break;
        case 1: x = 0; break;
        case 2: x = (uint64_t)(p - 1) * (p - 1); break;
        case 3: x = 16 * (uint64_t)p * p - 1; break;
        case 4: x = (uint64_t)p * rnd_below(((uint64_t)1 << 33)); break;
        case 5: x = (uint64_t)p * rnd_below(((uint64_t)1 << 33)) + p - 1; break;
        default: break;
        }
        for (int v = 0; v < 2; v++) {
            uint64_t mu = v ? mu_lib : mu_exact;
            uint32_t r = ntt_barrett32(x, mu, p);
            CHECK(r < 2 * (uint64_t)p, "ntt_barrett32(%" PRIu64 ", mu=%" PRIu64 ", p=%" PRIu32 ") = %" PRIu32 " not < 2p", x, mu, p, r);
            CHECK_EQ(x % p, r % p, "ntt_barrett32(%" PRIu64 ", mu=%" PRIu64 ", p=%" PRIu32 ") mod p", x, mu, p);
        }

        /* one word: 1 < p < 2^63, mu = floor(2^64 / p); any x < 2^64 -> [0, 2p) */
        uint64_t pw = pick_mod(P63, COUNT(P63), 2, ((uint64_t)1 << 63) - 1, false);
        uint64_t muw = (uint64_t)(((tu128)1 << 64) / pw), xw = rnd64();
        if (it % 8 == 0) xw = UINT64_MAX;
        if (it % 8 == 1) xw = 0;
        if (it % 8 == 2) xw = pw - 1;
        if (it % 8 == 3) xw = pw * (UINT64_MAX / pw) - 1;
        uint64_t rw = ntt_barrett_w64(xw, muw, pw);
        CHECK(rw < 2 * pw, "ntt_barrett_w64(%" PRIu64 ", p=%" PRIu64 ") = %" PRIu64 " not < 2p", xw, pw, rw);
        CHECK_EQ(xw % pw, rw % pw, "ntt_barrett_w64(%" PRIu64 ", p=%" PRIu64 ") mod p", xw, pw);

        /* 64-bit: p < 2^62, k = bit length, mu = floor(2^(2k)/p), x < p^2 -> [0, 3p) */
        uint64_t P = pick_mod(P62, COUNT(P62), 2, ((uint64_t)1 << 62) - 1, false);
        unsigned k = bitlen(P);
        uint64_t MU = (uint64_t)(((tu128)1 << (2 * k)) / P);
        const tu128 sq = (tu128)P * P;
        tu128 X = (((tu128)rnd64() << 64) | rnd64()) % sq;
        switch (it % 6) {
        case 0: X = sq - 1; break;
        case 1: X = 0; break;
        case 2: X = (tu128)(P - 1) * (P - 1); break;
        case 3: X = (tu128)P * rnd_below(P); break;
        case 4: X = (tu128)P * rnd_below(P) + (P - 1); break;
        default: break;
        }
        uint64_t R = ntt_barrett64(X, MU, k, P);
        CHECK(R < 3 * P, "ntt_barrett64(x, p=%" PRIu64 ") = %" PRIu64 " not < 3p", P, R);
        CHECK_EQ((uint64_t)(X % P), R % P, "ntt_barrett64(x=%" PRIu64 ":%" PRIu64 ", p=%" PRIu64 ") mod p",
                 (uint64_t)(X >> 64), (uint64_t)X, P);
    }
}

/* ---- powmod / invmod -------------------------------------------------------------------- */

static uint64_t gcd64(uint64_t a, uint64_t b)
{
    while (b) {
        uint64_t t = a % b;
        a = b;
        b = t;
    }
    return a;
}

static void test_powmod_invmod(void)
{
    CHECK_EQ(0, ntt_powmod(5, 3, 1), "ntt_powmod(5, 3, 1)");
    CHECK_EQ(0, ntt_powmod(0, 0, 1), "ntt_powmod(0, 0, 1)");
    CHECK_EQ(1, ntt_powmod(0, 0, 7), "ntt_powmod(0, 0, 7)");
    CHECK_EQ(0, ntt_powmod(0, 5, 7), "ntt_powmod(0, 5, 7)");
    CHECK_EQ(1, ntt_powmod(3, 998244352, 998244353), "Fermat 998244353");
    CHECK_EQ(UINT64_MAX - 1, ntt_powmod(UINT64_MAX - 1, 1, UINT64_MAX), "ntt_powmod(2^64-2, 1, 2^64-1)");
    CHECK_EQ(1, ntt_powmod(2, 18446744073709551556ull, 18446744073709551557ull), "Fermat 2^64-59");
    for (int it = 0; it < ITERS / 4; it++) {
        uint64_t p = it % 3 == 0 ? rnd_range(1, UINT64_MAX)
                                 : pick_mod(P63, COUNT(P63), 1, UINT64_MAX, false);
        uint64_t a = rnd64(), e = rnd64();
        if (it % 5 == 0) e = rnd_below(4);
        CHECK_EQ(t_powmod(a, e, p), ntt_powmod(a, e, p),
                 "ntt_powmod(%" PRIu64 ", %" PRIu64 ", %" PRIu64 ")", a, e, p);

        /* invmod: p > 1, gcd(a, p) == 1, any 64-bit p */
        uint64_t q = it % 4 == 0 ? UINT64_MAX - rnd_below(100) : rnd_range(2, UINT64_MAX);
        uint64_t x;
        do x = rnd64() % q;
        while (gcd64(x, q) != 1);
        if (it == 0) x = 1;
        if (it == 1) x = q - 1;
        uint64_t inv = ntt_invmod(x, q);
        CHECK(inv < q, "ntt_invmod(%" PRIu64 ", %" PRIu64 ") = %" PRIu64 " not < p", x, q, inv);
        CHECK_EQ(1 % q, t_mulmod(x, inv, q), "ntt_invmod(%" PRIu64 ", %" PRIu64 ") = %" PRIu64 ": a*inv", x, q, inv);
        /* a >= p is reduced first */
        if (x + q > x) {
            uint64_t inv2 = ntt_invmod(x + q, q);
            CHECK_EQ(inv, inv2, "ntt_invmod(a + p, p) for a=%" PRIu64 ", p=%" PRIu64, x, q);
        }
    }
}

/* The input range checks, portable and dispatched (AVX-512 or AVX2 where
   the CPU has it), on lengths around their blocks (4096, 8192, 16384
   values) and vectors, with one value >= p planted at the edges and
   inside. */
static void test_any_geq(void)
{
    static const size_t lens[] = {0, 1, 7, 31, 32, 33, 63, 64, 65, 4095, 4096, 4097,
                                   8191, 8192, 8193, 16383, 16384, 16385, 20011};
    static uint32_t x32[20011];
    static uint64_t x64[20011];
    for (size_t li = 0; li < COUNT(lens); li++) {
        const size_t len = lens[li];
        for (int pi = 0; pi < 4; pi++) {
            const uint32_t p32 = pi == 0 ? 2u : pi == 1 ? 469762049u : pi == 2 ? 0xffffffffu : (uint32_t)rnd_range(2, 0xffffffffu);
            const uint64_t p64 = pi == 0 ? 2u : pi == 1 ? 4611686018427387847ull : pi == 2 ? UINT64_MAX : rnd_range(2, UINT64_MAX);
            for (size_t j = 0; j < len; j++) {
                x32[j] = j % 5 == 0 ? p32 - 1 : (uint32_t)rnd_below(p32);
                x64[j] = j % 5 == 0 ? p64 - 1 : rnd_below(p64);
            }
            CHECK(!ntt_any_geq_u32(x32, len, p32) && !ntt_any_geq_portable_u32(x32, len, p32),
                  "any_geq_u32: len %zu, p %" PRIu32 ": values below p reported", len, p32);
            CHECK(!ntt_any_geq_u64(x64, len, p64) && !ntt_any_geq_portable_u64(x64, len, p64),
                  "any_geq_u64: len %zu, p %" PRIu64 ": values below p reported", len, p64);
            if (len == 0 || pi == 2) continue; /* nothing is >= 2^w - 1 but itself */
            const size_t at[4] = {0, len - 1, len / 2, (size_t)rnd_below(len)};
            for (int k = 0; k < 4; k++) {
                const size_t j = at[k];
                const uint32_t s32 = x32[j];
                const uint64_t s64 = x64[j];
                x32[j] = k == 2 ? 0xffffffffu : (uint32_t)rnd_range(p32, 0xffffffffu);
                x64[j] = k == 2 ? UINT64_MAX : rnd_range(p64, UINT64_MAX);
                CHECK(ntt_any_geq_u32(x32, len, p32) && ntt_any_geq_portable_u32(x32, len, p32),
                      "any_geq_u32: len %zu, p %" PRIu32 ": %" PRIu32 " at %zu missed", len, p32, x32[j], j);
                CHECK(ntt_any_geq_u64(x64, len, p64) && ntt_any_geq_portable_u64(x64, len, p64),
                      "any_geq_u64: len %zu, p %" PRIu64 ": %" PRIu64 " at %zu missed", len, p64, x64[j], j);
                x32[j] = s32;
                x64[j] = s64;
            }
        }
    }
}

int main(void)
{
    test_init("test_arith");
    test_csub();
    test_helpers();
    test_shoup();
    test_montgomery();
    test_smont();
    test_barrett();
    test_powmod_invmod();
    test_any_geq();
    return test_finish();
}
