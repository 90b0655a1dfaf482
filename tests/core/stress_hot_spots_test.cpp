// The run's stress hot spots: the blocked evaluation (von Mises as the norm of a linear map of
// the modal coordinates, samples evaluated kBlock at a time) reports the nodes, peaks and times
// of evaluating fe::vonMises at every node and sample, for any number of samples.
#include "core/fe/stress.h"
#include "core/run/stress_hot_spots.h"

#include <QtTest>

#include <algorithm>
#include <random>

using namespace flexim;

namespace {

/// A body of n nodes and m stress modes with stresses concentrated at a few nodes (as at a
/// notch) or spread evenly (a bar in tension).
fe::ReducedBody body(int n, int m, bool concentrated, std::mt19937& rng, int rigid = 0) {
  std::normal_distribution<double> normal;
  fe::ReducedBody data;
  for (int k = 0; k < n; ++k) {
    data.coords.emplace_back(0.01 * k, 0, 0);
    data.node_ids.push_back(100 + k);
  }
  data.stress_modes.resize(6 * n, m);
  for (int k = 0; k < n; ++k) {
    const double level = concentrated ? std::exp(-0.05 * k) : 1.0;
    for (int r = 0; r < 6; ++r)
      for (int j = 0; j < m; ++j) data.stress_modes(6 * k + r, j) = j < rigid ? 0.0 : 1e8 * level * normal(rng);
  }
  return data;
}

}  // namespace

class StressHotSpotsTest : public QObject {
  Q_OBJECT

 private slots:
  void blockedEqualsEveryNodeAtEverySample_data() {
    QTest::addColumn<bool>("concentrated");
    QTest::addColumn<int>("count");
    QTest::addColumn<int>("samples");
    QTest::addColumn<int>("nodes");
    QTest::addColumn<int>("rigid");  // leading modes without stress
    QTest::newRow("notch, 5 reported") << true << 5 << 200 << 3000 << 0;
    QTest::newRow("notch, 6 rigid modes") << true << 5 << 200 << 3000 << 6;
    QTest::newRow("even, 5 reported") << false << 5 << 200 << 3000 << 0;
    QTest::newRow("notch, 1 reported, a block and one") << true << 1 << StressHotSpots::kBlock + 1 << 300 << 0;
    QTest::newRow("notch, more reported than nodes, under a block") << true << 500 << 3 << 300 << 0;
  }
  void blockedEqualsEveryNodeAtEverySample() {
    QFETCH(bool, concentrated);
    QFETCH(int, count);
    QFETCH(int, samples);
    QFETCH(int, nodes);
    QFETCH(int, rigid);
    std::mt19937 rng(7);
    const int n = nodes, m = 8 + rigid;
    const fe::ReducedBody data = body(n, m, concentrated, rng, rigid);
    StressHotSpots spots(count);
    spots.watch("part", data);
    // every node at every sample, for the reference
    std::vector<double> peak(n, -1.0), at(n, 0.0);
    std::normal_distribution<double> normal;
    for (int s = 0; s < samples; ++s) {
      VecX q(m);
      for (int j = 0; j < m; ++j) q(j) = normal(rng) * (1 + std::sin(0.1 * s));  // growing and shrinking
      const double t = 1e-3 * s;
      spots.sample(t, {q});
      const VecX sigma = data.stress_modes * q;
      for (int k = 0; k < n; ++k) {
        const double v = fe::vonMises(sigma.segment<6>(6 * k));
        if (v > peak[k]) peak[k] = v, at[k] = t;
      }
    }
    std::vector<int> order(n);
    std::iota(order.begin(), order.end(), 0);
    std::sort(order.begin(), order.end(), [&](int a, int b) { return peak[a] > peak[b]; });
    const auto got = spots.spots(0);
    QVERIFY(!got.empty() || count <= 0);
    QCOMPARE(int(got.size()), std::min(count, n));
    for (std::size_t r = 0; r < got.size(); ++r) {
      const int k = order[r];
      QCOMPARE(got[r].node_id, 100 + k);
      QVERIFY(std::abs(got[r].von_mises - peak[k]) <= 1e-13 * peak[k]);  // the same sum, rounded otherwise
      QCOMPARE(got[r].time, at[k]);
    }
  }

  void aBodyWithoutStressModesIsNotWatched() {
    std::mt19937 rng(1);
    fe::ReducedBody data = body(10, 3, true, rng);
    data.stress_modes.resize(0, 0);
    StressHotSpots spots;
    spots.watch("plain", data);
    spots.sample(0.0, {VecX::Ones(3)});
    QVERIFY(spots.spots(0).empty());
    QVERIFY(spots.notes().empty());
  }
};

QTEST_APPLESS_MAIN(StressHotSpotsTest)
#include "stress_hot_spots_test.moc"
