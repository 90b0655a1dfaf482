// The beam unit: the blocks of the model's beam nodes (a position and section axes each, with
// the lumped mass of the elements joined to them) and a force element per beam element, which
// solves the element's implicitly defined strains from its two nodes (core/system/beam_elements.h).
#include "core/system/beam_elements.h"
#include "core/system/body_units.h"
#include "core/system/formulations.h"
#include "core/system/system.h"

#include <cmath>
#include <map>
#include <numbers>
#include <optional>

namespace flexim {

BeamSection beamSection(const BeamElementSpec& e) {
  const double G = e.shear_modulus > 0 ? e.shear_modulus : e.youngs_modulus / (2.0 * (1.0 + e.poisson_ratio));
  BeamSection s;
  s.EA = e.youngs_modulus * e.area;
  s.EIy = e.youngs_modulus * e.iy;
  s.EIz = e.youngs_modulus * e.iz;
  s.GJ = G * (e.torsion_constant > 0 ? e.torsion_constant : e.iy + e.iz);
  s.GAky = s.GAkz = e.shear ? G * e.area * e.shear_factor : 0.0;
  s.rhoA = e.density * e.area;
  s.rhoIy = e.density * e.iy;
  s.rhoIz = e.density * e.iz;
  return s;
}

namespace {

BeamNodePose poseOf(const BodyKinematics& k) { return {k.r, Quat(k.A)}; }

class BeamElementForce final : public ForceElement {
 public:
  BeamElementForce(int node1, int node2, BeamElementKernel kernel, double damping)
      : m_kernel(std::move(kernel)), m_damping(damping) {
    blocks = {node1, node2};
  }

  void evaluate(const System&, const std::vector<BodyKinematics>& kin, double, ForceRows& out) const override {
    const BodyKinematics &p = kin[std::size_t(blocks[0] + 1)], &q = kin[std::size_t(blocks[1] + 1)];
    BeamSolution s;
    if (!solve(p, q, s)) {
      // no strains fit the nodes: forces that make the step fail rather than a wrong answer
      out.f[0].setConstant(std::numeric_limits<double>::quiet_NaN());
      out.f[1].setConstant(std::numeric_limits<double>::quiet_NaN());
      return;
    }
    Eigen::Matrix<double, 12, 1> f = s.nodeForces();
    if (m_damping > 0) {
      const MatX P = m_kernel.strainSensitivity(s);
      f -= P.transpose() * (m_damping * (m_kernel.stiffness() * (P * velocities(p, q))));
    }
    out.f[0] = f.head<6>();
    out.f[1] = f.tail<6>();
  }

  double potentialEnergy(const System&, const std::vector<BodyKinematics>& kin) const override {
    BeamSolution s;
    solve(kin[std::size_t(blocks[0] + 1)], kin[std::size_t(blocks[1] + 1)], s);
    return m_kernel.strainEnergy(s);
  }

  bool power(const System&, const std::vector<BodyKinematics>& kin, double, double& damping,
             double& applied) const override {
    applied = 0.0;
    damping = 0.0;
    if (m_damping <= 0) return true;
    const BodyKinematics &p = kin[std::size_t(blocks[0] + 1)], &q = kin[std::size_t(blocks[1] + 1)];
    BeamSolution s;
    if (!solve(p, q, s)) return false;
    const VecX rate = m_kernel.strainSensitivity(s) * velocities(p, q);
    damping = -m_damping * rate.dot(m_kernel.stiffness() * rate);
    return true;
  }

  bool dependsOnVelocity() const override { return m_damping > 0; }

  bool tangent(const System&, const std::vector<BodyKinematics>& kin, double, MatX& K, MatX& D) const override {
    const BodyKinematics &p = kin[std::size_t(blocks[0] + 1)], &q = kin[std::size_t(blocks[1] + 1)];
    BeamSolution s;
    if (!solve(p, q, s)) return false;
    K = m_kernel.tangent(poseOf(p), poseOf(q), s);
    if (m_damping > 0) {
      // the damping forces −Pᵀ d S P v: their velocity derivative (their position derivative is left out)
      const MatX P = m_kernel.strainSensitivity(s);
      D = -m_damping * P.transpose() * m_kernel.stiffness() * P;
    } else {
      D.resize(0, 0);
    }
    return true;
  }

