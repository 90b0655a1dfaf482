#include "io/fe/nastran.h"

#include "io/fe/line_reader.h"
#include "io/fe/nastran_coord.h"
#include "io/fe/nastran_skipped.h"

#include <Eigen/Eigenvalues>

#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>
#include <deque>
#include <filesystem>
#include <map>
#include <optional>
#include <set>
#include <unordered_map>
#include <vector>

namespace flexim::io {

namespace {

namespace fs = std::filesystem;
using nastran::CoordSystem;
using nastran::SkippedGroup;

constexpr int kMaxIncludeDepth = 32;
constexpr std::size_t kMaxCardFields = 200;        ///< longer cards are certainly garbage here...
constexpr std::size_t kMaxListFields = 2'000'000;  ///< ...except the grid lists of RBE2 and RBE3
constexpr long long kMaxRepeat = 100'000;          ///< "=n" replication at most

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

/// The cards this importer reads; every other card is skipped (nastran_skipped.h says how).
const std::set<std::string, std::less<>> kReadCards{
    "GRID",  "GRDSET", "CTETRA", "CHEXA",  "CPENTA", "CPYRAM", "MAT1",   "PSOLID", "CONM1",  "CONM2",  "CMASS1",
    "CMASS2", "CELAS1", "CELAS2", "CBUSH", "PELAS",  "PMASS",  "PBUSH",  "RBE2",   "RBE3",   "CORD1R", "CORD1C",
    "CORD1S", "CORD2R", "CORD2C", "CORD2S"};

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

bool isBlankOrSign(char c) { return c == ' ' || c == '+' || c == '*' || c == ','; }

/// A field written as a real number (a decimal point or an exponent): weights, ALPHA.
bool looksReal(std::string_view f) {
  f = trim(f);
  if (f.empty()) return false;
  if (f.find('.') != std::string_view::npos) return true;
  for (std::size_t i = 1; i < f.size(); ++i)
    if (f[i] == 'e' || f[i] == 'E' || f[i] == 'd' || f[i] == 'D' || f[i] == '+' || f[i] == '-') return true;
  return false;
}

/// The first word of s, upper case.
std::string firstWord(std::string_view s) {
  s = trim(s);
  std::size_t n = 0;
  while (n < s.size() && s[n] != ' ' && s[n] != ',' && s[n] != '\t' && s[n] != '=') ++n;
  return toUpper(s.substr(0, n));
}

/// The section a "BEGIN ..." line opens: "" for the main bulk data, else its name ("SUPER=2").
std::string beginSectionName(std::string_view line) {
  std::string u = toUpper(trim(line)).substr(5);  // after BEGIN
  std::string compact;  // blanks around '=' dropped, other runs of blanks -> one
  for (char ch : u) {
    if (ch == ' ' || ch == '\t') {
      if (!compact.empty() && compact.back() != ' ' && compact.back() != '=') compact += ' ';
    } else {
      if (ch == '=' && !compact.empty() && compact.back() == ' ') compact.pop_back();
      compact += ch;
    }
  }
  while (!compact.empty() && compact.back() == ' ') compact.pop_back();
  if (compact.rfind("BULK", 0) == 0) compact = std::string(trim(std::string_view(compact).substr(4)));
  return compact;
}

/// Number of "=n" / "=(n)"; 0 for "="; -1 if not a replication code.
long long replicationCount(std::string_view f) {
  f = trim(f);
  if (f.empty() || f[0] != '=') return -1;
  f.remove_prefix(1);
  if (f.empty()) return 0;
  if (f.front() == '(' && f.size() > 2 && f.back() == ')') f = f.substr(1, f.size() - 2);
  long long n = 0;
  const auto r = std::from_chars(f.data(), f.data() + f.size(), n);
  if (r.ec != std::errc() || r.ptr != f.data() + f.size() || n < 1) return -1;
  return n;
}

std::string formatReal(double v) {
  char buf[40];
  const auto r = std::to_chars(buf, buf + sizeof buf, v);
  std::string s(buf, r.ptr);
  if (s.find_first_of(".eEn") == std::string::npos) s += ".";
  return s;
}

/// Nastran field number (2..9) and line (1-based within the card) of data field i, for messages.
std::string fieldName(std::size_t i) {
  return "field " + std::to_string(i % 8 + 2) + (i >= 8 ? " of continuation " + std::to_string(i / 8) : std::string());
}

/// Applies the replication codes of `pattern` to the fields of the card before: "=" copies the
/// field, "==" copies it and every field after it, "*x" / "*(x)" adds x (integer or real like
/// the field), anything else (a value or a blank) is taken as written.
bool replicate(const std::vector<std::string>& pattern, const std::vector<std::string>& prev,
               std::vector<std::string>& out, std::string& problem) {
  out.clear();
  for (std::size_t i = 0; i < pattern.size(); ++i) {
    const std::string_view f = trim(pattern[i]);
    const std::string old = i < prev.size() ? prev[i] : std::string();
    if (f == "==") {
      for (std::size_t j = i; j < prev.size(); ++j) out.push_back(prev[j]);
      return true;
    }
    if (f == "=") {
      out.push_back(old);
      continue;
    }
    if (f.empty() || f[0] != '*') {
      out.emplace_back(f);
      continue;
    }
    std::string_view inc = f.substr(1);
    if (inc.size() > 2 && inc.front() == '(' && inc.back() == ')') inc = inc.substr(1, inc.size() - 2);
    if (trim(old).empty()) {
      problem = fieldName(i) + ": " + quoteField(f) + " increments a blank field of the card before";
      return false;
    }
    if (!looksReal(inc)) {
      long long a = 0;
      int b = 0;
      if (!parseInt64(inc, a) || !parseInt(old, b) || a + b > 2147483647LL || a + b < -2147483647LL) {
        problem = fieldName(i) + ": cannot add the integer increment " + quoteField(f) + " to " + quoteField(old);
        return false;
      }
      out.push_back(std::to_string(a + b));
    } else {
      double a = 0, b = 0;
      if (!looksReal(old) || !parseNastranReal(inc, a) || !parseNastranReal(old, b) || !std::isfinite(a + b)) {
        problem = fieldName(i) + ": cannot add the real increment " + quoteField(f) + " to " + quoteField(old);
        return false;
      }
      out.push_back(formatReal(a + b));
    }
  }
  return true;
}

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
  void reportSkipped();
  void resolveCouplings(std::set<int>& ids);

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
  std::vector<Card> m_discrete, m_couplings;  ///< resolved once every GRID and property is read
  std::map<int, std::pair<double, Loc>> m_pelas, m_pmass;  ///< PID -> K or M
  std::map<int, std::pair<std::array<double, 6>, Loc>> m_pbush;  ///< PID -> K1..K6
  std::map<std::string, std::pair<long long, Loc>> m_skipped;  ///< card name -> count, first place
  std::map<std::pair<char, int>, std::string> m_skippedIds;  ///< ('M' material / 'P' property, id) -> card
  std::vector<int> m_sortedIds;  ///< grid ids, sorted (THRU ranges)
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
    // skip executive and case control when the file has a (main) BEGIN BULK line
    bool found = false;
    while (in.next(l)) {
      const std::string_view code = l.substr(0, l.find('$'));
      if (firstWord(code) == "BEGIN" && beginSectionName(code).empty()) {
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
  m_lineText = s;

  // DEQATN's equations are free text: its continuation lines start with a blank or a mark
  if (m_open && m_mode == Mode::Raw) {
    if (isBlankOrSign(s[0])) return;
    finishCard();
  }
  // INCLUDE and BEGIN are whole-line statements (a file name may contain anything)
  const std::string word = firstWord(s);
  {
    const std::string_view t = trim(s);
    if (t.size() > 7 && equalsIgnoreCase(t.substr(0, 7), "INCLUDE") && (t[7] == ' ' || t[7] == '\'' || t[7] == '"')) {
      include(t.substr(7), loc, depth);
      return;
    }
    if (word == "BEGIN") {
      finishCard();
      beginSection(t, loc);
      return;
    }
  }
  if (word == "DEQATN") {  // its equation may hold commas: not a free-field line
    finishCard();
    openCard(word, loc, false, {});
    return;
  }
  const bool free = s.find(',') != std::string::npos;
  std::string_view first;
  if (free) {
    splitFields(s, ',', m_split);
    if (m_split.size() > 1 && m_split.back().empty()) m_split.pop_back();  // a trailing comma
    first = m_split[0];
  } else {
    first = trim(columns(s, 1, 8));
  }
  const bool continuation = first.empty() || first[0] == '+' || first[0] == '*';
  bool large = false;
  if (continuation) {
    large = !first.empty() && first[0] == '*';
    if (m_open && (m_mode == Mode::Skip || m_mode == Mode::Section)) return;  // not read
    if (!m_open) {
      if (!m_section.empty()) return;
      error(loc, "continuation line " + quoteField(trim(s)) + " without a card before it");
      return;
    }
  } else {
    if (toUpper(first).rfind("ENDDATA", 0) == 0) {
      finishCard();
      closeSection();
      m_endData = true;
      return;
    }
    if (first.back() == '*') {
      large = true;
      first.remove_suffix(1);
    }
  }
  const std::size_t per = large ? 4 : 8;
  std::vector<std::string_view> data;
  if (free) {
    for (std::size_t i = 1; i < m_split.size() && i <= per; ++i) data.push_back(m_split[i]);
  } else {
    const std::size_t w = large ? 16 : 8;
    for (std::size_t i = 0; i < per; ++i) data.push_back(trim(columns(s, 9 + i * w, 8 + (i + 1) * w)));
  }
  if (!continuation) {
    finishCard();
    openCard(first, loc, large, data.empty() ? std::string_view() : data[0]);
    if (!m_open || m_mode == Mode::Skip || m_mode == Mode::Raw || m_mode == Mode::Section) return;
  }
  // a card that is read: check the line's form and keep its fields
  if (free && m_split.size() > per + 2) {
    error(loc, "free-field line has " + std::to_string(m_split.size()) + " fields; at most " + std::to_string(per + 2) +
                   " (name, " + std::to_string(per) + " data fields, continuation) are allowed");
    return;
  }
  if (!free && !trim(columns(s, 81, s.size())).empty() && m_col80Warned.insert(loc.file).second)
    warning(loc, "text after column 80 ignored (fixed-field lines have 80 columns; reported once per file)");
  const std::string& kind = m_mode == Mode::Replicate ? m_prev.name : m_card.name;
  const std::size_t limit = kind == "RBE2" || kind == "RBE3" ? kMaxListFields : kMaxCardFields;
  if (m_card.fields.size() + per > limit) {
    error(loc, kind + " card has too many continuation lines");
    m_open = false;
    return;
  }
  for (std::size_t i = 0; i < per; ++i) {
    m_card.fields.emplace_back(i < data.size() ? data[i] : std::string_view());
    m_card.fieldLines.push_back(loc.line);
  }
}

/// Starts a card whose first field (the name) is `first`: picks how its lines are read.
void NastranParser::openCard(std::string_view first, const Loc& loc, bool large, std::string_view idField) {
  if (!m_section.empty()) {
    ++m_sectionCards;
    m_open = true;
    m_mode = Mode::Section;
    return;
  }
  const long long repeat = replicationCount(first);
  if (repeat >= 0) {
    if (!m_prev.valid) {
      error(loc, "replication entry " + quoteField(first) + " without a card before it to copy");
      return;
    }
    m_open = true;
    m_mode = Mode::Replicate;
    m_repeat = repeat;
    m_card = Card{"=", loc, {}, {}};
    m_cardLarge = large;
    return;
  }
  if (!validName(first)) {
    error(loc, "not a bulk data card: " + quoteField(trim(m_lineText)));
    return;
  }
  m_open = true;
  m_card = Card{toUpper(first), loc, {}, {}};
  m_cardLarge = large;
  if (kReadCards.count(m_card.name)) {
    m_mode = Mode::Read;
    return;
  }
  m_mode = m_card.name == "DEQATN" ? Mode::Raw : Mode::Skip;
  // the id of a skipped property or material, to say what it is when an element refers to it
  const SkippedGroup* g = nastran::skippedGroup(m_card.name);
  int id = 0;
  if (g && g->kind == SkippedGroup::Kind::WithElements && parseInt(idField, id))
    m_skippedIds.emplace(std::make_pair(m_card.name.rfind("MAT", 0) == 0 ? 'M' : 'P', id), m_card.name);
}

void NastranParser::finishCard() {
  if (!m_open) return;
  m_open = false;
  if (m_stop) return;
  switch (m_mode) {
    case Mode::Section:
      return;
    case Mode::Skip:
    case Mode::Raw:
      countSkipped(m_card.name, m_card.loc);
      m_prev = Previous{true, true, m_card.name, {}, {}};
      return;
    case Mode::Replicate:
      expandReplication();
      return;
    case Mode::Read:
      card(m_card);
      m_prev = Previous{true, false, m_card.name, m_card.fields, {}};
      return;
  }
}

/// "=" makes one card from the codes on its line(s) and the card before; "=n" makes n more with
/// the codes of the replication entry before it.
void NastranParser::expandReplication() {
  const Card entry = m_card;
  std::vector<std::string> pattern = entry.fields;
  long long times = 1;
  if (m_repeat > 0) {
    if (m_prev.pattern.empty() && !m_prev.skipped) {
      error(entry.loc, "=" + std::to_string(m_repeat) + " repeats the codes of a replication entry ('=', '*1', ...), "
                       "but the card before it is not one");
      return;
    }
    if (m_repeat > kMaxRepeat) {
      error(entry.loc, "=" + std::to_string(m_repeat) + ": at most " + std::to_string(kMaxRepeat) + " repetitions");
      return;
    }
    for (const std::string& f : entry.fields)
      if (!f.empty()) {
        error(entry.loc, "=" + std::to_string(m_repeat) + " takes no fields (found " + quoteField(f) + ")");
        return;
      }
    pattern = m_prev.pattern;
    times = m_repeat;
  }
  for (long long k = 0; k < times && !m_stop; ++k) {
    if (m_prev.skipped) {
      countSkipped(m_prev.name, entry.loc);
      continue;
    }
    Card c{m_prev.name, entry.loc, {}, {}};
    std::string problem;
    if (!replicate(pattern, m_prev.fields, c.fields, problem)) {
      error(entry.loc, "replication of " + m_prev.name + ": " + problem);
      m_prev.valid = false;
      return;
    }
    c.fieldLines.assign(c.fields.size(), entry.loc.line);
    card(c);
    m_prev.fields = std::move(c.fields);
    m_prev.pattern = pattern;
  }
}

void NastranParser::countSkipped(const std::string& name, const Loc& loc) {
  auto [it, inserted] = m_skipped.try_emplace(name, 0, loc);
  ++it->second.first;
}

/// BEGIN BULK goes back to the main bulk data; BEGIN SUPER=n (a part superelement), BEGIN
/// AUXMODEL=n and any other section are counted and reported, not read.
void NastranParser::beginSection(std::string_view text, const Loc& loc) {
  closeSection();
  m_section = beginSectionName(text);
  m_sectionLoc = loc;
  m_sectionCards = 0;
}

void NastranParser::closeSection() {
  if (m_section.empty()) return;
  const std::string name = "BEGIN " + m_section;
  const std::string n = std::to_string(m_sectionCards) + (m_sectionCards == 1 ? " card" : " cards");
  if (m_section.rfind("SUPER", 0) == 0) {
    const std::size_t eq = m_section.find('=');
    const std::string id = eq == std::string::npos ? std::string("?") : m_section.substr(eq + 1);
    warning(m_sectionLoc, name + ": the bulk data of part superelement " + id + " is not imported (" + n +
                              " skipped); the model is the main bulk data only");
    m_model.model_changes.push_back("part superelement " + id + " (" + name + ") not imported");
  } else if (m_section.rfind("AUXMODEL", 0) == 0) {
    m_diag.info(where(m_sectionLoc), name + ": auxiliary model of a shape optimisation, not part of the analysis "
                                            "model (" + n + " skipped)");
  } else {
    warning(m_sectionLoc, name + ": this bulk data section is not imported (" + n + " skipped)");
    m_model.model_changes.push_back("bulk data section '" + name + "' not imported");
  }
  m_section.clear();
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
  } else if (c.name == "GRDSET") {
    grdset(c);
  } else if (c.name.rfind("CORD", 0) == 0) {
    coord(c);
  } else if (const SolidCard* sc = solidCard(c.name)) {
    solid(c, *sc);
  } else if (c.name == "MAT1") {
    mat1(c);
  } else if (c.name == "PSOLID") {
    psolid(c);
  } else if (c.name == "CONM1" || c.name == "CONM2" || c.name == "CMASS1" || c.name == "CMASS2" ||
             c.name == "CELAS1" || c.name == "CELAS2" || c.name == "CBUSH") {
    m_discrete.push_back(c);
  } else if (c.name == "RBE2" || c.name == "RBE3") {
    m_couplings.push_back(c);
  } else if (c.name == "PELAS" || c.name == "PMASS" || c.name == "PBUSH") {
    property(c);
  }
}

void NastranParser::grid(const Card& c) {
  GridCard g;
  g.loc = c.loc;
  g.cpBlank = blank(c, 1);
  g.cdBlank = blank(c, 5);
  if (!intField(c, 0, "grid id", g.id, true) || !intField(c, 1, "CP", g.cp, false) || !intField(c, 5, "CD", g.cd, false))
    return;
  if (g.id < 1) {
    error(fieldLoc(c, 0), label(c) + ": grid id must be positive");
    return;
  }
  if (g.cp < 0) {
    error(fieldLoc(c, 1), label(c) + ": coordinate system CP = " + std::to_string(g.cp) + " must be 0 or positive");
    return;
  }
  if (g.cd < 0) {
    error(fieldLoc(c, 5), label(c) + ": CD = " + std::to_string(g.cd) +
                              (g.cd == -1 ? " makes it a fluid grid point, which is not supported"
                                          : " must be 0 or a coordinate system id"));
    return;
  }
  static const char* kX[] = {"X1", "X2", "X3"};
  for (int k = 0; k < 3; ++k) {
    bool given = false;
    if (!realField(c, 2 + static_cast<std::size_t>(k), kX[k], g.x[k], given)) return;
  }
  noExtraFields(c, 8);
  if (m_model.addNode(g.id, g.x) < 0) {
    const GridCard& first = m_grids[static_cast<std::size_t>(m_model.indexOf(g.id))];
    error(c.loc, "GRID " + std::to_string(g.id) + " is defined twice (first at " + where(first.loc) + ")");
    return;
  }
  m_grids.push_back(g);
}

/// GRDSET: the CP and CD of every GRID that leaves them blank (PS and SEID are not used).
void NastranParser::grdset(const Card& c) {
  if (m_grdset) {
    error(c.loc, "GRDSET appears twice (first at " + where(m_grdset->second) + "); only one is allowed");
    return;
  }
  GridCard d;
  if (!intField(c, 1, "CP", d.cp, false) || !intField(c, 5, "CD", d.cd, false)) return;
  if (d.cp < 0 || d.cd < 0) {
    error(c.loc, "GRDSET: CP and CD must be 0 or coordinate system ids");
    return;
  }
  d.cpBlank = blank(c, 1);
  d.cdBlank = blank(c, 5);
  m_grdset.emplace(d, c.loc);
}

/// CORD2R/C/S: CID RID A1 A2 A3 B1 B2 B3 / C1 C2 C3 (points in RID). CORD1R/C/S: up to two
/// systems per card, CIDA G1A G2A G3A CIDB G1B G2B G3B.
void NastranParser::coord(const Card& c) {
  const bool form2 = c.name[4] == '2';
  const char kind = c.name.size() == 6 ? c.name[5] : '?';
  if ((c.name[4] != '1' && !form2) || (kind != 'R' && kind != 'C' && kind != 'S')) {
    countSkipped(c.name, c.loc);  // CORD3G and the like
    return;
  }
  auto add = [&](CoordCard cc, std::size_t cidField) {
    if (cc.cid < 1) {
      error(fieldLoc(c, cidField), c.name + ": coordinate system id " + std::to_string(cc.cid) + " must be positive");
      return;
    }
    const auto [it, inserted] = m_coordCards.emplace(cc.cid, cc);
    if (!inserted)
      error(cc.loc, c.name + " " + std::to_string(cc.cid) + ": coordinate system " + std::to_string(cc.cid) +
                        " is defined twice (first " + it->second.card + " at " + where(it->second.loc) + ")");
  };
  if (form2) {
    CoordCard cc{c.name, 0, false, 0, {}, {}, c.loc};
    if (!intField(c, 0, "CID", cc.cid, true) || !intField(c, 1, "RID", cc.rid, false)) return;
    if (cc.rid < 0) {
      error(fieldLoc(c, 1), label(c) + ": RID = " + std::to_string(cc.rid) + " must be 0 or a coordinate system id");
      return;
    }
    static const char* kNames[] = {"A1", "A2", "A3", "B1", "B2", "B3", "C1", "C2", "C3"};
    for (std::size_t k = 0; k < 9; ++k) {
      bool given = false;
      double v = 0;
      if (!realField(c, 2 + k, kNames[k], v, given)) return;
      cc.points[k / 3][static_cast<Eigen::Index>(k % 3)] = v;
    }
    noExtraFields(c, 11);
    add(cc, 0);
    return;
  }
  for (std::size_t s = 0; s < 2; ++s) {
    const std::size_t f = 4 * s;
    if (s == 1 && blank(c, 4) && blank(c, 5) && blank(c, 6) && blank(c, 7)) break;
    CoordCard cc{c.name, 0, true, 0, {}, {}, fieldLoc(c, f)};
    if (!intField(c, f, "CID", cc.cid, true)) return;
    static const char* kG[] = {"G1", "G2", "G3"};
    for (std::size_t k = 0; k < 3; ++k)
      if (!intField(c, f + 1 + k, kG[k], cc.grids[k], true)) return;
    if (cc.grids[0] == cc.grids[1] || cc.grids[0] == cc.grids[2] || cc.grids[1] == cc.grids[2]) {
      error(cc.loc, c.name + " " + std::to_string(cc.cid) + ": G1, G2 and G3 must be three different grids");
      return;
    }
    add(cc, f);
  }
  noExtraFields(c, 8);
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
  // kept with a warning, as every reader does: the material may be overridden at import
  if (const std::string p = fe::elasticProblem(E, nu); !p.empty()) m_diag.warning(where(c.loc), lab + ": " + p);
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
/// CBUSH K4..K6 are dropped with a warning; scalar points are not supported. CONM1/CONM2 CID and
/// CBUSH CID are coordinate systems (cylindrical and spherical ones taken at the grid, GA for
/// CBUSH); CMASS/CELAS components are in the grid's displacement system (CD).
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
    if (cid < -1 || (cid == -1 && c.name == "CONM1")) {
      error(c.loc, label(c) + ": CID = " + std::to_string(cid) + " must be 0 or a coordinate system id" +
                       (c.name == "CONM2" ? " (or -1)" : ""));
      return;
    }
    Eigen::Matrix3d A = Eigen::Matrix3d::Identity();  // the CID's axes at the grid
    if (cid > 0 && !axesAt(c, cid, m.coords[static_cast<std::size_t>(g)], A)) return;
    Eigen::Matrix3d Mt = Eigen::Matrix3d::Zero(), J = Eigen::Matrix3d::Zero();
    if (c.name == "CONM2") {
      if (v[0] < 0) {
        error(c.loc, label(c) + ": mass " + std::to_string(v[0]) + " is negative");
        return;
      }
      Mt = v[0] * Eigen::Matrix3d::Identity();
      Eigen::Vector3d offset = A * Eigen::Vector3d(v[1], v[2], v[3]);
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
      Mt = A * Mt * A.transpose();
    }
    J = A * J * A.transpose();
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
    if (hasCid && (cid < 0 || !axesAt(c, cid, m.coords[static_cast<std::size_t>(ga)], axes))) {
      if (cid < 0) error(c.loc, label(c) + ": CID = " + std::to_string(cid) + " must be 0 or a coordinate system id");
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
    const Eigen::Vector3d dir = nodeDirection(g, comp - 1);  // the component in the grid's CD system
    for (int a = 0; a < 3; ++a)
      if (dir[a] != 0) d.terms.push_back({g, a, (end == 0 ? 1.0 : -1.0) * dir[a]});
  }
  if (d.terms.empty()) {
    error(c.loc, label(c) + ": no grid given");
    return;
  }
  (elas ? m.springs : m.masses).push_back(d);
}


// ---- coordinate systems ------------------------------------------------------------------

std::string NastranParser::notDefined(const char* what, int id) const {
  return std::string(what) + " = " + std::to_string(id) + " is not defined (no CORD1R/1C/1S/2R/2C/2S " +
         std::to_string(id) + ")";
}

/// Places every grid in the basic system and builds every coordinate system, in the order their
/// definitions need: a GRID needs its CP system, a CORD2x its RID system, a CORD1x its three
/// grids. A depth-first walk with an explicit stack (no recursion, so no depth limit) finds
/// undefined references and cycles; each is reported once, at the card where it shows.
void NastranParser::resolveGeometry() {
  // GRDSET defaults
  if (m_grdset)
    for (GridCard& g : m_grids) {
      if (g.cpBlank && !m_grdset->first.cpBlank) g.cp = m_grdset->first.cp;
      if (g.cdBlank && !m_grdset->first.cdBlank) g.cd = m_grdset->first.cd;
    }
  enum State : char { New, Active, Done, Failed };
  struct Item {
    bool grid;
    int key;  ///< node index (grid) or CID (system)
  };
  std::vector<State> gridState(m_grids.size(), New);
  std::map<int, State> sysState;
  auto state = [&](const Item& it) -> State& { return it.grid ? gridState[static_cast<std::size_t>(it.key)] : sysState[it.key]; };
  auto name = [&](const Item& it) {
    return it.grid ? "GRID " + std::to_string(m_grids[static_cast<std::size_t>(it.key)].id)
                   : m_coordCards.at(it.key).card + " " + std::to_string(it.key);
  };
  auto loc = [&](const Item& it) { return it.grid ? m_grids[static_cast<std::size_t>(it.key)].loc : m_coordCards.at(it.key).loc; };

  // the dependencies of an item; false (reported) when one is not defined
  auto dependencies = [&](const Item& it, std::vector<Item>& deps) {
    deps.clear();
    if (it.grid) {
      const GridCard& g = m_grids[static_cast<std::size_t>(it.key)];
      if (g.cp == 0) return true;
      if (!m_coordCards.count(g.cp)) {
        error(g.loc, name(it) + ": coordinate system " + notDefined("CP", g.cp));
        return false;
      }
      deps.push_back({false, g.cp});
      return true;
    }
    const CoordCard& cc = m_coordCards.at(it.key);
    if (!cc.byGrids) {
      if (cc.rid == 0) return true;
      if (!m_coordCards.count(cc.rid)) {
        error(cc.loc, name(it) + ": reference system " + notDefined("RID", cc.rid));
        return false;
      }
      deps.push_back({false, cc.rid});
      return true;
    }
    for (std::size_t k = 0; k < 3; ++k) {
      const int index = m_model.indexOf(cc.grids[k]);
      if (index < 0) {
        error(cc.loc, name(it) + ": grid G" + std::to_string(k + 1) + " = " + std::to_string(cc.grids[k]) +
                          " is not defined (no GRID " + std::to_string(cc.grids[k]) + ")");
        return false;
      }
      deps.push_back({true, index});
    }
    return true;
  };
  // places a grid or builds a system whose dependencies are done
  auto compute = [&](const Item& it) {
    if (it.grid) {
      const GridCard& g = m_grids[static_cast<std::size_t>(it.key)];
      Eigen::Vector3d& x = m_model.coords[static_cast<std::size_t>(it.key)];
      x = g.cp == 0 ? g.x : m_systems.at(g.cp).toBasic(g.x);
      if (!x.allFinite()) {
        error(g.loc, name(it) + ": its position in the basic system is not finite");
        return false;
      }
      return true;
    }
    const CoordCard& cc = m_coordCards.at(it.key);
    std::array<Eigen::Vector3d, 3> p;
    for (std::size_t k = 0; k < 3; ++k)
      p[k] = cc.byGrids ? m_model.coords[static_cast<std::size_t>(m_model.indexOf(cc.grids[k]))]
             : cc.rid == 0 ? cc.points[k]
                           : m_systems.at(cc.rid).toBasic(cc.points[k]);
    CoordSystem sys;
    std::string problem;
    if (!nastran::systemFromPoints(cc.card.back(), p[0], p[1], p[2], sys, problem)) {
      error(cc.loc, name(it) + ": " + problem + (cc.byGrids ? " (grids G1, G2, G3)" : " (points A, B, C)"));
      return false;
    }
    m_systems[it.key] = sys;
    return true;
  };

  std::vector<Item> roots;  // systems first: a cycle is reported at a CORD card
  for (const auto& [cid, cc] : m_coordCards) roots.push_back({false, cid});
  for (std::size_t i = 0; i < m_grids.size(); ++i) roots.push_back({true, static_cast<int>(i)});
  std::vector<Item> stack, deps;
  for (const Item& root : roots) {
    if (state(root) != New) continue;
    state(root) = Active;
    stack.assign(1, root);
    while (!stack.empty() && !m_stop) {
      const Item top = stack.back();
      bool failed = !dependencies(top, deps), pushed = false;
      for (const Item& d : deps) {
        if (failed || pushed) break;
        State& s = state(d);
        if (s == Done) continue;
        if (s == Failed) {
          failed = true;  // reported where it failed
        } else if (s == Active) {
          std::string chain;
          std::size_t k = stack.size();
          while (k > 0 && !(stack[k - 1].grid == d.grid && stack[k - 1].key == d.key)) --k;
          for (std::size_t j = k > 0 ? k - 1 : 0; j < stack.size(); ++j) chain += name(stack[j]) + " -> ";
          error(loc(d), "coordinate systems defined through each other: " + chain + name(d) +
                            " (a system cannot depend on itself through RID, CP or the grids of a CORD1)");
          failed = true;
        } else {
          s = Active;
          stack.push_back(d);
          pushed = true;
        }
      }
      if (pushed) continue;
      state(top) = !failed && compute(top) ? Done : Failed;
      stack.pop_back();
    }
  }
  if (m_stop) return;

  // displacement systems (CD): the directions of each grid's DOFs
  bool anyCd = false;
  for (const GridCard& g : m_grids) anyCd = anyCd || g.cd != 0;
  if (!anyCd) return;
  const std::size_t n = m_grids.size();
  m_model.node_cd.assign(n, 0);
  m_model.node_cd_axes.assign(n, Eigen::Matrix3d::Identity());
  std::map<int, int> onAxis;  // CD -> grids on its polar axis
  std::map<int, Loc> firstOnAxis;
  for (std::size_t i = 0; i < n; ++i) {
    const GridCard& g = m_grids[i];
    if (g.cd == 0) continue;
    m_model.node_cd[i] = g.cd;
    const auto sys = m_systems.find(g.cd);
    if (sys == m_systems.end()) {
      if (!m_coordCards.count(g.cd))
        error(g.loc, "GRID " + std::to_string(g.id) + ": displacement coordinate system " + notDefined("CD", g.cd));
      continue;  // else reported where the system failed
    }
    bool axis = false;
    m_model.node_cd_axes[i] = sys->second.directionsAt(m_model.coords[i], &axis);
    if (axis && ++onAxis[g.cd] == 1) firstOnAxis[g.cd] = g.loc;
  }
  for (const auto& [cd, count] : onAxis)
    warning(firstOnAxis[cd], std::to_string(count) + " grid(s) with CD = " + std::to_string(cd) +
                                 " lie on the polar axis of that system, where its radial and angular directions are "
                                 "undefined; the directions at angle 0 are used");
}

/// The axes of coordinate system cid (0 = basic) at the basic point x, as columns; false
/// (reported) when cid is not defined.
bool NastranParser::axesAt(const Card& c, int cid, const Eigen::Vector3d& x, Eigen::Matrix3d& axes) {
  axes = Eigen::Matrix3d::Identity();
  if (cid == 0) return true;
  const auto sys = m_systems.find(cid);
  if (sys != m_systems.end()) {
    axes = sys->second.directionsAt(x);
    return true;
  }
  if (!m_coordCards.count(cid)) error(c.loc, label(c) + ": coordinate system " + notDefined("CID", cid));
  else if (m_errors == 0) error(c.loc, label(c) + ": coordinate system CID = " + std::to_string(cid) + " could not be built");
  return false;
}

/// The basic direction of DOF `component` (0..2) of a node: its CD axis, or the basic axis.
Eigen::Vector3d NastranParser::nodeDirection(int node, int component) const {
  if (m_model.node_cd_axes.empty()) return Eigen::Vector3d::Unit(component);
  return m_model.node_cd_axes[static_cast<std::size_t>(node)].col(component);
}

// ---- RBE2 and RBE3 -----------------------------------------------------------------------

/// A component list such as 123456 (each of 1..6 at most once); blank gives "".
bool NastranParser::components(const Card& c, std::size_t i, const char* what, std::string& out) {
  out = blank(c, i) ? std::string() : std::string(trim(c.fields[i]));
  std::set<char> seen;
  for (char ch : out)
    if (ch < '1' || ch > '6' || !seen.insert(ch).second) {
      error(fieldLoc(c, i), label(c) + ": " + what + " " + quoteField(out) +
                                " is not a component list (digits 1 to 6, each at most once)");
      return false;
    }
  return true;
}

/// Reads grid ids from field i on ("G1 G2 ...", "Ga THRU Gb" = every defined grid from Ga to Gb),
/// skipping blank fields, up to a real number, a word other than THRU, or the end. Returns the
/// index of the field that ended the list.
std::size_t NastranParser::gridList(const Card& c, std::size_t i, std::vector<int>& ids, bool& ok) {
  ok = true;
  for (; i < c.fields.size(); ++i) {
    if (blank(c, i)) continue;
    const std::string f = toUpper(trim(c.fields[i]));
    if (looksReal(f) || (f != "THRU" && !f.empty() && (f[0] < '0' || f[0] > '9') && f[0] != '+' && f[0] != '-')) break;
    if (f != "THRU") {
      int id = 0;
      if (!intField(c, i, "grid", id, true)) return ok = false, i;
      ids.push_back(id);
      continue;
    }
    std::size_t j = i + 1;
    while (j < c.fields.size() && blank(c, j)) ++j;
    int last = 0;
    if (ids.empty() || j >= c.fields.size() || !intField(c, j, "grid after THRU", last, true)) {
      if (ids.empty() || j >= c.fields.size()) error(fieldLoc(c, i), label(c) + ": THRU needs a grid before and after it");
      return ok = false, i;
    }
    const int from = ids.back();
    if (last < from) {
      error(fieldLoc(c, j), label(c) + ": " + std::to_string(from) + " THRU " + std::to_string(last) + " runs backwards");
      return ok = false, i;
    }
    if (m_sortedIds.empty()) {
      m_sortedIds = m_model.node_ids;
      std::sort(m_sortedIds.begin(), m_sortedIds.end());
    }
    for (auto it = std::upper_bound(m_sortedIds.begin(), m_sortedIds.end(), from); it != m_sortedIds.end() && *it <= last; ++it)
      ids.push_back(*it);
    i = j;
  }
  return i;
}

/// RBE2 EID GN CM GM1 ... [ALPHA [TREF]]: a rigid coupling of the GMi to GN.
/// RBE3 EID _ REFGRID REFC WT1 C1 G1,1 ... WT2 C2 G2,1 ... [UM GM1 CM1 ...] [ALPHA a [TREF t]]:
/// REFGRID follows the weighted average of the Gi,j (weights summed when a grid is in several
/// groups). Both become FeModel::couplings, interface candidates: not put into K or M.
void NastranParser::coupling(const Card& c) {
  const bool rbe2 = c.name == "RBE2";
  int eid = 0, ref = 0;
  if (!intField(c, 0, "element id", eid, true) || !intField(c, rbe2 ? 1 : 2, rbe2 ? "GN" : "REFGRID", ref, true)) return;
  if (eid < 1) {
    error(fieldLoc(c, 0), label(c) + ": element id must be positive");
    return;
  }
  const std::string name = c.name + " " + std::to_string(eid);
  std::string comps;
  if (!components(c, 2 + (rbe2 ? 0 : 1), rbe2 ? "CM" : "REFC", comps)) return;
  if (comps.empty()) {
    error(fieldLoc(c, rbe2 ? 2 : 3), name + ": " + (rbe2 ? "CM" : "REFC") + " (the coupled components) is missing");
    return;
  }
  const auto hasAll = [](const std::string& s, const char* need) {
    for (const char* p = need; *p; ++p)
      if (s.find(*p) == std::string::npos) return false;
    return true;
  };
  std::vector<int> ids;
  std::vector<double> wts;  // RBE3: weight per entry of ids
  bool ok = true;
  if (rbe2) {
    const std::size_t end = gridList(c, 3, ids, ok);
    if (!ok) return;
    if (end < c.fields.size() && !looksReal(c.fields[end])) {
      error(fieldLoc(c, end), name + ": " + quoteField(c.fields[end]) + " is neither a grid nor ALPHA");
      return;
    }
    if (!hasAll(comps, "123"))
      warning(c.loc, name + ": CM = " + comps + " does not tie every translation (123); imported as rigid in all "
                                                "directions");
  } else {
    if (!hasAll(comps, "123456"))
      warning(c.loc, name + ": REFC = " + comps + "; imported as the average of all six reference components");
    std::size_t i = 4;
    while (i < c.fields.size()) {
      if (blank(c, i)) {
        ++i;
        continue;
      }
      const std::string f = toUpper(trim(c.fields[i]));
      if (f == "UM") {
        warning(fieldLoc(c, i), name + ": UM (dependent DOFs moved to the attached grids) ignored: the reference grid "
                                       "stays the dependent one");
        break;
      }
      if (f == "ALPHA" || f == "TREF") break;
      double wt = 0;
      bool given = false;
      if (!looksReal(f)) {
        error(fieldLoc(c, i), name + ": expected a weight WTi (a real number) in " + fieldName(i) + ", found " +
                                  quoteField(f));
        return;
      }
      if (!realField(c, i, "WT", wt, given)) return;
      if (!(wt > 0)) {
        error(fieldLoc(c, i), name + ": weight " + quoteField(f) + " must be positive");
        return;
      }
      std::size_t j = i + 1;
      while (j < c.fields.size() && blank(c, j)) ++j;
      std::string ci;
      if (j >= c.fields.size()) {
        error(fieldLoc(c, i), name + ": weight " + quoteField(f) + " has no component list and no grids after it");
        return;
      }
      if (!components(c, j, "C", ci)) return;
      if (!hasAll(ci, "123"))
        warning(fieldLoc(c, j), name + ": C = " + ci + " does not average every translation (123); imported as "
                                                        "averaging all three");
      const std::size_t before = ids.size();
      i = gridList(c, j + 1, ids, ok);
      if (!ok) return;
      if (ids.size() == before) {
        error(fieldLoc(c, j), name + ": weight " + quoteField(f) + " has no grids");
        return;
      }
      wts.resize(ids.size(), wt);
    }
  }
  if (ids.empty()) {
    error(c.loc, name + " attaches no grid");
    return;
  }
  // grid ids -> node indices; a grid in several RBE3 groups adds up its weights
  fe::Coupling cp;
  cp.name = name;
  cp.rigid = rbe2;
  cp.where = where(c.loc);
  auto undefined = [&](const char* role, int id) {
    warning(c.loc, name + ": " + role + " " + std::to_string(id) + " is not defined (no GRID " + std::to_string(id) +
                       "); the coupling is skipped");
  };
  cp.reference_node = m_model.indexOf(ref);
  if (cp.reference_node < 0) return undefined("the reference grid", ref);
  std::unordered_map<int, std::size_t> slot;
  for (std::size_t k = 0; k < ids.size(); ++k) {
    if (ids[k] == ref) {
      error(c.loc, name + ": grid " + std::to_string(ref) + " is both the reference and an attached grid");
      return;
    }
    const int node = m_model.indexOf(ids[k]);
    if (node < 0) return undefined("attached grid", ids[k]);
    const auto [it, fresh] = slot.emplace(node, cp.nodes.size());
    if (fresh) {
      cp.nodes.push_back(node);
      if (!rbe2) cp.weights.push_back(wts[k]);
    } else if (!rbe2) {
      cp.weights[it->second] += wts[k];
    }
  }
  m_model.couplings.push_back(std::move(cp));
}

void NastranParser::resolveCouplings(std::set<int>& ids) {
  for (const Card& c : m_couplings) {
    if (m_stop) return;
    const std::size_t before = m_model.couplings.size();
    coupling(c);
    if (m_model.couplings.size() == before) continue;
    // element ids are shared by every element, rigid ones included
    const int eid = std::atoi(c.fields[0].c_str());
    if (!ids.insert(eid).second) error(c.loc, label(c) + ": element id is used twice");
  }
  if (m_model.couplings.empty()) return;
  // grids that nothing holds: an interface cannot hold on to them either
  std::vector<char> held(static_cast<std::size_t>(m_model.nodeCount()), 0);
  for (const fe::Element& e : m_model.elements)
    for (int k = 0; k < fe::nodeCount(e.type); ++k) held[static_cast<std::size_t>(e.nodes[static_cast<std::size_t>(k)])] = 1;
  for (const fe::Discrete& s : m_model.springs)
    for (const fe::DiscreteTerm& t : s.terms) held[static_cast<std::size_t>(t.node)] = 1;
  for (const fe::Coupling& cp : m_model.couplings) {
    const auto loose = std::count_if(cp.nodes.begin(), cp.nodes.end(), [&](int n) { return !held[static_cast<std::size_t>(n)]; });
    if (loose > 0)
      m_diag.warning(cp.where, cp.name + ": " + std::to_string(loose) + " of its " + std::to_string(cp.nodes.size()) +
                                   " attached grids belong to no solid element or spring (on shells or beams that "
                                   "are left out?); as an interface it cannot hold them");
  }
  const std::size_t n = m_model.couplings.size();
  m_model.model_changes.push_back(std::to_string(n) + " RBE2/RBE3 coupling" + (n == 1 ? "" : "s") +
                                  " not applied (usable as Craig-Bampton interfaces)");
}

// ---- the model ---------------------------------------------------------------------------

void NastranParser::resolveElements(std::set<int>& ids) {
  // what a property or material id is when it is not the card an element needs
  auto other = [&](char kind, int id) {
    const auto it = m_skippedIds.find({kind, id});
    return it == m_skippedIds.end() ? std::string() : "; " + it->second + " " + std::to_string(id) + " is not supported";
  };
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
                        " is not defined (no PSOLID " + std::to_string(pe.pid) + other('P', pe.pid) + ")");
      ok = false;
    }
    if (ok) {
      const auto mat = m_mats.find(prop->second.mid);
      if (mat == m_mats.end()) {
        error(prop->second.loc, "PSOLID " + std::to_string(pe.pid) + ": material " + std::to_string(prop->second.mid) +
                                    " is not defined (no MAT1 " + std::to_string(prop->second.mid) +
                                    other('M', prop->second.mid) + ")");
        ok = false;
      } else {
        e.material = mat->second.index;
      }
    }
    if (!ok) continue;
    m_model.element_sets["PSOLID_" + std::to_string(pe.pid)].push_back(static_cast<int>(m_model.elements.size()));
    m_model.elements.push_back(e);
  }
}

