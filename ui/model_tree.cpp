#include "ui/model_tree.h"

#include "core/model/description.h"
#include "core/model/validate.h"

#include <QHeaderView>
#include <QStyle>

#include <map>

namespace flexim::ui {
namespace {

constexpr int kIdRole = Qt::UserRole + 1;

QTreeWidgetItem* addGroup(QTreeWidget* tree, const QString& title) {
  auto* group = new QTreeWidgetItem(tree, {title, QString()});
  QFont bold = group->font(0);
  bold.setBold(true);
  group->setFont(0, bold);
  group->setData(0, Qt::UserRole, title);
  group->setFlags(group->flags() & ~Qt::ItemIsSelectable);
  return group;
}

/// "body" -> "Bodies", "joint" -> "Joints", "beam_element" -> "Beam elements".
QString groupTitle(const std::string& scope) {
  QString s = QString::fromStdString(scope).replace('_', ' ');
  if (s.isEmpty()) return s;
  s[0] = s[0].toUpper();
  return s.endsWith('y') ? s.chopped(1) + "ies" : s + "s";
}

QString text(const FieldValue& v) {
  if (const auto* s = std::get_if<std::string>(&v)) return QString::fromStdString(*s);
  if (const auto* d = std::get_if<double>(&v)) return QString::number(*d);
  if (const auto* i = std::get_if<int>(&v)) return QString::number(*i);
  return {};
}

/// Name scopes that hold several kinds of item (bodies: rigid, flexible, virtual).
std::map<std::string, int> kindsPerScope() {
  std::map<std::string, int> kinds;
  for (const FieldDescription& list : modelDescription().fields)
    if (list.type == FieldType::List && list.item && !list.item->nameScope.empty()) ++kinds[list.item->nameScope];
  return kinds;
}

/// The type column: the item's "type" field, else (groups of several kinds, such as bodies) the
/// first word of its kind's label, else its first choice field ("rotation"), else its label.
QString typeOf(const ModelDocument& doc, ItemId id, bool severalKinds) {
  const ItemDescription& d = *doc.description(id);
  if (d.field("type")) return text(doc.value(id, "type"));
  // several kinds share a group: "rigid", "flexible", "virtual" (of "... body"), "point mass"
  if (severalKinds) {
    const std::string_view label(d.label), body(" body");
    return QString::fromStdString(std::string(label.ends_with(body) ? label.substr(0, label.size() - body.size()) : label))
        .toLower();
  }
  for (const FieldDescription& f : d.fields)
    if (f.type == FieldType::Enum && f.get && doc.applies(id, f)) return text(doc.value(id, f.key));
  return QString::fromStdString(d.label).toLower();
}

/// The tooltip: what the item refers to ("ground - crank") and its kind's help.
QString detailOf(const ModelDocument& doc, ItemId id) {
  const ItemDescription& d = *doc.description(id);
  QStringList refs;
  for (const FieldDescription& f : d.fields)
    if (f.type == FieldType::Reference && f.bodyKey.empty() && f.get && doc.applies(id, f)) {
      const QString value = text(doc.value(id, f.key));
      if (!value.isEmpty()) refs << value;
    }
  QString detail = refs.join(" - ");
  if (!d.help.empty()) detail += (detail.isEmpty() ? "" : "\n") + QString::fromStdString(d.help);
  return detail;
}

}  // namespace

ModelTree::ModelTree(QWidget* parent) : QTreeWidget(parent) {
  setColumnCount(2);
  setHeaderLabels({tr("Item"), tr("Type")});
  header()->setSectionResizeMode(0, QHeaderView::Stretch);
  header()->setSectionResizeMode(1, QHeaderView::ResizeToContents);
  header()->setStretchLastSection(false);
  setRootIsDecorated(true);
  setSelectionMode(QAbstractItemView::SingleSelection);
  connect(this, &QTreeWidget::itemSelectionChanged, this, [this] {
    if (m_updatingSelection || !m_document) return;
    const auto rows = selectedItems();
    m_document->select(rows.isEmpty() ? ModelDocument::kNoItem : rows.front()->data(0, kIdRole).toInt());
  });
}

void ModelTree::setDocument(ModelDocument* document) {
  m_document = document;
  connect(document, &ModelDocument::modelReset, this, &ModelTree::rebuild);
  connect(document, &ModelDocument::itemsChanged, this, &ModelTree::rebuild);
  connect(document, &ModelDocument::fieldChanged, this, [this](ItemId id, const QString&) {
    refreshRow(id);
    markProblems();
  });
  connect(document, &ModelDocument::selectionChanged, this, &ModelTree::showSelection);
  rebuild();
}

void ModelTree::rebuild() {
  // clearing deselects the rows: that is not the user's choice, the document's selection stays
  m_updatingSelection = true;
  clear();
  m_updatingSelection = false;
  m_problems.clear();
  if (!m_document) return;
  const ModelDocument& doc = *m_document;
  // the model's lists make one group per name scope, in document order, from the item
  // descriptions: a kind registered later (contacts, beams) appears by itself. The model's own
  // objects (ground, simulation) are rows of their own, and items held by an item (a body's
  // markers) are rows under it.
  const std::map<std::string, int> kinds = kindsPerScope();
  std::map<std::string, QTreeWidgetItem*> groups;
  std::map<std::string, int> counts;
  std::map<ItemId, QTreeWidgetItem*> rows;
  for (ItemId id : doc.items()) {
    const ItemDescription* d = doc.description(id);
    const ItemId parent = doc.parentOf(id);
    QTreeWidgetItem* row = nullptr;
    if (id == ModelDocument::kModelId) {
      row = new QTreeWidgetItem(this, {tr("Model"), QString()});
    } else if (parent != ModelDocument::kModelId) {
      const auto holder = rows.find(parent);
      if (holder == rows.end()) continue;
      row = new QTreeWidgetItem(holder->second);
    } else if (d->nameScope.empty()) {
      row = new QTreeWidgetItem(this, {QString::fromStdString(d->label), QString()});
    } else {
      QTreeWidgetItem*& group = groups[d->nameScope];
      if (!group) group = addGroup(this, groupTitle(d->nameScope));
      row = new QTreeWidgetItem(group);
      ++counts[d->nameScope];
    }
    rows[id] = row;
    row->setData(0, kIdRole, id);
    fillRow(row, id);
  }
  for (const auto& [scope, group] : groups) group->setText(1, QString::number(counts[scope]));
  markProblems();
  expandAll();
  showSelection(doc.selected());
}

void ModelTree::refreshRow(ItemId id) {
  if (QTreeWidgetItem* row = rowOf(id)) fillRow(row, id);
}

void ModelTree::fillRow(QTreeWidgetItem* row, ItemId id) {
  if (!m_document) return;
  const ModelDocument& doc = *m_document;
  const ItemDescription& d = *doc.description(id);
  QString tip;
  if (id == ModelDocument::kModelId) {
    row->setText(1, text(doc.value(id, "name")));
    tip = QString::fromStdString(d.help);
  } else if (d.nameScope.empty()) {  // the ground, the simulation: the kind names the row, its choice (integrator) beside it
    QString choice;
    for (const FieldDescription& f : d.fields)
      if (choice.isEmpty() && f.type == FieldType::Enum && f.get && doc.applies(id, f)) choice = text(doc.value(id, f.key));
    row->setText(1, choice);
    tip = QString::fromStdString(d.help);
  } else {
    row->setText(0, QString::fromStdString(doc.itemName(id)));
    row->setText(1, typeOf(doc, id, kindsPerScope()[d.nameScope] > 1));
    tip = detailOf(doc, id);
  }
  // an item with a validation error: a warning icon, the error first in the tooltip
  const auto problem = m_problems.find(id);
  const bool marked = problem != m_problems.end();
  row->setIcon(0, marked ? style()->standardIcon(QStyle::SP_MessageBoxWarning) : QIcon());
  row->setToolTip(0, marked ? problem->second + "\n\n" + tip : tip);
}

void ModelTree::markProblems() {
  if (!m_document) return;
  const ModelDocument& doc = *m_document;
  // each error goes to the item whose path is the longest prefix of the error's path
  std::map<ItemId, QString> problems;
  const Diagnostics checked = validate(doc.model());  // named: items() refers into it
  for (const Diagnostic& d : checked.items()) {
    if (d.severity != Severity::Error) continue;
    ItemId owner = ModelDocument::kNoItem;
    std::size_t longest = 0;
    for (ItemId id : doc.items()) {
      const std::string path = doc.itemPath(id);
      const bool prefix = !path.empty() && d.where.compare(0, path.size(), path) == 0 &&
                          (d.where.size() == path.size() || d.where[path.size()] == '.');
      if (prefix && path.size() > longest) {
        owner = id;
        longest = path.size();
      }
    }
    if (owner == ModelDocument::kNoItem) continue;
    QString& text = problems[owner];
    text += (text.isEmpty() ? "" : "\n") + QString::fromStdString(d.message);
  }
  if (problems == m_problems) return;
  m_problems = std::move(problems);
  for (QTreeWidgetItemIterator it(this); *it; ++it)
    if (const ItemId id = (*it)->data(0, kIdRole).toInt(); id != ModelDocument::kNoItem) fillRow(*it, id);
}

QString ModelTree::problemOf(ItemId id) const {
  const auto it = m_problems.find(id);
  return it == m_problems.end() ? QString() : it->second;
}

QTreeWidgetItem* ModelTree::rowOf(ItemId id) const {
  for (QTreeWidgetItemIterator it(const_cast<ModelTree*>(this)); *it; ++it)
    if ((*it)->data(0, kIdRole).toInt() == id && id != ModelDocument::kNoItem) return *it;
  return nullptr;
}

void ModelTree::showSelection(ItemId id) {
  m_updatingSelection = true;
  clearSelection();
  if (QTreeWidgetItem* row = rowOf(id)) {
    row->setSelected(true);
    scrollToItem(row);
    setCurrentItem(row);
  }
  m_updatingSelection = false;
}

QStringList ModelTree::itemNames(const QString& group) const {
  QStringList names;
  for (int g = 0; g < topLevelItemCount(); ++g) {
    const QTreeWidgetItem* groupItem = topLevelItem(g);
    if (groupItem->data(0, Qt::UserRole).toString() != group) continue;
    for (int i = 0; i < groupItem->childCount(); ++i) names << groupItem->child(i)->text(0);
  }
  return names;
}

}  // namespace flexim::ui
