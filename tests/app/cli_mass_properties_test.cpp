// flexim-cli mass-properties end to end: the text and --json output for a fixture against the
// closed form, the gmsh crank of the examples (a real CAD-like STL in mm) accepted and close to
// its constructive-geometry volume, and a non-zero exit with one clear line for a bad mesh.
#include "cli_run.h"

#include "tests/core/solid_references.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QtTest>

#include <cmath>
#include <numbers>

namespace {

QString mesh(const char* name) { return QString(FLEXIM_SOURCE_DIR) + "/tests/data/meshes/" + name; }

/// Lines of the text output for box_binary.stl at 7850 kg/m^3: rho a b c = 7850 * 3.375 =
/// 26493.75 kg, the least principal moment m (1.5^2 + 0.75^2)/12 about the first edge (2, 2, -1)/3.
/// (Outside the class: moc does not read the escaped quotes of the last one.)
const char* const kBoxLines[] = {
    "12 triangles, 8 vertices (24 read, welded within ", "1 shell\n", "volume: 3.375 m^3\n", "mass: 26493.75 kg\n",
    "centre of mass: [1000.5, -250.25, 40.125] m\n", "principal moments [kg m^2]: [6209.47265",
    "principal axes (mesh axes):\n  1: [0.6666666667, 0.6666666667, -0.3333333333]\n", "\"visual\": {\"file\": \""};

Eigen::Vector3d vec(const QJsonValue& v) {
  const QJsonArray a = v.toArray();
  return {a[0].toDouble(), a[1].toDouble(), a[2].toDouble()};
}

}  // namespace

class CliMassPropertiesTest : public QObject {
  Q_OBJECT

 private slots:
  void textOutput() {
    const Result r = cli({"mass-properties", mesh("box_binary.stl"), "--density", "7850"});
    QVERIFY2(r.code == 0, qPrintable(r.err + r.out));
    QVERIFY2(r.err.isEmpty(), qPrintable(r.err));
    for (const char* line : kBoxLines)
      QVERIFY2(r.out.contains(line), qPrintable(QString(line) + " missing in:\n" + r.out));
  }

  void jsonOutput() {
    const Result r = cli({"mass-properties", mesh("box_mm.stl"), "--density", "7850", "--scale", "0.001", "--json"});
    QVERIFY2(r.code == 0, qPrintable(r.err + r.out));
    QJsonParseError e;
    const QJsonObject o = QJsonDocument::fromJson(r.out.toUtf8(), &e).object();
    QVERIFY2(e.error == QJsonParseError::NoError, qPrintable(e.errorString() + "\n" + r.out));
    const flexim::test::SolidReference ref = flexim::test::fixtureBox(7850);
    QCOMPARE(o["density"].toDouble(), 7850.0);
    QCOMPARE(o["scale"].toDouble(), 0.001);
    QVERIFY(std::abs(o["mass"].toDouble() - ref.mass) <= 1e-12 * ref.mass);
    QVERIFY(std::abs(o["volume"].toDouble() - ref.volume) <= 1e-12 * ref.volume);
    QVERIFY((vec(o["centre_of_mass"]) - ref.centre).norm() <= 1e-12);
    Eigen::Matrix3d inertia;
    for (int i = 0; i < 3; ++i) inertia.row(i) = vec(o["inertia"].toArray()[i]).transpose();
    const double err = (inertia - ref.inertia).cwiseAbs().maxCoeff() / ref.inertia.cwiseAbs().maxCoeff();
    qInfo("box_mm.stl --scale 0.001 --json: inertia relative error %.2e", err);
    QVERIFY2(err <= 1e-9, qPrintable(QString::number(err)));
    // principal axes are the box's edges (the rotation's columns), moments ascending
    const Eigen::Matrix3d R = flexim::test::fixtureRotation();
    const QJsonArray axes = o["principal_axes"].toArray(), moments = o["principal_moments"].toArray();
    for (int k = 0; k < 3; ++k) QVERIFY(std::abs(std::abs(vec(axes[k]).dot(R.col(k))) - 1) < 1e-9);
    QVERIFY(moments[0].toDouble() <= moments[1].toDouble() && moments[1].toDouble() <= moments[2].toDouble());
    const QJsonObject m = o["mesh"].toObject();
    QCOMPARE(m["triangles"].toInt(), 12);
    QCOMPARE(m["vertices"].toInt(), 8);
    QCOMPARE(m["shells"].toInt(), 1);
    QCOMPARE(m["inside_out"].toBool(), false);
    QVERIFY(o["warnings"].toArray().isEmpty());
    // the body of the model format: the mesh placed with its origin at minus the centre
    const QJsonObject body = o["body"].toObject();
    QCOMPARE(body["mass"].toDouble(), o["mass"].toDouble());
    QVERIFY((vec(body["visual"].toObject()["position"]) + ref.centre).norm() <= 1e-12);
    QCOMPARE(body["visual"].toObject()["scale"].toDouble(), 0.001);
  }

