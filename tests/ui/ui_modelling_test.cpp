// Building models in the application with real widget events: the FE import wizard
// (a broken file is refused with the importer's file:line and changes nothing; a face picked on
// the preview becomes a Craig–Bampton interface), and the flexible slider-crank of
// resources/examples/slider_crank_flexible.json built from nothing — import the rod deck, reduce
// it, place the virtual bodies by clicking on the rod's end faces, add crank, slider, joints,
// driver and sensors, save, run — whose results match the example's (run by flexim-cli) within
// 1e-6, and whose saved file runs identically in flexim-cli.
#include "core/fe/reduced_body.h"
#include "io/model_json.h"
#include "tests/ui/csv_columns.h"
#include "render/model_scene.h"
#include "ui/fe_import_wizard.h"
#include "ui/item_actions.h"
#include "ui/item_dialog.h"
#include "ui/joint_dialog.h"
#include "ui/main_window.h"
#include "ui/mode_browser.h"
#include "ui/messages_panel.h"
#include "ui/model_document.h"
#include "ui/model_tree.h"
#include "ui/orientation_handle.h"
#include "ui/property_panel.h"
#include "ui/surface_format.h"
#include "ui/vtk_viewport.h"
#include "tests/ui/widget_events.h"

#include "tests/app/cli_run.h"

#include <QAbstractButton>
#include <QApplication>
#include <QCheckBox>
#include <QClipboard>
#include <QGuiApplication>
#include <QMimeData>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QDockWidget>
#include <QFile>
#include <QDir>
#include <QImage>
#include <QLabel>
#include <QPainter>
#include <QLineEdit>
#include <QListWidget>
#include <QMenu>
#include <QMessageBox>
#include <QPointer>
#include <QProcess>
#include <QPushButton>
#include <QSignalSpy>
#include <QSpinBox>
#include <QStandardPaths>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTextBrowser>
#include <QTextStream>
#include <QTimer>
#include <QUndoStack>
#include <QtTest>
#include <vtkCamera.h>
#include <vtkRenderer.h>

#include <cmath>
#include <functional>
#include <map>

using namespace flexim;
using namespace flexim::ui;

namespace {

const QString kRodDeck = QStringLiteral(FLEXIM_SOURCE_DIR "/tests/data/fe/rod/rod_round_c3d10.inp");
const QString kFlexibleCrank = QStringLiteral(FLEXIM_SOURCE_DIR "/resources/examples/slider_crank_flexible.json");

/// Largest difference between the columns both files have, relative to each column's largest
/// magnitude (at least 1e-3 of its unit); the columns compared in `compared`.
double largestDifference(const std::map<QString, std::vector<double>>& a, const std::map<QString, std::vector<double>>& b,
                         QStringList& compared, QString* worstColumn = nullptr) {
  double worst = 0;
  for (const auto& [name, x] : a) {
    const auto it = b.find(name);
    if (it == b.end() || it->second.size() != x.size()) continue;
    double scale = 1e-3;
    for (double v : it->second) scale = std::max(scale, std::abs(v));
    for (std::size_t i = 0; i < x.size(); ++i)
      if (std::abs(x[i] - it->second[i]) / scale > worst) {
        worst = std::abs(x[i] - it->second[i]) / scale;
        if (worstColumn) *worstColumn = QString("%1 at sample %2: %3 instead of %4").arg(name).arg(i).arg(x[i]).arg(it->second[i]);
      }
    compared << name;
  }
  return worst;
}

}  // namespace

class ModellingTest : public QObject {
  Q_OBJECT

 private slots:
  void init() {
    QVERIFY(m_dir.isValid());
    m_window = std::make_unique<MainWindow>();
    m_window->resize(1200, 800);
    m_window->show();
    QVERIFY(QTest::qWaitForWindowExposed(m_window.get()));
    activate();
  }
  void cleanup() {
    if (m_window) m_window->document()->undoStack()->setClean();
    m_window.reset();
  }

  /// A deck with an element on a node that does not exist: the wizard stays on its first page
  /// with the importer's file:line message; Cancel leaves the model as it was.
  void wizardRefusesABrokenFile() {
    QVERIFY(m_window->openModelFile(kFlexibleCrank));
    const std::size_t bodies = m_window->model().flexible_bodies.size();
    const int commands = m_window->document()->undoStack()->count();
    const QString broken = m_dir.filePath("broken.inp");
    {
      QFile f(broken);
      QVERIFY(f.open(QIODevice::WriteOnly));
      f.write("*NODE\n1, 0, 0, 0\n2, 1, 0, 0\n3, 0, 1, 0\n*ELEMENT, TYPE=C3D4\n1, 1, 2, 3, 99\n");
    }
    QString error;
    bool stayed = false;
    QTimer::singleShot(0, this, [&] {
      auto* wizard = qobject_cast<FeImportWizard*>(QApplication::activeModalWidget());
      QVERIFY(wizard);
      test::typeInto(wizard->findChild<QLineEdit*>("feFile"), broken);
      QTest::mouseClick(wizard->button(QWizard::NextButton), Qt::LeftButton);
      error = wizard->findChild<QLabel*>("feFileError")->text();
      stayed = wizard->currentId() == FeImportWizard::FilePage;
      QTest::mouseClick(wizard->button(QWizard::CancelButton), Qt::LeftButton);
    });
    QTest::keyClick(m_window.get(), Qt::Key_I, Qt::ControlModifier);
    QVERIFY(stayed);
    QVERIFY2(error.contains("broken.inp:6"), qPrintable(error));
    QVERIFY2(error.contains("99"), qPrintable(error));
    QCOMPARE(m_window->model().flexible_bodies.size(), bodies);
    QCOMPARE(m_window->document()->undoStack()->count(), commands);
    QVERIFY(!QFile::exists(m_dir.filePath("broken.frb")));
  }

  /// The material fields follow the one material rule (fe::materialProblem) and say what keeps
  /// Next disabled: an auxetic ν = -0.2 is a material, ν = 0.5 is refused with the readers' message.
  void wizardMaterialRule() {
    QVERIFY(m_window->saveModelFile(m_dir.filePath("material.json")));
    bool onMeshPage = false, auxeticAccepted = false, halfAccepted = true, givenShown = false;
    QString auxeticError = "not read", halfError;
    QTimer::singleShot(0, this, [&] {
      auto* wizard = qobject_cast<FeImportWizard*>(QApplication::activeModalWidget());
      QVERIFY(wizard);
      test::typeInto(wizard->findChild<QLineEdit*>("feFile"), kRodDeck);
      QTest::mouseClick(wizard->button(QWizard::NextButton), Qt::LeftButton);
      onMeshPage = wizard->currentId() == FeImportWizard::MeshPage;
      QTest::mouseClick(wizard->findChild<QCheckBox*>("materialOverride"), Qt::LeftButton);
      test::typeInto(wizard->findChild<QLineEdit*>("materialE"), "2.1e11");
      test::typeInto(wizard->findChild<QLineEdit*>("materialRho"), "7850");
      auto* nu = wizard->findChild<QLineEdit*>("materialNu");
      auto* error = wizard->findChild<QLabel*>("materialError");
      test::typeInto(nu, "-0.2");
      auxeticAccepted = wizard->button(QWizard::NextButton)->isEnabled();
      auxeticError = error->text();
      // the mesh report shows the material the modes will use
      givenShown = wizard->findChild<QTextBrowser*>("meshReport")->toPlainText().contains(
          "material (given): E = 2.1e+11 Pa, nu = -0.2, rho = 7850 kg/m^3, of every element");
      test::typeInto(nu, "0.5");
      halfAccepted = wizard->button(QWizard::NextButton)->isEnabled();
      halfError = error->text();
      QTest::mouseClick(wizard->button(QWizard::CancelButton), Qt::LeftButton);
    });
    QTest::keyClick(m_window.get(), Qt::Key_I, Qt::ControlModifier);
    QVERIFY(onMeshPage);
    QVERIFY(auxeticAccepted);
    QCOMPARE(auxeticError, QString());
    QVERIFY(givenShown);
    QVERIFY(!halfAccepted);
    QCOMPARE(halfError, QString::fromStdString(fe::materialProblem(2.1e11, 0.5, 7850)));
    QCOMPARE(halfError, QString("Poisson's ratio nu = 0.5 must be in (-1, 0.5)"));
  }

