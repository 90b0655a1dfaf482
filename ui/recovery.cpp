#include "ui/recovery.h"

#include "io/model_json.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QSaveFile>
#include <QStandardPaths>
#include <QUndoStack>

#include <algorithm>

namespace flexim::ui {

namespace {

/// "session-<pid>.json": the process that writes it, so that a running session's file is not offered.
qint64 pidOf(const QString& file) {
  const QString base = QFileInfo(file).completeBaseName();
  return base.startsWith("session-") ? base.mid(8).toLongLong() : 0;
}

/// Whether process pid is a live Flexim session. A process killed a moment ago may still be a
/// zombie (its parent has not reaped it yet): it holds /proc/<pid> but runs no more. A pid used
/// again by another program is not a session either.
bool running(qint64 pid) {
  if (pid <= 0) return false;
  QFile stat(QString("/proc/%1/stat").arg(pid));
  if (!stat.open(QIODevice::ReadOnly)) return false;
  // "pid (comm) S ...": the state is the first field after the last ')'
  const QByteArray line = stat.readAll();
  const int close = line.lastIndexOf(')');
  const QByteArray state = close < 0 ? QByteArray() : line.mid(close + 2, 1);
  if (state == "Z" || state == "X" || state == "x") return false;
  const QString exe = QFileInfo(QString("/proc/%1/exe").arg(pid)).symLinkTarget();
  return exe.isEmpty() || QFileInfo(exe).fileName() == QFileInfo(QCoreApplication::applicationFilePath()).fileName();
}

QString originOf(const QString& file) { return file + ".origin"; }

}  // namespace

Recovery::Recovery(ModelDocument* document, QObject* parent, int intervalMs)
    : QObject(parent), m_document(document) {
  m_file = QDir(folder()).filePath(QString("session-%1.json").arg(QCoreApplication::applicationPid()));
  m_timer.setInterval(intervalMs);
  connect(&m_timer, &QTimer::timeout, this, &Recovery::autosave);
  m_timer.start();
  // a change is written soon after it is made (a crash a moment later loses nothing), at most
  // once a second however fast the edits come
  m_soon.setSingleShot(true);
  m_soon.setInterval(std::min(intervalMs, 1000));
  connect(&m_soon, &QTimer::timeout, this, &Recovery::autosave);
  connect(m_document->undoStack(), &QUndoStack::indexChanged, this, [this] {
    if (!m_soon.isActive()) m_soon.start();
  });
  // saved (or undone back to the saved state): nothing to recover
  connect(m_document, &ModelDocument::dirtyChanged, this, [this](bool dirty) {
    if (!dirty) discard();
  });
  connect(m_document, &ModelDocument::modelReset, this, &Recovery::discard);
}

Recovery::~Recovery() { discard(); }

QString Recovery::folder() {
  return QDir(QStandardPaths::writableLocation(QStandardPaths::AppLocalDataLocation)).filePath("recovery");
}

bool Recovery::autosave() {
  if (!m_document->isDirty()) {
    discard();
    return true;
  }
  QDir().mkpath(folder());
  QSaveFile model(m_file);
  if (!model.open(QIODevice::WriteOnly)) return false;
  model.write(QByteArray::fromStdString(io::saveModelString(m_document->model())));
  if (!model.commit()) return false;
  QSaveFile origin(originOf(m_file));
  if (!origin.open(QIODevice::WriteOnly)) return false;
  origin.write(m_document->path().isEmpty() ? QByteArray() : QFileInfo(m_document->path()).absoluteFilePath().toUtf8());
  return origin.commit();
}

void Recovery::discard() {
  QFile::remove(m_file);
  QFile::remove(originOf(m_file));
}

QList<Recovery::LeftBehind> Recovery::leftBehind() const {
  QList<LeftBehind> out;
  const QDir dir(folder());
  for (const QFileInfo& info : dir.entryInfoList({"session-*.json"}, QDir::Files)) {
    if (info.absoluteFilePath() == QFileInfo(m_file).absoluteFilePath() || running(pidOf(info.fileName()))) continue;
    LeftBehind left;
    left.file = info.absoluteFilePath();
    left.written = info.lastModified();
    QFile origin(originOf(left.file));
    if (origin.open(QIODevice::ReadOnly)) left.modelPath = QString::fromUtf8(origin.readAll());
    out << left;
  }
  std::sort(out.begin(), out.end(), [](const LeftBehind& a, const LeftBehind& b) { return a.written > b.written; });
  return out;
}

bool Recovery::read(const LeftBehind& left, ModelSpec& model, Diagnostics& diag) {
  QFile file(left.file);
  if (!file.open(QIODevice::ReadOnly)) {
    diag.error(left.file.toStdString(), "cannot open the recovery file");
    return false;
  }
  const std::string baseDir = left.modelPath.isEmpty() ? std::string() : QFileInfo(left.modelPath).absolutePath().toStdString();
  return io::loadModelString(file.readAll().toStdString(), model, diag, left.file.toStdString(), baseDir,
                             io::MissingData::Keep);
}

void Recovery::remove(const LeftBehind& left) {
  QFile::remove(left.file);
  QFile::remove(originOf(left.file));
}

}  // namespace flexim::ui
