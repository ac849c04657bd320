// ntt-bench gpu: the CUDA backend measured as docs/BENCHMARKING.md asks.
// Every configuration is checked against the scalar backend on random data
// before it is timed, and again after.  Device times come from CUDA events
// around each repetition (median, min, max of >= 30), in two L2 states:
// warm (the same buffers every time) and cold (rotating over buffer sets
// that together exceed twice the L2), and two launch modes: stream launches
// and CUDA graph replay.  Achieved bandwidth is the bytes that must move
// (every input read once, every output written once) over the time, and is
// compared with a device-to-device copy measured in the same run.
#include "bench.h"

#include "cli.h"
#include "cuda_tuning_env.h"
#include "rng.h"
#include "series.h"
#include "sysinfo.h"
#include "course.h" /* the course ladder (src/course, not installed) */

#include <cuda_runtime.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

namespace {

struct Row {
    std::string group, name, mode;  // mode: "stream warm", "graph cold", "host to host", ...
    bool ok = false;
    std::string why;
    std::vector<double> reps;  // seconds
    double bytes = 0;          // that must move, for GB/s
    double median = 0, min = 0, max = 0;
    double reference = 0;      // the reports' figure, seconds, when there is one
};

std::vector<Row> g_rows;
double g_copy_gbps = 0;

void summarize(Row &r)
{
    if (!r.reps.empty()) bench_stats(r.reps.data(), (int)r.reps.size(), &r.median, &r.min, &r.max);
}

void print_row(const Row &r)
{
    if (!r.ok) {
        printf("  %-44s %-14s FAILED (%s)\n", r.name.c_str(), r.mode.c_str(), r.why.c_str());
        return;
    }
    char a[32], b[32], c[32], ref[48] = "";
    fmt_time(a, sizeof a, r.median);
    fmt_time(b, sizeof b, r.min);
    fmt_time(c, sizeof c, r.max);
    if (r.reference > 0) {
        char t[32];
        fmt_time(t, sizeof t, r.reference);
        snprintf(ref, sizeof ref, "  reports: %s (%.0fx)", t, r.reference / r.median);
    }
    if (r.bytes > 0) {
        const double gbps = r.bytes / r.median / 1e9;
        printf("  %-44s %-14s %11s %11s %11s %8.0f GB/s %5.2f of copy%s\n", r.name.c_str(),
               r.mode.c_str(), a, b, c, gbps, gbps / g_copy_gbps, ref);
    } else {
        printf("  %-44s %-14s %11s %11s %11s%s\n", r.name.c_str(), r.mode.c_str(), a, b, c, ref);
    }
}

#define CUDA_OR(call, what)                                                        \
    do {                                                                           \
        cudaError_t e_ = (call);                                                   \
        if (e_ != cudaSuccess) {                                                   \
            fprintf(stderr, "ntt-bench gpu: %s: %s\n", what, cudaGetErrorString(e_));  \
            return false;                                                          \
        }                                                                          \
    } while (0)

// ---- timing ---------------------------------------------------------------------------

// The launch modes of a row: plain stream launches, graph replay, and graph
// replay "queued": the stream is held (k_hold) until the host has enqueued a
// repetition's first event, the graph and the last event, so that the events
// time the GPU's own execution and not the host's launch calls, which an
// idle GPU otherwise waits for between the first event and the first kernel
// (nvbench holds its stream with a blocking kernel for the same reason).
// Only graphs are queued: a stream launch right after k_hold could be made a
// programmatic dependent of it.
enum Launch { STREAM, GRAPH, QUEUED };
const char *const kLaunchName[] = {"stream ", "graph ", "queued "};

// hold[0]: the host's release; hold[1]: set by a k_hold that gave up.
int *g_hold = nullptr;

// Spins until released, or for about a second (then reports it), so that a
// host that never releases it cannot hang the device.
__global__ void k_hold(volatile int *hold)
{
    unsigned long long t0, t;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t0));
    while (!hold[0]) {
        asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
        if (t - t0 > 1000000000ull) {
            hold[1] = 1;
            return;
        }
    }
}

// Times op(set) with events, `reps` times after `warm` calls, rotating over
// `sets` buffer sets; with a graph, each set's op is captured once and the
// graph is replayed.
template <class Op>
bool time_op(Row &r, Op op, int sets, int reps, Launch lm, cudaStream_t st)
{
    const bool graph = lm != STREAM;
    if (lm == QUEUED) {
        if (!g_hold)
            CUDA_OR(cudaHostAlloc(&g_hold, 2 * sizeof(int), cudaHostAllocMapped), "pinned flag");
        g_hold[1] = 0;
    }
    std::vector<cudaGraphExec_t> ex(sets, nullptr);
    if (graph) {
        for (int k = 0; k < sets; k++) {
            cudaGraph_t g;
            CUDA_OR(cudaStreamBeginCapture(st, cudaStreamCaptureModeThreadLocal), "capture");
            bool okop = op(k);
            CUDA_OR(cudaStreamEndCapture(st, &g), "end capture");
            if (!okop) return false;
            CUDA_OR(cudaGraphInstantiate(&ex[k], g, 0), "instantiate");
            cudaGraphDestroy(g);
            CUDA_OR(cudaGraphUpload(ex[k], st), "upload");
        }
    }
    auto run = [&](int k) {
        if (!graph) return op(k);
        cudaError_t e = cudaGraphLaunch(ex[k], st);
        if (e != cudaSuccess) fprintf(stderr, "ntt-bench gpu: graph launch: %s\n", cudaGetErrorString(e));
        return e == cudaSuccess;
    };
    for (int w = 0; w < 3; w++)
        if (!run(w % sets)) return false;
    cudaEvent_t e0, e1;
    CUDA_OR(cudaEventCreate(&e0), "event");
    CUDA_OR(cudaEventCreate(&e1), "event");
    for (int i = 0; i < reps; i++) {
        if (lm == QUEUED) {
            __atomic_store_n(&g_hold[0], 0, __ATOMIC_SEQ_CST);
            k_hold<<<1, 1, 0, st>>>(g_hold);
            CUDA_OR(cudaGetLastError(), "hold");
        }
        const bool queued = cudaEventRecord(e0, st) == cudaSuccess && run((3 + i) % sets) &&
                            cudaEventRecord(e1, st) == cudaSuccess;
        if (lm == QUEUED) __atomic_store_n(&g_hold[0], 1, __ATOMIC_SEQ_CST);
        if (!queued) return false;
        CUDA_OR(cudaEventSynchronize(e1), "sync");
        if (lm == QUEUED && __atomic_load_n(&g_hold[1], __ATOMIC_SEQ_CST)) {
            fprintf(stderr, "ntt-bench gpu: the stream hold timed out\n");
            return false;
        }
        float ms = 0;
        CUDA_OR(cudaEventElapsedTime(&ms, e0, e1), "elapsed");
        r.reps.push_back(ms * 1e-3);
    }
    cudaEventDestroy(e0);
    cudaEventDestroy(e1);
    for (auto x : ex)
        if (x) cudaGraphExecDestroy(x);
    return true;
}

