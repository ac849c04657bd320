# libntt_multigpu (include/ntt_multigpu.h, src/multigpu/): several GPUs
# through NCCL (issue 50).  Built when the CUDA backend is and NCCL is found;
# a library of its own, so that libntt never needs libnccl.  With MPI found
# too, it also holds ntt_mgpu_create_mpi (include/ntt_multigpu_mpi.h).
# Included by the top CMakeLists.txt after cmake/ntt_mpi.cmake (NTT_HAVE_MPI)
# and before the benchmark; sets NTT_HAVE_MULTIGPU and NTT_MULTIGPU_SOURCES
# (the tests build the same sources on the CPU stand-ins).
set(NTT_MULTIGPU_SOURCES
  src/multigpu/context.c
  src/multigpu/errors.c
  src/multigpu/workers.c
  src/multigpu/partition.c
  src/multigpu/batch.c
  src/multigpu/staging.c
  src/multigpu/large_plan.c
  src/multigpu/large_exec.c
  src/multigpu/ks_plan.c
  src/multigpu/ks_exec.c
  src/multigpu/ks_host.c
  src/multigpu/transpose.cu)
option(NTT_ENABLE_MULTIGPU "Build libntt_multigpu when CUDA and NCCL are found" ON)
set(NTT_HAVE_MULTIGPU OFF)
if(NTT_ENABLE_MULTIGPU AND NTT_HAVE_CUDA)
  find_path(NCCL_INCLUDE_DIR nccl.h HINTS ${CUDAToolkit_INCLUDE_DIRS} $ENV{NCCL_HOME}/include)
  find_library(NCCL_LIBRARY nccl HINTS ${CUDAToolkit_LIBRARY_DIR} ${CUDAToolkit_LIBRARY_ROOT}/lib
               $ENV{NCCL_HOME}/lib)
  if(NCCL_INCLUDE_DIR AND NCCL_LIBRARY)
    set(NTT_HAVE_MULTIGPU ON)
  endif()
endif()
message(STATUS "ntt: multi-GPU (NCCL) ${NTT_HAVE_MULTIGPU}")
if(NOT NTT_HAVE_MULTIGPU)
  return()
endif()

add_library(ntt_multigpu_objects OBJECT ${NTT_MULTIGPU_SOURCES})
if(NTT_HAVE_MPI)
  target_sources(ntt_multigpu_objects PRIVATE src/multigpu/mpi_context.c)
  target_link_libraries(ntt_multigpu_objects PUBLIC MPI::MPI_C)
endif()
target_include_directories(ntt_multigpu_objects PUBLIC
  $<BUILD_INTERFACE:${CMAKE_CURRENT_SOURCE_DIR}/include>)
# NCCL's header has old-style declarations: a system header for the warnings.
target_include_directories(ntt_multigpu_objects SYSTEM PUBLIC ${NCCL_INCLUDE_DIR})
# src/include: libntt's internal header (ntt_internal.h: the key switch's
# window pieces of the CUDA RNS stages, ntt_overlaps); src/core: the
# header-only four-step split it shares with libntt_mpi (fourstep.h).
target_include_directories(ntt_multigpu_objects PRIVATE src/include src/core src/multigpu)
target_link_libraries(ntt_multigpu_objects PUBLIC CUDA::cudart Threads::Threads)
target_compile_options(ntt_multigpu_objects PRIVATE ${NTT_WARN}
  $<$<COMPILE_LANGUAGE:CUDA>:-Werror=all-warnings>
  $<$<COMPILE_LANGUAGE:CUDA>:-Xcompiler=-Wall,-Wextra,-Werror>)
set_target_properties(ntt_multigpu_objects PROPERTIES C_VISIBILITY_PRESET hidden
                      CUDA_VISIBILITY_PRESET hidden)

add_library(ntt_multigpu SHARED $<TARGET_OBJECTS:ntt_multigpu_objects>)
add_library(ntt_multigpu_static STATIC $<TARGET_OBJECTS:ntt_multigpu_objects>)
set_target_properties(ntt_multigpu PROPERTIES VERSION ${PROJECT_VERSION} SOVERSION 0)
set_target_properties(ntt_multigpu_static PROPERTIES OUTPUT_NAME ntt_multigpu)
target_link_libraries(ntt_multigpu PUBLIC ntt CUDA::cudart ${NCCL_LIBRARY} Threads::Threads)
target_link_libraries(ntt_multigpu_static PUBLIC ntt_static CUDA::cudart ${NCCL_LIBRARY}
                      Threads::Threads)
foreach(t ntt_multigpu ntt_multigpu_static)
  target_include_directories(${t} PUBLIC
    $<BUILD_INTERFACE:${CMAKE_CURRENT_SOURCE_DIR}/include>
    $<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}>)
  if(NTT_HAVE_MPI)
    target_link_libraries(${t} PUBLIC MPI::MPI_C)
  endif()
endforeach()
install(FILES include/ntt_multigpu.h DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
if(NTT_HAVE_MPI)
  install(FILES include/ntt_multigpu_mpi.h DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
endif()
# The package: find_package(ntt_multigpu) gives ntt::ntt_multigpu and
# ntt::ntt_multigpu_static; pkg-config ntt_multigpu.  NCCL's library is
# named by the path it was found at.
set(NTT_MULTIGPU_CONFIG_DEPS "")
if(NTT_HAVE_MPI)
  set(NTT_MULTIGPU_CONFIG_DEPS "find_dependency(MPI COMPONENTS C)")
endif()
ntt_install_package(ntt_multigpu TARGETS ntt_multigpu ntt_multigpu_static
                    DEPS "${NTT_MULTIGPU_CONFIG_DEPS}")
