// Read-only outline of a ModelSpec, built from the item descriptions: one group per kind of item
// (bodies, joints, drivers, couplings, forces, sensors) with each item's type.
#pragma once

#include "core/model/model.h"

#include <QTreeWidget>

namespace flexim::ui {

class ModelTree : public QTreeWidget {
  Q_OBJECT

 public:
  explicit ModelTree(QWidget* parent = nullptr);
  void showModel(const ModelSpec& model);
  /// Names listed under a group ("Bodies", "Joints", ...), in order; empty if no such group.
  QStringList itemNames(const QString& group) const;
};

}  // namespace flexim::ui
