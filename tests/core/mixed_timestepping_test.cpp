// The mixed timestepping schemes and the contact solver against independent references:
// generalized-alpha's parameters from rho_inf; the spectral radius and period error of each base
// scheme on q'' + w^2 q = 0 against the closed-form amplification matrices (Rezaei and Schindler,
// Appendices A and B: generalized-alpha eqs. 95-96; Bathe eq. 106 with its rows in the order
// q, h v, h^2 a) and against tabulated values; the prox equations' solutions against the
// complementarity and cone conditions; Newton's impact law on single impacts; a ball's bounce
// heights (eps^2 per bounce); a block on a slope sticking or sliding with a = g (sin a - mu cos a).
#include "core/integrators/contact_solver.h"
#include "core/integrators/mixed_timestepping.h"
#include "io/model_json.h"
#include "recording_sink.h"

#include <QtTest>

#include <Eigen/Eigenvalues>
#include <Eigen/LU>

#include <cmath>
#include <complex>
#include <numbers>

using namespace flexim;
using flexim::test::RecordingSink;

namespace {

constexpr double kPi = std::numbers::pi;

enum class Base { GenAlpha, Bathe, EdAlpha };

/// One step of a base scheme on q'' = -w^2 q from the state X = (q, h v, h^2 a) (generalized-
/// alpha: h^2 A, with a_n = -w^2 q_n), through the same stage maps as the integrator.
Eigen::Vector3d stepOnTestEquation(Base base, double rho, double Omega, const Eigen::Vector3d& X) {
  const double h = 1.0, w2 = Omega * Omega;  // h = 1: Omega = w h
  VecX q(1), v(1), a(1);
  q << X(0);
  v << X(1);
  a << X(2);
  auto solve1 = [&](const SchemeStages& s) {  // x + w^2 (q + dbar + cq x) = 0
    return VecX((-w2 * (q + s.dbar[0])) / (1 + w2 * s.CQ[0][0]));
  };
  if (base == Base::GenAlpha) {
    const auto c = GeneralizedAlphaCoefficients::fromRho(rho);
    VecX an(1);
    an << -w2 * X(0);
    const SchemeStages s = c.stage(h, v, an, a);
    const VecX x = solve1(s);
    return {q(0) + s.dbar[0](0) + s.CQ[0][0] * x(0), s.vbar[0](0) + s.CV[0][0] * x(0), c.auxiliary(x, an, a)(0)};
  }
  if (base == Base::Bathe) {
    const SchemeStages s1 = BatheStages::first(h, v, a);
    const VecX x1 = solve1(s1);
    const VecX vHalf = s1.vbar[0] + s1.CV[0][0] * x1, dHalf = s1.dbar[0] + s1.CQ[0][0] * x1;
    const SchemeStages s2 = BatheStages::second(h, v, vHalf, dHalf);
    const VecX x2 = solve1(s2);
    return {q(0) + s2.dbar[0](0) + s2.CQ[0][0] * x2(0), s2.vbar[0](0) + s2.CV[0][0] * x2(0), x2(0)};
  }
  const SchemeStages s = EdAlphaCoefficients::fromRho(rho).stages(h, v, a);
  Eigen::Matrix2d A;
  Eigen::Vector2d b;
  for (int i = 0; i < 2; ++i) {
    b(i) = -w2 * (q(0) + s.dbar[i](0));
    for (int j = 0; j < 2; ++j) A(i, j) = (i == j ? 1.0 : 0.0) + w2 * s.CQ[i][j];
  }
  const Eigen::Vector2d x = A.partialPivLu().solve(b);
  return {q(0) + s.dbar[1](0) + s.CQ[1][0] * x(0) + s.CQ[1][1] * x(1),
          s.vbar[1](0) + s.CV[1][0] * x(0) + s.CV[1][1] * x(1), x(1)};
}

Eigen::Matrix3d amplification(Base base, double rho, double Omega) {
  Eigen::Matrix3d A;
  for (int j = 0; j < 3; ++j) A.col(j) = stepOnTestEquation(base, rho, Omega, Eigen::Vector3d::Unit(j));
  return A;
}

/// Spectral radius and period elongation T_numerical / T - 1 at dt/T.
std::pair<double, double> radiusAndPeriodError(const Eigen::Matrix3d& A, double Omega) {
  const Eigen::Vector3cd ev = A.eigenvalues();
  double rho = 0, arg = 0, principal = -1;
  for (int i = 0; i < 3; ++i) {
    rho = std::max(rho, std::abs(ev(i)));
    // the principal roots are the complex pair (the spurious root is real)
    if (std::abs(ev(i).imag()) > 1e-14 && std::abs(ev(i)) > principal) {
      principal = std::abs(ev(i));
      arg = std::abs(std::arg(ev(i)));
    }
  }
  return {rho, arg > 0 ? Omega / arg - 1 : 0.0};
}

/// Generalized-alpha's amplification matrix, Rezaei and Schindler eq. (96), state (q, h v, h^2 A).
Eigen::Matrix3d genAlphaClosedForm(double rho, double W) {
  const auto c = GeneralizedAlphaCoefficients::fromRho(rho);
  const double am = c.am, af = c.af, g = c.gamma, b = c.beta, W2 = W * W;
  const double D = 1 - am + (1 - af) * b * W2;
  Eigen::Matrix3d A;
  A << 1 - am - af * b * W2, 1 - am, (0.5 - b) * (1 - am) - b * am,  //
      -g * W2, 1 - am - (1 - af) * (g - b) * W2, (1 - g) * (1 - am) - g * am - (1 - af) * (g / 2 - b) * W2,  //
      -W2, -(1 - af) * W2, -(1 - af) * (0.5 - b) * W2 - am;
  return A / D;
}

/// Bathe's amplification matrix, eq. (106) with its rows in the order (q, h v, h^2 a).
Eigen::Matrix3d batheClosedForm(double W) {
  const double W2 = W * W, W4 = W2 * W2, D = (16 + W2) * (9 + W2);
  Eigen::Matrix3d A;
  A << 144 - 19 * W2, 144 - 5 * W2, 28,  //
      -96 * W2 + W4, 144 - 47 * W2, 48 - 4 * W2,  //
      -144 * W2 + 19 * W4, -144 * W2 + 5 * W4, -28 * W2;
  return A / D;
}

MarkerSpec marker(const std::string& name, const Vec3& p = Vec3::Zero(), const Quat& q = Quat::Identity()) {
  return {name, p, q};
}

/// A point mass of 2 kg at height z0 above a ground plane through the origin (normal: the plane
/// marker's z axis, turned by `slope` about y), under gravity g along -z.
ModelSpec ballOnPlane(double z0, const Vec3& v0, double eps, double mu, IntegratorType integ, double slope = 0) {
  ModelSpec m;
  m.gravity = Vec3(0, 0, -9.81);
  PointMassSpec p;
  p.name = "ball";
  p.mass = 2.0;
  const Quat tilt(Eigen::AngleAxisd(slope, Vec3::UnitY()));
  p.position = tilt * Vec3(0, 0, z0);
  p.velocity = v0;
  p.markers = {marker("c")};
  m.point_masses = {p};
  m.ground_markers = {marker("floor", Vec3::Zero(), tilt)};
  ContactSpec c;
  c.name = "floor";
  c.type = ContactSpec::Type::PointPlane;
  c.body1 = "ball";
  c.marker1 = "c";
  c.body2 = "ground";
  c.marker2 = "floor";
  c.restitution = eps;
  c.friction = mu;
  m.contacts = {c};
  SensorSpec s;
  s.name = "ball";
  s.type = SensorSpec::Type::Marker;
  s.body = "ball";
  s.marker = "c";
  s.quantities = {"position", "velocity"};
  m.sensors = {s};
  m.solver.integrator = integ;
  m.solver.step = 1e-4;
  m.solver.output_interval = 1e-4;
  m.solver.t_end = 1.0;
  m.solver.rho_inf = 0.5;
  return m;
}

}  // namespace

