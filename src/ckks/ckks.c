/* The CKKS operations (include/ntt_ckks.h) on the RNS context's public
   calls.  The element-wise work (products, sums, the permutation) is
   written here on the arithmetic layer; every transform, conversion, inner
   product, modDown and rescale is an ntt_rns_* call, so the results are the
   RNS context's words whatever its backend. */
#include "ntt_ckks.h"

#include "../arith/modarith.h"
#include "../core/alloc.h"
#include "../core/detail.h"
#include "../core/internal.h" /* ntt_any_geq_u64 */
#include "../include/ntt_internal.h"
#include "../pool/pool.h"
#ifdef NTT_HAVE_CUDA
#include "ckks_cuda.h"
#endif

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

struct ntt_ckks {
    ntt_rns *rns;
    size_t n, logn, nq, np, nl, dnum; /* N, log2 N, L+1, K, L+1+K, dnum */
    const uint64_t *pr;               /* the context's L+1+K primes */
    uint64_t *mu;                     /* Barrett: floor(2^(2k) / p), k = bits of p */
    unsigned *kb;
    uint64_t *pmod;                   /* P mod q_i, i <= L */
    uint32_t *brv, *perm;             /* N each */
    bool dev;                         /* a CUDA context: the buffers below
                                         (ext .. t) are device memory */
#ifdef NTT_HAVE_CUDA
    ckks_dev cu;
#endif
    uint64_t *ext, *extp;             /* dnum (L+1+K) N each: raised digits */
    uint64_t *acc0, *acc1;            /* (L+1+K) N each */
    uint64_t *sum0, *sum1;            /* (L+1+K) N each, host contexts only:
                                         the summed rotations' sums */
    uint64_t *t[4];                   /* (L+1) N each */
    uint64_t *tmp;                    /* N */
    int64_t *ei, *ci;                 /* N each: an error, a secret image */
};

/* ---- arithmetic ------------------------------------------------------------ */

static inline uint64_t mulm(const ntt_ckks *c, size_t limb, uint64_t a, uint64_t b)
{
    const uint64_t p = c->pr[limb];
    uint64_t r = ntt_barrett64((ntt_u128)a * b, c->mu[limb], c->kb[limb], p); /* [0, 3p) */
    return ntt_csub64(ntt_csub64(r, 2 * p), p);
}

/* v mod p in [0, p) for any int64 v. */
static inline uint64_t smod(int64_t v, uint64_t p)
{
    if (v >= 0) return (uint64_t)v % p;
    uint64_t r = ((uint64_t)(-(v + 1)) + 1) % p;
    return r ? p - r : 0;
}

/* ---- element-wise loops, one limb (row) a unit on the RNS context's threads ---- */

enum { R_ADD, R_MUL, R_TENSOR, R_PERM, R_ACC };
typedef struct {
    const ntt_ckks *c;
    int op;
    size_t q;       /* R_ACC: rows of an extended polynomial on Q_(q-1) and P */
    bool first;     /* R_ACC: set rather than add */
    const uint64_t *x0, *x1, *y0, *y1;
    uint64_t *o0, *o1, *o2;
} rows_job;

/* Row k of a q + K row extended polynomial: its prime's index. */
static size_t ext_prime(const ntt_ckks *c, size_t q, size_t k) { return k < q ? k : c->nq + (k - q); }

/* Row k of:
   R_ADD     o0 = x0 + y0, o1 = x1 + y1 (y1 NULL: x1; o1 NULL: none)
   R_MUL     o0 = x0 y0, o1 = x1 y1 (y1 NULL: y0)
   R_TENSOR  o0 = x0 y0, o1 = x0 y1 + x1 y0, o2 = x1 y1
   R_PERM    o0 = x0 through c->perm (+ y0 when set)
   R_ACC     o0 (+)= x0, o1 (+)= x1 on extended rows (prime ext_prime) */
static void row_unit(void *arg, unsigned phase, size_t k, int thread)
{
    (void)phase, (void)thread;
    const rows_job *j = arg;
    const ntt_ckks *c = j->c;
    const size_t n = c->n, b = k * n, e = b + n;
    /* R_PERM without a sum moves the raised digits' rows, more rows than
       primes: it reads no prime. */
    const size_t pk = j->op == R_ACC ? ext_prime(c, j->q, k) : k;
    const uint64_t p = j->op == R_PERM && !j->y0 ? 0 : c->pr[pk];
    switch (j->op) {
    case R_ADD:
        for (size_t x = b; x < e; x++) j->o0[x] = ntt_addmod(j->x0[x], j->y0[x], p);
        if (j->o1)
            for (size_t x = b; x < e; x++) j->o1[x] = j->y1 ? ntt_addmod(j->x1[x], j->y1[x], p) : j->x1[x];
        break;
    case R_MUL:
        for (size_t x = b; x < e; x++) {
            j->o0[x] = mulm(c, pk, j->x0[x], j->y0[x]);
            j->o1[x] = mulm(c, pk, j->x1[x], (j->y1 ? j->y1 : j->y0)[x]);
        }
        break;
    case R_TENSOR:
        for (size_t x = b; x < e; x++) {
            const uint64_t a0 = j->x0[x], a1 = j->x1[x], b0 = j->y0[x], b1 = j->y1[x];
            j->o0[x] = mulm(c, pk, a0, b0);
            j->o1[x] = ntt_addmod(mulm(c, pk, a0, b1), mulm(c, pk, a1, b0), p);
            j->o2[x] = mulm(c, pk, a1, b1);
        }
        break;
    case R_PERM:
        for (size_t x = 0; x < n; x++) {
            const uint64_t v = j->x0[b + c->perm[x]];
            j->o0[b + x] = j->y0 ? ntt_addmod(v, j->y0[b + x], p) : v;
        }
        break;
    default: /* R_ACC */
        for (size_t x = b; x < e; x++) {
            j->o0[x] = j->first ? j->x0[x] : ntt_addmod(j->o0[x], j->x0[x], p);
            j->o1[x] = j->first ? j->x1[x] : ntt_addmod(j->o1[x], j->x1[x], p);
        }
    }
}

/* The job over `rows` rows; one thread below about 2^16 words. */
static void rows_run(const ntt_ckks *c, size_t rows, const rows_job *j)
{
    ntt_pool *pool = rows > 1 && rows * c->n >= ((size_t)1 << 16) ? ntt_rns_pool(c->rns) : NULL;
    ntt_pool_for(pool, rows, row_unit, (void *)j);
}

