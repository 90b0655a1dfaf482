// Run quality (core/run/quality.h): the work-energy balance of a driven, damped pendulum against
// an independent quadrature of its closed-form motion, the work of an applied load, a
// conservative double pendulum that ends "warning" when its step is far too large, and the
// residual, rejection, step-size and unknown-power paths of the monitor.
#include "core/run/quality_monitor.h"
#include "core/run/consistency.h"
#include "core/system/system.h"

#include "recording_sink.h"

#include <QtTest>

#include <cmath>
#include <functional>
#include <numbers>

using namespace flexim;
using flexim::test::RecordingSink;

namespace {

constexpr double kPi = std::numbers::pi;

MarkerSpec marker(const std::string& name, const Vec3& p) { return {name, p, Quat::Identity()}; }

/// Uniform rod (mass m, length L) along body x, pinned at its end to the ground origin about z,
/// starting horizontal (+x) at rest; gravity -g y.
ModelSpec pinnedRod(double m, double L, double g) {
  ModelSpec model;
  model.gravity = Vec3(0, -g, 0);
  model.ground_markers = {marker("pivot", Vec3::Zero()), marker("anchor", Vec3(0, -1, 0))};
  RigidBodySpec rod{"rod", m, Vec3(1e-6, m * L * L / 12, m * L * L / 12).asDiagonal(), Vec3(L / 2, 0, 0)};
  rod.markers = {marker("pin", Vec3(-L / 2, 0, 0)), marker("tip", Vec3(L / 2, 0, 0))};
  model.bodies = {rod};
  model.joints = {{"pin", JointType::Revolute, "ground", "pivot", "rod", "pin"}};
  SensorSpec tip;
  tip.name = "tip";
  tip.body = "rod";
  tip.marker = "tip";
  tip.quantities = {"position"};
  SensorSpec angle;
  angle.name = "pin";
  angle.type = SensorSpec::Type::Joint;
  angle.joint = "pin";
  angle.quantities = {"coordinate"};
  model.sensors = {tip, angle};
  model.solver.output_interval = 0.01;
  model.solver.step = 1e-3;
  model.solver.rtol = 1e-8;
  model.solver.atol = 1e-10;
  return model;
}

/// Composite Simpson rule of f over [a, b] with n (even) intervals.
double simpson(const std::function<double(double)>& f, double a, double b, int n) {
  const double h = (b - a) / n;
  double s = f(a) + f(b);
  for (int i = 1; i < n; ++i) s += (i % 2 ? 4 : 2) * f(a + i * h);
  return s * h / 3;
}

/// Double pendulum of two 1 m, 1 kg rods released from the horizontal (as
/// resources/examples/double_pendulum.json): nothing does work on it.
ModelSpec doublePendulum(double step) {
  ModelSpec m;
  m.gravity = Vec3(0, -9.81, 0);
  m.ground_markers = {marker("pivot", Vec3::Zero())};
  const Mat3 J = Vec3(1e-6, 1.0 / 12, 1.0 / 12).asDiagonal();
  RigidBodySpec rod1{"rod1", 1.0, J, Vec3(0.5, 0, 0)}, rod2{"rod2", 1.0, J, Vec3(1.5, 0, 0)};
  rod1.markers = {marker("pivot", Vec3(-0.5, 0, 0)), marker("elbow", Vec3(0.5, 0, 0))};
  rod2.markers = {marker("elbow", Vec3(-0.5, 0, 0))};
  m.bodies = {rod1, rod2};
  m.joints = {{"shoulder", JointType::Revolute, "ground", "pivot", "rod1", "pivot"},
              {"elbow", JointType::Revolute, "rod1", "elbow", "rod2", "elbow"}};
  m.solver.t_end = 5;
  m.solver.step = step;
  m.solver.output_interval = 0.05;
  m.solver.integrator = IntegratorType::GeneralizedAlpha;
  return m;
}

/// A force element that does not say what power its forces have.
class Mystery final : public ForceElement {
 public:
  explicit Mystery(int body) {
    blocks = {body};
    label = "force 'mystery'";
  }
  void evaluate(const System&, const std::vector<BodyKinematics>&, double, ForceRows& out) const override {
    out.f[0](0) = 1.0;
  }
};

}  // namespace

