// Runs a Simulation on a worker thread. The worker only pushes into a mutex-guarded inbox;
// a 10 Hz timer on the UI thread drains it and emits signals, so the UI never waits on the
// solver and no exception crosses the thread boundary.
#pragma once

#include "core/base/diagnostics.h"
#include "core/run/simulation.h"

#include <QObject>
#include <QStringList>
#include <QTimer>

#include <atomic>
#include <memory>
#include <thread>
#include <vector>

namespace flexim::ui {

class SimulationController : public QObject {
  Q_OBJECT

 public:
  explicit SimulationController(QObject* parent = nullptr);
  /// Cancels a running simulation and waits for the worker to stop.
  ~SimulationController() override;

  /// Compiles the model and starts integrating it. Returns false, with the reasons in diag,
  /// when the model does not compile or a run is already active.
  bool start(const ModelSpec& model, Diagnostics& diag);
  /// Compiles the model and finds its static equilibrium (Simulation::staticEquilibrium) on the
  /// worker: a sample per load level, its time the load factor (0 … 1), so that playback and
  /// plots step through the levels; a line per Newton attempt through staticLog. False as start.
  bool startStatic(const ModelSpec& model, Diagnostics& diag);
  /// Whether the run started last is a static equilibrium (its samples' times are load factors).
  bool isStatic() const { return m_static; }
  /// Continues the paused run with an edited model: it stops where it is and a run of `model`
  /// goes on from its state (Simulation::mapState), appending its samples to the same results;
  /// runFinished follows at the end, not in between. False, the run still paused, when the model
  /// does not compile or the edit changes the coordinates or the recorded channels
  /// (`coordinatesChanged`: only a restart can show it), the reasons in diag.
  bool continueWith(const ModelSpec& model, Diagnostics& diag, bool& coordinatesChanged);
  /// Asks the integrator to stop at the next step; runFinished follows with cancelled = true.
  void cancel();
  /// Holds the integrator between two steps (the samples so far stay), and lets it go on.
  void setPaused(bool paused);
  bool isPaused() const { return m_running && m_paused; }
  bool isRunning() const { return m_running; }
  /// The bodies of the run started last, in the order of its samples' poses.
  const BodyTable& bodies() const { return m_bodies; }

 signals:
  void runStarted(const std::vector<flexim::Channel>& channels);
  /// New samples in time order (UI thread, at most 10 times a second).
  void samplesArrived(const std::vector<flexim::Sample>& samples);
  /// Fraction of t_end reached, in [0, 1], and the simulated time reached [s].
  void progressChanged(double fraction);
  /// Simulated time, end time and the steps taken so far.
  void timeReached(double t, double tEnd, long steps);
  void runFinished(const flexim::RunSummary& summary);
  /// Lines of a static equilibrium's convergence log (UI thread).
  void staticLog(const QStringList& lines);

 private:
  struct Inbox;  // shared between the worker and the UI thread
  void drain();
  /// Runs the simulation on a new worker (from `resume` when given).
  void launch(std::shared_ptr<Simulation> simulation, std::unique_ptr<State> resume, bool statics = false);

  std::shared_ptr<Inbox> m_inbox;
  std::shared_ptr<Simulation> m_simulation;  ///< the run's (kept to map its state for a continuation)
  std::thread m_worker;
  QTimer m_drainTimer;
  BodyTable m_bodies;
  bool m_running = false;
  bool m_paused = false;
  bool m_static = false;
};

}  // namespace flexim::ui
