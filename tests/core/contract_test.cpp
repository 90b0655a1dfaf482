// The element contract: a unilateral row plugged in from outside the core (a ground stop under
// a falling block) switching active and inactive, with the KKT pattern re-analysed on the
// switches only.
#include "core/integrators/integrator.h"
#include "core/run/consistency.h"
#include "core/system/joints.h"
#include "core/system/system.h"

#include "random_helpers.h"

#include <QtTest>

#include <algorithm>
#include <cmath>

using namespace flexim;

namespace {

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
      for (const JointType type : types) {
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
};

QTEST_GUILESS_MAIN(ContractTest)
#include "contract_test.moc"
