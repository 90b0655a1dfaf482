// Nastran bulk data syntax and cards on the decks of
// tests/data/fe/nastran (scripts/make_nastran_fixtures.py):
//  * nested coordinate systems (CORD2R/2C/2S through RID, CORD1R/1C/1S through grids that are in
//    other systems): basic positions and displacement directions against closed forms written
//    here; GRDSET defaults; cycles and undefined systems are file:line errors;
//  * a beam written in a rotated CORD2R has the free-free frequencies of the same beam in basic;
//  * replication (=, ==, *x, =n) gives the expanded deck exactly;
//  * skipped cards: one counted message per card type, harmless ones at info level, the others
//    as warnings and FeModel::model_changes; BEGIN SUPER; DEQATN; trailing commas; long cards;
//  * include fragments (.inc, .blk, .pch, .bulk) through io::importFe;
//  * RBE2 / RBE3 into FeModel::couplings, and a Craig-Bampton reduction with the RBE2 spider as
//    the interface equals the one with its grids as a rigid node set.
#include "core/fe/active_dofs.h"
#include "core/fe/assembly.h"
#include "core/fe/linear_constraints.h"
#include "core/fe/modal.h"
#include "core/fe/reduction.h"
#include "io/fe/import.h"
#include "io/fe/nastran.h"
#include "tests/fuzz/fuzz_check.h"
#include "tests/io_fe/damage.h"

#include <Eigen/Dense>
#include <QTemporaryDir>
#include <QtTest>

#include <cmath>
#include <fstream>
#include <numbers>
#include <random>
#include <sstream>

using namespace flexim;

namespace {

const std::string kDir = FLEXIM_FE_DATA "/nastran/";

std::string readFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

void writeFile(const std::string& path, const std::string& text) { std::ofstream(path, std::ios::binary) << text; }

fe::FeModel load(const std::string& name, Diagnostics& diag) {
  fe::FeModel m;
  if (!io::importFe(kDir + name, m, diag)) qWarning("%s", diag.str().c_str());
  return m;
}

/// A message of that severity containing text ("file:line: message").
bool has(const Diagnostics& d, Severity s, const std::string& text) {
  for (const auto& i : d.items())
    if (i.severity == s && (i.where + ": " + i.message).find(text) != std::string::npos) return true;
  return false;
}

int count(const Diagnostics& d, const std::string& text) {
  int n = 0;
  for (const auto& i : d.items()) n += i.str().find(text) != std::string::npos;
  return n;
}

std::string firstError(const Diagnostics& d) {
  for (const auto& i : d.items())
    if (i.severity == Severity::Error) return i.where + ": " + i.message;
  return {};
}

/// Reads an in-memory deck; checks the reader's promises (fails exactly with an error, a
/// model in range) and returns the first error.
std::string deckError(const std::string& text, Diagnostics* all = nullptr, fe::FeModel* model = nullptr) {
  fe::FeModel m;
  Diagnostics diag;
  const bool ok = io::readNastranBulkFromString(text, "in.bdf", m, diag);
  fuzz::checkDiagnostics(ok, diag);
  if (ok) fuzz::checkModel(m);
  if (all) *all = diag;
  if (model) *model = m;
  return firstError(diag);
}

Eigen::Vector3d at(const fe::FeModel& m, int id) { return m.coords.at(static_cast<std::size_t>(m.indexOf(id))); }

const char* kTet =
    "GRID,1,,0.,0.,0.\nGRID,2,,1.,0.,0.\nGRID,3,,0.,1.,0.\nGRID,4,,0.,0.,1.\nCTETRA,1,1,1,2,3,4\nPSOLID,1,1\n"
    "MAT1,1,2.1+11,,.3,7850.\n";

/// Elastic free-free eigenvalues of a deck.
Eigen::VectorXd elasticEigenvalues(const fe::FeModel& m, int count) {
  fe::AssembledMatrices mats;
  Diagnostics diag;
  if (!fe::assemble(m, {}, mats, diag)) return {};
  fe::ModalOptions o;
  o.elastic_modes = count;
  fe::ModalResult r;
  if (!fe::freeModesOfMesh(m, mats.K, mats.M, o, r, diag)) return {};
  return r.eigenvalues.tail(r.eigenvalues.size() - r.rigid_count);
}

/// Two unit cubes side by side along x as CHEXA: the second on its own grids 11-18 joined to the
/// first's at x = 1 by MPC cards (`mpcSids`: the SID of each of the 12), or sharing them.
std::string twoCubes(const std::vector<int>& mpcSids) {
  std::string deck = "PSOLID,1,1\nMAT1,1,2.1+11,,.3,7850.\n";
  const int corner[8][3] = {{0, 0, 0}, {1, 0, 0}, {1, 1, 0}, {0, 1, 0}, {0, 0, 1}, {1, 0, 1}, {1, 1, 1}, {0, 1, 1}};
  for (int block = 0; block < 2; ++block)
    for (int i = 0; i < 8; ++i)
      deck += "GRID," + std::to_string(10 * block + i + 1) + ",," + std::to_string(block + corner[i][0]) + ".," +
              std::to_string(corner[i][1]) + ".," + std::to_string(corner[i][2]) + ".\n";
  deck += "CHEXA,1,1,1,2,3,4,5,6\n,7,8\n";
  if (mpcSids.empty()) return deck + "CHEXA,2,1,2,12,13,3,6,16\n,17,7\n";
  deck += "CHEXA,2,1,11,12,13,14,15,16\n,17,18\n";
  const int pair[4][2] = {{11, 2}, {14, 3}, {15, 6}, {18, 7}};
  for (int k = 0; k < 12; ++k) {
    const auto [b, a] = pair[k / 3];
    const std::string c = std::to_string(k % 3 + 1);
    deck += "MPC," + std::to_string(mpcSids[std::size_t(k)]) + "," + std::to_string(b) + "," + c + ",1.," +
            std::to_string(a) + "," + c + ",-1.\n";
  }
  return deck;
}

/// Generalised eigenvalues of the reduced pencil (modes^T K modes, modes^T M modes).
Eigen::VectorXd reducedSpectrum(const fe::FeModel& m, const fe::ReducedBody& body) {
  fe::AssembledMatrices mats;
  Diagnostics diag;
  fe::assemble(m, {}, mats, diag);
  const Eigen::MatrixXd K = body.modes.transpose() * (mats.K * body.modes);
  const Eigen::MatrixXd M = body.modes.transpose() * (mats.M * body.modes);
  Eigen::GeneralizedSelfAdjointEigenSolver<Eigen::MatrixXd> es(0.5 * (K + K.transpose()), 0.5 * (M + M.transpose()));
  return es.eigenvalues();
}

}  // namespace

