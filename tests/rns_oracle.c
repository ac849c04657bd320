/* The GMP reference of the RNS tests (rns_oracle.h). */
#include "rns_oracle.h"

#include <stdlib.h>
#include <string.h>

/* ---- primes ------------------------------------------------------------------ */


/* count distinct NTT primes for 2N (none in avoid[0 .. navoid)), by kind:
   the largest below 2^61, the largest below 2^50, or random lengths
   (2N < 2^bits) with a 61-bit one now and then. */
void make_primes(uint64_t *out, size_t count, size_t n, int kind, const uint64_t *avoid,
                        size_t navoid)
{
    const unsigned lo = t_log2(2 * n);
    unsigned next_index[64] = {0};
    for (size_t i = 0; i < count; i++) {
        for (;;) {
            unsigned bits = kind == PR_TOP ? 61 : kind == PR_50 ? 50 : 0;
            if (kind == PR_MIXED) {
                bits = rnd_below(4) == 0 ? 61 : (unsigned)rnd_range(lo + 8 > 30 ? lo + 8 : 30, 61);
            }
            uint64_t p;
            if (ntt_find_prime(bits, lo, next_index[bits]++, &p) != NTT_OK) {
                fprintf(stderr, "rns_oracle: no prime of %u bits for N=%zu\n", bits, n);
                exit(2);
            }
            bool dup = false;
            for (size_t k = 0; k < i; k++) dup |= out[k] == p;
            for (size_t k = 0; k < navoid; k++) dup |= avoid[k] == p;
            if (!dup) {
                out[i] = p;
                break;
            }
        }
    }
}

/* ---- the oracle's transforms (scalar plans of ntt.h) ------------------------- */


void oracle_init(oracle *o, const ntt_rns *ctx)
{
    o->n = ntt_rns_n(ctx);
    o->nl = ntt_rns_primes(ctx, &o->primes);
    o->nq = ntt_rns_q_count(ctx);
    o->np = ntt_rns_p_count(ctx);
    o->dnum = ntt_rns_dnum(ctx);
    o->alpha = ntt_rns_alpha(ctx);
    o->plans = xmalloc(o->nl * sizeof *o->plans);
    const ntt_plan_options po = {.flags = NTT_FLAG_NEGACYCLIC};
    for (size_t i = 0; i < o->nl; i++)
        if (ntt_plan_create(&o->plans[i], o->n, o->primes[i], NTT_U64, NTT_BACKEND_SCALAR, &po) !=
            NTT_OK) {
            fprintf(stderr, "rns_oracle: scalar plan failed\n");
            exit(2);
        }
}

void oracle_free(oracle *o)
{
    for (size_t i = 0; i < o->nl; i++) ntt_plan_destroy(o->plans[i]);
    free(o->plans);
}

void o_ntt(const oracle *o, size_t limb, uint64_t *a, bool inverse)
{
    ntt_status s = inverse ? ntt_inverse_u64(o->plans[limb], a) : ntt_forward_u64(o->plans[limb], a);
    if (s != NTT_OK) {
        fprintf(stderr, "rns_oracle: oracle transform failed: %s\n", ntt_status_string(s));
        exit(2);
    }
}


/* ---- big-integer formulas ----------------------------------------------------- */


void bigbase_init(bigbase *z, const uint64_t *b, size_t s)
{
    z->s = s;
    z->b = b;
    mpz_init_set_ui(z->B, 1);
    for (size_t i = 0; i < s; i++) mpz_mul_ui(z->B, z->B, b[i]);
    z->hat = xmalloc(s * sizeof *z->hat);
    z->inv = xmalloc(s * sizeof *z->inv);
    mpz_t m;
    mpz_init(m);
    for (size_t i = 0; i < s; i++) {
        mpz_init(z->hat[i]);
        mpz_init(z->inv[i]);
        mpz_divexact_ui(z->hat[i], z->B, b[i]);
        mpz_set_ui(m, b[i]);
        if (!mpz_invert(z->inv[i], z->hat[i], m)) {
            fprintf(stderr, "rns_oracle: base not coprime\n");
            exit(2);
        }
    }
    mpz_clear(m);
}

void bigbase_clear(bigbase *z)
{
    for (size_t i = 0; i < z->s; i++) {
        mpz_clear(z->hat[i]);
        mpz_clear(z->inv[i]);
    }
    free(z->hat);
    free(z->inv);
    mpz_clear(z->B);
}

/* S[k] = sum_i [x_i[k] inv_i]_{b_i} hat_i for every coefficient, x_i = row i
   of x (coefficient form); also checks S = X + u B, 0 <= u < s, against the
   CRT value X of the residues. */
