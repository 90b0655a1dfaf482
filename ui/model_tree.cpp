#include "ui/model_tree.h"

#include "core/model/description.h"

#include <QHeaderView>

#include <map>

namespace flexim::ui {
namespace {

QTreeWidgetItem* addGroup(QTreeWidget* tree, const QString& title) {
  auto* group = new QTreeWidgetItem(tree, {title, QString()});
  QFont bold = group->font(0);
  bold.setBold(true);
  group->setFont(0, bold);
  group->setData(0, Qt::UserRole, title);
  return group;
}

/// "body" -> "Bodies", "joint" -> "Joints".
QString groupTitle(const std::string& scope) {
  QString s = QString::fromStdString(scope);
  if (s.isEmpty()) return s;
  s[0] = s[0].toUpper();
  return s.endsWith('y') ? s.chopped(1) + "ies" : s + "s";
}

std::string text(const FieldValue& v) {
  if (const auto* s = std::get_if<std::string>(&v)) return *s;
  if (const auto* d = std::get_if<double>(&v)) return QString::number(*d).toStdString();
  if (const auto* i = std::get_if<int>(&v)) return std::to_string(*i);
  return {};
}

/// The type column: the item's "type" field, else (groups of several kinds, such as bodies) the
/// first word of its kind's label, else its first choice field ("rotation"), else its label.
QString typeOf(const ItemDescription& d, const void* item, bool severalKinds) {
  if (const FieldDescription* f = d.field("type"); f && f->get) return QString::fromStdString(text(f->get(item)));
  if (severalKinds) return QString::fromStdString(d.label.substr(0, d.label.find(' '))).toLower();
  for (const FieldDescription& f : d.fields)
    if (f.type == FieldType::Enum && f.get && d.applies(f, item)) return QString::fromStdString(text(f.get(item)));
  return QString::fromStdString(d.label).toLower();
}

/// The tooltip: what the item refers to ("ground - crank") and its kind's help.
QString detailOf(const ItemDescription& d, const void* item) {
  QStringList refs;
  for (const FieldDescription& f : d.fields)
    if (f.type == FieldType::Reference && f.bodyKey.empty() && f.get && d.applies(f, item)) {
      const std::string value = text(f.get(item));
      if (!value.empty()) refs << QString::fromStdString(value);
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
}

void ModelTree::showModel(const ModelSpec& model) {
  clear();
  // one group per name scope of the model's item lists, in document order, from the item
  // descriptions: a kind registered later (couplings, contacts, beams) appears by itself
  const ItemDescription& top = modelDescription();
  std::map<std::string, int> kindsInScope;
  for (const FieldDescription& list : top.fields)
    if (list.type == FieldType::List && list.item && !list.item->nameScope.empty()) ++kindsInScope[list.item->nameScope];
  std::map<std::string, QTreeWidgetItem*> groups;
  std::map<std::string, int> counts;
  for (const FieldDescription& list : top.fields) {
    if (list.type != FieldType::List || !list.item || list.item->nameScope.empty()) continue;
    const ItemDescription& d = *list.item;
    QTreeWidgetItem*& group = groups[d.nameScope];
    if (!group) group = addGroup(this, groupTitle(d.nameScope));
    const FieldDescription* name = d.field("name");
    auto* doc = const_cast<ModelSpec*>(&model);  // the accessors take the document untyped
    for (std::size_t i = 0; i < list.count(&model); ++i) {
      const void* item = list.element(doc, i);
      auto* row = new QTreeWidgetItem(group, {QString::fromStdString(name ? text(name->get(item)) : std::string()),
                                              typeOf(d, item, kindsInScope[d.nameScope] > 1)});
      row->setToolTip(0, detailOf(d, item));
      ++counts[d.nameScope];
    }
  }
  for (const auto& [scope, group] : groups) group->setText(1, QString::number(counts[scope]));
  expandAll();
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