class MixedTimesteppingTest : public QObject {
  Q_OBJECT

 private slots:
  void generalizedAlphaParametersFromRho() {
    // Chung-Hulbert's optimal parameters (table of the implementation notes)
    const struct {
      double rho, am, af, gamma, beta;
    } rows[] = {{0.0, -1, 0, 1.5, 1.0}, {0.5, 0, 1.0 / 3, 5.0 / 6, 4.0 / 9},
                {0.8, 1.0 / 3, 4.0 / 9, 0.611111111, 0.308641975}, {1.0, 0.5, 0.5, 0.5, 0.25}};
    for (const auto& r : rows) {
      const auto c = GeneralizedAlphaCoefficients::fromRho(r.rho);
      QVERIFY(std::abs(c.am - r.am) < 1e-8 && std::abs(c.af - r.af) < 1e-8);
      QVERIFY(std::abs(c.gamma - r.gamma) < 1e-8 && std::abs(c.beta - r.beta) < 1e-8);
      // second order (98) and unconditional stability (100)
      QVERIFY(std::abs(c.gamma - (0.5 - c.am + c.af)) < 1e-15);
      QVERIFY(c.am <= c.af + 1e-15 && c.af <= 0.5 + 1e-15 && c.beta >= 0.25 + 0.5 * (c.af - c.am) - 1e-15);
    }
  }

