// The Messages dock's content: diagnostics from loading, compiling and running, newest last.
#pragma once

#include "core/base/diagnostics.h"

#include <QTreeWidget>

namespace flexim::ui {

class MessagesPanel : public QTreeWidget {
  Q_OBJECT

 public:
  explicit MessagesPanel(QWidget* parent = nullptr);
  void add(Severity severity, const QString& where, const QString& message);
  void add(const Diagnostics& diagnostics);
  int count(Severity severity) const;
  /// Messages of at least the given severity as "where: severity: message" lines.
  QStringList lines(Severity minimum = Severity::Info) const;

 signals:
  /// A message was double-clicked: where it points (an item's JSON path, a file position).
  void whereActivated(const QString& where);
};

}  // namespace flexim::ui
