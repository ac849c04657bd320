/* The distributed transforms and product: local work in bands on the
   library's batched plans (bands as units of the plan's pool, src/pool:
   the library's own threads, as libntt's), one exchange per direction,
   one status allreduce after each.

   Message layouts (elements; R_r rows of rank r, C_s columns of rank s):
     rows -> columns (forward; a product's operands):  rank r sends rank s
       a block of its rows and s's columns, runs of R_r elements, one per
       operand o, modulus k and column c < C_s: each row band is
       transposed into them;
     columns -> rows (inverse; a product's result):  rank s sends rank r
       a block of runs of R_r elements, one per modulus and column c < C_s,
       transposed back into rows on arrival.
   A block is `chunks` pieces of consecutive columns, each [o][k][c][j]
   (mpi_run_off), so that piece k of every block is one message.

   The exchange, three ways:
     - shared memory (every rank on one node): nothing is sent; a rank
       reads the runs meant for it where their owner wrote them (one copy
       instead of MPI's two), and the agreements are the only
       synchronisation (MPI_Win_sync around them); one more agreement ends
       each call, so that no rank writes its buffers while another still
       reads them;
     - the product across nodes: piece k + 1 of the operands and piece
       k - 1 of the result travel (MPI_Ialltoallv) while the columns of
       piece k are worked on; one agreement after the last piece;
     - forward and inverse across nodes: one MPI_Alltoallv.
   A rank's block to itself never moves: it is read where it was written.

   The column twist (the four-step twiddles, and for negacyclic plans the
   psi^j1 factor) is applied as the runs are gathered into a column and
   undone as they are cut out again: the column pass reads each run once.
   The last local pass of a product (the inverse row transforms) runs in
   the caller's output, where the transposed rows arrive. */
#include "mpi_internal.h"
#include "../pool/pool.h"

#include <stdatomic.h>
#include <string.h>

#define AT(base, i) ((char *)(base) + (size_t)(i) * esz)
#define CAT(base, i) ((const char *)(base) + (size_t)(i) * esz)

/* One loop over bands: its operands and its status, the larger of the
   bands' (the agreement's rule).  Column bands cover the local columns
   [c_lo, c_hi). */
typedef struct {
    ntt_mpi_plan *pl;
    const void *const *src;
    const void *in;
    void *out;
    size_t ops;
    size_t c_lo, c_hi, W; /* W: columns per band (0: the plan's) */
    atomic_int st;
} band_loop;

static void band_status(band_loop *L, ntt_status s)
{
    int old = atomic_load(&L->st);
    while ((int)s > old && !atomic_compare_exchange_weak(&L->st, &old, (int)s)) {
    }
}

/* fn over `bands` bands on the plan's threads. */
static ntt_status bands_run(band_loop *L, size_t bands, ntt_pool_fn fn)
{
    atomic_init(&L->st, NTT_OK);
    ntt_pool_for(L->pl->pool, bands, fn, L);
    return (ntt_status)atomic_load(&L->st);
}

static size_t rows_of(const ntt_mpi_plan *pl, int r) { return pl->row0[r + 1] - pl->row0[r]; }
static size_t cols_of(const ntt_mpi_plan *pl, int r) { return pl->col0[r + 1] - pl->col0[r]; }

/* Where the blocks of exchange x are written before it: rbuf; those of the
   way back after the operands' (a product's column phase still reads its
   own block of the operands there while it writes them). */
static void *sendbuf(const ntt_mpi_plan *pl, int x)
{
    return (char *)pl->rbuf + (x == X_ROWS ? pl->rows_base * pl->esz : 0);
}

/* Where exchange x's blocks from the other ranks arrive.  With the
   product in pieces both ways are in flight at once: the way back lands
   after the operands. */
static void *recvbuf(const ntt_mpi_plan *pl, int x)
{
    return (char *)pl->cbuf + (x == X_ROWS ? pl->cbuf_rows * pl->esz : 0);
}

