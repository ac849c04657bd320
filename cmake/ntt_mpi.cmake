# libntt_mpi (include/ntt_mpi.h, src/mpi/), the ntt-mpi command and the MPI
# benchmark (issue 49): built when MPI (C) is found.  Included by the top
# CMakeLists.txt after the library and the tools, before the tests; sets
# NTT_HAVE_MPI for tests/mpi.
option(NTT_ENABLE_MPI "Build libntt_mpi and ntt-mpi when MPI is found" ON)
set(NTT_HAVE_MPI OFF)
if(NTT_ENABLE_MPI)
  find_package(MPI COMPONENTS C)
  if(MPI_C_FOUND)
    set(NTT_HAVE_MPI ON)
  endif()
endif()
message(STATUS "ntt: MPI ${NTT_HAVE_MPI}")
if(NOT NTT_HAVE_MPI)
  return()
endif()

# ---- the library ---------------------------------------------------------------
add_library(ntt_mpi_objects OBJECT
  src/mpi/plan.c
  src/mpi/exec.c
  src/mpi/layout.c
  src/mpi/crt.c
  src/mpi/twist.c)
target_include_directories(ntt_mpi_objects PUBLIC
  $<BUILD_INTERFACE:${CMAKE_CURRENT_SOURCE_DIR}/include>)
target_include_directories(ntt_mpi_objects PRIVATE src/core)
target_link_libraries(ntt_mpi_objects PUBLIC MPI::MPI_C)
if(NTT_HAVE_OPENMP)
  # Threads of a rank: one band of rows or columns each.
  target_link_libraries(ntt_mpi_objects PRIVATE OpenMP::OpenMP_C)
endif()
target_compile_options(ntt_mpi_objects PRIVATE ${NTT_WARN})
set_target_properties(ntt_mpi_objects PROPERTIES C_VISIBILITY_PRESET hidden)

add_library(ntt_mpi SHARED $<TARGET_OBJECTS:ntt_mpi_objects>)
add_library(ntt_mpi_static STATIC $<TARGET_OBJECTS:ntt_mpi_objects>)
set_target_properties(ntt_mpi PROPERTIES VERSION ${PROJECT_VERSION} SOVERSION 0)
set_target_properties(ntt_mpi_static PROPERTIES OUTPUT_NAME ntt_mpi)
target_link_libraries(ntt_mpi PUBLIC ntt MPI::MPI_C)
target_link_libraries(ntt_mpi_static PUBLIC ntt_static MPI::MPI_C)
foreach(t ntt_mpi ntt_mpi_static)
  target_include_directories(${t} PUBLIC
    $<BUILD_INTERFACE:${CMAKE_CURRENT_SOURCE_DIR}/include>
    $<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}>)
  if(NTT_HAVE_OPENMP)
    target_link_libraries(${t} PUBLIC OpenMP::OpenMP_C)
  endif()
endforeach()
add_library(ntt::ntt_mpi ALIAS ntt_mpi)
add_library(ntt::ntt_mpi_static ALIAS ntt_mpi_static)

# ---- the command ------------------------------------------------------------------
add_executable(ntt_mpi_cli tools/ntt_mpi.c)
set_target_properties(ntt_mpi_cli PROPERTIES OUTPUT_NAME ntt-mpi)
target_link_libraries(ntt_mpi_cli PRIVATE ntt_mpi_static)
target_compile_options(ntt_mpi_cli PRIVATE ${NTT_WARN})
install(TARGETS ntt_mpi_cli RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})

# ---- the benchmark (ntt-bench mpi) ----------------------------------------------------
# bench/mpi_bench.c is ntt-bench's `mpi` section (bench_mpi); the PMPI
# wrapper (bench/mpi_pmpi.c) counts and times the MPI calls of the program
# it is linked into, so both are an object library: a program that links
# it gets every object, the wrapper's MPI_* ahead of libmpi's.
# The course's master-slave baseline (src/course) rides with it.
add_library(ntt_bench_mpi_objs OBJECT bench/mpi_bench.c bench/mpi_pmpi.c
            src/course/mpi_master_slave.c)
target_include_directories(ntt_bench_mpi_objs PRIVATE bench src/course src/mpi src/core)
target_link_libraries(ntt_bench_mpi_objs PUBLIC ntt_mpi_static ntt_tool_support m)
target_compile_definitions(ntt_bench_mpi_objs PRIVATE NTT_HAVE_MPI_BENCH)
target_compile_options(ntt_bench_mpi_objs PRIVATE ${NTT_WARN})

# ---- install: header, libraries, pkg-config, CMake package -------------------------
install(FILES include/ntt_mpi.h DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
set(NTT_MPI_CONFIG_DEPS "")
if(NTT_HAVE_OPENMP)
  set(NTT_MPI_CONFIG_DEPS "find_dependency(OpenMP COMPONENTS C)")
endif()
# pkg-config: MPI's include directories and libraries are public (the header
# includes mpi.h, callers call MPI_Init); with mpicc they are already there.
set(NTT_MPI_PC_CFLAGS "")
foreach(d ${MPI_C_INCLUDE_DIRS})
  string(APPEND NTT_MPI_PC_CFLAGS " -I${d}")
endforeach()
set(NTT_MPI_PC_LIBS "")
foreach(l ${MPI_C_LIBRARIES})
  string(APPEND NTT_MPI_PC_LIBS " ${l}")
endforeach()
ntt_install_package(ntt_mpi TARGETS ntt_mpi ntt_mpi_static DEPS "${NTT_MPI_CONFIG_DEPS}")
