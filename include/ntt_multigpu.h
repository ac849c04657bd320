/*
 * ntt_multigpu.h - transforms and products on several GPUs through NCCL
 * (libntt_multigpu, built where CUDA and NCCL are found; libntt itself
 * never needs NCCL).
 *
 * A context (ntt_mgpu_ctx) is a set of GPUs joined by NCCL: either the
 * devices of one process (ntt_mgpu_create, ncclCommInitAll), or one GPU per
 * process of an MPI communicator (ntt_mgpu_create_mpi in
 * ntt_multigpu_mpi.h), or both at once in general.  Every GPU of the
 * context has a global index g in [0, ntt_mgpu_info.gpus); this process
 * drives the `local` GPUs first_gpu .. first_gpu + local - 1, each on its own
 * stream (ntt_mgpu_stream).  All the calls below are the same code for both
 * kinds of context.
 *
 * Three kinds of work:
 *  - Batches (ntt_mgpu_plan): `count` independent items (a batch, or the
 *    limbs of an RNS polynomial: item i uses modulus i % moduli) split into
 *    contiguous ranges, one per GPU: GPU g holds items
 *    [ntt_mgpu_range(count, g).first, ... + .count) (floor(count g / G) ..,
 *    so ranges differ by at most one item and GPUs beyond `count` get none).
 *    No communication: each GPU runs its range, with the moduli of those
 *    items.  Results are bit-identical to one GPU (and to the CPU).
 *  - One large transform (ntt_mgpu_large): the four-step split of
 *    include/ntt_mpi.h, with one exchange (grouped ncclSend/ncclRecv, an
 *    all-to-all, or within one process peer copies) per transform.
 *  - The hybrid key switch of ntt_rns.h with the RNS limbs partitioned
 *    (ntt_mgpu_ks): each GPU owns a share of the limbs of Q and of P; the
 *    digits and the P parts are gathered with grouped ncclSend/ncclRecv
 *    or, within one process, peer copies (ntt_mgpu_set_copy).
 *
 * Conventions (as ntt.h unless said otherwise):
 *  - Every function returns an ntt_status (NTT_OK is 0); nothing prints,
 *    aborts or exits; arguments are validated before anything is written.
 *  - Per-GPU arrays: an argument `TY *const *d_x` is an array of `local`
 *    device pointers, d_x[l] on the process's l-th GPU (global index
 *    first_gpu + l).  A GPU whose share is empty may have a NULL pointer.
 *  - Errors: NTT_EINVAL (NULL or bad arguments), NTT_EUNSUPPORTED (no
 *    CUDA, no NCCL or no GPU), NTT_ENOMEM, NTT_EBACKEND (a CUDA or NCCL call
 *    failed; ntt_mgpu_last_error tells which).
 *  - NVLink multicast (NVLS) is not used: set NCCL_NVLS_ENABLE=0 in the
 *    environment before the first context is made (the library does not
 *    change the caller's environment).
 *  - The calls restore the calling thread's current CUDA device.
 *  - A context and its plans may be used by one thread at a time.
 */
#ifndef NTT_MULTIGPU_H
#define NTT_MULTIGPU_H

#include "ntt.h"
#include "ntt_rns.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Most GPUs one process drives. */
#define NTT_MGPU_MAX_LOCAL 16

typedef struct ntt_mgpu_ctx ntt_mgpu_ctx;

typedef struct ntt_mgpu_info {
    int gpus;       /* GPUs of the context, all processes */
    int local;      /* GPUs this process drives */
    int first_gpu;  /* global index of this process's first GPU */
    int processes;  /* 1, or the MPI communicator's size */
    int devices[NTT_MGPU_MAX_LOCAL]; /* CUDA device ids of the local GPUs */
    int nccl_version; /* ncclGetVersion's code */
    int peer_copies;  /* 1: gathers and exchanges are peer copies (ntt_mgpu_set_copy) */
} ntt_mgpu_info;

