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


MainWindow::MainWindow(QWidget* parent) : QMainWindow(parent) {
  setWindowTitle(tr("Flexim"));
  resize(1200, 800);
  m_scene = std::make_unique<render::ModelScene>();
  m_scene->setStressUnit(stressUnit().unit.toStdString(), stressUnit().factor);
  m_controller = new SimulationController(this);
  m_document = new ModelDocument(this);
  m_itemActions = new ItemActions(m_document, this);
  m_recovery = new Recovery(m_document, this);
  setAcceptDrops(true);

  createCentralArea();
  createDocks();
  createActions();
  createMenus();
  createToolBar();

  m_statusText = new QLabel(tr("No model"), this);
  m_progress = new QProgressBar(this);
  m_progress->setRange(0, 1000);
  m_progress->setValue(0);
  m_progress->setMaximumWidth(380);
  m_progress->setFormat(tr("%p%"));
  m_dofLabel = new QLabel(this);
  m_dofLabel->setObjectName("dofLabel");
  m_dofLabel->setToolTip(tr("Degrees of freedom of the model: coordinates minus independent constraints"));
  statusBar()->addWidget(m_statusText, 1);
  statusBar()->addPermanentWidget(m_dofLabel);
  statusBar()->addPermanentWidget(m_progress);
  m_orientationHandle = new OrientationHandle(*m_document, *m_scene, *m_viewport, this);
  connect(m_orientationHandle, &OrientationHandle::status, m_statusText, &QLabel::setText);

  connect(m_controller, &SimulationController::runStarted, this, &MainWindow::onRunStarted);
  connect(m_controller, &SimulationController::samplesArrived, this, &MainWindow::onSamplesArrived);
  connect(m_controller, &SimulationController::runFinished, this, &MainWindow::onRunFinished);
  connect(m_controller, &SimulationController::progressChanged, this,
          [this](double fraction) { m_progress->setValue(int(fraction * 1000.0 + 0.5)); });
  connect(m_controller, &SimulationController::timeReached, this, [this](double t, double tEnd, long steps) {
    // simulated time, steps per second and an estimate of the time left, from the rate so far
    // (pauses excluded)
    const double wall = m_runClock.elapsed() / 1000.0 - m_pausedSeconds;
    QString text = tr("t = %1 / %2 s").arg(t, 0, 'g', 4).arg(tEnd, 0, 'g', 4);
    if (wall > 0.5 && steps > 0) text += tr(" · %1 steps/s").arg(double(steps) / wall, 0, 'f', 0);
    if (t > 0 && wall > 1.0 && tEnd > t) {
      const double left = (tEnd - t) * wall / t;
      text += left < 60 ? tr(" · %1 s left").arg(std::ceil(left)) : tr(" · %1 min left").arg(std::ceil(left / 60));
    }
    if (m_controller->isPaused()) text += tr(" · paused");
    m_progress->setFormat(text);
  });
  connect(m_messages, &MessagesPanel::whereActivated, this, [this](const QString& where) {
    const ItemId id = m_document->itemAtPath(where.toStdString());
    if (id != ModelDocument::kNoItem) m_document->select(id);
  });
  connect(m_playback, &PlaybackBar::frameChanged, this, &MainWindow::showFrame);
  connect(m_document, &ModelDocument::fieldChanged, this, &MainWindow::onFieldChanged);
  connect(m_document, &ModelDocument::itemsChanged, this, [this] {
    onFieldChanged();
    frameIfOutOfView();  // a body added where the camera does not look is brought into view
  });
  connect(m_document, &ModelDocument::dirtyChanged, this, [this] { updateTitle(); });
  // the selection, wherever it was made, is drawn highlighted in the view
  connect(m_document, &ModelDocument::selectionChanged, this, [this](ItemId id) {
    m_scene->setHighlighted(m_document->itemPath(id));
    markVirtualBodyNodes();
    m_orientationHandle->refresh();
    m_viewport->update();
  });
  connect(m_viewport, &VtkViewport::clicked, this, &MainWindow::onViewportClicked);
  // an imported body is seen at once: in view, selected, its modes listed (not animated: the
  // next click may place a virtual body on its undeformed surface)
  connect(m_itemActions, &ItemActions::flexibleBodyImported, this, [this](ItemId id) {
    m_document->select(id);
    if (auto* dock = findChild<QDockWidget*>("modesDock")) {
      dock->show();
      dock->raise();
    }
    QTimer::singleShot(0, this, [this] { frameIfOutOfView(); });  // once the dock has taken its place
  });
  // placing a virtual body: a cross cursor and the prompt until the click or Esc
  connect(m_itemActions, &ItemActions::placingChanged, this, [this](bool placing, const QString& prompt) {
    updateOrientationHandle();  // the click is for the mesh, not a ring
    m_viewport->setCursor(placing ? Qt::CrossCursor : Qt::ArrowCursor);
    m_statusText->setText(prompt);
  });
  connect(m_itemActions, &ItemActions::diagnostics, this, [this](const Diagnostics& diag, const QString& file) {
    m_messages->add(diag);
    m_messages->add(Severity::Info, file, tr("reduced body written"));
  });
  connect(m_itemActions, &ItemActions::plotOnNextRun, this, [this](const QString& sensor) {
    m_plotOnNextRun << sensor;
    m_statusText->setText(tr("Sensor '%1' added: its channels are plotted when the next run starts (F5)").arg(sensor));
  });
  auto* cancelPlacing = new QShortcut(QKeySequence(Qt::Key_Escape), this);
  connect(cancelPlacing, &QShortcut::activated, this, [this] {
    if (m_viewport->isDragging()) m_viewport->cancelDrag();  // a turn with the handle
    else m_itemActions->cancelPlacing();
  });
  connect(m_plots, &PlotPanel::layoutChanged, this, &MainWindow::rememberPlots);
  m_liveViewTimer.setSingleShot(true);
  m_rangeTimer.setInterval(0);
  connect(&m_rangeTimer, &QTimer::timeout, this, &MainWindow::feedColourRange);
  m_liveViewTimer.setInterval(80);
  connect(&m_liveViewTimer, &QTimer::timeout, m_viewport, qOverload<>(&QWidget::update));
  // the item under the mouse gets a thin box and its name in the tool tip: what a click would pick
  connect(m_viewport, &VtkViewport::hovered, this, [this](double x, double y) {
    const std::string item = x < 0 ? std::string() : m_scene->pick(x, y).item;
    if (!m_scene->setHovered(item)) return;
    const ItemId id = item.empty() ? ModelDocument::kNoItem : m_document->itemAtPath(item);
    m_viewport->setToolTip(id == ModelDocument::kNoItem ? QString() : m_document->itemLabel(id));
    m_viewport->setCursor(m_itemActions->placing()        ? Qt::CrossCursor
                          : id == ModelDocument::kNoItem ? Qt::ArrowCursor
                                                         : Qt::PointingHandCursor);
    m_viewport->update();
  });
  updateActions();
  updateTitle();
}

