// The fast path's pass plans (cuda_geometry.h): which levels each pass of a
// transform and of a product takes, over how wide column groups, with which
// kernel variants (compact or staged twiddles, ranges), and what each launch
// asks of the device.  Plain host code without CUDA, so that
// tests/test_cuda_geometry.cpp checks every size, width and kind on any
// machine.  The measurements behind each threshold are in
// docs/EXPERIMENTS.md.
#include "cuda_geometry.h"

namespace nttc {

// Up to 2^19 the bottom pass takes the last min(D, 11) levels on contiguous
// tiles (u32 of 2^12 .. 2^16: 9 or 10, below) and one pass above takes the
// rest over 128-byte (32 u32) or 64-byte (8 u64) column groups; u32 at 2^18
// and 2^19 take 64-byte groups, twice the blocks of that pass against the
// SMs of an H100-class device.  Beyond, both passes grow to tiles of up to
// 64 KiB (u64: the top pass over 32-byte column groups) or 128 KiB (u32:
// 64-byte groups), the bottom up to 2^13 elements, so that every size up to
// 2^24 takes two passes through memory; larger sizes add passes of at most
// 11 levels (u32 Shoup: 12) on top.
//
// u32 transforms from 2^23 take a 14-level bottom pass, which leaves the
// top pass 9 or 10 levels at 2^23 and 2^24: few enough for 128-byte column
// groups in a tile of at most 128 KiB (at 2^25 and 2^26 it saves a pass).
// Products keep the fused bottom at 13 levels or fewer: a 14-level fused
// kernel has two 66 KiB tiles and one block per SM, which lost.  At 2^22 a
// 13-level one under a 9-level top pass with 128-byte groups gained, where
// at 2^23 (10 + 13) it did not and is not taken.  The tuning's bottom
// (transforms; at most kMaxP for u32, kMaxFusedP for u64) forces the bottom
// levels, so that the sanitizers reach the 14-level kernels at small sizes
// and sweeps need no rebuild; its logc likewise gives the upper passes
// (transforms and products) groups of 2^logc columns where the tile stays
// within 128 KiB, and no wider ones at launch (group_log).
int plan_passes(int D, size_t elem, int rmax, bool product, bool shoup32, int bottom_force,
                int logc_force, Geom *g)
{
    int k = 0;
    // u64: 2^10-element bottom tiles, twice the blocks, unless that would
    // add a pass.
    int bottom = D < 11 ? D : 11;
    int logC = elem == 4 ? (D >= 18 ? 4 : 5) : 3, maxP = 8;
    if (elem == 8 && D >= 10 && D - 10 <= maxP) bottom = 10;
    // u32 of 2^12 .. 2^16: smaller bottom tiles (9 levels, 10 at 2^16),
    // more blocks on a GPU these sizes leave mostly idle; 2^17 and up lost
    // with them.
    if (elem == 4 && D >= 12 && D <= 16) bottom = D <= 15 ? 9 : 10;
    if (D > 19) {
        logC = elem == 4 ? 4 : 2;
        maxP = 11;
        bottom = D - 11 < 13 ? (D - 11 > 11 ? D - 11 : 11) : 13;
        if (elem == 4 && (product ? D == 22 : D >= 23)) bottom = product ? 13 : 14;
        // u64 transforms of 2^22: 12 + 10 levels, whose top pass takes
        // 64-byte groups (below), rather than 11 + 11; 13 + 10 at 2^23 and
        // 12-level bottom passes at 2^18 and 2^20 did not gain.
        if (elem == 8 && !product && D == 22) bottom = 12;
        // u32 Shoup beyond 2^24: one 12-level top pass over 32-byte groups
        // (128 KiB tiles) rather than two of 6; u64 lost with it, and the
        // other u32 kinds' 12-level kernels spill.
        if (shoup32 && D >= 25) maxP = 12;
    }
    const int fb = !product ? bottom_force : NTT_CUDA_AUTO;
    if (fb >= 1 && fb <= (elem == 4 ? kMaxP : kMaxFusedP)) bottom = fb < D ? fb : D;
    const int fc = logc_force;
    const int top = D - bottom;
    const int npass = (top + maxP - 1) / maxP;
    int d = 0;
    for (int i = 0; i < npass; i++) {
        const int P = (top - d) / (npass - i);
        const int lo = D - d - P;
        // u32 passes over 2^13 columns and more: the widest groups, up to
        // 128 bytes, whose 2^P rows fit a 128 KiB tile (u64 lost with
        // them).  Products beyond 2^24 keep 64-byte groups at most: wider
        // ones made those products slower where they made the transforms
        // faster.
        int lc = logC;
        // u64 transforms beyond 2^19: 64-byte groups in passes of 10 levels
        // or fewer (tiles of at most 66 KiB, padded: three blocks per SM),
        // 32-byte ones above, where the 11-level top passes lost with them.
        // Products take them in top passes of 9 levels (2^20) only: 10
        // levels stayed level and 11 lost; beyond 2^24, not measured, they
        // keep 32-byte ones.
        if (elem == 8 && D > 19 && (product ? P <= 9 && D <= 24 : P <= 10)) lc = 3;
        if (elem == 4 && lo >= 13) {
            lc = 15 - P < 5 ? 15 - P : 5;  // 2^(P + lc) u32 in 128 KiB
            if (product && D > 24 && lc > 4) lc = 4;
        }
        if (fc >= 0 && fc <= 8 && (elem << (P + fc)) <= ((size_t)128 << 10)) lc = fc;
        g[k++] = Geom{d, P, lo, lc < lo ? lc : lo, rmax, 0, 4, 0, 0};
        d += P;
    }
    // The bottom pass: lo = 0, one column per block, which the kernels that run
    // only bottom passes take as constants (bottom_geom).
    g[k++] = Geom{d, bottom, 0, 0, rmax, 0, 4, 0, 0};
    return k;  /* at most 1 + ceil(17 / 11) for D <= 30 */
}

void plan_geometry(const GeometryInput &in, const ntt_cuda_tuning &t, PlanGeometry *pg)
{
    const int D = in.logn;
    const size_t elem = in.elem, tw = 2 * elem;  // a twiddle and its companion (Tw)
    const int kind = in.kind;
    pg->npasses = plan_passes(D, elem, pass_rmax(elem), false, in.shoup32, t.bottom, t.logc,
                              pg->passes);
    pg->nmpasses = plan_passes(D, elem, pass_rmax(elem), true, in.shoup32, t.bottom, t.logc,
                               pg->mpasses);
    // Compact twiddles (group_butterflies) from 2^22 on for the u32 Shoup
    // kind, whose tables then outgrow L2 (with them in L2, at 2^20 and
    // 2^21, the tree's tables were faster; the u64 integer kernels, bound
    // by arithmetic, lost with them).  The FP64 kernels, whose products are
    // cheap, take them from 2^19; below, their bottom passes stage the
    // tree's twiddles (has_stw), which beat compact ones.  The tuning's
    // compact_log moves the threshold, for tests and A/B runs.
    pg->widen = t.logc == NTT_CUDA_AUTO;
    const int compact_log =
        t.compact_log != NTT_CUDA_AUTO ? t.compact_log : kind == K_FP64 ? 19 : 22;
    for (int m = 0; m < 2; m++) {
        Geom *g = m ? pg->mpasses : pg->passes;
        const int np = m ? pg->nmpasses : pg->npasses;
        g[np - 1].ct = (in.shoup32 || kind == K_FP64) && np > 1 && g[np - 1].P >= kMinCompactP &&
                       D >= compact_log;
        for (int i = 0; i < np; i++) g[i].cap = in.cap;
    }
    pg->fused = pg->mpasses[pg->nmpasses - 1];
    // A host-pointer product's first pass reads its operands over the bus,
    // and its last writes c: 128-byte rows there, where the plan's are
    // narrower, measured faster host to host.
    pg->bus0 = pg->mpasses[0];
    if (elem == 4 && D <= 19) pg->bus0.logC = pg->bus0.lo < 5 ? pg->bus0.lo : 5;
    pg->fused.rmax = 3;  // k_polymul_bottom's rounds
    // Staged twiddles (cuda_fast_kernels.cuh, has_stw) in the bottom passes whose
    // column's table takes at most 16 KiB: products and forward transforms
    // gained up to 10% with them, where a 64 KiB table per column (the u64
    // 2^20 product, two blocks per SM) lost: hence the bound.  The tuning's
    // stw turns them off or on wherever the kernels can.
    auto stw = [&](Geom &g, bool fused) {
        const bool want = t.stw != NTT_CUDA_AUTO ? t.stw != 0 : (tw << g.P) <= (16u << 10);
        g.stw = want && has_stw(kind, elem, g.P, g.ct, fused) && g.lo == 0 &&
                (fused || pass_occ(elem, g) != OCC_BIG);
    };
    stw(pg->fused, true);
    stw(pg->passes[pg->npasses - 1], false);
    // The bottom passes of the FP64 kind compute their staged twiddles
    // (rho_stage) where the tree tables of the moduli one call reaches take
    // more than half the L2: RNS batches, a modulus per item, whose tree
    // entries would come from HBM.  Forced where the tables stay in L2 it
    // lost; the integer kinds' companions cost more to compute than the
    // tables do to read, so only the FP64 kind computes.  The tuning's rho
    // forces it (FP64).
    const size_t n = (size_t)1 << D;
    const size_t reach = in.nmod < in.batch ? in.nmod : in.batch;
    const bool rho_big = reach * n * tw > in.l2 / 2;
    pg->rho = pg->passes[pg->npasses - 1].stw && kind == K_FP64 &&
              (t.rho != NTT_CUDA_AUTO ? t.rho != 0 : rho_big);
    // The largest tile of any kernel the plan launches: the fused one, the
    // transform's passes, the product's above the fused one and bus0.
    pg->max_smem = 0;
    auto fit = [&](const Geom &g, bool fused) {
        const size_t s = pass_smem(elem, g, fused);
        if (s > pg->max_smem) pg->max_smem = s;
    };
    fit(pg->fused, true);
    for (int i = 0; i < pg->npasses; i++) fit(pg->passes[i], false);
    for (int i = 0; i + 1 < pg->nmpasses; i++) fit(pg->mpasses[i], false);
    if (pg->nmpasses > 1) fit(pg->bus0, false);
}

namespace {

// u32 (radix-16 kernels): one thread per group of the smallest round, the
// larger rounds leave some idle.  u64 (radix-8 kernels): one thread per
// radix-8 group, a shorter round's groups take two turns: fewer, fuller
// threads measured faster for u64, the other way round for u32.  At most
// the kernel's bound.
int pass_threads(const Geom &g, int max_threads)
{
    const int last = round_count(g.P, g.rmax) - 1;
    const int r = g.rmax == 3 && g.P > 3 ? 3 : round_size(g.P, g.rmax, last);
    const int groups = (1 << g.logC) << (g.P - r);
    return groups < 32 ? 32 : groups > max_threads ? max_threads : groups;
}

// The column groups of an upper pass at launch.  u64 passes of six levels
// or fewer (transforms of 2^16 and less) hold only 2^(P + 3) elements per
// block in 64-byte groups; where a batch leaves two blocks per SM and more,
// groups of up to 2^(10 - P) columns (128 at most) make blocks of 2^10
// elements.  Single transforms keep the plan's groups: wider ones leave
// too few blocks (ARCHITECTURE, Passes).
int group_log(const PlanGeometry &pg, size_t elem, int sms, const Geom &g, size_t items, int nz)
{
    if (elem != 8 || g.lo == 0 || g.P > 6 || !pg.widen) return g.logC;
    int lc = 10 - g.P < 7 ? 10 - g.P : 7;
    if (lc > g.lo) lc = g.lo;
    const size_t cols = (items * (size_t)nz) << (g.d0 + g.lo);
    while (lc > g.logC && (cols >> lc) < 2 * (size_t)sms) lc--;
    return lc > g.logC ? lc : g.logC;
}

}  // namespace

int pass_block(size_t elem, const Geom &g, bool fused)
{
    return fused ? 2 * pass_threads(g, 256)
                 : pass_threads(g, pass_max_threads(elem, pass_occ(elem, g)));
}

size_t pass_smem(size_t elem, const Geom &g, bool fused)
{
    const size_t t = (tile_bytes(elem, g) + 15) & ~(size_t)15;
    const int tables = fused ? 2 : 1;
    return tables * t + (g.stw ? stw_bytes(elem, g.P, tables) : 0);
}

// One block per column group of every node.
size_t pass_grid_x(const Geom &g) { return (size_t)1 << (g.d0 + g.lo - g.logC); }

Geom launch_geom(const PlanGeometry &pg, size_t elem, int sms, const Geom &g, size_t items,
                 int nz, bool inv)
{
    Geom gk = g;
    gk.logC = group_log(pg, elem, sms, g, items, nz);
    if (inv) gk.stw = inv_stw(pg, g);
    gk.many = items * (size_t)nz * pass_grid_x(gk) > (size_t)sms;
    return gk;
}

}  // namespace nttc
