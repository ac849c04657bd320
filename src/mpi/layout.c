/* Scatter and gather between natural order on one rank and a plan's
   layouts.  Root moves one rank's share at a time (point to point), so it
   needs no second copy of the whole array and no count or displacement
   beyond one share (the plan keeps shares within int). */
#include "mpi_internal.h"

#include <stdlib.h>
#include <string.h>

#define XFER_TAG 0x6e74

static size_t share_of(const ntt_mpi_plan *pl, ntt_mpi_layout layout, int r, size_t *start)
{
    if (layout == NTT_MPI_COEFFS) {
        *start = pl->row0[r];
        return (pl->row0[r + 1] - pl->row0[r]) * pl->n2;
    }
    *start = pl->col0[r] * pl->n1;
    return (pl->col0[r + 1] - pl->col0[r]) * pl->n1;
}

static ntt_status xfer(ntt_mpi_plan *pl, ntt_width w, ntt_mpi_layout layout, int root,
                       const void *gin, void *gout, const void *lin, void *lout, bool scatter)
{
    const size_t esz = w == NTT_U32 ? 4 : 8;
    const bool coeffs = layout == NTT_MPI_COEFFS;
    /* Shares are whole rows (coefficients) or columns (spectra): counted in
       those, they fit an int (the plan checked). */
    const size_t unit = coeffs ? pl->n2 : pl->n1;
    ntt_status st = NTT_OK;
    size_t start, my_count = 0, max_share = 0;
    const bool layout_ok = layout == NTT_MPI_COEFFS || layout == NTT_MPI_SPECTRUM;
    if (layout_ok) {
        my_count = share_of(pl, layout, pl->rank, &start);
        for (int r = 0; r < pl->size; r++) {
            const size_t c = share_of(pl, layout, r, &start);
            max_share = c > max_share ? c : max_share;
        }
    }
    const bool is_root = root == pl->rank;
    if (w != pl->width || !layout_ok || root < 0 || root >= pl->size ||
        (my_count && !(scatter ? (const void *)lout : lin)) ||
        (is_root && !(scatter ? gin : (const void *)gout)))
        st = NTT_EINVAL;
    void *tmp = NULL;
    if (st == NTT_OK && is_root && coeffs && !(tmp = malloc(max_share * esz + 1))) st = NTT_ENOMEM;
    MPI_Datatype type = MPI_DATATYPE_NULL;
    if (st == NTT_OK &&
        (MPI_Type_contiguous((int)unit, w == NTT_U32 ? MPI_UINT32_T : MPI_UINT64_T, &type) !=
             MPI_SUCCESS ||
         MPI_Type_commit(&type) != MPI_SUCCESS))
        st = NTT_EBACKEND;
    /* Agree on the status and on the root before anything moves. */
    uint64_t v[3] = {(uint64_t)st, (uint64_t)(int64_t)root, ~(uint64_t)(int64_t)root}, r3[3];
    if (MPI_Allreduce(v, r3, 3, MPI_UINT64_T, MPI_MAX, pl->comm) != MPI_SUCCESS)
        st = NTT_EBACKEND;
    else if (r3[0] != NTT_OK)
        st = (ntt_status)r3[0];
    else if (r3[1] != ~r3[2])
        st = NTT_EINVAL;
    if (st != NTT_OK) {
        free(tmp);
        if (type != MPI_DATATYPE_NULL) MPI_Type_free(&type);
        return st;
    }

    int rc = MPI_SUCCESS;
    if (!is_root) {
        if (my_count)
            rc = scatter ? MPI_Recv(lout, (int)(my_count / unit), type, root, XFER_TAG, pl->comm,
                                    MPI_STATUS_IGNORE)
                         : MPI_Send(lin, (int)(my_count / unit), type, root, XFER_TAG, pl->comm);
    } else {
        for (int r = 0; r < pl->size && rc == MPI_SUCCESS; r++) {
            const size_t count = share_of(pl, layout, r, &start);
            if (count == 0) continue;
            const size_t R = count / pl->n2;
            if (scatter) {
                /* Rank r's rows j1 are the columns of the natural array
                   seen as n2 rows of n1. */
                const void *src = (const char *)gin + start * esz;
                void *dst = r == root ? lout : tmp;
                if (coeffs)
                    mpi_transpose(dst, pl->n2, src, pl->n1, pl->n2, R, esz, false);
                else if (r == root)
                    memcpy(dst, src, count * esz);
                else
                    dst = (void *)src;
                if (r != root) rc = MPI_Send(dst, (int)(count / unit), type, r, XFER_TAG, pl->comm);
            } else {
                void *dst = (char *)gout + start * esz;
                const void *src = lin;
                if (r != root) {
                    void *buf = coeffs ? tmp : dst;
                    rc = MPI_Recv(buf, (int)(count / unit), type, r, XFER_TAG, pl->comm,
                                  MPI_STATUS_IGNORE);
                    src = buf;
                }
                if (coeffs)
                    mpi_transpose(dst, pl->n1, src, pl->n2, R, pl->n2, esz, false);
                else if (r == root)
                    memcpy(dst, src, count * esz);
            }
        }
    }
    free(tmp);
    MPI_Type_free(&type);
    return mpi_agree(pl, rc == MPI_SUCCESS ? NTT_OK : NTT_EBACKEND);
}

#define XFER_API(SUF, TY, W)                                                                   \
    ntt_status ntt_mpi_scatter_##SUF(ntt_mpi_plan *plan, ntt_mpi_layout layout, int root,      \
                                     const TY *global, TY *local)                              \
    {                                                                                          \
        return plan ? xfer(plan, W, layout, root, global, NULL, NULL, local, true) : NTT_EINVAL; \
    }                                                                                          \
    ntt_status ntt_mpi_gather_##SUF(ntt_mpi_plan *plan, ntt_mpi_layout layout, int root,       \
                                    const TY *local, TY *global)                               \
    {                                                                                          \
        return plan ? xfer(plan, W, layout, root, NULL, global, local, NULL, false)            \
                    : NTT_EINVAL;                                                              \
    }

XFER_API(u32, uint32_t, NTT_U32)
XFER_API(u64, uint64_t, NTT_U64)
