// Force elements against closed forms: spring-damper oscillator (period, logarithmic decrement,
// preload), point force and torque with time functions on a free body, 6-DOF bushing
// frequencies and static deflection.
#include "core/model/time_function.h"
#include "recording_sink.h"

#include <QtTest>

#include <algorithm>
#include <cmath>
#include <numbers>

using namespace flexim;
using flexim::test::RecordingSink;

namespace {

constexpr double kPi = std::numbers::pi;

MarkerSpec marker(const std::string& name, const Vec3& p = Vec3::Zero(), const Quat& q = Quat::Identity()) {
  return {name, p, q};
}

/// A 2 kg block with a marker at its centre, optionally on a prismatic joint along global x.
ModelSpec block(bool onRail) {
  ModelSpec m;
  RigidBodySpec b{"block", 2.0, Vec3(0.01, 0.02, 0.03).asDiagonal(), Vec3(0.5, 0, 0)};
  const Quat zx = Quat::FromTwoVectors(Vec3::UnitZ(), Vec3::UnitX());
  b.markers = {marker("c"), marker("rail", Vec3::Zero(), zx)};
  m.bodies = {b};
  m.ground_markers = {marker("anchor"), marker("rail", Vec3::Zero(), zx)};
  if (onRail) m.joints = {{"rail", JointType::Prismatic, "ground", "rail", "block", "rail"}};
  SensorSpec s;
  s.name = "block";
  s.body = "block";
  s.marker = "c";
  s.quantities = {"position", "orientation", "velocity", "angular_velocity"};
  m.sensors = {s};
  m.solver.rtol = 1e-10;
  m.solver.atol = 1e-12;
  m.solver.step = 0;
  m.solver.output_interval = 1e-3;
  return m;
}

ForceSpec spring(double k, double c, double L0, double preload) {
  ForceSpec f;
  f.name = "spring";
  f.type = ForceSpec::Type::SpringDamper;
  f.body1 = "ground";
  f.marker1 = "anchor";
  f.body2 = "block";
  f.marker2 = "c";
  f.stiffness = k;
  f.damping = c;
  f.free_length = L0;
  f.preload = preload;
  return f;
}

/// A bushing from the ground's anchor to the block's centre, stiffness and damping still zero.
ForceSpec mount() {
  ForceSpec f;
  f.name = "mount";
  f.type = ForceSpec::Type::Bushing;
  f.body1 = "ground";
  f.marker1 = "anchor";
  f.body2 = "block";
  f.marker2 = "c";
  return f;
}

/// Times of the local maxima of a sampled signal (parabolic refinement).
std::vector<std::pair<double, double>> peaks(const RecordingSink& s, const std::string& channel) {
  std::vector<std::pair<double, double>> out;
  for (size_t i = 1; i + 1 < s.samples.size(); ++i) {
    const double a = s.value(i - 1, channel), b = s.value(i, channel), c = s.value(i + 1, channel);
    if (b > a && b >= c) {
      const double h = s.samples[i].t - s.samples[i - 1].t, d = (a - c) / (2 * (a - 2 * b + c));
      out.push_back({s.samples[i].t + d * h, b - 0.25 * (a - c) * d});
    }
  }
  return out;
}

}  // namespace

class ForcesTest : public QObject {
  Q_OBJECT
 private slots:
  void tableSlopeAtItsEndKnots() {
    // a table driver that starts at its first knot starts with the spline's velocity (it used
    // to take the constant extension's 0 there, so IDA's consistent start failed)
    TimeFunctionSpec spec;
    spec.type = TimeFunctionSpec::Type::Table;
    spec.times = {0.0, 1.0, 2.0, 3.0};
    spec.values = {0.0, 1.0, 4.0, 9.0};
    const TimeFunction f(spec);
    const double h = 1e-6;
    QCOMPARE(f(0.0).f, 0.0);
    QVERIFY(f(0.0).df > 0.5);
    QVERIFY(std::abs(f(0.0).df - (f(h).f - f(0.0).f) / h) < 1e-4);
    QVERIFY(std::abs(f(3.0).df - (f(3.0).f - f(3.0 - h).f) / h) < 1e-4);
    QCOMPARE(f(3.0).f, 9.0);
    QCOMPARE(f(-1e-9).df, 0.0);  // constant outside
    QCOMPARE(f(3.0 + 1e-9).df, 0.0);
  }

