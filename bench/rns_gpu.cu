// ntt-bench rns --gpu: the CKKS stages of ntt_rns.h on the device
// (ntt_rns_cuda_*), timed as CKKS runs them (issue 46, item 4).
//
// Parameters as the CPU rows (rns_stages.c): N = 2^16, Q of L+1 = 45 primes
// (one of 60 bits, 44 of 50), P of K = 15 primes of 60 bits, dnum = 3; the
// top level (l = 44, three digits) and a middle one (l = 23, two digits).
// Rows, each verified against the host form (an OpenMP or serial CPU
// context, which test_rns checks against GMP) with every fusion setting
// before it is timed:
//   level 1  one batched NTT of the L+1 limbs, warm (the same buffer again);
//   level 2  the same NTT cold (L2 flushed before each call);
//   level 3  modUp (every digit), the inner product, modDown (both sums),
//            the whole key switch, rescale (two polynomials): cold, stream
//            launches and CUDA-graph replay, fused and unfused, and the
//            transforms alone (RNS_NTT_ONLY), whose time over the stage's
//            is its NTT share.
// Each row gives the bytes the stage must move (each input read once, each
// output written once, stage by stage as the issue counts them), the time
// those bytes take at the device-to-device copy bandwidth measured in this
// run, achieved GB/s and the ratio to that floor.  Times are CUDA events
// around the stage alone (the flush before it is outside); medians.
#include "ntt.h"
#include "ntt_rns.h"

extern "C" {
#include "ntt_internal.h"
}

#include <cuda_runtime_api.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <string>
#include <vector>

#include "bench.h"
#include "gpu_common.h"

