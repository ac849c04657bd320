/* libFuzzer: big prime fields (include/ntt_field.h) with fuzzer-chosen
   moduli, sizes (n <= 2^8), flags, thread counts, coset shifts, batch
   shapes and inputs.  No big-number library here, so the checks are the
   API's own promises and identities: a product of two factors > 1 is
   refused; a prime's 2-adicity is p - 1's trailing zeros; every call
   gives the same status and words on one thread and on several;
   inverse(forward(a)) == a; the natural order is the bit-reversed one
   permuted; polymul is commutative and has 1 as its unit; the linear
   product is the cyclic one of the zero-padded operands; the conversions
   are inverse to each other; a failed call writes nothing. */
#include "fuzz_input.h"
#include "ntt_field.h"

#include <string.h>

#define MAXLOG 8
#define MAXN (1u << MAXLOG)
#define MAXW NTT_FIELD_MAX_WORDS
#define MAXCOUNT 3
#define MAXSTRIDE (MAXN + 2)
#define WORDS (MAXCOUNT * MAXSTRIDE * MAXW)

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static uint64_t A[WORDS], B[WORDS], C[WORDS], X[WORDS], Y[WORDS], Z[WORDS], O[WORDS];

enum { OP_FORWARD, OP_INVERSE, OP_POINTWISE, OP_POLYMUL, OP_LINEAR, OP_CONVERT, OP_COUNT };

/* r = x * y (schoolbook), x of xw words, y of yw; r of xw + yw words. */
static void mul_words(uint64_t *r, const uint64_t *x, size_t xw, const uint64_t *y, size_t yw)
{
    memset(r, 0, (xw + yw) * 8);
    for (size_t i = 0; i < xw; i++) {
        uint64_t c = 0;
        for (size_t j = 0; j < yw; j++) {
            unsigned __int128 t = (unsigned __int128)x[i] * y[j] + r[i + j] + c;
            r[i + j] = (uint64_t)t;
            c = (uint64_t)(t >> 64);
        }
        r[i + yw] = c;
    }
}

/* A field: a preset, a composite (checked refused, then NULL), or a prime
   k 2^s + 1 searched upward from fuzzer words. */
static ntt_field *make_field(fuzz_input *in)
{
    ntt_field *f = NULL;
    const unsigned mode = fuzz_u8(in) % 8;
    if (mode < 4) {
        ntt_status s = ntt_field_create_preset(&f, (ntt_field_preset)mode);
        FUZZ_EXPECT(s == NTT_OK, "preset %u: %s", mode, ntt_status_string(s));
        return f;
    }
    if (mode == 4) {
        /* x y with x, y > 1: never prime. */
        uint64_t x[MAXW] = {0}, y[MAXW] = {0}, p[2 * MAXW];
        size_t xw = (size_t)fuzz_range(in, 1, 8), yw = (size_t)fuzz_range(in, 1, 8);
        for (size_t i = 0; i < xw; i++) x[i] = fuzz_u64(in);
        for (size_t i = 0; i < yw; i++) y[i] = fuzz_u64(in);
        x[0] |= 3; /* > 1 and odd, so the product is odd too */
        y[0] |= 3;
        x[xw - 1] |= (uint64_t)1 << 62;
        mul_words(p, x, xw, y, yw);
        size_t pw = xw + yw;
        while (pw > 1 && p[pw - 1] == 0) pw--;
        if (pw > MAXW) return NULL;
        ntt_status s = ntt_field_create(&f, p, pw);
        FUZZ_EXPECT(s == NTT_EMODULUS, "a product of two factors > 1 (%zu words): %s", pw,
                    ntt_status_string(s));
        FUZZ_EXPECT(f == NULL, "f not NULL after a failure");
        return NULL;
    }
    if (mode == 5) {
        /* Any words: whatever the status, it is one of the documented ones. */
        uint64_t p[MAXW];
        size_t pw = (size_t)fuzz_range(in, 0, MAXW + 1);
        for (size_t i = 0; i < pw && i < MAXW; i++) p[i] = fuzz_u64(in);
        ntt_status s = ntt_field_create(&f, p, pw);
        FUZZ_EXPECT(s == NTT_OK || s == NTT_EINVAL || s == NTT_EMODULUS, "create: %s",
                    ntt_status_string(s));
        FUZZ_EXPECT((s == NTT_OK) == (f != NULL), "f does not follow the status");
        return f;
    }
    /* k 2^s + 1, k from the fuzzer, upward until prime (at most 400 tries). */
    const size_t pw = (size_t)fuzz_range(in, 2, mode == 6 ? 4 : MAXW);
    const unsigned s = (unsigned)fuzz_range(in, 1, MAXLOG + 4);
    uint64_t k[MAXW] = {0};
    for (size_t i = 0; i < pw; i++) k[i] = fuzz_u64(in);
    k[pw - 1] >>= s + 1;
    k[pw - 1] |= (uint64_t)1 << (62 - s);
    k[0] |= 1;
    for (int tries = 0; tries < 400; tries++) {
        uint64_t p[MAXW];
        /* p = k 2^s + 1 */
        for (size_t i = pw; i-- > 0;) p[i] = (k[i] << s) | (i ? k[i - 1] >> (64 - s) : 0);
        p[0] |= 1;
        if (ntt_field_create(&f, p, pw) == NTT_OK) {
            unsigned tz = 0;
            p[0] ^= 1;
            while (!((p[tz / 64] >> (tz % 64)) & 1)) tz++;
            FUZZ_EXPECT(ntt_field_two_adicity(f) == tz, "2-adicity %u, p - 1 has %u zero bits",
                        ntt_field_two_adicity(f), tz);
            FUZZ_EXPECT(ntt_field_words(f) == pw, "words");
            return f;
        }
        k[0] += 2;
    }
    return NULL;
}

