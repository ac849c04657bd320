/* The library's allocation of large arrays (alloc.h). */
/* madvise is an extension of POSIX. */
#define _DEFAULT_SOURCE
#include "alloc.h"

#include <stdlib.h>
#include <sys/mman.h>

void *ntt_alloc_aligned(size_t bytes)
{
    const size_t huge = (size_t)2 << 20;
    void *p = NULL;
    if (bytes >= huge) {
        const size_t size = (bytes + huge - 1) / huge * huge;
        if (posix_memalign(&p, huge, size) != 0) return NULL;
#ifdef MADV_HUGEPAGE
        (void)madvise(p, size, MADV_HUGEPAGE);
#endif
        return p;
    }
    if (bytes == 0) bytes = 64;
    if (posix_memalign(&p, 64, bytes) != 0) return NULL;
    return p;
}
