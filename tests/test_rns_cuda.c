/*
 * test_rns_cuda: the RNS stages on device pointers (ntt_rns_cuda_*,
 * ntt_rns.h) against the host forms, word for word, and for the small
 * configurations against the GMP reference of test_rns (rns_oracle.h).
 * N from 2^10 (2^16 on a GPU; NTT_TEST_MAX_LOG caps it), limb counts 1 ..
 * 60, dnum 1 .. 4, primes just below 2^61, at 50 bits and mixed; every
 * fusion setting of the device stages gives the same words; the key
 * switch also replayed from a captured CUDA graph (not in the CPU
 * stand-in, which has no graphs).  Then the documented errors.  Exits 77
 * without a usable CUDA device.
 */
#include "rns_oracle.h"
#include "ntt_internal.h"

#include <cuda_runtime_api.h>
#include <stdlib.h>
#include <string.h>

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

static unsigned max_log = 16;
static cudaStream_t stream;

static uint64_t *dalloc(size_t words)
{
    void *p = NULL;
    if (cudaMalloc(&p, words ? words * 8 : 8) != cudaSuccess) {
        fprintf(stderr, "test_rns_cuda: cudaMalloc of %zu words failed\n", words);
        exit(2);
    }
    return p;
}

static void up(uint64_t *d, const uint64_t *h, size_t words)
{
    if (cudaMemcpy(d, h, words * 8, cudaMemcpyHostToDevice) != cudaSuccess) exit(2);
}

/* Waits for the stream and brings words back; a failed launch shows here. */
static void down(uint64_t *h, const uint64_t *d, size_t words, const char *what)
{
    cudaError_t e = cudaStreamSynchronize(stream);
    if (e == cudaSuccess) e = cudaMemcpy(h, d, words * 8, cudaMemcpyDeviceToHost);
    CHECK(e == cudaSuccess, "%s: CUDA error %d", what, (int)e);
}

typedef struct {
    size_t n, nq, np, dnum;
    int kind;
    bool gmp;     /* also against the GMP reference */
    bool phantom; /* q_0 and P of kind, q_1.. of 50 bits (the benchmark's layout) */
} config;

/* Fusion settings compared with the default: none, and each alone. */
static const unsigned fusions[] = {RNS_FUSE_ALL, 0, RNS_FUSE_CONV, RNS_FUSE_INNER, RNS_FUSE_SUBC};

typedef struct {
    const config *cf;
    ntt_rns *h, *d;
    oracle o;
    size_t n, nl;
    char tag[160];
    uint64_t *key, *dkey;
} env;

/* Host form into exp, device form (every fusion setting) into got; equal. */
static void check_modup(env *E, size_t l, int mode)
{
    const size_t n = E->n, e = l + 1 + E->cf->np, beta = ntt_rns_digits(E->h, l);
    for (size_t j = 0; j < beta; j++) {
        size_t first, s;
        if (ntt_rns_digit_range(E->h, l, j, &first, &s) != NTT_OK) continue;
        uint64_t *in = xmalloc(s * n * 8), *exp = xmalloc(e * n * 8), *got = xmalloc(e * n * 8);
        for (size_t i = 0; i < s; i++) {
            const uint64_t pr = E->o.primes[first + i];
            for (size_t m = 0; m < n; m++) in[i * n + m] = mode == 1 ? pr - 1 : rnd_below(pr);
        }
        CHECK_STATUS(NTT_OK, ntt_rns_modup(E->h, n, l, j, in, s, exp, e), "%s host modup", E->tag);
        if (E->cf->gmp) {
            ora_modup(&E->o, l, j, in, got);
            CHECK_ARR64(got, exp, e * n, "%s: modup l=%zu j=%zu host vs GMP", E->tag, l, j);
        }
        uint64_t *din = dalloc(s * n), *dout = dalloc(e * n);
        up(din, in, s * n);
        for (size_t f = 0; f < COUNT(fusions); f++) {
            CHECK_STATUS(NTT_OK, ntt_rns_cuda_set_fusion(E->d, fusions[f]), "fusion");
            cudaMemset(dout, 0xa5, e * n * 8);
            CHECK_STATUS(NTT_OK, ntt_rns_cuda_modup(E->d, n, l, j, din, s, dout, e, stream),
                         "%s cuda modup", E->tag);
            memset(got, 0, e * n * 8);
            down(got, dout, e * n, "modup");
            CHECK_ARR64(exp, got, e * n, "%s: modup l=%zu j=%zu fusion %u device vs host", E->tag,
                        l, j, fusions[f]);
        }
        cudaFree(din);
        cudaFree(dout);
        free(in);
        free(exp);
        free(got);
    }
}