  /// The crank of the examples (scripts/make_visual_meshes.sh: gmsh, STL in mm, per-facet
  /// vertices): a closed surface; its volume is the union of a 150 x 16 x 10 bar and two hubs
  /// (r 14 and 12, 18 high) less the faceting.
  void gmshCrank() {
    const QString crank = QString(FLEXIM_SOURCE_DIR) + "/resources/examples/meshes/crank.stl";
    const Result r = cli({"mass-properties", crank, "--density", "7850", "--scale", "0.001", "--json"});
    QVERIFY2(r.code == 0, qPrintable(r.err + r.out));
    const QJsonObject o = QJsonDocument::fromJson(r.out.toUtf8()).object();
    // bar + hubs - the bar inside each hub (the circular segment of the hub over |y| <= 8, 10 high)
    const auto segment = [](double radius) {  // integral over |y| <= 8 of sqrt(r^2 - y^2)
      return 2 * (4 * std::sqrt(radius * radius - 64) + radius * radius / 2 * std::asin(8 / radius));
    };
    const double pi = std::numbers::pi;
    const double csg = (150 * 16 * 10 + pi * 14 * 14 * 18 + pi * 12 * 12 * 18 - 10 * segment(14) - 10 * segment(12)) * 1e-9;
    const double volume = o["volume"].toDouble();
    qInfo("crank.stl: volume %.6g m^3, constructive geometry %.6g m^3 (%.3f %%), %d shell(s)", volume, csg,
          100 * (volume / csg - 1), o["mesh"].toObject()["shells"].toInt());
    QVERIFY(volume < csg && volume > 0.985 * csg);  // measured: 0.99 % less (chords of 2-6 mm on the hubs)
    QCOMPARE(o["mesh"].toObject()["shells"].toInt(), 1);
    // the hubs are symmetric about y = 0 and z = 0: the centre lies on the x axis
    const Eigen::Vector3d c = vec(o["centre_of_mass"]);
    QVERIFY2(std::abs(c.y()) < 1e-4 && std::abs(c.z()) < 1e-4 && c.x() > 0.03 && c.x() < 0.09, qPrintable(r.out));
  }