  void springDamperOscillator_data() {
    QTest::addColumn<int>("integrator");
    QTest::newRow("ida") << static_cast<int>(IntegratorType::Ida);
    QTest::newRow("gen-alpha") << static_cast<int>(IntegratorType::GeneralizedAlpha);
  }
  void springDamperOscillator() {
    // m x'' + c x' + k (x - L0) + F0 = 0 along the rail: damped period, decrement, equilibrium
    QFETCH(int, integrator);
    const double m = 2.0, k = 800.0, c = 4.0, L0 = 0.4, F0 = 8.0;
    ModelSpec model = block(true);
    model.forces = {spring(k, c, L0, F0)};
    model.solver.t_end = 2.0;
    model.solver.integrator = static_cast<IntegratorType>(integrator);
    model.solver.step = 1e-4;
    model.solver.rho_inf = 1.0;
    RecordingSink sink;
    const RunSummary sum = test::runModel(model, sink);
    QVERIFY2(sum.ok, sum.message.c_str());
    const double wn = std::sqrt(k / m), zeta = c / (2 * std::sqrt(k * m)), wd = wn * std::sqrt(1 - zeta * zeta);
    const double xEq = L0 - F0 / k;
    const auto p = peaks(sink, "block.position.x");
    QVERIFY(p.size() >= 5);
    const double period = (p.back().first - p.front().first) / (p.size() - 1);
    const double decrement = std::log((p.front().second - xEq) / (p[1].second - xEq));
    qInfo("period %.6f (exact %.6f), log decrement %.5f (exact %.5f)", period, 2 * kPi / wd, decrement,
          2 * kPi * zeta / std::sqrt(1 - zeta * zeta));
    QVERIFY(std::abs(period - 2 * kPi / wd) < 1e-4 * (2 * kPi / wd));
    QVERIFY(std::abs(decrement - 2 * kPi * zeta / std::sqrt(1 - zeta * zeta)) < 1e-3);
    // the closed-form response x(t) = xEq + A e^{-zeta wn t} cos(wd t) + B e^{...} sin(wd t)
    const double A = 0.5 - xEq, B = zeta * wn * A / wd;
    double err = 0;
    for (size_t i = 0; i < sink.samples.size(); ++i) {
      const double t = sink.samples[i].t;
      const double x = xEq + std::exp(-zeta * wn * t) * (A * std::cos(wd * t) + B * std::sin(wd * t));
      err = std::max(err, std::abs(sink.value(i, "block.position.x") - x));
    }
    qInfo("max |x - x_exact| = %.2e m", err);
    QVERIFY(err < 1e-5 * std::abs(A));
  }

  void pointForceAndTorqueOnFreeBody() {
    // constant force (global) and a ramped torque (marker axes) on a free body:
    // x = x0 + F t^2 / (2 m); about a principal axis theta = T0 t^3 / (6 J)
    ModelSpec model = block(false);
    ForceSpec f;
    f.name = "push";
    f.type = ForceSpec::Type::PointForce;
    f.body1 = "block";
    f.marker1 = "c";
    f.vector = Vec3(0, 3.0, 0);
    ForceSpec tq;
    tq.name = "twist";
    tq.type = ForceSpec::Type::PointTorque;
    tq.body1 = "block";
    tq.marker1 = "c";
    tq.vector = Vec3(0, 0, 1.0);
    tq.frame = ForceSpec::Frame::Marker;
    tq.function.type = TimeFunctionSpec::Type::Ramp;
    tq.function.slope = 0.5;
    model.forces = {f, tq};
    model.solver.t_end = 1.0;
    RecordingSink sink;
    const RunSummary sum = test::runModel(model, sink);
    QVERIFY2(sum.ok, sum.message.c_str());
    const size_t last = sink.samples.size() - 1;
    const double t = sink.samples[last].t, J = 0.03;
    QVERIFY(std::abs(sink.value(last, "block.position.y") - 3.0 * t * t / 4.0) < 1e-8);
    QVERIFY(std::abs(sink.value(last, "block.angular_velocity.z") - 0.5 * t * t / (2 * J)) < 1e-7);
    const double theta = 0.5 * t * t * t / (6 * J);
    const double w = sink.value(last, "block.orientation.w"), z = sink.value(last, "block.orientation.z");
    QVERIFY(std::abs(2 * std::atan2(z, w) - std::remainder(theta, 2 * kPi)) < 1e-7);
  }

