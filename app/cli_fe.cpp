// flexim-cli commands for FE data: modes, reduce, info.
#include "app/cli_common.h"
#include "core/fe/active_dofs.h"
#include "core/fe/assembly.h"
#include "core/fe/linear_constraints.h"
#include "core/fe/modal.h"
#include "core/fe/sparse_block.h"
#include "core/fe/reduction.h"
#include "core/fe/surface.h"
#include "core/fe/validation_report.h"
#include "io/fe/calculix_dat.h"
#include "io/fe/calculix_frd.h"
#include "io/fe/import.h"
#include "io/fe/reduced_body_file.h"
#include "io/fe/reduced_body_source.h"

#include <cctype>
#include <chrono>
#include <cstdio>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <optional>
#include <sys/resource.h>

namespace flexim::cli {

namespace {

namespace fs = std::filesystem;

/// Options shared by the FE commands.
struct FeArgs {
  std::string input, out;
  std::optional<fe::Material> material;
  std::optional<double> density;  ///< --density: of every material, E and nu kept
  int count = -1;
  double max_frequency = 0;
  std::vector<fe::InterfaceSpec> interfaces;
  std::string method;
  bool orthonormalise = false;
  bool lumped_invariants = false;  ///< --invariants lumped
  bool stiffening = true;          ///< --no-stiffening turns the stiffening load cases off
  bool progress = false;           ///< --progress: machine-readable lines on stdout (reduce)
  /// --node-set NAME:ID,ID,...: node sets added to (or replacing those of) the mesh, by node id
  std::vector<std::pair<std::string, std::vector<int>>> node_sets;
};

/// `reduce --progress` speaks to a parent process (the GUI's reduction job) on stdout, one line
/// each, fields separated by tabs: "stage<TAB>text" as a stage begins, then at the end
/// "diagnostic<TAB>error|warning|info<TAB>where<TAB>message" per diagnostic and
/// "timings<TAB>assembly<TAB>eigen<TAB>stresses<TAB>stiffening" [s]. Tabs and line breaks
/// inside the texts are written as spaces.
class Progress {
 public:
  explicit Progress(bool on) : m_on(on) {}
  void stage(const std::string& text) const { line({"stage", text}); }
  void diagnostics(const Diagnostics& diag) const {
    for (const Diagnostic& d : diag.items()) {
      const char* severity = d.severity == Severity::Error ? "error" : d.severity == Severity::Warning ? "warning" : "info";
      line({"diagnostic", severity, d.where, d.message});
    }
  }
  void timings(const fe::ReductionReport& r) const {
    line({"timings", std::to_string(r.seconds_assembly), std::to_string(r.seconds_eigen), std::to_string(r.seconds_stress),
          std::to_string(r.seconds_stiffening)});
  }

