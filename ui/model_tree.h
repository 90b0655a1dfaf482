// Outline of the model document, built from the item descriptions: the model's top level, one
// group per kind of item (bodies, joints, drivers, couplings, forces, sensors) with each item's
// type, and the simulation settings. Each row carries its item's id; selecting a row selects the
// item in the document, and the document's selection is shown here.
#pragma once

#include "ui/model_document.h"

#include <QTreeWidget>

#include <map>

namespace flexim::ui {

class ModelTree : public QTreeWidget {
  Q_OBJECT

 public:
  explicit ModelTree(QWidget* parent = nullptr);
  /// Shows the document and follows its changes and selection from now on.
  void setDocument(ModelDocument* document);
  /// Names listed under a group ("Bodies", "Joints", ...), in order; empty if no such group.
  QStringList itemNames(const QString& group) const;
  /// The row of an item (null if not shown).
  QTreeWidgetItem* rowOf(ItemId id) const;
  /// The validation errors marked on an item's row ("" when none).
  QString problemOf(ItemId id) const;

 private:
  void rebuild();
  void refreshRow(ItemId id);
  void fillRow(QTreeWidgetItem* row, ItemId id);
  /// Marks the rows of items that have a validation error (a flexible body whose file is
  /// missing, a reference to nothing) with a warning icon and the message as the tooltip.
  void markProblems();
  void showSelection(ItemId id);

  ModelDocument* m_document = nullptr;
  std::map<ItemId, QString> m_problems;
  bool m_updatingSelection = false;
};

}  // namespace flexim::ui
