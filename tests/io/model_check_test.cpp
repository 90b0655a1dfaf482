// The model check (io/model_check.h): every message names its item by JSON path, so the GUI can
// select it; the figures agree with the examples' known mobility; reduced-body files that are
// missing or older than their FE source are reported at the body's file.
#include "core/fe/reduced_body.h"
#include "core/system/reference_conditions.h"
#include "io/model_check.h"
#include "io/model_json.h"

#include <QFile>
#include <QTemporaryDir>
#include <QtTest>

#include <algorithm>
#include <memory>

using namespace flexim;

namespace {

std::string example(const std::string& name) { return std::string(FLEXIM_SOURCE_DIR) + "/resources/examples/" + name; }
QString rodFixture(const QString& name) { return QString(FLEXIM_SOURCE_DIR) + "/tests/data/fe/rod/" + name; }

ModelSpec load(const std::string& path) {
  ModelSpec m;
  Diagnostics diag;
  if (!io::loadModelFile(path, m, diag)) qFatal("cannot load %s: %s", path.c_str(), diag.str().c_str());
  return m;
}

/// The messages at a path (all severities).
std::vector<Diagnostic> at(const io::ModelCheckReport& r, const std::string& where) {
  std::vector<Diagnostic> out;
  for (const Diagnostic& d : r.messages.items())
    if (d.where == where) out.push_back(d);
  return out;
}

/// The one message at where of severity s whose text contains part; nullptr when none.
const Diagnostic* find(const io::ModelCheckReport& r, const std::string& where, Severity s, const std::string& part) {
  for (const Diagnostic& d : r.messages.items())
    if (d.where == where && d.severity == s && d.message.find(part) != std::string::npos) return &d;
  return nullptr;
}

bool writeFile(const QString& path, const QByteArray& bytes) {
  QFile f(path);
  return f.open(QIODevice::WriteOnly) && f.write(bytes) == bytes.size();
}

}  // namespace

class ModelCheckTest : public QObject {
  Q_OBJECT
 private slots:
  /// Rigid slider-crank: driven, no freedom left; nothing to warn about.
  void rigidSliderCrankHasNoFreedom() {
    const auto r = io::checkModel(load(example("slider_crank_rigid.json")), example(""));
    QVERIFY2(r.ok(), r.messages.str().c_str());
    QCOMPARE(r.figures.dof, 0);
    QVERIFY2(find(r, "", Severity::Info, "0 degrees of freedom: 18 coordinates"), r.messages.str().c_str());
    for (const Diagnostic& d : r.messages.items()) QVERIFY2(d.severity == Severity::Info, d.str().c_str());
    QVERIFY(r.topology.rfind("topology: 3 bodies (3 rigid) + ground, 4 joints", 0) == 0);
  }

  /// Flexible slider-crank: 8 elastic modes free (the rigid motion is driven), the virtual
  /// bodies' nodes told at the virtual bodies.
  void flexibleSliderCrankTellsTheVirtualBodies() {
    const auto r = io::checkModel(load(example("slider_crank_flexible.json")), example(""));
    QVERIFY2(r.ok(), r.messages.str().c_str());
    QCOMPARE(r.figures.dof, 8);
    QVERIFY(find(r, "", Severity::Info, "8 degrees of freedom"));
    QVERIFY2(find(r, "virtual_bodies[0]", Severity::Info, "virtual body 'rod_A' attached to 'rod' on nodes k = 1, "),
             r.messages.str().c_str());
    QVERIFY(find(r, "virtual_bodies[1]", Severity::Info, "virtual body 'rod_B' attached to 'rod' on nodes k = "));
    // the example's .frb is shipped without its source: told, not warned
    QVERIFY2(find(r, "flexible_bodies[0].file", Severity::Info, "source 'rod_round_c3d10.inp' not found"),
             r.messages.str().c_str());
  }

  /// A rigid body with no joint: warned at its path, the others not.
  void looseBodyIsWarnedAtItsPath() {
    ModelSpec m = load(example("double_pendulum.json"));
    RigidBodySpec loose;
    loose.name = "loose";
    m.bodies.push_back(loose);
    const auto r = io::checkModel(m, example(""));
    QVERIFY2(r.ok(), r.messages.str().c_str());  // a free-floating body may be meant
    const std::string path = "bodies[" + std::to_string(m.bodies.size() - 1) + "]";
    QVERIFY2(find(r, path, Severity::Warning, "body 'loose' is not connected to ground"), r.messages.str().c_str());
    int warnings = 0;
    for (const Diagnostic& d : r.messages.items()) warnings += d.severity == Severity::Warning;
    QCOMPARE(warnings, 1);
  }

  /// Two planar four-bars of revolute joints sharing a crank: each joint with dependent rows is
  /// warned at its own path, and the rows add up to what the rank leaves out.
  void fourBarRedundantJointsAreNamedByPath() {
    const ModelSpec m = load(example("n_four_bar_2.json"));
    const auto r = io::checkModel(m, example(""));
    QVERIFY2(r.ok(), r.messages.str().c_str());
    QCOMPARE(r.figures.dof, 1);
    QVERIFY(!r.figures.redundant_elements.empty());
    int rows = 0;
    for (const RedundantConstraint& e : r.figures.redundant_elements) {
      rows += e.rows;
      QVERIFY2(e.where.rfind("joints[", 0) == 0, e.where.c_str());
      const std::size_t j = std::stoul(e.where.substr(7));
      QVERIFY(j < m.joints.size());
      QCOMPARE(e.label, "joint '" + m.joints[j].name + "'");
      const Diagnostic* d = find(r, e.where, Severity::Warning, e.label + ": ");
      QVERIFY2(d, r.messages.str().c_str());
      QCOMPARE(d->location.item, e.where + " '" + m.joints[j].name + "'");
    }
    QCOMPARE(rows, r.figures.constraint_rows - r.figures.rank);
    // the same joints as the run's note names
    QCOMPARE(r.figures.redundant_elements.size(), r.figures.redundant.size());
  }

