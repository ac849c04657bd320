/* RNS contexts: parameter checks, the precomputed constants, the limbs'
   plans, the scratch memory and the queries (ntt_rns.h). */
#include "rns_internal.h"
#include "rns_cuda.h"
#include "../core/alloc.h"
#include "../core/registry.h"
#include "../pool/pool.h"

#include <stdlib.h>
#include <string.h>

static void tab_free(rns_conv_tab *t)
{
    free(t->inv);
    free(t->invq);
    free(t->w);
    memset(t, 0, sizeof *t);
}

void ntt_rns_destroy(ntt_rns *c)
{
    if (!c) return;
#ifdef NTT_HAVE_CUDA
    ntt_rns_cuda_free(c);
#endif
    if (c->plans)
        for (size_t i = 0; i < c->nlimb; i++) ntt_plan_destroy(c->plans[i]);
    free(c->plans);
    ntt_pool_destroy(c->pool);
    if (c->shape)
        for (size_t l = 0; l < c->nq; l++) tab_free(&c->shape[l]);
    free(c->shape);
    tab_free(&c->pconv);
    tab_free(&c->gen);
    free(c->pinv);
    free(c->pinvq);
    free(c->qlinv);
    free(c->qlinvq);
    free(c->primes);
    free(c->pm);
    free(c->X);
    free(c->T);
    free(c->PP);
    free(c->thr);
    free(c->jx);
    free(c->jw);
    free(c->jout);
    free(c->jsrc);
    free(c->jdst);
    free(c->jinv);
    free(c->jinvq);
    free(c->prep);
    free(c->lists);
    free(c);
}

static void prime_init(rns_prime *m, uint64_t p)
{
    m->p = p;
    m->r64 = (uint64_t)(((ntt_u128)1 << 64) % p);
    m->r64q = ntt_shoup_pre64(m->r64, p);
    m->bar = UINT64_MAX / p; /* p odd > 2 does not divide 2^64 */
}

/* Products of the other primes come from prefix and suffix products, O(s)
   per target. */
void ntt_rns_conv_consts(const uint64_t *b, size_t s, const uint64_t *tgt, size_t t,
                         uint64_t *inv, uint64_t *invq, uint64_t *w, uint64_t *pre)
{
    uint64_t *suf = pre + s + 1;
    for (size_t i = 0; i < s; i++) {
        uint64_t h = 1;
        for (size_t k = 0; k < s; k++)
            if (k != i) h = ntt_mulmod_slow(h, b[k] % b[i], b[i]);
        inv[i] = ntt_invmod(h, b[i]);
        invq[i] = ntt_shoup_pre64(inv[i], b[i]);
    }
    for (size_t j = 0; j < t; j++) {
        const uint64_t c = tgt[j];
        pre[0] = 1 % c;
        for (size_t k = 0; k < s; k++) pre[k + 1] = ntt_mulmod_slow(pre[k], b[k] % c, c);
        suf[s] = 1 % c;
        for (size_t k = s; k-- > 0;) suf[k] = ntt_mulmod_slow(suf[k + 1], b[k] % c, c);
        for (size_t i = 0; i < s; i++) w[j * s + i] = ntt_mulmod_slow(pre[i], suf[i + 1], c);
    }
}

static bool tab_alloc(rns_conv_tab *tab, size_t s, size_t rows)
{
    tab->s = s;
    tab->inv = malloc(s * sizeof *tab->inv);
    tab->invq = malloc(s * sizeof *tab->invq);
    tab->w = malloc(rows * s * sizeof *tab->w);
    return tab->inv && tab->invq && tab->w;
}

static bool pow2_ok(size_t n)
{
    return n >= 2 && (n & (n - 1)) == 0 && n <= ((size_t)1 << NTT_MAX_LOG2_N);
}

static ntt_status check_params(const ntt_rns_params *P)
{
    if (!P->q || P->q_count == 0 || (P->p_count > 0 && !P->p) || !pow2_ok(P->n))
        return NTT_EINVAL;
    if (P->q_count > NTT_RNS_MAX_LIMBS || P->p_count > NTT_RNS_MAX_LIMBS - P->q_count)
        return NTT_EINVAL;
    if (P->dnum == 0 || P->dnum > P->q_count) return NTT_EINVAL;
    if ((unsigned)P->backend >= NTT_BACKEND_COUNT || P->threads < 0) return NTT_EINVAL;
    if (P->backend != NTT_BACKEND_OPENMP && P->backend != NTT_BACKEND_AUTO && P->threads > 1)
        return NTT_EINVAL;
    const size_t nl = P->q_count + P->p_count;
    for (size_t i = 0; i < nl; i++) {
        const uint64_t x = i < P->q_count ? P->q[i] : P->p[i - P->q_count];
        if (x <= 2 || x >> NTT_RNS_PRIME_BITS || !ntt_is_prime(x) || (x - 1) % (2 * P->n) != 0)
            return NTT_EMODULUS;
        for (size_t k = 0; k < i; k++)
            if ((k < P->q_count ? P->q[k] : P->p[k - P->q_count]) == x) return NTT_EMODULUS;
    }
    return NTT_OK;
}

