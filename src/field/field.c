/* Field contexts (include/ntt_field.h): the primality test, the derived
   parameters, the presets and the conversions. */
#include "field_internal.h"
#include "../include/ntt_internal.h" /* ntt_fail, ntt_detail_clear */

#include <stdlib.h>
#include <string.h>

/* ---- set-up arithmetic (run-time w, one element at a time) -------------- */

void field_mul(const field_mod *m, uint64_t *r, const uint64_t *a, const uint64_t *b)
{
    fa_mont_mul(r, a, b, m->p, m->pinv, m->w);
}

void field_pow(const field_mod *m, uint64_t *r, const uint64_t *a, const uint64_t *e, size_t ew)
{
    uint64_t base[NTT_FIELD_MAX_WORDS], acc[NTT_FIELD_MAX_WORDS];
    fa_copy(base, a, m->w);
    fa_copy(acc, m->one, m->w);
    for (size_t i = ew * 64; i-- > 0;) {
        field_mul(m, acc, acc, acc);
        if ((e[i / 64] >> (i % 64)) & 1) field_mul(m, acc, acc, base);
    }
    fa_copy(r, acc, m->w);
}

void field_from_small(const field_mod *m, uint64_t *r, uint64_t x)
{
    uint64_t v[NTT_FIELD_MAX_WORDS] = {x};
    field_mul(m, r, v, m->r2);
}

size_t field_first_geq(const field_mod *m, const uint64_t *a, size_t count)
{
    for (size_t i = 0; i < count; i++)
        if (fa_cmp(a + i * m->w, m->p, m->w) >= 0) return i;
    return count;
}

/* The Montgomery constants of an odd n of w words (n >= 2^(64 (w-1))):
   R mod n and R^2 mod n by doubling, so nothing but additions mod n. */
static void mod_init(field_mod *m, const uint64_t *n, size_t w)
{
    memset(m, 0, sizeof *m);
    m->w = w;
    memcpy(m->p, n, w * sizeof(uint64_t));
    m->pinv = fa_neg_inv64(n[0]);
    uint64_t x[NTT_FIELD_MAX_WORDS] = {1};
    for (size_t i = 0; i < 64 * w; i++) fa_add(x, x, x, m->p, w);
    fa_copy(m->one, x, w);
    for (size_t i = 0; i < 64 * w; i++) fa_add(x, x, x, m->p, w);
    fa_copy(m->r2, x, w);
}

/* ---- number theory on multi-word n --------------------------------------- */

static uint64_t mod_small(const uint64_t *n, size_t w, uint64_t q)
{
    uint64_t r = 0;
    for (size_t i = w; i-- > 0;) r = (uint64_t)((((fa_u128)r << 64) | n[i]) % q);
    return r;
}

/* Jacobi symbol (a/n) for odd n, all in 64 bits. */
static int jacobi64(uint64_t a, uint64_t n)
{
    int t = 1;
    a %= n;
    while (a) {
        while (!(a & 1)) {
            a >>= 1;
            if ((n & 7) == 3 || (n & 7) == 5) t = -t;
        }
        uint64_t tmp = a;
        a = n;
        n = tmp;
        if ((a & 3) == 3 && (n & 3) == 3) t = -t;
        a %= n;
    }
    return n == 1 ? t : 0;
}

/* Jacobi symbol (d/n) for a small signed d and a multi-word odd n > |d|,
   by reciprocity: (-1/n), (2/n) from n mod 8, then (n mod a / a). */
static int jacobi_small(int64_t d, const uint64_t *n, size_t w)
{
    int t = 1;
    uint64_t a = d < 0 ? (uint64_t)(-d) : (uint64_t)d;
    const uint64_t n8 = n[0] & 7;
    if (d < 0 && (n[0] & 3) == 3) t = -t;
    while (a && !(a & 1)) {
        a >>= 1;
        if (n8 == 3 || n8 == 5) t = -t;
    }
    if (a == 0) return 0;
    if (a == 1) return t;
    if ((a & 3) == 3 && (n[0] & 3) == 3) t = -t;
    return t * jacobi64(mod_small(n, w, a), a);
}

/* Whether n (w words) is a perfect square: its root, bit by bit from the
   top, squared and compared (at most 512 squarings of 8 words). */
