/*
 * test_ntt: the transforms through the public plan API, for both element
 * widths, cyclic and negacyclic, natural and bit-reversed spectra, every
 * modmul kind and both CPU variants.
 *
 *  - forward against a naive evaluation (n <= 256): the spectrum of x gives
 *    the plan's root r (cyclic, position k holds r^k) or psi (negacyclic,
 *    position k holds psi^(2k+1)); its order is checked to be exactly n
 *    (resp. 2n); then a random polynomial is evaluated at those points;
 *    bit-reversed spectra are the natural ones permuted by bit reversal;
 *  - round trips inverse(forward(a)) == a for n = 2 .. 2^22, with spot
 *    checks of the spectrum and a sparse product at every size;
 *  - every modmul kind and the baseline are bit-identical;
 *  - batches (count 0, 1, 5; stride n and n+7) equal item-by-item calls and
 *    leave the gaps alone; RNS plans use moduli[i % 3] for item i;
 *  - exact aliasing in pointwise and polymul;
 *  - an input equal to p anywhere gives NTT_ERANGE and changes nothing
 *    (pointwise: only products of in-range inputs, see ntt.h).
 */
#include "test_common.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

static const uint64_t PRIMES32[] = {
    7340033,    /* 7 2^20 + 1 */
    104857601,  /* 25 2^22 + 1 */
    469762049,  /* 7 2^26 + 1 */
    998244353,  /* 119 2^23 + 1 */
    1053818881, /* the largest prime < 2^30 with 2^20 | p-1 */
    1073741789, /* the largest prime < 2^30; 4 || p-1 */
};
static const uint64_t PRIMES64[] = {
    1337006139375617ull,    /* 19 2^46 + 1 */
    4611685941117976577ull, /* < 2^62, 2^33 | p-1 */
    4611686018427277313ull, /* < 2^62, 2^12 || p-1: moderate valuation */
    4611686018427387847ull, /* the largest prime < 2^62; 2 || p-1 */
};

typedef struct {
    ntt_variant variant;
    ntt_modmul modmul;
} cfg_t;

static const cfg_t CFGS[] = {
    {NTT_VARIANT_FAST, NTT_MODMUL_NAIVE},      {NTT_VARIANT_FAST, NTT_MODMUL_DEFAULT},
    {NTT_VARIANT_FAST, NTT_MODMUL_BARRETT},    {NTT_VARIANT_FAST, NTT_MODMUL_MONTGOMERY},
    {NTT_VARIANT_FAST, NTT_MODMUL_SHOUP},      {NTT_VARIANT_BASELINE, NTT_MODMUL_NAIVE},
    {NTT_VARIANT_BASELINE, NTT_MODMUL_DEFAULT},
};
#define NCFG COUNT(CFGS)

static unsigned max_log(uint64_t p, bool nega)
{
    unsigned v = (unsigned)__builtin_ctzll(p - 1);
    if (nega) v = v ? v - 1 : 0;
    return v > NTT_MAX_LOG2_N ? NTT_MAX_LOG2_N : v;
}

static ntt_status mkplan(ntt_plan **pl, size_t n, uint64_t p, ntt_width w, cfg_t c, unsigned flags)
{
    test_opts o = {0};
    o.variant = c.variant;
    o.modmul = c.modmul;
    o.flags = flags;
    return test_plan_create(pl, n, p, w, NTT_BACKEND_SCALAR, &o);
}

static const char *ctx_str(char *buf, size_t len, ntt_width w, uint64_t p, size_t n, unsigned flags,
                           cfg_t c)
{
    snprintf(buf, len, "u%d p=%" PRIu64 " n=%zu %s %s variant=%s modmul=%s", (int)w, p, n,
             (flags & NTT_FLAG_NEGACYCLIC) ? "negacyclic" : "cyclic",
             (flags & NTT_FLAG_NATURAL_ORDER) ? "natural" : "bitrev", ntt_variant_name(c.variant),
             ntt_modmul_name(c.modmul));
    return buf;
}

/* ---- execution on canonical 64-bit buffers ------------------------------------ */

typedef enum { OP_FWD, OP_INV, OP_PW, OP_MUL } op_t;
static const char *const OPN[] = {"forward", "inverse", "pointwise", "polymul"};

static uint32_t *down(const uint64_t *x, size_t len)
{
    uint32_t *y = xmalloc(len * sizeof *y);
    for (size_t i = 0; i < len; i++) y[i] = (uint32_t)x[i];
    return y;
}

/* Runs op with the single-item (batch = false) or batched entry point.  The
   buffers hold `len` elements each.  u32 plans run on 32-bit copies (exact
   aliasing preserved) that are copied back into c; inputs a and b are
   checked to be unchanged. */
