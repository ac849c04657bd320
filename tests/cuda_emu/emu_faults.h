/*
 * Fault injection in the CPU stand-in of the CUDA runtime (tests/faults):
 * the n-th runtime operation of a kind fails as a GPU's would
 * (cudaMalloc / cudaMallocHost with cudaErrorMemoryAllocation, a launch
 * with cudaErrorLaunchFailure reported by the next cudaGetLastError, a
 * copy or a synchronisation with that error returned).  Operations are
 * counted per kind; device and page-locked buffers, streams and events
 * alive are counted, so a test can tell that nothing was leaked.  C and C++.
 */
#ifndef NTT_EMU_FAULTS_H
#define NTT_EMU_FAULTS_H

#ifdef __cplusplus
extern "C" {
#endif

typedef enum emu_fault_kind {
    EMU_FAULT_MALLOC,      /* cudaMalloc */
    EMU_FAULT_MALLOC_HOST, /* cudaMallocHost, cudaHostRegister */
    EMU_FAULT_LAUNCH,      /* kernel launches */
    EMU_FAULT_COPY,        /* cudaMemcpy*, cudaMemset */
    EMU_FAULT_SYNC,        /* stream / device synchronisation, event record and wait */
    EMU_FAULT_CREATE,      /* stream and event creation */
    EMU_FAULT_KINDS
} emu_fault_kind;

/* "cudaMalloc", "cudaMallocHost", ... */
const char *emu_fault_name(emu_fault_kind k);
/* From now on the n-th operation of kind k fails (n >= 1; 0 disarms);
   resets the counts of every kind. */
void emu_fault_arm(emu_fault_kind k, long n);
/* Operations of kind k since the last arm. */
long emu_fault_calls(emu_fault_kind k);
/* Whether the armed operation was reached. */
int emu_fault_fired(void);
/* Buffers (device and page-locked), streams and events alive. */
long emu_fault_live(void);

/* For the stand-in itself: 1 when this operation of kind k must fail. */
int emu_fault_hit(emu_fault_kind k);
/* Resource bookkeeping: +1 on creation, -1 on release. */
void emu_fault_track(int delta);

#ifdef __cplusplus
}
#endif

#endif
