// Live plots in the application, with real widget events: a channel dropped
// on a plot (the drop events a drag from the channel list delivers) or double-clicked is drawn
// and grows while the run streams; the plot's cursor follows the animation with the values of
// that sample; the plot's CSV has the same numbers as flexim-cli's CSV of the same model; a
// plot draws an envelope of at most a few points per pixel column, whatever the sample count.
#include "io/model_json.h"
#include "tests/ui/csv_columns.h"
#include "tests/ui/widget_events.h"
#include "ui/main_window.h"
#include "ui/playback_bar.h"
#include "ui/plot_panel.h"
#include "ui/surface_format.h"

#include <QAction>
#include <QApplication>
#include <QComboBox>
#include <QFileDialog>
#include <QLineEdit>
#include <QListWidget>
#include <QMimeData>
#include <QProcess>
#include <QPushButton>
#include <QSettings>
#include <QSlider>
#include <QTabBar>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QValueAxis>
#include <QAbstractSeries>
#include <QChart>
#include <QtTest>

#include <cmath>
#include <numbers>
#include <memory>

using namespace flexim;
using namespace flexim::ui;

namespace {

const QString kFlexibleCrank = QStringLiteral(FLEXIM_SOURCE_DIR "/resources/examples/slider_crank_flexible.json");
const QString kDoublePendulum = QStringLiteral(FLEXIM_SOURCE_DIR "/resources/examples/double_pendulum.json");

/// A mass of 2 kg on a frictionless rail (a prismatic joint along x) held by a spring of 800 N/m,
/// let go 10 mm from rest: x(t) = 0.01 cos(20 t), a line at 20 / 2 pi = 3.183 Hz, and the state
/// keeps to the ellipse (x / 0.01)^2 + (v / 0.2)^2 = 1.
constexpr double kOmega = 20.0, kAmplitude = 0.01;
const char* const kOscillator = R"({
  "schema_version": 1, "name": "oscillator", "gravity": [0, 0, 0],
  "ground": {"markers": [{"name": "rail", "position": [0, 0, 0], "z_axis": [1, 0, 0]},
                         {"name": "anchor", "position": [-0.5, 0, 0]}]},
  "bodies": [{"name": "mass", "mass": 2, "inertia": [0.001, 0.001, 0.001], "position": [0.01, 0, 0],
              "markers": [{"name": "rail", "position": [0, 0, 0], "z_axis": [1, 0, 0]},
                          {"name": "p", "position": [0, 0, 0]}]}],
  "joints": [{"name": "rail", "type": "prismatic", "body1": "ground", "marker1": "rail", "body2": "mass", "marker2": "rail"}],
  "forces": [{"name": "spring", "type": "spring_damper", "body1": "ground", "marker1": "anchor", "body2": "mass",
              "marker2": "p", "stiffness": 800, "damping": 0, "free_length": 0.5}],
  "sensors": [{"name": "mass", "type": "marker", "body": "mass", "marker": "p", "frame": "global",
               "quantities": ["position", "velocity"]}],
  "simulation": {"t_end": 4, "step": 0.001, "output_interval": 0.002, "integrator": "ida", "rtol": 1e-9, "atol": 1e-12}
})";

}  // namespace

class PlotsTest : public QObject {
  Q_OBJECT

 private slots:
  void init() {
    m_window = std::make_unique<MainWindow>();
    m_window->resize(1200, 800);
    m_window->show();
    QVERIFY(QTest::qWaitForWindowExposed(m_window.get()));
  }
  void cleanup() { m_window.reset(); }