static ntt_status run_op(ntt_plan *pl, op_t op, uint64_t *c, const uint64_t *a, const uint64_t *b,
                         size_t len, bool batch, size_t count, size_t stride)
{
    if (ntt_plan_width(pl) == NTT_U64) {
        switch (op) {
        case OP_FWD: return batch ? ntt_forward_batch_u64(pl, c, count, stride) : ntt_forward_u64(pl, c);
        case OP_INV: return batch ? ntt_inverse_batch_u64(pl, c, count, stride) : ntt_inverse_u64(pl, c);
        case OP_PW:
            return batch ? ntt_pointwise_batch_u64(pl, c, a, b, count, stride) : ntt_pointwise_u64(pl, c, a, b);
        case OP_MUL:
            return batch ? ntt_polymul_batch_u64(pl, c, a, b, count, stride) : ntt_polymul_u64(pl, c, a, b);
        }
        return NTT_EINVAL;
    }
    uint32_t *C = down(c, len), *A = NULL, *B = NULL;
    bool ownA = false, ownB = false;
    if (op == OP_PW || op == OP_MUL) {
        if (a == c) A = C;
        else A = down(a, len), ownA = true;
        if (b == c) B = C;
        else if (b == a) B = A;
        else B = down(b, len), ownB = true;
    }
    ntt_status s = NTT_EINVAL;
    switch (op) {
    case OP_FWD: s = batch ? ntt_forward_batch_u32(pl, C, count, stride) : ntt_forward_u32(pl, C); break;
    case OP_INV: s = batch ? ntt_inverse_batch_u32(pl, C, count, stride) : ntt_inverse_u32(pl, C); break;
    case OP_PW: s = batch ? ntt_pointwise_batch_u32(pl, C, A, B, count, stride) : ntt_pointwise_u32(pl, C, A, B); break;
    case OP_MUL: s = batch ? ntt_polymul_batch_u32(pl, C, A, B, count, stride) : ntt_polymul_u32(pl, C, A, B); break;
    }
    for (size_t i = 0; i < len; i++) c[i] = C[i];
    if (ownA) {
        uint32_t *a0 = down(a, len);
        CHECK_ARR32(a0, A, len, "u32 %s modified its input a", OPN[op]);
        free(a0);
        free(A);
    }
    if (ownB) {
        uint32_t *b0 = down(b, len);
        CHECK_ARR32(b0, B, len, "u32 %s modified its input b", OPN[op]);
        free(b0);
        free(B);
    }
    free(C);
    return s;
}

static ntt_status op1(ntt_plan *pl, op_t op, uint64_t *c, const uint64_t *a, const uint64_t *b)
{
    return run_op(pl, op, c, a, b, ntt_plan_size(pl), false, 1, ntt_plan_size(pl));
}

/* ---- oracles ----------------------------------------------------------------------- */

/* Position of natural index k in the plan's spectrum. */
static size_t spos(size_t k, size_t n, bool natural) { return natural ? k : t_bitrev(k, t_log2(n)); }

/* Evaluation point of natural index k: z^k (cyclic) or z^(2k+1) (negacyclic). */
static uint64_t point(uint64_t z, size_t k, bool nega, uint64_t p)
{
    return nega ? t_powmod(z, 2 * (uint64_t)k + 1, p) : t_powmod(z, k, p);
}

static uint64_t horner(const uint64_t *a, size_t n, uint64_t x, uint64_t p)
{
    uint64_t acc = 0;
    for (size_t j = n; j-- > 0;) acc = t_addmod(t_mulmod(acc, x, p), a[j], p);
    return acc;
}

/* The exact spectrum of a (plan order) for the root z. */
static void naive_spectrum(uint64_t *S, const uint64_t *a, size_t n, uint64_t z, bool nega, bool natural,
                           uint64_t p)
{
    const uint64_t step = nega ? t_mulmod(z, z, p) : z;
    uint64_t x = nega ? z : 1;
    for (size_t k = 0; k < n; k++) {
        S[spos(k, n, natural)] = horner(a, n, x, p);
        x = t_mulmod(x, step, p);
    }
}

/* Finds the plan's root from the spectrum of the polynomial x and checks
   that spectrum entirely and the root's exact order (n cyclic, 2n
   negacyclic).  Returns 0 on failure. */
static uint64_t plan_root(ntt_plan *pl, uint64_t p, size_t n, bool nega, bool natural, const char *ctx)
{
    uint64_t *x = calloc(n, sizeof *x), *S = xmalloc(n * sizeof *S);
    x[1] = 1;
    ntt_status s = op1(pl, OP_FWD, x, NULL, NULL);
    CHECK_STATUS(NTT_OK, s, "%s: forward(x)", ctx);
    uint64_t z = x[spos(nega ? 0 : 1, n, natural)];
    bool ok = s == NTT_OK;
    /* exact order: z^(N/2) == -1 for N = n or 2n */
    uint64_t half = nega ? n : n / 2;
    if (ok) {
        CHECK_EQ(p - 1, t_powmod(z, half, p), "%s: root %" PRIu64 " from forward(x) has the wrong order", ctx, z);
        ok = t_powmod(z, half, p) == p - 1;
    }
    if (ok) {
        const uint64_t step = nega ? t_mulmod(z, z, p) : z;
        uint64_t y = nega ? z : 1;
        for (size_t k = 0; k < n; k++, y = t_mulmod(y, step, p)) S[spos(k, n, natural)] = y;
        ok = CHECK_ARR64(S, x, n, "%s: forward(x) is not the powers of one root", ctx);
    }
    free(x);
    free(S);
    return ok ? z : 0;
}

/* Random values in [0, p) with many edge values (0 and p-1). */
static void fill_edgy(uint64_t *a, size_t n, uint64_t p)
{
    unsigned mode = (unsigned)rnd_below(4);
    for (size_t i = 0; i < n; i++) {
        uint64_t r = rnd_below(10);
        a[i] = mode == 0 ? p - 1 : r == 0 ? 0 : r == 1 ? p - 1 : rnd_below(p);
    }
}

