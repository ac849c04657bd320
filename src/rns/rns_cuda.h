/*
 * The CUDA side of an RNS context (ntt_rns.h, contexts made with
 * NTT_BACKEND_CUDA): what the C files (context.c, cuda_api.c) call.  Not
 * installed.
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
#include "../include/ntt_internal.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The fusion switch (RNS_FUSE_*, ntt_rns_cuda_set_fusion) and the key
   switch's window pieces (ntt_rns_win, ntt_rns_cuda_win_*) are declared in
   ntt_internal.h, for ntt-bench, the tests and libntt_multigpu. */

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
