/* libntt_multigpu's shared state and the helpers its files share.  Not
   installed.  The library reaches libntt through its public API (ntt.h:
   the CUDA plans' device-pointer calls with item0; ntt_rns.h) and, for the
   key switch, the window pieces of src/rns/rns_cuda.h; the four-step split
   comes from src/core/fourstep.h, shared with libntt_mpi.

     context.c     contexts (device lists), NCCL groups, agreement
     errors.c      the last error and the statuses of CUDA and NCCL results
     workers.c     mgpu_each and the launching threads, one per local GPU
     mpi_context.c the same context over an MPI communicator
     partition.c   the batch ranges
     batch.c       batched plans and their device-pointer calls
     staging.c     the batched plans' host-pointer calls
     large_plan.c  the four-step plan: layout, twiddle tables, buffers
     large_exec.c  the four-step transforms and the exchange
     transpose.cu  the one kernel of its own: a tiled transpose
     ks_plan.c     the key switch with limbs partitioned: ownership,
                   per-GPU RNS contexts, buffers, events, counters
     ks_exec.c     ... its device-pointer call: stages and gathers
     ks_host.c     ... its host-pointer call: split, check, merge
   The key switch also reaches the CUDA RNS stages' window pieces
   (src/rns/rns_cuda.h, exported by libntt for this library only). */
#ifndef NTT_MGPU_INTERNAL_H
#define NTT_MGPU_INTERNAL_H

#include "ntt_multigpu.h"

#include <cuda_runtime_api.h>
#include <nccl.h>
#include <stdbool.h>

struct ntt_mgpu_ctx {
    int local, gpus, first, processes;
    int dev[NTT_MGPU_MAX_LOCAL];
    cudaStream_t stream[NTT_MGPU_MAX_LOCAL];
    ncclComm_t comm[NTT_MGPU_MAX_LOCAL];
    uint64_t *dstatus[NTT_MGPU_MAX_LOCAL]; /* MGPU_AGREE_MAX words per GPU: the agreements' */
    int nccl_version;
    bool peer_ok;         /* one process, peer access between every pair of its GPUs */
    ntt_mgpu_copy copy;   /* ntt_mgpu_set_copy's choice */
    int last_error; /* written and read atomically (several threads may fail) */
    struct ntt_pool *workers; /* workers.c (src/pool); NULL until a threaded call */
    ntt_mgpu_stats stats;
};

/* Whether the key switch's gathers and the four-step's exchange go by
   peer copies (else NCCL): never with one GPU or several processes; by
   default with two GPUs only (ntt_multigpu.h, ntt_mgpu_set_copy). */
static inline bool mgpu_peer(const ntt_mgpu_ctx *ctx)
{
    return ctx->peer_ok && (ctx->copy == NTT_MGPU_COPY_PEER ||
                            (ctx->copy == NTT_MGPU_COPY_AUTO && ctx->gpus == 2));
}

/* Records a failed CUDA call (or NCCL call) as the context's last error;
   NTT_EBACKEND (NTT_ENOMEM for an allocation failure), NTT_OK on success. */
ntt_status mgpu_cuda(ntt_mgpu_ctx *ctx, cudaError_t e);
/* Sets the context's last error (atomically: see last_error). */
void mgpu_set_error(ntt_mgpu_ctx *ctx, int code);
ntt_status mgpu_nccl(ntt_mgpu_ctx *ctx, ncclResult_t r);

#define MGPU_AGREE_MAX 16
/* v[i] <- the largest v[i] of every process (NCCL all-reduce), in a
   multi-process context; nothing in a one-process one. */
ntt_status mgpu_agree_max(ntt_mgpu_ctx *ctx, uint64_t *v, int count);
/* The worst status of every GPU of every process (NCCL all-reduce, max), in
   a multi-process context; st itself in a one-process one, whose calls
   agree by construction. */
ntt_status mgpu_agree(ntt_mgpu_ctx *ctx, ntt_status st);

