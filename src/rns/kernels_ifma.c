/*
 * AVX-512 IFMA kernels of the RNS stages (rns_internal.h): eight lanes of
 * 52-bit multiply-adds (vpmadd52luq / vpmadd52huq: acc + the low or high
 * 52 bits of the product of the low 52 bits of two lanes).  The only file
 * built with -mavx512ifma; used where the CPU has it (see
 * ntt_rns_kernels_ifma) for contexts whose primes are all at least
 * 2^RNS_IFMA_MIN_BITS.
 *
 * Numbers are split at 2^52: a residue y < 2^61 is y_l + 2^52 y_h, y_h <
 * 2^9.  A product of two residues is then three accumulator lanes
 * A0 + 2^52 A1 + 2^104 A2 (seven multiply-adds, two where both are below
 * 2^52), and a sum of up to RNS_CHUNK products stays within them (A0 <
 * 2^58, A1 < 2^60, A2 < 2^24).  Reduction is Montgomery's in radix 2^52:
 * one round (redc1) for a product of residues below 2^50, two (redc2) for
 * everything else; each leaves a value in [0, 2c), one conditional
 * subtraction makes it exact.  The 2^-52 or 2^-104 it leaves is cancelled
 * by constants scaled by 2^52 or 2^104 (the conversions' weights, the
 * multipliers, a last factor for sums of products of two variables).  The
 * results are the portable kernels' bit for bit: both compute the exact
 * residues of rns_arith.h.
 */
#include "rns_internal.h"
#include "../core/cpu_features.h"
#include "../cpu/x86/u64x8.h"

/* Primes below 2^NARROW_BITS: 3c < 2^52, so a lazy value and its
   products fit one 52-bit lane. */
#define NARROW_BITS 50

NTT_INLINE V vlo(V acc, V a, V b) { return _mm512_madd52lo_epu64(acc, a, b); }
NTT_INLINE V vhi(V acc, V a, V b) { return _mm512_madd52hi_epu64(acc, a, b); }
NTT_INLINE V vsr52(V a) { return _mm512_srli_epi64(a, 52); }
NTT_INLINE V vsl52(V a) { return _mm512_slli_epi64(a, 52); }

static bool narrow(uint64_t c) { return c >> NARROW_BITS == 0; }

/* A prime as the lanes see it. */
typedef struct {
    V c, ch, cinv; /* c, c >> 52, -c^-1 mod 2^52 */
} vprime;

static vprime vprime_of(uint64_t c)
{
    vprime P;
    P.c = v1(c);
    P.ch = v1(c >> 52);
    P.cinv = v1(ntt_mont_pinv52(c));
    return P;
}

/* w 2^b mod c: a multiplier for mulc (b = 52 where x and c are narrow,
   else 104). */
static uint64_t scale(uint64_t w, uint64_t c, bool one_round)
{
    return ntt_mulmod_slow(w % c, ntt_powmod(2, one_round ? 52 : 104, c), c);
}

/* The same for many w of one c: f = 2^104 mod c. */
static uint64_t scale104(uint64_t w, uint64_t c, uint64_t f) { return ntt_mulmod_slow(w, f, c); }

/* (A0 + 2^52 A1) 2^-52 mod c in [0, 2c), for c < 2^50 and a value below
   c 2^52: m makes A0 + m c divisible by 2^52. */
NTT_INLINE V redc1(V A0, V A1, const vprime *P)
{
    const V m = vlo(vz(), A0, P->cinv);
    const V t = vlo(A0, m, P->c);
    return vhi(vadd(A1, vsr52(t)), m, P->c);
}

/* (A0 + 2^52 A1 + 2^104 A2) 2^-104 mod c in [0, 2c), for c >= 2^25 and a
   value below 2^128 (two rounds: < 2^24 + c + 1 after them).  wide: c may
   reach 2^52; its high part c_h (zero below 2^52) adds two multiply-adds
   per round. */
