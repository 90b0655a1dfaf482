// Test helper: a ResultSink that keeps every sample, with lookup of channels by name.
#pragma once

#include "core/run/simulation.h"

#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

namespace flexim::test {

class RecordingSink : public ResultSink {
 public:
  std::vector<Channel> channels;
  std::vector<Sample> samples;
  RunSummary summary;
  void begin(const std::vector<Channel>& c, const RunSummary&) override { channels = c; }
  void sample(const Sample& s) override { samples.push_back(s); }
  void end(const RunSummary& s) override { summary = s; }
  /// Column of a channel, -1 when absent.
  int column(const std::string& name) const {
    for (size_t i = 0; i < channels.size(); ++i)
      if (channels[i].name == name) return static_cast<int>(i);
    return -1;
  }
  bool has(const std::string& name) const { return column(name) >= 0; }
  /// NaN when the channel is absent, so every comparison with it fails.
  double value(size_t sample, const std::string& name) const {
    const int c = column(name);
    return c < 0 ? std::numeric_limits<double>::quiet_NaN() : samples.at(sample).values.at(c);
  }
};

inline RunSummary runModel(const ModelSpec& m, RecordingSink& sink) {
  Diagnostics diag;
  auto sim = Simulation::create(m, diag);
  if (!sim) throw std::runtime_error("model rejected: " + diag.str());
  return sim->run({&sink});
}

}  // namespace flexim::test
