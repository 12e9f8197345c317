# Every ```cpp block of docs/guide.md and README.md is compiled against carom::carom by the default
# build, so that neither can drift from the API. The line just before a block says what it is:
#   <!-- snippet: program -->           a whole program with main(): its own executable, run by
#                                       ctest docs.guide_snippets.program_N, which passes on exit 0
#   <!-- snippet: fragment(PARAMS) -->  statements (also a block with no marker, PARAMS empty): its
#                                       #include lines go to file scope, after
#                                       <btBulletDynamicsCommon.h> and <carom/carom.h>; the rest is
#                                       the body of a function taking PARAMS, the names the block
#                                       uses without declaring them (the marker may span lines)
# The fragments share one program that calls none of them (there is nothing to run them on):
# building it compiles and links them; ctest docs.guide_snippets.fragments runs it. Each block's
# #line points compiler errors at the page.

set(carom_snippets_dir ${CMAKE_CURRENT_BINARY_DIR}/guide_snippets)

# Rewriting an unchanged file would rebuild its snippet at every configure.
function(carom_write_if_changed path content)
  if(EXISTS ${path})
    file(READ ${path} old)
    if(old STREQUAL content)
      return()
    endif()
  endif()
  file(WRITE ${path} "${content}")
endfunction()

# Blocks are found by string(FIND), not as CMake lists: C++ is full of semicolons.
set(fragments "#include <btBulletDynamicsCommon.h>\n#include <carom/carom.h>\n")
set(programs 0)
foreach(page guide readme)
  set(carom_guide ${PROJECT_SOURCE_DIR}/docs/guide.md)
  if(page STREQUAL "readme")
    set(carom_guide ${PROJECT_SOURCE_DIR}/README.md)
  endif()
  set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${carom_guide})
  file(READ ${carom_guide} guide)
  set(offset 0)
  while(TRUE)
    string(SUBSTRING "${guide}" ${offset} -1 rest)
    string(FIND "${rest}" "\n```cpp\n" start)
    if(start EQUAL -1)
      break()
    endif()
    math(EXPR start "${offset} + ${start} + 1")
    math(EXPR code_start "${start} + 7")
    string(SUBSTRING "${guide}" ${code_start} -1 rest)
    string(FIND "${rest}" "\n```" length)
    if(length EQUAL -1)
      message(FATAL_ERROR "${carom_guide}: a ```cpp block is not closed")
    endif()
    math(EXPR length "${length} + 1")
    string(SUBSTRING "${guide}" ${code_start} ${length} code)
    math(EXPR offset "${code_start} + ${length}")

    string(SUBSTRING "${guide}" 0 ${code_start} before)
    string(REGEX MATCHALL "\n" newlines "${before}")
    list(LENGTH newlines code_line)
    math(EXPR code_line "${code_line} + 1")
    set(line_directive "#line ${code_line} \"${carom_guide}\"\n")

    set(kind fragment)
    set(params "")
    if(before MATCHES "<!-- snippet: ([a-z]+)(\\(([^)]*)\\))? -->\n```cpp\n$")
      set(kind ${CMAKE_MATCH_1})
      set(params "${CMAKE_MATCH_3}")
    endif()
    if(kind STREQUAL "program")
      math(EXPR programs "${programs} + 1")
      set(name carom_guide_program_${programs})
      carom_write_if_changed(${carom_snippets_dir}/${name}.cpp "${line_directive}${code}")
      add_executable(${name} ${carom_snippets_dir}/${name}.cpp)
      target_link_libraries(${name} PRIVATE carom::carom)
      add_test(NAME docs.guide_snippets.program_${programs} COMMAND ${name})
      set_tests_properties(docs.guide_snippets.program_${programs}
        PROPERTIES LABELS docs TIMEOUT 60)
    elseif(kind STREQUAL "fragment")
      # Include lines are blanked, not removed, so that #line stays right.
      string(REGEX MATCHALL "(^|\n)#include[^\n]*" includes "${code}")
      string(REGEX REPLACE "(^|\n)#include[^\n]*" "\\1" code "${code}")
      string(APPEND fragments ${includes} "\nvoid ${page}SnippetAtLine${code_line}(${params}) {\n"
        "${line_directive}${code}}\n")
    else()
      message(FATAL_ERROR "${carom_guide}:${code_line}: unknown snippet kind '${kind}'")
    endif()
  endwhile()
endforeach()

# No -Wall -Wextra: the guide elides code (`/* ... */`), leaving names unused on purpose.
string(APPEND fragments "\nint main() { return 0; }\n")
carom_write_if_changed(${carom_snippets_dir}/carom_guide_fragments.cpp "${fragments}")
add_executable(carom_guide_fragments ${carom_snippets_dir}/carom_guide_fragments.cpp)
target_link_libraries(carom_guide_fragments PRIVATE carom::carom)
add_test(NAME docs.guide_snippets.fragments COMMAND carom_guide_fragments)
set_tests_properties(docs.guide_snippets.fragments PROPERTIES LABELS docs TIMEOUT 60)
