// Geometric stiffening load cases (core/fe/stiffening.h): the resultants of
// the unit inertia loads against the loads themselves, and the modal geometric stiffness of a
// rotating cantilever against Euler-Bernoulli beam theory (Southwell coefficients), on Kane's
// spin-up beam mesh (tests/reference/nlgeom/mesh_spin_20x2x1.inp, C3D20R); a free body's load
// cases solved on the eigen solution's factor against their own factorisation.
#include "core/fe/active_dofs.h"
#include "core/fe/assembly.h"
#include "core/fe/linear_constraints.h"
#include "core/fe/reduction.h"
#include "core/fe/stress.h"
#include "core/fe/stiffening.h"
#include "io/fe/calculix_inp.h"

#include <Eigen/Dense>
#include <QtTest>

#include <cmath>
#include <string>

using namespace flexim;
using namespace flexim::fe;

namespace {

const std::string kMesh = FLEXIM_SOURCE_DIR "/tests/reference/nlgeom/mesh_spin_20x2x1.inp";
constexpr double kLength = 10.0;

/// Kane's beam material: EI = 14000 N m^2, rho A = 1.2 kg/m on the 0.0774597 m square.
Material kaneMaterial() {
  Material m;
  m.name = "KANE";
  m.E = 4.6667e9;
  m.nu = 0.3;
  m.rho = 200.0;
  m.has_elastic = m.has_density = true;
  return m;
}

FeModel spinMesh() {
  FeModel mesh;
  Diagnostics diag;
  if (!io::readCalculixInp(kMesh, mesh, diag)) qWarning("%s", diag.str().c_str());
  return mesh;
}

/// The Euler-Bernoulli Southwell coefficient of cantilever mode `beta` (beta L of the mode):
/// d(omega^2)/d(Omega^2) = integral (L^2 - x^2)/2 phi'^2 dx / integral phi^2 dx for rotation
/// about an axis through the root, perpendicular to the beam (Rayleigh quotient of the
/// centrifugal tension rho A Omega^2 (L^2 - x^2)/2 with the non-rotating mode; Simpson's rule).
double southwell(double betaL) {
  const double b = betaL / kLength;
  const double sigma = (std::cosh(betaL) + std::cos(betaL)) / (std::sinh(betaL) + std::sin(betaL));
  const auto phi = [&](double x) {
    return std::cosh(b * x) - std::cos(b * x) - sigma * (std::sinh(b * x) - std::sin(b * x));
  };
  const auto dphi = [&](double x) {
    return b * (std::sinh(b * x) + std::sin(b * x) - sigma * (std::cosh(b * x) - std::cos(b * x)));
  };
  const int n = 2000;
  double num = 0, den = 0;
  for (int i = 0; i <= n; ++i) {
    const double x = kLength * i / n, w = (i == 0 || i == n) ? 1.0 : (i % 2 ? 4.0 : 2.0);
    num += w * 0.5 * (kLength * kLength - x * x) * dphi(x) * dphi(x);
    den += w * phi(x) * phi(x);
  }
  return num / den;
}

}  // namespace

class StiffeningTest : public QObject {
  Q_OBJECT

