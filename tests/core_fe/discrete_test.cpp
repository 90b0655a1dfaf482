// Point masses, springs and nodes outside every element, on the decks
// of tests/data/fe/discrete (scripts/make_discrete_fixtures.py): against CalculiX 2.20 on the
// same deck, the Euler-Bernoulli cantilever with a tip mass, and the closed-form spring-mass
// tetrahedron (omega^2 = k/m x 1, 1, 2, 2, 2, 4).
#include "core/fe/active_dofs.h"
#include "core/fe/assembly.h"
#include "core/fe/modal.h"
#include "core/fe/reduction.h"
#include "core/fe/validation_report.h"
#include "io/fe/calculix_dat.h"
#include "io/fe/calculix_inp.h"
#include "io/fe/import.h"
#include "io/fe/nastran.h"

#include <Eigen/Dense>
#include <QtTest>

#include <cmath>
#include <numbers>
#include <string>

using namespace flexim;
using namespace flexim::fe;

namespace {

const std::string kDir = FLEXIM_SOURCE_DIR "/tests/data/fe/discrete/";
constexpr double kTipMass = 0.1, kRho = 7850, kE = 2.1e11, kL = 0.3, kH = 0.01;

FeModel load(const std::string& name, Diagnostics& diag) {
  FeModel m;
  if (!io::importFe(kDir + name, m, diag)) qWarning("%s", diag.str().c_str());
  return m;
}

std::vector<double> ccxHz(const std::string& name) {
  std::vector<double> hz;
  Diagnostics d;
  io::readCalculixDat(kDir + name, hz, d);
  return hz;
}

/// Elastic free-free frequencies [Hz] of a deck (the rigid ones dropped).
/// ccxMass: integrate the consistent mass as ccx does (to compare with ccx to its print precision).
std::vector<double> elasticHz(const FeModel& m, int count, Diagnostics& diag, ModalResult* keep = nullptr,
                              bool ccxMass = false) {
  AssembledMatrices mats;
  AssemblyOptions opt;
  opt.ccx_mass_rule = ccxMass;
  if (!assemble(m, opt, mats, diag)) return {};
  ModalOptions o;
  o.elastic_modes = count;
  ModalResult r;
  const ActiveDofs a = activeDofs(mats.K, mats.M, m.nodeCount());
  noteLeftOut(m, a, diag);
  if (!freeModesOfActive(mats.K, mats.M, m.coords, o, a, r, diag)) return {};
  std::vector<double> f;
  const auto all = r.frequenciesHz();
  for (size_t i = 0; i < all.size(); ++i)
    if (!r.rigid[i]) f.push_back(all[i]);
  if (keep) *keep = r;
  return f;
}

/// First bending frequency of an Euler-Bernoulli cantilever with a tip mass Mt:
/// 1 + cos b cosh b + (Mt / mb) b (cos b sinh b - sin b cosh b) = 0, b = beta L.
double cantileverTipMassHz() {
  const double A = kH * kH, I = kH * kH * kH * kH / 12, mb = kRho * A * kL, r = kTipMass / mb;
  auto f = [&](double b) { return 1 + std::cos(b) * std::cosh(b) + r * b * (std::cos(b) * std::sinh(b) - std::sin(b) * std::cosh(b)); };
  double lo = 0.1, hi = 1.875;  // the root lies below the bare beam's 1.8751
  for (int i = 0; i < 200; ++i) {
    const double mid = 0.5 * (lo + hi);
    (f(lo) * f(mid) <= 0 ? hi : lo) = mid;
  }
  const double b = 0.5 * (lo + hi) / kL;
  return b * b * std::sqrt(kE * I / (kRho * A)) / (2 * std::numbers::pi);
}

bool has(const Diagnostics& d, Severity s, const std::string& text) {
  for (const auto& i : d.items())
    if (i.severity == s && i.message.find(text) != std::string::npos) return true;
  return false;
}

}  // namespace

class DiscreteTest : public QObject {
  Q_OBJECT