  void amplificationMatricesAreTheClosedForms() {
    for (double W : {0.05, 0.7, 3.0, 40.0}) {
      for (double rho : {0.0, 0.5, 0.8, 1.0}) {
        const Eigen::Matrix3d diff = amplification(Base::GenAlpha, rho, W) - genAlphaClosedForm(rho, W);
        QVERIFY2(diff.cwiseAbs().maxCoeff() < 1e-12, qPrintable(QString("gen-alpha rho %1 W %2").arg(rho).arg(W)));
      }
      const Eigen::Matrix3d diff = amplification(Base::Bathe, 0, W) - batheClosedForm(W);
      QVERIFY2(diff.cwiseAbs().maxCoeff() < 1e-12, qPrintable(QString("Bathe W %1").arg(W)));
    }
  }

  void spectralRadiusAndPeriodErrorAsTabulated() {
    // spectral radius and period elongation at dt/T = 0.05, 0.1, 0.5 (implementation notes'
    // table, computed from the paper's formulas with ED-alpha's c7 and c14 corrected)
    struct Col {
      Base base;
      double rho;
      double r05, pe05, r10, pe10, r50;
    };
    const Col cols[] = {
        {Base::GenAlpha, 0.0, 0.99649, 0.03908, 0.96971, 0.12321, 0.54576},
        {Base::GenAlpha, 0.5, 0.99983, 0.01216, 0.99773, 0.04672, 0.86823},
        {Base::GenAlpha, 0.8, 0.99999, 0.00862, 0.99990, 0.03383, 0.98595},
        {Base::GenAlpha, 1.0, 1.00000, 0.00817, 1.00000, 0.03207, 1.00000},
        {Base::Bathe, 0.0, 0.99997, 0.00410, 0.99949, 0.01618, 0.89468},
        {Base::EdAlpha, 0.0, 0.99987, 0.00004, 0.99793, 0.00057, 0.66074},
        {Base::EdAlpha, 0.5, 0.99996, 0.00002, 0.99930, 0.00025, 0.83953},
    };
    for (const Col& c : cols) {
      const QString what = QString("scheme %1 rho %2").arg(int(c.base)).arg(c.rho);
      auto at = [&](double ratio) { return radiusAndPeriodError(amplification(c.base, c.rho, 2 * kPi * ratio), 2 * kPi * ratio); };
      const auto [r05, pe05] = at(0.05);
      const auto [r10, pe10] = at(0.10);
      const auto [r50, pe50] = at(0.50);
      QVERIFY2(std::abs(r05 - c.r05) < 1e-5 && std::abs(r10 - c.r10) < 1e-5 && std::abs(r50 - c.r50) < 1e-5,
               qPrintable(what + QString(": radius %1 %2 %3").arg(r05).arg(r10).arg(r50)));
      QVERIFY2(std::abs(pe05 - c.pe05) < 1e-5 && std::abs(pe10 - c.pe10) < 1e-5,
               qPrintable(what + QString(": period error %1 %2").arg(pe05).arg(pe10)));
      (void)pe50;
    }
    // high-frequency limits: generalized-alpha and ED-alpha -> rho_inf, Bathe -> 0
    const double big = 1e6;
    QVERIFY(std::abs(radiusAndPeriodError(amplification(Base::GenAlpha, 0.5, big), big).first - 0.5) < 1e-3);
    QVERIFY(std::abs(radiusAndPeriodError(amplification(Base::EdAlpha, 0.5, big), big).first - 0.5) < 1e-3);
    QVERIFY(radiusAndPeriodError(amplification(Base::Bathe, 0, big), big).first < 1e-4);
    QVERIFY(radiusAndPeriodError(amplification(Base::EdAlpha, 0.0, big), big).first < 1e-4);
    // unconditionally stable over a sweep (rho_inf = 1 has a double root at -1 in the limit,
    // which no eigenvalue solver resolves to better than sqrt(eps))
    for (double W = 0.01; W < 1e4; W *= 1.7)
      for (Base b : {Base::GenAlpha, Base::Bathe, Base::EdAlpha})
        for (double rho : {0.0, 0.5, 0.9})
          QVERIFY2(radiusAndPeriodError(amplification(b, rho, W), W).first <= 1 + 1e-9,
                   qPrintable(QString("scheme %1 rho %2 W %3: %4").arg(int(b)).arg(rho).arg(W).arg(
                       radiusAndPeriodError(amplification(b, rho, W), W).first - 1)));
  }

