/* Backend lookup, availability and the choice behind NTT_BACKEND_AUTO. */
#include "internal.h"

#include <stdlib.h>

const ntt_backend_ops *ntt_backend_lookup(ntt_backend b)
{
    switch (b) {
    case NTT_BACKEND_SCALAR: return &ntt_scalar_ops;
#ifdef NTT_HAVE_AVX2
    case NTT_BACKEND_AVX2: return &ntt_avx2_ops;
#endif
#ifdef NTT_HAVE_AVX512
    case NTT_BACKEND_AVX512: return &ntt_avx512_ops;
#endif
#ifdef NTT_HAVE_OPENMP
    case NTT_BACKEND_OPENMP: return &ntt_openmp_ops;
#endif
#ifdef NTT_HAVE_CUDA
    case NTT_BACKEND_CUDA: return &ntt_cuda_ops;
#endif
    default: return NULL;
    }
}

int ntt_backend_available(ntt_backend b)
{
    if (b == NTT_BACKEND_AUTO) return 1;
    const ntt_backend_ops *ops = ntt_backend_lookup(b);
    return ops && ops->available() ? 1 : 0;
}

/* AUTO means the fastest CPU backend: a GPU only pays off for large or
   batched work, so callers ask for it by name.  NTT_BACKEND in the
   environment overrides the choice when it names an available backend. */
ntt_backend ntt_backend_resolve_auto(void)
{
    const char *env = getenv("NTT_BACKEND");
    ntt_backend b;
    if (env && ntt_backend_from_name(env, &b) == NTT_OK && b != NTT_BACKEND_AUTO &&
        ntt_backend_available(b))
        return b;
    static const ntt_backend order[] = {NTT_BACKEND_AVX512, NTT_BACKEND_AVX2, NTT_BACKEND_SCALAR};
    for (size_t i = 0; i < sizeof order / sizeof order[0]; i++)
        if (ntt_backend_available(order[i])) return order[i];
    return NTT_BACKEND_SCALAR;
}
