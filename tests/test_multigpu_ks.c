/* libntt_multigpu's key switch with the RNS limbs partitioned across GPUs
   (ntt_mgpu_keyswitch, ntt_multigpu.h): word for word against one GPU's
   ntt_rns_cuda_keyswitch and the CPU's ntt_rns_keyswitch, at every level,
   device and host pointers, on contexts of 1 (no collectives), 2, 3 and
   all GPUs, with uneven splits (limbs not divisible by the GPUs, GPUs
   owning no P limb or no limb at all, digits spanning GPUs); the
   ownership against the documented rule; the collectives and bytes
   counted against the layout; two key switches back to back; bad
   arguments, each with its status and nothing written.  Runs on GPUs
   (label gpu; 77 with fewer than two) and, as test_multigpu_ks_emu, on
   the CPU stand-ins of CUDA and NCCL (tests/cuda_emu, tests/nccl_emu).
   NTT_TEST_MAX_LOG bounds N. */
#include "mgpu_test.h"
#include "test_common.h"

#include <cuda_runtime_api.h>
#include <stdlib.h>
#include <string.h>

#define MAXG NTT_MGPU_MAX_LOCAL

static unsigned max_log = 16;

/* words on device dev (NULL for none). */
static uint64_t *dalloc(int dev, size_t words)
{
    if (!words) return NULL;
    void *p = NULL;
    if (cudaSetDevice(dev) != cudaSuccess || cudaMalloc(&p, words * 8) != cudaSuccess) {
        fprintf(stderr, "test_multigpu_ks: cudaMalloc of %zu words on device %d failed\n", words, dev);
        exit(2);
    }
    return p;
}

static void dfree(int dev, void *p)
{
    if (!p) return;
    (void)cudaSetDevice(dev);
    cudaFree(p);
}

static void up(int dev, uint64_t *d, const uint64_t *h, size_t words)
{
    if (!words) return;
    if (cudaSetDevice(dev) != cudaSuccess || cudaMemcpy(d, h, words * 8, cudaMemcpyHostToDevice) != cudaSuccess) {
        fprintf(stderr, "test_multigpu_ks: upload failed\n");
        exit(2);
    }
}

static void down(int dev, uint64_t *h, const uint64_t *d, size_t words)
{
    if (!words) return;
    if (cudaSetDevice(dev) != cudaSuccess || cudaDeviceSynchronize() != cudaSuccess ||
        cudaMemcpy(h, d, words * 8, cudaMemcpyDeviceToHost) != cudaSuccess) {
        fprintf(stderr, "test_multigpu_ks: download failed\n");
        exit(2);
    }
}

/* nq + np distinct primes below 2^61 with 2n | p - 1, P's among Q's so
   that both lists mix sizes. */
static void make_primes(uint64_t *q, size_t nq, uint64_t *p, size_t np, size_t n)
{
    size_t iq = 0, ip = 0;
    for (size_t k = 0; k < nq + np; k++) {
        uint64_t x;
        if (ntt_find_prime(61, t_log2(n) + 1, (unsigned)k, &x) != NTT_OK) {
            fprintf(stderr, "test_multigpu_ks: no prime\n");
            exit(2);
        }
        if ((k % 2 == 1 && ip < np) || iq == nq)
            p[ip++] = x;
        else
            q[iq++] = x;
    }
}

/* The documented ownership: the batches' range rule over L+1, its ceiling
   form over K. */
static size_t first_of(size_t total, int g, int G) { return (size_t)(((tu128)total * (unsigned)g) / (unsigned)G); }
static size_t pfirst_of(size_t total, int g, int G)
{
    return (size_t)(((tu128)total * (unsigned)g + (unsigned)G - 1) / (unsigned)G);
}

typedef struct {
    int G;
    ntt_mgpu_ctx *ctx;
    ntt_mgpu_ks *ks;
    ntt_rns *cpu, *one;
    size_t n, nq, np, dnum, nl, kl;
    const uint64_t *primes;
    uint64_t *key, *dkey1;           /* host key; device 0's copy for the one-GPU call */
    ntt_mgpu_ks_share sh[MAXG];      /* at level L */
    uint64_t *dkey[MAXG];            /* key shares */
    char tag[128];
} env;

static void random_poly(uint64_t *a, const env *E, size_t limbs, const size_t *limb_of)
{
    for (size_t i = 0; i < limbs; i++) rnd_fill64(a + i * E->n, E->n, E->primes[limb_of ? limb_of[i] : i]);
}

