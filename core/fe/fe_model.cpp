#include "core/fe/fe_model.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <sstream>

namespace flexim::fe {

namespace {
struct TypeInfo {
  ElementType type;
  const char* name;
  int nodes;
};
constexpr std::array<TypeInfo, 11> kTypes{{
    {ElementType::Tet4, "C3D4", 4},
    {ElementType::Tet10, "C3D10", 10},
    {ElementType::Hex8, "C3D8", 8},
    {ElementType::Hex8R, "C3D8R", 8},
    {ElementType::Hex20, "C3D20", 20},
    {ElementType::Hex20R, "C3D20R", 20},
    {ElementType::Wedge6, "C3D6", 6},
    {ElementType::Wedge15, "C3D15", 15},
    {ElementType::Hex8I, "C3D8I", 8},
    {ElementType::Pyramid5, "C3D5", 5},
    {ElementType::Pyramid13, "C3D13", 13},
}};
}  // namespace

int nodeCount(ElementType t) {
  for (const auto& i : kTypes)
    if (i.type == t) return i.nodes;
  return 0;
}

const char* abaqusName(ElementType t) {
  for (const auto& i : kTypes)
    if (i.type == t) return i.name;
  return "?";
}

bool fromAbaqusName(const std::string& name, ElementType& out) {
  std::string upper(name);
  std::transform(upper.begin(), upper.end(), upper.begin(), [](unsigned char c) { return std::toupper(c); });
  for (const auto& i : kTypes)
    if (upper == i.name) {
      out = i.type;
      return true;
    }
  return false;
}

std::string abaqusNames() {
  std::string s;
  for (const auto& i : kTypes) s += (s.empty() ? "" : ", ") + std::string(i.name);
  return s;
}

int FeModel::addNode(int id, const Eigen::Vector3d& x) {
  if (node_index.count(id)) return -1;
  const int index = nodeCount();
  node_ids.push_back(id);
  coords.push_back(x);
  node_index.emplace(id, index);
  return index;
}

int FeModel::indexOf(int id) const {
  const auto it = node_index.find(id);
  return it == node_index.end() ? -1 : it->second;
}

MissingMaterialData missingMaterialData(const FeModel& mesh) {
  MissingMaterialData missing;
  std::vector<char> used(mesh.materials.size(), 0);
  bool unassigned = false;
  for (const Element& e : mesh.elements) {
    if (e.material >= 0 && std::size_t(e.material) < used.size()) used[std::size_t(e.material)] = 1;
    unassigned = unassigned || e.material < 0;
  }
  missing.unassigned = mesh.materials.empty() && unassigned;
  for (std::size_t i = 0; i < used.size(); ++i) {
    if (!used[i]) continue;
    if (!mesh.materials[i].has_elastic) missing.no_elastic.push_back(mesh.materials[i].name);
    if (!mesh.materials[i].has_density) missing.no_density.push_back(mesh.materials[i].name);
  }
  return missing;
}

namespace {
std::string shortNumber(double v) {
  std::ostringstream s;
  s.precision(6);
  s << v;
  return s.str();
}
}  // namespace

std::string elasticProblem(double E, double nu) {
  if (!(E > 0.0) || !std::isfinite(E)) return "Young's modulus E = " + shortNumber(E) + " must be > 0";
  if (!(nu > -1.0 && nu < 0.5)) return "Poisson's ratio nu = " + shortNumber(nu) + " must be in (-1, 0.5)";
  return {};
}

std::string densityProblem(double rho) {
  if (!(rho > 0.0) || !std::isfinite(rho)) return "density rho = " + shortNumber(rho) + " must be > 0";
  return {};
}

std::string materialProblem(double E, double nu, double rho) {
  std::string problem = elasticProblem(E, nu);
  return problem.empty() ? densityProblem(rho) : problem;
}

}  // namespace flexim::fe
