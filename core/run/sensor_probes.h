// Sensor probes: what a registered sensor kind computes, as a unit of its own. A kind with a
// probe (the table in core/run/sensor_probes.cpp) is evaluated by it; the built-in kinds are still
// evaluated by SensorSet itself (core/run/sensors.cpp).
#pragma once

#include "core/base/diagnostics.h"
#include "core/model/sensor_quantities.h"
#include "core/system/system.h"

#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace flexim {

/// What a unit sees of the state at an output time.
struct SensorContext {
  const System& system;
  const std::vector<BodyKinematics>& kinematics;  ///< of every block (System::kinematics)
  const State& state;
  const VecX& acceleration;  ///< v_dot
  const VecX& multipliers;   ///< lambda
};

/// One quantity of one sensor.
class SensorProbe {
 public:
  virtual ~SensorProbe() = default;
  /// Appends the quantity's values in SI, every component of it in the kind's order.
  virtual void evaluate(const SensorContext& context, std::vector<double>& out) = 0;
};

/// Makes the unit of quantity `quantity` of sensor `spec` on `sys`; null, with the reason in diag
/// at `where` ("sensors[2] 'gap'"), when it cannot observe what the spec names.
using SensorProbeFactory = std::function<std::unique_ptr<SensorProbe>(
    const System& sys, const SensorSpec& spec, const SensorQuantityInfo& quantity, const std::string& where,
    Diagnostics& diag)>;

/// The unit of a sensor kind (the table in core/run/sensor_probes.cpp), null for a kind
/// SensorSet evaluates itself.
const SensorProbeFactory* findSensorProbe(std::string_view kind);

}  // namespace flexim
