// Linearization (Simulation::linearize) against hand-derived frequencies: the double pendulum of
// two uniform rods hanging straight down; the rigid slider-crank held by a spring on its slider;
// a pendulum released from rest, about the state of a run at its release and at its half period;
// the straight clamped-free beam (A L²/I = 4800) whose bending and axial frequencies are
// classical: bending 3.5160, 22.0345, 61.6972 and axial 108.828 in units of √(EI/ρAL⁴),
// converging with the number of elements (the mass is lumped at the nodes); and the frequency
// responses of a mass on a damped mount against 1/(k − mω² + icω).
#include "core/run/linearization.h"
#include "core/system/beam_elements.h"
#include "io/model_json.h"

#include <QtTest>

#include <cmath>
#include <complex>
#include <numbers>

using namespace flexim;

namespace {

ModelSpec example(const char* name) {
  ModelSpec m;
  Diagnostics diag;
  if (!io::loadModelFile(std::string(FLEXIM_SOURCE_DIR "/resources/examples/") + name, m, diag))
    qFatal("%s", diag.str().c_str());
  return m;
}

LinearizationResult linearize(const ModelSpec& m, const LinearizeOptions& options = {}) {
  Diagnostics diag;
  auto sim = Simulation::create(m, diag);
  if (!sim) qFatal("%s", diag.str().c_str());
  return sim->linearize(options);
}

Quat aboutZ(double angle) { return Quat(Eigen::AngleAxisd(angle, Vec3::UnitZ())); }

/// rod1 of double_pendulum.json alone (uniform, 1 kg, 1 m, hinged at one end about z, gravity
/// −9.81 along y), at rest at `below` radians under the horizontal.
ModelSpec pendulum(double below) {
  ModelSpec m = example("double_pendulum.json");
  m.bodies.resize(1);
  m.joints.resize(1);
  m.sensors.clear();
  m.bodies[0].position = Vec3(0.5 * std::cos(below), -0.5 * std::sin(below), 0);
  m.bodies[0].orientation = aboutZ(-below);
  m.solver.rtol = 1e-10;
  m.solver.atol = 1e-12;
  return m;
}

/// A straight planar cantilever along x: L = 2 m, 0.1 m square steel (A L²/I = 4800), n
/// elements, clamped at x = 0 and held in its plane.
ModelSpec cantilever(int n) {
  ModelSpec m;
  BeamMemberSpec member;
  member.name = "b";
  member.length = 2.0;
  member.elements = n;
  member.element.formulation = "planar";
  member.element.youngs_modulus = 207e9;
  member.element.area = 0.01;
  member.element.iy = member.element.iz = std::pow(0.1, 4) / 12;
  meshBeamMember(m, member);
  m.ground_markers.push_back({"root", Vec3::Zero(), Quat::Identity()});
  for (BeamNodeSpec& node : m.beam_nodes) node.markers.push_back({"m", Vec3::Zero(), Quat::Identity()});
  m.joints.push_back({"clamp", JointType("fixed"), "ground", "root", "b_0", "m", {}});
  for (std::size_t i = 1; i < m.beam_nodes.size(); ++i)
    m.joints.push_back({"plane_" + std::to_string(i), JointType("planar"), "ground", "root", m.beam_nodes[i].name, "m", {}});
  return m;
}

}  // namespace

class LinearizationTest : public QObject {
  Q_OBJECT

 private slots:
  /// double_pendulum.json (two uniform rods, m = 1 kg, L = 1 m, hinged about z, gravity 9.81)
  /// hangs straight down; with the rods' angles, M = [4/3 1/2; 1/2 1/3] m L², K = [3/2 0; 0 1/2]
  /// m g L, so ω² = g (42 ∓ √1008)/14 (from 7x² − 42 g x + 27 g² = 0): 2.6801 and 7.1887 rad/s.
  void doublePendulumHangingFrequencies() {
    const LinearizationResult r = linearize(example("double_pendulum.json"));
    QVERIFY2(r.ok, r.message.c_str());
    QCOMPARE(int(r.N.cols()), 2);
    QCOMPARE(int(r.modes.size()), 2);
    const double g = 9.81;
    const double w1 = std::sqrt(g * (42 - std::sqrt(1008.0)) / 14), w2 = std::sqrt(g * (42 + std::sqrt(1008.0)) / 14);
    qInfo("ω = %.10f, %.10f rad/s (hand: %.10f, %.10f)", r.modes[0].omega, r.modes[1].omega, w1, w2);
    QVERIFY(std::abs(r.modes[0].omega / w1 - 1) < 1e-8);
    QVERIFY(std::abs(r.modes[1].omega / w2 - 1) < 1e-8);
    QVERIFY(std::abs(r.modes[0].damping_ratio) < 1e-12);
  }

