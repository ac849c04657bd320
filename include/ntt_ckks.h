/*
 * ntt_ckks.h - the CKKS operations FHE users time, on an RNS context.
 *
 * A CKKS context (ntt_ckks) sits on an RNS context of ntt_rns.h (K >= 1
 * special primes, a CPU backend) and runs, through that context's public
 * calls only: HMult (tensor product, relinearisation by the hybrid key
 * switch, optional rescale), plaintext-ciphertext multiply and add,
 * ciphertext add, rescale, rotation (the Galois automorphism X -> X^g,
 * g = 5^k mod 2N, then the key switch), conjugation (g = 2N - 1) and
 * hoisted rotations (one decomposition and modUp shared by r rotations,
 * r ciphertexts out, or their sum with one modDown).
 * For tests, examples and benchmarks it also generates a ternary secret,
 * the relinearisation and Galois keys, and encrypts and decrypts a
 * polynomial message (there is no encoder: the message is an integer
 * polynomial scaled by a Delta of the caller's).
 *
 * NOT FOR SECURITY.  Every random value comes from a seeded deterministic
 * generator (SplitMix64), so the same seed gives the same secret, keys and
 * ciphertexts on every machine and backend; nothing here is a
 * cryptographic random source and no parameter set is checked for
 * security.  Use these keys to test, demonstrate and time, never to
 * protect data.
 *
 * Conventions: those of ntt_rns.h (N, levels, limbs, Q_l = q_0 .. q_l, P,
 * digits, forms; every output word in [0, prime) of its limb).  In
 * addition:
 *  - Ciphertext (ntt_ckks_ct): two polynomials c0, c1 on Q_l (l = level),
 *    each limb-major, (l+1) N words at c0 and at c1, evaluation form
 *    (ntt_rns.h: bit-reversed spectra of the negacyclic NTT).  cap is the
 *    number of limbs each of c0 and c1 can hold (an output's level + 1 must
 *    not exceed it).  It decrypts to m' = c0 + c1 s mod Q_l.  An output
 *    ciphertext's c0, c1, n and cap are the caller's; the call writes
 *    c0, c1 (limbs 0 .. level) and sets level.
 *  - Plaintext: one polynomial on Q_l, (l+1) N words, evaluation form
 *    (ntt_ckks_plain makes one from integers).
 *  - Secret: N coefficients in {-1, 0, 1} (int8_t), coefficient form.
 *  - Switching keys (relinearisation, Galois): the key layout of ntt_rns.h
 *    (2 dnum (L+1+K) limbs, evaluation form, on Q_L and P), key_limbs
 *    passed beside it; a key made at level L serves every level.  Digit j
 *    of a key from s' to s is (b_j, a_j) with a_j uniform and
 *    b_j = -a_j s + e_j + [i in digit j] (P mod q_i) s'  on limb q_i,
 *    b_j = -a_j s + e_j                                    on limb p_k,
 *    so key switching d gives (o0, o1) with o0 + o1 s = d s' + small.
 *    The relinearisation key has s' = s^2; the Galois key of g has
 *    s' = s(X^g).
 *  - Errors e (keys and encryption): centred binomial, the difference of
 *    the popcounts of two 21-bit words: |e| <= NTT_CKKS_ERR_BOUND = 21,
 *    standard deviation sqrt(10.5) ~ 3.24.
 *  - Levels: binary operations take inputs at any levels and work at the
 *    lower one (the higher input's extra limbs are not read).  A level
 *    above L, a rescale at level 0, a plaintext below the ciphertext's
 *    level or an output with too small a cap is NTT_EINVAL.
 *  - Aliasing: an output ciphertext may be an input exactly (the same c0
 *    and the same c1); any other overlap between outputs and inputs, keys
 *    or plaintexts is NTT_EINVAL.
 *  - Memory: ntt_ckks_create allocates the workspace every call needs;
 *    no other function allocates.  One thread at a time per context (the
 *    workspace and the RNS context's scratch are shared by its calls).
 *  - Errors: NTT_EINVAL for NULL pointers, n other than the context's N
 *    (a buffer of another context), wrong key_limbs, levels as above, a
 *    Galois element that is even or not below 2N; NTT_ERANGE for input
 *    words not below their prime (inputs are scanned, keys are not: see
 *    ntt_rns.h); a failing RNS call's status as it is.  On NTT_EINVAL and
 *    NTT_ERANGE found before work starts nothing is written.  A failure
 *    found by these calls' own checks sets ntt_error_detail() to the
 *    condition ("level 3 above the context's L = 2", ...); one returned by
 *    an RNS call leaves it as that call did.
 *
 * Rotations (ntt_ckks_rotate, _conjugate, _rotate_hoisted, _rotate_sum):
 * c0 goes through the automorphism's index permutation; c1 is decomposed
 * into the digits of ntt_rns.h and raised by modUp once, each raised digit
 * is permuted (the device forms read the raised digits through the
 * permutation inside the inner product), then the inner product with the
 * rotation's key and modDown give the key-switched part.  A single rotation is the hoisted path with
 * r = 1, so the hoisted outputs equal the single rotations' word for word.
 * (Permuting the raised digits rather than c1 before modUp differs from
 * switching sigma(c1) only by multiples of the digit moduli, which the key
 * cancels.)
 */