MainWindow::~MainWindow() {
  // stop the worker before the scene and stores it feeds go away
  delete m_controller;
  m_controller = nullptr;
  delete m_orientationHandle;  // takes its rings out of the scene's renderer while both live
  m_orientationHandle = nullptr;
}

void MainWindow::createCentralArea() {
  m_viewport = new VtkViewport(this);
  m_viewport->setRenderer(m_scene->renderer());
  m_viewport->setOverlay(m_scene->axesRenderer());
  m_viewport->setCameraReset([this] { m_scene->resetCamera(); });
  m_playback = new PlaybackBar(this);

  auto* central = new QWidget(this);
  auto* layout = new QVBoxLayout(central);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->setSpacing(0);
  layout->addWidget(m_viewport, 1);
  layout->addWidget(m_playback);
  setCentralWidget(central);
}

void MainWindow::createDocks() {
  m_tree = new ModelTree(this);
  m_tree->setDocument(m_document);
  auto* treeDock = new QDockWidget(tr("Model"), this);
  treeDock->setObjectName("modelDock");
  treeDock->setWidget(m_tree);
  addDockWidget(Qt::LeftDockWidgetArea, treeDock);

  m_properties = new PropertyPanel(m_document, this);
  auto* propertiesDock = new QDockWidget(tr("Properties"), this);
  propertiesDock->setObjectName("propertiesDock");
  propertiesDock->setWidget(m_properties);
  addDockWidget(Qt::LeftDockWidgetArea, propertiesDock);
  splitDockWidget(treeDock, propertiesDock, Qt::Vertical);

  m_modes = new ModeBrowser(m_document, m_scene.get(), this);
  auto* modesDock = new QDockWidget(tr("Modes"), this);
  modesDock->setObjectName("modesDock");
  modesDock->setWidget(m_modes);
  addDockWidget(Qt::RightDockWidgetArea, modesDock);
  modesDock->hide();  // shown for models with flexible bodies
  connect(m_modes, &ModeBrowser::viewChanged, m_viewport, [this] {
    updateOrientationHandle();  // no rotation rings on a mode shape
    m_viewport->update();
  });

  auto* historyDock = new QDockWidget(tr("History"), this);
  historyDock->setObjectName("historyDock");
  auto* history = new QUndoView(m_document->undoStack(), historyDock);
  history->setEmptyLabel(tr("<opened>"));
  historyDock->setWidget(history);
  addDockWidget(Qt::RightDockWidgetArea, historyDock);
  historyDock->hide();  // View > History shows it

  m_messages = new MessagesPanel(this);
  auto* messagesDock = new QDockWidget(tr("Messages"), this);
  messagesDock->setObjectName("messagesDock");
  messagesDock->setWidget(m_messages);
  addDockWidget(Qt::BottomDockWidgetArea, messagesDock);
  m_plots = new PlotPanel(m_results, this);
  auto* plotsDock = new QDockWidget(tr("Plots"), this);
  plotsDock->setObjectName("plotsDock");
  plotsDock->setWidget(m_plots);
  addDockWidget(Qt::BottomDockWidgetArea, plotsDock);
  tabifyDockWidget(messagesDock, plotsDock);
  messagesDock->raise();

  // the model panels run the full height on the left; messages and plots sit under the view
  setCorner(Qt::BottomLeftCorner, Qt::LeftDockWidgetArea);
  resizeDocks({treeDock}, {400}, Qt::Horizontal);
  resizeDocks({treeDock, propertiesDock}, {300, 420}, Qt::Vertical);
  // the view gets most of the height; sizes apply once the window has its own size
  QTimer::singleShot(0, this, [this, messagesDock] { resizeDocks({messagesDock}, {190}, Qt::Vertical); });
}

