/*
 * What every libFuzzer harness of tests/fuzz shares: a reader that turns the
 * fuzzer's bytes into arguments (missing bytes read as zero, so every input
 * is a valid run), a memory-backed file for the path-taking readers, and the
 * report of a wrong result.  A wrong result aborts, which libFuzzer records
 * as a crash with the input that caused it.
 */
#ifndef NTT_FUZZ_INPUT_H
#define NTT_FUZZ_INPUT_H

#include "ntt.h"

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

typedef struct fuzz_input {
    const uint8_t *data;
    size_t size;
    size_t pos;
} fuzz_input;

static inline uint64_t fuzz_bytes(fuzz_input *in, unsigned nbytes)
{
    uint64_t v = 0;
    for (unsigned i = 0; i < nbytes; i++) {
        uint64_t b = in->pos < in->size ? in->data[in->pos++] : 0;
        v |= b << (8 * i);
    }
    return v;
}

static inline uint64_t fuzz_u64(fuzz_input *in) { return fuzz_bytes(in, 8); }
static inline unsigned fuzz_u8(fuzz_input *in) { return (unsigned)fuzz_bytes(in, 1); }

/* A value in [lo, hi] from one byte (two when the range needs them). */
static inline uint64_t fuzz_range(fuzz_input *in, uint64_t lo, uint64_t hi)
{
    uint64_t span = hi - lo + 1;
    uint64_t v = span <= 256 ? fuzz_bytes(in, 1) : fuzz_bytes(in, 2);
    return lo + (span ? v % span : v);
}

static inline size_t fuzz_left(const fuzz_input *in) { return in->size - in->pos; }

/* A wrong result: prints what differs and aborts. */
__attribute__((noreturn, format(printf, 1, 2))) static inline void fuzz_wrong(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fputs("fuzz: wrong result: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    abort();
}

#define FUZZ_EXPECT(cond, ...)                  \
    do {                                        \
        if (!(cond)) fuzz_wrong(__VA_ARGS__);   \
    } while (0)

/* The backends built in and usable here, SCALAR first; returns how many. */
static inline int fuzz_backends(ntt_backend out[NTT_BACKEND_COUNT])
{
    static const ntt_backend all[] = {NTT_BACKEND_SCALAR, NTT_BACKEND_AVX2, NTT_BACKEND_AVX512,
                                      NTT_BACKEND_OPENMP};
    int k = 0;
    for (size_t i = 0; i < sizeof all / sizeof all[0]; i++)
        if (ntt_backend_available(all[i])) out[k++] = all[i];
    return k;
}

/* a*b mod m without the library. */
static inline uint64_t fuzz_mulmod(uint64_t a, uint64_t b, uint64_t m)
{
    return (uint64_t)((unsigned __int128)a * b % m);
}

#endif
