// Turning a selected body with the mouse: the rotation handle's rings are drawn
// on the selected rigid, flexible or virtual body; a drag on a ring turns the body about that axis
// of its own. The turn goes in whole degrees (15° steps with Ctrl), is shown as it goes (rings and
// axes, the angle in the status text) and becomes one undoable edit of the body's orientation
// when the button comes up; Esc during the drag puts it back. An edit the document refuses is
// reported and changes nothing.
#pragma once

#include "core/run/simulation.h"
#include "render/rotation_handle.h"
#include "ui/model_document.h"
#include "ui/vtk_viewport.h"

#include <QObject>
#include <QString>

#include <vector>

namespace flexim::render {
class ModelScene;
}

namespace flexim::ui {

class OrientationHandle : public QObject, public ViewportDragTarget {
  Q_OBJECT

 public:
  OrientationHandle(ModelDocument& document, render::ModelScene& scene, VtkViewport& viewport, QObject* parent = nullptr);
  ~OrientationHandle() override;

  /// Shows the handle on the selected body where the scene draws it now, or hides it: after the
  /// selection changed, the scene was rebuilt or a frame of the results was shown.
  void refresh();
  /// Off while a run computes (its frames move the bodies).
  void setEnabled(bool enabled);
  const render::RotationHandle& handle() const { return m_handle; }

  bool beginDrag(double x, double y) override;
  void drag(double x, double y, Qt::KeyboardModifiers modifiers) override;
  void endDrag(bool cancelled) override;

 signals:
  /// What the drag is doing ("Turning 'vb' about its z axis: 30°"), or what went wrong.
  void status(const QString& text);

 private:
  ModelDocument& m_document;
  render::ModelScene& m_scene;
  VtkViewport& m_viewport;
  render::RotationHandle m_handle;
  bool m_enabled = true;
  // the drag in progress
  ItemId m_item = ModelDocument::kNoItem;
  int m_axis = -1;
  Quat m_startOrientation = Quat::Identity();
  render::Pose m_startFrame = render::Pose::Identity();
  std::vector<BodyPose> m_startPoses;  ///< every body as drawn when the drag began
  int m_body = -1;                     ///< the turned body's index among them
  double m_lastAngle = 0.0;  ///< screen angle at the last move
  double m_swept = 0.0;      ///< total turn so far [rad], unrounded
  double m_turn = 0.0;       ///< the turn applied [rad], rounded to the step
};

}  // namespace flexim::ui
