// Nastran bulk data reader (nastran.h): the entry points, the node-order maps of the solids,
// field access, the card dispatch, and the resolution of the model once every card is read.
// nastran_parser.h lists where the cards of each family are read.
#include "io/fe/nastran.h"

#include "io/fe/line_reader.h"
#include "io/fe/nastran_parser.h"

#include <array>
#include <filesystem>
#include <map>
#include <set>
#include <string>
#include <system_error>

namespace flexim::io {

namespace {

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

}  // namespace

namespace nastran_detail {

namespace {

namespace fs = std::filesystem;

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

}  // namespace

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
  } else if (c.name == "MPC") {
    m_mpcs.push_back(c);
  } else if (c.name == "PELAS" || c.name == "PMASS" || c.name == "PBUSH") {
    property(c);
  }
}

// ---- the model ---------------------------------------------------------------------------

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
  constraints();
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

}  // namespace nastran_detail

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
  nastran_detail::NastranParser parser(diag, options);
  return parser.run(text, source, out);
}

bool readNastranBulk(const std::string& path, fe::FeModel& out, Diagnostics& diag, const NastranOptions& options) {
  std::string text;
  if (!readTextFile(path, text, diag)) return false;
  return readNastranBulkFromString(text, path, out, diag, options);
}

}  // namespace flexim::io
