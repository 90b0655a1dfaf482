// Free-free normal modes of a sparse symmetric pencil (K, M): shift-invert Lanczos (Spectra)
// on a CHOLMOD supernodal Cholesky factorisation of K - sigma M with a small negative shift
// (a shift at 0 is singular for a free body). Rigid-body modes are detected by their
// near-zero eigenvalues and, on request, replaced by the exact rigid displacement fields.
#pragma once

#include "core/base/diagnostics.h"

#include <Eigen/Core>
#include <Eigen/SparseCore>

#include <vector>

namespace flexim::fe {

struct ModalOptions {
  int elastic_modes = 20;          ///< elastic modes wanted (rigid modes come in addition)
  double max_frequency_hz = 0.0;   ///< > 0: also stop at this frequency (all modes below it)
  double shift = 0.0;              ///< sigma [(rad/s)^2]; 0 = automatic (-1e-7 max(K_ii/M_ii))
  int expected_rigid = 6;          ///< rigid modes of a free body (0 for a supported one)
  bool exact_rigid_modes = true;   ///< replace the computed rigid modes by exact ones
  double tolerance = 1e-10;        ///< Lanczos convergence tolerance
};

struct ModalResult {
  Eigen::VectorXd eigenvalues;   ///< (rad/s)^2, ascending
  Eigen::MatrixXd modes;         ///< ndof x modes, M-normalised (modes^T M modes = I)
  std::vector<bool> rigid;       ///< per mode
  int rigid_count = 0;
  double shift = 0.0;
  long iterations = 0;           ///< Lanczos restarts
  long operations = 0;           ///< factorised solves
  double max_residual = 0.0;     ///< max |K x - lambda M x| / |K x| over elastic modes
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

/// The 6 rigid displacement fields of nodes at `coords` (3 translations, 3 rotations about the
/// centre of mass), M-orthonormalised. Degrees of freedom are node-major (3 per node).
Eigen::MatrixXd rigidBodyModes(const std::vector<Eigen::Vector3d>& coords, const Eigen::SparseMatrix<double>& M);

/// Computes the lowest modes. K and M must be full symmetric (both triangles stored).
bool freeModes(const Eigen::SparseMatrix<double>& K, const Eigen::SparseMatrix<double>& M,
               const std::vector<Eigen::Vector3d>& coords, const ModalOptions& options, ModalResult& out,
               Diagnostics& diag);

/// Modal assurance criterion between two sets of mode shapes (columns), with a mass matrix
/// (or identity if M is empty): MAC_ij = (a_i^T M b_j)^2 / ((a_i^T M a_i)(b_j^T M b_j)).
Eigen::MatrixXd modalAssurance(const Eigen::MatrixXd& a, const Eigen::MatrixXd& b,
                               const Eigen::SparseMatrix<double>& M = {});

}  // namespace flexim::fe
