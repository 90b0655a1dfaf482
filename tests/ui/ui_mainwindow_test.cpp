// MainWindow end to end on a real X server (xvfb-run): load an example model, list it, run it on
// the worker thread, scrub the results, export CSV, cancel, report errors, automation contract.
#include "core/fe/reduced_body.h"
#include "io/csv_writer.h"
#include "io/fe/reduced_body_file.h"
#include "render/flexible_surface.h"
#include "render/model_scene.h"
#include "ui/gui_automation.h"
#include "ui/main_window.h"
#include "ui/messages_panel.h"
#include "ui/model_tree.h"
#include "ui/playback_bar.h"
#include "ui/surface_format.h"
#include "ui/vtk_viewport.h"
#include "widget_events.h"

#include <QAction>
#include <QApplication>
#include <QDoubleSpinBox>
#include <QLabel>
#include <QProgressBar>
#include <QRegularExpression>
#include <QSlider>
#include <QTemporaryDir>
#include <QtTest>

using namespace flexim;
using namespace flexim::ui;

namespace {

const QString kSliderCrank = QStringLiteral(FLEXIM_SOURCE_DIR "/resources/examples/slider_crank_rigid.json");
const QString kDoublePendulum = QStringLiteral(FLEXIM_SOURCE_DIR "/resources/examples/double_pendulum.json");
const QString kFlexibleCrank = QStringLiteral(FLEXIM_SOURCE_DIR "/resources/examples/slider_crank_flexible.json");

// Fraction of pixels that stand out from their row's first pixel (the background is a
// vertical gradient, so each row has one background colour).
double drawnFraction(const QImage& image) {
  if (image.isNull()) return 0.0;
  long drawn = 0;
  for (int y = 0; y < image.height(); ++y) {
    const QRgb background = image.pixel(0, y);
    for (int x = 0; x < image.width(); ++x) {
      const QRgb p = image.pixel(x, y);
      const int d = std::max({std::abs(qRed(p) - qRed(background)), std::abs(qGreen(p) - qGreen(background)),
                              std::abs(qBlue(p) - qBlue(background))});
      if (d > 30) ++drawn;
    }
  }
  return double(drawn) / (double(image.width()) * image.height());
}

void sendMouse(QWidget* widget, QEvent::Type type, QPoint at, Qt::MouseButton button,
               Qt::MouseButtons buttons) {
  QMouseEvent event(type, QPointF(at), QPointF(widget->mapToGlobal(at)), button, buttons, Qt::NoModifier);
  QCoreApplication::sendEvent(widget, &event);
}

using test::differingFraction;

// The round rod of tests/data/fe/rod (0.3 m along FE x, 6 rigid + 2 elastic modes used) pinned
// at its end A to the ground through a virtual body, released horizontally under gravity.
ModelSpec flexiblePendulum() {
  auto rod = std::make_shared<fe::ReducedBody>();
  std::string error;
  if (!io::loadReducedBody(FLEXIM_SOURCE_DIR "/tests/data/fe/rod/rod_round_c3d10.frb", *rod, &error))
    qFatal("%s", error.c_str());
  ModelSpec model;
  model.name = "flexible pendulum";
  model.gravity = Vec3(0, -9.81, 0);
  model.ground_markers.push_back({"pivot", Vec3::Zero(), Quat::Identity()});
  FlexibleBodySpec body;
  body.name = "rod";
  body.file = "rod_round_c3d10.frb";
  body.mode_count = 8;
  body.data = rod;
  model.flexible_bodies.push_back(body);
  VirtualBodySpec pin;
  pin.name = "rod_pin";
  pin.flexible_body = "rod";
  pin.markers.push_back({"pin", Vec3::Zero(), Quat::Identity()});
  model.virtual_bodies.push_back(pin);
  model.joints.push_back({"pivot", JointType::Revolute, kGroundName, "pivot", "rod_pin", "pin"});
  model.solver.t_end = 0.02;
  model.solver.step = 1e-4;
  model.solver.output_interval = 1e-3;
  return model;
}

}  // namespace

class MainWindowTest : public QObject {
  Q_OBJECT

