#include "ui/item_actions.h"

#include "ui/fe_import_wizard.h"
#include "ui/item_dialog.h"
#include "ui/beam_member_dialog.h"
#include "ui/contact_dialog.h"
#include "ui/joint_dialog.h"

#include "core/geometry/mass_properties.h"
#include "core/model/body_table.h"
#include "io/mesh/mesh_file.h"

#include <QAction>
#include <QClipboard>
#include <QGuiApplication>
#include <QMimeData>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QMenu>
#include <QMessageBox>
#include <QRegularExpression>
#include <QPushButton>
#include <QWidget>

#include <algorithm>
#include <cmath>

namespace flexim::ui {

ItemActions::ItemActions(ModelDocument* document, QWidget* window)
    : QObject(window), m_document(document), m_window(window) {
  m_addMenu = new QMenu(tr("&Add"), window);
  m_addMenu->setObjectName("menuAdd");
  // one entry per list of the model, from its description: a kind registered later appears here
  for (const FieldDescription& list : modelDescription().fields) {
    if (list.type != FieldType::List || !list.item || !list.insert) continue;
    const std::string key = list.key;
    QAction* a = m_addMenu->addAction(QString::fromStdString(list.item->label) + tr("…"), this,
                                      [this, key] { addWithDialog(ModelDocument::kModelId, key); });
    a->setObjectName(QString::fromStdString("actionAdd:" + key));
    a->setStatusTip(QString::fromStdString(list.item->help).remove(QLatin1Char('`')));
  }
  QAction* jointAtPoint = m_addMenu->addAction(tr("&Joint at a point…"), this, [this] { addJointAtPoint(); });
  jointAtPoint->setObjectName("actionAddJointAtPoint");
  jointAtPoint->setShortcut(QKeySequence(tr("Ctrl+J")));
  jointAtPoint->setStatusTip(tr("A joint between two bodies at a global point and axis: its two markers are made for you"));
  QAction* contactAtPoints = m_addMenu->addAction(tr("&Contact at points…"), this, [this] { addContactAtPoints(); });
  contactAtPoints->setObjectName("actionAddContactAtPoints");
  contactAtPoints->setStatusTip(
      tr("A contact between a point (or sphere) on one body and a surface of another, taken from the last click or a "
         "marker: its two markers are made for you"));
  QAction* beamMember = m_addMenu->addAction(tr("&Beam member…"), this, [this] { addBeamMember(); });
  beamMember->setObjectName("actionAddBeamMember");
  beamMember->setStatusTip(tr("A straight or curved member meshed into beam elements, clamped to the ground if asked: "
                              "its nodes (each with a marker 'm'), elements and joints are made for you"));
  QAction* sensorAtPick = m_addMenu->addAction(tr("&Sensor at the picked node or marker…"), this, [this] { addSensorAtPick(); });
  sensorAtPick->setObjectName("actionAddSensorAtPick");
  sensorAtPick->setShortcut(QKeySequence(tr("Ctrl+K")));
  sensorAtPick->setStatusTip(tr("Plot this point: a sensor on the FE node or marker last clicked, plotted on the next run"));
  // a virtual body placed on a flexible body's mesh by the next click in the view
  QMenu* place = m_addMenu->addMenu(tr("&Virtual body on the mesh"));
  place->setObjectName("menuPlaceVirtualBody");
  const auto placeAction = [this, place](const QString& text, PlaceOn on, const QString& name, const QString& prompt) {
    QAction* a = place->addAction(text, this, [this, on, prompt] {
      m_placing = on;
      emit placingChanged(true, prompt);
    });
    a->setObjectName(name);
    m_placeActions << a;
  };
  placeAction(tr("At the clicked &point"), PlaceOn::Point, "actionPlaceAtPoint",
              tr("Click on a flexible body: a virtual body goes there (Esc cancels)"));
  placeAction(tr("On a &bore axis"), PlaceOn::Bore, "actionPlaceOnBore",
              tr("Click inside a bore of a flexible body: a virtual body goes on its axis (Esc cancels)"));
  placeAction(tr("On a &face centre"), PlaceOn::Face, "actionPlaceOnFace",
              tr("Click on a flat face of a flexible body: a virtual body goes on its centre, z along its normal "
                 "(Esc cancels)"));
  QAction* fromMesh = m_addMenu->addAction(tr("Rigid body from a &CAD mesh…"), this, [this] {
    const QString file = QFileDialog::getOpenFileName(
        m_window, tr("Rigid body from a CAD mesh"), QFileInfo(m_document->path()).absolutePath(),
        tr("Meshes (*.stl *.obj *.ply *.gltf *.glb *.off *.3ds);;All files (*)"));
    if (!file.isEmpty()) addRigidBodyFromMesh(file);
  });
  fromMesh->setObjectName("actionAddRigidBodyFromMesh");
  fromMesh->setStatusTip(tr("Mass, centre of mass and inertia from a closed surface mesh and a density"));
  QAction* shape = m_addMenu->addAction(tr("Rigid body: &box, cylinder or sphere…"), this, [this] { addRigidBodyShape(); });
  shape->setObjectName("actionAddRigidBodyShape");
  shape->setStatusTip(tr("A body drawn as a primitive, its mass and inertia those of the solid of a density"));
  m_addMenu->addSeparator();
  m_addMarker = m_addMenu->addAction(tr("&Marker on the selected body…"), this, [this] {
    const ItemId holder = markerHolder();
    if (holder != ModelDocument::kNoItem) addWithDialog(holder, "markers");
  });
  m_addMarker->setObjectName("actionAdd:marker");
  m_addMarker->setShortcut(QKeySequence(tr("Ctrl+M")));

  m_importFe = new QAction(tr("&Import FE body…"), this);
  m_importFe->setObjectName("actionImportFe");
  m_importFe->setShortcut(QKeySequence(tr("Ctrl+I")));
  m_importFe->setStatusTip(tr("Reduce an FE mesh or deck (or open a .frb) and place it in the model as a flexible body"));
  connect(m_importFe, &QAction::triggered, this, [this] { importFeBody(); });

  m_duplicate = new QAction(tr("D&uplicate"), this);
  m_duplicate->setObjectName("actionDuplicate");
  m_duplicate->setShortcut(QKeySequence(tr("Ctrl+D")));
  connect(m_duplicate, &QAction::triggered, this, &ItemActions::duplicateSelected);
  m_copy = new QAction(tr("&Copy"), this);
  m_copy->setObjectName("actionCopy");
  m_copy->setShortcut(QKeySequence::Copy);
  m_copy->setStatusTip(tr("The selected item, with its markers, to paste into this model or another"));
  connect(m_copy, &QAction::triggered, this, &ItemActions::copySelected);
  m_paste = new QAction(tr("&Paste"), this);
  m_paste->setObjectName("actionPaste");
  m_paste->setShortcut(QKeySequence::Paste);
  m_paste->setStatusTip(tr("Adds the copied items; clashing names get a number, markers go on the selected body"));
  connect(m_paste, &QAction::triggered, this, &ItemActions::paste);
  m_delete = new QAction(tr("&Delete"), this);
  m_delete->setObjectName("actionDelete");
  m_delete->setShortcut(QKeySequence::Delete);
  connect(m_delete, &QAction::triggered, this, &ItemActions::deleteSelected);

  connect(m_document, &ModelDocument::selectionChanged, this, &ItemActions::updateEnabled);
  // the bodies selected last (in the tree or the view): a joint goes between the two
  connect(m_document, &ModelDocument::selectionChanged, this, [this] {
    const std::string body = jointBody(m_document->selected());
    if (!body.empty() && (m_selectedBodies.empty() || m_selectedBodies.back() != body)) {
      m_selectedBodies.push_back(body);
      if (m_selectedBodies.size() > 2) m_selectedBodies.erase(m_selectedBodies.begin());
    }
  });
  connect(m_document, &ModelDocument::modelReset, this, [this] {
    m_selectedBodies.clear();
    cancelPlacing();
    updateEnabled();
  });
  connect(m_document, &ModelDocument::itemsChanged, this, &ItemActions::updateEnabled);
  updateEnabled();
}

void ItemActions::setEditable(bool editable) {
  m_editable = editable;
  m_addMenu->setEnabled(editable);
  m_importFe->setEnabled(editable);
  if (!editable) cancelPlacing();
  updateEnabled();
}

ItemId ItemActions::markerHolder() const {
  ItemId id = m_document->selected();
  const ItemDescription* d = m_document->description(id);
  if (d && d->kind == "marker") id = m_document->parentOf(id);
  d = m_document->description(id);
  return d && d->field("markers") && d->field("markers")->type == FieldType::List ? id : ModelDocument::kNoItem;
}

void ItemActions::updateEnabled() {
  const ItemId id = m_document->selected();
  // list items can be duplicated and deleted; the model, ground and simulation cannot
  const bool listItem = id != ModelDocument::kNoItem && m_document->parentOf(id) != ModelDocument::kNoItem &&
                        m_document->description(id)->nameScope != "";
  m_duplicate->setEnabled(m_editable && listItem);
  m_copy->setEnabled(listItem);
  m_paste->setEnabled(m_editable);
  m_delete->setEnabled(m_editable && listItem);
  const ItemId holder = markerHolder();
  m_addMarker->setEnabled(m_editable && holder != ModelDocument::kNoItem);
  const bool flexible = !m_document->model().flexible_bodies.empty();
  for (QAction* a : m_placeActions) a->setEnabled(m_editable && flexible);
  m_addMarker->setText(holder == ModelDocument::kNoItem
                           ? tr("&Marker on the selected body…")
                           : tr("&Marker on %1…").arg(m_document->itemLabel(holder)));
}

void ItemActions::cancelPlacing() {
  if (!m_placing) return;
  m_placing.reset();
  emit placingChanged(false, {});
}

bool ItemActions::placeAt(const render::PickResult& pick, QString& message) {
  if (!m_placing) return false;
  VirtualBodyPlacement placement;
  std::string error;
  if (!virtualBodyAt(m_document->model(), pick, *m_placing, placement, error)) {
    message = QString::fromStdString(error);
    return false;
  }
  placement.body.name = m_document->freeName(ModelDocument::kModelId, "virtual_bodies", placement.body.flexible_body + "_vb");
  QString refused;
  const ItemId id = m_document->addItem(ModelDocument::kModelId, "virtual_bodies", &placement.body,
                                        tr("Place virtual body '%1' on %2")
                                            .arg(QString::fromStdString(placement.body.name),
                                                 QString::fromStdString(placement.body.flexible_body)),
                                        refused);
  if (id == ModelDocument::kNoItem) {
    message = refused;
    return false;
  }
  const Vec3& p = placement.body.point;
  // in mm to the micrometre: what a drawing gives, without round-off digits
  const auto mm = [](double v) { return QString::number(std::abs(v) < 5e-7 ? 0.0 : v * 1e3, 'f', 3); };
  message = tr("%1 placed at (%2, %3, %4) mm in the FE axes of '%5'")
                .arg(m_document->itemLabel(id), mm(p.x()), mm(p.y()), mm(p.z()),
                     QString::fromStdString(placement.body.flexible_body));
  if (!placement.fit.empty()) message += tr(", on the %1").arg(QString::fromStdString(placement.fit));
  cancelPlacing();
  return true;
}

ItemId ItemActions::addRigidBodyFromMesh(const QString& file) {
  // the density and the unit the mesh is drawn in; a mesh whose size is beyond 10 units is taken
  // to be in millimetres (what CAD programs write), which the user sees and may change
  geometry::TriangleMesh mesh;
  std::string readError;
  double size = 0;
  if (io::readTriangleMesh(file.toStdString(), mesh, readError) && !mesh.vertices.empty()) {
    Eigen::AlignedBox3d box;
    for (const auto& v : mesh.vertices) box.extend(v);
    size = box.diagonal().norm();
  }
  QDialog ask(m_window);
  ask.setObjectName("meshMassDialog");
  ask.setWindowTitle(tr("Rigid body from %1").arg(QFileInfo(file).fileName()));
  auto* form = new QFormLayout(&ask);
  auto* density = new QLineEdit("7850", &ask);
  density->setObjectName("density");
  density->setToolTip(tr("Steel 7850, aluminium 2700, titanium 4430 kg/m³"));
  form->addRow(tr("density [kg/m³]"), density);
  auto* unit = new QComboBox(&ask);
  unit->setObjectName("unit");
  const std::pair<const char*, double> units[] = {{"m", 1.0}, {"mm", 1e-3}, {"cm", 1e-2}, {"in", 0.0254}};
  for (const auto& [name, scale] : units) unit->addItem(name, scale);
  unit->setCurrentIndex(size > 10 ? 1 : 0);
  form->addRow(tr("mesh unit"), unit);
  if (size > 0)
    form->addRow(new QLabel(tr("The mesh is %1 units across.").arg(size, 0, 'g', 4), &ask));
  auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, &ask);
  connect(buttons, &QDialogButtonBox::accepted, &ask, &QDialog::accept);
  connect(buttons, &QDialogButtonBox::rejected, &ask, &QDialog::reject);
  form->addRow(buttons);
  if (ask.exec() != QDialog::Accepted) return ModelDocument::kNoItem;
  bool numeric = false;
  const double rho = QLocale::c().toDouble(density->text(), &numeric);
  if (!numeric || !(rho > 0)) {
    QMessageBox::warning(m_window, ask.windowTitle(), tr("density: must be a positive number"));
    return ModelDocument::kNoItem;
  }
  geometry::MassPropertiesOptions options;
  options.density = rho;
  options.scale = unit->currentData().toDouble();
  const geometry::MassPropertiesReport report = io::meshFileMassProperties(file.toStdString(), options);

