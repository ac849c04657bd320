/* What plan.c, polymul_mod.c and addon.c share about add-on plans
   (addon.h): the adapter ops and what its plan_init receives. */
#ifndef NTT_ADDON_PLAN_H
#define NTT_ADDON_PLAN_H

#include "addon.h"
#include "internal.h"

/* plan->backend_data when the adapter's plan_init runs; plan_init replaces
   it with its own state. */
typedef struct {
    const ntt_addon_ops *ops;
    const void *arg;
} ntt_addon_init;

extern const ntt_backend_ops ntt_addon_backend_ops;

/* False for an add-on plan whose add-on has no device-pointer entries
   (the ntt_cuda_* calls then give NTT_EUNSUPPORTED); true otherwise. */
bool ntt_addon_on_device(const ntt_plan *plan);

#endif
