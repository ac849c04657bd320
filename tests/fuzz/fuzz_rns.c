/* libFuzzer: the RNS context and its operations (include/ntt_rns.h) with
   fuzzer-chosen sizes, primes, digit counts, levels and limb lists
   (N <= 2^6, up to 4 + 3 limbs).  Each call on the chosen backend is
   checked against the same call on a SCALAR context (statuses and every
   word); base conversion is also checked against an exact reference of
   the formula in ntt_rns.h, made here from 128-bit products. */
#include "fuzz_input.h"
#include "ntt_rns.h"

#include <string.h>

#define MAXLOG 6
#define MAXQ 4
#define MAXP 3
#define MAXL (MAXQ + MAXP)
#define MAXN (1u << MAXLOG)
#define POLY (MAXL * MAXN)
#define KEY (2 * MAXQ * MAXL * MAXN)

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

enum { OP_FORWARD, OP_INVERSE, OP_BCONV, OP_MODUP, OP_MODDOWN, OP_RESCALE, OP_INNER, OP_KEYSWITCH,
       OP_COUNT };

typedef struct words {
    uint64_t in[MAXQ * POLY], out0[MAXQ * POLY], out1[POLY];
} words;

static words ref, got;
static uint64_t key[KEY];

static uint64_t powmod(uint64_t x, uint64_t e, uint64_t m)
{
    uint64_t r = 1 % m;
    for (x %= m; e; e >>= 1, x = fuzz_mulmod(x, x, m))
        if (e & 1) r = fuzz_mulmod(r, x, m);
    return r;
}

/* Conv_{B->C}(x) as ntt_rns.h defines it, for one coefficient: y_i =
   [x_i (B/b_i)^-1]_{b_i}, out_j = sum_i y_i (B/b_i) mod c_j. */
static void bconv_exact(const uint64_t *primes, const size_t *from, size_t s, const uint64_t *x,
                        const size_t *to, size_t t, uint64_t *out)
{
    uint64_t y[MAXL];
    for (size_t i = 0; i < s; i++) {
        uint64_t b = primes[from[i]], hat = 1;
        for (size_t k = 0; k < s; k++)
            if (k != i) hat = fuzz_mulmod(hat, primes[from[k]] % b, b);
        y[i] = fuzz_mulmod(x[i], powmod(hat, b - 2, b), b);
    }
    for (size_t j = 0; j < t; j++) {
        uint64_t c = primes[to[j]], sum = 0;
        for (size_t i = 0; i < s; i++) {
            uint64_t hat = 1;
            for (size_t k = 0; k < s; k++)
                if (k != i) hat = fuzz_mulmod(hat, primes[from[k]] % c, c);
            sum = (uint64_t)(((unsigned __int128)sum + fuzz_mulmod(y[i] % c, hat, c)) % c);
        }
        out[j] = sum;
    }
}

