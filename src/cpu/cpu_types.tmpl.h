/*
 * TEMPLATE cpu_types.tmpl.h, instantiated by cpu.h once per element width.
 *
 * Expects  T     element type (uint32_t / uint64_t);
 *          SFX   name suffix macro (SFX(x) is x##_u32 / x##_u64).
 * Defines  the types SFX(tw), SFX(cst), SFX(mod), SFX(kern) (mod_u32,
 *          kern_u64, ...) and declares the width's entry points of
 *          scalar.tmpl.h and cpu.tmpl.h (SFX(ntt_scalar_kernels),
 *          SFX(ntt_cpu_*)); no macros.
 *
 * Width-generic types and entry points shared by the CPU backends.  A
 * kernel table (kern) is one instruction set's implementation of the
 * building blocks for one modmul kind; the depth-first drivers (cpu.c) and
 * the threaded ones (openmp.c) only call kernels through it, so every CPU
 * backend shares the traversal, the tables and the item-level logic.
 */

/* A twiddle with its kind-specific companion: the Shoup quotient, or the
   Montgomery form w*R mod p. */
typedef struct { T w, x; } SFX(tw);

/* Arithmetic constants.  Kernels copy them into a local (by value) so that
   stores to the data, which may alias any T in memory, do not force the
   compiler to reload them. */
typedef struct {
    T p, p2;          /* p, 2p */
    T pinv;           /* -p^-1 mod R */
    uint64_t mu;      /* Barrett */
    unsigned k;
} SFX(cst);

struct SFX(kern);

/* One modulus of a plan, as the CPU kernels see it. */
typedef struct SFX(mod) {
    SFX(cst) c;
    /* Tree-order tables, index 1..n-1: values and companions. */
    T *fw, *fwx, *iw, *iwx;
    SFX(tw) s_inv, s1_inv;   /* n^-1 and winv[1]*n^-1: ntt_inverse */
    SFX(tw) s_mul, s1_mul;   /* the same times F^-1: polymul (see mul2) */
    SFX(tw) fix;             /* F^-1: public pointwise */
    SFX(tw) one;             /* 1: polymul's root scale after load_top_scaled */
    SFX(tw) s_mul_w2, s_mul_w3; /* s_mul w[2], s_mul w[3] (n >= 4): load_top_scaled's
                                   level of nodes 2, 3, made once per plan */
    bool cyclic;             /* node 2^k has twiddle 1 */
    const struct SFX(kern) *K; /* the kernels that run this modulus */
} SFX(mod);

/*
 * Ranges: forward values live in [0, 4p), inverse values in [0, 2p).
 * Node numbering is the tree order of internal.h.
 */
