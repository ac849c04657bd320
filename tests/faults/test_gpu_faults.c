/* GPU fault injection (issue 51): the CUDA backend on the CPU stand-in of
   the runtime (tests/cuda_emu), with the n-th cudaMalloc, cudaMallocHost,
   kernel launch, copy, synchronisation and stream/event creation failing,
   for every n that a call reaches, over plan creation (fast path and the
   course ladder), host-pointer and device-pointer execution (batches
   larger than the plan's staging buffers included) and ntt_polymul_mod on
   the CUDA backend.  Each failure must give the documented status
   (NTT_ENOMEM for allocations, NTT_EBACKEND with the CUDA error in
   ntt_cuda_last_error otherwise), leave the plan destroyable, the caller's
   host arrays as they were and no buffer, stream or event alive.  Prints
   the number of points tried.  Then the CKKS module on a CUDA RNS context:
   ntt_ckks_create (its device workspace) and HMult with rescale, a
   rotation and hoisted rotations on device pointers, each failing with
   its documented status and leaving nothing alive. */
#include "emu_faults.h"
#include "emu_sweep.h"
#include "test_common.h"
#include "ntt_ckks.h"

#include <cuda_runtime_api.h>

#include <string.h>

#define CUDA_LAUNCH_FAILURE 719 /* the stand-in's injected error */

static long points, trials;

/* Every kind of fault in turn. */
static void sweep(fault_trial *t)
{
    points += emu_sweep(t);
    trials += EMU_FAULT_KINDS;
}

#define N 64
#define COUNT 5 /* items of the batched calls: more than the plan's batch */
#define W (COUNT * N)

enum { OP_FORWARD, OP_INVERSE, OP_POINTWISE, OP_POLYMUL, OP_LINEAR, OP_FORWARD_BATCH,
       OP_POLYMUL_BATCH, OP_DEV_FORWARD, OP_DEV_POLYMUL, OP_COUNT };
static const char *const op_names[OP_COUNT] = {
    "forward", "inverse", "pointwise", "polymul", "polymul_linear", "forward_batch",
    "polymul_batch", "cuda_forward (device pointers)", "cuda_polymul (device pointers)"};

typedef struct gpu_case {
    ntt_plan *plan;
    ntt_width width;
    size_t nmod;
    uint64_t moduli[2];
    test_opts o;
    int op;
    uint64_t a[W], b[W], c[W], keep[3][W];
    uint32_t a32[W], b32[W], c32[W], keep32[3][W];
    uint64_t want[W]; /* the batched calls' results, from a SCALAR plan */
    uint32_t want32[W];
} gpu_case;

static gpu_case g;

static ntt_status create_call(void *arg)
{
    gpu_case *x = arg;
    return test_plan_create_rns(&x->plan, N, x->moduli, x->nmod, x->width, NTT_BACKEND_CUDA, &x->o);
}
static bool create_intact(void *arg)
{
    gpu_case *x = arg;
    bool ok = x->plan == NULL;
    if (emu_sweep_fired() && emu_sweep_expected() == NTT_EBACKEND) ok = ok && ntt_cuda_last_error(NULL) == CUDA_LAUNCH_FAILURE;
    return ok;
}
static void release(void *arg)
{
    gpu_case *x = arg;
    ntt_plan_destroy(x->plan);
    x->plan = NULL;
}

static gpu_case scratch;
static ntt_status exec_call(void *arg);