  /// Channels of three units dropped on one plot get one value axis each (left, right, left); the
  /// ticks fit the plot's height, anchored at zero so that a zero tick is exactly 0.
  void oneValueAxisPerUnit() {
    QVERIFY(m_window->openModelFile(kDoublePendulum));
    QVERIFY(m_window->startRun());
    QTRY_VERIFY_WITH_TIMEOUT(!m_window->isRunning(), 60000);
    PlotPanel* plots = m_window->plotPanel();
    QListWidget* list = plots->channelList();
    PlotView* plot = plots->currentPlot();
    QVERIFY(plot);
    QStringList dropped;
    for (const QString& unit : {QString("[m]"), QString("[m/s]"), QString("[rad]")})
      for (int i = 0; i < list->count(); ++i)
        if (list->item(i)->text().endsWith(" " + unit)) {
          dropOn(plot, list, list->item(i));
          dropped << list->item(i)->text();
          break;
        }
    QCOMPARE(dropped.size(), 3);
    QApplication::processEvents();
    const QValueAxis* metres = plot->axisOfUnit("m");
    const QValueAxis* speed = plot->axisOfUnit("m/s");
    const QValueAxis* angle = plot->axisOfUnit("rad");
    QVERIFY(metres && speed && angle);
    QVERIFY(metres != speed && speed != angle);
    QCOMPARE(metres->alignment(), Qt::AlignLeft);
    QCOMPARE(speed->alignment(), Qt::AlignRight);
    QCOMPARE(metres->titleText(), QString("[m]"));
    for (const QValueAxis* axis : {metres, speed, angle}) {
      QVERIFY(axis->isVisible());
      QCOMPARE(axis->tickType(), QValueAxis::TicksDynamic);
      QCOMPARE(axis->tickAnchor(), 0.0);
      const int ticks = int(std::floor((axis->max() - axis->min()) / axis->tickInterval() + 1e-9)) + 1;
      QVERIFY2(ticks >= 2 && ticks <= 8, qPrintable(QString::number(ticks)));
    }
    // every curve is drawn against its own unit's axis
    for (QAbstractSeries* series : plot->chart()->series()) {
      const QString name = series->name();
      if (name.isEmpty()) continue;  // the cursor
      const QString unit = name.section('[', -1).chopped(1);
      const QList<QAbstractAxis*> axes = series->attachedAxes();
      QVERIFY2(axes.contains(const_cast<QValueAxis*>(plot->axisOfUnit(unit.toStdString()))), qPrintable(name));
    }
  }


  /// Dropping channels from the list on a plot, during a run: the curve grows; afterwards the
  /// plot's CSV equals flexim-cli's numbers for the same model.
  void droppedChannelGrowsAndExportsTheCliNumbers() {
    QVERIFY(m_window->openModelFile(kFlexibleCrank));
    PlotPanel* plots = m_window->plotPanel();
    QVERIFY(m_window->startRun());
    QListWidget* list = plots->channelList();
    QTRY_VERIFY_WITH_TIMEOUT(list->count() > 0, 10000);
    const auto items = list->findItems("slider.position.x [m]", Qt::MatchExactly);
    QCOMPARE(items.size(), 1);
    PlotView* plot = plots->currentPlot();
    QVERIFY(plot);
    dropOn(plot, list, items.front());
    QCOMPARE(plot->channelNames(), std::vector<std::string>{"slider.position.x"});
    // it grows while the run streams: dropped early in the run, the curve has more points at its end
    const bool runningAtDrop = m_window->isRunning();
    const int atDrop = plot->pointCount("slider.position.x");
    QTRY_VERIFY_WITH_TIMEOUT(!m_window->isRunning(), 60000);
    QApplication::processEvents();
    if (runningAtDrop)
      QVERIFY2(plot->pointCount("slider.position.x") > atDrop,
               qPrintable(QString("%1 points at the drop, %2 at the end").arg(atDrop).arg(plot->pointCount("slider.position.x"))));
    else
      qWarning("the run had finished before the drop: growth not observed");
    QVERIFY(m_window->lastSummary().ok);
    QVERIFY(plot->pointCount("slider.position.x") > 10);

    QTemporaryDir dir;
    const QString guiCsv = dir.filePath("plot.csv"), cliCsv = dir.filePath("cli.csv");
    QString error;
    QVERIFY2(plot->exportCsv(guiCsv, error), qPrintable(error));
    QProcess cli;
    cli.start(QStringLiteral(FLEXIM_CLI), {"run", kFlexibleCrank, "--out", cliCsv});
    QVERIFY(cli.waitForFinished(120000));
    QCOMPARE(cli.exitCode(), 0);
    const auto gui = test::csvColumns(guiCsv), ref = test::csvColumns(cliCsv);
    const auto& x = gui.at("slider.position.x [m]");
    const auto& xRef = ref.at("slider.position.x [m]");
    QCOMPARE(x.size(), xRef.size());
    double worst = 0;
    for (std::size_t i = 0; i < x.size(); ++i) worst = std::max(worst, std::abs(x[i] - xRef[i]));
    QVERIFY2(worst <= 1e-9, qPrintable(QString::number(worst)));  // the CLI's CSV has 10 significant digits
  }

