// The quantities each sensor type records: their names (the model file's vocabulary), units and
// channel components. Shared by the model check (core/model/item_checks.cpp) and the sensors
// that evaluate them (core/run/sensors.cpp).
#pragma once

#include "core/model/model.h"

#include <string>
#include <vector>

namespace flexim {

enum class SensorQuantity {
  Position, Orientation, Velocity, AngularVelocity, Acceleration, AngularAcceleration,  // marker
  Coordinate, CoordinateRate, ReactionForce, ReactionTorque,                           // joint
  Kinetic, Potential, Total, Strain, Gravity, Spring,                                  // energy
  NodePosition, NodeVelocity, NodeAcceleration, NodeDisplacement,                      // node
  Deflection, NormalizedDeflection,                                                    // deflection
  ModalCoordinate, ModalVelocity,                                                      // modal
  Stress, VonMises, MaxPrincipal, MinPrincipal                                         // stress
};

struct SensorQuantityInfo {
  const char* name;
  SensorQuantity q;
  SensorSpec::Type type;
  const char* unit;
  std::vector<const char*> components;  ///< channel suffixes; empty: decided by the sensor (joint, modal)
};

/// Every quantity, grouped by sensor type, in channel order.
const std::vector<SensorQuantityInfo>& sensorQuantityTable();

/// Quantity names a sensor type records, in channel order (the file format's vocabulary).
std::vector<std::string> sensorQuantities(SensorSpec::Type type);

/// The quantity of a sensor type by name; null when it has none.
const SensorQuantityInfo* findSensorQuantity(SensorSpec::Type type, const std::string& name);

/// Whether the sensor's `components` choose among q's components: true for vector quantities
/// (x, y, z; w, x, y, z of orientation), false for scalar ones (energies' single value, joint
/// and modal coordinates, whose channels the sensor decides).
bool hasChoosableComponents(const SensorQuantityInfo& q);

/// The components a sensor's `components` may name: those of its known vector quantities, in
/// the order they first appear (e.g. x, y, z, w for position and orientation).
std::vector<std::string> choosableComponents(const SensorSpec& s);

/// Whether the sensor records component c of quantity q (all when `components` is empty).
bool recordsComponent(const SensorSpec& s, const SensorQuantityInfo& q, const std::string& c);

/// A channel's unit as the sensor shows it, and the factor from the SI value to the shown one.
struct SensorUnit {
  std::string unit;
  double scale = 1.0;
};
/// siUnit in the sensor's length_unit and angle_unit: a unit whose numerator is "m" (m, m/s,
/// m/s^2) becomes mm, mm/s, mm/s^2 (x 1000); one whose numerator is "rad" becomes deg, deg/s,
/// deg/s^2 (x 180/pi). Every other unit (N, N m, J, "-", modal units) is kept, with scale 1.
SensorUnit sensorUnit(const SensorSpec& s, const std::string& siUnit);

}  // namespace flexim
