// The CUDA backend's pass geometry (src/cuda/cuda_geometry.h), host code on
// its own: for every size 2^1 .. 2^30, both widths, every kind, both
// ranges, RNS and single-modulus plans, and the tuning switches' forced
// values, the plans of transforms and products must
//   * cover the levels 0 .. D-1 exactly once, in order, the bottom pass last
//     with lo = 0 and every column group within its pass (logC <= lo);
//   * give every element to exactly one block (grid x times the block's
//     columns times the column's elements is 2^D);
//   * ask only for kernels that exist (column heights, occupancy shapes,
//     compact twiddles, the 8p range, staged twiddles), and those whose
//     tiles are built as bottom passes (compact or staged twiddles, the
//     fused kernel) only where lo = 0 and one column per block;
//   * launch 32 .. 1024 threads, whole warps, within the kernel's bound,
//     and the fused kernel an even count (one half per operand);
//   * fit the shared memory of an H100 (227 KiB a block), and raise the
//     limit (prepare) of every kernel that takes more than the default 48 KiB;
// at launch too, over batches that widen the u64 column groups.  A few
// plans are pinned by their shape, and the tuning's switches must show in
// the plans they make.
#include "cuda_geometry.h"

#include <cstdio>
#include <cstring>
#include <initializer_list>

using namespace nttc;

