// The application window: viewport + playback bar in the centre, model tree and Messages docks,
// progress in the status bar. It wires the pieces together; the work is done by ModelScene
// (drawing), SimulationController (running), ResultTable (samples) and io (files). Its methods
// live in three files: main_window.cpp (layout, actions, editing and the view),
// main_window_files.cpp (open, save, recovery, exports) and main_window_run.cpp (the run).
#pragma once

#include "core/model/model.h"
#include "core/run/simulation.h"
#include "core/run/result_table.h"
#include "render/model_scene.h"

#include <QElapsedTimer>
#include <QImage>
#include <QMainWindow>
#include <QTimer>

#include <array>
#include <memory>
#include <string>
#include <unordered_map>

class QAction;
class QMenu;
class QDoubleSpinBox;
class QLabel;
class QProgressBar;
class QToolBar;


namespace flexim::ui {

class ItemActions;
class Recovery;
class DisplayToolBar;
class FeReductionJob;
class MessagesPanel;
class ModeBrowser;
class ModelDocument;
class ModelTree;
class OrientationHandle;
class PlotPanel;
class PropertyPanel;
class PlaybackBar;
class SimulationController;
class VtkViewport;

class MainWindow : public QMainWindow {
  Q_OBJECT

 public:
  explicit MainWindow(QWidget* parent = nullptr);
  ~MainWindow() override;

  /// Loads a model file, or a reduced body (.frb) as a model of that body alone, to browse its
  /// modes; problems go to the Messages dock. Returns false on errors (or when the user keeps the
  /// unsaved changes of the current model).
  /// Simulation → Check model (F7): the model check's messages, each selecting its item.
  void checkModel();
  /// Offers to open the recovery file of a session that ended without saving (at start).
  void offerRecovery();
  Recovery* recovery() const { return m_recovery; }
  bool openModelFile(const QString& path);
  /// An FE mesh or deck (any format of io::importFe) is reduced in a worker thread (free-free,
  /// 8 elastic modes) with a progress dialog and Cancel, written beside it as a .frb and shown
  /// like an opened .frb. Returns true when the reduction started; modelLoaded() or
  /// openFailed() follows.
  bool openFeMesh(const QString& path);
  static bool isFeFile(const QString& path);
  /// Shows a model that is already in memory (source: file name or description for the title).
  void showModel(const ModelSpec& model, const QString& source);
  /// Writes the model JSON to path (the document's file from now on). False with a message.
  bool saveModelFile(const QString& path);
  /// Asks whether to save unsaved changes before they would be lost: true to go on (saved or
  /// discarded), false to stop (cancelled, or the save failed).
  bool maybeSave();
  /// Starts a run of the current model. Returns false (reasons in Messages) if it cannot start.
  bool startRun();
  void cancelRun();
  /// Holds a run between two steps, or lets it go on. A paused run whose model was edited goes
  /// on from where it is with the edited model when the edit keeps its coordinates (a mass, a
  /// stiffness, a driver's function, gravity); otherwise it asks whether to restart.
  void setRunPaused(bool paused);
  bool isRunPaused() const;
  bool exportResultsCsv(const QString& path);

