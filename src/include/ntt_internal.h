/*
 * ntt_internal.h: what the in-tree programs (tools/, bench/, tests/) and the
 * add-on libraries (libntt_multigpu) use of libntt beyond its installed
 * headers, in one place (the model is FFTW's kernel/ifftw.h).  Never
 * installed, and nothing here is API: it may change with any commit.
 *
 * The library's modules declare these items here too (core/internal.h and
 * rns/rns_cuda.h include this header), so each has one declaration.  The
 * modules' private headers (core/internal.h, cpu/cpu.h, rns/rns_internal.h,
 * mpi/mpi_internal.h, multigpu/mgpu_internal.h, ...) are for the module's
 * own files; a white-box unit test of one of them (test_arith,
 * test_cuda_geometry, test_cuda_tuning) includes the header of the unit it
 * tests, and nothing else reaches into them.
 *
 * Functions marked NTT_API are exported from the shared library for
 * libntt_multigpu, libntt_mpi and the course add-on (src/course); the
 * others are hidden there and reached by linking the static library
 * (ntt_static, the `ntt_internal` CMake target).  The add-on seam
 * (src/core/addon.h, exported) comes with this header.
 */
#ifndef NTT_INTERNAL_PUBLIC_H
#define NTT_INTERNAL_PUBLIC_H

#include "ntt.h"
#include "ntt_rns.h"
#include "../core/addon.h" /* the add-on seam: ntt_plan_create_addon, ... */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ---- core ------------------------------------------------------------------ */

#if defined(__GNUC__) || defined(__clang__)
#define NTT_PRINTF(f, a) __attribute__((format(printf, f, a)))
#else
#define NTT_PRINTF(f, a)
#endif

/* The error-detail text behind ntt_error_detail (core/detail.c), exported
   for libntt_mpi, which reports through the same thread-local text:
   ntt_fail sets it and returns s; ntt_detail_clear empties it (a call
   that sets a detail on each failure clears it when it starts);
   ntt_fail_backend returns NTT_EUNSUPPORTED saying why backend b cannot be
   used here (not built into this libntt, or the CPU feature or device it
   lacks; core/registry.c, which knows the backends). */
NTT_API ntt_status ntt_fail(ntt_status s, const char *fmt, ...) NTT_PRINTF(2, 3);
NTT_API void ntt_detail_clear(void);
NTT_API ntt_status ntt_fail_backend(ntt_backend b);

/* The default CRT primes of ntt_polymul_mod (polymul_mod.c): the three
   largest primes q < 2^62 with 2^32 | q - 1, largest first. */
extern const uint64_t ntt_crt_primes[3];

/* The CRT primes ntt_polymul_mod_ex(.., la, .., lb, p, backend, opts)
   multiplies over when p goes through CRT: *q the set's primes, returns
   how many it takes (0 where it cannot tell: a backend NTT_BACKEND
   refuses, a plan it could not make).  Planned modes make (or take from
   wisdom and the plan cache) the plans that the choice times.  For
   ntt-bench's planner rows. */
size_t ntt_polymul_mod_crt_pick(size_t la, size_t lb, uint64_t p, ntt_backend backend,
                                const ntt_plan_options *opts, const uint64_t **q);

/* Whether byte ranges [x, x+xbytes) and [y, y+ybytes) share a byte. */
static inline bool ntt_overlaps(const void *x, size_t xbytes, const void *y, size_t ybytes)
{
    const uintptr_t a = (uintptr_t)x, b = (uintptr_t)y;
    return a < b + ybytes && b < a + xbytes;
}

/* The available serial CPU backend of highest AUTO priority in the backend
   registry (registry.c; AVX-512, else AVX2, else scalar): what AUTO resolves
   to without NTT_BACKEND in the environment, and the kernels OPENMP runs.
   The benchmarks' single-thread rows ask it rather than order the ISAs
   themselves. */
ntt_backend ntt_backend_best_cpu(void);

/* ---- cpu ------------------------------------------------------------------- */

/* Whether plans created from now on may run the AVX-512 IFMA u64 kernels
   where the CPU has them (default yes).  Off, they run the FP64 kernels as
   on a CPU without IFMA: the tests check both, and the bench times both in
   one process.  Plans already made (and cached) keep their kernels. */
void ntt_cpu_use_ifma(bool on);
bool ntt_cpu_ifma_enabled(void);

/* ---- rns on CUDA (rns/rns_cuda_*.cpp) ------------------------------------- */

/* Which element-wise work the stages fuse; the default is RNS_FUSE_ALL.
   Each unfused form gives the same words with more passes over memory:
     CONV   base conversion reading each source limb once per coefficient
            and group of targets, its scaled residues kept in shared
            memory; unfused: a pass writing the scaled sources, then one
            thread per target and coefficient reading all of them.
     INNER  the inner product over all digits of a limb in one pass;
            unfused: one multiply-accumulate pass per digit.
     SUBC   (x - t) w in one kernel (modDown, rescale); unfused: a
            subtraction pass, then a multiplication pass.
   RNS_NTT_ONLY (with any of them) leaves out every element-wise kernel
   and copy, so that a stage runs its transforms alone (wrong words: for
   timing the transforms' share of a stage).  ntt-bench and the tests
   compare the fused work against the unfused with it. */
enum {
    RNS_FUSE_CONV = 2,
    RNS_FUSE_INNER = 4,
    RNS_FUSE_SUBC = 8,
    RNS_FUSE_ALL = 14,
    RNS_NTT_ONLY = 16
};
/* NTT_EINVAL for a mask with other bits or a context that is not CUDA. */
ntt_status ntt_rns_cuda_set_fusion(ntt_rns *c, unsigned mask);

