// Editing a model in the application with real widget events: a click
// in the model tree selects an item, its fields appear in the property panel, typing a value
// edits the model through one undoable command (the viewport redraws, the title gets its star),
// Ctrl+Z / Ctrl+Shift+Z undo and redo, an invalid value is refused in place with the JSON
// loader's message, and Ctrl+S writes a file that loads back with the edit. A click in the 3-D
// view picks the item under the mouse (and an FE node on a flexible body).
#include "io/model_json.h"
#include "render/model_scene.h"
#include "core/fe/reduced_body.h"
#include "render/flexible_surface.h"
#include "render/scene_framing.h"
#include "ui/main_window.h"
#include "ui/messages_panel.h"
#include "ui/mode_browser.h"
#include "ui/model_document.h"
#include "ui/model_tree.h"
#include "ui/plot_panel.h"
#include "ui/property_panel.h"
#include "ui/recovery.h"
#include "ui/item_actions.h"
#include "ui/item_dialog.h"
#include "ui/joint_dialog.h"
#include "ui/surface_format.h"
#include "ui/vtk_viewport.h"
#include "tests/ui/widget_events.h"

#include <QAction>
#include <QApplication>
#include <QCheckBox>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QPushButton>
#include <QTimer>
#include <QDir>
#include <QElapsedTimer>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QMessageBox>
#include <QPlainTextEdit>
#include <QSpinBox>
#include <QProcess>
#include <QProgressBar>
#include <QSignalSpy>
#include <QScrollArea>
#include <QTabWidget>
#include <QTableWidget>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QtTest>
#include <vtkActor.h>
#include <vtkCamera.h>
#include <vtkMatrix4x4.h>
#include <vtkMapper.h>
#include <vtkPolyData.h>
#include <vtkRenderer.h>

#include <cmath>
#include <memory>
#include <numbers>

using namespace flexim;
using namespace flexim::ui;

namespace {

const QString kSliderCrank = QStringLiteral(FLEXIM_SOURCE_DIR "/resources/examples/slider_crank_rigid.json");
const QString kFlexibleCrank = QStringLiteral(FLEXIM_SOURCE_DIR "/resources/examples/slider_crank_flexible.json");
const QString kRodBody = QStringLiteral(FLEXIM_SOURCE_DIR "/resources/examples/rod/rod_round_c3d10.frb");

}  // namespace

class EditingTest : public QObject {
  Q_OBJECT

 private slots:
  void init() {
    QVERIFY(m_dir.isValid());
    m_path = m_dir.filePath("model.json");
    QFile::remove(m_path);
    QVERIFY(QFile::copy(kSliderCrank, m_path));
    QFile::setPermissions(m_path, QFile::ReadOwner | QFile::WriteOwner);
    m_window = std::make_unique<MainWindow>();
    m_window->resize(1200, 800);
    m_window->show();
    QVERIFY(QTest::qWaitForWindowExposed(m_window.get()));
    // keyboard shortcuts go to the active window
    m_window->activateWindow();
    QVERIFY(QTest::qWaitForWindowActive(m_window.get()));
    QVERIFY(m_window->openModelFile(m_path));
  }
  void cleanup() {
    // nothing to ask at the end of a test
    if (m_window) m_window->document()->undoStack()->setClean();
    m_window.reset();
  }

  void clickInTreeShowsTheFields() {
    clickRow("crank");
    QCOMPARE(m_window->propertyPanel()->item(), m_window->document()->findItem("bodies", "crank"));
    QLineEdit* mass = field("mass");
    QVERIFY(mass);
    QCOMPARE(mass->text().toDouble(), m_window->model().bodies[0].mass);
    QTRY_COMPARE(m_window->dofText(), QString("0 DOF"));  // the slider-crank is driven: no freedom left
    // the joint kinds are a choice; a reference offers the model's bodies
    clickRow("crank_pivot");
    auto* type = m_window->propertyPanel()->findChild<QComboBox*>("field:type");
    QVERIFY(type);
    QCOMPARE(type->currentText(), QString("revolute"));
    auto* body = m_window->propertyPanel()->findChild<QComboBox*>("field:body1");
    QVERIFY(body);
    QVERIFY(body->findText("crank") >= 0 && body->findText("ground") >= 0);
  }

  /// The DOF count follows an edit: counted off the GUI thread, it arrives after the edit returns.
  /// Without its motor the slider-crank has one freedom; undone, none again.
  void dofCountFollowsAnEdit() {
    QTRY_COMPARE(m_window->dofText(), QString("0 DOF"));
    clickRow("motor");
    m_window->modelTree()->setFocus();
    QTest::keyClick(m_window->modelTree(), Qt::Key_Delete);
    QVERIFY(m_window->model().drivers.empty());
    QTRY_COMPARE(m_window->dofText(), QString("1 DOF"));
    QTest::keyClick(m_window.get(), Qt::Key_Z, Qt::ControlModifier);
    QCOMPARE(m_window->model().drivers.size(), std::size_t(1));
    QTRY_COMPARE(m_window->dofText(), QString("0 DOF"));
  }

  void typedValueIsOneUndoableEdit() {
    clickRow("crank");
    const double before = m_window->model().bodies[0].mass;
    const QString title = m_window->windowTitle();
    QCOMPARE(title, QString("model.json — Flexim"));
    type(field("mass"), "0.25");
    QCOMPARE(m_window->model().bodies[0].mass, 0.25);
    QCOMPARE(m_window->windowTitle(), QString("model.json* — Flexim"));
    auto* undo = m_window->findChild<QAction*>("actionUndo");
    QVERIFY2(undo->text().contains("crank") && undo->text().contains("mass"), qPrintable(undo->text()));

    QTest::keyClick(m_window.get(), Qt::Key_Z, Qt::ControlModifier);
    QCOMPARE(m_window->model().bodies[0].mass, before);
    QCOMPARE(field("mass")->text().toDouble(), before);
    QCOMPARE(m_window->windowTitle(), title);  // back to the file's state: clean
    QTest::keyClick(m_window.get(), Qt::Key_Z, Qt::ControlModifier | Qt::ShiftModifier);
    QCOMPARE(m_window->model().bodies[0].mass, 0.25);
    QCOMPARE(field("mass")->text().toDouble(), 0.25);
  }

  void editRedrawsTheViewportAtOnce() {
    clickRow("crank");
    const Vec3 before = m_window->scene().bodyPose(0).translation();
    QLineEdit* x = m_window->propertyPanel()->findChild<QLineEdit*>("field:position:0");
    QVERIFY(x);
    type(x, QString::number(before.x() + 0.5));
    const Vec3 after = m_window->scene().bodyPose(0).translation();
    QVERIFY2(std::abs(after.x() - before.x() - 0.5) < 1e-12, qPrintable(QString::number(after.x())));
    QCOMPARE(m_window->model().bodies[0].position.x(), before.x() + 0.5);
  }

  void invalidValueIsRefusedInPlace() {
    clickRow("crank");
    const double before = m_window->model().bodies[0].mass;
    const int commands = m_window->document()->undoStack()->count();
    type(field("mass"), "-1");
    // the loader's message, under the field; the model and the editor keep the old value
    QCOMPARE(m_window->propertyPanel()->fieldError("mass"), QString("bodies[0].mass: must be positive"));
    auto* error = m_window->propertyPanel()->findChild<QLabel*>("error:mass");
    QVERIFY(error && error->isVisible());
    QCOMPARE(m_window->model().bodies[0].mass, before);
    QCOMPARE(field("mass")->text().toDouble(), before);
    QCOMPARE(m_window->document()->undoStack()->count(), commands);
    type(field("mass"), "heavy");
    QCOMPARE(m_window->propertyPanel()->fieldError("mass"), QString("mass: expected a number"));
    // a good value clears the message
    type(field("mass"), "0.3");
    QVERIFY(m_window->propertyPanel()->fieldError("mass").isEmpty());
    QCOMPARE(m_window->model().bodies[0].mass, 0.3);
    // a name another body has: refused with the loader's duplicate-name message
    type(field("name"), "slider");
    QVERIFY2(m_window->propertyPanel()->fieldError("name").contains("slider"),
             qPrintable(m_window->propertyPanel()->fieldError("name")));
    QCOMPARE(m_window->model().bodies[0].name, std::string("crank"));
  }

