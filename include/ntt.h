/*
 * ntt.h - number-theoretic transforms and polynomial multiplication.
 *
 * One header for the whole public API.  Conventions used throughout:
 *
 *  - Every function that can fail returns an ntt_status; NTT_OK is 0.
 *    The library never prints, never aborts and never exits.
 *  - On failure nothing the caller owns has been modified: arguments and
 *    input ranges are validated before the first write.
 *  - "p" is the modulus.  A plan works on elements of one width:
 *      NTT_U32: uint32_t elements, prime p with 2 < p < 2^30;
 *      NTT_U64: uint64_t elements, prime p with 2 < p < 2^62.
 *    Every public input coefficient must be in [0, p) (else NTT_ERANGE);
 *    every public output coefficient is fully reduced to [0, p).
 *  - Sizes n are powers of two, 2 <= n <= 2^NTT_MAX_LOG2_N.
 *  - A cyclic plan of size n needs n | p-1; a negacyclic plan needs 2n | p-1
 *    (else NTT_EMODULUS).
 *  - Spectra (the output of the forward transform, the input of the inverse)
 *    are in bit-reversed order unless the plan has NTT_FLAG_NATURAL_ORDER.
 *    Bit-reversed spectra are all the pointwise product needs; natural order
 *    costs one extra permutation pass.
 *  - A plan may be used by one thread at a time; different plans are
 *    independent and may be used concurrently.  All other functions are
 *    thread-safe.
 */
#ifndef NTT_H
#define NTT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

#define NTT_VERSION_MAJOR 0
#define NTT_VERSION_MINOR 2
#define NTT_VERSION_PATCH 0
/* The version as one number, major * 10000 + minor * 100 + patch. */
#define NTT_VERSION_CODE (NTT_VERSION_MAJOR * 10000 + NTT_VERSION_MINOR * 100 + NTT_VERSION_PATCH)

#if defined(__GNUC__) || defined(__clang__)
#define NTT_NODISCARD __attribute__((warn_unused_result))
#define NTT_API __attribute__((visibility("default")))
#else
#define NTT_NODISCARD
#define NTT_API
#endif

/* Largest transform size is 2^NTT_MAX_LOG2_N. */
#define NTT_MAX_LOG2_N 30

typedef enum ntt_status {
    NTT_OK = 0,
    NTT_EINVAL = 1,       /* bad argument: NULL pointer, size 0, not a power of
                             two or above the bound, width mismatch, stride < n */
    NTT_EMODULUS = 2,     /* modulus unusable: not prime, outside the width's
                             range, or no root of unity of the needed order */
    NTT_ERANGE = 3,       /* an input coefficient is >= p */
    NTT_ENOMEM = 4,       /* host or device memory exhausted */
    NTT_EUNSUPPORTED = 5, /* backend not built or not usable on this machine */
    NTT_EBACKEND = 6,     /* the backend failed at run time (e.g. a CUDA error) */
    NTT_EIO = 7,          /* a file could not be opened, read, written, renamed */
    NTT_EFORMAT = 8,      /* malformed input file (or wisdom text) */
    NTT_EMACHINE = 9      /* wisdom made on another machine or by another
                             library version (ntt_wisdom_import_*) */
} ntt_status;

/* NTT_VERSION_CODE of the library that is running, which may differ from the
   header a program was compiled with when the shared library is replaced. */
NTT_API unsigned ntt_version(void);

/* A static English description of s; never NULL (unknown codes included). */
NTT_API const char *ntt_status_string(ntt_status s);

/* Why the last failing call on this thread failed, where its status alone
   does not say which condition it was: e.g. "modulus 100 is not prime",
   "backend \"cuda\" is built but no CUDA GPU is usable here", "a[5] =
   998244353 is not below the modulus 998244353".  Never NULL; "" when the
   thread has had no such failure.  The text is the calling thread's own
   (thread-local, at most 255 bytes), valid until the thread's next ntt call;
   copy it to keep it.  Allocates nothing.
   Set on every failure of ntt_plan_create* and ntt_polymul_mod* (which
   clear it when they start), and on every failure of the plan execution
   calls (forward, inverse, pointwise, polymul, polymul_linear and their
   _batch forms: which argument, or which coefficient is out of range), and
   by libntt_mpi's plan creation and agreements ("another rank failed: ..."),
   by the CKKS calls' own checks (ntt_ckks.h), and by every failing call of
   ntt_field.h (which clear it when they start); ntt_rns_create sets it where
   NTT_BACKEND names no backend.
   Other calls leave it as it was: read it only right after one of those
   calls failed. */
NTT_API const char *ntt_error_detail(void);

/* ------------------------------------------------------------------------ */
/* Backends and modular multiplication                                       */
/* ------------------------------------------------------------------------ */

typedef enum ntt_backend {
    NTT_BACKEND_AUTO = 0,   /* the fastest available CPU backend; the
                               environment variable
                               NTT_BACKEND=scalar|avx2|openmp|cuda|avx512
                               (case-insensitive) overrides it with that
                               backend where it is available here, and is
                               passed over where it is not.  Unset, empty or
                               "auto": no override.  Any other value is
                               refused: every call asked for AUTO then fails
                               with NTT_EINVAL, its ntt_error_detail()
                               naming the variable and its value (escaped
                               by ntt_escape_bytes). */
    NTT_BACKEND_SCALAR = 1, /* portable C, always available */
    NTT_BACKEND_AVX2 = 2,
    NTT_BACKEND_OPENMP = 3, /* the best CPU backend's kernels (as AUTO picks
                               them without NTT_BACKEND) on several threads;
                               available where the library has OpenMP */
    NTT_BACKEND_CUDA = 4,
    NTT_BACKEND_AVX512 = 5  /* the AVX2 backend's kernels built for AVX-512
                               (F, VL, BW, DQ); what AUTO picks where it runs */
} ntt_backend;
#define NTT_BACKEND_COUNT 6

