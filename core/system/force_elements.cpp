#include "core/system/force_elements.h"

#include "core/base/rotation.h"

#include <functional>
#include <map>

namespace flexim {

namespace {

/// Sets `out` to the generalized force of a global force F applied at a marker point plus a global
/// torque T, over the frame coordinates of the marker's body (a point body takes F alone).
void setGeneralized(VecX& out, const MarkerKinematics& k, const Vec3& F, const Vec3& T) {
  out.head<3>() = F;
  if (k.frame == 6) out.segment<3>(3) = k.body->A.transpose() * (k.sg.cross(F) + T);
}

class PointLoad final : public ForceElement {
 public:
  PointLoad(const ForceSpec& s, const MarkerRef& m)
      : m_spec(s), m_m(m), m_f(s.function), m_torque(s.type == ForceSpec::Type::PointTorque) {
    blocks = {m.body};
  }
  void evaluate(const System& sys, const std::vector<BodyKinematics>& kin, double t, ForceRows& out) const override {
    const MarkerKinematics k = sys.markerKinematics(kin, m_m);
    Vec3 v = m_spec.vector * m_f(t).f;
    if (m_spec.frame == ForceSpec::Frame::Marker) v = k.axes * v;
    if (m_torque) setGeneralized(out.f[0], k, Vec3::Zero(), v);
    else setGeneralized(out.f[0], k, v, Vec3::Zero());
  }
  bool power(const System& sys, const std::vector<BodyKinematics>& kin, double t, double& damping,
             double& applied) const override {
    damping = 0;
    applied = evaluatedPower(sys, kin, t);
    return true;
  }

 private:
  ForceSpec m_spec;
  MarkerRef m_m;
  TimeFunction m_f;
  bool m_torque;  ///< a torque, not a force (the kind, looked up once)
};

class SpringDamper final : public ForceElement {
 public:
  SpringDamper(const ForceSpec& s, const MarkerRef& m1, const MarkerRef& m2) : m_spec(s), m_m1(m1), m_m2(m2) {
    blocks = {m1.body, m2.body};
  }
  void evaluate(const System& sys, const std::vector<BodyKinematics>& kin, double, ForceRows& out) const override {
    const MarkerKinematics k1 = sys.markerKinematics(kin, m_m1), k2 = sys.markerKinematics(kin, m_m2);
    const Vec3 d = k2.p - k1.p;
    const double L = d.norm();
    if (L < 1e-12) return;  // direction undefined at zero length: no force rather than NaN
    const Vec3 u = d / L;
    const double Ldot = u.dot(k2.pdot - k1.pdot);
    const double tension = m_spec.stiffness * (L - m_spec.free_length) + m_spec.damping * Ldot + m_spec.preload;
    setGeneralized(out.f[0], k1, tension * u, Vec3::Zero());
    setGeneralized(out.f[1], k2, -tension * u, Vec3::Zero());
  }
  /// The spring and the preload derive from potentialEnergy(); the damper dissipates c L_dot^2.
  bool power(const System& sys, const std::vector<BodyKinematics>& kin, double, double& damping,
             double& applied) const override {
    const MarkerKinematics k1 = sys.markerKinematics(kin, m_m1, false), k2 = sys.markerKinematics(kin, m_m2, false);
    const Vec3 d = k2.p - k1.p;
    const double L = d.norm();
    const double Ldot = L < 1e-12 ? 0.0 : (d / L).dot(k2.pdot - k1.pdot);  // no force at zero length
    damping = -m_spec.damping * Ldot * Ldot;
    applied = 0;
    return true;
  }
  double potentialEnergy(const System& sys, const std::vector<BodyKinematics>& kin) const override {
    const double L = (sys.markerKinematics(kin, m_m2).p - sys.markerKinematics(kin, m_m1).p).norm();
    const double e = L - m_spec.free_length;
    return 0.5 * m_spec.stiffness * e * e + m_spec.preload * e;
  }

