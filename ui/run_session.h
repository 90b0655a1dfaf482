// A run of the edited model and what it leaves behind: the SimulationController running it, the
// ResultTable its samples stream into, the wall clock of the remaining-time estimate, the colour
// range fed from every sample, the live view's paced redraws, the traced point's path, the last
// summary, and a paused run's edits (it goes on with them on Resume, or restarts). What the
// window shows around it (status text, progress bar, actions, plots) follows its signals.
#pragma once

#include "core/model/model.h"
#include "core/run/result_table.h"
#include "core/run/simulation.h"
#include "render/model_scene.h"

#include <QElapsedTimer>
#include <QObject>
#include <QTimer>

#include <vector>

class QWidget;

namespace flexim::ui {

class MessagesPanel;
class ModelDocument;
class PlaybackBar;
class SimulationController;
class VtkViewport;

class RunSession : public QObject {
  Q_OBJECT

 public:
  /// Runs the document's model, drawing its samples in the scene and the viewport and their times
  /// on the playback bar; what it says goes to messages. window: parent of its questions.
  RunSession(const ModelDocument& document, render::ModelScene& scene, VtkViewport& viewport, PlaybackBar& playback,
             MessagesPanel& messages, QWidget* window);
  /// Stops the worker before the scene and the stores it feeds go away.
  ~RunSession() override;

  /// Starts a run of the model (the model check's warnings first; files relative to
  /// modelDirectory). False, with the reasons in Messages, when it cannot start.
  bool start(const QString& modelDirectory);
  /// Finds the model's static equilibrium (Simulation → Static equilibrium): a frame per load
  /// level (the playback bar and the plots over the load factor), the convergence log in
  /// Messages, the last converged level shown. False, with the reasons in Messages, as start.
  bool startStatic(const QString& modelDirectory);
  /// Whether the results are a static equilibrium's load levels (not a run in time).
  bool isStatic() const;
  void cancel();
  /// Holds the run between two steps, or lets it go on. A paused run whose model was edited goes
  /// on from where it is with the edited model when the edit keeps its coordinates (a mass, a
  /// stiffness, a driver's function, gravity); otherwise it asks whether to restart.
  void setPaused(bool paused);
  bool isPaused() const;
  bool isRunning() const;
  /// Simulation → Check model: the model check's messages, each selecting its item.
  void checkModel(const QString& modelDirectory);

  const ResultTable& results() const { return m_results; }
  const RunSummary& lastSummary() const { return m_lastSummary; }
  /// Whether the run's colour range has taken every sample (it completes between events after a run).
  bool colourRangeComplete() const { return !isRunning() && m_rangeFed >= m_results.size(); }

  /// A new model: no results, no trace.
  void modelReplaced();
  /// The scene was built again after an edit: a paused run goes on with the edit on Resume and
  /// keeps showing where it stands (the same bodies drawn at its last sample); the trace ends.
  void modelEdited();
  /// Draws sample index (in range) in the scene, with the trace up to it; redraws at once, or
  /// paced while a run streams.
  void showFrame(int index);
  /// The colour scale again from every sample (after the contour quantity changed).
  void refeedColourRange();
  /// Draws the path of a picked point (a flexible body's FE node, or a point fixed to a rigid or
  /// virtual body) through the frames up to the one shown. False when the pick is no point.
  bool trace(const render::PickResult& pick);
  void clearTrace();
  /// The trace drawn again (after the deformation scale changed).
  void redrawTrace();

 signals:
  /// A run started: results, playback and colour range are reset for its channels.
  void started(const std::vector<flexim::Channel>& channels);
  void samplesAppended();
  /// A run ended (not when it was cancelled to restart: restartRequested follows then).
  void finished(const flexim::RunSummary& summary);
  /// A run was cancelled to start again with an edit the paused run could not go on with.
  void restartRequested();
  /// Running, paused or stopped changed: the window's actions follow.
  void stateChanged();
  void status(const QString& text);
  /// Progress of the run in thousandths of t_end, and its text (time, rate, time left).
  void progress(int thousandths);
  void progressText(const QString& text);

 private:
  bool launch(const QString& modelDirectory, bool statics);
  void onStarted(const std::vector<Channel>& channels);
  void onSamplesArrived(const std::vector<Sample>& samples);
  void onFinished(const RunSummary& summary);
  void onStaticFinished(const RunSummary& summary);
  void onTimeReached(double t, double tEnd, long steps);
  /// Resume after edits (setPaused): false while the run stays paused.
  bool continueWithEdits();
  /// Feeds the next samples to the run's colour range (between events, after a run).
  void feedColourRange();
  void updateTrace(int index);
  /// The contact points' states of sample index (closed, normal force) in the scene.
  void showContacts(std::size_t index);

  const ModelDocument& m_document;
  render::ModelScene& m_scene;
  VtkViewport& m_viewport;
  PlaybackBar& m_playback;
  MessagesPanel& m_messages;
  QWidget* m_window;
  SimulationController* m_controller = nullptr;
  ResultTable m_results;
  RunSummary m_lastSummary;
  QElapsedTimer m_runClock;    ///< wall time of the run, for the remaining-time estimate
  double m_pausedSeconds = 0;  ///< of that, time spent paused
  QElapsedTimer m_pauseClock;
  QTimer m_rangeTimer;         ///< feeds the colour range after a run, a block per turn of the event loop
  std::size_t m_rangeFed = 0;  ///< samples [0, m_rangeFed) fed to the colour range since the run ended
  QTimer m_liveViewTimer;      ///< spaces the live view's redraws during a run
  bool m_editedWhilePaused = false;   ///< the paused run goes on with the edited model on Resume
  bool m_restartAfterCancel = false;  ///< a run starts again once the cancelled one has ended
  render::TracePoint m_trace;
  std::vector<Vec3> m_tracePath;  ///< the traced point in every sample computed so far
};

}  // namespace flexim::ui
