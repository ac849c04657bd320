/* libntt_mpi's plan layout and the helpers its files share.  Not installed.

   libntt_mpi calls libntt through its public API only (ntt.h); from the
   core it takes the inline arithmetic of src/arith and nothing that needs
   linking (libntt's internal symbols are hidden). */
#ifndef NTT_MPI_INTERNAL_H
#define NTT_MPI_INTERNAL_H

#include "ntt_mpi.h"
#include "../arith/modarith.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define MPI_MAX_MOD 4 /* moduli of a product: p, or up to four CRT primes */

/* The twist of one local column for one modulus: the column's elements
   j1 = 0 .. n1-1 are multiplied by g^j1 (forward) or g^-j1 (inverse).
   The factors are made on the fly, L lanes at a time (TW_LANES_*), so no
   table of n/P factors is read: the plan keeps the first L factors (in
   Montgomery form, the work's width) and s = g^L with its Shoup
   companion sq; each next L factors are the last ones times s. */
typedef struct {
    const void *z0; /* g^0 .. g^(L-1), times R mod q */
    uint64_t s, sq;
} mpi_twist;

/* One modulus of the plan's work. */
typedef struct {
    uint64_t q;
    uint64_t pinv;  /* -q^-1 mod R (R = 2^32 for u32 work, 2^64 for u64) */
    uint64_t one;   /* R mod q: 1 in Montgomery form */
    uint64_t root;  /* of order n (cyclic) or 2n (negacyclic), the library's */
} mpi_mod;

/* What each thread of a rank owns: its own local plans (a plan is
   used by one thread at a time) and workspace. */
typedef struct {
    ntt_plan *row[MPI_MAX_MOD]; /* size n2 (NULL when n2 == 1: identity) */
    ntt_plan *col[MPI_MAX_MOD]; /* size n1, cyclic */
    void *ws;
} mpi_thread;

/* One MPI_Alltoallv: counts and displacements in units of `unit` work
   elements (the largest that divides them all, so that large shares of a
   few ranks stay within int), and the element offsets of each peer's
   block. */
typedef struct {
    int *scount, *sdispl, *rcount, *rdispl;
    size_t *soff, *roff;
    size_t unit;
    MPI_Datatype type; /* unit elements, contiguous */
    /* The product's exchanges (X_COLS2, X_ROWS) also in plan->chunks
       pieces: piece k's counts and displacements at kc + 4 P k (scount,
       sdispl, rcount, rdispl, P each), same unit. */
    int *kc;
    /* Shared memory: where rank r's block for this rank starts in r's
       send buffer (elements from r's rbuf). */
    size_t *peer_off;
} mpi_xchg;
/* The plan's exchanges: rows to columns with one operand (forward) or two
   (product), columns to rows (inverse, product). */
enum { X_COLS1, X_COLS2, X_ROWS, X_COUNT };

/* Counters read by the benchmark (ntt_mpi_stats_get). */
typedef struct {
    uint64_t exchanges;     /* all-to-alls run */
    uint64_t agreements;    /* status allreduces run */
    double exchange_s;      /* seconds inside the all-to-alls */
    double agree_s;         /* seconds inside the status allreduces */
    double total_s;         /* seconds inside the plan's collective calls */
    uint64_t bytes_sent;    /* bytes this rank sent to other ranks */
} ntt_mpi_stats;

struct ntt_mpi_plan {
    MPI_Comm comm;          /* duplicate, MPI_ERRORS_RETURN */
    int rank, size;
    size_t n, n1, n2;
    unsigned flags;
    ntt_width width;        /* of the caller's arrays */
    uint64_t p;
    bool direct;            /* p itself is the (single) modulus */
    size_t nmod;
    mpi_mod mod[MPI_MAX_MOD];
    /* CRT (not direct): Garner's constants, see crt.c. */
    uint64_t crt_inv[MPI_MAX_MOD][MPI_MAX_MOD], crt_invq[MPI_MAX_MOD][MPI_MAX_MOD];
    uint64_t crt_qp[MPI_MAX_MOD], crt_qpq[MPI_MAX_MOD], crt_Qp;
    ntt_width ww;           /* width of the work: width if direct, else u64 */
    size_t esz;             /* bytes per work element */
    MPI_Datatype etype;     /* the work element */
    size_t *row0, *col0;    /* size+1 entries: rank r owns rows [row0[r], row0[r+1]) */
    size_t rows, cols, row_start, col_start;
    mpi_twist *tw;          /* [k][c][2]: forward, inverse twist of local column c */
    void *twz;              /* the twists' first factors (mpi_twist.z0) */
    int nthreads;
    mpi_thread *th;         /* nthreads, indexed by the pool's thread index */
    struct ntt_pool *pool;  /* nthreads > 1: the rank's threads (src/pool) */
    size_t band_rows, band_cols; /* rows / columns per unit of local work */
    bool runs_aligned;      /* every rank's first row is a multiple of the
                               twist's lanes: columns are twisted as their
                               runs are gathered (exec.c) */
    void *rbuf, *cbuf;      /* outgoing blocks (both ways) and incoming ones */
    size_t rbuf_bytes;
    size_t cbuf_rows;       /* elements of cbuf before the way back's blocks */
    size_t rows_base;       /* elements of rbuf before the way back's blocks */
    mpi_xchg xc[X_COUNT];
    bool late_agree;        /* the local backend can fail at run time (a GPU),
                               or ranks read each other's buffers (shm): one
                               more agreement ends each call */
    /* Shared memory (every rank on one node, NTT_MPI_SHM not 0): rbuf is
       this rank's part of one MPI-3 shared window, and a rank reads the
       blocks meant for it straight from the others' parts (peer[r]); the
       exchanges are then only the agreements (exec.c). */
    bool shm;
    MPI_Win win;
    void **peer;
    /* Pieces of the product's exchanges (without shared memory): piece k
       of the columns travels while the columns of piece k - 1 are worked
       on (exec.c).  Block layout: see mpi_run_off. */
    size_t chunks;
    MPI_Request *req;       /* 2 * chunks */
    ntt_mpi_stats stats;
};

