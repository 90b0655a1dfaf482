// The element contract: a unilateral row plugged in from outside the core (a ground stop under
// a falling block) switching active and inactive, with the KKT pattern re-analysed on the
// switches only.
#include "core/integrators/integrator.h"
#include "core/model/validate.h"
#include "core/run/consistency.h"
#include "core/system/joint_coordinates.h"
#include "core/system/joints.h"
#include "core/system/system.h"

#include "random_helpers.h"

#include <QtTest>

#include <algorithm>
#include <cmath>
#include <limits>
#include <numbers>

using namespace flexim;

namespace {

constexpr double kTurn = 2 * std::numbers::pi;

/// phi = z - floor >= 0 for the origin of one rigid body: a stop written against the contract,
/// exactly as a contact unit would be.
class FloorStop final : public ConstraintElement {
 public:
  FloorStop(int body, double floor) : m_floor(floor) {
    blocks = {body};
    label = "stop under body " + std::to_string(body);
  }
  int rows() const override { return 1; }
  RowKind rowKind(int) const override { return RowKind::Unilateral; }
  void evaluate(const System&, const std::vector<BodyKinematics>& kin, double, ConstraintRows& out) const override {
    const BodyKinematics& k = kin[blocks[0] + 1];
    out.phi(0) = k.r.z() - m_floor;
    out.G[0](0, 2) = 1.0;  // gamma = 0: linear in r
  }

 private:
  double m_floor;
};

/// Runs `sys` from its assembled initial state to spec.t_end; the final state, accelerations and
/// multipliers. Empty error on success.
struct RunResult {
  State s;
  VecX vdot, lambda;
  std::string error;
};
RunResult integrate(const System& sys, const SolverSpec& spec) {
  RunResult r;
  Consistency cons(sys);
  r.s = sys.initialState();
  double residual = 0;
  if (!cons.assemblePositions(r.s, 1e-12, 50, residual, r.error)) return r;
  if (!cons.projectVelocities(r.s, residual, true) || !cons.accelerations(r.s, r.vdot, r.lambda)) {
    r.error = "inconsistent initial state";
    return r;
  }
  auto integ = spec.integrator == IntegratorType::Ida ? makeIda(sys, spec) : makeGeneralizedAlpha(sys, spec);
  if (!integ->initialize(r.s, r.vdot, r.lambda, r.error)) return r;
  while (integ->time() < spec.t_end - 1e-12)
    if (!integ->step(spec.t_end, r.error)) return r;
  integ->interpolate(spec.t_end, r.s);
  if (!cons.projectVelocities(r.s, residual) || !cons.accelerations(r.s, r.vdot, r.lambda)) r.error = "final state";
  return r;
}

/// Generalized loads of the constraint rows on every block, -G^T lambda, at state s.
VecX constraintLoads(const System& sys, const State& s, const VecX& lambda) {
  std::vector<BodyKinematics> kin;
  std::vector<ConstraintRows> rows;
  sys.kinematics(s, kin);
  sys.constraints(kin, s.t, rows);
  VecX load = VecX::Zero(sys.nv());
  addConstraintForces(sys, rows, -lambda, load);
  return load;
}

/// A wheel: a disc of mass m and polar inertia J about its z axis, on a revolute joint to ground at x.
void addWheel(ModelSpec& m, const std::string& name, double x, double J) {
  RigidBodySpec b{name, 1.0, Vec3(J / 2, J / 2, J).asDiagonal(), Vec3(x, 0, 0)};
  b.markers = {{"axle", Vec3::Zero(), Quat::Identity()}};
  m.bodies.push_back(b);
  m.ground_markers.push_back({name + "_bearing", Vec3(x, 0, 0), Quat::Identity()});
  m.joints.push_back({name, JointType::Revolute, kGroundName, name + "_bearing", name, "axle"});
}

}  // namespace

class ContractTest : public QObject {
  Q_OBJECT