 private:
  void line(std::initializer_list<std::string> fields) const {
    if (!m_on) return;
    std::string out;
    for (std::string f : fields) {
      for (char& c : f)
        if (c == '\t' || c == '\n' || c == '\r') c = ' ';
      out += (out.empty() ? "" : "\t") + f;
    }
    std::printf("%s\n", out.c_str());
    std::fflush(stdout);  // the parent reads it now, not when a pipe buffer fills
  }
  bool m_on;
};

/// Reads --material's E,nu,rho; returns what is wrong with it, or "".
std::string parseMaterial(const std::string& text, fe::Material& m) {
  const std::string usage = "--material needs E,nu,rho in SI units, e.g. 2.1e11,0.3,7850";
  std::vector<double> v;
  size_t start = 0;
  while (start <= text.size()) {
    const size_t comma = text.find(',', start);
    double x = 0;
    const std::string field = text.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
    if (!parseNumber(field, x)) return usage;
    v.push_back(x);
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  if (v.size() != 3) return usage;
  if (const std::string problem = fe::materialProblem(v[0], v[1], v[2]); !problem.empty())
    return "--material: " + problem;
  m.name = "command line";
  m.E = v[0];
  m.nu = v[1];
  m.rho = v[2];
  m.has_elastic = m.has_density = true;
  return {};
}

/// Parses the options; returns an error message or empty.
std::string parseArgs(const std::vector<std::string>& args, FeArgs& a) {
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& o = args[i];
    const bool hasValue = i + 1 < args.size();
    auto next = [&]() { return args[++i]; };
    double x = 0;
    if ((o == "--count" || o == "--modes") && hasValue) {
      if (!parseNumber(next(), x) || x < 1 || x != std::floor(x)) return o + " needs a positive whole number";
      a.count = static_cast<int>(x);
    } else if (o == "--max-frequency" && hasValue) {
      if (!parseNumber(next(), x) || x <= 0) return "--max-frequency needs a positive frequency in Hz";
      a.max_frequency = x;
    } else if (o == "--material" && hasValue) {
      fe::Material m;
      if (const std::string problem = parseMaterial(next(), m); !problem.empty()) return problem;
      a.material = m;
    } else if (o == "--density" && hasValue) {
      if (!parseNumber(next(), x) || !fe::densityProblem(x).empty())
        return "--density needs a positive density in kg/m^3, e.g. 7850";
      a.density = x;
    } else if ((o == "--out" || o == "-o") && hasValue) {
      a.out = next();
    } else if (o == "--interface" && hasValue) {
      std::string v = next();
      fe::InterfaceSpec spec;
      const size_t colon = v.rfind(':');
      if (colon != std::string::npos) {
        const std::string kind = v.substr(colon + 1);
        if (kind == "rigid") spec.kind = fe::Interface::Kind::Rigid;
        else if (kind == "averaging") spec.kind = fe::Interface::Kind::Averaging;
        else return "--interface " + v + ": kind must be rigid or averaging";
        v = v.substr(0, colon);
      }
      spec.set = v;
      a.interfaces.push_back(spec);
    } else if (o == "--reference" && hasValue) {
      const std::string v = next();
      if (a.interfaces.empty()) return "--reference " + v + " sets the reference point of the --interface before it; give that first";
      std::string error;
      if (!fe::parseInterfaceReference(v, a.interfaces.back(), error)) return "--reference " + error;
    } else if (o == "--no-stiffening") {
      a.stiffening = false;
    } else if (o == "--progress") {
      a.progress = true;
    } else if (o == "--node-set" && hasValue) {
      const std::string v = next();
      const size_t colon = v.find(':');
      if (colon == 0 || colon == std::string::npos) return "--node-set needs NAME:ID,ID,... (node ids of the mesh)";
      std::vector<int> ids;
      for (size_t at = colon + 1; at <= v.size();) {
        const size_t comma = std::min(v.find(',', at), v.size());
        if (!parseNumber(v.substr(at, comma - at), x) || x != std::floor(x))
          return "--node-set " + v.substr(0, colon) + ": expected whole node ids separated by commas";
        ids.push_back(static_cast<int>(x));
        at = comma + 1;
      }
      std::string name = v.substr(0, colon);
      for (char& c : name) c = char(std::toupper(static_cast<unsigned char>(c)));
      a.node_sets.emplace_back(name, std::move(ids));
    } else if (o == "--invariants" && hasValue) {
      const std::string v = next();
      if (v != "consistent" && v != "lumped") return "--invariants must be consistent or lumped";
      a.lumped_invariants = v == "lumped";
    } else if (o == "--method" && hasValue) {
      a.method = next();
      if (a.method != "free-free" && a.method != "craig-bampton") return "--method must be free-free or craig-bampton";
    } else if (o == "--orthonormalise" || o == "--orthonormalize") {
      a.orthonormalise = true;
    } else if (!o.empty() && o[0] == '-') {
      return "unknown option '" + o + "' (or missing value)";
    } else if (a.input.empty()) {
      a.input = o;
    } else {
      return "unexpected argument '" + o + "'";
    }
  }
  if (a.input.empty()) return "an input file is needed";
  return {};
}

bool importMesh(const FeArgs& a, fe::FeModel& mesh, const Progress& progress = Progress(false)) {
  Diagnostics diag;
  const bool ok = io::importFe(a.input, mesh, diag);
  printDiagnostics(diag);
  progress.diagnostics(diag);
  return ok;
}

/// The FE program's own results beside the input (same stem): .dat frequencies, .frd modes.
void loadReferences(const std::string& input, const fe::FeModel& mesh, std::vector<double>& hz, Eigen::MatrixXd& modes) {
  const fs::path p(input);
  const fs::path dat = fs::path(p).replace_extension(".dat"), frd = fs::path(p).replace_extension(".frd");
  Diagnostics ignored;
  if (p.extension() != ".dat" && fs::exists(dat)) io::readCalculixDat(dat.string(), hz, ignored);
  if (p.extension() != ".frd" && fs::exists(frd)) {
    fe::FeModel withModes = mesh;
    if (io::readCalculixFrd(frd.string(), withModes, ignored)) {
      modes = withModes.modes;
      if (hz.empty()) hz = withModes.frequencies_hz;
    }
  }
}

std::string lowerExtension(const std::string& path) {
  std::string ext = fs::path(path).extension().string();
  for (char& c : ext) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return ext;
}

/// Why the elements cannot be assembled for want of material data, with the option that supplies
/// it (worded for the input's format); empty if nothing is missing or the assembly will say what.
std::string missingMaterialData(const fe::FeModel& mesh, const FeArgs& a) {
  if (a.material || mesh.elements.empty()) return {};
  const std::string ext = lowerExtension(a.input);
  const char* example = "--material E,nu,rho (SI units, e.g. --material 2.1e11,0.3,7850)";
  const fe::MissingMaterialData missing = fe::missingMaterialData(mesh);
  const auto names = [](const std::vector<std::string>& list) {
    std::string all;
    for (const std::string& n : list) all += (all.empty() ? "" : ", ") + n;
    return all;
  };
  if (missing.unassigned)
    return ext == ".msh" ? std::string("a Gmsh mesh holds no materials: give one with ") + example
                         : "the file defines no material: give one with " + std::string(example);
  if (!missing.no_elastic.empty()) return "material " + names(missing.no_elastic) + " has no elastic constants: give " + example;
  if (!missing.no_density.empty() && !a.density) {
    const char* card = ext == ".inp" ? " (no *DENSITY)" : ext == ".bdf" || ext == ".nas" || ext == ".dat" ? " (no RHO)" : "";
    return "material " + names(missing.no_density) + " has no density" + card +
           ": give it with --density RHO in kg/m^3 (e.g. --density 7850; E and nu stay the deck's), or " + example;
  }
  return {};
}

/// One line saying what the importer dropped that changes the answer (FeModel::model_changes).
void printModelChanges(const fe::FeModel& mesh) {
  if (mesh.model_changes.empty()) return;
  std::string all;
  for (const std::string& c : mesh.model_changes) all += (all.empty() ? "" : "; ") + c;
  std::printf("the reduced model differs from the deck: %s\n", all.c_str());
}

}  // namespace

int modesCommand(const std::vector<std::string>& args) {
  FeArgs a;
  if (const std::string e = parseArgs(args, a); !e.empty()) return fail("modes: " + e);
  fe::FeModel mesh;
  if (!importMesh(a, mesh)) return fail("cannot import '" + a.input + "'");
  if (const std::string why = missingMaterialData(mesh, a); !why.empty())
    return fail("cannot assemble '" + a.input + "': " + why);
  fe::AssemblyOptions aopt;
  if (a.material) aopt.override_material = &*a.material;
  aopt.override_density = a.density.value_or(0.0);
  fe::AssembledMatrices mats;
  Diagnostics diag;
  const auto t0 = std::chrono::steady_clock::now();
  if (!fe::assemble(mesh, aopt, mats, diag)) {
    printDiagnostics(diag);
    return fail("cannot assemble '" + a.input + "'");
  }
  fe::ModalOptions mopt;
  mopt.elastic_modes = a.count > 0 ? a.count : 10;
  mopt.max_frequency_hz = a.max_frequency;
  fe::ModalResult modes;
  const std::optional<fe::FeModel> applied = fe::withCouplingsApplied(mesh, {}, diag);  // no interfaces here
  fe::noteLeftOut(applied ? *applied : mesh, fe::activeDofs(mats.K, mats.M, mesh.nodeCount()), diag);
  // the eigen solution reads the lower triangles only: half the memory of K and M at its peak
  fe::keepLowerTriangle(mats.K);
  fe::keepLowerTriangle(mats.M);
  const bool ok = fe::freeModesOfMesh(applied ? *applied : mesh, mats.K, mats.M, mopt, modes, diag);
  printDiagnostics(diag);
  if (!ok) return fail("eigen solution failed for '" + a.input + "'");
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  const std::vector<double> f = modes.frequenciesHz();
  std::printf("%s: %d nodes, %zu elements; %ld modes in %.2f s\n", a.input.c_str(), mesh.nodeCount(),
              mesh.elements.size(), static_cast<long>(f.size()), seconds);
  std::printf("mode,frequency [Hz],kind\n");
  for (size_t i = 0; i < f.size(); ++i) std::printf("%zu,%.8g,%s\n", i + 1, f[i], modes.rigid[i] ? "rigid" : "elastic");
  if (!a.out.empty()) {
    std::ofstream csv(a.out);
    csv << "mode,frequency [Hz],kind\n";
    char line[96];
    for (size_t i = 0; i < f.size(); ++i) {
      std::snprintf(line, sizeof line, "%zu,%.10g,%s\n", i + 1, f[i], modes.rigid[i] ? "rigid" : "elastic");
      csv << line;
    }
    if (!csv) return fail("cannot write '" + a.out + "'");
    std::printf("written: %s\n", a.out.c_str());
  }
  return 0;
}

int reduceCommand(const std::vector<std::string>& args) {
  FeArgs a;
  if (const std::string e = parseArgs(args, a); !e.empty()) return fail("reduce: " + e);
  if (a.out.empty()) return fail("reduce: --out BODY.frb is required");
  const Progress progress(a.progress);
  progress.stage("Reading " + fs::path(a.input).filename().string() + "…");
  fe::FeModel mesh;
  if (!importMesh(a, mesh, progress)) return fail("cannot import '" + a.input + "'");
  for (const auto& [name, ids] : a.node_sets) {
    std::vector<int>& set = mesh.node_sets[name];
    set.clear();
    for (int id : ids) {
      const int index = mesh.indexOf(id);
      if (index < 0) {
        Diagnostics refused;
        refused.error("--node-set " + name, "no node " + std::to_string(id) + " in the mesh");
        progress.diagnostics(refused);
        return fail("--node-set " + name + ": no node " + std::to_string(id) + " in '" + a.input + "'");
      }
      set.push_back(index);
    }
  }
  if (const std::string why = missingMaterialData(mesh, a); !why.empty()) {
    Diagnostics refused;
    refused.error(a.input, "cannot reduce: " + why);
    progress.diagnostics(refused);
    return fail("cannot reduce '" + a.input + "': " + why);
  }
  progress.stage("Assembling " + std::to_string(mesh.nodeCount()) + " nodes and solving for the modes…");
  fe::ReductionOptions opt;
  opt.modes = a.count > 0 ? a.count : 8;
  opt.max_frequency_hz = a.max_frequency;
  opt.interfaces = a.interfaces;
  opt.orthonormalise = a.orthonormalise;
  if (a.lumped_invariants) opt.invariant_mass = fe::ReductionOptions::InvariantMass::Lumped;
  opt.geometric_stiffening = a.stiffening;
  if (a.material) opt.material = &*a.material;
  opt.density = a.density.value_or(0.0);
  const bool cb = a.method.empty() ? !a.interfaces.empty() : a.method == "craig-bampton";
  opt.method = cb ? fe::ReductionOptions::Method::CraigBampton : fe::ReductionOptions::Method::FreeFree;
  fe::ReducedBody body;
  fe::ReductionReport report;
  Diagnostics diag;
  const bool ok = fe::reduce(mesh, opt, body, report, diag);
  printDiagnostics(diag);
  progress.diagnostics(diag);
  if (!ok) return fail("reduction of '" + a.input + "' failed");
  progress.stage("Finding the display surface…");
  io::describeReducedBody(mesh, a.input, body);
  std::string error;
  if (!io::saveReducedBody(body, a.out, &error)) {
    Diagnostics unwritten;
    unwritten.error(a.out, error);
    progress.diagnostics(unwritten);
    return fail(error);
  }
  progress.timings(report);
  fe::ValidationReport r;
  fe::reportReducedBody(body, r);
  std::printf("%s", r.str().c_str());
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);  // ru_maxrss in KiB on Linux
  const fe::ModalResult::Seconds& eigen = report.modal.seconds;
  char onEigenFactor[96] = "";
  if (report.stiffening_on_eigen_factor)
    std::snprintf(onEigenFactor, sizeof onEigenFactor, " (solves %.2f s: %d iterations on the eigen solution's factor)",
                  eigen.statics, report.modal.static_iterations);
  std::printf("assembly %.2f s, eigen solution %.2f s (factorisation %.2f s, Lanczos %.2f s, residual check %.2f s, "
              "Sturm check %.2f s), stresses %.2f s, stiffening load cases %.2f s%s; peak memory %.0f MB\nwritten: %s\n",
              report.seconds_assembly, report.seconds_eigen, eigen.factorise, eigen.iterate, eigen.residuals, eigen.sturm,
              report.seconds_stress, report.seconds_stiffening, onEigenFactor,
              static_cast<double>(usage.ru_maxrss) / 1024.0, a.out.c_str());
  return 0;
}

