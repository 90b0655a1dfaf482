#include "core/base/versions.h"

#include <Eigen/Core>
#include <SuiteSparse_config.h>
#include <dmumps_c.h>
#include <sundials/sundials_config.h>

namespace flexim {

std::vector<std::pair<std::string, std::string>> solverLibraryVersions() {
  const auto dotted = [](int a, int b, int c) {
    return std::to_string(a) + "." + std::to_string(b) + "." + std::to_string(c);
  };
  return {
      {"Eigen", dotted(EIGEN_WORLD_VERSION, EIGEN_MAJOR_VERSION, EIGEN_MINOR_VERSION)},
      {"SUNDIALS", SUNDIALS_VERSION},
      {"SuiteSparse", dotted(SUITESPARSE_MAIN_VERSION, SUITESPARSE_SUB_VERSION, SUITESPARSE_SUBSUB_VERSION)},
      {"MUMPS", MUMPS_VERSION},
  };
}

}  // namespace flexim