  bool isRunning() const;
  const ModelSpec& model() const;
  ModelDocument* document() const { return m_document; }
  PropertyPanel* propertyPanel() const { return m_properties; }
  PlotPanel* plotPanel() const { return m_plots; }
  ModeBrowser* modeBrowser() const { return m_modes; }
  OrientationHandle* orientationHandle() const { return m_orientationHandle; }
  /// Restores the window's geometry and panel layout from the last session (QSettings); the
  /// application calls it at start-up, tests do not, so they always see the default layout.
  void restoreLayout();
  /// The Help > About text: Flexim's version and the libraries it is built with.
  QString aboutText() const;
  /// The folder of the bundled example models (installed, else the source tree's).
  static QString examplesFolder();
  /// Help > Examples: one entry per example model, its description as the tooltip.
  void fillExamplesMenu(QMenu* menu);
  /// The degrees of freedom shown in the status bar ("8 DOF"; empty when the model does not compile).
  QString dofText() const;
  /// The readout of the last click in the view ("" before any): item, FE node, coordinates.
  QString pickReadout() const { return m_pickReadout; }
  /// Adds channels (by name) to the current plot and brings the Plots panel to the front.
  /// against: another channel (an x-y plot), "spectrum" (amplitude spectra), or empty (time).
  void plotChannels(const QStringList& names, const QString& against = {});
  const ResultTable& results() const { return m_results; }
  /// Whether the run's colour range has taken every sample (it completes between events after a run).
  bool colourRangeComplete() const { return !isRunning() && m_rangeFed >= m_results.size(); }
  const RunSummary& lastSummary() const { return m_lastSummary; }
  /// The whole window with the 3-D view composited in, opaque.
  QImage grabWindowImage();

  VtkViewport* viewport() const { return m_viewport; }
  ModelTree* modelTree() const { return m_tree; }
  MessagesPanel* messages() const { return m_messages; }
  PlaybackBar* playbackBar() const { return m_playback; }
  QProgressBar* progressBar() const { return m_progress; }
  /// Deformation scale of flexible bodies (Display toolbar).
  QDoubleSpinBox* deformationScaleBox() const;
  DisplayToolBar* displayToolBar() const { return m_display; }
  /// Draws the path of the point picked last (a flexible body's FE node, or a point fixed to
  /// a rigid or virtual body) through the frames up to the one shown. False when nothing is
  /// picked.
  bool traceLastPick();
  void clearTrace();
  /// Writes the animation of the results: .ogv video or .png frame sequence, at the playback
  /// speed, with a progress dialog (Cancel). False with a message in Messages.
  bool exportAnimation(const QString& path, int framesPerSecond = 25);
  bool exportViewImage(const QString& path);
  render::ModelScene& scene() const { return *m_scene; }

 signals:
  void modelLoaded();
  /// An FE file could not be reduced, or its reduction was cancelled.
  void openFailed();
  void runFinished(bool ok);

 private:
  void createCentralArea();
  void createDocks();
  void createActions();
  void createMenus();
  void createToolBar();
  void updateActions();
  void updateTitle();
  void updateDofCount();
  /// Marks the FE nodes k, m, n of the selected virtual body in the view (none otherwise).
  void markVirtualBodyNodes();
  /// Shows or hides the rotation handle for what the view shows now.
  /// The followed body of the scene from m_followedItem (after a rebuild); ends following when it is gone.
  void applyFollowedBody();
  /// Frames the model (animated) when part of it is outside the view.
  void frameIfOutOfView();
  void updateOrientationHandle();
  /// The folder files named in the model are relative to ("" for a model not from a file).
  QString modelDirectory() const;
  void updateRecentFiles(const QString& opened);
  void onDocumentReset();
  void onFieldChanged();
  /// A click while placing a virtual body (Add → Virtual body on the mesh).
  void placeVirtualBody(const render::PickResult& hit);
  void onViewportClicked(double x, double y);
  bool openReducedBody(const QString& path);
  void closeEvent(QCloseEvent* event) override;
  void dragEnterEvent(QDragEnterEvent* event) override;
  void dropEvent(QDropEvent* event) override;

  void onOpenRequested();
  void onNewRequested();
  bool onSaveRequested();
  bool onSaveAsRequested();
  void onRevertRequested();
  void onExportRequested();
  void onRunStarted(const std::vector<Channel>& channels);
  void onSamplesArrived(const std::vector<Sample>& samples);
  /// Resume after edits (setRunPaused): false while the run stays paused.
  bool continueWithEdits();
  void onRunFinished(const RunSummary& summary);
  void showFrame(int index);
  void showReducedBody(std::shared_ptr<fe::ReducedBody> body, const QString& path);
  void onFeReduced(const FeReductionJob& job);
  /// The colour scale of the run again from every sample (after the contour quantity changed).
  void refeedColourRange();
  /// Feeds the next samples to the run's colour range (between events, after a run).
  void feedColourRange();
  /// The plots of a model file are remembered (QSettings) and come back when it is opened again.
  void rememberPlots();
  void restorePlots();
  void updateTrace(int index);

