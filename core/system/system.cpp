#include "core/system/system.h"

#include "core/base/rotation.h"
#include "core/system/force_elements.h"
#include "core/system/joints.h"

#include <Eigen/Eigenvalues>

#include <cmath>
#include <set>

namespace flexim {

void ConstraintRows::resize(int rows, int cols1, int cols2) {
  phi.setZero(rows);
  phit.setZero(rows);
  gamma.setZero(rows);
  G1.setZero(rows, cols1);
  G2.setZero(rows, cols2);
}

VecX BodyKinematics::velocity() const {
  VecX v(6 + wdot.size());
  v << rdot, omega_body, wdot;
  return v;
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
    BodyData body;
    body.name = spec.name;
    body.mass = spec.mass;
    body.J = J;
    sys->addBody(body);
    addMarkers(static_cast<int>(b), spec.name, spec.markers, where);
  }
  // flexible bodies, virtual bodies (with their markers), reference conditions and rf joints
  for (const auto& f : model.flexible_bodies)
    if (!names.insert(f.name).second) diag.error("flexible_bodies '" + f.name + "'", "duplicate name " + quoted(f.name));
  for (const auto& v : model.virtual_bodies)
    if (!names.insert(v.name).second) diag.error("virtual_bodies '" + v.name + "'", "duplicate name " + quoted(v.name));
  sys->m_markers.resize(model.bodies.size() + model.flexible_bodies.size() + model.virtual_bodies.size() + 1);
  sys->m_markerIndex.resize(sys->m_markers.size());
  sys->compileFlexible(model, diag);
  for (size_t v = 0; v < model.virtual_bodies.size(); ++v) {
    const int b = sys->bodyIndex(model.virtual_bodies[v].name);
    if (b >= 0 && sys->m_bodies[b].kind == BodyKind::Virtual)
      addMarkers(b, model.virtual_bodies[v].name, model.virtual_bodies[v].markers,
                 "virtual_bodies[" + std::to_string(v) + "]");
  }

