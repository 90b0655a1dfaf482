// The compiled system: index maps, coordinate layout, constraint and force elements.
// Built once from a ModelSpec before a run and immutable during it.
//
// Bodies, in this order: the rigid bodies of ModelSpec::bodies (same indices), the flexible
// bodies, the virtual bodies. Coordinates of body b start at q offset body(b).q0 / v offset v0:
//   rigid, virtual: q_b = [r (3, global), p (4, Euler parameters w,x,y,z)],  v_b = [r_dot, omega']
//   flexible:       q_b = [r, p, w (m modal coordinates)],  v_b = [r_dot, omega', w_dot]  (seed 000)
// (rigid bodies: reference frame at the centre of mass; virtual bodies are massless.)
// Equations of motion (Lagrange multipliers, sign convention of seed 000 Eq. (1)):
//   M(q) v_dot + G^T lambda = f(q, v, t),  Phi(q, t) = 0,
//   G v + Phi_t = 0,  G v_dot + Gamma = 0  (Gamma = Phi_ddot at zero acceleration).
// Rigid M = blockdiag(m I3, J') is constant; f holds applied forces and -omega' x J' omega'.
// Flexible M(q) and f = s + g + f_el come from FlexibleBodyDynamics (core/system/flexible_body.h).
// Constraint rows may be velocity-level only (non-holonomic, e.g. the rotational mean-axis
// conditions): ConstraintElement::holonomic(row) is false for those, and integrators enforce
// G v + Phi_t = 0 for them instead of Phi = 0.
#pragma once

#include "core/base/diagnostics.h"
#include "core/model/model.h"
#include "core/model/time_function.h"

#include "core/system/flexible_body.h"

#include <Eigen/Core>

#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