  /// Craig–Bampton with an interface picked on the preview: a click on the rod's end face at
  /// x = 0.3 makes a node set of that face — exactly the deck's END_B (25 nodes); the reduction
  /// runs in the background with its stage shown, the mode table fills, Finish writes the .frb
  /// beside the model and the body's dialog opens with its frame on the picked interface.
  void wizardPicksAFaceAsAnInterface() {
    QVERIFY(m_window->saveModelFile(m_dir.filePath("cb.json")));
    bool checked = false;
    QTimer::singleShot(0, this, [&] {
      auto* wizard = qobject_cast<FeImportWizard*>(QApplication::activeModalWidget());
      QVERIFY(wizard);
      test::typeInto(wizard->findChild<QLineEdit*>("feFile"), kRodDeck);
      QTest::mouseClick(wizard->button(QWizard::NextButton), Qt::LeftButton);
      QCOMPARE(wizard->currentId(), int(FeImportWizard::MeshPage));
      // the node sets of the deck, one of them shown on the mesh
      auto* sets = wizard->findChild<QListWidget*>("nodeSets");
      QVERIFY(sets->count() >= 3);
      QVERIFY(!wizard->findChild<QCheckBox*>("materialOverride")->isChecked());  // the deck has its steel
      QTest::mouseClick(wizard->button(QWizard::NextButton), Qt::LeftButton);
      QCOMPARE(wizard->currentId(), int(FeImportWizard::ReductionPage));
      auto* method = wizard->findChild<QComboBox*>("reductionMethod");
      method->setFocus();
      QTest::keyClick(method, Qt::Key_Down);
      QCOMPARE(method->currentIndex(), 1);
      QVERIFY(!wizard->button(QWizard::NextButton)->isEnabled());  // Craig–Bampton needs an interface
      QVERIFY(wizard->findChild<QLabel*>("reductionError")->text().contains("interface"));
      QTest::mouseClick(wizard->findChild<QPushButton*>("pickFace"), Qt::LeftButton);
      QCOMPARE(wizard->picking(), FeImportWizard::Pick::Face);
      auto* view = wizard->findChild<VtkViewport*>("reductionPreview");
      const double endB[3] = {0.3, 0.0, 0.0};
      QTest::mouseClick(view, Qt::LeftButton, {}, pointOf(view, endB));
      QCOMPARE(wizard->picking(), FeImportWizard::Pick::None);
      QVERIFY2(wizard->mesh().node_sets.count("FACE_1"), qPrintable(wizard->findChild<QLabel*>("pickMessage")->text()));
      std::vector<int> face = wizard->mesh().node_sets.at("FACE_1"), end = wizard->mesh().node_sets.at("END_B");
      std::sort(face.begin(), face.end());
      std::sort(end.begin(), end.end());
      QCOMPARE(face, end);
      QVERIFY(wizard->button(QWizard::NextButton)->isEnabled());
      // its reference point typed in its row: refused in place while wrong
      auto* interfaces = wizard->findChild<QTableWidget*>("interfaces");
      auto* reference = qobject_cast<QComboBox*>(interfaces->cellWidget(interfaces->rowCount() - 1, 3));
      QVERIFY(reference && reference->isEditable());
      QCOMPARE(reference->currentText(), QString("default"));
      reference->lineEdit()->setFocus();
      reference->lineEdit()->selectAll();
      QTest::keyClicks(reference->lineEdit(), "middle");
      QVERIFY(!wizard->button(QWizard::NextButton)->isEnabled());
      const QString refused = wizard->findChild<QLabel*>("reductionError")->text();
      QVERIFY2(refused.contains("Reference point of FACE_1") && refused.contains("area-centroid"), qPrintable(refused));
      reference->lineEdit()->selectAll();
      QTest::keyClicks(reference->lineEdit(), "0.31, 0, 0.001");
      QVERIFY(wizard->button(QWizard::NextButton)->isEnabled());
      QVERIFY(wizard->findChild<QLabel*>("reductionError")->text().isEmpty());
      // and the inertia from the lumped masses, as the paper sums them
      QTest::mouseClick(wizard->findChild<QCheckBox*>("lumpedInvariants"), Qt::LeftButton);
      auto* modes = wizard->findChild<QSpinBox*>("modeCount");
      modes->setFocus();
      modes->selectAll();
      QTest::keyClicks(modes, "4");
      QTest::mouseClick(wizard->button(QWizard::NextButton), Qt::LeftButton);
      QCOMPARE(wizard->currentId(), int(FeImportWizard::ReducePage));
      QVERIFY(!wizard->button(QWizard::FinishButton)->isEnabled());  // while it reduces
      QTRY_VERIFY_WITH_TIMEOUT(wizard->button(QWizard::FinishButton)->isEnabled(), 60000);
      auto* table = wizard->findChild<QTableWidget*>("modeTable");
      QCOMPARE(table->rowCount(), 6 + 4);  // 6 constraint modes of the interface + 4 fixed-interface modes
      QCOMPARE(wizard->findChild<QLineEdit*>("frbPath")->text(), m_dir.filePath("rod_round_c3d10.frb"));
      // the body's dialog follows Finish
      test::whenModal<ItemDialog>(this, [&](ItemDialog* dialog) {
        auto* reference = dialog->panel()->findChild<QComboBox*>("field:reference");
        QVERIFY(reference);
        QCOMPARE(reference->currentText(), QString("interface"));
        QCOMPARE(dialog->panel()->findChild<QLineEdit*>("field:reference_interface")->text(), QString("FACE_1"));
        QTest::mouseClick(dialog->findChild<QDialogButtonBox*>()->button(QDialogButtonBox::Ok), Qt::LeftButton);
        checked = true;
      });
      QTest::mouseClick(wizard->button(QWizard::FinishButton), Qt::LeftButton);
    });
    QTest::keyClick(m_window.get(), Qt::Key_I, Qt::ControlModifier);
    QVERIFY(checked);
    QVERIFY(QFile::exists(m_dir.filePath("rod_round_c3d10.frb")));
    QCOMPARE(m_window->model().flexible_bodies.size(), std::size_t(1));
    const FlexibleBodySpec& body = m_window->model().flexible_bodies[0];
    QCOMPARE(body.file, std::string("rod_round_c3d10.frb"));
    QVERIFY(body.data);
    QCOMPARE(body.data->interfaces.size(), std::size_t(1));
    QVERIFY((body.data->interfaces[0].reference - Eigen::Vector3d(0.31, 0, 0.001)).norm() < 1e-15);
    QVERIFY2(body.data->method.find("lumped-mass invariants") != std::string::npos, body.data->method.c_str());
    QVERIFY(body.data->stress_modes.cols() == body.data->modes.cols());
    QCOMPARE(m_window->document()->undoStack()->undoText(), QString("Add flexible body 'rod_round_c3d10'"));
    // seen at once: selected, its modes listed in the Modes panel, the whole of it in the view
    QCOMPARE(m_window->document()->selected(), m_window->document()->findItem("flexible_bodies", "rod_round_c3d10"));
    QVERIFY(m_window->findChild<QDockWidget*>("modesDock")->isVisible());
    QCOMPARE(m_window->modeBrowser()->table()->rowCount(), int(body.data->modes.cols()));
    QTRY_VERIFY(!m_window->viewport()->isCameraMoving());
    QVERIFY(m_window->scene().boundsInView());
  }


