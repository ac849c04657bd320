/* The backend registry (registry.h): the table of backends and every
   choice among them.  A new backend is a row here. */
#include "registry.h"
#include "detail.h"
#include "../cpu/cpu.h"
#include "../pool/pool.h"

#include <stdlib.h>
#include <string.h>

/* In the order of ntt_backend; the AUTO priorities say AVX-512 > AVX2 >
   scalar.  AUTO stays on the CPU: a GPU only pays off for large or
   batched work, so callers ask for it by name; OPENMP threads only when
   asked for, as a busy machine can make threads slower than one. */
static const ntt_backend_entry table[] = {
    {.id = NTT_BACKEND_SCALAR,
     .ops = &ntt_scalar_ops,
     .auto_priority = 1,
     .kernels = &ntt_scalar_kernel_choice},
#ifdef NTT_HAVE_AVX2
    {.id = NTT_BACKEND_AVX2,
     .ops = &ntt_avx2_ops,
     .auto_priority = 2,
     .kernels = &ntt_avx2_kernel_choice,
     .crt_sets = ntt_crt_sets_fp64},
#endif
#ifdef NTT_HAVE_OPENMP
    {.id = NTT_BACKEND_OPENMP, .ops = &ntt_openmp_ops, .threads_best_cpu = true},
#endif
#ifdef NTT_HAVE_CUDA
    {.id = NTT_BACKEND_CUDA, .ops = &ntt_cuda_ops},
#endif
#ifdef NTT_HAVE_AVX512
    {.id = NTT_BACKEND_AVX512,
     .ops = &ntt_avx512_ops,
     .auto_priority = 3,
     .kernels = &ntt_avx512_kernel_choice,
     .crt_sets = ntt_crt_sets_avx512,
     .crt_kernels = ntt_crt_kernels_avx512},
#endif
};

#define ROWS (sizeof table / sizeof table[0])

const ntt_backend_entry *ntt_backend_entry_of(ntt_backend b)
{
    for (size_t i = 0; i < ROWS; i++)
        if (table[i].id == b) return &table[i];
    return NULL;
}

const ntt_backend_ops *ntt_backend_lookup(ntt_backend b)
{
    const ntt_backend_entry *e = ntt_backend_entry_of(b);
    return e ? e->ops : NULL;
}

int ntt_backend_available(ntt_backend b)
{
    if (b == NTT_BACKEND_AUTO) return 1;
    const ntt_backend_ops *ops = ntt_backend_lookup(b);
    return ops && ops->available() ? 1 : 0;
}

ntt_backend ntt_backend_best_cpu(void)
{
    const ntt_backend_entry *best = NULL;
    for (size_t i = 0; i < ROWS; i++)
        if (table[i].auto_priority && (!best || table[i].auto_priority > best->auto_priority) &&
            table[i].ops->available())
            best = &table[i];
    return best ? best->id : NTT_BACKEND_SCALAR;
}

/* What AUTO stands for: an available backend named by NTT_BACKEND, else
   the best CPU backend (a known name that is not available here is passed
   over, so that one setting serves machines with and without a GPU).  0
   where NTT_BACKEND is set, not empty, and names no backend, so that a
   misspelt setting is refused instead of quietly running another one. */
static int pick_auto(const char *env, ntt_backend *b)
{
    ntt_backend e = NTT_BACKEND_AUTO;
    if (env && *env && ntt_backend_from_name(env, &e) != NTT_OK) return 0;
    *b = e != NTT_BACKEND_AUTO && ntt_backend_available(e) ? e : ntt_backend_best_cpu();
    return 1;
}

ntt_backend ntt_backend_resolve_auto(void)
{
    ntt_backend b;
    return pick_auto(getenv("NTT_BACKEND"), &b) ? b : NTT_BACKEND_AUTO;
}

ntt_status ntt_backend_resolve(ntt_backend *b)
{
    if (*b != NTT_BACKEND_AUTO) return NTT_OK;
    const char *env = getenv("NTT_BACKEND");
    if (pick_auto(env, b)) return NTT_OK;
    char shown[NTT_ESCAPE_CAP];
    (void)ntt_escape_bytes(shown, sizeof shown, env, strlen(env));
    return ntt_fail(NTT_EINVAL, "NTT_BACKEND=\"%s\" names no backend (auto, scalar, avx2, "
                    "openmp, cuda, avx512; unset or empty: auto)", shown);
}

ntt_backend ntt_backend_kernels_of(ntt_backend b)
{
    const ntt_backend_entry *e = ntt_backend_entry_of(b);
    if (!e) return NTT_BACKEND_AUTO;
    if (e->threads_best_cpu) return ntt_backend_best_cpu();
    return e->kernels ? b : NTT_BACKEND_AUTO;
}

const struct ntt_cpu_kernel_choice *ntt_backend_kernels(ntt_backend b)
{
    const ntt_backend_entry *e = ntt_backend_entry_of(ntt_backend_kernels_of(b));
    return e ? e->kernels : NULL;
}

const ntt_backend_ops *ntt_backend_exec_ops(ntt_backend b, int threads)
{
    const ntt_backend_entry *e = ntt_backend_entry_of(b);
    if (!e) return NULL;
#ifdef NTT_HAVE_OPENMP
    if (e->kernels && threads > 1) return &ntt_openmp_ops;
#else
    (void)threads;
#endif
    return e->ops;
}

