/* libFuzzer: ntt_plan_create(_rns) and every execution call with
   fuzzer-chosen sizes, moduli, widths, flags, modmul kinds, batch counts
   and strides (n <= 2^10), on a chosen backend, against the same calls on
   a SCALAR plan: the statuses must agree, the arrays must agree bit for
   bit, and a failed call must leave them as they were. */
#include "fuzz_input.h"

#include <string.h>

#define MAXLOG 10
#define MAXMOD 3
#define MAXCOUNT 4
#define MAXSTRIDE ((1u << MAXLOG) + 3)
#define WORDS (MAXCOUNT * MAXSTRIDE)

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

enum { OP_FORWARD, OP_INVERSE, OP_POINTWISE, OP_POLYMUL, OP_LINEAR, OP_COUNT };

typedef struct bufs {
    uint64_t a[WORDS], b[WORDS], c[WORDS];
    uint32_t a32[WORDS], b32[WORDS], c32[WORDS];
} bufs;

static bufs ref, got;

static ntt_status run(ntt_plan *plan, bool u32, int op, bool batched, size_t count, size_t stride,
                      size_t la, size_t lb, bufs *x)
{
    if (u32) {
        switch (op) {
        case OP_FORWARD:
            return batched ? ntt_forward_batch_u32(plan, x->a32, count, stride)
                           : ntt_forward_u32(plan, x->a32);
        case OP_INVERSE:
            return batched ? ntt_inverse_batch_u32(plan, x->a32, count, stride)
                           : ntt_inverse_u32(plan, x->a32);
        case OP_POINTWISE:
            return batched ? ntt_pointwise_batch_u32(plan, x->c32, x->a32, x->b32, count, stride)
                           : ntt_pointwise_u32(plan, x->c32, x->a32, x->b32);
        case OP_POLYMUL:
            return batched ? ntt_polymul_batch_u32(plan, x->c32, x->a32, x->b32, count, stride)
                           : ntt_polymul_u32(plan, x->c32, x->a32, x->b32);
        default: return ntt_polymul_linear_u32(plan, x->c32, x->a32, la, x->b32, lb);
        }
    }
    switch (op) {
    case OP_FORWARD:
        return batched ? ntt_forward_batch_u64(plan, x->a, count, stride) : ntt_forward_u64(plan, x->a);
    case OP_INVERSE:
        return batched ? ntt_inverse_batch_u64(plan, x->a, count, stride) : ntt_inverse_u64(plan, x->a);
    case OP_POINTWISE:
        return batched ? ntt_pointwise_batch_u64(plan, x->c, x->a, x->b, count, stride)
                       : ntt_pointwise_u64(plan, x->c, x->a, x->b);
    case OP_POLYMUL:
        return batched ? ntt_polymul_batch_u64(plan, x->c, x->a, x->b, count, stride)
                       : ntt_polymul_u64(plan, x->c, x->a, x->b);
    default: return ntt_polymul_linear_u64(plan, x->c, x->a, la, x->b, lb);
    }
}

/* After pointwise returned NTT_ERANGE (ntt.h): a and b as they were; each
   word of c as it was or a*b mod p, and as it was where a or b is out of
   range or outside every item. */