 private slots:
  /// A block dropped from 0.1 m onto a stop, lifted off again by a force that rises smoothly
  /// from 0 to 2 m g between t = 0.5 s and 0.6 s (it overcomes gravity at t = 0.55 s exactly).
  void fallingBlockOnStop() {
    const double m = 1.5, g = 9.81, z0 = 0.1, h = 1e-3;
    ModelSpec model;
    model.gravity = Vec3(0, 0, -g);
    RigidBodySpec b{"block", m, Vec3(0.01, 0.02, 0.03).asDiagonal(), Vec3(0, 0, z0)};
    b.markers = {{"c", Vec3::Zero(), Quat::Identity()}};
    model.bodies = {b};
    ForceSpec lift;
    lift.name = "lift";
    lift.body1 = "block";
    lift.marker1 = "c";
    lift.vector = Vec3(0, 0, m * g);
    lift.function.type = TimeFunctionSpec::Type::SmoothStep;
    lift.function.t0 = 0.5;
    lift.function.t1 = 0.6;
    lift.function.value0 = 0;
    lift.function.value1 = 2;
    model.forces = {lift};
    model.solver.integrator = IntegratorType::GeneralizedAlpha;
    model.solver.step = h;
    model.solver.t_end = 0.7;
    Diagnostics diag;
    auto sys = System::compile(model, diag);
    QVERIFY2(sys, diag.str().c_str());
    sys->addConstraint(std::make_unique<FloorStop>(0, 0.0));
    QVERIFY(sys->hasUnilateralRows());

    // the stop starts open (gap 0.1 m): no multiplier, free fall
    State s = sys->initialState();
    Consistency cons(*sys);
    cons.setActiveRows({0});
    VecX vdot, lambda;
    QVERIFY(cons.accelerations(s, vdot, lambda));
    QCOMPARE(vdot(2), -g);
    QCOMPARE(lambda(0), 0.0);

    auto integ = makeGeneralizedAlpha(*sys, model.solver);
    std::string error;
    QVERIFY(integ->initialize(s, vdot, lambda, error));
    QCOMPARE((*integ->activeRows())[0], char(0));
    const double tImpact = std::sqrt(2 * z0 / g);
    double lowest = z0, tClosed = -1, tOpened = -1;
    State st;
    while (integ->time() < model.solver.t_end - 1e-12) {
      const bool wasActive = (*integ->activeRows())[0];
      QVERIFY2(integ->step(model.solver.t_end, error), error.c_str());
      integ->interpolate(integ->time(), st);
      lowest = std::min(lowest, st.q(2));
      const bool active = (*integ->activeRows())[0];
      if (active && !wasActive) tClosed = integ->time();
      if (!active && wasActive) tOpened = integ->time();
      if (active) QVERIFY2(std::abs(st.v(2)) < 1e-9, "a closed stop holds the block still");
    }
    // no penetration beyond the tolerance; closed within the step of the impact
    QVERIFY2(lowest > -1e-9, std::to_string(lowest).c_str());
    QVERIFY2(tClosed >= tImpact - 1e-12 && tClosed < tImpact + 2 * h, std::to_string(tClosed).c_str());
    // opened within a step of t = 0.55 s, when the lift exceeds the weight
    QVERIFY2(std::abs(tOpened - 0.55) <= h + 1e-9, std::to_string(tOpened).c_str());
    // ends in the air: z(0.7) against z'' = g (f(t) - 1) from rest at t = 0.55 s, f the quintic
    // step, integrated here independently (midpoint rule, 1e5 steps)
    double zRef = 0, vRef = 0;
    const int n = 100000;
    const double dt = (0.7 - 0.55) / n;
    for (int i = 0; i < n; ++i) {
      const double tau = std::clamp((0.55 + (i + 0.5) * dt - 0.5) / 0.1, 0.0, 1.0);
      const double f = 2 * tau * tau * tau * (10 - 15 * tau + 6 * tau * tau);
      zRef += vRef * dt + 0.5 * g * (f - 1) * dt * dt;
      vRef += g * (f - 1) * dt;
    }
    QVERIFY2(std::abs(st.q(2) - zRef) < 1e-3 * zRef, (std::to_string(st.q(2)) + " vs " + std::to_string(zRef)).c_str());
    // the pattern was analysed once for the open stop and once per switch, never in between
    const IntegratorStats stats = integ->stats();
    QCOMPARE(stats.active_set_changes, 2L);
    QCOMPARE(stats.pattern_analyses, 3L);
  }