/* A context over the CUDA devices devices[0 .. count-1] of this process
   (distinct ids in [0, cudaGetDeviceCount)); devices NULL with count 0
   means every visible device.  One stream per device (non-blocking), NCCL
   communicators through ncclCommInitAll.  *ctx is NULL on failure.
   Errors: NTT_EINVAL (ctx NULL, count < 0 or > NTT_MGPU_MAX_LOCAL, count 0
   with devices not NULL, an id out of range or repeated), NTT_EUNSUPPORTED
   (no GPU, or a build without multi-GPU support), NTT_ENOMEM, NTT_EBACKEND.
   With two GPUs or more it also turns on CUDA peer access between every
   pair of them where the system allows (cudaDeviceEnablePeerAccess; access
   already on is fine), and leaves it on at destroy: it is process-wide,
   and other code of the process may rely on it. */
NTT_API NTT_NODISCARD ntt_status ntt_mgpu_create(ntt_mgpu_ctx **ctx, const int *devices,
                                                 int count);
/* Frees the context's streams and communicators.  Plans made on it must
   be destroyed first.  NULL is ignored. */
NTT_API void ntt_mgpu_destroy(ntt_mgpu_ctx *ctx);
NTT_API NTT_NODISCARD ntt_status ntt_mgpu_get_info(const ntt_mgpu_ctx *ctx, ntt_mgpu_info *info);
/* The stream of local GPU l (a cudaStream_t), on which the device-pointer
   calls enqueue their work; NULL for a bad l. */
NTT_API ntt_cuda_stream ntt_mgpu_stream(const ntt_mgpu_ctx *ctx, int l);
/* Waits for every local GPU's stream.  Errors: NTT_EINVAL, NTT_EBACKEND
   (an asynchronous failure of earlier work). */
NTT_API NTT_NODISCARD ntt_status ntt_mgpu_sync(ntt_mgpu_ctx *ctx);
/* The CUDA error (cudaError_t) or, with 1 << 16 added, the NCCL result
   (ncclResult_t) behind the context's last NTT_EBACKEND; 0 if none. */
NTT_API int ntt_mgpu_last_error(const ntt_mgpu_ctx *ctx);

/* How the key switch's gathers and the four-step's exchange move data
   between the GPUs of a context.
   Within one process a GPU can copy straight from another's memory
   (cudaMemcpyPeerAsync on its copy engines, no kernel on either side);
   across processes only NCCL can.  A GPU copies from its peers one after
   the other, where NCCL receives from all of them at once: measured on
   H200s (NVLink), peer copies are faster with two GPUs and slower with
   four (docs/MULTIGPU.md).  AUTO (the default): peer copies in a
   one-process context of two GPUs with peer access, NCCL otherwise; NCCL:
   always ncclSend/ncclRecv; PEER: peer copies wherever every pair of the
   context's GPUs has peer access, NTT_EUNSUPPORTED elsewhere (one GPU,
   several processes, no peer access).  Results are the same words either
   way.  Takes effect from the next call.
   Errors: NTT_EINVAL (ctx NULL, how not one of these), NTT_EUNSUPPORTED. */
typedef enum ntt_mgpu_copy {
    NTT_MGPU_COPY_AUTO = 0,
    NTT_MGPU_COPY_NCCL = 1,
    NTT_MGPU_COPY_PEER = 2
} ntt_mgpu_copy;
NTT_API NTT_NODISCARD ntt_status ntt_mgpu_set_copy(ntt_mgpu_ctx *ctx, ntt_mgpu_copy how);

/* Items [first, first + count) of a batch of `total` items on GPU g of G. */
typedef struct ntt_mgpu_range {
    size_t first, count;
} ntt_mgpu_range;
/* GPU g's range of a batch of total items.  g outside [0, gpus) gives an
   empty range. */
NTT_API ntt_mgpu_range ntt_mgpu_range_of(const ntt_mgpu_ctx *ctx, size_t total, int g);

/* Counters of the work since the context was made (or reset), for
   benchmarks.  Times are the slowest local GPU's, from CUDA events. */
typedef struct ntt_mgpu_stats {
    uint64_t exchanges;      /* all-to-alls (grouped send/recv or peer copies) run */
    uint64_t agreements;     /* status all-reduces (multi-process contexts) */
    uint64_t bytes_sent;     /* bytes the local GPUs sent to other GPUs */
    double exchange_s;       /* seconds inside the exchanges */
    double compute_s;        /* seconds of the large transforms' local work */
} ntt_mgpu_stats;
NTT_API NTT_NODISCARD ntt_status ntt_mgpu_stats_get(const ntt_mgpu_ctx *ctx, ntt_mgpu_stats *s);
NTT_API void ntt_mgpu_stats_reset(ntt_mgpu_ctx *ctx);

