/*
 * Big prime fields (include/ntt_field.h, issue 59) against GMP: contexts
 * (primality, 2-adicity, presets), conversions, the transforms (a naive
 * DFT for small n, round trips and evaluations at a few points for larger
 * ones), coset transforms, pointwise products, cyclic and linear products
 * (Kronecker substitution in GMP), batches, threads (the same words as one
 * thread), and every bad input's status with nothing written.
 *
 * Sizes up to 2^14 by default (2^13 in the sanitizer build);
 * NTT_FIELD_TEST_BIG=1 adds 2^16 .. 2^20.
 */
#include "test_common.h"
#include "ntt_field.h"

#include <gmp.h>
#include <stdlib.h>
#include <string.h>

#define MAXW NTT_FIELD_MAX_WORDS

/* ---- GMP helpers --------------------------------------------------------- */

static void to_mpz(mpz_t z, const uint64_t *x, size_t w) { mpz_import(z, w, -1, 8, 0, 0, x); }

static void from_mpz(uint64_t *x, size_t w, const mpz_t z)
{
    size_t cnt = 0;
    memset(x, 0, w * 8);
    uint64_t tmp[2 * MAXW + 8] = {0};
    mpz_export(tmp, &cnt, -1, 8, 0, 0, z);
    memcpy(x, tmp, w * 8);
}

static void rnd_mpz_bits(mpz_t z, unsigned bits)
{
    uint64_t words[MAXW + 1];
    size_t w = (bits + 63) / 64;
    for (size_t i = 0; i < w; i++) words[i] = rnd64();
    to_mpz(z, words, w);
    mpz_fdiv_r_2exp(z, z, bits);
    mpz_setbit(z, bits - 1);
}

/* Random elements below p. */
static void rnd_elems(uint64_t *a, size_t count, const mpz_t p, size_t w)
{
    mpz_t z;
    mpz_init(z);
    for (size_t i = 0; i < count; i++) {
        uint64_t words[MAXW];
        for (size_t j = 0; j < w; j++) words[j] = rnd64();
        to_mpz(z, words, w);
        /* a few extreme values: 0, 1, p - 1 */
        unsigned r = (unsigned)rnd_below(64);
        if (r == 0) mpz_set_ui(z, 0);
        else if (r == 1) mpz_set_ui(z, 1);
        else if (r == 2) mpz_sub_ui(z, p, 1);
        else mpz_mod(z, z, p);
        from_mpz(a + i * w, w, z);
    }
    mpz_clear(z);
}

/* A prime of `bits` bits with 2^k | p - 1: c 2^k + 1 for c from a random
   start, upward. */
static void make_prime(mpz_t p, unsigned bits, unsigned k)
{
    mpz_t c;
    mpz_init(c);
    rnd_mpz_bits(c, bits - k);
    for (;;) {
        mpz_mul_2exp(p, c, k);
        mpz_add_ui(p, p, 1);
        if (mpz_sizeinbase(p, 2) != bits) {
            rnd_mpz_bits(c, bits - k);
            continue;
        }
        if (mpz_probab_prime_p(p, 30)) break;
        mpz_add_ui(c, c, 1);
    }
    mpz_clear(c);
}

static size_t words_of(const mpz_t p) { return (mpz_sizeinbase(p, 2) + 63) / 64; }

static ntt_status field_of(ntt_field **f, const mpz_t p)
{
    uint64_t w[MAXW];
    size_t n = words_of(p);
    from_mpz(w, n, p);
    return ntt_field_create(f, w, n);
}

static size_t brv(size_t x, unsigned bits)
{
    size_t r = 0;
    for (unsigned i = 0; i < bits; i++, x >>= 1) r = (r << 1) | (x & 1);
    return r;
}

static unsigned lg(size_t n)
{
    unsigned l = 0;
    while (((size_t)1 << l) < n) l++;
    return l;
}

/* A(x) mod p, a of n elements. */
static void eval(mpz_t out, const uint64_t *a, size_t n, size_t w, const mpz_t x, const mpz_t p)
{
    mpz_t c;
    mpz_init(c);
    mpz_set_ui(out, 0);
    for (size_t i = n; i-- > 0;) {
        mpz_mul(out, out, x);
        to_mpz(c, a + i * w, w);
        mpz_add(out, out, c);
        mpz_mod(out, out, p);
    }
    mpz_clear(c);
}

/* Exact a b (la + lb - 1 coefficients, reduced mod p) by Kronecker
   substitution: one GMP product of the packed operands. */
static void kron(uint64_t *c, const uint64_t *a, size_t la, const uint64_t *b, size_t lb, size_t w,
                 const mpz_t p)
{
    const size_t sw = 2 * w + 1; /* a slot holds n p^2 < 2^(64 (2w + 1)) */
    const size_t lc = la + lb - 1;
    uint64_t *pa = calloc(la * sw, 8), *pb = calloc(lb * sw, 8), *pc = calloc(lc * sw + 2, 8);
    for (size_t i = 0; i < la; i++) memcpy(pa + i * sw, a + i * w, w * 8);
    for (size_t i = 0; i < lb; i++) memcpy(pb + i * sw, b + i * w, w * 8);
    mpz_t A, B, z;
    mpz_inits(A, B, z, NULL);
    mpz_import(A, la * sw, -1, 8, 0, 0, pa);
    mpz_import(B, lb * sw, -1, 8, 0, 0, pb);
    mpz_mul(A, A, B);
    size_t cnt = 0;
    mpz_export(pc, &cnt, -1, 8, 0, 0, A);
    for (size_t i = 0; i < lc; i++) {
        mpz_import(z, sw, -1, 8, 0, 0, pc + i * sw);
        mpz_mod(z, z, p);
        from_mpz(c + i * w, w, z);
    }
    mpz_clears(A, B, z, NULL);
    free(pa);
    free(pb);
    free(pc);
}