  RigidBodySpec body;
  body.name = m_document->freeName(ModelDocument::kModelId, "bodies", QFileInfo(file).completeBaseName().toStdString());
  const QString modelDir = QFileInfo(m_document->path()).absolutePath();
  body.visual.file = (m_document->path().isEmpty() ? file : QDir(modelDir).relativeFilePath(file)).toStdString();
  body.visual.scale = options.scale;
  if (report.ok) {
    // the body frame at the centre of mass, its axes the mesh's: the mesh sits where it was drawn
    body.mass = report.properties.mass;
    body.inertia = report.properties.inertia;
    body.position = report.properties.centre;
    body.visual.position = -report.properties.centre;
    for (const std::string& w : report.warnings)
      QMessageBox::information(m_window, ask.windowTitle(), QString::fromStdString(w));
  } else if (QMessageBox::question(m_window, ask.windowTitle(),
                                   tr("%1\n\nAdd the body with this mesh and enter its mass properties by hand?")
                                       .arg(QString::fromStdString(report.error))) != QMessageBox::Yes) {
    return ModelDocument::kNoItem;
  }
  ItemDialog dialog(*m_document, ModelDocument::kModelId, "bodies", &body, m_window);
  dialog.exec();
  return dialog.created();
}

ItemId ItemActions::addRigidBodyShape() {
  QDialog ask(m_window);
  ask.setObjectName("shapeDialog");
  ask.setWindowTitle(tr("Rigid body: box, cylinder or sphere"));
  auto* form = new QFormLayout(&ask);
  auto* kind = new QComboBox(&ask);
  kind->setObjectName("shape");
  kind->addItems({"box", "cylinder", "sphere"});
  form->addRow(tr("shape"), kind);
  const auto field = [&](const QString& name, const QString& label, const QString& value, const QString& tip) {
    auto* edit = new QLineEdit(value, &ask);
    edit->setObjectName(name);
    edit->setToolTip(tip);
    form->addRow(label, edit);
    return edit;
  };
  QLineEdit* size = field("size", tr("edges [m]"), "0.2, 0.1, 0.05", tr("edge lengths along the body's x, y, z"));
  QLineEdit* radius = field("radius", tr("radius [m]"), "0.05", {});
  QLineEdit* length = field("length", tr("length [m]"), "0.2", tr("along the body's z axis"));
  QLineEdit* density = field("density", tr("density [kg/m³]"), "7850", tr("Steel 7850, aluminium 2700, titanium 4430 kg/m³"));
  auto* error = new QLabel(&ask);
  error->setObjectName("error");
  error->setStyleSheet("color: #b00020;");
  form->addRow(error);
  error->hide();
  const auto showFields = [=] {
    const QString s = kind->currentText();
    form->setRowVisible(size, s == "box");
    form->setRowVisible(radius, s != "box");
    form->setRowVisible(length, s == "cylinder");
  };
  connect(kind, &QComboBox::currentTextChanged, &ask, showFields);
  showFields();
  auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, &ask);
  form->addRow(buttons);
  connect(buttons, &QDialogButtonBox::rejected, &ask, &QDialog::reject);
  RigidBodySpec body;
  std::vector<double> values;  ///< density, then the dimensions, as read
  connect(buttons, &QDialogButtonBox::accepted, &ask, [&] {
    // every number positive; the solid's mass properties about its centre, the body's frame there
    values.clear();
    const auto read = [&](QLineEdit* edit, const QString& what, int count) {
      const QStringList parts = edit->text().split(QRegularExpression("[,;\\s]+"), Qt::SkipEmptyParts);
      bool ok = parts.size() == count;
      for (int i = 0; ok && i < count; ++i) {
        values.push_back(QLocale::c().toDouble(parts[i], &ok));
        ok = ok && values.back() > 0 && std::isfinite(values.back());
      }
      if (!ok) error->setText(tr("%1: expected %2 positive number(s)").arg(what).arg(count));
      error->setVisible(!ok);
      return ok;
    };
    const QString s = kind->currentText();
    if (!read(density, tr("density"), 1)) return;
    VisualSpec& v = body.visual;
    geometry::MassProperties solid;
    if (s == "box") {
      if (!read(size, tr("edges"), 3)) return;
      v.shape = VisualSpec::Shape::Box;
      v.size = Vec3(values[1], values[2], values[3]);
      solid = geometry::boxMassProperties(v.size, values[0]);
    } else if (s == "cylinder") {
      if (!read(radius, tr("radius"), 1) || !read(length, tr("length"), 1)) return;
      v.shape = VisualSpec::Shape::Cylinder;
      v.radius = values[1];
      v.length = values[2];
      solid = geometry::cylinderMassProperties(v.radius, v.length, values[0]);
    } else {
      if (!read(radius, tr("radius"), 1)) return;
      v.shape = VisualSpec::Shape::Sphere;
      v.radius = values[1];
      solid = geometry::sphereMassProperties(v.radius, values[0]);
    }
    body.mass = solid.mass;
    body.inertia = solid.inertia;
    ask.accept();
  });
  if (ask.exec() != QDialog::Accepted) return ModelDocument::kNoItem;
  body.name = m_document->freeName(ModelDocument::kModelId, "bodies", kind->currentText().toStdString());
  if (!m_lastPick.item.empty()) body.position = m_lastPick.point;  // where the user clicked last
  ItemDialog dialog(*m_document, ModelDocument::kModelId, "bodies", &body, m_window);
  dialog.exec();
  return dialog.created();
}

