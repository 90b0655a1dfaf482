#include "io/fe/calculix_inp.h"

#include "core/fe/surface.h"
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

/// *SURFACE: element faces ("ELSET or element id, S1..S6") or nodes ("NSET or node id", TYPE=NODE);
/// resolved in finish() when a coupling uses it, so it may come after the coupling.
struct PendingSurface {
  struct Entry {
    std::string set;  ///< ELSET / NSET name, or empty for an id
    int id = 0;
    std::string label;  ///< element faces: the face label as written ("S1", "SPOS", ...)
    int face = 0;       ///< element faces: 1 = S1, ... (0: not a solid element face)
    Loc loc;
  };
  std::string name;
  Loc defined;
  bool nodes = false;  ///< TYPE=NODE
  std::vector<Entry> entries;
};

/// *RIGID BODY, or *COUPLING with its *KINEMATIC / *DISTRIBUTING: a coupling of the model
/// (fe::Coupling), resolved in finish().
struct PendingCoupling {
  std::string keyword;   ///< "*RIGID BODY", "*COUPLING"
  std::string name;      ///< "RIGID BODY <set>" or the CONSTRAINT NAME (upper case)
  Loc loc;
  int ref = 0, rot = 0;  ///< REF NODE and ROT NODE ids (0: none)
  char source = 'N';     ///< the set its nodes come from: 'N' NSET, 'E' ELSET, 'S' SURFACE
  std::string set;
  bool rigid = true;     ///< *KINEMATIC / *RIGID BODY; false: *DISTRIBUTING
  unsigned dofs = 0;     ///< bit d-1 set: DOF d on a data line of *KINEMATIC / *DISTRIBUTING
};

/// s without blanks: ccx removes them from keyword lines (*SOLIDSECTION = *SOLID SECTION,
/// REFNODE = REF NODE).
std::string withoutBlanks(std::string_view s) {
  std::string out;
  for (char c : s)
    if (c != ' ') out += c;
  return out;
}

struct Keyword {
  std::string name;                                        ///< upper case, single blanks
  std::vector<std::pair<std::string, std::string>> params;  ///< NAME (upper) -> value as written
  /// The value of a parameter; blanks in names do not count.
  const std::string* get(std::string_view key) const {
    const std::string wanted = withoutBlanks(key);
    for (const auto& p : params)
      if (withoutBlanks(p.first) == wanted) return &p.second;
    return nullptr;
  }
  bool has(std::string_view key) const { return get(key) != nullptr; }
};

