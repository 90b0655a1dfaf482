// The registered contact kinds, in the order the docs and messages list them. A new kind adds
// its description here and its geometry in core/system/contacts.cpp (the builder table there);
// nothing else names it.
#include "core/model/description.h"

namespace flexim {

std::vector<ContactKindDescription> registeredContactKinds() {
  const FieldDescription radius =
      contactParameter("radius", "m", "radius of the sphere at marker1 (sphere_sphere: of the first sphere)", 0.01)
          .above(0);
  return {
      {"point_plane",
       "marker1's origin against the plane through marker2's origin normal to marker2's z axis; the gap is the "
       "distance along that normal (negative: penetration); friction acts in the plane (a cone)",
       1, 2, {}},
      {"sphere_plane",
       "a sphere of `radius` centred at marker1's origin against the plane through marker2's origin normal to "
       "marker2's z axis; the contact point is the sphere's point nearest the plane",
       1, 2, {radius}},
      {"sphere_sphere",
       "a sphere of `radius` at marker1 against a sphere of `radius2` at marker2 (a sphere inside the other is not "
       "detected); the normal is the line of centres",
       1, 2,
       {radius, contactParameter("radius2", "m", "radius of the second sphere, at marker2", 0.01).above(0)}},
      {"point_line",
       "planar: marker1's origin against the line through marker2's origin along marker2's x axis, the gap measured "
       "along marker2's y axis (the plane of motion is marker2's x-y plane); friction along the line (an interval)",
       1, 1, {}},
      {"translational_clearance",
       "a slider block of half length `half_length` (marker1's x axis) and half height `half_height` (marker1's y "
       "axis) centred at marker1, in a guide along marker2's x axis whose walls are at y = ±(half_height + "
       "`clearance`) in marker2's axes: four corner contacts (planar, the walls' friction along the guide) named "
       "`<name>_1` (−x, +y) … `<name>_4` (+x, −y)",
       4, 1,
       {contactParameter("half_length", "m", "half length of the slider along the guide", 0.05).above(0),
        contactParameter("half_height", "m", "half height of the slider across the guide", 0.025).above(0),
        contactParameter("clearance", "m", "gap between each wall and the centred slider (0: no play)", 0.001)
            .atLeast(0)}},
      {"nodes_plane",
       "FE nodes of a flexible body1 (`nodes`: their ids; its surface nodes, a node set) against the plane through "
       "marker2's origin normal to marker2's z axis: one contact point per node, at the node's deformed position, so "
       "the contact loads the body's modes; points named `<name>_<node id>`",
       0, 2, {}, true},
  };
}

}  // namespace flexim
