#include "ui/messages_panel.h"

#include <QHeaderView>
#include <QStyle>
#include <QTime>

namespace flexim::ui {
namespace {

constexpr int kSeverityRole = Qt::UserRole;

QString severityName(Severity severity) {
  switch (severity) {
    case Severity::Info: return QObject::tr("info");
    case Severity::Warning: return QObject::tr("warning");
    case Severity::Error: return QObject::tr("error");
  }
  return {};
}

}  // namespace

MessagesPanel::MessagesPanel(QWidget* parent) : QTreeWidget(parent) {
  setColumnCount(4);
  setHeaderLabels({tr("Time"), tr("Severity"), tr("Where"), tr("Message")});
  setRootIsDecorated(false);
  setWordWrap(true);
  header()->setStretchLastSection(true);
  header()->setSectionResizeMode(0, QHeaderView::ResizeToContents);
  header()->setSectionResizeMode(1, QHeaderView::ResizeToContents);
  setToolTip(tr("Double-click a message to select the item it names"));
  connect(this, &QTreeWidget::itemDoubleClicked, this,
          [this](QTreeWidgetItem* item) { emit whereActivated(item->text(2)); });
}

void MessagesPanel::add(Severity severity, const QString& where, const QString& message) {
  auto* item = new QTreeWidgetItem(this, {QTime::currentTime().toString("HH:mm:ss"),
                                          severityName(severity), where, message});
  item->setData(0, kSeverityRole, int(severity));
  const QStyle::StandardPixmap icon = severity == Severity::Error     ? QStyle::SP_MessageBoxCritical
                                      : severity == Severity::Warning ? QStyle::SP_MessageBoxWarning
                                                                      : QStyle::SP_MessageBoxInformation;
  item->setIcon(1, style()->standardIcon(icon));
  item->setToolTip(3, message);
  scrollToItem(item);
}

void MessagesPanel::add(const Diagnostics& diagnostics) {
  for (const Diagnostic& d : diagnostics.items())
    add(d.severity, QString::fromStdString(d.where), QString::fromStdString(d.message));
}

int MessagesPanel::count(Severity severity) const {
  int n = 0;
  for (int i = 0; i < topLevelItemCount(); ++i)
    if (topLevelItem(i)->data(0, kSeverityRole).toInt() == int(severity)) ++n;
  return n;
}

QStringList MessagesPanel::lines(Severity minimum) const {
  QStringList result;
  for (int i = 0; i < topLevelItemCount(); ++i) {
    const QTreeWidgetItem* item = topLevelItem(i);
    if (item->data(0, kSeverityRole).toInt() < int(minimum)) continue;
    result << item->text(2) + ": " + item->text(1) + ": " + item->text(3);
  }
  return result;
}

}  // namespace flexim::ui