 private slots:
  /// MASS on the tip of a free-free C3D20R beam: frequencies against ccx on the same deck; the
  /// mass report counts the point mass (total and centre of mass).
  void tipMassFreeFreeAgainstCcx() {
    Diagnostics diag;
    const FeModel m = load("beam_tipmass_free.inp", diag);
    QCOMPARE(m.masses.size(), size_t(3));
    const std::vector<double> ref = ccxHz("beam_tipmass_free.dat");
    QCOMPARE(ref.size(), size_t(12));
    const std::vector<double> f = elasticHz(m, 6, diag, nullptr, true);
    QVERIFY2(f.size() >= 6, diag.str().c_str());
    double worst = 0;
    for (int i = 0; i < 6; ++i) worst = std::max(worst, std::abs(f[i] / ref[6 + i] - 1));
    const std::vector<double> exact = elasticHz(m, 6, diag);  // our default (exact) mass integration
    qInfo("free-free with tip mass: f1 = %.7g Hz, ccx %.7g Hz; largest difference of 6 modes %.2e (ccx mass rule), "
          "f1 %.7g Hz (%+.2e) with the exact mass integration", f[0], ref[6], worst, exact.at(0), exact[0] / ref[6] - 1);
    QVERIFY2(worst < 1e-6, qPrintable(QString::number(worst)));
    QVERIFY(std::abs(exact[0] / ref[6] - 1) < 1e-4);
    // without the mass the first mode is far higher: the test sees the point mass
    FeModel bare = m;
    bare.masses.clear();
    const std::vector<double> fb = elasticHz(bare, 2, diag);
    QVERIFY(fb.at(0) > 1.2 * f[0]);  // bare beam 590 Hz

    AssembledMatrices mats;
    QVERIFY(assemble(m, {}, mats, diag));
    const MassProperties p = massProperties(m.coords, mats.M);
    const double beam = kRho * kL * kH * kH;
    QVERIFY(std::abs(mats.point_mass - kTipMass) < 1e-12);
    QVERIFY(std::abs(p.mass - (beam + kTipMass)) < 1e-9 * p.mass);
    QVERIFY(std::abs(p.centre.x() - (beam * kL / 2 + kTipMass * kL) / (beam + kTipMass)) < 1e-9);
    QVERIFY(std::abs(p.centre.y()) < 1e-12 && std::abs(p.centre.z()) < 1e-12);
    ValidationReport r;
    reportMatrices(m, mats, r);
    QVERIFY2(r.str().find("differs from rho V") == std::string::npos, r.str().c_str());
    QVERIFY(r.str().find("point masses: 0.1 kg") != std::string::npos);
  }

  /// The clamped beam with tip mass: Craig-Bampton's fixed-interface modes on END0 are the
  /// cantilever's modes; against ccx (*BOUNDARY END0) and Euler-Bernoulli with a tip mass.
  void cantileverWithTipMass() {
    Diagnostics diag;
    const FeModel m = load("beam_tipmass_clamped.inp", diag);
    ReductionOptions o;
    o.method = ReductionOptions::Method::CraigBampton;
    o.modes = 4;
    o.interfaces = {{"END0", Interface::Kind::Rigid}};
    ReducedBody body;
    ReductionReport rep;
    QVERIFY2(reduce(m, o, body, rep, diag), diag.str().c_str());
    const auto f = rep.modal.frequenciesHz();
    const std::vector<double> ref = ccxHz("beam_tipmass_clamped.dat");
    const double eb = cantileverTipMassHz();
    qInfo("cantilever with tip mass: f1 = %.6g Hz, ccx %.6g Hz (%+.2e), Euler-Bernoulli %.6g Hz (%+.2e)", f[0], ref.at(0),
          f[0] / ref[0] - 1, eb, f[0] / eb - 1);
    for (int i = 0; i < 4; ++i) QVERIFY2(std::abs(f[i] / ref[i] - 1) < 2e-4, qPrintable(QString::number(f[i] / ref[i] - 1)));
    QVERIFY(std::abs(f[0] / eb - 1) < 0.02);
    // the reduced body carries the point mass
    QVERIFY(std::abs(body.invariants.I1 - (kRho * kL * kH * kH + kTipMass)) < 1e-9);
  }

  /// The same beam in Nastran bulk data, the tip mass a CONM2 with an offset: the offset is
  /// dropped with a warning (mass on the grid), so the frequencies are those of the CalculiX MASS
  /// deck. CHEXA is fully integrated: compared with the .inp deck read as C3D20 (the ccx table is
  /// for C3D20R, printed for scale).
  void nastranConm2AgainstCalculixDeck() {
    Diagnostics diag;
    const FeModel m = load("beam_tipmass.bdf", diag);
    QVERIFY2(has(diag, Severity::Warning, "offset (0.000000, 0.000000, 0.002000) ignored"), diag.str().c_str());
    QCOMPARE(m.masses.size(), size_t(3));
    FeModel inp = load("beam_tipmass_free.inp", diag);
    for (auto& e : inp.elements) e.type = ElementType::Hex20;
    const std::vector<double> ref = elasticHz(inp, 6, diag), f = elasticHz(m, 6, diag);
    QVERIFY(f.size() >= 6 && ref.size() >= 6);
    double worst = 0;
    for (int i = 0; i < 6; ++i) worst = std::max(worst, std::abs(f[i] / ref[i] - 1));
    qInfo("Nastran CONM2 beam: f1 = %.7g Hz, CalculiX MASS deck as C3D20 %.7g Hz; largest difference %.2e (ccx C3D20R: "
          "%.7g Hz)", f[0], ref[0], worst, ccxHz("beam_tipmass_free.dat").at(6));
    QVERIFY(worst < 1e-9);
    AssembledMatrices mats;
    QVERIFY(assemble(m, {}, mats, diag));
    QVERIFY(std::abs(massProperties(m.coords, mats.M).mass - (kRho * kL * kH * kH + kTipMass)) < 1e-9);
  }

