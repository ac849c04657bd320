/*
 * ntt_field.h - NTTs over big prime fields (65 to 1024 bits, issue 59).
 *
 * The conventions of ntt.h hold here: every call that can fail returns an
 * ntt_status and, on failure, has written nothing the caller owns; the
 * library never prints, aborts or exits; ntt_error_detail() says which
 * condition failed after every failing call of this header (each clears it
 * when it starts).
 *
 * Elements.  A field of a prime p of b bits (65 <= b <= 1024) has
 * w = ceil(b / 64) words per element (ntt_field_words).  An element is w
 * consecutive uint64_t, least significant word first; element i of an
 * array starts at word i * w.  Every element given to a call must be below
 * p (else NTT_ERANGE, nothing written); every element returned is below p.
 *
 * Forms.  Inside, products are Montgomery's with R = 2^(64 w): the
 * Montgomery form of x is x R mod p.  ntt_field_to_mont / from_mont
 * convert arrays between the canonical and the Montgomery form.  The
 * transforms are linear, so they give the same words in either form: the
 * forward transform of the Montgomery form of a is the Montgomery form of
 * the forward transform of a.  Products (pointwise, polymul) depend on the
 * form: canonical by default, Montgomery with NTT_FIELD_FLAG_MONTGOMERY.
 *
 * Threads.  A context may be used by any number of threads at once; a
 * plan by one thread at a time.  Plans with threads > 1 run on the
 * library's own threads (as ntt_plan_options.threads says) and give the
 * same words as one thread.
 */
#ifndef NTT_FIELD_H
#define NTT_FIELD_H

#include "ntt.h"

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Word counts and bit lengths of the primes a field accepts. */
#define NTT_FIELD_MIN_BITS 65
#define NTT_FIELD_MAX_BITS 1024
#define NTT_FIELD_MAX_WORDS 16

typedef struct ntt_field ntt_field;

/* Named primes.  Only p's words are written in the library; every other
   parameter is derived at creation as for any prime.  The base fields
   (BN254_P, BLS12_381_P) have 2-adicity 1 (p = 3 mod 4): plans of n >= 4
   points are refused (NTT_EMODULUS); n = 2 and the conversions work. */
typedef enum ntt_field_preset {
    NTT_FIELD_BN254_R = 0,     /* BN254 (alt_bn128) scalar field, 254 bits, 2^28 | r-1 */
    NTT_FIELD_BN254_P = 1,     /* BN254 base field, 254 bits */
    NTT_FIELD_BLS12_381_R = 2, /* BLS12-381 scalar field, 255 bits, 2^32 | r-1 */
    NTT_FIELD_BLS12_381_P = 3  /* BLS12-381 base field, 381 bits */
} ntt_field_preset;
#define NTT_FIELD_PRESET_COUNT 4

/* Creates the field of the prime p, given as `words` little-endian words
   (words = ceil(bits / 64) exactly: no leading zero word).  Checks that p
   is prime with the Baillie-PSW test (a Miller-Rabin round to base 2 and a
   strong Lucas test with Selfridge's parameters, after trial division by
   the primes below 256): no composite is known to pass it, and none below
   2^64 does (so a prime is never refused; a composite passing is an open
   question, not a known event).  Derives R mod p, R^2 mod p,
   -p^-1 mod 2^64, the 2-adicity s (2^s | p-1, 2^(s+1) does not), the
   smallest quadratic non-residue z (whose power z^((p-1)/2^s) is the
   2^s-th root of unity the plans use) and the coset generator g (the
   smallest quadratic non-residue whose order is not a power of two, so g
   lies outside every subgroup of order 2^k: usually z).
   *f is set to NULL on failure.  Allocates the context once.
   Errors: NTT_EINVAL (f or p NULL, words 0 or above NTT_FIELD_MAX_WORDS,
   a leading zero word), NTT_EMODULUS (p below 2^64 (fewer than 65 bits),
   even, or not prime), NTT_ENOMEM. */
NTT_API NTT_NODISCARD ntt_status ntt_field_create(ntt_field **f, const uint64_t *p, size_t words);

/* ntt_field_create on a named prime.  Errors: NTT_EINVAL (f NULL, unknown
   preset), NTT_ENOMEM. */
