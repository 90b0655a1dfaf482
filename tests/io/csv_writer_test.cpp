// CSV results: metadata, header, rows flushed as written (readable before end()), the end
// line, exact round trip of doubles through readCsv, and failure reporting.
#include "io/csv_writer.h"
#include "io/sha256.h"

#include <QRegularExpression>
#include <QTemporaryDir>
#include <QtTest>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <limits>
#include <sstream>

using namespace flexim;

namespace {

std::vector<std::string> fileLines(const std::string& path) {
  std::ifstream in(path);
  std::vector<std::string> lines;
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

RunSummary info() {
  RunSummary s;
  s.integrator = "ida (BDF)";
  s.settings = "rtol=1e-08 atol=1e-10";
  return s;
}

const std::vector<Channel> kChannels{{"slider.position.x", "m"}, {"energy.total.value", "J"}};

Sample sample(double t, std::vector<double> values) { return Sample{t, std::move(values), {}}; }

}  // namespace

class CsvWriterTest : public QObject {
  Q_OBJECT
 private slots:
  void writesMetadataHeaderAndRowsFlushedAsTheyCome() {
    QTemporaryDir dir;
    const std::string out = dir.filePath("r.csv").toStdString();
    const std::string model = dir.filePath("my model.json").toStdString();
    std::ofstream(model) << "{\"schema_version\": 1}\n";
    std::string modelHash;
    QVERIFY(io::sha256FileHex(model, modelHash));

    io::CsvResultWriter w(out, model);
    w.begin(kChannels, info());
    w.sample(sample(0, {0.45, 14.0700375}));
    w.sample(sample(1e-4, {0.1, -0.0}));

    // before end(): everything so far is on disk
    const auto lines = fileLines(out);
    QCOMPARE(lines.size(), size_t(8));
    QCOMPARE(lines[0], std::string("# Flexim ") + FLEXIM_VERSION);
    QCOMPARE(lines[1], "# model: my model.json sha256=" + modelHash);
    QCOMPARE(lines[2], std::string("# integrator: ida (BDF)"));
    QCOMPARE(lines[3], std::string("# settings: rtol=1e-08 atol=1e-10"));
    QVERIFY2(QRegularExpression("^# date: \\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\dZ$")
                 .match(QString::fromStdString(lines[4]))
                 .hasMatch(),
             lines[4].c_str());
    QCOMPARE(lines[5], std::string("time [s],slider.position.x [m],energy.total.value [J]"));
    QCOMPARE(lines[6], std::string("0,0.45,14.0700375"));
    QCOMPARE(lines[7], std::string("1e-04,0.1,-0"));
    io::CsvTable partial;
    QVERIFY(io::readCsv(out, partial));
    QCOMPARE(partial.rows(), size_t(2));

    RunSummary done = info();
    done.ok = true;
    done.t_reached = 0.1;
    done.steps = 1151;
    w.end(done);
    QVERIFY(w.ok());
    QCOMPARE(fileLines(out).back(), std::string("# end: ok t=0.1 steps=1151"));
  }

  void readCsvRoundTripsDoublesExactly() {
    QTemporaryDir dir;
    const std::string out = dir.filePath("r.csv").toStdString();
    const std::vector<double> values{M_PI,     -0.0, 1e-300, 5e-324, std::numeric_limits<double>::max(),
                                     1.0 / 3, 1e22, std::numeric_limits<double>::infinity(),
                                     -std::numeric_limits<double>::infinity(), std::nan("")};
    std::vector<Channel> channels;
    for (std::size_t i = 0; i < values.size(); ++i) channels.push_back({"s.q.c" + std::to_string(i), "-"});
    io::CsvResultWriter w(out);
    w.begin(channels, info());
    w.sample(sample(0.1, values));
    w.sample(sample(0.2, {1.0}));  // short sample: the missing values become nan, the row stays whole
    w.end(info());

    io::CsvTable t;
    std::string error;
    QVERIFY2(io::readCsv(out, t, &error), error.c_str());
    QCOMPARE(t.header.size(), values.size() + 1);
    QCOMPARE(t.header[0], std::string("time [s]"));
    QCOMPARE(t.rows(), size_t(2));
    QCOMPARE(t.columns[0][0], 0.1);
    for (std::size_t i = 0; i < values.size(); ++i) {
      const double got = t.columns[i + 1][0];
      if (std::isnan(values[i]))
        QVERIFY(std::isnan(got));
      else
        QVERIFY2(got == values[i] && std::signbit(got) == std::signbit(values[i]), std::to_string(i).c_str());
    }
    QVERIFY(std::isnan(t.columns[2][1]));
    QCOMPARE(t.find("s.q.c3"), 4);
    QCOMPARE(t.find("time"), 0);
    QCOMPARE(t.find("s.q"), -1);
    QCOMPARE(t.metadata.front(), std::string("Flexim ") + FLEXIM_VERSION);
    QCOMPARE(t.metadata[1], std::string("model: (none)"));
    QCOMPARE(t.metadata.back(), std::string("end: failed t=0 steps=0"));
  }