class QualityTest : public QObject {
  Q_OBJECT
 private slots:
  /// Rod driven through theta = A sin(Omega t) against gravity and a spring-damper from its tip
  /// to a ground anchor. The driver's work int tau theta' dt, with tau from the closed-form
  /// motion (J_O theta'' + m g L/2 cos theta + spring-damper force x d l/d theta), and the
  /// damper's -c int l'^2 dt are computed here by Simpson's rule; the run must report both and
  /// close its balance.
  void drivenDampedPendulumBalance_data() {
    QTest::addColumn<int>("integrator");
    QTest::newRow("ida") << static_cast<int>(IntegratorType::Ida);
    QTest::newRow("gen-alpha") << static_cast<int>(IntegratorType::GeneralizedAlpha);
  }
  void drivenDampedPendulumBalance() {
    QFETCH(int, integrator);
    const double m = 1.2, L = 0.8, g = 9.81, A = 0.8, Omega = 2 * kPi, T = 1.3;
    const double k = 50, c = 3, L0 = 0.9;
    ModelSpec model = pinnedRod(m, L, g);
    DriverSpec motor;
    motor.name = "motor";
    motor.joint = "pin";
    motor.function.type = TimeFunctionSpec::Type::Harmonic;
    motor.function.amplitude = A;
    motor.function.frequency = Omega / (2 * kPi);
    model.drivers = {motor};
    ForceSpec spring;
    spring.name = "spring";
    spring.type = ForceSpec::Type::SpringDamper;
    spring.body1 = "ground";
    spring.marker1 = "anchor";
    spring.body2 = "rod";
    spring.marker2 = "tip";
    spring.stiffness = k;
    spring.damping = c;
    spring.free_length = L0;
    model.forces = {spring};
    model.solver.t_end = T;
    model.solver.integrator = static_cast<IntegratorType>(integrator);
    RecordingSink sink;
    const RunSummary sum = test::runModel(model, sink);
    QVERIFY2(sum.ok, sum.message.c_str());
    QCOMPARE(sum.status(), "ok");

    // the closed form (and the convention of the joint angle) is what the run did
    const auto theta = [&](double t) { return A * std::sin(Omega * t); };
    double worst = 0;
    for (size_t i = 0; i < sink.samples.size(); ++i) {
      const double t = sink.samples[i].t;
      worst = std::max({worst, std::abs(sink.value(i, "tip.position.x") - L * std::cos(theta(t))),
                        std::abs(sink.value(i, "tip.position.y") - L * std::sin(theta(t)))});
    }
    QVERIFY2(worst < 1e-8, qPrintable(QString::number(worst)));

    const double JO = m * L * L / 3;
    const Eigen::Vector2d anchor(0, -1);
    struct Motion {
      double th, w, a, l, dl;  ///< angle, rate, acceleration, spring length, d l / d theta
    };
    const auto at = [&](double t) {
      Motion s;
      s.th = theta(t);
      s.w = A * Omega * std::cos(Omega * t);
      s.a = -A * Omega * Omega * std::sin(Omega * t);
      const Eigen::Vector2d d = L * Eigen::Vector2d(std::cos(s.th), std::sin(s.th)) - anchor;
      s.l = d.norm();
      s.dl = d.dot(L * Eigen::Vector2d(-std::sin(s.th), std::cos(s.th))) / s.l;
      return s;
    };
    const auto driverPower = [&](double t) {
      const Motion s = at(t);
      const double force = k * (s.l - L0) + c * s.dl * s.w;
      const double torque = JO * s.a + m * g * L / 2 * std::cos(s.th) + force * s.dl;
      return torque * s.w;
    };
    const auto damperPower = [&](double t) {
      const Motion s = at(t);
      return -c * std::pow(s.dl * s.w, 2);
    };
    const double Wdriver = simpson(driverPower, 0, T, 20000), Wdamper = simpson(damperPower, 0, T, 20000);
    const double Wabs = simpson([&](double t) { return std::abs(driverPower(t)); }, 0, T, 20000);
    const RunQuality& q = sum.quality;
    qInfo("driver work %.9f J (independent %.9f J), damper %.9f J (%.9f J), balance error %.3e J of scale %.4g J",
          q.work_drivers, Wdriver, q.work_dampers, Wdamper, q.energy_error, q.energy_scale);
    QVERIFY(q.energy_known);
    QVERIFY(q.energy_checked);  // the driver's work from its multipliers: held to the drivers' limit
    QCOMPARE(q.energy_limit, quality::kDrivenEnergyFraction);
    QCOMPARE(q.work_loads, 0.0);
    QVERIFY2(std::abs(q.work_drivers - Wdriver) <= 1e-5 * Wabs, qPrintable(QString::number(q.work_drivers - Wdriver)));
    // IDA gives its exact multipliers at every step; generalized-alpha's biased ones are
    // corrected from exact ones solved for at a few of the steps only, within the error stated
    qInfo("exact multipliers at %ld of %ld steps, drivers' work error estimated at %.3g J", q.drivers_exact_steps,
          q.steps, q.work_drivers_error);
    if (integrator == static_cast<int>(IntegratorType::Ida)) {
      QCOMPARE(q.drivers_exact_steps, q.steps);
      QCOMPARE(q.work_drivers_error, 0.0);
    } else {
      QVERIFY2(q.drivers_exact_steps < q.steps / 4, qPrintable(QString::number(q.drivers_exact_steps)));
      QVERIFY(q.work_drivers_error <= 1e-5 * Wabs);
    }
    QVERIFY2(std::abs(q.work_dampers - Wdamper) <= 1e-5 * std::abs(Wdamper),
             qPrintable(QString::number(q.work_dampers - Wdamper)));
    QVERIFY2(q.energy_error <= 1e-5 * q.energy_scale, qPrintable(QString::number(q.energy_error)));
    QVERIFY(q.warnings.empty());
  }

