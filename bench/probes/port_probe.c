/*
 * port_probe: how many of each instruction of the AVX-512 u32 butterfly's
 * modular multiplication (srli, two vpmuludq, one masked vpshufd, two
 * vpmulld, one vpsubd on 16 lanes) this CPU retires per cycle, and IFMA's
 * vpmadd52luq.  Each row runs 12 independent accumulators in inline
 * assembly, so it measures throughput, not latency; a dependent vpaddd
 * chain (latency 1) gives the clock.  The floor it gives a kernel is in
 * docs/EXPERIMENTS.md.  Needs a CPU with AVX-512 (and IFMA for its row).
 *   cmake --build build --target port_probe && build/bench/probes/port_probe
 */
#include <stdio.h>
#include <time.h>

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

#define N 20000000L
#define X12(I) I(0) I(1) I(2) I(3) I(4) I(5) I(6) I(7) I(8) I(9) I(10) I(11)
#define CLOB "xmm0", "xmm1", "xmm2", "xmm3", "xmm4", "xmm5", "xmm6", "xmm7", "xmm8", "xmm9", \
             "xmm10", "xmm11", "xmm16", "xmm17"
/* Seconds per instruction of 12 x N. */
#define PROBE(name, ins)                                        \
    static double name(void)                                    \
    {                                                           \
        const double t = now();                                 \
        for (long i = 0; i < N; i++) __asm__ volatile(X12(ins)::: CLOB); \
        return (now() - t) / (12.0 * N);                        \
    }
#define CHAIN(k) "vpaddd %%zmm16, %%zmm0, %%zmm0\n"
#define ADD(k) "vpaddd %%zmm16, %%zmm" #k ", %%zmm" #k "\n"
#define MULUDQ(k) "vpmuludq %%zmm16, %%zmm" #k ", %%zmm" #k "\n"
#define MULLD(k) "vpmulld %%zmm16, %%zmm" #k ", %%zmm" #k "\n"
#define SHUF(k) "vpshufd $0xB1, %%zmm" #k ", %%zmm" #k "%{%%k1%}\n"
#define IFMA(k) "vpmadd52luq %%zmm16, %%zmm17, %%zmm" #k "\n"
PROBE(chain, CHAIN)
PROBE(add, ADD)
PROBE(muludq, MULUDQ)
PROBE(mulld, MULLD)
PROBE(shuf, SHUF)
PROBE(ifma, IFMA)

static double best(double (*f)(void))
{
    double b = 1;
    for (int i = 0; i < 5; i++) {
        const double t = f();
        if (t < b) b = t;
    }
    return b;
}

int main(void)
{
    if (!__builtin_cpu_supports("avx512f")) {
        fprintf(stderr, "port_probe: this CPU has no AVX-512\n");
        return 1;
    }
    const int have_ifma = __builtin_cpu_supports("avx512ifma");
    const double c = best(chain);
    printf("clock (dependent vpaddd zmm): %.2f GHz\n", 1e-9 / c);
    const struct {
        const char *name;
        double (*f)(void);
    } row[] = {{"vpaddd zmm", add},       {"vpmuludq zmm", muludq}, {"vpmulld zmm", mulld},
               {"vpshufd zmm{k}", shuf}, {"vpmadd52luq zmm", ifma}};
    for (size_t i = 0; i < sizeof row / sizeof *row; i++) {
        if (row[i].f == ifma && !have_ifma) {
            printf("%-16s (no IFMA on this CPU)\n", row[i].name);
            continue;
        }
        printf("%-16s %.2f cycles per instruction\n", row[i].name, best(row[i].f) / c);
    }
    return 0;
}