/* moddown (in == out and apart) and rescale (in == out and apart). */
static void check_down(env *E, size_t l, int mode, bool rescale)
{
    const size_t n = E->n, q = l + 1, il = rescale ? q : q + E->cf->np, ol = rescale ? l : q;
    if (rescale && l == 0) return;
    uint64_t *in = xmalloc(il * n * 8), *exp = xmalloc(ol * n * 8), *got = xmalloc(il * n * 8);
    fill_poly(in, &E->o, il, l, true, mode);
    ntt_status s = rescale ? ntt_rns_rescale(E->h, n, l, in, il, exp, ol)
                           : ntt_rns_moddown(E->h, n, l, in, il, exp, ol);
    CHECK_STATUS(NTT_OK, s, "%s host %s", E->tag, rescale ? "rescale" : "moddown");
    if (E->cf->gmp) {
        if (rescale)
            ora_rescale(&E->o, l, in, got);
        else
            ora_moddown(&E->o, l, in, got);
        CHECK_ARR64(got, exp, ol * n, "%s: %s l=%zu host vs GMP", E->tag,
                    rescale ? "rescale" : "moddown", l);
    }
    uint64_t *din = dalloc(il * n), *dout = dalloc(ol * n);
    for (size_t f = 0; f < COUNT(fusions); f++) {
        CHECK_STATUS(NTT_OK, ntt_rns_cuda_set_fusion(E->d, fusions[f]), "fusion");
        for (int inplace = 0; inplace < 2; inplace++) {
            up(din, in, il * n);
            cudaMemset(dout, 0xa5, ol * n * 8);
            uint64_t *o = inplace ? din : dout;
            s = rescale ? ntt_rns_cuda_rescale(E->d, n, l, din, il, o, ol, stream)
                        : ntt_rns_cuda_moddown(E->d, n, l, din, il, o, ol, stream);
            CHECK_STATUS(NTT_OK, s, "%s cuda %s", E->tag, rescale ? "rescale" : "moddown");
            memset(got, 0, ol * n * 8);
            down(got, o, ol * n, "down");
            CHECK_ARR64(exp, got, ol * n, "%s: %s l=%zu fusion %u %s device vs host", E->tag,
                        rescale ? "rescale" : "moddown", l, fusions[f],
                        inplace ? "in place" : "apart");
        }
    }
    cudaFree(din);
    cudaFree(dout);
    free(in);
    free(exp);
    free(got);
}

