// Nodal stress recovery (core/fe/stress.h): the patch test on distorted meshes
// of every element type, von Mises and principal stresses against closed forms, and CalculiX
// 2.20's nodal stresses of static solutions (tests/data/fe/stress, scripts/make_stress_fixtures.py):
// ccx's displacement field fed to nodalStresses gives ccx's .frd stresses, and the cantilever's
// bending stress is M c / I.
#include "core/fe/element_library.h"
#include "core/fe/reduction.h"
#include "core/fe/stress.h"
#include "io/fe/calculix_inp.h"
#include "tests/core_fe/fe_test_support.h"

#include <Eigen/Dense>
#include <Eigen/Eigenvalues>
#include <QtTest>

#include <array>
#include <cmath>
#include <map>
#include <numbers>
#include <random>
#include <string>

using namespace flexim;
using namespace flexim::fe;
using namespace flexim::fe::test;

namespace {

const std::string kDir = kData + "stress/";

// Abaqus brick corners of the unit cell
constexpr int kHex[8][3] = {{0, 0, 0}, {1, 0, 0}, {1, 1, 0}, {0, 1, 0}, {0, 0, 1}, {1, 0, 1}, {1, 1, 1}, {0, 1, 1}};
// brick faces, normal into the brick (a pyramid on each, apex at the cell centre)
constexpr int kHexFaces[6][4] = {{0, 1, 2, 3}, {4, 7, 6, 5}, {0, 4, 5, 1}, {1, 5, 6, 2}, {2, 6, 7, 3}, {3, 7, 4, 0}};


/// A block of 2 x 2 x 2 cells (size 0.02 x 0.01 x 0.015 m) meshed with type t (bricks, 2 wedges,
/// 6 tetrahedra or 6 pyramids per cell), every node moved randomly by up to 8 % of a cell, so
/// that quadratic elements get curved edges; plus one node in no element (the last).
FeModel distortedBlock(ElementType t) {
  const ElementKind& kind = elementKind(t);
  const Eigen::Vector3d cell(0.01, 0.005, 0.0075);
  FeModel m;
  std::map<std::array<int, 3>, int> index;  // lattice point in quarter cells -> node index
  std::mt19937 rng(17);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  auto node = [&](const std::array<int, 3>& p) {
    auto it = index.find(p);
    if (it != index.end()) return it->second;
    Eigen::Vector3d x(p[0] * cell[0] / 4, p[1] * cell[1] / 4, p[2] * cell[2] / 4);
    for (int d = 0; d < 3; ++d) x[d] += 0.08 * cell[d] * u(rng);
    const int i = m.addNode(static_cast<int>(index.size()) + 1, x);
    index[p] = i;
    return i;
  };
  const int nc = cornerCount(t);
  auto add = [&](std::vector<std::array<int, 3>> pts) {
    if (nc == 4) {  // orient the tetrahedron positively
      int v[3][3];
      for (int r = 1; r < 4; ++r)
        for (int d = 0; d < 3; ++d) v[r - 1][d] = pts[r][d] - pts[0][d];
      const int det = v[0][0] * (v[1][1] * v[2][2] - v[1][2] * v[2][1]) - v[0][1] * (v[1][0] * v[2][2] - v[1][2] * v[2][0]) +
                      v[0][2] * (v[1][0] * v[2][1] - v[1][1] * v[2][0]);
      if (det < 0) std::swap(pts[1], pts[2]);
    }
    // mid-edge nodes: the lattice midpoint of the corners whose natural midpoint they are
    for (int a = nc; a < kind.nodes; ++a) {
      const auto& xa = kind.naturalNodes[static_cast<std::size_t>(a)];
      for (int i = 0; i < nc; ++i)
        for (int j = i + 1; j < nc; ++j) {
          const auto& xi = kind.naturalNodes[static_cast<std::size_t>(i)];
          const auto& xj = kind.naturalNodes[static_cast<std::size_t>(j)];
          if (std::abs(xi[0] + xj[0] - 2 * xa[0]) + std::abs(xi[1] + xj[1] - 2 * xa[1]) +
                  std::abs(xi[2] + xj[2] - 2 * xa[2]) < 1e-12)
            pts.push_back({(pts[i][0] + pts[j][0]) / 2, (pts[i][1] + pts[j][1]) / 2, (pts[i][2] + pts[j][2]) / 2});
        }
    }
    Element e;
    e.id = static_cast<int>(m.elements.size()) + 1;
    e.type = t;
    e.material = 0;
    for (int a = 0; a < kind.nodes; ++a) e.nodes[a] = node(pts[static_cast<std::size_t>(a)]);
    m.elements.push_back(e);
  };
  for (int k = 0; k < 2; ++k)
    for (int j = 0; j < 2; ++j)
      for (int i = 0; i < 2; ++i) {
        std::array<std::array<int, 3>, 8> c;
        for (int a = 0; a < 8; ++a) c[a] = {4 * (i + kHex[a][0]), 4 * (j + kHex[a][1]), 4 * (k + kHex[a][2])};
        const std::array<int, 3> centre{c[0][0] + 2, c[0][1] + 2, c[0][2] + 2};
        switch (nc) {
          case 4:  // Kuhn: 6 tetrahedra around the diagonal 1-7
            for (const auto& f : {std::array<int, 2>{1, 2}, {2, 3}, {3, 7}, {7, 4}, {4, 5}, {5, 1}})
              add({c[0], c[f[1]], c[f[0]], c[6]});
            break;
          case 6:
            add({c[0], c[1], c[2], c[4], c[5], c[6]});
            add({c[0], c[2], c[3], c[4], c[6], c[7]});
            break;
          case 5:
            for (const auto& f : kHexFaces) add({c[f[0]], c[f[1]], c[f[2]], c[f[3]], centre});
            break;
          default: add(std::vector<std::array<int, 3>>(c.begin(), c.end()));
        }
      }
  m.addNode(100000, Eigen::Vector3d(1, 1, 1));  // in no element
  m.materials = {steel()};
  return m;
}

/// Voigt stress of the strain sym(G), G = grad u.
Stress6 hooke(const Eigen::Matrix3d& G, double E, double nu) {
  const Eigen::Matrix3d eps = 0.5 * (G + G.transpose());
  const double lambda = E * nu / ((1 + nu) * (1 - 2 * nu)), mu = E / (2 * (1 + nu));
  const Eigen::Matrix3d s = lambda * eps.trace() * Eigen::Matrix3d::Identity() + 2 * mu * eps;
  Stress6 v;
  v << s(0, 0), s(1, 1), s(2, 2), s(0, 1), s(1, 2), s(2, 0);
  return v;
}

FeModel readDeck(const std::string& path) {
  FeModel m;
  Diagnostics diag;
  if (!io::readCalculixInp(path, m, diag)) qWarning("%s", diag.str().c_str());
  return m;
}

Stress6 row6(const Eigen::MatrixXd& S, int node, int col = 0) { return S.block<6, 1>(6 * node, col); }

/// Closed-form principal stresses (trigonometric solution of the characteristic cubic from the
/// invariants), descending.
Eigen::Vector3d principalFromInvariants(const Stress6& s) {
  const double I1 = s[0] + s[1] + s[2];
  const double m = I1 / 3;
  const double d[3] = {s[0] - m, s[1] - m, s[2] - m};
  const double J2 = 0.5 * (d[0] * d[0] + d[1] * d[1] + d[2] * d[2]) + s[3] * s[3] + s[4] * s[4] + s[5] * s[5];
  const double J3 = d[0] * d[1] * d[2] + 2 * s[3] * s[4] * s[5] - d[0] * s[4] * s[4] - d[1] * s[5] * s[5] -
                    d[2] * s[3] * s[3];
  if (J2 <= 0) return Eigen::Vector3d::Constant(m);
  const double r = std::clamp(J3 / 2 * std::pow(3 / J2, 1.5), -1.0, 1.0);
  const double theta = std::acos(r) / 3, a = 2 * std::sqrt(J2 / 3);
  return {m + a * std::cos(theta), m + a * std::cos(theta - 2 * std::numbers::pi / 3),
          m + a * std::cos(theta + 2 * std::numbers::pi / 3)};
}

}  // namespace

