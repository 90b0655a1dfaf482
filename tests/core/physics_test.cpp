// Rigid multibody physics against independent references: closed-form slider-crank kinematics,
// the small-amplitude pendulum period, energy conservation of a double pendulum, and the
// angular momentum of a torque-free asymmetric body; a sensor's display units and components
// against the same sensor in SI.
#include "recording_sink.h"

#include <QtTest>

#include <cmath>
#include <numbers>

using namespace flexim;
using flexim::test::RecordingSink;

namespace {

MarkerSpec marker(const std::string& name, const Vec3& p, const Quat& q = Quat::Identity()) { return {name, p, q}; }

/// Rotation taking the marker z axis onto `axis`.
Quat zAlong(const Vec3& axis) { return Quat::FromTwoVectors(Vec3::UnitZ(), axis.normalized()); }

Mat3 slenderRod(double m, double L) { return Vec3(1e-7, m * L * L / 12, m * L * L / 12).asDiagonal(); }

/// Rigid slider-crank (as resources/examples/slider_crank_rigid.json): crank r at omega about ground z,
/// rod l, slider on ground x.
/// Non-redundant spatial topology: revolute O, spherical A, universal B, prismatic slider.
ModelSpec sliderCrank(IntegratorType integrator, double r = 0.15, double l = 0.3, double omega = 150) {
  ModelSpec m;
  m.name = "slider-crank";
  RigidBodySpec crank{"crank", 0.1, Mat3::Identity() * 1e-4, Vec3(r / 2, 0, 0)};
  crank.markers = {marker("O", Vec3(-r / 2, 0, 0)), marker("A", Vec3(r / 2, 0, 0))};
  RigidBodySpec rod{"rod", 0.066756, slenderRod(0.066756, l), Vec3(r + l / 2, 0, 0)};
  rod.markers = {marker("A", Vec3(-l / 2, 0, 0)), marker("B", Vec3(l / 2, 0, 0))};
  RigidBodySpec slider{"slider", 0.033378, Mat3::Identity() * 1e-6, Vec3(r + l, 0, 0)};
  slider.markers = {marker("c", Vec3::Zero()), marker("pin", Vec3::Zero(), zAlong(Vec3::UnitY())),
                    marker("rail", Vec3::Zero(), zAlong(Vec3::UnitX()))};
  m.ground_markers = {marker("O", Vec3::Zero()), marker("rail", Vec3::Zero(), zAlong(Vec3::UnitX()))};
  m.bodies = {crank, rod, slider};
  m.joints = {{"crank_bearing", JointType::Revolute, "ground", "O", "crank", "O"},
              {"crank_pin", JointType::Spherical, "crank", "A", "rod", "A"},
              {"wrist_pin", JointType::Universal, "rod", "B", "slider", "pin"},
              {"rail", JointType::Prismatic, "ground", "rail", "slider", "rail"}};
  DriverSpec motor;
  motor.name = "motor";
  motor.joint = "crank_bearing";
  motor.function.type = TimeFunctionSpec::Type::ConstantSpeed;
  motor.function.speed = omega;
  m.drivers = {motor};
  SensorSpec s;
  s.name = "slider";
  s.body = "slider";
  s.marker = "c";
  s.quantities = {"position", "velocity", "acceleration"};
  m.sensors = {s};
  m.solver.t_end = 0.1;
  m.solver.step = 1e-4;
  m.solver.output_interval = 2.5e-4;  // deliberately not a multiple of the step: tests interpolation
  m.solver.integrator = integrator;
  m.solver.rtol = 1e-8;
  m.solver.atol = 1e-10;
  return m;
}

/// Uniform rod of length L pinned at its end to ground about z, hanging or horizontal.
RigidBodySpec pendulumLink(const std::string& name, double L, double mass, const Vec3& start, double angle) {
  const Vec3 dir(std::cos(angle), std::sin(angle), 0);
  RigidBodySpec b{name, mass, Vec3(1e-6, mass * L * L / 12, mass * L * L / 12).asDiagonal(), start + 0.5 * L * dir,
                  Quat(Eigen::AngleAxisd(angle, Vec3::UnitZ()))};
  b.markers = {marker("top", Vec3(-L / 2, 0, 0)), marker("bottom", Vec3(L / 2, 0, 0))};
  return b;
}

/// Two uniform 1 m, 1 kg rods pinned end to end, released horizontal (conservative).
ModelSpec doublePendulum() {
  ModelSpec m;
  m.gravity = Vec3(0, -9.81, 0);
  m.ground_markers = {marker("pivot", Vec3::Zero())};
  m.bodies = {pendulumLink("upper", 1.0, 1.0, Vec3::Zero(), 0.0), pendulumLink("lower", 1.0, 1.0, Vec3(1, 0, 0), 0.0)};
  m.joints = {{"shoulder", JointType::Revolute, "ground", "pivot", "upper", "top"},
              {"elbow", JointType::Revolute, "upper", "bottom", "lower", "top"}};
  SensorSpec e;
  e.name = "energy";
  e.type = SensorSpec::Type::Energy;
  e.quantities = {"kinetic", "potential", "total"};
  m.sensors = {e};
  m.solver.t_end = 3;
  m.solver.output_interval = 1e-2;
  return m;
}

/// Largest |E - E0| over the samples, relative to the largest kinetic energy.
double relativeEnergyDrift(const RecordingSink& sink) {
  const double E0 = sink.value(0, "energy.total.value");
  double drift = 0, Tmax = 0;
  for (size_t i = 0; i < sink.samples.size(); ++i) {
    drift = std::max(drift, std::abs(sink.value(i, "energy.total.value") - E0));
    Tmax = std::max(Tmax, sink.value(i, "energy.kinetic.value"));
  }
  return Tmax > 0 ? drift / Tmax : 0.0;
}

}  // namespace