static void count_bytes(ntt_mpi_plan *pl, int x)
{
    const mpi_xchg *xc = &pl->xc[x];
    for (int i = 0; i < pl->size; i++)
        if (i != pl->rank)
            pl->stats.bytes_sent += (xc->soff[i + 1] - xc->soff[i]) * pl->esz;
}

/* The whole exchange x, then the status agreement.  A rank with a local
   error still exchanges (its data is not used), so no rank waits for it.
   With shared memory the agreement is the exchange: what a rank wrote
   before it is visible to every rank after it. */
static ntt_status exchange(ntt_mpi_plan *pl, int x, ntt_status st)
{
    const mpi_xchg *xc = &pl->xc[x];
    const double t0 = mpi_now();
    int rc = MPI_SUCCESS;
    if (pl->shm)
        rc = MPI_Win_sync(pl->win);
    else
        rc = MPI_Alltoallv(sendbuf(pl, x), xc->scount, xc->sdispl, xc->type, recvbuf(pl, x),
                           xc->rcount, xc->rdispl, xc->type, pl->comm);
    pl->stats.exchange_s += mpi_now() - t0;
    pl->stats.exchanges++;
    count_bytes(pl, x);
    if (rc != MPI_SUCCESS) st = NTT_EBACKEND;
    st = mpi_agree(pl, st);
    if (pl->shm && MPI_Win_sync(pl->win) != MPI_SUCCESS) st = NTT_EBACKEND;
    return st;
}

static ntt_status transform(ntt_plan *plan, ntt_width w, void *a, size_t count, size_t stride,
                            bool inverse)
{
    if (w == NTT_U32)
        return inverse ? ntt_inverse_batch_u32(plan, a, count, stride)
                       : ntt_forward_batch_u32(plan, a, count, stride);
    return inverse ? ntt_inverse_batch_u64(plan, a, count, stride)
                   : ntt_forward_batch_u64(plan, a, count, stride);
}

/* The twist of local column c, modulus k, forward (dir 0) or inverse, on
   one run of len elements; z carries the factors from run to run. */
typedef struct {
    uint64_t z[TW_LANES_U32];
} twist_state;

static void twist_start(const ntt_mpi_plan *pl, twist_state *z, size_t k, size_t c, int dir)
{
    const size_t L = pl->ww == NTT_U32 ? TW_LANES_U32 : TW_LANES_U64;
    memcpy(z->z, pl->tw[(k * pl->cols + c) * 2 + (size_t)dir].z0, L * pl->esz);
}

static void twist_run(const ntt_mpi_plan *pl, void *dst, const void *src, size_t len,
                      twist_state *z, size_t k, size_t c, int dir)
{
    const mpi_twist *t = &pl->tw[(k * pl->cols + c) * 2 + (size_t)dir];
    /* Plain stores: the runs are read again soon (by the other phase or
       by MPI), from the cache where it holds them. */
    if (pl->ww == NTT_U32)
        mpi_twist_run_u32(dst, src, len, (uint32_t *)z->z, t, &pl->mod[k], false);
    else
        mpi_twist_run_u64(dst, src, len, z->z, t, &pl->mod[k], false);
}

/* ---- rows -> columns ------------------------------------------------------------ */

/* Loads `ops` operands' local rows (caller's width), runs the row
   transforms and transposes each band into the message blocks in rbuf,
   piece by piece. */
