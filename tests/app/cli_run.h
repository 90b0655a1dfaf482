// Runs flexim-cli (FLEXIM_CLI) as a separate process for the CLI tests: exit code and output.
#pragma once

#include <QProcess>
#include <QString>
#include <QStringList>

struct Result {
  int code = -1;  ///< -1 when the process crashed or did not finish
  QString out, err;
};

inline Result cli(const QStringList& args) {
  QProcess p;
  p.start(FLEXIM_CLI, args);
  p.waitForFinished(120000);
  return {p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1, QString::fromUtf8(p.readAllStandardOutput()),
          QString::fromUtf8(p.readAllStandardError())};
}