  void endLineStatesFailureAndCancel() {
    QTemporaryDir dir;
    const std::string out = dir.filePath("r.csv").toStdString();
    {
      io::CsvResultWriter w(out);
      w.begin(kChannels, info());
      RunSummary s;
      s.message = "joint 'pin': Newton failed\nat t=0.5";
      s.t_reached = 0.5;
      s.steps = 12;
      w.end(s);
      QCOMPARE(fileLines(out).back(), std::string("# end: failed t=0.5 steps=12 joint 'pin': Newton failed at t=0.5"));
    }
    io::CsvResultWriter w(out);
    w.begin(kChannels, info());
    RunSummary s;
    s.cancelled = true;
    w.end(s);
    QCOMPARE(fileLines(out).back(), std::string("# end: cancelled t=0 steps=0"));
  }

  /// Notes known at the start go to the header; notes the run adds by its end (hand-overs between
  /// integrators) go to the trailer, before the end line, each once.
  void notesOfTheEndGoToTheTrailer() {
    QTemporaryDir dir;
    const std::string out = dir.filePath("n.csv").toStdString();
    io::CsvResultWriter w(out);
    RunSummary s = info();
    s.notes = {"redundant constraints"};
    w.begin(kChannels, s);
    w.sample(sample(0, {0.45, 14.0700375}));
    s.notes.push_back("IDA handed 1 interval\n(0.01 s in all) to adaptive generalized-alpha");
    s.ok = true;
    s.t_reached = 0.1;
    w.end(s);
    const auto lines = fileLines(out);
    QCOMPARE(std::count(lines.begin(), lines.end(), std::string("# note: redundant constraints")), 1L);
    QCOMPARE(lines[4], std::string("# note: redundant constraints"));
    QCOMPARE(lines[lines.size() - 2], std::string("# note: IDA handed 1 interval (0.01 s in all) to adaptive generalized-alpha"));
    QCOMPARE(lines.back(), std::string("# end: ok t=0.1 steps=0"));
  }

  /// The quality summary goes before the end line as "# quality:" lines; a finished run with a
  /// quality warning ends "warning" with the reason, never "ok".
  void qualityTrailerAndWarning() {
    QTemporaryDir dir;
    const std::string out = dir.filePath("q.csv").toStdString();
    io::CsvResultWriter w(out);
    w.begin(kChannels, info());
    RunSummary s = info();
    s.ok = true;
    s.t_reached = 2;
    s.steps = 200;
    RunQuality& q = s.quality;
    q.measured = true;
    q.position_residual = 2.5e-13;
    q.position_tolerance = 1e-8;
    q.velocity_residual = 1e-12;
    q.velocity_tolerance = 1e-5;
    q.steps = 200;
    q.rejected = 3;
    q.halvings = 2;
    q.smallest_step = 0.0025;
    q.energy_known = q.energy_checked = true;
    q.energy_limit = quality::kEnergyFraction;
    q.energy_check = "conservative";
    q.energy_initial = 0;
    q.energy_final = -0.5;
    q.energy_error = 0.75;
    q.energy_scale = 40;
    q.warnings = {"the energy of a model on which nothing does work is off by up to 0.75 J, 0.0188 of its energy "
                  "scale 40 J (limit 0.001)"};
    QVERIFY(s.warning());
    w.end(s);
    const auto lines = fileLines(out);
    QVERIFY(lines.size() >= 5);
    const size_t n = lines.size();
    QCOMPARE(lines[n - 5], std::string("# quality: constraints position_residual=2.5e-13 position_tolerance=1e-08 "
                                       "velocity_residual=1e-12 velocity_tolerance=1e-05"));
    QCOMPARE(lines[n - 4], std::string("# quality: steps accepted=200 rejected=3 rejected_limit=0.2 halvings=2 "
                                       "smallest_step=0.0025"));
    QCOMPARE(lines[n - 3], std::string("# quality: energy initial=0 final=-0.5 work_drivers=0 work_dampers=0 "
                                       "work_loads=0 balance_error=0.75 scale=40 limit=0.001 check=conservative"));
    QCOMPARE(lines[n - 2], "# quality: warning: " + q.warnings[0]);
    QCOMPARE(lines[n - 1], "# end: warning t=2 steps=200 " + q.warnings[0]);
    io::CsvTable t;
    QVERIFY(io::readCsv(out, t));  // still a valid results file
    QCOMPARE(t.metadata.back(), "end: warning t=2 steps=200 " + q.warnings[0]);

    // without a warning: ok; a balance that is not known says why
    q.warnings.clear();
    q.energy_known = q.energy_checked = false;
    q.energy_note = "limit 'stop' has contact rows";
    io::CsvResultWriter w2(out);
    w2.begin(kChannels, info());
    w2.end(s);
    const auto ok = fileLines(out);
    QCOMPARE(ok.back(), std::string("# end: ok t=2 steps=200"));
    QCOMPARE(ok[ok.size() - 2],
             std::string("# quality: energy initial=0 final=-0.5 check=unknown (limit 'stop' has contact rows)"));
  }

