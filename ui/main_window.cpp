#include "ui/main_window.h"

#include "core/base/versions.h"
#include "render/versions.h"
#include "ui/display_toolbar.h"
#include "ui/display_units.h"
#include "ui/item_actions.h"
#include "ui/item_dialog.h"
#include "ui/messages_panel.h"
#include "ui/mode_browser.h"
#include "ui/model_document.h"
#include "ui/model_tree.h"
#include "ui/orientation_handle.h"
#include "ui/playback_bar.h"
#include "ui/plot_panel.h"
#include "ui/property_panel.h"
#include "ui/recovery.h"
#include "ui/vtk_viewport.h"

#include <QAction>
#include <QActionGroup>
#include <QCloseEvent>
#include <QDockWidget>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QLabel>
#include <QMenuBar>
#include <QMessageBox>
#include <QPainter>
#include <QProgressBar>
#include <QSettings>
#include <QShortcut>
#include <QStatusBar>
#include <QTimer>
#include <QToolBar>
#include <QUndoView>
#include <QVBoxLayout>

#include <algorithm>
#include <utility>

namespace flexim::ui {

MainWindow::MainWindow(QWidget* parent) : QMainWindow(parent) {
  setWindowTitle(tr("Flexim"));
  resize(1200, 800);
  m_scene = std::make_unique<render::ModelScene>();
  m_scene->setStressUnit(stressUnit().unit.toStdString(), stressUnit().factor);
  m_document = new ModelDocument(this);
  m_itemActions = new ItemActions(m_document, this);
  setAcceptDrops(true);

  createCentralArea();
  // the run and the files report to Messages, and the plots draw the run's results: they come
  // before the docks that hold them
  m_messages = new MessagesPanel(this);
  m_run = new RunSession(*m_document, *m_scene, *m_viewport, *m_playback, *m_messages, this);
  m_plots = new PlotPanel(m_run->results(), this);
  m_files = new DocumentFiles(*m_document, *m_run, *m_messages, *m_playback, *m_viewport, *m_plots, this);
  createDocks();
  createActions();
  createMenus();

  m_statusText = new QLabel(tr("No model"), this);
  m_progress = new QProgressBar(this);
  m_progress->setRange(0, 1000);
  m_progress->setValue(0);
  m_progress->setMaximumWidth(380);
  m_progress->setFormat(tr("%p%"));
  m_dofLabel = new QLabel(this);
  m_dofLabel->setObjectName("dofLabel");
  // room for the count from the start: it arrives after the model is shown (counted off the GUI thread)
  m_dofLabel->setMinimumWidth(m_dofLabel->fontMetrics().horizontalAdvance(QStringLiteral("00000 DOF")));
  m_dofLabel->setAlignment(Qt::AlignRight | Qt::AlignVCenter);
  m_dofLabel->setToolTip(tr("Degrees of freedom of the model: coordinates minus independent constraints"));
  statusBar()->addWidget(m_statusText, 1);
  statusBar()->addPermanentWidget(m_dofLabel);
  statusBar()->addPermanentWidget(m_progress);
  m_orientationHandle = new OrientationHandle(*m_document, *m_scene, *m_viewport, this);
  connect(m_orientationHandle, &OrientationHandle::status, m_statusText, &QLabel::setText);
  connectRunAndFiles();

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
  delete m_run;
  m_run = nullptr;
  delete m_orientationHandle;  // takes its rings out of the scene's renderer while both live
  m_orientationHandle = nullptr;
}

void MainWindow::connectRunAndFiles() {
  connect(m_run, &RunSession::status, m_statusText, &QLabel::setText);
  connect(m_run, &RunSession::progress, m_progress, &QProgressBar::setValue);
  connect(m_run, &RunSession::progressText, m_progress, &QProgressBar::setFormat);
  connect(m_run, &RunSession::stateChanged, this, &MainWindow::updateActions);
  connect(m_run, &RunSession::restartRequested, this, &MainWindow::startRun);
  connect(m_run, &RunSession::started, this, [this](const std::vector<Channel>& channels) {
    m_orientationHandle->setEnabled(false);
    m_modes->stop();
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
  });
  connect(m_run, &RunSession::samplesAppended, m_plots, &PlotPanel::samplesAppended);
  connect(m_run, &RunSession::finished, this, [this](const RunSummary& summary) {
    m_plots->refreshAll();
    // the whole motion in view (Home frames it too); a followed body keeps the camera it set
    if (m_scene->followedBody() < 0) frameIfOutOfView();
    updateActions();
    emit runFinished(summary.ok);
  });
  connect(m_files, &DocumentFiles::status, m_statusText, &QLabel::setText);
  connect(m_files, &DocumentFiles::modelShown, this, &MainWindow::onDocumentReset);
  connect(m_files, &DocumentFiles::sourceChanged, this, [this] {
    updateTitle();
    updateActions();
  });
  connect(m_files, &DocumentFiles::openFailed, this, &MainWindow::openFailed);
  connect(m_files, &DocumentFiles::reducedBodyShown, this, [this] {
    if (auto* dock = findChild<QDockWidget*>("modesDock")) {
      dock->show();
      dock->raise();
    }
    m_modes->showFirstElasticMode();
    // frame the body in the view as it is once the Modes panel has taken its place
    QTimer::singleShot(0, m_viewport, &VtkViewport::resetView);
  });
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

  auto* messagesDock = new QDockWidget(tr("Messages"), this);
  messagesDock->setObjectName("messagesDock");
  messagesDock->setWidget(m_messages);
  addDockWidget(Qt::BottomDockWidgetArea, messagesDock);
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
  // the actions' text follows the command they undo ("Undo Edit rigid body 'crank' mass")
  m_undoAction = m_document->undoStack()->createUndoAction(this, tr("&Undo"));
  m_undoAction->setObjectName("actionUndo");
  m_undoAction->setShortcut(QKeySequence::Undo);
  m_redoAction = m_document->undoStack()->createRedoAction(this, tr("&Redo"));
  m_redoAction->setObjectName("actionRedo");
  m_redoAction->setShortcuts({QKeySequence(tr("Ctrl+Shift+Z")), QKeySequence(tr("Ctrl+Y"))});

  m_quitAction = new QAction(tr("&Quit"), this);
  m_quitAction->setObjectName("actionQuit");
  m_quitAction->setShortcut(QKeySequence::Quit);
  connect(m_quitAction, &QAction::triggered, this, &QWidget::close);

  m_runAction = new QAction(tr("&Run"), this);
  m_runAction->setObjectName("actionRun");
  m_runAction->setShortcut(QKeySequence(Qt::Key_F5));
  connect(m_runAction, &QAction::triggered, this, [this] { startRun(); });

  m_staticAction = new QAction(tr("Static &equilibrium"), this);
  m_staticAction->setObjectName("actionStaticEquilibrium");
  m_staticAction->setShortcut(QKeySequence(Qt::Key_F8));
  m_staticAction->setStatusTip(tr("The model at rest under its loads at t = 0: Newton in 10 load levels, a frame per level "
                                  "(play them back, plot against the load factor), the reactions in the sensors"));
  connect(m_staticAction, &QAction::triggered, this, [this] { startStatic(); });

  m_systemModesAction = new QAction(tr("System &modes"), this);
  m_systemModesAction->setObjectName("actionSystemModes");
  m_systemModesAction->setShortcut(QKeySequence(Qt::Key_F9));
  m_systemModesAction->setStatusTip(tr("The model linearized about its static equilibrium: its modes (frequency, damping "
                                       "ratio) in the mode browser, each animated on the whole model"));
  connect(m_systemModesAction, &QAction::triggered, this, [this] { showSystemModes(); });

  m_pauseAction = new QAction(tr("&Pause"), this);
  m_pauseAction->setObjectName("actionPause");
  m_pauseAction->setCheckable(true);
  m_pauseAction->setShortcut(QKeySequence(Qt::Key_F6));
  m_pauseAction->setToolTip(tr("Hold the run between two steps; press again to resume"));
  connect(m_pauseAction, &QAction::toggled, this, &MainWindow::setRunPaused);

  m_cancelAction = new QAction(tr("&Cancel"), this);
  m_cancelAction->setObjectName("actionCancel");
  m_cancelAction->setShortcut(QKeySequence(Qt::SHIFT | Qt::Key_F5));
  connect(m_cancelAction, &QAction::triggered, m_run, &RunSession::cancel);
  m_checkAction = new QAction(tr("C&heck model"), this);
  m_checkAction->setObjectName("actionCheckModel");
  m_checkAction->setShortcut(QKeySequence(Qt::Key_F7));
  m_checkAction->setStatusTip(tr("Degrees of freedom, redundant joints, unconnected bodies, virtual-body nodes, "
                                 "stale reduced bodies: each message selects its item"));
  connect(m_checkAction, &QAction::triggered, this, [this] {
    m_run->checkModel(m_files->modelDirectory());
    if (auto* dock = findChild<QDockWidget*>("messagesDock")) dock->raise();
  });
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
    m_run->redrawTrace();
    m_viewport->update();
  });
  connect(m_display, &DisplayToolBar::contourChanged, m_run, &RunSession::refeedColourRange);

  m_traceAction = new QAction(tr("&Trace picked point"), this);
  m_traceAction->setObjectName("actionTrace");
  m_traceAction->setShortcut(QKeySequence(Qt::Key_T));
  m_traceAction->setToolTip(tr("Draw the path of the point clicked last (a flexible body's nearest FE node, "
                               "or a point fixed to a body)"));
  connect(m_traceAction, &QAction::triggered, this, [this] {
    if (!m_run->trace(m_lastPick)) m_statusText->setText(tr("Click a point on a body first, then trace it"));
  });
  m_clearTraceAction = new QAction(tr("C&lear trace"), this);
  m_clearTraceAction->setObjectName("actionClearTrace");
  connect(m_clearTraceAction, &QAction::triggered, m_run, &RunSession::clearTrace);
}

