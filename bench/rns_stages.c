/*
 * ntt-bench rns: the CKKS stages of ntt_rns.h timed as CKKS runs them (CPU
 * rows; issue 46).  Self-contained: bench_rns(argc, argv) is the
 * subcommand's entry point.
 *
 * Parameters (Phantom's 2^16 example): N = 2^16, Q of L+1 = 45 primes (one
 * of 60 bits, 44 of 50 bits), P of K = 15 primes of 60 bits, dnum = 3, at
 * the top level (l = 44, three digits) and at a middle one (l = 23, two).
 * Rows, each verified before it is timed (against a scalar-backend context,
 * whose stages test_rns checks against GMP, and the key switch also against
 * its separate stages) and again after:
 *   - one limb's NTT (50- and 60-bit primes, forward and inverse, warm and
 *     cold) and the input check every public ntt_forward_u64 makes (timed
 *     as a call that scans the whole limb and fails on its last word), so
 *     that the check-free transform time is known;
 *   - one batched NTT of the 45 limbs, warm and cold;
 *   - modUp (all digits), the inner product, modDown (both outputs), the
 *     whole key switch and rescale (a ciphertext: two polynomials), cold,
 *     on one thread and on all threads; beside each, the same limb
 *     transforms alone ("ntt only", plans of ntt.h, the element-wise work
 *     removed), whose time over the stage's is its NTT share.
 * Every row states the bytes the stage must move (each input read once,
 * each output written once, stage by stage as the issue counts them) and
 * the time they take at the memcpy bandwidth measured in this run (one
 * thread and all threads).  Cold: a buffer of --flush MiB is written and
 * read before each timed call.  Rows are timed in rounds, one call of each
 * row per round, so that drift of a shared machine hits every row alike.
 * The load average is read at the start and at the end.
 */
#include "ntt.h"
#include "ntt_rns.h"
#include "ntt_internal.h" /* ntt_backend_best_cpu */

#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#ifdef _OPENMP
#include <omp.h>
#endif

#include "bench.h"
#include "cli.h"
#include "sysinfo.h"

/* ---- small helpers ---------------------------------------------------------------- */

static double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* CPU time of the calling thread: on a shared machine a one-thread row's
   wall time counts the time slices other processes took; this does not. */