/* ---- forward vs naive DFT ------------------------------------------------------------ */

static void dft_case(ntt_width w, uint64_t p, unsigned logn, bool nega)
{
    const size_t n = (size_t)1 << logn;
    uint64_t *a = xmalloc(n * sizeof *a), *b = xmalloc(n * sizeof *b), *S = xmalloc(n * sizeof *S);
    uint64_t root = 0;
    fill_edgy(a, n, p);
    char ctx[200];
    for (int natural = 0; natural < 2; natural++) {
        const unsigned flags = (nega ? NTT_FLAG_NEGACYCLIC : 0) | (natural ? NTT_FLAG_NATURAL_ORDER : 0);
        uint64_t sroot = 0; /* root for which S holds the spectrum */
        for (size_t ci = 0; ci < NCFG; ci++) {
            ctx_str(ctx, sizeof ctx, w, p, n, flags, CFGS[ci]);
            ntt_plan *pl = NULL;
            ntt_status s = mkplan(&pl, n, p, w, CFGS[ci], flags);
            CHECK_STATUS(NTT_OK, s, "%s: ntt_plan_create", ctx);
            if (s != NTT_OK) continue;
            uint64_t z = plan_root(pl, p, n, nega, natural, ctx);
            if (!z) {
                ntt_plan_destroy(pl);
                continue;
            }
            if (!root) root = z;
            CHECK_EQ(root, z, "%s: the root differs from the first configuration's", ctx);
            if (sroot != z) {
                naive_spectrum(S, a, n, z, nega, natural, p);
                sroot = z;
            }
            memcpy(b, a, n * sizeof *b);
            CHECK_STATUS(NTT_OK, op1(pl, OP_FWD, b, NULL, NULL), "%s: forward", ctx);
            CHECK_ARR64(S, b, n, "%s: forward vs naive DFT", ctx);
            CHECK_STATUS(NTT_OK, op1(pl, OP_INV, b, NULL, NULL), "%s: inverse", ctx);
            CHECK_ARR64(a, b, n, "%s: inverse(forward(a))", ctx);
            memcpy(b, S, n * sizeof *b);
            CHECK_STATUS(NTT_OK, op1(pl, OP_INV, b, NULL, NULL), "%s: inverse", ctx);
            CHECK_ARR64(a, b, n, "%s: inverse(naive spectrum of a)", ctx);
            ntt_plan_destroy(pl);
        }
        /* The baseline offers only % reduction. */
        static const ntt_modmul others[] = {NTT_MODMUL_BARRETT, NTT_MODMUL_MONTGOMERY, NTT_MODMUL_SHOUP};
        for (size_t i = 0; i < COUNT(others); i++) {
            cfg_t c = {NTT_VARIANT_BASELINE, others[i]};
            ntt_plan *pl = (ntt_plan *)&ctx; /* must be reset to NULL */
            ctx_str(ctx, sizeof ctx, w, p, n, flags, c);
            CHECK_STATUS(NTT_EUNSUPPORTED, mkplan(&pl, n, p, w, c, flags), "%s: ntt_plan_create", ctx);
            CHECK(pl == NULL, "%s: *plan not NULL after a failure", ctx);
        }
    }
    free(a);
    free(b);
    free(S);
}

static void test_dft(void)
{
    for (int wi = 0; wi < 2; wi++) {
        const ntt_width w = wi ? NTT_U64 : NTT_U32;
        const uint64_t *P = wi ? PRIMES64 : PRIMES32;
        const size_t np = wi ? COUNT(PRIMES64) : COUNT(PRIMES32);
        for (size_t pi = 0; pi < np; pi++)
            for (int nega = 0; nega < 2; nega++) {
                unsigned ml = max_log(P[pi], nega);
                for (unsigned logn = 1; logn <= 8 && logn <= ml; logn++) dft_case(w, P[pi], logn, nega);
            }
    }
}

/* ---- round trips, spot checks and sparse products up to 2^22 --------------------------- */

/* c = a * (sum_t v_t x^j_t) mod (x^n -+ 1), directly. */
static void sparse_mul(uint64_t *c, const uint64_t *a, size_t n, const size_t *j, const uint64_t *v,
                       size_t terms, bool nega, uint64_t p)
{
    memset(c, 0, n * sizeof *c);
    for (size_t t = 0; t < terms; t++) {
        for (size_t k = 0; k < n; k++) {
            size_t src = (k + n - j[t]) % n;
            uint64_t x = v[t] == 1 ? a[src] : v[t] == p - 1 ? (a[src] ? p - a[src] : 0) : t_mulmod(a[src], v[t], p);
            if (nega && k < j[t]) x = x ? p - x : 0; /* wrapped past x^n = -1 */
            c[k] = t_addmod(c[k], x, p);
        }
    }
}

