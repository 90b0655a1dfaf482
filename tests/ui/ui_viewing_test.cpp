// What an engineer expects in the first hour, with real widget events: orientations typed as
// angles, units that name the driven coordinate, a camera that frames what was added or moved
// and can follow a body, a mode view that says its colours are relative, and colour limits the
// user fixes.
#include "core/base/cardan_angles.h"
#include "render/flexible_surface.h"
#include "render/model_scene.h"
#include "tests/ui/widget_events.h"
#include "ui/display_toolbar.h"
#include "ui/item_dialog.h"
#include "ui/main_window.h"
#include "ui/mode_browser.h"
#include "ui/model_document.h"
#include "ui/orientation_handle.h"
#include "ui/playback_bar.h"
#include "ui/property_panel.h"
#include "ui/surface_format.h"
#include "ui/vtk_viewport.h"

#include <QAction>
#include <QApplication>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QPushButton>
#include <QSignalSpy>
#include <QSlider>
#include <QTableWidget>
#include <QTimer>
#include <QUndoStack>
#include <QtTest>
#include <vtkCamera.h>
#include <vtkRenderer.h>
#include <vtkScalarBarActor.h>

#include <cmath>
#include <memory>
#include <numbers>

using namespace flexim;
using namespace flexim::ui;

namespace {

const QString kSliderCrank = QStringLiteral(FLEXIM_SOURCE_DIR "/resources/examples/slider_crank_rigid.json");
const QString kFlexibleCrank = QStringLiteral(FLEXIM_SOURCE_DIR "/resources/examples/slider_crank_flexible.json");
const QString kRodBody = QStringLiteral(FLEXIM_SOURCE_DIR "/resources/examples/rod/rod_round_c3d10.frb");

constexpr double kDegree = std::numbers::pi / 180.0;

/// The same rotation (q and -q are one).
double rotationDistance(const Quat& a, const Quat& b) { return std::min((a.coeffs() - b.coeffs()).norm(), (a.coeffs() + b.coeffs()).norm()); }

Vec3 cameraFocalPoint(vtkCamera* camera) {
  double f[3];
  camera->GetFocalPoint(f);
  return {f[0], f[1], f[2]};
}

}  // namespace

class ViewingTest : public QObject {
  Q_OBJECT

 private slots:
  void init() {
    m_window = std::make_unique<MainWindow>();
    m_window->resize(1200, 800);
    m_window->show();
    QVERIFY(QTest::qWaitForWindowExposed(m_window.get()));
    m_window->activateWindow();
    QVERIFY(QTest::qWaitForWindowActive(m_window.get()));
  }
  void cleanup() {
    if (m_window) m_window->document()->undoStack()->setClean();
    m_window.reset();
  }