size_t g_l2 = 50u << 20;

// What failed, with the CUDA error the plan recorded, for the FAILED rows.
std::string describe_failure(const ntt_plan *pg, const char *step)
{
    std::string w = step;
    const int e = ntt_cuda_last_error(pg);
    if (e) w += std::string(": ") + cudaGetErrorString((cudaError_t)e);
    const cudaError_t now = cudaPeekAtLastError();
    if (now != cudaSuccess) w += std::string(" (pending: ") + cudaGetErrorString(now) + ")";
    return w;
}

// Buffer sets so that `bytes_per_set` times the count exceeds twice the L2.
int cold_sets(size_t bytes_per_set)
{
    size_t k = (2 * g_l2) / (bytes_per_set ? bytes_per_set : 1) + 1;
    return (int)(k < 2 ? 2 : k > 64 ? 64 : k);
}

// ---- data -----------------------------------------------------------------------------

struct DevBuf {
    void *p = nullptr;
    size_t bytes = 0;
    ~DevBuf() { cudaFree(p); }
};

void fill_random(void *h, size_t n, size_t e, const uint64_t *mods, size_t nmod, size_t stride,
                 size_t count, rng_t *rng)
{
    for (size_t it = 0; it < count; it++) {
        const uint64_t p = mods[it % nmod];
        for (size_t i = 0; i < n; i++) {
            uint64_t v = rng_below(rng, p);
            if (e == 4)
                static_cast<uint32_t *>(h)[it * stride + i] = (uint32_t)v;
            else
                static_cast<uint64_t *>(h)[it * stride + i] = v;
        }
    }
}

// ---- the configurations ------------------------------------------------------------

// The count largest primes below 2^bits with 2^order | p - 1 (ntt_find_prime),
// for RNS rows: a modulus per batch item.
std::vector<uint64_t> rns_primes(unsigned bits, unsigned order, unsigned count)
{
    std::vector<uint64_t> v;
    for (unsigned i = 0; i < count; i++) {
        uint64_t q;
        if (ntt_find_prime(bits, order, i, &q) == NTT_OK) v.push_back(q);
    }
    return v;
}

struct FwdCase {
    const char *group;
    ntt_width w;
    size_t n, count;
    std::vector<uint64_t> mods;
    unsigned flags;
    bool inverse = false;  // time the inverse transform instead
};