NTT_INLINE V redc2(V A0, V A1, V A2, const vprime *P, bool wide)
{
    V m = vlo(vz(), A0, P->cinv);
    V t = vlo(A0, m, P->c);
    V B0 = vhi(vadd(A1, vsr52(t)), m, P->c), B1 = A2;
    if (wide) {
        B0 = vlo(B0, m, P->ch);
        B1 = vhi(B1, m, P->ch);
    }
    m = vlo(vz(), B0, P->cinv);
    t = vlo(B0, m, P->c);
    V R = vhi(vadd(B1, vsr52(t)), m, P->c);
    if (wide) R = vadd(vlo(R, m, P->ch), vsl52(vhi(vz(), m, P->ch)));
    return R;
}

/* The product x w as A0 + 2^52 A1 + 2^104 A2 added to the accumulators;
   xw / ww: x / w may reach 2^52 (their high parts xh, wh, else unused). */
NTT_INLINE void mac(V *A0, V *A1, V *A2, V x, V xh, V w, V wh, bool xw, bool ww)
{
    *A0 = vlo(*A0, x, w);
    *A1 = vhi(*A1, x, w);
    if (ww) {
        *A1 = vlo(*A1, x, wh);
        *A2 = vhi(*A2, x, wh);
    }
    if (xw) {
        *A1 = vlo(*A1, xh, w);
        *A2 = vhi(*A2, xh, w);
    }
    if (xw && ww) *A2 = vlo(*A2, xh, wh); /* below 2^21: no high part */
}

/* [x w]_c for x below 2^64 (below 2^52 when one_round), ws = scale(w, c,
   one_round). */
NTT_INLINE V mulc(V x, uint64_t ws, const vprime *P, bool one_round, bool wide)
{
    const V w = v1(ws);
    if (one_round) return vcsub(redc1(vlo(vz(), x, w), vhi(vz(), x, w), P), P->c);
    V A0 = vz(), A1 = vz(), A2 = vz();
    mac(&A0, &A1, &A2, x, vsr52(x), w, v1(ws >> 52), true, wide);
    return vcsub(redc2(A0, A1, A2, P, wide), P->c);
}

/* ---- base conversion ---------------------------------------------------------- */

/*
 * prepare's layout (words): [0] the number of narrow sources, [1] of narrow
 * targets; then s source indices (narrow first), t target indices (narrow
 * first), the s sources' multipliers inv_i scaled for mulc, and per target
 * (in that order) s weights w 2^104 mod c_j and their high parts, both in
 * the source order.
 */
typedef struct {
    size_t s, t, sn, tn;
    const uint64_t *src, *tgt, *inv, *w;
} prep_view;

static prep_view view(const rns_conv_job *J)
{
    const uint64_t *P = J->prep;
    prep_view v = {.s = J->s, .t = J->t, .sn = P[0], .tn = P[1]};
    v.src = P + 2;
    v.tgt = v.src + v.s;
    v.inv = v.tgt + v.t;
    v.w = v.inv + v.s;
    return v;
}

static void prepare(const rns_conv_job *J, uint64_t *P)
{
    const size_t s = J->s, t = J->t;
    if (s > RNS_CHUNK) return; /* conv runs the portable kernel */
    uint64_t *src = P + 2, *tgt = src + s, *inv = tgt + t, *w = inv + s;
    size_t k = 0;
    for (int pass = 0; pass < 2; pass++)
        for (size_t i = 0; i < s; i++)
            if (narrow(J->src[i]->p) == (pass == 0)) src[k++] = i;
    P[0] = 0;
    for (size_t i = 0; i < s; i++) P[0] += narrow(J->src[i]->p);
    k = 0;
    for (int pass = 0; pass < 2; pass++)
        for (size_t j = 0; j < t; j++)
            if (narrow(J->dst[j]->p) == (pass == 0)) tgt[k++] = j;
    P[1] = 0;
    for (size_t j = 0; j < t; j++) P[1] += narrow(J->dst[j]->p);
    for (size_t r = 0; r < s; r++) {
        const uint64_t b = J->src[src[r]]->p;
        inv[r] = scale(J->inv[src[r]], b, narrow(b));
    }
    for (size_t g = 0; g < t; g++) {
        const size_t j = tgt[g];
        const uint64_t c = J->dst[j]->p, f = ntt_powmod(2, 104, c);
        uint64_t *wl = w + 2 * g * s, *wh = wl + s;
        for (size_t r = 0; r < s; r++) {
            wl[r] = scale104(J->w[j][src[r]], c, f);
            wh[r] = wl[r] >> 52;
        }
    }
}

