// Versions of the libraries the solver is built with, for `flexim-cli --version`, Help > About and
// reports: a result should say what computed it.
#pragma once

#include <string>
#include <utility>
#include <vector>

namespace flexim {

/// (library, version) of Eigen, SUNDIALS, SuiteSparse and MUMPS, as compiled in.
std::vector<std::pair<std::string, std::string>> solverLibraryVersions();

}  // namespace flexim
