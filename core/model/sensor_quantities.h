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
  Kinetic, Potential, Total, Strain,                                                   // energy
  NodePosition, NodeVelocity, NodeAcceleration, NodeDisplacement,                      // node
  Deflection, NormalizedDeflection,                                                    // deflection
  ModalCoordinate, ModalVelocity                                                       // modal
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

}  // namespace flexim
