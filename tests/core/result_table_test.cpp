// The columnar result table of a run and its min/max envelope for plots:
// every bucket's extremes equal a brute-force scan of its samples at every zoom, while
// samples are still being appended; samples come back as they went in.
#include "core/run/result_table.h"

#include <QtTest>

#include <algorithm>
#include <cmath>
#include <limits>
#include <random>

using namespace flexim;

namespace {

/// Brute force: min and max of the values whose time lies in [a, b) (or [a, b] when closed),
/// by a scan of those samples (times are sorted, so they are found by bisection).
std::pair<double, double> scan(const std::vector<double>& t, const std::vector<double>& v, double a, double b, bool closed,
                               std::size_t& count) {
  double lo = std::numeric_limits<double>::infinity(), hi = -lo;
  count = 0;
  const auto first = std::lower_bound(t.begin(), t.end(), a) - t.begin();
  const auto last = (closed ? std::upper_bound(t.begin(), t.end(), b) : std::lower_bound(t.begin(), t.end(), b)) - t.begin();
  for (auto i = first; i < last; ++i)
    if (!std::isnan(v[i])) {
      lo = std::min(lo, v[i]);
      hi = std::max(hi, v[i]);
      ++count;
    }
  return {lo, hi};
}

}  // namespace

class ResultTableTest : public QObject {
  Q_OBJECT

 private slots:
  /// A random walk of a million samples at irregular times: the envelope at zooms from the whole
  /// run down to a few samples per bucket equals the brute-force scan of each bucket.
  void envelopeIsExactAtEveryZoom() {
    std::mt19937 rng(7);
    std::normal_distribution<double> step(0.0, 1.0);
    std::uniform_real_distribution<double> gap(1e-6, 3e-6);
    ResultTable table;
    table.reset({{"walk", "m"}, {"spiky", "N"}});
    std::vector<double> t, walk, spiky;
    double x = 0, time = 0;
    constexpr int n = 1'000'000;
    for (int i = 0; i < n; ++i) {
      x += step(rng);
      time += gap(rng);
      // single-sample spikes: a decimation that resamples would miss them
      const double s = (i % 99'991 == 17) ? 1e6 : std::sin(1e-3 * i);
      Sample sample;
      sample.t = time;
      sample.values = {x, s};
      table.append(sample);
      t.push_back(time);
      walk.push_back(x);
      spiky.push_back(s);
    }
    QCOMPARE(table.size(), std::size_t(n));
    std::uniform_real_distribution<double> where(0.0, 1.0);
    for (double zoom : {1.0, 0.3, 1e-2, 1e-3, 1e-5}) {
      for (int trial = 0; trial < 3; ++trial) {
        const double width = zoom * time, t0 = where(rng) * (time - width), t1 = t0 + width;
        const int buckets = 997;
        for (std::size_t c : {std::size_t(0), std::size_t(1)}) {
          const auto& v = c == 0 ? walk : spiky;
          const ResultTable::Envelope e = table.envelope(c, t0, t1, buckets);
          std::size_t k = 0, samples = 0;
          for (int b = 0; b < buckets; ++b) {
            std::size_t count = 0;
            const auto [lo, hi] = scan(t, v, t0 + b * (t1 - t0) / buckets, t0 + (b + 1) * (t1 - t0) / buckets,
                                       b + 1 == buckets, count);
            if (count == 0) continue;  // empty buckets are left out
            QVERIFY2(k < e.size(), qPrintable(QString("zoom %1: bucket %2 missing").arg(zoom).arg(b)));
            QCOMPARE(e.min[k], lo);
            QCOMPARE(e.max[k], hi);
            ++k;
            samples += count;
          }
          QCOMPARE(e.size(), k);
          QVERIFY(samples > 0);
        }
      }
    }
    // the spikes are in the whole-run envelope
    const auto whole = table.envelope(1, t.front(), t.back(), 500);
    int spikes = 0;
    for (double m : whole.max) spikes += m == 1e6;
    QCOMPARE(spikes, 11);  // i = 17, 17 + 99 991, ... below 10^6
  }

  /// range() against brute force on random index intervals, while the table grows (the
  /// pyramid's last blocks are partial), with NaN values skipped.
  void rangeWhileAppending() {
    std::mt19937 rng(11);
    std::uniform_real_distribution<double> value(-1.0, 1.0);
    ResultTable table;
    table.reset({{"a", "1"}});
    std::vector<double> v;
    for (int i = 0; i < 5000; ++i) {
      Sample s;
      s.t = i * 0.01;
      s.values = {i % 37 == 5 ? std::nan("") : value(rng)};
      table.append(s);
      v.push_back(s.values[0]);
      std::uniform_int_distribution<std::size_t> index(0, v.size() - 1);
      std::size_t a = index(rng), b = index(rng);
      if (a > b) std::swap(a, b);
      ++b;
      double lo = std::numeric_limits<double>::infinity(), hi = -lo;
      for (std::size_t k = a; k < b; ++k)
        if (!std::isnan(v[k])) lo = std::min(lo, v[k]), hi = std::max(hi, v[k]);
      const auto [rlo, rhi] = table.range(0, a, b);
      if (lo > hi) {
        QVERIFY(std::isnan(rlo) && std::isnan(rhi));
      } else {
        QCOMPARE(rlo, lo);
        QCOMPARE(rhi, hi);
      }
    }
  }

  /// Values, poses and modal coordinates come back per sample; indexAtTime finds the sample.
  void samplesRoundTrip() {
    ResultTable table;
    table.reset({{"x", "m"}, {"y", "m"}});
    for (int i = 0; i < 10; ++i) {
      Sample s;
      s.t = 0.5 * i;
      s.values = {double(i), -double(i)};
      s.poses = {BodyPose{Vec3(i, 0, 0), Quat::Identity()}, BodyPose{Vec3(0, i, 0), Quat(0, 1, 0, 0)}};
      s.modal = {Eigen::VectorXd::Constant(3, i), Eigen::VectorXd::Constant(1, -i)};
      table.append(s);
    }
    const Sample s = table.sample(7);
    QCOMPARE(s.t, 3.5);
    QCOMPARE(s.values, (std::vector<double>{7, -7}));
    QCOMPARE(s.poses.size(), std::size_t(2));
    QCOMPARE(s.poses[1].position.y(), 7.0);
    QCOMPARE(s.poses[1].orientation.x(), 1.0);
    QCOMPARE(s.modal.size(), std::size_t(2));
    QCOMPARE(s.modal[0].size(), Eigen::Index(3));
    QCOMPARE(s.modal[0](2), 7.0);
    QCOMPARE(s.modal[1](0), -7.0);
    QCOMPARE(table.indexAtTime(3.6), std::size_t(7));
    QCOMPARE(table.indexAtTime(-1.0), std::size_t(0));
    QCOMPARE(table.indexAtTime(100.0), std::size_t(9));
    QCOMPARE(table.channelIndex("y"), 1);
    QCOMPARE(table.channelIndex("z"), -1);
    QCOMPARE(table.column(1)[4], -4.0);
  }
};

QTEST_GUILESS_MAIN(ResultTableTest)
#include "result_table_test.moc"