static void exec_reset(void *arg)
{
    gpu_case *x = arg;
    CHECK_STATUS(NTT_OK, create_call(x), "exec: unarmed plan_create");
    for (size_t i = 0; i < W; i++) {
        uint64_t q = x->moduli[(i / N) % x->nmod];
        x->a[i] = rnd_below(q), x->b[i] = rnd_below(q), x->c[i] = i;
        x->a32[i] = (uint32_t)x->a[i], x->b32[i] = (uint32_t)x->b[i], x->c32[i] = (uint32_t)i;
    }
    memcpy(x->keep[0], x->a, sizeof x->a), memcpy(x->keep[1], x->b, sizeof x->b);
    memcpy(x->keep[2], x->c, sizeof x->c);
    memcpy(x->keep32[0], x->a32, sizeof x->a32), memcpy(x->keep32[1], x->b32, sizeof x->b32);
    memcpy(x->keep32[2], x->c32, sizeof x->c32);
    if (x->op == OP_FORWARD_BATCH || x->op == OP_POLYMUL_BATCH) {
        /* What each item becomes: the same call on a SCALAR plan. */
        ntt_plan *ref = NULL;
        ntt_plan_options o = {.flags = x->o.flags};
        CHECK_STATUS(NTT_OK, ntt_plan_create_rns(&ref, N, x->moduli, x->nmod, x->width,
                                                 NTT_BACKEND_SCALAR, &o),
                     "exec: scalar plan");
        if (!ref) return;
        gpu_case *y = &scratch;
        memcpy(y, x, sizeof *y);
        y->plan = ref;
        CHECK_STATUS(NTT_OK, exec_call(y), "exec: scalar %s", op_names[x->op]);
        const bool fwd = x->op == OP_FORWARD_BATCH;
        memcpy(x->want, fwd ? y->a : y->c, sizeof x->want);
        memcpy(x->want32, fwd ? y->a32 : y->c32, sizeof x->want32);
        ntt_plan_destroy(ref);
    }
}


/* Item i of an output array: as it was, or its complete result. */
static bool item_old_or_done(const gpu_case *x, size_t i, int which)
{
    const size_t off = i * N, bytes64 = N * sizeof(uint64_t), bytes32 = N * sizeof(uint32_t);
    const uint64_t *v = which == 0 ? x->a : x->c;
    const uint32_t *v32 = which == 0 ? x->a32 : x->c32;
    if (x->width == NTT_U32)
        return !memcmp(v32 + off, x->keep32[which] + off, bytes32) ||
               !memcmp(v32 + off, x->want32 + off, bytes32);
    return !memcmp(v + off, x->keep[which] + off, bytes64) || !memcmp(v + off, x->want + off, bytes64);
}

/* The host arrays as reset left them, and the plan's last error set.  A
   batch larger than the plan's staging buffers runs in chunks, and a
   failure in a later chunk leaves the earlier chunks' items done (ntt.h):
   there every output item must be either as it was or complete.  The
   device-pointer calls write their (stand-in device) arrays in place as a
   GPU would: only the error is checked there. */
static bool exec_intact(void *arg)
{
    gpu_case *x = arg;
    bool ok = true;
    if (emu_sweep_expected() == NTT_EBACKEND) ok = ntt_cuda_last_error(x->plan) == CUDA_LAUNCH_FAILURE;
    if (x->op >= OP_DEV_FORWARD) return ok;
    const bool chunked = x->op == OP_FORWARD_BATCH || x->op == OP_POLYMUL_BATCH;
    const int out = x->op == OP_FORWARD_BATCH ? 0 : 2;
    for (size_t i = 0; chunked && i < COUNT; i++) ok = ok && item_old_or_done(x, i, out);
    for (int k = 0; k < 3; k++) {
        if (chunked && k == out) continue;
        ok = ok && !memcmp(x->keep[k], k == 0 ? x->a : k == 1 ? x->b : x->c, sizeof x->a) &&
             !memcmp(x->keep32[k], k == 0 ? x->a32 : k == 1 ? x->b32 : x->c32, sizeof x->a32);
    }
    return ok;
}

