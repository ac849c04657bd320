// ntt-bench ckks --gpu: the CKKS operations of ntt_ckks.h on the device (ntt_ckks_cuda_*),
// timed as FHE users time them (issue 58, item 3), with CPU rows beside them.
//
// Parameters as `ntt-bench rns --gpu` (Phantom's 2^16 example): N = 2^16, Q of L+1 = 45 primes
// (one of 60 bits, 44 of 50), P of K = 15 primes of 60 bits, dnum = 3; levels l = 44 and 23.
// Operations: the key switch alone (ntt_rns_cuda_keyswitch of one polynomial), HMult (tensor
// product + relinearisation), HMult + rescale, rescale of a ciphertext, rotation by one slot,
// r = 8 and 32 hoisted rotations (r ciphertexts out), the sums of r = 8 and 32 rotations (one
// modDown, as Phantom's hoisting computes), the plaintext product and the sum.
// Each device result is first compared word for word with the host form on a CPU context
// (test_ckks checks the host forms by decryption), then timed: CUDA events around the call
// alone, medians; warm (the same inputs again), cold (the L2 flushed before each repetition,
// outside the events), stream launches and CUDA-graph replay.  The floor of a row is the bytes
// the operation cannot avoid (its inputs and the keys it reads once, its outputs written once)
// at the device-to-device copy bandwidth measured in this run.  CPU rows: the host forms on one
// thread and on every thread (--cpu-reps repetitions, wall time).
#include "ntt.h"
#include "ntt_ckks.h"

#include <cuda_runtime_api.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <string>
#include <vector>

#include "bench.h"
#include "gpu_common.h"
#include "cli.h"
#include "sysinfo.h"