void big_conv(mpz_t *S, const bigbase *z, const uint64_t *x, size_t n, const char *what)
{
    mpz_t t, X, u;
    mpz_inits(t, X, u, NULL);
    for (size_t k = 0; k < n; k++) {
        mpz_set_ui(S[k], 0);
        mpz_set_ui(X, 0);
        for (size_t i = 0; i < z->s; i++) {
            mpz_set_ui(t, x[i * n + k]);
            mpz_mul(t, t, z->inv[i]);
            mpz_mod_ui(t, t, z->b[i]);
            mpz_addmul(S[k], t, z->hat[i]);
            mpz_addmul(X, t, z->hat[i]); /* the same terms: X = this mod B */
        }
        mpz_mod(X, X, z->B);
        mpz_sub(u, S[k], X);
        const bool divisible = mpz_divisible_p(u, z->B) != 0;
        if (divisible) mpz_divexact(u, u, z->B);
        CHECK(divisible && mpz_sgn(u) >= 0 && mpz_cmp_ui(u, z->s) < 0,
              "%s: the conversion sum is not X + u B with 0 <= u < s at coefficient %zu", what, k);
    }
    mpz_clears(t, X, u, NULL);
}

/* X[k] = the CRT value in [0, B) of the residues x (rows mod b_i). */
void big_crt(mpz_t *X, const bigbase *z, const uint64_t *x, size_t n)
{
    mpz_t t;
    mpz_init(t);
    for (size_t k = 0; k < n; k++) {
        mpz_set_ui(X[k], 0);
        for (size_t i = 0; i < z->s; i++) {
            mpz_set_ui(t, x[i * n + k]);
            mpz_mul(t, t, z->inv[i]);
            mpz_mul(t, t, z->hat[i]);
            mpz_add(X[k], X[k], t);
        }
        mpz_mod(X[k], X[k], z->B);
    }
    mpz_clear(t);
}

mpz_t *bigvec(size_t n)
{
    mpz_t *v = xmalloc(n * sizeof *v);
    for (size_t k = 0; k < n; k++) mpz_init(v[k]);
    return v;
}

void bigvec_free(mpz_t *v, size_t n)
{
    for (size_t k = 0; k < n; k++) mpz_clear(v[k]);
    free(v);
}

/* row[k] = v[k] mod p (non-negative). */
void big_reduce(uint64_t *row, mpz_t *v, size_t n, uint64_t p)
{
    for (size_t k = 0; k < n; k++) row[k] = mpz_fdiv_ui(v[k], p);
}

/* ---- oracles of the operations -------------------------------------------------- */

/* modUp of digit j at level l: in (the digit, evaluation form) -> out
   (extended, evaluation form). */
void ora_modup(const oracle *o, size_t l, size_t j, const uint64_t *in, uint64_t *out)
{
    const size_t n = o->n, first = j * o->alpha;
    const size_t s = first + o->alpha <= l + 1 ? o->alpha : l + 1 - first;
    const size_t e = l + 1 + o->np;
    uint64_t *x = xmalloc(s * n * 8);
    memcpy(x, in, s * n * 8);
    for (size_t i = 0; i < s; i++) o_ntt(o, first + i, x + i * n, true);
    bigbase z;
    bigbase_init(&z, o->primes + first, s);
    mpz_t *S = bigvec(n);
    big_conv(S, &z, x, n, "modUp oracle");
    for (size_t k = 0; k < e; k++) {
        uint64_t *row = out + k * n;
        if (k >= first && k < first + s) {
            memcpy(row, in + (k - first) * n, n * 8);
            continue;
        }
        const size_t limb = qp(o, l, k);
        big_reduce(row, S, n, o->primes[limb]);
        o_ntt(o, limb, row, false);
    }
    bigvec_free(S, n);
    bigbase_clear(&z);
    free(x);
}

/* Y = (X - S) / D for X the CRT value of all rows of x (coefficient form,
   limbs given by idx[0 .. cnt)) and S the conversion of the rows
   dfirst .. dfirst+ds-1 (the divisor's base D); out_i = NTT(Y mod q_i) for
   i < nout (rows of x, limbs idx[i]). */
static void big_divide(const oracle *o, const uint64_t *x, const size_t *idx, size_t cnt,
                       size_t dfirst, size_t ds, size_t nout, uint64_t *out, const char *what)
{
    const size_t n = o->n;
    uint64_t *all = xmalloc(cnt * 8), *dp = xmalloc(ds * 8);
    for (size_t i = 0; i < cnt; i++) all[i] = o->primes[idx[i]];
    for (size_t i = 0; i < ds; i++) dp[i] = o->primes[idx[dfirst + i]];
    bigbase zall, zd;
    bigbase_init(&zall, all, cnt);
    bigbase_init(&zd, dp, ds);
    mpz_t *X = bigvec(n), *S = bigvec(n);
    big_crt(X, &zall, x, n);
    big_conv(S, &zd, x + dfirst * n, n, what);
    bool exact = true;
    for (size_t k = 0; k < n; k++) {
        mpz_sub(X[k], X[k], S[k]);
        exact &= mpz_divisible_p(X[k], zd.B) != 0;
        mpz_divexact(X[k], X[k], zd.B);
    }
    CHECK(exact, "%s: X - Conv(x) not divisible by the dropped primes", what);
    for (size_t i = 0; i < nout; i++) {
        big_reduce(out + i * n, X, n, o->primes[idx[i]]);
        o_ntt(o, idx[i], out + i * n, false);
    }
    bigvec_free(X, n);
    bigvec_free(S, n);
    bigbase_clear(&zall);
    bigbase_clear(&zd);
    free(all);
    free(dp);
}