#ifndef NTT_CKKS_H
#define NTT_CKKS_H

#include "ntt_rns.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The largest |e| of a key's or an encryption's error coefficient. */
#define NTT_CKKS_ERR_BOUND 21

typedef struct ntt_ckks ntt_ckks;

typedef struct ntt_ckks_ct {
    uint64_t *c0, *c1; /* cap * n words each; limbs 0 .. level used */
    size_t n;          /* N of the context */
    size_t level;      /* l <= L */
    size_t cap;        /* limbs that c0 and c1 each hold */
} ntt_ckks_ct;

/* Creates a CKKS context on `rns`, which the context borrows (it must
   outlive the CKKS context, and is used by it: one thread at a time for
   both).  Allocates the workspace of every call: about
   (2 dnum (L+1+K) + 2 (L+1+K) + 4 (L+1)) N words (on the device for a
   CUDA context, with the primes' constants), 2 (L+1+K) N more on a CPU
   context (ntt_ckks_rotate_sum's sums), and a few N words on the host.
   *ck is NULL on failure.
   Errors: NTT_EINVAL (NULL pointers; K == 0), NTT_EUNSUPPORTED (a CUDA
   context in a build without CUDA), NTT_EBACKEND (a CUDA call failed),
   NTT_ENOMEM (host or device memory). */
NTT_API NTT_NODISCARD ntt_status ntt_ckks_create(ntt_ckks **ck, ntt_rns *rns);
/* Frees the workspace (not the RNS context).  NULL is ignored. */
NTT_API void ntt_ckks_destroy(ntt_ckks *ck);
/* The RNS context; NULL when ck is NULL. */
NTT_API ntt_rns *ntt_ckks_rns(const ntt_ckks *ck);
/* 2 dnum (L+1+K): the limbs of one switching key; 0 when ck is NULL. */
NTT_API size_t ntt_ckks_key_limbs(const ntt_ckks *ck);

/* ---- Galois elements and the automorphism -------------------------------- */

/* 5^k mod 2N for rotation by k slots (k < 0 rotates the other way:
   5^(k mod N/2)); 0 when ck is NULL. */
NTT_API uint64_t ntt_ckks_galois_rot(const ntt_ckks *ck, long k);
/* 2N - 1, conjugation; 0 when ck is NULL. */
NTT_API uint64_t ntt_ckks_galois_conj(const ntt_ckks *ck);

/* out <- a(X^g) on `limbs` limbs (any limbs of the context: the
   permutation is the same for every prime), evaluation form in and out:
   out[k] = in[pi(k)], where slot k of the bit-reversed spectrum is the
   value at psi^(2 brv(k) + 1) (the tree order of docs/ARCHITECTURE.md),
   so pi(k) = brv(((2 brv(k) + 1) g mod 2N - 1) / 2).  In coefficient
   form this is X^i -> (-1)^floor(i g / N) X^(i g mod N).  Inputs are not
   scanned (words are moved, never combined).
   Errors: NTT_EINVAL (NULL pointers, n != N, limbs == 0 or > L+1+K, g even
   or >= 2N, out overlapping in). */
NTT_API NTT_NODISCARD ntt_status ntt_ckks_automorphism(ntt_ckks *ck, size_t n, uint64_t g,
                                                       const uint64_t *in, size_t limbs,
                                                       uint64_t *out);