static void rows_out_band(void *arg, unsigned phase, size_t b, int t)
{
    (void)phase;
    band_loop *L = arg;
    ntt_mpi_plan *pl = L->pl;
    const size_t ops = L->ops;
    const size_t *soff = pl->xc[ops == 1 ? X_COLS1 : X_COLS2].soff;
    const size_t esz = pl->esz, n2 = pl->n2, R = pl->rows, H = pl->band_rows;
    const size_t cesz = pl->width == NTT_U32 ? 4 : 8;
    mpi_thread *th = &pl->th[t];
    const size_t j0 = b * H, h = R - j0 < H ? R - j0 : H;
    /* Rows in the workspace a line apart more than their length: the
       transposes' tiles then read rows from different cache sets (a
       power-of-two stride puts them all in one). */
    const size_t ld = n2 >= 64 ? n2 + 64 / esz : n2;
    for (size_t o = 0; o < ops; o++)
        for (size_t k = 0; k < pl->nmod; k++) {
            bool bad = false;
            for (size_t i = 0; i < h; i++)
                bad |= mpi_load(pl, AT(th->ws, i * ld),
                                (const char *)L->src[o] + (j0 + i) * n2 * cesz, n2, k);
            if (bad) {
                band_status(L, NTT_ERANGE);
                continue;
            }
            if (th->row[k]) {
                const ntt_status s = transform(th->row[k], pl->ww, th->ws, h, ld, false);
                if (s != NTT_OK) {
                    band_status(L, s);
                    continue;
                }
            }
            for (int d = 0; d < pl->size; d++) {
                const size_t C = cols_of(pl, d);
                for (size_t q = 0; q < pl->chunks; q++) {
                    const size_t lo = mpi_piece_lo(C, q, pl->chunks);
                    const size_t Cq = mpi_piece_lo(C, q + 1, pl->chunks) - lo;
                    if (Cq == 0) continue;
                    void *dst = AT(pl->rbuf, soff[d] + mpi_run_off(pl, ops, R, C, o, k, lo) + j0);
                    mpi_transpose(dst, R, CAT(th->ws, pl->col0[d] + lo), ld, h, Cq, esz, false);
                }
            }
        }
}

static ntt_status rows_out(ntt_mpi_plan *pl, const void *const *src, size_t ops)
{
    const size_t R = pl->rows, H = pl->band_rows;
    band_loop L = {.pl = pl, .src = src, .ops = ops};
    return bands_run(&L, (R + H - 1) / H, rows_out_band);
}

/* Where exchange x left what rank r sent this rank: this rank's own block
   where it was written (the plan leaves it out of the all-to-all: MPI
   would only copy it), with shared memory r's block in r's buffer, else
   in cbuf. */
static const void *received(const ntt_mpi_plan *pl, int x, int r)
{
    const size_t esz = pl->esz;
    if (r == pl->rank) return CAT(sendbuf(pl, x), pl->xc[x].soff[r]);
    if (pl->shm) return CAT(pl->peer[r], pl->xc[x].peer_off[r]);
    return CAT(recvbuf(pl, x), pl->xc[x].roff[r]);
}

/* Column c's n1 elements of operand o, modulus k from the received runs,
   twisted (forward).  Where every run starts at a multiple of the twist's
   lanes, each run is twisted as it is copied; otherwise the column is
   copied whole, then twisted. */
static void gather_column(const ntt_mpi_plan *pl, int x, void *col, size_t o, size_t k, size_t c)
{
    const size_t esz = pl->esz, ops = x == X_COLS2 ? 2 : 1;
    twist_state z;
    twist_start(pl, &z, k, c, 0);
    for (int r = 0; r < pl->size; r++) {
        const size_t R = rows_of(pl, r);
        if (R == 0) continue;
        const void *run = CAT(received(pl, x, r), mpi_run_off(pl, ops, R, pl->cols, o, k, c));
        if (pl->runs_aligned)
            twist_run(pl, AT(col, pl->row0[r]), run, R, &z, k, c, 0);
        else
            memcpy(AT(col, pl->row0[r]), run, R * esz);
    }
    if (!pl->runs_aligned) twist_run(pl, col, col, pl->n1, &z, k, c, 0);
}

/* Column c (modulus k) untwisted (inverse) and cut into runs for the
   columns -> rows message. */
static void scatter_column(const ntt_mpi_plan *pl, void *col, size_t k, size_t c)
{
    const size_t *soff = pl->xc[X_ROWS].soff;
    const size_t esz = pl->esz;
    twist_state z;
    twist_start(pl, &z, k, c, 1);
    if (!pl->runs_aligned) twist_run(pl, col, col, pl->n1, &z, k, c, 1);
    for (int r = 0; r < pl->size; r++) {
        const size_t R = rows_of(pl, r);
        if (R == 0) continue;
        void *run = AT(sendbuf(pl, X_ROWS), soff[r] + mpi_run_off(pl, 1, R, pl->cols, 0, k, c));
        if (pl->runs_aligned)
            twist_run(pl, run, CAT(col, pl->row0[r]), R, &z, k, c, 1);
        else
            memcpy(run, CAT(col, pl->row0[r]), R * esz);
    }
}

