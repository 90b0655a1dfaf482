// Static equilibrium (Simulation::staticEquilibrium) against closed forms: a chain of point masses
// on springs (linear: each load level is its share of the stretch), a double pendulum that starts
// horizontal and must end hanging (its stiffness is only its reactions' geometric stiffness), and
// a run that starts from the equilibrium and stays there; a model the solver cannot take, refused
// with a message.
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

  /// engine_mount.json with `start` static_equilibrium: the block on its preloaded bushing starts
  /// at rest (its initial kick left out) at (F − m g) / kz = (900 − 1177.2) / 3e5 below the
  /// mount's zero and stays there, nothing moving sideways.
  void runStartsFromTheStaticEquilibrium() {
    ModelSpec m = example("engine_mount.json");
    m.solver.start = RunStart::StaticEquilibrium;
    m.solver.t_end = 0.2;
    RecordingSink sink;
    const RunSummary sum = test::runModel(m, sink);
    QVERIFY2(sum.ok, sum.message.c_str());
    const double sag = (900 - 120 * 9.81) / 3e5;
    bool noted = false;
    for (const std::string& note : sum.notes) noted = noted || note.find("from the static equilibrium") != std::string::npos;
    QVERIFY(noted);
    for (std::size_t i = 0; i < sink.samples.size(); ++i) {
      QVERIFY2(std::abs(sink.value(i, "engine.position.z") - sag) < 1e-10,
               qPrintable(QString("t = %1: z = %2").arg(sink.samples[i].t).arg(sink.value(i, "engine.position.z"))));
      QVERIFY(std::abs(sink.value(i, "engine.position.y")) < 1e-12);
      QVERIFY(std::abs(sink.value(i, "engine.angular_velocity.x")) < 1e-10);
    }
    // the same model from its initial conditions bounces and sways
    m.solver.start = RunStart::InitialConditions;
    RecordingSink moving;
    QVERIFY(test::runModel(m, moving).ok);
    QVERIFY(std::abs(moving.value(moving.samples.size() / 2, "engine.position.y")) > 1e-4);
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
