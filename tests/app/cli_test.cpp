// flexim-cli end to end: the bundled examples run and write the documented CSV; bad input
// gives one clear line and a non-zero exit code.
#include "cli_run.h"

#include "io/csv_writer.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

#include <algorithm>
#include <cmath>
#include <numbers>


namespace {

QString example(const char* name) { return QString(FLEXIM_SOURCE_DIR) + "/resources/examples/" + name; }

}  // namespace

class CliTest : public QObject {
  Q_OBJECT
  QTemporaryDir m_dir;

  /// Runs resources/examples/NAME.json to its end and reads its CSV; empty on success, else why not.
  QString runExample(const char* name, flexim::io::CsvTable& table) {
    const QString out = m_dir.filePath(QString(name) + "_full.csv");
    const Result r = cli({"run", example((std::string(name) + ".json").c_str()), "--out", out});
    if (r.code != 0) return r.err + r.out;
    return flexim::io::readCsv(out.toStdString(), table) ? QString() : "cannot read " + out;
  }

 private slots:
  void sliderCrankExampleWritesDocumentedCsv() {
    const QString out = m_dir.filePath("x.csv");
    const Result r = cli({"run", example("slider_crank_rigid.json"), "--out", out});
    QVERIFY2(r.code == 0, qPrintable(r.err + r.out));
    QVERIFY(r.out.contains("steps:"));
    flexim::io::CsvTable t;
    std::string error;
    QVERIFY2(flexim::io::readCsv(out.toStdString(), t, &error), error.c_str());
    // metadata: version, model file + SHA-256, integrator, date
    const auto meta = [&](const char* key) {
      for (const auto& m : t.metadata)
        if (QString::fromStdString(m).startsWith(key)) return true;
      return false;
    };
    QVERIFY(meta("Flexim"));
    QVERIFY(meta("model: slider_crank_rigid.json sha256="));
    QVERIFY(meta("integrator:"));
    QVERIFY(meta("date:"));
    // the quality summary: on standard output and in the CSV trailer, before "# end: ok"
    QVERIFY2(r.out.contains("quality: constraint residuals at the steps: position "), qPrintable(r.out));
    QVERIFY(r.out.contains("quality: steps: "));
    QVERIFY(r.out.contains("quality: energy: E(0) = "));
    QVERIFY(r.out.contains(", work of drivers "));
    QVERIFY(meta("quality: constraints position_residual="));
    QVERIFY(meta("quality: steps accepted="));
    QVERIFY(meta("quality: energy initial="));
    QVERIFY(QString::fromStdString(t.metadata.back()).startsWith("end: ok t=0.1 steps="));
    QCOMPARE(QString::fromStdString(t.header.at(0)), QString("time [s]"));
    const int x = t.find("slider.position.x"), a = t.find("slider.acceleration.x");
    QVERIFY(x > 0 && a > 0);
    QCOMPARE(QString::fromStdString(t.header[x]), QString("slider.position.x [m]"));
    QCOMPARE(QString::fromStdString(t.header[a]), QString("slider.acceleration.x [m/s^2]"));
    QVERIFY(t.rows() > 100);
    QVERIFY(std::abs(t.columns[0].back() - 0.1) < 1e-12);
    // closed-form slider-crank: r = 0.15, l = 0.3, omega = 150 rad/s
    const double r0 = 0.15, l = 0.3, w = 150;
    double maxPos = 0, maxAcc = 0, peak = 0;
    for (size_t i = 0; i < t.rows(); ++i) {
      const double th = w * t.columns[0][i], s = std::sin(th), c = std::cos(th), D = std::sqrt(l * l - r0 * r0 * s * s);
      const double acc = -r0 * w * w * c - r0 * r0 * w * w * ((c * c - s * s) / D + r0 * r0 * s * s * c * c / (D * D * D));
      maxPos = std::max(maxPos, std::abs(t.columns[x][i] - (r0 * c + D)));
      maxAcc = std::max(maxAcc, std::abs(t.columns[a][i] - acc));
      peak = std::max(peak, std::abs(acc));
    }
    QVERIFY2(maxPos <= 1e-6, qPrintable(QString::number(maxPos)));
    QVERIFY2(maxAcc / peak <= 1e-3, qPrintable(QString::number(maxAcc / peak)));
  }

  void overridesAndGenAlpha() {
    const QString out = m_dir.filePath("ga.csv");
    const Result r = cli({"run", example("slider_crank_rigid.json"), "--out", out, "--t-end", "0.02", "--step", "5e-5",
                          "--integrator", "gen-alpha"});
    QVERIFY2(r.code == 0, qPrintable(r.err + r.out));
    flexim::io::CsvTable t;
    QVERIFY(flexim::io::readCsv(out.toStdString(), t));
    QVERIFY(std::abs(t.columns[0].back() - 0.02) < 1e-12);
    QVERIFY(r.out.contains("gen-alpha"));
  }

  /// --rtol/--atol reach both integrators; with gen-alpha they select the adaptive step unless
  /// --step-control fixed is given (the settings line of the summary says which).
  void tolerancesForBothIntegrators() {
    const QString out = m_dir.filePath("tol.csv");
    Result r = cli({"run", example("double_pendulum.json"), "--out", out, "--t-end", "0.2", "--integrator", "gen-alpha",
                    "--rtol", "1e-5", "--atol", "1e-7"});
    QVERIFY2(r.code == 0, qPrintable(r.err + r.out));
    QVERIFY2(r.out.contains("adaptive rtol=1e-05 atol=1e-07"), qPrintable(r.out));
    QVERIFY2(r.err.contains("adaptive, rtol = 1e-05, atol = 1e-07"), qPrintable(r.err));
    flexim::io::CsvTable t;
    QVERIFY(flexim::io::readCsv(out.toStdString(), t));
    QVERIFY(std::abs(t.columns[0].back() - 0.2) < 1e-12);
    r = cli({"run", example("double_pendulum.json"), "--out", out, "--t-end", "0.05", "--integrator", "gen-alpha",
             "--rtol", "1e-5", "--step-control", "fixed"});
    QVERIFY2(r.code == 0, qPrintable(r.err + r.out));
    QVERIFY2(!r.out.contains("adaptive") && r.out.contains("h="), qPrintable(r.out));
    r = cli({"run", example("double_pendulum.json"), "--out", out, "--t-end", "0.05", "--integrator", "ida", "--rtol",
             "1e-5", "--atol", "1e-9"});
    QVERIFY2(r.code == 0, qPrintable(r.err + r.out));
    QVERIFY2(r.out.contains("rtol=1e-05 atol=1e-09"), qPrintable(r.out));
    r = cli({"run", example("double_pendulum.json"), "--step-control", "sometimes"});
    QVERIFY(r.code != 0);
    QVERIFY2(r.err.contains("unknown step control 'sometimes'"), qPrintable(r.err));
    r = cli({"run", example("double_pendulum.json"), "--rtol", "-1"});
    QVERIFY(r.code != 0);
    QVERIFY2(r.err.contains("--rtol needs a positive number"), qPrintable(r.err));
  }

  void allExamplesValidateAndRun_data() {
    QTest::addColumn<QString>("file");
    // the closed loops written with revolute joints only (redundant joint sets) are checked against
    // their references in core_closed_loop
    for (const char* f : {"slider_crank_rigid.json", "double_pendulum.json", "spatial_mechanism.json",
                          "slider_crank_flexible.json", "slider_crank_flexible_rect_mac.json",
                          "flexible_pendulum.json", "screw_lift.json",
                          "pendulum_stop.json", "n_four_bar_2.json", "n_four_bar_10.json", "bricard.json",
                          "andrews_squeezer.json", "engine_mount.json", "hanging_chain.json",
                          "slider_crank_clearance_rigid.json", "slider_crank_clearance_flexible.json",
                          "bouncing_ball.json", "block_sliding.json"})
      QTest::newRow(f) << QString(f);
  }
  void allExamplesValidateAndRun() {
    QFETCH(QString, file);
    const Result v = cli({"validate", example(file.toUtf8().constData())});
    QVERIFY2(v.code == 0, qPrintable(v.err + v.out));
    QVERIFY(v.out.contains("degrees of freedom"));
    QStringList args{"run", example(file.toUtf8().constData()), "--out", m_dir.filePath(file + ".csv")};
    if (file.contains("flexible")) args << "--t-end" << "0.01";  // the full runs are in the physics tests
    if (file.contains("four_bar") || file.contains("bricard")) args << "--t-end" << "0.5";  // full runs: core_closed_loop
    const Result r = cli(args);
    QVERIFY2(r.code == 0, qPrintable(r.err + r.out));
  }

