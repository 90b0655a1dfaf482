// The registered force kinds, in the order the docs and messages list them. A new kind adds its
// description here and its element in core/system (the table in core/system/force_elements.cpp);
// nothing else names it.
#include "core/model/description.h"

namespace flexim {

std::vector<ForceKindDescription> registeredForceKinds() {
  return {
      {"point_force",
       "a force `vector` · f(t) at a marker, or on a flexible body at an FE `node`; `function` is constant 1 when "
       "left out",
       false, {}},
      {"point_torque",
       "a torque `vector` · f(t) on the marker's body (the marker only supplies axes when `frame` is `marker`)", false,
       {}},
      {"spring_damper",
       "a linear spring and damper along the line between the two marker origins: tension = stiffness · (L − "
       "free_length) + damping · dL/dt + preload; a positive tension pulls the ends together; no force at zero "
       "length, where the direction is undefined",
       true, {}},
      {"bushing",
       "a linear 6-DOF bushing (as Adams' BUSHING): its deflection is marker2's position and rotation vector from "
       "marker1, in marker1 axes, each component resisted by its own stiffness and damping, plus the preload; the "
       "load acts on body2 at marker2 and reacts on body1",
       true, {}},
  };
}

}  // namespace flexim
