// The device state of a CUDA RNS context and the element-wise kernels'
// launches, shared by rns_cuda_setup.cpp, rns_cuda_stages.cpp and
// rns_cuda_kernels.cu.  C++ over the CUDA runtime API.  Not installed.
#pragma once

extern "C" {
#include "rns_cuda.h"
}

#include <cuda_runtime_api.h>

namespace nttr {

// The limbs of one base conversion, passed by value (kernel parameters, so
// that a captured graph keeps them): source i is limb src[i]; target j is
// limb dst[j], written to output row row[j], with constants in row wrow[j]
// of the weight table (s words a row).  Limb indices are below
// NTT_RNS_MAX_LIMBS = 256.
struct ConvLists {
    uint8_t src[NTT_RNS_MAX_LIMBS], dst[NTT_RNS_MAX_LIMBS];
    uint8_t row[NTT_RNS_MAX_LIMBS], wrow[NTT_RNS_MAX_LIMBS];
};

// A conversion's constants: inv, invq (s words), w (rows of s words).
struct ConvTab {
    const uint64_t *inv, *invq, *w;
    size_t s;
};

}  // namespace nttr

struct rns_cuda {
    ntt_plan *plan;    // negacyclic, every limb's prime: item i of a call has limb item0 + i
    ntt_plan *plan_p;  // P's primes only (K > 0): P rows of several polynomials in one call
    unsigned fuse;     // RNS_FUSE_* (rns_cuda.h)
    int last_error;
    void *dconst;      // the constants below, one allocation
    void *dscratch;    // the scratch below, one allocation
    rns_prime *pm;     // nlimb
    nttr::ConvTab *shape;  // host array of nq: device pointers (ntt_rns.shape's)
    nttr::ConvTab pconv;   // from P, rows indexed by Q limb
    const uint64_t *pinv, *pinvq;    // nq
    const uint64_t *qlinv, *qlinvq;  // nq * nq
    uint64_t *gen;     // the generic conversion's constants: inv, invq (nlimb), w (nlimb^2)
    // Scratch: X nq rows, T max(dnum nlimb, 2 nq) rows, PP 2K rows, Y nlimb rows (the
    // unfused conversion's scaled sources).
    uint64_t *X, *T, *PP, *Y;
};

namespace nttr {

// rns_cuda_kernels.cu.  Every launch goes to st; n is the context's N.
// out rows row[j] of target j; npoly polynomials along the grid's z, x
// and out xpoly and opoly words apart.
cudaError_t conv(const rns_cuda *d, size_t n, const uint64_t *x, size_t xpoly, const ConvTab &tab,
                 const ConvLists &L, size_t t, uint64_t *out, size_t opoly, unsigned npoly,
                 bool fused, cudaStream_t st);
// The generic conversion's constants (src -> dst of L, s and t limbs) into
// d->gen: inv, invq at gen, w at gen + 2 nlimb, t rows of s.
cudaError_t gen_consts(const rns_cuda *d, size_t nlimb, const ConvLists &L, size_t s, size_t t,
                       cudaStream_t st);
// Inner product of the key switch at level l over a window of the rows of
// an extended polynomial (ntt_rns_win, rns_cuda.h): local row r < qn is Q
// row q0 + r, row r >= qn is P row p0 + (r - qn), rows = qn + pn.  Digit
// j's term of local row r is own + r n when own is set and r is a Q row of
// digit j ((q0 + r) / alpha == j), else ext + (j rows + r) n.  The key's
// row of component c of digit j is key + ((2j + c) krows + kr) n, kr = r
// for a Q row and kq + (r - qn) for a P row (one GPU: ntt_rns.h's layout,
// krows = nlimb and kq = nq).  The sums' Q rows go to a0/a1 + r n, their
// P rows to p0/p1 + (r - qn) n.  Only the local rows r0 .. r0+count-1
// are computed.
struct InnerArgs {
    const uint64_t *ext, *own, *key;
    uint64_t *a0, *a1, *p0, *p1;
    size_t q0, qn, pfirst, rows, beta, alpha, nq, krows, kq, r0, count;
    // The automorphism X -> X^g read into the terms (g = 0: none; logn =
    // log2 N), and the sums added to what out rows hold (accumulate): the
    // CKKS rotations' seam (ntt_rns_cuda_ks_inner_perm); both force the
    // fused kernel.
    uint64_t g;
    unsigned logn;
    bool accumulate;
};
cudaError_t inner(const rns_cuda *d, size_t n, const InnerArgs &a, bool fused, cudaStream_t st);
// out = (x - t) w mod p_i row by row (row i: limb limb0 + i, constants
// w[i]), rows rows, npoly polynomials (x, t, out xpoly, tpoly, opoly words
// apart); out may be x; unfused: t is overwritten.
cudaError_t subc(const rns_cuda *d, size_t n, const uint64_t *x, size_t xpoly, uint64_t *t,
                 size_t tpoly, uint64_t *out, size_t opoly, const uint64_t *w, const uint64_t *wq,
                 size_t limb0, size_t rows, unsigned npoly, bool fused, cudaStream_t st);
// t row i = [x]_{p_i} for i < rows.
cudaError_t bcast_reduce(const rns_cuda *d, size_t n, const uint64_t *x, uint64_t *t, size_t rows,
                         cudaStream_t st);

}  // namespace nttr
