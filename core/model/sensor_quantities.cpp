#include "core/model/sensor_quantities.h"

#include <algorithm>
#include <numbers>

namespace flexim {

const std::vector<SensorQuantityInfo>& sensorQuantityTable() {
  using T = SensorSpec::Type;
  static const std::vector<SensorQuantityInfo> table = {
      {"position", SensorQuantity::Position, T::Marker, "m", {"x", "y", "z"}},
      {"orientation", SensorQuantity::Orientation, T::Marker, "-", {"w", "x", "y", "z"}},
      {"velocity", SensorQuantity::Velocity, T::Marker, "m/s", {"x", "y", "z"}},
      {"angular_velocity", SensorQuantity::AngularVelocity, T::Marker, "rad/s", {"x", "y", "z"}},
      {"acceleration", SensorQuantity::Acceleration, T::Marker, "m/s^2", {"x", "y", "z"}},
      {"angular_acceleration", SensorQuantity::AngularAcceleration, T::Marker, "rad/s^2", {"x", "y", "z"}},
      {"coordinate", SensorQuantity::Coordinate, T::Joint, "", {}},
      {"velocity", SensorQuantity::CoordinateRate, T::Joint, "", {}},
      {"reaction_force", SensorQuantity::ReactionForce, T::Joint, "N", {"x", "y", "z"}},
      {"reaction_torque", SensorQuantity::ReactionTorque, T::Joint, "N m", {"x", "y", "z"}},
      {"kinetic", SensorQuantity::Kinetic, T::Energy, "J", {"value"}},
      {"gravity", SensorQuantity::Gravity, T::Energy, "J", {"value"}},
      {"spring", SensorQuantity::Spring, T::Energy, "J", {"value"}},
      {"strain", SensorQuantity::Strain, T::Energy, "J", {"value"}},
      {"potential", SensorQuantity::Potential, T::Energy, "J", {"value"}},  // gravity + spring + strain
      {"total", SensorQuantity::Total, T::Energy, "J", {"value"}},
      {"position", SensorQuantity::NodePosition, T::Node, "m", {"x", "y", "z"}},
      {"velocity", SensorQuantity::NodeVelocity, T::Node, "m/s", {"x", "y", "z"}},
      {"acceleration", SensorQuantity::NodeAcceleration, T::Node, "m/s^2", {"x", "y", "z"}},
      {"displacement", SensorQuantity::NodeDisplacement, T::Node, "m", {"x", "y", "z"}},
      {"deflection", SensorQuantity::Deflection, T::Deflection, "m", {"x", "y", "z"}},
      {"normalized", SensorQuantity::NormalizedDeflection, T::Deflection, "-", {"x", "y", "z"}},
      {"coordinate", SensorQuantity::ModalCoordinate, T::Modal, "", {}},  // one channel per mode
      {"velocity", SensorQuantity::ModalVelocity, T::Modal, "", {}},
      {"stress", SensorQuantity::Stress, T::Stress, "Pa", {"xx", "yy", "zz", "xy", "yz", "zx"}},
      {"von_mises", SensorQuantity::VonMises, T::Stress, "Pa", {"value"}},
      {"max_principal", SensorQuantity::MaxPrincipal, T::Stress, "Pa", {"value"}},
      {"min_principal", SensorQuantity::MinPrincipal, T::Stress, "Pa", {"value"}},
  };
  return table;
}

std::vector<std::string> sensorQuantities(SensorSpec::Type type) {
  std::vector<std::string> names;
  for (const auto& q : sensorQuantityTable())
    if (q.type == type) names.push_back(q.name);
  return names;
}

const SensorQuantityInfo* findSensorQuantity(SensorSpec::Type type, const std::string& name) {
  for (const auto& q : sensorQuantityTable())
    if (q.type == type && name == q.name) return &q;
  return nullptr;
}

bool hasChoosableComponents(const SensorQuantityInfo& q) { return q.components.size() > 1; }

std::vector<std::string> choosableComponents(const SensorSpec& s) {
  std::vector<std::string> names;
  for (const auto& qname : s.quantities) {
    const SensorQuantityInfo* q = findSensorQuantity(s.type, qname);
    if (!q || !hasChoosableComponents(*q)) continue;
    for (const char* c : q->components)
      if (std::find(names.begin(), names.end(), c) == names.end()) names.emplace_back(c);
  }
  return names;
}

bool recordsComponent(const SensorSpec& s, const SensorQuantityInfo& q, const std::string& c) {
  return s.components.empty() || !hasChoosableComponents(q) ||
         std::find(s.components.begin(), s.components.end(), c) != s.components.end();
}

SensorUnit sensorUnit(const SensorSpec& s, const std::string& siUnit) {
  const auto slash = siUnit.find('/');
  const std::string numerator = siUnit.substr(0, slash);
  const std::string rest = slash == std::string::npos ? std::string() : siUnit.substr(slash);
  if (numerator == "m" && s.length_unit == SensorSpec::LengthUnit::Millimetre) return {"mm" + rest, 1e3};
  if (numerator == "rad" && s.angle_unit == SensorSpec::AngleUnit::Degree)
    return {"deg" + rest, 180.0 / std::numbers::pi};
  return {siUnit, 1.0};
}

}  // namespace flexim