namespace flexim {

using Vec6 = Eigen::Matrix<double, 6, 1>;
using Mat36 = Eigen::Matrix<double, 3, 6>;
using Mat6 = Eigen::Matrix<double, 6, 6>;
using VecX = Eigen::VectorXd;
using MatX = Eigen::MatrixXd;

/// Position and velocity of every body (small, copyable; owned by the integrator).
struct State {
  double t = 0.0;
  VecX q;  ///< System::nq(): 7 per rigid/virtual body, 7 + m per flexible body
  VecX v;  ///< System::nv(): 6 per rigid/virtual body, 6 + m per flexible body
};

/// Kinematics of one body derived from its coordinates; ground has all zeros and A = I.
struct BodyKinematics {
  Vec3 r = Vec3::Zero();
  Mat3 A = Mat3::Identity();     ///< body axes -> global
  Vec3 rdot = Vec3::Zero();
  Vec3 omega = Vec3::Zero();     ///< global axes
  Vec3 omega_body = Vec3::Zero();
  VecX w, wdot;                  ///< modal coordinates and rates (flexible bodies; else empty)
  /// Body velocity [r_dot, omega', w_dot] (size 6 + m).
  VecX velocity() const;
};

/// A marker resolved to its body index (-1 = ground) and local frame.
struct MarkerRef {
  int body = -1;
  Vec3 s = Vec3::Zero();          ///< position in body frame
  Mat3 R = Mat3::Identity();      ///< marker axes -> body axes
  std::string label;              ///< "body.marker" for messages
};

/// Global kinematics of a marker, with Jacobians w.r.t. [r_dot, omega'] of its body.
struct MarkerKinematics {
  Vec3 p, pdot, pddot_bias;  ///< position, velocity, acceleration at zero body acceleration
  Mat3 axes;                 ///< columns: marker x, y, z in global axes
  Mat36 Jp;                  ///< dp/dt = Jp v_body
  Vec3 sg;                   ///< A s (lever arm from body origin, global)
  const BodyKinematics* body;
  Mat36 axisJacobian(int k) const;         ///< d(axis_k)/dt = axisJacobian(k) v_body
  Vec3 axisRate(int k) const;              ///< omega x axis_k
  Vec3 axisBias(int k) const;              ///< omega x (omega x axis_k)
};

/// Output of one constraint element's evaluation (rows x ...).
struct ConstraintRows {
  VecX phi, phit, gamma;  ///< Phi, dPhi/dt (explicit), Gamma (acceleration bias incl. Phi_tt)
  MatX G1, G2;            ///< Jacobian blocks w.r.t. body1, body2 velocities (rows x nv of the body)
  void resize(int rows, int cols1 = 6, int cols2 = 6);
};

class System;

/// One holonomic constraint block (a joint or a driver). Plug-in interface.
class ConstraintElement {
 public:
  virtual ~ConstraintElement() = default;
  virtual int rows() const = 0;
  /// False for a row that exists at velocity level only (its phi is a monitor, not enforced).
  virtual bool holonomic(int row) const { return true; }
  /// False for elements that act on one body alone (reference conditions): not a connection.
  virtual bool connects() const { return true; }
  /// Fills phi, G1, G2, phit and gamma at time t.
  virtual void evaluate(const System& sys, const std::vector<BodyKinematics>& kin, double t,
                        ConstraintRows& out) const = 0;
  int body1 = -1, body2 = -1;
  std::string label;      ///< "joint 'crank_pin'" or "driver 'motor'"
  int joint_index = -1;   ///< the ModelSpec joint this belongs to (drivers: the driven joint)
};

/// One force element acting on up to two bodies. Plug-in interface.
class ForceElement {
 public:
  virtual ~ForceElement() = default;
  /// Generalized forces [force (global), torque (body axes)] on body1 and body2.
  virtual void evaluate(const System& sys, const std::vector<BodyKinematics>& kin, double t,
                        Vec6& f1, Vec6& f2) const = 0;
  virtual double potentialEnergy(const System& sys, const std::vector<BodyKinematics>& kin) const {
    return 0.0;
  }
  int body1 = -1, body2 = -1;
  std::string label;
};

enum class BodyKind { Rigid, Flexible, Virtual };

struct BodyData {
  std::string name;
  double mass = 0.0;
  Mat3 J = Mat3::Identity();  ///< rigid: inertia about the centre of mass, body axes
  BodyKind kind = BodyKind::Rigid;
  int q0 = 0, v0 = 0;         ///< offsets of the body's coordinates in q and v
  int modes = 0;              ///< modal coordinates (flexible bodies)
  int flex = -1;              ///< index into System::flexibleBodies()
  int nq() const { return 7 + modes; }
  int nv() const { return 6 + modes; }
};

/// A compiled flexible body. Its internal frame is the FE frame moved by (offset, R):
/// x_FE = offset + R x (identity unless the principal-axis conditions need the frame at the
/// centre of mass on the principal axes). `data` is the reduced body in the internal frame with
/// the selected modes; nothing in a time step loops over its nodes.
struct FlexibleBody {
  int body = -1;
  std::shared_ptr<const fe::ReducedBody> data;
  std::unique_ptr<FlexibleBodyDynamics> dyn;
  Vec3 offset = Vec3::Zero();
  Mat3 R = Mat3::Identity();
  std::unordered_map<int, int> nodeIndex;  ///< FE node id -> node index
  /// Mode-shape rows of node k (3 x m).
  MatX nodeModes(int k) const { return data->modes.middleRows(3 * k, 3); }
};

class System {
 public:
  /// Compiles the model; errors name the item (e.g. "joints[1] 'pin': unknown marker 'B'").
  static std::unique_ptr<System> compile(const ModelSpec& model, Diagnostics& diag);

  int nb() const { return static_cast<int>(m_bodies.size()); }
  int nq() const { return m_nq; }
  int nv() const { return m_nv; }
  int nc() const { return m_rows; }  ///< total constraint rows

  const std::vector<BodyData>& bodies() const { return m_bodies; }
  const BodyData& body(int b) const { return m_bodies[b]; }
  const std::vector<FlexibleBody>& flexibleBodies() const { return m_flex; }
  /// Velocity coordinates of body b (6 for ground, so Jacobian blocks of ground have a size).
  int bodyNv(int b) const { return b < 0 ? 6 : m_bodies[b].nv(); }
  /// Per-row flag of the stacked constraint vector: 1 holonomic, 0 velocity level only.
  const std::vector<char>& holonomicRows() const { return m_holonomic; }
  const std::vector<std::unique_ptr<ConstraintElement>>& constraints() const { return m_constraints; }
  const std::vector<int>& constraintOffsets() const { return m_offsets; }
  const std::vector<std::unique_ptr<ForceElement>>& forces() const { return m_forces; }
  const Vec3& gravity() const { return m_gravity; }
  const ModelSpec& model() const { return m_model; }

