/* The field kernels' instances: unrolled for 4 (BN254, BLS12-381 r), 6
   (BLS12-381 p) and 8 words (512 bits), and one generic for every other
   word count, each with the general product (CIOS) and with the no-carry
   one for primes with a spare top bit; field_kern_for is the one choice
   among them.  No unrolled 16-word (1024-bit) instance: its straight-line
   product made the forward NTT slower than the generic loops (ntt-bench
   field, 2^10 and 2^11 points, thread CPU time: 4046 and 4476 ns per
   point unrolled and called from the butterfly, 6060 and 6938 inlined,
   3091 and 3586 generic). */
#include "field_internal.h"

/* 32 KiB: the subtree and its twiddles fit a 48 KiB L1 data cache. */
#define FIELD_LEAF_BYTES (32u * 1024u)

#define FW 4
#define FNC 0
#define SFX(name) name##_w4
#define SFX_NAME "w4"
#include "field_kernels.tmpl.h"
#undef FW
#undef FNC
#undef SFX
#undef SFX_NAME

#define FW 4
#define FNC 1
#define SFX(name) name##_w4_nc
#define SFX_NAME "w4_nc"
#include "field_kernels.tmpl.h"
#undef FW
#undef FNC
#undef SFX
#undef SFX_NAME

#define FW 6
#define FNC 0
#define SFX(name) name##_w6
#define SFX_NAME "w6"
#include "field_kernels.tmpl.h"
#undef FW
#undef FNC
#undef SFX
#undef SFX_NAME

#define FW 6
#define FNC 1
#define SFX(name) name##_w6_nc
#define SFX_NAME "w6_nc"
#include "field_kernels.tmpl.h"
#undef FW
#undef FNC
#undef SFX
#undef SFX_NAME

#define FW 8
#define FNC 0
#define SFX(name) name##_w8
#define SFX_NAME "w8"
#include "field_kernels.tmpl.h"
#undef FW
#undef FNC
#undef SFX
#undef SFX_NAME

#define FW 8
#define FNC 1
#define SFX(name) name##_w8_nc
#define SFX_NAME "w8_nc"
#include "field_kernels.tmpl.h"
#undef FW
#undef FNC
#undef SFX
#undef SFX_NAME

#define FW (m->w)
#define FNC 0
#define SFX(name) name##_generic
#define SFX_NAME "generic"
#include "field_kernels.tmpl.h"
#undef FW
#undef FNC
#undef SFX
#undef SFX_NAME

#define FW (m->w)
#define FNC 1
#define SFX(name) name##_generic_nc
#define SFX_NAME "generic_nc"
#include "field_kernels.tmpl.h"
#undef FW
#undef FNC
#undef SFX
#undef SFX_NAME

const field_kern *field_kern_for(const uint64_t *p, size_t w)
{
    const bool nc = fa_nc_ok(p, w);
    switch (w) {
    case 4: return nc ? &field_kern_w4_nc : &field_kern_w4;
    case 6: return nc ? &field_kern_w6_nc : &field_kern_w6;
    case 8: return nc ? &field_kern_w8_nc : &field_kern_w8;
    default: return nc ? &field_kern_generic_nc : &field_kern_generic;
    }
}
