/*
 * The RNS operations on host pointers (ntt_rns.h): argument checks, then
 * the stages as sequences of limb transforms and element-wise kernels.
 *
 * Threads (the OPENMP backend, threads > 1): the context's pool
 * (src/pool/pool.h) runs limb loops one limb a unit (each limb has its own
 * serial plan, so limbs are independent) and conversions one block of
 * RNS_BLOCK coefficients a unit, each thread with its own y buffer.
 * Inside one limb the work is serial.  Single-thread contexts, and loops
 * too small to share, run on the calling thread.  Nothing is allocated.
 */
#include "rns_internal.h"
#include "../pool/pool.h"

#include <stdatomic.h>
#include <string.h>

/* Loops over fewer words than this run on the calling thread: waking
   another thread costs tens of microseconds (more in a VM, or when the
   host is busy), what a few limb transforms of 2^12 take; a key switch
   at N = 2^12 is a dozen such loops. */
#define RNS_MIN_PAR ((size_t)1 << 16)

/* The operands of one loop over limbs or blocks; each loop reads the
   fields it names. */
typedef struct {
    const ntt_rns *c;
    const uint64_t *in, *key;
    uint64_t *a, *out, *out0, *out1, *accp0, *accp1;
    const size_t *limbs;
    size_t first, level, q, e, beta;
    const uint64_t *wl, *wlq;
    const rns_conv_job *job;
    bool inverse;
    atomic_bool bad;
    _Atomic ntt_status st;
} rns_loop;

static void loop_init(rns_loop *L, const ntt_rns *c)
{
    *L = (rns_loop){.c = c};
    atomic_init(&L->bad, false);
    atomic_init(&L->st, NTT_OK);
}

/* fn over units 0 .. units-1 (words: the loop's size), on the context's
   threads. */
static void rns_for(rns_loop *L, size_t units, size_t words, ntt_pool_fn fn)
{
    ntt_pool_for(units > 1 && words >= RNS_MIN_PAR ? L->c->pool : NULL, units, fn, L);
}

/* Records a failure from inside a loop. */
static void set_status(rns_loop *L, ntt_status s)
{
    if (s != NTT_OK) atomic_store(&L->st, s);
}

/* The limb's transform in place, through the core's execution seam: the
   public call without its range check, as every value the stages
   transform is a residue they made or checked. */
static ntt_status limb_ntt(const ntt_rns *c, size_t limb, uint64_t *a, bool inverse)
{
    ntt_plan *pl = c->plans[limb];
    return ntt_exec_transform(pl, a, 1, pl->n, inverse);
}

/* Limb k of a polynomial at level l: Q_l's limbs, then (extended) P's. */
static size_t qp_limb(const ntt_rns *c, size_t l, size_t k)
{
    return k <= l ? k : c->nq + (k - l - 1);
}

/* Thread t's scratch. */
static uint64_t *thread_y(const ntt_rns *c, int t) { return c->thr + (size_t)t * c->thr_words + c->n; }
static uint64_t *thread_z(const ntt_rns *c, int t) { return c->thr + (size_t)t * c->thr_words; }

/* ---- checks ---------------------------------------------------------------- */

/* Whether a word of a (count limbs) is >= its prime, the prime of row k
   being that of the context's limb limbs[k], or when limbs is NULL that of
   limb first + k of a polynomial at level l (qp_limb). */
static void range_unit(void *arg, unsigned phase, size_t k, int t)
{
    (void)phase;
    (void)t;
    rns_loop *L = arg;
    const ntt_rns *c = L->c;
    const size_t limb = L->limbs ? L->limbs[k] : qp_limb(c, L->level, L->first + k);
    if (ntt_any_geq_u64(L->in + k * c->n, c->n, c->primes[limb])) atomic_store(&L->bad, true);
}

static bool out_of_range(const ntt_rns *c, const uint64_t *a, size_t count, const size_t *limbs,
                         size_t first, size_t l)
{
    rns_loop L;
    loop_init(&L, c);
    L.in = a;
    L.limbs = limbs;
    L.first = first;
    L.level = l;
    rns_for(&L, count, count * c->n, range_unit);
    return atomic_load(&L.bad);
}

/* ---- building blocks --------------------------------------------------------- */

static void rows_unit(void *arg, unsigned phase, size_t k, int t)
{
    (void)phase;
    (void)t;
    rns_loop *L = arg;
    const ntt_rns *c = L->c;
    set_status(L, limb_ntt(c, L->limbs ? L->limbs[k] : L->first + k, L->a + k * c->n, L->inverse));
}

