#include "core/run/sensor_probes.h"

#include <map>

namespace flexim {

// the probes, each in a file of its own
std::unique_ptr<SensorProbe> makeRelativeMotionSensor(const System&, const SensorSpec&, const SensorQuantityInfo&,
                                                      const std::string&, Diagnostics&);
std::unique_ptr<SensorProbe> makeBeamSensor(const System&, const SensorSpec&, const SensorQuantityInfo&,
                                            const std::string&, Diagnostics&);

const SensorProbeFactory* findSensorProbe(std::string_view kind) {
  // kind key -> the unit that evaluates it
  static const std::map<std::string, SensorProbeFactory, std::less<>> units{
      {"relative", makeRelativeMotionSensor},
      {"beam", makeBeamSensor},
  };
  const auto it = units.find(kind);
  return it == units.end() ? nullptr : &it->second;
}

}  // namespace flexim