 private slots:
  void inertiaResultantsAreTheLoads() {
    // the resultant of -M (f0 + B x) summed over the nodes, on the mesh moved off its axes
    FeModel mesh = spinMesh();
    QVERIFY(mesh.nodeCount() == 393);
    const Eigen::Matrix3d R = Eigen::AngleAxisd(0.7, Eigen::Vector3d(1, -2, 0.5).normalized()).toRotationMatrix();
    for (Eigen::Vector3d& x : mesh.coords) x = R * x + Eigen::Vector3d(0.3, -1.2, 2.0);
    const Material steel = kaneMaterial();
    AssemblyOptions opt;
    opt.override_material = &steel;
    AssembledMatrices mats;
    Diagnostics diag;
    QVERIFY2(assemble(mesh, opt, mats, diag), diag.str().c_str());
    const ModalInvariants inv = computeInvariants(mesh.coords, scalarMass(mats.M), Eigen::MatrixXd::Zero(3 * 393, 0),
                                                  Eigen::MatrixXd::Zero(0, 0));
    const Eigen::Vector3d p(1.0, 0.5, -0.25);
    for (int c = 0; c < kInertiaLoadCases; ++c) {
      Eigen::Vector3d f0;
      Eigen::Matrix3d B;
      inertiaCaseField(c, f0, B);
      Eigen::VectorXd field(3 * 393);
      for (int k = 0; k < 393; ++k) field.segment<3>(3 * k) = f0 + B * mesh.coords[static_cast<std::size_t>(k)];
      const Eigen::VectorXd load = -(mats.M * field);
      Eigen::Matrix<double, 6, 1> direct = Eigen::Matrix<double, 6, 1>::Zero();
      for (int k = 0; k < 393; ++k) {
        direct.head<3>() += load.segment<3>(3 * k);
        direct.tail<3>() += (mesh.coords[static_cast<std::size_t>(k)] - p).cross(load.segment<3>(3 * k));
      }
      const Eigen::Matrix<double, 6, 1> fromInvariants = inertiaCaseResultant(c, inv.I1, inv.I2, inv.J0, p);
      QVERIFY2((fromInvariants - direct).norm() <= 1e-10 * std::max(direct.norm(), mats.mass),
               qPrintable(QString("case %1: %2 vs %3").arg(c).arg((fromInvariants - direct).norm()).arg(direct.norm())));
    }
    // the factors rebuild the load per unit mass g - a - alpha x x - omega x (omega x x)
    const Eigen::Vector3d a(0.3, -2, 1), alpha(-1, 0.5, 2), omega(3, -1, 0.25), g(0, -9.81, 0), x(0.4, 0.7, -1.1);
    const auto factors = inertiaLoadFactors(a, alpha, omega, g);
    Eigen::Vector3d sum = Eigen::Vector3d::Zero();
    for (int c = 0; c < kInertiaLoadCases; ++c) {
      Eigen::Vector3d f0;
      Eigen::Matrix3d B;
      inertiaCaseField(c, f0, B);
      sum -= factors[c] * (f0 + B * x);
    }
    QVERIFY((sum - (g - a - alpha.cross(x) - omega.cross(omega.cross(x)))).norm() < 1e-12);
  }

  void rotatingCantileverHasTheSouthwellCoefficients() {
    // Craig-Bampton on the root face; the centrifugal case of rotation about z balanced at the
    // root is the clamped beam's tension rho A Omega^2 (L^2 - x^2)/2: its diagonal on the
    // mass-normalised fixed-interface bending modes is d(omega^2)/d(Omega^2)
    const FeModel mesh = spinMesh();
    const Material kane = kaneMaterial();
    ReductionOptions opt;
    opt.method = ReductionOptions::Method::CraigBampton;
    opt.modes = 6;
    opt.material = &kane;
    opt.stress_modes = false;
    InterfaceSpec root;
    root.set = "ROOTFACE";
    root.kind = Interface::Kind::Rigid;
    opt.interfaces = {root};
    ReducedBody body;
    ReductionReport report;
    Diagnostics diag;
    QVERIFY2(reduce(mesh, opt, body, report, diag), diag.str().c_str());
    QCOMPARE(body.geometric_stiffness.size(), std::size_t(kInertiaLoadCases + 6));
    const int m = static_cast<int>(body.modes.cols());
    const auto clamped = balancedInertiaCases(body, m, 0);
    const auto free = balancedInertiaCases(body, m, -1);
    const Eigen::MatrixXd& Kz = clamped[8];  // omega_z^2
    QVERIFY((Kz - Kz.transpose()).norm() <= 1e-12 * Kz.norm());

    int tip = -1;
    for (int k = 0; k < mesh.nodeCount(); ++k)
      if ((mesh.coords[static_cast<std::size_t>(k)] - Eigen::Vector3d(kLength, 0, 0)).norm() < 1e-9) tip = k;
    QVERIFY(tip >= 0);
    // bending modes in y (in the plane of rotation) and z (out of it), in frequency order
    int found[2] = {0, 0};
    const double betaL[2] = {1.87510407, 4.69409113};
    for (int j = 6; j < m; ++j) {
      const Eigen::Vector3d u = body.modes.block<3, 1>(3 * tip, j);
      const int dir = std::abs(u.y()) > 10 * std::abs(u.z()) ? 0 : std::abs(u.z()) > 10 * std::abs(u.y()) ? 1 : -1;
      if (dir < 0 || std::abs(u.x()) > 0.1 * u.norm() || found[dir] >= 2) continue;
      const double expected = southwell(betaL[found[dir]]);
      const double got = Kz(j, j) / body.invariants.Mbar(j, j);
      qInfo("mode %d (bending in %c, %.3f rad/s): Southwell coefficient %.4f, beam theory %.4f", j + 1, dir ? 'z' : 'y',
            std::sqrt(body.eigenvalues(j)), got, expected);
      QVERIFY2(std::abs(got - expected) < 0.01 * expected, qPrintable(QString("%1 vs %2").arg(got).arg(expected)));
      // without the root's reaction the tension is the free body's: much smaller
      QVERIFY(free[8](j, j) / body.invariants.Mbar(j, j) < 0.5 * expected);
      ++found[dir];
    }
    QCOMPARE(found[0], 2);
    QCOMPARE(found[1], 2);
    QVERIFY(report.seconds_stiffening > 0.0);
    QVERIFY(QString::fromStdString(body.method).contains("geometric stiffening (18 load cases)"));
  }

