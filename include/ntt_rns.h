/*
 * ntt_rns.h - residue number systems and the CKKS key-switching stages.
 *
 * A context (ntt_rns) fixes one negacyclic size N, two lists of primes and a
 * digit count, precomputes every constant the stages need and owns the
 * negacyclic NTT plans of its limbs.  Conventions (those of ntt.h apply:
 * status codes, nothing written on failure, no printing):
 *
 *  - Limbs.  The context's primes are numbered 0 .. L+K: q_0 .. q_L (the
 *    ciphertext modulus chain Q, L+1 >= 1 primes), then p_0 .. p_{K-1} (the
 *    special primes P, K >= 0) as limbs L+1 .. L+K.  Every prime is distinct,
 *    2 < prime < 2^61 and 2N | prime - 1.
 *  - Polynomials.  A polynomial on a list of limbs is `limbs * N` uint64_t
 *    words, limb-major: limb k (the residues modulo the k-th prime of the
 *    list) at words [k*N, (k+1)*N).  "At level l" means on Q_l = q_0 .. q_l;
 *    an "extended" polynomial at level l is on Q_l then P: l+1+K limbs, limb
 *    l+1+k holding the residues modulo p_k.
 *  - Forms.  Coefficient form: the N coefficients of a polynomial mod
 *    X^N + 1 in natural order.  Evaluation form: what ntt_forward_u64 of a
 *    negacyclic plan makes of it, in the library's bit-reversed order
 *    (ntt.h): word k of limb t is A(r_t^(2 brv(k) + 1)), with r_t the
 *    limb's root of order 2N, z^((q-1)/2N) for the smallest quadratic
 *    non-residue z mod the limb's prime q (ntt_rns_root returns it; every
 *    backend, CUDA included, uses it).  Each function says which form it
 *    takes and gives.
 *  - Ranges.  Every output word is in [0, prime) of its limb.  Input words
 *    must be below their limb's prime; inputs marked "checked" are scanned
 *    before anything is written (NTT_ERANGE, outputs untouched).  The keys
 *    of the key-switching calls are not scanned (they are as large as the
 *    rest of the work): key words >= their prime give unspecified values,
 *    never out-of-bounds accesses or undefined behaviour, and every output
 *    word is still in [0, prime) of its limb (the sums are reduced from any
 *    64-bit words), so a later call's range check does not fail on them;
 *    ntt_rns_key_check scans a key once.
 *  - Sizes are passed with every buffer: `n` must equal the context's N and
 *    each `*_limbs` the exact number of limbs the operation reads or writes
 *    there (else NTT_EINVAL), so that a buffer meant for another level,
 *    digit or context is caught before it is read.
 *  - Aliasing: outputs may not overlap inputs or each other, except where a
 *    function allows exact aliasing (same start address).
 *  - Threads: a context may be used by one thread at a time (it owns scratch
 *    memory that its calls share); different contexts are independent.
 *    Calls allocate nothing, on any backend and thread count (a
 *    one-thread context runs its loops on the calling thread; an OPENMP
 *    context of T > 1 threads runs them on T - 1 threads of its own (at
 *    most one less than the online CPUs), started by ntt_rns_create and
 *    joined by ntt_rns_destroy, which wait
 *    briefly and then sleep, whatever OMP_WAIT_POLICY says, and on the
 *    caller).
 *
 * Digits (hybrid key switching, dnum digits): alpha = ceil((L+1)/dnum);
 * digit j is q_{j*alpha} .. q_{min((j+1)*alpha, l+1) - 1}; at level l there
 * are beta(l) = ceil((l+1)/alpha) digits, the last one possibly shorter.
 * For a digit D with primes d_i, "hat" constants are D/d_i (the product of
 * the other primes of D).
 *
 * Base conversion (FastBConv, the HPS/BEHZ formula, exactly as defined):
 * from a base B = b_0 .. b_{s-1} to primes c_j, coefficient by coefficient,
 *     Conv_{B->C}(x)_j = ( sum_i [x_i * (B/b_i)^-1]_{b_i} * (B/b_i) ) mod c_j,
 * with [.]_{b} the residue in [0, b).  The integer inside the parentheses is
 * X + u*B for the X in [0, B) with X = x_i mod b_i, and 0 <= u < s: no
 * correction of u is made.
 *
 * The stages, each over all N coefficients and every limb named:
 *     modUp(l, j):   the digit's own limbs copied; every other limb t of
 *                    Q_l and P: NTT(Conv_{D_j -> t}(INTT(digit))).
 *     modDown(l):    out_i = (x_i - NTT(Conv_{P -> q_i}(INTT(x_P)))) * P^-1
 *                    mod q_i, i = 0 .. l.
 *     rescale(l):    out_i = (x_i - NTT([INTT(x_l)]_{q_i})) * q_l^-1 mod q_i,
 *                    i = 0 .. l-1 (Conv from the one limb q_l).
 *     inner(l):      acc_c[t] = sum_{j < beta(l)} ext_j[t] * key_{j,c}[t]
 *                    mod (prime of t), c = 0, 1, pointwise in evaluation form.
 *     keyswitch(l):  out_c = modDown(l)(inner(l)(modUp(l, j)(digit j of x)
 *                    for every j)), bit for bit what the separate calls give.
 * None rounds (no +q_l/2 or +P/2): the division is of x - Conv(x).
 *
 * Key layout (caller-supplied, evaluation form): dnum * 2 polynomials on
 * Q_L then P (L+1+K limbs each), digit-major:
 *     key + ((2*j + c) * (L+1+K) + k) * N,  j < dnum, c in {0, 1}, k <= L+K,
 * is limb k of component c of digit j, k <= L being q_k and L+1+m being p_m.
 * A key switch at level l reads digits j < beta(l) only and, of each of
 * their polynomials, limbs 0 .. l and the K limbs L+1 .. L+K; the limbs
 * l+1 .. L are skipped.  key_limbs = 2 * dnum * (L+1+K) always.
 *
 * Digits against dnum: alpha = ceil((L+1)/dnum) limbs a digit makes
 * beta(L) = ceil((L+1)/alpha) digits, which can be fewer than dnum (L+1 =
 * 5, dnum = 4: alpha = 2, three digits q_0 q_1 | q_2 q_3 | q_4).  The key
 * still holds dnum digit pairs (key_limbs above); the pairs j >= beta(L)
 * are never read by any call of this header, host or device form
 * (ntt_rns_key_check included), so they may hold anything, uninitialised
 * memory too.
 *
 * Key contents: the key switch feeds each digit in raw, i.e. modUp of the
 * digit's residues as they are (no factor (Q/D_j)^-1 applied), so the
 * gadget factor belongs in the key.  A key from s' to s (secrets in
 * evaluation form on every limb) is, for each digit j < beta(L),
 *     key_{j,1} = a_j,  key_{j,0} = -a_j s + e_j + P g_j s'  mod (Q_L P),
 * limb by limb, with a_j uniform, e_j small, P the product of the special
 * primes and g_j the integer (a constant, not a polynomial) that is 1 mod
 * every q_i of digit j and 0 mod every other q_i of Q_L:
 *     g_j = (Q_L / D_j) * [(Q_L / D_j)^-1]_{D_j},
 * D_j the product of digit j's primes (P g_j is 0 mod every p_k).  Then
 * keyswitch(l) of x gives out0 + out1 s = x s' + E mod Q_l with E = the
 * modDown of sum_j ext_j e_j plus modDown's rounding (for e_j = 0 every
 * coefficient of E is below K (1 + N max|s|) in absolute value, s's
 * coefficients taken centred); with a_j = e_j = 0 the result is exactly
 * out0 = x s', out1 = 0.  The modUp terms u_j D_j vanish because D_j g_j
 * = 0 mod Q_L.
 *
 * Why this shape:
 *  - One serial plan per limb (not one batched plan): the stages transform
 *    arbitrary subsets of limbs (a digit, the P limbs, one limb, every limb
 *    but a digit's), and the OPENMP backend runs different limbs on
 *    different threads.  A limb's twiddles then serve all the transforms
 *    the key switch makes of that limb in a row.
 *  - Base conversions sum 128-bit products and reduce once per output; the
 *    formulas of every stage live in one internal header that the CPU
 *    kernels (portable 64-bit code, and AVX-512 IFMA where the AVX-512
 *    NTTs run, the CPU has IFMA, every prime is >= 2^30 and N >= 8) and a
 *    later CUDA version compute alike, so every backend gives the same
 *    words.
 *
 * CUDA: a context created with backend NTT_BACKEND_CUDA runs the stages on
 * device pointers (ntt_rns_cuda_*, below), with the arguments of the host
 * forms plus a stream, as ntt_cuda_* are to ntt_forward_u64 and friends.
 * Its transforms are one batched negacyclic plan of ntt.h over all L+1+K
 * primes and one over P's (the CUDA backend's fast path), each call
 * transforming a run of consecutive limbs at once; its element-wise kernels
 * compute the formulas of the host forms, so both give the same words.
 */
