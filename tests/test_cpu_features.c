/* test_cpu_features: the CPU probe (src/core/cpu_features.c) and the
   backend registry (src/core/registry.c).  The probe's flags against the
   compiler's own cpuid reading (__builtin_cpu_supports, which also checks
   the OS state), the same cached object from several threads; the
   registry's choices: AUTO without NTT_BACKEND is the best CPU backend,
   which is available and whose kernels OPENMP runs; availability of the
   x86 backends as the probe says; the ops a plan runs for each thread
   count. */
#include "test_common.h"

#include "../src/core/cpu_features.h"
#include "../src/core/registry.h"

#include <pthread.h>
#include <stdlib.h>

static void *probe_thread(void *arg)
{
    (void)arg;
    return (void *)ntt_cpu_features_get();
}

static void probe(void)
{
    const ntt_cpu_features *f = ntt_cpu_features_get();
    CHECK(f != NULL, "ntt_cpu_features_get() is NULL");
    pthread_t t[4];
    for (int i = 0; i < 4; i++) CHECK(pthread_create(&t[i], NULL, probe_thread, NULL) == 0, "pthread_create");
    for (int i = 0; i < 4; i++) {
        void *r = NULL;
        pthread_join(t[i], &r);
        CHECK(r == f, "thread %d saw another features object", i);
    }
#if defined(__x86_64__) && defined(__GNUC__)
    __builtin_cpu_init();
    CHECK_EQ(!!__builtin_cpu_supports("avx2"), f->avx2, "avx2");
    CHECK_EQ(!!__builtin_cpu_supports("fma"), f->fma, "fma");
    CHECK_EQ(!!__builtin_cpu_supports("bmi2"), f->bmi2, "bmi2");
    CHECK_EQ(!!__builtin_cpu_supports("avx512f"), f->avx512f, "avx512f");
    CHECK_EQ(!!__builtin_cpu_supports("avx512vl"), f->avx512vl, "avx512vl");
    CHECK_EQ(!!__builtin_cpu_supports("avx512bw"), f->avx512bw, "avx512bw");
    CHECK_EQ(!!__builtin_cpu_supports("avx512dq"), f->avx512dq, "avx512dq");
    CHECK_EQ(!!__builtin_cpu_supports("avx512ifma"), f->avx512ifma, "avx512ifma");
#else
    CHECK(!f->avx2 && !f->avx512f, "x86 features off x86-64");
#endif
    printf("cpu: avx2 %d fma %d bmi2 %d avx512f %d vl %d bw %d dq %d ifma %d\n", f->avx2, f->fma,
           f->bmi2, f->avx512f, f->avx512vl, f->avx512bw, f->avx512dq, f->avx512ifma);
}

static void registry(void)
{
    unsetenv("NTT_BACKEND");
    const ntt_backend best = ntt_backend_best_cpu();
    CHECK_EQ(best, ntt_backend_resolve_auto(), "AUTO without NTT_BACKEND");
    CHECK(ntt_backend_available(best), "best CPU backend %s not available", ntt_backend_name(best));
    CHECK(ntt_backend_kernels(best) != NULL, "best CPU backend %s has no kernels", ntt_backend_name(best));
#ifdef NTT_HAVE_AVX2
    CHECK_EQ(ntt_cpu_has_avx2(), ntt_backend_available(NTT_BACKEND_AVX2), "AVX2 available");
#endif
#ifdef NTT_HAVE_AVX512
    CHECK_EQ(ntt_cpu_has_avx512(), ntt_backend_available(NTT_BACKEND_AVX512), "AVX-512 available");
    if (ntt_cpu_has_avx512()) CHECK_EQ(NTT_BACKEND_AVX512, best, "AUTO on an AVX-512 CPU");
#endif
    if (ntt_backend_available(NTT_BACKEND_OPENMP)) {
        CHECK_EQ(best, ntt_backend_kernels_of(NTT_BACKEND_OPENMP), "OPENMP's kernels");
        CHECK(ntt_backend_exec_ops(NTT_BACKEND_OPENMP, 0) == ntt_backend_lookup(NTT_BACKEND_OPENMP),
              "OPENMP runs its own table");
    }
    const ntt_backend cpu[] = {NTT_BACKEND_SCALAR, NTT_BACKEND_AVX2, NTT_BACKEND_AVX512};
    for (size_t i = 0; i < sizeof cpu / sizeof cpu[0]; i++) {
        const ntt_backend b = cpu[i];
        if (!ntt_backend_lookup(b)) continue;
        CHECK_EQ(b, ntt_backend_kernels_of(b), "%s's kernels", ntt_backend_name(b));
        for (int t = 0; t <= 1; t++) {
            CHECK(ntt_backend_exec_ops(b, t) == ntt_backend_lookup(b), "%s threads %d", ntt_backend_name(b), t);
            CHECK_EQ(1, ntt_backend_thread_count(b, t), "%s threads %d", ntt_backend_name(b), t);
        }
        const bool omp = ntt_backend_lookup(NTT_BACKEND_OPENMP) != NULL;
        CHECK(ntt_backend_exec_ops(b, 3) == (omp ? ntt_backend_lookup(NTT_BACKEND_OPENMP) : ntt_backend_lookup(b)),
              "%s threads 3", ntt_backend_name(b));
        CHECK_EQ(omp ? 3 : 1, ntt_backend_thread_count(b, 3), "%s threads 3", ntt_backend_name(b));
        const ntt_crt_set *s;
        CHECK(ntt_backend_crt_sets(b, &s) >= 1 && s[0].count <= NTT_CRT_SET_MAX, "%s CRT sets", ntt_backend_name(b));
    }
    CHECK(ntt_backend_lookup(NTT_BACKEND_AUTO) == NULL, "AUTO has no row");
    CHECK(ntt_backend_lookup((ntt_backend)NTT_BACKEND_COUNT) == NULL, "no row past the last backend");
}

int main(void)
{
    test_init("test_cpu_features");
    probe();
    registry();
    return test_finish();
}
