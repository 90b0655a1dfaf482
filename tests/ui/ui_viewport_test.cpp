// VtkViewport's GL lifetime on a real X server (xvfb-run): the widget destroyed before its context
// (a window closed), the context destroyed before the widget (the viewport moved to another
// window), and drawing again afterwards. Under ./test.sh --sanitize these catch a context signal
// reaching a half-destroyed viewport (UBSan vptr) and VTK using a dead context (ASan).
#include "ui/main_window.h"
#include "ui/surface_format.h"
#include "ui/vtk_viewport.h"

#include <QApplication>
#include <QOpenGLContext>
#include <QPointer>
#include <QVBoxLayout>
#include <QtTest>

#include <vtkActor.h>
#include <vtkNew.h>
#include <vtkPolyDataMapper.h>
#include <vtkRenderer.h>
#include <vtkSmartPointer.h>
#include <vtkSphereSource.h>

#include <memory>

using namespace flexim::ui;

namespace {

const QString kSliderCrank = QStringLiteral(FLEXIM_SOURCE_DIR "/resources/examples/slider_crank_rigid.json");

// A white sphere on black that fills most of the view.
vtkSmartPointer<vtkRenderer> sphereRenderer() {
  vtkNew<vtkSphereSource> sphere;
  sphere->SetThetaResolution(24);
  sphere->SetPhiResolution(24);
  vtkNew<vtkPolyDataMapper> mapper;
  mapper->SetInputConnection(sphere->GetOutputPort());
  vtkNew<vtkActor> actor;
  actor->SetMapper(mapper);
  auto renderer = vtkSmartPointer<vtkRenderer>::New();
  renderer->SetBackground(0.0, 0.0, 0.0);
  renderer->AddActor(actor);
  renderer->ResetCamera();
  return renderer;
}

// Fraction of pixels that differ from their row's first pixel (the background is plain here and a
// vertical gradient in the main window, so each row has one background colour).
double drawnFraction(const QImage& image) {
  if (image.isNull()) return 0.0;
  long drawn = 0;
  for (int y = 0; y < image.height(); ++y) {
    const QRgb background = image.pixel(0, y);
    for (int x = 0; x < image.width(); ++x)
      if (image.pixel(x, y) != background) ++drawn;
  }
  return double(drawn) / (double(image.width()) * image.height());
}

bool drawsTheSphere(VtkViewport& view) {
  const double drawn = drawnFraction(view.screenshot());
  if (drawn > 0.1) return true;
  qWarning("only %.4f of the viewport is drawn", drawn);
  return false;
}

// A top-level window whose only content is a layout for a viewport.
std::unique_ptr<QWidget> shownWindow() {
  auto window = std::make_unique<QWidget>();
  new QVBoxLayout(window.get());
  window->resize(320, 240);
  window->show();
  return window;
}

}  // namespace

class ViewportTest : public QObject {
  Q_OBJECT

 private slots:
  void destroyedBeforeItsContextTwice();
  void destroyedWithItsWindow();
  void neverShownIsDestroyedCleanly();
  void contextReplacedWhenMovedToAnotherWindow();
  void destroyedAfterItsContextDied();
  void mainWindowOpensAndClosesTwice();
};

// The usual exit: ~VtkViewport runs, then ~QOpenGLWidget deletes the context.
void ViewportTest::destroyedBeforeItsContextTwice() {
  for (int round = 0; round < 2; ++round) {
    auto view = std::make_unique<VtkViewport>();
    view->setRenderer(sphereRenderer());
    view->resize(320, 240);
    view->show();
    QVERIFY(QTest::qWaitForWindowExposed(view.get()));
    QVERIFY(drawsTheSphere(*view));
    QPointer<QOpenGLContext> context = view->context();
    QVERIFY(context);
    view.reset();
    QVERIFY(context.isNull());
  }
}

void ViewportTest::destroyedWithItsWindow() {
  auto window = shownWindow();
  auto* view = new VtkViewport(window.get());
  view->setRenderer(sphereRenderer());
  window->layout()->addWidget(view);
  view->show();
  QVERIFY(QTest::qWaitForWindowExposed(window.get()));
  QVERIFY(drawsTheSphere(*view));
  window.reset();  // ~QWidget deletes the viewport
}

void ViewportTest::neverShownIsDestroyedCleanly() {
  auto view = std::make_unique<VtkViewport>();
  view->setRenderer(sphereRenderer());
  view->setRenderer(nullptr);
  view->setRenderer(sphereRenderer());
  QVERIFY(view->context() == nullptr);
}

// Qt replaces the context of a QOpenGLWidget that moves to another top-level window: VTK lets go
// of the old one while it can and starts again on the new one.
void ViewportTest::contextReplacedWhenMovedToAnotherWindow() {
  auto first = shownWindow();
  auto* view = new VtkViewport(first.get());
  view->setRenderer(sphereRenderer());
  view->setParent(first.get());
  first->layout()->addWidget(view);
  view->show();
  QVERIFY(QTest::qWaitForWindowExposed(first.get()));
  QVERIFY(drawsTheSphere(*view));
  QPointer<QOpenGLContext> oldContext = view->context();

  auto second = shownWindow();
  QVERIFY(QTest::qWaitForWindowExposed(second.get()));
  view->setParent(second.get());  // another top-level window: Qt deletes the old context
  QTRY_VERIFY(oldContext.isNull());
  second->layout()->addWidget(view);
  view->show();
  QVERIFY(drawsTheSphere(*view));
  QVERIFY(view->context() != nullptr);

  // and back, twice over, then destroyed with its window
  view->setParent(first.get());
  first->layout()->addWidget(view);
  view->show();
  QVERIFY(drawsTheSphere(*view));
  second.reset();
  first.reset();
}

// The context dies first and no new one comes: the destructor must not touch the dead one.
void ViewportTest::destroyedAfterItsContextDied() {
  auto window = shownWindow();
  auto* view = new VtkViewport(window.get());
  view->setRenderer(sphereRenderer());
  window->layout()->addWidget(view);
  view->show();
  QVERIFY(QTest::qWaitForWindowExposed(window.get()));
  QVERIFY(drawsTheSphere(*view));
  QPointer<QOpenGLContext> context = view->context();

  std::unique_ptr<VtkViewport> orphan(view);
  orphan->setParent(nullptr);  // a hidden top-level now, without a context
  QTRY_VERIFY(context.isNull());
  QVERIFY(orphan->context() == nullptr);
  orphan->setRenderer(nullptr);
  orphan.reset();
}

// What a user does: open a model, close the window; and again.
void ViewportTest::mainWindowOpensAndClosesTwice() {
  for (int round = 0; round < 2; ++round) {
    auto window = std::make_unique<MainWindow>();
    window->resize(1000, 700);
    window->show();
    QVERIFY(QTest::qWaitForWindowExposed(window.get()));
    QVERIFY(window->openModelFile(kSliderCrank));
    QVERIFY(drawnFraction(window->viewport()->screenshot()) > 0.01);
    QVERIFY(window->close());
    window.reset();
  }
}

int main(int argc, char** argv) {
  setDefaultSurfaceFormatForVtk();
  QApplication app(argc, argv);
  ViewportTest test;
  return QTest::qExec(&test, argc, argv);
}

#include "ui_viewport_test.moc"
