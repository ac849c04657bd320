/*
 * test_ckks_cuda: the CKKS operations on device pointers (ntt_ckks_cuda_*,
 * ntt_ckks.h) against the host forms on a scalar CPU context of the same
 * parameters, word for word: HMult with and without rescale, the
 * plaintext product and sum, the sum, rescale, rotations, conjugation,
 * hoisted rotations, their sum and the automorphism, in place and out of place, at
 * every level from L down.  On a GPU also replayed from a captured CUDA
 * graph (the CPU stand-in has no graphs).  Then the calls on the wrong
 * kind of context and a few argument errors.  Keys and ciphertexts are
 * made by the CPU context and copied over.  N = 2^10 .. 2^14
 * (NTT_TEST_MAX_LOG caps it: 10 on the stand-in).  Exits 77 without a
 * usable CUDA device.
 */
#include "ntt_ckks.h"
#include "test_common.h"

#include <cuda_runtime_api.h>
#include <stdlib.h>
#include <string.h>

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))
enum { NQ = 4, NP = 2, NROT = 4 };
static const uint64_t DELTA = (uint64_t)1 << 40;

static unsigned max_log = 14;
static cudaStream_t stream;
static uint64_t qs[NQ], ps[NP];

static void *dalloc(size_t words)
{
    void *p = NULL;
    if (cudaMalloc(&p, words * 8) != cudaSuccess) {
        fprintf(stderr, "test_ckks_cuda: cudaMalloc of %zu words failed\n", words);
        exit(2);
    }
    return p;
}
static void up(void *d, const void *h, size_t words)
{
    if (cudaMemcpy(d, h, words * 8, cudaMemcpyHostToDevice) != cudaSuccess) exit(2);
}
static void down(void *h, const void *d, size_t words, const char *what)
{
    cudaError_t e = cudaStreamSynchronize(stream);
    if (e == cudaSuccess) e = cudaMemcpy(h, d, words * 8, cudaMemcpyDeviceToHost);
    CHECK(e == cudaSuccess, "%s: CUDA error %d", what, (int)e);
}

static ntt_ckks_ct hct(size_t n) { return (ntt_ckks_ct){xmalloc(NQ * n * 8), xmalloc(NQ * n * 8), n, 0, NQ}; }
static ntt_ckks_ct dct(size_t n) { return (ntt_ckks_ct){dalloc(NQ * n), dalloc(NQ * n), n, 0, NQ}; }
static void hfree(ntt_ckks_ct *c)
{
    free(c->c0);
    free(c->c1);
}
static void dfree(ntt_ckks_ct *c)
{
    cudaFree(c->c0);
    cudaFree(c->c1);
}
static void ct_up(ntt_ckks_ct *d, const ntt_ckks_ct *h)
{
    up(d->c0, h->c0, (h->level + 1) * h->n);
    up(d->c1, h->c1, (h->level + 1) * h->n);
    d->level = h->level;
}
/* The device ciphertext's words and level equal the host one's. */
static void ct_same(const ntt_ckks_ct *h, const ntt_ckks_ct *d, const char *what, size_t l)
{
    const size_t w = (h->level + 1) * h->n;
    uint64_t *g = xmalloc(2 * w * 8);
    CHECK_EQ(h->level, d->level, "%s l=%zu: level", what, l);
    down(g, d->c0, w, what);
    down(g + w, d->c1, w, what);
    CHECK_ARR64(h->c0, g, w, "%s l=%zu: c0 device vs host", what, l);
    CHECK_ARR64(h->c1, g + w, w, "%s l=%zu: c1 device vs host", what, l);
    free(g);
}

typedef struct {
    size_t n, kl;
    ntt_rns *hr, *dr;
    ntt_ckks *h, *d;
} env;

