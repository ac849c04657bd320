/* ntt-bench multigpu: libntt_multigpu on 1, 2 and 4 GPUs (as many as the
   machine has) in one call (issue 50).  Rows:
     limbs    the limb-batched negacyclic NTT, N = 2^16 x 120 u64 limbs
              (device pointers, each GPU its range of limbs);
     product  u64 products of 2^16 x 2^16 coefficients, a batch of 64
              different primes (one per item), n = 2^17;
     large    the four-step transform across GPUs (one exchange per
              transform), sizes --large, against one GPU's plain CUDA plan;
     keyswitch the hybrid key switch with the RNS limbs partitioned
              (ntt_mgpu_keyswitch, device pointers), N = 2^--log-n, L+1,
              K, dnum of --ks (45, 15, 3), at level L, against one GPU's
              ntt_rns_cuda_keyswitch (row ks-1, itself checked against the
              CPU's ntt_rns_keyswitch); per GPU count also each stage's
              gather (bytes received by the busiest GPU, event time); its
              gathers as the context picks them by default, and where the
              GPUs can copy from each other the other way too (rows
              keyswitch-peer or keyswitch-nccl, ntt_mgpu_set_copy); the
              same for large.
   Every row's results are compared with one GPU's (bit for bit); the
   one-GPU rows of limbs and product against the CPU backend.  Per row: the
   median time of --reps calls (each call and its synchronisation, the host
   clock), the collective bytes and time (large: the context's counters,
   from CUDA events around the exchange), the compute time, the speedup
   over one GPU and the efficiency (speedup / GPUs). */
#include "bench.h"

#include "cli.h"
#include "ntt_multigpu.h"

#include <cuda_runtime_api.h>
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define MAXR 64