  void proxSolutionsAreComplementaryAndInTheCone() {
    // two spatial contact points with coupled velocities; random right-hand sides
    std::srand(7);
    for (int trial = 0; trial < 200; ++trial) {
      ContactProblem p;
      p.offset = {0, 3};
      p.tangents = {2, 2};
      p.mu = {0.3, 0.8};
      p.r = {0.1, 0.1};
      const MatX B = MatX::Random(6, 6);
      p.D = B * B.transpose() + 0.1 * MatX::Identity(6, 6);
      p.F = VecX::Random(6);
      p.kappa = 1.0;
      VecX lambda;
      ContactSolveReport report;
      QVERIFY(solveContactProblem(p, {}, lambda, report));
      const VecX gdot = p.F + p.D * lambda;
      for (int k = 0; k < 2; ++k) {
        const int o = p.offset[std::size_t(k)];
        const double lN = lambda(o), gN = gdot(o);
        QVERIFY(lN >= -1e-9 && gN >= -1e-8 && std::abs(lN * gN) < 1e-8);
        const Eigen::Vector2d lT = lambda.segment<2>(o + 1), gT = gdot.segment<2>(o + 1);
        QVERIFY(lT.norm() <= p.mu[std::size_t(k)] * lN * (1 + 1e-8) + 1e-10);
        if (gT.norm() > 1e-7) {  // slip: on the cone's edge, opposing the slip
          QVERIFY(std::abs(lT.norm() - p.mu[std::size_t(k)] * lN) < 1e-7 * (1 + lN));
          QVERIFY(lT.dot(gT) <= 1e-9 - 0.999 * lT.norm() * gT.norm());
        }
      }
    }
  }

  void dependentContactsTakeThePseudoInverse() {
    // four points on the same direction (a slider with zero clearance): D has rank 1
    ContactProblem p;
    p.offset = {0, 1, 2, 3};
    p.tangents = {0, 0, 0, 0};
    p.mu = {0, 0, 0, 0};
    p.r = {0.1, 0.1, 0.1, 0.1};
    const VecX w = VecX::Ones(4);
    p.D = w * w.transpose();
    p.F = VecX::Constant(4, -2.0);
    VecX lambda;
    ContactSolveReport report;
    QVERIFY(solveContactProblem(p, {}, lambda, report));
    const VecX gdot = p.F + p.D * lambda;
    QVERIFY(gdot.cwiseAbs().maxCoeff() < 1e-9);
    QVERIFY(std::abs(lambda.sum() - 2.0) < 1e-9 && lambda.minCoeff() >= -1e-12);
  }

  void singleImpactObeysNewtonsLaw() {
    // a point mass thrown at the floor at 45 degrees: the normal velocity reverses times eps, the
    // tangential one keeps what friction leaves (slip: Lambda_T = -mu Lambda_N opposing it)
    for (IntegratorType integ : {IntegratorType::MixedGenAlpha, IntegratorType::MixedBathe,
                                 IntegratorType::MixedEdAlpha, IntegratorType::Moreau,
                                 IntegratorType::Hets}) {
      const double eps = 0.6, mu = 0.2, vz = -3.0, vx = 3.0;
      ModelSpec m = ballOnPlane(0.01, Vec3(vx, 0, vz), eps, mu, integ);
      m.gravity.setZero();
      m.solver.t_end = 0.01;
      RecordingSink sink;
      const RunSummary sum = flexim::test::runModel(m, sink);
      QVERIFY2(sum.ok, sum.message.c_str());
      std::size_t hit = 0;
      for (std::size_t i = 0; i < sink.samples.size(); ++i)
        if (sink.value(i, "floor.impacts") > 0) {
          hit = i;
          break;
        }
      QVERIFY2(hit > 0, qPrintable(QString("no impact with %1").arg(toString(integ))));
      const double LN = sink.value(hit, "floor.normal_impulse");
      const double after = sink.value(hit, "ball.velocity.z"), tangential = sink.value(hit, "ball.velocity.x");
      QVERIFY(LN > 0);
      QVERIFY2(std::abs(after - (-eps * vz)) < 1e-9, qPrintable(QString("%1: %2").arg(toString(integ)).arg(after)));
      // slip: the tangential impulse is mu Lambda_N against the slip
      QVERIFY(std::abs(sink.value(hit, "floor.tangential_impulse.1") * 0 + std::hypot(sink.value(hit, "floor.tangential_impulse.1"),
                                                                                    sink.value(hit, "floor.tangential_impulse.2")) -
                       mu * LN) < 1e-9 * LN);
      QVERIFY(std::abs(tangential - (vx - mu * LN / 2.0)) < 1e-9);
      QVERIFY(sink.value(hit, "floor.status") == 2);  // slipping
    }
  }