 private slots:
  void init();
  void cleanup();
  void listsTheModel();
  void reportsUnreadableFile();
  void runsScrubsAndExports();
  void cancelKeepsSamples();
  void qualityWarningGoesToMessages();
  void compileErrorGoesToMessages();
  void closingWhileRunningStopsTheWorker();
  void mouseOrbitsWheelZoomsAndResetRestores();
  void playbackPlaysToTheEnd();
  void markersCanBeHidden();
  void automationRunsAndSavesScreenshot();
  void automationShowsATimeAndExportsCsv();
  void automationFailsOnMissingModel();
  void staticEquilibriumStepsThroughTheLoadLevels();
  void flexibleBodyAnimatesAndScales();
  void automationRunsTheFlexibleExample();

 private:
  std::unique_ptr<MainWindow> m_window;
};

void MainWindowTest::init() {
  m_window = std::make_unique<MainWindow>();
  m_window->resize(1000, 700);
  m_window->show();
  QVERIFY(QTest::qWaitForWindowExposed(m_window.get()));
}

void MainWindowTest::cleanup() { m_window.reset(); }

void MainWindowTest::listsTheModel() {
  QVERIFY(m_window->openModelFile(kSliderCrank));
  ModelTree* tree = m_window->modelTree();
  QCOMPARE(tree->itemNames("Bodies"), QStringList({"crank", "rod", "slider"}));
  QCOMPARE(tree->itemNames("Joints"), QStringList({"crank_pivot", "crank_pin", "wrist_pin", "slider_rail"}));
  QCOMPARE(tree->itemNames("Drivers"), QStringList({"motor"}));
  QCOMPARE(m_window->messages()->count(Severity::Error), 0);
  // the scene shows the model before any run
  const QImage view = m_window->viewport()->screenshot();
  QVERIFY2(drawnFraction(view) > 0.01, qPrintable(QString::number(drawnFraction(view))));
}

void MainWindowTest::reportsUnreadableFile() {
  QVERIFY(!m_window->openModelFile("/nonexistent/model.json"));
  QVERIFY(m_window->messages()->count(Severity::Error) >= 1);
  QVERIFY(!m_window->startRun());  // no model: refused with a message, not a crash
}

void MainWindowTest::runsScrubsAndExports() {
  QVERIFY(m_window->openModelFile(kSliderCrank));
  QSignalSpy finished(m_window.get(), &MainWindow::runFinished);
  QVERIFY(m_window->startRun());
  QTRY_VERIFY_WITH_TIMEOUT(!m_window->isRunning(), 20000);
  QCOMPARE(finished.count(), 1);
  QVERIFY2(m_window->lastSummary().ok, m_window->lastSummary().message.c_str());
  QCOMPARE(m_window->progressBar()->value(), m_window->progressBar()->maximum());
  // the run-quality summary in the messages panel; no check failed
  const QStringList info = m_window->messages()->lines(Severity::Info);
  QVERIFY2(!info.filter("constraint residuals at the steps").isEmpty(), qPrintable(info.join('\n')));
  QVERIFY(!info.filter("energy: E(0)").isEmpty());
  QVERIFY(!m_window->lastSummary().warning());

  // 0.1 s at 1e-4 s output interval
  const std::size_t count = m_window->results().size();
  QCOMPARE(count, std::size_t(1001));
  PlaybackBar* playback = m_window->playbackBar();
  QCOMPARE(playback->frameCount(), int(count));

  // scrub: the first and a quarter-turn later frame look different (the crank turns 150 rad/s)
  playback->slider()->setValue(0);
  const QImage first = m_window->viewport()->screenshot();
  playback->slider()->setValue(100);  // t = 0.01 s, crank at 1.5 rad
  const QImage later = m_window->viewport()->screenshot();
  QVERIFY(drawnFraction(first) > 0.01);
  QVERIFY(drawnFraction(later) > 0.01);
  QVERIFY2(differingFraction(first, later) > 0.002, qPrintable(QString::number(differingFraction(first, later))));

  const QImage window = m_window->grabWindowImage();
  QCOMPARE(window.size(), m_window->size());
  QVERIFY(drawnFraction(window) > 0.02);

  QTemporaryDir dir;
  const QString csvPath = dir.filePath("results.csv");
  QVERIFY(m_window->exportResultsCsv(csvPath));
  io::CsvTable table;
  std::string error;
  QVERIFY2(io::readCsv(csvPath.toStdString(), table, &error), error.c_str());
  QCOMPARE(table.rows(), count);
  QVERIFY(table.find("slider.position.x") >= 0);
}

