/*
 * The AVX-512 backend: avx2.c compiled once more with AVX-512 F, VL, BW and
 * DQ allowed (this file's flags; see avx2.c for what changes).  Like the
 * AVX2 backend it is picked at run time, only on a CPU (and OS) that has
 * all four.
 */
#define NTT_AVX512 1
#include "avx2.c"
