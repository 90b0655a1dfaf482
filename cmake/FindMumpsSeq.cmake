# Debian's sequential MUMPS (libmumps-seq-dev) ships no CMake config: locate the double-precision
# library and its common part by hand (Debian links the MPI stand-in and the orderings into them).
find_path(MUMPS_INCLUDE_DIR dmumps_c.h)
foreach(lib dmumps_seq mumps_common_seq)
  find_library(MUMPS_${lib}_LIBRARY NAMES ${lib})
  list(APPEND _mumps_vars MUMPS_${lib}_LIBRARY)
endforeach()
include(FindPackageHandleStandardArgs)
find_package_handle_standard_args(MumpsSeq DEFAULT_MSG MUMPS_INCLUDE_DIR ${_mumps_vars})
if(MumpsSeq_FOUND AND NOT TARGET Mumps::DMumpsSeq)
  add_library(Mumps::DMumpsSeq INTERFACE IMPORTED)
  target_include_directories(Mumps::DMumpsSeq INTERFACE ${MUMPS_INCLUDE_DIR})
  target_link_libraries(Mumps::DMumpsSeq INTERFACE ${MUMPS_dmumps_seq_LIBRARY} ${MUMPS_mumps_common_seq_LIBRARY})
endif()
