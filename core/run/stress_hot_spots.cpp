#include "core/run/stress_hot_spots.h"

#include "core/fe/stress.h"

#include <algorithm>
#include <cstdio>
#include <numeric>

namespace flexim {

StressHotSpots::StressHotSpots(const System& sys, int count) : m_count(count) {
  for (const FlexibleBody& F : sys.flexibleBodies()) {
    Body& b = m_bodies.emplace_back();
    b.name = sys.block(F.body).name;
    const fe::ReducedBody& data = *F.data;
    const auto n = static_cast<Eigen::Index>(data.coords.size());
    if (data.stress_modes.rows() != 6 * n || data.stress_modes.cols() == 0) continue;
    std::vector<char> onSurface(static_cast<std::size_t>(n), data.surface.empty() ? 1 : 0);
    for (const auto& t : data.surface)
      for (int k : t) onSurface[static_cast<std::size_t>(k)] = 1;
    for (int k = 0; k < static_cast<int>(n); ++k)
      if (onSurface[static_cast<std::size_t>(k)]) b.nodes.push_back(k);
    const auto kn = static_cast<Eigen::Index>(b.nodes.size());
    b.stress.resize(6 * kn, data.stress_modes.cols());
    for (Eigen::Index j = 0; j < kn; ++j) {
      b.stress.middleRows<6>(6 * j) = data.stress_modes.middleRows<6>(6 * Eigen::Index(b.nodes[std::size_t(j)]));
      b.ids.push_back(data.node_ids[std::size_t(b.nodes[std::size_t(j)])]);
    }
    b.peak.assign(b.nodes.size(), -1.0);
    b.at.assign(b.nodes.size(), 0.0);
  }
}

void StressHotSpots::sample(double t, const std::vector<VecX>& modal) {
  for (std::size_t i = 0; i < m_bodies.size() && i < modal.size(); ++i) {
    Body& b = m_bodies[i];
    if (b.nodes.empty() || modal[i].size() != b.stress.cols()) continue;
    const VecX sigma = b.stress * modal[i];
    for (std::size_t j = 0; j < b.nodes.size(); ++j) {
      const double v = fe::vonMises(sigma.segment<6>(6 * Eigen::Index(j)));
      if (v > b.peak[j]) b.peak[j] = v, b.at[j] = t;
    }
    b.sampled = true;
  }
}

std::vector<StressHotSpots::Spot> StressHotSpots::spots(std::size_t body) const {
  std::vector<Spot> out;
  if (body >= m_bodies.size() || !m_bodies[body].sampled) return out;
  const Body& b = m_bodies[body];
  std::vector<std::size_t> order(b.nodes.size());
  std::iota(order.begin(), order.end(), std::size_t(0));
  const std::size_t n = std::min(order.size(), static_cast<std::size_t>(std::max(m_count, 0)));
  std::partial_sort(order.begin(), order.begin() + static_cast<std::ptrdiff_t>(n), order.end(),
                    [&](std::size_t a, std::size_t c) { return b.peak[a] > b.peak[c]; });
  for (std::size_t k = 0; k < n; ++k) out.push_back({b.ids[order[k]], b.peak[order[k]], b.at[order[k]]});
  return out;
}

std::vector<std::string> StressHotSpots::notes() const {
  std::vector<std::string> out;
  for (std::size_t i = 0; i < m_bodies.size(); ++i) {
    const std::vector<Spot> s = spots(i);
    if (s.empty()) continue;
    std::string line = "hot spots of '" + m_bodies[i].name + "' (von Mises at the surface nodes, output samples): ";
    for (std::size_t k = 0; k < s.size(); ++k) {
      char text[96];
      std::snprintf(text, sizeof text, "%s%.4g MPa at node %d, t = %.4g s", k ? "; " : "", s[k].von_mises / 1e6,
                    s[k].node_id, s[k].time);
      line += text;
    }
    out.push_back(std::move(line));
  }
  return out;
}

}  // namespace flexim
