/* Products modulo a big modulus M (ntt_bigmod.h): the context's primes and
   tables, the input reduction, the batched products and the explicit CRT
   back to M, blocked and shared among the context's threads. */
#include "bigmod_internal.h"

#include "../arith/modarith.h"
#include "../core/alloc.h"
#include "../core/detail.h"
#include "../core/cpu_features.h"
#include "../include/ntt_internal.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* ---- multi-word helpers ------------------------------------------------- */

static unsigned bit_length(const uint64_t *x, size_t w)
{
    while (w > 0 && x[w - 1] == 0) w--;
    if (w == 0) return 0;
    return (unsigned)(64 * w - (size_t)__builtin_clzll(x[w - 1]));
}

/* x >= y, both w words. */
static int geq(const uint64_t *x, const uint64_t *y, size_t w)
{
    for (size_t j = w; j-- > 0;)
        if (x[j] != y[j]) return x[j] > y[j];
    return 1;
}

/* y (w + 1 words, y < 2^64 M') -> y mod M' in y[0 .. w), y[w] = 0: one
   quotient digit (Knuth's algorithm D): qh from the top two words of y by
   M's top word, at most 2 above the quotient as M' is normalised, then
   M' added back while the remainder is negative. */
void ntt_bigmod_reduce_norm(uint64_t *y, const uint64_t *mn, size_t w)
{
    const ntt_u128 top = ((ntt_u128)y[w] << 64) | y[w - 1];
    ntt_u128 qq = top / mn[w - 1];
    const uint64_t qh = qq >> 64 ? ~(uint64_t)0 : (uint64_t)qq;
    if (qh == 0) return;
    uint64_t carry = 0, borrow = 0;
    for (size_t j = 0; j < w; j++) {
        const ntt_u128 pr = (ntt_u128)qh * mn[j] + carry;
        carry = (uint64_t)(pr >> 64);
        const uint64_t lo = (uint64_t)pr, x = y[j];
        const uint64_t d = x - lo, d2 = d - borrow;
        borrow = (uint64_t)(x < lo) + (uint64_t)(d < borrow);
        y[j] = d2;
    }
    uint64_t hi = y[w] - carry - borrow;
    while (hi != 0) { /* negative: at most two additions of M' */
        uint64_t c = 0;
        for (size_t j = 0; j < w; j++) {
            const ntt_u128 s = (ntt_u128)y[j] + mn[j] + c;
            y[j] = (uint64_t)s;
            c = (uint64_t)(s >> 64);
        }
        hi += c;
    }
    y[w] = 0;
}

/* x (xw words) mod M into r (w words), by words from the top: r = r 2^64 +
   x_j, each step one reduce_norm in the normalised form.  tmp: w + 1
   words.  Set-up only. */
static void big_mod(uint64_t *r, const uint64_t *x, size_t xw, const ntt_bigmod *B, uint64_t *tmp)
{
    const size_t w = B->w;
    const unsigned s = B->s;
    memset(tmp, 0, (w + 1) * sizeof *tmp);
    for (size_t j = xw; j-- > 0;) {
        /* tmp holds (r 2^s); r 2^64 + x_j, times 2^s, is tmp shifted up a
           word plus x_j 2^s (two words at most). */
        memmove(tmp + 1, tmp, w * sizeof *tmp);
        tmp[0] = x[j] << s;
        const uint64_t spill = s ? x[j] >> (64 - s) : 0;
        uint64_t c = spill;
        for (size_t i = 1; i <= w && c; i++) {
            tmp[i] += c;
            c = tmp[i] < c;
        }
        ntt_bigmod_reduce_norm(tmp, B->mn, w);
    }
    /* Undo the 2^s. */
    for (size_t j = 0; j < w; j++)
        r[j] = s ? (tmp[j] >> s) | (tmp[j + 1] << (64 - s)) : tmp[j];
}

/* ---- set-up --------------------------------------------------------------- */

/* The primes below 2^50 that are 1 mod 2^30, from the top: every size up
   to 2^30 has its roots, and the IFMA kernels take them in their narrowest
   (fastest) range. */
static size_t next_prime(uint64_t *k)
{
    while (*k > 0) {
        const uint64_t q = (*k << 30) + 1;
        (*k)--;
        if (q < ((uint64_t)1 << 50) && ntt_is_prime(q)) return (size_t)q;
    }
    return 0;
}

