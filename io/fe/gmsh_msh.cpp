#include "io/fe/gmsh_msh.h"

#include "io/fe/line_reader.h"

#include <algorithm>
#include <array>
#include <functional>
#include <map>
#include <type_traits>
#include <unordered_set>
#include <utility>
#include <vector>

namespace flexim::io {

namespace {

// ---- the one table of gmsh element types ---------------------------------------------------

/// A gmsh element type. Solid types carry the FE type and the node-order map to Abaqus:
/// abaqus[i] = gmsh[toAbaqus[i]] (docs/fe-support.md, Elements; checked geometrically on real files).
struct GmshType {
  int code;
  const char* name;
  int dim;
  int nodes;
  bool solid;  ///< imported as an FE element
  fe::ElementType fe;
  std::array<int, 20> toAbaqus;
};

constexpr fe::ElementType kNone = fe::ElementType::Tet4;  // placeholder for non-solid rows

constexpr std::array<GmshType, 33> kGmshTypes{{
    // volume elements imported as FE elements
    {4, "tet4", 3, 4, true, fe::ElementType::Tet4, {0, 1, 2, 3}},
    // gmsh tet10 mid-edge nodes: 4:0-1 5:1-2 6:2-0 7:3-0 8:3-2 9:3-1;
    // Abaqus C3D10: 4:0-1 5:1-2 6:2-0 7:0-3 8:1-3 9:2-3 -> swap the last two
    {11, "tet10", 3, 10, true, fe::ElementType::Tet10, {0, 1, 2, 3, 4, 5, 6, 7, 9, 8}},
    {5, "hex8", 3, 8, true, fe::ElementType::Hex8, {0, 1, 2, 3, 4, 5, 6, 7}},
    // gmsh hex20 mid-edge nodes: 8:0-1 9:0-3 10:0-4 11:1-2 12:1-5 13:2-3 14:2-6 15:3-7
    //                            16:4-5 17:4-7 18:5-6 19:6-7;
    // Abaqus C3D20: 8:0-1 9:1-2 10:2-3 11:3-0 (bottom) 12:4-5 13:5-6 14:6-7 15:7-4 (top)
    //               16:0-4 17:1-5 18:2-6 19:3-7 (vertical)
    {17, "hex20", 3, 20, true, fe::ElementType::Hex20, {0,  1, 2,  3,  4,  5,  6,  7,  8,  11,
                                                        13, 9, 16, 18, 19, 17, 10, 12, 14, 15}},
    {6, "prism6", 3, 6, true, fe::ElementType::Wedge6, {0, 1, 2, 3, 4, 5}},
    // gmsh prism15 mid-edge nodes: 6:0-1 7:0-2 8:0-3 9:1-2 10:1-4 11:2-5 12:3-4 13:3-5 14:4-5;
    // Abaqus C3D15: 6:0-1 7:1-2 8:2-0 (bottom) 9:3-4 10:4-5 11:5-3 (top) 12:0-3 13:1-4 14:2-5
    {18, "prism15", 3, 15, true, fe::ElementType::Wedge15, {0, 1, 2, 3, 4, 5, 6, 9, 7, 12, 14, 13, 8, 10, 11}},
    {7, "pyramid5", 3, 5, true, fe::ElementType::Pyramid5, {0, 1, 2, 3, 4}},
    // gmsh pyramid13 mid-edge nodes: 5:0-1 6:0-3 7:0-4 8:1-2 9:1-4 10:2-3 11:2-4 12:3-4;
    // C3D13 (Nastran CPYRAM order): 5:0-1 6:1-2 7:2-3 8:3-0 (base) 9:0-4 10:1-4 11:2-4 12:3-4
    {19, "pyramid13", 3, 13, true, fe::ElementType::Pyramid13, {0, 1, 2, 3, 4, 5, 8, 10, 6, 7, 9, 11, 12}},
    // volume elements that are not supported
    {12, "hex27", 3, 27, false, kNone, {}},
    {13, "prism18", 3, 18, false, kNone, {}},
    {14, "pyramid14", 3, 14, false, kNone, {}},
    {29, "tet20", 3, 20, false, kNone, {}},
    {30, "tet35", 3, 35, false, kNone, {}},
    {31, "tet56", 3, 56, false, kNone, {}},
    {92, "hex64", 3, 64, false, kNone, {}},
    {93, "hex125", 3, 125, false, kNone, {}},
    // boundary elements: only their nodes are used (node sets of physical groups)
    {15, "point", 0, 1, false, kNone, {}},
    {1, "line2", 1, 2, false, kNone, {}},
    {8, "line3", 1, 3, false, kNone, {}},
    {26, "line4", 1, 4, false, kNone, {}},
    {27, "line5", 1, 5, false, kNone, {}},
    {28, "line6", 1, 6, false, kNone, {}},
    {2, "tri3", 2, 3, false, kNone, {}},
    {9, "tri6", 2, 6, false, kNone, {}},
    {20, "tri9", 2, 9, false, kNone, {}},
    {21, "tri10", 2, 10, false, kNone, {}},
    {22, "tri12", 2, 12, false, kNone, {}},
    {23, "tri15", 2, 15, false, kNone, {}},
    {25, "tri21", 2, 21, false, kNone, {}},
    {3, "quad4", 2, 4, false, kNone, {}},
    {16, "quad8", 2, 8, false, kNone, {}},
    {10, "quad9", 2, 9, false, kNone, {}},
    {36, "quad16", 2, 16, false, kNone, {}},
}};

const GmshType* findType(int code) {
  for (const auto& t : kGmshTypes)
    if (t.code == code) return &t;
  return nullptr;
}

/// "tet4 (4), tet10 (11), ...": the imported volume types, for messages.
std::string supportedList() {
  std::string s;
  for (const auto& t : kGmshTypes)
    if (t.solid) s += (s.empty() ? "" : ", ") + std::string(t.name) + " (" + std::to_string(t.code) + ")";
  return s;
}

// ---- parser ------------------------------------------------------------------------------

class MshParser {
 public:
  MshParser(std::string_view text, const std::string& source, Diagnostics& diag, const MshOptions& options)
      : m_in(text, source), m_diag(diag), m_options(options) {}