#ifndef NTT_RNS_H
#define NTT_RNS_H

#include "ntt.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Largest L+1+K. */
#define NTT_RNS_MAX_LIMBS 256
/* Every prime of a context is below 2^NTT_RNS_PRIME_BITS.  Why 61: a
   product of two residues is below 2^122, so a base conversion sums 63
   such products in 128 bits before it reduces (ntt.h's u64 plans take
   primes up to 2^62). */
#define NTT_RNS_PRIME_BITS 61

typedef struct ntt_rns ntt_rns;

typedef struct ntt_rns_params {
    size_t n;              /* N: a power of two, 2 <= N <= 2^NTT_MAX_LOG2_N */
    const uint64_t *q;     /* q_0 .. q_L */
    size_t q_count;        /* L+1 >= 1 */
    const uint64_t *p;     /* p_0 .. p_{K-1}; may be NULL when K == 0 */
    size_t p_count;        /* K >= 0; L+1+K <= NTT_RNS_MAX_LIMBS */
    size_t dnum;           /* 1 .. L+1 */
    ntt_backend backend;   /* AUTO (ntt_backend_resolve_auto, never CUDA),
                              SCALAR, AVX2, AVX512, OPENMP, or CUDA (the
                              ntt_rns_cuda_* calls only) */
    int threads;           /* OPENMP: threads over limbs and coefficient
                              blocks (0 = omp_get_max_threads()); the other
                              backends (AUTO as resolved) use one thread and
                              require 0 or 1 */
} ntt_rns_params;