  /// Every example with the integrator its file does not name (the flexible ones briefly): all end
  /// ok except the double pendulum with generalized-alpha at the step written for IDA's largest
  /// step (0.01 s), whose energy drifts by 0.5 % of its scale and whose tip is 0.3 m off the IDA
  /// solution at 5 s: a warning, exit status 3 (docs/validation.md, "Run quality").
  void examplesWithTheOtherIntegrator_data() {
    QTest::addColumn<QString>("file");
    QTest::addColumn<QString>("integrator");
    QTest::addColumn<int>("code");
    QTest::newRow("slider_crank_rigid gen-alpha") << "slider_crank_rigid.json" << "gen-alpha" << 0;
    QTest::newRow("double_pendulum gen-alpha") << "double_pendulum.json" << "gen-alpha" << 3;
    QTest::newRow("spatial_mechanism ida") << "spatial_mechanism.json" << "ida" << 0;
    QTest::newRow("screw_lift ida") << "screw_lift.json" << "ida" << 0;
    QTest::newRow("engine_mount gen-alpha") << "engine_mount.json" << "gen-alpha" << 0;
    QTest::newRow("flexible_pendulum gen-alpha") << "flexible_pendulum.json" << "gen-alpha" << 0;
    for (const char* f : {"slider_crank_flexible.json", "slider_crank_flexible_rect_mac.json"})
      QTest::newRow((std::string(f) + " ida").c_str()) << QString(f) << "ida" << 0;
    // the mixed timestepping schemes run smooth models as their base schemes
    QTest::newRow("slider_crank_rigid mixed-bathe") << "slider_crank_rigid.json" << "mixed-bathe" << 0;
    QTest::newRow("slider_crank_flexible mixed-ed-alpha") << "slider_crank_flexible.json" << "mixed-ed-alpha" << 0;
    QTest::newRow("pendulum_stop mixed-gen-alpha") << "pendulum_stop.json" << "mixed-gen-alpha" << 0;
    QTest::newRow("slider_crank_rigid hets") << "slider_crank_rigid.json" << "hets" << 0;
  }

  /// `static`: a row per load level, the last one the closed form of the spring chain (the bottom
  /// mass at -(0.5 + 15 m g / k)); a bad level count is refused.
  void staticWritesALevelPerRow() {
    const QString out = m_dir.filePath("chain_static.csv");
    Result r = cli({"static", example("hanging_chain.json"), "--load-steps", "2", "--out", out});
    QVERIFY2(r.code == 0 && r.out.contains("load 1: converged"), qPrintable(r.err + r.out));
    flexim::io::CsvTable t;
    QVERIFY(flexim::io::readCsv(out.toStdString(), t));
    const int z = t.find("m5.position.z"), s = t.find("load_factor");
    QVERIFY(z > 0 && s > 0 && t.rows() == 3);
    QVERIFY(std::abs(t.columns[s].back() - 1.0) < 1e-15);
    QVERIFY(std::abs(t.columns[z].back() + (0.5 + 15 * 0.2 * 9.81 / 400)) < 1e-10);
    r = cli({"static", example("hanging_chain.json"), "--load-steps", "0"});
    QVERIFY2(r.code != 0 && r.err.contains("--load-steps 0: expected a whole number"), qPrintable(r.err));
  }

