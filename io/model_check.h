// The model check: everything a model can be told before it runs, as
// messages that each name their item by its JSON path, so `flexim-cli validate` prints them
// and the GUI lists them (Simulation > Check model, and before every run) and selects the item
// of the one clicked. In io, not core, because it reads files: the reduced-body files and the
// FE sources they were reduced from (a source changed since the reduction makes a stale body).
#pragma once

#include "core/base/diagnostics.h"
#include "core/model/model.h"
#include "core/run/simulation.h"

#include <string>

namespace flexim::io {

/// Largest position residual [m] after the initial assembly of a model that assembles.
inline constexpr double kAssemblyTolerance = 1e-6;

struct ModelCheckReport {
  /// The model compiled: figures hold its DOF count, redundant rows and assembly residuals.
  bool compiled = false;
  ModelCheck figures;
  /// Compiled, and the initial configuration assembles onto the joints (kAssemblyTolerance).
  bool assembled = false;
  /// describe(buildTopology(model)): components, loops, spanning tree (needs no compile).
  std::string topology;
  /// Every finding, where = the JSON path of its item ("" = the model as a whole):
  ///  - validation errors and warnings (core/model/validate.h), at the field ("bodies[2].inertia");
  ///  - compile notes: "virtual_bodies[i]" (nodes chosen; warning: rigid-flexible joint near
  ///    singular), "flexible_bodies[i].reference" (warning: PAC ill-posed);
  ///  - "" info: the degrees of freedom; "" error: the initial configuration does not assemble;
  ///  - warning per element with redundant rows: "joints[i]", "drivers[i]", "couplings[i]",
  ///    "limits[i]", "flexible_bodies[i].reference", "virtual_bodies[i]";
  ///  - warning per body not connected to ground: "bodies[i]", "flexible_bodies[i]", "virtual_bodies[i]";
  ///  - "flexible_bodies[i].reference" info: PAC applicable (principal moments distinct);
  ///  - "flexible_bodies[i].file": error, the file is not loaded (and why: missing, unreadable);
  ///    warning, the loaded file is gone from disk; warning, a source changed since the
  ///    reduction (SHA-256 differs); info, a source that cannot be found or has no hash.
  Diagnostics messages;
  /// Ready to run: compiled, assembled, and no message is an error.
  bool ok() const { return compiled && assembled && !messages.hasErrors(); }
};

/// Checks a model as held in memory (FlexibleBodySpec::data loaded, as io::loadModelFile and
/// the GUI's document leave it). modelDir is the folder its reduced-body files are named
/// against ("" = the current directory). Compiles the model but does not run it; hashes the
/// FE source files of its reduced bodies. Never throws: a failure becomes an error message.
ModelCheckReport checkModel(const ModelSpec& model, const std::string& modelDir);

}  // namespace flexim::io
