// Degrees of freedom that take part in an eigen solution: those with stiffness. Nodes outside
// every element and spring (reference nodes of couplings, nodes of skipped cards, Gmsh geometry
// points) have empty rows in K, and in M unless a point mass sits on them: K - sigma M would be
// singular, or their masses would float free as extra zero-frequency modes. They are left out of
// the eigenproblem and move with the body frame: zero elastic displacement in every mode, the
// rigid field in the rigid-body modes. Their point masses stay in the lumped nodal masses, so
// the reduced body's mass, centre of mass and inertia still count them (as rigidly attached).
#pragma once

#include "core/base/diagnostics.h"
#include "core/fe/fe_model.h"
#include "core/fe/modal.h"

#include <Eigen/SparseCore>

#include <vector>

namespace flexim::fe {

struct ActiveDofs {
  std::vector<int> full;           ///< active dof -> dof of the full matrices
  std::vector<int> index;          ///< dof of the full matrices -> active dof, or -1
  std::vector<int> orphan_nodes;   ///< nodes none of whose dofs has stiffness (only when rows = 3 * nodes)
  std::vector<double> orphan_mass; ///< the point mass on each of them [kg] (trace of its M block / 3)
  std::vector<int> partial_nodes;  ///< nodes with stiffness in some directions only (one-way springs)
  double left_out_mass = 0.0;      ///< trace of M over the left-out dofs / 3 [kg]
  bool all() const { return full.size() == index.size(); }
};

/// Active dofs of (K, M): K_ii > 0. `nodes` is the node count when the dofs are node-major
/// (3 per node), else 0 (a matrix set without geometry: no node lists).
ActiveDofs activeDofs(const Eigen::SparseMatrix<double>& K, const Eigen::SparseMatrix<double>& M, int nodes);

/// A(active, active).
Eigen::SparseMatrix<double> restrictToActive(const Eigen::SparseMatrix<double>& A, const ActiveDofs& a);

/// A note listing the left-out nodes by id (the first 10 and a count), and a warning when point
/// masses sit on them (they are not in the modes). Nothing when every dof is active.
void noteLeftOut(const FeModel& mesh, const ActiveDofs& a, Diagnostics& diag);

/// freeModes (modal.h) with the massless dofs that have stiffness (the free ends of springs)
/// condensed statically (Guyan) first; their rows of the modes follow from the others. `places`
/// says where each dof of K acts (empty: no geometry).
bool freeModesCondensingMassless(const Eigen::SparseMatrix<double>& K, const Eigen::SparseMatrix<double>& M,
                                 const std::vector<Eigen::Vector3d>& coords, const std::vector<DofPlace>& places,
                                 const ModalOptions& options, ModalResult& out, Diagnostics& diag);

/// freeModesCondensingMassless on the active dofs only; modes come back on every dof of K: zero on the
/// left-out dofs, the rigid field on them in rigid-body modes (when the places are known). The
/// modes are M-normalised on the active dofs.
bool freeModesOfActive(const Eigen::SparseMatrix<double>& K, const Eigen::SparseMatrix<double>& M,
                       const std::vector<Eigen::Vector3d>& coords, const std::vector<DofPlace>& places,
                       const ModalOptions& options, const ActiveDofs& a, ModalResult& out, Diagnostics& diag);
/// The same on node-major dofs (3 per node at `coords`; coords empty: no geometry).
bool freeModesOfActive(const Eigen::SparseMatrix<double>& K, const Eigen::SparseMatrix<double>& M,
                       const std::vector<Eigen::Vector3d>& coords, const ModalOptions& options, const ActiveDofs& a,
                       ModalResult& out, Diagnostics& diag);

}  // namespace flexim::fe
