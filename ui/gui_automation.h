// The GUI automation contract: `flexim MODEL.json [--select PATH] [--set ITEM.KEY=VALUE] [--mode N] [--plot CHANNEL] [--plot-x CHANNEL|spectrum]
// [--contour Q] --run [--time T] [--export-csv F.csv] [--export-animation F.ogv] --screenshot FILE.png --quit`.
// Steps run from the event loop: load, run to completion, screenshot, then report an exit code.
// For users it is described in docs/user-guide.md, section 6.
#pragma once

#include <QObject>
#include <QString>
#include <QStringList>

namespace flexim::ui {

class MainWindow;

struct AutomationRequest {
  QString modelPath;       ///< empty: keep the current (empty) scene
  QString select;          ///< JSON path of an item to select after loading ("bodies[1]"), empty: none
  QStringList set;         ///< edits after loading, "ITEM.KEY=VALUE" ("bodies[0].mass=0.25"), in order
  int mode = 0;            ///< > 0: show this mode (1-based) of the first flexible body, at its peak
  QStringList plot;        ///< channels to plot (by name), shown while the run streams
  QString plotX;           ///< what they are plotted against: a channel, "spectrum"; empty: time
  bool run = false;
  bool statics = false;    ///< instead of the run: the static equilibrium (its last level shown)
  bool systemModes = false;  ///< the system modes about the equilibrium, mode `mode` (1 by default) shown
  double time = -1;        ///< >= 0: after the run, show the frame at this time [s]
  QString exportCsv;       ///< after the run, export the results CSV here
  QString exportAnimation; ///< after the run, write the animation here (.ogv or .png sequence)
  QString screenshotPath;  ///< empty: no screenshot
  bool quit = false;
};

class GuiAutomation : public QObject {
  Q_OBJECT

 public:
  GuiAutomation(MainWindow& window, AutomationRequest request, QObject* parent = nullptr);
  /// Starts the sequence once the event loop runs; finished() reports the outcome.
  void start();

 signals:
  /// exitCode 0 on success; otherwise message says what failed, followed by the error lines
  /// of the Messages panel.
  void finished(int exitCode, const QString& message);

 private:
  void loadStep();
  void selectStep();
  void systemModesStep();
  void runStep();
  void resultsStep();
  void screenshotStep();
  /// Waits until the window is on screen (its OpenGL view can be grabbed); false when it
  /// never is (the failure is reported).
  bool waitForExpose(void (GuiAutomation::*retry)());
  void animationStep();
  void fail(int exitCode, const QString& message);

  MainWindow& m_window;
  AutomationRequest m_request;
  int m_exposeWaits = 0;
  bool m_settled = false;
};

}  // namespace flexim::ui