static bool env_make(env *e, size_t n, size_t dnum)
{
    ntt_rns_params pa = {.n = n, .q = qs, .q_count = NQ, .p = ps, .p_count = NP, .dnum = dnum,
                         .backend = NTT_BACKEND_SCALAR};
    e->n = n;
    CHECK_STATUS(NTT_OK, ntt_rns_create(&e->hr, &pa), "host rns");
    pa.backend = NTT_BACKEND_CUDA;
    CHECK_STATUS(NTT_OK, ntt_rns_create(&e->dr, &pa), "device rns");
    if (!e->hr || !e->dr) return false;
    CHECK_STATUS(NTT_OK, ntt_ckks_create(&e->h, e->hr), "host ckks");
    CHECK_STATUS(NTT_OK, ntt_ckks_create(&e->d, e->dr), "device ckks");
    e->kl = ntt_ckks_key_limbs(e->h);
    return e->h && e->d;
}
static void env_free(env *e)
{
    ntt_ckks_destroy(e->h);
    ntt_ckks_destroy(e->d);
    ntt_rns_destroy(e->hr);
    ntt_rns_destroy(e->dr);
}

static void test_config(size_t n, size_t dnum)
{
    env e;
    if (!env_make(&e, n, dnum)) return;
    printf("  N=%zu L+1=%d K=%d dnum=%zu\n", n, NQ, NP, dnum);
    const size_t kl = e.kl, top = NQ - 1;
    int8_t *s = xmalloc(n);
    uint64_t *rlk = xmalloc(kl * n * 8), *gk[NROT], *drlk = dalloc(kl * n), *dgk[NROT];
    uint64_t g[NROT] = {ntt_ckks_galois_rot(e.h, 1), ntt_ckks_galois_rot(e.h, 5),
                        ntt_ckks_galois_rot(e.h, -2), ntt_ckks_galois_conj(e.h)};
    CHECK_STATUS(NTT_OK, ntt_ckks_secret_gen(e.h, 7, s, n), "secret");
    CHECK_STATUS(NTT_OK, ntt_ckks_keygen_relin(e.h, s, n, 8, rlk, kl), "relin key");
    up(drlk, rlk, kl * n);
    for (int i = 0; i < NROT; i++) {
        gk[i] = xmalloc(kl * n * 8);
        dgk[i] = dalloc(kl * n);
        CHECK_STATUS(NTT_OK, ntt_ckks_keygen_galois(e.h, s, n, g[i], 9 + (uint64_t)i, gk[i], kl),
                     "galois key");
        up(dgk[i], gk[i], kl * n);
    }
    int64_t *m1 = xmalloc(n * 8), *m2 = xmalloc(n * 8);
    for (size_t i = 0; i < n; i++) {
        m1[i] = (int64_t)rnd_range(0, 6) - 3;
        m2[i] = (int64_t)rnd_range(0, 6) - 3;
    }
    ntt_ckks_ct ha = hct(n), hb = hct(n), hc = hct(n), da = dct(n), db = dct(n), dc = dct(n);
    ntt_ckks_ct hr[NROT], dro[NROT];
    for (int i = 0; i < NROT; i++) {
        hr[i] = hct(n);
        dro[i] = dct(n);
    }
    uint64_t *pt = xmalloc(NQ * n * 8), *dpt = dalloc(NQ * n);
    CHECK_STATUS(NTT_OK, ntt_ckks_encrypt(e.h, s, n, m1, DELTA, top, 1, &ha), "encrypt");
    CHECK_STATUS(NTT_OK, ntt_ckks_encrypt(e.h, s, n, m2, DELTA, top, 2, &hb), "encrypt");
    CHECK_STATUS(NTT_OK, ntt_ckks_plain(e.h, n, m2, DELTA, top, pt, NQ), "plain");
    up(dpt, pt, NQ * n);
    const uint64_t *const hk[NROT] = {gk[0], gk[1], gk[2], gk[3]};
    const uint64_t *const dk[NROT] = {dgk[0], dgk[1], dgk[2], dgk[3]};

    for (size_t l = top;; l--) {
        ntt_ckks_ct a = ha, b = hb;
        a.level = b.level = l;
        ct_up(&da, &a);
        ct_up(&db, &b);
        for (int rs = 0; rs <= (l > 0); rs++) {
            CHECK_STATUS(NTT_OK, ntt_ckks_mul(e.h, &a, &b, rlk, kl, rs, &hc), "host mul");
            CHECK_STATUS(NTT_OK, ntt_ckks_cuda_mul(e.d, &da, &db, drlk, kl, rs, &dc, stream), "mul");
            ct_same(&hc, &dc, rs ? "HMult+rescale" : "HMult", l);
        }
        CHECK_STATUS(NTT_OK, ntt_ckks_mul_plain(e.h, &a, pt, NQ, &hc), "host mul_plain");
        CHECK_STATUS(NTT_OK, ntt_ckks_cuda_mul_plain(e.d, &da, dpt, NQ, &dc, stream), "mul_plain");
        ct_same(&hc, &dc, "mul_plain", l);
        CHECK_STATUS(NTT_OK, ntt_ckks_add_plain(e.h, &a, pt, NQ, &hc), "host add_plain");
        CHECK_STATUS(NTT_OK, ntt_ckks_cuda_add_plain(e.d, &da, dpt, NQ, &dc, stream), "add_plain");
        ct_same(&hc, &dc, "add_plain", l);
        CHECK_STATUS(NTT_OK, ntt_ckks_add(e.h, &a, &b, &hc), "host add");
        CHECK_STATUS(NTT_OK, ntt_ckks_cuda_add(e.d, &da, &db, &dc, stream), "add");
        ct_same(&hc, &dc, "add", l);
        if (l > 0) {
            CHECK_STATUS(NTT_OK, ntt_ckks_rescale(e.h, &a, &hc), "host rescale");
            CHECK_STATUS(NTT_OK, ntt_ckks_cuda_rescale(e.d, &da, &dc, stream), "rescale");
            ct_same(&hc, &dc, "rescale", l);
        }
        CHECK_STATUS(NTT_OK, ntt_ckks_rotate(e.h, &a, 1, gk[0], kl, &hc), "host rotate");
        CHECK_STATUS(NTT_OK, ntt_ckks_cuda_rotate(e.d, &da, 1, dgk[0], kl, &dc, stream), "rotate");
        ct_same(&hc, &dc, "rotate 1", l);
        CHECK_STATUS(NTT_OK, ntt_ckks_conjugate(e.h, &a, gk[3], kl, &hc), "host conjugate");
        CHECK_STATUS(NTT_OK, ntt_ckks_cuda_conjugate(e.d, &da, dgk[3], kl, &dc, stream), "conj");
        ct_same(&hc, &dc, "conjugate", l);
        CHECK_STATUS(NTT_OK, ntt_ckks_rotate_hoisted(e.h, &a, g, NROT, hk, kl, hr), "host hoisted");
        CHECK_STATUS(NTT_OK, ntt_ckks_cuda_rotate_hoisted(e.d, &da, g, NROT, dk, kl, dro, stream),
                     "hoisted");
        for (int i = 0; i < NROT; i++) ct_same(&hr[i], &dro[i], "hoisted", l);
        CHECK_STATUS(NTT_OK, ntt_ckks_rotate_sum(e.h, &a, g, NROT, hk, kl, &hc), "host sum");
        CHECK_STATUS(NTT_OK, ntt_ckks_cuda_rotate_sum(e.d, &da, g, NROT, dk, kl, &dc, stream), "sum");
        ct_same(&hc, &dc, "rotate_sum", l);
        CHECK_STATUS(NTT_OK, ntt_ckks_automorphism(e.h, n, g[1], a.c0, l + 1, hc.c0), "host auto");
        CHECK_STATUS(NTT_OK, ntt_ckks_cuda_automorphism(e.d, n, g[1], da.c0, l + 1, dc.c0, stream),
                     "automorphism");
        {
            uint64_t *got = xmalloc((l + 1) * n * 8);
            down(got, dc.c0, (l + 1) * n, "automorphism");
            CHECK_ARR64(hc.c0, got, (l + 1) * n, "automorphism l=%zu device vs host", l);
            free(got);
        }
        /* in place: out == in exactly (rotation, then HMult with rescale) */
        CHECK_STATUS(NTT_OK, ntt_ckks_cuda_rotate(e.d, &da, 5, dgk[1], kl, &da, stream), "in place");
        ct_same(&hr[1], &da, "rotate in place", l);
        if (l > 0) {
            ct_up(&da, &a);
            CHECK_STATUS(NTT_OK, ntt_ckks_mul(e.h, &a, &b, rlk, kl, 1, &hc), "host mul");
            CHECK_STATUS(NTT_OK, ntt_ckks_cuda_mul(e.d, &da, &db, drlk, kl, 1, &da, stream), "mul");
            ct_same(&hc, &da, "HMult+rescale in place", l);
            ct_up(&da, &a);
            CHECK_STATUS(NTT_OK, ntt_ckks_rescale(e.h, &a, &hc), "host rescale");
            CHECK_STATUS(NTT_OK, ntt_ckks_cuda_rescale(e.d, &da, &da, stream), "rescale in place");
            ct_same(&hc, &da, "rescale in place", l);
        }
        /* the sum in place, and hoisted rotations with one output the input */
        ct_up(&da, &a);
        CHECK_STATUS(NTT_OK, ntt_ckks_rotate_sum(e.h, &a, g, NROT, hk, kl, &hc), "host sum");
        CHECK_STATUS(NTT_OK, ntt_ckks_cuda_rotate_sum(e.d, &da, g, NROT, dk, kl, &da, stream),
                     "sum in place");
        ct_same(&hc, &da, "rotate_sum in place", l);
        ct_up(&da, &a);
        {
            ntt_ckks_ct outs[NROT] = {dro[0], da, dro[2], dro[3]};
            CHECK_STATUS(NTT_OK, ntt_ckks_cuda_rotate_hoisted(e.d, &da, g, NROT, dk, kl, outs, stream),
                         "hoisted, output 1 the input");
            for (int i = 0; i < NROT; i++) ct_same(&hr[i], &outs[i], "hoisted, output 1 the input", l);
        }
        if (l == 0) break;
    }

#ifndef NTT_TEST_EMU
    /* HMult with rescale, then a rotation, captured once and replayed. */
    {
        ct_up(&da, &ha);
        ct_up(&db, &hb);
        ntt_ckks_ct hm = hct(n), dm = dct(n);
        CHECK_STATUS(NTT_OK, ntt_ckks_mul(e.h, &ha, &hb, rlk, kl, 1, &hm), "host mul");
        CHECK_STATUS(NTT_OK, ntt_ckks_rotate(e.h, &hm, 1, gk[0], kl, &hc), "host rotate");
        cudaGraph_t graph;
        cudaGraphExec_t exec;
        CHECK(cudaStreamBeginCapture(stream, cudaStreamCaptureModeThreadLocal) == cudaSuccess,
              "capture");
        CHECK_STATUS(NTT_OK, ntt_ckks_cuda_mul(e.d, &da, &db, drlk, kl, 1, &dm, stream), "mul");
        CHECK_STATUS(NTT_OK, ntt_ckks_cuda_rotate(e.d, &dm, 1, dgk[0], kl, &dc, stream), "rot");
        CHECK(cudaStreamEndCapture(stream, &graph) == cudaSuccess, "end capture");
        CHECK(cudaGraphInstantiate(&exec, graph, 0) == cudaSuccess, "instantiate");
        for (int r = 0; r < 2; r++) {
            cudaMemset(dc.c0, 0, NQ * n * 8);
            CHECK(cudaGraphLaunch(exec, stream) == cudaSuccess, "graph launch");
            ct_same(&hc, &dc, "graph: HMult+rescale, rotate", r);
        }
        cudaGraphExecDestroy(exec);
        cudaGraphDestroy(graph);
        hfree(&hm);
        dfree(&dm);
    }
#endif

    /* the wrong kind of context, and argument errors on the device forms */
    {
        ntt_ckks_ct a = ha;
        CHECK_STATUS(NTT_EUNSUPPORTED, ntt_ckks_cuda_add(e.h, &a, &a, &hc, stream), "device call, CPU context");
        CHECK_STATUS(NTT_EUNSUPPORTED, ntt_ckks_add(e.d, &da, &da, &dc), "host call, CUDA context");
        CHECK_STATUS(NTT_EUNSUPPORTED, ntt_ckks_mul(e.d, &da, &db, drlk, kl, 0, &dc), "host mul, CUDA");
        CHECK_STATUS(NTT_EUNSUPPORTED, ntt_ckks_encrypt(e.d, s, n, m1, DELTA, top, 1, &hc), "encrypt, CUDA");
        CHECK_STATUS(NTT_EUNSUPPORTED, ntt_ckks_keygen_relin(e.d, s, n, 1, rlk, kl), "keygen, CUDA");
        ntt_ckks_ct bad = da;
        bad.level = NQ;
        CHECK_STATUS(NTT_EINVAL, ntt_ckks_cuda_mul(e.d, &bad, &db, drlk, kl, 0, &dc, stream), "level");
        bad = da;
        bad.level = 0;
        CHECK_STATUS(NTT_EINVAL, ntt_ckks_cuda_rescale(e.d, &bad, &dc, stream), "rescale at 0");
        CHECK_STATUS(NTT_EINVAL, ntt_ckks_cuda_mul(e.d, &da, &db, drlk, kl + 1, 0, &dc, stream), "key_limbs");
        CHECK_STATUS(NTT_EINVAL, ntt_ckks_cuda_rotate_hoisted(e.d, &da, g, 0, dk, kl, dro, stream), "r = 0");
        uint64_t even = 6;
        CHECK_STATUS(NTT_EINVAL, ntt_ckks_cuda_rotate_hoisted(e.d, &da, &even, 1, dk, kl, dro, stream), "g");
        CHECK_EQ(0, ntt_ckks_cuda_last_error(e.d), "no CUDA error");
    }

    for (int i = 0; i < NROT; i++) {
        hfree(&hr[i]);
        dfree(&dro[i]);
        free(gk[i]);
        cudaFree(dgk[i]);
    }
    hfree(&ha);
    hfree(&hb);
    hfree(&hc);
    dfree(&da);
    dfree(&db);
    dfree(&dc);
    free(pt);
    cudaFree(dpt);
    cudaFree(drlk);
    free(rlk);
    free(s);
    free(m1);
    free(m2);
    env_free(&e);
}