/* The key shares from the whole key (ntt_multigpu.h's share layout). */
static void upload_key_shares(env *E)
{
    const size_t n = E->n;
    for (int g = 0; g < E->G; g++) {
        const ntt_mgpu_ks_share *s = &E->sh[g];
        const size_t rows = s->q_count + s->p_count;
        E->dkey[g] = dalloc(g, 2 * E->dnum * rows * n);
        for (size_t poly = 0; poly < 2 * E->dnum; poly++) {
            const uint64_t *src = E->key + poly * E->nl * n;
            up(g, E->dkey[g] + poly * rows * n, src + s->q_first * n, s->q_count * n);
            up(g, E->dkey[g] + (poly * rows + s->q_count) * n, src + (E->nq + s->p_first) * n,
               s->p_count * n);
        }
    }
}

/* One GPU's CUDA key switch on device 0 (out1 right after out0 when
   `joined`, else apart). */
static void one_gpu(env *E, size_t l, const uint64_t *in, uint64_t *out, bool joined)
{
    const size_t n = E->n, q = l + 1;
    uint64_t *din = dalloc(0, q * n), *d0 = dalloc(0, 2 * q * n), *d1 = joined ? d0 + q * n : dalloc(0, q * n);
    up(0, din, in, q * n);
    (void)cudaSetDevice(0);
    CHECK_STATUS(NTT_OK, ntt_rns_cuda_keyswitch(E->one, n, l, din, q, E->dkey1, E->kl, d0, d1, q, NULL),
                 "%s one-GPU keyswitch l=%zu", E->tag, l);
    down(0, out, d0, q * n);
    down(0, out + q * n, d1, q * n);
    dfree(0, din);
    dfree(0, d0);
    if (!joined) dfree(0, d1);
}

/* Device shares of a level-l polynomial: input shares uploaded from in,
   output shares (out1 right after out0 when joined) filled with a pattern. */
typedef struct {
    uint64_t *in[MAXG], *o0[MAXG], *o1[MAXG];
    bool joined;
} shares;

static void shares_make(env *E, size_t l, const uint64_t *in, shares *S, bool joined)
{
    memset(S, 0, sizeof *S);
    S->joined = joined;
    const size_t n = E->n;
    for (int g = 0; g < E->G; g++) {
        ntt_mgpu_ks_share s;
        CHECK_STATUS(NTT_OK, ntt_mgpu_ks_share_of(E->ks, g, l, &s), "share");
        const size_t w = s.q_level * n;
        S->in[g] = dalloc(g, w);
        up(g, S->in[g], in + s.q_first * n, w);
        S->o0[g] = dalloc(g, joined ? 2 * w : w);
        S->o1[g] = joined ? (w ? S->o0[g] + w : NULL) : dalloc(g, w);
        if (w) {
            (void)cudaSetDevice(g);
            (void)cudaMemset(S->o0[g], 0x5a, (joined ? 2 : 1) * w * 8);
            if (!joined) (void)cudaMemset(S->o1[g], 0x5a, w * 8);
        }
    }
}

/* The output shares merged into out (out0 then out1, q limbs each). */
static void shares_merge(env *E, size_t l, const shares *S, uint64_t *out)
{
    const size_t n = E->n, q = l + 1;
    for (int g = 0; g < E->G; g++) {
        ntt_mgpu_ks_share s;
        CHECK_STATUS(NTT_OK, ntt_mgpu_ks_share_of(E->ks, g, l, &s), "share");
        down(g, out + s.q_first * n, S->o0[g], s.q_level * n);
        down(g, out + (q + s.q_first) * n, S->o1[g], s.q_level * n);
    }
}

static void shares_free(env *E, shares *S)
{
    for (int g = 0; g < E->G; g++) {
        dfree(g, S->in[g]);
        dfree(g, S->o0[g]);
        if (!S->joined) dfree(g, S->o1[g]);
    }
}

static ntt_status mgpu_call(env *E, size_t l, const shares *S)
{
    return ntt_mgpu_keyswitch(E->ks, E->n, l, (const uint64_t *const *)S->in, l + 1,
                              (const uint64_t *const *)E->dkey, E->kl, S->o0, S->o1, l + 1);
}