  /// Double-click adds to the current plot; the cursor follows the playback bar with the
  /// sample's values; "New plot" adds a tab; the envelope keeps the drawing small.
  void cursorFollowsPlaybackAndTheDrawingStaysSmall() {
    QVERIFY(m_window->openModelFile(kDoublePendulum));
    QVERIFY(m_window->startRun());
    QTRY_VERIFY_WITH_TIMEOUT(!m_window->isRunning(), 60000);
    PlotPanel* plots = m_window->plotPanel();
    showPlotsTab();
    QListWidget* list = plots->channelList();
    QVERIFY(list->count() > 0);
    QVERIFY(list->isVisible());
    QListWidgetItem* first = list->item(0);
    const std::string name = first->data(Qt::UserRole).toString().toStdString();
    list->scrollToItem(first);
    // a double click as the window system delivers it: press, release, then the double click
    const QPoint at = list->visualItemRect(first).center();
    QTest::mouseClick(list->viewport(), Qt::LeftButton, {}, at);
    QTest::mouseDClick(list->viewport(), Qt::LeftButton, {}, at);
    PlotView* plot = plots->currentPlot();
    QCOMPARE(plot->channelNames(), std::vector<std::string>{name});
    // the drawing: at most four points per bucket (pixel column), however many samples
    const ResultTable& results = m_window->results();
    QVERIFY(results.size() > 100);
    QVERIFY(plot->pointCount(name) <= 4 * std::max(50, plot->width()));
    // the cursor: the playback bar's frame, its time and value in the readout
    auto* slider = m_window->playbackBar()->findChild<QSlider*>();
    QVERIFY(slider);
    const int frame = int(results.size() / 3);
    slider->setFocus();
    slider->setValue(frame);
    QApplication::processEvents();
    const int c = results.channelIndex(name);
    const QString expected = QString("%1 = %2").arg(QString::fromStdString(name)).arg(results.column(std::size_t(c))[frame], 0, 'g', 6);
    QVERIFY2(plot->readout().contains(expected), qPrintable(plot->readout() + " / " + expected));
    QVERIFY(plot->readout().startsWith(QString("t = %1 s").arg(results.time()[frame], 0, 'g', 6)));
    // another plot in a tab
    const int tabs = plots->tabs()->count();
    QTest::mouseClick(plots->findChild<QWidget*>("newPlot"), Qt::LeftButton);
    QCOMPARE(plots->tabs()->count(), tabs + 1);
    QVERIFY(plots->currentPlot() != plot);
    QVERIFY(plots->currentPlot()->channelNames().empty());
  }