/* The backend the limbs' plans run and the thread count.  The OPENMP
   backend threads over limbs itself, so its plans are serial. */
static ntt_status choose_backend(ntt_rns *c, ntt_backend want, int threads)
{
    ntt_backend b = want;
    if (b == NTT_BACKEND_AUTO) {
        const ntt_status s = ntt_backend_resolve(&b);
        if (s != NTT_OK) return s;
        if (b == NTT_BACKEND_CUDA) b = ntt_backend_best_cpu(); /* AUTO stays on the CPU */
    }
    if (!ntt_backend_available(b)) return NTT_EUNSUPPORTED;
    c->backend = b;
    c->threads = 1;
    c->plan_backend = b;
    if (b == NTT_BACKEND_OPENMP) {
        c->threads = threads > 0 ? threads : ntt_pool_default_threads();
        c->plan_backend = ntt_backend_kernels_of(b);
    } else if (threads > 1) {
        return NTT_EINVAL; /* AUTO resolved to a serial backend */
    }
    return NTT_OK;
}

/* The element-wise kernels: IFMA with the AVX-512 NTTs where the CPU has
   it and the primes and N suit it, else portable. */
static const rns_kernels *choose_kernels(const ntt_rns *c)
{
#ifdef NTT_RNS_IFMA
    bool fits = c->n >= 8;
    for (size_t i = 0; i < c->nlimb; i++) fits &= c->primes[i] >> RNS_IFMA_MIN_BITS != 0;
    if (fits && c->plan_backend == NTT_BACKEND_AVX512 && ntt_rns_kernels_ifma())
        return ntt_rns_kernels_ifma();
#endif
    return &ntt_rns_kernels_portable;
}

static ntt_status build_constants(ntt_rns *c)
{
    const size_t nq = c->nq, np = c->np, nl = c->nlimb;
    uint64_t *pre = malloc((2 * nl + 2) * sizeof *pre);
    c->shape = calloc(nq, sizeof *c->shape);
    if (!pre || !c->shape) goto oom;
    for (size_t l = 0; l < nq; l++) {
        rns_conv_tab *t = &c->shape[l];
        const size_t first = l / c->alpha * c->alpha, s = l - first + 1;
        if (!tab_alloc(t, s, nl)) goto oom;
        ntt_rns_conv_consts(c->primes + first, s, c->primes, nl, t->inv, t->invq, t->w, pre);
    }
    if (np > 0) {
        const uint64_t *P = c->primes + nq;
        if (!tab_alloc(&c->pconv, np, nq)) goto oom;
        ntt_rns_conv_consts(P, np, c->primes, nq, c->pconv.inv, c->pconv.invq, c->pconv.w, pre);
        c->pinv = malloc(nq * sizeof *c->pinv);
        c->pinvq = malloc(nq * sizeof *c->pinvq);
        if (!c->pinv || !c->pinvq) goto oom;
        for (size_t i = 0; i < nq; i++) {
            const uint64_t q = c->primes[i];
            uint64_t prod = 1;
            for (size_t k = 0; k < np; k++) prod = ntt_mulmod_slow(prod, P[k] % q, q);
            c->pinv[i] = ntt_invmod(prod, q);
            c->pinvq[i] = ntt_shoup_pre64(c->pinv[i], q);
        }
    }
    c->qlinv = calloc(nq * nq, sizeof *c->qlinv);
    c->qlinvq = calloc(nq * nq, sizeof *c->qlinvq);
    if (!c->qlinv || !c->qlinvq) goto oom;
    for (size_t l = 1; l < nq; l++)
        for (size_t i = 0; i < l; i++) {
            const uint64_t q = c->primes[i], v = ntt_invmod(c->primes[l] % q, q);
            c->qlinv[l * nq + i] = v;
            c->qlinvq[l * nq + i] = ntt_shoup_pre64(v, q);
        }
    if (!tab_alloc(&c->gen, nl, nl)) goto oom;
    free(pre);
    return NTT_OK;
oom:
    free(pre);
    return NTT_ENOMEM;
}

static ntt_status alloc_scratch(ntt_rns *c)
{
    const size_t n = c->n, nl = c->nlimb, nt = (size_t)c->threads;
    c->thr_words = (n + nl * RNS_BLOCK + 7) / 8 * 8;
    c->X = ntt_alloc_aligned(c->alpha * n * sizeof *c->X);
    c->T = ntt_alloc_aligned(c->dnum * nl * n * sizeof *c->T);
    c->PP = c->np ? ntt_alloc_aligned(2 * c->np * n * sizeof *c->PP) : NULL;
    c->thr = ntt_alloc_aligned(nt * c->thr_words * sizeof *c->thr);
    c->jx = malloc(nl * sizeof *c->jx);
    c->jw = malloc(nl * sizeof *c->jw);
    c->jout = malloc(nl * sizeof *c->jout);
    c->jsrc = malloc(nl * sizeof *c->jsrc);
    c->jdst = malloc(nl * sizeof *c->jdst);
    c->jinv = malloc(nl * sizeof *c->jinv);
    c->jinvq = malloc(nl * sizeof *c->jinvq);
    c->prep = malloc(rns_prep_words(nl) * sizeof *c->prep);
    c->lists = malloc(nl * sizeof *c->lists);
    if (!c->prep || !c->lists || !c->X || !c->T || (c->np && !c->PP) || !c->thr || !c->jx || !c->jw || !c->jout ||
        !c->jsrc || !c->jdst || !c->jinv || !c->jinvq)
        return NTT_ENOMEM;
    return NTT_OK;
}

