// Reduction of an FE mesh to a ReducedBody: free-free normal modes, or Craig-Bampton with
// interface node sets (static constraint modes plus fixed-interface normal modes), then the
// floating-frame inertia invariants so that nothing in a time step loops over FE nodes.
#pragma once

#include "core/base/diagnostics.h"
#include "core/fe/fe_model.h"
#include "core/fe/modal.h"
#include "core/fe/reduced_body.h"

#include <optional>
#include <string>
#include <vector>

namespace flexim::fe {

/// An interface to build: a node set of the deck (reference point = the nodes' centroid, or the
/// weighted centroid for averaging), or a coupling of the deck (FeModel::couplings) named by its
/// name or by its reference node id (reference point = the reference node, which then moves with
/// the interface's translation).
struct InterfaceSpec {
  std::string set;                            ///< node set or coupling name (case-insensitive), or reference node id
  std::optional<Interface::Kind> kind;        ///< unset: the coupling's own kind; rigid for a node set
  /// The reference point: Default is a coupling's reference node, else the nodes' centroid
  /// (Craig-Bampton averaging interfaces: the area-weighted centroid).
  enum class Reference { Default, Centroid, AreaCentroid, Point, Node };
  Reference reference = Reference::Default;
  Eigen::Vector3d point = Eigen::Vector3d::Zero();  ///< Reference::Point, FE coordinates [m]
  int node_id = 0;                                  ///< Reference::Node: a node id of the mesh
};

/// Reads a reference point as the CLI's --reference and the import wizard take it: "default" (or
/// empty), "centroid", "area-centroid" (also "area centroid", "area-weighted centroid"),
/// "node ID" (also "node:ID"), or "X,Y,Z" in metres. False with a message on anything else.
bool parseInterfaceReference(const std::string& text, InterfaceSpec& spec, std::string& error);
/// The text parseInterfaceReference reads back: "default", "centroid", "area-centroid", "node 12", "0.1,0,0".
std::string interfaceReferenceText(const InterfaceSpec& spec);

struct ReductionOptions {
  enum class Method { FreeFree, CraigBampton };
  Method method = Method::FreeFree;
  int modes = 8;                   ///< elastic (free-free) or fixed-interface (Craig-Bampton) modes
  double max_frequency_hz = 0.0;   ///< > 0: keep every mode below this frequency instead
  std::vector<InterfaceSpec> interfaces;
  bool exact_rigid_modes = true;   ///< free-free: replace computed rigid modes by exact ones
  bool orthonormalise = false;     ///< Craig-Bampton: diagonalise the reduced pencil
  /// The mass the inertia invariants integrate: the consistent element mass, which the modes are
  /// orthonormal in (default), or the lumped (HRZ) nodal masses (the paper's sums over nodes).
  enum class InvariantMass { Consistent, Lumped };
  InvariantMass invariant_mass = InvariantMass::Consistent;
  bool stress_modes = true;        ///< compute the nodal stress of every mode (ReducedBody::stress_modes)
  /// compute the modal geometric stiffness of the stiffening load cases (ReducedBody::geometric_stiffness)
  bool geometric_stiffening = true;
  const Material* material = nullptr;  ///< overrides the mesh's materials when set
  double density = 0.0;                ///< > 0: overrides the density of every material (AssemblyOptions)
};

/// What the reduction measured, for the validation report.
struct ReductionReport {
  ModalResult modal;               ///< free-free or fixed-interface eigen solution
  double mass = 0.0, volume = 0.0; ///< from the element integration
  double lumped_mass = 0.0;        ///< sum of HRZ nodal masses
  double symmetry_error = 0.0;     ///< |K - K^T| / |K|
  Eigen::Vector3d centre_of_mass = Eigen::Vector3d::Zero();  ///< of the invariants' mass
  Eigen::Matrix3d inertia = Eigen::Matrix3d::Zero();  ///< about the centre of mass, of the invariants' mass
  /// What the other mass (lumped when the invariants are consistent, and the reverse) would
  /// change: centre of mass shift [m], relative change of the inertia tensor about the centre of
  /// mass (Frobenius norm), and the largest relative change of an elastic mode's modal mass.
  double other_mass_centre_shift = 0.0, other_mass_inertia_change = 0.0, other_mass_modal_mass_change = 0.0;
  int other_mass_modal_mass_mode = -1;  ///< 0-based mode of that largest change
  double seconds_assembly = 0.0, seconds_eigen = 0.0, seconds_stress = 0.0, seconds_stiffening = 0.0;
  /// The stiffening load cases were solved on the eigen solution's factorisation (free-free;
  /// ModalResult::static_displacements), not on a factorisation of their own.
  bool stiffening_on_eigen_factor = false;
};

/// Reduces `mesh`. Errors name the set/element/material; false when any occurred.
bool reduce(const FeModel& mesh, const ReductionOptions& options, ReducedBody& out, ReductionReport& report,
            Diagnostics& diag);

/// Interface transformation u = T q with q = [free dofs (node order); 6 per interface
/// (translation, rotation of its reference point)].
///  - rigid (RBE2-like): every dof of the interface nodes follows the reference point;
///  - averaging (RBE3-like): the reference motion is the weighted least-squares average of the
///    interface node motions, u_ref = (sum w S^T S)^-1 sum w S^T u_k with S = [I, -(x_k - p)~];
///    6 well-conditioned node dofs (pivoted QR) are eliminated, the others stay free.
/// node_weight: per node (e.g. tributary surface area); empty = equal weights. The reference
/// point of an averaging interface is set to the weighted centroid. Returns false with a
/// message when an averaging interface is degenerate (collinear nodes).
bool interfaceTransform(const std::vector<Eigen::Vector3d>& coords, std::vector<Interface>& interfaces,
                        const std::vector<double>& node_weight, Eigen::SparseMatrix<double>& T, std::string& error);

/// Tributary area of each node on the outer surface (0 for interior nodes).
std::vector<double> surfaceNodeAreas(const FeModel& mesh);

}  // namespace flexim::fe