class NastranTest : public QObject {
  Q_OBJECT

 private slots:
  /// coords.bdf: every system and grid against closed forms (see the deck's comments).
  void nestedCoordinateSystems() {
    Diagnostics diag;
    const fe::FeModel m = load("coords.bdf", diag);
    QVERIFY2(!diag.hasErrors(), diag.str().c_str());
    const double s2 = std::sqrt(0.5), deg = std::numbers::pi / 180;
    // CORD2R 1: origin (1,2,3), z = (0,1,1)/sqrt2, x = (1,0,0), y = z x x = (0,1,-1)/sqrt2
    const Eigen::Vector3d o1(1, 2, 3), x1(1, 0, 0), y1(0, s2, -s2), z1(0, s2, s2);
    // CORD2C 2 (in 1): origin o1 + 0.5 x1, same axes
    const Eigen::Vector3d o2 = o1 + 0.5 * x1;
    // CORD2S 3 (in 2, points in cylindrical coordinates): origin o2 + 2 z1, z = z1, x = y1, y = -x1
    const Eigen::Vector3d o3 = o2 + 2 * z1, x3 = y1, y3 = -x1, z3 = z1;
    auto near = [](const Eigen::Vector3d& a, const Eigen::Vector3d& b) { return (a - b).norm() < 1e-12; };

    // the ring in CORD2C 2: radius 0.3 about the axis (o2, z1), at 0.7 along it, 30 degrees apart
    for (int k = 0; k < 12; ++k) {
      const Eigen::Vector3d p = at(m, 100 + k), d = p - o2;
      const Eigen::Vector3d radial = d - d.dot(z1) * z1;
      QVERIFY(std::abs(radial.norm() - 0.3) < 1e-12);
      QVERIFY(std::abs(d.dot(z1) - 0.7) < 1e-12);
      QVERIFY(near(radial, 0.3 * (std::cos(30 * k * deg) * x1 + std::sin(30 * k * deg) * y1)));
      // CD 2: r, theta, z directions at the grid
      const Eigen::Matrix3d& A = m.node_cd_axes.at(static_cast<std::size_t>(m.indexOf(100 + k)));
      QCOMPARE(m.node_cd.at(static_cast<std::size_t>(m.indexOf(100 + k))), 2);
      QVERIFY(near(A.col(0), radial / 0.3));
      QVERIFY(near(A.col(1), z1.cross(radial / 0.3)));
      QVERIFY(near(A.col(2), z1));
    }
    // the equator of CORD2S 3: radius 0.2 about o3 in the plane normal to z3; the pole
    for (int k = 0; k < 8; ++k) {
      const Eigen::Vector3d p = at(m, 200 + k);
      QVERIFY(near(p, o3 + 0.2 * (std::cos(45 * k * deg) * x3 + std::sin(45 * k * deg) * y3)));
      const Eigen::Matrix3d& A = m.node_cd_axes.at(static_cast<std::size_t>(m.indexOf(200 + k)));
      QVERIFY(near(A.col(0), (p - o3) / 0.2));  // r
      QVERIFY(near(A.col(1), -z3));             // theta grows away from +z
      QVERIFY(near(A.col(2), z3.cross((p - o3) / 0.2)));  // phi
    }
    QVERIFY(near(at(m, 208), o3 + 0.2 * z3));
    // CORD1R 4 by grids 901 (CP 2), 902 (CP 2), 903 (CP 3)
    const Eigen::Vector3d g901 = o2 + 0.4 * (s2 * x1 + s2 * y1) + z1, g902 = g901 + z1, g903 = o3 + 0.5 * x3;
    QVERIFY(near(at(m, 901), g901) && near(at(m, 902), g902) && near(at(m, 903), g903));
    const Eigen::Vector3d z4 = (g902 - g901).normalized();
    Eigen::Vector3d x4 = g903 - g901;
    x4 = (x4 - x4.dot(z4) * z4).normalized();
    const Eigen::Vector3d y4 = z4.cross(x4);
    QVERIFY(near(at(m, 300), g901 + 1 * x4 + 2 * y4 + 3 * z4));
    // CORD1C 5 and CORD1R 8 by basic grids 911..913: origin (5,0,0), z = -e3, x = e2, y = e1
    QVERIFY(near(at(m, 301), Eigen::Vector3d(7, 0, -1)));
    QVERIFY(near(at(m, 303), Eigen::Vector3d(7, 1, -3)));
    const Eigen::Matrix3d& A301 = m.node_cd_axes.at(static_cast<std::size_t>(m.indexOf(301)));
    QVERIFY(near(A301.col(0), Eigen::Vector3d(1, 0, 0)) && near(A301.col(1), Eigen::Vector3d(0, -1, 0)) &&
            near(A301.col(2), Eigen::Vector3d(0, 0, -1)));
    // CORD1S 6 by grids in CORD1R 4: origin g901 + x4 + y4 + z4, axes those of 4; grid 302 at
    // r = 1, theta = 90, phi = 90: origin + y4
    const Eigen::Vector3d o6 = g901 + x4 + y4 + z4;
    QVERIFY(near(at(m, 302), o6 + y4));
    const Eigen::Matrix3d& A302 = m.node_cd_axes.at(static_cast<std::size_t>(m.indexOf(302)));
    QVERIFY(near(A302.col(0), y4) && near(A302.col(1), -z4) && near(A302.col(2), -x4));
    // basic grids have CD 0 and the identity; the report names the systems
    QCOMPARE(m.node_cd.at(static_cast<std::size_t>(m.indexOf(1))), 0);
    QVERIFY(m.node_cd_axes.at(static_cast<std::size_t>(m.indexOf(1))).isIdentity());
    QVERIFY(has(diag, Severity::Info, "grids given in local coordinate systems (CP 2: 14, CP 3: 10, CP 4: 4"));
    QVERIFY(has(diag, Severity::Info, "grids have their own displacement directions (CD 2: 12, CD 3: 8, CD 5: 1, CD 6: 1, CD 8: 1)"));
    QVERIFY(m.model_changes.empty());
  }