enum class Block {
  None, Skip, Heading, Node, Element, SkipElement, DiscreteElement, NSet, ElSet, Elastic, Density, SolidSection,
  DiscreteSection, Surface, CouplingDofs
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
    {"EQUATION", "linear constraints between DOFs not applied"},
    {"MPC", "multi-point constraints not applied"},
    {"TIE", "tied surfaces not connected"},
    {"CONTACT PAIR", "contact not modelled (the surfaces are not connected)"},
    {"DISTRIBUTING COUPLING", "distributing coupling elements not applied"},
    {"TRANSFORM", "local node directions not applied"},
    {"GAP", "gap elements not imported"},
    {"SHELL SECTION", "shell elements not imported (their stiffness and mass are missing)"},
    {"MEMBRANE SECTION", "membrane elements not imported (their stiffness and mass are missing)"},
    {"BEAM SECTION", "beam elements not imported (their stiffness and mass are missing)"},
    {"BEAM GENERAL SECTION", "beam elements not imported (their stiffness and mass are missing)"},
    {"FLUID SECTION", "fluid elements not imported"},
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
    "SURFACE", "RIGID BODY", "COUPLING", "KINEMATIC", "DISTRIBUTING", "ORIENTATION", "SYSTEM", "INCLUDE"};

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
  /// Something of the deck that changes mass, stiffness or connectivity is not in the model: one
  /// warning per key, and `phrase` in FeModel::model_changes (with a count when it recurs).
  void modelChange(Loc l, const std::string& key, const std::string& phrase, std::string message) {
    for (auto& c : m_changes)
      if (c.key == key) {
        ++c.count;
        return;
      }
    m_changes.push_back({key, phrase, 1});
    warning(l, std::move(message));
  }
  /// ccx reads numbers from the first 20 characters of a field only: say so once when a field is
  /// longer (Flexim reads all of it, so the two programs see different values).
  void checkFieldWidth(std::string_view f, Loc l) {
    if (f.size() <= 20 || m_longFieldReported) return;
    m_longFieldReported = true;
    warning(l, "number " + quoteField(f) + " has more than 20 characters: ccx reads only the first 20 (" +
                   quoteField(f.substr(0, 20)) + "), Flexim the whole number");
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
  void materialOption(const Keyword& k, Loc loc);
  void startSurface(const Keyword& k, Loc loc);
  void surfaceLine(Loc loc);
  void startCoupling(const Keyword& k, Loc loc);
  void couplingDofLine(Loc loc);
  void closeCoupling();
  void couplings(fe::FeModel& m);
  bool couplingNodes(const fe::FeModel& m, const PendingCoupling& c, std::vector<int>& nodes);

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
  std::map<std::string, PendingSurface> m_surfaces;
  std::vector<PendingCoupling> m_couplings;
  bool m_couplingOpen = false;      ///< the last *COUPLING still waits for *KINEMATIC / *DISTRIBUTING
  struct Change {
    std::string key, phrase;
    int count = 0;
  };
  std::vector<Change> m_changes;    ///< -> FeModel::model_changes
  std::vector<Loc> m_orientations;  ///< *ORIENTATION keywords
  bool m_anisotropic = false;       ///< some *ELASTIC had a TYPE other than ISO
  std::map<std::string, long long> m_skippedMembers;  ///< element set -> skipped (non-solid) elements in it
  int m_extraEntries = 0;           ///< element data lines with entries beyond the element's nodes
  bool m_longFieldReported = false;

  // state of the current keyword block
  Block m_block = Block::None;
  Loc m_blockLoc;
  std::string m_blockName;          ///< keyword, for messages
  fe::ElementType m_elementType = fe::ElementType::Tet4;
  PendingSet* m_blockSet = nullptr;          ///< NSET= / ELSET= of *NODE / *ELEMENT, or the set of *NSET/*ELSET
  PendingSurface* m_surface = nullptr;       ///< the open *SURFACE
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
      for (std::size_t i = 0; i < m_fields.size() && i < 2; ++i) checkFieldWidth(m_fields[i], loc);
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
        if (const std::string p = fe::elasticProblem(E, nu); !p.empty()) warning(loc, "material " + mat.name + ": " + p);
      } else {
        double rho = 0;
        if (!parseDouble(m_fields[0], rho, &problem)) {
          error(loc, "*DENSITY: " + problem);
          return;
        }
        mat.rho = rho;
        mat.has_density = true;
        if (const std::string p = fe::densityProblem(rho); !p.empty()) warning(loc, "material " + mat.name + ": " + p);
      }
      return;
    }
    case Block::SolidSection:
      return;  // thickness line of 2-D sections: irrelevant for solids
    case Block::Surface:
      splitFields(line, ',', m_fields);
      surfaceLine(loc);
      return;
    case Block::CouplingDofs:
      splitFields(line, ',', m_fields);
      couplingDofLine(loc);
      return;
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
    checkFieldWidth(m_fields[i], loc);
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
  int extra = 0;  // entries after the element's last node: ccx ignores them
  for (;;) {
    std::size_t p = line.find(',', start);
    const bool last = p == std::string_view::npos;
    if (last) p = line.size();
    const std::string_view f = trim(line.substr(start, p - start));
    start = p + 1;
    if (!f.empty() && m_elemHave >= need) {
      ++extra;
    } else if (!f.empty()) {
      ++onLine;
      int v = 0;
      if (!parseInt(f, v, &problem)) {
        error(loc, m_elemHave == 0 ? "*ELEMENT: element id: " + problem
                                   : "element " + std::to_string(m_elemBuf[0]) + ": node " + problem);
        m_elemOpen = false;
        m_elemHave = 0;
        return;
      }
      m_elemBuf[static_cast<std::size_t>(m_elemHave++)] = v;
    }
    if (last) break;
  }
  if (extra > 0 && m_extraEntries++ == 0)
    warning(loc, "element " + std::to_string(m_elemBuf[0]) + ": " + fe::abaqusName(m_elementType) + " has " +
                     std::to_string(need - 1) + " nodes; the " + std::to_string(extra) +
                     " extra entries of the line are ignored (as ccx does)");
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

