/*
 * ntt_rns.h promises "Calls allocate nothing" (issue 62, item 5): every
 * RNS call on every CPU backend here, after a warm-up call, is counted for
 * allocations, expecting 0.  The count covers the whole process, the
 * OpenMP runtime and the C library included (a call that entered a libgomp
 * parallel region allocated its team there), so this program defines the
 * allocation functions itself, as interposition does, and forwards them
 * to glibc's (__libc_malloc ...); tests/faults wraps only the library's
 * own references (--wrap), which would miss those.  Skipped (77) where the
 * C library is not glibc or a sanitizer owns malloc.  The threaded plans'
 * calls (ntt.h: plan option threads > 1) are held to the same, as the RNS
 * stages of an OPENMP context are built on the same threads.
 */
#include "test_common.h"

#include "ntt_rns.h"

#include <errno.h>
#include <stdatomic.h>
#include <stdlib.h>

#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define NO_INTERPOSE 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer) || \
    __has_feature(memory_sanitizer)
#define NO_INTERPOSE 1
#endif
#endif

#if defined(__GLIBC__) && !defined(NO_INTERPOSE)
#define COUNTING 1
static atomic_long allocs;

void *__libc_malloc(size_t n);
void *__libc_calloc(size_t m, size_t n);
void *__libc_realloc(void *p, size_t n);
void *__libc_memalign(size_t a, size_t n);
void __libc_free(void *p);

void *malloc(size_t n);
void *calloc(size_t m, size_t n);
void *realloc(void *p, size_t n);
int posix_memalign(void **p, size_t a, size_t n);
void *aligned_alloc(size_t a, size_t n);
void *memalign(size_t a, size_t n);
void free(void *p);

void *malloc(size_t n)
{
    atomic_fetch_add_explicit(&allocs, 1, memory_order_relaxed);
    return __libc_malloc(n);
}
void *calloc(size_t m, size_t n)
{
    atomic_fetch_add_explicit(&allocs, 1, memory_order_relaxed);
    return __libc_calloc(m, n);
}
void *realloc(void *p, size_t n)
{
    atomic_fetch_add_explicit(&allocs, 1, memory_order_relaxed);
    return __libc_realloc(p, n);
}
int posix_memalign(void **p, size_t a, size_t n)
{
    atomic_fetch_add_explicit(&allocs, 1, memory_order_relaxed);
    void *q = __libc_memalign(a, n);
    if (!q) return ENOMEM;
    *p = q;
    return 0;
}
void *aligned_alloc(size_t a, size_t n)
{
    atomic_fetch_add_explicit(&allocs, 1, memory_order_relaxed);
    return __libc_memalign(a, n);
}
void *memalign(size_t a, size_t n)
{
    atomic_fetch_add_explicit(&allocs, 1, memory_order_relaxed);
    return __libc_memalign(a, n);
}
void free(void *p) { __libc_free(p); }
#endif

#ifdef COUNTING /* the helpers serve the counting run only */
enum { CALLS = 9 };
static const char *const call_name[CALLS] = {"forward", "inverse", "fastbconv", "modup",
                                             "moddown", "rescale", "ks_inner", "keyswitch",
                                             "key_check"};

typedef struct {
    ntt_rns *c;
    size_t n, nq, np, e, digits, klimbs;
    uint64_t *poly, *ext, *key, *out, *acc0, *acc1;
} fixture;

/* Fills every buffer with residues: limb k of an extended polynomial at
   level L modulo prime k of the context, the key by its layout. */
static void fill(fixture *f, const uint64_t *primes)
{
    const size_t n = f->n, nl = f->nq + f->np;
    for (size_t k = 0; k < f->e; k++) rnd_fill64(f->poly + k * n, n, primes[k]);
    for (size_t j = 0; j < f->digits; j++)
        for (size_t k = 0; k < f->e; k++) rnd_fill64(f->ext + (j * f->e + k) * n, n, primes[k]);
    for (size_t r = 0; r < f->klimbs; r++) rnd_fill64(f->key + r * n, n, primes[r % nl]);
}

static ntt_status call(fixture *f, int which)
{
    const size_t n = f->n, L = f->nq - 1;
    size_t first, s;
    switch (which) {
    case 0: {
        const size_t limbs[2] = {0, f->nq};
        return ntt_rns_forward(f->c, n, limbs, 2, f->out);
    }
    case 1: {
        const size_t limbs[2] = {0, f->nq};
        return ntt_rns_inverse(f->c, n, limbs, 2, f->out);
    }
    case 2: {
        const size_t from[2] = {0, 1}, to[2] = {2, f->nq};
        return ntt_rns_fastbconv(f->c, n, from, 2, f->poly, to, 2, f->out);
    }
    case 3:
        if (ntt_rns_digit_range(f->c, L, 0, &first, &s) != NTT_OK) return NTT_EINVAL;
        return ntt_rns_modup(f->c, n, L, 0, f->poly + first * n, s, f->out, f->e);
    case 4: return ntt_rns_moddown(f->c, n, L, f->poly, f->e, f->out, f->nq);
    case 5: return ntt_rns_rescale(f->c, n, L, f->poly, f->nq, f->out, L);
    case 6:
        return ntt_rns_ks_inner(f->c, n, L, f->ext, f->digits * f->e, f->key, f->klimbs, f->acc0,
                                f->acc1, f->e);
    case 7:
        return ntt_rns_keyswitch(f->c, n, L, f->poly, f->nq, f->key, f->klimbs, f->acc0, f->acc1,
                                 f->nq);
    default: return ntt_rns_key_check(f->c, n, f->key, f->klimbs);
    }
}

