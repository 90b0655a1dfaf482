// Add → Contact at points…: a contact of any registered kind between two bodies (ground, rigid
// or virtual). Body 1 carries the point (the sphere's centre, the slider's centre), body 2 the
// surface (the plane's origin and normal, the line's or the guide's origin, across and along
// directions); each is typed, or taken from the last pick in the view (the point clicked, the FE
// node there, the flat face's centre and normal fitted on the mesh) or from a marker. OK adds a
// marker on each body and the contact on the two markers, as one undoable step.
#pragma once

#include "render/model_scene.h"
#include "ui/form_dialog.h"
#include "ui/model_document.h"

#include <vector>

class QComboBox;
class QLineEdit;

namespace flexim::ui {

struct JointPlace;

class ContactDialog : public FormDialog {
  Q_OBJECT

 public:
  ContactDialog(ModelDocument& document, const render::PickResult& lastPick, const std::string& body1,
                const std::string& body2, QWidget* parent = nullptr);

  ItemId created() const { return m_created; }
  void accept() override;

 private:
  /// The marker frame at the surface for the chosen kind: the plane's normal is z; a line's or a
  /// guide's normal is y and its direction x.
  Mat3 surfaceFrame(const Vec3& normal, const Vec3& along) const;

  ModelDocument& m_document;
  QComboBox* m_kind = nullptr;
  QLineEdit* m_name = nullptr;
  QComboBox* m_body1 = nullptr;
  QComboBox* m_pointFrom = nullptr;
  QLineEdit* m_point = nullptr;
  QComboBox* m_body2 = nullptr;
  QComboBox* m_surfaceFrom = nullptr;
  QLineEdit* m_origin = nullptr;
  QLineEdit* m_normal = nullptr;
  QLineEdit* m_along = nullptr;
  QLineEdit* m_friction = nullptr;
  QLineEdit* m_restitution = nullptr;
  ItemId m_created = ModelDocument::kNoItem;
};

}  // namespace flexim::ui
