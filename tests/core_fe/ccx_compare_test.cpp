// FE assembly against CalculiX 2.20 on the same meshes (fixtures of tests/data/fe, made with
// gmsh + ccx by scripts/make_fixtures.py): element and mesh matrices against ccx's
// SOLVER=MATRIXSTORAGE export, and natural frequencies against ccx's .dat.
//
// CalculiX integrates the mass with its stiffness points (C3D4: 1 point, C3D10: 4 points),
// which is not exact for those elements; with AssemblyOptions::ccx_mass_rule our matrices are
// ccx's to the printed digits, and with the default (exact) rules the frequencies move by the
// amounts printed here (tiny for C3D10, noticeable for the coarse C3D4 bracket).
#include "core/fe/assembly.h"
#include "core/fe/modal.h"
#include "io/fe/calculix_dat.h"
#include "io/fe/calculix_inp.h"
#include "io/fe/matrix_files.h"
#include "tests/core_fe/fe_test_support.h"

#include <Eigen/Dense>
#include <Eigen/Eigenvalues>
#include <QtTest>

#include <cmath>
#include <fstream>
#include <numbers>
#include <string>

using namespace flexim;
using namespace flexim::fe;
using namespace flexim::fe::test;

namespace {

FeModel readDeck(const std::string& rel) {
  FeModel m;
  Diagnostics diag;
  if (!io::readCalculixInp(kData + rel, m, diag)) qWarning("%s", diag.str().c_str());
  return m;
}

/// max |A_ours(p(i), p(j)) - A_ccx(i, j)| / max |A_ccx|, with p mapping ccx's dof order to ours.
double matrixDifference(const Eigen::SparseMatrix<double>& ours, const Eigen::SparseMatrix<double>& ccx,
                        const std::vector<int>& p) {
  const Eigen::MatrixXd O(ours), C(ccx);
  const int n = static_cast<int>(p.size());
  double d = 0;
  for (int j = 0; j < n; ++j)
    for (int i = 0; i < n; ++i) d = std::max(d, std::abs(O(p[i], p[j]) - C(i, j)));
  // and nothing of ours outside ccx's dofs (p is a permutation when nothing is constrained)
  return d / C.cwiseAbs().maxCoeff();
}

/// Keeps the dofs not in `fixed`: S^T A S.
Eigen::SparseMatrix<double> restrict(const Eigen::SparseMatrix<double>& A, const std::vector<int>& keep) {
  Eigen::SparseMatrix<double> S(A.rows(), static_cast<Eigen::Index>(keep.size()));
  std::vector<Eigen::Triplet<double>> t;
  for (std::size_t j = 0; j < keep.size(); ++j) t.emplace_back(keep[j], static_cast<int>(j), 1.0);
  S.setFromTriplets(t.begin(), t.end());
  return Eigen::SparseMatrix<double>(S.transpose() * A * S);
}

struct Support {
  int node_id, first, last;  // components 1-based, as in *BOUNDARY
};

/// Elastic frequencies [Hz]: free (6 rigid modes skipped) or with dofs removed. Small problems
/// are solved densely as M x = (1 / w^2) K x when supported (CalculiX's mass of a single C3D10
/// is singular: 4 points for 10 nodes), sparse (fe::freeModes) otherwise.
std::vector<double> elasticFrequencies(const FeModel& mesh, const AssembledMatrices& am, const std::vector<int>& fixedDofs,
                                       int count) {
  if (am.K.rows() <= 300) {
    std::vector<char> fixed(static_cast<std::size_t>(am.K.rows()), 0);
    for (int d : fixedDofs) fixed[static_cast<std::size_t>(d)] = 1;
    std::vector<int> keep;
    for (int i = 0; i < am.K.rows(); ++i)
      if (!fixed[static_cast<std::size_t>(i)]) keep.push_back(i);
    const Eigen::MatrixXd K(restrict(am.K, keep)), M(restrict(am.M, keep));
    std::vector<double> f;
    if (fixedDofs.empty()) {
      Eigen::GeneralizedSelfAdjointEigenSolver<Eigen::MatrixXd> es(K, M, Eigen::EigenvaluesOnly);
      for (Eigen::Index j = 6; j < es.eigenvalues().size(); ++j)
        f.push_back(std::sqrt(es.eigenvalues()[j]) / (2 * std::numbers::pi));
    } else {
      Eigen::GeneralizedSelfAdjointEigenSolver<Eigen::MatrixXd> es(M, K, Eigen::EigenvaluesOnly);
      for (Eigen::Index j = es.eigenvalues().size() - 1; j >= 0 && es.eigenvalues()[j] > 0; --j)
        f.push_back(1 / (2 * std::numbers::pi * std::sqrt(es.eigenvalues()[j])));
    }
    if (static_cast<int>(f.size()) > count) f.resize(static_cast<std::size_t>(count));
    return f;
  }
  ModalOptions opt;
  opt.elastic_modes = count;
  ModalResult r;
  Diagnostics diag;
  if (fixedDofs.empty()) {
    if (!freeModes(am.K, am.M, mesh.coords, opt, r, diag)) qWarning("%s", diag.str().c_str());
  } else {
    std::vector<char> fixed(static_cast<std::size_t>(am.K.rows()), 0);
    for (int d : fixedDofs) fixed[static_cast<std::size_t>(d)] = 1;
    std::vector<int> keep;
    for (int i = 0; i < am.K.rows(); ++i)
      if (!fixed[static_cast<std::size_t>(i)]) keep.push_back(i);
    opt.expected_rigid = 0;
    if (!freeModes(restrict(am.K, keep), restrict(am.M, keep), {}, opt, r, diag)) qWarning("%s", diag.str().c_str());
  }
  std::vector<double> f;
  const std::vector<double> all = r.frequenciesHz();
  for (std::size_t j = 0; j < all.size(); ++j)
    if (r.rigid.empty() || !r.rigid[j]) f.push_back(all[j]);
  if (static_cast<int>(f.size()) > count) f.resize(static_cast<std::size_t>(count));
  return f;
}

}  // namespace