  void grdsetDefaults() {
    Diagnostics diag;
    const fe::FeModel m = load("grdset.bdf", diag);
    QVERIFY2(!diag.hasErrors(), diag.str().c_str());
    // CORD2R 1: x = e2, y = -e1, z = e3
    QVERIFY((at(m, 2) - Eigen::Vector3d(0, 1, 0)).norm() < 1e-15);
    QVERIFY((at(m, 3) - Eigen::Vector3d(-1, 0, 0)).norm() < 1e-15);
    QVERIFY((at(m, 4) - Eigen::Vector3d(0, 0, 1)).norm() < 1e-15);  // CP 0 given
    QCOMPARE(m.node_cd, (std::vector<int>{2, 2, 2, 0}));
    // grid 1 is on the axis of the cylindrical CD 2
    QVERIFY(has(diag, Severity::Warning, "grdset.bdf:10: 1 grid(s) with CD = 2 lie on the polar axis"));
    // grid 3 at (-1, 0, 0): r = -e1, theta = -e2
    const Eigen::Matrix3d& A = m.node_cd_axes[2];
    QVERIFY((A.col(0) - Eigen::Vector3d(-1, 0, 0)).norm() < 1e-15 && (A.col(1) - Eigen::Vector3d(0, -1, 0)).norm() < 1e-15);
  }

  void coordinateErrors() {
    const std::string tet = kTet;
    // a cycle through RID
    QCOMPARE(deckError(tet + "CORD2R,1,2,0.,0.,0.,0.,0.,1.\n,1.,0.,0.\nCORD2R,2,1,0.,0.,0.,0.,0.,1.\n,1.,0.,0.\n"
                             "GRID,5,1,0.,0.,0.\n"),
             std::string("in.bdf:8: coordinate systems defined through each other: CORD2R 1 -> CORD2R 2 -> CORD2R 1 "
                         "(a system cannot depend on itself through RID, CP or the grids of a CORD1)"));
    // a cycle through the grids of a CORD1 and their CP
    QCOMPARE(deckError(tet + "CORD1R,3,5,6,7\nGRID,5,,0.,0.,0.\nGRID,6,3,0.,0.,1.\nGRID,7,,1.,0.,0.\n"),
             std::string("in.bdf:8: coordinate systems defined through each other: CORD1R 3 -> GRID 6 -> CORD1R 3 "
                         "(a system cannot depend on itself through RID, CP or the grids of a CORD1)"));
    // undefined systems and grids
    QCOMPARE(deckError(tet + "GRID,5,9,0.,0.,0.\n"),
             std::string("in.bdf:8: GRID 5: coordinate system CP = 9 is not defined (no CORD1R/1C/1S/2R/2C/2S 9)"));
    QCOMPARE(deckError(tet + "GRID,5,,0.,0.,0.,4\n"),
             std::string("in.bdf:8: GRID 5: displacement coordinate system CD = 4 is not defined (no "
                         "CORD1R/1C/1S/2R/2C/2S 4)"));
    QCOMPARE(deckError(tet + "CORD2C,1,7,0.,0.,0.,0.,0.,1.\n,1.,0.,0.\n"),
             std::string("in.bdf:8: CORD2C 1: reference system RID = 7 is not defined (no CORD1R/1C/1S/2R/2C/2S 7)"));
    QCOMPARE(deckError(tet + "CORD1S,1,1,2,99\n"),
             std::string("in.bdf:8: CORD1S 1: grid G3 = 99 is not defined (no GRID 99)"));
    // degenerate definitions, duplicates, a fluid grid
    QCOMPARE(deckError(tet + "CORD2R,1,,0.,0.,0.,0.,0.,1.\n,0.,0.,5.\n"),
             std::string("in.bdf:8: CORD2R 1: point C lies on the z axis (on the line through A and B): no x-z plane "
                         "(points A, B, C)"));
    QCOMPARE(deckError(tet + "CORD1R,1,1,2,2\n"), std::string("in.bdf:8: CORD1R 1: G1, G2 and G3 must be three different grids"));
    QCOMPARE(deckError(tet + "CORD2R,1,,0.,0.,0.,0.,0.,1.\n,1.,0.,0.\nCORD1C,1,1,2,3\n"),
             std::string("in.bdf:10: CORD1C 1: coordinate system 1 is defined twice (first CORD2R at in.bdf:8)"));
    QCOMPARE(deckError(tet + "GRID,5,,0.,0.,0.,-1\n"),
             std::string("in.bdf:8: GRID 5: CD = -1 makes it a fluid grid point, which is not supported"));
    QCOMPARE(deckError(tet + "GRDSET,,1\nGRDSET,,2\n"),
             std::string("in.bdf:9: GRDSET appears twice (first at in.bdf:8); only one is allowed"));
    // masses and springs: CID and CD are coordinate systems now
    Diagnostics d;
    fe::FeModel m;
    QCOMPARE(deckError(tet + "CORD2R,1,,0.,0.,0.,0.,0.,1.\n,0.,1.,0.\nGRID,5,,0.,0.,2.,1\nCELAS2,7,1000.,5,1\n"
                             "CONM2,8,5,1,2.,,,,,\n,1.,,2.,,,3.\n",
                       &d, &m),
             std::string());
    // CD 1 has x = e2: the spring acts along basic y; the CONM2's inertia rotates (Ixx' = Iyy = 2)
    QCOMPARE(m.springs.size(), std::size_t(1));
    QCOMPARE(m.springs[0].terms.size(), std::size_t(1));
    QCOMPARE(m.springs[0].terms[0].component, 1);
    QCOMPARE(m.rotary_inertias.size(), std::size_t(1));
    QVERIFY((m.rotary_inertias[0].J.diagonal() - Eigen::Vector3d(2, 1, 3)).norm() < 1e-14);
    QCOMPARE(deckError(tet + "CONM2,8,1,9,2.\n"),
             std::string("in.bdf:8: CONM2 8: coordinate system CID = 9 is not defined (no CORD1R/1C/1S/2R/2C/2S 9)"));
  }

