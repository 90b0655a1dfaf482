#include "ui/contact_dialog.h"

#include "core/model/body_table.h"
#include "core/model/description.h"
#include "ui/joint_dialog.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QKeyEvent>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>

#include <cmath>

namespace flexim::ui {

namespace {

QString text(const Vec3& v) {
  return QString("%1, %2, %3").arg(v.x(), 0, 'g', 10).arg(v.y(), 0, 'g', 10).arg(v.z(), 0, 'g', 10);
}

/// A line or a guide: its normal is the marker's y axis, its direction x.
bool alongLine(const std::string& kind) { return kind == "point_line" || kind == "translational_clearance"; }

}  // namespace

ContactDialog::ContactDialog(ModelDocument& document, const render::PickResult& lastPick, const std::string& body1,
                             const std::string& body2, QWidget* parent)
    : FormDialog(parent), m_document(document) {
  setWindowTitle(tr("Add contact at points"));
  setObjectName("contactDialog");
  QFormLayout* form = this->form();
  m_kind = new QComboBox(this);
  m_kind->setObjectName("kind");
  for (const ContactKindDescription& k : contactKinds()) {
    m_kind->addItem(QString::fromStdString(k.key));
    m_kind->setItemData(m_kind->count() - 1, QString::fromStdString(k.help), Qt::ToolTipRole);
  }
  form->addRow(tr("kind"), m_kind);
  m_name = new QLineEdit(QString::fromStdString(document.freeName(ModelDocument::kModelId, "contacts", "contact")), this);
  m_name->setObjectName("name");
  form->addRow(tr("name"), m_name);
  const QStringList bodies = markerBodyNames(document.model());
  const std::vector<JointPlace> places = jointPlaces(document.model(), lastPick);
  const auto placeCombo = [&](const char* name) {
    auto* combo = new QComboBox(this);
    combo->setObjectName(name);
    combo->addItem(tr("typed below"));
    for (const JointPlace& p : places) {
      combo->addItem(p.label);
      combo->setItemData(combo->count() - 1, p.detail, Qt::ToolTipRole);
    }
    return combo;
  };
  const auto edit = [&](const char* name, const Vec3& value, const QString& tip) {
    auto* e = new QLineEdit(text(value), this);
    e->setObjectName(name);
    e->setToolTip(tip);
    return e;
  };
  // body 1: the point
  m_body1 = new QComboBox(this);
  m_body1->setObjectName("body1");
  m_body1->addItems(bodies);
  m_body1->setCurrentText(QString::fromStdString(body1));
  form->addRow(tr("body 1 (the point)"), m_body1);
  m_pointFrom = placeCombo("pointFrom");
  form->addRow(tr("point at"), m_pointFrom);
  m_point = edit("point", Vec3::Zero(), tr("global x, y, z of the point, the sphere's or the slider's centre"));
  form->addRow(tr("point [m]"), m_point);
  // body 2: the surface
  m_body2 = new QComboBox(this);
  m_body2->setObjectName("body2");
  m_body2->addItems(bodies);
  m_body2->setCurrentText(QString::fromStdString(body2));
  form->addRow(tr("body 2 (the surface)"), m_body2);
  m_surfaceFrom = placeCombo("surfaceFrom");
  form->addRow(tr("surface at"), m_surfaceFrom);
  m_origin = edit("origin", Vec3::Zero(), tr("global x, y, z of a point of the plane, the line or the guide's axis"));
  form->addRow(tr("surface origin [m]"), m_origin);
  m_normal = edit("normal", Vec3::UnitZ(), tr("global direction the gap opens in: the plane's normal, across the line"));
  form->addRow(tr("normal"), m_normal);
  m_along = edit("along", Vec3::UnitX(), tr("global direction of the line or the guide"));
  form->addRow(tr("along"), m_along);
  m_friction = new QLineEdit("0", this);
  m_friction->setObjectName("friction");
  form->addRow(tr("friction μ"), m_friction);
  m_restitution = new QLineEdit("0", this);
  m_restitution->setObjectName("restitution");
  form->addRow(tr("restitution ε_N"), m_restitution);
  const auto fill = [places](int index, QLineEdit* origin, QLineEdit* axis) {
    if (index < 1 || std::size_t(index) > places.size()) return;
    const JointPlace& p = places[std::size_t(index - 1)];
    origin->setText(text(p.origin));
    if (axis) axis->setText(text(p.axis));
  };
  connect(m_pointFrom, &QComboBox::currentIndexChanged, this, [this, fill](int i) { fill(i, m_point, nullptr); });
  connect(m_surfaceFrom, &QComboBox::currentIndexChanged, this, [this, fill](int i) { fill(i, m_origin, m_normal); });
  const auto kindChanged = [this, form] { form->setRowVisible(m_along, alongLine(m_kind->currentText().toStdString())); };
  connect(m_kind, &QComboBox::currentIndexChanged, this, kindChanged);
  kindChanged();
  // the last pick is most often the surface (a face of the mesh, the floor's marker)
  if (!lastPick.item.empty()) m_surfaceFrom->setCurrentIndex(1);
  finishForm(480);
}

Mat3 ContactDialog::surfaceFrame(const Vec3& normal, const Vec3& along) const {
  const Vec3 n = normal.normalized();
  Vec3 x = along - along.dot(n) * n;
  if (x.norm() < 1e-9) x = Vec3::UnitX() - n.x() * n;
  if (x.norm() < 1e-9) x = Vec3::UnitY() - n.y() * n;
  x.normalize();
  Mat3 frame;
  if (alongLine(m_kind->currentText().toStdString()))
    frame << x, n, x.cross(n);  // x along, y the normal
  else
    frame << x, n.cross(x), n;  // z the normal
  return frame;
}

void ContactDialog::accept() {
  Vec3 point, origin, normal, along;
  if (!parseVector(m_point->text(), point)) return (void)refuse(tr("point: expected three numbers"));
  if (!parseVector(m_origin->text(), origin)) return (void)refuse(tr("surface origin: expected three numbers"));
  if (!parseVector(m_normal->text(), normal) || normal.norm() < 1e-12)
    return (void)refuse(tr("normal: expected three numbers, not all zero"));
  if (!parseVector(m_along->text(), along)) return (void)refuse(tr("along: expected three numbers"));
  const std::string body[2] = {m_body1->currentText().toStdString(), m_body2->currentText().toStdString()};
  if (body[0] == body[1]) return (void)refuse(tr("a body cannot touch itself: choose two bodies"));
  bool ok = false;
  ContactSpec contact;
  contact.friction = QLocale::c().toDouble(m_friction->text().trimmed(), &ok);
  if (!ok) return (void)refuse(tr("friction: expected a number"));
  contact.restitution = QLocale::c().toDouble(m_restitution->text().trimmed(), &ok);
  if (!ok) return (void)refuse(tr("restitution: expected a number"));
  contact.name = m_name->text().trimmed().toStdString();
  contact.type = ContactType(m_kind->currentText().toStdString());
  const Mat3 frame = surfaceFrame(normal, along);
  const std::string base = contact.name.empty() ? "contact" : contact.name + "_";
  // a marker on each body, then the contact: one undo step
  QUndoStack* undo = m_document.undoStack();
  undo->beginMacro(tr("Add contact '%1' between %2 and %3")
                       .arg(QString::fromStdString(contact.name), QString::fromStdString(body[0]),
                            QString::fromStdString(body[1])));
  QString error;
  contact.body1 = body[0];
  contact.marker1 = addMarkerAt(m_document, body[0], point, frame, base, error);
  contact.body2 = body[1];
  if (!contact.marker1.empty()) contact.marker2 = addMarkerAt(m_document, body[1], origin, frame, base, error);
  if (!contact.marker2.empty()) m_created = m_document.addItem(ModelDocument::kModelId, "contacts", &contact, {}, error);
  undo->endMacro();
  if (m_created == ModelDocument::kNoItem) {
    undo->undo();  // the markers added on the way go again
    refuse(error);
    return;
  }
  QDialog::accept();
}

}  // namespace flexim::ui
