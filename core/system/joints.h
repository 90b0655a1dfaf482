// Joint and driver constraint elements built from three geometric primitives
// (Haug/Nikravesh): point coincidence (3 rows), dot-1 (two axes perpendicular),
// dot-2 (an axis perpendicular to the vector between the marker origins).
#pragma once

#include "core/system/system.h"

namespace flexim {

/// Builds joint `spec` (model index `index`, markers resolved) into the System: its elements and
/// any coordinate block it owns, through the joint kind's registered builder. False (with an
/// error at `where`) when the kind is unknown or its parameters are invalid.
bool buildJoint(System& sys, const JointSpec& spec, int index, const MarkerRef& m1, const MarkerRef& m2,
                const std::string& where, Diagnostics& diag);

/// A joint as a list of primitive rows between marker1 (on body1) and marker2 (on body2).
std::unique_ptr<ConstraintElement> makeJoint(JointType type, const MarkerRef& m1, const MarkerRef& m2);

/// Joint coordinate measured from marker1 to marker2: rotation about marker1 z [rad]
/// (in (-pi, pi]) or translation along marker1 z [m]; with its Jacobian and bias.
struct JointCoordinate {
  double value = 0, rate = 0, bias = 0;
  Vec6 J1 = Vec6::Zero(), J2 = Vec6::Zero();
};
JointCoordinate jointRotation(const MarkerKinematics& k1, const MarkerKinematics& k2);
JointCoordinate jointTranslation(const MarkerKinematics& k1, const MarkerKinematics& k2);

/// Driver: coordinate(q) - f(t) = 0 (rotation wrapped to (-pi, pi]).
std::unique_ptr<ConstraintElement> makeDriver(DriverSpec::Coordinate c, const MarkerRef& m1, const MarkerRef& m2,
                                              const TimeFunctionSpec& f);

}  // namespace flexim
