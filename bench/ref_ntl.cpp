// NTL's zz_pX multiplication behind the ref.h interface.
#include "ref.h"

#include <NTL/lzz_pX.h>
#include <NTL/version.h>

#include <new>

struct ref_job {
    NTL::zz_pContext ctx;
    NTL::zz_pX a, b, c;
    size_t lc;
};

static ref_job *prepare(const uint64_t *a, size_t la, const uint64_t *b, size_t lb, uint64_t p)
{
    // zz_p holds moduli below NTL_SP_BOUND only.
    if (p < 2 || p >= (uint64_t)NTL_SP_BOUND) return nullptr;
    ref_job *j = new (std::nothrow) ref_job;
    if (!j) return nullptr;
    j->ctx = NTL::zz_pContext((long)p);
    j->ctx.restore();
    j->a.SetLength((long)la);
    j->b.SetLength((long)lb);
    for (size_t i = 0; i < la; i++) j->a[(long)i] = NTL::conv<NTL::zz_p>((long)a[i]);
    for (size_t i = 0; i < lb; i++) j->b[(long)i] = NTL::conv<NTL::zz_p>((long)b[i]);
    j->a.normalize();
    j->b.normalize();
    j->lc = la + lb - 1;
    return j;
}

static void run(ref_job *j)
{
    j->ctx.restore();
    NTL::mul(j->c, j->a, j->b);
}

static void result(ref_job *j, uint64_t *c)
{
    j->ctx.restore();
    for (size_t i = 0; i < j->lc; i++) c[i] = (uint64_t)NTL::rep(NTL::coeff(j->c, (long)i));
}

static void release(ref_job *j) { delete j; }

extern "C" const ref_ops ref_ntl_ops = {"NTL " NTL_VERSION " zz_pX mul", prepare, run, result, release};
