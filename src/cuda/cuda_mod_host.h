// The host's side of the per-modulus constants (Mod<T>, cuda_mod.h): a
// twiddle's companion for each kind, the Montgomery form, and the
// constants every plan's Mod<T> carries.  Shared by the CUDA backend's
// tables (cuda_tables.cpp) and the course ladder's (src/course), which
// fill Mod<T> for their own plans.  Host C++ over the arithmetic layer.
#pragma once

#include <cstring>

#include "../arith/modarith.h"
#include "cuda_mod.h"

namespace nttc {

// One modulus p on the host, for elements T (R = 2^32 or 2^64) and the
// kernels' kind.
template <class T> struct HostMod {
    uint64_t p;
    uint64_t r_mod;  // R mod p
    int kind;
    T pinv_pos;      // p^-1 mod 2^k

    HostMod(uint64_t p_, int kind_)
        : p(p_), r_mod(sizeof(T) == 4 ? ((uint64_t)1 << 32) % p_ : (UINT64_MAX % p_ + 1) % p_),
          kind(kind_), pinv_pos((T)(0 - ntt_mont_pinv64(p_)))  // -(-p^-1 mod 2^64), T's width
    {
    }
    uint64_t mulmod(uint64_t a, uint64_t b) const { return ntt_mulmod_slow(a, b, p); }
    // v in Montgomery form: v R mod p.
    T mform(uint64_t v) const { return (T)mulmod(v, r_mod); }
    Tw<T> tw(uint64_t v, int k) const
    {
        switch (k) {
        case K_SHOUP:
            return Tw<T>{(T)v, sizeof(T) == 4 ? (T)(ntt_shoup_pre64(v, p) >> 32)
                                              : (T)ntt_shoup_pre64(v, p)};
        case K_FP64: {  // w and w/p as doubles' bits (exact: v < p < 2^50)
            const double w = (double)v, q = w / (double)p;
            T bw, bq;
            memcpy(&bw, &w, sizeof bw);
            memcpy(&bq, &q, sizeof bq);
            return Tw<T>{bw, bq};
        }
        case K_MONT: {
            T w = mform(v);
            return Tw<T>{w, (T)(w * pinv_pos)};
        }
        default:
            return Tw<T>{(T)v, 0};
        }
    }
    Tw<T> tw(uint64_t v) const { return tw(v, kind); }

    // The constants of every plan's Mod<T> (the rest zero): the arithmetic's
    // (Barrett's mu and k as core/tables.c makes them: u32 floor(2^64 / p),
    // u64 floor(2^(2k) / p)), 1 in Montgomery form, and the pointwise
    // product's factor fix (R for the kinds whose products leave R^-1).
    Mod<T> base() const
    {
        Mod<T> M;
        memset(&M, 0, sizeof M);
        unsigned k = 0;
        while (k < 64 && (p >> k) != 0) k++;
        M.a.p = (T)p;
        M.a.p2 = (T)(2 * p);
        M.a.p4 = (T)(4 * p);
        M.a.pinv = pinv_pos;
        M.a.np = (T)(0 - p);
        M.a.mu = sizeof(T) == 4 ? UINT64_MAX / p : (uint64_t)(((ntt_u128)1 << (2 * k)) / p);
        M.a.k = k;
        M.a.dp = (double)p;
        M.a.dpi = 1.0 / (double)p;
        M.one_m = (T)r_mod;
        M.fix = tw(kind == K_MONT || kind == K_SHOUP ? r_mod : 1 % p);
        return M;
    }
};

}  // namespace nttc