  /// Marker lookup by body name + marker name; nullptr when absent.
  const MarkerRef* marker(const std::string& body, const std::string& name) const;
  int bodyIndex(const std::string& name) const;  ///< -1 for ground, -2 when unknown

  /// Initial state from the model (before assembly).
  State initialState() const;
  void kinematics(const State& s, std::vector<BodyKinematics>& kin) const;
  BodyKinematics bodyKinematics(const VecX& q, const VecX& v, int b) const;
  MarkerKinematics markerKinematics(const std::vector<BodyKinematics>& kin, const MarkerRef& m) const;

  /// Applied, gyroscopic/quadratic-velocity and elastic generalized forces (size nv).
  void forces(const std::vector<BodyKinematics>& kin, double t, VecX& f) const;
  /// Mass matrix of body b (nv_b x nv_b): constant for rigid bodies, zero for virtual bodies,
  /// configuration-dependent for flexible bodies.
  void massMatrix(const std::vector<BodyKinematics>& kin, int b, MatX& M) const;
  /// Elastic stiffness and damping of body b's modal coordinates (m x m; empty for rigid).
  const MatX& modalStiffness(int b) const;
  const MatX& modalDamping(int b) const;
  /// Evaluates every constraint element into per-element rows.
  void constraints(const std::vector<BodyKinematics>& kin, double t, std::vector<ConstraintRows>& out) const;
  /// Evaluates constraint element c alone.
  void constraint(int c, const std::vector<BodyKinematics>& kin, double t, ConstraintRows& out) const;
  /// Total kinetic and potential energy (potential: gravity, springs and strain).
  double kineticEnergy(const std::vector<BodyKinematics>& kin) const;
  double potentialEnergy(const std::vector<BodyKinematics>& kin) const;
  double strainEnergy(const std::vector<BodyKinematics>& kin) const;

  /// Moves q by a tangent increment dx (per body [dr global, dtheta body axes, dw]).
  void retract(VecX& q, const VecX& dx) const;
  /// Tangent difference q1 "minus" q0 (inverse of retract, per body).
  VecX tangentDifference(const VecX& q1, const VecX& q0) const;
  /// Normalises every Euler-parameter quadruple.
  void normalizeQuaternions(VecX& q) const;
  /// Pose of body b's user frame (for flexible bodies the FE frame) from q.
  void bodyPose(const VecX& q, int b, Vec3& position, Quat& orientation) const;

 private:
  ModelSpec m_model;
  std::vector<BodyData> m_bodies;
  std::vector<FlexibleBody> m_flex;
  std::vector<VecX> m_initialModal;  ///< per flexible body
  int m_nq = 0, m_nv = 0;
  std::vector<char> m_holonomic;
  State m_initial;
  /// Point forces on flexible-body nodes (seed 000 section 2.10): g += J_k^T F.
  struct NodeLoad {
    int flex = -1, node = -1;
    Vec3 vector = Vec3::Zero();
    bool bodyAxes = false;
    TimeFunction function;
  };
  std::vector<NodeLoad> m_nodeLoads;
  /// Flexible and virtual bodies, their reference conditions and rf joints (flexible_compile.cpp).
  void compileFlexible(const ModelSpec& model, Diagnostics& diag);
  void addBody(BodyData body);
  /// Fills k from body b's coordinates (w, wdot keep their storage: no allocation per call).
  void fillKinematics(const VecX& q, const VecX& v, int b, BodyKinematics& k) const;
  std::vector<std::vector<MarkerRef>> m_markers;  ///< [body+1][marker], index 0 = ground
  std::unordered_map<std::string, int> m_bodyIndex;                 ///< name -> body index
  std::vector<std::unordered_map<std::string, int>> m_markerIndex;  ///< [body+1]: name -> marker
  std::vector<std::unique_ptr<ConstraintElement>> m_constraints;
  std::vector<int> m_offsets;  ///< first row of each constraint element
  int m_rows = 0;
  std::vector<std::unique_ptr<ForceElement>> m_forces;
  Vec3 m_gravity = Vec3::Zero();
};

/// G v + Phi_t of constraint element c (rows evaluated by System::constraints).
VecX constraintVelocity(const System& sys, int c, const ConstraintRows& rows, const VecX& v);
/// out (size nv) += G^T lambda over all constraint elements.
void addConstraintForces(const System& sys, const std::vector<ConstraintRows>& rows, const VecX& lambda, VecX& out);

}  // namespace flexim
