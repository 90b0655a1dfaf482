#include "ui/form_dialog.h"

#include <QDialogButtonBox>
#include <QFormLayout>
#include <QKeyEvent>
#include <QLabel>

namespace flexim::ui {

FormDialog::FormDialog(QWidget* parent) : QDialog(parent), m_form(new QFormLayout(this)) {}

void FormDialog::finishForm(int width) {
  m_error = new QLabel(this);
  m_error->setObjectName("error");
  m_error->setWordWrap(true);
  m_error->setStyleSheet("color: #b00020;");
  m_error->hide();
  m_form->addRow(m_error);
  auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
  connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
  connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
  m_form->addRow(buttons);
  resize(width, 0);
}

bool FormDialog::refuse(const QString& message) {
  m_error->setText(message);
  m_error->show();
  return false;
}

void FormDialog::keyPressEvent(QKeyEvent* event) {
  if (event->key() == Qt::Key_Return || event->key() == Qt::Key_Enter) {
    event->accept();
    return;
  }
  QDialog::keyPressEvent(event);
}

}  // namespace flexim::ui
