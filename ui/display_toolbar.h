// The "Display" tool bar: how flexible bodies are drawn — colours on/off, the contour quantity
// (|u| or one body-frame component), whether the colour scale spans the run or the frame, the
// deformation scale and the undeformed ghost. It applies each choice to the scene and says so.
#pragma once

#include "render/model_scene.h"

#include <QToolBar>

class QAction;
class QComboBox;
class QDoubleSpinBox;

namespace flexim::ui {

class DisplayToolBar : public QToolBar {
  Q_OBJECT

 public:
  DisplayToolBar(render::ModelScene& scene, QWidget* parent = nullptr);

  /// Enables the controls that mean something for this scene (flexible bodies present).
  void setFlexibleControlsEnabled(bool on);
  QDoubleSpinBox* deformationScaleBox() const { return m_scale; }
  QComboBox* contourBox() const { return m_contour; }
  QComboBox* colourRangeBox() const { return m_range; }
  QAction* colourAction() const { return m_colour; }
  QAction* undeformedAction() const { return m_undeformed; }
  void setContour(render::ContourQuantity quantity);

 signals:
  /// The scene looks different: redraw.
  void displayChanged();
  /// The contour quantity changed: the run's colour range must be fed the samples again.
  void contourChanged();

 private:
  render::ModelScene& m_scene;
  QAction* m_colour = nullptr;
  QComboBox* m_contour = nullptr;
  QComboBox* m_range = nullptr;
  QDoubleSpinBox* m_scale = nullptr;
  QAction* m_undeformed = nullptr;
};

}  // namespace flexim::ui