static void roundtrip_case(ntt_width w, uint64_t p, unsigned logn, unsigned flags, cfg_t c, unsigned spots)
{
    const size_t n = (size_t)1 << logn;
    const bool nega = flags & NTT_FLAG_NEGACYCLIC, natural = flags & NTT_FLAG_NATURAL_ORDER;
    char ctx[200];
    ctx_str(ctx, sizeof ctx, w, p, n, flags, c);
    ntt_plan *pl = NULL;
    ntt_status s = mkplan(&pl, n, p, w, c, flags);
    CHECK_STATUS(NTT_OK, s, "%s: ntt_plan_create", ctx);
    if (s != NTT_OK) return;
    CHECK_EQ(n, ntt_plan_size(pl), "%s: ntt_plan_size", ctx);
    uint64_t *a = xmalloc(n * sizeof *a), *b = xmalloc(n * sizeof *b), *m = xmalloc(n * sizeof *m);
    fill_edgy(a, n, p);
    memcpy(b, a, n * sizeof *b);
    CHECK_STATUS(NTT_OK, op1(pl, OP_FWD, b, NULL, NULL), "%s: forward", ctx);
    size_t big = 0;
    for (size_t i = 0; i < n; i++) big += b[i] >= p;
    CHECK(big == 0, "%s: forward output has %zu values >= p", ctx, big);
    /* spot checks of the spectrum at a few positions */
    uint64_t z = spots ? plan_root(pl, p, n, nega, natural, ctx) : 0;
    for (unsigned t = 0; t < spots && z; t++) {
        size_t k = t == 0 ? 0 : t == 1 ? n - 1 : (size_t)rnd_below(n);
        uint64_t e = horner(a, n, point(z, k, nega, p), p);
        CHECK_EQ(e, b[spos(k, n, natural)], "%s: forward at natural index %zu", ctx, k);
    }
    CHECK_STATUS(NTT_OK, op1(pl, OP_INV, b, NULL, NULL), "%s: inverse", ctx);
    CHECK_ARR64(a, b, n, "%s: inverse(forward(a))", ctx);
    /* a product with a sparse polynomial: coefficients 1, p-1 and a random one */
    size_t j[3] = {(size_t)rnd_below(n), (size_t)rnd_below(n), (size_t)rnd_below(n)};
    uint64_t v[3] = {1, p - 1, rnd_below(p)};
    memset(b, 0, n * sizeof *b);
    for (int t = 0; t < 3; t++) b[j[t]] = t_addmod(b[j[t]], v[t], p);
    sparse_mul(m, a, n, j, v, 3, nega, p);
    CHECK_STATUS(NTT_OK, op1(pl, OP_MUL, b, a, b), "%s: polymul", ctx);
    CHECK_ARR64(m, b, n, "%s: polymul by x^%zu - x^%zu + %" PRIu64 " x^%zu", ctx, j[0], j[1], v[2], j[2]);
    ntt_plan_destroy(pl);
    free(a);
    free(b);
    free(m);
}

static void test_roundtrip(void)
{
    static const struct { ntt_width w; uint64_t p; } big[] = {
        {NTT_U32, 998244353}, {NTT_U32, 469762049}, {NTT_U32, 104857601},
        {NTT_U64, 1337006139375617ull}, {NTT_U64, 4611685941117976577ull},
    };
    unsigned rot = (unsigned)rnd_below(1000);
    for (unsigned logn = 1; logn <= 22; logn++) {
        for (int wi = 0; wi < 2; wi++) {
            const ntt_width w = wi ? NTT_U64 : NTT_U32;
            /* primes of this width that allow a negacyclic plan of this size */
            size_t cand[8], nc = 0;
            for (size_t i = 0; i < COUNT(big); i++)
                if (big[i].w == w && max_log(big[i].p, true) >= logn) cand[nc++] = i;
            if (logn <= 12) {
                for (size_t ci = 0; ci < NCFG; ci++)
                    for (unsigned f = 0; f < 4; f++) {
                        uint64_t p = big[cand[(rot + ci + f + logn) % nc]].p;
                        roundtrip_case(w, p, logn, f, CFGS[ci], logn <= 8 ? 0 : 4);
                    }
            } else if (logn <= 16) {
                for (size_t ci = 0; ci < NCFG; ci++) {
                    unsigned f = (unsigned)((rot + ci + logn) % 4);
                    roundtrip_case(w, big[cand[(rot + ci) % nc]].p, logn, f, CFGS[ci], ci == 1 ? 4 : 0);
                }
            } else {
                /* the default kind, and one of the others in turn */
                static const ntt_modmul fastk[] = {NTT_MODMUL_BARRETT, NTT_MODMUL_MONTGOMERY, NTT_MODMUL_SHOUP};
                cfg_t d = {NTT_VARIANT_FAST, NTT_MODMUL_DEFAULT};
                cfg_t o = {NTT_VARIANT_FAST, fastk[(rot + logn + (unsigned)wi) % 3]};
                if (logn == 17 || (logn == 18 && w == NTT_U32)) o.modmul = NTT_MODMUL_NAIVE;
                if (logn == 17 && w == NTT_U32) o.variant = NTT_VARIANT_BASELINE;
                const unsigned flags = (logn % 3 == 0) ? NTT_FLAG_NEGACYCLIC : 0;
                roundtrip_case(w, big[cand[(rot + logn) % nc]].p, logn, flags, d, 2);
                roundtrip_case(w, big[cand[(rot + logn + 1) % nc]].p, logn, flags ^ NTT_FLAG_NATURAL_ORDER, o, 0);
            }
        }
    }
}

/* ---- every kind bit-identical ---------------------------------------------------------- */