/* out_j for G targets of one width (ww) from the y rows (narrow sources
   first), over len coefficients; g0: the first target's place in the
   prepared order. */
NTT_INLINE void conv_group(const rns_conv_job *J, const prep_view *pv, size_t g0, int G, bool ww,
                   const uint64_t *y, size_t len, size_t k0)
{
    const size_t s = pv->s;
    const uint64_t *wl[4], *wh[4];
    uint64_t *out[4];
    vprime P[4];
    bool stream = J->stream;
    for (int g = 0; g < G; g++) {
        const size_t j = pv->tgt[g0 + (size_t)g];
        wl[g] = pv->w + 2 * (g0 + (size_t)g) * s;
        wh[g] = wl[g] + s;
        out[g] = J->out[j] + k0;
        P[g] = vprime_of(J->dst[j]->p);
        stream &= ((uintptr_t)out[g] & 63) == 0;
    }
    for (size_t v = 0; v < len; v += 8) {
        V A0[4], A1[4], A2[4];
        for (int g = 0; g < G; g++) A0[g] = A1[g] = A2[g] = vz();
        for (size_t r = 0; r < pv->sn; r++) {
            const V x = vld(y + r * len + v);
            for (int g = 0; g < G; g++)
                mac(&A0[g], &A1[g], &A2[g], x, x, v1(wl[g][r]), v1(wh[g][r]), false, ww);
        }
        for (size_t r = pv->sn; r < s; r++) {
            const V x = vld(y + r * len + v), xh = vsr52(x);
            for (int g = 0; g < G; g++)
                mac(&A0[g], &A1[g], &A2[g], x, xh, v1(wl[g][r]), v1(wh[g][r]), true, ww);
        }
        for (int g = 0; g < G; g++) {
            const V r = vcsub(redc2(A0[g], A1[g], A2[g], &P[g], ww), P[g].c);
            if (stream)
                _mm512_stream_si512((void *)(out[g] + v), r);
            else
                vst(out[g] + v, r);
        }
    }
    if (stream) _mm_sfence(); /* before other threads read the rows */
}

static void conv(const rns_conv_job *J, size_t k0, size_t k1, uint64_t *y)
{
    if (J->s > RNS_CHUNK) {
        ntt_rns_kernels_portable.conv(J, k0, k1, y);
        return;
    }
    const prep_view pv = view(J);
    const size_t len = k1 - k0;
    for (size_t r = 0; r < pv.s; r++) {
        const size_t i = pv.src[r];
        const uint64_t b = J->src[i]->p, *x = J->x[i] + k0;
        const vprime P = vprime_of(b);
        uint64_t *yr = y + r * len;
        if (narrow(b))
            for (size_t v = 0; v < len; v += 8) vst(yr + v, mulc(vld(x + v), pv.inv[r], &P, true, false));
        else
            for (size_t v = 0; v < len; v += 8) vst(yr + v, mulc(vld(x + v), pv.inv[r], &P, false, true));
    }
    size_t g = 0;
    for (; g + 4 <= pv.tn; g += 4) conv_group(J, &pv, g, 4, false, y, len, k0);
    for (; g < pv.tn; g++) conv_group(J, &pv, g, 1, false, y, len, k0);
    for (; g + 4 <= pv.t; g += 4) conv_group(J, &pv, g, 4, true, y, len, k0);
    for (; g < pv.t; g++) conv_group(J, &pv, g, 1, true, y, len, k0);
}