static size_t bits_of_size(size_t x)
{
    size_t b = 0;
    while (x) b++, x >>= 1;
    return b;
}

void ntt_bigmod_destroy(ntt_bigmod *B)
{
    if (!B) return;
    ntt_plan_destroy(B->plan);
    ntt_pool_destroy(B->pool);
    free(B->m);
    free(B->mn);
    free(B->md);
    free(B->q);
    free(B->oneq);
    free(B->r64);
    free(B->r64q);
    free(B->inv);
    free(B->invq);
    free(B->qinv);
    free(B->pt);
    free(B->ct);
    free(B->ra);
    free(B->rb);
    free(B->scratch);
    free(B->p52t);
    free(B->qv);
    free(B->oneqv);
    free(B->r52v);
    free(B->r52qv);
    free(B->iw);
    free(B->iwq);
    free(B->cl);
    free(B);
}

static ntt_status setup_tables(ntt_bigmod *B)
{
    const size_t w = B->w, t = B->t;
    /* Q as an integer: t primes below 2^50. */
    const size_t qw = (t * 50) / 64 + 2;
    uint64_t *Q = calloc(qw, 8), *X = calloc(qw > w + 1 ? qw : w + 1, 8), *tmp = calloc(w + 1, 8), *r = calloc(w, 8);
    if (!Q || !X || !tmp || !r) {
        free(Q), free(X), free(tmp), free(r);
        return NTT_ENOMEM;
    }
    Q[0] = 1;
    for (size_t k = 0; k < t; k++) {
        uint64_t c = 0;
        for (size_t j = 0; j < qw; j++) {
            const ntt_u128 pr = (ntt_u128)Q[j] * B->q[k] + c;
            Q[j] = (uint64_t)pr;
            c = (uint64_t)(pr >> 64);
        }
    }
    /* Qm = Q mod M, once (words of Q times words of M). */
    uint64_t *Qm = calloc(w + 1, 8);
    if (!Qm) {
        free(Q), free(X), free(tmp), free(r);
        return NTT_ENOMEM;
    }
    big_mod(Qm, Q, qw, B, tmp);
    for (size_t k = 0; k < t; k++) {
        const uint64_t q = B->q[k];
        B->oneq[k] = ntt_shoup_pre64(1, q);
        B->r64[k] = (uint64_t)(((ntt_u128)1 << 64) % q);
        B->r64q[k] = ntt_shoup_pre64(B->r64[k], q);
        B->qinv[k] = 1.0 / (double)q;
        uint64_t p = 1;
        for (size_t j = 0; j < w; j++) {
            B->pt[k * w + j] = p;
            p = ntt_mulmod_slow(p, B->r64[k], q);
        }
        /* (Q / q_k)^-1 mod q_k. */
        uint64_t prod = 1;
        for (size_t i = 0; i < t; i++)
            if (i != k) prod = ntt_mulmod_slow(prod, B->q[i] % q, q);
        B->inv[k] = ntt_invmod(prod, q);
        B->invq[k] = ntt_shoup_pre64(B->inv[k], q);
        /* C_k = (Q / q_k) mod M.  Where q_k does not divide M, C_k q_k = Qm
           mod M, and C_k = (Qm + M z) / q_k for the z in [0, q_k) that
           makes the division exact, z = -Qm M^-1 mod q_k: the quotient is
           below M q_k / q_k = M, so it is C_k itself, in O(words).
           Otherwise Q / q_k reduced word by word (O(words^2)). */
        uint64_t qm = 0, mm = 0;
        for (size_t j = w; j-- > 0;) {
            qm = (uint64_t)((((ntt_u128)qm << 64) | Qm[j]) % q);
            mm = (uint64_t)((((ntt_u128)mm << 64) | B->m[j]) % q);
        }
        if (mm != 0) {
            const uint64_t z = ntt_mulmod_slow((q - qm) % q, ntt_invmod(mm, q), q);
            uint64_t c = 0;
            for (size_t j = 0; j < w; j++) {
                const ntt_u128 v = (ntt_u128)B->m[j] * z + Qm[j] + c;
                X[j] = (uint64_t)v;
                c = (uint64_t)(v >> 64);
            }
            X[w] = c;
            ntt_u128 rem = 0;
            for (size_t j = w + 1; j-- > 0;) {
                const ntt_u128 cur = (rem << 64) | X[j];
                X[j] = (uint64_t)(cur / q);
                rem = cur % q;
            }
            memcpy(r, X, w * 8);
        } else {
            ntt_u128 rem = 0;
            for (size_t j = qw; j-- > 0;) {
                const ntt_u128 cur = (rem << 64) | Q[j];
                X[j] = (uint64_t)(cur / q);
                rem = cur % q;
            }
            big_mod(r, X, qw, B, tmp);
        }
        /* The table holds it times 2^s, below M' < 2^(64 w). */
        for (size_t j = 0; j < w; j++) {
            const uint64_t v = B->s ? (r[j] << B->s) | (j ? r[j - 1] >> (64 - B->s) : 0) : r[j];
            B->ct[j * t + k] = v;
        }
    }
    /* md = (M - Q mod M) mod M, times 2^s. */
    memcpy(r, Qm, w * 8);
    free(Qm);
    int zero = 1;
    for (size_t j = 0; j < w; j++) zero &= r[j] == 0;
    if (!zero) {
        uint64_t borrow = 0;
        for (size_t j = 0; j < w; j++) {
            const uint64_t x = B->m[j], y = r[j];
            const uint64_t d = x - y, d2 = d - borrow;
            borrow = (uint64_t)(x < y) + (uint64_t)(d < borrow);
            r[j] = d2;
        }
    }
    for (size_t j = 0; j < w; j++)
        B->md[j] = B->s ? (r[j] << B->s) | (j ? r[j - 1] >> (64 - B->s) : 0) : r[j];
    free(Q), free(X), free(tmp), free(r);
    return NTT_OK;
}