int infoCommand(const std::vector<std::string>& args) {
  FeArgs a;
  if (const std::string e = parseArgs(args, a); !e.empty()) return fail("info: " + e);
  fe::ValidationReport r;
  if (fs::path(a.input).extension() == ".frb") {
    fe::ReducedBody body;
    std::string error;
    if (!io::loadReducedBody(a.input, body, &error)) return fail(error);
    fe::reportReducedBody(body, r);
    std::printf("%s", r.str().c_str());
    return 0;
  }
  fe::FeModel mesh;
  if (!importMesh(a, mesh)) return fail("cannot import '" + a.input + "'");
  fe::reportMesh(mesh, r, {a.material ? &*a.material : nullptr, a.density.value_or(0.0)});
  if (const std::string why = missingMaterialData(mesh, a); !why.empty()) {
    std::printf("%s", r.str().c_str());  // the mesh report is still worth reading
    printModelChanges(mesh);
    return fail("no modes for '" + a.input + "': " + why);
  }
  std::vector<double> refHz = mesh.frequencies_hz;
  Eigen::MatrixXd refModes = mesh.modes;
  if (refHz.empty()) loadReferences(a.input, mesh, refHz, refModes);
  Eigen::SparseMatrix<double> K = mesh.K, M = mesh.M;
  std::vector<Eigen::Vector3d> coords = mesh.coords;
  Diagnostics solveDiag;
  bool solved = true;  // no matrices: nothing to solve
  const bool assembled = !mesh.elements.empty() || !mesh.masses.empty() || !mesh.springs.empty();
  if (assembled) {
    fe::AssemblyOptions aopt;
    if (a.material) aopt.override_material = &*a.material;
    aopt.override_density = a.density.value_or(0.0);
    fe::AssembledMatrices mats;
    Diagnostics diag;
    if (!fe::assemble(mesh, aopt, mats, diag)) {
      printDiagnostics(diag);
      std::printf("%s", r.str().c_str());
      printModelChanges(mesh);
      return fail("cannot assemble '" + a.input + "'");
    }
    solveDiag.append(diag);  // warnings of the assembly
    fe::reportMatrices(mesh, mats, r);
    K.swap(mats.K);
    M.swap(mats.M);
  } else if (K.rows() > 0) {
    r.add("matrix set: " + std::to_string(K.rows()) + " dofs");
    if (static_cast<long>(coords.size()) * 3 != K.rows()) coords.clear();  // no geometry: no exact rigid modes
  }
  if (K.rows() > 0) {
    fe::ModalOptions mopt;
    mopt.elastic_modes = a.count > 0 ? a.count : std::max<int>(4, static_cast<int>(refHz.size()) - 6);
    mopt.exact_rigid_modes = !coords.empty();
    fe::ModalResult modes;
    Diagnostics& diag = solveDiag;
    const fe::ActiveDofs active =
        fe::activeDofs(K, M, static_cast<long>(coords.size()) * 3 == K.rows() ? static_cast<int>(coords.size()) : 0);
    const std::optional<fe::FeModel> applied = assembled ? fe::withCouplingsApplied(mesh, {}, diag) : std::nullopt;
    fe::noteLeftOut(applied ? *applied : mesh, active, diag);
    // the eigen solution reads the lower triangles only: half the memory of K and M at its peak
    fe::keepLowerTriangle(K);
    fe::keepLowerTriangle(M);
    solved = assembled ? fe::freeModesOfMesh(applied ? *applied : mesh, K, M, mopt, modes, diag)  // with the deck's constraints
                       : fe::freeModesOfActive(K, M, coords, mopt, active, modes, diag);
    if (solved) {
      if (refModes.rows() != modes.modes.rows()) refModes.resize(0, 0);
      fe::reportModes(modes, refHz, refModes, M, r);
    }
  }
  for (const auto& d : solveDiag.items()) {
    if (d.severity == Severity::Info) r.add("note: " + d.message);
    else r.warn(d.message);
  }
  std::printf("%s", r.str().c_str());
  printModelChanges(mesh);
  // the report is still worth reading; the exit status says the modes are missing
  if (!solved) return fail("no modes for '" + a.input + "': the eigen solution failed (see the warnings above)");
  return 0;
}

}  // namespace flexim::cli
