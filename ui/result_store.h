// Samples of the current run kept for playback and export (UI thread only).
#pragma once

#include "core/run/simulation.h"

#include <vector>

namespace flexim::ui {

class ResultStore {
 public:
  void reset(std::vector<Channel> channels);
  void append(const std::vector<Sample>& samples);

  const std::vector<Channel>& channels() const { return m_channels; }
  const std::vector<Sample>& samples() const { return m_samples; }
  std::size_t size() const { return m_samples.size(); }
  bool empty() const { return m_samples.empty(); }
  /// Index of the last sample with time <= t (0 when t is before the first). Requires !empty().
  std::size_t indexAtTime(double t) const;

 private:
  std::vector<Channel> m_channels;
  std::vector<Sample> m_samples;
};

}  // namespace flexim::ui
