/* The library's allocation of large arrays (twiddle tables, workspaces, the
   RNS contexts' scratch): the alignment and the huge-page advice chosen in
   one place.  Used by src/cpu and src/rns.  Not installed. */
#ifndef NTT_ALLOC_H
#define NTT_ALLOC_H

#include <stddef.h>

/* bytes (0 taken as 64) aligned to 64 bytes, a cache line and an AVX-512
   vector; from 2 MiB on, rounded up to whole 2 MiB pages, aligned to them
   and advised to the kernel as huge pages (madvise, where the OS has it),
   so that a large transform takes fewer TLB misses.  NULL on failure;
   free() releases it. */
void *ntt_alloc_aligned(size_t bytes);

#endif /* NTT_ALLOC_H */