class PhysicsTest : public QObject {
  Q_OBJECT
 private slots:
  void sliderCrankClosedForm_data() {
    QTest::addColumn<int>("integrator");
    QTest::newRow("ida") << static_cast<int>(IntegratorType::Ida);
    QTest::newRow("gen-alpha") << static_cast<int>(IntegratorType::GeneralizedAlpha);
  }
  void sliderCrankClosedForm() {
    QFETCH(int, integrator);
    const double r = 0.15, l = 0.3, w = 150;
    RecordingSink sink;
    const RunSummary sum = test::runModel(sliderCrank(static_cast<IntegratorType>(integrator), r, l, w), sink);
    QVERIFY2(sum.ok, sum.message.c_str());
    QCOMPARE(sink.samples.size(), size_t(401));
    QCOMPARE(sink.samples.back().t, 0.1);
    double maxPos = 0, maxAcc = 0, peakAcc = 0, maxOff = 0;
    for (size_t i = 0; i < sink.samples.size(); ++i) {
      const double t = sink.samples[i].t, th = w * t, s = std::sin(th), c = std::cos(th);
      const double D = std::sqrt(l * l - r * r * s * s);
      const double x = r * c + D;
      const double a = -r * w * w * c - r * r * w * w * ((c * c - s * s) / D + r * r * s * s * c * c / (D * D * D));
      maxPos = std::max(maxPos, std::abs(sink.value(i, "slider.position.x") - x));
      maxAcc = std::max(maxAcc, std::abs(sink.value(i, "slider.acceleration.x") - a));
      peakAcc = std::max(peakAcc, std::abs(a));
      maxOff = std::max({maxOff, std::abs(sink.value(i, "slider.position.y")), std::abs(sink.value(i, "slider.position.z"))});
    }
    qInfo("max |x - x_exact| = %.3e m, max |a - a_exact| / max|a| = %.3e, %ld steps", maxPos, maxAcc / peakAcc, sum.steps);
    QVERIFY(maxPos <= 1e-6);
    QVERIFY(maxAcc / peakAcc <= 1e-3);
    QVERIFY(maxOff <= 1e-9);
  }