NTT_API NTT_NODISCARD ntt_status ntt_field_create_preset(ntt_field **f, ntt_field_preset which);

/* "bn254-r", "bn254-p", "bls12-381-r", "bls12-381-p"; "unknown" otherwise. */
NTT_API const char *ntt_field_preset_name(ntt_field_preset which);

/* Frees the context.  NULL is ignored.  Plans made from it do not refer to
   it and stay usable. */
NTT_API void ntt_field_destroy(ntt_field *f);

/* w, words per element. */
NTT_API size_t ntt_field_words(const ntt_field *f);
/* The bit length of p. */
NTT_API unsigned ntt_field_bits(const ntt_field *f);
/* s: the largest transform size is 2^s (and 2^NTT_MAX_LOG2_N). */
NTT_API unsigned ntt_field_two_adicity(const ntt_field *f);
/* p's w words (the context's own copy; valid while f lives). */
NTT_API const uint64_t *ntt_field_modulus(const ntt_field *f);
/* The coset generator g described at ntt_field_create (a small integer). */
NTT_API uint64_t ntt_field_generator(const ntt_field *f);

/* out[i] = in[i] R mod p (to_mont) or in[i] R^-1 mod p (from_mont), for
   count elements.  out may alias in exactly; partial overlap is refused.
   count 0 is a no-op (pointers still checked).  Every in[i] is checked
   before anything is written.  Allocates nothing.
   Errors: NTT_EINVAL (f, out or in NULL, partial overlap), NTT_ERANGE (an
   in[i] >= p; the detail names it). */
NTT_API NTT_NODISCARD ntt_status ntt_field_to_mont(const ntt_field *f, uint64_t *out,
                                                   const uint64_t *in, size_t count);
NTT_API NTT_NODISCARD ntt_status ntt_field_from_mont(const ntt_field *f, uint64_t *out,
                                                     const uint64_t *in, size_t count);

/* ------------------------------------------------------------------------ */
/* Plans                                                                      */
/* ------------------------------------------------------------------------ */

/* Plan flags (with ntt.h's NTT_FLAG_NATURAL_ORDER: spectra in natural
   order; without it bit-reversed, as ntt.h's plans). */
#define NTT_FIELD_FLAG_COSET 4u      /* transforms on the coset g H: the
                                        forward multiplies a_i by g^i first,
                                        the inverse multiplies by g^-i last */
#define NTT_FIELD_FLAG_MONTGOMERY 8u /* pointwise and polymul take and give
                                        the Montgomery form (else canonical) */

/* Optional plan settings; a zero-initialised struct (or NULL) gives the
   defaults: bit-reversed spectra, no coset, canonical products, one
   thread. */
typedef struct ntt_field_plan_options {
    unsigned flags;              /* NTT_FLAG_NATURAL_ORDER | NTT_FIELD_FLAG_*;
                                    other bits (NTT_FLAG_NEGACYCLIC among
                                    them): NTT_EINVAL */
    int threads;                 /* >= 0; 0 or 1: the calling thread alone;
                                    > 1: that many threads, the plan's own
                                    (started at creation, at most the
                                    online CPUs, joined by destroy),
                                    used for transforms of 2^12 points and
                                    more and for batches */
    const uint64_t *coset_shift; /* with NTT_FIELD_FLAG_COSET: w words, the
                                    shift g, canonical, in [1, p); NULL:
                                    ntt_field_generator */
} ntt_field_plan_options;

typedef struct ntt_field_plan ntt_field_plan;

/* A plan for transforms of n points over f.  Builds every table (the
   twiddles r^brv(k) for k < n/2 and their inverses, the coset powers g^i
   and g^-i n^-1) and a scratch array of n elements once; executing
   allocates nothing.  The root: r = z^((p-1)/n), z as in ntt_field_create
   (the convention of ntt.h's plans), of order exactly n.  The plan copies
   what it needs of f.  *plan is NULL on failure.
   Errors: NTT_EINVAL (plan or f NULL, n not a power of two in
   [2, 2^NTT_MAX_LOG2_N], bad flags or threads, coset shift 0 or >= p),
   NTT_EMODULUS (n does not divide p-1: log2 n above the 2-adicity; the
   detail says both), NTT_ENOMEM. */