static bool is_square(const uint64_t *n, size_t w)
{
    uint64_t r[NTT_FIELD_MAX_WORDS] = {0};
    const size_t rw = (w + 1) / 2;
    for (size_t bit = 64 * rw; bit-- > 0;) {
        r[bit / 64] |= (uint64_t)1 << (bit % 64);
        uint64_t sq[2 * NTT_FIELD_MAX_WORDS + 2] = {0};
        for (size_t i = 0; i < rw; i++) {
            uint64_t c = 0;
            for (size_t j = 0; j < rw; j++) {
                fa_u128 x = (fa_u128)r[i] * r[j] + sq[i + j] + c;
                sq[i + j] = (uint64_t)x;
                c = (uint64_t)(x >> 64);
            }
            sq[i + rw] = c;
        }
        bool above = false;
        for (size_t i = 2 * rw; i-- > w;)
            if (sq[i]) above = true;
        if (above || fa_cmp(sq, n, w) > 0) r[bit / 64] &= ~((uint64_t)1 << (bit % 64));
        else if (fa_cmp(sq, n, w) == 0) return true;
    }
    return false;
}

/* Miller-Rabin to base 2 (strong probable prime test) of odd n. */
static bool mr_base2(const field_mod *m)
{
    const size_t w = m->w;
    uint64_t d[NTT_FIELD_MAX_WORDS], x[NTT_FIELD_MAX_WORDS], minus1[NTT_FIELD_MAX_WORDS],
        two[NTT_FIELD_MAX_WORDS];
    fa_copy(d, m->p, w);
    d[0] -= 1; /* n odd: no borrow */
    unsigned s = 0;
    while (!(d[0] & 1)) {
        for (size_t i = 0; i + 1 < w; i++) d[i] = (d[i] >> 1) | (d[i + 1] << 63);
        d[w - 1] >>= 1;
        s++;
    }
    uint64_t zero[NTT_FIELD_MAX_WORDS] = {0};
    fa_sub(minus1, zero, m->one, m->p, w);
    fa_add(two, m->one, m->one, m->p, w);
    field_pow(m, x, two, d, w);
    if (fa_cmp(x, m->one, w) == 0 || fa_cmp(x, minus1, w) == 0) return true;
    for (unsigned r = 1; r < s; r++) {
        field_mul(m, x, x, x);
        if (fa_cmp(x, minus1, w) == 0) return true;
    }
    return false;
}

/* The strong Lucas probable prime test with Selfridge's parameters (P = 1,
   Q = (1 - D)/4, D the first of 5, -7, 9, -11, ... with (D/n) = -1), for
   odd n that is not a square.  All values in Montgomery form. */
static bool strong_lucas(const field_mod *m)
{
    const size_t w = m->w;
    int64_t D = 5;
    for (;;) {
        int j = jacobi_small(D, m->p, w);
        if (j == -1) break;
        if (j == 0) return false; /* |D| < n shares a factor with n */
        D = D > 0 ? -(D + 2) : -D + 2;
        if (D > ((int64_t)1 << 40) || D < -((int64_t)1 << 40)) return false; /* not reached */
    }
    const int64_t Q = (1 - D) / 4;
    const uint64_t aq = Q < 0 ? (uint64_t)(-Q) : (uint64_t)Q;
    if (aq > 1) {
        uint64_t r = mod_small(m->p, w, aq);
        uint64_t a = aq, b = r;
        while (b) {
            uint64_t t = a % b;
            a = b;
            b = t;
        }
        if (a != 1) return false;
    }
    uint64_t zero[NTT_FIELD_MAX_WORDS] = {0};
    uint64_t Dm[NTT_FIELD_MAX_WORDS], Qm[NTT_FIELD_MAX_WORDS];
    field_from_small(m, Dm, D < 0 ? (uint64_t)(-D) : (uint64_t)D);
    if (D < 0) fa_sub(Dm, zero, Dm, m->p, w);
    field_from_small(m, Qm, aq);
    if (Q < 0) fa_sub(Qm, zero, Qm, m->p, w);

    /* n + 1 = d 2^s, in w + 1 words. */
    uint64_t d[NTT_FIELD_MAX_WORDS + 1];
    uint64_t c = 1;
    for (size_t i = 0; i < w; i++) {
        d[i] = m->p[i] + c;
        c = d[i] < c;
    }
    d[w] = c;
    unsigned s = 0;
    while (!(d[0] & 1)) {
        for (size_t i = 0; i < w; i++) d[i] = (d[i] >> 1) | (d[i + 1] << 63);
        d[w] >>= 1;
        s++;
    }
    size_t top = 64 * (w + 1);
    while (top > 0 && !((d[(top - 1) / 64] >> ((top - 1) % 64)) & 1)) top--;

    uint64_t U[NTT_FIELD_MAX_WORDS], V[NTT_FIELD_MAX_WORDS], Qk[NTT_FIELD_MAX_WORDS],
        t[NTT_FIELD_MAX_WORDS], u[NTT_FIELD_MAX_WORDS];
    fa_copy(U, m->one, w); /* U_1 = 1 */
    fa_copy(V, m->one, w); /* V_1 = P = 1 */
    fa_copy(Qk, Qm, w);
    for (size_t i = top - 1; i-- > 0;) {
        /* k -> 2k */
        field_mul(m, U, U, V);
        field_mul(m, V, V, V);
        fa_add(t, Qk, Qk, m->p, w);
        fa_sub(V, V, t, m->p, w);
        field_mul(m, Qk, Qk, Qk);
        if ((d[i / 64] >> (i % 64)) & 1) {
            /* k -> k + 1: U' = (U + V)/2, V' = (D U + V)/2 */
            fa_add(t, U, V, m->p, w);
            field_mul(m, u, Dm, U);
            fa_add(u, u, V, m->p, w);
            fa_half(U, t, m->p, w);
            fa_half(V, u, m->p, w);
            field_mul(m, Qk, Qk, Qm);
        }
    }
    if (fa_is_zero(U, w) || fa_is_zero(V, w)) return true;
    for (unsigned r = 1; r < s; r++) {
        field_mul(m, V, V, V);
        fa_add(t, Qk, Qk, m->p, w);
        fa_sub(V, V, t, m->p, w);
        if (fa_is_zero(V, w)) return true;
        field_mul(m, Qk, Qk, Qk);
    }
    return false;
}

