# Run at every build (not only at configure time), so that a result's
# "commit" names the code that produced it.  Writes OUT only when the text
# changes, so an unchanged commit rebuilds nothing.  "-dirty": tracked files
# differ from that commit.
execute_process(COMMAND git rev-parse --short=12 HEAD
                WORKING_DIRECTORY ${SRC} OUTPUT_VARIABLE c OUTPUT_STRIP_TRAILING_WHITESPACE
                ERROR_QUIET RESULT_VARIABLE rc)
if(NOT rc EQUAL 0 OR NOT c)
  set(c "unknown")
else()
  execute_process(COMMAND git status --porcelain --untracked-files=no
                  WORKING_DIRECTORY ${SRC} OUTPUT_VARIABLE st ERROR_QUIET)
  if(st)
    string(APPEND c "-dirty")
  endif()
endif()
set(text "#define NTT_GIT_COMMIT \"${c}\"\n")
if(EXISTS ${OUT})
  file(READ ${OUT} old)
endif()
if(NOT "${old}" STREQUAL "${text}")
  file(WRITE ${OUT} "${text}")
endif()
