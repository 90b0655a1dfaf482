# CPack configuration: Debian package first.  Included at the end of the top-level CMakeLists.txt.
#
#   cd build && cpack -G DEB        ->  build/flexim_<version>_<arch>.deb
#
# The test "installer_deb" (label "installer") builds the package in build/installer-check and
# checks that it contains the executables, the examples, the .desktop file and the icon.

# ---- files that only the package needs --------------------------------------
if(FLEXIM_BUILD_GUI)
  install(FILES ${PROJECT_SOURCE_DIR}/resources/flexim.desktop DESTINATION share/applications)
  install(FILES ${PROJECT_SOURCE_DIR}/resources/icons/flexim.svg
          DESTINATION share/icons/hicolor/scalable/apps)
endif()

# ---- generic CPack settings --------------------------------------------------
set(CPACK_PACKAGE_NAME "flexim")
set(CPACK_PACKAGE_VENDOR "Flexim developers")
set(CPACK_PACKAGE_CONTACT "Flexim developers")
set(CPACK_PACKAGE_VERSION "${PROJECT_VERSION}")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "Desktop modeller and simulator for flexible multibody systems")
set(CPACK_PACKAGE_DESCRIPTION
  "Flexim imports finite-element meshes and modal data, reduces them (free-free modes or\
 Craig-Bampton), builds mechanisms of rigid and flexible bodies, joints, drivers, forces,\
 contacts and sensors, simulates them, animates the deformed shapes and exports the results\
 as CSV. Includes the Qt GUI (flexim) and a headless command-line runner (flexim-cli).")
set(CPACK_PACKAGING_INSTALL_PREFIX "/usr")
set(CPACK_STRIP_FILES ON)
set(CPACK_GENERATOR "DEB")

# ---- Debian ------------------------------------------------------------------
set(CPACK_DEBIAN_PACKAGE_NAME "flexim")
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)          # flexim_<version>_<arch>.deb
set(CPACK_DEBIAN_PACKAGE_MAINTAINER "Flexim developers")
set(CPACK_DEBIAN_PACKAGE_SECTION "science")
set(CPACK_DEBIAN_PACKAGE_PRIORITY "optional")
# Mesa's DRI drivers are loaded with dlopen, so dpkg-shlibdeps cannot see them.
set(CPACK_DEBIAN_PACKAGE_RECOMMENDS "libgl1-mesa-dri")
set(CPACK_DEBIAN_PACKAGE_SUGGESTS "calculix-ccx, gmsh, paraview")

# Runtime dependencies: computed by dpkg-shlibdeps (package dpkg-dev) from the installed binaries.
# Without dpkg-shlibdeps, fall back to a hand-written list for Debian 12 (bookworm).
find_program(FLEXIM_DPKG_SHLIBDEPS dpkg-shlibdeps)
if(FLEXIM_DPKG_SHLIBDEPS)
  set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
else()
  message(STATUS "dpkg-shlibdeps not found (install dpkg-dev): the .deb gets a fixed Depends list")
  set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS OFF)
  set(_flexim_deb_depends
    "libc6" "libstdc++6" "libgcc-s1"
    "libsundials-ida6" "libsundials-nvecserial6" "libsundials-sunlinsol3"
    "libsundials-sunmatrix4" "libklu1" "libamd2" "libcolamd2" "libbtf1" "libcholmod3"
    "libsuitesparseconfig5" "libassimp5")
  if(FLEXIM_BUILD_GUI)
    list(APPEND _flexim_deb_depends
      "libqt6core6" "libqt6gui6" "libqt6widgets6" "libqt6opengl6" "libqt6openglwidgets6"
      "libqt6charts6" "libqt6svg6" "libvtk9.1" "libgl1" "libopengl0")
  endif()
  list(JOIN _flexim_deb_depends ", " CPACK_DEBIAN_PACKAGE_DEPENDS)
endif()

include(CPack)

# ---- test: build the .deb and check its contents -------------------------------
if(FLEXIM_BUILD_TESTS)
  add_test(NAME installer_deb
    COMMAND bash ${CMAKE_CURRENT_LIST_DIR}/check_deb.sh
            ${CMAKE_CPACK_COMMAND} ${PROJECT_BINARY_DIR} $<BOOL:${FLEXIM_BUILD_GUI}>)
  # RUN_SERIAL: cpack's preinstall step may relink binaries that other tests are running.
  set_tests_properties(installer_deb PROPERTIES LABELS "installer" TIMEOUT 600 RUN_SERIAL TRUE)
endif()