namespace {

constexpr size_t NQ = 45, NP = 15, DNUM = 3, NL = NQ + NP, MAXR = 32;

#define CKB(x) BENCH_CUDA("ntt-bench ckks --gpu", x)
#define CKS(x) BENCH_NTT("ntt-bench ckks --gpu", x)

enum Op {
    O_KS, O_HMULT, O_HMULT_RS, O_RESCALE, O_ROT, O_HOIST8, O_HOIST32, O_SUM8, O_SUM32, O_MULPT,
    O_ADD, O_COUNT
};
const char *op_name[O_COUNT] = {"keyswitch",   "hmult",   "hmult+rescale", "rescale",
                                "rotate(1)",   "hoisted(8)", "hoisted(32)", "rot-sum(8)",
                                "rot-sum(32)", "mul_plain", "add"};

uint64_t *dalloc(size_t words)
{
    void *p = nullptr;
    CKB(cudaMalloc(&p, words * 8));
    return static_cast<uint64_t *>(p);
}

// One set of operands on one side (host or device): a, b, the plaintext, the keys, outputs.
struct Side {
    ntt_ckks *ck;
    ntt_ckks_ct a, b, out[MAXR];
    uint64_t *pt, *rlk, *gk[MAXR], *ks0;  // ks0: the key switch's two outputs (2 cap N words)
};

ntt_ckks_ct make_ct(size_t n, bool dev)
{
    const size_t w = NQ * n;
    ntt_ckks_ct c = {};
    c.c0 = dev ? dalloc(w) : static_cast<uint64_t *>(malloc(w * 8));
    c.c1 = dev ? dalloc(w) : static_cast<uint64_t *>(malloc(w * 8));
    c.n = n;
    c.cap = NQ;
    return c;
}

size_t hoist_r(Op o) { return o == O_HOIST8 || o == O_SUM8 ? 8 : o == O_HOIST32 || o == O_SUM32 ? MAXR : 1; }
size_t outs(Op o) { return o == O_SUM8 || o == O_SUM32 ? 1 : hoist_r(o); }

// The operation at level l on one side; dev: enqueued on st.
void run(Side &s, Op o, size_t l, bool dev, cudaStream_t st, const uint64_t *g)
{
    ntt_ckks_ct a = s.a, b = s.b;
    a.level = b.level = l;
    const size_t n = a.n, q = l + 1, kl = ntt_ckks_key_limbs(s.ck);
    ntt_rns *rns = ntt_ckks_rns(s.ck);
    const ntt_cuda_stream cs = (ntt_cuda_stream)st;
    switch (o) {
    case O_KS:
        if (dev)
            CKS(ntt_rns_cuda_keyswitch(rns, n, l, a.c1, q, s.rlk, kl, s.ks0, s.ks0 + NQ * n, q, cs));
        else
            CKS(ntt_rns_keyswitch(rns, n, l, a.c1, q, s.rlk, kl, s.ks0, s.ks0 + NQ * n, q));
        break;
    case O_HMULT:
    case O_HMULT_RS:
        if (dev)
            CKS(ntt_ckks_cuda_mul(s.ck, &a, &b, s.rlk, kl, o == O_HMULT_RS, &s.out[0], cs));
        else
            CKS(ntt_ckks_mul(s.ck, &a, &b, s.rlk, kl, o == O_HMULT_RS, &s.out[0]));
        break;
    case O_RESCALE:
        if (dev) CKS(ntt_ckks_cuda_rescale(s.ck, &a, &s.out[0], cs));
        else CKS(ntt_ckks_rescale(s.ck, &a, &s.out[0]));
        break;
    case O_ROT:
        if (dev) CKS(ntt_ckks_cuda_rotate(s.ck, &a, 1, s.gk[0], kl, &s.out[0], cs));
        else CKS(ntt_ckks_rotate(s.ck, &a, 1, s.gk[0], kl, &s.out[0]));
        break;
    case O_HOIST8:
    case O_HOIST32: {
        const size_t r = hoist_r(o);
        if (dev)
            CKS(ntt_ckks_cuda_rotate_hoisted(s.ck, &a, g, r, s.gk, kl, s.out, cs));
        else
            CKS(ntt_ckks_rotate_hoisted(s.ck, &a, g, r, s.gk, kl, s.out));
        break;
    }
    case O_SUM8:
    case O_SUM32: {
        const size_t r = hoist_r(o);
        if (dev)
            CKS(ntt_ckks_cuda_rotate_sum(s.ck, &a, g, r, s.gk, kl, s.out, cs));
        else
            CKS(ntt_ckks_rotate_sum(s.ck, &a, g, r, s.gk, kl, s.out));
        break;
    }
    case O_MULPT:
        if (dev) CKS(ntt_ckks_cuda_mul_plain(s.ck, &a, s.pt, q, &s.out[0], cs));
        else CKS(ntt_ckks_mul_plain(s.ck, &a, s.pt, q, &s.out[0]));
        break;
    case O_ADD:
        if (dev) CKS(ntt_ckks_cuda_add(s.ck, &a, &b, &s.out[0], cs));
        else CKS(ntt_ckks_add(s.ck, &a, &b, &s.out[0]));
        break;
    default:
        break;
    }
}

// Limbs of N words the operation must read (inputs, keys) and write (outputs) at level l.
double op_limbs(Op o, size_t l)
{
    const double q = (double)(l + 1), e = q + NP, beta = (double)(l / ((NQ + DNUM - 1) / DNUM) + 1),
                 key = 2 * beta * e, r = (double)hoist_r(o);
    switch (o) {
    case O_KS: return q + key + 2 * q;
    case O_HMULT: return 4 * q + key + 2 * q;
    case O_HMULT_RS: return 4 * q + key + 2 * (q - 1);
    case O_RESCALE: return 2 * q + 2 * (q - 1);
    case O_ROT:
    case O_HOIST8:
    case O_HOIST32: return 2 * q + r * key + r * 2 * q;
    case O_SUM8:
    case O_SUM32: return 2 * q + r * key + 2 * q;
    case O_MULPT: return 3 * q + 2 * q;
    case O_ADD: return 4 * q + 2 * q;
    default: return 0;
    }
}

// The words the operation wrote on one side (host copies of the device's), in a fixed order.
std::vector<uint64_t> result(Side &s, Op o, size_t l, bool dev)
{
    const size_t n = s.a.n;
    std::vector<std::pair<const uint64_t *, size_t>> parts;
    if (o == O_KS) {
        parts.push_back({s.ks0, (l + 1) * n});
        parts.push_back({s.ks0 + NQ * n, (l + 1) * n});
    } else {
        for (size_t i = 0; i < outs(o); i++) {
            const size_t w = (s.out[i].level + 1) * n;
            parts.push_back({s.out[i].c0, w});
            parts.push_back({s.out[i].c1, w});
        }
    }
    std::vector<uint64_t> v;
    for (auto &p : parts) {
        const size_t at = v.size();
        v.resize(at + p.second);
        if (dev) CKB(cudaMemcpy(v.data() + at, p.first, p.second * 8, cudaMemcpyDeviceToHost));
        else memcpy(v.data() + at, p.first, p.second * 8);
    }
    return v;
}

struct Bench {
    Side dev, host, host1;
    cudaStream_t st;
    uint64_t *flush;
    size_t flush_bytes;
    uint64_t g[MAXR];
};

double time_gpu(Bench &b, Op o, size_t l, bool cold, bool graph, int reps, double *lo, double *hi)
{
    const double us = bench_time_device(b.st, b.flush, b.flush_bytes, cold, graph, reps,
                                        [&] { run(b.dev, o, l, true, b.st, b.g); }, lo, hi);
    if (us < 0) {
        fprintf(stderr, "ntt-bench ckks --gpu: a CUDA call failed while timing %s\n", op_name[o]);
        exit(1);
    }
    return us;
}

double time_cpu(Side &s, Op o, size_t l, const uint64_t *g, int reps, double *lo, double *hi)
{
    std::vector<double> t;
    for (int r = -1; r < reps; r++) {
        const auto t0 = std::chrono::steady_clock::now();
        run(s, o, l, false, nullptr, g);
        const auto t1 = std::chrono::steady_clock::now();
        if (r >= 0) t.push_back(std::chrono::duration<double, std::micro>(t1 - t0).count());
    }
    *lo = *std::min_element(t.begin(), t.end());
    *hi = *std::max_element(t.begin(), t.end());
    return bench_median(t);
}

struct Row {
    const char *op;
    size_t level;
    std::string where, temp, launch;
    double us, lo, hi, bytes, floor_us;
    bool verified;
};

// A CPU-side operand set on context ck with the given keys and ciphertext words.
void host_side(Side &s, ntt_ckks *ck, size_t n)
{
    s.ck = ck;
    s.a = make_ct(n, false);
    s.b = make_ct(n, false);
    for (size_t i = 0; i < MAXR; i++) s.out[i] = make_ct(n, false);
    s.pt = static_cast<uint64_t *>(malloc(NQ * n * 8));
    s.ks0 = static_cast<uint64_t *>(malloc(2 * NQ * n * 8));
}

}  // namespace

