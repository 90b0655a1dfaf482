// Each item kind's checks beyond what its fields state (limits, references, names), named in
// its description (core/model/description.cpp). Internal to core/model.
#pragma once

#include "core/model/validate.h"

namespace flexim {

void checkFlexibleBody(ItemCheck& c);
void checkVirtualBody(ItemCheck& c);
void checkJoint(ItemCheck& c);
void checkTimeFunction(ItemCheck& c);
void checkDriver(ItemCheck& c);
void checkCoupling(ItemCheck& c);
void checkJointLimit(ItemCheck& c);
void checkForce(ItemCheck& c);
void checkContact(ItemCheck& c);
void checkSensor(ItemCheck& c);
/// Solver settings together: t_end at least output_interval, a fixed step (gen-alpha) not
/// longer than t_end, and at most kMaxOutputSamples output samples and kMaxSteps steps.
void checkSimulation(ItemCheck& c);
/// Output samples a run may ask for (t_end / output_interval): beyond this the output alone
/// is many gigabytes, and the count no longer fits the run's counters reliably.
inline constexpr double kMaxOutputSamples = 1e8;
/// Steps a run may ask for (t_end / step): a step this small against t_end is a typo.
inline constexpr double kMaxSteps = 1e9;

/// A driver's coordinate when the document gives none: the joint's own.
void defaultDriverCoordinate(const ModelSpec& m, void* driver);

}  // namespace flexim