void ora_moddown(const oracle *o, size_t l, const uint64_t *in, uint64_t *out)
{
    const size_t n = o->n, e = l + 1 + o->np;
    uint64_t *x = xmalloc(e * n * 8);
    size_t *idx = xmalloc(e * sizeof *idx);
    memcpy(x, in, e * n * 8);
    for (size_t k = 0; k < e; k++) {
        idx[k] = qp(o, l, k);
        o_ntt(o, idx[k], x + k * n, true);
    }
    big_divide(o, x, idx, e, l + 1, o->np, l + 1, out, "modDown oracle");
    free(idx);
    free(x);
}

void ora_rescale(const oracle *o, size_t l, const uint64_t *in, uint64_t *out)
{
    const size_t n = o->n;
    uint64_t *x = xmalloc((l + 1) * n * 8);
    size_t *idx = xmalloc((l + 1) * sizeof *idx);
    memcpy(x, in, (l + 1) * n * 8);
    for (size_t k = 0; k <= l; k++) {
        idx[k] = k;
        o_ntt(o, k, x + k * n, true);
    }
    big_divide(o, x, idx, l + 1, l, 1, l, out, "rescale oracle");
    free(idx);
    free(x);
}

/* acc_c[t] = sum_j ext_j[t] key_{j,c}[limb t], big sums, reduced. */
void ora_inner(const oracle *o, size_t l, const uint64_t *ext, const uint64_t *key,
                      uint64_t *acc0, uint64_t *acc1)
{
    const size_t n = o->n, e = l + 1 + o->np, beta = l / o->alpha + 1;
    mpz_t a, t;
    mpz_inits(a, t, NULL);
    for (int c = 0; c < 2; c++) {
        uint64_t *acc = c ? acc1 : acc0;
        for (size_t k = 0; k < e; k++) {
            const size_t limb = qp(o, l, k);
            for (size_t m = 0; m < n; m++) {
                mpz_set_ui(a, 0);
                for (size_t j = 0; j < beta; j++) {
                    mpz_set_ui(t, ext[(j * e + k) * n + m]);
                    mpz_mul_ui(t, t, key[((2 * j + (size_t)c) * o->nl + limb) * n + m]);
                    mpz_add(a, a, t);
                }
                acc[k * n + m] = mpz_fdiv_ui(a, o->primes[limb]);
            }
        }
    }
    mpz_clears(a, t, NULL);
}

/* The key switch as the composition of the oracles: modUp of every digit of
   in (l+1 limbs), the inner product with key, modDown of both sums into
   out0 and out1 (l+1 limbs each). */
void ora_keyswitch(const oracle *o, size_t l, const uint64_t *in, const uint64_t *key,
                   uint64_t *out0, uint64_t *out1)
{
    const size_t n = o->n, e = l + 1 + o->np, beta = l / o->alpha + 1;
    uint64_t *x = xmalloc(beta * e * n * 8), *acc = xmalloc(2 * e * n * 8);
    for (size_t j = 0; j < beta; j++) ora_modup(o, l, j, in + j * o->alpha * n, x + j * e * n);
    ora_inner(o, l, x, key, acc, acc + e * n);
    ora_moddown(o, l, acc, out0);
    ora_moddown(o, l, acc + e * n, out1);
    free(x);
    free(acc);
}

/* ---- random inputs --------------------------------------------------------------- */

void fill_poly(uint64_t *a, const oracle *o, size_t limbs, size_t l, bool ext, int mode)
{
    for (size_t k = 0; k < limbs; k++) {
        const uint64_t p = o->primes[ext ? qp(o, l, k) : k];
        for (size_t m = 0; m < o->n; m++)
            a[k * o->n + m] = mode == 1 ? p - 1 : mode == 2 && rnd_below(2) ? p - 1 - rnd_below(4)
                                                                             : rnd_below(p);
    }
}

void fill_key(uint64_t *key, const oracle *o, int mode)
{
    for (size_t r = 0; r < 2 * o->dnum; r++) fill_poly(key + r * o->nl * o->n, o, o->nl, 0, false, mode);
}
