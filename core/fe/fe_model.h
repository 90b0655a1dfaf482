// The common finite-element model every importer produces and the assembly/reduction consume:
// nodes, elements with types, node/element sets, materials and sections, and optionally
// matrices and modes exported by an FE program. Plain data, SI units assumed (the importers
// do not convert units; the validation report warns when magnitudes look non-SI).
#pragma once

#include <Eigen/Core>
#include <Eigen/SparseCore>

#include <array>
#include <map>
#include <string>
#include <unordered_map>
#include <vector>

namespace flexim::fe {

/// Solid element types. Node order is ALWAYS the Abaqus/CalculiX convention (C3D4, C3D10,
/// C3D8, C3D20; see ../shared/design/FE-FORMATS.md); importers of other conventions (Gmsh,
/// Nastran) map to it explicitly. The R variants use reduced integration.
enum class ElementType { Tet4, Tet10, Hex8, Hex8R, Hex20, Hex20R };

int nodeCount(ElementType t);
const char* abaqusName(ElementType t);  ///< "C3D10", ...
bool fromAbaqusName(const std::string& name, ElementType& out);  ///< case-insensitive

struct Element {
  int id = 0;                ///< id in the source file
  ElementType type = ElementType::Tet4;
  std::array<int, 20> nodes{};  ///< node INDICES (into FeModel::node_ids), first nodeCount(type) used
  int material = -1;         ///< index into FeModel::materials, -1 = unassigned
};

struct Material {
  std::string name;
  double E = 0.0;    ///< Young's modulus [Pa]
  double nu = 0.0;   ///< Poisson's ratio [-]
  double rho = 0.0;  ///< density [kg/m^3]
  bool has_elastic = false, has_density = false;
};

/// Degree of freedom of an exported matrix: node index and component (0 = x, 1 = y, 2 = z).
struct Dof {
  int node = -1;
  int component = 0;
};

struct FeModel {
  // geometry
  std::vector<int> node_ids;                 ///< id in the source file, per node index
  std::vector<Eigen::Vector3d> coords;       ///< [m]
  std::unordered_map<int, int> node_index;   ///< id -> index
  std::vector<Element> elements;
  std::map<std::string, std::vector<int>> node_sets;     ///< name (upper case) -> node indices
  std::map<std::string, std::vector<int>> element_sets;  ///< name (upper case) -> element indices
  std::vector<Material> materials;

  // optional: matrices exported by an FE program (rows/columns described by `dofs`)
  Eigen::SparseMatrix<double> K, M;
  std::vector<Dof> dofs;

  // optional: modes exported by an FE program
  std::vector<double> frequencies_hz;  ///< per mode
  Eigen::MatrixXd modes;               ///< 3 * nodes x modes, node-major (x, y, z per node)

  std::vector<std::string> sources;    ///< files read (for provenance)

  int nodeCount() const { return static_cast<int>(coords.size()); }
  /// Adds a node; returns its index, or -1 if the id exists already.
  int addNode(int id, const Eigen::Vector3d& x);
  /// Index of a node id, or -1.
  int indexOf(int id) const;
};

}  // namespace flexim::fe
