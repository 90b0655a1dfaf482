// The element contract of the compiled System (see docs/architecture.md).
//
// The System is a list of coordinate *blocks*. Each block is owned by one Formulation (a rigid
// body, a floating-frame modal body, a massless virtual body, a joint's own coordinate, a beam
// node, and later superelement interface nodes): it knows its sizes, its kinematic
// map q_dot = B(q) v, its update after a step, its mass matrix and velocity-dependent forces,
// its energies and its drawing pose. *Elements* (joints, drivers, forces, couplings, contacts,
// beam elements) name the blocks they touch, any number of them, and add residual
// rows with one Jacobian block per touched block, or generalized forces per touched block.
// Integrators, sensors and writers see blocks and elements only through these interfaces.
//
// Equations of motion (Lagrange multipliers):
//   M(q) v_dot + G^T lambda = f(q, v, t),  Phi(q, t) = 0  (equality rows),
//   G v + Phi_t = 0 (velocity-level rows),  Phi(q, t) >= 0 with lambda <= 0 (unilateral rows),
//   G v_dot + Gamma = 0 on every active row (Gamma = Phi_ddot at zero acceleration).
#pragma once

#include "core/model/model.h"

#include <Eigen/Core>

#include <limits>
#include <string>
#include <vector>

namespace flexim {

using Vec6 = Eigen::Matrix<double, 6, 1>;
using Mat36 = Eigen::Matrix<double, 3, 6>;
using Mat6 = Eigen::Matrix<double, 6, 6>;
using VecX = Eigen::VectorXd;
using MatX = Eigen::MatrixXd;

class System;

/// Positions and velocities of every block (small, copyable; owned by the integrator).
struct State {
  double t = 0.0;
  VecX q;  ///< System::nq()
  VecX v;  ///< System::nv()
};

/// Kinematics of one block derived from its coordinates. Blocks with a frame (bodies) fill the
/// frame part; `w`, `wdot` hold the block's further coordinates and rates (modal coordinates of a
/// flexible body, the value of a joint coordinate). Ground (index 0 of the kinematics vector) has
/// all zeros and A = I.
struct BodyKinematics {
  Vec3 r = Vec3::Zero();
  Mat3 A = Mat3::Identity();     ///< body axes -> global
  Vec3 rdot = Vec3::Zero();
  Vec3 omega = Vec3::Zero();     ///< global axes
  Vec3 omega_body = Vec3::Zero();
  VecX w, wdot;                  ///< further coordinates and rates (empty for rigid bodies)
  /// Velocity of a frame block: [r_dot, omega', w_dot].
  VecX velocity() const;
};

/// `base` moved by eps along tangent coordinate i of its block (frameSize: see Formulation):
/// a position [dr global, dtheta body axes, dw] or, with `velocity`, a rate [r_dot, omega', w_dot].
/// For numerical tangents of elements.
void perturbKinematics(const BodyKinematics& base, int frameSize, int i, double eps, bool velocity,
                       BodyKinematics& out);

/// One coordinate block's formulation. Plug-in interface.
class Formulation {
 public:
  virtual ~Formulation() = default;
  virtual int nq() const = 0;
  virtual int nv() const = 0;
  /// Leading velocity coordinates that form a frame [r_dot (3, global), omega' (3, body axes)]:
  /// 6 for bodies, 3 for point bodies (r_dot only: their axes stay the global axes), 0 for blocks
  /// without a pose. Frame blocks store [r, Euler parameters] first in q, point bodies [r].
  virtual int frameSize() const { return 6; }
  /// True when the block has no inertia: its velocities are algebraic (fixed by constraints).
  virtual bool massless() const { return false; }
  /// Trailing velocity coordinates that describe deformation (held still by "frozen" metrics).
  virtual int deformationCoordinates() const { return 0; }

  // Coordinates on the Lie group R^3 x SO(3) x R^n (frame blocks) or R^n (the rest). The defaults
  // below implement that group from frameSize(); a formulation with other coordinates overrides them.
  virtual void kinematics(const Eigen::Ref<const VecX>& q, const Eigen::Ref<const VecX>& v, BodyKinematics& k) const;
  /// q <- q (+) dx for a tangent increment dx (frame: [dr global, dtheta body axes], then additive).
  virtual void retract(Eigen::Ref<VecX> q, const Eigen::Ref<const VecX>& dx) const;
  /// dx = q1 (-) q0, the inverse of retract.
  virtual void tangentDifference(const Eigen::Ref<const VecX>& q1, const Eigen::Ref<const VecX>& q0,
                                 Eigen::Ref<VecX> dx) const;
  /// q_dot = B(q) v.
  virtual void coordinateRate(const Eigen::Ref<const VecX>& q, const Eigen::Ref<const VecX>& v,
                              Eigen::Ref<VecX> qdot) const;
  /// Update after a step or an interpolation (Euler-parameter normalisation).
  virtual void normalize(Eigen::Ref<VecX> q) const;
  /// Pose of the block's user frame (drawing, poses in results); identity for blocks without a frame.
  virtual void userPose(const Eigen::Ref<const VecX>& q, Vec3& position, Quat& orientation) const;