/* ------------------------------------------------------------------------ */
/* Batches across GPUs                                                        */
/* ------------------------------------------------------------------------ */

typedef struct ntt_mgpu_plan ntt_mgpu_plan;

/* A batched plan of size n over `count` moduli (as ntt_plan_create_rns:
   item i of a batch uses moduli[i % count]) on every local GPU of ctx: one
   CUDA plan per GPU, plus pinned staging buffers and device buffers of
   opts->batch items (0: 8) per GPU for the host-pointer calls.  opts as
   ntt.h (modmul, flags).  Errors: as ntt_plan_create_rns, and NTT_EINVAL
   for ctx NULL. */
NTT_API NTT_NODISCARD ntt_status ntt_mgpu_plan_create(ntt_mgpu_plan **plan, ntt_mgpu_ctx *ctx,
                                                      size_t n, const uint64_t *moduli,
                                                      size_t count, ntt_width width,
                                                      const ntt_plan_options *opts);
NTT_API void ntt_mgpu_plan_destroy(ntt_mgpu_plan *plan);

/*
 * Device pointers: d_a[l] holds local GPU l's range of the batch (its k-th
 * item at d_a[l] + k * stride, k < range count), where `count` is the
 * WHOLE batch (all GPUs).  Work is enqueued on the GPUs' streams and the
 * call returns; ntt_mgpu_sync waits.  Inputs are not range-checked
 * (values >= p give unspecified results, as ntt_cuda_*).  Transforms are in
 * place; pointwise and polymul allow c == a and/or c == b exactly;
 * polymul's la, lb, lc as ntt_cuda_polymul_*.
 * Errors: NTT_EINVAL (NULL plan, a NULL pointer of a GPU with items,
 * stride < n, width not the plan's), NTT_EBACKEND.
 */
NTT_API NTT_NODISCARD ntt_status ntt_mgpu_forward_u32(ntt_mgpu_plan *plan, uint32_t *const *d_a,
                                                      size_t count, size_t stride);
NTT_API NTT_NODISCARD ntt_status ntt_mgpu_forward_u64(ntt_mgpu_plan *plan, uint64_t *const *d_a,
                                                      size_t count, size_t stride);
NTT_API NTT_NODISCARD ntt_status ntt_mgpu_inverse_u32(ntt_mgpu_plan *plan, uint32_t *const *d_a,
                                                      size_t count, size_t stride);
NTT_API NTT_NODISCARD ntt_status ntt_mgpu_inverse_u64(ntt_mgpu_plan *plan, uint64_t *const *d_a,
                                                      size_t count, size_t stride);
NTT_API NTT_NODISCARD ntt_status ntt_mgpu_pointwise_u32(ntt_mgpu_plan *plan, uint32_t *const *d_c,
                                                        uint32_t *const *d_a,
                                                        uint32_t *const *d_b, size_t count,
                                                        size_t stride);
NTT_API NTT_NODISCARD ntt_status ntt_mgpu_pointwise_u64(ntt_mgpu_plan *plan, uint64_t *const *d_c,
                                                        uint64_t *const *d_a,
                                                        uint64_t *const *d_b, size_t count,
                                                        size_t stride);
NTT_API NTT_NODISCARD ntt_status ntt_mgpu_polymul_u32(ntt_mgpu_plan *plan, uint32_t *const *d_c,
                                                      size_t lc, uint32_t *const *d_a, size_t la,
                                                      uint32_t *const *d_b, size_t lb,
                                                      size_t count, size_t stride);
NTT_API NTT_NODISCARD ntt_status ntt_mgpu_polymul_u64(ntt_mgpu_plan *plan, uint64_t *const *d_c,
                                                      size_t lc, uint64_t *const *d_a, size_t la,
                                                      uint64_t *const *d_b, size_t lb,
                                                      size_t count, size_t stride);

/*
 * Host pointers: the arrays hold the WHOLE batch (item i at i * stride, as
 * ntt_*_batch_*); this process reads and writes only the items of its GPUs'
 * ranges (all of them in a one-process context).  Each GPU stages its range
 * through its pinned buffers in chunks, from its own host thread, and the
 * call returns when every GPU is done.  The inputs of this process's ranges
 * are range-checked before anything is written (NTT_ERANGE).  Aliasing as
 * ntt_*_batch_*; products are full length (n coefficients, cyclic or
 * negacyclic by the plan's flags).  No communication: in a multi-process
 * context each process returns its own status.
 */
