#include "core/integrators/contact_solver.h"

#include <Eigen/Dense>

#include <algorithm>
#include <cmath>

namespace flexim {

namespace {

/// Projection of x onto the disc (or interval) of radius rho.
Eigen::VectorXd projectDisc(const Eigen::VectorXd& x, double rho) {
  const double n = x.norm();
  return n <= rho ? x : Eigen::VectorXd((n > 0 ? rho / n : 0.0) * x);
}

/// Residual f and its (generalised) Jacobian J at lambda: stick and closed rows take the
/// derivative of r gdot, open and slipping rows that of the projection.
void residualAndJacobian(const ContactProblem& p, const Eigen::VectorXd& lambda, Eigen::VectorXd& f,
                         Eigen::MatrixXd* J) {
  const int n = p.rows();
  const Eigen::VectorXd gdot = p.F + p.kappa * (p.D * lambda);
  f.resize(n);
  if (J) J->setZero(n, n);
  for (int k = 0; k < p.points(); ++k) {
    const int o = p.offset[std::size_t(k)], nt = p.tangents[std::size_t(k)];
    const double r = p.r[std::size_t(k)], mu = p.mu[std::size_t(k)];
    // normal: lambda_N - max(0, lambda_N - r gdot_N)
    const double zN = lambda(o) - r * gdot(o);
    if (zN >= 0) {
      f(o) = r * gdot(o);
      if (J) J->row(o) = (r * p.kappa) * p.D.row(o);
    } else {
      f(o) = lambda(o);
      if (J) (*J)(o, o) = 1.0;
    }
    if (nt == 0) continue;
    const Eigen::VectorXd lT = lambda.segment(o + 1, nt);
    const Eigen::VectorXd z = lT - r * gdot.segment(o + 1, nt);
    const double rho = mu * std::abs(lambda(o)), zn = z.norm();
    if (zn <= rho) {  // stick: the tangential velocity vanishes
      f.segment(o + 1, nt) = r * gdot.segment(o + 1, nt);
      if (J) J->middleRows(o + 1, nt) = (r * p.kappa) * p.D.middleRows(o + 1, nt);
    } else {  // slip: lambda_T = rho z/|z|
      const Eigen::VectorXd u = z / zn;
      f.segment(o + 1, nt) = lT - rho * u;
      if (J) {
        // d(rho u)/dlambda = rho/|z| (I - u u^T) dz/dlambda + mu sign(lambda_N) u e_N^T
        Eigen::MatrixXd dz = -(r * p.kappa) * p.D.middleRows(o + 1, nt);
        dz.middleCols(o + 1, nt) += Eigen::MatrixXd::Identity(nt, nt);
        const Eigen::MatrixXd P = Eigen::MatrixXd::Identity(nt, nt) - u * u.transpose();
        Eigen::MatrixXd rows = -(rho / zn) * P * dz;
        rows.middleCols(o + 1, nt) += Eigen::MatrixXd::Identity(nt, nt);
        rows.col(o) -= mu * (lambda(o) >= 0 ? 1.0 : -1.0) * u;
        J->middleRows(o + 1, nt) = rows;
      }
    }
  }
}

double scaleOf(const ContactProblem& p, const Eigen::VectorXd& lambda) {
  double s = lambda.size() ? lambda.lpNorm<Eigen::Infinity>() : 0.0;
  for (int k = 0; k < p.points(); ++k) {
    const int o = p.offset[std::size_t(k)];
    s = std::max(s, p.r[std::size_t(k)] * std::abs(p.F(o)));
  }
  return s;
}

/// Projected Gauss-Seidel on the prox equations, each point with its own exact-scale r
/// (1 / (kappa D_kk)): converges for a positive semi-definite D.
bool fixedPoint(const ContactProblem& p, const ContactSolverSettings& s, Eigen::VectorXd& lambda,
                ContactSolveReport& report) {
  Eigen::VectorXd gdot = p.F + p.kappa * (p.D * lambda), f;
  for (int sweep = 0; sweep < s.fallbackSweeps; ++sweep) {
    for (int k = 0; k < p.points(); ++k) {
      const int o = p.offset[std::size_t(k)], nt = p.tangents[std::size_t(k)];
      const double dN = p.kappa * p.D(o, o);
      const Eigen::VectorXd old = lambda.segment(o, 1 + nt);
      if (dN > 0) lambda(o) = std::max(0.0, lambda(o) - gdot(o) / dN);
      if (nt > 0) {
        const double dT = p.kappa * p.D.diagonal().segment(o + 1, nt).maxCoeff();
        if (dT > 0) {
          gdot.segment(o + 1, nt) += p.kappa * p.D.middleRows(o + 1, nt).col(o) * (lambda(o) - old(0));
          lambda.segment(o + 1, nt) = projectDisc(lambda.segment(o + 1, nt) - gdot.segment(o + 1, nt) / dT,
                                                  p.mu[std::size_t(k)] * lambda(o));
        }
      }
      gdot += p.kappa * p.D.middleCols(o, 1 + nt) * (lambda.segment(o, 1 + nt) - old);
    }
    ++report.iterations;
    if (sweep % 10 == 9 || sweep + 1 == s.fallbackSweeps) {
      residualAndJacobian(p, lambda, f, nullptr);
      report.residual = f.size() ? f.lpNorm<Eigen::Infinity>() : 0.0;
      if (report.residual <= s.tol * scaleOf(p, lambda)) return true;
    }
  }
  return false;
}

}  // namespace

Eigen::VectorXd contactResidual(const ContactProblem& p, const Eigen::VectorXd& lambda) {
  Eigen::VectorXd f;
  residualAndJacobian(p, lambda, f, nullptr);
  return f;
}

bool solveContactProblem(const ContactProblem& p, const ContactSolverSettings& s, Eigen::VectorXd& lambda,
                         ContactSolveReport& report) {
  report = {};
  const int n = p.rows();
  if (lambda.size() != n) lambda.setZero(n);
  if (n == 0) {
    report.converged = true;
    return true;
  }
  Eigen::VectorXd f, fTrial, trial;
  Eigen::MatrixXd J;
  residualAndJacobian(p, lambda, f, &J);
  double norm = f.lpNorm<Eigen::Infinity>();
  for (int it = 0; it < s.iterations; ++it) {
    // at least one iteration: a warm start within the tolerance still leaves velocity errors of
    // tol |lambda| / r, which the base schemes' accelerations amplify from step to step; one
    // Gauss-Newton step with the right active set solves the (linear) pieces to round-off
    if (it > 0 && norm <= s.tol * scaleOf(p, lambda)) {
      report.residual = norm;
      report.converged = true;
      return true;
    }
    ++report.iterations;
    Eigen::CompleteOrthogonalDecomposition<Eigen::MatrixXd> pinv(J);
    pinv.setThreshold(1e-12);
    if (pinv.rank() < n) report.rankDeficient = true;
    const Eigen::VectorXd step = -pinv.solve(f);
    // backtracking on |f|: the full step solves the linear pieces exactly; a shorter one keeps
    // the iteration from cycling between active sets
    double t = 1.0;
    for (int ls = 0; ls < 12; ++ls, t *= 0.5) {
      trial = lambda + t * step;
      residualAndJacobian(p, trial, fTrial, nullptr);
      if (fTrial.lpNorm<Eigen::Infinity>() < (1 - 1e-4 * t) * norm) break;
    }
    lambda = trial;
    residualAndJacobian(p, lambda, f, &J);
    norm = f.lpNorm<Eigen::Infinity>();
  }
  if (norm <= s.tol * scaleOf(p, lambda)) {
    report.residual = norm;
    report.converged = true;
    return true;
  }
  report.fallback = true;
  report.converged = fixedPoint(p, s, lambda, report);
  return report.converged;
}

}  // namespace flexim