// Forward (or inverse) transforms on device pointers (batched), every mode.
void bench_forward(const FwdCase &c, ntt_modmul mm, int reps, cudaStream_t st, rng_t *rng)
{
    const size_t e = c.w == NTT_U32 ? 4 : 8, per = c.n * c.count * e;
    // u64 rows name the primes' size: below 2^50 the Shoup kind computes in FP64.
    uint64_t pmax = 0;
    for (uint64_t q : c.mods) pmax = q > pmax ? q : pmax;
    char bits[16] = "";
    if (c.w == NTT_U64) snprintf(bits, sizeof bits, " %d-bit", 64 - __builtin_clzll(pmax | 1));
    char name[128];
    snprintf(name, sizeof name, "%s u%d 2^%d x %zu%s%s%s %s", c.inverse ? "inv" : "fwd", (int)c.w,
             __builtin_ctzll(c.n),
             c.count, c.mods.size() > 1 ? " (RNS)" : "", bits,
             c.flags & NTT_FLAG_NEGACYCLIC ? " nega" : " cyclic", ntt_modmul_name(mm));
    ntt_plan_options o = {};
    o.flags = c.flags;
    o.modmul = mm;
    o.batch = c.count;
    ntt_plan *pg = nullptr, *ps = nullptr;
    Row base;
    base.group = c.group;
    base.name = name;
    base.bytes = 2.0 * (double)per;
    auto fail = [&](const char *why) {
        for (int lm = STREAM; lm <= QUEUED; lm++)
            for (const char *t : {"warm", "cold"}) {
                Row r = base;
                r.mode = std::string(kLaunchName[lm]) + t;
                r.why = why;
                g_rows.push_back(r);
            }
    };
    if (ntt_plan_create_rns(&pg, c.n, c.mods.data(), c.mods.size(), c.w, NTT_BACKEND_CUDA, &o) ||
        ntt_plan_create_rns(&ps, c.n, c.mods.data(), c.mods.size(), c.w, NTT_BACKEND_SCALAR, &o)) {
        fail("plan");
        ntt_plan_destroy(pg);
        ntt_plan_destroy(ps);
        return;
    }
    const int sets = cold_sets(per);
    std::vector<void *> d(sets, nullptr);
    void *h = malloc(per), *ref = malloc(per), *got = malloc(per);
    bool ok = h && ref && got;
    for (int k = 0; k < sets && ok; k++) ok = cudaMalloc(&d[k], per) == cudaSuccess;
    if (ok) {
        fill_random(h, c.n, e, c.mods.data(), c.mods.size(), c.n, c.count, rng);
        // Every set holds valid inputs; each transform's output (< p) is the
        // next repetition's input.
        for (int k = 0; k < sets && ok; k++)
            ok = cudaMemcpyAsync(d[k], h, per, cudaMemcpyHostToDevice, st) == cudaSuccess;
        ok = ok && cudaStreamSynchronize(st) == cudaSuccess;
        memcpy(ref, h, per);
        ok = (c.w == NTT_U32
                  ? (c.inverse ? ntt_inverse_batch_u32 : ntt_forward_batch_u32)(ps, (uint32_t *)ref,
                                                                               c.count, c.n)
                  : (c.inverse ? ntt_inverse_batch_u64 : ntt_forward_batch_u64)(ps, (uint64_t *)ref,
                                                                               c.count, c.n)) ==
             NTT_OK;
    }
    auto op = [&](int k) {
        return (c.w == NTT_U32
                    ? (c.inverse ? ntt_cuda_inverse_u32 : ntt_cuda_forward_u32)(pg, (uint32_t *)d[k],
                                                                                c.count, c.n, st)
                    : (c.inverse ? ntt_cuda_inverse_u64 : ntt_cuda_forward_u64)(pg, (uint64_t *)d[k],
                                                                                c.count, c.n, st)) ==
               NTT_OK;
    };
    // Check the transform of set 0 (its input is h), as computed by op.  All
    // copies go on the timing stream: a plain cudaMemcpy from pageable memory
    // may return before its DMA lands, and st does not wait for the legacy
    // stream.
    auto check = [&]() {
        if (cudaMemcpyAsync(d[0], h, per, cudaMemcpyHostToDevice, st) != cudaSuccess || !op(0) ||
            cudaMemcpyAsync(got, d[0], per, cudaMemcpyDeviceToHost, st) != cudaSuccess ||
            cudaStreamSynchronize(st) != cudaSuccess)
            return false;
        return memcmp(got, ref, per) == 0;
    };
    if (ok && !check()) {
        fail("result differs from the scalar backend");
        ok = false;
    } else if (!ok) {
        fail("set-up failed");
    }
    for (int lm = STREAM; lm <= QUEUED && ok; lm++) {
        for (int cold = 0; cold < 2; cold++) {
            Row r = base;
            r.mode = std::string(kLaunchName[lm]) + (cold ? "cold" : "warm");
            // Inputs in [0, p) for every set: the transform's own output is.
            const bool timed = time_op(r, op, cold ? sets : 1, reps, (Launch)lm, st);
            const bool rechecked = timed && check();
            r.ok = timed && rechecked;
            if (!r.ok) r.why = describe_failure(pg, timed ? "re-check after timing" : "timing");
            summarize(r);
            g_rows.push_back(r);
        }
    }
    for (void *x : d) cudaFree(x);
    free(h);
    free(ref);
    free(got);
    ntt_plan_destroy(pg);
    ntt_plan_destroy(ps);
}

struct MulCase {
    const char *group;
    size_t n;       // transform size
    size_t la, lb;  // operand lengths; lc = la + lb - 1
    uint64_t p;
    ntt_variant v;
    ntt_modmul mm;
    int block;      // ladder kernels
    double reference;
    std::string label;
};

// The library's entry points by element width.
ntt_status linear_ref(ntt_plan *p, uint32_t *c, const uint32_t *a, size_t la, const uint32_t *b,
                      size_t lb)
{
    return ntt_polymul_linear_u32(p, c, a, la, b, lb);
}
ntt_status linear_ref(ntt_plan *p, uint64_t *c, const uint64_t *a, size_t la, const uint64_t *b,
                      size_t lb)
{
    return ntt_polymul_linear_u64(p, c, a, la, b, lb);
}
ntt_status cuda_mul(ntt_plan *p, uint32_t *c, size_t lc, const uint32_t *a, size_t la,
                    const uint32_t *b, size_t lb, size_t n, cudaStream_t st)
{
    return ntt_cuda_polymul_u32(p, c, lc, a, la, b, lb, 1, n, st);
}
ntt_status cuda_mul(ntt_plan *p, uint64_t *c, size_t lc, const uint64_t *a, size_t la,
                    const uint64_t *b, size_t lb, size_t n, cudaStream_t st)
{
    return ntt_cuda_polymul_u64(p, c, lc, a, la, b, lb, 1, n, st);
}

