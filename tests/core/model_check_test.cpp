// Model check before a run: DOF count, redundant constraints named, bodies left unconstrained,
// initial assembly; compile errors name the item. Redundant constraint sets run, and their
// reactions are the documented split (least weighted norm).
#include "recording_sink.h"

#include "core/run/consistency.h"
#include "core/system/system.h"

#include <Eigen/Dense>
#include <QtTest>

#include <cmath>
#include <numbers>

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

/// The four-bar without dependent rows: jC spherical, jB universal with perpendicular pins.
ModelSpec nonRedundantFourBarModel() {
  ModelSpec m = fourBar(JointType::Spherical);
  m.joints[1].type = JointType::Universal;
  m.bodies[1].markers[0].orientation = Quat::FromTwoVectors(Vec3::UnitZ(), Vec3::UnitY());
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
    // a note, not an error: the model runs as written
    QVERIFY2(QString::fromStdString(c.str()).contains("note: redundant constraints, solved as they are: joint 'j"),
             c.str().c_str());
  }

  void nonRedundantFourBar() {
    // replacing one revolute by a spherical and another by a universal removes the redundancy:
    // 5 + 5 + 3 + 4 = 17 rows, mobility 18 - 17 = 1
    // universal cross pins: marker z axes must be perpendicular; the coupler's marker is turned
    ModelSpec m = nonRedundantFourBarModel();
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

  void redundantFourBarRunsWithBothIntegrators() {
    for (IntegratorType integrator : {IntegratorType::GeneralizedAlpha, IntegratorType::Ida}) {
      ModelSpec m = fourBar();
      m.gravity = Vec3(0, -9.81, 0);
      m.solver.integrator = integrator;
      m.solver.t_end = 0.5;
      m.solver.step = 1e-3;
      Diagnostics diag;
      auto sim = Simulation::create(m, diag);
      QVERIFY(sim);
      test::RecordingSink sink;
      const RunSummary sum = sim->run({&sink});
      QVERIFY2(sum.ok, sum.str().c_str());
      QCOMPARE(sum.t_reached, 0.5);
      QVERIFY2(sum.max_constraint_residual < 1e-9, sum.str().c_str());
      // the results say that the reactions are one split among many
      QCOMPARE(sum.notes.size(), size_t(1));
      QVERIFY2(QString::fromStdString(sum.notes[0]).contains("least weighted norm"), sum.notes[0].c_str());
    }
  }

  void redundantReactionsAreTheLeastWeightedNormSplit() {
    // at a moving state of the redundant four-bar: the multipliers satisfy the equations of
    // motion and the constraints, and equal an independent dense minimum-norm solution
    ModelSpec m = fourBar();
    m.gravity = Vec3(0, -9.81, 0);
    m.bodies[0].angular_velocity = Vec3(0, 0, 2.0);
    Diagnostics diag;
    auto sys = System::compile(m, diag);
    QVERIFY2(sys, diag.str().c_str());
    Consistency cons(*sys);
    State s = sys->initialState();
    double res = 0, vres = 0;
    std::string err;
    QVERIFY2(cons.assemblePositions(s, 1e-13, 50, res, err), err.c_str());
    QVERIFY(cons.projectVelocities(s, vres, true));
    cons.setRegularization(KktMatrix::Regularization::Always);
    VecX vdot, lambda;
    QVERIFY(cons.accelerations(s, vdot, lambda));

    const int nv = sys->nv(), nc = sys->nc();
    std::vector<BodyKinematics> kin;
    std::vector<ConstraintRows> rows;
    sys->kinematics(s, kin);
    sys->constraints(kin, s.t, rows);
    Eigen::MatrixXd G = Eigen::MatrixXd::Zero(nc, nv), M = Eigen::MatrixXd::Zero(nv, nv);
    VecX gamma(nc), f;
    for (size_t c = 0; c < rows.size(); ++c) {
      const int off = sys->constraintOffsets()[c];
      gamma.segment(off, rows[c].gamma.size()) = rows[c].gamma;
      for (size_t k = 0; k < rows[c].G.size(); ++k)
        if (const int b = sys->constraints()[c]->blocks[k]; b >= 0)
          G.block(off, sys->block(b).v0, rows[c].G[k].rows(), rows[c].G[k].cols()) = rows[c].G[k];
    }
    for (int b = 0; b < sys->nblocks(); ++b) {
      MatX Mb;
      sys->massMatrix(kin, b, Mb);
      M.block(sys->block(b).v0, sys->block(b).v0, Mb.rows(), Mb.cols()) = Mb;
    }
    sys->forces(kin, s.t, f);
    // equations of motion and acceleration constraints, relative to the load scale
    const double load = std::max(f.lpNorm<Eigen::Infinity>(), (M * vdot).lpNorm<Eigen::Infinity>());
    const double eom = (M * vdot - f + G.transpose() * lambda).lpNorm<Eigen::Infinity>();
    QVERIFY2(eom <= 1e-9 * load, qPrintable(QString("equations of motion residual %1 of %2").arg(eom).arg(load)));
    QVERIFY2((G * vdot + gamma).lpNorm<Eigen::Infinity>() < 1e-9, "acceleration constraints");
    // independent: lambda* = argmin lambda^T W lambda subject to G^T lambda = f - M vdot, with
    // W_i = sum_j G_ij^2 / M_jj (docs/theory/redundant-constraints.md): lambda* = W^-1 G y,
    // (G^T W^-1 G) y = f - M vdot, y by a rank-revealing dense decomposition
    VecX w(nc);
    for (int i = 0; i < nc; ++i) w(i) = (G.row(i).array().square() / M.diagonal().transpose().array()).sum();
    const Eigen::MatrixXd WiG = w.cwiseInverse().asDiagonal() * G;
    const VecX y = (G.transpose() * WiG).completeOrthogonalDecomposition().solve(f - M * vdot);
    const VecX reference = WiG * y;
    const double diff = (lambda - reference).lpNorm<Eigen::Infinity>();
    QVERIFY2(diff <= 1e-7 * reference.lpNorm<Eigen::Infinity>(),
             qPrintable(QString("multipliers differ from the least-weighted-norm split by %1 (scale %2)")
                            .arg(diff)
                            .arg(reference.lpNorm<Eigen::Infinity>())));
    // and that split is a real choice: the redundant rows carry load that another split moves
    Eigen::FullPivLU<Eigen::MatrixXd> lu(G.transpose());
    QCOMPARE(static_cast<int>(lu.kernel().cols()), 3);
  }

  void contradictoryDriversFailNamingTheDriverAndTheSteps() {
    // two motors on one crank at different speeds agree at t = 0 only (so one is a dependent row
    // there): both integrators stop, naming a driver (the real cause, not a joint at round-off)
    // and the step size history
    for (IntegratorType integrator : {IntegratorType::GeneralizedAlpha, IntegratorType::Ida}) {
      ModelSpec m = nonRedundantFourBarModel();
      DriverSpec fast, slow;
      fast.name = "fast";
      slow.name = "slow";
      fast.joint = slow.joint = "jA";
      fast.function.type = slow.function.type = TimeFunctionSpec::Type::ConstantSpeed;
      fast.function.speed = 2.0;
      slow.function.speed = 1.0;
      fast.function.initial = slow.function.initial = std::numbers::pi / 2;  // the crank starts along y
      m.drivers = {fast, slow};
      m.solver.integrator = integrator;
      m.solver.t_end = 0.1;
      m.solver.step = 1e-3;
      Diagnostics diag;
      auto sim = Simulation::create(m, diag);
      QVERIFY2(sim, diag.str().c_str());
      test::RecordingSink sink;
      const RunSummary sum = sim->run({&sink});
      QVERIFY(!sum.ok);
      const QString msg = QString::fromStdString(sum.message);
      QVERIFY2(msg.contains("driver '"), sum.message.c_str());
      QVERIFY2(msg.contains("last accepted steps") || msg.contains("no step accepted"), sum.message.c_str());
    }
  }

  void loopThatDoesNotCloseIsAnErrorNamingTheJoints() {
    // the links are too short to span the ground pivots: no assembly exists; the run fails at
    // once naming a loop joint, and the sinks still see the end
    ModelSpec m = nonRedundantFourBarModel();
    m.ground_markers[1].position = Vec3(10, 0, 0);  // 1 + 2.06 + 1.5 m of links cannot span 10 m
    m.solver.t_end = 0.1;
    Diagnostics diag;
    auto sim = Simulation::create(m, diag);
    QVERIFY(sim);
    test::RecordingSink sink;
    const RunSummary sum = sim->run({&sink});
    QVERIFY(!sum.ok);
    const QString msg = QString::fromStdString(sum.message);
    QVERIFY2(msg.contains("positions could not be assembled") && msg.contains("joint 'j"), sum.message.c_str());
    QCOMPARE(sink.summary.ok, false);
  }
};

QTEST_APPLESS_MAIN(ModelCheckTest)
#include "model_check_test.moc"