/* The inner product and the whole key switch. */
static void check_ks(env *E, size_t l, int mode)
{
    const size_t n = E->n, q = l + 1, e = q + E->cf->np, beta = ntt_rns_digits(E->h, l);
    const size_t kl = 2 * E->cf->dnum * E->nl;
    uint64_t *ext = xmalloc(beta * e * n * 8), *a = xmalloc(2 * e * n * 8),
             *g = xmalloc(2 * e * n * 8);
    for (size_t j = 0; j < beta; j++) fill_poly(ext + j * e * n, &E->o, e, l, true, mode);
    CHECK_STATUS(NTT_OK, ntt_rns_ks_inner(E->h, n, l, ext, beta * e, E->key, kl, a, a + e * n, e),
                 "%s host inner", E->tag);
    if (E->cf->gmp) {
        ora_inner(&E->o, l, ext, E->key, g, g + e * n);
        CHECK_ARR64(g, a, 2 * e * n, "%s: inner l=%zu host vs GMP", E->tag, l);
    }
    uint64_t *dext = dalloc(beta * e * n), *dacc = dalloc(2 * e * n);
    up(dext, ext, beta * e * n);
    for (size_t f = 0; f < COUNT(fusions); f++) {
        CHECK_STATUS(NTT_OK, ntt_rns_cuda_set_fusion(E->d, fusions[f]), "fusion");
        cudaMemset(dacc, 0xa5, 2 * e * n * 8);
        CHECK_STATUS(NTT_OK, ntt_rns_cuda_ks_inner(E->d, n, l, dext, beta * e, E->dkey, kl, dacc,
                                                   dacc + e * n, e, stream),
                     "%s cuda inner", E->tag);
        down(g, dacc, 2 * e * n, "inner");
        CHECK_ARR64(a, g, 2 * e * n, "%s: inner l=%zu fusion %u device vs host", E->tag, l,
                    fusions[f]);
    }
    cudaFree(dext);
    cudaFree(dacc);

    /* The key switch: outputs one after the other, the other way round,
       and in separate allocations. */
    uint64_t *in = xmalloc(q * n * 8);
    fill_poly(in, &E->o, q, l, false, mode);
    CHECK_STATUS(NTT_OK, ntt_rns_keyswitch(E->h, n, l, in, q, E->key, kl, a, a + q * n, q),
                 "%s host keyswitch", E->tag);
    if (E->cf->gmp) {
        ora_keyswitch(&E->o, l, in, E->key, g, g + q * n);
        CHECK_ARR64(g, a, 2 * q * n, "%s: keyswitch l=%zu host vs GMP", E->tag, l);
    }
    uint64_t *din = dalloc(q * n), *dout = dalloc(2 * q * n), *dout1 = dalloc(q * n);
    up(din, in, q * n);
    for (size_t f = 0; f < COUNT(fusions); f++) {
        CHECK_STATUS(NTT_OK, ntt_rns_cuda_set_fusion(E->d, fusions[f]), "fusion");
        for (int lay = 0; lay < 3; lay++) {
            uint64_t *o0 = lay == 1 ? dout + q * n : dout, *o1 = lay == 0 ? dout + q * n
                                                             : lay == 1 ? dout : dout1;
            cudaMemset(dout, 0xa5, 2 * q * n * 8);
            CHECK_STATUS(NTT_OK, ntt_rns_cuda_keyswitch(E->d, n, l, din, q, E->dkey, kl, o0, o1, q,
                                                        stream),
                         "%s cuda keyswitch", E->tag);
            down(g, o0, q * n, "keyswitch");
            down(g + q * n, o1, q * n, "keyswitch");
            CHECK_ARR64(a, g, 2 * q * n, "%s: keyswitch l=%zu fusion %u layout %d device vs host",
                        E->tag, l, fusions[f], lay);
        }
    }
#ifndef NTT_TEST_EMU
    /* Captured once, replayed twice on fresh input: the graph holds no
       host state. */
    CHECK_STATUS(NTT_OK, ntt_rns_cuda_set_fusion(E->d, RNS_FUSE_ALL), "fusion");
    cudaGraph_t graph;
    cudaGraphExec_t exec;
    cudaMemset(dout, 0, 2 * q * n * 8);
    CHECK(cudaStreamBeginCapture(stream, cudaStreamCaptureModeThreadLocal) == cudaSuccess,
          "capture");
    CHECK_STATUS(NTT_OK, ntt_rns_cuda_keyswitch(E->d, n, l, din, q, E->dkey, kl, dout,
                                                dout + q * n, q, stream),
                 "%s captured keyswitch", E->tag);
    CHECK(cudaStreamEndCapture(stream, &graph) == cudaSuccess, "end capture");
    CHECK(cudaGraphInstantiate(&exec, graph, 0) == cudaSuccess, "instantiate");
    for (int r = 0; r < 2; r++) {
        CHECK(cudaGraphLaunch(exec, stream) == cudaSuccess, "graph launch");
        down(g, dout, 2 * q * n, "graph");
        CHECK_ARR64(a, g, 2 * q * n, "%s: keyswitch l=%zu graph replay %d vs host", E->tag, l, r);
        cudaMemset(dout, 0, 2 * q * n * 8);
    }
    cudaGraphExecDestroy(exec);
    cudaGraphDestroy(graph);
#endif
    CHECK_STATUS(NTT_OK, ntt_rns_cuda_set_fusion(E->d, RNS_FUSE_ALL), "fusion");
    cudaFree(din);
    cudaFree(dout);
    cudaFree(dout1);
    free(in);
    free(ext);
    free(a);
    free(g);
}

