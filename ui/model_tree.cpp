#include "ui/model_tree.h"

#include <QHeaderView>

namespace flexim::ui {
namespace {

QTreeWidgetItem* addGroup(QTreeWidget* tree, const QString& title, std::size_t count) {
  auto* group = new QTreeWidgetItem(tree, {title, QString::number(count)});
  QFont bold = group->font(0);
  bold.setBold(true);
  group->setFont(0, bold);
  group->setData(0, Qt::UserRole, title);
  return group;
}

void addItem(QTreeWidgetItem* group, const std::string& name, const QString& type,
             const QString& detail = {}) {
  auto* item = new QTreeWidgetItem(group, {QString::fromStdString(name), type});
  if (!detail.isEmpty()) item->setToolTip(0, detail);
}

QString between(const std::string& body1, const std::string& body2) {
  return QString::fromStdString(body1 + " - " + body2);
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
  auto* bodies = addGroup(this, tr("Bodies"),
                         model.bodies.size() + model.flexible_bodies.size() + model.virtual_bodies.size());
  for (const RigidBodySpec& body : model.bodies)
    addItem(bodies, body.name, tr("rigid"),
            tr("mass %1 kg, %2 markers").arg(body.mass).arg(body.markers.size()));
  for (const FlexibleBodySpec& body : model.flexible_bodies)
    addItem(bodies, body.name, tr("flexible"),
            tr("%1, %2 modes").arg(QString::fromStdString(body.file))
                .arg(body.mode_count > 0 ? QString::number(body.mode_count) : tr("all")));
  for (const VirtualBodySpec& body : model.virtual_bodies)
    addItem(bodies, body.name, tr("virtual"),
            tr("on '%1', %2 markers").arg(QString::fromStdString(body.flexible_body)).arg(body.markers.size()));

  auto* joints = addGroup(this, tr("Joints"), model.joints.size());
  for (const JointSpec& joint : model.joints)
    addItem(joints, joint.name, QString::fromLatin1(toString(joint.type)),
            between(joint.body1, joint.body2));

  auto* drivers = addGroup(this, tr("Drivers"), model.drivers.size());
  for (const DriverSpec& driver : model.drivers) {
    const QString coordinate =
        driver.coordinate == DriverSpec::Coordinate::Rotation ? tr("rotation") : tr("translation");
    addItem(drivers, driver.name,
            coordinate + " (" + QString::fromLatin1(toString(driver.function.type)) + ")",
            tr("drives joint '%1'").arg(QString::fromStdString(driver.joint)));
  }

  auto* forces = addGroup(this, tr("Forces"), model.forces.size());
  for (const ForceSpec& force : model.forces)
    addItem(forces, force.name, QString::fromLatin1(toString(force.type)),
            between(force.body1, force.body2));

  auto* sensors = addGroup(this, tr("Sensors"), model.sensors.size());
  for (const SensorSpec& sensor : model.sensors)
    addItem(sensors, sensor.name, QString::fromLatin1(toString(sensor.type)));

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