void MainWindow::createActions() {
  m_newAction = new QAction(tr("&New model"), this);
  m_newAction->setObjectName("actionNew");
  m_newAction->setShortcut(QKeySequence::New);
  connect(m_newAction, &QAction::triggered, this, &MainWindow::onNewRequested);

  m_saveAction = new QAction(tr("&Save"), this);
  m_saveAction->setObjectName("actionSave");
  m_saveAction->setShortcut(QKeySequence::Save);
  connect(m_saveAction, &QAction::triggered, this, &MainWindow::onSaveRequested);

  m_saveAsAction = new QAction(tr("Save &as…"), this);
  m_saveAsAction->setObjectName("actionSaveAs");
  m_saveAsAction->setShortcut(QKeySequence(tr("Ctrl+Shift+S")));
  connect(m_saveAsAction, &QAction::triggered, this, &MainWindow::onSaveAsRequested);

  m_revertAction = new QAction(tr("Re&vert"), this);
  m_revertAction->setObjectName("actionRevert");
  m_revertAction->setToolTip(tr("Read the model file again, dropping the changes since it was saved"));
  connect(m_revertAction, &QAction::triggered, this, &MainWindow::onRevertRequested);

  // the actions' text follows the command they undo ("Undo Edit rigid body 'crank' mass")
  m_undoAction = m_document->undoStack()->createUndoAction(this, tr("&Undo"));
  m_undoAction->setObjectName("actionUndo");
  m_undoAction->setShortcut(QKeySequence::Undo);
  m_redoAction = m_document->undoStack()->createRedoAction(this, tr("&Redo"));
  m_redoAction->setObjectName("actionRedo");
  m_redoAction->setShortcuts({QKeySequence(tr("Ctrl+Shift+Z")), QKeySequence(tr("Ctrl+Y"))});

  m_openAction = new QAction(tr("&Open model…"), this);
  m_openAction->setObjectName("actionOpen");  // found by tests and automation
  m_openAction->setShortcut(QKeySequence::Open);
  connect(m_openAction, &QAction::triggered, this, &MainWindow::onOpenRequested);

  m_exportAction = new QAction(tr("&Export results CSV…"), this);
  m_exportAction->setObjectName("actionExportCsv");
  m_exportAction->setShortcut(QKeySequence(tr("Ctrl+E")));
  connect(m_exportAction, &QAction::triggered, this, &MainWindow::onExportRequested);

  m_quitAction = new QAction(tr("&Quit"), this);
  m_quitAction->setObjectName("actionQuit");
  m_quitAction->setShortcut(QKeySequence::Quit);
  connect(m_quitAction, &QAction::triggered, this, &QWidget::close);

  m_runAction = new QAction(tr("&Run"), this);
  m_runAction->setObjectName("actionRun");
  m_runAction->setShortcut(QKeySequence(Qt::Key_F5));
  connect(m_runAction, &QAction::triggered, this, [this] { startRun(); });

  m_pauseAction = new QAction(tr("&Pause"), this);
  m_pauseAction->setObjectName("actionPause");
  m_pauseAction->setCheckable(true);
  m_pauseAction->setShortcut(QKeySequence(Qt::Key_F6));
  m_pauseAction->setToolTip(tr("Hold the run between two steps; press again to resume"));
  connect(m_pauseAction, &QAction::toggled, this, &MainWindow::setRunPaused);

  m_cancelAction = new QAction(tr("&Cancel"), this);
  m_cancelAction->setObjectName("actionCancel");
  m_cancelAction->setShortcut(QKeySequence(Qt::SHIFT | Qt::Key_F5));
  connect(m_cancelAction, &QAction::triggered, this, &MainWindow::cancelRun);
  m_checkAction = new QAction(tr("C&heck model"), this);
  m_checkAction->setObjectName("actionCheckModel");
  m_checkAction->setShortcut(QKeySequence(Qt::Key_F7));
  m_checkAction->setStatusTip(tr("Degrees of freedom, redundant joints, unconnected bodies, virtual-body nodes, "
                                 "stale reduced bodies: each message selects its item"));
  connect(m_checkAction, &QAction::triggered, this, &MainWindow::checkModel);
  m_solverSettingsAction = new QAction(tr("Solver &settings…"), this);
  m_solverSettingsAction->setObjectName("actionSolverSettings");
  m_solverSettingsAction->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_F5));
  m_solverSettingsAction->setStatusTip(tr("Integrator, step, tolerances, end time and output interval"));
  connect(m_solverSettingsAction, &QAction::triggered, this, [this] {
    ItemDialog dialog(*m_document, ModelDocument::kSimulationId, tr("Solver settings"), this);
    dialog.exec();
  });

  m_resetCameraAction = new QAction(tr("&Reset camera"), this);
  m_resetCameraAction->setObjectName("actionResetCamera");
  m_resetCameraAction->setShortcut(QKeySequence(Qt::Key_Home));
  connect(m_resetCameraAction, &QAction::triggered, this,
          [this] { m_viewport->animateCamera([this] { m_scene->resetCamera(); }); });

  m_followBodyAction = new QAction(tr("&Follow selected body"), this);
  m_followBodyAction->setObjectName("actionFollowBody");
  m_followBodyAction->setToolTip(tr("The camera moves with the selected body while the results play"));
  m_followBodyAction->setCheckable(true);
  connect(m_followBodyAction, &QAction::toggled, this, [this](bool on) {
    ItemId id = m_document->selected();
    if (const ItemDescription* d = m_document->description(id); d && d->kind == "marker") id = m_document->parentOf(id);
    m_followedItem = on ? m_document->itemPath(id) : std::string();
    applyFollowedBody();
    if (on && m_scene->followedBody() < 0) {
      m_statusText->setText(tr("Select a body to follow first"));
      m_followBodyAction->setChecked(false);
    } else if (on) {
      m_statusText->setText(tr("Following %1").arg(m_document->itemLabel(id)));
    }
  });

  m_showMarkersAction = new QAction(tr("Show &markers"), this);
  m_showMarkersAction->setObjectName("actionShowMarkers");
  m_showMarkersAction->setCheckable(true);
  m_showMarkersAction->setChecked(m_scene->markersVisible());
  connect(m_showMarkersAction, &QAction::toggled, this, [this](bool on) {
    m_scene->setMarkersVisible(on);
    m_viewport->update();
  });

  m_display = new DisplayToolBar(*m_scene, this);
  connect(m_display, &DisplayToolBar::displayChanged, this, [this] {
    m_tracePath.clear();  // drawn with the deformation scale
    updateTrace(m_playback->currentFrame());
    m_viewport->update();
  });
  connect(m_display, &DisplayToolBar::contourChanged, this, &MainWindow::refeedColourRange);

  m_traceAction = new QAction(tr("&Trace picked point"), this);
  m_traceAction->setObjectName("actionTrace");
  m_traceAction->setShortcut(QKeySequence(Qt::Key_T));
  m_traceAction->setToolTip(tr("Draw the path of the point clicked last (a flexible body's nearest FE node, "
                               "or a point fixed to a body)"));
  connect(m_traceAction, &QAction::triggered, this, [this] {
    if (!traceLastPick()) m_statusText->setText(tr("Click a point on a body first, then trace it"));
  });
  m_clearTraceAction = new QAction(tr("C&lear trace"), this);
  m_clearTraceAction->setObjectName("actionClearTrace");
  connect(m_clearTraceAction, &QAction::triggered, this, &MainWindow::clearTrace);

  m_exportAnimationAction = new QAction(tr("Export &animation…"), this);
  m_exportAnimationAction->setObjectName("actionExportAnimation");
  m_exportAnimationAction->setToolTip(tr("Write the animation as an Ogg Theora video (.ogv) or a PNG frame sequence"));
  connect(m_exportAnimationAction, &QAction::triggered, this, [this] {
    QString filter;
    const QString path = QFileDialog::getSaveFileName(this, tr("Export animation"), QStringLiteral("animation.ogv"),
                                                      tr("Ogg Theora video (*.ogv);;PNG frame sequence (*.png)"), &filter);
    if (!path.isEmpty()) exportAnimation(path);
  });
  m_exportImageAction = new QAction(tr("Export &view image…"), this);
  m_exportImageAction->setObjectName("actionExportImage");
  connect(m_exportImageAction, &QAction::triggered, this, [this] {
    const QString path = QFileDialog::getSaveFileName(this, tr("Export view image"), QStringLiteral("view.png"),
                                                      tr("PNG images (*.png)"));
    if (!path.isEmpty()) exportViewImage(path);
  });
}