  /// End to end: the flexible slider-crank of slider_crank_flexible.json built
  /// from an empty model with the application's actions and widgets, saved and run; its results
  /// match the example's, run by flexim-cli, within 1e-6, and the saved file runs the same in
  /// flexim-cli. (The whole 0.1 s of the example.)
  void buildTheFlexibleSliderCrankFromNothing() {
    constexpr double kEnd = 0.1;
    const QString model = m_dir.filePath("built.json");
    m_window->findChild<QAction*>("actionNew")->trigger();
    QVERIFY(m_window->saveModelFile(model));
    ModelDocument* doc = m_window->document();

    // 1. the rod: import wizard with its defaults (free–free, 8 elastic modes), then placed at
    //    the crank pin with the rigid-body velocities of the example's start
    test::whenModal<FeImportWizard>(this, [&](FeImportWizard* wizard) {
      test::typeInto(wizard->findChild<QLineEdit*>("feFile"), kRodDeck);
      tutorialShot(wizard, "01-import-file");
      QTest::mouseClick(wizard->button(QWizard::NextButton), Qt::LeftButton);
      auto* sets = wizard->findChild<QListWidget*>("nodeSets");
      const auto endA = sets->findItems("END_A", Qt::MatchStartsWith);
      QVERIFY(!endA.isEmpty());
      sets->setCurrentItem(endA.front());  // its 25 nodes shown on the mesh
      tutorialShot(wizard, "02-check-mesh", wizard->findChild<VtkViewport*>("meshPreview"));
      QTest::mouseClick(wizard->button(QWizard::NextButton), Qt::LeftButton);
      tutorialShot(wizard, "03-reduction", wizard->findChild<VtkViewport*>("reductionPreview"));
      QTest::mouseClick(wizard->button(QWizard::NextButton), Qt::LeftButton);
      QTRY_VERIFY_WITH_TIMEOUT(wizard->button(QWizard::FinishButton)->isEnabled(), 60000);
      QCOMPARE(wizard->findChild<QTableWidget*>("modeTable")->rowCount(), 14);
      // the first elastic mode moves on the body in the wizard's own view
      auto* modes = wizard->findChild<ModeBrowser*>("wizardModes");
      QVERIFY(modes);
      QCOMPARE(modes->mode(), 6);
      auto* modeView = wizard->findChild<VtkViewport*>("modeView");
      const QImage before = modeView->screenshot();
      QTest::qWait(200);
      QVERIFY2(modeView->screenshot() != before, "the mode is not animated");
      tutorialShot(wizard, "04-modes", modeView);
      QTest::mouseClick(wizard->button(QWizard::FinishButton), Qt::LeftButton);
    });
    test::whenModal<ItemDialog>(this, [&](ItemDialog* d) {
      type(edit(d, "name"), "rod");
      type(edit(d, "position:0"), "0.15");
      type(edit(d, "velocity:1"), "22.5");
      type(edit(d, "angular_velocity:2"), "-75");
      tutorialShot(d, "05-place-body");
      pressOk(d);
    });
    QTest::keyClick(m_window.get(), Qt::Key_I, Qt::ControlModifier);
    QCOMPARE(m_window->model().flexible_bodies.size(), std::size_t(1));
    QCOMPARE(m_window->model().flexible_bodies[0].name, std::string("rod"));

    // 2. virtual bodies on the centres of the rod's end faces, each clicked in a view that faces
    //    it (a little off the centre: the fit finds the centre)
    activate();
    QMenu* place = m_window->findChild<QMenu*>("menuPlaceVirtualBody");
    const auto placeOnFace = [&](int key, Qt::KeyboardModifiers view, Vec3 at) {
      QTest::keyClick(m_window.get(), Qt::Key(key), view);
      QTRY_VERIFY(!m_window->viewport()->isCameraMoving());
      place->findChild<QAction*>("actionPlaceOnFace")->trigger();
      clickAtWorld(at.data());
    };
    placeOnFace(Qt::Key_3, Qt::ControlModifier, Vec3(0.45, 0.0012, 0.0009));
    placeOnFace(Qt::Key_3, Qt::ControlModifier | Qt::AltModifier, Vec3(0.15, 0.0012, 0.0009));
    const std::vector<VirtualBodySpec>& virtuals = m_window->model().virtual_bodies;
    QCOMPARE(virtuals.size(), std::size_t(2));
    QString endB, endA;  // names of the virtual bodies at x = 0.3 and x = 0 (FE axes)
    for (const VirtualBodySpec& v : virtuals) {
      const double x = v.point.x();
      QVERIFY2(v.point.tail<2>().norm() < 1e-9 && (std::abs(x) < 1e-9 || std::abs(x - 0.3) < 1e-9),
               qPrintable(QString("%1 %2 %3").arg(x).arg(v.point.y()).arg(v.point.z())));
      (x > 0.15 ? endB : endA) = QString::fromStdString(v.name);
    }
    QVERIFY(!endA.isEmpty() && !endB.isEmpty());
    // the example's virtual bodies keep the FE axes, and the node triangle m, n the solver picks
    // depends on the axes: typed in the property panel (w, x, y, z)
    for (const QString& name : {endA, endB}) {
      clickRow(name);
      for (int i = 0; i < 4; ++i) typeField(QString("orientation:%1").arg(i), i == 0 ? "1" : "0");
    }
    for (const VirtualBodySpec& v : virtuals) QVERIFY(v.orientation.coeffs().isApprox(Quat::Identity().coeffs(), 1e-15));
    // selected, a virtual body shows the nodes it rides on: in the view, and the solver's account
    // of them with its properties (node 1315 is the deck's node at the centre of end B)
    clickRow(endB);
    QTRY_COMPARE(m_window->scene().markedNodeCount(), std::size_t(3));  // once the count behind them is in
    QTRY_VERIFY(m_window->propertyPanel()->notesText().contains("on nodes k = 1315"));
    const QString notes = m_window->propertyPanel()->notesText();
    QVERIFY2(notes.contains("on nodes k = 1315, m = 1790, n = 1316"), qPrintable(notes));  // the example's
    if (!qEnvironmentVariableIsEmpty("FLEXIM_TUTORIAL_SHOTS")) {
      // the rod seen from the side, the selected virtual body highlighted at its end
      QTest::keyClick(m_window.get(), Qt::Key_5, Qt::ControlModifier);
      QTRY_VERIFY(!m_window->viewport()->isCameraMoving());
      tutorialShot(m_window.get(), "06-virtual-body", m_window->viewport());
    }
    clickRow("rod");
    QCOMPARE(m_window->scene().markedNodeCount(), std::size_t(0));

    // 3. no gravity, as in the example (the model's own fields: its row at the top of the tree)
    {
      ModelTree* tree = m_window->modelTree();
      QTreeWidgetItem* row = tree->rowOf(ModelDocument::kModelId);
      QVERIFY(row);
      QTest::mouseClick(tree->viewport(), Qt::LeftButton, {}, tree->visualItemRect(row).center());
      typeField("gravity:2", "0");
      QCOMPARE(m_window->model().gravity, Vec3::Zero());
    }

    // 4. crank and slider
    const auto addBody = [&](const QString& name, const QString& mass, const QStringList& inertia, const QString& x) {
      test::whenModal<ItemDialog>(this, [&, name, mass, inertia, x](ItemDialog* d) {
        type(edit(d, "name"), name);
        type(edit(d, "mass"), mass);
        for (int i = 0; i < 3; ++i) type(edit(d, QString("inertia:%1%1").arg(i)), inertia[i]);
        type(edit(d, "position:0"), x);
        pressOk(d);
      });
      m_window->findChild<QMenu*>("menuAdd")->findChild<QAction*>("actionAdd:bodies")->trigger();
    };
    addBody("crank", "0.1", {"1e-7", "1.875e-4", "1.875e-4"}, "0.075");
    addBody("slider", "0.033378", {"1e-6", "1e-6", "1e-6"}, "0.45");
    QCOMPARE(m_window->model().bodies.size(), std::size_t(2));

    // 5. joints at points: their markers are made on both bodies
    const auto addJoint = [&](const QString& kind, const QString& body1, const QString& body2, const QString& origin,
                              const QString& axis) {
      activate();
      test::whenModal<JointDialog>(this, [&, kind, body1, body2, origin, axis](JointDialog* d) {
        choose(d->findChild<QComboBox*>("kind"), kind);
        choose(d->findChild<QComboBox*>("body1"), body1);
        choose(d->findChild<QComboBox*>("body2"), body2);
        test::typeInto(d->findChild<QLineEdit*>("origin"), origin);
        test::typeInto(d->findChild<QLineEdit*>("axis"), axis);
        if (kind == "cylindrical") tutorialShot(d, "07-joint-at-a-point");
        pressOk(d);
      });
      QTest::keyClick(m_window.get(), Qt::Key_J, Qt::ControlModifier);
    };
    addJoint("revolute", "ground", "crank", "0, 0, 0", "0, 0, 1");
    addJoint("spherical", "crank", endA, "0.15, 0, 0", "0, 0, 1");
    addJoint("cylindrical", endB, "slider", "0.45, 0, 0", "0, 0, 1");
    addJoint("prismatic", "ground", "slider", "0.45, 0, 0", "1, 0, 0");
    QCOMPARE(m_window->model().joints.size(), std::size_t(4));
    const std::string pivot = m_window->model().joints[0].name;
    QCOMPARE(m_window->model().joints[0].type.key(), std::string("revolute"));

    // 6. the motor: 150 rad/s from crank angle 0
    test::whenModal<ItemDialog>(this, [&](ItemDialog* d) {
      type(edit(d, "name"), "motor");
      choose(d, "joint", QString::fromStdString(pivot));
      choose(d, "coordinate", "rotation");
      choose(d, "function.type", "constant_speed");
      QApplication::processEvents();
      type(edit(d, "function.initial"), "0");
      type(edit(d, "function.speed"), "150");
      pressOk(d);
    });
    m_window->findChild<QMenu*>("menuAdd")->findChild<QAction*>("actionAdd:drivers")->trigger();
    QCOMPARE(m_window->model().drivers.size(), std::size_t(1));

    // 7. sensors: the slider's marker (the wrist pin's, at its centre), the rod's mid-span
    //    deflection from the chord of its end nodes, the energies
    std::string sliderMarker;
    for (const MarkerSpec& m : m_window->model().bodies[1].markers)
      if (m.position.norm() < 1e-12 && sliderMarker.empty()) sliderMarker = m.name;
    QVERIFY(!sliderMarker.empty());
    const auto addSensor = [&](std::function<void(ItemDialog*)> fill) {
      test::whenModal<ItemDialog>(this, [this, fill](ItemDialog* d) {
        fill(d);
        pressOk(d);
      });
      m_window->findChild<QMenu*>("menuAdd")->findChild<QAction*>("actionAdd:sensors")->trigger();
    };
    addSensor([&](ItemDialog* d) {
      type(edit(d, "name"), "slider");
      choose(d, "type", "marker");
      choose(d, "body", "slider");
      choose(d, "marker", QString::fromStdString(sliderMarker));
      tick(d, "quantities", {"position", "velocity", "acceleration"});
    });
    addSensor([&](ItemDialog* d) {
      type(edit(d, "name"), "rod_mid");
      choose(d, "type", "deflection");
      choose(d, "body", "rod");
      test::typeAndReturn(d->panel()->findChild<QSpinBox*>("field:node"), "838");
      type(edit(d, "chord"), "1, 1315");
      tick(d, "quantities", {"deflection", "normalized"});
    });
    addSensor([&](ItemDialog* d) {
      type(edit(d, "name"), "energy");
      choose(d, "type", "energy");
      tick(d, "quantities", {"kinetic", "strain", "total"});
    });
    QCOMPARE(m_window->model().sensors.size(), std::size_t(3));

    // 8. the solver: generalized-α, 1e-5 s steps, output every 1e-4 s
    activate();
    test::whenModal<ItemDialog>(this, [&](ItemDialog* d) {
      type(edit(d, "t_end"), QString::number(kEnd));
      choose(d, "integrator", "gen-alpha");
      type(edit(d, "step"), "1e-5");
      type(edit(d, "output_interval"), "1e-4");
      type(edit(d, "rho_inf"), "0.8");
      pressOk(d);
    });
    QTest::keyClick(m_window.get(), Qt::Key_F5, Qt::ControlModifier);
    QCOMPARE(m_window->model().solver.step, 1e-5);

    // 9. save, run, export
    activate();
    QTest::keyClick(m_window.get(), Qt::Key_S, Qt::ControlModifier);
    QVERIFY(!m_window->windowTitle().contains('*'));
    QSignalSpy finished(m_window.get(), &MainWindow::runFinished);
    QTest::keyClick(m_window.get(), Qt::Key_F5);
    QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 240000);
    QVERIFY2(finished.at(0).at(0).toBool(), qPrintable(m_window->messages()->lines().join("\n")));
    // the last frame is shown: no rotation handle on a body selected there (it edits the start)
    clickRow("rod");
    QVERIFY(!m_window->orientationHandle()->handle().isVisible());
    if (!qEnvironmentVariableIsEmpty("FLEXIM_TUTORIAL_SHOTS")) {
      // the deformed rod filling the view, in its colours
      clickRow("rod");
      if (auto* iso = m_window->findChild<QAction*>("actionViewIso")) iso->trigger();
      QTRY_VERIFY(!m_window->viewport()->isCameraMoving());
      m_window->viewport()->setFocus();
      QTest::keyClick(m_window->viewport(), Qt::Key_F);
      QTRY_VERIFY(!m_window->viewport()->isCameraMoving());
    }
    tutorialShot(m_window.get(), "08-run", m_window->viewport());
    const QString gui = m_dir.filePath("gui.csv");
    QVERIFY(m_window->exportResultsCsv(gui));

