// Internals of the Nastran bulk data reader (nastran.h), shared by its source files: the cards
// and definitions as read, two field helpers, and the parser class. Its member functions are
// spread over the source files by card family:
//   nastran.cpp            the entry points, field access, the card dispatch and the resolution
//                          of the model once every card is read
//   nastran_syntax.cpp     lines to cards: small, large and free field, continuations,
//                          replication, INCLUDE, BEGIN sections, skipped cards
//   nastran_geometry.cpp   GRID, GRDSET, CORD1R/1C/1S, CORD2R/2C/2S: grids in the basic system
//   nastran_solids.cpp     CTETRA, CPYRAM, CPENTA, CHEXA with PSOLID and MAT1
//   nastran_discrete.cpp   masses and springs: CONM1, CONM2, CMASS1/2, CELAS1/2, CBUSH with
//                          PMASS, PELAS, PBUSH
//   nastran_couplings.cpp  RBE2 and RBE3
#pragma once

#include "core/base/diagnostics.h"
#include "core/fe/fe_model.h"
#include "io/fe/nastran.h"
#include "io/fe/nastran_coord.h"
#include "io/fe/nastran_skipped.h"

#include <Eigen/Core>

#include <array>
#include <cstddef>
#include <deque>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace flexim::io::nastran_detail {

using nastran::CoordSystem;
using nastran::SkippedGroup;

/// A solid element card: its linear and quadratic element types (corner-only or all grids).
struct SolidCard {
  const char* name;
  fe::ElementType linear, quadratic;
};

/// A place in the input: index of the file and line number.
struct Loc {
  int file = 0;
  int line = 0;
};

/// One bulk data card: name (upper case, without '*') and its data fields (field 2 of the
/// first line is fields[0]; each physical line contributes 8 fields, or 4 in large field).
struct Card {
  std::string name;
  Loc loc;
  std::vector<std::string> fields;
  std::vector<int> fieldLines;  ///< line number of each field
};

struct PendingElement {
  int id = 0, pid = 0;
  fe::ElementType type = fe::ElementType::Tet4;
  int count = 0;
  std::array<int, 20> grids{};  ///< grid ids, already in Abaqus order
  Loc loc;
  std::string card;
};

struct MatCard {
  int index = -1;  ///< into FeModel::materials
  Loc loc;
  std::string derived;  ///< how E or NU was derived ("NU = E / (2 G) - 1"), "" when both were given
};

struct PropCard {
  int mid = 0;
  Loc loc;
};

/// A GRID as written: coordinates in its CP system, CD, and whether CP/CD were blank (GRDSET).
struct GridCard {
  int id = 0, cp = 0, cd = 0;
  bool cpBlank = true, cdBlank = true;
  Eigen::Vector3d x = Eigen::Vector3d::Zero();
  Loc loc;
};

/// A CORD1x or CORD2x system as written.
struct CoordCard {
  std::string card;  ///< "CORD2R", ...
  int cid = 0;
  bool byGrids = false;           ///< CORD1x: three grids; CORD2x: three points in RID
  int rid = 0;                    ///< CORD2x
  std::array<int, 3> grids{};     ///< CORD1x: grid ids
  std::array<Eigen::Vector3d, 3> points{};  ///< CORD2x: A, B, C in RID
  Loc loc;
};

/// How the lines of the open card are taken.
enum class Mode {
  Read,       ///< a card this importer reads: fields are kept
  Replicate,  ///< "=", "=n": a replication entry (fields are the codes "=", "==", "*x", ...)
  Skip,       ///< a card it skips: continuation lines are passed over unread
  Raw,        ///< DEQATN: free text (commas, blanks) until a line starts in column 1
  Section,    ///< inside an unsupported BEGIN section (BEGIN SUPER=n, ...): counted, not read
};

/// The card before a replication entry, as the entry copies it.
struct Previous {
  bool valid = false, skipped = false;
  std::string name;
  std::vector<std::string> fields;
  std::vector<std::string> pattern;  ///< the codes of the replication entry that made it ("=n" repeats them)
};

/// A field written as a real number (a decimal point or an exponent): weights, ALPHA.
bool looksReal(std::string_view f);

/// Nastran field number (2..9) and line (1-based within the card) of data field i, for messages.
std::string fieldName(std::size_t i);

class NastranParser {
 public:
  NastranParser(Diagnostics& diag, const NastranOptions& options) : m_diag(diag), m_options(options) {}

  bool run(std::string_view text, const std::string& source, fe::FeModel& out);

 private:
  std::string where(const Loc& l) const { return m_files[l.file] + ":" + std::to_string(l.line); }
  void error(const Loc& l, const std::string& message) {
    if (m_stop) return;
    m_diag.error(where(l), message);
    if (++m_errors >= m_options.max_errors) {
      m_diag.error(m_files[0], "too many errors, stopped reading");
      m_stop = true;
    }
  }
  void warning(const Loc& l, const std::string& message) { m_diag.warning(where(l), message); }