  /// A run stopped at t1 and continued from its state with the spring twice as stiff follows the
  /// new closed form from the state it had: x - L0 = (x1 - L0) cos(w2 (t - t1)) + v1/w2 sin(...).
  void editedModelContinuesFromTheStoppedState_data() { springDamperOscillator_data(); }
  void editedModelContinuesFromTheStoppedState() {
    QFETCH(int, integrator);
    const double m = 2.0, k = 800.0, L0 = 0.4, t1 = 0.3;
    ModelSpec model = block(true);
    model.forces = {spring(k, 0.0, L0, 0.0)};
    model.solver.integrator = static_cast<IntegratorType>(integrator);
    model.solver.step = 1e-4;
    model.solver.rho_inf = 1.0;
    model.solver.t_end = t1;
    Diagnostics diag;
    const auto before = Simulation::create(model, diag);
    QVERIFY2(before, diag.str().c_str());
    RecordingSink first;
    State stopped;
    RunOptions stopping;
    stopping.stoppedAt = &stopped;
    QVERIFY(before->run({&first}, stopping).ok);
    QVERIFY2(std::abs(stopped.t - t1) < 0.05, "the stopped state is the last step's");
    const double x1 = stopped.q(0) - L0, v1 = stopped.v(0);  // the block's centre along x

    ModelSpec edited = model;
    edited.forces[0].stiffness = 2 * k;
    edited.solver.t_end = 1.0;
    const auto after = Simulation::create(edited, diag);
    QVERIFY2(after, diag.str().c_str());
    State resumed;
    std::string why;
    QVERIFY2(after->mapState(*before, stopped, resumed, why), why.c_str());
    RunOptions resuming;
    resuming.resume = &resumed;
    RecordingSink second;
    const RunSummary sum = after->run({&second}, resuming);
    QVERIFY2(sum.ok, sum.message.c_str());
    QVERIFY(second.samples.front().t > stopped.t);  // the samples go on after the stop
    QVERIFY(second.samples.front().t <= stopped.t + model.solver.output_interval * (1 + 1e-9));
    QCOMPARE(second.samples.back().t, 1.0);
    const double w2 = std::sqrt(2 * k / m);
    double err = 0;
    for (size_t i = 0; i < second.samples.size(); ++i) {
      const double tau = second.samples[i].t - stopped.t;
      const double x = L0 + x1 * std::cos(w2 * tau) + v1 / w2 * std::sin(w2 * tau);
      err = std::max(err, std::abs(second.value(i, "block.position.x") - x));
    }
    qInfo("continued with 2k from t=%.4f: max |x - closed form| = %.2e m (amplitude %.3f m)", stopped.t, err,
          std::hypot(x1, v1 / w2));
    QVERIFY(err < 1e-4 * std::hypot(x1, v1 / w2));
    // the period is the new one: the old would be off by sqrt(2)
    const auto p = peaks(second, "block.position.x");
    QVERIFY(p.size() >= 3);
    const double period = (p.back().first - p.front().first) / double(p.size() - 1);
    QVERIFY(std::abs(period - 2 * kPi / w2) < 1e-3 * (2 * kPi / w2));
    QVERIFY(std::any_of(sum.notes.begin(), sum.notes.end(), [](const std::string& n) { return n.find("continued") == 0; }));

    // an edit that changes the coordinates cannot continue, and says what changed
    ModelSpec grown = edited;
    RigidBodySpec extra = grown.bodies[0];
    extra.name = "second_block";
    grown.bodies.push_back(extra);
    const auto larger = Simulation::create(grown, diag);
    QVERIFY2(larger, diag.str().c_str());
    QVERIFY(!larger->mapState(*before, stopped, resumed, why));
    QVERIFY2(why == "body 'second_block' is new", why.c_str());
    // a renamed body is the same body (known by its item path)
    ModelSpec renamed = edited;
    renamed.bodies[0].name = "slider";
    renamed.joints[0].body2 = "slider";
    renamed.sensors[0].body = "slider";
    renamed.forces[0].body2 = "slider";
    Diagnostics renamedDiag;
    const auto same = Simulation::create(renamed, renamedDiag);
    QVERIFY2(same, renamedDiag.str().c_str());
    QVERIFY2(same->mapState(*before, stopped, resumed, why), why.c_str());
  }

