// MainWindow, its files: open (models, reduced bodies, FE meshes, dropped files), save, recent
// files, recovery, the examples menu and exports (CSV, images, animations).
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

QString MainWindow::examplesFolder() {
  // installed: <prefix>/bin/flexim and <prefix>/share/flexim/examples; else the source tree's
  const QDir installed(QCoreApplication::applicationDirPath() + "/../share/flexim/examples");
  if (installed.exists()) return installed.canonicalPath();
  return QStringLiteral(FLEXIM_SOURCE_EXAMPLES);
}

void MainWindow::fillExamplesMenu(QMenu* menu) {
  const QDir folder(examplesFolder());
  const QFileInfoList files = folder.entryInfoList({"*.json"}, QDir::Files, QDir::Name);
  if (files.isEmpty()) {
    menu->addAction(tr("No examples found in %1").arg(QDir::toNativeSeparators(folder.path())))->setEnabled(false);
    return;
  }
  for (const QFileInfo& file : files) {
    QAction* open = menu->addAction(file.completeBaseName(), this, [this, path = file.absoluteFilePath()] {
      openModelFile(path);
    });
    open->setObjectName("example:" + file.completeBaseName());
    // the model's own description as the tooltip (shown by the menu, and in the status bar)
    QFile text(file.absoluteFilePath());
    if (text.open(QIODevice::ReadOnly)) {
      const QString description = QJsonDocument::fromJson(text.readAll()).object().value("description").toString();
      open->setStatusTip(description.left(200));
      open->setToolTip(description);
    }
  }
  menu->setToolTipsVisible(true);
}

bool MainWindow::openModelFile(const QString& path) {
  if (isRunning()) {
    m_messages->add(Severity::Error, path, tr("cannot open a model while a run is in progress"));
    return false;
  }
  if (!maybeSave()) return false;
  if (path.endsWith(".frb", Qt::CaseInsensitive)) return openReducedBody(path);
  if (isFeFile(path)) return openFeMesh(path);
  Diagnostics diag;
  const bool ok = m_document->open(path, diag);
  m_messages->add(diag);
  if (!ok || diag.hasErrors()) {
    m_messages->add(Severity::Error, path, tr("the model was not loaded"));
    m_statusText->setText(tr("Could not load %1").arg(QFileInfo(path).fileName()));
    return false;
  }
  m_modelSource = path;
  onDocumentReset();
  updateRecentFiles(path);
  restorePlots();
  return true;
}

namespace {
// QSettings key of a model file's plots (a path's slashes would make nested groups)
QString plotsKey(const QString& modelPath) {
  return "plots/" + QString::fromLatin1(QFileInfo(modelPath).absoluteFilePath().toUtf8().toBase64(QByteArray::Base64UrlEncoding));
}
}  // namespace

void MainWindow::rememberPlots() {
  // only in a session that restores its state (not in tests or automation runs)
  if (!m_restoredLayout || m_modelSource.isEmpty() || !QFileInfo::exists(m_modelSource)) return;
  QVariantList tabs;
  for (const QStringList& names : m_plots->plotLayout()) tabs << names;
  QSettings().setValue(plotsKey(m_modelSource), tabs);
}

void MainWindow::restorePlots() {
  if (!m_restoredLayout) return;
  QList<QStringList> layout;
  for (const QVariant& tab : QSettings().value(plotsKey(m_modelSource)).toList()) layout << tab.toStringList();
  const QSignalBlocker block(m_plots);  // restoring is not a change to remember
  m_plots->setPlotLayout(layout);
}

bool MainWindow::openReducedBody(const QString& path) {
  auto body = std::make_shared<fe::ReducedBody>();
  std::string error;
  if (!io::loadReducedBody(path.toStdString(), *body, &error)) {
    m_messages->add(Severity::Error, path, QString::fromStdString(error));
    m_statusText->setText(tr("Could not load %1").arg(QFileInfo(path).fileName()));
    return false;
  }
  showReducedBody(std::move(body), path);
  return true;
}

bool MainWindow::isFeFile(const QString& path) {
  const QString suffix = "*." + QFileInfo(path).suffix().toLower();
  return !QFileInfo(path).suffix().isEmpty() &&
         QString::fromStdString(io::feFileFilter()).split(' ', Qt::SkipEmptyParts).contains(suffix);
}