static ntt_status ntt_rows(const ntt_rns *c, uint64_t *a, size_t count, const size_t *limbs,
                           size_t first, bool inverse)
{
    rns_loop L;
    loop_init(&L, c);
    L.a = a;
    L.limbs = limbs;
    L.first = first;
    L.inverse = inverse;
    rns_for(&L, count, count * c->n, rows_unit);
    return atomic_load(&L.st);
}

static void conv_unit(void *arg, unsigned phase, size_t b, int t)
{
    (void)phase;
    rns_loop *L = arg;
    const ntt_rns *c = L->c;
    const size_t n = c->n, k0 = b * RNS_BLOCK, k1 = k0 + RNS_BLOCK < n ? k0 + RNS_BLOCK : n;
    c->K->conv(L->job, k0, k1, thread_y(c, t));
}

/* Runs the conversion job in c->j* over all coefficients. */
static void conv_run(const ntt_rns *c, size_t s, size_t t, bool stream)
{
    rns_conv_job job = {.s = s, .t = t, .x = c->jx, .src = c->jsrc, .inv = c->jinv,
                        .invq = c->jinvq, .out = c->jout, .dst = c->jdst,
                        .w = (const uint64_t *const *)c->jw, .prep = c->prep, .stream = stream};
    if (c->K->prepare) c->K->prepare(&job, c->prep);
    const size_t n = c->n, nb = (n + RNS_BLOCK - 1) / RNS_BLOCK;
    rns_loop L;
    loop_init(&L, c);
    L.job = &job;
    rns_for(&L, nb, n * (s + t), conv_unit);
}

/* The sources of a job: s rows of x from base limbs first.. (or list),
   constants of tab. */
static void job_sources(ntt_rns *c, const uint64_t *x, size_t s, const size_t *list, size_t first,
                        const rns_conv_tab *tab)
{
    for (size_t i = 0; i < s; i++) {
        c->jx[i] = x + i * c->n;
        c->jsrc[i] = &c->pm[list ? list[i] : first + i];
        c->jinv[i] = tab->inv[i];
        c->jinvq[i] = tab->invq[i];
    }
}

/* Digit j at level l (its limbs in, evaluation form) into coefficient form
   in X, then its conversion to every other limb of Q_l and P, rows into
   dst (an extended polynomial at level l whose rows of the digit are not
   touched). */
static void digit_job(ntt_rns *c, size_t l, size_t j, const uint64_t *in, uint64_t *dst,
                        bool stream, ntt_status *st)
{
    const size_t n = c->n, first = j * c->alpha;
    const rns_conv_tab *tab = &c->shape[j < l / c->alpha ? first + c->alpha - 1 : l];
    const size_t s = tab->s;
    memcpy(c->X, in, s * n * sizeof *c->X);
    const ntt_status r = ntt_rows(c, c->X, s, NULL, first, true);
    if (r != NTT_OK) *st = r;
    job_sources(c, c->X, s, NULL, first, tab);
    size_t t = 0;
    for (size_t k = 0; k < l + 1 + c->np; k++) {
        if (k >= first && k < first + s) continue;
        const size_t limb = qp_limb(c, l, k);
        c->jout[t] = dst + k * n;
        c->jdst[t] = &c->pm[limb];
        c->jw[t] = tab->w + limb * s;
        t++;
    }
    conv_run(c, s, t, stream);
}

/* modDown's limb i: its row of T (P's part converted) to evaluation form,
   then out = (xq - T) P^-1. */
static void moddown_unit(void *arg, unsigned phase, size_t i, int t)
{
    (void)phase;
    (void)t;
    rns_loop *L = arg;
    const ntt_rns *c = L->c;
    const size_t n = c->n;
    uint64_t *row = c->T + i * n;
    set_status(L, limb_ntt(c, i, row, false));
    c->K->subc(L->out + i * n, L->in + i * n, row, n, c->pinv[i], c->pinvq[i], &c->pm[i]);
}

/* modDown of (xq: l+1 rows, xp: K rows, which it transforms in place) into
   out (may be xq). */
static ntt_status moddown_core(ntt_rns *c, size_t l, const uint64_t *xq, uint64_t *xp,
                               uint64_t *out)
{
    const size_t n = c->n, np = c->np;
    const rns_conv_tab *tab = &c->pconv;
    ntt_status st = ntt_rows(c, xp, np, NULL, c->nq, true);
    job_sources(c, xp, np, NULL, c->nq, tab);
    for (size_t i = 0; i <= l; i++) {
        c->jout[i] = c->T + i * n;
        c->jdst[i] = &c->pm[i];
        c->jw[i] = tab->w + i * np;
    }
    conv_run(c, np, l + 1, false);
    rns_loop L;
    loop_init(&L, c);
    L.in = xq;
    L.out = out;
    rns_for(&L, l + 1, (l + 1) * n, moddown_unit);
    const ntt_status s = atomic_load(&L.st);
    return st != NTT_OK ? st : s;
}

