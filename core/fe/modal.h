// Free-free normal modes of a sparse symmetric pencil (K, M): shift-invert block Lanczos (then,
// on a retry, Spectra's restarted Lanczos) on a CHOLMOD supernodal Cholesky factorisation of
// K - sigma M with a small negative shift
// (a shift at 0 is singular for a free body). Rigid-body modes are detected by their
// near-zero eigenvalues and, on request, replaced by the exact rigid displacement fields.
//
// No wrong mode is returned (docs/fe-eigensolver.md): K and M are scaled to unit diagonal
// means first (the result does not depend on the unit system), every elastic mode's residual
// |K x - lambda M x| / max(|K x|, |lambda M x|) must be below ModalOptions::residual_tolerance,
// and a Sturm count (the negative pivots of an LDL^T factorisation of K - s M, s between the two
// highest eigenvalues computed) must equal the number of eigenvalues found below s, so that none
// is missing. A failed check is retried with more Lanczos vectors and another shift; if it still
// fails, freeModes fails and names the modes.
#pragma once

#include "core/base/diagnostics.h"

#include <Eigen/Core>
#include <Eigen/SparseCore>

#include <functional>
#include <vector>

namespace flexim::fe {

struct ModalOptions {
  int elastic_modes = 20;          ///< elastic modes wanted (rigid modes come in addition)
  double max_frequency_hz = 0.0;   ///< > 0: also stop at this frequency (all modes below it)
  double shift = 0.0;              ///< sigma [(rad/s)^2]; 0 = automatic (-1e-7 max(K_ii/M_ii))
  int expected_rigid = 6;          ///< rigid modes of a free body (0 for a supported one)
  bool exact_rigid_modes = true;   ///< replace the computed rigid modes by exact ones
  double tolerance = 1e-10;        ///< Lanczos convergence tolerance
  /// Right-hand sides per solve of the first attempt's block Lanczos (block_lanczos.h); 0: Spectra's
  /// restarted single-vector Lanczos from the start (retries always use it).
  int lanczos_block = 4;
  double residual_tolerance = 1e-6;  ///< largest accepted relative residual of a mode
  /// The residual may also be up to this many times what rounding alone leaves in it (modal.cpp;
  /// a low mode of a slender body); 0 = the tolerance alone.
  double roundoff_factor = 10.0;
  /// Makes static loads on the pencil's dofs (columns), each balanced (no component on the rigid
  /// fields but rounding, which is taken out): K U = F is also solved, on the shift-invert factor
  /// before it is freed (ModalResult::static_displacements). Called once, after the Lanczos
  /// iteration, so that the loads are not held through the factorisation, the memory's peak. Empty
  /// (or returning an empty matrix): none.
  std::function<Eigen::MatrixXd()> static_loads;
};

struct ModalResult {
  Eigen::VectorXd eigenvalues;   ///< (rad/s)^2, ascending
  Eigen::MatrixXd modes;         ///< ndof x modes, M-normalised (modes^T M modes = I)
  std::vector<bool> rigid;       ///< per mode
  int rigid_count = 0;
  double shift = 0.0;
  long iterations = 0;           ///< Lanczos restarts
  long operations = 0;           ///< factorised solves (one per right-hand side)
  long block_solves = 0;         ///< calls that solved a block of right-hand sides at once
  int factorisations = 0;        ///< factorisations of K - sigma M for the Lanczos iteration
  double max_residual = 0.0;     ///< max residual (see the file comment) over elastic modes
  std::vector<double> residuals;  ///< per mode (0 for exact rigid modes)
  double sturm_shift = 0.0;       ///< (rad/s)^2: the Sturm check counted the eigenvalues below it
  int sturm_count = -1;           ///< eigenvalues below sturm_shift by the factorisation's inertia (-1: not checked)
  int attempts = 0;               ///< Lanczos runs (1 unless a check failed and was retried)
  int parts = 1;                  ///< parts of a free mesh that nothing connects (six rigid modes each)
  int condensed = 0;              ///< massless dofs condensed statically (active_dofs.h)
  /// K U = ModalOptions::static_loads with no rigid part (U M-orthogonal to the rigid fields), by
  /// conjugate gradients preconditioned with the shift-invert factor: (K - sigma M)^-1 with the
  /// rigid fields deflated has the eigenvalues lambda / (lambda - sigma) on K's range, all near 1
  /// for the small shift. Empty when not solved so (no loads, the dense path, no exact rigid
  /// fields, several parts, massless dofs condensed, a load on a dof left out of the eigen
  /// solution, or no convergence); the caller then solves on its own.
  Eigen::MatrixXd static_displacements;
  int static_iterations = 0;      ///< conjugate-gradient iterations (the most any column took)
  /// Wall time of the solution's phases [s], summed over the attempts.
  struct Seconds {
    double factorise = 0.0;       ///< factorisations of K - sigma M for the iteration
    double iterate = 0.0;         ///< the Lanczos iterations (their solves included)
    double residuals = 0.0;       ///< check 1
    double sturm = 0.0;           ///< check 2: forming K - s M and its LDL^T factorisation
    double statics = 0.0;         ///< the static loads' solution
  } seconds;
  std::vector<double> frequenciesHz() const;
};

/// Mass, centre of mass and inertia about it, from a mass matrix and the rigid displacement
/// fields (exact for a consistent mass integrated exactly; what a lumped mass really carries
/// otherwise).
struct MassProperties {
  double mass = 0.0;
  Eigen::Vector3d centre = Eigen::Vector3d::Zero();
  Eigen::Matrix3d inertia = Eigen::Matrix3d::Zero();  ///< about the centre of mass
};
MassProperties massProperties(const std::vector<Eigen::Vector3d>& coords, const Eigen::SparseMatrix<double>& M);

/// Where a degree of freedom of a pencil acts: its node (index into the coordinates) and direction
/// (0 = x, 1 = y, 2 = z). A full mesh is node-major (3 per node); a pencil on some of the dofs
/// (the active ones, or the independent ones of linear constraints) lists its own.
struct DofPlace {
  int node = -1;
  int component = 0;
};
/// 3 per node, node-major.
std::vector<DofPlace> nodeMajorPlaces(std::size_t nodes);

/// The 6 rigid displacement fields of nodes at `coords` (3 translations, 3 rotations about the
/// centre of mass), M-orthonormalised. Degrees of freedom are node-major (3 per node).
Eigen::MatrixXd rigidBodyModes(const std::vector<Eigen::Vector3d>& coords, const Eigen::SparseMatrix<double>& M);

/// The part of each dof in the graph of K and M: dofs joined by no entry of either matrix,
/// directly or through others, nor by sharing a node, are in different parts. `parts` is their
/// count.
std::vector<int> dofParts(const Eigen::SparseMatrix<double>& K, const Eigen::SparseMatrix<double>& M,
                          const std::vector<DofPlace>& places, int& parts);

/// The rigid fields of each part on its own (up to six M-orthonormal columns per part, about the
/// part's centroid; fewer when the part cannot move in some rigid direction), on the dofs `places`.
Eigen::MatrixXd rigidBodyModesOfParts(const std::vector<Eigen::Vector3d>& coords, const std::vector<DofPlace>& places,
                                      const Eigen::SparseMatrix<double>& M, const std::vector<int>& part, int parts);

/// Computes the lowest modes. K and M are symmetric, and only their lower triangles are read: they
/// may be stored whole or as their lower triangles (keepLowerTriangle, half the memory). A free mesh
/// (expected_rigid 6) in several parts gets six rigid modes per part, and elastic_modes on top.
/// `places` says where each dof acts (empty: no geometry, no exact rigid fields).
bool freeModes(const Eigen::SparseMatrix<double>& K, const Eigen::SparseMatrix<double>& M,
               const std::vector<Eigen::Vector3d>& coords, const std::vector<DofPlace>& places,
               const ModalOptions& options, ModalResult& out, Diagnostics& diag);
/// The same on node-major dofs (3 per node at `coords`; coords empty: no geometry).
bool freeModes(const Eigen::SparseMatrix<double>& K, const Eigen::SparseMatrix<double>& M,
               const std::vector<Eigen::Vector3d>& coords, const ModalOptions& options, ModalResult& out,
               Diagnostics& diag);

/// Modal assurance criterion between two sets of mode shapes (columns), with a mass matrix
/// (or identity if M is empty): MAC_ij = (a_i^T M b_j)^2 / ((a_i^T M a_i)(b_j^T M b_j)).
Eigen::MatrixXd modalAssurance(const Eigen::MatrixXd& a, const Eigen::MatrixXd& b,
                               const Eigen::SparseMatrix<double>& M = {});

}  // namespace flexim::fe