  /// Four masses on a regular tetrahedron joined by six axial springs: omega^2 = k/m x (1, 1, 2,
  /// 2, 2, 4); CalculiX (MASS + SPRINGA) and Nastran (CONM2 + CBUSH K1) decks alike.
  void springMassTetrahedron() {
    const double k = 1e4, mass = 2, w0 = std::sqrt(k / mass) / (2 * std::numbers::pi);
    const double expected[] = {1, 1, 2, 2, 2, 4};
    for (const char* deck : {"tetra_springs.inp", "tetra_springs.bdf"}) {
      Diagnostics diag;
      const FeModel m = load(deck, diag);
      QCOMPARE(m.springs.size(), size_t(6));
      const std::vector<double> f = elasticHz(m, 6, diag);
      QVERIFY2(f.size() == 6, diag.str().c_str());  // 12 dofs: solved dense, the whole spectrum
      double worst = 0;
      for (int i = 0; i < 6; ++i) worst = std::max(worst, std::abs(f[i] / (w0 * std::sqrt(expected[i])) - 1));
      qInfo("%s: f = %.6g %.6g %.6g Hz, closed form %.6g %.6g Hz; largest difference %.2e", deck, f[0], f[1], f[2], w0,
            w0 * std::sqrt(2.0), worst);
      QVERIFY2(worst < 1e-8, qPrintable(QString::number(worst)));
      QVERIFY(!diag.hasErrors());
    }
  }

  /// Nodes outside every element: left out of the eigen solution with a note naming them, the
  /// point mass on one of them counted in the body (warning), modes as without them; an
  /// interface on such a node is refused naming it.
  void orphanNodes() {
    Diagnostics diag;
    const FeModel m = load("orphans.inp", diag);
    QVERIFY2(has(diag, Severity::Warning, "DASHPOTA: dampers are not modelled"), diag.str().c_str());
    ModalResult r;
    const std::vector<double> f = elasticHz(m, 4, diag, &r);
    QVERIFY2(f.size() >= 4, diag.str().c_str());
    QVERIFY2(has(diag, Severity::Info, "3 node(s) belong to no element or spring"), diag.str().c_str());
    QVERIFY(has(diag, Severity::Info, "900001, 900002, 900003"));
    QVERIFY(has(diag, Severity::Warning, "point masses of 0.05 kg"));
    const std::vector<double> ref = ccxHz("beam_tipmass_free.dat");
    for (int i = 0; i < 4; ++i) QVERIFY(std::abs(f[i] / ref[6 + i] - 1) < 2e-4);
    // rigid modes carry the left-out nodes along, elastic ones leave them at rest
    const int ref1 = m.indexOf(900001);
    QVERIFY(r.modes.col(0).segment<3>(3 * ref1).norm() > 0);
    QVERIFY(r.modes.col(r.rigid_count).segment<3>(3 * ref1).norm() == 0);

    ReductionOptions o;
    o.modes = 4;
    ReducedBody body;
    ReductionReport rep;
    Diagnostics d2;
    QVERIFY2(reduce(m, o, body, rep, d2), d2.str().c_str());
    QVERIFY(std::abs(body.invariants.I1 - (kRho * kL * kH * kH + kTipMass + 0.05)) < 1e-9);

    o.method = ReductionOptions::Method::CraigBampton;
    o.interfaces = {{"REF", Interface::Kind::Rigid}};
    Diagnostics d3;
    QVERIFY(!reduce(m, o, body, rep, d3));
    QVERIFY2(has(d3, Severity::Error, "node 900001 belongs to no element"), d3.str().c_str());
    QVERIFY(d3.str().find("Cholesky") == std::string::npos);
    // Craig-Bampton on the structure works with the left-out nodes present
    o.interfaces = {{"END0", Interface::Kind::Rigid}};
    Diagnostics d4;
    QVERIFY2(reduce(m, o, body, rep, d4), d4.str().c_str());
  }

