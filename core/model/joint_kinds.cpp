// The registered joint kinds, in the order the docs and messages list them. A new kind adds its
// description here (and its constraint element in core/system); nothing else names the kinds.
#include "core/model/description.h"

namespace flexim {

std::vector<JointKindDescription> registeredJointKinds() {
  return {
      {"fixed", "origins coincide and axes stay aligned; no free motion", 6, false, false, {}},
      {"revolute",
       "origins coincide, z axes stay parallel; rotation about the common z axis, coordinate = angle of marker2 x "
       "about marker1 z, from marker1 x [rad]",
       5, true, false, {}, "rotation"},
      {"prismatic",
       "marker2 origin stays on marker1's z axis, orientations locked; translation along marker1 z, coordinate = "
       "(p₂ − p₁)·z₁ [m]",
       5, false, true, {}, "translation"},
      {"cylindrical",
       "marker2 origin on marker1's z axis, z axes parallel; rotation about and translation along marker1 z: both "
       "coordinates",
       4, true, true, {}},
      {"spherical", "origins coincide; three rotations", 3, false, false, {}},
      {"universal", "origins coincide, marker1 z stays perpendicular to marker2 z (the two cross pins); two rotations",
       4, false, false, {}},
      {"planar", "marker2 origin stays in marker1's xy plane, z axes stay parallel; x, y translation and rotation about z",
       3, false, false, {}},
      {"screw",
       "marker2 origin on marker1's z axis, z axes parallel; rotation about marker1 z with the translation along it "
       "tied to it: translation = pitch x angle / 2 pi. Its angle is a coordinate of its own, counting full turns",
       5, true, true,
       {jointParameter("pitch", "m", "advance per turn (positive: right-handed thread)", 0.001)}, "rotation"},
  };
}

}  // namespace flexim
