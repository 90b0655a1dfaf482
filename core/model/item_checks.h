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
void checkSensor(ItemCheck& c);
void checkSimulation(ItemCheck& c);

/// A driver's coordinate when the document gives none: the joint's own.
void defaultDriverCoordinate(const ModelSpec& m, void* driver);

}  // namespace flexim
