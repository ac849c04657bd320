/*
 * Shared helpers of the unit tests: seeding, checks that keep going after a
 * failure, a seeded random generator, array comparison with the first
 * differing index, and small independent arithmetic oracles.
 *
 * Every test program calls test_init() first and returns test_finish().
 * The seed comes from NTT_TEST_SEED when set, else from time ^ pid; it is
 * printed at the start ("seed: N") and again with the first failure and in
 * the summary of a failed run.
 */
#ifndef NTT_TEST_COMMON_H
#define NTT_TEST_COMMON_H

#include "ntt.h"
#include "course.h" /* the course ladder (src/course, not installed) */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

typedef unsigned __int128 tu128;

/* ---- plans with the course-ladder variants -------------------------------- */

/* ntt_plan_options with the variant and the ladder's CUDA block size, which
   left the public API for the course add-on (src/course/course.h).  The
   wrappers call the public functions whenever variant and cuda_block are
   zero, so that the tests run through the public entry points wherever
   they can. */
typedef struct test_opts {
    ntt_modmul modmul;
    ntt_variant variant;
    unsigned flags;
    int threads;
    size_t batch;
    int cuda_block;
} test_opts;

NTT_NODISCARD ntt_status test_plan_create_rns(ntt_plan **plan, size_t n, const uint64_t *moduli,
                                              size_t count, ntt_width width, ntt_backend backend,
                                              const test_opts *o);
NTT_NODISCARD ntt_status test_plan_create(ntt_plan **plan, size_t n, uint64_t p, ntt_width width,
                                          ntt_backend backend, const test_opts *o);
NTT_NODISCARD ntt_status test_polymul_mod_ex(uint64_t *c, const uint64_t *a, size_t la,
                                             const uint64_t *b, size_t lb, uint64_t p,
                                             ntt_backend backend, const test_opts *o);

/* ---- run bookkeeping ----------------------------------------------------- */

extern unsigned long test_checks;   /* checks evaluated */
extern unsigned long test_failures; /* checks failed */

void test_init(const char *program);
int test_finish(void); /* exit code: 0 when every check passed, else 1 */
uint64_t test_seed(void);

/* Records a failure and prints "file:line: message" (the first
   TEST_MAX_PRINTED failures only). */
#define TEST_MAX_PRINTED 40
void test_fail_at(const char *file, int line, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

#define CHECK(cond, ...)                                        \
    do {                                                        \
        test_checks++;                                          \
        if (!(cond)) test_fail_at(__FILE__, __LINE__, __VA_ARGS__); \
    } while (0)

/* Integer equality; the message gets ": expected E, got G" appended. */
void test_fail_eq_at(const char *file, int line, uint64_t expected, uint64_t got,
                     const char *fmt, ...) __attribute__((format(printf, 5, 6)));
#define CHECK_EQ(expected, got, ...)                                          \
    do {                                                                      \
        const uint64_t e_ = (uint64_t)(expected), g_ = (uint64_t)(got);       \
        test_checks++;                                                        \
        if (e_ != g_) test_fail_eq_at(__FILE__, __LINE__, e_, g_, __VA_ARGS__); \
    } while (0)

/* Status equality, printed with names. */
void test_fail_status_at(const char *file, int line, ntt_status expected, ntt_status got,
                         const char *fmt, ...) __attribute__((format(printf, 5, 6)));
#define CHECK_STATUS(expected, got, ...)                                          \
    do {                                                                          \
        const ntt_status es_ = (expected), gs_ = (got);                           \
        test_checks++;                                                            \
        if (es_ != gs_) test_fail_status_at(__FILE__, __LINE__, es_, gs_, __VA_ARGS__); \
    } while (0)

/* Array equality: on a mismatch reports the first differing index, the
   values there and how many elements differ.  Returns true when equal. */
bool test_arr64_at(const char *file, int line, const uint64_t *expected, const uint64_t *got,
                   size_t n, const char *fmt, ...) __attribute__((format(printf, 6, 7)));
bool test_arr32_at(const char *file, int line, const uint32_t *expected, const uint32_t *got,
                   size_t n, const char *fmt, ...) __attribute__((format(printf, 6, 7)));
#define CHECK_ARR64(expected, got, n, ...) \
    test_arr64_at(__FILE__, __LINE__, (expected), (got), (n), __VA_ARGS__)
#define CHECK_ARR32(expected, got, n, ...) \
    test_arr32_at(__FILE__, __LINE__, (expected), (got), (n), __VA_ARGS__)
/* Raw bytes (buffers that must not have been touched). */
bool test_mem_at(const char *file, int line, const void *expected, const void *got,
                 size_t bytes, const char *fmt, ...) __attribute__((format(printf, 6, 7)));
#define CHECK_MEM(expected, got, bytes, ...) \
    test_mem_at(__FILE__, __LINE__, (expected), (got), (bytes), __VA_ARGS__)

/* ---- random numbers (xoshiro256** seeded by splitmix64) ------------------- */

uint64_t rnd64(void);
uint64_t rnd_below(uint64_t bound);               /* uniform in [0, bound), bound >= 1 */
uint64_t rnd_range(uint64_t lo, uint64_t hi);     /* uniform in [lo, hi] */
void rnd_perm(size_t *perm, size_t n);            /* perm = a uniform permutation of 0..n-1 */
/* A length in [1, max], log-uniform, so that small lengths are common. */
size_t rnd_len(size_t max);
void rnd_fill64(uint64_t *a, size_t n, uint64_t p); /* values in [0, p) */
void rnd_fill32(uint32_t *a, size_t n, uint32_t p);

/* ---- memory ---------------------------------------------------------------- */

void *xmalloc(size_t bytes); /* exits 2 with a message when out of memory */

/* ---- independent arithmetic (128-bit %, no library code) -------------------- */

static inline uint64_t t_mulmod(uint64_t a, uint64_t b, uint64_t p)
{
    return (uint64_t)(((tu128)a * b) % p);
}
static inline uint64_t t_addmod(uint64_t a, uint64_t b, uint64_t p)
{
    return (uint64_t)(((tu128)a + b) % p);
}
uint64_t t_powmod(uint64_t a, uint64_t e, uint64_t p);
size_t t_bitrev(size_t x, unsigned bits);
unsigned t_log2(size_t n); /* n a power of two */

/* c[0 .. la+lb-2] = a * b mod p, by schoolbook; any p in [1, 2^64). */
void t_schoolbook(uint64_t *c, const uint64_t *a, size_t la, const uint64_t *b, size_t lb,
                  uint64_t p);
/* c = a * b mod (x^n - 1) (nega = false) or (x^n + 1), by schoolbook. */
void t_cyclic_mul(uint64_t *c, const uint64_t *a, const uint64_t *b, size_t n, uint64_t p,
                  bool nega);

/* The exit code that makes ctest count a test as skipped. */
#define TEST_SKIP 77

#endif
