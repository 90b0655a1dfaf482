// Animation in the application, driven with real widget events: step and
// play with the keyboard, loop at a chosen speed, contour by a displacement component with a
// colour scale over the run or the frame, the undeformed ghost, the trace of a picked FE node,
// and writing the animation as a PNG sequence and an Ogg Theora video.
#include "render/flexible_surface.h"
#include "render/model_scene.h"
#include "ui/animation_export.h"
#include "ui/display_toolbar.h"
#include "ui/main_window.h"
#include "ui/messages_panel.h"
#include "ui/playback_bar.h"
#include "ui/surface_format.h"
#include "ui/vtk_viewport.h"

#include <QAction>
#include <QApplication>
#include <QComboBox>
#include <QDir>
#include <QTemporaryDir>
#include <QToolButton>
#include <QtTest>
#include <vtkActor.h>
#include <vtkRenderer.h>

#include <cmath>
#include <memory>

using namespace flexim;
using namespace flexim::ui;

namespace {

const QString kFlexibleCrank = QStringLiteral(FLEXIM_SOURCE_DIR "/resources/examples/slider_crank_flexible.json");

}  // namespace

class AnimationTest : public QObject {
  Q_OBJECT

 private slots:
  /// Video frames are taken at a steady rate of simulated time; the last sample ends the film.
  void framesFollowTheSpeed() {
    std::vector<double> times(1001);
    for (std::size_t i = 0; i < times.size(); ++i) times[i] = 1e-3 * double(i);
    const std::vector<int> real = animationFrames(times, 25, 1.0);
    QCOMPARE(real.size(), std::size_t(26));
    for (std::size_t k = 0; k < real.size(); ++k) QCOMPARE(real[k], int(40 * k));
    const std::vector<int> slow = animationFrames(times, 25, 0.5);
    QCOMPARE(slow.size(), std::size_t(51));
    QCOMPARE(slow[7], 140);
    // an uneven output step: the latest sample at or before each frame's time, the last one at the end
    // (frames at t = 0, 0.025, 0.05, 0.075, 0.1: a sample is held until the next one is due)
    const std::vector<int> uneven = animationFrames({0.0, 0.03, 0.05, 0.11}, 40, 1.0);
    QCOMPARE(uneven, (std::vector<int>{0, 0, 2, 2, 2, 3}));
    QVERIFY(animationFrames({}, 25, 1).empty());
    QVERIFY(animationFrames(times, 0, 1).empty());
    QVERIFY(animationFrames(times, 25, -1).empty());
    QCOMPARE(sequenceFramePath("/tmp/x/run.png", 7), QString("/tmp/x/run_0007.png"));
  }

  void init() {
    m_window = std::make_unique<MainWindow>();
    m_window->resize(1200, 800);
    m_window->show();
    QVERIFY(QTest::qWaitForWindowExposed(m_window.get()));
    m_window->activateWindow();
    QVERIFY(QTest::qWaitForWindowActive(m_window.get()));
    QVERIFY(m_window->openModelFile(kFlexibleCrank));
    QVERIFY(m_window->startRun());
    QTRY_VERIFY_WITH_TIMEOUT(!m_window->isRunning(), 60000);
    QVERIFY(m_window->lastSummary().ok);
  }
  void cleanup() { m_window.reset(); }

  /// "," and "." step one frame, Space plays; with Loop on, playing at 10x wraps to the start.
  void keyboardStepsPlaysAndLoops() {
    PlaybackBar* bar = m_window->playbackBar();
    const int last = bar->frameCount() - 1;
    QCOMPARE(bar->currentFrame(), last);  // the view followed the run to its end
    QTest::keyClick(m_window.get(), Qt::Key_Comma);
    QCOMPARE(bar->currentFrame(), last - 1);
    QTest::keyClick(m_window.get(), Qt::Key_Comma);
    QTest::keyClick(m_window.get(), Qt::Key_Period);
    QCOMPARE(bar->currentFrame(), last - 1);
    // the scene shows that frame's sample
    const Sample shown = m_window->results().sample(std::size_t(last - 1));
    QCOMPARE((m_window->scene().flexibleSurface(0)->modal() - shown.modal[0]).norm(), 0.0);

    // play from the start at 0.1x: 0.1 s of simulation takes a second, frames advance
    QComboBox* speed = bar->findChild<QComboBox*>("playbackSpeed");
    QVERIFY(speed);
    speed->setCurrentIndex(speed->findData(0.1));
    QCOMPARE(bar->speed(), 0.1);
    bar->setCurrentFrame(0);
    QTest::keyClick(m_window.get(), Qt::Key_Space);
    QVERIFY(bar->isPlaying());
    QTRY_VERIFY_WITH_TIMEOUT(bar->currentFrame() > 50, 5000);
    QVERIFY(bar->isPlaying());
    QTest::keyClick(m_window.get(), Qt::Key_Space);
    QVERIFY(!bar->isPlaying());
    const int held = bar->currentFrame();
    QTest::qWait(200);
    QCOMPARE(bar->currentFrame(), held);

    // loop at 10x: the run (0.1 s) lasts 10 ms; playback keeps going and comes round again
    speed->setCurrentIndex(speed->findData(10.0));
    QToolButton* loop = nullptr;
    for (auto* button : bar->findChildren<QToolButton*>())
      if (button->defaultAction() == bar->loopAction()) loop = button;
    QVERIFY(loop);
    QTest::mouseClick(loop, Qt::LeftButton);
    QVERIFY(bar->loops());
    QTest::keyClick(m_window.get(), Qt::Key_Space);
    int previous = bar->currentFrame();
    bool wrapped = false;
    for (int i = 0; i < 100 && !wrapped; ++i) {
      QTest::qWait(10);
      wrapped = bar->currentFrame() < previous;
      previous = bar->currentFrame();
    }
    QVERIFY(wrapped);
    QVERIFY(bar->isPlaying());
    // without the loop, playing stops at the end
    QTest::mouseClick(loop, Qt::LeftButton);
    QTRY_VERIFY_WITH_TIMEOUT(!bar->isPlaying(), 3000);
    QCOMPARE(bar->currentFrame(), last);
  }

