#include "core/model/sensor_quantities.h"

#include <algorithm>
#include <numbers>

namespace flexim {

const std::vector<SensorKindDescription>& sensorKinds() {
  static const std::vector<SensorKindDescription> kinds = registeredSensorKinds();
  return kinds;
}

const SensorKindDescription* findSensorKind(std::string_view key) {
  for (const auto& kind : sensorKinds())
    if (kind.key == key) return &kind;
  return nullptr;
}

std::vector<std::string> sensorKindsWith(bool SensorKindDescription::*flag) {
  std::vector<std::string> keys;
  for (const auto& kind : sensorKinds())
    if (kind.*flag) keys.push_back(kind.key);
  return keys;
}

std::vector<std::string> sensorQuantities(const SensorType& type) {
  std::vector<std::string> names;
  if (const SensorKindDescription* kind = findSensorKind(type.key()))
    for (const auto& q : kind->quantities) names.push_back(q.name);
  return names;
}

const SensorQuantityInfo* findSensorQuantity(const SensorType& type, const std::string& name) {
  if (const SensorKindDescription* kind = findSensorKind(type.key()))
    for (const auto& q : kind->quantities)
      if (name == q.name) return &q;
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
