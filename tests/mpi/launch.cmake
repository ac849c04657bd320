# How the tests start MPI programs: NTT_MPIEXEC_FLAGS (after -n RANKS) and
# NTT_MPI_ENV (the tests' ENVIRONMENT).  Included by tests/mpi and by the
# several-GPU test under MPI, so both launch the same way.
# CI runs as root and with more ranks than cores: Open MPI needs
# --oversubscribe and the two OMPI_ALLOW_RUN_AS_ROOT variables (set through
# the tests' ENVIRONMENT, so a run as an ordinary user is unaffected).
execute_process(COMMAND ${MPIEXEC_EXECUTABLE} --version OUTPUT_VARIABLE _mpiexec_version
                ERROR_QUIET)
set(NTT_MPIEXEC_FLAGS ${MPIEXEC_PREFLAGS})
if(_mpiexec_version MATCHES "Open MPI|OpenRTE")
  list(APPEND NTT_MPIEXEC_FLAGS --oversubscribe)
endif()
set(NTT_MPI_ENV "OMPI_ALLOW_RUN_AS_ROOT=1;OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1")
if(NTT_SANITIZE)
  # Open MPI and PMIx leave allocations at exit in plugins they have
  # unloaded (LeakSanitizer can name neither module nor function, so no
  # suppression matches them); address and undefined-behaviour checks stay.
  list(APPEND NTT_MPI_ENV "ASAN_OPTIONS=detect_leaks=0")
endif()
