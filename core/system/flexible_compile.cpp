// Compiling the flexible bodies (after the floating-frame solid-element paper, Multibody Syst. Dyn. 2023,
// doi:10.1007/s11044-023-09875-y) and the virtual bodies attached to them into the
// System: effective reduced body (mode subset, frame), dynamics, reference conditions,
// rigid-flexible joints and consistent initial poses/velocities of the virtual bodies.
#include "core/base/rotation.h"
#include "core/fe/reduced_body.h"
#include "core/fe/stiffening.h"
#include "core/system/flexible_elements.h"
#include "core/system/system.h"

#include <Eigen/Eigenvalues>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <set>

namespace flexim {

namespace {

std::string quoted(const std::string& s) { return "'" + s + "'"; }

std::string mm(double metres) {
  if (std::abs(metres) < 1e-12) metres = 0.0;  // round-off of a fitted point, not a distance
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.3g mm", metres * 1e3);
  return buf;
}

/// Rotation whose columns are the principal axes of J, ordered and signed to be closest to the identity.
Mat3 principalAxes(const Mat3& J) {
  Eigen::SelfAdjointEigenSolver<Mat3> eig(J);
  const Mat3 V = eig.eigenvectors();
  Mat3 R = Mat3::Zero();
  std::set<int> used;
  for (int a = 0; a < 3; ++a) {  // FE axis a takes the unused eigenvector most aligned with it
    int best = -1;
    for (int c = 0; c < 3; ++c)
      if (!used.count(c) && (best < 0 || std::abs(V(a, c)) > std::abs(V(a, best)))) best = c;
    used.insert(best);
    R.col(a) = V(a, best) < 0 ? Vec3(-V.col(best)) : Vec3(V.col(best));
  }
  if (R.determinant() < 0) R.col(2) = -R.col(2);
  return R;
}

/// Rigid motion [u; theta] of an interface's reference point per mode (6 x m).
MatX interfaceMotion(const fe::ReducedBody& body, const fe::Interface& face) {
  std::vector<Vec3> x;
  MatX rows(3 * face.nodes.size(), body.modes.cols());
  for (size_t k = 0; k < face.nodes.size(); ++k) {
    x.push_back(body.coords[face.nodes[k]]);
    rows.middleRows<3>(3 * k) = body.modes.middleRows<3>(3 * face.nodes[k]);
  }
  return interfaceRigidModes(x, rows, face.reference);
}

/// The stiffening of the 12 inertia cases G (FE axes, about the FE origin) for the internal frame
/// x_FE = c0 + R x: the cases about the origin c0 (a spin about c0 adds a uniform field, a
/// translational case), then turned into the internal axes (translational cases as a vector,
/// the products as a symmetric tensor). The angular-acceleration cases are not used.
std::shared_ptr<GeometricStiffening> internalStiffening(const std::array<MatX, fe::kInertiaLoadCases>& G, const Vec3& c0,
                                                        const Mat3& R, const Vec3& gravity) {
  std::array<MatX, fe::kInertiaLoadCases> o = G;
  for (int c = 6; c < fe::kInertiaLoadCases; ++c) {
    Vec3 f0;
    Mat3 B;
    fe::inertiaCaseField(c, f0, B);
    const Vec3 uniform = B * c0;  // field B (x - c0) = B x - B c0
    for (int j = 0; j < 3; ++j) o[static_cast<size_t>(c)] -= uniform(j) * G[static_cast<size_t>(j)];
  }
  auto S = std::make_shared<GeometricStiffening>();
  S->gravity = gravity;
  const MatX zero = MatX::Zero(G[0].rows(), G[0].cols());
  for (int k = 0; k < 3; ++k) {
    S->translational[static_cast<size_t>(k)] = zero;
    for (int i = 0; i < 3; ++i) S->translational[static_cast<size_t>(k)] += R(i, k) * o[static_cast<size_t>(i)];
  }
  // products: P_p(omega_FE) = omega' (R' E_p R) omega with E_p the unit symmetric matrices
  constexpr int kRow[6] = {0, 1, 2, 0, 1, 2}, kCol[6] = {0, 1, 2, 1, 2, 0};
  for (int q = 0; q < 6; ++q) S->centrifugal[static_cast<size_t>(q)] = zero;
  for (int p = 0; p < 6; ++p) {
    Mat3 E = Mat3::Zero();
    E(kRow[p], kCol[p]) += p < 3 ? 1.0 : 0.5;
    E(kCol[p], kRow[p]) += p < 3 ? 0.0 : 0.5;
    const Mat3 Ei = R.transpose() * E * R;
    for (int q = 0; q < 6; ++q) {
      const double coef = q < 3 ? Ei(kRow[q], kCol[q]) : 2.0 * Ei(kRow[q], kCol[q]);
      if (coef != 0.0) S->centrifugal[static_cast<size_t>(q)] += coef * o[static_cast<size_t>(6 + p)];
    }
  }
  return S;
}

}  // namespace

void System::compileFlexibleBodies(const ModelSpec& model, Diagnostics& diag) {
  for (size_t i = 0; i < model.flexible_bodies.size(); ++i) {
    const FlexibleBodySpec& spec = model.flexible_bodies[i];
    const std::string where = "flexible_bodies[" + std::to_string(i) + "]";
    const std::string who = "flexible body " + quoted(spec.name);
    // validate() has checked the file is loaded and the counts of modes, coordinates, damping
    // ratios and interfaces against it
    const fe::ReducedBody& src = *spec.data;
    const int M = static_cast<int>(src.modes.cols());
    const int m = spec.mode_count > 0 ? spec.mode_count : M;
    int rigid = 0;
    for (int j = 0; j < m; ++j) rigid += src.kinds[j] == fe::ModeKind::Rigid;
    if (spec.reference != ReferenceFrame::Interface && rigid < 6) {
      diag.error(where + ".reference",
                 std::string(toString(spec.reference)) + " conditions need the 6 rigid-body modes in the basis; the " +
                     "selected modes contain " + std::to_string(rigid) +
                     " (Craig-Bampton bodies: use \"reference\": \"interface\")");
      continue;
    }
    // the effective reduced body in the internal frame: the file's own data when nothing is
    // sliced, turned or scaled (a copy is ~100 MB and tens of ms at 100 000 nodes, at every compile)
    Vec3 offset = Vec3::Zero();
    Mat3 R = Mat3::Identity();
    std::shared_ptr<const fe::ReducedBody> eff = spec.data;
    const bool asIs = m == M && src.invariants.modeCount() == M && spec.reference != ReferenceFrame::PrincipalAxis &&
                      spec.stiffness_scale == 1.0;
    if (!asIs) {
      auto internal = std::make_shared<fe::ReducedBody>();
      internal->name = src.name;
      internal->node_ids = src.node_ids;
      internal->node_mass = src.node_mass;
      internal->modes = src.modes.leftCols(m);
      // stress tensors stay in the FE axes (not turned into the principal axes); a stiffness scale
      // scales them as it scales the modal stiffness (sigma = E epsilon)
      if (src.stress_modes.size() > 0) internal->stress_modes = spec.stiffness_scale * src.stress_modes.leftCols(m);
      internal->eigenvalues = src.eigenvalues.head(m);
      internal->kinds.assign(src.kinds.begin(), src.kinds.begin() + m);
      internal->surface = src.surface;
      internal->interfaces = src.interfaces;
      if (spec.reference == ReferenceFrame::PrincipalAxis) {
        // PAC hold the frame at the centre of mass on the principal axes (MSD 2023 Sec. 2.3.1):
        // move the FE frame there once, here, with the invariants.
        const auto& inv = src.invariants;
        offset = inv.I2 / inv.I1;
        const Mat3 Jc = inv.J0 - inv.I1 * (offset.squaredNorm() * Mat3::Identity() - offset * offset.transpose());
        R = principalAxes(Jc);
        internal->coords.resize(src.coords.size());
        for (size_t k = 0; k < src.coords.size(); ++k) {
          internal->coords[k] = R.transpose() * (src.coords[k] - offset);
          internal->modes.middleRows<3>(3 * k) = R.transpose() * internal->modes.middleRows<3>(3 * k);
        }
        for (auto& f : internal->interfaces) f.reference = R.transpose() * (f.reference - offset);
        internal->invariants = fe::moveInvariants(fe::sliceInvariants(src.invariants, m), offset, R);
        // Two nearly equal principal moments leave the principal axes, and so the frame's rotation
        // about them, undetermined: the deformation turns the frame freely (a planar mechanism then
        // deflects out of its plane and its stresses are absurd). Refused, not run.
        const PrincipalAxisCheck chk = PrincipalAxisConditions::check(internal->invariants);
        if (!chk.distinct) diag.error(where + ".reference", who + ": " + chk.warning);
        else if (!chk.warning.empty()) diag.warning(where + ".reference", chk.warning);
      } else {
        internal->coords = src.coords;
        internal->invariants = fe::sliceInvariants(src.invariants, m);
      }
      internal->invariants.Kbar *= spec.stiffness_scale;
      eff = internal;
    }

    ModalDamping damping;
    damping.alpha = spec.damping.alpha;
    damping.beta = spec.damping.beta;
    // ratios: one for all modes, or one per elastic mode (rigid-body modes have no stiffness to damp)
    const int elastic = static_cast<int>(std::count(eff->kinds.begin(), eff->kinds.end(), fe::ModeKind::Elastic));
    if (spec.damping.ratio.size() == 1) damping.zeta = VecX::Constant(m, spec.damping.ratio[0]);
    else if (static_cast<int>(spec.damping.ratio.size()) == elastic && elastic > 0) {
      damping.zeta = VecX::Zero(m);
      for (int j = 0, e = 0; j < m; ++j)
        if (eff->kinds[j] == fe::ModeKind::Elastic) damping.zeta(j) = spec.damping.ratio[e++];
    }

    const fe::Interface* frameFace = nullptr;
    if (spec.reference == ReferenceFrame::Interface)
      for (const auto& f : eff->interfaces)
        if (f.name == spec.reference_interface) frameFace = &f;

    // initial state: the FE frame's pose and velocity moved to the internal frame
    const Mat3 Afe = spec.orientation.normalized().toRotationMatrix();
    const Mat3 A = Afe * R;
    const Quat p(A);
    VecX q0 = VecX::Zero(7 + m), v0 = VecX::Zero(6 + m);
    q0.head<3>() = spec.position + Afe * offset;
    q0.segment<4>(3) << p.w(), p.x(), p.y(), p.z();
    if (!spec.modal_coordinates.empty()) q0.tail(m) = Eigen::Map<const VecX>(spec.modal_coordinates.data(), m);
    v0.head<3>() = spec.velocity + spec.angular_velocity.cross(Afe * offset);
    v0.segment<3>(3) = A.transpose() * spec.angular_velocity;

    FlexibleBody& F = m_flex.emplace_back();
    F.body = nblocks();
    F.offset = offset;
    F.R = R;
    for (size_t k = 0; k < eff->node_ids.size(); ++k) F.nodeIndex.emplace(eff->node_ids[k], static_cast<int>(k));
    F.dyn = std::make_unique<FlexibleBodyDynamics>(eff->invariants, damping);
    F.data = eff;
    if (spec.geometric_stiffening && !src.geometric_stiffness.empty()) {
      // the reaction that balances the inertia loads acts at the frame's interface, or at the
      // one interface a virtual body connects; other connections' forces are not known here
      std::vector<std::string> connections;
      int balance = -1;
      for (const VirtualBodySpec& vb : model.virtual_bodies)
        if (vb.flexible_body == spec.name) connections.push_back(vb.interface.empty() ? vb.name : vb.interface);
      std::string at = spec.reference == ReferenceFrame::Interface ? spec.reference_interface
                       : connections.size() == 1                   ? connections.front()
                                                                   : std::string();
      for (size_t f = 0; f < src.interfaces.size(); ++f)
        if (src.interfaces[f].name == at) balance = static_cast<int>(f);
      auto stiffening = internalStiffening(fe::balancedInertiaCases(src, m, balance), offset, R, model.gravity);
      if (balance >= 0)
        stiffening->held = interfaceMotion(*eff, eff->interfaces[static_cast<size_t>(balance)]).bottomRows(3);
      F.dyn->setGeometricStiffening(std::move(stiffening));
      std::string note = "geometric stiffening from its spin and gravity";
      note += balance >= 0 ? ", balanced at interface " + quoted(at) : ", balanced by its own inertia (free body)";
      std::vector<std::string> left;  // every connection but the balancing interface
      for (const std::string& c : connections)
        if (balance < 0 || c != at) left.push_back(quoted(c));
      if (!left.empty()) {
        note += "; the forces at ";
        for (size_t j = 0; j < left.size(); ++j) note += (j ? ", " : "") + left[j];
        note += " are not in it";
      }
      diag.info(where, who + ": " + note);
    }
    const int b = addBlock(spec.name, std::make_unique<FlexibleBodyFormulation>(F), q0, v0);

    // the reference conditions
    std::unique_ptr<ConstraintElement> c;
    if (spec.reference == ReferenceFrame::Interface) {
      c = makeInterfaceFrame(b, interfaceMotion(*eff, *frameFace));
      c->label = "reference frame of " + who + " (interface " + quoted(frameFace->name) + ")";
    } else {
      c = makeReferenceConditions(spec.reference, b, eff->invariants);
      c->label = std::string(spec.reference == ReferenceFrame::MeanAxis ? "mean-axis" : "principal-axis") +
                 " conditions of " + who;
    }
    c->where = where + ".reference";
    addConstraint(std::move(c));
  }
}

void System::compileVirtualBodies(const ModelSpec& model, Diagnostics& diag) {
  for (size_t v = 0; v < model.virtual_bodies.size(); ++v) {
    const VirtualBodySpec& spec = model.virtual_bodies[v];
    const std::string where = "virtual_bodies[" + std::to_string(v) + "]";
    const std::string who = "virtual body " + quoted(spec.name);
    const FlexibleBody* flexible = flexibleBody(bodyIndex(spec.flexible_body));
    if (!flexible) continue;  // its flexible body failed (already reported)
    const FlexibleBody& F = *flexible;
    const int fb = F.body;
    const fe::ReducedBody& data = *F.data;
    const Mat3 Rv = F.R.transpose() * spec.orientation.normalized().toRotationMatrix();  // virtual axes -> internal
    const Vec3 P = F.R.transpose() * (spec.point - F.offset);

    std::array<Vec3, 3> x;
    std::array<MatX, 3> Phi;
    std::string placed;
    if (!spec.interface.empty()) {
      const fe::Interface* face = nullptr;
      for (const auto& f : data.interfaces)
        if (f.name == spec.interface) face = &f;
      const MatX psi = interfaceMotion(data, *face);
      // three pseudo-nodes that move rigidly with the reference point, placed away from the
      // singular configurations relative to the virtual-body axes: cosines (64)-(67) 0, 0.41,
      // 0.41, 0.58 and rotational Jacobian determinant 0.58 (RigidFlexibleSingularity)
      const double L = std::max(1e-3, std::sqrt(data.invariants.J0.trace() / std::max(data.invariants.I1, 1e-300)));
      const Vec3 d[3] = {Vec3::Zero(), L * (Rv * Vec3(2, 1, 1)).normalized(), L * (Rv * Vec3(0, 1, -1)).normalized()};
      for (int a = 0; a < 3; ++a) {
        x[a] = face->reference + d[a];
        Phi[a] = psi.topRows<3>() - skew(d[a]) * psi.bottomRows<3>();
      }
      placed = "at the reference point of interface " + quoted(face->name);
    } else {
      int nodes[3] = {-1, -1, -1};
      if (!spec.nodes.empty()) {
        for (int a = 0; a < 3; ++a) nodes[a] = F.nodeIndex.at(spec.nodes[a]);
      } else {
        const RfNodeSelection sel = selectRfNodes(data.coords, P, Rv);
        if (!sel.ok) {
          diag.error(where + ".point", "no node triangle found: " + sel.message);
          continue;
        }
        nodes[0] = sel.nodeK;
        nodes[1] = sel.nodeM;
        nodes[2] = sel.nodeN;
      }
      for (int a = 0; a < 3; ++a) {
        x[a] = data.coords[nodes[a]];
        Phi[a] = F.nodeModes(nodes[a]);
      }
      m_virtualNodes[spec.name] = {data.node_ids[nodes[0]], data.node_ids[nodes[1]], data.node_ids[nodes[2]]};
      placed = "on nodes k = " + std::to_string(data.node_ids[nodes[0]]) + ", m = " +
               std::to_string(data.node_ids[nodes[1]]) + ", n = " + std::to_string(data.node_ids[nodes[2]]) +
               "; node k is " + mm((x[0] - P).norm()) + " from the given point";
    }

    RigidFlexibleJoint joint(x[0], Phi[0], x[1], Phi[1], x[2], Phi[2]);
    // initial pose and velocity: rigidly attached to the flexible body at node k
    const BodyKinematics ki = bodyKinematics(m_initial.q, m_initial.v, fb);
    const Mat3 Aj = ki.A * Rv;
    const Vec3 bk = FlexibleBodyDynamics::nodeLocalPosition(x[0], Phi[0], ki.w);
    const Quat pj(Aj);
    VecX q0(7), v0(6);
    q0 << ki.r + ki.A * bk, pj.w(), pj.x(), pj.y(), pj.z();
    v0 << ki.rdot + ki.omega.cross(ki.A * bk) + ki.A * Phi[0] * ki.wdot, Aj.transpose() * ki.omega;
    const int b = addBlock(spec.name, std::make_unique<VirtualBodyFormulation>(), q0, v0);
    addMarkers(b, spec.name, spec.markers);
    joint.initialize(ki.A, ki.w, Aj);
    const RigidFlexibleSingularity sing = joint.singularity(ki.A, ki.w, Aj);
    if (sing.nearSingular) diag.warning(where, who + ": " + sing.warning);
    diag.info(where, who + " attached to " + quoted(spec.flexible_body) + " " + placed);

    auto c = makeRigidFlexibleJoint(fb, b, std::move(joint));
    c->label = "rigid-flexible joint of " + who;
    c->where = where;
    addConstraint(std::move(c));
  }
}

}  // namespace flexim
