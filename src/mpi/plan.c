/* Distributed plans: collective creation with agreed arguments and status,
   the four-step layout, per-thread local plans, message buffers and the
   column twists. */
#include "../include/ntt_internal.h" /* ntt_fail, ntt_fail_backend, ntt_detail_clear */
#include "mpi_internal.h"
#include "fourstep.h"
#include "../pool/pool.h"
#include "alloc.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* Bytes of one unit of local work (a band of rows or columns of one
   operand and modulus): it stays in the core's L2 between the copy, the
   local transform and the transpose. */
#define BAND_BYTES ((size_t)256 << 10)

double mpi_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

size_t mpi_block_start(size_t total, int r, int size) { return ntt_fs_block_start(total, r, size); }

ntt_status mpi_agree(ntt_mpi_plan *plan, ntt_status st)
{
    const double t0 = mpi_now();
    int mine = (int)st, all = 0;
    if (MPI_Allreduce(&mine, &all, 1, MPI_INT, MPI_MAX, plan->comm) != MPI_SUCCESS)
        all = ntt_fail(NTT_EBACKEND, "MPI_Allreduce (the ranks' agreement) failed");
    else if (all > mine)
        ntt_fail((ntt_status)all, "another rank failed: %s", ntt_status_string((ntt_status)all));
    plan->stats.agreements++;
    plan->stats.agree_s += mpi_now() - t0;
    return (ntt_status)all;
}

void ntt_mpi_stats_get(const ntt_mpi_plan *plan, ntt_mpi_stats *s)
{
    if (plan && s) *s = plan->stats;
}

void ntt_mpi_stats_reset(ntt_mpi_plan *plan)
{
    if (plan) memset(&plan->stats, 0, sizeof plan->stats);
}

/* Cache-line aligned (the transposes' tiles); the message buffers, which
   the transposes stride through, on huge pages where the system offers
   them (src/core/alloc.h).  NULL on failure. */
static void *alloc64(size_t bytes) { return ntt_alloc_aligned(bytes); }

void ntt_mpi_plan_destroy(ntt_mpi_plan *plan)
{
    if (!plan) return;
    if (plan->th) {
        for (int t = 0; t < plan->nthreads; t++) {
            for (size_t k = 0; k < MPI_MAX_MOD; k++) {
                ntt_plan_destroy(plan->th[t].row[k]);
                ntt_plan_destroy(plan->th[t].col[k]);
            }
            free(plan->th[t].ws);
        }
        free(plan->th);
    }
    ntt_pool_destroy(plan->pool);
    free(plan->tw);
    free(plan->twz);
    if (plan->win != MPI_WIN_NULL) {
        /* rbuf is the window's memory. */
        MPI_Win_unlock_all(plan->win);
        MPI_Win_free(&plan->win);
    } else {
        free(plan->rbuf);
    }
    free(plan->peer);
    free(plan->req);
    free(plan->cbuf);
    free(plan->row0);
    free(plan->col0);
    for (int x = 0; x < X_COUNT; x++) {
        free(plan->xc[x].scount);
        free(plan->xc[x].soff);
        free(plan->xc[x].kc);
        free(plan->xc[x].peer_off);
        if (plan->xc[x].type != MPI_DATATYPE_NULL) MPI_Type_free(&plan->xc[x].type);
    }
    if (plan->comm != MPI_COMM_NULL) MPI_Comm_free(&plan->comm);
    free(plan);
}

/* The arguments every rank must share, each with its complement, so that
   one MPI_MAX allreduce gives both the maximum and the minimum. */
enum { A_N, A_P, A_WIDTH, A_FLAGS, A_SMALL, A_CHUNKS, A_COUNT };

static bool pow2_ok(size_t n)
{
    return n >= 2 && (n & (n - 1)) == 0 && n <= ((size_t)1 << NTT_MPI_MAX_LOG2_N);
}

