// Contacts in the application, driven with real widget events: the clearance slider-crank is run,
// then stepped frame by frame with the keyboard; at every frame the scene draws each contact
// point closed exactly when the run's status channel says so, and the contacts are listed in the
// model tree.
#include "core/model/description.h"
#include "render/model_scene.h"
#include "ui/main_window.h"
#include "ui/playback_bar.h"

#include <QTreeWidget>
#include <QtTest>

#include <memory>

using namespace flexim;
using namespace flexim::ui;

class ContactsTest : public QObject {
  Q_OBJECT

 private slots:
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
