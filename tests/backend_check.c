/*
 * A CPU backend bit for bit against the scalar backend (see backend_check.h):
 * forward, inverse, pointwise and polymul, single and batched (odd
 * strides, gaps checked untouched), RNS plans, both widths, every modmul
 * kind and the baseline variant, cyclic and negacyclic, both spectrum
 * orders, every power of two from 2 to 2^20 plus 2^21 and 2^22, and
 * ntt_polymul_mod on the direct and CRT paths (also at the edge between two
 * and three CRT primes, and once at 2^22 x 2^22).  Inputs are random with
 * many edge values (0 and p-1).  Inputs out of range fail with NTT_ERANGE
 * and change nothing.
 */
#include "backend_check.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

static ntt_backend be;
static const int *thr;
static int nthr;

/* NTT-friendly primes of each width, with their 2-adic valuation. */
static const struct {
    uint64_t p;
    unsigned v;
} P32[] = {
    {7340033, 20}, {104857601, 22}, {469762049, 26}, {998244353, 23}, {1053818881, 20},
}, P64[] = {
    {1125899437080577ull, 24},    /* the largest prime < 2^50 with 2^24 | p-1: IFMA, lazy 4p */
    {1337006139375617ull, 46},    /* the course's 51-bit modulus: FP64, or IFMA with lazy 2p */
    {2251799696244737ull, 24},    /* the largest prime < 2^51 with 2^24 | p-1 */
    {4503599409266689ull, 24},    /* the largest prime < 2^52 with 2^24 | p-1: IFMA, lazy p */
    {1152921504577486849ull, 20}, /* the largest prime < 2^60 with 2^20 | p-1: 64-bit lanes */
    {4611685941117976577ull, 32}, /* near 2^62: 64-bit lanes (AVX-512), else scalar */
};

static const struct {
    ntt_variant v;
    ntt_modmul m;
} KINDS[] = {
    {NTT_VARIANT_FAST, NTT_MODMUL_DEFAULT},    {NTT_VARIANT_FAST, NTT_MODMUL_SHOUP},
    {NTT_VARIANT_FAST, NTT_MODMUL_MONTGOMERY}, {NTT_VARIANT_FAST, NTT_MODMUL_BARRETT},
    {NTT_VARIANT_FAST, NTT_MODMUL_NAIVE},      {NTT_VARIANT_BASELINE, NTT_MODMUL_DEFAULT},
};

static int pick_threads(void) { return nthr ? thr[rnd_below((uint64_t)nthr)] : 0; }

/* A prime of the width with 2n | p-1, chosen at random; 0 if none. */
static uint64_t pick_p(ntt_width w, size_t n)
{
    const size_t np = w == NTT_U32 ? COUNT(P32) : COUNT(P64);
    const size_t start = (size_t)rnd_below(np);
    for (size_t k = 0; k < np; k++) {
        const size_t i = (start + k) % np;
        const uint64_t p = w == NTT_U32 ? P32[i].p : P64[i].p;
        const unsigned v = w == NTT_U32 ? P32[i].v : P64[i].v;
        if (((uint64_t)1 << v) >= 2 * (uint64_t)n) return p;
    }
    return 0;
}

static void fill(uint64_t *a, size_t n, uint64_t p)
{
    const unsigned mode = (unsigned)rnd_below(5);
    for (size_t i = 0; i < n; i++) {
        const uint64_t r = rnd_below(8);
        a[i] = mode == 0 ? p - 1 : mode == 1 && r == 0 ? 0 : mode == 1 && r == 1 ? p - 1 : rnd_below(p);
    }
}

enum { OP_FWD, OP_INV, OP_PW, OP_MUL };
static const char *const OPN[] = {"forward", "inverse", "pointwise", "polymul"};

