/* The master-slave baseline (mpi_master_slave.h): libntt_mpi's public
   header for the communicator types, libntt's public calls for the
   transforms, header-only arithmetic and block split. */
#include "mpi_master_slave.h"
#include "../arith/modarith.h"
#include "fourstep.h"

#include <stdlib.h>
#include <string.h>

struct ntt_mpi_ms {
    MPI_Comm comm;
    int rank, size;
    size_t n;
    uint64_t p;
    ntt_width width;
    size_t esz;
    MPI_Datatype type;
    ntt_plan *plan;      /* rank 0 */
    void *fa, *fb;       /* both spectra, on every rank (the broadcast) */
    void *prod;          /* the gathered product spectrum */
    int *counts, *displs;
    uint64_t pinv, r2;   /* Montgomery: -p^-1, R^2 mod p */
};

void ntt_mpi_ms_destroy(ntt_mpi_ms *ms)
{
    if (!ms) return;
    ntt_plan_destroy(ms->plan);
    free(ms->fa);
    free(ms->prod);
    free(ms->counts);
    if (ms->comm != MPI_COMM_NULL) MPI_Comm_free(&ms->comm);
    free(ms);
}

static ntt_status agree(MPI_Comm comm, ntt_status st)
{
    int mine = (int)st, all = 0;
    if (MPI_Allreduce(&mine, &all, 1, MPI_INT, MPI_MAX, comm) != MPI_SUCCESS) return NTT_EBACKEND;
    return (ntt_status)all;
}

ntt_status ntt_mpi_ms_create(ntt_mpi_ms **out, MPI_Comm comm, size_t n, uint64_t p,
                             ntt_width width, ntt_backend backend)
{
    if (!out || comm == MPI_COMM_NULL) return NTT_EINVAL;
    *out = NULL;
    ntt_mpi_ms *ms = calloc(1, sizeof *ms);
    ntt_status st = ms ? NTT_OK : NTT_ENOMEM;
    MPI_Comm dup;
    if (MPI_Comm_dup(comm, &dup) != MPI_SUCCESS) {
        free(ms);
        return NTT_EBACKEND;
    }
    MPI_Comm_set_errhandler(dup, MPI_ERRORS_RETURN);
    if (!ms) {
        (void)agree(dup, st);
        MPI_Comm_free(&dup);
        return st;
    }
    ms->comm = dup;
    MPI_Comm_rank(dup, &ms->rank);
    MPI_Comm_size(dup, &ms->size);
    ms->n = n;
    ms->p = p;
    ms->width = width;
    ms->esz = width == NTT_U32 ? 4 : 8;
    ms->type = width == NTT_U32 ? MPI_UINT32_T : MPI_UINT64_T;
    if (n > (size_t)INT32_MAX / 2 || p % 2 == 0) st = NTT_EINVAL;
    /* Rank 0 plans (and so checks p); the agreement tells the others. */
    if (st == NTT_OK && ms->rank == 0) st = ntt_plan_create(&ms->plan, n, p, width, backend, NULL);
    if (st == NTT_OK) {
        ms->fa = malloc(2 * n * ms->esz);
        ms->prod = malloc(n * ms->esz);
        ms->counts = malloc(2 * (size_t)ms->size * sizeof(int));
        if (!ms->fa || !ms->prod || !ms->counts) st = NTT_ENOMEM;
    }
    if (st == NTT_OK) {
        ms->fb = (char *)ms->fa + n * ms->esz;
        ms->displs = ms->counts + ms->size;
        for (int r = 0; r < ms->size; r++) {
            const size_t b = ntt_fs_block_start(n, r, ms->size), e = ntt_fs_block_start(n, r + 1, ms->size);
            ms->displs[r] = (int)b;
            ms->counts[r] = (int)(e - b);
        }
        ms->pinv = ntt_mont_pinv64(p);
        const uint64_t r1 = (UINT64_MAX % p + 1) % p;
        ms->r2 = ntt_mulmod_slow(r1, r1, p);
    }
    st = agree(dup, st);
    if (st != NTT_OK) {
        ntt_mpi_ms_destroy(ms);
        return st;
    }
    *out = ms;
    return NTT_OK;
}

/* This rank's slice of the pointwise product: two Montgomery products per
   element, the second by R^2 to undo the first's 1/R. */
static void slice_product(const ntt_mpi_ms *ms, void *dst, size_t b, size_t e)
{
    const uint64_t p = ms->p, pinv = ms->pinv, r2 = ms->r2;
    for (size_t i = b; i < e; i++) {
        uint64_t x, y;
        if (ms->width == NTT_U32) {
            x = ((const uint32_t *)ms->fa)[i];
            y = ((const uint32_t *)ms->fb)[i];
        } else {
            x = ((const uint64_t *)ms->fa)[i];
            y = ((const uint64_t *)ms->fb)[i];
        }
        uint64_t z = ntt_csub64(ntt_mont64(ntt_csub64(ntt_mont64(x, y, p, pinv), p), r2, p, pinv), p);
        if (ms->width == NTT_U32)
            ((uint32_t *)dst)[i] = (uint32_t)z;
        else
            ((uint64_t *)dst)[i] = z;
    }
}

static ntt_status ms_polymul(ntt_mpi_ms *ms, ntt_width w, void *c, const void *a, const void *b)
{
    if (!ms) return NTT_EINVAL;
    const size_t n = ms->n, esz = ms->esz;
    ntt_status st = NTT_OK;
    if (w != ms->width || (ms->rank == 0 && (!a || !b || !c))) st = NTT_EINVAL;
    if (ms->rank == 0 && st == NTT_OK) {
        memcpy(ms->fa, a, n * esz);
        memcpy(ms->fb, b, n * esz);
        st = w == NTT_U32 ? ntt_forward_u32(ms->plan, ms->fa) : ntt_forward_u64(ms->plan, ms->fa);
        if (st == NTT_OK)
            st = w == NTT_U32 ? ntt_forward_u32(ms->plan, ms->fb) : ntt_forward_u64(ms->plan, ms->fb);
    }
    st = agree(ms->comm, st);
    if (st != NTT_OK) return st;
    int rc = MPI_Bcast(ms->fa, (int)(2 * n), ms->type, 0, ms->comm);
    if (rc == MPI_SUCCESS) {
        const size_t b0 = (size_t)ms->displs[ms->rank];
        slice_product(ms, ms->prod, b0, b0 + (size_t)ms->counts[ms->rank]);
        rc = MPI_Allgatherv(MPI_IN_PLACE, 0, ms->type, ms->prod, ms->counts, ms->displs, ms->type,
                            ms->comm);
    }
    st = rc == MPI_SUCCESS ? NTT_OK : NTT_EBACKEND;
    if (ms->rank == 0 && st == NTT_OK) {
        memcpy(c, ms->prod, n * esz);
        st = w == NTT_U32 ? ntt_inverse_u32(ms->plan, c) : ntt_inverse_u64(ms->plan, c);
    }
    return agree(ms->comm, st);
}

ntt_status ntt_mpi_ms_polymul_u32(ntt_mpi_ms *ms, uint32_t *c, const uint32_t *a, const uint32_t *b)
{
    return ms_polymul(ms, NTT_U32, c, a, b);
}

ntt_status ntt_mpi_ms_polymul_u64(ntt_mpi_ms *ms, uint64_t *c, const uint64_t *a, const uint64_t *b)
{
    return ms_polymul(ms, NTT_U64, c, a, b);
}