  /// A screw driven at constant speed through three turns lifts a nut against gravity:
  /// translation = pitch x angle / 2 pi, the thread carries the weight, and the driving power
  /// equals the rate of potential energy (efficiency 1: torque = m g pitch / 2 pi).
  void screwJointClosedForm_data() {
    QTest::addColumn<int>("integrator");
    QTest::newRow("gen-alpha") << int(IntegratorType::GeneralizedAlpha);
    QTest::newRow("ida") << int(IntegratorType::Ida);
  }
  void screwJointClosedForm() {
    QFETCH(int, integrator);
    const double m = 2.0, g = 9.81, pitch = 0.004, omega = 30.0, tEnd = 2 * kTurn * 3 / 2 / omega;
    ModelSpec model;
    model.gravity = Vec3(0, 0, -g);
    RigidBodySpec nut{"nut", m, Vec3(0.001, 0.001, 0.002).asDiagonal(), Vec3::Zero()};
    nut.markers = {{"thread", Vec3::Zero(), Quat::Identity()}};
    model.bodies = {nut};
    model.ground_markers = {{"thread", Vec3::Zero(), Quat::Identity()}};
    Diagnostics diag;
    auto sys = System::compile(model, diag);
    QVERIFY(sys);
    const MarkerRef& m1 = *sys->marker(kGroundName, "thread");
    const MarkerRef& m2 = *sys->marker("nut", "thread");
    addScrewJoint(*sys, 0, "lead", m1, m2, pitch);
    TimeFunctionSpec f;
    f.type = TimeFunctionSpec::Type::ConstantSpeed;
    f.speed = omega;
    auto driver = makeDriver(DriverSpec::Coordinate::Rotation, m1, m2, f);
    driver->label = "driver 'motor'";
    sys->addConstraint(std::move(driver));
    QCOMPARE(sys->nc(), 4 + 2 + 1);
    const int coordinate = sys->jointCoordinate(0);
    QVERIFY(coordinate >= 0);

    SolverSpec spec;
    spec.integrator = static_cast<IntegratorType>(integrator);
    spec.t_end = tEnd;
    spec.step = 1e-3;
    spec.rtol = 1e-10;
    spec.atol = 1e-12;
    const RunResult r = integrate(*sys, spec);
    QVERIFY2(r.error.empty(), r.error.c_str());
    const double angle = omega * tEnd;  // three full turns: the coordinate counts them
    const double counted = r.s.q(sys->block(coordinate).q0);
    QVERIFY2(std::abs(counted - angle) < 1e-8, std::to_string(counted).c_str());
    QVERIFY2(std::abs(r.s.q(2) - pitch * angle / kTurn) < 1e-10, std::to_string(r.s.q(2)).c_str());
    QVERIFY(std::abs(r.s.v(2) - pitch * omega / kTurn) < 1e-10);
    // loads on the nut, -G^T lambda: all constraint rows hold the weight; the driver's row alone
    // gives the driving torque, which the thread turns into the lifting force
    const VecX load = constraintLoads(*sys, r.s, r.lambda);
    QVERIFY2(std::abs(load(2) - m * g) < 1e-8, std::to_string(load(2)).c_str());
    QVERIFY(load.head<2>().norm() < 1e-8 && load.segment<3>(3).norm() < 1e-8);  // no net torque: steady turning
    VecX driverOnly = VecX::Zero(sys->nc());
    driverOnly(sys->nc() - 1) = r.lambda(sys->nc() - 1);
    const VecX drive = constraintLoads(*sys, r.s, driverOnly);
    const double torque = (sys->bodyKinematics(r.s.q, r.s.v, 0).A * drive.segment<3>(3)).z();
    QVERIFY2(std::abs(torque - m * g * pitch / kTurn) < 1e-9, std::to_string(torque).c_str());
    // power balance: what drives the nut = what lifts it
    QVERIFY(std::abs(torque * omega - m * g * r.s.v(2)) < 1e-9);
  }