// Products on device pointers, u32 or u64 elements.
template <class T = uint32_t>
void bench_polymul(const MulCase &c, int reps, bool graph_too, bool cold_too, cudaStream_t st,
                   rng_t *rng)
{
    const size_t lc = c.la + c.lb - 1, e = sizeof(T);
    const ntt_width w = e == 4 ? NTT_U32 : NTT_U64;
    ntt_plan_options o = {};
    o.modmul = c.mm;
    const ntt_variant_options vo = {c.v, c.block};
    ntt_plan *pg = nullptr, *ps = nullptr;
    Row base;
    base.group = c.group;
    base.name = c.label;
    base.bytes = (double)(c.la + c.lb + lc) * e;
    base.reference = c.reference;
    if (ntt_plan_create_variant(&pg, c.n, &c.p, 1, w, NTT_BACKEND_CUDA, &o, &vo) ||
        ntt_plan_create(&ps, c.n, c.p, w, NTT_BACKEND_SCALAR, nullptr)) {
        Row r = base;
        r.mode = "stream warm";
        r.why = "plan";
        g_rows.push_back(r);
        ntt_plan_destroy(pg);
        ntt_plan_destroy(ps);
        return;
    }
    const size_t per = (c.la + c.lb + lc) * e;
    const int sets = cold_too ? cold_sets(per) : 1;
    std::vector<T *> da(sets), db(sets), dc(sets);
    std::vector<T> ha(c.la), hb(c.lb), ref(lc), got(lc);
    bool ok = true;
    for (int k = 0; k < sets && ok; k++)
        ok = cudaMalloc(&da[k], c.la * e) == cudaSuccess && cudaMalloc(&db[k], c.lb * e) == cudaSuccess &&
             cudaMalloc(&dc[k], lc * e) == cudaSuccess;
    for (int k = 0; k < sets && ok; k++) {
        for (auto &x : ha) x = (T)rng_below(rng, c.p);
        for (auto &x : hb) x = (T)rng_below(rng, c.p);
        ok = cudaMemcpyAsync(da[k], ha.data(), c.la * e, cudaMemcpyHostToDevice, st) == cudaSuccess &&
             cudaMemcpyAsync(db[k], hb.data(), c.lb * e, cudaMemcpyHostToDevice, st) == cudaSuccess &&
             cudaStreamSynchronize(st) == cudaSuccess;
    }
    // ha, hb now hold the last set's operands: its product is the reference.
    ok = ok && linear_ref(ps, ref.data(), ha.data(), c.la, hb.data(), c.lb) == NTT_OK;
    auto op = [&](int k) {
        return cuda_mul(pg, dc[k], lc, da[k], c.la, db[k], c.lb, c.n, st) == NTT_OK;
    };
    auto check = [&]() {
        return cudaMemsetAsync(dc[sets - 1], 0xA5, lc * e, st) == cudaSuccess && op(sets - 1) &&
               cudaMemcpyAsync(got.data(), dc[sets - 1], lc * e, cudaMemcpyDeviceToHost, st) ==
                   cudaSuccess &&
               cudaStreamSynchronize(st) == cudaSuccess && got == ref;
    };
    const bool verified = ok && check();
    for (int lm = STREAM; lm <= (graph_too ? QUEUED : STREAM); lm++) {
        for (int cold = 0; cold <= (cold_too ? 1 : 0); cold++) {
            Row r = base;
            r.mode = std::string(kLaunchName[lm]) + (cold ? "cold" : "warm");
            if (!verified) {
                r.why = ok ? "result differs from the scalar backend" : "set-up failed";
            } else {
                const bool timed = time_op(r, op, cold ? sets : 1, reps, (Launch)lm, st);
                r.ok = timed && check();
                if (!r.ok) r.why = describe_failure(pg, timed ? "re-check after timing" : "timing");
            }
            summarize(r);
            g_rows.push_back(r);
        }
    }
    for (int k = 0; k < sets; k++) {
        cudaFree(da[k]);
        cudaFree(db[k]);
        cudaFree(dc[k]);
    }
    ntt_plan_destroy(pg);
    ntt_plan_destroy(ps);
}

// Host to host: the host-pointer product from pinned memory, wall clock, beside
// the pure copies of the same bytes on the same stream.
void bench_host_to_host(size_t n, size_t la, size_t lb, uint64_t p, ntt_variant v, ntt_modmul mm,
                        int block, int reps, const char *group, double reference, rng_t *rng)
{
    const size_t lc = la + lb - 1, e = 4;
    ntt_plan_options o = {};
    o.modmul = mm;
    const ntt_variant_options vo = {v, block};
    char label[128];
    snprintf(label, sizeof label, "polymul %zu x %zu %s/%s blk %d p=%llu", la, lb,
             ntt_variant_name(v), ntt_modmul_name(mm), block, (unsigned long long)p);
    Row r;
    r.group = group;
    r.name = label;
    r.mode = "host to host";
    r.reference = reference;
    ntt_plan *pg = nullptr, *ps = nullptr;
    uint32_t *a = nullptr, *b = nullptr, *c = nullptr;
    std::vector<uint32_t> ref(lc);
    bool ok = ntt_plan_create_variant(&pg, n, &p, 1, NTT_U32, NTT_BACKEND_CUDA, &o, &vo) == NTT_OK &&
              ntt_plan_create(&ps, n, p, NTT_U32, NTT_BACKEND_SCALAR, nullptr) == NTT_OK &&
              cudaMallocHost(&a, la * e) == cudaSuccess && cudaMallocHost(&b, lb * e) == cudaSuccess &&
              cudaMallocHost(&c, lc * e) == cudaSuccess;
    if (ok) {
        for (size_t i = 0; i < la; i++) a[i] = (uint32_t)rng_below(rng, p);
        for (size_t i = 0; i < lb; i++) b[i] = (uint32_t)rng_below(rng, p);
        ok = ntt_polymul_linear_u32(ps, ref.data(), a, la, b, lb) == NTT_OK;
    }
    auto run = [&]() { return ntt_polymul_linear_u32(pg, c, a, la, b, lb) == NTT_OK; };
    auto same = [&]() { return memcmp(c, ref.data(), lc * e) == 0; };
    if (ok && run() && same()) {
        for (int w = 0; w < 3; w++) run();
        r.ok = true;
        for (int i = 0; i < reps && r.ok; i++) {
            double t0 = now_seconds();
            r.ok = run();
            r.reps.push_back(now_seconds() - t0);
        }
        r.ok = r.ok && same();
        if (!r.ok) r.why = "re-check failed";
    } else {
        r.why = ok ? "result differs from the scalar backend" : "set-up failed";
    }
    summarize(r);
    g_rows.push_back(r);
    // The same bytes, copied only.
    if (v == NTT_VARIANT_FAST && pg && a && b && c) {
        Row cp;
        cp.group = group;
        cp.name = std::string("  pure copies of the same bytes");
        cp.mode = "host to host";
        void *d = nullptr;
        cudaStream_t st;
        if (cudaMalloc(&d, (la + lb + lc) * e) == cudaSuccess &&
            cudaStreamCreateWithFlags(&st, cudaStreamNonBlocking) == cudaSuccess) {
            auto copy = [&]() {
                char *x = static_cast<char *>(d);
                cudaMemcpyAsync(x, a, la * e, cudaMemcpyHostToDevice, st);
                cudaMemcpyAsync(x + la * e, b, lb * e, cudaMemcpyHostToDevice, st);
                cudaMemcpyAsync(c, x + (la + lb) * e, lc * e, cudaMemcpyDeviceToHost, st);
                return cudaStreamSynchronize(st) == cudaSuccess;
            };
            cp.ok = true;
            for (int w = 0; w < 3; w++) copy();
            for (int i = 0; i < reps && cp.ok; i++) {
                double t0 = now_seconds();
                cp.ok = copy();
                cp.reps.push_back(now_seconds() - t0);
            }
            cudaStreamDestroy(st);
        }
        cudaFree(d);
        summarize(cp);
        g_rows.push_back(cp);
    }
    cudaFreeHost(a);
    cudaFreeHost(b);
    cudaFreeHost(c);
    ntt_plan_destroy(pg);
    ntt_plan_destroy(ps);
}

