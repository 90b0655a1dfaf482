#include "core/run/result_table.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace flexim {

namespace {

using MinMax = std::pair<double, double>;

/// fmin/fmax: a NaN value (a sensor without a value at that time) is skipped, not spread.
MinMax merged(MinMax a, MinMax b) { return {std::fmin(a.first, b.first), std::fmax(a.second, b.second)}; }

}  // namespace

void ResultTable::Column::push(double v) {
  values.push_back(v);
  const std::size_t n = values.size(), i = n - 1;
  // level k holds blocks of 2^(k+1) samples; it appears when the first such block is complete
  for (std::size_t k = 0; (std::size_t(2) << k) <= n; ++k) {
    if (k == levels.size()) {  // n == 2^(k+1): one block, the two halves of the level below
      const MinMax lo = k == 0 ? MinMax{values[0], values[0]} : levels[k - 1][0];
      const MinMax hi = k == 0 ? MinMax{values[1], values[1]} : levels[k - 1][1];
      levels.push_back({merged(lo, hi)});
      continue;
    }
    auto& level = levels[k];
    const std::size_t j = i >> (k + 1);
    if (j == level.size()) level.push_back({v, v});
    else level[j] = merged(level[j], {v, v});
  }
}

void ResultTable::reset(std::vector<Channel> channels, BodyTable bodies) {
  m_channels = std::move(channels);
  m_abscissa = {"time", "s"};
  m_bodies = std::move(bodies);
  m_time.clear();
  m_columns.assign(m_channels.size(), {});
  m_poses.clear();
  m_modal.clear();
  m_modalSizes.clear();
  m_posesPerSample = m_modalPerSample = 0;
}

void ResultTable::append(const Sample& s) {
  if (m_time.empty()) {
    m_posesPerSample = s.poses.size();
    m_modalSizes.clear();
    m_modalPerSample = 0;
    for (const auto& w : s.modal) {
      m_modalSizes.push_back(static_cast<int>(w.size()));
      m_modalPerSample += static_cast<std::size_t>(w.size());
    }
  }
  m_time.push_back(s.t);
  for (std::size_t c = 0; c < m_columns.size(); ++c)
    m_columns[c].push(c < s.values.size() ? s.values[c] : std::numeric_limits<double>::quiet_NaN());
  // the layout of the first sample holds for the run: pad or cut anything else
  for (std::size_t p = 0; p < m_posesPerSample; ++p) m_poses.push_back(p < s.poses.size() ? s.poses[p] : BodyPose{});
  for (std::size_t b = 0; b < m_modalSizes.size(); ++b)
    for (int k = 0; k < m_modalSizes[b]; ++k)
      m_modal.push_back(b < s.modal.size() && k < s.modal[b].size() ? s.modal[b](k) : 0.0);
}

void ResultTable::append(const std::vector<Sample>& samples) {
  for (const Sample& s : samples) append(s);
}

int ResultTable::channelIndex(const std::string& name) const {
  for (std::size_t c = 0; c < m_channels.size(); ++c)
    if (m_channels[c].name == name) return static_cast<int>(c);
  return -1;
}

Sample ResultTable::sample(std::size_t i) const {
  Sample s;
  s.t = m_time[i];
  s.values.reserve(m_columns.size());
  for (const Column& c : m_columns) s.values.push_back(c.values[i]);
  const auto poses = m_poses.begin() + static_cast<std::ptrdiff_t>(i * m_posesPerSample);
  s.poses.assign(poses, poses + static_cast<std::ptrdiff_t>(m_posesPerSample));
  std::size_t at = i * m_modalPerSample;
  for (int n : m_modalSizes) {
    s.modal.push_back(Eigen::Map<const Eigen::VectorXd>(m_modal.data() + at, n));
    at += static_cast<std::size_t>(n);
  }
  return s;
}

std::size_t ResultTable::indexAtTime(double t) const {
  const auto after = std::upper_bound(m_time.begin(), m_time.end(), t);
  return after == m_time.begin() ? 0 : static_cast<std::size_t>(after - m_time.begin()) - 1;
}

std::pair<double, double> ResultTable::range(std::size_t c, std::size_t begin, std::size_t end) const {
  const Column& col = m_columns[c];
  MinMax r{std::numeric_limits<double>::infinity(), -std::numeric_limits<double>::infinity()};
  std::size_t i = begin;
  while (i < end) {
    // the largest whole block that starts at i and ends by `end`
    int k = -1;
    while (static_cast<std::size_t>(k + 1) < col.levels.size()) {
      const std::size_t size = std::size_t(2) << (k + 1);
      if (i % size != 0 || i + size > end) break;
      ++k;
    }
    if (k < 0) {
      r = merged(r, {col.values[i], col.values[i]});
      ++i;
    } else {
      r = merged(r, col.levels[static_cast<std::size_t>(k)][i >> (k + 1)]);
      i += std::size_t(2) << k;
    }
  }
  if (!(r.first <= r.second)) return {std::nan(""), std::nan("")};  // no value in the range
  return r;
}

ResultTable::Envelope ResultTable::envelope(std::size_t c, double t0, double t1, int buckets) const {
  Envelope e;
  if (m_time.empty() || buckets <= 0 || !(t1 >= t0)) return e;
  const double dt = (t1 - t0) / buckets;
  const std::span<const double> values = column(c);
  auto firstAtOrAfter = [&](double t) {
    return static_cast<std::size_t>(std::lower_bound(m_time.begin(), m_time.end(), t) - m_time.begin());
  };
  std::size_t begin = firstAtOrAfter(t0);
  for (int b = 0; b < buckets && begin < m_time.size(); ++b) {
    // the last bucket is closed: it holds a sample at t1
    const std::size_t end =
        b + 1 == buckets ? static_cast<std::size_t>(std::upper_bound(m_time.begin(), m_time.end(), t1) - m_time.begin())
                         : std::max(begin, firstAtOrAfter(t0 + (b + 1) * dt));
    if (end > begin) {
      const auto [lo, hi] = range(c, begin, end);
      e.time.push_back(m_time[begin]);
      e.min.push_back(lo);
      e.max.push_back(hi);
      e.first.push_back(values[begin]);
      e.last.push_back(values[end - 1]);
    }
    begin = end;
  }
  return e;
}

}  // namespace flexim