  void pendulumPeriod() {
    // physical pendulum (uniform rod pinned at one end): T0 = 2 pi sqrt(2 L / (3 g)),
    // with the finite-amplitude correction 1 + theta0^2 / 16
    const double L = 0.8, g = 9.81, theta0 = 0.02;
    ModelSpec m;
    m.gravity = Vec3(0, -g, 0);
    m.ground_markers = {marker("pivot", Vec3::Zero())};
    m.bodies = {pendulumLink("rod", L, 1.3, Vec3::Zero(), -std::numbers::pi / 2 + theta0)};
    m.joints = {{"pin", JointType::Revolute, "ground", "pivot", "rod", "top"}};
    SensorSpec s;
    s.name = "pin";
    s.type = SensorSpec::Type::Joint;
    s.joint = "pin";
    s.quantities = {"coordinate"};
    m.sensors = {s};
    m.solver.t_end = 6;
    m.solver.output_interval = 1e-3;
    m.solver.rtol = 1e-10;
    m.solver.atol = 1e-12;
    m.solver.step = 0;
    RecordingSink sink;
    const RunSummary sum = test::runModel(m, sink);
    QVERIFY2(sum.ok, sum.message.c_str());
    // period from upward zero crossings of the angle about its mean (-pi/2)
    std::vector<double> crossings;
    for (size_t i = 1; i < sink.samples.size(); ++i) {
      const double a0 = sink.value(i - 1, "pin.coordinate.rotation") + std::numbers::pi / 2;
      const double a1 = sink.value(i, "pin.coordinate.rotation") + std::numbers::pi / 2;
      if (a0 < 0 && a1 >= 0) crossings.push_back(sink.samples[i - 1].t + (sink.samples[i].t - sink.samples[i - 1].t) * (-a0) / (a1 - a0));
    }
    QVERIFY(crossings.size() >= 3);
    const double T = (crossings.back() - crossings.front()) / (crossings.size() - 1);
    const double expected = 2 * std::numbers::pi * std::sqrt(2 * L / (3 * g)) * (1 + theta0 * theta0 / 16);
    qInfo("period %.8f s, expected %.8f s, relative error %.2e", T, expected, std::abs(T - expected) / expected);
    QVERIFY(std::abs(T - expected) / expected < 1e-5);
  }

  void doublePendulumEnergy_data() {
    QTest::addColumn<int>("integrator");
    QTest::addColumn<double>("tolerance");
    QTest::newRow("ida") << static_cast<int>(IntegratorType::Ida) << 1e-6;
    // generalized-alpha with rho_inf = 1 has no numerical dissipation: bounded energy error O(h^2)
    QTest::newRow("gen-alpha") << static_cast<int>(IntegratorType::GeneralizedAlpha) << 1e-5;
  }
  void doublePendulumEnergy() {
    QFETCH(int, integrator);
    QFETCH(double, tolerance);
    ModelSpec m = doublePendulum();
    m.solver.integrator = static_cast<IntegratorType>(integrator);
    m.solver.rtol = 1e-11;
    m.solver.atol = 1e-12;
    m.solver.step = integrator == static_cast<int>(IntegratorType::Ida) ? 0.0 : 2e-4;
    m.solver.rho_inf = 1.0;
    RecordingSink sink;
    const RunSummary sum = test::runModel(m, sink);
    QVERIFY2(sum.ok, sum.message.c_str());
    const double E0 = sink.value(0, "energy.total.value");
    double drift = 0, Tmax = 0;
    for (size_t i = 0; i < sink.samples.size(); ++i) {
      drift = std::max(drift, std::abs(sink.value(i, "energy.total.value") - E0));
      Tmax = std::max(Tmax, sink.value(i, "energy.kinetic.value"));
    }
    qInfo("energy drift %.3e J relative to max kinetic energy %.3f J: %.2e", drift, Tmax, drift / Tmax);
    QVERIFY(Tmax > 10);  // it really swung
    QVERIFY(drift / Tmax <= tolerance);
  }

