// Joint coordinates as coordinate blocks of their own: a scalar s per joint (an angle that
// counts full turns, or a translation), tied to the joint's two markers by rows
//   measure_i(markers) - factor_i s = 0
// (a three-block element: body1, body2 and the coordinate), and couplings between two such
// coordinates (gears, rack and pinion). A screw joint is a cylindrical joint whose rotation and
// translation both follow one coordinate.
#pragma once

#include "core/system/system.h"

namespace flexim {

enum class CoordinateMeasure { Rotation, Translation };

/// One row of a coordinate link: measure(markers) - factor * s = 0. Rotation rows need factor 1
/// (their residual is taken modulo 2 pi, so s may turn any number of times).
struct CoordinateTerm {
  CoordinateMeasure measure;
  double factor = 1.0;
};

/// Adds the coordinate block of model joint `joint` (name `name`) between markers m1, m2 and the
/// rows that tie it to them; its initial value is the first term's measure at the initial state
/// divided by its factor. Records it as the joint's coordinate; returns the block.
int addJointCoordinate(System& sys, int joint, const std::string& name, const MarkerRef& m1, const MarkerRef& m2,
                       const std::vector<CoordinateTerm>& terms);

/// The coordinate block of model joint `joint`; one is added when it has none, measuring the
/// coordinate its kind's description names for couplings and limits (an angle or a translation).
/// -1 when the kind has no such coordinate.
int ensureJointCoordinate(System& sys, int joint);

/// Stops on a coordinate block: two unilateral rows, s - lower >= 0 and upper - s >= 0.
std::unique_ptr<ConstraintElement> makeCoordinateLimit(int block, double lower, double upper);

/// Coupling of two coordinate blocks: s2 - s2(0) = ratio (s1 - s1(0)), from their initial values.
/// One row, linear: the gear ratio (rad/rad) or a pinion radius (m/rad).
std::unique_ptr<ConstraintElement> makeCoordinateCoupling(const System& sys, int block1, int block2, double ratio);

/// Screw joint: marker2 moves along and turns about marker1's z axis, translation = pitch x
/// angle / 2 pi (pitch [m] per turn, right-handed for pitch > 0). Four cylindrical rows plus a
/// coordinate (the angle) with two link rows.
void addScrewJoint(System& sys, int joint, const std::string& name, const MarkerRef& m1, const MarkerRef& m2,
                   double pitch);

}  // namespace flexim
