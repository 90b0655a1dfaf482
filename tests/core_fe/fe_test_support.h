// Shared by the core_fe tests: the fixtures of tests/data/fe (their folder, whether they are
// generated), their steel, and an assembly that reports its diagnostics.
#pragma once

#include "core/fe/assembly.h"

#include <QtTest>

#include <fstream>
#include <map>
#include <string>
#include <vector>

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

/// Nodal values of the last result block called `name` ("DISP", "STRESS", ...) of a CalculiX
/// ASCII .frd in the layout ccx writes (format 1: " -1", the node id in I10, then up to 6 E12.5
/// values per record): node id -> its values. Empty if there is no such block. For static results, which io::readCalculixFrd
/// does not keep.
inline std::map<int, std::vector<double>> readFrdNodalBlock(const std::string& path, const std::string& name) {
  std::ifstream f(path);
  std::map<int, std::vector<double>> out, block;
  std::string line;
  bool in = false;
  while (std::getline(f, line)) {
    if (line.rfind(" -4", 0) == 0) {
      const std::size_t end = 5 + name.size();
      in = line.size() >= end && line.compare(5, name.size(), name) == 0 && (line.size() == end || line[end] == ' ');
      block.clear();
    } else if (in && line.rfind(" -1", 0) == 0 && line.size() >= 13) {
      std::vector<double>& v = block[std::stoi(line.substr(3, 10))];
      for (std::size_t p = 13; p + 12 <= line.size(); p += 12) v.push_back(std::stod(line.substr(p, 12)));
    } else if (in && line.rfind(" -3", 0) == 0) {
      out = block;
      in = false;
    }
  }
  return out;
}

inline /// Corner nodes of an element type; the others are mid-edge nodes.
int cornerCount(ElementType t) {
  switch (t) {
    case ElementType::Tet4:
    case ElementType::Tet10: return 4;
    case ElementType::Wedge6:
    case ElementType::Wedge15: return 6;
    case ElementType::Pyramid5:
    case ElementType::Pyramid13: return 5;
    default: return 8;
  }
}

}  // namespace flexim::fe::test