int main(void)
{
    test_init("test_ckks_cuda");
    if (!ntt_backend_available(NTT_BACKEND_CUDA)) {
        printf("test_ckks_cuda: no usable CUDA device: skipped\n");
        return TEST_SKIP;
    }
    const char *ml = getenv("NTT_TEST_MAX_LOG");
    if (ml) max_log = atoi(ml) < 10 ? 10 : atoi(ml) > 16 ? 16 : (unsigned)atoi(ml);
    if (cudaStreamCreate(&stream) != cudaSuccess) return 2;
    CHECK_STATUS(NTT_OK, ntt_find_prime(60, 17, 0, &qs[0]), "q0");
    for (unsigned i = 1; i < NQ; i++) CHECK_STATUS(NTT_OK, ntt_find_prime(41, 17, i - 1, &qs[i]), "q");
    for (unsigned i = 0; i < NP; i++) CHECK_STATUS(NTT_OK, ntt_find_prime(61, 17, i, &ps[i]), "p");
    static const struct {
        unsigned logn;
        size_t dnum;
    } cfg[] = {{10, 2}, {10, 4}, {12, 3}, {14, 2}};
    for (size_t i = 0; i < COUNT(cfg); i++)
        if (cfg[i].logn <= max_log) test_config((size_t)1 << cfg[i].logn, cfg[i].dnum);
    cudaStreamDestroy(stream);
    return test_finish();
}