/* The counters of one key switch at level l against the layout. */
static void check_stats(env *E, size_t l, const ntt_mgpu_ks_stats *a, const ntt_mgpu_ks_stats *b)
{
    const int G = E->G;
    const size_t n = E->n, q = l + 1, alpha = ntt_rns_alpha(E->cpu), beta = ntt_rns_digits(E->cpu, l);
    const uint64_t w = (uint64_t)n * 8;
    uint64_t coll = 0;
    for (size_t j = 0; j < beta; j++) {
        const size_t f = j * alpha, e = f + alpha < q ? f + alpha : q;
        for (int g = 0; g < G; g++) {
            const size_t a0 = first_of(E->nq, g, G), a1 = first_of(E->nq, g + 1, G);
            coll += a0 < e && a1 > f;
        }
    }
    for (int g = 0; g < G; g++) coll += 2 * (pfirst_of(E->np, g + 1, G) > pfirst_of(E->np, g, G));
    coll *= (uint64_t)(G - 1); /* each owner sends to every peer */
    CHECK_EQ(1, b->calls - a->calls, "%s l=%zu calls", E->tag, l);
    CHECK_EQ(G > 1 ? beta + 1 : 0, b->groups - a->groups, "%s l=%zu groups", E->tag, l);
    CHECK_EQ(G > 1 ? coll : 0, b->collectives - a->collectives, "%s l=%zu collectives", E->tag, l);
    for (int g = 0; g < G; g++) {
        ntt_mgpu_ks_share s;
        CHECK_STATUS(NTT_OK, ntt_mgpu_ks_share_of(E->ks, g, l, &s), "share");
        const uint64_t up_b = G > 1 ? (q - s.q_level) * w : 0;
        const uint64_t dn_b = G > 1 ? 2 * (E->np - s.p_count) * w : 0;
        const uint64_t sent = (s.q_level + 2 * s.p_count) * (uint64_t)(G - 1) * w;
        CHECK_EQ(up_b, b->modup_bytes[g] - a->modup_bytes[g], "%s l=%zu GPU %d modUp bytes", E->tag, l, g);
        CHECK_EQ(dn_b, b->moddown_bytes[g] - a->moddown_bytes[g], "%s l=%zu GPU %d modDown bytes", E->tag, l, g);
        CHECK_EQ(sent, b->sent_bytes[g] - a->sent_bytes[g], "%s l=%zu GPU %d bytes sent", E->tag, l, g);
    }
    CHECK(b->total_s > 0 && b->compute_s > 0 && b->compute_s <= b->total_s + 1e-5 &&
              b->modup_gather_s >= 0 && b->moddown_gather_s >= 0,
          "%s l=%zu times: total %g compute %g gathers %g %g", E->tag, l, b->total_s,
          b->compute_s, b->modup_gather_s, b->moddown_gather_s);
}

static void check_level(env *E, size_t l)
{
    const size_t n = E->n, q = l + 1;
    uint64_t *in = xmalloc(q * n * 8), *ref = xmalloc(2 * q * n * 8), *got = xmalloc(2 * q * n * 8);
    random_poly(in, E, q, NULL);
    CHECK_STATUS(NTT_OK, ntt_rns_keyswitch(E->cpu, n, l, in, q, E->key, E->kl, ref, ref + q * n, q),
                 "%s CPU keyswitch l=%zu", E->tag, l);
    one_gpu(E, l, in, got, l % 2 == 0);
    CHECK_ARR64(ref, got, 2 * q * n, "%s l=%zu one GPU vs CPU", E->tag, l);

    /* device pointers */
    shares S;
    shares_make(E, l, in, &S, l % 2 == 1);
    ntt_mgpu_ks_stats a, b;
    CHECK_STATUS(NTT_OK, ntt_mgpu_ks_stats_get(E->ks, &a), "stats");
    CHECK_STATUS(NTT_OK, mgpu_call(E, l, &S), "%s mgpu keyswitch l=%zu", E->tag, l);
    CHECK_STATUS(NTT_OK, ntt_mgpu_sync(E->ctx), "sync");
    CHECK_STATUS(NTT_OK, ntt_mgpu_ks_stats_get(E->ks, &b), "stats");
    memset(got, 0, 2 * q * n * 8);
    shares_merge(E, l, &S, got);
    CHECK_ARR64(ref, got, 2 * q * n, "%s l=%zu %s, device pointers vs CPU", E->tag, l,
                S.joined ? "out1 after out0" : "outputs apart");
    check_stats(E, l, &a, &b);
    shares_free(E, &S);

    /* host pointers */
    memset(got, 0, 2 * q * n * 8);
    CHECK_STATUS(NTT_OK, ntt_mgpu_keyswitch_host(E->ks, n, l, in, q, E->key, E->kl, got, got + q * n, q),
                 "%s mgpu host keyswitch l=%zu", E->tag, l);
    CHECK_ARR64(ref, got, 2 * q * n, "%s l=%zu host pointers vs CPU", E->tag, l);
    free(in);
    free(ref);
    free(got);
}

/* Two key switches enqueued back to back (different inputs and outputs),
   one synchronisation. */
