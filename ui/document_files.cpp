#include "ui/document_files.h"

#include "io/csv_writer.h"
#include "io/fe/import.h"
#include "io/fe/reduced_body_file.h"
#include "io/model_json.h"
#include "ui/animation_export.h"
#include "ui/fe_reduction_job.h"
#include "ui/messages_panel.h"
#include "ui/mode_browser.h"
#include "ui/model_document.h"
#include "ui/playback_bar.h"
#include "ui/plot_panel.h"
#include "ui/recovery.h"
#include "ui/run_session.h"
#include "ui/vtk_viewport.h"

#include <QAction>
#include <QCoreApplication>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QImage>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLocale>
#include <QMenu>
#include <QMessageBox>
#include <QMimeData>
#include <QProgressDialog>
#include <QPushButton>
#include <QSettings>
#include <QUrl>

namespace flexim::ui {

namespace {
// QSettings key of a model file's plots (a path's slashes would make nested groups)
QString plotsKey(const QString& modelPath) {
  return "plots/" + QString::fromLatin1(QFileInfo(modelPath).absoluteFilePath().toUtf8().toBase64(QByteArray::Base64UrlEncoding));
}
}  // namespace

DocumentFiles::DocumentFiles(ModelDocument& document, const RunSession& run, MessagesPanel& messages,
                             PlaybackBar& playback, VtkViewport& viewport, PlotPanel& plots, QWidget* window)
    : QObject(window),
      m_document(document),
      m_run(run),
      m_messages(messages),
      m_playback(playback),
      m_viewport(viewport),
      m_plots(plots),
      m_window(window),
      m_recovery(new Recovery(&document, this)) {
  createActions();
  connect(&m_plots, &PlotPanel::layoutChanged, this, &DocumentFiles::rememberPlots);
}

void DocumentFiles::createActions() {
  // parented to the window: found there by tests and automation through their object names
  const auto action = [this](const QString& text, const char* name, const QKeySequence& key, auto slot) {
    auto* a = new QAction(text, m_window);
    a->setObjectName(name);
    a->setShortcut(key);
    connect(a, &QAction::triggered, this, slot);
    return a;
  };
  m_newAction = action(tr("&New model"), "actionNew", QKeySequence::New, &DocumentFiles::newModel);
  m_saveAction = action(tr("&Save"), "actionSave", QKeySequence::Save, &DocumentFiles::saveToCurrentFile);
  m_saveAsAction = action(tr("Save &as…"), "actionSaveAs", QKeySequence(tr("Ctrl+Shift+S")), &DocumentFiles::saveAs);
  m_revertAction = action(tr("Re&vert"), "actionRevert", QKeySequence(), &DocumentFiles::revert);
  m_revertAction->setToolTip(tr("Read the model file again, dropping the changes since it was saved"));
  m_openAction = action(tr("&Open model…"), "actionOpen", QKeySequence::Open, [this] {
    const QString path = QFileDialog::getOpenFileName(m_window, tr("Open model"), QString(),
                                                      tr("Flexim models and reduced bodies (*.json *.frb);;"
                                                         "FE meshes and decks, reduced on opening (%1);;All files (*)")
                                                          .arg(QString::fromStdString(io::feFileFilter())));
    if (!path.isEmpty()) open(path);
  });
  m_exportAction = action(tr("&Export results CSV…"), "actionExportCsv", QKeySequence(tr("Ctrl+E")), [this] {
    const QString path = QFileDialog::getSaveFileName(m_window, tr("Export results"), QStringLiteral("results.csv"),
                                                      tr("CSV files (*.csv)"));
    if (!path.isEmpty()) exportResultsCsv(path);
  });
  m_exportAnimationAction = action(tr("Export &animation…"), "actionExportAnimation", QKeySequence(), [this] {
    QString filter;
    const QString path = QFileDialog::getSaveFileName(m_window, tr("Export animation"), QStringLiteral("animation.ogv"),
                                                      tr("Ogg Theora video (*.ogv);;PNG frame sequence (*.png)"), &filter);
    if (!path.isEmpty()) exportAnimation(path);
  });
  m_exportAnimationAction->setToolTip(tr("Write the animation as an Ogg Theora video (.ogv) or a PNG frame sequence"));
  m_exportImageAction = action(tr("Export &view image…"), "actionExportImage", QKeySequence(), [this] {
    const QString path = QFileDialog::getSaveFileName(m_window, tr("Export view image"), QStringLiteral("view.png"),
                                                      tr("PNG images (*.png)"));
    if (!path.isEmpty()) exportViewImage(path);
  });
}

void DocumentFiles::fillFileMenu(QMenu* menu, QAction* importFe) {
  menu->addAction(m_newAction);
  menu->addAction(m_openAction);
  m_recentMenu = menu->addMenu(tr("Open &recent"));
  m_recentMenu->setObjectName("menuRecent");
  updateRecentFiles(QString());
  menu->addAction(m_saveAction);
  menu->addAction(m_saveAsAction);
  menu->addAction(m_revertAction);
  menu->addSeparator();
  menu->addAction(importFe);
  menu->addAction(m_exportAction);
  menu->addAction(m_exportImageAction);
  menu->addAction(m_exportAnimationAction);
}

void DocumentFiles::updateActions(bool running) {
  m_openAction->setEnabled(!running);
  m_newAction->setEnabled(!running);
  if (m_recentMenu) m_recentMenu->setEnabled(!running);
  m_saveAction->setEnabled(m_hasModel);
  m_saveAsAction->setEnabled(m_hasModel);
  m_revertAction->setEnabled(m_hasModel && !running && !m_document.path().isEmpty());
  m_exportAction->setEnabled(!running && !m_run.results().empty());
  m_exportAnimationAction->setEnabled(!running && !m_run.results().empty());
}

QString DocumentFiles::examplesFolder() {
  // installed: <prefix>/bin/flexim and <prefix>/share/flexim/examples; else the source tree's
  const QDir installed(QCoreApplication::applicationDirPath() + "/../share/flexim/examples");
  if (installed.exists()) return installed.canonicalPath();
  return QStringLiteral(FLEXIM_SOURCE_EXAMPLES);
}

void DocumentFiles::fillExamplesMenu(QMenu* menu) {
  const QDir folder(examplesFolder());
  const QFileInfoList files = folder.entryInfoList({"*.json"}, QDir::Files, QDir::Name);
  if (files.isEmpty()) {
    menu->addAction(tr("No examples found in %1").arg(QDir::toNativeSeparators(folder.path())))->setEnabled(false);
    return;
  }
  for (const QFileInfo& file : files) {
    QAction* entry = menu->addAction(file.completeBaseName(), this, [this, path = file.absoluteFilePath()] { open(path); });
    entry->setObjectName("example:" + file.completeBaseName());
    // the model's own description as the tooltip (shown by the menu, and in the status bar)
    QFile text(file.absoluteFilePath());
    if (text.open(QIODevice::ReadOnly)) {
      const QString description = QJsonDocument::fromJson(text.readAll()).object().value("description").toString();
      entry->setStatusTip(description.left(200));
      entry->setToolTip(description);
    }
  }
  menu->setToolTipsVisible(true);
}

bool DocumentFiles::open(const QString& path) {
  if (m_run.isRunning()) {
    m_messages.add(Severity::Error, path, tr("cannot open a model while a run is in progress"));
    return false;
  }
  if (!maybeSave()) return false;
  if (path.endsWith(".frb", Qt::CaseInsensitive)) return openReducedBody(path);
  if (isFeFile(path)) return openFeMesh(path);
  Diagnostics diag;
  const bool ok = m_document.open(path, diag);
  m_messages.add(diag);
  if (!ok || diag.hasErrors()) {
    m_messages.add(Severity::Error, path, tr("the model was not loaded"));
    emit status(tr("Could not load %1").arg(QFileInfo(path).fileName()));
    return false;
  }
  m_source = path;
  m_hasModel = true;
  emit modelShown();
  updateRecentFiles(path);
  restorePlots();
  return true;
}

void DocumentFiles::rememberPlots() {
  // only in a session that restores its state (not in tests or automation runs)
  if (!m_remembersPlots || m_source.isEmpty() || !QFileInfo::exists(m_source)) return;
  QVariantList tabs;
  for (const QStringList& names : m_plots.plotLayout()) tabs << names;
  QSettings().setValue(plotsKey(m_source), tabs);
}

void DocumentFiles::restorePlots() {
  if (!m_remembersPlots) return;
  QList<QStringList> layout;
  for (const QVariant& tab : QSettings().value(plotsKey(m_source)).toList()) layout << tab.toStringList();
  const QSignalBlocker block(&m_plots);  // restoring is not a change to remember
  m_plots.setPlotLayout(layout);
}

bool DocumentFiles::openReducedBody(const QString& path) {
  auto body = std::make_shared<fe::ReducedBody>();
  std::string error;
  if (!io::loadReducedBody(path.toStdString(), *body, &error)) {
    m_messages.add(Severity::Error, path, QString::fromStdString(error));
    emit status(tr("Could not load %1").arg(QFileInfo(path).fileName()));
    return false;
  }
  showReducedBody(std::move(body), path);
  return true;
}

bool DocumentFiles::isFeFile(const QString& path) {
  const QString suffix = "*." + QFileInfo(path).suffix().toLower();
  return !QFileInfo(path).suffix().isEmpty() &&
         QString::fromStdString(io::feFileFilter()).split(' ', Qt::SkipEmptyParts).contains(suffix);
}

QString DocumentFiles::draggedFile(const QMimeData* mime) {
  const QList<QUrl> urls = mime->urls();
  return urls.size() == 1 && urls.front().isLocalFile() ? urls.front().toLocalFile() : QString();
}

bool DocumentFiles::opens(const QString& path) {
  return path.endsWith(".json", Qt::CaseInsensitive) || path.endsWith(".frb", Qt::CaseInsensitive) || isFeFile(path);
}

bool DocumentFiles::openFeMesh(const QString& path) {
  if (m_feJob) {
    m_messages.add(Severity::Error, path, tr("another FE file is being reduced; wait for it or cancel it"));
    return false;
  }
  m_feJob = new FeReductionJob(path, this);
  auto* dialog = new QProgressDialog(tr("Reducing %1…").arg(QFileInfo(path).fileName()), tr("Cancel"), 0, 0, m_window);
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
  emit status(tr("Reducing %1 (free-free, 8 elastic modes)…").arg(QFileInfo(path).fileName()));
  m_feJob->start();
  return true;
}

void DocumentFiles::onFeReduced(const FeReductionJob& job) {
  const QString& path = job.path();
  m_messages.add(job.diagnostics());
  const auto body = job.body();
  if (job.cancelled()) {
    m_messages.add(Severity::Warning, path, tr("reduction cancelled; nothing was loaded"));
    emit status(tr("Reduction cancelled"));
    emit openFailed();
    return;
  }
  if (!body) {
    m_messages.add(Severity::Error, path, tr("the FE file could not be reduced (see the messages above)"));
    emit status(tr("Could not reduce %1").arg(QFileInfo(path).fileName()));
    emit openFailed();
    return;
  }
  m_messages.add(Severity::Info, path, job.summary());
  // the reduced body beside the deck, never over an existing file (it may hold another reduction)
  const QFileInfo deck(path);
  QString frb = deck.dir().filePath(deck.completeBaseName() + ".frb");
  for (int n = 2; QFileInfo::exists(frb); ++n) frb = deck.dir().filePath(QString("%1_%2.frb").arg(deck.completeBaseName()).arg(n));
  std::string error;
  if (io::saveReducedBody(*body, frb.toStdString(), &error))
    m_messages.add(Severity::Info, frb, tr("reduced body written (flexim-cli reduce would write the same)"));
  else
    m_messages.add(Severity::Warning, frb,
                   tr("%1; the body is shown but a model using it cannot be run from a file").arg(QString::fromStdString(error)));
  showReducedBody(body, frb);
}

void DocumentFiles::showReducedBody(std::shared_ptr<fe::ReducedBody> body, const QString& path) {
  const ModelSpec model = modelOfReducedBody(std::move(body), QFileInfo(path).completeBaseName().toStdString(),
                                             QFileInfo(path).absoluteFilePath().toStdString());
  showModel(model, QString());
  m_source = path;
  emit sourceChanged();
  updateRecentFiles(path);
  m_document.select(m_document.findItem("flexible_bodies", model.flexible_bodies.front().name));
  emit reducedBodyShown();
}

void DocumentFiles::showModel(const ModelSpec& model, const QString& source) {
  m_source = source;
  m_document.reset(model, QFileInfo::exists(source) ? source : QString());
  m_hasModel = true;
  emit modelShown();
}

void DocumentFiles::offerRecovery() {
  for (const Recovery::LeftBehind& left : m_recovery->leftBehind()) {
    const QString name = left.modelPath.isEmpty() ? tr("an untitled model") : QFileInfo(left.modelPath).fileName();
    QMessageBox box(QMessageBox::Question, tr("Recover unsaved changes"),
                    tr("Flexim ended without saving the changes to %1 (autosaved %2).")
                        .arg(name, QLocale().toString(left.written, QLocale::ShortFormat)),
                    QMessageBox::NoButton, m_window);
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
    m_messages.add(diag);
    if (!ok) {
      m_messages.add(Severity::Error, left.file, tr("the recovery file could not be read; it is kept"));
      continue;
    }
    m_document.reset(std::move(model), left.modelPath);
    m_document.markUnsaved();  // recovered changes are unsaved until the user saves them
    m_source = left.modelPath;
    m_hasModel = true;
    emit modelShown();
    Recovery::remove(left);
    m_messages.add(Severity::Info, left.modelPath, tr("recovered the unsaved changes autosaved %1; save to keep them")
                                                       .arg(QLocale().toString(left.written, QLocale::ShortFormat)));
    return;  // one model at a time: the others are offered at the next start
  }
}

QString DocumentFiles::modelDirectory() const {
  const QString file = !m_document.path().isEmpty() ? m_document.path() : m_source;
  return file.isEmpty() ? QString() : QFileInfo(file).absolutePath();
}

bool DocumentFiles::save(const QString& path) {
  QString error;
  if (!m_document.save(path, error)) {
    m_messages.add(Severity::Error, path, error);
    emit status(tr("Not saved: %1").arg(QFileInfo(path).fileName()));
    // said where the user looks, without blocking: the model is unchanged and still open
    auto* box = new QMessageBox(QMessageBox::Warning, tr("Save failed"), error, QMessageBox::Ok, m_window);
    box->setObjectName("saveFailedBox");
    box->setInformativeText(tr("Nothing was changed: the model is still open, and %1 is as it was.")
                                .arg(m_document.path().isEmpty() ? tr("no file") : QFileInfo(m_document.path()).fileName()));
    box->setAttribute(Qt::WA_DeleteOnClose);
    box->open();
    return false;
  }
  m_source = path;
  m_messages.add(Severity::Info, path, tr("model saved"));
  emit sourceChanged();
  updateRecentFiles(path);
  return true;
}

bool DocumentFiles::maybeSave() {
  if (!m_document.isDirty()) return true;
  const auto answer = QMessageBox::warning(m_window, tr("Unsaved changes"),
                                           tr("The model has changes that are not saved. Save them first?"),
                                           QMessageBox::Save | QMessageBox::Discard | QMessageBox::Cancel, QMessageBox::Save);
  if (answer == QMessageBox::Cancel) return false;
  if (answer == QMessageBox::Discard) return true;
  return saveToCurrentFile();
}

void DocumentFiles::updateRecentFiles(const QString& opened) {
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
    QAction* a = m_recentMenu->addAction(QFileInfo(path).fileName(), this, [this, path] { open(path); });
    a->setToolTip(path);
    a->setStatusTip(path);
  }
  m_recentMenu->setEnabled(!recent.isEmpty());
}