#ifdef NTT_HAVE_IFMA
/* The IFMA kernels' tables (bigmod_internal.h) from the portable ones. */
static ntt_status setup_ifma(ntt_bigmod *B)
{
    const size_t w = B->w, t = B->t;
    B->tp = (t + 7) / 8 * 8;
    B->li = (64 * w + 51) / 52;
    B->lcp = (B->li + 7) / 8 * 8;
    const size_t tp = B->tp, li = B->li, lcp = B->lcp;
    B->p52t = ntt_alloc_aligned(li * tp * 8);
    B->qv = malloc(tp * 8);
    B->oneqv = malloc(tp * 8);
    B->r52v = malloc(tp * 8);
    B->r52qv = malloc(tp * 8);
    B->iw = malloc(t * 8);
    B->iwq = malloc(t * 8);
    B->cl = ntt_alloc_aligned((t + 1) * lcp * 8);
    uint64_t *col = malloc(w * 8);
    if (!B->p52t || !B->qv || !B->oneqv || !B->r52v || !B->r52qv || !B->iw || !B->iwq || !B->cl ||
        !col) {
        free(col);
        return NTT_ENOMEM;
    }
    memset(B->p52t, 0, li * tp * 8);
    memset(B->cl, 0, (t + 1) * lcp * 8);
    for (size_t k = 0; k < tp; k++) {
        const uint64_t q = B->q[k < t ? k : 0];
        const uint64_t r52 = ((uint64_t)1 << 52) % q;
        B->qv[k] = q;
        B->oneqv[k] = ntt_shoup_pre64(1, q);
        B->r52v[k] = r52;
        B->r52qv[k] = ntt_shoup_pre64(r52, q);
        if (k >= t) continue;
        uint64_t v = 1;
        for (size_t l = 0; l < li; l++) {
            B->p52t[l * tp + k] = v;
            v = ntt_mulmod_slow(v, r52, q);
        }
        /* inv in mul52's form: W = inv 2^52 mod q, W' = W q^-1 mod 2^52. */
        const uint64_t W = (uint64_t)(((ntt_u128)B->inv[k] << 52) % q);
        B->iw[k] = W;
        B->iwq[k] = (W * (0 - ntt_mont_pinv64(q))) & NTT_MASK52;
    }
    for (size_t k = 0; k <= t; k++) {
        for (size_t j = 0; j < w; j++) col[j] = k < t ? B->ct[j * t + k] : B->md[j];
        for (size_t l = 0; l < li; l++) {
            const size_t bit = 52 * l, j = bit / 64, sh = bit % 64;
            uint64_t v = col[j] >> sh;
            if (sh > 12 && j + 1 < w) v |= col[j + 1] << (64 - sh);
            B->cl[k * lcp + l] = v & (((uint64_t)1 << 52) - 1);
        }
    }
    free(col);
    return NTT_OK;
}
#endif