void MainWindowTest::qualityWarningGoesToMessages() {
  // the double pendulum with a far too large generalized-alpha step: it finishes, but its energy
  // drifts; the run ends with a warning in the messages panel, not a plain "finished"
  QVERIFY(m_window->openModelFile(kDoublePendulum));
  ModelSpec model = m_window->model();
  model.solver.integrator = IntegratorType::GeneralizedAlpha;
  model.solver.step = 0.02;
  model.solver.output_interval = 0.02;
  m_window->showModel(model, "coarse double pendulum");
  QVERIFY(m_window->startRun());
  QTRY_VERIFY_WITH_TIMEOUT(!m_window->isRunning(), 20000);
  QVERIFY2(m_window->lastSummary().ok, m_window->lastSummary().message.c_str());
  QVERIFY(m_window->lastSummary().warning());
  const QStringList warnings = m_window->messages()->lines(Severity::Warning);
  QVERIFY2(!warnings.filter("the energy of a model on which nothing does work is off").isEmpty(),
           qPrintable(warnings.join('\n')));
}

void MainWindowTest::cancelKeepsSamples() {
  // a long run of the double pendulum, cancelled after the first samples
  QVERIFY(m_window->openModelFile(kDoublePendulum));
  ModelSpec model = m_window->model();
  model.solver.t_end = 1.0e4;
  m_window->showModel(model, "long double pendulum");
  QVERIFY(m_window->startRun());
  QTRY_VERIFY_WITH_TIMEOUT(m_window->results().size() > 5, 10000);
  m_window->cancelRun();
  QTRY_VERIFY_WITH_TIMEOUT(!m_window->isRunning(), 10000);
  QVERIFY(m_window->lastSummary().cancelled);
  QVERIFY(m_window->results().size() > 5);
  QCOMPARE(m_window->playbackBar()->frameCount(), int(m_window->results().size()));
  QVERIFY(m_window->messages()->count(Severity::Warning) >= 1);
}

void MainWindowTest::compileErrorGoesToMessages() {
  QVERIFY(m_window->openModelFile(kSliderCrank));
  ModelSpec broken = m_window->model();
  broken.joints[0].body2 = "no_such_body";
  m_window->showModel(broken, "broken model");
  const int errorsBefore = m_window->messages()->count(Severity::Error);
  QVERIFY(!m_window->startRun());
  QVERIFY(!m_window->isRunning());
  QVERIFY(m_window->messages()->count(Severity::Error) > errorsBefore);
}

void MainWindowTest::closingWhileRunningStopsTheWorker() {
  QVERIFY(m_window->openModelFile(kDoublePendulum));
  ModelSpec model = m_window->model();
  model.solver.t_end = 1.0e4;
  m_window->showModel(model, "long double pendulum");
  QVERIFY(m_window->startRun());
  QTRY_VERIFY_WITH_TIMEOUT(m_window->results().size() > 2, 10000);
  QElapsedTimer clock;
  clock.start();
  m_window.reset();  // cancels and joins the worker
  QVERIFY2(clock.elapsed() < 5000, "the worker stops promptly");
}

void MainWindowTest::mouseOrbitsWheelZoomsAndResetRestores() {
  QVERIFY(m_window->openModelFile(kSliderCrank));
  VtkViewport* view = m_window->viewport();
  const QImage before = view->screenshot();

  // left drag: trackball rotation
  const QPoint centre = view->rect().center();
  sendMouse(view, QEvent::MouseButtonPress, centre, Qt::LeftButton, Qt::LeftButton);
  for (int i = 1; i <= 10; ++i)
    sendMouse(view, QEvent::MouseMove, centre + QPoint(8 * i, 3 * i), Qt::NoButton, Qt::LeftButton);
  sendMouse(view, QEvent::MouseButtonRelease, centre + QPoint(80, 30), Qt::LeftButton, Qt::NoButton);
  const QImage orbited = view->screenshot();
  QVERIFY2(differingFraction(before, orbited) > 0.01, "dragging rotates the view");

  // wheel: zoom
  QWheelEvent wheel(QPointF(centre), QPointF(view->mapToGlobal(centre)), QPoint(), QPoint(0, 120),
                    Qt::NoButton, Qt::NoModifier, Qt::NoScrollPhase, false);
  QCoreApplication::sendEvent(view, &wheel);
  QVERIFY(differingFraction(orbited, view->screenshot()) > 0.01);

  view->resetView();
  QVERIFY2(differingFraction(before, view->screenshot()) < 0.001, "reset view restores the default camera");
}