static void check_back_to_back(env *E)
{
    const size_t n = E->n, l = E->nq - 1, q = l + 1;
    uint64_t *in[2], *ref[2], *got = xmalloc(2 * q * n * 8);
    shares S[2];
    for (int k = 0; k < 2; k++) {
        in[k] = xmalloc(q * n * 8);
        ref[k] = xmalloc(2 * q * n * 8);
        random_poly(in[k], E, q, NULL);
        CHECK_STATUS(NTT_OK, ntt_rns_keyswitch(E->cpu, n, l, in[k], q, E->key, E->kl, ref[k],
                                               ref[k] + q * n, q), "CPU");
        shares_make(E, l, in[k], &S[k], k == 1);
    }
    for (int k = 0; k < 2; k++)
        CHECK_STATUS(NTT_OK, mgpu_call(E, l, &S[k]), "%s back to back %d", E->tag, k);
    CHECK_STATUS(NTT_OK, ntt_mgpu_sync(E->ctx), "sync");
    for (int k = 0; k < 2; k++) {
        shares_merge(E, l, &S[k], got);
        CHECK_ARR64(ref[k], got, 2 * q * n, "%s back to back, call %d", E->tag, k);
        shares_free(E, &S[k]);
        free(in[k]);
        free(ref[k]);
    }
    free(got);
}

/* Every device-pointer argument error: its status, and the outputs and
   counters untouched. */
static void check_bad_device(env *E)
{
    const size_t n = E->n, L = E->nq - 1, q = L + 1;
    uint64_t *in = xmalloc(q * n * 8), *got = xmalloc(2 * q * n * 8), *pat = xmalloc(2 * q * n * 8);
    random_poly(in, E, q, NULL);
    memset(pat, 0x5a, 2 * q * n * 8);
    shares S;
    shares_make(E, L, in, &S, false);
    ntt_mgpu_ks_stats a, b;
    CHECK_STATUS(NTT_OK, ntt_mgpu_ks_stats_get(E->ks, &a), "stats");
    const uint64_t *const *ci = (const uint64_t *const *)S.in, *const *ck = (const uint64_t *const *)E->dkey;
    ntt_mgpu_ks *ks = E->ks;
    const size_t kl = E->kl;
    CHECK_STATUS(NTT_EINVAL, ntt_mgpu_keyswitch(NULL, n, L, ci, q, ck, kl, S.o0, S.o1, q), "NULL ks");
    CHECK_STATUS(NTT_EINVAL, ntt_mgpu_keyswitch(ks, n / 2, L, ci, q, ck, kl, S.o0, S.o1, q), "n != N");
    CHECK_STATUS(NTT_EINVAL, ntt_mgpu_keyswitch(ks, n, L + 1, ci, L + 2, ck, kl, S.o0, S.o1, L + 2),
                 "level > L");
    CHECK_STATUS(NTT_EINVAL, ntt_mgpu_keyswitch(ks, n, L, ci, q + 1, ck, kl, S.o0, S.o1, q), "in_limbs");
    CHECK_STATUS(NTT_EINVAL, ntt_mgpu_keyswitch(ks, n, L, ci, q, ck, kl, S.o0, S.o1, q - 1), "out_limbs");
    CHECK_STATUS(NTT_EINVAL, ntt_mgpu_keyswitch(ks, n, L, ci, q, ck, kl - 1, S.o0, S.o1, q), "key_limbs");
    CHECK_STATUS(NTT_EINVAL, ntt_mgpu_keyswitch(ks, n, L, NULL, q, ck, kl, S.o0, S.o1, q), "NULL in");
    CHECK_STATUS(NTT_EINVAL, ntt_mgpu_keyswitch(ks, n, L, ci, q, NULL, kl, S.o0, S.o1, q), "NULL key");
    CHECK_STATUS(NTT_EINVAL, ntt_mgpu_keyswitch(ks, n, L, ci, q, ck, kl, NULL, S.o1, q), "NULL out0");
    CHECK_STATUS(NTT_EINVAL, ntt_mgpu_keyswitch(ks, n, L, ci, q, ck, kl, S.o0, NULL, q), "NULL out1");
    /* The last GPU has Q limbs at level L (ranges end at L+1). */
    const int g = E->G - 1;
    uint64_t *keep_in = S.in[g], *keep_o1 = S.o1[g], *keep_key = E->dkey[g];
    S.in[g] = NULL;
    CHECK_STATUS(NTT_EINVAL, mgpu_call(E, L, &S), "NULL input share of a GPU with limbs");
    S.in[g] = keep_in;
    E->dkey[g] = NULL;
    CHECK_STATUS(NTT_EINVAL, mgpu_call(E, L, &S), "NULL key share of a GPU with limbs");
    E->dkey[g] = keep_key;
    S.o1[g] = NULL;
    CHECK_STATUS(NTT_EINVAL, mgpu_call(E, L, &S), "NULL out1 share of a GPU with limbs");
    S.o1[g] = S.o0[g];
    CHECK_STATUS(NTT_EINVAL, mgpu_call(E, L, &S), "out1 == out0");
    S.o1[g] = S.o0[g] + E->sh[g].q_level * n - 1;
    CHECK_STATUS(NTT_EINVAL, mgpu_call(E, L, &S), "out1 overlapping out0 by a word");
    S.o1[g] = S.in[g];
    CHECK_STATUS(NTT_EINVAL, mgpu_call(E, L, &S), "out1 is the input");
    S.o1[g] = E->dkey[g] + n;
    CHECK_STATUS(NTT_EINVAL, mgpu_call(E, L, &S), "out1 inside the key share");
    S.o1[g] = keep_o1;
    CHECK_STATUS(NTT_OK, ntt_mgpu_ks_stats_get(E->ks, &b), "stats");
    CHECK_EQ(a.calls, b.calls, "%s: nothing enqueued after the errors", E->tag);
    CHECK_EQ(a.collectives, b.collectives, "%s: no collective after the errors", E->tag);
    for (int k = 0; k < E->G; k++) {
        ntt_mgpu_ks_share s;
        CHECK_STATUS(NTT_OK, ntt_mgpu_ks_share_of(E->ks, k, L, &s), "share");
        down(k, got, S.o0[k], s.q_level * n);
        down(k, got + s.q_level * n, S.o1[k], s.q_level * n);
        CHECK_MEM(pat, got, 2 * s.q_level * n * 8, "%s: GPU %d's outputs untouched", E->tag, k);
    }
    CHECK_STATUS(NTT_EINVAL, ntt_mgpu_ks_stats_get(NULL, &b), "stats of NULL");
    CHECK_STATUS(NTT_EINVAL, ntt_mgpu_ks_stats_get(E->ks, NULL), "stats into NULL");
    shares_free(E, &S);
    free(in);
    free(got);
    free(pat);
}

