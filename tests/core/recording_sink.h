// Test helper: a ResultSink that keeps every sample, with lookup of channels by name.
#pragma once

#include "core/run/simulation.h"

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
  int column(const std::string& name) const {
    for (size_t i = 0; i < channels.size(); ++i)
      if (channels[i].name == name) return static_cast<int>(i);
    throw std::runtime_error("no channel " + name);
  }
  double value(size_t sample, const std::string& name) const { return samples.at(sample).values.at(column(name)); }
};

inline RunSummary runModel(const ModelSpec& m, RecordingSink& sink) {
  Diagnostics diag;
  auto sim = Simulation::create(m, diag);
  if (!sim) throw std::runtime_error("model rejected: " + diag.str());
  return sim->run({&sink});
}

}  // namespace flexim::test