  /// A body turned by typing Cardan angles: 30° about z, then 10° about x first; the angles
  /// read back as typed. The quaternion's four boxes typed in turn (Tab between them) are one
  /// edit, made when the focus leaves them: (1, 1, 0, 0) is 90° about x, not a renormalised mix.
  void orientationTypedAsAngles() {
    QVERIFY(m_window->openModelFile(kSliderCrank));
    test::clickTreeRow(m_window->modelTree(), test::treeRow(m_window->modelTree(), "crank"));
    PropertyPanel* panel = m_window->propertyPanel();
    const auto box = [panel](const QString& name) { return panel->findChild<QLineEdit*>("field:orientation:" + name); };
    QVERIFY(box("deg0") && box("deg1") && box("deg2") && box("0") && box("3"));
    test::typeAndReturn(box("deg2"), "30");
    const Quat& q = m_window->model().bodies[0].orientation;
    QVERIFY2(rotationDistance(q, Quat(Eigen::AngleAxisd(30 * kDegree, Vec3::UnitZ()))) < 1e-12, qPrintable(QString::number(q.z())));
    test::typeAndReturn(box("deg0"), "10");
    const Quat expected(Eigen::AngleAxisd(10 * kDegree, Vec3::UnitX()) * Eigen::AngleAxisd(30 * kDegree, Vec3::UnitZ()));
    QVERIFY(rotationDistance(m_window->model().bodies[0].orientation, expected) < 1e-12);
    QCOMPARE(box("deg0")->text(), QString("10"));
    QCOMPARE(box("deg1")->text(), QString("0"));
    QCOMPARE(box("deg2")->text(), QString("30"));
    QCOMPARE(box("0")->text().toDouble(), expected.w());

    // the quaternion, box by box
    QSignalSpy edits(m_window->document(), &ModelDocument::fieldChanged);
    const Quat before = m_window->model().bodies[0].orientation;
    const QString values[] = {"1", "1", "0", "0"};
    for (int i = 0; i < 4; ++i) {
      QLineEdit* e = box(QString::number(i));
      e->setFocus();
      e->selectAll();
      QTest::keyClicks(e, values[i]);
      if (i < 3) {
        QTest::keyClick(e, Qt::Key_Tab);
        QApplication::processEvents();
        QCOMPARE(QApplication::focusWidget(), static_cast<QWidget*>(box(QString::number(i + 1))));
        QVERIFY(rotationDistance(m_window->model().bodies[0].orientation, before) < 1e-15);  // not yet
      }
    }
    QTest::keyClick(box("3"), Qt::Key_Tab);  // out of the quaternion: to the angles
    QApplication::processEvents();
    const Quat turned(Eigen::AngleAxisd(90 * kDegree, Vec3::UnitX()));
    QVERIFY2(rotationDistance(m_window->model().bodies[0].orientation, turned) < 1e-12,
             qPrintable(QString("%1 %2 %3 %4").arg(m_window->model().bodies[0].orientation.w()).arg(m_window->model().bodies[0].orientation.x())
                            .arg(m_window->model().bodies[0].orientation.y()).arg(m_window->model().bodies[0].orientation.z())));
    QCOMPARE(edits.count(), 1);
    QCOMPARE(edits.front().at(1).toString(), QString("orientation"));
    QCOMPARE(box("deg0")->text(), QString("90"));
  }

  /// Cardan angles against an independent product of the three elementary rotation matrices,
  /// away from and at the gimbal lock (b = 90°, where only a + c is defined).
  void cardanAnglesRoundTrip() {
    const auto elementary = [](int axis, double angle) {
      const double c = std::cos(angle), s = std::sin(angle);
      Mat3 R;
      if (axis == 0) R << 1, 0, 0, 0, c, -s, 0, s, c;
      if (axis == 1) R << c, 0, s, 0, 1, 0, -s, 0, c;
      if (axis == 2) R << c, -s, 0, s, c, 0, 0, 0, 1;
      return R;
    };
    for (const Vec3& degrees : {Vec3(10, 20, 30), Vec3(-170, 45, 120), Vec3(0, -89, 5), Vec3(25, 90, 0)}) {
      const Vec3 a = degrees * kDegree;
      const Mat3 R = elementary(0, a.x()) * elementary(1, a.y()) * elementary(2, a.z());
      QVERIFY((fromXyzAngles(a).toRotationMatrix() - R).norm() < 1e-12);
      const Vec3 back = xyzAngles(Quat(R));
      QVERIFY2((fromXyzAngles(back).toRotationMatrix() - R).norm() < 1e-9, qPrintable(QString::number(degrees.x())));
      if (std::abs(degrees.y()) < 89.5) QVERIFY((back - a).norm() < 1e-9);
    }
  }

  /// A driver's function is an angle here: its speed reads rad/s, its initial value rad.
  void driverUnitsNameTheCoordinate() {
    QVERIFY(m_window->openModelFile(kSliderCrank));
    test::clickTreeRow(m_window->modelTree(), test::treeRow(m_window->modelTree(), "motor", "Drivers"));
    QStringList labels;
    for (const QLabel* l : m_window->propertyPanel()->findChildren<QLabel*>()) labels << l->text();
    QVERIFY2(labels.contains("speed [rad/s]"), qPrintable(labels.join(" | ")));
    QVERIFY(labels.contains("initial [rad]"));
  }

