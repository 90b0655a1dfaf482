// The coordinate-block formulations of the System: rigid body, massless virtual body,
// floating-frame modal body, and a joint's own scalar coordinate.
#pragma once

#include "core/system/contract.h"
#include "core/system/flexible_body.h"

#include <memory>
#include <unordered_map>

namespace flexim {

/// Rigid body: q = [r, p] (centre of mass, Euler parameters), v = [r_dot, omega'].
/// M = blockdiag(m I3, J'); forces: gravity and -omega' x J' omega'.
class RigidBodyFormulation final : public Formulation {
 public:
  RigidBodyFormulation(double mass, const Mat3& J) : m_mass(mass), m_J(J) {}
  int nq() const override { return 7; }
  int nv() const override { return 6; }
  void massMatrix(const BodyKinematics& k, MatX& M) const override;
  void subtractMassTimes(const BodyKinematics& k, const Eigen::Ref<const VecX>& a, Eigen::Ref<VecX> out) const override;
  void forces(const BodyKinematics& k, const Vec3& gravity, Eigen::Ref<VecX> f) const override;
  void addForceTangent(const BodyKinematics& k, double betap, double gammap, MatX& S) const override;
  // m I (translation), J and the gyroscopic tangent (rotation): no coupling
  bool iterationMatrixEntry(int i, int j) const override { return i < 3 && j < 3 ? i == j : i >= 3 && j >= 3; }
  double kineticEnergy(const BodyKinematics& k) const override;
  double potentialEnergy(const BodyKinematics& k, const Vec3& gravity) const override;
  double dampingPower(const BodyKinematics&) const override { return 0.0; }  // gyroscopic forces do no work

 private:
  double m_mass;
  Mat3 m_J;
};

/// Massless rigid frame (a virtual body on a flexible body): velocities fixed by its joint.
class VirtualBodyFormulation final : public Formulation {
 public:
  int nq() const override { return 7; }
  int nv() const override { return 6; }
  bool massless() const override { return true; }
  void massMatrix(const BodyKinematics&, MatX& M) const override { M.setZero(6, 6); }
  void forces(const BodyKinematics&, const Vec3&, Eigen::Ref<VecX> f) const override { f.setZero(); }
  double dampingPower(const BodyKinematics&) const override { return 0.0; }
};

/// A compiled flexible body. Its internal frame is the FE frame moved by (offset, R):
/// x_FE = offset + R x (identity unless the principal-axis conditions need the frame at the
/// centre of mass on the principal axes). `data` is the reduced body in the internal frame with
/// the selected modes; nothing in a time step loops over its nodes.
struct FlexibleBody {
  int body = -1;  ///< its block
  std::shared_ptr<const fe::ReducedBody> data;
  std::unique_ptr<FlexibleBodyDynamics> dyn;
  Vec3 offset = Vec3::Zero();
  Mat3 R = Mat3::Identity();
  std::unordered_map<int, int> nodeIndex;  ///< FE node id -> node index
  /// Mode-shape rows of node k (3 x m).
  MatX nodeModes(int k) const { return data->modes.middleRows(3 * k, 3); }
};

/// Floating-frame modal body (Agrawal and Shabana 1985 form, mean-axis or principal-axis frame):
/// q = [r, p, w (m)], v = [r_dot, omega', w_dot]; M(q) and f = s + g + f_el from the modal
/// inertia invariants (FlexibleBodyDynamics).
class FlexibleBodyFormulation final : public Formulation {
 public:
  explicit FlexibleBodyFormulation(const FlexibleBody& body) : m_body(body) {}
  int nq() const override { return 7 + m_body.dyn->modes(); }
  int nv() const override { return 6 + m_body.dyn->modes(); }
  int deformationCoordinates() const override { return m_body.dyn->modes(); }
  void userPose(const Eigen::Ref<const VecX>& q, Vec3& position, Quat& orientation) const override;
  void massMatrix(const BodyKinematics& k, MatX& M) const override;
  void subtractMassTimes(const BodyKinematics& k, const Eigen::Ref<const VecX>& a, Eigen::Ref<VecX> out) const override;
  void forces(const BodyKinematics& k, const Vec3& gravity, Eigen::Ref<VecX> f) const override;
  void addForceTangent(const BodyKinematics& k, double betap, double gammap, MatX& S) const override;
  double kineticEnergy(const BodyKinematics& k) const override;
  double potentialEnergy(const BodyKinematics& k, const Vec3& gravity) const override;
  double strainEnergy(const BodyKinematics& k) const override;
  /// -w_dot' D w_dot (the modal damping; the inertia terms do no work) plus the power of the
  /// geometric stiffening (FlexibleBodyDynamics::stiffeningForce), which no energy holds.
  double dampingPower(const BodyKinematics& k) const override;
  double stiffeningPower(const BodyKinematics& k) const override;
  const FlexibleBody& body() const { return m_body; }

 private:
  const FlexibleBody& m_body;
};

/// A joint's own coordinate (an angle [rad] or a translation [m]), massless: its value is tied
/// to the bodies by the joint's rows and, through couplings, to other coordinates. Being a state,
/// it is continuous over full turns (no wrap-around).
class JointCoordinateFormulation final : public Formulation {
 public:
  int nq() const override { return 1; }
  int nv() const override { return 1; }
  int frameSize() const override { return 0; }
  bool massless() const override { return true; }
  void massMatrix(const BodyKinematics&, MatX& M) const override { M.setZero(1, 1); }
  void forces(const BodyKinematics&, const Vec3&, Eigen::Ref<VecX> f) const override { f.setZero(); }
  double dampingPower(const BodyKinematics&) const override { return 0.0; }
};

}  // namespace flexim