  void geometricStiffnessOfUniformStressIsClosedForm() {
    // linear displacement fields give a uniform stress sigma on any mesh, and linear "modes"
    // x -> G x a constant gradient: phi_a^T K_G(sigma) phi_b = V tr(G_a sigma G_b^T) exactly
    const FeModel mesh = spinMesh();
    const Material kane = kaneMaterial();
    AssemblyOptions aopt;
    aopt.override_material = &kane;
    const Eigen::Index N = 3 * mesh.nodeCount();
    std::srand(7);
    std::vector<Eigen::Matrix3d> strain(3), gradient(4);
    for (Eigen::Matrix3d& e : strain) e = 1e-4 * Eigen::Matrix3d::Random();  // shears too (its symmetric part)
    for (Eigen::Matrix3d& g : gradient) g = Eigen::Matrix3d::Random();
    Eigen::MatrixXd U(N, 3), modes(N, 4);
    for (int k = 0; k < mesh.nodeCount(); ++k) {
      const Eigen::Vector3d& x = mesh.coords[static_cast<std::size_t>(k)];
      for (int c = 0; c < 3; ++c) U.block<3, 1>(3 * k, c) = strain[std::size_t(c)] * x;
      for (int a = 0; a < 4; ++a) modes.block<3, 1>(3 * k, a) = gradient[std::size_t(a)] * x;
    }
    std::vector<Eigen::MatrixXd> Kg;
    Diagnostics diag;
    QVERIFY2(modalGeometricStiffness(mesh, aopt, U, modes, Kg, diag), diag.str().c_str());
    QCOMPARE(Kg.size(), std::size_t(3));
    const double lambda = kane.E * kane.nu / ((1 + kane.nu) * (1 - 2 * kane.nu)), mu = kane.E / (2 * (1 + kane.nu));
    const double volume = kLength * 0.0774597 * 0.0774597;
    for (int c = 0; c < 3; ++c) {
      const Eigen::Matrix3d eps = 0.5 * (strain[std::size_t(c)] + strain[std::size_t(c)].transpose());
      const Eigen::Matrix3d sigma = lambda * eps.trace() * Eigen::Matrix3d::Identity() + 2 * mu * eps;
      Eigen::Matrix4d expected;
      for (int a = 0; a < 4; ++a)
        for (int b = 0; b < 4; ++b)
          expected(a, b) = volume * (gradient[std::size_t(a)] * sigma * gradient[std::size_t(b)].transpose()).trace();
      QVERIFY2((Kg[std::size_t(c)] - expected).norm() < 1e-6 * expected.norm(),
               qPrintable(QString("case %1: %2 of %3").arg(c).arg((Kg[std::size_t(c)] - expected).norm()).arg(expected.norm())));
    }
  }

