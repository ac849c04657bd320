/* libFuzzer: ntt_polymul_mod with any 64-bit p, lengths up to 96 and any
   coefficients, on every available backend, against a schoolbook product.
   Short inputs keep the oracle cheap; lengths above 8 take the NTT paths
   (direct for NTT-friendly p, CRT otherwise).  A wrong product is a
   finding, as is a status other than the documented one. */
#include "fuzz_input.h"

#include <string.h>

#define MAXLEN 96

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* p: any value, or one of the shapes that reach the special paths. */
static uint64_t pick_modulus(fuzz_input *in)
{
    uint64_t raw = fuzz_u64(in);
    uint64_t p = 0;
    switch (fuzz_u8(in) % 6) {
    case 0: return raw;
    case 1: return raw >> (raw & 63);                  /* every bit length */
    case 2: return ((uint64_t)1 << 63) - 1 - (raw & 0xff); /* the top of the range */
    case 3:                                           /* NTT-friendly primes */
        if (ntt_find_prime((unsigned)fuzz_range(in, 8, 63), (unsigned)fuzz_range(in, 1, 7),
                           (unsigned)(raw & 15), &p) == NTT_OK)
            return p;
        return raw;
    case 4: return 2 + (raw & 0xffff);                /* small p */
    default: return (raw | 1) & (((uint64_t)1 << 62) - 1);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fuzz_input in = {data, size, 0};
    ntt_backend backends[NTT_BACKEND_COUNT];
    int nb = fuzz_backends(backends);
    ntt_backend backend = backends[fuzz_u8(&in) % nb];
    uint64_t p = pick_modulus(&in);
    size_t la = (size_t)fuzz_range(&in, 1, MAXLEN);
    size_t lb = (size_t)fuzz_range(&in, 1, MAXLEN);
    unsigned mode = fuzz_u8(&in);
    bool reduce = (mode & 7) != 0; /* else an input may be >= p */
    uint64_t a[MAXLEN], b[MAXLEN], c[2 * MAXLEN], want[2 * MAXLEN];
    bool in_range = true;
    for (size_t i = 0; i < la + lb; i++) {
        uint64_t v;
        switch ((mode >> 3) & 3) {
        case 0: v = fuzz_u64(&in); break;
        case 1: v = p - 1 - (fuzz_u8(&in) & 1); break; /* the largest values */
        default: v = fuzz_u8(&in); break;
        }
        if (reduce && p >= 2) v %= p;
        if (v >= p) in_range = false;
        if (i < la) a[i] = v; else b[i - la] = v;
    }
    const size_t lc = la + lb - 1;
    memset(c, 0x5A, sizeof c);
    ntt_status st = ntt_polymul_mod(c, a, la, b, lb, p, backend);
    if (p < 2 || p >= ((uint64_t)1 << 63)) {
        FUZZ_EXPECT(st == NTT_EINVAL, "p = %llu: status %d, expected EINVAL",
                    (unsigned long long)p, (int)st);
    } else if (!in_range) {
        FUZZ_EXPECT(st == NTT_ERANGE, "p = %llu: input >= p gave status %d",
                    (unsigned long long)p, (int)st);
    } else {
        FUZZ_EXPECT(st == NTT_OK, "p = %llu, la %zu, lb %zu, %s: status %s",
                    (unsigned long long)p, la, lb, ntt_backend_name(backend),
                    ntt_status_string(st));
    }
    if (st != NTT_OK) {
        for (size_t i = 0; i < 2 * MAXLEN; i++)
            FUZZ_EXPECT(c[i] == 0x5A5A5A5A5A5A5A5Aull, "c[%zu] written on failure", i);
        return 0;
    }
    memset(want, 0, sizeof want);
    for (size_t i = 0; i < la; i++)
        for (size_t j = 0; j < lb; j++)
            want[i + j] = (uint64_t)(((unsigned __int128)want[i + j] + fuzz_mulmod(a[i], b[j], p)) % p);
    for (size_t k = 0; k < lc; k++)
        FUZZ_EXPECT(c[k] == want[k], "p = %llu, la %zu, lb %zu, %s: c[%zu] = %llu, expected %llu",
                    (unsigned long long)p, la, lb, ntt_backend_name(backend), k,
                    (unsigned long long)c[k], (unsigned long long)want[k]);
    for (size_t k = lc; k < 2 * MAXLEN; k++)
        FUZZ_EXPECT(c[k] == 0x5A5A5A5A5A5A5A5Aull, "c[%zu] written past la+lb-1", k);
    if ((mode & 0x60) == 0x60) ntt_cache_clear();
    return 0;
}