static void test_identical(void)
{
    static const unsigned logs[] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 14, 16};
    unsigned rot = (unsigned)rnd_below(1000);
    for (size_t li = 0; li < COUNT(logs); li++) {
        const unsigned logn = logs[li];
        const size_t n = (size_t)1 << logn;
        for (int wi = 0; wi < 2; wi++) {
            const ntt_width w = wi ? NTT_U64 : NTT_U32;
            const uint64_t *P = wi ? PRIMES64 : PRIMES32;
            const size_t np = wi ? COUNT(PRIMES64) : COUNT(PRIMES32);
            for (unsigned flags = 0; flags < 4; flags++) {
                const bool nega = flags & NTT_FLAG_NEGACYCLIC;
                uint64_t p = 0;
                for (size_t k = 0; k < np && !p; k++) {
                    uint64_t q = P[(rot + li + flags + k) % np];
                    if (max_log(q, nega) >= logn) p = q;
                }
                if (!p) continue;
                uint64_t *a = xmalloc(n * 8), *b = xmalloc(n * 8), *sp = xmalloc(n * 8);
                uint64_t *ref[4], *got = xmalloc(n * 8);
                fill_edgy(a, n, p);
                fill_edgy(b, n, p);
                fill_edgy(sp, n, p);
                for (int op = 0; op < 4; op++) ref[op] = xmalloc(n * 8);
                char ctx[200];
                for (size_t ci = 0; ci < NCFG; ci++) {
                    ctx_str(ctx, sizeof ctx, w, p, n, flags, CFGS[ci]);
                    ntt_plan *pl = NULL;
                    ntt_status s = mkplan(&pl, n, p, w, CFGS[ci], flags);
                    CHECK_STATUS(NTT_OK, s, "%s: ntt_plan_create", ctx);
                    if (s != NTT_OK) continue;
                    for (int op = 0; op < 4; op++) {
                        uint64_t *dst = ci == 0 ? ref[op] : got;
                        memcpy(dst, op == OP_INV ? sp : a, n * 8);
                        s = op1(pl, (op_t)op, dst, a, b);
                        CHECK_STATUS(NTT_OK, s, "%s: %s", ctx, OPN[op]);
                        if (ci > 0)
                            CHECK_ARR64(ref[op], got, n, "%s: %s differs from variant=fast modmul=naive", ctx, OPN[op]);
                    }
                    ntt_plan_destroy(pl);
                }
                if (n <= 512) {
                    t_cyclic_mul(got, a, b, n, p, nega);
                    CHECK_ARR64(got, ref[OP_MUL], n, "u%d p=%" PRIu64 " n=%zu flags=%u: polymul vs schoolbook", (int)w, p, n, flags);
                    for (size_t i = 0; i < n; i++) got[i] = t_mulmod(a[i], b[i], p);
                    CHECK_ARR64(got, ref[OP_PW], n, "u%d p=%" PRIu64 " n=%zu flags=%u: pointwise vs 128-bit %%", (int)w, p, n, flags);
                }
                for (int op = 0; op < 4; op++) free(ref[op]);
                free(a);
                free(b);
                free(sp);
                free(got);
            }
        }
    }
}

/* ---- batches and RNS plans -------------------------------------------------------------- */

#define SENT32 0xDEADBEEFu
#define SENT64 0xDEADBEEFCAFEF00Dull

/* One batch configuration: plan `pl` (moduli mods[0..nm)) against the
   single-modulus plans single[0..nm). */
static void batch_case(ntt_plan *pl, ntt_plan *const *single, const uint64_t *mods, size_t nm, size_t count,
                       size_t stride, const char *pctx)
{
    const size_t n = ntt_plan_size(pl);
    const ntt_width w = ntt_plan_width(pl);
    const uint64_t sent = w == NTT_U32 ? SENT32 : SENT64;
    const size_t len = count ? (count - 1) * stride + n + 9 : 16;
    uint64_t *A = xmalloc(len * 8), *B = xmalloc(len * 8), *C = xmalloc(len * 8);
    uint64_t *E = xmalloc(len * 8), *A0 = xmalloc(len * 8), *B0 = xmalloc(len * 8);
    char ctx[260];
    snprintf(ctx, sizeof ctx, "%s count=%zu stride=%zu", pctx, count, stride);
    for (int op = 0; op < 4; op++) {
        for (int alias = 0; alias < (op >= OP_PW ? 2 : 1); alias++) {
            /* everything the items do not cover holds the sentinel */
            for (size_t i = 0; i < len; i++) A[i] = B[i] = C[i] = sent;
            for (size_t it = 0; it < count; it++) {
                fill_edgy(A + it * stride, n, mods[it % nm]);
                fill_edgy(B + it * stride, n, mods[it % nm]);
                for (size_t j = 0; j < n; j++) C[it * stride + j] = sent - 1 - j; /* poison */
            }
            memcpy(A0, A, len * 8);
            memcpy(B0, B, len * 8);
            /* expected: item by item through the single plans */
            memcpy(E, op >= OP_PW && !alias ? C : A, len * 8);
            for (size_t it = 0; it < count; it++) {
                ntt_plan *sp = single[it % nm];
                ntt_status s = op1(sp, (op_t)op, E + it * stride, A + it * stride, B + it * stride);
                CHECK_STATUS(NTT_OK, s, "%s: single %s of item %zu", ctx, OPN[op], it);
            }
            uint64_t *dst = op >= OP_PW && !alias ? C : A;
            ntt_status s = run_op(pl, (op_t)op, dst, A, B, len, true, count, stride);
            CHECK_STATUS(NTT_OK, s, "%s: batched %s%s", ctx, OPN[op], alias ? " (c == a)" : "");
            CHECK_ARR64(E, dst, len, "%s: batched %s%s vs item by item (gaps hold %" PRIu64 ")", ctx, OPN[op],
                        alias ? " (c == a)" : "", sent);
            if (dst != A) CHECK_ARR64(A0, A, len, "%s: batched %s modified a", ctx, OPN[op]);
            CHECK_ARR64(B0, B, len, "%s: batched %s modified b", ctx, OPN[op]);
        }
    }
    free(A);
    free(B);
    free(C);
    free(E);
    free(A0);
    free(B0);
}