/* 1 if backend b is built in and usable on this machine, else 0.
   NTT_BACKEND_AUTO is always available. */
NTT_API int ntt_backend_available(ntt_backend b);

/* "auto", "scalar", "avx2", "openmp", "cuda", "avx512"; "unknown" for other
   values. */
NTT_API const char *ntt_backend_name(ntt_backend b);

/* Parses a backend name as printed by ntt_backend_name (case-insensitive).
   Returns NTT_EINVAL for an unknown name. */
NTT_API NTT_NODISCARD ntt_status ntt_backend_from_name(const char *name, ntt_backend *b);

/* The backend that NTT_BACKEND_AUTO resolves to right now (never CUDA
   unless NTT_BACKEND=cuda); NTT_BACKEND_AUTO itself where NTT_BACKEND
   names no backend (see NTT_BACKEND_AUTO: calls asked for AUTO fail). */
NTT_API ntt_backend ntt_backend_resolve_auto(void);

/* How twiddle factors and pointwise products are reduced.  All kinds give
   bit-identical public results; they differ only in speed. */
typedef enum ntt_modmul {
    NTT_MODMUL_DEFAULT = 0,    /* the backend's fastest */
    NTT_MODMUL_NAIVE = 1,      /* % by the run-time modulus */
    NTT_MODMUL_BARRETT = 2,    /* Barrett reduction of the full product */
    NTT_MODMUL_MONTGOMERY = 3, /* twiddles in Montgomery form, REDC */
    NTT_MODMUL_SHOUP = 4       /* precomputed w' = floor(w 2^k / p) for each
                                  twiddle; pointwise products use Montgomery.
                                  The CUDA fast path's u64 plans whose primes
                                  all lie below 2^50 keep w' = w/p as a double
                                  and compute in the FP64 units */
} ntt_modmul;

NTT_API const char *ntt_modmul_name(ntt_modmul m); /* "default", "naive", ... */
NTT_API NTT_NODISCARD ntt_status ntt_modmul_from_name(const char *name, ntt_modmul *m);

typedef enum ntt_width { NTT_U32 = 32, NTT_U64 = 64 } ntt_width;

/* Plan flags. */
#define NTT_FLAG_NEGACYCLIC 1u    /* transforms mod x^n + 1 instead of x^n - 1 */
#define NTT_FLAG_NATURAL_ORDER 2u /* spectra in natural order */

/* How a plan's backend, kernels, modmul kind and thread count are chosen
   (ntt_plan_options.mode; docs/PLANNER.md).  Every choice gives the same
   words: the modes differ only in speed and in the time plan creation
   takes.
     ESTIMATE     the fixed rules (the registry's priorities and kernel
                  choice by prime size; DEFAULT = Shoup; threads as asked).
                  No timing, no wisdom.  The default.
     MEASURE      plan creation times the candidates the backend registry
                  offers for this size, prime size, width, flags, batch and
                  work: with backend AUTO (NTT_BACKEND unset), each usable
                  serial CPU backend; each u64 kernel family that applies
                  (IFMA, FP64, 64-bit lanes, scalar); modmul Shoup and
                  Montgomery where opts.modmul is DEFAULT; thread counts 1
                  and the most opts.threads allows (as FFTW's
                  plan_with_nthreads: an upper bound, capped at the online
                  CPUs; 0 on a serial backend is one thread, so no plan
                  starts threads the caller did not ask for).  A named
                  backend and a modmul other than DEFAULT are kept as
                  given.  The fastest
                  candidate (the median of a few timed calls on buffers
                  allocated once for the planning) becomes the plan, and
                  the answer goes into the wisdom store; an answer already
                  there (MEASURE or EXHAUSTIVE, same machine) is taken
                  without timing.  CUDA plans: no candidates yet (the
                  rules, recorded as such).
     EXHAUSTIVE   as MEASURE with more candidates (every modmul kind,
                  thread counts 1, 2, 4, .. up to the bound) and more
                  repetitions; only EXHAUSTIVE wisdom answers it.
     WISDOM_ONLY  the wisdom store's answer where it holds one, else the
                  rules; never times. */
typedef enum ntt_plan_mode {
    NTT_PLAN_ESTIMATE = 0,
    NTT_PLAN_MEASURE = 1,
    NTT_PLAN_EXHAUSTIVE = 2,
    NTT_PLAN_WISDOM_ONLY = 3
} ntt_plan_mode;

/* What MEASURE and EXHAUSTIVE time (ntt_plan_options.work). */
typedef enum ntt_plan_work {
    NTT_WORK_TRANSFORMS = 0, /* a forward, then an inverse transform */
    NTT_WORK_FORWARD = 1,
    NTT_WORK_INVERSE = 2,
    NTT_WORK_POLYMUL = 3     /* ntt_polymul_* (as ntt_polymul_mod runs) */
} ntt_plan_work;

/* Optional plan settings.  A zero-initialised struct (or NULL) means the
   defaults: fastest modmul, cyclic, bit-reversed spectra, default thread
   count. */
