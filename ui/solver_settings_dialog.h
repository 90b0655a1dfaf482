// Simulation → Solver settings… (issue #9 item 4): the simulation item's fields in a dialog. The
// editors are the property panel's, made from the item description, working on a copy of the
// model so that each value is checked as it is typed; OK applies every change to the document as
// one undoable command, Cancel drops them.
#pragma once

#include "ui/model_document.h"

#include <QDialog>

namespace flexim::ui {

class PropertyPanel;

class SolverSettingsDialog : public QDialog {
  Q_OBJECT

 public:
  explicit SolverSettingsDialog(ModelDocument& document, QWidget* parent = nullptr);

  /// The editors (on the copy), for tests and for focus.
  PropertyPanel* panel() const { return m_panel; }

  /// Applies the edited settings (one command, "Solver settings"); stays open with the reason
  /// if the document refuses them.
  void accept() override;

 protected:
  void keyPressEvent(QKeyEvent* event) override;

 private:
  ModelDocument& m_document;
  ModelDocument m_copy;
  PropertyPanel* m_panel = nullptr;
};

}  // namespace flexim::ui
