// flexim: the desktop application. Thin: parse arguments, create the main window, and for the
// automation contract (docs/user-guide.md, section 6) run load -> run -> screenshot -> quit.
#include "render/flexible_surface.h"
#include "ui/display_toolbar.h"
#include "ui/gui_automation.h"
#include "ui/main_window.h"

#include <QTimer>
#include "ui/surface_format.h"

#include <QAction>
#include <QApplication>
#include <QComboBox>
#include <QCommandLineParser>
#include <QDoubleSpinBox>

#include "ui/playback_bar.h"

#include <cstdio>
#include <string>

namespace {

/// The command line; the same for --help without a display as for the application.
void describeCommandLine(QCommandLineParser& parser) {
  parser.setApplicationDescription("Flexible multibody modeller and simulator");
  parser.addHelpOption();
  parser.addVersionOption();
  parser.addPositionalArgument("model", "Model file (.json) to open.", "[MODEL.json]");
  parser.addOptions({
      {"run", "Run the model to completion after loading."},
      {"static", "Find the model's static equilibrium after loading (Simulation > Static equilibrium), instead of --run."},
      {"screenshot", "Save a screenshot of the window.", "FILE.png"},
      {"quit", "Quit when done; the exit code tells success (0)."},
      {"deformation-scale", "Scale factor of the drawn deformation of flexible bodies (default 1).", "FACTOR"},
      {"select", "Select an item after loading, by its JSON path (bodies[1]).", "PATH"},
      {"set", "Edit a number, flag or text field after loading, as typed in the property panel (repeat for several), "
              "e.g. bodies[0].mass=0.25.", "ITEM.KEY=VALUE"},
      {"plot", "Plot a channel of the run (repeat for several), e.g. slider.position.x.", "CHANNEL"},
      {"plot-x", "Plot the --plot channels against this channel, or as their amplitude spectrum ('spectrum').",
       "CHANNEL"},
      {"mode", "Show mode N (1-based) of the first flexible body (or, with --system-modes, of the system), at its "
               "largest deflection.", "N"},
      {"system-modes", "Linearize the model about its static equilibrium (Simulation > System modes) and show its "
                       "modes in the mode browser."},
      {"time", "After --run, show the results at time T [s].", "T"},
      {"export-csv", "After --run, export the results CSV to FILE.", "FILE.csv"},
      {"contour",
       "Colour flexible bodies by the displacement magnitude or one body-frame component (magnitude, x, y, z), or "
       "by a stress: von_mises, max_principal, min_principal, sxx, syy, szz, sxy, syz, szx, or by a strain: strain "
       "(equivalent), max_principal_strain, min_principal_strain, exx, eyy, ezz, exy, eyz, ezx.",
       "QUANTITY"},
      {"colour-range", "Colour scale over the whole run (run, the default) or the frame shown (frame).", "run|frame"},
      {"undeformed", "Show the undeformed shape of flexible bodies as a ghost."},
      {"export-animation",
       "After --run, write the animation: FILE.ogv (Ogg Theora video) or FILE.png (frames FILE_0000.png, ...).",
       "FILE"},
      {"speed", "Playback speed of --export-animation: simulated seconds per second (default 1).", "S"},
  });
}

/// --help and --version answer without a display: QApplication would abort without one.
bool asksOnlyForText(int argc, char** argv) {
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--help" || a == "-h" || a == "-?" || a == "--help-all" || a == "--version" || a == "-v") return true;
  }
  return false;
}

}  // namespace

