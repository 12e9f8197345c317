# The link-line half of the precision guard, for programs that find_package(carom). Float Bullet's
# libraries (Debian: libBulletDynamics.so, ..., e.g. find_package(Bullet)'s BULLET_LIBRARIES) beside
# carom::carom link cleanly, since precision.h's anchor is satisfied by the -float64 libraries, but
# the float ones come first on the link line and supply Bullet's other symbols: the program runs
# wrong. So at the end of the configure, a target whose link closure holds carom::carom and a
# Bullet library without "-float64" in its name is an error naming both.
include_guard(GLOBAL)

# Libraries named like Bullet's (LinearMath, BulletDynamics, Bullet3Common, ...) as a file path,
# a plain name or -lNAME, less the double-precision -float64 ones.
function(_carom_is_float_bullet library out)
  set(${out} FALSE PARENT_SCOPE)
  if(library MATCHES "(^|/|-l)(lib)?(LinearMath|Bullet[A-Za-z0-9]*)(\\.so[.0-9]*|\\.a)?$"
     AND NOT library MATCHES "float64")
    set(${out} TRUE PARENT_SCOPE)
  endif()
endfunction()

# Every library `target` links, through the targets it links, as far as their properties tell.
function(_carom_link_closure target out)
  set(pending ${target})
  set(seen "")
  set(libraries "")
  while(pending)
    list(POP_FRONT pending current)
    if(current IN_LIST seen)
      continue()
    endif()
    list(APPEND seen ${current})
    if(NOT TARGET ${current})
      list(APPEND libraries ${current})
      continue()
    endif()
    get_target_property(type ${current} TYPE)
    set(direct "")
    if(NOT type STREQUAL "INTERFACE_LIBRARY")
      get_target_property(direct ${current} LINK_LIBRARIES)
    endif()
    get_target_property(interface ${current} INTERFACE_LINK_LIBRARIES)
    foreach(library IN LISTS direct interface)
      if(library AND NOT library MATCHES "-NOTFOUND$")
        string(REGEX REPLACE "^\\$<LINK_ONLY:(.*)>$" "\\1" library "${library}")
        list(APPEND pending ${library})
        list(APPEND libraries ${library})
      endif()
    endforeach()
  endwhile()
  set(${out} ${libraries} PARENT_SCOPE)
endfunction()

function(_carom_targets_of directory out)
  get_property(targets DIRECTORY ${directory} PROPERTY BUILDSYSTEM_TARGETS)
  get_property(subdirectories DIRECTORY ${directory} PROPERTY SUBDIRECTORIES)
  foreach(subdirectory IN LISTS subdirectories)
    _carom_targets_of(${subdirectory} more)
    list(APPEND targets ${more})
  endforeach()
  set(${out} ${targets} PARENT_SCOPE)
endfunction()

function(carom_check_float_bullet)
  _carom_targets_of(${CMAKE_SOURCE_DIR} targets)
  foreach(target IN LISTS targets)
    _carom_link_closure(${target} libraries)
    if(NOT "carom::carom" IN_LIST libraries)
      continue()
    endif()
    set(float "")
    foreach(library IN LISTS libraries)
      _carom_is_float_bullet("${library}" isFloat)
      if(isFloat)
        list(APPEND float ${library})
      endif()
    endforeach()
    if(float)
      message(FATAL_ERROR
        "carom: target ${target} links carom::carom and float-precision Bullet (${float}). "
        "carom needs double-precision Bullet, which carom::carom brings (Debian: the -float64 "
        "libraries of pkg-config module bullet-float64); a program with both runs silently wrong. "
        "Remove the float Bullet libraries (e.g. BULLET_LIBRARIES) from its link line.")
    endif()
  endforeach()
endfunction()

get_property(_carom_guard_deferred GLOBAL PROPERTY CAROM_FLOAT_BULLET_GUARD_DEFERRED)
if(NOT _carom_guard_deferred)
  set_property(GLOBAL PROPERTY CAROM_FLOAT_BULLET_GUARD_DEFERRED TRUE)
  cmake_language(DEFER DIRECTORY ${CMAKE_SOURCE_DIR} CALL carom_check_float_bullet)
endif()
