// The fast path's kernels: a transform is a few passes, each a kernel over
// column tiles in shared memory (the geometry: cuda_geometry.h).  Inside
// the block each thread takes radix-8 or radix-16 groups (three or four
// levels in registers) per round, with one shared-memory exchange between
// rounds; each group reads its twiddles from the tree-order tables (a
// bottom pass's later rounds from its copy in shared memory, has_stw) or,
// for the Montgomery kind, makes them on the fly from two small tables.
#pragma once

#include "cuda_bulk_copy.cuh"
#include "cuda_device_arith.cuh"
#include "cuda_elementwise_kernels.cuh"
#include "cuda_launch_macros.cuh"
#include "cuda_twiddles.cuh"
#include "cuda_geometry.h"

namespace nttc {

enum {
    F_REDUCE = 1,     // store fully reduced values
    F_SCALE_INV = 2,  // the root level applies 1/n (ntt_inverse)
    F_SCALE_MUL = 4   // the root level applies 1/n and undoes F (polymul)
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

// u64 tiles of one column (a bottom pass, lo = 0).  A round's half-warp
// lanes take element bits {0,1,2,3}, {0,1,4,5}, {2,3,4,5}, {0,1,5,6},
// {0,1,2,6} or {3,4,5,6} (the groups in their natural order, gl then gh),
// and no padding m + sum of per-bit steps serves both {0,1,4,5} and
// {2,3,4,5}: bits 4 and 5 would need steps of valuations {2,3} for the
// one and {0,1} for the other.  So these tiles XOR bits 4, 5, 6 of an
// element's index into its slot bits (masks 5, 10, 12, found by search),
// which gives each of those sets' 16 lanes distinct slots; the groups keep
// their natural order, in which their 16-byte twiddle loads do not
// conflict (round_r).
__host__ __device__ constexpr int tile_swz(int m)
{
    return m ^ (int)((0x369CFA50u >> ((m >> 2) & 28)) & 15);
}

// Which kernels swizzle: the FP64 kind's without compact twiddles, which
// wait on shared memory.  The integer kernels wait on their multiply pipe,
// and the XOR's address arithmetic (an address per element, not per group)
// cost them more than the conflicts; the compact-twiddle FP64 passes lost
// too (docs/ARCHITECTURE.md, Tile layout).
__host__ __device__ constexpr bool tile_swizzles(int K, bool CT) { return K == K_FP64 && !CT; }

// The low F bits of x rotated left by s.
__host__ __device__ constexpr int rotl_field(int x, int F, int s)
{
    const int m = (1 << F) - 1, v = x & m;
    return (x & ~m) | (((v << s) | (v >> (F - s))) & m);
}

// Whether a bottom round's groups in their natural order (gl, then gh) give
// its lanes distinct banks: lane bit i < GLO is element bit i, the next
// ones element bits GLO + r + ...
template <int B> __host__ __device__ constexpr bool bottom_lanes_ok(int P, int r, int GLO)
{
    unsigned seen = 0;
    for (int i = 0; i < B; i++) {
        const int k = i < GLO ? i : r + i;
        if (k >= P) return true;  // fewer groups than lanes
        const int v = tile_valuation((unsigned)tile_pad(1 << k), B);
        if (v >= B || ((seen >> v) & 1)) return false;
        seen |= 1u << v;
    }
    return true;
}

template <class T, int P> struct TileShape {
    static constexpr int L = 1 << P;
    int C, logC, lo, d0, nhi;
    int RS;    // elements between columns (tile_rs)
    int need;  // lane bits a round must find among its groups' bits (lo > 0; see round_r)
    bool sw;   // swizzled (tile_swz), not padded: a u64 bottom pass's column, where the kernel asks
    __device__ TileShape(const Geom &g, bool swz)
        : C(1 << g.logC), logC(g.logC), lo(g.lo), d0(g.d0),
          nhi(g.lo > 0 ? 1 : 1 << g.logC),  // columns of one block share hi unless lo = 0
          RS(tile_rs(P, g.logC, kBankBits<T>())),
          need(g.lo > 0 ? tile_need(P, g.logC, kBankBits<T>()) : 0),
          sw(swz && sizeof(T) == 8 && g.lo == 0)
    {
    }
    __host__ __device__ static constexpr int pad(int m) { return tile_pad(m); }
    __device__ int at(int c, int mid) const { return c * RS + (sw ? tile_swz(mid) : pad(mid)); }
};

// A bottom pass (plan_passes) has lo = 0 and one column per block.  Its
// kernels that can only run as one (compact twiddles, the fused product)
// build their TileShape from this, so that the compiler folds the column
// arithmetic of every group (c = 0, no run-time shifts by lo or logC).
__device__ __forceinline__ Geom bottom_geom(Geom g)
{
    g.lo = 0;
    g.logC = 0;
    return g;
}

template <class T> __device__ __forceinline__ T *align_up(unsigned char *p, size_t off)
{
    return reinterpret_cast<T *>(p + ((off + 15) & ~(size_t)15));
}

// Where a round reads and writes: global memory for the first and last
// round of a pass, the shared tile in between.
template <class T> struct PassIO {
    const T *gin;
    T *gout;
    size_t in_len, out_len;
    T *tile;
    int flags;
    // The fused product's inverse, its first round (PW, round_r): mul is the
    // other operand's tile (the same shape), fstw and fbar the forward's
    // staged twiddles and their mbarrier.
    const T *mul = nullptr;
    const Tw<T> *fstw = nullptr;
    uint64_t *fbar = nullptr;
};

// The twiddles of one level of a group: tree nodes 2^d + k0 + t, t < 2^l,
// consecutive in tree order.  Table kinds read them (one load per twiddle
// and companion, through the read-only cache); the Montgomery kind makes
// them from the two small tables.  Sizes are at most 2^30, so node and
// element indices fit in 32 bits: the index arithmetic below is 32-bit.
template <int K, class T, bool INV, int NMAX>
__device__ __forceinline__ void level_tw(Tw<T> (&w)[NMAX], int nt, unsigned d, uint32_t k0,
                                         const Mod<T> &Mg, const Tw<T> *tab)
{
    const Tw<T> *p = tab + (1u << d) + k0;
#pragma unroll
    for (int t = 0; t < NMAX; t++) {
        if (t >= nt) break;
        w[t] = K == K_MONT ? node_tw<K, T>(d, k0 + t, INV, Mg) : p[t];
    }
}

// Two twiddles, one 16-byte access.
template <class T> struct alignas(16) TwPair {
    Tw<T> e[2];
};

// The twiddles of level q of a group's round (group_butterflies): 2^l of
// them, or with compact twiddles one entry for l > 0.  SH: from the
// column's copy in shared memory (stw, has_stw), where pass level L's
// node k lies at 2^L + k: a group's 2^l are consecutive and 2^l-aligned,
// so that 16-byte loads bring two (u32) at a time.
template <int K, class T, bool INV, int r, bool CT, bool SH>
__device__ __forceinline__ void group_level_tw(Tw<T> (&w)[1 << (r - 1)], int q, unsigned d,
                                               uint32_t hi, int s0, int gh, const Mod<T> &Mg,
                                               const Tw<T> *tab, const Tw<T> *stw)
{
    static_assert(r >= 1 && r <= 4, "radix 2 to 16: Mod::ftl, itl and rho hold levels 1 .. 3");
    const int l = INV ? r - 1 - q : q;
    const uint32_t k0 = (hi << (s0 + l)) + ((uint32_t)gh << l);
    if constexpr (SH) {
        const Tw<T> *p = stw + (1u << (s0 + l)) + ((uint32_t)gh << l);
        if (sizeof(Tw<T>) == 8 && l > 0) {
#pragma unroll
            for (int t = 0; t < (1 << (r - 1)); t += 2) {
                if (t >= (1 << l)) break;
                const TwPair<T> v = reinterpret_cast<const TwPair<T> *>(p)[t >> 1];
                w[t] = v.e[0];
                w[t + 1] = v.e[1];
            }
        } else {
#pragma unroll
            for (int t = 0; t < (1 << (r - 1)); t++) {
                if (t >= (1 << l)) break;
                w[t] = p[t];
            }
        }
    } else if (CT && l > 0)
        // l < r <= 4, the tables' count: q is a run-time int here, so the
        // mask states the bound for a host compiler that does not unroll
        // (gcc-13's -Warray-bounds in the CPU stand-in); the device's
        // unrolled code has l constant and folds it.
        w[0] = (INV ? Mg.itl[l & 3] : Mg.ftl[l & 3])[(1u << d) + (k0 >> l)];
    else
        level_tw<K, T, INV, 1 << (r - 1)>(w, 1 << l, d + l, k0, Mg, tab);
}

// Lazy ranges.  Every value a pass keeps lies below CAP p: CAP = 4 for any
// prime (the CPU code's ranges), CAP = 8 in the u32 Shoup kernels of plans
// whose primes lie below 2^29 (8p <= 2^32; plan_cap).  Shoup's product
// takes any word and gives less than 2p, so only sums need reducing.
// Forward, a butterfly's outputs lie 2p above its u: with CAP = 8 the
// even levels of a pass (inputs below 8p) reduce u below 4p, outputs below
// 6p, and the odd ones take u as it is, outputs below 8p; CAP = 4 reduces
// u below 2p at every level.  Inverse, every round's inputs lie below
// CAP/2 p, and a sum is brought back below CAP/2 p where it may exceed it:
// CAP = 4, every sum; CAP = 8, the first level's and then the sums of two
// earlier sums, since the pair of a level q > 0 whose elements were
// differences at level q-1 (bit q-1 of e set) adds two values below 2p.
// With CAP = 8 that saves half the conditional subtractions of a forward
// pass and three in eight of an inverse radix-16 round, each a single
// instruction (VIADDMNMX).
template <int CAP> __host__ __device__ constexpr bool fwd_reduces(int level)
{
    return CAP == 4 || level % 2 == 0;
}
template <int CAP> __host__ __device__ constexpr bool inv_reduces(int q, int e)
{
    return CAP == 4 || q == 0 || !((e >> (q - 1)) & 1);
}
template <class T, int CAP> __device__ __forceinline__ T half_cap(const Ar<T> &M)
{
    return CAP == 8 ? M.p4 : M.p2;
}
// x below CAP p -> [0, p).
template <class T, int CAP> __device__ __forceinline__ T reduce_cap(T x, const Ar<T> &M)
{
    if (CAP == 8) x = csub(x, M.p4);
    return csub(csub(x, M.p2), M.p);
}

// One butterfly of the FP64 kind (cuda_device_arith.cuh), values doubles' bits.
// Forward (CT): u + v, u - v with v = y w below 0.75p; the round reduces
// (group_butterflies).  Inverse (GS): the sum reduced to p/2 + 1 and the
// difference multiplied, so that every value stays below 0.75p and every
// difference below 1.5p (inputs read as integers: below p, 2p); at the
// root, both multiplied by the scale factors.  With compact twiddles the
// multiplier input is first multiplied by rho (rh, when not null).
template <bool INV, class T>
__device__ __forceinline__ void fp64_butterfly(T &xe, T &xd, Tw<T> W, const Tw<T> *rh,
                                               const Ar<T> &M, bool root, Tw<T> sc, Tw<T> sc1)
{
    const double a = as_dbl(xe), b = as_dbl(xd), p = M.dp;
    auto mul = [&](double y, Tw<T> V) { return fmulw(y, as_dbl(V.w), as_dbl(V.x), p); };
    auto twist = [&](double y) { return rh ? mul(y, *rh) : y; };
    if (!INV) {
        const double v = mul(twist(b), W);
        xe = as_bits(__dadd_rn(a, v));
        xd = as_bits(__dadd_rn(a, -v));
    } else if (root) {
        xe = as_bits(mul(__dadd_rn(a, b), sc));
        xd = as_bits(mul(__dadd_rn(a, -b), sc1));
    } else {
        xe = as_bits(freduce(__dadd_rn(a, b), p, M.dpi));
        xd = as_bits(mul(twist(__dadd_rn(a, -b)), W));
    }
}

// The butterflies of one group in registers: levels l = 0 .. r-1 of the
// round (level l has 2^l distinct twiddles), the round's first level being
// level s0 of the pass.
//
// Compact twiddles (CT): the twiddles of level l > 0 of a group are the
// nodes (d+l, k0 + t), t < 2^l, k0 a multiple of 2^l, and node exponents
// (tables.c) give w(d+l, k0 + t) = w(d+l, k0) rho_l(t), rho_l(t) a root
// of unity of order 2^(l+1) that depends on neither d nor k0.  So a group
// loads one entry per level, w(d+l, k0) = Mg.ftl[l][2^d + k0/2^l] (a table
// 2^l times shorter than the tree's), and multiplies by rho_l(t) first:
// one more product per butterfly with t > 0 buys the deep levels' twiddle
// traffic, which at 2^24 is as large as the data's.
template <int K, class T, bool INV, int r, bool CT, int CAP, bool SH>
__device__ __forceinline__ void group_butterflies(T (&x)[1 << r], unsigned d, uint32_t hi, int s0,
                                                  int gh, const Mod<T> &Mg, const Ar<T> &M,
                                                  const Tw<T> *tab, const Tw<T> *stw,
                                                  bool scale_root, Tw<T> sc, Tw<T> sc1)
{
    constexpr int R = 1 << r;
    const T lim = half_cap<T, CAP>(M);
    // Up to radix 8, and with compact twiddles (one per level), every
    // level's twiddles are loaded before the first butterfly, so that their
    // latencies overlap.  Radix 16 from the tree's tables would hold 15 at
    // once, more registers than its kernels have: the Shoup kind loads
    // each level's while the level before works (PF); in the others, there
    // for the reports' comparisons, it made 12- and 13-level kernels spill
    // more (ptxas), and they load each level's at its turn.
    constexpr bool HOIST = r <= 3 || CT;
    constexpr bool PF = !HOIST && K == K_SHOUP;
    Tw<T> wl[HOIST ? r : PF ? 2 : 1][1 << (r - 1)];
    if constexpr (HOIST) {
#pragma unroll
        for (int q = 0; q < r; q++)
            group_level_tw<K, T, INV, r, CT, SH>(wl[q], q, d, hi, s0, gh, Mg, tab, stw);
    }
    if constexpr (PF) group_level_tw<K, T, INV, r, CT, SH>(wl[0], 0, d, hi, s0, gh, Mg, tab, stw);
#pragma unroll
    for (int q = 0; q < r; q++) {
        const int l = INV ? r - 1 - q : q;
        const int dist = R >> (l + 1);
        const bool ct = CT && l > 0;
        if constexpr (PF)
            if (q + 1 < r)
                group_level_tw<K, T, INV, r, CT, SH>(wl[(q + 1) & 1], q + 1, d, hi, s0, gh, Mg,
                                                     tab, stw);
        Tw<T>(&w)[1 << (r - 1)] = wl[HOIST ? q : PF ? (q & 1) : 0];
        if constexpr (!HOIST && !PF)
            group_level_tw<K, T, INV, r, CT, SH>(w, q, d, hi, s0, gh, Mg, tab, stw);
#pragma unroll
        for (int e = 0; e < R; e++) {
            if (e & dist) continue;
            const int t = e >> (r - l);
            const Tw<T> W = w[ct ? 0 : t];
            if constexpr (K == K_FP64) {
                const Tw<T> *rh = ct && t > 0 ? &Mg.rho[INV][(1 << l) + t] : nullptr;
                fp64_butterfly<INV>(x[e], x[e + dist], W, rh, M, scale_root && s0 + l == 0, sc,
                                    sc1);
                continue;
            }
            if (!INV) {
                T u = fwd_reduces<CAP>(s0 + l) ? csub(x[e], lim) : x[e];
                T y = x[e + dist];
                if (ct && t > 0) y = mulw<K, T>(y, Mg.rho[0][(1 << l) + t], M);
                T v = mulw<K, T>(y, W, M);
                x[e] = u + v;
                x[e + dist] = u - v + M.p2;
            } else if (scale_root && s0 + l == 0) {
                T a = x[e], b = x[e + dist];
                x[e] = mulw<K, T>(a + b, sc, M);
                x[e + dist] = mulw<K, T>(a - b + lim, sc1, M);
            } else {
                T a = x[e], b = x[e + dist];
                x[e] = inv_reduces<CAP>(q, e) ? csub(a + b, lim) : a + b;
                T y = a - b + lim;
                if (ct && t > 0) y = mulw<K, T>(y, Mg.rho[1][(1 << l) + t], M);
                x[e + dist] = mulw<K, T>(y, W, M);
            }
        }
    }
    // The forward's values grow by 0.75p a level; a round starts below
    // p/2 + 1 and ends below 2.75p + 1, with every multiplier input below
    // 2p + 1 < 2^51.
    if constexpr (K == K_FP64 && !INV)
#pragma unroll
        for (int e = 0; e < R; e++) x[e] = as_bits(freduce(as_dbl(x[e]), M.dp, M.dpi));
}

// 16 bytes of consecutive elements, one vector access.
template <class T> struct alignas(16) Vec16 {
    T e[16 / sizeof(T)];
};

// One round: groups of R = 2^r elements, pass levels S0 .. S0+r-1.  A
// group's elements lie 2^GLO apart in its column (GLO = P - S0 - r); the
// bits of mid below and above theirs (gl, gh) name the group.  All loads
// of a group are issued before the first use.
template <int K, class T, bool INV, int P, int S0, int r, bool CT, int CAP, bool SH, int PW>
__device__ __forceinline__ void round_r(const TileShape<T, P> &S, const PassIO<T> &io,
                                        uint32_t gc0, bool from_global, bool to_global,
                                        const Mod<T> &Mg, const Ar<T> &M, const Tw<T> *tab,
                                        const Tw<T> *stw, bool scale_root, Tw<T> sc, Tw<T> sc1,
                                        int tid, int nthr)
{
    constexpr int R = 1 << r, GLO = P - S0 - r;
    constexpr int glo_mask = (1 << GLO) - 1;
    const int groups = S.C << (P - r);
    // Checked once: only a product's first pass reads short operands, and
    // only a product's last pass writes a short result.
    const size_t n = (size_t)1 << (S.d0 + P + S.lo);
    const bool partial_in = from_global && io.in_len < n;
    const bool partial_out = to_global && io.out_len < n;
    const bool reduce = to_global && (io.flags & F_REDUCE);
    // K_FP64: a transform's first pass reads integers (the forward's top,
    // the inverse's bottom), its last writes them (F_REDUCE); the passes
    // between exchange doubles.
    const bool in_int = INV ? S.lo == 0 : S.d0 == 0;
    // The round of a bottom pass's last levels (GLO = 0) holds R consecutive
    // elements per group, R-aligned: 16-byte accesses where the caller's
    // array allows them.  Element by element, each warp-wide store wrote a
    // word into each of 32 sectors, eight times over.
    constexpr int NV = 16 / sizeof(T);
    constexpr bool VEC = GLO == 0 && R % NV == 0;
    const bool vec_in = VEC && S.lo == 0 && reinterpret_cast<uintptr_t>(io.gin) % 16 == 0;
    const bool vec_out = VEC && S.lo == 0 && reinterpret_cast<uintptr_t>(io.gout) % 16 == 0;
    const uint32_t lomask = (1u << S.lo) - 1;
    const int gsh = GLO + S.lo;  // log2 of the element stride in global memory
    const unsigned d = (unsigned)(S.d0 + S0);
    // Group g: its column c in the tile, its bits gh above the round's
    // levels, its first element in the column (base) and in global memory (g0).
    struct Where {
        int c, gh, base;
        uint32_t gc, g0;
    };
    // Bank conflicts (TileShape): when the bits below the round's levels
    // (gl) are fewer than the lane bits that need banks, the next lane bits
    // take gh's bits from 5 - r on, which lie at element bits GLO + 5 ..
    // (banks 2^GLO ..), and gh's lowest 5 - r bits follow them.  Bottom
    // rounds whose natural order is already conflict-free keep it (their
    // last round writes whole runs of global memory per warp).  u32 only:
    // the twiddles of a group follow gh, and a warp's spread over gh cost
    // the u64 kernels, whose twiddles take 16 bytes, more than the
    // conflicts.
    // rot_f: the width of gh's rotated field, 0 for none.  A bottom round's
    // is a constant; an upper pass's follows its column count (S.need, at
    // most 4 where not 0, in columns of 9 levels or more: the element bits
    // GLO + 5 .. need + 4 exist).
    constexpr int B = kBankBits<T>();
    constexpr bool ROT = sizeof(T) == 4 && GLO < B;
    constexpr int rot_bottom = ROT && !bottom_lanes_ok<B>(P, r, GLO) &&
                                       5 - r + B - GLO <= S0 && B + 4 < P
                                   ? 5 - r + B - GLO
                                   : 0;
    int rot_f = 0;
    if constexpr (ROT) {
        const int F = 5 - r + S.need - GLO;
        rot_f = S.lo == 0 ? rot_bottom : GLO < S.need && F <= S0 ? F : 0;
    }
    auto where = [&](int g) {
        Where w;
        int gl;
        if (S.lo > 0) {
            w.c = g & (S.C - 1);
            const int rest = g >> S.logC;
            gl = rest & glo_mask;
            w.gh = rest >> GLO;
        } else {
            gl = g & glo_mask;
            const int rest = g >> GLO;
            w.gh = rest & ((1 << S0) - 1);
            w.c = rest >> S0;
        }
        if constexpr (ROT)
            if (rot_f) w.gh = rotl_field(w.gh, rot_f, 5 - r);
        w.base = (w.gh << (P - S0)) | gl;
        w.gc = gc0 + (uint32_t)w.c;
        w.g0 = ((w.gc >> S.lo) << (P + S.lo)) + ((uint32_t)w.base << S.lo) + (w.gc & lomask);
        return w;
    };
    // u64 rounds that read global memory ask L2 for the thread's next group
    // while they work on this one; the u32 kernels lost with it.
    const bool pf = sizeof(T) == 8 && from_global && !partial_in;
    for (int g = tid; g < groups; g += nthr) {
        const Where w = where(g);
        const int c = w.c, gh = w.gh, base = w.base;
        const uint32_t gc = w.gc, g0 = w.g0;
        const uint32_t hi = (S.nhi == 1 ? gc0 : gc) >> S.lo;
        if (pf && g + nthr < groups) {
            const T *np = io.gin + where(g + nthr).g0;
#pragma unroll
            for (int e = 0; e < R; e++) prefetch_l2(np + ((size_t)e << gsh));
        }
        // The group's first element in the padded tile row; element e lies a
        // constant pad(e << GLO) further, since the bits of e lie apart from
        // those of gl and gh.  In a swizzled tile their swizzles XOR.
        T *trow = io.tile + c * S.RS + (S.sw ? 0 : S.pad(base));
        const int sb = S.sw ? tile_swz(base) : 0;
        T x[R];
        [[maybe_unused]] T xb[PW ? R : 1];
        if (from_global) {
            const T *gp = io.gin + g0;
            if (partial_in) {
#pragma unroll
                for (int e = 0; e < R; e++) {
                    const size_t o = (size_t)e << gsh;
                    x[e] = g0 + o < io.in_len ? gp[o] : T(0);
                }
            } else if (vec_in) {
#pragma unroll
                for (int v = 0; v < R / NV; v++) {
                    const Vec16<T> t = reinterpret_cast<const Vec16<T> *>(gp)[v];
#pragma unroll
                    for (int j = 0; j < NV; j++) x[v * NV + j] = t.e[j];
                }
            } else if (S.lo == 0) {  // constant offsets
#pragma unroll
                for (int e = 0; e < R; e++) x[e] = gp[e << GLO];
            } else {
#pragma unroll
                for (int e = 0; e < R; e++) x[e] = gp[(size_t)e << gsh];
            }
        } else {
            [[maybe_unused]] const T *mrow = PW ? io.mul + (trow - io.tile) : nullptr;
            auto ld = [&](int e, int o) {
                x[e] = trow[o];
                if constexpr (PW != 0) xb[e] = mrow[o];
            };
            if (S.sw) {
#pragma unroll
                for (int e = 0; e < R; e++) ld(e, sb ^ tile_swz(e << GLO));
            } else {
#pragma unroll
                for (int e = 0; e < R; e++) ld(e, S.pad(e << GLO));
            }
        }
        if constexpr (K == K_FP64)
            if (from_global && in_int) {
#pragma unroll
                for (int e = 0; e < R; e++) {
                    const double v = from_u64(x[e]);
                    x[e] = as_bits(INV ? v : freduce(v, M.dp, M.dpi));
                }
            }
        // The fused product's pivot (k_polymul_bottom): the forward's last
        // round on both operands (PW = 2; PW = 1 where the forward is one
        // round, already done) and the pointwise product, in registers.
        if constexpr (PW == 2) {
            group_butterflies<K, T, false, r, CT, CAP, SH>(x, d, hi, S0, gh, Mg, M, Mg.ftw,
                                                           io.fstw, false, sc, sc1);
            group_butterflies<K, T, false, r, CT, CAP, SH>(xb, d, hi, S0, gh, Mg, M, Mg.ftw,
                                                           io.fstw, false, sc, sc1);
        }
        if constexpr (PW != 0)
#pragma unroll
            for (int e = 0; e < R; e++)  // a below 4p
                x[e] = mul2<K, T>(CAP == 8 ? csub(x[e], M.p4) : x[e], xb[e], M);
        group_butterflies<K, T, INV, r, CT, CAP, SH>(x, d, hi, S0, gh, Mg, M, tab, stw,
                                                     scale_root, sc, sc1);
        if (to_global) {
            if (reduce) {  // the inverse's last level scales: values below 2p
#pragma unroll
                for (int e = 0; e < R; e++)
                    x[e] = K == K_FP64 ? to_u64(as_dbl(x[e]), M.dp)
                           : INV       ? csub(x[e], M.p)
                                       : reduce_cap<T, CAP>(x[e], M);
            }
            T *gp = io.gout + g0;
            if (partial_out) {
#pragma unroll
                for (int e = 0; e < R; e++) {
                    const size_t o = (size_t)e << gsh;
                    if (g0 + o < io.out_len) gp[o] = x[e];
                }
            } else if (vec_out) {
#pragma unroll
                for (int v = 0; v < R / NV; v++) {
                    Vec16<T> t;
#pragma unroll
                    for (int j = 0; j < NV; j++) t.e[j] = x[v * NV + j];
                    reinterpret_cast<Vec16<T> *>(gp)[v] = t;
                }
            } else if (S.lo == 0) {
#pragma unroll
                for (int e = 0; e < R; e++) gp[e << GLO] = x[e];
            } else {
#pragma unroll
                for (int e = 0; e < R; e++) gp[(size_t)e << gsh] = x[e];
            }
        } else if (S.sw) {
#pragma unroll
            for (int e = 0; e < R; e++) trow[sb ^ tile_swz(e << GLO)] = x[e];
        } else {
#pragma unroll
            for (int e = 0; e < R; e++) trow[S.pad(e << GLO)] = x[e];
        }
    }
}

// b's twiddle times r's (FP64 kind), bit for bit as the host makes a tree
// entry: the canonical residue, and its companion w/p rounded once.
template <class T>
__device__ __forceinline__ Tw<T> tw_times(Tw<T> b, Tw<T> r, const Ar<T> &M)
{
    double w = fmul2(as_dbl(b.w), as_dbl(r.w), M.dp, M.dpi);
    w = w < 0 ? __dadd_rn(w, M.dp) : w;
    return Tw<T>{as_bits(w), as_bits(__ddiv_rn(w, M.dp))};
}

// The staged twiddles of stage_table computed instead of copied: node
// (d0 + L, hi 2^L + t) is node (d0 + L, hi 2^L) times rho_L(t) = w(L, t) /
// w(L, 0), which depends on neither hi nor d0 (tables.c's exponents), so a
// block reads one tree entry per level and a table every column of its
// modulus shares (rtw).  Where every item has a modulus of its own (RNS),
// the tree's entries are as many bytes as the data and come from HBM; rtw
// stays in L2.  Four entries a thread at a time, their loads issued first.
// The FP64 kind only (plan_geometry); the other kinds' k_pass never calls it.
template <int K, class T, int P, int RMAX>
__device__ __forceinline__ void rho_stage(Tw<T> *dst, const Tw<T> *rtw, const Tw<T> *tree,
                                          const Ar<T> &M, int d0, uint32_t hi, int tid, int nt)
{
    if constexpr (K == K_FP64) {
        constexpr int S1 = round_start(P, RMAX, 1), U = 4;
        for (int j0 = (1 << S1) + tid; j0 < (1 << P); j0 += U * nt) {
            Tw<T> b[U], r[U];
#pragma unroll
            for (int u = 0; u < U; u++) {
                const int j = min(j0 + u * nt, (1 << P) - 1), L = 31 - __clz(j);
                b[u] = tree[(1u << (d0 + L)) + (hi << L)];
                r[u] = rtw[j];
            }
#pragma unroll
            for (int u = 0; u < U; u++)
                if (j0 + u * nt < (1 << P)) dst[j0 + u * nt] = tw_times<T>(b[u], r[u], M);
        }
    }
}

// The rounds of a pass (round_size), in reverse for the inverse, rounds Q
// to QN - 1, the first of them with PW (round_r).  The first round reads
// io.gin (when first_global) and the last writes io.gout (when
// last_global); the rest go through the shared tile, with a barrier before
// every round that reads what others wrote.  Threads tid of nthr share the
// groups; every thread of the block calls this the same number of times,
// so that the barriers match.  STW: the rounds below the pass's first read
// their twiddles from stw, once the copy engine has brought them (bar,
// has_stw), or at once where the block computed them before its first
// round (rtw, rho_stage).
template <int K, class T, bool INV, int P, int RMAX, bool CT, int CAP, bool STW, int Q = 0,
          int QN = round_count(P, RMAX), int PW = 0>
__device__ __forceinline__ void run_rounds(const TileShape<T, P> &S, const PassIO<T> &io,
                                           uint32_t gc0, bool first_global, bool last_global,
                                           const Mod<T> &Mg, const Ar<T> &M, bool scale_root,
                                           Tw<T> sc, Tw<T> sc1, int tid, int nthr,
                                           Tw<T> *stw = nullptr, uint64_t *bar = nullptr,
                                           const Tw<T> *rtw = nullptr)
{
    constexpr int NR = round_count(P, RMAX);
    if constexpr (Q < QN) {
        constexpr int IDX = INV ? NR - 1 - Q : Q;
        constexpr int S0 = round_start(P, RMAX, IDX);
        constexpr bool SH = STW && S0 > 0;
        const bool fg = first_global && Q == 0, tg = last_global && Q == NR - 1;
        if constexpr (SH && Q == (INV ? 0 : 1))
            if (!rtw) mbar_wait(bar, 0);
        // The pivot reads the forward's staged twiddles too.  Where the
        // forward ran two rounds or more its threads have waited on them
        // already, and this wait finds the phase complete.
        if constexpr (SH && PW == 2) mbar_wait(io.fbar, 0);
        round_r<K, T, INV, P, S0, round_size(P, RMAX, IDX), CT, CAP, SH, PW>(
            S, io, gc0, fg, tg, Mg, M, INV ? Mg.itw : Mg.ftw, stw, scale_root, sc, sc1, tid,
            nthr);
        if (!tg) __syncthreads();
        run_rounds<K, T, INV, P, RMAX, CT, CAP, STW, Q + 1, QN>(S, io, gc0, first_global,
                                                                last_global, Mg, M, scale_root, sc,
                                                                sc1, tid, nthr, stw, bar, rtw);
    }
}

// Blocks per SM that the compiler must leave registers for (the
// occupancy shapes, cuda_geometry.h).  The u32 passes of 12 and 13 levels
// (the bottom passes of 2^23 and 2^24, 32 KiB tiles) are held to 40
// registers, three blocks of 512 threads per SM; the same bound for 11
// levels made 2^18 slower, and the rest are left to the compiler (80
// registers for u32).  With compact twiddles the 12-level pass spills in
// 40 registers and takes two blocks, which measured faster than three,
// where the 13-level one keeps three.  The 14-level pass (2^23 and 2^24)
// spills in 40 registers and takes two blocks of 64.  u64 passes are held
// to three blocks of 256 threads, 80 registers (96 when free; at 80 only
// five Montgomery kernels spill, 8-12 bytes; 64 registers, with small
// spills, fell between).  The u32 11-level passes of transforms of 2^20
// and more (WIDE: 512 blocks and more) are held to two blocks of 512
// threads, 64 registers, so that one block's loads and stores overlap the
// other's arithmetic; with fewer blocks than SMs (2^18) the same bound
// lost, and three blocks lost everywhere.
template <class T, int P, bool CT, int OCC> __host__ __device__ constexpr int pass_min_blocks()
{
    if (sizeof(T) == 8) return 3;
    if (P >= 12) return (CT && P == 12) || P == 14 ? 2 : 3;
    return OCC == OCC_WIDE ? 2 : 1;
}

// Staged twiddles (has_stw): reading a bottom pass's twiddles round by
// round from global memory left each round waiting on them, and the
// rounds' dependent chain is what these kernels take time on.  Thread 0
// has the copy engine bring the levels below the first round into shared
// memory (one copy per level, issued before the kernel waits on the one
// before it: the tables are the plan's and no kernel writes them), while
// the first round works from global memory; the later rounds wait on an
// mbarrier, then read pass level L's 2^L nodes at 2^L.
template <class T, int P, int RMAX>
__device__ __forceinline__ void stage_table(Tw<T> *dst, uint64_t *bar, const Tw<T> *src, int d0,
                                            uint32_t hi)
{
    constexpr int S1 = round_start(P, RMAX, 1);
    mbar_init_expect(bar, (uint32_t)(((1u << P) - (1u << S1)) * sizeof(Tw<T>)));
    for (int L = S1; L < P; L++)
        bulk_load(dst + (1u << L), src + (1u << (d0 + L)) + (hi << L),
                  (uint32_t)(sizeof(Tw<T>) << L), bar);
}

// One pass of a transform, forward (CT) or inverse (GS), with columns of
// P levels.  grid: x column groups, y batch items, z operands.
template <class T, int K, bool INV, int P, bool CT, int OCC, int CAP, bool STW = false>
__global__ void __launch_bounds__(pass_max_threads(sizeof(T), OCC), pass_min_blocks<T, P, CT, OCC>())
    k_pass(PassArgs<T> a)
{
    NTT_DYN_SMEM(smem);
    const TileShape<T, P> S(CT || STW ? bottom_geom(a.g) : a.g, tile_swizzles(K, CT));
    const int z = blockIdx.z;
    const size_t item = blockIdx.y;
    const Mod<T> &Mg = a.mods[(a.item0 + item) % a.nmod];
    const Ar<T> M = Mg.a;
    // Selected, not indexed: a run-time index would put the arguments in local memory.
    const T *in = z ? a.in[1] : a.in[0];
    T *out = z ? a.out[1] : a.out[0];
    PassIO<T> io = {in + item * a.in_stride, out + item * a.out_stride,
                    z ? a.in_len[1] : a.in_len[0], a.out_len, reinterpret_cast<T *>(smem),
                    a.flags};
    const bool scale = INV && S.d0 == 0 && (a.flags & (F_SCALE_INV | F_SCALE_MUL));
    const Tw<T> sc = (a.flags & F_SCALE_MUL) ? Mg.s_mul : Mg.s_inv;
    const Tw<T> sc1 = (a.flags & F_SCALE_MUL) ? Mg.s1_mul : Mg.s1_inv;
    const uint32_t gc0 = blockIdx.x << S.logC;
    Tw<T> *tw = nullptr;
    uint64_t *bar = nullptr;
    // Only the FP64 kind computes (plan_geometry): the others fold the branches away.
    const Tw<T> *rtw = STW && K == K_FP64 ? (INV ? Mg.irtw : Mg.rtw) : nullptr;
    if constexpr (STW) {
        tw = align_up<Tw<T>>(smem, tile_bytes<T>(a.g));
        bar = reinterpret_cast<uint64_t *>(tw + (1 << P));
        // Both read only the plan's tables, which no kernel writes: before the
        // wait.  An inverse pass's first round reads the staged levels at once.
        const Tw<T> *tree = INV ? Mg.itw : Mg.ftw;
        if (rtw) {
            rho_stage<K, T, P, pass_rmax<T>()>(tw, rtw, tree, M, S.d0, gc0, threadIdx.x, blockDim.x);
            if (INV) __syncthreads();
        } else if (threadIdx.x == 0) {
            stage_table<T, P, pass_rmax<T>()>(tw, bar, tree, S.d0, gc0);
        }
    }
    grid_dep_wait();
    run_rounds<K, T, INV, P, pass_rmax<T>(), CT, CAP, STW>(S, io, gc0, true, true, Mg, M, scale,
                                                       sc, sc1, threadIdx.x, blockDim.x, tw, bar,
                                                       rtw);
}

// The bottom pass of a product: the forward last levels of both operands,
// the pointwise product, the inverse first levels (ending in global
// memory).  When the whole transform is this one pass (d0 = 0) it also
// scales and reduces.  Rounds of at most three levels.  The two halves of
// the block transform the two operands side by side (a single thread, as
// in the CPU stand-in, takes them in turn): the kernel is bound by the
// latency of its dependent rounds, and twice the warps per SM hide more of
// it.  The forward's last round, the product and the inverse's first round
// (the same levels and groups) are one round, the pivot, on the whole
// block: a group's values of both operands stay in registers, which saves
// two barriers and two trips through the tiles.
template <class T, int K, int P, bool CT, int CAP, bool STW>
__global__ void __launch_bounds__(512) k_polymul_bottom(PassArgs<T> a)
{
    NTT_DYN_SMEM(smem);
    const TileShape<T, P> S(bottom_geom(a.g), tile_swizzles(K, CT));
    const size_t item = blockIdx.y;
    const Mod<T> &Mg = a.mods[(a.item0 + item) % a.nmod];
    const Ar<T> M = Mg.a;
    T *ta = reinterpret_cast<T *>(smem);
    T *tb = align_up<T>(smem, tile_bytes<T>(a.g));
    const uint32_t gc0 = blockIdx.x << S.logC;
    const Tw<T> none = {0, 0};
    const int tid = threadIdx.x, nt = blockDim.x;
    constexpr int NR = round_count(P, 3), PIVOT = NR >= 2;
    Tw<T> *tw = nullptr;
    uint64_t *bar = nullptr;
    if constexpr (STW) {
        tw = align_up<Tw<T>>(smem, 2 * ((tile_bytes<T>(a.g) + 15) & ~(size_t)15));
        bar = reinterpret_cast<uint64_t *>(tw + (2 << P));
        if (tid == 0)
            for (int m = 0; m < 2; m++)
                stage_table<T, P, 3>(tw + (m << P), bar + m, m ? Mg.itw : Mg.ftw, S.d0, gc0);
    }
    grid_dep_wait();
    // Operand z's PassIO is made by value from selected fields: selecting
    // between two whole structs put both in local memory, and every access
    // through their pointers, the tiles' included, became a generic load.
    // A single thread (the CPU stand-in) takes both operands in turn.
    const bool one = nt == 1;
    const int half = one ? 1 : nt >> 1;
    for (int z = one ? 0 : tid >= half; z < 2; z += one ? 1 : 2) {
        const PassIO<T> io = {(z ? a.in[1] : a.in[0]) + item * a.in_stride, nullptr,
                              z ? a.in_len[1] : a.in_len[0], 0, z ? tb : ta, 0};
        run_rounds<K, T, false, P, 3, CT, CAP, STW, 0, NR - PIVOT>(
            S, io, gc0, true, false, Mg, M, false, none, none, one ? 0 : tid - z * half, half, tw,
            bar);
    }
    // The inverse's first round (the pivot) multiplies, and where there are
    // two rounds or more it also runs the forward's last one (PW, round_r).
    const bool root = S.d0 == 0;
    PassIO<T> ic = {nullptr, a.out[0] + item * a.out_stride, 0, a.out_len, ta,
                    root ? F_REDUCE : 0, tb, tw, bar};
    run_rounds<K, T, true, P, 3, CT, CAP, STW, 0, NR, 1 + PIVOT>(
        S, ic, gc0, false, true, Mg, M, root, Mg.s_mul, Mg.s1_mul, tid, nt,
        STW ? tw + (1 << P) : nullptr, STW ? bar + 1 : nullptr);
}

}  // namespace nttc