  /// Two wheels on revolute joints to ground coupled by an external gear (ratio -2), the first
  /// driven by a constant torque: theta2 = -2 theta1 held to 1e-12 over several turns, theta1 from
  /// (J1 + r^2 J2) theta1'' = tau, and the gear does no work (kinetic energy = work of tau).
  void gearCoupling() {
    const double J1 = 0.01, J2 = 0.004, ratio = -2.0, tau = 2.0, tEnd = 1.0;
    ModelSpec model;
    addWheel(model, "pinion", 0.0, J1);
    addWheel(model, "wheel", 0.3, J2);
    ForceSpec drive;
    drive.name = "drive";
    drive.type = ForceSpec::Type::PointTorque;
    drive.body1 = "pinion";
    drive.marker1 = "axle";
    drive.vector = Vec3(0, 0, tau);
    model.forces = {drive};
    model.couplings = {{"gear", "pinion", "wheel", ratio}};
    Diagnostics diag;
    auto sys = System::compile(model, diag);
    QVERIFY2(sys, diag.str().c_str());
    const int c1 = sys->jointCoordinate(0), c2 = sys->jointCoordinate(1);
    QVERIFY(c1 >= 0 && c2 >= 0);
    // three-block elements: each link touches ground, its wheel and its coordinate
    const auto& links = sys->constraints();
    QCOMPARE(links[links.size() - 2]->blocks.size(), size_t(3));
    QCOMPARE(links.back()->label, std::string("coupling 'gear'"));

    SolverSpec spec;
    spec.integrator = IntegratorType::GeneralizedAlpha;
    spec.t_end = tEnd;
    spec.step = 1e-3;
    const RunResult r = integrate(*sys, spec);
    QVERIFY2(r.error.empty(), r.error.c_str());
    const double s1 = r.s.q(sys->block(c1).q0), s2 = r.s.q(sys->block(c2).q0);
    const double expected = tau * tEnd * tEnd / (2 * (J1 + ratio * ratio * J2));
    QVERIFY2(expected > 3 * kTurn, "the wheels turn several times");
    QVERIFY2(std::abs(s1 - expected) < 1e-8 * expected, (std::to_string(s1) + " vs " + std::to_string(expected)).c_str());
    QVERIFY2(std::abs(s2 - ratio * s1) < 1e-12 * std::abs(s2), std::to_string(s2 - ratio * s1).c_str());
    const double w1 = r.s.v(5), w2 = r.s.v(11);
    QVERIFY(std::abs(w2 - ratio * w1) < 1e-10 * std::abs(w2));
    const double kinetic = 0.5 * J1 * w1 * w1 + 0.5 * J2 * w2 * w2;
    QVERIFY2(std::abs(kinetic - tau * s1) < 1e-8 * kinetic, std::to_string(kinetic - tau * s1).c_str());
    // the gear's tooth loads do no net work: the constraint torques about z on the two wheels
    // (the bearings add none) satisfy tooth1 w1 + tooth2 w2 = 0, and each wheel obeys J a = torque
    const VecX load = constraintLoads(*sys, r.s, r.lambda);
    const double tooth1 = load(5), tooth2 = load(11);
    QVERIFY2(std::abs(tooth1 * w1 + tooth2 * w2) < 1e-9 * tau * std::abs(w1), std::to_string(tooth1 * w1 + tooth2 * w2).c_str());
    QVERIFY(std::abs(J1 * r.vdot(5) - (tau + tooth1)) < 1e-9 * tau);
    QVERIFY(std::abs(J2 * r.vdot(11) - tooth2) < 1e-9 * tau);
  }