/* At level 0 only GPU 0 holds Q limbs: the others may pass NULL shares
   (and a GPU owning no P limb, NULL for its key share too). */
static void check_null_shares(env *E)
{
    const size_t n = E->n;
    uint64_t *in = xmalloc(n * 8), *ref = xmalloc(2 * n * 8), *got = xmalloc(2 * n * 8);
    random_poly(in, E, 1, NULL);
    CHECK_STATUS(NTT_OK, ntt_rns_keyswitch(E->cpu, n, 0, in, 1, E->key, E->kl, ref, ref + n, 1), "CPU");
    shares S;
    shares_make(E, 0, in, &S, false);
    uint64_t *keys[MAXG];
    int nulls = 0;
    for (int g = 0; g < E->G; g++) {
        ntt_mgpu_ks_share s;
        CHECK_STATUS(NTT_OK, ntt_mgpu_ks_share_of(E->ks, g, 0, &s), "share");
        keys[g] = s.q_level + s.p_count ? E->dkey[g] : NULL;
        nulls += !S.in[g] + !keys[g];
    }
    CHECK(nulls > 0, "%s: some GPU without limbs at level 0", E->tag);
    CHECK_STATUS(NTT_OK, ntt_mgpu_keyswitch(E->ks, n, 0, (const uint64_t *const *)S.in, 1,
                                            (const uint64_t *const *)keys, E->kl, S.o0, S.o1, 1),
                 "%s: NULL shares of GPUs without limbs", E->tag);
    CHECK_STATUS(NTT_OK, ntt_mgpu_sync(E->ctx), "sync");
    shares_merge(E, 0, &S, got);
    CHECK_ARR64(ref, got, 2 * n, "%s: level 0 with NULL shares", E->tag);
    shares_free(E, &S);
    free(in);
    free(ref);
    free(got);
}