  /// The same beam in basic and in a rotated CORD2R: positions R x + o, identical frequencies.
  void rotatedBeamSameFrequencies() {
    Diagnostics d1, d2;
    const fe::FeModel basic = load("beam_basic.bdf", d1), rotated = load("beam_rotated.bdf", d2);
    QVERIFY2(!d1.hasErrors() && !d2.hasErrors(), (d1.str() + d2.str()).c_str());
    const Eigen::Matrix3d R = Eigen::AngleAxisd(40 * std::numbers::pi / 180, Eigen::Vector3d(1, 2, 2) / 3).toRotationMatrix();
    const Eigen::Vector3d o(0.25, -0.5, 1.0);
    QCOMPARE(rotated.node_ids, basic.node_ids);
    double worst = 0;
    for (int i = 0; i < basic.nodeCount(); ++i) worst = std::max(worst, (rotated.coords[i] - (R * basic.coords[i] + o)).norm());
    QVERIFY2(worst < 1e-14, qPrintable(QString::number(worst)));
    const Eigen::VectorXd a = elasticEigenvalues(basic, 10), b = elasticEigenvalues(rotated, 10);
    QCOMPARE(a.size(), Eigen::Index(10));
    QCOMPARE(b.size(), a.size());
    const double dev = ((a - b).array() / a.array()).abs().maxCoeff() / 2;  // frequency ~ sqrt(eigenvalue)
    qInfo("rotated CORD2R beam: f1 = %.9g Hz, largest relative frequency difference %.2e", std::sqrt(a[0]) / (2 * std::numbers::pi),
          dev);
    QVERIFY2(dev < 1e-9, qPrintable(QString::number(dev)));
  }

  /// The beam mirrored (every GRID's y negated): each CHEXA is then numbered in the mirror order,
  /// which Nastran accepts. It is renumbered with one note and has the beam's frequencies.
  void mirroredSolidsAreRenumbered() {
    std::ifstream in(kDir + "beam_basic.bdf");
    std::ostringstream out;
    for (std::string line; std::getline(in, line);) {
      if (line.rfind("GRID,", 0) == 0) {
        std::vector<std::string> f;
        std::stringstream fields(line);
        for (std::string x; std::getline(fields, x, ',');) f.push_back(x);
        f[4] = f[4][0] == '-' ? f[4].substr(1) : "-" + f[4];
        line = f[0];
        for (std::size_t k = 1; k < f.size(); ++k) line += "," + f[k];
      }
      out << line << "\n";
    }
    QTemporaryDir dir;
    const std::string mirrored = dir.filePath("mirrored.bdf").toStdString();
    std::ofstream(mirrored) << out.str();
    fe::FeModel m;
    Diagnostics diag, d1;
    QVERIFY2(io::importFe(mirrored, m, diag), diag.str().c_str());
    QVERIFY2(has(diag, Severity::Info, "solid element(s) numbered in the mirror order (first CHEXA 1) renumbered"),
             diag.str().c_str());
    const fe::FeModel basic = load("beam_basic.bdf", d1);
    QCOMPARE(m.elements.size(), basic.elements.size());
    const Eigen::VectorXd a = elasticEigenvalues(basic, 6), b = elasticEigenvalues(m, 6);
    QCOMPARE(b.size(), Eigen::Index(6));
    QVERIFY2(((a - b).array() / a.array()).abs().maxCoeff() < 1e-9, qPrintable(QString::number(b[0])));
  }