  /// A sensor's quantities and components are ticked from the ones its type records, not typed:
  /// the list follows the ticks in the type's order, one undoable edit each; the components
  /// offered follow the quantities.
  void sensorQuantitiesAreTicked() {
    QTreeWidgetItem* sensor = test::treeRow(m_window->modelTree(), "slider", "Sensors");
    QVERIFY(sensor);
    clickRow(sensor);
    auto* orientation = m_window->propertyPanel()->findChild<QCheckBox*>("field:quantities:orientation");
    QVERIFY(orientation && !orientation->isChecked());
    QVERIFY(!m_window->propertyPanel()->findChild<QCheckBox*>("field:quantities:coordinate"));  // a joint's
    QVERIFY(!m_window->propertyPanel()->findChild<QCheckBox*>("field:components:w"));
    clickBox("field:quantities:orientation");
    QCOMPARE(m_window->model().sensors.at(0).quantities,
             (std::vector<std::string>{"position", "orientation", "velocity", "acceleration"}));
    // orientation brings its w component to the choice
    QTRY_VERIFY(m_window->propertyPanel()->findChild<QCheckBox*>("field:components:w"));
    clickBox("field:components:x");
    QCOMPARE(m_window->model().sensors.at(0).components, std::vector<std::string>{"x"});
    QTest::keyClick(m_window.get(), Qt::Key_Z, Qt::ControlModifier);
    QVERIFY(m_window->model().sensors.at(0).components.empty());
    QTest::keyClick(m_window.get(), Qt::Key_Z, Qt::ControlModifier);
    QCOMPARE(m_window->model().sensors.at(0).quantities,
             (std::vector<std::string>{"position", "velocity", "acceleration"}));
    // the last one cannot be unticked: a sensor records at least one quantity
    for (const char* q : {"velocity", "acceleration"}) clickBox(QString("field:quantities:") + q);
    QCOMPARE(m_window->model().sensors.at(0).quantities, std::vector<std::string>{"position"});
    clickBox("field:quantities:position");
    QCOMPARE(m_window->model().sensors.at(0).quantities, std::vector<std::string>{"position"});
    QVERIFY(m_window->propertyPanel()->findChild<QCheckBox*>("field:quantities:position")->isChecked());
    QVERIFY(!m_window->propertyPanel()->fieldError("quantities").isEmpty());
  }

  void choiceEditsByKeyboard() {
    clickRow("Simulation");
    auto* integrator = m_window->propertyPanel()->findChild<QComboBox*>("field:integrator");
    QVERIFY(integrator);
    const std::string before = toString(m_window->model().solver.integrator);
    QCOMPARE(integrator->currentText().toStdString(), before);
    integrator->setFocus();
    QTest::keyClick(integrator, integrator->currentIndex() + 1 < integrator->count() ? Qt::Key_Down : Qt::Key_Up);
    QVERIFY(toString(m_window->model().solver.integrator) != before);
    QCOMPARE(integrator->currentText().toStdString(), std::string(toString(m_window->model().solver.integrator)));
    QTest::keyClick(m_window.get(), Qt::Key_Z, Qt::ControlModifier);
    QCOMPARE(std::string(toString(m_window->model().solver.integrator)), before);
  }

  void renameShowsInTheTree() {
    clickRow("crank");
    type(field("name"), "lever");
    QVERIFY(m_window->modelTree()->itemNames("Bodies").contains("lever"));
    QVERIFY(m_window->propertyPanel()->findChild<QLabel*>("propertyTitle")->text().contains("lever"));
  }

  void saveWritesTheEditAndCleansTheTitle() {
    clickRow("crank");
    type(field("mass"), "0.25");
    QTest::keyClick(m_window.get(), Qt::Key_S, Qt::ControlModifier);
    QCOMPARE(m_window->windowTitle(), QString("model.json — Flexim"));
    ModelSpec reread;
    Diagnostics diag;
    QVERIFY2(io::loadModelFile(m_path.toStdString(), reread, diag), diag.str().c_str());
    QCOMPARE(reread.bodies[0].mass, 0.25);
    // undo after the save makes the document differ from the file again
    QTest::keyClick(m_window.get(), Qt::Key_Z, Qt::ControlModifier);
    QCOMPARE(m_window->windowTitle(), QString("model.json* — Flexim"));
  }

  /// A click in the view selects what is under the mouse, in the tree and the property panel,
  /// draws it highlighted, and reads out the FE node on a flexible body; a click on the
  /// background clears the selection.
  void clickInViewPicksAndSelects() {
    QVERIFY(m_window->openModelFile(kFlexibleCrank));
    VtkViewport* view = m_window->viewport();
    QApplication::processEvents();
    view->screenshot();  // one frame: the camera's aspect is the widget's
    const render::ModelScene& scene = m_window->scene();
    vtkActor* rod = scene.flexibleActor(0);
    QVERIFY(rod);
    clickAtWorld(rod->GetCenter());
    ModelDocument* doc = m_window->document();
    const ItemId rodId = doc->findItem("flexible_bodies", "rod");
    QCOMPARE(doc->selected(), rodId);
    QCOMPARE(m_window->propertyPanel()->item(), rodId);
    QVERIFY(m_window->modelTree()->rowOf(rodId)->isSelected());
    QVERIFY(scene.isHighlighted(rod));
    QVERIFY2(m_window->pickReadout().contains("node ") && m_window->pickReadout().contains("rod"),
             qPrintable(m_window->pickReadout()));
    // a rigid body, then the background (a corner of the view, above the floor)
    const ItemId crankId = doc->findItem("bodies", "crank");
    const auto crankActors = scene.actorsOf("bodies[0]");
    QVERIFY(!crankActors.empty());
    const Vec3 crankCentre = scene.bodyPose(0).translation();  // inside its box
    clickAtWorld(crankCentre.data());
    QCOMPARE(doc->selected(), crankId);
    QVERIFY(!scene.isHighlighted(rod));
    QVERIFY(scene.isHighlighted(crankActors.front()));
    QTest::mouseClick(view, Qt::LeftButton, {}, QPoint(view->width() - 5, 5));
    QCOMPARE(doc->selected(), ModelDocument::kNoItem);
    QVERIFY(!scene.isHighlighted(crankActors.front()));
    // and from the tree back into the view
    clickRow("rod");
    QVERIFY(scene.isHighlighted(rod));
  }

  /// Markers are rows under their body: a click shows their fields, an edit moves the triad in
  /// the view at once, a rename shows in the tree, and a click on the triad in the view selects
  /// the marker.
  void markersAreEditedAsItems() {
    ModelDocument* doc = m_window->document();
    const ItemId slider = doc->findItem("bodies", "slider");
    const ItemId centre = doc->itemAtPath("bodies[2].markers[0]");
    QCOMPARE(doc->parentOf(centre), slider);
    QTreeWidgetItem* row = m_window->modelTree()->rowOf(centre);
    QVERIFY(row);
    QCOMPARE(row->parent(), m_window->modelTree()->rowOf(slider));
    QCOMPARE(row->text(1), QString("marker"));
    clickRow(row);
    QCOMPARE(m_window->propertyPanel()->item(), centre);
    QCOMPARE(m_window->propertyPanel()->findChild<QLabel*>("propertyTitle")->text(), QString("marker 'center' on slider"));
    // moved half a metre off the body, sideways: the triad follows at once
    const render::ModelScene& scene = m_window->scene();
    // the triad's points in world axes: its origin, then the tips of its x, y and z axes
    const auto triadPoint = [&scene](int index) {
      const auto actors = scene.actorsOf("bodies[2].markers[0]");
      if (actors.size() != 1) return Vec3(Vec3::Constant(NAN));
      double p[4] = {0, 0, 0, 1}, world[4];
      vtkPolyData::SafeDownCast(actors.front()->GetMapper()->GetInput())->GetPoint(index, p);
      actors.front()->GetMatrix()->MultiplyPoint(p, world);
      return Vec3(world[0], world[1], world[2]);
    };
    const auto triadOrigin = [&triadPoint] { return triadPoint(0); };
    const Vec3 before = triadOrigin();
    QVERIFY(before.allFinite());
    const Vec3 position = m_window->model().bodies[2].markers[0].position;
    type(field("position:1"), QString::number(position.y() + 0.5));
    QCOMPARE(m_window->model().bodies[2].markers[0].position.y(), position.y() + 0.5);
    const Vec3 shift = scene.bodyPose(2).linear() * Vec3(0, 0.5, 0);
    QVERIFY2((triadOrigin() - before - shift).norm() < 1e-9, qPrintable(QString::number((triadOrigin() - before).y())));
    auto* undo = m_window->findChild<QAction*>("actionUndo");
    QVERIFY2(undo->text().contains("marker 'center' on slider"), qPrintable(undo->text()));
    // renamed: the row follows
    type(field("name"), "mid");
    QCOMPARE(row->text(0), QString("mid"));
    // the background first, then a click on the triad's x axis, off the body now (the body's
    // link to the marker runs along y)
    QTest::mouseClick(m_window->viewport(), Qt::LeftButton, {}, QPoint(m_window->viewport()->width() - 5, 5));
    QCOMPARE(doc->selected(), ModelDocument::kNoItem);
    QVERIFY((triadOrigin() - scene.bodyPose(2) * m_window->model().bodies[2].markers[0].position).norm() < 1e-12);
    const Vec3 onAxis = 0.4 * triadOrigin() + 0.6 * triadPoint(1);
    clickAtWorld(onAxis.data());
    QCOMPARE(doc->selected(), centre);
    QVERIFY(row->isSelected());
    QVERIFY(scene.isHighlighted(scene.actorsOf("bodies[2].markers[0]").front()));
  }