/* ---- one field's checks --------------------------------------------------- */

typedef struct fld {
    ntt_field *f;
    mpz_t p;
    size_t w;
    unsigned s;
    const char *name;
} fld;

/* The root the plans must use: z^((p-1)/n), z the smallest non-residue. */
static void expected_root(mpz_t r, const fld *F, size_t n)
{
    mpz_t z, e;
    mpz_inits(z, e, NULL);
    mpz_set_ui(z, 2);
    while (mpz_legendre(z, F->p) != -1) mpz_add_ui(z, z, 1);
    mpz_sub_ui(e, F->p, 1);
    mpz_divexact_ui(e, e, n);
    mpz_powm(r, z, e, F->p);
    mpz_clears(z, e, NULL);
}

static void check_context(const fld *F)
{
    const size_t w = F->w;
    CHECK_EQ(w, ntt_field_words(F->f), "%s words", F->name);
    CHECK_EQ(mpz_sizeinbase(F->p, 2), ntt_field_bits(F->f), "%s bits", F->name);
    mpz_t t;
    mpz_init(t);
    mpz_sub_ui(t, F->p, 1);
    CHECK_EQ(mpz_scan1(t, 0), ntt_field_two_adicity(F->f), "%s 2-adicity", F->name);
    to_mpz(t, ntt_field_modulus(F->f), w);
    CHECK(mpz_cmp(t, F->p) == 0, "%s modulus words", F->name);
    /* g: a non-residue of order not a power of two, the smallest such. */
    const uint64_t g = ntt_field_generator(F->f);
    CHECK(g >= 2, "%s generator %llu", F->name, (unsigned long long)g);
    mpz_t gz, e;
    mpz_inits(gz, e, NULL);
    mpz_set_ui(gz, g);
    CHECK(mpz_legendre(gz, F->p) == -1, "%s generator is a non-residue", F->name);
    mpz_set_ui(e, 1);
    mpz_mul_2exp(e, e, ntt_field_two_adicity(F->f));
    mpz_powm(t, gz, e, F->p);
    CHECK(mpz_cmp_ui(t, 1) != 0, "%s g^(2^s) != 1", F->name);
    mpz_clears(gz, e, t, NULL);

    /* Conversions: x R mod p and back, out of place and in place. */
    const size_t cnt = 17;
    uint64_t *a = xmalloc(cnt * w * 8), *b = xmalloc(cnt * w * 8), *c = xmalloc(cnt * w * 8);
    rnd_elems(a, cnt, F->p, w);
    CHECK_STATUS(NTT_OK, ntt_field_to_mont(F->f, b, a, cnt), "%s to_mont", F->name);
    mpz_t x, y;
    mpz_inits(x, y, NULL);
    for (size_t i = 0; i < cnt; i++) {
        to_mpz(x, a + i * w, w);
        mpz_mul_2exp(x, x, 64 * w);
        mpz_mod(x, x, F->p);
        to_mpz(y, b + i * w, w);
        CHECK(mpz_cmp(x, y) == 0, "%s to_mont[%zu]", F->name, i);
    }
    memcpy(c, b, cnt * w * 8);
    CHECK_STATUS(NTT_OK, ntt_field_from_mont(F->f, c, c, cnt), "%s from_mont in place", F->name);
    CHECK_ARR64(a, c, cnt * w, "%s from_mont(to_mont(a)) == a", F->name);
    mpz_clears(x, y, NULL);
    free(a);
    free(b);
    free(c);
}

/* Forward, inverse, orders, coset, against the naive DFT (n <= naive_max)
   or evaluations at a few points; then products.  light: the round trip,
   the evaluations and the products, not the in-place, Montgomery-form and
   batch forms (checked at the smaller sizes). */
