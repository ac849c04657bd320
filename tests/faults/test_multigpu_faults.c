/* GPU fault injection over libntt_multigpu (issue 50, with issue 51's
   sweep): the library on the CPU stand-ins (tests/cuda_emu with
   NTT_EMU_DEVICES GPUs, tests/nccl_emu), with the n-th cudaMalloc, kernel
   launch, copy, synchronisation and stream/event creation failing, for
   every n that a call reaches, over contexts, the key switch's creation,
   its device-pointer call (peer copies and NCCL), its host-pointer call,
   the four-step across GPUs and a batched product.  Each failure must give
   the documented status (NTT_ENOMEM for allocations and creations,
   NTT_EBACKEND with ntt_mgpu_last_error set otherwise), leave the caller's
   inputs as they were and nothing alive once the objects are destroyed;
   and after a failed call the same objects must give the right words on
   the next one (no state left half-made).  Prints the number of points
   tried. */
#include "emu_sweep.h"
#include "ntt_multigpu.h"
#include "test_common.h"

#include <cuda_runtime_api.h>
#include <stdlib.h>
#include <string.h>

static long points;

static void sweep(fault_trial *t) { points += emu_sweep(t); }

/* The key switch's shape: N = 16, L+1 = 7, K = 3, dnum = 3 (digits of 3,
   3 and 1 limbs), so that on 3 GPUs digits span GPUs and every GPU owns
   one P limb. */
#define N 16
#define NQ 7
#define NP 3
#define DNUM 3
#define NL (NQ + NP)
#define KL (2 * DNUM * NL)

static int G;
static ntt_mgpu_ctx *ctx;
static ntt_mgpu_ks *ks;
static uint64_t primes[NL], in[NQ * N], key[KL * N], ref[2 * NQ * N];
static uint64_t in0[NQ * N], key0[KL * N]; /* what the host form's caller passed */
static ntt_mgpu_ks_share sh[NTT_MGPU_MAX_LOCAL];
static uint64_t *din[NTT_MGPU_MAX_LOCAL], *dkey[NTT_MGPU_MAX_LOCAL], *dout[NTT_MGPU_MAX_LOCAL];
static ntt_status last; /* the armed call's status */

static uint64_t *dalloc(int g, size_t words)
{
    void *p = NULL;
    (void)cudaSetDevice(g);
    CHECK(cudaMalloc(&p, (words ? words : 1) * 8) == cudaSuccess, "cudaMalloc");
    return p;
}

/* ---- contexts ---------------------------------------------------------------------- */

static ntt_mgpu_ctx *made;
static ntt_status ctx_call(void *arg)
{
    (void)arg;
    return last = ntt_mgpu_create(&made, NULL, 0);
}
static void ctx_release(void *arg)
{
    (void)arg;
    CHECK(last == NTT_OK ? made != NULL : made == NULL, "context made iff NTT_OK");
    ntt_mgpu_destroy(made);
    made = NULL;
}

/* ---- the key switch's creation ------------------------------------------------------ */

static ntt_rns_params params(void)
{
    return (ntt_rns_params){N, primes, NQ, primes + NQ, NP, DNUM, NTT_BACKEND_CUDA, 0};
}
static ntt_mgpu_ks *made_ks;
static ntt_status create_call(void *arg)
{
    (void)arg;
    const ntt_rns_params p = params();
    return last = ntt_mgpu_ks_create(&made_ks, ctx, &p);
}
static void create_release(void *arg)
{
    (void)arg;
    CHECK(last == NTT_OK ? made_ks != NULL : made_ks == NULL, "key switch made iff NTT_OK");
    ntt_mgpu_ks_destroy(made_ks);
    made_ks = NULL;
}

/* ---- the key switch's calls --------------------------------------------------------- */

/* Both outputs of GPU g's share back into out (whole polynomials, Q_L). */
static void merge(uint64_t *out)
{
    for (int g = 0; g < G; g++) {
        (void)cudaSetDevice(g);
        const size_t q = sh[g].q_count, f = sh[g].q_first;
        CHECK(cudaMemcpy(out + f * N, dout[g], q * N * 8, cudaMemcpyDeviceToHost) == cudaSuccess &&
                  cudaMemcpy(out + (NQ + f) * N, dout[g] + q * N, q * N * 8,
                             cudaMemcpyDeviceToHost) == cudaSuccess,
              "download");
    }
}

static ntt_status ks_device(void)
{
    uint64_t *o1[NTT_MGPU_MAX_LOCAL];
    for (int g = 0; g < G; g++) o1[g] = dout[g] + sh[g].q_count * N;
    ntt_status st = ntt_mgpu_keyswitch(ks, N, NQ - 1, (const uint64_t *const *)din, NQ,
                                       (const uint64_t *const *)dkey, KL, dout, o1, NQ);
    const ntt_status s2 = ntt_mgpu_sync(ctx);
    return st != NTT_OK ? st : s2;
}