static size_t brv(size_t x, unsigned bits)
{
    size_t r = 0;
    for (unsigned i = 0; i < bits; i++, x >>= 1) r = (r << 1) | (x & 1);
    return r;
}

/* Elements below p: the fuzzer's words, each reduced by clearing the top
   word's bits above p's top bit and then, while >= p, its top word. */
static void fill(fuzz_input *in, uint64_t *a, size_t count, const uint64_t *p, size_t w)
{
    const unsigned top = 63 - (unsigned)__builtin_clzll(p[w - 1]);
    for (size_t i = 0; i < count; i++) {
        uint64_t *x = a + i * w;
        for (size_t j = 0; j < w; j++) x[j] = fuzz_left(in) ? fuzz_u64(in) : (i * 0x9e3779b97f4a7c15ull) ^ j;
        x[w - 1] &= ((uint64_t)2 << top) - 1;
        if (x[w - 1] >= p[w - 1]) x[w - 1] = p[w - 1] - 1;
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fuzz_input in = {data, size, 0};
    ntt_field *f = make_field(&in);
    if (!f) return 0;
    const size_t w = ntt_field_words(f);
    const uint64_t *p = ntt_field_modulus(f);

    size_t n = (size_t)1 << fuzz_range(&in, 1, MAXLOG);
    const unsigned shape = fuzz_u8(&in);
    if ((shape & 15) == 0) n = (size_t)fuzz_range(&in, 0, MAXN); /* rarely not a power of two */
    ntt_field_plan_options o1 = {.flags = (unsigned)fuzz_range(&in, 0, 15)};
    if ((shape & 0x30) == 0x30) o1.flags = fuzz_u8(&in);
    uint64_t shift[MAXW] = {0};
    if (shape & 0x40) {
        fill(&in, shift, 1, p, w);
        o1.coset_shift = shift;
    }
    ntt_field_plan_options ot = o1;
    ot.threads = (int)fuzz_range(&in, 2, 3);

    ntt_field_plan *p1 = NULL, *pt = NULL;
    ntt_status s1 = ntt_field_plan_create(&p1, f, n, &o1);
    ntt_status st = ntt_field_plan_create(&pt, f, n, &ot);
    FUZZ_EXPECT(s1 == st, "plan n %zu flags %u: %s on one thread, %s on %d", n, o1.flags,
                ntt_status_string(s1), ntt_status_string(st), ot.threads);
    if (s1 != NTT_OK) {
        FUZZ_EXPECT(s1 == NTT_EINVAL || s1 == NTT_EMODULUS, "plan: %s", ntt_status_string(s1));
        if (s1 == NTT_EMODULUS) {
            size_t lg = 0;
            while (((size_t)1 << lg) < n) lg++;
            FUZZ_EXPECT(lg > ntt_field_two_adicity(f), "EMODULUS with 2^%zu | p - 1", lg);
        }
        ntt_field_destroy(f);
        return 0;
    }
    unsigned lg = 0;
    while (((size_t)1 << lg) < n) lg++;

    const int op = (int)fuzz_range(&in, 0, OP_COUNT - 1);
    const unsigned call = fuzz_u8(&in);
    const bool batched = (op <= OP_POINTWISE) && (call & 1);
    const size_t count = batched ? (size_t)fuzz_range(&in, 0, MAXCOUNT) : 1;
    size_t stride = n + (size_t)fuzz_range(&in, 0, 2);
    if (batched && (call & 6) == 6) stride = n - 1;
    size_t la = (size_t)fuzz_range(&in, 0, n), lb = (size_t)fuzz_range(&in, 0, n);
    if ((call & 8) == 0 && la + lb > n + 1 && la) la = n + 1 - lb;

    const size_t elems = MAXCOUNT * MAXSTRIDE;
    fill(&in, A, elems, p, w);
    fill(&in, B, elems, p, w);
    for (size_t i = 0; i < elems * w; i++) C[i] = i;
    if ((call & 0x70) == 0x70) { /* one element out of range */
        size_t at = (size_t)fuzz_range(&in, 0, elems - 1);
        memcpy(A + at * w, p, w * 8);
        if (call & 0x80) A[at * w + w - 1] = ~(uint64_t)0;
    }
    memcpy(X, A, sizeof A);
    memcpy(Y, B, sizeof B);
    memcpy(Z, C, sizeof C);
    memcpy(O, A, sizeof A);

    ntt_status r1 = NTT_OK, rt = NTT_OK;
    switch (op) {
    case OP_FORWARD:
    case OP_INVERSE: {
        const bool fw = op == OP_FORWARD;
        r1 = batched ? (fw ? ntt_field_forward_batch(p1, A, count, stride)
                           : ntt_field_inverse_batch(p1, A, count, stride))
                     : (fw ? ntt_field_forward(p1, A) : ntt_field_inverse(p1, A));
        rt = batched ? (fw ? ntt_field_forward_batch(pt, X, count, stride)
                           : ntt_field_inverse_batch(pt, X, count, stride))
                     : (fw ? ntt_field_forward(pt, X) : ntt_field_inverse(pt, X));
        break;
    }
    case OP_POINTWISE:
        r1 = batched ? ntt_field_pointwise_batch(p1, C, A, B, count, stride)
                     : ntt_field_pointwise(p1, C, A, B);
        rt = batched ? ntt_field_pointwise_batch(pt, Z, X, Y, count, stride)
                     : ntt_field_pointwise(pt, Z, X, Y);
        break;
    case OP_POLYMUL:
        r1 = ntt_field_polymul(p1, C, A, B);
        rt = ntt_field_polymul(pt, Z, Y, X); /* commutative */
        break;
    case OP_LINEAR:
        r1 = ntt_field_polymul_linear(p1, C, A, la, B, lb);
        rt = ntt_field_polymul_linear(pt, Z, X, la, Y, lb);
        break;
    default:
        r1 = ntt_field_to_mont(f, C, A, n);
        rt = ntt_field_to_mont(f, Z, X, n);
        if (r1 == NTT_OK) {
            ntt_status u = ntt_field_from_mont(f, Z, Z, n);
            FUZZ_EXPECT(u == NTT_OK, "from_mont: %s", ntt_status_string(u));
            FUZZ_EXPECT(memcmp(Z, A, n * w * 8) == 0, "from_mont(to_mont(a)) != a");
            memcpy(Z, C, n * w * 8);
        }
        break;
    }
    FUZZ_EXPECT(r1 == rt, "op %d n %zu flags %u: %s on one thread, %s on %d", op, n, o1.flags,
                ntt_status_string(r1), ntt_status_string(rt), ot.threads);
    if (r1 != NTT_OK) {
        FUZZ_EXPECT(r1 == NTT_EINVAL || r1 == NTT_ERANGE, "op %d: %s", op, ntt_status_string(r1));
        FUZZ_EXPECT(memcmp(C, Z, sizeof C) == 0, "a failed call wrote c");
        for (size_t i = 0; i < elems * w; i++) FUZZ_EXPECT(C[i] == i, "a failed call wrote c[%zu]", i);
        FUZZ_EXPECT(memcmp(X, O, sizeof A) == 0 && memcmp(A, O, sizeof A) == 0 &&
                        memcmp(Y, B, sizeof B) == 0,
                    "a failed call wrote its inputs");
        goto out;
    }
    if (op == OP_FORWARD || op == OP_INVERSE) {
        FUZZ_EXPECT(memcmp(X, A, sizeof A) == 0, "op %d n %zu flags %u: threads differ", op, n,
                    o1.flags);
        if (op == OP_FORWARD && !batched && (o1.flags & NTT_FLAG_NATURAL_ORDER)) {
            /* natural order == the bit-reversed plan's output, permuted */
            ntt_field_plan_options ob = o1;
            ob.flags &= ~NTT_FLAG_NATURAL_ORDER;
            ntt_field_plan *pb = NULL;
            FUZZ_EXPECT(ntt_field_plan_create(&pb, f, n, &ob) == NTT_OK, "bit-reversed plan");
            memcpy(Z, O, n * w * 8);
            ntt_status u = ntt_field_forward(pb, Z);
            FUZZ_EXPECT(u == NTT_OK, "forward: %s", ntt_status_string(u));
            for (size_t k = 0; k < n; k++)
                FUZZ_EXPECT(memcmp(A + k * w, Z + brv(k, lg) * w, w * 8) == 0,
                            "natural order word %zu is not bit-reversed word %zu", k, brv(k, lg));
            ntt_field_plan_destroy(pb);
        }
        /* and back: the inputs again, the gaps between items untouched */
        const size_t items = batched ? count : 1;
        for (size_t i = 0; i < items; i++) {
            uint64_t *x = A + i * stride * w;
            ntt_status u = op == OP_FORWARD ? ntt_field_inverse(p1, x) : ntt_field_forward(p1, x);
            FUZZ_EXPECT(u == NTT_OK, "undo: %s", ntt_status_string(u));
        }
        FUZZ_EXPECT(memcmp(A, O, sizeof A) == 0, "op %d n %zu flags %u: the round trip is not the identity",
                    op, n, o1.flags);
    } else {
        FUZZ_EXPECT(memcmp(C, Z, sizeof C) == 0, "op %d n %zu flags %u: threads differ", op, n,
                    o1.flags);
        if (op == OP_POLYMUL) {
            /* b = 1 (in the plan's form): a again */
            memset(Y, 0, n * w * 8);
            if (o1.flags & NTT_FIELD_FLAG_MONTGOMERY) {
                uint64_t one[MAXW] = {1};
                FUZZ_EXPECT(ntt_field_to_mont(f, Y, one, 1) == NTT_OK, "to_mont");
            } else {
                Y[0] = 1;
            }
            ntt_status u = ntt_field_polymul(p1, Z, A, Y);
            FUZZ_EXPECT(u == NTT_OK, "polymul by 1: %s", ntt_status_string(u));
            FUZZ_EXPECT(memcmp(Z, A, n * w * 8) == 0, "a * 1 != a");
        }
        if (op == OP_LINEAR) {
            /* the cyclic product of the zero-padded operands */
            memset(X, 0, n * w * 8);
            memset(Y, 0, n * w * 8);
            memcpy(X, A, la * w * 8);
            memcpy(Y, B, lb * w * 8);
            ntt_field_plan_options oc = o1;
            oc.flags &= ~NTT_FIELD_FLAG_COSET;
            ntt_field_plan *pc = NULL;
            FUZZ_EXPECT(ntt_field_plan_create(&pc, f, n, &oc) == NTT_OK, "cyclic plan");
            ntt_status u = ntt_field_polymul(pc, Z, X, Y);
            FUZZ_EXPECT(u == NTT_OK, "polymul: %s", ntt_status_string(u));
            FUZZ_EXPECT(memcmp(Z, C, (la + lb - 1) * w * 8) == 0,
                        "linear product != cyclic product of the padded operands");
            ntt_field_plan_destroy(pc);
        }
    }
out:
    ntt_field_plan_destroy(p1);
    ntt_field_plan_destroy(pt);
    ntt_field_destroy(f);
    return 0;
}