namespace {

unsigned long checks, failures, refused;

#define EXPECT(cond, ...)                                       \
    do {                                                        \
        checks++;                                               \
        if (!(cond)) {                                          \
            if (++failures <= 30) {                           \
                printf("%s:%d: ", __FILE__, __LINE__);          \
                printf(__VA_ARGS__);                            \
                printf("\n");                                   \
            }                                                   \
        }                                                       \
    } while (0)

const size_t kSmemDefault = 48 << 10, kSmemOptin = 227 << 10;
const int kSms[] = {1, 132};
const size_t kItems[] = {1, 2, 40, 640, 70000};

// One plan's description, for messages.
struct Case {
    GeometryInput in;
    ntt_cuda_tuning t;
    bool forced;  // t is not the default
    char name[160];
};

// A kernel as the launch code picks it (cuda_launch.cu's chain).
struct Key {
    int family, P, occ, ct, cap, stw;
    bool operator==(const Key &o) const { return memcmp(this, &o, sizeof o) == 0; }
};

Key key_of(size_t elem, Family f, const Geom &g)
{
    return Key{f, g.P, f == FUSED ? (int)OCC_FREE : pass_occ(elem, g), g.ct, g.cap, g.stw};
}

// The kernels prepare() raises the limit of (cuda_launch.cu): every upper
// and bottom pass of the transform and of the product above the fused one,
// in both shapes of pass_occ, forward and inverse; and the fused kernel.
int prepared(const PlanGeometry &pg, size_t elem, Key *keys)
{
    int k = 0;
    auto both = [&](Geom g) {
        Geom gm = g;
        gm.many = 1;
        g.many = 0;
        const int shapes = pass_occ(elem, gm) != pass_occ(elem, g) ? 2 : 1;
        for (; g.many < shapes; g.many++) {
            keys[k++] = key_of(elem, FWD_PASS, g);
            Geom gi = g;
            gi.stw = inv_stw(pg, g);
            keys[k++] = key_of(elem, INV_PASS, gi);
        }
    };
    for (int i = 0; i < pg.npasses; i++) both(pg.passes[i]);
    for (int i = 0; i + 1 < pg.nmpasses; i++) both(pg.mpasses[i]);
    keys[k++] = key_of(elem, FUSED, pg.fused);
    return k;
}

// The passes' levels: in order, exactly once, the bottom pass last.
void check_cover(const Case &c, const Geom *g, int np, bool product)
{
    const int D = c.in.logn;
    EXPECT(np >= 1 && np <= kMaxPasses, "%s %s: %d passes", c.name, product ? "product" : "transform", np);
    int d = 0;
    for (int i = 0; i < np; i++) {
        const Geom &p = g[i];
        EXPECT(p.d0 == d && p.P >= 1 && p.d0 + p.P + p.lo == D,
               "%s pass %d: d0 %d P %d lo %d after %d levels", c.name, i, p.d0, p.P, p.lo, d);
        EXPECT(p.logC >= 0 && p.logC <= p.lo, "%s pass %d: logC %d, lo %d", c.name, i, p.logC, p.lo);
        EXPECT((i == np - 1) == (p.lo == 0), "%s pass %d of %d: lo %d", c.name, i, np, p.lo);
        EXPECT(p.rmax == pass_rmax(c.in.elem), "%s pass %d: rmax %d", c.name, i, p.rmax);
        EXPECT(p.cap == c.in.cap, "%s pass %d: cap %d", c.name, i, p.cap);
        EXPECT(i == np - 1 || (!p.ct && !p.stw), "%s upper pass %d: ct %d stw %d", c.name, i, p.ct,
               p.stw);
        d += p.P;
    }
    EXPECT(d == D, "%s: %d levels of %d", c.name, d, D);
}

// One launch of g as family f (the launch geometry, cuda_launch.cu).
void check_launch(const Case &c, const PlanGeometry &pg, const Key *keys, int nkeys, Family f,
                  const Geom &g, const char *what)
{
    const size_t elem = c.in.elem;
    const int kind = c.in.kind;
    const char *fam = f == FWD_PASS ? "forward" : f == INV_PASS ? "inverse" : "fused";
    // kernels exist
    EXPECT(has_levels(elem, g.P, f), "%s %s %s: no kernel of %d levels", c.name, what, fam, g.P);
    const int occ = f == FUSED ? (int)OCC_FREE : pass_occ(elem, g);
    EXPECT(has_occ(elem, g.P, occ), "%s %s %s: no shape %d for %d levels", c.name, what, fam, occ, g.P);
    EXPECT(!g.ct || has_ct(kind, elem, g.P), "%s %s %s: no compact kernel", c.name, what, fam);
    EXPECT(g.cap == 4 || (g.cap == 8 && has_cap8(kind, elem)), "%s %s %s: cap %d", c.name, what, fam,
           g.cap);
    EXPECT(!g.stw || has_stw_kernel(kind, elem, g.P, g.ct, f, occ), "%s %s %s: no staging kernel",
           c.name, what, fam);
    // kernels that build their tile as a bottom pass's
    if (g.ct || g.stw || f == FUSED)
        EXPECT(g.lo == 0 && g.logC == 0, "%s %s %s: lo %d logC %d", c.name, what, fam, g.lo, g.logC);
    // threads
    const int block = pass_block(elem, g, f == FUSED);
    const int bound = f == FUSED ? 512 : pass_max_threads(elem, occ);
    EXPECT(block >= 32 && block <= bound && block % 32 == 0, "%s %s %s: %d threads (bound %d)",
           c.name, what, fam, block, bound);
    // grid: every element in one block
    const size_t gx = pass_grid_x(g);
    EXPECT(gx >= 1 && gx <= 0x7fffffffu, "%s %s %s: grid x %zu", c.name, what, fam, gx);
    EXPECT((gx << (g.logC + g.P)) == (size_t)1 << c.in.logn, "%s %s %s: %zu blocks of 2^%d x 2^%d",
           c.name, what, fam, gx, g.logC, g.P);
    // shared memory
    const size_t smem = pass_smem(elem, g, f == FUSED);
    EXPECT(smem <= kSmemOptin, "%s %s %s: %zu bytes of shared memory", c.name, what, fam, smem);
    EXPECT(smem <= (pg.max_smem > kSmemDefault ? pg.max_smem : kSmemDefault),
           "%s %s %s: %zu bytes, above the plan's %zu", c.name, what, fam, smem, pg.max_smem);
    if (smem > kSmemDefault) {
        const Key k = key_of(elem, f, g);
        bool found = false;
        for (int i = 0; i < nkeys; i++) found = found || keys[i] == k;
        EXPECT(found, "%s %s %s: %zu bytes, limit not raised", c.name, what, fam, smem);
    }
}

void check_plan(const Case &c)
{
    PlanGeometry pg;
    memset(&pg, 0x5a, sizeof pg);
    plan_geometry(c.in, c.t, &pg);
    const size_t elem = c.in.elem;
    check_cover(c, pg.passes, pg.npasses, false);
    check_cover(c, pg.mpasses, pg.nmpasses, true);
    EXPECT(pg.fused.P == pg.mpasses[pg.nmpasses - 1].P && pg.fused.rmax == 3, "%s: fused P %d rmax %d",
           c.name, pg.fused.P, pg.fused.rmax);
    EXPECT(pg.bus0.P == pg.mpasses[0].P && pg.bus0.d0 == 0, "%s: bus0", c.name);
    EXPECT(!pg.rho || (c.in.kind == K_FP64 && pg.passes[pg.npasses - 1].stw), "%s: rho", c.name);
    // A plan whose tiles outgrow the device is refused (NTT_EUNSUPPORTED,
    // cuda_plan.cpp): forced geometries may be; the automatic ones never.
    if (pg.max_smem > kSmemOptin) {
        EXPECT(c.forced, "%s: %zu bytes of shared memory", c.name, pg.max_smem);
        refused++;
        return;
    }
    Key keys[4 * kMaxPasses + 1];
    const int nkeys = prepared(pg, elem, keys);
    for (int s = 0; s < 2; s++)
        for (size_t items : kItems)
            for (int nz = 1; nz <= 2; nz++) {
                for (int inv = 0; inv < 2; inv++) {
                    const Family f = inv ? INV_PASS : FWD_PASS;
                    for (int i = 0; i < pg.npasses && nz == 1; i++)
                        check_launch(c, pg, keys, nkeys, f,
                                     launch_geom(pg, elem, kSms[s], pg.passes[i], items, 1, inv),
                                     "transform");
                    for (int i = 0; i + 1 < pg.nmpasses; i++)
                        check_launch(c, pg, keys, nkeys, f,
                                     launch_geom(pg, elem, kSms[s], pg.mpasses[i], items, nz, inv),
                                     "product");
                    if (pg.nmpasses > 1)
                        check_launch(c, pg, keys, nkeys, f,
                                     launch_geom(pg, elem, kSms[s], pg.bus0, items, nz, inv), "bus0");
                }
                if (nz == 1) check_launch(c, pg, keys, nkeys, FUSED, pg.fused, "product");
            }
}

// Every size, width, kind, range, modulus count and tuning.
void sweep(void)
{
    const int kinds32[] = {K_NAIVE, K_BARRETT, K_MONT, K_SHOUP};
    const int kinds64[] = {K_NAIVE, K_BARRETT, K_MONT, K_SHOUP, K_FP64};
    ntt_cuda_tuning tunings[64];
    int nt = 0;
    ntt_cuda_tuning_default(&tunings[nt++]);
    for (int b = 1; b <= kMaxP; b++) {
        ntt_cuda_tuning_default(&tunings[nt]);
        tunings[nt++].bottom = b;
    }
    for (int lc = 0; lc <= 8; lc++) {
        ntt_cuda_tuning_default(&tunings[nt]);
        tunings[nt++].logc = lc;
    }
    for (int v = 0; v <= 1; v++) {
        ntt_cuda_tuning_default(&tunings[nt]);
        tunings[nt++].stw = v;
        ntt_cuda_tuning_default(&tunings[nt]);
        tunings[nt++].rho = v;
    }
    for (int k : {1, 12, 15, 31}) {
        ntt_cuda_tuning_default(&tunings[nt]);
        tunings[nt++].compact_log = k;
    }
    ntt_cuda_tuning_default(&tunings[nt]);  // the emulator's test_cuda_emu_bottom14
    tunings[nt].bottom = 14;
    tunings[nt++].compact_log = 15;
    for (int w = 0; w < 2; w++) {
        const size_t elem = w ? 8 : 4;
        const int *kinds = w ? kinds64 : kinds32;
        const int nk = w ? 5 : 4;
        for (int ki = 0; ki < nk; ki++)
            for (int cap = 4; cap <= 8; cap += 4) {
                const bool shoup32 = elem == 4 && kinds[ki] == K_SHOUP;
                if (cap == 8 && !shoup32) continue;
                for (int rns = 0; rns < 2; rns++)
                    for (int D = 1; D <= 30; D++)
                        for (int ti = 0; ti < nt; ti++) {
                            Case c;
                            c.in = GeometryInput{D, elem, kinds[ki], shoup32, cap,
                                                 rns ? (size_t)40 : 1, rns ? (size_t)40 : 1,
                                                 rns ? (size_t)50 << 20 : (size_t)1 << 20};
                            c.t = tunings[ti];
                            c.forced = ti > 0;
                            snprintf(c.name, sizeof c.name,
                                     "u%d kind %d cap %d D %d nmod %zu tuning %d", (int)elem * 8,
                                     kinds[ki], cap, D, c.in.nmod, ti);
                            check_plan(c);
                        }
            }
    }
}

// Levels per pass, bottom last.
void expect_levels(const char *what, const Geom *g, int np, std::initializer_list<int> want)
{
    bool ok = (int)want.size() == np;
    int i = 0;
    for (int P : want) ok = ok && i < np && g[i++].P == P;
    char got[64] = "";
    for (int k = 0; k < np; k++)
        snprintf(got + strlen(got), sizeof got - strlen(got), "%s%d", k ? " + " : "", g[k].P);
    EXPECT(ok, "%s: passes of %s levels", what, got);
}

PlanGeometry plan(int D, size_t elem, int kind, const ntt_cuda_tuning &t, size_t nmod = 1,
                  size_t l2 = (size_t)50 << 20)
{
    const bool shoup32 = elem == 4 && kind == K_SHOUP;
    PlanGeometry pg;
    plan_geometry(GeometryInput{D, elem, kind, shoup32, shoup32 ? 8 : 4, nmod, nmod, l2}, t, &pg);
    return pg;
}

// The shapes the design names (docs/ARCHITECTURE.md, GPU pass geometry),
// and the switches' effect.
void anchors(void)
{
    ntt_cuda_tuning d;
    ntt_cuda_tuning_default(&d);
    PlanGeometry pg = plan(16, 4, K_SHOUP, d);
    expect_levels("u32 2^16", pg.passes, pg.npasses, {6, 10});
    pg = plan(18, 4, K_SHOUP, d);
    expect_levels("u32 2^18", pg.passes, pg.npasses, {7, 11});
    EXPECT(pg.passes[0].logC == 4, "u32 2^18: 64-byte column groups, logC %d", pg.passes[0].logC);
    pg = plan(24, 4, K_SHOUP, d);
    expect_levels("u32 2^24", pg.passes, pg.npasses, {10, 14});
    expect_levels("u32 2^24 product", pg.mpasses, pg.nmpasses, {11, 13});
    EXPECT(pg.passes[1].ct && pg.fused.ct, "u32 2^24: compact twiddles");
    pg = plan(26, 4, K_SHOUP, d);
    expect_levels("u32 Shoup 2^26", pg.passes, pg.npasses, {12, 14});
    pg = plan(26, 4, K_MONT, d);
    expect_levels("u32 Montgomery 2^26", pg.passes, pg.npasses, {6, 6, 14});
    pg = plan(22, 8, K_FP64, d);
    expect_levels("u64 2^22", pg.passes, pg.npasses, {10, 12});
    EXPECT(pg.passes[0].logC == 3, "u64 2^22: 64-byte groups, logC %d", pg.passes[0].logC);
    pg = plan(16, 8, K_FP64, d);
    EXPECT(pg.passes[1].stw && !pg.passes[1].ct && !pg.rho, "FP64 2^16: staged tree twiddles");
    pg = plan(16, 8, K_FP64, d, 40);
    EXPECT(pg.rho, "FP64 2^16 over 40 moduli: computed staged twiddles");
    pg = plan(16, 8, K_SHOUP, d, 40);
    EXPECT(!pg.rho, "62-bit 2^16 over 40 moduli: copied staged twiddles");
    // the switches
    ntt_cuda_tuning t = d;
    t.bottom = 14;
    pg = plan(15, 4, K_SHOUP, t);
    expect_levels("u32 2^15, bottom 14", pg.passes, pg.npasses, {1, 14});
    expect_levels("u32 2^15, bottom 14: product", pg.mpasses, pg.nmpasses, {6, 9});
    pg = plan(15, 8, K_SHOUP, t);
    expect_levels("u64 2^15, bottom 14 (ignored)", pg.passes, pg.npasses, {5, 10});
    t.compact_log = 15;
    pg = plan(15, 4, K_SHOUP, t);
    EXPECT(pg.passes[1].ct, "u32 2^15, bottom 14, compact from 2^15");
    t = d;
    t.compact_log = 12;
    pg = plan(12, 4, K_SHOUP, t);
    EXPECT(!pg.passes[1].ct, "u32 2^12, compact from 2^12: 9-level bottom, no compact kernel");
    pg = plan(12, 8, K_FP64, t);
    EXPECT(pg.passes[1].ct && pg.fused.ct, "FP64 2^12, compact from 2^12");
    pg = plan(12, 8, K_FP64, d);
    EXPECT(!pg.passes[1].ct && !pg.fused.ct, "FP64 2^12: no compact twiddles by default");
    t = d;
    t.rho = 1;
    pg = plan(12, 8, K_FP64, t);
    EXPECT(pg.rho, "FP64 2^12, rho forced");
    t.rho = 0;
    pg = plan(16, 8, K_FP64, t, 40);
    EXPECT(!pg.rho, "FP64 2^16 over 40 moduli, rho off");
    t = d;
    t.stw = 0;
    pg = plan(16, 4, K_SHOUP, t);
    EXPECT(!pg.passes[1].stw && !pg.fused.stw, "stw off");
    t.stw = 1;
    pg = plan(20, 8, K_SHOUP, t);
    EXPECT(pg.passes[1].stw, "stw on beyond 16 KiB");
    t = d;
    t.logc = 2;
    pg = plan(16, 4, K_SHOUP, t);
    EXPECT(pg.passes[0].logC == 2 && !pg.widen, "logc 2: logC %d", pg.passes[0].logC);
    pg = plan(16, 4, K_SHOUP, d);
    EXPECT(pg.passes[0].logC == 5 && pg.widen, "default: logC %d", pg.passes[0].logC);
    // u64 batches widen the small passes' groups at launch, single items not
    pg = plan(12, 8, K_FP64, d);
    const Geom wide = launch_geom(pg, 8, 132, pg.passes[0], 640, 1, false);
    const Geom one = launch_geom(pg, 8, 132, pg.passes[0], 1, 1, false);
    EXPECT(wide.logC > pg.passes[0].logC && one.logC == pg.passes[0].logC,
           "u64 2^12 x 640: logC %d, single %d, plan %d", wide.logC, one.logC, pg.passes[0].logC);
}

}  // namespace

int main()
{
    sweep();
    anchors();
    printf("test_cuda_geometry: %lu checks, %lu failed; %lu forced plans refused for their "
           "shared memory\n", checks, failures, refused);
    return failures ? 1 : 0;
}
