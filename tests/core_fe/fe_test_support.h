// Shared by the core_fe tests: the fixtures of tests/data/fe (their folder, whether they are
// generated), their steel, and an assembly that reports its diagnostics.
#pragma once

#include "core/fe/assembly.h"

#include <QtTest>

#include <fstream>
#include <string>

namespace flexim::fe::test {

inline const std::string kData = FLEXIM_SOURCE_DIR "/tests/data/fe/";

/// The fixtures are generated (tests/data/fe/README.md starts "FIXTURES READY").
inline bool fixturesReady() {
  std::ifstream f(kData + "README.md");
  std::string first;
  std::getline(f, first);
  return first.rfind("FIXTURES READY", 0) == 0;
}

constexpr double kE = 2.1e11, kNu = 0.3, kRho = 7850.0;  // [Pa], [-], [kg/m^3]

inline Material steel() {
  Material m;
  m.name = "STEEL";
  m.E = kE;
  m.nu = kNu;
  m.rho = kRho;
  m.has_elastic = m.has_density = true;
  return m;
}

/// K and M of m; on failure a warning with the diagnostics, and empty matrices.
inline AssembledMatrices assembleOrFail(const FeModel& m, const AssemblyOptions& opt = {}) {
  AssembledMatrices out;
  Diagnostics diag;
  if (!assemble(m, opt, out, diag)) qWarning("%s", diag.str().c_str());
  return out;
}

/// The same with CalculiX's mass rule (ccxMass) or ours.
inline AssembledMatrices assembleOrFail(const FeModel& m, bool ccxMass) {
  AssemblyOptions opt;
  opt.ccx_mass_rule = ccxMass;
  return assembleOrFail(m, opt);
}

}  // namespace flexim::fe::test