/* ---- the public operations ------------------------------------------------- */

/* A CUDA context runs the ntt_rns_cuda_* calls only. */
static bool on_device(const ntt_rns *c) { return c && c->backend == NTT_BACKEND_CUDA; }

static ntt_status transform(ntt_rns *c, size_t n, const size_t *limbs, size_t count, uint64_t *a,
                            bool inverse)
{
    if (on_device(c)) return NTT_EUNSUPPORTED;
    const ntt_status s = ntt_rns_args_transform(c, n, limbs, count, a);
    if (s != NTT_OK) return s;
    if (out_of_range(c, a, count, limbs, 0, 0)) return NTT_ERANGE;
    return ntt_rows(c, a, count, limbs, 0, inverse);
}

ntt_status ntt_rns_forward(ntt_rns *c, size_t n, const size_t *limbs, size_t count, uint64_t *a)
{
    return transform(c, n, limbs, count, a, false);
}

ntt_status ntt_rns_inverse(ntt_rns *c, size_t n, const size_t *limbs, size_t count, uint64_t *a)
{
    return transform(c, n, limbs, count, a, true);
}

ntt_status ntt_rns_fastbconv(ntt_rns *c, size_t n, const size_t *from, size_t from_count,
                             const uint64_t *in, const size_t *to, size_t to_count, uint64_t *out)
{
    if (on_device(c)) return NTT_EUNSUPPORTED;
    const ntt_status s = ntt_rns_args_fastbconv(c, n, from, from_count, in, to, to_count, out);
    if (s != NTT_OK) return s;
    if (out_of_range(c, in, from_count, from, 0, 0)) return NTT_ERANGE;
    /* The constants of these two lists, in the generic table. */
    rns_conv_tab *g = &c->gen;
    uint64_t *b = c->lists, *tg = c->lists + from_count;
    for (size_t i = 0; i < from_count; i++) b[i] = c->primes[from[i]];
    for (size_t j = 0; j < to_count; j++) tg[j] = c->primes[to[j]];
    uint64_t *pre = c->thr; /* 2s + 2 <= n + nlimb*RNS_BLOCK words */
    ntt_rns_conv_consts(b, from_count, tg, to_count, g->inv, g->invq, g->w, pre);
    job_sources(c, in, from_count, from, 0, g);
    for (size_t j = 0; j < to_count; j++) {
        c->jout[j] = out + j * n;
        c->jdst[j] = &c->pm[to[j]];
        c->jw[j] = g->w + j * from_count;
    }
    conv_run(c, from_count, to_count, false);
    return NTT_OK;
}

/* modUp's limb k: the converted row to evaluation form (the digit's own
   rows, first .. first + q - 1, are copies of the input). */
static void modup_unit(void *arg, unsigned phase, size_t k, int t)
{
    (void)phase;
    (void)t;
    rns_loop *L = arg;
    const ntt_rns *c = L->c;
    if (k < L->first || k >= L->first + L->q)
        set_status(L, limb_ntt(c, qp_limb(c, L->level, k), L->out + k * c->n, false));
}

ntt_status ntt_rns_modup(ntt_rns *c, size_t n, size_t level, size_t digit, const uint64_t *in,
                         size_t in_limbs, uint64_t *out, size_t out_limbs)
{
    if (on_device(c)) return NTT_EUNSUPPORTED;
    const ntt_status a = ntt_rns_args_modup(c, n, level, digit, in, in_limbs, out, out_limbs);
    if (a != NTT_OK) return a;
    size_t first, s;
    if (ntt_rns_digit_range(c, level, digit, &first, &s) != NTT_OK) return NTT_EINVAL;
    const size_t e = level + 1 + c->np;
    if (out_of_range(c, in, s, NULL, first, level)) return NTT_ERANGE;
    ntt_status st = NTT_OK;
    digit_job(c, level, digit, in, out, false, &st);
    memcpy(out + first * n, in, s * n * sizeof *out);
    rns_loop L;
    loop_init(&L, c);
    L.out = out;
    L.level = level;
    L.first = first;
    L.q = s;
    rns_for(&L, e, e * n, modup_unit);
    const ntt_status r = atomic_load(&L.st);
    return st != NTT_OK ? st : r;
}