class StressTest : public QObject {
  Q_OBJECT
 private slots:
  // --- 1. patch test: u = G x (two fields at once) gives the exact constant stress at every node
  void patchTest_data() {
    QTest::addColumn<int>("type");
    for (const ElementKind& k : elementKinds()) QTest::newRow(k.name) << static_cast<int>(k.type);
  }
  void patchTest() {
    QFETCH(int, type);
    const FeModel m = distortedBlock(static_cast<ElementType>(type));
    const int n = m.nodeCount();
    Eigen::Matrix3d G1, G2;
    G1 << 1.0, 0.3, -0.2, 0.5, -0.7, 0.4, 0.1, 0.9, 0.6;
    G1 *= 1e-3;
    G2 << -0.4, 0.0, 0.8, 0.2, 0.3, -0.5, -0.6, 0.1, 0.2;
    G2 *= 1e-3;
    Eigen::MatrixXd U = Eigen::MatrixXd::Zero(3 * n, 2);
    for (int i = 0; i < n - 1; ++i) {  // the free node keeps zero displacement (any value would do)
      U.block<3, 1>(3 * i, 0) = G1 * m.coords[static_cast<std::size_t>(i)];
      U.block<3, 1>(3 * i, 1) = G2 * m.coords[static_cast<std::size_t>(i)] + Eigen::Vector3d(1e-3, -2e-3, 5e-4);
    }
    Eigen::MatrixXd S;
    Diagnostics diag;
    QVERIFY2(nodalStresses(m, {}, U, S, diag), diag.str().c_str());
    QCOMPARE(S.rows(), 6 * static_cast<Eigen::Index>(n));
    QCOMPARE(S.cols(), Eigen::Index(2));
    const Stress6 s1 = hooke(G1, kE, kNu), s2 = hooke(G2, kE, kNu);
    double err = 0;
    for (int i = 0; i < n - 1; ++i) {
      err = std::max(err, (row6(S, i, 0) - s1).cwiseAbs().maxCoeff() / s1.cwiseAbs().maxCoeff());
      err = std::max(err, (row6(S, i, 1) - s2).cwiseAbs().maxCoeff() / s2.cwiseAbs().maxCoeff());
    }
    qInfo("%s: %zu elements, %d nodes; max relative error %.2g", elementKind(static_cast<ElementType>(type)).name,
          m.elements.size(), n, err);
    QVERIFY2(err < 1e-10, qPrintable(QString::number(err)));
    QCOMPARE(S.bottomRows(6).cwiseAbs().maxCoeff(), 0.0);  // the node in no element
  }