  /// Couplings name what is wrong, by JSON path.
  void couplingErrors() {
    ModelSpec model;
    addWheel(model, "pinion", 0.0, 0.01);
    addWheel(model, "wheel", 0.3, 0.01);
    model.joints[1].type = JointType::Spherical;
    model.couplings = {{"gear", "pinion", "wheel", 2.0}, {"belt", "pinion", "pulley", 1.0}, {"idle", "pinion", "pinion", 1.0}};
    Diagnostics diag;
    QVERIFY(!System::compile(model, diag));
    const std::string all = diag.str();
    QVERIFY2(all.find("couplings[0].joint2: error: a spherical joint has no single coordinate to couple") != std::string::npos,
             all.c_str());
    QVERIFY2(all.find("couplings[1].joint2: error: no joint named 'pulley'") != std::string::npos, all.c_str());
    QVERIFY2(all.find("couplings[2].joint2: error: couples joint 'pinion' to itself") != std::string::npos,
             all.c_str());
  }

  /// Geometric stiffness d(G^T lambda)/dx of every joint type (analytic) and of the generic
  /// numerical default, against central differences of G^T lambda with the System's own
  /// retraction of q (so the tangent convention is the integrator's), for joints between two
  /// bodies and to ground.
  void geometricStiffnessOfJoints() {
    std::mt19937 rng(7);
    ModelSpec model;
    for (int b = 0; b < 2; ++b) {
      RigidBodySpec body{b ? "b" : "a", 1.0, Mat3::Identity(), test::randomVec(3, rng, 1.0)};
      body.orientation = Quat(test::randomRotation(rng));
      model.bodies.push_back(body);
    }
    Diagnostics diag;
    auto sys = System::compile(model, diag);
    QVERIFY(sys);
    const State s = sys->initialState();
    auto forcesAt = [&](const ConstraintElement& e, const VecX& q, const VecX& lambda, std::vector<VecX>& F) {
      std::vector<BodyKinematics> kin;
      sys->kinematics({0.0, q, s.v}, kin);
      ConstraintRows rows;
      rows.resize(e.rows(), {6, 6});
      e.evaluate(*sys, kin, 0.0, rows);
      F = {rows.G[0].transpose() * lambda, rows.G[1].transpose() * lambda};
    };
    const JointType types[] = {JointType::Spherical, JointType::Revolute,  JointType::Universal, JointType::Fixed,
                               JointType::Cylindrical, JointType::Prismatic, JointType::Planar};
    for (const bool toGround : {false, true})
      for (const JointType& type : types) {
        MarkerRef m1{toGround ? -1 : 0, test::randomVec(3, rng, 0.5), test::randomRotation(rng)};
        MarkerRef m2{1, test::randomVec(3, rng, 0.5), test::randomRotation(rng)};
        const auto e = makeJoint(type, m1, m2);
        const VecX lambda = test::randomVec(e->rows(), rng, 10.0);
        std::vector<BodyKinematics> kin;
        sys->kinematics(s, kin);
        ElementTangent analytic, numeric;
        analytic.resize({6, 6});
        numeric.resize({6, 6});
        e->addGeometricStiffness(*sys, kin, 0.0, lambda, 1.0, analytic);
        e->ConstraintElement::addGeometricStiffness(*sys, kin, 0.0, lambda, 1.0, numeric);
        const double eps = 1e-6;
        for (int side = 0; side < 2; ++side) {
          const int b = e->blocks[side];
          if (b < 0) continue;
          for (int i = 0; i < 6; ++i) {
            VecX dx = VecX::Zero(sys->nv()), qp = s.q, qm = s.q;
            dx(sys->block(b).v0 + i) = eps;
            sys->retract(qp, dx);
            sys->retract(qm, -dx);
            std::vector<VecX> Fp, Fm;
            forcesAt(*e, qp, lambda, Fp);
            forcesAt(*e, qm, lambda, Fm);
            for (int r = 0; r < 2; ++r) {
              if (e->blocks[r] < 0) continue;
              const VecX ref = (Fp[r] - Fm[r]) / (2 * eps);
              const std::string what = std::string(toString(type)) + (toGround ? " to ground" : "") + ", force on slot " +
                                       std::to_string(r) + ", tangent " + std::to_string(i) + " of slot " +
                                       std::to_string(side);
              const double scale = 1 + ref.norm();
              QVERIFY2((analytic.at(r, side).col(i) - ref).norm() < 1e-6 * scale, ("analytic: " + what).c_str());
              QVERIFY2((numeric.at(r, side).col(i) - ref).norm() < 1e-4 * scale, ("numerical default: " + what).c_str());
              if (!e->geometricStiffnessCouplesBlocks() && r != side)
                QVERIFY2(ref.norm() < 1e-6, ("declared uncoupled: " + what).c_str());
            }
          }
        }
      }
  }

