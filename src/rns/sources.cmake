# The RNS module (include/ntt_rns.h, issue 46): included by the top-level
# CMakeLists.txt after the CPU backends' block, so NTT_HAVE_AVX512 and
# NTT_HAVE_OPENMP are known.  Appends to NTT_SOURCES and NTT_DEFS; sets
# NTT_RNS_IFMA_FLAGS for directories that compile the sources again, and
# NTT_RNS_CUDA_SOURCES, which the top level adds to the CUDA backend's
# sources (built with it, and for the CPU stand-in of tests/cuda_emu).
set(NTT_RNS_SOURCES src/rns/context.c src/rns/args.c src/rns/ops.c src/rns/kernels.c
    src/rns/cuda_api.c)
set(NTT_RNS_CUDA_SOURCES src/rns/rns_cuda_setup.cpp src/rns/rns_cuda_stages.cpp
    src/rns/rns_cuda_kernels.cu)
if(NTT_HAVE_OPENMP)
  # Threads over limbs and coefficient blocks for the OPENMP backend.
  set_source_files_properties(${NTT_RNS_SOURCES} PROPERTIES COMPILE_OPTIONS "${OpenMP_C_FLAGS}")
endif()
# The AVX-512 IFMA element-wise kernels, beside the AVX-512 NTTs; chosen at
# run time by cpuid.
check_c_compiler_flag("-mavx512f -mavx512ifma" NTT_CC_HAS_AVX512IFMA)
if(NTT_HAVE_AVX512 AND NTT_CC_HAS_AVX512IFMA)
  set(NTT_RNS_IFMA_FLAGS -mavx512f -mavx512ifma)
  set_source_files_properties(src/rns/kernels_ifma.c PROPERTIES COMPILE_OPTIONS "${NTT_RNS_IFMA_FLAGS}")
  list(APPEND NTT_RNS_SOURCES src/rns/kernels_ifma.c)
  list(APPEND NTT_DEFS NTT_RNS_IFMA)
endif()
list(APPEND NTT_SOURCES ${NTT_RNS_SOURCES})
