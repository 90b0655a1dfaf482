// ModelScene, its colours: the contour quantity on flexible bodies, the colour scale (over the run,
// the frame or fixed limits), the deformation scale, the undeformed ghost and the labels.
#include "render/model_scene.h"

#include "core/fe/reduced_body.h"
#include "render/flexible_surface.h"
#include "render/geometry.h"
#include "render/inertia_shape.h"
#include "render/palette.h"
#include "render/visual_mesh.h"

#include <vtkActor.h>
#include <vtkAxesActor.h>
#include <vtkCallbackCommand.h>
#include <vtkCaptionActor2D.h>
#include <vtkCamera.h>
#include <vtkCellArray.h>
#include <vtkCellPicker.h>
#include <vtkDoubleArray.h>
#include <vtkLightKit.h>
#include <vtkLookupTable.h>
#include <vtkMatrix4x4.h>
#include <vtkPoints.h>
#include <vtkPolyData.h>
#include <vtkPolyDataMapper.h>
#include <vtkPolyDataNormals.h>
#include <vtkProperty.h>
#include <vtkRenderer.h>
#include <vtkScalarBarActor.h>
#include <vtkTextActor.h>
#include <vtkTextProperty.h>
#include <vtkTriangleMeshPointNormals.h>

#include <cmath>
#include <cstdio>
#include <filesystem>