static void check_transforms(const fld *F, size_t n, size_t naive_max, int threads, bool light)
{
    const size_t w = F->w;
    const unsigned L = lg(n);
    for (int variant = 0; variant < 4; variant++) {
        const bool natural = variant & 1, coset = variant & 2;
        /* A coset plan takes the field's generator or, every other time, a
           random nonzero shift. */
        uint64_t shift[MAXW] = {0};
        const bool custom = coset && rnd_below(2);
        if (custom) {
            rnd_elems(shift, 1, F->p, w);
            if (shift[0] < 2) shift[0] = 2; /* nonzero, still below p */
        }
        ntt_field_plan_options o = {
            .flags = (natural ? NTT_FLAG_NATURAL_ORDER : 0) | (coset ? NTT_FIELD_FLAG_COSET : 0),
            .threads = threads, .coset_shift = custom ? shift : NULL};
        ntt_field_plan *pl = NULL;
        ntt_status st = ntt_field_plan_create(&pl, F->f, n, &o);
        CHECK_STATUS(NTT_OK, st, "%s plan n=%zu variant %d", F->name, n, variant);
        if (st != NTT_OK) continue;
        CHECK_EQ(n, ntt_field_plan_size(pl), "size");
        CHECK_EQ(w, ntt_field_plan_words(pl), "words");
        mpz_t r, g, x, y, t;
        mpz_inits(r, g, x, y, t, NULL);
        uint64_t rw[MAXW];
        CHECK_STATUS(NTT_OK, ntt_field_plan_root(pl, rw), "root");
        to_mpz(r, rw, w);
        expected_root(t, F, n);
        CHECK(mpz_cmp(r, t) == 0, "%s n=%zu: root is z^((p-1)/n)", F->name, n);
        if (custom) to_mpz(g, shift, w);
        else mpz_set_ui(g, coset ? ntt_field_generator(F->f) : 1);

        uint64_t *a = xmalloc(n * w * 8), *b = xmalloc(n * w * 8), *c = xmalloc(n * w * 8);
        rnd_elems(a, n, F->p, w);
        memcpy(b, a, n * w * 8);
        CHECK_STATUS(NTT_OK, ntt_field_forward(pl, b), "forward");
        /* Output k = A(g r^e(k)), e(k) = k or brv(k). */
        const size_t checks = n <= naive_max ? n : 4;
        for (size_t i = 0; i < checks; i++) {
            const size_t k = n <= naive_max ? i : (size_t)rnd_below(n);
            const size_t e = natural ? k : brv(k, L);
            mpz_powm_ui(x, r, e, F->p);
            mpz_mul(x, x, g);
            mpz_mod(x, x, F->p);
            eval(y, a, n, w, x, F->p);
            to_mpz(t, b + k * w, w);
            if (mpz_cmp(y, t) != 0) {
                CHECK(false, "%s n=%zu variant %d threads %d: forward word %zu differs", F->name,
                      n, variant, threads, k);
                break;
            }
        }
        CHECK_STATUS(NTT_OK, ntt_field_inverse(pl, b), "inverse");
        CHECK_ARR64(a, b, n * w, "%s n=%zu variant %d: inverse(forward(a)) == a", F->name, n,
                    variant);

        /* pointwise, canonical */
        uint64_t *d = xmalloc(n * w * 8);
        rnd_elems(b, n, F->p, w);
        CHECK_STATUS(NTT_OK, ntt_field_pointwise(pl, c, a, b), "pointwise");
        for (size_t i = 0; i < n; i += 1 + n / 16) {
            to_mpz(x, a + i * w, w);
            to_mpz(y, b + i * w, w);
            mpz_mul(x, x, y);
            mpz_mod(x, x, F->p);
            to_mpz(t, c + i * w, w);
            CHECK(mpz_cmp(x, t) == 0, "%s pointwise[%zu]", F->name, i);
        }
        /* polymul: mod x^n - g^n */
        CHECK_STATUS(NTT_OK, ntt_field_polymul(pl, c, a, b), "polymul");
        uint64_t *lin = xmalloc(2 * n * w * 8);
        kron(lin, a, n, b, n, w, F->p);
        mpz_powm_ui(x, g, n, F->p);
        for (size_t i = 0; i < n; i++) {
            to_mpz(y, lin + i * w, w);
            if (i + n < 2 * n - 1) {
                to_mpz(t, lin + (i + n) * w, w);
                mpz_addmul(y, t, x);
                mpz_mod(y, y, F->p);
            }
            to_mpz(t, c + i * w, w);
            if (mpz_cmp(y, t) != 0) {
                CHECK(false, "%s n=%zu variant %d: polymul word %zu", F->name, n, variant, i);
                break;
            }
        }
        if (light) {
            free(lin);
            goto done;
        }
        /* in place: c == a, and c == b */
        memcpy(d, a, n * w * 8);
        CHECK_STATUS(NTT_OK, ntt_field_polymul(pl, d, d, b), "polymul c == a");
        CHECK_ARR64(c, d, n * w, "polymul c == a");
        memcpy(d, b, n * w * 8);
        CHECK_STATUS(NTT_OK, ntt_field_polymul(pl, d, a, d), "polymul c == b");
        CHECK_ARR64(c, d, n * w, "polymul c == b");
        /* linear */
        {
        const size_t la = 1 + (size_t)rnd_below(n), lb = n - la + 1 - (size_t)rnd_below(n - la + 1);
        CHECK_STATUS(NTT_OK, ntt_field_polymul_linear(pl, c, a, la, b, lb), "polymul_linear");
        kron(lin, a, la, b, lb, w, F->p);
        CHECK_ARR64(lin, c, (la + lb - 1) * w, "%s n=%zu la=%zu lb=%zu: linear product", F->name, n,
                    la, lb);
        }
        free(lin);

        /* Montgomery flag: the product of the forms. */
        ntt_field_plan *pm = NULL;
        ntt_field_plan_options om = o;
        om.flags |= NTT_FIELD_FLAG_MONTGOMERY;
        CHECK_STATUS(NTT_OK, ntt_field_plan_create(&pm, F->f, n, &om), "mont plan");
        if (pm) {
            uint64_t *am = xmalloc(n * w * 8), *bm = xmalloc(n * w * 8);
            CHECK_STATUS(NTT_OK, ntt_field_to_mont(F->f, am, a, n), "to_mont");
            CHECK_STATUS(NTT_OK, ntt_field_to_mont(F->f, bm, b, n), "to_mont");
            CHECK_STATUS(NTT_OK, ntt_field_polymul(pm, d, am, bm), "mont polymul");
            CHECK_STATUS(NTT_OK, ntt_field_from_mont(F->f, d, d, n), "from_mont");
            CHECK_STATUS(NTT_OK, ntt_field_polymul(pl, c, a, b), "polymul");
            CHECK_ARR64(c, d, n * w, "%s n=%zu: Montgomery-form polymul", F->name, n);
            CHECK_STATUS(NTT_OK, ntt_field_pointwise(pm, d, am, bm), "mont pointwise");
            CHECK_STATUS(NTT_OK, ntt_field_from_mont(F->f, d, d, n), "from_mont");
            CHECK_STATUS(NTT_OK, ntt_field_pointwise(pl, c, a, b), "pointwise");
            CHECK_ARR64(c, d, n * w, "%s n=%zu: Montgomery-form pointwise", F->name, n);
            /* The transform commutes with the form. */
            memcpy(c, a, n * w * 8);
            CHECK_STATUS(NTT_OK, ntt_field_forward(pl, c), "forward");
            CHECK_STATUS(NTT_OK, ntt_field_forward(pm, am), "forward mont");
            CHECK_STATUS(NTT_OK, ntt_field_from_mont(F->f, am, am, n), "from_mont");
            CHECK_ARR64(c, am, n * w, "%s n=%zu: forward of the Montgomery form", F->name, n);
            free(am);
            free(bm);
            ntt_field_plan_destroy(pm);
        }

        /* Batches: 3 items, stride n + 5, the gaps untouched. */
        const size_t cnt = 3, stride = n + 5;
        uint64_t *ba = xmalloc(cnt * stride * w * 8), *bb = xmalloc(cnt * stride * w * 8);
        rnd_elems(ba, cnt * stride, F->p, w);
        memcpy(bb, ba, cnt * stride * w * 8);
        CHECK_STATUS(NTT_OK, ntt_field_forward_batch(pl, bb, cnt, stride), "forward batch");
        for (size_t i = 0; i < cnt; i++) {
            memcpy(c, ba + i * stride * w, n * w * 8);
            CHECK_STATUS(NTT_OK, ntt_field_forward(pl, c), "forward");
            CHECK_ARR64(c, bb + i * stride * w, n * w, "batch item %zu", i);
            CHECK_ARR64(ba + (i * stride + n) * w, bb + (i * stride + n) * w, 5 * w, "gap %zu", i);
        }
        CHECK_STATUS(NTT_OK, ntt_field_inverse_batch(pl, bb, cnt, stride), "inverse batch");
        CHECK_ARR64(ba, bb, cnt * stride * w, "inverse batch round trip");
        uint64_t *bc = xmalloc(cnt * stride * w * 8);
        memcpy(bc, ba, cnt * stride * w * 8);
        rnd_elems(bb, cnt * stride, F->p, w);
        CHECK_STATUS(NTT_OK, ntt_field_pointwise_batch(pl, bc, bc, bb, cnt, stride), "pw batch");
        for (size_t i = 0; i < cnt; i++) {
            CHECK_STATUS(NTT_OK,
                         ntt_field_pointwise(pl, c, ba + i * stride * w, bb + i * stride * w),
                         "pointwise");
            CHECK_ARR64(c, bc + i * stride * w, n * w, "pointwise batch item %zu", i);
        }
        free(ba);
        free(bb);
        free(bc);
    done:
        free(a);
        free(b);
        free(c);
        free(d);
        mpz_clears(r, g, x, y, t, NULL);
        ntt_field_plan_destroy(pl);
    }
}

