// flexim-cli: headless front end. Thin: parse arguments, load, run, report.
//   flexim-cli run MODEL.json [--out FILE.csv] [--t-end T] [--step H] [--integrator NAME] [--rho-inf R]
//                  [--rtol R] [--atol A] [--step-control fixed|adaptive]
//     exit status 0 ok, 1 failed, 3 finished with a run-quality warning
//   flexim-cli validate MODEL.json
//   flexim-cli schema [--out FILE]
//   flexim-cli docs model-format-tables [--update FILE]
//   flexim-cli modes|reduce|info ... (cli_fe.cpp), mass-properties ... (cli_mesh.cpp)
#include "app/cli_common.h"
#include "core/base/versions.h"
#include "core/model/validate.h"
#include "core/run/simulation.h"
#include "io/csv_writer.h"
#include "io/model_check.h"
#include "io/model_docs.h"
#include "io/model_json.h"
#include "io/model_schema.h"

#include <unistd.h>

#include <atomic>
#include <csignal>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

namespace {

using namespace flexim;
using namespace flexim::cli;

/// Exit status of a run that finished with a quality warning (neither 0 nor the failure code 1).
constexpr int kExitWarning = 3;

int usage(FILE* out, int code) {
  std::fprintf(out,
               "usage:\n"
               "  flexim-cli run MODEL.json [--out FILE.csv] [--t-end T] [--step H] [--integrator NAME]\n"
               "                 [--rho-inf R] [--rtol R] [--atol A] [--step-control fixed|adaptive]\n"
               "      (NAME: ida, gen-alpha, or for contacts with impacts and friction mixed-bathe,\n"
               "       mixed-gen-alpha, mixed-ed-alpha, moreau or hets; --rho-inf: the spectral radius at\n"
               "       infinity of gen-alpha, mixed-gen-alpha and mixed-ed-alpha, in [0, 1])\n"
               "      (--rtol/--atol: IDA's tolerances; with gen-alpha they also select the adaptive step\n"
               "       unless --step-control fixed is given)\n"
               "  flexim-cli static MODEL.json [--load-steps N] [--out FILE.csv]\n"
               "      (static equilibrium at the model's initial time: the loads in N levels (10), Newton with\n"
               "       the tangent and geometric stiffness; a row per level, load_factor first, reactions in\n"
               "       the sensors)\n"
               "  flexim-cli linearize MODEL.json [--at static|T] [--load-steps N] [--out modes.csv] [--matrices DIR]\n"
               "                      [--frf IN:OUT ... --freq F0:F1:N [--frf-out frf.csv]]\n"
               "      (the linearized equations about the static equilibrium or the state of a run at time T:\n"
               "       frequencies, damping ratios; --matrices: the reduced M, K (with the geometric stiffness), D,\n"
               "       the state-space A, B, C, D and the basis N as MatrixMarket files; --frf: frequency responses\n"
               "       from an input BODY.fx|fy|fz|mx|my|mz (force, moment at the body's reference point, global\n"
               "       axes) to an output BODY.x|y|z|rx|ry|rz (displacement, rotation) at N frequencies from F0 to\n"
               "       F1 Hz, logarithmically spaced)\n"
               "  flexim-cli beam MODEL.json --name NAME --length L --elements N (--element JSON | --like ELEMENT)\n"
               "                 [--start X,Y,Z] [--angles-xyz-deg A,B,C] [--curvature KX,KY,KZ | --arc R,SWEEP_DEG]\n"
               "                 [--clamp] [--planar] [--out FILE]\n"
               "      (adds a member of N beam elements to the model: nodes NAME_0 ... NAME_N with a marker 'm',\n"
               "       elements NAME_1 ... NAME_N; --element: the section and material as a beam element's JSON\n"
               "       fields, --like: those of an element of the model; --arc bends it about its z axis;\n"
               "       --clamp: fixed to the ground at its start; --planar: its other nodes held in its x-y plane)\n"
               "  flexim-cli validate MODEL.json\n"
               "  flexim-cli schema [--out FILE]   (JSON Schema of model files)\n"
               "  flexim-cli docs model-format-tables [--update docs/model-format.md]\n"
               "  flexim-cli modes MESH [--count N] [--material E,nu,rho] [--density RHO] [--out modes.csv]\n"
               "  flexim-cli reduce MESH [--modes N | --max-frequency F] [--interface SET|COUPLING|REF_NODE[:rigid|:averaging]\n"
               "                    [--reference centroid|area-centroid|node:ID|X,Y,Z] ...] [--method free-free|craig-bampton]\n"
               "                    [--orthonormalise] [--invariants consistent|lumped] [--no-stiffening]\n"
               "                    [--material E,nu,rho] [--density RHO] [--node-set NAME:ID,ID,...] [--progress]\n"
               "                    --out BODY.frb   (--progress: stages and diagnostics as tab-separated lines on stdout)\n"
               "  flexim-cli info FILE [--material E,nu,rho] [--density RHO]   (mesh, deck, matrix set or reduced body)\n"
               "      (--material: one material for every element, SI units; --density: the density of every\n"
               "       material in kg/m^3, E and nu kept)\n"
               "  flexim-cli mass-properties MESH --density RHO [--scale S] [--json]\n"
               "  flexim-cli mass-properties --box A,B,C | --cylinder R,L | --sphere R --density RHO [--json]\n"
               "      (mass, centre of mass, inertia about it and principal axes of the solid a closed triangle\n"
               "       mesh bounds: STL, OBJ, PLY, glTF, ...; --scale: mesh units -> m, 0.001 for mm; SI output)\n"
               "  flexim-cli spectrum RESULTS.csv --channel NAME [--out FILE.csv]\n"
               "      (amplitude spectrum of a channel of a run's CSV: mean removed, Hann window, as the plots show)\n"
               "  flexim-cli --version\n"
               "\n"
               "exit status:\n"
               "  0  success\n"
               "  1  error: bad input (mass-properties: also a mesh that is not a closed surface), or a run\n"
               "     that failed or was cancelled\n"
               "  2  no command given\n"
               "  %d  run: finished, but a run-quality check failed (constraint residual over its\n"
               "     tolerance, too many rejected steps, or energy drift of a model on which nothing\n"
               "     does work); the results are complete but suspect: see the summary and the CSV's\n"
               "     '# end: warning' line (docs/user-guide.md, \"Run quality\")\n",
               kExitWarning);
  return code;
}

/// Ctrl-C asks the run to stop between steps; the CSV keeps everything written so far.
std::atomic<bool> g_cancel{false};
extern "C" void onInterrupt(int) { g_cancel = true; }

/// Progress: a redrawn bar on a terminal, a plain line every 10 % otherwise.
class Progress {
 public:
  Progress() : m_tty(isatty(fileno(stderr))) {}
  void operator()(double t, double tEnd) {
    const double frac = tEnd > 0 ? std::min(1.0, t / tEnd) : 1.0;
    if (m_tty) {
      const auto now = std::chrono::steady_clock::now();
      if (frac < 1.0 && now - m_last < std::chrono::milliseconds(100)) return;
      m_last = now;
      const int width = 40, filled = static_cast<int>(frac * width);
      std::fprintf(stderr, "\r[%s%s] %5.1f %%  t = %.6g s", std::string(filled, '#').c_str(),
                   std::string(width - filled, ' ').c_str(), 100 * frac, t);
      if (frac >= 1.0) std::fprintf(stderr, "\n");
    } else {
      const int decile = static_cast<int>(frac * 10 + 1e-9);
      if (decile > m_decile) {
        m_decile = decile;
        std::fprintf(stderr, "progress: %3d %%  t = %.6g s\n", decile * 10, t);
      }
    }
    std::fflush(stderr);
  }