__global__ void k_empty(int *x)
{
    if (x && threadIdx.x == 0 && blockIdx.x == 0) x[0]++;
}

// What a chain of k dependent launches costs with nothing in them: the floor
// under any product made of k kernels.
void bench_launch_floor(int reps, cudaStream_t st, const char *group)
{
    for (int k : {1, 2, 3, 4}) {
        Row r;
        r.group = group;
        r.name = std::to_string(k) + " dependent empty kernel" + (k > 1 ? "s" : "") + ", 128 blocks";
        for (int lm = STREAM; lm <= QUEUED; lm++) {
            Row x = r;
            x.mode = std::string(kLaunchName[lm]) + "warm";
            auto op = [&](int) {
                for (int i = 0; i < k; i++) k_empty<<<128, 256, 0, st>>>(nullptr);
                return cudaGetLastError() == cudaSuccess;
            };
            x.ok = time_op(x, op, 1, reps, (Launch)lm, st);
            if (!x.ok) x.why = "launch failed";
            summarize(x);
            g_rows.push_back(x);
        }
    }
}

double measure_copy_gbps(void)
{
    const size_t bytes = (size_t)1 << 30;
    void *x = nullptr, *y = nullptr;
    double best = 0;
    if (cudaMalloc(&x, bytes) == cudaSuccess && cudaMalloc(&y, bytes) == cudaSuccess) {
        cudaEvent_t e0, e1;
        cudaEventCreate(&e0);
        cudaEventCreate(&e1);
        std::vector<double> v;
        for (int i = 0; i < 12; i++) {
            cudaEventRecord(e0);
            cudaMemcpy(y, x, bytes, cudaMemcpyDeviceToDevice);
            cudaEventRecord(e1);
            cudaEventSynchronize(e1);
            float ms = 0;
            cudaEventElapsedTime(&ms, e0, e1);
            if (i >= 2) v.push_back(2.0 * bytes / (ms * 1e-3) / 1e9);  // read + write
        }
        std::sort(v.begin(), v.end());
        best = v[v.size() / 2];
        cudaEventDestroy(e0);
        cudaEventDestroy(e1);
    }
    cudaFree(x);
    cudaFree(y);
    return best;
}

int clock_mhz(void)
{
    int v = 0;
    cudaDeviceGetAttribute(&v, cudaDevAttrClockRate, 0);
    return v / 1000;
}

int emit_json(FILE *f, void *ctx)
{
    const ntt_cuda_info *gi = static_cast<const ntt_cuda_info *>(ctx);
    sysinfo si;
    sysinfo_read(&si);
    fprintf(f, "{\n  \"benchmark\": \"gpu\",\n  \"machine\": {\n");
    sysinfo_json(f, &si, "    ");
    fprintf(f, ",\n    \"gpu\": ");
    cli_json_string(f, gi->name);
    fprintf(f, ",\n    \"sm_count\": %d, \"l2_bytes\": %zu, \"cc\": \"%d.%d\", \"driver\": %d, "
               "\"runtime\": %d,\n    \"d2d_copy_gbps\": %.1f\n  },\n",
            gi->sm_count, gi->l2_bytes, gi->cc_major, gi->cc_minor, gi->driver_version,
            gi->runtime_version, g_copy_gbps);
    fprintf(f, "  \"method\": \"verified against the scalar backend before and after timing; "
               "CUDA events around each repetition after 3 warm-up calls; warm = same buffers, "
               "cold = rotating buffer sets > 2x L2; graph = CUDA graph replay; host to host = "
               "wall clock of the host-pointer call from pinned memory\",\n  \"rows\": [\n");
    for (size_t i = 0; i < g_rows.size(); i++) {
        const Row &r = g_rows[i];
        fprintf(f, "    {\"group\": ");
        cli_json_string(f, r.group.c_str());
        fprintf(f, ", \"name\": ");
        cli_json_string(f, r.name.c_str());
        fprintf(f, ", \"mode\": ");
        cli_json_string(f, r.mode.c_str());
        fprintf(f, ", \"verified\": %s", r.ok ? "true" : "false");
        if (r.ok) {
            fprintf(f, ", \"median_s\": %.9g, \"min_s\": %.9g, \"max_s\": %.9g", r.median, r.min,
                    r.max);
            if (r.bytes > 0)
                fprintf(f, ", \"bytes\": %.0f, \"gbps\": %.1f", r.bytes, r.bytes / r.median / 1e9);
            if (r.reference > 0) fprintf(f, ", \"reports_s\": %.6g", r.reference);
            fprintf(f, ", \"reps_s\": [");
            for (size_t k = 0; k < r.reps.size(); k++)
                fprintf(f, "%s%.9g", k ? ", " : "", r.reps[k]);
            fprintf(f, "]");
        } else {
            fprintf(f, ", \"error\": ");
            cli_json_string(f, r.why.c_str());
        }
        fprintf(f, "}%s\n", i + 1 < g_rows.size() ? "," : "");
    }
    fprintf(f, "  ]\n}\n");
    return 0;
}