/* ---- secret, keys, encryption (tests and examples; see NOT FOR SECURITY) -- */
/* Host only: on a CKKS context over a CUDA RNS context these (but
   ntt_ckks_secret_gen and ntt_ckks_decode_small) return NTT_EUNSUPPORTED
   after their argument checks; a CPU context of the same parameters makes
   the same words, which the caller copies to the device. */

/* s[0 .. N) <- uniform in {-1, 0, 1} from `seed`.
   Errors: NTT_EINVAL (NULL pointers, n != N). */
NTT_API NTT_NODISCARD ntt_status ntt_ckks_secret_gen(ntt_ckks *ck, uint64_t seed, int8_t *s,
                                                     size_t n);
/* The relinearisation key (s' = s^2) into key (key_limbs = 2 dnum
   (L+1+K)); a_j and e_j from `seed`.
   Errors: NTT_EINVAL (NULL pointers, n != N, key_limbs, a secret
   coefficient outside {-1, 0, 1}). */
NTT_API NTT_NODISCARD ntt_status ntt_ckks_keygen_relin(ntt_ckks *ck, const int8_t *s, size_t n,
                                                       uint64_t seed, uint64_t *key,
                                                       size_t key_limbs);
/* The Galois key of g (s' = s(X^g)); g as for ntt_ckks_automorphism. */
NTT_API NTT_NODISCARD ntt_status ntt_ckks_keygen_galois(ntt_ckks *ck, const int8_t *s, size_t n,
                                                        uint64_t g, uint64_t seed,
                                                        uint64_t *key, size_t key_limbs);

/* pt (pt_limbs = level + 1) <- Delta m on Q_level, evaluation form:
   m[0 .. N) any int64 coefficients, taken mod each q_i, times Delta mod
   q_i (so Delta m may exceed 64 bits).
   Errors: NTT_EINVAL (NULL pointers, n != N, level > L, pt_limbs). */
NTT_API NTT_NODISCARD ntt_status ntt_ckks_plain(ntt_ckks *ck, size_t n, const int64_t *m,
                                                uint64_t delta, size_t level, uint64_t *pt,
                                                size_t pt_limbs);
/* Secret-key encryption of Delta m at `level`: c1 = a uniform, c0 =
   -a s + e + Delta m (a, e from `seed`); out->level set to level.
   Errors: NTT_EINVAL (NULL pointers, n or out->n != N, level > L, cap,
   a secret coefficient outside {-1, 0, 1}). */
NTT_API NTT_NODISCARD ntt_status ntt_ckks_encrypt(ntt_ckks *ck, const int8_t *s, size_t n,
                                                  const int64_t *m, uint64_t delta,
                                                  size_t level, uint64_t seed, ntt_ckks_ct *out);
/* m' = c0 + c1 s mod Q_l into out (out_limbs = level + 1), COEFFICIENT
   form: the noisy message's residues, limb-major.  in scanned.
   Errors: NTT_EINVAL (NULL pointers, sizes, the secret's values, out
   overlapping the ciphertext), NTT_ERANGE. */
NTT_API NTT_NODISCARD ntt_status ntt_ckks_decrypt(ntt_ckks *ck, const int8_t *s, size_t n,
                                                  const ntt_ckks_ct *in, uint64_t *out,
                                                  size_t out_limbs);
/* The integers of a decryption when they are small: v[i] <- the value in
   (-q_0/2, q_0/2) congruent to limb 0's coefficient i, and checked to be
   congruent to limb k's for every k < limbs, so v is m' exactly.
   Errors: NTT_EINVAL (NULL pointers, n != N, limbs == 0 or > L+1),
   NTT_ERANGE (a coefficient not in that range: m' is larger than q_0/2
   or the limbs disagree; v is then unspecified). */
NTT_API NTT_NODISCARD ntt_status ntt_ckks_decode_small(const ntt_ckks *ck, size_t n,
                                                       const uint64_t *m, size_t limbs,
                                                       int64_t *v);

/* ---- the operations ----------------------------------------------------- */

/* out <- a + b at min(a.level, b.level). */
NTT_API NTT_NODISCARD ntt_status ntt_ckks_add(ntt_ckks *ck, const ntt_ckks_ct *a,
                                              const ntt_ckks_ct *b, ntt_ckks_ct *out);
