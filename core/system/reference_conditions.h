// Reference conditions of a floating-frame flexible body in modal form, after the floating-frame
// solid-element paper (Multibody Syst. Dyn. 2023, doi:10.1007/s11044-023-09875-y), Sec. 2.3,
// evaluated from the modal inertia invariants only (fe::ModalInvariants): nothing loops over nodes.
// Standalone evaluators; flexible_elements.h wraps them into the System's constraint elements.
//
// Coordinates and constraint convention (same as core/system/system.h and flexible_body.h):
//   position  q = [r (global), A (body -> global), w (m)]
//   velocity  v = [r_dot (3, global), omega' (3, body axes), w_dot (m)]      size 6 + m
//   rows:     Phi(q, t),  Phi_dot = G v + Phi_t,  G v_dot + Gamma = 0,
//             Gamma = Phi_ddot at zero acceleration (= -gamma of the paper's Eq. (32)/(39), whose
//             convention is Phi_ddot = Phi_q q_ddot - gamma).
// The modal matrix X must contain the 6 rigid-body modes (this follows from Sec. 2.5; the paper does not say it):
// constraints acting on elastic-only free-free modes are (near) rank deficient (MAC) or wrongly
// suppress deformation (PAC).
// Equation and section numbers are those of the paper (MSD 2023).
#pragma once

#include "core/fe/reduced_body.h"
#include "core/model/model.h"

#include <Eigen/Core>

#include <string>
#include <vector>

namespace flexim {

using VecX = Eigen::VectorXd;
using MatX = Eigen::MatrixXd;

/// Constraint rows acting on ONE flexible body (rows x (6+m) Jacobian).
struct FlexibleConstraintRows {
  VecX phi;    ///< position-level residual (see holonomic)
  VecX phit;   ///< explicit time derivative (always 0 here)
  VecX gamma;  ///< Gamma = Phi_ddot at zero acceleration (System convention, G v_dot + Gamma = 0)
  MatX G;      ///< Jacobian w.r.t. v = [r_dot, omega', w_dot]
  /// false for rows that exist only at velocity level (non-holonomic): their phi is a linearised
  /// monitor, NOT the integral of G v; do not use it for the Baumgarte beta term.
  std::vector<bool> holonomic;
  void resize(int rows, int cols);
};

/// Mean-axis conditions (MAC), MSD 2023 Sec. 2.3.2, Eqs. (34)-(39):
///   Phi_dot^(ma) = sum_k m_k [delta_dot'_k ; b~'_k delta_dot'_k] = 0        (Eq. 36)
///   G = [0 0 I3 ; 0 0 M_phi_w(w)],  M_phi_w = I4 + sum_l w_l I5_l           (Eq. 38 * X)
///   Gamma = [0 ; sum_l w_dot_l I5_l w_dot] = sum m_k delta_dot~ delta_dot = 0 (Eq. 39, exact)
/// Position level:
///   rows 0-2 (holonomic): sum m_k delta'_k = I3 w = 0  (integral of the translational rows, zero
///                          for a body that starts undeformed with the frame at the CoM; not in the paper);
///   rows 3-5 (NON-holonomic, not stated in the paper): the rotational rows have no exact position form
///                          (sum_l w_l I5_l w_dot is not a total derivative). phi reports the
///                          linearised residual I4 w = sum m_k x~'_k delta'_k (the classical linearised
///                          mean-axis condition), whose gradient is G only at w = 0.
class MeanAxisConditions {
 public:
  explicit MeanAxisConditions(const fe::ModalInvariants& inv);
  static constexpr int rows() { return 6; }
  int modes() const { return m_m; }
  /// Rows at w with body velocity v (only w_dot = v.tail(m) matters).
  void evaluate(const VecX& w, const VecX& v, FlexibleConstraintRows& out) const;
  /// Velocity residual Phi_dot = G v = [I3 w_dot ; M_phi_w w_dot] (Eq. 36/37).
  Eigen::Matrix<double, 6, 1> velocityResidual(const VecX& w, const VecX& v) const;

 private:
  fe::ModalInvariants m_inv;
  int m_m = 0;
};

/// Result of the PAC applicability check (MSD 2023 Sec. 3.2: PAC need distinct principal inertias).
struct PrincipalAxisCheck {
  Vec3 principalMoments = Vec3::Zero();  ///< eigenvalues of J0, ascending
  double minRelativeGap = 0.0;           ///< min_i<j |J_i - J_j| / max_i J_i
  double firstMomentResidual = 0.0;      ///< |I2| / (I1 * L), L = sqrt(tr J0 / I1): frame origin off the CoM
  double productResidual = 0.0;          ///< max |J0_ab, a != b| / max_i J_i: axes off the principal axes
  bool distinct = true;                  ///< minRelativeGap >= tolerance
  std::string warning;                   ///< empty when PAC is applicable and the frame is consistent
};

/// Principal-axis conditions (PAC), MSD 2023 Sec. 2.3.1, Eqs. (20)-(33), in invariant form:
///   Phi^(pa) = [ c(w) ; E_01(w) ; E_02(w) ; E_12(w) ] = 0                    (Eq. 26)
///     c(w) = I2 + I3 w = sum m_k b'_k (first moment),
///     E(w) = sum m_k b'_k b'_k^T = 1/2 tr(J(w)) I - J(w)  (since J = tr(E) I - E; Eqs. 23-25),
///     so E_ab = -J_ab (a != b): the products of inertia of the deformed body vanish (Eq. 21).
///   G = [0 0 I3 ; 0 0 dE_ab/dw],  dE_ab/dw_j = -(J1_j + sum_l w_l (J2_jl + J2_lj))_ab  (Eqs. 29-31 * X)
///   Gamma = [0 ; 2 sum m_k delta_dot_a delta_dot_b] = [0 ; -2 (sum_jl w_dot_j w_dot_l J2_jl)_ab]
///     (= -gamma^(pa) of Eq. 33: gamma carries -2 sum m_k delta_dot_a delta_dot_b).
/// All six rows are holonomic.
class PrincipalAxisConditions {
 public:
  explicit PrincipalAxisConditions(const fe::ModalInvariants& inv);
  static constexpr int rows() { return 6; }
  int modes() const { return m_m; }
  void evaluate(const VecX& w, const VecX& v, FlexibleConstraintRows& out) const;
  /// Second moment E(w) = 1/2 tr(J) I - J (body axes, about the frame origin).
  Mat3 secondMoment(const VecX& w) const;
  /// Applicability: principal moments of J0 must be distinct (relative tolerance); also reports
  /// whether the undeformed frame is at the lumped-mass CoM on the principal axes.
  static PrincipalAxisCheck check(const fe::ModalInvariants& inv, double relTol = 1e-3, double frameTol = 1e-8);
  /// Whether PAC suit a body, judged from its undeformed invariants in any frame (a reduced
  /// body's FE frame): check() of its inertia about the lumped-mass centre of mass, where the
  /// compile moves a PAC body's frame, so only the distinctness of the moments can fail.
  static PrincipalAxisCheck applicability(const fe::ModalInvariants& inv, double relTol = 1e-3);

 private:
  fe::ModalInvariants m_inv;
  int m_m = 0;
};

}  // namespace flexim
