/*
 * The field transforms' kernels for one word count (field_kernels.c
 * instantiates it once per unrolled size and product, and generic).
 *
 * Expects: FW         the word count: a constant (4, 6, 8, 16), or m->w for
 *                     the generic instance
 *          FNC        1: the product fa_mont_mul_nc (p with a spare top
 *                     bit); 0: fa_mont_mul
 *          SFX(name) the instance's suffix (name##_w4, ...)
 *          SFX_NAME  the instance's name, a string ("w4", "generic")
 *          FIELD_LEAF_BYTES  the largest subtree run level by level
 * Defines: static SFX(mul), SFX(fwd_node), SFX(fwd_top), SFX(inv_node),
 *          SFX(inv_top), SFX(fwd_tree), SFX(inv_tree), SFX(pointwise);
 *          the kernel table SFX(field_kern).  FMUL is undefined at the end.
 */

#if FNC
#define FMUL(r, a, b) fa_mont_mul_nc(r, a, b, m->p, m->pinv, w)
#else
#define FMUL(r, a, b) fa_mont_mul(r, a, b, m->p, m->pinv, w)
#endif

/* The product is inlined in the butterflies of the levels (where the time
   goes) and called from the top level and the pointwise product, so that
   its unrolled body (some 600 instructions at 8 words) is not copied
   into every loop. */
static FA_NOINLINE void SFX(mul)(const field_mod *m, uint64_t *r, const uint64_t *a,
                                  const uint64_t *b)
{
    const size_t w = FW;
    FMUL(r, a, b);
}

static FA_NOINLINE void SFX(fwd_node)(const field_mod *m, uint64_t *a, size_t h,
                                       const uint64_t *wk, size_t j0, size_t j1)
{
    const size_t w = FW;
    uint64_t y[NTT_FIELD_MAX_WORDS];
    for (size_t j = j0; j < j1; j++) {
        uint64_t *x0 = a + j * w, *x1 = a + (j + h) * w;
        FMUL(y, x1, wk);
        fa_sub(x1, x0, y, m->p, w);
        fa_add(x0, x0, y, m->p, w);
    }
}

static void SFX(fwd_top)(const field_mod *m, uint64_t *a, size_t h, const uint64_t *g, size_t j0,
                          size_t j1)
{
    const size_t w = FW;
    uint64_t x[NTT_FIELD_MAX_WORDS], y[NTT_FIELD_MAX_WORDS];
    for (size_t j = j0; j < j1; j++) {
        uint64_t *x0 = a + j * w, *x1 = a + (j + h) * w;
        if (g) {
            SFX(mul)(m, x, x0, g + j * w);
            SFX(mul)(m, y, x1, g + (j + h) * w);
        } else {
            fa_copy(x, x0, w);
            fa_copy(y, x1, w);
        }
        fa_add(x0, x, y, m->p, w);
        fa_sub(x1, x, y, m->p, w);
    }
}

static FA_NOINLINE void SFX(inv_node)(const field_mod *m, uint64_t *a, size_t h,
                                       const uint64_t *iwk, size_t j0, size_t j1)
{
    const size_t w = FW;
    uint64_t d[NTT_FIELD_MAX_WORDS];
    for (size_t j = j0; j < j1; j++) {
        uint64_t *x0 = a + j * w, *x1 = a + (j + h) * w;
        fa_sub(d, x0, x1, m->p, w);
        fa_add(x0, x0, x1, m->p, w);
        FMUL(x1, d, iwk);
    }
}

static void SFX(inv_top)(const field_mod *m, uint64_t *a, size_t h, const uint64_t *s, size_t ss,
                          size_t j0, size_t j1)
{
    const size_t w = FW;
    uint64_t u[NTT_FIELD_MAX_WORDS], d[NTT_FIELD_MAX_WORDS];
    for (size_t j = j0; j < j1; j++) {
        uint64_t *x0 = a + j * w, *x1 = a + (j + h) * w;
        fa_add(u, x0, x1, m->p, w);
        fa_sub(d, x0, x1, m->p, w);
        SFX(mul)(m, x0, u, s + j * ss * w);
        SFX(mul)(m, x1, d, s + (j + h) * ss * w);
    }
}

/* Subtrees of at most FIELD_LEAF_BYTES run level by level (in L1/L2);
   larger ones split depth first, so each level below the top few works on
   a block that stays in cache. */
static void SFX(fwd_tree)(const field_mod *m, uint64_t *a, size_t h, size_t k, const uint64_t *tw)
{
    const size_t w = FW;
    if (2 * h * w * sizeof(uint64_t) > FIELD_LEAF_BYTES) {
        SFX(fwd_node)(m, a, h, tw + k * w, 0, h);
        SFX(fwd_tree)(m, a, h / 2, 2 * k, tw);
        SFX(fwd_tree)(m, a + h * w, h / 2, 2 * k + 1, tw);
        return;
    }
    for (size_t hh = h, t = 0; hh >= 1; hh /= 2, t++)
        for (size_t q = 0; q < ((size_t)1 << t); q++)
            SFX(fwd_node)(m, a + q * 2 * hh * w, hh, tw + ((k << t) + q) * w, 0, hh);
}

static void SFX(inv_tree)(const field_mod *m, uint64_t *a, size_t h, size_t k,
                           const uint64_t *itw)
{
    const size_t w = FW;
    if (2 * h * w * sizeof(uint64_t) > FIELD_LEAF_BYTES) {
        SFX(inv_tree)(m, a, h / 2, 2 * k, itw);
        SFX(inv_tree)(m, a + h * w, h / 2, 2 * k + 1, itw);
        SFX(inv_node)(m, a, h, itw + k * w, 0, h);
        return;
    }
    size_t t = 0;
    while (((size_t)1 << t) < h) t++;
    for (size_t hh = 1; hh <= h; hh *= 2, t--)
        for (size_t q = 0; q < ((size_t)1 << t); q++)
            SFX(inv_node)(m, a + q * 2 * hh * w, hh, itw + ((k << t) + q) * w, 0, hh);
}

static void SFX(pointwise)(const field_mod *m, uint64_t *c, const uint64_t *a, const uint64_t *b,
                            const uint64_t *post, size_t i0, size_t i1)
{
    const size_t w = FW;
    uint64_t t[NTT_FIELD_MAX_WORDS];
    for (size_t i = i0; i < i1; i++) {
        SFX(mul)(m, t, a + i * w, b + i * w);
        if (post)
            SFX(mul)(m, c + i * w, t, post);
        else
            fa_copy(c + i * w, t, w);
    }
}

static const field_kern SFX(field_kern) = {
    .name = SFX_NAME,
    .fwd_node = SFX(fwd_node),
    .fwd_top = SFX(fwd_top),
    .inv_node = SFX(inv_node),
    .inv_top = SFX(inv_top),
    .fwd_tree = SFX(fwd_tree),
    .inv_tree = SFX(inv_tree),
    .pointwise = SFX(pointwise),
};

#undef FMUL