/* Twist t with factors g^j: the first L (Montgomery form) into z, s = g^L. */
static void twist_init(mpi_twist *t, void *z, uint64_t g, size_t L, const mpi_mod *m,
                       ntt_width ww)
{
    uint64_t f = m->one;
    for (size_t l = 0; l < L; l++, f = ntt_mulmod_slow(f, g, m->q)) {
        if (ww == NTT_U32)
            ((uint32_t *)z)[l] = (uint32_t)f;
        else
            ((uint64_t *)z)[l] = f;
    }
    t->z0 = z;
    t->s = mpi_powmod(g, L, m->q);
    t->sq = ww == NTT_U32 ? (uint64_t)((t->s << 32) / m->q)
                          : (uint64_t)(((ntt_u128)t->s << 64) / m->q);
}

static size_t gcd(size_t a, size_t b)
{
    while (b) {
        const size_t t = a % b;
        a = b;
        b = t;
    }
    return a;
}

static size_t rows_of(const ntt_mpi_plan *pl, int r) { return pl->row0[r + 1] - pl->row0[r]; }
static size_t cols_of(const ntt_mpi_plan *pl, int r) { return pl->col0[r + 1] - pl->col0[r]; }

/* Elements rank `from` sends rank `to` in exchange x (exec.c's blocks:
   rows of the sender times columns of the receiver, or the way back). */
static size_t xcount(const ntt_mpi_plan *pl, int x, int from, int to)
{
    if (x == X_ROWS) return pl->nmod * cols_of(pl, from) * rows_of(pl, to);
    return (x == X_COLS1 ? 1 : 2) * pl->nmod * cols_of(pl, to) * rows_of(pl, from);
}

/* Piece k of that block (mpi_run_off): its count, and its offset in the
   block in *off. */
static size_t xpiece(const ntt_mpi_plan *pl, int x, int from, int to, size_t k, size_t *off)
{
    const size_t R = x == X_ROWS ? rows_of(pl, to) : rows_of(pl, from);
    const size_t C = x == X_ROWS ? cols_of(pl, from) : cols_of(pl, to);
    const size_t ops = x == X_COLS2 ? 2 : 1, unit = ops * pl->nmod * R;
    const size_t lo = mpi_piece_lo(C, k, pl->chunks);
    *off = unit * lo;
    return unit * (mpi_piece_lo(C, k + 1, pl->chunks) - lo);
}

static bool chunked(const ntt_mpi_plan *pl, int x)
{
    return pl->chunks > 1 && (x == X_COLS2 || x == X_ROWS);
}

/* Counts of the three exchanges, whole and (the product's) in pieces, and
   where each rank's block for this one lies in its send buffer.  False if
   some count or displacement of this rank cannot be an int even in the
   largest common unit. */
static bool set_counts(ntt_mpi_plan *pl)
{
    const int P = pl->size, me = pl->rank;
    for (int x = 0; x < X_COUNT; x++) {
        mpi_xchg *xc = &pl->xc[x];
        size_t *sc = xc->soff + P + 1, *rc = xc->roff + P + 1; /* counts, scratch */
        size_t so = 0, ro = 0, g = 0;
        for (int i = 0; i < P; i++) {
            sc[i] = xcount(pl, x, me, i);
            rc[i] = xcount(pl, x, i, me);
            xc->soff[i] = so;
            xc->roff[i] = ro;
            so += sc[i];
            ro += rc[i];
            g = gcd(gcd(gcd(g, sc[i]), rc[i]), gcd(so, ro));
            /* Rank i's send buffer: its blocks for the ranks before this
               one, after its operands' blocks for the way back. */
            size_t po = x == X_ROWS ? 2 * pl->nmod * rows_of(pl, i) * pl->n2 : 0;
            for (int d = 0; d < me; d++) po += xcount(pl, x, i, d);
            xc->peer_off[i] = po;
        }
        xc->soff[P] = so;
        xc->roff[P] = ro;
        if (chunked(pl, x))
            for (size_t k = 0; k < pl->chunks; k++)
                for (int i = 0; i < P; i++) {
                    size_t so_k, ro_k;
                    const size_t sk = xpiece(pl, x, me, i, k, &so_k);
                    const size_t rk = xpiece(pl, x, i, me, k, &ro_k);
                    g = gcd(gcd(g, sk), gcd(rk, gcd(xc->soff[i] + so_k, xc->roff[i] + ro_k)));
                }
        /* The common unit's power of two, at most 2^20 (the largest
           divisor could exceed an int). */
        xc->unit = g ? gcd(g, (size_t)1 << 20) : 1;
        /* The rank's block to itself stays in the send buffer (exec.c). */
        sc[me] = rc[me] = 0;
        for (int i = 0; i < P; i++) {
            if (xc->soff[i + 1] / xc->unit > INT_MAX || xc->roff[i + 1] / xc->unit > INT_MAX)
                return false;
            xc->scount[i] = (int)(sc[i] / xc->unit);
            xc->rcount[i] = (int)(rc[i] / xc->unit);
            xc->sdispl[i] = (int)(xc->soff[i] / xc->unit);
            xc->rdispl[i] = (int)(xc->roff[i] / xc->unit);
        }
        if (chunked(pl, x))
            for (size_t k = 0; k < pl->chunks; k++) {
                int *kc = xc->kc + 4 * (size_t)P * k;
                for (int i = 0; i < P; i++) {
                    size_t so_k, ro_k;
                    const size_t sk = i == me ? 0 : xpiece(pl, x, me, i, k, &so_k);
                    const size_t rk = i == me ? 0 : xpiece(pl, x, i, me, k, &ro_k);
                    kc[i] = (int)(sk / xc->unit);
                    kc[P + i] = i == me ? 0 : (int)((xc->soff[i] + so_k) / xc->unit);
                    kc[2 * P + i] = (int)(rk / xc->unit);
                    kc[3 * P + i] = i == me ? 0 : (int)((xc->roff[i] + ro_k) / xc->unit);
                }
            }
    }
    return true;
}

