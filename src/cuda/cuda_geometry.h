// Pass geometry of the fast path: how a transform splits into passes, how a
// pass's columns lie in a shared-memory tile, which kernel shapes exist, and
// what a launch of each asks of the device (threads, shared memory, grid).
// The kernels (cuda_fast_kernels.cuh) take these as compile-time constants, the
// host (cuda_geometry.cpp, cuda_launch.cu) as run-time values: one
// definition keeps the two in agreement.  Plain C++: host and device
// functions under nvcc, host functions elsewhere, so that the geometry
// compiles and is unit tested (tests/test_cuda_geometry.cpp) without CUDA.
//
// Element index x of a size-2^D transform is split as x = hi . mid . lo
// (bit fields, widths d0, P, lo).  A pass runs the tree levels d0 ..
// d0+P-1: for fixed (hi, lo) the 2^P elements mid = 0..2^P-1 form one
// "column", a P-level subtree rooted at tree node 2^d0 + hi.  A block takes
// C = 2^logC columns: C consecutive lo (coalesced loads when lo > 0) or, in
// the bottom pass (lo = 0), C consecutive contiguous subtrees.
#pragma once

#include <cstddef>
#include <cstdint>

#include "../core/cuda_tuning.h"
#include "cuda_mod.h"

#ifdef __CUDACC__
#define NTT_HD __host__ __device__
#else
#define NTT_HD
#endif

