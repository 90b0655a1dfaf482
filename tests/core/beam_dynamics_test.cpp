// Beam dynamics that take longer than the default suite's budget (label "slow"): the damped 45°
// bend of resources/examples/beam_curved_cantilever_dynamic.json, loaded suddenly, settles on the
// static equilibrium of the same model under the same load.
#include "core/model/body_table.h"
#include "core/run/simulation.h"
#include "io/model_json.h"
#include "recording_sink.h"

#include <QtTest>

using namespace flexim;
using flexim::test::RecordingSink;

class BeamDynamicsTest : public QObject {
  Q_OBJECT

 private slots:
  void dampedBendSettlesOnItsStaticSolution() {
    ModelSpec m;
    Diagnostics diag;
    QVERIFY2(io::loadModelFile(FLEXIM_SOURCE_DIR "/resources/examples/beam_curved_cantilever_dynamic.json", m, diag),
             diag.str().c_str());
    const int tip = BodyTable(m).poseNamed("bend_8");
    QVERIFY(tip >= 0);
    Diagnostics d1;
    auto statics = Simulation::create(m, d1);
    QVERIFY2(statics, d1.str().c_str());
    RecordingSink rest;
    const RunSummary s = statics->staticEquilibrium({&rest});
    QVERIFY2(s.ok, s.message.c_str());
    const Vec3 still = rest.samples.back().poses.at(std::size_t(tip)).position;

    RecordingSink run;
    const RunSummary r = flexim::test::runModel(m, run);
    QVERIFY2(r.ok, r.message.c_str());
    const Vec3 start = run.samples.front().poses.at(std::size_t(tip)).position;
    const Vec3 end = run.samples.back().poses.at(std::size_t(tip)).position;
    qInfo("tip: static (%.4f, %.4f, %.4f), after %.0f s (%.4f, %.4f, %.4f)", still.x(), still.y(), still.z(),
          run.samples.back().t, end.x(), end.y(), end.z());
    QVERIFY2((still - start).norm() > 10, "the load moves the tip by metres");
    QVERIFY2((end - still).norm() < 0.01, "settled within 1 cm of the static tip");
  }
};

QTEST_GUILESS_MAIN(BeamDynamicsTest)
#include "beam_dynamics_test.moc"
