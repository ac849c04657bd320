// phantom_ckks: Phantom's CKKS operations at the parameters of `ntt-bench ckks --gpu`, timed the
// same way, for the side-by-side table of issue 58.  Built only against a Phantom the user
// built outside the tree (scripts/device/phantom_harness.sh PHANTOM_SRC PHANTOM_BUILD OUT);
// nothing of Phantom is part of ntt.
//
// N = 2^16, Q of L+1 = 45 primes (one of 60 bits, 44 of 50), P of K = 15 primes of 60 bits
// (Phantom's special modulus, so dnum = 3), scale 2^50; the top level (L+1 = 45) and
// L+1 = 24.  Every operation is first checked by decryption against the message it must give
// (|error| < 1e-3 in every slot), then timed: CUDA events on cudaStreamPerThread (Phantom's
// stream) around the call alone; cold = the L2 flushed (a memset of twice its size) before each
// repetition, outside the events; the in-place input copied fresh before the flush.  Phantom's
// calls allocate from the stream-ordered pool inside the timed region (that is how its users
// run them).  Phantom's hoisting sums the r rotations and runs one modDown (ntt's
// rotate_hoisted returns r ciphertexts, r modDowns): the rows say so.
#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>
#include <complex>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <functional>
#include <string>
#include <vector>

#include "phantom.h"

using namespace phantom;
using namespace phantom::arith;
using namespace phantom::util;