  /// The whole path of a user, by keyboard and mouse on the real window: F5 runs the flexible
  /// slider-crank, a channel dropped on the plot grows, F6 pauses (nothing arrives) and resumes,
  /// the run ends ok, Ctrl+E exports the CSV through the file dialog (typed name, Return), and
  /// every column equals flexim-cli's run of the same file (pausing changes nothing).
  void endToEndRunPauseResumeExport() {
    m_window->activateWindow();
    QVERIFY(QTest::qWaitForWindowActive(m_window.get()));
    QVERIFY(m_window->openModelFile(kFlexibleCrank));
    QTest::keyClick(m_window.get(), Qt::Key_F5);
    QVERIFY(m_window->isRunning());
    PlotPanel* plots = m_window->plotPanel();
    QListWidget* list = plots->channelList();
    QTRY_VERIFY_WITH_TIMEOUT(list->count() > 0, 10000);
    const auto items = list->findItems("slider.position.x [m]", Qt::MatchExactly);
    QCOMPARE(items.size(), 1);
    dropOn(plots->currentPlot(), list, items.front());
    QTest::keyClick(m_window.get(), Qt::Key_F6);
    const bool paused = m_window->isRunPaused();
    if (paused) {
      QTest::qWait(300);  // the samples of the steps before the pause drain
      const std::size_t held = m_window->results().size();
      QTest::qWait(400);
      QCOMPARE(m_window->results().size(), held);
      QTest::keyClick(m_window.get(), Qt::Key_F6);
      QVERIFY(!m_window->isRunPaused());
    } else {
      qWarning("the run had finished before F6: pause not exercised");
    }
    QTRY_VERIFY_WITH_TIMEOUT(!m_window->isRunning(), 60000);
    QVERIFY(m_window->lastSummary().ok);

    QTemporaryDir dir;
    const QString guiCsv = dir.filePath("gui.csv"), cliCsv = dir.filePath("cli.csv");
    // the save dialog is modal: answer it from the event loop once it is up
    bool answered = false;
    QTimer::singleShot(300, this, [&] {
      auto* dialog = qobject_cast<QFileDialog*>(QApplication::activeModalWidget());
      if (!dialog) return;
      auto* name = dialog->findChild<QLineEdit*>("fileNameEdit");
      if (!name) return;
      name->selectAll();
      QTest::keyClicks(name, guiCsv);
      QTest::keyClick(name, Qt::Key_Return);
      answered = true;
    });
    QTest::keyClick(m_window.get(), Qt::Key_E, Qt::ControlModifier);
    QVERIFY(answered);
    QVERIFY(QFile::exists(guiCsv));
    QProcess cli;
    cli.start(QStringLiteral(FLEXIM_CLI), {"run", kFlexibleCrank, "--out", cliCsv});
    QVERIFY(cli.waitForFinished(120000));
    QCOMPARE(cli.exitCode(), 0);
    const auto gui = test::csvColumns(guiCsv), ref = test::csvColumns(cliCsv);
    QCOMPARE(gui.size(), ref.size());
    QVERIFY(gui.count("slider.position.x [m]") == 1);
    for (const auto& [header, column] : ref) {
      QVERIFY2(gui.count(header), qPrintable(header));
      const auto& mine = gui.at(header);
      QCOMPARE(mine.size(), column.size());
      for (std::size_t i = 0; i < column.size(); ++i)
        QVERIFY2(std::abs(mine[i] - column[i]) <= 1e-9 * std::max(1.0, std::abs(column[i])),
                 qPrintable(QString("%1 row %2: %3 vs %4").arg(header).arg(i).arg(mine[i]).arg(column[i])));
    }
    if (paused) QVERIFY(plots->currentPlot()->pointCount("slider.position.x") > 10);
  }

  /// In a session that restores its state, the plots of a model file come back when it is
  /// opened again (tabs and channels); another model starts with one empty plot.
  void plotsOfAModelAreRemembered() {
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    QSettings::setDefaultFormat(QSettings::IniFormat);
    QSettings::setPath(QSettings::IniFormat, QSettings::UserScope, dir.path());
    const QString model = dir.filePath("crank.json");
    QVERIFY(QFile::copy(QStringLiteral(FLEXIM_SOURCE_DIR "/resources/examples/slider_crank_rigid.json"), model));
    m_window->restoreLayout();
    QVERIFY(m_window->openModelFile(model));
    PlotPanel* plots = m_window->plotPanel();
    m_window->plotChannels({"slider.position.x", "slider.velocity.x"});
    QTest::mouseClick(plots->findChild<QPushButton*>("newPlot"), Qt::LeftButton);
    m_window->plotChannels({"energy.total"});
    const QList<QStringList> expected{{"slider.position.x", "slider.velocity.x"}, {"energy.total"}};
    QCOMPARE(plots->plotLayout(), expected);

    m_window.reset();
    init();
    m_window->restoreLayout();
    QVERIFY(m_window->openModelFile(model));
    QCOMPARE(m_window->plotPanel()->plotLayout(), expected);
    QVERIFY(m_window->openModelFile(kFlexibleCrank));
    QCOMPARE(m_window->plotPanel()->plotLayout(), QList<QStringList>{QStringList()});
    QSettings::setDefaultFormat(QSettings::NativeFormat);
  }