bool MainWindow::openFeMesh(const QString& path) {
  if (m_feJob) {
    m_messages->add(Severity::Error, path, tr("another FE file is being reduced; wait for it or cancel it"));
    return false;
  }
  m_feJob = new FeReductionJob(path, this);
  auto* dialog = new QProgressDialog(tr("Reducing %1…").arg(QFileInfo(path).fileName()), tr("Cancel"), 0, 0, this);
  dialog->setObjectName("feReductionProgress");
  dialog->setWindowTitle(tr("Reducing an FE body"));
  dialog->setWindowModality(Qt::WindowModal);
  dialog->setMinimumDuration(300);
  connect(m_feJob, &FeReductionJob::stageChanged, dialog, &QProgressDialog::setLabelText);
  connect(dialog, &QProgressDialog::canceled, m_feJob, &FeReductionJob::cancel);
  connect(m_feJob, &FeReductionJob::finished, this, [this, dialog] {
    dialog->reset();
    dialog->deleteLater();
    FeReductionJob* job = m_feJob;
    m_feJob = nullptr;
    onFeReduced(*job);
    job->deleteLater();
  });
  m_statusText->setText(tr("Reducing %1 (free-free, 8 elastic modes)…").arg(QFileInfo(path).fileName()));
  m_feJob->start();
  return true;
}

void MainWindow::onFeReduced(const FeReductionJob& job) {
  const QString& path = job.path();
  m_messages->add(job.diagnostics());
  const auto body = job.body();
  if (job.cancelled()) {
    m_messages->add(Severity::Warning, path, tr("reduction cancelled; nothing was loaded"));
    m_statusText->setText(tr("Reduction cancelled"));
    emit openFailed();
    return;
  }
  if (!body) {
    m_messages->add(Severity::Error, path, tr("the FE file could not be reduced (see the messages above)"));
    m_statusText->setText(tr("Could not reduce %1").arg(QFileInfo(path).fileName()));
    emit openFailed();
    return;
  }
  m_messages->add(Severity::Info, path, job.summary());
  // the reduced body beside the deck, never over an existing file (it may hold another reduction)
  const QFileInfo deck(path);
  QString frb = deck.dir().filePath(deck.completeBaseName() + ".frb");
  for (int n = 2; QFileInfo::exists(frb); ++n) frb = deck.dir().filePath(QString("%1_%2.frb").arg(deck.completeBaseName()).arg(n));
  std::string error;
  if (io::saveReducedBody(*body, frb.toStdString(), &error))
    m_messages->add(Severity::Info, frb, tr("reduced body written (flexim-cli reduce would write the same)"));
  else
    m_messages->add(Severity::Warning, frb,
                    tr("%1; the body is shown but a model using it cannot be run from a file").arg(QString::fromStdString(error)));
  showReducedBody(body, frb);
}

void MainWindow::showReducedBody(std::shared_ptr<fe::ReducedBody> body, const QString& path) {
  const ModelSpec model = modelOfReducedBody(std::move(body), QFileInfo(path).completeBaseName().toStdString(),
                                             QFileInfo(path).absoluteFilePath().toStdString());
  showModel(model, QString());
  m_modelSource = path;
  updateTitle();
  updateRecentFiles(path);
  m_document->select(m_document->findItem("flexible_bodies", model.flexible_bodies.front().name));
  if (auto* dock = findChild<QDockWidget*>("modesDock")) {
    dock->show();
    dock->raise();
  }
  m_modes->showFirstElasticMode();
  // frame the body in the view as it is once the Modes panel has taken its place
  QTimer::singleShot(0, m_viewport, &VtkViewport::resetView);
}

void MainWindow::showModel(const ModelSpec& model, const QString& source) {
  m_modelSource = source;
  m_document->reset(model, QFileInfo::exists(source) ? source : QString());
  onDocumentReset();
}

void MainWindow::offerRecovery() {
  for (const Recovery::LeftBehind& left : m_recovery->leftBehind()) {
    const QString name = left.modelPath.isEmpty() ? tr("an untitled model") : QFileInfo(left.modelPath).fileName();
    QMessageBox box(QMessageBox::Question, tr("Recover unsaved changes"),
                    tr("Flexim ended without saving the changes to %1 (autosaved %2).")
                        .arg(name, QLocale().toString(left.written, QLocale::ShortFormat)),
                    QMessageBox::NoButton, this);
    box.setObjectName("recoveryBox");
    box.setInformativeText(tr("Open the recovered model? (Discard deletes the recovery file.)"));
    box.addButton(tr("Open recovered"), QMessageBox::AcceptRole);
    QPushButton* discard = box.addButton(QMessageBox::Discard);
    box.exec();
    if (box.clickedButton() == discard) {
      Recovery::remove(left);
      continue;
    }
    if (!maybeSave()) return;
    ModelSpec model;
    Diagnostics diag;
    const bool ok = Recovery::read(left, model, diag);
    m_messages->add(diag);
    if (!ok) {
      m_messages->add(Severity::Error, left.file, tr("the recovery file could not be read; it is kept"));
      continue;
    }
    m_document->reset(std::move(model), left.modelPath);
    m_document->markUnsaved();  // recovered changes are unsaved until the user saves them
    m_modelSource = left.modelPath;
    onDocumentReset();
    Recovery::remove(left);
    m_messages->add(Severity::Info, left.modelPath, tr("recovered the unsaved changes autosaved %1; save to keep them")
                                                        .arg(QLocale().toString(left.written, QLocale::ShortFormat)));
    return;  // one model at a time: the others are offered at the next start
  }
}