/* Runs fn(ctx, l, arg) for every local GPU l with l's device current:
   in turn on the calling thread (threads false: NCCL groups, which one
   thread must issue, and setup), or at once, each GPU's share on the
   calling thread or one of the context's threads, whichever is first
   to it (threads true: the batch products, the staging and the key
   switch's compute streams; workers.c).  fn may then run concurrently with itself for
   different l.  The worst status wins; the
   caller's current device is kept. */
typedef ntt_status (*mgpu_fn)(ntt_mgpu_ctx *ctx, int l, void *arg);
ntt_status mgpu_each(ntt_mgpu_ctx *ctx, bool threads, mgpu_fn fn, void *arg);
/* Joins the context's threads (mgpu_ctx_fini). */
void mgpu_workers_free(ntt_mgpu_ctx *ctx);
/* mgpu_each in turn inside one NCCL group (ncclGroupStart .. End): the
   collectives fn posts for every local GPU run together. */
ntt_status mgpu_group(ntt_mgpu_ctx *ctx, mgpu_fn fn, void *arg);

/* The local part of a context made by a multi-process constructor: device
   dev becomes global GPU `rank` of `nranks`, through ncclCommInitRank.
   ctx is zeroed first. */
ntt_status mgpu_ctx_init_rank(ntt_mgpu_ctx *ctx, int dev, const ncclUniqueId *id, int nranks,
                              int rank);
void mgpu_ctx_fini(ntt_mgpu_ctx *ctx);

/* ---- transpose.cu ---- */
/* dst[j * dstride + i] = src[i * sstride + j] for i < h, j < w, elements of
   esz (4 or 8) bytes, on stream st of the current device. */
#ifdef __cplusplus
extern "C"
#endif
    cudaError_t
    mgpu_transpose(void *dst, size_t dstride, const void *src, size_t sstride, size_t h, size_t w,
                   size_t esz, cudaStream_t st);



/* ---- batched plans (batch.c, staging.c) ---- */
struct ntt_mgpu_plan {
    ntt_mgpu_ctx *ctx;
    size_t n, nmod;
    ntt_width width;
    size_t esz;                         /* 4 or 8 */
    uint64_t *moduli;                   /* nmod of them */
    ntt_plan *local[NTT_MGPU_MAX_LOCAL]; /* one CUDA plan per local GPU */
    size_t chunk;                       /* items per staged chunk */
    void *pin[NTT_MGPU_MAX_LOCAL][2];   /* pinned staging, chunk items each */
    void *dbuf[NTT_MGPU_MAX_LOCAL][2];  /* device buffers, chunk items each */
};

/* ---- the large transform (large_plan.c, large_exec.c) ---- */
enum { EV_START, EV_SEND, EV_RECV, EV_END, EV_COUNT };
struct ntt_mgpu_large {
    ntt_mgpu_ctx *ctx;
    size_t n, n1, n2, esz;
    uint64_t p;
    ntt_width width;
    unsigned flags;
    ntt_modmul modmul;
    size_t *row0, *col0;                /* gpus + 1 each: the rows and columns of GPU g */
    ntt_plan *row[NTT_MGPU_MAX_LOCAL];  /* size n2, the plan's kind (NULL for n2 == 1) */
    ntt_plan *col[NTT_MGPU_MAX_LOCAL];  /* size n1, cyclic */
    void *sbuf[NTT_MGPU_MAX_LOCAL];     /* outgoing blocks, alloc elements */
    void *rbuf[NTT_MGPU_MAX_LOCAL];     /* incoming blocks, alloc elements */
    void *twf[NTT_MGPU_MAX_LOCAL];      /* column twists, forward: cols * n1 */
    void *twi[NTT_MGPU_MAX_LOCAL];      /* ... and inverse */
    cudaEvent_t ev[NTT_MGPU_MAX_LOCAL][EV_COUNT];
};
/* The rows and the columns of global GPU g. */
static inline size_t mgpu_rows(const ntt_mgpu_large *pl, int g) { return pl->row0[g + 1] - pl->row0[g]; }
static inline size_t mgpu_cols(const ntt_mgpu_large *pl, int g) { return pl->col0[g + 1] - pl->col0[g]; }