  /// A .frb whose FE source changed after the reduction is stale; a vanished source or .frb is told.
  void staleReducedBodyIsWarned() {
    QTemporaryDir dir;
    QVERIFY(QFile::copy(rodFixture("rod_round_c3d10.frb"), dir.filePath("rod_round_c3d10.frb")));
    QVERIFY(QFile::copy(rodFixture("rod_round_c3d10.inp"), dir.filePath("rod_round_c3d10.inp")));
    QFile in(QString::fromStdString(example("slider_crank_flexible.json")));
    QVERIFY(in.open(QIODevice::ReadOnly));
    QByteArray text = in.readAll();
    QVERIFY(text.contains("\"rod/rod_round_c3d10.frb\""));
    text.replace("\"rod/rod_round_c3d10.frb\"", "\"rod_round_c3d10.frb\"");
    QVERIFY(writeFile(dir.filePath("model.json"), text));
    const ModelSpec m = load(dir.filePath("model.json").toStdString());
    const std::string modelDir = dir.path().toStdString();
    const std::string file = "flexible_bodies[0].file";

    // the recorded SHA-256 matches the source: nothing to say
    auto r = io::checkModel(m, modelDir);
    QVERIFY2(r.ok(), r.messages.str().c_str());
    QVERIFY2(at(r, file).empty(), r.messages.str().c_str());

    // the source edited since
    QFile source(dir.filePath("rod_round_c3d10.inp"));
    QVERIFY(source.open(QIODevice::Append));
    source.write("** a comment added after the reduction\n");
    source.close();
    r = io::checkModel(m, modelDir);
    QVERIFY2(find(r, file, Severity::Warning,
                  "source 'rod_round_c3d10.inp' changed since the reduction (hash differs); reduce again"),
             r.messages.str().c_str());
    QVERIFY(r.ok());  // stale is a warning: the body still runs

    // the source gone: cannot tell
    QVERIFY(source.remove());
    r = io::checkModel(m, modelDir);
    QVERIFY2(find(r, file, Severity::Info, "source 'rod_round_c3d10.inp' not found"), r.messages.str().c_str());
    QVERIFY(!find(r, file, Severity::Warning, "changed"));

    // the .frb gone while its data is loaded: runs, will not load again
    QVERIFY(QFile::remove(dir.filePath("rod_round_c3d10.frb")));
    r = io::checkModel(m, modelDir);
    QVERIFY2(find(r, file, Severity::Warning, "is gone"), r.messages.str().c_str());
  }

  /// A flexible body whose file is missing: one error at its file, saying why; no compile.
  void missingReducedBodyIsAnError() {
    ModelSpec m = load(example("slider_crank_flexible.json"));
    m.flexible_bodies[0].file = "rod/no_such_body.frb";
    m.flexible_bodies[0].data = nullptr;
    const auto r = io::checkModel(m, example(""));
    QVERIFY(!r.ok());
    QVERIFY(!r.compiled);
    const auto errors = at(r, "flexible_bodies[0].file");
    QCOMPARE(errors.size(), std::size_t(1));
    QCOMPARE(errors[0].severity, Severity::Error);
    QVERIFY2(errors[0].message.find("no_such_body.frb' does not exist") != std::string::npos, errors[0].message.c_str());
    QCOMPARE(errors[0].location.item, std::string("flexible_bodies[0] 'rod'"));
    QCOMPARE(errors[0].location.field, std::string("file"));
    QVERIFY(!r.topology.empty());  // told whatever the verdict
  }

  /// PAC: ill-posed for the rectangular rod (two nearly equal moments, refused by the compile at
  /// the body's reference); applicable once the body's inertia has three distinct moments (told as info).
  void principalAxisApplicability() {
    ModelSpec rect = load(example("slider_crank_flexible_rect_mac.json"));
    rect.flexible_bodies[0].reference = ReferenceFrame::PrincipalAxis;
    const auto r = io::checkModel(rect, example(""));
    QVERIFY2(find(r, "flexible_bodies[0].reference", Severity::Error, "PAC is ill-posed"), r.messages.str().c_str());
    QVERIFY(!r.compiled);
    QVERIFY(!find(r, "flexible_bodies[0].reference", Severity::Info, "principal-axis conditions apply"));

    // the round rod (0.3 m long) made 20 times as wide in y, its FE origin at one end: distinct moments
    ModelSpec m = load(example("slider_crank_flexible.json"));
    auto body = std::make_shared<fe::ReducedBody>(*m.flexible_bodies[0].data);
    for (auto& x : body->coords) x = Vec3(x.x(), 20 * x.y(), x.z());
    body->invariants = fe::computeInvariants(body->coords, body->node_mass, body->modes, body->invariants.Kbar);
    const PrincipalAxisCheck pac = PrincipalAxisConditions::applicability(body->invariants);
    QVERIFY2(pac.distinct, pac.warning.c_str());
    QVERIFY(pac.minRelativeGap > 0.1);
    m.flexible_bodies[0].data = body;
    m.flexible_bodies[0].reference = ReferenceFrame::PrincipalAxis;
    const auto s = io::checkModel(m, example(""));
    QVERIFY2(find(s, "flexible_bodies[0].reference", Severity::Info, "principal-axis conditions apply"),
             s.messages.str().c_str());
    // applicability is the centroidal check: the FE origin at the rod's end does not matter
    QVERIFY(body->invariants.I2.norm() > 1e-3);
  }
};

QTEST_GUILESS_MAIN(ModelCheckTest)
#include "model_check_test.moc"