  /// A body added far from where the camera looks is brought into view (the camera moves
  /// there smoothly); one added in view leaves the camera alone.
  void cameraFramesAnAddedBody() {
    QVERIFY(m_window->openModelFile(kSliderCrank));
    render::ModelScene& scene = m_window->scene();
    QVERIFY(scene.boundsInView());
    vtkCamera* camera = scene.renderer()->GetActiveCamera();
    const double distance = camera->GetDistance();
    addBodyAt("3");
    QVERIFY(m_window->viewport()->isCameraMoving());
    QTRY_VERIFY(!m_window->viewport()->isCameraMoving());
    QVERIFY(scene.boundsInView());
    QVERIFY2(camera->GetDistance() > 2 * distance, qPrintable(QString("%1 -> %2").arg(distance).arg(camera->GetDistance())));
    const double framed = camera->GetDistance();
    addBodyAt("0.2");
    QVERIFY(!m_window->viewport()->isCameraMoving());
    QCOMPARE(camera->GetDistance(), framed);
  }

  /// Follow: the camera moves with the selected body from frame to frame, by the body's own
  /// displacement; off again, it stays put.
  void cameraFollowsABody() {
    QVERIFY(m_window->openModelFile(kSliderCrank));
    QVERIFY(m_window->startRun());
    QTRY_VERIFY_WITH_TIMEOUT(!m_window->isRunning(), 60000);
    QTRY_VERIFY(!m_window->viewport()->isCameraMoving());
    test::clickTreeRow(m_window->modelTree(), test::treeRow(m_window->modelTree(), "slider", "Bodies"));
    auto* follow = m_window->findChild<QAction*>("actionFollowBody");
    QVERIFY(follow);
    follow->trigger();
    QVERIFY(follow->isChecked());
    render::ModelScene& scene = m_window->scene();
    vtkCamera* camera = scene.renderer()->GetActiveCamera();
    auto* slider = m_window->playbackBar()->findChild<QSlider*>();
    const int slot = scene.bodyIndexOf("bodies[2]");
    QVERIFY(slot >= 0);
    const auto show = [&](int frame) {
      slider->setValue(frame);
      QTRY_COMPARE(m_window->playbackBar()->currentFrame(), frame);
      QApplication::processEvents();
    };
    show(100);
    const Vec3 focal = cameraFocalPoint(camera), body = scene.bodyPose(slot).translation();
    show(400);
    const Vec3 moved = scene.bodyPose(slot).translation() - body;
    QVERIFY(moved.norm() > 0.01);
    QVERIFY2((cameraFocalPoint(camera) - focal - moved).norm() < 1e-12, qPrintable(QString::number((cameraFocalPoint(camera) - focal).norm())));
    follow->trigger();
    QVERIFY(!follow->isChecked());
    const Vec3 still = cameraFocalPoint(camera);
    show(200);
    QVERIFY((cameraFocalPoint(camera) - still).norm() < 1e-15);
  }

