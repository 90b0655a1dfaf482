// Autosave and crash recovery: while the model has unsaved changes it is written to a recovery
// file of this session a second after each change and every minute (beside it, the model
// file's path);
// a save, a clean close or a model without changes removes it. A recovery file still there at
// the next start belongs to a session that ended without saving (a crash, a killed process):
// the application offers to open it.
#pragma once

#include "ui/model_document.h"

#include <QDateTime>
#include <QList>
#include <QObject>
#include <QTimer>

namespace flexim::ui {

class Recovery : public QObject {
  Q_OBJECT

 public:
  explicit Recovery(ModelDocument* document, QObject* parent = nullptr, int intervalMs = 60'000);
  ~Recovery() override;

  /// Where recovery files are kept (the application's local data folder).
  static QString folder();
  /// This session's recovery file.
  QString file() const { return m_file; }
  /// Writes the model now if it has unsaved changes, else removes the file; false if it could not be written.
  bool autosave();
  /// Removes this session's recovery file.
  void discard();

  /// A recovery file of a session that ended without saving.
  struct LeftBehind {
    QString file;       ///< the recovery file (model JSON)
    QString modelPath;  ///< the model's own file ("" for an untitled model)
    QDateTime written;
  };
  /// The recovery files of other sessions that are no longer running, newest first.
  QList<LeftBehind> leftBehind() const;
  /// Reads a left-behind file as a model (its relative paths against its model file's folder).
  static bool read(const LeftBehind& left, ModelSpec& model, Diagnostics& diag);
  /// Removes a left-behind file (recovered or declined).
  static void remove(const LeftBehind& left);

 private:
  ModelDocument* m_document;
  QTimer m_timer;  ///< every interval while there are unsaved changes
  QTimer m_soon;   ///< shortly after a change
  QString m_file;
};

}  // namespace flexim::ui
