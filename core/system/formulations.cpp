#include "core/system/formulations.h"

#include "core/base/rotation.h"

namespace flexim {

// ---- the default Lie-group coordinates: R^3 x SO(3) (frame blocks) x R^n ----------------------

namespace {
Quat quaternionAt(const Eigen::Ref<const VecX>& q) { return Quat(q(3), q(4), q(5), q(6)); }
}  // namespace

VecX BodyKinematics::velocity() const {
  VecX v(6 + wdot.size());
  v << rdot, omega_body, wdot;
  return v;
}

void perturbKinematics(const BodyKinematics& base, int frameSize, int i, double eps, bool velocity,
                       BodyKinematics& out) {
  out = base;
  if (i >= frameSize) (velocity ? out.wdot : out.w)(i - frameSize) += eps;
  else if (i < 3) (velocity ? out.rdot : out.r)(i) += eps;
  else if (velocity) out.omega_body(i - 3) += eps;
  else out.A = base.A * expMap(eps * Vec3::Unit(i - 3)).toRotationMatrix();
  out.omega = out.A * out.omega_body;
}

void Formulation::subtractMassTimes(const BodyKinematics& k, const Eigen::Ref<const VecX>& a,
                                    Eigen::Ref<VecX> out) const {
  thread_local MatX M;
  massMatrix(k, M);
  out.noalias() -= M * a;
}

void Formulation::kinematics(const Eigen::Ref<const VecX>& q, const Eigen::Ref<const VecX>& v, BodyKinematics& k) const {
  const int f = frameSize();
  if (f >= 3) {
    k.r = q.head<3>();
    k.rdot = v.head<3>();
  }
  if (f == 6) {
    k.A = quaternionAt(q).normalized().toRotationMatrix();
    k.omega_body = v.segment<3>(3);
    k.omega = k.A * k.omega_body;
  }
  const int n = nv() - f;
  k.w = q.tail(n);
  k.wdot = v.tail(n);
}

void Formulation::retract(Eigen::Ref<VecX> q, const Eigen::Ref<const VecX>& dx) const {
  const int f = frameSize();
  if (f == 6) {
    q.head<3>() += dx.head<3>();
    const Quat r = quaternionAt(q) * expMap(dx.segment<3>(3));
    const double unit = 1.0 / r.norm();  // one division instead of four
    q.segment<4>(3) << unit * r.w(), unit * r.x(), unit * r.y(), unit * r.z();
  }
  const int n = nv() - (f == 6 ? 6 : 0);  // a point body's r is additive like the rest
  q.tail(n) += dx.tail(n);
}

void Formulation::tangentDifference(const Eigen::Ref<const VecX>& q1, const Eigen::Ref<const VecX>& q0,
                                    Eigen::Ref<VecX> dx) const {
  const int f = frameSize();
  if (f == 6) {
    dx.head<3>() = q1.head<3>() - q0.head<3>();
    dx.segment<3>(3) = logMap(quaternionAt(q0).normalized().conjugate() * quaternionAt(q1).normalized());
  }
  const int n = nv() - (f == 6 ? 6 : 0);  // a point body's r is additive like the rest
  dx.tail(n) = q1.tail(n) - q0.tail(n);
}

void Formulation::coordinateRate(const Eigen::Ref<const VecX>& q, const Eigen::Ref<const VecX>& v,
                                 Eigen::Ref<VecX> qdot) const {
  const int f = frameSize();
  if (f == 6) {
    qdot.head<3>() = v.head<3>();
    // Euler parameters: p_dot = 1/2 p (x) (0, omega')
    const Vec3 w = v.segment<3>(3);
    const auto p = q.segment<4>(3);
    qdot(3) = 0.5 * (-p(1) * w(0) - p(2) * w(1) - p(3) * w(2));
    qdot(4) = 0.5 * (p(0) * w(0) + p(2) * w(2) - p(3) * w(1));
    qdot(5) = 0.5 * (p(0) * w(1) + p(3) * w(0) - p(1) * w(2));
    qdot(6) = 0.5 * (p(0) * w(2) + p(1) * w(1) - p(2) * w(0));
  }
  const int n = nv() - (f == 6 ? 6 : 0);  // a point body's r is additive like the rest
  qdot.tail(n) = v.tail(n);
}

void Formulation::normalize(Eigen::Ref<VecX> q) const {
  if (frameSize() == 6) q.segment<4>(3).normalize();
}

void Formulation::userPose(const Eigen::Ref<const VecX>& q, Vec3& position, Quat& orientation) const {
  position = frameSize() >= 3 ? Vec3(q.head<3>()) : Vec3::Zero();
  orientation = frameSize() == 6 ? quaternionAt(q).normalized() : Quat::Identity();
}

// ---- rigid body ---------------------------------------------------------------------------------

void RigidBodyFormulation::massMatrix(const BodyKinematics&, MatX& M) const {
  M.setZero(6, 6);
  M.topLeftCorner<3, 3>().diagonal().setConstant(m_mass);
  M.bottomRightCorner<3, 3>() = m_J;
}

void RigidBodyFormulation::subtractMassTimes(const BodyKinematics&, const Eigen::Ref<const VecX>& a,
                                             Eigen::Ref<VecX> out) const {
  out.head<3>() -= m_mass * a.head<3>();
  out.tail<3>().noalias() -= m_J * a.tail<3>();
}

void RigidBodyFormulation::forces(const BodyKinematics& k, const Vec3& gravity, Eigen::Ref<VecX> f) const {
  f.head<3>() = m_mass * gravity;
  f.tail<3>() = -k.omega_body.cross(m_J * k.omega_body);
}

void RigidBodyFormulation::addForceTangent(const BodyKinematics& k, double, double gammap, MatX& S) const {
  // gyroscopic term -w x J w: d/dw = -(w~ J - (J w)~)
  const Vec3& w = k.omega_body;
  S.bottomRightCorner<3, 3>() += gammap * (skew(w) * m_J - skew(m_J * w));
}

double RigidBodyFormulation::kineticEnergy(const BodyKinematics& k) const {
  return 0.5 * m_mass * k.rdot.squaredNorm() + 0.5 * k.omega_body.dot(m_J * k.omega_body);
}

double RigidBodyFormulation::potentialEnergy(const BodyKinematics& k, const Vec3& gravity) const {
  return -m_mass * gravity.dot(k.r);
}

// ---- flexible body ------------------------------------------------------------------------------

void FlexibleBodyFormulation::userPose(const Eigen::Ref<const VecX>& q, Vec3& position, Quat& orientation) const {
  Formulation::userPose(q, position, orientation);
  // the FE frame: A_FE = A R^T, r_FE = r - A_FE offset
  orientation = (orientation * Quat(m_body.R).conjugate()).normalized();
  position -= orientation.toRotationMatrix() * m_body.offset;
}

void FlexibleBodyFormulation::massMatrix(const BodyKinematics& k, MatX& M) const { m_body.dyn->massMatrix(k.A, k.w, M); }

void FlexibleBodyFormulation::subtractMassTimes(const BodyKinematics& k, const Eigen::Ref<const VecX>& a,
                                                Eigen::Ref<VecX> out) const {
  thread_local VecX Ma;
  Ma.resize(a.size());
  m_body.dyn->massTimes(k.A, k.w, a, Ma);
  out -= Ma;
}

void FlexibleBodyFormulation::forces(const BodyKinematics& k, const Vec3& gravity, Eigen::Ref<VecX> f) const {
  thread_local VecX part;
  const FlexibleBodyDynamics& dyn = *m_body.dyn;
  dyn.quadraticVelocity(k.A, k.omega_body, k.w, k.wdot, part);
  f = part;
  dyn.elasticForces(k.w, k.wdot, part);
  f += part;
  if (dyn.hasGeometricStiffening()) f.tail(k.w.size()) += dyn.stiffeningForce(k.A, k.omega_body, k.w, k.wdot);
  part.setZero(nv());
  dyn.addGravity(k.A, k.w, gravity, part);
  f += part;
}

void FlexibleBodyFormulation::addForceTangent(const BodyKinematics&, double betap, double gammap, MatX& S) const {
  // modal stiffness and damping (the stiff part); inertia coupling terms are left to Newton
  const int m = m_body.dyn->modes();
  S.bottomRightCorner(m, m) += betap * m_body.dyn->invariants().Kbar + gammap * m_body.dyn->dampingMatrix();
}

double FlexibleBodyFormulation::kineticEnergy(const BodyKinematics& k) const {
  return m_body.dyn->kineticEnergy(k.A, k.w, k.velocity());
}

double FlexibleBodyFormulation::potentialEnergy(const BodyKinematics& k, const Vec3& gravity) const {
  return m_body.dyn->gravityPotential(k.r, k.A, k.w, gravity) + strainEnergy(k);
}

double FlexibleBodyFormulation::strainEnergy(const BodyKinematics& k) const { return m_body.dyn->strainEnergy(k.w); }

double FlexibleBodyFormulation::dampingPower(const BodyKinematics& k) const {
  const MatX& D = m_body.dyn->dampingMatrix();
  return D.size() == 0 ? 0.0 : -k.wdot.dot(D * k.wdot);
}

double FlexibleBodyFormulation::stiffeningPower(const BodyKinematics& k) const {
  if (!m_body.dyn->hasGeometricStiffening()) return 0.0;
  return k.wdot.dot(m_body.dyn->stiffeningForce(k.A, k.omega_body, k.w, k.wdot));
}

}  // namespace flexim
