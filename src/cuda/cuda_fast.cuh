// The fast path: a transform is a few passes, each a kernel over column
// tiles in shared memory.
//
// Pass geometry.  Element index x of a size-2^D transform is split as
// x = hi . mid . lo (bit fields, widths d0, P, lo).  A pass runs the tree
// levels d0 .. d0+P-1: for fixed (hi, lo) the 2^P elements mid = 0..2^P-1
// form one "column", a P-level subtree rooted at tree node 2^d0 + hi.  A
// block takes C columns: C consecutive lo (coalesced loads when lo > 0) or,
// in the last pass (lo = 0), C consecutive contiguous subtrees.  Inside the
// block each thread takes radix-8 groups (three levels in registers) per
// round, with one shared-memory exchange between rounds; the twiddles of
// the block's subtree(s) are staged in shared memory first, read from the
// tree-order tables or made on the fly (Montgomery kind).
#pragma once

#include "cuda_common.cuh"

namespace nttc {

enum {
    F_REDUCE = 1,     // store fully reduced values
    F_SCALE_INV = 2,  // the root level applies 1/n (ntt_inverse)
    F_SCALE_MUL = 4   // the root level applies 1/n and undoes F (polymul)
};

struct Geom {
    int d0, P, lo, logC;
};

template <class T> struct PassArgs {
    const T *in[2];     // operand blockIdx.z
    T *out[2];
    size_t in_stride, out_stride;  // between batch items, elements
    size_t in_len[2];   // input elements at or past this index read as 0
    size_t out_len;     // only elements below this index are stored
    const Mod<T> *mods;
    int nmod, item0;
    Geom g;
    int flags;
};

template <class T> struct TileShape {
    int P, L, C, logC, lo, d0, nhi;
    __device__ TileShape(const Geom &g)
    {
        P = g.P;
        L = 1 << P;
        logC = g.logC;
        C = 1 << logC;
        lo = g.lo;
        d0 = g.d0;
        nhi = lo > 0 ? 1 : C;  // columns of one block share hi unless lo = 0
    }
    __device__ size_t column_hi(size_t gc) const { return gc >> lo; }
    __device__ size_t elem(size_t gc, int mid) const
    {
        return ((gc >> lo) << (P + lo)) + ((size_t)mid << lo) + (gc & (((size_t)1 << lo) - 1));
    }
};

// Padded rows: threads that walk c hit distinct banks.
template <class T> __device__ __forceinline__ T &tile_at(T *tile, int L, int c, int mid)
{
    return tile[c * (L + 1) + mid];
}

// Coalesced tile load: consecutive threads take consecutive addresses.
template <class T>
__device__ void load_tile(T *tile, const TileShape<T> &S, const T *src, size_t len, size_t gc0)
{
    const int total = S.C * S.L;
    for (int idx = threadIdx.x; idx < total; idx += blockDim.x) {
        int c, mid;
        if (S.lo > 0) {
            c = idx & (S.C - 1);
            mid = idx >> S.logC;
        } else {
            mid = idx & (S.L - 1);
            c = idx >> S.P;
        }
        size_t x = S.elem(gc0 + c, mid);
        tile_at(tile, S.L, c, mid) = x < len ? src[x] : T(0);
    }
}

template <class T>
__device__ void store_tile(const T *tile, const TileShape<T> &S, T *dst, size_t len, size_t gc0,
                           int flags, bool inv, const Ar<T> &M)
{
    const int total = S.C * S.L;
    for (int idx = threadIdx.x; idx < total; idx += blockDim.x) {
        int c, mid;
        if (S.lo > 0) {
            c = idx & (S.C - 1);
            mid = idx >> S.logC;
        } else {
            mid = idx & (S.L - 1);
            c = idx >> S.P;
        }
        size_t x = S.elem(gc0 + c, mid);
        if (x >= len) continue;
        T v = tile_at(tile, S.L, c, mid);
        if (flags & F_REDUCE) v = inv ? csub(v, M.p) : csub(csub(v, M.p2), M.p);
        dst[x] = v;
    }
}

// Twiddles of the block's subtree(s): local heap index j in [1, L) of
// column slot h is global node (root << s) + j - 2^s, s = floor(log2 j).
template <int K, class T>
__device__ void load_twiddles(Tw<T> *tw, const TileShape<T> &S, size_t gc0, bool inv,
                              const Mod<T> &M)
{
    const int per = S.L - 1, total = S.nhi * per;
    for (int idx = threadIdx.x; idx < total; idx += blockDim.x) {
        int h = idx / per, j = 1 + idx % per;
        int s = 31 - __clz(j);
        size_t hi = S.column_hi(gc0 + (S.nhi == 1 ? 0 : h));
        uint32_t k = (uint32_t)((hi << s) + (size_t)(j - (1 << s)));
        tw[h * S.L + j] = node_tw<K, T>((unsigned)(S.d0 + s), k, inv, M);
    }
}

// One round: R = 2^r elements per group, levels s0 .. s0+r-1 of the pass.
template <int K, class T, bool INV, int r>
__device__ __forceinline__ void round_r(T *tile, const Tw<T> *tw, const TileShape<T> &S, int s0,
                                        const Ar<T> &M, bool scale_root, Tw<T> sc, Tw<T> sc1)
{
    constexpr int R = 1 << r;
    const int glo_bits = S.P - s0 - r;
    const int glo_n = 1 << glo_bits, ghi_n = 1 << s0;
    const int groups = S.C << (S.P - r);
    for (int g = threadIdx.x; g < groups; g += blockDim.x) {
        int c, gl, gh;
        if (S.lo > 0) {
            c = g & (S.C - 1);
            int rest = g >> S.logC;
            gl = rest & (glo_n - 1);
            gh = rest >> glo_bits;
        } else {
            gl = g & (glo_n - 1);
            int rest = g >> glo_bits;
            gh = rest & (ghi_n - 1);
            c = rest >> s0;
        }
        const int base = (gh << (S.P - s0)) | gl;
        const Tw<T> *twc = tw + (S.nhi == 1 ? 0 : c) * S.L;
        T x[R];
#pragma unroll
        for (int e = 0; e < R; e++) x[e] = tile_at(tile, S.L, c, base + (e << glo_bits));
        if (!INV) {
#pragma unroll
            for (int l = 0; l < r; l++) {
                const int dist = R >> (l + 1);
#pragma unroll
                for (int e = 0; e < R; e++) {
                    if (e & dist) continue;
                    const Tw<T> W = twc[(1 << (s0 + l)) + (gh << l) + (e >> (r - l))];
                    T u = csub(x[e], M.p2);
                    T t = mulw<K, T>(x[e + dist], W, M);
                    x[e] = u + t;
                    x[e + dist] = u - t + M.p2;
                }
            }
        } else {
#pragma unroll
            for (int l = r - 1; l >= 0; l--) {
                const int dist = R >> (l + 1);
#pragma unroll
                for (int e = 0; e < R; e++) {
                    if (e & dist) continue;
                    T a = x[e], b = x[e + dist];
                    if (scale_root && s0 + l == 0) {
                        x[e] = mulw<K, T>(a + b, sc, M);
                        x[e + dist] = mulw<K, T>(a - b + M.p2, sc1, M);
                    } else {
                        const Tw<T> W = twc[(1 << (s0 + l)) + (gh << l) + (e >> (r - l))];
                        x[e] = csub(a + b, M.p2);
                        x[e + dist] = mulw<K, T>(a - b + M.p2, W, M);
                    }
                }
            }
        }
#pragma unroll
        for (int e = 0; e < R; e++) tile_at(tile, S.L, c, base + (e << glo_bits)) = x[e];
    }
}

// All rounds of a pass on a tile in shared memory: the short round (P mod 3
// levels) at the top, then rounds of three.  The inverse runs them in
// reverse.  Ends with a barrier.
template <int K, class T, bool INV>
__device__ void run_rounds(T *tile, const Tw<T> *tw, const TileShape<T> &S, const Ar<T> &M,
                           bool scale_root, Tw<T> sc, Tw<T> sc1)
{
    const int r0 = S.P % 3 ? S.P % 3 : (S.P >= 3 ? 3 : S.P);
    const int nr = r0 == S.P ? 1 : 1 + (S.P - r0) / 3;
    for (int q = 0; q < nr; q++) {
        const int idx = INV ? nr - 1 - q : q;
        const int s0 = idx == 0 ? 0 : r0 + 3 * (idx - 1);
        const int r = idx == 0 ? r0 : 3;
        if (r == 3)
            round_r<K, T, INV, 3>(tile, tw, S, s0, M, scale_root, sc, sc1);
        else if (r == 2)
            round_r<K, T, INV, 2>(tile, tw, S, s0, M, scale_root, sc, sc1);
        else
            round_r<K, T, INV, 1>(tile, tw, S, s0, M, scale_root, sc, sc1);
        __syncthreads();
    }
}

template <class T> __host__ __device__ inline size_t tile_bytes(const Geom &g)
{
    return (size_t)(1 << g.logC) * ((1 << g.P) + 1) * sizeof(T);
}
template <class T> __host__ __device__ inline size_t tw_bytes(const Geom &g)
{
    const int nhi = g.lo > 0 ? 1 : 1 << g.logC;
    return (size_t)nhi * (1 << g.P) * sizeof(Tw<T>);
}

template <class T> __device__ __forceinline__ T *align_up(unsigned char *p, size_t off)
{
    return reinterpret_cast<T *>(p + ((off + 15) & ~(size_t)15));
}

// One pass of a transform, forward (CT) or inverse (GS).  grid: x column
// groups, y batch items, z operands.
template <class T, int K, bool INV> __global__ void __launch_bounds__(256) k_pass(PassArgs<T> a)
{
    NTT_DYN_SMEM(smem);
    const TileShape<T> S(a.g);
    const int z = blockIdx.z;
    const size_t item = blockIdx.y;
    const Mod<T> &Mg = a.mods[(a.item0 + item) % a.nmod];
    const Ar<T> M = Mg.a;
    T *tile = reinterpret_cast<T *>(smem);
    Tw<T> *tw = align_up<Tw<T>>(smem, tile_bytes<T>(a.g));
    const size_t gc0 = (size_t)blockIdx.x << S.logC;
    // Selected, not indexed: a run-time index would put the arguments in local memory.
    const T *in = z ? a.in[1] : a.in[0];
    T *out = z ? a.out[1] : a.out[0];
    load_tile(tile, S, in + item * a.in_stride, z ? a.in_len[1] : a.in_len[0], gc0);
    load_twiddles<K, T>(tw, S, gc0, INV, Mg);
    __syncthreads();
    const bool scale = INV && S.d0 == 0 && (a.flags & (F_SCALE_INV | F_SCALE_MUL));
    const Tw<T> sc = (a.flags & F_SCALE_MUL) ? Mg.s_mul : Mg.s_inv;
    const Tw<T> sc1 = (a.flags & F_SCALE_MUL) ? Mg.s1_mul : Mg.s1_inv;
    run_rounds<K, T, INV>(tile, tw, S, M, scale, sc, sc1);
    store_tile(tile, S, out + item * a.out_stride, a.out_len, gc0, a.flags, INV, M);
}

// The bottom pass of a product: forward last levels of both operands,
// pointwise product, inverse first levels, all on tiles in shared memory.
// When the whole transform is one pass (d0 = 0) it also scales and reduces.
template <class T, int K>
__global__ void __launch_bounds__(256) k_polymul_bottom(PassArgs<T> a)
{
    NTT_DYN_SMEM(smem);
    const TileShape<T> S(a.g);
    const size_t item = blockIdx.y;
    const Mod<T> &Mg = a.mods[(a.item0 + item) % a.nmod];
    const Ar<T> M = Mg.a;
    const size_t tb = tile_bytes<T>(a.g), wb = tw_bytes<T>(a.g);
    T *ta = reinterpret_cast<T *>(smem);
    T *tb_ = align_up<T>(smem, tb);
    Tw<T> *twf = align_up<Tw<T>>(smem, ((tb + 15) & ~(size_t)15) * 2);
    Tw<T> *twi = reinterpret_cast<Tw<T> *>(reinterpret_cast<unsigned char *>(twf) + wb);
    const size_t gc0 = (size_t)blockIdx.x << S.logC;
    load_tile(ta, S, a.in[0] + item * a.in_stride, a.in_len[0], gc0);
    load_tile(tb_, S, a.in[1] + item * a.in_stride, a.in_len[1], gc0);
    load_twiddles<K, T>(twf, S, gc0, false, Mg);
    load_twiddles<K, T>(twi, S, gc0, true, Mg);
    __syncthreads();
    const Tw<T> none = {0, 0};
    run_rounds<K, T, false>(ta, twf, S, M, false, none, none);
    run_rounds<K, T, false>(tb_, twf, S, M, false, none, none);
    for (int i = threadIdx.x; i < S.C * S.L; i += blockDim.x) {
        T &x = tile_at(ta, S.L, i >> S.P, i & (S.L - 1));
        x = mul2<K, T>(x, tile_at(tb_, S.L, i >> S.P, i & (S.L - 1)), M);
    }
    __syncthreads();
    const bool root = S.d0 == 0;
    run_rounds<K, T, true>(ta, twi, S, M, root, Mg.s_mul, Mg.s1_mul);
    store_tile(ta, S, a.out[0] + item * a.out_stride, a.out_len, gc0, root ? F_REDUCE : 0, true,
               M);
}

// Public pointwise product: a, b in [0, p) -> a b mod p.
template <class T, int K>
__global__ void k_pointwise(T *c, const T *a, const T *b, size_t n, size_t stride,
                            const Mod<T> *mods, int nmod, int item0)
{
    const size_t item = blockIdx.y;
    const Mod<T> &Mg = mods[(item0 + item) % nmod];
    const Ar<T> M = Mg.a;
    const size_t off = item * stride;
    for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n;
         i += (size_t)gridDim.x * blockDim.x) {
        T v = mul2<K, T>(a[off + i], b[off + i], M);
        if (K == K_MONT || K == K_SHOUP) v = mulw<K, T>(v, Mg.fix, M);
        c[off + i] = csub(v, M.p);
    }
}

// In-place bit-reversal permutation of each item (natural-order spectra).
template <class T> __global__ void k_bitrev(T *a, int D, size_t stride)
{
    T *v = a + (size_t)blockIdx.y * stride;
    const size_t n = (size_t)1 << D;
    for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n;
         i += (size_t)gridDim.x * blockDim.x) {
        size_t j = (size_t)(__brevll((unsigned long long)i) >> (64 - D));
        if (i < j) {
            T t = v[i];
            v[i] = v[j];
            v[j] = t;
        }
    }
}

}  // namespace nttc
