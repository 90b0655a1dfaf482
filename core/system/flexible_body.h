// Floating-frame-of-reference equations of ONE flexible body in modal form, after the floating-frame
// solid-element paper (Multibody Syst. Dyn. 2023, doi:10.1007/s11044-023-09875-y), Secs. 2.2 and 2.5,
// evaluated from the precomputed inertia invariants only: nothing here loops over FE nodes (the
// invariant form, damping and applied forces are not in the paper). The System holds one per
// flexible body (formulations.h, flexible_compile.cpp).
//
// Coordinates (same conventions as the rigid System, core/system/system.h):
//   position  q = [r (3, global), A (rotation body -> global, from Euler parameters), w (m)]
//   velocity  v = [r_dot (3, global), omega' (3, body axes), w_dot (m)]        size 6 + m
// Node k: b'_k = x'_k + Phi_k w (Eq. 4 with delta'_k = Phi_k w, Eq. 68), d_k = r + A b'_k (Eq. 3),
//   d_dot_k = [I, -A b~'_k, A Phi_k] v  (Eq. 8 with Eq. 70).
//
// SIGN CONVENTION (the one of Eq. (16); the paper's Eqs. (16), (18), (19) disagree on the signs of s and K):
//
//     M(q) v_dot = s(q, v) + g(q, v, t) + f_el(w, w_dot)  (+ constraint terms, -G^T lambda)
//
//   s    = quadraticVelocity(): the velocity-quadratic inertia terms WITH their minus signs inside
//          (verified form of Eq. 17, MSD 2023 Sec. 2.2, in invariant form). For a rigid body (m = 0, I2 = 0) it is
//          [0; -omega' x J0 omega'], i.e. exactly the gyroscopic part of the rigid System's f.
//   g    = applied generalized forces (addPointForce, addGravity); the paper does not write them out.
//   f_el = elasticForces() = [0; 0; -Kbar w - D w_dot] (Eq. 75's -Lambda w, plus optional damping).
// So the complete right-hand side that goes next to the rigid System's f is s + g + f_el.
// The paper's Eqs. (18), (74), (75) print "- s"; they must be read with this convention.
//
// The paper's third term in s_phi (-sum m_k omega~ b~_k Phi_k w_dot) is spurious (it does not
// follow from the kinetic energy) and is NOT implemented; it vanishes only under the mean-axis conditions.
#pragma once

#include "core/fe/reduced_body.h"
#include "core/model/model.h"

#include <Eigen/Core>

#include <array>
#include <memory>
#include <vector>