NTT_API NTT_NODISCARD ntt_status ntt_mgpu_forward_host_u32(ntt_mgpu_plan *plan, uint32_t *a,
                                                           size_t count, size_t stride);
NTT_API NTT_NODISCARD ntt_status ntt_mgpu_forward_host_u64(ntt_mgpu_plan *plan, uint64_t *a,
                                                           size_t count, size_t stride);
NTT_API NTT_NODISCARD ntt_status ntt_mgpu_inverse_host_u32(ntt_mgpu_plan *plan, uint32_t *a,
                                                           size_t count, size_t stride);
NTT_API NTT_NODISCARD ntt_status ntt_mgpu_inverse_host_u64(ntt_mgpu_plan *plan, uint64_t *a,
                                                           size_t count, size_t stride);
NTT_API NTT_NODISCARD ntt_status ntt_mgpu_polymul_host_u32(ntt_mgpu_plan *plan, uint32_t *c,
                                                           const uint32_t *a, const uint32_t *b,
                                                           size_t count, size_t stride);
NTT_API NTT_NODISCARD ntt_status ntt_mgpu_polymul_host_u64(ntt_mgpu_plan *plan, uint64_t *c,
                                                           const uint64_t *a, const uint64_t *b,
                                                           size_t count, size_t stride);

/* ------------------------------------------------------------------------ */
/* One large transform across GPUs (four-step)                                */
/* ------------------------------------------------------------------------ */
/*
 * The layout of include/ntt_mpi.h with GPUs for ranks: n = n1 * n2; GPU g
 * holds the rows j1 in [row_start, row_start + rows) (local element
 * (j1 - row_start) * n2 + j2 is coefficient a[j1 + n1 j2]) and, after the
 * forward transform, the positions [out_start, out_start + out_count) of
 * the single-GPU (bit-reversed) spectrum.  Forward: row transforms,
 * transpose, ONE exchange (grouped ncclSend/ncclRecv, or peer copies:
 * ntt_mgpu_set_copy), twiddles, column
 * transforms; inverse: the mirror image.  Only NTT primes p (n | p-1,
 * 2n | p-1 negacyclic, below the width's limit).
 */
typedef struct ntt_mgpu_large ntt_mgpu_large;

typedef struct ntt_mgpu_local {
    size_t n, n1, n2;
    size_t row_start, rows, in_count;   /* in_count = rows * n2 */
    size_t col_start, cols;
    size_t out_start, out_count;        /* col_start * n1, cols * n1 */
    size_t alloc;                       /* max(in_count, out_count) */
} ntt_mgpu_local;

/* A large transform of size n (power of two, 2 <= n <= 2^30) modulo the
   prime p over every GPU of ctx; opts->flags NTT_FLAG_NEGACYCLIC or 0,
   opts->modmul as ntt.h (opts may be NULL).  Allocates on each GPU two
   message buffers of `alloc` elements and two twiddle tables of out_count
   elements.  In a multi-process context the call is collective and the
   status agreed (NCCL all-reduce); n, p, width and flags must match
   (NTT_EINVAL on every process otherwise).
   Errors: NTT_EINVAL, NTT_EMODULUS, NTT_EUNSUPPORTED, NTT_ENOMEM,
   NTT_EBACKEND. */
NTT_API NTT_NODISCARD ntt_status ntt_mgpu_large_create(ntt_mgpu_large **plan, ntt_mgpu_ctx *ctx,
                                                       size_t n, uint64_t p, ntt_width width,
                                                       const ntt_plan_options *opts);
NTT_API void ntt_mgpu_large_destroy(ntt_mgpu_large *plan);
/* Global GPU g's share.  Errors: NTT_EINVAL (NULL, g out of range). */
NTT_API NTT_NODISCARD ntt_status ntt_mgpu_large_local(const ntt_mgpu_large *plan, int g,
                                                      ntt_mgpu_local *local);