 private:
  bool m_tty;
  int m_decile = -1;
  std::chrono::steady_clock::time_point m_last{};
};

/// Creates the folder a results file goes into.
void makeParentFolder(const std::string& path) {
  std::error_code ec;
  const auto parent = std::filesystem::path(path).parent_path();
  if (!parent.empty()) std::filesystem::create_directories(parent, ec);
}

int runCommand(const std::vector<std::string>& args) {
  std::string modelPath, outPath;
  ModelSpec model;
  double tEnd = -1, step = -1, rtol = -1, atol = -1, rhoInf = -1;
  std::string integrator, stepControl;
  std::map<std::string, std::string> given;  // "simulation.<key>" -> "--option VALUE"
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    auto value = [&](const char* name) -> const std::string* {
      if (i + 1 >= args.size()) return nullptr;
      (void)name;
      return &args[++i];
    };
    if (a == "--out" || a == "-o") {
      const std::string* v = value("--out");
      if (!v) return fail("--out needs a file name");
      outPath = *v;
    } else if (a == "--t-end" || a == "--step") {
      const std::string* v = value(a.c_str());
      double x = 0;
      if (!v || !parseNumber(*v, x) || x <= 0) return fail(a + " needs a positive number");
      (a == "--t-end" ? tEnd : step) = x;
      given[a == "--t-end" ? "simulation.t_end" : "simulation.step"] = a + " " + *v;
    } else if (a == "--rho-inf") {
      const std::string* v = value(a.c_str());
      if (!v || !parseNumber(*v, rhoInf) || !(rhoInf >= 0 && rhoInf <= 1)) return fail("--rho-inf needs a number in [0, 1]");
      given["simulation.rho_inf"] = a + " " + *v;
    } else if (a == "--rtol" || a == "--atol") {
      const std::string* v = value(a.c_str());
      double x = 0;
      if (!v || !parseNumber(*v, x) || x <= 0) return fail(a + " needs a positive number");
      (a == "--rtol" ? rtol : atol) = x;
      given[a == "--rtol" ? "simulation.rtol" : "simulation.atol"] = a + " " + *v;
    } else if (a == "--step-control") {
      const std::string* v = value("--step-control");
      if (!v) return fail("--step-control needs fixed or adaptive");
      stepControl = *v;
      given["simulation.step_control"] = a + " " + *v;
    } else if (a == "--integrator") {
      const std::string* v = value("--integrator");
      if (!v) return fail("--integrator needs a name (" + integratorNames() + ")");
      integrator = *v;
      given["simulation.integrator"] = a + " " + *v;
    } else if (const int error = takeModelArgument(a, modelPath)) {
      return error;
    }
  }
  if (modelPath.empty()) return fail("run needs a model file");
  if (!loadModel(modelPath, model)) return fail("cannot load model '" + modelPath + "'");
  if (tEnd > 0) model.solver.t_end = tEnd;
  if (step > 0) model.solver.step = step;
  if (!integrator.empty() && !fromString(integrator, model.solver.integrator))
    return fail("unknown integrator '" + integrator + "' (use " + integratorNames() + ")");
  if (rhoInf >= 0) model.solver.rho_inf = rhoInf;
  if (rtol > 0) model.solver.rtol = rtol;
  if (atol > 0) model.solver.atol = atol;
  if (!stepControl.empty()) {
    if (!fromString(stepControl, model.solver.step_control))
      return fail("unknown step control '" + stepControl + "' (use fixed or adaptive)");
  } else if ((rtol > 0 || atol > 0) && model.solver.integrator == IntegratorType::GeneralizedAlpha) {
    model.solver.step_control = StepControl::Adaptive;  // a tolerance means the step follows it
  }
  if (!given.empty()) {
    // the options are checked where the model's own settings are (validate(): the simulation
    // item's limits and checks); an error names the option that set the value, or the options
    // given and the model's setting they clash with
    std::string options;
    for (const auto& [key, option] : given) options += (options.empty() ? "" : ", ") + option;
    bool bad = false;
    const Diagnostics checked = validate(model);
    for (const Diagnostic& d : checked.items()) {
      if (d.severity != Severity::Error) continue;
      const auto it = given.find(d.where);
      fail(it != given.end() ? it->second + ": " + d.message + " (" + d.where + ")"
                             : options + ": " + d.where + ": " + d.message);
      bad = true;
    }
    if (bad) return 1;
  }
  if (outPath.empty())
    outPath = "results/" + std::filesystem::path(modelPath).stem().string() + ".csv";