  /// Gmsh writes the centre point of the circle arcs as a node no element uses.
  void gmshGeometryPoint() {
    Diagnostics diag;
    FeModel m = load("disk.msh", diag);
    Material steel{"steel", kE, 0.3, kRho, true, true};
    ReductionOptions o;
    o.modes = 6;
    o.material = &steel;
    ReducedBody body;
    ReductionReport rep;
    QVERIFY2(reduce(m, o, body, rep, diag), diag.str().c_str());
    QVERIFY2(has(diag, Severity::Info, "belong to no element or spring"), diag.str().c_str());
    QVERIFY(diag.str().find("Cholesky") == std::string::npos);
    QCOMPARE(rep.modal.rigid_count, 6);
  }

  /// Nastran scalar cards: CELAS1/PELAS, CELAS2, CMASS1/PMASS, CMASS2, CONM1 into K and M;
  /// dampers and rotational components skipped with warnings.
  void nastranScalarCards() {
    const char* deck =
        "BEGIN BULK\n"
        "GRID,1,,0.,0.,0.\nGRID,2,,0.,0.,0.\nGRID,3,,1.,0.,0.\n"
        "CELAS1,1,5,1,1,2,1\nPELAS,5,100.,,,6,7.\n"
        "CELAS2,2,30.,1,2,2,3\nCELAS2,3,30.,1,4\n"
        "CMASS1,4,8,3,3\nPMASS,8,0.5\nCMASS2,5,2.,1,1,2,1\n"
        "CONM1,6,3,,1.,0.,2.,0.,0.\n,3.\n"
        "CDAMP2,7,1.,1,1,2,1\n"
        "ENDDATA\n";
    FeModel m;
    Diagnostics diag;
    QVERIFY2(io::readNastranBulkFromString(deck, "in.bdf", m, diag), diag.str().c_str());
    QVERIFY(has(diag, Severity::Warning, "CDAMP2: 1 card skipped (dampers: modal damping is set on the flexible body"));
    QVERIFY(has(diag, Severity::Warning, "rotational component 4"));
    AssembledMatrices mats;
    // no solid elements: springs and masses alone assemble
    QVERIFY2(assemble(m, {}, mats, diag), diag.str().c_str());
    const Eigen::MatrixXd K(mats.K), M(mats.M);
    QCOMPARE(K(0, 0), 100.0);   // CELAS1 1.1 - 2.1 with PELAS 5
    QCOMPARE(K(0, 3), -100.0);
    QCOMPARE(K(1, 1), 30.0);    // CELAS2 1.2 - 2.3
    QCOMPARE(K(1, 5), -30.0);
    QCOMPARE(M(8, 8), 0.5 + 3.0);  // CMASS1 3.3 (PMASS 8) + CONM1 M33
    QCOMPARE(M(0, 3), -2.0);       // CMASS2 1.1 - 2.1
    QCOMPARE(M(6, 6), 1.0);        // CONM1 M11
    QCOMPARE(M(7, 7), 2.0);
  }

  /// CalculiX SPRING1/SPRING2 and ROTARYI read as ccx defines them.
  void calculixScalarSprings() {
    const char* deck =
        "*NODE\n1,0,0,0\n2,0,0,0\n"
        "*ELEMENT,TYPE=SPRING2,ELSET=S2\n1,1,2\n*SPRING,ELSET=S2\n1,3\n50.\n"
        "*ELEMENT,TYPE=SPRING1,ELSET=S1\n2,2\n*SPRING,ELSET=S1\n2\n7.\n"
        "*ELEMENT,TYPE=ROTARYI,ELSET=R\n3,1\n*ROTARY INERTIA,ELSET=R\n1.,2.,3.\n"
        "*ELEMENT,TYPE=MASS,ELSET=M\n4,1\n5,2\n*MASS,ELSET=M\n0.25\n";
    FeModel m;
    Diagnostics diag;
    QVERIFY2(io::readCalculixInpFromString(deck, "in.inp", m, diag), diag.str().c_str());
    QCOMPARE(m.springs.size(), size_t(2));
    QCOMPARE(m.rotary_inertias.size(), size_t(1));
    QVERIFY(has(diag, Severity::Warning, "rotary inertia is not in the mass matrix"));
    AssembledMatrices mats;
    QVERIFY2(assemble(m, {}, mats, diag), diag.str().c_str());
    const Eigen::MatrixXd K(mats.K);
    QCOMPARE(K(0, 0), 50.0);
    QCOMPARE(K(0, 5), -50.0);
    QCOMPARE(K(4, 4), 7.0);
    QVERIFY(has(diag, Severity::Warning, "tie the body to ground"));
    QCOMPARE(mats.point_mass, 0.5);
  }
};

QTEST_APPLESS_MAIN(DiscreteTest)
#include "discrete_test.moc"