/* Pieces of the product's exchanges: NTT_MPI_CHUNKS where set (1 .. 64,
   the largest among the ranks), else pieces of at least 128 KiB per pair
   of ranks for the first exchange, at most 8 (each piece costs an
   all-to-all's latency; beyond a few the overlap gains little). */
#define CHUNK_MIN_BYTES ((size_t)128 << 10)
static size_t env_chunks(void)
{
    const char *e = getenv("NTT_MPI_CHUNKS");
    const long v = e && *e ? strtol(e, NULL, 10) : 0;
    return v >= 1 && v <= 64 ? (size_t)v : 0;
}

static size_t pick_chunks(const ntt_mpi_plan *pl, size_t asked)
{
    if (pl->size < 2) return 1;
    if (asked) return asked;
    const size_t P = (size_t)pl->size;
    const size_t pair = 2 * pl->nmod * pl->esz * (pl->n / P / P);
    const size_t k = pair / CHUNK_MIN_BYTES;
    return k < 1 ? 1 : k > 8 ? 8 : k;
}

/* The four-step split, every rank's rows and columns, the exchanges. */
static ntt_status layout_init(ntt_mpi_plan *plan, size_t chunks)
{
    const int P = plan->size;
    ntt_fs_split(plan->n, &plan->n1, &plan->n2);
    plan->chunks = pick_chunks(plan, chunks);
    plan->req = malloc(2 * plan->chunks * sizeof *plan->req);
    if (!plan->req) return NTT_ENOMEM;
    plan->row0 = malloc(((size_t)P + 1) * sizeof *plan->row0);
    plan->col0 = malloc(((size_t)P + 1) * sizeof *plan->col0);
    if (!plan->row0 || !plan->col0) return NTT_ENOMEM;
    for (int x = 0; x < X_COUNT; x++) {
        mpi_xchg *xc = &plan->xc[x];
        xc->scount = malloc(4 * (size_t)P * sizeof(int));
        xc->soff = malloc((4 * (size_t)P + 2) * sizeof(size_t));
        xc->kc = malloc(4 * (size_t)P * plan->chunks * sizeof(int));
        xc->peer_off = malloc((size_t)P * sizeof(size_t));
        if (!xc->scount || !xc->soff || !xc->kc || !xc->peer_off) return NTT_ENOMEM;
        xc->sdispl = xc->scount + P;
        xc->rcount = xc->sdispl + P;
        xc->rdispl = xc->rcount + P;
        xc->roff = xc->soff + 2 * (size_t)P + 1;
    }
    size_t max_rows = 0, max_cols = 0;
    for (int r = 0; r <= P; r++) {
        plan->row0[r] = mpi_block_start(plan->n1, r, P);
        plan->col0[r] = mpi_block_start(plan->n2, r, P);
        if (r > 0) {
            const size_t nr = plan->row0[r] - plan->row0[r - 1];
            const size_t nc = plan->col0[r] - plan->col0[r - 1];
            max_rows = nr > max_rows ? nr : max_rows;
            max_cols = nc > max_cols ? nc : max_cols;
        }
    }
    const size_t lanes = plan->ww == NTT_U32 ? TW_LANES_U32 : TW_LANES_U64;
    plan->runs_aligned = true;
    for (int r = 0; r < P; r++) plan->runs_aligned &= plan->row0[r] % lanes == 0;
    plan->row_start = plan->row0[plan->rank];
    plan->rows = plan->row0[plan->rank + 1] - plan->row_start;
    plan->col_start = plan->col0[plan->rank];
    plan->cols = plan->col0[plan->rank + 1] - plan->col_start;
    /* A share too large for int counts fails on some rank; the agreement
       makes it every rank's status.  The scatter and gather move whole
       rows or columns, which the same units cover. */
    if (!set_counts(plan) || max_rows > INT_MAX || max_cols > INT_MAX) return NTT_EINVAL;
    for (int x = 0; x < X_COUNT; x++) {
        mpi_xchg *xc = &plan->xc[x];
        if (MPI_Type_contiguous((int)xc->unit, plan->etype, &xc->type) != MPI_SUCCESS ||
            MPI_Type_commit(&xc->type) != MPI_SUCCESS)
            return NTT_EBACKEND;
    }
    return NTT_OK;
}

