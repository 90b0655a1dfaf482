#include "io/model_check.h"

#include "core/fe/reduced_body.h"
#include "core/model/body_table.h"
#include "core/model/topology.h"
#include "core/model/validate.h"
#include "core/system/reference_conditions.h"
#include "io/fe/reduced_body_file.h"
#include "io/sha256.h"

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <map>
#include <mutex>
#include <optional>

namespace flexim::io {

namespace {

namespace fs = std::filesystem;

std::string flexWhere(std::size_t i) { return "flexible_bodies[" + std::to_string(i) + "]"; }

/// A reduced-body file as the loader finds it: relative names are relative to the model's folder.
fs::path reducedBodyPath(const std::string& modelDir, const std::string& file) {
  return (fs::path(modelDir) / fs::path(file)).lexically_normal();
}

bool isFile(const fs::path& p) {
  std::error_code ec;
  return fs::is_regular_file(p, ec);
}

/// Where a source recorded in a reduced body is now. `reduce` records the path it was given, so
/// a relative one is relative to wherever it ran: look next to the reduced-body file (with the
/// recorded folders, then without), then in the model's folder.
std::optional<fs::path> findSource(const std::string& recorded, const fs::path& frb, const std::string& modelDir) {
  const fs::path p(recorded);
  if (p.is_absolute()) return isFile(p) ? std::optional(p) : std::nullopt;
  const fs::path dir = frb.parent_path();
  for (const fs::path& candidate : {dir / p, dir / p.filename(), fs::path(modelDir) / p})
    if (isFile(candidate)) return candidate.lexically_normal();
  return std::nullopt;
}

/// SHA-256 of a file as lower-case hex, or "" with error set when it cannot be read. A file whose
/// size and modification time are those of its last hash in this process is not read again: the
/// GUI checks the model at every run, and the FE deck behind a large body is hundreds of MB.
std::string sourceHash(const fs::path& path, std::string& error) {
  struct Hash {
    std::string hex, error;
    std::uintmax_t size = 0;
    fs::file_time_type time{};
  };
  static std::mutex mutex;
  static std::map<std::string, Hash> hashes;
  std::error_code ec;
  const auto size = fs::file_size(path, ec);
  const auto time = ec ? fs::file_time_type{} : fs::last_write_time(path, ec);
  const std::lock_guard lock(mutex);
  Hash& h = hashes[path.string()];
  if (ec || h.size != size || h.time != time || (h.hex.empty() && h.error.empty())) {
    h = Hash{};
    if (!ec) h.size = size, h.time = time;
    if (!sha256FileHex(path.string(), h.hex, &h.error)) h.hex.clear();
  }
  error = h.error;
  return h.hex;
}

/// Why a flexible body's file did not load, for the validation error that says it is not loaded.
std::string whyNotLoaded(const fs::path& path) {
  if (!isFile(path)) return inQuotes(path.string()) + " does not exist";
  fe::ReducedBody body;
  std::string error;
  if (!loadReducedBody(path.string(), body, &error)) return error.empty() ? "cannot be read" : error;
  return "the file reads now: set it again or reopen the model";
}

/// Missing reduced-body files, and loaded ones whose FE sources changed since the reduction.
void checkReducedBodyFiles(const ModelSpec& model, const std::string& modelDir, Diagnostics& validation,
                           Diagnostics& out) {
  for (std::size_t i = 0; i < model.flexible_bodies.size(); ++i) {
    const FlexibleBodySpec& body = model.flexible_bodies[i];
    if (body.file.empty() || !fileNameProblem(body.file).empty()) continue;  // validate() says why
    const std::string where = flexWhere(i) + ".file";
    const fs::path frb = reducedBodyPath(modelDir, body.file);
    if (!body.data) {
      // validate() reports the file as not loaded (an error); say why there, not twice
      const std::string why = whyNotLoaded(frb);
      bool told = false;
      for (Diagnostic& d : validation.items())
        if (d.where == where && d.severity == Severity::Error) {
          d.message += ": " + why;
          told = true;
        }
      if (!told) out.error(where, "reduced-body file " + inQuotes(body.file) + ": " + why);
      continue;
    }
    if (!isFile(frb))
      out.warning(where, "reduced-body file " + inQuotes(frb.string()) +
                             " is gone: the run uses the copy loaded, but the model will not load again");
    if (body.data->sources.empty())
      out.info(where, "the reduced body records no source file: whether it is up to date cannot be told");
    for (const fe::SourceFile& source : body.data->sources) {
      const std::string name = inQuotes(source.path);
      if (source.sha256.empty()) {
        out.info(where, "the reduced body records no hash of its source " + name +
                            ": whether it changed since the reduction cannot be told");
        continue;
      }
      const std::optional<fs::path> found = findSource(source.path, frb, modelDir);
      if (!found) {
        out.info(where, "source " + name + " not found next to " + inQuotes(frb.string()) +
                            " or in the model's folder: whether it changed since the reduction cannot be told");
        continue;
      }
      std::string error;
      const std::string hex = sourceHash(*found, error);
      const std::string read = found->string() == source.path ? "" : " (read from " + inQuotes(found->string()) + ")";
      if (hex.empty())
        out.info(where, "source " + name + " cannot be read (" + error +
                            "): whether it changed since the reduction cannot be told");
      else if (hex != source.sha256)
        out.warning(where, "source " + name + " changed since the reduction (hash differs); reduce again" + read);
    }
  }
}

/// The figures of a compiled model as messages: DOF, assembly, redundant rows.
void figureMessages(const ModelCheck& c, bool assembled, Diagnostics& out) {
  out.info("", std::to_string(c.dof) + (c.dof == 1 ? " degree" : " degrees") + " of freedom: " +
                   std::to_string(c.coordinates) + " coordinates, " + std::to_string(c.constraint_rows) +
                   " constraint equations, " + std::to_string(c.rank) + " independent");
  if (!assembled) {
    char buf[160];
    std::snprintf(buf, sizeof buf, " (position residual %.3g m after assembly, limit %.3g m)",
                  c.assembled_position_residual, kAssemblyTolerance);
    out.error("", std::string("the initial configuration cannot be assembled onto the joints") + buf);
  }
  for (const RedundantConstraint& r : c.redundant_elements)
    out.warning(r.where, r.label + ": " + std::to_string(r.rows) +
                             (r.rows == 1 ? " constraint row depends" : " constraint rows depend") +
                             " on the others (redundant): the model runs, but its reactions are not unique "
                             "(docs/theory/redundant-constraints.md)");
}

/// PAC need distinct principal moments; a PAC body that has them is told so, one that has not
/// is refused by the compile (here only when the model was not compiled).
void principalAxisMessages(const ModelSpec& model, bool compileTried, Diagnostics& out) {
  for (std::size_t i = 0; i < model.flexible_bodies.size(); ++i) {
    const FlexibleBodySpec& body = model.flexible_bodies[i];
    if (body.reference != ReferenceFrame::PrincipalAxis || !body.data) continue;
    const PrincipalAxisCheck pac = PrincipalAxisConditions::applicability(body.data->invariants);
    const std::string where = flexWhere(i) + ".reference";
    if (!pac.distinct) {
      if (!compileTried) out.error(where, "flexible body " + inQuotes(body.name) + ": " + pac.warning);
      continue;
    }
    char buf[200];
    std::snprintf(buf, sizeof buf,
                  "principal-axis conditions apply: principal moments of inertia %.6g, %.6g, %.6g kg m^2 "
                  "(relative gap %.3g)",
                  pac.principalMoments(0), pac.principalMoments(1), pac.principalMoments(2), pac.minRelativeGap);
    out.info(where, buf);
  }
}

}  // namespace

ModelCheckReport checkModel(const ModelSpec& model, const std::string& modelDir) {
  ModelCheckReport report;
  Diagnostics& out = report.messages;
  try {
    Diagnostics validation = validate(model);
    Diagnostics files;
    checkReducedBodyFiles(model, modelDir, validation, files);
    out.append(validation);
    out.append(files);

    // compiling repeats validate()'s errors, so a model that has some is not compiled
    if (!validation.hasErrors()) {
      Diagnostics compile;
      const auto simulation = Simulation::create(model, compile);
      out.append(compile);  // virtual-body nodes, near-singular rigid-flexible joints, ill-posed PAC
      if (simulation) {
        report.compiled = true;
        report.figures = simulation->check();
        report.assembled = report.figures.assembled_position_residual <= kAssemblyTolerance;
        figureMessages(report.figures, report.assembled, out);
      }
    }

    const Topology topology = buildTopology(model);
    report.topology = describe(topology);
    const BodyTable bodies(model);
    const std::vector<int> free = heldByForces(topology, model).notConnectedToGround();
    for (int v : topology.notConnectedToGround()) {
      const BodyEntry& body = bodies[Topology::poseOf(v)];
      const std::string what = body.kind->noun + " " + inQuotes(body.name) + " is not connected to ground by any joint";
      if (std::find(free.begin(), free.end(), v) != free.end())
        out.warning(body.path, what + ": it floats free");
      else
        out.info(body.path, what + "; force elements or contacts (springs, bushings, contacts) hold it");
    }
    // Massless items: virtual bodies are the only ones (a rigid body's mass must be positive),
    // and each is attached to its flexible body by construction; validate() reports one that
    // names no flexible body, and the topology above one whose body floats free.
    principalAxisMessages(model, !validation.hasErrors(), out);

    // the structured location too, as validate() gives it: item "joints[4] 'pin'", field "file"
    for (Diagnostic& d : out.items()) {
      if (!d.location.item.empty() || d.where.empty()) continue;
      d.location.item = itemLabel(model, d.where);
      const std::size_t close = d.where.find(']');
      if (close != std::string::npos && close + 2 < d.where.size()) d.location.field = d.where.substr(close + 2);
    }
  } catch (const std::exception& e) {
    out.error("", std::string("the model check failed: ") + e.what());
  }
  return report;
}

}  // namespace flexim::io