void MainWindowTest::playbackPlaysToTheEnd() {
  QVERIFY(m_window->openModelFile(kSliderCrank));
  QVERIFY(m_window->startRun());
  QTRY_VERIFY_WITH_TIMEOUT(!m_window->isRunning(), 20000);
  PlaybackBar* playback = m_window->playbackBar();
  playback->setCurrentFrame(0);
  playback->play();  // real time: the 0.1 s run plays in about 0.1 s
  QVERIFY(playback->isPlaying());
  QTRY_VERIFY_WITH_TIMEOUT(!playback->isPlaying(), 5000);
  QCOMPARE(playback->currentFrame(), playback->frameCount() - 1);
}

void MainWindowTest::markersCanBeHidden() {
  QVERIFY(m_window->openModelFile(kSliderCrank));
  const QImage with = m_window->viewport()->screenshot();
  auto* showMarkers = m_window->findChild<QAction*>("actionShowMarkers");
  QVERIFY(showMarkers && showMarkers->isCheckable() && showMarkers->isChecked());
  showMarkers->trigger();
  const QImage without = m_window->viewport()->screenshot();
  const double changedPixels = differingFraction(with, without) * with.width() * with.height();
  // most marker axes lie inside the links here; the visible ends are a few dozen pixels
  QVERIFY2(changedPixels > 40, qPrintable(QString::number(changedPixels)));
  QVERIFY(drawnFraction(without) < drawnFraction(with));
}

void MainWindowTest::automationRunsAndSavesScreenshot() {
  QTemporaryDir dir;
  AutomationRequest request;
  request.modelPath = kSliderCrank;
  request.run = true;
  request.screenshotPath = dir.filePath("shot.png");
  GuiAutomation automation(*m_window, request);
  QSignalSpy finished(&automation, &GuiAutomation::finished);
  automation.start();
  QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 20000);
  QCOMPARE(finished.at(0).at(0).toInt(), 0);
  const QImage shot(request.screenshotPath);
  QVERIFY(!shot.isNull());
  QVERIFY(drawnFraction(shot) > 0.02);
  if (qEnvironmentVariableIsSet("FLEXIM_KEEP_SCREENSHOT"))
    QVERIFY(shot.save(qEnvironmentVariable("FLEXIM_KEEP_SCREENSHOT")));
}