  /// slider_crank_rigid.json without its motor, at crank angle θ = 60°, a spring k = 1000 N/m on
  /// the slider along the rail, unstretched there: one degree of freedom about an equilibrium
  /// without preload, so ω² = k x_B'² / m_eff with m_eff = J_O + m_rod |v_G|² + J_rod φ'² +
  /// m_slider x_B'² (per unit crank rate) from the closed-form kinematics: x_B = r cos θ +
  /// √(l² − r² sin² θ), rod angle φ = atan2(−r sin θ, √(l² − r² sin² θ)).
  void sliderCrankOnASpring() {
    ModelSpec m = example("slider_crank_rigid.json");
    const double r = 0.15, l = 0.3, theta = std::numbers::pi / 3, k = 1000;
    const double c = std::cos(theta), s = std::sin(theta), w = std::sqrt(l * l - r * r * s * s);
    const Vec3 A(r * c, r * s, 0), B(r * c + w, 0, 0);
    m.drivers.clear();
    m.sensors.clear();
    m.bodies[0].position = A / 2;
    m.bodies[0].orientation = aboutZ(theta);
    m.bodies[1].position = (A + B) / 2;
    m.bodies[1].orientation = aboutZ(std::atan2(-r * s, w));
    m.bodies[2].position = B;
    m.ground_markers.push_back({"anchor", B + Vec3(1, 0, 0), Quat::Identity()});
    ForceSpec spring;
    spring.name = "spring";
    spring.type = ForceType("spring_damper");
    spring.body1 = "ground";
    spring.marker1 = "anchor";
    spring.body2 = "slider";
    spring.marker2 = "center";
    spring.stiffness = k;
    spring.free_length = 1.0;
    m.forces.push_back(spring);

    const double xB = -r * s - r * r * s * c / w;                                // dx_B/dθ
    const Vec3 vG = 0.5 * (Vec3(-r * s, r * c, 0) + Vec3(xB, 0, 0));            // rod centre
    const double phi = (w * (-r * c) - (-r * s) * (-r * r * s * c / w)) / (l * l);  // dφ/dθ
    const double JO = m.bodies[0].inertia(2, 2) + m.bodies[0].mass * r * r / 4;
    const double mEff = JO + m.bodies[1].mass * vG.squaredNorm() + m.bodies[1].inertia(2, 2) * phi * phi +
                        m.bodies[2].mass * xB * xB;
    const double omega = std::sqrt(k * xB * xB / mEff);

    const LinearizationResult res = linearize(m);
    QVERIFY2(res.ok, res.message.c_str());
    QCOMPARE(int(res.N.cols()), 1);
    QCOMPARE(int(res.modes.size()), 1);
    qInfo("slider-crank on a spring: ω = %.10f rad/s (hand: %.10f)", res.modes[0].omega, omega);
    QVERIFY(std::abs(res.modes[0].omega / omega - 1) < 1e-8);
  }

  /// A uniform rod hinged at one end, released at rest 30° under the horizontal: linearized
  /// about the state of a run at its release and at its half period (at rest again, mirrored,
  /// from the complete elliptic integral: T = 4 K(sin(θ_a/2)) √(J_O / m g d) with θ_a = 60° from
  /// the vertical), ω² = m g d cos θ_a / J_O both times, the reaction there taken from the
  /// equations of motion (not the static one).
  void pendulumAboutStatesOfARun() {
    const double below = std::numbers::pi / 6, amplitude = std::numbers::pi / 2 - below;
    const double mgd = 9.81 * 0.5, JO = 1.0 / 3.0;
    const double period = 4 * std::comp_ellint_1(std::sin(amplitude / 2)) * std::sqrt(JO / mgd);
    const double omega = std::sqrt(mgd * std::cos(amplitude) / JO);
    for (double at : {0.0, period / 2}) {
      LinearizeOptions options;
      options.at_time = at;
      const LinearizationResult r = linearize(pendulum(below), options);
      QVERIFY2(r.ok, r.message.c_str());
      QCOMPARE(int(r.N.cols()), 1);
      qInfo("at t = %.6f s: ω = %.10f rad/s (hand: %.10f), state at t = %.6f", at, r.modes[0].omega, omega, r.state.t);
      QVERIFY(std::abs(r.state.t - at) < 1e-12);
      QVERIFY(std::abs(r.modes[0].omega / omega - 1) < 1e-6);
    }
    // the static equilibrium of the same pendulum hangs straight down: ω² = m g d / J_O
    const LinearizationResult hanging = linearize(pendulum(below));
    QVERIFY2(hanging.ok, hanging.message.c_str());
    QVERIFY(std::abs(hanging.modes[0].omega / std::sqrt(mgd / JO) - 1) < 1e-8);
  }

