// The on-screen handle that turns a frame with the mouse: three rings about
// the frame's x, y and z axes (red, green, blue) and its axis triad. It answers which ring is
// under the cursor and the angle the cursor sweeps about a ring's axis; what the turn means is
// the caller's. Drawn over the model, so a ring is never hidden inside the body it turns, and
// the same size on the screen at any zoom (resized before every render).
#pragma once

#include "render/geometry.h"

#include <vtkSmartPointer.h>

#include <array>

class vtkActor;
class vtkRenderer;

namespace flexim::render {

class RotationHandle {
 public:
  RotationHandle();
  ~RotationHandle();
  RotationHandle(const RotationHandle&) = delete;
  RotationHandle& operator=(const RotationHandle&) = delete;

  /// Shows the rings about frame (local -> global) in renderer, `pixels` in radius on the screen;
  /// its actors are added to the renderer again if a rebuild of the scene removed them.
  void show(vtkRenderer* renderer, const Pose& frame, double pixels = 70.0);
  void hide();
  bool isVisible() const { return m_renderer != nullptr; }
  /// Moves the rings (a turn in progress).
  void setFrame(const Pose& frame);
  const Pose& frame() const { return m_frame; }
  /// The rings' radius [m] as last drawn.
  double radius() const { return m_radius; }

  /// The ring drawn within tolerance pixels of a display position (pixels, origin at the bottom
  /// left), the nearest one: its axis 0, 1, 2; -1 for none or when hidden. A ring seen (nearly)
  /// edge on is not offered.
  int ringAt(double x, double y, double tolerance = 6.0) const;
  /// The angle [rad] of a display position about the ring's centre as seen on the screen, signed
  /// so that its increase is a positive turn about the ring's axis (right-hand rule) whichever
  /// way the axis points: a drag's turn is the change of this angle.
  double screenAngle(int axis, double x, double y) const;
  /// Draws one ring bright (being dragged, or under the cursor); -1 for none.
  void setActive(int axis);

 private:
  /// From the frame's origin towards the eye (along the view for a parallel projection).
  Vec3 towardsViewer() const;
  /// Display position of a point in the frame (pixels).
  Eigen::Vector2d toDisplay(const Vec3& local) const;
  void place();
  /// The radius [m] that is `m_pixels` on the screen at the frame's origin.
  double worldRadius() const;

  vtkRenderer* m_renderer = nullptr;
  std::array<vtkSmartPointer<vtkActor>, 3> m_rings;
  vtkSmartPointer<vtkActor> m_triad;
  Pose m_frame = Pose::Identity();
  double m_radius = 1.0;
  double m_pixels = 70.0;
  unsigned long m_observer = 0;  ///< the renderer's StartEvent observer that resizes the rings
};

}  // namespace flexim::render