/* ---- columns -> rows ------------------------------------------------------------ */

/* The received blocks transposed into rows, the inverse row transforms,
   and the caller's output.  Direct plans: the rows arrive in the output
   itself and are transformed there (the output is written once, no
   copy); CRT plans: in the workspace, then Garner writes the output. */
static void rows_in_band(void *arg, unsigned phase, size_t b, int t)
{
    (void)phase;
    band_loop *L = arg;
    ntt_mpi_plan *pl = L->pl;
    const size_t esz = pl->esz, n2 = pl->n2, R = pl->rows, H = pl->band_rows;
    mpi_thread *th = &pl->th[t];
    const size_t j0 = b * H, h = R - j0 < H ? R - j0 : H;
    for (size_t k = 0; k < pl->nmod; k++) {
        void *y = pl->direct ? AT(L->out, j0 * n2) : AT(th->ws, k * h * n2);
        for (int s = 0; s < pl->size; s++) {
            const size_t C = cols_of(pl, s);
            const char *src = received(pl, X_ROWS, s);
            for (size_t q = 0; q < pl->chunks; q++) {
                const size_t lo = mpi_piece_lo(C, q, pl->chunks);
                const size_t Cq = mpi_piece_lo(C, q + 1, pl->chunks) - lo;
                if (Cq == 0) continue;
                mpi_transpose(AT(y, pl->col0[s] + lo), n2,
                              CAT(src, mpi_run_off(pl, 1, R, C, 0, k, lo) + j0), R, Cq, h, esz,
                              false);
            }
        }
        if (th->row[k]) {
            const ntt_status s = transform(th->row[k], pl->ww, y, h, n2, true);
            if (s != NTT_OK) band_status(L, s);
        }
    }
    if (!pl->direct)
        mpi_crt_store(pl, (char *)L->out + j0 * n2 * (pl->width == NTT_U32 ? 4 : 8), th->ws,
                      h * n2, h * n2);
}

static ntt_status rows_in(ntt_mpi_plan *pl, void *out)
{
    const size_t R = pl->rows, H = pl->band_rows;
    band_loop L = {.pl = pl, .out = out};
    return bands_run(&L, (R + H - 1) / H, rows_in_band);
}

/* The end of every call.  The work after the last agreement runs the
   local plans on inputs they cannot reject, and CPU plans do not fail at
   run time; a GPU can, so with CUDA as the local backend one more
   agreement makes the status common.  With shared memory the same
   agreement tells every rank that the others have read its buffers. */
static ntt_status finish(ntt_mpi_plan *pl, ntt_status st, double t0)
{
    if (pl->late_agree) st = mpi_agree(pl, st);
    pl->stats.total_s += mpi_now() - t0;
    return st;
}

/* ---- the public calls ---------------------------------------------------------------- */

static bool array_ok(const void *x, size_t count) { return x != NULL || count == 0; }

/* Bands of the local columns [lo, hi). */
static size_t col_bands(const ntt_mpi_plan *pl, size_t lo, size_t hi)
{
    return (hi - lo + pl->band_cols - 1) / pl->band_cols;
}

/* Band b's columns: [*c0, *c0 + return). */
static size_t band_cols(const band_loop *L, size_t b, size_t *c0)
{
    const size_t W = L->W ? L->W : L->pl->band_cols;
    *c0 = L->c_lo + b * W;
    return L->c_hi - *c0 < W ? L->c_hi - *c0 : W;
}

