// Nastran bulk data syntax: physical lines to cards (small, large and free field, continuation
// lines, tabs, comments), replication entries ("=", "=n"), INCLUDE, BEGIN sections, and the count
// of the cards that are skipped.
#include "io/fe/line_reader.h"
#include "io/fe/nastran_parser.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <filesystem>
#include <set>
#include <string>
#include <system_error>
#include <utility>
#include <vector>

namespace flexim::io::nastran_detail {

bool looksReal(std::string_view f) {
  f = trim(f);
  if (f.empty()) return false;
  if (f.find('.') != std::string_view::npos) return true;
  for (std::size_t i = 1; i < f.size(); ++i)
    if (f[i] == 'e' || f[i] == 'E' || f[i] == 'd' || f[i] == 'D' || f[i] == '+' || f[i] == '-') return true;
  return false;
}

std::string fieldName(std::size_t i) {
  return "field " + std::to_string(i % 8 + 2) + (i >= 8 ? " of continuation " + std::to_string(i / 8) : std::string());
}

namespace {

namespace fs = std::filesystem;

constexpr int kMaxIncludeDepth = 32;
constexpr std::size_t kMaxCardFields = 200;        ///< longer cards are certainly garbage here...
constexpr std::size_t kMaxListFields = 2'000'000;  ///< ...except the grid lists of RBE2 and RBE3
constexpr long long kMaxRepeat = 100'000;          ///< "=n" replication at most

/// The cards this importer reads; every other card is skipped (nastran_skipped.h says how).
const std::set<std::string, std::less<>> kReadCards{
    "GRID",  "GRDSET", "CTETRA", "CHEXA",  "CPENTA", "CPYRAM", "MAT1",   "PSOLID", "CONM1",  "CONM2",  "CMASS1",
    "CMASS2", "CELAS1", "CELAS2", "CBUSH", "PELAS",  "PMASS",  "PBUSH",  "RBE2",   "RBE3",   "CORD1R", "CORD1C",
    "CORD1S", "CORD2R", "CORD2C", "CORD2S", "MPC"};

bool isBlankOrSign(char c) { return c == ' ' || c == '+' || c == '*' || c == ','; }

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

/// A line of the form `key = value` (an identifier, blanks, '='): the option lines of ADAPT and
/// OUTPUT blocks, which are no bulk data cards.
bool isKeyValue(std::string_view s) {
  const std::string_view t = trim(s);
  std::size_t i = 0;
  while (i < t.size() && (std::isalnum(static_cast<unsigned char>(t[i])) || t[i] == '_' || t[i] == '(' || t[i] == ')')) ++i;
  if (i == 0 || !std::isalpha(static_cast<unsigned char>(t[0]))) return false;
  while (i < t.size() && t[i] == ' ') ++i;
  return i < t.size() && t[i] == '=';
}

std::string formatReal(double v) {
  char buf[40];
  const auto r = std::to_chars(buf, buf + sizeof buf, v);
  std::string s(buf, r.ptr);
  if (s.find_first_of(".eEn") == std::string::npos) s += ".";
  return s;
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

}  // namespace

// ---- lines to cards ----------------------------------------------------------------------

namespace {

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

}  // namespace

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
  if (!m_includeName.empty()) {
    error(m_includeLoc, "INCLUDE: missing closing quote (the file name runs to the end of the file)");
    m_includeName.clear();
  }
}

void NastranParser::include(std::string_view rest, const Loc& loc, int depth) {
  finishCard();
  std::string_view name = trim(rest);
  if (!name.empty() && (name.front() == '\'' || name.front() == '"')) {
    const char q = name.front();
    const std::size_t end = name.find(q, 1);
    if (end == std::string_view::npos) {
      // the name goes on over the next lines (line() adds them until the closing quote)
      m_includeName = std::string(name);
      m_includeLoc = loc;
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

  // the rest of an INCLUDE's quoted file name
  if (!m_includeName.empty()) {
    m_includeName += trim(s);
    if (m_includeName.find(m_includeName.front(), 1) != std::string::npos) {
      const std::string statement = std::move(m_includeName);
      m_includeName.clear();
      include(statement, m_includeLoc, depth);
    }
    return;
  }
  // `key = value` lines of a skipped card (ADAPT, OUTPUT blocks): part of that card
  if (m_open && m_mode == Mode::Skip && s.find(',') == std::string::npos && isKeyValue(s)) return;

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

}  // namespace flexim::io::nastran_detail