void MainWindow::createToolBar() {
  m_viewToolBar = addToolBar(tr("View"));
  m_viewToolBar->setObjectName("viewToolBar");
  m_viewToolBar->addAction(m_resetCameraAction);
  m_viewToolBar->addAction(m_showMarkersAction);
  addToolBar(m_display);
}

QDoubleSpinBox* MainWindow::deformationScaleBox() const { return m_display->deformationScaleBox(); }

void MainWindow::createMenus() {
  QMenu* file = menuBar()->addMenu(tr("&File"));
  file->addAction(m_newAction);
  file->addAction(m_openAction);
  m_recentMenu = file->addMenu(tr("Open &recent"));
  m_recentMenu->setObjectName("menuRecent");
  updateRecentFiles(QString());
  file->addAction(m_saveAction);
  file->addAction(m_saveAsAction);
  file->addAction(m_revertAction);
  file->addSeparator();
  file->addAction(m_itemActions->importFeAction());
  file->addAction(m_exportAction);
  file->addAction(m_exportImageAction);
  file->addAction(m_exportAnimationAction);
  file->addSeparator();
  file->addAction(m_quitAction);
  QMenu* edit = menuBar()->addMenu(tr("&Edit"));
  edit->addAction(m_undoAction);
  edit->addAction(m_redoAction);
  edit->addSeparator();
  edit->addAction(m_itemActions->copyAction());
  edit->addAction(m_itemActions->pasteAction());
  edit->addAction(m_itemActions->duplicateAction());
  edit->addAction(m_itemActions->deleteAction());
  menuBar()->addMenu(m_itemActions->addMenu());
  // the tree's context menu: what can be done to the item under the mouse (selected by the click)
  m_tree->setContextMenuPolicy(Qt::ActionsContextMenu);
  m_tree->addAction(m_itemActions->addMarkerAction());
  m_tree->addAction(m_itemActions->copyAction());
  m_tree->addAction(m_itemActions->pasteAction());
  m_tree->addAction(m_itemActions->duplicateAction());
  m_tree->addAction(m_itemActions->deleteAction());
  QMenu* simulation = menuBar()->addMenu(tr("&Simulation"));
  simulation->addAction(m_runAction);
  simulation->addAction(m_pauseAction);
  simulation->addAction(m_cancelAction);
  simulation->addSeparator();
  simulation->addAction(m_checkAction);
  simulation->addAction(m_solverSettingsAction);
  QMenu* view = menuBar()->addMenu(tr("&View"));
  view->addAction(m_resetCameraAction);
  view->addAction(m_followBodyAction);
  QMenu* camera = view->addMenu(tr("&Camera"));
  camera->setObjectName("menuCamera");
  const auto preset = [this, camera](const QString& text, render::ViewPreset p, const QString& name, QKeySequence key) {
    QAction* a = camera->addAction(text, this, [this, p] {
      m_viewport->animateCamera([this, p] { m_scene->viewFrom(p); });
      m_viewport->update();
    });
    a->setObjectName(name);
    a->setShortcut(key);
  };
  preset(tr("&Front"), render::ViewPreset::Front, "actionViewFront", QKeySequence(tr("Ctrl+1")));
  preset(tr("&Right"), render::ViewPreset::Right, "actionViewRight", QKeySequence(tr("Ctrl+3")));
  preset(tr("&Top"), render::ViewPreset::Top, "actionViewTop", QKeySequence(tr("Ctrl+7")));
  preset(tr("&Back"), render::ViewPreset::Back, "actionViewBack", QKeySequence(tr("Ctrl+Alt+1")));
  preset(tr("&Left"), render::ViewPreset::Left, "actionViewLeft", QKeySequence(tr("Ctrl+Alt+3")));
  preset(tr("B&ottom"), render::ViewPreset::Bottom, "actionViewBottom", QKeySequence(tr("Ctrl+Alt+7")));
  preset(tr("&Isometric"), render::ViewPreset::Isometric, "actionViewIso", QKeySequence(tr("Ctrl+5")));
  camera->addSeparator();
  QAction* fit = camera->addAction(tr("Fit &selection"), this, [this] {
    const std::string item = m_document->itemPath(m_document->selected());
    m_viewport->animateCamera([this, item] { m_scene->fitItem(item); });
  });
  fit->setObjectName("actionFitSelection");
  fit->setShortcut(QKeySequence(Qt::Key_F));
  QAction* parallel = camera->addAction(tr("&Parallel projection"));
  parallel->setObjectName("actionParallel");
  parallel->setCheckable(true);
  parallel->setShortcut(QKeySequence(tr("Ctrl+0")));
  connect(parallel, &QAction::toggled, this, [this](bool on) {
    m_scene->setParallelProjection(on);
    m_viewport->update();
  });
  view->addAction(m_showMarkersAction);
  view->addAction(m_display->colourAction());
  view->addAction(m_display->undeformedAction());
  // stresses in plots, read-outs and the colour bar: one unit, the user's
  QMenu* stress = view->addMenu(tr("&Stress unit"));
  auto* stressGroup = new QActionGroup(stress);
  for (const QString& unit : stressUnits()) {
    QAction* a = stress->addAction(unit);
    a->setObjectName("stressUnit:" + unit);
    a->setCheckable(true);
    a->setChecked(unit == stressUnit().unit);
    stressGroup->addAction(a);
    connect(a, &QAction::triggered, this, [this, unit] {
      setStressUnit(unit);
      m_scene->setStressUnit(unit.toStdString(), stressUnit().factor);
      m_display->unitsChanged();
      m_plots->unitsChanged();
      m_viewport->update();
    });
  }
  view->addSeparator();
  for (QDockWidget* dock : findChildren<QDockWidget*>()) view->addAction(dock->toggleViewAction());
  QMenu* animation = menuBar()->addMenu(tr("&Animation"));
  animation->setObjectName("menuAnimation");
  animation->addAction(m_playback->playAction());
  animation->addAction(m_playback->stepBackAction());
  animation->addAction(m_playback->stepForwardAction());
  animation->addAction(m_playback->loopAction());
  animation->addSeparator();
  animation->addAction(m_traceAction);
  animation->addAction(m_clearTraceAction);
  animation->addSeparator();
  animation->addAction(m_exportAnimationAction);
  QMenu* help = menuBar()->addMenu(tr("&Help"));
  QMenu* examples = help->addMenu(tr("&Examples"));
  examples->setObjectName("menuExamples");
  fillExamplesMenu(examples);
  QAction* about = help->addAction(tr("&About Flexim"), this,
                                   [this] { QMessageBox::about(this, tr("About Flexim"), aboutText()); });
  about->setObjectName("actionAbout");
}

