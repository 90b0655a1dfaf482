// Contacts in the application, driven with real widget events: the clearance slider-crank is run,
// then stepped frame by frame with the keyboard; at every frame the scene draws each contact
// point closed exactly when the run's status channel says so, and the contacts are listed in the
// model tree.
#include "core/model/description.h"
#include "render/model_scene.h"
#include "ui/contact_dialog.h"
#include "ui/main_window.h"
#include "ui/model_document.h"
#include "ui/playback_bar.h"
#include "widget_events.h"

#include <QApplication>
#include <QDialogButtonBox>
#include <QLineEdit>
#include <QMenu>
#include <QPushButton>
#include <QTimer>
#include <QTreeWidget>
#include <QtTest>

#include <functional>
#include <memory>

using namespace flexim;
using namespace flexim::ui;

class ContactsTest : public QObject {
  Q_OBJECT


 private slots:
  /// Add → Contact at points…: the ball's centre marker as the point, the slope's marker as the
  /// plane; OK makes a marker on each body at those places and the contact, one undo step.
  void contactAddedAtMarkersInOneUndoStep() {
    auto window = std::make_unique<MainWindow>();
    window->resize(1200, 800);
    window->show();
    QVERIFY(QTest::qWaitForWindowExposed(window.get()));
    QVERIFY(window->openModelFile(FLEXIM_SOURCE_DIR "/resources/examples/bouncing_ball.json"));
    const ModelSpec before = window->model();
    test::whenModal<ContactDialog>(this, [&](ContactDialog* d) {
      test::chooseInCombo(d->findChild<QComboBox*>("kind"), "sphere_plane");
      test::chooseInCombo(d->findChild<QComboBox*>("body1"), "ball");
      test::chooseInCombo(d->findChild<QComboBox*>("pointFrom"), "marker 'centre' on ball");
      test::chooseInCombo(d->findChild<QComboBox*>("body2"), "ground");
      test::chooseInCombo(d->findChild<QComboBox*>("surfaceFrom"), "marker 'slope' on ground");
      test::typeInto(d->findChild<QLineEdit*>("name"), "second");
      test::typeInto(d->findChild<QLineEdit*>("friction"), "0.3");
      test::typeInto(d->findChild<QLineEdit*>("restitution"), "0.5");
      QTest::mouseClick(d->findChild<QDialogButtonBox*>()->button(QDialogButtonBox::Ok), Qt::LeftButton);
      if (d->isVisible()) d->reject();
    });
    window->findChild<QMenu*>("menuAdd")->findChild<QAction*>("actionAddContactAtPoints")->trigger();
    const ModelSpec& m = window->model();
    QCOMPARE(m.contacts.size(), std::size_t(2));
    const ContactSpec& c = m.contacts[1];
    QCOMPARE(c.name, std::string("second"));
    QCOMPARE(c.type.key(), std::string("sphere_plane"));
    QCOMPARE(c.body1, std::string("ball"));
    QCOMPARE(c.body2, std::string("ground"));
    QCOMPARE(c.friction, 0.3);
    QCOMPARE(c.restitution, 0.5);
    // the new plane marker: at the slope's origin with the slope's normal as its z axis
    const MarkerSpec* plane = nullptr;
    for (const MarkerSpec& g : m.ground_markers)
      if (g.name == c.marker2) plane = &g;
    QVERIFY(plane);
    const Vec3 normal = plane->orientation * Vec3::UnitZ(), slope = before.ground_markers[0].orientation * Vec3::UnitZ();
    QVERIFY((normal - slope).norm() < 1e-9);
    QVERIFY(plane->position.norm() < 1e-12);
    QCOMPARE(m.bodies[0].markers.size(), before.bodies[0].markers.size() + 1);
    // one undo step takes the contact and both markers
    window->document()->undoStack()->undo();
    QCOMPARE(window->model().contacts.size(), std::size_t(1));
    QCOMPARE(window->model().ground_markers.size(), before.ground_markers.size());
    QCOMPARE(window->model().bodies[0].markers.size(), before.bodies[0].markers.size());
  }

  void closedContactsAreDrawnAsTheRunSays() {
    auto window = std::make_unique<MainWindow>();
    window->resize(1200, 800);
    window->show();
    QVERIFY(QTest::qWaitForWindowExposed(window.get()));
    window->activateWindow();
    QVERIFY(QTest::qWaitForWindowActive(window.get()));
    QVERIFY(window->openModelFile(FLEXIM_SOURCE_DIR "/resources/examples/slider_crank_clearance_rigid.json"));
    // the tree lists the contact under its own heading
    bool listed = false;
    for (auto* tree : window->findChildren<QTreeWidget*>())
      listed = listed || !tree->findItems("guide", Qt::MatchExactly | Qt::MatchRecursive).isEmpty();
    QVERIFY(listed);
    QVERIFY(window->startRun());
    QTRY_VERIFY_WITH_TIMEOUT(!window->isRunning(), 60000);
    QVERIFY2(window->lastSummary().ok, window->lastSummary().message.c_str());
    const render::ModelScene& scene = window->scene();
    QCOMPARE(scene.contactPointCount(), std::size_t(4));
    const ResultTable& results = window->results();
    PlaybackBar* bar = window->playbackBar();
    bar->setCurrentFrame(0);
    int closedFrames = 0, openFrames = 0;
    for (int frame = 0; frame + 1 < bar->frameCount(); frame += 1) {
      for (int point = 0; point < 4; ++point) {
        const int status = results.channelIndex("guide_" + std::to_string(point + 1) + ".status");
        QVERIFY(status >= 0);
        const bool closed = results.column(std::size_t(status))[std::size_t(bar->currentFrame())] > 0;
        QCOMPARE(scene.contactPointClosed(std::size_t(point)), closed);
        (closed ? closedFrames : openFrames) += 1;
      }
      if (frame > 300) break;  // enough frames with impacts and free flight
      QTest::keyClick(window.get(), Qt::Key_Period);
    }
    QVERIFY(closedFrames > 0 && openFrames > 0);
  }
};

QTEST_MAIN(ContactsTest)
#include "ui_contacts_test.moc"