class CcxCompareTest : public QObject {
  Q_OBJECT
 private slots:
  void initTestCase() {
    if (!fixturesReady()) QSKIP("tests/data/fe fixtures not generated");
  }

  void matrices_data() {
    QTest::addColumn<QString>("deck");
    QTest::addColumn<QString>("stem");
    QTest::newRow("C3D8") << "tiny/c3d8_mat.inp" << "tiny/c3d8_mat";
    QTest::newRow("C3D20") << "tiny/c3d20_mat.inp" << "tiny/c3d20_mat";
    QTest::newRow("C3D10") << "tiny/c3d10_mat.inp" << "tiny/c3d10_mat";
    QTest::newRow("beam 20 x C3D20") << "beam/beam_hex_mat.inp" << "beam/beam_hex_mat";
  }
  void matrices() {
    QFETCH(QString, deck);
    QFETCH(QString, stem);
    FeModel m = readDeck(deck.toStdString());
    QVERIFY(!m.elements.empty());
    Diagnostics diag;
    QVERIFY2(io::readCalculixMatrices(kData + stem.toStdString(), m, diag), diag.str().c_str());
    QCOMPARE(static_cast<int>(m.dofs.size()), 3 * m.nodeCount());
    std::vector<int> p;
    for (const Dof& d : m.dofs) p.push_back(3 * d.node + d.component);
    const AssembledMatrices exact = assembleOrFail(m, false), ccx = assembleOrFail(m, true);
    const double dK = matrixDifference(exact.K, m.K, p);
    const double dMccx = matrixDifference(ccx.M, m.M, p);
    const double dMexact = matrixDifference(exact.M, m.M, p);
    qInfo("%s: K differs from ccx by %.2g, M (ccx rule) by %.2g, M (exact rule) by %.2g (relative to the max entry)",
          qPrintable(deck), dK, dMccx, dMexact);
    QVERIFY(dK < 1e-12);     // ccx prints 14 significant digits
    QVERIFY(dMccx < 1e-12);
    if (deck.contains("c3d10")) QVERIFY(dMexact > 1e-3);  // the 4-point C3D10 mass is not exact
    else QVERIFY(dMexact < 1e-12);                         // hexahedra: the same rule
  }