/* Twists of the local columns: column c is k2 = brv(col_start + c) of the
   four-step, its factors g^j1 with g = w^k2 (cyclic, w of order n) or
   psi^(2 k2 + 1) (negacyclic, psi of order 2n: the psi^j twist of the
   coefficients and the w^(j1 k2) twiddles in one factor). */
static ntt_status twists_init(ntt_mpi_plan *plan)
{
    const bool nega = (plan->flags & NTT_FLAG_NEGACYCLIC) != 0;
    const uint64_t N = nega ? 2 * (uint64_t)plan->n : (uint64_t)plan->n;
    const size_t L = plan->ww == NTT_U32 ? TW_LANES_U32 : TW_LANES_U64;
    const size_t ntw = plan->nmod * plan->cols * 2;
    plan->tw = malloc((ntw + 1) * sizeof *plan->tw);
    plan->twz = malloc((ntw * L + 1) * plan->esz);
    if (!plan->tw || !plan->twz) return NTT_ENOMEM;
    for (size_t k = 0; k < plan->nmod; k++) {
        const mpi_mod *m = &plan->mod[k];
        for (size_t c = 0; c < plan->cols; c++) {
            const uint64_t k2 = ntt_fs_brv(plan->col_start + c, plan->n2);
            const uint64_t e = nega ? 2 * k2 + 1 : k2;
            const size_t i = (k * plan->cols + c) * 2;
            char *z = (char *)plan->twz + i * L * plan->esz;
            twist_init(&plan->tw[i], z, mpi_powmod(m->root, e, m->q), L, m, plan->ww);
            twist_init(&plan->tw[i + 1], z + L * plan->esz, mpi_powmod(m->root, (N - e) % N, m->q),
                       L, m, plan->ww);
        }
    }
    return NTT_OK;
}

/* Bands, per-thread workspaces and local plans, message buffers.  A rank
   runs nthreads threads over bands, each with local plans of one thread:
   OPENMP plans (the best ISA, as libntt's registry picks it) for OPENMP,
   the backend's own for a CPU backend with the option threads > 1; every
   other case one thread, whose plans take the caller's options. */