/* The forward column transforms of band b. */
static void forward_band(void *arg, unsigned phase, size_t b, int t)
{
    (void)phase;
    band_loop *L = arg;
    ntt_mpi_plan *pl = L->pl;
    const size_t esz = pl->esz, n1 = pl->n1;
    mpi_thread *th = &pl->th[t];
    size_t c0;
    const size_t wc = band_cols(L, b, &c0);
    for (size_t c = c0; c < c0 + wc; c++) gather_column(pl, X_COLS1, AT(L->out, c * n1), 0, 0, c);
    const ntt_status s = transform(th->col[0], pl->ww, AT(L->out, c0 * n1), wc, n1, false);
    if (s != NTT_OK) band_status(L, s);
}

/* The inverse column transforms of band b, cut into runs. */
static void inverse_band(void *arg, unsigned phase, size_t b, int t)
{
    (void)phase;
    band_loop *L = arg;
    ntt_mpi_plan *pl = L->pl;
    const size_t esz = pl->esz, n1 = pl->n1;
    mpi_thread *th = &pl->th[t];
    size_t c0;
    const size_t wc = band_cols(L, b, &c0);
    if (mpi_load(pl, th->ws, CAT(L->in, c0 * n1), wc * n1, 0)) {
        band_status(L, NTT_ERANGE);
        return;
    }
    const ntt_status s = transform(th->col[0], pl->ww, th->ws, wc, n1, true);
    if (s != NTT_OK) {
        band_status(L, s);
        return;
    }
    for (size_t c = c0; c < c0 + wc; c++) scatter_column(pl, AT(th->ws, (c - c0) * n1), 0, c);
}

/* x = x * y, wc cyclic products of columns n1 long, in place where the
   band lies (the L2): the batched transforms, the pointwise product, the
   inverse.  ntt_polymul_batch would copy both operands into the plan's
   workspace first: 1.3x the column phase's time at 2^20 here.  A GPU's
   plan takes the fused call (one trip to the device, not four). */
static ntt_status column_products(ntt_plan *plan, ntt_width w, void *x, void *y, size_t wc,
                                  size_t n1)
{
    ntt_status s;
    if (ntt_plan_backend(plan) == NTT_BACKEND_CUDA)
        return w == NTT_U32 ? ntt_polymul_batch_u32(plan, x, x, y, wc, n1)
                            : ntt_polymul_batch_u64(plan, x, x, y, wc, n1);
    if (w == NTT_U32) {
        if ((s = ntt_forward_batch_u32(plan, x, wc, n1)) != NTT_OK ||
            (s = ntt_forward_batch_u32(plan, y, wc, n1)) != NTT_OK ||
            (s = ntt_pointwise_batch_u32(plan, x, x, y, wc, n1)) != NTT_OK)
            return s;
        return ntt_inverse_batch_u32(plan, x, wc, n1);
    }
    if ((s = ntt_forward_batch_u64(plan, x, wc, n1)) != NTT_OK ||
        (s = ntt_forward_batch_u64(plan, y, wc, n1)) != NTT_OK ||
        (s = ntt_pointwise_batch_u64(plan, x, x, y, wc, n1)) != NTT_OK)
        return s;
    return ntt_inverse_batch_u64(plan, x, wc, n1);
}

/* The column products of band b: twist both operands as they are
   gathered, the products in place (column_products), untwist as the
   result is cut into runs (the way back's blocks, in rbuf after the
   operands': this rank's own operand blocks are still read there). */
static void polymul_band(void *arg, unsigned phase, size_t bd, int t)
{
    (void)phase;
    band_loop *L = arg;
    ntt_mpi_plan *pl = L->pl;
    const size_t esz = pl->esz, n1 = pl->n1;
    mpi_thread *th = &pl->th[t];
    size_t c0;
    const size_t wc = band_cols(L, bd, &c0);
    void *x = th->ws, *y = AT(th->ws, wc * n1);
    for (size_t k = 0; k < pl->nmod; k++) {
        for (size_t cc = c0; cc < c0 + wc; cc++) {
            gather_column(pl, X_COLS2, AT(x, (cc - c0) * n1), 0, k, cc);
            gather_column(pl, X_COLS2, AT(y, (cc - c0) * n1), 1, k, cc);
        }
        const ntt_status s = column_products(th->col[k], pl->ww, x, y, wc, n1);
        if (s != NTT_OK) {
            band_status(L, s);
            continue;
        }
        for (size_t cc = c0; cc < c0 + wc; cc++) scatter_column(pl, AT(x, (cc - c0) * n1), k, cc);
    }
}