// ============================== surfaces and couplings ===================================

void Parser::startSurface(const Keyword& k, Loc loc) {
  const std::string* name = k.get("NAME");
  if (!name || trim(*name).empty()) {
    error(loc, "*SURFACE needs NAME=<name>");
    return;
  }
  const std::string* type = k.get("TYPE");
  const std::string upperType = type ? toUpper(trim(*type)) : std::string("ELEMENT");
  if (upperType != "ELEMENT" && upperType != "NODE") {
    info(loc, "*SURFACE, TYPE=" + *type + ": only element-face and node surfaces can be read; skipped");
    return;
  }
  const std::string upper = toUpper(trim(*name));
  if (auto it = m_surfaces.find(upper); it != m_surfaces.end()) {
    error(loc, "surface " + upper + " is defined twice (first at " + where(it->second.defined) + ")");
    return;
  }
  PendingSurface& s = m_surfaces[upper];
  s.name = upper;
  s.defined = loc;
  s.nodes = upperType == "NODE";
  m_surface = &s;
  m_block = Block::Surface;
}

/// "ELSET or element id, S<face>" (element faces) or "NSET or node id[, area]" (TYPE=NODE). Kept
/// as written: a surface of shells or beams is no error unless a coupling uses it.
void Parser::surfaceLine(Loc loc) {
  PendingSurface::Entry e;
  e.loc = loc;
  const std::string_view first = trim(m_fields[0]);
  if (!parseInt(first, e.id)) e.set = toUpper(unquote(first));
  if (!m_surface->nodes && m_fields.size() > 1) {
    e.label = toUpper(trim(m_fields[1]));
    if (e.label.size() == 2 && e.label[0] == 'S' && e.label[1] >= '1' && e.label[1] <= '6') e.face = e.label[1] - '0';
  }
  m_surface->entries.push_back(std::move(e));
}

void Parser::startCoupling(const Keyword& k, Loc loc) {
  PendingCoupling c;
  c.keyword = m_blockName;
  c.loc = loc;
  std::string problem;
  for (const auto& [param, slot] : {std::pair<const char*, int*>{"REF NODE", &c.ref}, {"ROT NODE", &c.rot}})
    if (const std::string* v = k.get(param); v && !parseInt(*v, *slot, &problem)) {
      error(loc, c.keyword + ", " + param + "=: " + problem);
      return;
    }
  if (k.name == "RIGID BODY") {
    const std::string* nset = k.get("NSET");
    const std::string* elset = k.get("ELSET");
    if (!nset == !elset || trim(nset ? *nset : *elset).empty()) {
      error(loc, "*RIGID BODY needs NSET=<set> or ELSET=<set> (one of them)");
      return;
    }
    c.source = nset ? 'N' : 'E';
    c.set = toUpper(trim(nset ? *nset : *elset));
    c.name = "RIGID BODY " + c.set;
    if (c.ref == 0) {
      modelChange(loc, "RIGID BODY without REF NODE", "*RIGID BODY without REF NODE not applied",
                  "*RIGID BODY, " + std::string(nset ? "NSET=" : "ELSET=") + c.set +
                      " has no REF NODE: ccx makes its own reference node, which Flexim cannot offer as an interface "
                      "(give REF NODE=); the rigid body is not applied");
      return;
    }
  } else {
    const std::string* name = k.get("CONSTRAINT NAME");
    const std::string* surface = k.get("SURFACE");
    if (!name || trim(*name).empty() || !surface || trim(*surface).empty() || c.ref == 0) {
      error(loc, "*COUPLING needs CONSTRAINT NAME=<name>, REF NODE=<node> and SURFACE=<surface>");
      return;
    }
    c.source = 'S';
    c.set = toUpper(trim(*surface));
    c.name = toUpper(trim(*name));
    m_couplingOpen = true;  // *KINEMATIC or *DISTRIBUTING must follow
  }
  for (const PendingCoupling& other : m_couplings)
    if (other.name == c.name) {
      error(loc, "coupling " + c.name + " is defined twice (first at " + where(other.loc) + ")");
      m_couplingOpen = false;
      return;
    }
  m_couplings.push_back(std::move(c));
}