static ntt_status work_init(ntt_mpi_plan *plan, ntt_backend backend, const ntt_plan_options *o)
{
    ntt_plan_options lo = {.modmul = o->modmul, .threads = o->threads, .batch = o->batch};
    int nthreads = 1;
#ifdef _OPENMP
    if (backend == NTT_BACKEND_OPENMP)
        nthreads = o->threads > 0 ? o->threads : ntt_pool_default_threads();
    else if (backend != NTT_BACKEND_CUDA && o->threads > 1)
        nthreads = o->threads;
#endif
    if (backend == NTT_BACKEND_OPENMP || nthreads > 1) lo.threads = 1;
    /* Bands of rows whose transposed writes fill cache lines, enough of
       them for every thread. */
    const size_t esz = plan->esz, line = 64 / esz;
    size_t H = BAND_BYTES / (plan->n2 * esz);
    H = H < line ? line : H;
    const size_t share_r = (plan->rows + (size_t)nthreads - 1) / (size_t)nthreads;
    H = H > share_r ? share_r : H;
    plan->band_rows = H ? H : 1;
    size_t W = BAND_BYTES / (plan->n1 * esz);
    const size_t share_c = (plan->cols + (size_t)nthreads - 1) / (size_t)nthreads;
    W = W > share_c ? share_c : W;
    plan->band_cols = W ? W : 1;
    size_t ws = plan->nmod * plan->band_rows * (plan->n2 + 64 / esz);
    if (2 * plan->band_cols * plan->n1 > ws) ws = 2 * plan->band_cols * plan->n1;

    plan->nthreads = nthreads;
    plan->th = calloc((size_t)nthreads, sizeof *plan->th);
    if (!plan->th) return NTT_ENOMEM;
    const ntt_status ps = ntt_pool_create(&plan->pool, nthreads, NTT_POOL_SPIN_NS);
    if (ps != NTT_OK) return ps;
    const bool nega = (plan->flags & NTT_FLAG_NEGACYCLIC) != 0;
    for (int t = 0; t < nthreads; t++) {
        mpi_thread *th = &plan->th[t];
        th->ws = alloc64(ws * esz);
        if (!th->ws) return NTT_ENOMEM;
        for (size_t k = 0; k < plan->nmod; k++) {
            const uint64_t q = plan->mod[k].q;
            lo.flags = 0;
            ntt_status s = ntt_plan_create(&th->col[k], plan->n1, q, plan->ww, backend, &lo);
            if (s == NTT_OK && plan->n2 > 1) {
                lo.flags = nega ? NTT_FLAG_NEGACYCLIC : 0;
                s = ntt_plan_create(&th->row[k], plan->n2, q, plan->ww, backend, &lo);
            }
            if (s != NTT_OK) return s;
        }
    }
    /* rbuf: a product's operands going out, then the result going back;
       cbuf: what arrives either way. */
    const size_t in = plan->rows * plan->n2, out = plan->cols * plan->n1;
    plan->rows_base = 2 * plan->nmod * in;
    plan->rbuf_bytes = (plan->rows_base + plan->nmod * out + 1) * esz;
    plan->rbuf = alloc64(plan->rbuf_bytes);
    /* cbuf: what arrives, both ways at the same place, except when the
       product's pieces overlap (exec.c): the way back then after the
       operands. */
    plan->cbuf_rows = plan->chunks > 1 ? 2 * plan->nmod * out : 0;
    plan->cbuf = alloc64((plan->cbuf_rows + 2 * plan->nmod * (in > out ? in : out) + 1) * esz);
    if (!plan->rbuf || !plan->cbuf) return NTT_ENOMEM;
    return NTT_OK;
}

/* Shared memory, where every rank of the plan is on one node (MPI-3
   MPI_COMM_TYPE_SHARED) and no rank's NTT_MPI_SHM is "0": rbuf moves into
   one shared window (each rank's part on its own pages), the others'
   parts are mapped here (MPI_Win_shared_query), and the window stays in a
   passive epoch (lock_all) for MPI_Win_sync around the agreements.
   Collective over the plan's ranks, all of which reach it; any rank that
   cannot (not one node, allocation failed) leaves every rank on the
   all-to-alls.  Returns a status only for a failed MPI call. */