  bool run(fe::FeModel& out);

 private:
  // diagnostics
  void error(const std::string& message) { errorAt(m_in.line(), message); }
  void errorAt(int line, const std::string& message) {
    if (m_stop) return;
    m_diag.error(m_in.where(line), message);
    if (++m_errors >= m_options.max_errors) {
      m_diag.error(m_in.source(), "too many errors, stopped reading");
      m_stop = true;
    }
  }

  // line helpers
  /// Next line of a section's data; reports end of file or an early "$..." line, saying what
  /// was expected (a string, or a callable giving it: messages are built only on failure).
  template <class Expected>
  bool dataLine(std::string_view& line, const char* section, Expected&& expected) {
    if constexpr (std::is_invocable_v<Expected>) {
      return dataLineImpl(line, section, nullptr, &expected);
    } else {
      const std::string text(expected);
      return dataLineImpl(line, section, &text, static_cast<const std::function<std::string()>*>(nullptr));
    }
  }
  template <class F>
  bool dataLineImpl(std::string_view& line, const char* section, const std::string* text, const F* make);
  bool skipSection(const std::string& name, int startLine);
  bool expectEnd(const std::string& name, int startLine);
  template <class T>
  bool words(std::string_view line, std::size_t count, const std::string& what, std::vector<T>& out);
  bool ints(std::string_view line, std::size_t minCount, std::size_t maxCount, const std::string& what,
            std::vector<long long>& out);

  // sections
  bool meshFormat(int startLine);
  bool physicalNames(int startLine);
  bool entities(int startLine);
  bool nodes(int startLine);
  bool elements(int startLine);

  std::string groupName(int dim, int tag) const;
  void addToSets(int dim, int entity, const std::vector<int>& nodeIndices, int elementIndex);

  LineReader m_in;
  Diagnostics& m_diag;
  MshOptions m_options;
  int m_errors = 0;
  bool m_stop = false;

