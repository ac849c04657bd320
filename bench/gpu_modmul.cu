// ntt-bench gpu-modmul: the fourth report's experiment, modular
// multiplication in a dependent chain of 16 per element over 16M elements,
// for % by a run-time modulus, % by a compile-time constant (which the
// compiler turns into multiplications), Barrett with a run-time constant,
// Montgomery and Shoup, at 16/20/24/28-bit moduli (32-bit words) and a
// 62-bit one (64-bit words).  Each kernel's result is checked against the
// host.  SASS instruction counts come from scripts/device/sass_counts.py over
// cuobjdump's listing (kernel names start with k_chain_).
#include "bench.h"

#include "cli.h"
#include "rng.h"

#include <cuda_runtime.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

namespace {

typedef unsigned __int128 u128;

template <class T> struct Consts {
    T q, qinv;     // qinv = q^-1 mod 2^k (signed Montgomery)
    uint64_t mu;   // Barrett: floor(2^64 / q) (32-bit) or floor(2^(2k) / q), k = bits
    unsigned k;
};

// One multiplication step of each kind.  x, y < q; results < q.
__device__ __forceinline__ uint32_t step_dyn(uint32_t x, uint32_t y, uint32_t q)
{
    return (uint32_t)(((uint64_t)x * y) % q);
}
__device__ __forceinline__ uint64_t step_dyn(uint64_t x, uint64_t y, uint64_t q)
{
    return (uint64_t)(((u128)x * y) % q);
}
__device__ __forceinline__ uint32_t step_barrett(uint32_t x, uint32_t y, const Consts<uint32_t> &c)
{
    uint64_t t = (uint64_t)x * y;
    uint32_t r = (uint32_t)(t - __umul64hi(t, c.mu) * c.q);
    return r >= c.q ? r - c.q : r;
}
__device__ __forceinline__ uint64_t step_barrett(uint64_t x, uint64_t y, const Consts<uint64_t> &c)
{
    u128 t = (u128)x * y;
    uint64_t t1 = (uint64_t)(t >> (c.k - 1));
    uint64_t qh = (uint64_t)(((u128)t1 * c.mu) >> (c.k + 1));
    uint64_t r = (uint64_t)t - qh * c.q;
    while (r >= c.q) r -= c.q;
    return r;
}
// Montgomery: operands in Montgomery form; REDC as hi(xy) - hi(lo(xy) qinv q).
template <class T> __device__ __forceinline__ T hi(T a, T b);
template <> __device__ __forceinline__ uint32_t hi(uint32_t a, uint32_t b) { return __umulhi(a, b); }
template <> __device__ __forceinline__ uint64_t hi(uint64_t a, uint64_t b) { return __umul64hi(a, b); }
template <class T> __device__ __forceinline__ T step_mont(T x, T y, const Consts<T> &c)
{
    T m = x * y * c.qinv;
    T r = hi(x, y) - hi(m, c.q);
    return r >= c.q ? r + c.q : r;  // negative wrapped above q
}
// Shoup: y fixed, yq = floor(y 2^k / q).
template <class T> __device__ __forceinline__ T step_shoup(T x, T y, T yq, const Consts<T> &c)
{
    T r = x * y - hi(x, yq) * c.q;
    return r >= c.q ? r - c.q : r;
}

template <class T>
__global__ void k_chain_dyn(const T *a, const T *b, T *out, size_t n, T q)
{
    size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    T x = a[i], y = b[i];
#pragma unroll
    for (int k = 0; k < 16; k++) x = step_dyn(x, y, q);
    out[i] = x;
}

template <class T, T Q>
__global__ void k_chain_const(const T *a, const T *b, T *out, size_t n)
{
    size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    T x = a[i], y = b[i];
#pragma unroll
    for (int k = 0; k < 16; k++) x = step_dyn(x, y, Q);
    out[i] = x;
}

template <class T>
__global__ void k_chain_barrett(const T *a, const T *b, T *out, size_t n, Consts<T> c)
{
    size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    T x = a[i], y = b[i];
#pragma unroll
    for (int k = 0; k < 16; k++) x = step_barrett(x, y, c);
    out[i] = x;
}

template <class T>
__global__ void k_chain_mont(const T *a, const T *b, T *out, size_t n, Consts<T> c)
{
    size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    T x = a[i], y = b[i];
#pragma unroll
    for (int k = 0; k < 16; k++) x = step_mont(x, y, c);
    out[i] = x;
}

template <class T>
__global__ void k_chain_shoup(const T *a, const T *b, const T *bq, T *out, size_t n, Consts<T> c)
{
    size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    T x = a[i], y = b[i], yq = bq[i];
#pragma unroll
    for (int k = 0; k < 16; k++) x = step_shoup(x, y, yq, c);
    out[i] = x;
}

struct Result {
    std::string kind;
    unsigned bits;
    uint64_t q;
    bool ok;
    std::vector<double> reps;
    double median;
};
std::vector<Result> g_res;

// Host references, with the same Montgomery convention.
uint64_t mulmod(uint64_t a, uint64_t b, uint64_t q) { return (uint64_t)(((u128)a * b) % q); }

template <class T> Consts<T> consts_for(uint64_t q, unsigned bits)
{
    Consts<T> c;
    c.q = (T)q;
    uint64_t inv = q;  // Newton: q^-1 mod 2^64
    for (int i = 0; i < 6; i++) inv *= 2 - q * inv;
    c.qinv = (T)inv;
    c.k = bits;
    c.mu = sizeof(T) == 4 ? UINT64_MAX / q : (uint64_t)(((u128)1 << (2 * bits)) / q);
    return c;
}

template <class T, class Launch>
bool run_kind(const char *kind, unsigned bits, uint64_t q, size_t n, T *out, const std::vector<T> &want,
              Launch launch, int reps)
{
    Result r{kind, bits, q, false, {}, 0};
    cudaEvent_t e0, e1;
    cudaEventCreate(&e0);
    cudaEventCreate(&e1);
    bool ok = true;
    for (int i = 0; i < 3 + reps && ok; i++) {
        cudaEventRecord(e0);
        launch();
        cudaEventRecord(e1);
        ok = cudaEventSynchronize(e1) == cudaSuccess && cudaGetLastError() == cudaSuccess;
        float ms = 0;
        cudaEventElapsedTime(&ms, e0, e1);
        if (i >= 3) r.reps.push_back(ms * 1e-3);
    }
    std::vector<T> got(n);
    ok = ok && cudaMemcpy(got.data(), out, n * sizeof(T), cudaMemcpyDeviceToHost) == cudaSuccess;
    // Check a spread of elements (all of them would dominate the run time).
    for (size_t i = 0; i < n && ok; i += 4099) ok = got[i] == want[i];
    r.ok = ok;
    if (ok) {
        std::vector<double> s = r.reps;
        std::sort(s.begin(), s.end());
        r.median = s[s.size() / 2];
    }
    g_res.push_back(r);
    cudaEventDestroy(e0);
    cudaEventDestroy(e1);
    return ok;
}

template <class T, T Q>
void bench_width(unsigned bits, size_t n, int reps, rng_t *rng)
{
    const uint64_t q = Q;
    Consts<T> c = consts_for<T>(q, bits);
    std::vector<T> a(n), b(n), bq(n), am(n), bm(n), want(n), wantm(n);
    // Montgomery forms: x R mod q with R = 2^k.
    const uint64_t R = sizeof(T) == 4 ? ((uint64_t)1 << 32) % q : (uint64_t)((((u128)1) << 64) % q);
    for (size_t i = 0; i < n; i++) {
        a[i] = (T)rng_below(rng, q);
        b[i] = (T)rng_below(rng, q);
        bq[i] = sizeof(T) == 4 ? (T)(((uint64_t)b[i] << 32) / q) : (T)(((u128)b[i] << 64) / q);
        am[i] = (T)mulmod(a[i], R, q);
        bm[i] = (T)mulmod(b[i], R, q);
        uint64_t x = a[i];
        for (int k = 0; k < 16; k++) x = mulmod(x, b[i], q);
        want[i] = (T)x;
        wantm[i] = (T)mulmod(x, R, q);  // (a b^16) R: the chain stays in Montgomery form
    }
    T *da, *db, *dbq, *dam, *dbm, *dout;
    const size_t bytes = n * sizeof(T);
    if (cudaMalloc(&da, bytes) || cudaMalloc(&db, bytes) || cudaMalloc(&dbq, bytes) ||
        cudaMalloc(&dam, bytes) || cudaMalloc(&dbm, bytes) || cudaMalloc(&dout, bytes))
        return;
    cudaMemcpy(da, a.data(), bytes, cudaMemcpyHostToDevice);
    cudaMemcpy(db, b.data(), bytes, cudaMemcpyHostToDevice);
    cudaMemcpy(dbq, bq.data(), bytes, cudaMemcpyHostToDevice);
    cudaMemcpy(dam, am.data(), bytes, cudaMemcpyHostToDevice);
    cudaMemcpy(dbm, bm.data(), bytes, cudaMemcpyHostToDevice);
    const unsigned blk = 256, grid = (unsigned)((n + blk - 1) / blk);
    run_kind<T>("dynamic %", bits, q, n, dout, want,
                [&] { k_chain_dyn<T><<<grid, blk>>>(da, db, dout, n, (T)q); }, reps);
    run_kind<T>("constant-modulus %", bits, q, n, dout, want,
                [&] { k_chain_const<T, Q><<<grid, blk>>>(da, db, dout, n); }, reps);
    run_kind<T>("Barrett", bits, q, n, dout, want,
                [&] { k_chain_barrett<T><<<grid, blk>>>(da, db, dout, n, c); }, reps);
    run_kind<T>("Montgomery", bits, q, n, dout, wantm,
                [&] { k_chain_mont<T><<<grid, blk>>>(dam, dbm, dout, n, c); }, reps);
    run_kind<T>("Shoup", bits, q, n, dout, want,
                [&] { k_chain_shoup<T><<<grid, blk>>>(da, db, dbq, dout, n, c); }, reps);
    cudaFree(da);
    cudaFree(db);
    cudaFree(dbq);
    cudaFree(dam);
    cudaFree(dbm);
    cudaFree(dout);
}

int emit(FILE *f, void *)
{
    fprintf(f, "{\n  \"benchmark\": \"gpu-modmul-chain16\",\n  \"elements\": %d,\n  \"rows\": [\n",
            1 << 24);
    for (size_t i = 0; i < g_res.size(); i++) {
        const Result &r = g_res[i];
        fprintf(f, "    {\"kind\": ");
        cli_json_string(f, r.kind.c_str());
        fprintf(f, ", \"bits\": %u, \"q\": %llu, \"verified\": %s", r.bits,
                (unsigned long long)r.q, r.ok ? "true" : "false");
        if (r.ok) {
            fprintf(f, ", \"median_s\": %.9g, \"reps_s\": [", r.median);
            for (size_t k = 0; k < r.reps.size(); k++) fprintf(f, "%s%.9g", k ? ", " : "", r.reps[k]);
            fprintf(f, "]");
        }
        fprintf(f, "}%s\n", i + 1 < g_res.size() ? "," : "");
    }
    fprintf(f, "  ]\n}\n");
    return 0;
}

void usage(FILE *f)
{
    fputs("usage: ntt-bench gpu-modmul [--quick] [--json FILE]\n"
          "\n"
          "Modular multiplication in a dependent chain of 16 per element over 16M\n"
          "elements on the first GPU: % by a run-time modulus, % by a compile-time\n"
          "constant, Barrett, Montgomery and Shoup, at 16/20/24/28-bit moduli (32-bit\n"
          "words) and a 62-bit one (64-bit words).  Each result is checked against the\n"
          "host.  scripts/device/sass_counts.py adds the SASS instruction counts.\n"
          "\n"
          "  --quick      5 repetitions instead of 30\n"
          "  --json FILE  write the results to FILE (atomically)\n"
          "\n"
          "exit status: 0 ok, 1 a kernel computed a wrong result, 2 usage,\n"
          "6 cannot write FILE, 7 no usable GPU.\n",
          f);
}

}  // namespace

