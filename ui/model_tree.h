// Read-only outline of a ModelSpec: bodies, joints, drivers, forces and sensors with their types.
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