NTT_API NTT_NODISCARD ntt_status ntt_field_plan_create(ntt_field_plan **plan, const ntt_field *f,
                                                       size_t n,
                                                       const ntt_field_plan_options *opts);

/* Frees the plan and joins its threads.  NULL is ignored. */
NTT_API void ntt_field_plan_destroy(ntt_field_plan *plan);

NTT_API size_t ntt_field_plan_size(const ntt_field_plan *plan);  /* n */
NTT_API size_t ntt_field_plan_words(const ntt_field_plan *plan); /* w */
/* The plan's root r (canonical, w words) into root.
   Errors: NTT_EINVAL (NULL). */
NTT_API NTT_NODISCARD ntt_status ntt_field_plan_root(const ntt_field_plan *plan, uint64_t *root);

/*
 * forward:  a <- NTT(a) in place, n elements.  With A(x) = sum_j a_j x^j,
 *           output k is A(r^brv(k)) (bit-reversed, brv reverses log2 n
 *           bits), A(r^k) with NTT_FLAG_NATURAL_ORDER; on a coset plan
 *           A(g r^brv(k)) / A(g r^k).
 * inverse:  a <- NTT^-1(a) in place (input in the forward's output order),
 *           1/n included: inverse(forward(a)) == a.
 * pointwise: c[i] = a[i] b[i] (canonical), or a[i] b[i] R^-1 (Montgomery
 *           flag: the Montgomery form of the product of the values whose
 *           forms a[i], b[i] are).  c may alias a and/or b exactly.
 * polymul:  c = a b mod (x^n - 1) (mod (x^n - g^n) on a coset plan), all in
 *           natural order, the form as pointwise.  c may alias a and/or b
 *           exactly.  Uses the plan's scratch.
 * polymul_linear: c[0 .. la+lb-2] = a b exactly (zero padding to n, so
 *           la + lb - 1 <= n is required, else NTT_EINVAL; the coset flag
 *           changes nothing).  la, lb >= 1; c must not overlap a or b.
 *
 * Batched forms: count items, item i at element i * stride, stride >= n
 * (items may not overlap); count 0 is a no-op.  Every item's inputs are
 * checked before anything is written.  On a plan with threads > 1 a batch
 * runs one item per thread.
 *
 * Every call checks its pointers (NULL: NTT_EINVAL), then every input
 * element (>= p: NTT_ERANGE, the detail names the operand and element),
 * before it writes; pointwise and polymul refuse a c that partly overlaps
 * a or b, polymul_linear a c that overlaps them at all, batches a stride
 * below n with count > 1 (NTT_EINVAL).  None allocates.
 */
NTT_API NTT_NODISCARD ntt_status ntt_field_forward(ntt_field_plan *plan, uint64_t *a);
NTT_API NTT_NODISCARD ntt_status ntt_field_inverse(ntt_field_plan *plan, uint64_t *a);
NTT_API NTT_NODISCARD ntt_status ntt_field_pointwise(ntt_field_plan *plan, uint64_t *c,
                                                     const uint64_t *a, const uint64_t *b);
NTT_API NTT_NODISCARD ntt_status ntt_field_polymul(ntt_field_plan *plan, uint64_t *c,
                                                   const uint64_t *a, const uint64_t *b);
NTT_API NTT_NODISCARD ntt_status ntt_field_polymul_linear(ntt_field_plan *plan, uint64_t *c,
                                                          const uint64_t *a, size_t la,
                                                          const uint64_t *b, size_t lb);

NTT_API NTT_NODISCARD ntt_status ntt_field_forward_batch(ntt_field_plan *plan, uint64_t *a,
                                                         size_t count, size_t stride);
NTT_API NTT_NODISCARD ntt_status ntt_field_inverse_batch(ntt_field_plan *plan, uint64_t *a,
                                                         size_t count, size_t stride);
NTT_API NTT_NODISCARD ntt_status ntt_field_pointwise_batch(ntt_field_plan *plan, uint64_t *c,
                                                           const uint64_t *a, const uint64_t *b,
                                                           size_t count, size_t stride);

#ifdef __cplusplus
}
#endif

#endif /* NTT_FIELD_H */
