/* The add-on seam (addon.h): the backend ops every add-on plan runs, which
   hand each call to the add-on's own entry points with its state. */
#include "addon_plan.h"

#include <stdlib.h>

typedef struct {
    const ntt_addon_ops *ops;
    void *state;
} addon_data;

static int addon_available(void) { return 1; }

/* plan_create checked the backend and the add-on's supports() already. */
static int addon_supports(ntt_modmul m)
{
    (void)m;
    return 1;
}

static ntt_status addon_plan_init(ntt_plan *plan)
{
    const ntt_addon_init *in = plan->backend_data;
    plan->backend_data = NULL;
    ntt_addon_modulus *mod = malloc(plan->nmod * sizeof *mod);
    addon_data *d = malloc(sizeof *d);
    if (!mod || !d) {
        free(mod);
        free(d);
        return NTT_ENOMEM;
    }
    for (size_t i = 0; i < plan->nmod; i++) {
        const ntt_modulus *m = &plan->mod[i];
        mod[i] = (ntt_addon_modulus){m->p, m->root, ntt_invmod(m->root, m->p), m->n_inv};
    }
    const ntt_addon_plan info = {plan->n,      plan->width, plan->flags, plan->modmul, plan->threads,
                                 plan->batch,  plan->backend, plan->nmod, mod,        in->arg};
    d->ops = in->ops;
    d->state = NULL;
    ntt_status s = in->ops->init(&d->state, &plan->modmul, &info);
    free(mod);
    if (s != NTT_OK) {
        free(d);
        return s;
    }
    plan->backend_data = d;
    return NTT_OK;
}

static void addon_plan_free(ntt_plan *plan)
{
    addon_data *d = plan->backend_data;
    if (!d) return;
    d->ops->free(d->state);
    free(d);
    plan->backend_data = NULL;
}

#define ADDON(plan) ((addon_data *)(plan)->backend_data)

static ntt_status addon_forward(ntt_plan *plan, void *a, size_t count, size_t stride)
{
    return ADDON(plan)->ops->forward(ADDON(plan)->state, a, count, stride);
}

static ntt_status addon_inverse(ntt_plan *plan, void *a, size_t count, size_t stride)
{
    return ADDON(plan)->ops->inverse(ADDON(plan)->state, a, count, stride);
}

static ntt_status addon_pointwise(ntt_plan *plan, void *c, const void *a, const void *b,
                                  size_t count, size_t stride)
{
    return ADDON(plan)->ops->pointwise(ADDON(plan)->state, c, a, b, count, stride);
}

static ntt_status addon_polymul(ntt_plan *plan, void *c, size_t lc, const void *a, size_t la,
                                const void *b, size_t lb, size_t count, size_t stride, bool io64)
{
    return ADDON(plan)->ops->polymul(ADDON(plan)->state, c, lc, a, la, b, lb, count, stride, io64);
}

/* The device-pointer calls (core/cuda_api.c) ask ntt_addon_on_device
   first, so these run only where the add-on has the entry. */
static ntt_status addon_dev_transform(ntt_plan *plan, void *d_a, size_t count, size_t stride,
                                      size_t item0, void *stream, bool inverse)
{
    return ADDON(plan)->ops->dev_transform(ADDON(plan)->state, d_a, count, stride, item0, stream,
                                           inverse);
}

static ntt_status addon_dev_pointwise(ntt_plan *plan, void *d_c, const void *d_a, const void *d_b,
                                      size_t count, size_t stride, size_t item0, void *stream)
{
    return ADDON(plan)->ops->dev_pointwise(ADDON(plan)->state, d_c, d_a, d_b, count, stride, item0,
                                           stream);
}

static ntt_status addon_dev_polymul(ntt_plan *plan, void *d_c, size_t lc, const void *d_a,
                                    size_t la, const void *d_b, size_t lb, size_t count,
                                    size_t stride, size_t item0, void *stream)
{
    return ADDON(plan)->ops->dev_polymul(ADDON(plan)->state, d_c, lc, d_a, la, d_b, lb, count,
                                         stride, item0, stream);
}

static int addon_dev_last_error(const ntt_plan *plan)
{
    const addon_data *d = plan ? plan->backend_data : NULL;
    return d && d->ops->dev_last_error ? d->ops->dev_last_error(d->state) : 0;
}

const ntt_backend_ops ntt_addon_backend_ops = {
    .name = "addon",
    .id = NTT_BACKEND_SCALAR, /* plan->backend says which backend it was made for */
    .available = addon_available,
    .supports = addon_supports,
    .plan_init = addon_plan_init,
    .plan_free = addon_plan_free,
    .forward = addon_forward,
    .inverse = addon_inverse,
    .pointwise = addon_pointwise,
    .polymul = addon_polymul,
    .dev_transform = addon_dev_transform,
    .dev_pointwise = addon_dev_pointwise,
    .dev_polymul = addon_dev_polymul,
    .dev_last_error = addon_dev_last_error,
};

bool ntt_addon_on_device(const ntt_plan *plan)
{
    const ntt_addon_ops *a = ntt_plan_addon(plan);
    return !a || (a->dev_transform && a->dev_pointwise && a->dev_polymul);
}

const ntt_addon_ops *ntt_plan_addon(const ntt_plan *plan)
{
    return plan && plan->ops == &ntt_addon_backend_ops ? ADDON(plan)->ops : NULL;
}