  /// A constant torque (above m g L / 2: the rod goes over the top) on a free pendulum does the
  /// work tau (theta_end - theta_0).
  void appliedLoadWork() {
    const double tau = 6.0;
    ModelSpec model = pinnedRod(1.0, 1.0, 9.81);
    ForceSpec load;
    load.name = "torque";
    load.type = ForceSpec::Type::PointTorque;
    load.body1 = "rod";
    load.marker1 = "pin";
    load.vector = Vec3(0, 0, tau);
    model.forces = {load};
    model.solver.t_end = 2;
    RecordingSink sink;
    const RunSummary sum = test::runModel(model, sink);
    QVERIFY2(sum.ok, sum.message.c_str());
    const double swept = sink.value(sink.samples.size() - 1, "pin.coordinate.rotation");
    QVERIFY2(swept > 2 * kPi, qPrintable(QString::number(swept)));
    const RunQuality& q = sum.quality;
    qInfo("load work %.9f J (tau x swept angle %.9f J), balance error %.3e J of scale %.4g J", q.work_loads,
          tau * swept, q.energy_error, q.energy_scale);
    // loads only: the balance is held to the looser limit of a model without drivers, and passes
    QVERIFY(q.energy_known && q.energy_checked);
    QCOMPARE(q.energy_limit, quality::kLoadedEnergyFraction);
    QVERIFY2(q.warnings.empty(), q.warnings.empty() ? "" : q.warnings.front().c_str());
    QVERIFY2(std::abs(q.work_loads - tau * swept) <= 1e-6 * tau * std::abs(swept),
             qPrintable(QString::number(q.work_loads - tau * swept)));
    QCOMPARE(q.work_drivers, 0.0);
    QCOMPARE(q.work_dampers, 0.0);
    QVERIFY2(q.energy_error <= 1e-6 * q.energy_scale, qPrintable(QString::number(q.energy_error)));
  }

  /// Nothing does work on the double pendulum: with a sane step it ends ok; with a far too large
  /// one its energy drifts and the run ends "warning", saying so.
  void conservativeModelWarnsOnEnergyDrift() {
    RecordingSink fine, coarse;
    const RunSummary good = test::runModel(doublePendulum(1e-3), fine);
    QVERIFY2(good.ok, good.message.c_str());
    QVERIFY(good.quality.energy_checked);
    QVERIFY2(good.quality.warnings.empty(), good.str().c_str());
    QCOMPARE(good.status(), "ok");
    QVERIFY(good.quality.energy_error < quality::kEnergyFraction * good.quality.energy_scale);

    const RunSummary bad = test::runModel(doublePendulum(0.02), coarse);
    qInfo("energy drift: h = 1e-3 %.3g, h = 0.02 %.3g of the energy scale",
          good.quality.energy_error / good.quality.energy_scale, bad.quality.energy_error / bad.quality.energy_scale);
    QVERIFY2(bad.ok, bad.message.c_str());  // it finished: the results are there, but suspect
    QVERIFY(bad.warning());
    QCOMPARE(bad.status(), "warning");
    QCOMPARE(bad.quality.warnings.size(), size_t(1));
    const QString why = QString::fromStdString(bad.quality.warnings[0]);
    QVERIFY2(why.startsWith("the energy of a model on which nothing does work is off by up to"), qPrintable(why));
    QVERIFY(bad.quality.energy_error > quality::kEnergyFraction * bad.quality.energy_scale);
    QVERIFY(QString::fromStdString(bad.str()).contains("WARNING: the energy"));
  }