ntt_status ntt_rns_moddown(ntt_rns *c, size_t n, size_t level, const uint64_t *in,
                           size_t in_limbs, uint64_t *out, size_t out_limbs)
{
    if (on_device(c)) return NTT_EUNSUPPORTED;
    const ntt_status a = ntt_rns_args_moddown(c, n, level, in, in_limbs, out, out_limbs);
    if (a != NTT_OK) return a;
    const size_t e = level + 1 + c->np;
    if (out_of_range(c, in, e, NULL, 0, level)) return NTT_ERANGE;
    memcpy(c->PP, in + (level + 1) * n, c->np * n * sizeof *c->PP);
    return moddown_core(c, level, in, c->PP, out);
}

/* Rescale's limb i: the last limb (in X, coefficient form) reduced mod
   q_i and transformed, then out = (in - it) q_l^-1. */
static void rescale_unit(void *arg, unsigned phase, size_t i, int t)
{
    (void)phase;
    rns_loop *L = arg;
    const ntt_rns *c = L->c;
    const size_t n = c->n;
    uint64_t *z = thread_z(c, t);
    c->K->reduce(z, c->X, n, &c->pm[i]);
    set_status(L, limb_ntt(c, i, z, false));
    c->K->subc(L->out + i * n, L->in + i * n, z, n, L->wl[i], L->wlq[i], &c->pm[i]);
}

ntt_status ntt_rns_rescale(ntt_rns *c, size_t n, size_t level, const uint64_t *in,
                           size_t in_limbs, uint64_t *out, size_t out_limbs)
{
    if (on_device(c)) return NTT_EUNSUPPORTED;
    const ntt_status a = ntt_rns_args_rescale(c, n, level, in, in_limbs, out, out_limbs);
    if (a != NTT_OK) return a;
    if (out_of_range(c, in, level + 1, NULL, 0, level)) return NTT_ERANGE;
    memcpy(c->X, in + level * n, n * sizeof *c->X);
    ntt_status st = limb_ntt(c, level, c->X, true);
    rns_loop L;
    loop_init(&L, c);
    L.in = in;
    L.out = out;
    L.wl = c->qlinv + level * c->nq;
    L.wlq = c->qlinvq + level * c->nq;
    rns_for(&L, level, level * n, rescale_unit);
    const ntt_status r = atomic_load(&L.st);
    return st != NTT_OK ? st : r;
}

/* The inner product's limb k (context limb `limb`) at level l from the
   digits' rows ext(j) = ext + j*es (row k of each), into acc0, acc1. */
static void inner_limb(const ntt_rns *c, size_t limb, const uint64_t *const *ext, size_t beta,
                       const uint64_t *key, uint64_t *acc0, uint64_t *acc1)
{
    const uint64_t *k0[NTT_RNS_MAX_LIMBS], *k1[NTT_RNS_MAX_LIMBS];
    const size_t n = c->n, nl = c->nlimb;
    for (size_t j = 0; j < beta; j++) {
        k0[j] = key + ((2 * j) * nl + limb) * n;
        k1[j] = key + ((2 * j + 1) * nl + limb) * n;
    }
    c->K->dot2(acc0, acc1, ext, k0, k1, beta, n, &c->pm[limb]);
}

/* The inner product's limb k. */
static void inner_unit(void *arg, unsigned phase, size_t k, int t)
{
    (void)phase;
    (void)t;
    rns_loop *L = arg;
    const ntt_rns *c = L->c;
    const size_t n = c->n;
    const uint64_t *rows[NTT_RNS_MAX_LIMBS];
    for (size_t j = 0; j < L->beta; j++) rows[j] = L->in + (j * L->e + k) * n;
    inner_limb(c, qp_limb(c, L->level, k), rows, L->beta, L->key, L->out0 + k * n, L->out1 + k * n);
}

ntt_status ntt_rns_ks_inner(ntt_rns *c, size_t n, size_t level, const uint64_t *ext,
                            size_t ext_limbs, const uint64_t *key, size_t key_limbs,
                            uint64_t *acc0, uint64_t *acc1, size_t acc_limbs)
{
    if (on_device(c)) return NTT_EUNSUPPORTED;
    const ntt_status a = ntt_rns_args_inner(c, n, level, ext, ext_limbs, key, key_limbs, acc0,
                                            acc1, acc_limbs);
    if (a != NTT_OK) return a;
    const size_t e = level + 1 + c->np, beta = ntt_rns_digits(c, level);
    for (size_t j = 0; j < beta; j++)
        if (out_of_range(c, ext + j * e * n, e, NULL, 0, level)) return NTT_ERANGE;
    rns_loop L;
    loop_init(&L, c);
    L.in = ext;
    L.key = key;
    L.out0 = acc0;
    L.out1 = acc1;
    L.level = level;
    L.e = e;
    L.beta = beta;
    rns_for(&L, e, e * beta * n, inner_unit);
    return NTT_OK;
}