static void test_batch(void)
{
    static const uint64_t rns32[3] = {998244353, 469762049, 7340033};
    static const uint64_t rns64[3] = {1337006139375617ull, 4611685941117976577ull, 4611685692009873409ull};
    static const unsigned logs[] = {1, 2, 3, 4, 6, 8, 11};
    for (int wi = 0; wi < 2; wi++) {
        const ntt_width w = wi ? NTT_U64 : NTT_U32;
        const uint64_t *rns = wi ? rns64 : rns32;
        for (size_t li = 0; li < COUNT(logs); li++) {
            const size_t n = (size_t)1 << logs[li];
            for (unsigned flags = 0; flags < 4; flags++) {
                cfg_t c = CFGS[rnd_below(NCFG)];
                for (int use_rns = 0; use_rns < 2; use_rns++) {
                    const size_t nm = use_rns ? 3 : 1;
                    const uint64_t *mods = use_rns ? rns : rns + rnd_below(3);
                    char ctx[200];
                    ctx_str(ctx, sizeof ctx, w, mods[0], n, flags, c);
                    if (use_rns) {
                        size_t l = strlen(ctx);
                        snprintf(ctx + l, sizeof ctx - l, " RNS{%" PRIu64 ",%" PRIu64 ",%" PRIu64 "}", mods[0], mods[1], mods[2]);
                    }
                    ntt_plan *pl = NULL, *single[3] = {NULL, NULL, NULL};
                    test_opts o = {.modmul = c.modmul, .variant = c.variant, .flags = flags};
                    ntt_status s = test_plan_create_rns(&pl, n, mods, nm, w, NTT_BACKEND_SCALAR, &o);
                    CHECK_STATUS(NTT_OK, s, "%s: ntt_plan_create_rns", ctx);
                    bool ok = s == NTT_OK;
                    for (size_t i = 0; i < nm && ok; i++) {
                        s = mkplan(&single[i], n, mods[i], w, c, flags);
                        CHECK_STATUS(NTT_OK, s, "%s: single plan for %" PRIu64, ctx, mods[i]);
                        ok = s == NTT_OK;
                    }
                    if (ok) {
                        const uint64_t *got = NULL;
                        CHECK_EQ(nm, ntt_plan_moduli(pl, &got), "%s: ntt_plan_moduli", ctx);
                        for (size_t i = 0; got && i < nm; i++) CHECK_EQ(mods[i], got[i], "%s: moduli[%zu]", ctx, i);
                        static const size_t counts[] = {0, 1, 5};
                        for (size_t k = 0; k < COUNT(counts); k++) {
                            batch_case(pl, single, mods, nm, counts[k], n, ctx);
                            batch_case(pl, single, mods, nm, counts[k], n + 7, ctx);
                        }
                    }
                    ntt_plan_destroy(pl);
                    for (size_t i = 0; i < 3; i++) ntt_plan_destroy(single[i]);
                }
            }
        }
    }
}

/* ---- exact aliasing ------------------------------------------------------------------------ */

