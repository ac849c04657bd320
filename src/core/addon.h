/*
 * The add-on seam: the one internal interface through which code outside
 * libntt (the course ladder, src/course) runs transforms of its own behind
 * an ntt_plan, so that the public calls (ntt_forward_*, ntt_polymul_*, the
 * device-pointer ntt_cuda_* where the add-on runs on the GPU, ...) and
 * ntt_polymul_mod's argument checks, schoolbook and CRT paths serve it
 * unchanged.  Not installed (src/include/ntt_internal.h includes it); the
 * three functions are exported from the shared library (their names are
 * not in the public headers) so that an add-on links the shared libntt.
 * An add-on sees a plan only through ntt_addon_plan below, never the
 * plan's layout.
 *
 * Where an add-on runs: on the plan's backend (ntt_addon_plan.backend,
 * which its supports() accepted).  A CUDA add-on runs on the device that
 * is current when the plan is made, as the library's CUDA plans do, with
 * device memory, streams and tables of its own; it offers the
 * device-pointer entry points below.
 */
#ifndef NTT_ADDON_H
#define NTT_ADDON_H

#include "ntt.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* One modulus as the library's tables have it. */
typedef struct ntt_addon_modulus {
    uint64_t p;
    uint64_t root;     /* the plan's root r: order n (cyclic) or 2n (negacyclic);
                          the library's spectra are at the powers this root gives */
    uint64_t root_inv; /* r^-1 mod p */
    uint64_t n_inv;    /* n^-1 mod p */
} ntt_addon_modulus;

/* What an add-on's plan is made for; valid during init only. */
typedef struct ntt_addon_plan {
    size_t n;                     /* a power of two in [2, 2^NTT_MAX_LOG2_N] */
    ntt_width width;
    unsigned flags;               /* NTT_FLAG_* */
    ntt_modmul modmul;            /* as asked: may be DEFAULT */
    int threads;
    size_t batch;                 /* >= 1 */
    ntt_backend backend;          /* never AUTO */
    size_t nmod;
    const ntt_addon_modulus *mod; /* nmod entries; item i of a call uses mod[i % nmod] */
    const void *arg;              /* the add-on's own options (ntt_plan_create_addon) */
} ntt_addon_plan;

/* An add-on's entry points.  The library calls them with validated
   arguments only: non-NULL pointers, the plan's width, count >= 1,
   stride >= n, inputs in [0, p) (the library checks them first).  Data
   pointers are uint32_t* or uint64_t* by the plan's width, except polymul
   with io64, whose arrays hold uint64_t.  polymul writes the first lc
   coefficients of a*b mod (x^n -+ 1), a having la and b lb leading
   coefficients (the rest zero); c may alias a or b exactly. */
typedef struct ntt_addon_ops {
    const char *name;
    /* Whether the add-on runs on backend b (never AUTO) with kind m
       (DEFAULT: the kind it would pick); arg as for init. */
    int (*supports)(ntt_backend b, ntt_modmul m, const void *arg);
    /* Builds the add-on's state for the plan (*state) and the kind it runs
       (*modmul, never DEFAULT); NTT_EUNSUPPORTED exactly where supports()
       says 0; cleans up after itself on failure. */
    ntt_status (*init)(void **state, ntt_modmul *modmul, const ntt_addon_plan *plan);
    void (*free)(void *state);
    ntt_status (*forward)(void *state, void *a, size_t count, size_t stride);
    ntt_status (*inverse)(void *state, void *a, size_t count, size_t stride);
    ntt_status (*pointwise)(void *state, void *c, const void *a, const void *b, size_t count,
                            size_t stride);
    ntt_status (*polymul)(void *state, void *c, size_t lc, const void *a, size_t la,
                          const void *b, size_t lb, size_t count, size_t stride, bool io64);

    /* Device pointers (an add-on on NTT_BACKEND_CUDA; NULL elsewhere, and
       then the ntt_cuda_* calls give NTT_EUNSUPPORTED on its plans): the
       ntt_cuda_*_at calls after their checks (ntt.h: arguments validated,
       values unchecked; item i uses mod[(item0 + i) % nmod]; stream a
       cudaStream_t), enqueued on stream: no copies to or from the host,
       no allocation, no synchronization. */
    ntt_status (*dev_transform)(void *state, void *d_a, size_t count, size_t stride,
                                size_t item0, void *stream, bool inverse);
    ntt_status (*dev_pointwise)(void *state, void *d_c, const void *d_a, const void *d_b,
                                size_t count, size_t stride, size_t item0, void *stream);
    ntt_status (*dev_polymul)(void *state, void *d_c, size_t lc, const void *d_a, size_t la,
                              const void *d_b, size_t lb, size_t count, size_t stride,
                              size_t item0, void *stream);
    /* ntt_cuda_last_error(plan) (NULL: 0); ntt_cuda_last_error(NULL) does not see it. */
    int (*dev_last_error)(const void *state);
} ntt_addon_ops;

/* ntt_plan_create_rns whose calls run the add-on `ops` (with its options
   arg, read during the call only) instead of a backend's kernels.  backend
   (AUTO resolved as for any plan) must be available; ntt_plan_backend
   reports it.  Errors as ntt_plan_create_rns (NTT_EMODULUS, NTT_EINVAL,
   ...), NTT_EINVAL for a NULL ops, and NTT_EUNSUPPORTED where the backend
   is unavailable or ops->supports says 0.  The device-pointer calls
   (ntt_cuda_*) run ops' dev_* entries, NTT_EUNSUPPORTED where ops has
   none.  Allocates the plan and whatever init allocates; ntt_plan_destroy
   frees both. */
NTT_API NTT_NODISCARD ntt_status ntt_plan_create_addon(ntt_plan **plan, size_t n,
                                                       const uint64_t *moduli, size_t count,
                                                       ntt_width width, ntt_backend backend,
                                                       const ntt_plan_options *opts,
                                                       const ntt_addon_ops *ops, const void *arg);

/* The add-on a plan runs, NULL for the library's own plans (and NULL). */
NTT_API const ntt_addon_ops *ntt_plan_addon(const ntt_plan *plan);

/* ntt_polymul_mod_ex whose transforms run the add-on: the same argument
   checks, errors (NTT_EUNSUPPORTED where ops->supports says 0 for the
   resolved backend and opts' kind, decided after the range check as there),
   schoolbook for short inputs and CRT primes; each product makes and
   destroys its plans (the plan cache holds only the library's). */
NTT_API NTT_NODISCARD ntt_status ntt_polymul_mod_addon(uint64_t *c, const uint64_t *a, size_t la,
                                                       const uint64_t *b, size_t lb, uint64_t p,
                                                       ntt_backend backend,
                                                       const ntt_plan_options *opts,
                                                       const ntt_addon_ops *ops, const void *arg);

#ifdef __cplusplus
}
#endif

#endif
