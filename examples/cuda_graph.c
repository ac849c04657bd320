/*
 * cuda_graph: products on data that stays on the GPU, enqueued on your own
 * CUDA stream and captured once into a CUDA graph that is then replayed.
 *
 * On a plan made with NTT_BACKEND_CUDA the ntt_cuda_* calls take device
 * pointers and only enqueue kernels on the stream you pass: they never copy,
 * allocate or synchronize, so stream capture records them like any kernel.
 * The graph here multiplies a batch of polynomials mod (x^n + 1, p):
 * forward a, forward b, multiply the spectra, inverse.  Each replay's
 * result is checked against the schoolbook product on the host.
 *
 *   cc cuda_graph.c $(pkg-config --cflags --libs ntt) -lcudart -o cuda_graph
 *   ./cuda_graph         # exits 0 when all match, 77 when there is no GPU
 */
#include <ntt.h>

#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>

enum { N = 1024, COUNT = 8 }; /* COUNT polynomials of N coefficients */
static const uint32_t P = 998244353; /* 119 * 2^23 + 1: 2N divides P - 1 */

static uint64_t next_random(uint64_t *state)
{
    *state ^= *state << 13;
    *state ^= *state >> 7;
    *state ^= *state << 17;
    return *state;
}

/* c = a * b mod (x^N + 1, P) term by term; P < 2^30, so products fit. */
static void negacyclic_schoolbook(uint32_t *c, const uint32_t *a, const uint32_t *b)
{
    uint64_t acc[N] = {0};
    for (size_t i = 0; i < N; i++)
        for (size_t j = 0; j < N; j++) {
            const uint64_t t = (uint64_t)a[i] * b[j] % P;
            const size_t k = (i + j) % N;
            acc[k] = (i + j < N ? acc[k] + t : acc[k] + P - t) % P;
        }
    for (size_t k = 0; k < N; k++) c[k] = (uint32_t)acc[k];
}

#define CUDA_CHECK(call)                                                        \
    do {                                                                        \
        cudaError_t e_ = (call);                                                \
        if (e_ != cudaSuccess) {                                                \
            fprintf(stderr, "%s: %s\n", #call, cudaGetErrorString(e_));         \
            return 1;                                                           \
        }                                                                       \
    } while (0)
#define NTT_CHECK(call)                                                         \
    do {                                                                        \
        ntt_status s_ = (call);                                                 \
        if (s_ != NTT_OK) {                                                     \
            fprintf(stderr, "%s: %s\n", #call, ntt_status_string(s_));          \
            return 1;                                                           \
        }                                                                       \
    } while (0)

int main(void)
{
    ntt_cuda_info gpu;
    if (ntt_cuda_get_info(&gpu) != NTT_OK) {
        puts("no usable GPU (or no CUDA backend in this build): nothing to show");
        return 77;
    }
    printf("GPU: %s\n", gpu.name);

    ntt_plan *plan;
    ntt_plan_options opts = {.flags = NTT_FLAG_NEGACYCLIC, .batch = COUNT};
    NTT_CHECK(ntt_plan_create(&plan, N, P, NTT_U32, NTT_BACKEND_CUDA, &opts));

    const size_t bytes = (size_t)COUNT * N * sizeof(uint32_t);
    uint32_t *a = malloc(bytes), *b = malloc(bytes), *c = malloc(bytes);
    uint32_t *ref = malloc(N * sizeof *ref);
    uint32_t *d_a, *d_b, *d_c;
    if (!a || !b || !c || !ref) {
        fprintf(stderr, "out of memory\n");
        return 1;
    }
    CUDA_CHECK(cudaMalloc((void **)&d_a, bytes));
    CUDA_CHECK(cudaMalloc((void **)&d_b, bytes));
    CUDA_CHECK(cudaMalloc((void **)&d_c, bytes));
    cudaStream_t stream;
    CUDA_CHECK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));

    /* Capture: the calls below are recorded into the graph, not run. */
    cudaGraph_t graph;
    cudaGraphExec_t exec;
    CUDA_CHECK(cudaStreamBeginCapture(stream, cudaStreamCaptureModeThreadLocal));
    NTT_CHECK(ntt_cuda_forward_u32(plan, d_a, COUNT, N, stream));
    NTT_CHECK(ntt_cuda_forward_u32(plan, d_b, COUNT, N, stream));
    NTT_CHECK(ntt_cuda_pointwise_u32(plan, d_c, d_a, d_b, COUNT, N, stream));
    NTT_CHECK(ntt_cuda_inverse_u32(plan, d_c, COUNT, N, stream));
    CUDA_CHECK(cudaStreamEndCapture(stream, &graph));
    CUDA_CHECK(cudaGraphInstantiate(&exec, graph, 0));

    /* Each round: new inputs in, one replay, the products out and checked. */
    uint64_t state = 1181783497276652981ull;
    int bad = 0;
    for (int round = 0; round < 3 && !bad; round++) {
        for (size_t i = 0; i < (size_t)COUNT * N; i++) {
            a[i] = (uint32_t)(next_random(&state) % P); /* inputs must be < P: */
            b[i] = (uint32_t)(next_random(&state) % P); /* device calls do not check */
        }
        CUDA_CHECK(cudaMemcpyAsync(d_a, a, bytes, cudaMemcpyHostToDevice, stream));
        CUDA_CHECK(cudaMemcpyAsync(d_b, b, bytes, cudaMemcpyHostToDevice, stream));
        CUDA_CHECK(cudaGraphLaunch(exec, stream));
        CUDA_CHECK(cudaMemcpyAsync(c, d_c, bytes, cudaMemcpyDeviceToHost, stream));
        CUDA_CHECK(cudaStreamSynchronize(stream));
        for (size_t t = 0; t < COUNT && !bad; t++) {
            negacyclic_schoolbook(ref, a + t * N, b + t * N);
            for (size_t k = 0; k < N; k++)
                if (c[t * N + k] != ref[k]) {
                    fprintf(stderr, "round %d, polynomial %zu, coefficient %zu: %u, expected %u\n",
                            round, t, k, c[t * N + k], ref[k]);
                    bad = 1;
                    break;
                }
        }
    }
    if (!bad) printf("3 graph replays of %d products mod x^%d + 1: all match\n", COUNT, N);

    cudaGraphExecDestroy(exec);
    cudaGraphDestroy(graph);
    cudaStreamDestroy(stream);
    cudaFree(d_a);
    cudaFree(d_b);
    cudaFree(d_c);
    ntt_plan_destroy(plan);
    free(a);
    free(b);
    free(c);
    free(ref);
    return bad;
}