static void test_alias(void)
{
    static const unsigned logs[] = {1, 2, 3, 5, 8, 10, 13};
    for (size_t li = 0; li < COUNT(logs); li++) {
        const size_t n = (size_t)1 << logs[li];
        for (int wi = 0; wi < 2; wi++) {
            const ntt_width w = wi ? NTT_U64 : NTT_U32;
            const uint64_t p = wi ? PRIMES64[rnd_below(2)] : PRIMES32[rnd_below(4)];
            for (unsigned flags = 0; flags < 4; flags++) {
                cfg_t c = CFGS[rnd_below(NCFG)];
                char ctx[200];
                ctx_str(ctx, sizeof ctx, w, p, n, flags, c);
                ntt_plan *pl = NULL;
                ntt_status s = mkplan(&pl, n, p, w, c, flags);
                CHECK_STATUS(NTT_OK, s, "%s: ntt_plan_create", ctx);
                if (s != NTT_OK) continue;
                uint64_t *a = xmalloc(n * 8), *b = xmalloc(n * 8), *r = xmalloc(n * 8), *x = xmalloc(n * 8);
                uint64_t *sq = xmalloc(n * 8), *e = xmalloc(n * 8);
                fill_edgy(a, n, p);
                fill_edgy(b, n, p);
                for (int op = OP_PW; op <= OP_MUL; op++) {
                    /* references without aliasing: a*b and a*a */
                    CHECK_STATUS(NTT_OK, op1(pl, (op_t)op, r, a, b), "%s: %s", ctx, OPN[op]);
                    memcpy(e, a, n * 8);
                    CHECK_STATUS(NTT_OK, op1(pl, (op_t)op, sq, a, e), "%s: %s", ctx, OPN[op]);
                    if (op == OP_MUL) {
                        t_cyclic_mul(e, a, a, n, p, flags & NTT_FLAG_NEGACYCLIC);
                        if (n <= 1024) CHECK_ARR64(e, sq, n, "%s: square vs schoolbook", ctx);
                    }
                    memcpy(x, a, n * 8);
                    CHECK_STATUS(NTT_OK, op1(pl, (op_t)op, x, x, b), "%s: %s c == a", ctx, OPN[op]);
                    CHECK_ARR64(r, x, n, "%s: %s with c == a", ctx, OPN[op]);
                    memcpy(x, b, n * 8);
                    CHECK_STATUS(NTT_OK, op1(pl, (op_t)op, x, a, x), "%s: %s c == b", ctx, OPN[op]);
                    CHECK_ARR64(r, x, n, "%s: %s with c == b", ctx, OPN[op]);
                    memcpy(x, a, n * 8);
                    uint64_t *cc = e;
                    memset(cc, 0x5a, n * 8);
                    for (size_t i = 0; i < n; i++) cc[i] %= p;
                    CHECK_STATUS(NTT_OK, op1(pl, (op_t)op, cc, x, x), "%s: %s a == b", ctx, OPN[op]);
                    CHECK_ARR64(sq, cc, n, "%s: %s with a == b (square)", ctx, OPN[op]);
                    CHECK_ARR64(a, x, n, "%s: %s with a == b modified a", ctx, OPN[op]);
                    CHECK_STATUS(NTT_OK, op1(pl, (op_t)op, x, x, x), "%s: %s c == a == b", ctx, OPN[op]);
                    CHECK_ARR64(sq, x, n, "%s: %s with c == a == b", ctx, OPN[op]);
                }
                ntt_plan_destroy(pl);
                free(a);
                free(b);
                free(r);
                free(x);
                free(sq);
                free(e);
            }
        }
    }
}

/* ---- input range ------------------------------------------------------------------------------ */

/* ntt.h's contract of a pointwise call that failed with NTT_ERANGE (it
   checks in the pass that multiplies): every c[i] is its old value or its
   product, old where a[i] or b[i] is out of range, and the gaps between
   items are untouched.  x0, a0, b0: c, a, b before the call. */
static void pw_range_contract(const ntt_plan *pl, const uint64_t *c, const uint64_t *x0,
                              const uint64_t *a0, const uint64_t *b0, size_t len, size_t stride,
                              const char *ctx)
{
    const uint64_t *mods;
    const size_t nmod = ntt_plan_moduli(pl, &mods), n = ntt_plan_size(pl);
    for (size_t i = 0; i < len; i++) {
        const uint64_t p = mods[(i / stride) % nmod];
        const bool gap = i % stride >= n, bad = a0[i] >= p || b0[i] >= p;
        if (c[i] == x0[i]) continue;
        CHECK(!gap && !bad && c[i] == t_mulmod(a0[i], b0[i], p),
              "%s: pointwise failed with NTT_ERANGE and wrote c[%zu] = %" PRIu64
              " (old %" PRIu64 ", a %" PRIu64 ", b %" PRIu64 ")",
              ctx, i, c[i], x0[i], a0[i], b0[i]);
    }
}

