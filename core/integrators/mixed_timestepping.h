// Mixed timestepping for nonsmooth mechanics (Rezaei and Schindler, "Mixed timestepping schemes
// for nonsmooth mechanics with high frequency damping", Multibody System Dynamics; after the
// half-explicit timestepping schemes of Schindler, Rezaei, Kursawe and Acary): within a step a
// smooth base scheme — generalized-alpha, Bathe's composite scheme or the energy-decaying ED-alpha
// of Bottasso — advances positions and pre-impact velocities with the non-impulsive contact forces
// of the contacts closed at the step's start (prox equations on velocity level); after the step a
// gap that closed starts an impulsive correction of the velocities by Newton's impact law on every
// contact closed at the step's end. Joints (equality rows) are enforced at position level in every
// stage (index 3) and the velocities are projected onto them after the step; joint limits are
// contacts without friction and with a plastic impact.
//
// The base schemes are written as stages: in stage s the velocities and position increments are
// affine in the stages' accelerations x_t,
//   v_s = vbar_s + sum_t CV[s][t] x_t,   q_s = q_n (+) (dbar_s + sum_t CQ[s][t] x_t),
// and the equations of motion M(q_s) x_s + G^T lambda_s = f(q_s, v_s) + W^T lambda_c hold at each
// stage. The functions below give those maps; the integrator solves the stages with Newton.
#pragma once

#include "core/integrators/integrator.h"

#include <array>

namespace flexim {

/// One step's stages: their count (1 or 2, solved together), time offsets and affine maps.
struct SchemeStages {
  int count = 1;
  std::array<double, 2> dt{0.0, 0.0};  ///< stage time - t_n
  std::array<VecX, 2> vbar, dbar;
  std::array<std::array<double, 2>, 2> CV{}, CQ{};
  /// A stage off the trajectory (ED-alpha's t_n^+) holds the joints on acceleration level,
  /// G x_s + Gamma = 0, as an ODE's stage would; the others on position level.
  std::array<bool, 2> accelerationLevel{false, false};
};

/// Generalized-alpha in the Arnold-Bruls form, parameters from rho_inf (Chung-Hulbert):
/// alpha_m = (2 rho - 1)/(rho + 1), alpha_f = rho/(rho + 1), gamma = 1/2 - alpha_m + alpha_f,
/// beta = (1 - alpha_m + alpha_f)^2 / 4.
struct GeneralizedAlphaCoefficients {
  double am = 0, af = 0, gamma = 0.5, beta = 0.25;
  static GeneralizedAlphaCoefficients fromRho(double rho);
  /// The stage of a step h from (v_n, a_n, A_n); x is a_{n+1}.
  SchemeStages stage(double h, const VecX& v, const VecX& a, const VecX& A) const;
  /// A_{n+1} from a_{n+1}.
  VecX auxiliary(const VecX& aNext, const VecX& a, const VecX& A) const;
};

/// Bathe's composite scheme: the trapezoidal rule on [t_n, t_n + h/2], then the three-point
/// backward Euler rule on [t_n, t_n + h] (Bathe and Baig 2005).
struct BatheStages {
  /// First half step; x is a_{n+1/2}.
  static SchemeStages first(double h, const VecX& v, const VecX& a);
  /// Second half; x is a_{n+1}. dHalf: the first half's position increment from q_n.
  static SchemeStages second(double h, const VecX& v, const VecX& vHalf, const VecX& dHalf);
};

/// ED-alpha (Bottasso's energy-decaying scheme): a stage j at t_n^+ and the end point, solved
/// together; x = (a_j, a_{n+1}). alpha = (1 - rho)/(1 + rho), alpha_AR = 1/6 (the least period
/// error). Written in accelerations, so the coefficients c7 and c14 of the paper's velocity form
/// (dimensionless, (1 - alpha)/(1 + alpha)) do not appear.
struct EdAlphaCoefficients {
  double alpha = 1.0, alphaAR = 1.0 / 6.0;
  static EdAlphaCoefficients fromRho(double rho);
  SchemeStages stages(double h, const VecX& v, const VecX& a) const;
};

/// The mixed timestepping integrator of spec.integrator (mixed-gen-alpha, mixed-bathe,
/// mixed-ed-alpha, moreau or hets).
std::unique_ptr<Integrator> makeMixedTimestepping(const System& sys, const SolverSpec& spec);

}  // namespace flexim