  /// Simulation > Solver settings (Ctrl+F5): the simulation's fields in a dialog; OK applies
  /// all changes as one undoable command, Cancel none, and a refused value is refused in place.
  void solverSettingsDialogIsOneUndoableEdit() {
    const SolverSpec before = m_window->model().solver;
    // Cancel: nothing changes
    QTimer::singleShot(0, this, [this] {
      auto* dialog = qobject_cast<ItemDialog*>(QApplication::activeModalWidget());
      QVERIFY(dialog);
      type(dialog->panel()->findChild<QLineEdit*>("field:t_end"), "0.5");
      QTest::keyClick(dialog, Qt::Key_Escape);
    });
    QTest::keyClick(m_window.get(), Qt::Key_F5, Qt::ControlModifier);
    QCOMPARE(m_window->model().solver.t_end, before.t_end);
    QCOMPARE(m_window->document()->undoStack()->count(), 0);
    m_window->activateWindow();  // the shortcut goes to the active window
    QVERIFY(QTest::qWaitForWindowActive(m_window.get()));
    // OK: end time and output interval together; a negative step refused in place first
    QString refused;
    QTimer::singleShot(0, this, [this, &refused] {
      auto* dialog = qobject_cast<ItemDialog*>(QApplication::activeModalWidget());
      QVERIFY(dialog);
      QCOMPARE(dialog->panel()->item(), ModelDocument::kSimulationId);
      type(dialog->panel()->findChild<QLineEdit*>("field:step"), "-0.001");
      refused = dialog->panel()->fieldError("step");

      type(dialog->panel()->findChild<QLineEdit*>("field:t_end"), "0.5");
      type(dialog->panel()->findChild<QLineEdit*>("field:output_interval"), "0.002");
      auto* ok = dialog->findChild<QDialogButtonBox*>()->button(QDialogButtonBox::Ok);
      QTest::mouseClick(ok, Qt::LeftButton);
    });
    QTest::keyClick(m_window.get(), Qt::Key_F5, Qt::ControlModifier);
    QVERIFY2(refused.contains("simulation.step") && refused.contains("negative"), qPrintable(refused));
    QCOMPARE(m_window->model().solver.t_end, 0.5);
    QCOMPARE(m_window->model().solver.output_interval, 0.002);
    QCOMPARE(m_window->model().solver.step, before.step);
    QCOMPARE(m_window->document()->undoStack()->count(), 1);
    QCOMPARE(m_window->document()->undoStack()->undoText(), QString("Solver settings"));
    QCOMPARE(m_window->windowTitle(), QString("model.json* — Flexim"));
    m_window->activateWindow();
    QVERIFY(QTest::qWaitForWindowActive(m_window.get()));
    QTest::keyClick(m_window.get(), Qt::Key_Z, Qt::ControlModifier);
    QCOMPARE(m_window->model().solver.t_end, before.t_end);
    QCOMPARE(m_window->model().solver.output_interval, before.output_interval);
  }

  /// Add > Rigid body: a dialog made from the description, a free name, typed values checked in
  /// place; OK adds the body (one undo step), selected and drawn; Ctrl+M adds a marker on it.
  void addItemsFromTheMenu() {
    const std::size_t bodies = m_window->model().bodies.size();
    QTimer::singleShot(0, this, [this] {
      auto* dialog = qobject_cast<ItemDialog*>(QApplication::activeModalWidget());
      QVERIFY(dialog);
      QCOMPARE(dialog->windowTitle(), QString("Add rigid body"));
      QCOMPARE(dialog->panel()->findChild<QLineEdit*>("field:name")->text(), QString("body1"));
      type(dialog->panel()->findChild<QLineEdit*>("field:mass"), "-2");
      QVERIFY2(dialog->panel()->fieldError("mass").contains("positive"), qPrintable(dialog->panel()->fieldError("mass")));
      type(dialog->panel()->findChild<QLineEdit*>("field:mass"), "2");
      type(dialog->panel()->findChild<QLineEdit*>("field:position:1"), "0.3");
      QTest::mouseClick(dialog->findChild<QDialogButtonBox*>()->button(QDialogButtonBox::Ok), Qt::LeftButton);
    });
    QMenu* add = m_window->findChild<QMenu*>("menuAdd");
    QVERIFY(add);
    add->findChild<QAction*>("actionAdd:bodies")->trigger();
    QCOMPARE(m_window->model().bodies.size(), bodies + 1);
    const RigidBodySpec& added = m_window->model().bodies.back();
    QCOMPARE(added.name, std::string("body1"));
    QCOMPARE(added.mass, 2.0);
    QCOMPARE(added.position.y(), 0.3);
    ModelDocument* doc = m_window->document();
    const ItemId id = doc->findItem("bodies", "body1");
    QCOMPARE(doc->selected(), id);
    QVERIFY(m_window->modelTree()->rowOf(id));
    QCOMPARE(m_window->scene().bodyPose(int(bodies)).translation().y(), 0.3);
    QCOMPARE(doc->undoStack()->undoText(), QString("Add rigid body 'body1'"));
    // a marker on the selected body, by its shortcut (in the active window)
    m_window->activateWindow();
    QVERIFY(QTest::qWaitForWindowActive(m_window.get()));
    QTimer::singleShot(0, this, [this] {
      auto* dialog = qobject_cast<ItemDialog*>(QApplication::activeModalWidget());
      QVERIFY(dialog);
      type(dialog->panel()->findChild<QLineEdit*>("field:position:0"), "0.05");
      QTest::mouseClick(dialog->findChild<QDialogButtonBox*>()->button(QDialogButtonBox::Ok), Qt::LeftButton);
    });
    QTest::keyClick(m_window.get(), Qt::Key_M, Qt::ControlModifier);
    QCOMPARE(m_window->model().bodies.back().markers.size(), std::size_t(1));
    QCOMPARE(m_window->model().bodies.back().markers[0].name, std::string("marker1"));
    QCOMPARE(m_window->model().bodies.back().markers[0].position.x(), 0.05);
    const ItemId marker = doc->selected();
    QCOMPARE(doc->parentOf(marker), id);
    QCOMPARE(m_window->modelTree()->rowOf(marker)->parent(), m_window->modelTree()->rowOf(id));
    // undo twice: as before
    m_window->activateWindow();
    QVERIFY(QTest::qWaitForWindowActive(m_window.get()));
    QTest::keyClick(m_window.get(), Qt::Key_Z, Qt::ControlModifier);
    QTest::keyClick(m_window.get(), Qt::Key_Z, Qt::ControlModifier);
    QCOMPARE(m_window->model().bodies.size(), bodies);
    QVERIFY(!m_window->modelTree()->rowOf(id));
    QCOMPARE(m_window->windowTitle(), QString("model.json — Flexim"));
  }

  /// Delete on a body that joints use: a box names them; "Delete all" removes the body with its
  /// joints as one undo step; Cancel removes nothing.
  void deleteNamesWhatDependsOnTheItem() {
    ModelDocument* doc = m_window->document();
    clickRow("rod");
    const std::size_t joints = m_window->model().joints.size();
    QString listed;
    const auto answer = [this, &listed](bool deleteAll) {
      QTimer::singleShot(0, this, [&listed, deleteAll] {
        auto* box = qobject_cast<QMessageBox*>(QApplication::activeModalWidget());
        QVERIFY(box);
        listed = box->informativeText();
        for (QAbstractButton* b : box->buttons())
          if (b->text().startsWith("Delete all") == deleteAll && (deleteAll || box->buttonRole(b) == QMessageBox::RejectRole)) {
            QTest::mouseClick(b, Qt::LeftButton);
            return;
          }
      });
    };
    m_window->modelTree()->setFocus();
    answer(false);
    QTest::keyClick(m_window->modelTree(), Qt::Key_Delete);
    QVERIFY2(listed.contains("joint 'crank_pin'") && listed.contains("joint 'wrist_pin'"), qPrintable(listed));
    QVERIFY2(!listed.contains("marker"), qPrintable(listed));  // its own markers go without saying
    QCOMPARE(m_window->model().bodies.size(), std::size_t(3));
    answer(true);
    QTest::keyClick(m_window->modelTree(), Qt::Key_Delete);
    QCOMPARE(m_window->model().bodies.size(), std::size_t(2));
    QCOMPARE(m_window->model().joints.size(), joints - 2);
    QCOMPARE(doc->findItem("bodies", "rod"), ModelDocument::kNoItem);
    QVERIFY(m_window->modelTree()->findItems("rod", Qt::MatchExactly | Qt::MatchRecursive).isEmpty());
    QCOMPARE(doc->undoStack()->undoText(), QString("Delete 3 items"));
    doc->undoStack()->undo();
    QCOMPARE(m_window->model().bodies.size(), std::size_t(3));
    QCOMPARE(m_window->model().joints.size(), joints);
    QVERIFY(!m_window->modelTree()->findItems("rod", Qt::MatchExactly | Qt::MatchRecursive).isEmpty());
  }