  void readText(std::string_view text, int file, int depth, bool skipToBulk);
  void include(std::string_view line, const Loc& loc, int depth);
  void line(std::string_view raw, const Loc& loc, int depth);
  void openCard(std::string_view first, const Loc& loc, bool large, std::string_view idField);
  void finishCard();
  void expandReplication();
  void card(const Card& c);
  void countSkipped(const std::string& name, const Loc& loc);
  void beginSection(std::string_view line, const Loc& loc);
  void closeSection();

  // field access for card c
  bool blank(const Card& c, std::size_t i) const { return i >= c.fields.size() || c.fields[i].empty(); }
  Loc fieldLoc(const Card& c, std::size_t i) const {
    return {c.loc.file, i < c.fieldLines.size() ? c.fieldLines[i] : c.loc.line};
  }
  bool intField(const Card& c, std::size_t i, const char* what, int& out, bool required, int def = 0);
  bool realField(const Card& c, std::size_t i, const char* what, double& out, bool& given);
  std::string label(const Card& c) const {
    return c.name + (c.fields.empty() || c.fields[0].empty() ? std::string() : " " + c.fields[0]);
  }
  void noExtraFields(const Card& c, std::size_t used);

  void grid(const Card& c);
  void grdset(const Card& c);
  void coord(const Card& c);
  void solid(const Card& c, const SolidCard& kind);
  void mat1(const Card& c);
  void psolid(const Card& c);
  void property(const Card& c);
  void discrete(const Card& c, fe::FeModel& m);
  void coupling(const Card& c);
  bool gridIndex(const Card& c, std::size_t field, bool required, int& index);
  bool components(const Card& c, std::size_t field, const char* what, std::string& out);
  std::size_t gridList(const Card& c, std::size_t i, std::vector<int>& ids, bool& ok);
  bool axesAt(const Card& c, int cid, const Eigen::Vector3d& x, Eigen::Matrix3d& axes);
  Eigen::Vector3d nodeDirection(int node, int component) const;
  std::string notDefined(const char* card, int id) const;

  void resolveGeometry();
  bool resolve(fe::FeModel& out);
  void resolveElements(std::set<int>& ids);
  /// Renumbers a solid given in the mirror order (inverted at every point) into the positive
  /// one; true when it did.
  bool orientSolid(fe::Element& e);
  void reportSkipped();
  void resolveCouplings(std::set<int>& ids);
  void constraints();

  Diagnostics& m_diag;
  NastranOptions m_options;
  int m_errors = 0;
  bool m_stop = false, m_endData = false;

  std::vector<std::string> m_files;  ///< names for messages
  std::deque<std::string> m_texts;   ///< contents of included files (kept alive)
  std::vector<std::string> m_stack;  ///< canonical paths of the files being read (cycles)
  std::set<int> m_col80Warned;       ///< files already warned about text after column 80

  bool m_open = false;
  Card m_card;
  bool m_cardLarge = false;
  Mode m_mode = Mode::Read;
  long long m_repeat = 0;  ///< Mode::Replicate: 0 for "=", n for "=n"
  Previous m_prev;
  std::string_view m_lineText;  ///< the line being read (for messages)
  /// An INCLUDE whose quoted file name goes on over the next lines (Nastran allows it): the text
  /// so far, from the opening quote, and where the statement began; empty when none is open.
  std::string m_includeName;
  Loc m_includeLoc;

  // unsupported BEGIN sections
  std::string m_section;  ///< "" = the main bulk data
  Loc m_sectionLoc;
  long long m_sectionCards = 0;

  fe::FeModel m_model;
  std::vector<GridCard> m_grids;  ///< per node index
  std::optional<std::pair<GridCard, Loc>> m_grdset;
  std::map<int, CoordCard> m_coordCards;
  std::map<int, CoordSystem> m_systems;  ///< resolved, by CID
  std::vector<PendingElement> m_elements;
  std::map<int, MatCard> m_mats;
  std::map<int, PropCard> m_props;
  std::vector<Card> m_discrete, m_couplings, m_mpcs;  ///< resolved once every GRID and property is read
  std::map<int, std::pair<double, Loc>> m_pelas, m_pmass;  ///< PID -> K or M
  std::map<int, std::pair<std::array<double, 6>, Loc>> m_pbush;  ///< PID -> K1..K6
  std::map<std::string, std::pair<long long, Loc>> m_skipped;  ///< card name -> count, first place
  std::map<std::pair<char, int>, std::string> m_skippedIds;  ///< ('M' material / 'P' property, id) -> card
  std::vector<int> m_sortedIds;  ///< grid ids, sorted (THRU ranges)
  std::vector<std::string_view> m_split;
};

}  // namespace flexim::io::nastran_detail