static void check_bad_host(env *E)
{
    const size_t n = E->n, L = E->nq - 1, q = L + 1, kl = E->kl;
    uint64_t *in = xmalloc(q * n * 8), *out = xmalloc(2 * q * n * 8), *pat = xmalloc(2 * q * n * 8);
    random_poly(in, E, q, NULL);
    memset(out, 0x77, 2 * q * n * 8);
    memcpy(pat, out, 2 * q * n * 8);
    uint64_t *o1 = out + q * n;
    ntt_mgpu_ks *ks = E->ks;
    const uint64_t *key = E->key;
    CHECK_STATUS(NTT_EINVAL, ntt_mgpu_keyswitch_host(NULL, n, L, in, q, key, kl, out, o1, q), "NULL ks");
    CHECK_STATUS(NTT_EINVAL, ntt_mgpu_keyswitch_host(ks, n + 1, L, in, q, key, kl, out, o1, q), "n");
    CHECK_STATUS(NTT_EINVAL, ntt_mgpu_keyswitch_host(ks, n, q, in, q + 1, key, kl, out, o1, q + 1), "level");
    CHECK_STATUS(NTT_EINVAL, ntt_mgpu_keyswitch_host(ks, n, L, NULL, q, key, kl, out, o1, q), "NULL in");
    CHECK_STATUS(NTT_EINVAL, ntt_mgpu_keyswitch_host(ks, n, L, in, q, NULL, kl, out, o1, q), "NULL key");
    CHECK_STATUS(NTT_EINVAL, ntt_mgpu_keyswitch_host(ks, n, L, in, q, key, kl, NULL, o1, q), "NULL out0");
    CHECK_STATUS(NTT_EINVAL, ntt_mgpu_keyswitch_host(ks, n, L, in, q, key, kl, out, out, q), "out1 == out0");
    CHECK_STATUS(NTT_EINVAL, ntt_mgpu_keyswitch_host(ks, n, L, in, q, key, kl, out, out + n, q),
                 "out1 overlapping out0");
    CHECK_STATUS(NTT_EINVAL, ntt_mgpu_keyswitch_host(ks, n, L, in, q, key, kl, in, o1, q), "out0 is in");
    CHECK_STATUS(NTT_EINVAL, ntt_mgpu_keyswitch_host(ks, n, L, in, q, key, kl, out, (uint64_t *)key, q),
                 "out1 is the key");
    CHECK_STATUS(NTT_EINVAL, ntt_mgpu_keyswitch_host(ks, n, L, in, q, key, kl + 2, out, o1, q), "key_limbs");
    /* A word of the last limb equal to its prime. */
    in[q * n - 1] = E->primes[L];
    CHECK_STATUS(NTT_ERANGE, ntt_mgpu_keyswitch_host(ks, n, L, in, q, key, kl, out, o1, q),
                 "%s: input out of range", E->tag);
    CHECK_MEM(pat, out, 2 * q * n * 8, "%s: nothing written after the errors", E->tag);
    free(in);
    free(out);
    free(pat);
}

static void check_bad_create(ntt_mgpu_ctx *ctx, size_t n)
{
    uint64_t q[4], p[2];
    make_primes(q, 4, p, 2, n);
    ntt_rns_params pr = {n, q, 4, p, 2, 2, NTT_BACKEND_CUDA, 0};
    ntt_mgpu_ks *ks = (ntt_mgpu_ks *)1;
    CHECK_STATUS(NTT_EINVAL, ntt_mgpu_ks_create(&ks, NULL, &pr), "NULL ctx");
    CHECK(ks == NULL, "ks NULL on failure");
    CHECK_STATUS(NTT_EINVAL, ntt_mgpu_ks_create(NULL, ctx, &pr), "NULL out");
    CHECK_STATUS(NTT_EINVAL, ntt_mgpu_ks_create(&ks, ctx, NULL), "NULL params");
    ntt_rns_params b = pr;
    b.p_count = 0;
    CHECK_STATUS(NTT_EINVAL, ntt_mgpu_ks_create(&ks, ctx, &b), "K == 0");
    b = pr;
    b.backend = NTT_BACKEND_SCALAR;
    CHECK_STATUS(NTT_EINVAL, ntt_mgpu_ks_create(&ks, ctx, &b), "CPU backend");
    b = pr;
    b.threads = 2;
    CHECK_STATUS(NTT_EINVAL, ntt_mgpu_ks_create(&ks, ctx, &b), "threads");
    b = pr;
    b.dnum = 0;
    CHECK_STATUS(NTT_EINVAL, ntt_mgpu_ks_create(&ks, ctx, &b), "dnum 0");
    b.dnum = 5;
    CHECK_STATUS(NTT_EINVAL, ntt_mgpu_ks_create(&ks, ctx, &b), "dnum > L+1");
    b = pr;
    b.n = 48;
    CHECK_STATUS(NTT_EINVAL, ntt_mgpu_ks_create(&ks, ctx, &b), "N not a power of two");
    uint64_t bad[4] = {q[0], q[1], q[2], 1000001};
    b = pr;
    b.q = bad;
    CHECK_STATUS(NTT_EMODULUS, ntt_mgpu_ks_create(&ks, ctx, &b), "not a prime");
    bad[3] = q[0];
    CHECK_STATUS(NTT_EMODULUS, ntt_mgpu_ks_create(&ks, ctx, &b), "a prime twice");
    CHECK(ks == NULL, "ks NULL after the failures");
    b = pr;
    b.backend = NTT_BACKEND_AUTO;
    CHECK_STATUS(NTT_OK, ntt_mgpu_ks_create(&ks, ctx, &b), "AUTO means the GPUs");
    ntt_mgpu_ks_share s;
    CHECK_STATUS(NTT_EINVAL, ntt_mgpu_ks_share_of(NULL, 0, 0, &s), "share of NULL");
    CHECK_STATUS(NTT_EINVAL, ntt_mgpu_ks_share_of(ks, -1, 0, &s), "g < 0");
    CHECK_STATUS(NTT_EINVAL, ntt_mgpu_ks_share_of(ks, 99, 0, &s), "g too large");
    CHECK_STATUS(NTT_EINVAL, ntt_mgpu_ks_share_of(ks, 0, 4, &s), "level > L");
    CHECK_STATUS(NTT_EINVAL, ntt_mgpu_ks_share_of(ks, 0, 0, NULL), "NULL share");
    ntt_mgpu_ks_destroy(ks);
    ntt_mgpu_ks_destroy(NULL);
}

