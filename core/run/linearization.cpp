// Linearization of any model about its static equilibrium or a state of a run (the linearized equations of motion of
// Meijaard's implicitly-defined-strains paper, Sect. 2.6, in the System's coordinates): the mass,
// tangent stiffness (with the reactions' geometric stiffness) and damping matrices of the
// equations M v̇ + Gᵀλ = f, Φ = 0 at the equilibrium, reduced to the independent motions
// Δv = N y (N an orthonormal basis of the constraint Jacobian's null space), and the eigenvalues
// of the state matrix A = [0 I; −M⁻¹K −M⁻¹D]. Undamped models with a symmetric stiffness take
// the symmetric generalized eigenproblem K y = ω² M y instead (more accurate).
#include "core/run/linearization.h"

#include "core/integrators/iteration_matrix.h"
#include "core/run/consistency.h"
#include "core/system/system.h"

#include <Eigen/Dense>
#include <Eigen/Eigenvalues>

#include <algorithm>
#include <cmath>
#include <cstdio>
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

/// "BODY.component": the body's block and the component (0..5: translations x, y, z, then
/// rotations about x, y, z). False, with the reason in `why`, when the body or component is unknown.
bool parsePort(const System& sys, const std::string& name, bool input, int& block, int& component, std::string& why) {
  const std::size_t dot = name.rfind('.');
  static const char* forces[] = {"fx", "fy", "fz", "mx", "my", "mz"};
  static const char* motions[] = {"x", "y", "z", "rx", "ry", "rz"};
  const char* const* names = input ? forces : motions;
  const std::string list = input ? "fx, fy, fz, mx, my, mz" : "x, y, z, rx, ry, rz";
  if (dot == std::string::npos) {
    why = std::string(input ? "input" : "output") + " '" + name + "': expected BODY." + names[0] + " (components " + list + ")";
    return false;
  }
  const std::string body = name.substr(0, dot), comp = name.substr(dot + 1);
  block = -1;
  for (int b = 0; b < sys.nblocks(); ++b)
    if (sys.block(b).name == body && sys.block(b).hasFrame()) block = b;
  if (block < 0) {
    why = std::string(input ? "input" : "output") + " '" + name + "': no body '" + body + "'";
    return false;
  }
  component = -1;
  for (int c = 0; c < 6; ++c)
    if (comp == names[c]) component = c;
  if (component < 0) {
    why = std::string(input ? "input" : "output") + " '" + name + "': unknown component '" + comp + "' (" + list + ")";
    return false;
  }
  if (component >= sys.block(block).formulation->frameSize()) {
    why = std::string(input ? "input" : "output") + " '" + name + "': body '" + body + "' is a point: it has no rotation";
    return false;
  }
  return true;
}

/// The inputs' generalized forces (columns of P) and the outputs' rows over the velocity
/// coordinates (rows of Q): translations along the global axes act on [r_dot], rotations on the
/// body-axes angular velocity through A.
bool portMatrices(const System& sys, const std::vector<BodyKinematics>& kin, const LinearizeOptions& options, MatX& P,
                  MatX& Q, std::string& why) {
  P = MatX::Zero(sys.nv(), Eigen::Index(options.inputs.size()));
  Q = MatX::Zero(Eigen::Index(options.outputs.size()), sys.nv());
  for (int pass = 0; pass < 2; ++pass) {
    const auto& names = pass == 0 ? options.inputs : options.outputs;
    for (std::size_t i = 0; i < names.size(); ++i) {
      int b = 0, c = 0;
      if (!parsePort(sys, names[i], pass == 0, b, c, why)) return false;
      const int v0 = sys.block(b).v0;
      Eigen::VectorXd row = Eigen::VectorXd::Zero(sys.nv());
      if (c < 3) row(v0 + c) = 1.0;
      else row.segment<3>(v0 + 3) = kin[b].A.row(c - 3).transpose();  // e_kᵀ A δθ' and Aᵀ e_k
      if (pass == 0) P.col(Eigen::Index(i)) = row;
      else Q.row(Eigen::Index(i)) = row.transpose();
    }
  }
  return true;
}

std::string timeText(double t) {
  char text[32];
  std::snprintf(text, sizeof text, "%.6g", t);
  return text;
}

}  // namespace