void print_group(const char *g)
{
    printf("\n%s\n", g);
    for (const Row &r : g_rows)
        if (r.group == g) print_row(r);
}

// The tables after the headline ones: the reports' ladder and the first
// report's block-size sweep.
void more_tables(bool quick, cudaStream_t st, rng_t *rng)
{
    // The reports' ladder at n = 131072 (products of two length-131072
    // polynomials), with their figures (report 000 on a T4/3090/4090 class
    // GPU, report 002 on an unstated one) beside ours.
    const char *L = "the reports' ladder: product n = 131072, device time of the whole product";
    struct Rung {
        ntt_variant v;
        ntt_modmul mm;
        double ref[3];  // the reports' ms for 7340033, 104857601, 469762049
    } rungs[] = {
        {NTT_VARIANT_BASELINE, NTT_MODMUL_NAIVE, {14.79e-3, 14.20e-3, 14.81e-3}},
        {NTT_VARIANT_BASELINE, NTT_MODMUL_BARRETT, {8.26e-3, 7.78e-3, 7.91e-3}},
        {NTT_VARIANT_BASELINE, NTT_MODMUL_MONTGOMERY, {8.34e-3, 8.07e-3, 8.22e-3}},
        {NTT_VARIANT_GPU_TABLE, NTT_MODMUL_BARRETT, {0, 0, 0}},
        {NTT_VARIANT_GPU_ASYNC, NTT_MODMUL_BARRETT, {0, 0, 0}},
        {NTT_VARIANT_GPU_SHARED, NTT_MODMUL_BARRETT, {7.06e-3, 6.54e-3, 6.65e-3}},
        {NTT_VARIANT_FAST, NTT_MODMUL_MONTGOMERY, {0, 0, 0}},
    };
    const uint64_t primes[3] = {7340033, 104857601, 469762049};
    for (const Rung &g : rungs) {
        for (int pi = 0; pi < 3; pi++) {
            MulCase m = {L, (size_t)1 << 18, 131072, 131072, primes[pi], g.v, g.mm, 128, g.ref[pi], ""};
            char lab[96];
            snprintf(lab, sizeof lab, "%s/%s p=%llu", ntt_variant_name(g.v), ntt_modmul_name(g.mm),
                     (unsigned long long)primes[pi]);
            m.label = lab;
            bench_polymul(m, quick ? 5 : 30, false, false, st, rng);
        }
    }
    print_group(L);

    // The first report's block-size sweep: its kernel (one thread per butterfly,
    // one launch per stage, twiddles by powers, %), host to host.
    const char *T = "the first report's threads-per-block sweep (baseline kernel, %), host to host";
    static const double ref_n4[5] = {309.450e-3, 306.647e-3, 305.911e-3, 304.336e-3, 308.767e-3};
    static const double ref_big[3][5] = {{15.0086e-3, 14.7928e-3, 14.9005e-3, 15.4459e-3, 21.3131e-3},
                                         {14.2761e-3, 14.2035e-3, 14.5199e-3, 14.9784e-3, 21.8278e-3},
                                         {15.0572e-3, 14.8107e-3, 15.0973e-3, 15.5707e-3, 22.7487e-3}};
    int bi = 0;
    for (int blk : {64, 128, 256, 512, 1024}) {
        bench_host_to_host(8, 4, 4, 7340033, NTT_VARIANT_BASELINE, NTT_MODMUL_NAIVE, blk,
                           quick ? 5 : 30, T, ref_n4[bi], rng);
        for (int pi = 0; pi < 3; pi++)
            bench_host_to_host((size_t)1 << 18, 131072, 131072, primes[pi], NTT_VARIANT_BASELINE,
                               NTT_MODMUL_NAIVE, blk, quick ? 5 : 30, T, ref_big[pi][bi], rng);
        bi++;
    }
    print_group(T);
}

// Exit status (a row that failed its check: EXIT_MISMATCH) and the JSON.
int finish(const char *json, ntt_cuda_info *gi, cudaStream_t st)
{
    cudaStreamDestroy(st);
    cudaFreeHost(g_hold);
    g_hold = nullptr;
    int rc = EXIT_OK;
    for (const Row &r : g_rows)
        if (!r.ok) rc = EXIT_MISMATCH;
    if (json) {
        char why[160];
        if (cli_atomic_write(json, emit_json, gi, why, sizeof why) != 0) {
            fprintf(stderr, "ntt-bench gpu: %s: cannot write: %s\n", json, why);
            if (rc == EXIT_OK) rc = EXIT_OUTPUT_IO;
        } else {
            printf("\nwrote %s\n", json);
        }
    }
    ntt_cache_clear();
    return rc;
}

