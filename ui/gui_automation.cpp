#include "ui/gui_automation.h"

#include "ui/mode_browser.h"
#include "ui/model_document.h"
#include "ui/playback_bar.h"

#include <QTableWidget>

#include "ui/main_window.h"
#include "ui/messages_panel.h"

#include <QTimer>
#include <QWindow>

namespace flexim::ui {

GuiAutomation::GuiAutomation(MainWindow& window, AutomationRequest request, QObject* parent)
    : QObject(parent), m_window(window), m_request(std::move(request)) {}

void GuiAutomation::start() { QTimer::singleShot(0, this, &GuiAutomation::loadStep); }

void GuiAutomation::loadStep() {
  if (!m_request.modelPath.isEmpty() && MainWindow::isFeFile(m_request.modelPath)) {
    // an FE file is reduced in the background first
    // queued: the window finishes showing the body (its first elastic mode) before the steps go on
    connect(&m_window, &MainWindow::modelLoaded, this, &GuiAutomation::selectStep,
            Qt::ConnectionType(Qt::SingleShotConnection | Qt::QueuedConnection));
    connect(&m_window, &MainWindow::openFailed, this,
            [this] { fail(2, tr("cannot reduce the FE file '%1'").arg(m_request.modelPath)); }, Qt::SingleShotConnection);
    if (!m_window.openModelFile(m_request.modelPath)) fail(2, tr("cannot load '%1'").arg(m_request.modelPath));
    return;
  }
  if (!m_request.modelPath.isEmpty() && !m_window.openModelFile(m_request.modelPath))
    return fail(2, tr("cannot load model '%1'").arg(m_request.modelPath));
  selectStep();
}

void GuiAutomation::selectStep() {
  if (!m_request.select.isEmpty()) {
    ModelDocument& doc = *m_window.document();
    const ItemId id = doc.itemAtPath(m_request.select.toStdString());
    if (id == ModelDocument::kNoItem) return fail(2, tr("no item at '%1' to select").arg(m_request.select));
    doc.select(id);
  }
  for (const QString& assignment : m_request.set) {
    // ITEM.KEY=VALUE, the value read as the field's current one is (a number, an integer, a
    // flag, a text): one undoable edit each, as typed into the property panel
    ModelDocument& doc = *m_window.document();
    const qsizetype equals = assignment.indexOf('='), dot = assignment.left(equals).lastIndexOf('.');
    if (equals < 0 || dot < 0) return fail(2, tr("--set %1: expected ITEM.KEY=VALUE").arg(assignment));
    const ItemId id = doc.itemAtPath(assignment.left(dot).toStdString());
    if (id == ModelDocument::kNoItem) return fail(2, tr("--set %1: no item at '%2'").arg(assignment, assignment.left(dot)));
    const std::string key = assignment.mid(dot + 1, equals - dot - 1).toStdString();
    const QString text = assignment.mid(equals + 1);
    FieldValue value = doc.value(id, key);
    bool ok = true;
    if (std::holds_alternative<double>(value)) value = text.toDouble(&ok);
    else if (std::holds_alternative<int>(value)) value = text.toInt(&ok);
    else if (std::holds_alternative<bool>(value)) value = (ok = text == "true" || text == "false", text == "true");
    else if (std::holds_alternative<std::string>(value)) value = text.toStdString();
    else ok = false;
    QString error;
    if (!ok) error = tr("'%1' is not a value for %2 here").arg(text, QString::fromStdString(key));
    if (!ok || !doc.setField(id, key, value, error)) return fail(2, tr("--set %1: %2").arg(assignment, error));
  }
  if (m_request.systemModes) return systemModesStep();
  if (m_request.mode > 0) {
    ModeBrowser& modes = *m_window.modeBrowser();
    if (m_window.model().flexible_bodies.empty()) return fail(2, tr("--mode: the model has no flexible body"));
    if (modes.body() < 0) m_window.document()->select(m_window.document()->findItem(
                              "flexible_bodies", m_window.model().flexible_bodies.front().name));
    if (m_request.mode > modes.table()->rowCount())
      return fail(2, tr("--mode %1: the body has %2 modes").arg(m_request.mode).arg(modes.table()->rowCount()));
    modes.showMode(m_request.mode - 1);
    modes.freezeAtPeak();
  }
  if (!m_request.plot.isEmpty()) m_window.plotChannels(m_request.plot, m_request.plotX);
  runStep();
}

void GuiAutomation::systemModesStep() {
  connect(&m_window, &MainWindow::systemModesShown, this, [this](bool ok) {
    if (!ok) return fail(4, tr("no system modes (see Messages)"));
    ModeBrowser& modes = *m_window.modeBrowser();
    const int mode = std::max(1, m_request.mode);
    if (mode > modes.table()->rowCount())
      return fail(2, tr("--mode %1: the model has %2 system modes").arg(mode).arg(modes.table()->rowCount()));
    modes.showMode(mode - 1);
    modes.freezeAtPeak();
    if (!m_request.plot.isEmpty()) m_window.plotChannels(m_request.plot, m_request.plotX);
    runStep();
  }, Qt::SingleShotConnection);
  if (!m_window.showSystemModes()) {
    disconnect(&m_window, &MainWindow::systemModesShown, this, nullptr);
    fail(3, tr("the system modes did not start (no model, or it does not compile)"));
  }
}

void GuiAutomation::runStep() {
  if (!m_request.run && !m_request.statics) return screenshotStep();
  connect(&m_window, &MainWindow::runFinished, this, [this](bool ok) {
    if (!ok) {
      const QString reason = QString::fromStdString(m_window.lastSummary().message);
      return fail(4, tr("the run failed: %1").arg(reason.isEmpty() ? tr("see Messages") : reason));
    }
    resultsStep();
  }, Qt::SingleShotConnection);
  if (!(m_request.statics ? m_window.startStatic() : m_window.startRun())) {
    disconnect(&m_window, &MainWindow::runFinished, this, nullptr);
    fail(3, tr("the run did not start (no model, or it does not compile)"));
  }
}

void GuiAutomation::resultsStep() {
  const ResultTable& results = m_window.results();
  if (m_request.time >= 0 && !results.empty())
    m_window.playbackBar()->setCurrentFrame(int(results.indexAtTime(m_request.time)));
  if (!m_request.exportCsv.isEmpty() && !m_window.exportResultsCsv(m_request.exportCsv))
    return fail(6, tr("cannot export the results to '%1'").arg(m_request.exportCsv));
  animationStep();
}

bool GuiAutomation::waitForExpose(void (GuiAutomation::*retry)()) {
  QWindow* handle = m_window.windowHandle();
  if (handle && handle->isExposed()) return true;
  if (++m_exposeWaits > 100) {
    fail(5, tr("the window never became visible"));
  } else {
    QTimer::singleShot(50, this, retry);
  }
  return false;
}

void GuiAutomation::animationStep() {
  if (m_request.exportAnimation.isEmpty()) return screenshotStep();
  if (!waitForExpose(&GuiAutomation::animationStep)) return;
  const int frame = m_window.playbackBar()->currentFrame();
  if (!m_window.exportAnimation(m_request.exportAnimation))
    return fail(6, tr("cannot write the animation '%1'").arg(m_request.exportAnimation));
  m_window.playbackBar()->setCurrentFrame(frame);
  screenshotStep();
}

void GuiAutomation::screenshotStep() {
  if (m_request.screenshotPath.isEmpty()) {
    emit finished(0, {});
    return;
  }
  // let the window settle first: panels just shown take their place, queued view resets run
  if (!m_settled) {
    m_settled = true;
    QTimer::singleShot(100, this, &GuiAutomation::screenshotStep);
    return;
  }
  // the window must be on screen (exposed) before its OpenGL view can be grabbed, with its DOF count
  if (!waitForExpose(&GuiAutomation::screenshotStep)) return;
  if (!m_window.dofCountShown()) {
    QTimer::singleShot(20, this, &GuiAutomation::screenshotStep);
    return;
  }
  const QImage image = m_window.grabWindowImage();
  if (image.isNull() || !image.save(m_request.screenshotPath))
    return fail(5, tr("cannot write screenshot '%1'").arg(m_request.screenshotPath));
  emit finished(0, {});
}

void GuiAutomation::fail(int exitCode, const QString& message) {
  // nobody may be looking at the window: carry the errors along in the message
  QString full = message;
  for (const QString& line : m_window.messages()->lines(Severity::Error)) full += "\n  " + line;
  emit finished(exitCode, full);
}

}  // namespace flexim::ui
