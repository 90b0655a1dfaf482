#include "io/fe/nastran.h"

#include "io/fe/line_reader.h"

#include <Eigen/Eigenvalues>

#include <algorithm>
#include <array>
#include <cmath>
#include <deque>
#include <filesystem>
#include <map>
#include <set>
#include <unordered_map>
#include <vector>

namespace flexim::io {

namespace {

namespace fs = std::filesystem;

constexpr int kMaxIncludeDepth = 32;
constexpr std::size_t kMaxCardFields = 200;  ///< longer cards are certainly garbage here

/// Node-order maps, abaqus[i] = nastran[map[i]] (one table for all supported solids).
/// CTETRA G5..G10 = edges 1-2, 2-3, 3-1, 1-4, 2-4, 3-4: the same as C3D10.
/// CHEXA G9..G12 bottom edges, G13..G16 vertical edges (1-5, 2-6, 3-7, 4-8), G17..G20 top edges;
/// C3D20 has the top edges at 13..16 and the vertical edges at 17..20.
/// CPENTA G7..G9 bottom edges (1-2, 2-3, 3-1), G10..G12 vertical edges (1-4, 2-5, 3-6),
/// G13..G15 top edges (4-5, 5-6, 6-4); C3D15 has the top edges at 10..12, the vertical at 13..15.
/// CPYRAM G6..G9 base edges (1-2, 2-3, 3-4, 4-1), G10..G13 edges to the apex (1-5, 2-5, 3-5, 4-5):
/// C3D13 is defined in this order.
struct SolidOrder {
  fe::ElementType type;
  int nodes;
  std::array<int, 20> toAbaqus;
};
constexpr std::array<SolidOrder, 8> kOrders{{
    {fe::ElementType::Tet4, 4, {0, 1, 2, 3}},
    {fe::ElementType::Tet10, 10, {0, 1, 2, 3, 4, 5, 6, 7, 8, 9}},
    {fe::ElementType::Hex8, 8, {0, 1, 2, 3, 4, 5, 6, 7}},
    {fe::ElementType::Hex20, 20, {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 16, 17, 18, 19, 12, 13, 14, 15}},
    {fe::ElementType::Wedge6, 6, {0, 1, 2, 3, 4, 5}},
    {fe::ElementType::Wedge15, 15, {0, 1, 2, 3, 4, 5, 6, 7, 8, 12, 13, 14, 9, 10, 11}},
    {fe::ElementType::Pyramid5, 5, {0, 1, 2, 3, 4}},
    {fe::ElementType::Pyramid13, 13, {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12}},
}};

/// A solid element card: its linear and quadratic element types (corner-only or all grids).
struct SolidCard {
  const char* name;
  fe::ElementType linear, quadratic;
};
constexpr std::array<SolidCard, 4> kSolidCards{{
    {"CTETRA", fe::ElementType::Tet4, fe::ElementType::Tet10},
    {"CPYRAM", fe::ElementType::Pyramid5, fe::ElementType::Pyramid13},
    {"CPENTA", fe::ElementType::Wedge6, fe::ElementType::Wedge15},
    {"CHEXA", fe::ElementType::Hex8, fe::ElementType::Hex20},
}};

const SolidCard* solidCard(std::string_view name) {
  for (const SolidCard& c : kSolidCards)
    if (name == c.name) return &c;
  return nullptr;
}

/// "CTETRA, CPYRAM, CPENTA, CHEXA", for messages.
std::string solidCardNames() {
  std::string s;
  for (const SolidCard& c : kSolidCards) s += (s.empty() ? "" : ", ") + std::string(c.name);
  return s;
}

// Cards skipped with an info: analysis, loads, constraints, output, coordinate systems
// (a GRID that uses a coordinate system is an error by itself).
const std::set<std::string, std::less<>> kAnalysisCards{
    "PARAM",   "EIGRL",   "EIGR",    "EIGB",    "EIGC",    "SPC",    "SPC1",   "SPCADD", "SPCD",   "MPCADD", "FORCE",
    "FORCE1",  "FORCE2",  "MOMENT",  "MOMENT1", "MOMENT2", "LOAD",   "GRAV",   "RFORCE", "PLOAD",  "PLOAD1", "PLOAD2",
    "PLOAD4",  "TEMP",    "TEMPD",   "CORD1R",  "CORD1C",  "CORD1S", "CORD2R", "CORD2C", "CORD2S", "DTI",    "TABLED1",
    "TABLED2", "TABLEM1", "TABDMP1", "FREQ",    "FREQ1",   "FREQ2",  "TSTEP",  "NLPARM", "SUPORT", "ASET",   "ASET1",
    "QSET",    "QSET1",   "BSET",    "BSET1",   "CSET",    "CSET1",  "OMIT",   "OMIT1",  "SESET",  "SET1",   "SET3",
    "DAREA",   "DLOAD",   "RLOAD1",  "RLOAD2",  "TLOAD1",  "TLOAD2", "DELAY",  "DPHASE", "SPOINT", "EPOINT", "MATT1",
    "GRDSET",  "BCTSET",  "BSURF",   "BSURFS",  "BCPROP",  "USET",   "USET1",  "MONPNT1"};

// Structural cards the solid model cannot hold: skipped with a warning (the model differs).
const std::set<std::string, std::less<>> kStructuralCards{
    "CQUAD4",  "CQUAD8",  "CQUADR",  "CTRIA3",  "CTRIA6", "CTRIAR",  "CSHEAR", "CBAR",   "CBEAM",  "CROD",    "CONROD",
    "CTUBE",   "CBUSH1D", "CGAP",    "CWELD",  "CFAST",   "CELAS3", "CELAS4",  "CMASS3", "CMASS4",  "RBE1",
    "RBE2",    "RBE3",    "RBAR",    "RBAR1",   "RROD",   "RSPLINE", "MPC",    "PSHELL", "PCOMP",  "PCOMPG",  "PBAR",
    "PBARL",   "PBEAM",   "PBEAML",  "PROD",    "PTUBE",  "PSHEAR", "PGAP",    "PWELD",
    "PFAST",   "MAT2",    "MAT3",    "MAT8",    "MAT9",   "MAT10",   "MATS1",  "CQUADX", "CTRIAX", "CTRIAX6", "PLPLANE",
    "PLSOLID", "CPLSTN3", "CPLSTN4", "CPLSTS3", "CPLSTS4"};

// Dampers: skipped with a warning that says so.
const std::set<std::string, std::less<>> kDamperCards{"CDAMP1", "CDAMP2", "CDAMP3", "CDAMP4", "CDAMP5",
                                                      "CVISC",  "PDAMP",  "PDAMP5", "PVISC"};

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

/// CONM1/CONM2/CMASS1/CMASS2/CELAS1/CELAS2/CBUSH, resolved once every GRID and property is read.
struct PendingDiscrete {
  Card card;
};

struct MatCard {
  int index = -1;  ///< into FeModel::materials
  Loc loc;
};

struct PropCard {
  int mid = 0;
  Loc loc;
};

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

