// MainWindow, its run: start, pause and cancel, the samples as they arrive (playback bar, plots,
// colour range), the frame shown, and the traced point's path.
#include "ui/main_window.h"

#include "core/base/versions.h"
#include "io/csv_writer.h"
#include "io/fe/import.h"
#include "io/fe/reduced_body_file.h"
#include "io/model_json.h"
#include "render/model_scene.h"
#include "render/versions.h"
#include "ui/animation_export.h"
#include "ui/display_toolbar.h"
#include "ui/display_units.h"
#include "ui/fe_reduction_job.h"
#include "ui/messages_panel.h"
#include "ui/mode_browser.h"
#include "ui/model_document.h"
#include "ui/model_tree.h"
#include "ui/orientation_handle.h"
#include "ui/playback_bar.h"
#include "ui/plot_panel.h"
#include "ui/property_panel.h"
#include "ui/simulation_controller.h"
#include "io/model_check.h"
#include "ui/item_actions.h"
#include "ui/item_dialog.h"
#include "ui/recovery.h"
#include "ui/vtk_viewport.h"

#include <algorithm>
#include <utility>
#include <cmath>

#include <QAction>
#include <QActionGroup>
#include <QCloseEvent>
#include <QDockWidget>
#include <QDoubleSpinBox>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QFileDialog>
#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QMenuBar>
#include <QMessageBox>
#include <QMimeData>
#include <QPainter>
#include <QProgressBar>
#include <QProgressDialog>
#include <QPushButton>
#include <QLocale>
#include <QSettings>
#include <QShortcut>
#include <QStatusBar>
#include <QTableWidget>
#include <QTimer>
#include <QToolBar>
#include <QUndoView>
#include <QVBoxLayout>

