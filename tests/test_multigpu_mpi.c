/* libntt_multigpu over MPI (include/ntt_multigpu_mpi.h): one GPU per
   process, the same calls as in one process.  Run under mpirun with 2 or
   more ranks on a machine with as many GPUs (label gpu; exit 77 with one
   rank, or without GPUs or NCCL).  Each rank checks its own shares against
   its GPU's single-GPU plan (the key switch: against the CPU's); every
   rank computes the same inputs from the same seed. */
#include "ntt_multigpu_mpi.h"
#include "test_common.h"

#include <cuda_runtime_api.h>
#include <stdlib.h>
#include <string.h>

static int rank, size;

static void large(ntt_mgpu_ctx *ctx, size_t n, unsigned flags)
{
    uint64_t p;
    if (ntt_find_prime(62, t_log2(n) + 1, 0, &p) != NTT_OK) return;
    ntt_plan_options o = {.flags = flags};
    ntt_plan *one = NULL;
    ntt_mgpu_large *pl = NULL;
    CHECK_STATUS(NTT_OK, ntt_plan_create(&one, n, p, NTT_U64, NTT_BACKEND_CUDA, &o), "one GPU");
    CHECK_STATUS(NTT_OK, ntt_mgpu_large_create(&pl, ctx, n, p, NTT_U64, &o), "large n=%zu", n);
    if (!one || !pl) return;
    uint64_t *a = xmalloc(n * 8), *ref = xmalloc(n * 8), *got = xmalloc(n * 8);
    for (size_t i = 0; i < n; i++) a[i] = (i * 0x9e3779b97f4a7c15u + n) % p; /* same on every rank */
    memcpy(ref, a, n * 8);
    CHECK_STATUS(NTT_OK, ntt_forward_u64(one, ref), "one GPU forward");
    ntt_mgpu_local loc;
    CHECK_STATUS(NTT_OK, ntt_mgpu_large_local(pl, rank, &loc), "local");
    uint64_t *d = NULL;
    CHECK(cudaMalloc((void **)&d, (loc.alloc + 1) * 8) == cudaSuccess, "malloc");
    uint64_t *const dd[1] = {d};
    CHECK_STATUS(NTT_OK, ntt_mgpu_large_scatter_u64(pl, 0, a, dd), "scatter");
    CHECK_STATUS(NTT_OK, ntt_mgpu_large_forward_u64(pl, dd, dd), "forward n=%zu", n);
    memset(got, 0, n * 8);
    CHECK_STATUS(NTT_OK, ntt_mgpu_large_gather_u64(pl, 1, dd, got), "gather");
    CHECK_ARR64(ref + loc.out_start, got + loc.out_start, loc.out_count,
                "rank %d's spectrum n=%zu flags=%u", rank, n, flags);
    CHECK_STATUS(NTT_OK, ntt_mgpu_large_inverse_u64(pl, dd, dd), "inverse");
    CHECK_STATUS(NTT_OK, ntt_mgpu_large_gather_u64(pl, 0, dd, got), "gather");
    for (size_t j = 0; j < loc.rows; j++)
        for (size_t j2 = 0; j2 < loc.n2; j2++) {
            const size_t i = loc.row_start + j + loc.n1 * j2;
            CHECK_EQ(a[i], got[i], "rank %d inverse(forward) n=%zu at %zu", rank, n, i);
        }
    cudaFree(d);
    free(a);
    free(ref);
    free(got);
    ntt_plan_destroy(one);
    ntt_mgpu_large_destroy(pl);
}

/* The key switch with limbs partitioned, host pointers: every rank passes
   the same whole polynomials, checks its own limbs against the CPU's key
   switch; mismatched parameters and one rank's out-of-range input are
   every rank's status. */
static void keyswitch(ntt_mgpu_ctx *ctx)
{
    const size_t n = 1024, nq = 7, np = 3, dnum = 3, nl = nq + np, kl = 2 * dnum * nl;
    uint64_t pr[10];
    for (unsigned k = 0; k < nl; k++) CHECK_STATUS(NTT_OK, ntt_find_prime(61, 11, k, &pr[k]), "prime");
    ntt_rns_params par = {n, pr, nq, pr + nq, np, dnum, NTT_BACKEND_AUTO, 0};
    ntt_rns *cpu = NULL;
    ntt_mgpu_ks *ks = NULL;
    CHECK_STATUS(NTT_OK, ntt_rns_create(&cpu, &par), "CPU context");
    ntt_rns_params other = par;
    other.dnum = rank == 0 ? 2 : dnum;
    CHECK_STATUS(NTT_EINVAL, ntt_mgpu_ks_create(&ks, ctx, &other), "mismatched dnum");
    CHECK(ks == NULL, "no key switch");
    CHECK_STATUS(NTT_OK, ntt_mgpu_ks_create(&ks, ctx, &par), "key switch");
    if (cpu && ks) {
        uint64_t *in = xmalloc(nq * n * 8), *key = xmalloc(kl * n * 8);
        uint64_t *ref = xmalloc(2 * nq * n * 8), *got = xmalloc(2 * nq * n * 8);
        for (size_t i = 0; i < nq * n; i++) in[i] = (i * 2654435761u) % pr[i / n];
        for (size_t i = 0; i < kl * n; i++) key[i] = (i * 0x9e3779b97f4a7c15u) % pr[(i / n) % nl];
        for (size_t l = 0; l < nq; l++) {
            const size_t q = l + 1;
            CHECK_STATUS(NTT_OK, ntt_rns_keyswitch(cpu, n, l, in, q, key, kl, ref, ref + q * n, q), "CPU");
            memset(got, 0, 2 * q * n * 8);
            CHECK_STATUS(NTT_OK, ntt_mgpu_keyswitch_host(ks, n, l, in, q, key, kl, got, got + q * n, q),
                         "key switch l=%zu", l);
            ntt_mgpu_ks_share sh;
            CHECK_STATUS(NTT_OK, ntt_mgpu_ks_share_of(ks, rank, l, &sh), "share");
            for (int z = 0; z < 2; z++)
                CHECK_ARR64(ref + (z * q + sh.q_first) * n, got + (z * q + sh.q_first) * n,
                            sh.q_level * n, "rank %d's limbs of out%d, l=%zu", rank, z, l);
        }
        /* Rank 1's input (a limb it owns) out of range: every rank is told. */
        ntt_mgpu_ks_share sh;
        CHECK_STATUS(NTT_OK, ntt_mgpu_ks_share_of(ks, 1, nq - 1, &sh), "share");
        if (rank == 1 && sh.q_level) in[sh.q_first * n] = pr[sh.q_first];
        CHECK_STATUS(sh.q_level ? NTT_ERANGE : NTT_OK,
                     ntt_mgpu_keyswitch_host(ks, n, nq - 1, in, nq, key, kl, got, got + nq * n, nq),
                     "one rank's input out of range");
        free(in);
        free(key);
        free(ref);
        free(got);
    }
    ntt_mgpu_ks_destroy(ks);
    ntt_rns_destroy(cpu);
}