  auto sim = compile(model, modelPath);
  if (!sim) return 1;
  makeParentFolder(outPath);
  io::CsvResultWriter csv(outPath, modelPath);
  if (!csv.open()) return fail(csv.error());
  Progress progress;
  RunOptions options;
  options.progress = [&](double t, double te) { progress(t, te); };
  options.cancel = &g_cancel;
  std::signal(SIGINT, onInterrupt);
  std::signal(SIGTERM, onInterrupt);
  std::string how = toString(model.solver.integrator);
  if (model.solver.integrator == IntegratorType::Ida || model.solver.step_control == StepControl::Adaptive) {
    char buf[96];
    std::snprintf(buf, sizeof buf, "%s rtol = %g, atol = %g",
                  model.solver.integrator == IntegratorType::Ida ? "" : " adaptive,", model.solver.rtol, model.solver.atol);
    how += buf;
  } else {
    char buf[64];
    std::snprintf(buf, sizeof buf, " fixed step %g s", model.solver.step);
    how += buf;
  }
  std::fprintf(stderr, "running %s: t_end = %g s, %s, output every %g s -> %s\n", modelPath.c_str(),
               model.solver.t_end, how.c_str(), model.solver.output_interval, outPath.c_str());
  const RunSummary summary = sim->run({&csv}, options);
  if (!csv.ok()) return fail(csv.error());
  std::printf("%s\n", summary.str().c_str());
  if (!summary.ok) return fail(summary.message + " (results up to t = " + std::to_string(summary.t_reached) +
                               " s kept in " + outPath + ")");
  std::printf("results: %s\n", outPath.c_str());
  if (summary.warning()) {
    for (const auto& w : summary.quality.warnings) std::fprintf(stderr, "flexim-cli: warning: %s\n", w.c_str());
    std::fprintf(stderr, "flexim-cli: warning: the run finished, but its results are suspect (exit status %d)\n",
                 kExitWarning);
    return kExitWarning;
  }
  return 0;
}