  void titlesWithCommasAreQuoted() {
    QTemporaryDir dir;
    const std::string out = dir.filePath("r.csv").toStdString();
    io::CsvResultWriter w(out);
    w.begin({{"a,b", "m"}, {"say \"hi\"", "s"}}, info());
    w.sample(sample(0, {1, 2}));
    w.end(info());
    QCOMPARE(fileLines(out)[5], std::string("time [s],\"a,b [m]\",\"say \"\"hi\"\" [s]\""));
    io::CsvTable t;
    QVERIFY(io::readCsv(out, t));
    QCOMPARE(t.header, (std::vector<std::string>{"time [s]", "a,b [m]", "say \"hi\" [s]"}));
    QCOMPARE(t.columns[2][0], 2.0);
  }

  void unwritablePathIsReported() {
    QTemporaryDir dir;
    const std::string out = dir.filePath("missing/r.csv").toStdString();
    io::CsvResultWriter w(out);
    QVERIFY(!w.open());
    QVERIFY(!w.ok());
    QVERIFY2(w.error().find(out) != std::string::npos, w.error().c_str());
    w.begin(kChannels, info());  // all harmless after the failure
    w.sample(sample(0, {1, 2}));
    w.end(info());
    QVERIFY(!w.ok());
  }

  void unreadableModelStillWritesMetadata() {
    QTemporaryDir dir;
    const std::string out = dir.filePath("r.csv").toStdString();
    io::CsvResultWriter w(out, dir.filePath("gone.json").toStdString());
    w.begin(kChannels, info());
    QVERIFY(fileLines(out)[1].rfind("# model: gone.json sha256=unavailable (", 0) == 0);
  }

  void readerDropsACutLastRowAndReportsBadRows() {
    QTemporaryDir dir;
    const std::string path = dir.filePath("cut.csv").toStdString();
    std::ofstream(path) << "# Flexim\ntime [s],a [m]\n0,1\n1,2\n2,3";  // complete final row, no newline
    io::CsvTable t;
    QVERIFY(io::readCsv(path, t));
    QCOMPARE(t.rows(), size_t(3));
    std::ofstream(path) << "time [s],a [m]\r\n0,1\r\n1,2\r\n2,";  // crash in mid-row
    QVERIFY(io::readCsv(path, t));
    QCOMPARE(t.rows(), size_t(2));
    std::ofstream(path) << "time [s],a [m]\n0,1\n1\n2,3\n";
    std::string error;
    QVERIFY(!io::readCsv(path, t, &error));
    QCOMPARE(error, path + ":3: expected 2 values, got 1");
    std::ofstream(path) << "time [s],a [m]\n0,x\n1,2\n";
    QVERIFY(!io::readCsv(path, t, &error));
    QCOMPARE(error, path + ":2: not a number in row");
    std::ofstream(path) << "# only comments\n";
    QVERIFY(!io::readCsv(path, t, &error));
    QVERIFY(!io::readCsv(dir.filePath("none.csv").toStdString(), t, &error));
  }
};

QTEST_APPLESS_MAIN(CsvWriterTest)
#include "csv_writer_test.moc"
