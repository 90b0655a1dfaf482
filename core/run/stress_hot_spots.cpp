#include "core/run/stress_hot_spots.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <functional>
#include <numeric>

namespace flexim {

StressHotSpots::StressHotSpots(const System& sys, int count) : m_count(count) {
  for (const FlexibleBody& F : sys.flexibleBodies()) watch(sys.block(F.body).name, *F.data);
}

void StressHotSpots::watch(const std::string& name, const fe::ReducedBody& data) {
  Body& b = m_bodies.emplace_back();
  b.name = name;
  const auto n = static_cast<Eigen::Index>(data.coords.size());
  if (data.stress_modes.rows() != 6 * n || data.stress_modes.cols() == 0) return;
  for (int i = 0; i < static_cast<int>(data.stress_modes.cols()); ++i)
    if (data.stress_modes.col(i).cwiseAbs().maxCoeff() > 0) b.modes.push_back(i);
  if (b.modes.empty()) return;
  std::vector<char> onSurface(static_cast<std::size_t>(n), data.surface.empty() ? 1 : 0);
  for (const auto& t : data.surface)
    for (int k : t) onSurface[static_cast<std::size_t>(k)] = 1;
  // P: von Mises as a norm (header); sqrt(3/2) (I - 1 1^T / 3) on the normal stresses
  Eigen::Matrix<double, 6, 6> P = Eigen::Matrix<double, 6, 6>::Zero();
  P.topLeftCorner<3, 3>() = std::sqrt(1.5) * (Eigen::Matrix3d::Identity() - Eigen::Matrix3d::Constant(1.0 / 3.0));
  P.bottomRightCorner<3, 3>() = std::sqrt(3.0) * Eigen::Matrix3d::Identity();
  const auto m = static_cast<Eigen::Index>(b.modes.size());
  const auto nodeMap = [&](int k) {
    Eigen::Matrix<double, 6, Eigen::Dynamic> V(6, m);
    for (Eigen::Index i = 0; i < m; ++i) V.col(i) = P * data.stress_modes.block<6, 1>(6 * Eigen::Index(k), b.modes[std::size_t(i)]);
    return V;
  };
  // the surface nodes, the most stressed per unit of modal coordinates first
  std::vector<std::pair<double, int>> bySize;
  for (int k = 0; k < static_cast<int>(n); ++k)
    if (onSurface[static_cast<std::size_t>(k)]) bySize.emplace_back(nodeMap(k).squaredNorm(), k);
  std::stable_sort(bySize.begin(), bySize.end(), [](const auto& x, const auto& y) { return x.first > y.first; });
  for (const auto& [size, k] : bySize) b.nodes.push_back(k);
  const auto kn = static_cast<Eigen::Index>(b.nodes.size());
  b.vonMises.resize(6 * kn, m);
  b.chunkBound = Eigen::MatrixXd::Zero(m, (kn + kChunk - 1) / kChunk);
  for (Eigen::Index j = 0; j < kn; ++j) {
    b.vonMises.middleRows<6>(6 * j) = nodeMap(b.nodes[std::size_t(j)]);
    b.ids.push_back(data.node_ids[std::size_t(b.nodes[std::size_t(j)])]);
    auto bound = b.chunkBound.col(j / kChunk);
    bound = bound.cwiseMax(b.vonMises.middleRows<6>(6 * j).colwise().norm().transpose());
  }
  b.chunkBound *= 1 + 1e-12;  // rounding of the products it bounds
  b.peak.assign(b.nodes.size(), -1.0);
  b.at.assign(b.nodes.size(), 0.0);
  b.pending.resize(m, kBlock);
  b.pendingTimes.resize(kBlock);
}

void StressHotSpots::sample(double t, const std::vector<VecX>& modal) {
  for (std::size_t i = 0; i < m_bodies.size() && i < modal.size(); ++i) {
    Body& b = m_bodies[i];
    if (b.nodes.empty() || modal[i].size() <= b.modes.back()) continue;
    for (std::size_t r = 0; r < b.modes.size(); ++r) b.pending(Eigen::Index(r), b.pendingCount) = modal[i](b.modes[r]);
    b.pendingTimes[std::size_t(b.pendingCount)] = t;
    if (++b.pendingCount == kBlock) evaluate(b);
    b.sampled = true;
  }
}

void StressHotSpots::evaluate(const Body& b) const {
  if (b.pendingCount == 0) return;
  const auto kn = static_cast<Eigen::Index>(b.nodes.size());
  // the count-th highest peak so far: a chunk whose bound is not above it is skipped
  double threshold = -1.0;
  if (m_count <= 0) return void(b.pendingCount = 0);
  if (static_cast<std::size_t>(m_count) <= b.peak.size()) {
    std::vector<double> peaks = b.peak;
    std::nth_element(peaks.begin(), peaks.begin() + (m_count - 1), peaks.end(), std::greater<>());
    threshold = peaks[std::size_t(m_count - 1)];
  }
  const auto Q = b.pending.leftCols(b.pendingCount);
  const Eigen::VectorXd largest = Q.cwiseAbs().rowwise().maxCoeff();
  Eigen::MatrixXd block;
  for (Eigen::Index first = 0, chunk = 0; first < kn; first += kChunk, ++chunk) {
    if (largest.dot(b.chunkBound.col(chunk)) <= threshold) continue;
    const Eigen::Index count = std::min<Eigen::Index>(kChunk, kn - first);
    block.noalias() = b.vonMises.middleRows(6 * first, 6 * count) * Q;
    for (Eigen::Index j = 0; j < count; ++j) {
      const auto J = static_cast<std::size_t>(first + j);
      for (int s = 0; s < b.pendingCount; ++s) {  // in time order: a tie keeps the first sample
        const double v = block.block<6, 1>(6 * j, s).norm();
        if (v > b.peak[J]) b.peak[J] = v, b.at[J] = b.pendingTimes[std::size_t(s)];
      }
    }
  }
  b.pendingCount = 0;
}

std::vector<StressHotSpots::Spot> StressHotSpots::spots(std::size_t body) const {
  std::vector<Spot> out;
  if (body >= m_bodies.size() || !m_bodies[body].sampled) return out;
  const Body& b = m_bodies[body];
  evaluate(b);
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
