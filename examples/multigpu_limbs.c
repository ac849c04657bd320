/*
 * multigpu_limbs: an RNS polynomial's limbs spread over every GPU of this
 * machine (libntt_multigpu): each GPU transforms its range of limbs with
 * their own primes, and the results are the words one GPU, or the CPU,
 * gives.  Host pointers: the library stages each GPU's range through its
 * own pinned buffers.
 *
 *   cc multigpu_limbs.c $(pkg-config --cflags --libs ntt_multigpu ntt) -o multigpu_limbs
 *   ./multigpu_limbs     # exits 0 when every limb matches the CPU, 77 without a GPU
 */
#define _POSIX_C_SOURCE 200809L /* setenv */
#include <ntt_multigpu.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { LOG_N = 12, N = 1 << LOG_N, LIMBS = 12 };

int main(void)
{
    /* NVLink multicast stays off; NCCL reads this when it starts. */
    setenv("NCCL_NVLS_ENABLE", "0", 1);
    ntt_mgpu_ctx *ctx = NULL;
    ntt_status st = ntt_mgpu_create(&ctx, NULL, 0); /* every visible GPU */
    if (st == NTT_EUNSUPPORTED) {
        printf("no GPU or no multi-GPU support: skipped\n");
        return 77;
    }
    if (st != NTT_OK) {
        fprintf(stderr, "ntt_mgpu_create: %s\n", ntt_status_string(st));
        return 1;
    }
    ntt_mgpu_info info;
    if (ntt_mgpu_get_info(ctx, &info) != NTT_OK) return 1;

    /* One 50-bit NTT prime per limb, and a random polynomial. */
    uint64_t q[LIMBS];
    for (unsigned k = 0; k < LIMBS; k++)
        if (ntt_find_prime(50, LOG_N + 1, k, &q[k]) != NTT_OK) return 1;
    uint64_t *a = malloc(sizeof(uint64_t) * LIMBS * N), *ref = malloc(sizeof(uint64_t) * LIMBS * N);
    if (!a || !ref) return 1;
    uint64_t x = 0x2545F4914F6CDD1Dull;
    for (size_t i = 0; i < (size_t)LIMBS * N; i++) {
        x ^= x << 13, x ^= x >> 7, x ^= x << 17;
        a[i] = x % q[i / N];
    }
    memcpy(ref, a, sizeof(uint64_t) * LIMBS * N);

    /* The GPUs: limb i on prime q[i % LIMBS], GPU g its range of limbs. */
    const ntt_plan_options opts = {.flags = NTT_FLAG_NEGACYCLIC};
    ntt_mgpu_plan *plan = NULL;
    st = ntt_mgpu_plan_create(&plan, ctx, N, q, LIMBS, NTT_U64, &opts);
    if (st == NTT_OK) st = ntt_mgpu_forward_host_u64(plan, a, LIMBS, N);
    for (int g = 0; g < info.gpus && st == NTT_OK; g++) {
        const ntt_mgpu_range r = ntt_mgpu_range_of(ctx, LIMBS, g);
        printf("GPU %d (device %d): limbs %zu..%zu\n", g, info.devices[g], r.first,
               r.first + r.count - 1);
    }

    /* The CPU, for the reference. */
    ntt_plan *cpu = NULL;
    if (st == NTT_OK) st = ntt_plan_create_rns(&cpu, N, q, LIMBS, NTT_U64, NTT_BACKEND_AUTO, &opts);
    if (st == NTT_OK) st = ntt_forward_batch_u64(cpu, ref, LIMBS, N);
    const int same = st == NTT_OK && memcmp(a, ref, sizeof(uint64_t) * LIMBS * N) == 0;
    printf("%d limbs of 2^%d on %d GPU(s): %s\n", LIMBS, LOG_N, info.gpus,
           st != NTT_OK ? ntt_status_string(st) : same ? "same words as the CPU" : "DIFFER");
    ntt_plan_destroy(cpu);
    ntt_mgpu_plan_destroy(plan);
    ntt_mgpu_destroy(ctx);
    free(a);
    free(ref);
    return same ? 0 : 1;
}