typedef struct ntt_plan_options {
    ntt_modmul modmul;
    unsigned flags;  /* NTT_FLAG_* */
    int threads;     /* >= 0 (else NTT_EINVAL).  NTT_BACKEND_OPENMP: that
                        many threads, 0 = omp_get_max_threads()
                        (OMP_NUM_THREADS or all cores) at plan time.
                        SCALAR, AVX2, AVX512 (and AUTO as resolved to one):
                        0 or 1 = one thread, > 1 = that backend's kernels on
                        that many threads (a library built without OpenMP
                        runs one); results are the same words as on one
                        thread.  More than one thread: the plan starts
                        threads - 1 threads of its own at creation, at most
                        one less than the online CPUs (joined by
                        ntt_plan_destroy; NTT_ENOMEM where they cannot be
                        had), which wait briefly, then sleep, between and
                        inside calls, whatever OMP_WAIT_POLICY says;
                        calls allocate nothing, and work too small to
                        share runs on the calling thread.  CUDA: ignored. */
    size_t batch;    /* CUDA backend: items per call that the plan's device and
                        pinned buffers hold (0 = 1); larger batches run in
                        chunks of this size.  MEASURE and EXHAUSTIVE (all
                        backends): the items per call the candidates are
                        timed on (at most 2^22 / n of them) */
    /* How the plan is chosen (docs/PLANNER.md); 0 = NTT_PLAN_ESTIMATE, the
       fixed rules above, exactly as without these fields. */
    ntt_plan_mode mode;
    /* MEASURE / EXHAUSTIVE: seconds the planner may spend timing; 0 = no
       bound; negative or not a number: NTT_EINVAL.  The fixed rule's
       candidate is always timed; no further candidate starts once the
       bound is passed, so planning may overrun it by one candidate and
       the final comparison of the winner with the rule's candidate (a
       few calls of each).  A plan cut short stores no wisdom. */
    double time_limit;
    /* MEASURE / EXHAUSTIVE: what the candidates are timed on (the calls
       the caller will make most); 0 = a forward and an inverse. */
    ntt_plan_work work;
} ntt_plan_options;

/* ------------------------------------------------------------------------ */
/* Plans                                                                      */
/* ------------------------------------------------------------------------ */

typedef struct ntt_plan ntt_plan;

/* Creates a plan for transforms of size n modulo the prime p.  Builds all
   twiddle tables and allocates all scratch memory once (on the GPU backend it
   also uploads the tables); executing a plan allocates nothing.
   *plan is set to NULL on failure.
   Errors: NTT_EINVAL (plan NULL, n not a power of two in [2, 2^30], bad width
   or option values), NTT_EMODULUS (p not prime, out of the width's range, or
   n (cyclic) / 2n (negacyclic) does not divide p-1), NTT_EUNSUPPORTED
   (backend unavailable), NTT_ENOMEM. */
NTT_API NTT_NODISCARD ntt_status ntt_plan_create(ntt_plan **plan, size_t n, uint64_t p,
                                         ntt_width width, ntt_backend backend,
                                         const ntt_plan_options *opts);

/* As ntt_plan_create, for a residue number system: count >= 1 moduli, each
   obeying the rules above.  In batched calls item i uses moduli[i % count],
   so a polynomial stored as `count` consecutive limbs (stride apart) is one
   batch of `count` items. */
NTT_API NTT_NODISCARD ntt_status ntt_plan_create_rns(ntt_plan **plan, size_t n,
                                             const uint64_t *moduli, size_t count,
                                             ntt_width width, ntt_backend backend,
                                             const ntt_plan_options *opts);

/* Frees everything the plan owns.  NULL is ignored. */
NTT_API void ntt_plan_destroy(ntt_plan *plan);

NTT_API size_t ntt_plan_size(const ntt_plan *plan);            /* n */
NTT_API ntt_width ntt_plan_width(const ntt_plan *plan);
NTT_API ntt_backend ntt_plan_backend(const ntt_plan *plan);    /* never AUTO */
NTT_API ntt_modmul ntt_plan_modmul(const ntt_plan *plan);      /* never DEFAULT */
NTT_API size_t ntt_plan_moduli(const ntt_plan *plan, const uint64_t **moduli);
/* The root of unity r the plan's transforms use for its modulus number i
   (i < the count ntt_plan_moduli returns), of order 2n (negacyclic) or n
   (cyclic): z^((p-1)/N) for the smallest quadratic non-residue z (see
   "forward" below for what the transforms compute with it).  Every backend
   of a plan uses the same root.  Writes *root only on success.
   Errors: NTT_EINVAL (plan or root NULL, i out of range). */
NTT_API NTT_NODISCARD ntt_status ntt_plan_root(const ntt_plan *plan, size_t i, uint64_t *root);

/* What a plan runs and how it was chosen (ntt_plan_choice). */
typedef enum ntt_plan_source {
    NTT_CHOSEN_BY_RULE = 0,    /* the fixed rules (ESTIMATE, CUDA, an add-on,
                                  WISDOM_ONLY without an answer) */
    NTT_CHOSEN_BY_MEASURE = 1, /* timed at this plan's creation */
    NTT_CHOSEN_BY_WISDOM = 2   /* the wisdom store's answer */
} ntt_plan_source;

