// Reduction of an FE mesh to a ReducedBody: free-free normal modes, or Craig-Bampton with
// interface node sets (static constraint modes plus fixed-interface normal modes), then the
// floating-frame inertia invariants so that nothing in a time step loops over FE nodes.
#pragma once

#include "core/base/diagnostics.h"
#include "core/fe/fe_model.h"
#include "core/fe/modal.h"
#include "core/fe/reduced_body.h"

#include <string>
#include <vector>

namespace flexim::fe {

struct InterfaceSpec {
  std::string set;                            ///< node set name (case-insensitive)
  Interface::Kind kind = Interface::Kind::Rigid;
};

struct ReductionOptions {
  enum class Method { FreeFree, CraigBampton };
  Method method = Method::FreeFree;
  int modes = 8;                   ///< elastic (free-free) or fixed-interface (Craig-Bampton) modes
  double max_frequency_hz = 0.0;   ///< > 0: keep every mode below this frequency instead
  std::vector<InterfaceSpec> interfaces;
  bool exact_rigid_modes = true;   ///< free-free: replace computed rigid modes by exact ones
  bool orthonormalise = false;     ///< Craig-Bampton: diagonalise the reduced pencil
  const Material* material = nullptr;  ///< overrides the mesh's materials when set
};

/// What the reduction measured, for the validation report.
struct ReductionReport {
  ModalResult modal;               ///< free-free or fixed-interface eigen solution
  double mass = 0.0, volume = 0.0; ///< from the element integration
  double lumped_mass = 0.0;        ///< sum of HRZ nodal masses
  double symmetry_error = 0.0;     ///< |K - K^T| / |K|
  Eigen::Vector3d centre_of_mass = Eigen::Vector3d::Zero();
  Eigen::Matrix3d inertia = Eigen::Matrix3d::Zero();  ///< about the centre of mass (lumped)
  double seconds_assembly = 0.0, seconds_eigen = 0.0;
};

/// Reduces `mesh`. Errors name the set/element/material; false when any occurred.
bool reduce(const FeModel& mesh, const ReductionOptions& options, ReducedBody& out, ReductionReport& report,
            Diagnostics& diag);

/// Rigid interface transformation: full displacements u = T q, q = [interior node dofs (3 per
/// node, in node order); 6 per interface (translation, rotation of its reference point)].
/// interior receives the node indices that keep their own dofs.
Eigen::SparseMatrix<double> rigidInterfaceTransform(const std::vector<Eigen::Vector3d>& coords,
                                                    const std::vector<Interface>& interfaces,
                                                    std::vector<int>& interior);

}  // namespace flexim::fe
