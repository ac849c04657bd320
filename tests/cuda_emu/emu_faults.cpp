// The counters behind emu_faults.h.  Atomic: OpenMP threads of the CPU
// backends may run beside the stand-in in one process.
#include "emu_faults.h"

#include <atomic>

static std::atomic<long> g_calls[EMU_FAULT_KINDS];
static std::atomic<long> g_armed_n, g_live;
static std::atomic<int> g_armed_kind, g_fired;

extern "C" {

const char *emu_fault_name(emu_fault_kind k)
{
    static const char *const names[EMU_FAULT_KINDS] = {"cudaMalloc", "cudaMallocHost", "launch",
                                                       "copy", "sync", "stream/event create"};
    return k >= 0 && k < EMU_FAULT_KINDS ? names[k] : "?";
}

void emu_fault_arm(emu_fault_kind k, long n)
{
    for (auto &c : g_calls) c = 0;
    g_fired = 0;
    g_armed_kind = (int)k;
    g_armed_n = n;
}

long emu_fault_calls(emu_fault_kind k) { return g_calls[k]; }
int emu_fault_fired(void) { return g_fired; }
long emu_fault_live(void) { return g_live; }

int emu_fault_hit(emu_fault_kind k)
{
    const long n = ++g_calls[k];
    if (g_armed_n <= 0 || g_armed_kind != (int)k || n != g_armed_n) return 0;
    g_fired = 1;
    return 1;
}

void emu_fault_track(int delta) { g_live += delta; }

}  // extern "C"
