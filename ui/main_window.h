// The application window: viewport + playback bar in the centre, model tree and Messages docks,
// progress in the status bar. It lays out the widgets and wires them together; the work is done
// by ModelScene (drawing), RunSession (the run and its results), DocumentFiles (open, save,
// recovery, exports) and ModelDocument (editing). Its public accessors to those are what tests
// and automation drive.
#pragma once

#include "core/model/model.h"
#include "render/model_scene.h"
#include "ui/document_files.h"
#include "ui/run_session.h"

#include <QImage>
#include <QMainWindow>

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
class DisplayToolBar;
class MessagesPanel;
class ModeBrowser;
class ModelDocument;
class ModelTree;
class OrientationHandle;
class PlotPanel;
class PropertyPanel;
class PlaybackBar;
class VtkViewport;

class MainWindow : public QMainWindow {
  Q_OBJECT

 public:
  explicit MainWindow(QWidget* parent = nullptr);
  ~MainWindow() override;

  RunSession* runSession() const { return m_run; }
  DocumentFiles* files() const { return m_files; }

  // the files (DocumentFiles)
  bool openModelFile(const QString& path) { return m_files->open(path); }
  static bool isFeFile(const QString& path) { return DocumentFiles::isFeFile(path); }
  void showModel(const ModelSpec& model, const QString& source) { m_files->showModel(model, source); }
  bool saveModelFile(const QString& path) { return m_files->save(path); }
  void offerRecovery() { m_files->offerRecovery(); }
  Recovery* recovery() const { return m_files->recovery(); }
  bool exportResultsCsv(const QString& path) { return m_files->exportResultsCsv(path); }
  bool exportAnimation(const QString& path, int framesPerSecond = 25) {
    return m_files->exportAnimation(path, framesPerSecond);
  }

  // the run (RunSession)
  /// Starts a run of the current model. Returns false (reasons in Messages) if it cannot start.
  bool startRun();
  /// Simulation → Static equilibrium: the model's equilibrium under its loads at t = 0.
  bool startStatic();
  /// Simulation → System modes: the model linearized about its static equilibrium off the GUI
  /// thread, its modes then in the mode browser (systemModesShown). False when it cannot start.
  bool showSystemModes();
  /// Whether a linearization for the system modes is under way.
  bool linearizing() const { return m_linearizing; }
  void cancelRun() { m_run->cancel(); }
  /// Holds a run between two steps, or lets it go on (RunSession::setPaused); the Pause action follows.
  void setRunPaused(bool paused);
  bool isRunPaused() const { return m_run->isPaused(); }
  bool isRunning() const { return m_run->isRunning(); }
  const ResultTable& results() const { return m_run->results(); }
  const RunSummary& lastSummary() const { return m_run->lastSummary(); }
  bool colourRangeComplete() const { return m_run->colourRangeComplete(); }

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
  /// The degrees of freedom shown in the status bar ("8 DOF"; empty when the model does not compile).
  QString dofText() const;
  /// The DOF count of the model as it is now is shown (none is being counted).
  bool dofCountShown() const { return m_dofShown == m_dofGeneration; }
  /// The readout of the last click in the view ("" before any): item, FE node, coordinates.
  QString pickReadout() const { return m_pickReadout; }
  /// Adds channels (by name) to the current plot and brings the Plots panel to the front.
  /// against: another channel (an x-y plot), "spectrum" (amplitude spectra), or empty (time).
  void plotChannels(const QStringList& names, const QString& against = {});
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
  render::ModelScene& scene() const { return *m_scene; }

 signals:
  void modelLoaded();
  /// An FE file could not be reduced, or its reduction was cancelled.
  void openFailed();
  void runFinished(bool ok);
  /// The system modes are in the mode browser (ok), or could not be found (the reason in Messages).
  void systemModesShown(bool ok);

 private:
  void createCentralArea();
  void createDocks();
  /// The run's and the files' signals: status, progress, plots, actions and title follow.
  void connectRunAndFiles();
  void createActions();
  void createMenus();
  /// View > Camera: the view presets, fit selection, parallel projection.
  void createCameraMenu(QMenu* view);
  void updateActions();
  void updateTitle();
  void updateDofCount();
  /// Marks the FE nodes k, m, n of the selected virtual body in the view (none otherwise).
  void markVirtualBodyNodes();
  /// The followed body of the scene from m_followedItem (after a rebuild); ends following when it is gone.
  void applyFollowedBody();
  /// Frames the model (animated) when part of it is outside the view.
  void frameIfOutOfView();
  /// Shows or hides the rotation handle for what the view shows now.
  void updateOrientationHandle();
  void onDocumentReset();
  void onFieldChanged();
  /// A click while placing a virtual body (Add → Virtual body on the mesh).
  void placeVirtualBody(const render::PickResult& hit);
  void onViewportClicked(double x, double y);
  void showFrame(int index);
  void closeEvent(QCloseEvent* event) override;
  void dragEnterEvent(QDragEnterEvent* event) override;
  void dropEvent(QDropEvent* event) override;

  ModelDocument* m_document = nullptr;
  std::unique_ptr<render::ModelScene> m_scene;
  RunSession* m_run = nullptr;
  DocumentFiles* m_files = nullptr;

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

  QAction* m_undoAction = nullptr;
  QAction* m_redoAction = nullptr;
  QAction* m_quitAction = nullptr;
  QAction* m_runAction = nullptr;
  QAction* m_staticAction = nullptr;
  QAction* m_systemModesAction = nullptr;
  bool m_linearizing = false;
  QAction* m_pauseAction = nullptr;
  QAction* m_cancelAction = nullptr;
  QAction* m_solverSettingsAction = nullptr;
  QAction* m_checkAction = nullptr;
  ItemActions* m_itemActions = nullptr;
  OrientationHandle* m_orientationHandle = nullptr;  ///< turns the selected body with the mouse
  bool m_showingLaterFrame = false;  ///< a frame of the results after the start is shown
  QAction* m_resetCameraAction = nullptr;
  QAction* m_followBodyAction = nullptr;
  std::string m_followedItem;  ///< JSON path of the body the camera follows ("" for none)
  QAction* m_showMarkersAction = nullptr;
  QAction* m_traceAction = nullptr;
  QAction* m_clearTraceAction = nullptr;
  QToolBar* m_viewToolBar = nullptr;
  DisplayToolBar* m_display = nullptr;
  render::PickResult m_lastPick;
  QStringList m_plotOnNextRun;  ///< sensors made by picking, plotted when the next run starts
  /// FE node ids of each virtual body's rigid–flexible joint, from the last compilation.
  std::unordered_map<std::string, std::array<int, 3>> m_virtualBodyNodes;
  /// What the compilation behind the DOF count says; counted off the GUI thread.
  struct DofCount {
    bool compiled = false;
    ModelCheck check;
    Diagnostics diag;
  };
  void showDofCount(const DofCount& count);
  int m_dofGeneration = 0;  ///< of the last count asked for: an older count's answer is dropped
  int m_dofShown = 0;       ///< of the count shown
};

}  // namespace flexim::ui
