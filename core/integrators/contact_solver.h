// The contact equations of a set of contact points in prox (projection) form, solved by a
// nonsmooth Gauss-Newton iteration with a rank-revealing pseudo-inverse, with a projected
// fixed-point (Gauss-Seidel) fallback. After Rezaei and Schindler, "Mixed timestepping schemes
// for nonsmooth mechanics with high frequency damping" (Multibody System Dynamics), eqs. (4)-(7),
// (14)-(15), (42)-(45), (49)-(54); after Alart and Curnier (1991) for the prox form.
//
// Unknowns: per point k a normal force (or impulse) lambda_N >= 0 and 0, 1 or 2 tangential ones,
// stacked [N, T1, (T2)] per point. The relative velocities are affine in them,
//   gdot = F + kappa D lambda,
// and each point obeys
//   lambda_N - max(0, lambda_N - r gdot_N) = 0                   (Signorini on velocity level)
//   lambda_T - proj_{|x| <= mu lambda_N}(lambda_T - r gdot_T) = 0  (Coulomb).
// r > 0 changes the iterations, not the solution.
#pragma once

#include <Eigen/Core>

#include <string>
#include <vector>

namespace flexim {

struct ContactProblem {
  std::vector<int> offset;    ///< first row of each point in the stacked vectors
  std::vector<int> tangents;  ///< friction directions of each point (0, 1, 2)
  std::vector<double> mu;     ///< friction coefficient of each point
  std::vector<double> r;      ///< prox parameter of each point
  Eigen::MatrixXd D;          ///< Delassus matrix W S^-1 W^T (rows x rows)
  Eigen::VectorXd F;          ///< velocities at lambda = 0
  double kappa = 1.0;         ///< velocity per unit (force x D)
  int rows() const { return static_cast<int>(F.size()); }
  int points() const { return static_cast<int>(offset.size()); }
};

struct ContactSolverSettings {
  double tol = 1e-10;     ///< on the residual, relative to the largest force (or its scale r |F|)
  int iterations = 50;    ///< Gauss-Newton iterations before the fallback
  int fallbackSweeps = 5000;
};

struct ContactSolveReport {
  int iterations = 0;        ///< Gauss-Newton iterations (plus fallback sweeps)
  double residual = 0.0;     ///< |f| at the end (same units as lambda)
  bool converged = false;
  bool fallback = false;     ///< the fixed-point iteration was needed
  bool rankDeficient = false;  ///< the Gauss-Newton matrix was singular (dependent contacts)
};

/// Solves the problem, starting from lambda (resized and zeroed when its size is wrong).
bool solveContactProblem(const ContactProblem& p, const ContactSolverSettings& s, Eigen::VectorXd& lambda,
                         ContactSolveReport& report);

/// The residual f(lambda) of the prox equations (for tests and diagnostics).
Eigen::VectorXd contactResidual(const ContactProblem& p, const Eigen::VectorXd& lambda);

}  // namespace flexim
