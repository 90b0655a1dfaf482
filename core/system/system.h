// The compiled system: index maps, coordinate layout, constraint and force elements.
// Built once from a ModelSpec before a run and immutable during it.
//
// Coordinates (per rigid body b, reference frame at the centre of mass):
//   q_b = [r (3, global), p (4, Euler parameters w,x,y,z)]      -> q has 7*nb entries
//   v_b = [r_dot (3, global), omega' (3, body axes)]             -> v has 6*nb entries
// Equations of motion (Lagrange multipliers, sign convention of seed 000 Eq. (1)):
//   M v_dot + G^T lambda = f(q, v, t),  Phi(q, t) = 0,
//   G v + Phi_t = 0,  G v_dot + Gamma = 0  (Gamma = Phi_ddot at zero acceleration).
// M = blockdiag(m I3, J') is constant; f holds applied forces and -omega' x J' omega'.
#pragma once

#include "core/base/diagnostics.h"
#include "core/model/model.h"
#include "core/model/time_function.h"

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
  VecX q;  ///< 7 * nb
  VecX v;  ///< 6 * nb
};

/// Kinematics of one body derived from its coordinates; ground has all zeros and A = I.
struct BodyKinematics {
  Vec3 r = Vec3::Zero();
  Mat3 A = Mat3::Identity();     ///< body axes -> global
  Vec3 rdot = Vec3::Zero();
  Vec3 omega = Vec3::Zero();     ///< global axes
  Vec3 omega_body = Vec3::Zero();
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
  Eigen::Matrix<double, Eigen::Dynamic, 6> G1, G2;  ///< Jacobian blocks w.r.t. body1, body2 velocities
  void resize(int rows);
};

class System;

/// One holonomic constraint block (a joint or a driver). Plug-in interface.
class ConstraintElement {
 public:
  virtual ~ConstraintElement() = default;
  virtual int rows() const = 0;
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

struct BodyData {
  std::string name;
  double mass = 0.0;
  Mat3 J = Mat3::Identity();  ///< inertia about the centre of mass, body axes
};

class System {
 public:
  /// Compiles the model; errors name the item (e.g. "joints[1] 'pin': unknown marker 'B'").
  static std::unique_ptr<System> compile(const ModelSpec& model, Diagnostics& diag);

  int nb() const { return static_cast<int>(m_bodies.size()); }
  int nq() const { return 7 * nb(); }
  int nv() const { return 6 * nb(); }
  int nc() const { return m_rows; }  ///< total constraint rows

  const std::vector<BodyData>& bodies() const { return m_bodies; }
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
  static BodyKinematics bodyKinematics(const VecX& q, const VecX& v, int b);
  MarkerKinematics markerKinematics(const std::vector<BodyKinematics>& kin, const MarkerRef& m) const;

  /// Applied + gyroscopic generalized forces (size nv).
  void forces(const std::vector<BodyKinematics>& kin, double t, VecX& f) const;
  /// Mass block of body b (6x6, constant).
  Mat6 massBlock(int b) const;
  /// Evaluates every constraint element into per-element rows.
  void constraints(const std::vector<BodyKinematics>& kin, double t, std::vector<ConstraintRows>& out) const;
  /// Total kinetic and potential energy.
  double kineticEnergy(const std::vector<BodyKinematics>& kin) const;
  double potentialEnergy(const std::vector<BodyKinematics>& kin) const;

  /// Moves q by a tangent increment dx (per body [dr global, dtheta body axes]).
  static void retract(VecX& q, const VecX& dx);
  /// Tangent difference q1 "minus" q0 (inverse of retract, per body).
  static VecX tangentDifference(const VecX& q1, const VecX& q0);
  /// Normalises every Euler-parameter quadruple.
  static void normalizeQuaternions(VecX& q);

 private:
  ModelSpec m_model;
  std::vector<BodyData> m_bodies;
  std::vector<std::vector<MarkerRef>> m_markers;  ///< [body+1][marker], index 0 = ground
  std::unordered_map<std::string, int> m_bodyIndex;                 ///< name -> body index
  std::vector<std::unordered_map<std::string, int>> m_markerIndex;  ///< [body+1]: name -> marker
  std::vector<std::unique_ptr<ConstraintElement>> m_constraints;
  std::vector<int> m_offsets;  ///< first row of each constraint element
  int m_rows = 0;
  std::vector<std::unique_ptr<ForceElement>> m_forces;
  Vec3 m_gravity = Vec3::Zero();
};

}  // namespace flexim
