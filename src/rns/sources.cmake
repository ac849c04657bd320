# The RNS module (include/ntt_rns.h, issue 46): included by the top-level
# CMakeLists.txt after the CPU backends' block, so NTT_HAVE_AVX512 and
# NTT_HAVE_OPENMP are known.  Appends to NTT_SOURCES.
set(NTT_RNS_SOURCES src/rns/context.c src/rns/ops.c src/rns/kernels.c)
if(NTT_HAVE_OPENMP)
  # Threads over limbs and coefficient blocks for the OPENMP backend.
  set_source_files_properties(${NTT_RNS_SOURCES} PROPERTIES COMPILE_OPTIONS "${OpenMP_C_FLAGS}")
endif()
list(APPEND NTT_SOURCES ${NTT_RNS_SOURCES})