QString MainWindow::aboutText() const {
  QString text = tr("<h3>Flexim %1</h3><p>Flexible multibody modeller and simulator.</p><p>Built with:</p><ul>")
                     .arg(QStringLiteral(FLEXIM_VERSION));
  text += QString("<li>Qt %1</li>").arg(qVersion());
  for (const auto& [library, version] : render::renderLibraryVersions())
    text += QString("<li>%1 %2</li>").arg(QString::fromStdString(library), QString::fromStdString(version));
  for (const auto& [library, version] : solverLibraryVersions())
    text += QString("<li>%1 %2</li>").arg(QString::fromStdString(library), QString::fromStdString(version));
  return text + "</ul>";
}

void MainWindow::restoreLayout() {
  QSettings settings;
  restoreGeometry(settings.value("window/geometry").toByteArray());
  restoreState(settings.value("window/state").toByteArray());
  m_restoredLayout = true;
}

void MainWindow::updateActions() {
  const bool running = isRunning();
  m_openAction->setEnabled(!running);
  m_newAction->setEnabled(!running);
  m_recentMenu->setEnabled(!running);
  m_saveAction->setEnabled(m_hasModel);
  m_saveAsAction->setEnabled(m_hasModel);
  m_revertAction->setEnabled(m_hasModel && !running && !m_document->path().isEmpty());
  m_runAction->setEnabled(m_hasModel && !running);
  m_solverSettingsAction->setEnabled(m_hasModel && !running);
  m_checkAction->setEnabled(m_hasModel);
  m_itemActions->setEditable(!running);
  m_cancelAction->setEnabled(running);
  m_pauseAction->setEnabled(running);
  if (!running) {
    const QSignalBlocker block(m_pauseAction);
    m_pauseAction->setChecked(false);
  }
  m_pauseAction->setText(m_pauseAction->isChecked() ? tr("&Resume") : tr("&Pause"));
  m_exportAction->setEnabled(!running && !m_results.empty());
  const bool flexible = m_hasModel && !model().flexible_bodies.empty();
  m_display->setFlexibleControlsEnabled(flexible);
  m_exportAnimationAction->setEnabled(!running && !m_results.empty());
}