/// Prints each load level's first outputs (the sensors) as the static equilibrium reaches it.
class LevelEcho : public ResultSink {
 public:
  void begin(const std::vector<Channel>& channels, const RunSummary&) override { m_channels = channels; }
  void sample(const Sample& s) override {
    std::string line;
    const std::size_t shown = std::min<std::size_t>(s.values.size(), 7);
    for (std::size_t i = 0; i < shown && i < m_channels.size(); ++i) {
      char buf[160];
      std::snprintf(buf, sizeof buf, "%s%s %.6g%s%s", i ? "  " : "", m_channels[i].name.c_str(), s.values[i],
                    m_channels[i].unit.empty() ? "" : " ", m_channels[i].unit.c_str());
      line += buf;
    }
    if (shown < s.values.size()) line += "  …";
    std::printf("  %s\n", line.c_str());
  }
  void end(const RunSummary&) override {}

 private:
  std::vector<Channel> m_channels;
};

int staticCommand(const std::vector<std::string>& args) {
  std::string modelPath, outPath;
  StaticOptions options;
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    if ((a == "--out" || a == "--load-steps") && i + 1 >= args.size()) return fail(a + " needs a value");
    if (a == "--out") {
      outPath = args[++i];
    } else if (a == "--load-steps") {
      const std::string& v = args[++i];
      char* end = nullptr;
      const long n = std::strtol(v.c_str(), &end, 10);
      if (end == v.c_str() || *end != '\0' || n < 1 || n > 100000)
        return fail("--load-steps " + v + ": expected a whole number from 1 to 100000");
      options.load_steps = static_cast<int>(n);
    } else if (const int error = takeModelArgument(a, modelPath)) {
      return error;
    }
  }
  if (modelPath.empty()) return fail("static needs a model file");
  ModelSpec model;
  if (!loadModel(modelPath, model)) return fail("cannot load model '" + modelPath + "'");
  if (outPath.empty()) outPath = "results/" + std::filesystem::path(modelPath).stem().string() + "_static.csv";
  auto sim = compile(model, modelPath);
  if (!sim) return 1;
  makeParentFolder(outPath);
  io::CsvResultWriter csv(outPath, modelPath);
  if (!csv.open()) return fail(csv.error());
  options.log = [](const std::string& line) { std::printf("  %s\n", line.c_str()); };
  std::printf("static equilibrium of %s: %d load levels -> %s\n", modelPath.c_str(), options.load_steps, outPath.c_str());
  LevelEcho echo;
  const RunSummary summary = sim->staticEquilibrium({&csv, &echo}, options);
  if (!csv.ok()) return fail(csv.error());
  for (const auto& n : summary.notes) std::printf("  note: %s\n", n.c_str());
  std::printf("  %ld load levels, %ld Newton iterations, wall time %g s\n", summary.steps, summary.newton_iterations,
              summary.wall_time);
  if (!summary.ok) return fail(summary.message + " (the converged levels are kept in " + outPath + ")");
  std::printf("results: %s\n", outPath.c_str());
  return 0;
}

