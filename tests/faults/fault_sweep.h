/*
 * Every failure point of a call, one run per point: the call is repeated
 * with the 1st, 2nd, ... fallible operation of a fault source failing (host
 * allocations: alloc_fault.h; the CUDA stand-in's runtime calls:
 * tests/cuda_emu/emu_faults.h) until a run completes without reaching the
 * armed point.  Each failed run must return the source's documented status
 * for that point, leave the caller's data as it was and hold no more live
 * resources once the trial's release step has run.
 * NTT_FAULT_VERBOSE=1 prints the number of points of every trial.
 */
#ifndef NTT_FAULT_SWEEP_H
#define NTT_FAULT_SWEEP_H

#include "ntt.h"

#include <stdbool.h>

typedef struct fault_source {
    const char *name;
    void (*arm)(long k);            /* k-th point fails from now on; 0 disarms */
    bool (*fired)(void);            /* the armed point was reached */
    const char *(*point)(void);     /* what failed there, for messages */
    long (*live)(void);             /* resources alive (blocks, buffers) */
    ntt_status (*expected)(void);   /* the documented status for the point that failed */
} fault_source;

typedef struct fault_trial {
    const char *name;
    void *arg;
    void (*reset)(void *arg);       /* unarmed: fresh inputs, outputs, plans */
    ntt_status (*call)(void *arg);  /* armed: the call under test */
    bool (*intact)(void *arg);      /* after a failure: caller's data as reset left it */
    void (*release)(void *arg);     /* unarmed: frees what reset and a successful call made */
} fault_trial;

/* Runs the trial once per failure point; returns how many points failed. */
long fault_sweep(const fault_source *src, const fault_trial *t);

#endif