  /// A mode shape: the label names the mode and its frequency instead of a time, the colour
  /// bar is relative (largest 1) for displacement and stress alike, no rotation rings; a run
  /// brings times and units back.
  void modeViewIsRelative() {
    QVERIFY(m_window->openModelFile(kRodBody));
    ModeBrowser* modes = m_window->modeBrowser();
    QTRY_VERIFY(modes->mode() >= 0);
    modes->freezeAtPeak();
    render::ModelScene& scene = m_window->scene();
    const QString hz = modes->table()->item(modes->mode(), 1)->text();
    QCOMPARE(QString::fromStdString(scene.timeLabelText()), QString("mode %1: %2 Hz").arg(modes->mode() + 1).arg(hz));
    QVERIFY2(QString(scene.colourBar()->GetTitle()).contains("[relative]"), scene.colourBar()->GetTitle());
    QCOMPARE(scene.shownContourUnit().scale * std::max(std::abs(scene.colourRange().lo), std::abs(scene.colourRange().hi)), 1.0);
    test::chooseInCombo(m_window->displayToolBar()->contourBox(), "von Mises stress");
    QVERIFY2(QString(scene.colourBar()->GetTitle()).contains("relative"), scene.colourBar()->GetTitle());
    QVERIFY(std::abs(scene.shownContourUnit().scale * scene.colourRange().hi - 1.0) < 1e-12);
    QVERIFY(!m_window->orientationHandle()->handle().isVisible());
    // a run gives times and stresses in MPa back
    QVERIFY(m_window->startRun());
    QVERIFY(!scene.showingMode());
    QTRY_VERIFY_WITH_TIMEOUT(!m_window->isRunning(), 60000);
    QVERIFY(QString::fromStdString(scene.timeLabelText()).startsWith("t = "));
    QCOMPARE(std::string(scene.shownContourUnit().unit), std::string("MPa"));
  }

  /// Fixed colour limits typed in the colour bar's unit (mm): the scale stays put from frame to
  /// frame; limits that do not read or min >= max are refused in place.
  void fixedColourLimits() {
    QVERIFY(m_window->openModelFile(kFlexibleCrank));
    QVERIFY(m_window->startRun());
    QTRY_VERIFY_WITH_TIMEOUT(!m_window->isRunning(), 60000);
    DisplayToolBar* display = m_window->displayToolBar();
    QVERIFY(!display->colourMinEdit()->isVisible());
    test::chooseInCombo(display->colourRangeBox(), "Range: fixed limits");
    QVERIFY(display->colourMinEdit()->isVisible());
    test::typeAndReturn(display->colourMinEdit(), "0");
    test::typeAndReturn(display->colourMaxEdit(), "2.5");
    render::ModelScene& scene = m_window->scene();
    QCOMPARE(scene.colourRange().lo, 0.0);
    QCOMPARE(scene.colourRange().hi, 2.5e-3);
    auto* slider = m_window->playbackBar()->findChild<QSlider*>();
    for (int frame : {100, 500, 900}) {
      slider->setValue(frame);
      QApplication::processEvents();
      QCOMPARE(scene.colourRange().hi, 2.5e-3);
    }
    test::typeAndReturn(display->colourMaxEdit(), "-1");
    QCOMPARE(scene.colourRange().hi, 2.5e-3);
    QVERIFY(display->colourMaxEdit()->styleSheet().contains("background"));
    test::typeAndReturn(display->colourMaxEdit(), "4");
    QCOMPARE(scene.colourRange().hi, 4e-3);
    QVERIFY(display->colourMaxEdit()->styleSheet().isEmpty());
  }

 private:
  /// Adds a rigid body by the Add menu, its dialog filled by typing: x position as given.
  void addBodyAt(const QString& x) {
    QTimer::singleShot(0, this, [x] {
      auto* dialog = qobject_cast<ItemDialog*>(QApplication::activeModalWidget());
      QVERIFY(dialog);
      test::typeAndReturn(dialog->panel()->findChild<QLineEdit*>("field:position:0"), x);
      QTest::mouseClick(dialog->findChild<QDialogButtonBox*>()->button(QDialogButtonBox::Ok), Qt::LeftButton);
    });
    QMenu* add = m_window->findChild<QMenu*>("menuAdd");
    QVERIFY(add);
    add->findChild<QAction*>("actionAdd:bodies")->trigger();
    QApplication::processEvents();
  }

  std::unique_ptr<MainWindow> m_window;
};

int main(int argc, char** argv) {
  setDefaultSurfaceFormatForVtk();
  QApplication app(argc, argv);
  ViewingTest test;
  return QTest::qExec(&test, argc, argv);
}

#include "ui_viewing_test.moc"