/* Forward (collective over the context's GPUs; returns when done): d_in[l]
   holds in_count coefficients in the row layout, d_out[l] receives
   out_count spectrum entries.  d_in is used as workspace: its contents are
   unspecified afterwards; d_out may be d_in.  Inputs are not range-checked
   (device memory).  Errors: NTT_EINVAL (NULL pointer where the share is
   not empty, width), NTT_EBACKEND. */
NTT_API NTT_NODISCARD ntt_status ntt_mgpu_large_forward_u32(ntt_mgpu_large *plan,
                                                            uint32_t *const *d_in,
                                                            uint32_t *const *d_out);
NTT_API NTT_NODISCARD ntt_status ntt_mgpu_large_forward_u64(ntt_mgpu_large *plan,
                                                            uint64_t *const *d_in,
                                                            uint64_t *const *d_out);
/* Inverse, scaled by 1/n: d_in[l] holds out_count spectrum entries, d_out[l]
   receives in_count coefficients; inverse(forward(a)) == a.  As forward. */
NTT_API NTT_NODISCARD ntt_status ntt_mgpu_large_inverse_u32(ntt_mgpu_large *plan,
                                                            uint32_t *const *d_in,
                                                            uint32_t *const *d_out);
NTT_API NTT_NODISCARD ntt_status ntt_mgpu_large_inverse_u64(ntt_mgpu_large *plan,
                                                            uint64_t *const *d_in,
                                                            uint64_t *const *d_out);
/* Copies between a host array of all n elements and the local GPUs'
   shares: spectrum 0, natural coefficient order <-> the row layout
   (in_count elements per GPU); spectrum 1, the single-GPU spectrum order
   <-> the spectrum shares (out_count elements per GPU).  Each process
   moves its own GPUs' shares only (no communication).  Synchronous; values
   moved, not checked.  Errors: NTT_EINVAL (NULL host array or share,
   spectrum not 0 or 1, width), NTT_ENOMEM, NTT_EBACKEND. */
NTT_API NTT_NODISCARD ntt_status ntt_mgpu_large_scatter_u64(ntt_mgpu_large *plan, int spectrum,
                                                            const uint64_t *host,
                                                            uint64_t *const *d_local);
NTT_API NTT_NODISCARD ntt_status ntt_mgpu_large_gather_u64(ntt_mgpu_large *plan, int spectrum,
                                                           uint64_t *const *d_local,
                                                           uint64_t *host);
NTT_API NTT_NODISCARD ntt_status ntt_mgpu_large_scatter_u32(ntt_mgpu_large *plan, int spectrum,
                                                            const uint32_t *host,
                                                            uint32_t *const *d_local);
NTT_API NTT_NODISCARD ntt_status ntt_mgpu_large_gather_u32(ntt_mgpu_large *plan, int spectrum,
                                                           uint32_t *const *d_local,
                                                           uint32_t *host);