  /// --cylinder, --box, --sphere: the closed forms of the test's own references, and a body
  /// whose visual is the shape; a wrong count of dimensions, or a mesh and a shape, refused.
  void primitives() {
    Result r = cli({"mass-properties", "--cylinder", "0.02,0.1", "--density", "2700", "--json"});
    QVERIFY2(r.code == 0, qPrintable(r.err + r.out));
    QJsonObject o = QJsonDocument::fromJson(r.out.toUtf8()).object();
    const flexim::test::SolidReference cylinder = flexim::test::cylinderReference(0.02, 0.1, Eigen::Vector3d::Zero(), 2700);
    QVERIFY(std::abs(o["mass"].toDouble() / cylinder.mass - 1) < 1e-14);
    const QJsonArray rows = o["inertia"].toArray();
    for (int i = 0; i < 3; ++i)
      QVERIFY((vec(rows[i]) - Eigen::Vector3d(cylinder.inertia.row(i).transpose())).norm() < 1e-14 * cylinder.inertia.norm());
    const QJsonObject visual = o["body"].toObject()["visual"].toObject();
    QCOMPARE(visual["shape"].toString(), QString("cylinder"));
    QCOMPARE(visual["length"].toDouble(), 0.1);
    r = cli({"mass-properties", "--box", "3,1.5,0.75", "--density", "7850"});
    QVERIFY2(r.code == 0 && r.out.contains("mass: 26493.75 kg\n") && r.out.contains("\"visual\": {\"shape\":\"box\""), qPrintable(r.out));
    r = cli({"mass-properties", "--sphere", "0.1", "--density", "1000", "--json"});
    o = QJsonDocument::fromJson(r.out.toUtf8()).object();
    const double m = 1000 * 4 * std::numbers::pi * 1e-3 / 3;
    QVERIFY(std::abs(o["mass"].toDouble() / m - 1) < 1e-14);
    QVERIFY(std::abs(o["principal_moments"].toArray()[0].toDouble() / (0.4 * m * 0.01) - 1) < 1e-14);
    r = cli({"mass-properties", "--cylinder", "0.02", "--density", "2700"});
    QCOMPARE(r.code, 1);
    QVERIFY2(r.err.contains("--cylinder needs the radius and the length R,L"), qPrintable(r.err));
    r = cli({"mass-properties", mesh("box_ascii.stl"), "--sphere", "0.1", "--density", "2700"});
    QCOMPARE(r.code, 1);
    QVERIFY2(r.err.contains("a mesh file (STL, OBJ, PLY, glTF, ...) or one of --box"), qPrintable(r.err));
  }

  void badInputGivesOneClearLine() {
    Result r = cli({"mass-properties", mesh("box_open.stl"), "--density", "7850"});
    QCOMPARE(r.code, 1);
    QVERIFY(r.out.isEmpty());
    QVERIFY2(r.err.startsWith("flexim-cli: error: no mass properties for '" + mesh("box_open.stl") +
                              "': not the closed surface of a solid: 3 boundary edges") &&
                 r.err.count('\n') == 1,
             qPrintable(r.err));
    r = cli({"mass-properties", mesh("box_flipped_facet.stl"), "--density", "7850", "--json"});
    QCOMPARE(r.code, 1);
    QVERIFY2(r.err.contains("3 inconsistently oriented edge(s)"), qPrintable(r.err));
    r = cli({"mass-properties", mesh("no_such.stl"), "--density", "7850"});
    QCOMPARE(r.code, 1);
    QVERIFY2(r.err.contains("cannot read '" + mesh("no_such.stl") + "': no such file"), qPrintable(r.err));
    r = cli({"mass-properties", mesh("box_ascii.stl")});
    QCOMPARE(r.code, 1);
    QVERIFY2(r.err.contains("mass-properties needs --density RHO in kg/m^3"), qPrintable(r.err));
    r = cli({"mass-properties", mesh("box_ascii.stl"), "--density", "7850", "--scale", "-1"});
    QCOMPARE(r.code, 1);
    QVERIFY2(r.err.contains("--scale needs a positive factor"), qPrintable(r.err));
    // inside out: a warning, and the answer of the solid it encloses
    r = cli({"mass-properties", mesh("box_inside_out.stl"), "--density", "7850"});
    QCOMPARE(r.code, 0);
    QVERIFY2(r.err.startsWith("flexim-cli: warning: the surface is inside out"), qPrintable(r.err));
    QVERIFY2(r.out.contains("mass: 26493.75 kg\n"), qPrintable(r.out));
    r = cli({"--help"});
    QVERIFY(r.out.contains("flexim-cli mass-properties MESH --density RHO [--scale S] [--json]"));
  }
};

QTEST_GUILESS_MAIN(CliMassPropertiesTest)
#include "cli_mass_properties_test.moc"
