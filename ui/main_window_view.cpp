// MainWindow, the view kept in step with the model: a model shown or edited, a frame of the
// results, clicks in the view (picks, placing a virtual body), the nodes a virtual body rides on,
// the degrees of freedom, the followed body, the rotation handle and the title.
#include "ui/main_window.h"

#include "core/model/body_table.h"

#include "ui/item_actions.h"
#include "ui/messages_panel.h"
#include "ui/mode_browser.h"
#include "ui/model_document.h"
#include "ui/orientation_handle.h"
#include "ui/plot_panel.h"
#include "ui/property_panel.h"
#include "ui/vtk_viewport.h"

#include <QAction>
#include <QDockWidget>
#include <QFileInfo>
#include <QDockWidget>
#include <QFutureWatcher>
#include <QLabel>
#include <QProgressBar>
#include <QtConcurrent/QtConcurrentRun>

#include <algorithm>

namespace flexim::ui {

void MainWindow::showFrame(int index) {
  if (index < 0 || std::size_t(index) >= results().size()) return;
  m_modes->stop();  // the results take the view back from a mode animation
  m_showingLaterFrame = index > 0;
  m_run->showFrame(index);
  updateOrientationHandle();
  m_plots->setCursorTime(results().time()[std::size_t(index)]);
}

void MainWindow::onDocumentReset() {
  const ModelSpec& m = model();
  m_run->modelReplaced();
  m_plots->setChannels({});
  m_progress->setValue(0);
  m_progress->setFormat(tr("%p%"));

  Diagnostics diag;
  m_scene->setBaseDirectory(m_files->modelDirectory().toStdString());
  m_viewport->stopCamera();
  m_scene->build(m, &diag);
  m_followBodyAction->setChecked(false);  // a new model: nothing to follow
  m_showingLaterFrame = false;
  updateOrientationHandle();
  m_messages->add(diag);
  if (auto* dock = findChild<QDockWidget*>("modesDock")) dock->setVisible(!m.flexible_bodies.empty());
  m_viewport->update();
  updateTitle();
  updateDofCount();

  const QString name = m.name.empty() ? QFileInfo(m_files->source()).fileName() : QString::fromStdString(m.name);
  // "3 bodies" when all are rigid, else each kind's count: "5 bodies (3 rigid, 2 virtual)"
  const BodyTable table(m);
  QStringList kinds;
  for (const BodyKindDescription& kind : bodyKinds())
    if (const auto n = std::count_if(table.entries().begin(), table.entries().end(),
                                     [&](const BodyEntry& e) { return e.kind == &kind; }))
      kinds << QString("%1 %2").arg(n).arg(QString::fromStdString(kind.key).replace('_', ' '));
  const bool onlyRigid = kinds.size() == 1 && table[0].kind->key == "rigid";
  m_statusText->setText(tr("Loaded %1: %2 bodies%3, %4 joints")
                            .arg(name)
                            .arg(table.size())
                            .arg(kinds.isEmpty() || onlyRigid ? QString() : " (" + kinds.join(", ") + ")")
                            .arg(m.joints.size()));
  m_messages->add(Severity::Info, m_files->source(), tr("model loaded"));
  updateActions();
  emit modelLoaded();
}

void MainWindow::onFieldChanged() {
  // an edit is drawn at once, seen from where the user was looking
  Diagnostics diag;
  m_scene->setBaseDirectory(m_files->modelDirectory().toStdString());
  m_scene->build(model(), &diag, true);
  m_run->modelEdited();
  applyFollowedBody();
  m_showingLaterFrame = false;
  updateOrientationHandle();
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
  if (!m_files->hasModel() || m_scene->boundsInView()) return;
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

bool MainWindow::showSystemModes() {
  if (!m_files->hasModel() || m_linearizing) return false;
  Diagnostics diag;
  std::shared_ptr<Simulation> simulation = Simulation::create(model(), diag);
  if (!simulation) {
    m_messages->add(diag);
    m_messages->add(Severity::Error, tr("system modes"), tr("the model does not compile"));
    return false;
  }
  // a static solve and a dense eigenproblem: seconds on a large model, off the GUI thread
  m_linearizing = true;
  updateActions();
  m_statusText->setText(tr("Linearizing about the static equilibrium…"));
  auto* watcher = new QFutureWatcher<LinearizationResult>(this);
  connect(watcher, &QFutureWatcher<LinearizationResult>::finished, this, [this, watcher, simulation] {
    watcher->deleteLater();
    m_linearizing = false;
    updateActions();
    auto result = std::make_shared<const LinearizationResult>(watcher->result());
    if (!result->ok) {
      m_messages->add(Severity::Error, tr("system modes"), QString::fromStdString(result->message));
      m_statusText->setText(tr("No system modes (see Messages)"));
      emit systemModesShown(false);
      return;
    }
    if (auto* dock = findChild<QDockWidget*>("modesDock")) {
      dock->show();
      dock->raise();
    }
    m_modes->showSystemModes(simulation, result);
    frameIfOutOfView();  // the equilibrium may lie far from the model as built (a loaded beam)
    m_statusText->setText(tr("System modes: %1 about the static equilibrium, %2 degrees of freedom")
                              .arg(result->modes.size())
                              .arg(result->N.cols()));
    emit systemModesShown(true);
  });
  watcher->setFuture(QtConcurrent::run([simulation] {
    try {
      return simulation->linearize({});
    } catch (const std::exception& e) {
      LinearizationResult failed;
      failed.message = std::string("internal error: ") + e.what();
      return failed;
    }
  }));
  return true;
}

void MainWindow::updateDofCount() {
  // compiles and checks the model (no run): its count, or a dash when it does not compile yet;
  // what the compilation says about an item is shown with its properties. Off the GUI thread, as
  // it takes tens of milliseconds with a 100 000-node body; the newest edit's count wins.
  const int generation = ++m_dofGeneration;
  auto* watcher = new QFutureWatcher<DofCount>(this);
  connect(watcher, &QFutureWatcher<DofCount>::finished, this, [this, watcher, generation] {
    watcher->deleteLater();
    if (generation != m_dofGeneration) return;
    m_dofShown = generation;
    showDofCount(watcher->result());
  });
  watcher->setFuture(QtConcurrent::run([model = model()] {
    DofCount count;
    const auto simulation = Simulation::create(model, count.diag);
    if (simulation) {
      count.compiled = true;
      count.check = simulation->check();
    }
    return count;
  }));
}

void MainWindow::showDofCount(const DofCount& count) {
  m_properties->setNotes(count.diag);
  m_virtualBodyNodes.clear();
  if (!count.compiled) {
    m_dofLabel->setText(tr("— DOF"));
    m_dofLabel->setToolTip(tr("The model does not compile yet; Simulation > Run says why in Messages"));
    markVirtualBodyNodes();
    return;
  }
  const ModelCheck& check = count.check;
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

void MainWindow::updateTitle() {
  // "name.json* — Flexim": the file's name, a star while there are unsaved changes
  const QString source = m_files->source();
  QString name = !m_document->path().isEmpty() ? QFileInfo(m_document->path()).fileName() : QString();
  if (name.isEmpty() && m_files->hasModel())
    name = model().name.empty() ? (source.isEmpty() ? tr("untitled") : QFileInfo(source).fileName())
                                : QString::fromStdString(model().name);
  if (name.isEmpty()) {
    setWindowTitle(tr("Flexim"));
    return;
  }
  setWindowTitle(tr("%1%2 — Flexim").arg(name, m_document->isDirty() ? "*" : ""));
}

}  // namespace flexim::ui