/* ---- the other element-wise kernels ----------------------------------------------- */

static void subc(uint64_t *out, const uint64_t *x, const uint64_t *t, size_t len, uint64_t w,
                 uint64_t wq, const rns_prime *m)
{
    (void)wq;
    const uint64_t c = m->p;
    const vprime P = vprime_of(c);
    if (narrow(c)) {
        const uint64_t ws = scale(w, c, true);
        for (size_t k = 0; k < len; k += 8)
            vst(out + k, mulc(vsub(vadd(vld(x + k), P.c), vld(t + k)), ws, &P, true, false));
    } else {
        const uint64_t ws = scale(w, c, false);
        for (size_t k = 0; k < len; k += 8)
            vst(out + k, mulc(vsub(vadd(vld(x + k), P.c), vld(t + k)), ws, &P, false, true));
    }
}

static void reduce(uint64_t *out, const uint64_t *x, size_t len, const rns_prime *m)
{
    const uint64_t c = m->p, ws = scale(1, c, false);
    const vprime P = vprime_of(c);
    if (narrow(c))
        for (size_t k = 0; k < len; k += 8) vst(out + k, mulc(vld(x + k), ws, &P, false, false));
    else
        for (size_t k = 0; k < len; k += 8) vst(out + k, mulc(vld(x + k), ws, &P, false, true));
}

/* Sums of products of residues, then [.]_c: redc2 leaves S 2^-104, and
   mulc by 2^104 (scaled for its own rounds) takes it out. */
NTT_INLINE void dot2_body(uint64_t *acc0, uint64_t *acc1, const uint64_t *const *e,
                  const uint64_t *const *k0, const uint64_t *const *k1, size_t cnt, size_t len,
                  const vprime *P, uint64_t fix, bool wide)
{
    for (size_t k = 0; k < len; k += 8) {
        V a0 = vz(), a1 = vz(), a2 = vz(), b0 = vz(), b1 = vz(), b2 = vz();
        for (size_t j = 0; j < cnt; j++) {
            const V x = vld(e[j] + k), xh = vsr52(x);
            const V y0 = vld(k0[j] + k), y1 = vld(k1[j] + k);
            mac(&a0, &a1, &a2, x, xh, y0, vsr52(y0), wide, wide);
            mac(&b0, &b1, &b2, x, xh, y1, vsr52(y1), wide, wide);
        }
        vst(acc0 + k, mulc(redc2(a0, a1, a2, P, wide), fix, P, !wide, wide));
        vst(acc1 + k, mulc(redc2(b0, b1, b2, P, wide), fix, P, !wide, wide));
    }
}

static void dot2(uint64_t *acc0, uint64_t *acc1, const uint64_t *const *e,
                 const uint64_t *const *k0, const uint64_t *const *k1, size_t cnt, size_t len,
                 const rns_prime *m)
{
    if (cnt > RNS_CHUNK) {
        ntt_rns_kernels_portable.dot2(acc0, acc1, e, k0, k1, cnt, len, m);
        return;
    }
    const uint64_t c = m->p;
    const vprime P = vprime_of(c);
    const uint64_t fix = scale(ntt_powmod(2, 104, c), c, narrow(c));
    if (narrow(c))
        dot2_body(acc0, acc1, e, k0, k1, cnt, len, &P, fix, false);
    else
        dot2_body(acc0, acc1, e, k0, k1, cnt, len, &P, fix, true);
}

static const rns_kernels kernels = {
    .name = "avx512-ifma",
    .prepare = prepare,
    .conv = conv,
    .subc = subc,
    .reduce = reduce,
    .dot2 = dot2,
};

const rns_kernels *ntt_rns_kernels_ifma(void)
{
    /* The two extensions this file is compiled for. */
    const ntt_cpu_features *f = ntt_cpu_features_get();
    return f->avx512f && f->avx512ifma ? &kernels : NULL;
}