  /// Add > Virtual body on the mesh: the next click on the flexible body places one — at the
  /// point, or on the axis of the cylinder clicked (fitted); the solver's node triangle is
  /// reported in Messages; Esc cancels; one undo step.
  void virtualBodyPlacedByClicking() {
    QVERIFY(m_window->openModelFile(kFlexibleCrank));
    ModelDocument* doc = m_window->document();
    const render::ModelScene& scene = m_window->scene();
    const std::size_t before = m_window->model().virtual_bodies.size();
    const Vec3 centre(scene.flexibleActor(0)->GetCenter());
    QMenu* place = m_window->findChild<QMenu*>("menuPlaceVirtualBody");
    QVERIFY(place);
    // Esc cancels: a click then selects as usual
    place->findChild<QAction*>("actionPlaceAtPoint")->trigger();
    QCOMPARE(m_window->viewport()->cursor().shape(), Qt::CrossCursor);
    QTest::keyClick(m_window.get(), Qt::Key_Escape);
    clickAtWorld(centre.data());
    QCOMPARE(m_window->model().virtual_bodies.size(), before);
    QCOMPARE(doc->selected(), doc->findItem("flexible_bodies", "rod"));
    // at the clicked point (on the surface, in the FE axes of the undeformed rod)
    place->findChild<QAction*>("actionPlaceAtPoint")->trigger();
    clickAtWorld(centre.data());
    QCOMPARE(m_window->model().virtual_bodies.size(), before + 1);
    const VirtualBodySpec atPoint = m_window->model().virtual_bodies.back();
    QCOMPARE(atPoint.flexible_body, std::string("rod"));
    QCOMPARE(atPoint.name, std::string("rod_vb1"));
    QVERIFY2(std::abs(atPoint.point.x() - 0.15) < 0.01, qPrintable(QString::number(atPoint.point.x())));
    QVERIFY2(std::abs(atPoint.point.tail<2>().norm() - 0.003) < 1e-4, qPrintable(QString::number(atPoint.point.tail<2>().norm())));
    QCOMPARE(doc->selected(), doc->findItem("virtual_bodies", "rod_vb1"));
    QApplication::processEvents();
    QVERIFY(field("name"));
    QCOMPARE(field("name")->text(), QString("rod_vb1"));
    QCOMPARE(m_window->viewport()->cursor().shape() == Qt::CrossCursor, false);
    // on the axis of the rod's cylinder (r = 3 mm along x): centre on the axis, z along it
    // (clicked away from the first one's glyph, over a point of the axis)
    const FlexibleBodySpec& rod = m_window->model().flexible_bodies[0];
    const Vec3 onRod = rod.position + rod.orientation * Vec3(0.09, 0, 0);
    place->findChild<QAction*>("actionPlaceOnBore")->trigger();
    clickAtWorld(onRod.data());
    QCOMPARE(m_window->model().virtual_bodies.size(), before + 2);
    const VirtualBodySpec onAxis = m_window->model().virtual_bodies.back();
    QVERIFY2(onAxis.point.tail<2>().norm() < 1e-9, qPrintable(QString::number(onAxis.point.tail<2>().norm())));
    QVERIFY2(std::abs(onAxis.point.x() - 0.15) < 1e-9, qPrintable(QString::number(onAxis.point.x())));
    const Vec3 z = onAxis.orientation.toRotationMatrix().col(2);
    QVERIFY2(std::abs(std::abs(z.x()) - 1.0) < 1e-9, qPrintable(QString::number(z.x())));
    const QString messages = m_window->messages()->lines().join("\n");
    QVERIFY2(messages.contains("r = 3") && messages.contains("on nodes k = "), qPrintable(messages));
    QCOMPARE(doc->undoStack()->undoText(), QString("Place virtual body 'rod_vb2' on rod"));
    doc->undoStack()->undo();
    QCOMPARE(m_window->model().virtual_bodies.size(), before + 1);
  }

  /// Add > Rigid body from a CAD mesh: the box fixture in millimetres (taken as mm: it is 3750
  /// units across), density typed; mass, centre and inertia match the box's closed forms, the
  /// mesh becomes the body's visual; an open mesh is refused with the reason.
  void rigidBodyFromAMesh() {
    const QString box = QStringLiteral(FLEXIM_SOURCE_DIR "/tests/data/meshes/box_mm.stl");
    const std::size_t bodies = m_window->model().bodies.size();
    QString unit;
    QTimer::singleShot(0, this, [this, &unit] {
      auto* ask = qobject_cast<QDialog*>(QApplication::activeModalWidget());
      QVERIFY(ask && ask->objectName() == "meshMassDialog");
      unit = ask->findChild<QComboBox*>("unit")->currentText();
      auto* density = ask->findChild<QLineEdit*>("density");
      density->selectAll();
      QTest::keyClicks(density, "1000");
      // then the new body's own dialog: OK
      QTimer::singleShot(0, this, [] {
        auto* dialog = qobject_cast<ItemDialog*>(QApplication::activeModalWidget());
        QVERIFY(dialog);
        QTest::mouseClick(dialog->findChild<QDialogButtonBox*>()->button(QDialogButtonBox::Ok), Qt::LeftButton);
      });
      QTest::mouseClick(ask->findChild<QDialogButtonBox*>()->button(QDialogButtonBox::Ok), Qt::LeftButton);
    });
    ItemActions* actions = m_window->findChild<ItemActions*>();
    QVERIFY(actions);
    actions->addRigidBodyFromMesh(box);
    QCOMPARE(unit, QString("mm"));
    QCOMPARE(m_window->model().bodies.size(), bodies + 1);
    const RigidBodySpec& b = m_window->model().bodies.back();
    QCOMPARE(b.name, std::string("box_mm1"));
    // the box of scripts/make_mesh_fixtures.py: 3 x 1.5 x 0.75 m along the columns of R
    Mat3 R;
    R << 2, -1, 2, 2, 2, -1, -1, 2, 2;
    R /= 3.0;
    const double mass = 1000 * 3 * 1.5 * 0.75;
    const Vec3 moments = mass / 12 * Vec3(1.5 * 1.5 + 0.75 * 0.75, 3 * 3 + 0.75 * 0.75, 3 * 3 + 1.5 * 1.5);
    const Mat3 inertia = R * moments.asDiagonal() * R.transpose();
    const Vec3 centre(1000.5, -250.25, 40.125);
    QVERIFY2(std::abs(b.mass / mass - 1) < 1e-9, qPrintable(QString::number(b.mass, 'g', 15)));
    QVERIFY2((b.position - centre).norm() < 1e-9 * centre.norm(), qPrintable(QString::number((b.position - centre).norm())));
    QVERIFY2((b.inertia - inertia).norm() < 1e-9 * inertia.norm(), qPrintable(QString::number((b.inertia - inertia).norm())));
    QCOMPARE(b.visual.scale, 1e-3);
    QVERIFY((b.visual.position + centre).norm() < 1e-9 * centre.norm());
    QVERIFY2(QString::fromStdString(b.visual.file).endsWith("box_mm.stl"), b.visual.file.c_str());
    // an open mesh: the reason, and No adds nothing
    QString reason;
    QTimer::singleShot(0, this, [this, &reason] {
      auto* ask = qobject_cast<QDialog*>(QApplication::activeModalWidget());
      QVERIFY(ask);
      QTimer::singleShot(0, this, [&reason] {
        auto* box = qobject_cast<QMessageBox*>(QApplication::activeModalWidget());
        QVERIFY(box);
        reason = box->text();
        QTest::mouseClick(box->button(QMessageBox::No), Qt::LeftButton);
      });
      QTest::mouseClick(ask->findChild<QDialogButtonBox*>()->button(QDialogButtonBox::Ok), Qt::LeftButton);
    });
    actions->addRigidBodyFromMesh(QStringLiteral(FLEXIM_SOURCE_DIR "/tests/data/meshes/box_open.stl"));
    QVERIFY2(reason.contains("boundary") || reason.contains("open"), qPrintable(reason));
    QCOMPARE(m_window->model().bodies.size(), bodies + 1);
  }

