// The relative-motion sensor: marker2 seen from the reference marker (`body`.`marker`), in global
// axes or the reference marker's (`frame`: "body").
//   distance = |p2 - p1|, position = p2 - p1, velocity = p2_dot - p1_dot,
//   angle = the rotation angle of R1^T R2 (0 when the axes are aligned, at most pi),
//   angular_velocity = omega2 - omega1.
#include "core/run/sensor_probes.h"

#include <algorithm>
#include <cmath>

namespace flexim {

namespace {

class RelativeMotion final : public SensorProbe {
 public:
  RelativeMotion(const MarkerRef& reference, const MarkerRef& moving, std::string quantity, bool referenceAxes)
      : m_reference(reference), m_moving(moving), m_quantity(std::move(quantity)), m_referenceAxes(referenceAxes) {}

  void evaluate(const SensorContext& c, std::vector<double>& out) override {
    const MarkerKinematics k1 = c.system.markerKinematics(c.kinematics, m_reference);
    const MarkerKinematics k2 = c.system.markerKinematics(c.kinematics, m_moving);
    const Mat3 toAxes = m_referenceAxes ? Mat3(k1.axes.transpose()) : Mat3::Identity();
    const auto put = [&](const Vec3& v) {
      const Vec3 shown = toAxes * v;
      out.insert(out.end(), {shown.x(), shown.y(), shown.z()});
    };
    if (m_quantity == "distance") {
      out.push_back((k2.p - k1.p).norm());
    } else if (m_quantity == "position") {
      put(k2.p - k1.p);
    } else if (m_quantity == "velocity") {
      put(k2.pdot - k1.pdot);
    } else if (m_quantity == "angle") {
      // from the trace of R1^T R2, with the sine from its skew part so small angles keep their digits
      const Mat3 R = k1.axes.transpose() * k2.axes;
      const Vec3 skewPart(R(2, 1) - R(1, 2), R(0, 2) - R(2, 0), R(1, 0) - R(0, 1));
      out.push_back(std::atan2(0.5 * skewPart.norm(), 0.5 * (R.trace() - 1.0)));
    } else {  // angular_velocity
      put(k2.body->omega - k1.body->omega);
    }
  }

 private:
  const MarkerRef& m_reference;
  const MarkerRef& m_moving;
  std::string m_quantity;
  bool m_referenceAxes;
};

}  // namespace

std::unique_ptr<SensorProbe> makeRelativeMotionSensor(const System& sys, const SensorSpec& spec,
                                                     const SensorQuantityInfo& quantity, const std::string& where,
                                                     Diagnostics& diag) {
  const MarkerRef* reference = sys.marker(spec.body, spec.marker);
  const MarkerRef* moving = sys.marker(spec.body2, spec.marker2);
  if (!reference) diag.error(where + ".marker", "no marker '" + spec.marker + "' on body '" + spec.body + "'");
  if (!moving) diag.error(where + ".marker2", "no marker '" + spec.marker2 + "' on body '" + spec.body2 + "'");
  if (!reference || !moving) return nullptr;
  return std::make_unique<RelativeMotion>(*reference, *moving, quantity.name, spec.frame == SensorSpec::Frame::Body);
}

}  // namespace flexim