static ntt_status forward(ntt_mpi_plan *pl, ntt_width w, const void *in, void *out)
{
    const double t0 = mpi_now();
    ntt_status st = NTT_OK;
    if (w != pl->width || !array_ok(in, pl->rows * pl->n2) || !array_ok(out, pl->cols * pl->n1))
        st = NTT_EINVAL;
    else if (!pl->direct)
        st = NTT_EMODULUS;
    if (st == NTT_OK) st = rows_out(pl, &in, 1);
    st = exchange(pl, X_COLS1, st);
    if (st == NTT_OK) {
        band_loop L = {.pl = pl, .out = out, .c_hi = pl->cols};
        st = bands_run(&L, col_bands(pl, 0, pl->cols), forward_band);
    }
    return finish(pl, st, t0);
}

static ntt_status inverse(ntt_mpi_plan *pl, ntt_width w, const void *in, void *out)
{
    const double t0 = mpi_now();
    ntt_status st = NTT_OK;
    if (w != pl->width || !array_ok(in, pl->cols * pl->n1) || !array_ok(out, pl->rows * pl->n2))
        st = NTT_EINVAL;
    else if (!pl->direct)
        st = NTT_EMODULUS;
    if (st == NTT_OK) {
        band_loop L = {.pl = pl, .in = in, .c_hi = pl->cols};
        st = bands_run(&L, col_bands(pl, 0, pl->cols), inverse_band);
    }
    st = exchange(pl, X_ROWS, st);
    if (st == NTT_OK) st = rows_in(pl, out);
    return finish(pl, st, t0);
}

/* ---- the product's pieces, overlapped ------------------------------------------------ */

/* Posts piece q of exchange x into *req (MPI_REQUEST_NULL if it failed). */
static ntt_status post_piece(ntt_mpi_plan *pl, int x, size_t q, MPI_Request *req)
{
    const mpi_xchg *xc = &pl->xc[x];
    const int P = pl->size;
    const int *kc = xc->kc + 4 * (size_t)P * q;
    const double t0 = mpi_now();
    const int rc = MPI_Ialltoallv(sendbuf(pl, x), kc, kc + P, xc->type, recvbuf(pl, x), kc + 2 * P,
                                  kc + 3 * P, xc->type, pl->comm, req);
    pl->stats.exchange_s += mpi_now() - t0;
    if (rc == MPI_SUCCESS) return NTT_OK;
    *req = MPI_REQUEST_NULL;
    return NTT_EBACKEND;
}

static ntt_status wait_piece(ntt_mpi_plan *pl, MPI_Request *req)
{
    const double t0 = mpi_now();
    const int rc = MPI_Wait(req, MPI_STATUS_IGNORE);
    pl->stats.exchange_s += mpi_now() - t0;
    return rc == MPI_SUCCESS ? NTT_OK : NTT_EBACKEND;
}

/* Lets MPI move the pieces in flight (most MPIs progress a nonblocking
   collective only inside MPI calls, made here by the calling thread). */
static void poke(ntt_mpi_plan *pl, MPI_Request *a, MPI_Request *b)
{
    const double t0 = mpi_now();
    int done;
    if (a && *a != MPI_REQUEST_NULL) MPI_Test(a, &done, MPI_STATUS_IGNORE);
    if (b && *b != MPI_REQUEST_NULL) MPI_Test(b, &done, MPI_STATUS_IGNORE);
    pl->stats.exchange_s += mpi_now() - t0;
}

static ntt_status larger(ntt_status a, ntt_status b) { return a > b ? a : b; }

/* The product's exchanges in pieces: piece q's columns are worked on
   while piece q + 1 of the operands arrives and piece q - 1 of the result
   leaves.  A rank with a local error takes part in every piece (sending
   what it has) and skips the work; one agreement after the last piece
   makes the status common before anything is written. */
