// The "Display" tool bar: how flexible bodies are drawn — colours on/off, the contour quantity
// (|u|, a body-frame component or a stress), whether the colour scale spans the run, the frame
// or fixed limits the user types (in the colour bar's unit), the
// deformation scale and the undeformed ghost. It applies each choice to the scene and says so.
#pragma once

#include "render/model_scene.h"

#include <QToolBar>

class QAction;
class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QLineEdit;

namespace flexim::ui {

class DisplayToolBar : public QToolBar {
  Q_OBJECT

 public:
  DisplayToolBar(render::ModelScene& scene, QWidget* parent = nullptr);

  /// Enables the controls that mean something for this scene (flexible bodies present).
  /// on: the model has flexible bodies; beams: it has beam elements (their undeformed ghost).
  void setFlexibleControlsEnabled(bool on, bool beams = false);
  QDoubleSpinBox* deformationScaleBox() const { return m_scale; }
  QComboBox* contourBox() const { return m_contour; }
  QComboBox* colourRangeBox() const { return m_range; }
  QAction* colourAction() const { return m_colour; }
  QAction* undeformedAction() const { return m_undeformed; }
  void setContour(render::ContourQuantity quantity);
  QLineEdit* colourMinEdit() const { return m_lo; }
  QLineEdit* colourMaxEdit() const { return m_hi; }
  /// The fixed colour limits as typed (in the colour bar's unit) go to the scene; shows them only
  /// in the fixed mode, and names the unit (a contour or stress unit change calls it too).
  void applyFixedLimits();
  /// The colour bar's unit changed: the limits are shown in the new one.
  void unitsChanged();

 signals:
  /// The scene looks different: redraw.
  void displayChanged();
  /// The contour quantity changed: the run's colour range must be fed the samples again.
  void contourChanged();

 private:
  /// Writes a range (SI) into the limit boxes, in the colour bar's unit.
  void showLimits(const render::ScalarRange& range);

  render::ModelScene& m_scene;
  QAction* m_colour = nullptr;
  QComboBox* m_contour = nullptr;
  QComboBox* m_range = nullptr;
  QDoubleSpinBox* m_scale = nullptr;
  QAction* m_undeformed = nullptr;
  QLineEdit* m_lo = nullptr;
  QLineEdit* m_hi = nullptr;
  QLabel* m_limits = nullptr;  ///< the limits' unit
  QList<QAction*> m_limitActions;
};

}  // namespace flexim::ui