int run_tables(const char *json, bool quick, bool profile, bool headline)
{
    ntt_cuda_info gi;
    if (ntt_cuda_get_info(&gi) != NTT_OK) {
        fprintf(stderr, "ntt-bench gpu: no usable CUDA device\n");
        return EXIT_UNSUPPORTED;
    }
    g_l2 = gi.l2_bytes;
    g_copy_gbps = measure_copy_gbps();
    printf("ntt-bench gpu: %s, %d SMs, L2 %zu MiB, SM clock %d MHz (max), driver %d, runtime %d\n",
           gi.name, gi.sm_count, gi.l2_bytes >> 20, clock_mhz(), gi.driver_version,
           gi.runtime_version);
    printf("device-to-device copy: %.0f GB/s (read + write, 1 GiB, median of 10)\n", g_copy_gbps);
    printf("method: verified against scalar before and after; events around each repetition; "
           "median / min / max;\n        queued = graph replay with the stream held until the "
           "repetition is enqueued (no host launch time)\n");
    cudaStream_t st;
    if (cudaStreamCreateWithFlags(&st, cudaStreamNonBlocking) != cudaSuccess) return EXIT_FAILURE_LIB;
    rng_t rng;
    rng_seed(&rng, 20261121);
    const char *pr = getenv("NTT_PROFILE_REPS");  // profile mode: 2 unless told
    const int prn = pr ? atoi(pr) : 0;
    const int reps = profile ? (prn > 0 ? prn : 2) : quick ? 10 : 50;
    if (profile) {
        // NTT_PROFILE_CASE picks one, so that a profiler's first launches are its kernels.
        const char *pc = getenv("NTT_PROFILE_CASE");
        const int which = pc ? atoi(pc) : -1;
        // NTT_PROFILE_LOG: the transform size (default 2^24, the product's 2^18, the
        // batches' 2^16; those only when NTT_PROFILE_CASE picks them).
        const char *ps = getenv("NTT_PROFILE_LOG");
        const int pl = ps ? atoi(ps) : 0;
        const bool sized = pl >= 2 && pl <= 26;
        const int plog = sized ? pl : 24, mlog = sized ? pl : 18;
        const int blog = sized && which >= 0 ? pl : 16;
        // NTT_PROFILE_COUNT: the batch of cases 1 and 4 (default 40).
        const char *pn = getenv("NTT_PROFILE_COUNT");
        const size_t cnt = pn && atoi(pn) > 0 ? (size_t)atoi(pn) : 40;
        // NTT_PROFILE_BITS: the u64 cases' prime below 2^bits (default 62;
        // 50 and less take the FP64 kernels), 2^25 | p-1.
        const char *pb = getenv("NTT_PROFILE_BITS");
        uint64_t p64 = 4611685941117976577ull;
        const int nb = pb ? atoi(pb) : 62;
        if (pb && (nb < 27 || nb > 62 || ntt_find_prime((unsigned)nb, 25, 0, &p64) != NTT_OK)) {
            fprintf(stderr, "ntt-bench gpu: NTT_PROFILE_BITS=%s: need 27 .. 62\n", pb);
            return EXIT_USAGE;
        }
        if (which < 0 || which == 0)
            bench_forward({"profile", NTT_U32, (size_t)1 << plog, 1, {469762049}, 0}, NTT_MODMUL_SHOUP,
                          reps, st, &rng);
        if (which < 0 || which == 1)
            bench_forward({"profile", NTT_U64, (size_t)1 << blog, cnt, {p64}, NTT_FLAG_NEGACYCLIC},
                          NTT_MODMUL_SHOUP, reps, st, &rng);
        if (which < 0 || which == 2) {
            const size_t h = (size_t)1 << (mlog - 1);  // operand length
            MulCase m = {"profile", 2 * h, h, h, 469762049, NTT_VARIANT_FAST, NTT_MODMUL_SHOUP, 0, 0, ""};
            m.label = "polymul u32 2^" + std::to_string(mlog) + " shoup";
            bench_polymul(m, reps, true, true, st, &rng);
        }
        if (which < 0 || which == 3)
            bench_forward({"profile", NTT_U64, (size_t)1 << plog, 1, {p64}, 0}, NTT_MODMUL_SHOUP,
                          reps, st, &rng);
        if (which == 4)
            bench_forward({"profile", NTT_U32, (size_t)1 << blog, cnt, {469762049},
                           NTT_FLAG_NEGACYCLIC}, NTT_MODMUL_SHOUP, reps, st, &rng);
        if (which == 6 || which == 7 || which == 8) {
            // Cases 1 and 4 as RNS batches: cnt distinct primes (below 2^bits, or
            // 2^30 for u32), one per item; 8: case 6's inverse.
            const bool u32 = which == 7;
            const std::vector<uint64_t> mods =
                rns_primes(u32 ? 30 : (unsigned)nb, (unsigned)blog + 1, (unsigned)cnt);
            bench_forward({"profile", u32 ? NTT_U32 : NTT_U64, (size_t)1 << blog, cnt, mods,
                           NTT_FLAG_NEGACYCLIC, which == 8}, NTT_MODMUL_SHOUP, reps, st, &rng);
        }
        if (which == 5) {
            const size_t h = (size_t)1 << (mlog - 1);
            MulCase m = {"profile", 2 * h, h, h, p64, NTT_VARIANT_FAST, NTT_MODMUL_SHOUP, 0, 0, ""};
            m.label = "polymul u64 2^" + std::to_string(mlog) + " " + std::to_string(nb) + "-bit shoup";
            bench_polymul<uint64_t>(m, reps, true, true, st, &rng);
        }
        print_group("profile");
        return finish(json, &gi, st);
    }

    // The headline rows: README's and PERFORMANCE.md's GPU tables.
    const char *H = "headline: fast path, data on the device";
    for (ntt_modmul mm : {NTT_MODMUL_MONTGOMERY, NTT_MODMUL_SHOUP}) {
        MulCase m = {H, (size_t)1 << 18, 131072, 131072, 469762049, NTT_VARIANT_FAST, mm, 0, 0, ""};
        m.label = std::string("polymul u32 131072 x 131072 (2^18) ") + ntt_modmul_name(mm);
        bench_polymul(m, reps, true, true, st, &rng);
    }
    // u64 with 62-bit primes (the integer kernels) and with 50-bit ones (the
    // Shoup kind's FP64 kernels; Montgomery stays integer).
    std::vector<uint64_t> one = {4611685941117976577ull}, one50 = {0};
    std::vector<uint64_t> forty = rns_primes(62, 17, 40), forty50 = rns_primes(50, 17, 40);
    if (ntt_find_prime(50, 25, 0, &one50[0]) != NTT_OK) one50 = one;
    for (ntt_modmul mm : {NTT_MODMUL_MONTGOMERY, NTT_MODMUL_SHOUP}) {
        for (const std::vector<uint64_t> *m : {&one, &forty, &one50, &forty50})
            bench_forward({H, NTT_U64, (size_t)1 << 16, 40, *m, NTT_FLAG_NEGACYCLIC}, mm, reps, st,
                          &rng);
        bench_forward({H, NTT_U32, (size_t)1 << 18, 1, {469762049}, 0}, mm, reps, st, &rng);
        bench_forward({H, NTT_U32, (size_t)1 << 24, 1, {469762049}, 0}, mm, quick ? 5 : 30, st, &rng);
        bench_forward({H, NTT_U64, (size_t)1 << 24, 1, one, 0}, mm, quick ? 5 : 30, st, &rng);
        bench_forward({H, NTT_U64, (size_t)1 << 24, 1, one50, 0}, mm, quick ? 5 : 30, st, &rng);
    }
    print_group(H);

    const char *F = "launch floor: dependent launches of an empty kernel";
    bench_launch_floor(reps, st, F);
    print_group(F);

    const char *HH = "host to host: product of two length-131072 polynomials from pinned memory";
    for (ntt_modmul mm : {NTT_MODMUL_SHOUP, NTT_MODMUL_MONTGOMERY})
        bench_host_to_host((size_t)1 << 18, 131072, 131072, 469762049, NTT_VARIANT_FAST, mm, 128,
                           reps, HH, 0, &rng);
    print_group(HH);
    if (!headline) more_tables(quick, st, &rng);

    return finish(json, &gi, st);
}