/* Creates a context: validates the parameters, computes every constant and
   builds one negacyclic u64 plan per limb (the backend's NTT kernels; for
   OPENMP the best serial kernels of this CPU, run one limb per thread).
   Memory: the limbs' plans (twiddle tables and a workspace, a few N words
   each), constants of up to (L+1) alpha (L+1+K) words, and scratch of
   (alpha + dnum (L+1+K) + 2K) N words plus N + 128 (L+1+K) words per
   thread.  CUDA: no per-limb plans on the host; on the device two batched
   plans (every prime, and P's alone: about 32 N bytes of twiddles a
   limb), the constants (about (L+1)^2 + (L+1+K)^2 words) and scratch of
   ((L+1) + max(dnum (L+1+K), 2(L+1)) + 2K + (L+1+K)) N words.  OPENMP with
   T > 1 threads: T - 1 threads (see Threads above).
   *ctx is NULL on failure.
   Errors: NTT_EINVAL (ctx or params NULL; q NULL; p NULL with K > 0; N not a
   power of two in range; L+1 == 0; L+1+K > NTT_RNS_MAX_LIMBS; dnum outside
   1 .. L+1; backend not a value of ntt_backend; threads < 0, or > 1 for a
   backend other than OPENMP, AUTO included unless NTT_BACKEND=openmp makes
   it OPENMP; AUTO while NTT_BACKEND names no backend, see ntt.h),
   NTT_EMODULUS (a prime not prime, outside
   (2, 2^61), or 2N not dividing prime - 1; the same prime twice in Q, twice
   in P, or in both), NTT_EUNSUPPORTED (backend not available here; CUDA
   without a GPU or in a build without CUDA), NTT_EBACKEND (a CUDA call
   failed), NTT_ENOMEM (host or device memory). */
NTT_API NTT_NODISCARD ntt_status ntt_rns_create(ntt_rns **ctx, const ntt_rns_params *params);

/* Frees everything the context owns.  NULL is ignored. */
NTT_API void ntt_rns_destroy(ntt_rns *ctx);