namespace nttc {

struct Geom {
    int d0, P, lo, logC;
    int rmax;  // most levels one round keeps in registers (3 or 4)
    int ct;    // compact twiddles (group_butterflies): u32 Shoup or FP64 kind, P >= kMinCompactP
    int cap;   // values stay below cap p (lazy ranges, cuda_fast_kernels.cuh): 4, or 8 (plan_cap)
    int stw;   // a bottom pass stages its column's twiddles in shared memory (has_stw)
    int many;  // the launch has more blocks than the device has SMs (pass_occ; launch_geom)
};

// A pass's P levels split into the fewest rounds of at most rmax levels,
// the sizes as even as they can be (the larger ones first): fewer rounds
// are fewer trips through shared memory and fewer barriers, and even
// sizes keep every round's thread count close to the others'.
NTT_HD constexpr int round_count(int P, int rmax) { return (P + rmax - 1) / rmax; }
NTT_HD constexpr int round_size(int P, int rmax, int idx)
{
    return P / round_count(P, rmax) + (idx < P % round_count(P, rmax) ? 1 : 0);
}
NTT_HD constexpr int round_start(int P, int rmax, int idx)
{
    return idx * (P / round_count(P, rmax)) +
           (idx < P % round_count(P, rmax) ? idx : P % round_count(P, rmax));
}

// Radix-16 rounds pay for u32; u64 keeps radix 8: its radix-16 code needs
// 80 registers, which cost more occupancy than the saved round trips
// through shared memory bring back.
NTT_HD constexpr int pass_rmax(size_t elem) { return elem == 4 ? 4 : 3; }
template <class T> NTT_HD constexpr int pass_rmax() { return pass_rmax(sizeof(T)); }

// The kernels are made for each column height P (levels per pass) up to
// this: with P known, every shared-memory offset of a group and the
// global offsets of a bottom pass are constants of the instruction, where
// a run-time P costs about five integer instructions per element access.
constexpr int kMaxP = 14;
static_assert(kMaxP == NTT_CUDA_TUNING_MAX_LEVELS, "the tuning's bottom levels are the kernels'");
// Columns of more levels than this exist only in u32 transforms
// (plan_passes): products (the fused kernel's two tiles) and u64 stop here.
constexpr int kMaxFusedP = 13;
// Compact twiddles are made for the passes of this many levels and more
// (u32 Shoup and FP64 kinds): the bottom passes of the sizes whose tables
// outgrow L2 or whose twiddle loads cost more than the products they save.
constexpr int kMinCompactP = 10;

// ---- the tile ----------------------------------------------------------------
// Shared-memory banks.  A warp's accesses to a tile run without conflicts
// when its lanes hit distinct banks: 32 four-byte banks for u32; for u64
// each half-warp's 16 eight-byte slots (a 64-bit access is served by halves).
// So the low kBankBits(T) lane bits of every access must reach distinct
// bank (slot) numbers.  Element m of a column lies at tile_pad(m), so
// that bit k of m moves the address by 2^k (k < 5) or 2^k + 2^(k-5), whose
// bank is 2^(k-5) for 5 <= k < 10: a set of lane bits is conflict-free when
// the 2-adic valuations of their address steps mod 2^kBankBits are all
// different (tile_valuation).  Columns lie RS apart (tile_rs) and the
// rounds order their groups (round_r's `where`) so that they are.
template <class T> NTT_HD constexpr int kBankBits() { return sizeof(T) == 4 ? 5 : 4; }

// One word of padding per 32 in a column.
NTT_HD constexpr int tile_pad(int m) { return m + (m >> 5); }

// The 2-adic valuation of v mod 2^B, or 99 when that is 0.
NTT_HD constexpr int tile_valuation(unsigned v, int B)
{
    v &= (1u << B) - 1;
    if (v == 0) return 99;
    int k = 0;
    for (; !(v & 1); v >>= 1) k++;
    return k;
}

// Tiles with columns side by side (lo > 0) take the lane bits of their
// column number (c) first: with RS's valuation B - logC the columns cover
// the upper banks, and the bits of each column's groups the lower ones.
// Columns of fewer than 9 levels keep an odd RS: there the u64 passes
// (no rotation, see round_r) would move conflicts from stores to loads,
// which measured slower.
NTT_HD constexpr bool tile_cols_swz(int P, int logC)
{
    return logC > 0 && P >= 9;
}
// The valuation RS takes there, which is also how many lane bits a round
// must find among its groups' own bits (round_r); 0 where RS stays odd.
NTT_HD constexpr int tile_need(int P, int logC, int B)
{
    return tile_cols_swz(P, logC) && logC < B ? B - logC : 0;
}
NTT_HD constexpr int tile_rs(int P, int logC, int B)
{
    const int base = tile_pad(1 << P);
    if (!tile_cols_swz(P, logC)) return base + 1;
    int x = 1;
    while (tile_valuation((unsigned)(base + x), B) != tile_need(P, logC, B)) x++;
    return base + x;
}

template <class T> NTT_HD inline size_t tile_bytes(const Geom &g)
{
    return (size_t)(1 << g.logC) * (size_t)tile_rs(g.P, g.logC, kBankBits<T>()) * sizeof(T);
}
inline size_t tile_bytes(size_t elem, const Geom &g)
{
    return elem == 4 ? tile_bytes<uint32_t>(g) : tile_bytes<uint64_t>(g);
}

// ---- kernel shapes -------------------------------------------------------------
// Occupancy shapes of the pass kernels: the default (FREE), WIDE and BIG
// (pass_min_blocks, cuda_fast_kernels.cuh).  Blocks of up to 512 threads pay for
// u32, 256 for u64 (its radix-8 rounds).  BIG: 1024-thread blocks, held to
// 64 registers as one block per SM, for the top passes of 2^23 and 2^24,
// whose 128 KiB tiles allow one block per SM whatever its registers: twice
// the warps to cover the latency of the loads.
enum { OCC_FREE = 0, OCC_WIDE = 1, OCC_BIG = 2 };

NTT_HD constexpr int pass_max_threads(size_t elem, int occ)
{
    return occ == OCC_BIG ? 1024 : elem == 4 ? 512 : 256;
}

// Which shapes have kernels of their own (pass_kernel) for column height P:
// WIDE for the u32 passes of 9 to 11 levels, BIG for the u32 top passes of
// 10 and 11 levels whose 128 KiB tiles allow one block per SM, in
// transforms of 2^kWideLog and more (pass_occ).
NTT_HD constexpr bool has_occ(size_t elem, int P, int occ)
{
    return occ == OCC_FREE ||
           (elem == 4 && (occ == OCC_WIDE ? P >= 9 && P <= 11 : P == 10 || P == 11));
}
constexpr int kWideLog = 20;

// The u32 passes of 9 and 10 levels take WIDE only in launches of more
// blocks than SMs (Geom::many), where one block per SM (80 registers)
// leaves a second wave; launches of one wave lost with it.
inline int pass_occ(size_t elem, const Geom &g)
{
    if (g.d0 + g.P + g.lo < kWideLog) return OCC_FREE;
    if (tile_bytes<uint32_t>(g) > (96u << 10) && has_occ(elem, g.P, OCC_BIG)) return OCC_BIG;  // u32 only
    return has_occ(elem, g.P, OCC_WIDE) && (g.P == 11 || g.many) ? OCC_WIDE : OCC_FREE;
}

// Twiddles staged in shared memory (Geom::stw; stage_table, cuda_fast_kernels.cuh):
// the bottom pass of a transform or a product has the copy engine bring its
// column's twiddles below the first round into shared memory while that
// round works from global memory.  Which kernels can: the table kinds of
// the fast path (Shoup, FP64), no compact twiddles, more than one round;
// transforms' forward passes (an inverse pass reads its largest levels in
// its first round, so it stages only what it computes, rho_stage).
NTT_HD constexpr bool has_stw(int K, size_t elem, int P, bool CT, bool fused)
{
    return !CT && (K == K_SHOUP || K == K_FP64) && round_count(P, fused ? 3 : pass_rmax(elem)) > 1;
}

// Shared memory for `tables` tables' copies (a twiddle and its companion,
// Tw, per node) and their mbarriers.
NTT_HD constexpr size_t stw_bytes(size_t elem, int P, int tables)
{
    return tables * (((2 * elem) << P) + sizeof(uint64_t));
}

// The kernel families: a transform's forward and inverse passes (k_pass)
// and a product's fused bottom pass (k_polymul_bottom).
enum Family { FWD_PASS, INV_PASS, FUSED };

// The kernels that exist (cuda_launch.cu instantiates exactly these; the
// geometry asks for no others, tests/test_cuda_geometry.cpp): column
// heights, compact twiddles, the 8p range, staged twiddles and the
// occupancy shapes, per kind, element size and family.
NTT_HD constexpr bool has_levels(size_t elem, int P, Family f)
{
    return P >= 1 && P <= (f == FUSED || elem != 4 ? kMaxFusedP : kMaxP);
}
NTT_HD constexpr bool has_ct(int K, size_t elem, int P)
{
    return ((K == K_SHOUP && elem == 4) || K == K_FP64) && P >= kMinCompactP;
}
NTT_HD constexpr bool has_cap8(int K, size_t elem) { return K == K_SHOUP && elem == 4; }
NTT_HD constexpr bool has_stw_kernel(int K, size_t elem, int P, bool CT, Family f, int occ)
{
    return f == FUSED ? has_stw(K, elem, P, CT, true)
                      : has_stw(K, elem, P, CT, false) && occ != OCC_BIG &&
                            (f == FWD_PASS || K == K_FP64);
}

// ---- a plan's passes (host; cuda_geometry.cpp) ------------------------------------

constexpr int kMaxPasses = 8;

// What a plan's geometry depends on.
struct GeometryInput {
    int logn;       // D: the transform has 2^D elements
    size_t elem;    // 4 (u32) or 8 (u64)
    int kind;       // the kernels' arithmetic (K_*)
    bool shoup32;   // u32 Shoup kind of the fast path (its own kernel variants)
    int cap;        // 4 or 8 (plan_cap)
    size_t nmod;    // moduli of the plan
    size_t batch;   // items one call works on at most
    size_t l2;      // the device's L2 bytes
};

// The passes of a plan's transforms and products, and what they need.
struct PlanGeometry {
    Geom passes[kMaxPasses];   // a transform's, forward order
    int npasses;
    Geom mpasses[kMaxPasses];  // a product's, its last as the fused kernel's
    int nmpasses;
    Geom fused;                // mpasses' last, as the fused kernel takes it
    Geom bus0;                 // mpasses[0] for products on host memory
    bool widen;                // group_log may widen column groups (no forced logc)
    bool rho;                  // the bottom passes compute their staged twiddles (rtw, irtw)
    size_t max_smem;           // the most dynamic shared memory of any launch at plan time
};

// The passes of a size-2^D transform (product: of the product's) into g,
// forward order, the bottom pass last; returns their count.  bottom and
// logc: the tuning's forced values, NTT_CUDA_AUTO for none.
int plan_passes(int D, size_t elem, int rmax, bool product, bool shoup32, int bottom, int logc,
                Geom *g);

// A plan's geometry under tuning t.
void plan_geometry(const GeometryInput &in, const ntt_cuda_tuning &t, PlanGeometry *out);

// A launch of pass g: its threads per block, dynamic shared memory and
// blocks along x.  fused: k_polymul_bottom, one half of the block per operand.
int pass_block(size_t elem, const Geom &g, bool fused);
size_t pass_smem(size_t elem, const Geom &g, bool fused);
size_t pass_grid_x(const Geom &g);

// An inverse pass stages only what it computes (rho_stage).
inline bool inv_stw(const PlanGeometry &pg, const Geom &g) { return g.stw && pg.rho; }

// Pass g as launched over `items` batch items and nz operands on a device
// of `sms` multiprocessors: u64 column groups widened for batches
// (group_log), the inverse's staging, and Geom::many.
Geom launch_geom(const PlanGeometry &pg, size_t elem, int sms, const Geom &g, size_t items,
                 int nz, bool inv);

}  // namespace nttc