/* The RNS context's threads (src/pool), NULL for one thread: the CKKS
   module runs its element-wise loops on them. */
struct ntt_pool *ntt_rns_pool(const ntt_rns *c);

/*
 * The key switch's pieces on a window of an extended polynomial's rows, for
 * libntt_multigpu's key switch with the limbs partitioned across GPUs
 * (ntt_multigpu.h, src/multigpu/ks_*.c): exported from the shared library
 * for it.  ntt_rns_cuda_keyswitch is made of the same pieces on the window
 * of every row, so both give the same words.  On a CUDA context, at level
 * l; arguments are not checked (the caller checks its own); the work is
 * enqueued on the stream, as the ntt_rns_cuda_* calls'.
 *
 * A window holds the Q limbs q0 .. q0+qn-1 (all <= l), then the P limbs
 * p_{p0} .. p_{p0+pn-1}: qn + pn rows of N words, "w's rows" below.
 */
typedef struct ntt_rns_win {
    size_t q0, qn, p0, pn;
} ntt_rns_win;
/* count rows at d, of the consecutive limbs first .. first+count-1 (context
   numbering: Q, then P from L+1), transformed in place. */
NTT_API ntt_status ntt_rns_cuda_win_transform(ntt_rns *c, size_t first, size_t count, uint64_t *d,
                                              void *stream, bool inverse);
/* modUp of digit j on w's rows: digit holds the digit's limbs (coefficient
   form); each row of w outside the digit is converted from it and
   transformed, into dst (w's rows; the rows of the digit's own limbs are
   not written). */
NTT_API ntt_status ntt_rns_cuda_win_modup(ntt_rns *c, size_t l, size_t j, const uint64_t *digit,
                                          ntt_rns_win w, uint64_t *dst, void *stream);
/* The inner product on w's rows: ext holds beta(l) blocks of w's rows
   (digit j's block j, from win_modup), own the input's rows of w's Q limbs
   (evaluation form; the digits' own rows are read there), key 2 dnum
   polynomials of key_q + w.pn rows (ntt_rns.h's order of digits and
   components; in each, the rows of w's Q limbs first, then from row key_q
   the rows of w's P limbs).  The sums' Q rows go to out0, out1, their P
   rows to p0, p1.  Only w's rows r0 .. r0+count-1 (Q rows first, then P
   rows; r0 + count <= qn + pn) are computed, so that the P rows can be
   done first (their gather then runs during the Q rows'). */
NTT_API ntt_status ntt_rns_cuda_win_inner(ntt_rns *c, size_t l, ntt_rns_win w, size_t r0,
                                          size_t count, const uint64_t *ext, const uint64_t *own,
                                          const uint64_t *key, size_t key_q, uint64_t *out0,
                                          uint64_t *out1, uint64_t *p0, uint64_t *p1,
                                          void *stream);
/* modDown of both sums on w's Q limbs (w.p0, w.pn unused): pp holds every
   P row of the two sums in coefficient form (sum 1's K rows after sum
   0's); out0, out1 the sums' rows of w's Q limbs (evaluation form),
   replaced by the results.  Uses the context's scratch. */
NTT_API ntt_status ntt_rns_cuda_win_moddown(ntt_rns *c, ntt_rns_win w, const uint64_t *pp,
                                            uint64_t *out0, uint64_t *out1, void *stream);

/*
 * The key switch in three phases, for the CKKS module's rotations
 * (src/ckks): one raise shared by several inner products (hoisting), each
 * reading its terms through an automorphism, the sums either modDowned
 * one by one or accumulated and modDowned once.  On a CUDA context at
 * level l, arguments unchecked, enqueued on the stream; the words are
 * those of the public stage calls (ntt_rns_cuda_modup of every digit,
 * the permutation of ntt_ckks_automorphism, ntt_rns_cuda_ks_inner, modular
 * sums, ntt_rns_cuda_moddown).
 *   raise: in's q = l+1 rows (evaluation form) decomposed and raised:
 *     digit j's e = q+K rows at ext + j e N, its own rows copied from in.
 *   inner_perm: the inner product of the raised digits, term k read at
 *     the automorphism's source pi(k) (g = 0: k), with the key (the
 *     layout of ntt_rns.h); the sums' Q rows into out0, out1 and their P
 *     rows into the context's scratch PP, or, with accumulate, added to
 *     what out0, out1 and PP hold.
 *   moddown_pp: modDown of the two sums left by inner_perm (Q rows in
 *     out0, out1, P rows in PP), in place; both in one pass when out1
 *     lies after out0.
 * Nothing but these calls may use the context between an inner_perm and
 * its moddown_pp (PP is the context's scratch). */
NTT_API ntt_status ntt_rns_cuda_ks_raise(ntt_rns *c, size_t l, const uint64_t *in, uint64_t *ext,
                                         void *stream);
NTT_API ntt_status ntt_rns_cuda_ks_inner_perm(ntt_rns *c, size_t l, const uint64_t *ext,
                                              const uint64_t *key, uint64_t g, bool accumulate,
                                              uint64_t *out0, uint64_t *out1, void *stream);
NTT_API ntt_status ntt_rns_cuda_ks_moddown_pp(ntt_rns *c, size_t l, uint64_t *out0, uint64_t *out1,
                                              void *stream);

#ifdef __cplusplus
}
#endif

#endif /* NTT_INTERNAL_PUBLIC_H */