  void freeBodyLoadCasesOnTheEigenFactorAreTheDirectOnes() {
    // a free body's load cases are solved by conjugate gradients on the shift-invert factor; the
    // direct solve on a statically determinate support differs by a rigid motion only, which
    // leaves the stresses, and so the geometric stiffness, the same
    struct Case {
      FeModel mesh;
      std::vector<InterfaceSpec> interfaces;
      const Material* material = nullptr;
    };
    const Material kane = kaneMaterial();
    std::vector<Case> cases(2);
    cases[0].mesh = spinMesh();
    cases[0].material = &kane;
    InterfaceSpec root;
    root.set = "ROOTFACE";
    root.kind = Interface::Kind::Rigid;
    cases[0].interfaces = {root};  // six interface load cases too
    {
      Diagnostics diag;
      QVERIFY2(io::readCalculixInp(FLEXIM_SOURCE_DIR "/tests/data/fe/tied/equation.inp", cases[1].mesh, diag),
               diag.str().c_str());
      QVERIFY(!cases[1].mesh.constraints.empty());  // the solve on the independent dofs
    }
    for (const Case& c : cases) {
      ReductionOptions opt;
      opt.modes = 8;
      opt.stress_modes = false;
      opt.interfaces = c.interfaces;
      opt.material = c.material;
      ReducedBody body;
      ReductionReport report;
      Diagnostics diag;
      QVERIFY2(reduce(c.mesh, opt, body, report, diag), diag.str().c_str());
      QVERIFY(c.mesh.nodeCount() * 3 > 300);  // the Lanczos path, not the dense one
      QVERIFY(report.stiffening_on_eigen_factor);
      QVERIFY(report.modal.static_iterations > 0);

      AssemblyOptions aopt;
      aopt.override_material = c.material;
      AssembledMatrices mats;
      QVERIFY2(assemble(c.mesh, aopt, mats, diag), diag.str().c_str());
      const Elimination tied = c.mesh.constraints.empty() ? Elimination{} : eliminateConstraints(c.mesh);
      Eigen::MatrixXd U;
      std::string error;
      QVERIFY2(stiffeningLoadCases(c.mesh.coords, mats.K, mats.M, activeDofs(mats.K, mats.M, c.mesh.nodeCount()),
                                   body.interfaces, U, error, c.mesh.constraints.empty() ? nullptr : &tied),
               error.c_str());
      std::vector<Eigen::MatrixXd> direct;
      QVERIFY2(modalGeometricStiffness(c.mesh, aopt, U, body.modes, direct, diag), diag.str().c_str());
      QCOMPARE(direct.size(), body.geometric_stiffness.size());
      // the balanced translational and angular acceleration cases are rounding in both (a free
      // body accelerates rigidly under them): measured against the largest case
      double largest = 0, worst = 0;
      for (const Eigen::MatrixXd& G : direct) largest = std::max(largest, G.norm());
      for (std::size_t l = 0; l < direct.size(); ++l)
        worst = std::max(worst, (body.geometric_stiffness[l] - direct[l]).norm() / std::max(direct[l].norm(), 1e-6 * largest));
      qInfo("%d nodes: %d iterations, largest relative difference %.2e", c.mesh.nodeCount(), report.modal.static_iterations,
            worst);
      // the direct solve's own rounding on the slender beam (cond ~ 1e10) is ~1e-7: a tighter
      // tolerance of the iteration changes nothing
      QVERIFY2(worst < 1e-6, qPrintable(QString::number(worst)));
    }
  }

  void stiffeningCanBeLeftOut() {
    const FeModel mesh = spinMesh();
    const Material kane = kaneMaterial();
    ReductionOptions opt;
    opt.modes = 4;
    opt.material = &kane;
    opt.stress_modes = false;
    opt.geometric_stiffening = false;
    ReducedBody body;
    ReductionReport report;
    Diagnostics diag;
    QVERIFY2(reduce(mesh, opt, body, report, diag), diag.str().c_str());
    QVERIFY(body.geometric_stiffness.empty());
    QVERIFY(!QString::fromStdString(body.method).contains("stiffening"));
  }
};

QTEST_GUILESS_MAIN(StiffeningTest)
#include "stiffening_test.moc"