Eigen::MatrixXcd frequencyResponse(const LinearizationResult& r, double omega) {
  using Complex = std::complex<double>;
  const Eigen::MatrixXcd dynamic = r.K.cast<Complex>() - omega * omega * r.M.cast<Complex>() + Complex(0, omega) * r.D.cast<Complex>();
  const Eigen::MatrixXcd rhs = (r.N.transpose() * r.P).cast<Complex>();
  return (r.Q * r.N).cast<Complex>() * dynamic.partialPivLu().solve(rhs);
}

bool Simulation::stateAt(double t, State& s, RunSummary& summary) const {
  if (t <= m_system->initialState().t) {  // the consistent initial state, as a run starts
    s = m_system->initialState();
    Consistency cons(*m_system);
    double residual = 0, vres = 0;
    std::string error;
    if (!cons.assemblePositions(s, 1e-12 * modelScale(m_model), 50, residual, error)) {
      summary.message = "initial conditions: " + error;
      return false;
    }
    if (!cons.projectVelocities(s, vres, true)) {
      summary.message = "initial conditions: velocity projection failed";
      return false;
    }
    return true;
  }
  ModelSpec until = m_model;
  until.solver.t_end = t;
  until.solver.output_interval = std::min(until.solver.output_interval, t);
  until.solver.step = std::min(until.solver.step, t);
  Diagnostics diag;
  const auto sim = Simulation::create(until, diag);
  if (!sim) {
    summary.message = diag.str();
    return false;
  }
  RunOptions options;
  options.stoppedAt = &s;
  summary = sim->run({}, options);
  return summary.ok;
}

LinearizationResult Simulation::linearize(const LinearizeOptions& options) {
  LinearizationResult out;
  const System& sys = *m_system;
  State s;
  VecX lambda;
  if (sys.hasUnilateralRows() || !sys.contacts().empty()) {
    out.message = "linearization does not take joint limits or contacts yet (they switch between open and closed)";
    return out;
  }
  for (int pass = 0; pass < 2; ++pass)  // names checked before any solve
    for (const std::string& name : pass == 0 ? options.inputs : options.outputs) {
      int b = 0, c = 0;
      if (!parsePort(sys, name, pass == 0, b, c, out.message)) return out;
    }
  if (std::isfinite(options.at_time)) {
    if (!stateAt(options.at_time, s, out.statics)) {
      out.message = "no state at t = " + timeText(options.at_time) + " s to linearize about: " + out.statics.message;
      return out;
    }
    out.statics.ok = true;
    VecX vdot;
    Consistency consistency(sys);
    if (!consistency.accelerations(s, vdot, lambda)) {
      out.message = "the equations of motion at t = " + timeText(s.t) + " s have no unique solution";
      return out;
    }
  } else {
    StaticOptions statics = options.statics;
    statics.equilibrium = &s;
    statics.multipliers = &lambda;
    out.statics = staticEquilibrium({}, statics);
    if (!out.statics.ok) {
      out.message = "no static equilibrium to linearize about: " + out.statics.message;
      return out;
    }
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
    out.message = "the model has no degrees of freedom: its joints and drivers fix every motion (a driven mechanism "
                  "has no modes; remove the driver to linearize the free mechanism)";
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
  if (!portMatrices(sys, kin, options, out.P, out.Q, out.message)) return out;
  out.inputs = options.inputs;
  out.outputs = options.outputs;
  out.B = MatX::Zero(2 * n, out.P.cols());
  out.B.bottomRows(n) = llt.solve(out.N.transpose() * out.P);
  out.C = MatX::Zero(out.Q.rows(), 2 * n);
  out.C.leftCols(n) = out.Q * out.N;
  out.Dss = MatX::Zero(out.Q.rows(), out.P.cols());

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
  // round-off of the eigensolver: an eigenvalue far below the largest is a rigid motion (zero)
  double largest = 0;
  for (const LinearMode& mode : out.modes) largest = std::max(largest, std::abs(mode.eigenvalue));
  for (LinearMode& mode : out.modes) {
    if (std::abs(mode.eigenvalue) <= 1e-9 * largest) mode.eigenvalue = 0.0;
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