/* op on len-element buffers (u64 here, narrowed for u32 plans), batched. */
static ntt_status run(ntt_plan *pl, int op, uint64_t *c, const uint64_t *a, const uint64_t *b,
                      size_t len, size_t count, size_t stride)
{
    if (ntt_plan_width(pl) == NTT_U64) {
        switch (op) {
        case OP_FWD: return ntt_forward_batch_u64(pl, c, count, stride);
        case OP_INV: return ntt_inverse_batch_u64(pl, c, count, stride);
        case OP_PW: return ntt_pointwise_batch_u64(pl, c, a, b, count, stride);
        default: return ntt_polymul_batch_u64(pl, c, a, b, count, stride);
        }
    }
    uint32_t *C = xmalloc(len * 4), *A = xmalloc(len * 4), *B = xmalloc(len * 4);
    for (size_t i = 0; i < len; i++) C[i] = (uint32_t)c[i], A[i] = (uint32_t)a[i], B[i] = (uint32_t)b[i];
    ntt_status s;
    switch (op) {
    case OP_FWD: s = ntt_forward_batch_u32(pl, C, count, stride); break;
    case OP_INV: s = ntt_inverse_batch_u32(pl, C, count, stride); break;
    case OP_PW: s = ntt_pointwise_batch_u32(pl, C, A, B, count, stride); break;
    default: s = ntt_polymul_batch_u32(pl, C, A, B, count, stride); break;
    }
    for (size_t i = 0; i < len; i++) c[i] = C[i];
    free(C);
    free(A);
    free(B);
    return s;
}

/* Every operation on the backend against the scalar backend, for one
   configuration: nm moduli (an RNS plan when nm > 1), count items stride
   apart. */
static void compare(ntt_width w, const uint64_t *mods, size_t nm, size_t n, unsigned flags, int kind,
                    int threads, size_t count, size_t stride)
{
    char ctx[256];
    snprintf(ctx, sizeof ctx, "%s u%d n=%zu p=%" PRIu64 "%s flags=%u %s/%s threads=%d count=%zu stride=%zu",
             ntt_backend_name(be), (int)w, n, mods[0], nm > 1 ? " (RNS)" : "", flags,
             ntt_variant_name(KINDS[kind].v), ntt_modmul_name(KINDS[kind].m), threads, count, stride);
    test_opts o = {0};
    o.variant = KINDS[kind].v;
    o.modmul = KINDS[kind].m;
    o.flags = flags;
    ntt_plan *ref = NULL, *pl = NULL;
    ntt_status s = test_plan_create_rns(&ref, n, mods, nm, w, NTT_BACKEND_SCALAR, &o);
    CHECK_STATUS(NTT_OK, s, "%s: scalar plan", ctx);
    o.threads = threads;
    ntt_status s2 = test_plan_create_rns(&pl, n, mods, nm, w, be, &o);
    CHECK_STATUS(NTT_OK, s2, "%s: plan", ctx);
    if (s != NTT_OK || s2 != NTT_OK) {
        ntt_plan_destroy(ref);
        ntt_plan_destroy(pl);
        return;
    }
    CHECK_EQ(ntt_plan_modmul(ref), ntt_plan_modmul(pl), "%s: resolved modmul kind", ctx);
    const size_t len = (count - 1) * stride + n + 3;
    uint64_t *A = xmalloc(len * 8), *B = xmalloc(len * 8), *C = xmalloc(len * 8);
    uint64_t *R = xmalloc(len * 8), *X = xmalloc(len * 8);
    const uint64_t sent = w == NTT_U32 ? 0xDEADBEEFu : 0xDEADBEEFCAFEF00Dull;
    for (int op = 0; op < 4; op++) {
        for (size_t i = 0; i < len; i++) A[i] = B[i] = C[i] = sent;
        for (size_t it = 0; it < count; it++) {
            fill(A + it * stride, n, mods[it % nm]);
            fill(B + it * stride, n, mods[it % nm]);
            fill(C + it * stride, n, mods[it % nm]);
        }
        memcpy(R, op < OP_PW ? A : C, len * 8);
        memcpy(X, op < OP_PW ? A : C, len * 8);
        s = run(ref, op, R, A, B, len, count, stride);
        CHECK_STATUS(NTT_OK, s, "%s: scalar %s", ctx, OPN[op]);
        s = run(pl, op, X, A, B, len, count, stride);
        CHECK_STATUS(NTT_OK, s, "%s: %s", ctx, OPN[op]);
        CHECK_ARR64(R, X, len, "%s: %s differs from the scalar backend (gaps hold %" PRIx64 ")", ctx,
                    OPN[op], sent);
    }
    free(A);
    free(B);
    free(C);
    free(R);
    free(X);
    ntt_plan_destroy(ref);
    ntt_plan_destroy(pl);
}

