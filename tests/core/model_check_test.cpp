// Model check before a run: DOF count, redundant constraints named, bodies left unconstrained,
// initial assembly; compile errors name the item.
#include "recording_sink.h"

#include <QtTest>

#include <cmath>

using namespace flexim;

namespace {

MarkerSpec marker(const std::string& name, const Vec3& p) { return {name, p, Quat::Identity()}; }

RigidBodySpec link(const std::string& name, const Vec3& a, const Vec3& b) {
  const Vec3 d = b - a;
  const double L = d.norm();
  RigidBodySpec body{name, 1.0, Vec3(1e-3, L * L / 12, L * L / 12).asDiagonal(), 0.5 * (a + b),
                     Quat::FromTwoVectors(Vec3::UnitX(), d / L)};
  body.markers = {marker("a", Vec3(-L / 2, 0, 0)), marker("b", Vec3(L / 2, 0, 0))};
  return body;
}

/// Planar four-bar, every joint a revolute about z: the classic spatially redundant loop
/// (3 dependent rows); mobility 1.
ModelSpec fourBar(JointType last = JointType::Revolute) {
  ModelSpec m;
  const Vec3 A(0, 0, 0), B(0, 1, 0), C(2, 1.5, 0), D(2, 0, 0);
  m.ground_markers = {marker("A", A), marker("D", D)};
  m.bodies = {link("crank", A, B), link("coupler", B, C), link("rocker", D, C)};
  m.joints = {{"jA", JointType::Revolute, "ground", "A", "crank", "a"},
              {"jB", JointType::Revolute, "crank", "b", "coupler", "a"},
              {"jC", last, "coupler", "b", "rocker", "b"},
              {"jD", JointType::Revolute, "ground", "D", "rocker", "a"}};
  return m;
}

}  // namespace

class ModelCheckTest : public QObject {
  Q_OBJECT
 private slots:
  void redundantFourBarIsNamed() {
    Diagnostics diag;
    auto sim = Simulation::create(fourBar(), diag);
    QVERIFY2(sim, diag.str().c_str());
    const ModelCheck c = sim->check();
    QCOMPARE(c.coordinates, 18);
    QCOMPARE(c.constraint_rows, 20);
    QCOMPARE(c.rank, 17);
    QCOMPARE(c.dof, 1);
    QVERIFY(!c.redundant.empty());
    QVERIFY(QString::fromStdString(c.str()).contains("redundant constraints: joint 'j"));
  }

  void nonRedundantFourBar() {
    // replacing one revolute by a spherical and another by a universal removes the redundancy:
    // 5 + 5 + 3 + 4 = 17 rows, mobility 18 - 17 = 1
    ModelSpec m = fourBar(JointType::Spherical);
    m.joints[1].type = JointType::Universal;
    // universal cross pins: marker z axes must be perpendicular; turn the coupler's marker
    m.bodies[1].markers[0].orientation = Quat::FromTwoVectors(Vec3::UnitZ(), Vec3::UnitY());
    Diagnostics diag;
    auto sim = Simulation::create(m, diag);
    QVERIFY2(sim, diag.str().c_str());
    const ModelCheck c = sim->check();
    QCOMPARE(c.rank, 17);
    QCOMPARE(c.dof, 1);
    QVERIFY(c.redundant.empty());
    QVERIFY(c.assembled_position_residual < 1e-12);
  }

  void assemblyFixesPerturbedPositions() {
    ModelSpec m = fourBar(JointType::Spherical);
    m.joints[1].type = JointType::Universal;
    m.bodies[1].markers[0].orientation = Quat::FromTwoVectors(Vec3::UnitZ(), Vec3::UnitY());
    m.bodies[1].position += Vec3(0.01, -0.02, 0.005);  // coupler displaced by a user's sloppy input
    Diagnostics diag;
    auto sim = Simulation::create(m, diag);
    QVERIFY(sim);
    const ModelCheck c = sim->check();
    QVERIFY(c.initial_position_residual > 1e-3);
    QVERIFY(c.assembled_position_residual < 1e-10);
  }

  void unconstrainedBodyIsListed() {
    ModelSpec m = fourBar(JointType::Spherical);
    m.joints[1].type = JointType::Universal;
    m.bodies[1].markers[0].orientation = Quat::FromTwoVectors(Vec3::UnitZ(), Vec3::UnitY());
    m.bodies.push_back(link("loose", Vec3(5, 0, 0), Vec3(6, 0, 0)));
    Diagnostics diag;
    auto sim = Simulation::create(m, diag);
    QVERIFY(sim);
    const ModelCheck c = sim->check();
    QCOMPARE(c.unconstrained.size(), size_t(1));
    QCOMPARE(c.unconstrained[0], std::string("loose"));
    QCOMPARE(c.dof, 7);
  }

  void compileErrorsNameTheItem() {
    ModelSpec m = fourBar();
    m.joints[2].marker2 = "nope";
    m.joints[3].body2 = "ghost";
    DriverSpec d;
    d.name = "motor";
    d.joint = "jA";
    d.coordinate = DriverSpec::Coordinate::Translation;
    m.drivers = {d};
    Diagnostics diag;
    QVERIFY(!Simulation::create(m, diag));
    const QString text = QString::fromStdString(diag.str());
    // the messages of the one validation (core/model/validate.h), with the item in the location
    QVERIFY2(text.contains("joints[2].marker2: error: body 'rocker' has no marker 'nope'"), qPrintable(text));
    QVERIFY2(text.contains("joints[3].body2: error: no body named 'ghost'"), qPrintable(text));
    QVERIFY2(text.contains("drivers[0].coordinate: error: a revolute joint cannot be driven in translation"),
             qPrintable(text));
    QCOMPARE(diag.items().front().location.item, std::string("joints[2] 'jC'"));
  }

  void badInertiaIsRejected() {
    ModelSpec m = fourBar();
    m.bodies[0].inertia(0, 0) = -1;
    Diagnostics diag;
    QVERIFY(!Simulation::create(m, diag));
    QVERIFY(QString::fromStdString(diag.str()).contains("bodies[0].inertia: error: expected 3x3 symmetric positive-definite matrix"));
  }

  void runFailureKeepsSamplesAndNamesCause() {
    // redundant loop: the KKT matrix is singular, the run must fail cleanly, not crash
    ModelSpec m = fourBar();
    m.solver.t_end = 0.1;
    Diagnostics diag;
    auto sim = Simulation::create(m, diag);
    QVERIFY(sim);
    test::RecordingSink sink;
    const RunSummary sum = sim->run({&sink});
    QVERIFY(!sum.ok);
    QVERIFY2(!sum.message.empty(), "a failed run must say why");
    QVERIFY2(QString::fromStdString(sum.message).contains("redundant constraints: joint 'j"), sum.message.c_str());
    QCOMPARE(sink.summary.ok, false);
  }
};

QTEST_APPLESS_MAIN(ModelCheckTest)
#include "model_check_test.moc"