  void ballBouncesToEpsSquaredOfItsHeight() {
    const double H = 0.5, eps = 0.7;
    for (IntegratorType integ : {IntegratorType::MixedGenAlpha, IntegratorType::MixedBathe,
                                 IntegratorType::MixedEdAlpha, IntegratorType::Moreau,
                                 IntegratorType::Hets}) {
      ModelSpec m = ballOnPlane(H, Vec3::Zero(), eps, 0.0, integ);
      m.solver.t_end = 1.2;  // first impact at 0.319 s, apex after it at 0.319 + 0.7 * 0.319
      RecordingSink sink;
      const RunSummary sum = flexim::test::runModel(m, sink);
      QVERIFY2(sum.ok, sum.message.c_str());
      double apex = 0;
      bool bounced = false;
      for (std::size_t i = 0; i < sink.samples.size(); ++i) {
        bounced = bounced || sink.value(i, "floor.impacts") > 0;
        if (bounced) apex = std::max(apex, sink.value(i, "ball.position.z"));
      }
      QVERIFY(bounced);
      // first order in the impact time: an error of up to g h |v| ~ 3e-3 m per bounce
      QVERIFY2(std::abs(apex - eps * eps * H) < 2e-3,
               qPrintable(QString("%1: apex %2 m, expected %3").arg(toString(integ)).arg(apex).arg(eps * eps * H)));
    }
    // a plastic impact: the ball stays
    ModelSpec m = ballOnPlane(H, Vec3::Zero(), 0.0, 0.0, IntegratorType::MixedBathe);
    RecordingSink sink;
    QVERIFY(flexim::test::runModel(m, sink).ok);
    const std::size_t last = sink.samples.size() - 1;
    QVERIFY(std::abs(sink.value(last, "ball.velocity.z")) < 1e-9);
    QVERIFY(std::abs(sink.value(last, "ball.position.z")) < 1e-3);
    QVERIFY(std::abs(sink.value(last, "floor.normal_force") - 2.0 * 9.81) < 1e-6);
  }

  void blockOnASlopeSticksOrSlides() {
    const double alpha = 0.3, g = 9.81;
    for (IntegratorType integ : {IntegratorType::MixedGenAlpha, IntegratorType::MixedBathe,
                                 IntegratorType::MixedEdAlpha, IntegratorType::Moreau,
                                 IntegratorType::Hets}) {
      for (double mu : {0.4, 0.2}) {  // tan(0.3) = 0.309
        ModelSpec m = ballOnPlane(0.0, Vec3::Zero(), 0.0, mu, integ, alpha);
        m.solver.t_end = 0.5;
        RecordingSink sink;
        const RunSummary sum = flexim::test::runModel(m, sink);
        QVERIFY2(sum.ok, sum.message.c_str());
        const std::size_t last = sink.samples.size() - 1;
        const Vec3 p(sink.value(last, "ball.position.x"), sink.value(last, "ball.position.y"),
                     sink.value(last, "ball.position.z"));
        const Vec3 down(std::cos(alpha), 0, -std::sin(alpha));  // down the slope (plane turned about y)
        const double s = p.dot(down), t = sink.samples[last].t;
        const double expected = mu > std::tan(alpha) ? 0.0 : 0.5 * g * (std::sin(alpha) - mu * std::cos(alpha)) * t * t;
        const double tol = integ == IntegratorType::Moreau || integ == IntegratorType::Hets ? 2e-3 : 1e-6;
        QVERIFY2(std::abs(s - expected) < tol * std::max(1.0, expected),
                 qPrintable(QString("%1 mu %2: %3 m down the slope, expected %4").arg(toString(integ)).arg(mu).arg(s).arg(expected)));
        QVERIFY(sink.value(last, "floor.status") == (mu > std::tan(alpha) ? 1 : 2));
        QVERIFY2(std::abs(sink.value(last, "floor.normal_force") - 2.0 * g * std::cos(alpha)) < 1e-6,
                 qPrintable(QString("%1 mu %2: normal force %3 N").arg(toString(integ)).arg(mu).arg(sink.value(last, "floor.normal_force"))));
      }
    }
  }