int bench_ckks_gpu(int argc, char **argv)
{
    int reps = 21, cpu_reps = 3;
    bool cpu = true;
    const char *json = nullptr;
    size_t n = 65536;
    static const char usage[] = "ntt-bench ckks --gpu [--n N] [--reps R] [--cpu-reps R] [--no-cpu] "
                                "[--quick] [--json FILE]";
    static const char help[] =
        "The CKKS operations of ntt_ckks.h on the device at N = 2^16 (--n), L+1 = 45 and 24,\n"
        "K = 15, dnum = 3: key switch, HMult, HMult + rescale, rescale, rotation, 8 and 32\n"
        "hoisted rotations, the sums of 8 and 32 rotations, plaintext product, sum.  Each\n"
        "checked word for word against the host form, then timed warm/cold, stream/graph\n"
        "(--reps, default 21), with the bytes floor; CPU rows on one thread and on every\n"
        "thread (--cpu-reps, default 3; --no-cpu leaves them out).  --quick: 5 and 1\n"
        "repetitions.  Exits 77 without a GPU.\n";
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : nullptr;
        if (!strcmp(a, "--gpu")) continue;
        if (cli_is_help(a)) {
            printf("usage: %s\n\n%s", usage, help);
            return EXIT_OK;
        }
        if (!strcmp(a, "--quick")) reps = 5, cpu_reps = 1;
        else if (!strcmp(a, "--no-cpu")) cpu = false;
        else if (v && !strcmp(a, "--reps")) reps = atoi(v), i++;
        else if (v && !strcmp(a, "--cpu-reps")) cpu_reps = atoi(v), i++;
        else if (v && !strcmp(a, "--n")) n = (size_t)strtoull(v, nullptr, 10), i++;
        else if (v && !strcmp(a, "--json")) json = v, i++;
        else {
            fprintf(stderr, "usage: %s\n", usage);
            return EXIT_USAGE;
        }
    }
    if (reps < 1 || cpu_reps < 1 || n < 1024 || (n & (n - 1))) return EXIT_USAGE;
    if (!ntt_backend_available(NTT_BACKEND_CUDA)) {
        fprintf(stderr, "ntt-bench ckks --gpu: no usable CUDA device\n");
        return 77;
    }
    const unsigned lg = (unsigned)__builtin_ctzll(2 * n);
    uint64_t primes[NL];
    bool ok = ntt_find_prime(60, lg, 0, &primes[0]) == NTT_OK;
    for (size_t i = 1; i < NQ && ok; i++) ok = ntt_find_prime(50, lg, (unsigned)(i - 1), &primes[i]) == NTT_OK;
    for (size_t i = 0; i < NP && ok; i++) ok = ntt_find_prime(60, lg, (unsigned)(i + 1), &primes[NQ + i]) == NTT_OK;
    if (!ok) return 1;
    ntt_rns_params prm = {};
    prm.n = n;
    prm.q = primes;
    prm.q_count = NQ;
    prm.p = primes + NQ;
    prm.p_count = NP;
    prm.dnum = DNUM;
    ntt_rns *rd, *rh, *r1;
    prm.backend = NTT_BACKEND_CUDA;
    CKS(ntt_rns_create(&rd, &prm));
    prm.backend = ntt_backend_available(NTT_BACKEND_OPENMP) ? NTT_BACKEND_OPENMP : NTT_BACKEND_AUTO;
    CKS(ntt_rns_create(&rh, &prm));
    prm.backend = NTT_BACKEND_AUTO;
    CKS(ntt_rns_create(&r1, &prm));
    Bench b = {};
    ntt_ckks *cd, *ch, *c1;
    CKS(ntt_ckks_create(&cd, rd));
    CKS(ntt_ckks_create(&ch, rh));
    CKS(ntt_ckks_create(&c1, r1));
    CKB(cudaStreamCreateWithFlags(&b.st, cudaStreamNonBlocking));
    ntt_cuda_info info;
    CKS(ntt_cuda_get_info(&info));
    b.flush_bytes = 2 * info.l2_bytes;
    b.flush = dalloc(b.flush_bytes / 8);

    // Secret, keys and ciphertexts made on the host, copied to the device; the one-thread
    // side shares the host side's words.
    const size_t kl = ntt_ckks_key_limbs(ch);
    host_side(b.host, ch, n);
    b.host1 = b.host;
    b.host1.ck = c1;
    std::vector<int8_t> sec(n);
    CKS(ntt_ckks_secret_gen(ch, 1, sec.data(), n));
    b.host.rlk = static_cast<uint64_t *>(malloc(kl * n * 8));
    CKS(ntt_ckks_keygen_relin(ch, sec.data(), n, 2, b.host.rlk, kl));
    for (size_t i = 0; i < MAXR; i++) {
        b.g[i] = ntt_ckks_galois_rot(ch, (long)i + 1);
        b.host.gk[i] = static_cast<uint64_t *>(malloc(kl * n * 8));
        CKS(ntt_ckks_keygen_galois(ch, sec.data(), n, b.g[i], 3 + i, b.host.gk[i], kl));
    }
    b.host1.rlk = b.host.rlk;
    memcpy(b.host1.gk, b.host.gk, sizeof b.host.gk);
    std::vector<int64_t> ma(n), mb(n);
    for (size_t i = 0; i < n; i++) ma[i] = (int64_t)(i % 7) - 3, mb[i] = (int64_t)(i % 5) - 2;
    const uint64_t delta = (uint64_t)1 << 40;
    b.dev.ck = cd;
    b.dev.a = make_ct(n, true);
    b.dev.b = make_ct(n, true);
    for (size_t i = 0; i < MAXR; i++) b.dev.out[i] = make_ct(n, true);
    b.dev.pt = dalloc(NQ * n);
    b.dev.ks0 = dalloc(2 * NQ * n);
    b.dev.rlk = dalloc(kl * n);
    CKB(cudaMemcpy(b.dev.rlk, b.host.rlk, kl * n * 8, cudaMemcpyHostToDevice));
    for (size_t i = 0; i < MAXR; i++) {
        b.dev.gk[i] = dalloc(kl * n);
        CKB(cudaMemcpy(b.dev.gk[i], b.host.gk[i], kl * n * 8, cudaMemcpyHostToDevice));
    }

    const double gbps = bench_copy_gbps(b.st, reps);
    if (gbps <= 0) {
        fprintf(stderr, "ntt-bench %s --gpu: the copy bandwidth could not be measured\n", argv[0]);
        return 1;
    }
    char when[32];
    const time_t now = time(nullptr);
    strftime(when, sizeof when, "%Y-%m-%d", gmtime(&now));
    printf("ntt-bench ckks --gpu: %s (%d SMs, L2 %zu MiB), N = %zu, L+1 = %zu, K = %zu, dnum = %zu, "
           "%d reps (CPU %d), %s\n",
           info.name, info.sm_count, info.l2_bytes >> 20, n, NQ, NP, DNUM, reps, cpu_reps, when);
    printf("  device-to-device copy: %.0f GB/s (read + write); floor = inputs and keys read once, "
           "outputs written once\n\n",
           gbps);
    printf("  %-14s %3s %-6s %-5s %-6s %10s %10s %10s %8s %9s %6s\n", "op", "l", "where", "temp",
           "launch", "median us", "min", "max", "MiB", "floor us", "ratio");

    std::vector<Row> rows;
    bool all_ok = true;
    for (size_t l : {NQ - 1, (size_t)23}) {
        const size_t q = l + 1;
        CKS(ntt_ckks_encrypt(ch, sec.data(), n, ma.data(), delta, l, 11, &b.host.a));
        CKS(ntt_ckks_encrypt(ch, sec.data(), n, mb.data(), delta, l, 12, &b.host.b));
        CKS(ntt_ckks_plain(ch, n, mb.data(), delta, l, b.host.pt, q));
        b.host1.a = b.host.a;
        b.host1.b = b.host.b;
        CKB(cudaMemcpy(b.dev.a.c0, b.host.a.c0, q * n * 8, cudaMemcpyHostToDevice));
        CKB(cudaMemcpy(b.dev.a.c1, b.host.a.c1, q * n * 8, cudaMemcpyHostToDevice));
        CKB(cudaMemcpy(b.dev.b.c0, b.host.b.c0, q * n * 8, cudaMemcpyHostToDevice));
        CKB(cudaMemcpy(b.dev.b.c1, b.host.b.c1, q * n * 8, cudaMemcpyHostToDevice));
        CKB(cudaMemcpy(b.dev.pt, b.host.pt, q * n * 8, cudaMemcpyHostToDevice));
        for (int oi = 0; oi < O_COUNT; oi++) {
            const Op o = static_cast<Op>(oi);
            run(b.host, o, l, false, nullptr, b.g);
            const std::vector<uint64_t> want = result(b.host, o, l, false);
            for (size_t i = 0; i < outs(o); i++) CKB(cudaMemset(b.dev.out[i].c0, 0xa5, NQ * n * 8));
            run(b.dev, o, l, true, b.st, b.g);
            CKB(cudaStreamSynchronize(b.st));
            const bool vd = result(b.dev, o, l, true) == want;
            all_ok &= vd;
            const double bytes = op_limbs(o, l) * (double)n * 8, floor_us = bytes / (gbps * 1e9) * 1e6;
            struct V {
                const char *temp, *launch;
                bool cold, graph;
            };
            for (const V &v : {V{"warm", "stream", false, false}, V{"cold", "stream", true, false},
                               V{"cold", "graph", true, true}}) {
                double lo, hi;
                const double us = time_gpu(b, o, l, v.cold, v.graph, reps, &lo, &hi);
                rows.push_back({op_name[o], l, "gpu", v.temp, v.launch, us, lo, hi, bytes, floor_us, vd});
            }
            if (cpu) {
                bool v1 = true;
                for (int t = 0; t < 2; t++) {
                    Side &s = t ? b.host : b.host1;
                    double lo, hi;
                    const double us = time_cpu(s, o, l, b.g, cpu_reps, &lo, &hi);
                    if (!t) v1 = result(s, o, l, false) == want;
                    all_ok &= v1;
                    rows.push_back({op_name[o], l, t ? "cpu-all" : "cpu-1", "warm", "-", us, lo, hi,
                                    bytes, 0, t ? true : v1});
                }
            }
            for (const Row &r : rows)
                if (r.level == l && r.op == op_name[o])
                    printf("  %-14s %3zu %-6s %-5s %-6s %10.1f %10.1f %10.1f %8.1f %9.1f %6s%s\n",
                           r.op, r.level, r.where.c_str(), r.temp.c_str(), r.launch.c_str(), r.us,
                           r.lo, r.hi, r.bytes / 1048576.0, r.floor_us,
                           r.floor_us > 0 ? std::to_string(r.us / r.floor_us).substr(0, 5).c_str() : "-",
                           r.verified ? "" : "  WRONG WORDS");
        }
    }
    printf("\n  every device row equal to the host form word for word: %s\n", all_ok ? "yes" : "NO");
    if (json) {
        FILE *f = fopen(json, "w");
        if (!f) {
            fprintf(stderr, "ntt-bench ckks --gpu: cannot write %s\n", json);
            return 1;
        }
        fprintf(f, "{\n  \"bench\": \"ckks-gpu\",\n  \"commit\": \"%s\",\n  \"date\": \"%s\",\n"
                   "  \"device\": \"%s\",\n  \"sms\": %d,\n  \"n\": %zu,\n  \"q_count\": %zu,\n"
                   "  \"p_count\": %zu,\n  \"dnum\": %zu,\n  \"reps\": %d,\n  \"cpu_reps\": %d,\n"
                   "  \"copy_gbps\": %.1f,\n  \"verified\": %s,\n  \"rows\": [\n",
                build_commit(), when, info.name, info.sm_count, n, NQ, NP, DNUM, reps, cpu_reps,
                gbps, all_ok ? "true" : "false");
        for (size_t i = 0; i < rows.size(); i++) {
            const Row &r = rows[i];
            fprintf(f, "    {\"op\": \"%s\", \"level\": %zu, \"where\": \"%s\", \"temp\": \"%s\", "
                       "\"launch\": \"%s\", \"median_us\": %.2f, \"min_us\": %.2f, \"max_us\": %.2f, "
                       "\"bytes\": %.0f, \"floor_us\": %.2f, \"verified\": %s}%s\n",
                    r.op, r.level, r.where.c_str(), r.temp.c_str(), r.launch.c_str(), r.us, r.lo,
                    r.hi, r.bytes, r.floor_us, r.verified ? "true" : "false",
                    i + 1 < rows.size() ? "," : "");
        }
        fprintf(f, "  ]\n}\n");
        fclose(f);
        printf("  wrote %s\n", json);
    }
    ntt_ckks_destroy(cd);
    ntt_ckks_destroy(ch);
    ntt_ckks_destroy(c1);
    ntt_rns_destroy(rd);
    ntt_rns_destroy(rh);
    ntt_rns_destroy(r1);
    return all_ok ? 0 : 1;
}
