/* The out-of-line set-up helpers of modarith.h (host only): each runs once
   per table or constant, where a 128-bit division costs nothing. */
#include "modarith.h"

uint64_t ntt_powmod(uint64_t a, uint64_t e, uint64_t p)
{
    if (p == 1) return 0;
    uint64_t r = 1 % p, x = a % p;
    while (e) {
        if (e & 1) r = ntt_mulmod_slow(r, x, p);
        x = ntt_mulmod_slow(x, x, p);
        e >>= 1;
    }
    return r;
}

/* Extended Euclid on signed 128-bit values so that any 64-bit p works. */
uint64_t ntt_invmod(uint64_t a, uint64_t p)
{
    __int128 t = 0, nt = 1, r = p, nr = a % p;
    while (nr != 0) {
        __int128 q = r / nr, tmp;
        tmp = t - q * nt; t = nt; nt = tmp;
        tmp = r - q * nr; r = nr; nr = tmp;
    }
    if (t < 0) t += p;
    return (uint64_t)t;
}

uint64_t ntt_shoup_pre64_div(uint64_t w, uint64_t p)
{
    return (uint64_t)(((ntt_u128)w << 64) / p);
}

void ntt_shoup_ctx_init(ntt_shoup_ctx *c, uint64_t p)
{
    /* p is odd and > 2, so it does not divide 2^128 and
       floor((2^128 - 1) / p) == floor(2^128 / p). */
    ntt_u128 m = ~(ntt_u128)0 / p;
    c->p = p;
    c->mhi = (uint64_t)(m >> 64);
    c->mlo = (uint64_t)m;
}