 private:
  ForceSpec m_spec;
  MarkerRef m_m1, m_m2;
};

/// Linear 6-DOF bushing: relative translation and rotation vector of marker2 w.r.t. marker1,
/// in marker1 axes; force/torque act on body2 at marker2 and react on body1.
class Bushing final : public ForceElement {
 public:
  Bushing(const ForceSpec& s, const MarkerRef& m1, const MarkerRef& m2) : m_spec(s), m_m1(m1), m_m2(m2) {
    blocks = {m1.body, m2.body};
  }
  void deflection(const System& sys, const std::vector<BodyKinematics>& kin, Vec6& x, Vec6& xdot,
                  MarkerKinematics& k1, MarkerKinematics& k2) const {
    k1 = sys.markerKinematics(kin, m_m1);
    k2 = sys.markerKinematics(kin, m_m2);
    const Mat3 R1 = k1.axes;
    x.head<3>() = R1.transpose() * (k2.p - k1.p);
    x.tail<3>() = logMap(Quat(Mat3(R1.transpose() * k2.axes)));
    // rates: relative velocity seen in marker1 axes (small-rotation approximation for the angles)
    xdot.head<3>() = R1.transpose() * (k2.pdot - k1.pdot - k1.body->omega.cross(k2.p - k1.p));
    xdot.tail<3>() = R1.transpose() * (k2.body->omega - k1.body->omega);
  }
  void evaluate(const System& sys, const std::vector<BodyKinematics>& kin, double, ForceRows& out) const override {
    loads(sys, kin, true, out);
  }
  /// Stiffness and damping loads, or (withStiffness false) the damping loads alone.
  void loads(const System& sys, const std::vector<BodyKinematics>& kin, bool withStiffness, ForceRows& out) const {
    Vec6 x, xdot;
    MarkerKinematics k1, k2;
    deflection(sys, kin, x, xdot, k1, k2);
    Vec6 load = -m_spec.bushing_damping.cwiseProduct(xdot);
    if (withStiffness) load += m_spec.bushing_preload - m_spec.bushing_stiffness.cwiseProduct(x);
    const Vec3 F = k1.axes * load.head<3>(), T = k1.axes * load.tail<3>();
    setGeneralized(out.f[1], k2, F, T);
    // reaction on body1 at marker2's point: -F and -T - (p2 - p1) x F about marker1
    setGeneralized(out.f[0], k1, -F, -T - (k2.p - k1.p).cross(F));
  }
  /// The translational stiffness and preload derive from potentialEnergy() (the power of a
  /// constant force F0 in marker1 axes is F0 · x_dot), and so does the rotational stiffness when it
  /// is the same about the three axes (the torque -k theta is then the gradient of k |theta|^2 / 2,
  /// as theta · theta_dot = theta · omega_rel). A rotational stiffness that differs between the axes
  /// is not a gradient at finite rotations, so its work is not known. The preload torque is not a
  /// gradient either: its power T0 · omega_rel (marker1 axes) counts as applied work.
  bool power(const System& sys, const std::vector<BodyKinematics>& kin, double, double& damping,
             double& applied) const override {
    const Vec3 kr = m_spec.bushing_stiffness.tail<3>();
    if (kr.maxCoeff() != kr.minCoeff()) return false;
    ForceRows f;
    f.resize({sys.blockNv(m_m1.body), sys.blockNv(m_m2.body)});
    loads(sys, kin, false, f);
    damping = forcePower(sys, blocks, f, kin);
    Vec6 x, xdot;
    MarkerKinematics k1, k2;
    deflection(sys, kin, x, xdot, k1, k2);
    applied = m_spec.bushing_preload.tail<3>().dot(xdot.tail<3>());
    return true;
  }
  double potentialEnergy(const System& sys, const std::vector<BodyKinematics>& kin) const override {
    Vec6 x, xdot;
    MarkerKinematics k1, k2;
    deflection(sys, kin, x, xdot, k1, k2);
    return 0.5 * x.dot(m_spec.bushing_stiffness.cwiseProduct(x)) - m_spec.bushing_preload.head<3>().dot(x.head<3>());
  }

 private:
  ForceSpec m_spec;
  MarkerRef m_m1, m_m2;
};

}  // namespace

double ForceElement::evaluatedPower(const System& sys, const std::vector<BodyKinematics>& kin, double t) const {
  ForceRows f;
  std::vector<int> sizes;
  for (int b : blocks) sizes.push_back(sys.blockNv(b));
  f.resize(sizes);
  evaluate(sys, kin, t, f);
  return forcePower(sys, blocks, f, kin);
}

double forcePower(const System& sys, const std::vector<int>& blocks, const ForceRows& rows,
                  const std::vector<BodyKinematics>& kin) {
  double P = 0;
  for (size_t k = 0; k < blocks.size(); ++k) {
    const int b = blocks[k];
    if (b < 0) continue;
    const BodyKinematics& K = kin[b + 1];
    const int frame = sys.block(b).formulation->frameSize();
    if (frame >= 3) P += rows.f[k].head<3>().dot(K.rdot);
    if (frame == 6) P += rows.f[k].segment<3>(3).dot(K.omega_body);
    if (K.wdot.size()) P += rows.f[k].tail(K.wdot.size()).dot(K.wdot);
  }
  return P;
}

namespace {
using ForceElementBuilder =
    std::function<std::unique_ptr<ForceElement>(const ForceSpec&, const MarkerRef& m1, const MarkerRef& m2)>;

template <class Element>
ForceElementBuilder twoMarkers() {
  return [](const ForceSpec& s, const MarkerRef& m1, const MarkerRef& m2) { return std::make_unique<Element>(s, m1, m2); };
}

ForceElementBuilder oneMarker() {
  return [](const ForceSpec& s, const MarkerRef& m1, const MarkerRef&) { return std::make_unique<PointLoad>(s, m1); };
}

/// The element of each registered force kind (core/model/force_kinds.cpp), by its key.
const std::map<std::string, ForceElementBuilder, std::less<>>& forceElementBuilders() {
  static const std::map<std::string, ForceElementBuilder, std::less<>> builders{
      {"point_force", oneMarker()},
      {"point_torque", oneMarker()},
      {"spring_damper", twoMarkers<SpringDamper>()},
      {"bushing", twoMarkers<Bushing>()},
  };
  return builders;
}
}  // namespace

std::unique_ptr<ForceElement> makeForceElement(const ForceSpec& spec, const MarkerRef& m1, const MarkerRef& m2) {
  const auto& builders = forceElementBuilders();
  const auto it = builders.find(spec.type.key());
  return it == builders.end() ? nullptr : it->second(spec, m1, m2);
}

}  // namespace flexim
