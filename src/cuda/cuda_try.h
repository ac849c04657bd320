// TRY(x): return x's status from the calling function unless it is
// NTT_OK.  The CUDA host code of src/cuda and src/rns chains set-up and
// launch steps that each return an ntt_status; this is their one
// definition.  Not installed.
#pragma once

#define TRY(x)                          \
    do {                                \
        ntt_status s_ = (x);            \
        if (s_ != NTT_OK) return s_;    \
    } while (0)