  /// The spectrum of the oscillator's position, chosen in the plot's x box with the keyboard:
  /// its peak is at the oscillator's frequency (within half a bin), its height the amplitude
  /// (within the Hann window's scalloping); the mouse over the plot reads out the frequency
  /// under it and each amplitude there.
  void spectrumOfAChannel() {
    QTemporaryDir dir;
    QVERIFY(openOscillator(dir));
    PlotPanel* plots = m_window->plotPanel();
    showPlotsTab();
    PlotView* plot = plots->currentPlot();
    dropOn(plot, plots->channelList(), channelItem("mass.position.x"));
    test::chooseInCombo(plots->abscissaBox(), "@spectrum");
    QCOMPARE(plot->abscissa(), PlotView::Abscissa::Frequency);
    QCOMPARE(plot->horizontalAxis()->titleText(), QString("f [Hz]"));
    const QList<QPointF> points = plot->points("mass.position.x");
    QVERIFY(points.size() > 10);
    QPointF peak(0, 0);
    for (const QPointF& p : points)
      if (p.y() > peak.y()) peak = p;
    const double f = kOmega / (2 * std::numbers::pi), resolution = 1.0 / 4.002;
    QVERIFY2(std::abs(peak.x() - f) <= 0.5 * resolution + 1e-9, qPrintable(QString("peak at %1 Hz").arg(peak.x())));
    QVERIFY2(peak.y() > 0.84 * kAmplitude && peak.y() < 1.01 * kAmplitude, qPrintable(QString::number(peak.y())));
    QVERIFY2(plot->readout().contains(QString("peak at %1 Hz").arg(peak.x(), 0, 'g', 5)), qPrintable(plot->readout()));
    // the mouse at 80 % of the axis: the read-out gives the frequency under it (within a pixel)
    const double target = 0.8 * plot->horizontalAxis()->max();
    const QPointF at = plot->chart()->mapToPosition({target, 0.5 * peak.y()});
    QTest::mouseMove(plot->viewport(), at.toPoint());
    QApplication::processEvents();
    const QString readout = plot->readout();
    QVERIFY2(readout.startsWith("f = "), qPrintable(readout));
    const double shown = readout.mid(4, readout.indexOf(" Hz") - 4).toDouble();
    QVERIFY2(std::abs(shown - target) < 2 * plot->horizontalAxis()->max() / plot->chart()->plotArea().width(),
             qPrintable(QString("%1 at %2 Hz").arg(readout).arg(target)));
    // remembered with the plot
    QCOMPARE(plots->plotLayout().front(), QStringList({"@spectrum", "mass.position.x"}));
  }

  /// An x-y plot, velocity against position: every sample drawn (at this count), on the phase
  /// ellipse of the oscillator; the cursor marks the playback's sample; the read-out names x.
  void xyPlotOfTwoChannels() {
    QTemporaryDir dir;
    QVERIFY(openOscillator(dir));
    PlotPanel* plots = m_window->plotPanel();
    showPlotsTab();
    PlotView* plot = plots->currentPlot();
    dropOn(plot, plots->channelList(), channelItem("mass.velocity.x"));
    test::chooseInCombo(plots->abscissaBox(), "mass.position.x");
    QCOMPARE(plot->abscissa(), PlotView::Abscissa::Channel);
    QCOMPARE(plot->horizontalAxis()->titleText(), QString("mass.position.x [m]"));
    const ResultTable& results = m_window->results();
    const QList<QPointF> points = plot->points("mass.velocity.x");
    QCOMPARE(std::size_t(points.size()), results.size());
    double worst = 0;
    for (const QPointF& p : points)
      worst = std::max(worst, std::abs(std::pow(p.x() / kAmplitude, 2) + std::pow(p.y() / (kOmega * kAmplitude), 2) - 1));
    QVERIFY2(worst < 1e-3, qPrintable(QString::number(worst)));
    auto* slider = m_window->playbackBar()->findChild<QSlider*>();
    const int frame = int(results.size() / 5);
    slider->setFocus();
    slider->setValue(frame);
    QApplication::processEvents();
    const int x = results.channelIndex("mass.position.x"), v = results.channelIndex("mass.velocity.x");
    QCOMPARE(plot->cursorMarks().size(), 1);
    QCOMPARE(plot->cursorMarks().front(),
             QPointF(results.column(std::size_t(x))[frame], results.column(std::size_t(v))[frame]));
    QVERIFY2(plot->readout().contains(QString("x: mass.position.x = %1 m").arg(results.column(std::size_t(x))[frame], 0, 'g', 6)),
             qPrintable(plot->readout()));
    QVERIFY(plots->tabs()->tabText(plots->tabs()->currentIndex()).endsWith("vs mass.position.x"));
  }