static uint64_t hout[2 * NQ * N];
static ntt_status ks_host(void)
{
    return ntt_mgpu_keyswitch_host(ks, N, NQ - 1, in, NQ, key, KL, hout, hout + NQ * N, NQ);
}

static ntt_status ks_call(void *arg)
{
    last = arg ? ks_host() : ks_device();
    if (last == NTT_EBACKEND)
        CHECK(ntt_mgpu_last_error(ctx) != 0, "NTT_EBACKEND without a last error");
    return last;
}

/* The input and the key as the caller passed them (device form: its
   shares, as uploaded). */
static bool ks_intact(void *arg)
{
    if (arg) return memcmp(in, in0, sizeof in) == 0 && memcmp(key, key0, sizeof key) == 0;
    bool ok = true;
    for (int g = 0; g < G && ok; g++) {
        const size_t q = sh[g].q_count, p = sh[g].p_count, rows = q + p;
        uint64_t *h = malloc(KL * N * 8);
        (void)cudaSetDevice(g);
        ok = h && cudaMemcpy(h, din[g], q * N * 8, cudaMemcpyDeviceToHost) == cudaSuccess &&
             memcmp(h, in + sh[g].q_first * N, q * N * 8) == 0;
        for (size_t poly = 0; poly < 2 * DNUM && ok; poly++)
            ok = cudaMemcpy(h, dkey[g] + poly * rows * N, rows * N * 8, cudaMemcpyDeviceToHost) ==
                     cudaSuccess &&
                 memcmp(h, key + (poly * NL + sh[g].q_first) * N, q * N * 8) == 0 &&
                 memcmp(h + q * N, key + (poly * NL + NQ + sh[g].p_first) * N, p * N * 8) == 0;
        free(h);
    }
    return ok;
}

/* After every run, failed or not: the next call on the same objects gives
   the words. */
static void ks_release(void *arg)
{
    uint64_t got[2 * NQ * N];
    CHECK_STATUS(NTT_OK, arg ? ks_host() : ks_device(), "key switch after a fault");
    if (arg) memcpy(got, hout, sizeof got);
    else merge(got);
    CHECK(memcmp(got, ref, sizeof got) == 0, "key switch after a fault: words differ");
}

static void keyswitch(void)
{
    for (size_t k = 0; k < NL; k++)
        CHECK_STATUS(NTT_OK, ntt_find_prime(50, 5, (unsigned)k, &primes[k]), "prime");
    for (size_t i = 0; i < NQ * N; i++) in[i] = rnd_below(primes[i / N]);
    for (size_t i = 0; i < KL * N; i++) key[i] = rnd_below(primes[(i / N) % NL]);
    ntt_rns_params p = params();
    p.backend = NTT_BACKEND_AUTO;
    ntt_rns *cpu = NULL;
    CHECK_STATUS(NTT_OK, ntt_rns_create(&cpu, &p), "CPU context");
    CHECK_STATUS(NTT_OK, ntt_rns_keyswitch(cpu, N, NQ - 1, in, NQ, key, KL, ref, ref + NQ * N, NQ),
                 "CPU key switch");
    ntt_rns_destroy(cpu);
    memcpy(in0, in, sizeof in);
    memcpy(key0, key, sizeof key);

    fault_trial create = {"ntt_mgpu_ks_create", NULL, NULL, create_call, NULL, create_release};
    sweep(&create);

    p.backend = NTT_BACKEND_CUDA;
    CHECK_STATUS(NTT_OK, ntt_mgpu_ks_create(&ks, ctx, &p), "key switch");
    if (!ks) return;
    for (int g = 0; g < G; g++) {
        CHECK_STATUS(NTT_OK, ntt_mgpu_ks_share_of(ks, g, NQ - 1, &sh[g]), "share");
        const size_t q = sh[g].q_count, rows = q + sh[g].p_count;
        din[g] = dalloc(g, q * N);
        dkey[g] = dalloc(g, sh[g].key_limbs * N);
        dout[g] = dalloc(g, 2 * q * N);
        CHECK(cudaMemcpy(din[g], in + sh[g].q_first * N, q * N * 8, cudaMemcpyHostToDevice) ==
                  cudaSuccess,
              "upload");
        for (size_t poly = 0; poly < 2 * DNUM; poly++)
            CHECK(cudaMemcpy(dkey[g] + poly * rows * N, key + (poly * NL + sh[g].q_first) * N,
                             q * N * 8, cudaMemcpyHostToDevice) == cudaSuccess &&
                      cudaMemcpy(dkey[g] + (poly * rows + q) * N,
                                 key + (poly * NL + NQ + sh[g].p_first) * N,
                                 sh[g].p_count * N * 8, cudaMemcpyHostToDevice) == cudaSuccess,
                  "upload");
    }
    /* The host form's shares are made by its first call, kept until the
       object goes: made before the sweep, so that they count as its. */
    static int host_form; /* the trials' arg: the host form */
    fault_trial dev = {"ntt_mgpu_keyswitch (peer copies)", NULL, NULL, ks_call, ks_intact, ks_release};
    fault_trial host = {"ntt_mgpu_keyswitch_host", &host_form, NULL, ks_call, ks_intact, ks_release};
    ks_release(&host_form);
    sweep(&dev);
    sweep(&host);
    CHECK_STATUS(NTT_OK, ntt_mgpu_set_copy(ctx, NTT_MGPU_COPY_NCCL), "set_copy NCCL");
    dev.name = "ntt_mgpu_keyswitch (NCCL)";
    sweep(&dev);
    CHECK_STATUS(NTT_OK, ntt_mgpu_set_copy(ctx, NTT_MGPU_COPY_PEER), "set_copy PEER");
    for (int g = 0; g < G; g++) {
        (void)cudaSetDevice(g);
        cudaFree(din[g]);
        cudaFree(dkey[g]);
        cudaFree(dout[g]);
    }
    ntt_mgpu_ks_destroy(ks);
}