static void one(ntt_width w, size_t n, unsigned flags, int kind, size_t count, size_t stride)
{
    uint64_t p = pick_p(w, n);
    if (!p) return;
    compare(w, &p, 1, n, flags, kind, pick_threads(), count, stride);
}

/* Every power of two, a rotating configuration each. */
static void test_sizes(unsigned maxlog)
{
    unsigned rot = (unsigned)rnd_below(1000);
    for (unsigned lg = 1; lg <= maxlog; lg++) {
        const size_t n = (size_t)1 << lg;
        for (int wi = 0; wi < 2; wi++) {
            const ntt_width w = wi ? NTT_U64 : NTT_U32;
            int kind = (int)((rot + lg + (unsigned)wi) % COUNT(KINDS));
            /* The baseline is O(n log n) divisions: small sizes only. */
            if (lg > 14 && KINDS[kind].v == NTT_VARIANT_BASELINE) kind = 0;
            if (lg > 16) kind = (int)((rot + lg) % 3); /* default, Shoup, Montgomery */
            one(w, n, (rot + lg) % 4, kind, 1, n);
            /* The default kind, the one that matters, in the other flags. */
            one(w, n, (rot + lg + 1) % 4, 0, 1, n);
        }
    }
}

/* Every kind and flag at sizes on each side of the kernels' thresholds. */
static void test_matrix(void)
{
    static const unsigned logs[] = {5, 6, 8, 9, 10, 11, 12, 13, 15};
    for (size_t li = 0; li < COUNT(logs); li++)
        for (int wi = 0; wi < 2; wi++)
            for (unsigned flags = 0; flags < 4; flags++)
                for (int k = 0; k < (int)COUNT(KINDS); k++)
                    one(wi ? NTT_U64 : NTT_U32, (size_t)1 << logs[li], flags, k, 1, (size_t)1 << logs[li]);
}

/* Batches with odd strides and RNS plans. */
static void test_batches(void)
{
    static const unsigned logs[] = {3, 7, 9, 12, 14};
    for (size_t li = 0; li < COUNT(logs); li++) {
        const size_t n = (size_t)1 << logs[li];
        for (int wi = 0; wi < 2; wi++) {
            const ntt_width w = wi ? NTT_U64 : NTT_U32;
            const unsigned flags = (unsigned)rnd_below(4);
            const int kind = (int)rnd_below(COUNT(KINDS) - 1);
            static const size_t counts[] = {2, 3, 5, 8};
            const size_t count = counts[rnd_below(COUNT(counts))];
            one(w, n, flags, kind, count, n + 2 * rnd_below(8) + 1);
            uint64_t mods[3];
            size_t nm = 0;
            const size_t np = wi ? COUNT(P64) : COUNT(P32);
            for (size_t i = 0; i < np && nm < 3; i++) {
                const uint64_t p = wi ? P64[i].p : P32[i].p;
                const unsigned v = wi ? P64[i].v : P32[i].v;
                if (((uint64_t)1 << v) >= 2 * n) mods[nm++] = p;
            }
            if (nm >= 2) compare(w, mods, nm, n, flags, kind, pick_threads(), 2 * nm + 1, n + 5);
        }
    }
}

/* ntt_polymul_mod: the direct paths (u32, u64 on both kernel kinds) and
   the CRT path, lengths from tiny to 2^17. */
