// Reducing an FE mesh or deck in a child process, `flexim-cli reduce --progress`: the window
// shows its stages as they come, can cancel it at any moment (the process is killed at once),
// and a crash of the reduction cannot take the window down. File > Open of an FE file uses
// flexim-cli's defaults (free-free, 8 elastic modes); the import wizard passes the options
// chosen. The body is read from the reduced-body file the child wrote.
#pragma once

#include "core/base/diagnostics.h"
#include "core/fe/fe_model.h"
#include "core/fe/reduced_body.h"
#include "core/fe/reduction.h"

#include <QObject>
#include <QProcess>
#include <QString>
#include <QStringList>
#include <QTemporaryDir>

#include <memory>
#include <optional>

namespace flexim::ui {

class FeReductionJob : public QObject {
  Q_OBJECT

 public:
  /// Reduces path with flexim-cli reduce's defaults.
  explicit FeReductionJob(QString path, QObject* parent = nullptr);
  /// Reduces path with these options (options.material is ignored: the material given here,
  /// if any, overrides the mesh's). mesh is path as imported and edited (the node sets picked
  /// for interfaces go to the child with the options).
  FeReductionJob(QString path, const fe::FeModel& mesh, const fe::ReductionOptions& options,
                 std::optional<fe::Material> material, QObject* parent = nullptr);
  /// Kills a reduction still running.
  ~FeReductionJob() override;

  void start();
  /// Kills the reduction now; finished() follows with cancelled() true.
  void cancel();
  bool isRunning() const;
  const QString& path() const { return m_path; }
  /// After finished(): the body (null unless it succeeded and was not cancelled) and what the
  /// importer and the reduction said.
  std::shared_ptr<fe::ReducedBody> body() const { return m_cancel ? nullptr : m_body; }
  bool cancelled() const { return m_cancel; }
  const Diagnostics& diagnostics() const { return m_diag; }
  /// Facts of the reduction for Messages: mass, modes, times.
  const QString& summary() const { return m_summary; }
  /// The flexim-cli the reductions run: $FLEXIM_CLI, else the one beside this program, else the
  /// one of the build tree this program was built in.
  static QString cliProgram();
  /// The command-line arguments of flexim-cli reduce for these options (without the input and
  /// --out).
  static QStringList reduceArguments(const fe::FeModel& mesh, const fe::ReductionOptions& options,
                                     const std::optional<fe::Material>& material);

 signals:
  void stageChanged(const QString& stage);
  void finished();

 private:
  void readProgress();
  void onExited(int code, QProcess::ExitStatus status);

  QString m_path;
  QStringList m_arguments;
  QProcess* m_process = nullptr;
  QTemporaryDir m_folder;  ///< where the child writes the reduced body
  QByteArray m_pending;    ///< stdout not yet a whole line
  bool m_cancel = false;
  bool m_done = false;
  std::shared_ptr<fe::ReducedBody> m_body;
  Diagnostics m_diag;
  QString m_summary;
  double m_seconds[4] = {0, 0, 0, 0};  ///< assembly, eigen, stresses, stiffening
};

}  // namespace flexim::ui