/* ---- plan.c ---- */
/* Where, in a message block of R rows and C columns with ops operands, the
   run (R elements) of operand o, modulus m, column c < C starts: the block
   is `chunks` pieces of consecutive columns (piece k: columns
   [C k / chunks, C (k+1) / chunks)), each laid out [o][m][c][r], so that a
   piece of every block is one contiguous message. */
static inline size_t mpi_piece_lo(size_t C, size_t k, size_t chunks) { return C * k / chunks; }
static inline size_t mpi_run_off(const struct ntt_mpi_plan *pl, size_t ops, size_t R, size_t C,
                                 size_t o, size_t m, size_t c)
{
    const size_t K = pl->chunks, k = (K * (c + 1) + C - 1) / C - 1;
    const size_t lo = mpi_piece_lo(C, k, K), Ck = mpi_piece_lo(C, k + 1, K) - lo;
    return ops * pl->nmod * R * lo + ((o * pl->nmod + m) * Ck + (c - lo)) * R;
}
/* The rows (or columns) of rank r among size ranks: [total r / size,
   total (r+1) / size). */
size_t mpi_block_start(size_t total, int r, int size);
/* Status agreement: the largest of every rank's st (NTT_EBACKEND if the
   allreduce itself fails). */
ntt_status mpi_agree(ntt_mpi_plan *plan, ntt_status st);
/* When the stats' clocks read. */
double mpi_now(void);

/* ---- twist.c ---- */
/* dst[j] = src[j] * g^(j0 + j) mod q for j < len (the twist t, forward or
   inverse), where z holds the L factors g^(j0) .. g^(j0 + L - 1) (Montgomery
   form; start from t->z0 with j0 = 0).  Runs whose lengths are multiples of
   L continue one another: z is left at j0 + len.  dst may be src; values
   in [0, q) in and out.  AVX-512 or AVX2 where the CPU has them for u32;
   u64 is scalar (no 64x64->128-bit vector products below IFMA).
   stream: dst is not read soon (a message buffer): its stores bypass the
   caches where it is aligned, saving the read for ownership. */
void mpi_twist_run_u32(uint32_t *dst, const uint32_t *src, size_t len, uint32_t *z,
                       const mpi_twist *t, const mpi_mod *m, bool stream);
void mpi_twist_run_u64(uint64_t *dst, const uint64_t *src, size_t len, uint64_t *z,
                       const mpi_twist *t, const mpi_mod *m, bool stream);
/* memcpy, with stores past the caches where stream and dst is aligned. */
void mpi_copy(void *dst, const void *src, size_t bytes, bool stream);
/* Lanes of the on-the-fly factors: s = g^TW_LANES. */
#define TW_LANES_U32 64
#define TW_LANES_U64 8
/* dst[j * dstride + i] = src[i * sstride + j] for i < h, j < w (elements of
   esz bytes); stream: the destination is not read soon (stores bypass the
   caches where aligned). */
void mpi_transpose(void *dst, size_t dstride, const void *src, size_t sstride, size_t h, size_t w,
                   size_t esz, bool stream);

/* ---- crt.c ---- */
/* Sets the plan's moduli for p (direct, or the CRT primes: the set below
   2^51 if small, which every rank's kernels run fastest) and Garner's
   constants; NTT_EMODULUS if p cannot be served at all. */
ntt_status mpi_moduli_init(ntt_mpi_plan *plan, bool small);
/* Work element k of n from the caller's input (width plan->width):
   dst[i] = src[i] mod q_k, and whether some src[i] >= p. */
bool mpi_load(const ntt_mpi_plan *plan, void *dst, const void *src, size_t len, size_t k);
/* The caller's output from the nmod work residues r[k][i] (each row len
   long, stride apart): Garner, then the sign for negacyclic products. */
void mpi_crt_store(const ntt_mpi_plan *plan, void *dst, const uint64_t *r, size_t stride,
                   size_t len);
/* The root of order `order` the library's plans use for prime q (tables.c:
   r = x^((q-1)/order) for the smallest quadratic non-residue x). */
uint64_t mpi_root(uint64_t q, uint64_t order);
uint64_t mpi_powmod(uint64_t a, uint64_t e, uint64_t q);

/* ---- for the benchmark (declared here, exported from the static library) ---- */
void ntt_mpi_stats_get(const ntt_mpi_plan *plan, ntt_mpi_stats *s);
void ntt_mpi_stats_reset(ntt_mpi_plan *plan);
/* How the plan exchanges: shared memory (1) or all-to-alls (0), the pieces
   of the product's all-to-alls, the threads of this rank. */
void ntt_mpi_mode_get(const ntt_mpi_plan *plan, int *shm, size_t *chunks, int *threads);

#endif /* NTT_MPI_INTERNAL_H */
