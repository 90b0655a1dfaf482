// A QOpenGLWidget that shows a VTK renderer (Debian's VTK Qt module is Qt 5 only, hence our own).
// VTK renders into its own framebuffers inside Qt's context; paintGL blits the result into the
// widget's framebuffer. Mouse and wheel events drive a trackball camera.
#pragma once

#include <QImage>
#include <QOpenGLWidget>
#include <QElapsedTimer>
#include <QTimer>

#include <vtkSmartPointer.h>

#include <functional>

class QSurface;
class vtkGenericOpenGLRenderWindow;
class vtkGenericRenderWindowInteractor;
class vtkObject;
class vtkRenderer;

namespace flexim::ui {

/// Something drawn in the view that a left drag moves instead of the camera (a handle). Display
/// positions are VTK's: pixels, origin at the bottom left.
class ViewportDragTarget {
 public:
  virtual ~ViewportDragTarget() = default;
  /// A left button went down here: true takes the drag (the camera stays where it is).
  virtual bool beginDrag(double x, double y) = 0;
  virtual void drag(double x, double y, Qt::KeyboardModifiers modifiers) = 0;
  /// The button came up (cancelled: Esc was pressed during the drag, which undoes it).
  virtual void endDrag(bool cancelled) = 0;
};

class VtkViewport : public QOpenGLWidget {
  Q_OBJECT

 public:
  explicit VtkViewport(QWidget* parent = nullptr);
  ~VtkViewport() override;

  /// The renderer to show (kept alive by the viewport while shown). nullptr shows nothing.
  void setRenderer(vtkRenderer* renderer);
  vtkRenderer* renderer() const;
  /// A renderer drawn over the main one (layer 1, e.g. orientation axes); nullptr for none.
  void setOverlay(vtkRenderer* overlay);
  /// What "reset view" does; defaults to fitting the renderer's visible props.
  void setCameraReset(std::function<void()> resetCamera);
  /// Renders the current scene and returns it as an opaque RGB32 image.
  QImage screenshot();
  /// Moves the camera where `move` puts it, smoothly: a quarter of a second whatever the frame
  /// rate (the path turns about the focal point, so a view from the other side does not pass
  /// through the model). A new move starts from wherever the camera is.
  void animateCamera(const std::function<void()>& move);
  bool isCameraMoving() const { return m_cameraTimer.isActive(); }
  /// Ends a camera move where it is (a new scene takes the camera over).
  void stopCamera() { m_cameraTimer.stop(); }
  /// What a left drag may move before the camera (null: the camera only). Not owned.
  void setDragTarget(ViewportDragTarget* target) { m_dragTarget = target; }
  bool isDragging() const { return m_dragging; }
  /// Ends a drag as if it had not happened (Esc); the button's release then does nothing.
  void cancelDrag();
  /// What the last frame cost the GUI thread [ms]: from paintGL to the frame composed into the
  /// window (0 before the first frame). A live view paces its redraws by it.
  double lastFrameMs() const { return m_lastFrameMs; }

 public slots:
  void resetView();

 signals:
  /// A left click without dragging, at a VTK display position (pixels, origin bottom left):
  /// what to pick.
  void clicked(double x, double y);
  /// The mouse rests over a display position without a button down (at most every 40 ms);
  /// (-1, -1) when it left the view.
  void hovered(double x, double y);

 protected:
  void initializeGL() override;
  void resizeGL(int width, int height) override;
  void paintGL() override;
  void mousePressEvent(QMouseEvent* event) override;
  void mouseReleaseEvent(QMouseEvent* event) override;
  void mouseMoveEvent(QMouseEvent* event) override;
  void wheelEvent(QWheelEvent* event) override;
  void keyPressEvent(QKeyEvent* event) override;
  void leaveEvent(QEvent* event) override;

 private:
  // VTK -> Qt context requests (WindowMakeCurrentEvent, WindowIsCurrentEvent)
  void onVtkMakeCurrent();
  void onVtkIsCurrent(vtkObject* caller, unsigned long event, void* callData);
  /// Frees VTK's GL resources while their context lives; does nothing when there are none.
  void releaseGraphics();
  /// Sets VTK's event position (pixels, y up) and modifiers from a Qt event.
  void setEventInformation(const QPointF& position, Qt::KeyboardModifiers modifiers);

  vtkSmartPointer<vtkGenericOpenGLRenderWindow> m_window;
  vtkSmartPointer<vtkGenericRenderWindowInteractor> m_interactor;
  vtkSmartPointer<vtkRenderer> m_renderer;
  vtkSmartPointer<vtkRenderer> m_overlay;
  std::function<void()> m_resetCamera;
  QSurface* m_surface = nullptr;  ///< the surface Qt makes current for this widget's context
  QMetaObject::Connection m_contextDeath;  ///< context's aboutToBeDestroyed -> releaseGraphics
  bool m_graphicsLive = false;    ///< VTK holds resources in context() (initializeGL .. releaseGraphics)
  bool m_interactorReady = false;
  QPointF m_pressPosition;
  ViewportDragTarget* m_dragTarget = nullptr;
  bool m_dragging = false;  ///< the left button went down on the drag target
  /// A Qt widget position in VTK display pixels (y up).
  QPointF displayPosition(const QPointF& position) const;
  QPointF m_hoverPosition;
  QTimer* m_hoverTimer = nullptr;  ///< coalesces mouse moves into one hover pick
  struct CameraState {
    double position[3], focal[3], up[3], angle, scale;
  };
  CameraState m_cameraFrom{}, m_cameraTo{};
  QTimer m_cameraTimer;
  QElapsedTimer m_cameraClock;
  QElapsedTimer m_frameClock;  ///< started in paintGL, read when the frame is swapped
  double m_lastFrameMs = 0.0;
  void stepCamera();  ///< where the left button went down (a click if it comes up there)
};

}  // namespace flexim::ui