int main(int argc, char **argv)
{
    setenv("NCCL_NVLS_ENABLE", "0", 1);
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    test_init("test_multigpu_mpi");
    int ndev = 0;
    if (size < 2 || cudaGetDeviceCount(&ndev) != cudaSuccess || ndev < 1) {
        if (rank == 0) printf("needs 2 or more ranks and a GPU: skipped\n");
        MPI_Finalize();
        return TEST_SKIP;
    }
    ntt_mgpu_ctx *ctx = NULL;
    ntt_status s = ntt_mgpu_create_mpi(&ctx, MPI_COMM_WORLD, -1);
    if (s == NTT_EUNSUPPORTED) {
        MPI_Finalize();
        return TEST_SKIP;
    }
    CHECK_STATUS(NTT_OK, s, "context over MPI");
    if (ctx) {
        ntt_mgpu_info info;
        CHECK_STATUS(NTT_OK, ntt_mgpu_get_info(ctx, &info), "info");
        CHECK_EQ(size, info.gpus, "one GPU per rank");
        CHECK_EQ(rank, info.first_gpu, "rank r is GPU r");
        (void)cudaSetDevice(info.devices[0]);
        for (unsigned lg = 1; lg <= 20; lg += lg < 4 ? 1 : 3) {
            large(ctx, (size_t)1 << lg, 0);
            large(ctx, (size_t)1 << lg, NTT_FLAG_NEGACYCLIC);
        }
        /* Mismatched sizes: rank 0 asks another n; every rank is told. */
        uint64_t p;
        if (ntt_find_prime(62, 14, 0, &p) == NTT_OK) {
            ntt_mgpu_large *pl = NULL;
            CHECK_STATUS(NTT_EINVAL, ntt_mgpu_large_create(&pl, ctx, rank == 0 ? 1024 : 2048, p,
                                                           NTT_U64, NULL), "mismatched n");
            CHECK(pl == NULL, "no plan");
            /* A bad argument on one rank only: agreed. */
            CHECK_STATUS(NTT_EMODULUS, ntt_mgpu_large_create(&pl, ctx, 1024, rank == 1 ? 1000003 : p,
                                                             NTT_U64, NULL), "one rank's bad p");
        }
        /* Batches: each rank runs and writes its range only. */
        uint64_t q[4];
        for (unsigned k = 0; k < 4; k++) CHECK_STATUS(NTT_OK, ntt_find_prime(60, 12, k, &q[k]), "prime");
        const size_t n = 2048, count = 9;
        ntt_mgpu_plan *mp = NULL;
        ntt_plan *one = NULL;
        CHECK_STATUS(NTT_OK, ntt_mgpu_plan_create(&mp, ctx, n, q, 4, NTT_U64, NULL), "batch plan");
        CHECK_STATUS(NTT_OK, ntt_plan_create_rns(&one, n, q, 4, NTT_U64, NTT_BACKEND_CUDA, NULL), "one");
        if (mp && one) {
            uint64_t *a = xmalloc(count * n * 8), *b = xmalloc(count * n * 8);
            for (size_t i = 0; i < count * n; i++) a[i] = (i * 2654435761u) % q[(i / n) % 4];
            memcpy(b, a, count * n * 8);
            CHECK_STATUS(NTT_OK, ntt_forward_batch_u64(one, a, count, n), "one");
            CHECK_STATUS(NTT_OK, ntt_mgpu_forward_host_u64(mp, b, count, n), "host batch");
            const ntt_mgpu_range r = ntt_mgpu_range_of(ctx, count, rank);
            CHECK_ARR64(a + r.first * n, b + r.first * n, r.count * n, "rank %d's range", rank);
            free(a);
            free(b);
        }
        ntt_plan_destroy(one);
        ntt_mgpu_plan_destroy(mp);
        keyswitch(ctx);
        ntt_mgpu_destroy(ctx);
    }
    const int rc = test_finish();
    int worst = 0;
    MPI_Allreduce(&rc, &worst, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    MPI_Finalize();
    return worst;
}