int main(int argc, char** argv) {
  if (asksOnlyForText(argc, argv)) {
    QCoreApplication app(argc, argv);
    QCoreApplication::setApplicationName("Flexim");
    QCoreApplication::setApplicationVersion(FLEXIM_VERSION);
    QCommandLineParser parser;
    describeCommandLine(parser);
    parser.process(app);  // prints and exits
    return 0;
  }
  flexim::ui::setDefaultSurfaceFormatForVtk();  // must precede QApplication
  QApplication app(argc, argv);
  QApplication::setApplicationName("Flexim");
  QApplication::setApplicationVersion(FLEXIM_VERSION);

  QCommandLineParser parser;
  describeCommandLine(parser);
  parser.process(app);
  const QString runOption = "run", staticOption = "static", screenshotOption = "screenshot", quitOption = "quit",
                scaleOption = "deformation-scale", selectOption = "select", setOption = "set", plotOption = "plot", plotXOption = "plot-x", modeOption = "mode",
                timeOption = "time", csvOption = "export-csv", contourOption = "contour", rangeOption = "colour-range",
                undeformedOption = "undeformed", animationOption = "export-animation", speedOption = "speed";
  if (parser.positionalArguments().size() > 1) {
    std::fprintf(stderr, "flexim: expected at most one model file\n");
    return 1;
  }

  flexim::ui::AutomationRequest request;
  request.modelPath = parser.positionalArguments().value(0);
  request.select = parser.value(selectOption);
  request.set = parser.values(setOption);
  request.plot = parser.values(plotOption);
  request.plotX = parser.value(plotXOption);
  request.exportCsv = parser.value(csvOption);
  if (parser.isSet(timeOption)) {
    bool ok = false;
    request.time = parser.value(timeOption).toDouble(&ok);
    if (!ok || !(request.time >= 0)) {
      std::fprintf(stderr, "flexim: --time expects a time >= 0 in seconds\n");
      return 1;
    }
  }
  if ((parser.isSet(timeOption) || parser.isSet(csvOption) || parser.isSet(animationOption)) && !parser.isSet(runOption) &&
      !parser.isSet(staticOption)) {
    std::fprintf(stderr, "flexim: --time, --export-csv and --export-animation need --run or --static\n");
    return 1;
  }
  request.exportAnimation = parser.value(animationOption);
  flexim::render::ContourQuantity contour = flexim::render::ContourQuantity::Magnitude;
  if (parser.isSet(contourOption) && !flexim::render::parseContourQuantity(parser.value(contourOption).toStdString(), contour)) {
    std::fprintf(stderr, "flexim: --contour expects magnitude, x, y, z, von_mises, max_principal, min_principal, sxx, syy, szz, "
                         "sxy, syz, szx, strain, max_principal_strain, min_principal_strain, exx, eyy, ezz, exy, eyz or ezx\n");
    return 1;
  }
  const QString range = parser.value(rangeOption);
  if (parser.isSet(rangeOption) && range != "run" && range != "frame") {
    std::fprintf(stderr, "flexim: --colour-range expects run or frame\n");
    return 1;
  }
  double speed = 1.0;
  if (parser.isSet(speedOption)) {
    bool ok = false;
    speed = parser.value(speedOption).toDouble(&ok);
    if (!ok || !(speed > 0.0)) {
      std::fprintf(stderr, "flexim: --speed expects a number > 0\n");
      return 1;
    }
  }
  if (parser.isSet(modeOption)) {
    bool ok = false;
    request.mode = parser.value(modeOption).toInt(&ok);
    if (!ok || request.mode < 1) {
      std::fprintf(stderr, "flexim: --mode expects a mode number >= 1\n");
      return 1;
    }
  }
  request.run = parser.isSet(runOption);
  request.statics = parser.isSet(staticOption);
  request.systemModes = parser.isSet("system-modes");
  if (request.run && request.statics) {
    std::fprintf(stderr, "flexim: --run and --static exclude each other\n");
    return 1;
  }
  request.screenshotPath = parser.value(screenshotOption);
  request.quit = parser.isSet(quitOption);

  double deformationScale = 1.0;
  if (parser.isSet(scaleOption)) {
    bool ok = false;
    deformationScale = parser.value(scaleOption).toDouble(&ok);
    if (!ok || !(deformationScale >= 0.0)) {
      std::fprintf(stderr, "flexim: --deformation-scale expects a number >= 0\n");
      return 1;
    }
  }

  flexim::ui::MainWindow window;
  if (!request.quit) window.restoreLayout();  // automation runs see the default layout
  window.deformationScaleBox()->setValue(deformationScale);
  window.displayToolBar()->setContour(contour);
  if (range == "frame") window.displayToolBar()->colourRangeBox()->setCurrentIndex(1);
  if (parser.isSet(undeformedOption)) window.displayToolBar()->undeformedAction()->setChecked(true);
  window.playbackBar()->setSpeed(speed);
  window.show();

  flexim::ui::GuiAutomation automation(window, request);
  QObject::connect(&automation, &flexim::ui::GuiAutomation::finished, &app,
                   [&](int exitCode, const QString& message) {
                     if (exitCode != 0) std::fprintf(stderr, "flexim: %s\n", qPrintable(message));
                     if (request.quit) QApplication::exit(exitCode);
                   });
  automation.start();
  // a session that ended without saving left its changes: offer them (not in automation runs),
  // after the model named on the command line is open, so that the recovered one is not replaced
  if (!request.quit) QTimer::singleShot(0, &window, [&window] { window.offerRecovery(); });
  return QApplication::exec();
}