static double cpu_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static int cmp_d(const void *a, const void *b)
{
    const double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static double median_of(const double *x, int n, double *mn, double *mx)
{
    double *s = malloc((size_t)n * sizeof *s);
    if (!s) return 0;
    memcpy(s, x, (size_t)n * sizeof *s);
    qsort(s, (size_t)n, sizeof *s, cmp_d);
    const double m = n % 2 ? s[n / 2] : 0.5 * (s[n / 2 - 1] + s[n / 2]);
    if (mn) *mn = s[0];
    if (mx) *mx = s[n - 1];
    free(s);
    return m;
}

static void *xalloc(size_t bytes)
{
    void *p = NULL;
    if (posix_memalign(&p, 64, bytes ? bytes : 64) != 0) {
        fprintf(stderr, "ntt-bench rns: out of memory (%zu bytes)\n", bytes);
        exit(1);
    }
    memset(p, 0, bytes);
    return p;
}

static uint64_t rng_state = 0x853c49e6748fea9bull;
static uint64_t rng(void)
{
    uint64_t z = (rng_state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

static void fill(uint64_t *a, size_t n, uint64_t p)
{
    for (size_t i = 0; i < n; i++) a[i] = rng() % p;
}

static void loadavg(double *l1)
{
    *l1 = -1;
    FILE *f = fopen("/proc/loadavg", "r");
    if (!f) return;
    if (fscanf(f, "%lf", l1) != 1) *l1 = -1;
    fclose(f);
}

static void cpu_model(char *buf, size_t len)
{
    snprintf(buf, len, "unknown");
    FILE *f = fopen("/proc/cpuinfo", "r");
    if (!f) return;
    char line[512];
    while (fgets(line, sizeof line, f)) {
        if (strncmp(line, "model name", 10) == 0) {
            char *c = strchr(line, ':');
            if (c) {
                c++;
                while (*c == ' ') c++;
                c[strcspn(c, "\n")] = 0;
                snprintf(buf, len, "%s", c);
            }
            break;
        }
    }
    fclose(f);
}

static int max_threads(void)
{
#ifdef _OPENMP
    return omp_get_max_threads();
#else
    return 1;
#endif
}

/* memcpy bandwidth, GB/s counting the bytes read and written, over
   `bytes`-byte buffers, on `threads` threads (each copies its share). */
static double memcpy_gbps(size_t bytes, int threads)
{
    unsigned char *src = xalloc(bytes), *dst = xalloc(bytes);
    memset(src, 1, bytes);
    memset(dst, 2, bytes);
    double t[7];
    for (int r = 0; r < 8; r++) {
        const double t0 = now_s();
#ifdef _OPENMP
#pragma omp parallel for num_threads(threads) schedule(static)
#endif
        for (int k = 0; k < threads; k++) {
            const size_t a = bytes / (size_t)threads * (size_t)k;
            const size_t b = k + 1 == threads ? bytes : bytes / (size_t)threads * (size_t)(k + 1);
            memcpy(dst + a, src + a, b - a);
        }
        if (r > 0) t[r - 1] = now_s() - t0;
        src[(size_t)r * 4097 % bytes] ^= dst[(size_t)r * 8191 % bytes];
    }
    free(src);
    free(dst);
    return 2.0 * (double)bytes / median_of(t, 7, NULL, NULL) / 1e9;
}

/* ---- the setting -------------------------------------------------------------------- */

#define NQ 45
#define NP 15
#define NL (NQ + NP)
#define DNUM 3

typedef struct {
    size_t n;
    uint64_t primes[NL];
    ntt_rns *ctx1, *ctxT, *ref; /* one thread, all threads, the scalar reference */
    int T;
    ntt_plan *plan[NL];         /* one-limb plans of the one-thread backend (replays) */
    ntt_plan *batch1, *batchT;  /* the 45 Q limbs as one RNS plan */
    uint64_t *x, *key, *ct;     /* level-L polynomial, key, ciphertext (2 polys) */
    uint64_t *ext[2], *acc[2];  /* per level: the digits' modUp, the sums */
    uint64_t *out, *want, *tmp, *batch; /* work buffers; the batched NTT's limbs */
    uint64_t *limbs;            /* NL one-limb buffers (one-limb rows, replays) */
    uint64_t *bad;              /* a limb whose last word is out of range */
    unsigned char *flush;
    size_t flush_bytes;
    unsigned flush_sink;
} setting;

/* ---- rows --------------------------------------------------------------------------- */

enum kind {
    K_NTT1,    /* one limb: arg = 0 50-bit, 1 60-bit; inv */
    K_CHECK,   /* the public call's input check (ERANGE on the last word) */
    K_BATCH,   /* 45 limbs, one batched call */
    K_MODUP,
    K_INNER,
    K_MODDOWN,
    K_KS,
    K_RESCALE,
    K_REPLAY   /* the limb transforms of the row `stage` alone */
};

typedef struct {
    char name[64];
    enum kind kind;
    int arg;
    bool inv, cold;
    size_t level;
    int threads;
    /* limb transforms by prime class (0: 50-bit, 1: 60-bit) and direction */
    size_t nfwd[2], ninv[2];
    double bytes;               /* stage by stage, as the issue counts them */
    double bytes_fused;         /* key switch: what a fused one must move */
    int stage;                  /* for K_REPLAY: the row it replays */
    int replay;                 /* for stages: its replay row, -1 if none */
    double *reps, *creps;       /* wall and (one-thread rows) thread CPU seconds */
    int nreps;
    bool ok;
    char why[128];
    double med, min, max, cmed, cmin, cmax;
} row;

static const char *kind_name(enum kind k)
{
    static const char *s[] = {"ntt_limb", "input_check", "ntt_batch", "modup", "inner",
                              "moddown", "keyswitch", "rescale", "ntt_only"};
    return s[k];
}

static size_t e_of(size_t l) { return l + 1 + NP; }
static size_t beta_of(size_t l) { return l / ((NQ + DNUM - 1) / DNUM) + 1; }
static size_t alpha(void) { return (NQ + DNUM - 1) / DNUM; }
static size_t digit_size(size_t l, size_t j)
{
    const size_t f = j * alpha();
    return f + alpha() <= l + 1 ? alpha() : l + 1 - f;
}
/* 0 for the 50-bit primes q_1 .. q_44, 1 for q_0 and P. */
static int cls(size_t limb) { return limb == 0 || limb >= NQ; }
static size_t qp(size_t l, size_t k) { return k <= l ? k : NQ + k - l - 1; }

/* The limb transforms of a stage, added to r's counts. */
static void stage_xforms(enum kind k, size_t l, row *r)
{
    const size_t e = e_of(l);
    if (k == K_MODUP || k == K_KS) {
        for (size_t j = 0; j < beta_of(l); j++) {
            const size_t f = j * alpha(), s = digit_size(l, j);
            for (size_t i = 0; i < e; i++) {
                const size_t limb = qp(l, i);
                if (i >= f && i < f + s) r->ninv[cls(limb)]++;
                else r->nfwd[cls(limb)]++;
            }
        }
    }
    if (k == K_MODDOWN || k == K_KS)
        for (int c = 0; c < 2; c++) {
            r->ninv[1] += NP;
            for (size_t i = 0; i <= l; i++) r->nfwd[cls(i)]++;
        }
    if (k == K_RESCALE)
        for (int c = 0; c < 2; c++) {
            r->ninv[cls(l)]++;
            for (size_t i = 0; i < l; i++) r->nfwd[cls(i)]++;
        }
}

/* Bytes a stage must move, stage by stage (each input read once, each
   output written once; the key switch as its three stages). */
static double stage_limbs(enum kind k, size_t l)
{
    const size_t e = e_of(l), b = beta_of(l);
    double modup = (double)(l + 1), inner = (double)(3 * b * e + 2 * e), down = (double)(2 * e + 2 * (l + 1));
    for (size_t j = 0; j < b; j++) modup += (double)(e - digit_size(l, j));
    switch (k) {
    case K_MODUP: return modup;
    case K_INNER: return inner;
    case K_MODDOWN: return down;
    case K_KS: return modup + inner + down;
    case K_RESCALE: return (double)(2 * (l + 1) + 2 * l);
    case K_BATCH: return 2.0 * NQ;
    case K_NTT1: case K_CHECK: return 2.0;
    default: return 0;
    }
}

/* ---- one call of a row -------------------------------------------------------------- */

static ntt_rns *ctx_of(setting *S, const row *r) { return r->threads > 1 ? S->ctxT : S->ctx1; }

static const size_t levels[2] = {NQ - 1, 23};
static size_t level_index(size_t l) { return l == levels[0] ? 0 : 1; }

static ntt_status run_stage(setting *S, ntt_rns *c, enum kind k, size_t l, uint64_t *o)
{
    const uint64_t *ext = S->ext[level_index(l)], *acc = S->acc[level_index(l)];
    const size_t n = S->n, e = e_of(l), q = l + 1, kl = 2 * DNUM * NL, b = beta_of(l);
    ntt_status s = NTT_OK;
    switch (k) {
    case K_MODUP:
        for (size_t j = 0; j < b && s == NTT_OK; j++) {
            const size_t f = j * alpha();
            s = ntt_rns_modup(c, n, l, j, S->x + f * n, digit_size(l, j), o + j * e * n, e);
        }
        return s;
    case K_INNER:
        return ntt_rns_ks_inner(c, n, l, ext, b * e, S->key, kl, o, o + e * n, e);
    case K_MODDOWN:
        s = ntt_rns_moddown(c, n, l, acc, e, o, q);
        return s == NTT_OK ? ntt_rns_moddown(c, n, l, acc + e * n, e, o + q * n, q) : s;
    case K_KS:
        return ntt_rns_keyswitch(c, n, l, S->x, q, S->key, kl, o, o + q * n, q);
    case K_RESCALE:
        s = ntt_rns_rescale(c, n, l, S->ct, q, o, l);
        return s == NTT_OK ? ntt_rns_rescale(c, n, l, S->ct + NQ * n, q, o + l * n, l) : s;
    default:
        return NTT_EINVAL;
    }
}

/* The replay: the stage's limb transforms in its order, each group of
   independent transforms over the row's threads. */
static ntt_status replay_group(setting *S, const size_t *limbs, const bool *inv, size_t cnt,
                               int threads)
{
    ntt_status st = NTT_OK;
    (void)threads;
#ifdef _OPENMP
#pragma omp parallel for num_threads(threads) schedule(dynamic, 1) if (threads > 1)
#endif
    for (size_t i = 0; i < cnt; i++) {
        uint64_t *a = S->limbs + limbs[i] * S->n;
        const ntt_status s = inv[i] ? ntt_inverse_u64(S->plan[limbs[i]], a)
                                    : ntt_forward_u64(S->plan[limbs[i]], a);
        if (s != NTT_OK) {
#ifdef _OPENMP
#pragma omp atomic write
#endif
            st = s;
        }
    }
    return st;
}

static ntt_status run_replay(setting *S, enum kind k, size_t l, int threads)
{
    size_t limbs[NL];
    bool inv[NL];
    size_t cnt = 0;
    ntt_status s = NTT_OK;
    const size_t e = e_of(l);
#define FLUSH_GROUP()                                                        \
    do {                                                                     \
        if (cnt && s == NTT_OK) s = replay_group(S, limbs, inv, cnt, threads); \
        cnt = 0;                                                             \
    } while (0)
#define ADD(LIMB, INV)        \
    do {                      \
        limbs[cnt] = (LIMB);  \
        inv[cnt++] = (INV);   \
    } while (0)
    if (k == K_MODUP || k == K_KS)
        for (size_t j = 0; j < beta_of(l); j++) {
            const size_t f = j * alpha(), sz = digit_size(l, j);
            for (size_t i = f; i < f + sz; i++) ADD(i, true);
            FLUSH_GROUP();
            for (size_t i = 0; i < e; i++)
                if (i < f || i >= f + sz) ADD(qp(l, i), false);
            FLUSH_GROUP();
        }
    if (k == K_MODDOWN || k == K_KS)
        for (int c = 0; c < 2; c++) {
            for (size_t i = 0; i < NP; i++) ADD(NQ + i, true);
            FLUSH_GROUP();
            for (size_t i = 0; i <= l; i++) ADD(i, false);
            FLUSH_GROUP();
        }
    if (k == K_RESCALE)
        for (int c = 0; c < 2; c++) {
            ADD(l, true);
            FLUSH_GROUP();
            for (size_t i = 0; i < l; i++) ADD(i, false);
            FLUSH_GROUP();
        }
#undef ADD
#undef FLUSH_GROUP
    return s;
}

static ntt_status row_call(setting *S, row *rows, row *r)
{
    const size_t n = S->n;
    switch (r->kind) {
    case K_NTT1: {
        uint64_t *a = S->limbs + (size_t)(r->arg ? 0 : 1) * n; /* q_0 (60-bit) or q_1 (50-bit) */
        ntt_plan *p = S->plan[r->arg ? 0 : 1];
        return r->inv ? ntt_inverse_u64(p, a) : ntt_forward_u64(p, a);
    }
    case K_CHECK: {
        const ntt_status s = ntt_forward_u64(S->plan[1], S->bad);
        return s == NTT_ERANGE ? NTT_OK : NTT_EBACKEND;
    }
    case K_BATCH:
        return ntt_forward_batch_u64(r->threads > 1 ? S->batchT : S->batch1, S->batch, NQ, n);
    case K_REPLAY:
        return run_replay(S, rows[r->stage].kind, r->level, r->threads);
    default:
        return run_stage(S, ctx_of(S, r), r->kind, r->level, S->out);
    }
}

/* ---- verification ------------------------------------------------------------------------ */

/* Output words of a stage. */
static size_t out_words(enum kind k, size_t l, size_t n)
{
    const size_t e = e_of(l);
    switch (k) {
    case K_MODUP: return beta_of(l) * e * n;
    case K_INNER: return 2 * e * n;
    case K_MODDOWN: case K_KS: return 2 * (l + 1) * n;
    case K_RESCALE: return 2 * l * n;
    default: return 0;
    }
}

/* The scalar context's result of the stage into S->want; the key switch
   also against its separate stages there. */
static bool reference(setting *S, enum kind k, size_t l, char *why, size_t len)
{
    const size_t n = S->n, e = e_of(l), q = l + 1;
    if (run_stage(S, S->ref, k, l, S->want) != NTT_OK) {
        snprintf(why, len, "reference failed");
        return false;
    }
    if (k != K_KS) return true;
    uint64_t *ext = S->tmp, *acc = S->out;
    bool ok = true;
    for (size_t j = 0; j < beta_of(l) && ok; j++)
        ok = ntt_rns_modup(S->ref, n, l, j, S->x + j * alpha() * n, digit_size(l, j),
                           ext + j * e * n, e) == NTT_OK;
    ok = ok && ntt_rns_ks_inner(S->ref, n, l, ext, beta_of(l) * e, S->key, 2 * DNUM * NL, acc,
                                acc + e * n, e) == NTT_OK;
    ok = ok && ntt_rns_moddown(S->ref, n, l, acc, e, acc, q) == NTT_OK;
    ok = ok && ntt_rns_moddown(S->ref, n, l, acc + e * n, e, acc + e * n, q) == NTT_OK;
    ok = ok && memcmp(acc, S->want, q * n * 8) == 0 && memcmp(acc + e * n, S->want + q * n, q * n * 8) == 0;
    if (!ok) snprintf(why, len, "FAILED: the reference key switch differs from its stages");
    return ok;
}

/* The net number of forward transforms the replay of r makes of each limb
   (inverse ones counted -1). */
static void replay_net(const row *r, const row *rows, int *net)
{
    const size_t l = r->level, e = e_of(l);
    const enum kind k = rows[r->stage].kind;
    for (size_t i = 0; i < NL; i++) net[i] = 0;
    if (k == K_MODUP || k == K_KS)
        for (size_t j = 0; j < beta_of(l); j++) {
            const size_t f = j * alpha(), sz = digit_size(l, j);
            for (size_t i = 0; i < e; i++) net[qp(l, i)] += i >= f && i < f + sz ? -1 : 1;
        }
    if (k == K_MODDOWN || k == K_KS)
        for (int c = 0; c < 2; c++) {
            for (size_t i = 0; i < NP; i++) net[NQ + i]--;
            for (size_t i = 0; i <= l; i++) net[i]++;
        }
    if (k == K_RESCALE)
        for (int c = 0; c < 2; c++) {
            net[l]--;
            for (size_t i = 0; i < l; i++) net[i]++;
        }
}

/* Runs the row once and checks what it made: stages against the scalar
   reference (S->want), one-limb and batched transforms against the
   reference context's transform of the same input, replays by undoing
   their transforms limb by limb. */
static bool verify(setting *S, row *rows, row *r)
{
    const size_t n = S->n;
    bool ok = true;
    if (r->kind == K_CHECK) {
        ok = row_call(S, rows, r) == NTT_OK;
    } else if (r->kind == K_NTT1 || r->kind == K_BATCH) {
        uint64_t *a = r->kind == K_BATCH ? S->batch : S->limbs + (size_t)(r->arg ? 0 : 1) * n;
        const size_t cnt = r->kind == K_BATCH ? NQ : 1;
        size_t idx[NQ];
        for (size_t i = 0; i < cnt; i++) idx[i] = r->kind == K_BATCH ? i : (size_t)(r->arg ? 0 : 1);
        memcpy(S->want, a, cnt * n * 8);
        ok = (r->inv ? ntt_rns_inverse(S->ref, n, idx, cnt, S->want)
                     : ntt_rns_forward(S->ref, n, idx, cnt, S->want)) == NTT_OK &&
             row_call(S, rows, r) == NTT_OK && memcmp(a, S->want, cnt * n * 8) == 0;
    } else if (r->kind == K_REPLAY) {
        int net[NL];
        replay_net(r, rows, net);
        memcpy(S->want, S->limbs, NL * n * 8);
        ok = row_call(S, rows, r) == NTT_OK;
        for (size_t i = 0; i < NL && ok; i++) {
            uint64_t *x = S->limbs + i * n;
            for (int t = 0; t < net[i] && ok; t++) ok = ntt_rns_inverse(S->ref, n, &i, 1, x) == NTT_OK;
            for (int t = 0; t < -net[i] && ok; t++) ok = ntt_rns_forward(S->ref, n, &i, 1, x) == NTT_OK;
        }
        ok = ok && memcmp(S->limbs, S->want, NL * n * 8) == 0;
    } else {
        const size_t w = out_words(r->kind, r->level, n);
        memset(S->out, 0, w * 8);
        ok = row_call(S, rows, r) == NTT_OK && memcmp(S->out, S->want, w * 8) == 0;
    }
    if (!ok) snprintf(r->why, sizeof r->why, "FAILED (differs from the reference)");
    return ok;
}

/* The inputs of the inner product and modDown at both levels: the
   reference's modUp of x and its inner product with the key. */
static bool stage_inputs(setting *S)
{
    const size_t n = S->n, kl = 2 * DNUM * NL;
    bool ok = true;
    for (size_t li = 0; li < 2 && ok; li++) {
        const size_t l = levels[li], e = e_of(l);
        for (size_t j = 0; j < beta_of(l) && ok; j++)
            ok = ntt_rns_modup(S->ref, n, l, j, S->x + j * alpha() * n, digit_size(l, j),
                               S->ext[li] + j * e * n, e) == NTT_OK;
        ok = ok && ntt_rns_ks_inner(S->ref, n, l, S->ext[li], beta_of(l) * e, S->key, kl,
                                    S->acc[li], S->acc[li] + e * n, e) == NTT_OK;
    }
    return ok;
}

/* Verifies every row of a stage kind at a level (or every other row). */
static void verify_all(setting *S, row *rows, int nr)
{
    static const enum kind stages[] = {K_MODUP, K_INNER, K_MODDOWN, K_KS, K_RESCALE};
    for (size_t li = 0; li < 2; li++)
        for (size_t si = 0; si < sizeof stages / sizeof stages[0]; si++) {
            char why[128] = "";
            const bool have = reference(S, stages[si], levels[li], why, sizeof why);
            for (int i = 0; i < nr; i++) {
                row *r = &rows[i];
                if (r->kind != stages[si] || r->level != levels[li] || !r->ok) continue;
                r->ok = have && verify(S, rows, r);
                if (!have) snprintf(r->why, sizeof r->why, "%s", why);
            }
        }
    for (int i = 0; i < nr; i++) {
        row *r = &rows[i];
        if (r->ok && (r->kind == K_NTT1 || r->kind == K_CHECK || r->kind == K_BATCH || r->kind == K_REPLAY))
            r->ok = verify(S, rows, r);
    }
}

/* ---- the run ------------------------------------------------------------------------------- */

static void flush_caches(setting *S)
{
    if (!S->flush_bytes) return;
    memset(S->flush, (int)(S->flush_sink & 0xff), S->flush_bytes);
    unsigned s = 0;
    for (size_t i = 0; i < S->flush_bytes; i += 64) s += S->flush[i];
    S->flush_sink += s;
}

static void add_row(row *rows, int *nr, row r)
{
    r.replay = -1;
    rows[(*nr)++] = r;
}

static void usage(FILE *f)
{
    fprintf(f,
            "usage: ntt-bench rns [--n N] [--reps R] [--threads T] [--flush MIB] [--quick]\n"
            "                     [--json FILE]\n"
            "  CKKS stages (ntt_rns.h) on the CPU: N = 2^16, L+1 = 45 (one 60-bit and 44\n"
            "  50-bit primes), K = 15 60-bit primes, dnum = 3, levels 44 and 23.\n"
            "  --n N         ring size (power of two, default 65536)\n"
            "  --reps R      timed calls per row (default 11; --quick: 3)\n"
            "  --threads T   the all-threads rows' count (default: OpenMP's)\n"
            "  --flush MIB   written and read before each cold call (default 256)\n"
            "  --json FILE   every row with its raw repetitions\n"
            "  --gpu         the stages on the device instead (ntt_rns_cuda_*: warm and cold\n"
            "                batched NTT, each stage cold with stream launches and graph\n"
            "                replay, fused and unfused, NTT share, copy-bandwidth floor);\n"
            "                takes --n, --reps, --quick and --json\n");
}

int bench_rns(int argc, char **argv)
{
    setting S0 = {.n = 65536, .flush_bytes = (size_t)256 << 20}, *S = &S0;
    static const char cmd[] = "ntt-bench rns";
    uint64_t reps64 = 11, n64 = S->n, threads = (uint64_t)max_threads(), flush_mib = 256;
    const char *json = NULL;
    for (int i = 1; i < argc; i++)
        if (!strcmp(argv[i], "--gpu")) {
#ifdef NTT_HAVE_CUDA
            return bench_rns_gpu(argc, argv);
#else
            fprintf(stderr, "%s --gpu: this build has no CUDA backend\n", cmd);
            return EXIT_USAGE;
#endif
        }
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        int r;
        if (cli_is_help(a)) {
            usage(stdout);
            return EXIT_OK;
        } else if (!strcmp(a, "--quick")) {
            reps64 = 3;
        } else if ((r = cli_number_option(cmd, argc, argv, &i, "--n", 2, (uint64_t)1 << 20, &n64)) != 0 ||
                   (r = cli_number_option(cmd, argc, argv, &i, "--reps", 1, 1000, &reps64)) != 0 ||
                   (r = cli_number_option(cmd, argc, argv, &i, "--threads", 1, 1024, &threads)) != 0 ||
                   (r = cli_number_option(cmd, argc, argv, &i, "--flush", 0, 65536, &flush_mib)) != 0 ||
                   (r = cli_file_option(cmd, argc, argv, &i, "--json", NULL, &json)) != 0) {
            if (r < 0) return EXIT_USAGE;
        } else {
            return cli_unknown_option(cmd, a);
        }
    }
    if (n64 & (n64 - 1)) {
        fprintf(stderr, "%s: --n must be a power of two\n", cmd);
        return EXIT_USAGE;
    }
    const int reps = (int)reps64;
    S->n = (size_t)n64;
    S->T = (int)threads;
    S->flush_bytes = (size_t)flush_mib << 20;
    const size_t n = S->n;
    const unsigned lg = (unsigned)__builtin_ctzll(2 * n);
    double load0;
    loadavg(&load0);

    /* Primes: q_0 and P of 60 bits, q_1 .. q_44 of 50 bits. */
    bool ok = ntt_find_prime(60, lg, 0, &S->primes[0]) == NTT_OK;
    for (size_t i = 1; i < NQ && ok; i++) ok = ntt_find_prime(50, lg, (unsigned)(i - 1), &S->primes[i]) == NTT_OK;
    for (size_t i = 0; i < NP && ok; i++) ok = ntt_find_prime(60, lg, (unsigned)(i + 1), &S->primes[NQ + i]) == NTT_OK;
    if (!ok) {
        fprintf(stderr, "ntt-bench rns: no primes for N = %zu\n", n);
        return 1;
    }
    /* One thread: the fastest serial backend (whatever NTT_BACKEND says). */
    const ntt_backend one = ntt_backend_best_cpu();
    ntt_rns_params prm = {.n = n, .q = S->primes, .q_count = NQ, .p = S->primes + NQ,
                          .p_count = NP, .dnum = DNUM, .backend = one};
    ntt_status st = ntt_rns_create(&S->ctx1, &prm);
    if (st == NTT_OK && S->T > 1 && ntt_backend_available(NTT_BACKEND_OPENMP)) {
        prm.backend = NTT_BACKEND_OPENMP;
        prm.threads = S->T;
        st = ntt_rns_create(&S->ctxT, &prm);
    }
    if (st == NTT_OK) {
        prm.backend = NTT_BACKEND_SCALAR;
        prm.threads = 0;
        st = ntt_rns_create(&S->ref, &prm);
    }
    const ntt_plan_options po1 = {.flags = NTT_FLAG_NEGACYCLIC}, poT = {.flags = NTT_FLAG_NEGACYCLIC, .threads = S->T};
    for (size_t i = 0; i < NL && st == NTT_OK; i++)
        st = ntt_plan_create(&S->plan[i], n, S->primes[i], NTT_U64, one, &po1);
    if (st == NTT_OK) st = ntt_plan_create_rns(&S->batch1, n, S->primes, NQ, NTT_U64, one, &po1);
    if (st == NTT_OK && S->ctxT)
        st = ntt_plan_create_rns(&S->batchT, n, S->primes, NQ, NTT_U64, NTT_BACKEND_OPENMP, &poT);
    if (st != NTT_OK) {
        fprintf(stderr, "ntt-bench rns: set-up failed: %s\n", ntt_status_string(st));
        return 1;
    }
    const size_t kl = 2 * DNUM * NL, W = n * 8;
    S->x = xalloc(NQ * W);
    S->ct = xalloc(2 * NQ * W);
    S->key = xalloc(kl * W);
    for (int li = 0; li < 2; li++) {
        S->ext[li] = xalloc(DNUM * NL * W);
        S->acc[li] = xalloc(2 * NL * W);
    }
    S->out = xalloc(DNUM * NL * W);
    S->want = xalloc(DNUM * NL * W);
    S->tmp = xalloc(DNUM * NL * W);
    S->batch = xalloc(NQ * W);
    S->limbs = xalloc(NL * W);
    S->bad = xalloc(W);
    S->flush = S->flush_bytes ? xalloc(S->flush_bytes) : NULL;
    for (size_t i = 0; i < NQ; i++) {
        fill(S->x + i * n, n, S->primes[i]);
        fill(S->ct + i * n, n, S->primes[i]);
        fill(S->ct + (NQ + i) * n, n, S->primes[i]);
        fill(S->batch + i * n, n, S->primes[i]);
    }
    for (size_t r = 0; r < kl; r++) fill(S->key + r * n, n, S->primes[r % NL]);
    for (size_t i = 0; i < NL; i++) fill(S->limbs + i * n, n, S->primes[i]);
    fill(S->bad, n, S->primes[1]);
    S->bad[n - 1] = S->primes[1];

    const double bw1 = memcpy_gbps((size_t)256 << 20, 1);
    const double bwT = S->ctxT ? memcpy_gbps((size_t)256 << 20, S->T) : bw1;

    /* The rows. */
    row rows[64];
    int nr = 0;
    for (int c = 0; c < 2; c++)
        for (int inv = 0; inv < 2; inv++)
            for (int cold = 0; cold < 2; cold++) {
                row r = {.kind = K_NTT1, .arg = c, .inv = inv, .cold = cold, .threads = 1};
                snprintf(r.name, sizeof r.name, "ntt one limb %s-bit %s", c ? "60" : "50", inv ? "inverse" : "forward");
                r.bytes = 2.0 * (double)W;
                (inv ? r.ninv : r.nfwd)[c] = 1;
                add_row(rows, &nr, r);
            }
    {
        row r = {.kind = K_CHECK, .threads = 1};
        snprintf(r.name, sizeof r.name, "input check of one limb (public call)");
        r.bytes = (double)W;
        add_row(rows, &nr, r);
    }
    for (int t = 0; t < (S->ctxT ? 2 : 1); t++)
        for (int cold = 0; cold < 2; cold++) {
            row r = {.kind = K_BATCH, .cold = cold, .threads = t ? S->T : 1};
            snprintf(r.name, sizeof r.name, "ntt batch 45 limbs forward");
            r.bytes = stage_limbs(K_BATCH, 0) * (double)W;
            r.nfwd[0] = NQ - 1;
            r.nfwd[1] = 1;
            add_row(rows, &nr, r);
        }
    static const enum kind stages[] = {K_MODUP, K_INNER, K_MODDOWN, K_KS, K_RESCALE};
    for (size_t li = 0; li < 2; li++)
        for (size_t si = 0; si < sizeof stages / sizeof stages[0]; si++)
            for (int t = 0; t < (S->ctxT ? 2 : 1); t++) {
                row r = {.kind = stages[si], .level = levels[li], .cold = true, .threads = t ? S->T : 1};
                snprintf(r.name, sizeof r.name, "%s", kind_name(stages[si]));
                r.bytes = stage_limbs(stages[si], levels[li]) * (double)W;
                if (stages[si] == K_KS) /* in, the key limbs it reads, the outputs */
                    r.bytes_fused = (double)(3 * (levels[li] + 1) + 2 * beta_of(levels[li]) * e_of(levels[li])) * (double)W;
                stage_xforms(stages[si], levels[li], &r);
                add_row(rows, &nr, r);
                if (stages[si] != K_INNER) {
                    row p = r;
                    p.kind = K_REPLAY;
                    p.stage = nr - 1;
                    snprintf(p.name, sizeof p.name, "  ntt only (%s)", kind_name(stages[si]));
                    p.bytes = 0;
                    add_row(rows, &nr, p);
                    rows[p.stage].replay = nr - 1;
                }
            }

    printf("ntt-bench rns: N=%zu, L+1=%d (q_0 60-bit, q_1..q_44 50-bit), K=%d (60-bit), dnum=%d, "
           "threads 1 and %d, %d reps, cold = %zu MiB flushed\n",
           n, NQ, NP, DNUM, S->T, reps, S->flush_bytes >> 20);
    printf("  one-thread backend: %s; all threads: openmp; reference: scalar\n", ntt_backend_name(one));
    printf("  memcpy: %.1f GB/s (1 thread), %.1f GB/s (%d threads), read + write\n", bw1, bwT, S->T);
    if (!stage_inputs(S)) {
        fprintf(stderr, "ntt-bench rns: the reference's modUp or inner product failed\n");
        return 1;
    }
    for (int i = 0; i < nr; i++) {
        rows[i].reps = xalloc((size_t)reps * sizeof *rows[i].reps);
        rows[i].creps = xalloc((size_t)reps * sizeof *rows[i].creps);
        rows[i].ok = true;
    }
    verify_all(S, rows, nr);
    /* Rounds of one call per row (the first untimed). */
    for (int rep = -1; rep < reps; rep++)
        for (int i = 0; i < nr; i++) {
            row *r = &rows[i];
            if (!r->ok) continue;
            if (r->cold) flush_caches(S);
            else if (row_call(S, rows, r) != NTT_OK) r->ok = false;
            const double c0 = cpu_s(), t0 = now_s();
            const ntt_status s = row_call(S, rows, r);
            const double t = now_s() - t0, c = cpu_s() - c0;
            if (s != NTT_OK || !r->ok) {
                r->ok = false;
                snprintf(r->why, sizeof r->why, "FAILED (status %s)", ntt_status_string(s));
            } else if (rep >= 0) {
                r->creps[r->nreps] = c;
                r->reps[r->nreps++] = t;
            }
        }
    /* And every row once more after the timing. */
    verify_all(S, rows, nr);
    double load1;
    loadavg(&load1);

    /* Summaries. */
    for (int i = 0; i < nr; i++) {
        row *r = &rows[i];
        if (r->ok && r->nreps > 0) {
            r->med = median_of(r->reps, r->nreps, &r->min, &r->max);
            r->cmed = median_of(r->creps, r->nreps, &r->cmin, &r->cmax);
        }
        else if (r->ok) {
            r->ok = false;
            snprintf(r->why, sizeof r->why, "no repetitions");
        }
    }
    /* One-limb times (warm and cold) by class and direction, and the
       check; wall (w = 0) and thread CPU (w = 1) medians. */
    double t1[2][2][2] = {{{0}}}, t1cold[2][2][2] = {{{0}}}, tcheck[2] = {0, 0};
    for (int i = 0; i < nr; i++) {
        const row *r = &rows[i];
        for (int w = 0; w < 2; w++) {
            const double m = w ? r->cmed : r->med;
            if (r->kind == K_NTT1 && r->ok) (r->cold ? t1cold : t1)[w][r->arg][r->inv] = m;
            if (r->kind == K_CHECK && r->ok) tcheck[w] = m;
        }
    }

    printf("\n  %-30s %5s %3s %4s %5s %10s %10s %10s %10s %7s %8s %7s %5s\n", "row", "level", "thr",
           "mode", "ntts", "median", "min", "max", "cpu", "MiB", "floor", "x floor", "ntt%");
    for (int i = 0; i < nr; i++) {
        const row *r = &rows[i];
        const size_t ntts = r->nfwd[0] + r->nfwd[1] + r->ninv[0] + r->ninv[1];
        char lv[8] = "-";
        if (r->kind >= K_MODUP) snprintf(lv, sizeof lv, "%zu", r->level);
        if (!r->ok) {
            printf("  %-30s %5s %3d %4s %5zu  %s\n", r->name, lv, r->threads, r->cold ? "cold" : "warm",
                   ntts, r->why);
            continue;
        }
        const bool one_thr = r->threads == 1;
        const double bw = one_thr ? bw1 : bwT, floor = r->bytes / (bw * 1e9);
        char share[16] = "", cpu[16] = "", fl[16] = "", xf[16] = "";
        if (r->replay >= 0 && rows[r->replay].ok) {
            /* One thread: CPU times; all threads: wall times. */
            const row *p = &rows[r->replay];
            const double net = (one_thr ? p->cmed : p->med) - (double)ntts * tcheck[one_thr];
            snprintf(share, sizeof share, "%.0f", 100.0 * net / (one_thr ? r->cmed : r->med));
        }
        if (one_thr) snprintf(cpu, sizeof cpu, "%7.3f ms", r->cmed * 1e3);
        if (r->bytes > 0) {
            snprintf(fl, sizeof fl, "%5.2f ms", floor * 1e3);
            snprintf(xf, sizeof xf, "%.2f", r->med / floor);
        }
        printf("  %-30s %5s %3d %4s %5zu %7.3f ms %7.3f ms %7.3f ms %10s %7.1f %8s %7s %5s\n", r->name,
               lv, r->threads, r->cold ? "cold" : "warm", ntts, r->med * 1e3, r->min * 1e3, r->max * 1e3,
               cpu, r->bytes / 1048576.0, fl, xf, share);
    }
    for (int i = 0; i < nr; i++) {
        const row *r = &rows[i];
        if (r->kind != K_KS || !r->ok) continue;
        const double fl = r->bytes_fused / ((r->threads > 1 ? bwT : bw1) * 1e9);
        printf("  keyswitch l=%zu, %d thread%s: a fused key switch must move %.1f MiB (input, the key\n"
               "  limbs read, outputs): floor %.2f ms, x floor %.2f\n",
               r->level, r->threads, r->threads > 1 ? "s" : "", r->bytes_fused / 1048576.0, fl * 1e3,
               r->med / fl);
    }
    printf("  cpu: the calling thread's CPU time (one-thread rows), robust to other processes'\n"
           "  time slices.  ntt%%: the stage's limb transforms alone (its \"ntt only\" row, less the\n"
           "  public calls' input check, %.1f us a limb) over the stage's time (CPU time for one\n"
           "  thread, wall time for all threads).  x floor: median over the bytes-moved floor.\n",
           tcheck[1] * 1e6);

    /* The CPU target: the whole key switch at l = 44 on one thread
       within 2x of its limb transforms at the one-limb times. */
    double ks[2] = {0, 0}, est[2] = {0, 0}, est_pub[2] = {0, 0}, rep_ks[2] = {0, 0};
    size_t ks_ntts = 0;
    for (int i = 0; i < nr; i++) {
        const row *r = &rows[i];
        if (r->kind != K_KS || r->level != NQ - 1 || r->threads != 1 || !r->ok) continue;
        ks_ntts = r->nfwd[0] + r->nfwd[1] + r->ninv[0] + r->ninv[1];
        for (int w = 0; w < 2; w++) {
            ks[w] = w ? r->cmed : r->med;
            for (int c = 0; c < 2; c++) {
                est[w] += (double)r->nfwd[c] * (t1[w][c][0] - tcheck[w]) +
                          (double)r->ninv[c] * (t1[w][c][1] - tcheck[w]);
                est_pub[w] += (double)r->nfwd[c] * t1[w][c][0] + (double)r->ninv[c] * t1[w][c][1];
            }
            if (r->replay >= 0 && rows[r->replay].ok)
                rep_ks[w] = (w ? rows[r->replay].cmed : rows[r->replay].med) - (double)ks_ntts * tcheck[w];
        }
    }
    if (ks[0] > 0) {
        for (int w = 1; w >= 0; w--)
            printf("\n  target (%s): key switch at l=44, one thread, %.2f ms; its %zu limb transforms at\n"
                   "  this run's one-limb times (warm, check-free) %.2f ms: ratio %.2f (target <= 2); at the\n"
                   "  public calls' times %.2f ms: %.2f; its own transforms timed alone (cold, check-free)\n"
                   "  %.2f ms: %.2f.\n",
                   w ? "thread CPU time" : "wall time", ks[w] * 1e3, ks_ntts, est[w] * 1e3,
                   ks[w] / est[w], est_pub[w] * 1e3, ks[w] / est_pub[w], rep_ks[w] * 1e3,
                   rep_ks[w] > 0 ? ks[w] / rep_ks[w] : 0.0);
        printf("  one-limb times, CPU (warm / cold): 50-bit fwd %.1f / %.1f us, inv %.1f / %.1f us;\n"
               "  60-bit fwd %.1f / %.1f us, inv %.1f / %.1f us (public calls); input check %.1f us.\n",
               t1[1][0][0] * 1e6, t1cold[1][0][0] * 1e6, t1[1][0][1] * 1e6, t1cold[1][0][1] * 1e6,
               t1[1][1][0] * 1e6, t1cold[1][1][0] * 1e6, t1[1][1][1] * 1e6, t1cold[1][1][1] * 1e6,
               tcheck[1] * 1e6);
    }
    char model[128];
    cpu_model(model, sizeof model);
    printf("  machine: %s, %d logical CPUs; load average %.2f at the start, %.2f at the end; commit %s\n",
           model, max_threads(), load0, load1, build_commit());

    if (json) {
        FILE *f = fopen(json, "w");
        if (!f) {
            fprintf(stderr, "ntt-bench rns: cannot write %s\n", json);
            return 1;
        }
        fprintf(f, "{\n  \"bench\": \"rns\",\n  \"commit\": \"%s\",\n  \"cpu\": \"%s\",\n", build_commit(), model);
        fprintf(f, "  \"logical_cpus\": %d,\n  \"loadavg_start\": %.2f,\n  \"loadavg_end\": %.2f,\n", max_threads(), load0, load1);
        fprintf(f, "  \"n\": %zu,\n  \"q_count\": %d,\n  \"p_count\": %d,\n  \"dnum\": %d,\n", n, NQ, NP, DNUM);
        fprintf(f, "  \"primes\": [");
        for (size_t i = 0; i < NL; i++) fprintf(f, "%s%" PRIu64, i ? ", " : "", S->primes[i]);
        fprintf(f, "],\n  \"backend_one_thread\": \"%s\",\n  \"threads\": %d,\n", ntt_backend_name(one), S->T);
        fprintf(f, "  \"flush_bytes\": %zu,\n  \"memcpy_gbps_1\": %.3f,\n  \"memcpy_gbps_T\": %.3f,\n", S->flush_bytes, bw1, bwT);
        fprintf(f, "  \"input_check_s\": %.9f,\n  \"input_check_cpu_s\": %.9f,\n", tcheck[0], tcheck[1]);
        for (int w = 0; w < 2; w++)
            fprintf(f, "  \"target_%s\": {\"keyswitch_s\": %.9f, \"limb_transforms\": %zu, "
                       "\"ntt_s_check_free\": %.9f, \"ratio\": %.4f, \"ntt_s_public\": %.9f, "
                       "\"ratio_public\": %.4f, \"ntt_s_alone\": %.9f},\n",
                    w ? "cpu" : "wall", ks[w], ks_ntts, est[w], est[w] > 0 ? ks[w] / est[w] : 0.0,
                    est_pub[w], est_pub[w] > 0 ? ks[w] / est_pub[w] : 0.0, rep_ks[w]);
        fprintf(f, "  \"rows\": [\n");
        for (int i = 0; i < nr; i++) {
            const row *r = &rows[i];
            fprintf(f, "    {\"name\": \"%s\", \"kind\": \"%s\", \"level\": %zu, \"threads\": %d, \"mode\": \"%s\", ",
                    r->name, kind_name(r->kind), r->level, r->threads, r->cold ? "cold" : "warm");
            fprintf(f, "\"ntt_fwd_50\": %zu, \"ntt_inv_50\": %zu, \"ntt_fwd_60\": %zu, \"ntt_inv_60\": %zu, ",
                    r->nfwd[0], r->ninv[0], r->nfwd[1], r->ninv[1]);
            fprintf(f, "\"bytes\": %.0f, ", r->bytes);
            if (r->bytes_fused > 0) fprintf(f, "\"bytes_fused\": %.0f, ", r->bytes_fused);
            fprintf(f, "\"verified\": %s", r->ok ? "true" : "false");
            if (!r->ok) {
                fprintf(f, ", \"error\": \"%s\"}%s\n", r->why, i + 1 < nr ? "," : "");
                continue;
            }
            const double bw = r->threads > 1 ? bwT : bw1;
            fprintf(f, ", \"floor_s\": %.9f, \"median_s\": %.9f, \"min_s\": %.9f, \"max_s\": %.9f", r->bytes / (bw * 1e9),
                    r->med, r->min, r->max);
            if (r->replay >= 0) fprintf(f, ", \"ntt_only_row\": %d", r->replay);
            fprintf(f, ", \"reps_s\": [");
            for (int k = 0; k < r->nreps; k++) fprintf(f, "%s%.9f", k ? ", " : "", r->reps[k]);
            fprintf(f, "]");
            if (r->threads == 1) {
                fprintf(f, ", \"cpu_median_s\": %.9f, \"cpu_reps_s\": [", r->cmed);
                for (int k = 0; k < r->nreps; k++) fprintf(f, "%s%.9f", k ? ", " : "", r->creps[k]);
                fprintf(f, "]");
            }
            fprintf(f, "}%s\n", i + 1 < nr ? "," : "");
        }
        fprintf(f, "  ]\n}\n");
        if (fclose(f) != 0) return 1;
        printf("  wrote %s\n", json);
    }
    bool all = true;
    for (int i = 0; i < nr; i++) all &= rows[i].ok;
    return all ? 0 : 1;
}