typedef struct ntt_plan_choice_info {
    ntt_plan_mode mode;       /* the mode asked for */
    ntt_plan_source source;
    ntt_backend backend;      /* as ntt_plan_backend */
    ntt_modmul modmul;        /* as ntt_plan_modmul */
    int threads;              /* the threads its calls run on (1: the caller's) */
    /* The kernels of the plan's first modulus: "scalar", "u32x8",
       "u32x16", "fp64x4", "fp64x8", "ifma", "lanes64" (the CPU kernel
       families), "cuda", "addon". */
    char kernels[16];
    /* Median time of one call of the work (opts.work on opts.batch items)
       on the chosen candidate: measured now (MEASURE) or when the wisdom
       was made (WISDOM); 0 for the rules. */
    double time_ns;
    /* The same for the rules' candidate, timed first by the planner; 0
       where it was not timed. */
    double rule_ns;
    double planning_ns;       /* wall time plan creation spent choosing */
    unsigned candidates;      /* candidates timed */
    int time_limited;         /* 1: the time limit stopped the planner early */
} ntt_plan_choice_info;

/* Fills *info for the plan.  Errors: NTT_EINVAL (plan or info NULL).
   Allocates nothing. */
NTT_API NTT_NODISCARD ntt_status ntt_plan_choice(const ntt_plan *plan,
                                                 ntt_plan_choice_info *info);

/* ------------------------------------------------------------------------ */
/* Wisdom: the planner's answers, kept and exchanged as text                  */
/* ------------------------------------------------------------------------ */
/*
 * The wisdom store holds one answer per problem class: width, size, the
 * bit length of the largest modulus, the number of moduli,
 * NTT_FLAG_NATURAL_ORDER (negacyclic and cyclic plans share answers), batch,
 * work, the backend, modmul and threads asked for, and the mode (an
 * EXHAUSTIVE answer serves MEASURE too).  MEASURE and EXHAUSTIVE plans add
 * their answers; MEASURE, EXHAUSTIVE and WISDOM_ONLY plans read them.
 * The text starts with a fingerprint of the machine (the CPU's model
 * string and features, the online CPUs, the GPU's model and SM count
 * where the CUDA backend has one, the library version): text made
 * elsewhere is refused (NTT_EMACHINE), never used.
 *
 * The system wisdom: the first plan that reads the store imports the file
 * named by the environment variable NTT_WISDOM, or where it is unset the
 * file /etc/ntt/wisdom (NTT_SYSTEM_WISDOM at build time), if it exists
 * and holds this machine's wisdom (anything else there is ignored).
 * NTT_WISDOM set to "" or "off" reads no file.  `ntt wisdom` makes one.
 *
 * Every wisdom call is thread-safe: one mutex guards the store, and plans
 * being created read it under that mutex (it is not held while they time
 * candidates).
 */

/* The store as text, in *text (allocated with malloc: free with free()).
   Errors: NTT_EINVAL (text NULL), NTT_ENOMEM (*text NULL then). */
NTT_API NTT_NODISCARD ntt_status ntt_wisdom_export_to_string(char **text);
/* Adds the answers in text to the store (an answer for a class it holds
   replaces the old one).  All or nothing: on any error the store is as it
   was.  Errors: NTT_EINVAL (NULL), NTT_EFORMAT (not wisdom text, a
   malformed or unknown line, truncated: the last line must be "end"),
   NTT_EMACHINE (made on another machine or library version), NTT_ENOMEM. */
NTT_API NTT_NODISCARD ntt_status ntt_wisdom_import_from_string(const char *text);
/* The same to and from a file.  Export writes under a temporary name and
   renames it over path when complete (as ntt_coeffs_write).  Errors: as
   above, and NTT_EIO (cannot open, read, write or rename). */
NTT_API NTT_NODISCARD ntt_status ntt_wisdom_export_to_file(const char *path);
NTT_API NTT_NODISCARD ntt_status ntt_wisdom_import_from_file(const char *path);
/* Empties the store (plans already made keep their choices). */
NTT_API void ntt_wisdom_forget(void);

/* ------------------------------------------------------------------------ */
/* Execution                                                                  */
/* ------------------------------------------------------------------------ */
/*
 * forward:   a <- NTT(a) in place.  Input: n coefficients in natural order.
 *            Output: spectrum (bit-reversed unless NTT_FLAG_NATURAL_ORDER).
 *            The root: for the modulus p, r = z^((p-1)/N) with N = 2n
 *            (negacyclic) or n (cyclic) and z the smallest quadratic
 *            non-residue mod p (the smallest z >= 2 with z^((p-1)/2) = p-1);
 *            r has order exactly N.  This is not ntt_root_of_unity(p, N) in
 *            general (that takes the smallest primitive root).
 *            ntt_plan_root returns it.  With A(x) = sum_j a_j x^j, output
 *            word k (k < n) is
 *              negacyclic: A(r^(2 brv(k) + 1)), natural order A(r^(2k + 1));
 *              cyclic:     A(r^brv(k)),         natural order A(r^k);
 *            brv(k) reverses the log2(n) bits of k.
 * inverse:   a <- NTT^-1(a) in place, including the 1/n scaling, so
 *            inverse(forward(a)) == a.
 * pointwise: c[i] = a[i] * b[i] mod p.  c may alias a and/or b exactly
 *            (c == a); partial overlap is not allowed.
 * polymul:   c = a * b mod (x^n - 1), or mod (x^n + 1) for a negacyclic
 *            plan; a, b, c in natural order.  c may alias a and/or b
 *            exactly.  Uses the plan's scratch memory.
 * All inputs must be in [0, p) (checked: NTT_ERANGE, nothing written,
 * except by pointwise, below); outputs are in [0, p).  Errors: NTT_EINVAL
 * for NULL pointers or a width that does not match the plan.
 *
 * Batched forms run `count` independent items; item i starts at element
 * i*stride and uses modulus i % (number of plan moduli).  stride >= n
 * (items may not overlap); count == 0 is a no-op.  The whole batch is
 * range-checked before anything is written, except by pointwise.
 *
 * pointwise checks its inputs in the pass that multiplies them, so that
 * they are read from memory once.  When it returns NTT_ERANGE, each c[i]
 * (of every item) is either untouched or holds a[i] * b[i] mod p, and is
 * untouched where a[i] or b[i] is out of range; a and b are unchanged
 * except through c where c aliases them.
 *
 * On a CUDA plan a batch larger than the plan's `batch` option runs in
 * chunks of that size: a failure at run time (NTT_EBACKEND) in a later
 * chunk leaves the items of the chunks before it complete and every other
 * item as it was.
 */