/* Queries; 0 (NTT_BACKEND_AUTO for the backend) when ctx is NULL. */
NTT_API size_t ntt_rns_n(const ntt_rns *ctx);
NTT_API size_t ntt_rns_q_count(const ntt_rns *ctx);  /* L+1 */
NTT_API size_t ntt_rns_p_count(const ntt_rns *ctx);  /* K */
NTT_API size_t ntt_rns_dnum(const ntt_rns *ctx);
NTT_API size_t ntt_rns_alpha(const ntt_rns *ctx);    /* ceil((L+1)/dnum) */
/* beta(level) = ceil((level+1)/alpha); 0 when level > L. */
NTT_API size_t ntt_rns_digits(const ntt_rns *ctx, size_t level);
NTT_API ntt_backend ntt_rns_backend(const ntt_rns *ctx); /* never AUTO */
NTT_API int ntt_rns_threads(const ntt_rns *ctx);
/* The L+1+K primes, Q then P (the context's copy); returns their number.
   primes may be NULL: then only the number is returned (0 for ctx NULL). */
NTT_API size_t ntt_rns_primes(const ntt_rns *ctx, const uint64_t **primes);
/* The root of order 2N that the transforms of limb `limb` (<= L+K) use:
   z^((q-1)/2N) for the limb's prime q and the smallest quadratic
   non-residue z mod q, as for a negacyclic plan of ntt.h (ntt_plan_root).
   The same on every backend, CUDA contexts included.  Writes *root only on
   success.  Errors: NTT_EINVAL (ctx or root NULL, limb > L+K). */
NTT_API NTT_NODISCARD ntt_status ntt_rns_root(const ntt_rns *ctx, size_t limb, uint64_t *root);
/* The first limb and the limb count of digit `digit` at level `level`.
   Errors: NTT_EINVAL (NULL pointers, level > L, digit >= beta(level)). */
NTT_API NTT_NODISCARD ntt_status ntt_rns_digit_range(const ntt_rns *ctx, size_t level,
                                                     size_t digit, size_t *first,
                                                     size_t *count);

/* ---- limb transforms and base conversion ------------------------------- */

/* a (count limbs, limb k modulo prime limbs[k]) <- NTT (forward: coefficient
   -> evaluation form) or NTT^-1 (inverse) of each limb, in place.  a checked.
   Errors: NTT_EINVAL (NULL pointers, n != N, count == 0, a limb index > L+K,
   an index twice), NTT_ERANGE. */
NTT_API NTT_NODISCARD ntt_status ntt_rns_forward(ntt_rns *ctx, size_t n, const size_t *limbs,
                                                 size_t count, uint64_t *a);
NTT_API NTT_NODISCARD ntt_status ntt_rns_inverse(ntt_rns *ctx, size_t n, const size_t *limbs,
                                                 size_t count, uint64_t *a);

/* FastBConv in coefficient form: out (to_count limbs, limb j modulo prime
   to[j]) <- Conv_{B -> C}(in), where in holds from_count limbs, limb i
   modulo prime from[i] (the base B).  The constants of an arbitrary pair of
   lists are made in the call (O(s^2 + s t) modular products, s, t the
   counts).  in checked.
   Errors: NTT_EINVAL (NULL pointers, n != N, a count 0, an index > L+K, an
   index twice in a list or in both lists, out overlapping in), NTT_ERANGE. */
NTT_API NTT_NODISCARD ntt_status ntt_rns_fastbconv(ntt_rns *ctx, size_t n, const size_t *from,
                                                   size_t from_count, const uint64_t *in,
                                                   const size_t *to, size_t to_count,
                                                   uint64_t *out);

/* ---- the CKKS stages ----------------------------------------------------- */

/* modUp of digit `digit` at level `level`.  in: the digit's limbs
   (in_limbs = its count, see ntt_rns_digit_range; usually the level-l
   polynomial + first * N), evaluation form, checked.  out: the extended
   polynomial at level l (out_limbs = l+1+K), evaluation form; its limbs of
   the digit are copies of in.
   Errors: NTT_EINVAL (NULL pointers, n != N, level > L, K == 0, digit >=
   beta(level), limb counts other than those, out overlapping in),
   NTT_ERANGE. */
NTT_API NTT_NODISCARD ntt_status ntt_rns_modup(ntt_rns *ctx, size_t n, size_t level,
                                               size_t digit, const uint64_t *in, size_t in_limbs,
                                               uint64_t *out, size_t out_limbs);

