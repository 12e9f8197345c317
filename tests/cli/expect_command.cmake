# Runs one command and checks its exit status and output: ctest's own PASS_REGULAR_EXPRESSION
# ignores the exit status, and the carom command's contract is both (INTERFACES.md §3).
#   -DCOMMAND="exe|arg|..."  -DEXPECT_EXIT=zero|nonzero  [-DEXPECT_OUTPUT=regex]
string(REPLACE "|" ";" command "${COMMAND}")
execute_process(COMMAND ${command} RESULT_VARIABLE status OUTPUT_VARIABLE out ERROR_VARIABLE err)
set(output "${out}${err}")
if(EXPECT_EXIT STREQUAL "zero" AND NOT status EQUAL 0)
  message(FATAL_ERROR "exit status ${status}, expected 0; output:\n${output}")
endif()
if(EXPECT_EXIT STREQUAL "nonzero" AND status EQUAL 0)
  message(FATAL_ERROR "exit status 0, expected non-zero; output:\n${output}")
endif()
if(DEFINED EXPECT_OUTPUT AND NOT output MATCHES "${EXPECT_OUTPUT}")
  message(FATAL_ERROR "output does not match '${EXPECT_OUTPUT}':\n${output}")
endif()