typedef struct {
    unsigned log_n;
    size_t nq, np, dnum;
    bool all_levels;
} config;

static void run_env(env *E, const config *cf, bool bad)
{
    const int G = E->G;
    (void)ntt_rns_primes(E->cpu, &E->primes);
    /* The documented ownership. */
    for (int g = 0; g < G; g++) {
        CHECK_STATUS(NTT_OK, ntt_mgpu_ks_share_of(E->ks, g, E->nq - 1, &E->sh[g]), "share");
        const ntt_mgpu_ks_share *s = &E->sh[g];
        CHECK_EQ(first_of(E->nq, g, G), s->q_first, "%s GPU %d q_first", E->tag, g);
        CHECK_EQ(first_of(E->nq, g + 1, G) - s->q_first, s->q_count, "%s GPU %d q_count", E->tag, g);
        CHECK_EQ(s->q_count, s->q_level, "%s GPU %d all its Q limbs at level L", E->tag, g);
        CHECK_EQ(pfirst_of(E->np, g, G), s->p_first, "%s GPU %d p_first", E->tag, g);
        CHECK_EQ(pfirst_of(E->np, g + 1, G) - s->p_first, s->p_count, "%s GPU %d p_count", E->tag, g);
        CHECK_EQ(2 * E->dnum * (s->q_count + s->p_count), s->key_limbs, "%s key limbs", E->tag);
    }
    E->key = xmalloc(E->kl * E->n * 8);
    for (size_t poly = 0; poly < 2 * E->dnum; poly++)
        random_poly(E->key + poly * E->nl * E->n, E, E->nl, NULL);
    E->dkey1 = dalloc(0, E->kl * E->n);
    up(0, E->dkey1, E->key, E->kl * E->n);
    upload_key_shares(E);

    for (size_t l = cf->all_levels ? 0 : E->nq - 1; l < E->nq; l++) check_level(E, l);
    check_back_to_back(E);
    if (bad) {
        check_bad_device(E);
        check_bad_host(E);
        if (G > 1) check_null_shares(E);
    }
}

static void run_config(ntt_mgpu_ctx *ctx, int G, const config *cf, bool bad)
{
    env E;
    memset(&E, 0, sizeof E);
    E.G = G;
    E.ctx = ctx;
    E.n = (size_t)1 << cf->log_n;
    E.nq = cf->nq;
    E.np = cf->np;
    E.dnum = cf->dnum;
    E.nl = E.nq + E.np;
    E.kl = 2 * E.dnum * E.nl;
    ntt_mgpu_info info;
    CHECK_STATUS(NTT_OK, ntt_mgpu_get_info(ctx, &info), "info");
    snprintf(E.tag, sizeof E.tag, "G=%d N=%zu L+1=%zu K=%zu dnum=%zu %s", G, E.n, E.nq, E.np,
             E.dnum, info.peer_copies ? "peer" : "nccl");
    uint64_t q[64], p[64];
    make_primes(q, E.nq, p, E.np, E.n);
    ntt_rns_params pr = {E.n, q, E.nq, p, E.np, E.dnum, NTT_BACKEND_AUTO, 0};
    CHECK_STATUS(NTT_OK, ntt_rns_create(&E.cpu, &pr), "%s CPU context", E.tag);
    (void)cudaSetDevice(0);
    pr.backend = NTT_BACKEND_CUDA;
    CHECK_STATUS(NTT_OK, ntt_rns_create(&E.one, &pr), "%s one-GPU context", E.tag);
    CHECK_STATUS(NTT_OK, ntt_mgpu_ks_create(&E.ks, ctx, &pr), "%s mgpu key switch", E.tag);
    if (E.cpu && E.one && E.ks) run_env(&E, cf, bad);
    for (int g = 0; g < G; g++) dfree(g, E.dkey[g]);
    dfree(0, E.dkey1);
    free(E.key);
    ntt_mgpu_ks_destroy(E.ks);
    ntt_rns_destroy(E.one);
    ntt_rns_destroy(E.cpu);
}

