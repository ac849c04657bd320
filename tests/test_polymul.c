/*
 * test_polymul: products against a schoolbook written here with 128-bit
 * arithmetic.
 *  - plan level: ntt_polymul_u32/u64, cyclic and negacyclic, every
 *    power-of-two n from 2 to 1024, every modmul kind and the baseline;
 *  - ntt_polymul_mod / ntt_polymul_mod_ex: random unequal lengths in
 *    1..4096 (1, 2, odd sizes and the schoolbook / power-of-two boundaries
 *    included), NTT primes of both widths, 10^9+7, 2, 3, 4, 65536, 2^61-1 and
 *    random moduli, every modmul and the baseline variant, backends AUTO
 *    and SCALAR; inputs are not modified and nothing past the product is
 *    written.
 */
#include "test_common.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

typedef struct {
    ntt_variant variant;
    ntt_modmul modmul;
} cfg_t;

static const cfg_t CFGS[] = {
    {NTT_VARIANT_FAST, NTT_MODMUL_DEFAULT},    {NTT_VARIANT_FAST, NTT_MODMUL_NAIVE},
    {NTT_VARIANT_FAST, NTT_MODMUL_BARRETT},    {NTT_VARIANT_FAST, NTT_MODMUL_MONTGOMERY},
    {NTT_VARIANT_FAST, NTT_MODMUL_SHOUP},      {NTT_VARIANT_BASELINE, NTT_MODMUL_NAIVE},
    {NTT_VARIANT_BASELINE, NTT_MODMUL_DEFAULT},
};

/* ---- plan level ---------------------------------------------------------------------- */

static ntt_status plan_polymul(ntt_plan *pl, uint64_t *c, const uint64_t *a, const uint64_t *b, size_t n)
{
    if (ntt_plan_width(pl) == NTT_U64) return ntt_polymul_u64(pl, c, a, b);
    uint32_t *A = xmalloc(n * 4), *B = xmalloc(n * 4), *C = xmalloc(n * 4);
    for (size_t i = 0; i < n; i++) A[i] = (uint32_t)a[i], B[i] = (uint32_t)b[i], C[i] = 0xA5A5A5A5u;
    ntt_status s = ntt_polymul_u32(pl, C, A, B);
    for (size_t i = 0; i < n; i++) c[i] = C[i];
    free(A);
    free(B);
    free(C);
    return s;
}

static void test_plan_polymul(void)
{
    static const uint64_t P32[] = {7340033, 104857601, 469762049, 998244353, 1053818881};
    static const uint64_t P64[] = {1337006139375617ull, 4611685941117976577ull, 4611686018427277313ull};
    for (unsigned logn = 1; logn <= 10; logn++) {
        const size_t n = (size_t)1 << logn;
        for (int wi = 0; wi < 2; wi++) {
            const ntt_width w = wi ? NTT_U64 : NTT_U32;
            for (int nega = 0; nega < 2; nega++) {
                const uint64_t p = wi ? P64[rnd_below(COUNT(P64))] : P32[rnd_below(COUNT(P32))];
                uint64_t *a = xmalloc(n * 8), *b = xmalloc(n * 8), *e = xmalloc(n * 8), *c = xmalloc(n * 8);
                for (int round = 0; round < 2; round++) {
                    for (size_t i = 0; i < n; i++) {
                        /* round 1: all p-1, the largest coefficients */
                        a[i] = round ? p - 1 : rnd_below(p);
                        b[i] = round ? p - 1 : rnd_below(p);
                    }
                    t_cyclic_mul(e, a, b, n, p, nega);
                    for (size_t ci = 0; ci < COUNT(CFGS); ci++) {
                        test_opts o = {.modmul = CFGS[ci].modmul, .variant = CFGS[ci].variant, .flags = nega ? NTT_FLAG_NEGACYCLIC : 0};
                        if (rnd_below(2)) o.flags |= NTT_FLAG_NATURAL_ORDER; /* irrelevant to polymul */
                        ntt_backend be = rnd_below(2) ? NTT_BACKEND_AUTO : NTT_BACKEND_SCALAR;
                        ntt_plan *pl = NULL;
                        ntt_status s = test_plan_create(&pl, n, p, w, be, &o);
                        CHECK_STATUS(NTT_OK, s, "ntt_plan_create(n=%zu, p=%" PRIu64 ", u%d, %s, %s/%s)", n, p, (int)w,
                                     nega ? "negacyclic" : "cyclic", ntt_variant_name(o.variant), ntt_modmul_name(o.modmul));
                        if (s != NTT_OK) continue;
                        s = plan_polymul(pl, c, a, b, n);
                        CHECK_STATUS(NTT_OK, s, "polymul n=%zu p=%" PRIu64, n, p);
                        CHECK_ARR64(e, c, n, "u%d polymul n=%zu p=%" PRIu64 " %s flags=%u %s/%s backend=%s%s vs schoolbook", (int)w, n,
                                    p, nega ? "negacyclic" : "cyclic", o.flags, ntt_variant_name(o.variant),
                                    ntt_modmul_name(o.modmul), ntt_backend_name(be), round ? " (all p-1)" : "");
                        ntt_plan_destroy(pl);
                    }
                }
                free(a);
                free(b);
                free(e);
                free(c);
            }
        }
    }
}

