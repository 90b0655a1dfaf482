#include "ui/item_actions.h"

#include "ui/item_dialog.h"

#include <QAction>
#include <QMenu>
#include <QMessageBox>
#include <QPushButton>
#include <QWidget>

#include <algorithm>

namespace flexim::ui {

ItemActions::ItemActions(ModelDocument* document, QWidget* window)
    : QObject(window), m_document(document), m_window(window) {
  m_addMenu = new QMenu(tr("&Add"), window);
  m_addMenu->setObjectName("menuAdd");
  // one entry per list of the model, from its description: a kind registered later appears here
  for (const FieldDescription& list : modelDescription().fields) {
    if (list.type != FieldType::List || !list.item || !list.insert) continue;
    const std::string key = list.key;
    QAction* a = m_addMenu->addAction(QString::fromStdString(list.item->label) + tr("…"), this,
                                      [this, key] { addWithDialog(ModelDocument::kModelId, key); });
    a->setObjectName(QString::fromStdString("actionAdd:" + key));
    a->setStatusTip(QString::fromStdString(list.item->help).remove(QLatin1Char('`')));
  }
  m_addMenu->addSeparator();
  m_addMarker = m_addMenu->addAction(tr("&Marker on the selected body…"), this, [this] {
    const ItemId holder = markerHolder();
    if (holder != ModelDocument::kNoItem) addWithDialog(holder, "markers");
  });
  m_addMarker->setObjectName("actionAdd:marker");
  m_addMarker->setShortcut(QKeySequence(tr("Ctrl+M")));

  m_duplicate = new QAction(tr("D&uplicate"), this);
  m_duplicate->setObjectName("actionDuplicate");
  m_duplicate->setShortcut(QKeySequence(tr("Ctrl+D")));
  connect(m_duplicate, &QAction::triggered, this, &ItemActions::duplicateSelected);
  m_delete = new QAction(tr("&Delete"), this);
  m_delete->setObjectName("actionDelete");
  m_delete->setShortcut(QKeySequence::Delete);
  connect(m_delete, &QAction::triggered, this, &ItemActions::deleteSelected);

  connect(m_document, &ModelDocument::selectionChanged, this, &ItemActions::updateEnabled);
  connect(m_document, &ModelDocument::modelReset, this, &ItemActions::updateEnabled);
  updateEnabled();
}

void ItemActions::setEditable(bool editable) {
  m_editable = editable;
  m_addMenu->setEnabled(editable);
  updateEnabled();
}

ItemId ItemActions::markerHolder() const {
  ItemId id = m_document->selected();
  const ItemDescription* d = m_document->description(id);
  if (d && d->kind == "marker") id = m_document->parentOf(id);
  d = m_document->description(id);
  return d && d->field("markers") && d->field("markers")->type == FieldType::List ? id : ModelDocument::kNoItem;
}

void ItemActions::updateEnabled() {
  const ItemId id = m_document->selected();
  // list items can be duplicated and deleted; the model, ground and simulation cannot
  const bool listItem = id != ModelDocument::kNoItem && m_document->parentOf(id) != ModelDocument::kNoItem &&
                        m_document->description(id)->nameScope != "";
  m_duplicate->setEnabled(m_editable && listItem);
  m_delete->setEnabled(m_editable && listItem);
  const ItemId holder = markerHolder();
  m_addMarker->setEnabled(m_editable && holder != ModelDocument::kNoItem);
  m_addMarker->setText(holder == ModelDocument::kNoItem
                           ? tr("&Marker on the selected body…")
                           : tr("&Marker on %1…").arg(m_document->itemLabel(holder)));
}

ItemId ItemActions::addWithDialog(ItemId holder, const std::string& listKey) {
  ItemDialog dialog(*m_document, holder, listKey, nullptr, m_window);
  dialog.exec();
  return dialog.created();
}

void ItemActions::duplicateSelected() {
  const ItemId id = m_document->selected();
  QString error;
  if (m_document->duplicateItem(id, error) == ModelDocument::kNoItem)
    QMessageBox::warning(m_window, tr("Duplicate"), tr("%1 was not duplicated: %2").arg(m_document->itemLabel(id), error));
}

void ItemActions::deleteSelected() {
  const ItemId id = m_document->selected();
  if (id == ModelDocument::kNoItem) return;
  // what goes with it: the items that name it, and theirs (its own markers go without saying)
  std::vector<ItemId> remove{id};
  QStringList names;
  for (ItemId d : m_document->dependents(id)) {
    const ItemId holder = m_document->parentOf(d);
    // held by an item that goes (a body's markers): goes with it
    if (holder != ModelDocument::kModelId && std::find(remove.begin(), remove.end(), holder) != remove.end()) continue;
    remove.push_back(d);
    names << m_document->itemLabel(d);
  }
  if (!names.isEmpty()) {
    QMessageBox box(QMessageBox::Question, tr("Delete"),
                    tr("Deleting %1 also deletes what uses it:").arg(m_document->itemLabel(id)), QMessageBox::NoButton,
                    m_window);
    box.setObjectName("deleteDependentsBox");
    box.setInformativeText("• " + names.join("\n• "));
    QPushButton* all = box.addButton(tr("Delete all %1").arg(names.size() + 1), QMessageBox::DestructiveRole);
    box.addButton(QMessageBox::Cancel);
    box.setDefaultButton(QMessageBox::Cancel);
    box.exec();
    if (box.clickedButton() != static_cast<QAbstractButton*>(all)) return;
  }
  QString error;
  if (!m_document->removeItems(remove, error))
    QMessageBox::warning(m_window, tr("Delete"), tr("%1 was not deleted: %2").arg(m_document->itemLabel(id), error));
}

}  // namespace flexim::ui