void ItemActions::copySelected() {
  QString error;
  const QString text = m_document->copyText({m_document->selected()}, error);
  if (text.isEmpty()) {
    QMessageBox::warning(m_window, tr("Copy"), error);
    return;
  }
  auto* data = new QMimeData;
  data->setData(kClipboardMime, text.toUtf8());
  data->setText(text);  // readable, and pasted from a text editor too
  QGuiApplication::clipboard()->setMimeData(data);
}

void ItemActions::paste() {
  const QMimeData* data = QGuiApplication::clipboard()->mimeData();
  const QString text = !data ? QString()
                       : data->hasFormat(kClipboardMime) ? QString::fromUtf8(data->data(kClipboardMime))
                                                         : data->text();
  if (text.trimmed().isEmpty()) return;
  // markers go on the selected body (or the body of a selected marker, or the ground)
  const ItemId holder = markerHolder();
  QString error;
  if (m_document->pasteText(text, holder, error).empty())
    QMessageBox::warning(m_window, tr("Paste"), tr("Nothing was pasted: %1").arg(error));
}

ItemId ItemActions::importFeBody() {
  const QString modelFolder = m_document->path().isEmpty() ? QString() : QFileInfo(m_document->path()).absolutePath();
  FeImportWizard wizard(modelFolder, m_window);
  if (wizard.exec() != QDialog::Accepted || !wizard.body()) return ModelDocument::kNoItem;
  emit diagnostics(wizard.diagnostics(), wizard.frbPath());
  FlexibleBodySpec body;
  const QString stem = QFileInfo(wizard.frbPath()).completeBaseName();
  // named after the file, numbered only when a body has that name
  body.name = stem.toStdString();
  if (BodyTable(m_document->model()).poseNamed(body.name) >= 0)
    body.name = m_document->freeName(ModelDocument::kModelId, "flexible_bodies", stem.toStdString());
  // relative to the model, as a model moved with its folder expects; absolute in an unsaved model
  body.file = (modelFolder.isEmpty() ? wizard.frbPath() : QDir(modelFolder).relativeFilePath(wizard.frbPath())).toStdString();
  if (!wizard.hasRigidModes() && !wizard.firstInterface().isEmpty()) {
    // a Craig–Bampton body has no rigid-body modes for mean axes: its frame rides on an interface
    body.reference = ReferenceFrame::Interface;
    body.reference_interface = wizard.firstInterface().toStdString();
  }
  body.data = wizard.body();
  ItemDialog dialog(*m_document, ModelDocument::kModelId, "flexible_bodies", &body, m_window);
  dialog.setWindowTitle(tr("Place flexible body '%1'").arg(QString::fromStdString(body.name)));
  dialog.exec();
  if (dialog.created() != ModelDocument::kNoItem) emit flexibleBodyImported(dialog.created());
  return dialog.created();
}