/* ---- ntt_polymul_mod ----------------------------------------------------------------- */

static const uint64_t NAMED_P[] = {
    7340033, 104857601, 469762049, 998244353, 1053818881,            /* u32 NTT primes */
    1337006139375617ull, 4611685941117976577ull, 4611686018427277313ull, /* u64 NTT primes */
    1000000007, 2, 3, 4, 65536, 2305843009213693951ull /* 2^61 - 1 */,
    4611686018427387847ull /* largest prime < 2^62 */, 9223372036854775783ull /* 2^63 - 25 */,
    9223372036854775807ull /* 2^63 - 1 */, 1073741789 /* largest prime < 2^30 */,
    1073741827 /* smallest prime > 2^30 */, 4611686018427388039ull /* smallest prime > 2^62 */,
};

static uint64_t pick_p(void)
{
    if (rnd_below(4)) return NAMED_P[rnd_below(COUNT(NAMED_P))];
    unsigned bits = 2 + (unsigned)rnd_below(62);
    return rnd_range((uint64_t)1 << (bits - 1), ((uint64_t)1 << bits) - 1);
}

static void fill(uint64_t *a, size_t n, uint64_t p, unsigned mode)
{
    for (size_t i = 0; i < n; i++) {
        uint64_t r = rnd_below(8);
        a[i] = mode == 0 ? p - 1 : mode == 1 && r == 0 ? 0 : mode == 1 && r == 1 ? p - 1 : rnd_below(p);
    }
}

#define GUARD 8
#define GUARD_VAL 0x0123456789ABCDEFull

