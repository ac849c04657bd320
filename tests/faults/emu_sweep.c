#include "emu_sweep.h"

#include "emu_faults.h"

static emu_fault_kind cur;

static void arm(long k) { emu_fault_arm(cur, k); }
bool emu_sweep_fired(void) { return emu_fault_fired() != 0; }
static const char *point(void) { return emu_fault_name(cur); }
ntt_status emu_sweep_expected(void)
{
    return cur == EMU_FAULT_MALLOC || cur == EMU_FAULT_MALLOC_HOST || cur == EMU_FAULT_CREATE
               ? NTT_ENOMEM
               : NTT_EBACKEND;
}

long emu_sweep(const fault_trial *t)
{
    static const fault_source src = {"CUDA", arm, emu_sweep_fired, point, emu_fault_live,
                                     emu_sweep_expected};
    long points = 0;
    for (int k = 0; k < EMU_FAULT_KINDS; k++) {
        cur = (emu_fault_kind)k;
        points += fault_sweep(&src, t);
    }
    return points;
}
