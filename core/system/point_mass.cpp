// The point-mass body: three translational coordinates (q = r, v = r_dot), no rotation. Its
// axes stay the global axes, so markers on it are points at fixed offsets and the frame
// Jacobians of elements on it keep their translational columns (MarkerKinematics::frame = 3).
#include "core/system/body_units.h"
#include "core/system/system.h"

namespace flexim {

namespace {

class PointMassFormulation final : public Formulation {
 public:
  explicit PointMassFormulation(double mass) : m_mass(mass) {}
  int nq() const override { return 3; }
  int nv() const override { return 3; }
  int frameSize() const override { return 3; }
  void massMatrix(const BodyKinematics&, MatX& M) const override { M = m_mass * MatX::Identity(3, 3); }
  void subtractMassTimes(const BodyKinematics&, const Eigen::Ref<const VecX>& a, Eigen::Ref<VecX> out) const override {
    out -= m_mass * a;
  }
  void forces(const BodyKinematics&, const Vec3& gravity, Eigen::Ref<VecX> f) const override { f = m_mass * gravity; }
  bool iterationMatrixEntry(int i, int j) const override { return i == j; }
  double kineticEnergy(const BodyKinematics& k) const override { return 0.5 * m_mass * k.rdot.squaredNorm(); }
  double potentialEnergy(const BodyKinematics& k, const Vec3& gravity) const override {
    return -m_mass * gravity.dot(k.r);
  }
  double dampingPower(const BodyKinematics&) const override { return 0.0; }

 private:
  double m_mass;
};

}  // namespace

void addPointMasses(System& sys, const ModelSpec& model, Diagnostics&) {
  for (const PointMassSpec& spec : model.point_masses) {
    const int b = sys.addBlock(spec.name, std::make_unique<PointMassFormulation>(spec.mass), spec.position, spec.velocity);
    sys.addMarkers(b, spec.name, spec.markers);
  }
}

}  // namespace flexim
