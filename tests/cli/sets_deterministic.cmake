# `carom sets` twice on one scene and seed, into two directories: the CSV files must be identical
# byte for byte (INTERFACES.md §2: same seed, same result).
#   -DCAROM=path -DSCENE=path -DWORK_DIR=dir
file(REMOVE_RECURSE "${WORK_DIR}")
foreach(run first second)
  execute_process(COMMAND "${CAROM}" sets "${SCENE}" --samples 2000 --out "${WORK_DIR}/${run}"
    RESULT_VARIABLE status OUTPUT_QUIET ERROR_VARIABLE err)
  if(NOT status EQUAL 0)
    message(FATAL_ERROR "carom sets failed (${status}): ${err}")
  endif()
endforeach()
execute_process(COMMAND ${CMAKE_COMMAND} -E compare_files
  "${WORK_DIR}/first/outcomes.csv" "${WORK_DIR}/second/outcomes.csv" RESULT_VARIABLE differ)
if(NOT differ EQUAL 0)
  message(FATAL_ERROR "the two runs wrote different outcomes.csv")
endif()