static ntt_status polymul_pieces(ntt_mpi_plan *pl, ntt_status st)
{
    const size_t K = pl->chunks;
    MPI_Request *fwd = pl->req, *back = pl->req + K;
    for (size_t q = 0; q < 2 * K; q++) pl->req[q] = MPI_REQUEST_NULL;
    ntt_status mpi_st = post_piece(pl, X_COLS2, 0, &fwd[0]);
    const size_t group = (size_t)pl->nthreads;
    for (size_t q = 0; q < K; q++) {
        mpi_st = larger(mpi_st, wait_piece(pl, &fwd[q]));
        if (q + 1 < K) mpi_st = larger(mpi_st, post_piece(pl, X_COLS2, q + 1, &fwd[q + 1]));
        if (st == NTT_OK && mpi_st == NTT_OK) {
            /* The piece's columns in bands narrow enough for every thread,
               a round of bands (one per thread) at a time, MPI poked
               between rounds. */
            const size_t lo = mpi_piece_lo(pl->cols, q, K), hi = mpi_piece_lo(pl->cols, q + 1, K);
            size_t W = (hi - lo + group - 1) / group;
            W = W < 1 ? 1 : W > pl->band_cols ? pl->band_cols : W;
            const size_t nb = (hi - lo + W - 1) / W;
            for (size_t b = 0; b < nb; b += group) {
                band_loop L = {.pl = pl, .c_lo = lo + b * W, .c_hi = hi, .W = W};
                st = larger(st, bands_run(&L, nb - b < group ? nb - b : group, polymul_band));
                poke(pl, q + 1 < K ? &fwd[q + 1] : NULL, q > 0 ? &back[q - 1] : NULL);
            }
        }
        mpi_st = larger(mpi_st, post_piece(pl, X_ROWS, q, &back[q]));
    }
    for (size_t q = 0; q < K; q++) mpi_st = larger(mpi_st, wait_piece(pl, &back[q]));
    pl->stats.exchanges += 2;
    count_bytes(pl, X_COLS2);
    count_bytes(pl, X_ROWS);
    return mpi_agree(pl, larger(st, mpi_st));
}

static ntt_status polymul(ntt_mpi_plan *pl, ntt_width w, void *c, const void *a, const void *b)
{
    const double t0 = mpi_now();
    const size_t cnt = pl->rows * pl->n2;
    ntt_status st = NTT_OK;
    if (w != pl->width || !array_ok(a, cnt) || !array_ok(b, cnt) || !array_ok(c, cnt))
        st = NTT_EINVAL;
    const void *src[2] = {a, b};
    if (st == NTT_OK) st = rows_out(pl, src, 2);
    if (!pl->shm && pl->chunks > 1) {
        st = polymul_pieces(pl, st);
    } else {
        st = exchange(pl, X_COLS2, st);
        if (st == NTT_OK) {
            band_loop L = {.pl = pl, .c_hi = pl->cols};
            st = exchange(pl, X_ROWS, bands_run(&L, col_bands(pl, 0, pl->cols), polymul_band));
        }
    }
    if (st == NTT_OK) st = rows_in(pl, c);
    return finish(pl, st, t0);
}

#define EXEC_API(SUF, TY, W)                                                                  \
    ntt_status ntt_mpi_forward_##SUF(ntt_mpi_plan *plan, const TY *in, TY *out)               \
    { return plan ? forward(plan, W, in, out) : NTT_EINVAL; }                                 \
    ntt_status ntt_mpi_inverse_##SUF(ntt_mpi_plan *plan, const TY *in, TY *out)               \
    { return plan ? inverse(plan, W, in, out) : NTT_EINVAL; }                                 \
    ntt_status ntt_mpi_polymul_##SUF(ntt_mpi_plan *plan, TY *c, const TY *a, const TY *b)     \
    { return plan ? polymul(plan, W, c, a, b) : NTT_EINVAL; }

EXEC_API(u32, uint32_t, NTT_U32)
EXEC_API(u64, uint64_t, NTT_U64)
