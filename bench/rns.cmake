# The RNS stage benchmark (bench/rns_stages.c, issue 46) as a program of its
# own, ntt_bench_rns, until ntt-bench has its `rns` subcommand (which calls
# bench_rns and makes this file unnecessary).
add_executable(ntt_bench_rns bench/rns_stages.c)
target_compile_definitions(ntt_bench_rns PRIVATE NTT_BENCH_RNS_MAIN)
target_link_libraries(ntt_bench_rns PRIVATE ntt_static)
target_compile_options(ntt_bench_rns PRIVATE ${NTT_WARN})
if(NTT_HAVE_OPENMP)
  target_compile_options(ntt_bench_rns PRIVATE ${OpenMP_C_FLAGS})
  target_link_libraries(ntt_bench_rns PRIVATE OpenMP::OpenMP_C)
endif()
if(TARGET ntt_git_commit)
  add_dependencies(ntt_bench_rns ntt_git_commit)
  target_include_directories(ntt_bench_rns PRIVATE ${CMAKE_CURRENT_BINARY_DIR}/generated)
endif()
