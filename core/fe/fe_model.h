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
/// C3D8, C3D20, C3D6, C3D15; see docs/fe-support.md); importers of other
/// conventions (Gmsh, Nastran) map to it explicitly. The R variants use reduced integration,
/// C3D8I has incompatible modes. Pyramids (C3D5, C3D13: CalculiX 2.20 has none; the names are
/// the ones Abaqus-style converters use) follow Nastran's CPYRAM order: base 1-2-3-4, apex 5,
/// then the mid-edge nodes of 1-2, 2-3, 3-4, 4-1, 1-5, 2-5, 3-5, 4-5.
enum class ElementType { Tet4, Tet10, Hex8, Hex8R, Hex20, Hex20R, Wedge6, Wedge15, Hex8I, Pyramid5, Pyramid13 };

int nodeCount(ElementType t);
const char* abaqusName(ElementType t);  ///< "C3D10", ...
bool fromAbaqusName(const std::string& name, ElementType& out);  ///< case-insensitive
/// "C3D4, C3D10, ...": every supported name, for messages.
std::string abaqusNames();

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

/// The one check of elastic constants, for every reader and the assembly alike: "" when E > 0 and
/// -1 < nu < 0.5 (both finite), else what is wrong ("Poisson's ratio nu = 0.6 must be in (-1, 0.5)").
/// Readers report it as a warning at the file's line (the material may be overridden at import);
/// the assembly refuses a material an element uses with it as an error.
std::string elasticProblem(double E, double nu);
/// The same for a density: "" when rho > 0 and finite.
std::string densityProblem(double rho);
/// Both checks of a whole material given by hand (`--material`, the import wizard's fields): the
/// first problem found, "" when the material is usable.
std::string materialProblem(double E, double nu, double rho);

/// Degree of freedom of an exported matrix: node index and component (0 = x, 1 = y, 2 = z).
struct Dof {
  int node = -1;
  int component = 0;
};

/// One degree of freedom of a discrete element: node index, component (0 = x, 1 = y, 2 = z) and
/// its coefficient in the element's "strain" c (see Discrete).
struct DiscreteTerm {
  int node = -1;
  int component = 0;
  double coefficient = 1.0;
};

/// A discrete (lumped) stiffness or mass: adds value * c c^T to K or M, c = sum of coefficient *
/// unit dof. A point mass m is three of them (one per direction); a spring k between nodes a and
/// b along the unit vector n is one with c = n at a and -n at b; a scalar spring (CELAS, SPRING2)
/// is c = e_i at a - e_j at b; a grounded one has terms on one node only. Only translational
/// DOFs exist in the solid model: rotational parts are dropped by the importers (with a warning).
struct Discrete {
  std::string label;               ///< for messages, e.g. "CONM2 12", "element 7 (MASS)"
  double value = 0.0;              ///< stiffness [N/m] or mass [kg]
  std::vector<DiscreteTerm> terms;
};

/// Rotary inertia the deck puts on a node (ROTARYI, CONM2 I11.., CONM1 rotational block). Solid
/// nodes have no rotational DOF, so it is not in M; kept for the report (and for coupling
/// reference nodes, once couplings are imported).
struct RotaryInertia {
  std::string label;
  int node = -1;
  Eigen::Matrix3d J = Eigen::Matrix3d::Zero();  ///< about the node [kg m^2]
};

/// A coupling the deck defines between a reference node and nodes of the mesh: Nastran RBE2 and
/// CalculiX *RIGID BODY / *COUPLING with *KINEMATIC are rigid, RBE3 and *COUPLING with
/// *DISTRIBUTING are averaging. It is not put into K or M: it can be chosen as a Craig-Bampton
/// interface (by name or by reference node), otherwise it is reported as a change of the model.
struct Coupling {
  std::string name;         ///< upper case, as a user names it: "RBE2 12", "RBE3 7", the
                            ///< *COUPLING's CONSTRAINT NAME, "RIGID BODY <NSET or ELSET>"
  bool rigid = true;        ///< rigid (RBE2-like) or averaging (RBE3-like)
  int reference_node = -1;  ///< node index of the reference (REF NODE, RBE2 GN, RBE3 REFGRID)
  std::vector<int> nodes;   ///< attached node indices (dependent nodes, without the reference)
  std::vector<double> weights;  ///< averaging: weight per attached node (RBE3 WT); empty = equal
  std::string where;        ///< "file:line" of its definition, for messages
};

/// A linear multipoint constraint among translational dofs: sum of coefficient * u(node,
/// component) = 0 (CalculiX *EQUATION, a *TIE's slave node on its master face, Nastran MPC). The
/// first term's dof is the one the constraint eliminates when it can (the dependent dof, as both
/// programs choose it).
struct LinearConstraint {
  std::string label;  ///< for messages: "*EQUATION", "TIE T1, slave node 12", "MPC 5"
  std::string where;  ///< "file:line" of its definition
  std::vector<DiscreteTerm> terms;
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
  std::vector<Discrete> masses;    ///< point and scalar masses (into M)
  std::vector<Discrete> springs;   ///< springs (into K)
  std::vector<RotaryInertia> rotary_inertias;  ///< not in M (no rotational DOFs)
  std::vector<Coupling> couplings; ///< interface candidates (not in K or M)
  std::vector<LinearConstraint> constraints;  ///< applied in the eigen solutions (linear_constraints.h)

  // optional: matrices exported by an FE program (rows/columns described by `dofs`)
  Eigen::SparseMatrix<double> K, M;
  std::vector<Dof> dofs;

  // optional: modes exported by an FE program
  std::vector<double> frequencies_hz;  ///< per mode
  Eigen::MatrixXd modes;               ///< 3 * nodes x modes, node-major (x, y, z per node)

  std::vector<std::string> sources;    ///< files read (for provenance)
  /// What the importer skipped although it changes the answer (a *TIE, an RBE2 not used as an
  /// interface, ...), one short phrase each: `info` ends with "the reduced model differs from the
  /// deck: ..." when this is not empty.
  std::vector<std::string> model_changes;
  /// Displacement coordinate system of each node (Nastran GRID CD): its id (0 = basic) and the
  /// directions of the node's x, y, z DOFs in the basic system (columns; cylindrical and
  /// spherical systems taken at the node). Coordinates, K, M and modes stay in the basic system;
  /// these are for the directions of interface DOFs. Both empty when every node uses the basic
  /// system, else one entry per node.
  std::vector<int> node_cd;
  std::vector<Eigen::Matrix3d> node_cd_axes;

  int nodeCount() const { return static_cast<int>(coords.size()); }
  /// Adds a node; returns its index, or -1 if the id exists already.
  int addNode(int id, const Eigen::Vector3d& x);
  /// Index of a node id, or -1.
  int indexOf(int id) const;
};

/// Material data the elements need and the file does not give (for the importer's caller to ask
/// for: `--material` / `--density` on the command line, the material fields of the import wizard).
struct MissingMaterialData {
  bool unassigned = false;               ///< elements without a material, and no material defined
  std::vector<std::string> no_elastic;   ///< used materials without E and nu
  std::vector<std::string> no_density;   ///< used materials without a density
  bool any() const { return unassigned || !no_elastic.empty() || !no_density.empty(); }
};
MissingMaterialData missingMaterialData(const FeModel& mesh);

}  // namespace flexim::fe