  /// The clearance slider-crank of Table 1 with zero clearance, frictionless and plastic: its
  /// four corner contacts hold the slider on the guide, so it is the slider-crank with a prismatic
  /// joint, run by IDA at rtol 1e-11 as the reference. Errors in the crank's angular velocity and
  /// the slider's position over 0.05 s (every 1 ms) at three steps give the order: Moreau ~1,
  /// the mixed schemes ~2. The slider starts with zero vertical velocity (kinematically
  /// consistent initial conditions).
  void convergenceOrderOnTheBilateralSliderCrank() {
    ModelSpec m;
    Diagnostics diag;
    QVERIFY2(io::loadModelFile(FLEXIM_SOURCE_DIR "/resources/examples/slider_crank_clearance_rigid.json", m, diag),
             diag.str().c_str());
    m.contacts[0].parameters["clearance"] = 0.0;
    m.contacts[0].friction = 0.0;
    m.contacts[0].restitution = 0.0;
    m.solver.t_end = 0.05;
    m.solver.output_interval = 1e-3;
    // the reference: a prismatic joint along the guide
    ModelSpec ref = m;
    ref.contacts.clear();
    const Quat alongX = Quat::FromTwoVectors(Vec3::UnitZ(), Vec3::UnitX());
    ref.ground_markers.push_back(marker("rail", Vec3::Zero(), alongX));
    ref.bodies[2].markers.push_back(marker("rail", Vec3::Zero(), alongX));
    ref.joints.push_back({"guide", JointType::Prismatic, "ground", "rail", "slider", "rail"});
    ref.solver.integrator = IntegratorType::Ida;
    ref.solver.rtol = 1e-11;
    ref.solver.atol = 1e-13;
    ref.solver.step = 0;
    RecordingSink reference;
    QVERIFY(flexim::test::runModel(ref, reference).ok);
    QVERIFY(std::abs(reference.value(0, "slider.velocity.y")) < 1e-12);
    auto error = [&](const RecordingSink& run) {
      double e = 0;
      for (std::size_t i = 0; i < run.samples.size(); ++i) {
        e = std::max(e, std::abs(run.value(i, "crank.angular_velocity.z") - reference.value(i, "crank.angular_velocity.z")) /
                            150.0);
        e = std::max(e, std::abs(run.value(i, "slider.position.x") - reference.value(i, "slider.position.x")) / 0.459);
      }
      return e;
    };
    const struct {
      IntegratorType integ;
      double order;
    } schemes[] = {{IntegratorType::MixedGenAlpha, 2}, {IntegratorType::MixedBathe, 2},
                   {IntegratorType::MixedEdAlpha, 2}, {IntegratorType::Moreau, 1},
                   {IntegratorType::Hets, 1}};
    for (const auto& scheme : schemes) {
      std::vector<double> errors;
      for (double h : {2e-4, 1e-4, 5e-5}) {
        ModelSpec k = m;
        k.solver.integrator = scheme.integ;
        k.solver.step = h;
        k.solver.rho_inf = 0.5;
        RecordingSink run;
        const RunSummary sum = flexim::test::runModel(k, run);
        QVERIFY2(sum.ok, sum.message.c_str());
        QVERIFY(run.samples.size() == reference.samples.size());
        QVERIFY2(std::abs(run.value(0, "slider.velocity.y")) < 1e-12, qPrintable(QString::number(run.value(0, "slider.velocity.y"))));
        errors.push_back(error(run));
      }
      const double p1 = std::log2(errors[0] / errors[1]), p2 = std::log2(errors[1] / errors[2]);
      qInfo("%s: errors %.3g %.3g %.3g, orders %.2f %.2f", toString(scheme.integ), errors[0], errors[1], errors[2], p1, p2);
      QVERIFY2(std::abs(p2 - scheme.order) <= 0.3,
               qPrintable(QString("%1: order %2 (errors %3, %4, %5)").arg(toString(scheme.integ)).arg(p2).arg(errors[0]).arg(errors[1]).arg(errors[2])));
    }
  }

