// Sensors turn a consistent state (with accelerations and multipliers) into output channels.
#pragma once

#include "core/model/sensor_quantities.h"
#include "core/run/simulation.h"
#include "core/system/system.h"

namespace flexim {

class SensorSet {
 public:
  /// Resolves sensor references; errors name "sensors[i] 'name'".
  SensorSet(const System& sys, Diagnostics& diag);
  ~SensorSet();
  const std::vector<Channel>& channels() const { return m_channels; }
  /// Appends one value per channel. Joint rotations are unwrapped across calls.
  void evaluate(const State& s, const VecX& vdot, const VecX& lambda, std::vector<double>& out);

 private:
  struct Item;
  void evaluateFlexible(const Item& it, const VecX& vdot, std::vector<double>& out) const;
  const System& m_sys;
  std::vector<Channel> m_channels;
  std::vector<Item> m_items;
  std::vector<BodyKinematics> m_kin;
};

}  // namespace flexim
