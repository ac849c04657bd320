/* The variants' names and where each variant's plans and products come
   from (course.h). */
#include "course_internal.h"

#include <strings.h>

static const char *const variant_names[NTT_VARIANT_COUNT] = {"fast", "baseline", "gpu-table",
                                                             "gpu-async", "gpu-shared"};

const char *ntt_variant_name(ntt_variant v)
{
    return (unsigned)v < NTT_VARIANT_COUNT ? variant_names[v] : "unknown";
}

ntt_status ntt_variant_from_name(const char *name, ntt_variant *v)
{
    if (!name || !v) return NTT_EINVAL;
    for (int i = 0; i < NTT_VARIANT_COUNT; i++)
        if (strcasecmp(variant_names[i], name) == 0) {
            *v = (ntt_variant)i;
            return NTT_OK;
        }
    return NTT_EINVAL;
}

#ifndef NTT_COURSE_CUDA
/* Without CUDA the GPU ladder runs nowhere: the library's checks run as
   for any add-on plan, then supports() says no (NTT_EUNSUPPORTED). */
static int gpu_supports_none(ntt_backend b, ntt_modmul m, const void *arg)
{
    (void)b;
    (void)m;
    (void)arg;
    return 0;
}
#define GPU_NONE(nm) {.name = nm, .supports = gpu_supports_none}
const ntt_addon_ops ntt_course_gpu_ops[NTT_VARIANT_COUNT - 1] = {
    GPU_NONE("baseline"), GPU_NONE("gpu-table"), GPU_NONE("gpu-async"), GPU_NONE("gpu-shared")};
#endif

/* Whether v on backend b is the course's CPU baseline (an add-on plan);
   AUTO resolves as the library resolves it. */
static bool cpu_baseline(ntt_variant v, ntt_backend b)
{
    if (v != NTT_VARIANT_BASELINE) return false;
    if (b == NTT_BACKEND_AUTO) b = ntt_backend_resolve_auto();
    return b != NTT_BACKEND_CUDA;
}

/* The ladder's block sizes: a power of two in [32, 1024], 0 for 128. */
static bool block_ok(int blk) { return blk == 0 || (blk >= 32 && blk <= 1024 && (blk & (blk - 1)) == 0); }

ntt_status ntt_plan_create_variant(ntt_plan **plan, size_t n, const uint64_t *moduli,
                                   size_t count, ntt_width width, ntt_backend backend,
                                   const ntt_plan_options *opts, const ntt_variant_options *vopts)
{
    const ntt_variant_options vo = vopts ? *vopts : (ntt_variant_options){NTT_VARIANT_FAST, 0};
    if ((unsigned)vo.variant >= NTT_VARIANT_COUNT || !block_ok(vo.cuda_block) ||
        (unsigned)backend >= NTT_BACKEND_COUNT) {
        if (plan) *plan = NULL;
        return NTT_EINVAL;
    }
    if (vo.variant == NTT_VARIANT_FAST)
        return ntt_plan_create_rns(plan, n, moduli, count, width, backend, opts);
    if (cpu_baseline(vo.variant, backend))
        return ntt_plan_create_addon(plan, n, moduli, count, width, backend, opts,
                                     &ntt_course_baseline_ops, NULL);
    return ntt_plan_create_addon(plan, n, moduli, count, width, backend, opts,
                                 &ntt_course_gpu_ops[vo.variant - 1], &vo);
}

ntt_variant ntt_plan_variant(const ntt_plan *plan)
{
    const ntt_addon_ops *a = ntt_plan_addon(plan);
    if (a == &ntt_course_baseline_ops) return NTT_VARIANT_BASELINE;
    for (int v = NTT_VARIANT_BASELINE; v < NTT_VARIANT_COUNT; v++)
        if (a == &ntt_course_gpu_ops[v - 1]) return (ntt_variant)v;
    return NTT_VARIANT_FAST;
}

ntt_status ntt_polymul_mod_variant(uint64_t *c, const uint64_t *a, size_t la, const uint64_t *b,
                                   size_t lb, uint64_t p, ntt_backend backend,
                                   const ntt_plan_options *opts, ntt_variant v)
{
    if ((unsigned)v >= NTT_VARIANT_COUNT) return NTT_EINVAL;
    if (v == NTT_VARIANT_FAST) return ntt_polymul_mod_ex(c, a, la, b, lb, p, backend, opts);
    if ((unsigned)backend < NTT_BACKEND_COUNT && cpu_baseline(v, backend))
        return ntt_polymul_mod_addon(c, a, la, b, lb, p, backend, opts, &ntt_course_baseline_ops,
                                     NULL);
    const ntt_variant_options vo = {v, 0};
    return ntt_polymul_mod_addon(c, a, la, b, lb, p, backend, opts, &ntt_course_gpu_ops[v - 1],
                                 &vo);
}
