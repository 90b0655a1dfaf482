#include "io/fe/calculix_inp.h"

#include "io/fe/line_reader.h"

#include <algorithm>
#include <array>
#include <limits>
#include <filesystem>
#include <map>
#include <set>
#include <unordered_map>
#include <unordered_set>

namespace flexim::io {

namespace {

namespace fs = std::filesystem;

constexpr int kMaxIncludeDepth = 32;
constexpr long long kMaxGenerate = 10'000'000;      ///< ids per GENERATE line
constexpr long long kMaxSetWork = 50'000'000;       ///< ids visited while resolving all sets
constexpr std::size_t kMaxSetItems = 4'000'000;     ///< set entries copied from other sets (each copy can double them)
constexpr int kMaxFieldsPerDataLine = 16;           ///< Abaqus: at most 16 entries per data line

/// A place in the deck: index into Parser::m_files and a line number.
struct Loc {
  int file = 0;
  int line = 0;
};

/// One entry of a set data line: an id, or a GENERATE range (first..last step incr).
struct SetItem {
  int first = 0, last = 0, incr = 1;
  bool generated = false;
  Loc loc;
};

struct PendingSet {
  std::string name;
  Loc defined;
  std::vector<SetItem> items;
};

struct PendingSection {
  std::string elset, material;
  Loc loc;
};

/// A discrete element (MASS, ROTARYI, SPRINGA, SPRING1, SPRING2, DASHPOTA): ids until finish().
struct DiscreteElement {
  int id = 0;
  std::string type;
  std::array<int, 2> nodes{};
  int count = 0;
  Loc loc;
};

/// *MASS, *ROTARY INERTIA or *SPRING with its data lines (interpreted in finish(), when the
/// element types of its ELSET are known).
struct DiscreteSection {
  std::string keyword;  ///< "MASS", "ROTARY INERTIA", "SPRING"
  std::string elset;
  Loc loc;
  bool nonlinear = false, orientation = false;
  std::vector<std::pair<Loc, std::vector<std::string>>> lines;
};

struct Keyword {
  std::string name;                                        ///< upper case, single blanks
  std::vector<std::pair<std::string, std::string>> params;  ///< NAME (upper) -> value as written
  const std::string* get(std::string_view key) const {
    for (const auto& p : params)
      if (p.first == key) return &p.second;
    return nullptr;
  }
  bool has(std::string_view key) const { return get(key) != nullptr; }
};

enum class Block {
  None, Skip, Heading, Node, Element, SkipElement, DiscreteElement, NSet, ElSet, Elastic, Density, SolidSection,
  DiscreteSection
};

// Discrete element types that go into K and M (DASHPOTA is read only to say it is skipped).
const std::set<std::string, std::less<>> kDiscreteTypes{"MASS", "ROTARYI", "SPRINGA", "SPRING1", "SPRING2", "DASHPOTA"};
int discreteNodeCount(std::string_view t) { return t == "MASS" || t == "ROTARYI" || t == "SPRING1" ? 1 : 2; }

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

// Model keywords the FE model cannot hold: skipped with one info each.
const std::set<std::string, std::less<>> kIgnoredModelKeywords{
    "EQUATION", "MPC", "RIGID BODY", "COUPLING", "DISTRIBUTING COUPLING", "DISTRIBUTING", "KINEMATIC",
    "TIE", "SURFACE", "CONTACT PAIR", "SURFACE INTERACTION", "SURFACE BEHAVIOR", "FRICTION", "GAP",
    "GAP CONDUCTANCE", "GAP HEAT GENERATION", "DASHPOT",
    "SHELL SECTION", "BEAM SECTION", "BEAM GENERAL SECTION", "MEMBRANE SECTION", "FLUID SECTION",
    "USER SECTION", "USER ELEMENT", "ORIENTATION", "TRANSFORM", "CYCLIC SYMMETRY MODEL",
    "PRE-TENSION SECTION", "NORMAL", "EXPANSION", "CONDUCTIVITY", "SPECIFIC HEAT", "PLASTIC",
    "CYCLIC HARDENING", "DEFORMATION PLASTICITY", "DAMPING", "HYPERELASTIC", "HYPERFOAM",
    "ANISOTROPIC HYPERELASTIC", "USER MATERIAL", "DEPVAR", "CREEP", "ELECTRICAL CONDUCTIVITY",
    "MAGNETIC PERMEABILITY", "FLUID CONSTANTS", "SPECIFIC GAS CONSTANT", "COHESIVE SECTION",
    "NODAL THICKNESS", "EMBEDDED ELEMENT"};

// Sub-options that keep the current *MATERIAL open.
const std::set<std::string, std::less<>> kMaterialOptions{
    "ELASTIC", "DENSITY", "EXPANSION", "CONDUCTIVITY", "SPECIFIC HEAT", "PLASTIC", "CYCLIC HARDENING",
    "DEFORMATION PLASTICITY", "DAMPING", "HYPERELASTIC", "HYPERFOAM", "ANISOTROPIC HYPERELASTIC",
    "USER MATERIAL", "DEPVAR", "CREEP", "ELECTRICAL CONDUCTIVITY", "MAGNETIC PERMEABILITY",
    "FLUID CONSTANTS", "SPECIFIC GAS CONSTANT"};

const std::set<std::string, std::less<>> kPartKeywords{"PART", "END PART", "ASSEMBLY", "END ASSEMBLY",
                                                       "INSTANCE", "END INSTANCE"};

bool startsWith(std::string_view s, std::string_view prefix) {
  return s.size() >= prefix.size() && s.substr(0, prefix.size()) == prefix;
}

/// Element types of Abaqus/CalculiX that are not 3-D continuum elements: their blocks are
/// skipped with a warning (gmsh writes CPS6/CPS8 blocks for physical surfaces).
bool isNonSolidType(std::string_view t) {
  static const char* kPrefixes[] = {"CPS", "CPE", "CPEG", "CAX", "CGAX", "S3", "S4", "S6", "S8", "SC",
                                    "M3D", "B2", "B3", "PIPE", "T2D", "T3D", "SPRING", "DASHPOT",
                                    "MASS", "ROTARYI", "GAP", "DCOUP", "CONN", "R3D", "R2D", "F3D"};
  for (const char* p : kPrefixes)
    if (startsWith(t, p)) return true;
  return false;
}

/// 3-D continuum types the FE model has no element for (hybrid, modified, thermal-coupled, heat
/// transfer): errors, because skipping them would lose stiffness and mass.
bool isUnsupportedSolidType(std::string_view t) {
  return startsWith(t, "C3D") || startsWith(t, "DC3D") || startsWith(t, "COH3D");
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

/// Removes surrounding double quotes.
std::string_view unquote(std::string_view s) {
  s = trim(s);
  if (s.size() >= 2 && s.front() == '"' && s.back() == '"') return s.substr(1, s.size() - 2);
  return s;
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

class Parser {
 public:
  Parser(Diagnostics& diag, const InpOptions& options) : m_diag(diag), m_opt(options) {}

  void parseFile(const std::string& path, const Loc* includedFrom);
  void parseText(std::string_view text, const std::string& source, const std::string& canonical);
  bool finish(fe::FeModel& out);

 private:
  // ---- diagnostics ----
  std::string where(Loc l) const { return m_files[static_cast<std::size_t>(l.file)] + ":" + std::to_string(l.line); }
  void error(Loc l, std::string msg) {
    if (m_gaveUp) return;
    m_diag.error(where(l), std::move(msg));
    if (++m_errors >= m_opt.max_errors) {
      m_diag.error(where(l), "too many errors; reading stopped");
      m_gaveUp = true;
    }
  }
  void warning(Loc l, std::string msg) {
    if (m_warnings++ < 200) m_diag.warning(where(l), std::move(msg));
  }
  void info(Loc l, std::string msg) {
    if (m_infos++ < 200) m_diag.info(where(l), std::move(msg));
  }

  // ---- reading ----
  void parseLines(std::string_view text, int fileIndex);
  void keywordLine(std::string_view line, Loc loc);
  void dataLine(std::string_view line, Loc loc);
  void endBlock();
  void startElementBlock(const Keyword& k, Loc loc);
  void setLine(Loc loc, bool elements);
  void nodeLine(Loc loc);
  void elementLine(std::string_view line, Loc loc);
  void discreteElementLine(Loc loc);
  void discreteSections(fe::FeModel& m);
  void include(const Keyword& k, Loc loc);
  PendingSet& pendingSet(bool elements, const std::string& name, Loc loc);

  Diagnostics& m_diag;
  InpOptions m_opt;
  int m_errors = 0, m_warnings = 0, m_infos = 0;
  bool m_gaveUp = false;

  std::vector<std::string> m_files;        ///< display names, indexed by Loc::file
  std::vector<std::string> m_openFiles;    ///< canonical paths of the include chain
  std::vector<std::string_view> m_fields;  ///< reused split buffer

  fe::FeModel m_model;
  std::vector<Loc> m_nodeLoc;
  std::vector<Loc> m_elementLoc;
  std::unordered_map<int, int> m_elementIndex;
  std::unordered_set<int> m_skippedElementIds;
  std::vector<DiscreteElement> m_discrete;
  std::unordered_map<int, int> m_discreteIndex;  ///< element id -> index into m_discrete
  std::vector<DiscreteSection> m_discreteSections;
  std::string m_discreteType;                    ///< TYPE= of the open discrete *ELEMENT block
  std::map<std::string, PendingSet> m_nsets, m_elsets;
  std::vector<PendingSection> m_sections;
  std::map<std::string, Loc> m_materialLoc;
  std::set<std::string> m_reportedKeywords;

  // state of the current keyword block
  Block m_block = Block::None;
  Loc m_blockLoc;
  std::string m_blockName;          ///< keyword, for messages
  fe::ElementType m_elementType = fe::ElementType::Tet4;
  PendingSet* m_blockSet = nullptr;          ///< NSET= / ELSET= of *NODE / *ELEMENT, or the set of *NSET/*ELSET
  bool m_generate = false;
  int m_material = -1;              ///< open *MATERIAL, -1 if none
  int m_blockDataLines = 0;
  // element continued on the next line
  std::array<int, 21> m_elemBuf{};
  int m_elemHave = 0;
  Loc m_elemLoc;
  bool m_elemOpen = false;
  bool m_extraNodeValuesReported = false;
  std::size_t m_setItems = 0;  ///< entries copied from other sets
};

// ============================== files and lines ==========================================

void Parser::parseFile(const std::string& path, const Loc* includedFrom) {
  std::string text;
  Diagnostics readDiag;
  if (!readTextFile(path, text, readDiag)) {
    const std::string why = readDiag.items().empty() ? std::string("cannot read") : readDiag.items().front().message;
    if (includedFrom)
      error(*includedFrom, "*INCLUDE: " + path + ": " + why);
    else {
      m_diag.error(path, why);
      ++m_errors;
    }
    return;
  }
  std::error_code ec;
  fs::path canonical = fs::weakly_canonical(fs::path(path), ec);
  if (ec) canonical = fs::absolute(fs::path(path), ec).lexically_normal();
  parseText(text, path, canonical.string());
}

void Parser::parseText(std::string_view text, const std::string& source, const std::string& canonical) {
  m_files.push_back(source);
  m_model.sources.push_back(source);
  m_openFiles.push_back(canonical);
  parseLines(text, static_cast<int>(m_files.size()) - 1);
  m_openFiles.pop_back();
}

void Parser::parseLines(std::string_view text, int fileIndex) {
  LineReader reader(text, m_files[static_cast<std::size_t>(fileIndex)]);
  std::string_view line;
  std::string joined;
  while (!m_gaveUp && reader.next(line)) {
    const std::string_view t = trim(line);
    if (t.empty()) continue;
    if (t.size() >= 2 && t[0] == '*' && t[1] == '*') continue;  // comment
    const Loc loc{fileIndex, reader.line()};
    if (t[0] != '*') {
      dataLine(t, loc);
      continue;
    }
    // keyword line, possibly continued on following lines when it ends in ','
    if (t.back() == ',') {
      joined.assign(t);
      std::string_view more;
      int guard = 0;
      while (joined.back() == ',' && reader.next(more) && ++guard < 1000) {
        const std::string_view m = trim(more);
        if (m.size() >= 2 && m[0] == '*' && m[1] == '*') continue;
        if (m.empty()) continue;
        if (m[0] == '*') {
          reader.unread();
          break;
        }
        joined += m;
      }
      keywordLine(joined, loc);
    } else {
      keywordLine(t, loc);
    }
  }
}

// ============================== keywords =================================================

void Parser::keywordLine(std::string_view line, Loc loc) {
  splitKeywordFields(line.substr(1), m_fields);
  Keyword k;
  k.name = normalizeKeyword(m_fields[0]);
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
  if (!kMaterialOptions.count(k.name)) m_material = -1;

  if (k.name.empty()) {
    error(loc, "empty keyword");
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
  } else if (k.name == "ELASTIC" || k.name == "DENSITY") {
    if (m_material < 0) {
      error(loc, m_blockName + " outside a *MATERIAL definition");
      return;
    }
    if (k.name == "ELASTIC") {
      const std::string* type = k.get("TYPE");
      if (type && !equalsIgnoreCase(trim(*type), "ISO") && !equalsIgnoreCase(trim(*type), "ISOTROPIC")) {
        warning(loc, "*ELASTIC, TYPE=" + *type + ": only isotropic elasticity is supported; material " +
                         m_model.materials[static_cast<std::size_t>(m_material)].name + " gets no elastic constants");
        return;
      }
      m_block = Block::Elastic;
    } else {
      m_block = Block::Density;
    }
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
  } else if (kSilentKeywords.count(k.name)) {
    // analysis, load or output definition: not part of the model
  } else if (kIgnoredModelKeywords.count(k.name)) {
    if (m_reportedKeywords.insert(k.name).second)
      info(loc, m_blockName + " is not imported (the FE model has no place for it); skipped");
  } else if (k.name == "SYSTEM") {
    warning(loc, "*SYSTEM is not supported: the following node coordinates are read as given, untransformed");
  } else if (kPartKeywords.count(k.name)) {
    if (m_reportedKeywords.insert("PART").second)
      warning(loc, m_blockName + ": Abaqus parts, assemblies and instances are not supported; their "
                                 "nodes and elements are read as one model without instance transforms");
  } else {
    if (m_reportedKeywords.insert(k.name).second)
      warning(loc, "unknown keyword " + m_blockName + " (skipped with its data lines)");
  }
}

void Parser::startElementBlock(const Keyword& k, Loc loc) {
  const std::string* type = k.get("TYPE");
  m_blockSet = nullptr;
  if (!type || trim(*type).empty()) {
    error(loc, "*ELEMENT needs TYPE=<element type>");
    m_block = Block::SkipElement;
    return;
  }
  const std::string upper = toUpper(trim(*type));
  if (kDiscreteTypes.count(upper)) {
    m_block = Block::DiscreteElement;
    m_discreteType = upper;
    if (upper == "DASHPOTA")
      warning(loc, "element type DASHPOTA: dampers are not modelled (modal damping is set on the flexible body); "
                   "its elements are skipped");
    if (const std::string* s = k.get("ELSET"); s && !trim(*s).empty()) m_blockSet = &pendingSet(true, toUpper(trim(*s)), loc);
    return;
  }
  if (!fe::fromAbaqusName(upper, m_elementType)) {
    m_block = Block::SkipElement;
    // the set exists (empty), so that references to it stay valid
    if (const std::string* s = k.get("ELSET"); s && !trim(*s).empty()) pendingSet(true, toUpper(trim(*s)), loc);
    if (isNonSolidType(upper))
      warning(loc, "element type " + upper + " is not a solid element; its elements are skipped");
    else if (isUnsupportedSolidType(upper))
      error(loc, "element type " + upper + " is not supported (supported: " + fe::abaqusNames() + ")");
    else
      error(loc, "unknown element type " + quoteField(upper));
    return;
  }
  if (k.has("INPUT")) {
    error(loc, "*ELEMENT, INPUT=: reading element data from another file is not supported; use *INCLUDE");
    m_block = Block::SkipElement;
    return;
  }
  m_block = Block::Element;
  if (const std::string* s = k.get("ELSET"); s && !trim(*s).empty()) m_blockSet = &pendingSet(true, toUpper(trim(*s)), loc);
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

PendingSet& Parser::pendingSet(bool elements, const std::string& name, Loc loc) {
  auto& sets = elements ? m_elsets : m_nsets;
  auto it = sets.find(name);
  if (it == sets.end()) {
    PendingSet s;
    s.name = name;
    s.defined = loc;
    it = sets.emplace(name, std::move(s)).first;
  }
  return it->second;
}

// ============================== data lines ===============================================

void Parser::endBlock() {
  if (m_elemOpen) {
    error(m_elemLoc, "element " + std::to_string(m_elemBuf[0]) + ": " + fe::abaqusName(m_elementType) + " needs " +
                         std::to_string(fe::nodeCount(m_elementType)) + " nodes, got " + std::to_string(m_elemHave - 1));
    m_elemOpen = false;
  }
  m_elemHave = 0;
}

void Parser::dataLine(std::string_view line, Loc loc) {
  ++m_blockDataLines;
  switch (m_block) {
    case Block::None:
      error(loc, "data line before the first keyword");
      m_block = Block::Skip;  // report once
      return;
    case Block::Skip:
    case Block::Heading:
      return;
    case Block::SkipElement:
      splitFields(line, ',', m_fields);
      if (int id = 0; parseInt(m_fields[0], id)) m_skippedElementIds.insert(id);
      return;
    case Block::Node:
      splitFields(line, ',', m_fields);
      nodeLine(loc);
      return;
    case Block::Element:
      elementLine(line, loc);
      return;
    case Block::DiscreteElement:
      splitFields(line, ',', m_fields);
      discreteElementLine(loc);
      return;
    case Block::DiscreteSection: {
      splitFields(line, ',', m_fields);
      std::vector<std::string> f;
      for (const auto x : m_fields) f.emplace_back(trim(x));
      if (m_discreteSections.back().lines.size() < 4) m_discreteSections.back().lines.emplace_back(loc, std::move(f));
      return;
    }
    case Block::NSet:
    case Block::ElSet:
      splitFields(line, ',', m_fields);
      setLine(loc, m_block == Block::ElSet);
      return;
    case Block::Elastic:
    case Block::Density: {
      auto& mat = m_model.materials[static_cast<std::size_t>(m_material)];
      if (m_blockDataLines > 1) {
        if (m_blockDataLines == 2)
          warning(loc, m_blockName + " of material " + mat.name +
                           ": only the first data line is used (temperature dependence is not supported)");
        return;
      }
      splitFields(line, ',', m_fields);
      std::string problem;
      if (m_block == Block::Elastic) {
        double E = 0, nu = 0;
        if (m_fields.size() < 2 || m_fields[1].empty()) {
          error(loc, "*ELASTIC needs Young's modulus and Poisson's ratio");
          return;
        }
        if (!parseDouble(m_fields[0], E, &problem) || !parseDouble(m_fields[1], nu, &problem)) {
          error(loc, "*ELASTIC: " + problem);
          return;
        }
        mat.E = E;
        mat.nu = nu;
        mat.has_elastic = true;
        if (!(E > 0)) warning(loc, "material " + mat.name + ": Young's modulus " + std::to_string(E) + " is not positive");
        if (!(nu > -1.0 && nu < 0.5))
          warning(loc, "material " + mat.name + ": Poisson's ratio " + std::to_string(nu) + " is outside (-1, 0.5)");
      } else {
        double rho = 0;
        if (!parseDouble(m_fields[0], rho, &problem)) {
          error(loc, "*DENSITY: " + problem);
          return;
        }
        mat.rho = rho;
        mat.has_density = true;
        if (!(rho > 0)) warning(loc, "material " + mat.name + ": density " + std::to_string(rho) + " is not positive");
      }
      return;
    }
    case Block::SolidSection:
      return;  // thickness line of 2-D sections: irrelevant for solids
  }
}

void Parser::nodeLine(Loc loc) {
  std::string problem;
  int id = 0;
  if (!parseInt(m_fields[0], id, &problem)) {
    error(loc, "*NODE: node id: " + problem);
    return;
  }
  if (id <= 0) {
    error(loc, "*NODE: node id " + std::to_string(id) + " must be positive");
    return;
  }
  Eigen::Vector3d x = Eigen::Vector3d::Zero();
  const std::size_t n = std::min<std::size_t>(m_fields.size(), 4);
  for (std::size_t i = 1; i < n; ++i) {
    if (m_fields[i].empty()) continue;  // blank field = 0
    if (!parseDouble(m_fields[i], x[static_cast<Eigen::Index>(i - 1)], &problem)) {
      error(loc, "node " + std::to_string(id) + ": " + problem);
      return;
    }
  }
  if (m_fields.size() > 4 && !m_extraNodeValuesReported) {
    bool extra = false;
    for (std::size_t i = 4; i < m_fields.size(); ++i) extra = extra || !m_fields[i].empty();
    if (extra) {
      m_extraNodeValuesReported = true;
      warning(loc, "*NODE: values after the z coordinate are ignored");
    }
  }
  const int index = m_model.addNode(id, x);
  if (index < 0) {
    const int old = m_model.indexOf(id);
    warning(loc, "node " + std::to_string(id) + " is defined again (first at " +
                     where(m_nodeLoc[static_cast<std::size_t>(old)]) + "); the new coordinates are used");
    m_model.coords[static_cast<std::size_t>(old)] = x;
    return;
  }
  m_nodeLoc.push_back(loc);
  if (m_blockSet) m_blockSet->items.push_back({id, id, 1, false, loc});
}

void Parser::elementLine(std::string_view line, Loc loc) {
  const int need = fe::nodeCount(m_elementType) + 1;
  // split on commas into the element buffer, ignoring empty fields
  std::string problem;
  int onLine = 0;
  if (!m_elemOpen) {
    m_elemHave = 0;
    m_elemLoc = loc;
  }
  const bool trailingComma = !line.empty() && line.back() == ',';  // line is trimmed
  std::size_t start = 0;
  for (;;) {
    std::size_t p = line.find(',', start);
    const bool last = p == std::string_view::npos;
    if (last) p = line.size();
    const std::string_view f = trim(line.substr(start, p - start));
    start = p + 1;
    if (!f.empty()) {
      ++onLine;
      int v = 0;
      if (!parseInt(f, v, &problem)) {
        error(loc, m_elemHave == 0 ? "*ELEMENT: element id: " + problem
                                   : "element " + std::to_string(m_elemBuf[0]) + ": node " + problem);
        m_elemOpen = false;
        m_elemHave = 0;
        return;
      }
      if (m_elemHave >= need) {
        error(m_elemLoc, "element " + std::to_string(m_elemBuf[0]) + ": " + fe::abaqusName(m_elementType) + " needs " +
                             std::to_string(need - 1) + " nodes, got more");
        m_elemOpen = false;
        m_elemHave = 0;
        return;
      }
      m_elemBuf[static_cast<std::size_t>(m_elemHave++)] = v;
    }
    if (last) break;
  }
  if (m_elemHave == 0) return;
  if (m_elemHave < need) {
    // continued on the next line?
    if (trailingComma || onLine >= kMaxFieldsPerDataLine) {
      m_elemOpen = true;
      return;
    }
    error(m_elemLoc, "element " + std::to_string(m_elemBuf[0]) + ": " + fe::abaqusName(m_elementType) + " needs " +
                         std::to_string(need - 1) + " nodes, got " + std::to_string(m_elemHave - 1));
    m_elemOpen = false;
    m_elemHave = 0;
    return;
  }
  m_elemOpen = false;
  m_elemHave = 0;
  const int id = m_elemBuf[0];
  if (id <= 0) {
    error(m_elemLoc, "element id " + std::to_string(id) + " must be positive");
    return;
  }
  if (auto it = m_elementIndex.find(id); it != m_elementIndex.end()) {
    error(m_elemLoc, "element " + std::to_string(id) + " is defined twice (first at " +
                         where(m_elementLoc[static_cast<std::size_t>(it->second)]) + ")");
    return;
  }
  fe::Element e;
  e.id = id;
  e.type = m_elementType;
  for (int i = 1; i < need; ++i) e.nodes[static_cast<std::size_t>(i - 1)] = m_elemBuf[static_cast<std::size_t>(i)];  // ids for now
  m_elementIndex.emplace(id, static_cast<int>(m_model.elements.size()));
  m_model.elements.push_back(e);
  m_elementLoc.push_back(m_elemLoc);
  if (m_blockSet) m_blockSet->items.push_back({id, id, 1, false, m_elemLoc});
}

void Parser::discreteElementLine(Loc loc) {
  std::string problem;
  DiscreteElement e;
  e.type = m_discreteType;
  e.loc = loc;
  const int need = discreteNodeCount(e.type);
  if (!parseInt(m_fields[0], e.id, &problem)) {
    error(loc, "*ELEMENT: element id: " + problem);
    return;
  }
  for (std::size_t i = 1; i < m_fields.size(); ++i) {
    if (trim(m_fields[i]).empty()) continue;
    if (e.count == need) {
      error(loc, "element " + std::to_string(e.id) + ": " + e.type + " needs " + std::to_string(need) + " node(s), got more");
      return;
    }
    if (!parseInt(m_fields[i], e.nodes[static_cast<std::size_t>(e.count)], &problem)) {
      error(loc, "element " + std::to_string(e.id) + ": node " + problem);
      return;
    }
    ++e.count;
  }
  if (e.count != need) {
    error(loc, "element " + std::to_string(e.id) + ": " + e.type + " needs " + std::to_string(need) + " node(s), got " +
                   std::to_string(e.count));
    return;
  }
  if (e.id <= 0 || m_elementIndex.count(e.id) || m_discreteIndex.count(e.id)) {
    error(loc, "element id " + std::to_string(e.id) + (e.id <= 0 ? " must be positive" : " is defined twice"));
    return;
  }
  m_discreteIndex.emplace(e.id, static_cast<int>(m_discrete.size()));
  m_discrete.push_back(e);
  if (m_blockSet) m_blockSet->items.push_back({e.id, e.id, 1, false, loc});
}

void Parser::setLine(Loc loc, bool elements) {
  PendingSet& set = *m_blockSet;
  const char* what = elements ? "element" : "node";
  std::string problem;
  if (m_generate) {
    long long v[3] = {0, 0, 1};
    int n = 0;
    for (const auto f : m_fields) {
      if (f.empty()) continue;
      if (n >= 3) {
        error(loc, "GENERATE needs first, last[, increment]; got more values");
        return;
      }
      if (!parseInt64(f, v[n], &problem)) {
        error(loc, "GENERATE: " + problem);
        return;
      }
      ++n;
    }
    if (n < 2) {
      error(loc, "GENERATE needs first, last[, increment]");
      return;
    }
    if (v[2] <= 0 || v[0] <= 0 || v[1] < v[0]) {
      error(loc, "GENERATE " + std::to_string(v[0]) + ", " + std::to_string(v[1]) + ", " + std::to_string(v[2]) +
                     ": needs 0 < first <= last and increment > 0");
      return;
    }
    if ((v[1] - v[0]) / v[2] >= kMaxGenerate) {
      error(loc, "GENERATE range of more than " + std::to_string(kMaxGenerate) + " ids");
      return;
    }
    if (v[1] > std::numeric_limits<int>::max() || v[2] > std::numeric_limits<int>::max()) {
      error(loc, "GENERATE: ids must not exceed " + std::to_string(std::numeric_limits<int>::max()));
      return;
    }
    set.items.push_back({static_cast<int>(v[0]), static_cast<int>(v[1]), static_cast<int>(v[2]), true, loc});
    return;
  }
  for (const auto f : m_fields) {
    if (f.empty()) continue;
    int id = 0;
    if (parseInt(f, id)) {
      set.items.push_back({id, id, 1, false, loc});
      continue;
    }
    // the name of another set of the same kind
    const std::string name = toUpper(unquote(f));
    auto& sets = elements ? m_elsets : m_nsets;
    auto it = sets.find(name);
    const bool nameLike = !name.empty() && !((name[0] >= '0' && name[0] <= '9') || name[0] == '-' || name[0] == '+' || name[0] == '.');
    if (!nameLike) {
      parseInt(f, id, &problem);
      error(loc, std::string(elements ? "*ELSET " : "*NSET ") + set.name + ": " + problem);
      continue;
    }
    if (it == sets.end() || &it->second == &set) {
      error(loc, std::string(elements ? "*ELSET " : "*NSET ") + set.name + ": " + quoteField(f) + " is neither a " + what +
                     " id nor a known " + what + " set");
      continue;
    }
    if (m_setItems + it->second.items.size() > kMaxSetItems) {
      error(loc, "sets are too large (more than " + std::to_string(kMaxSetItems) + " entries)");
      return;
    }
    m_setItems += it->second.items.size();
    const auto copy = it->second.items;  // copy: set may alias storage when growing
    set.items.insert(set.items.end(), copy.begin(), copy.end());
  }
}

// ============================== discrete elements ========================================

/// MASS, ROTARYI and SPRING* elements with their *MASS / *ROTARY INERTIA / *SPRING into the
/// model's masses, rotary inertias and springs (ccx's definitions: a MASS element is the same
/// mass in x, y and z; SPRINGA acts along the line between its nodes; SPRING1 ties one DOF of
/// its node to ground, SPRING2 a DOF of node 1 to a DOF of node 2).
void Parser::discreteSections(fe::FeModel& m) {
  std::vector<char> covered(m_discrete.size(), 0);
  std::string problem;
  bool rotaryReported = false;
  for (const DiscreteSection& sec : m_discreteSections) {
    const std::string kw = "*" + sec.keyword;
    auto set = m_elsets.find(sec.elset);
    if (set == m_elsets.end()) {
      error(sec.loc, kw + ": element set " + sec.elset + " is not defined");
      continue;
    }
    if (sec.nonlinear) {
      warning(sec.loc, kw + ", NONLINEAR: nonlinear springs are not supported; the springs of " + sec.elset + " are skipped");
      continue;
    }
    const char* wanted = sec.keyword == "MASS" ? "MASS" : sec.keyword == "ROTARY INERTIA" ? "ROTARYI" : "SPRING";
    // members of the set that are discrete elements of the matching type
    std::vector<int> members;
    long long work = 0;
    for (const SetItem& item : set->second.items)
      for (long long id = item.first; id <= item.last && work < kMaxSetWork; id += item.incr, ++work) {
        if (id > std::numeric_limits<int>::max()) break;
        auto it = m_discreteIndex.find(static_cast<int>(id));
        if (it == m_discreteIndex.end()) continue;
        const std::string& type = m_discrete[static_cast<std::size_t>(it->second)].type;
        if (startsWith(type, wanted)) members.push_back(it->second);
      }
    if (members.empty()) {
      warning(sec.loc, kw + ": element set " + sec.elset + " has no " + wanted + " elements; ignored");
      continue;
    }
    // the data lines: *MASS: mass; *ROTARY INERTIA: I11, I22, I33, I12, I13, I23;
    // *SPRING: [dof1[, dof2] (SPRING1/SPRING2 only)] then the stiffness
    const bool scalarSpring = sec.keyword == "SPRING" && m_discrete[static_cast<std::size_t>(members[0])].type != "SPRINGA";
    const std::size_t valueLine = scalarSpring ? 1 : 0;
    if (sec.lines.size() <= valueLine) {
      error(sec.loc, kw + ", ELSET=" + sec.elset + ": missing data line" +
                         (scalarSpring ? " (SPRING1/SPRING2 need a line with the DOFs, then one with the stiffness)" : ""));
      continue;
    }
    const auto& [vloc, vf] = sec.lines[valueLine];
    const int nValues = sec.keyword == "ROTARY INERTIA" ? 6 : 1;
    std::array<double, 6> v{};
    bool bad = false;
    for (int i = 0; i < nValues && !bad; ++i) {
      if (static_cast<std::size_t>(i) >= vf.size() || vf[static_cast<std::size_t>(i)].empty()) {
        if (i == 0 || sec.keyword != "ROTARY INERTIA") {
          error(vloc, kw + ": value " + std::to_string(i + 1) + " is missing");
          bad = true;
        }
        continue;  // blank products of inertia are 0
      }
      if (!parseDouble(vf[static_cast<std::size_t>(i)], v[static_cast<std::size_t>(i)], &problem)) {
        error(vloc, kw + ": " + problem);
        bad = true;
      }
    }
    if (bad) continue;
    if (sec.keyword != "ROTARY INERTIA" && !(v[0] >= 0)) {
      error(vloc, kw + ": " + (sec.keyword == "MASS" ? std::string("mass ") : std::string("stiffness ")) + vf[0] +
                      " must not be negative");
      continue;
    }
    std::array<int, 2> dofs{0, 0};
    if (scalarSpring) {
      const auto& [dloc, df] = sec.lines[0];
      for (std::size_t i = 0; i < 2 && !bad; ++i) {
        if (i >= df.size() || df[i].empty()) continue;
        if (!parseInt(df[i], dofs[i], &problem) || dofs[i] < 1 || dofs[i] > 6) {
          error(dloc, kw + ": degree of freedom " + (i < df.size() ? quoteField(df[i]) : std::string()) +
                          " must be 1 ... 6");
          bad = true;
        }
      }
      if (bad) continue;
      if (dofs[0] == 0) {
        error(dloc, kw + ": SPRING1/SPRING2 need the degree(s) of freedom on the first data line");
        continue;
      }
      if (dofs[1] == 0) dofs[1] = dofs[0];
      if (dofs[0] > 3 || dofs[1] > 3) {
        warning(dloc, kw + ", ELSET=" + sec.elset + ": rotational DOF " + std::to_string(std::max(dofs[0], dofs[1])) +
                          ": solid nodes have no rotations; these springs are skipped");
        continue;
      }
    }
    if (sec.orientation)
      warning(sec.loc, kw + ", ORIENTATION: local directions are not supported; the global directions are used");
    for (int idx : members) {
      const DiscreteElement& e = m_discrete[static_cast<std::size_t>(idx)];
      covered[static_cast<std::size_t>(idx)] = 1;
      std::array<int, 2> node{-1, -1};
      for (int i = 0; i < e.count; ++i) {
        node[static_cast<std::size_t>(i)] = m.indexOf(e.nodes[static_cast<std::size_t>(i)]);
        if (node[static_cast<std::size_t>(i)] < 0) {
          error(e.loc, "element " + std::to_string(e.id) + " refers to node " +
                           std::to_string(e.nodes[static_cast<std::size_t>(i)]) + ", which is not defined");
          bad = true;
        }
      }
      if (bad) break;
      fe::Discrete d;
      d.label = where(e.loc) + ": element " + std::to_string(e.id) + " (" + e.type + ")";
      d.value = v[0];
      if (e.type == "MASS") {
        for (int c = 0; c < 3; ++c) m.masses.push_back({d.label, v[0], {{node[0], c, 1.0}}});
      } else if (e.type == "ROTARYI") {
        fe::RotaryInertia r;
        r.label = d.label;
        r.node = node[0];
        r.J << v[0], v[3], v[4], v[3], v[1], v[5], v[4], v[5], v[2];
        m.rotary_inertias.push_back(r);
        if (!rotaryReported) {
          rotaryReported = true;
          warning(sec.loc, "*ROTARY INERTIA: solid nodes have no rotational DOFs, so rotary inertia is not in the "
                           "mass matrix (listed in the mass report only)");
        }
      } else if (e.type == "SPRINGA") {
        const Eigen::Vector3d axis = m.coords[static_cast<std::size_t>(node[1])] - m.coords[static_cast<std::size_t>(node[0])];
        if (!(axis.norm() > 0)) {
          error(e.loc, "element " + std::to_string(e.id) + " (SPRINGA): its nodes coincide, the spring has no direction");
          bad = true;
          break;
        }
        const Eigen::Vector3d n = axis.normalized();
        for (int c = 0; c < 3; ++c) {
          if (n(c) != 0) d.terms.push_back({node[0], c, n(c)});
          if (n(c) != 0) d.terms.push_back({node[1], c, -n(c)});
        }
        m.springs.push_back(d);
      } else if (e.type == "SPRING1") {
        d.terms.push_back({node[0], dofs[0] - 1, 1.0});
        m.springs.push_back(d);
      } else if (e.type == "SPRING2") {
        d.terms.push_back({node[0], dofs[0] - 1, 1.0});
        d.terms.push_back({node[1], dofs[1] - 1, -1.0});
        m.springs.push_back(d);
      }
    }
  }
  int uncovered = 0;
  for (std::size_t i = 0; i < m_discrete.size(); ++i)
    if (!covered[i] && m_discrete[i].type != "DASHPOTA" && uncovered++ == 0)
      warning(m_discrete[i].loc, "element " + std::to_string(m_discrete[i].id) + " (" + m_discrete[i].type +
                                     ") has no *MASS / *ROTARY INERTIA / *SPRING for its element set; skipped");
}

// ============================== resolution ===============================================

bool Parser::finish(fe::FeModel& out) {
  if (m_gaveUp) return false;
  endBlock();
  fe::FeModel& m = m_model;

  // element nodes: ids -> indices
  for (std::size_t e = 0; e < m.elements.size(); ++e) {
    auto& el = m.elements[e];
    const int n = fe::nodeCount(el.type);
    for (int i = 0; i < n && !m_gaveUp; ++i) {
      const int id = el.nodes[static_cast<std::size_t>(i)];
      const int index = m.indexOf(id);
      if (index < 0) {
        error(m_elementLoc[e], "element " + std::to_string(el.id) + " refers to node " + std::to_string(id) +
                                   ", which is not defined");
        el.nodes[static_cast<std::size_t>(i)] = 0;
      } else {
        el.nodes[static_cast<std::size_t>(i)] = index;
      }
    }
    for (int i = n; i < 20; ++i) el.nodes[static_cast<std::size_t>(i)] = 0;
  }

  // sets: members in order of first appearance, each once
  long long work = 0;
  std::vector<int> mark;
  auto resolve = [&](std::map<std::string, PendingSet>& sets, bool elements, std::map<std::string, std::vector<int>>& target) {
    const std::size_t count = elements ? m.elements.size() : static_cast<std::size_t>(m.nodeCount());
    mark.assign(count, -1);
    int setNo = 0;
    for (auto& [name, set] : sets) {
      std::vector<int> members;
      ++setNo;
      long long skipped = 0;
      for (const SetItem& item : set.items) {
        long long missing = 0, firstMissing = 0;
        for (long long id = item.first; id <= item.last && !m_gaveUp; id += item.incr) {  // long long: no overflow at INT_MAX
          if (++work > kMaxSetWork) {
            error(item.loc, "sets are too large to resolve");
            return;
          }
          int index = -1;
          if (id <= std::numeric_limits<int>::max()) {
            if (elements) {
              auto it = m_elementIndex.find(static_cast<int>(id));
              index = it == m_elementIndex.end() ? -1 : it->second;
            } else {
              index = m.indexOf(static_cast<int>(id));
            }
          }
          if (index < 0) {
            if (elements && id <= std::numeric_limits<int>::max() && m_discreteIndex.count(static_cast<int>(id))) continue;
            if (elements && id <= std::numeric_limits<int>::max() && m_skippedElementIds.count(static_cast<int>(id))) {
              ++skipped;
              continue;
            }
            if (missing++ == 0) firstMissing = id;
            continue;
          }
          if (mark[static_cast<std::size_t>(index)] != setNo) {
            mark[static_cast<std::size_t>(index)] = setNo;
            members.push_back(index);
          }
        }
        if (missing > 0) {
          const std::string kind = elements ? "element" : "node";
          const std::string setWord = elements ? "*ELSET " : "*NSET ";
          if (!item.generated)
            error(item.loc, setWord + name + ": " + kind + " " + std::to_string(firstMissing) + " is not defined");
          else
            warning(item.loc, setWord + name + ": " + std::to_string(missing) + " of the generated " + kind +
                                  " ids are not defined (first: " + std::to_string(firstMissing) + "); they are left out");
        }
      }
      if (skipped > 0)
        info(set.defined, std::string(elements ? "*ELSET " : "*NSET ") + name + ": " + std::to_string(skipped) +
                              " members are skipped non-solid elements");
      target[name] = std::move(members);
    }
  };
  resolve(m_nsets, false, m.node_sets);
  resolve(m_elsets, true, m.element_sets);

  // sections: material per element
  std::vector<int> sectionOf(m.elements.size(), -1);
  for (std::size_t s = 0; s < m_sections.size() && !m_gaveUp; ++s) {
    const auto& sec = m_sections[s];
    auto set = m.element_sets.find(sec.elset);
    if (set == m.element_sets.end()) {
      error(sec.loc, "*SOLID SECTION: element set " + sec.elset + " is not defined");
      continue;
    }
    int material = -1;
    for (std::size_t i = 0; i < m.materials.size(); ++i)
      if (m.materials[i].name == sec.material) material = static_cast<int>(i);
    if (material < 0) {
      error(sec.loc, "*SOLID SECTION: material " + sec.material + " is not defined");
      continue;
    }
    bool overlapReported = false;
    for (int e : set->second) {
      auto& prev = sectionOf[static_cast<std::size_t>(e)];
      if (prev >= 0 && !overlapReported) {
        overlapReported = true;
        warning(sec.loc, "*SOLID SECTION: element " + std::to_string(m.elements[static_cast<std::size_t>(e)].id) +
                             " is also in the section at " + where(m_sections[static_cast<std::size_t>(prev)].loc) +
                             "; the later section is used");
      }
      prev = static_cast<int>(s);
      m.elements[static_cast<std::size_t>(e)].material = material;
    }
  }

  discreteSections(m);
  if (m_errors > 0 || m_gaveUp) return false;

  const std::string topName = m_files.empty() ? std::string() : m_files.front();
  if (m.nodeCount() == 0) {
    m_diag.error(topName, "the deck defines no nodes");
    return false;
  }
  if (m.elements.empty() && m.springs.empty() && m.masses.empty())
    m_diag.warning(topName, "the deck defines no solid elements");
  std::size_t unassigned = 0;
  for (const auto& e : m.elements) unassigned += e.material < 0;
  if (unassigned > 0 && !m.elements.empty())
    m_diag.info(topName, std::to_string(unassigned) + " of " + std::to_string(m.elements.size()) +
                             " elements have no *SOLID SECTION (no material)");
  std::vector<char> used(static_cast<std::size_t>(m.nodeCount()), 0);
  for (const auto& e : m.elements)
    for (int i = 0; i < fe::nodeCount(e.type); ++i) used[static_cast<std::size_t>(e.nodes[static_cast<std::size_t>(i)])] = 1;
  for (const auto& d : m.springs)
    for (const auto& t : d.terms) used[static_cast<std::size_t>(t.node)] = 1;
  const auto unused = std::count(used.begin(), used.end(), 0);
  if (unused > 0 && !m.elements.empty())
    m_diag.info(topName, std::to_string(unused) + " nodes are not used by any element" +
                             (m.springs.empty() ? std::string() : std::string(" or spring")));

  out = std::move(m);
  return true;
}

}  // namespace

bool readCalculixInp(const std::string& path, fe::FeModel& out, Diagnostics& diag, const InpOptions& options) {
  Parser p(diag, options);
  p.parseFile(path, nullptr);
  return p.finish(out);
}

bool readCalculixInpFromString(std::string_view text, const std::string& source, fe::FeModel& out, Diagnostics& diag,
                               const InpOptions& options) {
  Parser p(diag, options);
  std::error_code ec;
  fs::path canonical = fs::weakly_canonical(fs::path(source), ec);
  if (ec) canonical = fs::path(source);
  p.parseText(text, source, canonical.string());
  return p.finish(out);
}

}  // namespace flexim::io
