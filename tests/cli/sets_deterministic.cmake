# `carom sets` twice on one scene and seed, into two directories, with one worker thread and with
# two: the CSV files must be identical byte for byte (INTERFACES.md §2: same seed, same result,
# whatever the thread count).
#   -DCAROM=path -DSCENE=path -DWORK_DIR=dir
file(REMOVE_RECURSE "${WORK_DIR}")
foreach(threads 1 2)
  set(run threads-${threads})
  execute_process(COMMAND "${CAROM}" sets "${SCENE}" --samples 2000 --threads ${threads}
    --out "${WORK_DIR}/${run}"
    RESULT_VARIABLE status OUTPUT_QUIET ERROR_VARIABLE err)
  if(NOT status EQUAL 0)
    message(FATAL_ERROR "carom sets failed (${status}): ${err}")
  endif()
endforeach()
execute_process(COMMAND ${CMAKE_COMMAND} -E compare_files
  "${WORK_DIR}/threads-1/outcomes.csv" "${WORK_DIR}/threads-2/outcomes.csv" RESULT_VARIABLE differ)
if(NOT differ EQUAL 0)
  message(FATAL_ERROR "--threads 1 and --threads 2 wrote different outcomes.csv")
endif()
