/* The field kernels' instances: unrolled for 4 (BN254, BLS12-381 r), 6
   (BLS12-381 p), 8 (512 bits) and 16 words (1024 bits), and one generic
   for every other word count; field_kern_for is the one choice among
   them. */
#include "field_internal.h"

/* 32 KiB: the subtree and its twiddles fit a 48 KiB L1 data cache. */
#define FIELD_LEAF_BYTES (32u * 1024u)

#define FW 4
#define FSFX(name) name##_w4
#define FSFX_NAME "w4"
#include "field_kernels.tmpl.h"
#undef FW
#undef FSFX
#undef FSFX_NAME

#define FW 6
#define FSFX(name) name##_w6
#define FSFX_NAME "w6"
#include "field_kernels.tmpl.h"
#undef FW
#undef FSFX
#undef FSFX_NAME

#define FW 8
#define FSFX(name) name##_w8
#define FSFX_NAME "w8"
#include "field_kernels.tmpl.h"
#undef FW
#undef FSFX
#undef FSFX_NAME

#define FW 16
#define FSFX(name) name##_w16
#define FSFX_NAME "w16"
#include "field_kernels.tmpl.h"
#undef FW
#undef FSFX
#undef FSFX_NAME

#define FW (m->w)
#define FSFX(name) name##_generic
#define FSFX_NAME "generic"
#include "field_kernels.tmpl.h"
#undef FW
#undef FSFX
#undef FSFX_NAME

const field_kern *field_kern_for(size_t w)
{
    switch (w) {
    case 4: return &field_kern_w4;
    case 6: return &field_kern_w6;
    case 8: return &field_kern_w8;
    case 16: return &field_kern_w16;
    default: return &field_kern_generic;
    }
}