  void readText(std::string_view text, int file, int depth, bool skipToBulk);
  void include(std::string_view line, const Loc& loc, int depth);
  void line(std::string_view raw, const Loc& loc, int depth);
  void finishCard();
  void card(const Card& c);

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
  void solid(const Card& c, const SolidCard& kind);
  void mat1(const Card& c);
  void psolid(const Card& c);
  void property(const Card& c);
  void discrete(const Card& c, fe::FeModel& m);
  bool gridIndex(const Card& c, std::size_t field, bool required, int& index);
  bool resolve(fe::FeModel& out);

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

  fe::FeModel m_model;
  std::vector<PendingElement> m_elements;
  std::unordered_map<int, Loc> m_gridLoc;
  std::map<int, MatCard> m_mats;
  std::map<int, PropCard> m_props;
  std::vector<PendingDiscrete> m_discrete;
  std::map<int, std::pair<double, Loc>> m_pelas, m_pmass;  ///< PID -> K or M
  std::map<int, std::pair<std::array<double, 6>, Loc>> m_pbush;  ///< PID -> K1..K6
  std::map<std::string, std::pair<int, Loc>> m_skipped;  ///< card name -> count, first place
  std::vector<std::string_view> m_split;
};

// ---- lines to cards ----------------------------------------------------------------------

std::string expandTabs(std::string_view s) {
  std::string out;
  for (char c : s) {
    if (c == '\t') {
      do out += ' ';
      while (out.size() % 8 != 0);
    } else {
      out += c;
    }
  }
  return out;
}

bool validName(std::string_view n) {
  if (n.empty() || n.size() > 16) return false;
  if (!((n[0] >= 'A' && n[0] <= 'Z') || (n[0] >= 'a' && n[0] <= 'z'))) return false;
  for (char c : n)
    if (!((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9'))) return false;
  return true;
}

void NastranParser::readText(std::string_view text, int file, int depth, bool skipToBulk) {
  LineReader in(text, m_files[file]);
  std::string_view l;
  if (skipToBulk) {
    // skip executive and case control when the file has a BEGIN BULK line
    bool found = false;
    while (in.next(l)) {
      const std::string u = toUpper(trim(l));
      if (u.rfind("BEGIN", 0) == 0 && u.find("BULK") != std::string::npos) {
        found = true;
        break;
      }
    }
    if (!found) in = LineReader(text, m_files[file]);
  }
  while (!m_stop && !m_endData && in.next(l)) line(l, {file, in.line()}, depth);
}

void NastranParser::include(std::string_view rest, const Loc& loc, int depth) {
  finishCard();
  std::string_view name = trim(rest);
  if (!name.empty() && (name.front() == '\'' || name.front() == '"')) {
    const char q = name.front();
    const std::size_t end = name.find(q, 1);
    if (end == std::string_view::npos) {
      error(loc, "INCLUDE: missing closing quote");
      return;
    }
    name = name.substr(1, end - 1);
  }
  if (name.empty()) {
    error(loc, "INCLUDE without a file name");
    return;
  }
  if (!m_options.follow_includes) {
    error(loc, "INCLUDE is not allowed here (" + quoteField(name) + ")");
    return;
  }
  if (depth + 1 > kMaxIncludeDepth) {
    error(loc, "INCLUDE nested more than " + std::to_string(kMaxIncludeDepth) + " levels deep");
    return;
  }
  fs::path p{std::string(name)};
  if (p.is_relative()) p = fs::path(m_files[loc.file]).parent_path() / p;
  std::error_code ec;
  fs::path canon = fs::weakly_canonical(p, ec);
  if (ec) canon = p;
  if (std::find(m_stack.begin(), m_stack.end(), canon.string()) != m_stack.end()) {
    error(loc, "INCLUDE " + quoteField(name) + " includes itself (directly or through other files)");
    return;
  }
  Diagnostics readDiag;
  std::string text;
  if (!readTextFile(p.string(), text, readDiag)) {
    std::string why = readDiag.items().empty() ? std::string("cannot read it") : readDiag.items().front().message;
    error(loc, "INCLUDE " + quoteField(name) + ": " + why);
    return;
  }
  m_texts.push_back(std::move(text));
  m_files.push_back(p.string());
  m_model.sources.push_back(p.string());
  m_stack.push_back(canon.string());
  readText(m_texts.back(), static_cast<int>(m_files.size()) - 1, depth + 1, false);
  finishCard();
  m_stack.pop_back();
}

void NastranParser::line(std::string_view raw, const Loc& loc, int depth) {
  // comments, tabs, blank lines
  std::string_view cut = raw;
  if (const std::size_t dollar = cut.find('$'); dollar != std::string_view::npos) cut = cut.substr(0, dollar);
  if (trim(cut).empty()) return;
  const std::string s = cut.find('\t') == std::string_view::npos ? std::string(cut) : expandTabs(cut);

  // INCLUDE is a whole-line statement (its file name may contain anything)
  {
    const std::string_view t = trim(s);
    if (t.size() > 7 && equalsIgnoreCase(t.substr(0, 7), "INCLUDE") && (t[7] == ' ' || t[7] == '\'' || t[7] == '"')) {
      include(t.substr(7), loc, depth);
      return;
    }
  }
  const bool free = s.find(',') != std::string::npos;
  std::string_view first;
  std::vector<std::string_view> data;
  std::string_view tail;  // what follows the data fields
  bool large = false;

  if (free) {
    splitFields(s, ',', m_split);
    first = m_split[0];
  } else {
    first = trim(columns(s, 1, 8));
  }
  const bool continuation = first.empty() || first[0] == '+' || first[0] == '*';
  if (continuation) {
    large = !first.empty() && first[0] == '*';
  } else {
    if (toUpper(first).rfind("ENDDATA", 0) == 0) {
      finishCard();
      m_endData = true;
      return;
    }
    if (first.back() == '*') {
      large = true;
      first.remove_suffix(1);
    }
  }
  const std::size_t per = large ? 4 : 8;
  if (free) {
    for (std::size_t i = 1; i < m_split.size() && i <= per; ++i) data.push_back(m_split[i]);
    if (m_split.size() > per + 2) {
      error(loc, "free-field line has " + std::to_string(m_split.size()) + " fields; at most " +
                     std::to_string(per + 2) + " (name, " + std::to_string(per) +
                     " data fields, continuation) are allowed");
      return;
    }
  } else {
    const std::size_t w = large ? 16 : 8;
    for (std::size_t i = 0; i < per; ++i) data.push_back(trim(columns(s, 9 + i * w, 8 + (i + 1) * w)));
    tail = trim(columns(s, 81, s.size()));
    if (!tail.empty() && m_col80Warned.insert(loc.file).second)
      m_diag.warning(where(loc),
                     "text after column 80 ignored (fixed-field lines have 80 columns; "
                     "reported once per file)");
  }

  if (continuation) {
    if (!m_open) {
      error(loc, "continuation line " + quoteField(trim(s)) + " without a card before it");
      return;
    }
  } else {
    finishCard();
    if (!validName(first)) {
      error(loc, "not a bulk data card: " + quoteField(trim(s)));
      return;
    }
    m_open = true;
    m_card = Card{toUpper(first), loc, {}, {}};
    m_cardLarge = large;
  }
  if (m_card.fields.size() + per > kMaxCardFields) {
    error(loc, m_card.name + " card has too many continuation lines");
    m_open = false;
    return;
  }
  for (std::size_t i = 0; i < per; ++i) {
    m_card.fields.emplace_back(i < data.size() ? data[i] : std::string_view());
    m_card.fieldLines.push_back(loc.line);
  }
}

void NastranParser::finishCard() {
  if (!m_open) return;
  m_open = false;
  if (!m_stop) card(m_card);
}

// ---- fields ------------------------------------------------------------------------------

bool NastranParser::intField(const Card& c, std::size_t i, const char* what, int& out, bool required, int def) {
  if (blank(c, i)) {
    if (required) {
      error(fieldLoc(c, i), label(c) + ": " + what + " (field " + std::to_string(i % 8 + 2) + ") is missing");
      return false;
    }
    out = def;
    return true;
  }
  std::string problem;
  if (!parseInt(c.fields[i], out, &problem)) {
    error(fieldLoc(c, i), label(c) + ": " + what + ": " + problem);
    return false;
  }
  return true;
}

bool NastranParser::realField(const Card& c, std::size_t i, const char* what, double& out, bool& given) {
  given = !blank(c, i);
  if (!given) return true;
  std::string problem;
  if (!parseNastranReal(c.fields[i], out, &problem)) {
    error(fieldLoc(c, i), label(c) + ": " + what + ": " + problem);
    return false;
  }
  return true;
}

void NastranParser::noExtraFields(const Card& c, std::size_t used) {
  for (std::size_t i = used; i < c.fields.size(); ++i)
    if (!c.fields[i].empty()) {
      error(fieldLoc(c, i), label(c) + ": unexpected data " + quoteField(c.fields[i]) + " after the last field");
      return;
    }
}

// ---- cards -------------------------------------------------------------------------------

void NastranParser::card(const Card& c) {
  if (c.name == "GRID") {
    grid(c);
  } else if (const SolidCard* sc = solidCard(c.name)) {
    solid(c, *sc);
  } else if (c.name == "MAT1") {
    mat1(c);
  } else if (c.name == "PSOLID") {
    psolid(c);
  } else if (c.name == "CONM1" || c.name == "CONM2" || c.name == "CMASS1" || c.name == "CMASS2" ||
             c.name == "CELAS1" || c.name == "CELAS2" || c.name == "CBUSH") {
    m_discrete.push_back({c});
  } else if (c.name == "PELAS" || c.name == "PMASS" || c.name == "PBUSH") {
    property(c);
  } else {
    auto [it, inserted] = m_skipped.try_emplace(c.name, 0, c.loc);
    ++it->second.first;
  }
}

void NastranParser::grid(const Card& c) {
  int id = 0, cp = 0, cd = 0;
  if (!intField(c, 0, "grid id", id, true) || !intField(c, 1, "CP", cp, false) || !intField(c, 5, "CD", cd, false))
    return;
  if (id < 1) {
    error(fieldLoc(c, 0), label(c) + ": grid id must be positive");
    return;
  }
  if (cp != 0) {
    error(fieldLoc(c, 1), label(c) + ": coordinate system CP = " + std::to_string(cp) +
                              " is not supported (only the basic system, CP blank or 0)");
    return;
  }
  if (cd != 0) {
    error(fieldLoc(c, 5), label(c) + ": output coordinate system CD = " + std::to_string(cd) +
                              " is not supported (only the basic system, CD blank or 0)");
    return;
  }
  Eigen::Vector3d x = Eigen::Vector3d::Zero();
  static const char* kX[] = {"X1", "X2", "X3"};
  for (int k = 0; k < 3; ++k) {
    bool given = false;
    if (!realField(c, 2 + k, kX[k], x[k], given)) return;
  }
  noExtraFields(c, 8);
  if (m_model.addNode(id, x) < 0) {
    error(c.loc, "GRID " + std::to_string(id) + " is defined twice (first at " + where(m_gridLoc[id]) + ")");
    return;
  }
  m_gridLoc[id] = c.loc;
}

void NastranParser::solid(const Card& c, const SolidCard& kind) {
  PendingElement e;
  e.loc = c.loc;
  e.card = c.name;
  if (!intField(c, 0, "element id", e.id, true) || !intField(c, 1, "property id", e.pid, true)) return;
  if (e.id < 1) {
    error(fieldLoc(c, 0), label(c) + ": element id must be positive");
    return;
  }
  const int lo = fe::nodeCount(kind.linear), hi = fe::nodeCount(kind.quadratic);
  const std::size_t maxGrids = static_cast<std::size_t>(hi);
  std::array<int, 20> g{};
  int count = 0;
  bool gap = false;
  for (std::size_t k = 0; k < maxGrids; ++k) {
    if (blank(c, 2 + k)) {
      gap = true;
      continue;
    }
    if (gap) {
      error(fieldLoc(c, 2 + k), label(c) + ": grid G" + std::to_string(k + 1) +
                                    " follows a blank grid field; mid-side grids must all be given or all omitted");
      return;
    }
    std::string what(1, 'G');
    what += std::to_string(k + 1);
    if (!intField(c, 2 + k, what.c_str(), g[k], true)) return;
    ++count;
  }
  noExtraFields(c, 2 + maxGrids);
  if (count != lo && count != hi) {
    error(c.loc, label(c) + " has " + std::to_string(count) + " grids; " + c.name + " needs " + std::to_string(lo) +
                     " or " + std::to_string(hi) + (count < lo ? " (card truncated?)" : ""));
    return;
  }
  e.type = count == lo ? kind.linear : kind.quadratic;
  e.count = count;
  const std::span<const int> map = nastranToAbaqus(e.type);
  for (int k = 0; k < count; ++k) e.grids[k] = g[map[k]];
  for (int k = 0; k < count; ++k)
    for (int j = 0; j < k; ++j)
      if (e.grids[k] == e.grids[j]) {
        error(c.loc, label(c) + " uses grid " + std::to_string(e.grids[k]) + " twice");
        return;
      }
  m_elements.push_back(e);
}

void NastranParser::mat1(const Card& c) {
  int mid = 0;
  if (!intField(c, 0, "material id", mid, true)) return;
  double E = 0, G = 0, nu = 0, rho = 0;
  bool hasE = false, hasG = false, hasNu = false, hasRho = false;
  if (!realField(c, 1, "E", E, hasE) || !realField(c, 2, "G", G, hasG) || !realField(c, 3, "NU", nu, hasNu) ||
      !realField(c, 4, "RHO", rho, hasRho))
    return;
  const std::string lab = "MAT1 " + std::to_string(mid);
  if (hasE && hasG && !hasNu) {
    nu = E / (2.0 * G) - 1.0;
  } else if (!hasE && hasG && hasNu) {
    E = 2.0 * G * (1.0 + nu);
  } else if (hasE && !hasG && !hasNu) {
    nu = 0.0;
    m_diag.warning(where(c.loc), lab + ": G and NU are blank; NU = 0 assumed (Nastran convention)");
  } else if (hasE && !hasG && hasNu) {
    // the usual case: E and NU
  } else if (hasE && hasG && hasNu) {
    const double g = E / (2.0 * (1.0 + nu));
    if (std::abs(G - g) > 0.01 * std::abs(g))
      m_diag.warning(where(c.loc), lab + ": G = " + std::to_string(G) + " does not match E / (2 (1 + NU)) = " +
                                       std::to_string(g) + "; E and NU are used");
  } else if (!hasE && !hasG) {
    error(c.loc, lab + ": E and G are both blank; at least one of them is needed");
    return;
  } else {  // G alone, or NU alone
    error(c.loc, lab + ": E cannot be derived (give E, or G and NU)");
    return;
  }
  if (!(E > 0.0) || !std::isfinite(E)) {
    error(c.loc, lab + ": Young's modulus E = " + std::to_string(E) + " must be positive");
    return;
  }
  if (!(nu > -1.0 && nu < 0.5)) {
    error(c.loc, lab + ": Poisson's ratio NU = " + std::to_string(nu) + " must lie in (-1, 0.5)");
    return;
  }
  if (hasRho && rho < 0.0) {
    error(fieldLoc(c, 4), lab + ": density RHO = " + std::to_string(rho) + " is negative");
    return;
  }
  if (m_mats.count(mid)) {
    error(c.loc, lab + " is defined twice (first at " + where(m_mats[mid].loc) + ")");
    return;
  }
  fe::Material m;
  m.name = "MAT1_" + std::to_string(mid);
  m.E = E;
  m.nu = nu;
  m.rho = hasRho ? rho : 0.0;
  m.has_elastic = true;
  m.has_density = hasRho;
  m_mats[mid] = {static_cast<int>(m_model.materials.size()), c.loc};
  m_model.materials.push_back(m);
}

void NastranParser::psolid(const Card& c) {
  int pid = 0, mid = 0;
  if (!intField(c, 0, "property id", pid, true) || !intField(c, 1, "material id", mid, true)) return;
  if (m_props.count(pid)) {
    error(c.loc, "PSOLID " + std::to_string(pid) + " is defined twice (first at " + where(m_props[pid].loc) + ")");
    return;
  }
  m_props[pid] = {mid, c.loc};
}

void NastranParser::property(const Card& c) {
  // PELAS and PMASS hold up to 4 (PMASS) or 2 (PELAS) properties per line
  const bool elas = c.name == "PELAS", bush = c.name == "PBUSH";
  if (bush) {
    int pid = 0;
    if (!intField(c, 0, "property id", pid, true)) return;
    std::array<double, 6> k{};
    for (std::size_t i = 1; i < c.fields.size(); ++i)
      if (toUpper(trim(c.fields[i])) == "K") {
        for (std::size_t j = 0; j < 6; ++j) {
          bool given = false;
          if (!realField(c, i + 1 + j, "K", k[j], given)) return;
        }
        break;
      }
    if (!m_pbush.emplace(pid, std::make_pair(k, c.loc)).second)
      error(c.loc, "PBUSH " + std::to_string(pid) + " is defined twice");
    return;
  }
  const std::size_t stride = elas ? 4 : 2;
  for (std::size_t i = 0; i + 1 < c.fields.size() && i < 8; i += stride) {
    if (blank(c, i)) continue;
    int pid = 0;
    double v = 0;
    bool given = false;
    if (!intField(c, i, "property id", pid, true) || !realField(c, i + 1, elas ? "K" : "M", v, given)) return;
    auto& table = elas ? m_pelas : m_pmass;
    if (!table.emplace(pid, std::make_pair(v, fieldLoc(c, i))).second)
      error(fieldLoc(c, i), c.name + " " + std::to_string(pid) + " is defined twice");
  }
}

bool NastranParser::gridIndex(const Card& c, std::size_t field, bool required, int& index) {
  index = -1;
  int id = 0;
  if (blank(c, field) && !required) return true;
  if (!intField(c, field, "grid", id, true)) return false;
  index = m_model.indexOf(id);
  if (index < 0) {
    error(fieldLoc(c, field), label(c) + " uses grid " + std::to_string(id) + ", which is not defined");
    return false;
  }
  return true;
}

/// Masses and springs on the translational DOFs of GRIDs (the solid model has no rotations):
/// CONM2's offset and inertia, CONM1's rotational rows, rotational components of CMASS/CELAS and
/// CBUSH K4..K6 are dropped with a warning; scalar points are not supported.
void NastranParser::discrete(const Card& c, fe::FeModel& m) {
  const std::string lab = where(c.loc) + ": " + label(c);
  auto warn = [&](const std::string& msg) { m_diag.warning(where(c.loc), label(c) + ": " + msg); };
  if (c.name == "CONM2" || c.name == "CONM1") {
    int g = -1, cid = 0;
    if (!gridIndex(c, 1, true, g) || !intField(c, 2, "CID", cid, false)) return;
    std::array<double, 21> v{};  // CONM2: M X1 X2 X3 _ I11 I21 I22 I31 I32 I33; CONM1: M11 M21 M22 ... M66
    const std::size_t count = c.name == "CONM2" ? 11 : 21;
    for (std::size_t i = 0; i < count; ++i) {
      bool given = false;
      if (c.name == "CONM2" && i == 4) continue;  // field 9 of the first line is blank
      if (!realField(c, 3 + i, "value", v[i], given)) return;
    }
    if (cid != 0 && !(c.name == "CONM2" && cid == -1)) {
      warn("coordinate system CID = " + std::to_string(cid) + " is not supported; the card is skipped");
      return;
    }
    Eigen::Matrix3d Mt = Eigen::Matrix3d::Zero(), J = Eigen::Matrix3d::Zero();
    if (c.name == "CONM2") {
      if (v[0] < 0) {
        error(c.loc, label(c) + ": mass " + std::to_string(v[0]) + " is negative");
        return;
      }
      Mt = v[0] * Eigen::Matrix3d::Identity();
      Eigen::Vector3d offset(v[1], v[2], v[3]);
      if (cid == -1) offset -= m.coords[static_cast<std::size_t>(g)];  // X is the centre of gravity
      if (offset.norm() > 0)
        warn("offset (" + std::to_string(offset.x()) + ", " + std::to_string(offset.y()) + ", " +
             std::to_string(offset.z()) + ") ignored: the mass is put on the grid (solid nodes have no rotations to "
             "carry it)");
      J << v[5], -v[6], -v[8], -v[6], v[7], -v[9], -v[8], -v[9], v[10];  // Nastran: I21 etc. are minus the products
    } else {
      // lower triangle by rows: M11 M21 M22 M31 M32 M33 M41 ... M66
      Eigen::Matrix<double, 6, 6> M6 = Eigen::Matrix<double, 6, 6>::Zero();
      for (int i = 0, k = 0; i < 6; ++i)
        for (int j = 0; j <= i; ++j, ++k) M6(i, j) = M6(j, i) = v[static_cast<std::size_t>(k)];
      Mt = M6.topLeftCorner<3, 3>();
      J = M6.bottomRightCorner<3, 3>();
      if (M6.bottomLeftCorner<3, 3>().norm() > 0) warn("translation-rotation coupling terms dropped (no rotational DOFs)");
    }
    const Eigen::SelfAdjointEigenSolver<Eigen::Matrix3d> es(Mt);
    if (es.eigenvalues().minCoeff() < -1e-12 * std::max(1.0, es.eigenvalues().cwiseAbs().maxCoeff())) {
      error(c.loc, label(c) + ": the translational mass matrix is not positive semi-definite");
      return;
    }
    for (int k = 0; k < 3; ++k) {
      const double lam = es.eigenvalues()(k);
      if (!(lam > 0)) continue;
      fe::Discrete d{lab, lam, {}};
      for (int a = 0; a < 3; ++a)
        if (es.eigenvectors()(a, k) != 0) d.terms.push_back({g, a, es.eigenvectors()(a, k)});
      m.masses.push_back(d);
    }
    if (J.norm() > 0) {
      m.rotary_inertias.push_back({lab, g, J});
      warn("rotary inertia is not in the mass matrix (solid nodes have no rotational DOFs)");
    }
    return;
  }
  if (c.name == "CBUSH") {
    int pid = 0, ga = -1, gb = -1, cid = 0;
    if (!intField(c, 1, "PID", pid, true) || !gridIndex(c, 2, true, ga) || !gridIndex(c, 3, false, gb)) return;
    const bool hasCid = !blank(c, 7);
    if (hasCid && !intField(c, 7, "CID", cid, true)) return;
    const auto prop = m_pbush.find(pid);
    if (prop == m_pbush.end()) {
      error(c.loc, label(c) + ": property " + std::to_string(pid) + " is not defined (no PBUSH " + std::to_string(pid) + ")");
      return;
    }
    const auto& k = prop->second.first;
    if (k[3] != 0 || k[4] != 0 || k[5] != 0) warn("rotational stiffness K4..K6 dropped (solid nodes have no rotations)");
    Eigen::Matrix3d axes = Eigen::Matrix3d::Identity();  // columns: element x, y, z in basic
    if (hasCid && cid != 0) {
      warn("coordinate system CID = " + std::to_string(cid) + " is not supported; the card is skipped");
      return;
    }
    if (!hasCid) {
      const Eigen::Vector3d d = gb >= 0 ? Eigen::Vector3d(m.coords[static_cast<std::size_t>(gb)] - m.coords[static_cast<std::size_t>(ga)])
                                        : Eigen::Vector3d::Zero();
      if (!(d.norm() > 0)) {
        error(c.loc, label(c) + ": without CID the element axis runs from GA to GB, which coincide or GB is blank; give CID");
        return;
      }
      const Eigen::Vector3d x = d.normalized();
      Eigen::Vector3d v = Eigen::Vector3d::Zero();
      if (!blank(c, 4) && blank(c, 5) && blank(c, 6)) {  // GO: orientation grid
        int go = -1;
        if (!gridIndex(c, 4, true, go)) return;
        v = m.coords[static_cast<std::size_t>(go)] - m.coords[static_cast<std::size_t>(ga)];
      } else {
        for (int a = 0; a < 3; ++a) {
          bool given = false;
          if (!realField(c, 4 + static_cast<std::size_t>(a), "orientation", v[a], given)) return;
        }
      }
      Eigen::Vector3d y = v - v.dot(x) * x;
      if (!(y.norm() > 1e-12 * v.norm()) || v.norm() == 0) {
        if (k[1] != k[2]) {
          error(c.loc, label(c) + ": the orientation vector is missing or parallel to GA-GB, and K2 != K3");
          return;
        }
        y = x.unitOrthogonal();  // any normal will do when K2 = K3
      }
      y.normalize();
      axes.col(0) = x;
      axes.col(1) = y;
      axes.col(2) = x.cross(y);
    }
    for (int a = 0; a < 3; ++a) {
      if (k[static_cast<std::size_t>(a)] == 0) continue;
      if (k[static_cast<std::size_t>(a)] < 0) {
        error(prop->second.second, "PBUSH " + std::to_string(pid) + ": negative stiffness K" + std::to_string(a + 1));
        return;
      }
      fe::Discrete d{lab, k[static_cast<std::size_t>(a)], {}};
      for (int b = 0; b < 3; ++b) {
        if (axes(b, a) == 0) continue;
        d.terms.push_back({ga, b, axes(b, a)});
        if (gb >= 0) d.terms.push_back({gb, b, -axes(b, a)});
      }
      m.springs.push_back(d);
    }
    return;
  }
  // CELAS1/CELAS2/CMASS1/CMASS2: EID PID|value G1 C1 G2 C2
  const bool elas = c.name[1] == 'E', byProperty = c.name.back() == '1';
  double value = 0;
  if (byProperty) {
    int pid = 0;
    if (!intField(c, 1, "PID", pid, true)) return;
    const auto& table = elas ? m_pelas : m_pmass;
    const auto it = table.find(pid);
    if (it == table.end()) {
      error(c.loc, label(c) + ": property " + std::to_string(pid) + " is not defined (no " + (elas ? "PELAS " : "PMASS ") +
                       std::to_string(pid) + ")");
      return;
    }
    value = it->second.first;
  } else {
    bool given = false;
    if (!realField(c, 1, elas ? "K" : "M", value, given)) return;
  }
  if (value < 0) {
    error(c.loc, label(c) + ": " + (elas ? "stiffness " : "mass ") + std::to_string(value) + " is negative");
    return;
  }
  fe::Discrete d{lab, value, {}};
  for (int end = 0; end < 2; ++end) {
    const std::size_t gf = 2 + 2 * static_cast<std::size_t>(end);
    if (blank(c, gf)) continue;
    int g = -1, comp = 0;
    if (!intField(c, gf + 1, "component", comp, false)) return;
    if (comp < 1 || comp > 6) {
      warn("scalar points (component 0 or blank) are not supported; the card is skipped");
      return;
    }
    if (comp > 3) {
      warn("rotational component " + std::to_string(comp) + ": solid nodes have no rotations; the card is skipped");
      return;
    }
    if (!gridIndex(c, gf, true, g)) return;
    d.terms.push_back({g, comp - 1, end == 0 ? 1.0 : -1.0});
  }
  if (d.terms.empty()) {
    error(c.loc, label(c) + ": no grid given");
    return;
  }
  (elas ? m.springs : m.masses).push_back(d);
}

bool NastranParser::resolve(fe::FeModel& out) {
  std::set<int> ids;
  for (const auto& pe : m_elements) {
    if (m_stop) break;
    if (!ids.insert(pe.id).second) {
      error(pe.loc, pe.card + " " + std::to_string(pe.id) + ": element id is used twice");
      continue;
    }
    fe::Element e;
    e.id = pe.id;
    e.type = pe.type;
    bool ok = true;
    for (int k = 0; k < pe.count; ++k) {
      e.nodes[k] = m_model.indexOf(pe.grids[k]);
      if (e.nodes[k] < 0) {
        error(pe.loc, pe.card + " " + std::to_string(pe.id) + " uses grid " + std::to_string(pe.grids[k]) +
                          ", which is not defined (no GRID " + std::to_string(pe.grids[k]) + ")");
        ok = false;
        break;
      }
    }
    const auto prop = m_props.find(pe.pid);
    if (ok && prop == m_props.end()) {
      error(pe.loc, pe.card + " " + std::to_string(pe.id) + ": property " + std::to_string(pe.pid) +
                        " is not defined (no PSOLID " + std::to_string(pe.pid) + ")");
      ok = false;
    }
    if (ok) {
      const auto mat = m_mats.find(prop->second.mid);
      if (mat == m_mats.end()) {
        error(prop->second.loc, "PSOLID " + std::to_string(pe.pid) + ": material " + std::to_string(prop->second.mid) +
                                    " is not defined (no MAT1 " + std::to_string(prop->second.mid) + ")");
        ok = false;
      } else {
        e.material = mat->second.index;
      }
    }
    if (!ok) continue;
    m_model.element_sets["PSOLID_" + std::to_string(pe.pid)].push_back(static_cast<int>(m_model.elements.size()));
    m_model.elements.push_back(e);
  }
  for (const auto& [name, s] : m_skipped) {
    const std::string n = std::to_string(s.first) + (s.first == 1 ? " card" : " cards");
    if (kDamperCards.count(name))
      m_diag.warning(where(s.second), name + " skipped (" + n + "): dampers are not modelled (modal damping is set on "
                                             "the flexible body)");
    else if (kAnalysisCards.count(name))
      m_diag.info(where(s.second), name + " skipped (" + n + "): not part of the FE model");
    else if (kStructuralCards.count(name))
      m_diag.warning(where(s.second),
                     name + " skipped (" + n + "): only solid elements (" + solidCardNames() + "), PSOLID, MAT1, masses "
                                               "(CONM1/2, CMASS1/2) and springs (CELAS1/2, CBUSH) are imported");
    else
      m_diag.warning(where(s.second), "unknown card " + name + " skipped (" + n + ")");
  }
  for (const auto& d : m_discrete) {
    if (m_stop) break;
    discrete(d.card, m_model);
  }
  if (m_errors > 0) return false;
  if (m_model.elements.empty() && m_model.masses.empty() && m_model.springs.empty()) {
    m_diag.error(m_files[0], "no solid elements (" + solidCardNames() + ") found");
    return false;
  }
  out = std::move(m_model);
  return true;
}

bool NastranParser::run(std::string_view text, const std::string& source, fe::FeModel& out) {
  m_files.push_back(source);
  m_model.sources.push_back(source);
  std::error_code ec;
  const fs::path canon = fs::weakly_canonical(fs::path(source), ec);
  m_stack.push_back(ec ? source : canon.string());
  readText(text, 0, 0, true);
  finishCard();
  return resolve(out);
}

}  // namespace

std::span<const int> nastranToAbaqus(fe::ElementType type) {
  for (const auto& o : kOrders)
    if (o.type == type) return std::span<const int>(o.toAbaqus.data(), static_cast<std::size_t>(o.nodes));
  return {};
}

bool parseNastranReal(std::string_view field, double& out, std::string* problem) {
  const std::string_view t = trim(field);
  if (t.find_first_of("eEdD") == std::string_view::npos) {
    // implicit exponent: a sign after the first character ("2.1+11", "-.5-3")
    const std::size_t sign = t.find_first_of("+-", 1);
    if (sign != std::string_view::npos) {
      std::string s(t.substr(0, sign));
      s += 'E';
      s += t.substr(sign);
      if (parseDouble(s, out)) return true;
      std::string why;
      parseDouble(s, out, &why);
      if (problem)
        *problem = why.find("finite") != std::string::npos || why.find("range") != std::string::npos
                       ? quoteField(t) + " is out of range"
                       : quoteField(t) + " is not a real number";
      return false;
    }
  }
  if (parseDouble(t, out, problem)) return true;
  if (problem && problem->find("finite") == std::string::npos && problem->find("range") == std::string::npos &&
      !t.empty())
    *problem = quoteField(t) + " is not a real number";
  return false;
}

bool readNastranBulkFromString(std::string_view text, const std::string& source, fe::FeModel& out, Diagnostics& diag,
                               const NastranOptions& options) {
  NastranParser parser(diag, options);
  return parser.run(text, source, out);
}

bool readNastranBulk(const std::string& path, fe::FeModel& out, Diagnostics& diag, const NastranOptions& options) {
  std::string text;
  if (!readTextFile(path, text, diag)) return false;
  return readNastranBulkFromString(text, path, out, diag, options);
}

}  // namespace flexim::io