typedef struct SFX(kern) {
    /* Length of the blocks that fwd_small / inv_small finish alone; the
       drivers split larger blocks with radix-4 passes. */
    size_t block;
    /* Two forward levels (node i; nodes 2i, 2i+1) on a block whose quarters
       start q apart, for the positions j in [0, cnt) of each quarter.
       fwd4one: the same when node i's twiddle is 1. */
    void (*fwd4)(T *a, size_t q, size_t cnt, size_t i, const SFX(mod) *M);
    void (*fwd4one)(T *a, size_t q, size_t cnt, size_t i, const SFX(mod) *M);
    /* One forward level (node i) over halves h apart, positions [0, cnt). */
    void (*fwd2)(T *a, size_t h, size_t cnt, size_t i, const SFX(mod) *M);
    void (*inv2)(T *a, size_t h, size_t cnt, size_t i, const SFX(mod) *M);
    /* The whole forward subtree of node i on a block of length L <= block.
       The _p forms leave (and inv_small_p takes) the spectrum in the
       kernels' own order, a fixed permutation inside small blocks: only the
       polymul path uses them, where the pointwise product does not care
       about order. */
    void (*fwd_small)(T *a, size_t L, size_t i, const SFX(mod) *M);
    void (*fwd_small_p)(T *a, size_t L, size_t i, const SFX(mod) *M);
    void (*inv4)(T *a, size_t q, size_t cnt, size_t i, const SFX(mod) *M);
    void (*inv4one)(T *a, size_t q, size_t cnt, size_t i, const SFX(mod) *M);
    void (*inv_small)(T *a, size_t L, size_t i, const SFX(mod) *M);
    void (*inv_small_p)(T *a, size_t L, size_t i, const SFX(mod) *M);
    /* The inverse root level(s) (one when log2 n is odd, else two) times the
       scale s (s1 = s * winv[1] for the upper half), fully reduced into
       out[0 .. lc) (T, or uint64_t for inv_root64); only the positions j in
       [j0, j1) of the root's span (n/2 or n/4, see ntt_cpu_root_span). */
    void (*inv_root)(T *a, void *out, size_t n, size_t lc, size_t j0, size_t j1, SFX(tw) s,
                     SFX(tw) s1, const SFX(mod) *M);
    void (*inv_root64)(T *a, void *out, size_t n, size_t lc, size_t j0, size_t j1, SFX(tw) s,
                       SFX(tw) s1, const SFX(mod) *M);
    /* Optional (NULL: fwd_small_p on both, pointwise, inv_small_p): on a
       leaf block (L <= block) of subtree i, b <- the inverse subtree of the
       product of the forward subtrees of a and b (values [0, 4p) in);
       leaves [0, 2p) in b for the levels above and a in no useful state. */
    void (*mul_small)(T *b, T *a, size_t L, size_t i, const SFX(mod) *M);
    /* Optional: ntt_cpu_load_top (which it may call for cases it does not
       speed up), with its range check. */
    bool (*load_top)(T *dst, const void *src, bool src64, size_t len, size_t n, size_t j0,
                     size_t j1, const SFX(mod) *M);
    /* Optional: load_top for len <= n/2, the values multiplied by s_mul on
       the way.  Polymul loads one operand of a cyclic product so and gives
       the root kernel scale one: a multiplication per input of the
       half-length operand instead of one per output.  Returns whether an
       input is >= p, as load_top. */
    bool (*load_top_scaled)(T *dst, const void *src, bool src64, size_t len, size_t n, size_t j0,
                            size_t j1, const SFX(mod) *M);
    /* Lazy product for polymul: a, b in [0, 4p) -> a*b*F in [0, 2p). */
    void (*pointwise)(T *c, const T *a, const T *b, size_t len, const SFX(mod) *M);
    /* Public product: a, b in [0, p) -> a*b in [0, p). */
    void (*pointwise_full)(T *c, const T *a, const T *b, size_t len, const SFX(mod) *M);
    /* Optional (NULL: a range-check pass of its own, then pointwise_full,
       chunk by chunk): pointwise_full with the range check in the same
       pass, over all len elements; returns whether an input is >= p, and
       then c[i] is untouched wherever a[i] or b[i] is (see ntt_pointwise). */
    bool (*pointwise_checked)(T *c, const T *a, const T *b, size_t len, const SFX(mod) *M);
    /* [0, 4p) -> [0, p). */
    void (*reduce)(T *a, size_t len, const SFX(mod) *M);
    /* Optional: converts len public values ([0, p)) in place into the
       kernels' own representation, before a transform reads them (the
       kernels' outputs, reduce and inv_root, are public values again). */
    void (*to_internal)(T *a, size_t len, const SFX(mod) *M);
    /* Optional: rearranges the plan's tree-order tables (n >= min_n) into
       the order and form these kernels read them. */
    void (*arrange)(SFX(mod) *M, size_t n);
    /* Smallest plan size these kernels take; smaller plans run the scalar
       kernels of the same kind. */
    size_t min_n;
    /* The kernel family, as ntt_plan_choice reports it ("scalar", "u32x8",
       "fp64x4", "ifma", ...). */
    const char *name;
} SFX(kern);

/* ---- scalar.c: the portable kernels ---- */
const SFX(kern) *SFX(ntt_scalar_kernels)(ntt_modmul kind);

/* ---- cpu.c: tables and drivers ---- */
ntt_status SFX(ntt_cpu_mod_init)(SFX(mod) *M, const ntt_modulus *cm, size_t n, ntt_modmul kind);
void SFX(ntt_cpu_mod_free)(SFX(mod) *M);
/* Depth-first forward subtree of node i on a[0 .. L), values [0, 4p);
   perm: the kernels' own spectrum order (see fwd_small_p). */
