#include "core/system/system.h"

#include "core/model/description.h"
#include "core/model/validate.h"

#include "core/base/rotation.h"
#include "core/system/body_units.h"
#include "core/system/flexible_elements.h"
#include "core/system/force_elements.h"
#include "core/system/joint_coordinates.h"
#include "core/system/joints.h"

#include <Eigen/Eigenvalues>

#include <algorithm>
#include <cmath>
#include <set>

namespace flexim {

void ConstraintRows::resize(int rows, const std::vector<int>& cols) {
  phi.setZero(rows);
  phit.setZero(rows);
  gamma.setZero(rows);
  G.resize(cols.size());
  for (size_t k = 0; k < cols.size(); ++k) G[k].setZero(rows, cols[k]);
}

void ElementTangent::resize(const std::vector<int>& sizes) {
  n = static_cast<int>(sizes.size());
  K.resize(n * n);
  for (int r = 0; r < n; ++r)
    for (int c = 0; c < n; ++c) at(r, c).setZero(sizes[r], sizes[c]);
}

void ConstraintElement::addGeometricStiffness(const System& sys, std::vector<BodyKinematics>& kin, double t,
                                              const Eigen::Ref<const VecX>& lambda, double scale,
                                              ElementTangent& out) const {
  // one-sided differences of G^T lambda over each touched block's position tangent
  const double eps = 1e-7;
  thread_local ConstraintRows rows0, rows1;
  thread_local std::vector<int> sizes;
  sizes.clear();
  for (int b : blocks) sizes.push_back(sys.blockNv(b));
  rows0.resize(rows(), sizes);
  evaluate(sys, kin, t, rows0);
  for (size_t side = 0; side < blocks.size(); ++side) {
    const int b = blocks[side];
    // a block touched twice is perturbed once (both slots see it)
    if (b < 0 || std::find(blocks.begin(), blocks.begin() + side, b) != blocks.begin() + side) continue;
    const BodyKinematics saved = kin[b + 1];
    const int frame = sys.block(b).formulation->frameSize();
    for (int i = 0; i < sys.block(b).nv(); ++i) {
      perturbKinematics(saved, frame, i, eps, false, kin[b + 1]);
      rows1.resize(rows(), sizes);
      evaluate(sys, kin, t, rows1);
      for (size_t r = 0; r < blocks.size(); ++r)
        out.at(static_cast<int>(r), static_cast<int>(side)).col(i) +=
            (scale / eps) * (rows1.G[r] - rows0.G[r]).transpose() * lambda;
    }
    kin[b + 1] = saved;
  }
}

void ForceRows::resize(const std::vector<int>& sizes) {
  f.resize(sizes.size());
  for (size_t k = 0; k < sizes.size(); ++k) f[k].setZero(sizes[k]);
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

std::string quoted(const std::string& s) { return "'" + s + "'"; }

int jointNamed(const ModelSpec& model, const std::string& name) {
  for (size_t i = 0; i < model.joints.size(); ++i)
    if (model.joints[i].name == name) return static_cast<int>(i);
  return -1;
}

}  // namespace

std::unique_ptr<System> System::compile(const ModelSpec& model, Diagnostics& diag) {
  // The one validation of a model (core/model/validate.h): a model that passes it has its names,
  // references, limits and the sizes of its flexible-body data right, so compiling below only
  // reports what needs the compiled data (rigid-body modes of a reference frame, node triangles).
  // Its warnings were shown when the model was loaded; only its errors are repeated here.
  bool valid = true;
  const Diagnostics checked = validate(model);
  for (const Diagnostic& d : checked.items())
    if (d.severity == Severity::Error) {
      diag.add(d);
      valid = false;
    }
  if (!valid) return nullptr;

  auto sys = std::unique_ptr<System>(new System());
  sys->m_model = model;
  sys->m_gravity = model.gravity;

  // bodies and markers: the bodies' blocks come first, in the body table's order (its poses)
  sys->m_bodies = BodyTable(model);
  sys->m_markers.resize(static_cast<std::size_t>(sys->m_bodies.size()) + 1);
  sys->m_markerIndex.resize(sys->m_markers.size());
  sys->addMarkers(-1, kGroundName, model.ground_markers);
  // each body kind's unit adds its blocks and markers (and a flexible body's reference conditions,
  // a virtual body's rigid-flexible joint), in the kinds' order
  for (const BodyKindDescription& kind : bodyKinds()) {
    const BodyUnit* unit = findBodyUnit(kind.key);
    if (!unit) throw FleximError("internal: body kind '" + kind.key + "' has no unit in core/system");
    (*unit)(*sys, model, diag);
  }
  if (diag.hasErrors()) return nullptr;
  for (const BodyEntry& e : sys->m_bodies.entries())
    if (e.pose >= sys->nblocks() || sys->m_blocks[std::size_t(e.pose)].name != e.name)
      throw FleximError("internal: " + e.path + " '" + e.name + "' is not block " + std::to_string(e.pose));

  // validated: every marker named below exists
  auto marker = [&](const std::string& body, const std::string& name) -> const MarkerRef& {
    const MarkerRef* m = sys->marker(body, name);
    if (!m) throw FleximError("internal: marker '" + body + "." + name + "' of a validated model not found");
    return *m;
  };

  // joints, each through its kind's builder
  for (size_t j = 0; j < model.joints.size(); ++j) {
    const auto& spec = model.joints[j];
    const std::string where = "joints[" + std::to_string(j) + "]";
    buildJoint(*sys, spec, static_cast<int>(j), marker(spec.body1, spec.marker1), marker(spec.body2, spec.marker2),
               where, diag);
  }

  // drivers act between the markers of the joint they drive
  for (size_t d = 0; d < model.drivers.size(); ++d) {
    const DriverSpec& spec = model.drivers[d];
    const int j = jointNamed(model, spec.joint);
    const auto& js = model.joints[j];
    auto c = makeDriver(spec.coordinate, marker(js.body1, js.marker1), marker(js.body2, js.marker2), spec.function);
    c->label = "driver " + quoted(spec.name);
    c->where = "drivers[" + std::to_string(d) + "]";
    c->joint_index = j;
    sys->addConstraint(std::move(c));
  }

  // couplings and limits act on the joints' coordinates (added here for joints that have none)
  for (size_t k = 0; k < model.couplings.size(); ++k) {
    const CouplingSpec& spec = model.couplings[k];
    const int c1 = ensureJointCoordinate(*sys, jointNamed(model, spec.joint1));
    const int c2 = ensureJointCoordinate(*sys, jointNamed(model, spec.joint2));
    auto c = makeCoordinateCoupling(*sys, c1, c2, spec.ratio);
    c->label = "coupling " + quoted(spec.name);
    c->where = "couplings[" + std::to_string(k) + "]";
    sys->addConstraint(std::move(c));
  }
  for (size_t k = 0; k < model.limits.size(); ++k) {
    const JointLimitSpec& spec = model.limits[k];
    auto c = makeCoordinateLimit(ensureJointCoordinate(*sys, jointNamed(model, spec.joint)), spec.lower, spec.upper);
    c->unilateralLaw.restitution = spec.restitution;
    c->label = "limit " + quoted(spec.name);
    c->where = "limits[" + std::to_string(k) + "]";
    sys->addConstraint(std::move(c));
  }

  addContacts(*sys, model, diag);

  // forces
  for (const ForceSpec& spec : model.forces) {
    if (const FlexibleBody* flex = sys->flexibleBody(sys->bodyIndex(spec.body1))) {
      // a point force on an FE node of a flexible body
      const FlexibleBody& F = *flex;
      auto e = makeNodePointForce(F, F.nodeIndex.at(spec.node), F.R.transpose() * spec.vector,
                                  spec.frame == ForceSpec::Frame::Marker, spec.function);
      e->label = "force " + quoted(spec.name);
      sys->m_forces.push_back(std::move(e));
      continue;
    }
    const ForceKindDescription* kind = findForceKind(spec.type.key());
    const MarkerRef& m1 = marker(spec.body1, spec.marker1);
    auto e = makeForceElement(spec, m1, kind && kind->twoEnds ? marker(spec.body2, spec.marker2) : m1);
    if (!e) {
      diag.error("force " + quoted(spec.name), "kind " + quoted(spec.type.key()) + " has no force element");
      continue;
    }
    e->label = "force " + quoted(spec.name);
    sys->m_forces.push_back(std::move(e));
  }

  if (diag.hasErrors()) return nullptr;
  return sys;
}

void System::addMarkers(int block, const std::string& bodyName, const std::vector<MarkerSpec>& markers) {
  for (const MarkerSpec& m : markers) {
    MarkerRef ref;
    ref.body = block;
    ref.s = m.position;
    ref.R = m.orientation.normalized().toRotationMatrix();
    if (block >= 0) ref.frame = m_blocks[std::size_t(block)].formulation->frameSize();
    ref.label = bodyName + "." + m.name;
    m_markerIndex[block + 1].emplace(m.name, static_cast<int>(m_markers[block + 1].size()));
    m_markers[block + 1].push_back(ref);
  }
}

int System::addBlock(std::string name, std::unique_ptr<Formulation> formulation, const VecX& q, const VecX& v) {
  Block block;
  block.name = std::move(name);
  block.q0 = m_nq;
  block.v0 = m_nv;
  block.m_nq = formulation->nq();
  block.m_nv = formulation->nv();
  block.formulation = std::move(formulation);
  m_nq += block.nq();
  m_nv += block.nv();
  const int b = nblocks();
  if (block.hasFrame()) m_bodyIndex.emplace(block.name, b);  // bodies are found by name, coordinates are not
  m_initial.q.conservativeResize(m_nq);
  m_initial.v.conservativeResize(m_nv);
  m_initial.q.segment(block.q0, block.nq()) = q;
  m_initial.v.segment(block.v0, block.nv()) = v;
  m_blocks.push_back(std::move(block));
  return b;
}

void System::addConstraint(std::unique_ptr<ConstraintElement> element) {
  m_offsets.push_back(m_rows);
  m_rows += element->rows();
  for (int i = 0; i < element->rows(); ++i) {
    m_rowKinds.push_back(element->rowKind(i));
    m_unilateral = m_unilateral || m_rowKinds.back() == RowKind::Unilateral;
  }
  m_constraints.push_back(std::move(element));
}

const FlexibleBody* System::flexibleBody(int b) const {
  if (b < 0 || b >= nblocks()) return nullptr;
  const auto* f = dynamic_cast<const FlexibleBodyFormulation*>(m_blocks[b].formulation.get());
  return f ? &f->body() : nullptr;
}

int System::bodyIndex(const std::string& name) const {
  if (name == kGroundName) return -1;
  const auto it = m_bodyIndex.find(name);
  return it == m_bodyIndex.end() ? -2 : it->second;
}

const MarkerRef* System::marker(const std::string& body, const std::string& name) const {
  const int b = bodyIndex(body);
  if (b == -2 || b + 1 >= static_cast<int>(m_markerIndex.size())) return nullptr;
  const auto it = m_markerIndex[b + 1].find(name);
  return it == m_markerIndex[b + 1].end() ? nullptr : &m_markers[b + 1][it->second];
}

BodyKinematics System::bodyKinematics(const VecX& q, const VecX& v, int b) const {
  BodyKinematics k;
  const Block& B = m_blocks[b];
  B.formulation->kinematics(q.segment(B.q0, B.nq()), v.segment(B.v0, B.nv()), k);
  return k;
}

void System::kinematics(const State& s, std::vector<BodyKinematics>& kin) const {
  // index 0 is ground, block b is at b + 1 (so ground markers need no special case)
  kin.resize(nblocks() + 1);
  kin[0] = BodyKinematics{};
  for (int b = 0; b < nblocks(); ++b) {
    const Block& B = m_blocks[b];
    B.formulation->kinematics(s.q.segment(B.q0, B.nq()), s.v.segment(B.v0, B.nv()), kin[b + 1]);
  }
}

MarkerKinematics System::markerKinematics(const std::vector<BodyKinematics>& kin, const MarkerRef& m, bool withAxes) const {
  MarkerKinematics k;
  k.body = &kin[m.body + 1];
  const BodyKinematics& B = *k.body;
  k.sg = B.A * m.s;
  k.p = B.r + k.sg;
  k.pdot = B.rdot + B.omega.cross(k.sg);
  k.pddot_bias = B.omega.cross(B.omega.cross(k.sg));
  if (withAxes) k.axes = B.A * m.R;
  k.Jp.leftCols<3>().setIdentity();
  k.Jp.rightCols<3>() = -B.A * skew(m.s);
  k.frame = m.frame;
  return k;
}

void System::massMatrix(const std::vector<BodyKinematics>& kin, int b, MatX& M) const {
  m_blocks[b].formulation->massMatrix(kin[b + 1], M);
}

const std::vector<int>& System::blockSizes(const std::vector<int>& blocks) const {
  // per-thread scratch: elements are evaluated in every Newton iteration
  thread_local std::vector<int> sizes;
  sizes.clear();
  for (int b : blocks) sizes.push_back(blockNv(b));
  return sizes;
}

void System::force(int e, const std::vector<BodyKinematics>& kin, double t, ForceRows& out) const {
  const ForceElement& E = *m_forces[e];
  out.resize(blockSizes(E.blocks));
  E.evaluate(*this, kin, t, out);
}

void System::forces(const std::vector<BodyKinematics>& kin, double t, VecX& f) const {
  f.resize(nv());
  for (int b = 0; b < nblocks(); ++b) {
    const Block& B = m_blocks[b];
    B.formulation->forces(kin[b + 1], m_gravity, f.segment(B.v0, B.nv()));
  }
  thread_local ForceRows rows;
  for (size_t e = 0; e < m_forces.size(); ++e) {
    force(static_cast<int>(e), kin, t, rows);
    const auto& blocks = m_forces[e]->blocks;
    for (size_t k = 0; k < blocks.size(); ++k)
      if (blocks[k] >= 0) f.segment(m_blocks[blocks[k]].v0, rows.f[k].size()) += rows.f[k];
  }
}

void System::constraints(const std::vector<BodyKinematics>& kin, double t, std::vector<ConstraintRows>& out) const {
  out.resize(m_constraints.size());
  for (size_t c = 0; c < m_constraints.size(); ++c) constraint(static_cast<int>(c), kin, t, out[c]);
}

void System::constraint(int c, const std::vector<BodyKinematics>& kin, double t, ConstraintRows& out) const {
  const ConstraintElement& e = *m_constraints[c];
  out.resize(e.rows(), blockSizes(e.blocks));
  e.evaluate(*this, kin, t, out);
}

void System::contact(int k, const std::vector<BodyKinematics>& kin, ContactPoint& out) const {
  const ContactElement& e = *m_contacts[std::size_t(k)];
  out.resize(e.rows(), blockSizes(e.blocks));
  e.evaluate(*this, kin, out);
}

double System::kineticEnergy(const std::vector<BodyKinematics>& kin) const {
  double T = 0;
  for (int b = 0; b < nblocks(); ++b) T += m_blocks[b].formulation->kineticEnergy(kin[b + 1]);
  return T;
}

double System::strainEnergy(const std::vector<BodyKinematics>& kin) const {
  double U = 0;
  for (int b = 0; b < nblocks(); ++b) U += m_blocks[b].formulation->strainEnergy(kin[b + 1]);
  return U;
}

double System::potentialEnergy(const std::vector<BodyKinematics>& kin) const {
  double V = 0;
  for (int b = 0; b < nblocks(); ++b) V += m_blocks[b].formulation->potentialEnergy(kin[b + 1], m_gravity);
  for (const auto& e : m_forces) V += e->potentialEnergy(*this, kin);
  return V;
}

System::PotentialParts System::potentialParts(const std::vector<BodyKinematics>& kin) const {
  PotentialParts p;
  for (int b = 0; b < nblocks(); ++b) {
    const double strain = m_blocks[b].formulation->strainEnergy(kin[b + 1]);
    p.strain += strain;
    p.gravity += m_blocks[b].formulation->potentialEnergy(kin[b + 1], m_gravity) - strain;
  }
  for (const auto& e : m_forces) p.spring += e->potentialEnergy(*this, kin);
  return p;
}

void System::retract(VecX& q, const VecX& dx) const {
  for (const Block& B : m_blocks) B.formulation->retract(q.segment(B.q0, B.nq()), dx.segment(B.v0, B.nv()));
}

VecX System::tangentDifference(const VecX& q1, const VecX& q0) const {
  VecX dx(nv());
  for (const Block& B : m_blocks)
    B.formulation->tangentDifference(q1.segment(B.q0, B.nq()), q0.segment(B.q0, B.nq()), dx.segment(B.v0, B.nv()));
  return dx;
}

void System::normalize(VecX& q) const {
  for (const Block& B : m_blocks) B.formulation->normalize(q.segment(B.q0, B.nq()));
}

void System::coordinateRate(const VecX& q, const VecX& v, Eigen::Ref<VecX> qdot) const {
  for (const Block& B : m_blocks)
    B.formulation->coordinateRate(q.segment(B.q0, B.nq()), v.segment(B.v0, B.nv()), qdot.segment(B.q0, B.nq()));
}

void System::bodyPose(const VecX& q, int b, Vec3& position, Quat& orientation) const {
  const Block& B = m_blocks[b];
  B.formulation->userPose(q.segment(B.q0, B.nq()), position, orientation);
}

void constraintVelocity(const System& sys, int c, const ConstraintRows& rows, const VecX& v, Eigen::Ref<VecX> out) {
  const ConstraintElement& e = *sys.constraints()[c];
  out = rows.phit;
  for (size_t k = 0; k < e.blocks.size(); ++k)
    if (e.blocks[k] >= 0) {
      const Block& B = sys.block(e.blocks[k]);
      out.noalias() += rows.G[k].lazyProduct(v.segment(B.v0, B.nv()));  // small: no gemv kernel call
    }
}

void addConstraintForces(const System& sys, const std::vector<ConstraintRows>& rows, const VecX& lambda, VecX& out) {
  for (size_t c = 0; c < rows.size(); ++c) {
    const ConstraintElement& e = *sys.constraints()[c];
    const auto lam = lambda.segment(sys.constraintOffsets()[c], e.rows());
    for (size_t k = 0; k < e.blocks.size(); ++k)
      if (e.blocks[k] >= 0) {
        const Block& B = sys.block(e.blocks[k]);
        out.segment(B.v0, B.nv()).noalias() += rows[c].G[k].transpose().lazyProduct(lam);  // small: no gemv kernel call
      }
  }
}

}  // namespace flexim