  /// Autosave writes the unsaved model to this session's recovery file; a file left by a session
  /// that ended without saving is offered at the next start and opens as unsaved changes to the
  /// same model file; a save removes the session's file.
  void autosaveAndRecovery() {
    clickRow("crank");
    type(field("mass"), "0.25");
    Recovery* recovery = m_window->recovery();
    QVERIFY(recovery->autosave());
    QVERIFY(QFile::exists(recovery->file()));
    // the session "crashes": its file stays behind under a process id that is not running
    const QString left = QDir(Recovery::folder()).filePath("session-999999999.json");
    QFile::remove(left);
    QFile::remove(left + ".origin");
    QVERIFY(QFile::copy(recovery->file(), left));
    QVERIFY(QFile::copy(recovery->file() + ".origin", left + ".origin"));
    // saved: nothing of this session to recover
    QTest::keyClick(m_window.get(), Qt::Key_S, Qt::ControlModifier);
    QVERIFY(!m_window->document()->isDirty());
    QVERIFY(!QFile::exists(recovery->file()));
    // the next start
    MainWindow next;
    next.resize(1000, 700);
    next.show();
    QVERIFY(QTest::qWaitForWindowExposed(&next));
    QString text;
    test::acceptRecoveryBoxWhenShown(this, &text);
    next.offerRecovery();
    QVERIFY2(text.contains("model.json"), qPrintable(text));
    QCOMPARE(next.model().bodies[0].mass, 0.25);
    QVERIFY(next.document()->isDirty());
    QCOMPARE(QFileInfo(next.document()->path()).canonicalFilePath(), QFileInfo(m_path).canonicalFilePath());
    QVERIFY(!QFile::exists(left));
    next.document()->undoStack()->setClean();
  }

  /// Add > Joint at a point (Ctrl+J): kind, bodies, origin and axis in global coordinates (the
  /// origin from the last click in the view); OK makes a marker on each body at that frame and
  /// the joint, one undo step; the markers' global frames coincide.
  void jointAtAPoint() {
    ModelDocument* doc = m_window->document();
    const Vec3 sliderAt = m_window->scene().bodyPose(2).translation();
    clickAtWorld(sliderAt.data());  // the picked point (on the rail joint's glyph there)
    clickRow("slider");
    const std::size_t joints = m_window->model().joints.size();
    const Vec3 origin(0.4, 0.05, 0.0);
    QTimer::singleShot(0, this, [this, origin, sliderAt] {
      auto* dialog = qobject_cast<JointDialog*>(QApplication::activeModalWidget());
      QVERIFY(dialog);
      QCOMPARE(dialog->findChild<QComboBox*>("body1")->currentText(), QString("ground"));
      QCOMPARE(dialog->findChild<QComboBox*>("body2")->currentText(), QString("slider"));
      std::vector<double> picked;
      for (const QString& x : dialog->findChild<QLineEdit*>("origin")->text().split(',')) picked.push_back(x.toDouble());
      QCOMPARE(picked.size(), std::size_t(3));
      QVERIFY((Vec3(picked[0], picked[1], picked[2]) - sliderAt).norm() < 0.05);
      dialog->findChild<QComboBox*>("kind")->setCurrentText("cylindrical");
      auto* at = dialog->findChild<QLineEdit*>("origin");
      at->selectAll();
      QTest::keyClicks(at, QString("%1, %2, %3").arg(origin.x()).arg(origin.y()).arg(origin.z()));
      auto* axis = dialog->findChild<QLineEdit*>("axis");
      axis->selectAll();
      QTest::keyClicks(axis, "1, 0, 0");
      QTest::mouseClick(dialog->findChild<QDialogButtonBox*>()->button(QDialogButtonBox::Ok), Qt::LeftButton);
    });
    QTest::keyClick(m_window.get(), Qt::Key_J, Qt::ControlModifier);
    QCOMPARE(m_window->model().joints.size(), joints + 1);
    const JointSpec& joint = m_window->model().joints.back();
    QCOMPARE(joint.name, std::string("joint1"));
    QCOMPARE(joint.type.key(), std::string("cylindrical"));
    QCOMPARE(joint.body1, std::string("ground"));
    QCOMPARE(joint.body2, std::string("slider"));
    // both markers' global frames: the origin, z along global x
    for (const auto& [body, marker] : {std::pair(joint.body1, joint.marker1), std::pair(joint.body2, joint.marker2)}) {
      Vec3 position;
      Mat3 axes;
      QVERIFY(initialBodyPose(m_window->model(), body, position, axes));
      const std::vector<MarkerSpec>& markers =
          body == "ground" ? m_window->model().ground_markers : m_window->model().bodies[2].markers;
      const auto it = std::find_if(markers.begin(), markers.end(), [&](const MarkerSpec& m) { return m.name == marker; });
      QVERIFY(it != markers.end());
      QVERIFY((position + axes * it->position - origin).norm() < 1e-12);
      QVERIFY(((axes * it->orientation.toRotationMatrix()).col(2) - Vec3::UnitX()).norm() < 1e-12);
    }
    QVERIFY2(doc->undoStack()->undoText().startsWith("Add joint 'joint1'"), qPrintable(doc->undoStack()->undoText()));
    doc->undoStack()->undo();
    QCOMPARE(m_window->model().joints.size(), joints);
    QCOMPARE(m_window->model().ground_markers.size(), std::size_t(2));
  }

  /// Simulation > Check model (F7): the check's summary and messages, each at its item's path (a
  /// body not connected to ground is named, and its message selects it).
  void checkModelNamesTheItems() {
    QVERIFY(m_window->openModelFile(kFlexibleCrank));
    m_window->activateWindow();
    QVERIFY(QTest::qWaitForWindowActive(m_window.get()));
    QTest::keyClick(m_window.get(), Qt::Key_F7);
    QString all = m_window->messages()->lines().join("\n");
    QVERIFY2(all.contains("Model check: 0 error(s), 0 warning(s), 8 degrees of freedom"), qPrintable(all));
    QVERIFY2(all.contains("virtual_bodies[0]") && all.contains("on nodes k = "), qPrintable(all));
    // a loose body: a warning at its path
    RigidBodySpec loose;
    loose.name = "loose";
    QString error;
    QVERIFY(m_window->document()->addItem(ModelDocument::kModelId, "bodies", &loose, "Add", error) != ModelDocument::kNoItem);
    QTest::keyClick(m_window.get(), Qt::Key_F7);
    const QStringList warnings = m_window->messages()->lines(Severity::Warning);
    QVERIFY2(std::any_of(warnings.begin(), warnings.end(),
                         [](const QString& l) { return l.startsWith("bodies[2]") && l.contains("ground"); }),
             qPrintable(warnings.join("\n")));
  }

  /// Plot this point: click an FE node of the rod, Add > Sensor at the picked node (Ctrl+K), OK;
  /// the new node sensor's channels are in a plot of their own as soon as the next run starts.
  void sensorAtThePickedNodeIsPlottedOnTheNextRun() {
    QVERIFY(m_window->openModelFile(kFlexibleCrank));
    const FlexibleBodySpec& rod = m_window->model().flexible_bodies[0];
    const Vec3 onRod = rod.position + rod.orientation * Vec3(0.2, 0, 0);
    clickAtWorld(onRod.data());
    const int node = m_window->pickReadout().section("node ", 1).section(' ', 0, 0).toInt();
    QVERIFY2(node > 0, qPrintable(m_window->pickReadout()));
    const std::size_t sensors = m_window->model().sensors.size();
    QTimer::singleShot(0, this, [] {
      auto* dialog = qobject_cast<ItemDialog*>(QApplication::activeModalWidget());
      QVERIFY(dialog);
      QTest::mouseClick(dialog->findChild<QDialogButtonBox*>()->button(QDialogButtonBox::Ok), Qt::LeftButton);
    });
    m_window->activateWindow();
    QVERIFY(QTest::qWaitForWindowActive(m_window.get()));
    QTest::keyClick(m_window.get(), Qt::Key_K, Qt::ControlModifier);
    QCOMPARE(m_window->model().sensors.size(), sensors + 1);
    const SensorSpec& sensor = m_window->model().sensors.back();
    QCOMPARE(sensor.type, SensorSpec::Type::Node);
    QCOMPARE(sensor.body, std::string("rod"));
    QCOMPARE(sensor.node, node);
    const QString name = QString::fromStdString(sensor.name);
    QTest::keyClick(m_window.get(), Qt::Key_F5);
    QTRY_VERIFY_WITH_TIMEOUT(
        [&] {
          for (const QStringList& tab : m_window->plotPanel()->plotLayout())
            if (tab.contains(name + ".displacement.y")) return true;
          return false;
        }(),
        10000);
    QTest::keyClick(m_window.get(), Qt::Key_F5, Qt::ShiftModifier);  // no need to finish it
    QTRY_VERIFY_WITH_TIMEOUT(!m_window->isRunning(), 20000);
  }

  /// The mouse resting over an item outlines it (what a click would pick) and names it in the
  /// tool tip; over the background, nothing.
  void hoverOutlinesTheItemUnderTheMouse() {
    QVERIFY(m_window->openModelFile(kFlexibleCrank));
    VtkViewport* view = m_window->viewport();
    const render::ModelScene& scene = m_window->scene();
    QTest::mouseMove(view, widgetPointOf(scene.flexibleActor(0)->GetCenter()));
    QTRY_COMPARE(scene.hovered(), std::string("flexible_bodies[0]"));
    QVERIFY(view->toolTip().contains("rod"));
    QCOMPARE(m_window->document()->selected(), ModelDocument::kNoItem);  // hovering selects nothing
    QTest::mouseMove(view, QPoint(view->width() - 5, 5));
    QTRY_COMPARE(scene.hovered(), std::string());
    QVERIFY(view->toolTip().isEmpty());
  }

