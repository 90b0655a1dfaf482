// Linearization about the static equilibrium (Simulation::linearize) against hand-derived
// frequencies: the double pendulum of two uniform rods hanging straight down, and the straight
// clamped-free beam (A L²/I = 4800) whose bending and axial frequencies are classical: bending
// 3.5160, 22.0345, 61.6972 and axial 108.828 in units of √(EI/ρAL⁴), converging with the number
// of elements (the mass is lumped at the nodes).
#include "core/run/linearization.h"
#include "core/system/beam_elements.h"
#include "io/model_json.h"

#include <QtTest>

#include <cmath>
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

LinearizationResult linearize(const ModelSpec& m) {
  Diagnostics diag;
  auto sim = Simulation::create(m, diag);
  if (!sim) qFatal("%s", diag.str().c_str());
  return sim->linearize({});
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