/* ---- the key switch (ks_plan.c, ks_exec.c, ks_host.c) ---- */
/* Events of one GPU: on the compute stream the start, the input's INTT
   done, the inner product's P rows (and their INTT) done, its Q rows done,
   modDown's gather waited for, the end; on the gathers' stream modDown's
   gather done; then per digit j its gather done (KS_EV_DIG + j), its
   conversion started (+ dnum) and done (+ 2 dnum). */
enum { KS_EV_START, KS_EV_INTT, KS_EV_INNER, KS_EV_QIN, KS_EV_DOWN, KS_EV_END, KS_EV_PG, KS_EV_DIG };
static inline size_t ks_events(size_t dnum) { return KS_EV_DIG + 3 * dnum; }

struct ntt_mgpu_ks {
    ntt_mgpu_ctx *ctx;
    size_t n, nq, np, dnum, alpha;
    const uint64_t *primes;             /* rns[0]'s: Q then P */
    size_t *q0, *p0;                    /* gpus + 1 each: GPU g owns Q limbs [q0[g], q0[g+1])
                                           and P limbs [p0[g], p0[g+1]) */
    ntt_rns *rns[NTT_MGPU_MAX_LOCAL];   /* CUDA contexts, one per local GPU */
    cudaStream_t gather[NTT_MGPU_MAX_LOCAL]; /* the gathers' stream */
    uint64_t *coef[NTT_MGPU_MAX_LOCAL]; /* L+1 rows: Q_l in coefficient form, gathered */
    uint64_t *ext[NTT_MGPU_MAX_LOCAL];  /* dnum (q_count + p_count) rows: the conversions */
    uint64_t *pp[NTT_MGPU_MAX_LOCAL];   /* 2K rows: both sums' P rows, coefficient form */
    cudaEvent_t *ev[NTT_MGPU_MAX_LOCAL]; /* ks_events(dnum) */
    /* The host-pointer call's shares, made by its first call: in, key,
       out0, out1 of q_count, key_limbs, q_count, q_count rows. */
    uint64_t *hbuf[NTT_MGPU_MAX_LOCAL][4];
    bool timed;       /* the last call's events are all recorded and unread */
    size_t last_beta; /* its digits */
    size_t last_digit[NTT_MGPU_MAX_LOCAL]; /* the digit each GPU converted last */
    ntt_mgpu_ks_stats stats;
};
/* The Q and P limbs of global GPU g. */
static inline size_t ks_qcount(const ntt_mgpu_ks *ks, int g) { return ks->q0[g + 1] - ks->q0[g]; }
static inline size_t ks_pcount(const ntt_mgpu_ks *ks, int g) { return ks->p0[g + 1] - ks->p0[g]; }
/* Of GPU g's Q limbs, those of Q_l. */
static inline size_t ks_qlevel(const ntt_mgpu_ks *ks, int g, size_t l)
{
    const size_t end = ks->q0[g + 1] < l + 1 ? ks->q0[g + 1] : l + 1;
    return end > ks->q0[g] ? end - ks->q0[g] : 0;
}
/* ks_exec.c: the device-pointer call after its checks. */
ntt_status mgpu_ks_run(ntt_mgpu_ks *ks, size_t l, const uint64_t *const *in,
                       const uint64_t *const *key, uint64_t *const *out0, uint64_t *const *out1);
/* ks_exec.c: the checks of a call's arguments shared by both forms, NTT_OK
   or NTT_EINVAL. */
ntt_status mgpu_ks_args(const ntt_mgpu_ks *ks, size_t n, size_t level, size_t in_limbs,
                        size_t key_limbs, size_t out_limbs);

#endif /* NTT_MGPU_INTERNAL_H */
