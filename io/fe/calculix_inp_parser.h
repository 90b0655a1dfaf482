// Internals of the CalculiX / Abaqus .inp reader (calculix_inp.h), shared by its source files:
// the reader's limits, the definitions kept until the whole deck is read, a keyword line as
// parsed, and the parser class. Its member functions are spread over the source files by
// keyword family:
//   calculix_inp.cpp            the entry points, files and lines, the data lines of each block
//                               (with those of *ELASTIC and *DENSITY), and the resolution of the
//                               model once the whole deck is read
//   calculix_inp_keywords.cpp   keyword lines: the keywords Flexim knows, *MATERIAL and its
//                               options, *INCLUDE
//   calculix_inp_mesh.cpp       *NODE and *ELEMENT
//   calculix_inp_sets.cpp       *NSET and *ELSET
//   calculix_inp_discrete.cpp   discrete elements (MASS, ROTARYI, SPRINGA, SPRING1, SPRING2) with
//                               *MASS, *ROTARY INERTIA and *SPRING
//   calculix_inp_couplings.cpp  *SURFACE, *RIGID BODY, *COUPLING with *KINEMATIC / *DISTRIBUTING
//   calculix_inp_constraints.cpp  *EQUATION and *TIE (linear constraints)
#pragma once

#include "core/base/diagnostics.h"
#include "core/fe/fe_model.h"
#include "io/fe/calculix_inp.h"
#include "io/fe/line_reader.h"

#include <array>
#include <cstddef>
#include <map>
#include <set>
#include <string>
#include <string_view>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <vector>

namespace flexim::io::inp_detail {

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
  /// REF NODE / ROT NODE given as the name of a node set of one node (ccx accepts either);
  /// resolved to `ref` / `rot` once the sets are known
  std::string refSet, rotSet;
  char source = 'N';     ///< the set its nodes come from: 'N' NSET, 'E' ELSET, 'S' SURFACE
  std::string set;
  bool rigid = true;     ///< *KINEMATIC / *RIGID BODY; false: *DISTRIBUTING
  unsigned dofs = 0;     ///< bit d-1 set: DOF d on a data line of *KINEMATIC / *DISTRIBUTING
};

/// *EQUATION: one linear constraint, its terms as written (a node id or a node set of one node,
/// a DOF, a coefficient), resolved in finish().
struct PendingEquation {
  struct Term {
    std::string node;
    int dof = 0;
    double coefficient = 0;
    Loc loc;
  };
  Loc loc;
  int count = 0;  ///< terms announced on its first line
  std::vector<Term> terms;
};

/// *TIE: slave surface (nodes or element faces) tied to a master surface (element faces).
struct PendingTie {
  std::string name;
  Loc loc;
  double tolerance = 0;  ///< POSITION TOLERANCE (0: the default)
  bool adjust = true;    ///< ADJUST=NO given: false
  std::string slave, master;
};

/// s without blanks: ccx removes them from keyword lines (*SOLIDSECTION = *SOLID SECTION,
/// REFNODE = REF NODE).
std::string withoutBlanks(std::string_view s);

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
  DiscreteSection, Surface, CouplingDofs, Equation, Tie
};

/// Whether s begins with prefix.
bool startsWith(std::string_view s, std::string_view prefix);

/// Removes surrounding double quotes.
std::string_view unquote(std::string_view s);

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
  /// The members of surface `name`: its nodes (TYPE=NODE) or element faces (element index, face
  /// 1..6); false (with an error naming `what`) when it is not defined.
  bool surfaceMembers(const fe::FeModel& m, const std::string& name, Loc loc, const std::string& what,
                      std::vector<int>& nodes, std::vector<std::pair<int, int>>& faces);
  void startTie(const Keyword& k, Loc loc);
  void equationLine(Loc loc);
  void tieLine(Loc loc);
  void ties(fe::FeModel& m);
  void equations(fe::FeModel& m);

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
  std::vector<PendingEquation> m_equations;
  std::vector<PendingTie> m_ties;
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

}  // namespace flexim::io::inp_detail
