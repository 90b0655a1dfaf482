// CalculiX / Abaqus .inp keyword lines: the keywords Flexim knows (read, skipped silently, skipped
// with an info, or skipped as a change of the model), the dispatch of a keyword line to its block,
// *MATERIAL with *ELASTIC, *DENSITY and its other options, *INCLUDE; and the text helpers of
// keyword lines.
#include "io/fe/calculix_inp_parser.h"
#include "io/fe/line_reader.h"

#include <filesystem>
#include <map>
#include <set>
#include <string>
#include <system_error>
#include <vector>

namespace flexim::io::inp_detail {

std::string withoutBlanks(std::string_view s) {
  std::string out;
  for (char c : s)
    if (c != ' ') out += c;
  return out;
}

bool startsWith(std::string_view s, std::string_view prefix) {
  return s.size() >= prefix.size() && s.substr(0, prefix.size()) == prefix;
}

std::string_view unquote(std::string_view s) {
  s = trim(s);
  if (s.size() >= 2 && s.front() == '"' && s.back() == '"') return s.substr(1, s.size() - 2);
  return s;
}

namespace {

namespace fs = std::filesystem;

// Keywords that describe the analysis, loads or output: not part of the model, skipped silently.
const std::set<std::string, std::less<>> kSilentKeywords{
    "STEP", "END STEP", "FREQUENCY", "STATIC", "DYNAMIC", "MODAL DYNAMIC", "STEADY STATE DYNAMICS",
    "BUCKLE", "HEAT TRANSFER", "COUPLED TEMPERATURE-DISPLACEMENT", "UNCOUPLED TEMPERATURE-DISPLACEMENT",
    "VISCO", "GREEN", "COMPLEX FREQUENCY", "SENSITIVITY", "NO ANALYSIS", "ELECTROMAGNETICS",
    "CFD", "NODE FILE", "EL FILE", "ELEMENT FILE", "NODE PRINT", "EL PRINT", "ELEMENT PRINT",
    "NODE OUTPUT", "ELEMENT OUTPUT", "EL OUTPUT", "OUTPUT", "CONTACT FILE", "CONTACT PRINT",
    "CONTACT OUTPUT", "SECTION PRINT", "ENERGY PRINT", "FACE PRINT", "PREPRINT", "RESTART",
    "CONTROLS", "TIME POINTS", "SUBSTRUCTURE GENERATE", "SUBSTRUCTURE MATRIX OUTPUT",
    "RETAINED NODAL DOFS", "MATRIX GENERATE", "MATRIX OUTPUT", "ELEMENT MATRIX OUTPUT",
    "SELECT CYCLIC SYMMETRY MODES", "FILE FORMAT", "SUMMARY", "BOUNDARY", "CLOAD", "DLOAD",
    "DSLOAD", "TEMPERATURE", "CFLUX", "DFLUX", "FILM", "RADIATE", "INITIAL CONDITIONS", "AMPLITUDE",
    "MODAL DAMPING", "BASE MOTION", "CHANGE MATERIAL", "CHANGE PLASTIC", "CHANGE SURFACE BEHAVIOR",
    "CHANGE FRICTION", "CHANGE SOLID SECTION", "MODEL CHANGE", "OBJECTIVE", "CONSTRAINT",
    "DESIGNVARIABLES", "FILTER", "GEOMETRIC TOLERANCES", "NETWORK MPC", "REFINE MESH", "CRACK PROPAGATION",
    "CLEARANCE", "DISTRIBUTION", "MASS FLOW", "TRANSFORMF", "VALUES AT INFINITY", "SUBMODEL",
    "INITIAL STRAIN INCREASE", "PHYSICAL CONSTANTS"};

// Model keywords that the FE model has no place for but that do not change mass, stiffness or
// connectivity (they matter only with something else that is dropped, e.g. friction with a
// *CONTACT PAIR, or describe damping): skipped with one info each.
const std::set<std::string, std::less<>> kHarmlessModelKeywords{
    "SURFACE INTERACTION", "SURFACE BEHAVIOR", "FRICTION", "GAP CONDUCTANCE", "GAP HEAT GENERATION",
    "DASHPOT", "NORMAL", "NODAL THICKNESS"};

// Model keywords whose loss changes mass, stiffness or connectivity: skipped with one warning
// each that says what is affected, and one phrase in FeModel::model_changes (the CLI's `info`
// ends with "the reduced model differs from the deck: ..."). *RIGID BODY and *COUPLING are read
// as couplings (interface candidates), *ORIENTATION and anisotropic *ELASTIC types are handled
// where they are read.
const std::map<std::string, const char*, std::less<>> kModelChangingKeywords{
    {"MPC", "multi-point constraints not applied"},
    {"CONTACT PAIR", "contact not modelled (the surfaces are not connected)"},
    {"DISTRIBUTING COUPLING", "distributing coupling elements not applied"},
    {"TRANSFORM", "local node directions not applied"},
    {"GAP", "gap elements not imported"},
    {"SHELL SECTION", "shell elements not imported (their stiffness and mass are missing)"},
    {"MEMBRANE SECTION", "membrane elements not imported (their stiffness and mass are missing)"},
    {"BEAM SECTION", "beam elements not imported (their stiffness and mass are missing)"},
    {"BEAM GENERAL SECTION", "beam elements not imported (their stiffness and mass are missing)"},
    {"FLUID SECTION", "fluid elements not imported"},
    {"MATRIX ASSEMBLE", "stiffness and mass matrices read from files not added"},
    {"COHESIVE SECTION", "cohesive elements not imported (the parts they join are not connected)"},
    {"USER SECTION", "user elements not imported"},
    {"USER ELEMENT", "user elements not imported"},
    {"EMBEDDED ELEMENT", "embedded elements not tied to their host"},
    {"PRE-TENSION SECTION", "pre-tension sections not applied"},
    {"CYCLIC SYMMETRY MODEL", "cyclic symmetry not applied (the sector is reduced as a body of its own)"}};

// Sub-options of *MATERIAL: they keep the current material open. Only *ELASTIC (isotropic) and
// *DENSITY are read; the others are skipped with a warning (the body is linear elastic), and the
// ones listed in kStiffnessMaterialOptions also change the model (they define the stiffness
// instead of an isotropic *ELASTIC). A keyword unknown to Flexim inside a material is skipped with
// a warning and does not end the material either (ccx does the same).
const std::set<std::string, std::less<>> kMaterialOptions{
    "ELASTIC", "DENSITY", "EXPANSION", "CONDUCTIVITY", "SPECIFIC HEAT", "PLASTIC", "CYCLIC HARDENING",
    "DEFORMATION PLASTICITY", "DAMPING", "HYPERELASTIC", "HYPERFOAM", "ANISOTROPIC HYPERELASTIC",
    "USER MATERIAL", "DEPVAR", "CREEP", "ELECTRICAL CONDUCTIVITY", "MAGNETIC PERMEABILITY",
    "FLUID CONSTANTS", "SPECIFIC GAS CONSTANT"};
const std::set<std::string, std::less<>> kStiffnessMaterialOptions{
    "DEFORMATION PLASTICITY", "HYPERELASTIC", "HYPERFOAM", "ANISOTROPIC HYPERELASTIC", "USER MATERIAL"};

// Keywords read by the parser itself (with kSilentKeywords, kHarmlessModelKeywords,
// kModelChangingKeywords, kMaterialOptions and kPartKeywords: the keywords Flexim knows).
const std::set<std::string, std::less<>> kReadKeywords{
    "HEADING", "NODE", "ELEMENT", "NSET", "ELSET", "MATERIAL", "MASS", "ROTARY INERTIA", "SPRING", "SOLID SECTION",
    "SURFACE", "RIGID BODY", "COUPLING", "KINEMATIC", "DISTRIBUTING", "ORIENTATION", "SYSTEM", "INCLUDE",
    "EQUATION", "TIE"};

const std::set<std::string, std::less<>> kPartKeywords{"PART", "END PART", "ASSEMBLY", "END ASSEMBLY",
                                                       "INSTANCE", "END INSTANCE"};

/// The keyword Flexim knows by this name, blanks not counting ("SOLIDSECTION" -> "SOLID SECTION",
/// as ccx reads it); empty if it knows none.
std::string knownKeyword(const std::string& name) {
  static const std::map<std::string, std::string> byLetters = [] {
    std::map<std::string, std::string> m;
    for (const auto* table : {&kSilentKeywords, &kHarmlessModelKeywords, &kMaterialOptions, &kReadKeywords, &kPartKeywords})
      for (const std::string& k : *table) m.emplace(withoutBlanks(k), k);
    for (const auto& [k, phrase] : kModelChangingKeywords) m.emplace(withoutBlanks(k), k);
    return m;
  }();
  const auto it = byLetters.find(withoutBlanks(name));
  return it == byLetters.end() ? std::string() : it->second;
}

/// Upper case, blanks collapsed to single ones, trimmed.
std::string normalizeKeyword(std::string_view s) {
  std::string out;
  bool blank = false;
  for (char c : trim(s)) {
    if (c == ' ' || c == '\t') {
      blank = true;
      continue;
    }
    if (blank && !out.empty()) out += ' ';
    blank = false;
    out += (c >= 'a' && c <= 'z') ? static_cast<char>(c - 'a' + 'A') : c;
  }
  return out;
}

/// Splits a keyword line at commas outside double quotes.
void splitKeywordFields(std::string_view line, std::vector<std::string_view>& out) {
  out.clear();
  bool inQuote = false;
  std::size_t start = 0;
  for (std::size_t i = 0; i < line.size(); ++i) {
    if (line[i] == '"') inQuote = !inQuote;
    if (line[i] == ',' && !inQuote) {
      out.push_back(trim(line.substr(start, i - start)));
      start = i + 1;
    }
  }
  out.push_back(trim(line.substr(start)));
}

}  // namespace

// ============================== keywords =================================================

void Parser::keywordLine(std::string_view line, Loc loc) {
  splitKeywordFields(line.substr(1), m_fields);
  Keyword k;
  k.name = normalizeKeyword(m_fields[0]);
  if (const std::string canonical = knownKeyword(k.name); !canonical.empty()) k.name = canonical;
  for (std::size_t i = 1; i < m_fields.size(); ++i) {
    const std::string_view f = m_fields[i];
    if (f.empty()) continue;  // trailing comma
    const std::size_t eq = f.find('=');
    if (eq == std::string_view::npos)
      k.params.emplace_back(normalizeKeyword(f), std::string());
    else
      k.params.emplace_back(normalizeKeyword(f.substr(0, eq)), std::string(unquote(f.substr(eq + 1))));
  }

  if (k.name == "INCLUDE") {  // data lines of the current block may continue in the included file
    include(k, loc);
    return;
  }
  endBlock();
  m_block = Block::Skip;
  m_blockLoc = loc;
  m_blockName = "*" + k.name;
  m_blockDataLines = 0;
  if (m_couplingOpen && k.name != "KINEMATIC" && k.name != "DISTRIBUTING") closeCoupling();
  // a material ends at the next keyword Flexim knows that is not one of its options; unknown
  // keywords (and a lone '*') inside it are skipped without ending it, as ccx does
  const bool known = !knownKeyword(k.name).empty();
  const int material = m_material;
  if (known && !kMaterialOptions.count(k.name)) m_material = -1;

  if (k.name.empty()) {
    warning(loc, "a lone '*' line is skipped (ccx skips it with a warning too)");
  } else if (k.name == "HEADING") {
    m_block = Block::Heading;
  } else if (k.name == "NODE") {
    if (const std::string* sys = k.get("SYSTEM"); sys && !equalsIgnoreCase(trim(*sys), "R")) {
      error(loc, "*NODE, SYSTEM=" + *sys + ": only rectangular coordinates (SYSTEM=R) are supported");
      return;
    }
    if (k.has("INPUT")) {
      error(loc, "*NODE, INPUT=: reading node data from another file is not supported; use *INCLUDE");
      return;
    }
    m_block = Block::Node;
    m_blockSet = nullptr;
    if (const std::string* s = k.get("NSET")) {
      if (trim(*s).empty())
        error(loc, "*NODE: NSET= needs a name");
      else
        m_blockSet = &pendingSet(false, toUpper(trim(*s)), loc);
    }
  } else if (k.name == "ELEMENT") {
    startElementBlock(k, loc);
  } else if (k.name == "NSET" || k.name == "ELSET") {
    const bool elements = k.name == "ELSET";
    const std::string* name = k.get(elements ? "ELSET" : "NSET");
    if (!name || trim(*name).empty()) {
      error(loc, m_blockName + " needs " + (elements ? "ELSET=" : "NSET=") + "<name>");
      return;
    }
    for (const auto& p : k.params)
      if (p.first != "ELSET" && p.first != "NSET" && p.first != "GENERATE" && p.first != "UNSORTED" &&
          p.first != "INTERNAL")
        warning(loc, m_blockName + ": parameter " + p.first + " is not supported (ignored)");
    if (!elements && k.has("ELSET"))
      warning(loc, "*NSET: parameter ELSET is not supported (ignored)");
    m_block = elements ? Block::ElSet : Block::NSet;
    m_generate = k.has("GENERATE");
    m_blockSet = &pendingSet(elements, toUpper(trim(*name)), loc);
  } else if (k.name == "MATERIAL") {
    const std::string* name = k.get("NAME");
    if (!name || trim(*name).empty()) {
      error(loc, "*MATERIAL needs NAME=<name>");
      return;
    }
    const std::string upper = toUpper(trim(*name));
    if (auto it = m_materialLoc.find(upper); it != m_materialLoc.end()) {
      error(loc, "material " + upper + " is defined twice (first at " + where(it->second) + ")");
      return;
    }
    fe::Material mat;
    mat.name = upper;
    m_model.materials.push_back(mat);
    m_materialLoc.emplace(upper, loc);
    m_material = static_cast<int>(m_model.materials.size()) - 1;
    m_block = Block::Skip;  // *MATERIAL has no data lines
  } else if (kMaterialOptions.count(k.name)) {
    materialOption(k, loc);
  } else if (k.name == "MASS" || k.name == "ROTARY INERTIA" || k.name == "SPRING") {
    const std::string* elset = k.get("ELSET");
    if (!elset || trim(*elset).empty()) {
      error(loc, m_blockName + " needs ELSET=<set>");
      return;
    }
    DiscreteSection sec;
    sec.keyword = k.name;
    sec.elset = toUpper(trim(*elset));
    sec.loc = loc;
    sec.nonlinear = k.has("NONLINEAR");
    sec.orientation = k.has("ORIENTATION");
    m_discreteSections.push_back(std::move(sec));
    m_block = Block::DiscreteSection;
  } else if (k.name == "SOLID SECTION") {
    const std::string* elset = k.get("ELSET");
    const std::string* material = k.get("MATERIAL");
    if (!elset || trim(*elset).empty() || !material || trim(*material).empty()) {
      error(loc, "*SOLID SECTION needs ELSET=<set> and MATERIAL=<material>");
      return;
    }
    m_sections.push_back({toUpper(trim(*elset)), toUpper(trim(*material)), loc});
    m_block = Block::SolidSection;
  } else if (k.name == "SURFACE") {
    startSurface(k, loc);
  } else if (k.name == "EQUATION") {
    m_equations.push_back({loc, 0, {}});
    m_block = Block::Equation;
  } else if (k.name == "TIE") {
    startTie(k, loc);
  } else if (k.name == "RIGID BODY" || k.name == "COUPLING") {
    startCoupling(k, loc);
  } else if (k.name == "KINEMATIC" || k.name == "DISTRIBUTING") {
    if (!m_couplingOpen) {
      warning(loc, m_blockName + " does not follow a *COUPLING; skipped");
      return;
    }
    m_couplings.back().rigid = k.name == "KINEMATIC";
    m_couplingOpen = false;
    m_block = Block::CouplingDofs;
  } else if (k.name == "ORIENTATION") {
    m_orientations.push_back(loc);  // a change of the model only with an anisotropic material (finish())
  } else if (kSilentKeywords.count(k.name)) {
    // analysis, load or output definition: not part of the model
  } else if (kHarmlessModelKeywords.count(k.name)) {
    if (m_reportedKeywords.insert(k.name).second)
      info(loc, m_blockName + " is not imported (it does not change mass, stiffness or connectivity here); skipped");
  } else if (const auto change = kModelChangingKeywords.find(k.name); change != kModelChangingKeywords.end()) {
    const std::string* elset = k.get("ELSET");
    modelChange(loc, k.name, m_blockName + ": " + change->second,
                m_blockName + (elset ? ", ELSET=" + *elset : std::string()) + " is not supported: " + change->second +
                    "; the reduced model differs from the deck");
  } else if (k.name == "SYSTEM") {
    modelChange(loc, k.name, "*SYSTEM: node coordinates not transformed",
                "*SYSTEM is not supported: the following node coordinates are read as given, untransformed");
  } else if (kPartKeywords.count(k.name)) {
    modelChange(loc, "PART", "Abaqus parts and instances read without their transforms",
                m_blockName + ": Abaqus parts, assemblies and instances are not supported; their "
                              "nodes and elements are read as one model without instance transforms");
  } else if (material >= 0) {
    if (m_reportedKeywords.insert(k.name).second)
      warning(loc, "unknown keyword " + m_blockName + " in material " +
                       m_model.materials[static_cast<std::size_t>(material)].name +
                       ": skipped with its data lines; the material goes on (as in ccx)");
  } else {
    if (m_reportedKeywords.insert(k.name).second)
      warning(loc, "unknown keyword " + m_blockName + " (skipped with its data lines)");
  }
}

/// *ELASTIC and *DENSITY are read; the other options of a material are skipped with a warning.
void Parser::materialOption(const Keyword& k, Loc loc) {
  if (m_material < 0 && !m_model.materials.empty()) {
    // ccx applies a material card to the material defined last, whatever came in between
    m_material = static_cast<int>(m_model.materials.size()) - 1;
    const std::string& name = m_model.materials.back().name;
    warning(loc, m_blockName + " does not follow its *MATERIAL directly: it belongs to the material defined last, " +
                     name + " (" + where(m_materialLoc.at(name)) + "), as in ccx");
  }
  if (m_material < 0) {
    if (k.name == "ELASTIC" || k.name == "DENSITY")
      error(loc, m_blockName + " outside a *MATERIAL definition");
    else
      warning(loc, m_blockName + " outside a *MATERIAL definition; skipped");
    return;
  }
  const std::string& material = m_model.materials[static_cast<std::size_t>(m_material)].name;
  if (k.name == "DENSITY") {
    m_block = Block::Density;
  } else if (k.name == "ELASTIC") {
    const std::string* type = k.get("TYPE");
    if (type && !equalsIgnoreCase(trim(*type), "ISO") && !equalsIgnoreCase(trim(*type), "ISOTROPIC")) {
      m_anisotropic = true;
      modelChange(loc, "ELASTIC " + material, "material " + material + ": *ELASTIC, TYPE=" + toUpper(trim(*type)) + " not supported",
                  "*ELASTIC, TYPE=" + *type + ": only isotropic elasticity is supported; material " + material +
                      " gets no elastic constants from the deck");
      return;
    }
    m_block = Block::Elastic;
  } else if (kStiffnessMaterialOptions.count(k.name)) {
    modelChange(loc, k.name + " " + material, "material " + material + ": " + m_blockName + " not supported",
                m_blockName + " of material " + material + " is not supported: the material's stiffness comes only "
                                                           "from an isotropic *ELASTIC");
  } else if (m_reportedKeywords.insert(k.name).second) {
    warning(loc, m_blockName + " of material " + material +
                     " is not used (the body is linear elastic); skipped, the material keeps its *ELASTIC and *DENSITY");
  }
}

void Parser::include(const Keyword& k, Loc loc) {
  const std::string* input = k.get("INPUT");
  if (!input || trim(*input).empty()) {
    error(loc, "*INCLUDE needs INPUT=<file>");
    return;
  }
  if (!m_opt.follow_includes) {
    error(loc, "*INCLUDE is not allowed here (in-memory deck)");
    return;
  }
  if (static_cast<int>(m_openFiles.size()) >= kMaxIncludeDepth) {
    error(loc, "*INCLUDE nested more than " + std::to_string(kMaxIncludeDepth) + " deep");
    return;
  }
  fs::path target(std::string(trim(*input)));
  if (target.is_relative()) target = fs::path(m_files[static_cast<std::size_t>(loc.file)]).parent_path() / target;
  std::error_code ec;
  fs::path canonical = fs::weakly_canonical(target, ec);
  if (ec) canonical = fs::absolute(target, ec).lexically_normal();
  for (const auto& open : m_openFiles)
    if (open == canonical.string()) {
      error(loc, "*INCLUDE cycle: " + target.lexically_normal().string() + " is already being read");
      return;
    }
  if (!fs::is_regular_file(target, ec)) {
    error(loc, "*INCLUDE: cannot open " + target.lexically_normal().string());
    return;
  }
  std::string text;
  Diagnostics readDiag;
  const std::string display = target.lexically_normal().string();
  if (!readTextFile(display, text, readDiag)) {
    error(loc, "*INCLUDE: " + (readDiag.items().empty() ? display : readDiag.items().front().str()));
    return;
  }
  parseText(text, display, canonical.string());
}

}  // namespace flexim::io::inp_detail