int validateCommand(const std::vector<std::string>& args) {
  if (args.size() != 1) return fail("validate needs exactly one model file");
  ModelSpec model;
  Diagnostics loaded;
  const bool ok = io::loadModelFile(args[0], model, loaded);
  printDiagnostics(loaded);
  if (!ok) return fail("cannot load model '" + args[0] + "'");
  // the check the GUI lists; what loading said already (validation warnings) is not repeated
  const io::ModelCheckReport report =
      io::checkModel(model, std::filesystem::path(args[0]).parent_path().string());
  const auto said = [&](const Diagnostic& d) {
    for (const Diagnostic& l : loaded.items())
      if (l.severity == d.severity && l.where == d.where && l.message == d.message) return true;
    return false;
  };
  for (const Diagnostic& d : report.messages.items())
    if (!said(d)) std::fprintf(stderr, "%s\n", d.str().c_str());
  // the topology comes last whatever the verdict: it needs no compiled model and helps to
  // read a failing one
  const auto withTopology = [&](int code) {
    std::printf("%s\n", report.topology.c_str());
    return code;
  };
  if (!report.compiled) return withTopology(fail("model '" + args[0] + "' has errors"));
  std::printf("%s\n", report.figures.str().c_str());
  if (!report.assembled) return withTopology(fail("the initial configuration cannot be assembled onto the joints"));
  if (!report.ok()) return withTopology(fail("model '" + args[0] + "' has errors"));
  std::printf("model OK\n");
  return withTopology(0);
}

/// Writes text to path, or to stdout when path is empty.
int writeOut(const std::string& text, const std::string& path) {
  if (path.empty()) {
    std::fputs(text.c_str(), stdout);
    return 0;
  }
  std::FILE* f = std::fopen(path.c_str(), "wb");
  if (!f) return fail("cannot write '" + path + "'");
  const bool ok = std::fwrite(text.data(), 1, text.size(), f) == text.size();
  if (std::fclose(f) != 0 || !ok) return fail("cannot write '" + path + "'");
  return 0;
}

int schemaCommand(const std::vector<std::string>& args) {
  std::string out;
  if (args.size() == 2 && args[0] == "--out")
    out = args[1];
  else if (!args.empty())
    return fail("usage: flexim-cli schema [--out FILE]");
  return writeOut(io::modelJsonSchema(), out);
}

int docsCommand(const std::vector<std::string>& args) {
  if (args.empty() || args[0] != "model-format-tables")
    return fail("usage: flexim-cli docs model-format-tables [--update docs/model-format.md]");
  if (args.size() == 1) return writeOut(io::modelFormatTables(), "");
  if (args.size() != 3 || args[1] != "--update")
    return fail("usage: flexim-cli docs model-format-tables [--update docs/model-format.md]");
  std::string text, error;
  if (!io::readDocument(args[2], text, error)) return fail(error);
  std::vector<std::string> missing;
  const std::string updated = io::withGeneratedTables(text, &missing);
  for (const auto& section : missing) std::fprintf(stderr, "warning: no '<!-- generated:%s -->' section\n", section.c_str());
  if (updated == text) {
    std::printf("%s is up to date\n", args[2].c_str());
    return 0;
  }
  return writeOut(updated, args[2]);
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<std::string> args(argv + 1, argv + argc);
  if (args.empty()) return usage(stderr, 2);
  const std::string cmd = args.front();
  args.erase(args.begin());
  try {
    if (cmd == "--help" || cmd == "-h" || cmd == "help") return usage(stdout, 0);
    if (cmd == "--version") {
      std::printf("flexim-cli %s\n", FLEXIM_VERSION);
      for (const auto& [library, version] : solverLibraryVersions()) std::printf("  %s %s\n", library.c_str(), version.c_str());
      return 0;
    }
    if (cmd == "run") return runCommand(args);
    if (cmd == "validate") return validateCommand(args);
    if (cmd == "static") return staticCommand(args);
    if (cmd == "schema") return schemaCommand(args);
    if (cmd == "docs") return docsCommand(args);
    if (cmd == "modes") return modesCommand(args);
    if (cmd == "reduce") return reduceCommand(args);
    if (cmd == "info") return infoCommand(args);
    if (cmd == "mass-properties") return massPropertiesCommand(args);
    if (cmd == "spectrum") return spectrumCommand(args);
    if (cmd == "beam") return beamCommand(args);
    if (cmd == "linearize") return linearizeCommand(args);
    return fail("unknown command '" + cmd + "' (see flexim-cli --help)");
  } catch (const std::exception& e) {
    return fail(std::string("unexpected: ") + e.what());
  }
}
