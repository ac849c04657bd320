// The NCCL stand-in (nccl.h here): one process, the ranks of a
// communicator set are devices of tests/cuda_emu, whose memory is the
// host's, so every transfer is a memcpy when its partners have all posted.
#include "nccl.h"

#include <cstdint>
#include <cstdlib>
#include <cstring>

struct ncclComm {
    int set;     // the ncclCommInitAll call that made it
    int rank, nranks;
};

namespace {

enum Kind { SEND, RECV, ALLREDUCE, BCAST };
struct Op {
    Kind kind;
    const void *src;
    void *dst;
    size_t bytes, count;
    ncclDataType_t type;
    ncclRedOp_t red;
    int peer;  // send/recv: the other rank; bcast: the root
    int set, rank, nranks;
    bool done;
};

const int kMaxOps = 1 << 14;
Op g_ops[kMaxOps];
int g_nops, g_depth, g_sets;
ncclResult_t g_error = ncclSuccess;

size_t type_size(ncclDataType_t t)
{
    switch (t) {
    case ncclInt8: case ncclUint8: return 1;
    case ncclInt32: case ncclUint32: return 4;
    case ncclInt64: case ncclUint64: return 8;
    }
    return 0;
}

template <class T> void reduce(T *acc, const T *x, size_t n, ncclRedOp_t op)
{
    for (size_t i = 0; i < n; i++) switch (op) {
        case ncclSum: acc[i] = (T)(acc[i] + x[i]); break;
        case ncclProd: acc[i] = (T)(acc[i] * x[i]); break;
        case ncclMax: acc[i] = x[i] > acc[i] ? x[i] : acc[i]; break;
        case ncclMin: acc[i] = x[i] < acc[i] ? x[i] : acc[i]; break;
        }
}

void reduce_any(void *acc, const void *x, size_t n, ncclDataType_t t, ncclRedOp_t op)
{
    switch (t) {
    case ncclInt8: reduce((int8_t *)acc, (const int8_t *)x, n, op); break;
    case ncclUint8: reduce((uint8_t *)acc, (const uint8_t *)x, n, op); break;
    case ncclInt32: reduce((int32_t *)acc, (const int32_t *)x, n, op); break;
    case ncclUint32: reduce((uint32_t *)acc, (const uint32_t *)x, n, op); break;
    case ncclInt64: reduce((int64_t *)acc, (const int64_t *)x, n, op); break;
    case ncclUint64: reduce((uint64_t *)acc, (const uint64_t *)x, n, op); break;
    }
}

// The parts of collective c (same kind and set, not done) of every rank, in
// posting order: the first not-done one of each rank.  False if a rank has
// none.
bool parts(const Op &c, Op **by_rank)
{
    for (int r = 0; r < c.nranks; r++) by_rank[r] = nullptr;
    for (int i = 0; i < g_nops; i++) {
        Op &o = g_ops[i];
        if (!o.done && o.kind == c.kind && o.set == c.set && !by_rank[o.rank]) by_rank[o.rank] = &o;
    }
    for (int r = 0; r < c.nranks; r++)
        if (!by_rank[r] || by_rank[r]->count != c.count || by_rank[r]->type != c.type) return false;
    return true;
}

ncclResult_t run_pending()
{
    ncclResult_t res = ncclSuccess;
    // Point to point: each send with the first matching receive.
    for (int i = 0; i < g_nops; i++) {
        Op &s = g_ops[i];
        if (s.done || s.kind != SEND) continue;
        for (int j = 0; j < g_nops; j++) {
            Op &r = g_ops[j];
            if (r.done || r.kind != RECV || r.set != s.set || r.rank != s.peer || r.peer != s.rank)
                continue;
            if (r.bytes != s.bytes) res = ncclInvalidUsage;
            else if (s.bytes) memmove(r.dst, s.src, s.bytes);
            s.done = r.done = true;
            break;
        }
    }
    // Collectives: every rank's part, in posting order.
    Op *by_rank[64];
    for (int i = 0; i < g_nops; i++) {
        Op &c = g_ops[i];
        if (c.done || (c.kind != ALLREDUCE && c.kind != BCAST)) continue;
        if (c.nranks > 64 || !parts(c, by_rank)) {
            res = ncclInvalidUsage;
            continue;
        }
        const size_t bytes = c.count * type_size(c.type);
        if (c.kind == ALLREDUCE) {
            void *acc = malloc(bytes ? bytes : 1);
            memcpy(acc, by_rank[0]->src, bytes);
            for (int r = 1; r < c.nranks; r++)
                reduce_any(acc, by_rank[r]->src, c.count, c.type, c.red);
            for (int r = 0; r < c.nranks; r++) memcpy(by_rank[r]->dst, acc, bytes);
            free(acc);
        } else {
            const int root = c.peer;
            void *tmp = malloc(bytes ? bytes : 1);
            memcpy(tmp, by_rank[root]->src, bytes);
            for (int r = 0; r < c.nranks; r++) memcpy(by_rank[r]->dst, tmp, bytes);
            free(tmp);
        }
        for (int r = 0; r < c.nranks; r++) by_rank[r]->done = true;
    }
    for (int i = 0; i < g_nops; i++)
        if (!g_ops[i].done) res = ncclInvalidUsage;
    g_nops = 0;
    return res;
}

ncclResult_t post(const Op &o)
{
    if (!o.bytes && o.count) return ncclInvalidArgument;
    if (g_nops == kMaxOps) return ncclInternalError;
    g_ops[g_nops] = o;
    g_ops[g_nops++].done = false;
    return g_depth ? ncclSuccess : run_pending();
}

Op make(Kind k, const void *src, void *dst, size_t count, ncclDataType_t t, int peer, ncclComm_t c)
{
    Op o;
    memset(&o, 0, sizeof o);
    o.kind = k;
    o.src = src;
    o.dst = dst;
    o.count = count;
    o.type = t;
    o.bytes = count * type_size(t);
    o.peer = peer;
    o.set = c->set;
    o.rank = c->rank;
    o.nranks = c->nranks;
    return o;
}

}  // namespace