static const uint16_t small_primes[] = {
    3,   5,   7,   11,  13,  17,  19,  23,  29,  31,  37,  41,  43,  47,  53,  59,  61,  67,
    71,  73,  79,  83,  89,  97,  101, 103, 107, 109, 113, 127, 131, 137, 139, 149, 151, 157,
    163, 167, 173, 179, 181, 191, 193, 197, 199, 211, 223, 227, 229, 233, 239, 241, 251};

/* Baillie-PSW on an odd n > 2^64 whose Montgomery constants m holds. */
static bool bpsw(const field_mod *m)
{
    for (size_t i = 0; i < sizeof small_primes / sizeof small_primes[0]; i++)
        if (mod_small(m->p, m->w, small_primes[i]) == 0) return false;
    if (!mr_base2(m)) return false;
    if (is_square(m->p, m->w)) return false;
    return strong_lucas(m);
}

/* ---- contexts ------------------------------------------------------------ */

static unsigned bit_length(const uint64_t *p, size_t w)
{
    return (unsigned)(64 * (w - 1) + 64 - (unsigned)__builtin_clzll(p[w - 1]));
}

ntt_status ntt_field_create(ntt_field **out, const uint64_t *p, size_t words)
{
    ntt_detail_clear();
    if (!out) return ntt_fail(NTT_EINVAL, "f is NULL");
    *out = NULL;
    if (!p) return ntt_fail(NTT_EINVAL, "p is NULL");
    if (words == 0 || words > NTT_FIELD_MAX_WORDS)
        return ntt_fail(NTT_EINVAL, "words = %zu is not in [1, %d]", words, NTT_FIELD_MAX_WORDS);
    if (p[words - 1] == 0)
        return ntt_fail(NTT_EINVAL, "the leading word p[%zu] is 0 (words must be ceil(bits/64))",
                        words - 1);
    const unsigned bits = bit_length(p, words);
    if (bits < NTT_FIELD_MIN_BITS)
        return ntt_fail(NTT_EMODULUS, "p has %u bits, fewer than %d (use ntt.h's plans)", bits,
                        NTT_FIELD_MIN_BITS);
    if (!(p[0] & 1)) return ntt_fail(NTT_EMODULUS, "p is even, not prime");

    ntt_field *f = calloc(1, sizeof *f);
    if (!f) return ntt_fail(NTT_ENOMEM, "no memory for the field context");
    mod_init(&f->m, p, words);
    if (!bpsw(&f->m)) {
        free(f);
        return ntt_fail(NTT_EMODULUS, "p (%u bits) is not prime (Baillie-PSW)", bits);
    }
    const field_mod *m = &f->m;
    const size_t w = words;
    f->bits = bits;
    uint64_t e[NTT_FIELD_MAX_WORDS];
    fa_copy(e, p, w);
    e[0] -= 1;
    unsigned s = 0;
    while (!((e[s / 64] >> (s % 64)) & 1)) s++;
    f->s = s;
    /* (p - 1) / 2^s */
    for (unsigned k = 0; k < s; k++) {
        for (size_t i = 0; i + 1 < w; i++) e[i] = (e[i] >> 1) | (e[i + 1] << 63);
        e[w - 1] >>= 1;
    }
    uint64_t z = 2;
    while (jacobi_small((int64_t)z, p, w) != -1) z++;
    f->z = z;
    uint64_t zm[NTT_FIELD_MAX_WORDS];
    field_from_small(m, zm, z);
    field_pow(m, f->omega, zm, e, w);
    /* g: a non-residue whose order is not a power of two (g^(2^s) != 1).
       One exists unless p - 1 is a power of two (a Fermat prime, none of
       which has 65 to 1024 bits); the bound only keeps the loop finite. */
    f->g = z;
    for (uint64_t g = z; g < z + 100000; g++) {
        if (jacobi_small((int64_t)g, p, w) != -1) continue;
        uint64_t x[NTT_FIELD_MAX_WORDS];
        field_from_small(m, x, g);
        for (unsigned k = 0; k < s; k++) field_mul(m, x, x, x);
        if (fa_cmp(x, m->one, w) != 0) {
            f->g = g;
            break;
        }
    }
    *out = f;
    return NTT_OK;
}