namespace {

constexpr size_t NQ = 45, NP = 15, DNUM = 3, NL = NQ + NP;

#define CKB(x) BENCH_CUDA("ntt-bench rns --gpu", x)
#define CKS(x) BENCH_NTT("ntt-bench rns --gpu", x)

enum Stage { S_NTT, S_MODUP, S_INNER, S_MODDOWN, S_KEYSWITCH, S_RESCALE, S_COUNT };
const char *stage_name[S_COUNT] = {"ntt_batch", "modup_all", "inner", "moddown_x2", "keyswitch",
                                   "rescale_x2"};

struct Bench {
    size_t n;
    uint64_t primes[NL];
    ntt_rns *dctx, *hctx;
    cudaStream_t st;
    uint64_t *flush;
    size_t flush_bytes;
    // Device buffers: input poly (q limbs), key, extended digits, sums, outputs.
    uint64_t *din, *dkey, *dext, *dacc, *dout, *dct, *dntt;
    // Host copies.
    uint64_t *hin, *hkey, *hct;
};

uint64_t rng_state = 0x9e3779b97f4a7c15ull;
uint64_t rng()
{
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return rng_state;
}

uint64_t *dalloc(size_t words)
{
    void *p = nullptr;
    CKB(cudaMalloc(&p, words * 8));
    return static_cast<uint64_t *>(p);
}

size_t alpha() { return (NQ + DNUM - 1) / DNUM; }
size_t beta_of(size_t l) { return l / alpha() + 1; }

// Rows of limbs: residues of the limb each row holds.
void fill_rows(uint64_t *a, size_t rows, size_t n, size_t (*limb)(size_t, size_t), size_t l,
               const uint64_t *primes)
{
    for (size_t k = 0; k < rows; k++) {
        const uint64_t p = primes[limb(l, k)];
        for (size_t m = 0; m < n; m++) a[k * n + m] = rng() % p;
    }
}
size_t limb_q(size_t, size_t k) { return k; }
size_t limb_key(size_t, size_t k) { return k % NL; }

// The stage at level l on the device, enqueued on b.st.
void run(Bench &b, Stage s, size_t l)
{
    const size_t n = b.n, q = l + 1, e = q + NP, beta = beta_of(l), kl = 2 * DNUM * NL;
    switch (s) {
    case S_NTT: {
        size_t limbs[NQ];
        for (size_t i = 0; i < q; i++) limbs[i] = i;
        CKS(ntt_rns_cuda_forward(b.dctx, n, limbs, q, b.dntt, b.st));
        break;
    }
    case S_MODUP:
        for (size_t j = 0; j < beta; j++) {
            size_t first, cnt;
            CKS(ntt_rns_digit_range(b.dctx, l, j, &first, &cnt));
            CKS(ntt_rns_cuda_modup(b.dctx, n, l, j, b.din + first * n, cnt, b.dext + j * e * n, e,
                                   b.st));
        }
        break;
    case S_INNER:
        CKS(ntt_rns_cuda_ks_inner(b.dctx, n, l, b.dext, beta * e, b.dkey, kl, b.dacc,
                                  b.dacc + e * n, e, b.st));
        break;
    case S_MODDOWN:
        CKS(ntt_rns_cuda_moddown(b.dctx, n, l, b.dacc, e, b.dout, q, b.st));
        CKS(ntt_rns_cuda_moddown(b.dctx, n, l, b.dacc + e * n, e, b.dout + q * n, q, b.st));
        break;
    case S_KEYSWITCH:
        CKS(ntt_rns_cuda_keyswitch(b.dctx, n, l, b.din, q, b.dkey, kl, b.dout, b.dout + q * n, q,
                                   b.st));
        break;
    case S_RESCALE:
        CKS(ntt_rns_cuda_rescale(b.dctx, n, l, b.dct, q, b.dout, l, b.st));
        CKS(ntt_rns_cuda_rescale(b.dctx, n, l, b.dct + q * n, q, b.dout + l * n, l, b.st));
        break;
    default:
        break;
    }
}

// Limbs each stage must read and write, as the issue counts them.
double stage_limbs(Stage s, size_t l)
{
    const double q = (double)(l + 1), e = q + NP, beta = (double)beta_of(l);
    switch (s) {
    case S_NTT: return 2 * q;
    case S_MODUP: return q + (beta * e - q);
    case S_INNER: return beta * e + 2 * beta * e + 2 * e;
    case S_MODDOWN: return 2 * e + 2 * q;
    case S_KEYSWITCH:
        return stage_limbs(S_MODUP, l) + stage_limbs(S_INNER, l) + stage_limbs(S_MODDOWN, l);
    case S_RESCALE: return 2 * q + 2 * (q - 1);
    default: return 0;
    }
}

// The host form of the stage's result (words of the device's output).
void host_result(Bench &b, Stage s, size_t l, uint64_t *out, size_t *words)
{
    const size_t n = b.n, q = l + 1, e = q + NP, beta = beta_of(l), kl = 2 * DNUM * NL;
    uint64_t *ext = static_cast<uint64_t *>(malloc(beta * e * n * 8));
    uint64_t *acc = static_cast<uint64_t *>(malloc(2 * e * n * 8));
    for (size_t j = 0; j < beta; j++) {
        size_t first, cnt;
        CKS(ntt_rns_digit_range(b.hctx, l, j, &first, &cnt));
        CKS(ntt_rns_modup(b.hctx, n, l, j, b.hin + first * n, cnt, ext + j * e * n, e));
    }
    CKS(ntt_rns_ks_inner(b.hctx, n, l, ext, beta * e, b.hkey, kl, acc, acc + e * n, e));
    switch (s) {
    case S_NTT: {
        size_t limbs[NQ];
        for (size_t i = 0; i < q; i++) limbs[i] = i;
        memcpy(out, b.hin, q * n * 8);
        CKS(ntt_rns_forward(b.hctx, n, limbs, q, out));
        *words = q * n;
        break;
    }
    case S_MODUP: memcpy(out, ext, beta * e * n * 8), *words = beta * e * n; break;
    case S_INNER: memcpy(out, acc, 2 * e * n * 8), *words = 2 * e * n; break;
    case S_MODDOWN:
    case S_KEYSWITCH:
        CKS(ntt_rns_moddown(b.hctx, n, l, acc, e, out, q));
        CKS(ntt_rns_moddown(b.hctx, n, l, acc + e * n, e, out + q * n, q));
        *words = 2 * q * n;
        break;
    case S_RESCALE:
        CKS(ntt_rns_rescale(b.hctx, n, l, b.hct, q, out, l));
        CKS(ntt_rns_rescale(b.hctx, n, l, b.hct + q * n, q, out + l * n, l));
        *words = 2 * l * n;
        break;
    default: *words = 0;
    }
    free(ext);
    free(acc);
}

const uint64_t *dev_out(const Bench &b, Stage s)
{
    return s == S_NTT ? b.dntt : s == S_MODUP ? b.dext : s == S_INNER ? b.dacc : b.dout;
}

// Sets up the device inputs the stage reads (the inner product and modDown
// read what modUp and the inner product wrote) and resets the NTT buffer.
void prepare(Bench &b, Stage s, size_t l)
{
    const size_t n = b.n;
    if (s == S_NTT) CKB(cudaMemcpy(b.dntt, b.hin, (l + 1) * n * 8, cudaMemcpyHostToDevice));
    if (s == S_INNER || s == S_MODDOWN) run(b, S_MODUP, l);
    if (s == S_MODDOWN) run(b, S_INNER, l);
    CKB(cudaStreamSynchronize(b.st));
}

bool verify(Bench &b, Stage s, size_t l, unsigned fuse, const uint64_t *exp, size_t words)
{
    CKS(ntt_rns_cuda_set_fusion(b.dctx, fuse));
    // The transform's output is its input: only the other stages' outputs
    // are poisoned first.
    if (s != S_NTT) CKB(cudaMemset(const_cast<uint64_t *>(dev_out(b, s)), 0xa5, words * 8));
    prepare(b, s, l);
    run(b, s, l);
    CKB(cudaStreamSynchronize(b.st));
    uint64_t *got = static_cast<uint64_t *>(malloc(words * 8));
    CKB(cudaMemcpy(got, dev_out(b, s), words * 8, cudaMemcpyDeviceToHost));
    const bool ok = memcmp(got, exp, words * 8) == 0;
    free(got);
    return ok;
}

// Times reps calls (stream launches, or one graph captured from them);
// cold: the L2 flushed before each, outside the timed events.
double time_stage(Bench &b, Stage s, size_t l, bool cold, bool graph, int reps)
{
    const double us = bench_time_device(b.st, b.flush, b.flush_bytes, cold, graph, reps,
                                        [&] { run(b, s, l); }, nullptr, nullptr);
    if (us < 0) {
        fprintf(stderr, "ntt-bench rns --gpu: a CUDA call failed while timing %s\n", stage_name[s]);
        exit(1);
    }
    return us;
}

struct Row {
    const char *stage;
    size_t level;
    const char *temp, *launch, *fusion;
    double us, bytes, floor_us, gbps, ratio, ntt_share;
    bool verified;
};

}  // namespace

