/* ntt info: the library, its backends, the GPU and the machine. */
#include "commands.h"

#include "cli.h"
#include "sysinfo.h"

#include <stdlib.h>

static void info_usage(FILE *f)
{
    fputs("usage: ntt info\n"
          "\n"
          "Prints the library version, which backends are available (and which one\n"
          "'auto' picks), the GPU the CUDA backend sees, the CPU, the kernel, the\n"
          "compiler and git commit of this build, and the measured host memcpy\n"
          "bandwidth.\n",
          f);
}

static void info_library(void)
{
    printf("ntt %d.%d.%d\n", NTT_VERSION_MAJOR, NTT_VERSION_MINOR, NTT_VERSION_PATCH);
}

/* One line per backend: "  NAME  available" or "  NAME  not available". */
static void info_backends(void)
{
    puts("backends:");
    for (int i = 1; i < NTT_BACKEND_COUNT; i++) {
        const ntt_backend b = (ntt_backend)i;
        printf("  %-8s  %s\n", ntt_backend_name(b),
               ntt_backend_available(b) ? "available" : "not available");
    }
    const char *env = getenv("NTT_BACKEND");
    const ntt_backend a = ntt_backend_resolve_auto();
    if (a == NTT_BACKEND_AUTO) /* the library refuses AUTO then */
        printf("  %-8s  -> none: NTT_BACKEND=\"%s\" names no backend\n", "auto", cli_show(env).s);
    else
        printf("  %-8s  -> %s%s%s%s\n", "auto", ntt_backend_name(a), env ? " (NTT_BACKEND=\"" : "",
               env ? cli_show(env).s : "", env ? "\")" : "");
}

static void info_gpu(void)
{
    ntt_cuda_info gi;
    if (ntt_cuda_get_info(&gi) == NTT_OK)
        printf("gpu:          %s, %d SMs, L2 %zu MiB, compute capability %d.%d\n", gi.name,
               gi.sm_count, gi.l2_bytes >> 20, gi.cc_major, gi.cc_minor);
    else
        puts("gpu:          none (no CUDA backend in this build, or no usable device)");
}

static void info_machine(const sysinfo *si)
{
    printf("cpu:          %s\n", si->cpu_model);
    printf("logical CPUs: %d\n", si->logical_cpus);
    printf("SIMD flags:   %s\n", si->cpu_flags[0] ? si->cpu_flags : "(none found)");
    printf("kernel:       %s\n", si->kernel);
}

static void info_build(const sysinfo *si)
{
    printf("compiler:     %s\n", si->compiler);
    printf("git commit:   %s\n", si->commit);
}

static void info_memory(void)
{
    const size_t bytes = (size_t)64 << 20;
    fflush(stdout); /* the measurement takes a moment: show what we have */
    const double gbps = sysinfo_memcpy_gbps(bytes);
    if (gbps > 0)
        printf("memcpy:       %.1f GB/s (read + write, 64 MiB buffers, median of 7)\n", gbps);
    else
        printf("memcpy:       not measured (out of memory)\n");
}

int cmd_info(int argc, char **argv)
{
    const cli_opt opts[] = {{NULL, NULL, CLI_TEXT, NULL, 0, 0, NULL}};
    const cli_command line = {"ntt info", info_usage, opts, NULL, 0, 0, NULL, NULL, NULL};
    const int e = cli_parse(&line, argc, argv, NULL);
    if (e != CLI_GO) return e;
    sysinfo si;
    sysinfo_read(&si);
    info_library();
    info_backends();
    info_gpu();
    info_machine(&si);
    info_build(&si);
    info_memory();
    return EXIT_OK;
}
