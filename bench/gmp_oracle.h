/* Exact products with GMP (Kronecker substitution): the expected outputs
   that ntt-bench and test_crt check the NTT code against, computed without
   it.  The ntt_oracle library; not installed. */
#ifndef NTT_GMP_ORACLE_H
#define NTT_GMP_ORACLE_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* c[0..la+lb-2] = a*b mod p for any p in [2, 2^64); la, lb >= 1; inputs < p.
   Returns 0 on success, -1 when out of memory. */
int oracle_polymul(uint64_t *c, const uint64_t *a, size_t la, const uint64_t *b, size_t lb,
                   uint64_t p);

#ifdef __cplusplus
}
#endif

#endif