/// A data line of *KINEMATIC / *DISTRIBUTING: first DOF[, last DOF].
void Parser::couplingDofLine(Loc loc) {
  PendingCoupling& c = m_couplings.back();
  int range[2] = {0, 0};
  std::string problem;
  for (std::size_t i = 0; i < 2 && i < m_fields.size(); ++i) {
    if (trim(m_fields[i]).empty()) continue;
    if (!parseInt(m_fields[i], range[i], &problem) || range[i] < 1 || range[i] > 6) {
      error(loc, m_blockName + ": degree of freedom " + quoteField(m_fields[i]) + " must be 1 ... 6");
      return;
    }
  }
  if (range[0] == 0) {
    error(loc, m_blockName + " needs the first degree of freedom");
    return;
  }
  if (range[1] == 0) range[1] = range[0];
  for (int d = range[0]; d <= range[1]; ++d) c.dofs |= 1u << (d - 1);
}

/// A *COUPLING that no *KINEMATIC or *DISTRIBUTING follows defines nothing.
void Parser::closeCoupling() {
  m_couplingOpen = false;
  const PendingCoupling& c = m_couplings.back();
  warning(c.loc, "*COUPLING " + c.name + ": no *KINEMATIC or *DISTRIBUTING follows; skipped");
  m_couplings.pop_back();
}

/// The attached nodes of a coupling, in order of first appearance, without its reference and
/// rotation nodes; false (with an error) if its set or surface is not defined.
bool Parser::couplingNodes(const fe::FeModel& m, const PendingCoupling& c, std::vector<int>& nodes) {
  std::vector<char> seen(static_cast<std::size_t>(m.nodeCount()), 0);
  for (const int id : {c.ref, c.rot})
    if (const int index = m.indexOf(id); index >= 0) seen[static_cast<std::size_t>(index)] = 1;
  auto add = [&](int index) {
    // an element of a broken deck may name a node index outside the model: not a node to attach
    if (index >= 0 && static_cast<std::size_t>(index) < seen.size() && !seen[static_cast<std::size_t>(index)]) {
      seen[static_cast<std::size_t>(index)] = 1;
      nodes.push_back(index);
    }
  };
  auto addElement = [&](int e, int face) {
    const fe::Element& el = m.elements[static_cast<std::size_t>(e)];
    if (face == 0) {
      for (int i = 0; i < fe::nodeCount(el.type); ++i) add(el.nodes[static_cast<std::size_t>(i)]);
      return true;
    }
    const std::vector<int> faceNodes = fe::faceNodes(el, face);
    for (int n : faceNodes) add(n);
    return !faceNodes.empty();
  };
  const std::string what = c.keyword + " " + c.name;
  if (c.source == 'N' || c.source == 'E') {
    const auto& sets = c.source == 'N' ? m.node_sets : m.element_sets;
    const auto set = sets.find(c.set);
    if (set == sets.end()) {
      error(c.loc, what + ": " + (c.source == 'N' ? "node" : "element") + " set " + c.set + " is not defined");
      return false;
    }
    for (int i : set->second)
      if (c.source == 'N') add(i);
      else addElement(i, 0);
    return true;
  }
  const auto surface = m_surfaces.find(c.set);
  if (surface == m_surfaces.end()) {
    error(c.loc, what + ": surface " + c.set + " is not defined");
    return false;
  }
  const PendingSurface& s = surface->second;
  for (const PendingSurface::Entry& e : s.entries) {
    const std::string entry = e.set.empty() ? std::to_string(e.id) : e.set;
    if (e.set.empty() && e.id <= 0) {
      error(e.loc, "*SURFACE " + s.name + ": the first entry must be " +
                       (s.nodes ? "a node set or node id" : "an element set or element id"));
      continue;
    }
    if (!s.nodes && e.face == 0) {
      error(e.loc, "*SURFACE " + s.name + ": " +
                       (e.label.empty() ? std::string("the face label (S1 ... S6) is missing")
                                        : "face " + quoteField(e.label) + " is not one of S1 ... S6 (solid element faces)"));
      continue;
    }
    if (s.nodes) {
      if (e.set.empty()) {
        if (m.indexOf(e.id) < 0) error(e.loc, "*SURFACE " + s.name + ": node " + entry + " is not defined");
        add(m.indexOf(e.id));
      } else if (const auto set = m.node_sets.find(e.set); set != m.node_sets.end()) {
        for (int i : set->second) add(i);
      } else {
        error(e.loc, "*SURFACE " + s.name + ": node set " + entry + " is not defined");
      }
      continue;
    }
    std::vector<int> elements;
    if (e.set.empty()) {
      if (const auto it = m_elementIndex.find(e.id); it != m_elementIndex.end()) elements.push_back(it->second);
      else if (m_skippedElementIds.count(e.id)) warning(e.loc, "*SURFACE " + s.name + ": element " + entry + " is a skipped non-solid element; left out");
      else error(e.loc, "*SURFACE " + s.name + ": element " + entry + " is not defined");
    } else if (const auto set = m.element_sets.find(e.set); set != m.element_sets.end()) {
      elements = set->second;
    } else {
      error(e.loc, "*SURFACE " + s.name + ": element set " + entry + " is not defined");
    }
    for (int el : elements)
      if (!addElement(el, e.face)) {
        error(e.loc, "*SURFACE " + s.name + ": element " + std::to_string(m.elements[static_cast<std::size_t>(el)].id) + " (" +
                         fe::abaqusName(m.elements[static_cast<std::size_t>(el)].type) + ") has no face S" +
                         std::to_string(e.face));
        break;
      }
  }
  return !m_gaveUp;
}