ntt_status ntt_bigmod_create(ntt_bigmod **ctx, const uint64_t *m, size_t words, size_t max_len,
                             ntt_backend backend, const ntt_plan_options *opts)
{
    ntt_detail_clear();
    if (!ctx) return ntt_fail(NTT_EINVAL, "ctx is NULL");
    *ctx = NULL;
    if (!m) return ntt_fail(NTT_EINVAL, "m is NULL");
    if (words == 0 || words > NTT_BIGMOD_MAX_BITS / 64)
        return ntt_fail(NTT_EINVAL, "words = %zu is not in [1, %d]", words, NTT_BIGMOD_MAX_BITS / 64);
    if (m[words - 1] == 0) return ntt_fail(NTT_EINVAL, "the top word of M (word %zu) is 0", words - 1);
    if (words == 1 && m[0] < 2) return ntt_fail(NTT_EINVAL, "M = %llu is below 2", (unsigned long long)m[0]);
    if (max_len == 0 || max_len > NTT_POLYMUL_MAX_LEN)
        return ntt_fail(NTT_EINVAL, "max_len = %zu is not in [1, 2^%d]", max_len, NTT_MAX_LOG2_N);
    ntt_plan_options po = {0};
    if (opts) po = *opts;
    po.flags = 0;
    if (po.threads < 0) return ntt_fail(NTT_EINVAL, "threads = %d is negative", po.threads);
    /* Primes for 2^MARGIN Q > min(la, lb) (M - 1)^2 at every admissible
       pair of lengths: min(la, lb) <= (max_len + 1) / 2. */
    const unsigned mbits = bit_length(m, words);
    const double need = MARGIN_BITS + 2.0 * mbits + (double)bits_of_size((max_len + 1) / 2);
    uint64_t *q = malloc(NTT_BIGMOD_MAX_PRIMES * sizeof *q);
    if (!q) return ntt_fail(NTT_ENOMEM, "out of memory");
    size_t t = 0;
    double have = 0;
    uint64_t kk = ((uint64_t)1 << 20) - 1;
    while (have <= need) {
        if (t == NTT_BIGMOD_MAX_PRIMES) {
            free(q);
            return ntt_fail(NTT_EINVAL, "M of %u bits and max_len %zu need more than %d primes",
                            mbits, max_len, NTT_BIGMOD_MAX_PRIMES);
        }
        const uint64_t p = next_prime(&kk);
        q[t++] = p;
        /* log2 q >= 49 + (q / 2^49 - 1) for q in [2^49, 2^50): log2 is
           concave, the chord lies below it.  No libm. */
        have += 48.0 + (double)p / (double)((uint64_t)1 << 49);
    }
    size_t n = 2;
    while (n < max_len) n <<= 1;
    /* The residues (16 bytes per prime and point) and the plan's tables
       (about 32 on the CPU backends): refused where they exceed the
       machine's memory, which overcommitting allocators would grant and
       then fault in until the machine swaps. */
    const long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
    const double est = 48.0 * (double)t * (double)n;
    if (pages > 0 && page > 0 && est > (double)pages * (double)page) {
        free(q);
        return ntt_fail(NTT_ENOMEM, "%zu primes at size %zu need about %.3g bytes, more than this "
                        "machine's memory", t, n, est);
    }
    ntt_bigmod *B = calloc(1, sizeof *B);
    if (!B) {
        free(q);
        return ntt_fail(NTT_ENOMEM, "out of memory");
    }
    B->w = words;
    B->max_len = max_len;
    B->n = n;
    B->t = t;
    B->q = q;
    B->s = (unsigned)__builtin_clzll(m[words - 1]);
    B->threads = po.threads > 1 ? po.threads : 1;
    ntt_status st = ntt_plan_create_rns(&B->plan, n, q, t, NTT_U64, backend, &po);
    if (st != NTT_OK) {
        ntt_bigmod_destroy(B);
        return st; /* the plan's detail */
    }
    const size_t w = words;
    B->m = malloc(w * 8);
    B->mn = malloc(w * 8);
    B->md = malloc(w * 8);
    B->oneq = malloc(t * 8);
    B->r64 = malloc(t * 8);
    B->r64q = malloc(t * 8);
    B->inv = malloc(t * 8);
    B->invq = malloc(t * 8);
    B->qinv = malloc(t * sizeof(double));
    B->pt = ntt_alloc_aligned(t * w * 8);
    B->ct = ntt_alloc_aligned(t * w * 8);
    B->ra = ntt_alloc_aligned(t * n * 8);
    B->rb = ntt_alloc_aligned(t * n * 8);
    /* The portable kernels' scratch, or the IFMA ones' (limbs of a block
       of coefficients; the e_k, limb sums and words of eight). */
    size_t sw = BLOCK * (w + 1) + BLOCK * t + 8;
    const size_t li = (64 * w + 51) / 52, lcp = (li + 7) / 8 * 8;
    if (sw < BLOCK * li) sw = BLOCK * li;
    if (sw < (t + 1) * 8 + (lcp + 1) * 8 + w + 3) sw = (t + 1) * 8 + (lcp + 1) * 8 + w + 3;
    B->scratch_words = (sw + 7) / 8 * 8;
    B->scratch = ntt_alloc_aligned((size_t)B->threads * B->scratch_words * 8);
    if (!B->m || !B->mn || !B->md || !B->oneq || !B->r64 || !B->r64q || !B->inv || !B->invq ||
        !B->qinv || !B->pt || !B->ct || !B->ra || !B->rb || !B->scratch) {
        ntt_bigmod_destroy(B);
        return ntt_fail(NTT_ENOMEM, "out of memory");
    }
    memcpy(B->m, m, w * 8);
    for (size_t j = 0; j < w; j++)
        B->mn[j] = B->s ? (m[j] << B->s) | (j ? m[j - 1] >> (64 - B->s) : 0) : m[j];
    st = setup_tables(B);
#ifdef NTT_HAVE_IFMA
    /* The IFMA kernels where the plan runs the AVX-512 ones (itself or
       threaded) and the CPU has IFMA, as the NTT's own choice. */
    const ntt_backend pb = ntt_plan_backend(B->plan);
    B->ifma = (pb == NTT_BACKEND_AVX512 || pb == NTT_BACKEND_OPENMP) && ntt_cpu_has_ifma() &&
              ntt_cpu_ifma_enabled() && t <= IFMA_MAX_PRIMES;
    if (st == NTT_OK && B->ifma) st = setup_ifma(B);
#endif
    if (st == NTT_OK && B->threads > 1) st = ntt_pool_create(&B->pool, B->threads, NTT_POOL_SPIN_NS);
    if (st != NTT_OK) {
        ntt_bigmod_destroy(B);
        return ntt_fail(st, "out of memory");
    }
    *ctx = B;
    return NTT_OK;
}

