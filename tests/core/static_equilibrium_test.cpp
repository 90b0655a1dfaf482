// Static equilibrium (Simulation::staticEquilibrium) against closed forms: a chain of point masses
// on springs (linear: each load level is its share of the stretch), a double pendulum that starts
// horizontal and must end hanging (its stiffness is only its reactions' geometric stiffness), and
// a model the solver cannot take, refused with a message.
#include "core/run/simulation.h"
#include "io/model_json.h"
#include "recording_sink.h"

#include <QtTest>

#include <cmath>
#include <numbers>

using namespace flexim;
using flexim::test::RecordingSink;

namespace {

ModelSpec example(const char* name) {
  ModelSpec m;
  Diagnostics diag;
  if (!io::loadModelFile(std::string(FLEXIM_SOURCE_DIR "/resources/examples/") + name, m, diag)) qFatal("%s", diag.str().c_str());
  return m;
}

RunSummary solveStatic(const ModelSpec& m, RecordingSink& sink, int levels) {
  Diagnostics diag;
  auto sim = Simulation::create(m, diag);
  if (!sim) qFatal("%s", diag.str().c_str());
  StaticOptions options;
  options.load_steps = levels;
  return sim->staticEquilibrium({&sink}, options);
}

}  // namespace

class StaticEquilibriumTest : public QObject {
  Q_OBJECT

 private slots:
  /// hanging_chain.json: five 0.2 kg masses on springs of 400 N/m (free length 0.1 m); spring j
  /// carries the weight below it, so mass i sits at -(0.1 i + s sum_{j<=i} (6 - j) m g / k) at load
  /// level s.
  void springChainStretchesByTheWeightBelow() {
    RecordingSink sink;
    const RunSummary sum = solveStatic(example("hanging_chain.json"), sink, 4);
    QVERIFY2(sum.ok, sum.message.c_str());
    QCOMPARE(sink.samples.size(), std::size_t(5));  // levels 0, 1/4, ..., 1
    const double m = 0.2, g = 9.81, k = 400;
    for (std::size_t level = 0; level < sink.samples.size(); ++level) {
      const double s = sink.value(level, "load_factor");
      QVERIFY(std::abs(s - level / 4.0) < 1e-15);
      double stretch = 0;
      for (int i = 1; i <= 5; ++i) {
        stretch += (6 - i) * m * g / k;
        const double z = sink.value(level, "m" + std::to_string(i) + ".position.z");
        QVERIFY2(std::abs(z + 0.1 * i + s * stretch) < 1e-10, qPrintable(QString("m%1 at level %2: %3").arg(i).arg(s).arg(z)));
      }
    }
  }

  /// double_pendulum.json starts horizontal along +x: its equilibrium hangs straight down, the tip
  /// at (0, -2, 0), the shoulder at -90 degrees, the elbow straight.
  void doublePendulumHangsStraightDown() {
    RecordingSink sink;
    const RunSummary sum = solveStatic(example("double_pendulum.json"), sink, 2);
    QVERIFY2(sum.ok, sum.message.c_str());
    const std::size_t last = sink.samples.size() - 1;
    QVERIFY(std::abs(sink.value(last, "tip.position.x")) < 1e-10);
    QVERIFY(std::abs(sink.value(last, "tip.position.y") + 2.0) < 1e-10);
    QVERIFY(std::abs(sink.value(last, "shoulder.coordinate.rotation") + std::numbers::pi / 2) < 1e-10);
    QVERIFY(std::abs(sink.value(last, "elbow.coordinate.rotation")) < 1e-10);
  }

  /// Contacts are not taken yet: a clear refusal, not an equilibrium without them.
  void contactsAreRefused() {
    RecordingSink sink;
    const RunSummary sum = solveStatic(example("block_sliding.json"), sink, 1);
    QVERIFY(!sum.ok);
    QVERIFY2(sum.message.find("does not take contacts") != std::string::npos, sum.message.c_str());
  }
};

QTEST_GUILESS_MAIN(StaticEquilibriumTest)
#include "static_equilibrium_test.moc"