  /// A reduced body opened with File > Open lists its modes; a click on a row animates that
  /// mode on the body, scaled to the chosen share of the model size; a run takes the view back.
  void stiffeningIsACheckBox() {
    // the flexible body's geometric stiffening is a check box of its properties
    QVERIFY(m_window->openModelFile(kFlexibleCrank));
    clickRow("rod");
    auto* box = m_window->propertyPanel()->findChild<QCheckBox*>("field:geometric_stiffening");
    QVERIFY(box);
    QVERIFY(box->isChecked());
    QVERIFY(m_window->model().flexible_bodies.at(0).geometric_stiffening);
    QTest::mouseClick(box, Qt::LeftButton, {}, QPoint(box->height() / 2, box->height() / 2));
    QVERIFY(!m_window->model().flexible_bodies.at(0).geometric_stiffening);
    QVERIFY(!box->isChecked());
    QTest::keyClick(m_window.get(), Qt::Key_Z, Qt::ControlModifier);
    QVERIFY(m_window->model().flexible_bodies.at(0).geometric_stiffening);
    QVERIFY(box->isChecked());
  }

  void modeBrowserAnimatesTheClickedMode() {
    QVERIFY(m_window->openModelFile(kRodBody));
    ModeBrowser* modes = m_window->modeBrowser();
    QVERIFY(modes->isVisible());
    const FlexibleBodySpec& body = m_window->model().flexible_bodies.at(0);
    QTableWidget* table = modes->table();
    QCOMPARE(table->rowCount(), int(body.data->modes.cols()));
    // frequencies are the body's eigenvalues; rigid modes have none
    for (int i = 0; i < table->rowCount(); ++i) {
      const bool rigid = body.data->kinds[std::size_t(i)] == fe::ModeKind::Rigid;
      QCOMPARE(table->item(i, 2)->text(), QString(rigid ? "rigid" : "elastic"));
      if (!rigid)
        QCOMPARE(table->item(i, 1)->text().toDouble(),
                 QString::number(std::sqrt(body.data->eigenvalues(i)) / (2 * std::numbers::pi), 'g', 6).toDouble());
    }
    // a free-free body: no effective mass column values; the report tab tells the method
    QCOMPARE(table->item(8, 3)->text(), QString("—"));
    QVERIFY(modes->report()->toPlainText().contains("method: free-free"));
    QVERIFY(modes->report()->toPlainText().contains("mass (invariant I1)"));
    const int row = 8;
    table->scrollToItem(table->item(row, 0));
    QTest::mouseClick(table->viewport(), Qt::LeftButton, {}, table->visualItemRect(table->item(row, 1)).center());
    QCOMPARE(modes->mode(), row);
    modes->freezeAtPeak();
    const render::FlexibleSurface* surface = m_window->scene().flexibleSurface(0);
    Eigen::VectorXd shape = surface->modal();
    QVERIFY(std::abs(shape(row)) > 0);
    shape(row) = 0;
    QCOMPARE(shape.norm(), 0.0);  // only that mode
    const double drawn = surface->currentMaxDisplacement() * surface->scale();
    const double target = 0.1 * m_window->scene().characteristicLength();  // the default 10 %
    QVERIFY2(std::abs(drawn / target - 1) < 1e-9, qPrintable(QString::number(drawn / target)));
    // a run gives the view back to the results
    QVERIFY(m_window->startRun());
    QCOMPARE(modes->mode(), -1);
    QTRY_VERIFY_WITH_TIMEOUT(!m_window->isRunning(), 60000);
  }

  /// With the FE program's results (.frd) beside a reduced body, the MAC tab compares the
  /// shapes: each of the body's elastic modes is the FE mode of the same frequency (MAC summed
  /// over a degenerate pair ~ 1). Without them, the tab says what to put where.
  void modeBrowserComparesWithTheFeModes() {
    const QString beam = QStringLiteral(FLEXIM_SOURCE_DIR "/tests/data/fe/beam/beam_hex_free");
    const QString frb = m_dir.filePath("beam_hex_free.frb");
    QFile::remove(frb);
    QFile::remove(m_dir.filePath("beam_hex_free.frd"));
    QProcess cli;
    cli.start(FLEXIM_CLI, {"reduce", beam + ".inp", "--out", frb});
    QVERIFY(cli.waitForFinished(60000));
    QCOMPARE(cli.exitCode(), 0);
    QVERIFY(m_window->openModelFile(frb));
    ModeBrowser* modes = m_window->modeBrowser();
    QCOMPARE(modes->assurance()->rowCount(), 0);
    QVERIFY2(modes->assuranceNote().contains("No FE modes"), qPrintable(modes->assuranceNote()));

    QVERIFY(QFile::copy(beam + ".frd", m_dir.filePath("beam_hex_free.frd")));
    QVERIFY(m_window->openModelFile(frb));
    QTableWidget* mac = modes->assurance();
    QVERIFY(mac->rowCount() >= 6 && mac->columnCount() >= 6);
    for (int i = 0; i < mac->rowCount(); ++i) {
      const double ours = mac->verticalHeaderItem(i)->text().section(": ", 1).section(' ', 0, 0).toDouble();
      double pair = 0.0;
      for (int j = 0; j < mac->columnCount(); ++j) {
        const double theirs = mac->horizontalHeaderItem(j)->text().toDouble();
        if (std::abs(theirs / ours - 1) < 5e-3) pair += mac->item(i, j)->data(Qt::UserRole).toDouble();
      }
      QVERIFY2(pair > 0.98 && pair < 1.02, qPrintable(QString("row %1 (%2 Hz): %3").arg(i).arg(ours).arg(pair)));
    }
    // for a look by eye: FLEXIM_KEEP_RENDER=DIR writes the panel with its MAC tab
    if (qEnvironmentVariableIsSet("FLEXIM_KEEP_RENDER")) {
      modes->findChild<QTabWidget*>("modeTabs")->setCurrentIndex(2);
      modes->window()->resize(1600, 900);
      QApplication::processEvents();
      modes->grab().save(qEnvironmentVariable("FLEXIM_KEEP_RENDER") + "/mode-browser-mac.png");
    }
  }

  /// File > Open of an FE deck reduces it in the background (progress dialog, the window stays
  /// responsive), writes the .frb beside it without overwriting an earlier one, and shows its
  /// modes; a deck that cannot be read is an error in Messages and nothing changes.
  void openingAnFeDeckReducesItInTheBackground() {
    const QString beam = QStringLiteral(FLEXIM_SOURCE_DIR "/tests/data/fe/beam/");
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    QVERIFY(QFile::copy(beam + "beam_hex_free.inp", dir.filePath("beam_hex_free.inp")));
    // without its *INCLUDE the deck cannot be read
    QSignalSpy failed(m_window.get(), &MainWindow::openFailed);
    QVERIFY(m_window->openModelFile(dir.filePath("beam_hex_free.inp")));
    QTRY_COMPARE_WITH_TIMEOUT(failed.count(), 1, 30000);
    QVERIFY(m_window->messages()->lines(Severity::Error).join("\n").contains("mesh_hex_ccx.inp"));
    QCOMPARE(m_window->model().flexible_bodies.size(), std::size_t(0));  // the crank is still there
    QVERIFY(!QFile::exists(dir.filePath("beam_hex_free.frb")));

    QVERIFY(QFile::copy(beam + "mesh_hex_ccx.inp", dir.filePath("mesh_hex_ccx.inp")));
    QVERIFY(QFile::copy(beam + "beam_hex_free.frd", dir.filePath("beam_hex_free.frd")));
    QSignalSpy loaded(m_window.get(), &MainWindow::modelLoaded);
    QVERIFY(m_window->openModelFile(dir.filePath("beam_hex_free.inp")));
    QTRY_COMPARE_WITH_TIMEOUT(loaded.count(), 1, 60000);
    QCOMPARE(m_window->model().flexible_bodies.size(), std::size_t(1));
    QCOMPARE(m_window->modeBrowser()->table()->rowCount(), 14);  // 6 rigid + 8 elastic, as flexim-cli reduce
    QVERIFY(QFile::exists(dir.filePath("beam_hex_free.frb")));
    QVERIFY(m_window->modeBrowser()->assurance()->rowCount() > 0);  // the deck's .frd is beside it
    // a second time: a new file, the first one kept
    QVERIFY(m_window->openModelFile(dir.filePath("beam_hex_free.inp")));
    QTRY_COMPARE_WITH_TIMEOUT(loaded.count(), 2, 60000);
    QVERIFY(QFile::exists(dir.filePath("beam_hex_free_2.frb")));
    QCOMPARE(QString::fromStdString(m_window->model().flexible_bodies.at(0).file), dir.filePath("beam_hex_free_2.frb"));
  }