static void test_polymul_mod(void)
{
    static const uint64_t mods[] = {
        469762049, 998244353, 7340033, 1337006139375617ull, 2251799696244737ull, 4503599409266689ull,
        4611685941117976577ull,
        1000000007, 2305843009213693951ull /* 2^61-1 */, 9223372036854775783ull /* 2^63-25 */, 2, 65536,
    };
    for (int t = 0; t < 24; t++) {
        const uint64_t p = mods[rnd_below(COUNT(mods))];
        const size_t maxlen = t < 4 ? (size_t)1 << 17 : 5000;
        const size_t la = rnd_len(maxlen), lb = t % 3 == 0 ? la : rnd_len(maxlen);
        uint64_t *a = xmalloc(la * 8), *b = xmalloc(lb * 8);
        uint64_t *r = xmalloc((la + lb) * 8), *x = xmalloc((la + lb) * 8);
        fill(a, la, p);
        fill(b, lb, p);
        const bool square = t % 5 == 0 && la == lb;
        test_opts o = {0};
        o.threads = pick_threads();
        ntt_status s = ntt_polymul_mod(r, a, la, square ? a : b, lb, p, NTT_BACKEND_SCALAR);
        CHECK_STATUS(NTT_OK, s, "scalar ntt_polymul_mod p=%" PRIu64 " la=%zu lb=%zu", p, la, lb);
        x[la + lb - 1] = 0x5A5A5A5A5A5A5A5Aull;
        s = test_polymul_mod_ex(x, a, la, square ? a : b, lb, p, be, &o);
        CHECK_STATUS(NTT_OK, s, "%s ntt_polymul_mod p=%" PRIu64 " la=%zu lb=%zu", ntt_backend_name(be), p, la, lb);
        CHECK_ARR64(r, x, la + lb - 1, "%s ntt_polymul_mod p=%" PRIu64 " la=%zu lb=%zu threads=%d%s",
                    ntt_backend_name(be), p, la, lb, o.threads, square ? " (square)" : "");
        CHECK_EQ(0x5A5A5A5A5A5A5A5Aull, x[la + lb - 1], "%s ntt_polymul_mod wrote past the product",
                 ntt_backend_name(be));
        free(a);
        free(b);
        free(r);
        free(x);
    }
    ntt_cache_clear();
}

/* A product large enough for the kernels' streaming stores (transform of
   2^23 u32: 32 MiB per operand, 64 MiB of uint64_t output), into a 16-byte
   aligned output and one 8 bytes off it (plain stores); the first on two
   threads where the backend has them (the parallel product's fused first
   and last sweeps, and its scaled load). */
static void test_large_product(void)
{
    const uint64_t p = 469762049;
    const size_t la = (size_t)1 << 22, lc = 2 * la - 1;
    uint64_t *a = xmalloc(la * 8), *b = xmalloc(la * 8), *r = xmalloc(lc * 8);
    uint64_t *x = xmalloc((lc + 2) * 8);
    fill(a, la, p);
    fill(b, la, p);
    ntt_status s = ntt_polymul_mod(r, a, la, b, la, p, NTT_BACKEND_SCALAR);
    CHECK_STATUS(NTT_OK, s, "scalar ntt_polymul_mod, length 2^22");
    for (int off = 0; off < 2; off++) {
        uint64_t *c = x + ((uintptr_t)x % 16 == 0 ? off : 1 - off);
        test_opts o = {0};
        o.threads = off ? pick_threads() : 2;
        s = test_polymul_mod_ex(c, a, la, b, la, p, be, &o);
        CHECK_STATUS(NTT_OK, s, "%s ntt_polymul_mod, length 2^22", ntt_backend_name(be));
        CHECK_ARR64(r, c, lc, "%s ntt_polymul_mod, length 2^22, output %s16-byte aligned, threads=%d",
                    ntt_backend_name(be), off ? "not " : "", o.threads);
    }
    free(a);
    free(b);
    free(r);
    free(x);
    ntt_cache_clear();
}

/* floor(sqrt(x)), x < 2^126. */
static uint64_t isqrt(tu128 x)
{
    uint64_t lo = 0, hi = (uint64_t)1 << 63;
    while (lo < hi) {
        const uint64_t mid = lo + (hi - lo + 1) / 2;
        if ((tu128)mid * mid <= x) lo = mid;
        else hi = mid - 1;
    }
    return lo;
}

/* All-(p-1) products right at the edges where a set of CRT primes goes
   from two primes to three, for the x86 backends' sets (50, 51 and 52
   bits, src/core/crt_sets.c; threaded plans use them too on x86 kernels):
   where the IFMA kernels run, ntt_polymul_mod changes sets there.
   Against the scalar backend, whose primes lie near 2^62. */
