#include "core/system/system.h"

#include "core/base/rotation.h"
#include "core/system/force_elements.h"
#include "core/system/joints.h"

#include <Eigen/Eigenvalues>

#include <cmath>
#include <set>

namespace flexim {

void ConstraintRows::resize(int rows) {
  phi.setZero(rows);
  phit.setZero(rows);
  gamma.setZero(rows);
  G1.setZero(rows, 6);
  G2.setZero(rows, 6);
}

Mat36 MarkerKinematics::axisJacobian(int k) const {
  Mat36 J = Mat36::Zero();
  // d(A a')/dt = omega x (A a') = -(A a')~ A omega'
  J.rightCols<3>() = -skew(axes.col(k)) * body->A;
  return J;
}
Vec3 MarkerKinematics::axisRate(int k) const { return body->omega.cross(axes.col(k)); }
Vec3 MarkerKinematics::axisBias(int k) const { return body->omega.cross(body->omega.cross(axes.col(k))); }

namespace {

bool finite(const Vec3& v) { return v.allFinite(); }

std::string quoted(const std::string& s) { return "'" + s + "'"; }

}  // namespace

std::unique_ptr<System> System::compile(const ModelSpec& model, Diagnostics& diag) {
  auto sys = std::unique_ptr<System>(new System());
  sys->m_model = model;
  sys->m_gravity = model.gravity;

  // bodies and markers
  std::set<std::string> names{kGroundName};
  sys->m_markers.resize(model.bodies.size() + 1);
  sys->m_markerIndex.resize(model.bodies.size() + 1);
  auto addMarkers = [&](int body, const std::string& bodyName, const std::vector<MarkerSpec>& markers,
                        const std::string& path) {
    std::set<std::string> seen;
    for (size_t i = 0; i < markers.size(); ++i) {
      const auto& m = markers[i];
      const std::string where = path + ".markers[" + std::to_string(i) + "]";
      if (!seen.insert(m.name).second) diag.error(where, "duplicate marker name " + quoted(m.name));
      if (!finite(m.position) || !m.orientation.coeffs().allFinite() || m.orientation.norm() < 1e-12)
        diag.error(where, "position/orientation must be finite with a non-zero quaternion");
      MarkerRef ref;
      ref.body = body;
      ref.s = m.position;
      ref.R = m.orientation.normalized().toRotationMatrix();
      ref.label = bodyName + "." + m.name;
      sys->m_markerIndex[body + 1].emplace(m.name, static_cast<int>(sys->m_markers[body + 1].size()));
      sys->m_markers[body + 1].push_back(ref);
    }
  };
  addMarkers(-1, kGroundName, model.ground_markers, "ground");
  for (size_t b = 0; b < model.bodies.size(); ++b) {
    const auto& spec = model.bodies[b];
    const std::string where = "bodies[" + std::to_string(b) + "]";
    if (!names.insert(spec.name).second) diag.error(where + ".name", "duplicate name " + quoted(spec.name));
    if (!(spec.mass > 0) || !std::isfinite(spec.mass)) diag.error(where + ".mass", "expected a positive mass");
    const Mat3 J = 0.5 * (spec.inertia + spec.inertia.transpose());
    Eigen::SelfAdjointEigenSolver<Mat3> eig(J);
    if (!spec.inertia.allFinite() || (spec.inertia - spec.inertia.transpose()).norm() > 1e-9 * (1 + J.norm()) ||
        eig.eigenvalues().minCoeff() <= 0)
      diag.error(where + ".inertia", "expected 3x3 symmetric positive-definite matrix");
    if (!finite(spec.position) || !finite(spec.velocity) || !finite(spec.angular_velocity) ||
        !spec.orientation.coeffs().allFinite() || spec.orientation.norm() < 1e-12)
      diag.error(where, "initial position, orientation and velocities must be finite");
    sys->m_bodyIndex.emplace(spec.name, static_cast<int>(b));
    sys->m_bodies.push_back({spec.name, spec.mass, J});
    addMarkers(static_cast<int>(b), spec.name, spec.markers, where);
  }

  auto resolve = [&](const std::string& body, const std::string& marker, const std::string& where) -> const MarkerRef* {
    if (sys->bodyIndex(body) == -2) {
      diag.error(where, "unknown body " + quoted(body));
      return nullptr;
    }
    const MarkerRef* m = sys->marker(body, marker);
    if (!m) diag.error(where, "body " + quoted(body) + " has no marker " + quoted(marker));
    return m;
  };

  // joints
  std::vector<int> jointConstraint(model.joints.size(), -1);
  for (size_t j = 0; j < model.joints.size(); ++j) {
    const auto& spec = model.joints[j];
    const std::string where = "joints[" + std::to_string(j) + "] " + quoted(spec.name);
    const MarkerRef* m1 = resolve(spec.body1, spec.marker1, where + ".marker1");
    const MarkerRef* m2 = resolve(spec.body2, spec.marker2, where + ".marker2");
    if (!m1 || !m2) continue;
    if (m1->body == m2->body) {
      diag.error(where, "connects body " + quoted(spec.body1) + " to itself");
      continue;
    }
    auto c = makeJoint(spec.type, *m1, *m2);
    c->label = "joint " + quoted(spec.name);
    c->joint_index = static_cast<int>(j);
    jointConstraint[j] = static_cast<int>(sys->m_constraints.size());
    sys->m_constraints.push_back(std::move(c));
  }

  // drivers act between the markers of the joint they drive
  for (size_t d = 0; d < model.drivers.size(); ++d) {
    const auto& spec = model.drivers[d];
    const std::string where = "drivers[" + std::to_string(d) + "] " + quoted(spec.name);
    int j = -1;
    for (size_t k = 0; k < model.joints.size(); ++k)
      if (model.joints[k].name == spec.joint) j = static_cast<int>(k);
    if (j < 0 || jointConstraint[j] < 0) {
      diag.error(where + ".joint", "unknown joint " + quoted(spec.joint));
      continue;
    }
    const JointType jt = model.joints[j].type;
    const bool rot = spec.coordinate == DriverSpec::Coordinate::Rotation;
    const bool ok = rot ? (jt == JointType::Revolute || jt == JointType::Cylindrical)
                        : (jt == JointType::Prismatic || jt == JointType::Cylindrical);
    if (!ok) {
      diag.error(where + ".coordinate", std::string("a ") + toString(jt) + " joint has no " +
                                            (rot ? "rotation" : "translation") + " coordinate to drive");
      continue;
    }
    const std::string fnError = TimeFunction::check(spec.function);
    if (!fnError.empty()) {
      diag.error(where + ".function", fnError);
      continue;
    }
    const auto& js = model.joints[j];
    auto c = makeDriver(spec.coordinate, *sys->marker(js.body1, js.marker1), *sys->marker(js.body2, js.marker2),
                        spec.function);
    c->label = "driver " + quoted(spec.name);
    c->joint_index = j;
    sys->m_constraints.push_back(std::move(c));
  }
  for (const auto& c : sys->m_constraints) {
    sys->m_offsets.push_back(sys->m_rows);
    sys->m_rows += c->rows();
  }

  // forces
  for (size_t f = 0; f < model.forces.size(); ++f) {
    const auto& spec = model.forces[f];
    const std::string where = "forces[" + std::to_string(f) + "] " + quoted(spec.name);
    const bool twoEnds = spec.type == ForceSpec::Type::SpringDamper || spec.type == ForceSpec::Type::Bushing;
    const MarkerRef* m1 = resolve(spec.body1, spec.marker1, where + (twoEnds ? ".marker1" : ".marker"));
    const MarkerRef* m2 = twoEnds ? resolve(spec.body2, spec.marker2, where + ".marker2") : m1;
    const std::string fnError = TimeFunction::check(spec.function);
    if (!fnError.empty()) diag.error(where + ".function", fnError);
    if (!m1 || !m2 || !fnError.empty()) continue;
    auto e = makeForceElement(spec, *m1, *m2);
    e->label = "force " + quoted(spec.name);
    sys->m_forces.push_back(std::move(e));
  }

  if (diag.hasErrors()) return nullptr;
  return sys;
}

int System::bodyIndex(const std::string& name) const {
  if (name == kGroundName) return -1;
  const auto it = m_bodyIndex.find(name);
  return it == m_bodyIndex.end() ? -2 : it->second;
}

const MarkerRef* System::marker(const std::string& body, const std::string& name) const {
  const int b = bodyIndex(body);
  if (b == -2) return nullptr;
  const auto it = m_markerIndex[b + 1].find(name);
  return it == m_markerIndex[b + 1].end() ? nullptr : &m_markers[b + 1][it->second];
}

State System::initialState() const {
  State s;
  s.q.setZero(nq());
  s.v.setZero(nv());
  for (int b = 0; b < nb(); ++b) {
    const auto& spec = m_model.bodies[b];
    const Quat p = spec.orientation.normalized();
    s.q.segment<3>(7 * b) = spec.position;
    s.q.segment<4>(7 * b + 3) << p.w(), p.x(), p.y(), p.z();
    s.v.segment<3>(6 * b) = spec.velocity;
    s.v.segment<3>(6 * b + 3) = p.toRotationMatrix().transpose() * spec.angular_velocity;
  }
  return s;
}

BodyKinematics System::bodyKinematics(const VecX& q, const VecX& v, int b) {
  BodyKinematics k;
  k.r = q.segment<3>(7 * b);
  const Eigen::Vector4d p = q.segment<4>(7 * b + 3);
  k.A = Quat(p(0), p(1), p(2), p(3)).normalized().toRotationMatrix();
  k.rdot = v.segment<3>(6 * b);
  k.omega_body = v.segment<3>(6 * b + 3);
  k.omega = k.A * k.omega_body;
  return k;
}

void System::kinematics(const State& s, std::vector<BodyKinematics>& kin) const {
  // index 0 is ground, body b is at b + 1 (so ground markers need no special case)
  kin.resize(nb() + 1);
  kin[0] = BodyKinematics{};
  for (int b = 0; b < nb(); ++b) kin[b + 1] = bodyKinematics(s.q, s.v, b);
}

MarkerKinematics System::markerKinematics(const std::vector<BodyKinematics>& kin, const MarkerRef& m) const {
  MarkerKinematics k;
  k.body = &kin[m.body + 1];
  const BodyKinematics& B = *k.body;
  k.sg = B.A * m.s;
  k.p = B.r + k.sg;
  k.pdot = B.rdot + B.omega.cross(k.sg);
  k.pddot_bias = B.omega.cross(B.omega.cross(k.sg));
  k.axes = B.A * m.R;
  k.Jp.leftCols<3>().setIdentity();
  k.Jp.rightCols<3>() = -B.A * skew(m.s);
  return k;
}

Mat6 System::massBlock(int b) const {
  Mat6 M = Mat6::Zero();
  M.topLeftCorner<3, 3>().diagonal().setConstant(m_bodies[b].mass);
  M.bottomRightCorner<3, 3>() = m_bodies[b].J;
  return M;
}

void System::forces(const std::vector<BodyKinematics>& kin, double t, VecX& f) const {
  f.setZero(nv());
  for (int b = 0; b < nb(); ++b) {
    const auto& B = kin[b + 1];
    const Mat3& J = m_bodies[b].J;
    f.segment<3>(6 * b) = m_bodies[b].mass * m_gravity;
    f.segment<3>(6 * b + 3) = -B.omega_body.cross(J * B.omega_body);
  }
  Vec6 f1, f2;
  for (const auto& e : m_forces) {
    e->evaluate(*this, kin, t, f1, f2);
    if (e->body1 >= 0) f.segment<6>(6 * e->body1) += f1;
    if (e->body2 >= 0 && e->body2 != e->body1) f.segment<6>(6 * e->body2) += f2;
  }
}

void System::constraints(const std::vector<BodyKinematics>& kin, double t, std::vector<ConstraintRows>& out) const {
  out.resize(m_constraints.size());
  for (size_t c = 0; c < m_constraints.size(); ++c) {
    out[c].resize(m_constraints[c]->rows());
    m_constraints[c]->evaluate(*this, kin, t, out[c]);
  }
}

double System::kineticEnergy(const std::vector<BodyKinematics>& kin) const {
  double T = 0;
  for (int b = 0; b < nb(); ++b) {
    const auto& B = kin[b + 1];
    T += 0.5 * m_bodies[b].mass * B.rdot.squaredNorm() + 0.5 * B.omega_body.dot(m_bodies[b].J * B.omega_body);
  }
  return T;
}

double System::potentialEnergy(const std::vector<BodyKinematics>& kin) const {
  double V = 0;
  for (int b = 0; b < nb(); ++b) V -= m_bodies[b].mass * m_gravity.dot(kin[b + 1].r);
  for (const auto& e : m_forces) V += e->potentialEnergy(*this, kin);
  return V;
}

void System::retract(VecX& q, const VecX& dx) {
  const int n = static_cast<int>(q.size() / 7);
  for (int b = 0; b < n; ++b) {
    q.segment<3>(7 * b) += dx.segment<3>(6 * b);
    const Eigen::Vector4d p = q.segment<4>(7 * b + 3);
    const Quat r = (Quat(p(0), p(1), p(2), p(3)) * expMap(dx.segment<3>(6 * b + 3))).normalized();
    q.segment<4>(7 * b + 3) << r.w(), r.x(), r.y(), r.z();
  }
}

VecX System::tangentDifference(const VecX& q1, const VecX& q0) {
  const int n = static_cast<int>(q0.size() / 7);
  VecX dx(6 * n);
  for (int b = 0; b < n; ++b) {
    dx.segment<3>(6 * b) = q1.segment<3>(7 * b) - q0.segment<3>(7 * b);
    const Eigen::Vector4d a = q0.segment<4>(7 * b + 3), c = q1.segment<4>(7 * b + 3);
    const Quat p0(a(0), a(1), a(2), a(3)), p1(c(0), c(1), c(2), c(3));
    dx.segment<3>(6 * b + 3) = logMap(p0.normalized().conjugate() * p1.normalized());
  }
  return dx;
}

void System::normalizeQuaternions(VecX& q) {
  const int n = static_cast<int>(q.size() / 7);
  for (int b = 0; b < n; ++b) q.segment<4>(7 * b + 3).normalize();
}

}  // namespace flexim
