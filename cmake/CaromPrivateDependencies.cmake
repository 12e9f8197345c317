# Dependencies of the build tree alone: header-only libraries no public header includes, linked
# as $<BUILD_INTERFACE:...>, so find_package(carom) asks a user's machine for neither.

# toml++ (Debian libtomlplusplus-dev) parses carom::Config; its package ships a CMake config.
find_package(tomlplusplus 3 CONFIG REQUIRED)
# Boost (Debian libboost-dev), headers only: its Sobol sequence with Joe & Kuo's direction numbers
# gives the low-discrepancy caps of the Halm–Posa sampler. A hand-written generator would need
# those 3667-dimension tables typed in again.
find_package(Boost 1.71 REQUIRED)