ntt_status ntt_rns_create(ntt_rns **out, const ntt_rns_params *P)
{
    if (!out) return NTT_EINVAL;
    *out = NULL;
    if (!P) return NTT_EINVAL;
    ntt_status s = check_params(P);
    if (s != NTT_OK) return s;
    ntt_rns *c = calloc(1, sizeof *c);
    if (!c) return NTT_ENOMEM;
    c->n = P->n;
    c->nq = P->q_count;
    c->np = P->p_count;
    c->nlimb = c->nq + c->np;
    c->dnum = P->dnum;
    c->alpha = (c->nq + c->dnum - 1) / c->dnum;
    s = choose_backend(c, P->backend, P->threads);
    if (s != NTT_OK) {
        ntt_rns_destroy(c);
        return s;
    }
    c->primes = malloc(c->nlimb * sizeof *c->primes);
    c->pm = malloc(c->nlimb * sizeof *c->pm);
    c->plans = calloc(c->nlimb, sizeof *c->plans);
    if (!c->primes || !c->pm || !c->plans) {
        ntt_rns_destroy(c);
        return NTT_ENOMEM;
    }
    memcpy(c->primes, P->q, c->nq * sizeof *c->primes);
    if (c->np) memcpy(c->primes + c->nq, P->p, c->np * sizeof *c->primes);
    for (size_t i = 0; i < c->nlimb; i++) prime_init(&c->pm[i], c->primes[i]);
    c->K = choose_kernels(c);
    s = build_constants(c);
    if (c->backend == NTT_BACKEND_CUDA) {
        /* The device has its own plan and scratch (rns_cuda_setup.cpp). */
#ifdef NTT_HAVE_CUDA
        if (s == NTT_OK) s = ntt_rns_cuda_init(c);
#else
        s = NTT_EUNSUPPORTED; /* not reached: the backend is never available */
#endif
    } else {
        if (s == NTT_OK) s = alloc_scratch(c);
        if (s == NTT_OK) s = ntt_pool_create(&c->pool, c->threads, NTT_POOL_SPIN_NS);
        const ntt_plan_options po = {.flags = NTT_FLAG_NEGACYCLIC, .threads = 1};
        for (size_t i = 0; i < c->nlimb && s == NTT_OK; i++)
            s = ntt_plan_create(&c->plans[i], c->n, c->primes[i], NTT_U64, c->plan_backend, &po);
    }
    if (s != NTT_OK) {
        ntt_rns_destroy(c);
        return s;
    }
    *out = c;
    return NTT_OK;
}

size_t ntt_rns_n(const ntt_rns *c) { return c ? c->n : 0; }
size_t ntt_rns_q_count(const ntt_rns *c) { return c ? c->nq : 0; }
size_t ntt_rns_p_count(const ntt_rns *c) { return c ? c->np : 0; }
size_t ntt_rns_dnum(const ntt_rns *c) { return c ? c->dnum : 0; }
size_t ntt_rns_alpha(const ntt_rns *c) { return c ? c->alpha : 0; }
ntt_backend ntt_rns_backend(const ntt_rns *c) { return c ? c->backend : NTT_BACKEND_AUTO; }
struct ntt_pool *ntt_rns_pool(const ntt_rns *c) { return c ? c->pool : NULL; }
int ntt_rns_threads(const ntt_rns *c) { return c ? c->threads : 0; }

size_t ntt_rns_digits(const ntt_rns *c, size_t level)
{
    if (!c || level >= c->nq) return 0;
    return level / c->alpha + 1;
}

/* The rule itself rather than a limb's plan: a CUDA context has no host
   plans, and its device plans were made by the same rule (tables.c). */
ntt_status ntt_rns_root(const ntt_rns *c, size_t limb, uint64_t *root)
{
    if (!c || !root || limb >= c->nlimb) return NTT_EINVAL;
    *root = ntt_root_of_order(c->primes[limb], 2 * (uint64_t)c->n);
    return NTT_OK;
}

size_t ntt_rns_primes(const ntt_rns *c, const uint64_t **primes)
{
    if (!c) return 0;
    if (primes) *primes = c->primes;
    return c->nlimb;
}

ntt_status ntt_rns_digit_range(const ntt_rns *c, size_t level, size_t digit, size_t *first,
                               size_t *count)
{
    if (!c || !first || !count || level >= c->nq || digit > level / c->alpha) return NTT_EINVAL;
    const size_t f = digit * c->alpha, e = f + c->alpha < level + 1 ? f + c->alpha : level + 1;
    *first = f;
    *count = e - f;
    return NTT_OK;
}
