/* The CRT prime sets of ntt_polymul_mod, which the registry's rows name
   (registry.h): each set is the largest primes of one bit length with
   2^30 | q-1 (ntt_find_prime(bits, order, i); the tests recompute them),
   in descending order, with the relative time of a product on it. */
#include "registry.h"
#include "cpu_features.h"

/* The default: the largest primes below 2^62 with 2^32 | q-1.  Any two
   have a product above 2^123.99, any three above 2^185.99, which exceeds
   min(la,lb) (p-1)^2 < 2^30 * 2^126 for every admissible input. */
const uint64_t ntt_crt_primes[3] = {4611685941117976577ull, 4611685692009873409ull,
                                    4611685606110527489ull};

/* The x86 kernels' sets.  Below 2^51 the products run on the FP64
   kernels, faster than the 62-bit integer ones by more than a fourth
   prime costs.  Where the IFMA kernels run, each size has its own lazy
   range (x86/ifma.c), the 51- and 52-bit ones with more reductions per
   butterfly; the costs are the relative product times measured on an AMD
   EPYC (docs/EXPERIMENTS.md), and a larger prime pays where it saves a
   prime.
   Products of the first two, three, four primes: above 2^99.99, 2^149.98,
   2^199.97 (50 bits), 2^101.99, 2^152.99, 2^203.99 (51), 2^103.99,
   2^155.99, 2^207.98 (52). */
static const uint64_t crt50[4] = {1125845146009601ull, 1125844072267777ull,
                                  1125825818656769ull, 1125818302464001ull};
static const uint64_t crt51[4] = {2251792297492481ull, 2251756864012289ull,
                                  2251747200335873ull, 2251740757884929ull};
static const uint64_t crt52[4] = {4503579226275841ull, 4503567415115777ull,
                                  4503557751439361ull, 4503556677697537ull};

size_t ntt_crt_sets_default(const ntt_crt_set **sets)
{
    static const ntt_crt_set def[] = {{ntt_crt_primes, 3, 100}};
    *sets = def;
    return 1;
}

size_t ntt_crt_sets_fp64(const ntt_crt_set **sets)
{
    static const ntt_crt_set fp64[] = {{crt51, 4, 100}};
    *sets = fp64;
    return 1;
}

/* The IFMA kernels run where x86/ifma.c is built, allowed and the CPU has
   the extensions (ntt_ifma_kernels_u64, for Shoup plans). */
size_t ntt_crt_sets_avx512(const ntt_crt_set **sets)
{
    static const ntt_crt_set ifma[] = {{crt50, 4, 100}, {crt51, 4, 116}, {crt52, 4, 134}};
#ifdef NTT_HAVE_IFMA
    if (ntt_cpu_ifma_enabled() && ntt_cpu_has_ifma()) {
        *sets = ifma;
        return 3;
    }
#else
    (void)ifma;
#endif
    return ntt_crt_sets_fp64(sets);
}

#ifdef NTT_HAVE_AVX512
ntt_crt_kernels ntt_crt_kernels_avx512(const ntt_garner *g)
{
    ntt_crt_kernels k = {ntt_garner_avx512, ntt_reduce_avx512};
#ifdef NTT_HAVE_IFMA
    if (g->ifma_q && ntt_cpu_ifma_enabled() && ntt_cpu_has_ifma()) k.garner = ntt_garner_ifma;
#else
    (void)g;
#endif
    return k;
}
#endif
