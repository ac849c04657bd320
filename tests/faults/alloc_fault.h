/*
 * Allocation-failure injection for the test programs of tests/faults: the
 * program is linked with -Wl,--wrap for each allocation point of the
 * library (malloc, calloc, realloc, posix_memalign, aligned_alloc, and
 * fopen / fdopen, which allocate a FILE), so the library itself is the
 * release code.  When armed with k, the k-th of those calls fails (NULL
 * with errno ENOMEM, or ENOMEM from posix_memalign); every call is counted,
 * and the blocks alive through the wrappers are counted too, so a test can
 * tell that a failed call freed what it had allocated.
 */
#ifndef NTT_ALLOC_FAULT_H
#define NTT_ALLOC_FAULT_H

#include <stdbool.h>

/* From now on the k-th allocation point fails (k >= 1); 0 disarms.  Resets
   the count of points passed. */
void alloc_fault_arm(long k);
/* Allocation points passed since the last arm. */
long alloc_fault_calls(void);
/* Whether the armed point was reached, and the function that failed. */
bool alloc_fault_fired(void);
const char *alloc_fault_function(void);
/* Blocks allocated through the wrappers and not yet freed (FILEs
   included: fopen/fdopen count one, fclose one less). */
long alloc_fault_live(void);

#endif