    // the example and the saved model, run by flexim-cli
    const QString example = m_dir.filePath("example.csv"), saved = m_dir.filePath("saved.csv");
    Result r = cli({"run", kFlexibleCrank, "--t-end", QString::number(kEnd), "-o", example});
    QVERIFY2(r.code == 0, qPrintable(r.err + r.out));
    r = cli({"run", model, "-o", saved});
    QVERIFY2(r.code == 0, qPrintable(r.err + r.out));
    const auto reference = test::csvColumns(example, true), built = test::csvColumns(gui, true),
               cliBuilt = test::csvColumns(saved, true);
    QStringList compared;
    QString worst;
    const double error = largestDifference(built, reference, compared, &worst);
    for (const char* channel : {"time", "slider.position.x", "slider.velocity.x", "slider.acceleration.x",
                                "rod_mid.deflection.y", "rod_mid.normalized.y", "energy.kinetic.value", "energy.strain.value"})
      QVERIFY2(compared.contains(channel), qPrintable(QString(channel) + " not in " + compared.join(", ")));
    QVERIFY2(error < 1e-6, qPrintable(QString("largest relative difference %1 (%2)").arg(error).arg(worst)));
    QCOMPARE(reference.at("time").size(), built.at("time").size());
    QStringList same;
    QVERIFY2(largestDifference(cliBuilt, built, same) < 1e-12, "the saved model runs differently in flexim-cli");
    QCOMPARE(same.size(), compared.size());
    Q_UNUSED(doc);
  }

  /// The rotation handle on a selected virtual body: a drag along its z ring, seen from the top
  /// (z towards the viewer), turns it by the angle swept, counter-clockwise positive, in one
  /// undoable edit; with Ctrl in 15° steps; Esc during a drag leaves it as it was. Its nodes
  /// k, m, n are drawn over its sphere (the view changes where they are).
  void turnAVirtualBodyWithTheHandle() {
    QVERIFY(m_window->openModelFile(kFlexibleCrank));
    activate();
    QTest::keyClick(m_window.get(), Qt::Key_7, Qt::ControlModifier);  // top view: looking down z
    QTRY_VERIFY(!m_window->viewport()->isCameraMoving());
    clickRow("rod_B");
    const render::RotationHandle& handle = m_window->orientationHandle()->handle();
    QVERIFY(handle.isVisible());
    ModelDocument* doc = m_window->document();
    const ItemId vb = doc->findItem("virtual_bodies", "rod_B");
    const Quat start = std::get<Quat>(doc->value(vb, "orientation"));
    const int commands = doc->undoStack()->count();

    // the marks of nodes k, m, n are seen: the view differs where they are drawn
    VtkViewport* view = m_window->viewport();
    QCOMPARE(m_window->scene().markedNodeCount(), std::size_t(3));
    const QImage marked = view->screenshot();
    m_window->scene().markNodes(0, {});
    const QImage unmarked = view->screenshot();
    int changed = 0;
    for (int y = 0; y < marked.height(); ++y)
      for (int x = 0; x < marked.width(); ++x) changed += marked.pixel(x, y) != unmarked.pixel(x, y);
    QVERIFY2(changed > 20, qPrintable(QString("%1 pixels show the node marks").arg(changed)));
    clickRow("rod_A");
    clickRow("rod_B");  // marks back

    // a point of the z ring at an angle (degrees, in the ring's plane), in widget pixels
    const auto ringPoint = [&](double degrees) {
      const double a = degrees * M_PI / 180;
      const Vec3 p = handle.frame() * Vec3(handle.radius() * std::cos(a), handle.radius() * std::sin(a), 0);
      return pointOf(view, p.data());
    };
    const auto dragRing = [&](double from, double to, Qt::KeyboardModifiers modifiers, bool escape) {
      std::vector<QPoint> path;  // in the ring's place before the drag (it turns as the mouse goes)
      for (int i = 0; i <= 8; ++i) path.push_back(ringPoint(from + (to - from) * i / 8));
      QTest::mousePress(view, Qt::LeftButton, {}, path[0]);
      QVERIFY(view->isDragging());
      for (int i = 1; i <= 8; ++i) {
        const QPoint at = path[std::size_t(i)];
        QMouseEvent move(QEvent::MouseMove, at, view->mapToGlobal(at), Qt::NoButton, Qt::LeftButton, modifiers);
        QApplication::sendEvent(view, &move);
      }
      if (escape) QTest::keyClick(m_window.get(), Qt::Key_Escape);
      QTest::mouseRelease(view, Qt::LeftButton, {}, path.back());
      QApplication::processEvents();
    };
    // the turn from `from` to `to` about z in degrees: a pure z rotation, checked (the mouse goes
    // through whole pixels: the angle swept is within a degree or two of the drawn one)
    const auto turnAboutZ = [&](const Quat& from, const Quat& to) {
      const Quat turn = from.conjugate() * to;
      if (std::abs(turn.x()) > 1e-12 || std::abs(turn.y()) > 1e-12) return 1e9;
      return 2 * std::atan2(turn.z(), turn.w()) * 180 / M_PI;
    };
    const auto orientation = [&] { return std::get<Quat>(doc->value(vb, "orientation")); };
    dragRing(-30, 10, {}, false);
    QCOMPARE(doc->undoStack()->count(), commands + 1);
    const Quat turned = orientation();
    const double degrees = turnAboutZ(start, turned);
    QVERIFY2(std::abs(degrees - 40) <= 2 && std::abs(degrees - std::round(degrees)) < 1e-9, qPrintable(QString::number(degrees)));
    QVERIFY2(doc->undoStack()->undoText().contains("rod_B") &&
                 doc->undoStack()->undoText().contains(QString("%1°").arg(std::lround(degrees))),
             qPrintable(doc->undoStack()->undoText()));
    QVERIFY(handle.isVisible());  // on the turned body again after the redraw
    const double radians = degrees * M_PI / 180;
    QVERIFY((handle.frame().linear() * Vec3::UnitX()).isApprox(Vec3(std::cos(radians), std::sin(radians), 0), 1e-9));

    // undo and redo
    QTest::keyClick(m_window.get(), Qt::Key_Z, Qt::ControlModifier);
    QVERIFY(orientation().coeffs().isApprox(start.coeffs(), 1e-15));
    QTest::keyClick(m_window.get(), Qt::Key_Z, Qt::ControlModifier | Qt::ShiftModifier);
    QVERIFY(orientation().coeffs().isApprox(turned.coeffs(), 1e-15));

    // with Ctrl: 15° steps (about -20° -> -15°, clockwise), a second undo step
    dragRing(60, 40, Qt::ControlModifier, false);
    QCOMPARE(doc->undoStack()->count(), commands + 2);
    QCOMPARE(std::lround(turnAboutZ(turned, orientation()) * 1e9), -15'000'000'000L);

    // Esc during a drag: nothing changes
    const Quat before = orientation();
    dragRing(0, 90, {}, true);
    QCOMPARE(doc->undoStack()->count(), commands + 2);
    QVERIFY(orientation().coeffs() == before.coeffs());
    QVERIFY(!view->isDragging());

    // a press beside the rings turns the camera, not the body
    const Vec3 away = handle.frame().translation() + 3 * handle.radius() * Vec3::UnitY();
    const QPoint aside = pointOf(view, away.data());
    QTest::mousePress(view, Qt::LeftButton, {}, aside);
    QVERIFY(!view->isDragging());
    QTest::mouseRelease(view, Qt::LeftButton, {}, aside);
  }

  /// Every kind of edit the application makes, each through its own widgets, undone one by one
  /// with Ctrl+Z back to the model as opened and redone with Ctrl+Shift+Z to the end: after each
  /// step the model is the one recorded at that point (its saved text), and the tree and the view
  /// show as many items and bodies as it has. Kinds: a typed field (SetField), a rename that
  /// carries references along, a settings dialog's fields together, a reduced-body file read
  /// again, a turn with the handle, an item added by its dialog, a joint at a point with its
  /// markers, a virtual body placed on the mesh, a duplicate, a paste, a delete with dependents,
  /// and the file paths rewritten by Save As to another folder.
  void undoAndRedoEveryKindOfEdit() {
    QVERIFY(m_window->openModelFile(kFlexibleCrank));
    activate();
    ModelDocument* doc = m_window->document();
    QUndoStack* stack = doc->undoStack();
    std::vector<std::string> states{io::saveModelString(doc->model())};
    QStringList done;
    const auto recorded = [&](const QString& what) {
      QVERIFY2(stack->count() == int(states.size()), qPrintable(QString("%1: %2 commands after %3 steps")
                                                                  .arg(what).arg(stack->count()).arg(states.size())));
      const std::string now = io::saveModelString(doc->model());
      QVERIFY2(now != states.back(), qPrintable(what + " changed nothing"));
      states.push_back(now);
      done << stack->text(stack->count() - 1);
    };
    const auto consistent = [&](const QString& when) {
      const ModelSpec& m = doc->model();
      const int rows = int(m_window->modelTree()->findItems("*", Qt::MatchWildcard | Qt::MatchRecursive).size());
      QVERIFY2(m_window->scene().bodyCount() == m.bodies.size() + m.flexible_bodies.size() + m.virtual_bodies.size(),
               qPrintable(when + ": the view's bodies differ from the model's"));
      QVERIFY2(rows >= int(doc->items().size()), qPrintable(when + QString(": %1 tree rows for %2 items").arg(rows).arg(doc->items().size())));
    };

    // a typed field, and a rename (the joints and sensors naming the crank follow)
    clickRow("crank");
    typeField("mass", "0.2");
    recorded("a typed mass");
    typeField("name", "lever");
    recorded("a rename");
    QVERIFY(doc->model().joints[0].body2 == "lever" || doc->model().joints[0].body1 == "lever");
    // the solver settings dialog: several fields, one command
    test::whenModal<ItemDialog>(this, [&](ItemDialog* d) {
      type(edit(d, "t_end"), "0.05");
      type(edit(d, "output_interval"), "5e-4");
      pressOk(d);
    });
    QTest::keyClick(m_window.get(), Qt::Key_F5, Qt::ControlModifier);
    recorded("the solver settings");
    // the rod's reduced body named by another path to the same file: read again
    clickRow("rod");
    typeField("file", "../examples/rod/rod_round_c3d10.frb");
    recorded("the reduced-body file");
    // a turn with the handle, seen from the top: the slider about z
    QTest::keyClick(m_window.get(), Qt::Key_7, Qt::ControlModifier);
    QTRY_VERIFY(!m_window->viewport()->isCameraMoving());
    clickRow("slider");
    {
      const render::RotationHandle& handle = m_window->orientationHandle()->handle();
      QVERIFY(handle.isVisible());
      std::vector<QPoint> path;
      for (int i = 0; i <= 6; ++i) {
        const double a = (-20 + 10 * i) * M_PI / 180;
        const Vec3 p = handle.frame() * Vec3(handle.radius() * std::cos(a), handle.radius() * std::sin(a), 0);
        path.push_back(pointOf(m_window->viewport(), p.data()));
      }
      QTest::mousePress(m_window->viewport(), Qt::LeftButton, {}, path.front());
      for (const QPoint& at : path) QTest::mouseMove(m_window->viewport(), at);
      QTest::mouseRelease(m_window->viewport(), Qt::LeftButton, {}, path.back());
    }
    recorded("a turn with the handle");
    // a body from the Add menu's dialog; a joint at a point (markers on both bodies with it)
    test::whenModal<ItemDialog>(this, [&](ItemDialog* d) {
      type(edit(d, "name"), "extra");
      type(edit(d, "mass"), "1");
      for (int i = 0; i < 3; ++i) type(edit(d, QString("inertia:%1%1").arg(i)), "0.01");
      type(edit(d, "position:1"), "0.2");
      pressOk(d);
    });
    m_window->findChild<QMenu*>("menuAdd")->findChild<QAction*>("actionAdd:bodies")->trigger();
    recorded("an added body");
    activate();
    test::whenModal<JointDialog>(this, [&](JointDialog* d) {
      choose(d->findChild<QComboBox*>("kind"), "revolute");
      choose(d->findChild<QComboBox*>("body1"), "ground");
      choose(d->findChild<QComboBox*>("body2"), "extra");
      test::typeInto(d->findChild<QLineEdit*>("origin"), "0, 0.2, 0");
      test::typeInto(d->findChild<QLineEdit*>("axis"), "0, 0, 1");
      pressOk(d);
    });
    QTest::keyClick(m_window.get(), Qt::Key_J, Qt::ControlModifier);
    recorded("a joint at a point");
    // a virtual body at a point clicked on the rod (mid-span, on top)
    activate();
    m_window->findChild<QMenu*>("menuPlaceVirtualBody")->findChild<QAction*>("actionPlaceAtPoint")->trigger();
    {
      const FlexibleBodySpec& rod = doc->model().flexible_bodies[0];
      const Vec3 mid = rod.position + rod.orientation * Vec3(0.15, 0, 0.004);
      clickAtWorld(mid.data());
    }
    recorded("a virtual body placed on the mesh");
    // duplicate, copy and paste, delete with what depends on it
    clickRow("extra");
    m_window->findChild<QAction*>("actionDuplicate")->trigger();
    recorded("a duplicate");
    clickRow("lever");
    m_window->modelTree()->setFocus();
    QTest::keyClick(m_window->modelTree(), Qt::Key_C, Qt::ControlModifier);
    QCOMPARE(pasteInto(*m_window), QString());
    recorded("a paste");
    clickRow("extra");
    QTimer::singleShot(200, this, [] {
      if (auto* box = qobject_cast<QMessageBox*>(QApplication::activeModalWidget()))
        for (QAbstractButton* b : box->buttons())
          if (b->text().startsWith("Delete all")) b->click();
    });
    m_window->modelTree()->setFocus();
    m_window->findChild<QAction*>("actionDelete")->trigger();
    recorded("a delete with dependents");
    // saved in another folder: the relative .frb path rewritten, an undoable step
    QDir(m_dir.path()).mkpath("elsewhere");
    QVERIFY(m_window->saveModelFile(m_dir.filePath("elsewhere/moved.json")));
    recorded("Save As to another folder");
    consistent("at the end");

    // all undone, one by one, back to the model as opened; then all redone
    activate();
    m_window->modelTree()->setFocus();
    for (std::size_t i = states.size() - 1; i > 0; --i) {
      QTest::keyClick(m_window->modelTree(), Qt::Key_Z, Qt::ControlModifier);
      const std::string now = io::saveModelString(doc->model());
      if (now != states[i - 1]) {
        QFile a(m_dir.filePath("expected.json")), b(m_dir.filePath("actual.json"));
        QVERIFY(a.open(QIODevice::WriteOnly) && b.open(QIODevice::WriteOnly));
        a.write(states[i - 1].c_str());
        b.write(now.c_str());
        a.close();
        b.close();
        QProcess diff;
        diff.start("diff", {a.fileName(), b.fileName()});
        diff.waitForFinished();
        qWarning("%s", diff.readAllStandardOutput().constData());
      }
      QVERIFY2(now == states[i - 1], qPrintable("undo of " + done[int(i - 1)]));
      consistent("undo of " + done[int(i - 1)]);
    }
    QCOMPARE(stack->index(), 0);
    for (std::size_t i = 1; i < states.size(); ++i) {
      QTest::keyClick(m_window->modelTree(), Qt::Key_Z, Qt::ControlModifier | Qt::ShiftModifier);
      QVERIFY2(io::saveModelString(doc->model()) == states[i], qPrintable("redo of " + done[int(i - 1)]));
      consistent("redo of " + done[int(i - 1)]);
    }
    QCOMPARE(done.size(), 12);
  }

  /// Add → Joint at a point takes its origin and axis from the last pick: the face clicked on the
  /// rod's end (its centre and normal fitted on the mesh), the rod's mantle (fitted as a cylinder:
  /// the rod's axis), or a marker; the joint made there has its markers on that frame.
  void jointAtAFittedFaceBoreOrMarker() {
    // the rod's reduced body alone (nothing in front of its faces)
    QVERIFY(m_window->openModelFile(QStringLiteral(FLEXIM_SOURCE_DIR "/resources/examples/rod/rod_round_c3d10.frb")));
    activate();
    QTest::qWait(50);  // the view frames the body once the Modes panel has its place
    m_window->modeBrowser()->stop();  // its first mode is animated: the rod at rest again
    const FlexibleBodySpec& rod = m_window->model().flexible_bodies[0];
    // what the joint dialog offers after a click at `world`, its origin and axis for entry `prefix`
    const auto placeFrom = [&](const Vec3& world, const QString& prefix, Vec3& origin, Vec3& axis, QString& offered) {
      activate();
      clickAtWorld(world.data());
      test::whenModal<JointDialog>(this, [&](JointDialog* d) {
        auto* from = d->findChild<QComboBox*>("from");
        for (int i = 0; i < from->count(); ++i) offered += from->itemText(i) + "\n";
        if (from->findText(prefix, Qt::MatchStartsWith) >= 0) choose(from, from->itemText(from->findText(prefix, Qt::MatchStartsWith)));
        const auto read = [](QLineEdit* e) {
          const QStringList p = e->text().split(',');
          return Vec3(p.value(0).toDouble(), p.value(1).toDouble(), p.value(2).toDouble());
        };
        origin = read(d->findChild<QLineEdit*>("origin"));
        axis = read(d->findChild<QLineEdit*>("axis"));
        d->reject();
      });
      QTest::keyClick(m_window.get(), Qt::Key_J, Qt::ControlModifier);
    };
    Vec3 origin, axis;
    QString offered;
    // the end face at FE x = 0.3, seen face on (from +x), clicked off its centre
    {
      vtkCamera* camera = m_window->viewport()->renderer()->GetActiveCamera();
      const Vec3 end = rod.position + Vec3(0.3, 0, 0);
      camera->SetFocalPoint(end.x(), end.y(), end.z());
      camera->SetPosition(end.x() + 0.2, end.y(), end.z());
      camera->SetViewUp(0, 0, 1);
      m_window->viewport()->update();
    }
    placeFrom(rod.position + Vec3(0.3, 0.0012, 0.0009), "face centre", origin, axis, offered);
    QVERIFY2(offered.contains("face centre") && offered.contains("FE node"), qPrintable(offered));
    QVERIFY2((origin - (rod.position + Vec3(0.3, 0, 0))).norm() < 1e-9, qPrintable(offered));
    QVERIFY2(std::abs(std::abs(axis.x()) - 1) < 1e-9, qPrintable(QString("%1 %2 %3").arg(axis.x()).arg(axis.y()).arg(axis.z())));
    // the mantle at mid-span, seen from the top: a cylinder about the rod's axis
    activate();
    QTest::keyClick(m_window.get(), Qt::Key_7, Qt::ControlModifier);
    QTRY_VERIFY(!m_window->viewport()->isCameraMoving());
    offered.clear();
    placeFrom(rod.position + Vec3(0.12, 0.0, 0.0049), "bore axis", origin, axis, offered);
    QVERIFY2(offered.contains("bore axis"), qPrintable(offered));
    QVERIFY2(std::abs(std::abs(axis.x()) - 1) < 1e-6, qPrintable(QString("%1 %2 %3").arg(axis.x()).arg(axis.y()).arg(axis.z())));
    QVERIFY2(std::hypot(origin.y(), origin.z()) < 1e-6, qPrintable(QString("%1 %2 %3").arg(origin.x()).arg(origin.y()).arg(origin.z())));

    // from a marker: the crank's pin A, made into a new joint between the slider and the crank
    QVERIFY(m_window->openModelFile(kFlexibleCrank));
    activate();
    const ModelSpec& m = m_window->model();
    Vec3 pinA = Vec3::Zero();
    for (const MarkerSpec& marker : m.bodies[0].markers)
      if (marker.name == "A") pinA = m.bodies[0].position + m.bodies[0].orientation * marker.position;
    const std::size_t joints = m.joints.size();
    // the two bodies selected last (here in the tree) are the joint's
    clickRow("crank");
    clickRow("slider");
    test::whenModal<JointDialog>(this, [&](JointDialog* d) {
      QCOMPARE(d->findChild<QComboBox*>("body1")->currentText(), QString("crank"));
      QCOMPARE(d->findChild<QComboBox*>("body2")->currentText(), QString("slider"));
      choose(d->findChild<QComboBox*>("from"), "marker 'A' on crank");
      choose(d->findChild<QComboBox*>("kind"), "spherical");
      pressOk(d);
    });
    QTest::keyClick(m_window.get(), Qt::Key_J, Qt::ControlModifier);
    QCOMPARE(m.joints.size(), joints + 1);
    const JointSpec& made = m.joints.back();
    for (const RigidBodySpec& b : m.bodies)
      for (const MarkerSpec& marker : b.markers)
        if ((b.name == made.body1 && marker.name == made.marker1) || (b.name == made.body2 && marker.name == made.marker2))
          QVERIFY2((b.position + b.orientation * marker.position - pinA).norm() < 1e-12, marker.name.c_str());

    // between two point masses, at the lower one's eye: the dialog places a point mass's
    // markers as it places any body's (its start pose from the body table); the joint above is
    // left unsaved: the example stays as it is
    m_window->document()->undoStack()->setClean();
    QVERIFY(m_window->openModelFile(QStringLiteral(FLEXIM_SOURCE_DIR "/resources/examples/hanging_chain.json")));
    activate();
    const PointMassSpec lower = m.point_masses[1];
    const Vec3 eye = lower.position + lower.markers[0].position;
    clickRow(QString::fromStdString(m.point_masses[0].name));
    clickRow(QString::fromStdString(lower.name));
    test::whenModal<JointDialog>(this, [&](JointDialog* d) {
      choose(d->findChild<QComboBox*>("from"), QString("marker '%1' on %2").arg(QString::fromStdString(lower.markers[0].name),
                                                                                QString::fromStdString(lower.name)));
      choose(d->findChild<QComboBox*>("kind"), "spherical");
      pressOk(d);
    });
    QTest::keyClick(m_window.get(), Qt::Key_J, Qt::ControlModifier);
    const JointSpec& tie = m.joints.back();
    QCOMPARE(tie.type.key(), std::string("spherical"));
    int ends = 0;
    for (const PointMassSpec& p : m.point_masses)
      for (const MarkerSpec& marker : p.markers)
        if ((p.name == tie.body1 && marker.name == tie.marker1) || (p.name == tie.body2 && marker.name == tie.marker2)) {
          QVERIFY2((p.position + marker.position - eye).norm() < 1e-12, marker.name.c_str());
          ++ends;
        }
    QCOMPARE(ends, 2);
  }

  /// Add → Rigid body: box, cylinder or sphere: an aluminium cylinder typed in the dialog
  /// gets the closed-form mass and inertia of the solid, is drawn as that cylinder (its extent in
  /// the view), and is saved and read back as a visual of shape "cylinder".
  void rigidBodyFromAPrimitive() {
    m_window->findChild<QAction*>("actionNew")->trigger();
    const QString file = m_dir.filePath("pin.json");
    QVERIFY(m_window->saveModelFile(file));
    activate();
    test::whenModal<QDialog>(this, [&](QDialog* d) {
      QCOMPARE(d->objectName(), QString("shapeDialog"));
      choose(d->findChild<QComboBox*>("shape"), "cylinder");
      test::typeInto(d->findChild<QLineEdit*>("radius"), "0.02");
      test::typeInto(d->findChild<QLineEdit*>("length"), "0.1");
      test::typeInto(d->findChild<QLineEdit*>("density"), "2700");
      test::whenModal<ItemDialog>(this, [&](ItemDialog* body) {
        type(edit(body, "name"), "pin");
        pressOk(body);
      });
      QTest::mouseClick(d->findChild<QDialogButtonBox*>()->button(QDialogButtonBox::Ok), Qt::LeftButton);
    });
    m_window->findChild<QMenu*>("menuAdd")->findChild<QAction*>("actionAddRigidBodyShape")->trigger();
    QTRY_COMPARE(m_window->model().bodies.size(), std::size_t(1));
    const RigidBodySpec& pin = m_window->model().bodies[0];
    QCOMPARE(pin.name, std::string("pin"));
    const double r = 0.02, h = 0.1, m = 2700 * M_PI * r * r * h;
    QVERIFY(std::abs(pin.mass / m - 1) < 1e-12);
    const Vec3 moments(m * (3 * r * r + h * h) / 12, m * (3 * r * r + h * h) / 12, m * r * r / 2);
    QVERIFY2((pin.inertia - Mat3(moments.asDiagonal())).norm() < 1e-12 * moments.norm(), "inertia");
    QVERIFY(pin.visual.shape == VisualSpec::Shape::Cylinder && pin.visual.radius == r && pin.visual.length == h);
    // drawn as the cylinder: 40 mm across, 100 mm along z
    const auto actors = m_window->scene().actorsOf("bodies[0]");
    QVERIFY(!actors.empty());
    double b[6];
    actors.front()->GetBounds(b);
    QVERIFY2(std::abs(b[1] - b[0] - 2 * r) < 1e-6 && std::abs(b[5] - b[4] - h) < 1e-6,  // float points
             qPrintable(QString("%1 x %2 x %3").arg(b[1] - b[0]).arg(b[3] - b[2]).arg(b[5] - b[4])));
    // saved and read back
    QVERIFY(m_window->saveModelFile(file));
    ModelSpec back;
    Diagnostics diag;
    QVERIFY(io::loadModelFile(file.toStdString(), back, diag));
    QVERIFY(back.bodies[0].visual.shape == VisualSpec::Shape::Cylinder && back.bodies[0].visual.length == h);
    QFile saved(file);
    QVERIFY(saved.open(QIODevice::ReadOnly));
    QVERIFY(saved.readAll().contains("\"shape\": \"cylinder\""));
  }

  /// Edit → Copy in one window, Edit → Paste in another (a new model in another folder): the
  /// flexible rod with its virtual bodies arrives with its .frb path relative to the new folder;
  /// pasted again, names get numbers; a joint whose bodies are not there is refused with the
  /// reason and nothing changes; undo takes a paste back.
  void copyAndPasteBetweenModels() {
    QVERIFY(m_window->openModelFile(kFlexibleCrank));
    activate();
    m_window->modelTree()->setFocus();
    clickRow("rod");
    QTest::keyClick(m_window->modelTree(), Qt::Key_C, Qt::ControlModifier);
    QVERIFY(QGuiApplication::clipboard()->mimeData()->hasFormat(ItemActions::kClipboardMime));
    QVERIFY(QGuiApplication::clipboard()->text().contains("rod_round_c3d10.frb"));

    MainWindow other;
    other.resize(900, 700);
    other.show();
    QVERIFY(QTest::qWaitForWindowExposed(&other));
    other.findChild<QAction*>("actionNew")->trigger();
    QDir(m_dir.path()).mkpath("other");
    QVERIFY(other.saveModelFile(m_dir.filePath("other/pasted.json")));
    other.activateWindow();
    QVERIFY(QTest::qWaitForWindowActive(&other));
    QString refusal = pasteInto(other);
    QVERIFY2(refusal.isEmpty(), qPrintable(refusal));
    QCOMPARE(other.model().flexible_bodies.size(), std::size_t(1));
    const FlexibleBodySpec& rod = other.model().flexible_bodies[0];
    QCOMPARE(rod.name, std::string("rod"));
    QVERIFY(rod.data);  // the .frb was read from where the path leads
    QVERIFY2(QDir(m_dir.filePath("other")).isRelativePath(QString::fromStdString(rod.file)), rod.file.c_str());
    QCOMPARE(QFileInfo(QDir(m_dir.filePath("other")).filePath(QString::fromStdString(rod.file))).canonicalFilePath(),
             QFileInfo(QStringLiteral(FLEXIM_SOURCE_DIR "/resources/examples/rod/rod_round_c3d10.frb")).canonicalFilePath());
    QCOMPARE(other.document()->selected(), other.document()->findItem("flexible_bodies", "rod"));
    QCOMPARE(other.document()->undoStack()->undoText(), QString("Paste 1 item"));
    // again: a second rod under a free name
    refusal = pasteInto(other);
    QVERIFY2(refusal.isEmpty(), qPrintable(refusal));
    QCOMPARE(other.model().flexible_bodies.size(), std::size_t(2));
    QCOMPARE(other.model().flexible_bodies[1].name, std::string("rod1"));
    other.document()->undoStack()->undo();
    QCOMPARE(other.model().flexible_bodies.size(), std::size_t(1));

    // a joint alone, whose bodies the other model does not have: refused, nothing pasted
    activate();
    m_window->modelTree()->setFocus();
    clickRow("crank_pin");
    QTest::keyClick(m_window->modelTree(), Qt::Key_C, Qt::ControlModifier);
    other.activateWindow();
    QVERIFY(QTest::qWaitForWindowActive(&other));
    refusal = pasteInto(other);
    QVERIFY2(refusal.contains("crank") && refusal.contains("copy it too"), qPrintable(refusal));
    QCOMPARE(other.model().joints.size(), std::size_t(0));
    other.document()->undoStack()->setClean();
  }
 private:
  /// Chooses text in a combo box by keyboard: arrow keys to the entry, each step committed (a
  /// combo showing a draft's empty value steps away and back). A panel field's combo is found
  /// again after every key: a kind or body chosen lays the panel out again.
  static void choose(const std::function<QComboBox*()>& find, const QString& text) {
    for (int step = 0; step < 40; ++step) {
      QApplication::processEvents();
      QComboBox* c = find();
      QVERIFY(c);
      const int target = c->findText(text);
      QStringList offered;
      for (int i = 0; i < c->count(); ++i) offered << c->itemText(i);
      QVERIFY2(target >= 0, qPrintable(text + " is not offered: " + offered.join(", ")));
      if (c->currentText() == text && step > 0) return;
      c->setFocus();
      if (c->currentIndex() != target) QTest::keyClick(c, c->currentIndex() < target ? Qt::Key_Down : Qt::Key_Up);
      else if (c->count() > 1 && c->isEditable()) QTest::keyClick(c, target + 1 < c->count() ? Qt::Key_Down : Qt::Key_Up);
      else if (c->isEditable()) {  // the only entry: typed and committed with Return
        c->lineEdit()->selectAll();
        QTest::keyClicks(c->lineEdit(), text);
        QTest::keyClick(c->lineEdit(), Qt::Key_Return);
      }
    }
    QFAIL(qPrintable("could not choose " + text));
  }
  static void choose(QComboBox* combo, const QString& text) {
    QPointer<QComboBox> c(combo);
    choose([c] { return c.data(); }, text);
  }
  static void choose(ItemDialog* d, const QString& key, const QString& text) {
    choose([d, key] { return combo(d, key); }, text);
    for (QLabel* error : d->panel()->findChildren<QLabel*>())
      if (error->objectName().startsWith("error:") && !error->isHidden())
        qWarning("%s: %s", qPrintable(error->objectName()), qPrintable(error->text()));
  }
  /// Ticks the boxes of a list field (a sensor's quantities) in an item dialog.
  static void tick(ItemDialog* d, const QString& key, const QStringList& values) {
    for (const QString& v : values) {
      auto* box = d->panel()->findChild<QCheckBox*>("field:" + key + ":" + v);
      QVERIFY2(box, qPrintable(key + ":" + v));
      if (!box->isChecked()) test::clickCheckBox(d->panel(), box->objectName());
      QVERIFY2(d->panel()->findChild<QCheckBox*>("field:" + key + ":" + v)->isChecked(), qPrintable(key + ":" + v));
    }
  }
  /// Presses OK; a refusal box (the item was not added) fails the test with its text.
  void pressOk(QDialog* dialog) {
    QTimer::singleShot(200, this, [] {
      if (auto* box = qobject_cast<QMessageBox*>(QApplication::activeModalWidget())) {
        QWARN(qPrintable("refused: " + box->text()));
        box->reject();
      }
    });
    QTest::mouseClick(dialog->findChild<QDialogButtonBox*>()->button(QDialogButtonBox::Ok), Qt::LeftButton);
    if (dialog->isVisible()) dialog->reject();
  }
  /// An ItemDialog's editor of a field (line edits; "position:0" for a vector's x).
  static QLineEdit* edit(ItemDialog* d, const QString& key) {
    auto* e = d->panel()->findChild<QLineEdit*>("field:" + key);
    if (!e) qWarning("%s has no editor field:%s", qPrintable(d->windowTitle()), qPrintable(key));
    return e;
  }
  static QComboBox* combo(ItemDialog* d, const QString& key) { return d->panel()->findChild<QComboBox*>("field:" + key); }
  /// With FLEXIM_TUTORIAL_SHOTS set (scripts/tutorial_screenshots.sh), saves what a window shows
  /// as <that folder>/<name>.png for docs/tutorial.md; its OpenGL view is drawn in explicitly.
  static void tutorialShot(QWidget* window, const QString& name, VtkViewport* view = nullptr) {
    const QString folder = qEnvironmentVariable("FLEXIM_TUTORIAL_SHOTS");
    if (folder.isEmpty() || !window) return;
    QApplication::processEvents();
    QImage image = window->grab().toImage().convertToFormat(QImage::Format_RGB32);
    if (view) {
      QPainter painter(&image);
      painter.drawImage(QRect(view->mapTo(window, QPoint(0, 0)), view->size()), view->screenshot());
    }
    QDir().mkpath(folder);
    QVERIFY(image.save(QDir(folder).filePath(name + ".png")));
  }
  /// Ctrl+V in a window's tree; the text of the box that refused it, "" when none came up.
  QString pasteInto(MainWindow& window) {
    QString refusal;
    QTimer::singleShot(100, this, [&refusal] {
      if (auto* box = qobject_cast<QMessageBox*>(QApplication::activeModalWidget())) {
        refusal = box->text();
        box->accept();
      }
    });
    window.modelTree()->setFocus();
    QTest::keyClick(window.modelTree(), Qt::Key_V, Qt::ControlModifier);
    QTest::qWait(150);
    return refusal;
  }
  /// Types into a field of the main window's property panel, then Return.
  void typeField(const QString& key, const QString& text) {
    QApplication::processEvents();
    auto* e = m_window->propertyPanel()->findChild<QLineEdit*>("field:" + key);
    QVERIFY2(e, qPrintable(key));
    type(e, text);
  }
  /// Clicks the (first) tree row whose first column is text, if there is one.
  void clickRow(const QString& text) {
    ModelTree* tree = m_window->modelTree();
    const auto rows = tree->findItems(text, Qt::MatchExactly | Qt::MatchRecursive);
    if (rows.isEmpty()) return;
    tree->scrollToItem(rows.front());
    QTest::mouseClick(tree->viewport(), Qt::LeftButton, {}, tree->visualItemRect(rows.front()).center());
    QApplication::processEvents();
  }
  /// A left click (press and release in place) where a world point appears in the main view.
  void clickAtWorld(const double* world) {
    VtkViewport* view = m_window->viewport();
    const QPoint at = pointOf(view, world);
    QVERIFY2(view->rect().contains(at), qPrintable(QString("%1, %2").arg(at.x()).arg(at.y())));
    QTest::mouseClick(view, Qt::LeftButton, {}, at);
    QApplication::processEvents();
  }
  void activate() {
    m_window->activateWindow();
    QVERIFY(QTest::qWaitForWindowActive(m_window.get()));
  }
  /// Where a world point appears in a view showing renderer (widget pixels).
  static QPoint pointOf(VtkViewport* view, const double* world) {
    QApplication::processEvents();
    view->screenshot();  // render at the widget's present size: the projection below is the one seen
    vtkRenderer* renderer = view->renderer();
    renderer->SetWorldPoint(world[0], world[1], world[2], 1.0);
    renderer->WorldToDisplay();
    const double* d = renderer->GetDisplayPoint();
    const qreal ratio = view->devicePixelRatioF();
    return QPoint(int(std::lround(d[0] / ratio)), int(std::lround(view->height() - 1 - d[1] / ratio)));
  }
  /// Replaces an editor's text by typing, then Return (commits a property panel field).
  static void type(QLineEdit* edit, const QString& text) {
    test::typeInto(edit, text);
    QTest::keyClick(edit, Qt::Key_Return);
    QApplication::processEvents();
  }

  QTemporaryDir m_dir;
  std::unique_ptr<MainWindow> m_window;
};

int main(int argc, char** argv) {
  QStandardPaths::setTestModeEnabled(true);
  setDefaultSurfaceFormatForVtk();
  QApplication app(argc, argv);
  ModellingTest test;
  return QTest::qExec(&test, argc, argv);
}

#include "ui_modelling_test.moc"
