# The precision guard of include/carom/bullet/precision.h, checked from outside like a host
# program would meet it. Each mismatch must fail for the guard's reason, and each matching control
# must build, so that a failure cannot come from a broken command line.
#   COMPILER, SOURCE, INCLUDE_DIRS, WORK_DIR, CAROM_LIBRARY, DOUBLE_BULLET, FLOAT_BULLET
#   (lists joined with "|"), EXTRA_FLAGS (sanitizer flags, may be empty)
string(REPLACE "|" ";" include_dirs "${INCLUDE_DIRS}")
string(REPLACE "|" ";" double_bullet "${DOUBLE_BULLET}")
string(REPLACE "|" ";" float_bullet "${FLOAT_BULLET}")
string(REPLACE "|" ";" extra_flags "${EXTRA_FLAGS}")
list(TRANSFORM include_dirs PREPEND "-I")
file(MAKE_DIRECTORY "${WORK_DIR}")

# expect(SUCCESS|FAILURE "what the output must contain" command...)
function(expect outcome needle)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE code OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(outcome STREQUAL "SUCCESS" AND NOT code EQUAL 0)
    message(FATAL_ERROR "expected success: ${ARGN}\n${out}\n${err}")
  endif()
  if(outcome STREQUAL "FAILURE")
    if(code EQUAL 0)
      message(FATAL_ERROR "expected failure, but it built: ${ARGN}")
    endif()
    string(FIND "${out}${err}" "${needle}" at)
    if(at EQUAL -1)
      message(FATAL_ERROR "failed, but not with \"${needle}\": ${ARGN}\n${out}\n${err}")
    endif()
  endif()
endfunction()

set(compile ${COMPILER} -std=c++17 ${extra_flags} ${include_dirs} -c "${SOURCE}")
# Compile time: a float host is refused, a double host compiles.
expect(FAILURE "carom is built against double-precision Bullet"
  ${compile} -o "${WORK_DIR}/float_host.o")
expect(SUCCESS "" ${compile} -DBT_USE_DOUBLE_PRECISION -o "${WORK_DIR}/host.o")

# Link time: carom with the float Bullet libraries is refused, with the double ones it links.
set(link ${COMPILER} ${extra_flags} "${WORK_DIR}/host.o" "${CAROM_LIBRARY}")
expect(SUCCESS "" ${link} ${double_bullet} -o "${WORK_DIR}/host_double")
if(float_bullet)
  expect(FAILURE "btRigidBody::applyDamping(double)" ${link} ${float_bullet} -o "${WORK_DIR}/host_float")
else()
  message(STATUS "float Bullet (pkg-config bullet) not found: the link-time half is not checked")
endif()