QString MainWindow::modelDirectory() const {
  const QString file = !m_document->path().isEmpty() ? m_document->path() : m_modelSource;
  return file.isEmpty() ? QString() : QFileInfo(file).absolutePath();
}

void MainWindow::updateTitle() {
  // "name.json* — Flexim": the file's name, a star while there are unsaved changes
  QString name = !m_document->path().isEmpty() ? QFileInfo(m_document->path()).fileName() : QString();
  if (name.isEmpty() && m_hasModel)
    name = model().name.empty() ? (m_modelSource.isEmpty() ? tr("untitled") : QFileInfo(m_modelSource).fileName())
                                : QString::fromStdString(model().name);
  if (name.isEmpty()) {
    setWindowTitle(tr("Flexim"));
    return;
  }
  setWindowTitle(tr("%1%2 — Flexim").arg(name, m_document->isDirty() ? "*" : ""));
}

bool MainWindow::saveModelFile(const QString& path) {
  QString error;
  if (!m_document->save(path, error)) {
    m_messages->add(Severity::Error, path, error);
    m_statusText->setText(tr("Not saved: %1").arg(QFileInfo(path).fileName()));
    // said where the user looks, without blocking: the model is unchanged and still open
    auto* box = new QMessageBox(QMessageBox::Warning, tr("Save failed"), error, QMessageBox::Ok, this);
    box->setObjectName("saveFailedBox");
    box->setInformativeText(tr("Nothing was changed: the model is still open, and %1 is as it was.")
                                .arg(m_document->path().isEmpty() ? tr("no file") : QFileInfo(m_document->path()).fileName()));
    box->setAttribute(Qt::WA_DeleteOnClose);
    box->open();
    return false;
  }
  m_modelSource = path;
  m_messages->add(Severity::Info, path, tr("model saved"));
  updateTitle();
  updateActions();
  updateRecentFiles(path);
  return true;
}

bool MainWindow::maybeSave() {
  if (!m_document->isDirty()) return true;
  const auto answer = QMessageBox::warning(
      this, tr("Unsaved changes"),
      tr("The model has changes that are not saved. Save them first?"),
      QMessageBox::Save | QMessageBox::Discard | QMessageBox::Cancel, QMessageBox::Save);
  if (answer == QMessageBox::Cancel) return false;
  if (answer == QMessageBox::Discard) return true;
  return onSaveRequested();
}

void MainWindow::closeEvent(QCloseEvent* event) {
  if (!maybeSave()) {
    event->ignore();
    return;
  }
  m_recovery->discard();  // closed on purpose: nothing to recover
  if (m_restoredLayout) {  // the application's window: remember its layout for the next start
    QSettings settings;
    settings.setValue("window/geometry", saveGeometry());
    settings.setValue("window/state", saveState());
  }
  event->accept();
}

void MainWindow::dragEnterEvent(QDragEnterEvent* event) {
  const QList<QUrl> urls = event->mimeData()->urls();
  if (urls.size() != 1 || !urls.front().isLocalFile()) return;
  const QString file = urls.front().toLocalFile();
  if (file.endsWith(".json", Qt::CaseInsensitive) || file.endsWith(".frb", Qt::CaseInsensitive) || isFeFile(file))
    event->acceptProposedAction();
}

void MainWindow::dropEvent(QDropEvent* event) {
  const QList<QUrl> urls = event->mimeData()->urls();
  if (urls.size() != 1 || !urls.front().isLocalFile()) return;
  event->acceptProposedAction();
  openModelFile(urls.front().toLocalFile());
}

void MainWindow::updateRecentFiles(const QString& opened) {
  QSettings settings;
  QStringList recent = settings.value("recentFiles").toStringList();
  if (!opened.isEmpty()) {
    const QString path = QFileInfo(opened).absoluteFilePath();
    recent.removeAll(path);
    recent.prepend(path);
    while (recent.size() > 8) recent.removeLast();
    settings.setValue("recentFiles", recent);
  }
  m_recentMenu->clear();
  for (const QString& path : recent) {
    QAction* a = m_recentMenu->addAction(QFileInfo(path).fileName(), this, [this, path] { openModelFile(path); });
    a->setToolTip(path);
    a->setStatusTip(path);
  }
  m_recentMenu->setEnabled(!recent.isEmpty());
}