  // the override material is used, and errors are reported
  void materialsAndErrors() {
    FeModel m = distortedBlock(ElementType::Hex8);
    const int n = m.nodeCount();
    Eigen::MatrixXd U = Eigen::MatrixXd::Zero(3 * n, 1), S;
    for (int i = 0; i < n; ++i) U(3 * i) = 1e-3 * m.coords[static_cast<std::size_t>(i)].x();
    Material soft = steel();
    soft.E = 7e10;
    soft.nu = 0.0;
    AssemblyOptions opt;
    opt.override_material = &soft;
    Diagnostics diag;
    QVERIFY(nodalStresses(m, opt, U, S, diag));
    QVERIFY(std::abs(S(0, 0) - 7e7) < 1e-6 * 7e7);  // E eps, no lateral stress for nu = 0
    QVERIFY(std::abs(S(1, 0)) < 1e-6);

    m.elements[3].material = -1;
    QVERIFY(!nodalStresses(m, {}, U, S, diag));
    QVERIFY(diag.str().find("element 4") != std::string::npos);
    QCOMPARE(S.size(), Eigen::Index(0));
    Diagnostics d2;
    QVERIFY(!nodalStresses(m, opt, Eigen::MatrixXd::Zero(3, 1), S, d2));  // wrong row count
    QVERIFY(d2.hasErrors());
    m.elements[3].material = 0;
    std::swap(m.elements[2].nodes[0], m.elements[2].nodes[1]);  // inverted element
    Diagnostics d3;
    QVERIFY(!nodalStresses(m, {}, U, S, d3));
    QVERIFY(d3.str().find("element 3") != std::string::npos);
  }