  /// F6 holds a run between two steps (no samples arrive), F6 again resumes it to a good end;
  /// the paused time is not counted as the run's wall time. Shift+F5 cancels a paused run.
  void pauseHoldsTheRunAndResumes() {
    ModelSpec model = m_window->model();
    model.solver.t_end = 20.0;
    m_window->showModel(model, "long slider-crank");
    QElapsedTimer wall;
    wall.start();
    QVERIFY(m_window->startRun());
    QTRY_VERIFY_WITH_TIMEOUT(m_window->results().size() > 3, 20000);
    // the progress bar reads simulated time, steps per second and the time left
    QTRY_VERIFY_WITH_TIMEOUT(m_window->progressBar()->format().contains("steps/s"), 10000);
    QTRY_VERIFY_WITH_TIMEOUT(m_window->progressBar()->format().contains(" left"), 10000);  // after a second
    QTest::keyClick(m_window.get(), Qt::Key_F6);
    QVERIFY(m_window->isRunPaused());
    QVERIFY(m_window->findChild<QAction*>("actionPause")->text().contains("Resume"));
    QTest::qWait(300);  // samples of the steps before the pause drain
    const std::size_t held = m_window->results().size();
    QTest::qWait(600);
    QCOMPARE(m_window->results().size(), held);
    QVERIFY(m_window->isRunning());
    QTest::keyClick(m_window.get(), Qt::Key_F6);
    QVERIFY(!m_window->isRunPaused());
    QTRY_VERIFY_WITH_TIMEOUT(m_window->results().size() > held, 20000);
    // pause again and cancel: the samples so far are kept
    QTest::keyClick(m_window.get(), Qt::Key_F6);
    QVERIFY(m_window->isRunPaused());
    QTest::keyClick(m_window.get(), Qt::Key_F5, Qt::ShiftModifier);
    QTRY_VERIFY_WITH_TIMEOUT(!m_window->isRunning(), 20000);
    QVERIFY(m_window->lastSummary().cancelled);
    // at least the 0.9 s held between the checks above are not the run's wall time
    QVERIFY2(m_window->lastSummary().wall_time < wall.elapsed() / 1000.0 - 0.9,
             qPrintable(QString("%1 s of %2 s").arg(m_window->lastSummary().wall_time).arg(wall.elapsed() / 1000.0)));
    QVERIFY(!m_window->isRunPaused());
    QVERIFY(m_window->results().size() > held);
  }

  /// A paused run whose spring is made twice as stiff in the property panel goes on, on Resume,
  /// from where it was with the new stiffness: the block on its rail oscillates with the new
  /// period from then on. Adding a body while paused asks to restart instead.
  void pausedRunContinuesWithAnEdit() {
    const double m = 2.0, k = 800.0;
    ModelSpec model;
    model.name = "block on a spring";
    const Quat zx = Quat::FromTwoVectors(Vec3::UnitZ(), Vec3::UnitX());
    RigidBodySpec block{"block", m, Vec3(0.01, 0.02, 0.03).asDiagonal(), Vec3(0.5, 0, 0)};
    block.markers = {{"c", Vec3::Zero(), Quat::Identity()}, {"rail", Vec3::Zero(), zx}};
    model.bodies = {block};
    model.ground_markers = {{"anchor", Vec3::Zero(), Quat::Identity()}, {"rail", Vec3::Zero(), zx}};
    model.joints = {{"rail", JointType::Prismatic, "ground", "rail", "block", "rail"}};
    ForceSpec spring;
    spring.name = "spring";
    spring.type = ForceSpec::Type::SpringDamper;
    spring.body1 = "ground";
    spring.marker1 = "anchor";
    spring.body2 = "block";
    spring.marker2 = "c";
    spring.stiffness = k;
    spring.free_length = 0.4;
    model.forces = {spring};
    SensorSpec sensor;
    sensor.name = "block";
    sensor.body = "block";
    sensor.marker = "c";
    sensor.quantities = {"position"};
    model.sensors = {sensor};
    model.solver.t_end = 500.0;  // paused and cancelled long before
    model.solver.output_interval = 1e-3;
    model.solver.rtol = 1e-10;
    model.solver.atol = 1e-12;
    m_window->showModel(model, "block on a spring");
    QVERIFY(m_window->startRun());
    QTRY_VERIFY_WITH_TIMEOUT(m_window->results().size() > 200, 20000);
    QTest::keyClick(m_window.get(), Qt::Key_F6);
    QVERIFY(m_window->isRunPaused());
    QTest::qWait(300);  // the samples before the pause drain
    const double paused = m_window->results().time().back();

    clickRow("spring");
    type(field("stiffness"), QString::number(2 * k));
    QCOMPARE(m_window->model().forces[0].stiffness, 2 * k);
    // the view still shows where the paused run stands (its last sample, at the pause), not the
    // start (the block passes its start position once a period, so the poses are not compared)
    const Sample last = m_window->results().sample(m_window->results().size() - 1);
    QCOMPARE(last.t, paused);
    QVERIFY((m_window->scene().bodyPose(0).translation() - last.poses[0].position).norm() < 1e-12);
    QTest::keyClick(m_window.get(), Qt::Key_F6);
    QVERIFY(!m_window->isRunPaused());
    QVERIFY(m_window->isRunning());
    QTRY_VERIFY_WITH_TIMEOUT(m_window->results().time().back() > paused + 1.0, 30000);
    QTest::keyClick(m_window.get(), Qt::Key_F5, Qt::ShiftModifier);
    QTRY_VERIFY_WITH_TIMEOUT(!m_window->isRunning(), 20000);

    // one table of samples, in time order, with no gap at the pause
    const ResultTable& results = m_window->results();
    const auto t = results.time();
    for (std::size_t i = 1; i < t.size(); ++i) QVERIFY(t[i] > t[i - 1] && t[i] - t[i - 1] < 1.5e-3);
    // the period before and after the pause, from the upward crossings of the free length
    const auto x = results.column(std::size_t(results.channelIndex("block.position.x")));
    const auto period = [&](double from, double to) {
      std::vector<double> up;
      for (std::size_t i = 1; i < t.size(); ++i)
        if (t[i - 1] >= from && t[i] <= to && x[i - 1] < 0.4 && x[i] >= 0.4)
          up.push_back(t[i - 1] + (0.4 - x[i - 1]) / (x[i] - x[i - 1]) * (t[i] - t[i - 1]));
      return up.size() >= 2 ? (up.back() - up.front()) / double(up.size() - 1) : 0.0;
    };
    const double before = period(0.0, paused), after = period(paused, paused + 1.0);
    const double T1 = 2 * std::numbers::pi * std::sqrt(m / k), T2 = T1 / std::sqrt(2.0);
    qInfo("period before the pause %.5f s (%.5f), after %.5f s (%.5f)", before, T1, after, T2);
    QVERIFY(std::abs(before - T1) < 1e-3 * T1);
    QVERIFY(std::abs(after - T2) < 1e-3 * T2);

    // fewer modes of a flexible body change the coordinates: Resume asks to restart (answered
    // No: still paused, and the run can still be cancelled)
    ModelSpec crank;
    Diagnostics loaded;
    QVERIFY2(io::loadModelFile(kFlexibleCrank.toStdString(), crank, loaded), loaded.str().c_str());
    crank.solver.t_end = 100.0;
    m_window->showModel(crank, "long flexible slider-crank");
    QVERIFY(m_window->startRun());
    QTRY_VERIFY_WITH_TIMEOUT(m_window->results().size() > 5, 20000);
    QTest::keyClick(m_window.get(), Qt::Key_F6);
    QVERIFY(m_window->isRunPaused());
    clickRow("rod");
    test::typeAndReturn(m_window->propertyPanel()->findChild<QSpinBox*>("field:modes"), "7");
    QCOMPARE(m_window->model().flexible_bodies[0].mode_count, 7);
    QString asked;
    QTimer::singleShot(0, this, [&asked] {
      QTRY_VERIFY_WITH_TIMEOUT(qobject_cast<QMessageBox*>(QApplication::activeModalWidget()), 5000);
      auto* box = qobject_cast<QMessageBox*>(QApplication::activeModalWidget());
      asked = box->text();
      QTest::mouseClick(box->button(QMessageBox::No), Qt::LeftButton);
    });
    QTest::keyClick(m_window.get(), Qt::Key_F6);
    QVERIFY2(asked.contains("flexible body 'rod' has 13 coordinates now, 20 before"), qPrintable(asked));
    QVERIFY(m_window->isRunPaused());
    // asked again and answered Yes: the run starts over with the edited model
    QTimer::singleShot(0, this, [] {
      QTRY_VERIFY_WITH_TIMEOUT(qobject_cast<QMessageBox*>(QApplication::activeModalWidget()), 5000);
      auto* box = qobject_cast<QMessageBox*>(QApplication::activeModalWidget());
      QTest::mouseClick(box->button(QMessageBox::Yes), Qt::LeftButton);
    });
    QTest::keyClick(m_window.get(), Qt::Key_F6);
    const auto restarted = [this] {  // from the start, with 7 modes now
      const ResultTable& r = m_window->results();
      return m_window->isRunning() && !r.empty() && r.sample(0).modal.at(0).size() == 7;
    };
    QTRY_VERIFY_WITH_TIMEOUT(restarted(), 20000);
    QVERIFY(!m_window->isRunPaused());
    QCOMPARE(m_window->results().time().front(), 0.0);
    QTest::keyClick(m_window.get(), Qt::Key_F5, Qt::ShiftModifier);
    QTRY_VERIFY_WITH_TIMEOUT(!m_window->isRunning(), 20000);
    QVERIFY(m_window->lastSummary().cancelled);
  }

