// NTL's ZZ_pX multiplication behind bigmod_ref.h.
#include "bigmod_ref.h"

#include <NTL/ZZ_pX.h>
#include <NTL/version.h>

#include <new>
#include <vector>

struct bigmod_ref_job {
    NTL::ZZ_pContext ctx;
    NTL::ZZ_pX a, b, c;
    size_t w, lc;
};

// Words to ZZ and back, through NTL's little-endian bytes.
static NTL::ZZ to_zz(const uint64_t *x, size_t w)
{
    std::vector<unsigned char> by(w * 8);
    for (size_t j = 0; j < w; j++)
        for (int k = 0; k < 8; k++) by[j * 8 + k] = (unsigned char)(x[j] >> (8 * k));
    return NTL::ZZFromBytes(by.data(), (long)by.size());
}

static void from_zz(uint64_t *x, size_t w, const NTL::ZZ &z)
{
    std::vector<unsigned char> by(w * 8);
    NTL::BytesFromZZ(by.data(), z, (long)by.size());
    for (size_t j = 0; j < w; j++) {
        uint64_t v = 0;
        for (int k = 0; k < 8; k++) v |= (uint64_t)by[j * 8 + k] << (8 * k);
        x[j] = v;
    }
}

static bigmod_ref_job *prepare(const uint64_t *m, size_t w, const uint64_t *a, size_t la,
                               const uint64_t *b, size_t lb)
{
    bigmod_ref_job *j = new (std::nothrow) bigmod_ref_job;
    if (!j) return nullptr;
    j->ctx = NTL::ZZ_pContext(to_zz(m, w));
    j->ctx.restore();
    j->a.SetLength((long)la);
    j->b.SetLength((long)lb);
    for (size_t i = 0; i < la; i++) j->a[(long)i] = NTL::conv<NTL::ZZ_p>(to_zz(a + i * w, w));
    for (size_t i = 0; i < lb; i++) j->b[(long)i] = NTL::conv<NTL::ZZ_p>(to_zz(b + i * w, w));
    j->a.normalize();
    j->b.normalize();
    j->w = w;
    j->lc = la + lb - 1;
    return j;
}

static void run(bigmod_ref_job *j)
{
    j->ctx.restore();
    NTL::mul(j->c, j->a, j->b);
}

static void result(bigmod_ref_job *j, uint64_t *c)
{
    j->ctx.restore();
    for (size_t i = 0; i < j->lc; i++) from_zz(c + i * j->w, j->w, NTL::rep(NTL::coeff(j->c, (long)i)));
}

static void release(bigmod_ref_job *j) { delete j; }

extern "C" const bigmod_ref_ops bigmod_ntl_ops = {"NTL " NTL_VERSION " ZZ_pX mul", prepare, run,
                                                  result, release};
