// Applied-force elements: point force, point torque, spring-damper, bushing.
#pragma once

#include "core/system/system.h"

namespace flexim {

/// Builds the element for one ForceSpec (markers already resolved; m2 is m1 for a kind with one
/// end); null for a kind without an element.
std::unique_ptr<ForceElement> makeForceElement(const ForceSpec& spec, const MarkerRef& m1, const MarkerRef& m2);

}  // namespace flexim