  /// A message that names an item selects it when double-clicked.
  void messageSelectsItsItem() {
    ModelSpec broken = m_window->model();
    broken.joints[1].body1 = "nowhere";
    m_window->showModel(broken, "broken model");
    QVERIFY(!m_window->startRun());
    MessagesPanel* messages = m_window->messages();
    QTreeWidgetItem* row = nullptr;
    for (int i = 0; i < messages->topLevelItemCount(); ++i)
      if (messages->topLevelItem(i)->text(2).startsWith("joints[1]")) row = messages->topLevelItem(i);
    QVERIFY2(row, qPrintable(messages->lines().join("\n")));
    messages->scrollToItem(row);
    const QPoint at = messages->visualItemRect(row).center();
    QTest::mouseClick(messages->viewport(), Qt::LeftButton, {}, at);
    QTest::mouseDClick(messages->viewport(), Qt::LeftButton, {}, at);
    QCOMPARE(m_window->document()->selected(), m_window->document()->findItem("joints", broken.joints[1].name));
  }

  /// Camera presets by keyboard: Ctrl+7 looks down against gravity, Ctrl+1 from the front
  /// (horizontal); F frames the selection; Ctrl+0 toggles the parallel projection.
  void cameraPresetsAndFitSelection() {
    vtkCamera* camera = m_window->scene().renderer()->GetActiveCamera();
    const auto direction = [camera] {
      double p[3], f[3];
      camera->GetPosition(p);
      camera->GetFocalPoint(f);
      return (Vec3(p[0], p[1], p[2]) - Vec3(f[0], f[1], f[2])).normalized();
    };
    const Vec3 up = render::upDirection(m_window->model().gravity);
    // the camera moves there smoothly (a quarter of a second), turning about the focal point
    VtkViewport* view = m_window->viewport();
    const Vec3 start = direction();
    QTest::keyClick(m_window.get(), Qt::Key_7, Qt::ControlModifier);
    QVERIFY(view->isCameraMoving());
    QTRY_VERIFY(!view->isCameraMoving());
    QVERIFY2(direction().dot(up) > 0.999, qPrintable(QString::number(direction().dot(up))));
    QVERIFY(std::abs(start.dot(up) - 1.0) > 1e-3);  // it did move
    QTest::keyClick(m_window.get(), Qt::Key_1, Qt::ControlModifier);
    QTRY_VERIFY(!view->isCameraMoving());
    QVERIFY(std::abs(direction().dot(up)) < 1e-9);
    // fit the crank: its box fills the view, seen from the same direction
    clickRow("crank");
    const Vec3 before = direction();
    const double distanceBefore = camera->GetDistance();
    m_window->viewport()->setFocus();
    QTest::keyClick(m_window.get(), Qt::Key_F);
    QTRY_VERIFY(!view->isCameraMoving());
    QVERIFY((direction() - before).norm() < 1e-9);
    QVERIFY2(camera->GetDistance() < 0.8 * distanceBefore,
             qPrintable(QString("%1 -> %2").arg(distanceBefore).arg(camera->GetDistance())));
    QVERIFY(!camera->GetParallelProjection());
    QTest::keyClick(m_window.get(), Qt::Key_0, Qt::ControlModifier);
    QVERIFY(camera->GetParallelProjection());
    QTest::keyClick(m_window.get(), Qt::Key_0, Qt::ControlModifier);
    QVERIFY(!camera->GetParallelProjection());
  }

  /// A visual mesh given in the property panel (the nested "visual" fields) draws the body at
  /// once; undo gives the box back; the saved file carries the mesh.
  void visualMeshFromThePanel() {
    QDir(m_dir.path()).mkpath("meshes");
    QVERIFY(QFile::copy(QStringLiteral(FLEXIM_SOURCE_DIR "/resources/examples/meshes/crank.stl"),
                        m_dir.filePath("meshes/crank.stl")));
    clickRow("crank");
    // whether one of the crank's actors is the mesh: 178 mm long (150 mm between hub centres,
    // hubs of 14 and 12 mm radius), 28 mm wide, less a little where the facets cut the arcs
    const auto meshDrawn = [this] {
      for (vtkActor* a : m_window->scene().actorsOf("bodies[0]")) {
        double b[6];
        a->GetBounds(b);
        if (std::abs(b[1] - b[0] - 0.178) < 3e-3 && std::abs(b[3] - b[2] - 0.028) < 1e-3) return true;
      }
      return false;
    };
    QVERIFY(!meshDrawn());
    type(field("visual.scale"), "0.001");
    QVERIFY2(m_window->propertyPanel()->fieldError("visual.scale").isEmpty(),
             qPrintable(m_window->propertyPanel()->fieldError("visual.scale")));
    type(field("visual.file"), "meshes/crank.stl");
    QVERIFY2(m_window->propertyPanel()->fieldError("visual.file").isEmpty(),
             qPrintable(m_window->propertyPanel()->fieldError("visual.file")));
    QCOMPARE(m_window->model().bodies[0].visual.file, std::string("meshes/crank.stl"));
    QVERIFY(meshDrawn());
    QTest::keyClick(m_window.get(), Qt::Key_S, Qt::ControlModifier);
    ModelSpec reread;
    Diagnostics diag;
    QVERIFY2(io::loadModelFile(m_path.toStdString(), reread, diag), diag.str().c_str());
    QCOMPARE(reread.bodies[0].visual.file, std::string("meshes/crank.stl"));
    QCOMPARE(reread.bodies[0].visual.scale, 0.001);
    QTest::keyClick(m_window.get(), Qt::Key_Z, Qt::ControlModifier);
    QVERIFY(m_window->model().bodies[0].visual.file.empty());
    QVERIFY(!meshDrawn());
  }

 private:
  /// Where a world point appears in the view (widget pixels).
  QPoint widgetPointOf(const double* world) {
    VtkViewport* view = m_window->viewport();
    QApplication::processEvents();
    view->screenshot();  // render at the widget's present size: the projection below is the one seen
    vtkRenderer* renderer = m_window->scene().renderer();
    renderer->SetWorldPoint(world[0], world[1], world[2], 1.0);
    renderer->WorldToDisplay();
    const double* d = renderer->GetDisplayPoint();
    const qreal ratio = view->devicePixelRatioF();
    return QPoint(int(std::lround(d[0] / ratio)), int(std::lround(view->height() - 1 - d[1] / ratio)));
  }
  /// A left click (press and release in place) where a world point appears in the view.
  void clickAtWorld(const double* world) {
    VtkViewport* view = m_window->viewport();
    const QPoint at = widgetPointOf(world);
    QVERIFY2(view->rect().contains(at), qPrintable(QString("%1, %2").arg(at.x()).arg(at.y())));
    QTest::mouseClick(view, Qt::LeftButton, {}, at);
    QApplication::processEvents();
  }

  /// Clicks the (first) tree row whose first column is text.
  void clickRow(const QString& text) {
    QTreeWidgetItem* row = test::treeRow(m_window->modelTree(), text);
    QVERIFY2(row, qPrintable(text));
    clickRow(row);
  }
  void clickRow(QTreeWidgetItem* row) { test::clickTreeRow(m_window->modelTree(), row); }
  /// Clicks a check box of the property panel.
  void clickBox(const QString& name) { test::clickCheckBox(m_window->propertyPanel(), name); }
  QLineEdit* field(const QString& key) const {
    return m_window->propertyPanel()->findChild<QLineEdit*>("field:" + key);
  }
  static void type(QLineEdit* edit, const QString& text) { test::typeAndReturn(edit, text); }

  QTemporaryDir m_dir;
  QString m_path;
  std::unique_ptr<MainWindow> m_window;
};

int main(int argc, char** argv) {
  QStandardPaths::setTestModeEnabled(true);  // recovery files in a test folder, not the user's
  setDefaultSurfaceFormatForVtk();
  QApplication app(argc, argv);
  EditingTest test;
  return QTest::qExec(&test, argc, argv);
}

#include "ui_editing_test.moc"
