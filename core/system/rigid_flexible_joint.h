// Rigid-flexible (rf) joint between a virtual body j (massless rigid body) and three 3-DOF nodes
// k, m, n of a flexible body i, after the floating-frame solid-element paper (Multibody Syst. Dyn. 2023,
// doi:10.1007/s11044-023-09875-y), Sec. 2.4.1, plus its Fig. 4 node selection (Sec. 2.4.2).
// Standalone evaluator; flexible_elements.h wraps it into the System's constraint element.
//
// Conventions (core/system/system.h, flexible_body.h):
//   body i: q_i = [r_i, A_i, w],  v_i = [r_dot_i (global), omega'_i (body i axes), w_dot]  (6 + m)
//   body j: q_j = [r_j, A_j],     v_j = [r_dot_j (global), omega'_j (body j axes)]         (6)
//   Phi_dot = G_i v_i + G_j v_j (+ Phi_t = 0),  G_i v_dot_i + G_j v_dot_j + Gamma = 0,
//   Gamma = Phi_ddot at zero accelerations (= -gamma of the paper's Eqs. 44-45, 60-63).
// Node k: b'_k = x'_k + Phi_k w (Eqs. 4, 68), d_k = r_i + A_i b'_k (Eq. 3).
// Rows (6):
//   0-2  translational, Eq. (40):  r_j - r_i - A_i b'_k = 0 (virtual-body origin on the deformed node k)
//   3-5  rotational,    Eq. (50):  (A_i e'_i1).(A_j e'_j2) - beta12 = 0,
//                                  (A_i e'_i1).(A_j e'_j3) - beta13 = 0,
//                                  (A_i e'_i2).(A_j e'_j3) - beta23 = 0,
//        e'_i1 = unit(b'_m - b'_k) (Eq. 46), a'_i = unit(b'_n - b'_k) (Eq. 47),
//        e'_i2 = unit(e'_i1 x a'_i) (Eq. 48), e'_j2, e'_j3 = virtual-body axes (Eq. 49; columns 1, 2
//        of axesJ, the virtual-body axes in body-j coordinates, identity by default).
// Notation (the paper's m and n are both counts and joint nodes): nodeK/nodeM/nodeN are node indices,
// "modes" is the number of modes.
#pragma once

#include "core/model/model.h"

#include <Eigen/Core>

#include <array>
#include <string>
#include <vector>

namespace flexim {

using VecX = Eigen::VectorXd;
using MatX = Eigen::MatrixXd;
using Vec6 = Eigen::Matrix<double, 6, 1>;

/// Rows of the rf joint: Jacobian blocks for the flexible body i and the virtual body j.
struct RigidFlexibleRows {
  Eigen::Matrix<double, 6, 1> phi, phit, gamma;  ///< phit = 0 (Eq. 43, 59); gamma = Gamma (System sign)
  MatX Gi;                                       ///< 6 x (6 + m)
  Eigen::Matrix<double, 6, 6> Gj;                ///< 6 x 6
};

/// |cos| of the singular configurations (64)-(67), read as |.| = 1 (the paper prints = 1; anti-parallel is
/// singular too).
struct RigidFlexibleSingularity {
  double collinear = 0.0;  ///< |e_i1 . a_i|  (64): nodes k, m, n collinear
  double c12 = 0.0;        ///< |e_j2 . e_i1| (65)
  double c13 = 0.0;        ///< |e_j3 . e_i1| (66)
  double c23 = 0.0;        ///< |e_j3 . e_i2| (67)
  /// |det| of the rotational rows' Jacobian w.r.t. the virtual body's rotation, found by us:
  ///   det = (e_i1 . e_j1)(e_i3 . e_j3),  e_i3 = e_i1 x e_i2.
  /// It vanishes in configurations the paper's list (64)-(67) misses ("other singularity
  /// conditions exist"): e_i1 in the plane of e_j2, e_j3 makes rows (65) and (66) both measure the
  /// rotation about e_j1 only. 1 when the virtual axes follow the node triangle.
  double determinant = 1.0;
  double worst() const;    ///< max of the four cosines, or 1 - determinant when larger
  bool nearSingular = false;
  std::string warning;     ///< empty unless some |cos| > 1 - tol
};

class RigidFlexibleJoint {
 public:
  /// Node data of body i: undeformed body-frame positions x' and mode-shape rows Phi (3 x m,
  /// rows 3k..3k+2 of X) of nodes k, m, n. axesJ: virtual-body joint axes in body-j coordinates.
  RigidFlexibleJoint(const Vec3& xK, const MatX& PhiK, const Vec3& xM, const MatX& PhiM, const Vec3& xN,
                     const MatX& PhiN, const Mat3& axesJ = Mat3::Identity());