  /// Joint limits say what is wrong by JSON path: a joint without a single coordinate, an empty
  /// range, and the integrator that cannot switch contacts.
  void jointLimitErrors() {
    ModelSpec model;
    addWheel(model, "pinion", 0.0, 0.01);
    addWheel(model, "wheel", 0.3, 0.01);
    model.joints[1].type = JointType::Spherical;
    model.limits = {{"a", "pinion", 1.0, 0.5}, {"b", "wheel", -1.0, 1.0}};
    model.solver.integrator = IntegratorType::Ida;
    const std::string all = validate(model).str();
    QVERIFY2(all.find("limits[0].upper: error: must be greater than lower") != std::string::npos, all.c_str());
    QVERIFY2(all.find("limits[1].joint: error: a spherical joint has no single coordinate to limit") != std::string::npos,
             all.c_str());
    QVERIFY2(all.find("simulation.integrator: error: joint limits (unilateral stops) need \"gen-alpha\"") !=
                 std::string::npos,
             all.c_str());
    Diagnostics diag;
    QVERIFY(!System::compile(model, diag));
    QCOMPARE(diag.str(), validate(model).str());  // the one validation, word for word
  }

  /// IDA refuses unilateral rows with a message naming the element.
  void idaRefusesUnilateralRows() {
    ModelSpec model;
    RigidBodySpec b{"block", 1.0, Mat3::Identity(), Vec3(0, 0, 1)};
    model.bodies = {b};
    Diagnostics diag;
    auto sys = System::compile(model, diag);
    QVERIFY(sys);
    sys->addConstraint(std::make_unique<FloorStop>(0, 0.0));
    auto integ = makeIda(*sys, model.solver);
    std::string error;
    const State s = sys->initialState();
    QVERIFY(!integ->initialize(s, VecX::Zero(sys->nv()), VecX::Zero(sys->nc()), error));
    QVERIFY2(error.find("stop under body 0") != std::string::npos && error.find("generalized-alpha") != std::string::npos,
             error.c_str());
  }

