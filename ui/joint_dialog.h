// Add → Joint at a point…: a joint of any registered kind between two bodies
// (ground, rigid or virtual), its origin and axis given in global coordinates: typed, or taken
// from the last pick in the view (the point clicked, the FE node there, the centre and normal of
// the flat face there or the axis of the bore there, fitted on the mesh) or from a marker. OK adds
// a marker on each body at that frame and the joint on the two markers, as one undoable step.
#pragma once

#include "render/model_scene.h"
#include "ui/form_dialog.h"
#include "ui/model_document.h"

#include <QDialog>

class QComboBox;
class QLineEdit;
class QLabel;

namespace flexim::ui {

class JointDialog : public FormDialog {
  Q_OBJECT

 public:
  /// lastPick: the last click in the view (none: item empty); body1/body2: the bodies offered
  /// first (e.g. the ground and the selected one).
  JointDialog(ModelDocument& document, const render::PickResult& lastPick, const std::string& body1,
              const std::string& body2, QWidget* parent = nullptr);

  ItemId created() const { return m_created; }
  void accept() override;

 private:
  /// Reads a vector from three comma-separated numbers; false (and a message) if it is not one.
  bool readVector(QLineEdit* edit, const QString& what, Vec3& out);

  ModelDocument& m_document;
  QComboBox* m_kind = nullptr;
  QLineEdit* m_name = nullptr;
  QComboBox* m_body1 = nullptr;
  QComboBox* m_body2 = nullptr;
  QComboBox* m_from = nullptr;
  QLineEdit* m_origin = nullptr;
  QLineEdit* m_axis = nullptr;
  ItemId m_created = ModelDocument::kNoItem;
};

/// Where a joint can go: a label ("face centre and normal (fitted)"), what was found (the fit's
/// account), a global origin and z axis.
struct JointPlace {
  QString label;
  QString detail;
  Vec3 origin = Vec3::Zero();
  Vec3 axis = Vec3::UnitZ();
};
/// The places offered for a pick, in this order: the point clicked (z axis), the FE node there
/// (undeformed), the flat face and the bore there (fitted; left out when the fit fails, the
/// reason in `notes`), then every marker of the model at the start.
std::vector<JointPlace> jointPlaces(const ModelSpec& model, const render::PickResult& pick, QStringList* notes = nullptr);

/// The bodies a joint or contact dialog offers: the ground, then every body that carries markers.
QStringList markerBodyNames(const ModelSpec& model);

/// Three numbers from text ("x, y, z", separated by commas, semicolons or spaces); false when it is
/// not three finite numbers.
bool parseVector(const QString& text, Vec3& out);

/// Adds a marker on a body that carries markers (or the ground) at a global origin and frame
/// (columns: the marker's axes) at the start, named from `base`: its name, or "" with `error`.
/// An undo step of its own unless the caller opened a macro.
std::string addMarkerAt(ModelDocument& document, const std::string& body, const Vec3& origin, const Mat3& frame,
                        const std::string& base, QString& error);

/// The pose of a body that carries markers at the start (global, BodyTable::startPose), the
/// ground's identity; false for a name of no such body.
bool initialBodyPose(const ModelSpec& model, const std::string& body, Vec3& position, Mat3& axes);

}  // namespace flexim::ui
