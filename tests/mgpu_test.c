/* The multi-GPU test programs' shared start and contexts (mgpu_test.h). */
#include "mgpu_test.h"
#include "test_common.h"

#include <cuda_runtime_api.h>
#include <stdlib.h>

int mgpu_test_start(const char *program, unsigned *max_log, int *ndev, ntt_mgpu_ctx **all,
                    int *gpus)
{
    setenv("NCCL_NVLS_ENABLE", "0", 1);
    test_init(program);
    const char *ml = getenv("NTT_TEST_MAX_LOG");
    if (ml) *max_log = (unsigned)atoi(ml);
    *ndev = 0;
    *all = NULL;
    if (cudaGetDeviceCount(ndev) != cudaSuccess || *ndev < 2) {
        printf("fewer than 2 GPUs: skipped\n");
        return TEST_SKIP;
    }
    const ntt_status s = ntt_mgpu_create(all, NULL, 0);
    if (s == NTT_EUNSUPPORTED) {
        printf("no multi-GPU support (NCCL): skipped\n");
        return TEST_SKIP;
    }
    CHECK_STATUS(NTT_OK, s, "context of every GPU");
    if (!*all) return test_finish();
    ntt_mgpu_info info;
    CHECK_STATUS(NTT_OK, ntt_mgpu_get_info(*all, &info), "info");
    *gpus = info.gpus;
    printf("%d GPUs, NCCL %d\n", info.gpus, info.nccl_version);
    return -1;
}

ntt_mgpu_ctx *mgpu_test_ctx_first(int g)
{
    int dev[NTT_MGPU_MAX_LOCAL];
    for (int i = 0; i < g; i++) dev[i] = i;
    ntt_mgpu_ctx *ctx = NULL;
    CHECK_STATUS(NTT_OK, ntt_mgpu_create(&ctx, dev, g), "context of %d GPUs", g);
    return ctx;
}

int mgpu_test_sizes(const int *want, int count, int gpus, int *sizes)
{
    int k = 0;
    for (int i = 0; i < count; i++)
        if (want[i] <= gpus && (k == 0 || want[i] != sizes[k - 1])) sizes[k++] = want[i];
    return k;
}