  /// Generalized-alpha with the adaptive step (rho_inf = 1: no numerical dissipation, so the
  /// energy error is the integration error): as rtol falls by 10x the energy error falls and the
  /// steps grow, both about as a local error of order h^3 controlled per step predicts
  /// (error ~ rtol^(2/3), steps ~ rtol^(-1/3)); few steps are rejected. Measured: 2.3e-2, 5.3e-3,
  /// 1.1e-3, 2.6e-4, 5.4e-5 of the largest kinetic energy with 117, 293, 493, 904, 2 746 steps.
  void adaptiveGenAlphaFollowsRtol() {
    std::vector<double> drift;
    std::vector<long> steps;
    for (double rtol : {1e-3, 1e-4, 1e-5, 1e-6, 1e-7}) {
      ModelSpec m = doublePendulum();
      m.solver.integrator = IntegratorType::GeneralizedAlpha;
      m.solver.step_control = StepControl::Adaptive;
      m.solver.rtol = rtol;
      m.solver.atol = rtol * 1e-2;
      m.solver.step = 0;
      m.solver.rho_inf = 1.0;
      RecordingSink sink;
      const RunSummary sum = test::runModel(m, sink);
      QVERIFY2(sum.ok, sum.message.c_str());
      QCOMPARE(sink.samples.back().t, 3.0);
      drift.push_back(relativeEnergyDrift(sink));
      steps.push_back(sum.steps);
      qInfo("rtol %.0e: energy drift %.3e of max kinetic energy, %ld steps, %ld rejected, %ld Newton iterations", rtol,
            drift.back(), sum.steps, sum.failures, sum.newton_iterations);
      QVERIFY2(sum.failures <= sum.steps / 5 + 5, "too many rejected steps");
    }
    for (size_t i = 1; i < drift.size(); ++i) {
      QVERIFY2(drift[i] < 0.5 * drift[i - 1], qPrintable(QString("drift %1 -> %2").arg(drift[i - 1]).arg(drift[i])));
      QVERIFY2(steps[i] > steps[i - 1], "steps must grow as rtol falls");
    }
  }

