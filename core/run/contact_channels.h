// The output channels of the contact points: per point `<contact>.gap [m]`, `.normal_velocity
// [m/s]`, `.normal_force [N]`, `.tangential_force [N]` (spatial contacts: `.tangential_force.1`,
// `.2`), `.normal_impulse [N s]`, `.tangential_impulse [N s]`, `.status []` (0 open, 1 closed and
// sticking, 2 closed and slipping) and `.impacts []` (so far). Their values come from the
// integrator (Integrator::contactValues).
#pragma once

#include "core/integrators/integrator.h"
#include "core/run/simulation.h"

#include <vector>

namespace flexim {

std::vector<Channel> contactChannels(const System& sys);
/// Appends one value per contact channel; values: Integrator::contactValues() (zeros when it gives
/// none).
void appendContactValues(const System& sys, const std::vector<ContactChannelValues>& values, std::vector<double>& out);

}  // namespace flexim