typedef struct {
    int reps;
    size_t limbs, log_n;
    int large[8], nlarge;
    int ks[3]; /* L+1, K, dnum; ks[0] == 0: no key switch rows */
    const char *json;
} opts;

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static int cmp_d(const void *a, const void *b)
{
    const double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static double median(double *x, int n)
{
    qsort(x, (size_t)n, sizeof *x, cmp_d);
    return n % 2 ? x[n / 2] : 0.5 * (x[n / 2 - 1] + x[n / 2]);
}

static uint64_t rng_state = 0x9e3779b97f4a7c15u;
static uint64_t rnd(void)
{
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return rng_state;
}

typedef struct {
    const char *section;
    int gpus;
    size_t n, items;
    double median_s, compute_s, coll_s;
    double pipelined_s; /* batch rows: --reps calls back to back, one sync, per call */
    uint64_t coll_bytes;
    double speedup, efficiency;
    int verified; /* 1 bit-identical, 0 differs */
    /* keyswitch rows: each gather's bytes (the GPU receiving most) and
       event time, the compute stream's event span */
    uint64_t up_bytes, down_bytes;
    double up_s, down_s, event_s;
} row;

static row rows[64];
static int nrows;

static void print_row(const row *r)
{
    printf("%-14s %4d %9zu %6zu %12.3f %12.3f %12.3f %12.3f %14llu %8.2f %8.2f  %s\n", r->section,
           r->gpus, r->n, r->items, 1e3 * r->median_s, 1e3 * r->pipelined_s, 1e3 * r->compute_s,
           1e3 * r->coll_s,
           (unsigned long long)r->coll_bytes, r->speedup, r->efficiency,
           r->verified ? "ok" : "DIFFERS");
}

/* Device buffers of every GPU's range of `count` items of `stride` words. */
static int alloc_ranges(ntt_mgpu_ctx *ctx, int G, size_t count, size_t stride, uint64_t **d)
{
    for (int l = 0; l < G; l++) {
        const ntt_mgpu_range r = ntt_mgpu_range_of(ctx, count, l);
        d[l] = NULL;
        if (cudaSetDevice(l) != cudaSuccess ||
            cudaMalloc((void **)&d[l], (r.count ? r.count : 1) * stride * 8) != cudaSuccess)
            return -1;
    }
    return 0;
}

static void copy_ranges(ntt_mgpu_ctx *ctx, int G, size_t count, size_t stride, uint64_t **d,
                        uint64_t *h, int to_device)
{
    for (int l = 0; l < G; l++) {
        const ntt_mgpu_range r = ntt_mgpu_range_of(ctx, count, l);
        if (!r.count) continue;
        (void)cudaSetDevice(l);
        if (to_device)
            (void)cudaMemcpy(d[l], h + r.first * stride, r.count * stride * 8, cudaMemcpyHostToDevice);
        else
            (void)cudaMemcpy(h + r.first * stride, d[l], r.count * stride * 8, cudaMemcpyDeviceToHost);
    }
}

static void free_ranges(int G, uint64_t **d)
{
    for (int l = 0; l < G; l++) {
        (void)cudaSetDevice(l);
        cudaFree(d[l]);
    }
}

/* limbs (op 0) or products (op 1) on a context of G GPUs; ref: the one-GPU
   result (NULL: this is the one-GPU row, checked against the CPU). */
static int batch_row(const opts *o, ntt_mgpu_ctx *ctx, int G, int op, uint64_t **ref, double base)
{
    const size_t n = op == 0 ? (size_t)1 << o->log_n : (size_t)1 << (o->log_n + 1);
    const size_t count = op == 0 ? o->limbs : 64, half = n / 2;
    uint64_t q[128];
    const size_t nmod = op == 0 ? (count < 128 ? count : 128) : 64;
    for (size_t k = 0; k < nmod; k++)
        if (ntt_find_prime(op == 0 ? 60 : 50, (unsigned)o->log_n + 2, (unsigned)k, &q[k]) != NTT_OK)
            return -1;
    ntt_plan_options po = {.flags = op == 0 ? NTT_FLAG_NEGACYCLIC : 0};
    ntt_mgpu_plan *mp = NULL;
    ntt_status st = ntt_mgpu_plan_create(&mp, ctx, n, q, nmod, NTT_U64, &po);
    if (st != NTT_OK) {
        fprintf(stderr, "ntt-bench multigpu: plan: %s\n", ntt_status_string(st));
        return -1;
    }
    uint64_t *a = malloc(count * n * 8), *b = malloc(count * n * 8), *out = malloc(count * n * 8);
    uint64_t *da[NTT_MGPU_MAX_LOCAL], *db[NTT_MGPU_MAX_LOCAL];
    if (!a || !b || !out || alloc_ranges(ctx, G, count, n, da) || alloc_ranges(ctx, G, count, n, db)) {
        fprintf(stderr, "ntt-bench multigpu: out of memory\n");
        return -1;
    }
    rng_state = 12345;
    for (size_t i = 0; i < count; i++)
        for (size_t j = 0; j < n; j++) {
            a[i * n + j] = op == 1 && j >= half ? 0 : rnd() % q[i % nmod];
            b[i * n + j] = op == 1 && j >= half ? 0 : rnd() % q[i % nmod];
        }
    double t[MAXR];
    const int reps = o->reps;
    for (int r = -2; r < reps; r++) {
        copy_ranges(ctx, G, count, n, da, a, 1);
        if (op == 1) copy_ranges(ctx, G, count, n, db, b, 1);
        if (ntt_mgpu_sync(ctx) != NTT_OK) return -1;
        const double t0 = now();
        st = op == 0 ? ntt_mgpu_forward_u64(mp, da, count, n)
                     : ntt_mgpu_polymul_u64(mp, da, n - 1, da, half, db, half, count, n);
        if (st == NTT_OK) st = ntt_mgpu_sync(ctx);
        if (r >= 0) t[r] = now() - t0;
        if (st != NTT_OK) {
            fprintf(stderr, "ntt-bench multigpu: %s\n", ntt_status_string(st));
            return -1;
        }
    }
    copy_ranges(ctx, G, count, n, da, out, 0);
    /* Back to back: the GPUs stay busy while the host enqueues the next
       call, so launch costs count only where they exceed the GPUs' work.
       Repeated in place, the values stay below the moduli. */
    if (ntt_mgpu_sync(ctx) != NTT_OK) return -1;
    const double tp = now();
    for (int r = 0; r < reps && st == NTT_OK; r++)
        st = op == 0 ? ntt_mgpu_forward_u64(mp, da, count, n)
                     : ntt_mgpu_polymul_u64(mp, da, n - 1, da, half, db, half, count, n);
    if (st == NTT_OK) st = ntt_mgpu_sync(ctx);
    if (st != NTT_OK) return -1;
    const double pipelined = (now() - tp) / reps;
    int ok = 1;
    if (*ref) {
        ok = memcmp(*ref, out, count * n * 8) == 0;
    } else {
        /* The CPU's result: the one-GPU row's reference. */
        ntt_plan *cpu = NULL;
        if (ntt_plan_create_rns(&cpu, n, q, nmod, NTT_U64, NTT_BACKEND_AUTO, &po) != NTT_OK) return -1;
        st = op == 0 ? ntt_forward_batch_u64(cpu, a, count, n)
                     : ntt_polymul_batch_u64(cpu, a, a, b, count, n);
        ntt_plan_destroy(cpu);
        ok = st == NTT_OK && memcmp(a, out, count * n * 8) == 0;
        *ref = out;
        out = NULL;
    }
    row *w = &rows[nrows++];
    *w = (row){op == 0 ? "limbs" : "product", G, n, count, median(t, reps), 0, 0, pipelined, 0, 0, 0, ok,
               0, 0, 0, 0, 0};
    w->compute_s = w->median_s;
    w->speedup = base > 0 ? base / w->median_s : 1.0;
    w->efficiency = w->speedup / G;
    print_row(w);
    free_ranges(G, da);
    free_ranges(G, db);
    free(a);
    free(b);
    free(out);
    ntt_mgpu_plan_destroy(mp);
    return ok ? (int)0 : 1;
}

/* The four-step on G GPUs; G == 1 also times the plain one-GPU plan (the
   baseline, *base) and keeps its spectrum (*ref). */
static int large_row(ntt_mgpu_ctx *ctx, int G, int lg, const opts *o, uint64_t **ref, double *base,
                     const char *name)
{
    const size_t n = (size_t)1 << lg;
    uint64_t p;
    if (ntt_find_prime(62, (unsigned)lg, 0, &p) != NTT_OK) return -1;
    uint64_t *a = malloc(n * 8), *got = malloc(n * 8);
    if (!a || !got) return -1;
    rng_state = 777;
    for (size_t i = 0; i < n; i++) a[i] = rnd() % p;
    double t[MAXR];
    const int reps = o->reps;
    if (G == 1) {
        ntt_plan *one = NULL;
        uint64_t *d = NULL;
        (void)cudaSetDevice(0);
        if (ntt_plan_create(&one, n, p, NTT_U64, NTT_BACKEND_CUDA, NULL) != NTT_OK ||
            cudaMalloc((void **)&d, n * 8) != cudaSuccess)
            return -1;
        for (int r = -2; r < reps; r++) {
            (void)cudaMemcpy(d, a, n * 8, cudaMemcpyHostToDevice);
            const double t0 = now();
            if (ntt_cuda_forward_u64(one, d, 1, n, NULL) != NTT_OK) return -1;
            (void)cudaDeviceSynchronize();
            if (r >= 0) t[r] = now() - t0;
        }
        *ref = malloc(n * 8);
        if (!*ref) return -1;
        (void)cudaMemcpy(*ref, d, n * 8, cudaMemcpyDeviceToHost);
        cudaFree(d);
        ntt_plan_destroy(one);
        row *w = &rows[nrows++];
        *w = (row){"large-1", 1, n, 1, median(t, reps), 0, 0, 0, 0, 1, 1, 1, 0, 0, 0, 0, 0};
        w->compute_s = w->median_s;
        *base = w->median_s;
        print_row(w);
    }
    ntt_mgpu_large *pl = NULL;
    ntt_status st = ntt_mgpu_large_create(&pl, ctx, n, p, NTT_U64, NULL);
    if (st != NTT_OK) {
        fprintf(stderr, "ntt-bench multigpu: large plan 2^%d: %s\n", lg, ntt_status_string(st));
        return -1;
    }
    uint64_t *d[NTT_MGPU_MAX_LOCAL];
    for (int l = 0; l < G; l++) {
        ntt_mgpu_local loc;
        if (ntt_mgpu_large_local(pl, l, &loc) != NTT_OK) return -1;
        (void)cudaSetDevice(l);
        if (cudaMalloc((void **)&d[l], (loc.alloc + 1) * 8) != cudaSuccess) return -1;
    }
    double ex[MAXR], co[MAXR];
    uint64_t bytes = 0;
    for (int r = -2; r < reps; r++) {
        if (ntt_mgpu_large_scatter_u64(pl, 0, a, d) != NTT_OK) return -1;
        ntt_mgpu_stats s0, s1;
        if (ntt_mgpu_stats_get(ctx, &s0) != NTT_OK) return -1;
        const double t0 = now();
        st = ntt_mgpu_large_forward_u64(pl, d, d);
        const double t1 = now();
        if (st == NTT_OK) st = ntt_mgpu_stats_get(ctx, &s1);
        if (st != NTT_OK) {
            fprintf(stderr, "ntt-bench multigpu: large: %s\n", ntt_status_string(st));
            return -1;
        }
        if (r >= 0) {
            t[r] = t1 - t0;
            ex[r] = s1.exchange_s - s0.exchange_s;
            co[r] = s1.compute_s - s0.compute_s;
            bytes = s1.bytes_sent - s0.bytes_sent;
        }
    }
    if (ntt_mgpu_large_gather_u64(pl, 1, d, got) != NTT_OK) return -1;
    row *w = &rows[nrows++];
    *w = (row){name, G, n, 1, median(t, reps), median(co, reps), median(ex, reps), 0, bytes, 0, 0,
               memcmp(*ref, got, n * 8) == 0, 0, 0, 0, 0, 0};
    w->speedup = *base / w->median_s;
    w->efficiency = w->speedup / G;
    print_row(w);
    free_ranges(G, d);
    ntt_mgpu_large_destroy(pl);
    free(a);
    free(got);
    return w->verified ? 0 : 1;
}

/* Device buffers for a one-GPU key switch. */
typedef struct {
    uint64_t *in, *key, *out;
} ks_one_bufs;

/* The key switch at level L on G GPUs; G == 1 first times one GPU's plain
   ntt_rns_cuda_keyswitch (row ks-1: the baseline *base, its result *ref,
   checked against the CPU); the row is named `name`. */
static int ks_row(const opts *o, ntt_mgpu_ctx *ctx, int G, uint64_t **ref, double *base,
                  const char *name)
{
    const size_t n = (size_t)1 << o->log_n, nq = (size_t)o->ks[0], np = (size_t)o->ks[1];
    const size_t dnum = (size_t)o->ks[2], nl = nq + np, l = nq - 1, q = nq, kl = 2 * dnum * nl;
    uint64_t pr[256];
    for (size_t k = 0; k < nl; k++)
        if (ntt_find_prime(60, (unsigned)o->log_n + 1, (unsigned)k, &pr[k]) != NTT_OK) return -1;
    ntt_rns_params par = {n, pr, nq, pr + nq, np, dnum, NTT_BACKEND_CUDA, 0};
    uint64_t *in = malloc(q * n * 8), *key = malloc(kl * n * 8), *got = malloc(2 * q * n * 8);
    if (!in || !key || !got) return -1;
    rng_state = 4242;
    for (size_t i = 0; i < q * n; i++) in[i] = rnd() % pr[i / n];
    for (size_t i = 0; i < kl * n; i++) key[i] = rnd() % pr[(i / n) % nl];
    double t[MAXR];
    const int reps = o->reps;
    if (G == 1) {
        ntt_rns *one = NULL;
        ks_one_bufs d = {0};
        (void)cudaSetDevice(0);
        if (ntt_rns_create(&one, &par) != NTT_OK || cudaMalloc((void **)&d.in, q * n * 8) ||
            cudaMalloc((void **)&d.key, kl * n * 8) || cudaMalloc((void **)&d.out, 2 * q * n * 8))
            return -1;
        (void)cudaMemcpy(d.in, in, q * n * 8, cudaMemcpyHostToDevice);
        (void)cudaMemcpy(d.key, key, kl * n * 8, cudaMemcpyHostToDevice);
        ntt_status st = NTT_OK;
        for (int r = -2; r < reps && st == NTT_OK; r++) {
            const double t0 = now();
            st = ntt_rns_cuda_keyswitch(one, n, l, d.in, q, d.key, kl, d.out, d.out + q * n, q, NULL);
            if (cudaDeviceSynchronize() != cudaSuccess) st = NTT_EBACKEND;
            if (r >= 0) t[r] = now() - t0;
        }
        const double tp = now();
        for (int r = 0; r < reps && st == NTT_OK; r++)
            st = ntt_rns_cuda_keyswitch(one, n, l, d.in, q, d.key, kl, d.out, d.out + q * n, q, NULL);
        if (cudaDeviceSynchronize() != cudaSuccess) st = NTT_EBACKEND;
        if (st != NTT_OK) {
            fprintf(stderr, "ntt-bench multigpu: one-GPU key switch: %s\n", ntt_status_string(st));
            return -1;
        }
        const double pipelined = (now() - tp) / reps;
        *ref = malloc(2 * q * n * 8);
        if (!*ref) return -1;
        (void)cudaMemcpy(*ref, d.out, 2 * q * n * 8, cudaMemcpyDeviceToHost);
        cudaFree(d.in);
        cudaFree(d.key);
        cudaFree(d.out);
        ntt_rns_destroy(one);
        /* The CPU's words. */
        ntt_rns *cpu = NULL;
        par.backend = NTT_BACKEND_AUTO;
        int ok = ntt_rns_create(&cpu, &par) == NTT_OK &&
                 ntt_rns_keyswitch(cpu, n, l, in, q, key, kl, got, got + q * n, q) == NTT_OK &&
                 memcmp(got, *ref, 2 * q * n * 8) == 0;
        ntt_rns_destroy(cpu);
        par.backend = NTT_BACKEND_CUDA;
        row *w = &rows[nrows++];
        *w = (row){"ks-1", 1, n, q, median(t, reps), 0, 0, pipelined, 0, 1, 1, ok, 0, 0, 0, 0, 0};
        w->compute_s = w->median_s;
        *base = w->median_s;
        print_row(w);
        if (!ok) return 1;
    }
    ntt_mgpu_ks *ks = NULL;
    ntt_status st = ntt_mgpu_ks_create(&ks, ctx, &par);
    if (st != NTT_OK) {
        fprintf(stderr, "ntt-bench multigpu: key switch on %d GPUs: %s\n", G, ntt_status_string(st));
        return -1;
    }
    /* Each GPU's shares (ntt_multigpu.h's layout). */
    uint64_t *din[NTT_MGPU_MAX_LOCAL] = {0}, *dkey[NTT_MGPU_MAX_LOCAL] = {0};
    uint64_t *d0[NTT_MGPU_MAX_LOCAL] = {0}, *d1[NTT_MGPU_MAX_LOCAL] = {0};
    ntt_mgpu_ks_share sh[NTT_MGPU_MAX_LOCAL];
    for (int g = 0; g < G; g++) {
        if (ntt_mgpu_ks_share_of(ks, g, l, &sh[g]) != NTT_OK) return -1;
        const size_t qc = sh[g].q_count, rows_k = qc + sh[g].p_count;
        (void)cudaSetDevice(g);
        if (cudaMalloc((void **)&din[g], (qc + 1) * n * 8) ||
            cudaMalloc((void **)&dkey[g], (sh[g].key_limbs + 1) * n * 8) ||
            cudaMalloc((void **)&d0[g], (2 * qc + 1) * n * 8))
            return -1;
        d1[g] = d0[g] + qc * n;
        (void)cudaMemcpy(din[g], in + sh[g].q_first * n, qc * n * 8, cudaMemcpyHostToDevice);
        for (size_t poly = 0; poly < 2 * dnum; poly++) {
            (void)cudaMemcpy(dkey[g] + poly * rows_k * n, key + (poly * nl + sh[g].q_first) * n,
                             qc * n * 8, cudaMemcpyHostToDevice);
            (void)cudaMemcpy(dkey[g] + (poly * rows_k + qc) * n,
                             key + (poly * nl + nq + sh[g].p_first) * n, sh[g].p_count * n * 8,
                             cudaMemcpyHostToDevice);
        }
    }
    const uint64_t *const *ci = (const uint64_t *const *)din, *const *ck = (const uint64_t *const *)dkey;
    double ev[MAXR], co[MAXR], up_t[MAXR], dn_t[MAXR];
    ntt_mgpu_ks_stats s0, s1;
    for (int r = -2; r < reps && st == NTT_OK; r++) {
        st = ntt_mgpu_ks_stats_get(ks, &s0);
        const double t0 = now();
        if (st == NTT_OK) st = ntt_mgpu_keyswitch(ks, n, l, ci, q, ck, kl, d0, d1, q);
        if (st == NTT_OK) st = ntt_mgpu_sync(ctx);
        const double t1 = now();
        if (st == NTT_OK) st = ntt_mgpu_ks_stats_get(ks, &s1);
        if (r >= 0) {
            t[r] = t1 - t0;
            ev[r] = s1.total_s;
            co[r] = s1.compute_s;
            up_t[r] = s1.modup_gather_s;
            dn_t[r] = s1.moddown_gather_s;
        }
    }
    uint64_t ub = 0, db = 0;
    for (int g = 0; g < G && st == NTT_OK; g++) {
        if (s1.modup_bytes[g] - s0.modup_bytes[g] > ub) ub = s1.modup_bytes[g] - s0.modup_bytes[g];
        if (s1.moddown_bytes[g] - s0.moddown_bytes[g] > db) db = s1.moddown_bytes[g] - s0.moddown_bytes[g];
    }
    const double tp = now();
    for (int r = 0; r < reps && st == NTT_OK; r++) st = ntt_mgpu_keyswitch(ks, n, l, ci, q, ck, kl, d0, d1, q);
    if (st == NTT_OK) st = ntt_mgpu_sync(ctx);
    const double pipelined = (now() - tp) / reps;
    if (st != NTT_OK) {
        fprintf(stderr, "ntt-bench multigpu: key switch on %d GPUs: %s (error %d)\n", G,
                ntt_status_string(st), ntt_mgpu_last_error(ctx));
        return -1;
    }
    for (int g = 0; g < G; g++) {
        (void)cudaSetDevice(g);
        (void)cudaMemcpy(got + sh[g].q_first * n, d0[g], sh[g].q_count * n * 8, cudaMemcpyDeviceToHost);
        (void)cudaMemcpy(got + (q + sh[g].q_first) * n, d1[g], sh[g].q_count * n * 8,
                         cudaMemcpyDeviceToHost);
        cudaFree(din[g]);
        cudaFree(dkey[g]);
        cudaFree(d0[g]);
    }
    ntt_mgpu_ks_destroy(ks);
    row *w = &rows[nrows++];
    *w = (row){name, G, n, q, median(t, reps), median(co, reps), 0, pipelined, ub + db, 0, 0,
               memcmp(*ref, got, 2 * q * n * 8) == 0, ub, db, median(up_t, reps),
               median(dn_t, reps), median(ev, reps)};
    w->coll_s = w->up_s + w->down_s;
    w->speedup = *base / w->median_s;
    w->efficiency = w->speedup / G;
    print_row(w);
    printf("          gathers: modUp %.2f MiB %.3f ms, modDown %.2f MiB %.3f ms; events: span %.3f ms, "
           "compute %.3f ms\n",
           (double)ub / (1 << 20), 1e3 * w->up_s, (double)db / (1 << 20), 1e3 * w->down_s,
           1e3 * w->event_s, 1e3 * w->compute_s);
    free(in);
    free(key);
    free(got);
    return w->verified ? 0 : 1;
}

/* -1: run; else the exit code (0 after --help, EXIT_USAGE after a bad
   option, with its message printed). */
static int parse(int argc, char **argv, opts *o)
{
    static const char cmd[] = "ntt-bench multigpu";
    *o = (opts){.reps = 11, .limbs = 120, .log_n = 16, .large = {20, 24}, .nlarge = 2,
                .ks = {45, 15, 3}};
    uint64_t reps = 11, limbs = 120, log_n = 16;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = NULL;
        uint64_t t[8];
        int r, k;
        if (cli_is_help(a)) {
            printf("usage: %s [--reps R] [--limbs L] [--log-n LOG] [--large L1,L2,..] "
                   "[--ks L+1,K,DNUM | --ks 0] [--quick] [--json FILE]\n", cmd);
            return EXIT_OK;
        } else if (!strcmp(a, "--quick")) {
            reps = 5;
            o->large[0] = 20;
            o->nlarge = 1;
        } else if ((r = cli_number_option(cmd, argc, argv, &i, "--reps", 1, MAXR, &reps)) != 0 ||
                   (r = cli_number_option(cmd, argc, argv, &i, "--limbs", 1, 4096, &limbs)) != 0 ||
                   (r = cli_number_option(cmd, argc, argv, &i, "--log-n", 4, 22, &log_n)) != 0 ||
                   (r = cli_file_option(cmd, argc, argv, &i, "--json", NULL, &o->json)) != 0) {
            if (r < 0) return EXIT_USAGE;
        } else if ((r = cli_option(cmd, argc, argv, &i, "--large", NULL, &v)) != 0) {
            if (r < 0) return EXIT_USAGE;
            if ((k = cli_parse_list(v, 2, 30, t, 8)) < 0) {
                fprintf(stderr, "%s: --large wants sizes log2 n in [2, 30], comma-separated\n", cmd);
                return EXIT_USAGE;
            }
            o->nlarge = k;
            for (int j = 0; j < k; j++) o->large[j] = (int)t[j];
        } else if ((r = cli_option(cmd, argc, argv, &i, "--ks", NULL, &v)) != 0) {
            if (r < 0) return EXIT_USAGE;
            k = cli_parse_list(v, 0, NTT_RNS_MAX_LIMBS, t, 3);
            const bool off = k == 1 && t[0] == 0;
            if (!off && (k != 3 || t[0] < 1 || t[1] < 1 || t[0] + t[1] > NTT_RNS_MAX_LIMBS ||
                         t[2] < 1 || t[2] > t[0])) {
                fprintf(stderr, "%s: --ks wants L+1,K,DNUM (1 <= DNUM <= L+1, L+1+K <= %d) or 0\n",
                        cmd, NTT_RNS_MAX_LIMBS);
                return EXIT_USAGE;
            }
            for (int j = 0; j < 3; j++) o->ks[j] = off ? 0 : (int)t[j];
        } else {
            return cli_unknown_option(cmd, a);
        }
    }
    o->reps = (int)reps;
    o->limbs = (size_t)limbs;
    o->log_n = (size_t)log_n;
    return -1;
}