  void frequencies_data() {
    QTest::addColumn<QString>("deck");
    QTest::addColumn<QString>("dat");
    QTest::addColumn<QString>("clampSet");     // node set clamped in x, y, z; "" = free or supports
    QTest::addColumn<QString>("supports");     // "id:first:last ..." as in *BOUNDARY
    QTest::addColumn<double>("exactRuleTol");  // allowed difference with our exact mass rule
    QTest::newRow("beam C3D10 free") << "beam/beam_free.inp" << "beam/beam_free.dat" << "" << "" << 2e-4;
    QTest::newRow("beam C3D10 clamped") << "beam/beam_clamped.inp" << "beam/beam_clamped.dat" << "END0" << "" << 2e-4;
    QTest::newRow("beam C3D20 free") << "beam/beam_hex_free.inp" << "beam/beam_hex_free.dat" << "" << "" << 1e-6;
    QTest::newRow("beam C3D20 clamped") << "beam/beam_hex_clamped.inp" << "beam/beam_hex_clamped.dat" << "END0" << ""
                                        << 1e-6;
    QTest::newRow("conrod C3D10 free") << "conrod/conrod_free.inp" << "conrod/conrod_free.dat" << "" << "" << 2e-4;
    QTest::newRow("bracket C3D4 free") << "bracket/bracket_free.inp" << "bracket/bracket_free.dat" << "" << "" << 0.01;
    QTest::newRow("C3D8 supported") << "tiny/c3d8_modal.inp" << "tiny/c3d8_modal.dat" << ""
                                    << "1:1:3 2:2:3 4:3:3" << 1e-6;
    QTest::newRow("C3D20 supported") << "tiny/c3d20_modal.inp" << "tiny/c3d20_modal.dat" << ""
                                     << "1:1:3 2:2:3 4:3:3" << 1e-6;
    QTest::newRow("C3D10 supported") << "tiny/c3d10_modal.inp" << "tiny/c3d10_modal.dat" << ""
                                     << "101:1:3 102:2:3 103:3:3" << 0.03;
    QTest::newRow("3 x C3D8 free (importer features)") << "tiny/features.inp" << "tiny/features.dat" << "" << "" << 1e-6;
  }
  void frequencies() {
    QFETCH(QString, deck);
    QFETCH(QString, dat);
    QFETCH(QString, clampSet);
    QFETCH(QString, supports);
    QFETCH(double, exactRuleTol);
    const FeModel m = readDeck(deck.toStdString());
    QVERIFY(!m.elements.empty());
    io::CalculixEigenTable table;
    Diagnostics diag;
    QVERIFY2(io::readCalculixDat(kData + dat.toStdString(), table, diag), diag.str().c_str());

    std::vector<int> fixed;
    if (!clampSet.isEmpty()) {
      const auto it = m.node_sets.find(clampSet.toStdString());
      QVERIFY(it != m.node_sets.end());
      for (int a : it->second)
        for (int i = 0; i < 3; ++i) fixed.push_back(3 * a + i);
    }
    for (const QString& s : supports.split(' ', Qt::SkipEmptyParts)) {
      const QStringList f = s.split(':');
      const int node = m.indexOf(f[0].toInt());
      QVERIFY(node >= 0);
      for (int c = f[1].toInt(); c <= f[2].toInt(); ++c) fixed.push_back(3 * node + c - 1);
    }
    const bool free = fixed.empty();
    std::vector<double> ref;  // ccx's elastic frequencies
    for (std::size_t j = free ? 6 : 0; j < table.frequency_hz.size(); ++j) ref.push_back(table.frequency_hz[j]);
    const int count = static_cast<int>(ref.size());

    const AssembledMatrices ccx = assembleOrFail(m, true), exact = assembleOrFail(m, false);
    const std::vector<double> fc = elasticFrequencies(m, ccx, fixed, count);
    const std::vector<double> fe = elasticFrequencies(m, exact, fixed, count);
    QCOMPARE(static_cast<int>(fc.size()), count);
    QCOMPARE(static_cast<int>(fe.size()), count);
    double worstCcx = 0, worstExact = 0;
    for (int j = 0; j < count; ++j) {
      worstCcx = std::max(worstCcx, std::abs(fc[j] / ref[j] - 1));
      worstExact = std::max(worstExact, std::abs(fe[j] / ref[j] - 1));
    }
    qInfo("%s: %d elastic modes, f1 ccx %.6g Hz, ours %.6g Hz (ccx mass rule) / %.6g Hz (exact mass rule); max "
          "relative difference %.2g (ccx rule), %.2g (exact rule)",
          qPrintable(deck), count, ref[0], fc[0], fe[0], worstCcx, worstExact);
    if (free) QVERIFY(std::abs(exact.mass - table.total_effective_mass[0]) < 1e-6 * exact.mass);
    QVERIFY2(worstCcx < 2e-6, qPrintable(QString("worst %1").arg(worstCcx)));  // the .dat prints 7 digits
    QVERIFY(worstExact < exactRuleTol);
  }
};

QTEST_APPLESS_MAIN(CcxCompareTest)
#include "ccx_compare_test.moc"
