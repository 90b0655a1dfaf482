// Dense output of one-step integrators: the state between two points of the solution.
#pragma once

#include "core/system/system.h"

namespace flexim {

/// Cubic Hermite interpolation between (t0, q0, v0, a0) and (t1, q1, v1, a1) at t, in the tangent
/// space at q0 (velocities are the derivatives of the positions, accelerations of the velocities).
void interpolateHermite(const System& sys, double t, double t0, const VecX& q0, const VecX& v0, const VecX& a0,
                        double t1, const VecX& q1, const VecX& v1, const VecX& a1, State& out);

}  // namespace flexim
