/*
 * The CUDA stand-in's faults (tests/cuda_emu/emu_faults.h) as a source for
 * fault_sweep: each kind in turn, an allocation or a stream/event creation
 * failing with NTT_ENOMEM documented, anything else with NTT_EBACKEND.
 */
#ifndef NTT_EMU_SWEEP_H
#define NTT_EMU_SWEEP_H

#include "fault_sweep.h"

/* fault_sweep over every fault kind; returns the points that failed. */
long emu_sweep(const fault_trial *t);
/* Inside a trial's steps: whether the armed point was reached, and the
   status documented for it. */
bool emu_sweep_fired(void);
ntt_status emu_sweep_expected(void);

#endif
