// Beams and system modes in the GUI, driven by widget events: Add → Beam member… meshes an arc
// into elements whose last node sits where the arc's geometry puts it, clamped to the ground, as
// one undo step, a bad value refused in the dialog with a message; Simulation → System modes (F9)
// lists the hanging double pendulum's two modes at their hand-derived frequencies and draws each.
#include "core/model/model.h"
#include "ui/beam_member_dialog.h"
#include "ui/main_window.h"
#include "ui/mode_browser.h"
#include "ui/vtk_viewport.h"
#include "ui/model_document.h"
#include "widget_events.h"

#include <QApplication>
#include <QCheckBox>
#include <QDialogButtonBox>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QPushButton>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTimer>
#include <QtTest>

#include <cmath>
#include <functional>
#include <memory>
#include <numbers>

using namespace flexim;
using namespace flexim::ui;

class BeamsTest : public QObject {
  Q_OBJECT


 private slots:
  /// A 45° arc of radius 100 in 8 elements (the Bathe–Bolourchi bend's geometry): nine nodes, the
  /// last at R (sin 45°, 1 − cos 45°, 0) to 1e-7 R; the clamp joint to the ground; one undo takes it all.
  /// A negative radius first: refused in place, the dialog stays open.
  void arcMemberAddedInOneUndoStep() {
    QTemporaryDir dir;
    const QString path = dir.filePath("empty.json");
    {
      QFile f(path);
      QVERIFY(f.open(QIODevice::WriteOnly));
      f.write(R"({"schema_version": 1, "name": "empty"})");
    }
    auto window = std::make_unique<MainWindow>();
    window->resize(1200, 800);
    window->show();
    QVERIFY(QTest::qWaitForWindowExposed(window.get()));
    QVERIFY(window->openModelFile(path));
    QString refusal;
    test::whenModal<BeamMemberDialog>(this, [&](BeamMemberDialog* d) {
      test::typeInto(d->findChild<QLineEdit*>("name"), "bend");
      test::chooseInCombo(d->findChild<QComboBox*>("shape"), "arc");
      test::typeInto(d->findChild<QLineEdit*>("radius"), "-1");
      test::typeInto(d->findChild<QLineEdit*>("sweep"), "45");
      QSpinBox* elements = d->findChild<QSpinBox*>("elements");
      elements->setFocus();
      elements->selectAll();
      QTest::keyClicks(elements, "8");
      test::typeInto(d->findChild<QLineEdit*>("youngs_modulus"), "1e7");
      test::typeInto(d->findChild<QLineEdit*>("poisson_ratio"), "0");
      test::typeInto(d->findChild<QLineEdit*>("area"), "1");
      test::typeInto(d->findChild<QLineEdit*>("iy"), "0.08333333333333333");
      test::typeInto(d->findChild<QLineEdit*>("iz"), "0.08333333333333333");
      QPushButton* ok = d->findChild<QDialogButtonBox*>()->button(QDialogButtonBox::Ok);
      QTest::mouseClick(ok, Qt::LeftButton);
      refusal = d->isVisible() ? d->findChild<QLabel*>("error")->text() : QString();
      if (qEnvironmentVariableIsSet("FLEXIM_KEEP_SCREENSHOT")) d->grab().save(qEnvironmentVariable("FLEXIM_KEEP_SCREENSHOT"));
      test::typeInto(d->findChild<QLineEdit*>("radius"), "100");
      QTest::mouseClick(ok, Qt::LeftButton);
      if (d->isVisible()) d->reject();
    });
    window->findChild<QMenu*>("menuAdd")->findChild<QAction*>("actionAddBeamMember")->trigger();
    QVERIFY2(refusal.contains("radius"), qPrintable(refusal));
    const ModelSpec& m = window->model();
    QCOMPARE(m.beam_nodes.size(), std::size_t(9));
    QCOMPARE(m.beam_elements.size(), std::size_t(8));
    const double R = 100, a = std::numbers::pi / 4;
    const Vec3 tip(R * std::sin(a), R * (1 - std::cos(a)), 0);
    const double miss = (m.beam_nodes.back().position - tip).norm();
    qInfo("last node %.3e m from the arc's end", miss);
    // each node where the element before it puts it unstressed: the element's fourth-order
    // integration of the curvature over κ l = 0.1 rad misses the exact arc by ~3e-8 R
    QVERIFY2(miss < 1e-7 * R, qPrintable(QString::number(miss)));
    QCOMPARE(m.beam_elements[0].youngs_modulus, 1e7);
    QVERIFY(std::abs(m.beam_elements[0].curvature.z() - 0.01) < 1e-15);
    QCOMPARE(m.joints.size(), std::size_t(1));
    QCOMPARE(m.joints[0].type.key(), std::string("fixed"));
    QCOMPARE(m.joints[0].body2, std::string("bend_0"));
    QCOMPARE(m.beam_nodes[4].markers.size(), std::size_t(1));
    window->document()->undoStack()->undo();
    QCOMPARE(window->model().beam_nodes.size(), std::size_t(0));
    QCOMPARE(window->model().beam_elements.size(), std::size_t(0));
    QCOMPARE(window->model().joints.size(), std::size_t(0));
    QCOMPARE(window->model().ground_markers.size(), std::size_t(0));
  }

  /// F9 on double_pendulum.json: two system modes at ω² = g (42 ∓ √1008)/14; clicking the second
  /// row draws it, the pendulum displaced otherwise than in the first.
  void systemModesListedAndDrawn() {
    auto window = std::make_unique<MainWindow>();
    window->resize(1200, 800);
    window->show();
    QVERIFY(QTest::qWaitForWindowExposed(window.get()));
    window->activateWindow();
    QVERIFY(QTest::qWaitForWindowActive(window.get()));
    QVERIFY(window->openModelFile(FLEXIM_SOURCE_DIR "/resources/examples/double_pendulum.json"));
    QSignalSpy shown(window.get(), &MainWindow::systemModesShown);
    QTest::keyClick(window.get(), Qt::Key_F9);
    QTRY_COMPARE_WITH_TIMEOUT(shown.count(), 1, 20000);
    QVERIFY(shown.at(0).at(0).toBool());
    ModeBrowser* modes = window->modeBrowser();
    QVERIFY(modes->showsSystemModes());
    QTableWidget* table = modes->table();
    QCOMPARE(table->rowCount(), 2);
    const double g = 9.81;
    const double w[2] = {std::sqrt(g * (42 - std::sqrt(1008.0)) / 14), std::sqrt(g * (42 + std::sqrt(1008.0)) / 14)};
    for (int i = 0; i < 2; ++i) {
      const double hz = table->item(i, 1)->text().toDouble();
      QVERIFY2(std::abs(hz / (w[i] / (2 * std::numbers::pi)) - 1) < 1e-5, qPrintable(table->item(i, 1)->text()));
    }
    modes->freezeAtPeak();
    const QImage first = window->viewport()->screenshot();
    const QRect row = table->visualItemRect(table->item(1, 0));
    QTest::mouseClick(table->viewport(), Qt::LeftButton, {}, row.center());
    QCOMPARE(modes->mode(), 1);
    modes->freezeAtPeak();
    const QImage second = window->viewport()->screenshot();
    QVERIFY2(test::differingFraction(first, second) > 0.001, qPrintable(QString::number(test::differingFraction(first, second))));
  }
};

QTEST_MAIN(BeamsTest)
#include "ui_beams_test.moc"