  /// A sensor's length_unit, angle_unit and components: a swinging pendulum
  /// observed by an SI sensor and by one in mm and deg that records only the x and z components.
  /// The chosen columns are exactly those, in quantity order, with the units in their headers;
  /// their values are 1000x (lengths) and 180/pi x (angles) the SI ones, and at t = 0 they are
  /// the closed-form start position and angle in mm and deg. Quaternions, forces, torques and
  /// energies stay as they are.
  void sensorUnitsAndComponents() {
    const double L = 0.8, angle0 = -std::numbers::pi / 2 + 0.3;  // released 0.3 rad from hanging
    ModelSpec m;
    m.gravity = Vec3(0, -9.81, 0);
    m.ground_markers = {marker("pivot", Vec3::Zero())};
    m.bodies = {pendulumLink("rod", L, 1.3, Vec3::Zero(), angle0)};
    m.joints = {{"pin", JointType::Revolute, "ground", "pivot", "rod", "top"}};
    SensorSpec si;
    si.name = "si";
    si.body = "rod";
    si.marker = "bottom";
    si.quantities = {"position", "orientation", "velocity", "angular_velocity", "acceleration", "angular_acceleration"};
    SensorSpec shown = si;
    shown.name = "shown";
    shown.components = {"z", "x"};  // the columns keep the quantities' own order: x, then z
    shown.length_unit = SensorSpec::LengthUnit::Millimetre;
    shown.angle_unit = SensorSpec::AngleUnit::Degree;
    SensorSpec siJoint;
    siJoint.name = "si_pin";
    siJoint.type = SensorSpec::Type::Joint;
    siJoint.joint = "pin";
    siJoint.quantities = {"coordinate", "velocity", "reaction_force", "reaction_torque"};
    SensorSpec shownJoint = siJoint;
    shownJoint.name = "pin";
    shownJoint.components = {"y"};  // the scalar coordinates are not affected
    shownJoint.length_unit = SensorSpec::LengthUnit::Millimetre;
    shownJoint.angle_unit = SensorSpec::AngleUnit::Degree;
    SensorSpec energy;
    energy.name = "energy";
    energy.type = SensorSpec::Type::Energy;
    energy.quantities = {"total"};
    m.sensors = {si, shown, siJoint, shownJoint, energy};
    m.solver.t_end = 0.5;
    m.solver.output_interval = 1e-2;
    RecordingSink sink;
    const RunSummary sum = test::runModel(m, sink);
    QVERIFY2(sum.ok, sum.message.c_str());

    // the columns of the shown sensors: names as in SI, only the chosen components, their units
    QStringList headers;
    for (const Channel& c : sink.channels)
      if (c.name.rfind("shown.", 0) == 0 || c.name.rfind("pin.", 0) == 0) headers << QString::fromStdString(c.header());
    const QStringList expected{
        "shown.position.x [mm]", "shown.position.z [mm]", "shown.orientation.x [-]", "shown.orientation.z [-]",
        "shown.velocity.x [mm/s]", "shown.velocity.z [mm/s]", "shown.angular_velocity.x [deg/s]",
        "shown.angular_velocity.z [deg/s]", "shown.acceleration.x [mm/s^2]", "shown.acceleration.z [mm/s^2]",
        "shown.angular_acceleration.x [deg/s^2]", "shown.angular_acceleration.z [deg/s^2]",
        "pin.coordinate.rotation [deg]", "pin.velocity.rotation [deg/s]", "pin.reaction_force.y [N]",
        "pin.reaction_torque.y [N m]"};
    QCOMPARE(headers, expected);
    // the SI sensors keep every component in SI; the energy stays in J
    QCOMPARE(sink.channels.size(), size_t(3 + 4 + 3 * 4) + size_t(2 + 3 + 3) + size_t(expected.size()) + 1);
    QCOMPARE(QString::fromStdString(sink.channels[sink.column("si.position.y")].header()), QString("si.position.y [m]"));
    QCOMPARE(QString::fromStdString(sink.channels[sink.column("si_pin.coordinate.rotation")].header()),
             QString("si_pin.coordinate.rotation [rad]"));
    QCOMPARE(QString::fromStdString(sink.channels.back().header()), QString("energy.total.value [J]"));

    // at t = 0: the bottom marker at L (cos a, sin a), the joint angle a, in mm and deg
    const double deg = 180 / std::numbers::pi;
    QVERIFY(std::abs(sink.value(0, "shown.position.x") - 1000 * L * std::cos(angle0)) < 1e-9);
    QVERIFY(std::abs(sink.value(0, "shown.position.z")) < 1e-9);
    QVERIFY(std::abs(sink.value(0, "pin.coordinate.rotation") - angle0 * deg) < 1e-9);
    QVERIFY(std::abs(sink.value(0, "pin.coordinate.rotation") - (-90 + 17.188733853924695)) < 1e-9);

    // every sample: exactly the SI values scaled (they are the same states)
    const auto same = [](double shownValue, double siValue, double factor) {
      return std::abs(shownValue - siValue * factor) <= 1e-14 * std::abs(siValue * factor);
    };
    double swing = 0;
    for (size_t i = 0; i < sink.samples.size(); ++i) {
      for (const char* c : {"x", "z"}) {
        const std::string x = std::string(".") + c;
        for (const char* q : {"position", "velocity", "acceleration"})
          QVERIFY2(same(sink.value(i, "shown." + std::string(q) + x), sink.value(i, "si." + std::string(q) + x), 1000),
                   (std::string(q) + x).c_str());
        for (const char* q : {"angular_velocity", "angular_acceleration"})
          QVERIFY2(same(sink.value(i, "shown." + std::string(q) + x), sink.value(i, "si." + std::string(q) + x), deg),
                   (std::string(q) + x).c_str());
        QCOMPARE(sink.value(i, "shown.orientation" + x), sink.value(i, "si.orientation" + x));
      }
      QVERIFY(same(sink.value(i, "pin.coordinate.rotation"), sink.value(i, "si_pin.coordinate.rotation"), deg));
      QVERIFY(same(sink.value(i, "pin.velocity.rotation"), sink.value(i, "si_pin.velocity.rotation"), deg));
      QCOMPARE(sink.value(i, "pin.reaction_force.y"), sink.value(i, "si_pin.reaction_force.y"));
      QCOMPARE(sink.value(i, "pin.reaction_torque.y"), sink.value(i, "si_pin.reaction_torque.y"));
      swing = std::max(swing, std::abs(sink.value(i, "si.angular_velocity.z")));
    }
    QVERIFY(swing > 1);  // it really swung: the angular values are not all zero
  }

