// The point-mass body (three translational coordinates, no rotation) against closed forms and an
// independent model: a mass on a spring bounces at sqrt(k/m) about its static sag; a rod pendulum
// carrying a point mass at its tip on a spherical joint swings exactly like one rigid body with the
// combined mass properties; what a point mass cannot take (a revolute joint, a torque) is refused
// with a message naming the field; and its JSON round trip.
#include "core/model/validate.h"
#include "io/model_json.h"
#include "recording_sink.h"

#include <QtTest>

#include <cmath>
#include <numbers>

using namespace flexim;
using flexim::test::RecordingSink;

namespace {

MarkerSpec marker(const std::string& name, const Vec3& p = Vec3::Zero()) { return {name, p, Quat::Identity()}; }

/// A uniform rod (m1, L) hinged at the origin about z, swinging under gravity -y from `angle`.
ModelSpec rodPendulum(double m1, double L, double angle) {
  ModelSpec m;
  m.gravity = Vec3(0, -9.81, 0);
  m.ground_markers = {marker("pivot")};
  const Vec3 axis(std::cos(angle), std::sin(angle), 0);
  RigidBodySpec rod{"rod", m1, Vec3(1e-6, m1 * L * L / 12, m1 * L * L / 12).asDiagonal(), 0.5 * L * axis};
  rod.orientation = Quat(Eigen::AngleAxisd(angle, Vec3::UnitZ()));
  rod.markers = {marker("pivot", Vec3(-0.5 * L, 0, 0)), marker("tip", Vec3(0.5 * L, 0, 0))};
  m.bodies = {rod};
  m.joints = {{"hinge", JointType::Revolute, "ground", "pivot", "rod", "pivot"}};
  SensorSpec s;
  s.name = "hinge";
  s.type = SensorType::Joint;
  s.joint = "hinge";
  s.quantities = {"coordinate"};
  m.sensors = {s};
  m.solver.t_end = 2.0;
  m.solver.output_interval = 0.01;
  m.solver.rtol = 1e-10;
  m.solver.atol = 1e-12;
  m.solver.step = 0;
  return m;
}

}  // namespace

class PointMassTest : public QObject {
  Q_OBJECT

 private slots:
  void bouncesOnASpringAboutItsSag() {
    const double m = 0.5, k = 200, g = 9.81, z0 = -0.3;
    ModelSpec model;
    model.gravity = Vec3(0, 0, -g);
    model.ground_markers = {marker("hook")};
    PointMassSpec bob{"bob", m, Vec3(0, 0, z0), Vec3::Zero(), {marker("eye")}};
    model.point_masses = {bob};
    ForceSpec spring;
    spring.name = "spring";
    spring.type = ForceType::SpringDamper;
    spring.body1 = "ground";
    spring.marker1 = "hook";
    spring.body2 = "bob";
    spring.marker2 = "eye";
    spring.stiffness = k;
    spring.free_length = 0.2;
    model.forces = {spring};
    SensorSpec s;
    s.name = "bob";
    s.body = "bob";
    s.marker = "eye";
    s.quantities = {"position", "velocity", "acceleration", "angular_velocity"};
    model.sensors = {s};
    model.solver.t_end = 1.0;
    model.solver.output_interval = 0.005;
    model.solver.rtol = 1e-10;
    model.solver.atol = 1e-12;
    model.solver.step = 0;
    RecordingSink sink;
    const RunSummary sum = test::runModel(model, sink);
    QVERIFY2(sum.ok, sum.message.c_str());
    // z'' = -g - (k/m)(|z| - L0) sign...: below the hook, z(t) = z_eq + (z0 - z_eq) cos(w t)
    const double w = std::sqrt(k / m), zEq = -0.2 - m * g / k;
    double worst = 0, worstAcc = 0;
    for (std::size_t i = 0; i < sink.samples.size(); ++i) {
      const double t = sink.samples[i].t;
      const double z = zEq + (z0 - zEq) * std::cos(w * t), a = -w * w * (z0 - zEq) * std::cos(w * t);
      worst = std::max(worst, std::abs(sink.value(i, "bob.position.z") - z));
      worstAcc = std::max(worstAcc, std::abs(sink.value(i, "bob.acceleration.z") - a));
      QCOMPARE(sink.value(i, "bob.position.x"), 0.0);
      QCOMPARE(sink.value(i, "bob.angular_velocity.y"), 0.0);
    }
    qInfo("worst |z - z_exact| %.3g m of amplitude %.3g m; acceleration %.3g m/s^2", worst, std::abs(z0 - zEq), worstAcc);
    QVERIFY2(worst < 1e-7 * std::abs(z0 - zEq), qPrintable(QString::number(worst)));
    QVERIFY2(worstAcc < 1e-5 * w * w * std::abs(z0 - zEq), qPrintable(QString::number(worstAcc)));
    QVERIFY(sum.quality.energy_known && sum.quality.energy_checked);
    QVERIFY2(sum.quality.energy_error < 1e-6 * sum.quality.energy_scale, qPrintable(QString::number(sum.quality.energy_error)));
  }