NTT_API NTT_NODISCARD ntt_status ntt_forward_u32(ntt_plan *plan, uint32_t *a);
NTT_API NTT_NODISCARD ntt_status ntt_forward_u64(ntt_plan *plan, uint64_t *a);
NTT_API NTT_NODISCARD ntt_status ntt_inverse_u32(ntt_plan *plan, uint32_t *a);
NTT_API NTT_NODISCARD ntt_status ntt_inverse_u64(ntt_plan *plan, uint64_t *a);
NTT_API NTT_NODISCARD ntt_status ntt_pointwise_u32(ntt_plan *plan, uint32_t *c,
                                           const uint32_t *a, const uint32_t *b);
NTT_API NTT_NODISCARD ntt_status ntt_pointwise_u64(ntt_plan *plan, uint64_t *c,
                                           const uint64_t *a, const uint64_t *b);
NTT_API NTT_NODISCARD ntt_status ntt_polymul_u32(ntt_plan *plan, uint32_t *c,
                                         const uint32_t *a, const uint32_t *b);
NTT_API NTT_NODISCARD ntt_status ntt_polymul_u64(ntt_plan *plan, uint64_t *c,
                                         const uint64_t *a, const uint64_t *b);

NTT_API NTT_NODISCARD ntt_status ntt_forward_batch_u32(ntt_plan *plan, uint32_t *a,
                                               size_t count, size_t stride);
NTT_API NTT_NODISCARD ntt_status ntt_forward_batch_u64(ntt_plan *plan, uint64_t *a,
                                               size_t count, size_t stride);
NTT_API NTT_NODISCARD ntt_status ntt_inverse_batch_u32(ntt_plan *plan, uint32_t *a,
                                               size_t count, size_t stride);
NTT_API NTT_NODISCARD ntt_status ntt_inverse_batch_u64(ntt_plan *plan, uint64_t *a,
                                               size_t count, size_t stride);
NTT_API NTT_NODISCARD ntt_status ntt_pointwise_batch_u32(ntt_plan *plan, uint32_t *c,
                                                 const uint32_t *a,
                                                 const uint32_t *b, size_t count,
                                                 size_t stride);
NTT_API NTT_NODISCARD ntt_status ntt_pointwise_batch_u64(ntt_plan *plan, uint64_t *c,
                                                 const uint64_t *a,
                                                 const uint64_t *b, size_t count,
                                                 size_t stride);
NTT_API NTT_NODISCARD ntt_status ntt_polymul_batch_u32(ntt_plan *plan, uint32_t *c,
                                               const uint32_t *a, const uint32_t *b,
                                               size_t count, size_t stride);
NTT_API NTT_NODISCARD ntt_status ntt_polymul_batch_u64(ntt_plan *plan, uint64_t *c,
                                               const uint64_t *a, const uint64_t *b,
                                               size_t count, size_t stride);

/* Linear product on a plan: c[0 .. la+lb-2] = a * b, exact (no wrap-around)
   because la + lb - 1 <= n is required (else NTT_EINVAL); cyclic and
   negacyclic plans give the same result.  a, b: la, lb >= 1 coefficients in
   [0, p); c may not overlap a or b.  Saves the caller the zero padding and
   the backend the transfer of zeros (GPU).  On a CUDA plan, when a, b and
   c all lie in page-locked memory mapped into the device's space
   (cudaMallocHost, or cudaHostRegister on a UVA system),
   the product reads a and b and writes c over the bus from its kernels,
   without staging copies; the call still returns only when c is complete,
   and writes nothing to c when an input is out of range.  The same holds
   for ntt_polymul_u32/_u64 with one item. */
NTT_API NTT_NODISCARD ntt_status ntt_polymul_linear_u32(ntt_plan *plan, uint32_t *c,
                                                const uint32_t *a, size_t la,
                                                const uint32_t *b, size_t lb);
NTT_API NTT_NODISCARD ntt_status ntt_polymul_linear_u64(ntt_plan *plan, uint64_t *c,
                                                const uint64_t *a, size_t la,
                                                const uint64_t *b, size_t lb);

