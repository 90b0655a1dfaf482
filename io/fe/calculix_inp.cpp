// CalculiX / Abaqus .inp reader (calculix_inp.h): the entry points, reading a deck line by line,
// the data lines of each keyword block, and the resolution of the model (element nodes, sets,
// solid sections, discrete elements, couplings) once the whole deck is read.
// calculix_inp_parser.h lists where the keywords of each family are read.
#include "io/fe/calculix_inp.h"

#include "io/fe/calculix_inp_parser.h"
#include "io/fe/line_reader.h"

#include <algorithm>
#include <filesystem>
#include <limits>
#include <map>
#include <string>
#include <system_error>
#include <vector>

namespace flexim::io {

namespace {

namespace fs = std::filesystem;

}  // namespace

namespace inp_detail {

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

// ============================== data lines ===============================================

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
    case Block::Equation:
      splitFields(line, ',', m_fields);
      equationLine(loc);
      return;
    case Block::Tie:
      splitFields(line, ',', m_fields);
      tieLine(loc);
      return;
  }
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
  ties(m);
  equations(m);
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

}  // namespace inp_detail

bool readCalculixInp(const std::string& path, fe::FeModel& out, Diagnostics& diag, const InpOptions& options) {
  inp_detail::Parser p(diag, options);
  p.parseFile(path, nullptr);
  return p.finish(out);
}

bool readCalculixInpFromString(std::string_view text, const std::string& source, fe::FeModel& out, Diagnostics& diag,
                               const InpOptions& options) {
  inp_detail::Parser p(diag, options);
  std::error_code ec;
  fs::path canonical = fs::weakly_canonical(fs::path(source), ec);
  if (ec) canonical = fs::path(source);
  p.parseText(text, source, canonical.string());
  return p.finish(out);
}

}  // namespace flexim::io