static void test_crt_edge(void)
{
    static const uint64_t q[][2] = {{1125845146009601ull, 1125844072267777ull},
                                    {2251792297492481ull, 2251756864012289ull},
                                    {4503579226275841ull, 4503567415115777ull}};
    static const size_t ls[] = {9, 33, 1000};
    for (size_t i = 0; i < COUNT(ls) * COUNT(q); i++) {
        const size_t l = ls[i % COUNT(ls)], lb = l + (size_t)rnd_below(40);
        const uint64_t *qs = q[i / COUNT(ls)];
        const uint64_t pm = isqrt(((tu128)qs[0] * qs[1] - 1) / l) + 1;
        for (uint64_t d = 0; d < 2; d++) {
            const uint64_t p = pm + d - 1; /* the last p on two primes, the first on three */
            uint64_t *a = xmalloc(l * 8), *b = xmalloc(lb * 8), *r = xmalloc((l + lb) * 8), *x = xmalloc((l + lb) * 8);
            for (size_t k = 0; k < l; k++) a[k] = p - 1;
            for (size_t k = 0; k < lb; k++) b[k] = p - 1;
            test_opts o = {0};
            o.threads = pick_threads();
            ntt_status s = ntt_polymul_mod(r, a, l, b, lb, p, NTT_BACKEND_SCALAR);
            CHECK_STATUS(NTT_OK, s, "scalar CRT edge p=%" PRIu64 " l=%zu", p, l);
            s = test_polymul_mod_ex(x, a, l, b, lb, p, be, &o);
            CHECK_STATUS(NTT_OK, s, "%s CRT edge p=%" PRIu64 " l=%zu", ntt_backend_name(be), p, l);
            CHECK_ARR64(r, x, l + lb - 1, "%s CRT edge p=%" PRIu64 " la=%zu lb=%zu (all p-1)",
                        ntt_backend_name(be), p, l, lb);
            free(a);
            free(b);
            free(r);
            free(x);
        }
    }
}

/* Inputs out of range.  The CPU backends check a single product's
   operands as they load them (one pass fewer), so every loader is tried:
   ntt_polymul_mod's direct products (u32 and u64 kernels, the zero-padded
   and the full loads, odd and even log2 n, squares, the baseline variant,
   values that are >= p only in their high 32 bits), the plan products and
   a batch whose last item is bad.  Each must fail with NTT_ERANGE and
   leave every array as it was. */
