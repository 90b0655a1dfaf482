// The registered sensor kinds and the quantities each records: their names (the model file's
// vocabulary), units and channel components. Shared by the item descriptions, the model check
// (core/model/item_checks.cpp) and the sensors that evaluate them (core/run/sensors.cpp).
#pragma once

#include "core/model/model.h"

#include <string>
#include <string_view>
#include <vector>

namespace flexim {

enum class SensorQuantity {
  Position, Orientation, Velocity, AngularVelocity, Acceleration, AngularAcceleration,  // marker
  Coordinate, CoordinateRate, ReactionForce, ReactionTorque,                           // joint
  Kinetic, Potential, Total, Strain, Gravity, Spring,                                  // energy
  NodePosition, NodeVelocity, NodeAcceleration, NodeDisplacement,                      // node
  Deflection, NormalizedDeflection,                                                    // deflection
  ModalCoordinate, ModalVelocity,                                                      // modal
  Stress, VonMises, MaxPrincipal, MinPrincipal,                                        // stress
  OfProbe  ///< a quantity of a kind evaluated by its own probe (core/run/sensor_probes.h), by name
};

struct SensorQuantityInfo {
  const char* name;
  SensorQuantity q;
  const char* unit;
  std::vector<const char*> components;  ///< channel suffixes; empty: decided by the sensor (joint, modal)
  const char* help = "";                ///< its meaning, for the docs
  /// For the docs where `components` and `unit` do not say it (a joint's coordinates, modes).
  const char* componentsText = nullptr;
  const char* unitText = nullptr;
};

/// A kind of sensor. Adding one: this description in core/model/sensor_kinds.cpp, its probe (what
/// it computes) in core/run with one line in the table of core/run/sensor_probes.cpp; the
/// JSON reader and writer, validation, schema, docs tables and the GUI follow from the entry.
struct SensorKindDescription {
  std::string key;   ///< "marker"
  std::string help;  ///< what it observes
  std::vector<SensorQuantityInfo> quantities;  ///< in channel order
  // the fields it uses (its description's conditions follow from these)
  bool marker = false;        ///< `body` and `marker`: the marker observed (the reference one of two)
  bool secondMarker = false;  ///< `body2` and `marker2`: a second marker
  bool frame = false;         ///< `frame`: global or body axes for its vector components
  bool components = false;    ///< `components`: which components of its vector quantities
  bool lengths = false;       ///< `length_unit`: it records lengths and their rates
  bool angles = false;        ///< `angle_unit`: it records angles and their rates
  bool element = false;       ///< `element`: the beam element observed
};

/// The registered sensor kinds, in document order.
const std::vector<SensorKindDescription>& sensorKinds();
const SensorKindDescription* findSensorKind(std::string_view key);
/// The sensor kinds' registrations (core/model/sensor_kinds.cpp).
std::vector<SensorKindDescription> registeredSensorKinds();
/// The keys of the kinds that use a field (flag: &SensorKindDescription::frame, ...).
std::vector<std::string> sensorKindsWith(bool SensorKindDescription::*flag);

/// Quantity names a sensor type records, in channel order (the file format's vocabulary).
std::vector<std::string> sensorQuantities(const SensorType& type);

/// The quantity of a sensor type by name; null when it has none.
const SensorQuantityInfo* findSensorQuantity(const SensorType& type, const std::string& name);

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