/* ---- the four-step and a batched product -------------------------------------------- */

#define LN 64
static ntt_mgpu_large *large;
static uint64_t lp, la[LN], lref[LN];
static uint64_t *lin[NTT_MGPU_MAX_LOCAL], *lout[NTT_MGPU_MAX_LOCAL];

static void large_reset(void *arg)
{
    (void)arg;
    CHECK_STATUS(NTT_OK, ntt_mgpu_large_scatter_u64(large, 0, la, lin), "scatter");
}
static ntt_status large_call(void *arg)
{
    (void)arg;
    last = ntt_mgpu_large_forward_u64(large, lin, lout);
    if (last == NTT_EBACKEND)
        CHECK(ntt_mgpu_last_error(ctx) != 0, "NTT_EBACKEND without a last error");
    return last;
}
static void large_release(void *arg)
{
    uint64_t got[LN];
    large_reset(arg);
    CHECK_STATUS(NTT_OK, ntt_mgpu_large_forward_u64(large, lin, lout), "four-step after a fault");
    CHECK_STATUS(NTT_OK, ntt_mgpu_large_gather_u64(large, 1, lout, got), "gather");
    CHECK(memcmp(got, lref, sizeof got) == 0, "four-step after a fault: words differ");
}

static void four_step(void)
{
    CHECK_STATUS(NTT_OK, ntt_find_prime(50, 6, 0, &lp), "prime");
    for (size_t i = 0; i < LN; i++) la[i] = rnd_below(lp);
    ntt_plan *cpu = NULL;
    CHECK_STATUS(NTT_OK, ntt_plan_create(&cpu, LN, lp, NTT_U64, NTT_BACKEND_AUTO, NULL), "plan");
    memcpy(lref, la, sizeof la);
    CHECK_STATUS(NTT_OK, ntt_forward_u64(cpu, lref), "CPU forward");
    ntt_plan_destroy(cpu);
    CHECK_STATUS(NTT_OK, ntt_mgpu_large_create(&large, ctx, LN, lp, NTT_U64, NULL), "large plan");
    if (!large) return;
    for (int g = 0; g < G; g++) {
        ntt_mgpu_local loc;
        CHECK_STATUS(NTT_OK, ntt_mgpu_large_local(large, g, &loc), "local");
        lin[g] = dalloc(g, loc.alloc);
        lout[g] = dalloc(g, loc.alloc);
    }
    fault_trial t = {"ntt_mgpu_large_forward (peer copies)", NULL, large_reset, large_call, NULL,
                     large_release};
    sweep(&t);
    for (int g = 0; g < G; g++) {
        (void)cudaSetDevice(g);
        cudaFree(lin[g]);
        cudaFree(lout[g]);
    }
    ntt_mgpu_large_destroy(large);
}

#define PN 32
#define PC 7 /* items: not a multiple of the GPUs */
static ntt_mgpu_plan *bplan;
static uint64_t pq[PC], pa[PC * PN], pb[PC * PN], pref[PC * PN];
static uint64_t *pda[NTT_MGPU_MAX_LOCAL], *pdb[NTT_MGPU_MAX_LOCAL], *pdc[NTT_MGPU_MAX_LOCAL];

