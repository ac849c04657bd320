/*
 * The CUDA side of an RNS context (ntt_rns.h, contexts made with
 * NTT_BACKEND_CUDA): what the C files (context.c, cuda_api.c) call, and the
 * fusion switch that ntt-bench and the tests use to compare the fused
 * element-wise work against the unfused.  Not installed.
 *
 *   rns_cuda_dev.h        the device state and the kernels' launches (C++)
 *   rns_cuda_setup.cpp    the device state: the batched plans, constants,
 *                         scratch
 *   rns_cuda_stages.cpp   the stages as transforms and kernel launches
 *   rns_cuda_kernels.cu   the element-wise kernels and their launches
 *   cuda_api.c            the public ntt_rns_cuda_* calls: checks, then here
 */
#ifndef NTT_RNS_CUDA_H
#define NTT_RNS_CUDA_H

#include "rns_internal.h"

#ifdef __cplusplus
extern "C" {
#endif

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
   timing the transforms' share of a stage). */
enum {
    RNS_FUSE_CONV = 2,
    RNS_FUSE_INNER = 4,
    RNS_FUSE_SUBC = 8,
    RNS_FUSE_ALL = 14,
    RNS_NTT_ONLY = 16
};
/* NTT_EINVAL for a mask with other bits or a context that is not CUDA. */
ntt_status ntt_rns_cuda_set_fusion(ntt_rns *c, unsigned mask);

/*
 * The key switch's pieces on a window of an extended polynomial's rows, for
 * libntt_multigpu's key switch with the limbs partitioned across GPUs
 * (ntt_multigpu.h, src/multigpu/ks_*.c): exported from the shared library
 * for it, not part of the API (this header is not installed).
 * ntt_rns_cuda_keyswitch is made of the same pieces on the window of every
 * row, so both give the same words.  On a CUDA context, at level l;
 * arguments are not checked (the caller checks its own); the work is
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

#ifdef NTT_HAVE_CUDA
/* rns_cuda_setup.cpp: c's constants and primes are made; sets c->dev. */
ntt_status ntt_rns_cuda_init(ntt_rns *c);
void ntt_rns_cuda_free(ntt_rns *c);

/* rns_cuda_stages.cpp: the calls' work, arguments checked (cuda_api.c). */
ntt_status ntt_rns_cuda_do_transform(ntt_rns *c, const size_t *limbs, size_t count, uint64_t *d,
                                     void *stream, bool inverse);
ntt_status ntt_rns_cuda_do_fastbconv(ntt_rns *c, const size_t *from, size_t s, const uint64_t *in,
                                     const size_t *to, size_t t, uint64_t *out, void *stream);
ntt_status ntt_rns_cuda_do_modup(ntt_rns *c, size_t l, size_t j, const uint64_t *in,
                                 uint64_t *out, void *stream);
ntt_status ntt_rns_cuda_do_moddown(ntt_rns *c, size_t l, const uint64_t *in, uint64_t *out,
                                   void *stream);
ntt_status ntt_rns_cuda_do_rescale(ntt_rns *c, size_t l, const uint64_t *in, uint64_t *out,
                                   void *stream);
ntt_status ntt_rns_cuda_do_inner(ntt_rns *c, size_t l, const uint64_t *ext, const uint64_t *key,
                                 uint64_t *acc0, uint64_t *acc1, void *stream);
ntt_status ntt_rns_cuda_do_keyswitch(ntt_rns *c, size_t l, const uint64_t *in,
                                     const uint64_t *key, uint64_t *out0, uint64_t *out1,
                                     void *stream);
int ntt_rns_cuda_error(const ntt_rns *c);
#endif

#ifdef __cplusplus
}
#endif

#endif /* NTT_RNS_CUDA_H */