  /// A rod carrying a point mass at its tip by a spherical joint is one rigid body with the mass
  /// m1 + m2, the centre of mass moved towards the tip and the inertia about the pivot
  /// m1 L^2 / 3 + m2 L^2: both models swing alike, with IDA and with generalized-alpha.
  void tipMassOnARodSwingsLikeOneRigidBody_data() {
    QTest::addColumn<int>("integrator");
    QTest::newRow("ida") << int(IntegratorType::Ida);
    QTest::newRow("gen-alpha") << int(IntegratorType::GeneralizedAlpha);
  }
  void tipMassOnARodSwingsLikeOneRigidBody() {
    QFETCH(int, integrator);
    const double m1 = 1.0, m2 = 0.4, L = 0.8, start = 0.3;
    ModelSpec withMass = rodPendulum(m1, L, start);
    const Vec3 tip(L * std::cos(start), L * std::sin(start), 0);
    withMass.point_masses = {{"lump", m2, tip, Vec3::Zero(), {marker("socket")}}};
    withMass.joints.push_back({"socket", JointType::Spherical, "rod", "tip", "lump", "socket"});
    // the same mass properties in one rigid body: centre of mass at c from the pivot
    const double M = m1 + m2, c = (m1 * 0.5 * L + m2 * L) / M;
    const double Jpivot = m1 * L * L / 3 + m2 * L * L, Jc = Jpivot - M * c * c;
    ModelSpec combined = rodPendulum(m1, L, start);
    RigidBodySpec& body = combined.bodies[0];
    body.mass = M;
    body.inertia = Vec3(1e-6, Jc, Jc).asDiagonal();
    body.position = c * Vec3(std::cos(start), std::sin(start), 0);
    body.markers = {marker("pivot", Vec3(-c, 0, 0))};
    for (ModelSpec* m : {&withMass, &combined}) {
      m->solver.integrator = IntegratorType(integrator);
      if (m->solver.integrator == IntegratorType::GeneralizedAlpha) m->solver.step = 1e-4;
    }
    RecordingSink a, b;
    const RunSummary sa = test::runModel(withMass, a), sb = test::runModel(combined, b);
    QVERIFY2(sa.ok, sa.message.c_str());
    QVERIFY2(sb.ok, sb.message.c_str());
    QCOMPARE(a.samples.size(), b.samples.size());
    double worst = 0, swing = 0;
    for (std::size_t i = 0; i < a.samples.size(); ++i) {
      const double angle = a.value(i, "hinge.coordinate.rotation");
      worst = std::max(worst, std::abs(angle - b.value(i, "hinge.coordinate.rotation")));
      swing = std::max(swing, std::abs(angle));
    }
    qInfo("worst angle difference %.3g rad over a swing of %.3g rad", worst, swing);
    QVERIFY(swing > 1.5);  // it swung through the bottom
    QVERIFY2(worst < (integrator == int(IntegratorType::Ida) ? 1e-7 : 1e-5), qPrintable(QString::number(worst)));
  }

  void whatItCannotTakeIsRefused() {
    ModelSpec model = rodPendulum(1.0, 0.8, 0.0);
    model.point_masses = {{"lump", 0.4, Vec3(0.8, 0, 0), Vec3::Zero(), {marker("socket")}}};
    model.joints.push_back({"weld", JointType::Fixed, "rod", "tip", "lump", "socket"});
    ForceSpec twist;
    twist.name = "twist";
    twist.type = ForceType::PointTorque;
    twist.body1 = "lump";
    twist.marker1 = "socket";
    twist.vector = Vec3(0, 0, 1);
    ForceSpec mount;
    mount.name = "mount";
    mount.type = ForceType::Bushing;
    mount.body1 = "lump";
    mount.marker1 = "socket";
    mount.body2 = "ground";
    mount.marker2 = "pivot";
    mount.bushing_stiffness << 1, 1, 1, 1, 0, 0;
    model.forces = {twist, mount};
    const std::string report = validate(model).str();
    for (const char* expected :
         {"joints[1].body2: error: 'lump' is a point mass: it does not turn, so only a spherical joint can hold it (a "
          "fixed joint also holds rotations)",
          "forces[0].body: error: 'lump' is a point mass: it takes no torque",
          "forces[1].body1: error: 'lump' is a point mass: it takes no torque, so the bushing's rotational",
          "forces[1].body1: error: 'lump' is a point mass: it cannot take the reaction torque"})
      QVERIFY2(report.find(expected) != std::string::npos, report.c_str());
  }

  void roundTripsThroughJson() {
    ModelSpec model = rodPendulum(1.0, 0.8, 0.0);
    model.point_masses = {{"lump", 0.4, Vec3(0.8, 0, 0), Vec3(0, 0.1, 0), {marker("socket", Vec3(0, 0, 0.01))}}};
    const std::string text = io::saveModelString(model);
    QVERIFY2(text.find("\"point_masses\"") != std::string::npos, text.c_str());
    ModelSpec back;
    Diagnostics diag;
    QVERIFY2(io::loadModelString(text, back, diag), diag.str().c_str());
    QCOMPARE(back.point_masses.size(), std::size_t(1));
    QCOMPARE(back.point_masses[0].name, std::string("lump"));
    QCOMPARE(back.point_masses[0].mass, 0.4);
    QVERIFY(back.point_masses[0].velocity.isApprox(Vec3(0, 0.1, 0)));
    QCOMPARE(back.point_masses[0].markers.size(), std::size_t(1));
    // an unknown key is named by its JSON path
    Diagnostics bad;
    ModelSpec ignored;
    io::loadModelString(R"({"schema_version": 1, "point_masses": [{"name": "p", "mass": 1, "spin": 2}]})", ignored, bad);
    QVERIFY2(bad.str().find("point_masses[0]") != std::string::npos, bad.str().c_str());
  }
};

QTEST_APPLESS_MAIN(PointMassTest)
#include "point_mass_test.moc"