/* ------------------------------------------------------------------------ */
/* The hybrid key switch with the RNS limbs partitioned across GPUs           */
/* ------------------------------------------------------------------------ */
/*
 * ntt_rns_cuda_keyswitch (ntt_rns.h: limbs, forms, digits, the key's layout)
 * with every polynomial split by limbs over the context's G GPUs, bit for
 * bit its words.
 *
 * Ownership: GPU g owns the Q limbs q_i, i in [floor((L+1) g / G),
 * floor((L+1) (g+1) / G)) (the batches' range rule, ntt_mgpu_range_of),
 * and the P limbs p_k, k in [ceil(K g / G), ceil(K (g+1) / G)): where the
 * counts are uneven the first GPUs have fewer Q limbs and more P limbs,
 * which evens out their work (a P limb costs a GPU more than a Q limb: it
 * is converted for every digit).  Whatever the level, so a limb never
 * moves between key switches (with L+1 or K below G some GPUs own none of
 * them; at a level l below L the GPUs whose Q limbs are all above l own no
 * Q limb of Q_l and only do their P limbs' share).
 * ntt_mgpu_ks_share tells each GPU's limbs.
 *
 * Shares (device memory of the GPU, limb-major, N words a limb, as ntt_rns.h):
 *  - input, out0, out1 at level l: the GPU's limbs of Q_l, `q_level` limbs,
 *    evaluation form;
 *  - key: 2 dnum polynomials (digit j, component c: polynomial 2j + c, as
 *    ntt_rns.h's key), each of the GPU's q_count Q limbs (all of Q_L) then its
 *    p_count P limbs: limb k of polynomial 2j + c at
 *    key + ((2j + c) (q_count + p_count) + k) N.  A key switch at level l
 *    reads digits j < beta(l), and of each polynomial the first q_level
 *    limbs and the P limbs.
 *
 * What each GPU does, at level l (beta(l) digits):
 *  1. its input limbs to coefficient form (one batched INTT);
 *  2. digit by digit, the digit's limbs (coefficient form) gathered onto
 *     every GPU: each GPU owning some of them sends them to every other
 *     (ncclSend/ncclRecv, all in one NCCL group; or each GPU copies them
 *     from their owners, cudaMemcpyPeerAsync), on a second stream of
 *     the GPU, so that the gather of digit j+1 runs while digit j converts
 *     (CUDA events order them);
 *  3. each digit converted (FastBConv) to the GPU's limbs of Q_l and P
 *     outside it, and those rows transformed; the digits the GPU owns
 *     whole first (they wait for no gather);
 *  4. the inner product with its key limbs (local), giving its limbs of
 *     both sums;
 *  5. modDown: its P limbs of both sums to coefficient form, gathered onto
 *     every GPU (as in 2: one NCCL group, or peer copies);
 *     each GPU converts P to its Q limbs, transforms, subtracts and scales
 *     by P^-1.
 * Traffic: GPU g receives (l+1 - q_level(g) + 2 (K - p_count(g))) N 8 bytes
 * per key switch; none with one GPU (no NCCL call or copy is made then).
 *
 * Memory on each GPU: a CUDA ntt_rns context over every prime (its plans,
 * constants and scratch: see ntt_rns_create), and (L+1 + dnum (q_count +
 * p_count) + 2K) N words for the gathered digits, the conversions and the
 * gathered P parts; the host-pointer form adds its shares (below).
 */
typedef struct ntt_mgpu_ks ntt_mgpu_ks;

/* A key-switch object on every GPU of ctx for the RNS parameters params
   (ntt_rns.h; backend NTT_BACKEND_CUDA or NTT_BACKEND_AUTO, which both mean
   the GPUs here, and threads 0 or 1): one CUDA ntt_rns context per local
   GPU, a second stream, events and the buffers above.  In a multi-process
   context the call is collective and its status agreed; every process must
   pass the same N, primes and dnum (NTT_EINVAL on every process otherwise).
   *ks is NULL on failure.
   Errors: NTT_EINVAL (ks, ctx or params NULL; K == 0; another backend;
   threads > 1; and those of ntt_rns_create), NTT_EMODULUS (the primes, as
   ntt_rns_create), NTT_EUNSUPPORTED, NTT_ENOMEM, NTT_EBACKEND. */
NTT_API NTT_NODISCARD ntt_status ntt_mgpu_ks_create(ntt_mgpu_ks **ks, ntt_mgpu_ctx *ctx,
                                                    const ntt_rns_params *params);
/* Waits for the object's work, then frees it.  NULL is ignored. */
NTT_API void ntt_mgpu_ks_destroy(ntt_mgpu_ks *ks);

typedef struct ntt_mgpu_ks_share {
    size_t q_first, q_count; /* Q limbs q_{q_first} .. of Q_L */
    size_t q_level;          /* of them, those of Q_l: the input and output shares' limbs */
    size_t p_first, p_count; /* P limbs p_{p_first} .. */
    size_t key_limbs;        /* 2 dnum (q_count + p_count) */
} ntt_mgpu_ks_share;
/* Global GPU g's limbs at level `level`.  Errors: NTT_EINVAL (NULL
   pointers, g outside [0, gpus), level > L). */
NTT_API NTT_NODISCARD ntt_status ntt_mgpu_ks_share_of(const ntt_mgpu_ks *ks, int g, size_t level,
                                                      ntt_mgpu_ks_share *share);

