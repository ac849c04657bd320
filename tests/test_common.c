/* Shared helpers of the unit tests (see test_common.h). */
#include "test_common.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

unsigned long test_checks, test_failures;
static uint64_t seed;
static const char *prog = "test";
static uint64_t rs[4];

/* ---- random numbers -------------------------------------------------------- */

static uint64_t splitmix(uint64_t *x)
{
    uint64_t z = (*x += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

static uint64_t rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

uint64_t rnd64(void)
{
    uint64_t res = rotl(rs[1] * 5, 7) * 9, t = rs[1] << 17;
    rs[2] ^= rs[0];
    rs[3] ^= rs[1];
    rs[1] ^= rs[2];
    rs[0] ^= rs[3];
    rs[2] ^= t;
    rs[3] = rotl(rs[3], 45);
    return res;
}

uint64_t rnd_below(uint64_t bound)
{
    if (bound <= 1) return 0;
    uint64_t lim = UINT64_MAX - UINT64_MAX % bound, x;
    do x = rnd64();
    while (x >= lim);
    return x % bound;
}

void rnd_perm(size_t *perm, size_t n)
{
    for (size_t i = 0; i < n; i++) perm[i] = i;
    for (size_t i = n; i > 1; i--) {
        const size_t r = (size_t)rnd_below(i), t = perm[i - 1];
        perm[i - 1] = perm[r];
        perm[r] = t;
    }
}

uint64_t rnd_range(uint64_t lo, uint64_t hi)
{
    if (lo == 0 && hi == UINT64_MAX) return rnd64();
    return lo + rnd_below(hi - lo + 1);
}

size_t rnd_len(size_t max)
{
    unsigned bits = 0;
    while (bits < 63 && ((size_t)1 << (bits + 1)) <= max) bits++;
    /* max >= 2^bits; pick an octave, then a value inside it. */
    unsigned b = (unsigned)rnd_below(bits + 1);
    size_t lo = (size_t)1 << b, hi = b == 63 ? SIZE_MAX : ((size_t)1 << (b + 1)) - 1;
    if (hi > max) hi = max;
    return (size_t)rnd_range(lo, hi);
}

void rnd_fill64(uint64_t *a, size_t n, uint64_t p)
{
    for (size_t i = 0; i < n; i++) a[i] = rnd_below(p);
}

void rnd_fill32(uint32_t *a, size_t n, uint32_t p)
{
    for (size_t i = 0; i < n; i++) a[i] = (uint32_t)rnd_below(p);
}

/* ---- bookkeeping ------------------------------------------------------------- */

uint64_t test_seed(void) { return seed; }

void test_init(const char *program)
{
    prog = program;
    const char *env = getenv("NTT_TEST_SEED");
    if (env && *env) {
        seed = strtoull(env, NULL, 0);
    } else {
        struct timespec ts;
        clock_gettime(CLOCK_REALTIME, &ts);
        seed = ((uint64_t)ts.tv_sec * 1000000007ull) ^ (uint64_t)ts.tv_nsec ^
               ((uint64_t)getpid() << 32);
    }
    uint64_t x = seed;
    for (int i = 0; i < 4; i++) rs[i] = splitmix(&x);
    printf("%s: seed: %" PRIu64 " (replay with NTT_TEST_SEED=%" PRIu64 ")\n", prog, seed, seed);
    fflush(stdout);
}

int test_finish(void)
{
    if (test_failures) {
        printf("%s: FAILED %lu of %lu checks (seed: %" PRIu64 ")\n", prog, test_failures,
               test_checks, seed);
        fflush(stdout);
        return 1;
    }
    printf("%s: all %lu checks passed\n", prog, test_checks);
    fflush(stdout);
    return 0;
}

static void vfail(const char *file, int line, const char *suffix, const char *fmt, va_list ap)
{
    test_failures++;
    if (test_failures == 1) printf("%s: first failure; seed: %" PRIu64 "\n", prog, seed);
    if (test_failures <= TEST_MAX_PRINTED) {
        printf("%s:%d: FAIL: ", file, line);
        vprintf(fmt, ap);
        if (suffix) fputs(suffix, stdout);
        putchar('\n');
    } else if (test_failures == TEST_MAX_PRINTED + 1) {
        printf("(further failures are counted but not printed)\n");
    }
    fflush(stdout);
}

void test_fail_at(const char *file, int line, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vfail(file, line, NULL, fmt, ap);
    va_end(ap);
}

void test_fail_eq_at(const char *file, int line, uint64_t expected, uint64_t got,
                     const char *fmt, ...)
{
    char suffix[96];
    snprintf(suffix, sizeof suffix, ": expected %" PRIu64 ", got %" PRIu64, expected, got);
    va_list ap;
    va_start(ap, fmt);
    vfail(file, line, suffix, fmt, ap);
    va_end(ap);
}

void test_fail_status_at(const char *file, int line, ntt_status expected, ntt_status got,
                         const char *fmt, ...)
{
    char suffix[256];
    snprintf(suffix, sizeof suffix, ": expected status %d (%s), got %d (%s)", (int)expected,
             ntt_status_string(expected), (int)got, ntt_status_string(got));
    va_list ap;
    va_start(ap, fmt);
    vfail(file, line, suffix, fmt, ap);
    va_end(ap);
}

#define ARR_BODY(TYPE)                                                                     \
    test_checks++;                                                                         \
    size_t first = n, ndiff = 0;                                                           \
    for (size_t i = 0; i < n; i++)                                                         \
        if (expected[i] != got[i]) {                                                       \
            if (first == n) first = i;                                                     \
            ndiff++;                                                                       \
        }                                                                                  \
    if (!ndiff) return true;                                                               \
    char suffix[200];                                                                      \
    snprintf(suffix, sizeof suffix,                                                        \
             ": %zu of %zu elements differ, first at index %zu: expected %" PRIu64         \
             ", got %" PRIu64,                                                             \
             ndiff, n, first, (uint64_t)expected[first], (uint64_t)got[first]);            \
    va_list ap;                                                                            \
    va_start(ap, fmt);                                                                     \
    vfail(file, line, suffix, fmt, ap);                                                    \
    va_end(ap);                                                                            \
    return false;

bool test_arr64_at(const char *file, int line, const uint64_t *expected, const uint64_t *got,
                   size_t n, const char *fmt, ...)
{
    ARR_BODY(uint64_t)
}

bool test_arr32_at(const char *file, int line, const uint32_t *expected, const uint32_t *got,
                   size_t n, const char *fmt, ...)
{
    ARR_BODY(uint32_t)
}

bool test_mem_at(const char *file, int line, const void *expected, const void *got,
                 size_t bytes, const char *fmt, ...)
{
    const unsigned char *e = expected, *g = got;
    test_checks++;
    size_t first = bytes;
    for (size_t i = 0; i < bytes; i++)
        if (e[i] != g[i]) {
            first = i;
            break;
        }
    if (first == bytes) return true;
    char suffix[160];
    snprintf(suffix, sizeof suffix, ": buffer modified, first at byte %zu: expected 0x%02x, got 0x%02x",
             first, e[first], g[first]);
    va_list ap;
    va_start(ap, fmt);
    vfail(file, line, suffix, fmt, ap);
    va_end(ap);
    return false;
}

/* ---- memory ------------------------------------------------------------------ */

void *xmalloc(size_t bytes)
{
    void *p = malloc(bytes ? bytes : 1);
    if (!p) {
        fprintf(stderr, "%s: out of memory (%zu bytes)\n", prog, bytes);
        exit(2);
    }
    return p;
}

/* ---- arithmetic oracles -------------------------------------------------------- */

uint64_t t_powmod(uint64_t a, uint64_t e, uint64_t p)
{
    uint64_t r = 1 % p, x = a % p;
    while (e) {
        if (e & 1) r = t_mulmod(r, x, p);
        x = t_mulmod(x, x, p);
        e >>= 1;
    }
    return r;
}

size_t t_bitrev(size_t x, unsigned bits)
{
    size_t r = 0;
    for (unsigned i = 0; i < bits; i++, x >>= 1) r = (r << 1) | (x & 1);
    return r;
}

unsigned t_log2(size_t n)
{
    unsigned l = 0;
    while (((size_t)1 << l) < n) l++;
    return l;
}

/* A 192-bit accumulator of 128-bit products, reduced once at the end. */
typedef struct { tu128 lo; uint64_t hi; } acc192;

static inline void acc_add(acc192 *s, uint64_t a, uint64_t b)
{
    tu128 pr = (tu128)a * b;
    s->lo += pr;
    s->hi += s->lo < pr;
}

static uint64_t acc_mod(const acc192 *s, uint64_t p, uint64_t two128)
{
    return t_addmod(t_mulmod(s->hi % p, two128, p), (uint64_t)(s->lo % p), p);
}

static uint64_t two128_mod(uint64_t p)
{
    uint64_t t = (uint64_t)(((tu128)1 << 127) % p);
    return t_addmod(t, t, p);
}

void t_schoolbook(uint64_t *c, const uint64_t *a, size_t la, const uint64_t *b, size_t lb,
                  uint64_t p)
{
    const uint64_t two128 = two128_mod(p);
    for (size_t k = 0; k < la + lb - 1; k++) {
        acc192 s = {0, 0};
        size_t i0 = k >= lb ? k - lb + 1 : 0, i1 = k < la - 1 ? k : la - 1;
        for (size_t i = i0; i <= i1; i++) acc_add(&s, a[i], b[k - i]);
        c[k] = acc_mod(&s, p, two128);
    }
}

void t_cyclic_mul(uint64_t *c, const uint64_t *a, const uint64_t *b, size_t n, uint64_t p,
                  bool nega)
{
    const uint64_t two128 = two128_mod(p);
    for (size_t k = 0; k < n; k++) {
        acc192 lo = {0, 0}, hi = {0, 0};
        for (size_t i = 0; i <= k; i++) acc_add(&lo, a[i], b[k - i]);
        for (size_t i = k + 1; i < n; i++) acc_add(&hi, a[i], b[k + n - i]);
        uint64_t x = acc_mod(&lo, p, two128), y = acc_mod(&hi, p, two128);
        c[k] = nega ? (x >= y ? x - y : x + (p - y)) : t_addmod(x, y, p);
    }
}

/* ---- plans with the course-ladder variants -------------------------------- */

static ntt_plan_options public_part(const test_opts *o)
{
    ntt_plan_options po = {0};
    if (o) {
        po.modmul = o->modmul;
        po.flags = o->flags;
        po.threads = o->threads;
        po.batch = o->batch;
    }
    return po;
}

static bool ladder_part(const test_opts *o) { return o && (o->variant != NTT_VARIANT_FAST || o->cuda_block); }

ntt_status test_plan_create_rns(ntt_plan **plan, size_t n, const uint64_t *moduli, size_t count,
                                ntt_width width, ntt_backend backend, const test_opts *o)
{
    const ntt_plan_options po = public_part(o);
    if (!ladder_part(o)) return ntt_plan_create_rns(plan, n, moduli, count, width, backend, o ? &po : NULL);
    const ntt_variant_options vo = {o->variant, o->cuda_block};
    return ntt_plan_create_variant(plan, n, moduli, count, width, backend, &po, &vo);
}

ntt_status test_plan_create(ntt_plan **plan, size_t n, uint64_t p, ntt_width width,
                            ntt_backend backend, const test_opts *o)
{
    const ntt_plan_options po = public_part(o);
    if (!ladder_part(o)) return ntt_plan_create(plan, n, p, width, backend, o ? &po : NULL);
    return test_plan_create_rns(plan, n, &p, 1, width, backend, o);
}

ntt_status test_polymul_mod_ex(uint64_t *c, const uint64_t *a, size_t la, const uint64_t *b,
                               size_t lb, uint64_t p, ntt_backend backend, const test_opts *o)
{
    const ntt_plan_options po = public_part(o);
    if (!ladder_part(o)) return ntt_polymul_mod_ex(c, a, la, b, lb, p, backend, o ? &po : NULL);
    return ntt_polymul_mod_variant(c, a, la, b, lb, p, backend, &po, o->variant);
}
