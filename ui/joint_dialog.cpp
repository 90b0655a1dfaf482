#include "ui/joint_dialog.h"

#include "core/model/body_table.h"
#include "core/model/description.h"
#include "ui/virtual_body_placement.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QKeyEvent>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QRegularExpression>

#include <algorithm>
#include <cmath>

namespace flexim::ui {

bool initialBodyPose(const ModelSpec& model, const std::string& body, Vec3& position, Mat3& axes) {
  if (body == kGroundName) {
    position = Vec3::Zero();
    axes = Mat3::Identity();
    return true;
  }
  const BodyTable table(model);
  const int pose = table.poseNamed(body);
  if (pose < 0 || !table[pose].kind->carriesMarkers) return false;
  const BodyPose start = table.startPose(model, pose);
  position = start.position;
  axes = start.orientation.toRotationMatrix();
  return true;
}

namespace {

QString text(const Vec3& v) {
  return QString("%1, %2, %3").arg(v.x(), 0, 'g', 10).arg(v.y(), 0, 'g', 10).arg(v.z(), 0, 'g', 10);
}

}  // namespace

std::vector<JointPlace> jointPlaces(const ModelSpec& model, const render::PickResult& pick, QStringList* notes) {
  std::vector<JointPlace> places;
  if (!pick.item.empty()) {
    places.push_back({QObject::tr("the point clicked"), {}, pick.point, Vec3::UnitZ()});
    // on a flexible body: its node there and the fitted face or bore, at the start (undeformed)
    VirtualBodyPlacement at;
    std::string error;
    if (virtualBodyAt(model, pick, PlaceOn::Point, at, error)) {
      const FlexibleBodySpec* flexible = nullptr;
      for (const FlexibleBodySpec& f : model.flexible_bodies)
        if (f.name == at.body.flexible_body) flexible = &f;
      const Mat3 fe = flexible->orientation.normalized().toRotationMatrix();
      const auto& ids = flexible->data->node_ids;
      const auto node = std::find(ids.begin(), ids.end(), pick.node_id);
      if (node != ids.end())
        places.push_back({QObject::tr("FE node %1").arg(pick.node_id), QObject::tr("undeformed"),
                          flexible->position + fe * flexible->data->coords[std::size_t(node - ids.begin())], Vec3::UnitZ()});
      for (const auto& [on, what] : {std::pair{PlaceOn::Face, QObject::tr("face centre and normal")},
                                     std::pair{PlaceOn::Bore, QObject::tr("bore axis")}}) {
        if (!virtualBodyAt(model, pick, on, at, error)) {
          if (notes) *notes << QString::fromStdString(error);
          continue;
        }
        places.push_back({QObject::tr("%1 (fitted)").arg(what), QString::fromStdString(at.fit), flexible->position + fe * at.body.point, fe * (at.body.orientation * Vec3::UnitZ())});
      }
    }
  }
  // the markers, where they are at the start
  const auto addMarkers = [&](const std::string& body, const BodyPose& at, const std::vector<const MarkerSpec*>& markers) {
    for (const MarkerSpec* m : markers)
      places.push_back({QObject::tr("marker '%1' on %2").arg(QString::fromStdString(m->name), QString::fromStdString(body)), {},
                        at.position + at.orientation * m->position, at.orientation * (m->orientation.normalized() * Vec3::UnitZ())});
  };
  std::vector<const MarkerSpec*> ground;
  for (const MarkerSpec& m : model.ground_markers) ground.push_back(&m);
  addMarkers(kGroundName, BodyPose(), ground);
  const BodyTable table(model);
  for (const BodyEntry& body : table.entries())
    addMarkers(body.name, table.startPose(model, body.pose), table.markers(model, body.pose));
  // round-off of the fits and rotations (2e-16 beside 1) is not a coordinate anyone means
  const auto clean = [](Vec3& v) { v = v.unaryExpr([](double x) { return std::abs(x) < 1e-12 ? 0.0 : x; }); };
  for (JointPlace& p : places) {
    clean(p.origin);
    clean(p.axis);
  }
  return places;
}

JointDialog::JointDialog(ModelDocument& document, const render::PickResult& lastPick, const std::string& body1,
                         const std::string& body2, QWidget* parent)
    : FormDialog(parent), m_document(document) {
  setWindowTitle(tr("Add joint at a point"));
  setObjectName("jointDialog");
  QFormLayout* form = this->form();
  m_kind = new QComboBox(this);
  m_kind->setObjectName("kind");
  for (const JointKindDescription& k : jointKinds()) {
    m_kind->addItem(QString::fromStdString(k.key));
    m_kind->setItemData(m_kind->count() - 1, QString::fromStdString(k.help), Qt::ToolTipRole);
  }
  form->addRow(tr("kind"), m_kind);
  m_name = new QLineEdit(QString::fromStdString(document.freeName(ModelDocument::kModelId, "joints", "joint")), this);
  m_name->setObjectName("name");
  form->addRow(tr("name"), m_name);
  const QStringList bodies = markerBodyNames(document.model());
  m_body1 = new QComboBox(this);
  m_body1->setObjectName("body1");
  m_body1->addItems(bodies);
  m_body1->setCurrentText(QString::fromStdString(body1));
  form->addRow(tr("body 1"), m_body1);
  m_body2 = new QComboBox(this);
  m_body2->setObjectName("body2");
  m_body2->addItems(bodies);
  m_body2->setCurrentText(QString::fromStdString(body2));
  form->addRow(tr("body 2"), m_body2);
  // where it goes: typed, or from the last pick or a marker (the fields stay editable)
  QStringList notes;
  const std::vector<JointPlace> places = jointPlaces(document.model(), lastPick, &notes);
  m_from = new QComboBox(this);
  m_from->setObjectName("from");
  m_from->addItem(tr("typed below"));
  for (const JointPlace& p : places) {
    m_from->addItem(p.label);
    m_from->setItemData(m_from->count() - 1, p.detail, Qt::ToolTipRole);
  }
  m_from->setToolTip(notes.isEmpty() ? tr("where the origin and the z axis come from")
                                     : tr("where the origin and the z axis come from\n(not offered here: %1)").arg(notes.join("; ")));
  form->addRow(tr("at"), m_from);
  auto* detail = new QLabel(this);  // what the fit found, for the user to judge it
  detail->setObjectName("fromDetail");
  detail->setWordWrap(true);
  detail->setStyleSheet("color: #555;");
  form->addRow(QString(), detail);
  detail->hide();
  const Vec3 origin = places.empty() || lastPick.item.empty() ? Vec3::Zero() : places.front().origin;
  m_origin = new QLineEdit(text(origin), this);
  m_origin->setObjectName("origin");
  m_origin->setToolTip(tr("global x, y, z of the joint's origin"));
  form->addRow(tr("origin [m]"), m_origin);
  m_axis = new QLineEdit(text(Vec3::UnitZ()), this);
  m_axis->setObjectName("axis");
  m_axis->setToolTip(tr("global direction of the markers' z axis: the hinge or slide axis of the kind"));
  form->addRow(tr("z axis"), m_axis);
  if (!lastPick.item.empty()) m_from->setCurrentIndex(1);  // the point clicked
  connect(m_from, &QComboBox::currentIndexChanged, this, [this, places, detail](int index) {
    detail->setText(m_from->itemData(index, Qt::ToolTipRole).toString());
    detail->setVisible(!detail->text().isEmpty());
    if (index < 1 || std::size_t(index) > places.size()) return;
    const JointPlace& p = places[std::size_t(index - 1)];
    m_origin->setText(text(p.origin));
    m_axis->setText(text(p.axis));
  });
  // typing is a place of its own
  for (QLineEdit* edit : {m_origin, m_axis})
    connect(edit, &QLineEdit::textEdited, this, [this] {
      m_from->setCurrentIndex(0);  // nothing to fill in: the fields keep what is typed
    });
  finishForm(440);
}

QStringList markerBodyNames(const ModelSpec& model) {
  QStringList bodies{QString(kGroundName)};
  const BodyTable table(model);
  for (const BodyEntry& b : table.entries())
    if (b.kind->carriesMarkers) bodies << QString::fromStdString(b.name);
  return bodies;
}

bool parseVector(const QString& text, Vec3& out) {
  const QStringList parts = text.split(QRegularExpression("[,;\\s]+"), Qt::SkipEmptyParts);
  bool ok = parts.size() == 3;
  for (int i = 0; ok && i < 3; ++i) out[i] = QLocale::c().toDouble(parts[i], &ok);
  return ok && out.allFinite();
}

std::string addMarkerAt(ModelDocument& document, const std::string& body, const Vec3& origin, const Mat3& frame,
                        const std::string& base, QString& error) {
  Vec3 position;
  Mat3 axes;
  const ItemId holder = body == kGroundName ? document.itemAtPath("ground") : [&] {
    const BodyTable table(document.model());
    const int pose = table.poseNamed(body);
    return pose >= 0 && table[pose].kind->carriesMarkers ? document.findItem(table[pose].kind->listKey, body)
                                                         : ModelDocument::kNoItem;
  }();
  if (holder == ModelDocument::kNoItem || !initialBodyPose(document.model(), body, position, axes)) {
    error = QObject::tr("no body '%1'").arg(QString::fromStdString(body));
    return {};
  }
  MarkerSpec marker;
  marker.name = document.freeName(holder, "markers", base);
  marker.position = axes.transpose() * (origin - position);
  marker.orientation = Quat(axes.transpose() * frame).normalized();
  return document.addItem(holder, "markers", &marker, {}, error) != ModelDocument::kNoItem ? marker.name : std::string();
}

bool JointDialog::readVector(QLineEdit* edit, const QString& what, Vec3& out) {
  if (!parseVector(edit->text(), out)) {
    return refuse(tr("%1: expected three numbers").arg(what));
  }
  return true;
}

void JointDialog::accept() {
  Vec3 origin, axis;
  if (!readVector(m_origin, tr("origin"), origin) || !readVector(m_axis, tr("z axis"), axis)) return;
  if (axis.norm() < 1e-12) {
    refuse(tr("z axis: must not be zero"));
    return;
  }
  const std::string body[2] = {m_body1->currentText().toStdString(), m_body2->currentText().toStdString()};
  if (body[0] == body[1]) {
    refuse(tr("a body cannot be joined to itself: choose two bodies"));
    return;
  }
  const std::string name = m_name->text().trimmed().toStdString();
  const Mat3 frame = Quat::FromTwoVectors(Vec3::UnitZ(), axis.normalized()).toRotationMatrix();
  // a marker on each body at the joint frame, then the joint: one undo step
  QUndoStack* undo = m_document.undoStack();
  undo->beginMacro(tr("Add joint '%1' between %2 and %3")
                       .arg(QString::fromStdString(name), QString::fromStdString(body[0]), QString::fromStdString(body[1])));
  JointSpec joint;
  joint.name = name;
  joint.type = JointType(m_kind->currentText().toStdString());
  QString error;
  bool ok = true;
  for (int side = 0; side < 2 && ok; ++side) {
    const std::string marker = addMarkerAt(m_document, body[side], origin, frame, name.empty() ? "joint" : name + "_", error);
    ok = !marker.empty();
    (side == 0 ? joint.body1 : joint.body2) = body[side];
    (side == 0 ? joint.marker1 : joint.marker2) = marker;
  }
  if (ok) m_created = m_document.addItem(ModelDocument::kModelId, "joints", &joint, {}, error);
  undo->endMacro();
  if (m_created == ModelDocument::kNoItem) {
    undo->undo();  // the markers added on the way go again
    refuse(error);
    return;
  }
  QDialog::accept();
}

}  // namespace flexim::ui