/// One message per skipped card type ("CQUAD4: 12 cards skipped (shell elements: ...)") and one
/// model_changes phrase per group of cards that change the model.
void NastranParser::reportSkipped() {
  std::map<const SkippedGroup*, std::string> changes;  // group -> "CQUAD4: 12, CTRIA3: 2"
  std::string unknown;
  for (const auto& [name, s] : m_skipped) {
    const std::string n = std::to_string(s.first) + (s.first == 1 ? " card" : " cards");
    const std::string counted = name + ": " + std::to_string(s.first);
    const SkippedGroup* g = nastran::skippedGroup(name);
    if (!g) {
      warning(s.second, name + ": " + n + " skipped (a card this importer does not know; check whether it changes the "
                                       "model)");
      unknown += (unknown.empty() ? "" : ", ") + counted;
    } else if (g->kind == SkippedGroup::Kind::ChangesModel) {
      warning(s.second, name + ": " + n + " skipped (" + g->what + ")");
      std::string& list = changes[g];
      list += (list.empty() ? "" : ", ") + counted;
    } else {
      m_diag.info(where(s.second), name + ": " + n + " skipped (" + g->what + ")");
    }
  }
  for (const auto& [g, list] : changes) m_model.model_changes.push_back(std::string(g->phrase) + " (" + list + ")");
  if (!unknown.empty()) m_model.model_changes.push_back("unknown cards skipped (" + unknown + ")");
}