  // --- 2. von Mises and principal stresses
  /// Strain of a uniaxial stress: sigma / E along it, -nu sigma / E across; shear tau (1 + nu) / E
  /// (tensor, half the engineering strain); the equivalent strain is (2/3)(1 + nu) sigma / E, the
  /// axial strain itself for nu = 1/2.
  void strainsOfAStress() {
    const double E = 2e11, nu = 0.25, sigma = 1e8;
    const Stress6 e = strainOf((Stress6() << sigma, 0, 0, 0, 0, 0).finished(), E, nu);
    QVERIFY(std::abs(e[0] - sigma / E) < 1e-18 && std::abs(e[1] + nu * sigma / E) < 1e-18 && std::abs(e[2] - e[1]) < 1e-18);
    QCOMPARE(e.tail<3>().norm(), 0.0);
    QVERIFY(std::abs(equivalentStrain(e) - 2.0 / 3.0 * (1 + nu) * sigma / E) < 1e-18);
    QVERIFY(std::abs(equivalentStrain(strainOf((Stress6() << sigma, 0, 0, 0, 0, 0).finished(), E, 0.5)) - sigma / E) < 1e-18);
    const Stress6 shear = strainOf((Stress6() << 0, 0, 0, 0, sigma, 0).finished(), E, nu);
    QVERIFY(std::abs(shear[4] - sigma * (1 + nu) / E) < 1e-18);  // gamma / 2 = tau / (2 G)
    QCOMPARE(shear.head<3>().norm(), 0.0);
  }

  void equivalentStresses() {
    const double s = 1.5e8, tau = 4e7, p = -3e7;
    Stress6 uni = Stress6::Zero();
    uni[1] = s;
    QCOMPARE(vonMises(uni), s);
    QVERIFY((principalStresses(uni) - Eigen::Vector3d(s, 0, 0)).norm() < 1e-12 * s);
    Stress6 shear = Stress6::Zero();
    shear[5] = tau;  // zx
    QVERIFY(std::abs(vonMises(shear) - std::sqrt(3.0) * tau) < 1e-9 * tau);
    QVERIFY((principalStresses(shear) - Eigen::Vector3d(tau, 0, -tau)).norm() < 1e-12 * tau);
    Stress6 hydro;
    hydro << p, p, p, 0, 0, 0;
    QVERIFY(std::abs(vonMises(hydro)) < 1e-12 * std::abs(p));
    QVERIFY((principalStresses(hydro) - Eigen::Vector3d(p, p, p)).norm() < 1e-12 * std::abs(p));

    // general tensors: against Eigen's solver and the invariants
    std::mt19937 rng(3);
    std::uniform_real_distribution<double> u(-1e8, 1e8);
    for (int trial = 0; trial < 100; ++trial) {
      Stress6 g;
      for (int k = 0; k < 6; ++k) g[k] = u(rng);
      Eigen::Matrix3d T;
      T << g[0], g[3], g[5], g[3], g[1], g[4], g[5], g[4], g[2];
      const Eigen::Vector3d ev = Eigen::SelfAdjointEigenSolver<Eigen::Matrix3d>(T).eigenvalues();
      const Eigen::Vector3d ps = principalStresses(g);
      QVERIFY(ps[0] >= ps[1] && ps[1] >= ps[2]);
      QVERIFY((ps - Eigen::Vector3d(ev[2], ev[1], ev[0])).norm() < 1e-12 * 1e8);
      QVERIFY((ps - principalFromInvariants(g)).norm() < 1e-6 * 1e8);
      // von Mises from the principal stresses
      const double vm = std::sqrt(0.5 * ((ps[0] - ps[1]) * (ps[0] - ps[1]) + (ps[1] - ps[2]) * (ps[1] - ps[2]) +
                                         (ps[2] - ps[0]) * (ps[2] - ps[0])));
      QVERIFY(std::abs(vonMises(g) - vm) < 1e-9 * vm);
    }
  }