  void freeBodyAngularMomentum_data() {
    QTest::addColumn<int>("integrator");
    QTest::addColumn<double>("tolerance");
    QTest::newRow("ida") << static_cast<int>(IntegratorType::Ida) << 1e-6;
    QTest::newRow("gen-alpha") << static_cast<int>(IntegratorType::GeneralizedAlpha) << 1e-4;
  }
  void freeBodyAngularMomentum() {
    // torque-free asymmetric body spinning near its unstable intermediate axis (tumbles)
    QFETCH(int, integrator);
    QFETCH(double, tolerance);
    ModelSpec m;
    RigidBodySpec b{"spinner", 2.0, Vec3(1.0, 2.0, 3.0).asDiagonal(), Vec3(0.1, 0.2, 0.3),
                    Quat(Eigen::AngleAxisd(0.3, Vec3(1, 1, 0).normalized())), Vec3(0.5, 0, 0), Vec3(0.02, 3.0, 0.01)};
    b.markers = {marker("cm", Vec3::Zero())};
    m.bodies = {b};
    SensorSpec s;
    s.name = "spinner";
    s.body = "spinner";
    s.marker = "cm";
    s.quantities = {"position", "angular_velocity"};
    m.sensors = {s};
    m.solver.t_end = 10;
    m.solver.output_interval = 1e-2;
    m.solver.integrator = static_cast<IntegratorType>(integrator);
    m.solver.rtol = 1e-11;
    m.solver.atol = 1e-12;
    m.solver.step = integrator == static_cast<int>(IntegratorType::Ida) ? 0.0 : 1e-3;
    m.solver.rho_inf = 1.0;
    RecordingSink sink;
    const RunSummary sum = test::runModel(m, sink);
    QVERIFY2(sum.ok, sum.message.c_str());
    auto H = [&](size_t i) {
      const Mat3 A = sink.samples[i].poses[0].orientation.toRotationMatrix();
      const Vec3 w(sink.value(i, "spinner.angular_velocity.x"), sink.value(i, "spinner.angular_velocity.y"),
                   sink.value(i, "spinner.angular_velocity.z"));
      return Vec3(A * b.inertia * A.transpose() * w);
    };
    const Vec3 H0 = H(0);
    double drift = 0, wxMax = 0;
    for (size_t i = 0; i < sink.samples.size(); ++i) {
      drift = std::max(drift, (H(i) - H0).norm());
      wxMax = std::max(wxMax, std::abs(sink.value(i, "spinner.angular_velocity.x")));
      // centre of mass moves uniformly
      QVERIFY(std::abs(sink.value(i, "spinner.position.x") - (0.1 + 0.5 * sink.samples[i].t)) < 1e-8);
    }
    qInfo("angular momentum drift %.2e (|H| = %.3f), max |wx| %.2f", drift / H0.norm(), H0.norm(), wxMax);
    QVERIFY(wxMax > 1.0);  // the body really tumbled
    QVERIFY(drift / H0.norm() <= tolerance);
  }
};

QTEST_APPLESS_MAIN(PhysicsTest)
#include "physics_test.moc"