 private:
  /// The strains from the last ones (the integrator's evaluations are close to each other: one or
  /// two Newton steps), else from the nodes' relative pose.
  bool solve(const BodyKinematics& p, const BodyKinematics& q, BeamSolution& s) const {
    const BeamNodePose a = poseOf(p), b = poseOf(q);
    if (m_last.size() == m_kernel.strainCount() && m_kernel.solve(a, b, &m_last, s)) {
      m_last = s.strains;
      return true;
    }
    if (!m_kernel.solve(a, b, nullptr, s)) return false;
    m_last = s.strains;
    return true;
  }

  static Eigen::Matrix<double, 12, 1> velocities(const BodyKinematics& p, const BodyKinematics& q) {
    Eigen::Matrix<double, 12, 1> v;
    v << p.rdot, p.omega_body, q.rdot, q.omega_body;
    return v;
  }

  BeamElementKernel m_kernel;
  double m_damping;
  mutable VecX m_last;  ///< the strains of the last evaluation: only a starting guess
};

}  // namespace

void addBeamNodes(System& sys, const ModelSpec& model, Diagnostics& diag) {
  std::map<std::string, std::size_t> nodeIndex;
  for (std::size_t i = 0; i < model.beam_nodes.size(); ++i) nodeIndex[model.beam_nodes[i].name] = i;
  // each element's mass and rotary inertia, half to each of its nodes (its section axes are the
  // nodes' axes); the torsional inertia about x is the polar one, iy + iz
  std::vector<double> mass(model.beam_nodes.size());
  std::vector<Mat3> inertia(model.beam_nodes.size());
  for (std::size_t i = 0; i < model.beam_nodes.size(); ++i) {
    mass[i] = model.beam_nodes[i].mass;
    inertia[i] = 0.5 * (model.beam_nodes[i].inertia + model.beam_nodes[i].inertia.transpose());
  }
  for (const BeamElementSpec& e : model.beam_elements) {
    const BeamNodeSpec& a = model.beam_nodes[nodeIndex.at(e.node1)];
    const BeamNodeSpec& b = model.beam_nodes[nodeIndex.at(e.node2)];
    const double l0 = e.length > 0 ? e.length : (b.position - a.position).norm();
    const BeamSection s = beamSection(e);
    for (std::size_t n : {nodeIndex.at(e.node1), nodeIndex.at(e.node2)}) {
      mass[n] += 0.5 * s.rhoA * l0;
      inertia[n] += 0.5 * l0 * Vec3(s.rhoIy + s.rhoIz, s.rhoIy, s.rhoIz).asDiagonal().toDenseMatrix();
    }
  }
  std::vector<int> blocks;
  for (std::size_t i = 0; i < model.beam_nodes.size(); ++i) {
    const BeamNodeSpec& spec = model.beam_nodes[i];
    if (!(mass[i] > 0) || !(inertia[i].diagonal().minCoeff() > 0))
      diag.error("beam_nodes[" + std::to_string(i) + "] '" + spec.name + "'",
                 "has no mass or no rotary inertia: join it to a beam element or give it a mass and inertia");
    const Quat p = spec.orientation.normalized();
    VecX q0(7), v0(6);
    q0 << spec.position, p.w(), p.x(), p.y(), p.z();
    v0 << spec.velocity, p.toRotationMatrix().transpose() * spec.angular_velocity;
    blocks.push_back(sys.addBlock(spec.name, std::make_unique<RigidBodyFormulation>(mass[i], inertia[i]), q0, v0));
    sys.addMarkers(blocks.back(), spec.name, spec.markers);
  }
  for (std::size_t k = 0; k < model.beam_elements.size(); ++k) {
    const BeamElementSpec& e = model.beam_elements[k];
    const std::string label = "beam element '" + e.name + "'";
    const std::optional<BeamElementKernel> kernel = beamKernel(model, e);
    if (!kernel) {
      diag.error(label, "unknown formulation '" + e.formulation + "'");
      continue;
    }
    auto element = std::make_unique<BeamElementForce>(blocks[nodeIndex.at(e.node1)], blocks[nodeIndex.at(e.node2)],
                                                      *kernel, e.damping);
    element->label = label;
    sys.addForce(std::move(element));
  }
}

std::optional<BeamElementKernel> beamKernel(const ModelSpec& model, const BeamElementSpec& e) {
  BeamFormulationKind kind{};
  if (!beamFormulationFromName(e.formulation, kind)) return std::nullopt;
  const BeamNodeSpec *a = nullptr, *b = nullptr;
  for (const BeamNodeSpec& n : model.beam_nodes) {
    if (n.name == e.node1) a = &n;
    if (n.name == e.node2) b = &n;
  }
  if (!a || !b) return std::nullopt;
  const double l0 = e.length > 0 ? e.length : (b->position - a->position).norm();
  return BeamElementKernel(kind, l0, beamSection(e), e.curvature, a->orientation.normalized().toRotationMatrix());
}

std::string meshBeamMember(ModelSpec& model, const BeamMemberSpec& member) {
  const int n = std::max(1, member.elements);
  const double l0 = member.length / n;
  BeamNodePose pose{member.start, member.orientation.normalized()};
  auto addNode = [&](int i) {
    BeamNodeSpec node;
    node.name = member.name + "_" + std::to_string(i);
    node.position = pose.r;
    node.orientation = pose.p;
    model.beam_nodes.push_back(node);
    return node.name;
  };
  std::string last = addNode(0);
  for (int i = 1; i <= n; ++i) {
    BeamFormulationKind kind{};
    beamFormulationFromName(member.element.formulation, kind);
    const BeamElementKernel kernel(kind, l0, beamSection(member.element), member.element.curvature,
                                   member.orientation.normalized().toRotationMatrix());
    pose = kernel.endNode(pose, kernel.initialStrains());
    BeamElementSpec e = member.element;
    e.name = member.name + "_" + std::to_string(i);
    e.node1 = last;
    last = addNode(i);
    e.node2 = last;
    e.length = l0;
    model.beam_elements.push_back(e);
  }
  return last;
}

void bendBeamMember(BeamMemberSpec& member, double radius, double sweepDeg) {
  member.length = radius * std::abs(sweepDeg) * std::numbers::pi / 180;
  member.element.curvature = Vec3(0.0, 0.0, sweepDeg > 0 ? 1 / radius : -1 / radius);
}

std::string addBeamMember(ModelSpec& model, const BeamMemberSpec& member) {
  if (member.name.empty()) return "the member needs a name";
  const std::string prefix = member.name + "_";
  for (const BeamNodeSpec& n : model.beam_nodes)
    if (n.name.rfind(prefix, 0) == 0) return "the model has nodes named " + prefix + "*: choose another name";
  for (const BeamElementSpec& e : model.beam_elements)
    if (e.name.rfind(prefix, 0) == 0) return "the model has elements named " + prefix + "*: choose another name";
  const std::size_t first = model.beam_nodes.size();
  meshBeamMember(model, member);
  for (std::size_t i = first; i < model.beam_nodes.size(); ++i)
    model.beam_nodes[i].markers.push_back({"m", Vec3::Zero(), Quat::Identity()});
  if (member.clamp) {
    model.ground_markers.push_back({prefix + "clamp", member.start, member.orientation});
    model.joints.push_back({prefix + "clamp", JointType("fixed"), "ground", prefix + "clamp", model.beam_nodes[first].name, "m", {}});
  }
  if (member.planar) {
    model.ground_markers.push_back({prefix + "plane", member.start, member.orientation});
    for (std::size_t i = first + (member.clamp ? 1 : 0); i < model.beam_nodes.size(); ++i)
      model.joints.push_back({model.beam_nodes[i].name + "_in_plane", JointType("planar"), "ground", prefix + "plane",
                              model.beam_nodes[i].name, "m", {}});
  }
  return "";
}

}  // namespace flexim
