// Linearization of any model about its static equilibrium (the linearized equations of motion of
// Meijaard's implicitly-defined-strains paper, Sect. 2.6, in the System's coordinates): the mass,
// tangent stiffness (with the reactions' geometric stiffness) and damping matrices of the
// equations M v̇ + Gᵀλ = f, Φ = 0 at the equilibrium, reduced to the independent motions
// Δv = N y (N an orthonormal basis of the constraint Jacobian's null space), and the eigenvalues
// of the state matrix A = [0 I; −M⁻¹K −M⁻¹D]. Undamped models with a symmetric stiffness take
// the symmetric generalized eigenproblem K y = ω² M y instead (more accurate).
#include "core/run/linearization.h"

#include "core/integrators/iteration_matrix.h"
#include "core/system/system.h"

#include <Eigen/Dense>
#include <Eigen/Eigenvalues>

#include <algorithm>
#include <cmath>
#include <numbers>

namespace flexim {

namespace {

/// The dense n × n matrix assembled from blocks (v offsets of the System's blocks).
MatX assembleDense(const System& sys, std::vector<BodyKinematics>& kin, double t, const VecX& lambda, double massScale,
                   double betap, double gammap) {
  MatX out = MatX::Zero(sys.nv(), sys.nv());
  IterationMatrixBlocks blocks(sys);
  blocks.assemble(kin, t, lambda, massScale, betap, gammap, [&](int b1, int b2, const MatX& m) {
    out.block(sys.block(b1).v0, sys.block(b2).v0, m.rows(), m.cols()) += m;
  });
  return out;
}

}  // namespace

LinearizationResult Simulation::linearize(const LinearizeOptions& options) {
  LinearizationResult out;
  const System& sys = *m_system;
  State s;
  VecX lambda;
  StaticOptions statics = options.statics;
  statics.equilibrium = &s;
  statics.multipliers = &lambda;
  out.statics = staticEquilibrium({}, statics);
  if (!out.statics.ok) {
    out.message = "no static equilibrium to linearize about: " + out.statics.message;
    return out;
  }
  std::vector<BodyKinematics> kin;
  sys.kinematics(s, kin);
  const int nv = sys.nv();
  const MatX M = assembleDense(sys, kin, s.t, lambda, 1.0, 0.0, 0.0);
  const MatX K = assembleDense(sys, kin, s.t, lambda, 0.0, 1.0, 0.0);
  const MatX D = assembleDense(sys, kin, s.t, lambda, 0.0, 0.0, 1.0);

  // the velocities the constraints allow: every equality and velocity-level row
  std::vector<ConstraintRows> rows;
  sys.constraints(kin, s.t, rows);
  MatX G = MatX::Zero(sys.nc(), nv);
  const auto& cons = sys.constraints();
  for (std::size_t c = 0; c < cons.size(); ++c) {
    const int r0 = sys.constraintOffsets()[c];
    for (std::size_t k = 0; k < cons[c]->blocks.size(); ++k) {
      const int b = cons[c]->blocks[k];
      if (b >= 0) G.block(r0, sys.block(b).v0, rows[c].G[k].rows(), rows[c].G[k].cols()) += rows[c].G[k];
    }
  }
  if (G.rows() > 0) {
    Eigen::JacobiSVD<MatX> svd(G, Eigen::ComputeFullV);
    const auto& sigma = svd.singularValues();
    const double tol = 1e-10 * std::max(1.0, sigma.size() ? sigma(0) : 0.0);
    int rank = 0;
    while (rank < sigma.size() && sigma(rank) > tol) ++rank;
    out.N = svd.matrixV().rightCols(nv - rank);
  } else {
    out.N = MatX::Identity(nv, nv);
  }
  const int n = int(out.N.cols());
  if (n == 0) {
    out.message = "the model has no degrees of freedom: nothing moves";
    return out;
  }
  out.M = out.N.transpose() * M * out.N;
  out.K = out.N.transpose() * K * out.N;
  out.D = out.N.transpose() * D * out.N;
  out.M = 0.5 * (out.M + out.M.transpose()).eval();
  const Eigen::LLT<MatX> llt(out.M);
  if (llt.info() != Eigen::Success || !(llt.matrixL().toDenseMatrix().diagonal().minCoeff() > 0)) {
    out.message = "the reduced mass matrix is singular: a motion without inertia (a massless body whose motion its "
                  "joints do not fix)";
    return out;
  }
  out.A = MatX::Zero(2 * n, 2 * n);
  out.A.topRightCorner(n, n).setIdentity();
  out.A.bottomLeftCorner(n, n) = -llt.solve(out.K);
  out.A.bottomRightCorner(n, n) = -llt.solve(out.D);

  const double scale = std::max(out.K.norm(), 1e-300);
  const bool symmetric = out.D.norm() <= 1e-12 * std::max(1.0, scale) && (out.K - out.K.transpose()).norm() <= 1e-8 * scale;
  if (symmetric) {
    const Eigen::GeneralizedSelfAdjointEigenSolver<MatX> es(0.5 * (out.K + out.K.transpose()), out.M);
    if (es.info() != Eigen::Success) {
      out.message = "the eigenvalue problem K y = ω² M y did not converge";
      return out;
    }
    for (int i = 0; i < n; ++i) {
      LinearMode mode;
      const double w2 = es.eigenvalues()(i);
      // a negative ω² is an unstable direction: its growth rate as a real eigenvalue
      mode.eigenvalue = w2 >= 0 ? std::complex<double>(0.0, std::sqrt(w2)) : std::complex<double>(std::sqrt(-w2), 0.0);
      mode.shape = out.N * es.eigenvectors().col(i);
      out.modes.push_back(mode);
    }
  } else {
    const Eigen::EigenSolver<MatX> es(out.A);
    if (es.info() != Eigen::Success) {
      out.message = "the eigenvalues of the state matrix did not converge";
      return out;
    }
    for (int i = 0; i < 2 * n; ++i) {
      const std::complex<double> l = es.eigenvalues()(i);
      if (l.imag() < 0) continue;  // one of each conjugate pair
      LinearMode mode;
      mode.eigenvalue = l;
      Eigen::VectorXcd y = es.eigenvectors().col(i).head(n);
      // the phase that makes the largest component real
      Eigen::Index k = 0;
      y.cwiseAbs().maxCoeff(&k);
      if (std::abs(y(k)) > 0) y *= std::abs(y(k)) / y(k);
      mode.shape = out.N * y.real();
      out.modes.push_back(mode);
    }
  }
  for (LinearMode& mode : out.modes) {
    mode.omega = std::abs(mode.eigenvalue);
    mode.frequency = mode.omega / (2 * std::numbers::pi);
    mode.damping_ratio = (mode.omega > 0 ? -mode.eigenvalue.real() / mode.omega : 0.0) + 0.0;  // no "-0"
    const double norm = mode.shape.norm();
    if (norm > 0) mode.shape /= norm;
  }
  std::stable_sort(out.modes.begin(), out.modes.end(),
                   [](const LinearMode& a, const LinearMode& b) { return a.omega < b.omega; });
  out.state = s;
  out.ok = true;
  return out;
}

}  // namespace flexim