  static constexpr int rows() { return 6; }
  int modes() const { return static_cast<int>(m_Phi[0].cols()); }

  /// Initial cosines beta^0 (Eq. 50) from a configuration (normally t = 0); stores and returns them.
  Vec3 initialize(const Mat3& Ai, const VecX& w, const Mat3& Aj);
  void setInitialCosines(const Vec3& beta0) { m_beta = beta0; }
  const Vec3& initialCosines() const { return m_beta; }

  /// Deformed position of node k, global (where the virtual-body origin must be, Eq. 40).
  Vec3 nodeKPosition(const Vec3& ri, const Mat3& Ai, const VecX& w) const;
  /// Node frame e'_i1 (col 0), e'_i2 (col 1), e'_i1 x e'_i2 (col 2) in body-i axes (Eqs. 46-48).
  Mat3 nodeFrame(const VecX& w) const;

  /// Phi, Jacobians, Phi_t and Gamma at the given positions and velocities.
  void evaluate(const Vec3& ri, const Mat3& Ai, const VecX& w, const VecX& vi, const Vec3& rj, const Mat3& Aj,
                const Vec6& vj, RigidFlexibleRows& out) const;

  /// Singular-configuration report (64)-(67); warns when any |cos| > 1 - tol.
  RigidFlexibleSingularity singularity(const Mat3& Ai, const VecX& w, const Mat3& Aj, double tol = 1e-2) const;

 private:
  std::array<Vec3, 3> m_x;   ///< x'_k, x'_m, x'_n
  std::array<MatX, 3> m_Phi; ///< Phi_k, Phi_m, Phi_n
  Mat3 m_axesJ;
  Vec3 m_beta = Vec3::Zero();
};

/// Result of the Fig. 4 / section 3.3 node selection.
struct RfNodeSelection {
  bool ok = false;
  int nodeK = -1, nodeM = -1, nodeN = -1;
  Vec3 offset = Vec3::Zero();  ///< x'_k - P (body-i axes): the virtual-body origin sits at node k, not at P
  double distance = 0.0;       ///< |offset| (reported to the user)
  RigidFlexibleSingularity cosines;  ///< at the undeformed configuration with the given orientation
  Vec3 beta0 = Vec3::Zero();         ///< initial cosines (Eq. 50) at the undeformed configuration
  std::string message;               ///< reason on failure, or a near-singularity warning
};

/// Fig. 4 algorithm (MSD 2023 Sec. 2.4.2): k = node nearest to P; m = first node in order of
/// distance from P with |e_j2.e_i1| < 1 - tol and |e_j3.e_i1| < 1 - tol (65, 66 not met);
/// n = first remaining node with |e_i1.a_i| < 1 - tol and |e_j3.e_i2| < 1 - tol (64, 67 not met).
/// Coincident nodes (distance <= 1e-9 x model size) are skipped. axesJ_in_i: virtual-body axes
/// expressed in the UNDEFORMED body-i frame (A_i^T A_j at t = 0); only columns 1 and 2 are used.
/// tol is the user tolerance of the collinearity tests (its value is not given in the paper;
/// 0.1 keeps the triangle angle above ~26 deg). candidates: optional node subset (empty = all).
RfNodeSelection selectRfNodes(const std::vector<Vec3>& coords, const Vec3& P, const Mat3& axesJ_in_i,
                              double tol = 0.1, const std::vector<int>& candidates = {});

}  // namespace flexim