void MainWindow::createMenus() {
  QMenu* file = menuBar()->addMenu(tr("&File"));
  m_files->fillFileMenu(file, m_itemActions->importFeAction());
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
  simulation->addAction(m_staticAction);
  simulation->addAction(m_systemModesAction);
  simulation->addAction(m_pauseAction);
  simulation->addAction(m_cancelAction);
  simulation->addSeparator();
  simulation->addAction(m_checkAction);
  simulation->addAction(m_solverSettingsAction);
  QMenu* view = menuBar()->addMenu(tr("&View"));
  view->addAction(m_resetCameraAction);
  view->addAction(m_followBodyAction);
  createCameraMenu(view);
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
  animation->addAction(m_files->exportAnimationAction());
  QMenu* help = menuBar()->addMenu(tr("&Help"));
  QMenu* examples = help->addMenu(tr("&Examples"));
  examples->setObjectName("menuExamples");
  m_files->fillExamplesMenu(examples);
  QAction* about = help->addAction(tr("&About Flexim"), this,
                                   [this] { QMessageBox::about(this, tr("About Flexim"), aboutText()); });
  about->setObjectName("actionAbout");
  m_viewToolBar = addToolBar(tr("View"));
  m_viewToolBar->setObjectName("viewToolBar");
  m_viewToolBar->addAction(m_resetCameraAction);
  m_viewToolBar->addAction(m_showMarkersAction);
  addToolBar(m_display);
}