/// Pending couplings -> FeModel::couplings; they are not applied to K and M, which changes the
/// model unless a coupling is chosen as a Craig-Bampton interface.
void Parser::couplings(fe::FeModel& m) {
  if (m_couplingOpen) closeCoupling();
  std::string names;
  for (const PendingCoupling& c : m_couplings) {
    fe::Coupling out;
    out.name = c.name;
    out.rigid = c.rigid;
    out.where = where(c.loc);
    out.reference_node = m.indexOf(c.ref);
    if (out.reference_node < 0) {
      error(c.loc, c.keyword + " " + c.name + ": REF NODE " + std::to_string(c.ref) + " is not defined");
      continue;
    }
    const int errors = m_errors;
    if (!couplingNodes(m, c, out.nodes) || m_errors > errors) continue;
    if (out.nodes.empty()) {
      warning(c.loc, c.keyword + " " + c.name + " attaches no node (its set is empty); skipped");
      continue;
    }
    // solid nodes have translations only: a kinematic coupling of DOFs 1-3 already ties them
    // rigidly to the reference node's translation and rotation
    const unsigned wanted = c.rigid ? 07u : 077u;
    if (c.keyword == "*COUPLING" && c.dofs != 0 && (c.dofs & wanted) != wanted)
      warning(c.loc, "*COUPLING " + c.name + " does not couple all DOFs " + (c.rigid ? "1-3" : "1-6") +
                         "; as an interface it ties all six DOFs of the reference node");
    if (m.indexOf(c.rot) < 0 && c.rot != 0) warning(c.loc, c.keyword + ": ROT NODE " + std::to_string(c.rot) + " is not defined");
    names += (names.empty() ? "" : ", ") + c.name;
    m.couplings.push_back(std::move(out));
  }
  if (m.couplings.empty()) return;
  const std::size_t n = m.couplings.size();
  const std::string count = std::to_string(n) + (n == 1 ? " coupling" : " couplings");
  m_changes.push_back({"COUPLINGS", count + " not applied (usable as Craig-Bampton interfaces)", 1});
  warning(m_couplings.front().loc, count + " (" + names + ") not applied to K and M: " + (n == 1 ? "it is" : "each is") +
                                       " usable as a Craig-Bampton interface, by name or reference node id "
                                       "(--interface \"" + m.couplings.front().name + "\"; `flexim-cli info` lists them)");
}

