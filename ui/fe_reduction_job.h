// Reducing an FE mesh or deck in a worker thread: import (unless the caller imported it
// already), the reduction, the display surface and the sources, as `flexim-cli reduce` does.
// File > Open of an FE file uses flexim-cli's defaults (free-free, 8 elastic modes); the import
// wizard passes the mesh it previewed and the options chosen. The caller shows the stage and may
// cancel: the worker stops after the stage it is in and its result is dropped.
#pragma once

#include "core/base/diagnostics.h"
#include "core/fe/fe_model.h"
#include "core/fe/reduced_body.h"
#include "core/fe/reduction.h"

#include <QObject>
#include <QString>

#include <atomic>
#include <memory>
#include <optional>

class QThread;

namespace flexim::ui {

class FeReductionJob : public QObject {
  Q_OBJECT

 public:
  /// Imports path and reduces it with flexim-cli reduce's defaults.
  explicit FeReductionJob(QString path, QObject* parent = nullptr);
  /// Reduces a mesh imported from path with these options (options.material is ignored: the
  /// material given here, if any, overrides the mesh's).
  FeReductionJob(QString path, fe::FeModel mesh, fe::ReductionOptions options, std::optional<fe::Material> material,
                 QObject* parent = nullptr);
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
  /// What the reduction measured (modes, mass, times), after a successful finished().
  const fe::ReductionReport& report() const { return m_report; }

 signals:
  void stageChanged(const QString& stage);
  void finished();

 private:
  void work();

  QString m_path;
  std::optional<fe::FeModel> m_mesh;  ///< imported already (else the worker imports m_path)
  fe::ReductionOptions m_options;
  std::optional<fe::Material> m_material;
  fe::ReductionReport m_report;
  QThread* m_thread = nullptr;
  std::atomic<bool> m_cancel{false};
  bool m_ok = false;
  std::shared_ptr<fe::ReducedBody> m_body;
  Diagnostics m_diag;
  QString m_summary;
};

}  // namespace flexim::ui