void usage(FILE *f)
{
    fputs("usage: ntt-bench gpu [--quick] [--headline] [--profile] [--json FILE]\n"
          "\n"
          "The CUDA backend on the first GPU: the headline products and transforms\n"
          "(data on the device), the launch floor, the host-to-host product beside pure\n"
          "copies, then the reports' GPU ladder, batches and sizes.  Every configuration\n"
          "is checked against the scalar backend before and after it is timed; CUDA\n"
          "events around each repetition, warm and cold L2, stream and graph launches.\n"
          "\n"
          "  --quick      fewer repetitions\n"
          "  --headline   the headline, launch floor and host-to-host tables only\n"
          "  --profile    a few calls of the headline kernels, for a profiler; the\n"
          "               environment picks them: NTT_PROFILE_CASE, NTT_PROFILE_LOG,\n"
          "               NTT_PROFILE_COUNT, NTT_PROFILE_BITS, NTT_PROFILE_REPS\n"
          "  --json FILE  write every row with every repetition to FILE (atomically)\n"
          "\n"
          "The CUDA backend's tuning switches, for A/B runs, come from the environment\n"
          "(src/core/cuda_tuning_env.h): NTT_CUDA_FP64, NTT_CUDA_CAP, NTT_CUDA_STW,\n"
          "NTT_CUDA_RHO, NTT_CUDA_LOGC, NTT_CUDA_BOTTOM, NTT_CUDA_COMPACT_LOG,\n"
          "NTT_CUDA_CARVEOUT; unset means the library's automatic choice.\n"
          "\n"
          "exit status: 0 ok, 1 a row failed its check, 2 usage, 6 cannot write FILE,\n"
          "7 no usable GPU, 8 other failure.\n",
          f);
}

}  // namespace

extern "C" int bench_gpu(int argc, char **argv)
{
    static const char cmd[] = "ntt-bench gpu";
    const char *json = nullptr;
    bool quick = false, profile = false, headline = false;
    for (int i = 1; i < argc; i++) {
        if (cli_is_help(argv[i])) {
            usage(stdout);
            return EXIT_OK;
        }
        if (!strcmp(argv[i], "--profile")) {
            // A few calls of the headline kernels, for a profiler.
            profile = quick = true;
        } else if (!strcmp(argv[i], "--quick")) {
            quick = true;
        } else if (!strcmp(argv[i], "--headline")) {
            headline = true;  // the headline, launch floor and host-to-host tables only
        } else if (int r = cli_file_option(cmd, argc, argv, &i, "--json", nullptr, &json)) {
            if (r < 0) return EXIT_USAGE;
        } else {
            return cli_unknown_option(cmd, argv[i]);
        }
    }
    ntt_cuda_tuning t;
    const char *bad = nullptr;
    if (ntt_cuda_tuning_from_env(&t, nullptr, &bad) != NTT_OK || ntt_cuda_tuning_set(&t) != NTT_OK) {
        fprintf(stderr, "%s: bad tuning switch %s\n", cmd, bad ? bad : "(out of range)");
        return EXIT_USAGE;
    }
    return run_tables(json, quick, profile, headline);
}