int ntt_backend_thread_count(ntt_backend b, int threads)
{
    const ntt_backend_entry *e = ntt_backend_entry_of(b);
#ifdef NTT_HAVE_OPENMP
    if (e && e->threads_best_cpu) return threads > 0 ? threads : ntt_pool_default_threads();
    if (e && e->kernels && threads > 1) return threads;
#else
    (void)e;
    (void)threads;
#endif
    return 1;
}

size_t ntt_backend_crt_sets(ntt_backend b, const ntt_crt_set **sets)
{
    const ntt_backend_entry *e = ntt_backend_entry_of(ntt_backend_kernels_of(b));
    return (e && e->crt_sets ? e->crt_sets : ntt_crt_sets_default)(sets);
}

ntt_crt_kernels ntt_backend_crt_kernels(ntt_backend b, const ntt_garner *g)
{
    const ntt_backend_entry *e = ntt_backend_entry_of(ntt_backend_kernels_of(b));
    if (e && e->crt_kernels) return e->crt_kernels(g);
    return (ntt_crt_kernels){ntt_garner_scalar, ntt_reduce_scalar};
}

/* ---- the planner's candidates --------------------------------------------- */

bool ntt_backend_auto_free(void)
{
    const char *env = getenv("NTT_BACKEND");
    ntt_backend e = NTT_BACKEND_AUTO;
    return !env || !*env || (ntt_backend_from_name(env, &e) == NTT_OK && e == NTT_BACKEND_AUTO);
}

size_t ntt_backend_plan_rows(ntt_backend asked, bool auto_free, ntt_backend *out)
{
    size_t k = 0;
    out[k++] = asked;
    if (!auto_free) return k;
    for (size_t i = 0; i < ROWS; i++)
        if (table[i].kernels && table[i].id != asked && table[i].ops->available())
            out[k++] = table[i].id;
    return k;
}

bool ntt_backend_is_cpu(ntt_backend b)
{
    const ntt_backend_entry *e = ntt_backend_entry_of(b);
    return e && (e->kernels || e->threads_best_cpu);
}

const void *ntt_backend_kernels_for(ntt_backend b, const ntt_plan *plan, const ntt_modulus *m,
                                    const char **name)
{
    const ntt_cpu_kernel_choice *kc = ntt_backend_kernels(b);
    *name = b == NTT_BACKEND_CUDA ? "cuda" : "";
    if (!kc) return NULL;
    ntt_plan p = *plan;
    p.modmul = ntt_cpu_resolve_modmul(plan->modmul);
    if (p.width == NTT_U32) {
        const kern_u32 *K = ntt_cpu_pick_u32(&p, kc, m);
        *name = K->name;
        return K;
    }
    const kern_u64 *K = ntt_cpu_pick_u64(&p, kc, m);
    *name = K->name;
    return K;
}

size_t ntt_crt_sets_all(const ntt_crt_set **sets, size_t cap)
{
    size_t k = 0;
    const ntt_crt_set *s;
    for (size_t i = 0; i <= ROWS; i++) {
        /* The rows' sets, then the default set (i == ROWS). */
        size_t ns;
        if (i < ROWS) {
            if (!table[i].crt_sets || !table[i].ops->available()) continue;
            ns = table[i].crt_sets(&s);
        } else {
            ns = ntt_crt_sets_default(&s);
        }
        for (size_t j = 0; j < ns; j++) {
            bool seen = false;
            for (size_t t = 0; t < k; t++) seen = seen || sets[t]->q == s[j].q;
            if (!seen && k < cap) sets[k++] = &s[j];
        }
    }
    return k;
}

/* Why a backend cannot be used, as only the table knows it. */
ntt_status ntt_fail_backend(ntt_backend b)
{
    const char *name = ntt_backend_name(b);
    if (!ntt_backend_lookup(b))
        return ntt_fail(NTT_EUNSUPPORTED, "backend \"%s\" is not built into this libntt%s", name,
                        b == NTT_BACKEND_CUDA     ? " (nvcc was not found when it was built)"
                        : b == NTT_BACKEND_OPENMP ? " (the compiler had no OpenMP)"
                                                  : " (not an x86-64 build)");
    switch (b) {
    case NTT_BACKEND_AVX2:
        return ntt_fail(NTT_EUNSUPPORTED, "backend \"avx2\" needs AVX2, FMA and BMI2, which this "
                        "CPU (or the OS) does not provide");
    case NTT_BACKEND_AVX512:
        return ntt_fail(NTT_EUNSUPPORTED, "backend \"avx512\" needs AVX-512 F, VL, BW and DQ "
                        "(and AVX2, FMA, BMI2), which this CPU (or the OS) does not provide");
    case NTT_BACKEND_CUDA:
        return ntt_fail(NTT_EUNSUPPORTED, "backend \"cuda\" is built but no CUDA GPU is usable "
                        "here (no device, or no NVIDIA driver)");
    default:
        return ntt_fail(NTT_EUNSUPPORTED, "backend \"%s\" is not usable here", name);
    }
}

ntt_status ntt_fail_unsupported(ntt_backend b, ntt_modmul m, const char *addon)
{
    const ntt_backend_ops *ops = ntt_backend_lookup(b);
    if (!ops || !ops->available()) return ntt_fail_backend(b);
    if (!addon)
        return ntt_fail(NTT_EUNSUPPORTED, "backend \"%s\" does not offer modmul \"%s\"",
                        ntt_backend_name(b), ntt_modmul_name(m));
    return ntt_fail(NTT_EUNSUPPORTED, "the add-on \"%s\" does not run on backend \"%s\" with "
                    "modmul \"%s\"", addon, ntt_backend_name(b), ntt_modmul_name(m));
}
