// Display shape of a rigid body derived from its mass properties, so that the picture reflects
// the model's numbers (a wrong inertia shows up as a strange-looking body).
#pragma once

#include "core/model/model.h"

namespace flexim::render {

/// Homogeneous box with the body's mass and principal moments of inertia.
struct InertiaBox {
  Vec3 size = Vec3::Ones();            ///< [m] full edge lengths along the principal axes
  Quat orientation = Quat::Identity(); ///< principal axes -> body axes (right-handed)
  bool valid = false;                  ///< false: mass or inertia unusable, size is a fallback
};

/// Edge lengths a, b, c solve I1 = m (b^2 + c^2) / 12 (and cyclic). Moments that violate the
/// triangle inequality, or tiny ones, are clamped so that no edge is thinner than
/// minAspect times the longest edge (a point mass still gets a visible shape).
InertiaBox equivalentInertiaBox(double mass, const Mat3& inertia, double minAspect = 0.08);

}  // namespace flexim::render