/* ------------------------------------------------------------------------ */
/* CUDA: device pointers and streams                                          */
/* ------------------------------------------------------------------------ */
/*
 * For plans made with NTT_BACKEND_CUDA.  The data pointers are device
 * pointers; the calls only enqueue work on `stream` (a cudaStream_t; NULL
 * is the legacy default stream): they never copy between host and device,
 * never allocate and never synchronize, so they can be captured into a CUDA
 * graph.  Batches follow the rules of the host-pointer batched calls
 * (item i at element i*stride, modulus i % count of moduli).  Inputs are not
 * range-checked (that would need a synchronization): inputs >= p give
 * unspecified values, never out-of-bounds accesses.  A plan must not be used
 * by two streams at once: its scratch buffers are shared.  Any element
 * alignment is accepted; items that start 16-byte aligned (as cudaMalloc's
 * memory does, with a stride a multiple of 16 bytes) are read and written
 * 16 bytes at a time where a transform touches consecutive elements, which
 * is faster.
 * Errors: NTT_EUNSUPPORTED (not a CUDA plan, or no CUDA in this build),
 * NTT_EINVAL (NULL pointers, stride < n, width mismatch), NTT_EBACKEND (a
 * launch failed; the CUDA error is kept in the plan, see
 * ntt_cuda_last_error).
 */
struct CUstream_st;
typedef struct CUstream_st *ntt_cuda_stream; /* == cudaStream_t */

NTT_API NTT_NODISCARD ntt_status ntt_cuda_forward_u32(ntt_plan *plan, uint32_t *d_a, size_t count,
                                              size_t stride, ntt_cuda_stream stream);
NTT_API NTT_NODISCARD ntt_status ntt_cuda_forward_u64(ntt_plan *plan, uint64_t *d_a, size_t count,
                                              size_t stride, ntt_cuda_stream stream);
NTT_API NTT_NODISCARD ntt_status ntt_cuda_inverse_u32(ntt_plan *plan, uint32_t *d_a, size_t count,
                                              size_t stride, ntt_cuda_stream stream);
NTT_API NTT_NODISCARD ntt_status ntt_cuda_inverse_u64(ntt_plan *plan, uint64_t *d_a, size_t count,
                                              size_t stride, ntt_cuda_stream stream);
NTT_API NTT_NODISCARD ntt_status ntt_cuda_pointwise_u32(ntt_plan *plan, uint32_t *d_c,
                                                const uint32_t *d_a, const uint32_t *d_b,
                                                size_t count, size_t stride,
                                                ntt_cuda_stream stream);
NTT_API NTT_NODISCARD ntt_status ntt_cuda_pointwise_u64(ntt_plan *plan, uint64_t *d_c,
                                                const uint64_t *d_a, const uint64_t *d_b,
                                                size_t count, size_t stride,
                                                ntt_cuda_stream stream);
/* c = a*b mod (x^n -+ 1) for each item; a has la, b has lb <= n leading
   coefficients (the rest are taken as zero and need not be allocated), and
   the first lc <= n coefficients of c are written.  c may alias a or b
   exactly. */
NTT_API NTT_NODISCARD ntt_status ntt_cuda_polymul_u32(ntt_plan *plan, uint32_t *d_c, size_t lc,
                                              const uint32_t *d_a, size_t la,
                                              const uint32_t *d_b, size_t lb, size_t count,
                                              size_t stride, ntt_cuda_stream stream);
NTT_API NTT_NODISCARD ntt_status ntt_cuda_polymul_u64(ntt_plan *plan, uint64_t *d_c, size_t lc,
                                              const uint64_t *d_a, size_t la,
                                              const uint64_t *d_b, size_t lb, size_t count,
                                              size_t stride, ntt_cuda_stream stream);

/* The same calls on part of a longer batch: item i of the call uses the
   plan's modulus (item0 + i) % (number of plan moduli) instead of
   i % (number of plan moduli), so that items item0 .. item0+count-1 of an
   RNS polynomial (or of a batch split among streams or GPUs) keep their
   moduli.  item0 is any value; everything else (rules, errors) as above. */
NTT_API NTT_NODISCARD ntt_status ntt_cuda_forward_at_u32(ntt_plan *plan, uint32_t *d_a,
                                                 size_t count, size_t stride, size_t item0,
                                                 ntt_cuda_stream stream);
NTT_API NTT_NODISCARD ntt_status ntt_cuda_forward_at_u64(ntt_plan *plan, uint64_t *d_a,
                                                 size_t count, size_t stride, size_t item0,
                                                 ntt_cuda_stream stream);
NTT_API NTT_NODISCARD ntt_status ntt_cuda_inverse_at_u32(ntt_plan *plan, uint32_t *d_a,
                                                 size_t count, size_t stride, size_t item0,
                                                 ntt_cuda_stream stream);
NTT_API NTT_NODISCARD ntt_status ntt_cuda_inverse_at_u64(ntt_plan *plan, uint64_t *d_a,
                                                 size_t count, size_t stride, size_t item0,
                                                 ntt_cuda_stream stream);
NTT_API NTT_NODISCARD ntt_status ntt_cuda_pointwise_at_u32(ntt_plan *plan, uint32_t *d_c,
                                                   const uint32_t *d_a, const uint32_t *d_b,
                                                   size_t count, size_t stride, size_t item0,
                                                   ntt_cuda_stream stream);
NTT_API NTT_NODISCARD ntt_status ntt_cuda_pointwise_at_u64(ntt_plan *plan, uint64_t *d_c,
                                                   const uint64_t *d_a, const uint64_t *d_b,
                                                   size_t count, size_t stride, size_t item0,
                                                   ntt_cuda_stream stream);