/* out <- a + pt (to c0); pt on Q_{pt_limbs - 1}, pt_limbs >= a.level + 1. */
NTT_API NTT_NODISCARD ntt_status ntt_ckks_add_plain(ntt_ckks *ck, const ntt_ckks_ct *a,
                                                    const uint64_t *pt, size_t pt_limbs,
                                                    ntt_ckks_ct *out);
/* out <- a * pt (both components); pt as for ntt_ckks_add_plain.  No
   rescale (call ntt_ckks_rescale). */
NTT_API NTT_NODISCARD ntt_status ntt_ckks_mul_plain(ntt_ckks *ck, const ntt_ckks_ct *a,
                                                    const uint64_t *pt, size_t pt_limbs,
                                                    ntt_ckks_ct *out);
/* out <- rescale(a) at a.level - 1 (ntt_rns_rescale of c0 and c1). */
NTT_API NTT_NODISCARD ntt_status ntt_ckks_rescale(ntt_ckks *ck, const ntt_ckks_ct *a,
                                                  ntt_ckks_ct *out);
/* HMult at l = min(a.level, b.level): d0 = a0 b0, d1 = a0 b1 + a1 b0,
   d2 = a1 b1; (k0, k1) = ntt_rns_keyswitch(d2, rlk); out = (d0 + k0,
   d1 + k1) at l, then, when `rescale` is nonzero, rescaled to l - 1
   (l == 0 with rescale is NTT_EINVAL). */
NTT_API NTT_NODISCARD ntt_status ntt_ckks_mul(ntt_ckks *ck, const ntt_ckks_ct *a,
                                              const ntt_ckks_ct *b, const uint64_t *rlk,
                                              size_t key_limbs, int rescale, ntt_ckks_ct *out);
/* out <- the rotation of a by k slots: Galois element g =
   ntt_ckks_galois_rot(ck, k), key the Galois key of that g. */
NTT_API NTT_NODISCARD ntt_status ntt_ckks_rotate(ntt_ckks *ck, const ntt_ckks_ct *a, long k,
                                                 const uint64_t *key, size_t key_limbs,
                                                 ntt_ckks_ct *out);
/* out <- the conjugate of a (g = 2N - 1; key the Galois key of it). */
NTT_API NTT_NODISCARD ntt_status ntt_ckks_conjugate(ntt_ckks *ck, const ntt_ckks_ct *a,
                                                    const uint64_t *key, size_t key_limbs,
                                                    ntt_ckks_ct *out);
/* out[i] <- the automorphism of a by Galois element g[i] with key
   keys[i], i < r (r >= 1), sharing one decomposition and modUp of a.c1.
   Each out[i] equals ntt_ckks_rotate's (or _conjugate's) result for that
   g word for word.  An out[i] may be a itself exactly; outputs may not
   overlap one another.  Any odd g[i] < 2N. */
NTT_API NTT_NODISCARD ntt_status ntt_ckks_rotate_hoisted(ntt_ckks *ck, const ntt_ckks_ct *a,
                                                         const uint64_t *g, size_t r,
                                                         const uint64_t *const *keys,
                                                         size_t key_limbs, ntt_ckks_ct *out);
/* out <- the sum over i < r (r >= 1) of the automorphisms of a by g[i]
   with keys[i], as the linear transforms of bootstrapping (and Phantom's
   hoisting) compute it: one decomposition and modUp of a.c1, each
   rotation's inner product added up in the extended basis Q_l P, one
   modDown of the sum.  It decrypts to the sum of ntt_ckks_rotate_hoisted's
   outputs within their noise; the words differ from adding those outputs
   (one modDown's rounding instead of r).  out may be a exactly; the g[i]
   need not differ. */
NTT_API NTT_NODISCARD ntt_status ntt_ckks_rotate_sum(ntt_ckks *ck, const ntt_ckks_ct *a,
                                                     const uint64_t *g, size_t r,
                                                     const uint64_t *const *keys,
                                                     size_t key_limbs, ntt_ckks_ct *out);