/* ntt_mgpu_set_copy's checks; whether G GPUs can use peer copies. */
static bool check_copy(ntt_mgpu_ctx *ctx, int G)
{
    ntt_mgpu_info info;
    CHECK_STATUS(NTT_EINVAL, ntt_mgpu_set_copy(NULL, NTT_MGPU_COPY_AUTO), "set_copy NULL");
    CHECK_STATUS(NTT_EINVAL, ntt_mgpu_set_copy(ctx, (ntt_mgpu_copy)3), "set_copy 3");
    /* One GPU has no peer; the stand-in's GPUs all are peers unless
       NTT_EMU_NO_PEER is set; real GPUs may lack peer access. */
    const ntt_status st = ntt_mgpu_set_copy(ctx, NTT_MGPU_COPY_PEER);
    bool ok = st == NTT_OK || st == NTT_EUNSUPPORTED;
    if (G == 1) ok = st == NTT_EUNSUPPORTED;
    else if (getenv("NTT_EMU_DEVICES")) ok = st == (getenv("NTT_EMU_NO_PEER") ? NTT_EUNSUPPORTED : NTT_OK);
    CHECK(ok, "G=%d set_copy PEER: %s", G, ntt_status_string(st));
    CHECK_STATUS(NTT_OK, ntt_mgpu_get_info(ctx, &info), "info");
    CHECK_EQ(st == NTT_OK, info.peer_copies, "G=%d peer copies after PEER", G);
    CHECK_STATUS(NTT_OK, ntt_mgpu_set_copy(ctx, NTT_MGPU_COPY_NCCL), "set_copy NCCL");
    CHECK_STATUS(NTT_OK, ntt_mgpu_get_info(ctx, &info), "info");
    CHECK_EQ(0, info.peer_copies, "G=%d peer copies after NCCL", G);
    CHECK_STATUS(NTT_OK, ntt_mgpu_set_copy(ctx, NTT_MGPU_COPY_AUTO), "set_copy AUTO");
    CHECK_STATUS(NTT_OK, ntt_mgpu_get_info(ctx, &info), "info");
    CHECK_EQ(st == NTT_OK && G == 2, info.peer_copies, "G=%d AUTO: peer copies with 2 GPUs", G);
    return st == NTT_OK;
}

int main(void)
{
    int ndev = 0, G = 0;
    ntt_mgpu_ctx *all = NULL;
    const int rc = mgpu_test_start("test_multigpu_ks", &max_log, &ndev, &all, &G);
    if (rc >= 0) return rc;
    check_bad_create(all, 64);

    const unsigned big = max_log < 10 ? max_log : 10;
    /* (log N, L+1, K, dnum, every level): one limb; digits of 3 over GPUs
       of 1-3 limbs; a last digit of one limb; alpha = 1; one digit; K < G
       (GPUs without P limbs); a larger N; the benchmark's limbs at a small
       N. */
    const config cfs[] = {
        {5, 1, 1, 1, true},  {5, 5, 2, 2, true},    {5, 7, 3, 3, true},  {4, 10, 4, 4, true},
        {5, 6, 5, 6, true},  {5, 8, 3, 1, true},    {big, 12, 5, 3, true}, {5, 45, 15, 3, true},
    };
    /* One GPU (no collectives), 2, 3 (uneven splits) and all. */
    const int want[4] = {1, 2, 3, G};
    int sizes[4];
    const int nsizes = mgpu_test_sizes(want, 4, G, sizes);
    for (int si = 0; si < nsizes; si++) {
        const int g = sizes[si];
        ntt_mgpu_ctx *ctx = g == G ? all : mgpu_test_ctx_first(g);
        if (!ctx) continue;
        /* Both ways of moving limbs, where the GPUs can copy from each
           other: the same words. */
        const int ways = check_copy(ctx, g) ? 2 : 1;
        for (int way = 0; way < ways; way++) {
            CHECK_STATUS(NTT_OK,
                         ntt_mgpu_set_copy(ctx, way ? NTT_MGPU_COPY_NCCL
                                                : ways == 2 ? NTT_MGPU_COPY_PEER : NTT_MGPU_COPY_AUTO),
                         "set_copy");
            for (size_t c = 0; c < sizeof cfs / sizeof cfs[0]; c++) run_config(ctx, g, &cfs[c], c == 1);
            /* On GPUs, the benchmark's shape: N = 2^16, L+1 = 45, K = 15,
               dnum = 3, at level L. */
            if (max_log >= 16) {
                const config bench = {16, 45, 15, 3, false};
                run_config(ctx, g, &bench, false);
            }
        }
        CHECK_STATUS(NTT_OK, ntt_mgpu_set_copy(ctx, NTT_MGPU_COPY_AUTO), "set_copy");
        if (ctx != all) ntt_mgpu_destroy(ctx);
    }
    ntt_mgpu_destroy(all);
    return test_finish();
}
