// FE assembly: linear-elastic isotropic stiffness, consistent mass and HRZ-lumped mass of a
// solid mesh (fe_model.h), as sparse symmetric matrices. A mesh plus its materials (or one
// override material) is enough; no FE program is needed.
//
// Element formulations and integration rules: element_library.h (notably: C3D8R is integrated
// fully, 2x2x2, instead of CalculiX's 1 point + hourglass control).
#pragma once

#include "core/base/diagnostics.h"
#include "core/fe/fe_model.h"

#include <Eigen/SparseCore>

#include <string>
#include <utility>
#include <vector>

namespace flexim::fe {

struct AssemblyOptions {
  /// M = diagonal HRZ-lumped mass instead of the consistent mass.
  bool lumped = false;
  /// If set, used for every element instead of Element::material (which may then be -1).
  const Material* override_material = nullptr;
  /// > 0: the density [kg/m^3] of every material (of override_material too); E and nu are kept.
  double override_density = 0.0;
  /// Integrate the consistent mass with CalculiX 2.20's points (its stiffness rule: C3D4 1 point,
  /// C3D10 4 points, C3D8R 1 point, C3D20R 2x2x2) instead of rules that are exact for undistorted
  /// elements. Only to reproduce ccx's matrices (they then agree to ~1e-14); lumped_node_mass,
  /// volume and mass always use the exact rules. Beware: these element masses are rank
  /// deficient (C3D10: 4 points for 10 nodes, C3D20R: 8 for 20), so M of a small mesh can be
  /// singular.
  bool ccx_mass_rule = false;
};

struct AssembledMatrices {
  /// 3n x 3n, dofs node-major (3 * node + component), both triangles stored, compressed,
  /// exactly symmetric. Rows/columns of nodes used by no element are empty.
  Eigen::SparseMatrix<double> K, M;
  /// HRZ-lumped mass per node (n entries; always computed, even when M is consistent).
  std::vector<double> lumped_node_mass;
  double volume = 0.0;  ///< sum of element volumes [m^3]
  double mass = 0.0;    ///< sum of rho * element volume [kg]
  double point_mass = 0.0;  ///< translational mass of FeModel::masses [kg] (a one-direction mass counts 1/3)
};

struct JacobianFailure;  // element_library.h

/// "element 12 (C3D10)": how messages name an element.
std::string elementName(const Element& e);

/// What went wrong at a failed Jacobian check, for a message that names the element.
std::string jacobianMessage(const JacobianFailure& f);

/// Per-element errors of one kind: the first 20 are reported in full, the rest counted, and
/// finish() reports how many more there were ("N more elements with <what>").
class ElementErrors {
 public:
  ElementErrors(Diagnostics& diag, std::string what) : m_diag(diag), m_what(std::move(what)) {}
  void add(const Element& e, const std::string& message);
  int count() const { return m_count; }
  /// Reports the uncounted rest; true if there was no error at all.
  bool finish();

 private:
  Diagnostics& m_diag;
  std::string m_what;
  int m_count = 0;
};

/// Every element's node indices are nodes of the mesh; errors name the element (at most 20,
/// the rest counted), false if any is not.
bool checkElementNodes(const FeModel& mesh, Diagnostics& diag);

/// The material of every element as the assembly takes them: the override material or the
/// element's, with AssemblyOptions::override_density applied (`owned` holds what the pointers
/// point to). Every problem is reported as the assembly reports it; false if there was any.
bool resolveMaterials(const FeModel& mesh, const AssemblyOptions& opt, std::vector<const Material*>& mat,
                      std::vector<Material>& owned, Diagnostics& diag);

/// Assembles K and M of every element of `mesh`. Errors (each naming the element, element set
/// or material) are added to `diag`; returns false if there was any, and `out` is then empty:
///  * element without material: "element set X has no *SOLID SECTION/material" (decks; other
///    formats "has no material");
///  * material with E <= 0, nu outside (-1, 0.5), rho <= 0;
///  * non-positive Jacobian determinant at an integration point (inverted, badly ordered or
///    flat element);
///  * node index out of range.
/// Discrete springs and masses (FeModel::springs, masses) are added as value * c c^T; a negative
/// or non-finite value is an error naming the card. Nodes used by no element or spring keep zero
/// rows in K (see active_dofs.h for how the eigen solution leaves them out).
/// Cost O(elements); memory about 12 bytes per stored nonzero of K plus 1/3 of that for M.
bool assemble(const FeModel& mesh, const AssemblyOptions& opt, AssembledMatrices& out, Diagnostics& diag);

}  // namespace flexim::fe