  // --- 3. CalculiX: its displacements -> our nodal stresses = its .frd stresses
  void calculix_data() {
    QTest::addColumn<QString>("job");
    QTest::addColumn<double>("xMin");  // nodes compared: xMin <= x <= xMax (away from clamp and load)
    QTest::addColumn<double>("xMax");
    QTest::addColumn<bool>("beam");    // a cantilever: check M c / I too
    // max component difference / peak von Mises: ccx writes 6 significant digits, and the
    // rounding of the displacements (a few 1e-9 m over a node spacing of 0.01-0.02 m) is most of
    // the difference; its rounded extrapolation matrices (a4, a8: 4-5 digits) add ~4e-5
    QTest::addColumn<double>("tol");
    QTest::newRow("cantilever C3D10") << "cantilever_c3d10" << 0.08 << 0.32 << true << 2e-3;
    QTest::newRow("cantilever C3D20R") << "cantilever_c3d20r" << 0.08 << 0.32 << true << 2e-3;
    QTest::newRow("cantilever C3D20") << "cantilever_c3d20" << 0.08 << 0.32 << true << 2e-3;
    QTest::newRow("cantilever C3D8I") << "cantilever_c3d8i" << 0.08 << 0.32 << true << 2e-3;
    QTest::newRow("plate with hole C3D10") << "plate_hole_c3d10" << 0.0 << 0.05 << false << 2e-3;
  }
  void calculix() {
    QFETCH(QString, job);
    QFETCH(double, xMin);
    QFETCH(double, xMax);
    QFETCH(bool, beam);
    QFETCH(double, tol);
    const std::string stem = kDir + job.toStdString();
    if (!std::ifstream(stem + ".frd")) QSKIP("tests/data/fe/stress fixtures missing (scripts/make_stress_fixtures.py)");
    const FeModel m = readDeck(stem + ".inp");
    QVERIFY(!m.elements.empty());
    const auto disp = readFrdNodalBlock(stem + ".frd", "DISP");
    const auto ccx = readFrdNodalBlock(stem + ".frd", "STRESS");
    QCOMPARE(static_cast<int>(disp.size()), m.nodeCount());
    QVERIFY(!ccx.empty());
    Eigen::MatrixXd U(3 * m.nodeCount(), 1), S;
    for (const auto& [id, v] : disp) {
      const int i = m.indexOf(id);
      QVERIFY(i >= 0 && v.size() >= 3);
      U.block<3, 1>(3 * i, 0) = Eigen::Vector3d(v[0], v[1], v[2]);
    }
    Diagnostics diag;
    QVERIFY2(nodalStresses(m, {}, U, S, diag), diag.str().c_str());

    double peak = 0, diff = 0, vmDiff = 0;
    int compared = 0;
    for (const auto& [id, v] : ccx) {
      const int i = m.indexOf(id);
      const double x = m.coords[static_cast<std::size_t>(i)].x();
      if (x < xMin - 1e-9 || x > xMax + 1e-9) continue;
      const Stress6 c = Eigen::Map<const Stress6>(v.data());
      const Stress6 ours = row6(S, i);
      peak = std::max(peak, vonMises(c));
      diff = std::max(diff, (ours - c).cwiseAbs().maxCoeff());
      vmDiff = std::max(vmDiff, std::abs(vonMises(ours) - vonMises(c)));
      ++compared;
    }
    qInfo("%s: %d nodes compared, peak von Mises (ccx) %.4g MPa; max component difference %.2g MPa = %.2g of the "
          "peak, max von Mises difference %.2g of the peak",
          qPrintable(job), compared, peak / 1e6, diff / 1e6, diff / peak, vmDiff / peak);
    QVERIFY(compared > 20);
    QVERIFY2(diff < tol * peak, qPrintable(QString::number(diff / peak)));

    // strains from our nodal stresses and the nodes' elastic constants against ccx's nodal
    // strains (TOSTRAIN: tensor shear components, extrapolated and averaged like the stresses)
    std::vector<std::array<double, 2>> elasticity;
    QVERIFY2(nodalElasticity(m, {}, elasticity, diag), diag.str().c_str());
    QCOMPARE(elasticity.size(), std::size_t(m.nodeCount()));
    const auto strains = readFrdNodalBlock(stem + ".frd", "TOSTRAIN");
    QVERIFY(!strains.empty());
    double strainPeak = 0, strainDiff = 0;
    for (const auto& [id, v] : strains) {
      const int i = m.indexOf(id);
      const double x = m.coords[static_cast<std::size_t>(i)].x();
      if (x < xMin - 1e-9 || x > xMax + 1e-9) continue;
      const auto [E, nu] = elasticity[static_cast<std::size_t>(i)];
      QCOMPARE(E, 2.1e11);  // the decks' steel
      QCOMPARE(nu, 0.3);
      const Stress6 c = Eigen::Map<const Stress6>(v.data());
      strainPeak = std::max(strainPeak, equivalentStrain(c));
      strainDiff = std::max(strainDiff, (strainOf(row6(S, i), E, nu) - c).cwiseAbs().maxCoeff());
    }
    qInfo("%s: strains, peak equivalent %.4g um/m, max component difference %.2g of the peak", qPrintable(job),
          1e6 * strainPeak, strainDiff / strainPeak);
    QVERIFY2(strainDiff < tol * strainPeak, qPrintable(QString::number(strainDiff / strainPeak)));

    if (beam) {
      // bending about z: sigma_xx = M(x) (y - H/2) / I, M(x) = P (L - x) (tip load -y), at the
      // top and bottom fibres of the compared region near the clamp
      const double P = 1000, L = 0.4, H = 0.04, Bw = 0.02, I = Bw * H * H * H / 12;
      double worst = 0;
      int fibres = 0;
      for (int i = 0; i < m.nodeCount(); ++i) {
        const Eigen::Vector3d& x = m.coords[static_cast<std::size_t>(i)];
        if (x.x() < xMin - 1e-9 || x.x() > 0.2 + 1e-9) continue;
        if (std::abs(x.y()) > 1e-9 && std::abs(x.y() - H) > 1e-9) continue;
        const double expected = P * (L - x.x()) * (x.y() - H / 2) / I;
        worst = std::max(worst, std::abs(S(6 * i, 0) / expected - 1));
        ++fibres;
      }
      qInfo("%s: sigma_xx at %d top/bottom fibre nodes, 0.08 <= x <= 0.2: within %.1f %% of M c / I (%.4g MPa at x = "
            "0.08)",
            qPrintable(job), fibres, 100 * worst, P * (L - 0.08) * (H / 2) / I / 1e6);
      QVERIFY(fibres > 4);
      QVERIFY(worst < 0.10);
    }
  }