#endif

int main(void)
{
    test_init("test_rns_alloc");
#ifndef COUNTING
    printf("SKIP: allocations are counted through glibc without sanitizers only\n");
    return 77;
#else
    /* Large enough that the threaded loops share their work out. */
    enum { LOGN = 14, NQ = 4, NP = 2, DNUM = 2 };
    const size_t n = (size_t)1 << LOGN, nl = NQ + NP;
    uint64_t primes[NQ + NP];
    for (unsigned i = 0; i < nl; i++)
        if (ntt_find_prime(50, LOGN + 1, i, &primes[i]) != NTT_OK) return 2;
    const struct {
        ntt_backend be;
        int threads;
    } cases[] = {{NTT_BACKEND_SCALAR, 1}, {NTT_BACKEND_AVX2, 1},   {NTT_BACKEND_AVX512, 1},
                 {NTT_BACKEND_OPENMP, 1}, {NTT_BACKEND_OPENMP, 2}, {NTT_BACKEND_OPENMP, 3}};
    fixture f = {.n = n, .nq = NQ, .np = NP, .e = nl};
    f.poly = xmalloc(nl * n * 8);
    f.out = xmalloc(nl * n * 8);
    f.acc0 = xmalloc(nl * n * 8);
    f.acc1 = xmalloc(nl * n * 8);
    f.ext = xmalloc(NQ * nl * n * 8);
    f.key = xmalloc(2 * DNUM * nl * n * 8);
    int ran = 0;
    for (size_t b = 0; b < sizeof cases / sizeof cases[0]; b++) {
        if (!ntt_backend_available(cases[b].be)) continue;
        const ntt_rns_params prm = {.n = n, .q = primes, .q_count = NQ, .p = primes + NQ,
                                    .p_count = NP, .dnum = DNUM, .backend = cases[b].be,
                                    .threads = cases[b].threads};
        if (ntt_rns_create(&f.c, &prm) != NTT_OK) {
            CHECK(0, "%s threads %d: create failed", ntt_backend_name(cases[b].be), cases[b].threads);
            continue;
        }
        f.digits = ntt_rns_digits(f.c, NQ - 1);
        f.klimbs = 2 * DNUM * nl;
        fill(&f, primes);
        ran++;
        for (int w = 0; w < CALLS; w++) {
            CHECK_STATUS(NTT_OK, call(&f, w), "%s: warm-up", call_name[w]);
            enum { REPS = 8 };
            const long before = atomic_load(&allocs);
            for (int r = 0; r < REPS; r++) CHECK_STATUS(NTT_OK, call(&f, w), "%s", call_name[w]);
            const long got = atomic_load(&allocs) - before;
            printf("%-7s threads %d  %-9s %ld allocations in %d calls\n",
                   ntt_backend_name(cases[b].be), ntt_rns_threads(f.c), call_name[w], got, REPS);
            CHECK_EQ(0, (uint64_t)got, "%s threads %d: ntt_rns_%s allocated",
                     ntt_backend_name(cases[b].be), cases[b].threads, call_name[w]);
        }
        ntt_rns_destroy(f.c);
    }
    CHECK(ran > 0, "no CPU backend ran");

    /* Threaded plans: a transform pair, a product, a batch. */
    if (ntt_backend_available(NTT_BACKEND_OPENMP)) {
        enum { PLOG = 14 };
        const size_t pn = (size_t)1 << PLOG;
        uint64_t q;
        if (ntt_find_prime(30, PLOG, 0, &q) != NTT_OK) return 2;
        uint32_t *x = xmalloc(8 * pn * 4);
        rnd_fill32(x, 8 * pn, (uint32_t)q);
        for (int nt = 2; nt <= 3; nt++) {
            ntt_plan *pl = NULL;
            const ntt_plan_options o = {.threads = nt};
            CHECK_STATUS(NTT_OK, ntt_plan_create(&pl, pn, q, NTT_U32, NTT_BACKEND_OPENMP, &o),
                         "plan, %d threads", nt);
            if (!pl) continue;
            long got = 0;
            for (int r = 0; r < 3; r++) {
                const long before = atomic_load(&allocs);
                CHECK_STATUS(NTT_OK, ntt_forward_u32(pl, x), "forward");
                CHECK_STATUS(NTT_OK, ntt_inverse_u32(pl, x), "inverse");
                CHECK_STATUS(NTT_OK, ntt_polymul_u32(pl, x + pn, x + 2 * pn, x + 3 * pn), "product");
                CHECK_STATUS(NTT_OK, ntt_forward_batch_u32(pl, x + 4 * pn, 4, pn), "batch");
                if (r > 0) got += atomic_load(&allocs) - before; /* the first: warm-up */
            }
            printf("openmp plan threads %d: %ld allocations in 2 rounds of 4 calls\n", nt, got);
            CHECK_EQ(0, (uint64_t)got, "threaded plan (%d threads) calls allocated", nt);
            ntt_plan_destroy(pl);
        }
        free(x);
    }
    free(f.poly);
    free(f.out);
    free(f.acc0);
    free(f.acc1);
    free(f.ext);
    free(f.key);
    return test_finish();
#endif
}
