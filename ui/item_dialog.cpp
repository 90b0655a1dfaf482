#include "ui/item_dialog.h"

#include "ui/property_panel.h"

#include <QDialogButtonBox>
#include <QKeyEvent>
#include <QMessageBox>
#include <QVBoxLayout>

#include <functional>

namespace flexim::ui {

ItemDialog::ItemDialog(ModelDocument& document, ItemId id, const QString& commandText, QWidget* parent)
    : QDialog(parent), m_document(document), m_item(id), m_commandText(commandText) {
  m_copy.reset(document.model(), document.path());
  m_draft = copyOf(id);
  m_copy.select(m_draft);
  setWindowTitle(commandText);
  build();
}

ItemDialog::ItemDialog(ModelDocument& document, ItemId holder, const std::string& listKey, const void* initial,
                       QWidget* parent)
    : QDialog(parent), m_document(document), m_holder(holder), m_listKey(listKey) {
  m_copy.reset(document.model(), document.path());
  // a draft: required fields are still empty, so it may be invalid until filled in
  QString error;
  const ItemId copyHolder = copyOf(holder);
  m_draft = m_copy.addItem(copyHolder, listKey, initial, {}, error, -1, true);
  if (const ItemDescription* d = m_copy.description(m_draft)) {
    if (m_copy.itemName(m_draft).empty() && d->field("name"))
      m_copy.setField(m_draft, "name", m_copy.freeName(copyHolder, listKey, d->kind), error);
    setWindowTitle(tr("Add %1").arg(QString::fromStdString(d->label).toLower()));
  }
  build();
}

ItemId ItemDialog::copyOf(ItemId id) const {
  // the copy numbers its items afresh: the same item is the one at the same path
  if (id == ModelDocument::kModelId || id == ModelDocument::kSimulationId) return id;
  return m_copy.itemAtPath(m_document.itemPath(id));
}

void ItemDialog::build() {
  setObjectName("itemDialog");
  m_panel = new PropertyPanel(&m_copy, this);
  auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
  connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
  connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
  auto* layout = new QVBoxLayout(this);
  layout->addWidget(m_panel, 1);
  layout->addWidget(buttons);
  resize(480, 480);
}

void ItemDialog::keyPressEvent(QKeyEvent* event) {
  // Return commits the field being typed (and shows a refusal under it), as in the property
  // panel; it does not also press OK behind the user's back
  if (event->key() == Qt::Key_Return || event->key() == Qt::Key_Enter) {
    event->accept();
    return;
  }
  QDialog::keyPressEvent(event);
}

void ItemDialog::accept() {
  QString error;
  if (m_holder != ModelDocument::kNoItem) {
    m_created = m_document.addItem(m_holder, m_listKey, m_copy.itemData(m_draft),
                                   tr("Add %1").arg(m_copy.itemLabel(m_draft)), error);
    if (m_created == ModelDocument::kNoItem) {
      QMessageBox::warning(this, windowTitle(), error);
      return;
    }
    QDialog::accept();
    return;
  }
  // every field of the item (and of its nested objects: "visual.file"), in description order;
  // setFields skips the unchanged ones and checks the rest together
  std::vector<std::pair<std::string, FieldValue>> values;
  const std::function<void(const ItemDescription&, const std::string&)> collect = [&](const ItemDescription& d,
                                                                                       const std::string& prefix) {
    for (const FieldDescription& f : d.fields) {
      const std::string key = prefix + f.key;
      if (f.inputOnly || f.type == FieldType::List || !m_copy.applies(m_draft, key)) continue;
      if (f.type == FieldType::Object && f.item) collect(*f.item, key + ".");
      else if (f.get && f.set) values.emplace_back(key, m_copy.value(m_draft, key));
    }
  };
  collect(*m_copy.description(m_draft), "");
  if (!m_document.setFields(m_item, values, m_commandText, error)) {
    QMessageBox::warning(this, windowTitle(), error);
    return;
  }
  QDialog::accept();
}

}  // namespace flexim::ui