size_t ntt_bigmod_words(const ntt_bigmod *B) { return B ? B->w : 0; }
size_t ntt_bigmod_max_len(const ntt_bigmod *B) { return B ? B->max_len : 0; }
size_t ntt_bigmod_primes(const ntt_bigmod *B) { return B ? B->t : 0; }

/* ---- execution ------------------------------------------------------------ */

/* Coefficients [i0, i1) of x (w words each) into residues r[k][i] for
   every prime: the dot product of the words with the row 2^(64 j) mod
   q_k, below 2^127 (words < 2^13), reduced as hi 2^64 + lo. */
static void reduce_block(const ntt_bigmod *B, uint64_t *r, const uint64_t *x, size_t i0, size_t i1)
{
    const size_t w = B->w, t = B->t, n = B->n;
    for (size_t k = 0; k < t; k++) {
        const uint64_t *pt = B->pt + k * w;
        const uint64_t q = B->q[k], oneq = B->oneq[k];
        uint64_t *rk = r + k * n;
        for (size_t i = i0; i < i1; i++) {
            const uint64_t *xi = x + i * w;
            ntt_u128 acc0 = 0, acc1 = 0;
            size_t j = 0;
            for (; j + 1 < w; j += 2) {
                acc0 += (ntt_u128)xi[j] * pt[j];
                acc1 += (ntt_u128)xi[j + 1] * pt[j + 1];
            }
            if (j < w) acc0 += (ntt_u128)xi[j] * pt[j];
            /* Each sum below 2^126: their total fits. */
            const ntt_u128 acc = acc0 + acc1;
            const uint64_t hi = ntt_csub64(ntt_shoup64((uint64_t)(acc >> 64), 1, oneq, q), q);
            const uint64_t lo = ntt_csub64(ntt_shoup64((uint64_t)acc, 1, oneq, q), q);
            const uint64_t h = ntt_csub64(ntt_shoup64(hi, B->r64[k], B->r64q[k], q), q);
            rk[i] = ntt_addmod(h, lo, q);
        }
    }
}

