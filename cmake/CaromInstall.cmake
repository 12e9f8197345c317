# `cmake --install` puts headers, libraries and a CMake package under the prefix, so that
# find_package(carom CONFIG REQUIRED) + target_link_libraries(... carom::carom) brings Bullet
# (double precision) and Eigen along.
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

set(CAROM_INSTALL_CMAKEDIR "${CMAKE_INSTALL_LIBDIR}/cmake/carom")

# The library, its headers and its CMake package are the component `library`: with
# `cmake --install BUILD --component library` they install without the carom command and the
# viewer, which a build of the library targets alone has not made.
install(TARGETS carom_core carom_bullet EXPORT caromTargets
  ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR} COMPONENT library
  LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR} COMPONENT library
  INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(DIRECTORY include/carom "${PROJECT_BINARY_DIR}/include/carom"
  DESTINATION ${CMAKE_INSTALL_INCLUDEDIR} COMPONENT library)
install(EXPORT caromTargets NAMESPACE carom:: DESTINATION ${CAROM_INSTALL_CMAKEDIR}
  COMPONENT library)

configure_package_config_file(cmake/caromConfig.cmake.in
  "${PROJECT_BINARY_DIR}/caromConfig.cmake" INSTALL_DESTINATION ${CAROM_INSTALL_CMAKEDIR})
write_basic_package_version_file("${PROJECT_BINARY_DIR}/caromConfigVersion.cmake"
  COMPATIBILITY SameMinorVersion)
install(FILES
  "${PROJECT_BINARY_DIR}/caromConfig.cmake"
  "${PROJECT_BINARY_DIR}/caromConfigVersion.cmake"
  cmake/CaromDependencies.cmake
  cmake/CaromFloatBulletGuard.cmake
  DESTINATION ${CAROM_INSTALL_CMAKEDIR} COMPONENT library)