bool DocumentFiles::exportViewImage(const QString& path) {
  const QImage image = m_viewport.screenshot();
  if (image.isNull() || !image.save(path)) {
    m_messages.add(Severity::Error, path, tr("cannot write the view image here"));
    return false;
  }
  m_messages.add(Severity::Info, path, tr("view image written (%1×%2)").arg(image.width()).arg(image.height()));
  return true;
}

bool DocumentFiles::exportAnimation(const QString& path, int framesPerSecond) {
  const ResultTable& results = m_run.results();
  if (m_run.isRunning() || results.empty()) {
    m_messages.add(Severity::Error, path, tr("no finished results to animate; run the model first"));
    return false;
  }
  const std::span<const double> t = results.time();
  const std::vector<int> frames = animationFrames({t.begin(), t.end()}, framesPerSecond, m_playback.speed());
  const int shown = m_playback.currentFrame();
  m_playback.pause();
  QProgressDialog dialog(tr("Writing %1…").arg(QFileInfo(path).fileName()), tr("Cancel"), 0, int(frames.size()), m_window);
  dialog.setWindowModality(Qt::WindowModal);
  dialog.setMinimumDuration(300);
  const AnimationExportResult result = writeAnimation(
      path, frames, framesPerSecond,
      [this](int sample) {
        m_playback.setCurrentFrame(sample);
        return m_viewport.screenshot();
      },
      [&dialog](int done, int total) {
        dialog.setValue(done);
        return !dialog.wasCanceled() || done == total;
      });
  m_playback.setCurrentFrame(shown);
  if (result.cancelled) {
    m_messages.add(Severity::Warning, path, tr("export cancelled after %1 frames").arg(result.frames));
    return false;
  }
  if (!result.ok) {
    m_messages.add(Severity::Error, path, result.error);
    return false;
  }
  m_messages.add(Severity::Info, path, tr("animation written: %1").arg(result.description));
  return true;
}