static ntt_status exec_call(void *arg)
{
    gpu_case *x = arg;
    ntt_plan *p = x->plan;
    if (x->width == NTT_U32) {
        switch (x->op) {
        case OP_FORWARD: return ntt_forward_u32(p, x->a32);
        case OP_INVERSE: return ntt_inverse_u32(p, x->a32);
        case OP_POINTWISE: return ntt_pointwise_u32(p, x->c32, x->a32, x->b32);
        case OP_POLYMUL: return ntt_polymul_u32(p, x->c32, x->a32, x->b32);
        case OP_LINEAR: return ntt_polymul_linear_u32(p, x->c32, x->a32, N / 2, x->b32, N / 4);
        case OP_FORWARD_BATCH: return ntt_forward_batch_u32(p, x->a32, COUNT, N);
        case OP_POLYMUL_BATCH: return ntt_polymul_batch_u32(p, x->c32, x->a32, x->b32, COUNT, N);
        case OP_DEV_FORWARD: return ntt_cuda_forward_u32(p, x->a32, COUNT, N, NULL);
        default:
            return ntt_cuda_polymul_u32(p, x->c32, N, x->a32, N / 2, x->b32, N / 2, COUNT, N, NULL);
        }
    }
    switch (x->op) {
    case OP_FORWARD: return ntt_forward_u64(p, x->a);
    case OP_INVERSE: return ntt_inverse_u64(p, x->a);
    case OP_POINTWISE: return ntt_pointwise_u64(p, x->c, x->a, x->b);
    case OP_POLYMUL: return ntt_polymul_u64(p, x->c, x->a, x->b);
    case OP_LINEAR: return ntt_polymul_linear_u64(p, x->c, x->a, N / 2, x->b, N / 4);
    case OP_FORWARD_BATCH: return ntt_forward_batch_u64(p, x->a, COUNT, N);
    case OP_POLYMUL_BATCH: return ntt_polymul_batch_u64(p, x->c, x->a, x->b, COUNT, N);
    case OP_DEV_FORWARD: return ntt_cuda_forward_u64(p, x->a, COUNT, N, NULL);
    default: return ntt_cuda_polymul_u64(p, x->c, N, x->a, N / 2, x->b, N / 2, COUNT, N, NULL);
    }
}

static void plans(void)
{
    static const ntt_variant variants[] = {NTT_VARIANT_FAST, NTT_VARIANT_GPU_TABLE,
                                           NTT_VARIANT_GPU_ASYNC, NTT_VARIANT_GPU_SHARED};
    char name[200];
    for (size_t vi = 0; vi < sizeof variants / sizeof variants[0]; vi++)
        for (int w = 0; w < 2; w++)
            for (size_t nmod = 1; nmod <= 2; nmod++) {
                /* The ladder's variants take one modulus, cyclic. */
                if (variants[vi] != NTT_VARIANT_FAST && nmod > 1) continue;
                memset(&g, 0, sizeof g);
                g.width = w ? NTT_U64 : NTT_U32;
                g.nmod = nmod;
                g.o.variant = variants[vi];
                g.o.batch = 2;
                g.o.flags = variants[vi] == NTT_VARIANT_FAST && nmod == 2 ? NTT_FLAG_NEGACYCLIC : 0;
                for (size_t i = 0; i < nmod; i++)
                    CHECK_STATUS(NTT_OK, ntt_find_prime(w ? 62 : 30, 8, (unsigned)i, &g.moduli[i]),
                                 "find_prime");
                snprintf(name, sizeof name, "plan_create cuda variant %d u%d moduli %zu",
                         (int)variants[vi], (int)g.width, nmod);
                fault_trial t = {name, &g, NULL, create_call, create_intact, release};
                sweep(&t);
                for (g.op = 0; g.op < OP_COUNT; g.op++) {
                    if (variants[vi] != NTT_VARIANT_FAST && g.op >= OP_DEV_FORWARD) continue;
                    snprintf(name, sizeof name, "%s cuda variant %d u%d moduli %zu",
                             op_names[g.op], (int)variants[vi], (int)g.width, nmod);
                    fault_trial e = {name, &g, exec_reset, exec_call, exec_intact, release};
                    sweep(&e);
                }
            }
}

/* ---- ntt_polymul_mod on the CUDA backend ------------------------------------ */

#define LA 100
#define LB 60

static struct {
    uint64_t p;
    uint64_t a[LA], b[LB], c[LA + LB];
} pm;

static void pm_reset(void *arg)
{
    (void)arg;
    for (size_t i = 0; i < LA + LB; i++) pm.c[i] = ~(uint64_t)i;
}
static ntt_status pm_call(void *arg)
{
    (void)arg;
    return ntt_polymul_mod(pm.c, pm.a, LA, pm.b, LB, pm.p, NTT_BACKEND_CUDA);
}
static bool pm_intact(void *arg)
{
    (void)arg;
    for (size_t i = 0; i < LA + LB; i++)
        if (pm.c[i] != ~(uint64_t)i) return false;
    return emu_sweep_expected() != NTT_EBACKEND || ntt_cuda_last_error(NULL) == CUDA_LAUNCH_FAILURE;
}
static void pm_release(void *arg)
{
    (void)arg;
    if (pm.c[0] != ~(uint64_t)0) {
        uint64_t want[LA + LB];
        t_schoolbook(want, pm.a, LA, pm.b, LB, pm.p);
        CHECK_ARR64(want, pm.c, LA + LB - 1, "polymul_mod p %llu", (unsigned long long)pm.p);
    }
    ntt_cache_clear();
}

