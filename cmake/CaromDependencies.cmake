# The public dependencies, shared by the build tree and, through caromConfig.cmake, by consumers:
# Eigen and Bullet appear in carom's headers; Threads because a static carom's impacts start
# threads (solver.threads), which its consumer's link must allow. (The private ones, in
# CaromPrivateDependencies.cmake, are the build tree's alone.)
#
# Bullet must be the double-precision build: float and double Bullet cannot share a process and a
# mismatched link runs silently wrong, so a mismatch is a configure error here, never a run-time
# surprise. Debian ships the double build as the pkg-config module `bullet-float64`.

find_package(Eigen3 3.3 REQUIRED NO_MODULE)
find_package(Threads REQUIRED)
find_package(PkgConfig REQUIRED)
if(NOT TARGET PkgConfig::CAROM_BULLET)
  pkg_check_modules(CAROM_BULLET REQUIRED IMPORTED_TARGET GLOBAL bullet-float64)
endif()
if(NOT "-DBT_USE_DOUBLE_PRECISION" IN_LIST CAROM_BULLET_CFLAGS_OTHER)
  message(FATAL_ERROR
    "carom needs Bullet built in double precision, but pkg-config module bullet-float64 does not "
    "define BT_USE_DOUBLE_PRECISION (cflags: ${CAROM_BULLET_CFLAGS_OTHER}).")
endif()