namespace flexim {

using VecX = Eigen::VectorXd;
using MatX = Eigen::MatrixXd;

/// Optional structural damping of the modal coordinates (not in the paper, which has none).
/// D = diag(2 zeta_j sqrt(Kbar_jj Mbar_jj)) + alpha Mbar + beta Kbar.
/// With Mbar = I and Kbar = Lambda the first part is diag(2 zeta_j omega_j); rigid-body modes
/// (Kbar_jj = 0) get no modal damping. Note that alpha Mbar also damps rigid-mode coordinates.
struct ModalDamping {
  VecX zeta;           ///< per-mode damping ratios (empty = none; else size m)
  double alpha = 0.0;  ///< Rayleigh mass-proportional coefficient [1/s]
  double beta = 0.0;   ///< Rayleigh stiffness-proportional coefficient [s]
};

/// Geometric stiffening (load-case method of Wallrapp and Schwertassek): the modal
/// geometric stiffness of the inertia load cases (fe::balancedInertiaCases), each with the
/// reaction that balances it at the interface the body is held at folded in, turned into the
/// internal axes about the frame origin:
///   translational[i]  a unit acceleration field along axis i (gravity: its factor is -g_i),
///   centrifugal[p]    the angular-velocity products P = xx, yy, zz, xy, yz, zx.
/// The modal equations get -K_G w, K_G = -sum_i g_i translational[i] + sum_p P_p(omega_m)
/// centrifugal[p], with g gravity in the body axes and omega_m = omega + J0^-1 I4 w_dot the
/// body's mean angular velocity (on the axes of J0 with at least 1e-2 of its largest moment:
/// about a slender bar's own axis the mean rate is ill-determined, and spin there stresses the
/// bar little, so the rate of the interface the loads are balanced at is taken, `held`; without
/// one, the frame's). Not the frame's rate there when the frame is not that interface: a
/// mean-axis frame's rate about the bar's axis is the same ill-determined mean rate (the
/// deformation's angular momentum over the tiny moment), and fed into omega^2 it drives the
/// modes that drive it (a free-free pendulum diverged within 0.5 s). The force is not
/// conservative; its power is reported with the damping's.
/// Why not more: with the frame's own omega, the force pumps energy from the frame's vibration
/// into the modes (a frame held at an interface that turns freely vibrates with the body); as
/// second-order inertia (foreshortening: c += dc(w), M_phi_w += P(w), J -= dJ(w), conservative)
/// it breaks down there too: such a frame keeps only ~2e-4 of the body's rotational inertia in
/// its own rotation (the modes carry the rest), which the second-order terms soon exceed, and
/// the kinetic energy loses its sign. The frame accelerations' cases are left out for the same
/// reason (their factors are accelerations, which only the mass matrix could carry).
struct GeometricStiffening {
  std::array<MatX, 3> translational;
  std::array<MatX, 6> centrifugal;
  Vec3 gravity = Vec3::Zero();  ///< global [m/s^2]
  /// 3 x m: the rotation rate of the interface the loads are balanced at, relative to the frame,
  /// per unit w_dot (body axes); empty: balanced by the body's own inertia
  MatX held;
};

class FlexibleBodyDynamics {
 public:
  explicit FlexibleBodyDynamics(const fe::ModalInvariants& inv, const ModalDamping& damping = {});

  /// Geometric stiffening (null: none, the linear body).
  void setGeometricStiffening(std::shared_ptr<const GeometricStiffening> stiffening);
  bool hasGeometricStiffening() const { return m_stiffening != nullptr; }
  int modes() const { return m_m; }
  int size() const { return 6 + m_m; }  ///< velocity coordinates
  const fe::ModalInvariants& invariants() const { return m_inv; }
  const MatX& dampingMatrix() const { return m_D; }  ///< m x m

  /// Deformation-dependent inertia quantities (from the invariants, fe::ModalInvariants).
  Vec3 firstMoment(const VecX& w) const;  ///< c(w) = I2 + I3 w = sum m_k b'_k
  Mat3 inertia(const VecX& w) const;      ///< J(w) = J0 + sum w_j J1_j + sum w_j w_l J2_jl (about frame origin)
  MatX rotationModeCoupling(const VecX& w) const;  ///< M_phi_w = I4 + sum_l w_l I5_l = sum m_k b~'_k Phi_k (3 x m)

  /// Mass matrix (6+m)^2, Eq. (13) projected with Eq. (68), in invariant form:
  ///   [ I1 I        -A c~(w)    A I3   ]
  ///   [ c~(w) A^T    J(w)       M_phi_w ]
  ///   [ I3^T A^T     M_phi_w^T  Mbar    ]
  void massMatrix(const Mat3& A, const VecX& w, MatX& M) const;
  /// out = M(w) a by those blocks, without forming M (size 6+m).
  void massTimes(const Mat3& A, const VecX& w, const Eigen::Ref<const VecX>& a, Eigen::Ref<VecX> out) const;

  /// Quadratic-velocity vector s (size 6+m), corrected Eq. (17) in invariant form:
  ///   s_r   = -A omega~ (omega~ c + 2 I3 w_dot)
  ///   s_phi = -omega~ (J omega + M_phi_w w_dot) - J_dot omega,
  ///           J_dot = sum_j w_dot_j dJ/dw_j,  dJ/dw_j = J1_j + sum_l w_l (J2_jl + J2_lj)
  ///   s_w,j = 1/2 omega^T (dJ/dw_j) omega - 2 [(sum_l w_dot_l I5_l)^T omega]_j
  /// Equal to -sum_k m_k J_k^T A (omega~ omega~ b'_k + 2 omega~ Phi_k w_dot) (d'Alembert).
  void quadraticVelocity(const Mat3& A, const Vec3& omega_body, const VecX& w, const VecX& wdot, VecX& s) const;