  /// A MAT1 is checked where a solid uses it: one that only skipped bars use may hold anything;
  /// a NU derived from E and G is said to be derived.
  void materialsCheckedWhereSolidsUseThem() {
    std::ifstream in(kDir + "beam_basic.bdf");
    std::string deck((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    const std::size_t end = deck.find("ENDDATA");
    QVERIFY(end != std::string::npos);
    QTemporaryDir dir;
    const auto write = [&](const std::string& name, const std::string& text) {
      const std::string path = dir.filePath(QString::fromStdString(name)).toStdString();
      std::ofstream(path) << text;
      return path;
    };
    // E and G give NU = 0.5: only a bar uses it
    const std::string bar = "MAT1,2,2.1+11,7.0+10,,7850.\nPBAR,5,2,1.0e-4,1.0e-9,1.0e-9,2.0e-9\nCBAR,900,5,1,2,0.,0.,1.\n";
    fe::FeModel m;
    Diagnostics diag;
    QVERIFY2(io::importFe(write("bar.bdf", deck.substr(0, end) + bar + "ENDDATA\n"), m, diag), diag.str().c_str());
    QVERIFY2(diag.str().find("MAT1 2") == std::string::npos, diag.str().c_str());
    // the same values for the solids' material
    std::string solid = deck;
    solid.replace(solid.find("MAT1           1  2.1+11              .3   7850."), 48, "MAT1,1,2.1+11,7.0+10,,7850.");
    fe::FeModel m2;
    Diagnostics diag2;
    io::importFe(write("solid.bdf", solid), m2, diag2);
    QVERIFY2(has(diag2, Severity::Warning, "MAT1 1: Poisson's ratio nu = 0.5 must be in (-1, 0.5) (NU = E / (2 G) - 1 = "
                                           "0.5, derived from E and G)"),
             diag2.str().c_str());
  }

  /// What real decks hold besides cards: `key = value` lines of ADAPT and OUTPUT blocks (part of
  /// the skipped card), an INCLUDE whose quoted name goes on over the next line, and a punch file
  /// of results, which is refused as results rather than read as bulk data.
  void optionBlocksContinuedIncludesAndPunchedResults() {
    std::ifstream in(kDir + "beam_basic.bdf");
    std::string deck((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    const std::size_t end = deck.find("ENDDATA");
    QTemporaryDir dir;
    const auto write = [&](const std::string& name, const std::string& text) {
      const std::string path = dir.filePath(QString::fromStdString(name)).toStdString();
      std::ofstream(path) << text;
      return path;
    };
    write("extra_part.bdf", "CONM2,901,1,,0.5\n");  // a point mass: the fragment was read
    const std::string blocks = "ADAPT,1\n  analysis=freq\n  maxiter = 3\nOUTPUT\n  PLOT = ALL\n"
                               "INCLUDE 'extra\n_part.bdf'\n";
    fe::FeModel m;
    Diagnostics diag;
    QVERIFY2(io::importFe(write("blocks.bdf", deck.substr(0, end) + blocks + "ENDDATA\n"), m, diag), diag.str().c_str());
    QVERIFY2(!diag.hasErrors() && diag.str().find("ANALYS") == std::string::npos, diag.str().c_str());
    QCOMPARE(m.elements.size(), std::size_t(40));
    QCOMPARE(m.masses.size(), std::size_t(3));  // the CONM2, one entry per direction
    // a name left open to the end of the file
    Diagnostics open;
    fe::FeModel m2;
    QVERIFY(!io::importFe(write("open.bdf", deck.substr(0, end) + "INCLUDE 'extra\n"), m2, open));
    QVERIFY2(has(open, Severity::Error, "INCLUDE: missing closing quote (the file name runs to the end of the file)"),
             open.str().c_str());
    // results punched by Nastran
    Diagnostics punched;
    fe::FeModel m3;
    QVERIFY(!io::importFe(write("modes.pch", "$TITLE   = BEAM\n$SUBCASE ID =           1\n$EIGENVECTOR\n"
                                             "         1       G      1.0E+00      0.0E+00      0.0E+00\n"),
                          m3, punched));
    QVERIFY2(has(punched, Severity::Error, "a Nastran punch file of results"), punched.str().c_str());
  }

  void replicationEqualsExpanded() {
    Diagnostics d1, d2;
    const fe::FeModel r = load("replication.bdf", d1), e = load("replication_expanded.bdf", d2);
    QVERIFY2(!d1.hasErrors() && !d2.hasErrors(), (d1.str() + d2.str()).c_str());
    QCOMPARE(r.nodeCount(), 99);
    QCOMPARE(r.elements.size(), std::size_t(40));
    // the same grids (another order: rows of the replication deck), the same elements
    for (int i = 0; i < e.nodeCount(); ++i) QCOMPARE(at(r, e.node_ids[i]), e.coords[i]);
    QCOMPARE(r.elements.size(), e.elements.size());
    for (std::size_t k = 0; k < r.elements.size(); ++k) {
      QCOMPARE(r.elements[k].id, e.elements[k].id);
      for (int j = 0; j < 8; ++j)
        QCOMPARE(r.node_ids[r.elements[k].nodes[j]], e.node_ids[e.elements[k].nodes[j]]);
    }
    // in memory: =n of real increments that are not binary fractions, blanks, a literal value
    fe::FeModel m;
    QCOMPARE(deckError(std::string(kTet) + "GRID,10,,0.,1.,2.\n=,*1,,*0.1,=,7.\n=3\n", nullptr, &m), std::string());
    for (int k = 1; k <= 4; ++k) QVERIFY((at(m, 10 + k) - Eigen::Vector3d(0.1 * k, 1, 7)).norm() < 1e-14);
    // errors
    QCOMPARE(deckError("BEGIN BULK\n=,*1\n" + std::string(kTet)),
             std::string("in.bdf:2: replication entry '=' without a card before it to copy"));
    QCOMPARE(deckError(std::string(kTet) + "=2\n"),
             std::string("in.bdf:8: =2 repeats the codes of a replication entry ('=', '*1', ...), but the card before it "
                         "is not one"));
    QCOMPARE(deckError(std::string(kTet) + "GRID,10,,0.,1.,2.\n=,*1,*1,==\n"),
             std::string("in.bdf:9: replication of GRID: field 3: '*1' increments a blank field of the card before"));
    QCOMPARE(deckError(std::string(kTet) + "GRID,10,,0.,1.,2.\n=,*1.5,==\n"),
             std::string("in.bdf:9: replication of GRID: field 2: cannot add the real increment '*1.5' to '10'"));
    QCOMPARE(deckError(std::string(kTet) + "GRID,10,,0.,1.,2.\n=,*1,=,*1.,==\n=999999\n"),
             std::string("in.bdf:10: =999999: at most 100000 repetitions"));
    // replicating a skipped card counts it
    Diagnostics d;
    QCOMPARE(deckError(std::string(kTet) + "SPC1,1,123,1\n=,*1,==\n=4\n", &d), std::string());
    QVERIFY(has(d, Severity::Info, "SPC1: 6 cards skipped"));
  }

  /// MPC cards join two blocks exactly as shared grids do; cards of several sets (the case
  /// control would choose one) are not applied, and say so.
  void mpcJoinsTwoBlocks() {
    Diagnostics diag;
    fe::FeModel joined, shared, two;
    QVERIFY2(io::readNastranBulkFromString(twoCubes(std::vector<int>(12, 7)), "mpc.bdf", joined, diag), diag.str().c_str());
    QVERIFY2(io::readNastranBulkFromString(twoCubes({}), "shared.bdf", shared, diag), diag.str().c_str());
    QCOMPARE(joined.constraints.size(), std::size_t(12));
    const Eigen::VectorXd a = elasticEigenvalues(joined, 8), b = elasticEigenvalues(shared, 8);
    QCOMPARE(a.size(), Eigen::Index(8));
    QVERIFY((a - b).cwiseAbs().maxCoeff() < 1e-9 * b.maxCoeff());
    std::vector<int> sids(12, 7);
    sids[5] = 8;
    Diagnostics d2;
    QVERIFY(io::readNastranBulkFromString(twoCubes(sids), "two.bdf", two, d2));
    QVERIFY(two.constraints.empty());
    QVERIFY2(has(d2, Severity::Warning, "MPC: cards of 2 sets (SID 7, 8)"), d2.str().c_str());
    QCOMPARE(two.model_changes, std::vector<std::string>{"multipoint constraints of several sets not applied (MPC SID 7, 8)"});
  }

  void skippedCards() {
    Diagnostics diag;
    const fe::FeModel m = load("skipped.bdf", diag);
    QVERIFY2(!diag.hasErrors(), diag.str().c_str());
    QCOMPARE(m.nodeCount(), 4);  // trailing commas; the superelement's grids are not read
    QCOMPARE(m.elements.size(), std::size_t(1));
    // harmless: info, one per card type, counted
    QVERIFY(has(diag, Severity::Info, "skipped.bdf:8: PARAM: 2 cards skipped (parameters and methods"));
    QVERIFY(has(diag, Severity::Info, "SPC1: 2 cards skipped (single-point constraints"));
    QVERIFY(has(diag, Severity::Info, "skipped.bdf:22: DEQATN: 3 cards skipped (design optimisation"));
    QVERIFY(has(diag, Severity::Info, "FORCE: 1 card skipped (loads"));
    QVERIFY(has(diag, Severity::Info, "PSHELL: 1 card skipped (properties of elements that are not imported"));
    QCOMPARE(count(diag, "PARAM:"), 1);
    // changes the model: warnings, and phrases in model_changes
    QVERIFY(has(diag, Severity::Warning, "CQUAD4: 1 card skipped (shell elements: their stiffness and mass are missing)"));
    QVERIFY(has(diag, Severity::Warning, "RBAR: 1 card skipped (rigid elements other than RBE2/RBE3"));
    QCOMPARE(m.constraints.size(), std::size_t(1));  // the MPC is read
    QVERIFY(has(diag, Severity::Warning, "BSURF: 2 cards skipped (contact definitions"));
    QVERIFY(has(diag, Severity::Warning, "FOOBAR: 1 card skipped (a card this importer does not know"));
    QVERIFY(has(diag, Severity::Warning, "skipped.bdf:67: BEGIN SUPER=2: the bulk data of part superelement 2 is not "
                                         "imported (3 cards skipped)"));
    QCOMPARE(m.model_changes, (std::vector<std::string>{"part superelement 2 (BEGIN SUPER=2) not imported",
                                                         "shell elements left out (CQUAD4: 1)",
                                                         "contact not applied (BCTABLE: 1, BSURF: 2)",
                                                         "rigid elements left out (RBAR: 1)",
                                                         "unknown cards skipped (FOOBAR: 1)"}));
    // nothing else complains (no text-after-column-80 or long-card messages for BSURF)
    for (const auto& i : diag.items())
      QVERIFY2(i.message.find("skipped") != std::string::npos || i.message.find("BEGIN") != std::string::npos,
               i.str().c_str());
    // other BEGIN sections, and a section that runs to the end of the file
    Diagnostics d;
    fe::FeModel a;
    QCOMPARE(deckError("BEGIN BULK\n" + std::string(kTet) + "BEGIN BULK AUXMODEL = 3\nGRID,7,,1.,1.,1.\nBEGIN TRMC=1\nX\n",
                       &d, &a),
             std::string());
    QVERIFY(has(d, Severity::Info, "in.bdf:9: BEGIN AUXMODEL=3: auxiliary model of a shape optimisation"));
    QVERIFY(has(d, Severity::Warning, "in.bdf:11: BEGIN TRMC=1: this bulk data section is not imported (1 card skipped)"));
    QCOMPARE(a.model_changes, (std::vector<std::string>{"bulk data section 'BEGIN TRMC=1' not imported"}));
  }

  void includeFragments() {
    for (const char* name : {"fragments/tet.inc", "fragments/tet.blk", "fragments/tet.pch", "fragments/tet.bulk",
                             "fragments/model.bulk"}) {
      Diagnostics diag;
      const fe::FeModel m = load(name, diag);
      QVERIFY2(!diag.hasErrors(), (name + std::string(": ") + diag.str()).c_str());
      QCOMPARE(m.nodeCount(), 4);
      QCOMPARE(m.elements.size(), std::size_t(1));
      QCOMPARE(m.materials.at(0).E, 2.1e11);
      QCOMPARE(m.materials.at(0).rho, 7850.0);
    }
    QVERIFY(io::feFileFilter().find("*.blk *.inc *.pch *.bulk") != std::string::npos);
    // an .inc with CalculiX keywords is read as CalculiX
    QTemporaryDir dir;
    const std::string inc = dir.path().toStdString() + "/part.inc";
    writeFile(inc, "** a CalculiX include\n*NODE\n1,0,0,0\n2,1,0,0\n3,0,1,0\n4,0,0,1\n*ELEMENT,TYPE=C3D4,ELSET=E\n1,1,2,3,4\n"
                   "*MATERIAL,NAME=S\n*ELASTIC\n2.1e11,.3\n*DENSITY\n7850.\n*SOLID SECTION,ELSET=E,MATERIAL=S\n");
    fe::FeModel m;
    Diagnostics diag;
    QVERIFY2(io::importFe(inc, m, diag), diag.str().c_str());
    QCOMPARE(m.elements.size(), std::size_t(1));
    QCOMPARE(m.materials.at(0).name, std::string("S"));
  }

  void rbe2Rbe3Couplings() {
    Diagnostics diag;
    const fe::FeModel m = load("spider.bdf", diag);
    QVERIFY2(!diag.hasErrors(), diag.str().c_str());
    QCOMPARE(m.couplings.size(), std::size_t(2));
    auto ids = [&](const std::vector<int>& nodes) {
      std::vector<int> out;
      for (int n : nodes) out.push_back(m.node_ids[static_cast<std::size_t>(n)]);
      return out;
    };
    const fe::Coupling &r2 = m.couplings[0], &r3 = m.couplings[1];
    QCOMPARE(r2.name, std::string("RBE2 101"));
    QVERIFY(r2.rigid);
    QCOMPARE(m.node_ids[static_cast<std::size_t>(r2.reference_node)], 1001);
    QCOMPARE(ids(r2.nodes), (std::vector<int>{91, 92, 93, 94, 95, 96, 97, 98, 99}));  // 91 THRU 93, ...
    QVERIFY(r2.weights.empty());
    QVERIFY(r2.where.find("spider.bdf:") != std::string::npos);
    QCOMPARE(r3.name, std::string("RBE3 102"));
    QVERIFY(!r3.rigid);
    QCOMPARE(m.node_ids[static_cast<std::size_t>(r3.reference_node)], 1002);
    QCOMPARE(ids(r3.nodes), (std::vector<int>{1, 3, 7, 9, 2, 4, 6, 8, 5}));
    QCOMPARE(r3.weights, (std::vector<double>{1, 1, 1, 1, 2, 2, 2, 2, 4.5}));  // grid 5: 4. + .5
    QVERIFY(m.model_changes.empty());  // a coupling is an interface or applied as a constraint
    // problems
    const std::string tet = kTet;
    Diagnostics d;
    fe::FeModel a;
    QCOMPARE(deckError(tet + "RBE2,5,99,123,1,2\nRBE3,6,,1,123456,1.,123,2,3\n,UM,2,1\n", &d, &a), std::string());
    QVERIFY(has(d, Severity::Warning, "in.bdf:8: RBE2 5: the reference grid 99 is not defined (no GRID 99); the coupling is "
                                      "skipped"));
    QVERIFY(has(d, Severity::Warning, "in.bdf:10: RBE3 6: UM (dependent DOFs moved to the attached grids) ignored"));
    QCOMPARE(a.couplings.size(), std::size_t(1));
    QCOMPARE(deckError(tet + "RBE2,5,1,123,2,1\n"),
             std::string("in.bdf:8: RBE2 5: grid 1 is both the reference and an attached grid"));
    QCOMPARE(deckError(tet + "RBE2,5,1,127,2\n"),
             std::string("in.bdf:8: RBE2 5: CM '127' is not a component list (digits 1 to 6, each at most once)"));
    QCOMPARE(deckError(tet + "RBE2,5,1,123\n"), std::string("in.bdf:8: RBE2 5 attaches no grid"));
    QCOMPARE(deckError(tet + "RBE2,5,1,123,4,THRU,2\n"), std::string("in.bdf:8: RBE2 5: 4 THRU 2 runs backwards"));
    QCOMPARE(deckError(tet + "RBE2,5,1,123,THRU,2\n"), std::string("in.bdf:8: RBE2 5: THRU needs a grid before and after it"));
    QCOMPARE(deckError(tet + "RBE3,6,,1,123456,1,123,2,3\n"),
             std::string("in.bdf:8: RBE3 6: expected a weight WTi (a real number) in field 6, found '1'"));
    QCOMPARE(deckError(tet + "RBE3,6,,1,123456,-1.,123,2,3\n"), std::string("in.bdf:8: RBE3 6: weight '-1.' must be positive"));
    QCOMPARE(deckError(tet + "RBE3,6,,1,123456,1.,123\n"), std::string("in.bdf:8: RBE3 6: weight '1.' has no grids"));
    QCOMPARE(deckError(tet + "RBE2,1,1,123,2\n"), std::string("in.bdf:8: RBE2 1: element id is used twice"));
    Diagnostics w;
    QCOMPARE(deckError(tet + "RBE2,5,1,12,2\n", &w), std::string());
    QVERIFY(has(w, Severity::Warning, "RBE2 5: CM = 12 does not tie every translation (123)"));
  }

  /// Craig-Bampton with the RBE2 spider (reference grid off the mesh) as the interface, by name and
  /// by reference grid, equals the same grids as a rigid node set; a CONM2 on the reference grid
  /// is in the reduced body's mass.
  void craigBamptonSpider() {
    Diagnostics diag;
    const fe::FeModel m = load("spider.bdf", diag);
    QVERIFY2(!diag.hasErrors(), diag.str().c_str());
    fe::FeModel withSet = m;
    withSet.node_sets["SPIDER"] = m.couplings.at(0).nodes;
    auto run = [](const fe::FeModel& mesh, const std::string& interface, fe::ReducedBody& body, fe::ReductionReport& rep) {
      fe::ReductionOptions o;
      o.method = fe::ReductionOptions::Method::CraigBampton;
      o.modes = 8;
      o.interfaces = {{interface, fe::Interface::Kind::Rigid}};
      Diagnostics d;
      const bool ok = fe::reduce(mesh, o, body, rep, d);
      if (!ok) qWarning("%s", d.str().c_str());
      return ok;
    };
    fe::ReducedBody byName, byRef, bySet;
    fe::ReductionReport rName, rRef, rSet;
    QVERIFY(run(m, "RBE2 101", byName, rName));
    QVERIFY(run(m, "1001", byRef, rRef));
    QVERIFY(run(withSet, "SPIDER", bySet, rSet));
    const Eigen::VectorXd &fn = rName.modal.eigenvalues, &fs = rSet.modal.eigenvalues;
    QCOMPARE(fn.size(), Eigen::Index(8));
    QCOMPARE(fs.size(), fn.size());
    const double fixedDev = ((fn - fs).array() / fs.array()).abs().maxCoeff();
    QVERIFY2(fixedDev < 1e-8, qPrintable(QString::number(fixedDev)));
    QVERIFY(((rRef.modal.eigenvalues - fs).array() / fs.array()).abs().maxCoeff() < 1e-8);
    // the reduced pencils: 6 rigid modes at ~0 and the same elastic spectrum
    const Eigen::VectorXd sn = reducedSpectrum(m, byName), ss = reducedSpectrum(withSet, bySet);
    QCOMPARE(sn.size(), Eigen::Index(14));
    QCOMPARE(ss.size(), sn.size());
    const double scale = ss.maxCoeff();
    double rigidDev = 0, elasticDev = 0;
    for (Eigen::Index i = 0; i < sn.size(); ++i) {
      if (i < 6) rigidDev = std::max(rigidDev, std::abs(sn[i] - ss[i]) / scale);
      else elasticDev = std::max(elasticDev, std::abs(sn[i] / ss[i] - 1));
    }
    qInfo("RBE2 spider vs node set: fixed-interface f1 = %.9g Hz, eigenvalue differences fixed %.1e, reduced elastic %.1e, "
          "rigid %.1e (of the largest)",
          std::sqrt(fs[0]) / (2 * std::numbers::pi), fixedDev, elasticDev, rigidDev);
    QVERIFY2(elasticDev < 1e-8 && rigidDev < 1e-8, qPrintable(QString::number(std::max(elasticDev, rigidDev))));
    // the interface of a coupling keeps its reference grid as the reference point
    QVERIFY((byName.interfaces.at(0).reference - Eigen::Vector3d(0.3125 + 0.0625, 0, 0)).norm() < 1e-15);
    // a CONM2 of 2.5 kg on the reference grid: in the reduced body's total mass
    Diagnostics dm;
    const fe::FeModel heavy = load("spider_mass.bdf", dm);
    fe::ReducedBody body;
    fe::ReductionReport rep;
    QVERIFY(run(heavy, "RBE2 101", body, rep));
    const double beam = 7850.0 * 0.3125 * 0.03125 * 0.03125;
    qInfo("spider with CONM2: reduced body mass %.12g kg = beam %.12g + 2.5", body.invariants.I1, beam);
    QVERIFY(std::abs(body.invariants.I1 - (beam + 2.5)) < 1e-9 * (beam + 2.5));
    QVERIFY(std::abs(byName.invariants.I1 - beam) < 1e-9 * beam);
    // the mass moves with the interface: the fixed-interface modes do not see it
    QVERIFY(((rep.modal.eigenvalues - fn).array() / fn.array()).abs().maxCoeff() < 1e-8);
  }

  /// Random damage to the decks of this test: never a crash, fails exactly with an error, and
  /// a model that is read has every index (couplings, CD) in range.
  void damagedDecks() {
    std::mt19937 rng(1818);
    int failures = 0, total = 0;
    for (const char* name : {"coords.bdf", "spider.bdf", "replication.bdf", "skipped.bdf"}) {
      const std::string base = readFile(kDir + name);
      for (int iter = 0; iter < 400; ++iter) {
        const std::string t = test::damage(base, iter, rng, "0123456789 +-.*,=$E\t\nxT");
        fe::FeModel m;
        Diagnostics diag;
        io::NastranOptions opt;
        opt.follow_includes = false;
        const bool ok = io::readNastranBulkFromString(t, "fuzz.bdf", m, diag, opt);
        fuzz::checkDiagnostics(ok, diag);
        if (ok) fuzz::checkModel(m);
        failures += !ok;
        ++total;
      }
    }
    qInfo("damaged decks: %d of %d refused with an error", failures, total);
    QVERIFY(failures > total / 10);
  }
};

QTEST_GUILESS_MAIN(NastranTest)
#include "nastran_test.moc"
