#include "core/system/joint_coordinates.h"

#include "core/model/description.h"
#include "core/system/joints.h"

#include <cmath>
#include <numbers>

namespace flexim {

namespace {

constexpr double kTwoPi = 2 * std::numbers::pi;

JointCoordinate measure(CoordinateMeasure m, const MarkerKinematics& k1, const MarkerKinematics& k2) {
  return m == CoordinateMeasure::Rotation ? jointRotation(k1, k2) : jointTranslation(k1, k2);
}

/// Rows measure_i(markers) - factor_i s = 0 over blocks {body1, body2, coordinate}.
class CoordinateLink final : public ConstraintElement {
 public:
  CoordinateLink(const MarkerRef& m1, const MarkerRef& m2, int coordinate, std::vector<CoordinateTerm> terms)
      : m_m1(m1), m_m2(m2), m_terms(std::move(terms)) {
    blocks = {m1.body, m2.body, coordinate};
  }
  int rows() const override { return static_cast<int>(m_terms.size()); }
  void evaluate(const System& sys, const std::vector<BodyKinematics>& kin, double, ConstraintRows& out) const override {
    const MarkerKinematics k1 = sys.markerKinematics(kin, m_m1), k2 = sys.markerKinematics(kin, m_m2);
    const double s = kin[blocks[2] + 1].w(0);
    for (int r = 0; r < rows(); ++r) {
      const CoordinateTerm& term = m_terms[r];
      const JointCoordinate c = measure(term.measure, k1, k2);
      double phi = c.value - term.factor * s;
      if (term.measure == CoordinateMeasure::Rotation) phi = std::remainder(phi, kTwoPi);  // s counts turns
      out.phi(r) = phi;
      out.G[0].row(r) = c.J1.transpose();
      out.G[1].row(r) = c.J2.transpose();
      out.G[2](r, 0) = -term.factor;
      out.gamma(r) = c.bias;
    }
  }

 private:
  MarkerRef m_m1, m_m2;
  std::vector<CoordinateTerm> m_terms;
};

class CoordinateCoupling final : public ConstraintElement {
 public:
  CoordinateCoupling(int block1, double s1, int block2, double s2, double ratio) : m_s1(s1), m_s2(s2), m_ratio(ratio) {
    blocks = {block1, block2};
  }
  int rows() const override { return 1; }
  void evaluate(const System&, const std::vector<BodyKinematics>& kin, double, ConstraintRows& out) const override {
    out.phi(0) = (kin[blocks[1] + 1].w(0) - m_s2) - m_ratio * (kin[blocks[0] + 1].w(0) - m_s1);
    out.G[0](0, 0) = -m_ratio;
    out.G[1](0, 0) = 1.0;
  }

 private:
  double m_s1, m_s2, m_ratio;
};

class CoordinateLimit final : public ConstraintElement {
 public:
  CoordinateLimit(int block, double lower, double upper) : m_lower(lower), m_upper(upper) { blocks = {block}; }
  int rows() const override { return 2; }
  RowKind rowKind(int) const override { return RowKind::Unilateral; }
  void evaluate(const System&, const std::vector<BodyKinematics>& kin, double, ConstraintRows& out) const override {
    const double s = kin[blocks[0] + 1].w(0);
    out.phi << s - m_lower, m_upper - s;
    out.G[0] << 1.0, -1.0;  // gamma = 0: linear in s
  }

 private:
  double m_lower, m_upper;
};

double initialValue(const System& sys, int block) { return sys.initialState().q(sys.block(block).q0); }

}  // namespace

int addJointCoordinate(System& sys, int joint, const std::string& name, const MarkerRef& m1, const MarkerRef& m2,
                       const std::vector<CoordinateTerm>& terms) {
  std::vector<BodyKinematics> kin;
  sys.kinematics(sys.initialState(), kin);
  const JointCoordinate c0 =
      measure(terms.front().measure, sys.markerKinematics(kin, m1), sys.markerKinematics(kin, m2));
  VecX q(1), v(1);
  q << c0.value / terms.front().factor;
  v << c0.rate / terms.front().factor;
  const int block = sys.addBlock("joint '" + name + "' coordinate", std::make_unique<JointCoordinateFormulation>(), q, v);
  auto link = std::make_unique<CoordinateLink>(m1, m2, block, terms);
  link->label = "joint '" + name + "'";
  link->where = "joints[" + std::to_string(joint) + "]";
  link->joint_index = joint;
  sys.addConstraint(std::move(link));
  sys.setJointCoordinate(joint, block);
  return block;
}

int ensureJointCoordinate(System& sys, int joint) {
  if (const int block = sys.jointCoordinate(joint); block >= 0) return block;
  const JointSpec& spec = sys.model().joints[joint];
  const JointKindDescription* kind = findJointKind(spec.type.key());
  const MarkerRef* m1 = sys.marker(spec.body1, spec.marker1);
  const MarkerRef* m2 = sys.marker(spec.body2, spec.marker2);
  if (!kind || kind->coupled.empty() || !m1 || !m2) return -1;
  const auto measure = kind->coupled == "rotation" ? CoordinateMeasure::Rotation : CoordinateMeasure::Translation;
  return addJointCoordinate(sys, joint, spec.name, *m1, *m2, {{measure, 1.0}});
}

std::unique_ptr<ConstraintElement> makeCoordinateLimit(int block, double lower, double upper) {
  return std::make_unique<CoordinateLimit>(block, lower, upper);
}

std::unique_ptr<ConstraintElement> makeCoordinateCoupling(const System& sys, int block1, int block2, double ratio) {
  return std::make_unique<CoordinateCoupling>(block1, initialValue(sys, block1), block2, initialValue(sys, block2), ratio);
}

void addScrewJoint(System& sys, int joint, const std::string& name, const MarkerRef& m1, const MarkerRef& m2,
                   double pitch) {
  auto rows = makeJoint(JointType::Cylindrical, m1, m2);
  rows->label = "joint '" + name + "'";
  rows->where = "joints[" + std::to_string(joint) + "]";
  rows->joint_index = joint;
  sys.addConstraint(std::move(rows));
  addJointCoordinate(sys, joint, name, m1, m2,
                     {{CoordinateMeasure::Rotation, 1.0}, {CoordinateMeasure::Translation, pitch / kTwoPi}});
}

}  // namespace flexim