  /// The geometric stiffening force -K_G w on the modal coordinates (size m; zero without
  /// stiffening; see GeometricStiffening), part of elasticForces' modal rows.
  VecX stiffeningForce(const Mat3& A, const Vec3& omega_body, const VecX& w, const VecX& wdot) const;

  /// Elastic and damping forces, size 6+m with zero rigid rows: [0; 0; -Kbar w - D w_dot]
  /// (without the stiffening force).
  void elasticForces(const VecX& w, const VecX& wdot, VecX& f) const;

  /// T = 1/2 v^T M v (Eq. 12), v = [r_dot, omega', w_dot].
  double kineticEnergy(const Mat3& A, const VecX& w, const VecX& v) const;
  /// U = 1/2 w^T Kbar w (Eq. 14 with Eq. 73).
  double strainEnergy(const VecX& w) const;
  /// Total linear momentum sum m_k d_dot_k = I1 r_dot - A c~ omega' + A I3 w_dot (global).
  Vec3 linearMomentum(const Mat3& A, const VecX& w, const VecX& v) const;
  /// Total angular momentum about the GLOBAL origin, sum m_k d_k x d_dot_k
  ///   = r x p + A (c~ A^T r_dot + J omega' + M_phi_w w_dot)   (global components).
  Vec3 angularMomentum(const Vec3& r, const Mat3& A, const VecX& w, const VecX& v) const;

  /// Node-level kinematics for a node whose body-frame undeformed position x_k and mode-shape rows
  /// Phi_k (3 x m, rows 3k..3k+2 of X) are supplied by the caller (fetched once).
  static Vec3 nodeLocalPosition(const Vec3& x_k, const MatX& Phi_k, const VecX& w);  ///< b'_k (Eq. 4)
  /// d_dot_k = Jk v with Jk = [I, -A b~'_k, A Phi_k]  (3 x (6+m), Eq. 8).
  static void nodeJacobian(const Mat3& A, const Vec3& x_k, const MatX& Phi_k, const VecX& w, MatX& Jk);
  /// Velocity-dependent part of the node acceleration (global): A (omega~ omega~ b'_k + 2 omega~ Phi_k w_dot),
  /// so d_ddot_k = Jk v_dot + this (second derivative of Eq. 3; equals -gamma of the rf joint Eq. (45)).
  static Vec3 nodeAccelerationBias(const Mat3& A, const Vec3& omega_body, const Vec3& x_k, const MatX& Phi_k,
                                   const VecX& w, const VecX& wdot);

  /// ADDS the generalized force of a global point force F applied at a node:
  ///   g_r += F;  g_phi += b~'_k A^T F;  g_w += Phi_k^T A^T F   (= Jk^T F).
  void addPointForce(const Mat3& A, const VecX& w, const Vec3& x_k, const MatX& Phi_k, const Vec3& F,
                     VecX& g) const;
  /// ADDS the generalized gravity force for global acceleration of gravity g_vec:
  ///   g_r += I1 g;  g_phi += c~(w) A^T g;  g_w += I3^T A^T g   (= sum_k m_k Jk^T g).
  void addGravity(const Mat3& A, const VecX& w, const Vec3& g_vec, VecX& g) const;
  /// Potential of gravity: -g . (I1 r + A c(w)), consistent with addGravity.
  double gravityPotential(const Vec3& r, const Mat3& A, const VecX& w, const Vec3& g_vec) const;

 private:
  /// dJ/dw_j for all j, length m.
  void inertiaDerivatives(const VecX& w, std::vector<Mat3>& dJ) const;
  Mat3 inertiaFrom(const VecX& w, const std::vector<Mat3>& dJ) const;

  fe::ModalInvariants m_inv;
  int m_m = 0;
  MatX m_D;  ///< m x m damping matrix
  std::shared_ptr<const GeometricStiffening> m_stiffening;
  MatX m_meanRate;  ///< 3 x m: omega_m - omega = m_meanRate w_dot (GeometricStiffening)
};

}  // namespace flexim