  /// Mass matrix (nv x nv).
  virtual void massMatrix(const BodyKinematics& k, MatX& M) const = 0;
  /// out -= M a (the residual's inertia term; the default builds M).
  virtual void subtractMassTimes(const BodyKinematics& k, const Eigen::Ref<const VecX>& a, Eigen::Ref<VecX> out) const;
  /// Velocity-dependent, gravity and internal (elastic, damping) generalized forces (size nv, set).
  virtual void forces(const BodyKinematics& k, const Vec3& gravity, Eigen::Ref<VecX> f) const = 0;
  /// Adds betap * K + gammap * C, the (approximate) tangent of -forces(), to an iteration matrix.
  virtual void addForceTangent(const BodyKinematics& k, double betap, double gammap, MatX& S) const {}
  /// False when entry (i, j) of the mass matrix and of the force tangent is zero at every state:
  /// the KKT pattern leaves it out unless an element puts something there.
  virtual bool iterationMatrixEntry(int i, int j) const { return true; }
  virtual double kineticEnergy(const BodyKinematics& k) const { return 0.0; }
  /// Gravity potential and strain energy.
  virtual double potentialEnergy(const BodyKinematics& k, const Vec3& gravity) const { return 0.0; }
  virtual double strainEnergy(const BodyKinematics& k) const { return 0.0; }
  /// Power [W] of the damping forces() (structural damping, <= 0), for the work-energy balance
  /// of a run (core/run/quality_monitor.h). NaN when the formulation cannot tell: the balance is
  /// then not checked.
  virtual double dampingPower(const BodyKinematics& k) const { return std::numeric_limits<double>::quiet_NaN(); }
  /// Power [W] of the other forces() that kineticEnergy() and potentialEnergy() do not account
  /// for: a flexible body's geometric stiffening (not conservative, either sign).
  virtual double stiffeningPower(const BodyKinematics& k) const { return 0.0; }
};

/// A marker resolved to its block (-1 = ground) and local frame.
struct MarkerRef {
  int body = -1;
  Vec3 s = Vec3::Zero();          ///< position in body frame
  Mat3 R = Mat3::Identity();      ///< marker axes -> body axes
  int frame = 6;                  ///< the body's Formulation::frameSize() (6 for ground)
  std::string label;              ///< "body.marker" for messages
};

/// Global kinematics of a marker, with Jacobians w.r.t. [r_dot, omega'] of its body.
struct MarkerKinematics {
  Vec3 p, pdot, pddot_bias;  ///< position, velocity, acceleration at zero body acceleration
  Mat3 axes;                 ///< columns: marker x, y, z in global axes
  Mat36 Jp;                  ///< dp/dt = Jp v_body
  Vec3 sg;                   ///< A s (lever arm from body origin, global)
  const BodyKinematics* body;
  /// The body's frame coordinates (Formulation::frameSize; 6 for ground): the columns of a
  /// Jacobian above that are the body's own, frameColumns(Jp); a point body has the first three.
  int frame = 6;
  auto frameColumns(const Mat36& J) const { return J.leftCols(frame); }
  Mat36 axisJacobian(int k) const;         ///< d(axis_k)/dt = axisJacobian(k) v_body
  Vec3 axisRate(int k) const;              ///< omega x axis_k
  Vec3 axisBias(int k) const;              ///< omega x (omega x axis_k)
};

/// How a constraint row is enforced.
enum class RowKind : char {
  Equality,       ///< Phi = 0 (and its derivatives)
  VelocityLevel,  ///< G v + Phi_t = 0 only (non-holonomic); phi is a monitor, not enforced
  Unilateral      ///< Phi >= 0, lambda <= 0, complementary; active rows are enforced as equalities
};

/// Output of one constraint element's evaluation: residuals and one Jacobian block per touched
/// block (rows x nv of that block; ground blocks have 6 columns and are ignored).
struct ConstraintRows {
  VecX phi, phit, gamma;  ///< Phi, dPhi/dt (explicit), Gamma (acceleration bias incl. Phi_tt)
  std::vector<MatX> G;
  /// Sizes and zeroes everything (no allocation when the sizes are unchanged).
  void resize(int rows, const std::vector<int>& cols);
};

/// Square array of matrix blocks over an element's touched blocks: block (r, c) is
/// nv of touched block r x nv of touched block c (ground: 6).
struct ElementTangent {
  std::vector<MatX> K;  ///< K[r * n + c]
  int n = 0;
  void resize(const std::vector<int>& sizes);  ///< sizes and zeroes
  MatX& at(int r, int c) { return K[r * n + c]; }
  const MatX& at(int r, int c) const { return K[r * n + c]; }
};

/// Newton's impact law and Coulomb friction of a contact point (core/system/contacts.h), and of the
/// unilateral rows of a constraint element in the mixed timestepping schemes.
struct ContactLaw {
  double friction = 0.0;                ///< mu
  double restitution = 0.0;             ///< eps_N
  double tangential_restitution = 0.0;  ///< eps_T
};

/// A block of constraint rows (a joint, a driver, a coupling, a reference condition, a contact).
class ConstraintElement {
 public:
  virtual ~ConstraintElement() = default;
  virtual int rows() const = 0;
  virtual RowKind rowKind(int row) const { return RowKind::Equality; }
  /// False for elements that act on one body alone (reference conditions): not a connection.
  virtual bool connects() const { return true; }
  /// Fills phi, phit, gamma and G[k] for every touched block k at time t.
  virtual void evaluate(const System& sys, const std::vector<BodyKinematics>& kin, double t,
                        ConstraintRows& out) const = 0;
  /// Adds scale * d(G^T lambda)/dx to out (sized for the touched blocks): the geometric stiffness
  /// of the constraint forces, with lambda this element's multipliers held fixed and dx the
  /// tangent coordinates of the touched blocks. Newton converges slowly without it when the
  /// multipliers are large. The default differentiates evaluate() numerically; kin is perturbed
  /// in place and restored.
  virtual void addGeometricStiffness(const System& sys, std::vector<BodyKinematics>& kin, double t,
                                     const Eigen::Ref<const VecX>& lambda, double scale, ElementTangent& out) const;
  /// False when the geometric stiffness has no blocks between different touched blocks (the
  /// iteration matrix then needs no pattern for them).
  virtual bool geometricStiffnessCouplesBlocks() const { return true; }
  /// False when entry (row, col) of G[k] is zero at every state: the KKT pattern leaves it out
  /// (a smaller sparse factorisation). Values written there are ignored.
  virtual bool jacobianEntry(int k, int row, int col) const { return true; }
  /// False when entry (i, j) of the geometric stiffness of touched block k on itself is zero at
  /// every state.
  virtual bool geometricStiffnessEntry(int k, int i, int j) const { return true; }
  std::vector<int> blocks;  ///< touched blocks (-1 = ground)
  /// The impact law of its unilateral rows (a joint limit's stops) in the mixed timestepping
  /// schemes: plastic unless the model says otherwise; no friction.
  ContactLaw unilateralLaw;
  std::string label;        ///< "joint 'crank_pin'" or "driver 'motor'"
  /// The model item it comes from, as a JSON path ("joints[2]", "drivers[0]",
  /// "flexible_bodies[0].reference"), so a front end can select it; "" when none.
  std::string where;
  int joint_index = -1;     ///< the model joint this belongs to (drivers: the driven joint)
};

/// Generalized forces of one force element, one vector per touched block (size nv of the block).
struct ForceRows {
  std::vector<VecX> f;
  void resize(const std::vector<int>& sizes);  ///< sizes and zeroes
};

/// An applied-force element acting on any number of blocks. Plug-in interface.
class ForceElement {
 public:
  virtual ~ForceElement() = default;
  /// Generalized forces on every touched block: frame blocks [force (global), torque (body axes)].
  virtual void evaluate(const System& sys, const std::vector<BodyKinematics>& kin, double t,
                        ForceRows& out) const = 0;
  virtual double potentialEnergy(const System& sys, const std::vector<BodyKinematics>& kin) const { return 0.0; }
  /// Power [W] of the element's forces that potentialEnergy() does not account for, for the
  /// work-energy balance of a run (core/run/quality_monitor.h): `damping` dissipated by dampers (<= 0)
  /// and `applied` delivered by applied loads. False when the element cannot tell: the balance
  /// is then not checked (and the run says so, naming the element).
  virtual bool power(const System& sys, const std::vector<BodyKinematics>& kin, double t, double& damping,
                     double& applied) const {
    return false;
  }
  /// False when the forces do not depend on the velocities: the implicit integrator then
  /// differentiates them over the positions only.
  virtual bool dependsOnVelocity() const { return true; }
  /// Optional: the tangent of the forces, K = ∂f/∂x over the tangent coordinates of all touched
  /// blocks in order ([δr global, δθ body axes, δw] each) and D = ∂f/∂v; false (the default): the
  /// implicit integrator differentiates evaluate() numerically. Worth it where differences lose
  /// digits (stiff elements: a beam's axial stiffness against its bending).
  virtual bool tangent(const System& sys, const std::vector<BodyKinematics>& kin, double t, MatX& K, MatX& D) const {
    return false;
  }
  std::vector<int> blocks;  ///< touched blocks (-1 = ground)
  std::string label;

 protected:
  /// Power [W] of this element's own forces at kin (an applied load's power(): all of it is
  /// the load's work, no potential holds any of it).
  double evaluatedPower(const System& sys, const std::vector<BodyKinematics>& kin, double t) const;
};

/// Power [W] of generalized forces on touched blocks: the sum of f[k] . v_k (ground ignored),
/// v_k the velocity of block blocks[k] ([r_dot, omega', w_dot] for frame blocks, else w_dot).
double forcePower(const System& sys, const std::vector<int>& blocks, const ForceRows& rows,
                  const std::vector<BodyKinematics>& kin);

}  // namespace flexim
