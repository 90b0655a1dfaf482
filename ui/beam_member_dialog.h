// Add → Beam member…: a straight or curved (arc) member meshed into beam elements
// (addBeamMember, core/system/beam_elements.h), as `flexim-cli beam` does: where it starts and
// which way it points, its length or its arc, the number of elements, the formulation, and the
// section and material — typed, or those of an element of the model. OK adds its nodes (each with
// a marker "m"), its elements and, when asked, the clamp to the ground and the in-plane joints, as
// one undoable step.
#pragma once

#include "render/model_scene.h"
#include "ui/form_dialog.h"
#include "ui/model_document.h"

class QCheckBox;
class QComboBox;
class QLineEdit;
class QSpinBox;

namespace flexim::ui {

class BeamMemberDialog : public FormDialog {
  Q_OBJECT

 public:
  /// The member starts at the last picked point, if there is one.
  BeamMemberDialog(ModelDocument& document, const render::PickResult& lastPick, QWidget* parent = nullptr);

  /// The first node added, or kNoItem.
  ItemId created() const { return m_created; }
  void accept() override;

 private:
  /// The section fields from the element chosen in "section from".
  void fillSection(int index);

  ModelDocument& m_document;
  QLineEdit* m_name = nullptr;
  QLineEdit* m_start = nullptr;
  QLineEdit* m_angles = nullptr;
  QComboBox* m_shape = nullptr;
  QLineEdit* m_length = nullptr;
  QLineEdit* m_radius = nullptr;
  QLineEdit* m_sweep = nullptr;
  QSpinBox* m_elements = nullptr;
  QComboBox* m_formulation = nullptr;
  QComboBox* m_sectionFrom = nullptr;
  QLineEdit* m_youngs = nullptr;
  QLineEdit* m_poisson = nullptr;
  QLineEdit* m_area = nullptr;
  QLineEdit* m_iy = nullptr;
  QLineEdit* m_iz = nullptr;
  QLineEdit* m_torsion = nullptr;
  QLineEdit* m_density = nullptr;
  QCheckBox* m_shear = nullptr;
  QCheckBox* m_clamp = nullptr;
  QCheckBox* m_planar = nullptr;
  ItemId m_created = ModelDocument::kNoItem;
};

}  // namespace flexim::ui
