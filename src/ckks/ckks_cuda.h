/*
 * The device side of a CKKS context on a CUDA RNS context: its constants
 * and workspace (allocated once, with the context) and the element-wise
 * kernels' launches, called by ckks.c.  Built only with CUDA (and for the
 * CPU stand-in of tests/cuda_emu).  Every launch goes to `stream` and
 * returns the launch's cudaError_t as an int (0 = success).  Rows are
 * limbs: row r of a polynomial array is N words modulo prime r of the
 * context (limbs 0 .. rows-1), except in ntt_ckks_cu_perm, which moves
 * words and reads no prime.  Not installed.
 */
#ifndef NTT_CKKS_CUDA_H
#define NTT_CKKS_CUDA_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* One limb's constants for the products: Barrett's mu = floor(2^(2k)/p),
   k = bits of p (src/arith/modarith.h, ntt_barrett64). */
typedef struct ckks_prime {
    uint64_t p, mu;
    unsigned k;
} ckks_prime;

typedef struct ckks_dev {
    ckks_prime *pm;                 /* nl, device */
    uint64_t *ext, *extp;           /* dnum (L+1+K) N words each, device */
    uint64_t *acc0, *acc1;          /* (L+1+K) N each */
    uint64_t *t[4];                 /* (L+1) N each */
    void *base;                     /* the one device allocation */
    int last_error;
} ckks_dev;

/* Uploads pm (nl limbs) and allocates the workspace.  Returns 0 or the
   cudaError_t; *d is zeroed first, and freed on failure. */
int ntt_ckks_cu_init(ckks_dev *d, const ckks_prime *pm, size_t nl, size_t n, size_t ext_words,
                     size_t acc_words, size_t t_words);
void ntt_ckks_cu_free(ckks_dev *d);

/* d0 = a0 b0, d1 = a0 b1 + a1 b0, d2 = a1 b1, rows limbs. */
int ntt_ckks_cu_tensor(const ckks_dev *d, size_t n, size_t rows, const uint64_t *a0,
                       const uint64_t *a1, const uint64_t *b0, const uint64_t *b1, uint64_t *d0,
                       uint64_t *d1, uint64_t *d2, void *stream);
/* out_c = x_c + y_c (c = 0, 1; y1 may be NULL: out1 = x1; o1 NULL: out0
   alone, x1 not read), or with mul set
   out_c = x_c y_c where y1 NULL means y0 for both (a plaintext). */
int ntt_ckks_cu_addmul(const ckks_dev *d, size_t n, size_t rows, int mul, const uint64_t *x0,
                       const uint64_t *x1, const uint64_t *y0, const uint64_t *y1, uint64_t *o0,
                       uint64_t *o1, void *stream);
/* out row r word k = in row r word pi(k) (the automorphism of g, ntt_ckks.h),
   rows rows; plus acc row r word k mod prime r when acc is not NULL. */
int ntt_ckks_cu_perm(const ckks_dev *d, size_t n, unsigned logn, uint64_t g, size_t rows,
                     const uint64_t *in, const uint64_t *acc, uint64_t *out, void *stream);
/* Device-to-device copy of words on the stream. */
int ntt_ckks_cu_copy(uint64_t *dst, const uint64_t *src, size_t words, void *stream);

#ifdef __cplusplus
}
#endif

#endif /* NTT_CKKS_CUDA_H */