static void test_range(void)
{
    static const unsigned logs[] = {1, 2, 4, 7, 10, 12};
    for (size_t li = 0; li < COUNT(logs); li++) {
        const size_t n = (size_t)1 << logs[li];
        for (int wi = 0; wi < 2; wi++) {
            const ntt_width w = wi ? NTT_U64 : NTT_U32;
            const uint64_t p = wi ? PRIMES64[rnd_below(2)] : PRIMES32[rnd_below(5)];
            const uint64_t maxv = wi ? UINT64_MAX : UINT32_MAX;
            for (unsigned flags = 0; flags < 4; flags++) {
                cfg_t c = CFGS[rnd_below(NCFG)];
                char ctx[200];
                ctx_str(ctx, sizeof ctx, w, p, n, flags, c);
                ntt_plan *pl = NULL;
                ntt_status s = mkplan(&pl, n, p, w, c, flags);
                CHECK_STATUS(NTT_OK, s, "%s: ntt_plan_create", ctx);
                if (s != NTT_OK) continue;
                const size_t count = 4, stride = n + 3, len = (count - 1) * stride + n;
                uint64_t *a = xmalloc(len * 8), *b = xmalloc(len * 8), *cbuf = xmalloc(len * 8);
                uint64_t *a0 = xmalloc(len * 8), *b0 = xmalloc(len * 8), *c0 = xmalloc(len * 8);
                for (int op = 0; op < 4; op++)
                    for (int which = 0; which < (op >= OP_PW ? 2 : 1); which++)
                        for (int batch = 0; batch < 2; batch++)
                            for (int alias = 0; alias < (op >= OP_PW ? 2 : 1); alias++) {
                                const size_t cnt = batch ? count : 1, l = batch ? len : n;
                                fill_edgy(a, l, p);
                                fill_edgy(b, l, p);
                                for (size_t i = 0; i < l; i++) cbuf[i] = (i * 7919) % p;
                                /* the bad value: in the last item, at its start, end or anywhere */
                                uint64_t *bad = which ? b : a;
                                size_t base = (cnt - 1) * stride, r = rnd_below(3);
                                size_t pos = base + (r == 0 ? 0 : r == 1 ? n - 1 : (size_t)rnd_below(n));
                                bad[pos] = rnd_below(4) ? p : maxv;
                                uint64_t *dst = op < OP_PW ? a : alias ? a : cbuf;
                                memcpy(a0, a, l * 8);
                                memcpy(b0, b, l * 8);
                                memcpy(c0, cbuf, l * 8);
                                s = run_op(pl, (op_t)op, dst, a, b, l, batch, cnt, stride);
                                CHECK_STATUS(NTT_ERANGE, s, "%s: %s%s with %s[%zu] = %" PRIu64 "%s", ctx,
                                             batch ? "batched " : "", OPN[op], which ? "b" : "a", pos, bad[pos],
                                             alias ? " (c == a)" : "");
                                if (op == OP_PW) {
                                    pw_range_contract(pl, dst, alias ? a0 : c0, a0, b0, l, stride, ctx);
                                    if (!alias)
                                        CHECK_ARR64(a0, a, l, "%s: pointwise failed but modified a", ctx);
                                    CHECK_ARR64(b0, b, l, "%s: pointwise failed but modified b", ctx);
                                    continue;
                                }
                                CHECK_ARR64(a0, a, l, "%s: %s%s failed with NTT_ERANGE but modified a", ctx,
                                            batch ? "batched " : "", OPN[op]);
                                CHECK_ARR64(b0, b, l, "%s: %s failed but modified b", ctx, OPN[op]);
                                CHECK_ARR64(c0, cbuf, l, "%s: %s%s failed with NTT_ERANGE but modified c", ctx,
                                            batch ? "batched " : "", OPN[op]);
                            }
                /* p - 1 everywhere is accepted */
                for (size_t i = 0; i < n; i++) a[i] = b[i] = p - 1;
                for (int op = 0; op < 4; op++)
                    CHECK_STATUS(NTT_OK, op1(pl, (op_t)op, op < OP_PW ? a : cbuf, a, b), "%s: %s of all p-1", ctx, OPN[op]);
                ntt_plan_destroy(pl);
                free(a);
                free(b);
                free(cbuf);
                free(a0);
                free(b0);
                free(c0);
            }
        }
    }

    /* RNS: a value fine for item 0's modulus but not for item 1's. */
    for (int wi = 0; wi < 2; wi++) {
        const ntt_width w = wi ? NTT_U64 : NTT_U32;
        const uint64_t mods[3] = {wi ? 4611685941117976577ull : 998244353, wi ? 1337006139375617ull : 7340033,
                                  wi ? 4611685692009873409ull : 469762049};
        const size_t n = 16;
        ntt_plan *pl = NULL;
        ntt_status s = test_plan_create_rns(&pl, n, mods, 3, w, NTT_BACKEND_SCALAR, NULL);
        CHECK_STATUS(NTT_OK, s, "u%d RNS plan", (int)w);
        if (s != NTT_OK) continue;
        uint64_t a[48], a0[48], c[48], c0[48];
        for (size_t it = 0; it < 3; it++) fill_edgy(a + 16 * it, 16, mods[it]);
        for (size_t i = 0; i < 48; i++) c[i] = 1;
        a[16 + 5] = mods[1] + 1; /* < mods[0] and mods[2] */
        memcpy(a0, a, sizeof a);
        memcpy(c0, c, sizeof c);
        for (int op = 0; op < 4; op++) {
            s = run_op(pl, (op_t)op, op < OP_PW ? a : c, a, a, 48, true, 3, 16);
            CHECK_STATUS(NTT_ERANGE, s, "u%d RNS batched %s: item 1 holds %" PRIu64 " >= its modulus %" PRIu64, (int)w,
                         OPN[op], mods[1] + 1, mods[1]);
            CHECK_ARR64(a0, a, 48, "u%d RNS batched %s failed but modified a", (int)w, OPN[op]);
            if (op == OP_PW) {
                pw_range_contract(pl, c, c0, a0, a0, 48, 16, w == NTT_U64 ? "u64 RNS batched" : "u32 RNS batched");
                memcpy(c, c0, sizeof c);
                continue;
            }
            CHECK_ARR64(c0, c, 48, "u%d RNS batched %s failed but modified c", (int)w, OPN[op]);
        }
        /* the same value in item 0 or 2 is fine */
        a[16 + 5] = 0;
        a[5] = mods[1] + 1;
        a[32 + 5] = mods[1] + 1;
        CHECK_STATUS(NTT_OK, run_op(pl, OP_FWD, a, NULL, NULL, 48, true, 3, 16),
                     "u%d RNS: %" PRIu64 " is below item 0's and item 2's moduli", (int)w, mods[1] + 1);
        ntt_plan_destroy(pl);
    }
}

int main(void)
{
    test_init("test_ntt");
    test_dft();
    test_identical();
    test_batch();
    test_alias();
    test_range();
    test_roundtrip();
    return test_finish();
}