/* Coefficients [i0, i1) of the product from the residues in ra: e_k =
   r_k (Q / q_k)^-1 mod q_k; the value is sum e_k Q / q_k - u Q with u =
   floor(sum e_k / q_k), and since the value is below Q 2^-MARGIN_BITS the
   float sum is u plus less than 2^-MARGIN_BITS, plus rounding far below
   that: u is its nearest integer.  Then y = sum e_k C'_k + u md, below
   (t + 1) 2^50 M' < 2^64 M', is one quotient step from its residue. */
static void crt_block(const ntt_bigmod *B, uint64_t *c, size_t i0, size_t i1, uint64_t *scr)
{
    const size_t w = B->w, t = B->t, n = B->n;
    const unsigned s = B->s;
    uint64_t *y = scr, *e = scr + BLOCK * (w + 1);
    uint64_t u[BLOCK];
    const size_t nb = i1 - i0;
    for (size_t b = 0; b < nb; b++) {
        double f = 0;
        for (size_t k = 0; k < t; k++) {
            const uint64_t q = B->q[k];
            const uint64_t v = ntt_csub64(ntt_shoup64(B->ra[k * n + i0 + b], B->inv[k], B->invq[k], q), q);
            e[b * t + k] = v;
            f += (double)v * B->qinv[k];
        }
        u[b] = (uint64_t)(f + 0.5);
    }
    ntt_u128 carry[BLOCK] = {0};
    for (size_t j = 0; j < w; j++) {
        const uint64_t *ct = B->ct + j * t;
        for (size_t b = 0; b < nb; b++) {
            const uint64_t *eb = e + b * t;
            ntt_u128 a0 = 0, a1 = 0;
            size_t k = 0;
            for (; k + 1 < t; k += 2) {
                a0 += (ntt_u128)eb[k] * ct[k];
                a1 += (ntt_u128)eb[k + 1] * ct[k + 1];
            }
            if (k < t) a0 += (ntt_u128)eb[k] * ct[k];
            /* Each below 2^126 (t < 2^13 terms of 2^114); the sum, the
               u term and the carry (below 2^65) stay below 2^128. */
            const ntt_u128 acc = a0 + a1 + (ntt_u128)u[b] * B->md[j] + carry[b];
            y[b * (w + 1) + j] = (uint64_t)acc;
            carry[b] = acc >> 64;
        }
    }
    for (size_t b = 0; b < nb; b++) {
        uint64_t *yb = y + b * (w + 1);
        yb[w] = (uint64_t)carry[b];
        ntt_bigmod_reduce_norm(yb, B->mn, w);
        uint64_t *cb = c + (i0 + b) * w;
        for (size_t j = 0; j < w; j++)
            cb[j] = s ? (yb[j] >> s) | (yb[j + 1] << (64 - s)) : yb[j];
    }
}

typedef struct {
    const ntt_bigmod *B;
    uint64_t *c;
    const uint64_t *a, *b;
    size_t la, lb, lc;
} mul_job;

static void unit_reduce(void *arg, unsigned phase, size_t unit, int thread)
{
    (void)phase;
    const mul_job *J = arg;
    const ntt_bigmod *B = J->B;
    const size_t ua = (J->la + BLOCK - 1) / BLOCK;
    const bool in_a = unit < ua;
    const size_t len = in_a ? J->la : J->lb, i0 = (in_a ? unit : unit - ua) * BLOCK;
    const size_t i1 = i0 + BLOCK < len ? i0 + BLOCK : len;
    uint64_t *r = in_a ? B->ra : B->rb;
    const uint64_t *x = in_a ? J->a : J->b;
#ifdef NTT_HAVE_IFMA
    if (B->ifma) {
        ntt_bigmod_reduce_ifma(B, r, x, i0, i1, B->scratch + (size_t)thread * B->scratch_words);
        return;
    }
#endif
    (void)thread;
    reduce_block(B, r, x, i0, i1);
}

