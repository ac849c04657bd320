/* The argument checks of the RNS calls (ntt_rns.h), shared by the host
   forms (ops.c) and the device forms (cuda_api.c): everything but the
   range checks of the inputs, which only the host forms make. */
#include "rns_internal.h"

static bool overlap(const void *a, size_t alimbs, const void *b, size_t blimbs, size_t n)
{
    return ntt_overlaps(a, alimbs * n * 8, b, blimbs * n * 8);
}

/* Every index below nlimb and none twice, in a and b together. */
static bool lists_ok(const ntt_rns *c, const size_t *a, size_t na, const size_t *b, size_t nb)
{
    uint64_t seen[NTT_RNS_MAX_LIMBS / 64] = {0};
    for (size_t k = 0; k < na + nb; k++) {
        const size_t x = k < na ? a[k] : b[k - na];
        if (x >= c->nlimb || (seen[x / 64] >> (x % 64) & 1)) return false;
        seen[x / 64] |= (uint64_t)1 << (x % 64);
    }
    return true;
}

/* Context, n, level, P present. */
static bool stage_ok(const ntt_rns *c, size_t n, size_t level, bool needs_p)
{
    return c && n == c->n && level < c->nq && (!needs_p || c->np > 0);
}

size_t ntt_rns_key_limbs(const ntt_rns *c) { return 2 * c->dnum * c->nlimb; }

ntt_status ntt_rns_args_transform(const ntt_rns *c, size_t n, const size_t *limbs, size_t count,
                                  const uint64_t *a)
{
    if (!c || !limbs || !a || n != c->n || count == 0 || !lists_ok(c, limbs, count, NULL, 0))
        return NTT_EINVAL;
    return NTT_OK;
}

ntt_status ntt_rns_args_fastbconv(const ntt_rns *c, size_t n, const size_t *from,
                                  size_t from_count, const uint64_t *in, const size_t *to,
                                  size_t to_count, const uint64_t *out)
{
    if (!c || !from || !in || !to || !out || n != c->n || from_count == 0 || to_count == 0 ||
        !lists_ok(c, from, from_count, to, to_count) || overlap(in, from_count, out, to_count, n))
        return NTT_EINVAL;
    return NTT_OK;
}

ntt_status ntt_rns_args_modup(const ntt_rns *c, size_t n, size_t level, size_t digit,
                              const uint64_t *in, size_t in_limbs, const uint64_t *out,
                              size_t out_limbs)
{
    size_t first, s;
    if (!stage_ok(c, n, level, true) || !in || !out ||
        ntt_rns_digit_range(c, level, digit, &first, &s) != NTT_OK)
        return NTT_EINVAL;
    const size_t e = level + 1 + c->np;
    if (in_limbs != s || out_limbs != e || overlap(in, s, out, e, n)) return NTT_EINVAL;
    return NTT_OK;
}

ntt_status ntt_rns_args_moddown(const ntt_rns *c, size_t n, size_t level, const uint64_t *in,
                                size_t in_limbs, const uint64_t *out, size_t out_limbs)
{
    if (!stage_ok(c, n, level, true) || !in || !out) return NTT_EINVAL;
    const size_t e = level + 1 + c->np;
    if (in_limbs != e || out_limbs != level + 1 ||
        (out != in && overlap(in, e, out, level + 1, n)))
        return NTT_EINVAL;
    return NTT_OK;
}

ntt_status ntt_rns_args_rescale(const ntt_rns *c, size_t n, size_t level, const uint64_t *in,
                                size_t in_limbs, const uint64_t *out, size_t out_limbs)
{
    if (!stage_ok(c, n, level, false) || level == 0 || !in || !out) return NTT_EINVAL;
    if (in_limbs != level + 1 || out_limbs != level ||
        (out != in && overlap(in, level + 1, out, level, n)))
        return NTT_EINVAL;
    return NTT_OK;
}

ntt_status ntt_rns_args_inner(const ntt_rns *c, size_t n, size_t level, const uint64_t *ext,
                              size_t ext_limbs, const uint64_t *key, size_t key_limbs,
                              const uint64_t *acc0, const uint64_t *acc1, size_t acc_limbs)
{
    if (!stage_ok(c, n, level, true) || !ext || !key || !acc0 || !acc1) return NTT_EINVAL;
    const size_t e = level + 1 + c->np, beta = ntt_rns_digits(c, level),
                 kl = ntt_rns_key_limbs(c);
    if (ext_limbs != beta * e || key_limbs != kl || acc_limbs != e) return NTT_EINVAL;
    if (overlap(acc0, e, ext, beta * e, n) || overlap(acc1, e, ext, beta * e, n) ||
        overlap(acc0, e, key, kl, n) || overlap(acc1, e, key, kl, n) ||
        overlap(acc0, e, acc1, e, n))
        return NTT_EINVAL;
    return NTT_OK;
}

ntt_status ntt_rns_args_keyswitch(const ntt_rns *c, size_t n, size_t level, const uint64_t *in,
                                  size_t in_limbs, const uint64_t *key, size_t key_limbs,
                                  const uint64_t *out0, const uint64_t *out1, size_t out_limbs)
{
    if (!stage_ok(c, n, level, true) || !in || !key || !out0 || !out1) return NTT_EINVAL;
    const size_t q = level + 1, kl = ntt_rns_key_limbs(c);
    if (in_limbs != q || key_limbs != kl || out_limbs != q) return NTT_EINVAL;
    if (overlap(out0, q, in, q, n) || overlap(out1, q, in, q, n) || overlap(out0, q, key, kl, n) ||
        overlap(out1, q, key, kl, n) || overlap(out0, q, out1, q, n))
        return NTT_EINVAL;
    return NTT_OK;
}