const ModelSpec& MainWindow::model() const { return m_document->model(); }

void MainWindow::onDocumentReset() {
  const ModelSpec& m = model();
  m_hasModel = true;
  m_results.reset({});
  m_plots->setChannels({});
  m_playback->clear();
  m_progress->setValue(0);
  m_progress->setFormat(tr("%p%"));

  Diagnostics diag;
  m_scene->setBaseDirectory(modelDirectory().toStdString());
  m_viewport->stopCamera();
  m_scene->build(m, &diag);
  m_followBodyAction->setChecked(false);  // a new model: nothing to follow
  m_showingLaterFrame = false;
  updateOrientationHandle();
  m_trace = {};
  m_tracePath.clear();
  m_messages->add(diag);
  if (auto* dock = findChild<QDockWidget*>("modesDock")) dock->setVisible(!m.flexible_bodies.empty());
  m_viewport->update();
  updateTitle();
  updateDofCount();

  const QString name = m.name.empty() ? QFileInfo(m_modelSource).fileName() : QString::fromStdString(m.name);
  if (m.flexible_bodies.empty())
    m_statusText->setText(tr("Loaded %1: %2 bodies, %3 joints").arg(name).arg(m.bodies.size()).arg(m.joints.size()));
  else
    m_statusText->setText(tr("Loaded %1: %2 rigid, %3 flexible, %4 virtual bodies, %5 joints")
                              .arg(name)
                              .arg(m.bodies.size())
                              .arg(m.flexible_bodies.size())
                              .arg(m.virtual_bodies.size())
                              .arg(m.joints.size()));
  m_messages->add(Severity::Info, m_modelSource, tr("model loaded"));
  updateActions();
  emit modelLoaded();
}