extern "C" {

const char *ncclGetErrorString(ncclResult_t r)
{
    return r == ncclSuccess ? "no error" : r == ncclInvalidUsage ? "invalid usage" : "error";
}
ncclResult_t ncclGetVersion(int *v)
{
    if (!v) return ncclInvalidArgument;
    *v = NCCL_VERSION_CODE;
    return ncclSuccess;
}
ncclResult_t ncclGetUniqueId(ncclUniqueId *id)
{
    if (!id) return ncclInvalidArgument;
    memset(id, 0, sizeof *id);
    return ncclSuccess;
}
ncclResult_t ncclCommInitAll(ncclComm_t *comms, int ndev, const int *devlist)
{
    if (!comms || ndev < 1) return ncclInvalidArgument;
    int count = 0;
    cudaGetDeviceCount(&count);
    for (int i = 0; i < ndev; i++) {
        const int d = devlist ? devlist[i] : i;
        if (d < 0 || d >= count) return ncclInvalidArgument;
        for (int j = 0; j < i; j++)
            if (devlist && devlist[j] == d) return ncclInvalidUsage;
    }
    const int set = ++g_sets;
    for (int i = 0; i < ndev; i++) {
        comms[i] = static_cast<ncclComm_t>(malloc(sizeof(ncclComm)));
        if (!comms[i]) {
            for (int j = 0; j < i; j++) free(comms[j]);
            return ncclSystemError;
        }
        comms[i]->set = set;
        comms[i]->rank = i;
        comms[i]->nranks = ndev;
    }
    return ncclSuccess;
}
ncclResult_t ncclCommInitRank(ncclComm_t *, int, ncclUniqueId, int) { return ncclInvalidUsage; }
ncclResult_t ncclCommDestroy(ncclComm_t comm)
{
    free(comm);
    return ncclSuccess;
}
ncclResult_t ncclCommCount(const ncclComm_t comm, int *count)
{
    if (!comm || !count) return ncclInvalidArgument;
    *count = comm->nranks;
    return ncclSuccess;
}
ncclResult_t ncclCommUserRank(const ncclComm_t comm, int *rank)
{
    if (!comm || !rank) return ncclInvalidArgument;
    *rank = comm->rank;
    return ncclSuccess;
}
ncclResult_t ncclGroupStart(void)
{
    g_depth++;
    return ncclSuccess;
}
ncclResult_t ncclGroupEnd(void)
{
    if (g_depth == 0) return ncclInvalidUsage;
    if (--g_depth) return ncclSuccess;
    ncclResult_t r = run_pending();
    if (g_error != ncclSuccess) r = g_error;
    g_error = ncclSuccess;
    return r;
}
ncclResult_t ncclSend(const void *buf, size_t count, ncclDataType_t t, int peer, ncclComm_t c,
                      cudaStream_t)
{
    if (!c || peer < 0 || peer >= c->nranks || (!buf && count)) return ncclInvalidArgument;
    return post(make(SEND, buf, nullptr, count, t, peer, c));
}
ncclResult_t ncclRecv(void *buf, size_t count, ncclDataType_t t, int peer, ncclComm_t c,
                      cudaStream_t)
{
    if (!c || peer < 0 || peer >= c->nranks || (!buf && count)) return ncclInvalidArgument;
    return post(make(RECV, nullptr, buf, count, t, peer, c));
}
ncclResult_t ncclAllReduce(const void *s, void *r, size_t count, ncclDataType_t t, ncclRedOp_t op,
                           ncclComm_t c, cudaStream_t)
{
    if (!c || !s || !r) return ncclInvalidArgument;
    Op o = make(ALLREDUCE, s, r, count, t, 0, c);
    o.red = op;
    return post(o);
}
ncclResult_t ncclBroadcast(const void *s, void *r, size_t count, ncclDataType_t t, int root,
                           ncclComm_t c, cudaStream_t)
{
    if (!c || !r || root < 0 || root >= c->nranks || (c->rank == root && !s))
        return ncclInvalidArgument;
    return post(make(BCAST, s, r, count, t, root, c));
}

}  // extern "C"