  void bushingFrequenciesAndDeflection() {
    // a free block held to ground by a bushing only: translational and torsional natural
    // frequencies sqrt(k/m), sqrt(kr/J); under gravity the static sag is m g / k_z
    ModelSpec model = block(false);
    model.bodies[0].position = Vec3::Zero();
    ForceSpec b = mount();
    b.bushing_stiffness << 2e4, 3e4, 5e4, 40, 50, 60;
    model.forces = {b};
    model.bodies[0].velocity = Vec3(0.01, 0, 0);
    model.bodies[0].angular_velocity = Vec3(0, 0, 0.01);
    model.solver.t_end = 0.5;
    model.solver.output_interval = 1e-4;
    RecordingSink sink;
    const RunSummary sum = test::runModel(model, sink);
    QVERIFY2(sum.ok, sum.message.c_str());
    const auto px = peaks(sink, "block.position.x");
    const auto pw = peaks(sink, "block.angular_velocity.z");
    QVERIFY(px.size() >= 3 && pw.size() >= 3);
    const double Tx = (px.back().first - px.front().first) / (px.size() - 1);
    const double Tr = (pw.back().first - pw.front().first) / (pw.size() - 1);
    qInfo("translational period %.6f (exact %.6f), torsional %.6f (exact %.6f)", Tx, 2 * kPi * std::sqrt(2.0 / 2e4), Tr,
          2 * kPi * std::sqrt(0.03 / 60));
    QVERIFY(std::abs(Tx / (2 * kPi * std::sqrt(2.0 / 2e4)) - 1) < 1e-4);
    QVERIFY(std::abs(Tr / (2 * kPi * std::sqrt(0.03 / 60)) - 1) < 1e-4);

    // static sag under gravity with critical-ish damping, settled
    model.bodies[0].velocity.setZero();
    model.bodies[0].angular_velocity.setZero();
    model.gravity = Vec3(0, 0, -9.81);
    model.forces[0].bushing_damping << 200, 200, 600, 1, 1, 1;
    model.solver.t_end = 2.0;
    model.solver.output_interval = 1e-2;
    RecordingSink settled;
    QVERIFY(test::runModel(model, settled).ok);
    const double z = settled.value(settled.samples.size() - 1, "block.position.z");
    QVERIFY2(std::abs(z + 2.0 * 9.81 / 5e4) < 1e-9, qPrintable(QString::number(z)));
  }

  void bushingPreloadMovesTheRestPositionAndClosesTheEnergyBalance() {
    // A free block on a damped bushing to ground, no gravity, released at the bushing's zero
    // deflection with a preload F0, T0 (marker1 = ground axes): it settles where the springs
    // cancel the preload, x = F0 / k and theta_z = T0 / k_theta. The translational preload is a
    // potential (-F0 . x); the preload torque does the work T0 theta_z, counted as applied work.
    ModelSpec model = block(false);
    model.bodies[0].position = Vec3::Zero();
    ForceSpec b = mount();
    b.bushing_stiffness << 2e4, 3e4, 5e4, 60, 60, 60;
    b.bushing_damping << 150, 150, 150, 0.5, 0.5, 0.5;
    b.bushing_preload << 100, -50, 0, 0, 0, 0.6;
    model.forces = {b};
    model.solver.t_end = 3.0;
    model.solver.output_interval = 1e-2;
    RecordingSink sink;
    const RunSummary sum = test::runModel(model, sink);
    QVERIFY2(sum.ok, sum.message.c_str());
    const std::size_t last = sink.samples.size() - 1;
    const double x = sink.value(last, "block.position.x"), y = sink.value(last, "block.position.y");
    const double angle = 2 * std::atan2(sink.value(last, "block.orientation.z"), sink.value(last, "block.orientation.w"));
    qInfo("rest position x %.9g (F0/k %.9g), y %.9g (%.9g), angle %.9g (T0/k %.9g)", x, 100 / 2e4, y, -50 / 3e4, angle,
          0.6 / 60);
    QVERIFY2(std::abs(x - 100 / 2e4) < 1e-9, qPrintable(QString::number(x)));
    QVERIFY2(std::abs(y + 50 / 3e4) < 1e-9, qPrintable(QString::number(y)));
    QVERIFY2(std::abs(angle - 0.6 / 60) < 1e-8, qPrintable(QString::number(angle)));

    const RunQuality& q = sum.quality;
    qInfo("preload torque work %.9g J (T0 angle %.9g J), dampers %.6g J, balance error %.3e J of %.4g J", q.work_loads,
          0.6 * angle, q.work_dampers, q.energy_error, q.energy_scale);
    // the works are quadratures over the steps (trapezoidal), good to about 1e-5; a wrong sign of
    // the preload's potential would be off by sum F0^2 / k = 0.58 J
    QVERIFY(q.energy_known && q.energy_checked);
    QVERIFY(q.warnings.empty());
    QVERIFY2(std::abs(q.work_loads - 0.6 * angle) < 1e-4 * 0.6 * angle, qPrintable(QString::number(q.work_loads)));
    // at rest the dampers have taken what the preload released: 0.5 (sum F0^2 / k + T0^2 / k_theta)
    const double released = 0.5 * (100.0 * 100 / 2e4 + 50.0 * 50 / 3e4 + 0.6 * 0.6 / 60);
    QVERIFY2(std::abs(q.work_dampers + released) < 1e-4 * released, qPrintable(QString::number(q.work_dampers)));
    QVERIFY2(q.energy_error <= 1e-4 * q.energy_scale, qPrintable(QString::number(q.energy_error)));
  }
};

QTEST_APPLESS_MAIN(ForcesTest)
#include "forces_test.moc"