  fe::FeModel m_model;
  std::map<std::pair<int, int>, std::string> m_physicalNames;      // (dim, tag) -> name
  std::map<std::pair<int, int>, std::vector<int>> m_entityGroups;  // (dim, entity) -> physical tags
  bool m_haveEntities = false, m_haveNodes = false, m_haveElements = false;
  std::map<std::string, std::vector<int>> m_nodeSets, m_elementSets;
  std::vector<std::string_view> m_words;
};

template <class F>
bool MshParser::dataLineImpl(std::string_view& line, const char* section, const std::string* text, const F* make) {
  auto expected = [&] { return text ? *text : (*make)(); };
  if (!m_in.next(line)) {
    error(std::string("unexpected end of file in $") + section + ": expected " + expected());
    return false;
  }
  const std::string_view t = trim(line);
  if (!t.empty() && t[0] == '$') {
    error(std::string("$") + section + " ends early: expected " + expected() + ", got " + quoteField(t));
    m_in.unread();
    return false;
  }
  return true;
}

bool MshParser::skipSection(const std::string& name, int startLine) {
  const std::string end = "$End" + name;
  std::string_view line;
  while (m_in.next(line))
    if (trim(line) == end) return true;
  errorAt(startLine, "unexpected end of file: $" + name + " has no " + end);
  return false;
}

bool MshParser::expectEnd(const std::string& name, int startLine) {
  const std::string end = "$End" + name;
  std::string_view line;
  while (m_in.next(line)) {
    const std::string_view t = trim(line);
    if (t.empty()) continue;
    if (t == end) return true;
    error("expected " + end + " (more data than the counts announce?), got " + quoteField(t));
    return skipSection(name, startLine);
  }
  errorAt(startLine, "unexpected end of file: $" + name + " has no " + end);
  return false;
}

/// Integers of one line: between minCount and maxCount of them.
bool MshParser::ints(std::string_view line, std::size_t minCount, std::size_t maxCount, const std::string& what,
                     std::vector<long long>& out) {
  splitWords(line, m_words);
  if (m_words.size() < minCount || m_words.size() > maxCount) {
    const std::string n =
        minCount == maxCount ? std::to_string(minCount) : std::to_string(minCount) + " to " + std::to_string(maxCount);
    error("expected " + n + " integers (" + what + "), got " + std::to_string(m_words.size()) + " fields");
    return false;
  }
  out.resize(m_words.size());
  std::string problem;
  for (std::size_t i = 0; i < m_words.size(); ++i)
    if (!parseInt64(m_words[i], out[i], &problem)) {
      error(what + ": " + problem);
      return false;
    }
  return true;
}

bool MshParser::meshFormat(int startLine) {
  std::string_view line;
  if (!dataLine(line, "MeshFormat", "version, file type and data size")) return false;
  splitWords(line, m_words);
  if (m_words.size() < 3) {
    error("expected \"version file-type data-size\" (e.g. 4.1 0 8), got " + quoteField(trim(line)));
    return false;
  }
  const std::string_view version = m_words[0];
  int fileType = 0;
  std::string problem;
  if (!parseInt(m_words[1], fileType, &problem)) {
    error("file type: " + problem);
    return false;
  }
  if (fileType != 0) {
    error("binary .msh files are not supported; save the mesh as ASCII (Mesh.Binary = 0)");
    return false;
  }
  double v = 0.0;
  if (!parseDouble(version, v, &problem)) {
    error("version: " + problem);
    return false;
  }
  if (version != "4.1") {
    error("mesh format version " + std::string(version) +
          " is not supported; save the mesh as version 4.1 ASCII (Mesh.MshFileVersion = 4.1)");
    return false;
  }
  return expectEnd("MeshFormat", startLine);
}

bool MshParser::physicalNames(int startLine) {
  std::string_view line;
  std::vector<long long> v;
  if (!dataLine(line, "PhysicalNames", "the number of names")) return false;
  if (!ints(line, 1, 1, "number of physical names", v)) return skipSection("PhysicalNames", startLine);
  const long long n = v[0];
  if (n < 0) {
    error("negative number of physical names");
    return skipSection("PhysicalNames", startLine);
  }
  for (long long i = 0; i < n; ++i) {
    if (!dataLine(line, "PhysicalNames", [&] { return "'dim tag \"name\"' (" + std::to_string(n - i) + " more)"; }))
      return false;
    const std::size_t q1 = line.find('"'), q2 = line.rfind('"');
    if (q1 == std::string_view::npos || q2 == q1) {
      error("expected 'dim tag \"name\"', got " + quoteField(trim(line)));
      return skipSection("PhysicalNames", startLine);
    }
    if (!ints(line.substr(0, q1), 2, 2, "dimension and tag of a physical name", v))
      return skipSection("PhysicalNames", startLine);
    if (v[0] < 0 || v[0] > 3 || v[1] < 1 || v[1] > 2147483647) {
      error("invalid physical group dimension " + std::to_string(v[0]) + " or tag " + std::to_string(v[1]));
      continue;
    }
    if (!trim(line.substr(q2 + 1)).empty()) {
      error("unexpected text after the physical name: " + quoteField(trim(line.substr(q2 + 1))));
      continue;
    }
    std::string name = toUpper(trim(line.substr(q1 + 1, q2 - q1 - 1)));
    const auto key = std::make_pair(static_cast<int>(v[0]), static_cast<int>(v[1]));
    if (name.empty()) name = groupName(key.first, key.second);
    if (!m_physicalNames.emplace(key, name).second)
      m_diag.warning(m_in.where(), "physical group " + std::to_string(v[1]) + " of dimension " + std::to_string(v[0]) +
                                       " is named twice; the first name is used");
  }
  return expectEnd("PhysicalNames", startLine);
}

bool MshParser::entities(int startLine) {
  std::string_view line;
  std::vector<long long> counts;
  if (!dataLine(line, "Entities", "numPoints numCurves numSurfaces numVolumes")) return false;
  if (!ints(line, 4, 4, "numbers of points, curves, surfaces and volumes", counts))
    return skipSection("Entities", startLine);
  std::string problem;
  for (int dim = 0; dim < 4; ++dim) {
    if (counts[dim] < 0) {
      error("negative entity count");
      return skipSection("Entities", startLine);
    }
    const std::size_t nBox = dim == 0 ? 3 : 6;  // point: x y z; others: bounding box
    for (long long i = 0; i < counts[dim]; ++i) {
      static const char* kWhat[] = {"point", "curve", "surface", "volume"};
      if (!dataLine(line, "Entities", [&] { return std::string(kWhat[dim]) + " entity"; })) return false;
      splitWords(line, m_words);
      // tag, box, numPhysicalTags, tags [, numBoundingEntities, tags]
      std::size_t k = 0;
      int tag = 0;
      bool ok = m_words.size() >= 2 + nBox && parseInt(m_words[k++], tag, &problem);
      for (std::size_t b = 0; ok && b < nBox; ++b) {
        double x = 0.0;
        ok = parseDouble(m_words[k++], x, &problem);
      }
      long long nPhys = 0;
      ok = ok && parseInt64(m_words[k++], nPhys, &problem) && nPhys >= 0 &&
           nPhys <= static_cast<long long>(m_words.size() - k);
      std::vector<int> groups;
      for (long long p = 0; ok && p < nPhys; ++p) {
        int g = 0;
        ok = parseInt(m_words[k++], g, &problem);
        groups.push_back(g < 0 ? -g : g);
      }
      if (ok && dim > 0) {
        long long nBound = 0;
        ok = k < m_words.size() && parseInt64(m_words[k++], nBound, &problem) && nBound >= 0 &&
             nBound == static_cast<long long>(m_words.size() - k);
        for (std::size_t b = k; ok && b < m_words.size(); ++b) {
          int t = 0;
          ok = parseInt(m_words[b], t, &problem);
        }
      } else if (ok && k != m_words.size()) {
        ok = false;
      }
      if (!ok) {
        error(std::string("invalid ") + kWhat[dim] + " entity line" + (problem.empty() ? "" : ": " + problem) +
              " (expected tag, " + (dim == 0 ? "x y z" : "bounding box") + ", physical tags" +
              (dim == 0 ? "" : ", bounding entities") + ")");
        problem.clear();
        continue;
      }
      if (!groups.empty()) m_entityGroups[{dim, tag}] = std::move(groups);
    }
  }
  m_haveEntities = true;
  return expectEnd("Entities", startLine);
}

bool MshParser::nodes(int startLine) {
  std::string_view line;
  std::vector<long long> head, block;
  if (!dataLine(line, "Nodes", "numEntityBlocks numNodes minNodeTag maxNodeTag")) return false;
  if (!ints(line, 4, 4, "numEntityBlocks numNodes minNodeTag maxNodeTag", head)) return skipSection("Nodes", startLine);
  const int headLine = m_in.line();
  if (head[0] < 0 || head[1] < 0) {
    error("negative block or node count");
    return skipSection("Nodes", startLine);
  }
  if (head[1] > 2147483647) {
    error("too many nodes (" + std::to_string(head[1]) + ")");
    return skipSection("Nodes", startLine);
  }
  m_model.coords.reserve(static_cast<std::size_t>(std::min<long long>(head[1], 1 << 20)));
  long long total = 0;
  std::vector<int> tags;
  std::string problem;
  for (long long b = 0; b < head[0] && !m_stop; ++b) {
    if (!dataLine(line, "Nodes",
                  "entityDim entityTag parametric numNodesInBlock (block " + std::to_string(b + 1) + " of " +
                      std::to_string(head[0]) + ")"))
      return skipSection("Nodes", startLine);
    if (!ints(line, 4, 4, "entityDim entityTag parametric numNodesInBlock", block))
      return skipSection("Nodes", startLine);
    const long long dim = block[0], parametric = block[2], n = block[3];
    if (dim < 0 || dim > 3 || (parametric != 0 && parametric != 1) || n < 0) {
      error("invalid node block header (entity dimension 0..3, parametric 0 or 1, count >= 0)");
      return skipSection("Nodes", startLine);
    }
    total += n;
    if (total > head[1]) {
      error("node blocks hold more nodes than the " + std::to_string(head[1]) + " announced on line " +
            std::to_string(headLine));
      return skipSection("Nodes", startLine);
    }
    tags.clear();
    for (long long i = 0; i < n; ++i) {
      if (!dataLine(line, "Nodes", [&] { return "a node tag (" + std::to_string(n - i) + " more in this block)"; }))
        return skipSection("Nodes", startLine);
      int tag = 0;
      if (!parseInt(line, tag, &problem)) {
        error("node tag: " + problem);
        return skipSection("Nodes", startLine);
      }
      if (tag < 1) {
        error("node tag " + std::to_string(tag) + " is not positive");
        return skipSection("Nodes", startLine);
      }
      tags.push_back(tag);
    }
    const std::size_t values = 3 + (parametric ? static_cast<std::size_t>(dim) : 0);
    for (long long i = 0; i < n; ++i) {
      if (!dataLine(line, "Nodes", [&] { return "coordinates of node " + std::to_string(tags[i]); }))
        return skipSection("Nodes", startLine);
      splitWords(line, m_words);
      if (m_words.size() != values) {
        error("expected " + std::to_string(values) + " numbers (coordinates" + (parametric ? " and parameters" : "") +
              ") for node " + std::to_string(tags[i]) + ", got " + std::to_string(m_words.size()));
        return skipSection("Nodes", startLine);
      }
      Eigen::Vector3d x;
      for (int k = 0; k < 3; ++k)
        if (!parseDouble(m_words[k], x[k], &problem)) {
          error("coordinate of node " + std::to_string(tags[i]) + ": " + problem);
          return skipSection("Nodes", startLine);
        }
      for (std::size_t k = 3; k < values; ++k) {
        double u = 0.0;
        if (!parseDouble(m_words[k], u, &problem)) {
          error("parameter of node " + std::to_string(tags[i]) + ": " + problem);
          return skipSection("Nodes", startLine);
        }
      }
      if (m_model.addNode(tags[i], x) < 0) error("node " + std::to_string(tags[i]) + " is defined twice");
    }
  }
  if (total != head[1])
    errorAt(headLine,
            "the header announces " + std::to_string(head[1]) + " nodes, the blocks hold " + std::to_string(total));
  m_haveNodes = true;
  return expectEnd("Nodes", startLine);
}

std::string MshParser::groupName(int dim, int tag) const {
  const auto it = m_physicalNames.find({dim, tag});
  if (it != m_physicalNames.end()) return it->second;
  return "PHYSICAL_" + std::to_string(dim) + "D_" + std::to_string(tag);
}

void MshParser::addToSets(int dim, int entity, const std::vector<int>& nodeIndices, int elementIndex) {
  const auto it = m_entityGroups.find({dim, entity});
  if (it == m_entityGroups.end()) return;
  for (int g : it->second) {
    const std::string name = groupName(dim, g);
    auto& ns = m_nodeSets[name];
    ns.insert(ns.end(), nodeIndices.begin(), nodeIndices.end());
    if (elementIndex >= 0) m_elementSets[name].push_back(elementIndex);
  }
}

bool MshParser::elements(int startLine) {
  if (!m_haveNodes) error("$Elements comes before $Nodes");
  std::string_view line;
  std::vector<long long> head, block;
  if (!dataLine(line, "Elements", "numEntityBlocks numElements minElementTag maxElementTag")) return false;
  if (!ints(line, 4, 4, "numEntityBlocks numElements minElementTag maxElementTag", head))
    return skipSection("Elements", startLine);
  const int headLine = m_in.line();
  if (head[0] < 0 || head[1] < 0) {
    error("negative block or element count");
    return skipSection("Elements", startLine);
  }
  long long total = 0;
  std::unordered_set<int> seenTags;
  std::vector<int> idx;
  std::string problem;
  for (long long b = 0; b < head[0] && !m_stop; ++b) {
    if (!dataLine(line, "Elements",
                  "entityDim entityTag elementType numElementsInBlock (block " + std::to_string(b + 1) + " of " +
                      std::to_string(head[0]) + ")"))
      return skipSection("Elements", startLine);
    if (!ints(line, 4, 4, "entityDim entityTag elementType numElementsInBlock", block))
      return skipSection("Elements", startLine);
    const int blockLine = m_in.line();
    const long long dim = block[0], n = block[3];
    const int entity = static_cast<int>(std::clamp<long long>(block[1], -2147483647, 2147483647));
    if (dim < 0 || dim > 3 || n < 0) {
      error("invalid element block header (entity dimension 0..3, count >= 0)");
      return skipSection("Elements", startLine);
    }
    total += n;
    if (total > head[1]) {
      error("element blocks hold more elements than the " + std::to_string(head[1]) + " announced on line " +
            std::to_string(headLine));
      return skipSection("Elements", startLine);
    }
    const GmshType* type = findType(static_cast<int>(std::clamp<long long>(block[2], -1, 1000000)));
    bool usable = true;
    if (!type) {
      error("unknown element type " + std::to_string(block[2]));
      usable = false;
    } else if (type->dim != dim) {
      error("element type " + std::to_string(type->code) + " (" + type->name + ") has dimension " +
            std::to_string(type->dim) + " but the block is on an entity of dimension " + std::to_string(dim));
      usable = false;
    } else if (dim == 3 && !type->solid) {
      const bool complete = type->code == 12 || type->code == 13 || type->code == 14;  // hex27, prism18, pyramid14
      error("volume element type " + std::to_string(type->code) + " (" + type->name + ") is not supported; supported: " +
            supportedList() + (complete ? " (save serendipity elements: Mesh.SecondOrderIncomplete = 1)" : ""));
      usable = false;
    }
    for (long long i = 0; i < n; ++i) {
      if (!dataLine(line, "Elements", [&] {
            return "an element (" + std::to_string(n - i) + " more in the block on line " + std::to_string(blockLine) +
                   ")";
          }))
        return skipSection("Elements", startLine);
      if (!usable || m_stop) continue;
      splitWords(line, m_words);
      if (m_words.size() != static_cast<std::size_t>(type->nodes) + 1) {
        error("expected an element tag and " + std::to_string(type->nodes) + " node tags (" + type->name + "), got " +
              std::to_string(m_words.size()) + " numbers");
        continue;
      }
      int tag = 0;
      if (!parseInt(m_words[0], tag, &problem)) {
        error("element tag: " + problem);
        continue;
      }
      if (!seenTags.insert(tag).second) {
        error("element " + std::to_string(tag) + " is defined twice");
        continue;
      }
      idx.assign(static_cast<std::size_t>(type->nodes), -1);
      bool ok = true;
      for (int k = 0; k < type->nodes && ok; ++k) {
        int nodeTag = 0;
        if (!parseInt(m_words[k + 1], nodeTag, &problem)) {
          error("node of element " + std::to_string(tag) + ": " + problem);
          ok = false;
        } else if ((idx[k] = m_model.indexOf(nodeTag)) < 0) {
          error("element " + std::to_string(tag) + " uses node " + std::to_string(nodeTag) +
                ", which is not in $Nodes");
          ok = false;
        }
      }
      if (!ok) continue;
      int elementIndex = -1;
      if (type->solid) {
        fe::Element e;
        e.id = tag;
        e.type = type->fe;
        for (int k = 0; k < type->nodes; ++k) e.nodes[k] = idx[type->toAbaqus[k]];
        for (int k = 0; k < type->nodes; ++k)
          for (int j = 0; j < k; ++j)
            if (e.nodes[k] == e.nodes[j]) {
              error("element " + std::to_string(tag) + " uses node " + std::to_string(m_model.node_ids[e.nodes[k]]) +
                    " twice");
              ok = false;
              k = type->nodes;
              break;
            }
        if (!ok) continue;
        elementIndex = static_cast<int>(m_model.elements.size());
        m_model.elements.push_back(e);
      }
      addToSets(static_cast<int>(dim), entity, idx, elementIndex);
    }
  }
  if (total != head[1])
    errorAt(headLine,
            "the header announces " + std::to_string(head[1]) + " elements, the blocks hold " + std::to_string(total));
  m_haveElements = true;
  return expectEnd("Elements", startLine);
}

bool MshParser::run(fe::FeModel& out) {
  m_model.sources.push_back(m_in.source());
  std::string_view line;
  bool first = true;
  while (!m_stop && m_in.next(line)) {
    const std::string_view t = trim(line);
    if (t.empty()) continue;
    const int start = m_in.line();
    if (t[0] != '$') {
      if (first) {
        error("not a gmsh .msh file: it must start with $MeshFormat, got " + quoteField(t));
        break;
      }
      error("expected a section such as $Nodes, got " + quoteField(t));
      continue;
    }
    const std::string name(t.substr(1));
    if (first) {
      first = false;
      if (name != "MeshFormat") {
        error("not a gmsh .msh file: it must start with $MeshFormat, got " + quoteField(t));
        break;
      }
      if (!meshFormat(start)) break;  // nothing else can be read reliably
      continue;
    }
    if (name == "MeshFormat") {
      error("$MeshFormat appears twice");
      skipSection(name, start);
    } else if (name == "PhysicalNames") {
      physicalNames(start);
    } else if (name == "Entities") {
      entities(start);
    } else if (name == "Nodes") {
      if (m_haveNodes) {
        error("$Nodes appears twice");
        skipSection(name, start);
      } else {
        nodes(start);
      }
    } else if (name == "Elements") {
      if (m_haveElements) {
        error("$Elements appears twice");
        skipSection(name, start);
      } else {
        elements(start);
      }
    } else if (name == "PartitionedEntities") {
      error("partitioned meshes are not supported; save the mesh without partitions");
      skipSection(name, start);
    } else if (name.rfind("End", 0) == 0) {
      error("unexpected " + quoteField(t) + " without a matching section start");
    } else {
      m_diag.info(m_in.where(), "section $" + name + " skipped");
      skipSection(name, start);
    }
  }
  if (first && !m_stop && m_errors == 0) error("empty file: not a gmsh .msh file");
  if (m_errors == 0) {
    if (!m_haveNodes) m_diag.error(m_in.source(), "no $Nodes section");
    if (!m_haveElements) m_diag.error(m_in.source(), "no $Elements section");
    if (!m_haveNodes || !m_haveElements) return false;
    if (m_model.elements.empty()) {
      m_diag.error(m_in.source(), "no volume elements (supported: " + supportedList() +
                                      "); was the mesh generated in 3-D, and are its volumes in a physical group?");
      return false;
    }
    if (!m_haveEntities && !m_physicalNames.empty())
      m_diag.warning(m_in.source(), "no $Entities section: physical groups cannot be turned into sets");
  }
  if (m_errors > 0) return false;

  for (auto& [name, s] : m_nodeSets) {
    std::sort(s.begin(), s.end());
    s.erase(std::unique(s.begin(), s.end()), s.end());
  }
  for (auto& [name, s] : m_elementSets) {
    std::sort(s.begin(), s.end());
    s.erase(std::unique(s.begin(), s.end()), s.end());
  }
  m_model.node_sets = std::move(m_nodeSets);
  m_model.element_sets = std::move(m_elementSets);
  out = std::move(m_model);
  return true;
}

}  // namespace

std::span<const int> gmshToAbaqus(int gmshType) {
  const GmshType* t = findType(gmshType);
  if (!t || !t->solid) return {};
  return std::span<const int>(t->toAbaqus.data(), static_cast<std::size_t>(t->nodes));
}

bool readGmshMshFromString(std::string_view text, const std::string& source, fe::FeModel& out, Diagnostics& diag,
                           const MshOptions& options) {
  MshParser parser(text, source, diag, options);
  return parser.run(out);
}

bool readGmshMsh(const std::string& path, fe::FeModel& out, Diagnostics& diag, const MshOptions& options) {
  std::string text;
  if (!readTextFile(path, text, diag)) return false;
  return readGmshMshFromString(text, path, out, diag, options);
}

}  // namespace flexim::io