  /// engine_mount.json: a 120 kg block on a bushing (kz = 3e5 N/m, cz = 600 N s/m; 3000 N m/rad,
  /// 3 N m s/rad and Jx = 3.2 kg m² about x). The responses z/fz and rx/mx are the
  /// single-degree-of-freedom 1/(k − mω² + icω) at every frequency, resonance (50 rad/s) included, and the state-space matrices
  /// give the same through C (iω − A)⁻¹ B.
  void mountFrequencyResponses() {
    LinearizeOptions options;
    options.inputs = {"engine.fz", "engine.mx"};
    options.outputs = {"engine.z", "engine.rx"};
    const LinearizationResult r = linearize(example("engine_mount.json"), options);
    QVERIFY2(r.ok, r.message.c_str());
    QCOMPARE(int(r.B.cols()), 2);
    QCOMPARE(int(r.C.rows()), 2);
    using Complex = std::complex<double>;
    for (double f : {0.5, 5.0, 7.95775, 12.0, 60.0}) {
      const double w = 2 * std::numbers::pi * f;
      const Eigen::MatrixXcd h = frequencyResponse(r, w);
      const Complex z = 1.0 / Complex(3e5 - 120 * w * w, 600 * w), rx = 1.0 / Complex(3000 - 3.2 * w * w, 3 * w);
      qInfo("f = %g Hz: |z/fz| = %.6e (hand %.6e), |rx/mx| = %.6e (hand %.6e)", f, std::abs(h(0, 0)), std::abs(z),
            std::abs(h(1, 1)), std::abs(rx));
      qInfo("  relative error %.2e, %.2e", std::abs(h(0, 0) - z) / std::abs(z), std::abs(h(1, 1) - rx) / std::abs(rx));
      // the bushing's stiffness is exact to ~1e-11; near resonance the response magnifies it
      QVERIFY(std::abs(h(0, 0) - z) < 1e-8 * std::abs(z));
      QVERIFY(std::abs(h(1, 1) - rx) < 1e-8 * std::abs(rx));
      QVERIFY(std::abs(h(0, 1)) < 1e-12 * std::abs(z) && std::abs(h(1, 0)) < 1e-12 * std::abs(rx));  // uncoupled
      const Eigen::MatrixXcd iwA = Complex(0, w) * Eigen::MatrixXcd::Identity(r.A.rows(), r.A.cols()) - r.A.cast<Complex>();
      const Eigen::MatrixXcd stateSpace = r.C.cast<Complex>() * iwA.partialPivLu().solve(r.B.cast<Complex>());
      QVERIFY((stateSpace - h).norm() < 1e-9 * h.norm());
    }
    // a name that is no body's, or no component, is refused before any solve
    options.inputs = {"engine.fq"};
    const LinearizationResult bad = linearize(example("engine_mount.json"), options);
    QVERIFY(!bad.ok);
    QVERIFY2(bad.message.find("unknown component 'fq'") != std::string::npos, bad.message.c_str());
  }

  /// The straight cantilever's first bending and axial frequencies against the classical values,
  /// with 8, 16 and 32 elements: closer at each, within 1.2 % at 32. The nodes carry the
  /// elements' mass lumped (second order) and the section's rotary inertia, which the classical
  /// Euler–Bernoulli values leave out: it lowers mode k by about (β_k L)² I / (2 A L²), 0.04 %,
  /// 0.2 % and 0.6 % for the first three, so those are the limits the bending modes approach.
  void cantileverFrequenciesConverge() {
    const double bending[3] = {3.5160, 22.0345, 61.6972}, axial = 108.828;
    const double E = 207e9, A = 0.01, I = std::pow(0.1, 4) / 12, rho = 7850, L = 2.0;
    const double unit = std::sqrt(E * I / (rho * A * std::pow(L, 4)));
    double previous[4] = {1, 1, 1, 1};
    for (int n : {8, 16, 32}) {
      const LinearizationResult r = linearize(cantilever(n));
      QVERIFY2(r.ok, r.message.c_str());
      QCOMPARE(int(r.N.cols()), 3 * n);  // x, y, rotation per free node
      std::vector<double> w;
      for (const LinearMode& mode : r.modes) w.push_back(mode.omega / unit);
      // the axial mode: the one nearest 108.8 among the lowest six
      double axialFound = w[3];
      for (int i = 3; i < 6; ++i)
        if (std::abs(w[i] - axial) < std::abs(axialFound - axial)) axialFound = w[i];
      const double found[4] = {w[0], w[1], w[2], axialFound};
      const double exact[4] = {bending[0], bending[1], bending[2], axial};
      for (int k = 0; k < 4; ++k) {
        const double error = std::abs(found[k] / exact[k] - 1);
        qInfo("n = %d: mode %d %.4f (exact %.4f), error %.2e", n, k + 1, found[k], exact[k], error);
        QVERIFY2(error < previous[k], "converges");
        if (n == 32) QVERIFY2(error < 0.012, qPrintable(QString("mode %1 at 32 elements: %2").arg(k + 1).arg(error)));
        previous[k] = error;
      }
    }
  }
};

QTEST_GUILESS_MAIN(LinearizationTest)
#include "linearization_test.moc"