/* Threads give the words of one thread: every call, every variant. */
static void check_threads(const fld *F, size_t n, int threads)
{
    const size_t w = F->w;
    for (int variant = 0; variant < 4; variant += 3) {
        ntt_field_plan_options o1 = {
            .flags = ((variant & 1) ? NTT_FLAG_NATURAL_ORDER : 0) |
                     ((variant & 2) ? NTT_FIELD_FLAG_COSET : 0),
            .threads = 1};
        ntt_field_plan_options ot = o1;
        ot.threads = threads;
        ntt_field_plan *p1 = NULL, *pt = NULL;
        CHECK_STATUS(NTT_OK, ntt_field_plan_create(&p1, F->f, n, &o1), "plan 1 thread");
        CHECK_STATUS(NTT_OK, ntt_field_plan_create(&pt, F->f, n, &ot), "plan %d threads", threads);
        if (!p1 || !pt) {
            ntt_field_plan_destroy(p1);
            ntt_field_plan_destroy(pt);
            continue;
        }
        const size_t cnt = 3;
        uint64_t *a = xmalloc(cnt * n * w * 8), *x = xmalloc(cnt * n * w * 8),
                 *y = xmalloc(cnt * n * w * 8), *b = xmalloc(n * w * 8);
        rnd_elems(a, cnt * n, F->p, w);
        rnd_elems(b, n, F->p, w);
        memcpy(x, a, cnt * n * w * 8);
        memcpy(y, a, cnt * n * w * 8);
        CHECK_STATUS(NTT_OK, ntt_field_forward(p1, x), "f1");
        CHECK_STATUS(NTT_OK, ntt_field_forward(pt, y), "ft");
        CHECK_ARR64(x, y, n * w, "%s n=%zu v%d: forward on %d threads", F->name, n, variant, threads);
        CHECK_STATUS(NTT_OK, ntt_field_inverse(p1, x), "i1");
        CHECK_STATUS(NTT_OK, ntt_field_inverse(pt, y), "it");
        CHECK_ARR64(x, y, n * w, "%s n=%zu v%d: inverse on %d threads", F->name, n, variant, threads);
        CHECK_ARR64(a, y, n * w, "round trip on threads");
        CHECK_STATUS(NTT_OK, ntt_field_forward_batch(p1, x, cnt, n), "fb1");
        CHECK_STATUS(NTT_OK, ntt_field_forward_batch(pt, y, cnt, n), "fbt");
        CHECK_ARR64(x, y, cnt * n * w, "%s n=%zu v%d: batch on %d threads", F->name, n, variant,
                    threads);
        CHECK_STATUS(NTT_OK, ntt_field_polymul(p1, x, a, b), "pm1");
        CHECK_STATUS(NTT_OK, ntt_field_polymul(pt, y, a, b), "pmt");
        CHECK_ARR64(x, y, n * w, "%s n=%zu v%d: polymul on %d threads", F->name, n, variant,
                    threads);
        CHECK_STATUS(NTT_OK, ntt_field_pointwise_batch(p1, x, a, a, cnt, n), "pw1");
        CHECK_STATUS(NTT_OK, ntt_field_pointwise_batch(pt, y, a, a, cnt, n), "pwt");
        CHECK_ARR64(x, y, cnt * n * w, "pointwise batch on threads");
        free(a);
        free(x);
        free(y);
        free(b);
        ntt_field_plan_destroy(p1);
        ntt_field_plan_destroy(pt);
    }
}