/* modDown at level `level`: in, the extended polynomial (in_limbs =
   l+1+K), evaluation form, checked; out (out_limbs = l+1), evaluation form.
   out may be in itself (exactly): the first l+1 limbs are then replaced.
   Errors: NTT_EINVAL (NULL pointers, n != N, level > L, K == 0, limb
   counts, out overlapping in other than exactly), NTT_ERANGE. */
NTT_API NTT_NODISCARD ntt_status ntt_rns_moddown(ntt_rns *ctx, size_t n, size_t level,
                                                 const uint64_t *in, size_t in_limbs,
                                                 uint64_t *out, size_t out_limbs);

/* Rescale at level `level` >= 1: in on Q_l (in_limbs = l+1), evaluation
   form, checked; out on Q_{l-1} (out_limbs = l), evaluation form.  out may
   be in itself exactly.
   Errors: NTT_EINVAL (NULL pointers, n != N, level == 0 or > L, limb counts,
   out overlapping in other than exactly), NTT_ERANGE. */
NTT_API NTT_NODISCARD ntt_status ntt_rns_rescale(ntt_rns *ctx, size_t n, size_t level,
                                                 const uint64_t *in, size_t in_limbs,
                                                 uint64_t *out, size_t out_limbs);

/* Key-switching inner product at level `level`.  ext: beta(l) extended
   polynomials at level l, one after the other (digit j's modUp at
   ext + j*(l+1+K)*N; ext_limbs = beta(l)*(l+1+K)), evaluation form,
   checked.  key: see "Key layout" above (key_limbs = 2*dnum*(L+1+K)), not
   checked.  acc0, acc1: extended polynomials at level l (acc_limbs =
   l+1+K each), evaluation form, overwritten with the sums.
   Errors: NTT_EINVAL (NULL pointers, n != N, level > L, K == 0, limb
   counts, acc0 or acc1 overlapping ext, key or each other), NTT_ERANGE. */
NTT_API NTT_NODISCARD ntt_status ntt_rns_ks_inner(ntt_rns *ctx, size_t n, size_t level,
                                                  const uint64_t *ext, size_t ext_limbs,
                                                  const uint64_t *key, size_t key_limbs,
                                                  uint64_t *acc0, uint64_t *acc1,
                                                  size_t acc_limbs);

/* The whole hybrid key switch at level `level`: in on Q_l (in_limbs = l+1),
   evaluation form, checked; key as above, not checked; out0, out1 on Q_l
   (out_limbs = l+1 each), evaluation form.  Every digit's conversion is
   made first (coefficient form, in the context's scratch); then limb by
   limb the converted rows of that limb are transformed and multiplied
   into both sums while they are in cache (all digits of a limb in one
   pass, so the sums are written once and a limb's twiddles serve all its
   transforms); then modDown of both sums.  The result is that of the
   separate calls bit for bit.
   Errors: NTT_EINVAL (NULL pointers, n != N, level > L, K == 0, limb
   counts, out0 or out1 overlapping in, key or each other), NTT_ERANGE. */
NTT_API NTT_NODISCARD ntt_status ntt_rns_keyswitch(ntt_rns *ctx, size_t n, size_t level,
                                                   const uint64_t *in, size_t in_limbs,
                                                   const uint64_t *key, size_t key_limbs,
                                                   uint64_t *out0, uint64_t *out1,
                                                   size_t out_limbs);

/* ---- the stages on device pointers (contexts made with NTT_BACKEND_CUDA) -- */
/*
 * Each ntt_rns_cuda_X takes the arguments of ntt_rns_X (same sizes, forms,
 * layouts and aliasing rules), with device pointers, plus a stream; it
 * enqueues its work there and returns: no copies to or from the host, no
 * allocation (the scratch and the constants are made with the context), no
 * synchronization, so a sequence of calls may be captured into a CUDA
 * graph.  The words are those of the host form bit for bit.
 *  - Inputs are not range-checked (that would need a synchronization):
 *    words >= their prime give unspecified values, never out-of-bounds
 *    accesses.  "checked" in the host forms' descriptions does not apply.
 *  - The context's device scratch is shared by its calls: calls on one
 *    context must run one after the other on the device (one stream, or
 *    streams the caller orders), and on one host thread at a time.
 *  - Pointers are not dereferenced on the host; overlaps are checked on
 *    their addresses as in the host forms.
 * Errors: those of the host form except NTT_ERANGE; NTT_EUNSUPPORTED (the
 * context is not a CUDA one, or no CUDA in this build); NTT_EBACKEND (a
 * launch failed; see ntt_rns_cuda_last_error).  A host-pointer call
 * (ntt_rns_X) on a CUDA context returns NTT_EUNSUPPORTED, as does
 * ntt_rns_cuda_X on a CPU one.
 */