bool NastranParser::resolve(fe::FeModel& out) {
  resolveGeometry();
  std::set<int> ids;  // element ids, shared by solids, RBE2 and RBE3
  resolveElements(ids);
  reportSkipped();
  for (const Card& d : m_discrete) {
    if (m_stop) break;
    discrete(d, m_model);
  }
  resolveCouplings(ids);
  if (m_errors > 0) return false;
  if (m_model.elements.empty() && m_model.masses.empty() && m_model.springs.empty()) {
    m_diag.error(m_files[0], "no solid elements (" + solidCardNames() + ") found");
    return false;
  }
  // what the coordinate systems did, per system
  std::map<int, int> byCp, byCd;
  const GridCard* firstCp = nullptr;
  for (const GridCard& g : m_grids) {
    if (g.cp != 0 && ++byCp[g.cp] == 1 && !firstCp) firstCp = &g;
    if (g.cd != 0) ++byCd[g.cd];
  }
  auto list = [](const char* what, const std::map<int, int>& by, int& total) {
    std::string s;
    total = 0;
    for (const auto& [id, count] : by) {
      s += (s.empty() ? "" : ", ") + std::string(what) + " " + std::to_string(id) + ": " + std::to_string(count);
      total += count;
    }
    return s;
  };
  int total = 0;
  if (firstCp) {
    const std::string s = list("CP", byCp, total);
    m_diag.info(where(firstCp->loc), "GRID: " + std::to_string(total) + " grids given in local coordinate systems (" + s +
                                         ") are placed in the basic system");
  }
  if (!byCd.empty()) {
    const std::string s = list("CD", byCd, total);
    m_diag.info(m_files[0], "GRID: " + std::to_string(total) + " grids have their own displacement directions (" + s +
                                "); kept per node for the directions of interface DOFs");
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
  closeSection();
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