/* ---- primality ------------------------------------------------------------ */

static void check_primality(void)
{
    mpz_t n, q, r;
    mpz_inits(n, q, r, NULL);
    /* Random odd numbers of 65 .. 1024 bits: the library agrees with GMP. */
    int agree = 0;
    for (int i = 0; i < 120; i++) {
        unsigned bits = 65 + (unsigned)rnd_below(300);
        if (i % 10 == 0) bits = 65 + (unsigned)rnd_below(960);
        rnd_mpz_bits(n, bits);
        mpz_setbit(n, 0);
        if (i % 3 == 0) mpz_nextprime(n, n); /* some primes */
        if (mpz_sizeinbase(n, 2) != bits) continue;
        ntt_field *f = NULL;
        ntt_status s = field_of(&f, n);
        const bool prime = mpz_probab_prime_p(n, 30) != 0;
        CHECK_STATUS(prime ? NTT_OK : NTT_EMODULUS, s, "%u-bit odd number, prime %d", bits, prime);
        agree += (s == NTT_OK) == prime;
        ntt_field_destroy(f);
    }
    /* Products of two primes, squares of primes, prime powers. */
    for (int i = 0; i < 20; i++) {
        unsigned bits = 33 + (unsigned)rnd_below(400);
        rnd_mpz_bits(q, bits);
        mpz_nextprime(q, q);
        rnd_mpz_bits(r, 40 + (unsigned)rnd_below(200));
        mpz_nextprime(r, r);
        if (i % 3 == 0) mpz_mul(n, q, q);
        else if (i % 3 == 1) mpz_mul(n, q, r);
        else mpz_pow_ui(n, r, 3);
        ntt_field *f = NULL;
        if (mpz_sizeinbase(n, 2) > NTT_FIELD_MAX_BITS || mpz_sizeinbase(n, 2) < 65) continue;
        CHECK_STATUS(NTT_EMODULUS, field_of(&f, n), "composite %d", i);
        CHECK(f == NULL, "f NULL on failure");
    }
    /* Strong pseudoprimes to base 2 that are Carmichael numbers
       (6m+1)(12m+1)(18m+1): Miller-Rabin to base 2 passes them, the
       Lucas part must refuse them.  Found by search (a few per thousand
       m). */
    int found = 0;
    for (int tries = 0; tries < 200000 && found < 3; tries++) {
        mpz_t m, f1, f2, f3, d, x;
        mpz_inits(m, f1, f2, f3, d, x, NULL);
        rnd_mpz_bits(m, 24 + (unsigned)rnd_below(8));
        mpz_mul_ui(f1, m, 6);
        mpz_add_ui(f1, f1, 1);
        mpz_mul_ui(f2, m, 12);
        mpz_add_ui(f2, f2, 1);
        mpz_mul_ui(f3, m, 18);
        mpz_add_ui(f3, f3, 1);
        bool ok = mpz_probab_prime_p(f1, 20) && mpz_probab_prime_p(f2, 20) &&
                  mpz_probab_prime_p(f3, 20);
        if (ok) {
            mpz_mul(n, f1, f2);
            mpz_mul(n, n, f3);
            /* strong pseudoprime to base 2? */
            mpz_sub_ui(d, n, 1);
            unsigned s = (unsigned)mpz_scan1(d, 0);
            mpz_tdiv_q_2exp(d, d, s);
            mpz_set_ui(x, 2);
            mpz_powm(x, x, d, n);
            bool spsp = mpz_cmp_ui(x, 1) == 0;
            mpz_sub_ui(d, n, 1);
            for (unsigned k = 0; k < s && !spsp; k++) {
                if (mpz_cmp(x, d) == 0) spsp = true;
                mpz_powm_ui(x, x, 2, n);
            }
            if (spsp && mpz_sizeinbase(n, 2) >= 65) {
                ntt_field *f = NULL;
                CHECK_STATUS(NTT_EMODULUS, field_of(&f, n),
                             "a strong pseudoprime to base 2 (%zu bits)", mpz_sizeinbase(n, 2));
                found++;
            }
        }
        mpz_clears(m, f1, f2, f3, d, x, NULL);
    }
    printf("primality: %d random odd numbers agree with GMP; %d base-2 strong pseudoprimes "
           "refused\n", agree, found);
    mpz_clears(n, q, r, NULL);
}