void SFX(ntt_cpu_fwd_tree)(T *a, size_t L, size_t i, const SFX(mod) *M, bool perm);
void SFX(ntt_cpu_inv_tree)(T *a, size_t L, size_t i, const SFX(mod) *M, bool perm);
/* Radix-4 steps the drivers take in one sweep over a block of L (1, 2 or
   3: the block is then 4, 16 or 64 parts), and the columns of its chunks. */
unsigned SFX(ntt_cpu_sweep_steps)(const SFX(mod) *M, size_t L);
size_t SFX(ntt_cpu_sweep_cols)(size_t L, unsigned k);
/* k forward (inverse) radix-4 steps of node i's block a[0 .. L), seen as
   4^k rows of L/4^k, on the columns [j0, j0 + c): those elements meet only
   each other in these 2k levels, so chunks of columns are independent. */
void SFX(ntt_cpu_fwd_cols)(T *a, size_t L, size_t i, unsigned k, size_t j0, size_t c,
                           const SFX(mod) *M);
void SFX(ntt_cpu_inv_cols)(T *a, size_t L, size_t i, unsigned k, size_t j0, size_t c,
                           const SFX(mod) *M);
/* dst <- src (len <= n values, zero above; uint64_t when src64, else T),
   then the forward levels of the inverse root kernel's nodes (1, and 2, 3
   when log2 n is even), for the positions [j0, j1) of the root span (see
   ntt_cpu_root_span; j0, j1 multiples of 16 or the span's end).  When
   len <= n/2 the root level has a zero upper half: a copy into both.
   Returns whether a value it read is >= p (a 64-bit value when src64):
   over the whole span that is every input, so a product checks its
   operands on the way in instead of in a pass of its own. */
bool SFX(ntt_cpu_load_top)(T *dst, const void *src, bool src64, size_t len, size_t n, size_t j0,
                           size_t j1, const SFX(mod) *M);
/* The product's subtree of node i, depth first: the forward subtrees of a
   and b (values [0, 4p) in), their pointwise product and the inverse
   subtree into b ([0, 2p) out); leaf by leaf, so that a's spectrum and the
   leaf's twiddles are still in cache for b.  b == a squares; otherwise a is
   scratch (see kern.mul_small). */
void SFX(ntt_cpu_fused_tree)(T *b, T *a, size_t L, size_t i, const SFX(mod) *M);
/* Whether a product of two operands (two: b is not a) loads a, of length
   la, with kern.load_top_scaled and s_mul, and so scales its output by one. */
bool SFX(ntt_cpu_prescale)(const SFX(mod) *M, bool two, size_t la, size_t n);
/* The positions [j0, j1) of the root span loaded as ntt_cpu_load_top does,
   by the kernels' load_top where they have one, or, when scaled (only where
   ntt_cpu_prescale says so), times s_mul on the way by
   kern.load_top_scaled.  Returns whether an input is >= p. */
bool SFX(ntt_cpu_load_part)(T *dst, const void *src, bool src64, size_t len, size_t n, size_t j0,
                            size_t j1, bool scaled, const SFX(mod) *M);
/* Inverse of the whole array except the root level(s) that inv_root does;
   perm: the input is in the kernels' own order. */
void SFX(ntt_cpu_inv_below_root)(T *a, size_t n, const SFX(mod) *M, bool perm);
/* Serial item-level operations (M is the item's modulus). */
void SFX(ntt_cpu_forward_item)(const ntt_plan *plan, T *a, const SFX(mod) *M);
void SFX(ntt_cpu_inverse_item)(const ntt_plan *plan, T *a, const SFX(mod) *M);
/* c = a * b, checking a and b chunk by chunk just before the chunk's
   product (ntt_backend_ops.pointwise_checks_inputs): NTT_ERANGE, with the
   chunks from the offending one on untouched, when an input is >= p. */
ntt_status SFX(ntt_cpu_pointwise_item)(const ntt_plan *plan, T *c, const T *a, const T *b,
                                       const SFX(mod) *M);
/* c[0..lc) = a * b mod (x^n -+ 1); io64: the arrays are uint64_t; ws holds
   2n elements.  NTT_ERANGE, c untouched, when an input is >= p. */
ntt_status SFX(ntt_cpu_polymul_item)(const ntt_plan *plan, void *c, size_t lc, const void *a,
                                     size_t la, const void *b, size_t lb, bool io64,
                                     const SFX(mod) *M, T *ws);
void SFX(ntt_cpu_bitrev_permute)(T *a, size_t n);