  auto resolve = [&](const std::string& body, const std::string& marker, const std::string& where) -> const MarkerRef* {
    if (sys->bodyIndex(body) == -2) {
      diag.error(where, "unknown body " + quoted(body));
      return nullptr;
    }
    const int b = sys->bodyIndex(body);
    if (b >= 0 && sys->m_bodies[b].kind == BodyKind::Flexible) {
      diag.error(where, quoted(body) + " is a flexible body; connect it through a virtual body");
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
    for (int i = 0; i < c->rows(); ++i) sys->m_holonomic.push_back(c->holonomic(i) ? 1 : 0);
  }

  // forces
  for (size_t f = 0; f < model.forces.size(); ++f) {
    const auto& spec = model.forces[f];
    const std::string where = "forces[" + std::to_string(f) + "] " + quoted(spec.name);
    const bool twoEnds = spec.type == ForceSpec::Type::SpringDamper || spec.type == ForceSpec::Type::Bushing;
    const int loaded = sys->bodyIndex(spec.body1);
    if (loaded >= 0 && sys->m_bodies[loaded].kind == BodyKind::Flexible) {
      // a point force on an FE node of a flexible body
      const FlexibleBody& F = sys->m_flex[sys->m_bodies[loaded].flex];
      const auto it = F.nodeIndex.find(spec.node);
      const std::string fnError = TimeFunction::check(spec.function);
      if (spec.type != ForceSpec::Type::PointForce)
        diag.error(where + ".type", "only point forces act on a flexible body directly (use a virtual body for the rest)");
      else if (it == F.nodeIndex.end())
        diag.error(where + ".node", quoted(spec.body1) + " has no node " + std::to_string(spec.node));
      else if (!fnError.empty())
        diag.error(where + ".function", fnError);
      else if (!spec.vector.allFinite())
        diag.error(where + ".vector", "must be finite");
      else
        sys->m_nodeLoads.push_back({sys->m_bodies[loaded].flex, it->second, F.R.transpose() * spec.vector,
                                    spec.frame == ForceSpec::Frame::Marker, TimeFunction(spec.function)});
      continue;
    }
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
  // initial state: rigid bodies from their specs (flexible and virtual ones set by compileFlexible)
  for (size_t b = 0; b < model.bodies.size(); ++b) {
    const auto& spec = model.bodies[b];
    const Quat p = spec.orientation.normalized();
    const int q0 = sys->m_bodies[b].q0, v0 = sys->m_bodies[b].v0;
    sys->m_initial.q.segment<3>(q0) = spec.position;
    sys->m_initial.q.segment<4>(q0 + 3) << p.w(), p.x(), p.y(), p.z();
    sys->m_initial.v.segment<3>(v0) = spec.velocity;
    sys->m_initial.v.segment<3>(v0 + 3) = p.toRotationMatrix().transpose() * spec.angular_velocity;
  }
  return sys;
}

void System::addBody(BodyData body) {
  body.q0 = m_nq;
  body.v0 = m_nv;
  m_nq += body.nq();
  m_nv += body.nv();
  m_bodyIndex.emplace(body.name, static_cast<int>(m_bodies.size()));
  m_bodies.push_back(std::move(body));
  m_initial.q.conservativeResize(m_nq);
  m_initial.v.conservativeResize(m_nv);
  m_initial.q.tail(m_bodies.back().nq()).setZero();
  m_initial.q(m_bodies.back().q0 + 3) = 1.0;
  m_initial.v.tail(m_bodies.back().nv()).setZero();
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

State System::initialState() const { return m_initial; }

void System::fillKinematics(const VecX& q, const VecX& v, int b, BodyKinematics& k) const {
  const BodyData& B = m_bodies[b];
  const auto p = q.segment<4>(B.q0 + 3);
  k.r = q.segment<3>(B.q0);
  k.A = Quat(p(0), p(1), p(2), p(3)).normalized().toRotationMatrix();
  k.rdot = v.segment<3>(B.v0);
  k.omega_body = v.segment<3>(B.v0 + 3);
  k.omega = k.A * k.omega_body;
  k.w = q.segment(B.q0 + 7, B.modes);
  k.wdot = v.segment(B.v0 + 6, B.modes);
}

BodyKinematics System::bodyKinematics(const VecX& q, const VecX& v, int b) const {
  BodyKinematics k;
  fillKinematics(q, v, b, k);
  return k;
}

void System::kinematics(const State& s, std::vector<BodyKinematics>& kin) const {
  // index 0 is ground, body b is at b + 1 (so ground markers need no special case)
  kin.resize(nb() + 1);
  kin[0] = BodyKinematics{};
  for (int b = 0; b < nb(); ++b) fillKinematics(s.q, s.v, b, kin[b + 1]);
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

void System::massMatrix(const std::vector<BodyKinematics>& kin, int b, MatX& M) const {
  const BodyData& B = m_bodies[b];
  switch (B.kind) {
    case BodyKind::Rigid:
      M.setZero(6, 6);
      M.topLeftCorner<3, 3>().diagonal().setConstant(B.mass);
      M.bottomRightCorner<3, 3>() = B.J;
      break;
    case BodyKind::Virtual: M.setZero(6, 6); break;
    case BodyKind::Flexible: m_flex[B.flex].dyn->massMatrix(kin[b + 1].A, kin[b + 1].w, M); break;
  }
}

const MatX& System::modalStiffness(int b) const {
  static const MatX empty;
  return m_bodies[b].flex >= 0 ? m_flex[m_bodies[b].flex].dyn->invariants().Kbar : empty;
}

const MatX& System::modalDamping(int b) const {
  static const MatX empty;
  return m_bodies[b].flex >= 0 ? m_flex[m_bodies[b].flex].dyn->dampingMatrix() : empty;
}

void System::forces(const std::vector<BodyKinematics>& kin, double t, VecX& f) const {
  f.setZero(nv());
  VecX fb;
  for (int b = 0; b < nb(); ++b) {
    const BodyData& B = m_bodies[b];
    const auto& K = kin[b + 1];
    if (B.kind == BodyKind::Rigid) {
      f.segment<3>(B.v0) = B.mass * m_gravity;
      f.segment<3>(B.v0 + 3) = -K.omega_body.cross(B.J * K.omega_body);
    } else if (B.kind == BodyKind::Flexible) {
      const FlexibleBodyDynamics& dyn = *m_flex[B.flex].dyn;
      dyn.quadraticVelocity(K.A, K.omega_body, K.w, K.wdot, fb);
      auto seg = f.segment(B.v0, B.nv());
      seg = fb;
      dyn.elasticForces(K.w, K.wdot, fb);
      seg += fb;
      fb.setZero(B.nv());
      dyn.addGravity(K.A, K.w, m_gravity, fb);
      seg += fb;
    }
  }
  for (const NodeLoad& L : m_nodeLoads) {
    const FlexibleBody& F = m_flex[L.flex];
    const BodyData& B = m_bodies[F.body];
    const auto& K = kin[F.body + 1];
    // vector is stored in the internal body axes; a global load is rotated back first
    const Vec3 Fg = L.function(t).f * (L.bodyAxes ? Vec3(K.A * L.vector) : Vec3(F.R * L.vector));
    fb.setZero(B.nv());
    F.dyn->addPointForce(K.A, K.w, F.data->coords[L.node], F.nodeModes(L.node), Fg, fb);
    f.segment(B.v0, B.nv()) += fb;
  }
  Vec6 f1, f2;
  for (const auto& e : m_forces) {
    e->evaluate(*this, kin, t, f1, f2);
    if (e->body1 >= 0) f.segment<6>(m_bodies[e->body1].v0) += f1;
    if (e->body2 >= 0 && e->body2 != e->body1) f.segment<6>(m_bodies[e->body2].v0) += f2;
  }
}

void System::constraints(const std::vector<BodyKinematics>& kin, double t, std::vector<ConstraintRows>& out) const {
  out.resize(m_constraints.size());
  for (size_t c = 0; c < m_constraints.size(); ++c) constraint(static_cast<int>(c), kin, t, out[c]);
}

void System::constraint(int c, const std::vector<BodyKinematics>& kin, double t, ConstraintRows& out) const {
  const ConstraintElement& e = *m_constraints[c];
  out.resize(e.rows(), bodyNv(e.body1), bodyNv(e.body2));
  e.evaluate(*this, kin, t, out);
}

double System::kineticEnergy(const std::vector<BodyKinematics>& kin) const {
  double T = 0;
  for (int b = 0; b < nb(); ++b) {
    const BodyData& B = m_bodies[b];
    const auto& K = kin[b + 1];
    if (B.kind == BodyKind::Rigid)
      T += 0.5 * B.mass * K.rdot.squaredNorm() + 0.5 * K.omega_body.dot(B.J * K.omega_body);
    else if (B.kind == BodyKind::Flexible)
      T += m_flex[B.flex].dyn->kineticEnergy(K.A, K.w, K.velocity());
  }
  return T;
}

double System::strainEnergy(const std::vector<BodyKinematics>& kin) const {
  double U = 0;
  for (const auto& f : m_flex) U += f.dyn->strainEnergy(kin[f.body + 1].w);
  return U;
}

double System::potentialEnergy(const std::vector<BodyKinematics>& kin) const {
  double V = strainEnergy(kin);
  for (int b = 0; b < nb(); ++b) {
    const BodyData& B = m_bodies[b];
    if (B.kind == BodyKind::Rigid) V -= B.mass * m_gravity.dot(kin[b + 1].r);
    else if (B.kind == BodyKind::Flexible)
      V += m_flex[B.flex].dyn->gravityPotential(kin[b + 1].r, kin[b + 1].A, kin[b + 1].w, m_gravity);
  }
  for (const auto& e : m_forces) V += e->potentialEnergy(*this, kin);
  return V;
}

void System::retract(VecX& q, const VecX& dx) const {
  for (const BodyData& B : m_bodies) {
    q.segment<3>(B.q0) += dx.segment<3>(B.v0);
    const auto p = q.segment<4>(B.q0 + 3);
    const Quat r = (Quat(p(0), p(1), p(2), p(3)) * expMap(dx.segment<3>(B.v0 + 3))).normalized();
    q.segment<4>(B.q0 + 3) << r.w(), r.x(), r.y(), r.z();
    if (B.modes) q.segment(B.q0 + 7, B.modes) += dx.segment(B.v0 + 6, B.modes);
  }
}

VecX System::tangentDifference(const VecX& q1, const VecX& q0) const {
  VecX dx(nv());
  for (const BodyData& B : m_bodies) {
    dx.segment<3>(B.v0) = q1.segment<3>(B.q0) - q0.segment<3>(B.q0);
    const auto a = q0.segment<4>(B.q0 + 3), c = q1.segment<4>(B.q0 + 3);
    const Quat p0(a(0), a(1), a(2), a(3)), p1(c(0), c(1), c(2), c(3));
    dx.segment<3>(B.v0 + 3) = logMap(p0.normalized().conjugate() * p1.normalized());
    if (B.modes) dx.segment(B.v0 + 6, B.modes) = q1.segment(B.q0 + 7, B.modes) - q0.segment(B.q0 + 7, B.modes);
  }
  return dx;
}

void System::normalizeQuaternions(VecX& q) const {
  for (const BodyData& B : m_bodies) q.segment<4>(B.q0 + 3).normalize();
}

void System::bodyPose(const VecX& q, int b, Vec3& position, Quat& orientation) const {
  const BodyData& B = m_bodies[b];
  const auto p = q.segment<4>(B.q0 + 3);
  orientation = Quat(p(0), p(1), p(2), p(3)).normalized();
  position = q.segment<3>(B.q0);
  if (B.flex >= 0) {  // the FE frame: A_FE = A R^T, r_FE = r - A_FE offset
    const FlexibleBody& F = m_flex[B.flex];
    orientation = (orientation * Quat(F.R).conjugate()).normalized();
    position -= orientation.toRotationMatrix() * F.offset;
  }
}

VecX constraintVelocity(const System& sys, int c, const ConstraintRows& rows, const VecX& v) {
  const ConstraintElement& e = *sys.constraints()[c];
  VecX r = rows.phit;
  if (e.body1 >= 0) r += rows.G1 * v.segment(sys.body(e.body1).v0, sys.body(e.body1).nv());
  if (e.body2 >= 0) r += rows.G2 * v.segment(sys.body(e.body2).v0, sys.body(e.body2).nv());
  return r;
}

void addConstraintForces(const System& sys, const std::vector<ConstraintRows>& rows, const VecX& lambda, VecX& out) {
  for (size_t c = 0; c < rows.size(); ++c) {
    const ConstraintElement& e = *sys.constraints()[c];
    const auto lam = lambda.segment(sys.constraintOffsets()[c], e.rows());
    if (e.body1 >= 0) out.segment(sys.body(e.body1).v0, sys.body(e.body1).nv()) += rows[c].G1.transpose() * lam;
    if (e.body2 >= 0) out.segment(sys.body(e.body2).v0, sys.body(e.body2).nv()) += rows[c].G2.transpose() * lam;
  }
}

}  // namespace flexim
