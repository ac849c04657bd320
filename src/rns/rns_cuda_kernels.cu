// The element-wise kernels of the RNS stages on the device and their
// launches (rns_cuda_dev.h).  Each computes the formulas of rns_arith.h,
// as the CPU kernels (kernels.c) do, so that both give the same words:
// every output is the fully reduced residue of the same sum.
#include "rns_cuda_dev.h"
#include "../cuda/cuda_device_arith.cuh"
#include "../cuda/cuda_launch_macros.cuh"
#include "galois_index.cuh"

namespace nttr {

namespace {

constexpr int kBlock = 256;
// Targets per block of the fused conversion: its sources' scaled residues
// are computed once per block and reused for this many targets; more
// targets than this go to further blocks along y, which read the sources
// again (from L2: a digit is a few MiB).
constexpr unsigned kTargets = 8;

// A 128-bit sum of products of residues below 2^61, as four 32-bit words
// on the device: each term y w is four 32 x 32 products added column by
// column with the carry chain (ten multiply-adds), where the generic
// 128-bit product and sum take about twice as many instructions.  The host
// build (the CPU stand-in) sums in ntt_u128.  Either way the sum is exact,
// so its reduction is the CPU's word.
struct Sum128 {
#ifdef __CUDA_ARCH__
    uint32_t a0, a1, a2, a3;
    __device__ __forceinline__ void zero() { a0 = a1 = a2 = a3 = 0; }
    __device__ __forceinline__ void mac(uint64_t y, uint64_t w)
    {
        const uint32_t y0 = (uint32_t)y, y1 = (uint32_t)(y >> 32);
        const uint32_t w0 = (uint32_t)w, w1 = (uint32_t)(w >> 32);
        asm("mad.lo.cc.u32 %0, %4, %6, %0;\n\t"
            "madc.hi.cc.u32 %1, %4, %6, %1;\n\t"
            "madc.lo.cc.u32 %2, %5, %7, %2;\n\t"
            "madc.hi.u32 %3, %5, %7, %3;\n\t"
            "mad.lo.cc.u32 %1, %4, %7, %1;\n\t"
            "madc.hi.cc.u32 %2, %4, %7, %2;\n\t"
            "addc.u32 %3, %3, 0;\n\t"
            "mad.lo.cc.u32 %1, %5, %6, %1;\n\t"
            "madc.hi.cc.u32 %2, %5, %6, %2;\n\t"
            "addc.u32 %3, %3, 0;"
            : "+r"(a0), "+r"(a1), "+r"(a2), "+r"(a3)
            : "r"(y0), "r"(y1), "r"(w0), "r"(w1));
    }
    __device__ __forceinline__ ntt_u128 get() const
    {
        return (ntt_u128)(((uint64_t)a3 << 32) | a2) << 64 | (((uint64_t)a1 << 32) | a0);
    }
    __device__ __forceinline__ void set(uint64_t r)
    {
        a0 = (uint32_t)r;
        a1 = (uint32_t)(r >> 32);
        a2 = a3 = 0;
    }
#else
    ntt_u128 a;
    void zero() { a = 0; }
    void mac(uint64_t y, uint64_t w) { a += rns_term(y, w); }
    ntt_u128 get() const { return a; }
    void set(uint64_t r) { a = r; }
#endif
};

// The targets' sums of one coefficient, two at a time (each y loaded once
// for both): out(j) = [sum_i y_i w_j[i]]_{c_j}, reduced every RNS_CHUNK
// terms as the CPU's sums are.
__device__ __forceinline__ uint64_t dot_row(const uint64_t *y, size_t ystride, const uint64_t *w,
                                            size_t s, const rns_prime &m)
{
    Sum128 a;
    a.zero();
    for (size_t i0 = 0; i0 < s; i0 += RNS_CHUNK) {
        if (i0) a.set(rns_reduce128(a.get(), &m));
        const size_t i1 = s - i0 > RNS_CHUNK ? i0 + RNS_CHUNK : s;
#pragma unroll 4
        for (size_t i = i0; i < i1; i++) a.mac(y[i * ystride], __ldg(w + i));
    }
    return rns_reduce128(a.get(), &m);
}

__device__ __forceinline__ void dot_row2(const uint64_t *y, size_t ystride, const uint64_t *w0,
                                         const uint64_t *w1, size_t s, const rns_prime &m0,
                                         const rns_prime &m1, uint64_t &r0, uint64_t &r1)
{
    Sum128 a, b;
    a.zero();
    b.zero();
    for (size_t i0 = 0; i0 < s; i0 += RNS_CHUNK) {
        if (i0) {
            a.set(rns_reduce128(a.get(), &m0));
            b.set(rns_reduce128(b.get(), &m1));
        }
        const size_t i1 = s - i0 > RNS_CHUNK ? i0 + RNS_CHUNK : s;
#pragma unroll 4
        for (size_t i = i0; i < i1; i++) {
            const uint64_t v = y[i * ystride];
            a.mac(v, __ldg(w0 + i));
            b.mac(v, __ldg(w1 + i));
        }
    }
    r0 = rns_reduce128(a.get(), &m0);
    r1 = rns_reduce128(b.get(), &m1);
}

// Fused: one thread a coefficient; its sources' [x_i inv_i]_{b_i} in
// shared memory (its own column), then the sums of kTargets targets.
__global__ void k_conv(const rns_prime *pm, size_t n, const uint64_t *x, size_t xpoly,
                       ConvTab tab, ConvLists L, unsigned t, uint64_t *out, size_t opoly)
{
    NTT_DYN_SMEM(smem);
    uint64_t *y = reinterpret_cast<uint64_t *>(smem) + threadIdx.x;
    const size_t k = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (k >= n) return;
    x += blockIdx.z * xpoly + k;
    out += blockIdx.z * opoly + k;
    const size_t s = tab.s, ys = blockDim.x;
    for (size_t i = 0; i < s; i++)
        y[i * ys] = rns_mulc(x[i * n], __ldg(tab.inv + i), __ldg(tab.invq + i), pm[L.src[i]].p);
    const unsigned j1 = min(t, (blockIdx.y + 1) * kTargets);
    unsigned j = blockIdx.y * kTargets;
    for (; j + 1 < j1; j += 2) {
        const rns_prime m0 = pm[L.dst[j]], m1 = pm[L.dst[j + 1]];
        uint64_t r0, r1;
        dot_row2(y, ys, tab.w + L.wrow[j] * s, tab.w + L.wrow[j + 1] * s, s, m0, m1, r0, r1);
        out[L.row[j] * n] = r0;
        out[L.row[j + 1] * n] = r1;
    }
    if (j < j1) out[L.row[j] * n] = dot_row(y, ys, tab.w + L.wrow[j] * s, s, pm[L.dst[j]]);
}

// Unfused, first pass: y row i = [x_i inv_i]_{b_i}.
__global__ void k_conv_scale(const rns_prime *pm, size_t n, const uint64_t *x, size_t xpoly,
                             ConvTab tab, ConvLists L, uint64_t *y, size_t ypoly)
{
    const size_t k = (size_t)blockIdx.x * blockDim.x + threadIdx.x, i = blockIdx.y;
    if (k >= n) return;
    x += blockIdx.z * xpoly;
    y += blockIdx.z * ypoly;
    y[i * n + k] = rns_mulc(x[i * n + k], tab.inv[i], tab.invq[i], pm[L.src[i]].p);
}

// Unfused, second pass: one thread per coefficient and target, reading
// every source's y.
__global__ void k_conv_sum(const rns_prime *pm, size_t n, const uint64_t *y, size_t ypoly,
                           ConvTab tab, ConvLists L, uint64_t *out, size_t opoly)
{
    const size_t k = (size_t)blockIdx.x * blockDim.x + threadIdx.x, j = blockIdx.y;
    if (k >= n) return;
    y += blockIdx.z * ypoly + k;
    out += blockIdx.z * opoly + k;
    const rns_prime m = pm[L.dst[j]];
    out[L.row[j] * n] = dot_row(y, n, tab.w + L.wrow[j] * tab.s, tab.s, m);
}

__device__ __forceinline__ uint64_t mulmod(uint64_t a, uint64_t b, const rns_prime &m)
{
    return rns_reduce128((ntt_u128)a * b, &m);
}

// The generic conversion's constants: item i < s gives inv_i = (B/b_i)^-1
// mod b_i (by Fermat: b_i is prime) and its Shoup companion; item s + j s
// + i gives w[j s + i] = (B/b_i) mod c_j.  O(s) products per item.
__global__ void k_gen_consts(const rns_prime *pm, ConvLists L, unsigned s, unsigned t,
                             uint64_t *inv, uint64_t *invq, uint64_t *w)
{
    const size_t id = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (id >= (size_t)s * (t + 1)) return;
    const bool is_inv = id < s;
    const unsigned i = (unsigned)(is_inv ? id : (id - s) % s);
    const rns_prime m = pm[is_inv ? L.src[i] : L.dst[(id - s) / s]];
    uint64_t h = 1 % m.p;
    for (unsigned k = 0; k < s; k++)
        if (k != i) h = mulmod(h, rns_reduce64(pm[L.src[k]].p, &m), m);
    if (!is_inv) {
        w[id - s] = h;
        return;
    }
    uint64_t r = 1, b = h;
    for (uint64_t e = m.p - 2; e; e >>= 1) {
        if (e & 1) r = mulmod(r, b, m);
        b = mulmod(b, b, m);
    }
    inv[i] = r;
    invq[i] = ntt_shoup_pre64(r, m.p);
}

// Local row r of an inner product's window (InnerArgs): its limb, its row
// in each key polynomial and its rows of the two sums.
struct InnerRow {
    size_t limb, kr;
    uint64_t *o0, *o1;
};

__device__ __forceinline__ InnerRow inner_row(const InnerArgs &a, size_t r, size_t n)
{
    if (r < a.qn) return {a.q0 + r, r, a.a0 + r * n, a.a1 + r * n};
    const size_t m = r - a.qn;
    return {a.nq + a.pfirst + m, a.kq + m, a.p0 + m * n, a.p1 + m * n};
}

// Digit j's row of local row r: the input's own row (the digit's Q rows),
// else the conversion's.
__device__ __forceinline__ const uint64_t *inner_term(const InnerArgs &a, const InnerRow &w,
                                                      size_t r, size_t j, size_t n)
{
    const bool own = a.own && r < a.qn && w.limb / a.alpha == j;
    return own ? a.own + r * n : a.ext + (j * a.rows + r) * n;
}

// Fused inner product: one thread per coefficient and row, every digit's
// term summed at once (each term read once, the sums written once).
__global__ void k_inner(const rns_prime *pm, size_t n, InnerArgs a)
{
    const size_t k = (size_t)blockIdx.x * blockDim.x + threadIdx.x, r = a.r0 + blockIdx.y;
    if (k >= n) return;
    const InnerRow w = inner_row(a, r, n);
    const rns_prime m = pm[w.limb];
    const size_t src = a.g ? ntt_galois_src(k, a.logn, a.g) : k;
    ntt_u128 s0 = 0, s1 = 0;
    for (size_t j = 0; j < a.beta; j++) {
        if (j && j % RNS_CHUNK == 0) {
            s0 = rns_reduce128(s0, &m);
            s1 = rns_reduce128(s1, &m);
        }
        const uint64_t v = inner_term(a, w, r, j, n)[src];
        s0 += rns_term(v, a.key[((2 * j) * a.krows + w.kr) * n + k]);
        s1 += rns_term(v, a.key[((2 * j + 1) * a.krows + w.kr) * n + k]);
    }
    uint64_t o0 = rns_reduce128(s0, &m), o1 = rns_reduce128(s1, &m);
    if (a.accumulate) {
        o0 = ntt_addmod(o0, w.o0[k], m.p);
        o1 = ntt_addmod(o1, w.o1[k], m.p);
    }
    w.o0[k] = o0;
    w.o1[k] = o1;
}

// Unfused inner product: digit j's terms added to the sums (j == 0: set).
__global__ void k_inner_mac(const rns_prime *pm, size_t n, InnerArgs a, size_t j)
{
    const size_t k = (size_t)blockIdx.x * blockDim.x + threadIdx.x, r = a.r0 + blockIdx.y;
    if (k >= n) return;
    const InnerRow w = inner_row(a, r, n);
    const rns_prime m = pm[w.limb];
    const uint64_t v = inner_term(a, w, r, j, n)[k];
    const uint64_t c0 = j ? w.o0[k] : 0, c1 = j ? w.o1[k] : 0;
    w.o0[k] = rns_reduce128(rns_term(v, a.key[((2 * j) * a.krows + w.kr) * n + k]) + c0, &m);
    w.o1[k] = rns_reduce128(rns_term(v, a.key[((2 * j + 1) * a.krows + w.kr) * n + k]) + c1, &m);
}

__global__ void k_subc(const rns_prime *pm, size_t n, const uint64_t *x, size_t xpoly,
                       const uint64_t *t, size_t tpoly, uint64_t *out, size_t opoly,
                       const uint64_t *w, const uint64_t *wq)
{
    const size_t k = (size_t)blockIdx.x * blockDim.x + threadIdx.x, i = blockIdx.y;
    if (k >= n) return;
    const size_t o = i * n + k;
    out[blockIdx.z * opoly + o] =
        rns_subc(x[blockIdx.z * xpoly + o], t[blockIdx.z * tpoly + o], w[i], wq[i], pm[i].p);
}

// Unfused (x - t) w: t <- x + p - t, then out <- [t w]_p.
__global__ void k_sub(const rns_prime *pm, size_t n, const uint64_t *x, size_t xpoly, uint64_t *t,
                      size_t tpoly)
{
    const size_t k = (size_t)blockIdx.x * blockDim.x + threadIdx.x, i = blockIdx.y;
    if (k >= n) return;
    const size_t o = i * n + k;
    t[blockIdx.z * tpoly + o] = x[blockIdx.z * xpoly + o] + pm[i].p - t[blockIdx.z * tpoly + o];
}

__global__ void k_mulw(const rns_prime *pm, size_t n, const uint64_t *t, size_t tpoly,
                       uint64_t *out, size_t opoly, const uint64_t *w, const uint64_t *wq)
{
    const size_t k = (size_t)blockIdx.x * blockDim.x + threadIdx.x, i = blockIdx.y;
    if (k >= n) return;
    const size_t o = i * n + k;
    out[blockIdx.z * opoly + o] = rns_mulc(t[blockIdx.z * tpoly + o], w[i], wq[i], pm[i].p);
}

__global__ void k_bcast_reduce(const rns_prime *pm, size_t n, const uint64_t *x, uint64_t *t)
{
    const size_t k = (size_t)blockIdx.x * blockDim.x + threadIdx.x, i = blockIdx.y;
    if (k >= n) return;
    t[i * n + k] = rns_reduce64(x[k], &pm[i]);
}

dim3 grid(size_t n, int block, size_t rows, unsigned z)
{
    return dim3((unsigned)((n + block - 1) / block), (unsigned)rows, z);
}

}  // namespace

cudaError_t conv(const rns_cuda *d, size_t n, const uint64_t *x, size_t xpoly, const ConvTab &tab,
                 const ConvLists &L, size_t t, uint64_t *out, size_t opoly, unsigned npoly,
                 bool fused, cudaStream_t st)
{
    if (fused) {
        // The scaled sources take s words of shared memory a thread; under
        // 48 KiB (no opt-in needed) for any s < 256.
        const int b = tab.s <= 48 ? 128 : tab.s <= 96 ? 64 : tab.s <= 192 ? 32 : 16;
        const size_t smem = tab.s * (size_t)b * 8;
        const unsigned gy = (unsigned)((t + kTargets - 1) / kTargets);
        NTT_LAUNCH_THREADS(k_conv, dim3((unsigned)((n + b - 1) / b), gy, npoly), b, smem, st,
                           d->pm, n, x, xpoly, tab, L, (unsigned)t, out, opoly);
    } else {
        // Y holds nlimb rows: one polynomial's sources at a time.
        for (unsigned z = 0; z < npoly; z++) {
            NTT_LAUNCH_THREADS(k_conv_scale, grid(n, kBlock, tab.s, 1), kBlock, 0, st, d->pm, n,
                               x + z * xpoly, (size_t)0, tab, L, d->Y, (size_t)0);
            NTT_LAUNCH_THREADS(k_conv_sum, grid(n, kBlock, t, 1), kBlock, 0, st, d->pm, n,
                               (const uint64_t *)d->Y, (size_t)0, tab, L, out + z * opoly,
                               (size_t)0);
        }
    }
    return cudaGetLastError();
}

cudaError_t gen_consts(const rns_cuda *d, size_t nlimb, const ConvLists &L, size_t s, size_t t,
                       cudaStream_t st)
{
    const size_t items = s * (t + 1);
    NTT_LAUNCH_THREADS(k_gen_consts, grid(items, 128, 1, 1), 128, 0, st, d->pm, L, (unsigned)s,
                       (unsigned)t, d->gen, d->gen + nlimb, d->gen + 2 * nlimb);
    return cudaGetLastError();
}

cudaError_t inner(const rns_cuda *d, size_t n, const InnerArgs &a, bool fused, cudaStream_t st)
{
    if (fused || a.g || a.accumulate) {
        NTT_LAUNCH_THREADS(k_inner, grid(n, kBlock, a.count, 1), kBlock, 0, st, d->pm, n, a);
    } else {
        for (size_t j = 0; j < a.beta; j++)
            NTT_LAUNCH_THREADS(k_inner_mac, grid(n, kBlock, a.count, 1), kBlock, 0, st, d->pm, n, a, j);
    }
    return cudaGetLastError();
}

cudaError_t subc(const rns_cuda *d, size_t n, const uint64_t *x, size_t xpoly, uint64_t *t,
                 size_t tpoly, uint64_t *out, size_t opoly, const uint64_t *w, const uint64_t *wq,
                 size_t limb0, size_t rows, unsigned npoly, bool fused, cudaStream_t st)
{
    const dim3 g = grid(n, kBlock, rows, npoly);
    const rns_prime *pm = d->pm + limb0;
    if (fused) {
        NTT_LAUNCH_THREADS(k_subc, g, kBlock, 0, st, pm, n, x, xpoly, (const uint64_t *)t, tpoly,
                           out, opoly, w, wq);
    } else {
        NTT_LAUNCH_THREADS(k_sub, g, kBlock, 0, st, pm, n, x, xpoly, t, tpoly);
        NTT_LAUNCH_THREADS(k_mulw, g, kBlock, 0, st, pm, n, (const uint64_t *)t, tpoly, out,
                           opoly, w, wq);
    }
    return cudaGetLastError();
}

cudaError_t bcast_reduce(const rns_cuda *d, size_t n, const uint64_t *x, uint64_t *t, size_t rows,
                         cudaStream_t st)
{
    NTT_LAUNCH_THREADS(k_bcast_reduce, grid(n, kBlock, rows, 1), kBlock, 0, st, d->pm, n, x, t);
    return cudaGetLastError();
}

}  // namespace nttr