  /// `beam` meshes a member into a model file, `static` prints each level's tip: the 45° bend of
  /// the example made again from an empty model (8 spatial elements on an arc of radius 100),
  /// loaded by 600 out of its plane, ends with its tip 53.47 out of the plane, as the example does;
  /// a bad element is refused naming its key.
  void beamMeshesAMemberThatStaticSolves() {
    const QString model = m_dir.filePath("bend.json");
    {
      QFile f(model);
      QVERIFY(f.open(QIODevice::WriteOnly));
      f.write(R"({"schema_version": 1, "name": "bend"})");
    }
    const char* element = R"({"youngs_modulus": 1e7, "shear_modulus": 5e6, "area": 1, "iy": 0.08333333333333333,
      "iz": 0.08333333333333333, "torsion_constant": 0.16666666666666666, "shear": true, "shear_factor": 1})";
    Result r = cli({"beam", model, "--name", "bend", "--arc", "100,45", "--elements", "8", "--element", element, "--clamp"});
    QVERIFY2(r.code == 0 && r.out.contains("8 elements"), qPrintable(r.err + r.out));
    {
      // the load and the sensor on the member's last node
      QFile f(model);
      QVERIFY(f.open(QIODevice::ReadOnly));
      QJsonObject m = QJsonDocument::fromJson(f.readAll()).object();
      f.close();
      m["forces"] = QJsonDocument::fromJson(
                        R"([{"name": "load", "type": "point_force", "body": "bend_8", "marker": "m", "vector": [0, 0, 600]}])")
                        .array();
      m["sensors"] = QJsonDocument::fromJson(
                         R"([{"name": "tip", "type": "marker", "body": "bend_8", "marker": "m", "quantities": ["position"]}])")
                         .array();
      QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
      f.write(QJsonDocument(m).toJson());
    }
    r = cli({"static", model, "--out", m_dir.filePath("bend.csv")});
    QVERIFY2(r.code == 0 && r.out.contains("load_factor 1 -  tip.position.x 47.1507 m  tip.position.y 15.6848 m  "
                                           "tip.position.z 53.4743 m"),
             qPrintable(r.err + r.out));
    r = cli({"beam", model, "--name", "other", "--length", "1", "--elements", "2", "--element", R"({"area": -1})"});
    QVERIFY2(r.code != 0 && r.err.contains("beam_elements[0].area: error: must be positive"), qPrintable(r.err));
  }

  /// linearize engine_mount.json: the bouncing mode at √(kz/m) = 50 rad/s with ζ = 0.05, the
  /// response z/fz at resonance 1/(c ω) = 1/(600 · 50) m/N, phase −90°; a bad pair is refused.
  void linearizeWritesModesAndFrequencyResponses() {
    const QString modes = m_dir.filePath("mount_modes.csv"), frf = m_dir.filePath("mount_frf.csv");
    Result r = cli({"linearize", example("engine_mount.json"), "--out", modes, "--frf", "engine.fz:engine.z", "--freq",
                    "7.957747154594767:7.957747154594767:1", "--frf-out", frf, "--matrices", m_dir.filePath("mount")});
    QVERIFY2(r.code == 0 && r.out.contains("6 degrees of freedom") && r.out.contains("7.95775              50          0.05"),
             qPrintable(r.err + r.out));
    QVERIFY(QFile::exists(m_dir.filePath("mount/B.mtx")) && QFile::exists(m_dir.filePath("mount/C.mtx")));
    flexim::io::CsvTable t;
    std::string error;
    QVERIFY2(flexim::io::readCsv(frf.toStdString(), t, &error), error.c_str());
    const int mag = t.find("engine.z/engine.fz magnitude"), phase = t.find("engine.z/engine.fz phase");
    QVERIFY(mag >= 0 && phase >= 0 && t.rows() == 1);
    QCOMPARE(QString::fromStdString(t.header[std::size_t(mag)]), QString("engine.z/engine.fz magnitude [m/N]"));
    QVERIFY(std::abs(t.columns[std::size_t(mag)][0] * 600 * 50 - 1) < 1e-6);
    QVERIFY(std::abs(t.columns[std::size_t(phase)][0] + 90) < 1e-4);
    r = cli({"linearize", example("engine_mount.json"), "--out", modes, "--frf", "engine.fz:crank.z", "--freq", "1:2:3"});
    QVERIFY2(r.code != 0 && r.err.contains("output 'crank.z': no body 'crank'"), qPrintable(r.err));
    r = cli({"linearize", example("engine_mount.json"), "--out", modes, "--at", "0.5"});
    QVERIFY2(r.code == 0 && r.out.contains("the state of a run at t = 0.5 s"), qPrintable(r.err + r.out));
  }

  /// block_sliding.json: friction on four (statically indeterminate) corners stops the block after
  /// v / (mu g) and v^2 / (2 mu g).
  void blockSlidesToRestAtTheClosedForm() {
    flexim::io::CsvTable t;
    const QString why = runExample("block_sliding", t);
    QVERIFY2(why.isEmpty(), qPrintable(why));
    const double v = 2.0, mu = 0.3, g = 9.81, stop = v / (mu * g);
    const auto& time = t.columns[0];
    const auto& x = t.columns[t.find("block.position.x")];
    const auto& vx = t.columns[t.find("block.velocity.x")];
    QVERIFY2(std::abs(x.back() - v * v / (2 * mu * g)) < 1e-6, qPrintable(QString::number(x.back())));
    for (size_t i = 0; i < t.rows(); ++i) {
      const double expected = std::max(0.0, v - mu * g * time[i]);
      QVERIFY2(std::abs(vx[i] - expected) < 1e-9 + (std::abs(time[i] - stop) < 2e-3 ? 1e-2 : 0.0),
               qPrintable(QString("t = %1: %2, expected %3").arg(time[i]).arg(vx[i]).arg(expected)));
    }
  }

  /// The flexible clearance slider-crank runs through its impacts with every mixed scheme and
  /// writes the contact channels; IDA and generalized-alpha refuse it, naming the contact and the
  /// schemes that can run it.
  void clearanceSliderCrankWritesContactChannels() {
    for (const char* integ : {"mixed-bathe", "mixed-gen-alpha", "mixed-ed-alpha", "moreau", "hets"}) {
      const QString out = m_dir.filePath(QString("clearance_%1.csv").arg(integ));
      const Result r = cli({"run", example("slider_crank_clearance_flexible.json"), "--integrator", integ, "--t-end",
                            "0.03", "--out", out});
      QVERIFY2(r.code == 0, qPrintable(r.err + r.out));
      flexim::io::CsvTable t;
      QVERIFY(flexim::io::readCsv(out.toStdString(), t));
      for (const char* c : {"guide_1.gap", "guide_1.normal_force", "guide_1.tangential_force", "guide_1.normal_impulse",
                            "guide_1.status", "guide_4.impacts"})
        QVERIFY2(t.find(c) > 0, c);
      double impacts = 0, force = 0;
      for (const char* k : {"guide_1", "guide_2", "guide_3", "guide_4"}) {
        impacts += t.columns[t.find((std::string(k) + ".impacts").c_str())].back();
        for (double f : t.columns[t.find((std::string(k) + ".normal_force").c_str())]) force = std::max(force, f);
      }
      QVERIFY2(impacts >= 2 && force > 0, qPrintable(QString("%1: %2 impacts").arg(integ).arg(impacts)));
      QVERIFY2(r.out.contains("ended with an impact"), qPrintable(r.out));
    }
    for (const char* integ : {"ida", "gen-alpha"}) {
      const Result r = cli({"run", example("slider_crank_clearance_flexible.json"), "--integrator", integ, "--out",
                            m_dir.filePath("refused.csv")});
      QVERIFY(r.code != 0);
      QVERIFY2(r.err.contains("contact 'guide'") && r.err.contains("mixed-bathe"), qPrintable(r.err));
    }
  }
  void examplesWithTheOtherIntegrator() {
    QFETCH(QString, file);
    QFETCH(QString, integrator);
    QFETCH(int, code);
    const QString out = m_dir.filePath(file + "." + integrator + ".csv");
    QStringList args{"run", example(file.toUtf8().constData()), "--integrator", integrator, "--out", out};
    if (file.contains("flexible")) args << "--t-end" << "0.01";
    const Result r = cli(args);
    QVERIFY2(r.code == code, qPrintable(QString::number(r.code) + "\n" + r.err + r.out));
    flexim::io::CsvTable t;
    QVERIFY(flexim::io::readCsv(out.toStdString(), t));
    QVERIFY2(QString::fromStdString(t.metadata.back()).startsWith(code ? "end: warning " : "end: ok "),
             t.metadata.back().c_str());
  }

  /// A conservative double pendulum of our own with a far too large generalized-alpha step: the
  /// run ends "# end: warning" with the reason, and flexim-cli exits with the documented
  /// status 3; with a sane step the same model ends ok.
  void energyDriftEndsWarningWithItsOwnExitStatus() {
    const QString model = m_dir.filePath("swing.json");
    QFile f(model);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write(R"({
  "schema_version": 1,
  "name": "swing",
  "gravity": [0, -9.81, 0],
  "ground": {"markers": [{"name": "pivot", "position": [0, 0, 0]}]},
  "bodies": [
    {"name": "upper", "mass": 2, "inertia": [1e-6, 0.06, 0.06], "position": [0.3, 0, 0],
     "markers": [{"name": "top", "position": [-0.3, 0, 0]}, {"name": "knee", "position": [0.3, 0, 0]}]},
    {"name": "lower", "mass": 1, "inertia": [1e-6, 0.03, 0.03], "position": [0.9, 0, 0],
     "markers": [{"name": "knee", "position": [-0.3, 0, 0]}]}
  ],
  "joints": [
    {"name": "hip", "type": "revolute", "body1": "ground", "marker1": "pivot", "body2": "upper", "marker2": "top"},
    {"name": "knee", "type": "revolute", "body1": "upper", "marker1": "knee", "body2": "lower", "marker2": "knee"}
  ],
  "sensors": [{"name": "energy", "type": "energy", "quantities": ["total"]}],
  "simulation": {"t_end": 4, "step": 0.02, "output_interval": 0.02, "integrator": "gen-alpha"}
})");
    f.close();
    const QString out = m_dir.filePath("swing.csv");
    Result r = cli({"run", model, "--out", out});
    QVERIFY2(r.code == 3, qPrintable(QString::number(r.code) + "\n" + r.err + r.out));
    QVERIFY2(r.out.contains("finished WITH WARNINGS"), qPrintable(r.out));
    QVERIFY2(r.err.contains("flexim-cli: warning: the energy of a model on which nothing does work is off by up to"),
             qPrintable(r.err));
    QVERIFY(!r.err.contains("error"));
    flexim::io::CsvTable t;
    QVERIFY(flexim::io::readCsv(out.toStdString(), t));
    QCOMPARE(t.columns[0].back(), 4.0);  // the results are all there
    const QString end = QString::fromStdString(t.metadata.back());
    QVERIFY2(end.startsWith("end: warning t=4 steps=200 the energy of a model on which nothing does work is off by "
                            "up to"),
             qPrintable(end));
    QVERIFY(end.contains("of its energy scale") && end.contains("(limit 0.001)"));
    QVERIFY(QString::fromStdString(t.metadata[t.metadata.size() - 2]).startsWith("quality: warning: the energy"));

    r = cli({"run", model, "--out", out, "--step", "1e-3"});
    QVERIFY2(r.code == 0, qPrintable(r.err + r.out));
    QVERIFY(flexim::io::readCsv(out.toStdString(), t));
    QVERIFY2(QString::fromStdString(t.metadata.back()).startsWith("end: ok t=4 steps=4000"), t.metadata.back().c_str());

    // the exit status is documented
    r = cli({"--help"});
    QCOMPARE(r.code, 0);
    QVERIFY2(r.out.contains("exit status:") && r.out.contains("  3  run: finished, but a run-quality check failed"),
             qPrintable(r.out));
  }

  /// A sensor in mm and deg with chosen components: the CSV has exactly those
  /// columns, their units in the headers, the values of the SI sensor beside it scaled by 1000
  /// and 180/pi; a component that none of the quantities has is refused at its JSON path.
  void sensorUnitsAndComponentsInTheCsv() {
    const QString model = m_dir.filePath("units.json");
    const auto write = [&](const QByteArray& components) {
      QFile f(model);
      if (!f.open(QIODevice::WriteOnly)) return false;
      f.write(R"({
  "schema_version": 1,
  "gravity": [0, -9.81, 0],
  "ground": {"markers": [{"name": "pivot"}]},
  "bodies": [{"name": "rod", "mass": 1, "inertia": [1e-6, 0.05, 0.05], "position": [0.4, 0, 0],
              "markers": [{"name": "top", "position": [-0.4, 0, 0]}, {"name": "tip", "position": [0.4, 0, 0]}]}],
  "joints": [{"name": "hinge", "type": "revolute", "body1": "ground", "marker1": "pivot", "body2": "rod", "marker2": "top"}],
  "sensors": [
    {"name": "si", "type": "marker", "body": "rod", "marker": "tip", "quantities": ["position", "angular_velocity"]},
    {"name": "tip", "type": "marker", "body": "rod", "marker": "tip", "quantities": ["position", "angular_velocity"],
     "components": )" + components + R"(, "length_unit": "mm", "angle_unit": "deg"},
    {"name": "si_hinge", "type": "joint", "joint": "hinge", "quantities": ["coordinate"]},
    {"name": "hinge", "type": "joint", "joint": "hinge", "quantities": ["coordinate"], "angle_unit": "deg"}
  ],
  "simulation": {"t_end": 0.3, "output_interval": 0.01}
})");
      return true;
    };
    QVERIFY(write(R"(["y", "z"])"));
    const QString out = m_dir.filePath("units.csv");
    Result r = cli({"run", model, "--out", out});
    QVERIFY2(r.code == 0, qPrintable(r.err + r.out));
    flexim::io::CsvTable t;
    QVERIFY(flexim::io::readCsv(out.toStdString(), t));
    QStringList headers;
    for (const auto& h : t.header) headers << QString::fromStdString(h);
    QCOMPARE(headers, QStringList({"time [s]", "si.position.x [m]", "si.position.y [m]", "si.position.z [m]",
                                   "si.angular_velocity.x [rad/s]", "si.angular_velocity.y [rad/s]",
                                   "si.angular_velocity.z [rad/s]", "tip.position.y [mm]", "tip.position.z [mm]",
                                   "tip.angular_velocity.y [deg/s]", "tip.angular_velocity.z [deg/s]",
                                   "si_hinge.coordinate.rotation [rad]", "hinge.coordinate.rotation [deg]"}));
    const double deg = 180 / std::numbers::pi;
    double moved = 0;
    for (size_t i = 0; i < t.rows(); ++i) {
      const auto col = [&](const char* name) { return t.columns[t.find(name)][i]; };
      // the CSV holds shortest round-trip text, so the scaled value is exact to its last digit
      QVERIFY(std::abs(col("tip.position.y") - 1000 * col("si.position.y")) <= 1e-12 * std::abs(1000 * col("si.position.y")));
      QVERIFY(std::abs(col("tip.angular_velocity.z") - deg * col("si.angular_velocity.z")) <=
              1e-12 * std::abs(deg * col("si.angular_velocity.z")));
      QVERIFY(std::abs(col("hinge.coordinate.rotation") - deg * col("si_hinge.coordinate.rotation")) <=
              1e-12 * std::abs(deg * col("si_hinge.coordinate.rotation")));
      moved = std::max(moved, std::abs(col("si.position.y")));
    }
    QVERIFY(moved > 0.1);  // it swung down

    QVERIFY(write(R"(["y", "w"])"));
    r = cli({"validate", model});
    QCOMPARE(r.code, 1);
    QVERIFY2(r.err.contains("sensors[1].components[1]: error: no quantity of this sensor has component 'w' (expected "
                            "one of x, y, z)"),
             qPrintable(r.err));
    r = cli({"run", model, "--out", out});
    QVERIFY(r.code != 0);
    QVERIFY2(r.err.contains("sensors[1].components[1]"), qPrintable(r.err));
  }

  /// The screw lift (screw joint turned through a gear): the table rises by pitch x ratio x motor
  /// angle / 2 pi, its screw angle counts turns, and the potential energy is m g z.
  void screwLiftFollowsTheGearAndThread() {
    flexim::io::CsvTable t;
    const QString failed = runExample("screw_lift", t);
    QVERIFY2(failed.isEmpty(), qPrintable(failed));
    const int z = t.find("table.position.z"), angle = t.find("lead_screw.coordinate.rotation"),
              lift = t.find("lead_screw.coordinate.translation"), potential = t.find("energy.potential.value");
    QVERIFY(z > 0 && angle > 0 && lift > 0 && potential > 0);
    const double pitch = -0.01, ratio = -0.25, omega = 4 * std::numbers::pi, mass = 50, g = 9.81;
    double worst = 0;
    for (size_t i = 0; i < t.rows(); ++i) {
      const double time = t.columns[0][i], screwAngle = ratio * omega * time;
      const double expected = pitch * screwAngle / (2 * std::numbers::pi);
      worst = std::max({worst, std::abs(t.columns[z][i] - expected), std::abs(t.columns[lift][i] - expected),
                        std::abs(t.columns[angle][i] - screwAngle) * std::abs(pitch)});
      QVERIFY(std::abs(t.columns[potential][i] - mass * g * t.columns[z][i]) < 1e-9);
    }
    QVERIFY2(worst < 1e-10, qPrintable(QString::number(worst)));
    QCOMPARE(t.columns[0].back(), 2.0);  // a full turn of the table: the angle counted past -pi
    QVERIFY(t.columns[angle].back() < -6.28);
  }

  /// The engine on a preloaded bushing at its centre of mass: each direction is a decoupled
  /// oscillator. Vertically it settles (F0 - m g) / kz below the mount's zero deflection as a
  /// damped oscillator (zeta = c / 2 sqrt(k m)); sideways it sways undamped at sqrt(ky / m); about x
  /// it rocks at sqrt(k_theta / Jx), damped. The relative sensor reads the same motion in mm, deg.
  void engineMountOscillatesAtItsClosedForms() {
    flexim::io::CsvTable t;
    const QString failed = runExample("engine_mount", t);
    QVERIFY2(failed.isEmpty(), qPrintable(failed));
    const int y = t.find("engine.position.y"), z = t.find("engine.position.z"), w = t.find("engine.orientation.w"),
              x = t.find("engine.orientation.x"), mm = t.find("deflection.position.z"),
              deg = t.find("deflection.angle.value");
    QVERIFY(y > 0 && z > 0 && w > 0 && x > 0 && mm > 0 && deg > 0);
    const double m = 120, g = 9.81, kz = 3e5, cz = 600, ky = 2e5, kr = 3000, cr = 3, Jx = 3.2;
    const double wz = std::sqrt(kz / m), zetaZ = cz / (2 * m * wz), rest = (900 - m * g) / kz;
    const double wy = std::sqrt(ky / m), wr = std::sqrt(kr / Jx), zetaR = cr / (2 * std::sqrt(kr * Jx));
    const double wzd = wz * std::sqrt(1 - zetaZ * zetaZ), wrd = wr * std::sqrt(1 - zetaR * zetaR);
    double worstZ = 0, worstY = 0, worstAngle = 0, worstSensor = 0;
    for (size_t i = 0; i < t.rows(); ++i) {
      const double time = t.columns[0][i];
      const double zExact =
          rest * (1 - std::exp(-zetaZ * wz * time) *
                          (std::cos(wzd * time) + zetaZ / std::sqrt(1 - zetaZ * zetaZ) * std::sin(wzd * time)));
      const double yExact = 0.05 / wy * std::sin(wy * time);
      const double angleExact = 0.2 / wrd * std::exp(-zetaR * wr * time) * std::sin(wrd * time);
      const double angle = 2 * std::atan2(t.columns[x][i], t.columns[w][i]);
      worstZ = std::max(worstZ, std::abs(t.columns[z][i] - zExact));
      worstY = std::max(worstY, std::abs(t.columns[y][i] - yExact));
      worstAngle = std::max(worstAngle, std::abs(angle - angleExact));
      worstSensor = std::max({worstSensor, std::abs(t.columns[mm][i] - 1000 * t.columns[z][i]),
                              std::abs(t.columns[deg][i] - std::abs(angle) * 180 / std::numbers::pi)});
    }
    qInfo("worst errors: z %.3g m of %.3g, y %.3g m of %.3g, angle %.3g rad of %.3g; sensor %.3g", worstZ, rest,
          worstY, 0.05 / wy, worstAngle, 0.2 / wrd, worstSensor);
    QVERIFY2(worstZ < 1e-6 * std::abs(rest), qPrintable(QString::number(worstZ)));
    QVERIFY2(worstY < 1e-6 * 0.05 / wy, qPrintable(QString::number(worstY)));
    QVERIFY2(worstAngle < 1e-6 * 0.2 / wrd, qPrintable(QString::number(worstAngle)));
    QVERIFY2(worstSensor < 1e-9, qPrintable(QString::number(worstSensor)));

    // held by its mount, not floating free
    const Result v = cli({"validate", example("engine_mount.json")});
    QVERIFY2(v.code == 0, qPrintable(v.err + v.out));
    QVERIFY2((v.err + v.out).contains("body 'engine' is not connected to ground by any joint; force elements or contacts "
                                      "(springs, bushings, contacts) hold it"),
             qPrintable(v.err + v.out));
    QVERIFY(!(v.err + v.out).contains("floats free"));
    QVERIFY(!(v.err + v.out).contains("free-floating"));
  }

  /// The hanging chain of point masses on spring-dampers settles where each spring carries the
  /// weight below it: spring j of n stretches by (n - j + 1) m g / k.
  void hangingChainSettlesUnderItsWeight() {
    flexim::io::CsvTable t;
    const QString failed = runExample("hanging_chain", t);
    QVERIFY2(failed.isEmpty(), qPrintable(failed));
    const int n = 5;
    const double m = 0.2, g = 9.81, k = 400, L0 = 0.1;
    double z = 0, worst = 0;
    for (int i = 1; i <= n; ++i) {
      z -= L0 + (n - i + 1) * m * g / k;
      const int c = t.find(("m" + std::to_string(i) + ".position.z").c_str());
      QVERIFY(c > 0);
      worst = std::max(worst, std::abs(t.columns[c].back() - z));
    }
    qInfo("bottom mass at rest %.9f m (closed form %.9f m), worst %.3g m", t.columns[t.find("m5.position.z")].back(), z,
          worst);
    QVERIFY2(worst < 1e-7, qPrintable(QString::number(worst)));
  }

  /// A rod pendulum falls from the horizontal onto a joint limit at -45 degrees: the impact comes
  /// when an independent integration of theta'' = -(3 g / 2 L) cos(theta) reaches the stop, the
  /// rod never passes the stop, rests on it, and loses exactly its kinetic energy there (plastic).
  void pendulumStopsAtItsLimit() {
    flexim::io::CsvTable t;
    const QString failed = runExample("pendulum_stop", t);
    QVERIFY2(failed.isEmpty(), qPrintable(failed));
    const int angle = t.find("hinge.coordinate.rotation"), rate = t.find("hinge.velocity.rotation"),
              total = t.find("energy.total.value");
    QVERIFY(angle > 0 && rate > 0 && total > 0);
    const double lower = -std::numbers::pi / 4, g = 9.81, L = 1.0;
    // reference: the free swing until the stop (semi-implicit Euler, 1e-6 s)
    double th = 0, w = 0, tImpact = 0;
    while (th > lower) {
      w -= 1.5 * g / L * std::cos(th) * 1e-6;
      th += w * 1e-6;
      tImpact += 1e-6;
    }
    const double impactEnergy = 0.5 * (L * L / 3) * w * w;  // m = 1 kg, about the pivot
    double closed = -1;
    for (size_t i = 0; i < t.rows(); ++i) {
      QVERIFY2(t.columns[angle][i] >= lower - 1e-9, qPrintable(QString::number(t.columns[angle][i])));
      if (closed < 0 && t.columns[angle][i] <= lower + 1e-9) closed = t.columns[0][i];
      if (closed >= 0) QVERIFY(std::abs(t.columns[rate][i]) < 1e-9);  // at rest on the stop
    }
    QVERIFY2(std::abs(closed - tImpact) <= 0.005 + 1e-9, qPrintable(QString::number(closed)));  // one sample
    const double lost = t.columns[total].front() - t.columns[total].back();
    QVERIFY2(std::abs(lost - impactEnergy) < 1e-3 * impactEnergy, qPrintable(QString::number(lost)));
  }

  /// The flexible example writes the slider and rod_mid channels.
  void flexibleSliderCrankWritesSliderAndRodMid() {
    const QString out = m_dir.filePath("flex.csv");
    const Result r = cli({"run", example("slider_crank_flexible.json"), "--out", out, "--t-end", "0.012"});
    QVERIFY2(r.code == 0, qPrintable(r.err + r.out));
    QVERIFY2((r.out + r.err).contains("virtual body 'rod_A' attached to 'rod' on nodes k = 1,"), qPrintable(r.err));
    flexim::io::CsvTable t;
    QVERIFY(flexim::io::readCsv(out.toStdString(), t));
    const int a = t.find("slider.acceleration.x"), d = t.find("rod_mid.normalized.y"), e = t.find("energy.strain.value");
    QVERIFY(a > 0 && d > 0 && e > 0);
    QCOMPARE(QString::fromStdString(t.header[d]), QString("rod_mid.normalized.y [-]"));
    QCOMPARE(QString::fromStdString(t.header[e]), QString("energy.strain.value [J]"));
    // 6 rigid + 8 elastic modes contain no axial mode: the slider follows the rigid closed form
    const double r0 = 0.15, l = 0.3, w = 150;
    double maxAcc = 0, peakAcc = 0, peakDefl = 0;
    for (size_t i = 0; i < t.rows(); ++i) {
      const double th = w * t.columns[0][i], s = std::sin(th), c = std::cos(th), D = std::sqrt(l * l - r0 * r0 * s * s);
      const double acc = -r0 * w * w * c - r0 * r0 * w * w * ((c * c - s * s) / D + r0 * r0 * s * s * c * c / (D * D * D));
      maxAcc = std::max(maxAcc, std::abs(t.columns[a][i] - acc));
      peakAcc = std::max(peakAcc, std::abs(acc));
      peakDefl = std::max(peakDefl, std::abs(t.columns[d][i]));
    }
    QVERIFY2(maxAcc / peakAcc <= 0.02, qPrintable(QString::number(maxAcc / peakAcc)));
    // first peak of the mid-point deflection: 1.84e-2 (an independent pinned-pinned SDOF model gives
    // 1.86e-2, see docs/validation.md and core_flexible_system)
    QVERIFY2(peakDefl > 0.017 && peakDefl < 0.0195, qPrintable(QString::number(peakDefl)));
  }

  void modesWritesFrequencyCsv() {
    const QString out = m_dir.filePath("modes.csv");
    const Result r = cli({"modes", QString(FLEXIM_SOURCE_DIR) + "/tests/data/fe/beam/beam_free.inp", "--count", "4",
                          "--out", out});
    QVERIFY2(r.code == 0, qPrintable(r.err + r.out));
    QFile f(out);
    QVERIFY(f.open(QIODevice::ReadOnly));
    const QStringList lines = QString::fromUtf8(f.readAll()).split('\n', Qt::SkipEmptyParts);
    QCOMPARE(lines.size(), 1 + 6 + 4);
    QCOMPARE(lines[0], QString("mode,frequency [Hz],kind"));
    QVERIFY(lines[1].endsWith(",rigid"));
    QVERIFY(lines[7].startsWith("7,588.5"));  // ccx: 588.5337 Hz
    QVERIFY(lines[7].endsWith(",elastic"));
    // the material can be given on the command line: frequency scales with sqrt(E)
    const Result r2 = cli({"modes", QString(FLEXIM_SOURCE_DIR) + "/tests/data/fe/beam/mesh_ccx.inp", "--count", "1",
                           "--material", "8.4e11,0.3,7850"});
    QVERIFY2(r2.code == 0, qPrintable(r2.err + r2.out));
    QVERIFY2(r2.out.contains("7,1177.06"), qPrintable(r2.out));  // 2 x 588.53
  }

  void reduceThenInfo() {
    const QString body = m_dir.filePath("conrod.frb");
    const QString deck = QString(FLEXIM_SOURCE_DIR) + "/tests/data/fe/conrod/conrod_free.inp";
    Result r = cli({"reduce", deck, "--modes", "4", "--interface", "BORE_BIG:rigid", "--interface", "BORE_SMALL",
                    "--reference", "0.1,0.002,0.006", "--out", body});
    QVERIFY2(r.code == 0, qPrintable(r.err + r.out));
    const QString said = r.out + r.err;
    QVERIFY2(said.contains("inertia invariants from the consistent mass matrix") &&
                 said.contains("the lumped (HRZ) nodal masses would move the centre of mass by"),
             qPrintable(said));
    r = cli({"info", body});
    QVERIFY2(r.code == 0, qPrintable(r.err + r.out));
    QVERIFY(r.out.contains("Craig-Bampton: 12 constraint + 4 fixed-interface modes"));
    QVERIFY2(r.out.contains("stress modes, geometric stiffening (24 load cases), consistent-mass invariants"),
             qPrintable(r.out));
    QVERIFY(r.out.contains("stress modes: the nodal stress of every mode"));
    QVERIFY(r.out.contains("geometric stiffening: 24 load cases (12 inertia + 6 per interface)"));
    QVERIFY2(r.out.contains("interface BORE_SMALL (rigid): 116 nodes, reference point (0.1, 0.002, 0.006)"), qPrintable(r.out));
    // the other choices of the CLI, and its refusals
    r = cli({"reduce", deck, "--modes", "4", "--no-stiffening", "--out", body});
    QVERIFY2(r.code == 0, qPrintable(r.err + r.out));
    r = cli({"info", body});
    QVERIFY2(r.out.contains("geometric stiffening: none"), qPrintable(r.out));
    r = cli({"reduce", deck, "--modes", "4", "--invariants", "lumped", "--out", body});
    QVERIFY2(r.code == 0 && (r.out + r.err).contains("from the lumped (HRZ) nodal masses, as asked"), qPrintable(r.err + r.out));
    r = cli({"reduce", deck, "--reference", "centroid", "--out", body});
    QVERIFY(r.code != 0);
    QVERIFY2(r.err.contains("give that first"), qPrintable(r.err));
    r = cli({"reduce", deck, "--interface", "BORE_SMALL", "--reference", "node:x", "--out", body});
    QVERIFY(r.code != 0);
    QVERIFY2(r.err.contains("node ID"), qPrintable(r.err));
    r = cli({"reduce", deck, "--invariants", "exact", "--out", body});
    QVERIFY(r.code != 0);
    QVERIFY2(r.err.contains("consistent or lumped"), qPrintable(r.err));
    r = cli({"reduce", deck, "--modes", "4", "--interface", "BORE_BIG:rigid", "--interface", "BORE_SMALL", "--out", body});
    QVERIFY2(r.code == 0, qPrintable(r.err + r.out));
    QVERIFY(r.out.contains("sha256="));
    r = cli({"info", deck});
    QVERIFY2(r.code == 0, qPrintable(r.err + r.out));
    QVERIFY(r.out.contains("largest relative frequency difference to the reference"));
    QVERIFY(r.out.contains("total mass from M: 0.2028695 kg"));
    // a corrupted body file gives one clear line
    QFile f(body);
    QVERIFY(f.open(QIODevice::ReadWrite));
    f.seek(100);
    f.write("garbage");
    f.close();
    r = cli({"info", body});
    QVERIFY(r.code != 0);
    QVERIFY2(r.err.contains("flexim-cli: error:"), qPrintable(r.err));
    r = cli({"reduce", deck, "--interface", "NO_SUCH_SET", "--out", body});
    QVERIFY(r.code != 0);
    QVERIFY2(r.err.contains("no node set or coupling of that name"), qPrintable(r.err));
  }

  /// Nodes outside every element (a reference node with a point mass, loose points, a Gmsh
  /// geometry point): reduce and info succeed and name them; an interface on one is refused.
  void nodesOutsideElements() {
    const QString dir = QString(FLEXIM_SOURCE_DIR) + "/tests/data/fe/discrete/";
    const QString body = m_dir.filePath("orphans.frb");
    Result r = cli({"reduce", dir + "orphans.inp", "--modes", "4", "--out", body});
    QVERIFY2(r.code == 0, qPrintable(r.err + r.out));
    QVERIFY2(r.err.contains("3 node(s) belong to no element or spring") && r.err.contains("900001, 900002, 900003"),
             qPrintable(r.err));
    QVERIFY(!r.err.contains("Cholesky"));
    r = cli({"info", dir + "orphans.inp"});
    QVERIFY2(r.code == 0, qPrintable(r.err + r.out));
    QVERIFY2(r.out.contains("nodes: 384") && r.out.contains("note: 3 node(s) belong to no element or spring"),
             qPrintable(r.out));
    QVERIFY2(r.out.contains("point masses: 0.15 kg (in M)"), qPrintable(r.out));
    QVERIFY2(r.out.contains("454.17"), qPrintable(r.out));  // ccx (beam_tipmass_free.dat): 454.1764 Hz
    r = cli({"reduce", dir + "orphans.inp", "--interface", "REF", "--out", body});
    QVERIFY(r.code != 0);
    QVERIFY2(r.err.contains("interface REF: error: node 900001 belongs to no element"), qPrintable(r.err));
    r = cli({"reduce", dir + "disk.msh", "--material", "2.1e11,0.3,7850", "--modes", "4", "--out", body});
    QVERIFY2(r.code == 0, qPrintable(r.err + r.out));
    QVERIFY2(r.err.contains("geometry points): 1, 7;"), qPrintable(r.err));
    // the report shows the material the modes use, not "no material"
    r = cli({"info", dir + "disk.msh", "--material", "2.1e11,0.3,7850", "--count", "2"});
    QVERIFY2(r.code == 0, qPrintable(r.err + r.out));
    QVERIFY2(r.out.contains("material (given): E = 2.1e+11 Pa, nu = 0.3, rho = 7850 kg/m^3, of every element") &&
                 !r.out.contains("have no material"),
             qPrintable(r.out));
    r = cli({"info", dir + "orphans.inp", "--density", "2700", "--count", "2"});
    QVERIFY2(r.code == 0, qPrintable(r.err + r.out));
    QVERIFY2(r.out.contains("rho = 2700 kg/m^3 (given") && !r.out.contains("no density"), qPrintable(r.out));
    // a point mass counts in the body: the spring-mass tetrahedron weighs 4 x 2 kg
    r = cli({"info", dir + "tetra_springs.inp"});
    QVERIFY2(r.code == 0, qPrintable(r.err + r.out));
    QVERIFY2(r.out.contains("total mass from M: 8 kg") && r.out.contains("11.254"), qPrintable(r.out));
  }

  /// CalculiX keywords that change the model (tests/data/fe/calculix): warnings on stderr, and
  /// `info` ends with one line listing them; the deck's coupling is listed and usable as a
  /// Craig-Bampton interface by name or reference node id.
  void calculixModelChangesAndCouplings() {
    const QString dir = QString(FLEXIM_SOURCE_DIR) + "/tests/data/fe/calculix/";
    Result r = cli({"info", dir + "dropped_keywords.inp", "--count", "2"});
    QVERIFY2(r.code == 0, qPrintable(r.err + r.out));
    // the *TIE is read, but its slave (a shell node) lies on no solid face; the *EQUATION is applied
    QVERIFY2(r.err.contains("dropped_keywords.inp:") && r.err.contains("warning: *TIE T1: no slave node lies within"),
             qPrintable(r.err));
    QVERIFY2(r.out.contains("1 linear constraint (*EQUATION, *TIE, MPC): applied"), qPrintable(r.out));
    const int line = r.out.indexOf("the reduced model differs from the deck: ");
    QVERIFY2(line >= 0, qPrintable(r.out));
    const QString changes = r.out.mid(line).section('\n', 0, 0);
    for (const char* c : {"*MPC", "*CONTACT PAIR", "*TRANSFORM",
                          "*SHELL SECTION", "*GAP", "*ELASTIC, TYPE=ENGINEERING CONSTANTS", "*ORIENTATION"})
      QVERIFY2(changes.contains(c), qPrintable(QString(c) + " missing in: " + changes));
    QVERIFY2(r.out.contains("coupling RIGID BODY TIPFACE (") && r.out.contains("reference node 10001, 21 nodes, rigid"),
             qPrintable(r.out));
    // a clean deck has no such line
    r = cli({"info", dir + "beam_clean.inp", "--count", "2"});
    QVERIFY2(r.code == 0 && !r.out.contains("differs from the deck"), qPrintable(r.err + r.out));

    const QString body = m_dir.filePath("rigid.frb");
    for (const QString& itf : {QString("RIGID BODY TIPFACE"), QString("10001"), QString("rigid body tipface:rigid")}) {
      r = cli({"reduce", dir + "rigid_body_free.inp", "--interface", itf, "--modes", "4", "--out", body});
      QVERIFY2(r.code == 0, qPrintable(itf + ": " + r.err + r.out));
      r = cli({"info", body});
      QVERIFY2(r.code == 0 && r.out.contains("interface RIGID BODY TIPFACE (rigid): 21 nodes"), qPrintable(r.out));
    }
  }

  /// Materials from the command line: --density for a deck without *DENSITY (the same
  /// frequencies as the deck with it), --material for a Gmsh mesh; without them `info` prints the
  /// mesh report and says which option to give, `modes` and `reduce` refuse with the same words.
  void materialsFromTheCommandLine() {
    const QString dir = QString(FLEXIM_SOURCE_DIR) + "/tests/data/fe/";
    const QString deck = dir + "calculix/no_density.inp", body = m_dir.filePath("b.frb");
    Result r = cli({"info", deck});
    QCOMPARE(r.code, 1);
    QVERIFY2(r.out.contains("nodes: 382") && r.out.contains("elements: 48 C3D20R x 48") &&
                 r.out.contains("node set TIPFACE: 21 nodes") && r.out.contains("material STEEL: E = 2.1e+11 Pa, nu = 0.3, no density"),
             qPrintable(r.out));
    const QString pointer = "material STEEL has no density (no *DENSITY): give it with --density RHO in kg/m^3";
    QVERIFY2(r.err.contains(pointer), qPrintable(r.err));
    for (const QStringList& args : {QStringList{"modes", deck}, QStringList{"reduce", deck, "--out", body}}) {
      r = cli(args);
      QVERIFY(r.code == 1);
      QVERIFY2(r.err.contains(pointer), qPrintable(r.err));
    }
    r = cli({"modes", deck, "--count", "4", "--density", "7850"});
    QVERIFY2(r.code == 0, qPrintable(r.err + r.out));
    const Result clean = cli({"modes", dir + "calculix/beam_clean.inp", "--count", "4"});
    QVERIFY2(clean.code == 0, qPrintable(clean.err));
    const auto table = [](const QString& out) { return out.mid(out.indexOf("mode,frequency")); };
    QCOMPARE(table(r.out), table(clean.out));
    QVERIFY(table(r.out).contains("7,588.4"));  // ccx: 588.4427 Hz
    r = cli({"reduce", deck, "--density", "7850", "--modes", "2", "--out", body});
    QVERIFY2(r.code == 0, qPrintable(r.err + r.out));
    r = cli({"info", deck, "--density", "7850", "--count", "2"});
    QVERIFY2(r.code == 0 && r.out.contains("total mass from M: 0.2355 kg"), qPrintable(r.err + r.out));
    r = cli({"info", deck, "--density", "0"});
    QVERIFY(r.code == 1 && r.err.contains("--density needs a positive density in kg/m^3"));

    // a Gmsh mesh has no materials: the pointer is --material, never a CalculiX keyword
    const QString msh = dir + "discrete/disk.msh";
    for (const QStringList& args : {QStringList{"info", msh}, QStringList{"modes", msh}, QStringList{"reduce", msh, "--out", body},
                                    QStringList{"modes", msh, "--density", "7850"}}) {
      r = cli(args);
      QVERIFY2(r.code == 1, qPrintable(args.join(' ')));
      QVERIFY2(r.err.contains("a Gmsh mesh holds no materials: give one with --material E,nu,rho"), qPrintable(r.err));
      QVERIFY2(!(r.err + r.out).contains("SOLID SECTION") && !(r.err + r.out).contains("DENSITY"), qPrintable(r.err + r.out));
    }
    r = cli({"info", msh});
    QVERIFY2(r.out.contains("nodes: ") && r.out.contains("elements: "), qPrintable(r.out));
    r = cli({"modes", msh, "--material", "2.1e11,0.3,7850", "--density", "7850", "--count", "1"});
    QVERIFY2(r.code == 0, qPrintable(r.err + r.out));
    // the one material rule: an auxetic nu = -0.2 is a material, 0.5 is not, with the readers' message
    r = cli({"info", msh, "--material", "2.1e11,-0.2,7850"});
    QVERIFY2(r.code == 0, qPrintable(r.err + r.out));
    r = cli({"info", msh, "--material", "2.1e11,0.5,7850"});
    QVERIFY2(r.code == 1 && r.err.contains("--material: Poisson's ratio nu = 0.5 must be in (-1, 0.5)"),
             qPrintable(r.err));
  }

  /// validate ends with the topology, after the model check and its verdict.
  void validatePrintsTopology() {
    Result r = cli({"validate", example("slider_crank_flexible.json")});
    QVERIFY2(r.code == 0, qPrintable(r.err + r.out));
    // from the JSON: crank and slider rigid, rod flexible, rod_A and rod_B on it; 4 joints
    const int verdict = r.out.indexOf("model OK\n");
    const int topology = r.out.indexOf("topology: 5 bodies (2 rigid, 1 flexible, 2 virtual) + ground, 4 joints, 2 attachments\n");
    QVERIFY2(verdict >= 0 && topology > verdict, qPrintable(r.out));
    QVERIFY2(r.out.contains("1 independent loop, closed by") && r.out.contains("tree from ground"), qPrintable(r.out));

    // a body with no joint: free-floating in the check, its own component in the topology
    QFile in(example("double_pendulum.json"));
    QVERIFY(in.open(QIODevice::ReadOnly));
    QString text = QString::fromUtf8(in.readAll());
    QVERIFY(text.contains("\"bodies\": ["));
    text.replace("\"bodies\": [", "\"bodies\": [\n    {\"name\": \"loose\", \"mass\": 1, \"inertia\": [1, 1, 1]},");
    const QString loose = m_dir.filePath("loose.json");
    QFile out(loose);
    QVERIFY(out.open(QIODevice::WriteOnly));
    out.write(text.toUtf8());
    out.close();
    r = cli({"validate", loose});
    QVERIFY2(r.code == 0, qPrintable(r.err + r.out));
    QVERIFY2(r.out.contains("not connected to ground by any joint, force element or contact (free-floating): body 'loose'"), qPrintable(r.out));
    QVERIFY2(r.err.contains("bodies[0]: warning: body 'loose' is not connected to ground by any joint"), qPrintable(r.err));
    QVERIFY2(r.out.contains("2 components: ground + 2 bodies; 1 not connected to ground (1 body: 'loose')"),
             qPrintable(r.out));
  }

  /// validate prints the model check's messages on standard error, each at its item's JSON path
  /// (io/model_check.h); errors alone change the exit code.
  void validateListsModelCheckMessages() {
    Result r = cli({"validate", example("n_four_bar_2.json")});
    QVERIFY2(r.code == 0, qPrintable(r.err + r.out));
    QVERIFY2(r.err.contains("info: 1 degree of freedom: 30 coordinates, 35 constraint equations, 29 independent\n"),
             qPrintable(r.err));
    QVERIFY2(r.err.contains("joints[4]: warning: joint 'coupler1_right': 2 constraint rows depend on the others"),
             qPrintable(r.err));
    QVERIFY(r.out.contains("note: redundant constraints, solved as they are: "));  // the figures as before

    r = cli({"validate", example("slider_crank_flexible.json")});
    QVERIFY2(r.err.contains("virtual_bodies[1]: info: virtual body 'rod_B' attached to 'rod' on nodes"), qPrintable(r.err));

    // a reduced-body file that is not there: an error at the body's file, no check
    QFile in(example("slider_crank_flexible.json"));
    QVERIFY(in.open(QIODevice::ReadOnly));
    const QString moved = m_dir.filePath("no_frb.json");
    QFile out(moved);
    QVERIFY(out.open(QIODevice::WriteOnly));
    out.write(in.readAll());
    out.close();
    r = cli({"validate", moved});
    QCOMPARE(r.code, 1);
    QVERIFY2(r.err.contains("flexible_bodies[0].file: error: "), qPrintable(r.err));
  }

  void docsTablesUpdateTheModelFormat() {
    Result r = cli({"docs", "model-format-tables"});
    QCOMPARE(r.code, 0);
    QVERIFY(r.out.contains("<!-- generated:body -->\n| key | type | default | meaning |"));
    // a copy of the doc with one table emptied gets it back
    QFile doc(QString(FLEXIM_SOURCE_DIR) + "/docs/model-format.md");
    QVERIFY(doc.open(QIODevice::ReadOnly));
    const QByteArray text = doc.readAll();
    const QByteArray begin = "<!-- generated:simulation -->\n";
    const int from = text.indexOf(begin) + begin.size(), to = text.indexOf("<!-- end generated -->", from);
    QVERIFY(from >= begin.size() && to > from);
    QByteArray emptied = text;
    emptied.remove(from, to - from);
    const QString copy = m_dir.filePath("model-format.md");
    QFile out(copy);
    QVERIFY(out.open(QIODevice::WriteOnly));
    out.write(emptied);
    out.close();
    r = cli({"docs", "model-format-tables", "--update", copy});
    QCOMPARE(r.code, 0);
    QVERIFY(out.open(QIODevice::ReadOnly));
    QCOMPARE(out.readAll(), text);
    r = cli({"docs", "model-format-tables", "--update", copy});
    QVERIFY2(r.code == 0 && r.out.contains("is up to date"), qPrintable(r.out));
  }

  /// `spectrum` of a run's CSV: the slider-crank's slider (a crank at 150 rad/s) oscillates at
  /// 23.87 Hz, so the peak is within half a bin (10 Hz over 0.1 s) of it; a channel that is not in
  /// the file, and a broken row, are named with the file and line.
  void spectrumOfAResultsChannel() {
    const QString csv = m_dir.filePath("crank.csv"), out = m_dir.filePath("crank_spectrum.csv");
    QCOMPARE(cli({"run", example("slider_crank_rigid.json"), "--out", csv}).code, 0);
    Result r = cli({"spectrum", csv, "--channel", "slider.position.x", "--out", out});
    QVERIFY2(r.code == 0, qPrintable(r.err));
    QFile file(out);
    QVERIFY(file.open(QIODevice::ReadOnly | QIODevice::Text));
    const QStringList lines = QString::fromUtf8(file.readAll()).split('\n', Qt::SkipEmptyParts);
    QCOMPARE(lines.at(1), QString("frequency [Hz],slider.position.x amplitude [m]"));
    double peakF = 0, peakA = -1;
    for (int i = 2; i < lines.size(); ++i) {
      const QStringList f = lines[i].split(',');
      if (f[0].toDouble() > 0 && f[1].toDouble() > peakA) peakF = f[0].toDouble(), peakA = f[1].toDouble();
    }
    const double crank = 150 / (2 * M_PI);
    QVERIFY2(std::abs(peakF - crank) <= 5.0, qPrintable(QString::number(peakF)));
    QVERIFY2(r.err.contains(QString("peak at %1 Hz").arg(peakF, 0, 'g', 6)), qPrintable(r.err));
    r = cli({"spectrum", csv, "--channel", "nowhere"});
    QVERIFY(r.code != 0);
    QVERIFY2(r.err.contains("crank.csv:") && r.err.contains("no channel 'nowhere'"), qPrintable(r.err));
    QFile broken(m_dir.filePath("broken.csv"));
    QVERIFY(broken.open(QIODevice::WriteOnly));
    broken.write("time [s],a [m]\n0,1\n0.1,x\n");
    broken.close();
    r = cli({"spectrum", broken.fileName(), "--channel", "a"});
    QVERIFY(r.code != 0);
    QVERIFY2(r.err.contains("broken.csv:3: expected numbers"), qPrintable(r.err));
  }

  void badInputGivesOneClearLine() {
    const QString bad = m_dir.filePath("bad.json");
    QFile f(bad);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write("{\"schema_version\": 1, \"bodies\": [ {\"name\": \"b\", \"mass\": -1} ");
    f.close();
    Result r = cli({"run", bad});
    QVERIFY(r.code != 0);
    QVERIFY2(r.err.contains("flexim-cli: error:"), qPrintable(r.err));
    r = cli({"run", m_dir.filePath("missing.json")});
    QVERIFY(r.code != 0);
    QVERIFY(r.err.contains("flexim-cli: error:"));
    r = cli({"run", example("slider_crank_rigid.json"), "--integrator", "euler"});
    QVERIFY(r.code != 0);
    QVERIFY(r.err.contains("unknown integrator 'euler'"));
    r = cli({"frobnicate"});
    QVERIFY(r.code != 0);
    // run options the model cannot take are named errors (the option, its value, the reason,
    // the model's setting) and nothing is run
    const QString slider = example("slider_crank_rigid.json");  // t_end 0.1, step 1e-4, output 1e-4, ida
    const QString csv = m_dir.filePath("never.csv");
    const auto refused = [&](const QStringList& options, const QString& expected) {
      const Result e = cli(QStringList{"run", slider, "--out", csv} + options);
      QVERIFY2(e.code != 0, qPrintable(options.join(' ')));
      QVERIFY2(e.err.contains("flexim-cli: error: " + expected), qPrintable(options.join(' ') + ": " + e.err));
      QVERIFY2(!QFile::exists(csv), qPrintable(options.join(' ')));
    };
    refused({"--t-end", "1e-300"}, "--t-end 1e-300: must be at least output_interval (0.0001 s) (simulation.t_end)");
    refused({"--t-end", "0"}, "--t-end needs a positive number");
    refused({"--t-end", "-1"}, "--t-end needs a positive number");
    refused({"--step", "0"}, "--step needs a positive number");
    refused({"--step", "1e-300"},
            "--step 1e-300: 1e-300 s up to t_end = 0.1 s means 1e+299 steps at the largest step allowed (at most 1e+09) "
            "(simulation.step)");
    refused({"--integrator", "gen-alpha", "--step", "0.5"},
            "--step 0.5: must not exceed t_end (0.1 s): gen-alpha takes steps of exactly this size (simulation.step)");
    refused({"--t-end", "1e5"}, "--t-end 1e5: simulation.output_interval: 0.0001 s up to t_end = 100000 s gives 1e+09 "
                                "output samples (at most 1e+08)");

    // an output path below a regular file cannot be created
    r = cli({"run", example("slider_crank_rigid.json"), "--out", bad + "/x.csv"});
    QVERIFY(r.code != 0);
    QVERIFY2(r.err.contains("x.csv"), qPrintable(r.err));
  }
};

QTEST_GUILESS_MAIN(CliTest)
#include "cli_test.moc"
