#include "core/system/flexible_elements.h"

#include "core/base/rotation.h"
#include "core/model/time_function.h"

#include <Eigen/Cholesky>

namespace flexim {

namespace {

/// Base of the flexible-body elements: their geometric stiffness is left out of the iteration
/// matrix. A numerical one costs 2 (6 + m) evaluations per factorisation (it tripled the cost of
/// a flexible slider-crank step), while at the steps flexible bodies run with (h ~ 1e-5) beta'
/// times it is negligible beside the mass matrix.
class FlexibleConstraintElement : public ConstraintElement {
 public:
  void addGeometricStiffness(const System&, std::vector<BodyKinematics>&, double, const Eigen::Ref<const VecX>&,
                             double, ElementTangent&) const override {}
  bool geometricStiffnessCouplesBlocks() const override { return false; }
  bool geometricStiffnessEntry(int, int, int) const override { return false; }
};

/// MAC or PAC on one flexible body (its only block).
class ReferenceConditionElement final : public FlexibleConstraintElement {
 public:
  ReferenceConditionElement(ReferenceFrame kind, const fe::ModalInvariants& inv) : m_kind(kind) {
    if (kind == ReferenceFrame::PrincipalAxis) m_pac = std::make_unique<PrincipalAxisConditions>(inv);
    else m_mac = std::make_unique<MeanAxisConditions>(inv);
  }
  int rows() const override { return 6; }
  RowKind rowKind(int row) const override {
    return m_kind == ReferenceFrame::PrincipalAxis || row < 3 ? RowKind::Equality : RowKind::VelocityLevel;
  }
  bool connects() const override { return false; }
  void evaluate(const System&, const std::vector<BodyKinematics>& kin, double, ConstraintRows& out) const override {
    const BodyKinematics& k = kin[blocks[0] + 1];
    if (m_pac) m_pac->evaluate(k.w, k.velocity(), m_rows);
    else m_mac->evaluate(k.w, k.velocity(), m_rows);
    out.phi = m_rows.phi;
    out.phit = m_rows.phit;
    out.gamma = m_rows.gamma;
    out.G[0] = m_rows.G;
  }

 private:
  ReferenceFrame m_kind;
  std::unique_ptr<MeanAxisConditions> m_mac;
  std::unique_ptr<PrincipalAxisConditions> m_pac;
  mutable FlexibleConstraintRows m_rows;  // scratch (elements are evaluated from one thread)
};

class InterfaceFrameElement final : public FlexibleConstraintElement {
 public:
  explicit InterfaceFrameElement(const MatX& modes) : m_modes(modes) {}
  int rows() const override { return 6; }
  bool connects() const override { return false; }
  void evaluate(const System&, const std::vector<BodyKinematics>& kin, double, ConstraintRows& out) const override {
    const BodyKinematics& k = kin[blocks[0] + 1];
    out.phi = m_modes * k.w;
    out.G[0].rightCols(m_modes.cols()) = m_modes;  // phit = gamma = 0: linear in w
  }

 private:
  MatX m_modes;  ///< 6 x m
};

class RigidFlexibleElement final : public FlexibleConstraintElement {
 public:
  explicit RigidFlexibleElement(RigidFlexibleJoint joint) : m_joint(std::move(joint)) {}
  int rows() const override { return 6; }
  void evaluate(const System&, const std::vector<BodyKinematics>& kin, double, ConstraintRows& out) const override {
    const BodyKinematics& i = kin[blocks[0] + 1];
    const BodyKinematics& j = kin[blocks[1] + 1];
    Vec6 vj;
    vj << j.rdot, j.omega_body;
    m_joint.evaluate(i.r, i.A, i.w, i.velocity(), j.r, j.A, vj, m_rows);
    out.phi = m_rows.phi;
    out.phit = m_rows.phit;
    out.gamma = m_rows.gamma;
    out.G[0] = m_rows.Gi;
    out.G[1] = m_rows.Gj;
  }

 private:
  RigidFlexibleJoint m_joint;
  mutable RigidFlexibleRows m_rows;
};

/// A point force on an FE node (vector in the internal body axes when it follows the body,
/// else the global vector rotated into the internal frame once): g += J_k^T F.
class NodePointForce final : public ForceElement {
 public:
  NodePointForce(const FlexibleBody& body, int node, const Vec3& vector, bool bodyAxes, const TimeFunctionSpec& f)
      : m_body(body), m_node(node), m_vector(vector), m_bodyAxes(bodyAxes), m_f(f), m_modes(body.nodeModes(node)) {
    blocks = {body.body};
  }
  void evaluate(const System&, const std::vector<BodyKinematics>& kin, double t, ForceRows& out) const override {
    const BodyKinematics& K = kin[m_body.body + 1];
    const Vec3 F = m_f(t).f * (m_bodyAxes ? Vec3(K.A * m_vector) : Vec3(m_body.R * m_vector));
    m_body.dyn->addPointForce(K.A, K.w, m_body.data->coords[m_node], m_modes, F, out.f[0]);
  }
  bool power(const System& sys, const std::vector<BodyKinematics>& kin, double t, double& damping,
             double& applied) const override {
    damping = 0;
    applied = evaluatedPower(sys, kin, t);
    return true;
  }

 private:
  const FlexibleBody& m_body;
  int m_node;
  Vec3 m_vector;
  bool m_bodyAxes;
  TimeFunction m_f;
  MatX m_modes;  ///< 3 x m rows of the node
};

}  // namespace

std::unique_ptr<ForceElement> makeNodePointForce(const FlexibleBody& body, int node, const Vec3& vector, bool bodyAxes,
                                                 const TimeFunctionSpec& f) {
  return std::make_unique<NodePointForce>(body, node, vector, bodyAxes, f);
}

std::unique_ptr<ConstraintElement> makeReferenceConditions(ReferenceFrame kind, int body,
                                                           const fe::ModalInvariants& inv) {
  auto e = std::make_unique<ReferenceConditionElement>(kind, inv);
  e->blocks = {body};
  return e;
}

std::unique_ptr<ConstraintElement> makeInterfaceFrame(int body, const MatX& interfaceModes) {
  auto e = std::make_unique<InterfaceFrameElement>(interfaceModes);
  e->blocks = {body};
  return e;
}

std::unique_ptr<ConstraintElement> makeRigidFlexibleJoint(int flexBody, int virtualBody, RigidFlexibleJoint joint) {
  auto e = std::make_unique<RigidFlexibleElement>(std::move(joint));
  e->blocks = {flexBody, virtualBody};
  return e;
}

MatX interfaceRigidModes(const std::vector<Vec3>& x, const MatX& pointModes, const Vec3& p) {
  const int n = static_cast<int>(x.size()), m = static_cast<int>(pointModes.cols());
  Mat6 N = Mat6::Zero();
  MatX rhs = MatX::Zero(6, m);
  for (int k = 0; k < n; ++k) {
    Eigen::Matrix<double, 3, 6> S;
    S << Mat3::Identity(), -skew(x[k] - p);
    N += S.transpose() * S;
    rhs += S.transpose() * pointModes.middleRows(3 * k, 3);
  }
  return N.ldlt().solve(rhs);
}

}  // namespace flexim