/* The key switch's limb k: the digits' converted rows of the limb to
   evaluation form, then the inner product over the digits. */
static void keyswitch_unit(void *arg, unsigned phase, size_t k, int t)
{
    (void)phase;
    (void)t;
    rns_loop *L = arg;
    const ntt_rns *c = L->c;
    const size_t n = c->n, e = L->e, q = L->q, alpha = c->alpha;
    const size_t limb = qp_limb(c, L->level, k);
    const uint64_t *rows[NTT_RNS_MAX_LIMBS];
    for (size_t j = 0; j < L->beta; j++) {
        uint64_t *row = c->T + (j * e + k) * n;
        if (k >= j * alpha && k < (j + 1) * alpha && k < q) {
            rows[j] = L->in + k * n; /* limb k is digit j's own */
        } else {
            set_status(L, limb_ntt(c, limb, row, false));
            rows[j] = row;
        }
    }
    inner_limb(c, limb, rows, L->beta, L->key, k < q ? L->out0 + k * n : L->accp0 + (k - q) * n,
               k < q ? L->out1 + k * n : L->accp1 + (k - q) * n);
}

/*
 * The key switch: every digit's conversion first (coefficient form, digit
 * j's rows in T + j*e*n laid out as an extended polynomial), then limb by
 * limb the transforms of that limb's converted rows and at once the inner
 * product over the digits (the digit's own limb read from in), while the
 * rows are in cache, so that the extended digits in evaluation form and
 * partial sums never go to memory; then modDown of both sums (their P limbs
 * in PP).  The converted rows (dnum (L+1+K) N words at most, past the
 * caches at N = 2^16) are stored past the caches, which saves reading them
 * in before they are written.  The arithmetic is that of the separate
 * calls, so the result is theirs bit for bit.
 */
ntt_status ntt_rns_keyswitch(ntt_rns *c, size_t n, size_t level, const uint64_t *in,
                             size_t in_limbs, const uint64_t *key, size_t key_limbs,
                             uint64_t *out0, uint64_t *out1, size_t out_limbs)
{
    if (on_device(c)) return NTT_EUNSUPPORTED;
    const ntt_status a = ntt_rns_args_keyswitch(c, n, level, in, in_limbs, key, key_limbs, out0,
                                                out1, out_limbs);
    if (a != NTT_OK) return a;
    const size_t q = level + 1, e = q + c->np;
    const size_t beta = ntt_rns_digits(c, level), alpha = c->alpha;
    uint64_t *accp0 = c->PP, *accp1 = c->PP + c->np * n;
    ntt_status st = NTT_OK;
    /* Each digit is checked right before it is read (the outputs are
       written only after every digit's conversion). */
    for (size_t j = 0; j < beta; j++) {
        const size_t s = (j + 1) * alpha < q ? alpha : q - j * alpha;
        if (out_of_range(c, in + j * alpha * n, s, NULL, j * alpha, level)) return NTT_ERANGE;
        digit_job(c, level, j, in + j * alpha * n, c->T + j * e * n, true, &st);
    }
    rns_loop L;
    loop_init(&L, c);
    L.in = in;
    L.key = key;
    L.out0 = out0;
    L.out1 = out1;
    L.accp0 = accp0;
    L.accp1 = accp1;
    L.level = level;
    L.q = q;
    L.e = e;
    L.beta = beta;
    rns_for(&L, e, e * beta * n, keyswitch_unit);
    const ntt_status sl = atomic_load(&L.st);
    if (st == NTT_OK) st = sl;
    const ntt_status s0 = moddown_core(c, level, out0, accp0, out0);
    const ntt_status s1 = moddown_core(c, level, out1, accp1, out1);
    return st != NTT_OK ? st : s0 != NTT_OK ? s0 : s1;
}

ntt_status ntt_rns_key_check(const ntt_rns *c, size_t n, const uint64_t *key, size_t key_limbs)
{
    if (!c || !key || n != c->n || c->np == 0 || key_limbs != ntt_rns_key_limbs(c)) return NTT_EINVAL;
    /* The digits a key switch reads (ntt_rns.h): beta(L) may be below dnum. */
    const size_t read = 2 * ntt_rns_digits(c, c->nq - 1) * c->nlimb;
    for (size_t r = 0; r < read; r++)
        if (ntt_any_geq_u64(key + r * n, n, c->primes[r % c->nlimb])) return NTT_ERANGE;
    return NTT_OK;
}