bool DocumentFiles::exportResultsCsv(const QString& path) {
  if (m_run.results().empty()) {
    m_messages.add(Severity::Error, path, tr("no results to export; run the model first"));
    return false;
  }
  std::string error;
  // the CSV metadata names the model file (and its hash) when the model came from one
  const std::string modelFile = QFileInfo::exists(m_source) ? m_source.toStdString() : std::string();
  if (!io::writeResultsCsv(m_run.results(), m_run.lastSummary(), path.toStdString(), modelFile, error)) {
    m_messages.add(Severity::Error, path, QString::fromStdString(error));
    return false;
  }
  m_messages.add(Severity::Info, path, tr("%1 samples exported").arg(m_run.results().size()));
  return true;
}

void DocumentFiles::newModel() {
  if (m_run.isRunning() || !maybeSave()) return;
  ModelSpec empty;
  empty.name = "untitled";
  empty.gravity = Vec3(0, 0, -9.81);
  showModel(empty, QString());
}

bool DocumentFiles::saveToCurrentFile() {
  if (m_document.path().isEmpty()) return saveAs();
  return save(m_document.path());
}

bool DocumentFiles::saveAs() {
  const QString start = m_document.path().isEmpty() ? QStringLiteral("model.json") : m_document.path();
  const QString path = QFileDialog::getSaveFileName(m_window, tr("Save model"), start, tr("Flexim models (*.json)"));
  return !path.isEmpty() && save(path);
}

void DocumentFiles::revert() {
  const QString path = m_document.path();
  if (path.isEmpty() || m_run.isRunning()) return;
  if (m_document.isDirty() &&
      QMessageBox::question(m_window, tr("Revert"),
                            tr("Drop the unsaved changes and read %1 again?").arg(QFileInfo(path).fileName())) != QMessageBox::Yes)
    return;
  m_document.undoStack()->setClean();  // the changes are dropped on purpose: no second question
  open(path);
}

}  // namespace flexim::ui