namespace flexim::render {


void ModelScene::setUndeformedVisible(bool visible) {
  m_options.showUndeformed = visible;
  for (FlexibleVisual& flexible : m_flexible)
    if (flexible.ghost) flexible.ghost->SetVisibility(visible);
  for (BeamVisual& beam : m_beams) beam.ghost->SetVisibility(visible);
}

void ModelScene::setDeformationScale(double scale) {
  if (!std::isfinite(scale) || scale < 0.0) return;
  m_deformationScale = scale;
  for (FlexibleVisual& flexible : m_flexible)
    if (flexible.surface) flexible.surface->setScale(scale);
  updateScaleLabel();
}

void ModelScene::setDisplacementColouring(bool on) {
  m_options.colourByDisplacement = on;
  updateColours();
}

void ModelScene::setContour(ContourQuantity quantity) {
  m_options.contour = quantity;
  for (FlexibleVisual& flexible : m_flexible)
    if (flexible.surface) flexible.surface->setQuantity(quantity);
  resetColourRange();
}

void ModelScene::setColourRangeMode(ColourRangeMode mode) {
  m_options.colourRange = mode;
  updateColours();
}

void ModelScene::setFixedColourRange(const ScalarRange& range) {
  if (!(range.lo < range.hi)) return;
  m_options.fixedRange = range;
  updateColours();
}

void ModelScene::setStressUnit(const std::string& unit, double scale) {
  m_options.stressUnit = unit;
  m_options.stressScale = scale;
  updateColours();
}

void ModelScene::setModeLabel(const std::string& text) {
  m_modeLabel = text;
  if (m_timeLabel && !text.empty()) m_timeLabel->SetInput(text.c_str());
  if (text.empty()) setTime(m_time);
  updateColours();
}

std::string ModelScene::timeLabelText() const {
  return m_timeLabel && m_timeLabel->GetInput() ? m_timeLabel->GetInput() : "";
}

ContourUnit ModelScene::shownContourUnit() const {
  if (showingMode()) {
    const double largest = m_shownRange.empty() ? 0.0 : std::max(std::abs(m_shownRange.lo), std::abs(m_shownRange.hi));
    return {"relative", largest > 0.0 ? 1.0 / largest : 1.0};
  }
  return isStress(m_options.contour) ? ContourUnit{m_options.stressUnit.c_str(), m_options.stressScale}
                                     : contourUnit(m_options.contour);
}

void ModelScene::includeInColourRange(const std::vector<Eigen::VectorXd>& modal) {
  for (std::size_t f = 0; f < modal.size() && f < m_flexible.size(); ++f)
    if (m_flexible[f].surface) m_runRange.add(m_flexible[f].surface->range(modal[f]));
  updateColours();
}

void ModelScene::includeInColourRange(const std::vector<Sample>& samples) {
  if (samples.empty()) return;
  for (std::size_t f = 0; f < m_flexible.size(); ++f) {
    if (!m_flexible[f].surface) continue;
    Eigen::Index rows = 0;
    for (const Sample& s : samples)
      if (f < s.modal.size()) rows = std::max(rows, s.modal[f].size());
    Eigen::MatrixXd columns = Eigen::MatrixXd::Zero(rows, Eigen::Index(samples.size()));
    for (std::size_t i = 0; i < samples.size(); ++i)
      if (f < samples[i].modal.size()) columns.col(Eigen::Index(i)).head(samples[i].modal[f].size()) = samples[i].modal[f];
    m_runRange.add(m_flexible[f].surface->range(columns));
  }
  updateColours();
}

void ModelScene::resetColourRange() {
  m_runRange = currentRange();
  updateColours();
}

ScalarRange ModelScene::currentRange() const {
  ScalarRange range;
  for (const FlexibleVisual& flexible : m_flexible)
    if (flexible.surface) range.add(flexible.surface->currentRange());
  return range;
}

void ModelScene::updateColours() {
  // the magnitude and von Mises scales start at 0 (no displacement or stress is blue); a
  // component's spans its values
  const bool fixed = m_options.colourRange == ColourRangeMode::Fixed;
  ScalarRange range = m_options.colourRange == ColourRangeMode::EachFrame ? currentRange() : m_runRange;
  if (!range.empty() && (m_options.contour == ContourQuantity::Magnitude || m_options.contour == ContourQuantity::VonMises ||
                         m_options.contour == ContourQuantity::EquivalentStrain))
    range.add(0.0);
  // nothing deformed (before a run): the plain body colour, no legend of a zero range
  const bool deformed = !range.empty() && std::max(std::abs(range.lo), std::abs(range.hi)) > 0.0;
  if (fixed && deformed && !showingMode()) range = m_options.fixedRange;  // values beyond the ends take the end colours
  m_shownRange = deformed ? range : ScalarRange();
  const ContourUnit unit = shownContourUnit();
  const bool colour = m_options.colourByDisplacement && m_lookupTable && deformed;
  if (m_lookupTable) {
    double lo = deformed ? range.lo : 0.0, hi = deformed ? range.hi : 1.0;
    if (hi - lo <= 1e-12 * std::max(std::abs(lo), std::abs(hi))) {  // one value: a band around it
      const double pad = std::max(1e-3 * std::abs(hi), 1e-15);
      lo -= pad, hi += pad;
    }
    m_lookupTable->SetTableRange(lo, hi);
    m_legendTable->SetTableRange(unit.scale * lo, unit.scale * hi);
  }
  for (FlexibleVisual& flexible : m_flexible)
    if (flexible.actor) flexible.actor->GetMapper()->SetScalarVisibility(colour);
  if (m_colourBar) {
    m_colourBar->SetVisibility(colour);
    // labels: both ends (the extremes are what one reads first) and round values in the shown
    // unit between them, 1, 2 or 5 times a power of ten apart, none crowding an end
    auto ticks = vtkSmartPointer<vtkDoubleArray>::New();
    if (deformed) {
      const double lo = unit.scale * range.lo, hi = unit.scale * range.hi;
      const double step = niceStep((hi - lo) / 4.0), room = 0.12 * (hi - lo);
      ticks->InsertNextValue(lo);
      for (double k = std::ceil(lo / step); k * step < hi; ++k)
        if (k * step - lo > room && hi - k * step > room) ticks->InsertNextValue(k * step);
      ticks->InsertNextValue(hi);
    }
    m_colourBar->SetCustomLabels(ticks);
    // a long name takes two lines: the bar sits at the view's right edge
    const std::string symbol = contourSymbol(m_options.contour);
    const std::string title = symbol + (symbol.size() > 6 ? "\n[" : " [") + unit.unit + "]";
    m_colourBar->SetTitle(title.c_str());
  }
}

void ModelScene::updateScaleLabel() {
  if (!m_scaleLabel) return;
  char text[64];
  std::snprintf(text, sizeof text, "deformation x %g", m_deformationScale);
  m_scaleLabel->SetInput(text);
}

void ModelScene::setTime(double t) {
  m_time = t;
  if (!m_timeLabel || showingMode()) return;
  char text[96];
  if (m_abscissaName.empty()) std::snprintf(text, sizeof text, "t = %.4f s", t);
  else std::snprintf(text, sizeof text, "%s %.4f", m_abscissaName.c_str(), t);
  m_timeLabel->SetInput(text);
}

void ModelScene::setAbscissaName(std::string name) {
  m_abscissaName = std::move(name);
  setTime(m_time);
}

}  // namespace flexim::render