/* ---- bad input ------------------------------------------------------------ */

static void check_bad_input(fld *F)
{
    ntt_field *f = (ntt_field *)1;
    uint64_t p[MAXW + 1] = {0};
    const size_t w = F->w;
    from_mpz(p, w, F->p);
    CHECK_STATUS(NTT_EINVAL, ntt_field_create(NULL, p, w), "create NULL f");
    CHECK_STATUS(NTT_EINVAL, ntt_field_create(&f, NULL, w), "create NULL p");
    CHECK(f == NULL, "f NULL after failure");
    CHECK_STATUS(NTT_EINVAL, ntt_field_create(&f, p, 0), "words 0");
    CHECK_STATUS(NTT_EINVAL, ntt_field_create(&f, p, MAXW + 1), "words 17");
    p[w] = 0;
    CHECK_STATUS(NTT_EINVAL, ntt_field_create(&f, p, w + 1), "leading zero word");
    uint64_t small[2] = {0xffffffff00000001ull, 0}; /* a 64-bit prime */
    CHECK_STATUS(NTT_EINVAL, ntt_field_create(&f, small, 2), "64-bit prime, 2 words");
    CHECK_STATUS(NTT_EMODULUS, ntt_field_create(&f, small, 1), "64-bit prime");
    CHECK(strstr(ntt_error_detail(), "bits") != NULL, "detail: %s", ntt_error_detail());
    uint64_t even[MAXW];
    memcpy(even, p, w * 8);
    even[0] ^= 1;
    CHECK_STATUS(NTT_EMODULUS, ntt_field_create(&f, even, w), "even");
    uint64_t comp[MAXW];
    memcpy(comp, p, w * 8);
    comp[0] += 2; /* p + 2: composite or prime; compare with GMP */
    {
        mpz_t z;
        mpz_init(z);
        to_mpz(z, comp, w);
        ntt_field *g = NULL;
        ntt_status s = ntt_field_create(&g, comp, w);
        CHECK_STATUS(mpz_probab_prime_p(z, 30) ? NTT_OK : NTT_EMODULUS, s, "p + 2");
        ntt_field_destroy(g);
        mpz_clear(z);
    }
    CHECK_STATUS(NTT_EINVAL, ntt_field_create_preset(NULL, NTT_FIELD_BN254_R), "preset NULL");
    CHECK_STATUS(NTT_EINVAL, ntt_field_create_preset(&f, (ntt_field_preset)9), "preset 9");
    CHECK(strcmp(ntt_field_preset_name((ntt_field_preset)9), "unknown") == 0, "unknown name");

    /* Plans. */
    ntt_field_plan *pl = (ntt_field_plan *)1;
    CHECK_STATUS(NTT_EINVAL, ntt_field_plan_create(NULL, F->f, 8, NULL), "plan NULL");
    CHECK_STATUS(NTT_EINVAL, ntt_field_plan_create(&pl, NULL, 8, NULL), "f NULL");
    CHECK(pl == NULL, "plan NULL after failure");
    const size_t sizes[] = {0, 1, 3, 12, ((size_t)1 << NTT_MAX_LOG2_N) * 2};
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++)
        CHECK_STATUS(NTT_EINVAL, ntt_field_plan_create(&pl, F->f, sizes[i], NULL), "n = %zu",
                     sizes[i]);
    ntt_field_plan_options o = {.flags = NTT_FLAG_NEGACYCLIC};
    CHECK_STATUS(NTT_EINVAL, ntt_field_plan_create(&pl, F->f, 8, &o), "negacyclic");
    o = (ntt_field_plan_options){.flags = 64};
    CHECK_STATUS(NTT_EINVAL, ntt_field_plan_create(&pl, F->f, 8, &o), "flag 64");
    o = (ntt_field_plan_options){.threads = -1};
    CHECK_STATUS(NTT_EINVAL, ntt_field_plan_create(&pl, F->f, 8, &o), "threads -1");
    uint64_t zero[MAXW] = {0};
    o = (ntt_field_plan_options){.flags = NTT_FIELD_FLAG_COSET, .coset_shift = zero};
    CHECK_STATUS(NTT_EINVAL, ntt_field_plan_create(&pl, F->f, 8, &o), "coset shift 0");
    o.coset_shift = p;
    CHECK_STATUS(NTT_EINVAL, ntt_field_plan_create(&pl, F->f, 8, &o), "coset shift p");
    const unsigned s = ntt_field_two_adicity(F->f);
    if (s < NTT_MAX_LOG2_N) {
        CHECK_STATUS(NTT_EMODULUS, ntt_field_plan_create(&pl, F->f, (size_t)1 << (s + 1), NULL),
                     "n = 2^(s+1)");
        CHECK(strstr(ntt_error_detail(), "2-adicity") != NULL, "detail: %s", ntt_error_detail());
    }

    /* Execution. */
    const size_t n = 16;
    CHECK_STATUS(NTT_OK, ntt_field_plan_create(&pl, F->f, n, NULL), "plan");
    if (!pl) return;
    uint64_t *a = xmalloc(4 * n * w * 8), *b = xmalloc(4 * n * w * 8), *c = xmalloc(4 * n * w * 8);
    uint64_t *keep = xmalloc(4 * n * w * 8);
    rnd_elems(a, 4 * n, F->p, w);
    rnd_elems(b, 4 * n, F->p, w);
    rnd_elems(c, 4 * n, F->p, w);
    CHECK_STATUS(NTT_EINVAL, ntt_field_forward(NULL, a), "forward NULL plan");
    CHECK_STATUS(NTT_EINVAL, ntt_field_forward(pl, NULL), "forward NULL a");
    CHECK_STATUS(NTT_EINVAL, ntt_field_inverse(pl, NULL), "inverse NULL a");
    CHECK_STATUS(NTT_EINVAL, ntt_field_plan_root(pl, NULL), "root NULL");
    /* An element = p, then one above p in its top word only. */
    for (int k = 0; k < 2; k++) {
        uint64_t *x = a + (3 * n + 5) * w; /* item 3 of a batch, element 5 */
        uint64_t save[MAXW];
        memcpy(save, x, w * 8);
        memcpy(x, p, w * 8);
        if (k) x[w - 1] = ~(uint64_t)0, x[0] = 0;
        memcpy(keep, a, 4 * n * w * 8);
        CHECK_STATUS(NTT_ERANGE, ntt_field_forward_batch(pl, a, 4, n), "forward batch, p");
        CHECK(strstr(ntt_error_detail(), "item 3") != NULL, "detail: %s", ntt_error_detail());
        CHECK_STATUS(NTT_ERANGE, ntt_field_inverse_batch(pl, a, 4, n), "inverse batch, p");
        CHECK_ARR64(keep, a, 4 * n * w, "a unchanged after NTT_ERANGE");
        memcpy(keep, c, 4 * n * w * 8);
        CHECK_STATUS(NTT_ERANGE, ntt_field_pointwise_batch(pl, c, b, a, 4, n), "pointwise, p");
        CHECK_ARR64(keep, c, 4 * n * w, "c unchanged after NTT_ERANGE");
        CHECK_STATUS(NTT_ERANGE, ntt_field_polymul(pl, c, b, a + 3 * n * w), "polymul, p");
        CHECK_STATUS(NTT_ERANGE, ntt_field_polymul_linear(pl, c, a + 3 * n * w, 8, b, 8),
                     "polymul_linear, p");
        CHECK_ARR64(keep, c, 4 * n * w, "c unchanged after NTT_ERANGE");
        CHECK_STATUS(NTT_ERANGE, ntt_field_to_mont(F->f, c, a, 4 * n), "to_mont, p");
        CHECK_STATUS(NTT_ERANGE, ntt_field_from_mont(F->f, c, a, 4 * n), "from_mont, p");
        CHECK_ARR64(keep, c, 4 * n * w, "c unchanged after NTT_ERANGE");
        memcpy(x, save, w * 8);
    }
    memcpy(keep, c, 4 * n * w * 8);
    CHECK_STATUS(NTT_EINVAL, ntt_field_forward_batch(pl, a, 2, n - 1), "stride < n");
    CHECK_STATUS(NTT_EINVAL, ntt_field_pointwise(pl, c + w, c, b), "pointwise partial overlap");
    CHECK_STATUS(NTT_EINVAL, ntt_field_pointwise(pl, NULL, c, b), "pointwise NULL");
    CHECK_STATUS(NTT_EINVAL, ntt_field_polymul(pl, c + w, c, b), "polymul partial overlap");
    CHECK_STATUS(NTT_EINVAL, ntt_field_polymul_linear(pl, c, a, 0, b, 3), "la 0");
    CHECK_STATUS(NTT_EINVAL, ntt_field_polymul_linear(pl, c, a, 9, b, 9), "la + lb - 1 > n");
    CHECK_STATUS(NTT_EINVAL, ntt_field_polymul_linear(pl, c, c + 2 * w, 4, b, 4), "c overlaps a");
    CHECK_ARR64(keep, c, 4 * n * w, "c unchanged after NTT_EINVAL");
    CHECK_STATUS(NTT_EINVAL, ntt_field_to_mont(F->f, c + w, c, 4), "to_mont partial overlap");
    CHECK_STATUS(NTT_EINVAL, ntt_field_to_mont(NULL, c, a, 4), "to_mont NULL f");
    CHECK_ARR64(keep, c, 4 * n * w, "c unchanged after NTT_EINVAL");
    CHECK_STATUS(NTT_OK, ntt_field_forward_batch(pl, a, 0, 0), "count 0");
    free(a);
    free(b);
    free(c);
    free(keep);
    ntt_field_plan_destroy(pl);
    ntt_field_plan_destroy(NULL);
    ntt_field_destroy(NULL);
}