/* The presets' primes, most significant hex digit first. */
static const struct {
    const char *name, *hex;
} presets[NTT_FIELD_PRESET_COUNT] = {
    [NTT_FIELD_BN254_R] = {"bn254-r",
                           "30644e72e131a029b85045b68181585d2833e84879b9709143e1f593f0000001"},
    [NTT_FIELD_BN254_P] = {"bn254-p",
                           "30644e72e131a029b85045b68181585d97816a916871ca8d3c208c16d87cfd47"},
    [NTT_FIELD_BLS12_381_R] = {"bls12-381-r",
                               "73eda753299d7d483339d80809a1d80553bda402fffe5bfeffffffff00000001"},
    [NTT_FIELD_BLS12_381_P] = {"bls12-381-p",
                               "1a0111ea397fe69a4b1ba7b6434bacd764774b84f38512bf6730d2a0f6b0f624"
                               "1eabfffeb153ffffb9feffffffffaaab"},
};

const char *ntt_field_preset_name(ntt_field_preset which)
{
    if ((unsigned)which >= NTT_FIELD_PRESET_COUNT) return "unknown";
    return presets[which].name;
}

ntt_status ntt_field_create_preset(ntt_field **out, ntt_field_preset which)
{
    ntt_detail_clear();
    if (!out) return ntt_fail(NTT_EINVAL, "f is NULL");
    *out = NULL;
    if ((unsigned)which >= NTT_FIELD_PRESET_COUNT)
        return ntt_fail(NTT_EINVAL, "preset %d is not an ntt_field_preset", (int)which);
    uint64_t p[NTT_FIELD_MAX_WORDS] = {0};
    const char *hex = presets[which].hex;
    const size_t len = strlen(hex);
    for (size_t i = 0; i < len; i++) {
        const char ch = hex[len - 1 - i];
        const uint64_t v = ch <= '9' ? (uint64_t)(ch - '0') : (uint64_t)(ch - 'a' + 10);
        p[i / 16] |= v << (4 * (i % 16));
    }
    size_t words = (len + 15) / 16;
    while (words > 1 && p[words - 1] == 0) words--;
    return ntt_field_create(out, p, words);
}

void ntt_field_destroy(ntt_field *f) { free(f); }

size_t ntt_field_words(const ntt_field *f) { return f ? f->m.w : 0; }
unsigned ntt_field_bits(const ntt_field *f) { return f ? f->bits : 0; }
unsigned ntt_field_two_adicity(const ntt_field *f) { return f ? f->s : 0; }
const uint64_t *ntt_field_modulus(const ntt_field *f) { return f ? f->m.p : NULL; }
uint64_t ntt_field_generator(const ntt_field *f) { return f ? f->g : 0; }

static ntt_status convert(const ntt_field *f, uint64_t *out, const uint64_t *in, size_t count,
                          bool to)
{
    ntt_detail_clear();
    if (!f || !out || !in) return ntt_fail(NTT_EINVAL, "%s is NULL", !f ? "f" : !out ? "out" : "in");
    const field_mod *m = &f->m;
    const size_t bytes = count * m->w * sizeof(uint64_t);
    if (out != in && ntt_overlaps(out, bytes, in, bytes))
        return ntt_fail(NTT_EINVAL, "out partly overlaps in");
    const size_t bad = field_first_geq(m, in, count);
    if (bad < count) return ntt_fail(NTT_ERANGE, "in[%zu] is not below p", bad);
    uint64_t one[NTT_FIELD_MAX_WORDS] = {1};
    const uint64_t *by = to ? m->r2 : one;
    for (size_t i = 0; i < count; i++) field_mul(m, out + i * m->w, in + i * m->w, by);
    return NTT_OK;
}

ntt_status ntt_field_to_mont(const ntt_field *f, uint64_t *out, const uint64_t *in, size_t count)
{
    return convert(f, out, in, count, true);
}

ntt_status ntt_field_from_mont(const ntt_field *f, uint64_t *out, const uint64_t *in, size_t count)
{
    return convert(f, out, in, count, false);
}