std::string ItemActions::jointBody(ItemId id) const {
  const ItemDescription* d = m_document->description(id);
  if (d && d->kind == "marker") id = m_document->parentOf(id);  // the body of a selected marker
  d = m_document->description(id);
  const BodyKindDescription* kind = d ? findBodyKind(d->listKey) : nullptr;
  if (kind && kind->carriesMarkers) return m_document->itemName(id);
  return id == m_document->itemAtPath("ground") ? std::string(kGroundName) : std::string();
}

ItemId ItemActions::addJointAtPoint() {
  // between the two bodies selected last (the ground and the one selected when there is one)
  std::vector<std::string> bodies;
  const BodyTable table(m_document->model());
  for (const std::string& b : m_selectedBodies) {
    const int pose = table.poseNamed(b);
    if (pose == -1 || (pose >= 0 && table[pose].kind->carriesMarkers)) bodies.push_back(b);
  }
  const std::string selected = jointBody(m_document->selected());
  if (!selected.empty() && (bodies.empty() || bodies.back() != selected)) bodies.push_back(selected);
  if (bodies.empty() && !m_document->model().bodies.empty()) bodies.push_back(m_document->model().bodies.front().name);
  const std::string body2 = bodies.empty() ? std::string() : bodies.back();
  const std::string body1 = bodies.size() >= 2 && selected == body2 ? bodies[bodies.size() - 2] : std::string(kGroundName);
  JointDialog dialog(*m_document, m_lastPick, body1, body2, m_window);
  dialog.exec();
  return dialog.created();
}