static void pointwise_partial(const bufs *before, const bufs *x, bool u32, size_t n, size_t items,
                              size_t step, const uint64_t *moduli, size_t nmod)
{
    FUZZ_EXPECT(memcmp(before->a, x->a, sizeof x->a) == 0 && memcmp(before->b, x->b, sizeof x->b) == 0 &&
                    memcmp(before->a32, x->a32, sizeof x->a32) == 0 &&
                    memcmp(before->b32, x->b32, sizeof x->b32) == 0,
                "pointwise (out of range) changed its inputs");
    for (size_t w = 0; w < WORDS; w++) {
        const uint64_t old = u32 ? before->c32[w] : before->c[w], now = u32 ? x->c32[w] : x->c[w];
        if (now == old) continue;
        const size_t k = w / step, j = w % step;
        FUZZ_EXPECT(k < items && j < n, "pointwise (out of range) wrote c[%zu] outside every item", w);
        const uint64_t p = moduli[k % nmod];
        const uint64_t a = u32 ? x->a32[w] : x->a[w], b = u32 ? x->b32[w] : x->b[w];
        FUZZ_EXPECT(a < p && b < p && now == (uint64_t)((unsigned __int128)a * b % p),
                    "pointwise (out of range) left c[%zu] = %llu, neither old nor a*b mod p", w,
                    (unsigned long long)now);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fuzz_input in = {data, size, 0};
    ntt_backend backends[NTT_BACKEND_COUNT];
    int nb = fuzz_backends(backends);
    ntt_backend backend = backends[fuzz_u8(&in) % nb];

    unsigned shape = fuzz_u8(&in);
    size_t n = (size_t)1 << fuzz_range(&in, 0, MAXLOG);
    if ((shape & 15) == 0) n = (size_t)fuzz_range(&in, 0, 1u << MAXLOG); /* not a power of two */
    ntt_width width = (shape & 16) ? NTT_U32 : NTT_U64;
    if ((shape & 0xE0) == 0xE0) width = (ntt_width)fuzz_u8(&in);
    const bool u32 = width == NTT_U32;
    ntt_plan_options opts = {0};
    opts.flags = (unsigned)fuzz_range(&in, 0, 3);
    if ((fuzz_u8(&in) & 31) == 0) opts.flags = fuzz_u8(&in);
    opts.modmul = (ntt_modmul)fuzz_range(&in, 0, 5);
    opts.threads = (int)fuzz_range(&in, 0, 3);

    /* Moduli: distinct NTT-friendly primes of the width's range, or (rarely)
       any value. */
    uint64_t moduli[MAXMOD];
    size_t nmod = (size_t)fuzz_range(&in, 1, MAXMOD);
    unsigned bits = (unsigned)(u32 ? fuzz_range(&in, 12, 30) : fuzz_range(&in, 12, 62));
    unsigned order = (unsigned)fuzz_range(&in, 1, 12);
    unsigned first = (unsigned)fuzz_range(&in, 0, 7);
    for (size_t i = 0; i < nmod; i++) {
        if (ntt_find_prime(bits, order < bits ? order : bits - 1, first + (unsigned)i, &moduli[i]) !=
            NTT_OK)
            moduli[i] = 7;
        if ((fuzz_u8(&in) & 63) == 0) moduli[i] = fuzz_u64(&in);
    }

    ntt_plan *pr = NULL, *pg = NULL;
    ntt_status sr = ntt_plan_create_rns(&pr, n, moduli, nmod, width, NTT_BACKEND_SCALAR, &opts);
    ntt_status sg = ntt_plan_create_rns(&pg, n, moduli, nmod, width, backend, &opts);
    FUZZ_EXPECT(sr == sg, "plan_create n %zu width %d flags %u modmul %d: scalar %s, %s %s", n,
                (int)width, opts.flags, (int)opts.modmul, ntt_status_string(sr),
                ntt_backend_name(backend), ntt_status_string(sg));
    FUZZ_EXPECT((sr == NTT_OK) == (pr != NULL) && (sg == NTT_OK) == (pg != NULL),
                "plan pointer does not follow the status");
    if (sr != NTT_OK) return 0;
    FUZZ_EXPECT(ntt_plan_size(pg) == n && ntt_plan_width(pg) == width &&
                    ntt_plan_backend(pg) == backend,
                "plan queries");

    int op = (int)fuzz_range(&in, 0, OP_COUNT - 1);
    unsigned call = fuzz_u8(&in);
    bool batched = op != OP_LINEAR && (call & 1);
    size_t count = batched ? (size_t)fuzz_range(&in, 0, MAXCOUNT) : 1;
    size_t stride = n + (size_t)fuzz_range(&in, 0, 3);
    if (batched && (call & 6) == 6) stride = n - (n > 0); /* stride < n */
    size_t la = (size_t)fuzz_range(&in, 0, n), lb = (size_t)fuzz_range(&in, 0, n);
    if ((call & 8) == 0 && la + lb > n + 1 && la) la = n + 1 - lb; /* mostly valid lengths */

    /* Inputs below every modulus, except (rarely) one value. */
    uint64_t pmin = moduli[0];
    for (size_t i = 1; i < nmod; i++) pmin = moduli[i] < pmin ? moduli[i] : pmin;
    for (size_t i = 0; i < WORDS; i++) {
        uint64_t va = fuzz_u64(&in) % pmin, vb = (fuzz_left(&in) ? fuzz_u64(&in) : i * 977) % pmin;
        ref.a[i] = va, ref.b[i] = vb, ref.c[i] = i;
        ref.a32[i] = (uint32_t)va, ref.b32[i] = (uint32_t)vb, ref.c32[i] = (uint32_t)i;
    }
    if ((call & 0x70) == 0x70) {
        size_t at = (size_t)fuzz_range(&in, 0, WORDS - 1);
        ref.a[at] = ref.a32[at] = (uint32_t)-1;
    }
    memcpy(&got, &ref, sizeof got);
    bufs before;
    memcpy(&before, &ref, sizeof before);

    sr = run(pr, u32, op, batched, count, stride, la, lb, &ref);
    sg = run(pg, u32, op, batched, count, stride, la, lb, &got);
    FUZZ_EXPECT(sr == sg, "op %d batched %d count %zu stride %zu la %zu lb %zu: scalar %s, %s %s",
                op, (int)batched, count, stride, la, lb, ntt_status_string(sr),
                ntt_backend_name(backend), ntt_status_string(sg));
    if (op == OP_POINTWISE && sr == NTT_ERANGE) {
        /* ntt.h's contract for pointwise: c may be written in part. */
        const size_t items = batched ? count : 1, step = batched ? stride : n;
        pointwise_partial(&before, &ref, u32, n, items, step, moduli, nmod);
        pointwise_partial(&before, &got, u32, n, items, step, moduli, nmod);
        ntt_plan_destroy(pr);
        ntt_plan_destroy(pg);
        return 0;
    }
    FUZZ_EXPECT(memcmp(&ref, &got, sizeof got) == 0,
                "op %d n %zu width %d flags %u modmul %d count %zu stride %zu (%s): %s differs from scalar",
                op, n, (int)width, opts.flags, (int)opts.modmul, count, stride,
                ntt_status_string(sr), ntt_backend_name(backend));
    if (sr != NTT_OK)
        FUZZ_EXPECT(memcmp(&before, &got, sizeof got) == 0, "a failed call (%s) wrote its arrays",
                    ntt_status_string(sr));
    ntt_plan_destroy(pr);
    ntt_plan_destroy(pg);
    return 0;
}
