# Installs the built carom into a scratch prefix, then configures, builds and runs a small consumer
# project that uses only find_package(carom CONFIG REQUIRED) and carom::carom, compiled as C++14
# (carom::carom carries C++17), with toml++ and Boost hidden from find_package; then checks that a
# consumer that links float Bullet beside carom::carom fails to configure.
#   -DCAROM_BINARY_DIR=BUILD: install that build tree (static libraries)
#   -DCAROM_SOURCE_DIR=SOURCE [-DCOMPILER=... -DLAUNCHER=... -DJOBS=N]: configure SOURCE with
#     BUILD_SHARED_LIBS=ON, build the library alone (not the suite, for CI's time) and install its
#     `library` component; the consumer then links the shared libraries, the only ones there
file(REMOVE_RECURSE "${WORK_DIR}")
set(prefix "${WORK_DIR}/prefix")

function(run_step)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE code OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT code EQUAL 0)
    message(FATAL_ERROR "step failed (${code}): ${ARGN}\n${out}\n${err}")
  endif()
endfunction()

if(CAROM_SOURCE_DIR)
  set(shared "${WORK_DIR}/shared-build")
  run_step(${CMAKE_COMMAND} -S "${CAROM_SOURCE_DIR}" -B "${shared}" -DCMAKE_BUILD_TYPE=Release
    -DBUILD_SHARED_LIBS=ON -DCAROM_BUILD_TESTS=OFF -DCAROM_BUILD_BENCHMARKS=OFF
    -DCAROM_BUILD_DEMOS=OFF "-DCMAKE_CXX_COMPILER=${COMPILER}"
    "-DCMAKE_CXX_COMPILER_LAUNCHER=${LAUNCHER}")
  run_step(${CMAKE_COMMAND} --build "${shared}" --target carom_bullet --parallel ${JOBS})
  run_step(${CMAKE_COMMAND} --install "${shared}" --component library --prefix "${prefix}")
  file(GLOB_RECURSE archives "${prefix}/*.a")
  file(GLOB_RECURSE libraries "${prefix}/*/libcarom_bullet.so")
  if(archives OR NOT libraries)
    message(FATAL_ERROR "the shared install holds static libraries (${archives}) or no "
      "libcarom_bullet.so")
  endif()
else()
  run_step(${CMAKE_COMMAND} --install "${CAROM_BINARY_DIR}" --prefix "${prefix}")
endif()
# A private dependency that find_package(carom) asked for would fail here: its packages are out of
# reach (CMAKE_DISABLE_FIND_PACKAGE_*).
run_step(${CMAKE_COMMAND} -S "${CONSUMER_SOURCE_DIR}" -B "${WORK_DIR}/build"
  "-DCMAKE_PREFIX_PATH=${prefix}" -DCMAKE_BUILD_TYPE=Release
  -DCMAKE_DISABLE_FIND_PACKAGE_tomlplusplus=ON -DCMAKE_DISABLE_FIND_PACKAGE_Boost=ON)
run_step(${CMAKE_COMMAND} --build "${WORK_DIR}/build")
run_step("${WORK_DIR}/build/consumer")

execute_process(COMMAND ${CMAKE_COMMAND} -S "${CONSUMER_SOURCE_DIR}/../float_consumer"
  -B "${WORK_DIR}/float-build" "-DCMAKE_PREFIX_PATH=${prefix}" -DCMAKE_BUILD_TYPE=Release
  RESULT_VARIABLE code OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(code EQUAL 0 OR NOT "${out}${err}" MATCHES "links carom::carom and float-precision Bullet")
  message(FATAL_ERROR "a consumer linking float Bullet beside carom::carom configured (${code}):\n"
    "${out}\n${err}")
endif()