void MainWindow::onFieldChanged() {
  if (isRunPaused()) m_editedWhilePaused = true;  // the run goes on with it on Resume
  // an edit is drawn at once, seen from where the user was looking
  Diagnostics diag;
  m_scene->setBaseDirectory(modelDirectory().toStdString());
  m_scene->build(model(), &diag, true);
  // a paused run keeps showing where it stands (the same bodies drawn at its last sample)
  if (isRunPaused() && !m_results.empty() && m_results.bodies() == m_scene->bodyTable())
    m_scene->setSample(m_results.sample(m_results.size() - 1));
  applyFollowedBody();
  m_showingLaterFrame = false;
  updateOrientationHandle();
  m_trace = {};  // the bodies may have changed
  m_tracePath.clear();
  m_messages->add(diag);  // e.g. a visual mesh that cannot be read
  m_viewport->update();
  updateActions();
  updateDofCount();
}

void MainWindow::onViewportClicked(double x, double y) {
  const render::PickResult hit = m_scene->pick(x, y);
  if (m_itemActions->placing()) {
    placeVirtualBody(hit);
    return;
  }
  if (!hit.item.empty()) m_itemActions->setLastPick(hit);
  m_lastPick = hit;
  const ItemId id = hit.item.empty() ? ModelDocument::kNoItem : m_document->itemAtPath(hit.item);
  m_document->select(id);
  if (id == ModelDocument::kNoItem) {
    m_pickReadout.clear();
    return;
  }
  const auto vec = [](const Vec3& v, double scale) {
    return QString("(%1, %2, %3)").arg(v.x() * scale, 0, 'g', 5).arg(v.y() * scale, 0, 'g', 5).arg(v.z() * scale, 0, 'g', 5);
  };
  m_pickReadout = m_document->itemLabel(id);
  if (hit.node_id >= 0)
    m_pickReadout += tr(": node %1 at %2 m, elastic displacement %3 mm (body axes)")
                         .arg(hit.node_id)
                         .arg(vec(hit.node_position, 1.0), vec(hit.node_displacement, 1e3));
  else
    m_pickReadout += tr(" at %1 m").arg(vec(hit.point, 1.0));
  m_statusText->setText(m_pickReadout);
}

void MainWindow::placeVirtualBody(const render::PickResult& hit) {
  QString message;
  if (!m_itemActions->placeAt(hit, message)) {
    m_statusText->setText(message);  // placing goes on: another click, or Esc
    return;
  }
  const ItemId id = m_document->selected();
  const QString where = QString::fromStdString(m_document->itemPath(id));
  m_messages->add(Severity::Info, where, message);
  // the solver's own account of it: the node triangle k, m, n it rides on, how far node k is from
  // the point, and a warning when the triangle is near a singular position
  Diagnostics diag;
  Simulation::create(model(), diag);
  for (const Diagnostic& d : diag.items())
    if (QString::fromStdString(d.where) == where) m_messages->add(d.severity, where, QString::fromStdString(d.message));
  m_statusText->setText(message);
}