void MainWindow::createCameraMenu(QMenu* view) {
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
  m_files->rememberPlotsPerFile();
}

void MainWindow::updateActions() {
  const bool running = isRunning();
  const bool hasModel = m_files->hasModel();
  m_files->updateActions(running);
  m_runAction->setEnabled(hasModel && !running);
  m_staticAction->setEnabled(hasModel && !running);
  m_systemModesAction->setEnabled(hasModel && !running && !m_linearizing);
  m_solverSettingsAction->setEnabled(hasModel && !running);
  m_checkAction->setEnabled(hasModel);
  m_itemActions->setEditable(!running);
  m_cancelAction->setEnabled(running);
  m_pauseAction->setEnabled(running && !m_run->isStatic());  // Newton at a load level does not pause
  {
    const QSignalBlocker block(m_pauseAction);
    m_pauseAction->setChecked(isRunPaused());  // still paused after a Resume the edit kept from going on
  }
  m_pauseAction->setText(m_pauseAction->isChecked() ? tr("&Resume") : tr("&Pause"));
  m_display->setFlexibleControlsEnabled(hasModel && !model().flexible_bodies.empty(),
                                        hasModel && !model().beam_elements.empty());
}

bool MainWindow::startRun() {
  if (!m_files->hasModel()) {
    m_messages->add(Severity::Error, tr("simulation"), tr("no model loaded; use File > Open model"));
    return false;
  }
  return m_run->start(m_files->modelDirectory());
}

bool MainWindow::startStatic() {
  if (!m_files->hasModel()) {
    m_messages->add(Severity::Error, tr("static equilibrium"), tr("no model loaded; use File > Open model"));
    return false;
  }
  return m_run->startStatic(m_files->modelDirectory());
}

void MainWindow::setRunPaused(bool paused) {
  m_run->setPaused(paused);
  updateActions();  // the action shows whether the run is paused now
}

const ModelSpec& MainWindow::model() const { return m_document->model(); }

QDoubleSpinBox* MainWindow::deformationScaleBox() const { return m_display->deformationScaleBox(); }

QImage MainWindow::grabWindowImage() {
  // compose explicitly: a plain widget grab may not include the OpenGL view under every platform
  QImage image = grab().toImage().convertToFormat(QImage::Format_RGB32);
  const QImage view = m_viewport->screenshot();
  QPainter painter(&image);
  painter.drawImage(QRect(m_viewport->mapTo(this, QPoint(0, 0)), m_viewport->size()), view);
  return image;
}

void MainWindow::closeEvent(QCloseEvent* event) {
  if (!m_files->maybeSave()) {
    event->ignore();
    return;
  }
  m_files->recovery()->discard();  // closed on purpose: nothing to recover
  if (m_restoredLayout) {  // the application's window: remember its layout for the next start
    QSettings settings;
    settings.setValue("window/geometry", saveGeometry());
    settings.setValue("window/state", saveState());
  }
  event->accept();
}

void MainWindow::dragEnterEvent(QDragEnterEvent* event) {
  if (DocumentFiles::opens(DocumentFiles::draggedFile(event->mimeData()))) event->acceptProposedAction();
}

void MainWindow::dropEvent(QDropEvent* event) {
  const QString file = DocumentFiles::draggedFile(event->mimeData());
  if (file.isEmpty()) return;
  event->acceptProposedAction();
  m_files->open(file);
}

}  // namespace flexim::ui