int bench_rns_gpu(int argc, char **argv)
{
    int reps = 21;
    const char *json = nullptr;
    Bench b = {};
    b.n = 65536;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : nullptr;
        if (!strcmp(a, "--gpu")) continue;
        if (!strcmp(a, "--quick")) reps = 5;
        else if (v && !strcmp(a, "--reps")) reps = atoi(v), i++;
        else if (v && !strcmp(a, "--n")) b.n = (size_t)strtoull(v, nullptr, 10), i++;
        else if (v && !strcmp(a, "--json")) json = v, i++;
        else {
            fprintf(stderr, "usage: ntt-bench rns --gpu [--n N] [--reps R] [--quick] [--json FILE]\n");
            return 2;
        }
    }
    if (reps < 1 || b.n < 1024 || (b.n & (b.n - 1))) return 2;
    if (!ntt_backend_available(NTT_BACKEND_CUDA)) {
        fprintf(stderr, "ntt-bench rns --gpu: no usable CUDA device\n");
        return 77;
    }
    const size_t n = b.n;
    const unsigned lg = (unsigned)__builtin_ctzll(2 * n);
    bool ok = ntt_find_prime(60, lg, 0, &b.primes[0]) == NTT_OK;
    for (size_t i = 1; i < NQ && ok; i++)
        ok = ntt_find_prime(50, lg, (unsigned)(i - 1), &b.primes[i]) == NTT_OK;
    for (size_t i = 0; i < NP && ok; i++)
        ok = ntt_find_prime(60, lg, (unsigned)(i + 1), &b.primes[NQ + i]) == NTT_OK;
    if (!ok) return 1;
    ntt_rns_params prm = {};
    prm.n = n;
    prm.q = b.primes;
    prm.q_count = NQ;
    prm.p = b.primes + NQ;
    prm.p_count = NP;
    prm.dnum = DNUM;
    prm.backend = NTT_BACKEND_CUDA;
    CKS(ntt_rns_create(&b.dctx, &prm));
    prm.backend = ntt_backend_available(NTT_BACKEND_OPENMP) ? NTT_BACKEND_OPENMP : NTT_BACKEND_AUTO;
    CKS(ntt_rns_create(&b.hctx, &prm));
    CKB(cudaStreamCreateWithFlags(&b.st, cudaStreamNonBlocking));
    ntt_cuda_info info;
    CKS(ntt_cuda_get_info(&info));
    b.flush_bytes = 2 * info.l2_bytes;
    b.flush = dalloc(b.flush_bytes / 8);

    const size_t kl = 2 * DNUM * NL, beta = DNUM, e = NL;
    b.hin = static_cast<uint64_t *>(malloc(NQ * n * 8));
    b.hkey = static_cast<uint64_t *>(malloc(kl * n * 8));
    b.hct = static_cast<uint64_t *>(malloc(2 * NQ * n * 8));
    b.din = dalloc(NQ * n);
    b.dkey = dalloc(kl * n);
    b.dext = dalloc(beta * e * n);
    b.dacc = dalloc(2 * e * n);
    b.dout = dalloc(2 * NQ * n);
    b.dct = dalloc(2 * NQ * n);
    b.dntt = dalloc(NQ * n);
    fill_rows(b.hkey, kl, n, limb_key, 0, b.primes);
    CKB(cudaMemcpy(b.dkey, b.hkey, kl * n * 8, cudaMemcpyHostToDevice));

    const double gbps = bench_copy_gbps(b.st, reps);
    if (gbps <= 0) {
        fprintf(stderr, "ntt-bench %s --gpu: the copy bandwidth could not be measured\n", argv[0]);
        return 1;
    }
    char when[32];
    const time_t now = time(nullptr);
    strftime(when, sizeof when, "%Y-%m-%d", gmtime(&now));
    printf("ntt-bench rns --gpu: %s (%d SMs, L2 %zu MiB), N = %zu, L+1 = %zu, K = %zu, dnum = %zu, "
           "%d reps, %s\n",
           info.name, info.sm_count, info.l2_bytes >> 20, n, NQ, NP, DNUM, reps, when);
    printf("  device-to-device copy: %.0f GB/s (read + write)\n\n", gbps);
    printf("  %-11s %5s %-5s %-6s %-8s %10s %9s %9s %7s %6s %6s\n", "stage", "l", "temp", "launch",
           "fusion", "median us", "MiB", "floor us", "GB/s", "ratio", "ntt%");

    std::vector<Row> rows;
    const size_t levels[2] = {NQ - 1, 23};
    bool all_ok = true;
    for (size_t li = 0; li < 2; li++) {
        const size_t l = levels[li], q = l + 1;
        fill_rows(b.hin, q, n, limb_q, l, b.primes);
        fill_rows(b.hct, q, n, limb_q, l, b.primes);
        fill_rows(b.hct + q * n, q, n, limb_q, l, b.primes);
        CKB(cudaMemcpy(b.din, b.hin, q * n * 8, cudaMemcpyHostToDevice));
        CKB(cudaMemcpy(b.dct, b.hct, 2 * q * n * 8, cudaMemcpyHostToDevice));
        for (int si = 0; si < S_COUNT; si++) {
            const Stage s = static_cast<Stage>(si);
            size_t words = 0;
            uint64_t *exp = static_cast<uint64_t *>(malloc(2 * DNUM * NL * n * 8));
            host_result(b, s, l, exp, &words);
            const bool vf = verify(b, s, l, RNS_FUSE_ALL, exp, words);
            const bool vu = verify(b, s, l, 0, exp, words);
            free(exp);
            all_ok &= vf && vu;
            const double bytes = stage_limbs(s, l) * (double)n * 8;
            const double floor_us = bytes / (gbps * 1e9) * 1e6;
            struct V {
                const char *temp, *launch, *fusion;
                unsigned fuse;
                bool cold, graph;
            };
            const V vs[] = {{"warm", "stream", "fused", RNS_FUSE_ALL, false, false},
                            {"cold", "stream", "fused", RNS_FUSE_ALL, true, false},
                            {"cold", "graph", "fused", RNS_FUSE_ALL, true, true},
                            {"cold", "stream", "unfused", 0, true, false},
                            {"cold", "graph", "unfused", 0, true, true},
                            {"cold", "graph", "ntt-only", RNS_FUSE_ALL | RNS_NTT_ONLY, true, true}};
            double ntt_us = 0, fused_graph = 0;
            for (const V &v : vs) {
                if (s == S_NTT && v.fuse != RNS_FUSE_ALL) continue;
                CKS(ntt_rns_cuda_set_fusion(b.dctx, v.fuse));
                prepare(b, s, l);
                const double us = time_stage(b, s, l, v.cold, v.graph, reps);
                if (v.fuse & RNS_NTT_ONLY) ntt_us = us;
                if (v.cold && v.graph && v.fuse == RNS_FUSE_ALL) fused_graph = us;
                Row r = {stage_name[s], l, v.temp, v.launch, v.fusion, us, bytes, floor_us,
                         bytes / (us * 1e-6) / 1e9, us / floor_us, -1, v.fuse ? vf : vu};
                rows.push_back(r);
            }
            CKS(ntt_rns_cuda_set_fusion(b.dctx, RNS_FUSE_ALL));
            for (Row &r : rows)
                if (r.level == l && r.stage == stage_name[s] && ntt_us > 0 && fused_graph > 0)
                    r.ntt_share = ntt_us / fused_graph;
            for (const Row &r : rows)
                if (r.level == l && r.stage == stage_name[s])
                    printf("  %-11s %5zu %-5s %-6s %-8s %10.1f %9.1f %9.1f %7.0f %6.2f %6s%s\n",
                           r.stage, r.level, r.temp, r.launch, r.fusion, r.us,
                           r.bytes / 1048576.0, r.floor_us, r.gbps, r.ratio,
                           r.ntt_share >= 0 ? std::to_string((int)(r.ntt_share * 100 + 0.5)).c_str()
                                            : "-",
                           r.verified ? "" : "  WRONG WORDS");
        }
    }
    printf("\n  every row verified against the host form (fused and unfused): %s\n",
           all_ok ? "yes" : "NO");
    if (json) {
        FILE *f = fopen(json, "w");
        if (!f) {
            fprintf(stderr, "ntt-bench rns --gpu: cannot write %s\n", json);
            return 1;
        }
        fprintf(f, "{\n  \"bench\": \"rns-gpu\",\n  \"date\": \"%s\",\n  \"device\": \"%s\",\n"
                   "  \"sms\": %d,\n  \"l2_bytes\": %zu,\n  \"n\": %zu,\n  \"q_count\": %zu,\n"
                   "  \"p_count\": %zu,\n  \"dnum\": %zu,\n  \"reps\": %d,\n"
                   "  \"copy_gbps\": %.1f,\n  \"verified\": %s,\n  \"rows\": [\n",
                when, info.name, info.sm_count, info.l2_bytes, n, NQ, NP, DNUM, reps, gbps,
                all_ok ? "true" : "false");
        for (size_t i = 0; i < rows.size(); i++) {
            const Row &r = rows[i];
            fprintf(f,
                    "    {\"stage\": \"%s\", \"level\": %zu, \"temp\": \"%s\", \"launch\": \"%s\", "
                    "\"fusion\": \"%s\", \"median_us\": %.2f, \"bytes\": %.0f, \"floor_us\": %.2f, "
                    "\"gbps\": %.1f, \"ratio\": %.3f, \"ntt_share\": %.3f, \"verified\": %s}%s\n",
                    r.stage, r.level, r.temp, r.launch, r.fusion, r.us, r.bytes, r.floor_us,
                    r.gbps, r.ratio, r.ntt_share, r.verified ? "true" : "false",
                    i + 1 < rows.size() ? "," : "");
        }
        fprintf(f, "  ]\n}\n");
        fclose(f);
        printf("  wrote %s\n", json);
    }
    ntt_rns_destroy(b.dctx);
    ntt_rns_destroy(b.hctx);
    return all_ok ? 0 : 1;
}
