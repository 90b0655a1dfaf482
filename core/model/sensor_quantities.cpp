#include "core/model/sensor_quantities.h"

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
      {"potential", SensorQuantity::Potential, T::Energy, "J", {"value"}},
      {"total", SensorQuantity::Total, T::Energy, "J", {"value"}},
      {"strain", SensorQuantity::Strain, T::Energy, "J", {"value"}},
      {"position", SensorQuantity::NodePosition, T::Node, "m", {"x", "y", "z"}},
      {"velocity", SensorQuantity::NodeVelocity, T::Node, "m/s", {"x", "y", "z"}},
      {"acceleration", SensorQuantity::NodeAcceleration, T::Node, "m/s^2", {"x", "y", "z"}},
      {"displacement", SensorQuantity::NodeDisplacement, T::Node, "m", {"x", "y", "z"}},
      {"deflection", SensorQuantity::Deflection, T::Deflection, "m", {"x", "y", "z"}},
      {"normalized", SensorQuantity::NormalizedDeflection, T::Deflection, "-", {"x", "y", "z"}},
      {"coordinate", SensorQuantity::ModalCoordinate, T::Modal, "", {}},  // one channel per mode
      {"velocity", SensorQuantity::ModalVelocity, T::Modal, "", {}},
  };
  return table;
}

std::vector<std::string> sensorQuantities(SensorSpec::Type type) {
  std::vector<std::string> names;
  for (const auto& q : sensorQuantityTable())
    if (q.type == type) names.push_back(q.name);
  return names;
}

}  // namespace flexim