static void mod_case(size_t la, size_t lb, uint64_t p, const char *why)
{
    const size_t lc = la + lb - 1;
    uint64_t *a = xmalloc(la * 8), *b = xmalloc(lb * 8), *a0 = xmalloc(la * 8), *b0 = xmalloc(lb * 8);
    uint64_t *c = xmalloc((lc + GUARD) * 8), *e = xmalloc(lc * 8);
    const unsigned mode = rnd_below(6) == 0 ? 0 : 1;
    fill(a, la, p, mode);
    fill(b, lb, p, mode);
    memcpy(a0, a, la * 8);
    memcpy(b0, b, lb * 8);
    t_schoolbook(e, a, la, b, lb, p);

    /* The options: the plain call, or _ex with a random kind, variant and backend. */
    const int api = (int)rnd_below(3);
    ntt_backend be = rnd_below(2) ? NTT_BACKEND_AUTO : NTT_BACKEND_SCALAR;
    test_opts o = {0};
    o.modmul = (ntt_modmul)rnd_below(5);
    o.variant = rnd_below(4) == 0 ? NTT_VARIANT_BASELINE : NTT_VARIANT_FAST;
    if (o.variant == NTT_VARIANT_BASELINE && o.modmul > NTT_MODMUL_NAIVE) o.modmul = NTT_MODMUL_NAIVE;
    o.flags = (unsigned)rnd_below(4); /* ignored by ntt_polymul_mod_ex */
    for (size_t i = 0; i < lc + GUARD; i++) c[i] = GUARD_VAL;
    ntt_status s;
    char ctx[256];
    if (api == 0) {
        s = ntt_polymul_mod(c, a, la, b, lb, p, be);
        snprintf(ctx, sizeof ctx, "%s: ntt_polymul_mod(la=%zu, lb=%zu, p=%" PRIu64 ", backend=%s)%s", why, la, lb, p,
                 ntt_backend_name(be), mode == 0 ? " all p-1" : "");
    } else if (api == 1) {
        s = test_polymul_mod_ex(c, a, la, b, lb, p, be, NULL);
        snprintf(ctx, sizeof ctx, "%s: ntt_polymul_mod_ex(la=%zu, lb=%zu, p=%" PRIu64 ", backend=%s, NULL)%s", why, la, lb,
                 p, ntt_backend_name(be), mode == 0 ? " all p-1" : "");
    } else {
        s = test_polymul_mod_ex(c, a, la, b, lb, p, be, &o);
        snprintf(ctx, sizeof ctx,
                 "%s: ntt_polymul_mod_ex(la=%zu, lb=%zu, p=%" PRIu64 ", backend=%s, %s/%s flags=%u)%s", why, la, lb, p,
                 ntt_backend_name(be), ntt_variant_name(o.variant), ntt_modmul_name(o.modmul), o.flags,
                 mode == 0 ? " all p-1" : "");
    }
    CHECK_STATUS(NTT_OK, s, "%s", ctx);
    if (s == NTT_OK) CHECK_ARR64(e, c, lc, "%s vs schoolbook", ctx);
    size_t touched = 0;
    for (size_t i = lc; i < lc + GUARD; i++) touched += c[i] != GUARD_VAL;
    CHECK(touched == 0, "%s wrote %zu elements past c[la+lb-2]", ctx, touched);
    CHECK_ARR64(a0, a, la, "%s modified a", ctx);
    CHECK_ARR64(b0, b, lb, "%s modified b", ctx);
    free(a);
    free(b);
    free(a0);
    free(b0);
    free(c);
    free(e);
}

static void test_polymul_mod(void)
{
    /* boundaries: 1, 2, the schoolbook threshold, powers of two */
    static const size_t edge_len[][2] = {
        {1, 1}, {1, 2}, {2, 1}, {2, 2}, {1, 4096}, {4096, 1}, {2, 4096}, {4095, 2}, {8, 8}, {8, 9}, {9, 8},
        {9, 9}, {8, 4096}, {9, 4096}, {16, 17}, {17, 16}, {33, 32}, {512, 513}, {513, 512}, {1000, 25},
        {3, 4093}, {2047, 2049}, {2048, 2049} /* lc = n */, {2049, 2049}, {1024, 1025}, {3000, 100},
        {4096, 4096},
    };
    for (size_t i = 0; i < COUNT(edge_len); i++) {
        uint64_t p = i + 1 == COUNT(edge_len) ? 998244353 : pick_p();
        mod_case(edge_len[i][0], edge_len[i][1], p, "edge lengths");
    }
    mod_case(4096, 4096, 9223372036854775807ull, "largest lengths, p = 2^63-1");
    /* squaring: a == b is allowed (only c may not alias) */
    static const uint64_t sq_p[] = {998244353, 4611685941117976577ull, 1000000007, 9223372036854775783ull, 3};
    for (size_t i = 0; i < COUNT(sq_p); i++) {
        const size_t l = i == 0 ? 5 : rnd_len(3000);
        uint64_t *a = xmalloc(l * 8), *c = xmalloc((2 * l - 1) * 8), *e = xmalloc((2 * l - 1) * 8);
        fill(a, l, sq_p[i], 1);
        t_schoolbook(e, a, l, a, l, sq_p[i]);
        ntt_status s = ntt_polymul_mod(c, a, l, a, l, sq_p[i], NTT_BACKEND_AUTO);
        CHECK_STATUS(NTT_OK, s, "ntt_polymul_mod(a, a, l=%zu, p=%" PRIu64 ")", l, sq_p[i]);
        if (s == NTT_OK) CHECK_ARR64(e, c, 2 * l - 1, "ntt_polymul_mod(a, a, l=%zu, p=%" PRIu64 ") square", l, sq_p[i]);
        free(a), free(c), free(e);
    }
    /* every named modulus with random lengths */
    for (size_t i = 0; i < COUNT(NAMED_P); i++)
        for (int k = 0; k < 3; k++) mod_case(rnd_len(4096), rnd_len(4096), NAMED_P[i], "named modulus");
    /* random cases */
    for (int it = 0; it < 240; it++) {
        size_t la = rnd_len(4096), lb = rnd_len(4096);
        if (it % 5 == 0) la = (size_t)rnd_range(1, 4096); /* uniform too */
        if (it % 7 == 0) lb = (size_t)rnd_range(1, 4096);
        mod_case(la, lb, pick_p(), "random");
    }
}

