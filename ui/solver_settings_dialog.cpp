#include "ui/solver_settings_dialog.h"

#include "ui/property_panel.h"

#include <QDialogButtonBox>
#include <QKeyEvent>
#include <QMessageBox>
#include <QVBoxLayout>

namespace flexim::ui {

SolverSettingsDialog::SolverSettingsDialog(ModelDocument& document, QWidget* parent)
    : QDialog(parent), m_document(document) {
  setWindowTitle(tr("Solver settings"));
  setObjectName("solverSettingsDialog");
  m_copy.reset(document.model(), document.path());
  m_copy.select(ModelDocument::kSimulationId);
  m_panel = new PropertyPanel(&m_copy, this);
  auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
  connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
  connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
  auto* layout = new QVBoxLayout(this);
  layout->addWidget(m_panel, 1);
  layout->addWidget(buttons);
  resize(460, 520);
}

void SolverSettingsDialog::keyPressEvent(QKeyEvent* event) {
  // Return commits the field being typed (and shows a refusal under it), as in the property
  // panel; it does not also press OK behind the user's back
  if (event->key() == Qt::Key_Return || event->key() == Qt::Key_Enter) {
    event->accept();
    return;
  }
  QDialog::keyPressEvent(event);
}

void SolverSettingsDialog::accept() {
  // every field that the copy's simulation item has, in description order; setFields skips
  // the unchanged ones and checks the rest together
  const ItemId id = ModelDocument::kSimulationId;
  std::vector<std::pair<std::string, FieldValue>> values;
  for (const FieldDescription& f : m_copy.description(id)->fields)
    if (f.get && f.set && !f.inputOnly && f.type != FieldType::Object && f.type != FieldType::List)
      values.emplace_back(f.key, m_copy.value(id, f.key));
  QString error;
  if (!m_document.setFields(id, values, tr("Solver settings"), error)) {
    QMessageBox::warning(this, windowTitle(), error);
    return;
  }
  QDialog::accept();
}

}  // namespace flexim::ui