/* ---- the operations on device pointers (CKKS contexts over CUDA RNS ones) -- */
/*
 * Each ntt_ckks_cuda_X takes the arguments of ntt_ckks_X (same layouts,
 * levels and aliasing rules) with the ciphertexts' c0, c1, the plaintexts
 * and the keys in device memory (the ntt_ckks_ct structs and the g and
 * key-pointer arrays themselves on the host), plus a stream: it enqueues
 * its work there and returns, as ntt_rns_cuda_* do (no copies to or from
 * the host, no allocation, no synchronization, so a sequence of calls may
 * be captured in a CUDA graph; inputs are not scanned).  An output's level
 * is set on the host when the call returns.  The words are those of the
 * host form on a CPU context of the same parameters, bit for bit: the
 * transforms, modUp, inner product, modDown and rescale are the RNS
 * context's device calls, the products and sums use the host form's
 * arithmetic, and the automorphism is one gather kernel.  The context's
 * device workspace is shared by its calls: one stream (or streams the
 * caller orders), one host thread at a time.
 * Errors: those of the host form but NTT_ERANGE; NTT_EUNSUPPORTED (a CPU
 * context; and the host forms on a CUDA context); NTT_EBACKEND (a launch
 * failed: ntt_ckks_cuda_last_error); the RNS device calls' statuses.
 */
NTT_API NTT_NODISCARD ntt_status ntt_ckks_cuda_automorphism(ntt_ckks *ck, size_t n, uint64_t g,
                                                            const uint64_t *d_in, size_t limbs,
                                                            uint64_t *d_out,
                                                            ntt_cuda_stream stream);
NTT_API NTT_NODISCARD ntt_status ntt_ckks_cuda_add(ntt_ckks *ck, const ntt_ckks_ct *a,
                                                   const ntt_ckks_ct *b, ntt_ckks_ct *out,
                                                   ntt_cuda_stream stream);
NTT_API NTT_NODISCARD ntt_status ntt_ckks_cuda_add_plain(ntt_ckks *ck, const ntt_ckks_ct *a,
                                                         const uint64_t *d_pt, size_t pt_limbs,
                                                         ntt_ckks_ct *out,
                                                         ntt_cuda_stream stream);
NTT_API NTT_NODISCARD ntt_status ntt_ckks_cuda_mul_plain(ntt_ckks *ck, const ntt_ckks_ct *a,
                                                         const uint64_t *d_pt, size_t pt_limbs,
                                                         ntt_ckks_ct *out,
                                                         ntt_cuda_stream stream);
NTT_API NTT_NODISCARD ntt_status ntt_ckks_cuda_rescale(ntt_ckks *ck, const ntt_ckks_ct *a,
                                                       ntt_ckks_ct *out, ntt_cuda_stream stream);
NTT_API NTT_NODISCARD ntt_status ntt_ckks_cuda_mul(ntt_ckks *ck, const ntt_ckks_ct *a,
                                                   const ntt_ckks_ct *b, const uint64_t *d_rlk,
                                                   size_t key_limbs, int rescale,
                                                   ntt_ckks_ct *out, ntt_cuda_stream stream);
NTT_API NTT_NODISCARD ntt_status ntt_ckks_cuda_rotate(ntt_ckks *ck, const ntt_ckks_ct *a, long k,
                                                      const uint64_t *d_key, size_t key_limbs,
                                                      ntt_ckks_ct *out, ntt_cuda_stream stream);
NTT_API NTT_NODISCARD ntt_status ntt_ckks_cuda_conjugate(ntt_ckks *ck, const ntt_ckks_ct *a,
                                                         const uint64_t *d_key, size_t key_limbs,
                                                         ntt_ckks_ct *out,
                                                         ntt_cuda_stream stream);
NTT_API NTT_NODISCARD ntt_status ntt_ckks_cuda_rotate_hoisted(ntt_ckks *ck, const ntt_ckks_ct *a,
                                                              const uint64_t *g, size_t r,
                                                              const uint64_t *const *d_keys,
                                                              size_t key_limbs, ntt_ckks_ct *out,
                                                              ntt_cuda_stream stream);
NTT_API NTT_NODISCARD ntt_status ntt_ckks_cuda_rotate_sum(ntt_ckks *ck, const ntt_ckks_ct *a,
                                                          const uint64_t *g, size_t r,
                                                          const uint64_t *const *d_keys,
                                                          size_t key_limbs, ntt_ckks_ct *out,
                                                          ntt_cuda_stream stream);
/* The CUDA error (a cudaError_t value) of the context's last failed launch
   of its own kernels, 0 if none or not a CUDA context (the RNS calls'
   errors: ntt_rns_cuda_last_error). */
NTT_API int ntt_ckks_cuda_last_error(const ntt_ckks *ck);

#ifdef __cplusplus
}
#endif

#endif /* NTT_CKKS_H */
