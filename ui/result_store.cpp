#include "ui/result_store.h"

#include <algorithm>

namespace flexim::ui {

void ResultStore::reset(std::vector<Channel> channels) {
  m_channels = std::move(channels);
  m_samples.clear();
}

void ResultStore::append(const std::vector<Sample>& samples) {
  m_samples.insert(m_samples.end(), samples.begin(), samples.end());
}

std::size_t ResultStore::indexAtTime(double t) const {
  const auto after = std::upper_bound(m_samples.begin(), m_samples.end(), t,
                                      [](double time, const Sample& s) { return time < s.t; });
  return after == m_samples.begin() ? 0 : std::size_t(after - m_samples.begin()) - 1;
}

}  // namespace flexim::ui