namespace flexim::ui {

bool MainWindow::isRunning() const { return m_controller && m_controller->isRunning(); }

void MainWindow::checkModel() {
  const io::ModelCheckReport check = io::checkModel(model(), modelDirectory().toStdString());
  const auto count = [&check](Severity s) {
    return std::count_if(check.messages.items().begin(), check.messages.items().end(),
                         [s](const Diagnostic& d) { return d.severity == s; });
  };
  const auto errors = count(Severity::Error);
  const auto warnings = count(Severity::Warning);
  const QString summary =
      tr("Model check: %1 error(s), %2 warning(s)%3")
          .arg(errors)
          .arg(warnings)
          .arg(check.compiled ? tr(", %1 degrees of freedom").arg(check.figures.dof) : tr(", the model does not compile"));
  m_messages->add(errors ? Severity::Error : warnings ? Severity::Warning : Severity::Info, tr("model"), summary);
  m_messages->add(check.messages);
  m_statusText->setText(summary + tr(" (see Messages; double-click one to select its item)"));
  if (auto* dock = findChild<QDockWidget*>("messagesDock")) dock->raise();
}

bool MainWindow::startRun() {
  if (!m_hasModel) {
    m_messages->add(Severity::Error, tr("simulation"), tr("no model loaded; use File > Open model"));
    return false;
  }
  // the model check's warnings first (a body not connected to ground, redundant joints, a stale
  // reduced body), those the start does not say itself
  const io::ModelCheckReport check = io::checkModel(model(), modelDirectory().toStdString());
  Diagnostics diag;
  m_editedWhilePaused = false;
  const bool started = m_controller->start(model(), diag);
  for (const Diagnostic& d : check.messages.items()) {
    if (d.severity != Severity::Warning) continue;
    const bool said = std::any_of(diag.items().begin(), diag.items().end(), [&d](const Diagnostic& e) {
      return e.where == d.where && e.message == d.message;
    });
    if (!said) m_messages->add(d.severity, QString::fromStdString(d.where), QString::fromStdString(d.message));
  }
  m_messages->add(diag);
  if (!started) {
    m_messages->add(Severity::Error, tr("simulation"), tr("the run did not start"));
    m_statusText->setText(tr("Run did not start (see Messages)"));
  }
  updateActions();
  return started;
}

void MainWindow::setRunPaused(bool paused) {
  if (!isRunning() || paused == m_controller->isPaused()) return;
  if (!paused && m_editedWhilePaused && !continueWithEdits()) {
    {
      const QSignalBlocker block(m_pauseAction);
      m_pauseAction->setChecked(isRunning());  // still paused, unless the run has ended
    }
    updateActions();
    return;
  }
  m_controller->setPaused(paused);
  if (paused) m_pauseClock.start();
  else m_pausedSeconds += m_pauseClock.elapsed() / 1000.0;
  {
    const QSignalBlocker block(m_pauseAction);
    m_pauseAction->setChecked(paused);
  }
  m_statusText->setText(paused ? tr("Paused (Simulation > Resume, F6)") : tr("Running…"));
  updateActions();
}

bool MainWindow::continueWithEdits() {
  Diagnostics diag;
  bool coordinatesChanged = false;
  if (m_controller->continueWith(model(), diag, coordinatesChanged)) {
    m_editedWhilePaused = false;
    m_messages->add(Severity::Info, tr("simulation"),
                    tr("continued at t = %1 s with the edited model").arg(m_results.empty() ? 0.0 : m_results.time().back()));
    return true;
  }
  m_messages->add(diag);
  if (!coordinatesChanged) {
    m_statusText->setText(isRunning() ? tr("Paused: the edited model does not compile (see Messages)")
                                      : tr("The run did not continue (see Messages)"));
    return false;
  }
  QString why;
  for (const Diagnostic& d : diag.items())
    if (d.severity == Severity::Error) why += QString::fromStdString(d.message);
  const auto answer = QMessageBox::question(
      this, tr("Restart the run?"),
      tr("%1.\n\nThe paused run cannot go on with this edit. Restart it from t = 0 with the edited model?").arg(why),
      QMessageBox::Yes | QMessageBox::No, QMessageBox::Yes);
  if (answer == QMessageBox::Yes) {
    m_editedWhilePaused = false;
    m_restartAfterCancel = true;
    cancelRun();
    return false;
  }
  m_statusText->setText(tr("Paused: the edit needs a restart (Simulation > Run)"));
  return false;
}

bool MainWindow::isRunPaused() const { return m_controller && m_controller->isPaused(); }

void MainWindow::cancelRun() {
  if (!isRunning()) return;
  m_controller->cancel();
  m_statusText->setText(tr("Cancelling…"));
}

void MainWindow::onRunStarted(const std::vector<Channel>& channels) {
  m_orientationHandle->setEnabled(false);
  m_runClock.start();
  m_pausedSeconds = 0;
  m_modes->stop();
  m_results.reset(channels, m_controller->bodies());
  m_plots->setChannels(channels);
  // sensors made by picking ("plot this point"): their channels in a plot of their own
  for (const QString& sensor : std::exchange(m_plotOnNextRun, {})) {
    QStringList names;
    for (const Channel& c : channels)
      if (QString::fromStdString(c.name).startsWith(sensor + ".")) names << QString::fromStdString(c.name);
    if (names.isEmpty()) continue;
    PlotView* plot = m_plots->addPlot();
    for (const QString& name : names) plot->addChannel(name.toStdString());
    if (auto* dock = findChild<QDockWidget*>("plotsDock")) dock->raise();
  }
  m_playback->clear();
  m_rangeTimer.stop();
  m_rangeFed = 0;
  m_scene->resetColourRange();
  m_tracePath.clear();
  m_statusText->setText(tr("Running…"));
  m_messages->add(Severity::Info, tr("simulation"), tr("run started (t_end = %1 s)").arg(model().solver.t_end));
}

void MainWindow::onSamplesArrived(const std::vector<Sample>& samples) {
  m_results.append(samples);
  std::vector<double> times;
  times.reserve(samples.size());
  for (const Sample& s : samples) {
    times.push_back(s.t);
    m_scene->includeInBounds(s.poses);  // Home and the presets then frame the whole motion
  }
  // the colour scale covers the whole run, so a colour means the same in every frame. While the
  // run computes, every 8th sample feeds it (the frames shown always do, as they are drawn): the
  // GUI's share of the machine stays small beside the solver; the rest follows after the run
  if (m_scene->flexibleBodyCount() > 0) {
    std::vector<Sample> every8th;
    const std::size_t first = m_results.size() - samples.size();
    for (std::size_t i = 0; i < samples.size(); ++i)
      if ((first + i) % 8 == 0) every8th.push_back(samples[i]);
    if (!every8th.empty()) m_scene->includeInColourRange(every8th);
  }
  m_playback->appendFrames(times);
  m_plots->samplesAppended();
}

void MainWindow::onRunFinished(const RunSummary& summary) {
  if (std::exchange(m_restartAfterCancel, false)) {  // cancelled to restart with an edit
    QTimer::singleShot(0, this, [this] { startRun(); });
    return;
  }
  m_lastSummary = summary;
  m_progress->setFormat(tr("t = %1 s").arg(summary.t_reached, 0, 'g', 4));
  m_plots->refreshAll();
  if (summary.ok) {
    m_progress->setValue(m_progress->maximum());
    m_statusText->setText(summary.warning()
                              ? tr("Finished WITH WARNINGS: t = %1 s, %2 samples (see Messages)")
                                    .arg(summary.t_reached)
                                    .arg(summary.samples)
                              : tr("Finished: t = %1 s, %2 samples").arg(summary.t_reached).arg(summary.samples));
    m_messages->add(Severity::Info, tr("simulation"),
                    tr("finished at t = %1 s: %2 steps, %3 samples, %4 s wall time")
                        .arg(summary.t_reached)
                        .arg(summary.steps)
                        .arg(summary.samples)
                        .arg(summary.wall_time, 0, 'g', 3));
  } else if (summary.cancelled) {
    m_statusText->setText(tr("Cancelled at t = %1 s").arg(summary.t_reached));
    m_messages->add(Severity::Warning, tr("simulation"),
                    tr("cancelled at t = %1 s; the samples so far are kept").arg(summary.t_reached));
  } else {
    m_statusText->setText(tr("Failed at t = %1 s (see Messages)").arg(summary.t_reached));
    m_messages->add(Severity::Error, tr("simulation"),
                    QString::fromStdString(summary.message.empty() ? "the run failed" : summary.message));
  }
  // facts a reader of the results must know (e.g. which reactions are one split among many)
  for (const auto& note : summary.notes) m_messages->add(Severity::Info, tr("simulation"), QString::fromStdString(note));
  // run quality (docs/user-guide.md, "Run quality"): the summary, and each failed check as a warning
  for (const auto& line : summary.quality.lines())
    if (summary.quality.measured) m_messages->add(Severity::Info, tr("run quality"), QString::fromStdString(line));
  for (const auto& w : summary.quality.warnings)
    m_messages->add(Severity::Warning, tr("run quality"), QString::fromStdString(w));
  // the whole motion in view (Home frames it too); a followed body keeps the camera it set
  if (m_scene->followedBody() < 0) frameIfOutOfView();
  m_rangeFed = 0;  // the colour range of every sample, between events
  if (!m_results.empty() && m_scene->flexibleBodyCount() > 0) m_rangeTimer.start();
  updateActions();
  emit runFinished(summary.ok);
}

void MainWindow::showFrame(int index) {
  if (index < 0 || std::size_t(index) >= m_results.size()) return;
  m_modes->stop();  // the results take the view back from a mode animation
  const Sample sample = m_results.sample(std::size_t(index));
  m_scene->setSample(sample);
  m_scene->setTime(sample.t);
  m_showingLaterFrame = index > 0;
  updateOrientationHandle();
  updateTrace(index);
  m_plots->setCursorTime(sample.t);
  if (!isRunning()) {
    m_viewport->update();
    return;
  }
  // While a run streams, the live view redraws at most ~12 times a second, and less when a
  // frame is dear: drawing then takes at most a fifth of the GUI thread, so the event loop
  // stays responsive and the solver keeps its core (software OpenGL draws a 100 000-node body
  // in tens of milliseconds).
  if (!m_liveViewTimer.isActive()) {
    m_liveViewTimer.setInterval(std::clamp(int(5.0 * m_viewport->lastFrameMs()), 80, 1000));
    m_liveViewTimer.start();
  }
}

void MainWindow::refeedColourRange() {
  m_scene->resetColourRange();
  m_rangeFed = 0;
  if (!isRunning() && !m_results.empty()) m_rangeTimer.start();
}

void MainWindow::feedColourRange() {
  // 64 samples per turn of the event loop: one matrix product per body, a few ms on 100 000 nodes
  std::vector<Sample> block;
  const std::size_t end = std::min(m_results.size(), m_rangeFed + 64);
  for (std::size_t i = m_rangeFed; i < end; ++i) block.push_back(m_results.sample(i));
  if (!block.empty() && m_scene->flexibleBodyCount() > 0) m_scene->includeInColourRange(block);
  m_rangeFed = end;
  if (colourRangeComplete()) {
    m_rangeTimer.stop();
    m_viewport->update();
  }
}

bool MainWindow::traceLastPick() {
  const render::TracePoint point = m_scene->tracePointOf(m_lastPick);
  if (!point.valid()) return false;
  m_trace = point;
  m_tracePath.clear();
  updateTrace(m_playback->currentFrame());
  m_messages->add(Severity::Info, QString::fromStdString(m_lastPick.item),
                  tr("tracing %1").arg(QString::fromStdString(point.label)));
  m_viewport->update();
  return true;
}

void MainWindow::clearTrace() {
  m_trace = {};
  m_tracePath.clear();
  m_scene->setTracePath({});
  m_viewport->update();
}

void MainWindow::updateTrace(int index) {
  if (!m_trace.valid() || m_results.empty()) {
    m_scene->setTracePath({});
    return;
  }
  // positions are computed once per sample and kept; the path shown ends at the frame shown
  const std::size_t end = std::min(m_results.size(), std::size_t(std::max(index, 0)) + 1);
  for (std::size_t i = m_tracePath.size(); i < end; ++i) {
    Vec3 p;
    if (!m_scene->tracePosition(m_trace, m_results.sample(i), p)) break;
    m_tracePath.push_back(p);
  }
  m_scene->setTracePath(std::vector<Vec3>(m_tracePath.begin(), m_tracePath.begin() + std::ptrdiff_t(std::min(end, m_tracePath.size()))));
}

}  // namespace flexim::ui