/// Simulation → Static equilibrium (F8) on the 45° bend: eleven frames, load factor 0 … 1, the tip
/// at the literature's 53.4 out of plane at the full load, the playback bar and the plots over the
/// load factor, the convergence log in Messages, the export's first column the load factor.
void MainWindowTest::staticEquilibriumStepsThroughTheLoadLevels() {
  QVERIFY(m_window->openModelFile(FLEXIM_SOURCE_DIR "/resources/examples/beam_bend_45deg.json"));
  QSignalSpy finished(m_window.get(), &MainWindow::runFinished);
  m_window->activateWindow();
  QVERIFY(QTest::qWaitForWindowActive(m_window.get()));
  QTest::keyClick(m_window.get(), Qt::Key_F8);
  QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 20000);
  QVERIFY2(m_window->lastSummary().ok, m_window->lastSummary().message.c_str());
  const ResultTable& results = m_window->results();
  QCOMPARE(results.size(), std::size_t(11));
  QCOMPARE(results.time().back(), 1.0);
  const int z = results.channelIndex("tip.position.z");
  QVERIFY(z >= 0);
  QVERIFY2(std::abs(results.column(std::size_t(z)).back() - 53.47) < 0.05,
           qPrintable(QString::number(results.column(std::size_t(z)).back())));
  PlaybackBar* playback = m_window->playbackBar();
  QCOMPARE(playback->frameCount(), 11);
  const QList<QLabel*> labels = playback->findChildren<QLabel*>();
  QVERIFY(std::any_of(labels.begin(), labels.end(),
                      [](QLabel* l) { return l->text() == "load factor 1.0000 / 1.0000"; }));
  QVERIFY(!m_window->messages()->lines(Severity::Info).filter("converged in").isEmpty());
  // the bend at half load and at full load look different
  playback->setCurrentFrame(5);
  const QImage half = m_window->viewport()->screenshot();
  playback->setCurrentFrame(10);
  const QImage full = m_window->viewport()->screenshot();
  QVERIFY2(differingFraction(half, full) > 0.001, qPrintable(QString::number(differingFraction(half, full))));
  QTemporaryDir dir;
  QVERIFY(m_window->exportResultsCsv(dir.filePath("static.csv")));
  QFile csv(dir.filePath("static.csv"));
  QVERIFY(csv.open(QIODevice::ReadOnly));
  const QStringList lines = QString::fromUtf8(csv.readAll()).split('\n').filter(QRegularExpression("^[^#]"));
  QVERIFY2(lines.value(0).startsWith("load factor [-],load_factor [-],"), qPrintable(lines.value(0)));
}

/// --time shows the frame of that time after the run, --export-csv writes the results there.
void MainWindowTest::automationShowsATimeAndExportsCsv() {
  QTemporaryDir dir;
  AutomationRequest request;
  request.modelPath = kSliderCrank;
  request.run = true;
  request.time = 0.05;
  request.exportCsv = dir.filePath("results.csv");
  GuiAutomation automation(*m_window, request);
  QSignalSpy finished(&automation, &GuiAutomation::finished);
  automation.start();
  QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 20000);
  QVERIFY2(finished.at(0).at(0).toInt() == 0, qPrintable(finished.at(0).at(1).toString()));
  const ResultTable& results = m_window->results();
  const std::size_t frame = results.indexAtTime(0.05);
  QCOMPARE(m_window->playbackBar()->currentFrame(), int(frame));
  QVERIFY(std::abs(results.time()[frame] - 0.05) < 1e-9);
  QFile csv(request.exportCsv);
  QVERIFY(csv.open(QIODevice::ReadOnly | QIODevice::Text));
  int rows = 0;
  while (!csv.atEnd())
    if (const QByteArray line = csv.readLine(); !line.startsWith('#') && !line.startsWith("time")) ++rows;
  QCOMPARE(std::size_t(rows), results.size());
}

void MainWindowTest::automationFailsOnMissingModel() {
  AutomationRequest request;
  request.modelPath = "/nonexistent/model.json";
  request.run = true;
  GuiAutomation automation(*m_window, request);
  QSignalSpy finished(&automation, &GuiAutomation::finished);
  automation.start();
  QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 5000);
  QVERIFY(finished.at(0).at(0).toInt() != 0);
  QVERIFY(!finished.at(0).at(1).toString().isEmpty());
}