void MainWindow::markVirtualBodyNodes() {
  // the nodes k, m, n the selected virtual body rides on, as the solver chose them
  std::vector<Vec3> points;
  std::size_t flexible = m_scene->flexibleBodyCount();  // none
  const ItemId id = m_document->selected();
  const ItemDescription* d = m_document->description(id);
  const auto nodes = d && d->kind == "virtual_body" ? m_virtualBodyNodes.find(m_document->itemName(id)) : m_virtualBodyNodes.end();
  if (nodes != m_virtualBodyNodes.end()) {
    const std::string on = std::get<std::string>(m_document->value(id, "flexible_body"));
    const auto& bodies = model().flexible_bodies;
    const auto body = std::find_if(bodies.begin(), bodies.end(), [&](const FlexibleBodySpec& f) { return f.name == on; });
    const int pose = m_scene->bodyTable().poseNamed(on);
    if (body != bodies.end() && body->data && pose >= 0 && m_scene->bodyTable()[pose].deformable >= 0) {
      flexible = std::size_t(m_scene->bodyTable()[pose].deformable);
      const auto& ids = body->data->node_ids;
      for (int node : nodes->second)
        if (const auto at = std::find(ids.begin(), ids.end(), node); at != ids.end())
          points.push_back(body->data->coords[std::size_t(at - ids.begin())]);
    }
  }
  m_scene->markNodes(flexible, points);
  m_properties->setViewNote(points.empty() ? QString()
                                           : tr("In the view: node k <span style='color:#f2403a'>●</span>, m "
                                                "<span style='color:#40cc4d'>●</span>, n <span style='color:#4d80ff'>●</span>"));
  m_viewport->update();
}

void MainWindow::applyFollowedBody() {
  m_scene->setFollowedBody(m_followedItem.empty() ? -1 : m_scene->bodyIndexOf(m_followedItem));
  // the body was deleted (or its list changed): following ends
  if (!m_followedItem.empty() && m_scene->followedBody() < 0) {
    m_followedItem.clear();
    const QSignalBlocker block(m_followBodyAction);
    m_followBodyAction->setChecked(false);
  }
}

void MainWindow::frameIfOutOfView() {
  if (!m_hasModel || m_scene->boundsInView()) return;
  m_viewport->animateCamera([this] { m_scene->resetCamera(); });
}

void MainWindow::updateOrientationHandle() {
  // it edits the start: on the model as it starts, not while a run computes (its frames move the
  // bodies), a virtual body is being placed (the click is for the mesh), a later frame or a mode
  // shape is shown
  m_orientationHandle->setEnabled(!isRunning() && !m_itemActions->placing() && !m_showingLaterFrame &&
                                  !m_scene->showingMode());
}

QString MainWindow::dofText() const { return m_dofLabel->text(); }

void MainWindow::updateDofCount() {
  // compiles the model (no run): its count, or a dash when it does not compile yet; what the
  // compilation says about an item is shown with its properties
  Diagnostics diag;
  const auto simulation = Simulation::create(model(), diag);
  m_properties->setNotes(diag);
  m_virtualBodyNodes.clear();
  if (!simulation) {
    m_dofLabel->setText(tr("— DOF"));
    m_dofLabel->setToolTip(tr("The model does not compile yet; Simulation > Run says why in Messages"));
    markVirtualBodyNodes();
    return;
  }
  const ModelCheck check = simulation->check();
  m_virtualBodyNodes = check.virtual_body_nodes;
  markVirtualBodyNodes();
  m_dofLabel->setText(tr("%1 DOF").arg(check.dof));
  m_dofLabel->setToolTip(tr("%1 coordinates, %2 constraint equations (%3 independent): %4 degrees of freedom")
                             .arg(check.coordinates)
                             .arg(check.constraint_rows)
                             .arg(check.rank)
                             .arg(check.dof));
}

void MainWindow::plotChannels(const QStringList& names, const QString& against) {
  PlotView* plot = m_plots->currentPlot() ? m_plots->currentPlot() : m_plots->addPlot();
  for (const QString& name : names) plot->addChannel(name.toStdString());
  if (!against.isEmpty()) plot->setAbscissaKey(against == "spectrum" ? QString(PlotView::kSpectrumKey) : against);
  if (auto* dock = findChild<QDockWidget*>("plotsDock")) dock->raise();
}

}  // namespace flexim::ui