static ntt_status shm_init(ntt_mpi_plan *plan)
{
    const char *e = getenv("NTT_MPI_SHM");
    int want = plan->size > 1 && !(e && e[0] == '0'), all = 0;
    MPI_Comm node = MPI_COMM_NULL;
    if (MPI_Allreduce(MPI_IN_PLACE, &want, 1, MPI_INT, MPI_MIN, plan->comm) != MPI_SUCCESS)
        return NTT_EBACKEND;
    if (!want) return NTT_OK;
    if (MPI_Comm_split_type(plan->comm, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node) !=
        MPI_SUCCESS)
        node = MPI_COMM_NULL;
    int nsize = 0;
    if (node != MPI_COMM_NULL) MPI_Comm_size(node, &nsize);
    int one_node = nsize == plan->size;
    if (MPI_Allreduce(&one_node, &all, 1, MPI_INT, MPI_MIN, plan->comm) != MPI_SUCCESS) all = 0;
    if (node != MPI_COMM_NULL) MPI_Comm_free(&node);
    if (!all) return NTT_OK;
    const size_t bytes = plan->rbuf_bytes;
    MPI_Info info;
    MPI_Info_create(&info);
    MPI_Info_set(info, "alloc_shared_noncontig", "true");
    void *base = NULL;
    MPI_Win win = MPI_WIN_NULL;
    int ok = MPI_Win_allocate_shared((MPI_Aint)bytes, (int)plan->esz, info, plan->comm, &base,
                                     &win) == MPI_SUCCESS;
    MPI_Info_free(&info);
    plan->peer = calloc((size_t)plan->size, sizeof *plan->peer);
    ok = ok && plan->peer;
    for (int r = 0; ok && r < plan->size; r++) {
        MPI_Aint sz;
        int du;
        ok = MPI_Win_shared_query(win, r, &sz, &du, &plan->peer[r]) == MPI_SUCCESS;
    }
    if (MPI_Allreduce(&ok, &all, 1, MPI_INT, MPI_MIN, plan->comm) != MPI_SUCCESS) all = 0;
    if (!all) {
        if (win != MPI_WIN_NULL) MPI_Win_free(&win);
        free(plan->peer);
        plan->peer = NULL;
        return NTT_OK;
    }
    if (MPI_Win_lock_all(MPI_MODE_NOCHECK, win) != MPI_SUCCESS) {
        MPI_Win_free(&win);
        return NTT_EBACKEND;
    }
    free(plan->rbuf);
    plan->rbuf = base;
    plan->win = win;
    plan->shm = true;
    plan->late_agree = true;
    /* Nothing arrives in cbuf: the blocks are read where they were
       written, whole (no pieces: nothing to overlap). */
    free(plan->cbuf);
    plan->cbuf = NULL;
    plan->chunks = 1;
    return set_counts(plan) ? NTT_OK : NTT_EINVAL;
}

void ntt_mpi_mode_get(const ntt_mpi_plan *plan, int *shm, size_t *chunks, int *threads)
{
    if (!plan) return;
    if (shm) *shm = plan->shm;
    if (chunks) *chunks = plan->shm ? 1 : plan->chunks;
    if (threads) *threads = plan->nthreads;
}

/* Everything local once the arguments are agreed. */
static ntt_status plan_build(ntt_mpi_plan *plan, ntt_backend backend, const ntt_plan_options *o,
                             bool small_set, size_t chunks)
{
    plan->late_agree = backend == NTT_BACKEND_CUDA;
    ntt_status s = mpi_moduli_init(plan, small_set);
    if (s == NTT_OK) s = layout_init(plan, chunks);
    if (s == NTT_OK) s = twists_init(plan);
    if (s == NTT_OK) s = work_init(plan, backend, o);
    return s;
}