static void unit_crt(void *arg, unsigned phase, size_t unit, int thread)
{
    (void)phase;
    const mul_job *J = arg;
    const size_t i0 = unit * BLOCK, i1 = i0 + BLOCK < J->lc ? i0 + BLOCK : J->lc;
    uint64_t *scr = J->B->scratch + (size_t)thread * J->B->scratch_words;
#ifdef NTT_HAVE_IFMA
    if (J->B->ifma) {
        ntt_bigmod_crt_ifma(J->B, J->c, i0, i1, scr);
        return;
    }
#endif
    crt_block(J->B, J->c, i0, i1, scr);
}

/* Index of the first coefficient >= M, or len. */
static size_t first_geq(const uint64_t *x, size_t len, const uint64_t *m, size_t w)
{
    for (size_t i = 0; i < len; i++)
        if (geq(x + i * w, m, w)) return i;
    return len;
}

ntt_status ntt_bigmod_mul(ntt_bigmod *B, uint64_t *c, const uint64_t *a, size_t la,
                          const uint64_t *b, size_t lb)
{
    ntt_detail_clear();
    if (!B || !c || !a || !b) return ntt_fail(NTT_EINVAL, "ctx, c, a and b must be non-NULL");
    if (la == 0 || lb == 0) return ntt_fail(NTT_EINVAL, "la = %zu, lb = %zu: both must be >= 1", la, lb);
    if (la > B->max_len || lb > B->max_len - la + 1)
        return ntt_fail(NTT_EINVAL, "la + lb - 1 = %zu + %zu - 1 exceeds the context's %zu", la, lb,
                        B->max_len);
    const size_t w = B->w, lc = la + lb - 1, t = B->t, n = B->n;
    if (ntt_overlaps(c, lc * w * 8, a, la * w * 8) || ntt_overlaps(c, lc * w * 8, b, lb * w * 8))
        return ntt_fail(NTT_EINVAL, "c overlaps a or b");
    size_t bad = first_geq(a, la, B->m, w);
    if (bad < la) return ntt_fail(NTT_ERANGE, "a[%zu] >= M", bad);
    bad = first_geq(b, lb, B->m, w);
    if (bad < lb) return ntt_fail(NTT_ERANGE, "b[%zu] >= M", bad);

    mul_job J = {B, c, a, b, la, lb, lc};
    ntt_pool_for(B->pool, (la + BLOCK - 1) / BLOCK + (lb + BLOCK - 1) / BLOCK, unit_reduce, &J);
    for (size_t k = 0; k < t; k++) {
        memset(B->ra + k * n + la, 0, (n - la) * 8);
        memset(B->rb + k * n + lb, 0, (n - lb) * 8);
    }
    const ntt_status st = ntt_polymul_batch_u64(B->plan, B->ra, B->ra, B->rb, t, n);
    if (st != NTT_OK) return st; /* cannot happen: every residue is below its prime */
    ntt_pool_for(B->pool, (lc + BLOCK - 1) / BLOCK, unit_crt, &J);
    return NTT_OK;
}

ntt_status ntt_bigmod_polymul(uint64_t *c, const uint64_t *a, size_t la, const uint64_t *b,
                              size_t lb, const uint64_t *m, size_t words, ntt_backend backend)
{
    ntt_detail_clear();
    if (!c || !a || !b) return ntt_fail(NTT_EINVAL, "c, a and b must be non-NULL");
    if (la == 0 || lb == 0) return ntt_fail(NTT_EINVAL, "la = %zu, lb = %zu: both must be >= 1", la, lb);
    if (la > NTT_POLYMUL_MAX_LEN || lb > NTT_POLYMUL_MAX_LEN - la + 1)
        return ntt_fail(NTT_EINVAL, "la + lb - 1 = %zu + %zu - 1 exceeds 2^%d", la, lb, NTT_MAX_LOG2_N);
    ntt_bigmod *B;
    ntt_status st = ntt_bigmod_create(&B, m, words, la + lb - 1, backend, NULL);
    if (st != NTT_OK) return st;
    st = ntt_bigmod_mul(B, c, a, la, b, lb);
    ntt_bigmod_destroy(B);
    return st;
}
