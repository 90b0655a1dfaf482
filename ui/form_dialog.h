// What every dialog of typed fields (joint, contact, beam member) has: the fields in a form,
// Return in a field not pressing OK behind the user's back (as in the item dialogs), an error line
// under the fields that refuses an invalid entry in place, OK and Cancel.
#pragma once

#include <QDialog>

class QFormLayout;
class QLabel;

namespace flexim::ui {

class FormDialog : public QDialog {
  Q_OBJECT

 public:
  explicit FormDialog(QWidget* parent = nullptr);

 protected:
  QFormLayout* form() const { return m_form; }
  /// The error line and OK / Cancel under the fields added so far; the dialog `width` wide.
  void finishForm(int width);
  /// Shows message on the error line (the dialog stays open); false.
  bool refuse(const QString& message);
  void keyPressEvent(QKeyEvent* event) override;

 private:
  QFormLayout* m_form = nullptr;
  QLabel* m_error = nullptr;
};

}  // namespace flexim::ui