static void test_range(void)
{
    /* u32; the u64 kernels' lazy ranges (IFMA narrow, wide, full); 64-bit lanes. */
    static const uint64_t mods[] = {469762049,          998244353,           1125899437080577ull,
                                    1337006139375617ull, 4503599409266689ull, 4611685941117976577ull};
    static const size_t lens[] = {9, 100, 700, 3000, 20000};
    for (int t = 0; t < 40; t++) {
        const uint64_t p = mods[t % COUNT(mods)];
        /* The first eight: p itself as the last input of a length that
           leaves a partial vector (the loaders' scalar tails). */
        const bool tail = t < 8;
        const size_t la = tail ? lens[2 + t % 2] : lens[rnd_below(COUNT(lens))];
        const size_t lb = !tail && t % 3 ? lens[rnd_below(COUNT(lens))] : la;
        const bool square = t % 7 == 0 && la == lb;
        const size_t lc = la + lb - 1;
        uint64_t *a = xmalloc(la * 8), *b = xmalloc(lb * 8), *c = xmalloc(lc * 8);
        uint64_t *a0 = xmalloc(la * 8), *b0 = xmalloc(lb * 8);
        fill(a, la, p);
        fill(b, lb, p);
        uint64_t *x = square || t % 2 ? a : b;
        const size_t lx = x == a ? la : lb, r = tail ? 1 : (size_t)rnd_below(3);
        const size_t pos = r == 0 ? 0 : r == 1 ? lx - 1 : (size_t)rnd_below(lx);
        /* p; the next value; (u32 primes) one whose low 32 bits are below p;
           the largest. */
        const uint64_t vals[] = {p, p + 1, p >> 32 ? 2 * p : ((uint64_t)1 << 32) + (p & 0xFFFF), UINT64_MAX};
        x[pos] = tail ? p : vals[rnd_below(COUNT(vals))];
        memcpy(a0, a, la * 8);
        memcpy(b0, b, lb * 8);
        for (size_t i = 0; i < lc; i++) c[i] = 0xC0FFEE;
        test_opts o = {0};
        o.threads = pick_threads();
        if (t % 10 == 9 && la <= 3000 && lb <= 3000) o.variant = NTT_VARIANT_BASELINE;
        const ntt_status s = test_polymul_mod_ex(c, a, la, square ? a : b, lb, p, be, &o);
        const char *ctx = x == a ? "a" : "b";
        CHECK_STATUS(NTT_ERANGE, s, "%s ntt_polymul_mod p=%" PRIu64 " la=%zu lb=%zu %s[%zu]=%" PRIu64
                     " threads=%d %s%s", ntt_backend_name(be), p, la, lb, ctx, pos, x[pos], o.threads,
                     ntt_variant_name(o.variant), square ? " (square)" : "");
        CHECK_ARR64(a0, a, la, "%s ntt_polymul_mod failed but modified a", ntt_backend_name(be));
        CHECK_ARR64(b0, b, lb, "%s ntt_polymul_mod failed but modified b", ntt_backend_name(be));
        for (size_t i = 0; i < lc; i++)
            CHECK_EQ(0xC0FFEE, c[i], "%s ntt_polymul_mod failed with NTT_ERANGE but wrote c[%zu] (p=%" PRIu64
                     " la=%zu lb=%zu)", ntt_backend_name(be), i, p, la, lb);
        free(a);
        free(b);
        free(c);
        free(a0);
        free(b0);
    }
    /* Plan products: single (full-length loads) and batched. */
    for (int wi = 0; wi < 2; wi++) {
        const ntt_width w = wi ? NTT_U64 : NTT_U32;
        const size_t n = (size_t)1 << (8 + rnd_below(7)), count = 3, stride = n + 1;
        const uint64_t p = pick_p(w, n), maxv = wi ? UINT64_MAX : UINT32_MAX;
        test_opts o = {0};
        o.threads = pick_threads();
        ntt_plan *pl = NULL;
        ntt_status s = test_plan_create(&pl, n, p, w, be, &o);
        CHECK_STATUS(NTT_OK, s, "%s u%d plan n=%zu", ntt_backend_name(be), (int)w, n);
        if (s != NTT_OK) continue;
        const size_t len = (count - 1) * stride + n;
        uint64_t *a = xmalloc(len * 8), *b = xmalloc(len * 8), *c = xmalloc(len * 8), *c0 = xmalloc(len * 8);
        for (int batch = 0; batch < 2; batch++)
            for (int which = 0; which < 2; which++) {
                const size_t cnt = batch ? count : 1, l = batch ? len : n;
                fill(a, l, p);
                fill(b, l, p);
                for (size_t i = 0; i < l; i++) c[i] = c0[i] = i % p;
                uint64_t *x = which ? b : a;
                const size_t pos = (cnt - 1) * stride + (size_t)rnd_below(n);
                x[pos] = rnd_below(2) ? p : maxv;
                s = run(pl, OP_MUL, c, a, b, l, cnt, stride);
                CHECK_STATUS(NTT_ERANGE, s, "%s u%d %spolymul n=%zu %s[%zu] = %" PRIu64, ntt_backend_name(be),
                             (int)w, batch ? "batched " : "", n, which ? "b" : "a", pos, x[pos]);
                CHECK_ARR64(c0, c, l, "%s u%d %spolymul failed with NTT_ERANGE but modified c", ntt_backend_name(be),
                            (int)w, batch ? "batched " : "");
            }
        free(a);
        free(b);
        free(c);
        free(c0);
        ntt_plan_destroy(pl);
    }
    ntt_cache_clear();
}

int backend_check_main(const char *prog, ntt_backend backend, const int *threads, int nthreads)
{
    test_init(prog);
    if (!ntt_backend_available(backend)) {
        printf("%s: backend %s not available here: skipped\n", prog, ntt_backend_name(backend));
        return TEST_SKIP;
    }
    be = backend;
    thr = threads;
    nthr = nthreads;
    test_matrix();
    test_batches();
    test_polymul_mod();
    test_large_product();
    test_crt_edge();
    test_range();
    test_sizes(20);
    /* A few larger sizes, the default kind. */
    for (unsigned lg = 21; lg <= 22; lg++) {
        one(NTT_U32, (size_t)1 << lg, lg % 4, 0, 1, (size_t)1 << lg);
        if (lg == 21) one(NTT_U64, (size_t)1 << lg, 1, 0, 1, (size_t)1 << lg);
    }
    return test_finish();
}