/* SplitMix64: deterministic, not cryptographic (see the header). */
typedef struct { uint64_t s; } rng;
static inline uint64_t rng_next(rng *g)
{
    uint64_t z = (g->s += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}
/* Uniform in [0, p): the top bits of a word, rejected when >= p. */
static uint64_t rng_below(rng *g, uint64_t p, unsigned bits)
{
    for (;;) {
        uint64_t x = rng_next(g) >> (64 - bits);
        if (x < p) return x;
    }
}
static inline int64_t rng_cbd(rng *g)
{
    uint64_t x = rng_next(g);
    return (int64_t)__builtin_popcountll(x & 0x1fffff) -
           (int64_t)__builtin_popcountll((x >> 21) & 0x1fffff);
}

/* ---- checks ------------------------------------------------------------------ */

static size_t L(const ntt_ckks *c) { return c->nq - 1; }

static bool ct_ok(const ntt_ckks *c, const ntt_ckks_ct *a)
{
    return a && a->c0 && a->c1 && a->n == c->n && a->level <= L(c) && a->cap > a->level;
}

static ntt_status ct_fail(const ntt_ckks *c, const ntt_ckks_ct *a, const char *name)
{
    if (!a || !a->c0 || !a->c1) return ntt_fail(NTT_EINVAL, "%s: NULL ciphertext or component", name);
    if (a->n != c->n)
        return ntt_fail(NTT_EINVAL, "%s: n = %zu, the context's N = %zu (another context's buffer?)",
                        name, a->n, c->n);
    if (a->level > L(c))
        return ntt_fail(NTT_EINVAL, "%s: level %zu above the context's L = %zu", name, a->level, L(c));
    return ntt_fail(NTT_EINVAL, "%s: cap %zu limbs, level %zu needs %zu", name, a->cap, a->level,
                    a->level + 1);
}

/* Every word of limbs 0 .. limbs-1 below its prime. */
static ntt_status scan(const ntt_ckks *c, const uint64_t *x, size_t limbs, const char *name)
{
    for (size_t k = 0; k < limbs; k++) {
        const uint64_t *row = x + k * c->n;
        if (!ntt_any_geq_u64(row, c->n, c->pr[k])) continue; /* the vector check */
        size_t i = 0;
        while (row[i] < c->pr[k]) i++;
        return ntt_fail(NTT_ERANGE, "%s: limb %zu word %zu = %llu is not below %llu", name, k, i,
                        (unsigned long long)row[i], (unsigned long long)c->pr[k]);
    }
    return NTT_OK;
}

static ntt_status scan_ct(const ntt_ckks *c, const ntt_ckks_ct *a, size_t limbs, const char *name)
{
    ntt_status s = scan(c, a->c0, limbs, name);
    return s ? s : scan(c, a->c1, limbs, name);
}

static bool ov(const void *x, size_t xl, const void *y, size_t yl, size_t n)
{
    return ntt_overlaps(x, xl * n * 8, y, yl * n * 8);
}

/* The output (ol limbs written per component) against an input ciphertext
   (il limbs read): the same c0 and c1, or no overlap. */
static bool out_vs_ct(const ntt_ckks *c, const ntt_ckks_ct *o, size_t ol, const ntt_ckks_ct *a,
                      size_t il)
{
    if (o->c0 == a->c0 && o->c1 == a->c1) return true;
    return !ov(o->c0, ol, a->c0, il, c->n) && !ov(o->c0, ol, a->c1, il, c->n) &&
           !ov(o->c1, ol, a->c0, il, c->n) && !ov(o->c1, ol, a->c1, il, c->n);
}

static bool out_vs_buf(const ntt_ckks *c, const ntt_ckks_ct *o, size_t ol, const uint64_t *b,
                       size_t bl)
{
    return !ov(o->c0, ol, b, bl, c->n) && !ov(o->c1, ol, b, bl, c->n);
}

/* An output ciphertext that can take `level`. */
static ntt_status out_check(const ntt_ckks *c, const ntt_ckks_ct *o, size_t level)
{
    if (!o || !o->c0 || !o->c1) return ntt_fail(NTT_EINVAL, "out: NULL ciphertext or component");
    if (o->n != c->n)
        return ntt_fail(NTT_EINVAL, "out: n = %zu, the context's N = %zu", o->n, c->n);
    if (o->cap < level + 1)
        return ntt_fail(NTT_EINVAL, "out: cap %zu limbs, the result at level %zu needs %zu", o->cap,
                        level, level + 1);
    if (ov(o->c0, level + 1, o->c1, level + 1, c->n))
        return ntt_fail(NTT_EINVAL, "out: c0 and c1 overlap");
    return NTT_OK;
}

static ntt_status secret_check(const ntt_ckks *c, const int8_t *s)
{
    for (size_t i = 0; i < c->n; i++)
        if (s[i] < -1 || s[i] > 1)
            return ntt_fail(NTT_EINVAL, "secret: s[%zu] = %d is not in {-1, 0, 1}", i, s[i]);
    return NTT_OK;
}

static ntt_status galois_check(const ntt_ckks *c, uint64_t g)
{
    if (g % 2 == 0 || g >= 2 * c->n)
        return ntt_fail(NTT_EINVAL, "Galois element %llu is not odd and below 2N = %zu",
                        (unsigned long long)g, 2 * c->n);
    return NTT_OK;
}

static ntt_status key_check(const ntt_ckks *c, const uint64_t *key, size_t key_limbs)
{
    if (!key) return ntt_fail(NTT_EINVAL, "key: NULL");
    if (key_limbs != 2 * c->dnum * c->nl)
        return ntt_fail(NTT_EINVAL, "key_limbs = %zu, this context's keys have 2 dnum (L+1+K) = %zu",
                        key_limbs, 2 * c->dnum * c->nl);
    return NTT_OK;
}

/* Keys, plaintexts and encryption are made on the host, on a CPU context:
   on a CUDA one, make them with a CPU context of the same parameters (the
   same words) and copy them over. */
static ntt_status host_only(const ntt_ckks *c, const char *name)
{
    return c->dev ? ntt_fail(NTT_EUNSUPPORTED, "%s: host only (a CPU context of the same parameters "
                                               "gives the same words)", name)
                  : NTT_OK;
}

/* ---- context --------------------------------------------------------------- */

ntt_status ntt_ckks_create(ntt_ckks **ck, ntt_rns *rns)
{
    if (!ck) return ntt_fail(NTT_EINVAL, "ck: NULL");
    *ck = NULL;
    if (!rns) return ntt_fail(NTT_EINVAL, "rns: NULL");
    if (ntt_rns_p_count(rns) == 0)
        return ntt_fail(NTT_EINVAL, "the RNS context has no special primes (K = 0): no key switch");
    ntt_ckks *c = calloc(1, sizeof *c);
    if (!c) return ntt_fail(NTT_ENOMEM, "CKKS context");
    c->rns = rns;
    c->n = ntt_rns_n(rns);
    c->nq = ntt_rns_q_count(rns);
    c->np = ntt_rns_p_count(rns);
    c->nl = ntt_rns_primes(rns, &c->pr);
    c->dnum = ntt_rns_dnum(rns);
    while (((size_t)1 << c->logn) < c->n) c->logn++;
    const size_t n = c->n, big = c->dnum * c->nl * n;
    c->mu = malloc(c->nl * sizeof *c->mu);
    c->kb = malloc(c->nl * sizeof *c->kb);
    c->pmod = malloc(c->nq * sizeof *c->pmod);
    c->brv = malloc(n * sizeof *c->brv);
    c->perm = malloc(n * sizeof *c->perm);
    c->ei = malloc(n * sizeof *c->ei);
    c->ci = malloc(n * sizeof *c->ci);
    c->tmp = ntt_alloc_aligned(n * 8);
    bool ok = c->mu && c->kb && c->pmod && c->brv && c->perm && c->ei && c->ci && c->tmp;
    if (ok) {
        for (size_t k = 0; k < c->nl; k++) {
            unsigned b = 64 - (unsigned)__builtin_clzll(c->pr[k]);
            c->kb[k] = b;
            c->mu[k] = (uint64_t)(((ntt_u128)1 << (2 * b)) / c->pr[k]);
        }
    }
    c->dev = ntt_rns_backend(rns) == NTT_BACKEND_CUDA;
    if (ok && c->dev) {
#ifdef NTT_HAVE_CUDA
        ckks_prime *pm = malloc(c->nl * sizeof *pm);
        int e = pm ? 0 : 2;
        if (pm) {
            for (size_t k = 0; k < c->nl; k++) pm[k] = (ckks_prime){c->pr[k], c->mu[k], c->kb[k]};
            e = ntt_ckks_cu_init(&c->cu, pm, c->nl, n, big, c->nl * n, c->nq * n);
            free(pm);
        }
        if (e) {
            ntt_ckks_destroy(c);
            return ntt_fail(e == 2 ? NTT_ENOMEM : NTT_EBACKEND, "CKKS device workspace: CUDA error %d", e);
        }
        c->ext = c->cu.ext;
        c->extp = c->cu.extp;
        c->acc0 = c->cu.acc0;
        c->acc1 = c->cu.acc1;
        for (int i = 0; i < 4; i++) c->t[i] = c->cu.t[i];
#else
        ntt_ckks_destroy(c);
        return ntt_fail(NTT_EUNSUPPORTED, "a CUDA RNS context in a build without CUDA");
#endif
    } else if (ok) {
        c->ext = ntt_alloc_aligned(big * 8);
        c->extp = ntt_alloc_aligned(big * 8);
        c->acc0 = ntt_alloc_aligned(c->nl * n * 8);
        c->acc1 = ntt_alloc_aligned(c->nl * n * 8);
        c->sum0 = ntt_alloc_aligned(c->nl * n * 8);
        c->sum1 = ntt_alloc_aligned(c->nl * n * 8);
        ok = c->ext && c->extp && c->acc0 && c->acc1 && c->sum0 && c->sum1;
        for (int i = 0; i < 4; i++) ok = ok && (c->t[i] = ntt_alloc_aligned(c->nq * n * 8)) != NULL;
    }
    if (!ok) {
        ntt_ckks_destroy(c);
        return ntt_fail(NTT_ENOMEM, "CKKS workspace");
    }
    for (size_t i = 0; i < c->nq; i++) {
        uint64_t m = 1;
        for (size_t k = 0; k < c->np; k++) m = ntt_mulmod_slow(m, c->pr[c->nq + k] % c->pr[i], c->pr[i]);
        c->pmod[i] = m;
    }
    for (size_t k = 0; k < n; k++) {
        uint32_t r = 0;
        for (size_t b = 0; b < c->logn; b++) r |= (uint32_t)((k >> b) & 1) << (c->logn - 1 - b);
        c->brv[k] = r;
    }
    *ck = c;
    return NTT_OK;
}

void ntt_ckks_destroy(ntt_ckks *c)
{
    if (!c) return;
    free(c->mu);
    free(c->kb);
    free(c->pmod);
    free(c->brv);
    free(c->perm);
    free(c->ei);
    free(c->ci);
    free(c->tmp);
    if (c->dev) {
#ifdef NTT_HAVE_CUDA
        ntt_ckks_cu_free(&c->cu);
#endif
    } else {
        free(c->ext);
        free(c->extp);
        free(c->acc0);
        free(c->acc1);
        free(c->sum0);
        free(c->sum1);
        for (int i = 0; i < 4; i++) free(c->t[i]);
    }
    free(c);
}

ntt_rns *ntt_ckks_rns(const ntt_ckks *c) { return c ? c->rns : NULL; }
size_t ntt_ckks_key_limbs(const ntt_ckks *c) { return c ? 2 * c->dnum * c->nl : 0; }

uint64_t ntt_ckks_galois_rot(const ntt_ckks *c, long k)
{
    if (!c) return 0;
    const long half = (long)(c->n / 2); /* the order of 5 mod 2N (N >= 4) */
    long e = half ? ((k % half) + half) % half : 0;
    return ntt_powmod(5, (uint64_t)e, 2 * c->n);
}

uint64_t ntt_ckks_galois_conj(const ntt_ckks *c) { return c ? 2 * c->n - 1 : 0; }

/* ---- the automorphism -------------------------------------------------------- */

/* perm[k] = brv(((2 brv(k) + 1) g mod 2N - 1) / 2): slot k holds the value
   at psi^(2 brv(k) + 1), and a(X^g) there is a's value at that power
   times g. */
static void make_perm(ntt_ckks *c, uint64_t g)
{
    const uint64_t m = 2 * c->n - 1; /* mod 2N as a mask */
    for (size_t k = 0; k < c->n; k++) {
        uint64_t e = ((2 * (uint64_t)c->brv[k] + 1) * g) & m;
        c->perm[k] = c->brv[(e - 1) / 2];
    }
}

/* ---- secret, keys, encryption ---------------------------------------------- */

ntt_status ntt_ckks_secret_gen(ntt_ckks *c, uint64_t seed, int8_t *s, size_t n)
{
    if (!c || !s) return ntt_fail(NTT_EINVAL, "secret_gen: NULL pointer");
    if (n != c->n) return ntt_fail(NTT_EINVAL, "secret_gen: n = %zu, N = %zu", n, c->n);
    rng g = {seed};
    for (size_t i = 0; i < n; i++) s[i] = (int8_t)((int)(((ntt_u128)rng_next(&g) * 3) >> 64) - 1);
    return NTT_OK;
}

/* out (one limb, evaluation form) <- v mod prime of limb k, v given as int64
   coefficients. */
static ntt_status to_eval(ntt_ckks *c, size_t k, const int64_t *v, uint64_t *out)
{
    for (size_t i = 0; i < c->n; i++) out[i] = smod(v[i], c->pr[k]);
    return ntt_rns_forward(c->rns, c->n, &k, 1, out);
}

static ntt_status secret_eval(ntt_ckks *c, const int8_t *s, size_t k, uint64_t *out)
{
    for (size_t i = 0; i < c->n; i++) out[i] = s[i] < 0 ? c->pr[k] - 1 : (uint64_t)s[i];
    return ntt_rns_forward(c->rns, c->n, &k, 1, out);
}

/* The key from s' (in evaluation form on every limb, acc1) to s (acc0). */
static ntt_status keygen(ntt_ckks *c, uint64_t seed, uint64_t *key)
{
    const size_t n = c->n, nl = c->nl;
    rng g = {seed};
    /* dnum digits in the layout, beta(L) = ceil((L+1)/alpha) of them used
       (fewer when alpha (dnum - 1) >= L+1): the rest are zeros. */
    const size_t beta = ntt_rns_digits(c->rns, L(c));
    memset(key + 2 * beta * nl * n, 0, 2 * (c->dnum - beta) * nl * n * 8);
    for (size_t j = 0; j < beta; j++) {
        size_t first, count;
        ntt_status s = ntt_rns_digit_range(c->rns, L(c), j, &first, &count);
        if (s) return s;
        for (size_t i = 0; i < n; i++) c->ei[i] = rng_cbd(&g);
        for (size_t k = 0; k < nl; k++) {
            const uint64_t p = c->pr[k];
            const unsigned bits = c->kb[k];
            uint64_t *b = key + ((2 * j) * nl + k) * n, *a = key + ((2 * j + 1) * nl + k) * n;
            for (size_t i = 0; i < n; i++) a[i] = rng_below(&g, p, bits);
            if ((s = to_eval(c, k, c->ei, c->tmp))) return s;
            const uint64_t *sk = c->acc0 + k * n, *sp = c->acc1 + k * n;
            const bool own = k >= first && k < first + count; /* k <= L here */
            for (size_t i = 0; i < n; i++) {
                uint64_t v = ntt_submod(c->tmp[i], mulm(c, k, a[i], sk[i]), p);
                if (own) v = ntt_addmod(v, mulm(c, k, c->pmod[k], sp[i]), p);
                b[i] = v;
            }
        }
    }
    return NTT_OK;
}

static ntt_status keygen_args(ntt_ckks *c, const int8_t *s, size_t n, uint64_t *key,
                              size_t key_limbs)
{
    if (!c || !s || !key) return ntt_fail(NTT_EINVAL, "keygen: NULL pointer");
    if (n != c->n) return ntt_fail(NTT_EINVAL, "keygen: n = %zu, N = %zu", n, c->n);
    ntt_status st = key_check(c, key, key_limbs);
    return st ? st : secret_check(c, s);
}

ntt_status ntt_ckks_keygen_relin(ntt_ckks *c, const int8_t *s, size_t n, uint64_t seed,
                                 uint64_t *key, size_t key_limbs)
{
    ntt_status st = keygen_args(c, s, n, key, key_limbs);
    if (st || (st = host_only(c, "keygen_relin"))) return st;
    for (size_t k = 0; k < c->nl; k++) {
        uint64_t *sk = c->acc0 + k * n, *sp = c->acc1 + k * n;
        if ((st = secret_eval(c, s, k, sk))) return st;
        for (size_t i = 0; i < n; i++) sp[i] = mulm(c, k, sk[i], sk[i]);
    }
    return keygen(c, seed, key);
}

ntt_status ntt_ckks_keygen_galois(ntt_ckks *c, const int8_t *s, size_t n, uint64_t g,
                                  uint64_t seed, uint64_t *key, size_t key_limbs)
{
    ntt_status st = keygen_args(c, s, n, key, key_limbs);
    if (st || (st = galois_check(c, g)) || (st = host_only(c, "keygen_galois"))) return st;
    /* s(X^g) in coefficient form: X^i -> (-1)^floor(i g / N) X^(i g mod N). */
    for (size_t i = 0; i < n; i++) {
        uint64_t e = ((uint64_t)i * g) % (2 * n);
        c->ci[e % n] = e < n ? s[i] : -s[i];
    }
    for (size_t k = 0; k < c->nl; k++) {
        if ((st = secret_eval(c, s, k, c->acc0 + k * n))) return st;
        if ((st = to_eval(c, k, c->ci, c->acc1 + k * n))) return st;
    }
    return keygen(c, seed, key);
}

static ntt_status plain_limb(ntt_ckks *c, const int64_t *m, uint64_t delta, size_t k,
                             uint64_t *out)
{
    const uint64_t p = c->pr[k], d = delta % p;
    for (size_t i = 0; i < c->n; i++) out[i] = mulm(c, k, smod(m[i], p), d);
    return ntt_rns_forward(c->rns, c->n, &k, 1, out);
}

ntt_status ntt_ckks_plain(ntt_ckks *c, size_t n, const int64_t *m, uint64_t delta, size_t level,
                          uint64_t *pt, size_t pt_limbs)
{
    if (!c || !m || !pt) return ntt_fail(NTT_EINVAL, "plain: NULL pointer");
    if (n != c->n) return ntt_fail(NTT_EINVAL, "plain: n = %zu, N = %zu", n, c->n);
    if (level > L(c))
        return ntt_fail(NTT_EINVAL, "plain: level %zu above the context's L = %zu", level, L(c));
    if (pt_limbs != level + 1)
        return ntt_fail(NTT_EINVAL, "plain: pt_limbs = %zu, level %zu needs %zu", pt_limbs, level,
                        level + 1);
    ntt_status st = host_only(c, "plain");
    if (st) return st;
    for (size_t k = 0; k <= level; k++) {
        ntt_status s = plain_limb(c, m, delta, k, pt + k * n);
        if (s) return s;
    }
    return NTT_OK;
}

ntt_status ntt_ckks_encrypt(ntt_ckks *c, const int8_t *s, size_t n, const int64_t *m,
                            uint64_t delta, size_t level, uint64_t seed, ntt_ckks_ct *out)
{
    if (!c || !s || !m || !out) return ntt_fail(NTT_EINVAL, "encrypt: NULL pointer");
    if (n != c->n) return ntt_fail(NTT_EINVAL, "encrypt: n = %zu, N = %zu", n, c->n);
    if (level > L(c))
        return ntt_fail(NTT_EINVAL, "encrypt: level %zu above the context's L = %zu", level, L(c));
    ntt_status st = out_check(c, out, level);
    if (st || (st = secret_check(c, s)) || (st = host_only(c, "encrypt"))) return st;
    rng g = {seed};
    for (size_t i = 0; i < n; i++) c->ei[i] = rng_cbd(&g);
    for (size_t k = 0; k <= level; k++) {
        const uint64_t p = c->pr[k];
        uint64_t *c0 = out->c0 + k * n, *c1 = out->c1 + k * n;
        for (size_t i = 0; i < n; i++) c1[i] = rng_below(&g, p, c->kb[k]);
        if ((st = plain_limb(c, m, delta, k, c0))) return st;
        if ((st = to_eval(c, k, c->ei, c->tmp))) return st;
        if ((st = secret_eval(c, s, k, c->acc0))) return st;
        for (size_t i = 0; i < n; i++)
            c0[i] = ntt_submod(ntt_addmod(c0[i], c->tmp[i], p), mulm(c, k, c1[i], c->acc0[i]), p);
    }
    out->level = level;
    return NTT_OK;
}

ntt_status ntt_ckks_decrypt(ntt_ckks *c, const int8_t *s, size_t n, const ntt_ckks_ct *in,
                            uint64_t *out, size_t out_limbs)
{
    if (!c || !s || !out) return ntt_fail(NTT_EINVAL, "decrypt: NULL pointer");
    if (n != c->n) return ntt_fail(NTT_EINVAL, "decrypt: n = %zu, N = %zu", n, c->n);
    if (!ct_ok(c, in)) return ct_fail(c, in, "decrypt: in");
    const size_t q = in->level + 1;
    if (out_limbs != q)
        return ntt_fail(NTT_EINVAL, "decrypt: out_limbs = %zu, level %zu needs %zu", out_limbs,
                        in->level, q);
    if (ov(out, q, in->c0, q, n) || ov(out, q, in->c1, q, n))
        return ntt_fail(NTT_EINVAL, "decrypt: out overlaps the ciphertext");
    ntt_status st = secret_check(c, s);
    if (st || (st = host_only(c, "decrypt")) || (st = scan_ct(c, in, q, "decrypt: in"))) return st;
    for (size_t k = 0; k < q; k++) {
        const uint64_t p = c->pr[k];
        uint64_t *o = out + k * n;
        if ((st = secret_eval(c, s, k, c->tmp))) return st;
        for (size_t i = 0; i < n; i++)
            o[i] = ntt_addmod(in->c0[k * n + i], mulm(c, k, in->c1[k * n + i], c->tmp[i]), p);
        if ((st = ntt_rns_inverse(c->rns, n, &k, 1, o))) return st;
    }
    return NTT_OK;
}

ntt_status ntt_ckks_decode_small(const ntt_ckks *c, size_t n, const uint64_t *m, size_t limbs,
                                 int64_t *v)
{
    if (!c || !m || !v) return ntt_fail(NTT_EINVAL, "decode_small: NULL pointer");
    if (n != c->n) return ntt_fail(NTT_EINVAL, "decode_small: n = %zu, N = %zu", n, c->n);
    if (limbs == 0 || limbs > c->nq)
        return ntt_fail(NTT_EINVAL, "decode_small: %zu limbs, Q has 1 .. %zu", limbs, c->nq);
    const uint64_t q0 = c->pr[0];
    for (size_t i = 0; i < n; i++) {
        const uint64_t x = m[i];
        if (x >= q0) return ntt_fail(NTT_ERANGE, "decode_small: m[%zu] not below q_0", i);
        v[i] = x > q0 / 2 ? -(int64_t)(q0 - x) : (int64_t)x;
        for (size_t k = 1; k < limbs; k++)
            if (smod(v[i], c->pr[k]) != m[k * n + i])
                return ntt_fail(NTT_ERANGE,
                                "decode_small: coefficient %zu is not below q_0/2 (limb %zu disagrees)",
                                i, k);
    }
    return NTT_OK;
}

/* ---- the operations ------------------------------------------------------------ */

static size_t minz(size_t a, size_t b) { return a < b ? a : b; }

/* The host forms run on CPU contexts, the device forms on CUDA ones; the
   arguments are checked first, so that bad ones give NTT_EINVAL on any. */
static ntt_status kind_check(const ntt_ckks *c, bool dev, const char *name)
{
    if (c->dev == dev) return NTT_OK;
    return ntt_fail(NTT_EUNSUPPORTED,
                    dev ? "%s: a device-pointer call on a CPU context"
                        : "%s: a host-pointer call on a CUDA context (use ntt_ckks_cuda_*)",
                    name);
}

#ifdef NTT_HAVE_CUDA
static ntt_status cu(ntt_ckks *c, int e)
{
    if (!e) return NTT_OK;
    c->cu.last_error = e;
    return ntt_fail(e == 2 /* cudaErrorMemoryAllocation */ ? NTT_ENOMEM : NTT_EBACKEND,
                    "CKKS: CUDA error %d", e);
}
#define CU(x) cu(c, (x))
#endif

/* Binary operations' checks: both inputs, the output at `lo` (the
   result's level) against both, then (host) the inputs' scans. */
static ntt_status bin_args(ntt_ckks *c, const ntt_ckks_ct *a, const ntt_ckks_ct *b,
                           ntt_ckks_ct *out, size_t lo, bool dev, const char *name)
{
    if (!ct_ok(c, a)) return ct_fail(c, a, name);
    if (!ct_ok(c, b)) return ct_fail(c, b, name);
    ntt_status s = out_check(c, out, lo);
    if (s) return s;
    const size_t l = minz(a->level, b->level) + 1;
    if (!out_vs_ct(c, out, lo + 1, a, l) || !out_vs_ct(c, out, lo + 1, b, l))
        return ntt_fail(NTT_EINVAL, "%s: out overlaps an input other than exactly", name);
    if ((s = kind_check(c, dev, name)) || dev) return s;
    if ((s = scan_ct(c, a, l, name))) return s;
    return scan_ct(c, b, l, name);
}

static ntt_status add_impl(ntt_ckks *c, const ntt_ckks_ct *a, const ntt_ckks_ct *b,
                           ntt_ckks_ct *out, void *stream, bool dev)
{
    if (!c) return ntt_fail(NTT_EINVAL, "add: NULL context");
    const size_t lo = a && b ? minz(a->level, b->level) : 0;
    ntt_status s = bin_args(c, a, b, out, lo, dev, "add");
    if (s) return s;
    const size_t n = c->n;
#ifdef NTT_HAVE_CUDA
    if (dev) {
        if ((s = CU(ntt_ckks_cu_addmul(&c->cu, n, lo + 1, 0, a->c0, a->c1, b->c0, b->c1, out->c0,
                                       out->c1, stream))))
            return s;
        out->level = lo;
        return NTT_OK;
    }
#endif
    (void)stream, (void)n;
    const rows_job j = {c, R_ADD, 0, false, a->c0, a->c1, b->c0, b->c1, out->c0, out->c1, NULL};
    rows_run(c, lo + 1, &j);
    out->level = lo;
    return NTT_OK;
}

static ntt_status plain_args(ntt_ckks *c, const ntt_ckks_ct *a, const uint64_t *pt,
                             size_t pt_limbs, ntt_ckks_ct *out, bool dev, const char *name)
{
    if (!c) return ntt_fail(NTT_EINVAL, "%s: NULL context", name);
    if (!ct_ok(c, a)) return ct_fail(c, a, name);
    if (!pt) return ntt_fail(NTT_EINVAL, "%s: NULL plaintext", name);
    const size_t l = a->level + 1;
    if (pt_limbs < l || pt_limbs > c->nq)
        return ntt_fail(NTT_EINVAL, "%s: plaintext of %zu limbs, the ciphertext at level %zu needs %zu .. %zu",
                        name, pt_limbs, a->level, l, c->nq);
    ntt_status s = out_check(c, out, a->level);
    if (s) return s;
    if (!out_vs_ct(c, out, l, a, l) || !out_vs_buf(c, out, l, pt, l))
        return ntt_fail(NTT_EINVAL, "%s: out overlaps an input other than exactly", name);
    if ((s = kind_check(c, dev, name)) || dev) return s;
    if ((s = scan_ct(c, a, l, name))) return s;
    return scan(c, pt, l, name);
}

static ntt_status plain_impl(ntt_ckks *c, const ntt_ckks_ct *a, const uint64_t *pt,
                             size_t pt_limbs, ntt_ckks_ct *out, bool mul, void *stream, bool dev)
{
    ntt_status s = plain_args(c, a, pt, pt_limbs, out, dev, mul ? "mul_plain" : "add_plain");
    if (s) return s;
    const size_t n = c->n, l = a->level;
#ifdef NTT_HAVE_CUDA
    if (dev) {
        if ((s = CU(ntt_ckks_cu_addmul(&c->cu, n, l + 1, mul, a->c0, a->c1, pt, NULL, out->c0,
                                       out->c1, stream))))
            return s;
        out->level = l;
        return NTT_OK;
    }
#endif
    (void)stream, (void)n;
    const rows_job j = {c, mul ? R_MUL : R_ADD, 0, false, a->c0, a->c1, pt, NULL, out->c0, out->c1,
                        NULL};
    rows_run(c, l + 1, &j);
    out->level = l;
    return NTT_OK;
}

/* out_limbs rows of ntt_rns_rescale at level l, host or device. */
static ntt_status rescale_poly(ntt_ckks *c, size_t l, const uint64_t *in, uint64_t *out,
                               void *stream, bool dev)
{
    if (dev) return ntt_rns_cuda_rescale(c->rns, c->n, l, in, l + 1, out, l, stream);
    return ntt_rns_rescale(c->rns, c->n, l, in, l + 1, out, l);
}

static ntt_status copy_words(ntt_ckks *c, uint64_t *dst, const uint64_t *src, size_t words,
                             void *stream, bool dev)
{
#ifdef NTT_HAVE_CUDA
    if (dev) return CU(ntt_ckks_cu_copy(dst, src, words, stream));
#endif
    (void)c, (void)stream, (void)dev;
    memcpy(dst, src, words * 8);
    return NTT_OK;
}

static ntt_status rescale_impl(ntt_ckks *c, const ntt_ckks_ct *a, ntt_ckks_ct *out, void *stream,
                               bool dev)
{
    if (!c) return ntt_fail(NTT_EINVAL, "rescale: NULL context");
    if (!ct_ok(c, a)) return ct_fail(c, a, "rescale");
    if (a->level == 0) return ntt_fail(NTT_EINVAL, "rescale: the ciphertext is at level 0");
    const size_t l = a->level;
    ntt_status s = out_check(c, out, l - 1);
    if (s) return s;
    if (!out_vs_ct(c, out, l, a, l + 1))
        return ntt_fail(NTT_EINVAL, "rescale: out overlaps the input other than exactly");
    if ((s = kind_check(c, dev, "rescale"))) return s;
    /* No scan of a here: each ntt_rns_rescale checks its input before it
       writes, and c1 goes first into the workspace, so that a failed call
       leaves out (which may be a exactly) as it was. */
    if (dev) {
        /* The device calls check nothing that the input could fail: each
           polynomial straight to its output (in place when out is a). */
        if ((s = rescale_poly(c, l, a->c1, out->c1, stream, dev)) ||
            (s = rescale_poly(c, l, a->c0, out->c0, stream, dev)))
            return s;
    } else if ((s = rescale_poly(c, l, a->c1, c->t[0], stream, dev)) ||
               (s = rescale_poly(c, l, a->c0, out->c0, stream, dev)) ||
               (s = copy_words(c, out->c1, c->t[0], l * c->n, stream, dev))) {
        return s;
    }
    out->level = l - 1;
    return NTT_OK;
}

static ntt_status mul_impl(ntt_ckks *c, const ntt_ckks_ct *a, const ntt_ckks_ct *b,
                           const uint64_t *rlk, size_t key_limbs, int rescale, ntt_ckks_ct *out,
                           void *stream, bool dev)
{
    if (!c) return ntt_fail(NTT_EINVAL, "mul: NULL context");
    if (!ct_ok(c, a)) return ct_fail(c, a, "mul");
    if (!ct_ok(c, b)) return ct_fail(c, b, "mul");
    const size_t l = minz(a->level, b->level), n = c->n, q = l + 1;
    if (rescale && l == 0) return ntt_fail(NTT_EINVAL, "mul: rescale asked at level 0");
    const size_t lo = rescale ? l - 1 : l;
    ntt_status s = key_check(c, rlk, key_limbs);
    if (s || (s = out_check(c, out, lo))) return s;
    if (!out_vs_buf(c, out, lo + 1, rlk, key_limbs))
        return ntt_fail(NTT_EINVAL, "mul: out overlaps the key");
    if ((s = bin_args(c, a, b, out, lo, dev, "mul"))) return s;
    /* The sums go straight to out without a rescale: the tensor product
       has read a and b by then, so out may be either. */
    uint64_t *d0 = c->t[0], *d1 = c->t[1], *d2 = c->t[2];
    uint64_t *s0 = rescale ? d0 : out->c0, *s1 = rescale ? d1 : out->c1;
#ifdef NTT_HAVE_CUDA
    if (dev) {
        if ((s = CU(ntt_ckks_cu_tensor(&c->cu, n, q, a->c0, a->c1, b->c0, b->c1, d0, d1, d2,
                                       stream))) ||
            (s = ntt_rns_cuda_keyswitch(c->rns, n, l, d2, q, rlk, key_limbs, c->acc0, c->acc1, q,
                                        stream)) ||
            (s = CU(ntt_ckks_cu_addmul(&c->cu, n, q, 0, d0, d1, c->acc0, c->acc1, s0, s1,
                                       stream))))
            return s;
    } else
#endif
    {
        const rows_job t = {c, R_TENSOR, 0, false, a->c0, a->c1, b->c0, b->c1, d0, d1, d2};
        rows_run(c, q, &t);
        if ((s = ntt_rns_keyswitch(c->rns, n, l, d2, q, rlk, key_limbs, c->acc0, c->acc1, q)))
            return s;
        const rows_job u = {c, R_ADD, 0, false, d0, d1, c->acc0, c->acc1, s0, s1, NULL};
        rows_run(c, q, &u);
    }
    if (rescale && ((s = rescale_poly(c, l, d0, out->c0, stream, dev)) ||
                    (s = rescale_poly(c, l, d1, out->c1, stream, dev))))
        return s;
    out->level = lo;
    return NTT_OK;
}

/* out = perm_g(in) (+ acc, row r modulo prime r, when acc is set), rows rows. */
static ntt_status perm_rows(ntt_ckks *c, uint64_t g, size_t rows, const uint64_t *in,
                            const uint64_t *acc, uint64_t *out, void *stream, bool dev)
{
#ifdef NTT_HAVE_CUDA
    if (dev) return CU(ntt_ckks_cu_perm(&c->cu, c->n, (unsigned)c->logn, g, rows, in, acc, out, stream));
#endif
    (void)stream, (void)dev;
    make_perm(c, g);
    const rows_job j = {c, R_PERM, 0, false, in, NULL, acc, NULL, out, NULL, NULL};
    rows_run(c, rows, &j);
    return NTT_OK;
}

/* The rotations' host form on the RNS context's public calls: each raised
   digit permuted, the inner product, then modDown per rotation, or (sum)
   the extended sums added up and modDowned once. */
static ntt_status hoisted_host(ntt_ckks *c, const ntt_ckks_ct *a, const uint64_t *g, size_t r,
                               const uint64_t *const *keys, size_t key_limbs, ntt_ckks_ct *out,
                               bool sum)
{
    const size_t l = a->level, n = c->n, q = l + 1, e = q + c->np;
    const size_t beta = ntt_rns_digits(c->rns, l);
    ntt_status s;
    /* c0 only: c1 goes first to the modUps, which check it before they
       write (and they write only the workspace). */
    if ((s = scan(c, a->c0, q, "rotate: c0"))) return s;
    for (size_t j = 0; j < beta; j++) {
        size_t first, count;
        if ((s = ntt_rns_digit_range(c->rns, l, j, &first, &count)) ||
            (s = ntt_rns_modup(c->rns, n, l, j, a->c1 + first * n, count, c->ext + j * e * n, e)))
            return s;
    }
    uint64_t *c0 = c->t[3], *csum = c->t[2];
    memcpy(c0, a->c0, q * n * 8); /* an output may be a */
    for (size_t i = 0; i < r; i++) {
        if ((s = perm_rows(c, g[i], beta * e, c->ext, NULL, c->extp, NULL, false)) ||
            (s = ntt_rns_ks_inner(c->rns, n, l, c->extp, beta * e, keys[i], key_limbs, c->acc0,
                                  c->acc1, e)))
            return s;
        if (sum) {
            (void)perm_rows(c, g[i], q, c0, i ? csum : NULL, csum, NULL, false);
            const rows_job j = {c, R_ACC, q, i == 0, c->acc0, c->acc1, NULL, NULL, c->sum0, c->sum1,
                                NULL};
            rows_run(c, e, &j);
            continue;
        }
        if ((s = ntt_rns_moddown(c->rns, n, l, c->acc0, e, c->acc0, q)) ||
            (s = ntt_rns_moddown(c->rns, n, l, c->acc1, e, c->acc1, q)))
            return s;
        (void)perm_rows(c, g[i], q, c0, c->acc0, out[i].c0, NULL, false);
        memcpy(out[i].c1, c->acc1, q * n * 8);
        out[i].level = l;
    }
    if (sum) {
        if ((s = ntt_rns_moddown(c->rns, n, l, c->sum0, e, c->sum0, q)) ||
            (s = ntt_rns_moddown(c->rns, n, l, c->sum1, e, c->sum1, q)))
            return s;
        const rows_job j = {c, R_ADD, 0, false, csum, NULL, c->sum0, NULL, out->c0, NULL, NULL};
        rows_run(c, q, &j);
        memcpy(out->c1, c->sum1, q * n * 8);
        out->level = l;
    }
    return NTT_OK;
}

#ifdef NTT_HAVE_CUDA
/* The device form on the key switch's three phases (ntt_internal.h): one
   raise; each rotation's inner product reads the raised digits through
   its permutation (no permuted copy), its sums go straight to the
   output's rows (or accumulate there, sum) and are modDowned in place;
   then c0's permutation is added.  c0 is copied first only when an
   output is a. */
static ntt_status hoisted_dev(ntt_ckks *c, const ntt_ckks_ct *a, const uint64_t *g, size_t r,
                              const uint64_t *const *keys, ntt_ckks_ct *out, void *stream,
                              bool sum)
{
    const size_t l = a->level, n = c->n, q = l + 1, nout = sum ? 1 : r;
    ntt_status s;
    bool alias = false;
    for (size_t i = 0; i < nout; i++) alias |= out[i].c0 == a->c0;
    const uint64_t *c0 = a->c0;
    if (alias) {
        if ((s = copy_words(c, c->t[3], a->c0, q * n, stream, true))) return s;
        c0 = c->t[3];
    }
    if ((s = ntt_rns_cuda_ks_raise(c->rns, l, a->c1, c->ext, stream))) return s;
    for (size_t i = 0; i < r; i++) {
        ntt_ckks_ct *o = &out[sum ? 0 : i];
        if ((s = ntt_rns_cuda_ks_inner_perm(c->rns, l, c->ext, keys[i], g[i], sum && i > 0, o->c0,
                                            o->c1, stream)))
            return s;
        if (sum) {
            if ((s = perm_rows(c, g[i], q, c0, i ? c->t[2] : NULL, c->t[2], stream, true))) return s;
            if (i + 1 < r) continue;
        }
        if ((s = ntt_rns_cuda_ks_moddown_pp(c->rns, l, o->c0, o->c1, stream))) return s;
        s = sum ? CU(ntt_ckks_cu_addmul(&c->cu, n, q, 0, o->c0, NULL, c->t[2], NULL, o->c0, NULL,
                                        stream))
                : perm_rows(c, g[i], q, c0, o->c0, o->c0, stream, true);
        if (s) return s;
        o->level = l;
    }
    return NTT_OK;
}
#endif

static ntt_status hoisted_impl(ntt_ckks *c, const ntt_ckks_ct *a, const uint64_t *g, size_t r,
                               const uint64_t *const *keys, size_t key_limbs, ntt_ckks_ct *out,
                               void *stream, bool dev, bool sum)
{
    if (!c) return ntt_fail(NTT_EINVAL, "rotate: NULL context");
    if (!ct_ok(c, a)) return ct_fail(c, a, "rotate");
    if (!g || !keys || !out || r == 0)
        return ntt_fail(NTT_EINVAL, "rotate: NULL Galois elements, keys or outputs, or r = 0");
    const size_t l = a->level, n = c->n, q = l + 1, nout = sum ? 1 : r;
    ntt_status s;
    for (size_t i = 0; i < r; i++)
        if ((s = galois_check(c, g[i])) || (s = key_check(c, keys[i], key_limbs))) return s;
    for (size_t i = 0; i < nout; i++) {
        if ((s = out_check(c, &out[i], l))) return s;
        if (!out_vs_ct(c, &out[i], q, a, q))
            return ntt_fail(NTT_EINVAL, "rotate: output %zu overlaps an input other than exactly", i);
        for (size_t k = 0; k < r; k++)
            if (!out_vs_buf(c, &out[i], q, keys[k], key_limbs))
                return ntt_fail(NTT_EINVAL, "rotate: output %zu overlaps key %zu", i, k);
        for (size_t j = 0; j < i; j++)
            if (ov(out[i].c0, q, out[j].c0, q, n) || ov(out[i].c0, q, out[j].c1, q, n) ||
                ov(out[i].c1, q, out[j].c0, q, n) || ov(out[i].c1, q, out[j].c1, q, n))
                return ntt_fail(NTT_EINVAL, "rotate: outputs %zu and %zu overlap", j, i);
    }
    if ((s = kind_check(c, dev, "rotate"))) return s;
#ifdef NTT_HAVE_CUDA
    if (dev) return hoisted_dev(c, a, g, r, keys, out, stream, sum);
#endif
    (void)stream;
    return hoisted_host(c, a, g, r, keys, key_limbs, out, sum);
}

static ntt_status automorphism_impl(ntt_ckks *c, size_t n, uint64_t g, const uint64_t *in,
                                    size_t limbs, uint64_t *out, void *stream, bool dev)
{
    if (!c || !in || !out) return ntt_fail(NTT_EINVAL, "automorphism: NULL pointer");
    if (n != c->n) return ntt_fail(NTT_EINVAL, "automorphism: n = %zu, N = %zu", n, c->n);
    if (limbs == 0 || limbs > c->nl)
        return ntt_fail(NTT_EINVAL, "automorphism: %zu limbs, the context has 1 .. %zu", limbs, c->nl);
    ntt_status s = galois_check(c, g);
    if (s) return s;
    if (ov(in, limbs, out, limbs, n)) return ntt_fail(NTT_EINVAL, "automorphism: out overlaps in");
    if ((s = kind_check(c, dev, "automorphism"))) return s;
    return perm_rows(c, g, limbs, in, NULL, out, stream, dev);
}

/* ---- the public calls: host forms, then device forms ------------------------------ */

ntt_status ntt_ckks_automorphism(ntt_ckks *c, size_t n, uint64_t g, const uint64_t *in,
                                 size_t limbs, uint64_t *out)
{
    return automorphism_impl(c, n, g, in, limbs, out, NULL, false);
}
ntt_status ntt_ckks_add(ntt_ckks *c, const ntt_ckks_ct *a, const ntt_ckks_ct *b, ntt_ckks_ct *out)
{
    return add_impl(c, a, b, out, NULL, false);
}
ntt_status ntt_ckks_add_plain(ntt_ckks *c, const ntt_ckks_ct *a, const uint64_t *pt,
                              size_t pt_limbs, ntt_ckks_ct *out)
{
    return plain_impl(c, a, pt, pt_limbs, out, false, NULL, false);
}
ntt_status ntt_ckks_mul_plain(ntt_ckks *c, const ntt_ckks_ct *a, const uint64_t *pt,
                              size_t pt_limbs, ntt_ckks_ct *out)
{
    return plain_impl(c, a, pt, pt_limbs, out, true, NULL, false);
}
ntt_status ntt_ckks_rescale(ntt_ckks *c, const ntt_ckks_ct *a, ntt_ckks_ct *out)
{
    return rescale_impl(c, a, out, NULL, false);
}
ntt_status ntt_ckks_mul(ntt_ckks *c, const ntt_ckks_ct *a, const ntt_ckks_ct *b,
                        const uint64_t *rlk, size_t key_limbs, int rescale, ntt_ckks_ct *out)
{
    return mul_impl(c, a, b, rlk, key_limbs, rescale, out, NULL, false);
}
ntt_status ntt_ckks_rotate_hoisted(ntt_ckks *c, const ntt_ckks_ct *a, const uint64_t *g, size_t r,
                                   const uint64_t *const *keys, size_t key_limbs, ntt_ckks_ct *out)
{
    return hoisted_impl(c, a, g, r, keys, key_limbs, out, NULL, false, false);
}
ntt_status ntt_ckks_rotate(ntt_ckks *c, const ntt_ckks_ct *a, long k, const uint64_t *key,
                           size_t key_limbs, ntt_ckks_ct *out)
{
    if (!c) return ntt_fail(NTT_EINVAL, "rotate: NULL context");
    const uint64_t g = ntt_ckks_galois_rot(c, k);
    return hoisted_impl(c, a, &g, 1, &key, key_limbs, out, NULL, false, false);
}
ntt_status ntt_ckks_conjugate(ntt_ckks *c, const ntt_ckks_ct *a, const uint64_t *key,
                              size_t key_limbs, ntt_ckks_ct *out)
{
    if (!c) return ntt_fail(NTT_EINVAL, "conjugate: NULL context");
    const uint64_t g = ntt_ckks_galois_conj(c);
    return hoisted_impl(c, a, &g, 1, &key, key_limbs, out, NULL, false, false);
}

ntt_status ntt_ckks_rotate_sum(ntt_ckks *c, const ntt_ckks_ct *a, const uint64_t *g, size_t r,
                               const uint64_t *const *keys, size_t key_limbs, ntt_ckks_ct *out)
{
    return hoisted_impl(c, a, g, r, keys, key_limbs, out, NULL, false, true);
}

ntt_status ntt_ckks_cuda_automorphism(ntt_ckks *c, size_t n, uint64_t g, const uint64_t *d_in,
                                      size_t limbs, uint64_t *d_out, ntt_cuda_stream stream)
{
    return automorphism_impl(c, n, g, d_in, limbs, d_out, stream, true);
}
ntt_status ntt_ckks_cuda_add(ntt_ckks *c, const ntt_ckks_ct *a, const ntt_ckks_ct *b,
                             ntt_ckks_ct *out, ntt_cuda_stream stream)
{
    return add_impl(c, a, b, out, stream, true);
}
ntt_status ntt_ckks_cuda_add_plain(ntt_ckks *c, const ntt_ckks_ct *a, const uint64_t *d_pt,
                                   size_t pt_limbs, ntt_ckks_ct *out, ntt_cuda_stream stream)
{
    return plain_impl(c, a, d_pt, pt_limbs, out, false, stream, true);
}
ntt_status ntt_ckks_cuda_mul_plain(ntt_ckks *c, const ntt_ckks_ct *a, const uint64_t *d_pt,
                                   size_t pt_limbs, ntt_ckks_ct *out, ntt_cuda_stream stream)
{
    return plain_impl(c, a, d_pt, pt_limbs, out, true, stream, true);
}
ntt_status ntt_ckks_cuda_rescale(ntt_ckks *c, const ntt_ckks_ct *a, ntt_ckks_ct *out,
                                 ntt_cuda_stream stream)
{
    return rescale_impl(c, a, out, stream, true);
}
ntt_status ntt_ckks_cuda_mul(ntt_ckks *c, const ntt_ckks_ct *a, const ntt_ckks_ct *b,
                             const uint64_t *d_rlk, size_t key_limbs, int rescale,
                             ntt_ckks_ct *out, ntt_cuda_stream stream)
{
    return mul_impl(c, a, b, d_rlk, key_limbs, rescale, out, stream, true);
}
ntt_status ntt_ckks_cuda_rotate_hoisted(ntt_ckks *c, const ntt_ckks_ct *a, const uint64_t *g,
                                        size_t r, const uint64_t *const *d_keys, size_t key_limbs,
                                        ntt_ckks_ct *out, ntt_cuda_stream stream)
{
    return hoisted_impl(c, a, g, r, d_keys, key_limbs, out, stream, true, false);
}
ntt_status ntt_ckks_cuda_rotate(ntt_ckks *c, const ntt_ckks_ct *a, long k, const uint64_t *d_key,
                                size_t key_limbs, ntt_ckks_ct *out, ntt_cuda_stream stream)
{
    if (!c) return ntt_fail(NTT_EINVAL, "rotate: NULL context");
    const uint64_t g = ntt_ckks_galois_rot(c, k);
    return hoisted_impl(c, a, &g, 1, &d_key, key_limbs, out, stream, true, false);
}
ntt_status ntt_ckks_cuda_conjugate(ntt_ckks *c, const ntt_ckks_ct *a, const uint64_t *d_key,
                                   size_t key_limbs, ntt_ckks_ct *out, ntt_cuda_stream stream)
{
    if (!c) return ntt_fail(NTT_EINVAL, "conjugate: NULL context");
    const uint64_t g = ntt_ckks_galois_conj(c);
    return hoisted_impl(c, a, &g, 1, &d_key, key_limbs, out, stream, true, false);
}

int ntt_ckks_cuda_last_error(const ntt_ckks *c)
{
#ifdef NTT_HAVE_CUDA
    return c && c->dev ? c->cu.last_error : 0;
#else
    (void)c;
    return 0;
#endif
}

ntt_status ntt_ckks_cuda_rotate_sum(ntt_ckks *c, const ntt_ckks_ct *a, const uint64_t *g, size_t r,
                                    const uint64_t *const *d_keys, size_t key_limbs,
                                    ntt_ckks_ct *out, ntt_cuda_stream stream)
{
    return hoisted_impl(c, a, g, r, d_keys, key_limbs, out, stream, true, true);
}