static void polymul_mod(void)
{
    const uint64_t ps[] = {7340033, 1000000007};
    char name[120];
    for (size_t i = 0; i < 2; i++) {
        pm.p = ps[i];
        rnd_fill64(pm.a, LA, pm.p);
        rnd_fill64(pm.b, LB, pm.p);
        snprintf(name, sizeof name, "polymul_mod cuda p %llu", (unsigned long long)pm.p);
        fault_trial t = {name, NULL, pm_reset, pm_call, pm_intact, pm_release};
        sweep(&t);
    }
}

/* ---- CKKS on a CUDA RNS context ------------------------------------------------ */

#define CN 16
#define CQ 3
#define CP 2
#define CL (CQ + CP)
#define CK (2 * 2 * CL * CN) /* key words: dnum = 2 */

enum { CK_MUL, CK_ROTATE, CK_HOISTED, CK_SUM, CK_COUNT };
static const char *const ck_names[CK_COUNT] = {"ckks_cuda_mul+rescale", "ckks_cuda_rotate",
                                               "ckks_cuda_rotate_hoisted", "ckks_cuda_rotate_sum"};

static struct {
    uint64_t primes[CL];
    uint64_t rlk[CK], gk[CK], a0[CQ * CN], a1[CQ * CN]; /* from a CPU context */
    ntt_rns *rns;
    ntt_ckks *ck;
    uint64_t *dmem; /* rlk, gk, a0, a1, o0, o1 */
    int op;
} ckc;

static ntt_rns_params ck_params(ntt_backend be)
{
    return (ntt_rns_params){.n = CN, .q = ckc.primes, .q_count = CQ, .p = ckc.primes + CQ,
                            .p_count = CP, .dnum = 2, .backend = be};
}
static void ck_rns(void *arg)
{
    (void)arg;
    ntt_rns_params prm = ck_params(NTT_BACKEND_CUDA);
    CHECK_STATUS(NTT_OK, ntt_rns_create(&ckc.rns, &prm), "ckks: CUDA rns");
}
static ntt_status ck_create_call(void *arg)
{
    (void)arg;
    return ntt_ckks_create(&ckc.ck, ckc.rns);
}
static bool ck_create_intact(void *arg)
{
    (void)arg;
    return ckc.ck == NULL;
}
static void ck_release(void *arg)
{
    (void)arg;
    ntt_ckks_destroy(ckc.ck);
    ntt_rns_destroy(ckc.rns);
    if (ckc.dmem) cudaFree(ckc.dmem);
    ckc.ck = NULL;
    ckc.rns = NULL;
    ckc.dmem = NULL;
}
static void ck_op_reset(void *arg)
{
    ck_rns(arg);
    CHECK_STATUS(NTT_OK, ck_create_call(arg), "ckks: unarmed create");
    void *p = NULL;
    CHECK(cudaMalloc(&p, (2 * CK + 4 * CQ * CN) * 8) == cudaSuccess, "ckks: cudaMalloc");
    ckc.dmem = p;
    CHECK(cudaMemcpy(ckc.dmem, ckc.rlk, CK * 8, cudaMemcpyHostToDevice) == cudaSuccess &&
              cudaMemcpy(ckc.dmem + CK, ckc.gk, CK * 8, cudaMemcpyHostToDevice) == cudaSuccess &&
              cudaMemcpy(ckc.dmem + 2 * CK, ckc.a0, CQ * CN * 8, cudaMemcpyHostToDevice) == cudaSuccess &&
              cudaMemcpy(ckc.dmem + 2 * CK + CQ * CN, ckc.a1, CQ * CN * 8, cudaMemcpyHostToDevice) ==
                  cudaSuccess,
          "ckks: upload");
}
static ntt_status ck_op_call(void *arg)
{
    (void)arg;
    uint64_t *rlk = ckc.dmem, *gk = ckc.dmem + CK, *c = ckc.dmem + 2 * CK;
    ntt_ckks_ct a = {c, c + CQ * CN, CN, CQ - 1, CQ}, o = {c + 2 * CQ * CN, c + 3 * CQ * CN, CN, 0, CQ};
    const uint64_t gal[2] = {5, 2 * CN - 1};
    const uint64_t *const keys[2] = {gk, gk};
    switch (ckc.op) {
    case CK_MUL: return ntt_ckks_cuda_mul(ckc.ck, &a, &a, rlk, CK / CN, 1, &o, NULL);
    case CK_ROTATE: return ntt_ckks_cuda_rotate(ckc.ck, &a, 1, gk, CK / CN, &o, NULL);
    case CK_SUM: return ntt_ckks_cuda_rotate_sum(ckc.ck, &a, gal, 2, keys, CK / CN, &a, NULL);
    default: {
        ntt_ckks_ct outs[2] = {o, a}; /* the second in place */
        return ntt_ckks_cuda_rotate_hoisted(ckc.ck, &a, gal, 2, keys, CK / CN, outs, NULL);
    }
    }
}
static bool ck_op_intact(void *arg)
{
    (void)arg;
    /* Device outputs are not promised intact after a run-time failure; a
       launch failure leaves its CUDA error with the context. */
    if (emu_sweep_fired() && emu_sweep_expected() == NTT_EBACKEND)
        return ntt_ckks_cuda_last_error(ckc.ck) == CUDA_LAUNCH_FAILURE ||
               ntt_rns_cuda_last_error(ckc.rns) == CUDA_LAUNCH_FAILURE;
    return true;
}

