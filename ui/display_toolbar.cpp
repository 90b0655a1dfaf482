#include "ui/display_toolbar.h"

#include <QAction>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QDoubleValidator>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>

namespace flexim::ui {

DisplayToolBar::DisplayToolBar(render::ModelScene& scene, QWidget* parent)
    : QToolBar(tr("Display"), parent), m_scene(scene) {
  setObjectName("displayToolBar");

  m_colour = addAction(tr("&Contour"));
  m_colour->setObjectName("actionColourByDisplacement");
  m_colour->setToolTip(tr("Colour flexible bodies by their elastic displacement or stress, with a colour bar"));
  m_colour->setCheckable(true);
  m_colour->setChecked(scene.displacementColouring());
  connect(m_colour, &QAction::toggled, this, [this](bool on) {
    m_scene.setDisplacementColouring(on);
    emit displayChanged();
  });

  m_contour = new QComboBox(this);
  m_contour->setObjectName("contourQuantity");
  m_contour->setToolTip(tr("What the colours show: the elastic displacement's magnitude, or one of its "
                           "components in the body's (FE) frame; or the stress of the body's stress modes "
                           "(von Mises, principal, or a component in the FE axes), or the strain recovered from it"));
  m_contour->addItem(tr("|u| magnitude"), int(render::ContourQuantity::Magnitude));
  m_contour->addItem(tr("u_x (body frame)"), int(render::ContourQuantity::X));
  m_contour->addItem(tr("u_y (body frame)"), int(render::ContourQuantity::Y));
  m_contour->addItem(tr("u_z (body frame)"), int(render::ContourQuantity::Z));
  m_contour->insertSeparator(m_contour->count());
  m_contour->addItem(tr("von Mises stress"), int(render::ContourQuantity::VonMises));
  m_contour->addItem(tr("max principal stress σ₁"), int(render::ContourQuantity::MaxPrincipal));
  m_contour->addItem(tr("min principal stress σ₃"), int(render::ContourQuantity::MinPrincipal));
  m_contour->addItem(tr("σ_xx (FE axes)"), int(render::ContourQuantity::Sxx));
  m_contour->addItem(tr("σ_yy (FE axes)"), int(render::ContourQuantity::Syy));
  m_contour->addItem(tr("σ_zz (FE axes)"), int(render::ContourQuantity::Szz));
  m_contour->addItem(tr("σ_xy (FE axes)"), int(render::ContourQuantity::Sxy));
  m_contour->addItem(tr("σ_yz (FE axes)"), int(render::ContourQuantity::Syz));
  m_contour->addItem(tr("σ_zx (FE axes)"), int(render::ContourQuantity::Szx));
  m_contour->insertSeparator(m_contour->count());
  m_contour->addItem(tr("equivalent strain ε_eq"), int(render::ContourQuantity::EquivalentStrain));
  m_contour->addItem(tr("max principal strain ε₁"), int(render::ContourQuantity::MaxPrincipalStrain));
  m_contour->addItem(tr("min principal strain ε₃"), int(render::ContourQuantity::MinPrincipalStrain));
  m_contour->addItem(tr("ε_xx (FE axes)"), int(render::ContourQuantity::Exx));
  m_contour->addItem(tr("ε_yy (FE axes)"), int(render::ContourQuantity::Eyy));
  m_contour->addItem(tr("ε_zz (FE axes)"), int(render::ContourQuantity::Ezz));
  m_contour->addItem(tr("ε_xy (FE axes, tensor)"), int(render::ContourQuantity::Exy));
  m_contour->addItem(tr("ε_yz (FE axes, tensor)"), int(render::ContourQuantity::Eyz));
  m_contour->addItem(tr("ε_zx (FE axes, tensor)"), int(render::ContourQuantity::Ezx));
  addWidget(m_contour);
  connect(m_contour, &QComboBox::currentIndexChanged, this, [this] {
    // fixed limits are of one quantity: another one starts on the run's scale again
    if (m_range->currentData().toInt() == int(render::ColourRangeMode::Fixed))
      m_range->setCurrentIndex(m_range->findData(int(render::ColourRangeMode::WholeRun)));
    m_scene.setContour(render::ContourQuantity(m_contour->currentData().toInt()));
    emit contourChanged();
    emit displayChanged();
  });

  m_range = new QComboBox(this);
  m_range->setObjectName("colourRange");
  m_range->setToolTip(tr("Colour scale over the whole run (a colour means the same displacement in every "
                         "frame) or over the frame shown (small deformations stay visible)"));
  m_range->addItem(tr("Range: whole run"), int(render::ColourRangeMode::WholeRun));
  m_range->addItem(tr("Range: each frame"), int(render::ColourRangeMode::EachFrame));
  m_range->addItem(tr("Range: fixed limits"), int(render::ColourRangeMode::Fixed));
  addWidget(m_range);
  // the fixed limits, in the unit the colour bar shows; filled with the scale shown when chosen
  const auto limitEdit = [this](const QString& name, const QString& placeholder) {
    auto* e = new QLineEdit(this);
    e->setObjectName(name);
    e->setPlaceholderText(placeholder);
    e->setFixedWidth(fontMetrics().horizontalAdvance("-0000.000") + 12);
    e->setValidator(new QDoubleValidator(e));
    connect(e, &QLineEdit::editingFinished, this, &DisplayToolBar::applyFixedLimits);
    return e;
  };
  m_limits = new QLabel(this);
  m_lo = limitEdit("colourMin", tr("min"));
  m_hi = limitEdit("colourMax", tr("max"));
  m_limitActions = {addWidget(m_lo), addWidget(m_hi), addWidget(m_limits)};
  connect(m_range, &QComboBox::currentIndexChanged, this, [this] {
    const auto mode = render::ColourRangeMode(m_range->currentData().toInt());
    if (mode == render::ColourRangeMode::Fixed) {
      const render::ScalarRange shown = m_scene.colourRange();
      showLimits(shown.empty() ? m_scene.fixedColourRange() : shown);
    }
    m_scene.setColourRangeMode(mode);
    applyFixedLimits();
  });

  addSeparator();
  auto* label = new QLabel(tr(" Deformation × "), this);
  m_scale = new QDoubleSpinBox(this);
  m_scale->setObjectName("deformationScale");
  m_scale->setToolTip(tr("Scale factor of the displayed elastic deformation of flexible bodies "
                         "(1 = true size; colours show the true displacement)"));
  m_scale->setRange(0.0, 1e6);
  m_scale->setDecimals(2);
  m_scale->setStepType(QAbstractSpinBox::AdaptiveDecimalStepType);
  m_scale->setValue(scene.deformationScale());
  m_scale->setKeyboardTracking(false);
  label->setBuddy(m_scale);
  addWidget(label);
  addWidget(m_scale);
  connect(m_scale, &QDoubleSpinBox::valueChanged, this, [this](double scale) {
    m_scene.setDeformationScale(scale);
    emit displayChanged();
  });

  applyFixedLimits();  // hidden until chosen

  m_undeformed = addAction(tr("&Undeformed"));
  m_undeformed->setObjectName("actionShowUndeformed");
  m_undeformed->setToolTip(tr("Show each flexible body's and beam's undeformed shape as a translucent ghost"));
  m_undeformed->setCheckable(true);
  m_undeformed->setChecked(scene.undeformedVisible());
  connect(m_undeformed, &QAction::toggled, this, [this](bool on) {
    m_scene.setUndeformedVisible(on);
    emit displayChanged();
  });
}

void DisplayToolBar::applyFixedLimits() {
  const bool fixed = m_scene.colourRangeMode() == render::ColourRangeMode::Fixed;
  for (QAction* a : m_limitActions) a->setVisible(fixed);
  const render::ContourUnit unit = m_scene.shownContourUnit();
  m_limits->setText(QString(" %1 ").arg(QString::fromUtf8(unit.unit)));
  if (fixed) {
    bool okLo = false, okHi = false;
    const double lo = QLocale().toDouble(m_lo->text(), &okLo), hi = QLocale().toDouble(m_hi->text(), &okHi);
    if (okLo && okHi && lo < hi) {
      m_scene.setFixedColourRange({lo / unit.scale, hi / unit.scale});
      m_lo->setStyleSheet({});
      m_hi->setStyleSheet({});
    } else {
      // refused in place: the limits stay what they were until both read and min < max
      m_lo->setStyleSheet("background: #fdd;");
      m_hi->setStyleSheet("background: #fdd;");
    }
  }
  emit displayChanged();
}

void DisplayToolBar::showLimits(const render::ScalarRange& range) {
  const double scale = m_scene.shownContourUnit().scale;
  m_lo->setText(QLocale().toString(scale * range.lo, 'g', 4));
  m_hi->setText(QLocale().toString(scale * range.hi, 'g', 4));
}

void DisplayToolBar::unitsChanged() {
  showLimits(m_scene.fixedColourRange());
  applyFixedLimits();
}

void DisplayToolBar::setFlexibleControlsEnabled(bool on, bool beams) {
  m_contour->setEnabled(on);
  m_range->setEnabled(on);
  m_scale->setEnabled(on);
  m_lo->setEnabled(on);
  m_hi->setEnabled(on);
  m_colour->setEnabled(on);
  m_undeformed->setEnabled(on || beams);
}

void DisplayToolBar::setContour(render::ContourQuantity quantity) {
  m_contour->setCurrentIndex(m_contour->findData(int(quantity)));
}

}  // namespace flexim::ui