NTT_API NTT_NODISCARD ntt_status ntt_cuda_polymul_at_u32(ntt_plan *plan, uint32_t *d_c,
                                                 size_t lc, const uint32_t *d_a, size_t la,
                                                 const uint32_t *d_b, size_t lb, size_t count,
                                                 size_t stride, size_t item0,
                                                 ntt_cuda_stream stream);
NTT_API NTT_NODISCARD ntt_status ntt_cuda_polymul_at_u64(ntt_plan *plan, uint64_t *d_c,
                                                 size_t lc, const uint64_t *d_a, size_t la,
                                                 const uint64_t *d_b, size_t lb, size_t count,
                                                 size_t stride, size_t item0,
                                                 ntt_cuda_stream stream);

/* The CUDA error behind the last NTT_EBACKEND of this plan (a cudaError_t
   value), 0 if none; with plan NULL, the last one of any plan in the
   process (including those ntt_polymul_mod makes). */
NTT_API int ntt_cuda_last_error(const ntt_plan *plan);

/* The GPU as the backend sees it.  NTT_EUNSUPPORTED without CUDA or GPU. */
typedef struct ntt_cuda_info {
    char name[128];
    int device;
    int cc_major, cc_minor;
    int sm_count;
    size_t l2_bytes;
    size_t global_mem_bytes;
    size_t smem_per_block_optin;
    int clock_khz, mem_clock_khz, mem_bus_bits;
    int driver_version, runtime_version;
} ntt_cuda_info;
NTT_API NTT_NODISCARD ntt_status ntt_cuda_get_info(ntt_cuda_info *info);

/* ------------------------------------------------------------------------ */
/* Products for any modulus (the stable convenience API)                      */
/* ------------------------------------------------------------------------ */

/* Longest product ntt_polymul_mod accepts: la + lb - 1 <= NTT_POLYMUL_MAX_LEN. */
#define NTT_POLYMUL_MAX_LEN ((size_t)1 << NTT_MAX_LOG2_N)

/* c[0 .. la+lb-2] = a * b mod p, for any p in [2, 2^63), la, lb >= 1.
   Inputs must be < p. c may not alias a or b.

   A prime p < 2^62 with 2^k | p-1, 2^k >= la+lb-1, is used directly (u32
   elements for p < 2^30, else u64).  Every other p goes through a fixed set
   of internal NTT primes and Garner's CRT: as few of the set as make their
   product exceed min(la,lb) * (p-1)^2, which makes the result exact for
   every p < 2^63 and every length within the bound.  The set depends on the
   backend: three primes below 2^62 by default, four below 2^51 for AVX2,
   AVX-512 and OpenMP on either (their double-precision kernels), and where
   the AVX-512 IFMA kernels run, the one of 50-, 51- or 52-bit primes that
   multiplies the product fastest; results are identical.
   Very short inputs are multiplied by schoolbook.
   Bound: la + lb - 1 <= NTT_POLYMUL_MAX_LEN (else NTT_EINVAL).
   Plans (twiddle tables) are cached between calls, keyed by modulus, size
   and backend, and so are the CRT path's work buffers (at most four, the
   largest asked for, with the threads of its reconstruction where the
   options ask for several): a call that finds what it needs cached
   allocates nothing; concurrent calls each take cached objects of their
   own, or allocate where every one is taken.  ntt_cache_clear() frees
   them.  With threads > 1 the CRT reconstruction of a long product is
   shared among that many threads too.
   Errors: NTT_EINVAL (NULL pointer, la or lb == 0, length bound, c aliasing
   a or b), NTT_EINVAL for p < 2 or p >= 2^63, NTT_ERANGE (an input >= p),
   NTT_EUNSUPPORTED (backend unavailable), NTT_ENOMEM. */
NTT_API NTT_NODISCARD ntt_status ntt_polymul_mod(uint64_t *c, const uint64_t *a, size_t la,
                                         const uint64_t *b, size_t lb, uint64_t p,
                                         ntt_backend backend);

/* As ntt_polymul_mod, with plan options (modmul, threads, mode,
   time_limit) for the transforms it runs; flags and work in opts are
   ignored (its plans are timed on products).  With mode MEASURE,
   EXHAUSTIVE or WISDOM_ONLY its plans are planned (backend AUTO left to
   the planner) and a modulus that goes through CRT takes the prime set
   whose measured products cost least (docs/PLANNER.md); the words are
   the same.  Cached plans are keyed by the mode too.  opts may be NULL. */
NTT_API NTT_NODISCARD ntt_status ntt_polymul_mod_ex(uint64_t *c, const uint64_t *a, size_t la,
                                            const uint64_t *b, size_t lb, uint64_t p,
                                            ntt_backend backend,
                                            const ntt_plan_options *opts);

/* Frees the plans cached by ntt_polymul_mod.  Safe to call at any time. */
NTT_API void ntt_cache_clear(void);

/* ------------------------------------------------------------------------ */
/* Number theory                                                              */
/* ------------------------------------------------------------------------ */

/* 1 if n is prime, else 0.  Deterministic for every 64-bit n. */
NTT_API int ntt_is_prime(uint64_t n);

/* A primitive root modulo the prime p (the smallest one).
   Errors: NTT_EINVAL (g NULL), NTT_EMODULUS (p not prime). */
NTT_API NTT_NODISCARD ntt_status ntt_primitive_root(uint64_t p, uint64_t *g);