/*
 * The key switch at level `level`, device pointers: d_in[l], d_key[l],
 * d_out0[l], d_out1[l] are local GPU l's shares (above).  The limb counts
 * are those of the WHOLE polynomials, as ntt_rns_cuda_keyswitch: in_limbs
 * = out_limbs = level+1, key_limbs = 2 dnum (L+1+K); n must be N.  The work
 * is enqueued on the GPUs' streams (ntt_mgpu_stream) and the object's
 * second streams, and the call returns; ntt_mgpu_sync waits for all of it
 * (each GPU's last work is on its context stream).  Calls on one object run
 * one after the other on the devices.  Inputs are not range-checked (words
 * >= their prime give unspecified values, as ntt_rns_cuda_*).
 * Aliasing: on each GPU out0 and out1 may not overlap each other, the input
 * or the key share.  A GPU whose shares are empty at this level (q_level
 * == 0; and for the key, q_level + p_count == 0) may pass NULL for them.
 * Every argument is checked before anything is enqueued; in a
 * multi-process context their status is agreed, and a later CUDA or NCCL
 * failure while enqueuing is the failing process's own (it still posts
 * its part of the collectives, so no process waits for ever).
 * Errors: NTT_EINVAL (ks or an array NULL, n != N, level > L, limb counts,
 * a NULL share where the GPU has limbs, overlaps), NTT_EBACKEND.
 */
NTT_API NTT_NODISCARD ntt_status ntt_mgpu_keyswitch(ntt_mgpu_ks *ks, size_t n, size_t level,
                                                    const uint64_t *const *d_in, size_t in_limbs,
                                                    const uint64_t *const *d_key,
                                                    size_t key_limbs, uint64_t *const *d_out0,
                                                    uint64_t *const *d_out1, size_t out_limbs);

/*
 * The same on host pointers holding WHOLE polynomials in ntt_rns.h's
 * layout (in and out0, out1 on Q_l, key as ntt_rns_keyswitch's); the
 * library splits them into the shares and merges the results; the process
 * reads and writes its GPUs' limbs only.  in is checked (NTT_ERANGE,
 * nothing written, agreed across processes), the key is not; the call
 * returns when the results are written.  out0, out1 may not overlap in,
 * key or each other.  The first call allocates the shares on each GPU
 * ((3 q_count + 2 dnum (q_count + p_count)) N words), kept until
 * ntt_mgpu_ks_destroy; every call copies the key limbs it reads.
 * Errors: those of ntt_mgpu_keyswitch, NTT_ERANGE, NTT_ENOMEM.
 */
NTT_API NTT_NODISCARD ntt_status ntt_mgpu_keyswitch_host(ntt_mgpu_ks *ks, size_t n, size_t level,
                                                         const uint64_t *in, size_t in_limbs,
                                                         const uint64_t *key, size_t key_limbs,
                                                         uint64_t *out0, uint64_t *out1,
                                                         size_t out_limbs);

/* Counters of the key switches since the object was made (or reset); the
   times are the LAST key switch's, from CUDA events (ntt_mgpu_ks_stats_get
   waits for it), each the slowest local GPU's.  Arrays are per local GPU. */
typedef struct ntt_mgpu_ks_stats {
    uint64_t calls;         /* key switches enqueued */
    uint64_t collectives;   /* blocks of rows moved: ncclSend operations
                               (each with its ncclRecv), or the blocks peer
                               copies move (modDown's one copy per owner
                               moves its rows of both sums: two blocks) */
    uint64_t groups;        /* gathers (an NCCL group or a round of peer
                               copies): one per digit, one per modDown */
    uint64_t modup_bytes[NTT_MGPU_MAX_LOCAL];   /* received in the digits' gathers */
    uint64_t moddown_bytes[NTT_MGPU_MAX_LOCAL]; /* received in modDown's gather */
    uint64_t sent_bytes[NTT_MGPU_MAX_LOCAL];    /* the GPU's limbs delivered to the
                                                   others: rows sent x (G - 1) */
    double total_s;          /* the compute stream's span, start to end */
    double compute_s;        /* its kernels and copies: the span less its waits */
    double modup_gather_s;   /* first digit gather's start to the last one's end */
    double moddown_gather_s; /* modDown's gather */
} ntt_mgpu_ks_stats;
/* Errors: NTT_EINVAL (NULL), NTT_EBACKEND (the last key switch failed on
   the device). */
NTT_API NTT_NODISCARD ntt_status ntt_mgpu_ks_stats_get(ntt_mgpu_ks *ks, ntt_mgpu_ks_stats *s);
NTT_API void ntt_mgpu_ks_stats_reset(ntt_mgpu_ks *ks);

#ifdef __cplusplus
}
#endif

#endif /* NTT_MULTIGPU_H */