/* Transforms of a random limb list (runs of consecutive limbs and
   singles) and a conversion between random disjoint lists. */
static void check_lists(env *E, int mode)
{
    const size_t n = E->n, nl = E->nl;
    size_t perm[NTT_RNS_MAX_LIMBS];
    rnd_perm(perm, nl);
    /* A run of consecutive limbs then the shuffled ones. */
    size_t list[NTT_RNS_MAX_LIMBS], cnt = 0, r0 = rnd_below(nl), rl = 1 + rnd_below(nl - r0);
    for (size_t i = 0; i < rl; i++) list[cnt++] = r0 + i;
    for (size_t i = 0; i < nl && cnt < nl; i++)
        if (perm[i] < r0 || perm[i] >= r0 + rl) list[cnt++] = perm[i];
    uint64_t *a = xmalloc(cnt * n * 8), *h = xmalloc(cnt * n * 8), *g = xmalloc(cnt * n * 8);
    for (size_t k = 0; k < cnt; k++)
        for (size_t m = 0; m < n; m++)
            a[k * n + m] = mode == 1 ? E->o.primes[list[k]] - 1 : rnd_below(E->o.primes[list[k]]);
    uint64_t *da = dalloc(cnt * n);
    for (int inv = 0; inv < 2; inv++) {
        memcpy(h, a, cnt * n * 8);
        CHECK_STATUS(NTT_OK, (inv ? ntt_rns_inverse : ntt_rns_forward)(E->h, n, list, cnt, h),
                     "%s host transform", E->tag);
        up(da, a, cnt * n);
        CHECK_STATUS(NTT_OK,
                     (inv ? ntt_rns_cuda_inverse : ntt_rns_cuda_forward)(E->d, n, list, cnt, da,
                                                                         stream),
                     "%s cuda transform", E->tag);
        down(g, da, cnt * n, "transform");
        CHECK_ARR64(h, g, cnt * n, "%s: %s of %zu limbs device vs host", E->tag,
                    inv ? "inverse" : "forward", cnt);
    }
    cudaFree(da);
    free(a);
    free(h);
    free(g);
    if (nl < 2) return;
    for (int round = 0; round < 2; round++) {
        const size_t fs = round ? nl - 1 : 1 + rnd_below(nl - 1), ts = 1 + rnd_below(nl - fs);
        const size_t *from = perm, *to = perm + fs;
        uint64_t *in = xmalloc(fs * n * 8), *exp = xmalloc(ts * n * 8), *got = xmalloc(ts * n * 8);
        for (size_t i = 0; i < fs; i++)
            for (size_t m = 0; m < n; m++)
                in[i * n + m] = mode == 1 ? E->o.primes[from[i]] - 1 : rnd_below(E->o.primes[from[i]]);
        CHECK_STATUS(NTT_OK, ntt_rns_fastbconv(E->h, n, from, fs, in, to, ts, exp),
                     "%s host fastbconv", E->tag);
        if (E->cf->gmp) {
            uint64_t *bp = xmalloc(fs * 8);
            for (size_t i = 0; i < fs; i++) bp[i] = E->o.primes[from[i]];
            bigbase z;
            bigbase_init(&z, bp, fs);
            mpz_t *S = bigvec(n);
            big_conv(S, &z, in, n, "fastbconv oracle");
            for (size_t j = 0; j < ts; j++) big_reduce(got + j * n, S, n, E->o.primes[to[j]]);
            CHECK_ARR64(got, exp, ts * n, "%s: fastbconv host vs GMP", E->tag);
            bigvec_free(S, n);
            bigbase_clear(&z);
            free(bp);
        }
        uint64_t *din = dalloc(fs * n), *dout = dalloc(ts * n);
        up(din, in, fs * n);
        for (int f = 0; f < 2; f++) {
            CHECK_STATUS(NTT_OK, ntt_rns_cuda_set_fusion(E->d, f ? 0 : RNS_FUSE_ALL), "fusion");
            cudaMemset(dout, 0xa5, ts * n * 8);
            CHECK_STATUS(NTT_OK, ntt_rns_cuda_fastbconv(E->d, n, from, fs, din, to, ts, dout, stream),
                         "%s cuda fastbconv", E->tag);
            down(got, dout, ts * n, "fastbconv");
            CHECK_ARR64(exp, got, ts * n, "%s: fastbconv %zu -> %zu limbs %s device vs host",
                        E->tag, fs, ts, f ? "unfused" : "fused");
        }
        CHECK_STATUS(NTT_OK, ntt_rns_cuda_set_fusion(E->d, RNS_FUSE_ALL), "fusion");
        cudaFree(din);
        cudaFree(dout);
        free(in);
        free(exp);
        free(got);
    }
}

