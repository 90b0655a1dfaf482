// Small helpers shared by the flexim-cli command files.
#pragma once

#include "core/base/diagnostics.h"
#include "core/run/simulation.h"
#include "io/model_json.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>
#include <vector>

namespace flexim::cli {

/// One clear line on stderr and a non-zero exit code.
inline int fail(const std::string& message) {
  std::fprintf(stderr, "flexim-cli: error: %s\n", message.c_str());
  return 1;
}

inline bool parseNumber(const std::string& text, double& out) {
  char* end = nullptr;
  out = std::strtod(text.c_str(), &end);
  return end && *end == '\0' && !text.empty() && std::isfinite(out);
}

inline void printDiagnostics(const Diagnostics& diag) {
  for (const auto& d : diag.items()) std::fprintf(stderr, "%s\n", d.str().c_str());
}

/// Loads a model file, its messages printed; false when it cannot be loaded.
inline bool loadModel(const std::string& path, ModelSpec& model) {
  Diagnostics diag;
  const bool ok = io::loadModelFile(path, model, diag);
  printDiagnostics(diag);
  return ok;
}

/// The simulation of a loaded model, its diagnostics printed; nullptr (with the error printed)
/// when the model has errors.
inline std::unique_ptr<Simulation> compile(const ModelSpec& model, const std::string& modelPath) {
  Diagnostics diag;
  auto sim = Simulation::create(model, diag);
  printDiagnostics(diag);
  if (!sim) fail("model '" + modelPath + "' has errors");
  return sim;
}

/// An argument that is not one of a command's options: the first is the model file, another one
/// or an unknown option an error. 0 when taken, else the exit code of the error.
inline int takeModelArgument(const std::string& a, std::string& modelPath) {
  if (!a.empty() && a[0] == '-') return fail("unknown option '" + a + "' (see flexim-cli --help)");
  if (!modelPath.empty()) return fail("unexpected argument '" + a + "'");
  modelPath = a;
  return 0;
}

int modesCommand(const std::vector<std::string>& args);
int reduceCommand(const std::vector<std::string>& args);
int infoCommand(const std::vector<std::string>& args);
int massPropertiesCommand(const std::vector<std::string>& args);
int spectrumCommand(const std::vector<std::string>& args);
int beamCommand(const std::vector<std::string>& args);
int linearizeCommand(const std::vector<std::string>& args);

}  // namespace flexim::cli