/* ---- presets -------------------------------------------------------------- */

static const char *const preset_hex[NTT_FIELD_PRESET_COUNT] = {
    "30644e72e131a029b85045b68181585d2833e84879b9709143e1f593f0000001",
    "30644e72e131a029b85045b68181585d97816a916871ca8d3c208c16d87cfd47",
    "73eda753299d7d483339d80809a1d80553bda402fffe5bfeffffffff00000001",
    ("1a0111ea397fe69a4b1ba7b6434bacd764774b84f38512bf6730d2a0f6b0f624"
     "1eabfffeb153ffffb9feffffffffaaab")};
static const unsigned preset_s[NTT_FIELD_PRESET_COUNT] = {28, 1, 32, 1};

int main(void)
{
    test_init("test_field");
    const bool big = getenv("NTT_FIELD_TEST_BIG") && atoi(getenv("NTT_FIELD_TEST_BIG"));
    check_primality();

    /* Presets. */
    for (int i = 0; i < NTT_FIELD_PRESET_COUNT; i++) {
        fld F = {.name = ntt_field_preset_name((ntt_field_preset)i)};
        mpz_init_set_str(F.p, preset_hex[i], 16);
        CHECK_STATUS(NTT_OK, ntt_field_create_preset(&F.f, (ntt_field_preset)i), "preset %s",
                     F.name);
        if (!F.f) {
            mpz_clear(F.p);
            continue;
        }
        F.w = words_of(F.p);
        F.s = ntt_field_two_adicity(F.f);
        CHECK_EQ(preset_s[i], F.s, "%s 2-adicity", F.name);
        check_context(&F);
        if (F.s == 1) {
            ntt_field_plan *pl = NULL;
            CHECK_STATUS(NTT_EMODULUS, ntt_field_plan_create(&pl, F.f, 4, NULL), "%s n = 4",
                         F.name);
            CHECK(strstr(ntt_error_detail(), "2-adicity is 1") != NULL, "detail: %s",
                  ntt_error_detail());
            check_transforms(&F, 2, 2, 1, false);
        } else {
            for (size_t n = 2; n <= 64; n *= 2) check_transforms(&F, n, 64, 1, false);
            check_transforms(&F, 1 << 10, 0, 1, false);
#ifndef NTT_SANITIZE /* the sanitizer build stops at 2^10 (ten times slower) */
            check_transforms(&F, 1 << 14, 0, 1, true);
#endif
            check_threads(&F, 1 << 12, 2);
            if (i == 0) check_threads(&F, 1 << 13, 3);
            if (big)
                for (size_t n = 1 << 16; n <= ((size_t)1 << 20); n *= 4)
                    check_transforms(&F, n, 0, 2, true);
        }
        if (i == 0) check_bad_input(&F);
        ntt_field_destroy(F.f);
        mpz_clear(F.p);
    }

    /* Random primes of 65 .. 1024 bits, every word count from 2 to 16. */
    static const unsigned bits[] = {65, 100, 128, 129, 190, 256, 257, 320, 384, 448,
                                    511, 512, 600, 700, 768, 832, 900, 960, 1023, 1024};
    for (size_t i = 0; i < sizeof bits / sizeof bits[0]; i++) {
#ifdef NTT_SANITIZE
        if (i % 2 && bits[i] > 256) continue; /* half the large ones */
#endif
        fld F = {.name = "random"};
        mpz_init(F.p);
        const unsigned k = 14 + (unsigned)rnd_below(bits[i] < 100 ? 20 : 40);
        make_prime(F.p, bits[i], k);
        F.w = words_of(F.p);
        CHECK_STATUS(NTT_OK, field_of(&F.f, F.p), "%u-bit prime", bits[i]);
        if (!F.f) {
            mpz_clear(F.p);
            continue;
        }
        char name[32];
        snprintf(name, sizeof name, "%u-bit p", bits[i]);
        F.name = name;
        F.s = ntt_field_two_adicity(F.f);
        check_context(&F);
        for (size_t n = 2; n <= 32; n *= 2) check_transforms(&F, n, 32, 1, false);
        check_transforms(&F, bits[i] > 512 ? 1 << 6 : 1 << 8, 0, 1, false);
        check_transforms(&F, bits[i] > 512 ? 1 << 10 : 1 << 12, 0, 1, true);
        if (i % 9 == 0) check_threads(&F, 1 << 12, 2);
        if (big) check_transforms(&F, (size_t)1 << 16, 0, 2, true);
        ntt_field_destroy(F.f);
        mpz_clear(F.p);
    }
    return test_finish();
}