ItemId ItemActions::addContactAtPoints() {
  // the selected body carries the point, the ground (or the body selected before) the surface
  const std::string selected = jointBody(m_document->selected());
  std::string body1 = selected.empty() || selected == kGroundName ? std::string() : selected;
  if (body1.empty() && !m_document->model().bodies.empty()) body1 = m_document->model().bodies.front().name;
  ContactDialog dialog(*m_document, m_lastPick, body1, kGroundName, m_window);
  dialog.exec();
  return dialog.created();
}

ItemId ItemActions::addBeamMember() {
  BeamMemberDialog dialog(*m_document, m_lastPick, m_window);
  dialog.exec();
  return dialog.created();
}

ItemId ItemActions::addSensorAtPick() {
  SensorSpec sensor;
  const ItemId picked = m_lastPick.item.empty() ? ModelDocument::kNoItem : m_document->itemAtPath(m_lastPick.item);
  const ItemDescription* d = m_document->description(picked);
  if (d && d->kind == "flexible_body" && m_lastPick.node_id >= 0) {
    sensor.type = SensorSpec::Type::Node;
    sensor.body = m_document->itemName(picked);
    sensor.node = m_lastPick.node_id;
    sensor.quantities = {"position", "displacement"};
    sensor.name = m_document->freeName(ModelDocument::kModelId, "sensors", sensor.body + "_node" + std::to_string(sensor.node) + "_");
  } else if (d && d->kind == "marker") {
    const ItemId holder = m_document->parentOf(picked);
    sensor.type = SensorSpec::Type::Marker;
    sensor.body = m_document->itemName(holder).empty() ? std::string(kGroundName) : m_document->itemName(holder);
    sensor.marker = m_document->itemName(picked);
    sensor.quantities = {"position", "velocity"};
    sensor.name = m_document->freeName(ModelDocument::kModelId, "sensors", sensor.body + "_" + sensor.marker + "_");
  } else {
    QMessageBox::information(m_window, tr("Sensor at the picked point"),
                             tr("Click an FE node of a flexible body or a marker's triad in the view first."));
    return ModelDocument::kNoItem;
  }
  ItemDialog dialog(*m_document, ModelDocument::kModelId, "sensors", &sensor, m_window);
  dialog.exec();
  if (dialog.created() != ModelDocument::kNoItem)
    emit plotOnNextRun(QString::fromStdString(m_document->itemName(dialog.created())));
  return dialog.created();
}