  ModelDocument* m_document = nullptr;
  QString m_modelSource;
  bool m_hasModel = false;
  std::unique_ptr<render::ModelScene> m_scene;
  ResultTable m_results;
  RunSummary m_lastSummary;
  SimulationController* m_controller = nullptr;

  VtkViewport* m_viewport = nullptr;
  PlaybackBar* m_playback = nullptr;
  ModelTree* m_tree = nullptr;
  PropertyPanel* m_properties = nullptr;
  PlotPanel* m_plots = nullptr;
  ModeBrowser* m_modes = nullptr;
  MessagesPanel* m_messages = nullptr;
  QProgressBar* m_progress = nullptr;
  QLabel* m_statusText = nullptr;
  QLabel* m_dofLabel = nullptr;
  bool m_restoredLayout = false;
  QString m_pickReadout;
  QElapsedTimer m_runClock;     ///< wall time of the run, for the remaining-time estimate
  double m_pausedSeconds = 0;   ///< of that, time spent paused
  QElapsedTimer m_pauseClock;
  QTimer m_rangeTimer;        ///< feeds the colour range after a run, a block per turn of the event loop
  std::size_t m_rangeFed = 0; ///< samples [0, m_rangeFed) fed to the colour range since the run ended
  QTimer m_liveViewTimer;
  FeReductionJob* m_feJob = nullptr;  ///< an FE file being reduced (File > Open)       ///< spaces the live view's redraws during a run

  QAction* m_newAction = nullptr;
  QAction* m_openAction = nullptr;
  QAction* m_saveAction = nullptr;
  QAction* m_saveAsAction = nullptr;
  QAction* m_revertAction = nullptr;
  QAction* m_undoAction = nullptr;
  QAction* m_redoAction = nullptr;
  QMenu* m_recentMenu = nullptr;
  QAction* m_exportAction = nullptr;
  QAction* m_quitAction = nullptr;
  QAction* m_runAction = nullptr;
  QAction* m_cancelAction = nullptr;
  QAction* m_solverSettingsAction = nullptr;
  QAction* m_checkAction = nullptr;
  ItemActions* m_itemActions = nullptr;
  OrientationHandle* m_orientationHandle = nullptr;  ///< turns the selected body with the mouse
  bool m_showingLaterFrame = false;  ///< a frame of the results after the start is shown
  bool m_editedWhilePaused = false;  ///< the paused run goes on with the edited model on Resume
  bool m_restartAfterCancel = false; ///< a run starts again once the cancelled one has ended
  Recovery* m_recovery = nullptr;
  QAction* m_pauseAction = nullptr;
  QAction* m_resetCameraAction = nullptr;
  QAction* m_followBodyAction = nullptr;
  std::string m_followedItem;  ///< JSON path of the body the camera follows ("" for none)
  QAction* m_showMarkersAction = nullptr;
  QAction* m_exportAnimationAction = nullptr;
  QAction* m_exportImageAction = nullptr;
  QAction* m_traceAction = nullptr;
  QAction* m_clearTraceAction = nullptr;
  QToolBar* m_viewToolBar = nullptr;
  DisplayToolBar* m_display = nullptr;
  render::PickResult m_lastPick;
  QStringList m_plotOnNextRun;  ///< sensors made by picking, plotted when the next run starts
  render::TracePoint m_trace;
  /// FE node ids of each virtual body's rigid–flexible joint, from the last compilation.
  std::unordered_map<std::string, std::array<int, 3>> m_virtualBodyNodes;
  std::vector<Vec3> m_tracePath;  ///< the traced point in every sample computed so far
};

}  // namespace flexim::ui