  /// Integrator::setStartingJerk: generalized-alpha's acceleration-like variable is the
  /// acceleration at t + (alpha_m - alpha_f) h, so a start at a = vdot leaves a lasting O(h^2)
  /// velocity error: the start-up error -(alpha_m - alpha_f) h v_ddot of a decays by
  /// -alpha_m / (1 - alpha_m) a step, and the velocity update sums it to
  /// -c (alpha_m - alpha_f) h^2 v_ddot, c = 0.056 for rho_inf 0.8
  /// (docs/theory/singular-configurations.md, 2026-12-02). A 1 kg mass on a 100 N/m spring,
  /// started at its rest length with v0 = 1 m/s (x = v0/w sin wt, v = v0 cos wt), 20 steps of
  /// 1e-3 s: the amplitude sqrt(v^2 + w^2 x^2) - v0 (the energy error; the phase error grows
  /// with the steps either way) with the exact v_ddot = -w^2 v0 at the start, without it, and
  /// with its sign wrong. Measured: 5.9e-9, -6.1e-7 (the estimate above: -6.2e-7), -1.2e-6 m/s.
  void genAlphaStartsFromTheShiftedAcceleration() {
    const double k = 100, mass = 1, v0 = 1, L0 = 0.5, h = 1e-3, omega = std::sqrt(k / mass);
    const int steps = 20;
    ModelSpec model;
    RigidBodySpec b{"mass", mass, 1e-3 * Mat3::Identity(), Vec3(L0, 0, 0)};
    b.velocity = Vec3(v0, 0, 0);
    b.markers = {{"c", Vec3::Zero(), Quat::Identity()}};
    model.bodies = {b};
    model.ground_markers = {{"anchor", Vec3::Zero(), Quat::Identity()}};
    ForceSpec spring;
    spring.name = "spring";
    spring.type = ForceSpec::Type::SpringDamper;
    spring.body1 = kGroundName;
    spring.marker1 = "anchor";
    spring.body2 = "mass";
    spring.marker2 = "c";
    spring.stiffness = k;
    spring.free_length = L0;
    model.forces = {spring};
    model.solver.integrator = IntegratorType::GeneralizedAlpha;
    model.solver.step = h;
    model.solver.rho_inf = 0.8;
    model.solver.t_end = steps * h;
    Diagnostics diag;
    auto sys = System::compile(model, diag);
    QVERIFY2(sys, diag.str().c_str());
    State s0 = sys->initialState();
    QCOMPARE(s0.v(0), v0);
    Consistency cons(*sys);
    VecX vdot, lambda;
    QVERIFY(cons.accelerations(s0, vdot, lambda));
    QVERIFY(std::abs(vdot(0)) < 1e-12);  // at the rest length
    // the amplitude error at the end; jerkSign 0: no starting jerk
    auto amplitudeError = [&](double jerkSign) {
      auto integ = makeGeneralizedAlpha(*sys, model.solver);
      if (jerkSign != 0) {
        VecX vddot = VecX::Zero(sys->nv());
        vddot(0) = jerkSign * -omega * omega * v0;
        integ->setStartingJerk(vddot);
      }
      std::string error;
      if (!integ->initialize(s0, vdot, lambda, error)) return std::numeric_limits<double>::infinity();
      while (integ->time() < model.solver.t_end - 1e-12)
        if (!integ->step(model.solver.t_end, error)) return std::numeric_limits<double>::infinity();
      State end;
      integ->currentState(end);
      return std::hypot(end.v(0), omega * (end.q(0) - L0)) - v0;
    };
    const double with = amplitudeError(1), without = amplitudeError(0), wrongSign = amplitudeError(-1);
    qInfo("amplitude error after %d steps: %.3e m/s with the starting jerk, %.3e without, %.3e with its sign wrong",
          steps, with, without, wrongSign);
    const double estimate = -0.056 * (1.0 / 3 - 4.0 / 9) * h * h * (-omega * omega * v0);  // alpha_m - alpha_f = -1/9
    QVERIFY2(std::abs(without - estimate) <= 0.1 * std::abs(estimate), qPrintable(QString::number(without)));
    QVERIFY2(std::abs(with) <= 0.05 * std::abs(without), qPrintable(QString("%1 against %2").arg(with).arg(without)));
    QVERIFY(std::abs(wrongSign) > 1.5 * std::abs(without));
  }
};

QTEST_GUILESS_MAIN(ContractTest)
#include "contract_test.moc"
