// Add → Joint at a point… (issue #10 item 3): a joint of any registered kind between two bodies
// (ground, rigid or virtual), its origin and axis given in global coordinates (prefilled from
// the last point picked in the view). OK adds a marker on each body at that frame and the joint
// on the two markers, as one undoable step.
#pragma once

#include "ui/model_document.h"

#include <QDialog>

class QComboBox;
class QLineEdit;
class QLabel;

namespace flexim::ui {

class JointDialog : public QDialog {
  Q_OBJECT

 public:
  /// body1/body2: the bodies offered first (e.g. the selected one and the ground).
  JointDialog(ModelDocument& document, const Vec3& origin, const Vec3& axis, const std::string& body1,
              const std::string& body2, QWidget* parent = nullptr);

  ItemId created() const { return m_created; }
  void accept() override;

 protected:
  void keyPressEvent(QKeyEvent* event) override;

 private:
  /// Reads a vector from three comma-separated numbers; false (and a message) if it is not one.
  bool readVector(QLineEdit* edit, const QString& what, Vec3& out);

  ModelDocument& m_document;
  QComboBox* m_kind = nullptr;
  QLineEdit* m_name = nullptr;
  QComboBox* m_body1 = nullptr;
  QComboBox* m_body2 = nullptr;
  QLineEdit* m_origin = nullptr;
  QLineEdit* m_axis = nullptr;
  QLabel* m_error = nullptr;
  ItemId m_created = ModelDocument::kNoItem;
};

/// The pose of a body at the start (global): a rigid body's position and orientation, a virtual
/// body's point and axes on its undeformed flexible body, the ground's identity; false if unknown.
bool initialBodyPose(const ModelSpec& model, const std::string& body, Vec3& position, Mat3& axes);

}  // namespace flexim::ui
