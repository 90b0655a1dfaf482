#include "ui/vtk_viewport.h"

#include <QMouseEvent>

#include <algorithm>
#include <QOpenGLContext>
#include <QWheelEvent>

#include <Eigen/Geometry>

#include <vtkCallbackCommand.h>
#include <vtkCamera.h>
#include <vtkCommand.h>
#include <vtkGenericOpenGLRenderWindow.h>
#include <vtkGenericRenderWindowInteractor.h>
#include <vtkInteractorStyleTrackballCamera.h>
#include <vtkOpenGLState.h>
#include <vtkRenderer.h>

namespace flexim::ui {

VtkViewport::VtkViewport(QWidget* parent) : QOpenGLWidget(parent) {
  setFocusPolicy(Qt::StrongFocus);
  setMinimumSize(200, 150);
  setMouseTracking(true);
  m_hoverTimer = new QTimer(this);
  m_hoverTimer->setSingleShot(true);
  m_hoverTimer->setInterval(40);
  m_cameraTimer.setInterval(15);
  connect(&m_cameraTimer, &QTimer::timeout, this, &VtkViewport::stepCamera);
  // the cost of a frame includes its composition into the window (with software OpenGL often
  // more than the VTK draw itself)
  connect(this, &QOpenGLWidget::frameSwapped, this, [this] {
    if (m_frameClock.isValid()) m_lastFrameMs = m_frameClock.nsecsElapsed() / 1e6;
    m_frameClock.invalidate();
  });
  connect(m_hoverTimer, &QTimer::timeout, this, [this] {
    const qreal ratio = devicePixelRatioF();
    emit hovered(m_hoverPosition.x() * ratio, (height() - m_hoverPosition.y() - 1) * ratio);
  });

  m_window = vtkSmartPointer<vtkGenericOpenGLRenderWindow>::New();
  m_window->SetOwnContext(false);       // the context belongs to Qt
  m_window->SetFrameBlitModeToNoBlit(); // paintGL blits into Qt's framebuffer itself
  m_window->SetMultiSamples(0);         // Qt's framebuffer is single-sampled anyway
  m_window->AddObserver(vtkCommand::WindowMakeCurrentEvent, this, &VtkViewport::onVtkMakeCurrent);
  m_window->AddObserver(vtkCommand::WindowIsCurrentEvent, this, &VtkViewport::onVtkIsCurrent);

  m_interactor = vtkSmartPointer<vtkGenericRenderWindowInteractor>::New();
  m_interactor->SetRenderWindow(m_window);
  m_interactor->EnableRenderOff();  // Qt decides when to paint: interaction calls update()
  auto style = vtkSmartPointer<vtkInteractorStyleTrackballCamera>::New();
  m_interactor->SetInteractorStyle(style);
}

VtkViewport::~VtkViewport() {
  // ~QOpenGLWidget deletes the context after this destructor: its aboutToBeDestroyed would reach
  // a viewport that is no longer one, so disconnect and free VTK's resources while the context lives
  disconnect(m_contextDeath);
  releaseGraphics();
}

void VtkViewport::setRenderer(vtkRenderer* renderer) {
  if (renderer == m_renderer) return;
  // removing a renderer releases its GL resources, so the context must be current
  if (m_graphicsLive) makeCurrent();
  if (m_renderer) m_window->RemoveRenderer(m_renderer);
  m_renderer = renderer;
  if (m_renderer) m_window->AddRenderer(m_renderer);
  if (m_graphicsLive) doneCurrent();
  update();
}

vtkRenderer* VtkViewport::renderer() const { return m_renderer; }

void VtkViewport::setOverlay(vtkRenderer* overlay) {
  if (overlay == m_overlay) return;
  if (m_graphicsLive) makeCurrent();
  if (m_overlay) m_window->RemoveRenderer(m_overlay);
  m_overlay = overlay;
  if (m_overlay) {
    m_window->SetNumberOfLayers(2);
    m_window->AddRenderer(m_overlay);
  }
  if (m_graphicsLive) doneCurrent();
  update();
}

void VtkViewport::setCameraReset(std::function<void()> resetCamera) {
  m_resetCamera = std::move(resetCamera);
}

namespace {
constexpr double kCameraSeconds = 0.25;
}

void VtkViewport::animateCamera(const std::function<void()>& move) {
  if (!m_renderer) return move();
  vtkCamera* camera = m_renderer->GetActiveCamera();
  const auto read = [camera] {
    CameraState c;
    camera->GetPosition(c.position);
    camera->GetFocalPoint(c.focal);
    camera->GetViewUp(c.up);
    c.angle = camera->GetViewAngle();
    c.scale = camera->GetParallelScale();
    return c;
  };
  m_cameraFrom = read();
  move();
  m_cameraTo = read();
  m_cameraClock.start();
  stepCamera();  // back to the start; the timer walks from there
  m_cameraTimer.start();
}

void VtkViewport::stepCamera() {
  if (!m_renderer) return m_cameraTimer.stop();
  const double s = std::clamp(m_cameraClock.elapsed() / (1000.0 * kCameraSeconds), 0.0, 1.0);
  const double w = s * s * (3.0 - 2.0 * s);  // eased in and out
  const auto vec = [](const double* v) { return Eigen::Vector3d(v[0], v[1], v[2]); };
  const Eigen::Vector3d f0 = vec(m_cameraFrom.focal), f1 = vec(m_cameraTo.focal);
  const Eigen::Vector3d d0 = vec(m_cameraFrom.position) - f0, d1 = vec(m_cameraTo.position) - f1;
  // turn the viewing direction and the up vector about the focal point; the distance and the
  // focal point move straight
  const auto turn = [w](const Eigen::Vector3d& a, const Eigen::Vector3d& b) {
    const Eigen::Quaterniond q = Eigen::Quaterniond::FromTwoVectors(a, b);
    return Eigen::Quaterniond::Identity().slerp(w, q) * a.normalized();
  };
  const Eigen::Vector3d focal = (1 - w) * f0 + w * f1;
  const Eigen::Vector3d position = focal + ((1 - w) * d0.norm() + w * d1.norm()) * turn(d0, d1);
  const Eigen::Vector3d up = turn(vec(m_cameraFrom.up), vec(m_cameraTo.up));
  vtkCamera* camera = m_renderer->GetActiveCamera();
  if (s >= 1.0) {
    camera->SetPosition(m_cameraTo.position);
    camera->SetFocalPoint(m_cameraTo.focal);
    camera->SetViewUp(m_cameraTo.up);
    camera->SetViewAngle(m_cameraTo.angle);
    camera->SetParallelScale(m_cameraTo.scale);
    m_cameraTimer.stop();
  } else {
    camera->SetFocalPoint(focal.x(), focal.y(), focal.z());
    camera->SetPosition(position.x(), position.y(), position.z());
    camera->SetViewUp(up.x(), up.y(), up.z());
    camera->OrthogonalizeViewUp();
    camera->SetViewAngle((1 - w) * m_cameraFrom.angle + w * m_cameraTo.angle);
    camera->SetParallelScale((1 - w) * m_cameraFrom.scale + w * m_cameraTo.scale);
  }
  m_renderer->ResetCameraClippingRange();
  update();
}

void VtkViewport::resetView() {
  m_cameraTimer.stop();
  if (m_resetCamera) {
    m_resetCamera();
  } else if (m_renderer) {
    m_renderer->ResetCamera();
  }
  update();
}

QImage VtkViewport::screenshot() {
  // Mesa may leave alpha at 0: force an opaque format
  return grabFramebuffer().convertToFormat(QImage::Format_RGB32);
}

void VtkViewport::initializeGL() {
  m_surface = context()->surface();
  // Qt replaces the context when the widget moves to another window; VTK's resources die with
  // the old one, so they are freed while it is still current (the destructor drops this link)
  disconnect(m_contextDeath);
  m_contextDeath = connect(context(), &QOpenGLContext::aboutToBeDestroyed, this, &VtkViewport::releaseGraphics);
  m_window->SetReadyForRendering(true);
  m_window->OpenGLInitContext();
  m_graphicsLive = true;
  if (!m_interactorReady) {
    m_interactor->Initialize();
    m_interactorReady = true;
  }
  const qreal ratio = devicePixelRatioF();
  m_window->SetSize(int(width() * ratio), int(height() * ratio));
}

void VtkViewport::resizeGL(int width, int height) {
  const qreal ratio = devicePixelRatioF();
  const int w = int(width * ratio), h = int(height * ratio);
  m_window->SetSize(w, h);
  m_interactor->UpdateSize(w, h);
}

void VtkViewport::paintGL() {
  m_frameClock.start();
  vtkOpenGLState* state = m_window->GetState();
  // Qt changed GL state behind the back of VTK's state cache
  state->Reset();
  state->Push();
  state->vtkglDepthFunc(GL_LEQUAL);
  if (m_renderer) {
    m_renderer->ResetCameraClippingRange();
    m_window->Render();
    state->vtkglBindFramebuffer(GL_DRAW_FRAMEBUFFER, defaultFramebufferObject());
    m_window->BlitDisplayFramebuffer();
  } else {
    state->vtkglBindFramebuffer(GL_DRAW_FRAMEBUFFER, defaultFramebufferObject());
    state->vtkglClearColor(0.1f, 0.11f, 0.14f, 1.0f);
    state->vtkglClear(GL_COLOR_BUFFER_BIT);
  }
  // an opaque alpha channel, or the window composition may show the widget as transparent
  state->vtkglColorMask(false, false, false, true);
  state->vtkglClearColor(0.0f, 0.0f, 0.0f, 1.0f);
  state->vtkglClear(GL_COLOR_BUFFER_BIT);
  state->vtkglColorMask(true, true, true, true);
  state->Pop();
}

void VtkViewport::releaseGraphics() {
  if (!m_graphicsLive) return;
  makeCurrent();
  m_window->ReleaseGraphicsResources(m_window);
  m_window->Finalize();
  doneCurrent();
  m_graphicsLive = false;
  m_surface = nullptr;  // Qt deletes it with the context: VTK must not make it current again
}

void VtkViewport::onVtkMakeCurrent() {
  // not QOpenGLWidget::makeCurrent(): that rebinds Qt's framebuffer behind VTK's back
  if (QOpenGLContext* ctx = context(); ctx && m_surface) ctx->makeCurrent(m_surface);
}

void VtkViewport::onVtkIsCurrent(vtkObject*, unsigned long, void* callData) {
  auto* isCurrent = static_cast<bool*>(callData);
  *isCurrent = context() && QOpenGLContext::currentContext() == context();
}

void VtkViewport::setEventInformation(const QPointF& position, Qt::KeyboardModifiers modifiers) {
  const qreal ratio = devicePixelRatioF();
  m_interactor->SetEventInformationFlipY(int(position.x() * ratio), int(position.y() * ratio),
                                         (modifiers & Qt::ControlModifier) ? 1 : 0,
                                         (modifiers & Qt::ShiftModifier) ? 1 : 0);
}

void VtkViewport::cancelDrag() {
  if (!m_dragging) return;
  m_dragging = false;
  if (m_dragTarget) m_dragTarget->endDrag(true);
  update();
}

QPointF VtkViewport::displayPosition(const QPointF& position) const {
  const qreal ratio = devicePixelRatioF();
  return {position.x() * ratio, (height() - position.y() - 1) * ratio};
}

void VtkViewport::mousePressEvent(QMouseEvent* event) {
  setEventInformation(event->position(), event->modifiers());
  switch (event->button()) {
    case Qt::LeftButton:
      m_pressPosition = event->position();
      if (m_dragTarget) {
        const QPointF at = displayPosition(event->position());
        m_dragging = m_dragTarget->beginDrag(at.x(), at.y());
        if (m_dragging) break;
      }
      m_interactor->InvokeEvent(vtkCommand::LeftButtonPressEvent);
      break;
    case Qt::MiddleButton: m_interactor->InvokeEvent(vtkCommand::MiddleButtonPressEvent); break;
    case Qt::RightButton: m_interactor->InvokeEvent(vtkCommand::RightButtonPressEvent); break;
    default: break;
  }
  update();
}

void VtkViewport::mouseReleaseEvent(QMouseEvent* event) {
  setEventInformation(event->position(), event->modifiers());
  switch (event->button()) {
    case Qt::LeftButton:
      if (m_dragging) {  // a handle was dragged: no camera move, no click
        m_dragging = false;
        if (m_dragTarget) m_dragTarget->endDrag(false);
        break;
      }
      m_interactor->InvokeEvent(vtkCommand::LeftButtonReleaseEvent);
      if ((event->position() - m_pressPosition).manhattanLength() <= 3) {
        const QPointF at = displayPosition(event->position());
        emit clicked(at.x(), at.y());
      }
      break;
    case Qt::MiddleButton: m_interactor->InvokeEvent(vtkCommand::MiddleButtonReleaseEvent); break;
    case Qt::RightButton: m_interactor->InvokeEvent(vtkCommand::RightButtonReleaseEvent); break;
    default: break;
  }
  update();
}

void VtkViewport::mouseMoveEvent(QMouseEvent* event) {
  setEventInformation(event->position(), event->modifiers());
  if (m_dragging) {
    const QPointF at = displayPosition(event->position());
    if (m_dragTarget) m_dragTarget->drag(at.x(), at.y(), event->modifiers());
    update();
    return;
  }
  m_interactor->InvokeEvent(vtkCommand::MouseMoveEvent);
  if (event->buttons() != Qt::NoButton) {
    update();
  } else {
    m_hoverPosition = event->position();
    if (!m_hoverTimer->isActive()) m_hoverTimer->start();
  }
}

void VtkViewport::leaveEvent(QEvent* event) {
  m_hoverTimer->stop();
  emit hovered(-1, -1);
  QOpenGLWidget::leaveEvent(event);
}

void VtkViewport::wheelEvent(QWheelEvent* event) {
  setEventInformation(event->position(), event->modifiers());
  const int delta = event->angleDelta().y();
  if (delta > 0) m_interactor->InvokeEvent(vtkCommand::MouseWheelForwardEvent);
  if (delta < 0) m_interactor->InvokeEvent(vtkCommand::MouseWheelBackwardEvent);
  event->accept();
  update();
}

void VtkViewport::keyPressEvent(QKeyEvent* event) {
  // only "reset view" here: VTK's default keys (wireframe, stereo, quit) would surprise users
  if (event->key() == Qt::Key_R) {
    resetView();
    return;
  }
  if (event->key() == Qt::Key_Escape && m_dragging) {
    cancelDrag();
    return;
  }
  QOpenGLWidget::keyPressEvent(event);
}

}  // namespace flexim::ui