bool MainWindow::exportViewImage(const QString& path) {
  const QImage image = m_viewport->screenshot();
  if (image.isNull() || !image.save(path)) {
    m_messages->add(Severity::Error, path, tr("cannot write the view image here"));
    return false;
  }
  m_messages->add(Severity::Info, path, tr("view image written (%1×%2)").arg(image.width()).arg(image.height()));
  return true;
}

bool MainWindow::exportAnimation(const QString& path, int framesPerSecond) {
  if (isRunning() || m_results.empty()) {
    m_messages->add(Severity::Error, path, tr("no finished results to animate; run the model first"));
    return false;
  }
  const std::span<const double> t = m_results.time();
  const std::vector<int> frames = animationFrames({t.begin(), t.end()}, framesPerSecond, m_playback->speed());
  const int shown = m_playback->currentFrame();
  m_playback->pause();
  QProgressDialog dialog(tr("Writing %1…").arg(QFileInfo(path).fileName()), tr("Cancel"), 0, int(frames.size()), this);
  dialog.setWindowModality(Qt::WindowModal);
  dialog.setMinimumDuration(300);
  const AnimationExportResult result = writeAnimation(
      path, frames, framesPerSecond,
      [this](int sample) {
        m_playback->setCurrentFrame(sample);
        return m_viewport->screenshot();
      },
      [&dialog](int done, int total) {
        dialog.setValue(done);
        return !dialog.wasCanceled() || done == total;
      });
  m_playback->setCurrentFrame(shown);
  if (result.cancelled) {
    m_messages->add(Severity::Warning, path, tr("export cancelled after %1 frames").arg(result.frames));
    return false;
  }
  if (!result.ok) {
    m_messages->add(Severity::Error, path, result.error);
    return false;
  }
  m_messages->add(Severity::Info, path, tr("animation written: %1").arg(result.description));
  return true;
}

bool MainWindow::exportResultsCsv(const QString& path) {
  if (m_results.empty()) {
    m_messages->add(Severity::Error, path, tr("no results to export; run the model first"));
    return false;
  }
  std::string error;
  // the CSV metadata names the model file (and its hash) when the model came from one
  const std::string modelFile = QFileInfo::exists(m_modelSource) ? m_modelSource.toStdString() : std::string();
  if (!io::writeResultsCsv(m_results, m_lastSummary, path.toStdString(), modelFile, error)) {
    m_messages->add(Severity::Error, path, QString::fromStdString(error));
    return false;
  }
  m_messages->add(Severity::Info, path, tr("%1 samples exported").arg(m_results.size()));
  return true;
}

void MainWindow::onOpenRequested() {
  const QString path = QFileDialog::getOpenFileName(this, tr("Open model"), QString(),
                                                    tr("Flexim models and reduced bodies (*.json *.frb);;"
                                                       "FE meshes and decks, reduced on opening (%1);;All files (*)")
                                                        .arg(QString::fromStdString(io::feFileFilter())));
  if (!path.isEmpty()) openModelFile(path);
}

void MainWindow::onNewRequested() {
  if (isRunning() || !maybeSave()) return;
  ModelSpec empty;
  empty.name = "untitled";
  empty.gravity = Vec3(0, 0, -9.81);
  showModel(empty, QString());
}

bool MainWindow::onSaveRequested() {
  if (m_document->path().isEmpty()) return onSaveAsRequested();
  return saveModelFile(m_document->path());
}

bool MainWindow::onSaveAsRequested() {
  const QString start = m_document->path().isEmpty() ? QStringLiteral("model.json") : m_document->path();
  const QString path = QFileDialog::getSaveFileName(this, tr("Save model"), start, tr("Flexim models (*.json)"));
  return !path.isEmpty() && saveModelFile(path);
}

void MainWindow::onRevertRequested() {
  const QString path = m_document->path();
  if (path.isEmpty() || isRunning()) return;
  if (m_document->isDirty() &&
      QMessageBox::question(this, tr("Revert"), tr("Drop the unsaved changes and read %1 again?").arg(QFileInfo(path).fileName())) !=
          QMessageBox::Yes)
    return;
  m_document->undoStack()->setClean();  // the changes are dropped on purpose: no second question
  openModelFile(path);
}

void MainWindow::onExportRequested() {
  const QString path = QFileDialog::getSaveFileName(this, tr("Export results"), QStringLiteral("results.csv"),
                                                    tr("CSV files (*.csv)"));
  if (!path.isEmpty()) exportResultsCsv(path);
}

QImage MainWindow::grabWindowImage() {
  // compose explicitly: a plain widget grab may not include the OpenGL view under every platform
  QImage image = grab().toImage().convertToFormat(QImage::Format_RGB32);
  const QImage view = m_viewport->screenshot();
  QPainter painter(&image);
  painter.drawImage(QRect(m_viewport->mapTo(this, QPoint(0, 0)), m_viewport->size()), view);
  return image;
}

}  // namespace flexim::ui