static void range_io(uint64_t *const *d, uint64_t *h, bool up)
{
    for (int g = 0; g < G; g++) {
        const ntt_mgpu_range r = ntt_mgpu_range_of(ctx, PC, g);
        (void)cudaSetDevice(g);
        const cudaError_t e =
            up ? cudaMemcpy(d[g], h + r.first * PN, r.count * PN * 8, cudaMemcpyHostToDevice)
               : cudaMemcpy(h + r.first * PN, d[g], r.count * PN * 8, cudaMemcpyDeviceToHost);
        CHECK(e == cudaSuccess, "range copy");
    }
}
static ntt_status product_call(void *arg)
{
    (void)arg;
    last = ntt_mgpu_polymul_u64(bplan, pdc, PN, pda, PN, pdb, PN, PC, PN);
    const ntt_status s2 = ntt_mgpu_sync(ctx);
    if (last == NTT_OK) last = s2;
    if (last == NTT_EBACKEND)
        CHECK(ntt_mgpu_last_error(ctx) != 0, "NTT_EBACKEND without a last error");
    return last;
}
static bool product_intact(void *arg)
{
    (void)arg;
    uint64_t h[PC * PN];
    range_io(pda, h, false);
    bool ok = memcmp(h, pa, sizeof h) == 0;
    range_io(pdb, h, false);
    return ok && memcmp(h, pb, sizeof h) == 0;
}
static void product_release(void *arg)
{
    uint64_t got[PC * PN];
    CHECK_STATUS(NTT_OK, product_call(arg), "product after a fault");
    range_io(pdc, got, false);
    CHECK(memcmp(got, pref, sizeof got) == 0, "product after a fault: words differ");
}

static void product(void)
{
    for (size_t k = 0; k < PC; k++) CHECK_STATUS(NTT_OK, ntt_find_prime(40, 6, (unsigned)k, &pq[k]), "prime");
    for (size_t i = 0; i < PC * PN; i++) {
        pa[i] = rnd_below(pq[i / PN]);
        pb[i] = rnd_below(pq[i / PN]);
    }
    ntt_plan *cpu = NULL;
    CHECK_STATUS(NTT_OK, ntt_plan_create_rns(&cpu, PN, pq, PC, NTT_U64, NTT_BACKEND_AUTO, NULL), "plan");
    CHECK_STATUS(NTT_OK, ntt_polymul_batch_u64(cpu, pref, pa, pb, PC, PN), "CPU product");
    ntt_plan_destroy(cpu);
    CHECK_STATUS(NTT_OK, ntt_mgpu_plan_create(&bplan, ctx, PN, pq, PC, NTT_U64, NULL), "plan");
    if (!bplan) return;
    for (int g = 0; g < G; g++) {
        const size_t c = ntt_mgpu_range_of(ctx, PC, g).count;
        pda[g] = dalloc(g, c * PN);
        pdb[g] = dalloc(g, c * PN);
        pdc[g] = dalloc(g, c * PN);
    }
    range_io(pda, pa, true);
    range_io(pdb, pb, true);
    fault_trial t = {"ntt_mgpu_polymul (device pointers)", NULL, NULL, product_call, product_intact,
                     product_release};
    sweep(&t);
    for (int g = 0; g < G; g++) {
        (void)cudaSetDevice(g);
        cudaFree(pda[g]);
        cudaFree(pdb[g]);
        cudaFree(pdc[g]);
    }
    ntt_mgpu_plan_destroy(bplan);
}

int main(void)
{
    setenv("NCCL_NVLS_ENABLE", "0", 1);
    test_init("test_multigpu_faults");
    int ndev = 0;
    if (cudaGetDeviceCount(&ndev) != cudaSuccess || ndev < 2) {
        printf("fewer than 2 GPUs: skipped\n");
        return TEST_SKIP;
    }
    fault_trial create = {"ntt_mgpu_create", NULL, NULL, ctx_call, NULL, ctx_release};
    sweep(&create);
    CHECK_STATUS(NTT_OK, ntt_mgpu_create(&ctx, NULL, 0), "context");
    if (!ctx) return test_finish();
    ntt_mgpu_info info;
    CHECK_STATUS(NTT_OK, ntt_mgpu_get_info(ctx, &info), "info");
    G = info.gpus;
    /* Peer copies whatever the GPUs (AUTO takes them with two only). */
    CHECK_STATUS(NTT_OK, ntt_mgpu_set_copy(ctx, NTT_MGPU_COPY_PEER), "the stand-in's GPUs are peers");
    keyswitch();
    four_step();
    product();
    ntt_mgpu_destroy(ctx);
    printf("%d GPUs: %ld failure points\n", G, points);
    return test_finish();
}