static void run_config(const config *cf)
{
    env E;
    memset(&E, 0, sizeof E);
    E.cf = cf;
    uint64_t *q = xmalloc(cf->nq * 8), *p = xmalloc((cf->np + 1) * 8);
    if (cf->phantom) {
        make_primes(q, 1, cf->n, cf->kind, NULL, 0);
        make_primes(q + 1, cf->nq - 1, cf->n, PR_50, q, 1);
    } else {
        make_primes(q, cf->nq, cf->n, cf->kind, NULL, 0);
    }
    make_primes(p, cf->np, cf->n, cf->kind, q, cf->nq);
    ntt_rns_params prm = {.n = cf->n, .q = q, .q_count = cf->nq, .p = p, .p_count = cf->np,
                          .dnum = cf->dnum, .backend = NTT_BACKEND_AUTO};
    ntt_status s1 = ntt_rns_create(&E.h, &prm);
    prm.backend = NTT_BACKEND_CUDA;
    ntt_status s2 = ntt_rns_create(&E.d, &prm);
    CHECK_STATUS(NTT_OK, s1, "host create");
    CHECK_STATUS(NTT_OK, s2, "cuda create N=%zu L+1=%zu K=%zu dnum=%zu", cf->n, cf->nq, cf->np,
                 cf->dnum);
    if (s1 == NTT_OK && s2 == NTT_OK) {
        oracle_init(&E.o, E.h);
        E.n = cf->n;
        E.nl = E.o.nl;
        const int mode = (int)rnd_below(5) == 0 ? 1 + (int)rnd_below(2) : 0;
        snprintf(E.tag, sizeof E.tag, "N=%zu L+1=%zu K=%zu dnum=%zu %s%s%s", cf->n, cf->nq,
                 cf->np, cf->dnum,
                 cf->kind == PR_TOP ? "61-bit" : cf->kind == PR_50 ? "50-bit" : "mixed",
                 cf->phantom ? " (q_1.. 50-bit)" : "",
                 mode == 1 ? " all p-1" : mode == 2 ? " near p-1" : "");
        printf("  %s%s\n", E.tag, cf->gmp ? " (+GMP)" : "");
        check_lists(&E, mode);
        /* The root of every limb (ntt_rns.h, "Forms"): the device context's
           is the host's and a scalar plan's; check_lists showed that the
           device transforms give the host's words. */
        for (size_t t = 0; t < E.nl; t++) {
            uint64_t rh = 0, rd = 1, rp = 2;
            CHECK_STATUS(NTT_OK, ntt_rns_root(E.h, t, &rh), "%s: host ntt_rns_root", E.tag);
            CHECK_STATUS(NTT_OK, ntt_rns_root(E.d, t, &rd), "%s: cuda ntt_rns_root", E.tag);
            CHECK_STATUS(NTT_OK, ntt_plan_root(E.o.plans[t], 0, &rp), "%s: ntt_plan_root", E.tag);
            CHECK(rh == rd && rd == rp, "%s limb %zu: roots %llu (host), %llu (cuda), %llu (plan)",
                  E.tag, t, (unsigned long long)rh, (unsigned long long)rd, (unsigned long long)rp);
        }
        if (cf->np) {
            const size_t kl = 2 * cf->dnum * E.nl;
            E.key = xmalloc(kl * cf->n * 8);
            fill_key(E.key, &E.o, mode);
            E.dkey = dalloc(kl * cf->n);
            up(E.dkey, E.key, kl * cf->n);
            /* The pairs past beta(L) are never read (ntt_rns.h): garbage
               there on the device only, so a read shows as a mismatch with
               the host forms. */
            const size_t beta = ntt_rns_digits(E.h, cf->nq - 1), pair = 2 * E.nl * cf->n;
            if (beta < cf->dnum)
                CHECK(cudaMemset(E.dkey + beta * pair, 0xff, (cf->dnum - beta) * pair * 8) ==
                          cudaSuccess,
                      "cudaMemset");
        }
        size_t lv[3], nlv = 0;
        lv[nlv++] = cf->nq - 1;
        if (cf->nq > 2) lv[nlv++] = 1 + rnd_below(cf->nq - 2);
        if (cf->nq > 1) lv[nlv++] = 0;
        for (size_t i = 0; i < nlv; i++) {
            if (cf->nq > 1) check_down(&E, lv[i], mode, true);
            if (!cf->np) continue;
            check_modup(&E, lv[i], mode);
            check_down(&E, lv[i], mode, false);
            check_ks(&E, lv[i], mode);
        }
        free(E.key);
        if (E.dkey) cudaFree(E.dkey);
        oracle_free(&E.o);
    }
    ntt_rns_destroy(E.h);
    ntt_rns_destroy(E.d);
    free(q);
    free(p);
}