NTT_API NTT_NODISCARD ntt_status ntt_rns_cuda_forward(ntt_rns *ctx, size_t n, const size_t *limbs,
                                                      size_t count, uint64_t *d_a,
                                                      ntt_cuda_stream stream);
NTT_API NTT_NODISCARD ntt_status ntt_rns_cuda_inverse(ntt_rns *ctx, size_t n, const size_t *limbs,
                                                      size_t count, uint64_t *d_a,
                                                      ntt_cuda_stream stream);
/* The constants of the two lists are computed on the device (one small
   kernel before the conversion's), in the context's scratch. */
NTT_API NTT_NODISCARD ntt_status ntt_rns_cuda_fastbconv(ntt_rns *ctx, size_t n, const size_t *from,
                                                        size_t from_count, const uint64_t *d_in,
                                                        const size_t *to, size_t to_count,
                                                        uint64_t *d_out, ntt_cuda_stream stream);
NTT_API NTT_NODISCARD ntt_status ntt_rns_cuda_modup(ntt_rns *ctx, size_t n, size_t level,
                                                    size_t digit, const uint64_t *d_in,
                                                    size_t in_limbs, uint64_t *d_out,
                                                    size_t out_limbs, ntt_cuda_stream stream);
NTT_API NTT_NODISCARD ntt_status ntt_rns_cuda_moddown(ntt_rns *ctx, size_t n, size_t level,
                                                      const uint64_t *d_in, size_t in_limbs,
                                                      uint64_t *d_out, size_t out_limbs,
                                                      ntt_cuda_stream stream);
NTT_API NTT_NODISCARD ntt_status ntt_rns_cuda_rescale(ntt_rns *ctx, size_t n, size_t level,
                                                      const uint64_t *d_in, size_t in_limbs,
                                                      uint64_t *d_out, size_t out_limbs,
                                                      ntt_cuda_stream stream);
NTT_API NTT_NODISCARD ntt_status ntt_rns_cuda_ks_inner(ntt_rns *ctx, size_t n, size_t level,
                                                       const uint64_t *d_ext, size_t ext_limbs,
                                                       const uint64_t *d_key, size_t key_limbs,
                                                       uint64_t *d_acc0, uint64_t *d_acc1,
                                                       size_t acc_limbs, ntt_cuda_stream stream);
/* The whole key switch.  The device work: the input copied once and
   inverse-transformed (every digit in one batched call), each digit's
   conversion, the transforms of the converted limbs, the inner product
   over all digits of a limb in one pass (the digits' own limbs read from
   d_in; the sums' Q limbs written to out0, out1, their P limbs to
   scratch), then modDown of both sums in place (together when out1 lies
   after out0). */
NTT_API NTT_NODISCARD ntt_status ntt_rns_cuda_keyswitch(ntt_rns *ctx, size_t n, size_t level,
                                                        const uint64_t *d_in, size_t in_limbs,
                                                        const uint64_t *d_key, size_t key_limbs,
                                                        uint64_t *d_out0, uint64_t *d_out1,
                                                        size_t out_limbs, ntt_cuda_stream stream);
/* The CUDA error (a cudaError_t value) of the context's last failed call,
   0 if none or ctx is not a CUDA context. */
NTT_API int ntt_rns_cuda_last_error(const ntt_rns *ctx);

/* Scans a key (layout above, key_limbs = 2*dnum*(L+1+K)): the pairs of the
   digits j < beta(L), which are all a key switch reads; the pairs beyond
   are not read.
   Errors: NTT_EINVAL (NULL pointers, n != N, K == 0, key_limbs),
   NTT_ERANGE (a word of those pairs >= its limb's prime). */
NTT_API NTT_NODISCARD ntt_status ntt_rns_key_check(const ntt_rns *ctx, size_t n,
                                                   const uint64_t *key, size_t key_limbs);

#ifdef __cplusplus
}
#endif

#endif /* NTT_RNS_H */