  /// The contour box switches to u_x (keyboard): the colour scale is that component's range
  /// over every sample of the run; "each frame" makes it the frame's own.
  void contourComponentOverTheRunOrTheFrame() {
    DisplayToolBar* display = m_window->displayToolBar();
    QComboBox* contour = display->contourBox();
    contour->setFocus();
    QTest::keyClick(contour, Qt::Key_Down);
    QCOMPARE(m_window->scene().contour(), render::ContourQuantity::X);
    QTRY_VERIFY(m_window->colourRangeComplete());  // fed between events
    const render::FlexibleSurface* surface = m_window->scene().flexibleSurface(0);
    render::ScalarRange run;
    for (std::size_t i = 0; i < m_window->results().size(); ++i)
      run.add(surface->range(m_window->results().sample(i).modal[0]));
    QVERIFY(run.lo < run.hi);
    QCOMPARE(m_window->scene().colourRange().lo, run.lo);
    QCOMPARE(m_window->scene().colourRange().hi, run.hi);

    QComboBox* range = display->colourRangeBox();
    range->setFocus();
    QTest::keyClick(range, Qt::Key_Down);
    QCOMPARE(m_window->scene().colourRangeMode(), render::ColourRangeMode::EachFrame);
    m_window->playbackBar()->setCurrentFrame(300);
    const render::ScalarRange frame = surface->range(m_window->results().sample(300).modal[0]);
    QCOMPARE(m_window->scene().colourRange().lo, frame.lo);
    QCOMPARE(m_window->scene().colourRange().hi, frame.hi);
  }

  /// The Undeformed button shows the ghost; T traces the FE node picked last through the
  /// frames up to the one shown, "," shortens the path by one.
  void ghostAndTraceOfAPickedNode() {
    QToolBar* display = m_window->displayToolBar();
    QVERIFY(!m_window->scene().undeformedActor(0)->GetVisibility());
    QTest::mouseClick(display->widgetForAction(m_window->displayToolBar()->undeformedAction()), Qt::LeftButton);
    QVERIFY(m_window->scene().undeformedActor(0)->GetVisibility());

    VtkViewport* view = m_window->viewport();
    QApplication::processEvents();
    view->screenshot();
    vtkRenderer* renderer = m_window->scene().renderer();
    const double* centre = m_window->scene().flexibleActor(0)->GetCenter();
    renderer->SetWorldPoint(centre[0], centre[1], centre[2], 1.0);
    renderer->WorldToDisplay();
    const double* d = renderer->GetDisplayPoint();
    const qreal ratio = view->devicePixelRatioF();
    QTest::mouseClick(view, Qt::LeftButton, {}, QPoint(int(std::lround(d[0] / ratio)), int(std::lround(view->height() - 1 - d[1] / ratio))));
    QVERIFY2(m_window->pickReadout().contains("node "), qPrintable(m_window->pickReadout()));

    m_window->playbackBar()->setCurrentFrame(500);
    QTest::keyClick(m_window.get(), Qt::Key_T);
    QCOMPARE(m_window->scene().tracePathSize(), std::size_t(501));
    QTest::keyClick(m_window.get(), Qt::Key_Comma);
    QCOMPARE(m_window->scene().tracePathSize(), std::size_t(500));
    QVERIFY(m_window->messages()->lines(Severity::Info).join("\n").contains("tracing node"));
    m_window->findChild<QAction*>("actionClearTrace")->trigger();
    QCOMPARE(m_window->scene().tracePathSize(), std::size_t(0));
  }

  /// The animation as PNG frames (one per video frame at the playback speed, each a different
  /// picture) and as an Ogg Theora video; an unknown extension is refused with a message.
  void writesFramesAndVideo() {
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    m_window->playbackBar()->setSpeed(0.1);  // 0.1 s of simulation -> 1 s of film, 26 frames at 25 fps
    QVERIFY(m_window->exportAnimation(dir.filePath("run.png")));
    const QStringList frames = QDir(dir.path()).entryList({"run_*.png"}, QDir::Files, QDir::Name);
    QCOMPARE(frames.size(), 26);
    const QImage first(dir.filePath(frames.front())), last(dir.filePath(frames.back()));
    QVERIFY(!first.isNull() && first.size() == last.size());
    QVERIFY(first != last);  // the mechanism moved
    QCOMPARE(m_window->playbackBar()->currentFrame(), m_window->playbackBar()->frameCount() - 1);  // view put back

    QVERIFY(m_window->exportAnimation(dir.filePath("run.ogv")));
    QFile video(dir.filePath("run.ogv"));
    QVERIFY(video.open(QIODevice::ReadOnly));
    QVERIFY(video.read(4) == "OggS");
    QVERIFY(m_window->messages()->lines(Severity::Info).join("\n").contains("26 frames"));

    QVERIFY(!m_window->exportAnimation(dir.filePath("run.gif")));
    QVERIFY(m_window->messages()->lines(Severity::Error).join("\n").contains(".ogv"));
  }

 private:
  std::unique_ptr<MainWindow> m_window;
};

int main(int argc, char** argv) {
  flexim::ui::setDefaultSurfaceFormatForVtk();
  QApplication app(argc, argv);
  AnimationTest test;
  return QTest::qExec(&test, argc, argv);
}
#include "ui_animation_test.moc"
