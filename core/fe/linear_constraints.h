// Linear multipoint constraints (FeModel::constraints: *EQUATION, *TIE, MPC) applied by
// master-slave elimination: each constraint expresses one of its dofs (its first term's, as
// CalculiX and Nastran choose the dependent dof, unless that one is already taken) by the others,
// so the dofs become u = T q with q the dofs that remain. K and M become T^T K T and T^T M T: the
// tied parts act as one body and the eigenproblem stays symmetric positive semidefinite, without
// Lagrange multipliers.
#pragma once

#include "core/base/diagnostics.h"
#include "core/fe/active_dofs.h"
#include "core/fe/fe_model.h"
#include "core/fe/modal.h"

#include <Eigen/SparseCore>

#include <optional>
#include <string>
#include <vector>

namespace flexim::fe {

struct Elimination {
  Eigen::SparseMatrix<double> T;  ///< coordinates x kept: u = T q
  std::vector<int> kept;          ///< column of T -> coordinate
  int eliminated = 0;             ///< coordinates expressed by others
  int redundant = 0;              ///< constraints the others already imply (left out)
};

/// Eliminates the rows of G (one constraint per row, over some coordinates) in turn. `dependent`:
/// per row, the coordinate to eliminate when it can (-1: the one with the largest coefficient);
/// `eliminable`: per coordinate, whether it may be eliminated (Craig-Bampton: not the interfaces'
/// six). `scale`: per row, the size of its terms before G was formed as a product (empty: G's
/// own); a row that cancels to round-off of it is implied by the others. Returns -1, or the row of
/// a constraint none of whose coordinates can be eliminated.
int eliminate(const Eigen::SparseMatrix<double>& G, const std::vector<int>& dependent,
              const std::vector<char>& eliminable, Elimination& out, const std::vector<double>& scale = {});

/// The mesh's constraints as rows over its 3 n node-major dofs; `first`: each row's first dof.
Eigen::SparseMatrix<double> constraintRows(const FeModel& mesh, std::vector<int>& first);

/// The mesh's constraints eliminated over its node-major dofs (every dof may be the dependent one;
/// a constraint's first dof is when it can).
Elimination eliminateConstraints(const FeModel& mesh);

/// The linear constraints that apply a coupling of the deck which is not an interface, as the FE
/// program applies it: rigid (RBE2, *RIGID BODY, *KINEMATIC): its nodes and its reference node
/// move as one rigid body (three independent nodes span the motion; the rest follow it);
/// averaging (RBE3, *DISTRIBUTING): the reference node's translation follows the weighted rigid
/// fit of its nodes. Solid nodes have no rotations, so the reference node's are not constrained.
/// Empty with `why` set when it cannot be applied (rigid nodes on one line).
std::vector<LinearConstraint> couplingConstraints(const FeModel& mesh, const Coupling& coupling, std::string& why);

/// The mesh with every coupling not named in `interfaces` added to its constraints (a note each),
/// or nothing when there is none to add.
std::optional<FeModel> withCouplingsApplied(const FeModel& mesh, const std::vector<std::string>& interfaces,
                                            Diagnostics& diag);

/// An error naming the constraints that a rigid motion of the mesh violates (they hold the body
/// like a support, which a free body cannot have); "" when every constraint allows rigid motion.
std::string supportingConstraints(const FeModel& mesh);

/// Free modes of the assembled (K, M) of `mesh` (node-major dofs) with its linear constraints
/// eliminated; the modes come back on every dof, the dependent ones following their constraints.
/// Without constraints, freeModesOfActive (active_dofs.h) on the active dofs.
bool freeModesOfMesh(const FeModel& mesh, const Eigen::SparseMatrix<double>& K, const Eigen::SparseMatrix<double>& M,
                     const ModalOptions& options, ModalResult& out, Diagnostics& diag);

}  // namespace flexim::fe