  /// A stress channel is shown in the stress unit of View > Stress unit: MPa by default, then kPa
  /// (values a thousand times larger, the axis and read-out saying so); the CSV stays in Pa.
  void stressInTheChosenUnit() {
    QVERIFY(m_window->openModelFile(kFlexibleCrank));
    QVERIFY(m_window->startRun());
    QTRY_VERIFY_WITH_TIMEOUT(!m_window->isRunning(), 60000);
    PlotPanel* plots = m_window->plotPanel();
    showPlotsTab();
    QListWidgetItem* stress = nullptr;
    for (int i = 0; i < plots->channelList()->count(); ++i)
      if (plots->channelList()->item(i)->text().endsWith("[Pa]")) stress = plots->channelList()->item(i);
    QVERIFY(stress);
    const std::string name = stress->data(Qt::UserRole).toString().toStdString();
    PlotView* plot = plots->currentPlot();
    dropOn(plot, plots->channelList(), stress);
    auto* kPa = m_window->findChild<QAction*>("stressUnit:kPa");
    auto* MPa = m_window->findChild<QAction*>("stressUnit:MPa");
    QVERIFY(kPa && MPa);
    MPa->trigger();
    QVERIFY(plot->axisOfUnit("MPa"));
    const double inMPa = plot->points(name).back().y();
    kPa->trigger();
    QVERIFY(plot->axisOfUnit("kPa") && plot->axisOfUnit("kPa")->isVisible());
    QVERIFY(!plot->axisOfUnit("MPa")->isVisible());
    const double inKPa = plot->points(name).back().y();
    QVERIFY2(std::abs(inKPa - 1e3 * inMPa) <= 1e-9 * std::abs(inKPa) && inKPa != 0.0, qPrintable(QString("%1 %2").arg(inKPa).arg(inMPa)));
    QVERIFY(plot->readout().contains(" kPa"));
    QVERIFY(m_window->scene().shownContourUnit().unit == std::string("m") ||
            m_window->scene().shownContourUnit().unit == std::string("mm"));
    MPa->trigger();  // the setting outlives the test otherwise
  }

 private:
  /// Clicks the "Plots" tab of the bottom docks (Messages is in front after loading).
  void showPlotsTab() {
    for (QTabBar* bar : m_window->findChildren<QTabBar*>())
      for (int i = 0; i < bar->count(); ++i)
        if (bar->tabText(i) == "Plots" && bar->isVisible()) {
          QTest::mouseClick(bar, Qt::LeftButton, {}, bar->tabRect(i).center());
          QApplication::processEvents();
          return;
        }
    QFAIL("no Plots tab");
  }

  /// The events a drag of item from list onto plot delivers: enter, move, drop, with the list's
  /// own drag data.
  /// Writes the oscillator into dir, opens and runs it.
  bool openOscillator(const QTemporaryDir& dir) {
    const QString path = dir.filePath("oscillator.json");
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly) || file.write(kOscillator) < 0) return false;
    file.close();
    if (!m_window->openModelFile(path) || !m_window->startRun()) return false;
    if (!QTest::qWaitFor([&] { return !m_window->isRunning(); }, 60000)) return false;
    return m_window->lastSummary().ok;
  }

  QListWidgetItem* channelItem(const QString& name) const {
    QListWidget* list = m_window->plotPanel()->channelList();
    for (int i = 0; i < list->count(); ++i)
      if (list->item(i)->data(Qt::UserRole).toString() == name) return list->item(i);
    return nullptr;
  }

  static void dropOn(PlotView* plot, QListWidget* list, QListWidgetItem* item) {
    std::unique_ptr<QMimeData> data(list->model()->mimeData({list->indexFromItem(item)}));
    QVERIFY(data && data->hasFormat(PlotPanel::mimeType()));
    QWidget* target = plot->viewport();
    const QPoint at = target->rect().center();
    QDragEnterEvent enter(at, Qt::CopyAction, data.get(), Qt::LeftButton, {});
    QApplication::sendEvent(target, &enter);
    QVERIFY(enter.isAccepted());
    QDragMoveEvent move(at, Qt::CopyAction, data.get(), Qt::LeftButton, {});
    QApplication::sendEvent(target, &move);
    QDropEvent drop(at, Qt::CopyAction, data.get(), Qt::LeftButton, {});
    QApplication::sendEvent(target, &drop);
    QVERIFY(drop.isAccepted());
  }

  std::unique_ptr<MainWindow> m_window;
};

int main(int argc, char** argv) {
  setDefaultSurfaceFormatForVtk();
  QApplication app(argc, argv);
  PlotsTest test;
  return QTest::qExec(&test, argc, argv);
}

#include "ui_plots_test.moc"