ntt_status ntt_mpi_plan_create(ntt_mpi_plan **out, MPI_Comm comm, size_t n, uint64_t p,
                               ntt_width width, ntt_backend backend, const ntt_plan_options *opts)
{
    ntt_detail_clear();
    if (out) *out = NULL;
    if (comm == MPI_COMM_NULL) return ntt_fail(NTT_EINVAL, "comm is MPI_COMM_NULL");
    ntt_plan_options o = {0};
    if (opts) o = *opts;
    ntt_status st = NTT_OK;
    if (!out || !pow2_ok(n) || (width != NTT_U32 && width != NTT_U64) ||
        (o.flags & ~NTT_FLAG_NEGACYCLIC) != 0 || o.threads < 0 ||
        (unsigned)o.modmul > NTT_MODMUL_SHOUP || (unsigned)backend >= NTT_BACKEND_COUNT)
        st = ntt_fail(NTT_EINVAL, "plan pointer %s, n = %zu (a power of two, 2 .. 2^40), width "
                      "%d, flags 0x%x (NEGACYCLIC only), threads %d, modmul %d or backend %d out "
                      "of range", out ? "set" : "NULL", n, (int)width, o.flags, o.threads,
                      (int)o.modmul, (int)backend);
    else if (!ntt_backend_available(backend))
        st = ntt_fail_backend(backend);

    ntt_mpi_plan *plan = calloc(1, sizeof *plan);
    if (!plan) st = st ? st : NTT_ENOMEM;
    MPI_Comm dup = MPI_COMM_NULL;
    /* The plan's own communicator: its errors come back as codes. */
    if (MPI_Comm_dup(comm, &dup) != MPI_SUCCESS) {
        free(plan);
        return ntt_fail(NTT_EBACKEND, "MPI_Comm_dup failed");
    }
    MPI_Comm_set_errhandler(dup, MPI_ERRORS_RETURN);
    if (!plan) {
        /* Still take part in the agreement, so that the others learn. */
        ntt_mpi_plan tmp = {.comm = dup};
        (void)mpi_agree(&tmp, NTT_ENOMEM);
        MPI_Comm_free(&dup);
        return NTT_ENOMEM;
    }
    plan->comm = dup;
    plan->win = MPI_WIN_NULL;
    for (int x = 0; x < X_COUNT; x++) plan->xc[x].type = MPI_DATATYPE_NULL;
    MPI_Comm_rank(dup, &plan->rank);
    MPI_Comm_size(dup, &plan->size);
    plan->n = n;
    plan->p = p;
    plan->width = width;
    plan->flags = o.flags;

    /* One allreduce checks that n, p, width and flags agree, picks the CRT
       set every rank can run fast (the small one only if all can), and
       agrees on the status so far. */
    const ntt_backend resolved = backend == NTT_BACKEND_AUTO ? ntt_backend_resolve_auto() : backend;
    const uint64_t small = resolved == NTT_BACKEND_AVX2 || resolved == NTT_BACKEND_AVX512 ||
                           resolved == NTT_BACKEND_OPENMP;
    const uint64_t mine[A_COUNT] = {n, p, (uint64_t)width, o.flags, small, env_chunks()};
    uint64_t v[2 * A_COUNT + 1], r[2 * A_COUNT + 1];
    for (int i = 0; i < A_COUNT; i++) {
        v[2 * i] = mine[i];
        v[2 * i + 1] = ~mine[i];
    }
    v[2 * A_COUNT] = (uint64_t)st;
    if (MPI_Allreduce(v, r, 2 * A_COUNT + 1, MPI_UINT64_T, MPI_MAX, dup) != MPI_SUCCESS)
        st = NTT_EBACKEND;
    else {
        st = (ntt_status)r[2 * A_COUNT];
        for (int i = 0; i < A_COUNT && st == NTT_OK; i++)
            if (i != A_SMALL && i != A_CHUNKS && r[2 * i] != ~r[2 * i + 1]) st = NTT_EINVAL;
    }
    bool small_set = st == NTT_OK && ~r[2 * A_SMALL + 1] == 1; /* the minimum */
    if (st == NTT_OK) st = plan_build(plan, resolved, &o, small_set, (size_t)r[2 * A_CHUNKS]);
    st = mpi_agree(plan, st);
    /* Every rank comes here with the same status: the shared window's
       collective calls are made by all or none. */
    if (st == NTT_OK) st = mpi_agree(plan, shm_init(plan));
    memset(&plan->stats, 0, sizeof plan->stats);
    if (st != NTT_OK) {
        ntt_mpi_plan_destroy(plan);
        return st;
    }
    *out = plan;
    return NTT_OK;
}

ntt_status ntt_mpi_local_size(const ntt_mpi_plan *plan, ntt_mpi_local *l)
{
    if (!plan || !l) return NTT_EINVAL;
    memset(l, 0, sizeof *l);
    l->n = plan->n;
    l->n1 = plan->n1;
    l->n2 = plan->n2;
    l->row_start = plan->row_start;
    l->rows = plan->rows;
    l->in_count = plan->rows * plan->n2;
    l->col_start = plan->col_start;
    l->cols = plan->cols;
    l->out_start = plan->col_start * plan->n1;
    l->out_count = plan->cols * plan->n1;
    l->alloc = l->in_count > l->out_count ? l->in_count : l->out_count;
    l->transforms = plan->direct ? 1 : 0;
    l->moduli = plan->nmod;
    return NTT_OK;
}