/* An element of multiplicative order exactly `order` mod the prime p:
   g^((p-1)/order) for the smallest primitive root g.  Plans use another
   rule (ntt_plan_root); the two differ for many primes.
   Errors: NTT_EINVAL, NTT_EMODULUS (p not prime or order does not divide
   p-1). */
NTT_API NTT_NODISCARD ntt_status ntt_root_of_unity(uint64_t p, uint64_t order, uint64_t *w);

/* The index-th largest prime p < 2^bits with 2^log2_order | p-1 (index 0 is
   the largest).  2 <= bits <= 63, log2_order < bits.
   Errors: NTT_EINVAL (bad arguments or no such prime). */
NTT_API NTT_NODISCARD ntt_status ntt_find_prime(unsigned bits, unsigned log2_order,
                                        unsigned index, uint64_t *p);

/* ------------------------------------------------------------------------ */
/* The course file format                                                     */
/* ------------------------------------------------------------------------ */
/*
 * An input file holds "n p", then n coefficients of a, then n of b, all
 * decimal and separated by any whitespace (trailing spaces and a missing
 * final newline are fine).  Rules: 1 <= n <= 2^29, 2 <= p < 2^63, every
 * coefficient in [0, p), nothing after the 2n-th coefficient.
 */

typedef struct ntt_io_error {
    size_t line;        /* 1-based line of the offending token; 0 if none */
    size_t token;       /* 1-based token number within that line; 0 if none */
    /* What went wrong, including the token: printable ASCII, the token
       rendered by ntt_escape_bytes (every byte of it up to the bound, NULs
       and bytes after them included) between double quotes. */
    char message[192];
} ntt_io_error;

typedef struct ntt_course_input {
    size_t n;
    uint64_t p;
    uint64_t *a; /* n coefficients, owned; free with ntt_course_free */
    uint64_t *b;
} ntt_course_input;

/* Reads a course input file.  On failure *in is zeroed and err (may be NULL)
   says where and why.  Errors: NTT_EINVAL (NULL arguments), NTT_EIO (cannot
   open or read), NTT_EFORMAT (not a number, negative, missing or extra
   tokens, n or p out of range), NTT_ERANGE (a coefficient >= p),
   NTT_ENOMEM. */
NTT_API NTT_NODISCARD ntt_status ntt_course_read(const char *path, ntt_course_input *in,
                                         ntt_io_error *err);
/* The same from an open stream (standard input, a pipe), read up to its end
   (the format forbids anything after the 2n-th coefficient); f is left
   open.  Errors: as ntt_course_read (NTT_EINVAL for a NULL f). */
NTT_API NTT_NODISCARD ntt_status ntt_course_fread(FILE *f, ntt_course_input *in,
                                          ntt_io_error *err);
NTT_API void ntt_course_free(ntt_course_input *in);

/* Reads a whitespace-separated list of decimal numbers (an output file).
   *c is allocated with malloc (free with free()); *len may be 0.
   Errors: NTT_EINVAL, NTT_EIO, NTT_EFORMAT, NTT_ENOMEM. */
NTT_API NTT_NODISCARD ntt_status ntt_coeffs_read(const char *path, uint64_t **c, size_t *len,
                                         ntt_io_error *err);
/* The same from an open stream, read up to its end; f is left open. */
NTT_API NTT_NODISCARD ntt_status ntt_coeffs_fread(FILE *f, uint64_t **c, size_t *len,
                                          ntt_io_error *err);

/* Writes c[0..len-1] separated by single spaces, then a newline.  The file is
   written under a temporary name in the same directory and renamed over
   `path` only when complete, so a failure never leaves a partial file.
   A path that exists and is neither a regular file nor a directory (a
   device such as /dev/stdout, a FIFO) is written in place instead: it
   cannot be replaced atomically, and renaming over it would remove it.
   A symbolic link stays a link: the file it names is the one replaced
   (a dangling link is written through).  A replaced file keeps its
   permission bits; a new one gets 0666 less the umask, as fopen gives.
   Errors: NTT_EINVAL, NTT_EIO, NTT_ENOMEM. */
NTT_API NTT_NODISCARD ntt_status ntt_coeffs_write(const char *path, const uint64_t *c,
                                          size_t len, ntt_io_error *err);

/* Same format to an open stream.  Errors: NTT_EINVAL, NTT_EIO. */
NTT_API NTT_NODISCARD ntt_status ntt_coeffs_fwrite(FILE *f, const uint64_t *c, size_t len);

/* Bytes of untrusted input (a token of a file, a command-line argument) as
   text that is safe to show on a terminal: printable ASCII, bounded.
   Bytes 0x20..0x7e stand for themselves, except backslash, double and single
   quote, written \\ \" \'; every other byte (NUL, control bytes, DEL,
   bytes >= 0x80, so UTF-8 too) is written \xNN with two hex digits.  When
   the rendering of bytes[0..len) needs more than cap - 1 characters, as many
   leading bytes as fit are shown, then "...".  out always ends with a NUL
   (cap >= 1).  Returns how many bytes of `bytes` are shown.  bytes may be
   NULL when len is 0; nothing is allocated; out and bytes must not overlap.
   The readers' messages show a token in NTT_ESCAPE_CAP bytes: at most 40
   bytes of it, then "...". */
#define NTT_ESCAPE_CAP 44
NTT_API size_t ntt_escape_bytes(char *out, size_t cap, const void *bytes, size_t len);

#ifdef __cplusplus
}
#endif

#endif /* NTT_H */