/* Every kind and the baseline through ntt_polymul_mod_ex, on both backends,
   on each path: a u32 NTT prime, a u64 NTT prime (direct) and CRT moduli;
   lengths above the schoolbook threshold so that transforms run. */
static void test_polymul_mod_ex_all_kinds(void)
{
    static const uint64_t ps[] = {998244353, 4611685941117976577ull, 1000000007, 9223372036854775783ull, 2};
    for (size_t ci = 0; ci < COUNT(CFGS); ci++)
        for (size_t k = 0; k < COUNT(ps); k++)
            for (int be = 0; be < 2; be++) {
                const uint64_t p = ps[k];
                const size_t la = (size_t)rnd_range(9, 700), lb = (size_t)rnd_range(9, 700), lc = la + lb - 1;
                uint64_t *a = xmalloc(la * 8), *b = xmalloc(lb * 8), *c = xmalloc(lc * 8), *e = xmalloc(lc * 8);
                fill(a, la, p, rnd_below(4) == 0 ? 0 : 2);
                fill(b, lb, p, 2);
                t_schoolbook(e, a, la, b, lb, p);
                test_opts o = {.modmul = CFGS[ci].modmul, .variant = CFGS[ci].variant, .flags = 0};
                const ntt_backend bk = be ? NTT_BACKEND_SCALAR : NTT_BACKEND_AUTO;
                ntt_status s = test_polymul_mod_ex(c, a, la, b, lb, p, bk, &o);
                CHECK_STATUS(NTT_OK, s, "ntt_polymul_mod_ex(la=%zu, lb=%zu, p=%" PRIu64 ", %s, %s/%s)", la, lb, p,
                             ntt_backend_name(bk), ntt_variant_name(o.variant), ntt_modmul_name(o.modmul));
                if (s == NTT_OK)
                    CHECK_ARR64(e, c, lc, "ntt_polymul_mod_ex(la=%zu, lb=%zu, p=%" PRIu64 ", %s, %s/%s) vs schoolbook", la,
                                lb, p, ntt_backend_name(bk), ntt_variant_name(o.variant), ntt_modmul_name(o.modmul));
                free(a), free(b), free(c), free(e);
            }
}

/* Variant or kind the transforms cannot run: the product is either exact
   (schoolbook needs no transform) or NTT_EUNSUPPORTED, never wrong. */
static void test_polymul_mod_unsupported_opts(void)
{
    static const ntt_modmul kinds[] = {NTT_MODMUL_BARRETT, NTT_MODMUL_MONTGOMERY, NTT_MODMUL_SHOUP};
    for (size_t k = 0; k < COUNT(kinds); k++) {
        const size_t la = 100, lb = 77, lc = la + lb - 1;
        const uint64_t p = 998244353;
        uint64_t a[100], b[77], c[176], e[176];
        fill(a, la, p, 1);
        fill(b, lb, p, 1);
        t_schoolbook(e, a, la, b, lb, p);
        test_opts o = {.modmul = kinds[k], .variant = NTT_VARIANT_BASELINE, .flags = 0};
        for (size_t i = 0; i < lc; i++) c[i] = GUARD_VAL;
        ntt_status s = test_polymul_mod_ex(c, a, la, b, lb, p, NTT_BACKEND_SCALAR, &o);
        CHECK(s == NTT_OK || s == NTT_EUNSUPPORTED, "ntt_polymul_mod_ex(baseline/%s): status %d (%s)",
              ntt_modmul_name(kinds[k]), (int)s, ntt_status_string(s));
        if (s == NTT_OK) CHECK_ARR64(e, c, lc, "ntt_polymul_mod_ex(baseline/%s) vs schoolbook", ntt_modmul_name(kinds[k]));
    }
}

int main(void)
{
    test_init("test_polymul");
    test_plan_polymul();
    test_polymul_mod();
    test_polymul_mod_ex_all_kinds();
    test_polymul_mod_unsupported_opts();
    return test_finish();
}