static void ckks(void)
{
    char name[120];
    for (size_t i = 0; i < CL; i++)
        CHECK_STATUS(NTT_OK, ntt_find_prime(50, 6, (unsigned)i, &ckc.primes[i]), "find_prime");
    /* Keys and a ciphertext from a CPU context of the same parameters. */
    ntt_rns_params prm = ck_params(NTT_BACKEND_SCALAR);
    ntt_rns *hr;
    ntt_ckks *h;
    CHECK_STATUS(NTT_OK, ntt_rns_create(&hr, &prm), "ckks: host rns");
    CHECK_STATUS(NTT_OK, ntt_ckks_create(&h, hr), "ckks: host context");
    int8_t s[CN];
    int64_t m[CN];
    for (size_t i = 0; i < CN; i++) m[i] = (int64_t)(i % 3) - 1;
    ntt_ckks_ct a = {ckc.a0, ckc.a1, CN, 0, CQ};
    CHECK_STATUS(NTT_OK, ntt_ckks_secret_gen(h, 1, s, CN), "secret");
    CHECK_STATUS(NTT_OK, ntt_ckks_keygen_relin(h, s, CN, 2, ckc.rlk, CK / CN), "relin key");
    CHECK_STATUS(NTT_OK, ntt_ckks_keygen_galois(h, s, CN, 5, 3, ckc.gk, CK / CN), "galois key");
    CHECK_STATUS(NTT_OK, ntt_ckks_encrypt(h, s, CN, m, 1 << 20, CQ - 1, 4, &a), "encrypt");
    ntt_ckks_destroy(h);
    ntt_rns_destroy(hr);
    fault_trial t = {"ckks_create cuda", NULL, ck_rns, ck_create_call, ck_create_intact, ck_release};
    sweep(&t);
    for (ckc.op = 0; ckc.op < CK_COUNT; ckc.op++) {
        snprintf(name, sizeof name, "%s", ck_names[ckc.op]);
        fault_trial e = {name, NULL, ck_op_reset, ck_op_call, ck_op_intact, ck_release};
        sweep(&e);
    }
}

int main(void)
{
    test_init("test_gpu_faults");
    if (!ntt_backend_available(NTT_BACKEND_CUDA)) {
        printf("test_gpu_faults: the CUDA stand-in is not available: skipped\n");
        return 77;
    }
    plans();
    polymul_mod();
    ckks();
    printf("CUDA failure points tried: %ld over %ld call sweeps\n", points, trials);
    return test_finish();
}