// ============================== discrete elements ========================================

/// MASS, ROTARYI and SPRING* elements with their *MASS / *ROTARY INERTIA / *SPRING into the
/// model's masses, rotary inertias and springs (ccx's definitions: a MASS element is the same
/// mass in x, y and z; SPRINGA acts along the line between its nodes; SPRING1 ties one DOF of
/// its node to ground, SPRING2 a DOF of node 1 to a DOF of node 2).
void Parser::discreteSections(fe::FeModel& m) {
  std::vector<char> covered(m_discrete.size(), 0);
  std::string problem;
  for (const DiscreteSection& sec : m_discreteSections) {
    const std::string kw = "*" + sec.keyword;
    auto set = m_elsets.find(sec.elset);
    if (set == m_elsets.end()) {
      error(sec.loc, kw + ": element set " + sec.elset + " is not defined");
      continue;
    }
    if (sec.nonlinear) {
      modelChange(sec.loc, "SPRING NONLINEAR", "*SPRING, NONLINEAR: nonlinear springs not imported",
                  kw + ", NONLINEAR: nonlinear springs are not supported; the springs of " + sec.elset + " are skipped");
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
        modelChange(dloc, "SPRING ROTATIONAL", "*SPRING: springs on rotational DOFs not imported",
                    kw + ", ELSET=" + sec.elset + ": rotational DOF " + std::to_string(std::max(dofs[0], dofs[1])) +
                        ": solid nodes have no rotations; these springs are skipped");
        continue;
      }
    }
    if (sec.orientation)
      modelChange(sec.loc, kw + " ORIENTATION", kw + ", ORIENTATION: global directions used instead of local ones",
                  kw + ", ORIENTATION: local directions are not supported; the global directions are used");
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
        modelChange(sec.loc, "ROTARY INERTIA", "*ROTARY INERTIA: rotary inertia not in M",
                    "*ROTARY INERTIA: solid nodes have no rotational DOFs, so rotary inertia is not in the "
                    "mass matrix (listed in the mass report only)");
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
          if (!item.generated && elements)
            error(item.loc, setWord + name + ": " + kind + " " + std::to_string(firstMissing) + " is not defined");
          else if (!item.generated)  // ccx accepts it too (with a warning when the id is above every node's)
            warning(item.loc, setWord + name + ": node " + std::to_string(firstMissing) +
                                  " is not defined; it is left out of the set");
          else
            warning(item.loc, setWord + name + ": " + std::to_string(missing) + " of the generated " + kind +
                                  " ids are not defined (first: " + std::to_string(firstMissing) + "); they are left out");
        }
      }
      if (elements) m_skippedMembers[name] = skipped;
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
    if (const long long skipped = m_skippedMembers[sec.elset]; skipped > 0)  // plane stress/strain, axisymmetric
      modelChange(sec.loc, "SOLID SECTION 2-D", "*SOLID SECTION: 2-D (plane or axisymmetric) elements not imported",
                  "*SOLID SECTION, ELSET=" + sec.elset + ": its " + std::to_string(skipped) +
                      " non-solid (2-D) elements are not imported; their stiffness and mass are missing");
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
  couplings(m);
  if (m_errors > 0 || m_gaveUp) return false;

  if (m_extraEntries > 1)
    warning(m_elementLoc.empty() ? Loc{} : m_elementLoc.front(),
            std::to_string(m_extraEntries) + " element data lines in all have entries beyond the element's nodes (ignored)");
  if (!m_orientations.empty()) {
    if (m_anisotropic)
      modelChange(m_orientations.front(), "ORIENTATION", "*ORIENTATION: local material directions not applied",
                  "*ORIENTATION is not supported: the local directions of the anisotropic materials are not applied");
    else
      info(m_orientations.front(), "*ORIENTATION is not imported: every material is isotropic, so local directions change "
                                   "nothing; skipped");
  }
  for (const Change& c : m_changes)
    m.model_changes.push_back(c.count > 1 ? c.phrase + " (" + std::to_string(c.count) + " definitions)" : c.phrase);

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
