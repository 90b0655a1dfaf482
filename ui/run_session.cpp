#include "ui/run_session.h"

#include "core/model/description.h"

#include "io/model_check.h"
#include "ui/messages_panel.h"
#include "ui/model_document.h"
#include "ui/playback_bar.h"
#include "ui/simulation_controller.h"
#include "ui/vtk_viewport.h"

#include <QMessageBox>
#include <QWidget>

#include <algorithm>
#include <cmath>
#include <utility>

namespace flexim::ui {

RunSession::RunSession(const ModelDocument& document, render::ModelScene& scene, VtkViewport& viewport,
                       PlaybackBar& playback, MessagesPanel& messages, QWidget* window)
    : QObject(window),
      m_document(document),
      m_scene(scene),
      m_viewport(viewport),
      m_playback(playback),
      m_messages(messages),
      m_window(window),
      m_controller(new SimulationController(this)) {
  connect(m_controller, &SimulationController::runStarted, this, &RunSession::onStarted);
  connect(m_controller, &SimulationController::samplesArrived, this, &RunSession::onSamplesArrived);
  connect(m_controller, &SimulationController::runFinished, this, &RunSession::onFinished);
  connect(m_controller, &SimulationController::progressChanged, this,
          [this](double fraction) { emit progress(int(fraction * 1000.0 + 0.5)); });
  connect(m_controller, &SimulationController::timeReached, this, &RunSession::onTimeReached);
  connect(m_controller, &SimulationController::staticLog, this, [this](const QStringList& lines) {
    for (const QString& line : lines) m_messages.add(Severity::Info, tr("static equilibrium"), line);
  });
  m_rangeTimer.setInterval(0);
  connect(&m_rangeTimer, &QTimer::timeout, this, &RunSession::feedColourRange);
  m_liveViewTimer.setSingleShot(true);
  m_liveViewTimer.setInterval(80);
  connect(&m_liveViewTimer, &QTimer::timeout, &m_viewport, qOverload<>(&QWidget::update));
}

RunSession::~RunSession() {
  delete m_controller;  // its worker stops while this session can still take what it says
  m_controller = nullptr;
}

bool RunSession::isRunning() const { return m_controller && m_controller->isRunning(); }

bool RunSession::isPaused() const { return m_controller && m_controller->isPaused(); }

void RunSession::checkModel(const QString& modelDirectory) {
  const io::ModelCheckReport check = io::checkModel(m_document.model(), modelDirectory.toStdString());
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
  m_messages.add(errors ? Severity::Error : warnings ? Severity::Warning : Severity::Info, tr("model"), summary);
  m_messages.add(check.messages);
  emit status(summary + tr(" (see Messages; double-click one to select its item)"));
}

bool RunSession::start(const QString& modelDirectory) { return launch(modelDirectory, false); }

bool RunSession::startStatic(const QString& modelDirectory) { return launch(modelDirectory, true); }

bool RunSession::isStatic() const { return m_controller && m_controller->isStatic(); }

bool RunSession::launch(const QString& modelDirectory, bool statics) {
  // the model check's warnings first (a body not connected to ground, redundant joints, a stale
  // reduced body), those the start does not say itself
  const ModelSpec& model = m_document.model();
  const io::ModelCheckReport check = io::checkModel(model, modelDirectory.toStdString());
  Diagnostics diag;
  m_editedWhilePaused = false;
  const bool started = statics ? m_controller->startStatic(model, diag) : m_controller->start(model, diag);
  for (const Diagnostic& d : check.messages.items()) {
    if (d.severity != Severity::Warning) continue;
    const bool said = std::any_of(diag.items().begin(), diag.items().end(), [&d](const Diagnostic& e) {
      return e.where == d.where && e.message == d.message;
    });
    if (!said) m_messages.add(d.severity, QString::fromStdString(d.where), QString::fromStdString(d.message));
  }
  m_messages.add(diag);
  if (!started) {
    m_messages.add(Severity::Error, tr("simulation"),
                   statics ? tr("the static equilibrium did not start") : tr("the run did not start"));
    emit status(statics ? tr("Static equilibrium did not start (see Messages)") : tr("Run did not start (see Messages)"));
  }
  emit stateChanged();
  return started;
}

void RunSession::setPaused(bool paused) {
  if (!isRunning() || paused == m_controller->isPaused()) return;
  if (!paused && m_editedWhilePaused && !continueWithEdits()) {
    emit stateChanged();  // still paused, unless the run has ended
    return;
  }
  m_controller->setPaused(paused);
  if (paused) m_pauseClock.start();
  else m_pausedSeconds += m_pauseClock.elapsed() / 1000.0;
  emit status(paused ? tr("Paused (Simulation > Resume, F6)") : tr("Running…"));
  emit stateChanged();
}

bool RunSession::continueWithEdits() {
  Diagnostics diag;
  bool coordinatesChanged = false;
  if (m_controller->continueWith(m_document.model(), diag, coordinatesChanged)) {
    m_editedWhilePaused = false;
    m_messages.add(Severity::Info, tr("simulation"),
                   tr("continued at t = %1 s with the edited model").arg(m_results.empty() ? 0.0 : m_results.time().back()));
    return true;
  }
  m_messages.add(diag);
  if (!coordinatesChanged) {
    emit status(isRunning() ? tr("Paused: the edited model does not compile (see Messages)")
                            : tr("The run did not continue (see Messages)"));
    return false;
  }
  QString why;
  for (const Diagnostic& d : diag.items())
    if (d.severity == Severity::Error) why += QString::fromStdString(d.message);
  const auto answer = QMessageBox::question(
      m_window, tr("Restart the run?"),
      tr("%1.\n\nThe paused run cannot go on with this edit. Restart it from t = 0 with the edited model?").arg(why),
      QMessageBox::Yes | QMessageBox::No, QMessageBox::Yes);
  if (answer == QMessageBox::Yes) {
    m_editedWhilePaused = false;
    m_restartAfterCancel = true;
    cancel();
    return false;
  }
  emit status(tr("Paused: the edit needs a restart (Simulation > Run)"));
  return false;
}

void RunSession::cancel() {
  if (!isRunning()) return;
  m_controller->cancel();
  emit status(tr("Cancelling…"));
}

void RunSession::onStarted(const std::vector<Channel>& channels) {
  m_runClock.start();
  m_pausedSeconds = 0;
  m_results.reset(channels, m_controller->bodies());
  m_playback.clear();
  m_rangeTimer.stop();
  m_rangeFed = 0;
  m_scene.resetColourRange();
  m_tracePath.clear();
  m_scene.setAbscissaName(isStatic() ? "load factor" : "");
  if (isStatic()) {
    m_results.setAbscissa({"load factor", "-"});
    m_playback.setAbscissa(tr("load factor"));
  }
  emit started(channels);
  if (isStatic()) {
    emit status(tr("Finding the static equilibrium…"));
    m_messages.add(Severity::Info, tr("static equilibrium"),
                   tr("started: the loads at t = 0 in 10 levels, Newton with the tangent and geometric stiffness"));
    return;
  }
  emit status(tr("Running…"));
  m_messages.add(Severity::Info, tr("simulation"), tr("run started (t_end = %1 s)").arg(m_document.model().solver.t_end));
}

void RunSession::onTimeReached(double t, double tEnd, long steps) {
  // simulated time, steps per second and an estimate of the time left, from the rate so far
  // (pauses excluded)
  const double wall = m_runClock.elapsed() / 1000.0 - m_pausedSeconds;
  if (isStatic()) {
    emit progressText(tr("load factor %1 / 1").arg(t, 0, 'g', 4));
    return;
  }
  QString text = tr("t = %1 / %2 s").arg(t, 0, 'g', 4).arg(tEnd, 0, 'g', 4);
  if (wall > 0.5 && steps > 0) text += tr(" · %1 steps/s").arg(double(steps) / wall, 0, 'f', 0);
  if (t > 0 && wall > 1.0 && tEnd > t) {
    const double left = (tEnd - t) * wall / t;
    text += left < 60 ? tr(" · %1 s left").arg(std::ceil(left)) : tr(" · %1 min left").arg(std::ceil(left / 60));
  }
  if (m_controller->isPaused()) text += tr(" · paused");
  emit progressText(text);
}

void RunSession::onSamplesArrived(const std::vector<Sample>& samples) {
  m_results.append(samples);
  std::vector<double> times;
  times.reserve(samples.size());
  for (const Sample& s : samples) {
    times.push_back(s.t);
    m_scene.includeInBounds(s.poses);  // Home and the presets then frame the whole motion
  }
  // the colour scale covers the whole run, so a colour means the same in every frame. While the
  // run computes, every 8th sample feeds it (the frames shown always do, as they are drawn): the
  // GUI's share of the machine stays small beside the solver; the rest follows after the run
  if (m_scene.flexibleBodyCount() > 0) {
    std::vector<Sample> every8th;
    const std::size_t first = m_results.size() - samples.size();
    for (std::size_t i = 0; i < samples.size(); ++i)
      if ((first + i) % 8 == 0) every8th.push_back(samples[i]);
    if (!every8th.empty()) m_scene.includeInColourRange(every8th);
  }
  m_playback.appendFrames(times);
  emit samplesAppended();
}

void RunSession::onFinished(const RunSummary& summary) {
  if (std::exchange(m_restartAfterCancel, false)) {  // cancelled to restart with an edit
    QTimer::singleShot(0, this, [this] { emit restartRequested(); });
    return;
  }
  m_lastSummary = summary;
  if (isStatic()) {
    onStaticFinished(summary);
    emit finished(summary);
    return;
  }
  emit progressText(tr("t = %1 s").arg(summary.t_reached, 0, 'g', 4));
  if (summary.ok) {
    emit progress(1000);
    emit status(summary.warning() ? tr("Finished WITH WARNINGS: t = %1 s, %2 samples (see Messages)")
                                        .arg(summary.t_reached)
                                        .arg(summary.samples)
                                  : tr("Finished: t = %1 s, %2 samples").arg(summary.t_reached).arg(summary.samples));
    m_messages.add(Severity::Info, tr("simulation"),
                   tr("finished at t = %1 s: %2 steps, %3 samples, %4 s wall time")
                       .arg(summary.t_reached)
                       .arg(summary.steps)
                       .arg(summary.samples)
                       .arg(summary.wall_time, 0, 'g', 3));
  } else if (summary.cancelled) {
    emit status(tr("Cancelled at t = %1 s").arg(summary.t_reached));
    m_messages.add(Severity::Warning, tr("simulation"),
                   tr("cancelled at t = %1 s; the samples so far are kept").arg(summary.t_reached));
  } else {
    emit status(tr("Failed at t = %1 s (see Messages)").arg(summary.t_reached));
    m_messages.add(Severity::Error, tr("simulation"),
                   QString::fromStdString(summary.message.empty() ? "the run failed" : summary.message));
  }
  // facts a reader of the results must know (e.g. which reactions are one split among many)
  for (const auto& note : summary.notes) m_messages.add(Severity::Info, tr("simulation"), QString::fromStdString(note));
  // run quality (docs/user-guide.md, "Run quality"): the summary, and each failed check as a warning
  for (const auto& line : summary.quality.lines())
    if (summary.quality.measured) m_messages.add(Severity::Info, tr("run quality"), QString::fromStdString(line));
  for (const auto& w : summary.quality.warnings) m_messages.add(Severity::Warning, tr("run quality"), QString::fromStdString(w));
  m_rangeFed = 0;  // the colour range of every sample, between events
  if (!m_results.empty() && m_scene.flexibleBodyCount() > 0) m_rangeTimer.start();
  emit finished(summary);
}

void RunSession::onStaticFinished(const RunSummary& summary) {
  const double reached = m_results.empty() ? 0.0 : m_results.time().back();
  emit progressText(tr("load factor %1").arg(reached, 0, 'g', 4));
  if (summary.ok) {
    emit progress(1000);
    emit status(tr("Static equilibrium: the full load in %1 levels, %2 Newton iterations (frames: the load levels)")
                    .arg(summary.steps)
                    .arg(summary.newton_iterations));
    m_messages.add(Severity::Info, tr("static equilibrium"),
                   tr("converged at the full load: %1 levels, %2 Newton iterations, %3 s wall time; to start a run "
                      "from it, set the simulation's start to static_equilibrium")
                       .arg(summary.steps)
                       .arg(summary.newton_iterations)
                       .arg(summary.wall_time, 0, 'g', 3));
  } else if (summary.cancelled) {
    emit status(tr("Static equilibrium cancelled at load factor %1").arg(reached));
    m_messages.add(Severity::Warning, tr("static equilibrium"), QString::fromStdString(summary.message));
  } else {
    emit status(tr("Static equilibrium failed at load factor %1: the last converged level is shown (see Messages)")
                    .arg(reached));
    m_messages.add(Severity::Error, tr("static equilibrium"), QString::fromStdString(summary.message));
  }
  for (const auto& note : summary.notes) m_messages.add(Severity::Info, tr("static equilibrium"), QString::fromStdString(note));
  m_rangeFed = 0;
  if (!m_results.empty() && m_scene.flexibleBodyCount() > 0) m_rangeTimer.start();
}

void RunSession::modelReplaced() {
  m_results.reset({});
  m_scene.setAbscissaName("");
  m_playback.clear();
  m_trace = {};
  m_tracePath.clear();
}

void RunSession::modelEdited() {
  if (isPaused()) {
    m_editedWhilePaused = true;  // the run goes on with it on Resume
    if (!m_results.empty() && m_results.bodies() == m_scene.bodyTable())
      m_scene.setSample(m_results.sample(m_results.size() - 1));
  }
  m_trace = {};  // the bodies may have changed
  m_tracePath.clear();
}

void RunSession::showContacts(std::size_t index) {
  if (m_scene.contactPointCount() == 0) return;
  // the contact points' channels, in the scene's order (the model's contacts, each with its points)
  std::vector<render::ContactPointState> states;
  double largest = 0;
  for (const ContactSpec& contact : m_document.model().contacts)
    for (const std::string& point : contactPointNames(contact)) {
      const int status = m_results.channelIndex(point + ".status");
      const int force = m_results.channelIndex(point + ".normal_force");
      render::ContactPointState state;
      if (status >= 0 && force >= 0 && index < m_results.size()) {
        state.closed = m_results.column(std::size_t(status))[index] > 0;
        state.normalForce = m_results.column(std::size_t(force))[index];
        largest = std::max(largest, m_results.range(std::size_t(force), 0, m_results.size()).second);
      }
      states.push_back(state);
    }
  m_scene.setContactStates(states, largest);
}

void RunSession::showFrame(int index) {
  const Sample sample = m_results.sample(std::size_t(index));
  m_scene.setSample(sample);
  m_scene.setTime(sample.t);
  showContacts(std::size_t(index));
  updateTrace(index);
  if (!isRunning()) {
    m_viewport.update();
    return;
  }
  // While a run streams, the live view redraws at most ~12 times a second, and less when a
  // frame is dear: drawing then takes at most a fifth of the GUI thread, so the event loop
  // stays responsive and the solver keeps its core (software OpenGL draws a 100 000-node body
  // in tens of milliseconds).
  if (!m_liveViewTimer.isActive()) {
    m_liveViewTimer.setInterval(std::clamp(int(5.0 * m_viewport.lastFrameMs()), 80, 1000));
    m_liveViewTimer.start();
  }
}

void RunSession::refeedColourRange() {
  m_scene.resetColourRange();
  m_rangeFed = 0;
  if (!isRunning() && !m_results.empty()) m_rangeTimer.start();
}

void RunSession::feedColourRange() {
  // 64 samples per turn of the event loop: one matrix product per body, a few ms on 100 000 nodes
  std::vector<Sample> block;
  const std::size_t end = std::min(m_results.size(), m_rangeFed + 64);
  for (std::size_t i = m_rangeFed; i < end; ++i) block.push_back(m_results.sample(i));
  if (!block.empty() && m_scene.flexibleBodyCount() > 0) m_scene.includeInColourRange(block);
  m_rangeFed = end;
  if (colourRangeComplete()) {
    m_rangeTimer.stop();
    m_viewport.update();
  }
}

bool RunSession::trace(const render::PickResult& pick) {
  const render::TracePoint point = m_scene.tracePointOf(pick);
  if (!point.valid()) return false;
  m_trace = point;
  m_tracePath.clear();
  updateTrace(m_playback.currentFrame());
  m_messages.add(Severity::Info, QString::fromStdString(pick.item), tr("tracing %1").arg(QString::fromStdString(point.label)));
  m_viewport.update();
  return true;
}

void RunSession::clearTrace() {
  m_trace = {};
  m_tracePath.clear();
  m_scene.setTracePath({});
  m_viewport.update();
}

void RunSession::redrawTrace() {
  m_tracePath.clear();  // drawn with the deformation scale
  updateTrace(m_playback.currentFrame());
}

void RunSession::updateTrace(int index) {
  if (!m_trace.valid() || m_results.empty()) {
    m_scene.setTracePath({});
    return;
  }
  // positions are computed once per sample and kept; the path shown ends at the frame shown
  const std::size_t end = std::min(m_results.size(), std::size_t(std::max(index, 0)) + 1);
  for (std::size_t i = m_tracePath.size(); i < end; ++i) {
    Vec3 p;
    if (!m_scene.tracePosition(m_trace, m_results.sample(i), p)) break;
    m_tracePath.push_back(p);
  }
  m_scene.setTracePath(
      std::vector<Vec3>(m_tracePath.begin(), m_tracePath.begin() + std::ptrdiff_t(std::min(end, m_tracePath.size()))));
}

}  // namespace flexim::ui