void MainWindowTest::flexibleBodyAnimatesAndScales() {
  m_window->showModel(flexiblePendulum(), "flexible pendulum");
  QCOMPARE(m_window->modelTree()->itemNames("Bodies"), QStringList({"rod", "rod_pin"}));
  render::ModelScene& scene = m_window->scene();
  QCOMPARE(scene.flexibleBodyCount(), std::size_t(1));
  QVERIFY(scene.flexibleSurface(0) != nullptr);
  QDoubleSpinBox* scale = m_window->deformationScaleBox();
  QVERIFY(scale && scale->isEnabled());
  QCOMPARE(scale->value(), 1.0);

  QVERIFY(m_window->startRun());
  QTRY_VERIFY_WITH_TIMEOUT(!m_window->isRunning(), 60000);
  QVERIFY2(m_window->lastSummary().ok, m_window->lastSummary().message.c_str());
  const ResultTable& results = m_window->results();
  QVERIFY(results.size() >= 20);
  const Sample last = results.sample(results.size() - 1);
  QCOMPARE(last.poses.size(), std::size_t(2));  // rod, rod_pin
  QCOMPARE(last.modal.size(), std::size_t(1));

  // the view shows the last sample: the rod's FE frame pose and its modal coordinates
  PlaybackBar* playback = m_window->playbackBar();
  QCOMPARE(playback->currentFrame(), playback->frameCount() - 1);
  QCOMPARE((scene.flexibleSurface(0)->modal() - last.modal[0]).norm(), 0.0);
  QVERIFY(scene.bodyPose(0).translation().isApprox(last.poses[0].position));
  // the colour scale covers the whole run (fed between events once the run has ended)
  QTRY_VERIFY(m_window->colourRangeComplete());
  double largest = 0.0;
  for (std::size_t i = 0; i < results.size(); ++i)
    largest = std::max(largest, scene.flexibleSurface(0)->maxDisplacement(results.sample(i).modal[0]));
  QVERIFY(largest > 0.0);
  QVERIFY(std::abs(scene.colourRangeMax() - largest) <= 1e-12 * largest);

  // scrubbing back deforms the surface back
  playback->setCurrentFrame(0);
  QCOMPARE((scene.flexibleSurface(0)->modal() - results.sample(0).modal[0]).norm(), 0.0);
  playback->setCurrentFrame(playback->frameCount() - 1);

  // the gravity sag is a fraction of a millimetre: exaggerated 1000 times it is plain to see
  const QImage trueSize = m_window->viewport()->screenshot();
  scale->setValue(1000.0);
  QCOMPARE(scene.deformationScale(), 1000.0);
  const QImage exaggerated = m_window->viewport()->screenshot();
  QVERIFY2(differingFraction(trueSize, exaggerated) > 0.002,
           qPrintable(QString::number(differingFraction(trueSize, exaggerated))));
  scale->setValue(1.0);

  // plain colours on request
  auto* colours = m_window->findChild<QAction*>("actionColourByDisplacement");
  QVERIFY(colours && colours->isEnabled() && colours->isChecked());
  colours->trigger();
  QVERIFY(!scene.displacementColouring());
  QVERIFY(differingFraction(trueSize, m_window->viewport()->screenshot()) > 0.001);
  colours->trigger();

  // a rigid model afterwards: the flexible controls are disabled, playback as before
  QVERIFY(m_window->openModelFile(kSliderCrank));
  QVERIFY(!scale->isEnabled());
  QCOMPARE(scene.flexibleBodyCount(), std::size_t(0));
}

void MainWindowTest::automationRunsTheFlexibleExample() {
  QTemporaryDir dir;
  AutomationRequest request;
  request.modelPath = kFlexibleCrank;
  request.run = true;
  request.screenshotPath = dir.filePath("flexible.png");
  m_window->deformationScaleBox()->setValue(30.0);
  GuiAutomation automation(*m_window, request);
  QSignalSpy finished(&automation, &GuiAutomation::finished);
  automation.start();
  QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 60000);
  QVERIFY2(finished.at(0).at(0).toInt() == 0, qPrintable(finished.at(0).at(1).toString()));
  // the rod is shown in its last state, deformed 30 times, coloured over the run's range
  const render::ModelScene& scene = m_window->scene();
  QCOMPARE(scene.flexibleBodyCount(), std::size_t(1));
  QCOMPARE(scene.bodyCount("virtual_bodies"), std::size_t(2));
  QVERIFY(scene.flexibleSurface(0) != nullptr);
  QCOMPARE(scene.deformationScale(), 30.0);
  const Sample last = m_window->results().sample(m_window->results().size() - 1);
  QCOMPARE((scene.flexibleSurface(0)->modal() - last.modal[0]).norm(), 0.0);
  QVERIFY(scene.colourRangeMax() > 0.0);
  const QImage shot(request.screenshotPath);
  QVERIFY(drawnFraction(shot) > 0.02);
}

int main(int argc, char** argv) {
  setDefaultSurfaceFormatForVtk();
  QApplication app(argc, argv);
  MainWindowTest test;
  return QTest::qExec(&test, argc, argv);
}

#include "ui_mainwindow_test.moc"