extern "C" int bench_gpu_modmul(int argc, char **argv)
{
    static const char cmd[] = "ntt-bench gpu-modmul";
    const char *json = nullptr;
    int reps = 30;
    for (int i = 1; i < argc; i++) {
        int r;
        if (cli_is_help(argv[i])) {
            usage(stdout);
            return EXIT_OK;
        } else if ((r = cli_file_option(cmd, argc, argv, &i, "--json", nullptr, &json)) != 0) {
            if (r < 0) return EXIT_USAGE;
        } else if (!strcmp(argv[i], "--quick")) {
            reps = 5;
        } else {
            return cli_unknown_option(cmd, argv[i]);
        }
    }
    int dev = 0;
    if (cudaGetDeviceCount(&dev) != cudaSuccess || dev == 0) {
        fprintf(stderr, "ntt-bench gpu-modmul: no usable CUDA device\n");
        return EXIT_UNSUPPORTED;
    }
    rng_t rng;
    rng_seed(&rng, 4);
    const size_t n = (size_t)1 << 24;
    // The report's moduli for 16..28 bits; a 62-bit NTT prime.
    bench_width<uint32_t, 65521u>(16, n, reps, &rng);
    bench_width<uint32_t, 1048573u>(20, n, reps, &rng);
    bench_width<uint32_t, 16769023u>(24, n, reps, &rng);
    bench_width<uint32_t, 268369921u>(28, n, reps, &rng);
    bench_width<uint64_t, 4611685941117976577ull>(62, n, reps, &rng);
    printf("modular multiplication, chain of 16 per element, 16M elements, median of %d\n", reps);
    printf("  %-20s %10s %10s %10s %10s %10s\n", "kind", "16-bit", "20-bit", "24-bit", "28-bit",
           "62-bit");
    int rc = EXIT_OK;
    for (const char *k : {"dynamic %", "constant-modulus %", "Barrett", "Montgomery", "Shoup"}) {
        printf("  %-20s", k);
        for (unsigned bits : {16u, 20u, 24u, 28u, 62u})
            for (const Result &r : g_res)
                if (r.kind == k && r.bits == bits) {
                    if (r.ok)
                        printf(" %7.3f ms", r.median * 1e3);
                    else {
                        printf(" %10s", "FAILED");
                        rc = EXIT_MISMATCH;
                    }
                }
        printf("\n");
    }
    if (json) {
        char why[160];
        if (cli_atomic_write(json, emit, nullptr, why, sizeof why) != 0) {
            fprintf(stderr, "%s: %s: cannot write: %s\n", cmd, json, why);
            return EXIT_OUTPUT_IO;
        }
    }
    return rc;
}