ItemId ItemActions::addWithDialog(ItemId holder, const std::string& listKey) {
  ItemDialog dialog(*m_document, holder, listKey, nullptr, m_window);
  dialog.exec();
  return dialog.created();
}

void ItemActions::duplicateSelected() {
  const ItemId id = m_document->selected();
  QString error;
  if (m_document->duplicateItem(id, error) == ModelDocument::kNoItem)
    QMessageBox::warning(m_window, tr("Duplicate"), tr("%1 was not duplicated: %2").arg(m_document->itemLabel(id), error));
}

void ItemActions::deleteSelected() {
  const ItemId id = m_document->selected();
  if (id == ModelDocument::kNoItem) return;
  // what goes with it: the items that name it, and theirs (its own markers go without saying)
  std::vector<ItemId> remove{id};
  QStringList names;
  for (ItemId d : m_document->dependents(id)) {
    const ItemId holder = m_document->parentOf(d);
    // held by an item that goes (a body's markers): goes with it
    if (holder != ModelDocument::kModelId && std::find(remove.begin(), remove.end(), holder) != remove.end()) continue;
    remove.push_back(d);
    names << m_document->itemLabel(d);
  }
  if (!names.isEmpty()) {
    QMessageBox box(QMessageBox::Question, tr("Delete"),
                    tr("Deleting %1 also deletes what uses it:").arg(m_document->itemLabel(id)), QMessageBox::NoButton,
                    m_window);
    box.setObjectName("deleteDependentsBox");
    box.setInformativeText("• " + names.join("\n• "));
    QPushButton* all = box.addButton(tr("Delete all %1").arg(names.size() + 1), QMessageBox::DestructiveRole);
    box.addButton(QMessageBox::Cancel);
    box.setDefaultButton(QMessageBox::Cancel);
    box.exec();
    if (box.clickedButton() != static_cast<QAbstractButton*>(all)) return;
  }
  QString error;
  if (!m_document->removeItems(remove, error))
    QMessageBox::warning(m_window, tr("Delete"), tr("%1 was not deleted: %2").arg(m_document->itemLabel(id), error));
}

}  // namespace flexim::ui