namespace {

#define CK(x)                                                                          \
    do {                                                                               \
        cudaError_t e_ = (x);                                                          \
        if (e_ != cudaSuccess) {                                                       \
            fprintf(stderr, "phantom_ckks: %s: %s\n", #x, cudaGetErrorString(e_));    \
            exit(1);                                                                   \
        }                                                                              \
    } while (0)

double median(std::vector<double> v)
{
    std::sort(v.begin(), v.end());
    const size_t m = v.size();
    return m % 2 ? v[m / 2] : 0.5 * (v[m / 2 - 1] + v[m / 2]);
}

struct Row {
    std::string op;
    size_t level;
    const char *temp;
    double us, lo, hi;
    bool verified;
};

using cplx = cuDoubleComplex;

bool close_to(const std::vector<cplx> &got, const std::vector<cplx> &want, double *worst)
{
    double w = 0;
    for (size_t i = 0; i < want.size(); i++)
        w = std::max(w, std::hypot(got[i].x - want[i].x, got[i].y - want[i].y));
    *worst = w;
    return w < 1e-3;
}

}  // namespace

int main(int argc, char **argv)
{
    int reps = 21;
    const char *json = nullptr;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--reps") && i + 1 < argc) reps = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--json") && i + 1 < argc) json = argv[++i];
        else {
            fprintf(stderr, "usage: phantom_ckks [--reps R] [--json FILE]\n");
            return 2;
        }
    }
    const size_t N = 1 << 16;
    EncryptionParameters parms(scheme_type::ckks);
    parms.set_poly_modulus_degree(N);
    std::vector<int> bits(1, 60);
    bits.insert(bits.end(), 44, 50);
    bits.insert(bits.end(), 15, 60);
    parms.set_coeff_modulus(CoeffModulus::Create(N, bits));
    parms.set_special_modulus_size(15);
    std::vector<int> steps;
    for (int k = 1; k <= 32; k++) steps.push_back(k);
    std::vector<uint32_t> elts = get_elts_from_steps(steps, N);
    parms.set_galois_elts(elts);
    const double scale = std::pow(2.0, 50);

    PhantomContext context(parms);
    PhantomSecretKey sk(context);
    PhantomRelinKey rlk = sk.gen_relinkey(context);
    PhantomGaloisKey glk = sk.create_galois_keys(context);
    PhantomCKKSEncoder enc(context);
    const size_t slots = enc.slot_count();

    srand(7);
    std::vector<cplx> xm(slots), ym(slots);
    for (size_t i = 0; i < slots; i++) {
        xm[i] = make_cuDoubleComplex(2.0 * rand() / RAND_MAX - 1, 2.0 * rand() / RAND_MAX - 1);
        ym[i] = make_cuDoubleComplex(2.0 * rand() / RAND_MAX - 1, 2.0 * rand() / RAND_MAX - 1);
    }
    std::vector<cplx> xy(slots);
    for (size_t i = 0; i < slots; i++) xy[i] = cuCmul(xm[i], ym[i]);
    auto rot_sum = [&](int r) {
        std::vector<cplx> v(slots, make_cuDoubleComplex(0, 0));
        for (size_t i = 0; i < slots; i++)
            for (int k = 1; k <= r; k++) v[i] = cuCadd(v[i], xm[(i + k) % slots]);
        return v;
    };

    cudaDeviceProp prop;
    int dev = 0;
    CK(cudaGetDevice(&dev));
    CK(cudaGetDeviceProperties(&prop, dev));
    const cudaStream_t s = cudaStreamPerThread;
    const size_t flush_bytes = 2 * (size_t)prop.l2CacheSize;
    void *flush = nullptr;
    CK(cudaMalloc(&flush, flush_bytes));
    cudaEvent_t e0, e1;
    CK(cudaEventCreate(&e0));
    CK(cudaEventCreate(&e1));

    char when[32];
    const time_t now = time(nullptr);
    strftime(when, sizeof when, "%Y-%m-%d", gmtime(&now));
    printf("phantom_ckks: Phantom (commit %s) on %s (%d SMs), N = %zu, L+1 = 45, K = 15 "
           "(dnum = 3), %d reps, %s\n",
           PHANTOM_COMMIT, prop.name, prop.multiProcessorCount, N, reps, when);
    printf("  %-16s %3s %-5s %10s %10s %10s  %s\n", "op", "l", "temp", "median us", "min", "max",
           "check (max |error|)");

    std::vector<Row> rows;
    bool all_ok = true;
    for (size_t top : {(size_t)44, (size_t)23}) {
        const size_t chain = 1 + (44 - top);
        PhantomPlaintext xp, yp;
        enc.encode(context, xm, scale, xp);
        enc.encode(context, ym, scale, yp);
        PhantomCiphertext x, y;
        sk.encrypt_symmetric(context, xp, x);
        sk.encrypt_symmetric(context, yp, y);
        mod_switch_to_inplace(context, x, chain);
        mod_switch_to_inplace(context, y, chain);
        PhantomCiphertext xy3 = multiply(context, x, y);  // size 3: the relinearisation's input
        PhantomCiphertext xy2 = relinearize(context, xy3, rlk);  // scale 2^100: rescale's input

        struct Op {
            std::string name;
            const PhantomCiphertext *in;
            std::function<void(PhantomCiphertext &)> run;
            std::vector<cplx> want;
        };
        std::vector<Op> ops = {
            {"keyswitch(relin)", &xy3, [&](PhantomCiphertext &c) { relinearize_inplace(context, c, rlk); }, xy},
            {"hmult", &x, [&](PhantomCiphertext &c) { multiply_and_relin_inplace(context, c, y, rlk); }, xy},
            {"hmult+rescale", &x,
             [&](PhantomCiphertext &c) {
                 multiply_and_relin_inplace(context, c, y, rlk);
                 rescale_to_next_inplace(context, c);
             },
             xy},
            {"rescale", &xy2, [&](PhantomCiphertext &c) { rescale_to_next_inplace(context, c); }, xy},
            {"rotate(1)", &x, [&](PhantomCiphertext &c) { rotate_inplace(context, c, 1, glk); }, rot_sum(1)},
        };
        for (int r : {8, 32}) {
            std::vector<int> st(steps.begin(), steps.begin() + r);
            ops.push_back({"hoisted-sum(" + std::to_string(r) + ")", &x,
                           [&, st](PhantomCiphertext &c) { hoisting_inplace(context, c, glk, st); },
                           rot_sum(r)});
        }
        for (Op &op : ops) {
            PhantomCiphertext c = *op.in;
            op.run(c);
            PhantomPlaintext pt = sk.decrypt(context, c);
            std::vector<cplx> got = enc.decode<cplx>(context, pt);
            CK(cudaStreamSynchronize(s));
            double worst = 0;
            const bool ok = close_to(got, op.want, &worst);
            all_ok &= ok;
            for (int cold = 0; cold < 2; cold++) {
                std::vector<double> t;
                for (int r = -2; r < reps; r++) {
                    PhantomCiphertext w = *op.in;
                    if (cold) CK(cudaMemsetAsync(flush, r & 0xff, flush_bytes, s));
                    CK(cudaEventRecord(e0, s));
                    op.run(w);
                    CK(cudaEventRecord(e1, s));
                    CK(cudaEventSynchronize(e1));
                    float ms = 0;
                    CK(cudaEventElapsedTime(&ms, e0, e1));
                    if (r >= 0) t.push_back(ms * 1e3);
                }
                Row row = {op.name, top, cold ? "cold" : "warm", median(t),
                           *std::min_element(t.begin(), t.end()),
                           *std::max_element(t.begin(), t.end()), ok};
                rows.push_back(row);
                printf("  %-16s %3zu %-5s %10.1f %10.1f %10.1f  %s (%.2e)\n", row.op.c_str(), top,
                       row.temp, row.us, row.lo, row.hi, ok ? "ok" : "WRONG", worst);
            }
        }
    }
    printf("\n  every row checked by decryption: %s\n", all_ok ? "yes" : "NO");
    if (json) {
        FILE *f = fopen(json, "w");
        if (!f) {
            fprintf(stderr, "phantom_ckks: cannot write %s\n", json);
            return 1;
        }
        fprintf(f, "{\n  \"bench\": \"phantom-ckks\",\n  \"phantom_commit\": \"%s\",\n"
                   "  \"date\": \"%s\",\n  \"device\": \"%s\",\n  \"n\": %zu,\n  \"reps\": %d,\n"
                   "  \"verified\": %s,\n  \"rows\": [\n",
                PHANTOM_COMMIT, when, prop.name, N, reps, all_ok ? "true" : "false");
        for (size_t i = 0; i < rows.size(); i++) {
            const Row &r = rows[i];
            fprintf(f, "    {\"op\": \"%s\", \"level\": %zu, \"temp\": \"%s\", \"median_us\": %.2f, "
                       "\"min_us\": %.2f, \"max_us\": %.2f, \"verified\": %s}%s\n",
                    r.op.c_str(), r.level, r.temp, r.us, r.lo, r.hi, r.verified ? "true" : "false",
                    i + 1 < rows.size() ? "," : "");
        }
        fprintf(f, "  ]\n}\n");
        fclose(f);
    }
    return all_ok ? 0 : 1;
}