int bench_multigpu(int argc, char **argv)
{
    setenv("NCCL_NVLS_ENABLE", "0", 1);
    opts o;
    const int pr = parse(argc, argv, &o);
    if (pr >= 0) return pr;
    int ndev = 0;
    if (cudaGetDeviceCount(&ndev) != cudaSuccess || ndev < 1) {
        fprintf(stderr, "ntt-bench multigpu: no GPU\n");
        return 8;
    }
    printf("%-14s %4s %9s %6s %12s %12s %12s %12s %14s %8s %8s\n", "row", "gpus", "n", "items",
           "median_ms", "pipelined_ms", "compute_ms", "collect_ms", "collect_bytes", "speedup",
           "effic");
    uint64_t *ref[2 + 8 + 1] = {0};
    double base[2 + 8 + 1] = {0};
    int bad = 0;
    const int counts[3] = {1, 2, 4};
    for (int ci = 0; ci < 3 && counts[ci] <= ndev; ci++) {
        const int G = counts[ci];
        int dev[4] = {0, 1, 2, 3};
        ntt_mgpu_ctx *ctx = NULL;
        const ntt_status st = ntt_mgpu_create(&ctx, dev, G);
        if (st != NTT_OK) {
            fprintf(stderr, "ntt-bench multigpu: context of %d GPUs: %s (error %d)\n", G,
                    ntt_status_string(st), ntt_mgpu_last_error(ctx));
            return 8;
        }
        for (int op = 0; op < 2; op++) {
            const int r = batch_row(&o, ctx, G, op, &ref[op], base[op]);
            if (r < 0) return 8;
            bad |= r;
            if (G == 1) base[op] = rows[nrows - 1].median_s;
        }
        /* The rows that move data between GPUs: as the context picks them
           by default, then, where the GPUs can copy from each other, the
           other way (rows NAME-peer or NAME-nccl). */
        ntt_mgpu_info info;
        bool peer = false;
        const bool both = G > 1 && ntt_mgpu_get_info(ctx, &info) == NTT_OK &&
                          ntt_mgpu_set_copy(ctx, NTT_MGPU_COPY_PEER) == NTT_OK;
        if (both) peer = !info.peer_copies;
        for (int way = 0; way < (both ? 2 : 1); way++) {
            const ntt_mgpu_copy how = !way ? NTT_MGPU_COPY_AUTO : peer ? NTT_MGPU_COPY_PEER
                                                                      : NTT_MGPU_COPY_NCCL;
            if (ntt_mgpu_set_copy(ctx, how) != NTT_OK) return 8;
            static const char *const lnames[] = {"large", "large-peer", "large-nccl"};
            static const char *const knames[] = {"keyswitch", "keyswitch-peer", "keyswitch-nccl"};
            const int v = !way ? 0 : peer ? 1 : 2;
            const char *lname = lnames[v], *kname = knames[v];
            for (int k = 0; k < o.nlarge; k++) {
                const int r = large_row(ctx, G, o.large[k], &o, &ref[2 + k], &base[2 + k], lname);
                if (r < 0) return 8;
                bad |= r;
            }
            if (!o.ks[0]) continue;
            const int r = ks_row(&o, ctx, G, &ref[10], &base[10], kname);
            if (r < 0) return 8;
            bad |= r;
        }
        ntt_mgpu_destroy(ctx);
    }
    if (o.json) {
        FILE *f = fopen(o.json, "w");
        if (!f) {
            fprintf(stderr, "ntt-bench multigpu: cannot write %s: %s\n", o.json, strerror(errno));
            return 8;
        }
        fprintf(f, "{\n  \"bench\": \"multigpu\",\n  \"gpus_present\": %d,\n  \"reps\": %d,\n  \"rows\": [\n",
                ndev, o.reps);
        /* Each row's one-GPU pipelined time, for its speedup (the key
           switch's: one GPU's plain call). */
        double pbase[64] = {0};
        for (int i = 0; i < nrows; i++) {
            char b[32];
            snprintf(b, sizeof b, "%s", strncmp(rows[i].section, "keyswitch", 9) ? rows[i].section : "ks-1");
            char *way = strstr(b, "-nccl"); /* large-nccl, large-peer: large's */
            if (!way) way = strstr(b, "-peer");
            if (way) *way = 0;
            for (int j = 0; j < nrows; j++)
                if (rows[j].gpus == 1 && !strcmp(rows[j].section, b)) pbase[i] = rows[j].pipelined_s;
        }
        for (int i = 0; i < nrows; i++) {
            const row *r = &rows[i];
            fprintf(f, "    {\"section\": \"%s\", \"gpus\": %d, \"n\": %zu, \"items\": %zu, "
                       "\"median_s\": %.9g, \"pipelined_s\": %.9g, \"pipelined_speedup\": %.4f, "
                       "\"compute_s\": %.9g, \"collective_s\": %.9g, "
                       "\"collective_bytes\": %llu, \"speedup\": %.4f, \"efficiency\": %.4f, "
                       "\"modup_gather_bytes\": %llu, \"modup_gather_s\": %.9g, "
                       "\"moddown_gather_bytes\": %llu, \"moddown_gather_s\": %.9g, "
                       "\"event_span_s\": %.9g, \"verified\": %s}%s\n",
                    r->section, r->gpus, r->n, r->items, r->median_s, r->pipelined_s,
                    r->pipelined_s > 0 && pbase[i] > 0 ? pbase[i] / r->pipelined_s : 0.0,
                    r->compute_s, r->coll_s,
                    (unsigned long long)r->coll_bytes, r->speedup, r->efficiency,
                    (unsigned long long)r->up_bytes, r->up_s, (unsigned long long)r->down_bytes,
                    r->down_s, r->event_s, r->verified ? "true" : "false", i + 1 < nrows ? "," : "");
        }
        fputs("  ]\n}\n", f);
        fclose(f);
    }
    for (int k = 0; k < 11; k++) free(ref[k]);
    return bad ? 1 : 0;
}
