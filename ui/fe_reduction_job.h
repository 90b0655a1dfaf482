// Reducing an FE mesh or deck in a worker thread, for File > Open of an FE file: import, a
// free-free reduction with flexim-cli's defaults (8 elastic modes), the display surface and
// the sources, as `flexim-cli reduce` does. The window shows the stage and may cancel: the
// worker stops after the stage it is in and its result is dropped.
#pragma once

#include "core/base/diagnostics.h"
#include "core/fe/reduced_body.h"

#include <QObject>
#include <QString>

#include <atomic>
#include <memory>

class QThread;

namespace flexim::ui {

class FeReductionJob : public QObject {
  Q_OBJECT

 public:
  explicit FeReductionJob(QString path, QObject* parent = nullptr);
  /// Waits for the worker (a cancelled one ends after its current stage).
  ~FeReductionJob() override;

  void start();
  void cancel();
  bool isRunning() const;
  const QString& path() const { return m_path; }
  /// After finished(): the body (null unless it succeeded and was not cancelled) and what the
  /// importer and the reduction said.
  std::shared_ptr<fe::ReducedBody> body() const { return m_ok && !m_cancel ? m_body : nullptr; }
  bool cancelled() const { return m_cancel; }
  const Diagnostics& diagnostics() const { return m_diag; }
  /// Facts of the reduction for Messages: mass, modes, times.
  const QString& summary() const { return m_summary; }

 signals:
  void stageChanged(const QString& stage);
  void finished();

 private:
  void work();

  QString m_path;
  QThread* m_thread = nullptr;
  std::atomic<bool> m_cancel{false};
  bool m_ok = false;
  std::shared_ptr<fe::ReducedBody> m_body;
  Diagnostics m_diag;
  QString m_summary;
};

}  // namespace flexim::ui