static ntt_status run(ntt_rns *ctx, int op, size_t n, size_t level, size_t digit,
                      const size_t *la, size_t ca, const size_t *lb, size_t cb, const size_t lim[4],
                      words *w)
{
    switch (op) {
    case OP_FORWARD: return ntt_rns_forward(ctx, n, la, ca, w->in);
    case OP_INVERSE: return ntt_rns_inverse(ctx, n, la, ca, w->in);
    case OP_BCONV: return ntt_rns_fastbconv(ctx, n, la, ca, w->in, lb, cb, w->out0);
    case OP_MODUP: return ntt_rns_modup(ctx, n, level, digit, w->in, lim[0], w->out0, lim[1]);
    case OP_MODDOWN: return ntt_rns_moddown(ctx, n, level, w->in, lim[0], w->out0, lim[1]);
    case OP_RESCALE: return ntt_rns_rescale(ctx, n, level, w->in, lim[0], w->out0, lim[1]);
    case OP_INNER:
        return ntt_rns_ks_inner(ctx, n, level, w->in, lim[0], key, lim[2], w->out0, w->out1, lim[1]);
    default:
        return ntt_rns_keyswitch(ctx, n, level, w->in, lim[0], key, lim[2], w->out0, w->out1,
                                 lim[1]);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fuzz_input in = {data, size, 0};
    ntt_backend backends[NTT_BACKEND_COUNT];
    int nb = fuzz_backends(backends);
    ntt_backend backend = backends[fuzz_u8(&in) % nb];
    unsigned logn = (unsigned)fuzz_range(&in, 1, MAXLOG);
    size_t n = (size_t)1 << logn;
    size_t nq = (size_t)fuzz_range(&in, 1, MAXQ), np = (size_t)fuzz_range(&in, 0, MAXP);
    size_t dnum = (size_t)fuzz_range(&in, 1, nq);
    unsigned bits = (unsigned)fuzz_range(&in, 20, 61);
    unsigned first = (unsigned)fuzz_range(&in, 0, 15);
    uint64_t primes[MAXL];
    for (size_t i = 0; i < nq + np; i++) {
        if (ntt_find_prime(bits, logn + 1 + (unsigned)(i % 3), first + (unsigned)i, &primes[i]) !=
            NTT_OK)
            primes[i] = 3;
        unsigned odd = fuzz_u8(&in);
        if ((odd & 63) == 0) primes[i] = fuzz_u64(&in);      /* any value */
        if ((odd & 63) == 1 && i) primes[i] = primes[i - 1]; /* a repeated prime */
    }
    ntt_rns_params prm = {.n = n, .q = primes, .q_count = nq, .p = primes + nq, .p_count = np,
                          .dnum = dnum, .backend = NTT_BACKEND_SCALAR};
    ntt_rns *cr = NULL, *cg = NULL;
    ntt_status sr = ntt_rns_create(&cr, &prm);
    prm.backend = backend;
    prm.threads = backend == NTT_BACKEND_OPENMP ? (int)fuzz_range(&in, 0, 3) : 0;
    ntt_status sg = ntt_rns_create(&cg, &prm);
    FUZZ_EXPECT(sr == sg, "create N %zu L+1 %zu K %zu dnum %zu: scalar %s, %s %s", n, nq, np, dnum,
                ntt_status_string(sr), ntt_backend_name(backend), ntt_status_string(sg));
    FUZZ_EXPECT((sr == NTT_OK) == (cr != NULL) && (sg == NTT_OK) == (cg != NULL),
                "context pointer does not follow the status");
    if (sr != NTT_OK) return 0;

    const size_t nl = nq + np, L = nq - 1;
    int op = (int)fuzz_range(&in, 0, OP_COUNT - 1);
    size_t level = (size_t)fuzz_range(&in, 0, L + 1);
    if (level > L && (fuzz_u8(&in) & 3)) level = L;
    size_t digit = (size_t)fuzz_range(&in, 0, dnum);
    size_t first_limb = 0, dcount = 0;
    if (ntt_rns_digit_range(cr, level, digit, &first_limb, &dcount) != NTT_OK) dcount = 1;
    size_t ext = level + 1 + np, beta = ntt_rns_digits(cr, level);
    size_t lim[4];
    switch (op) {
    case OP_MODUP: lim[0] = dcount, lim[1] = ext; break;
    case OP_MODDOWN: lim[0] = ext, lim[1] = level + 1; break;
    case OP_RESCALE: lim[0] = level + 1, lim[1] = level; break;
    case OP_INNER: lim[0] = beta * ext, lim[1] = ext; break;
    default: lim[0] = level + 1, lim[1] = level + 1; break;
    }
    lim[2] = 2 * dnum * nl;
    if ((fuzz_u8(&in) & 15) == 0) lim[fuzz_range(&in, 0, 2)] += 1; /* a wrong limb count */
    size_t nn = (fuzz_u8(&in) & 31) == 0 ? n * 2 : n;

    /* Limb lists (forward, inverse, base conversion): mostly distinct
       indices, sometimes a repeat or an index past the last limb. */
    size_t la[MAXL], lb[MAXL], ca = (size_t)fuzz_range(&in, 1, nl), cb = 0;
    bool used[MAXL + 1] = {false};
    for (size_t i = 0; i < ca; i++) {
        size_t k = (size_t)fuzz_range(&in, 0, nl - 1);
        while (used[k] && (fuzz_u8(&in) & 15)) k = (k + 1) % nl;
        used[k] = true;
        la[i] = k;
    }
    for (size_t k = 0; k < nl && cb < MAXL; k++)
        if (!used[k] && (fuzz_u8(&in) & 1)) lb[cb++] = k;
    if (cb == 0) cb = (size_t)fuzz_range(&in, 0, 1), lb[0] = nl - 1;
    if ((fuzz_u8(&in) & 31) == 0) la[0] = nl;

    /* Inputs: limb k of each polynomial below the prime it will be read
       under (the limb lists for the transforms and conversions, the level's
       layout otherwise); the first polynomial of `in` sometimes unreduced. */
    for (size_t i = 0; i < MAXQ * POLY; i++) {
        size_t limb = i / n;
        uint64_t q;
        if (op <= OP_BCONV) {
            q = limb < ca && la[limb] < nl ? primes[la[limb]] : primes[0];
        } else if (op == OP_MODUP) {
            q = primes[first_limb + limb % (dcount ? dcount : 1)];
        } else {
            size_t k = limb % (ext ? ext : 1);
            q = k <= level ? primes[k < nl ? k : 0] : primes[nq + (k - level - 1) % (np ? np : 1)];
        }
        ref.in[i] = fuzz_left(&in) ? fuzz_u64(&in) % q : (i * 2654435761u) % q;
        ref.out0[i] = i;
    }
    for (size_t i = 0; i < POLY; i++) ref.out1[i] = ~(uint64_t)i;
    if ((fuzz_u8(&in) & 63) == 0) ref.in[fuzz_range(&in, 0, n - 1)] = ~(uint64_t)0;
    for (size_t i = 0; i < KEY; i++) {
        size_t k = (i / n) % nl;
        key[i] = (i * 0x9E3779B97F4A7C15ull) % primes[k];
    }
    memcpy(&got, &ref, sizeof got);
    static words before;
    memcpy(&before, &ref, sizeof before);

    sr = run(cr, op, nn, level, digit, la, ca, lb, cb, lim, &ref);
    sg = run(cg, op, nn, level, digit, la, ca, lb, cb, lim, &got);
    FUZZ_EXPECT(sr == sg, "op %d level %zu digit %zu: scalar %s, %s %s", op, level, digit,
                ntt_status_string(sr), ntt_backend_name(backend), ntt_status_string(sg));
    FUZZ_EXPECT(memcmp(&ref, &got, sizeof got) == 0, "op %d N %zu level %zu: %s differs from scalar",
                op, n, level, ntt_backend_name(backend));
    if (sr != NTT_OK) {
        FUZZ_EXPECT(memcmp(&before, &got, sizeof got) == 0, "a failed call (%s) wrote its arrays",
                    ntt_status_string(sr));
    } else if (op == OP_BCONV) {
        for (size_t x = 0; x < n; x++) {
            uint64_t xs[MAXL], want[MAXL];
            for (size_t i = 0; i < ca; i++) xs[i] = before.in[i * n + x];
            bconv_exact(primes, la, ca, xs, lb, cb, want);
            for (size_t j = 0; j < cb; j++)
                FUZZ_EXPECT(got.out0[j * n + x] == want[j],
                            "fastbconv coefficient %zu, to limb %zu: %llu, exact %llu", x, lb[j],
                            (unsigned long long)got.out0[j * n + x], (unsigned long long)want[j]);
        }
    }
    ntt_rns_destroy(cr);
    ntt_rns_destroy(cg);
    return 0;
}