static void test_configs(void)
{
    static const config cfs[] = {
        {1024, 1, 1, 1, PR_TOP, true, false},    {1024, 5, 2, 2, PR_TOP, true, false},
        {1024, 9, 3, 4, PR_MIXED, true, false},  {1024, 4, 0, 1, PR_50, true, false},
        {1024, 5, 2, 4, PR_MIXED, true, false}, /* three digits, dnum four */
        {2048, 7, 3, 3, PR_50, true, false},     {1024, 45, 15, 3, PR_TOP, false, false},
        {4096, 56, 4, 4, PR_MIXED, false, false}, {8192, 20, 5, 2, PR_TOP, false, false},
        {65536, 24, 15, 2, PR_50, false, false}, {65536, 45, 15, 3, PR_TOP, false, false},
        {1024, 12, 4, 3, PR_TOP, true, true}, {2048, 45, 15, 3, PR_TOP, false, true},
        {65536, 45, 15, 3, PR_TOP, false, true},
    };
    for (size_t i = 0; i < COUNT(cfs); i++)
        if (cfs[i].n <= ((size_t)1 << max_log)) run_config(&cfs[i]);
}

/* ---- errors -------------------------------------------------------------------- */

static void test_errors(void)
{
    const size_t n = 1024;
    uint64_t q[3], p[2];
    make_primes(q, 3, n, PR_TOP, NULL, 0);
    make_primes(p, 2, n, PR_TOP, q, 3);
    ntt_rns_params prm = {.n = n, .q = q, .q_count = 3, .p = p, .p_count = 2, .dnum = 2,
                          .backend = NTT_BACKEND_CUDA};
    ntt_rns *d = NULL, *h = NULL;
    CHECK_STATUS(NTT_OK, ntt_rns_create(&d, &prm), "create cuda");
    prm.backend = NTT_BACKEND_AUTO;
    CHECK_STATUS(NTT_OK, ntt_rns_create(&h, &prm), "create host");
    prm.backend = NTT_BACKEND_CUDA;
    prm.threads = 2;
    ntt_rns *bad = (ntt_rns *)&prm;
    CHECK_STATUS(NTT_EINVAL, ntt_rns_create(&bad, &prm), "cuda with threads 2");
    CHECK(bad == NULL, "ctx not NULL after a failed create");
    if (!d || !h) return;
    const size_t e = 3 + 2, kl = 2 * 2 * 5;
    uint64_t *x = dalloc(4 * e * n), *y = dalloc(4 * e * n), *key = dalloc(kl * n);
    uint64_t *hx = xmalloc(e * n * 8), *hy = xmalloc(e * n * 8);
    memset(hx, 0, e * n * 8);
    const size_t limbs[3] = {0, 1, 2}, dup[2] = {1, 1}, far[1] = {5}, to[2] = {3, 4};
    ntt_cuda_stream st = stream;

    /* The wrong kind of context. */
    CHECK_STATUS(NTT_EUNSUPPORTED, ntt_rns_forward(d, n, limbs, 3, hx), "host call on cuda ctx");
    CHECK_STATUS(NTT_EUNSUPPORTED, ntt_rns_rescale(d, n, 2, hx, 3, hy, 2), "host rescale on cuda");
    CHECK_STATUS(NTT_EUNSUPPORTED, ntt_rns_keyswitch(d, n, 2, hx, 3, hx, kl, hy, hy, 3),
                 "host keyswitch on cuda ctx (args bad too: checked after the kind)");
    CHECK_STATUS(NTT_EUNSUPPORTED, ntt_rns_cuda_forward(h, n, limbs, 3, x, st), "cuda call on host");
    CHECK_STATUS(NTT_EUNSUPPORTED, ntt_rns_cuda_moddown(h, n, 2, x, e, y, 3, st), "moddown host");
    CHECK_EQ(0, (uint64_t)ntt_rns_cuda_last_error(h), "last_error of a host ctx");
    CHECK_EQ(0, (uint64_t)ntt_rns_cuda_last_error(NULL), "last_error of NULL");
    CHECK_STATUS(NTT_EINVAL, ntt_rns_cuda_set_fusion(h, RNS_FUSE_ALL), "fusion on host ctx");
    CHECK_STATUS(NTT_EINVAL, ntt_rns_cuda_set_fusion(d, 32), "fusion bad mask");

    /* Arguments, each call with one thing wrong. */
    CHECK_STATUS(NTT_EINVAL, ntt_rns_cuda_forward(NULL, n, limbs, 3, x, st), "NULL ctx");
    CHECK_STATUS(NTT_EINVAL, ntt_rns_cuda_forward(d, n / 2, limbs, 3, x, st), "n");
    CHECK_STATUS(NTT_EINVAL, ntt_rns_cuda_forward(d, n, dup, 2, x, st), "limb twice");
    CHECK_STATUS(NTT_EINVAL, ntt_rns_cuda_inverse(d, n, far, 1, x, st), "limb out of range");
    CHECK_STATUS(NTT_EINVAL, ntt_rns_cuda_inverse(d, n, limbs, 0, x, st), "count 0");
    CHECK_STATUS(NTT_EINVAL, ntt_rns_cuda_inverse(d, n, limbs, 3, NULL, st), "NULL data");
    CHECK_STATUS(NTT_EINVAL, ntt_rns_cuda_fastbconv(d, n, limbs, 3, x, limbs + 2, 1, y, st),
                 "a limb in both lists");
    CHECK_STATUS(NTT_EINVAL, ntt_rns_cuda_fastbconv(d, n, limbs, 3, x, to, 2, x + n, st),
                 "conversion output overlaps input");
    CHECK_STATUS(NTT_EINVAL, ntt_rns_cuda_modup(d, n, 2, 2, x, 1, y, e, st), "digit past level");
    CHECK_STATUS(NTT_EINVAL, ntt_rns_cuda_modup(d, n, 2, 0, x, 1, y, e, st), "in_limbs");
    CHECK_STATUS(NTT_EINVAL, ntt_rns_cuda_modup(d, n, 2, 0, x, 2, y, e - 1, st), "out_limbs");
    CHECK_STATUS(NTT_EINVAL, ntt_rns_cuda_modup(d, n, 3, 0, x, 2, y, e + 1, st), "level");
    CHECK_STATUS(NTT_EINVAL, ntt_rns_cuda_moddown(d, n, 2, x, e, x + n, 3, st),
                 "moddown partial overlap");
    CHECK_STATUS(NTT_EINVAL, ntt_rns_cuda_moddown(d, n, 1, x, e, y, 2, st), "moddown in_limbs");
    CHECK_STATUS(NTT_EINVAL, ntt_rns_cuda_rescale(d, n, 0, x, 1, y, 0, st), "rescale level 0");
    CHECK_STATUS(NTT_EINVAL, ntt_rns_cuda_rescale(d, n, 2, x, 3, y, 3, st), "rescale out_limbs");
    CHECK_STATUS(NTT_EINVAL, ntt_rns_cuda_ks_inner(d, n, 2, x, 2 * e, key, kl - 1, y, y + e * n, e,
                                                   st),
                 "key_limbs");
    CHECK_STATUS(NTT_EINVAL, ntt_rns_cuda_ks_inner(d, n, 2, x, 2 * e, key, kl, y, y + n, e, st),
                 "acc0 and acc1 overlap");
    CHECK_STATUS(NTT_EINVAL, ntt_rns_cuda_ks_inner(d, n, 2, x, e, key, kl, y, y + e * n, e, st),
                 "ext_limbs (two digits at level 2)");
    CHECK_STATUS(NTT_EINVAL, ntt_rns_cuda_keyswitch(d, n, 2, x, 3, key, kl, x, y, 3, st),
                 "keyswitch out0 is the input");
    CHECK_STATUS(NTT_EINVAL, ntt_rns_cuda_keyswitch(d, n, 2, x, 3, key, kl, y, y, 3, st),
                 "keyswitch out0 == out1");
    CHECK_STATUS(NTT_EINVAL, ntt_rns_cuda_keyswitch(d, n, 2, x, 2, key, kl, y, y + 3 * n, 3, st),
                 "keyswitch in_limbs");
    cudaDeviceSynchronize();

    /* A context without P: the stages that need it refuse. */
    ntt_rns *d0 = NULL;
    prm.threads = 0;
    prm.p_count = 0;
    prm.dnum = 1;
    CHECK_STATUS(NTT_OK, ntt_rns_create(&d0, &prm), "create cuda K=0");
    if (d0) {
        CHECK_STATUS(NTT_EINVAL, ntt_rns_cuda_moddown(d0, n, 2, x, 3, y, 3, st), "moddown K=0");
        CHECK_STATUS(NTT_EINVAL, ntt_rns_cuda_modup(d0, n, 2, 0, x, 3, y, 3, st), "modup K=0");
        CHECK_STATUS(NTT_OK, ntt_rns_cuda_rescale(d0, n, 2, x, 3, y, 2, st), "rescale K=0");
        cudaStreamSynchronize(stream);
    }
    ntt_rns_destroy(d0);
    cudaFree(x);
    cudaFree(y);
    cudaFree(key);
    free(hx);
    free(hy);
    ntt_rns_destroy(d);
    ntt_rns_destroy(h);
}

int main(void)
{
    test_init("test_rns_cuda");
    if (!ntt_backend_available(NTT_BACKEND_CUDA)) {
        printf("test_rns_cuda: no usable CUDA device: skipped\n");
        return TEST_SKIP;
    }
    const char *ml = getenv("NTT_TEST_MAX_LOG");
    if (ml) max_log = atoi(ml) < 10 ? 10 : atoi(ml) > 16 ? 16 : (unsigned)atoi(ml);
    if (cudaStreamCreate(&stream) != cudaSuccess) return 2;
    test_errors();
    test_configs();
    cudaStreamDestroy(stream);
    return test_finish();
}
