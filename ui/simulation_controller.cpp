#include "ui/simulation_controller.h"

#include <algorithm>
#include <exception>
#include <mutex>
#include <utility>

namespace flexim::ui {

struct SimulationController::Inbox : ResultSink {
  std::atomic<bool> cancel{false};
  std::atomic<bool> pause{false};
  std::atomic<double> time{0.0}, endTime{0.0};
  std::atomic<bool> done{false};
  std::atomic<double> progress{0.0};
  std::atomic<long> steps{0};
  std::mutex mutex;
  std::vector<Sample> samples;  // guarded by mutex
  QStringList log;              // likewise: a static equilibrium's lines
  RunSummary summary;           // written by the worker before done is set
  State stoppedAt;              // likewise: the state of the run's last step
  bool statics = false;         // set before the worker starts: samples of load levels

  void sample(const Sample& s) override {
    const std::lock_guard lock(mutex);
    samples.push_back(s);
    if (!statics || s.values.empty()) return;
    samples.back().t = s.values.front();  // the load factor, channel 0
    progress = s.values.front();
    time = s.values.front();
  }
  std::vector<Sample> take() {
    const std::lock_guard lock(mutex);
    return std::exchange(samples, {});
  }
  void addLog(const std::string& line) {
    const std::lock_guard lock(mutex);
    log.push_back(QString::fromStdString(line));
  }
  QStringList takeLog() {
    const std::lock_guard lock(mutex);
    return std::exchange(log, {});
  }
};

SimulationController::SimulationController(QObject* parent) : QObject(parent) {
  // ten times a second: often enough for a live view (at most ~12 frames a second) and plots;
  // each drain repaints progress, playback bar and plots, which with an OpenGL view in the
  // window recomposes the whole window
  m_drainTimer.setInterval(100);
  connect(&m_drainTimer, &QTimer::timeout, this, &SimulationController::drain);
}

SimulationController::~SimulationController() {
  if (m_inbox) m_inbox->cancel = true;
  if (m_worker.joinable()) m_worker.join();
}

namespace {

std::shared_ptr<Simulation> compiled(const ModelSpec& model, Diagnostics& diag) {
  std::shared_ptr<Simulation> simulation;
  try {
    simulation = Simulation::create(model, diag);
  } catch (const std::exception& e) {
    diag.error("model", e.what());
  }
  return simulation && !diag.hasErrors() ? simulation : nullptr;
}

}  // namespace

bool SimulationController::start(const ModelSpec& model, Diagnostics& diag) {
  if (m_running) {
    diag.error("simulation", "a run is already in progress; cancel it first");
    return false;
  }
  auto simulation = compiled(model, diag);
  if (!simulation) return false;
  if (m_worker.joinable()) m_worker.join();  // the previous run has already finished
  m_bodies = simulation->bodies();
  launch(std::move(simulation), nullptr);
  emit runStarted(m_simulation->channels());
  emit progressChanged(0.0);
  return true;
}

bool SimulationController::startStatic(const ModelSpec& model, Diagnostics& diag) {
  if (m_running) {
    diag.error("simulation", "a run is already in progress; cancel it first");
    return false;
  }
  auto simulation = compiled(model, diag);
  if (!simulation) return false;
  if (m_worker.joinable()) m_worker.join();
  m_bodies = simulation->bodies();
  const std::vector<Channel> channels = simulation->staticChannels();
  launch(std::move(simulation), nullptr, true);
  emit runStarted(channels);
  emit progressChanged(0.0);
  return true;
}

bool SimulationController::continueWith(const ModelSpec& model, Diagnostics& diag, bool& coordinatesChanged) {
  coordinatesChanged = false;
  if (!m_running || !m_paused) {
    diag.error("simulation", "no paused run to continue");
    return false;
  }
  auto simulation = compiled(model, diag);
  if (!simulation) return false;
  State state;
  std::string why;
  // the coordinates are compared before the paused run is stopped: a refused edit leaves it paused
  if (!simulation->mapState(*m_simulation, m_simulation->initialState(), state, why) ||
      simulation->channels().size() != m_simulation->channels().size()) {
    coordinatesChanged = true;
    diag.error("simulation", why.empty() ? "the edit changes the recorded channels" : "the edit changes the coordinates: " + why);
    return false;
  }
  for (std::size_t c = 0; c < simulation->channels().size(); ++c)
    if (simulation->channels()[c].header() != m_simulation->channels()[c].header()) {
      coordinatesChanged = true;
      diag.error("simulation", "the edit changes the recorded channel " + m_simulation->channels()[c].header());
      return false;
    }
  // stop the paused run where it is, keep its samples, and go on from its last step
  m_drainTimer.stop();
  m_inbox->cancel = true;
  if (m_worker.joinable()) m_worker.join();
  std::vector<Sample> last = m_inbox->take();
  if (!last.empty()) emit samplesArrived(last);
  if (!m_inbox->summary.cancelled) {
    // it ended on its own (its end time, a failure) before it could be stopped: nothing to go on from
    m_running = m_paused = false;
    diag.error("simulation", "the run had ended before the edit could take effect");
    emit runFinished(m_inbox->summary);
    return false;
  }
  if (!simulation->mapState(*m_simulation, m_inbox->stoppedAt, state, why)) {
    // cannot happen after the check above (same layout); the run ends as stopped
    m_running = m_paused = false;
    RunSummary summary = m_inbox->summary;
    summary.message = "could not continue: " + why;
    emit runFinished(summary);
    return false;
  }
  launch(std::move(simulation), std::make_unique<State>(std::move(state)));
  return true;
}

void SimulationController::launch(std::shared_ptr<Simulation> simulation, std::unique_ptr<State> resume, bool statics) {
  m_inbox = std::make_shared<Inbox>();
  m_inbox->statics = statics;
  m_inbox->endTime = statics ? 1.0 : 0.0;
  m_simulation = simulation;
  m_running = true;
  m_paused = false;
  m_static = statics;
  m_worker = std::thread([inbox = m_inbox, sim = std::move(simulation), resume = std::move(resume), statics]() mutable {
    RunOptions options;
    options.cancel = &inbox->cancel;
    options.pause = &inbox->pause;
    options.steps = &inbox->steps;
    options.resume = resume.get();
    options.stoppedAt = &inbox->stoppedAt;
    options.progress = [&inbox](double t, double tEnd) {
      inbox->progress = tEnd > 0.0 ? std::clamp(t / tEnd, 0.0, 1.0) : 1.0;
      inbox->time = t;
      inbox->endTime = tEnd;
    };
    StaticOptions staticOptions;
    staticOptions.cancel = &inbox->cancel;
    staticOptions.log = [&inbox](const std::string& line) { inbox->addLog(line); };
    RunSummary summary;
    try {
      summary = statics ? sim->staticEquilibrium({inbox.get()}, staticOptions) : sim->run({inbox.get()}, options);
    } catch (const std::exception& e) {
      summary.ok = false;
      summary.message = std::string("the solver stopped with an internal error: ") + e.what();
    } catch (...) {
      summary.ok = false;
      summary.message = "the solver stopped with an unknown internal error";
    }
    inbox->summary = std::move(summary);
    inbox->done = true;  // publishes summary to the UI thread
  });
  m_drainTimer.start();
}

void SimulationController::cancel() {
  if (m_inbox && m_running) m_inbox->cancel = true;
}

void SimulationController::setPaused(bool paused) {
  if (!m_inbox || !m_running) return;
  m_paused = paused;
  m_inbox->pause = paused;
}

void SimulationController::drain() {
  if (!m_inbox) return;
  // read "done" before taking samples, so samples pushed before completion are not missed
  const bool done = m_inbox->done;
  std::vector<Sample> fresh = m_inbox->take();
  if (const QStringList log = m_inbox->takeLog(); !log.isEmpty()) emit staticLog(log);
  if (!fresh.empty()) emit samplesArrived(fresh);
  emit progressChanged(m_inbox->progress);
  emit timeReached(m_inbox->time, m_inbox->endTime, m_inbox->steps);
  if (!done) return;

  m_drainTimer.stop();
  if (m_worker.joinable()) m_worker.join();
  m_running = false;
  m_paused = false;
  emit runFinished(m_inbox->summary);
}

}  // namespace flexim::ui