  /// A driver on the double pendulum's shoulder does work, which the balance takes from its
  /// multipliers: with a sane step it closes; with a far too large one the second link's energy
  /// drifts, and the run ends "warning" all the same.
  void drivenModelWarnsOnEnergyDrift() {
    const auto driven = [](double step) {
      ModelSpec m = doublePendulum(step);
      DriverSpec motor;
      motor.name = "motor";
      motor.joint = "shoulder";
      motor.function.type = TimeFunctionSpec::Type::Harmonic;
      motor.function.amplitude = 0.3;
      motor.function.frequency = 0.2;
      m.drivers = {motor};
      return m;
    };
    RecordingSink fine, coarse;
    const RunSummary good = test::runModel(driven(1e-3), fine);
    QVERIFY2(good.ok, good.message.c_str());
    QVERIFY(good.quality.energy_checked);
    QCOMPARE(good.quality.energy_limit, quality::kDrivenEnergyFraction);
    QVERIFY(std::abs(good.quality.work_drivers) > 1e-3);
    QVERIFY2(good.quality.warnings.empty(), good.str().c_str());
    const RunSummary bad = test::runModel(driven(0.05), coarse);
    qInfo("driven double pendulum: balance error h = 1e-3 %.3g, h = 0.05 %.3g of the energy scale",
          good.quality.energy_error / good.quality.energy_scale, bad.quality.energy_error / bad.quality.energy_scale);
    QVERIFY2(bad.ok, bad.message.c_str());
    QCOMPARE(bad.status(), "warning");
    const QString why = QString::fromStdString(bad.quality.warnings.at(0));
    QVERIFY2(why.startsWith("the work-energy balance of a model with drivers is off by up to"), qPrintable(why));
  }

  /// The monitor on hand-made states: a joint pulled apart, a high share of rejected steps,
  /// halved steps, and a force whose power is unknown.
  void monitorChecks() {
    ModelSpec model = pinnedRod(1.0, 1.0, 9.81);
    Diagnostics diag;
    auto sys = System::compile(model, diag);
    QVERIFY2(sys, diag.str().c_str());
    State s = sys->initialState();
    QualityMonitor monitor(*sys, model.solver, 1.0);
    monitor.start(s, nullptr);
    // steps of 0.01, 0.01, 0.0025 (two halvings), 0.005, 0.01, then a last one cut to t_end
    double t = 0;
    for (double h : {0.01, 0.01, 0.0025, 0.005, 0.01, 0.001}) {
      State next = s;
      next.t = t + h;
      monitor.step(next, t, nullptr, nullptr);
      t += h;
    }
    RunQuality q = monitor.finish(6, 1, true);
    QVERIFY2(q.warnings.empty(), q.warnings.empty() ? "" : q.warnings[0].c_str());
    QCOMPARE(q.halvings, 2L);
    QCOMPARE(q.smallest_step, 0.0025);
    QVERIFY(q.energy_checked);
    QCOMPARE(q.energy_error, 0.0);
    // a failed run counts its last step too; 4 rejected of 10 attempts pass the limit
    q = monitor.finish(6, 4, false);
    QCOMPARE(q.smallest_step, 0.001);
    QCOMPARE(q.warnings.size(), size_t(1));
    QCOMPARE(QString::fromStdString(q.warnings[0]), QString("4 of 10 attempted steps rejected (40 %, limit 20 %)"));

    // the rod 1 mm off its pin
    State apart = s;
    apart.q(1) += 1e-3;
    apart.t = t + 0.01;
    monitor.step(apart, t, nullptr, nullptr);
    q = monitor.finish(7, 0, true);
    QCOMPARE(q.position_residual, 1e-3);
    QVERIFY(q.position_residual > q.position_tolerance);
    QVERIFY(!q.warnings.empty());
    const QString residual = QString::fromStdString(q.warnings[0]);
    QVERIFY2(residual.startsWith("position constraint residual 0.001 in joint 'pin' exceeds"), qPrintable(residual));

    // a force that does not give its power: the balance is not known, and the run says why
    sys->addForce(std::make_unique<Mystery>(0));
    QualityMonitor blind(*sys, model.solver, 1.0);
    blind.start(s, nullptr);
    q = blind.finish(0, 0, true);
    QVERIFY(!q.energy_known);
    QVERIFY(!q.energy_checked);
    QCOMPARE(QString::fromStdString(q.energy_note), QString("force 'mystery' does not give the power of its forces"));
    QVERIFY(q.warnings.empty());
  }
};

QTEST_GUILESS_MAIN(QualityTest)
#include "quality_test.moc"
