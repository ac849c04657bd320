/* The public device-pointer calls of the RNS module (ntt_rns_cuda_*,
   ntt_rns.h): the argument checks shared with the host forms (args.c),
   then the CUDA side (rns_cuda_stages.cpp).  Built with or without CUDA,
   so that callers link either way and learn NTT_EUNSUPPORTED at run
   time. */
#include "rns_cuda.h"

/* A CUDA context with its device state. */
static bool cuda_ctx(const ntt_rns *c)
{
#ifdef NTT_HAVE_CUDA
    return c && c->backend == NTT_BACKEND_CUDA && c->dev;
#else
    (void)c;
    return false;
#endif
}

/* The shared checks first, so that bad arguments give NTT_EINVAL on any
   context; then whether the context runs on the device. */
#define DEV_CHECK(args)                                  \
    do {                                                 \
        const ntt_status s_ = (args);                    \
        if (s_ != NTT_OK) return s_;                     \
        if (!cuda_ctx(c)) return NTT_EUNSUPPORTED;       \
    } while (0)

#ifdef NTT_HAVE_CUDA
#define DEV_CALL(x) return (x)
#else
#define DEV_CALL(x) return ((void)stream, NTT_EUNSUPPORTED)
#endif

ntt_status ntt_rns_cuda_forward(ntt_rns *c, size_t n, const size_t *limbs, size_t count,
                                uint64_t *d_a, ntt_cuda_stream stream)
{
    DEV_CHECK(ntt_rns_args_transform(c, n, limbs, count, d_a));
    DEV_CALL(ntt_rns_cuda_do_transform(c, limbs, count, d_a, stream, false));
}

ntt_status ntt_rns_cuda_inverse(ntt_rns *c, size_t n, const size_t *limbs, size_t count,
                                uint64_t *d_a, ntt_cuda_stream stream)
{
    DEV_CHECK(ntt_rns_args_transform(c, n, limbs, count, d_a));
    DEV_CALL(ntt_rns_cuda_do_transform(c, limbs, count, d_a, stream, true));
}

ntt_status ntt_rns_cuda_fastbconv(ntt_rns *c, size_t n, const size_t *from, size_t from_count,
                                  const uint64_t *d_in, const size_t *to, size_t to_count,
                                  uint64_t *d_out, ntt_cuda_stream stream)
{
    DEV_CHECK(ntt_rns_args_fastbconv(c, n, from, from_count, d_in, to, to_count, d_out));
    DEV_CALL(ntt_rns_cuda_do_fastbconv(c, from, from_count, d_in, to, to_count, d_out, stream));
}

ntt_status ntt_rns_cuda_modup(ntt_rns *c, size_t n, size_t level, size_t digit,
                              const uint64_t *d_in, size_t in_limbs, uint64_t *d_out,
                              size_t out_limbs, ntt_cuda_stream stream)
{
    DEV_CHECK(ntt_rns_args_modup(c, n, level, digit, d_in, in_limbs, d_out, out_limbs));
    DEV_CALL(ntt_rns_cuda_do_modup(c, level, digit, d_in, d_out, stream));
}

ntt_status ntt_rns_cuda_moddown(ntt_rns *c, size_t n, size_t level, const uint64_t *d_in,
                                size_t in_limbs, uint64_t *d_out, size_t out_limbs,
                                ntt_cuda_stream stream)
{
    DEV_CHECK(ntt_rns_args_moddown(c, n, level, d_in, in_limbs, d_out, out_limbs));
    DEV_CALL(ntt_rns_cuda_do_moddown(c, level, d_in, d_out, stream));
}

ntt_status ntt_rns_cuda_rescale(ntt_rns *c, size_t n, size_t level, const uint64_t *d_in,
                                size_t in_limbs, uint64_t *d_out, size_t out_limbs,
                                ntt_cuda_stream stream)
{
    DEV_CHECK(ntt_rns_args_rescale(c, n, level, d_in, in_limbs, d_out, out_limbs));
    DEV_CALL(ntt_rns_cuda_do_rescale(c, level, d_in, d_out, stream));
}

ntt_status ntt_rns_cuda_ks_inner(ntt_rns *c, size_t n, size_t level, const uint64_t *d_ext,
                                 size_t ext_limbs, const uint64_t *d_key, size_t key_limbs,
                                 uint64_t *d_acc0, uint64_t *d_acc1, size_t acc_limbs,
                                 ntt_cuda_stream stream)
{
    DEV_CHECK(ntt_rns_args_inner(c, n, level, d_ext, ext_limbs, d_key, key_limbs, d_acc0, d_acc1,
                                 acc_limbs));
    DEV_CALL(ntt_rns_cuda_do_inner(c, level, d_ext, d_key, d_acc0, d_acc1, stream));
}

ntt_status ntt_rns_cuda_keyswitch(ntt_rns *c, size_t n, size_t level, const uint64_t *d_in,
                                  size_t in_limbs, const uint64_t *d_key, size_t key_limbs,
                                  uint64_t *d_out0, uint64_t *d_out1, size_t out_limbs,
                                  ntt_cuda_stream stream)
{
    DEV_CHECK(ntt_rns_args_keyswitch(c, n, level, d_in, in_limbs, d_key, key_limbs, d_out0,
                                     d_out1, out_limbs));
    DEV_CALL(ntt_rns_cuda_do_keyswitch(c, level, d_in, d_key, d_out0, d_out1, stream));
}

int ntt_rns_cuda_last_error(const ntt_rns *c)
{
#ifdef NTT_HAVE_CUDA
    return cuda_ctx(c) ? ntt_rns_cuda_error(c) : 0;
#else
    (void)c;
    return 0;
#endif
}

#ifndef NTT_HAVE_CUDA
ntt_status ntt_rns_cuda_set_fusion(ntt_rns *c, unsigned mask)
{
    (void)c;
    (void)mask;
    return NTT_EINVAL; /* no context is a CUDA one in this build */
}
#endif
