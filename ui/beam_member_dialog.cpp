#include "ui/beam_member_dialog.h"

#include "core/base/cardan_angles.h"
#include "core/model/description.h"
#include "core/system/beam_elements.h"
#include "ui/joint_dialog.h"

#include <QCheckBox>
#include <QComboBox>
#include <QFormLayout>
#include <QLineEdit>
#include <QLocale>
#include <QSpinBox>
#include <QUndoStack>

#include <cmath>
#include <numbers>

namespace flexim::ui {

namespace {

QString number(double x) { return QString::number(x, 'g', 10); }

/// A name for the member whose nodes and elements (name_0, name_1, …) are free.
QString freeMemberName(const ModelSpec& model) {
  for (int i = 1;; ++i) {
    const std::string prefix = "beam" + std::to_string(i) + "_";
    bool used = false;
    for (const BeamNodeSpec& n : model.beam_nodes) used = used || n.name.rfind(prefix, 0) == 0;
    for (const BeamElementSpec& e : model.beam_elements) used = used || e.name.rfind(prefix, 0) == 0;
    if (!used) return QString("beam%1").arg(i);
  }
}

}  // namespace

BeamMemberDialog::BeamMemberDialog(ModelDocument& document, const render::PickResult& lastPick, QWidget* parent)
    : FormDialog(parent), m_document(document) {
  setWindowTitle(tr("Add beam member"));
  setObjectName("beamMemberDialog");
  QFormLayout* form = this->form();
  const auto edit = [this](const char* name, const QString& value, const QString& tip) {
    auto* e = new QLineEdit(value, this);
    e->setObjectName(name);
    e->setToolTip(tip);
    return e;
  };
  m_name = edit("name", freeMemberName(document.model()), tr("nodes NAME_0 … NAME_n, elements NAME_1 … NAME_n"));
  form->addRow(tr("name"), m_name);
  const Vec3 start = lastPick.item.empty() ? Vec3::Zero() : lastPick.point;
  m_start = edit("start", QString("%1, %2, %3").arg(number(start.x()), number(start.y()), number(start.z())),
                 tr("global x, y, z of the first node (the last picked point, if any)"));
  form->addRow(tr("start [m]"), m_start);
  m_angles = edit("angles", "0, 0, 0",
                  tr("Cardan angles x, y, z of the section's axes at the start: x along the member, y and z the "
                     "section's principal axes; an arc bends about z"));
  form->addRow(tr("axes: angles x, y, z [deg]"), m_angles);
  m_shape = new QComboBox(this);
  m_shape->setObjectName("shape");
  m_shape->addItems({tr("straight"), tr("arc")});
  form->addRow(tr("shape"), m_shape);
  m_length = edit("length", "1", tr("length along the centre line"));
  form->addRow(tr("length [m]"), m_length);
  m_radius = edit("radius", "1", tr("radius of the arc"));
  form->addRow(tr("radius [m]"), m_radius);
  m_sweep = edit("sweep", "90", tr("angle the arc sweeps about the section's z axis; negative turns the other way"));
  form->addRow(tr("sweep [deg]"), m_sweep);
  m_elements = new QSpinBox(this);
  m_elements->setObjectName("elements");
  m_elements->setRange(1, 10000);
  m_elements->setValue(8);
  form->addRow(tr("elements"), m_elements);

  m_formulation = new QComboBox(this);
  m_formulation->setObjectName("formulation");
  if (const FieldDescription* list = modelDescription().field("beam_elements"); list && list->item)
    if (const FieldDescription* f = list->item->field("formulation")) {
      for (const std::string& c : f->choices) m_formulation->addItem(QString::fromStdString(c));
      m_formulation->setToolTip(QString::fromStdString(f->help).remove(QLatin1Char('`')));
    }
  form->addRow(tr("formulation"), m_formulation);
  m_sectionFrom = new QComboBox(this);
  m_sectionFrom->setObjectName("sectionFrom");
  m_sectionFrom->addItem(tr("typed below"));
  for (const BeamElementSpec& e : document.model().beam_elements)
    m_sectionFrom->addItem(tr("element '%1'").arg(QString::fromStdString(e.name)));
  form->addRow(tr("section and material from"), m_sectionFrom);
  // a 0.1 m square steel section by default
  m_youngs = edit("youngs_modulus", "2.07e11", tr("Young's modulus E"));
  form->addRow(tr("E [Pa]"), m_youngs);
  m_poisson = edit("poisson_ratio", "0.3", tr("Poisson's ratio ν: G = E / 2(1 + ν)"));
  form->addRow(tr("ν [-]"), m_poisson);
  m_area = edit("area", "0.01", tr("cross-section area A"));
  form->addRow(tr("A [m²]"), m_area);
  m_iy = edit("iy", number(std::pow(0.1, 4) / 12), tr("second moment of area about the section's y axis"));
  form->addRow(tr("I_y [m⁴]"), m_iy);
  m_iz = edit("iz", number(std::pow(0.1, 4) / 12), tr("second moment of area about the section's z axis"));
  form->addRow(tr("I_z [m⁴]"), m_iz);
  m_torsion = edit("torsion_constant", "0", tr("torsion constant J; 0: I_y + I_z"));
  form->addRow(tr("J [m⁴]"), m_torsion);
  m_density = edit("density", "7850", tr("density ρ"));
  form->addRow(tr("ρ [kg/m³]"), m_density);
  m_shear = new QCheckBox(tr("Timoshenko shear (shear factor 5/6)"), this);
  m_shear->setObjectName("shear");
  form->addRow(QString(), m_shear);
  m_clamp = new QCheckBox(tr("clamp the start to the ground"), this);
  m_clamp->setObjectName("clamp");
  m_clamp->setChecked(true);
  form->addRow(QString(), m_clamp);
  m_planar = new QCheckBox(tr("hold every node in the plane of the start's x-y axes"), this);
  m_planar->setObjectName("planar");
  form->addRow(QString(), m_planar);

  const auto shapeChanged = [this, form] {
    const bool arc = m_shape->currentIndex() == 1;
    form->setRowVisible(m_length, !arc);
    form->setRowVisible(m_radius, arc);
    form->setRowVisible(m_sweep, arc);
  };
  connect(m_shape, &QComboBox::currentIndexChanged, this, shapeChanged);
  shapeChanged();
  connect(m_sectionFrom, &QComboBox::currentIndexChanged, this, &BeamMemberDialog::fillSection);

  finishForm(460);
}

void BeamMemberDialog::fillSection(int index) {
  const auto& elements = m_document.model().beam_elements;
  if (index < 1 || std::size_t(index) > elements.size()) return;
  const BeamElementSpec& e = elements[std::size_t(index - 1)];
  m_formulation->setCurrentText(QString::fromStdString(e.formulation));
  m_youngs->setText(number(e.youngs_modulus));
  m_poisson->setText(number(e.poisson_ratio));
  m_area->setText(number(e.area));
  m_iy->setText(number(e.iy));
  m_iz->setText(number(e.iz));
  m_torsion->setText(number(e.torsion_constant));
  m_density->setText(number(e.density));
  m_shear->setChecked(e.shear);
}

void BeamMemberDialog::accept() {
  BeamMemberSpec member;
  member.name = m_name->text().trimmed().toStdString();
  Vec3 angles;
  if (!parseVector(m_start->text(), member.start)) return (void)refuse(tr("start: expected three numbers x, y, z"));
  if (!parseVector(m_angles->text(), angles)) return (void)refuse(tr("angles: expected three numbers in degrees"));
  member.orientation = fromXyzAngles(angles * std::numbers::pi / 180);
  member.elements = m_elements->value();
  // the section: an element's (all its fields), then the typed ones over it
  const int from = m_sectionFrom->currentIndex();
  if (from >= 1) member.element = m_document.model().beam_elements[std::size_t(from - 1)];
  member.element.curvature = Vec3::Zero();
  member.element.length = 0.0;
  member.element.formulation = m_formulation->currentText().toStdString();
  struct Number {
    QLineEdit* edit;
    double* value;
    const char* label;
    bool positive;
  };
  const Number numbers[] = {{m_youngs, &member.element.youngs_modulus, "E", true},
                            {m_poisson, &member.element.poisson_ratio, "ν", false},
                            {m_area, &member.element.area, "A", true},
                            {m_iy, &member.element.iy, "I_y", true},
                            {m_iz, &member.element.iz, "I_z", true},
                            {m_torsion, &member.element.torsion_constant, "J", false},
                            {m_density, &member.element.density, "ρ", false}};
  for (const Number& n : numbers) {
    bool ok = false;
    *n.value = QLocale::c().toDouble(n.edit->text().trimmed(), &ok);
    if (!ok || !std::isfinite(*n.value)) return (void)refuse(tr("%1: expected a number").arg(n.label));
    if (n.positive && !(*n.value > 0)) return (void)refuse(tr("%1: must be positive").arg(n.label));
  }
  member.element.shear = m_shear->isChecked();
  bool ok = false;
  if (m_shape->currentIndex() == 1) {
    const double radius = QLocale::c().toDouble(m_radius->text().trimmed(), &ok);
    if (!ok || !(radius > 0)) return (void)refuse(tr("radius: a positive length in m"));
    const double sweep = QLocale::c().toDouble(m_sweep->text().trimmed(), &ok);
    if (!ok || sweep == 0 || !std::isfinite(sweep)) return (void)refuse(tr("sweep: a non-zero angle in degrees"));
    bendBeamMember(member, radius, sweep);
  } else {
    member.length = QLocale::c().toDouble(m_length->text().trimmed(), &ok);
    if (!ok || !(member.length > 0)) return (void)refuse(tr("length: a positive length in m"));
  }
  member.clamp = m_clamp->isChecked();
  member.planar = m_planar->isChecked();

  // the member meshed on a copy of the model; its new items then go in, one undo step
  const ModelSpec& model = m_document.model();
  ModelSpec trial = model;
  if (const std::string why = addBeamMember(trial, member); !why.empty()) return (void)refuse(QString::fromStdString(why));
  QUndoStack* undo = m_document.undoStack();
  undo->beginMacro(tr("Add beam member '%1' (%2 elements)").arg(QString::fromStdString(member.name)).arg(member.elements));
  QString error;
  bool added = true;
  for (std::size_t i = model.beam_nodes.size(); added && i < trial.beam_nodes.size(); ++i) {
    const ItemId id = m_document.addItem(ModelDocument::kModelId, "beam_nodes", &trial.beam_nodes[i], {}, error);
    if (m_created == ModelDocument::kNoItem) m_created = id;
    added = id != ModelDocument::kNoItem;
  }
  for (std::size_t i = model.beam_elements.size(); added && i < trial.beam_elements.size(); ++i)
    added = m_document.addItem(ModelDocument::kModelId, "beam_elements", &trial.beam_elements[i], {}, error) !=
            ModelDocument::kNoItem;
  const ItemId ground = m_document.itemAtPath("ground");
  for (std::size_t i = model.ground_markers.size(); added && i < trial.ground_markers.size(); ++i)
    added = m_document.addItem(ground, "markers", &trial.ground_markers[i], {}, error) != ModelDocument::kNoItem;
  for (std::size_t i = model.joints.size(); added && i < trial.joints.size(); ++i)
    added = m_document.addItem(ModelDocument::kModelId, "joints", &trial.joints[i], {}, error) != ModelDocument::kNoItem;
  undo->endMacro();
  if (!added) {
    undo->undo();  // the items added on the way go again
    m_created = ModelDocument::kNoItem;
    refuse(error);
    return;
  }
  if (m_created != ModelDocument::kNoItem) m_document.select(m_created);
  QDialog::accept();
}

}  // namespace flexim::ui