  // --- stresses of a Craig-Bampton body against ccx's static stresses
  void craigBamptonStaticStress() {
    // the C3D20R cantilever reduced with its clamped end (rigid interface) and its loaded end
    // (averaging: it spreads the tip load without stiffening the end) as interfaces; the
    // static tip load solved in the reduced basis, its stress = stress modes times modal
    // coordinates, against ccx's nodal stresses of the full model (equal nodal forces at the
    // tip) at the nodes more than two beam heights from both ends
    const std::string stem = kDir + "cantilever_c3d20r";
    if (!std::ifstream(stem + ".frd")) QSKIP("tests/data/fe/stress fixtures missing (scripts/make_stress_fixtures.py)");
    const FeModel m = readDeck(stem + ".inp");
    ReductionOptions opt;
    opt.method = ReductionOptions::Method::CraigBampton;
    opt.modes = 4;
    opt.interfaces = {{"END0", Interface::Kind::Rigid}, {"END1", Interface::Kind::Averaging}};
    ReducedBody body;
    ReductionReport report;
    Diagnostics diag;
    QVERIFY2(reduce(m, opt, body, report, diag), diag.str().c_str());
    QCOMPARE(body.stress_modes.rows(), 6 * Eigen::Index(m.nodeCount()));
    QCOMPARE(body.stress_modes.cols(), body.modes.cols());
    // END0 held: drop its 6 constraint modes; the load is -1000 N along y at END1's reference
    const Eigen::Index kept = body.modes.cols() - 6;
    const Eigen::MatrixXd Kb = body.invariants.Kbar.bottomRightCorner(kept, kept);
    Eigen::VectorXd f = Eigen::VectorXd::Zero(kept);
    f(1) = -1000;
    const Eigen::VectorXd q = Kb.ldlt().solve(f);
    const Eigen::MatrixXd S = body.stress_modes.rightCols(kept) * q;

    const auto ccx = readFrdNodalBlock(stem + ".frd", "STRESS");
    double peak = 0, diff = 0;
    int compared = 0;
    for (const auto& [id, v] : ccx) {
      const int i = m.indexOf(id);
      const double x = m.coords[static_cast<std::size_t>(i)].x();
      if (x < 0.08 - 1e-9 || x > 0.32 + 1e-9) continue;
      const Stress6 c = Eigen::Map<const Stress6>(v.data());
      peak = std::max(peak, vonMises(c));
      diff = std::max(diff, (row6(S, i) - c).cwiseAbs().maxCoeff());
      ++compared;
    }
    qInfo("Craig-Bampton static stress: %d nodes, peak von Mises %.4g MPa, max component difference %.3g MPa = %.2g %% "
          "of the peak",
          compared, peak / 1e6, diff / 1e6, 100 * diff / peak);
    QVERIFY(compared > 20);
    QVERIFY2(diff < 0.02 * peak, qPrintable(QString::number(diff / peak)));
  }
};

QTEST_APPLESS_MAIN(StressTest)
#include "stress_test.moc"