  /// The flexible rod of the clearance slider-crank lying on the floor on FE node contacts at its
  /// two end axis nodes, under gravity, damped: it comes to rest with each end carrying half its
  /// weight and sags at mid-span by Euler-Bernoulli's 5 q L^4 / (384 EI) (q from the contact
  /// forces, I of the 4.5 mm section): 3.6 % less, within 5 % (8 free-free elastic modes represent
  /// a simply supported static shape with a truncation error of a few per cent; the mesh is coarse).
  void flexibleRodRestsOnNodeContacts() {
    ModelSpec m;
    Diagnostics diag;
    const std::string json = R"({"schema_version": 1, "gravity": [0, 0, -9.81],
      "ground": {"markers": [{"name": "floor"}]},
      "flexible_bodies": [{"name": "rod", "file": "rod/rod_clearance_c3d10.frb", "modes": 14,
                           "damping": {"ratio": 0.2}}],
      "contacts": [{"name": "ends", "type": "nodes_plane", "body1": "rod", "nodes": [1, 675], "body2": "ground",
                    "marker2": "floor"}],
      "sensors": [{"name": "mid", "type": "deflection", "body": "rod", "node": 438, "chord": [1, 675],
                   "quantities": ["deflection"]}],
      "simulation": {"t_end": 0.1, "step": 1e-4, "output_interval": 1e-3, "integrator": "mixed-bathe"}})";
    QVERIFY2(io::loadModelString(json, m, diag, "<rod on the floor>", FLEXIM_SOURCE_DIR "/resources/examples"),
             diag.str().c_str());
    RecordingSink sink;
    const RunSummary sum = flexim::test::runModel(m, sink);
    QVERIFY2(sum.ok, sum.message.c_str());
    const std::size_t last = sink.samples.size() - 1;
    const double F1 = sink.value(last, "ends_1.normal_force"), F2 = sink.value(last, "ends_675.normal_force");
    const double L = 0.306, d = 4.5e-3, E = 2e11, I = std::numbers::pi * std::pow(d, 4) / 64;
    const double q = (F1 + F2) / L;
    QVERIFY2(std::abs(F1 - F2) < 1e-6 * (F1 + F2), qPrintable(QString("%1 %2").arg(F1).arg(F2)));
    QVERIFY2(std::abs(F1 + F2 - 0.038 * 9.81) < 0.01 * 0.038 * 9.81, qPrintable(QString::number(F1 + F2)));
    const double sag = -sink.value(last, "mid.deflection.z"), expected = 5 * q * std::pow(L, 4) / (384 * E * I);
    qInfo("mid-span sag %.4g m, Euler-Bernoulli %.4g m (%.2f %%)", sag, expected, 100 * (sag / expected - 1));
    QVERIFY2(std::abs(sag / expected - 1) < 0.05, qPrintable(QString("%1 against %2").arg(sag).arg(expected)));
  }

  /// A joint limit is a contact of the mixed schemes: the pendulum of pendulum_stop.json hits its
  /// lower stop and leaves it with -eps times the rate it came with.
  void jointLimitObeysTheImpactLaw() {
    ModelSpec m;
    Diagnostics diag;
    QVERIFY2(io::loadModelFile(FLEXIM_SOURCE_DIR "/resources/examples/pendulum_stop.json", m, diag), diag.str().c_str());
    m.limits[0].restitution = 0.5;
    m.solver.integrator = IntegratorType::MixedBathe;
    m.solver.step = 1e-4;
    m.solver.output_interval = 1e-4;
    RecordingSink sink;
    const RunSummary sum = flexim::test::runModel(m, sink);
    QVERIFY2(sum.ok, sum.message.c_str());
    bool hit = false;
    for (std::size_t i = 1; i < sink.samples.size() && !hit; ++i) {
      const double before = sink.value(i - 1, "hinge.velocity.rotation"), after = sink.value(i, "hinge.velocity.rotation");
      if (before < -0.5 && after > 0) {  // the first bounce off the lower stop
        hit = true;
        // the rate one step before the impact step differs from the pre-impact one by g h / L ~ 1e-3
        QVERIFY2(std::abs(after / before + 0.5) < 0.01, qPrintable(QString("%1 -> %2").arg(before).arg(after)));
      }
    }
    QVERIFY(hit);
    // gen-alpha's stops are plastic: a restitution is refused there, naming the limit
    m.solver.integrator = IntegratorType::GeneralizedAlpha;
    m.solver.step = 5e-4;
    Diagnostics refused;
    QVERIFY(!Simulation::create(m, refused));
    QVERIFY2(refused.str().find("limit 'stop' has a restitution") != std::string::npos, refused.str().c_str());
  }

  void smoothModelsRunWithoutContacts() {
    // without contacts the schemes are their base schemes: a pendulum's period against IDA
    ModelSpec m;
    m.gravity = Vec3(0, -9.81, 0);
    RigidBodySpec b{"bob", 1.0, Mat3::Identity() * 1e-4, Vec3(1, 0, 0)};
    b.markers = {marker("pivot", Vec3(-1, 0, 0))};
    m.bodies = {b};
    m.ground_markers = {marker("pivot")};
    m.joints = {{"pin", JointType::Revolute, "ground", "pivot", "bob", "pivot"}};
    SensorSpec s;
    s.name = "bob";
    s.body = "bob";
    s.marker = "pivot";
    s.type = SensorSpec::Type::Marker;
    s.quantities = {"position"};
    SensorSpec c = s;
    c.name = "centre";
    m.bodies[0].markers.push_back(marker("c"));
    c.marker = "c";
    m.sensors = {c};
    m.solver.t_end = 1.0;
    m.solver.output_interval = 1e-3;
    m.solver.step = 0;
    m.solver.rtol = 1e-10;
    m.solver.atol = 1e-12;
    RecordingSink ref;
    QVERIFY(flexim::test::runModel(m, ref).ok);
    for (IntegratorType integ : {IntegratorType::MixedGenAlpha, IntegratorType::MixedBathe, IntegratorType::MixedEdAlpha,
                                 IntegratorType::Moreau, IntegratorType::Hets}) {
      const bool firstOrder = integ == IntegratorType::Moreau || integ == IntegratorType::Hets;
      ModelSpec k = m;
      k.solver.integrator = integ;
      k.solver.step = firstOrder ? 1e-4 : 1e-3;
      k.solver.rho_inf = 0.8;
      RecordingSink sink;
      const RunSummary sum = flexim::test::runModel(k, sink);
      QVERIFY2(sum.ok, sum.message.c_str());
      const std::size_t last = sink.samples.size() - 1;
      const double err = std::abs(sink.value(last, "centre.position.y") - ref.value(last, "centre.position.y"));
      QVERIFY2(err < 2e-3, qPrintable(QString("%1: %2").arg(toString(integ)).arg(err)));
      QVERIFY2(!sum.warning(), (sum.quality.warnings.empty() ? "" : sum.quality.warnings.front().c_str()));
    }
  }

  /// The energy balance of a model with contacts closes with the contacts' work (friction
  /// forces, and impulses at the mean of the normal velocities before and after): the block of
  /// block_sliding.json loses its 1/2 m v^2 = 2 J to friction, and the ball dropped from H loses
  /// (1 - eps^2) m g H in its first impact (up to its penetration of at most v h). With ED-alpha
  /// the block also stops (its stage at t_n^+ takes the contact forces of the step's end: held
  /// there on velocity level, the slip that stops within the step needed unbounded forces, the
  /// step shrank to 1e-9 s and the block was thrown up, which this balance flagged).
  void energyBalanceClosesWithTheContactsWork() {
    ModelSpec block;
    Diagnostics diag;
    QVERIFY2(io::loadModelFile(FLEXIM_SOURCE_DIR "/resources/examples/block_sliding.json", block, diag), diag.str().c_str());
    for (IntegratorType integ : {IntegratorType::MixedGenAlpha, IntegratorType::MixedBathe, IntegratorType::MixedEdAlpha,
                                 IntegratorType::Moreau, IntegratorType::Hets}) {
      block.solver.integrator = integ;
      RecordingSink sink;
      const RunSummary sum = flexim::test::runModel(block, sink);
      QVERIFY2(sum.ok && !sum.warning(),
               qPrintable(QString("%1: %2 %3").arg(toString(integ), sum.message.c_str(),
                                                   sum.quality.warnings.empty() ? "" : sum.quality.warnings[0].c_str())));
      QVERIFY(sum.quality.energy_known && sum.quality.energy_checked);
      QVERIFY2(std::abs(sum.quality.work_contacts + 2.0) < 1e-5,
               qPrintable(QString("%1: %2 J").arg(toString(integ)).arg(sum.quality.work_contacts, 0, 'g', 12)));
    }
    const double H = 0.5, eps = 0.7, mass = 2.0, g = 9.81;
    ModelSpec ball = ballOnPlane(H, Vec3::Zero(), eps, 0.0, IntegratorType::MixedBathe);
    ball.solver.t_end = 0.6;  // impacts at 0.319 s and 0.766 s
    RecordingSink sink;
    const RunSummary sum = flexim::test::runModel(ball, sink);
    QVERIFY2(sum.ok && !sum.warning(), sum.message.c_str());
    const double expected = -(1 - eps * eps) * mass * g * H;
    QVERIFY2(std::abs(sum.quality.work_contacts - expected) < 2e-3 * std::abs(expected),
             qPrintable(QString("%1 J, expected %2 J").arg(sum.quality.work_contacts).arg(expected)));
  }

  /// HETS is explicit in the forces: the flexible clearance slider-crank's rod (eight modes, up to
  /// about 2 kHz) needs a step below 2/omega = 1.6e-4 s. A larger step is refused before the run
  /// with the body and the step it needs; a smaller one runs, close to Bathe's solution.
  /// Generalized-alpha with rho_inf 0.8 and a step of less than two per period of the rod's
  /// highest mode runs, with a note that names the rod.
  void stepsAgainstTheStiffestBody() {
    ModelSpec m;
    Diagnostics diag;
    QVERIFY2(io::loadModelFile(FLEXIM_SOURCE_DIR "/resources/examples/slider_crank_clearance_flexible.json", m, diag),
             diag.str().c_str());
    m.solver.integrator = IntegratorType::Hets;
    m.solver.t_end = 0.02;
    m.solver.step = 3e-4;
    RecordingSink refused;
    RunSummary sum = flexim::test::runModel(m, refused);
    QVERIFY(!sum.ok);
    QVERIFY2(sum.message.find("'rod' vibrates at up to") != std::string::npos &&
                 sum.message.find("needs a step below") != std::string::npos,
             sum.message.c_str());
    m.solver.step = 1e-4;
    RecordingSink hets;
    sum = flexim::test::runModel(m, hets);
    QVERIFY2(sum.ok, sum.message.c_str());
    m.solver.integrator = IntegratorType::MixedBathe;
    m.solver.step = 1e-5;
    RecordingSink bathe;
    QVERIFY(flexim::test::runModel(m, bathe).ok);
    const std::size_t last = hets.samples.size() - 1;
    QVERIFY(last == bathe.samples.size() - 1);
    const double w = hets.value(last, "crank.angular_velocity.z"), ref = bathe.value(last, "crank.angular_velocity.z");
    QVERIFY2(std::abs(w - ref) < 0.01 * std::abs(ref), qPrintable(QString("%1 rad/s, Bathe %2").arg(w).arg(ref)));
    auto noted = [](const RunSummary& r) {
      for (const std::string& n : r.notes)
        if (n.find("'rod' vibrates at up to") != std::string::npos && n.find("less than two steps per period") != std::string::npos)
          return true;
      return false;
    };
    m.solver.integrator = IntegratorType::MixedGenAlpha;
    m.solver.rho_inf = 0.8;
    m.solver.t_end = 0.003;
    for (double h : {3e-4, 1e-5}) {
      m.solver.step = h;
      RecordingSink sink;
      sum = flexim::test::runModel(m, sink);
      QVERIFY2(sum.ok, sum.message.c_str());
      QVERIFY(noted(sum) == (h > 1e-4));
    }
  }
};

QTEST_GUILESS_MAIN(MixedTimesteppingTest)
#include "mixed_timestepping_test.moc"
